/* test_main.c - runs every registered test in its own process under a time
 * limit; prints one line per test and a closing "N passed, N failed". */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

#define TEST_TIMEOUT_S 120

typedef struct tcase {
  const char *name;
  void (*fn)(void);
} tcase;

static const tcase TESTS[] = {
#define TEST_ENTRY_(name) {#name, test_##name},
    TEST_LIST(TEST_ENTRY_)
#undef TEST_ENTRY_
};

void test_fail(const char *file, int line, const char *what) {
  fprintf(stderr, "  %s:%d: check failed: %s\n", file, line, what);
  fflush(stderr);
  _exit(1);
}

void test_failf(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "  %s:%d: check failed: ", file, line);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  fflush(stderr);
  _exit(1);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
uint64_t test_rand(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1DULL;
}
int64_t test_range(int64_t lo, int64_t hi) {
  return lo + (int64_t)(test_rand() % (uint64_t)(hi - lo + 1));
}
int test_sweep(void) { return getenv("OPTCAST_SWEEP") != NULL; }
int test_valgrind(void) { return getenv("OPTCAST_VALGRIND") != NULL; }

/* built with AddressSanitizer (gcc says __SANITIZE_ADDRESS__, clang
 * __has_feature): the code runs 2-4x slower */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_SANITIZED 1
#endif
#endif
#ifndef TEST_SANITIZED
#define TEST_SANITIZED 0
#endif

/* A test's time limit: TEST_TIMEOUT_S, scaled for slow runs - sweeps run
 * 10x the cases, valgrind runs the code 20-50x slower (4x the limit), the
 * sanitizers 2-4x (4x the limit), and OPTCAST_TIMEOUT_FACTOR (1..100)
 * scales it again for a loaded machine. */
static unsigned timeout_s(void) {
  unsigned t = TEST_TIMEOUT_S;
  const char *f = getenv("OPTCAST_TIMEOUT_FACTOR");
  if (test_sweep()) t *= 10;
  if (test_valgrind()) t *= 4;
  if (TEST_SANITIZED) t *= 4;
  if (f != NULL) {
    char *end;
    long k = strtol(f, &end, 10);
    if (*f != '\0' && *end == '\0' && k >= 1 && k <= 100) t *= (unsigned)k;
  }
  return t;
}

int main(int argc, char **argv) {
  int passed = 0, failed = 0;
  const char *filter = argc > 1 ? argv[1] : NULL;
  if (getenv("OPTCAST_BIN") == NULL) {
    /* the command next to this test binary */
    static char bin[4096];
    const char *slash = strrchr(argv[0], '/');
    size_t n = slash ? (size_t)(slash - argv[0]) : 1;
    snprintf(bin, sizeof bin, "%.*s/optcast", (int)n, slash ? argv[0] : ".");
    setenv("OPTCAST_BIN", bin, 1);
  }
  for (size_t i = 0; i < sizeof TESTS / sizeof TESTS[0]; i++) {
    pid_t pid;
    int st = 0;
    if (filter && strstr(TESTS[i].name, filter) == NULL) continue;
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
      rng_state ^= (uint64_t)(i + 1) * 0x9E3779B97F4A7C15ULL;
      alarm(timeout_s());
      TESTS[i].fn();
      fflush(stdout);
      _exit(0);
    }
    if (pid < 0 || waitpid(pid, &st, 0) < 0) {
      printf("FAIL %s (could not run)\n", TESTS[i].name);
      failed++;
      continue;
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
      printf("ok   %s\n", TESTS[i].name);
      passed++;
    } else {
      if (WIFSIGNALED(st))
        printf("FAIL %s (signal %d%s)\n", TESTS[i].name, WTERMSIG(st),
               WTERMSIG(st) == SIGALRM ? ": timed out" : "");
      else
        printf("FAIL %s\n", TESTS[i].name);
      failed++;
    }
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
