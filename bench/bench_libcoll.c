/* bench_libcoll.c - how the cost of building an MPI library schedule
 * (oc_libcoll_bcast: programs + the LogP simulator, no verification) grows
 * with its size: P = 4096, m = 16 .. 1024 packets, four algorithms; time per
 * packet of the schedule.  Usage: ./build/bench_libcoll */
#include <stdio.h>
#include <time.h>

#include "optcast.h"

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void) {
  static const oc_libcoll_spec specs[] = {{OC_LC_BINOMIAL, 0, 2},
                                          {OC_LC_PIPELINE, 1, 2},
                                          {OC_LC_SCATTER_RD, 0, 2},
                                          {OC_LC_SCATTER_RING, 0, 2}};
  printf("| algorithm | P | m | messages | packets | seconds | ns per packet |\n"
         "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
    for (int64_t m = 16; m <= 1024; m *= 4) {
      oc_params p;
      oc_sched s;
      int64_t t, packets = 0;
      double t0, t1;
      if (oc_params_logp(&p, 4096, 6, 2, 4) != OC_OK) return 1;
      oc_sched_init(&s);
      t0 = seconds();
      if (oc_libcoll_bcast(&p, 0, m, &specs[i], &s, &t) != OC_OK) return 1;
      t1 = seconds();
      for (size_t k = 0; k < s.n; k++) packets += s.len ? s.len[k] : 1;
      printf("| %s | 4096 | %lld | %zu | %lld | %.3f | %.0f |\n", oc_libcoll_alg_name(specs[i].alg),
             (long long)m, s.n, (long long)packets, t1 - t0, (t1 - t0) * 1e9 / (double)packets);
      oc_sched_free(&s);
    }
  return 0;
}
