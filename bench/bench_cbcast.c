/* bench_cbcast.c - continuous / k-item broadcast in the postal model (Karp et
 * al. section 3): the costs the design promises, measured.
 *
 *   plan      oc_cbcast_new (set-up: base cases in Karp's form, the split,
 *             the pairing of send and receive slots): O(P) after the base
 *             cases, which depend on L only; L > 18: the nested
 *             construction, O(P) per deadline tried
 *   step      oc_cbcast_step, what one processor receives and sends at one
 *             step: O(1) after set-up (plus a binary search for its block),
 *             so the time per call must not grow with P
 *   schedule  oc_cbcast_schedule for k items: k (P-1) messages, linear
 *   buffered  oc_kbcast_buffered (section 3.5, k items, with the
 *             first-come first-served re-take): linear in the messages
 * Medians over BATCHES runs; the machine is shared, so compare ratios.
 * Usage: bench_cbcast            the table
 *        bench_cbcast L P COUNT  one plan and COUNT step calls, untimed:
 *                                for valgrind --tool=callgrind
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "optcast.h"
#include "bench.h"

#define BATCHES 9

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmpd);
  return v[n / 2];
}

static uint64_t rs = 88172645463325252ULL;
static uint64_t rnd(void) { return xorshift(&rs); }

int main(int argc, char **argv) {
  static const long long cases[][2] = {{3, 1000},    {3, 1000000}, {5, 1000},   {5, 1000000},
                                       {10, 1000},   {10, 1000000}, {2, 1000},  {2, 1000000},
                                       {16, 1000000}, {20, 1000},   {20, 1000000},
                                       {64, 1000},   {64, 1000000}};
  volatile long long sink = 0;
  if (argc > 3) { /* callgrind mode */
    oc_cbcast *c = NULL;
    long long L = atoll(argv[1]), P = atoll(argv[2]), count = atoll(argv[3]);
    if (oc_cbcast_new(&c, P, L) != OC_OK) return 2;
    for (long long i = 0; i < count; i++) {
      oc_cbcast_act rv, sd;
      if (oc_cbcast_step(c, 0, (int64_t)(rnd() % (uint64_t)P), (int64_t)(rnd() % 100000), 100000,
                         &rv, &sd) != OC_OK)
        return 2;
      sink += rv.item + sd.item;
    }
    oc_cbcast_free(c);
    return sink == 42 ? 1 : 0;
  }
  printf("| L | P | plan (ms) | delay - bound | step (ns/call) | schedule, 64 items (ns/message) |\n");
  printf("|---|---|---|---|---|---|\n");
  for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
    long long L = cases[ci][0], P = cases[ci][1];
    double tp[BATCHES], ts[BATCHES], tm[BATCHES];
    int64_t gap = 0;
    for (int b = 0; b < BATCHES; b++) {
      oc_cbcast *c = NULL;
      double t0 = now_ns();
      if (oc_cbcast_new(&c, P, L) != OC_OK) return 2;
      tp[b] = (now_ns() - t0) / 1e6;
      gap = oc_cbcast_get_info(c)->delay - oc_cbcast_get_info(c)->bound;
      t0 = now_ns();
      for (int i = 0; i < 100000; i++) {
        oc_cbcast_act rv, sd;
        oc_cbcast_step(c, 0, (int64_t)(rnd() % (uint64_t)P), (int64_t)(rnd() % 100000), 100000,
                       &rv, &sd);
        sink += rv.item + sd.item;
      }
      ts[b] = (now_ns() - t0) / 100000;
      if (P <= 1000) {
        oc_sched s;
        oc_sched_init(&s);
        t0 = now_ns();
        if (oc_cbcast_schedule(c, 0, 64, &s) != OC_OK) return 2;
        tm[b] = (now_ns() - t0) / (double)s.n;
        oc_sched_free(&s);
      } else {
        tm[b] = 0;
      }
      oc_cbcast_free(c);
    }
    printf("| %lld | %lld | %.2f | %lld | %.0f | ", L, P, median(tp, BATCHES), (long long)gap,
           median(ts, BATCHES));
    if (P <= 1000) printf("%.1f |\n", median(tm, BATCHES)); else printf("- |\n");
  }
  printf("\n| L | P | k | buffered k items (ns/message, incl. the re-take) | time - Theorem 3.8 |\n");
  printf("|---|---|---|---|---|\n");
  {
    static const long long bc[][3] = {{2, 1000, 64}, {3, 1000, 64}, {5, 10000, 16}, {2, 100000, 4}};
    for (size_t ci = 0; ci < sizeof bc / sizeof bc[0]; ci++) {
      double tb[BATCHES];
      oc_params p;
      int64_t over = 0;
      if (oc_params_postal(&p, bc[ci][1], bc[ci][0], 1) != OC_OK) return 2;
      for (int b = 0; b < BATCHES; b++) {
        oc_sched s;
        oc_kbcast_result r;
        double t0;
        oc_sched_init(&s);
        t0 = now_ns();
        if (oc_kbcast_buffered(&p, 0, bc[ci][2], &s, &r) != OC_OK) return 2;
        tb[b] = (now_ns() - t0) / (double)s.n;
        over = r.time - r.formula;
        oc_sched_free(&s);
      }
      printf("| %lld | %lld | %lld | %.1f | %lld |\n", bc[ci][0], bc[ci][1], bc[ci][2],
             median(tb, BATCHES), (long long)over);
    }
  }
  return sink == 42 ? 1 : 0;
}
