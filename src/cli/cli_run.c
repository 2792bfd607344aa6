/* cli_run.c - `optcast run` and `optcast measure` on the threads transport.
 *
 *   optcast run COLL --procs P [--count N | --size BYTES] [--type T] [--op OP]
 *               [--root r] [--operands n] [--iters K] [--params FILE]
 *               [--segment BYTES] [--algorithm A] [--check] [--timeout MS] [--json]
 *   optcast measure [--procs P] [--sizes a,b,...] [--reps R] [--out FILE] [--json]
 *
 * run: P threads call the collective K times on the same inputs; each
 * iteration starts all ranks together (a barrier) and is timed from that
 * common start to the moment the LAST rank has its result; every rank's
 * result is compared with a serial reference each iteration.  Prints the
 * plan (algorithm, segments, the model's prediction) and the median and
 * minimum times.  Exit 0 when every result was right, 1 when one was not
 * or a rank failed, 2 for bad input (one line naming the option).
 *
 * measure: the PLogP parameters of the threads transport (oc_measure),
 * printed as a table and written as a parameter file (--out) that
 * `optcast run --params`, `optcast plan --params` and the library read. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "optcast_rt.h"

#ifdef OC_CLI_NO_MAIN /* the fuzzing build runs many commands in one process: small ones */
#define RUN_PROCS_MAX 8
#define RUN_BYTES_MAX ((int64_t)1 << 16)
#define RUN_ITERS_MAX 2
#define MEASURE_REPS_MAX 2
#define MEASURE_ROUNDS_MAX 2
#define MEASURE_BYTES_MAX ((int64_t)1 << 12)
#else
#define RUN_PROCS_MAX 1024
#define RUN_BYTES_MAX ((int64_t)1 << 30)
#define RUN_ITERS_MAX 100000
#define MEASURE_REPS_MAX 10000
#define MEASURE_ROUNDS_MAX 25
#define MEASURE_BYTES_MAX ((int64_t)1 << 30)
#endif

typedef enum { C_BCAST, C_REDUCE, C_ALLREDUCE, C_ALLGATHER, C_SCAN, C_SUM } coll;
static const char *const COLLS[] = {"bcast", "reduce", "allreduce", "allgather", "scan", "sum"};

static int bad(const char *fmt, const char *a, const char *b) {
  fputs("optcast: ", stderr);
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
  return 2;
}

/* ---- the job shared by the threads ---- */
typedef struct runjob {
  coll k;
  int P, root, iters, check;
  int64_t count, operands, segment, timeout;
  const char *alg; /* --algorithm, or NULL */
  const char *coll_name;
  oc_type t;
  oc_reducer op;
  pthread_barrier_t bar;
  double *start, *end; /* [iter * P + rank] */
  int *wrong;          /* per rank: iterations with a wrong result */
  oc_callinfo info;    /* rank 0's last call */
} runjob;

static void fill(void *buf, oc_type t, int64_t n, int rank) {
  size_t sz = oc_type_size(t);
  unsigned char *b = (unsigned char *)buf;
  for (int64_t i = 0; i < n; i++) {
    uint64_t v = (uint64_t)rank * 2654435761u + (uint64_t)i * 40503u + 17;
    v ^= v >> 13;
    v = (v % 61) + 1; /* small positive values: sums and products stay exact */
    switch (t) {
    case OC_FLOAT: ((float *)buf)[i] = (float)v; break;
    case OC_DOUBLE: ((double *)buf)[i] = (double)v; break;
    default:
      /* the first byte: a small value on a little-endian machine; either
       * way the reference below folds the same bytes */
      memset(b + (size_t)i * sz, 0, sz);
      b[(size_t)i * sz] = (unsigned char)v;
      break;
    }
  }
}

/* x_lo op ... op x_hi into out (ranks; for sum: operand indices) */
static void ref_fold(const runjob *j, int64_t lo, int64_t hi, void *out, void *scratch) {
  size_t b = (size_t)j->count * oc_type_size(j->t);
  fill(out, j->t, j->count, (int)lo);
  for (int64_t r = lo + 1; r <= hi; r++) {
    fill(scratch, j->t, j->count, (int)r);
    oc_reducer_apply(&j->op, j->t, out, scratch, j->count);
    if (b) memcpy(out, scratch, b);
  }
}

