/* bench_mpi.c - optcast's collectives against the MPI library's own, in one
 * mpirun, on the same buffers.
 *
 *   mpirun -n P build/bench_mpi [--coll bcast|reduce|allreduce|allgather|scan|all]
 *          [--sizes 8,64,...] [--iters N] [--params FILE] [--root r]
 *          [--mpi-only | --optcast-only] [--algorithm COLL:NAME]
 *
 * For every collective and size the two implementations alternate (optcast,
 * MPI, optcast, MPI, ...), N timed iterations each after one warm-up.  An
 * iteration starts at a moment agreed by all ranks on the shared clock
 * (CLOCK_MONOTONIC: all ranks run on one machine, or SMPI's simulated clock):
 * after a barrier the ranks take the latest of their times plus a slack
 * that covers that agreement itself, and each waits for it (spinning, or
 * sleeping in simulated time under SMPI).  The iteration's time runs from
 * that common start to the moment the LAST rank's call returns (a rank's
 * own call time understates a broadcast: the root returns early).  A
 * barrier alone is no common start: its ranks leave it at different times
 * (at 256 simulated ranks up to about 50 us apart, more than a small
 * broadcast takes).  An iteration in which some rank reached the start
 * late is run again with twice the slack (up to 4 times).  Every iteration's result
 * is checked against a serial reference on every rank; a wrong result
 * stops the program with exit 1.  Printed: one line per (collective, size)
 * with both medians, optcast / MPI, what optcast ran and the time its
 * model predicted (microseconds).
 *
 * --algorithm forces optcast's algorithm for one collective
 * (oc_comm_set_algorithm, e.g. allreduce:direct) instead of the model's.
 * --mpi-only times MPI's collective alone (optcast's columns print "-"), for
 * sweeps over a library's single algorithms: a wrong result of MPI's then
 * prints "coll size - WRONG" and the sweep goes on to the next size (exit 3
 * at the end).  --optcast-only times optcast's call alone (MPI's columns
 * print "-"): a simulation that cannot hold both in the time it has
 * (bench/smpi/run.sh --split) runs each on its own.
 * MPI's algorithm is whatever the library picks, or what the environment
 * forces (Open MPI: OMPI_MCA_coll_tuned_use_dynamic_rules=1 and
 * OMPI_MCA_coll_tuned_bcast_algorithm=N); bench/mpi_bench.sh runs the
 * sweep and names the forced algorithm in the output. */
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "optcast_mpi.h"
#include "optcast_rt.h"

enum { B_BCAST, B_REDUCE, B_ALLREDUCE, B_ALLGATHER, B_SCAN, B_N };
static const char *const NAMES[] = {"bcast", "reduce", "allreduce", "allgather", "scan"};

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int dcmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, dcmp);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* inputs: small integers, so int sums are exact in any order */
static void fill(int32_t *x, int64_t n, int rank) {
  for (int64_t i = 0; i < n; i++) x[i] = (int32_t)((rank * 7 + i * 13) % 101);
}

typedef struct ctx {
  int P, me, root, k;
  int64_t n; /* int32 elements */
  int32_t *in, *out, *ref;
  size_t outn;
  oc_comm *oc;
} ctx;

static void reference(ctx *c) {
  int32_t *tmp = (int32_t *)malloc((size_t)c->n * sizeof *tmp + 4);
  c->outn = (size_t)c->n * (c->k == B_ALLGATHER ? (size_t)c->P : 1);
  c->ref = (int32_t *)malloc(c->outn * sizeof *c->ref + 4);
  switch (c->k) {
  case B_BCAST: fill(c->ref, c->n, c->root); break;
  case B_REDUCE:
  case B_ALLREDUCE:
  case B_SCAN: {
    int last = c->k == B_SCAN ? c->me : c->P - 1;
    memset(c->ref, 0, (size_t)c->n * sizeof *c->ref);
    for (int r = 0; r <= last; r++) {
      fill(tmp, c->n, r);
      for (int64_t i = 0; i < c->n; i++) c->ref[i] += tmp[i];
    }
    break;
  }
  case B_ALLGATHER:
    for (int r = 0; r < c->P; r++) fill(c->ref + (size_t)r * (size_t)c->n, c->n, r);
    break;
  }
  free(tmp);
}

