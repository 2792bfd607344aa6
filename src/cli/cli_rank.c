/* cli_rank.c - `optcast rank`: one rank's own plan (bcast, reduce) from
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

int cli_rank(cli *c) {
  oc_bcast *bc = NULL;
  oc_bcast_view v;
  int e;
  char b1[64], b2[64];
  if (!c->a.set[O_RANK]) die("missing --rank (which processor's plan)");
  c->rank = cli_need_int(c, O_RANK, 0, c->p.P - 1);
  if (c->items > 1) /* (the library has oc_mbcast_rank for broadcasts; no text for it yet) */
    die("--items: 'optcast rank' shows one-item plans; got %lld items", (long long)c->items);
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
    printf("%lld children:\n", (long long)v.nchildren);
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