static int run_rank(oc_comm *c, void *arg) {
  runjob *j = (runjob *)arg;
  int me = oc_comm_rank(c), P = j->P, e = OC_OK;
  size_t sz = oc_type_size(j->t), b = (size_t)j->count * sz;
  size_t outb = j->k == C_ALLGATHER ? b * (size_t)P : b;
  int64_t first = 0, held = 1;
  unsigned char *in = NULL, *out = NULL, *ref = NULL, *scratch = NULL;
  if (j->segment > 0) oc_comm_set_segment(c, j->segment);
  if (j->check) oc_comm_set_check(c, 1);
  if (j->alg != NULL) /* checked by cmd_run */
    (void)oc_comm_set_algorithm(c, j->coll_name, j->alg);
  /* on an error this rank still meets the others at every barrier */
  if (j->k == C_SUM)
    e = oc_coll_sum_share(c, j->operands, j->count, j->t, j->root, &first, &held);
  if (e == OC_OK) {
    in = (unsigned char *)malloc(b * (size_t)(held > 0 ? held : 1) + 1);
    out = (unsigned char *)malloc(outb + 1);
    ref = (unsigned char *)malloc(outb + 1);
    scratch = (unsigned char *)malloc(b + 1);
    if (in == NULL || out == NULL || ref == NULL || scratch == NULL) e = OC_ENOMEM;
  }
  if (e == OC_OK) {
    for (int64_t i = 0; i < (j->k == C_SUM ? held : 1); i++)
      fill(in + (size_t)i * b, j->t, j->count, (int)(j->k == C_SUM ? first + i : me));
    switch (j->k) { /* the reference this rank must end with */
    case C_BCAST: fill(ref, j->t, j->count, j->root); break;
    case C_REDUCE:
    case C_ALLREDUCE: ref_fold(j, 0, P - 1, ref, scratch); break;
    case C_SCAN: ref_fold(j, 0, me, ref, scratch); break;
    case C_SUM: ref_fold(j, 0, j->operands - 1, ref, scratch); break;
    case C_ALLGATHER:
      for (int r = 0; r < P; r++) fill(ref + (size_t)r * b, j->t, j->count, r);
      break;
    }
  }
  for (int it = 0; it < j->iters; it++) {
    int checks = j->k == C_BCAST || j->k == C_ALLREDUCE || j->k == C_ALLGATHER ||
                 j->k == C_SCAN || me == j->root;
    if (out != NULL) memset(out, 0xa5, outb);
    if (j->k == C_BCAST && me == j->root && out != NULL) memcpy(out, in, b);
    pthread_barrier_wait(&j->bar);
    j->start[(size_t)it * (size_t)P + (size_t)me] = oc_now_us();
    if (e == OC_OK) {
      switch (j->k) {
      case C_BCAST: e = oc_coll_bcast(c, out, j->count, j->t, j->root); break;
      case C_REDUCE: e = oc_coll_reduce(c, in, out, j->count, j->t, &j->op, j->root); break;
      case C_ALLREDUCE: e = oc_coll_allreduce(c, in, out, j->count, j->t, &j->op); break;
      case C_ALLGATHER: e = oc_coll_allgather(c, in, out, j->count, j->t); break;
      case C_SCAN: e = oc_coll_scan(c, in, out, j->count, j->t, &j->op); break;
      case C_SUM:
        e = oc_coll_sum(c, j->operands, in, out, j->count, j->t, &j->op, j->root);
        break;
      }
    }
    j->end[(size_t)it * (size_t)P + (size_t)me] = oc_now_us();
    if (e == OC_OK && checks && outb > 0 && memcmp(out, ref, outb) != 0) j->wrong[me]++;
    if (me == 0) oc_comm_last_call(c, &j->info);
  }
  free(in);
  free(out);
  free(ref);
  free(scratch);
  return e;
}

typedef struct runopts {
  const char *params_file;
  int json;
} runopts;

static int parse_i(const char *opt, const char *v, int64_t lo, int64_t hi, int64_t *out) {
  if (v == NULL) return bad("--%s: missing value", opt, "");
  if (oc_parse_int(v, lo, hi, out) != OC_OK) {
    fprintf(stderr, "optcast: --%s: '%s' is not an integer in %lld..%lld\n", opt, v,
            (long long)lo, (long long)hi);
    return 2;
  }
  return 0;
}

