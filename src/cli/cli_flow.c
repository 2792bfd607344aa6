/* cli_flow.c - plan, bound, verify, draw and report, the same for every
 * model: the row (cli_row) solves, bounds and verifies, and renders its
 * own text and pictures; here are the JSON head, the CSV, the verdict
 * (text, JSON, violation) and the exit code.  Exit codes: 0 ok, 1 an
 * invalid schedule (or a planner's schedule the verifier rejects), 2 bad
 * input with one line on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"


const char *cli_tfmt(char *b, size_t n, const cli *c, int64_t x) {
  oc_format_time(b, n, x, c->p.unit);
  return b;
}

void cli_json_time(FILE *f, const char *key, const cli *c, int64_t x) {
  char b[64];
  fprintf(f, "\"%s\":%s", key, cli_tfmt(b, sizeof b, c, x));
}

void cli_json_head(FILE *f, const cli *c, const cli_res *r, const char *alg, int64_t time,
                   int64_t lb, int valid) {
  const char *model = c->row->model;
  if (model == NULL) model = c->p.model == OC_MODEL_LOGP ? "logp" : "postal";
  fprintf(f, "{\"problem\":\"%s\",\"model\":\"%s\"%s,\"algorithm\":\"%s\",", c->problem, model,
          c->row->head_extra, alg);
  c->row->json_params(f, c, r, 0);
  cli_json_time(f, "time", c, time);
  fputc(',', f);
  cli_json_time(f, "lower_bound", c, lb);
  fprintf(f, ",\"optimal\":%s", valid && time == lb ? "true" : "false");
  c->row->json_params(f, c, r, 1);
}

char *cli_reproduce_line(const cli *c) {
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

int cli_draw_out(const cli *c, const cli_draw_in *d) {
  char err[320];
  if (cli_draw(d, c->a.val[O_SVG], err, sizeof err) != OC_OK)
    die("%s: %s", c->a.val[O_SVG] ? "--svg" : "--format", err);
  return 0;
}

/* plan, draw, report: a verified schedule, then its picture, CSV, JSON
 * or text */
static int flow_plan(cli *c, cli_res *r) {
  const cli_row *w = c->row;
  int rc = w->plan(c, r);
  cli_progress_end();
  if (rc != 0) return rc;
  if (c->a.bit == CMD_DRAW || c->a.bit == CMD_REPORT) return w->picture(c, r);
  if (c->a.set[O_CSV]) {
    if (w->csv) w->csv(c, r);
    else oc_sched_write_csv(stdout, &r->s, NULL);
  } else if (c->a.set[O_JSON]) {
    cli_json_head(stdout, c, r, r->alg, r->time, r->lb, 1);
    if (w->json_plan) w->json_plan(stdout, c, r);
    printf(",\"messages\":%zu", r->n);
    if (w->additions) { /* addition steps; a vector schedule adds one a non-copy message */
      size_t adds = r->s.nop;
      if (r->s.copy != NULL || r->s.seq != NULL || r->s.hist != NULL)
        for (size_t i = 0; i < r->s.n; i++) adds += r->s.copy == NULL || !r->s.copy[i];
      printf(",\"additions\":%zu", adds);
    }
    printf(",\"verified\":true}\n");
  } else {
    w->text_plan(c, r);
  }
  return 0;
}

/* bound: the lower bound and the best known time */
static int flow_bound(cli *c, cli_res *r) {
  const cli_row *w = c->row;
  int rc = w->bound(c, r);
  cli_progress_end();
  if (rc != 0) return rc;
  if (c->a.set[O_JSON]) {
    cli_json_head(stdout, c, r, r->alg, r->time, r->lb, r->known);
    if (w->json_bound) w->json_bound(stdout, c, r);
    if (r->bound) printf(",\"bound\":\"%s\"", r->bound);
    printf("}\n");
  } else {
    w->text_bound(c, r);
  }
  return 0;
}

/* verify: the schedule on standard input, the verdict, exit 1 when it
 * breaks a rule */
static int flow_verify(cli *c, cli_res *r) {
  const cli_row *w = c->row;
  size_t len;
  char *buf = read_all(c->in, &len);
  int rc = w->verify(c, buf, len, r), json = c->a.set[O_JSON];
  cli_progress_end();
  free(buf);
  if (rc != 0) return rc;
  if (json) {
    cli_json_head(stdout, c, r, r->alg ? r->alg : "input", r->time, r->lb, r->v.ok);
    cli_json_verify_tail(r->n, &r->v, &c->p, r->extra);
  } else if (r->v.ok) {
    w->text_valid(c, r);
  }
  if (!r->v.ok) cli_print_violation(&r->v, json, w->unit, &c->p);
  return r->v.ok ? 0 : CLI_EXIT_CHECK;
}

int cli_flow(cli *c) {
  cli_res r;
  int rc;
  memset(&r, 0, sizeof r);
  oc_sched_init(&r.s);
  oc_rrp_sched_init(&r.rs);
  if (c->a.bit == CMD_VERIFY) rc = flow_verify(c, &r);
  else if (c->a.bit == CMD_BOUND) rc = flow_bound(c, &r);
  else rc = flow_plan(c, &r);
  if (c->row->free) c->row->free(&r);
  oc_sched_free(&r.s);
  oc_rrp_sched_free(&r.rs);
  free(r.extra);
  return rc;
}
