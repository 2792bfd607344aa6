/* cli.h - the optcast command's own pieces (not part of the library). */
#ifndef OC_CLI_H
#define OC_CLI_H

#include <stdarg.h>
#include <stdio.h>

#include "optcast.h"

/* ---- the command line as data (cli_args.c) ---------------------------------
 * One option table and one parser for every command: parse everything
 * first (cli_parse), then act on the values.  Commands are bits. */
enum {
  CMD_PLAN = 1 << 0, CMD_BOUND = 1 << 1, CMD_VERIFY = 1 << 2, CMD_RANK = 1 << 3,
  CMD_DRAW = 1 << 4, CMD_REPORT = 1 << 5, CMD_COMPARE = 1 << 6, CMD_RUN = 1 << 7,
  CMD_MEASURE = 1 << 8, CMD_HELP = 1 << 9, CMD_VERSION = 1 << 10
};
/* the commands that plan one model's schedule */
#define CMD_MODEL (CMD_PLAN | CMD_BOUND | CMD_VERIFY | CMD_RANK | CMD_DRAW | CMD_REPORT)
enum {
  O_MODEL, O_PROCS, O_LATENCY, O_OVERHEAD, O_GAP, O_LAMBDA, O_PORTS, O_LINES,
  O_ITEMS, O_OPERANDS, O_ROOT, O_ALGORITHM, O_RANK, O_JSON, O_CSV, O_QUIET,
  O_HELP, O_PERSONALIZED, O_COMMUTATIVE, O_ORDERED, O_COUNTS, O_DEGREE, O_SVG, O_HTML,
  O_FORMAT, O_PRESET, O_SIZE, O_SWEEP, O_SEGMENT, O_SEGMENTS, O_PARAMS, O_BUFFERED,
  O_KARP_BLOCK,
  /* the runtime's (run, measure) */
  O_COUNT, O_TYPE, O_OP, O_ITERS, O_CHECK, O_TIMEOUT, O_TRANSPORT, O_SIZES, O_REPS, O_ROUNDS, O_OUT,
  /* help's */
  O_MAN, O_COMPLETION,
  O_FORCE,
  O_NOPTS
};
typedef struct cli_option {
  const char *name;
  int arg;             /* 1: takes a value (--opt v or --opt=v)                 */
  unsigned cmds;       /* the commands that read it; elsewhere it is unknown    */
  unsigned takes;      /* of those, the ones that use it; the others refuse it  */
  const char *value;   /* its value in the help ("P"), or NULL                  */
  const char *help;    /* one line                                              */
  const char *refusal; /* the refusal text for the commands that read, not take */
  /* the problems (bits 1 << P_*) it is legal for, 0: all of them; vproblems:
   * more problems it is legal for with 'optcast verify' alone; the refusal
   * text for the others after "--NAME: " ("%s": the problem's name) */
  unsigned problems, vproblems;
  const char *prefusal;
  unsigned refused_by; /* the models (CLI_NM_*) that refuse it with their row's text */
  const char *choices; /* its values when they are a fixed list ("logp postal"), or NULL:
                        * what shell completion offers (a test runs every one) */
} cli_option;
enum { CLI_NM_KPORT = 1, CLI_NM_RRP = 2 };
extern const cli_option CLI_OPTS[O_NOPTS];

typedef struct cli_args {
  const char *cmd;      /* the command's name                        */
  unsigned bit;         /* its CMD_* bit                             */
  const char *problem;  /* the first word after it, or NULL          */
  const char *val[O_NOPTS];
  int set[O_NOPTS];
} cli_args;
/* Whether argv[first..] asks for help (--help or -h, not as an option's
 * value). */
int cli_wants_help(unsigned bit, int argc, char **argv, int first);
/* Parses argv[first..) for the command bit (named cmd) into a; a bad
 * command line prints one line and exits 2 (cli_die).  prefix: "" or the
 * command's name and ": " in front of its parse errors (run, measure). */
void cli_parse(cli_args *a, const char *cmd, unsigned bit, const char *prefix, int argc,
               char **argv, int first);
