/* cli.c - the optcast command (its machine-readable face: docs/CLI.md).
 *
 *   optcast plan PROBLEM [params]     build, verify and print a schedule
 *   optcast bound PROBLEM [params]    the lower bound alone
 *   optcast verify [PROBLEM] [params] check a --csv schedule from stdin
 *   optcast rank [PROBLEM] --rank R [params]   one rank's own plan
 *
 * Exit codes: 0 success, 1 a check failed, 2 bad input.  Bad input gets one
 * line on stderr naming the parameter and value, and nothing on stdout.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "optcast_rt.h"

#define EXIT_CHECK CLI_EXIT_CHECK
#define EXIT_INPUT CLI_EXIT_INPUT
#define CLI_PARAMS_UNIT_NS 10.0 /* --params: the model unit is 10 ns */

/* ---- the problems: looked up once by name (check_problem), then by id ---- */
typedef enum { P_BCAST, P_KBCAST, P_CBCAST, P_ALLTOALL, P_ALLREDUCE, P_REDUCE, P_SUM, P_SCAN } pid;
static const struct {
  const char *name;
  const char *alg; /* the algorithm it runs (LogP, postal), when it has one */
} PROBLEMS[] = {
    [P_BCAST] = {"bcast", "karp"},          [P_KBCAST] = {"kbcast", "best"},
    [P_CBCAST] = {"cbcast", "block-cyclic"}, [P_ALLTOALL] = {"alltoall", "karp-ring"},
    [P_ALLREDUCE] = {"allreduce", "karp-circulant"}, [P_REDUCE] = {"reduce", "karp-reduction"},
    [P_SUM] = {"sum", "karp-summation"},     [P_SCAN] = {"scan", NULL},
};
#define is(c, id_) ((c)->id == (id_))
/* the one text for k items given to bcast */
#define BCAST_ONE_ITEM "--items: bcast carries one item; k items is 'kbcast'"

typedef struct cli {
  const char *cmd;
  const char *problem;
  pid id;                /* the problem's row in PROBLEMS */
  cli_args a;            /* the parsed command line */
  oc_params p;
  int64_t root, items, rank, degree;
  oc_bcast_alg alg;
  oc_kbcast_alg kalg;
  int rrp;              /* --model rrp */
  oc_rrp_problem rproblem;
  oc_rrp_alg ralg;
  int64_t lines;
  int64_t *segs;        /* --segments */
  size_t nsegs;
  int kport;            /* --model kport */
  int64_t kports;       /* its k */
  oc_kport_alg kpalg;
  FILE *in; /* the schedule for verify */
  int argc;  /* the command line, for report's "reproduce" */
  char **argv;
} cli;

/* Leaving the command: exit() normally; in the fuzzing build (OC_CLI_NO_MAIN)
 * a jump back to oc_cli_fuzz, so one process can run many command lines. */
#ifdef OC_CLI_NO_MAIN
#include <setjmp.h>
static jmp_buf cli_jmp;
static int cli_code;
#define CLI_EXIT(x)                                                            \
  do {                                                                         \
    cli_code = (x);                                                            \
    longjmp(cli_jmp, 1);                                                       \
  } while (0)
#else
#define CLI_EXIT(x) exit(x)
#endif

