/* cli_kport.c - the k-port model's row: `optcast plan|bound|verify|draw|
 * report bcast|kbcast --model kport` (Bar-Noy & Ho).
 *
 * Its parameters, its planner, bound and verifier, its text (the bounds,
 * the reception table) and its pictures; the flow (cli_flow.c) prints the
 * rest.  Errors print one line on stderr and return exit code 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"


/* --model kport: n processors, k ports, m items (Bar-Noy & Ho) */
static void kp_build(cli *c) {
  if (c->a.set[O_PRESET]) die("--preset: sets LogP parameters; not for --model kport");
  cli_refuse_for_model(&c->a, CLI_NM_KPORT, "not a parameter of --model kport (it takes --ports, "
                                            "--procs, --items, --root, --algorithm)");
  if (!is(c, P_BCAST) && !is(c, P_KBCAST))
    die("problem '%s' is not implemented for --model kport (available: bcast, "
        "kbcast)", c->problem);
  if (c->a.bit == CMD_RANK)
    die("rank: no per-rank view for --model kport (use plan)");
  if (!c->a.set[O_PORTS]) die("missing --ports (required for --model kport)");
  if (!c->a.set[O_PROCS]) die("missing --procs (number of processors)");
  c->p.P = cli_need_int(c, O_PROCS, 1, OC_PROCS_MAX);
  c->kports = cli_need_int(c, O_PORTS, 1, OC_PARAM_MAX);
  c->root = c->a.set[O_ROOT] ? cli_need_int(c, O_ROOT, 0, c->p.P - 1) : 0;
  c->items = c->a.set[O_ITEMS] ? cli_need_int(c, O_ITEMS, 1, OC_KPORT_ITEMS_MAX) : 1;
  if (is(c, P_BCAST) && c->items != 1)
    die("%s", BCAST_ONE_ITEM);
  c->kpalg = OC_KP_BEST;
  if (c->a.set[O_ALGORITHM] &&
      oc_kport_alg_parse(c->a.val[O_ALGORITHM], &c->kpalg) != OC_OK)
    die("--algorithm: unknown algorithm '%s' for --model kport (expected "
        "ktree, rotation, circulant or best)", c->a.val[O_ALGORITHM]);
  if (c->kpalg == OC_KP_CIRCULANT && c->kports != 1)
    die("--algorithm: circulant is for --ports 1, got %lld", (long long)c->kports);
}

static const char *kp_bound_text(void) {
  return "Bar-Noy & Ho Lemmas 1-3 (reconstructed): ceil(m/k') - 1 + "
         "ceil(log_{k+1} n), +1 when the last batch needs more bandwidth; "
         "receptions: 1 + ceil((m-1)/k')";
}

static void kp_json_params(FILE *f, const cli *c, const cli_res *r, int after) {
  const oc_kport_bounds *b = &r->kb;
  if (after)
    fprintf(f, ",\"bounds\":{\"lemma1\":%lld,\"lemma2\":%lld,\"lemma3\":%lld,\"receive\":%lld}",
            (long long)b->depth, (long long)b->lemma2, (long long)b->lemma3, (long long)b->recv);
  else
    fprintf(f, "\"n\":%lld,\"P\":%lld,\"k\":%lld,\"ports\":%lld,\"m\":%lld,\"items\":%lld,"
            "\"root\":%lld,", (long long)c->p.P, (long long)c->p.P, (long long)c->kports,
            (long long)c->kports, (long long)c->items, (long long)c->items, (long long)c->root);
}

static void kp_params_text(const cli *c) {
  printf("k-port k=%lld, n=%lld, m=%lld, root %lld", (long long)c->kports,
         (long long)c->p.P, (long long)c->items, (long long)c->root);
}

/* Karp et al.'s reception table turned sideways: one row per processor,
 * one column per round, the items that arrive there in that round. */
static void kp_table(const cli *c, const oc_sched *s, int64_t rounds) {
  int64_t w = 1, n = c->p.P;
  char cell[64];
  if (n > 32 || rounds > 24) {
    printf("(reception table drawn for n <= 32 and at most 24 rounds; use --csv)\n");
    return;
  }
  for (size_t i = 0; i < s->n; i++) {
    int64_t x = 0;
    for (size_t j = 0; j < s->n; j++)
      if (s->msg[j].dst == s->msg[i].dst && s->msg[j].t == s->msg[i].t)
        x += snprintf(cell, sizeof cell, "%lld", (long long)s->msg[j].item) + 1;
    if (x - 1 > w) w = x - 1;
  }
  printf("reception table (row: processor, column: round, entry: items received)\n");
  printf("%6s", "round");
  for (int64_t r = 1; r <= rounds; r++) printf(" %*lld", (int)w, (long long)r);
  printf("\n");
  for (int64_t q = 0; q < n; q++) {
    printf("%6lld", (long long)q);
    for (int64_t r = 1; r <= rounds; r++) {
      size_t len = 0;
      cell[0] = '\0';
      for (size_t j = 0; j < s->n; j++)
        if (s->msg[j].dst == q && s->msg[j].t == r && len + 24 < sizeof cell)
          len += (size_t)snprintf(cell + len, sizeof cell - len, "%s%lld",
                                  len ? "," : "", (long long)s->msg[j].item);
      printf(" %*s", (int)w, q == c->root ? (r == 1 ? "src" : "") : (len ? cell : "."));
    }
    printf("\n");
  }
}

