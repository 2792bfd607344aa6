/* cli_args.c - the command line's options as data: one table (name, value,
 * the commands that read and take it, help line, refusal text) and the one
 * parser every command uses.  Parsing only records what was given; the
 * commands check the values afterwards (docs/CLI.md). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define M CMD_MODEL
#define C CMD_COMPARE
#define R CMD_RUN
#define ME CMD_MEASURE
#define ALL (CMD_MODEL | CMD_COMPARE | CMD_RUN | CMD_MEASURE | CMD_HELP | CMD_VERSION)
#define NOT_COMPARE                                                                        \
  "not a parameter of 'optcast compare' (it takes --preset or --latency, --overhead, "    \
  "--gap; --procs or --sweep; --items or --size; bcast: --root, --segment)"
#define PB(x) (1u << (x))
#define COMPARE_ONLY "only meaningful with 'optcast compare' (or with --params)"

const cli_option CLI_OPTS[O_NOPTS] = {
    [O_MODEL] = {"model", 1, M | C, M | C, "M", "logp (default), postal, kport or rrp", NULL, 0,
                 0, NULL, 0, "logp postal kport rrp"},
    [O_PROCS] = {"procs", 1, M | C | R | ME, M | C | R | ME, "P",
                 "processors (run: threads; measure: ranks, default 2)", NULL, 0, 0, NULL, 0, NULL},
    [O_LATENCY] = {"latency", 1, M | C, M | C, "L", "LogP latency L: an integer, or with a unit (1.5us; postal: lambda)", NULL, 0,
                   0, NULL, CLI_NM_KPORT | CLI_NM_RRP, NULL},
    [O_OVERHEAD] = {"overhead", 1, M | C, M | C, "o", "LogP overhead o (a unit when L has one: 500ns)", NULL, 0, 0, NULL,
                    CLI_NM_KPORT | CLI_NM_RRP, NULL},
    [O_GAP] = {"gap", 1, M | C, M | C, "g", "LogP gap g, more than 0 (a unit when L has one: 0.3us)", NULL, 0, 0, NULL,
               CLI_NM_KPORT | CLI_NM_RRP, NULL},
    [O_LAMBDA] = {"lambda", 1, M | C, M, "X", "postal latency, X >= 1: 2.5 or 5/2", NOT_COMPARE,
                  0, 0, NULL, CLI_NM_KPORT | CLI_NM_RRP, NULL},
    [O_PORTS] = {"ports", 1, M | C, M, "k", "kport: ports per processor", NOT_COMPARE, 0, 0,
                 NULL, CLI_NM_RRP, NULL},
    [O_LINES] = {"lines", 1, M | C, M, "L", "rrp: bus lines", NOT_COMPARE, 0, 0, NULL,
                 CLI_NM_KPORT, NULL},
    [O_ITEMS] = {"items", 1, M | C, M | C, "m",
                 "items (bcast, reduce, allreduce in LogP: packets; kbcast, cbcast, alltoall; "
                 "compare: packets)", NULL,
                 PB(P_BCAST) | PB(P_ALLTOALL) | PB(P_KBCAST) | PB(P_CBCAST) | PB(P_REDUCE) |
                     PB(P_ALLREDUCE), 0,
                 "not a parameter of '%s'", CLI_NM_RRP, NULL},
    [O_OPERANDS] = {"operands", 1, M | C | R, M | R, "n", "sum: operands to add", NOT_COMPARE,
                    PB(P_SUM), 0, "only meaningful for 'sum'", CLI_NM_RRP, NULL},
    [O_ROOT] = {"root", 1, M | C | R, M | C | R, "r", "the root (default 0)", NULL, 0, 0, NULL,
                0, NULL},
    [O_ALGORITHM] = {"algorithm", 1, M | C | R, M | R, "NAME",
                     "the algorithm (per problem and model; default the best)", NOT_COMPARE, 0,
                     0, NULL, 0, NULL},
    [O_RANK] = {"rank", 1, M | C, CMD_RANK, "R", "rank: which processor's plan", NOT_COMPARE, 0,
                0, NULL, CLI_NM_KPORT | CLI_NM_RRP, NULL},
    [O_JSON] = {"json", 0, M | C | R | ME, M | C | R | ME, NULL, "one JSON object", NULL, 0, 0,
                NULL, 0, NULL},
    [O_CSV] = {"csv", 0, M | C, M | C, NULL, "plan: the schedule as CSV; compare: a table",
               NULL, 0, 0, NULL, 0, NULL},
    [O_QUIET] = {"quiet", 0, M | C, M | C, NULL, "no progress lines on stderr", NULL, 0, 0,
                 NULL, 0, NULL},
    [O_HELP] = {"help", 0, ALL, ALL, NULL, "this help", NULL, 0, 0, NULL, 0, NULL},
    [O_PERSONALIZED] = {"personalized", 0, M | C, M, NULL,
                        "alltoall: a distinct item per destination", NOT_COMPARE,
                        PB(P_ALLTOALL), 0, "only meaningful for 'alltoall'", CLI_NM_RRP, NULL},
    [O_COMMUTATIVE] = {"commutative", 0, M | C, M, NULL,
                       "reduce: fold cyclically from root + 1", NOT_COMPARE, PB(P_REDUCE), 0,
                       "only meaningful for 'reduce'", CLI_NM_RRP, NULL},
    [O_ORDERED] = {"ordered", 0, M | C, M, NULL,
                   "allreduce: rank order; verify reduce: require rank order", NOT_COMPARE,
                   PB(P_ALLREDUCE), PB(P_REDUCE),
                   "only meaningful for 'allreduce' and 'optcast verify reduce'", CLI_NM_RRP, NULL},
    [O_COUNTS] = {"counts", 1, M | C, M, "c0,c1,...", "verify sum: operands per processor",
                  NOT_COMPARE, 0, PB(P_SUM), "only meaningful for 'optcast verify sum'",
                  CLI_NM_RRP, NULL},
    [O_DEGREE] = {"degree", 1, M | C, M, "d", "kbcast dtree: the tree's degree", NOT_COMPARE,
                  PB(P_KBCAST), 0, "only meaningful for 'kbcast'", CLI_NM_KPORT | CLI_NM_RRP, NULL},
    [O_SVG] = {"svg", 1, M | C, M | C, "FILE", "draw, compare: write the SVG to FILE", NULL, 0,
               0, NULL, 0, NULL},
    [O_HTML] = {"html", 1, M | C, M, "FILE", "report: write the HTML page to FILE", NOT_COMPARE,
                0, 0, NULL, 0, NULL},
    [O_FORMAT] = {"format", 1, M | C, M, "svg|html", "draw, report: to standard output",
                  NOT_COMPARE, 0, 0, NULL, 0, "svg html"},
    [O_PRESET] = {"preset", 1, M | C, M | C, "NAME",
                  "published LogP parameters: cm5, ib-tukey, loggopsim, atlahs", NULL, 0, 0,
                  NULL, CLI_NM_RRP, "cm5 ib-tukey loggopsim atlahs"},
    [O_SIZE] = {"size", 1, M | C | R, C | R, "B",
                "bytes (compare with --preset, run; with --params)", COMPARE_ONLY, 0, 0, NULL,
                0, NULL},
    [O_SWEEP] = {"sweep", 1, M | C, C, "procs=A..B[:S]", "compare: a range of P", COMPARE_ONLY,
                 0, 0, NULL, 0, NULL},
    [O_SEGMENT] = {"segment", 1, M | C | R, C | R, "s",
                   "compare bcast: the pipeline's segment; run: segment bytes", COMPARE_ONLY, 0,
                   0, NULL, 0, NULL},
    [O_SEGMENTS] = {"segments", 1, M | C, M, "0,s1,...", "rrp: the blocks' first processors",
                    NOT_COMPARE, 0, 0, NULL, 0, NULL},
    [O_PARAMS] = {"params", 1, M | C | R, M | R, "FILE",
                  "measured LogP parameters (optcast measure --out)", NOT_COMPARE, 0, 0, NULL,
                  CLI_NM_KPORT | CLI_NM_RRP, NULL},
    [O_BUFFERED] = {"buffered", 0, M | C, M, NULL,
                    "cbcast, kbcast: the buffered postal model (Karp et al. 3.5)", NOT_COMPARE,
                    0, 0, NULL, 0, NULL},
    [O_KARP_BLOCK] = {"karp-block", 1, M | C, M, "r",
                      "plan cbcast: Theorem 3.7's table of one r-block", NOT_COMPARE, 0, 0,
                      NULL, 0, NULL},
    [O_COUNT] = {"count", 1, R, R, "N", "elements per rank (default 1000)", NULL, 0, 0, NULL,
                 0, NULL},
    [O_TYPE] = {"type", 1, R, R, "T", "int8..int64, uint8..uint64, float, double, byte", NULL,
                0, 0, NULL, 0, "int8 int16 int32 int64 uint8 uint16 uint32 uint64 float double byte"},
    [O_OP] = {"op", 1, R, R, "OP", "sum prod min max band bor bxor land lor", NULL, 0, 0, NULL,
              0, "sum prod min max band bor bxor land lor"},
    [O_ITERS] = {"iters", 1, R, R, "K", "iterations (default 10)", NULL, 0, 0, NULL, 0, NULL},
    [O_CHECK] = {"check", 0, R, R, NULL, "the runtime checks every step", NULL, 0, 0, NULL, 0, NULL},
    [O_TIMEOUT] = {"timeout", 1, R, R, "MS", "give up after MS milliseconds", NULL, 0, 0, NULL,
                   0, NULL},
    [O_TRANSPORT] = {"transport", 1, R | ME, R | ME, "threads", "the transport", NULL, 0, 0,
                     NULL, 0, "threads"},
    [O_SIZES] = {"sizes", 1, ME, ME, "a,b,...", "message sizes in bytes, ascending", NULL, 0, 0,
                 NULL, 0, NULL},
    [O_REPS] = {"reps", 1, ME, ME, "R", "repetitions per size (default 20)", NULL, 0, 0, NULL,
                0, NULL},
    [O_ROUNDS] = {"rounds", 1, ME, ME, "K",
                  "rounds of the whole measurement (default 3): medians kept, spread shown", NULL,
                  0, 0, NULL, 0, NULL},
    [O_OUT] = {"out", 1, ME, ME, "FILE", "write the parameter file", NULL, 0, 0, NULL, 0, NULL},
    [O_FORCE] = {"force", 0, M | C, M, NULL,
                 "plan a schedule past the memory limit (half the machine's memory)",
                 NOT_COMPARE, 0, 0, NULL, 0, NULL},
    [O_MAN] = {"man", 0, CMD_HELP, CMD_HELP, NULL, "help: the manual page optcast(1), as roff",
               NULL, 0, 0, NULL, 0, NULL},
    [O_COMPLETION] = {"completion", 1, CMD_HELP, CMD_HELP, "bash|zsh",
                      "help: a completion script for the shell", NULL, 0, 0, NULL, 0,
                      "bash zsh"},
};

/* The edit distance of a and b (insertions, deletions, substitutions and
 * swaps of neighbours, each 1), or more than `limit` when it exceeds it. */
