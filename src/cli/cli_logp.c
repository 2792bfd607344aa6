/* cli_logp.c - the LogP and postal models' row: bcast, kbcast, sum,
 * reduce, allreduce, alltoall through the library's one call
 * (oc_problem_plan, oc_problem_bound), the CLI's own texts for the
 * planners' refusals, the text output, the pictures and the report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"


void cli_print_params(FILE *f, const cli *c) {
  if (c->p.model == OC_MODEL_LOGP && c->tunit != NULL) { /* given with units */
    char bl[64], bo[64], bg[64], bm[64];
    fprintf(f, "LogP L=%s%s o=%s%s g=%s%s (times in %s; model unit %s %s)",
            cli_tfmt(bl, sizeof bl, c, c->p.L), c->tunit, cli_tfmt(bo, sizeof bo, c, c->p.o),
            c->tunit, cli_tfmt(bg, sizeof bg, c, c->p.g), c->tunit, c->tunit,
            cli_tfmt(bm, sizeof bm, c, 1), c->tunit);
  } else if (c->p.model == OC_MODEL_LOGP)
    fprintf(f, "LogP L=%lld o=%lld g=%lld", (long long)c->p.L,
            (long long)c->p.o, (long long)c->p.g);
  else if (c->p.lam_den == 1)
    fprintf(f, "postal lambda=%lld", (long long)c->p.lam_num);
  else {
    char b[64];
    fprintf(f, "postal lambda=%s (=%lld/%lld)",
            cli_tfmt(b, sizeof b, c, c->p.lam_num), (long long)c->p.lam_num,
            (long long)c->p.lam_den);
  }
  fprintf(f, ", P=%lld, root %lld", (long long)c->p.P, (long long)c->root);
  if ((is(c, P_BCAST) || is(c, P_REDUCE) || is(c, P_ALLREDUCE)) && c->items > 1)
    fprintf(f, ", m=%lld packets", (long long)c->items);
}

/* the JSON head's parameters: P before the times, the model's after */
static void lp_json_params(FILE *f, const cli *c, const cli_res *r, int after) {
  if (!after) {
    fprintf(f, "\"P\":%lld,\"procs\":%lld,", (long long)c->p.P, (long long)c->p.P);
    return;
  }
  if (c->p.model == OC_MODEL_LOGP && c->tunit != NULL) { /* in the unit given */
    fputc(',', f);
    cli_json_time(f, "L", c, c->p.L);
    fputc(',', f);
    cli_json_time(f, "o", c, c->p.o);
    fputc(',', f);
    cli_json_time(f, "g", c, c->p.g);
    fprintf(f, ",\"unit\":\"%s\",\"model_unit_ps\":%lld,\"model_L\":%lld,\"model_o\":%lld,"
               "\"model_g\":%lld", c->tunit, (long long)c->model_ps, (long long)c->p.L,
            (long long)c->p.o, (long long)c->p.g);
  } else if (c->p.model == OC_MODEL_LOGP) {
    fprintf(f, ",\"L\":%lld,\"o\":%lld,\"g\":%lld", (long long)c->p.L,
            (long long)c->p.o, (long long)c->p.g);
    if (c->a.set[O_PARAMS])
      fprintf(f, ",\"params_extrapolated\":%s", c->params_past > 0 ? "true" : "false");
  } else {
    char b[64];
    int64_t gg = oc_gcd(r->time, c->p.unit);
    fprintf(f, ",\"lambda\":%s,\"lambda_exact\":\"%lld/%lld\"",
            cli_tfmt(b, sizeof b, c, c->p.lam_num), (long long)c->p.lam_num,
            (long long)c->p.lam_den);
    if (c->p.unit / gg == 1)
      fprintf(f, ",\"time_exact\":\"%lld\"", (long long)(r->time / gg));
    else
      fprintf(f, ",\"time_exact\":\"%lld/%lld\"", (long long)(r->time / gg),
              (long long)(c->p.unit / gg));
  }
  fprintf(f, ",\"root\":%lld,\"items\":%lld", (long long)c->root, (long long)c->items);
}

/* plan --csv: long messages as their packets (CSV has no length), in time
 * order, written by the library */
static void lp_csv(const cli *c, cli_res *r) {
  oc_sched *s = &r->s;
  if (s->len != NULL) {
    oc_sched x;
    oc_sched_init(&x);
    if (oc_sched_packets(s, c->p.g, &x) != OC_OK) die("out of memory");
    oc_sched_free(s);
    *s = x;
  }
  (void)oc_sched_sort(s);
  if (oc_sched_write_csv(stdout, s, &c->p) == OC_ENOMEM) die("out of memory");
}