#define die cli_die
void cli_verror(const char *fmt, va_list ap) {
  fputs("optcast: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void cli_die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cli_verror(fmt, ap);
  va_end(ap);
  CLI_EXIT(EXIT_INPUT);
}

/* What PROBLEM and the model parameters are: the help of the commands that
 * plan one model's schedule. */
static const char MODEL_NOTES[] =
    "PROBLEM: bcast kbcast cbcast sum reduce allreduce alltoall scan (rrp)\n"
    "params:  --model logp|postal|kport|rrp  --procs P  --root r  --algorithm NAME\n"
    "         logp:   --latency L --overhead o --gap g   (integers), or --preset cm5|ib-tukey|loggopsim|atlahs,\n"
    "                 or --params FILE [--size B] (measured; time unit 10 ns)\n"
    "         postal: --lambda X (or --latency X), X >= 1: 2.5 or 5/2\n"
    "         sum: --operands n; reduce: --commutative; alltoall: --items k, --personalized\n"
    "         kbcast (postal): --items m --algorithm repeat|pack|pipeline|dtree|cyclic|greedy|best"
    " [--degree d]\n"
    "         cbcast (postal, integer L): --latency L --procs P [--items k] [--root r]\n"
    "         cbcast, kbcast: --buffered (Karp et al. 3.5)\n"
    "         allreduce: --ordered (rank order, for non-commutative operators)\n"
    "         kport:  --ports k, bcast|kbcast --items m --algorithm ktree|rotation|best\n"
    "         rrp:    --lines L, bcast|reduce|scan [--segments 0,s1,s2,...]\n"
    "                 --algorithm sweep|tuned|binomial|best\n"
    "         verify sum: --counts c0,c1,...; verify reduce: --ordered\n"
    "algorithms for bcast: karp (default, = optimal), shou-chen, bar-noy-kipnis\n";

/* ---- parsing ---------------------------------------------------------------- */
static int64_t need_int(const cli *c, int o, int64_t lo, int64_t hi) {
  int64_t v;
  int e = oc_parse_int(c->a.val[o], lo, hi, &v);
  if (e == OC_EPARSE)
    die("--%s: '%s' is not an integer", CLI_OPTS[o].name, c->a.val[o]);
  if (e != OC_OK)
    die("--%s: must be an integer from %lld to %lld, got '%s'", CLI_OPTS[o].name,
        (long long)lo, (long long)hi, c->a.val[o]);
  return v;
}

static void parse_lambda(const cli *c, int o, int64_t *num, int64_t *den) {
  int e = oc_parse_rational(c->a.val[o], OC_PARAM_MAX, num, den);
  if (e == OC_EPARSE)
    die("--%s: '%s' is not a number (write e.g. 2.5 or 5/2)", CLI_OPTS[o].name,
        c->a.val[o]);
  if (e != OC_OK)
    die("--%s: '%s' is too large (numerator and denominator at most %lld)",
        CLI_OPTS[o].name, c->a.val[o], (long long)OC_PARAM_MAX);
  if (*num < *den)
    die("--%s: must be at least 1, got '%s'", CLI_OPTS[o].name, c->a.val[o]);
}

/* the algorithm each non-broadcast problem runs */
static const char *problem_alg(const cli *c) {
  if (c->id == P_ALLREDUCE && c->a.set[O_ORDERED]) return "reduce-then-bcast";
  return PROBLEMS[c->id].alg;
}

/* --model kport: n processors, k ports, m items (Bar-Noy & Ho) */
static void build_kport(cli *c) {
  static const int other[] = {O_LATENCY, O_OVERHEAD, O_GAP, O_LAMBDA, O_LINES,
                              O_DEGREE, O_RANK, O_PARAMS};
  for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
    if (c->a.set[other[i]])
      die("--%s: not a parameter of --model kport (it takes --ports, --procs, "
          "--items, --root, --algorithm)", CLI_OPTS[other[i]].name);
  if (!is(c, P_BCAST) && !is(c, P_KBCAST))
    die("problem '%s' is not implemented for --model kport (available: bcast, "
        "kbcast)", c->problem);
  if (c->a.bit == CMD_RANK)
    die("rank: no per-rank view for --model kport (use plan)");
  if (!c->a.set[O_PORTS]) die("missing --ports (required for --model kport)");
  if (!c->a.set[O_PROCS]) die("missing --procs (number of processors)");
  c->kport = 1;
  c->p.P = need_int(c, O_PROCS, 1, OC_PROCS_MAX);
  c->kports = need_int(c, O_PORTS, 1, OC_PARAM_MAX);
  c->root = c->a.set[O_ROOT] ? need_int(c, O_ROOT, 0, c->p.P - 1) : 0;
  c->items = c->a.set[O_ITEMS] ? need_int(c, O_ITEMS, 1, OC_KPORT_ITEMS_MAX) : 1;
  if (is(c, P_BCAST) && c->items != 1)
    die("%s", BCAST_ONE_ITEM);
  c->kpalg = OC_KP_BEST;
  if (c->a.set[O_ALGORITHM] &&
      oc_kport_alg_parse(c->a.val[O_ALGORITHM], &c->kpalg) != OC_OK)
    die("--algorithm: unknown algorithm '%s' for --model kport (expected "
        "ktree, rotation or best)", c->a.val[O_ALGORITHM]);
}

/* --segments 0,a,b,...: the first processors of the blocks.  Checked
 * first without allocating (an error exits, also by longjmp in the fuzzing
 * build), then stored into out (NULL: count only); returns the count. */
static size_t parse_segments(const cli *c, int64_t *out) {
  const char *v = c->a.val[O_SEGMENTS];
  size_t n = 0;
  int64_t prev = -1;
  for (const char *q = v;;) {
    const char *comma = strchr(q, ',');
    size_t len = comma ? (size_t)(comma - q) : strlen(q);
    char item[32];
    int64_t x;
    int e;
    if (len == 0 || len >= sizeof item) {
      die("--segments: '%s' is not a list of integers", v);
    } else {
      memcpy(item, q, len);
      item[len] = '\0';
    }
    e = oc_parse_int(item, 0, c->p.P - 1, &x);
    if (e == OC_EPARSE) die("--segments: '%s' is not an integer", item);
    if (e != OC_OK)
      die("--segments: %s is not a processor (0 to %lld)", item, (long long)c->p.P - 1);
    if (n == 0 && x != 0) die("--segments: the first segment must start at 0, got %s", item);
    if (n > 0 && x <= prev)
      die("--segments: starts must increase, got %s after %lld", item, (long long)prev);
    if (out) out[n] = x;
    prev = x;
    n++;
    if (!comma) break;
    q = comma + 1;
  }
  return n;
}

/* --model rrp: N processors, L bus lines (Rosenberg, Scarano, Sitaraman) */
static void build_rrp(cli *c) {
  static const int other[] = {O_LATENCY, O_OVERHEAD, O_GAP, O_LAMBDA, O_PORTS, O_ITEMS,
                              O_OPERANDS, O_DEGREE, O_RANK, O_PERSONALIZED,
                              O_COMMUTATIVE, O_ORDERED, O_COUNTS, O_PRESET, O_PARAMS};
  for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
    if (c->a.set[other[i]])
      die("--%s: not a parameter of --model rrp (it takes --procs, --lines, --root, "
          "--segments, --algorithm)", CLI_OPTS[other[i]].name);
  if (is(c, P_BCAST)) c->rproblem = OC_RRP_BCAST;
  else if (is(c, P_REDUCE)) c->rproblem = OC_RRP_REDUCE;
  else if (is(c, P_SCAN)) c->rproblem = OC_RRP_SCAN;
  else
    die("problem '%s' is not implemented for --model rrp (available: bcast, reduce, "
        "scan)", c->problem);
  if (c->a.bit == CMD_RANK) die("rank: no per-rank view for --model rrp (use plan)");
  if (!c->a.set[O_PROCS]) die("missing --procs (number of processors)");
  if (!c->a.set[O_LINES]) die("missing --lines (bus lines, required for --model rrp)");
  c->rrp = 1;
  c->p.P = need_int(c, O_PROCS, 1, OC_RRP_PROCS_MAX);
  c->lines = need_int(c, O_LINES, 1, OC_PARAM_MAX);
  if (c->a.set[O_ROOT] && c->rproblem == OC_RRP_SCAN)
    die("--root: a scan has no root (processor p ends with x_0..x_p)");
  if (c->a.set[O_ROOT] && c->a.set[O_SEGMENTS])
    die("--root: with --segments every segment's first processor is its root");
  c->root = c->a.set[O_ROOT] ? need_int(c, O_ROOT, 0, c->p.P - 1) : 0;
  if (c->a.set[O_SEGMENTS]) c->nsegs = parse_segments(c, NULL);
  c->ralg = OC_RRP_BEST;
  if (c->a.set[O_ALGORITHM] && oc_rrp_alg_parse(c->a.val[O_ALGORITHM], &c->ralg) != OC_OK)
    die("--algorithm: unknown algorithm '%s' for --model rrp (expected sweep, tuned, "
        "binomial or best)", c->a.val[O_ALGORITHM]);
}

static void build_params(cli *c) {
  const char *model = c->a.val[O_MODEL];
  int64_t P;
  if (model == NULL) model = c->a.set[O_LAMBDA] ? "postal" : "logp";
  if (strcmp(model, "rrp") == 0) {
    build_rrp(c);
    return;
  }
  if (c->a.set[O_SEGMENTS]) die("--segments: only meaningful with --model rrp");
  if (strcmp(model, "logp") != 0 && strcmp(model, "postal") != 0 &&
      strcmp(model, "kport") != 0)
    die("--model: unknown model '%s' (expected logp, postal, kport or rrp)",
        model);
  if (strcmp(model, "kport") == 0) {
    if (c->a.set[O_PRESET]) die("--preset: sets LogP parameters; not for --model kport");
    build_kport(c);
    return;
  }
  if (c->a.set[O_PORTS]) die("--ports: only meaningful with --model kport");
  if (c->a.set[O_LINES]) die("--lines: only meaningful with --model rrp");
  if (!c->a.set[O_PROCS]) die("missing --procs (number of processors)");
  P = need_int(c, O_PROCS, 1, OC_PROCS_MAX);
  if (strcmp(model, "logp") == 0) {
    int64_t L, o, g;
    if (c->a.set[O_LAMBDA]) die("--lambda: only meaningful with --model postal");
    if (c->a.set[O_PARAMS] && c->a.set[O_PRESET])
      die("--params: conflicts with --preset; give one or the other");
    if (c->a.set[O_PARAMS]) { /* measured parameters (optcast measure) at --size bytes */
      oc_rtparams rp;
      int line = 0, e;
      int64_t bytes = c->a.set[O_SIZE] ? need_int(c, O_SIZE, 1, (int64_t)1 << 40) : 8;
      if (c->a.set[O_LATENCY] || c->a.set[O_OVERHEAD] || c->a.set[O_GAP])
        die("--%s: conflicts with --params %s; give one or the other",
            c->a.set[O_LATENCY] ? "latency" : c->a.set[O_OVERHEAD] ? "overhead" : "gap",
            c->a.val[O_PARAMS]);
      e = oc_rtparams_read(c->a.val[O_PARAMS], &rp, &line);
      if (e == OC_EIO) die("--params: cannot read '%s'", c->a.val[O_PARAMS]);
      if (e) die("--params: %s line %d: %s", c->a.val[O_PARAMS], line, oc_strerror(e));
      if (oc_rtparams_model(&rp, bytes, P, CLI_PARAMS_UNIT_NS, &c->p) != OC_OK)
        die("--params: %s gives no valid LogP parameters at %lld bytes", c->a.val[O_PARAMS],
            (long long)bytes);
      L = c->p.L;
      o = c->p.o;
      g = c->p.g;
    } else if (c->a.set[O_PRESET]) { /* published parameters (docs/PRESETS.md) */
      const cli_preset *pr = cli_preset_find(c->a.val[O_PRESET]);
      if (pr == NULL)
        die("--preset: unknown preset '%s' (available: %s)", c->a.val[O_PRESET], cli_preset_names());
      if (c->a.set[O_LATENCY] || c->a.set[O_OVERHEAD] || c->a.set[O_GAP])
        die("--%s: conflicts with --preset %s (which sets L=%lld o=%lld g=%lld); give one "
            "or the other", c->a.set[O_LATENCY] ? "latency" : c->a.set[O_OVERHEAD] ? "overhead" : "gap",
            pr->name, (long long)pr->L, (long long)pr->o, (long long)pr->g);
      L = pr->L;
      o = pr->o;
      g = pr->g;
    } else {
    if (!c->a.set[O_LATENCY]) die("missing --latency (required for --model logp)");
    if (!c->a.set[O_OVERHEAD]) die("missing --overhead (required for --model logp)");
    if (!c->a.set[O_GAP]) die("missing --gap (required for --model logp)");
    L = need_int(c, O_LATENCY, 0, OC_PARAM_MAX);
    o = need_int(c, O_OVERHEAD, 0, OC_PARAM_MAX);
    g = need_int(c, O_GAP, 1, OC_PARAM_MAX);
    }
    if (L + 2 * o < 1)
      die("--latency, --overhead: L + 2o must be at least 1, got L=%lld o=%lld",
          (long long)L, (long long)o);
    if (oc_params_logp(&c->p, P, L, o, g) != OC_OK)
      die("--procs: invalid parameter set");
  } else {
    int64_t num, den;
    int which;
    if (c->a.set[O_PRESET]) die("--preset: sets LogP parameters; not for --model postal");
    if (c->a.set[O_PARAMS]) die("--params: sets LogP parameters; not for --model postal");
    if (c->a.set[O_OVERHEAD]) die("--overhead: not a parameter of --model postal (o = 0)");
    if (c->a.set[O_GAP]) die("--gap: not a parameter of --model postal (g = 1)");
    if (!c->a.set[O_LAMBDA] && !c->a.set[O_LATENCY])
      die("missing --lambda (required for --model postal)");
    which = c->a.set[O_LAMBDA] ? O_LAMBDA : O_LATENCY;
    parse_lambda(c, which, &num, &den);
    if (c->a.set[O_LAMBDA] && c->a.set[O_LATENCY]) {
      int64_t n2, d2;
      parse_lambda(c, O_LATENCY, &n2, &d2);
      if (n2 != num || d2 != den)
        die("--latency: '%s' differs from --lambda '%s' (they mean the same)",
            c->a.val[O_LATENCY], c->a.val[O_LAMBDA]);
    }
    if (oc_params_postal(&c->p, P, num, den) != OC_OK)
      die("--lambda: invalid value '%s'", c->a.val[which]);
  }
  c->root = c->a.set[O_ROOT] ? need_int(c, O_ROOT, 0, P - 1) : 0;
  c->items = c->a.set[O_ITEMS] ? need_int(c, O_ITEMS, 1, INT32_MAX) : 1;
  c->alg = OC_BCAST_KARP;
  if (c->a.set[O_ALGORITHM] && is(c, P_BCAST) &&
      oc_bcast_alg_parse(c->a.val[O_ALGORITHM], &c->alg) != OC_OK)
    die("--algorithm: unknown algorithm '%s' for bcast (expected karp, "
        "shou-chen, bar-noy-kipnis or optimal)",
        c->a.val[O_ALGORITHM]);
  c->kalg = OC_KB_BEST;
  if (is(c, P_KBCAST)) {
    if (c->p.model != OC_MODEL_POSTAL)
      die("--model: kbcast is implemented for the postal model (give --lambda)");
    if (c->a.set[O_ALGORITHM] && oc_kbcast_alg_parse(c->a.val[O_ALGORITHM], &c->kalg) != OC_OK)
      die("--algorithm: unknown algorithm '%s' for kbcast (expected repeat, pack, "
          "pipeline, dtree, cyclic, greedy or best)", c->a.val[O_ALGORITHM]);
    if ((c->kalg == OC_KB_CYCLIC || c->kalg == OC_KB_GREEDY) && c->p.g != 1)
      die("--algorithm: %s needs an integer --lambda, got %lld/%lld",
          oc_kbcast_alg_name(c->kalg), (long long)c->p.lam_num, (long long)c->p.lam_den);
    if (c->kalg == OC_KB_GREEDY && c->p.P > 128)
      die("--procs: greedy takes at most 128 processors, got %lld", (long long)c->p.P);
    if (c->kalg == OC_KB_GREEDY && c->a.set[O_ITEMS] && c->items > 128)
      die("--items: greedy takes at most 128 items, got %lld", (long long)c->items);
    if (c->kalg == OC_KB_CYCLIC && c->p.L > OC_CBCAST_L_MAX)
      die("--lambda: cyclic takes at most %d, got %lld", OC_CBCAST_L_MAX, (long long)c->p.L);
    if (c->kalg == OC_KB_CYCLIC && c->p.P > OC_CBCAST_PROCS_MAX)
      die("--procs: cyclic takes at most %lld processors, got %lld",
          (long long)OC_CBCAST_PROCS_MAX, (long long)c->p.P);
    if (c->a.set[O_DEGREE] && c->kalg != OC_KB_DTREE)
      die("--degree: only meaningful with --algorithm dtree");
    c->degree = c->a.set[O_DEGREE] ? need_int(c, O_DEGREE, 1, c->p.P > 1 ? c->p.P - 1 : 1) : 0;
  } else if (c->a.set[O_ALGORITHM] && !is(c, P_BCAST) &&
      strcmp(c->a.val[O_ALGORITHM], "optimal") != 0 &&
      strcmp(c->a.val[O_ALGORITHM], "best") != 0 &&
      strcmp(c->a.val[O_ALGORITHM], problem_alg(c)) != 0)
    die("--algorithm: unknown algorithm '%s' for %s (expected %s or optimal)",
        c->a.val[O_ALGORITHM], c->problem, problem_alg(c));
}


static void check_problem(cli *c, int required) {
  size_t i;
  if (c->problem == NULL) {
    if (required) die("missing PROBLEM (e.g. 'optcast %s bcast ...')", c->cmd);
    c->problem = "bcast";
  }
  for (i = 0; i < sizeof PROBLEMS / sizeof PROBLEMS[0]; i++)
    if (strcmp(c->problem, PROBLEMS[i].name) == 0) break;
  if (i == sizeof PROBLEMS / sizeof PROBLEMS[0])
    die("unknown problem '%s' (expected bcast, kbcast, cbcast, alltoall, "
        "allreduce, reduce, sum or scan)",
        c->problem);
  c->id = (pid)i;
  if (is(c, P_SCAN) && !(c->a.val[O_MODEL] && strcmp(c->a.val[O_MODEL], "rrp") == 0))
    die("problem 'scan' is implemented for --model rrp only");
  if (c->a.set[O_DEGREE] && !is(c, P_KBCAST)) die("--degree: only meaningful for 'kbcast'");
  if (c->a.set[O_OPERANDS] && !is(c, P_SUM)) die("--operands: only meaningful for 'sum'");
  if (c->a.set[O_PERSONALIZED] && !is(c, P_ALLTOALL))
    die("--personalized: only meaningful for 'alltoall'");
  if (c->a.set[O_COMMUTATIVE] && !is(c, P_REDUCE))
    die("--commutative: only meaningful for 'reduce'");
  if (c->a.set[O_ORDERED] && !(is(c, P_REDUCE) && c->a.bit == CMD_VERIFY) &&
      !is(c, P_ALLREDUCE))
    die("--ordered: only meaningful for 'allreduce' and 'optcast verify reduce'");
  if (c->a.set[O_COUNTS] && !(is(c, P_SUM) && c->a.bit == CMD_VERIFY))
    die("--counts: only meaningful for 'optcast verify sum'");
  if (c->a.set[O_ITEMS] && !is(c, P_BCAST) && !is(c, P_ALLTOALL) && !is(c, P_KBCAST) &&
      !is(c, P_CBCAST))
    die("--items: not a parameter of '%s'", c->problem);
  if (c->a.bit == CMD_RANK && !is(c, P_BCAST) && !is(c, P_REDUCE))
    die("rank: the per-rank view is available for bcast and reduce");
}

/* --svg FILE / --format svg belong to `draw`, --html FILE / --format html
 * to `report`; both print nothing else.  The fuzzing build never writes
 * files. */
static void check_output(const cli *c) {
  int draw = c->a.bit == CMD_DRAW, report = c->a.bit == CMD_REPORT;
  const char *fmt = draw ? "svg" : "html", *cmd = draw ? "draw" : "report";
  int file = draw ? O_SVG : O_HTML;
  if (!draw && c->a.set[O_SVG]) die("--svg: only meaningful with 'optcast draw' or 'optcast compare'");
  if (!report && c->a.set[O_HTML]) die("--html: only meaningful with 'optcast report'");
  if (!draw && !report) {
    if (c->a.set[O_FORMAT]) die("--format: only meaningful with 'optcast draw' or 'optcast report'");
    return;
  }
  if (c->a.set[O_JSON])
    die("--json: 'optcast %s' writes %s (use --%s FILE or --format %s)", cmd, fmt, fmt, fmt);
  if (c->a.set[O_CSV])
    die("--csv: 'optcast %s' writes %s (use --%s FILE or --format %s)", cmd, fmt, fmt, fmt);
  if (c->a.set[O_FORMAT] && strcmp(c->a.val[O_FORMAT], fmt) != 0)
    die("--format: unknown format '%s' (expected %s)", c->a.val[O_FORMAT], fmt);
  if (!c->a.set[file] && !c->a.set[O_FORMAT])
    die("missing --%s FILE or --format %s (where the %s goes)", fmt, fmt,
        draw ? "drawing" : "report");
#ifdef OC_CLI_NO_MAIN
  if (c->a.set[file]) die("--%s: this build writes no files (use --format %s)", fmt, fmt);
#endif
}

/* ---- output helpers --------------------------------------------------------- */
static const char *tfmt(char *b, size_t n, const cli *c, int64_t x) {
  oc_format_time(b, n, x, c->p.unit);
  return b;
}

static void print_params_text(FILE *f, const cli *c) {
  if (c->p.model == OC_MODEL_LOGP)
    fprintf(f, "LogP L=%lld o=%lld g=%lld", (long long)c->p.L,
            (long long)c->p.o, (long long)c->p.g);
  else if (c->p.lam_den == 1)
    fprintf(f, "postal lambda=%lld", (long long)c->p.lam_num);
  else {
    char b[64];
    fprintf(f, "postal lambda=%s (=%lld/%lld)",
            tfmt(b, sizeof b, c, c->p.lam_num), (long long)c->p.lam_num,
            (long long)c->p.lam_den);
  }
  fprintf(f, ", P=%lld, root %lld", (long long)c->p.P, (long long)c->root);
}

static void json_time(FILE *f, const char *key, const cli *c, int64_t x) {
  char b[64];
  fprintf(f, "\"%s\":%s", key, tfmt(b, sizeof b, c, x));
}

static void json_head_v(FILE *f, const cli *c, const char *alg, int64_t time,
                        int64_t lb, int valid);
static void json_head(FILE *f, const cli *c, const char *alg, int64_t time,
                      int64_t lb) {
  json_head_v(f, c, alg, time, lb, 1);
}

/* valid = 0: a schedule that breaks a rule is never "optimal" */
static void json_head_v(FILE *f, const cli *c, const char *alg, int64_t time,
                        int64_t lb, int valid) {
  fprintf(f, "{\"problem\":\"%s\",\"model\":\"%s\",\"algorithm\":\"%s\","
             "\"P\":%lld,\"procs\":%lld,",
          c->problem, c->p.model == OC_MODEL_LOGP ? "logp" : "postal", alg,
          (long long)c->p.P, (long long)c->p.P);
  json_time(f, "time", c, time);
  fputc(',', f);
  json_time(f, "lower_bound", c, lb);
  fprintf(f, ",\"optimal\":%s", valid && time == lb ? "true" : "false");
  if (c->p.model == OC_MODEL_LOGP) {
    fprintf(f, ",\"L\":%lld,\"o\":%lld,\"g\":%lld", (long long)c->p.L,
            (long long)c->p.o, (long long)c->p.g);
  } else {
    char b[64];
    fprintf(f, ",\"lambda\":%s,\"lambda_exact\":\"%lld/%lld\"",
            tfmt(b, sizeof b, c, c->p.lam_num), (long long)c->p.lam_num,
            (long long)c->p.lam_den);
    {
      int64_t gg = oc_gcd(time, c->p.unit);
      if (c->p.unit / gg == 1)
        fprintf(f, ",\"time_exact\":\"%lld\"", (long long)(time / gg));
      else
        fprintf(f, ",\"time_exact\":\"%lld/%lld\"", (long long)(time / gg),
                (long long)(c->p.unit / gg));
    }
  }
  fprintf(f, ",\"root\":%lld,\"items\":%lld", (long long)c->root,
          (long long)c->items);
}

/* plan --csv: long messages as their packets (CSV has no length), in time
 * order, written by the library */
static void print_csv(FILE *f, const cli *c, oc_sched *s) {
  if (s->len != NULL) {
    oc_sched x;
    oc_sched_init(&x);
    if (oc_sched_packets(s, c->p.g, &x) != OC_OK) die("out of memory");
    oc_sched_free(s);
    *s = x;
  }
  oc_sched_sort(s);
  if (oc_sched_write_csv(f, s, &c->p) == OC_ENOMEM) die("out of memory");
}

static void progress(const cli *c, const char *what) {
  if (c->p.P >= 1000000 && !c->a.set[O_QUIET] && isatty(2))
    fprintf(stderr, "optcast: %s (P=%lld)...\n", what, (long long)c->p.P);
}

/* ---- problems ----------------------------------------------------------------
 * Every problem fills a result: its schedule (plan) or its times (bound),
 * checked by the verifier for its problem. */
typedef struct result {
  const char *alg;
  int64_t time, lb;
  oc_sched s;
  int64_t *counts; /* sum: operands per processor */
  int64_t used;    /* sum: processors used */
  int optimal_known; /* time == lb proves optimality */
  oc_kbcast_result kres; /* kbcast */
  int upper_only;          /* bound: time is an upper bound, no plan behind it */
} result;

static void result_free(result *r) {
  oc_sched_free(&r->s);
  free(r->counts);
}

static void check_plan_size(const cli *c) {
  if (c->p.P > OC_GLOBAL_PROCS_MAX)
    die("--procs: %lld is too large for a global schedule (at most %lld); "
        "'optcast bound' and 'optcast rank' take up to 2^62",
        (long long)c->p.P, (long long)OC_GLOBAL_PROCS_MAX);
}

static int64_t operands(const cli *c) {
  if (!c->a.set[O_OPERANDS]) die("missing --operands (how many operands to sum)");
  /* times (about n additions at one processor) stay within 2^60 units */
  return need_int(c, O_OPERANDS, 1, OC_TIME_MAX / c->p.unit);
}

static void lib_fail(const char *what, int e) {
  if (e == OC_EUNSUP)
    die("--procs: %s: with parameters this large the planner takes at most "
        "2^30 processors (see docs/ALGORITHMS.md)", what);
  die("--procs: %s: %s", what, oc_strerror(e));
}

/* oc_reduce_new's failures, named for the user */
static void reduce_fail(const cli *c, int e) {
  if (e == OC_EUNSUP)
    die("--root: a rank-order reduction to root %lld is beyond this planner for "
        "these parameters (more than 2^22 reception slots, or no split found); "
        "--commutative always works", (long long)c->root);
  lib_fail(c->problem, e);
}

/* plan = 1: build and verify the schedule; 0: times only */
static void solve(cli *c, int plan, result *r) {
  oc_verdict v;
  int e;
  memset(r, 0, sizeof *r);
  oc_sched_init(&r->s);
  r->optimal_known = 1;
  if (is(c, P_BCAST)) {
    oc_bcast *b = NULL;
    if (c->items != 1)
      die("%s", BCAST_ONE_ITEM);
    r->alg = oc_bcast_alg_name(c->alg);
    if (!plan) {
      if ((e = oc_bcast_time(&c->p, &r->lb)) != OC_OK) lib_fail("bcast", e);
      r->time = r->lb;
      return;
    }
    check_plan_size(c);
    if ((e = oc_bcast_new(&b, &c->p, c->root, c->alg)) != OC_OK) lib_fail("bcast", e);
    r->lb = oc_bcast_completion(b);
    progress(c, "building the schedule");
    if ((e = oc_bcast_schedule(b, &r->s)) != OC_OK) lib_fail("bcast", e);
    oc_bcast_free(b);
    progress(c, "verifying");
    if ((e = oc_verify_bcast(&c->p, c->root, 1, &r->s, &v)) != OC_OK) lib_fail("verify", e);
  } else if (is(c, P_KBCAST)) {
    oc_kbcast_result kr;
    int64_t l8, k31;
    if ((e = oc_kbcast_bound(&c->p, c->items, &r->lb, &l8, &k31)) != OC_OK)
      lib_fail("kbcast", e);
    if (plan) check_plan_size(c);
    e = oc_kbcast_plan(&c->p, c->root, c->items, c->kalg, c->degree,
                       plan ? &r->s : NULL, &kr);
    if (e == OC_ERANGE)
      die("--procs, --items: P=%lld with %lld items is too large (at most 2^26 "
          "messages)", (long long)c->p.P, (long long)c->items);
    if (e) lib_fail("kbcast", e);
    r->time = kr.time;
    r->kres = kr;
    r->alg = oc_kbcast_alg_name(kr.alg);
    r->optimal_known = 0;
    if (!plan) return;
    if ((e = oc_verify_bcast(&c->p, c->root, c->items, &r->s, &v)) != OC_OK) lib_fail("verify", e);
  } else if (is(c, P_SUM) || is(c, P_REDUCE)) {
    oc_reduce *x = NULL;
    int sum = is(c, P_SUM);
    int64_t n = sum ? operands(c) : c->p.P;
    r->alg = problem_alg(c);
    if (plan) check_plan_size(c);
    e = sum ? oc_sum_new(&x, &c->p, c->root, n)
            : oc_reduce_new(&x, &c->p, c->root, !c->a.set[O_COMMUTATIVE]);
    if (e == OC_EUNSUP && !sum) reduce_fail(c, e);
    if (e) lib_fail(c->problem, e);
    r->lb = oc_reduce_lower_bound(x);
    r->time = oc_reduce_completion(x);
    r->used = oc_reduce_used(x);
    if (c->p.P > OC_REDUCE_PLAN_MAX && (plan || sum))
      die("--procs: %lld processors: sum and reduce plans (and sum's operand counts) "
          "go up to %lld", (long long)c->p.P, (long long)OC_REDUCE_PLAN_MAX);
    if (c->p.P <= OC_REDUCE_PLAN_MAX) { /* reduce: all ones, listed up to there */
      r->counts = (int64_t *)malloc((size_t)c->p.P * sizeof *r->counts);
      if (r->counts == NULL) die("out of memory");
      if ((e = oc_reduce_counts(x, r->counts)) != OC_OK) lib_fail(c->problem, e);
    }
    if (plan) {
      if ((e = oc_reduce_schedule(x, &r->s)) != OC_OK) lib_fail(c->problem, e);
      if ((e = oc_verify_reduce(&c->p, c->root, n, &r->s, &v)) != OC_OK) lib_fail("verify", e);
    }
    oc_reduce_free(x);
    if (!plan) return;
  } else if (is(c, P_ALLREDUCE)) {
    r->alg = problem_alg(c);
    if (plan) check_plan_size(c);
    if (!plan && c->p.P > ((int64_t)1 << 16)) {
      /* no circulant plan this large: the lower bound, and at most a
       * reduction plus a broadcast (shifted by at most g) */
      int64_t B;
      if ((e = oc_reduce_time(&c->p, &r->lb)) != OC_OK) lib_fail("allreduce", e);
      if ((e = oc_bcast_time(&c->p, &B)) != OC_OK) lib_fail("allreduce", e);
      r->time = r->lb + B + c->p.g;
      r->upper_only = 1;
      r->alg = "reduce-then-bcast";
      r->optimal_known = 0;
      return;
    }
    e = c->a.set[O_ORDERED]
            ? oc_allreduce_ordered_schedule(&c->p, plan ? &r->s : NULL, &r->time, &r->lb)
            : oc_allreduce_schedule(&c->p, plan ? &r->s : NULL, &r->time, &r->lb);
    if (e == OC_ERANGE)
      die("--procs: the allreduce schedule for P=%lld has too many messages "
          "(at most 2^26)", (long long)c->p.P);
    if (e) lib_fail("allreduce", e);
    r->optimal_known = 0; /* optimal only where it meets the lower bound */
    if (!plan) return;
    e = c->a.set[O_ORDERED] ? oc_verify_allreduce_ordered(&c->p, &r->s, &v)
                          : oc_verify_allreduce(&c->p, &r->s, &v);
    if (e) lib_fail("verify", e);
  } else { /* alltoall */
    r->alg = problem_alg(c);
    if (plan) check_plan_size(c);
    e = oc_alltoall_schedule(&c->p, c->items, c->a.set[O_PERSONALIZED],
                             plan ? &r->s : NULL, &r->time, &r->lb);
    if (e == OC_ERANGE)
      die("--procs, --items: P=%lld with %lld items is too large for a global "
          "schedule", (long long)c->p.P, (long long)c->items);
    if (e) lib_fail("alltoall", e);
    if (r->time == OC_SAT) die("--procs: the all-to-all time overflows");
    if (!plan) return;
    if ((e = oc_verify_alltoall(&c->p, c->items, c->a.set[O_PERSONALIZED], &r->s, &v)) != OC_OK)
      lib_fail("verify", e);
  }
  if (!v.ok) {
    char b1[64];
    fprintf(stderr,
            "optcast: internal error: the %s schedule fails verification: "
            "processor %lld, time %s, rule %s: %s\n",
            r->alg, (long long)v.proc, tfmt(b1, sizeof b1, c, v.at),
            oc_rule_name(v.rule), v.detail);
    CLI_EXIT(EXIT_CHECK);
  }
  if (is(c, P_BCAST) || is(c, P_KBCAST)) r->time = v.time;
  else if (v.time != r->time) {
    fprintf(stderr, "optcast: internal error: %s: planned time and verified "
                    "time differ (%lld, %lld)\n", r->alg, (long long)r->time,
            (long long)v.time);
    CLI_EXIT(EXIT_CHECK);
  }
}

static void json_extra(FILE *f, const cli *c, const result *r) {
  if (is(c, P_SUM) || is(c, P_REDUCE)) {
    if (is(c, P_SUM) && r->counts) {
      int64_t n = 0;
      for (int64_t q = 0; q < c->p.P; q++) n += r->counts[q];
      fprintf(f, ",\"operands\":%lld", (long long)n);
      { /* Karp's inverse problem: the most operands summable by then */
        int64_t cap;
        if (oc_sum_capacity(&c->p, r->time, &cap) == OC_OK)
          fprintf(f, ",\"capacity\":%lld", (long long)cap);
      }
    }
    fprintf(f, ",\"used\":%lld", (long long)r->used);
    if (is(c, P_REDUCE))
      fprintf(f, ",\"ordered\":%s", c->a.set[O_COMMUTATIVE] ? "false" : "true");
    if (r->counts) {
      fputs(",\"operands_per_proc\":[", f);
      for (int64_t q = 0; q < c->p.P; q++)
        fprintf(f, "%s%lld", q ? "," : "", (long long)r->counts[q]);
      fputc(']', f);
    }
  }
  if (is(c, P_ALLTOALL))
    fprintf(f, ",\"personalized\":%s", c->a.set[O_PERSONALIZED] ? "true" : "false");
  if (is(c, P_KBCAST)) {
    int64_t lb, l8, k31;
    fputc(',', f);
    if (r->kres.formula >= 0) json_time(f, "lemma_time", c, r->kres.formula); /* the paper's */
    else fputs("\"lemma_time\":null", f);
    if (r->kres.alg == OC_KB_DTREE) fprintf(f, ",\"degree\":%lld", (long long)r->kres.degree);
    if (oc_kbcast_bound(&c->p, c->items, &lb, &l8, &k31) == OC_OK) {
      fputc(',', f);
      json_time(f, "bound_lemma8", c, l8);
      if (k31 >= 0) { fputc(',', f); json_time(f, "bound_karp31", c, k31); }
    }
    if (oc_kbcast_bound_single(&c->p, c->items, &lb, &l8) == OC_OK)
      fprintf(f, ",\"bound_single_sending\":%lld,\"theorem37_time\":%lld", (long long)lb,
              (long long)l8);
  }
}

static const char *bound_source(const cli *c) {
  if (is(c, P_BCAST)) return "Karp et al. Thm 2.1: B(P) = min{t : P(t) >= P}";
  if (is(c, P_KBCAST))
    return "Bar-Noy & Kipnis Lemma 8: (m-1) + f(n); Karp et al. Thm 3.1 (integer lambda)";
  if (is(c, P_SUM))
    return "Karp et al. Lemma 5.1: the least t whose reversed broadcast tree (L+1) holds n operands";
  if (is(c, P_REDUCE)) return "Karp et al. 4.2: B(P) for L + 1 and max(g, o + 1)";
  if (is(c, P_ALLREDUCE)) return "the reduction time (every processor ends with a reduction)";
  return "Karp et al. 4.1: L + 2o + g(k(P-1) - 1), and 2o k(P-1) of overheads";
}

/* kbcast, integer lambda: Karp et al.'s single-sending bounds (section 3.4) */
static void kb_single_text(const cli *c) {
  int64_t single, thm37;
  if (!is(c, P_KBCAST) || oc_kbcast_bound_single(&c->p, c->items, &single, &thm37) != OC_OK)
    return;
  printf("single-sending (the source sends each item once): at least B(P-1) + L + m - 1 = "
         "%lld; Theorem 3.7's schedule at most B(P-1) + 2L + m - 2 = %lld (Karp et al. 3.4)\n",
         (long long)single, (long long)thm37);
}

/* ---- subcommands ------------------------------------------------------------ */
static int cmd_bound(cli *c) {
  result r;
  char b[64];
  solve(c, 0, &r);
  if (c->a.set[O_JSON]) {
    json_head(stdout, c, r.alg, r.time, r.lb);
    json_extra(stdout, c, &r);
    if (r.upper_only) printf(",\"time_is_upper_bound\":true");
    printf(",\"bound\":\"%s\"}\n", bound_source(c));
  } else {
    printf("optcast bound %s: ", c->problem);
    print_params_text(stdout, c);
    printf("\nlower bound %s (%s)\n", tfmt(b, sizeof b, c, r.lb), bound_source(c));
    kb_single_text(c);
    if (r.time != r.lb)
      printf("best known schedule: %s%s ('optcast plan %s')\n",
             r.upper_only ? "at most " : "", tfmt(b, sizeof b, c, r.time), c->problem);
  }
  result_free(&r);
  return 0;
}

static int cmd_plan(cli *c) {
  result r;
  char b1[64], b2[64];
  if (c->a.set[O_JSON] && c->a.set[O_CSV]) die("--json and --csv: choose one");
  solve(c, 1, &r);
  if (c->a.set[O_CSV]) {
    print_csv(stdout, c, &r.s);
  } else if (c->a.set[O_JSON]) {
    json_head(stdout, c, r.alg, r.time, r.lb);
    json_extra(stdout, c, &r);
    printf(",\"messages\":%zu,\"additions\":%zu,\"verified\":true}\n", r.s.n, r.s.nop);
  } else {
    printf("optcast plan %s: ", c->problem);
    print_params_text(stdout, c);
    printf(", algorithm %s\n", r.alg);
    printf("time %s, lower bound %s (%s); %zu messages", tfmt(b1, sizeof b1, c, r.time),
           tfmt(b2, sizeof b2, c, r.lb),
           r.time == r.lb ? "optimal" : "above the bound", r.s.n);
    if (r.s.nop) printf(", %zu addition steps", r.s.nop);
    printf("; checked by the verifier: valid\n");
    kb_single_text(c);
    if (is(c, P_SUM)) {
      printf("operands per processor (%lld used):", (long long)r.used);
      for (int64_t q = 0; q < c->p.P && q < 64; q++) printf(" %lld", (long long)r.counts[q]);
      if (c->p.P > 64) printf(" ...");
      printf("\n");
    }
    printf("\n");
    if (c->p.P <= 4096) {
      if (is(c, P_BCAST)) cli_render_tree(stdout, &c->p, c->root, &r.s, 0);
      if (is(c, P_SUM) || is(c, P_REDUCE)) cli_render_tree(stdout, &c->p, c->root, &r.s, 1);
      cli_render_activity(stdout, &c->p, is(c, P_BCAST) ? c->root : -1, &r.s, r.time);
    } else {
      printf("(pictures drawn for P <= 4096; use --csv for the schedule)\n");
    }
  }
  result_free(&r);
  return 0;
}

/* What `draw` and `report` draw for the plan r: titles in title/sub. */
static void draw_input(const cli *c, result *r, cli_draw_in *d, char *title,
                       size_t tn, char *sub, size_t sn) {
  char b1[64], b2[64];
  char *ptext = NULL;
  size_t plen = 0;
  FILE *m = open_memstream(&ptext, &plen);
  int e;
  if (m != NULL) {
    print_params_text(m, c);
    e = fclose(m);
  } else {
    e = EOF;
  }
  if (e != 0) die("out of memory");
  snprintf(title, tn, "optcast %s %s: %s", c->cmd, c->problem, ptext ? ptext : "");
  free(ptext);
  snprintf(sub, sn, "algorithm %s; time %s, lower bound %s (%s); %zu messages%s; "
           "checked by the verifier: valid", r->alg, tfmt(b1, sizeof b1, c, r->time),
           tfmt(b2, sizeof b2, c, r->lb), r->time == r->lb ? "optimal" : "above the bound",
           r->s.n, r->s.nop ? ", with additions" : "");
  memset(d, 0, sizeof *d);
  d->title = title;
  d->subtitle = sub;
  d->p = &c->p;
  d->P = c->p.P;
  d->root = c->root;
  d->all_hold = !is(c, P_BCAST) && !is(c, P_KBCAST);
  d->time = r->time;
  d->s = &r->s;
  d->tree = is(c, P_BCAST) ? CLI_TREE_BCAST
            : (is(c, P_SUM) || is(c, P_REDUCE)) ? CLI_TREE_REDUCE
            : is(c, P_KBCAST) ? CLI_TREE_ITEM0 : CLI_TREE_NONE;
  d->activity = 1;
  d->table = is(c, P_KBCAST);
  d->steps = is(c, P_KBCAST) && c->p.model == OC_MODEL_POSTAL && c->p.unit == 1;
  d->counts = is(c, P_SUM) ? r->counts : NULL;
}

/* `optcast draw`: the schedule `plan` builds and verifies, as an SVG
 * (cli_draw.c); check_output has vetted the output options. */
static int cmd_draw(cli *c) {
  result r;
  cli_draw_in d;
  char title[256], sub[256], err[320];
  int e;
  solve(c, 1, &r);
  draw_input(c, &r, &d, title, sizeof title, sub, sizeof sub);
  e = cli_draw(&d, c->a.val[O_SVG], err, sizeof err);
  result_free(&r);
  if (e != OC_OK) die("%s: %s", c->a.val[O_SVG] ? "--svg" : "--format", err);
  return 0;
}

/* The command that rebuilds the plan: `optcast plan` with the report's
 * parameters (its output options left out). */
static char *reproduce_line(const cli *c) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  if (f != NULL) {
    fputs("optcast plan", f);
    for (int i = 2; i < c->argc; i++) {
      const char *a = c->argv[i];
      if (strncmp(a, "--html", 6) == 0 || strncmp(a, "--format", 8) == 0) {
        if (strchr(a, '=') == NULL) i++; /* its value */
        continue;
      }
      fprintf(f, " %s", a);
    }
    if (fclose(f) == 0) return buf;
  }
  free(buf);
  die("out of memory");
}

