/* bench_mbcast.c - the multi-packet broadcast's hot paths (oc_mbcast.c,
 * oc_mbrank.c, oc_lprog.c).
 *   ./build/bench_mbcast rank    a rank's own view at P = 10^6, m = 1024
 *                                (one packet a segment): median time per
 *                                view over 201 ranks, and its steps
 *   ./build/bench_mbcast scale E one construction (multi-tree, 4 trees, one
 *                                packet a segment, CM-5 parameters) built
 *                                by the simulator and checked by the
 *                                verifier at P m = 2^E (P = 65536): time of
 *                                each and the peak memory of the process
 *   ./build/bench_mbcast rarest E the same for rarest-first (oc_lp_rarest:
 *                                its list schedule, then the simulator),
 *                                m = 16 packets one a segment, P = 2^E / 16
 *   ./build/bench_mbcast circulant E  the same for circulant-bcast (2 streams,
 *                                its slots, P = 65536), after the time of its
 *                                whole receive table alone
 *                                (oc_lp_circ_table) at P = 2^16 and 2^20
 * Figures: docs/BENCHMARKS.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench.h"
#include "optcast.h"
#include "plan/oc_plan.h"

static int bench_rank(void) {
  static const oc_mbcast_alg algs[] = {OC_MB_CHAIN,     OC_MB_BINOMIAL, OC_MB_TWOTREE,
                                       OC_MB_MULTITREE, OC_MB_MULTITREE, OC_MB_KARP,
                                       OC_MB_CIRCULANT};
  static const int64_t degs[] = {0, 0, 0, 4, 16, 0, 2};
  oc_params p;
  uint64_t seed = 12345;
  if (oc_params_logp(&p, 1000000, 6, 2, 4) != OC_OK) return 1;
  printf("| construction | P | m | steps of a rank (median) | ns per view (median of 201) |\n"
         "| --- | ---: | ---: | ---: | ---: |\n");
  for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++) {
    oc_mbcast_info c;
    oc_mb_rank v;
    double ns[201], steps[201];
    memset(&c, 0, sizeof c);
    memset(&v, 0, sizeof v);
    c.alg = algs[a];
    c.seg = 1;
    c.degree = degs[a];
    for (int i = 0; i < 201; i++) {
      int64_t r = (int64_t)(xorshift(&seed) % 1000000);
      double t0 = now_ns();
      if (oc_mbcast_rank(&p, 0, 1024, &c, r, &v) != OC_OK) return 1;
      ns[i] = now_ns() - t0;
      steps[i] = (double)v.n;
    }
    qsort(ns, 201, sizeof ns[0], cmpd);
    qsort(steps, 201, sizeof steps[0], cmpd);
    printf("| %s%s | 1000000 | 1024 | %.0f | %.0f |\n", oc_mbcast_alg_name(c.alg),
           c.alg == OC_MB_CIRCULANT ? " (2 streams)"
           : c.degree == 4          ? " (4 trees)"
           : c.degree == 16         ? " (16 trees)"
                                    : "",
           steps[100], ns[100]);
    oc_mb_rank_free(&v);
  }
  { /* rarest-first: the whole list schedule for each view, so 5 views, 16 segments */
    oc_mbcast_info c;
    oc_mb_rank v;
    double ns[5];
    memset(&c, 0, sizeof c);
    memset(&v, 0, sizeof v);
    c.alg = OC_MB_RAREST;
    c.seg = 1;
    for (int i = 0; i < 5; i++) {
      double t0 = now_ns();
      if (oc_mbcast_rank(&p, 0, 16, &c, (int64_t)(xorshift(&seed) % 1000000), &v) != OC_OK)
        return 1;
      ns[i] = now_ns() - t0;
    }
    qsort(ns, 5, sizeof ns[0], cmpd);
    printf("| rarest-first (median of 5) | 1000000 | 16 | %zu | %.0f |\n", v.n, ns[2]);
    oc_mb_rank_free(&v);
  }
  return 0;
}

static int bench_scale(int e, int rarest, int circ) {
  oc_params p;
  oc_mbcast_info c;
  oc_sched s;
  oc_verdict v;
  struct rusage ru;
  int64_t m = rarest ? 16 : ((int64_t)1 << e) / 65536, P = ((int64_t)1 << e) / m, t;
  double t0, t1, t2;
  if (e < 17 || e > 26 || oc_params_logp(&p, P, 6, 2, 4) != OC_OK) return 2;
  memset(&c, 0, sizeof c);
  c.alg = rarest ? OC_MB_RAREST : circ ? OC_MB_CIRCULANT : OC_MB_MULTITREE;
  c.seg = 1;
  c.degree = rarest ? 0 : circ ? 2 : 4;
  oc_sched_init(&s);
  t0 = now_ns();
  if (oc_mbcast_run(&p, 0, m, &c, &s, &t) != OC_OK) return 1;
  t1 = now_ns();
  if (oc_verify_bcast(&p, 0, m, &s, &v) != OC_OK || !v.ok || v.time != t) return 1;
  t2 = now_ns();
  getrusage(RUSAGE_SELF, &ru);
  printf("| 2^%d | %lld | %lld | %zu | %.1f | %.1f | %.2f |\n", e, (long long)P, (long long)m, s.n,
         (t1 - t0) * 1e-9, (t2 - t1) * 1e-9, (double)ru.ru_maxrss / (1024.0 * 1024.0));
  oc_sched_free(&s);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "rank") == 0) return bench_rank();
  if (argc >= 3 && strcmp(argv[1], "circulant") == 0) {
    printf("| P | receive schedule (s, median of 3) |\n| ---: | ---: |\n");
    for (int e = 16; e <= 20; e += 4) {
      double ns[3];
      for (int i = 0; i < 3; i++) {
        int64_t s[64];
        int q;
        int8_t *R;
        double t0 = now_ns();
        if (oc_lp_circ_table((int64_t)1 << e, s, &q, &R) != OC_OK) return 1;
        ns[i] = now_ns() - t0;
        free(R);
      }
      qsort(ns, 3, sizeof ns[0], cmpd);
      printf("| 2^%d | %.3f |\n", e, ns[1] * 1e-9);
    }
    printf("\n");
  }
  if (argc >= 3 && (strcmp(argv[1], "scale") == 0 || strcmp(argv[1], "rarest") == 0 ||
                    strcmp(argv[1], "circulant") == 0)) {
    printf("| P m | P | m | messages | simulate (s) | verify (s) | peak memory (GiB) |\n"
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    return bench_scale(atoi(argv[2]), strcmp(argv[1], "rarest") == 0,
                       strcmp(argv[1], "circulant") == 0);
  }
  fprintf(stderr, "usage: bench_mbcast rank | scale E | rarest E | circulant E (17 <= E <= 26)\n");
  return 2;
}
