/* cli_rank.c - `optcast rank`: one rank's own plan (bcast, reduce; m packets and allreduce) from
 * the planners' per-rank views, without the global schedule: whom it
 * receives from and when, whom it sends to. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"


/* a child the view counted but cannot name: a bug (exit 1) */
static _Noreturn void internal_error(void) {
  fputs("optcast: --rank: internal error\n", stderr);
  cli_exit(CLI_EXIT_CHECK);
}

/* A rank's own part of a reduction: whom it sends to and when, who sends
 * to it. */
static int rank_reduce(cli *c) {
  oc_reduce *x = NULL;
  oc_reduce_view v;
  int e;
  char b1[64];
  e = oc_reduce_new(&x, &c->p, c->root, !c->a.set[O_COMMUTATIVE]);
  if (e == OC_EUNSUP)
    die("--root: a rank-order reduction to root %lld is beyond this planner for "
        "these parameters (more than 2^22 reception slots, or no split found); "
        "--commutative always works", (long long)c->root);
  if (e) cli_lib_fail(c->problem, e);
  if ((e = oc_reduce_rank(x, c->rank, &v)) != OC_OK)
    die("--rank: cannot compute the plan: %s", oc_strerror(e));
  if (c->a.set[O_JSON]) {
    cli_res h;
    memset(&h, 0, sizeof h);
    h.time = oc_reduce_completion(x);
    cli_json_head(stdout, c, &h, cli_problem_alg(c), h.time, oc_reduce_lower_bound(x), 1);
    printf(",\"ordered\":%s,\"rank\":%lld,\"parent\":%lld,",
           c->a.set[O_COMMUTATIVE] ? "false" : "true", (long long)v.rank, (long long)v.parent);
    if (v.parent < 0) printf("\"send\":null"); else cli_json_time(stdout, "send", c, v.send);
    printf(",\"children\":[");
    for (int64_t k = 0; k < v.nchildren; k++) {
      int64_t r, t;
      if (oc_reduce_child(x, &v, k, &r, &t) != OC_OK) internal_error();
      printf("%s{\"rank\":%lld,", k ? "," : "", (long long)r);
      cli_json_time(stdout, "send", c, t);
      putchar('}');
    }
    printf("]}\n");
  } else {
    printf("optcast rank reduce: ");
    cli_print_params(stdout, c);
    printf(", %s\nrank %lld: ", c->a.set[O_COMMUTATIVE] ? "cyclic order" : "rank order",
           (long long)v.rank);
    if (v.parent < 0)
      printf("root, holds the result at %s\n",
             cli_tfmt(b1, sizeof b1, c, oc_reduce_completion(x)));
    else
      printf("sends its partial result to %lld at %s\n", (long long)v.parent,
             cli_tfmt(b1, sizeof b1, c, v.send));
    printf("%lld ranks send to it (the last to send first):\n", (long long)v.nchildren);
    for (int64_t k = 0; k < v.nchildren && k < 64; k++) {
      int64_t r, t;
      if (oc_reduce_child(x, &v, k, &r, &t) != OC_OK) internal_error();
      printf("  %lld at %s\n", (long long)r, cli_tfmt(b1, sizeof b1, c, t));
    }
    if (v.nchildren > 64) printf("  ... %lld more\n", (long long)(v.nchildren - 64));
  }
  oc_reduce_free(x);
  return 0;
}

/* m packets (LogP), and allreduce: the planner chooses the construction (it
 * times the candidates on the whole machine: oc_mbcast_plan /
 * oc_mreduce_plan, no schedule kept), then the rank's own steps come from
 * the per-rank view (oc_mbcast_rank / oc_mreduce_rank), in the order its
 * program takes them: what a runtime executes on that rank. */
