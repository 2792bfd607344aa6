/* cli_compare.c - `optcast compare bcast|reduce|allreduce`: optcast's
 * broadcast (reduce, allreduce) against the algorithms of the MPI libraries
 * and their default selection rules, each built as a LogP schedule and
 * checked by the verifier (oc_verify_bcast here; oc_verify_vreduce inside
 * the reduce and allreduce builders, whose rows past their limits show
 * "n/a"); and the parameter presets (`--preset NAME`) from published
 * measurements.
 *
 * cli.c parses the options and passes their raw values here.  Errors print
 * one line on stderr naming the parameter and value and return exit code 2
 * with nothing on stdout (everything is computed before anything is
 * printed); a schedule that fails the verifier (a bug) is shown as
 * "verified no" and the exit code is 1.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* ---- presets (sources: docs/PRESETS.md) ----------------------------------- */
static const cli_preset PRESETS[] = {
    /* Karp, Sahay, Santos & Schauser 1993, Fig. 1 and the LogP paper
     * (Culler et al. 1993): the CM-5, in microseconds; a packet is one
     * small active message (16 bytes of data). */
    {"cm5", 6, 2, 4, "1 us", 16,
     "CM-5 (Culler et al. 1993; Karp et al. 1993 Fig. 1), unit 1 us"},
    /* netgauge LogGP measurement of Tukey (Argonne), MVAPICH over
     * InfiniBand, 2048-byte row of tests/ng-mpi-tukey.dat in the CODES
     * simulator (codes-org/codes): L = 7.404 us, o_s = 1.447, o_r = 1.486,
     * g = 1.075 us; in units of 0.1 us; a packet of 2048 bytes, for which
     * G * 2048 (about 1.0 us) matches g. */
    {"ib-tukey", 74, 15, 11, "0.1 us", 2048,
     "InfiniBand, MVAPICH (netgauge on ANL Tukey, CODES ng-mpi-tukey.dat), unit 0.1 us"},
    /* LogGOPSim's built-in defaults (spcl/LogGOPSim, simulator.ggo): L = 2500,
     * o = 1500, g = 1000, G = 6 per byte, in LogGOPSim's time unit, read as
     * ns; here in units of 100 ns; a packet of 167 bytes, for which
     * G * 167 (about 1000) matches g.  Not a measurement: the simulator's
     * starting point, for comparing with LogGOPSim runs. */
    {"loggopsim", 25, 15, 10, "100 ns", 167,
     "LogGOPSim's default parameters (simulator.ggo), not a measurement, unit 100 ns"},
    /* The LogGOPSim settings of SPCL's ATLAHS toolchain (spcl/atlahs,
     * demo/hpc/03_run_loggopsim.sh): L = 3700, o = 200, g = 5 ns, G = 0.04
     * ns/byte (25 GB/s, a 200 Gb/s-class NIC); in units of 5 ns; a packet of
     * 125 bytes, for which G * 125 = 5 = g. */
    {"atlahs", 740, 40, 1, "5 ns", 125,
     "LogGOPSim settings of SPCL's ATLAHS toolchain (200 Gb/s class), unit 5 ns"},
};

const cli_preset *cli_preset_find(const char *name) {
  for (size_t i = 0; i < sizeof PRESETS / sizeof PRESETS[0]; i++)
    if (strcmp(PRESETS[i].name, name) == 0) return &PRESETS[i];
  return NULL;
}

const char *cli_preset_names(void) { return "cm5, ib-tukey, loggopsim, atlahs"; }

/* ---- limits ------------------------------------------------------------------ */
#ifdef OC_CLI_NO_MAIN
#define CMP_MAX ((int64_t)1 << 12) /* the fuzzing build: bounded work */
#define CMP_SWEEP_MAX 4
#else
#define CMP_MAX ((int64_t)1 << 26) /* P * m: tens of minutes at the limit (docs/BENCHMARKS.md) */
#define CMP_SWEEP_MAX 64
#endif
#define CMP_DEFAULT_PACKET CLI_COMPARE_PACKET

