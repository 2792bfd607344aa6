/* optcast_measure_mpi.c - `optcast measure` over MPI: the PLogP parameters
 * between ranks 0 and 1 of MPI_COMM_WORLD (oc_measure, rt_measure.c).
 *
 *   mpirun -n 2 build/optcast_measure_mpi [--sizes a,b,...] [--reps R] [--out FILE]
 *
 * Prints the table (microseconds) on rank 0 and writes the parameter file
 * that `optcast plan --params`, `optcast run --params`, the interposer
 * (OPTCAST_PARAMS) and oc_rtparams_read take.  Place the two ranks as the
 * collectives will run (same node or not). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optcast_mpi.h"
#include "optcast_rt.h"

static void progress(int done, int total, int64_t bytes, void *arg) {
  (void)arg;
  fprintf(stderr, "optcast measure (mpi): %d/%d sizes (%lld bytes)\n", done, total,
          (long long)bytes);
}

int main(int argc, char **argv) {
  int64_t sizes[OC_RTPARAMS_ROWS_MAX] = {8, 64, 512, 4096, 32768, 262144, 1048576, 4194304};
  int n = 8, reps = 20, me, P, e, rc = 0;
  const char *out = NULL;
  MPI_Comm dup;
  oc_transport tp;
  oc_comm *c = NULL;
  oc_rtparams prm;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  for (int i = 1; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (v == NULL) {
      if (me == 0) fprintf(stderr, "optcast_measure_mpi: %s: missing value\n", argv[i]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (strcmp(argv[i], "--reps") == 0) reps = atoi(v);
    else if (strcmp(argv[i], "--out") == 0) out = v;
    else if (strcmp(argv[i], "--sizes") == 0) {
      char *end;
      const char *s = v;
      n = 0;
      while (*s && n < OC_RTPARAMS_ROWS_MAX) {
        sizes[n++] = strtoll(s, &end, 10);
        if (end == s) break;
        s = *end == ',' ? end + 1 : end;
      }
    } else {
      if (me == 0) fprintf(stderr, "optcast_measure_mpi: unknown option '%s'\n", argv[i]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    i++;
  }
  if (P < 2) {
    if (me == 0) fprintf(stderr, "optcast_measure_mpi: needs at least 2 ranks (mpirun -n 2)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  e = oc_mpi_transport(dup, &tp);
  if (e == OC_OK) e = oc_comm_new(&c, &tp, NULL);
  if (e == OC_OK) e = oc_measure(c, sizes, n, reps, &prm, me == 0 ? progress : NULL, NULL);
  if (e != OC_OK) {
    if (me == 0)
      fprintf(stderr, "optcast_measure_mpi: %s (bad sizes or reps, or MPI failed)\n",
              oc_strerror(e));
    rc = 2;
  } else if (me == 0) {
    snprintf(prm.transport, sizeof prm.transport, "%s", "mpi");
    printf("optcast measure: MPI transport, %d ranks, medians of %d repetitions\n", P, reps);
    printf("%10s %10s %10s %10s %10s\n", "bytes", "L us", "o_s us", "o_r us", "g us");
    for (int i = 0; i < prm.nrows; i++)
      printf("%10lld %10.3f %10.3f %10.3f %10.3f\n", (long long)prm.bytes[i], prm.L[i],
             prm.os[i], prm.orv[i], prm.g[i]);
    printf("combining (a sum of doubles): %.4f ns a byte\n", prm.combine_ns);
    if (out != NULL) {
      if (oc_rtparams_write(out, &prm) != OC_OK) {
        fprintf(stderr, "optcast_measure_mpi: --out: cannot write '%s'\n", out);
        rc = 2;
      } else {
        printf("parameters written to %s\n", out);
      }
    }
  }
  oc_comm_free(c);
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return rc;
}