static size_t distance(const char *a, const char *b, size_t limit) {
  size_t na = strlen(a), nb = strlen(b), row[3][64];
  if (na >= 63 || nb >= 63) return limit + 1;
  if ((na > nb ? na - nb : nb - na) > limit) return limit + 1;
  for (size_t j = 0; j <= nb; j++) row[0][j] = j;
  for (size_t i = 1; i <= na; i++) {
    size_t *cur = row[i % 3], *up = row[(i - 1) % 3], *up2 = row[(i + 1) % 3];
    cur[0] = i;
    for (size_t j = 1; j <= nb; j++) {
      size_t d = up[j - 1] + (a[i - 1] != b[j - 1]);
      if (up[j] + 1 < d) d = up[j] + 1;
      if (cur[j - 1] + 1 < d) d = cur[j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && up2[j - 2] + 1 < d)
        d = up2[j - 2] + 1;
      cur[j] = d;
    }
  }
  return row[na % 3][nb];
}

const char *cli_nearest(const char *word, const char *const *cand, size_t n) {
  size_t len = strlen(word), best = 3, limit;
  const char *near = NULL;
  if (len == 0) return NULL;
  limit = (len + 1) / 2 < 2 ? (len + 1) / 2 : 2;
  for (size_t i = 0; i < n; i++) {
    size_t d = distance(word, cand[i], limit), cl = strlen(cand[i]);
    /* a shortened name ("--proc", "meas") is near what it begins */
    if (d > limit && len >= 3 && len < cl && strncmp(word, cand[i], len) == 0) d = limit;
    if (d <= limit && d < best) {
      best = d;
      near = cand[i];
    }
  }
  return near;
}

