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

#include "cli.h"

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
  CLI_EXIT(CLI_EXIT_INPUT);
}

void cli_exit(int x) { CLI_EXIT(x); }


/* What PROBLEM and the model parameters are: the help of the commands that
 * plan one model's schedule. */
const char CLI_MODEL_NOTES[] =
    "PROBLEM: bcast kbcast cbcast sum reduce allreduce alltoall scan (rrp)\n"
    "params:  --model logp|postal|kport|rrp  --procs P  --root r  --algorithm NAME\n"
    "         logp:   --latency L --overhead o --gap g   (integers, in the model's unit; or all\n"
    "                 three with units: 1.5us 500ns 0.3us - s ms us ns ps - times then print in\n"
    "                 the unit of --latency), or --preset cm5|ib-tukey|loggopsim|atlahs,\n"
    "                 or --params FILE [--size B] (measured; time unit 10 ns)\n"
    "         postal: --lambda X (or --latency X), X >= 1: 2.5 or 5/2\n"
    "         sum: --operands n; reduce: --commutative; alltoall: --items k, --personalized\n"
    "         kbcast (postal): --items m --algorithm repeat|pack|pipeline|dtree|cyclic|greedy|circulant|best"
    " [--degree d]\n"
    "         cbcast (postal, integer L): --latency L --procs P [--items k] [--root r]\n"
    "         cbcast, kbcast: --buffered (Karp et al. 3.5)\n"
    "         allreduce: --ordered (rank order, for non-commutative operators)\n"
    "         kport:  --ports k, bcast|kbcast --items m --algorithm ktree|rotation|circulant|best\n"
    "         rrp:    --lines L, bcast|reduce|scan [--segments 0,s1,s2,...]\n"
    "                 --algorithm sweep|tuned|binomial|best\n"
    "         verify sum: --counts c0,c1,...; verify reduce: --ordered\n"
    "algorithms for bcast: karp (default, = optimal), shou-chen, bar-noy-kipnis\n";

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

/* ---- the commands ------------------------------------------------------------
 * One table: dispatch, the overview and each command's help come from it. */

static int cmd_compare(cli *c) { return run_compare(c); }
static int cmd_run(cli *c) { return cli_run_cmd(&c->a); }
static int cmd_measure(cli *c) { return cli_measure_cmd(&c->a); }
static int cmd_help(cli *c);
static int cmd_version(cli *c) {
  if (c->problem != NULL) die("version: unexpected argument '%s'", c->problem);
  printf("optcast %s\n", oc_version());
  return 0;
}