static int rank_multi(cli *c) {
  oc_mb_rank v;
  char d[200], b1[64], b2[64];
  const char *alg = d; /* --json's algorithm, as `plan` names it */
  int64_t time, lb, m = c->items, root = is(c, P_ALLREDUCE) ? -1 : c->root;
  const char *src = NULL;
  int e;
  memset(&v, 0, sizeof v);
  if (is(c, P_BCAST)) {
    oc_mbcast_info info;
    if ((e = oc_mbcast_bound(&c->p, m, &lb, &src)) != OC_OK) cli_lib_fail(c->problem, e);
    if ((e = oc_mbcast_plan(&c->p, c->root, m, OC_MB_BEST, NULL, &info)) != OC_OK)
      cli_lib_fail(c->problem, e);
    time = info.time;
    cli_mbcast_describe(&info, m, d, sizeof d);
    alg = oc_mbcast_alg_name(info.alg);
    e = oc_mbcast_rank(&c->p, c->root, m, &info, c->rank, &v);
  } else {
    oc_mreduce_info info;
    e = root < 0 ? oc_mallreduce_bound(&c->p, m, &lb, &src) : oc_mreduce_bound(&c->p, m, &lb, &src);
    if (e != OC_OK) cli_lib_fail(c->problem, e);
    memset(&info, 0, sizeof info);
    if ((e = oc_mreduce_plan(&c->p, root, m, OC_MB_BEST, NULL, &info)) != OC_OK)
      cli_lib_fail(c->problem, e);
    time = info.time;
    oc_mreduce_describe(&info, root, m, d, sizeof d);
    e = oc_mreduce_rank(&c->p, root, m, &info, c->rank, &v);
  }
  if (e == OC_EUNSUP)
    die("--rank: the chosen construction (%s) has no per-rank view yet; 'optcast plan' "
        "gives the whole schedule", d);
  if (e != OC_OK) die("--rank: cannot compute the plan: %s", oc_strerror(e));
  if (c->a.set[O_JSON]) {
    printf("{\"problem\":\"%s\",\"model\":\"logp\",\"algorithm\":\"%s\",\"P\":%lld,"
           "\"procs\":%lld,\"items\":%lld,\"description\":\"%s\",\"optimal\":%s,", c->problem,
           alg, (long long)c->p.P, (long long)c->p.P, (long long)m, d,
           time == lb ? "true" : "false");
    if (root < 0) printf("\"root\":null,");
    else printf("\"root\":%lld,", (long long)root);
    printf("\"L\":%lld,\"o\":%lld,\"g\":%lld,", (long long)c->p.L, (long long)c->p.o,
           (long long)c->p.g);
    cli_json_time(stdout, "time", c, time);
    putchar(',');
    cli_json_time(stdout, "lower_bound", c, lb);
    printf(",\"rank\":%lld,\"steps\":[", (long long)c->rank);
    for (size_t i = 0; i < v.n; i++) {
      const oc_mb_step *s = &v.step[i];
      printf("%s{\"kind\":\"%s\",\"peer\":%lld,\"item\":%lld,\"len\":%lld,\"op\":\"%s\"",
             i ? "," : "", s->kind == OC_MB_SEND ? "send" : "recv", (long long)s->peer,
             (long long)s->item, (long long)s->len, s->copy ? "copy" : "add");
      if (s->kind == OC_MB_SEND && s->hist >= 0) printf(",\"hist\":%lld", (long long)s->hist);
      putchar('}');
    }
    printf("]}\n");
  } else {
    printf("optcast rank %s: ", c->problem);
    cli_print_params(stdout, c);
    printf("\nchosen: %s (the candidates timed on all %lld processors)\n", d,
           (long long)c->p.P);
    printf("time %s, lower bound %s (%s)\n", cli_tfmt(b1, sizeof b1, c, time),
           cli_tfmt(b2, sizeof b2, c, lb), src ? src : "-");
    printf("rank %lld: %zu steps, in the order its program takes them:\n", (long long)c->rank,
           v.n);
    for (size_t i = 0; i < v.n && i < 200; i++) {
      const oc_mb_step *s = &v.step[i];
      char pk[64];
      if (s->len == 1) snprintf(pk, sizeof pk, "packet %lld", (long long)s->item);
      else snprintf(pk, sizeof pk, "packets %lld-%lld", (long long)s->item,
                    (long long)(s->item + s->len - 1));
      printf("  %s %lld: %s, %s", s->kind == OC_MB_SEND ? "send to  " : "recv from",
             (long long)s->peer, pk,
             s->kind == OC_MB_SEND ? (s->copy ? "taken as is" : "to be added")
                                   : (s->copy ? "taken as is" : "added"));
      if (s->kind == OC_MB_SEND && s->hist >= 0)
        printf(", its value after %lld messages of each", (long long)s->hist);
      putchar('\n');
    }
    if (v.n > 200) printf("  ... %zu more (--json lists them all)\n", v.n - 200);
  }
  oc_mb_rank_free(&v);
  return 0;
}

