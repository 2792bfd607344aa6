/* bench_kport.c - the k-port model (Bar-Noy & Ho).
 *
 *   ./build/bench_kport table   the grid (n <= 200, 1 <= k <= 6,
 *                               m <= 64): time minus lower bound for k-tree,
 *                               rotation and best, every schedule verified,
 *                               and the (n, k) where best is above Lemma 2+1
 *   ./build/bench_kport grid [N [verify [S]|K]]  k <= 6 (or k = K), n <= N (10^4),
 *                               m = 1..13 and 59..64: best minus the lower
 *                               bound, times only (all verified with
 *                               `verify`; every S-th n with `verify S`)
 *   ./build/bench_kport open [N [K]]  the n <= N without a chain of delay
 *                               d + 1 (k = 2..6, or K), m = 1..64: best
 *                               planned and verified, minus the lower bound
 *   ./build/bench_kport time    plan and verify large instances: medians of
 *                               7 runs, nanoseconds per message
 * Markdown on stdout (docs/ALGORITHMS.md, docs/BENCHMARKS.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "optcast.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* plan + verify; returns the time, -1 when the algorithm has no plan */
static int64_t run(int64_t n, int64_t k, int64_t m, oc_kport_alg alg) {
  oc_sched s;
  oc_kport_result r;
  oc_verdict v;
  int e;
  oc_sched_init(&s);
  e = oc_kport_plan(n, k, m, 0, alg, &s, &r);
  if (e == OC_EUNSUP) {
    oc_sched_free(&s);
    return -1;
  }
  if (e != OC_OK || oc_verify_kport(n, k, m, 0, &s, &v) != OC_OK || !v.ok ||
      v.time != r.time) {
    fprintf(stderr, "bench_kport: n=%lld k=%lld m=%lld %s failed\n", (long long)n,
            (long long)k, (long long)m, oc_kport_alg_name(alg));
    exit(1);
  }
  oc_sched_free(&s);
  return r.time;
}

static void table(int64_t kmin, int64_t kmax) {
  printf("| k | algorithm | instances | +0 | +1 | +2 | +3 | +4 or more |\n");
  printf("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (int64_t k = kmin; k <= kmax; k++) {
    long cnt[3][6] = {{0}};
    for (int64_t n = 2; n <= 200; n++)
      for (int64_t m = 1; m <= 64; m++) {
        oc_kport_bounds b;
        int64_t t[3];
        oc_kport_bound(n, k, m, &b);
        t[0] = run(n, k, m, OC_KP_KTREE);
        t[1] = run(n, k, m, OC_KP_ROTATION);
        t[2] = run(n, k, m, OC_KP_BEST);
        for (int a = 0; a < 3; a++) {
          int64_t g;
          if (t[a] < 0) continue;
          g = t[a] - b.lb;
          cnt[a][5]++;
          cnt[a][g > 4 ? 4 : g]++;
        }
      }
    for (int a = 0; a < 3; a++)
      printf("| %lld | %s | %ld | %ld | %ld | %ld | %ld | %ld |\n", (long long)k,
             a == 0 ? "ktree" : a == 1 ? "rotation (where it has a chain)" : "best",
             cnt[a][5], cnt[a][0], cnt[a][1], cnt[a][2], cnt[a][3], cnt[a][4]);
  }
  printf("\nn (2..200) where best exceeds Lemma 2 + 1 for some m <= 64, "
         "with the largest excess over Lemma 2 + 1:\n\n");
  for (int64_t k = oc_max64(kmin, 2); k <= kmax; k++) {
    int first = 1;
    printf("- k = %lld:", (long long)k);
    for (int64_t n = 2; n <= 200; n++) {
      int64_t worst = 0;
      for (int64_t m = 1; m <= 64; m++) {
        oc_kport_bounds b;
        oc_kport_result r;
        oc_kport_bound(n, k, m, &b);
        oc_kport_plan(n, k, m, 0, OC_KP_BEST, NULL, &r);
        if (r.time - (b.lemma2 + 1) > worst) worst = r.time - (b.lemma2 + 1);
      }
      if (worst > 0) {
        printf("%s %lld%s", first ? "" : ",", (long long)n, worst > 1 ? "(+2)" : "");
        first = 0;
      }
    }
    printf("%s\n", first ? " none" : "");
  }
  printf("\nn (k + 2..200) where rotation has no chain:\n\n");
  for (int64_t k = 1; k <= 6; k++) {
    int first = 1;
    printf("- k = %lld:", (long long)k);
    for (int64_t n = k + 2; n <= 200; n++) {
      oc_kport_result r;
      if (oc_kport_plan(n, k, 1, 0, OC_KP_ROTATION, NULL, &r) == OC_EUNSUP) {
        printf("%s %lld", first ? "" : ",", (long long)n);
        first = 0;
      }
    }
    printf("%s\n", first ? " none" : "");
  }
}

