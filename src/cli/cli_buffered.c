/* cli_buffered.c - `optcast plan|bound|verify cbcast|kbcast --buffered`:
 * Karp et al. section 3.5's buffered postal model (integer latency L).
 *
 * A message sent at t arrives at its receiver's buffer at t + L; the
 * receiver takes one item a step from the buffer, whichever it likes (the
 * CSV's fifth column `recv` says when), and holds it from then on.  cbcast:
 * item i is created at time i, `time` is the largest delay (lower bound
 * L + B(P-1)); kbcast: all items at the source from 0, `time` the last
 * reception, compared with Theorem 3.8's L + B(P-1) + k - 1 (the least time
 * of a schedule in which the source sends each item once).  The row: the
 * parameters are cbcast's (cli_cbcast.c), the flow (cli_flow.c) prints
 * what is not this model's own; errors are one line on stderr with exit
 * code 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* the bound: cbcast L + B(P-1) (delay), kbcast L + B(P-1) + k - 1 */
static int bf_bound_of(const cli *c, int64_t *lb) {
  oc_params p;
  int64_t single, thm37;
  int e;
  if (c->p.P == 1) { *lb = 0; return OC_OK; }
  if ((e = oc_params_postal(&p, c->p.P, c->L, 1)) != OC_OK) return e;
  if ((e = oc_kbcast_bound_single(&p, c->kitem ? c->items : 1, &single, &thm37)) != OC_OK)
    return e;
  *lb = single;
  return OC_OK;
}

/* Karp's Fig. 5 form: one row per processor, one column per step, the item
 * (1-based) taken then; [i]: an item that waited in the buffer; (i): an
 * item taken while another item arrived (the reason that one waits; Karp
 * circles these when the processor forwards the item, and his schedule
 * has no others). */
static void bf_table(const cli *c, const oc_sched *s, const int64_t *rt,
                     int64_t T) {
  int64_t w = 3;
  if (c->p.P > 40 || T > 60) {
    printf("(reception table drawn for P <= 40 and at most 60 steps; use --csv)\n");
    return;
  }
  for (int64_t x = c->items; x >= 10; x /= 10) w++;
  printf("reception table (row: processor, column: step, entry: item taken from the "
         "buffer, 1-based;\n[i]: it waited, (i): taken while another item arrived, "
         "which waits)\n%6s", "step");
  for (int64_t t = 0; t <= T; t++) printf(" %*lld", (int)w, (long long)t);
  printf("\n");
  for (int64_t q = 0; q < c->p.P; q++) {
    printf("%6lld", (long long)q);
    for (int64_t t = 0; t <= T; t++) {
      char cell[32] = ".";
      for (size_t i = 0; i < s->n; i++) {
        const oc_msg *m = &s->msg[i];
        if (m->dst != q || rt[i] != t) continue;
        if (rt[i] > m->t + c->L) {
          snprintf(cell, sizeof cell, "[%lld]", (long long)m->item + 1);
        } else {
          int clash = 0;
          for (size_t j = 0; j < s->n && !clash; j++)
            clash = j != i && s->msg[j].dst == q && s->msg[j].t + c->L == t;
          snprintf(cell, sizeof cell, clash ? "(%lld)" : "%lld",
                   (long long)m->item + 1);
        }
      }
      printf(" %*s", (int)w, cell);
    }
    printf("%s\n", q == c->root ? "  (source)" : "");
  }
}

static int bf_plan(cli *c, cli_res *r) {
  oc_params p;
  oc_sched *s = &r->s;
  int64_t P = c->p.P;
  int e;
  if (P > 1 && c->items > OC_CBCAST_MSGS_MAX / (P - 1)) {
    fprintf(stderr, "optcast: --items, --procs: items * (P - 1) at most %lld\n",
            (long long)OC_CBCAST_MSGS_MAX);
    return CLI_EXIT_INPUT;
  }
  if ((e = oc_params_postal(&p, P, c->L, 1)) != OC_OK) return cli_fail("plan", e);
  if ((e = bf_bound_of(c, &r->lb)) != OC_OK) return cli_fail("plan", e);
  if (c->kitem) {
    oc_kbcast_result kr;
    e = oc_kbcast_buffered(&p, c->root, c->items, s, &kr);
  } else {
    oc_cbcast *cb = NULL;
    e = oc_cbcast_new_buffered(&cb, P, c->L);
    if (e == OC_OK) e = oc_cbcast_schedule_rt(cb, c->root, c->items, s);
    oc_cbcast_free(cb);
  }
  if (e == OC_OK) e = oc_verify_buffered(&p, c->root, c->items, !c->kitem, s, &r->v);
  if (e != OC_OK) return cli_fail("plan", e);
  if (!r->v.ok) return cli_self_check_failed("buffered", r->v.detail); /* a bug */
  r->alg = "block-cyclic";
  r->time = r->v.time;
  r->n = s->n;
  for (size_t i = 0; i < s->n; i++) /* the schedule's receive times */
    if (s->recv_at[i] - s->msg[i].t - c->L > r->max_wait)
      r->max_wait = s->recv_at[i] - s->msg[i].t - c->L;
  return 0;
}

