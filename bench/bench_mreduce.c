/* bench_mreduce.c - the multi-packet reduce's and allreduce's hot paths
 * (oc_mreduce.c, oc_rprog.c, oc_mbrank.c).
 *   ./build/bench_mreduce rank    a rank's own view of a reversed
 *                                 construction at P = 10^6, m = 1024 (one
 *                                 packet a segment), reduce and allreduce:
 *                                 median time per view over 201 ranks;
 *                                 then the reduction programs' views
 *                                 (oc_rpshape.c), the same way
 *   ./build/bench_mreduce scale E one reduce (the two-tree run backwards,
 *                                 one packet a segment, CM-5 parameters) at
 *                                 P m = 2^E (P = 65536): the program built
 *                                 and simulated, then checked by the
 *                                 verifier: time of each, peak memory
 *   ./build/bench_mreduce timed E the same reduce timed only (no schedule
 *                                 written: how the planner's search times
 *                                 each candidate): time, peak memory
 *   ./build/bench_mreduce plan E  the whole choice (oc_mreduce_plan, reduce
 *                                 and allreduce, CM-5 parameters) at P m =
 *                                 2^E (P = 1024): time and candidates
 * Figures: docs/BENCHMARKS.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench.h"
#include "optcast.h"

/* one table row: the median view of 201 random ranks, its steps and ns */
static int time_views(const oc_params *p, int64_t root, const oc_mreduce_info *c,
                      uint64_t *seed, const char *name, const char *suffix) {
  oc_mb_rank v;
  double ns[201], steps[201];
  memset(&v, 0, sizeof v);
  for (int i = 0; i < 201; i++) {
    int64_t r = (int64_t)(xorshift(seed) % (uint64_t)p->P);
    double t0 = now_ns();
    if (oc_mreduce_rank(p, root, 1024, c, r, &v) != OC_OK) return 1;
    ns[i] = now_ns() - t0;
    steps[i] = (double)v.n;
  }
  qsort(ns, 201, sizeof ns[0], cmpd);
  qsort(steps, 201, sizeof steps[0], cmpd);
  printf("| %s%s | %s | %lld | 1024 | %.0f | %.0f |\n", name, suffix,
         root < 0 ? "allreduce" : "reduce", (long long)p->P, steps[100], ns[100]);
  oc_mb_rank_free(&v);
  return 0;
}

static int bench_rank(void) {
  static const oc_mbcast_alg algs[] = {OC_MB_CHAIN, OC_MB_TWOTREE, OC_MB_MULTITREE, OC_MB_KARP};
  static const struct {
    oc_mred_family f;
    int64_t seg, root;
    int flip;
    const char *name;
  } progs[] = {
      {OC_MR_RD, 0, -1, 0, "recursive doubling"},
      {OC_MR_RABEN, 0, -1, 0, "rabenseifner"},
      {OC_MR_HYBRID, 5, -1, 0, "halving-doubling, 5 halvings"},
      {OC_MR_HYBRID, 10, -1, 0, "halving-doubling, 10 halvings"},
      {OC_MR_RING, 0, -1, 0, "ring"},
      {OC_MR_REDBCAST, 0, -1, 0, "binomial reduce + broadcast"},
      {OC_MR_GROUPS, 1000, -1, 0, "groups-circulant, groups of 1000"},
      {OC_MR_GROUPS, 1000, 0, 0, "groups-circulant, groups of 1000"},
      {OC_MR_GROUPS, 1000, 0, 1, "groups of 1000, karp backwards"},
  };
  oc_params p;
  uint64_t seed = 12345;
  if (oc_params_logp(&p, 1000000, 6, 2, 4) != OC_OK) return 1;
  printf("| construction run backwards | problem | P | m | steps of a rank (median) | ns per "
         "view (median of 201) |\n| --- | --- | ---: | ---: | ---: | ---: |\n");
  for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++)
    for (int all = 0; all < 2; all++) {
      oc_mreduce_info c;
      memset(&c, 0, sizeof c);
      c.family = OC_MR_REVERSED;
      c.red.alg = algs[a];
      c.red.seg = 1;
      c.red.degree = algs[a] == OC_MB_MULTITREE ? 4 : 0;
      c.bc = c.red;
      if (time_views(&p, all ? -1 : 0, &c, &seed, oc_mbcast_alg_name(c.red.alg),
                     c.red.degree ? " (4 trees)" : "") != 0)
        return 1;
    }
  { /* the circulant (2 streams) with times kept: sends of o + 1 */
    oc_mreduce_info c;
    memset(&c, 0, sizeof c);
    c.family = OC_MR_REVERSED;
    c.exact = 1;
    c.red.alg = OC_MB_CIRCULANT;
    c.red.seg = 1;
    c.red.degree = 2;
    c.red.sx = p.unit;
    c.bc = c.red;
    c.bc.sx = 0;
    for (int all = 0; all < 2; all++)
      if (time_views(&p, all ? -1 : 0, &c, &seed, "circulant-bcast (2 streams)",
                     " with times kept") != 0)
        return 1;
  }
  /* the reduction programs (oc_rpshape.c): a rank's view walks the program */
  printf("\n| program | problem | P | m | steps of a rank (median) | ns per view (median of "
         "201) |\n| --- | --- | ---: | ---: | ---: | ---: |\n");
  for (size_t a = 0; a < sizeof progs / sizeof progs[0]; a++) {
    oc_mreduce_info c;
    memset(&c, 0, sizeof c);
    c.family = progs[a].f;
    c.seg = progs[a].seg;
    c.flip = progs[a].flip;
    if (time_views(&p, progs[a].root, &c, &seed, progs[a].name, "") != 0) return 1;
  }
  return 0;
}