static int cmp_err(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static int cmp_err(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cli_verror(fmt, ap);
  va_end(ap);
  return 2;
}

static int get_int(const char *opt, const char *s, int64_t lo, int64_t hi, int64_t *out) {
  int e = oc_parse_int(s, lo, hi, out);
  if (e == OC_EPARSE) return cmp_err("--%s: '%s' is not an integer", opt, s);
  if (e != OC_OK)
    return cmp_err("--%s: must be an integer from %lld to %lld, got '%s'", opt,
                   (long long)lo, (long long)hi, s);
  return 0;
}

/* ---- one comparison ----------------------------------------------------------- */
#define CMP_ROWS 20
typedef struct cmp_row {
  char name[32];
  char alg[160];
  int64_t time;
  int avail;       /* 0: past a builder's limit ("n/a"; time -1)          */
  int verified;
  size_t messages;
  char note[160]; /* where the model penalises the row (no commas: CSV), or "" */
} cmp_row;

/* The honest-comparison note: when 2o > max(g, o), LogP charges a relay
 * that receives and forwards segment after segment its receive and its
 * send overhead one after the other (the processor does one thing at a
 * time), so a pipeline's period is max(g, 2o) a segment.  A network card
 * that overlaps them (offload, a progress thread) runs the same pipeline at
 * max(g, o): up to 2o / max(g, o) faster in the steady state.  Every
 * segmented row gets the note, optcast's included. */
static void set_note(cmp_row *r, const oc_params *p, int segmented) {
  int64_t G = p->g > p->o ? p->g : p->o;
  r->note[0] = '\0';
  if (!segmented || 2 * p->o <= G) return;
  snprintf(r->note, sizeof r->note,
           "2o > max(g;o): LogP adds a relay's receive and send overheads per segment; "
           "where they overlap (NIC offload) this pipeline runs up to %.2fx faster",
           (double)(2 * p->o) / (double)G);
}

typedef struct cmp_result {
  int64_t P, lb, best;
  const char *lb_source; /* bcast: the bound's argument */
  int nrows;
  cmp_row row[CMP_ROWS];
} cmp_result;

/* the library rows; the pipeline's segment is --segment (default 1) */
static const oc_libcoll_spec LIB_ROWS[] = {
    {OC_LC_LINEAR, 0, 2},       {OC_LC_CHAIN, 0, 2},    {OC_LC_PIPELINE, 1, 2},
    {OC_LC_BINARY, 0, 2},       {OC_LC_BINOMIAL, 0, 2}, {OC_LC_KNOMIAL, 0, 3},
    {OC_LC_KNOMIAL, 0, 4},      {OC_LC_KNOMIAL, 0, 8},  {OC_LC_SPLIT_BINARY, 0, 2},
    {OC_LC_SCATTER_RD, 0, 2},   {OC_LC_SCATTER_RING, 0, 2}, {OC_LC_BMTREE, 0, 2},
};

static void spec_label(char *b, size_t n, const oc_libcoll_spec *s) {
  if (s->alg == OC_LC_KNOMIAL)
    snprintf(b, n, "knomial-%lld", (long long)s->radix);
  else if (s->seg > 0)
    snprintf(b, n, "%s-seg%lld", oc_libcoll_alg_name(s->alg), (long long)s->seg);
  else
    snprintf(b, n, "%s", oc_libcoll_alg_name(s->alg));
}

static const char *spec_source(oc_libcoll_alg a) {
  switch (a) {
  case OC_LC_LINEAR: return "Open MPI basic_linear";
  case OC_LC_CHAIN: return "Open MPI chain";
  case OC_LC_PIPELINE: return "Open MPI pipeline";
  case OC_LC_BINARY: return "Open MPI bintree";
  case OC_LC_BINOMIAL: return "MPICH binomial";
  case OC_LC_KNOMIAL: return "Open MPI / MPICH knomial";
  case OC_LC_SPLIT_BINARY: return "Open MPI split_bintree";
  case OC_LC_SCATTER_RD: return "MPICH scatter + rd allgather";
  case OC_LC_SCATTER_RING: return "MPICH scatter + ring allgather";
  case OC_LC_BMTREE: return "Open MPI bmtree (binomial)";
  default: return "?";
  }
}

/* a row with a time: built (not "n/a") and not failed by its builder */
static int timed(const cmp_row *x) { return x->avail && x->time >= 0; }

/* the best timed row's time (-1 when none is) */
static void set_best(cmp_result *res) {
  res->best = -1;
  for (int i = 0; i < res->nrows; i++)
    if (timed(&res->row[i]) && (res->best < 0 || res->row[i].time < res->best))
      res->best = res->row[i].time;
}

/* verify s for (p, root, m); fills the row; frees s */
static int finish_row(const oc_params *p, int64_t root, int64_t m, oc_sched *s,
                      int64_t t, cmp_row *r) {
  oc_verdict v;
  int e = oc_verify_bcast(p, root, m, s, &v);
  r->time = t;
  r->avail = 1;
  r->messages = s->n;
  r->verified = e == OC_OK && v.ok && v.time == t;
  oc_sched_free(s);
  return e;
}

static int lib_row(const oc_params *p, int64_t root, int64_t m,
                   const oc_libcoll_spec *sp, cmp_row *r) {
  oc_sched s;
  int64_t t = 0;
  int e;
  oc_sched_init(&s);
  if ((e = oc_libcoll_bcast(p, root, m, sp, &s, &t)) != OC_OK) {
    oc_sched_free(&s);
    return e;
  }
  return finish_row(p, root, m, &s, t, r);
}

/* "multi-tree (3 trees) in segments of 2", "karp (optimal)" and the like */
void cli_mbcast_describe(const oc_mbcast_info *info, int64_t m, char *buf, size_t n) {
  char deg[32] = "";
  if (info->degree > 0)
    snprintf(deg, sizeof deg, " (%lld %s)", (long long)info->degree,
             oc_mbcast_degree_unit(info->alg, info->degree));
  if (info->seg >= m)
    snprintf(buf, n, "%s%s%s", oc_mbcast_alg_name(info->alg), deg,
             m == 1 && info->alg == OC_MB_KARP ? " (optimal)" : " (whole message)");
  else
    snprintf(buf, n, "%s%s in segments of %lld", oc_mbcast_alg_name(info->alg), deg,
             (long long)info->seg);
}

static int compare_one(const oc_params *p, int64_t root, int64_t m, int64_t bytes,
                       int64_t seg, cmp_result *res) {
  oc_sched s;

  int e, n = 0;
  memset(res, 0, sizeof *res);
  res->P = p->P;
  if ((e = oc_mbcast_bound(p, m, &res->lb, &res->lb_source)) != OC_OK) return e;
  { /* optcast: the fastest of its constructions (oc_mbcast.c); for one
       packet Karp et al.'s optimal tree */
    oc_mbcast_info info;
    oc_sched_init(&s);
    if ((e = oc_mbcast_plan(p, root, m, OC_MB_BEST, &s, &info)) != OC_OK) {
      oc_sched_free(&s);
      return e;
    }
    snprintf(res->row[n].name, sizeof res->row[n].name, "optcast");
    cli_mbcast_describe(&info, m, res->row[n].alg, sizeof res->row[n].alg);
    set_note(&res->row[n], p, info.seg < m);
    if ((e = finish_row(p, root, m, &s, info.time, &res->row[n++])) != OC_OK) return e;
  }
  for (size_t i = 0; i < sizeof LIB_ROWS / sizeof LIB_ROWS[0]; i++) {
    oc_libcoll_spec sp = LIB_ROWS[i];
    if (sp.alg == OC_LC_PIPELINE) sp.seg = seg;
    spec_label(res->row[n].name, sizeof res->row[n].name, &sp);
    snprintf(res->row[n].alg, sizeof res->row[n].alg, "%s", spec_source(sp.alg));
    set_note(&res->row[n], p, sp.seg > 0 && sp.seg < m);
    if ((e = lib_row(p, root, m, &sp, &res->row[n++])) != OC_OK) return e;
  }
  for (int rule = OC_LC_RULE_OMPI; rule <= OC_LC_RULE_MPICH; rule++) {
    oc_libcoll_spec sp;
    char lab[40];
    if ((e = oc_libcoll_select((oc_libcoll_rule)rule, p->P, bytes, &sp)) != OC_OK) return e;
    spec_label(lab, sizeof lab, &sp);
    snprintf(res->row[n].name, sizeof res->row[n].name, "%s",
             oc_libcoll_rule_name((oc_libcoll_rule)rule));
    snprintf(res->row[n].alg, sizeof res->row[n].alg, "picks %s", lab);
    if ((e = lib_row(p, root, m, &sp, &res->row[n++])) != OC_OK) return e;
  }
  res->nrows = n;
  set_best(res);
  return OC_OK;
}

/* ---- allreduce ------------------------------------------------------------------ */
static const struct {
  oc_libred_alg alg;
  const char *src;
} LR_ROWS[] = {{OC_LR_RD, "MPICH / Open MPI recursive doubling"},
               {OC_LR_RING, "Open MPI ring"},
               {OC_LR_RABEN, "MPICH / Open MPI Rabenseifner"},
               {OC_LR_REDBCAST, "Open MPI reduce + bcast (binomial)"},
               {OC_LR_LINEAR, "Open MPI basic_linear"}};
#define CMP_ELEM 8 /* bytes per element the MPICH rule sees (a double) */

/* a default row's name and algorithm: "picks X", or "picks X (runs Y)" when
 * the library hands the vector on to another algorithm */
static void default_label(cmp_row *r, int rule, const char *pick, const char *run) {
  snprintf(r->name, sizeof r->name, "%s", oc_libcoll_rule_name((oc_libcoll_rule)rule));
  if (strcmp(pick, run) == 0) snprintf(r->alg, sizeof r->alg, "picks %s", pick);
  else snprintf(r->alg, sizeof r->alg, "picks %s (runs %s)", pick, run);
}

/* An allreduce row from its builder's result.  The builders (oc_libred_allreduce,
 * oc_allreduce_vector) run oc_verify_vreduce themselves and hand out only
 * schedules it accepts, with its time: OC_OK is a verified row, OC_EINVALID a
 * rejected one (a bug, shown as NO), OC_ERANGE past their limits ("n/a").
 * Other errors are returned. */
static int ar_row(int e, int64_t t, size_t messages, cmp_row *r) {
  r->avail = e != OC_ERANGE;
  r->time = e == OC_OK ? t : -1;
  r->verified = e != OC_EINVALID;
  r->messages = e == OC_OK ? messages : 0;
  return e == OC_OK || e == OC_ERANGE || e == OC_EINVALID ? OC_OK : e;
}

/* one library algorithm */
static int lr_row(const oc_params *p, int64_t m, oc_libred_alg alg, cmp_row *r) {
  oc_sched s;
  int64_t t = 0;
  int e = OC_ERANGE;
  oc_sched_init(&s);
  if (oc_libred_messages(p->P, m, alg) <= OC_LIBRED_MSGS_MAX)
    e = oc_libred_allreduce(p, m, alg, &s, &t);
  e = ar_row(e, t, s.n, r);
  oc_sched_free(&s);
  return e;
}

/* optcast's reduce (root >= 0) or allreduce (root -1) row: the planner's
 * choice (oc_mreduce.c), verified there */
static int optcast_vec_row(const oc_params *p, int64_t root, int64_t m, cmp_row *r) {
  oc_sched s;
  oc_mreduce_info info;
  int e;
  snprintf(r->name, sizeof r->name, "optcast");
  oc_sched_init(&s);
  memset(&info, 0, sizeof info);
  e = oc_mreduce_plan(p, root, m, OC_MB_BEST, &s, &info);
  if (e == OC_OK) {
    char d[160];
    oc_mreduce_describe(&info, root, m, d, sizeof d);
    snprintf(r->alg, sizeof r->alg, "%s", d);
    set_note(r, p, (info.family == OC_MR_REVERSED && info.red.seg < m) ||
                       (info.family == OC_MR_LIBRED && info.seg > 0 && info.seg < m));
  } else {
    snprintf(r->alg, sizeof r->alg, "the fastest construction");
  }
  e = ar_row(e, info.time, s.n, r);
  oc_sched_free(&s);
  return e;
}

/* A default row that runs what an earlier row ran takes that row's result
 * (time, messages, verdict) instead of building the same schedule again:
 * at P m = 2^26 each costs minutes and gigabytes.  key[] says what each
 * row ran (-1: nothing comparable); returns 1 when copied. */
static int same_as_earlier(cmp_result *res, const int64_t *key, int n, int64_t k) {
  for (int i = 0; i < n; i++)
    if (key[i] == k && k >= 0) {
      res->row[n].time = res->row[i].time;
      res->row[n].avail = res->row[i].avail;
      res->row[n].verified = res->row[i].verified;
      res->row[n].messages = res->row[i].messages;
      return 1;
    }
  return 0;
}

static int compare_allreduce_one(const oc_params *p, int64_t m, int64_t bytes, cmp_result *res) {
  int e, n = 0;
  int64_t key[CMP_ROWS];
  memset(res, 0, sizeof *res);
  res->P = p->P;
  if ((e = oc_mallreduce_bound(p, m, &res->lb, &res->lb_source)) != OC_OK) return e;
  key[n] = -1;
  if ((e = optcast_vec_row(p, -1, m, &res->row[n++])) != OC_OK) return e;
  for (size_t i = 0; i < sizeof LR_ROWS / sizeof LR_ROWS[0]; i++) {
    cmp_row *r = &res->row[n];
    key[n++] = LR_ROWS[i].alg;
    snprintf(r->name, sizeof r->name, "%s", oc_libred_alg_name(LR_ROWS[i].alg));
    snprintf(r->alg, sizeof r->alg, "%s", LR_ROWS[i].src);
    if ((e = lr_row(p, m, LR_ROWS[i].alg, r)) != OC_OK) return e;
  }
  for (int rule = OC_LC_RULE_OMPI; rule <= OC_LC_RULE_MPICH; rule++) {
    oc_libred_alg alg, run;
    cmp_row *r = &res->row[n++];
    if ((e = oc_libred_select((oc_libcoll_rule)rule, p->P, bytes, CMP_ELEM, &alg)) != OC_OK ||
        (e = oc_libred_runs((oc_libcoll_rule)rule, alg, p->P, bytes / CMP_ELEM, &run)) != OC_OK)
      return e;
    default_label(r, rule, oc_libred_alg_name(alg), oc_libred_alg_name(run));
    key[n - 1] = -1;
    if (!same_as_earlier(res, key, n - 1, run) && (e = lr_row(p, m, run, r)) != OC_OK) return e;
  }
  res->nrows = n;
  set_best(res);
  return OC_OK;
}

/* ---- reduce --------------------------------------------------------------------- */
static const struct {
  oc_mred_lib lib;
  const char *name, *src;
} RED_ROWS[] = {{OC_ML_LINEAR, "linear", "Open MPI basic_linear"},
                {OC_ML_CHAIN, "chain", "Open MPI chain"},
                {OC_ML_CHAIN, "pipeline", "Open MPI pipeline"},
                {OC_ML_BINARY, "binary", "Open MPI binary"},
                {OC_ML_BINOMIAL, "binomial", "MPICH binomial"},
                {OC_ML_BMTREE, "bmtree", "Open MPI binomial"},
                {OC_ML_INORDER, "in-order-binary", "Open MPI in_order_binary"},
                {OC_ML_RABEN, "rabenseifner", "MPICH / Open MPI reduce-scatter + gather"}};

static int red_row(const oc_params *p, int64_t root, int64_t m, oc_mred_lib lib, int64_t seg,
                   cmp_row *r) {
  oc_sched s;
  int64_t t = 0;
  int e;
  oc_sched_init(&s);
  e = oc_libred_reduce(p, root, m, lib, seg, &s, &t);
  e = ar_row(e, t, s.n, r);
  oc_sched_free(&s);
  return e;
}

static int compare_reduce_one(const oc_params *p, int64_t root, int64_t m, int64_t bytes,
                              int64_t seg, cmp_result *res) {
  int e, n = 0;
  int64_t key[CMP_ROWS];
  memset(res, 0, sizeof *res);
  res->P = p->P;
  if ((e = oc_mreduce_bound(p, m, &res->lb, &res->lb_source)) != OC_OK) return e;
  key[n] = -1;
  if ((e = optcast_vec_row(p, root, m, &res->row[n++])) != OC_OK) return e;
  for (size_t i = 0; i < sizeof RED_ROWS / sizeof RED_ROWS[0]; i++) {
    cmp_row *r = &res->row[n];
    int pipe = strcmp(RED_ROWS[i].name, "pipeline") == 0;
    key[n++] = pipe && seg < m ? -1 : (int64_t)RED_ROWS[i].lib; /* (the whole message: the same) */
    if (pipe) snprintf(r->name, sizeof r->name, "pipeline-seg%lld", (long long)seg);
    else snprintf(r->name, sizeof r->name, "%s", RED_ROWS[i].name);
    snprintf(r->alg, sizeof r->alg, "%s", RED_ROWS[i].src);
    set_note(r, p, pipe && seg < m);
    if ((e = red_row(p, root, m, RED_ROWS[i].lib, pipe ? seg : 0, r)) != OC_OK) return e;
  }
  for (int rule = OC_LC_RULE_OMPI; rule <= OC_LC_RULE_MPICH; rule++) {
    oc_mred_lib lib, run;
    cmp_row *r = &res->row[n++];
    if ((e = oc_libred_reduce_select((oc_libcoll_rule)rule, p->P, bytes, CMP_ELEM, &lib)) !=
            OC_OK ||
        (e = oc_libred_reduce_runs((oc_libcoll_rule)rule, lib, p->P, bytes / CMP_ELEM, &run)) !=
            OC_OK)
      return e;
    default_label(r, rule, oc_mred_lib_name(lib), oc_mred_lib_name(run));
    key[n - 1] = -1;
    if (!same_as_earlier(res, key, n - 1, run) && (e = red_row(p, root, m, run, 0, r)) != OC_OK)
      return e;
  }
  res->nrows = n;
  set_best(res);
  return OC_OK;
}

static double ratio(int64_t a, int64_t b) {
  if (b <= 0) return a <= 0 ? 1.0 : 0.0;
  return (double)a / (double)b;
}

/* the fastest library row (not optcast's, not the defaults) */
static const cmp_row *best_library(const cmp_result *r) {
  const cmp_row *b = NULL;
  for (int i = 0; i < r->nrows; i++) {
    const cmp_row *x = &r->row[i];
    if (strncmp(x->name, "optcast", 7) == 0 || strstr(x->name, "-default") != NULL) continue;
    if (!timed(x)) continue;
    if (b == NULL || x->time < b->time) b = x;
  }
  return b;
}
static const cmp_row *find_row(const cmp_result *r, const char *name) {
  for (int i = 0; i < r->nrows; i++)
    if (strcmp(r->row[i].name, name) == 0)
      return timed(&r->row[i]) ? &r->row[i] : NULL;
  return NULL;
}
/* optcast's best available time, -1 when none */
static int64_t optcast_time(const cmp_result *r) {
  int64_t t = -1;
  for (int i = 0; i < r->nrows; i++)
    if (strncmp(r->row[i].name, "optcast", 7) == 0 && timed(&r->row[i]) &&
        (t < 0 || r->row[i].time < t))
      t = r->row[i].time;
  return t;
}

/* ---- the report's section ---------------------------------------------------- */
int cli_compare_html(FILE *f, const oc_params *p, int allreduce, int64_t root, int64_t bytes) {
  cmp_result r;
  const cmp_row *bl, *om, *mp;
  int64_t ot;
  char b[160];
  if (p->model != OC_MODEL_LOGP || p->P > CLI_COMPARE_REPORT_MAX) return OC_EUNSUP;
  if ((allreduce ? compare_allreduce_one(p, 1, bytes, &r)
                 : compare_one(p, root, 1, bytes, 1, &r)) != OC_OK)
    return OC_EINVAL;
  bl = best_library(&r);
  om = find_row(&r, "ompi-default");
  mp = find_row(&r, "mpich-default");
  ot = optcast_time(&r);
  fprintf(f, "<h2>Compared with the MPI libraries' algorithms</h2>\n<p>The same %s "
             "(one packet, %lld bytes for the selection rules%s) with the algorithms Open MPI "
             "and MPICH use, each built in the same model and checked by the same verifier "
             "(<code>optcast compare %s</code>; docs/ALGORITHMS.md).%s</p>\n"
             "<table class=\"sched\">\n<tr><th>row</th><th>algorithm</th><th>time</th>"
             "<th>/ bound</th><th>/ best</th><th>verified</th></tr>\n",
          allreduce ? "allreduce" : "broadcast", (long long)bytes,
          allreduce ? ", commutative operator, 8-byte elements" : "",
          allreduce ? "allreduce" : "bcast",
          allreduce ? " The bound is the vector allreduce's (the reduction time for one "
                      "packet)." : "");
  for (int i = 0; i < r.nrows; i++) {
    const cmp_row *x = &r.row[i];
    fputs("<tr><td>", f);
    cli_svg_escape(f, x->name);
    fputs("</td><td>", f);
    cli_svg_escape(f, x->alg);
    if (!timed(x))
      fprintf(f, "</td><td>n/a</td><td></td><td></td><td>%s</td></tr>\n",
              x->avail ? "NO" : "-");
    else
      fprintf(f, "</td><td>%lld</td><td>%.3f</td><td>%.3f</td><td>%s</td></tr>\n",
              (long long)x->time, ratio(x->time, r.lb), ratio(x->time, r.best),
              x->verified ? "yes" : "NO");
  }
  fputs("</table>\n", f);
  if (bl && om && mp && ot >= 0) {
    snprintf(b, sizeof b, "optcast gains %.3fx over the best library algorithm (%s), "
                          "%.3fx over ompi-default, %.3fx over mpich-default",
             ratio(bl->time, ot), bl->name, ratio(om->time, ot), ratio(mp->time, ot));
    fputs("<p>", f);
    cli_svg_escape(f, b);
    fputs("</p>\n", f);
  }
  return OC_OK;
}

/* ---- output ----------------------------------------------------------------------- */
typedef struct cmp_ctx {
  const cli_compare_args *a;
  const cli_preset *preset;
  char unit[48]; /* --latency 1.5us ...: the model's unit ("0.1 us"), else "" */
  int allreduce;   /* the problem: allreduce */
  int reduce;      /* the problem: reduce (neither: bcast) */
  int64_t L, o, g, m, bytes, packet, root, seg;
} cmp_ctx;

static const char *problem_name(const cmp_ctx *c) {
  return c->allreduce ? "allreduce" : c->reduce ? "reduce" : "bcast";
}

/* "ompi-default" etc. over optcast: the gain, or 0 when either is n/a */
static double gain(const cmp_row *x, int64_t ot) {
  return (x == NULL || ot < 0) ? 0.0 : ratio(x->time, ot);
}

static void json_one(const cmp_ctx *c, const cmp_result *r) {
  const cmp_row *bl = best_library(r), *om = find_row(r, "ompi-default"),
                *mp = find_row(r, "mpich-default");
  int64_t ot = optcast_time(r);
  char best[32];
  if (r->best < 0) snprintf(best, sizeof best, "null"); /* every row n/a */
  else snprintf(best, sizeof best, "%lld", (long long)r->best);
  printf("{\"problem\":\"%s\",\"model\":\"logp\",\"algorithm\":\"compare\","
         "\"P\":%lld,\"procs\":%lld,\"time\":%s,\"lower_bound\":%lld,\"optimal\":%s,"
         "\"L\":%lld,\"o\":%lld,\"g\":%lld,",
         problem_name(c), (long long)r->P, (long long)r->P, best,
         (long long)r->lb, r->best == r->lb ? "true" : "false", (long long)c->L,
         (long long)c->o, (long long)c->g);
  if (!c->allreduce) printf("\"root\":%lld,", (long long)c->root);
  if (c->allreduce || c->reduce) printf("\"elem_bytes\":%d,", CMP_ELEM);
  printf("\"items\":%lld,\"bytes\":%lld,\"packet_bytes\":%lld,", (long long)c->m,
         (long long)c->bytes, (long long)c->packet);
  if (c->preset) printf("\"preset\":\"%s\",\"unit\":\"%s\",", c->preset->name, c->preset->unit);
  else if (c->unit[0]) printf("\"preset\":null,\"unit\":\"%s\",", c->unit);
  else printf("\"preset\":null,");
  printf("\"rows\":[");
  for (int i = 0; i < r->nrows; i++) {
    const cmp_row *x = &r->row[i];
    printf("%s{\"name\":\"%s\",\"algorithm\":\"%s\",", i ? "," : "", x->name, x->alg);
    if (!timed(x))
      printf("\"time\":null,\"ratio_lower_bound\":null,\"ratio_best\":null,"
             "\"verified\":%s,\"messages\":0,\"available\":%s", x->avail ? "false" : "null",
             x->avail ? "true" : "false");
    else
      printf("\"time\":%lld,\"ratio_lower_bound\":%.4f,"
             "\"ratio_best\":%.4f,\"verified\":%s,\"messages\":%zu,\"available\":true",
             (long long)x->time, ratio(x->time, r->lb), ratio(x->time, r->best),
             x->verified ? "true" : "false", x->messages);
    if (x->note[0]) printf(",\"note\":\"%s\"}", x->note);
    else printf(",\"note\":null}");
  }
  printf("],\"best_library\":\"%s\",\"gain_over_best_library\":%.4f,"
         "\"gain_over_ompi_default\":%.4f,\"gain_over_mpich_default\":%.4f}",
         bl ? bl->name : "", gain(bl, ot), gain(om, ot), gain(mp, ot));
}

static void text_one(const cmp_ctx *c, const cmp_result *r) {
  const cmp_row *bl = best_library(r), *om = find_row(r, "ompi-default"),
                *mp = find_row(r, "mpich-default");
  int64_t ot = optcast_time(r);
  int w = 34; /* "picks ring (runs recursive-doubling)": 36 */
  for (int i = 0; i < r->nrows; i++)
    if ((int)strlen(r->row[i].alg) > w) w = (int)strlen(r->row[i].alg);
  printf("optcast compare %s: LogP L=%lld o=%lld g=%lld", problem_name(c), (long long)c->L,
         (long long)c->o, (long long)c->g);
  if (c->preset)
    printf(" (preset %s: unit %s, packet %lld bytes)", c->preset->name, c->preset->unit,
           (long long)c->packet);
  else if (c->unit[0])
    printf(" (times in units of %s)", c->unit);
  printf(", P=%lld", (long long)r->P);
  if (!c->allreduce) printf(", root %lld", (long long)c->root);
  printf(", m=%lld packet%s (%lld bytes", (long long)c->m, c->m == 1 ? "" : "s",
         (long long)c->bytes);
  if (c->allreduce || c->reduce) printf(" of %d-byte elements", CMP_ELEM);
  printf(" for the selection rules)\n");
  if (c->allreduce)
    printf("lower bound %lld (%s; optimality not claimed)\n", (long long)r->lb, r->lb_source);
  else
    printf("lower bound %lld (%s%s)\n", (long long)r->lb,
           c->m == 1 && !c->reduce ? "B(P): optimal for one packet" : r->lb_source,
           c->m == 1 && !c->reduce ? "" : "; optimality not claimed");
  printf("%-22s %-*s %10s %8s %8s  %s\n", "row", w, "algorithm", "time", "/bound", "/best",
         "verified");
  for (int i = 0; i < r->nrows; i++) {
    const cmp_row *x = &r->row[i];
    char nm[40];
    snprintf(nm, sizeof nm, "%s%s", x->name, x->note[0] ? " *" : "");
    if (!x->avail)
      printf("%-22s %-*s %10s %8s %8s  %s\n", nm, w, x->alg, "n/a", "", "", "-");
    else if (x->time < 0)
      printf("%-22s %-*s %10s %8s %8s  %s\n", nm, w, x->alg, "-", "", "", "NO");
    else
      printf("%-22s %-*s %10lld %8.3f %8.3f  %s\n", nm, w, x->alg, (long long)x->time,
             ratio(x->time, r->lb), ratio(x->time, r->best), x->verified ? "yes" : "NO");
  }
  for (int i = 0; i < r->nrows; i++)
    if (r->row[i].note[0]) {
      printf("* %s\n", r->row[i].note);
      break; /* one text for every marked row */
    }
  if (bl && om && mp && ot >= 0)
    printf("optcast gains: %.3fx over the best library algorithm (%s), %.3fx over "
           "ompi-default, %.3fx over mpich-default\n",
           ratio(bl->time, ot), bl->name, ratio(om->time, ot), ratio(mp->time, ot));
  else
    printf("optcast gains: not computed (a row is n/a at this size)\n");
}

static void csv_head(void) {
  puts("P,row,algorithm,time,lower_bound,ratio_lower_bound,ratio_best,verified,messages,note");
}
static void csv_one(const cmp_result *r) {
  for (int i = 0; i < r->nrows; i++) {
    const cmp_row *x = &r->row[i];
    if (!timed(x))
      printf("%lld,%s,%s,,%lld,,,%s,%zu,%s\n", (long long)r->P, x->name, x->alg,
             (long long)r->lb, x->avail ? "no" : "n/a", x->messages, x->note);
    else
      printf("%lld,%s,%s,%lld,%lld,%.4f,%.4f,%s,%zu,%s\n", (long long)r->P, x->name, x->alg,
             (long long)x->time, (long long)r->lb, ratio(x->time, r->lb),
             ratio(x->time, r->best), x->verified ? "yes" : "no", x->messages, x->note);
  }
}

/* ---- SVG: ratio to the lower bound against P (log scale) -------------------------- */
/* Okabe & Ito's colour-blind-safe palette (black kept for optcast), each
 * colour with three line styles: 7 x 3 rows stay distinct */
static const char *const COLORS[] = {"#E69F00", "#56B4E9", "#009E73", "#D55E00",
                                     "#0072B2", "#CC79A7", "#999999"};
static const char *const DASHES[] = {"", "7 3", "2 3"};
#define NCOLORS (sizeof COLORS / sizeof COLORS[0])

static double lg2(int64_t x) {
  double d = 0, v = (double)x;
  while (v >= 2) {
    v /= 2;
    d += 1;
  }
  return d + (v - 1); /* piecewise linear between powers of two */
}

/* y of a ratio r >= 1 on a log scale from 1 (y1) to ymax (y0) */
static double svg_y(double r, double ymax, double y0, double y1) {
  return y1 - log(r < 1.0 ? 1.0 : r) / log(ymax) * (y1 - y0);
}
static const double TICKS[] = {1,  1.1, 1.25, 1.5, 2,   3,   5,    10,   20,   50,
                               100, 200, 500, 1000, 2000, 5000, 10000, 1e5, 1e6};

static void svg_write(FILE *f, const cmp_ctx *c, const cmp_result *rs, int n) {
  const double W = 860, H = 480, x0 = 70, x1 = 600, y0 = 40, y1 = 420;
  double lo, hi, ymax = 1.0, lasty = 1e9;
  if (n < 1) return;
  lo = lg2(rs[0].P);
  hi = lg2(rs[n - 1].P);
  for (int k = 0; k < n; k++)
    for (int i = 0; i < rs[k].nrows; i++) {
      double q = ratio(rs[k].row[i].time, rs[k].lb);
      if (timed(&rs[k].row[i]) && q > ymax) ymax = q;
    }
  if (hi <= lo) hi = lo + 1;
  ymax = ymax < 1.1 ? 1.1 : ymax * 1.05; /* the y axis is logarithmic */
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
             "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
             "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
          W, H, W, H);
  fprintf(f, "<text x=\"%.0f\" y=\"22\" font-size=\"14\">%s time / lower bound, "
             "LogP L=%lld o=%lld g=%lld, m=%lld%s%s (log scales)</text>\n",
          x0, c->allreduce ? "allreduce" : c->reduce ? "reduce" : "broadcast", (long long)c->L, (long long)c->o, (long long)c->g, (long long)c->m,
          c->preset ? ", preset " : "", c->preset ? c->preset->name : "");
  fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n"
             "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n",
          x0, y1, x1, y1, x0, y0, x0, y1);
  for (int k = 0; k < n; k++) {
    double x = x0 + (lg2(rs[k].P) - lo) / (hi - lo) * (x1 - x0);
    fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%lld</text>\n", x,
            y1 + 16, (long long)rs[k].P);
  }
  for (size_t t = 0; t < sizeof TICKS / sizeof TICKS[0] && TICKS[t] <= ymax; t++) {
    /* a tick at least 16 px from the one below it (the labels are 12 px) */
    double v = TICKS[t], y = svg_y(v, ymax, y0, y1);
    if (t > 0 && lasty - y < 16) continue;
    lasty = y;
    fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.*f</text>\n"
               "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n",
            x0 - 6, y + 4, v < 10 ? 2 : 0, v, x0, y, x1, y);
  }
  fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">P (processors, log scale)</text>\n",
          (x0 + x1) / 2, H - 20);
  for (int i = 0; i < rs[0].nrows; i++) { /* optcast first: thick black */
    const char *col = i == 0 ? "#000000" : COLORS[(size_t)(i - 1) % NCOLORS];
    const char *dash = i == 0 ? "" : DASHES[((size_t)(i - 1) / NCOLORS) % 3];
    char style[48] = "";
    if (dash[0]) snprintf(style, sizeof style, " stroke-dasharray=\"%s\"", dash);
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s points=\"", col,
            i == 0 ? "3" : "2", style);
    for (int k = 0, first = 1; k < n; k++) { /* n/a points left out */
      double x = x0 + (lg2(rs[k].P) - lo) / (hi - lo) * (x1 - x0);
      double y = svg_y(ratio(rs[k].row[i].time, rs[k].lb), ymax, y0, y1);
      if (!timed(&rs[k].row[i])) continue;
      fprintf(f, "%s%.1f,%.1f", first ? "" : " ", x, y);
      first = 0;
    }
    fprintf(f, "\"/>\n<line x1=\"615\" y1=\"%d\" x2=\"650\" y2=\"%d\" stroke=\"%s\" "
               "stroke-width=\"%s\"%s/><text x=\"656\" y=\"%d\">%s</text>\n",
            50 + 22 * i, 50 + 22 * i, col, i == 0 ? "3" : "2", style, 54 + 22 * i,
            rs[0].row[i].name);
  }
  fputs("</svg>\n", f);
}

