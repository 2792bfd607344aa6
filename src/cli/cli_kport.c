/* cli_kport.c - `optcast plan|bound|verify bcast|kbcast --model kport`.
 *
 * cli.c parses and range-checks the options; here the k-port problems are
 * solved, checked and printed.  Errors print one line on stderr and return
 * exit code 2 (nothing on stdout); a schedule that breaks a rule returns 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *kp_bound_text(void) {
  return "Bar-Noy & Ho Lemmas 1-3 (reconstructed): ceil(m/k') - 1 + "
         "ceil(log_{k+1} n), +1 when the last batch needs more bandwidth; "
         "receptions: 1 + ceil((m-1)/k')";
}

static void kp_json_head(const cli_kport_args *a, const char *alg, int64_t time,
                         const oc_kport_bounds *b, int valid) {
  printf("{\"problem\":\"%s\",\"model\":\"kport\",\"algorithm\":\"%s\","
         "\"n\":%lld,\"P\":%lld,\"k\":%lld,\"ports\":%lld,\"m\":%lld,"
         "\"items\":%lld,\"root\":%lld,\"time\":%lld,\"lower_bound\":%lld,"
         "\"optimal\":%s,\"bounds\":{\"lemma1\":%lld,\"lemma2\":%lld,"
         "\"lemma3\":%lld,\"receive\":%lld}",
         a->problem, alg, (long long)a->n, (long long)a->n, (long long)a->k,
         (long long)a->k, (long long)a->m, (long long)a->m, (long long)a->root,
         (long long)time, (long long)b->lb,
         valid && time == b->lb ? "true" : "false", (long long)b->depth,
         (long long)b->lemma2, (long long)b->lemma3, (long long)b->recv);
}

static void kp_params_text(const cli_kport_args *a) {
  printf("k-port k=%lld, n=%lld, m=%lld, root %lld", (long long)a->k,
         (long long)a->n, (long long)a->m, (long long)a->root);
}

/* Karp et al.'s reception table turned sideways: one row per processor,
 * one column per round, the items that arrive there in that round. */
static void kp_table(const cli_kport_args *a, const oc_sched *s, int64_t rounds) {
  int64_t w = 1;
  char cell[64];
  if (a->n > 32 || rounds > 24) {
    printf("(reception table drawn for n <= 32 and at most 24 rounds; use --csv)\n");
    return;
  }
  for (size_t i = 0; i < s->n; i++) {
    int64_t c = 0;
    for (size_t j = 0; j < s->n; j++)
      if (s->msg[j].dst == s->msg[i].dst && s->msg[j].t == s->msg[i].t)
        c += snprintf(cell, sizeof cell, "%lld", (long long)s->msg[j].item) + 1;
    if (c - 1 > w) w = c - 1;
  }
  printf("reception table (row: processor, column: round, entry: items received)\n");
  printf("%6s", "round");
  for (int64_t r = 1; r <= rounds; r++) printf(" %*lld", (int)w, (long long)r);
  printf("\n");
  for (int64_t q = 0; q < a->n; q++) {
    printf("%6lld", (long long)q);
    for (int64_t r = 1; r <= rounds; r++) {
      size_t len = 0;
      cell[0] = '\0';
      for (size_t j = 0; j < s->n; j++)
        if (s->msg[j].dst == q && s->msg[j].t == r && len + 24 < sizeof cell)
          len += (size_t)snprintf(cell + len, sizeof cell - len, "%s%lld",
                                  len ? "," : "", (long long)s->msg[j].item);
      printf(" %*s", (int)w, q == a->root ? (r == 1 ? "src" : "") : (len ? cell : "."));
    }
    printf("\n");
  }
}

/* What `draw` and `report` draw for a k-port plan: the reception table. */
static void kp_draw_input(const cli_kport_args *a, const oc_sched *s,
                          const oc_kport_result *r, const oc_kport_bounds *b,
                          cli_draw_in *d, char *title, size_t tn, char *sub, size_t sn) {
  snprintf(title, tn, "optcast %s %s: k-port k=%lld, n=%lld, m=%lld, root %lld", a->cmd,
           a->problem, (long long)a->k, (long long)a->n, (long long)a->m,
           (long long)a->root);
  snprintf(sub, sn, "algorithm %s; %lld rounds, lower bound %lld (%s); %zu "
           "messages; checked by the verifier: valid", oc_kport_alg_name(r->alg),
           (long long)r->time, (long long)b->lb,
           r->time == b->lb ? "optimal" : "above the bound", s->n);
  memset(d, 0, sizeof *d);
  d->title = title;
  d->subtitle = sub;
  d->P = a->n;
  d->root = a->root;
  d->time = r->time;
  d->s = s;
  d->table = 1;
}