/* one call; which = 0 optcast, 1 MPI */
static int call(ctx *c, int which) {
  int n = (int)c->n, e;
  if (c->k == B_BCAST && c->me == c->root) memcpy(c->out, c->in, (size_t)c->n * 4);
  if (which == 0) {
    oc_reducer sum = oc_reducer_builtin(OC_OP_SUM);
    switch (c->k) {
    case B_BCAST: return oc_coll_bcast(c->oc, c->out, c->n, OC_INT32, c->root);
    case B_REDUCE: return oc_coll_reduce(c->oc, c->in, c->out, c->n, OC_INT32, &sum, c->root);
    case B_ALLREDUCE: return oc_coll_allreduce(c->oc, c->in, c->out, c->n, OC_INT32, &sum);
    case B_ALLGATHER: return oc_coll_allgather(c->oc, c->in, c->out, c->n, OC_INT32);
    default: return oc_coll_scan(c->oc, c->in, c->out, c->n, OC_INT32, &sum);
    }
  }
  switch (c->k) {
  case B_BCAST: e = MPI_Bcast(c->out, n, MPI_INT32_T, c->root, MPI_COMM_WORLD); break;
  case B_REDUCE: e = MPI_Reduce(c->in, c->out, n, MPI_INT32_T, MPI_SUM, c->root, MPI_COMM_WORLD); break;
  case B_ALLREDUCE: e = MPI_Allreduce(c->in, c->out, n, MPI_INT32_T, MPI_SUM, MPI_COMM_WORLD); break;
  case B_ALLGATHER: e = MPI_Allgather(c->in, n, MPI_INT32_T, c->out, n, MPI_INT32_T, MPI_COMM_WORLD); break;
  default: e = MPI_Scan(c->in, c->out, n, MPI_INT32_T, MPI_SUM, MPI_COMM_WORLD); break;
  }
  return e == MPI_SUCCESS ? 0 : -1000;
}

static int result_ok(const ctx *c) {
  if (c->k == B_REDUCE && c->me != c->root) return 1;
  return memcmp(c->out, c->ref, c->outn * sizeof *c->out) == 0;
}

/* the common start's slack (us): set by calibrate(), doubled when a rank
 * arrives late; the same on every rank (from allreduces) */
static double g_slack;

static void wait_until(double go) {
#ifdef SMPI_HELPERS_H /* smpicc: sleeping moves the simulated clock exactly */
  double d = go - now_us();
  if (d > 0) {
    struct timespec ts;
    ts.tv_sec = (time_t)(d / 1e6);
    ts.tv_nsec = (long)((d - (double)ts.tv_sec * 1e6) * 1e3);
    nanosleep(&ts, NULL);
  }
#else /* a real machine: spin, yielding to ranks that share the core */
  while (now_us() < go) sched_yield();
#endif
}

/* the agreement's own spread: after a barrier, the latest rank's time is
 * known to all ranks this long after it at worst (5 rounds, the largest,
 * twice, plus 1 us) */
