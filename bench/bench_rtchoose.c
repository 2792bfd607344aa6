/* bench_rtchoose.c - what the runtime's choice of algorithm costs a rank
 * (rt_choose.c): the broadcast's and the commutative reduce's choice
 * between the pipeline (a closed form per segment count) and the two-tree
 * (the planner's simulation of the whole schedule per segment count, up to
 * P m = 2^16 messages), and the allgather's between Karp's all-to-all and
 * the mesh (a shortest path over P's divisors, blocks of 8 B - 64 KiB), for a
 * call shape seen for the first time (every rank pays it once per shape:
 * the choices are memoised), on the parameters measured on SMPI's
 * InfiniBand-like cluster (some of the rows of bench/smpi/run.sh's table).
 *
 *   build/bench_rtchoose [REPS]     median of REPS fresh choices (default 7)
 *
 * Prints, per P and message size, the median time of one fresh choice,
 * what was chosen, and the time of a memoised one. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "optcast_rt.h"
#include "rt/rt_internal.h"

static const char TABLE[] =
    "# optcast parameters v1\ntransport bench\nprocs 16\n"
    "# bytes L_us os_us or_us g_us\n"
    "8 6.0492 0.01 0.01 0.0023\n1024 6.0492 0.01 0.01 0.2372\n"
    "8192 6.5527 0.01 0.01 0.6201\n32768 10.3322 0.01 0.01 3.8963\n"
    "65536 6.0492 40.516 0.01 40.3167\n262144 6.0492 57.236 0.01 57.0369\n"
    "1048576 6.0492 124.117 0.01 123.9179\n4194304 6.0492 391.641 0.01 391.4419\n";

int main(int argc, char **argv) {
  static const int Ps[] = {16, 64, 256, 1024};
  static const int64_t sizes[] = {65536, 1048576, 4194304};
  long reps = argc > 1 ? strtol(argv[1], NULL, 10) : 7;
  int line = 0;
  oc_rtparams prm;
  oc_elem el;
  if (reps < 1 || reps > 1000) {
    fprintf(stderr, "bench_rtchoose: REPS: '%s' is not a count in 1..1000\n",
            argc > 1 ? argv[1] : "");
    return 2;
  }
  if (oc_rtparams_parse(TABLE, sizeof TABLE - 1, &prm, &line) != OC_OK ||
      oc_elem_builtin(&el, OC_UINT8, NULL) != OC_OK) {
    fprintf(stderr, "bench_rtchoose: the parameter table does not parse (line %d)\n", line);
    return 1;
  }
  printf("# P collective bytes fresh_choice_ms chosen/segments predicted_us memoised_us\n");
  for (size_t i = 0; i < 3 * sizeof Ps / sizeof *Ps; i++) {
    static const int64_t blocks[] = {8, 1024, 65536};
    int coll = i % 3 == 2 ? RT_ALLGATHER : i % 3 ? RT_REDUCE : RT_BCAST, P = Ps[i / 3];
    const int64_t *sz = coll == RT_ALLGATHER ? blocks : sizes;
    oc_threads *w = NULL;
    oc_transport tp;
    if (oc_threads_new(&w, P) != OC_OK || oc_threads_endpoint(w, 0, &tp) != OC_OK) {
      fprintf(stderr, "bench_rtchoose: no transport for P = %d\n", P);
      return 1;
    }
    for (size_t j = 0; j < sizeof sizes / sizeof *sizes; j++) {
      double *ms = (double *)malloc((size_t)reps * sizeof *ms), t0, memo;
      rt_choice ch = {0, "", 0, 0};
      oc_comm *c = NULL;
      if (ms == NULL) return 1;
      for (long r = 0; r < reps; r++) {
        int e = oc_comm_new(&c, &tp, &prm);
        t0 = now_ns();
        if (e == OC_OK) e = rt_choose(c, coll, sz[j], &el, &ch);
        ms[r] = (now_ns() - t0) / 1e6;
        if (e != OC_OK) {
          fprintf(stderr, "bench_rtchoose: P = %d, %lld bytes: %s\n", P,
                  (long long)sz[j], oc_err_name(e));
          free(ms);
          return 1;
        }
        if (r + 1 < reps) oc_comm_free(c);
      }
      t0 = now_ns();
      for (int r = 0; r < 1000; r++) (void)rt_choose(c, coll, sz[j], &el, &ch);
      memo = (now_ns() - t0) / 1000 / 1e3;
      oc_comm_free(c);
      qsort(ms, (size_t)reps, sizeof *ms, cmpd);
      printf("%d %s %lld %.2f %s/%lld %.2f %.3f\n", P,
             coll == RT_REDUCE ? "reduce" : coll == RT_BCAST ? "bcast" : "allgather",
             (long long)sz[j], ms[reps / 2],
             ch.name, (long long)ch.m, (double)ch.t * 10.0 / 1000.0, memo);
      free(ms);
    }
    oc_threads_free(w);
  }
  return 0;
}
