/* bench_rank.c - the per-rank view (a rank's own plan) at P = 10^9.
 *
 * Target (issue 2): under 10 us per rank for parameters up to 100.  Two
 * figures per parameter set, medians over batches:
 *   setup+view  oc_bcast_new + oc_bcast_rank for one rank (what one MPI
 *               rank does once), then free;
 *   view        oc_bcast_rank alone on a shared context (threads share it).
 * Plus the children: the view and all its children (oc_bcast_child).
 * Larger parameters (closed-form f) are reported too, without a target.
 * Usage: bench_rank [P]            the table below
 *        bench_rank P SET COUNT    one setup and COUNT views of parameter set
 *                                  SET, untimed: run it under
 *                                  valgrind --tool=callgrind for exact
 *                                  instruction counts (COUNT 0 = setup only)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "optcast.h"
#include "bench.h"

static uint64_t rs = 88172645463325252ULL;
static uint64_t rnd(void) { return xorshift(&rs); }

#define BATCHES 15

int main(int argc, char **argv) {
  static const long long sets[][3] = {
      {6, 2, 4},      {1, 0, 1},       {0, 1, 1},       {100, 100, 100},
      {100, 0, 1},    {1, 0, 100},     {100, 100, 1},   {50, 25, 100},
      {3, 1, 97},     {1000000, 0, 1}, {1, 0, 1000000}, {1 << 30, 1 << 29, 1 << 30},
  };
  long long P = argc > 1 ? atoll(argv[1]) : 1000000000LL;
  volatile long long sink = 0;
  if (argc > 3) {
    size_t set = (size_t)atoll(argv[2]);
    long long count = atoll(argv[3]);
    oc_params p;
    oc_bcast *b;
    if (set >= sizeof sets / sizeof sets[0] ||
        oc_params_logp(&p, P, sets[set][0], sets[set][1], sets[set][2]) != OC_OK ||
        oc_bcast_new(&b, &p, 0, OC_BCAST_KARP) != OC_OK)
      return 2;
    for (long long r = 0; r < count; r++) {
      oc_bcast_view w;
      oc_bcast_rank(b, (long long)(rnd() % (uint64_t)P), &w);
      sink += w.parent;
    }
    oc_bcast_free(b);
    return sink == 42 ? 1 : 0;
  }
  printf("per-rank view, P = %lld (medians of %d batches; ns per rank)\n", P,
         BATCHES);
  printf("%-28s %8s %12s %10s %14s %9s\n", "L,o,g", "B(P)", "setup+view",
         "view", "view+children", "children");
  for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
    oc_params p;
    oc_bcast *b;
    double a[BATCHES], v[BATCHES], c[BATCHES];
    long long nkids = 0;
    int reps_setup = sets[i][0] > 100 || sets[i][2] > 100 ? 20 : 200;
    int reps_view = sets[i][0] > 100 || sets[i][2] > 100 ? 200 : 20000;
    if (oc_params_logp(&p, P, sets[i][0], sets[i][1], sets[i][2]) != OC_OK) return 1;
    for (int bt = 0; bt < BATCHES; bt++) {
      double t0 = now_ns();
      for (int r = 0; r < reps_setup; r++) {
        oc_bcast_view w;
        if (oc_bcast_new(&b, &p, 0, OC_BCAST_KARP) != OC_OK) return 1;
        oc_bcast_rank(b, (long long)(rnd() % (uint64_t)P), &w);
        sink += w.parent;
        oc_bcast_free(b);
      }
      a[bt] = (now_ns() - t0) / reps_setup;
    }
    if (oc_bcast_new(&b, &p, 0, OC_BCAST_KARP) != OC_OK) return 1;
    for (int bt = 0; bt < BATCHES; bt++) {
      double t0 = now_ns();
      for (int r = 0; r < reps_view; r++) {
        oc_bcast_view w;
        oc_bcast_rank(b, (long long)(rnd() % (uint64_t)P), &w);
        sink += w.parent;
      }
      v[bt] = (now_ns() - t0) / reps_view;
    }
    for (int bt = 0; bt < BATCHES; bt++) {
      double t0 = now_ns();
      for (int r = 0; r < reps_view / 10 + 1; r++) {
        oc_bcast_view w;
        oc_bcast_rank(b, (long long)(rnd() % (uint64_t)P), &w);
        for (long long k = 0; k < w.nchildren; k++) {
          int64_t cr, ct;
          oc_bcast_child(b, &w, k, &cr, &ct);
          sink += cr;
        }
        nkids += w.nchildren;
      }
      c[bt] = (now_ns() - t0) / (reps_view / 10 + 1);
    }
    qsort(a, BATCHES, sizeof a[0], cmpd);
    qsort(v, BATCHES, sizeof v[0], cmpd);
    qsort(c, BATCHES, sizeof c[0], cmpd);
    {
      char name[64];
      snprintf(name, sizeof name, "%lld,%lld,%lld", sets[i][0], sets[i][1], sets[i][2]);
      printf("%-28s %8lld %12.0f %10.0f %14.0f %9.2f\n", name,
             (long long)oc_bcast_completion(b), a[BATCHES / 2], v[BATCHES / 2],
             c[BATCHES / 2],
             (double)nkids / (BATCHES * (reps_view / 10 + 1)));
    }
    oc_bcast_free(b);
  }
  { /* the worst case over a grid of parameters up to 100 */
    static const long long Ls[] = {0, 1, 2, 5, 10, 25, 50, 100};
    static const long long os[] = {0, 1, 5, 25, 100};
    static const long long gs[] = {1, 2, 5, 10, 50, 100};
    double worst = 0;
    long long wl = 0, wo = 0, wg = 0;
    int n = 0;
    for (size_t i = 0; i < 8; i++)
      for (size_t j = 0; j < 5; j++)
        for (size_t k = 0; k < 6; k++) {
          oc_params p;
          double a[5];
          if (oc_params_logp(&p, P, Ls[i], os[j], gs[k]) != OC_OK) continue;
          n++;
          for (int bt = 0; bt < 5; bt++) {
            double t0 = now_ns();
            for (int r = 0; r < 50; r++) {
              oc_bcast *b;
              oc_bcast_view w;
              if (oc_bcast_new(&b, &p, 0, OC_BCAST_KARP) != OC_OK) return 1;
              oc_bcast_rank(b, (long long)(rnd() % (uint64_t)P), &w);
              sink += w.parent;
              oc_bcast_free(b);
            }
            a[bt] = (now_ns() - t0) / 50;
          }
          qsort(a, 5, sizeof a[0], cmpd);
          if (a[2] > worst) { worst = a[2]; wl = Ls[i]; wo = os[j]; wg = gs[k]; }
        }
    printf("worst setup+view over %d parameter sets with L, o, g <= 100: "
           "%.0f ns (L=%lld o=%lld g=%lld)\n", n, worst, wl, wo, wg);
  }
  { /* the reduction's per-rank view (issue 3: "like the broadcast's") */
    static const long long rsets[][3] = {{6, 2, 4}, {1, 0, 1}, {100, 100, 100}, {1, 0, 100}};
    printf("\nreduction per-rank view, P = %lld (ns per rank, medians; "
           "setup = oc_reduce_new)\n", P);
    printf("%-16s %10s %12s %12s\n", "L,o,g", "B(P)", "unordered", "rank order");
    for (size_t i = 0; i < sizeof rsets / sizeof rsets[0]; i++) {
      oc_params p;
      double m[2];
      long long Bt = 0;
      if (oc_params_logp(&p, P, rsets[i][0], rsets[i][1], rsets[i][2]) != OC_OK) return 1;
      for (int ordered = 0; ordered < 2; ordered++) {
        double a[BATCHES];
        for (int bt = 0; bt < BATCHES; bt++) {
          double t0 = now_ns();
          for (int r = 0; r < 200; r++) {
            oc_reduce *x;
            oc_reduce_view w;
            if (oc_reduce_new(&x, &p, 0, ordered) != OC_OK) return 1;
            oc_reduce_rank(x, (long long)(rnd() % (uint64_t)P), &w);
            sink += w.parent;
            Bt = oc_reduce_completion(x);
            oc_reduce_free(x);
          }
          a[bt] = (now_ns() - t0) / 200;
        }
        qsort(a, BATCHES, sizeof a[0], cmpd);
        m[ordered] = a[BATCHES / 2];
      }
      {
        char name[64];
        snprintf(name, sizeof name, "%lld,%lld,%lld", rsets[i][0], rsets[i][1], rsets[i][2]);
        printf("%-16s %10lld %12.0f %12.0f\n", name, Bt, m[0], m[1]);
      }
    }
  }
  return sink == 42 ? 1 : 0;
}
