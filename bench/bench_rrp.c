/* bench_rrp.c - the reconfigurable ring: tables for the docs and timings.
 *
 *   bench_rrp table       N = 4 .. 4096 (powers of two) x L = 2, 4, .., N:
 *                         time of every algorithm against the bounds (markdown)
 *   bench_rrp remainders  N not a power of two: the sweep's time against the
 *                         powers of two around it (what the remainders cost)
 *   bench_rrp all [NMAX]  every N from 4 to NMAX (4096), every L = 2, 4, .., N,
 *                         bcast, reduce (root 0 and N/2) and scan, sweep and
 *                         tuned: plan, verify, check Theorem 2.1; prints a summary
 *                         (the sweep; minutes)
 *   bench_rrp time        plan + verify at N = 4096 and N = 2^20: medians
 */
#include <math.h>
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

static int64_t plan_time(oc_rrp_problem prob, int64_t N, int64_t L, oc_rrp_alg a) {
  oc_rrp_spec sp = {prob, N, L, 0, NULL, 0};
  oc_rrp_result r;
  if (oc_rrp_plan(&sp, a, NULL, &r) != OC_OK) return -1;
  return r.time;
}

static void table(void) {
  printf("| N | L | sweep | tuned | binomial | lower bound | Thm 3.1 (argument / lead) | Thm 3.2 "
         "| Thm 2.1 upper | sweep / bound | tuned / bound |\n");
  printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (int64_t N = 4; N <= 4096; N *= 2)
    for (int64_t L = 2; L <= N; L *= 2) {
      oc_rrp_spec sp = {OC_RRP_BCAST, N, L, 0, NULL, 0};
      oc_rrp_bounds b;
      int64_t ts = plan_time(OC_RRP_BCAST, N, L, OC_RRP_SWEEP);
      int64_t tt = plan_time(OC_RRP_BCAST, N, L, OC_RRP_TUNED);
      int64_t tb = plan_time(OC_RRP_BCAST, N, L, OC_RRP_BINOMIAL);
      char t31[48] = "-";
      if (oc_rrp_bound(&sp, &b) != OC_OK) exit(1);
      if (b.thm31 > 0) snprintf(t31, sizeof t31, "%.1f / %.1f", b.thm31, b.thm31_lead);
      printf("| %lld | %lld | %lld | %lld | %lld | %lld | %s | %.2f | %.1f | %.2f | %.2f |\n",
             (long long)N, (long long)L, (long long)ts, (long long)tt, (long long)tb,
             (long long)b.lb, t31, b.thm32, b.thm21, (double)ts / (double)b.lb,
             (double)tt / (double)b.lb);
    }
}

static void remainders(void) {
  static const int64_t Ls[] = {2, 8, 64};
  printf("| N | L | sweep T(N) | T(2^floor) | T(2^ceil) | tuned T(N) |\n");
  printf("|---:|---:|---:|---:|---:|---:|\n");
  for (int64_t k = 4; k <= 11; k++) {
    int64_t lo = (int64_t)1 << k, hi = lo * 2;
    int64_t Ns[3] = {lo + 1, lo + lo / 2 + 1, hi - 1};
    for (int i = 0; i < 3; i++)
      for (size_t j = 0; j < sizeof Ls / sizeof Ls[0]; j++) {
        int64_t N = Ns[i], L = Ls[j];
        printf("| %lld | %lld | %lld | %lld | %lld | %lld |\n", (long long)N, (long long)L,
               (long long)plan_time(OC_RRP_BCAST, N, L, OC_RRP_SWEEP),
               (long long)plan_time(OC_RRP_BCAST, lo, L, OC_RRP_SWEEP),
               (long long)plan_time(OC_RRP_BCAST, hi, L, OC_RRP_SWEEP),
               (long long)plan_time(OC_RRP_BCAST, N, L, OC_RRP_TUNED));
      }
  }
}

