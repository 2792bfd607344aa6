/* cli_cbpic.c - `optcast draw|report cbcast|kbcast --buffered` and
 * `optcast draw|report cbcast`: a verified continuous (Karp et al. 3.1-3.3)
 * or buffered (3.5) schedule as a picture.
 *
 * What is drawn: item 0's broadcast tree (for the continuous schedule the
 * optimal tree T_{P-1} of Karp's Fig. 2, each node labelled with the time
 * its processor holds item 0) and the reception table in the paper's form
 * (Figs. 2, 4, 5: a column per step, items numbered from 1, the items a
 * processor forwards in bold; with a buffer, squares around items that
 * waited and circles around the forwarded items that made them wait).
 * The postal model has no overheads, so there is no activity chart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void pic_input(const cli *c, const oc_params *p, const oc_sched *s,
                      const int64_t *rt, int64_t time, int64_t lb, const char *alg,
                      const char *what, cli_draw_in *d, char *title, size_t tn, char *sub,
                      size_t sn) {
  snprintf(title, tn, "optcast %s %s%s: postal L=%lld, P=%lld, %lld items from processor %lld",
           c->cmd, c->problem, c->buffered ? " --buffered" : "",
           (long long)c->L, (long long)c->p.P, (long long)c->items, (long long)c->root);
  snprintf(sub, sn, "algorithm %s; %s %lld, lower bound %lld (%s); %zu messages; "
           "checked by the verifier: valid%s", alg, what, (long long)time, (long long)lb,
           time == lb ? "optimal" : "above the bound", s->n,
           c->buffered ? " (buffered rules)" : "");
  memset(d, 0, sizeof *d);
  d->title = title;
  d->subtitle = sub;
  d->p = p;
  d->P = c->p.P;
  d->root = c->root;
  d->time = time;
  d->s = s;
  d->tree = CLI_TREE_ITEM0;
  d->table = 1;
  d->steps = 1;
  d->recv = rt;
}

int cli_cb_picture(const cli *c, const oc_sched *s, const int64_t *rt, int64_t time,
                   int64_t lb, const char *alg, const char *what) {
  oc_params p;
  cli_draw_in d;
  cli_report_in in;
  cli_report_kv par[6], res[4];
  char title[200], sub[240], err[320], v[6][64];
  char *svg = NULL, *cmdline;
  size_t svglen = 0;
  int e;
  if ((e = oc_params_postal(&p, c->p.P, c->L, 1)) != OC_OK) {
    fprintf(stderr, "optcast: %s: %s\n", c->cmd, oc_strerror(e));
    return CLI_EXIT_INPUT;
  }
  pic_input(c, &p, s, rt, time, lb, alg, what, &d, title, sizeof title, sub, sizeof sub);
  if (c->a.bit == CMD_DRAW) return cli_draw_out(c, &d);
  if (cli_draw_doc(&d, &svg, &svglen, err, sizeof err) != OC_OK) cli_die("report: %s", err);
  snprintf(v[0], sizeof v[0], "%lld", (long long)c->p.P);
  snprintf(v[1], sizeof v[1], "%lld", (long long)c->L);
  snprintf(v[2], sizeof v[2], "%lld", (long long)c->items);
  snprintf(v[3], sizeof v[3], "%lld", (long long)c->root);
  par[0] = (cli_report_kv){"problem", c->problem};
  par[1] = (cli_report_kv){"model", c->buffered ? "postal, buffered (Karp et al. 3.5)"
                                                : "postal"};
  par[2] = (cli_report_kv){"processors P", v[0]};
  par[3] = (cli_report_kv){"latency L", v[1]};
  par[4] = (cli_report_kv){"items k", v[2]};
  par[5] = (cli_report_kv){"source", v[3]};
  snprintf(v[4], sizeof v[4], "%s %lld", what, (long long)time);
  snprintf(v[5], sizeof v[5], "%lld", (long long)lb);
  res[0] = (cli_report_kv){"algorithm", alg};
  res[1] = (cli_report_kv){what, v[4] + strlen(what) + 1};
  res[2] = (cli_report_kv){"lower bound", v[5]};
  res[3] = (cli_report_kv){"checked by the verifier", "valid"};
  cmdline = cli_reproduce_line(c);
  in = (cli_report_in){.title = title, .params = par, .nparams = 6, .result = res,
                       .nresult = 4, .svg = svg, .svglen = svglen, .s = s, .max_rows = 200,
                       .unit = 1, .command = cmdline};
  e = cli_report_finish(&in, v[4], v[5], time == lb, c->a.val[O_HTML]);
  free(svg);
  free(cmdline);
  return e;
}