/* reduce, allreduce or bcast of m > 1 packets: a choice among constructions */
static int vec(const cli *c) {
  return (is(c, P_BCAST) || is(c, P_REDUCE) || is(c, P_ALLREDUCE)) && c->items > 1;
}

static void progress(const cli *c, const char *what, int plan) {
  int many = vec(c) && c->items >= ((int64_t)1 << 17) / c->p.P;
  int64_t bytes = plan ? cli_plan_bytes(c) : 0;
  if ((c->p.P >= 1000000 || many) && !c->a.set[O_QUIET] && isatty(2)) {
    char line[200];
    int at = snprintf(line, sizeof line, "optcast: %s (P=%lld%s", what, (long long)c->p.P,
                      many ? ", timing every multi-packet construction" : "");
    if (bytes >= 100000000 && at > 0 && (size_t)at < sizeof line) /* ~1 s a GB here */
      at += snprintf(line + at, sizeof line - (size_t)at, "; about %.1f GB and %.0f s",
                     (double)bytes / 1e9, (double)bytes / 1.7e8);
    if (at > 0 && (size_t)at < sizeof line) snprintf(line + at, sizeof line - (size_t)at, ")...\n");
    cli_progress_say(line);
  }
  if (bytes >= 100000000) { /* and with the progress line */
    char b[96];
    snprintf(b, sizeof b, "%s, about %.1f GB and %.0f s in all", what, (double)bytes / 1e9,
             (double)bytes / 1.7e8);
    cli_progress_note(b);
  }
}

static void lp_free(cli_res *r) { free(r->counts); }

/* oc_reduce_new's failures, named for the user */
static void reduce_fail(const cli *c, int e) {
  if (e == OC_EUNSUP)
    die("--root: a rank-order reduction to root %lld is beyond this planner for "
        "these parameters (more than 2^22 reception slots, or no split found); "
        "--commutative always works", (long long)c->root);
  cli_lib_fail(c->problem, e);
}

/* a planner's schedule the verifier rejects or times otherwise: a bug */
static _Noreturn void lp_self_check(const cli *c, const char *alg, int64_t time,
                                    const oc_verdict *v) {
  char b1[64];
  if (!v->ok)
    fprintf(stderr,
            "optcast: internal error: the %s schedule fails verification: "
            "processor %lld, time %s, rule %s: %s\n",
            alg, (long long)v->proc, cli_tfmt(b1, sizeof b1, c, v->at),
            oc_rule_name(v->rule), v->detail);
  else
    fprintf(stderr, "optcast: internal error: %s: planned time and verified "
                    "time differ (%lld, %lld)\n", alg, (long long)time,
            (long long)v->time);
  cli_exit(CLI_EXIT_CHECK);
}

/* plan = 1: build and verify the schedule (oc_problem_plan); 0: times
 * only (oc_problem_bound).  The planners' refusals get the CLI's texts. */