/* every N, every L = 2^l <= N: plan, verify, Theorem 2.1 */
static int all(int64_t nmax) {
  long plans = 0, bad = 0, over = 0, over_pow2 = 0;
  double worst = 0, t0 = now();
  for (int64_t N = 4; N <= nmax; N++) {
    for (int64_t L = 2; L <= N; L *= 2)
      for (int prob = 0; prob < 4; prob++)
        for (int a = OC_RRP_SWEEP; a <= OC_RRP_TUNED; a++) {
          oc_rrp_spec sp = {prob == 3 ? OC_RRP_REDUCE : (oc_rrp_problem)prob, N, L,
                            prob == 3 ? N / 2 : 0, NULL, 0};
          oc_rrp_sched s;
          oc_rrp_result r;
          oc_rrp_bounds b;
          oc_verdict v;
          double lim;
          oc_rrp_sched_init(&s);
          if (oc_rrp_plan(&sp, (oc_rrp_alg)a, &s, &r) != OC_OK ||
              oc_verify_rrp(&sp, &s, &v) != OC_OK || oc_rrp_bound(&sp, &b) != OC_OK ||
              !v.ok || v.time != r.time || r.time < b.lb || r.lines > L) {
            printf("FAIL %s N=%lld L=%lld alg %d\n", oc_rrp_problem_name(sp.problem),
                   (long long)N, (long long)L, a);
            bad++;
          }
          lim = b.thm21 * (sp.problem == OC_RRP_SCAN ? 2 : 1);
          /* a root in the middle costs the final hop (docs) */
          if (prob == 3) lim += (double)oc_rrp_flight(N / 2);
          if ((double)r.time > lim + 1e-9) {
            over++;
            if ((N & (N - 1)) == 0) over_pow2++;
            if (over <= 20)
              printf("over Thm 2.1: %s N=%lld L=%lld %s: %lld > %.2f\n",
                     oc_rrp_problem_name(sp.problem), (long long)N, (long long)L,
                     oc_rrp_alg_name((oc_rrp_alg)a), (long long)r.time, lim);
          }
          if (lim > 0 && (double)r.time / lim > worst) worst = (double)r.time / lim;
          plans++;
          oc_rrp_sched_free(&s);
        }
    if (N % 256 == 0) {
      fprintf(stderr, "  N = %lld done (%ld plans, %.0f s)\n", (long long)N, plans,
              now() - t0);
    }
  }
  printf("all N = 4..%lld, L = 2, 4, ..., N; bcast, scan, reduce (roots 0 and N/2); sweep "
         "and tuned: %ld plans verified, %ld failures; above Theorem 2.1: %ld (%ld at "
         "powers of two); largest time / bound %.3f; %.0f s\n",
         (long long)nmax, plans, bad, over, over_pow2, worst, now() - t0);
  return bad != 0;
}

static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void timing(void) {
  static const int64_t Ns[] = {4096, 65536, (int64_t)1 << 20};
  printf("| N | L | problem | messages | plan (ms) | verify (ms) |\n|---:|---:|---|---:|---:|---:|\n");
  for (size_t i = 0; i < sizeof Ns / sizeof Ns[0]; i++)
    for (int prob = 0; prob < 3; prob++) {
      int64_t N = Ns[i], L = 16;
      oc_rrp_spec sp = {(oc_rrp_problem)prob, N, L, 0, NULL, 0};
      double tp[5], tv[5];
      size_t msgs = 0;
      for (int rep = 0; rep < 5; rep++) {
        oc_rrp_sched s;
        oc_rrp_result r;
        oc_verdict v;
        double a, b2, c;
        oc_rrp_sched_init(&s);
        a = now();
        if (oc_rrp_plan(&sp, OC_RRP_TUNED, &s, &r) != OC_OK) exit(1);
        b2 = now();
        if (oc_verify_rrp(&sp, &s, &v) != OC_OK || !v.ok) exit(1);
        c = now();
        tp[rep] = (b2 - a) * 1e3;
        tv[rep] = (c - b2) * 1e3;
        msgs = s.n;
        oc_rrp_sched_free(&s);
      }
      qsort(tp, 5, sizeof tp[0], cmpd);
      qsort(tv, 5, sizeof tv[0], cmpd);
      printf("| %lld | %lld | %s | %zu | %.2f | %.2f |\n", (long long)N, (long long)L,
             oc_rrp_problem_name((oc_rrp_problem)prob), msgs, tp[2], tv[2]);
    }
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "time";
  if (strcmp(mode, "table") == 0) table();
  else if (strcmp(mode, "remainders") == 0) remainders();
  else if (strcmp(mode, "all") == 0) return all(argc > 2 ? atoll(argv[2]) : 4096);
  else if (strcmp(mode, "time") == 0) timing();
  else {
    fprintf(stderr, "usage: bench_rrp table|remainders|all [NMAX]|time\n");
    return 2;
  }
  return 0;
}
