/* bench_plan.c - plan + verify of a full broadcast schedule.
 *
 * Target (issue 2): P = 10^7 under 3 s and 1 GiB peak memory on a 2-core
 * machine.  Each configuration runs in its own process (so that peak RSS
 * is its own); three runs, median times.
 * Usage: bench_plan [P]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "optcast.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* child: plan + verify, write "build verify rss_kb" to fd */
static void one(int fd, long long P, long long L, long long o, long long g,
                oc_bcast_alg alg) {
  oc_params p;
  oc_bcast *b;
  oc_sched s;
  oc_verdict v;
  double t0, t1, t2;
  struct rusage ru;
  char line[128];
  int n;
  if (oc_params_logp(&p, P, L, o, g) != OC_OK) _exit(2);
  t0 = now_s();
  if (oc_bcast_new(&b, &p, 0, alg) != OC_OK) _exit(3);
  oc_sched_init(&s);
  if (oc_bcast_schedule(b, &s) != OC_OK) _exit(4);
  t1 = now_s();
  if (oc_verify_bcast(&p, 0, 1, &s, &v) != OC_OK || !v.ok ||
      v.time != oc_bcast_completion(b))
    _exit(5);
  t2 = now_s();
  getrusage(RUSAGE_SELF, &ru);
  n = snprintf(line, sizeof line, "%f %f %ld\n", t1 - t0, t2 - t1, ru.ru_maxrss);
  if (write(fd, line, (size_t)n) != n) _exit(6);
  oc_sched_free(&s);
  oc_bcast_free(b);
  _exit(0);
}

int main(int argc, char **argv) {
  static const long long sets[][3] = {{6, 2, 4}, {1, 0, 1}, {100, 100, 100},
                                      {1, 0, 100}, {10, 0, 1}};
  long long P = argc > 1 ? atoll(argv[1]) : 10000000LL;
  printf("plan + verify, P = %lld (median of 3 runs; each run its own process)\n", P);
  printf("%-14s %-15s %8s %8s %8s %10s\n", "L,o,g", "algorithm", "build s",
         "verify s", "total s", "peak MiB");
  for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
    for (int a = 0; a < 3; a++) {
      double bt[3], vt[3], tt[3];
      long rss = 0;
      char name[64];
      if (a == OC_BCAST_SHOUCHEN && i > 0) continue;
      for (int r = 0; r < 3; r++) {
        int fds[2], st;
        char buf[128] = {0};
        long k;
        pid_t pid;
        if (pipe(fds) != 0) return 1;
        pid = fork();
        if (pid == 0) {
          close(fds[0]);
          one(fds[1], P, sets[i][0], sets[i][1], sets[i][2], (oc_bcast_alg)a);
        }
        close(fds[1]);
        if (read(fds[0], buf, sizeof buf - 1) <= 0) buf[0] = '\0';
        close(fds[0]);
        waitpid(pid, &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 ||
            sscanf(buf, "%lf %lf %ld", &bt[r], &vt[r], &k) != 3) {
          fprintf(stderr, "run failed (status %d)\n", st);
          return 1;
        }
        tt[r] = bt[r] + vt[r];
        if (k > rss) rss = k;
      }
      qsort(bt, 3, sizeof bt[0], cmpd);
      qsort(vt, 3, sizeof vt[0], cmpd);
      qsort(tt, 3, sizeof tt[0], cmpd);
      snprintf(name, sizeof name, "%lld,%lld,%lld", sets[i][0], sets[i][1], sets[i][2]);
      printf("%-14s %-15s %8.2f %8.2f %8.2f %10.0f\n", name,
             oc_bcast_alg_name((oc_bcast_alg)a), bt[1], vt[1], tt[1],
             (double)rss / 1024.0);
      fflush(stdout);
    }
  }
  return 0;
}