static void lp_solve(cli *c, int plan, cli_res *r) {
  oc_problem pr;
  oc_result res;
  int e;
  r->known = 1;
  {
    oc_problem_init(&pr, (oc_problem_kind)CLI_PROBLEMS[c->id].kind, &c->p);
    pr.root = c->root;
    pr.items = c->items;
    if (is(c, P_SUM)) pr.operands = cli_operands(c);
    if (is(c, P_BCAST)) pr.alg = c->items > 1 ? (int)c->malg : (int)c->alg;
    if ((is(c, P_REDUCE) || is(c, P_ALLREDUCE)) && c->items > 1) pr.alg = (int)c->malg;
    if (is(c, P_KBCAST)) { /* its bound's refusals first, in their own words */
      int64_t lb, l8, k31;
      if ((e = oc_kbcast_bound(&c->p, c->items, &lb, &l8, &k31)) != OC_OK)
        cli_lib_fail("kbcast", e);
      pr.alg = (int)c->kalg;
      pr.degree = c->degree;
    }
    if (c->a.set[O_COMMUTATIVE]) pr.flags |= OC_PF_COMMUTATIVE;
    if (c->a.set[O_ORDERED]) pr.flags |= OC_PF_ORDERED;
    if (c->a.set[O_PERSONALIZED]) pr.flags |= OC_PF_PERSONALIZED;
    if (plan) cli_check_plan_size(c);
    if (plan) progress(c, "building and verifying the schedule", 1);
    else if (vec(c)) progress(c, "timing the constructions", 0);
    e = plan ? oc_problem_plan(&pr, &r->s, &res) : oc_problem_bound(&pr, &res);
    if (e == OC_EINVALID) lp_self_check(c, res.algorithm, res.time, &res.check);
    if (e == OC_ERANGE && vec(c) && !is(c, P_BCAST))
      die("--procs, --items: P=%lld with %lld packets is too large (P*m at most %lld, "
          "m(max(g,o)+1) at most 2^50)", (long long)c->p.P, (long long)c->items,
          (long long)OC_MREDUCE_MAX);
    if (e == OC_EUNSUP && is(c, P_REDUCE)) reduce_fail(c, e);
    if (e == OC_ERANGE && (is(c, P_SUM) || is(c, P_REDUCE)) && c->p.P > OC_REDUCE_PLAN_MAX)
      die("--procs: %lld processors: sum and reduce plans (and sum's operand counts) "
          "go up to %lld", (long long)c->p.P, (long long)OC_REDUCE_PLAN_MAX);
    if (e == OC_ERANGE && is(c, P_ALLREDUCE))
      die("--procs: the allreduce schedule for P=%lld has too many messages "
          "(at most 2^26)", (long long)c->p.P);
    if (e == OC_ERANGE && is(c, P_ALLTOALL) && res.time == OC_SAT)
      die("--procs: the all-to-all time overflows");
    if (e == OC_ERANGE && is(c, P_ALLTOALL))
      die("--procs, --items: P=%lld with %lld items is too large for a global "
          "schedule", (long long)c->p.P, (long long)c->items);
    if (e == OC_ERANGE && is(c, P_BCAST) && c->items > 1 && c->malg == OC_MB_CIRCULANT &&
        oc_mul_sat(c->p.P, c->items) <= OC_MBCAST_MAX)
      die("--algorithm: circulant-bcast has no schedule for P=%lld with these parameters "
          "(its receive table costs P q (q+1) steps, q = ceil(log2 P), at most 2^29: P up to "
          "about 2^20; or no slots for segments of these parameters)",
          (long long)c->p.P);
    if (e == OC_ERANGE && is(c, P_BCAST))
      die("--procs, --items: P=%lld with %lld packets is too large (P*m at most %lld, "
          "(m-1)max(g,o) at most 2^50)", (long long)c->p.P, (long long)c->items,
          (long long)OC_MBCAST_MAX);
    if (e == OC_ERANGE && is(c, P_KBCAST)) /* the plan's size */
      die("--procs, --items: P=%lld with %lld items is too large (at most 2^26 "
          "messages)", (long long)c->p.P, (long long)c->items);
    if (e == OC_ENOMEM) die("out of memory");
    if (e) cli_lib_fail(c->problem, e);
    r->alg = res.algorithm;
    r->time = res.time;
    r->lb = res.lower_bound;
    r->counts = res.counts; /* ours now */
    r->used = res.used;
    r->upper_only = res.upper_only;
    r->bound = res.bound_source;
    r->mb = res;
    r->mb.counts = NULL;
    if (vec(c) && !is(c, P_BCAST)) r->alg = r->mb.choice; /* in words */
    if (is(c, P_KBCAST)) { /* what the JSON and the report say of the tree */
      r->kres.alg = (oc_kbcast_alg)res.alg;
      r->kres.degree = res.degree;
      r->kres.time = res.time;
      r->kres.formula = res.formula;
      r->kres.lam_int = res.lam_int;
    }
  }
  r->n = r->s.n;
}

static int lp_plan(cli *c, cli_res *r) {
  lp_solve(c, 1, r);
  return 0;
}

static int lp_bound(cli *c, cli_res *r) {
  lp_solve(c, 0, r);
  return 0;
}