/* `optcast report`: the plan, its pictures and a slice of the schedule as
 * one self-contained HTML page (cli_report.c). */
static int cmd_report(cli *c) {
  result r;
  cli_draw_in d;
  cli_report_in in;
  cli_report_kv par[12], res[6];
  char title[256], sub[256], err[320], pv[8][64], rv[4][64], verdict[320];
  char *svg = NULL, *cmdline, *extra = NULL;
  size_t svglen = 0, np = 0, nr = 0, elen = 0;
  oc_sched tab; /* the messages in time order, long ones as their packets */
  int e;
  solve(c, 1, &r);
  draw_input(c, &r, &d, title, sizeof title, sub, sizeof sub);
  if (cli_draw_doc(&d, &svg, &svglen, err, sizeof err) != OC_OK) die("report: %s", err);
  oc_sched_init(&tab);
  if (oc_sched_packets(&r.s, c->p.g, &tab) != OC_OK) die("out of memory"); /* a copy */
  oc_sched_sort(&tab);
  memset(&in, 0, sizeof in);
  par[np++] = (cli_report_kv){"problem", c->problem};
  par[np++] = (cli_report_kv){"model", c->p.model == OC_MODEL_LOGP ? "LogP" : "postal"};
  snprintf(pv[0], sizeof pv[0], "%lld", (long long)c->p.P);
  par[np++] = (cli_report_kv){"processors P", pv[0]};
  if (c->p.model == OC_MODEL_LOGP) {
    snprintf(pv[1], sizeof pv[1], "L = %lld, o = %lld, g = %lld", (long long)c->p.L,
             (long long)c->p.o, (long long)c->p.g);
    par[np++] = (cli_report_kv){c->a.set[O_PRESET] ? "LogP parameters (preset)" : "LogP parameters",
                                pv[1]};
  } else {
    snprintf(pv[1], sizeof pv[1], "%lld/%lld", (long long)c->p.lam_num,
             (long long)c->p.lam_den);
    par[np++] = (cli_report_kv){"postal latency lambda", pv[1]};
  }
  if (!is(c, P_ALLREDUCE) && !is(c, P_ALLTOALL)) { /* these have no root */
    snprintf(pv[2], sizeof pv[2], "%lld", (long long)c->root);
    par[np++] = (cli_report_kv){"root", pv[2]};
  }
  if (is(c, P_KBCAST) || is(c, P_ALLTOALL)) {
    snprintf(pv[3], sizeof pv[3], "%lld%s", (long long)c->items,
             is(c, P_ALLTOALL) ? " per processor" : "");
    par[np++] = (cli_report_kv){"items", pv[3]};
  }
  if (is(c, P_SUM)) {
    snprintf(pv[4], sizeof pv[4], "%lld", (long long)operands(c));
    par[np++] = (cli_report_kv){"operands n", pv[4]};
  }
  if (is(c, P_REDUCE))
    par[np++] = (cli_report_kv){"operator order", c->a.set[O_COMMUTATIVE]
                                    ? "commutative: cyclic from root + 1"
                                    : "rank order (non-commutative operators)"};
  if (is(c, P_ALLREDUCE))
    par[np++] = (cli_report_kv){"operator order", c->a.set[O_ORDERED]
                                    ? "rank order for every processor"
                                    : "commutative: cyclic windows"};
  if (is(c, P_ALLTOALL))
    par[np++] = (cli_report_kv){"kind", c->a.set[O_PERSONALIZED]
                                    ? "personalized (a distinct item per destination)"
                                    : "broadcast (every item to everyone)"};
  if (is(c, P_KBCAST) && r.kres.alg == OC_KB_DTREE) {
    snprintf(pv[5], sizeof pv[5], "%lld", (long long)r.kres.degree);
    par[np++] = (cli_report_kv){"tree degree d", pv[5]};
  }
  par[np++] = (cli_report_kv){"algorithm", r.alg};
  res[nr++] = (cli_report_kv){"completion time", tfmt(rv[0], sizeof rv[0], c, r.time)};
  res[nr++] = (cli_report_kv){"lower bound", tfmt(rv[1], sizeof rv[1], c, r.lb)};
  snprintf(rv[2], sizeof rv[2], "%zu", r.s.n);
  res[nr++] = (cli_report_kv){"messages", rv[2]};
  snprintf(rv[3], sizeof rv[3], "%zu", r.s.nop);
  if (r.s.nop) res[nr++] = (cli_report_kv){"addition steps", rv[3]};
  res[nr++] = (cli_report_kv){"checked by the verifier", "valid"};
  snprintf(verdict, sizeof verdict, "time %s, lower bound %s: %s", rv[0], rv[1],
           r.time == r.lb ? "optimal" : "above the lower bound");
  cmdline = reproduce_line(c);
  if ((is(c, P_BCAST) || (is(c, P_ALLREDUCE) && !c->a.set[O_ORDERED])) &&
      c->p.model == OC_MODEL_LOGP) { /* next to the MPI libraries */
    const cli_preset *pr = c->a.set[O_PRESET] ? cli_preset_find(c->a.val[O_PRESET]) : NULL;
    FILE *m = open_memstream(&extra, &elen);
    if (m == NULL) die("out of memory");
    int64_t bytes = pr ? pr->packet_bytes : CLI_COMPARE_PACKET;
    if (cli_compare_html(m, &c->p, is(c, P_ALLREDUCE), c->root, bytes) == OC_EUNSUP)
      fprintf(m, "<p class=\"note\">The comparison with the MPI libraries' algorithms is "
                 "left out for P &gt; %d (<code>optcast compare %s</code> takes P up to "
                 "2^20).</p>\n", CLI_COMPARE_REPORT_MAX, c->problem);
    if (fclose(m) != 0) die("out of memory");
  }
  in.extra = extra;
  in.title = title;
  in.verdict = verdict;
  in.optimal = r.time == r.lb;
  in.params = par;
  in.nparams = np;
  in.result = res;
  in.nresult = nr;
  in.svg = svg;
  in.svglen = svglen;
  in.s = &tab;
  in.max_rows = 200;
  in.unit = c->p.unit;
  in.command = cmdline;
  e = cli_report_write(&in, c->a.val[O_HTML], err, sizeof err);
  free(svg);
  free(cmdline);
  free(extra);
  oc_sched_free(&tab);
  result_free(&r);
  if (e != OC_OK) die("%s: %s", c->a.val[O_HTML] ? "--html" : "--format", err);
  return 0;
}