static int64_t best_time2(int64_t n, int64_t k, int64_t m, int cov, int64_t dep);

/* best's time without a schedule: the k-tree from the planner, the
 * rotation from its chain's depth (ceil(m/k) - 1 + depth, the formula the
 * tests check against the verifier) - the chain search runs once per
 * (n, k), not once per m; where that is above lb + 1 and there is no
 * chain, best itself (which also tries a chain of delay d + 2). */
static int64_t best_time(int64_t n, int64_t k, int64_t m, int cov, int64_t dep) {
  oc_kport_result r;
  oc_kport_bounds b;
  int64_t t = best_time2(n, k, m, cov, dep);
  oc_kport_bound(n, k, m, &b);
  if (!cov && n > k + 1 && t > b.lb + 1 &&
      oc_kport_plan(n, k, m, 0, OC_KP_BEST, NULL, &r) == OC_OK && r.time < t)
    t = r.time;
  return t;
}

static int64_t best_time2(int64_t n, int64_t k, int64_t m, int cov, int64_t dep) {
  oc_kport_result r;
  int64_t t;
  if (k == 1) { /* best is the circulant there: its time is O(1) */
    if (oc_kport_plan(n, k, m, 0, OC_KP_BEST, NULL, &r) != OC_OK) exit(1);
    return r.time;
  }
  if (oc_kport_plan(n, k, m, 0, OC_KP_KTREE, NULL, &r) != OC_OK) exit(1);
  t = r.time;
  if (n <= k + 1) { /* cheap: no chain search there */
    if (oc_kport_plan(n, k, m, 0, OC_KP_ROTATION, NULL, &r) == OC_OK && r.time < t)
      t = r.time;
  } else if (cov && (m + k - 1) / k - 1 + dep < t) {
    t = (m + k - 1) / k - 1 + dep;
  }
  return t;
}

/* The larger grid: k = 1..6, n = 2..nmax, m = 1..13 and 59..64 (every
 * batch remainder beta at one, two and three batches and at ten or
 * eleven, for k <= 6): best's time minus the lower bound (times only;
 * `table` verifies n <= 200, `verify` here every schedule: slow); the n
 * where it is above lb + 1 for some m are listed. */
static void grid(int64_t nmax, int verify, int kmin, int kmax, int64_t stride) {
  static const int64_t ms[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                               59, 60, 61, 62, 63, 64};
  const size_t nm = sizeof ms / sizeof ms[0];
  char *list[7] = {NULL};
  size_t len[7] = {0};
  printf("| k | instances | +0 | +1 | +2 | +3 or more |\n");
  printf("| ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (int64_t k = kmin; k <= kmax; k++) {
    long cnt[5] = {0};
    FILE *f = open_memstream(&list[k], &len[k]);
    int first = 1;
    if (f == NULL) exit(1);
    for (int64_t n = 2; n <= nmax; n += stride) {
      int64_t dep = 0, worst = 0, wm = 0;
      int cov = n > k + 1 && oc_kport_rotation_covers(n, k, &dep);
      for (size_t i = 0; i < nm; i++) {
        oc_kport_bounds b;
        int64_t g, m = ms[i], t = best_time(n, k, m, cov, dep);
        oc_kport_bound(n, k, m, &b);
        if (verify && run(n, k, m, OC_KP_BEST) != t) {
          fprintf(stderr, "bench_kport: n=%lld k=%lld m=%lld: time differs\n", (long long)n,
                  (long long)k, (long long)m);
          exit(1);
        }
        g = t - b.lb;
        cnt[g > 3 ? 3 : g]++;
        cnt[4]++;
        if (g > worst) {
          worst = g;
          wm = m;
        }
      }
      if (worst > 1) {
        fprintf(f, "%s %lld (+%lld at m = %lld)", first ? "" : ",", (long long)n,
                (long long)worst, (long long)wm);
        first = 0;
      }
    }
    fclose(f);
    printf("| %lld | %ld | %ld | %ld | %ld | %ld |\n", (long long)k, cnt[4], cnt[0], cnt[1],
           cnt[2], cnt[3]);
    fflush(stdout);
  }
  printf("\nn (2..%lld) where best exceeds the lower bound + 1 for one of these m "
         "(the first such m):\n\n", (long long)nmax);
  for (int k = kmin; k <= kmax; k++) {
    printf("- k = %d:%s\n", k, len[k] ? list[k] : " none");
    free(list[k]);
  }
}

/* The n without a chain of delay d + 1 (k >= 2, n = k + 2..nmax), where
 * best is not the chain's formula: every m = 1..64 planned and checked
 * by the verifier (run()), best minus the lower bound counted. */