/* the problems' own keys (plan and bound) */
static void lp_json_extra(FILE *f, const cli *c, const cli_res *r) {
  if (is(c, P_SUM) || is(c, P_REDUCE)) {
    if (is(c, P_SUM) && r->counts) {
      int64_t n = 0;
      for (int64_t q = 0; q < c->p.P; q++) n += r->counts[q];
      fprintf(f, ",\"operands\":%lld", (long long)n);
      { /* Karp's inverse problem: the most operands summable by then */
        int64_t cap;
        if (oc_sum_capacity(&c->p, r->time, &cap) == OC_OK)
          fprintf(f, ",\"capacity\":%lld", (long long)cap);
      }
    }
    fprintf(f, ",\"used\":%lld", (long long)r->used);
    if (is(c, P_REDUCE))
      fprintf(f, ",\"ordered\":%s",
              c->a.set[O_COMMUTATIVE] || c->items > 1 ? "false" : "true");
    if (r->counts) {
      fputs(",\"operands_per_proc\":[", f);
      for (int64_t q = 0; q < c->p.P; q++)
        fprintf(f, "%s%lld", q ? "," : "", (long long)r->counts[q]);
      fputc(']', f);
    }
  }
  if (is(c, P_ALLTOALL))
    fprintf(f, ",\"personalized\":%s", c->a.set[O_PERSONALIZED] ? "true" : "false");
  if (vec(c)) { /* the choice and why */
    fprintf(f, ",\"choice\":{\"construction\":\"%s\",\"segment\":%lld,\"trees\":",
            is(c, P_BCAST) ? r->alg : r->mb.algorithm, (long long)r->mb.segment);
    {
      oc_mbcast_alg a;
      int circ = oc_mbcast_alg_parse(is(c, P_BCAST) ? r->alg : r->mb.algorithm, &a) == OC_OK &&
                 a == OC_MB_CIRCULANT;
      if (r->mb.degree > 0 && !circ) fprintf(f, "%lld", (long long)r->mb.degree);
      else fputs("null", f);
      fputs(",\"streams\":", f);
      if (r->mb.degree > 0 && circ) fprintf(f, "%lld", (long long)r->mb.degree);
      else fputs("null", f);
    }
    if (r->mb.runner_up != NULL)
      fprintf(f, ",\"runner_up\":\"%s\",\"runner_up_time\":%lld", r->mb.runner_up,
              (long long)r->mb.runner_up_time);
    else
      fputs(",\"runner_up\":null,\"runner_up_time\":null", f);
    if (!is(c, P_BCAST)) fprintf(f, ",\"description\":\"%s\"", r->mb.choice);
    fprintf(f, ",\"simulated\":%lld,\"reason\":\"%s\"}", (long long)r->mb.timed,
            oc_mul_sat(c->p.P, c->items) > OC_MB_FULL_MAX
                ? "past 2^22 messages: the constructions ranked on smaller instances, the "
                  "first few simulated at full size; the fastest of those"
                : "the fastest of the constructions simulated, each at its best segment size");
  }
  if (is(c, P_KBCAST)) {
    int64_t lb, l8, k31;
    fputc(',', f);
    if (r->kres.formula >= 0) cli_json_time(f, "lemma_time", c, r->kres.formula); /* the paper's */
    else fputs("\"lemma_time\":null", f);
    if (r->kres.alg == OC_KB_DTREE) fprintf(f, ",\"degree\":%lld", (long long)r->kres.degree);
    if (r->kres.lam_int > 0) fprintf(f, ",\"lambda_plan\":%lld", (long long)r->kres.lam_int);
    if (oc_kbcast_bound(&c->p, c->items, &lb, &l8, &k31) == OC_OK) {
      fputc(',', f);
      cli_json_time(f, "bound_lemma8", c, l8);
      if (k31 >= 0) { fputc(',', f); cli_json_time(f, "bound_karp31", c, k31); }
    }
    if (oc_kbcast_bound_single(&c->p, c->items, &lb, &l8) == OC_OK)
      fprintf(f, ",\"bound_single_sending\":%lld,\"theorem37_time\":%lld", (long long)lb,
              (long long)l8);
  }
}

static void lp_json_bound(FILE *f, const cli *c, const cli_res *r) {
  lp_json_extra(f, c, r);
  if (r->upper_only) fprintf(f, ",\"time_is_upper_bound\":true");
}

static void kb_single_text(const cli *c) {
  int64_t single, thm37;
  if (!is(c, P_KBCAST) || oc_kbcast_bound_single(&c->p, c->items, &single, &thm37) != OC_OK)
    return;
  printf("single-sending (the source sends each item once): at least B(P-1) + L + m - 1 = "
         "%lld; Theorem 3.7's schedule at most B(P-1) + 2L + m - 2 = %lld (Karp et al. 3.4)\n",
         (long long)single, (long long)thm37);
}

static void lp_text_bound(const cli *c, const cli_res *r) {
  char b[64];
  printf("optcast bound %s: ", c->problem);
  cli_print_params(stdout, c);
  printf("\nlower bound %s%s (%s)\n", cli_tfmt(b, sizeof b, c, r->lb), cli_unit_suffix(c),
         r->bound);
  kb_single_text(c);
  if (r->time != r->lb)
    printf("best known schedule: %s%s%s ('optcast plan %s')\n",
           r->upper_only ? "at most " : "", cli_tfmt(b, sizeof b, c, r->time),
           cli_unit_suffix(c), c->problem);
}