/* A rank's own part of a reduction: whom it sends to and when, who sends
 * to it. */
static int cmd_rank_reduce(cli *c) {
  oc_reduce *x = NULL;
  oc_reduce_view v;
  int e;
  char b1[64];
  e = oc_reduce_new(&x, &c->p, c->root, !c->a.set[O_COMMUTATIVE]);
  if (e) reduce_fail(c, e);
  if ((e = oc_reduce_rank(x, c->rank, &v)) != OC_OK)
    die("--rank: cannot compute the plan: %s", oc_strerror(e));
  if (c->a.set[O_JSON]) {
    json_head(stdout, c, problem_alg(c), oc_reduce_completion(x), oc_reduce_lower_bound(x));
    printf(",\"ordered\":%s,\"rank\":%lld,\"parent\":%lld,",
           c->a.set[O_COMMUTATIVE] ? "false" : "true", (long long)v.rank, (long long)v.parent);
    if (v.parent < 0) printf("\"send\":null"); else json_time(stdout, "send", c, v.send);
    printf(",\"children\":[");
    for (int64_t k = 0; k < v.nchildren; k++) {
      int64_t r, t;
      if (oc_reduce_child(x, &v, k, &r, &t) != OC_OK) die("--rank: internal error");
      printf("%s{\"rank\":%lld,", k ? "," : "", (long long)r);
      json_time(stdout, "send", c, t);
      putchar('}');
    }
    printf("]}\n");
  } else {
    printf("optcast rank reduce: ");
    print_params_text(stdout, c);
    printf(", %s\nrank %lld: ", c->a.set[O_COMMUTATIVE] ? "cyclic order" : "rank order",
           (long long)v.rank);
    if (v.parent < 0)
      printf("root, holds the result at %s\n",
             tfmt(b1, sizeof b1, c, oc_reduce_completion(x)));
    else
      printf("sends its partial result to %lld at %s\n", (long long)v.parent,
             tfmt(b1, sizeof b1, c, v.send));
    printf("%lld ranks send to it (the last to send first):\n", (long long)v.nchildren);
    for (int64_t k = 0; k < v.nchildren && k < 64; k++) {
      int64_t r, t;
      if (oc_reduce_child(x, &v, k, &r, &t) != OC_OK) die("--rank: internal error");
      printf("  %lld at %s\n", (long long)r, tfmt(b1, sizeof b1, c, t));
    }
    if (v.nchildren > 64) printf("  ... %lld more\n", (long long)(v.nchildren - 64));
  }
  oc_reduce_free(x);
  return 0;
}

