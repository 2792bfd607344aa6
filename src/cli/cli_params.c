/* cli_params.c - the option values of the commands that plan one model's
 * schedule: integers and latencies, the problem (looked up once), the
 * output options, and the LogP and postal parameters (the other models
 * read theirs in their rows: cli_kport.c, cli_rrp.c, cli_cbcast.c).  A bad
 * value dies with one line naming the option (exit 2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "optcast_rt.h"

#define CLI_PARAMS_UNIT_NS 10.0 /* --params: the model unit is 10 ns */

const cli_problem CLI_PROBLEMS[P_NPROBLEMS] = {
    [P_BCAST] = {"bcast", "karp", OC_PROB_BCAST},
    [P_KBCAST] = {"kbcast", "best", OC_PROB_KBCAST},
    [P_CBCAST] = {"cbcast", "block-cyclic", -1},
    [P_ALLTOALL] = {"alltoall", "karp-ring", OC_PROB_ALLTOALL},
    [P_ALLREDUCE] = {"allreduce", "karp-circulant", OC_PROB_ALLREDUCE},
    [P_REDUCE] = {"reduce", "karp-reduction", OC_PROB_REDUCE},
    [P_SUM] = {"sum", "karp-summation", OC_PROB_SUM},
    [P_SCAN] = {"scan", NULL, -1},
};

int64_t cli_need_int(const cli *c, int o, int64_t lo, int64_t hi) {
  int64_t v;
  int e = oc_parse_int(c->a.val[o], lo, hi, &v);
  if (e == OC_EPARSE)
    die("--%s: '%s' is not an integer", CLI_OPTS[o].name, c->a.val[o]);
  if (e != OC_OK)
    die("--%s: must be an integer from %lld to %lld, got '%s'", CLI_OPTS[o].name,
        (long long)lo, (long long)hi, c->a.val[o]);
  return v;
}