static void lp_text_plan(const cli *c, const cli_res *r) {
  char b1[64], b2[64];
  printf("optcast plan %s: ", c->problem);
  cli_print_params(stdout, c);
  printf(", algorithm %s", r->alg);
  if (is(c, P_KBCAST) && r->kres.lam_int > 0) /* a fractional lambda */
    printf(" (its plan for lambda=%lld, every send at the same time)", (long long)r->kres.lam_int);
  printf("\n");
  printf("time %s%s, lower bound %s%s (%s); %zu messages", cli_tfmt(b1, sizeof b1, c, r->time),
         cli_unit_suffix(c), cli_tfmt(b2, sizeof b2, c, r->lb), cli_unit_suffix(c),
         r->time == r->lb ? "optimal" : "above the bound", r->s.n);
  if (r->s.nop) printf(", %zu addition steps", r->s.nop);
  printf("; checked by the verifier: valid\n");
  if (vec(c) && !is(c, P_BCAST)) {
    printf("construction %s", r->mb.choice);
    if (r->mb.runner_up != NULL)
      printf("; runner-up %s at %s", r->mb.runner_up,
             cli_tfmt(b1, sizeof b1, c, r->mb.runner_up_time));
    printf(" (%lld candidates simulated)\nlower bound: %s\n", (long long)r->mb.timed, r->bound);
    printf("operator: commutative (the %lld-packet constructions add in arrival order; none "
           "keeps rank order)\n", (long long)c->items);
  }
  if (is(c, P_BCAST) && c->items > 1) {
    oc_mbcast_alg a;
    printf("construction %s", r->alg);
    if (r->mb.degree > 0)
      printf(" (%lld %s)", (long long)r->mb.degree,
             oc_mbcast_degree_unit(oc_mbcast_alg_parse(r->alg, &a) == OC_OK ? a : OC_MB_BEST,
                                   r->mb.degree));
    printf(" in segments of %lld packet%s", (long long)r->mb.segment,
           r->mb.segment == 1 ? "" : "s");
    if (r->mb.runner_up != NULL)
      printf("; runner-up %s at %s", r->mb.runner_up,
             cli_tfmt(b1, sizeof b1, c, r->mb.runner_up_time));
    printf(" (%lld candidates simulated)\nlower bound: %s\n", (long long)r->mb.timed, r->bound);
  }
  kb_single_text(c);
  if (is(c, P_SUM)) {
    printf("operands per processor (%lld used):", (long long)r->used);
    for (int64_t q = 0; q < c->p.P && q < 64; q++) printf(" %lld", (long long)r->counts[q]);
    if (c->p.P > 64) printf(" ...");
    printf("\n");
  }
  printf("\n");
  if (vec(c) && !is(c, P_BCAST)) {
    printf("(no pictures for vector reductions yet; use --csv for the schedule)\n");
  } else if (c->p.P <= 4096) {
    if (is(c, P_BCAST) && c->items == 1) cli_render_tree(stdout, &c->p, c->root, &r->s, 0);
    if (is(c, P_SUM) || (is(c, P_REDUCE) && c->items == 1))
      cli_render_tree(stdout, &c->p, c->root, &r->s, 1);
    cli_render_activity(stdout, &c->p, is(c, P_BCAST) ? c->root : -1, &r->s, r->time);
  } else {
    printf("(pictures drawn for P <= 4096; use --csv for the schedule)\n");
  }
}

/* verify: the problem's verifier on the rows read (sum: from --counts,
 * reduce: one operand each; the additions inferred), and its bound */