/* "unknown option '--x'" for command bit: the nearest of its options
 * (did you mean), or the commands that do read it */
static _Noreturn void unknown_option(const char *prefix, const char *arg, const char *s,
                                     size_t n, unsigned bit) {
  const char *names[O_NOPTS], *near;
  char word[64];
  size_t k = 0;
  for (int o = 0; o < O_NOPTS; o++)
    if (CLI_OPTS[o].cmds & bit) names[k++] = CLI_OPTS[o].name;
  snprintf(word, sizeof word, "%.*s", (int)(n < 63 ? n : 63), s);
  if ((near = cli_nearest(word, names, k)) != NULL)
    cli_die("%sunknown option '%s' (did you mean '--%s'?)", prefix, arg, near);
  for (int o = 0; o < O_NOPTS; o++)
    if (strlen(CLI_OPTS[o].name) == n && strncmp(CLI_OPTS[o].name, s, n) == 0) {
      unsigned c = CLI_OPTS[o].cmds;
      cli_die("%sunknown option '%s' (an option of 'optcast %s')", prefix, arg,
              c & CMD_PLAN ? "plan" : c & CMD_COMPARE ? "compare" : c & CMD_RUN ? "run"
              : c & CMD_MEASURE ? "measure" : "help");
    }
  cli_die("%sunknown option '%s'", prefix, arg);
}