static int load_params(const char *path, oc_rtparams *prm) {
  int line = 0, e = oc_rtparams_read(path, prm, &line);
  if (e == OC_EIO) return bad("--params: cannot read '%s'%s", path, "");
  if (cli_params_whole_file(e, line) != NULL)
    return bad("--params: '%s' %s", path, cli_params_whole_file(e, line));
  if (e) {
    fprintf(stderr, "optcast: --params: %s line %d: %s\n", path, line, oc_strerror(e));
    return 2;
  }
  return 0;
}

int cli_run_cmd(const cli_args *a) {
  runjob j;
  runopts o;
  oc_rtparams prm;
  int64_t v, size = -1, count = -1, P = -1, root = 0, iters = 10, seg = 0, operands = -1,
             timeout = 60000;
  int have_op = 0, rc = 0, *rcs = NULL;
  double *tot = NULL;
  const char *coll_name;
  /* the integer options: option, its variable, its range */
  const struct { int o; int64_t *to, lo, hi; } ints[] = {
      {O_PROCS, &P, 1, RUN_PROCS_MAX},          {O_COUNT, &count, 0, RUN_BYTES_MAX},
      {O_SIZE, &size, 0, RUN_BYTES_MAX},        {O_ROOT, &root, 0, RUN_PROCS_MAX},
      {O_ITERS, &iters, 1, RUN_ITERS_MAX},      {O_SEGMENT, &seg, 1, RUN_BYTES_MAX},
      {O_OPERANDS, &operands, 1, OC_REDUCE_PLAN_MAX},
      {O_TIMEOUT, &timeout, 0, (int64_t)1 << 40}};
  memset(&j, 0, sizeof j);
  memset(&o, 0, sizeof o);
  j.t = OC_INT32;
  j.op = oc_reducer_builtin(OC_OP_SUM);
  if (a->problem == NULL)
    return bad("run: which collective? (%s)", "bcast, reduce, allreduce, allgather, scan or sum", "");
  coll_name = a->problem;
  for (v = 0; v < 6 && strcmp(coll_name, COLLS[v]) != 0; v++) {
  }
  if (v == 6)
    return bad("run: unknown collective '%s' (expected bcast, reduce, allreduce, allgather, scan or sum)%s",
               coll_name, "");
  j.k = (coll)v;
  j.coll_name = coll_name;
  o.json = a->set[O_JSON];
  j.check = a->set[O_CHECK];
  for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
    int r;
    if (a->set[ints[i].o] &&
        (r = parse_i(CLI_OPTS[ints[i].o].name, a->val[ints[i].o], ints[i].lo, ints[i].hi,
                     ints[i].to)) != 0)
      return r;
  }
  o.params_file = a->val[O_PARAMS];
  j.alg = a->val[O_ALGORITHM];
  if (a->set[O_TYPE] && oc_type_parse(a->val[O_TYPE], &j.t) != OC_OK)
    return bad("--type: unknown type '%s' (int8..int64, uint8..uint64, float, double, byte)%s",
               a->val[O_TYPE], "");
  if (a->set[O_OP]) {
    oc_opkind kd;
    if (oc_opkind_parse(a->val[O_OP], &kd) != OC_OK)
      return bad("--op: unknown operator '%s' (sum prod min max band bor bxor land lor)%s",
                 a->val[O_OP], "");
    j.op = oc_reducer_builtin(kd);
    have_op = 1;
  }
  if (a->set[O_TRANSPORT] && strcmp(a->val[O_TRANSPORT], "threads") != 0)
    return bad("--transport: '%s' is not available here (threads; MPI programs use the library "
               "or the interposer, docs/MPI.md)%s", a->val[O_TRANSPORT], "");
  if (P < 0) return bad("--procs: required (the number of threads)%s", "", "");
  if (root >= P) {
    fprintf(stderr, "optcast: --root: %lld is not a rank of %lld\n", (long long)root, (long long)P);
    return 2;
  }
  if (count >= 0 && size >= 0) return bad("--count and --size: give one of them%s", "", "");
  if (size >= 0) {
    if (size % (int64_t)oc_type_size(j.t) != 0) {
      fprintf(stderr, "optcast: --size: %lld bytes is not a whole number of %s (%zu bytes)\n",
              (long long)size, oc_type_name(j.t), oc_type_size(j.t));
      return 2;
    }
    count = size / (int64_t)oc_type_size(j.t);
  }
  if (count < 0) count = 1000;
  if ((uint64_t)count * oc_type_size(j.t) * (j.k == C_ALLGATHER ? (uint64_t)P : 1) >
      (uint64_t)RUN_BYTES_MAX)
    return bad("--count: the buffers would exceed 1 GiB%s", "", "");
  if (j.k == C_SUM) {
    if (operands < 0) operands = P;
    if ((uint64_t)operands * (uint64_t)count * oc_type_size(j.t) > (uint64_t)RUN_BYTES_MAX)
      return bad("--operands: the operands would exceed 1 GiB%s", "", "");
  } else if (operands >= 0) {
    return bad("--operands: only for 'optcast run sum'%s", "", "");
  }
  if (j.alg != NULL) { /* the names the runtime takes (oc_algorithm_names) */
    char names[512];
    int nn = oc_algorithm_names(coll_name, names, sizeof names), okname = 0;
    if (nn == 0)
      return bad("--algorithm: %s has one algorithm%s", coll_name, "");
    for (const char *q = names; *q != '\0';) {
      size_t len = strcspn(q, ",");
      okname |= strlen(j.alg) == len && strncmp(q, j.alg, len) == 0;
      q += len;
      q += strspn(q, ", ");
    }
    if (!okname) {
      fprintf(stderr, "optcast: --algorithm: unknown '%s' for %s (expected %s)\n", j.alg,
              coll_name, names);
      return 2;
    }
  }
  if (j.k == C_BCAST || j.k == C_ALLGATHER) {
    if (have_op) return bad("--op: %s combines nothing", coll_name, "");
  } else if (oc_reducer_check(&j.op, j.t) != OC_OK) {
    fprintf(stderr, "optcast: --op: %s does not apply to %s\n", oc_opkind_name(j.op.kind),
            oc_type_name(j.t));
    return 2;
  }
  if (o.params_file != NULL) {
    if ((rc = load_params(o.params_file, &prm)) != 0) return rc;
  } else {
    oc_rtparams_default(&prm);
  }
  /* all input checked: now allocate */
  j.P = (int)P;
  j.root = (int)root;
  j.iters = (int)iters;
  j.count = count;
  j.operands = operands;
  j.segment = seg;
  j.timeout = timeout;
  j.start = (double *)calloc((size_t)(iters * P), sizeof *j.start);
  j.end = (double *)calloc((size_t)(iters * P), sizeof *j.end);
  j.wrong = (int *)calloc((size_t)P, sizeof *j.wrong);
  rcs = (int *)calloc((size_t)P, sizeof *rcs);
  tot = (double *)calloc((size_t)iters, sizeof *tot);
  if (j.start == NULL || j.end == NULL || j.wrong == NULL || rcs == NULL || tot == NULL ||
      pthread_barrier_init(&j.bar, NULL, (unsigned)P) != 0) {
    fputs("optcast: run: out of memory\n", stderr);
    rc = 1;
    goto out;
  }
  if (P > 1 && !o.json) fprintf(stderr, "optcast run: %lld threads, %lld iterations ...\n",
                                (long long)P, (long long)iters);
  {
    int e = oc_threads_run((int)P, &prm, timeout, run_rank, &j, rcs);
    int wrong = 0, failed = -1;
    long cores;
    int64_t bytes, past;
    double med, mn, pred_us;
    pthread_barrier_destroy(&j.bar);
    if (e != OC_OK) {
      fprintf(stderr, "optcast: run: %s\n", oc_strerror(e));
      rc = 1;
      goto out;
    }
    for (int r = 0; r < P; r++) {
      wrong += j.wrong[r];
      if (rcs[r] != OC_OK && failed < 0) failed = r;
    }
    for (int it = 0; it < iters; it++) {
      double s = 1e300, en = 0;
      for (int r = 0; r < P; r++) {
        double st = j.start[(size_t)it * (size_t)P + (size_t)r], b = j.end[(size_t)it * (size_t)P + (size_t)r];
        if (st < s) s = st;
        if (b > en) en = b;
      }
      tot[it] = en - s;
    }
    med = oc_median(tot, (int)iters); /* sorts tot */
    mn = tot[0];
    pred_us = j.info.predicted >= 0 ? (double)j.info.predicted * j.info.unit_ns / 1000.0 : -1;
    /* what the figures are not: threads sharing cores wait for one, which
     * the model (a processor per rank) does not count; parameters that
     * were not measured, or a size past the measured ones */
    cores = sysconf(_SC_NPROCESSORS_ONLN);
    bytes = count * (int64_t)oc_type_size(j.t);
    past = o.params_file != NULL && prm.nrows > 0 && bytes > prm.bytes[prm.nrows - 1]
               ? prm.bytes[prm.nrows - 1] : 0;
    if (o.json) {
      printf("{\"problem\":\"%s\",\"model\":\"logp\",\"algorithm\":\"%s\",\"P\":%lld,"
             "\"transport\":\"threads\",\"count\":%lld,\"type\":\"%s\",\"bytes\":%lld,"
             "\"root\":%lld,\"segments\":%lld,\"segment_bytes\":%lld,"
             "\"time\":%lld,\"lower_bound\":%lld,\"optimal\":false,\"unit_ns\":%g,"
             "\"predicted_us\":%.3f,\"iterations\":%lld,\"median_us\":%.3f,\"min_us\":%.3f,"
             "\"wrong_results\":%d,\"errors\":%s,\"cores\":%ld,\"oversubscribed\":%s,"
             "\"params\":\"%s\",\"params_extrapolated\":%s}\n",
             coll_name, j.info.algorithm ? j.info.algorithm : "", (long long)P,
             (long long)count, oc_type_name(j.t),
             (long long)count * (long long)oc_type_size(j.t), (long long)root,
             (long long)j.info.segments, (long long)j.info.segment_bytes,
             (long long)(j.info.predicted < 0 ? 0 : j.info.predicted), (long long)0,
             j.info.unit_ns, pred_us, (long long)iters, med, mn, wrong,
             failed < 0 ? "false" : "true", cores, cores > 0 && P > cores ? "true" : "false",
             o.params_file != NULL ? "file" : "default", past > 0 ? "true" : "false");
    } else {
      printf("optcast run %s: threads transport, P=%lld, %lld x %s (%lld bytes)", coll_name,
             (long long)P, (long long)count, oc_type_name(j.t),
             (long long)count * (long long)oc_type_size(j.t));
      if (j.k == C_BCAST || j.k == C_REDUCE || j.k == C_SUM) printf(", root %lld", (long long)root);
      if (j.k == C_SUM) printf(", %lld operands", (long long)operands);
      printf("\nalgorithm %s, %lld segment(s) of %lld bytes", j.info.algorithm ? j.info.algorithm : "?",
             (long long)j.info.segments, (long long)j.info.segment_bytes);
      if (pred_us >= 0)
        printf("; the model predicts %.2f us (%s)", pred_us,
               o.params_file != NULL ? "measured parameters"
                                     : "built-in parameters, not measured here: 'optcast "
                                       "measure --out F', then --params F");
      printf("\n%lld iterations, common start to last rank done: median %.2f us, min %.2f us\n",
             (long long)iters, med, mn);
      printf("results: %s\n", failed >= 0 ? "a rank failed" : wrong ? "WRONG" : "checked on every rank, ok");
      if (cores > 0 && P > cores)
        printf("note: %lld threads share %ld cores: the times include waiting for a core, "
               "which the model (a processor per rank) does not count\n", (long long)P, cores);
      if (past > 0)
        printf("note: %lld bytes is past the largest size measured in %s (%lld): the model's "
               "parameters there are extrapolated\n", (long long)bytes, o.params_file,
               (long long)past);
    }
    if (failed >= 0) fprintf(stderr, "optcast: run: rank %d: %s (%s)\n", failed,
                             oc_strerror(rcs[failed]), oc_err_name(rcs[failed]));
    if (wrong) fprintf(stderr, "optcast: run: %d wrong result(s)\n", wrong);
    rc = (failed >= 0 || wrong) ? 1 : 0;
  }
