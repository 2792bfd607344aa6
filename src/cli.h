/* cli.h - the optcast command's own pieces (not part of the library). */
#ifndef OC_CLI_H
#define OC_CLI_H

#include <stdarg.h>
#include <stdio.h>

#include "optcast.h"

/* reverse = 0: a broadcast tree (children = the processors it sends to);
 * 1: a reduction tree (children = the processors that send to it) */
int cli_render_tree(FILE *f, const oc_params *p, int64_t root,
                    const oc_sched *s, int reverse);
/* root >= 0: a broadcast from root (others hold nothing until it arrives);
 * root < 0: every processor holds data from time 0.  Additions in s->op
 * are drawn too. */
int cli_render_activity(FILE *f, const oc_params *p, int64_t root,
                        const oc_sched *s, int64_t completion);

/* `,"violation":{...}` for verify --json; at: the JSON value of its time
 * (a number, or "null" for "at the end"). */
void cli_json_violation(FILE *f, const oc_verdict *v, const char *at);

/* k-port problems (cli_kport.c); the options are checked by cli.c.  buf:
 * the schedule read from stdin for verify (NUL at len).  Returns the exit
 * code; errors print one line on stderr. */
typedef struct cli_kport_args {
  const char *cmd, *problem;
  int64_t n, k, m, root;
  oc_kport_alg alg;
  int json, csv;
} cli_kport_args;
int cli_kport(const cli_kport_args *a, char *buf, size_t len);

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
const char *cli_preset_names(void);

#endif