static int cmd_rank(cli *c) {
  oc_bcast *bc = NULL;
  oc_bcast_view v;
  int e;
  char b1[64], b2[64];
  if (!c->a.set[O_RANK]) die("missing --rank (which processor's plan)");
  c->rank = need_int(c, O_RANK, 0, c->p.P - 1);
  if (is(c, P_REDUCE)) return cmd_rank_reduce(c);
  if (c->alg == OC_BCAST_BARNOY)
    die("--algorithm: bar-noy-kipnis has no per-rank view (use karp or "
        "shou-chen)");
  e = oc_bcast_new(&bc, &c->p, c->root, c->alg);
  if (e) die("--procs: cannot set up the broadcast: %s", oc_strerror(e));
  e = oc_bcast_rank(bc, c->rank, &v);
  if (e) die("--rank: cannot compute the plan: %s", oc_strerror(e));
  if (c->a.set[O_JSON]) {
    int64_t lb = oc_bcast_completion(bc);
    json_head(stdout, c, oc_bcast_alg_name(c->alg), lb, lb);
    printf(",\"rank\":%lld,\"parent\":%lld,", (long long)v.rank,
           (long long)v.parent);
    json_time(stdout, "ready", c, v.ready);
    printf(",\"children\":[");
    for (int64_t k = 0; k < v.nchildren; k++) {
      int64_t r, t;
      oc_bcast_child(bc, &v, k, &r, &t);
      printf("%s{\"rank\":%lld,", k ? "," : "", (long long)r);
      json_time(stdout, "send", c, t);
      putchar('}');
    }
    printf("]}\n");
  } else {
    printf("optcast rank: ");
    print_params_text(stdout, c);
    printf(", algorithm %s\nrank %lld: ", oc_bcast_alg_name(c->alg),
           (long long)v.rank);
    if (v.parent < 0)
      printf("root, holds the datum at %s\n", tfmt(b1, sizeof b1, c, 0));
    else
      printf("receives from %lld (sent at %s), datum usable at %s\n",
             (long long)v.parent, tfmt(b1, sizeof b1, c, v.recv_send),
             tfmt(b2, sizeof b2, c, v.ready));
    printf("%lld children:\n", (long long)v.nchildren);
    for (int64_t k = 0; k < v.nchildren; k++) {
      int64_t r, t;
      if (k == 64) {
        printf("  ... %lld more\n", (long long)(v.nchildren - 64));
        break;
      }
      oc_bcast_child(bc, &v, k, &r, &t);
      printf("  send at %s to %lld\n", tfmt(b1, sizeof b1, c, t), (long long)r);
    }
  }
  oc_bcast_free(bc);
  return 0;
}