void cli_parse_lambda(const cli *c, int o, int64_t *num, int64_t *den) {
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

const char *cli_params_whole_file(int e, int line) {
  if (e == OC_EPARSE && line == 0)
    return "has no parameter rows (write one with 'optcast measure --out FILE')";
  if (e == OC_ERANGE && line == 0) return "is larger than a parameter file can be (1 MiB)";
  return NULL;
}

/* ---- LogP parameters with units ---------------------------------------------------- */
static const struct {
  const char *name;
  int exp; /* 10^exp picoseconds */
} UNITS[] = {{"s", 12}, {"ms", 9}, {"us", 6}, {"\xc2\xb5s", 6}, {"ns", 3}, {"ps", 0}};

/* "1.5us" as picoseconds in *ps and its unit's index in *u; 0 when the
 * value has no unit (an integer in model units, or bad input that
 * cli_need_int reports) */
static int with_unit(const char *name, const char *v, int64_t *ps, int *u) {
  const char *q = v;
  int64_t digits = 0, frac = 0;
  int seen = 0, dot = 0;
  if (*q == '-' && strpbrk(q, "mnpu\xc2s") != NULL)
    die("--%s: must not be negative, got '%s'", name, v);
  for (; (*q >= '0' && *q <= '9') || (*q == '.' && !dot); q++) {
    if (*q == '.') {
      dot = 1;
      continue;
    }
    if (digits > (INT64_MAX - 9) / 10)
      die("--%s: '%s' has too many digits", name, v);
    digits = digits * 10 + (*q - '0');
    frac += dot;
    seen = 1;
  }
  if (*q == ' ') q++; /* "1.5 us" */
  for (int k = 0; k < (int)(sizeof UNITS / sizeof UNITS[0]); k++)
    if (strcmp(q, UNITS[k].name) == 0) {
      int64_t scale = 1;
      if (!seen) die("--%s: '%s' has a unit but no number", name, v);
      if (frac > UNITS[k].exp) { /* finer than a picosecond: only zeros may follow */
        for (int64_t i = 0; i < frac - UNITS[k].exp; i++) {
          if (digits % 10 != 0)
            die("--%s: '%s' is finer than a picosecond", name, v);
          digits /= 10;
        }
        frac = UNITS[k].exp;
      }
      for (int64_t i = 0; i < UNITS[k].exp - frac; i++) scale *= 10;
      if (digits > OC_PARAM_MAX * (int64_t)1000000 / scale) /* more than ~1.1e18 ps */
        die("--%s: '%s' is too large", name, v);
      *ps = digits * scale;
      *u = k;
      return 1;
    }
  if (*q != '\0' && q != v && ((q[-1] >= '0' && q[-1] <= '9') || q[-1] == '.' || q[-1] == ' '))
    die("--%s: '%s': unknown unit '%s' (write s, ms, us, ns or ps, e.g. 1.5us)",
        name, v, q);
  return 0;
}

int cli_units_parse(const char *const vals[3], int64_t out[3], const char **uname,
                    int64_t *unit_ps, int64_t *model_ps) {
  static const char *const names[3] = {"latency", "overhead", "gap"};
  int64_t ps[3], gu;
  int u[3], has[3], n = 0, first;
  for (int i = 0; i < 3; i++) n += has[i] = with_unit(names[i], vals[i], &ps[i], &u[i]);
  if (n == 0) return 0;
  first = has[0] ? 0 : has[1] ? 1 : 2;
  for (int i = 0; i < 3; i++)
    if (!has[i])
      die("--%s: '%s' has no unit, but --%s '%s' has one (give all three with units, or "
          "none)", names[i], vals[i], names[first], vals[first]);
  if (ps[2] == 0) die("--gap: must be more than 0, got '%s'", vals[2]);
  *unit_ps = 1;
  for (int k = 0; k < UNITS[u[0]].exp; k++) *unit_ps *= 10;
  /* the model's unit: the largest that measures L, o, g and the print unit */
  gu = oc_gcd(oc_gcd(oc_gcd(ps[0], ps[1]), ps[2]), *unit_ps);
  for (int i = 0; i < 3; i++) {
    out[i] = ps[i] / gu;
    if (out[i] > OC_PARAM_MAX)
      die("--%s: '%s' is %lld times the model's unit of %lld ps, more than %lld (the model's "
          "integers stop there: round the smaller values to fewer digits)", names[i], vals[i], (long long)out[i],
          (long long)gu, (long long)OC_PARAM_MAX);
  }
  *uname = UNITS[u[0]].name;
  *model_ps = gu;
  return 1;
}

void cli_logp_values(cli *c, int64_t *L, int64_t *o, int64_t *g) {
  const char *vals[3] = {c->a.val[O_LATENCY], c->a.val[O_OVERHEAD], c->a.val[O_GAP]};
  int64_t out[3];
  if (!cli_units_parse(vals, out, &c->tunit, &c->tunit_ps, &c->model_ps)) {
    *L = cli_need_int(c, O_LATENCY, 0, OC_PARAM_MAX); /* integers in the model's unit */
    *o = cli_need_int(c, O_OVERHEAD, 0, OC_PARAM_MAX);
    *g = cli_need_int(c, O_GAP, 1, OC_PARAM_MAX);
    return;
  }
  *L = out[0];
  *o = out[1];
  *g = out[2];
}

const char *cli_unit_suffix(const cli *c) {
  static char b[16];
  if (c->tunit == NULL) return "";
  snprintf(b, sizeof b, " %s", c->tunit);
  return b;
}

const char *cli_problem_alg(const cli *c) {
  if (c->id == P_ALLREDUCE && c->a.set[O_ORDERED]) return "reduce-then-bcast";
  return CLI_PROBLEMS[c->id].alg;
}

size_t cli_parse_segments(const cli *c, int64_t *out) {
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

int64_t *cli_parse_counts(const cli *c, int64_t n) {
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

/* The memory a one-packet LogP/postal schedule takes while it is built and
 * verified, bytes a unit (measured: plan bcast at P = 10^7 peaks at 588 MB,
 * 59 bytes a message; reduce at 10^6 483 MB; sum 229 MB; alltoall at 1000
 * 80 MB for 10^6 messages), rounded up; 0 where no estimate is kept (the
 * multi-packet problems have their own P x m limits). */
int64_t cli_plan_bytes(const cli *c) {
  int64_t P = c->p.P;
  if (c->p.model != OC_MODEL_LOGP && c->p.model != OC_MODEL_POSTAL) return 0;
  if ((is(c, P_BCAST) || is(c, P_REDUCE) || is(c, P_ALLREDUCE)) && c->items > 1) return 0;
  if (is(c, P_BCAST)) return oc_mul_sat(64, P);
  if (is(c, P_REDUCE)) return oc_mul_sat(512, P);
  if (is(c, P_SUM)) return oc_mul_sat(256, P);
  if (is(c, P_ALLTOALL)) { /* (past 2^26 messages the planner refuses it itself) */
    int64_t msgs = oc_mul_sat(oc_mul_sat(P, P - 1), c->items);
    return msgs > ((int64_t)1 << 26) ? 0 : oc_mul_sat(96, msgs);
  }
  return 0;
}

/* half the machine's memory (8 GiB when it cannot be read), or
 * OPTCAST_PLAN_MEMORY_MB; *why says which */
static int64_t plan_bytes_limit(const char **why) {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  const char *env = getenv("OPTCAST_PLAN_MEMORY_MB");
  int64_t mb;
  if (env != NULL && oc_parse_int(env, 1, (int64_t)1 << 40, &mb) == OC_OK) {
    *why = "OPTCAST_PLAN_MEMORY_MB";
    return oc_mul_sat(mb, 1000000);
  }
  *why = "half this machine's memory";
  if (pages <= 0 || size <= 0) return (int64_t)8 << 30;
  return oc_mul_sat((int64_t)pages, (int64_t)size) / 2;
}

void cli_check_plan_size(const cli *c) {
  const char *why = NULL;
  int64_t need = cli_plan_bytes(c), limit = plan_bytes_limit(&why);
  if (c->p.P > OC_GLOBAL_PROCS_MAX)
    die("--procs: %lld is too large for a global schedule (at most %lld); "
        "'optcast bound' and 'optcast rank' take up to 2^62",
        (long long)c->p.P, (long long)OC_GLOBAL_PROCS_MAX);
  if (need > limit && !c->a.set[O_FORCE])
    die("--procs: the %s schedule for P=%lld needs about %.1f GB, more than the limit of "
        "%.1f GB (%s); 'optcast bound' and 'optcast rank' need none (--force: try anyway)",
        c->problem, (long long)c->p.P, (double)need / 1e9, (double)limit / 1e9, why);
}

int64_t cli_operands(const cli *c) {
  if (!c->a.set[O_OPERANDS]) die("missing --operands (how many operands to sum)");
  /* times (about n additions at one processor) stay within 2^60 units */
  return cli_need_int(c, O_OPERANDS, 1, OC_TIME_MAX / c->p.unit);
}

void cli_lib_fail(const char *what, int e) {
  if (e == OC_EUNSUP)
    die("--procs: %s: with parameters this large the planner takes at most "
        "2^30 processors (see docs/ALGORITHMS.md)", what);
  die("--procs: %s: %s", what, oc_strerror(e));
}

void cli_check_problem(cli *c, int required) {
  size_t i;
  if (c->problem == NULL) {
    if (required) die("missing PROBLEM (e.g. 'optcast %s bcast ...')", c->cmd);
    c->problem = "bcast";
  }
  for (i = 0; i < P_NPROBLEMS; i++)
    if (strcmp(c->problem, CLI_PROBLEMS[i].name) == 0) break;
  if (i == P_NPROBLEMS)
    die("unknown problem '%s' (expected bcast, kbcast, cbcast, alltoall, "
        "allreduce, reduce, sum or scan)",
        c->problem);
  c->id = (cli_pid)i;
  if (is(c, P_SCAN) && !(c->a.val[O_MODEL] && strcmp(c->a.val[O_MODEL], "rrp") == 0))
    die("problem 'scan' is implemented for --model rrp only");
  cli_refuse_for_problem(&c->a, 1u << c->id, c->problem);
  if (c->a.bit == CMD_RANK && !is(c, P_BCAST) && !is(c, P_REDUCE) && !is(c, P_ALLREDUCE) &&
      !is(c, P_KBCAST))
    die("rank: the per-rank view is available for bcast, reduce, allreduce and kbcast "
        "(postal lambda 1)");
}

void cli_check_output(const cli *c) {
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

/* the model's row, then its parameters */
void cli_build_model(cli *c) {
  const char *model = c->a.val[O_MODEL];
  if (model == NULL) model = c->a.set[O_LAMBDA] ? "postal" : "logp";
  if (strcmp(model, "rrp") == 0) {
    c->row = &CLI_ROW_RRP;
  } else {
    if (c->a.set[O_SEGMENTS]) die("--segments: only meaningful with --model rrp");
    if (strcmp(model, "logp") != 0 && strcmp(model, "postal") != 0 &&
        strcmp(model, "kport") != 0)
      die("--model: unknown model '%s' (expected logp, postal, kport or rrp)", model);
    c->row = strcmp(model, "kport") == 0 ? &CLI_ROW_KPORT : &CLI_ROW_LOGP;
  }
  c->row->build(c);
}

/* --model logp or postal */
void cli_build_logp(cli *c) {
  const char *model = c->a.val[O_MODEL];
  int64_t P;
  if (model == NULL) model = c->a.set[O_LAMBDA] ? "postal" : "logp";
  if (c->a.set[O_PORTS]) die("--ports: only meaningful with --model kport");
  if (c->a.set[O_LINES]) die("--lines: only meaningful with --model rrp");
  if (!c->a.set[O_PROCS]) die("missing --procs (number of processors)");
  P = cli_need_int(c, O_PROCS, 1, OC_PROCS_MAX);
  if (strcmp(model, "logp") == 0) {
    int64_t L, o, g;
    if (c->a.set[O_LAMBDA]) die("--lambda: only meaningful with --model postal");
    if (c->a.set[O_PARAMS] && c->a.set[O_PRESET])
      die("--params: conflicts with --preset; give one or the other");
    if (c->a.set[O_PARAMS]) { /* measured parameters (optcast measure) at --size bytes */
      oc_rtparams rp;
      int line = 0, e;
      int64_t bytes = c->a.set[O_SIZE] ? cli_need_int(c, O_SIZE, 1, (int64_t)1 << 40) : 8;
      if (c->a.set[O_LATENCY] || c->a.set[O_OVERHEAD] || c->a.set[O_GAP])
        die("--%s: conflicts with --params %s; give one or the other",
            c->a.set[O_LATENCY] ? "latency" : c->a.set[O_OVERHEAD] ? "overhead" : "gap",
            c->a.val[O_PARAMS]);
      e = oc_rtparams_read(c->a.val[O_PARAMS], &rp, &line);
      if (e == OC_EIO) die("--params: cannot read '%s'", c->a.val[O_PARAMS]);
      if (cli_params_whole_file(e, line) != NULL)
        die("--params: '%s' %s", c->a.val[O_PARAMS], cli_params_whole_file(e, line));
      if (e) die("--params: %s line %d: %s", c->a.val[O_PARAMS], line, oc_strerror(e));
      if (bytes > rp.bytes[rp.nrows - 1]) { /* say so: text on stderr, JSON in the head */
        c->params_past = rp.bytes[rp.nrows - 1];
        if (!c->a.set[O_JSON])
          fprintf(stderr, "optcast: note: --size %lld is past the largest size measured in %s "
                  "(%lld bytes): the parameters there are extrapolated\n", (long long)bytes,
                  c->a.val[O_PARAMS], (long long)c->params_past);
      }
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
    cli_logp_values(c, &L, &o, &g);
    }
    if (L + 2 * o < 1 && c->tunit != NULL)
      die("--latency, --overhead: L + 2o must be more than 0, got L=%s o=%s",
          c->a.val[O_LATENCY], c->a.val[O_OVERHEAD]);
    if (L + 2 * o < 1)
      die("--latency, --overhead: L + 2o must be at least 1, got L=%lld o=%lld",
          (long long)L, (long long)o);
    if (oc_params_logp(&c->p, P, L, o, g) != OC_OK)
      die("--procs: invalid parameter set");
    if (c->tunit != NULL) { /* model units per printed unit: exact, a divisor of 10^12 */
      c->p.unit = c->tunit_ps / c->model_ps;
      if (oc_params_check(&c->p) != OC_OK) die("--latency: invalid parameter set");
    }
    if (c->tunit != NULL && is(c, P_SUM) && c->p.o % c->p.unit != 0)
      die("--overhead: sum needs o to be a whole number of additions; with units an "
          "addition takes 1 %s (one unit of --latency) and o = %s is not (write the three "
          "values in a finer unit, e.g. ns)", c->tunit, c->a.val[O_OVERHEAD]);
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
    cli_parse_lambda(c, which, &num, &den);
    if (c->a.set[O_LAMBDA] && c->a.set[O_LATENCY]) {
      int64_t n2, d2;
      cli_parse_lambda(c, O_LATENCY, &n2, &d2);
      if (n2 != num || d2 != den)
        die("--latency: '%s' differs from --lambda '%s' (they mean the same)",
            c->a.val[O_LATENCY], c->a.val[O_LAMBDA]);
    }
    if (oc_params_postal(&c->p, P, num, den) != OC_OK)
      die("--lambda: invalid value '%s'", c->a.val[which]);
  }
  c->root = c->a.set[O_ROOT] ? cli_need_int(c, O_ROOT, 0, P - 1) : 0;
  c->items = c->a.set[O_ITEMS] ? cli_need_int(c, O_ITEMS, 1, INT32_MAX) : 1;
  c->alg = OC_BCAST_KARP;
  c->malg = OC_MB_BEST;
#ifdef OC_CLI_NO_MAIN /* the fuzzing build: small searches */
  if ((is(c, P_BCAST) || is(c, P_REDUCE) || is(c, P_ALLREDUCE)) && c->items > 1 &&
      c->items > 4096 / P)
    die("--items: this build plans at most P*m = 4096 packets, got P=%lld m=%lld",
        (long long)P, (long long)c->items);
#endif
  if (is(c, P_BCAST) && c->items > 1) { /* m packets: LogP only */
    if (c->p.model == OC_MODEL_POSTAL) die("%s", BCAST_ONE_ITEM);
    if (c->a.set[O_ALGORITHM] && strcmp(c->a.val[O_ALGORITHM], "best") != 0 &&
        oc_mbcast_alg_parse(c->a.val[O_ALGORITHM], &c->malg) != OC_OK)
      die("--algorithm: unknown algorithm '%s' for bcast of %lld packets (expected karp, "
          "chain, binary, binomial, two-tree, multi-tree, split-binary, scatter-rd, "
          "scatter-ring, rarest-first, circulant-bcast or best)", c->a.val[O_ALGORITHM],
          (long long)c->items);
  } else if ((is(c, P_REDUCE) || is(c, P_ALLREDUCE)) && c->items > 1) { /* vectors */
    if (c->p.model != OC_MODEL_LOGP)
      die("--items: %s of %lld packets is planned in the LogP model (give --latency, "
          "--overhead, --gap)", c->problem, (long long)c->items);
    if (c->a.set[O_ORDERED])
      die("--ordered: the %lld-packet %s is planned for commutative operators only",
          (long long)c->items, c->problem);
    if (c->a.bit == CMD_DRAW || c->a.bit == CMD_REPORT)
      die("--items: %s draws one-packet %s schedules; for %lld packets use 'optcast plan "
          "%s --items %lld --csv'", c->cmd, c->problem, (long long)c->items, c->problem,
          (long long)c->items);
    if (c->a.set[O_ALGORITHM] && strcmp(c->a.val[O_ALGORITHM], "best") != 0 &&
        oc_mbcast_alg_parse(c->a.val[O_ALGORITHM], &c->malg) != OC_OK)
      die("--algorithm: unknown algorithm '%s' for %s of %lld packets (a broadcast "
          "construction run backwards: karp, chain, binary, binomial, two-tree, multi-tree, "
          "split-binary, scatter-rd, scatter-ring, rarest-first, circulant-bcast; or best)",
          c->a.val[O_ALGORITHM],
          c->problem, (long long)c->items);
  } else if (c->a.set[O_ALGORITHM] && is(c, P_BCAST) &&
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
          "pipeline, dtree, cyclic, greedy, circulant or best)", c->a.val[O_ALGORITHM]);
    if (c->kalg == OC_KB_CIRCULANT && c->p.L != c->p.g)
      die("--algorithm: circulant needs --lambda 1, got %lld/%lld", (long long)c->p.lam_num,
          (long long)c->p.lam_den);
    if (c->kalg == OC_KB_GREEDY && c->p.P > 128)
      die("--procs: greedy takes at most 128 processors, got %lld", (long long)c->p.P);
    if (c->kalg == OC_KB_GREEDY && c->a.set[O_ITEMS] && c->items > 128)
      die("--items: greedy takes at most 128 items, got %lld", (long long)c->items);
    if (c->kalg == OC_KB_CYCLIC && (c->p.L + c->p.g - 1) / c->p.g > OC_CBCAST_L_MAX)
      die("--lambda: cyclic takes at most %d, got %lld/%lld", OC_CBCAST_L_MAX,
          (long long)c->p.lam_num, (long long)c->p.lam_den);
    if (c->kalg == OC_KB_CYCLIC && c->p.P > OC_CBCAST_PROCS_MAX)
      die("--procs: cyclic takes at most %lld processors, got %lld",
          (long long)OC_CBCAST_PROCS_MAX, (long long)c->p.P);
    if (c->a.set[O_DEGREE] && c->kalg != OC_KB_DTREE)
      die("--degree: only meaningful with --algorithm dtree");
    c->degree = c->a.set[O_DEGREE] ? cli_need_int(c, O_DEGREE, 1, c->p.P > 1 ? c->p.P - 1 : 1) : 0;
  } else if (c->a.set[O_ALGORITHM] && !is(c, P_BCAST) &&
      !((is(c, P_REDUCE) || is(c, P_ALLREDUCE)) && c->items > 1) &&
      strcmp(c->a.val[O_ALGORITHM], "optimal") != 0 &&
      strcmp(c->a.val[O_ALGORITHM], "best") != 0 &&
      strcmp(c->a.val[O_ALGORITHM], cli_problem_alg(c)) != 0)
    die("--algorithm: unknown algorithm '%s' for %s (expected %s or optimal)",
        c->a.val[O_ALGORITHM], c->problem, cli_problem_alg(c));
}