out:
  free(j.start);
  free(j.end);
  free(j.wrong);
  free(rcs);
  free(tot);
  return rc;
}

/* ---- measure ---- */
/* "noisy": a size's g over the rounds spans more than 1.5x and more than
 * 1 us (below that the spread changes no schedule the model builds) */
#define NOISY 1.5
#define NOISY_AT(lo, hi) ((hi) > NOISY * (lo) && (hi) - (lo) > 1.0)
typedef struct measjob {
  const int64_t *sizes;
  int n, reps, quiet, round, rounds;
  oc_rtparams out;
  int ok;
} measjob;

static void progress(int done, int total, int64_t bytes, void *arg) {
  const measjob *m = (const measjob *)arg;
  if (!m->quiet)
    fprintf(stderr, "optcast measure: round %d of %d: %d/%d sizes (%lld bytes)\n", m->round + 1,
            m->rounds, done, total, (long long)bytes);
}

static int meas_rank(oc_comm *c, void *arg) {
  measjob *m = (measjob *)arg;
  oc_rtparams r;
  int e = oc_measure(c, m->sizes, m->n, m->reps, &r, oc_comm_rank(c) == 0 ? progress : NULL, m);
  if (e == OC_OK && oc_comm_rank(c) == 0) m->out = r;
  return e;
}