static int bf_picture(cli *c, cli_res *r) {
  return cli_cb_picture(c, &r->s, r->s.recv_at, r->time, r->lb, "block-cyclic",
                        c->kitem ? "time" : "delay");
}

static void bf_json_plan(FILE *f, const cli *c, const cli_res *r) {
  (void)c;
  fprintf(f, ",\"max_wait\":%lld", (long long)r->max_wait);
}

static void bf_text_plan(const cli *c, const cli_res *r) {
  const oc_sched *s = &r->s;
  const int64_t *rt = s->recv_at;
  int64_t end = 0, time = r->time, lb = r->lb;
  for (size_t i = 0; i < s->n; i++)
    if (rt[i] > end) end = rt[i];
  printf("optcast plan %s --buffered: postal L=%lld, P=%lld, %lld items from processor "
         "%lld (Karp et al. 3.5)\n",
         c->problem, (long long)c->L, (long long)c->p.P, (long long)c->items,
         (long long)c->root);
  if (c->kitem)
    printf("time %lld, single-sending lower bound L + B(P-1) + k - 1 = %lld (%s, Theorem "
           "3.8)\n",
           (long long)time, (long long)lb, time == lb ? "optimal" : "above it");
  else
    printf("delay %lld for every item, lower bound L + B(P-1) = %lld (%s)\n",
           (long long)time, (long long)lb, time == lb ? "optimal" : "above it");
  printf("%zu messages; items wait in a buffer up to %lld step%s; checked by the verifier "
         "(buffered rules): valid\n\n", s->n, (long long)r->max_wait,
         r->max_wait == 1 ? "" : "s");
  bf_table(c, s, rt, end);
}

static int bf_bound(cli *c, cli_res *r) {
  int e = bf_bound_of(c, &r->lb);
  if (e != OC_OK) return cli_fail("bound", e);
  r->alg = "block-cyclic";
  r->time = r->lb;
  r->known = 1;
  r->bound = c->kitem ? "L + B(P-1) + k - 1, single-sending (Karp et al. 3.4, 3.8)"
                      : "L + B(P-1) (Karp et al. 3.1)";
  return 0;
}

static void bf_text_bound(const cli *c, const cli_res *r) {
  printf("optcast bound %s --buffered: postal L=%lld, P=%lld%s\n", c->problem,
         (long long)c->L, (long long)c->p.P, c->kitem ? "" : " (delay)");
  if (c->kitem)
    printf("single-sending lower bound L + B(P-1) + k - 1 = %lld; Theorem 3.8: reached "
           "in the buffered model ('optcast plan kbcast --buffered')\n", (long long)r->lb);
  else
    printf("lower bound on the delay L + B(P-1) = %lld\n", (long long)r->lb);
}

static int bf_verify(cli *c, char *buf, size_t len, cli_res *r) {
  oc_params p;
  char err[200];
  int e;
  if ((e = oc_params_postal(&p, c->p.P, c->L, 1)) != OC_OK) return cli_fail("verify", e);
  if ((e = bf_bound_of(c, &r->lb)) != OC_OK) return cli_fail("verify", e);
  e = oc_sched_read_csv_buffered(buf, len, &p, &r->s, err, sizeof err);
  if (e != OC_OK) {
    fprintf(stderr, "optcast: %s\n", e == OC_EPARSE ? err : oc_strerror(e));
    return CLI_EXIT_INPUT;
  }
  if ((e = oc_verify_buffered(&p, c->root, c->items, !c->kitem, &r->s, &r->v)) != OC_OK)
    return cli_fail("verify", e);
  r->alg = "block-cyclic"; /* the JSON names the model's algorithm, not "input" */
  r->time = r->v.ok ? r->v.time : 0;
  r->n = r->s.n;
  return 0;
}

static void bf_text_valid(const cli *c, const cli_res *r) {
  printf("valid (buffered): %zu messages, %s %lld, lower bound %lld (%s)\n", r->n,
         c->kitem ? "completion time" : "largest delay", (long long)r->v.time, (long long)r->lb,
         r->v.time == r->lb ? "optimal" : "above the bound");
}

const cli_row CLI_ROW_BUFFERED = {
    .model = "postal", .head_extra = ",\"buffered\":true", .unit = "time ",
    .build = cli_cb_build, .plan = bf_plan, .bound = bf_bound, .verify = bf_verify,
    .json_params = cli_cb_json_params, .json_plan = bf_json_plan, .text_plan = bf_text_plan,
    .text_bound = bf_text_bound, .text_valid = bf_text_valid, .picture = bf_picture,
};
