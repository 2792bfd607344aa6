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
  CMD_MEASURE = 1 << 8, CMD_HELP = 1 << 9
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
  O_COUNT, O_TYPE, O_OP, O_ITERS, O_CHECK, O_TIMEOUT, O_TRANSPORT, O_SIZES, O_REPS, O_OUT,
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
} cli_option;
extern const cli_option CLI_OPTS[O_NOPTS];

typedef struct cli_args {
  const char *cmd;      /* the command's name                        */
  unsigned bit;         /* its CMD_* bit                             */
  const char *problem;  /* the first word after it, or NULL          */
  const char *val[O_NOPTS];
  int set[O_NOPTS];
} cli_args;
/* Parses argv[first..) for the command bit (named cmd) into a; a bad
 * command line prints one line and exits 2 (cli_die).  prefix: "" or the
 * command's name and ": " in front of its parse errors (run, measure). */
void cli_parse(cli_args *a, const char *cmd, unsigned bit, const char *prefix, int argc,
               char **argv, int first);
/* Refuses (cli_die) every option given that the command reads but does not
 * take, with its refusal text; the options in `except` are let through. */
void cli_refuse_untaken(const cli_args *a, const int *except, size_t nexcept);
/* One command's help: its usage, then its options with their help lines. */
void cli_print_options(FILE *f, unsigned bit);

/* "optcast: <message>" on stderr, then exit 2 (the fuzzing build: back to
 * oc_cli_fuzz) */
_Noreturn void cli_die(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

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

/* k-port problems (cli_kport.c); the options are checked by cli.c.  buf:
 * the schedule read from stdin for verify (NUL at len).  Returns the exit
 * code; errors print one line on stderr. */
typedef struct cli_kport_args {
  const char *cmd, *problem;
  int64_t n, k, m, root;
  oc_kport_alg alg;
  int json, csv;
  int draw;           /* `optcast draw`: an SVG instead of text */
  const char *svg;    /* its file, or NULL for standard output */
  int report;         /* `optcast report`: an HTML page instead of text */
  const char *html;   /* its file, or NULL for standard output */
  const char *command; /* report: the `optcast plan` line that rebuilds it */
} cli_kport_args;
int cli_kport(const cli_kport_args *a, char *buf, size_t len);


/* continuous broadcast (cli_cbcast.c): postal, integer latency L. */
typedef struct cli_cbcast_args {
  const char *cmd;
  int64_t P, L, k, root;
  int json, csv;
  int buffered; /* --buffered: Karp et al. 3.5 (cli_buffered.c)           */
  int kitem;    /* kbcast --buffered: all items at the source from time 0 */
  int draw, report;        /* `optcast draw` / `report` instead of text  */
  const char *svg, *html;  /* their files, or NULL for standard output   */
  const char *command;     /* report: the `optcast plan` line            */
  int64_t karp_block;      /* --karp-block r: Theorem 3.7's block table  */
} cli_cbcast_args;
int cli_cbcast(const cli_cbcast_args *a, char *buf, size_t len);
int cli_buffered(const cli_cbcast_args *a, char *buf, size_t len);
/* draw or report (a->draw / a->report) a verified continuous or buffered
 * schedule (cli_cbpic.c): item 0's tree and Karp et al.'s reception
 * table; rt: reception times (buffered) or NULL; time and lb as printed by
 * plan, what: "delay" or "time"; returns the exit code. */
int cli_cb_picture(const cli_cbcast_args *a, const oc_sched *s, const int64_t *rt,
                   int64_t time, int64_t lb, const char *alg, const char *what);

/* ring problems (cli_rrp.c); the options are checked by cli.c. */
typedef struct cli_rrp_args {
  const char *cmd;
  oc_rrp_problem problem;
  int64_t N, L, root;
  const int64_t *seg;  /* --segments, or NULL */
  size_t nseg;
  oc_rrp_alg alg;
  int json, csv;
  int draw, report;
  const char *svg, *html, *command;
} cli_rrp_args;
int cli_rrp(const cli_rrp_args *a, char *buf, size_t len);

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
const char *cli_preset_names(void);

#endif