/* built in memory, then written to a temporary file next to path and
 * renamed over it (cli_svg_write_file); the fuzzing build writes no file */
static int svg_save(const char *path, const cmp_ctx *c, const cmp_result *rs, int n) {
  char *mem = NULL, err[320];
  size_t len = 0;
  int rc = 0;
  FILE *f = open_memstream(&mem, &len);
  if (f == NULL) return cmp_err("--svg: out of memory");
  svg_write(f, c, rs, n);
  if (fclose(f) != 0) rc = cmp_err("--svg: out of memory");
#ifdef OC_CLI_NO_MAIN
  (void)path;
  (void)err;
#else
  else if (cli_svg_write_file(path, mem, len, err, sizeof err) != OC_OK)
    rc = cmp_err("--svg: %s", err);
#endif
  free(mem);
  return rc;
}

/* ---- the command ----------------------------------------------------------------- */
/* "procs=A..B" (A, 2A, 4A, ... <= B) or "procs=A..B:S" (step S) */
static int parse_sweep(const char *s, int64_t *list, int *n) {
  char buf[96], *dots, *colon;
  int64_t a, b, step = 0, x;
  if (strncmp(s, "procs=", 6) != 0)
    return cmp_err("--sweep: expected procs=A..B or procs=A..B:STEP, got '%s'", s);
  if (strlen(s + 6) >= sizeof buf) return cmp_err("--sweep: '%s' is too long", s);
  strcpy(buf, s + 6);
  dots = strstr(buf, "..");
  if (dots == NULL) return cmp_err("--sweep: expected procs=A..B or procs=A..B:STEP, got '%s'", s);
  *dots = '\0';
  colon = strchr(dots + 2, ':');
  if (colon) *colon = '\0';
  if (oc_parse_int(buf, 1, CMP_MAX, &a) != OC_OK ||
      oc_parse_int(dots + 2, 1, CMP_MAX, &b) != OC_OK ||
      (colon && oc_parse_int(colon + 1, 1, CMP_MAX, &step) != OC_OK))
    return cmp_err("--sweep: '%s': A, B and STEP must be integers from 1 to %lld", s,
                   (long long)CMP_MAX);
  if (b < a) return cmp_err("--sweep: '%s': B must be at least A", s);
  *n = 0;
  for (x = a; x <= b; x = step ? x + step : 2 * x) {
    if (*n >= CMP_SWEEP_MAX)
      return cmp_err("--sweep: '%s' gives more than %d values of P", s, CMP_SWEEP_MAX);
    list[(*n)++] = x;
  }
  return 0;
}