/* kbcast at lambda = 1: the circulant's own steps for one rank (O(log^3 P +
 * m log P), no O(P) state), what `plan kbcast` builds for all of them */
static int rank_kbcast(cli *c) {
  oc_problem pr;
  oc_rank_plan rp;
  oc_kbcast_result kr;
  int64_t lb, l8, k31;
  char b1[64], b2[64];
  int e;
  if (c->p.L != c->p.g)
    die("--lambda: rank kbcast has a per-rank view at lambda 1 only (the circulant), got "
        "%lld/%lld", (long long)c->p.lam_num, (long long)c->p.lam_den);
  if (c->items > OC_KB_RANK_ITEMS_MAX)
    die("--items: rank kbcast lists a rank's steps for at most %lld items, got %lld",
        (long long)OC_KB_RANK_ITEMS_MAX, (long long)c->items);
  if (c->kalg != OC_KB_BEST && c->kalg != OC_KB_CIRCULANT)
    die("--algorithm: rank kbcast shows the circulant (best or circulant), got '%s'",
        oc_kbcast_alg_name(c->kalg));
  if ((e = oc_kbcast_bound(&c->p, c->items, &lb, &l8, &k31)) != OC_OK) cli_lib_fail("kbcast", e);
  if ((e = oc_kbcast_plan(&c->p, c->root, c->items, OC_KB_CIRCULANT, 0, NULL, &kr)) != OC_OK)
    cli_lib_fail("kbcast", e);
  oc_problem_init(&pr, OC_PROB_KBCAST, &c->p);
  pr.root = c->root;
  pr.items = c->items;
  pr.alg = (int)OC_KB_CIRCULANT;
  oc_rank_plan_init(&rp);
  if ((e = oc_problem_rank(&pr, c->rank, &rp)) != OC_OK)
    die("--rank: cannot compute the plan: %s", oc_strerror(e));
  if (c->a.set[O_JSON]) {
    printf("{\"problem\":\"kbcast\",\"model\":\"postal\",\"algorithm\":\"circulant\","
           "\"P\":%lld,\"procs\":%lld,\"items\":%lld,\"root\":%lld,\"lambda\":1,",
           (long long)c->p.P, (long long)c->p.P, (long long)c->items, (long long)c->root);
    cli_json_time(stdout, "time", c, kr.time);
    putchar(',');
    cli_json_time(stdout, "lower_bound", c, lb);
    printf(",\"optimal\":%s,\"rank\":%lld,\"steps\":[", kr.time == lb ? "true" : "false",
           (long long)c->rank);
    for (size_t i = 0; i < rp.n; i++) {
      printf("%s{\"kind\":\"%s\",\"peer\":%lld,\"item\":%lld,", i ? "," : "",
             rp.step[i].kind == OC_STEP_SEND ? "send" : "recv", (long long)rp.step[i].peer,
             (long long)rp.step[i].item);
      cli_json_time(stdout, "t", c, rp.step[i].t);
      putchar('}');
    }
    printf("]}\n");
  } else {
    printf("optcast rank kbcast: ");
    cli_print_params(stdout, c);
    printf(", algorithm circulant\ntime %s, lower bound %s (%s)\n",
           cli_tfmt(b1, sizeof b1, c, kr.time), cli_tfmt(b2, sizeof b2, c, lb),
           kr.time == lb ? "optimal" : "above the bound");
    printf("rank %lld: %zu steps (a message is sent at t and usable at t + 1):\n",
           (long long)c->rank, rp.n);
    for (size_t i = 0; i < rp.n && i < 200; i++)
      printf("  t=%s %s %lld: item %lld\n", cli_tfmt(b1, sizeof b1, c, rp.step[i].t),
             rp.step[i].kind == OC_STEP_SEND ? "send to  " : "recv from",
             (long long)rp.step[i].peer, (long long)rp.step[i].item);
    if (rp.n > 200) printf("  ... %zu more (--json lists them all)\n", rp.n - 200);
  }
  oc_rank_plan_free(&rp);
  return 0;
}