const cli_command CLI_COMMANDS[] = {
    {"plan", NULL, CMD_PLAN, F_PROBLEM | F_NEED_PROBLEM | F_MODEL,
     "build, verify and print a schedule",
     "usage: optcast plan PROBLEM [params] [--json | --csv]\n"},
    {"bound", NULL, CMD_BOUND, F_PROBLEM | F_NEED_PROBLEM | F_MODEL,
     "the lower bound (and the best known time) alone",
     "usage: optcast bound PROBLEM [params] [--json]\n"},
    {"verify", NULL, CMD_VERIFY, F_PROBLEM | F_MODEL,
     "check a --csv schedule from standard input",
     "usage: optcast verify [PROBLEM] [params] [--json] < schedule.csv\n"
     "       (PROBLEM defaults to bcast; exit 1 when the schedule breaks a rule)\n"},
    {"rank", NULL, CMD_RANK, F_PROBLEM | F_MODEL, "one rank's own plan (bcast, reduce, allreduce; kbcast at lambda 1)",
     "usage: optcast rank [PROBLEM] --rank R [params] [--json]\n"},
    {"draw", NULL, CMD_DRAW, F_PROBLEM | F_NEED_PROBLEM | F_MODEL,
     "the verified plan's pictures as an SVG",
     "usage: optcast draw PROBLEM [params] (--svg FILE | --format svg)\n"},
    {"report", NULL, CMD_REPORT, F_PROBLEM | F_NEED_PROBLEM | F_MODEL,
     "the verified plan as one HTML page",
     "usage: optcast report PROBLEM [params] (--html FILE | --format html)\n"},
    {"compare", cmd_compare, CMD_COMPARE, F_PROBLEM,
     "optcast's plan next to the MPI libraries' algorithms (LogP)",
     "usage: optcast compare bcast|reduce|allreduce [--preset NAME | --latency L --overhead o --gap g]\n"
     "               --procs P | --sweep procs=A..B[:STEP]  [--items m | --size B]\n"
     "               [--root r] [--segment s] [--json | --csv] [--svg FILE]\n"
     "       (--root, --segment: bcast and reduce; --size: with --preset)\n"},
    {"run", cmd_run, CMD_RUN, F_PROBLEM | F_PREFIX,
     "run a collective on threads, check and time it",
     "usage: optcast run bcast|reduce|allreduce|allgather|scan|sum --procs P\n"
     "               [--count N | --size B] [--type T] [--op OP] [--root r] [--iters K]\n"
     "               [--params FILE] [--segment B] [--check] [--json]\n"},
    {"measure", cmd_measure, CMD_MEASURE, F_PREFIX,
     "measure the threads transport's LogP parameters",
     "usage: optcast measure [--procs P] [--sizes a,b,...] [--reps R] [--out FILE] [--json]\n"},
    {"help", cmd_help, CMD_HELP, F_PROBLEM, "this overview, or one command's help",
     "usage: optcast help [COMMAND]    (or: optcast COMMAND --help)\n"
     "       optcast help --man          the manual page optcast(1), as roff\n"
     "       optcast help --completion bash|zsh   a shell completion script\n"},
    {"version", cmd_version, CMD_VERSION, 0, "the release (also: optcast --version, -V)",
     "usage: optcast version\n"},
};
const size_t CLI_NCOMMANDS = sizeof CLI_COMMANDS / sizeof CLI_COMMANDS[0];
#define NCOMMANDS (sizeof CLI_COMMANDS / sizeof CLI_COMMANDS[0])
#define COMMANDS CLI_COMMANDS

static const cli_command *find_command(const char *name) {
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (strcmp(COMMANDS[i].name, name) == 0) return &COMMANDS[i];
  return NULL;
}

/* "unknown command 'x'", the nearest command's name when one is close, and
 * the list (from the table) */
static _Noreturn void unknown_command(const char *prefix, const char *name) {
  const char *names[NCOMMANDS], *near;
  char list[256];
  size_t at = 0;
  for (size_t i = 0; i < NCOMMANDS; i++) {
    names[i] = COMMANDS[i].name;
    at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", i == 0 ? "" : ", ", names[i]);
    if (at >= sizeof list) at = sizeof list - 1;
  }
  if ((near = cli_nearest(name, names, NCOMMANDS)) != NULL)
    die("%sunknown command '%s' (did you mean '%s'?)", prefix, name, near);
  die("%sunknown command '%s' (expected one of: %s)", prefix, name, list);
}