int cli_compare(const cli_compare_args *a) {
  cmp_ctx c;
  int64_t plist[CMP_SWEEP_MAX], G;
  int np = 0, rc = 0;
  cmp_result *rs = NULL;
  memset(&c, 0, sizeof c);
  c.a = a;
  if (a->problem == NULL) return cmp_err("missing PROBLEM (e.g. 'optcast compare bcast ...')");
  if (strcmp(a->problem, "allreduce") == 0)
    c.allreduce = 1;
  else if (strcmp(a->problem, "reduce") == 0)
    c.reduce = 1;
  else if (strcmp(a->problem, "bcast") != 0)
    return cmp_err("compare: problem '%s' is not available (compare takes bcast, reduce or "
                   "allreduce)", a->problem);
  if (c.allreduce && a->root)
    return cmp_err("--root: allreduce has no root, got '%s'", a->root);
  if (c.allreduce && a->segment)
    return cmp_err("--segment: only for 'compare bcast|reduce' (the pipeline row), got '%s'",
                   a->segment);
  if (a->json && a->csv) return cmp_err("--json and --csv: choose one");
  if (a->preset) {
    c.preset = cli_preset_find(a->preset);
    if (c.preset == NULL)
      return cmp_err("--preset: unknown preset '%s' (available: %s)", a->preset, cli_preset_names());
    if (a->latency || a->overhead || a->gap)
      return cmp_err("--%s: conflicts with --preset %s (which sets L=%lld o=%lld g=%lld); "
                     "give one or the other",
                     a->latency ? "latency" : a->overhead ? "overhead" : "gap", c.preset->name,
                     (long long)c.preset->L, (long long)c.preset->o, (long long)c.preset->g);
    c.L = c.preset->L;
    c.o = c.preset->o;
    c.g = c.preset->g;
    c.packet = c.preset->packet_bytes;
  } else {
    if (!a->latency) return cmp_err("missing --latency (or --preset NAME)");
    if (!a->overhead) return cmp_err("missing --overhead (or --preset NAME)");
    if (!a->gap) return cmp_err("missing --gap (or --preset NAME)");
    const char *vals[3] = {a->latency, a->overhead, a->gap}, *uname = NULL;
    int64_t log[3], unit_ps = 1, model_ps = 1;
    if (cli_units_parse(vals, log, &uname, &unit_ps, &model_ps)) { /* 1.5us, 500ns, ... */
      char b[40];
      oc_format_time(b, sizeof b, model_ps, unit_ps);
      snprintf(c.unit, sizeof c.unit, "%s %s", b, uname);
      c.L = log[0];
      c.o = log[1];
      c.g = log[2];
    } else if (get_int("latency", a->latency, 0, OC_PARAM_MAX, &c.L) ||
               get_int("overhead", a->overhead, 0, OC_PARAM_MAX, &c.o) ||
               get_int("gap", a->gap, 1, OC_PARAM_MAX, &c.g)) {
      return 2;
    }
    if (c.L + 2 * c.o < 1)
      return cmp_err("--latency, --overhead: L + 2o must be at least 1, got L=%lld o=%lld",
                     (long long)c.L, (long long)c.o);
    c.packet = CMP_DEFAULT_PACKET;
  }
  if (a->procs && a->sweep) return cmp_err("--sweep: give either --procs or --sweep");
  if (!a->procs && !a->sweep) return cmp_err("missing --procs (or --sweep procs=A..B)");
  if (a->svg && !a->sweep) return cmp_err("--svg: draws a sweep; give --sweep procs=A..B");
  if (a->svg && a->json) return cmp_err("--svg: write the chart with text or --csv output, not --json");
  if (a->procs) {
    if (get_int("procs", a->procs, 1, CMP_MAX, &plist[0])) return 2;
    np = 1;
  } else if (parse_sweep(a->sweep, plist, &np)) {
    return 2;
  }
  if (a->items && a->size) return cmp_err("--items, --size: give one of them");
  if (a->size) {
    int64_t b;
    if (!c.preset) return cmp_err("--size: needs --preset (its packet size); give --items m in packets");
    if (get_int("size", a->size, 1, OC_PROCS_MAX, &b)) return 2;
    c.bytes = b;
    c.m = b / c.packet + (b % c.packet != 0);
  } else {
    c.m = 1;
    if (a->items && get_int("items", a->items, 1, CMP_MAX, &c.m)) return 2;
    c.bytes = c.m * c.packet;
  }
  c.root = 0;
  if (a->root && get_int("root", a->root, 0, plist[0] - 1, &c.root)) return 2;
  c.seg = 1;
  if (a->segment && get_int("segment", a->segment, 1, c.m, &c.seg)) return 2;
  G = oc_max64(c.g, c.o);
  for (int i = 0; i < np; i++)
    if (c.m > CMP_MAX / plist[i])
      return cmp_err("%s, %s: P=%lld with m=%lld packets is beyond compare's limit P*m <= %lld",
                     a->sweep ? "--sweep" : "--procs", a->size ? "--size" : "--items",
                     (long long)plist[i], (long long)c.m, (long long)CMP_MAX);
  if (c.m > 1 && (oc_mul_sat(c.m, G) > OC_PARAM_MAX ||
                  oc_add_sat(c.L, oc_mul_sat(c.m - 1, G)) > OC_PARAM_MAX))
    return cmp_err("%s: m=%lld packets of max(g,o)=%lld is too long a message (m*max(g,o) "
                   "and L + (m-1)*max(g,o) at most %lld)",
                   a->size ? "--size" : "--items", (long long)c.m, (long long)G,
                   (long long)OC_PARAM_MAX);
  if (np < 1) return cmp_err("--sweep: no values of P");
  rs = (cmp_result *)calloc((size_t)np, sizeof *rs);
  if (rs == NULL) return cmp_err("out of memory");
  for (int i = 0; i < np; i++) {
    oc_params p;
    int e;
    if (np > 1 && !a->quiet && isatty(2))
      fprintf(stderr, "optcast: compare P=%lld (%d of %d)\n", (long long)plist[i], i + 1, np);
    else if (np == 1 && !a->quiet && isatty(2) && c.m > 1 &&
             plist[i] * c.m >= ((int64_t)1 << 17))
      fprintf(stderr, "optcast: timing optcast's constructions and the library algorithms "
                      "for P*m = %lld (%s)\n", (long long)plist[i] * (long long)c.m,
              plist[i] * c.m <= ((int64_t)1 << 20) ? "seconds to a minute"
              : plist[i] * c.m <= ((int64_t)1 << 22) ? "minutes"
                                                      : "tens of minutes");
    if ((e = oc_params_logp(&p, plist[i], c.L, c.o, c.g)) != OC_OK ||
        (e = c.allreduce ? compare_allreduce_one(&p, c.m, c.bytes, &rs[i])
             : c.reduce  ? compare_reduce_one(&p, c.root, c.m, c.bytes, c.seg, &rs[i])
                         : compare_one(&p, c.root, c.m, c.bytes, c.seg, &rs[i])) != OC_OK) {
      free(rs);
      if (e == OC_ERANGE)
        return cmp_err("%s: P=%lld with these parameters is beyond the planner's range "
                       "(times must stay below 2^60)", a->sweep ? "--sweep" : "--procs",
                       (long long)plist[i]);
      return cmp_err("%s: compare at P=%lld failed: %s", a->sweep ? "--sweep" : "--procs",
                     (long long)plist[i], oc_strerror(e));
    }
    for (int k = 0; k < rs[i].nrows; k++)
      if (!rs[i].row[k].verified) rc = 1;
  }
  cli_progress_end(); /* (the line, if any, goes before the results) */
  if (a->svg && svg_save(a->svg, &c, rs, np)) {
    free(rs);
    return 2;
  }
  if (a->json) {
    if (np > 1)
      printf("{\"problem\":\"%s\",\"algorithm\":\"compare\",\"sweep\":[", problem_name(&c));
    for (int i = 0; i < np; i++) {
      if (i) putchar(',');
      json_one(&c, &rs[i]);
    }
    printf(np > 1 ? "]}\n" : "\n");
  } else if (a->csv) {
    csv_head();
    for (int i = 0; i < np; i++) csv_one(&rs[i]);
  } else {
    for (int i = 0; i < np; i++) {
      if (i) putchar('\n');
      text_one(&c, &rs[i]);
    }
  }
  free(rs);
  if (fflush(stdout) != 0 || ferror(stdout)) /* (a chart already written stays: it is whole) */
    return cmp_err("cannot write to standard output");
  if (rc) fprintf(stderr, "optcast: internal error: a schedule failed the verifier (row 'NO')\n");
  return rc;
}