int cli_measure_cmd(const cli_args *a) {
  static const int64_t defaults[] = {8, 64, 512, 4096, 32768, 262144, 1048576, 4194304};
  /* (3 rounds by default; the fuzzing build allows fewer) */
  int64_t sizes[OC_RTPARAMS_ROWS_MAX], P = 2, reps = 20;
  int64_t rounds = MEASURE_ROUNDS_MAX < 3 ? MEASURE_ROUNDS_MAX : 3;
  int n = 0, json = a->set[O_JSON], rcs[64], r, noisy = 0;
  static oc_rtparams round[MEASURE_ROUNDS_MAX];
  double gmin[OC_RTPARAMS_ROWS_MAX], gmax[OC_RTPARAMS_ROWS_MAX];
  const char *outpath = a->val[O_OUT];
  measjob m;
  if (a->problem != NULL) return bad("measure: unexpected argument '%s'%s", a->problem, "");
  if (a->set[O_PROCS] && (r = parse_i("procs", a->val[O_PROCS], 2, 64, &P)) != 0) return r;
  if (a->set[O_REPS] && (r = parse_i("reps", a->val[O_REPS], 1, MEASURE_REPS_MAX, &reps)) != 0)
    return r;
  if (a->set[O_ROUNDS] &&
      (r = parse_i("rounds", a->val[O_ROUNDS], 1, MEASURE_ROUNDS_MAX, &rounds)) != 0)
    return r;
  if (a->set[O_TRANSPORT] && strcmp(a->val[O_TRANSPORT], "threads") != 0)
    return bad("--transport: '%s': this command measures threads; for MPI run "
               "build/optcast_measure_mpi under mpirun (docs/MPI.md)%s", a->val[O_TRANSPORT], "");
  if (a->set[O_SIZES]) {
    const char *val = a->val[O_SIZES], *s = val;
    while (*s) {
      char tok[32];
      size_t k = strcspn(s, ",");
      if (k == 0 || k >= sizeof tok || n >= OC_RTPARAMS_ROWS_MAX)
        return bad("--sizes: '%s' is not a list of at most 64 sizes a,b,...%s", val, "");
      memcpy(tok, s, k);
      tok[k] = '\0';
      if (oc_parse_int(tok, 1, MEASURE_BYTES_MAX, &sizes[n]) != OC_OK ||
          (n > 0 && sizes[n] <= sizes[n - 1]))
        return bad("--sizes: '%s': sizes must be ascending integers in 1..2^30%s", val, "");
      n++;
      s += k;
      if (*s == ',') s++;
    }
    if (n == 0) return bad("--sizes: empty list%s", "", "");
  }
  if (n == 0) {
    n = (int)(sizeof defaults / sizeof defaults[0]);
    memcpy(sizes, defaults, sizeof defaults);
    while (n > 1 && sizes[n - 1] > MEASURE_BYTES_MAX) n--;
  }
  if (outpath != NULL) { /* its directory must take the file: check before measuring */
    char dir[4096];
    const char *slash = strrchr(outpath, '/');
    size_t dl = slash == NULL ? 1 : (slash == outpath ? 1 : (size_t)(slash - outpath));
    if (dl >= sizeof dir) return bad("--out: path too long '%s'%s", outpath, "");
    if (slash == NULL) memcpy(dir, ".", 2);
    else {
      memcpy(dir, outpath, dl);
      dir[dl] = '\0';
    }
    struct stat st;
    if (stat(outpath, &st) == 0 && S_ISDIR(st.st_mode))
      return bad("--out: '%s' is a directory (give a file name)%s", outpath, "");
    if (access(dir, W_OK) != 0 || outpath[strlen(outpath) - 1] == '/')
      return bad("--out: cannot write '%s'%s", outpath, "");
  }
  memset(&m, 0, sizeof m);
  m.sizes = sizes;
  m.n = n;
  m.reps = (int)reps;
  m.quiet = json || !isatty(STDERR_FILENO); /* progress on a terminal only */
  m.rounds = (int)rounds;
  /* the whole measurement `rounds` times: the medians go to the file, the
   * spread of each size's g and L over the rounds tells how far to trust it */
  for (int k = 0; k < rounds; k++) {
    m.round = k;
    if (oc_threads_run((int)P, NULL, 60000, meas_rank, &m, rcs) != OC_OK || rcs[0] != OC_OK) {
      fprintf(stderr, "optcast: measure: %s\n", oc_strerror(rcs[0] ? rcs[0] : OC_ETRANSPORT));
      return 1;
    }
    round[k] = m.out;
  }
  for (int i = 0; i < n; i++) {
    double v[MEASURE_ROUNDS_MAX];
    double *const field[5] = {m.out.L, m.out.os, m.out.orv, m.out.g, NULL};
    for (int f = 0; f < 4; f++) {
      for (int k = 0; k < rounds; k++)
        v[k] = (f == 0 ? round[k].L : f == 1 ? round[k].os : f == 2 ? round[k].orv : round[k].g)[i];
      field[f][i] = oc_median(v, (int)rounds); /* sorts v */
      if (f == 3) {
        gmin[i] = v[0];
        gmax[i] = v[rounds - 1];
      }
    }
    if (NOISY_AT(gmin[i], gmax[i])) noisy++;
  }
  {
    double v[MEASURE_ROUNDS_MAX];
    for (int k = 0; k < rounds; k++) v[k] = round[k].combine_ns;
    m.out.combine_ns = oc_median(v, (int)rounds);
  }
  snprintf(m.out.transport, sizeof m.out.transport, "%s", "threads");
  if (outpath != NULL && oc_rtparams_write(outpath, &m.out) != OC_OK)
    return bad("--out: cannot write '%s'%s", outpath, "");
  if (json) {
    printf("{\"transport\":\"threads\",\"procs\":%lld,\"reps\":%lld,\"combine_ns\":%.4f,"
           "\"rows\":[",
           (long long)P, (long long)reps, m.out.combine_ns);
    for (int i = 0; i < n; i++)
      printf("%s{\"bytes\":%lld,\"L_us\":%.4f,\"os_us\":%.4f,\"or_us\":%.4f,\"g_us\":%.4f,"
             "\"g_min_us\":%.4f,\"g_max_us\":%.4f}",
             i ? "," : "", (long long)m.out.bytes[i], m.out.L[i], m.out.os[i], m.out.orv[i],
             m.out.g[i], gmin[i], gmax[i]);
    printf("],\"rounds\":%lld,\"noisy_sizes\":%d}\n", (long long)rounds, noisy);
  } else {
    printf("optcast measure: threads transport, %lld ranks, medians of %lld repetitions, "
           "then of %lld rounds\n", (long long)P, (long long)reps, (long long)rounds);
    printf("%10s %10s %10s %10s %10s  %s\n", "bytes", "L us", "o_s us", "o_r us", "g us",
           "g over the rounds");
    for (int i = 0; i < n; i++)
      printf("%10lld %10.3f %10.3f %10.3f %10.3f  %.3f..%.3f%s\n", (long long)m.out.bytes[i],
             m.out.L[i], m.out.os[i], m.out.orv[i], m.out.g[i], gmin[i], gmax[i],
             NOISY_AT(gmin[i], gmax[i]) ? "  noisy" : "");
    printf("combining (a sum of doubles): %.4f ns a byte\n", m.out.combine_ns);
    if (outpath != NULL) printf("parameters written to %s\n", outpath);
  }
  if (noisy > 0)
    fprintf(stderr, "optcast measure: noisy: g varied more than %.1fx (and 1 us) over the %lld rounds at "
            "%d size(s) (a loaded machine?); the medians were kept - more --rounds or --reps, "
            "or a quieter machine\n", NOISY, (long long)rounds, noisy);
  return 0;
}