static void overview(FILE *f) {
  fputs("usage: optcast COMMAND [PROBLEM] [options]\ncommands:\n", f);
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf(f, "  %-9s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
  fputs(CLI_MODEL_NOTES, f);
  fputs("'optcast help COMMAND' or 'optcast COMMAND --help': one command's options\n"
        "example: optcast plan bcast --procs 8 --latency 6 --overhead 2 --gap 4\n", f);
}

static void command_help(FILE *f, const cli_command *k) {
  fprintf(f, "optcast %s: %s\n%s", k->name, k->summary, k->usage);
  cli_print_options(f, k->bit);
  if (k->flags & F_MODEL) fputs(CLI_MODEL_NOTES, f);
}

static int cmd_help(cli *c) {
  const cli_command *k;
  if (c->a.set[O_MAN] || c->a.set[O_COMPLETION]) {
    if (c->problem != NULL) die("help: '%s' and --%s: give one", c->problem,
                                c->a.set[O_MAN] ? "man" : "completion");
    if (c->a.set[O_MAN] && c->a.set[O_COMPLETION]) die("--man and --completion: choose one");
    if (c->a.set[O_MAN]) return cli_help_man(stdout);
    return cli_help_completion(stdout, c->a.val[O_COMPLETION]);
  }
  if (c->problem == NULL) {
    overview(stdout);
    return 0;
  }
  if ((k = find_command(c->problem)) == NULL) unknown_command("help: ", c->problem);
  command_help(stdout, k);
  return 0;
}

/* the checks every model command shares, the model's row and its
 * parameters, then the one flow (or the rank command) */
static int run_model(cli *c, const cli_command *k) {
  int except[1] = {O_SIZE};
  cli_refuse_untaken(&c->a, except, c->a.set[O_PARAMS] ? 1 : 0);
  cli_check_problem(c, (k->flags & F_NEED_PROBLEM) != 0);
  cli_check_output(c);
  if (c->a.set[O_KARP_BLOCK] && !is(c, P_CBCAST))
    die("--karp-block: only 'optcast plan cbcast --latency L --karp-block r' (got '%s' for %s)",
        c->a.val[O_KARP_BLOCK], c->problem);
  if (c->a.set[O_BUFFERED] && !is(c, P_CBCAST) && !is(c, P_KBCAST))
    die("--buffered: the buffered model (Karp et al. 3.5) is for cbcast and kbcast");
  if (is(c, P_CBCAST) || c->a.set[O_BUFFERED]) { /* the postal model, integer L */
    c->row = c->a.set[O_BUFFERED] ? &CLI_ROW_BUFFERED : &CLI_ROW_CBCAST;
    c->row->build(c);
    return c->karp_block > 0 ? cli_karp_block(c) : cli_flow(c);
  }
  cli_build_model(c);
  if (c->a.set[O_RANK] && k->bit != CMD_RANK)
    die("--rank: only meaningful with 'optcast rank'");
  if (c->a.set[O_CSV] && k->bit != CMD_PLAN)
    die("--csv: only 'optcast plan' prints a schedule");
  if (c->a.set[O_JSON] && c->a.set[O_CSV]) die("--json and --csv: choose one");
  return k->bit == CMD_RANK ? cli_rank(c) : cli_flow(c);
}

static int cli_run(int argc, char **argv, FILE *in) {
  cli c;
  const cli_command *k;
  memset(&c, 0, sizeof c);
  c.in = in;
  if (argc < 2) {
    overview(stderr);
    return CLI_EXIT_INPUT;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    overview(stdout);
    return 0;
  }
  if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) argv[1] = "version";
  if ((k = find_command(argv[1])) == NULL) unknown_command("", argv[1]);
  if (cli_wants_help(k->bit, argc, argv, 2)) { /* `optcast COMMAND ... --help`: its help */
    command_help(stdout, k);
    return 0;
  }
  c.cmd = k->name;
  c.argc = argc;
  c.argv = argv;
  cli_parse(&c.a, k->name, k->bit, (k->flags & F_PREFIX) ? (k->bit == CMD_RUN ? "run: " : "measure: ") : "",
            argc, argv, 2);
  c.problem = c.a.problem;
#ifndef OC_CLI_NO_MAIN
  /* a line on a terminal's stderr while a plan or comparison runs long
   * (compare --sweep has its own lines; run and measure theirs) */
  if (((k->flags & F_MODEL) || (k->bit == CMD_COMPARE && !c.a.set[O_SWEEP])) &&
      !c.a.set[O_QUIET])
    cli_progress_start(k->name, c.problem);
#endif
  if (k->flags & F_MODEL) {
    int rc = run_model(&c, k);
    free(c.segs); /* --segments (the ring) */
    return rc;
  }
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
  if ((fflush(stdout) != 0 || ferror(stdout)) && rc != CLI_EXIT_INPUT) {
    fputs("optcast: cannot write to standard output\n", stderr);
    return CLI_EXIT_INPUT;
  }
  return rc;
}
#endif