static int lp_verify(cli *c, char *buf, size_t len, cli_res *r) {
  oc_sched *s = &r->s;
  oc_verdict *v = &r->v;
  int64_t n = 0, *cnt = NULL;
  char err[200];
  int e;
  cli_check_plan_size(c);
  if (is(c, P_SUM)) {
    n = cli_operands(c);
    if (!c->a.set[O_COUNTS]) die("missing --counts (operands each processor starts with)");
    cnt = cli_parse_counts(c, n);
  }
  if (vec(c) && !is(c, P_BCAST)) { /* m packets: the vector forms */
    if (oc_sched_read_csv_vector(buf, len, &c->p, s, err, sizeof err) != OC_OK) die("%s", err);
    if ((e = oc_verify_vreduce(&c->p, is(c, P_REDUCE) ? c->root : -1, c->items, s, v)) != OC_OK)
      cli_lib_fail("verify", e);
    e = is(c, P_REDUCE) ? oc_mreduce_bound(&c->p, c->items, &r->lb, NULL)
                        : oc_mallreduce_bound(&c->p, c->items, &r->lb, NULL);
    if (e != OC_OK) cli_lib_fail("bound", e);
    r->time = v->time;
    r->n = s->n;
    return 0;
  }
  if (oc_sched_read_csv(buf, len, &c->p, s, err, sizeof err) != OC_OK) die("%s", err);
  if (is(c, P_BCAST)) {
    if ((e = oc_verify_bcast(&c->p, c->root, c->items, s, v)) != OC_OK) cli_lib_fail("verify", e);
    if (oc_mbcast_bound(&c->p, c->items, &r->lb, NULL) != OC_OK) die("--procs: invalid parameters");
  } else if (is(c, P_KBCAST)) {
    int64_t l8, k31;
    if ((e = oc_verify_bcast(&c->p, c->root, c->items, s, v)) != OC_OK) cli_lib_fail("verify", e);
    if ((e = oc_kbcast_bound(&c->p, c->items, &r->lb, &l8, &k31)) != OC_OK) cli_lib_fail("bound", e);
  } else if (is(c, P_SUM) || is(c, P_REDUCE)) {
    if (is(c, P_REDUCE)) {
      n = c->p.P;
      cnt = (int64_t *)malloc((size_t)c->p.P * sizeof *cnt);
      if (cnt == NULL) die("out of memory");
      for (int64_t q = 0; q < c->p.P; q++) cnt[q] = 1;
    }
    r->counts = cnt;
    if ((e = oc_verify_reduce_rows(&c->p, c->root, cnt, c->a.set[O_ORDERED], s, v)) != OC_OK)
      cli_lib_fail("verify", e);
    if (is(c, P_SUM)) e = oc_sum_time(&c->p, n, &r->lb); else e = oc_reduce_time(&c->p, &r->lb);
    if (e) cli_lib_fail("bound", e);
  } else if (is(c, P_ALLREDUCE) && c->a.set[O_ORDERED]) {
    /* phase 1 (item 0): additions inferred in rank order; phase 2: item 1 */
    if ((e = oc_verify_allreduce_ordered_rows(&c->p, s, v)) != OC_OK) cli_lib_fail("verify", e);
    if ((e = oc_reduce_time(&c->p, &r->lb)) != OC_OK) cli_lib_fail("bound", e);
  } else if (is(c, P_ALLREDUCE)) {
    /* the default plan's two forms: the circulant's (item: the index in the
     * sender's history), else reduce + broadcast (item 0 the reduction into
     * rank 0, its additions inferred, item 1 the broadcast back) - the
     * circulant's verdict when neither holds */
    int two = s->n > 0;
    for (size_t i = 0; i < s->n; i++) two &= s->msg[i].item <= 1;
    if ((e = oc_verify_allreduce(&c->p, s, v)) != OC_OK) cli_lib_fail("verify", e);
    if (!v->ok && two) {
      oc_sched t;
      oc_verdict w;
      w.ok = 0;
      oc_sched_init(&t);
      for (size_t i = 0; i < s->n && e == OC_OK; i++)
        e = oc_sched_push(&t, s->msg[i].t, s->msg[i].src, s->msg[i].dst, s->msg[i].item);
      if (e == OC_OK) e = oc_verify_allreduce_rows(&c->p, 0, &t, &w);
      if (e != OC_OK) cli_lib_fail("verify", e);
      if (w.ok) *v = w;
      oc_sched_free(&t);
    }
    if ((e = oc_allreduce_bound(&c->p, &r->lb)) != OC_OK) cli_lib_fail("bound", e);
  } else {
    int64_t t;
    if ((e = oc_verify_alltoall(&c->p, c->items, c->a.set[O_PERSONALIZED], s, v)) != OC_OK)
      cli_lib_fail("verify", e);
    if ((e = oc_alltoall_schedule(&c->p, c->items, c->a.set[O_PERSONALIZED], NULL, &t,
                                  &r->lb)) != OC_OK)
      cli_lib_fail("bound", e);
  }
  if (is(c, P_SUM)) { /* the contract's key for sum */
    size_t elen = 0;
    FILE *m = open_memstream(&r->extra, &elen);
    if (m == NULL) die("out of memory");
    fprintf(m, ",\"operands\":%lld,\"operands_per_proc\":[", (long long)n);
    for (int64_t q = 0; q < c->p.P; q++) fprintf(m, "%s%lld", q ? "," : "", (long long)cnt[q]);
    fputc(']', m);
    if (fclose(m) != 0) die("out of memory");
  }
  r->time = v->time;
  r->n = s->n;
  return 0;
}

static void lp_text_valid(const cli *c, const cli_res *r) {
  char b1[64], b2[64];
  printf("valid: %zu messages, completion time %s, lower bound %s (%s)\n", r->n,
         cli_tfmt(b1, sizeof b1, c, r->v.time), cli_tfmt(b2, sizeof b2, c, r->lb),
         r->v.time == r->lb ? "optimal" : "above the bound");
}