int cli_rank(cli *c) {
  oc_bcast *bc = NULL;
  oc_bcast_view v;
  int e;
  char b1[64], b2[64];
  if (!c->a.set[O_RANK]) die("missing --rank (which processor's plan)");
  c->rank = cli_need_int(c, O_RANK, 0, c->p.P - 1);
  if (is(c, P_KBCAST)) return rank_kbcast(c);
  if (c->items > 1 || is(c, P_ALLREDUCE)) return rank_multi(c);
  if (is(c, P_REDUCE)) return rank_reduce(c);
  if (c->alg == OC_BCAST_BARNOY)
    die("--algorithm: bar-noy-kipnis has no per-rank view (use karp or "
        "shou-chen)");
  e = oc_bcast_new(&bc, &c->p, c->root, c->alg);
  if (e) die("--procs: cannot set up the broadcast: %s", oc_strerror(e));
  e = oc_bcast_rank(bc, c->rank, &v);
  if (e) die("--rank: cannot compute the plan: %s", oc_strerror(e));
  if (c->a.set[O_JSON]) {
    cli_res h;
    memset(&h, 0, sizeof h);
    h.time = oc_bcast_completion(bc);
    cli_json_head(stdout, c, &h, oc_bcast_alg_name(c->alg), h.time, h.time, 1);
    printf(",\"rank\":%lld,\"parent\":%lld,", (long long)v.rank,
           (long long)v.parent);
    cli_json_time(stdout, "ready", c, v.ready);
    printf(",\"children\":[");
    for (int64_t k = 0; k < v.nchildren; k++) {
      int64_t r, t;
      oc_bcast_child(bc, &v, k, &r, &t);
      printf("%s{\"rank\":%lld,", k ? "," : "", (long long)r);
      cli_json_time(stdout, "send", c, t);
      putchar('}');
    }
    printf("]}\n");
  } else {
    printf("optcast rank: ");
    cli_print_params(stdout, c);
    printf(", algorithm %s\nrank %lld: ", oc_bcast_alg_name(c->alg),
           (long long)v.rank);
    if (v.parent < 0)
      printf("root, holds the datum at %s\n", cli_tfmt(b1, sizeof b1, c, 0));
    else
      printf("receives from %lld (sent at %s), datum usable at %s\n",
             (long long)v.parent, cli_tfmt(b1, sizeof b1, c, v.recv_send),
             cli_tfmt(b2, sizeof b2, c, v.ready));
    if (v.nchildren == 0) printf("no children (a leaf)\n");
    else printf("%lld child%s:\n", (long long)v.nchildren, v.nchildren == 1 ? "" : "ren");
    for (int64_t k = 0; k < v.nchildren; k++) {
      int64_t r, t;
      if (k == 64) {
        printf("  ... %lld more\n", (long long)(v.nchildren - 64));
        break;
      }
      oc_bcast_child(bc, &v, k, &r, &t);
      printf("  send at %s to %lld\n", cli_tfmt(b1, sizeof b1, c, t), (long long)r);
    }
  }
  oc_bcast_free(bc);
  return 0;
}
