/* cli_rrp.c - the reconfigurable ring's row: `optcast plan|bound|verify|
 * draw|report bcast|reduce|scan --model rrp` (Rosenberg, Scarano,
 * Sitaraman).
 *
 * Its parameters, its planner, bound and verifier (its own schedule type),
 * its text and its bus-line picture; the flow (cli_flow.c) prints the
 * rest.  Errors print one line on stderr and return exit code 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"


/* --model rrp: N processors, L bus lines (Rosenberg, Scarano, Sitaraman) */
static void rr_build(cli *c) {
  cli_refuse_for_model(&c->a, CLI_NM_RRP, "not a parameter of --model rrp (it takes --procs, "
                                          "--lines, --root, --segments, --algorithm)");
  if (is(c, P_BCAST)) c->rproblem = OC_RRP_BCAST;
  else if (is(c, P_REDUCE)) c->rproblem = OC_RRP_REDUCE;
  else if (is(c, P_SCAN)) c->rproblem = OC_RRP_SCAN;
  else
    die("problem '%s' is not implemented for --model rrp (available: bcast, reduce, "
        "scan)", c->problem);
  if (c->a.bit == CMD_RANK) die("rank: no per-rank view for --model rrp (use plan)");
  if (!c->a.set[O_PROCS]) die("missing --procs (number of processors)");
  if (!c->a.set[O_LINES]) die("missing --lines (bus lines, required for --model rrp)");
  c->p.P = cli_need_int(c, O_PROCS, 1, OC_RRP_PROCS_MAX);
  c->lines = cli_need_int(c, O_LINES, 1, OC_PARAM_MAX);
  if (c->a.set[O_ROOT] && c->rproblem == OC_RRP_SCAN)
    die("--root: a scan has no root (processor p ends with x_0..x_p)");
  if (c->a.set[O_ROOT] && c->a.set[O_SEGMENTS])
    die("--root: with --segments every segment's first processor is its root");
  c->root = c->a.set[O_ROOT] ? cli_need_int(c, O_ROOT, 0, c->p.P - 1) : 0;
  if (c->a.set[O_SEGMENTS]) c->nsegs = cli_parse_segments(c, NULL);
  c->ralg = OC_RRP_BEST;
  if (c->a.set[O_ALGORITHM] && oc_rrp_alg_parse(c->a.val[O_ALGORITHM], &c->ralg) != OC_OK)
    die("--algorithm: unknown algorithm '%s' for --model rrp (expected sweep, tuned, "
        "binomial or best)", c->a.val[O_ALGORITHM]);
  if (c->nsegs) { /* checked above; nothing after this dies but for memory */
    if ((c->segs = malloc(c->nsegs * sizeof *c->segs)) == NULL) die("out of memory");
    cli_parse_segments(c, c->segs);
  }
}

static oc_rrp_spec rr_spec(const cli *c) {
  oc_rrp_spec sp;
  memset(&sp, 0, sizeof sp);
  sp.problem = c->rproblem;
  sp.N = c->p.P;
  sp.L = c->lines;
  sp.root = c->root;
  sp.seg = c->nsegs ? c->segs : NULL;
  sp.nseg = c->nsegs;
  return sp;
}

static void rr_params_text(const cli *c) {
  printf("(N, L)-RRP N=%lld, L=%lld", (long long)c->p.P, (long long)c->lines);
  if (c->nsegs) {
    printf(", segments starting at ");
    for (size_t i = 0; i < c->nsegs; i++)
      printf("%s%lld", i ? "," : "", (long long)c->segs[i]);
  } else if (c->rproblem != OC_RRP_SCAN) {
    printf(", root %lld", (long long)c->root);
  }
}

static void rr_json_params(FILE *f, const cli *c, const cli_res *r, int after) {
  const oc_rrp_bounds *b = &r->rb;
  if (!after) {
    fprintf(f, "\"N\":%lld,\"P\":%lld,\"L\":%lld,\"lines\":%lld,\"root\":%lld,",
            (long long)c->p.P, (long long)c->p.P, (long long)c->lines, (long long)c->lines,
            (long long)(c->nsegs ? 0 : c->root));
    return;
  }
  fprintf(f, ",\"segments\":[");
  for (size_t i = 0; i < c->nsegs; i++)
    fprintf(f, "%s%lld", i ? "," : "", (long long)c->segs[i]);
  fprintf(f, "],\"bounds\":{\"doubling\":%lld,\"distance\":%lld,\"thm31\":%.6g,"
          "\"thm31_lead\":%.6g,\"thm32\":%.6g,\"thm21_upper\":%.6g}",
          (long long)b->doubling, (long long)b->distance, b->thm31, b->thm31_lead,
          b->thm32, b->thm21);
}