/* Reads all of stdin. */
static char *read_all(FILE *f, size_t *len) {
  size_t cap = 1 << 16, n = 0;
  char *buf = (char *)malloc(cap);
  if (buf == NULL) die("out of memory reading the schedule");
  for (;;) {
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (n + 1 < cap) {
      if (feof(f) || ferror(f)) break;
      continue;
    }
    cap *= 2;
    {
      char *nb = (char *)realloc(buf, cap);
      if (nb == NULL) die("out of memory reading the schedule");
      buf = nb;
    }
  }
  if (ferror(f)) die("cannot read the schedule from standard input");
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* The output switches every model's command takes (--json or --csv, draw
 * --svg, report --html). */
static void model_outputs(const cli *c, int *json, int *csv, int *draw, const char **svg,
                          int *report, const char **html) {
  if (c->a.set[O_JSON] && c->a.set[O_CSV]) die("--json and --csv: choose one");
  *json = c->a.set[O_JSON];
  *csv = c->a.set[O_CSV];
  *draw = c->a.bit == CMD_DRAW;
  *svg = c->a.val[O_SVG];
  *report = c->a.bit == CMD_REPORT;
  *html = c->a.val[O_HTML];
}

/* --model kport: cli_kport.c does the work */
static int run_kport(cli *c) {
  cli_kport_args a;
  char *buf = NULL, *cmdline = NULL;
  size_t len = 0;
  int rc;
  memset(&a, 0, sizeof a);
  model_outputs(c, &a.json, &a.csv, &a.draw, &a.svg, &a.report, &a.html);
  a.cmd = c->cmd;
  a.problem = c->problem;
  a.n = c->p.P;
  a.k = c->kports;
  a.m = c->items;
  a.root = c->root;
  a.alg = c->kpalg;
  if (a.report) a.command = cmdline = reproduce_line(c);
  if (c->a.bit == CMD_VERIFY) buf = read_all(c->in, &len);
  rc = cli_kport(&a, buf, len);
  free(buf);
  free(cmdline);
  return rc;
}

/* cbcast: the postal model with an integer latency; cli_cbcast.c does the
 * work.  Items default to 16 (enough to see the steady state). */