/* `optcast draw ... --model kport`: the reception table as an SVG */
static int kp_draw(const cli_kport_args *a, const oc_sched *s, const oc_kport_result *r,
                   const oc_kport_bounds *b) {
  cli_draw_in d;
  char title[200], sub[200], err[320];
  kp_draw_input(a, s, r, b, &d, title, sizeof title, sub, sizeof sub);
  if (cli_draw(&d, a->svg, err, sizeof err) != OC_OK) {
    fprintf(stderr, "optcast: %s: %s\n", a->svg ? "--svg" : "--format", err);
    return 2;
  }
  return 0;
}

/* `optcast report ... --model kport`: the page of cli_report.c */
static int kp_report(const cli_kport_args *a, const oc_sched *s, const oc_kport_result *r,
                     const oc_kport_bounds *b) {
  cli_draw_in d;
  cli_report_in in;
  cli_report_kv par[6], res[5];
  char title[200], sub[200], err[320], v[6][64];
  char *svg = NULL;
  size_t svglen = 0;
  int e;
  kp_draw_input(a, s, r, b, &d, title, sizeof title, sub, sizeof sub);
  if (cli_draw_doc(&d, &svg, &svglen, err, sizeof err) != OC_OK) {
    fprintf(stderr, "optcast: report: %s\n", err);
    return 2;
  }
  snprintf(v[0], sizeof v[0], "%lld", (long long)a->n);
  snprintf(v[1], sizeof v[1], "%lld", (long long)a->k);
  snprintf(v[2], sizeof v[2], "%lld", (long long)a->m);
  snprintf(v[3], sizeof v[3], "%lld", (long long)a->root);
  par[0] = (cli_report_kv){"problem", a->problem};
  par[1] = (cli_report_kv){"model", "k-port"};
  par[2] = (cli_report_kv){"processors n", v[0]};
  par[3] = (cli_report_kv){"ports k", v[1]};
  par[4] = (cli_report_kv){"messages m", v[2]};
  par[5] = (cli_report_kv){"root", v[3]};
  snprintf(v[4], sizeof v[4], "%lld rounds", (long long)r->time);
  snprintf(v[5], sizeof v[5], "%lld rounds", (long long)b->lb);
  res[0] = (cli_report_kv){"algorithm", oc_kport_alg_name(r->alg)};
  res[1] = (cli_report_kv){"completion", v[4]};
  res[2] = (cli_report_kv){"lower bound", v[5]};
  res[3] = (cli_report_kv){"checked by the verifier", "valid"};
  in = (cli_report_in){.title = title, .params = par, .nparams = 6, .result = res,
                       .nresult = 4, .svg = svg, .svglen = svglen, .s = s, .max_rows = 200,
                       .unit = 1, .rounds = 1, .command = a->command ? a->command : ""};
  e = cli_report_finish(&in, v[4], v[5], r->time == b->lb, a->html);
  free(svg);
  return e;
}

static int kp_plan(const cli_kport_args *a) {
  oc_sched s;
  oc_kport_result r;
  oc_kport_bounds b;
  oc_verdict v;
  int e;
  if ((e = oc_kport_bound(a->n, a->k, a->m, &b)) != OC_OK) return cli_fail("bound", e);
  if (a->m > OC_KPORT_PLAN_MAX / a->n) {
    fprintf(stderr,
            "optcast: --items, --procs: a schedule of %lld x %lld is too large "
            "(n * m at most %lld); 'optcast bound' takes any size\n",
            (long long)a->m, (long long)a->n, (long long)OC_KPORT_PLAN_MAX);
    return 2;
  }
  oc_sched_init(&s);
  e = oc_kport_plan(a->n, a->k, a->m, a->root, a->alg, &s, &r);
  if (e == OC_EUNSUP) {
    oc_sched_free(&s);
    fprintf(stderr,
            "optcast: --algorithm: rotation has no construction for n=%lld, k=%lld "
            "(docs/ALGORITHMS.md lists the cases); use ktree or best\n",
            (long long)a->n, (long long)a->k);
    return 2;
  }
  if (e != OC_OK) {
    oc_sched_free(&s);
    return cli_fail("plan", e);
  }
  if ((e = oc_verify_kport(a->n, a->k, a->m, a->root, &s, &v)) != OC_OK) {
    oc_sched_free(&s);
    return cli_fail("verify", e);
  }
  if (!v.ok || v.time != r.time) { /* a bug: never print an unchecked plan */
    oc_sched_free(&s);
    return cli_self_check_failed(oc_kport_alg_name(r.alg), v.ok ? "time differs" : v.detail);
  }
  oc_sched_sort(&s);
  if (a->draw || a->report) {
    e = a->draw ? kp_draw(a, &s, &r, &b) : kp_report(a, &s, &r, &b);
    oc_sched_free(&s);
    return e;
  }
  if (a->csv) {
    oc_sched_write_csv(stdout, &s, NULL); /* rounds */
  } else if (a->json) {
    kp_json_head(a, oc_kport_alg_name(r.alg), r.time, &b, 1);
    printf(",\"depth\":%lld,\"messages\":%zu,\"verified\":true}\n",
           (long long)r.height, s.n);
  } else {
    printf("optcast plan %s: ", a->problem);
    kp_params_text(a);
    printf(", algorithm %s\n", oc_kport_alg_name(r.alg));
    printf("time %lld rounds, lower bound %lld (%s); %zu messages; checked by the "
           "verifier: valid\n",
           (long long)r.time, (long long)b.lb,
           r.time == b.lb ? "optimal" : "above the bound", s.n);
    printf("%s %lld (source at depth 0)\n",
           r.alg == OC_KP_KTREE ? "tree height" : "rounds per message",
           (long long)r.height);
    printf("bounds: Lemma 1 %lld, Lemma 2 %lld, Lemma 3 %lld, receptions %lld\n\n",
           (long long)b.depth, (long long)b.lemma2, (long long)b.lemma3,
           (long long)b.recv);
    kp_table(a, &s, r.time);
  }
  oc_sched_free(&s);
  return 0;
}