static void calibrate(void) {
  double worst = 0;
  for (int i = 0; i < 5; i++) {
    double t, mx, d, dmax;
    MPI_Barrier(MPI_COMM_WORLD);
    t = now_us();
    MPI_Allreduce(&t, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    d = now_us() - mx;
    MPI_Allreduce(&d, &dmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (dmax > worst) worst = dmax;
  }
  g_slack = 2 * worst + 1;
}

/* time one iteration of `which`: (latest end) - (common start), all ranks */
static double timed(ctx *c, int which, int *bad) {
  double here, go, mine[2], all[2]; /* {end, late}: the latest end, anyone late */
  int e, ok;
  for (int attempt = 0;; attempt++) {
    memset(c->out, 0x5a, c->outn * sizeof *c->out);
    MPI_Barrier(MPI_COMM_WORLD);
    here = now_us();
    MPI_Allreduce(&here, &go, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    go += g_slack;
    mine[1] = now_us() > go ? 1 : 0;
    wait_until(go);
    e = call(c, which);
    mine[0] = now_us();
    ok = e == 0 && result_ok(c);
    if (!ok) *bad = which + 1;
    MPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (all[1] == 0 || attempt == 4) return all[0] - go;
    g_slack *= 2; /* someone started late: again, with more room */
  }
}

int main(int argc, char **argv) {
  static const int64_t defsizes[] = {8, 64, 512, 4096, 32768, 262144, 1048576, 4194304};
  int64_t sizes[32];
  int nsizes = 0, iters = 20, root = 0, only = -1, P, me, status = 0, mpi_only = 0, oc_only = 0,
      mpi_wrong = 0;
  const char *params = NULL, *forced = NULL, *label = getenv("OPTCAST_BENCH_LABEL");
  oc_rtparams prm;
  MPI_Comm dup;
  oc_transport tp;
  ctx c;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  for (int i = 1; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : "";
    if (strcmp(argv[i], "--iters") == 0) iters = atoi(v), i++;
    else if (strcmp(argv[i], "--root") == 0) root = atoi(v), i++;
    else if (strcmp(argv[i], "--params") == 0) params = v, i++;
    else if (strcmp(argv[i], "--mpi-only") == 0) mpi_only = 1;
    else if (strcmp(argv[i], "--optcast-only") == 0) oc_only = 1;
    else if (strcmp(argv[i], "--algorithm") == 0) forced = v, i++;
    else if (strcmp(argv[i], "--coll") == 0) {
      for (only = 0; only < B_N && strcmp(v, NAMES[only]) != 0; only++) {
      }
      if (strcmp(v, "all") == 0) only = -1;
      else if (only == B_N) {
        if (me == 0) fprintf(stderr, "bench_mpi: --coll: unknown '%s'\n", v);
        MPI_Abort(MPI_COMM_WORLD, 2);
      }
      i++;
    } else if (strcmp(argv[i], "--sizes") == 0) {
      char *s = argv[++i < argc ? i : i - 1], *end;
      while (*s && nsizes < 32) {
        sizes[nsizes++] = strtoll(s, &end, 10);
        s = *end == ',' ? end + 1 : end;
        if (end == s && *s) break;
      }
    } else {
      if (me == 0) fprintf(stderr, "bench_mpi: unknown argument '%s'\n", argv[i]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  if (nsizes == 0) {
    nsizes = (int)(sizeof defsizes / sizeof defsizes[0]);
    memcpy(sizes, defsizes, sizeof defsizes);
  }
  if (iters < 1 || root < 0 || root >= P || (mpi_only && oc_only)) {
    if (me == 0)
      fprintf(stderr, "bench_mpi: --iters >= 1, 0 <= --root < P, not both --mpi-only and --optcast-only\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (params != NULL) {
    int line;
    if (oc_rtparams_read(params, &prm, &line) != OC_OK) {
      if (me == 0) fprintf(stderr, "bench_mpi: --params: cannot read %s (line %d)\n", params, line);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  } else {
    oc_rtparams_default(&prm);
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  memset(&c, 0, sizeof c);
  if (oc_mpi_transport(dup, &tp) != OC_OK || oc_comm_new(&c.oc, &tp, &prm) != OC_OK)
    MPI_Abort(MPI_COMM_WORLD, 1);
  if (forced != NULL) {
    char coll[32];
    const char *colon = strchr(forced, ':');
    size_t cl = colon == NULL ? 0 : (size_t)(colon - forced);
    if (cl > 0 && cl < sizeof coll) memcpy(coll, forced, cl);
    if (cl == 0 || cl >= sizeof coll) coll[0] = 0;
    else coll[cl] = 0;
    if (coll[0] == 0 || oc_comm_set_algorithm(c.oc, coll, colon + 1) != OC_OK) {
      if (me == 0) fprintf(stderr, "bench_mpi: --algorithm: '%s' is not COLL:NAME\n", forced);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  c.P = P;
  c.me = me;
  c.root = root;
  calibrate();
  if (me == 0)
    printf("# bench_mpi: P=%d, %d iterations each, alternating; %s\n"
           "# coll size_bytes optcast_us mpi_us ratio(optcast/mpi) segments algorithm "
           "predicted_us\n",
           P, iters, label ? label : "MPI default algorithm");
  for (int k = 0; k < B_N && status == 0; k++) {
    if (only >= 0 && k != only) continue;
    for (int s = 0; s < nsizes && status == 0; s++) {
      int bad = 0;
      double *to = (double *)malloc((size_t)iters * sizeof *to);
      double *tm = (double *)malloc((size_t)iters * sizeof *tm);
      int64_t bytes = sizes[s] < 4 ? 4 : sizes[s];
      oc_callinfo ci;
      c.k = k;
      c.n = bytes / 4;
      c.in = (int32_t *)malloc((size_t)c.n * 4 + 4);
      c.out = (int32_t *)malloc((size_t)c.n * 4 * (k == B_ALLGATHER ? (size_t)P : 1) + 4);
      fill(c.in, c.n, me);
      reference(&c);
      if (!mpi_only) timed(&c, 0, &bad); /* warm-up: plans cached, pages touched */
      if (!oc_only) timed(&c, 1, &bad);
      for (int it = 0; it < iters; it++) {
        to[it] = mpi_only ? 0 : timed(&c, 0, &bad);
        tm[it] = oc_only ? 1 : timed(&c, 1, &bad);
      }
      oc_comm_last_call(c.oc, &ci);
      {
        int anybad = 0;
        MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (anybad && mpi_only) {
          if (me == 0) printf("%s %lld - WRONG\n", NAMES[k], (long long)bytes);
          mpi_wrong = 1;
          anybad = 0;
          bad = -1; /* reported */
        }
        if (anybad) {
          if (me == 0)
            fprintf(stderr, "bench_mpi: %s %lld bytes: WRONG result from %s\n", NAMES[k],
                    (long long)bytes, anybad == 1 ? "optcast" : "MPI");
          status = 1;
        }
      }
      if (me == 0 && status == 0 && mpi_only && bad == 0) {
        printf("%s %lld - %.2f - - - -\n", NAMES[k], (long long)bytes, median(tm, iters));
        fflush(stdout);
      } else if (me == 0 && status == 0 && oc_only) {
        printf("%s %lld %.2f - - %lld %s %.2f\n", NAMES[k], (long long)bytes, median(to, iters),
               (long long)ci.segments, ci.algorithm ? ci.algorithm : "?",
               (double)ci.predicted * ci.unit_ns / 1000.0);
        fflush(stdout);
      } else if (me == 0 && status == 0 && !mpi_only) {
        double mo = median(to, iters), mm = median(tm, iters);
        printf("%s %lld %.2f %.2f %.3f %lld %s %.2f\n", NAMES[k], (long long)bytes, mo, mm,
               mo / mm, (long long)ci.segments, ci.algorithm ? ci.algorithm : "?",
               (double)ci.predicted * ci.unit_ns / 1000.0);
        fflush(stdout);
      }
      free(to);
      free(tm);
      free(c.in);
      free(c.out);
      free(c.ref);
    }
  }
  oc_comm_free(c.oc);
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return status != 0 ? status : mpi_wrong ? 3 : 0;
}