static int run_cbcast(cli *c) {
  cli_cbcast_args a;
  char *buf = NULL, *cmdline = NULL;
  size_t len = 0;
  int rc, lat;
  for (int o = 0; o < O_NOPTS; o++)
    if (c->a.set[o] && o != O_MODEL && o != O_PROCS && o != O_LATENCY && o != O_LAMBDA &&
        o != O_ITEMS && o != O_ROOT && o != O_JSON && o != O_CSV && o != O_QUIET &&
        o != O_BUFFERED && o != O_SVG && o != O_HTML && o != O_FORMAT && o != O_KARP_BLOCK &&
        !(o == O_ALGORITHM && strcmp(c->a.val[o], "block-cyclic") == 0))
      die("--%s: not a parameter of '%s%s' (it takes --latency L, --procs P, "
          "--items k, --root r)", CLI_OPTS[o].name, c->problem,
          c->a.set[O_BUFFERED] ? " --buffered" : "");
  if (c->a.bit != CMD_PLAN && c->a.bit != CMD_BOUND &&
      c->a.bit != CMD_VERIFY && c->a.bit != CMD_DRAW &&
      c->a.bit != CMD_REPORT)
    die("%s: not available for '%s' (use plan, bound, verify, draw or report)", c->cmd,
        c->problem);
  if (c->a.set[O_MODEL] && strcmp(c->a.val[O_MODEL], "postal") != 0)
    die("--model: %s%s is the postal model (got '%s')", c->problem,
        c->a.set[O_BUFFERED] ? " --buffered" : "", c->a.val[O_MODEL]);
  if (c->a.set[O_LATENCY] && c->a.set[O_LAMBDA]) die("--lambda: give --latency or --lambda, not both");
  lat = c->a.set[O_LAMBDA] ? O_LAMBDA : O_LATENCY;
  if (!c->a.set[lat]) die("missing --latency (the postal latency L, an integer)");
  memset(&a, 0, sizeof a);
  a.cmd = c->cmd;
  if (c->a.set[O_KARP_BLOCK]) { /* one r-block's table: no processors, no schedule */
    if (c->a.bit != CMD_PLAN || !is(c, P_CBCAST) || c->a.set[O_BUFFERED] ||
        c->a.set[O_PROCS] || c->a.set[O_ROOT] || c->a.set[O_CSV] || c->a.set[O_SVG] || c->a.set[O_HTML] ||
        c->a.set[O_FORMAT])
      die("--karp-block: only 'optcast plan cbcast --latency L --karp-block r [--items k] "
          "[--json]'");
    a.L = need_int(c, lat, 1, OC_CBCAST_L_MAX);
    a.karp_block = need_int(c, O_KARP_BLOCK, 1, 64);
    a.k = c->a.set[O_ITEMS] ? need_int(c, O_ITEMS, 1, 4096) : 16;
    a.json = c->a.set[O_JSON];
    return cli_cbcast(&a, NULL, 0);
  }
  if (!c->a.set[O_PROCS]) die("missing --procs (number of processors)");
#ifdef OC_CLI_NO_MAIN /* the fuzzing build: small instances (the plan searches) */
  a.L = need_int(c, lat, 1, 8);
  a.P = need_int(c, O_PROCS, 1, 64);
  a.k = c->a.set[O_ITEMS] ? need_int(c, O_ITEMS, 1, 64) : 16;
#else
  a.L = need_int(c, lat, 1, OC_CBCAST_L_MAX);
  a.P = need_int(c, O_PROCS, 1, OC_CBCAST_PROCS_MAX);
  a.k = c->a.set[O_ITEMS] ? need_int(c, O_ITEMS, 1, OC_CBCAST_MSGS_MAX) : 16;
#endif
  a.kitem = is(c, P_KBCAST);
  if (a.kitem && !c->a.set[O_ITEMS]) a.k = 1;
  a.buffered = c->a.set[O_BUFFERED];
  a.root = c->a.set[O_ROOT] ? need_int(c, O_ROOT, 0, a.P - 1) : 0;
  model_outputs(c, &a.json, &a.csv, &a.draw, &a.svg, &a.report, &a.html);
  if (a.csv && c->a.bit != CMD_PLAN) die("--csv: only 'optcast plan' prints a schedule");
  if (a.report) a.command = cmdline = reproduce_line(c);
  if (c->a.bit == CMD_VERIFY) buf = read_all(c->in, &len);
  rc = a.buffered ? cli_buffered(&a, buf, len) : cli_cbcast(&a, buf, len);
  free(buf);
  free(cmdline);
  return rc;
}

/* --model rrp: cli_rrp.c does the work */
static int run_rrp(cli *c) {
  cli_rrp_args a;
  char *buf = NULL, *cmdline = NULL;
  size_t len = 0;
  int rc;
  memset(&a, 0, sizeof a);
  model_outputs(c, &a.json, &a.csv, &a.draw, &a.svg, &a.report, &a.html);
  a.cmd = c->cmd;
  a.problem = c->rproblem;
  a.N = c->p.P;
  a.L = c->lines;
  a.root = c->root;
  a.nseg = c->nsegs;
  a.alg = c->ralg;
  if (c->a.bit == CMD_VERIFY) buf = read_all(c->in, &len);
  if (a.report) a.command = cmdline = reproduce_line(c);
  if (c->nsegs) { /* nothing below exits early */
    c->segs = malloc(c->nsegs * sizeof *c->segs);
    if (c->segs == NULL) {
      free(buf);
      free(cmdline);
      fputs("optcast: out of memory\n", stderr);
      return EXIT_INPUT;
    }
    parse_segments(c, c->segs);
  }
  a.seg = c->segs;
  rc = cli_rrp(&a, buf, len);
  free(buf);
  free(cmdline);
  free(c->segs);
  return rc;
}

/* `optcast compare`: cli_compare.c does the work on the values given; the
 * option table refuses what compare does not take. */
static int run_compare(cli *c) {
  cli_compare_args a;
  cli_refuse_untaken(&c->a, NULL, 0);
  if (c->a.set[O_MODEL] && strcmp(c->a.val[O_MODEL], "logp") != 0)
    die("--model: compare runs in the LogP model, got '%s'", c->a.val[O_MODEL]);
  memset(&a, 0, sizeof a);
  a.problem = c->problem;
  a.procs = c->a.val[O_PROCS];
  a.latency = c->a.val[O_LATENCY];
  a.overhead = c->a.val[O_OVERHEAD];
  a.gap = c->a.val[O_GAP];
  a.preset = c->a.val[O_PRESET];
  a.items = c->a.val[O_ITEMS];
  a.size = c->a.val[O_SIZE];
  a.root = c->a.val[O_ROOT];
  a.sweep = c->a.val[O_SWEEP];
  a.svg = c->a.val[O_SVG];
  a.segment = c->a.val[O_SEGMENT];
  a.json = c->a.set[O_JSON];
  a.csv = c->a.set[O_CSV];
  a.quiet = c->a.set[O_QUIET];
  return cli_compare(&a);
}

static int64_t *parse_counts(const cli *c, int64_t n) {
  int64_t *cnt = (int64_t *)calloc((size_t)c->p.P, sizeof *cnt), sum = 0, q = 0;
  const char *x = c->a.val[O_COUNTS];
  char buf[32];
  if (cnt == NULL) die("out of memory");
  while (*x) {
    size_t len = strcspn(x, ",");
    if (len == 0 || len >= sizeof buf || q >= c->p.P)
      die("--counts: expected %lld comma-separated operand counts", (long long)c->p.P);
    len = len < sizeof buf ? len : sizeof buf - 1; /* (as checked above) */
    memcpy(buf, x, len);
    buf[len] = '\0';
    if (oc_parse_int(buf, 0, OC_PROCS_MAX, &cnt[q]) != OC_OK)
      die("--counts: '%s' is not a count", buf);
    sum += cnt[q++];
    if (sum > OC_PROCS_MAX) die("--counts: the counts add up to more than 2^62");
    if (x[len] == ',' && x[len + 1] == '\0') die("--counts: a trailing comma");
    x += len + (x[len] == ',');
  }
  if (q != c->p.P) die("--counts: expected %lld counts, got %lld", (long long)c->p.P, (long long)q);
  if (sum != n) die("--counts: the counts add up to %lld, not --operands %lld",
                    (long long)sum, (long long)n);
  return cnt;
}

static int cmd_verify(cli *c) {
  size_t len;
  char *buf;
  oc_sched s;
  oc_verdict v;
  int64_t lb = 0, n = 0, *cnt = NULL;
  int e;
  char b1[64], b2[64];
  if (c->a.set[O_CSV]) die("--csv: verify reads CSV; it prints text or --json");
  if (is(c, P_BCAST) && c->items != 1)
    die("%s", BCAST_ONE_ITEM);
  check_plan_size(c);
  if (is(c, P_SUM)) {
    n = operands(c);
    if (!c->a.set[O_COUNTS]) die("missing --counts (operands each processor starts with)");
    cnt = parse_counts(c, n);
  }
  buf = read_all(c->in, &len);
  oc_sched_init(&s);
  {
    char err[200];
    e = oc_sched_read_csv(buf, len, &c->p, &s, err, sizeof err);
    free(buf);
    if (e != OC_OK) {
      oc_sched_free(&s);
      die("%s", err);
    }
  }
  if (is(c, P_BCAST)) {
    if ((e = oc_verify_bcast(&c->p, c->root, 1, &s, &v)) != OC_OK) lib_fail("verify", e);
    if (oc_bcast_time(&c->p, &lb) != OC_OK) die("--procs: invalid parameters");
  } else if (is(c, P_KBCAST)) {
    int64_t l8, k31;
    if ((e = oc_verify_bcast(&c->p, c->root, c->items, &s, &v)) != OC_OK) lib_fail("verify", e);
    if ((e = oc_kbcast_bound(&c->p, c->items, &lb, &l8, &k31)) != OC_OK) lib_fail("bound", e);
  } else if (is(c, P_SUM) || is(c, P_REDUCE)) {
    if (is(c, P_REDUCE)) {
      n = c->p.P;
      cnt = (int64_t *)malloc((size_t)c->p.P * sizeof *cnt);
      if (cnt == NULL) die("out of memory");
      for (int64_t q = 0; q < c->p.P; q++) cnt[q] = 1;
    }
    if ((e = oc_verify_reduce_rows(&c->p, c->root, cnt, c->a.set[O_ORDERED], &s, &v)) != OC_OK)
      lib_fail("verify", e);
    if (is(c, P_SUM)) e = oc_sum_time(&c->p, n, &lb); else e = oc_reduce_time(&c->p, &lb);
    if (e) lib_fail("bound", e);
  } else if (is(c, P_ALLREDUCE) && c->a.set[O_ORDERED]) {
    /* phase 1 (item 0): additions inferred in rank order; phase 2: item 1 */
    if ((e = oc_verify_allreduce_ordered_rows(&c->p, &s, &v)) != OC_OK) lib_fail("verify", e);
    if ((e = oc_reduce_time(&c->p, &lb)) != OC_OK) lib_fail("bound", e);
  } else if (is(c, P_ALLREDUCE)) {
    if ((e = oc_verify_allreduce(&c->p, &s, &v)) != OC_OK) lib_fail("verify", e);
    if ((e = oc_reduce_time(&c->p, &lb)) != OC_OK) lib_fail("bound", e);
  } else {
    int64_t t;
    if ((e = oc_verify_alltoall(&c->p, c->items, c->a.set[O_PERSONALIZED], &s, &v)) != OC_OK)
      lib_fail("verify", e);
    if ((e = oc_alltoall_schedule(&c->p, c->items, c->a.set[O_PERSONALIZED], NULL, &t, &lb)) != OC_OK)
      lib_fail("bound", e);
  }
  if (c->a.set[O_JSON]) {
    char *extra = NULL;
    size_t elen = 0;
    if (is(c, P_SUM) && cnt != NULL) { /* the contract's key for sum */
      FILE *m = open_memstream(&extra, &elen);
      if (m == NULL) die("out of memory");
      fprintf(m, ",\"operands\":%lld,\"operands_per_proc\":[", (long long)n);
      for (int64_t q = 0; q < c->p.P; q++) fprintf(m, "%s%lld", q ? "," : "", (long long)cnt[q]);
      fputc(']', m);
      if (fclose(m) != 0) die("out of memory");
    }
    json_head_v(stdout, c, "input", v.time, lb, v.ok);
    cli_json_verify_tail(s.n, &v, &c->p, extra);
    free(extra);
  } else if (v.ok) {
    printf("valid: %zu messages, completion time %s, lower bound %s (%s)\n",
           s.n, tfmt(b1, sizeof b1, c, v.time), tfmt(b2, sizeof b2, c, lb),
           v.time == lb ? "optimal" : "above the bound");
  }
  if (!v.ok) cli_print_violation(&v, c->a.set[O_JSON], "time ", &c->p);
  free(cnt);
  oc_sched_free(&s);
  return v.ok ? 0 : EXIT_CHECK;
}