static void draw_input(const cli *c, const cli_res *r, cli_draw_in *d, char *title,
                       size_t tn, char *sub, size_t sn) {
  char b1[64], b2[64];
  char *ptext = NULL;
  size_t plen = 0;
  FILE *m = open_memstream(&ptext, &plen);
  int e;
  if (m != NULL) {
    cli_print_params(m, c);
    e = fclose(m);
  } else {
    e = EOF;
  }
  if (e != 0) die("out of memory");
  snprintf(title, tn, "optcast %s %s: %s", c->cmd, c->problem, ptext ? ptext : "");
  free(ptext);
  char lam[64] = "";
  if (is(c, P_KBCAST) && r->kres.lam_int > 0)
    snprintf(lam, sizeof lam, " (its plan for lambda=%lld)", (long long)r->kres.lam_int);
  snprintf(sub, sn, "algorithm %s%s; time %s, lower bound %s (%s); %zu messages%s; "
           "checked by the verifier: valid", r->alg, lam, cli_tfmt(b1, sizeof b1, c, r->time),
           cli_tfmt(b2, sizeof b2, c, r->lb), r->time == r->lb ? "optimal" : "above the bound",
           r->s.n, r->s.nop ? ", with additions" : "");
  memset(d, 0, sizeof *d);
  d->title = title;
  d->subtitle = sub;
  d->p = &c->p;
  d->P = c->p.P;
  d->root = c->root;
  d->all_hold = !is(c, P_BCAST) && !is(c, P_KBCAST);
  d->time = r->time;
  d->s = &r->s;
  d->tree = is(c, P_BCAST) ? CLI_TREE_BCAST
            : (is(c, P_SUM) || is(c, P_REDUCE)) ? CLI_TREE_REDUCE
            : is(c, P_KBCAST) ? CLI_TREE_ITEM0 : CLI_TREE_NONE;
  d->activity = 1;
  d->table = is(c, P_KBCAST);
  d->steps = is(c, P_KBCAST) && c->p.model == OC_MODEL_POSTAL && c->p.unit == 1;
  d->counts = is(c, P_SUM) ? r->counts : NULL;
}

/* `optcast draw`: the schedule as an SVG (cli_draw.c); `optcast report`:
 * the plan, its pictures and a slice of the schedule as one
 * self-contained HTML page (cli_report.c). */