/* `optcast draw` and `optcast report ... --model kport`: the reception
 * table as an SVG, or the page of cli_report.c around it */
static int kp_picture(cli *c, cli_res *r) {
  cli_draw_in d;
  cli_report_in in;
  cli_report_kv par[6], res[5];
  char title[200], sub[200], err[320], v[6][64];
  char *svg = NULL, *cmdline;
  size_t svglen = 0;
  int e;
  snprintf(title, sizeof title, "optcast %s %s: k-port k=%lld, n=%lld, m=%lld, root %lld",
           c->cmd, c->problem, (long long)c->kports, (long long)c->p.P, (long long)c->items,
           (long long)c->root);
  snprintf(sub, sizeof sub, "algorithm %s; %lld rounds, lower bound %lld (%s); %zu "
           "messages; checked by the verifier: valid", r->alg,
           (long long)r->time, (long long)r->lb,
           r->time == r->lb ? "optimal" : "above the bound", r->n);
  memset(&d, 0, sizeof d);
  d.title = title;
  d.subtitle = sub;
  d.P = c->p.P;
  d.root = c->root;
  d.time = r->time;
  d.s = &r->s;
  d.table = 1;
  if (c->a.bit == CMD_DRAW) return cli_draw_out(c, &d);
  if (cli_draw_doc(&d, &svg, &svglen, err, sizeof err) != OC_OK) die("report: %s", err);
  snprintf(v[0], sizeof v[0], "%lld", (long long)c->p.P);
  snprintf(v[1], sizeof v[1], "%lld", (long long)c->kports);
  snprintf(v[2], sizeof v[2], "%lld", (long long)c->items);
  snprintf(v[3], sizeof v[3], "%lld", (long long)c->root);
  par[0] = (cli_report_kv){"problem", c->problem};
  par[1] = (cli_report_kv){"model", "k-port"};
  par[2] = (cli_report_kv){"processors n", v[0]};
  par[3] = (cli_report_kv){"ports k", v[1]};
  par[4] = (cli_report_kv){"messages m", v[2]};
  par[5] = (cli_report_kv){"root", v[3]};
  snprintf(v[4], sizeof v[4], "%lld rounds", (long long)r->time);
  snprintf(v[5], sizeof v[5], "%lld rounds", (long long)r->lb);
  res[0] = (cli_report_kv){"algorithm", r->alg};
  res[1] = (cli_report_kv){"completion", v[4]};
  res[2] = (cli_report_kv){"lower bound", v[5]};
  res[3] = (cli_report_kv){"checked by the verifier", "valid"};
  cmdline = cli_reproduce_line(c);
  in = (cli_report_in){.title = title, .params = par, .nparams = 6, .result = res,
                       .nresult = 4, .svg = svg, .svglen = svglen, .s = &r->s, .max_rows = 200,
                       .unit = 1, .rounds = 1, .command = cmdline};
  e = cli_report_finish(&in, v[4], v[5], r->time == r->lb, c->a.val[O_HTML]);
  free(svg);
  free(cmdline);
  return e;
}

static int kp_plan(cli *c, cli_res *r) {
  int64_t n = c->p.P;
  int e;
  if ((e = oc_kport_bound(n, c->kports, c->items, &r->kb)) != OC_OK) return cli_fail("bound", e);
  if (c->items > OC_KPORT_PLAN_MAX / n) {
    fprintf(stderr,
            "optcast: --items, --procs: a schedule of %lld x %lld is too large "
            "(n * m at most %lld); 'optcast bound' takes any size\n",
            (long long)c->items, (long long)n, (long long)OC_KPORT_PLAN_MAX);
    return CLI_EXIT_INPUT;
  }
  e = oc_kport_plan(n, c->kports, c->items, c->root, c->kpalg, &r->s, &r->kr);
  if (e == OC_EUNSUP) {
    fprintf(stderr,
            "optcast: --algorithm: rotation has no construction for n=%lld, k=%lld "
            "(docs/ALGORITHMS.md lists the cases); use ktree or best\n",
            (long long)n, (long long)c->kports);
    return CLI_EXIT_INPUT;
  }
  if (e != OC_OK) return cli_fail("plan", e);
  if ((e = oc_verify_kport(n, c->kports, c->items, c->root, &r->s, &r->v)) != OC_OK)
    return cli_fail("verify", e);
  r->alg = oc_kport_alg_name(r->kr.alg);
  if (!r->v.ok || r->v.time != r->kr.time) /* a bug: never print an unchecked plan */
    return cli_self_check_failed(r->alg, r->v.ok ? "time differs" : r->v.detail);
  (void)oc_sched_sort(&r->s);
  r->time = r->kr.time;
  r->lb = r->kb.lb;
  r->n = r->s.n;
  return 0;
}

