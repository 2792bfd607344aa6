/* cli_progress.c - a progress line on standard error for a command that
 * runs long: after OPTCAST_PROGRESS_AFTER_MS (default 2000) a line "optcast
 * plan kbcast: working, 3 s" rewritten once a second, with the estimate a
 * command gives (cli_progress_note), cleared when the command ends.  On a
 * terminal only, and not with --quiet, --json or --csv to a terminal's
 * stderr either way (they write stdout; the line goes to stderr). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static pthread_t thread;
static int running, stop, shown, registered;
static char what[96], note[96];

static void add_ms(struct timespec *t, long ms) {
  t->tv_sec += ms / 1000;
  t->tv_nsec += (ms % 1000) * 1000000L;
  if (t->tv_nsec >= 1000000000L) {
    t->tv_sec++;
    t->tv_nsec -= 1000000000L;
  }
}

static struct timespec t0;

/* the line (the lock held) */
static void draw(void) {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  fprintf(stderr, "\roptcast %s: working, %ld s%s%s\033[K", what, (long)(now.tv_sec - t0.tv_sec),
          note[0] ? "; " : "", note);
  fflush(stderr);
  shown = 1;
}

static void *beat(void *arg) {
  long after = *(const long *)arg;
  struct timespec at;
  pthread_mutex_lock(&mu);
  at = t0;
  add_ms(&at, after);
  while (!stop) {
    if (pthread_cond_timedwait(&cv, &mu, &at) == 0 || stop) continue; /* woken: check stop */
    draw();
    clock_gettime(CLOCK_REALTIME, &at);
    add_ms(&at, 1000);
  }
  pthread_mutex_unlock(&mu);
  return NULL;
}

static void end(void) {
  if (!running) return;
  pthread_mutex_lock(&mu);
  stop = 1;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&mu);
  pthread_join(thread, NULL);
  running = 0;
  if (shown) fputs("\r\033[K", stderr); /* the line goes: what follows starts clean */
}

void cli_progress_start(const char *cmd, const char *problem) {
  static long after = 2000;
  const char *env = getenv("OPTCAST_PROGRESS_AFTER_MS");
  if (running || !isatty(STDERR_FILENO)) return;
  if (env != NULL) after = strtol(env, NULL, 10);
  if (after < 0) return; /* (a negative value turns it off) */
  snprintf(what, sizeof what, "%s%s%s", cmd, problem ? " " : "", problem ? problem : "");
  stop = shown = 0;
  clock_gettime(CLOCK_REALTIME, &t0);
  if (after == 0) { /* at once, before anything else happens (the tests) */
    pthread_mutex_lock(&mu);
    draw();
    pthread_mutex_unlock(&mu);
  }
  if (pthread_create(&thread, NULL, beat, &after) != 0) {
    if (shown) fputs("\r\033[K", stderr);
    return;
  }
  running = 1;
  if (!registered) atexit(end); /* die() exits from anywhere */
  registered = 1;
}

void cli_progress_note(const char *text) {
  pthread_mutex_lock(&mu);
  snprintf(note, sizeof note, "%s", text);
  if (running && shown && !stop) draw(); /* the line already up: at once with the note */
  pthread_mutex_unlock(&mu);
}

void cli_progress_say(const char *line) {
  pthread_mutex_lock(&mu);
  if (shown) fputs("\r\033[K", stderr); /* the line goes, the message, the line again */
  fputs(line, stderr);
  if (running && shown && !stop) draw();
  pthread_mutex_unlock(&mu);
}

void cli_progress_end(void) { end(); }