static int lp_picture(cli *c, cli_res *rp) {
  const cli_res r = *rp;
  cli_draw_in d;
  cli_report_in in;
  cli_report_kv par[12], res[6];
  char title[256], sub[256], err[320], pv[8][64], rv[4][64], verdict[320];
  char *svg = NULL, *cmdline, *extra = NULL;
  size_t svglen = 0, np = 0, nr = 0, elen = 0;
  oc_sched tab; /* the messages in time order, long ones as their packets */
  int e;
  draw_input(c, &r, &d, title, sizeof title, sub, sizeof sub);
  if (c->a.bit == CMD_DRAW) return cli_draw_out(c, &d);
  if (cli_draw_doc(&d, &svg, &svglen, err, sizeof err) != OC_OK) die("report: %s", err);
  oc_sched_init(&tab);
  if (oc_sched_packets(&rp->s, c->p.g, &tab) != OC_OK) die("out of memory"); /* a copy */
  (void)oc_sched_sort(&tab);
  memset(&in, 0, sizeof in);
  par[np++] = (cli_report_kv){"problem", c->problem};
  par[np++] = (cli_report_kv){"model", c->p.model == OC_MODEL_LOGP ? "LogP" : "postal"};
  snprintf(pv[0], sizeof pv[0], "%lld", (long long)c->p.P);
  par[np++] = (cli_report_kv){"processors P", pv[0]};
  if (c->p.model == OC_MODEL_LOGP) {
    snprintf(pv[1], sizeof pv[1], "L = %lld, o = %lld, g = %lld", (long long)c->p.L,
             (long long)c->p.o, (long long)c->p.g);
    par[np++] = (cli_report_kv){c->a.set[O_PRESET] ? "LogP parameters (preset)" : "LogP parameters",
                                pv[1]};
  } else {
    snprintf(pv[1], sizeof pv[1], "%lld/%lld", (long long)c->p.lam_num,
             (long long)c->p.lam_den);
    par[np++] = (cli_report_kv){"postal latency lambda", pv[1]};
  }
  if (!is(c, P_ALLREDUCE) && !is(c, P_ALLTOALL)) { /* these have no root */
    snprintf(pv[2], sizeof pv[2], "%lld", (long long)c->root);
    par[np++] = (cli_report_kv){"root", pv[2]};
  }
  if (is(c, P_KBCAST) || is(c, P_ALLTOALL)) {
    snprintf(pv[3], sizeof pv[3], "%lld%s", (long long)c->items,
             is(c, P_ALLTOALL) ? " per processor" : "");
    par[np++] = (cli_report_kv){"items", pv[3]};
  }
  if (is(c, P_SUM)) {
    snprintf(pv[4], sizeof pv[4], "%lld", (long long)cli_operands(c));
    par[np++] = (cli_report_kv){"operands n", pv[4]};
  }
  if (is(c, P_REDUCE))
    par[np++] = (cli_report_kv){"operator order", c->a.set[O_COMMUTATIVE]
                                    ? "commutative: cyclic from root + 1"
                                    : "rank order (non-commutative operators)"};
  if (is(c, P_ALLREDUCE))
    par[np++] = (cli_report_kv){"operator order", c->a.set[O_ORDERED]
                                    ? "rank order for every processor"
                                    : "commutative: cyclic windows"};
  if (is(c, P_ALLTOALL))
    par[np++] = (cli_report_kv){"kind", c->a.set[O_PERSONALIZED]
                                    ? "personalized (a distinct item per destination)"
                                    : "broadcast (every item to everyone)"};
  if (is(c, P_KBCAST) && r.kres.alg == OC_KB_DTREE) {
    snprintf(pv[5], sizeof pv[5], "%lld", (long long)r.kres.degree);
    par[np++] = (cli_report_kv){"tree degree d", pv[5]};
  }
  par[np++] = (cli_report_kv){"algorithm", r.alg};
  res[nr++] = (cli_report_kv){"completion time", cli_tfmt(rv[0], sizeof rv[0], c, r.time)};
  res[nr++] = (cli_report_kv){"lower bound", cli_tfmt(rv[1], sizeof rv[1], c, r.lb)};
  snprintf(rv[2], sizeof rv[2], "%zu", r.s.n);
  res[nr++] = (cli_report_kv){"messages", rv[2]};
  snprintf(rv[3], sizeof rv[3], "%zu", r.s.nop);
  if (r.s.nop) res[nr++] = (cli_report_kv){"addition steps", rv[3]};
  res[nr++] = (cli_report_kv){"checked by the verifier", "valid"};
  snprintf(verdict, sizeof verdict, "time %s, lower bound %s: %s", rv[0], rv[1],
           r.time == r.lb ? "optimal" : "above the lower bound");
  cmdline = cli_reproduce_line(c);
  if ((is(c, P_BCAST) || (is(c, P_ALLREDUCE) && !c->a.set[O_ORDERED])) &&
      c->p.model == OC_MODEL_LOGP) { /* next to the MPI libraries */
    const cli_preset *pr = c->a.set[O_PRESET] ? cli_preset_find(c->a.val[O_PRESET]) : NULL;
    FILE *m = open_memstream(&extra, &elen);
    if (m == NULL) die("out of memory");
    int64_t bytes = pr ? pr->packet_bytes : CLI_COMPARE_PACKET;
    if (cli_compare_html(m, &c->p, is(c, P_ALLREDUCE), c->root, bytes) == OC_EUNSUP)
      fprintf(m, "<p class=\"note\">The comparison with the MPI libraries' algorithms is "
                 "left out for P &gt; %d (<code>optcast compare %s</code> takes P up to "
                 "2^20).</p>\n", CLI_COMPARE_REPORT_MAX, c->problem);
    if (fclose(m) != 0) die("out of memory");
  }
  in.extra = extra;
  in.title = title;
  in.verdict = verdict;
  in.optimal = r.time == r.lb;
  in.params = par;
  in.nparams = np;
  in.result = res;
  in.nresult = nr;
  in.svg = svg;
  in.svglen = svglen;
  in.s = &tab;
  in.max_rows = 200;
  in.unit = c->p.unit;
  in.command = cmdline;
  e = cli_report_write(&in, c->a.val[O_HTML], err, sizeof err);
  free(svg);
  free(cmdline);
  free(extra);
  oc_sched_free(&tab);
  if (e != OC_OK) die("%s: %s", c->a.val[O_HTML] ? "--html" : "--format", err);
  return 0;
}

const cli_row CLI_ROW_LOGP = {
    .model = NULL, .head_extra = "", .unit = "time ", .additions = 1,
    .build = cli_build_logp, .plan = lp_plan, .bound = lp_bound, .verify = lp_verify,
    .json_params = lp_json_params, .json_plan = lp_json_extra, .json_bound = lp_json_bound,
    .text_plan = lp_text_plan, .text_bound = lp_text_bound, .text_valid = lp_text_valid,
    .picture = lp_picture, .csv = lp_csv, .free = lp_free,
};