static void rr_bounds_text(const oc_rrp_bounds *b) {
  printf("bounds: informed at most double %lld, farthest flight %lld", (long long)b->doubling,
         (long long)b->distance);
  printf(", Theorem 3.1's argument %lld", (long long)b->thm31);
  if (b->thm31_lead > 0) printf(" (the theorem's leading term %.2f)", b->thm31_lead);
  if (b->thm32 > 0) printf(", Theorem 3.2 %.2f", b->thm32);
  if (b->thm21 > 0) printf("; Theorem 2.1 upper bound %.2f", b->thm21);
  printf("\n");
}

/* ---- the bus-line occupancy picture ----------------------------------------- */
#define RR_DRAW_PROCS 128
#define RR_DRAW_STEPS 120

static const char *const LINE_COLOURS[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                           "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};

/* One row per step (time downwards), one column per processor; every
 * message is a bar over the processors its segment holds, for each step
 * of its flight, in its line's colour and sub-row; sends and receives are
 * marked at the ends. */
static int rr_svg(const cli *c, const oc_rrp_sched *s, const oc_rrp_result *r,
                  const oc_rrp_bounds *b, char **doc, size_t *doclen) {
  FILE *f = open_memstream(doc, doclen);
  int64_t N = c->p.P, P = N < RR_DRAW_PROCS ? N : RR_DRAW_PROCS;
  int64_t T = r->time < RR_DRAW_STEPS ? r->time : RR_DRAW_STEPS;
  int64_t nl = r->lines < 1 ? 1 : r->lines;
  /* the chart about 640 px wide (a column 6..40 px), a line's bar 6..10 px
   * high; the legend right of the chart */
  double cw = 640.0 / (double)P, left = 60, top = 78, sub, rh, W, H, lx;
  int64_t shown = nl < 8 ? nl : 8;
  if (cw > 40) cw = 40;
  if (cw < 6) cw = 6;
  sub = shown <= 4 ? 10.0 : 8.0;
  rh = sub * (double)shown + 8;
  lx = left + cw * (double)P + 24;
  W = lx + 170;
  H = top + rh * (double)T + 40;
  if (H < top + 14.0 * (double)(shown + 3) + 20) H = top + 14.0 * (double)(shown + 3) + 20;
  if (W < 820) W = 820;
  char buf[256];
  if (f == NULL) return OC_ENOMEM;
  cli_svg_begin(f, W, H);
  snprintf(buf, sizeof buf, "optcast %s %s --model rrp: N=%lld, L=%lld", c->cmd,
           oc_rrp_problem_name(c->rproblem), (long long)N, (long long)c->lines);
  cli_svg_text(f, 10, 20, "start", 14, buf);
  snprintf(buf, sizeof buf,
           "algorithm %s: %lld steps on %lld line%s, lower bound %lld, Theorem 2.1 bound "
           "%.1f; %zu messages, checked by the verifier: valid",
           oc_rrp_alg_name(r->alg), (long long)r->time, (long long)r->lines,
           r->lines == 1 ? "" : "s", (long long)b->lb, b->thm21, s->n);
  cli_svg_text(f, 10, 38, "start", 11, buf);
  snprintf(buf, sizeof buf,
           "bus-line occupancy: time down (one row per step), processors across; a bar "
           "is a line segment held by a message%s",
           (P < N || T < r->time) ? " (cut: first 128 processors, 120 steps)" : "");
  cli_svg_text(f, 10, 56, "start", 11, buf);
  for (int64_t p = 0; p < P; p += (P <= 32 ? 1 : (P <= 64 ? 4 : 8))) {
    snprintf(buf, sizeof buf, "%lld", (long long)p);
    cli_svg_text(f, left + cw * ((double)p + 0.5), top - 6, "middle", cw >= 14 ? 11 : 9, buf);
  }
  for (int64_t t = 1; t <= T; t++) {
    double y = top + rh * (double)(t - 1);
    snprintf(buf, sizeof buf, "%lld", (long long)t);
    cli_svg_text(f, left - 8, y + rh * 0.5 + 4, "end", cw >= 14 ? 11 : 9, buf);
    cli_svg_rect(f, left, y, cw * (double)P, rh, t % 2 ? "#fafafa" : "#f0f0f0", "none");
  }
  for (size_t i = 0; i < s->n; i++) {
    const oc_rrp_msg *m = &s->msg[i];
    int64_t d = oc_rrp_dist(N, m->src, m->dst, m->dir), fl = oc_rrp_flight(d);
    int64_t from = m->dir == OC_RRP_CW ? m->src : m->dst;
    const char *col = LINE_COLOURS[m->line % 8];
    double yoff = 3 + sub * (double)(m->line % 8);
    for (int64_t t = m->t; t < m->t + fl && t <= T; t++) {
      double y = top + rh * (double)(t - 1) + yoff;
      /* from the sender's centre to the receiver's; a wrapping arc in two
       * pieces; the picture shows processors 0 .. P-1 only */
      double x0 = (double)from + 0.5, x1 = (double)(from + d) + 0.5;
      double pieces[2][2] = {{x0, x1}, {0, 0}};
      int np = 1;
      if (from + d >= N) {
        pieces[0][1] = (double)N;
        pieces[1][0] = 0;
        pieces[1][1] = (double)(from + d - N) + 0.5;
        np = 2;
      }
      for (int k = 0; k < np; k++) {
        double a0 = pieces[k][0], a1 = pieces[k][1] < (double)P ? pieces[k][1] : (double)P;
        if (a0 >= (double)P || a1 <= a0) continue;
        cli_svg_rect(f, left + cw * a0, y, cw * (a1 - a0), sub * 0.8, col, "none");
      }
    }
    if (m->t <= T && m->src < P)
      cli_svg_circle(f, left + cw * ((double)m->src + 0.5), top + rh * (double)(m->t - 1) + 3,
                     2.5, "#000000", "none");
    if (m->t + fl - 1 <= T && m->dst < P)
      cli_svg_rect(f, left + cw * ((double)m->dst + 0.2),
                   top + rh * (double)(m->t + fl - 1) - 2.5, cw * 0.6, 2, "#000000", "none");
  }
  /* the legend: the lines used (8 colours; more lines reuse them), the marks */
  for (int64_t l = 0; l < shown; l++) {
    double y = top + 14.0 * (double)l;
    snprintf(buf, sizeof buf, "line %lld%s", (long long)l, nl > 8 && l == 7 ? " (and l mod 8)" : "");
    cli_svg_rect(f, lx, y, 14, 8, LINE_COLOURS[l], "none");
    cli_svg_text(f, lx + 20, y + 8, "start", 10, buf);
  }
  cli_svg_circle(f, lx + 7, top + 14.0 * (double)shown + 4, 2.5, "#000000", "none");
  cli_svg_text(f, lx + 20, top + 14.0 * (double)shown + 8, "start", 10, "send (first step)");
  cli_svg_rect(f, lx + 2, top + 14.0 * (double)(shown + 1) + 3, 10, 2, "#000000", "none");
  cli_svg_text(f, lx + 20, top + 14.0 * (double)(shown + 1) + 8, "start", 10,
               "arrival (last step)");
  cli_svg_end(f);
  if (fclose(f) != 0) return OC_ENOMEM;
  return OC_OK;
}

/* `optcast draw`: the occupancy picture; `optcast report`: the page of
 * cli_report.c around it */
static int rr_picture(cli *c, cli_res *rs) {
  const oc_rrp_result *r = &rs->rr;
  const oc_rrp_bounds *b = &rs->rb;
  char *doc = NULL, err[320];
  size_t len = 0;
  int e = rr_svg(c, &rs->rs, r, b, &doc, &len);
  if (e != OC_OK) {
    free(doc);
    return cli_fail("draw", e);
  }
  if (c->a.bit == CMD_REPORT) {
    cli_report_in in;
    cli_report_kv par[5], res[5];
    char v[8][64], title[200], segs[64] = "", *cmdline = cli_reproduce_line(c);
    snprintf(title, sizeof title, "optcast %s --model rrp: N=%lld, L=%lld",
             oc_rrp_problem_name(c->rproblem), (long long)c->p.P, (long long)c->lines);
    snprintf(v[0], sizeof v[0], "%lld", (long long)c->p.P);
    snprintf(v[1], sizeof v[1], "%lld", (long long)c->lines);
    snprintf(v[2], sizeof v[2], "%lld", (long long)c->root);
    for (size_t i = 0; i < c->nsegs && strlen(segs) + 24 < sizeof segs; i++)
      snprintf(segs + strlen(segs), sizeof segs - strlen(segs), "%s%lld", i ? "," : "",
               (long long)c->segs[i]);
    par[0] = (cli_report_kv){"problem", oc_rrp_problem_name(c->rproblem)};
    par[1] = (cli_report_kv){"model", "reconfigurable ring (N, L)-RRP"};
    par[2] = (cli_report_kv){"processors N", v[0]};
    par[3] = (cli_report_kv){"bus lines L", v[1]};
    par[4] = (cli_report_kv){c->nsegs ? "segments" : "root", c->nsegs ? segs : v[2]};
    snprintf(v[3], sizeof v[3], "%lld steps", (long long)r->time);
    snprintf(v[4], sizeof v[4], "%lld steps", (long long)b->lb);
    snprintf(v[5], sizeof v[5], "%.2f steps", b->thm21);
    snprintf(v[6], sizeof v[6], "%lld", (long long)r->lines);
    res[0] = (cli_report_kv){"algorithm", oc_rrp_alg_name(r->alg)};
    res[1] = (cli_report_kv){"completion", v[3]};
    res[2] = (cli_report_kv){"lower bound", v[4]};
    res[3] = (cli_report_kv){"Theorem 2.1 upper bound", b->thm21 > 0 ? v[5] : "n/a"};
    res[4] = (cli_report_kv){"lines used", v[6]};
    in = (cli_report_in){.title = title, .params = par, .nparams = 5, .result = res,
                         .nresult = 5, .svg = doc, .svglen = len, .unit = 1, .rounds = 1,
                         .command = cmdline};
    e = cli_report_finish(&in, v[3], v[4], r->time == b->lb, c->a.val[O_HTML]);
    free(doc);
    free(cmdline);
    return e;
  }
  if (c->a.val[O_SVG] == NULL) {
    fwrite(doc, 1, len, stdout);
    e = OC_OK;
  } else {
    e = cli_svg_write_file(c->a.val[O_SVG], doc, len, err, sizeof err);
  }
  free(doc);
  if (e != OC_OK) {
    fprintf(stderr, "optcast: --svg: %s\n", err);
    return CLI_EXIT_INPUT;
  }
  return 0;
}

/* ---- plan / bound / verify ----------------------------------------------------- */
static int rr_plan(cli *c, cli_res *r) {
  oc_rrp_spec sp = rr_spec(c);
  int e;
  if ((e = oc_rrp_bound(&sp, &r->rb)) != OC_OK) return cli_fail("bound", e);
  if ((e = oc_rrp_plan(&sp, c->ralg, &r->rs, &r->rr)) != OC_OK) return cli_fail("plan", e);
  if ((e = oc_verify_rrp(&sp, &r->rs, &r->v)) != OC_OK) return cli_fail("verify", e);
  r->alg = oc_rrp_alg_name(r->rr.alg);
  if (!r->v.ok || r->v.time != r->rr.time) /* a bug: never print an unchecked plan */
    return cli_self_check_failed(r->alg, r->v.ok ? "time differs" : r->v.detail);
  r->time = r->rr.time;
  r->lb = r->rb.lb;
  r->n = r->rs.n;
  return 0;
}

static void rr_csv(const cli *c, cli_res *r) {
  (void)c;
  oc_rrp_sched_write_csv(stdout, &r->rs);
}

static void rr_json_plan(FILE *f, const cli *c, const cli_res *r) {
  (void)c;
  fprintf(f, ",\"lines_used\":%lld", (long long)r->rr.lines);
}

static void rr_text_plan(const cli *c, const cli_res *r) {
  const oc_rrp_sched *s = &r->rs;
  printf("optcast plan %s: ", oc_rrp_problem_name(c->rproblem));
  rr_params_text(c);
  printf(", algorithm %s\n", r->alg);
  printf("time %lld steps, lower bound %lld (%s); %zu messages on %lld line%s; "
         "checked by the verifier: valid\n",
         (long long)r->time, (long long)r->lb,
         r->time == r->lb ? "optimal" : "above the bound", s->n, (long long)r->rr.lines,
         r->rr.lines == 1 ? "" : "s");
  rr_bounds_text(&r->rb);
  printf("\n%5s  %s\n", "step", "message: src -> dst, direction, line, flight steps, item");
  for (size_t i = 0; i < s->n && i < 200; i++) {
    const oc_rrp_msg *m = &s->msg[i];
    int64_t d = oc_rrp_dist(c->p.P, m->src, m->dst, m->dir);
    printf("%5lld  %lld -> %lld %s line %lld, distance %lld, flight %lld, item %lld\n",
           (long long)m->t, (long long)m->src, (long long)m->dst,
           m->dir == OC_RRP_CW ? "cw" : "ccw", (long long)m->line, (long long)d,
           (long long)oc_rrp_flight(d), (long long)m->item);
  }
  if (s->n > 200) printf("... %zu more messages (use --csv)\n", s->n - 200);
}

static int rr_bound(cli *c, cli_res *r) {
  oc_rrp_spec sp = rr_spec(c);
  int e = oc_rrp_bound(&sp, &r->rb);
  if (e != OC_OK) return cli_fail("bound", e);
  if ((e = oc_rrp_plan(&sp, OC_RRP_BEST, NULL, &r->rr)) != OC_OK) return cli_fail("plan", e);
  r->alg = oc_rrp_alg_name(r->rr.alg);
  r->time = r->rr.time;
  r->lb = r->rb.lb;
  r->known = 1;
  return 0;
}

static void rr_json_bound(FILE *f, const cli *c, const cli_res *r) {
  (void)c;
  fprintf(f, ",\"best_known\":%lld", (long long)r->rr.time);
}

static void rr_text_bound(const cli *c, const cli_res *r) {
  printf("optcast bound %s: ", oc_rrp_problem_name(c->rproblem));
  rr_params_text(c);
  printf("\nlower bound %lld steps\n", (long long)r->rb.lb);
  rr_bounds_text(&r->rb);
  printf("best known schedule: %lld steps (%s, 'optcast plan %s --model rrp')\n",
         (long long)r->rr.time, r->alg, oc_rrp_problem_name(c->rproblem));
}

static int rr_verify(cli *c, char *buf, size_t len, cli_res *r) {
  oc_rrp_spec sp = rr_spec(c);
  char err[256];
  int e;
  if ((e = oc_rrp_read_csv(buf, len, c->p.P, c->lines, &r->rs, err, sizeof err)) != OC_OK) {
    if (e == OC_EPARSE) {
      fprintf(stderr, "optcast: schedule: %s\n", err);
      return CLI_EXIT_INPUT;
    }
    return cli_fail("schedule", e);
  }
  if ((e = oc_verify_rrp(&sp, &r->rs, &r->v)) != OC_OK || (e = oc_rrp_bound(&sp, &r->rb)) != OC_OK) {
    if (e == OC_EUNSUP) {
      fprintf(stderr, "optcast: verify: the schedule is too large or irregular for the "
                      "ring checker's work limit\n");
      return CLI_EXIT_INPUT;
    }
    return cli_fail("verify", e);
  }
  r->time = r->v.ok ? r->v.time : 0;
  r->lb = r->rb.lb;
  r->n = r->rs.n;
  return 0;
}

static void rr_text_valid(const cli *c, const cli_res *r) {
  (void)c;
  printf("valid: %zu messages, completion step %lld, lower bound %lld (%s)\n", r->n,
         (long long)r->v.time, (long long)r->lb, r->v.time == r->lb ? "optimal" : "above the bound");
}

const cli_row CLI_ROW_RRP = {
    .model = "rrp", .head_extra = "", .unit = "step ", .build = rr_build, .plan = rr_plan,
    .bound = rr_bound, .verify = rr_verify, .json_params = rr_json_params,
    .json_plan = rr_json_plan, .json_bound = rr_json_bound, .text_plan = rr_text_plan,
    .text_bound = rr_text_bound, .text_valid = rr_text_valid, .picture = rr_picture,
    .csv = rr_csv,
};