static void kp_json_plan(FILE *f, const cli *c, const cli_res *r) {
  (void)c;
  fprintf(f, ",\"depth\":%lld", (long long)r->kr.height);
}

static void kp_text_plan(const cli *c, const cli_res *r) {
  const oc_kport_bounds *b = &r->kb;
  printf("optcast plan %s: ", c->problem);
  kp_params_text(c);
  printf(", algorithm %s\n", r->alg);
  printf("time %lld rounds, lower bound %lld (%s); %zu messages; checked by the "
         "verifier: valid\n",
         (long long)r->time, (long long)r->lb,
         r->time == r->lb ? "optimal" : "above the bound", r->n);
  printf("%s %lld (source at depth 0)\n",
         r->kr.alg == OC_KP_KTREE ? "tree height" : "rounds per message",
         (long long)r->kr.height);
  printf("bounds: Lemma 1 %lld, Lemma 2 %lld, Lemma 3 %lld, receptions %lld\n\n",
         (long long)b->depth, (long long)b->lemma2, (long long)b->lemma3,
         (long long)b->recv);
  kp_table(c, &r->s, r->time);
}

static int kp_bound(cli *c, cli_res *r) {
  int64_t n = c->p.P;
  int e = oc_kport_bound(n, c->kports, c->items, &r->kb);
  if (e != OC_OK) return cli_fail("bound", e);
  /* the best schedule's time, when one can be built (times only) */
  if (c->items <= OC_KPORT_PLAN_MAX / n &&
      oc_kport_plan(n, c->kports, c->items, c->root, OC_KP_BEST, NULL, &r->kr) == OC_OK)
    r->known = 1;
  r->alg = r->known ? oc_kport_alg_name(r->kr.alg) : "bound";
  r->time = r->known ? r->kr.time : r->kb.lb; /* no schedule behind it: never "optimal" */
  r->lb = r->kb.lb;
  r->bound = kp_bound_text();
  return 0;
}

static void kp_json_bound(FILE *f, const cli *c, const cli_res *r) {
  (void)c;
  if (!r->known) fprintf(f, ",\"time_is_lower_bound\":true");
}

static void kp_text_bound(const cli *c, const cli_res *r) {
  const oc_kport_bounds *b = &r->kb;
  printf("optcast bound %s: ", c->problem);
  kp_params_text(c);
  printf("\nlower bound %lld rounds (%s)\n", (long long)b->lb, kp_bound_text());
  if (r->known && r->kr.time != b->lb)
    printf("best known schedule: %lld rounds, %s ('optcast plan %s')\n",
           (long long)r->kr.time, r->alg, c->problem);
  printf("Lemma 1 %lld, Lemma 2 %lld, Lemma 3 %lld, receptions %lld; the "
         "rotation algorithm reaches Lemma 2 + 1 = %lld where it has a "
         "construction\n",
         (long long)b->depth, (long long)b->lemma2, (long long)b->lemma3,
         (long long)b->recv, (long long)b->lemma2 + 1);
}

static int kp_verify(cli *c, char *buf, size_t len, cli_res *r) {
  oc_params p;
  int64_t n = c->p.P;
  int e;
  if (c->items > OC_KPORT_PLAN_MAX / n) {
    fprintf(stderr, "optcast: --items, --procs: n * m at most %lld for verify\n",
            (long long)OC_KPORT_PLAN_MAX);
    return CLI_EXIT_INPUT;
  }
  /* rounds are integers: read them as postal times with lambda = 1 */
  if (oc_params_postal(&p, n, 1, 1) != OC_OK) return cli_fail("verify", OC_EINVAL);
  oc_sched_free(&r->s);
  if (cli_read_schedule(buf, len, &p, &r->s) != 0) return CLI_EXIT_INPUT;
  if ((e = oc_verify_kport(n, c->kports, c->items, c->root, &r->s, &r->v)) != OC_OK ||
      (e = oc_kport_bound(n, c->kports, c->items, &r->kb)) != OC_OK)
    return cli_fail("verify", e);
  r->time = r->v.ok ? r->v.time : 0;
  r->lb = r->kb.lb;
  r->n = r->s.n;
  return 0;
}

static void kp_text_valid(const cli *c, const cli_res *r) {
  (void)c;
  printf("valid: %zu messages, completion round %lld, lower bound %lld (%s)\n", r->n,
         (long long)r->v.time, (long long)r->lb, r->v.time == r->lb ? "optimal" : "above the bound");
}

const cli_row CLI_ROW_KPORT = {
    .model = "kport", .head_extra = "", .unit = "round ", .build = kp_build,
    .plan = kp_plan, .bound = kp_bound, .verify = kp_verify, .json_params = kp_json_params,
    .json_plan = kp_json_plan, .json_bound = kp_json_bound, .text_plan = kp_text_plan,
    .text_bound = kp_text_bound, .text_valid = kp_text_valid, .picture = kp_picture,
};