/* the option named by s[0..n) that command bit reads, or -1 */
static int find(const char *s, size_t n, unsigned bit) {
  for (int o = 0; o < O_NOPTS; o++)
    if ((CLI_OPTS[o].cmds & bit) && strlen(CLI_OPTS[o].name) == n &&
        strncmp(CLI_OPTS[o].name, s, n) == 0)
      return o;
  return -1;
}

/* "--name" or "--name=..." of an option the command reads */
static int is_option(const char *s, unsigned bit) {
  if (strncmp(s, "--", 2) != 0) return 0;
  s += 2;
  return find(s, strcspn(s, "="), bit) >= 0;
}

int cli_wants_help(unsigned bit, int argc, char **argv, int first) {
  for (int i = first; i < argc; i++) {
    const char *s = argv[i];
    int o;
    if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) return 1;
    if (strncmp(s, "--", 2) != 0 || strchr(s, '=') != NULL) continue;
    /* an option's value is a value, even "-h" (as cli_parse reads it) */
    if ((o = find(s + 2, strlen(s + 2), bit)) >= 0 && CLI_OPTS[o].arg && i + 1 < argc &&
        !is_option(argv[i + 1], bit))
      i++;
  }
  return 0;
}

void cli_parse(cli_args *a, const char *cmd, unsigned bit, const char *prefix, int argc,
               char **argv, int first) {
  memset(a, 0, sizeof *a);
  a->cmd = cmd;
  a->bit = bit;
  for (int i = first; i < argc; i++) {
    const char *s = argv[i], *eq;
    size_t n;
    int o;
    if (strncmp(s, "--", 2) != 0) {
      if (a->problem == NULL && s[0] != '-') {
        a->problem = s;
        continue;
      }
      cli_die("%sunexpected argument '%s'", prefix, s);
    }
    s += 2;
    eq = strchr(s, '=');
    n = eq ? (size_t)(eq - s) : strlen(s);
    if ((o = find(s, n, bit)) < 0) unknown_option(prefix, argv[i], s, n, bit);
    if (a->set[o]) cli_die("--%s given twice", CLI_OPTS[o].name);
    a->set[o] = 1;
    if (!CLI_OPTS[o].arg) {
      if (eq) cli_die("--%s takes no value", CLI_OPTS[o].name);
      continue;
    }
    if (eq) {
      a->val[o] = eq + 1;
    } else if (i + 1 < argc && !is_option(argv[i + 1], bit)) {
      a->val[o] = argv[++i];
    } else if (i + 1 < argc) {
      cli_die("--%s: missing value (the next argument, '%s', is an option)", CLI_OPTS[o].name,
              argv[i + 1]);
    } else {
      cli_die("--%s: missing value", CLI_OPTS[o].name);
    }
    if (a->val[o][0] == '\0') cli_die("--%s: empty value", CLI_OPTS[o].name);
  }
}

void cli_refuse_untaken(const cli_args *a, const int *except, size_t nexcept) {
  for (int o = 0; o < O_NOPTS; o++) {
    int skip = 0;
    for (size_t k = 0; k < nexcept; k++) skip |= except[k] == o;
    if (a->set[o] && !skip && !(CLI_OPTS[o].takes & a->bit))
      cli_die("--%s: %s", CLI_OPTS[o].name, CLI_OPTS[o].refusal);
  }
}

void cli_print_options(FILE *f, unsigned bit) {
  fputs("options:\n", f);
  for (int o = 0; o < O_NOPTS; o++) {
    char head[64];
    if (!(CLI_OPTS[o].takes & bit)) continue;
    snprintf(head, sizeof head, "--%s%s%s", CLI_OPTS[o].name, CLI_OPTS[o].value ? " " : "",
             CLI_OPTS[o].value ? CLI_OPTS[o].value : "");
    fprintf(f, "  %-24s %s\n", head, CLI_OPTS[o].help);
  }
}

void cli_refuse_for_problem(const cli_args *a, unsigned pbit, const char *problem) {
  for (int o = 0; o < O_NOPTS; o++) {
    const cli_option *t = &CLI_OPTS[o];
    const char *at;
    if (!a->set[o] || t->prefusal == NULL || (t->problems & pbit) ||
        ((t->vproblems & pbit) && a->bit == CMD_VERIFY))
      continue;
    if ((at = strstr(t->prefusal, "%s")) == NULL) cli_die("--%s: %s", t->name, t->prefusal);
    cli_die("--%s: %.*s%s%s", t->name, (int)(at - t->prefusal), t->prefusal, problem, at + 2);
  }
}

void cli_refuse_for_model(const cli_args *a, unsigned model, const char *text) {
  for (int o = 0; o < O_NOPTS; o++)
    if (a->set[o] && (CLI_OPTS[o].refused_by & model)) cli_die("--%s: %s", CLI_OPTS[o].name, text);
}