static void open_n(int64_t nmax, int kmin, int kmax) {
  printf("| k | n without a chain | instances (verified) | +0 | +1 | +2 or more | seconds |\n");
  printf("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (int64_t k = kmin < 2 ? 2 : kmin; k <= kmax; k++) {
    long cnt[4] = {0}, nn = 0;
    double t0 = now();
    for (int64_t n = k + 2; n <= nmax; n++) {
      if (oc_kport_rotation_covers(n, k, NULL)) continue;
      nn++;
      for (int64_t m = 1; m <= 64; m++) {
        oc_kport_bounds b;
        int64_t g;
        oc_kport_bound(n, k, m, &b);
        g = run(n, k, m, OC_KP_BEST) - b.lb;
        cnt[g > 2 ? 2 : g]++;
        cnt[3]++;
        if (g > 1)
          fprintf(stderr, "bench_kport: k=%lld n=%lld m=%lld at lb + %lld\n", (long long)k,
                  (long long)n, (long long)m, (long long)g);
      }
    }
    printf("| %lld | %ld | %ld | %ld | %ld | %ld | %.0f |\n", (long long)k, nn, cnt[3], cnt[0],
           cnt[1], cnt[2], now() - t0);
    fflush(stdout);
  }
}

static void timing(void) {
  /* the last case has no chain of delay d + 1: best is the chain of delay
   * d + 2 with the last message by replacement there */
  static const struct { int64_t n, k, m; } cases[] = {
      {4096, 7, 1024}, {4095, 4, 2048}, {1024, 3, 4096}, {8192, 2, 512}, {4095, 3, 2047}};
  const size_t nc = sizeof cases / sizeof cases[0];
  printf("| n | k | m | algorithm | messages | plan (ms) | verify (ms) | ns/message |\n");
  printf("| ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |\n");
  for (size_t c = 0; c < nc; c++)
    for (int alg = 0; alg < 3; alg++) {
      if ((alg == OC_KP_BEST) != (c == nc - 1)) continue;
      double tp[7], tv[7];
      size_t msgs = 0;
      int ok = 1;
      for (int rep = 0; rep < 7 && ok; rep++) {
        oc_sched s;
        oc_kport_result r;
        oc_verdict v;
        double t0, t1, t2;
        oc_sched_init(&s);
        t0 = now();
        if (oc_kport_plan(cases[c].n, cases[c].k, cases[c].m, 0, (oc_kport_alg)alg, &s,
                          &r) != OC_OK) {
          ok = 0;
          oc_sched_free(&s);
          break;
        }
        t1 = now();
        if (oc_verify_kport(cases[c].n, cases[c].k, cases[c].m, 0, &s, &v) != OC_OK ||
            !v.ok)
          exit(1);
        t2 = now();
        tp[rep] = t1 - t0;
        tv[rep] = t2 - t1;
        msgs = s.n;
        oc_sched_free(&s);
      }
      if (!ok) continue;
      qsort(tp, 7, sizeof *tp, cmp_d);
      qsort(tv, 7, sizeof *tv, cmp_d);
      printf("| %lld | %lld | %lld | %s | %zu | %.1f | %.1f | %.0f |\n",
             (long long)cases[c].n, (long long)cases[c].k, (long long)cases[c].m,
             oc_kport_alg_name((oc_kport_alg)alg), msgs, 1e3 * tp[3], 1e3 * tv[3],
             1e9 * (tp[3] + tv[3]) / (double)msgs);
    }
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "table") == 0) { /* table [K]: one k only */
    int64_t k = argc > 2 ? atoll(argv[2]) : 0;
    table(k > 0 ? k : 1, k > 0 ? k : 6);
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "grid") == 0) {
    int verify = argc > 3 && strcmp(argv[3], "verify") == 0, k = argc > 3 ? atoi(argv[3]) : 0;
    int64_t stride = verify && argc > 4 ? atoll(argv[4]) : 1; /* verify S: every S-th n */
    if (k < 1 || k > 6) k = 0;
    grid(argc > 2 ? atoll(argv[2]) : 10000, verify, k ? k : 1, k ? k : 6,
         stride >= 1 ? stride : 1);
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "open") == 0) { /* open [NMAX [K]] */
    int k = argc > 3 ? atoi(argv[3]) : 0;
    if (k < 2 || k > 6) k = 0;
    open_n(argc > 2 ? atoll(argv[2]) : 10000, k ? k : 2, k ? k : 6);
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "time") == 0) {
    timing();
    return 0;
  }
  fprintf(stderr, "usage: bench_kport table [K] | grid [NMAX [K|verify [S]]] | open [NMAX [K]] | time\n");
  return 2;
}