static double peak_gib(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss / (1024.0 * 1024.0);
}

static int bench_scale(int e, int timed) {
  oc_params p;
  oc_mreduce_info c;
  oc_sched s;
  oc_verdict v;
  int64_t P = 65536, m = ((int64_t)1 << e) / P, t;
  double t0, t1, t2;
  if (e < 17 || e > 26 || oc_params_logp(&p, P, 6, 2, 4) != OC_OK) return 2;
  memset(&c, 0, sizeof c);
  c.family = OC_MR_REVERSED;
  c.red.alg = OC_MB_TWOTREE;
  c.red.seg = 1;
  oc_sched_init(&s);
  t0 = now_ns();
  if (timed) {
    if (oc_mreduce_run(&p, 0, m, &c, NULL, &t) != OC_OK) return 1;
    printf("| 2^%d | %lld | %lld | %lld | %.2f | %.2f |\n", e, (long long)P, (long long)m,
           (long long)t, (now_ns() - t0) * 1e-9, peak_gib());
    return 0;
  }
  if (oc_mreduce_run(&p, 0, m, &c, &s, &t) != OC_OK) return 1;
  t1 = now_ns();
  if (oc_verify_vreduce(&p, 0, m, &s, &v) != OC_OK || !v.ok || v.time != t) return 1;
  t2 = now_ns();
  printf("| 2^%d | %lld | %lld | %zu | %.2f | %.2f | %.2f |\n", e, (long long)P, (long long)m,
         s.n, (t1 - t0) * 1e-9, (t2 - t1) * 1e-9, peak_gib());
  oc_sched_free(&s);
  return 0;
}

static int bench_plan(int e) {
  oc_params p;
  int64_t P = 1024, m = ((int64_t)1 << e) / P;
  if (e < 10 || e > 26 || oc_params_logp(&p, P, 6, 2, 4) != OC_OK) return 2;
  for (int all = 0; all < 2; all++) {
    oc_mreduce_info info;
    char d[160];
    double t0 = now_ns();
    if (oc_mreduce_plan(&p, all ? -1 : 0, m, OC_MB_BEST, NULL, &info) != OC_OK) return 1;
    oc_mreduce_describe(&info, all ? -1 : 0, m, d, sizeof d);
    printf("| 2^%d | %s | %lld | %lld | %s | %lld | %lld | %.2f |\n", e,
           all ? "allreduce" : "reduce", (long long)P, (long long)m, d, (long long)info.time,
           (long long)info.timed, (now_ns() - t0) * 1e-9);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "rank") == 0) return bench_rank();
  if (argc >= 3 && strcmp(argv[1], "scale") == 0) {
    printf("| P m | P | m | messages | build + simulate (s) | verify (s) | peak memory (GiB) |\n"
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    return bench_scale(atoi(argv[2]), 0);
  }
  if (argc >= 3 && strcmp(argv[1], "timed") == 0) {
    printf("| P m | P | m | time | build + simulate (s) | peak memory (GiB) |\n"
           "| --- | ---: | ---: | ---: | ---: | ---: |\n");
    return bench_scale(atoi(argv[2]), 1);
  }
  if (argc >= 3 && strcmp(argv[1], "plan") == 0) {
    printf("| P m | problem | P | m | chosen | time | candidates | seconds |\n"
           "| --- | --- | ---: | ---: | --- | ---: | ---: | ---: |\n");
    return bench_plan(atoi(argv[2]));
  }
  fprintf(stderr, "usage: bench_mreduce rank | scale E | timed E (17 <= E <= 26) | plan E (10 <= E <= 26)\n");
  return 2;
}