/* ---- the commands ------------------------------------------------------------
 * One table: dispatch, the overview and each command's help come from it. */
enum { F_PROBLEM = 1, F_NEED_PROBLEM = 2, F_MODEL = 4, F_PREFIX = 8 };
typedef struct cli_command {
  const char *name;
  int (*run)(cli *c);
  unsigned bit, flags;
  const char *summary; /* one line */
  const char *usage;   /* the usage lines */
} cli_command;

static int cmd_compare(cli *c) { return run_compare(c); }
static int cmd_run(cli *c) { return cli_run_cmd(&c->a); }
static int cmd_measure(cli *c) { return cli_measure_cmd(&c->a); }
static int cmd_help(cli *c);

static const cli_command COMMANDS[] = {
    {"plan", cmd_plan, CMD_PLAN, F_PROBLEM | F_NEED_PROBLEM | F_MODEL,
     "build, verify and print a schedule",
     "usage: optcast plan PROBLEM [params] [--json | --csv]\n"},
    {"bound", cmd_bound, CMD_BOUND, F_PROBLEM | F_NEED_PROBLEM | F_MODEL,
     "the lower bound (and the best known time) alone",
     "usage: optcast bound PROBLEM [params] [--json]\n"},
    {"verify", cmd_verify, CMD_VERIFY, F_PROBLEM | F_MODEL,
     "check a --csv schedule from standard input",
     "usage: optcast verify [PROBLEM] [params] [--json] < schedule.csv\n"
     "       (PROBLEM defaults to bcast; exit 1 when the schedule breaks a rule)\n"},
    {"rank", cmd_rank, CMD_RANK, F_PROBLEM | F_MODEL, "one rank's own plan (bcast, reduce)",
     "usage: optcast rank [PROBLEM] --rank R [params] [--json]\n"},
    {"draw", cmd_draw, CMD_DRAW, F_PROBLEM | F_NEED_PROBLEM | F_MODEL,
     "the verified plan's pictures as an SVG",
     "usage: optcast draw PROBLEM [params] (--svg FILE | --format svg)\n"},
    {"report", cmd_report, CMD_REPORT, F_PROBLEM | F_NEED_PROBLEM | F_MODEL,
     "the verified plan as one HTML page",
     "usage: optcast report PROBLEM [params] (--html FILE | --format html)\n"},
    {"compare", cmd_compare, CMD_COMPARE, F_PROBLEM,
     "optcast's plan next to the MPI libraries' algorithms (LogP)",
     "usage: optcast compare bcast|allreduce [--preset NAME | --latency L --overhead o --gap g]\n"
     "               --procs P | --sweep procs=A..B[:STEP]  [--items m | --size B]\n"
     "               [--root r] [--segment s] [--json | --csv] [--svg FILE]\n"
     "       (--root, --segment: bcast only; --size: with --preset)\n"},
    {"run", cmd_run, CMD_RUN, F_PROBLEM | F_PREFIX,
     "run a collective on threads, check and time it",
     "usage: optcast run bcast|reduce|allreduce|allgather|scan|sum --procs P\n"
     "               [--count N | --size B] [--type T] [--op OP] [--root r] [--iters K]\n"
     "               [--params FILE] [--segment B] [--check] [--json]\n"},
    {"measure", cmd_measure, CMD_MEASURE, F_PREFIX,
     "measure the threads transport's LogP parameters",
     "usage: optcast measure [--procs P] [--sizes a,b,...] [--reps R] [--out FILE] [--json]\n"},
    {"help", cmd_help, CMD_HELP, F_PROBLEM, "this overview, or one command's help",
     "usage: optcast help [COMMAND]    (or: optcast COMMAND --help)\n"},
};
#define NCOMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

static const cli_command *find_command(const char *name) {
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (strcmp(COMMANDS[i].name, name) == 0) return &COMMANDS[i];
  return NULL;
}

static void overview(FILE *f) {
  fputs("usage: optcast COMMAND [PROBLEM] [options]\ncommands:\n", f);
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf(f, "  %-9s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
  fputs(MODEL_NOTES, f);
  fputs("'optcast help COMMAND' or 'optcast COMMAND --help': one command's options\n"
        "example: optcast plan bcast --procs 8 --latency 6 --overhead 2 --gap 4\n", f);
}

static void command_help(FILE *f, const cli_command *k) {
  fprintf(f, "optcast %s: %s\n%s", k->name, k->summary, k->usage);
  if (k->bit != CMD_HELP) cli_print_options(f, k->bit);
  if (k->flags & F_MODEL) fputs(MODEL_NOTES, f);
}

static int cmd_help(cli *c) {
  const cli_command *k;
  if (c->problem == NULL) {
    overview(stdout);
    return 0;
  }
  if ((k = find_command(c->problem)) == NULL)
    die("help: unknown command '%s' (see 'optcast help')", c->problem);
  command_help(stdout, k);
  return 0;
}

/* the checks every model command shares, then the model's own flow */
static int run_model(cli *c, const cli_command *k) {
  int except[1] = {O_SIZE};
  cli_refuse_untaken(&c->a, except, c->a.set[O_PARAMS] ? 1 : 0);
  check_problem(c, (k->flags & F_NEED_PROBLEM) != 0);
  check_output(c);
  if (c->a.set[O_KARP_BLOCK] && !is(c, P_CBCAST))
    die("--karp-block: only 'optcast plan cbcast --latency L --karp-block r' (got '%s' for %s)",
        c->a.val[O_KARP_BLOCK], c->problem);
  if (c->a.set[O_BUFFERED] && !is(c, P_CBCAST) && !is(c, P_KBCAST))
    die("--buffered: the buffered model (Karp et al. 3.5) is for cbcast and kbcast");
  if (is(c, P_CBCAST) || c->a.set[O_BUFFERED]) return run_cbcast(c);
  build_params(c);
  if (c->a.set[O_RANK] && k->bit != CMD_RANK)
    die("--rank: only meaningful with 'optcast rank'");
  if (c->a.set[O_CSV] && k->bit != CMD_PLAN)
    die("--csv: only 'optcast plan' prints a schedule");
  if (c->kport) return run_kport(c);
  if (c->rrp) return run_rrp(c);
  return k->run(c);
}

static int cli_run(int argc, char **argv, FILE *in) {
  cli c;
  const cli_command *k;
  memset(&c, 0, sizeof c);
  c.in = in;
  if (argc < 2) {
    overview(stderr);
    return EXIT_INPUT;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    overview(stdout);
    return 0;
  }
  if ((k = find_command(argv[1])) == NULL)
    die("unknown command '%s' (expected plan, bound, verify, rank, draw, report, compare, run or "
        "measure)", argv[1]);
  for (int i = 2; i < argc; i++) /* `optcast COMMAND ... --help`: its help, nothing else */
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      command_help(stdout, k);
      return 0;
    }
  c.cmd = k->name;
  c.argc = argc;
  c.argv = argv;
  cli_parse(&c.a, k->name, k->bit, (k->flags & F_PREFIX) ? (k->bit == CMD_RUN ? "run: " : "measure: ") : "",
            argc, argv, 2);
  c.problem = c.a.problem;
  if (k->flags & F_MODEL) return run_model(&c, k);
  return k->run(&c);
}

#ifdef OC_CLI_NO_MAIN
int oc_cli_fuzz(int argc, char **argv, FILE *in);
int oc_cli_fuzz(int argc, char **argv, FILE *in) {
  if (setjmp(cli_jmp)) return cli_code;
  return cli_run(argc, argv, in);
}
#else
/* Output that could not be written is an error, whatever the command:
 * exit 2 with one line, never a silent 0 (e.g. stdout on a full disk). */
int main(int argc, char **argv) {
  int rc = cli_run(argc, argv, stdin);
  if ((fflush(stdout) != 0 || ferror(stdout)) && rc != EXIT_INPUT) {
    fputs("optcast: cannot write to standard output\n", stderr);
    return EXIT_INPUT;
  }
  return rc;
}
#endif