static int kp_bound(const cli_kport_args *a) {
  oc_kport_bounds b;
  oc_kport_result r;
  int e = oc_kport_bound(a->n, a->k, a->m, &b), known = 0;
  if (e != OC_OK) return cli_fail("bound", e);
  /* the best schedule's time, when one can be built (times only) */
  if (a->m <= OC_KPORT_PLAN_MAX / a->n &&
      oc_kport_plan(a->n, a->k, a->m, a->root, OC_KP_BEST, NULL, &r) == OC_OK)
    known = 1;
  if (a->json) {
    kp_json_head(a, known ? oc_kport_alg_name(r.alg) : "bound", known ? r.time : b.lb,
                 &b, known); /* no schedule behind it: never "optimal" */
    if (!known) printf(",\"time_is_lower_bound\":true");
    printf(",\"bound\":\"%s\"}\n", kp_bound_text());
  } else {
    printf("optcast bound %s: ", a->problem);
    kp_params_text(a);
    printf("\nlower bound %lld rounds (%s)\n", (long long)b.lb, kp_bound_text());
    if (known && r.time != b.lb)
      printf("best known schedule: %lld rounds, %s ('optcast plan %s')\n",
             (long long)r.time, oc_kport_alg_name(r.alg), a->problem);
    printf("Lemma 1 %lld, Lemma 2 %lld, Lemma 3 %lld, receptions %lld; the "
           "rotation algorithm reaches Lemma 2 + 1 = %lld where it has a "
           "construction\n",
           (long long)b.depth, (long long)b.lemma2, (long long)b.lemma3,
           (long long)b.recv, (long long)b.lemma2 + 1);
  }
  return 0;
}

static int kp_verify(const cli_kport_args *a, char *buf, size_t len) {
  oc_params p;
  oc_sched s;
  oc_verdict v;
  oc_kport_bounds b;
  int e;
  if (a->m > OC_KPORT_PLAN_MAX / a->n) {
    fprintf(stderr, "optcast: --items, --procs: n * m at most %lld for verify\n",
            (long long)OC_KPORT_PLAN_MAX);
    return 2;
  }
  /* rounds are integers: read them as postal times with lambda = 1 */
  if (oc_params_postal(&p, a->n, 1, 1) != OC_OK) return cli_fail("verify", OC_EINVAL);
  if (cli_read_schedule(buf, len, &p, &s) != 0) return 2;
  if ((e = oc_verify_kport(a->n, a->k, a->m, a->root, &s, &v)) != OC_OK ||
      (e = oc_kport_bound(a->n, a->k, a->m, &b)) != OC_OK) {
    oc_sched_free(&s);
    return cli_fail("verify", e);
  }
  if (a->json) {
    kp_json_head(a, "input", v.ok ? v.time : 0, &b, v.ok);
    cli_json_verify_tail(s.n, &v, NULL, NULL);
  } else if (v.ok) {
    printf("valid: %zu messages, completion round %lld, lower bound %lld (%s)\n", s.n,
           (long long)v.time, (long long)b.lb,
           v.time == b.lb ? "optimal" : "above the bound");
  }
  if (!v.ok) cli_print_violation(&v, a->json, "round ", NULL);
  oc_sched_free(&s);
  return v.ok ? 0 : 1;
}

int cli_kport(const cli_kport_args *a, char *buf, size_t len) {
  if (strcmp(a->cmd, "plan") == 0 || a->draw || a->report) return kp_plan(a);
  if (strcmp(a->cmd, "bound") == 0) return kp_bound(a);
  return kp_verify(a, buf, len);
}