/* Refuses (cli_die) every option given that the command reads but does not
 * take, with its refusal text; the options in `except` are let through. */
void cli_refuse_untaken(const cli_args *a, const int *except, size_t nexcept);
/* Refuses (cli_die) the first option given, in the table's order, that the
 * problem (its bit 1 << P_*, its name) does not take with a's command. */
void cli_refuse_for_problem(const cli_args *a, unsigned pbit, const char *problem);
/* Refuses the first option given, in the table's order, that model (a
 * CLI_NM_* bit) refuses: "--NAME: " and the model's text. */
void cli_refuse_for_model(const cli_args *a, unsigned model, const char *text);
/* The candidate nearest to a misspelt word (edit distance at most 2, and
 * less than half the word's length; one a prefix of the other counts as
 * near), or NULL: the "did you mean" of unknown commands and options. */
const char *cli_nearest(const char *word, const char *const *cand, size_t n);
/* One command's help: its usage, then its options with their help lines. */
void cli_print_options(FILE *f, unsigned bit);

/* "optcast: <message>" on stderr, then exit 2 (the fuzzing build: back to
 * oc_cli_fuzz) */
_Noreturn void cli_die(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((noreturn, format(printf, 1, 2)))
#endif
    ;
#define die cli_die

/* `optcast run` and `optcast measure` (cli_run.c) on the parsed options;
 * return the exit code. */
int cli_run_cmd(const cli_args *a);
int cli_measure_cmd(const cli_args *a);

/* reverse = 0: a broadcast tree (children = the processors it sends to);
 * 1: a reduction tree (children = the processors that send to it) */
int cli_render_tree(FILE *f, const oc_params *p, int64_t root,
                    const oc_sched *s, int reverse);
/* root >= 0: a broadcast from root (others hold nothing until it arrives);
 * root < 0: every processor holds data from time 0.  Additions in s->op
 * are drawn too. */
int cli_render_activity(FILE *f, const oc_params *p, int64_t root,
                        const oc_sched *s, int64_t completion);

/* ---- shared output (cli_out.c) ---------------------------------------------
 * Exit codes: 0 ok, 1 an invalid schedule or a self-check failure (a
 * planner's schedule the verifier rejects: a bug), 2 bad input. */
#define CLI_EXIT_CHECK 1
#define CLI_EXIT_INPUT 2
/* "optcast: WHAT: <the error>" on stderr; returns CLI_EXIT_INPUT */
int cli_fail(const char *what, int e);
/* "optcast: internal error: the ALG schedule fails the verifier: WHY";
 * returns CLI_EXIT_CHECK */
int cli_self_check_failed(const char *alg, const char *why);
/* The end of a verify JSON line: messages, valid, extra (more keys, or
 * NULL), the violation (its time in p's unit, p NULL: an integer; null for
 * an item never received), the closing brace and newline. */
void cli_json_verify_tail(size_t n, const oc_verdict *v, const oc_params *p, const char *extra);
/* "optcast: invalid schedule: ..." on stderr, and "invalid: ..." on stdout
 * unless json; unit: "time ", "round " or "step "; the time as above. */
void cli_print_violation(const oc_verdict *v, int json, const char *unit, const oc_params *p);
/* Reads verify's CSV schedule into s (initialised here); a bad one prints one
 * line on stderr and returns 2 (s freed), else 0. */
int cli_read_schedule(char *buf, size_t len, const oc_params *p, oc_sched *s);

/* ---- SVG primitives (cli_svg.c) ------------------------------------------ */
void cli_svg_escape(FILE *f, const char *s);
void cli_svg_rect(FILE *f, double x, double y, double w, double h,
                  const char *fill, const char *stroke);
void cli_svg_line(FILE *f, double x1, double y1, double x2, double y2,
                  const char *stroke);
void cli_svg_circle(FILE *f, double cx, double cy, double r, const char *fill,
                    const char *stroke);
void cli_svg_text(FILE *f, double x, double y, const char *anchor, int size,
                  const char *text);
void cli_svg_begin(FILE *f, double w, double h);
void cli_svg_end(FILE *f);
int cli_svg_write_file(const char *path, const char *data, size_t n, char *err,
                       size_t errlen);

/* ---- `optcast draw` (cli_draw.c) ------------------------------------------
 * The pictures of one verified schedule as a self-contained SVG. */
enum { CLI_TREE_NONE = 0, CLI_TREE_BCAST, CLI_TREE_REDUCE, CLI_TREE_ITEM0 };
typedef struct cli_draw_in {
  const char *title, *subtitle; /* two header lines (plain text)          */
  const oc_params *p;   /* LogP / postal parameters; NULL for k-port      */
  int64_t P;            /* processors                                     */
  int64_t root;         /* the tree's root; the broadcast source          */
  int all_hold;         /* every processor holds data from time 0         */
  int64_t time;         /* completion: model units, or rounds (k-port)    */
  const oc_sched *s;    /* the verified schedule                          */
  int tree;             /* CLI_TREE_*                                     */
  int activity;         /* the activity chart (not for k-port)            */
  int table;            /* the reception table (multi-item)               */
  const int64_t *counts; /* sum: operands per processor, or NULL          */
  int steps;            /* table in Karp et al.'s form (integer postal L) */
  const int64_t *recv;  /* buffered: when each message leaves the buffer  */
} cli_draw_in;
/* Renders d and writes it to path (atomically) or, path NULL, to stdout.
 * Returns OC_OK or an error with a one-line reason in err. */
int cli_draw(const cli_draw_in *d, const char *path, char *err, size_t errlen);
/* The same document in memory (*out: malloc'd, *outlen bytes, no NUL). */
int cli_draw_doc(const cli_draw_in *d, char **out, size_t *outlen, char *err,
                 size_t errlen);

/* ---- `optcast report` (cli_report.c) ---------------------------------------
 * One self-contained HTML page (well-formed XML too) for a verified plan. */
typedef struct cli_report_kv {
  const char *key, *value;
} cli_report_kv;
typedef struct cli_report_in {
  const char *title;
  const char *verdict;         /* one line: time against the lower bound   */
  int optimal;                 /* the verdict's colour                     */
  const cli_report_kv *params; /* the parameters used                      */
  size_t nparams;
  const cli_report_kv *result; /* time, bound, messages, ...               */
  size_t nresult;
  const char *svg;             /* the drawing (cli_draw_doc), or NULL      */
  size_t svglen;
  const oc_sched *s;           /* the schedule, or NULL                    */
  size_t max_rows;             /* messages listed at most                  */
  int64_t unit;                /* model units per time unit                */
  int rounds;                  /* times are k-port rounds                  */
  const char *command;         /* the optcast command that rebuilds it     */
  const char *extra;           /* more HTML after the pictures, or NULL    */
} cli_report_in;
void cli_report_page(FILE *f, const cli_report_in *in);
/* The page written atomically to path or, path NULL, to stdout. */
int cli_report_write(const cli_report_in *in, const char *path, char *err,
                     size_t errlen);
/* The models' reports (k-port, ring, Karp's postal schedules): sets
 * in->verdict ("DONE, lower bound LB: optimal" or "... above the lower
 * bound") and in->optimal, writes the page to html (NULL: stdout).
 * Returns the exit code: 0, or 2 with one line on stderr. */
int cli_report_finish(cli_report_in *in, const char *done, const char *lb, int optimal,
                      const char *html);

/* ---- one command line's context, the problems and the models ---------------
 * The problems are looked up once by name (cli_check_problem), then by id;
 * the model row (cli_row) does the model's own part: its parameters, its
 * solver, bound and verifier, its text and its pictures.  The flow
 * (cli_flow.c) runs plan, bound, verify, draw and report the same way for
 * every row: the JSON head, the CSV, the verdict, the exit code. */
typedef enum { P_BCAST, P_KBCAST, P_CBCAST, P_ALLTOALL, P_ALLREDUCE, P_REDUCE, P_SUM, P_SCAN,
               P_NPROBLEMS } cli_pid;
typedef struct cli_problem {
  const char *name;
  const char *alg; /* the algorithm it runs (LogP, postal), when it has one */
  int kind;        /* its oc_problem_kind (LogP, postal), or -1 */
} cli_problem;
extern const cli_problem CLI_PROBLEMS[P_NPROBLEMS];
#define is(c, id_) ((c)->id == (id_))
/* the one text for k items given to bcast */
#define BCAST_ONE_ITEM "--items: bcast carries one item in this model; k items is 'kbcast'"

typedef struct cli_row cli_row;
typedef struct cli {
  const char *cmd;
  const char *problem;
  cli_pid id;           /* the problem's row in CLI_PROBLEMS */
  const cli_row *row;   /* the model's row */
  cli_args a;           /* the parsed command line */
  oc_params p;          /* LogP, postal; P alone for k-port and the ring */
  const char *tunit;    /* LogP given with units (--latency 1.5us): the unit times print
                         * in ("us"), p.unit model units each; NULL: model units */
  int64_t tunit_ps;     /* that unit, and the model unit, in picoseconds */
  int64_t model_ps;
  int64_t params_past;  /* --params --size past the file's sizes: its largest, else 0 */
  int64_t root, items, rank, degree;
  oc_bcast_alg alg;
  oc_mbcast_alg malg; /* bcast of m packets (LogP): OC_MB_BEST or one */
  oc_kbcast_alg kalg;
  oc_rrp_problem rproblem; /* --model rrp */
  oc_rrp_alg ralg;
  int64_t lines;
  int64_t *segs;        /* --segments */
  size_t nsegs;
  int64_t kports;       /* --model kport: its k */
  oc_kport_alg kpalg;
  int64_t L;            /* cbcast: the integer postal latency */
  int64_t karp_block;   /* --karp-block r: Theorem 3.7's block table */
  int buffered;         /* --buffered: Karp et al. 3.5 (cli_buffered.c) */
  int kitem;            /* kbcast --buffered: all items at the source from time 0 */
  FILE *in;             /* the schedule for verify */
  int argc;             /* the command line, for report's "reproduce" */
  char **argv;
} cli;

/* ---- the commands (cli.c): one table gives dispatch, the overview, each
 * command's help, the manual page and the shell completion (cli_man.c) */
enum { F_PROBLEM = 1, F_NEED_PROBLEM = 2, F_MODEL = 4, F_PREFIX = 8 };
typedef struct cli_command {
  const char *name;
  int (*run)(cli *c);
  unsigned bit, flags;
  const char *summary; /* one line */
  const char *usage;   /* the usage lines */
} cli_command;
extern const cli_command CLI_COMMANDS[];
extern const size_t CLI_NCOMMANDS;
extern const char CLI_MODEL_NOTES[]; /* the problems and the models' parameters */
/* `optcast help --man`: optcast(1) in roff, from the tables */
int cli_help_man(FILE *f);
/* `optcast help --completion bash|zsh`: a completion script from the tables */
int cli_help_completion(FILE *f, const char *shell);
/* the problems a command takes as its first word, space-separated ("" none) */
const char *cli_command_words(unsigned bit);

/* What a row's plan, bound or verify leaves for the flow to print. */
typedef struct cli_res {
  const char *alg;
  int64_t time, lb;
  int known;         /* bound: a schedule stands behind time (else never "optimal") */
  const char *bound; /* bound JSON: where the bound comes from, or NULL */
  oc_sched s;        /* the schedule (plan), or verify's input */
  oc_rrp_sched rs;   /* the ring's */
  size_t n;          /* its messages */
  oc_verdict v;      /* verify: the verdict */
  char *extra;       /* verify JSON: more keys (malloc'd), or NULL */
  /* the rows' own */
  int64_t *counts, used; /* sum, reduce */
  int upper_only;        /* bound: time is an upper bound, no plan behind it */
  oc_kbcast_result kres; /* kbcast */
  oc_result mb;          /* bcast of m packets: the choice (its static fields) */
  oc_kport_result kr;
  oc_kport_bounds kb;
  oc_rrp_result rr;
  oc_rrp_bounds rb;
  oc_cbcast *cb;         /* the continuous plan */
  int64_t max_wait;      /* buffered */
} cli_res;

/* A model's row: NULL functions are the flow's defaults. */
struct cli_row {
  const char *model;      /* JSON "model"; NULL: logp or postal by the parameters */
  const char *head_extra; /* JSON keys before "algorithm" */
  const char *unit;       /* a violation's time: "time ", "round ", "step " */
  int additions;          /* plan JSON: "additions" after "messages" */
  void (*build)(cli *c);  /* the model's parameters from the options (dies) */
  /* return an exit code (0: go on); errors print one line */
  int (*plan)(cli *c, cli_res *r);  /* a verified schedule */
  int (*bound)(cli *c, cli_res *r); /* the lower bound, the best known time */
  int (*verify)(cli *c, char *buf, size_t len, cli_res *r); /* r->v, time, lb */
  void (*json_params)(FILE *f, const cli *c, const cli_res *r, int after);
  void (*json_plan)(FILE *f, const cli *c, const cli_res *r);  /* before "messages" */
  void (*json_bound)(FILE *f, const cli *c, const cli_res *r); /* before "bound" */
  void (*text_plan)(const cli *c, const cli_res *r);
  void (*text_bound)(const cli *c, const cli_res *r);
  void (*text_valid)(const cli *c, const cli_res *r);
  int (*picture)(cli *c, cli_res *r);    /* draw, report */
  void (*csv)(const cli *c, cli_res *r); /* NULL: the schedule as it is */
  void (*free)(cli_res *r);
};
extern const cli_row CLI_ROW_LOGP, CLI_ROW_KPORT, CLI_ROW_RRP, CLI_ROW_CBCAST,
    CLI_ROW_BUFFERED;

/* the flow (cli_flow.c): plan, bound, verify, draw and report through c->row */
int cli_flow(cli *c);
/* `optcast rank` (cli_rank.c) */
int cli_rank(cli *c);
/* cbcast and --buffered (cli_cbcast.c): the parameters, the JSON head's
 * parameters; --karp-block r: Theorem 3.7's table of one r-block */
void cli_cb_build(cli *c);
void cli_cb_json_params(FILE *f, const cli *c, const cli_res *r, int after);
int cli_karp_block(const cli *c);
/* the model's row from --model, then its parameters (cli_params.c) */
void cli_build_model(cli *c);
void cli_build_logp(cli *c);

/* option values (cli_params.c); a bad one dies with one line */
int64_t cli_need_int(const cli *c, int o, int64_t lo, int64_t hi);
void cli_parse_lambda(const cli *c, int o, int64_t *num, int64_t *den);
/* What is wrong with a --params file as a whole (oc_rtparams_read's e, with
 * no line to blame), for "--params: 'F' <text>"; NULL when a line is to
 * blame or nothing is wrong. */
const char *cli_params_whole_file(int e, int line);
/* --latency, --overhead, --gap of LogP: integers in the model's unit, or
 * all three with a unit (1.5us, 500ns, 0.3us; s ms us ns ps): converted
 * exactly to integers in the largest unit that measures all three and the
 * unit of --latency, which sets c->p.unit and the unit times print in
 * (c->tunit).  Dies with one line naming the option on bad input. */
void cli_logp_values(cli *c, int64_t *L, int64_t *o, int64_t *g);
/* The conversion itself, for --latency, --overhead, --gap's values: 0 when
 * none has a unit; else 1 with out[] in model units, the print unit's name
 * and size and the model unit's size (picoseconds). */
int cli_units_parse(const char *const vals[3], int64_t out[3], const char **uname,
                    int64_t *unit_ps, int64_t *model_ps);
/* " us" when times print in a unit the user gave, else "" */
const char *cli_unit_suffix(const cli *c);
size_t cli_parse_segments(const cli *c, int64_t *out);
int64_t *cli_parse_counts(const cli *c, int64_t n);
int64_t cli_operands(const cli *c);
/* The progress line (cli_progress.c): started for a command that may run
 * long, on a terminal only; a note (an estimate) shown with it; ended
 * (the line cleared) before the command's own output is complete, or at
 * exit. */
void cli_progress_start(const char *cmd, const char *problem);
void cli_progress_note(const char *text);
/* a whole line (with its '\n') on stderr, the progress line kept below it */
void cli_progress_say(const char *line);
void cli_progress_end(void);
/* the memory a one-packet schedule takes to build and verify (an estimate,
 * bytes), or 0 where none is kept */
int64_t cli_plan_bytes(const cli *c);
void cli_check_plan_size(const cli *c);
void cli_check_problem(cli *c, int required);
void cli_check_output(const cli *c);
/* the algorithm each non-broadcast problem runs */
const char *cli_problem_alg(const cli *c);
/* "--procs: WHAT: ..." for a planner's refusal (dies) */
_Noreturn void cli_lib_fail(const char *what, int e);
/* leaves the command with exit code x (the fuzzing build: back to oc_cli_fuzz) */
_Noreturn void cli_exit(int x);

/* "LogP L=.. o=.. g=.., P=.., root r" or the postal form (cli_logp.c) */
void cli_print_params(FILE *f, const cli *c);
/* output (cli_flow.c) */
const char *cli_tfmt(char *b, size_t n, const cli *c, int64_t x);
void cli_json_time(FILE *f, const char *key, const cli *c, int64_t x);
/* the JSON object's head: problem, model, algorithm, the row's parameters,
 * time, lower bound, optimal (valid = 0: never optimal) */
void cli_json_head(FILE *f, const cli *c, const cli_res *r, const char *alg, int64_t time,
                   int64_t lb, int valid);
/* report: the `optcast plan` line that rebuilds the plan (malloc'd) */
char *cli_reproduce_line(const cli *c);
/* draw: d written to --svg FILE or stdout; report: the page to --html FILE
 * or stdout (cli_report_finish); the exit code */
int cli_draw_out(const cli *c, const cli_draw_in *d);

/* draw or report a verified continuous or buffered schedule (cli_cbpic.c):
 * item 0's tree and Karp et al.'s reception table; rt: reception times
 * (buffered) or NULL; time and lb as printed by plan, what: "delay" or
 * "time"; returns the exit code. */
int cli_cb_picture(const cli *c, const oc_sched *s, const int64_t *rt, int64_t time,
                   int64_t lb, const char *alg, const char *what);

/* "optcast: <message>" and a newline on stderr (the one-line error form) */
void cli_verror(const char *fmt, va_list ap);

/* `optcast compare` (cli_compare.c): the raw option values (NULL: not
 * given); cli.c has refused the options compare does not take. */
typedef struct cli_compare_args {
  const char *problem;
  const char *procs, *latency, *overhead, *gap, *preset, *items, *size, *root;
  const char *sweep, *svg, *segment;
  int json, csv, quiet;
} cli_compare_args;
int cli_compare(const cli_compare_args *a);

/* LogP parameter presets from published measurements (docs/PRESETS.md):
 * L, o, g in model units of `unit`; a packet (item) stands for
 * packet_bytes bytes. */
typedef struct cli_preset {
  const char *name;
  int64_t L, o, g;
  const char *unit;
  int64_t packet_bytes;
  const char *source;
} cli_preset;
const cli_preset *cli_preset_find(const char *name);

/* The report's comparison section for a one-packet LogP broadcast, or
 * allreduce (bytes: the message size the libraries' selection rules see):
 * an HTML table of optcast's row, every library algorithm and the two
 * defaults.  OC_EUNSUP
 * (nothing written) for postal parameters or P > CLI_COMPARE_REPORT_MAX. */
#define CLI_COMPARE_REPORT_MAX 4096
#define CLI_COMPARE_PACKET 8 /* bytes per packet without a preset */
int cli_compare_html(FILE *f, const oc_params *p, int allreduce, int64_t root, int64_t bytes);
/* an m-packet broadcast choice in words: "multi-tree (3 trees) in segments of 2" */
void cli_mbcast_describe(const oc_mbcast_info *info, int64_t m, char *buf, size_t n);
const char *cli_preset_names(void);

#endif
