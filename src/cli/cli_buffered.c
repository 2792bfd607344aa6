/* cli_buffered.c - `optcast plan|bound|verify cbcast|kbcast --buffered`:
 * Karp et al. section 3.5's buffered postal model (integer latency L).
 *
 * A message sent at t arrives at its receiver's buffer at t + L; the
 * receiver takes one item a step from the buffer, whichever it likes (the
 * CSV's fifth column `recv` says when), and holds it from then on.  cbcast:
 * item i is created at time i, `time` is the largest delay (lower bound
 * L + B(P-1)); kbcast: all items at the source from 0, `time` the last
 * reception, compared with Theorem 3.8's L + B(P-1) + k - 1 (the least time
 * of a schedule in which the source sends each item once).  cli.c checks
 * the options; errors are one line on stderr with exit code 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void bf_json_head(const cli_cbcast_args *a, int64_t time, int64_t lb, int valid) {
  printf("{\"problem\":\"%s\",\"model\":\"postal\",\"buffered\":true,"
         "\"algorithm\":\"block-cyclic\",\"P\":%lld,\"lambda\":%lld,\"latency\":%lld,"
         "\"items\":%lld,\"root\":%lld,\"time\":%lld,\"lower_bound\":%lld,\"optimal\":%s",
         a->kitem ? "kbcast" : "cbcast", (long long)a->P, (long long)a->L, (long long)a->L,
         (long long)a->k, (long long)a->root, (long long)time, (long long)lb,
         valid && time == lb ? "true" : "false");
}

/* the bound: cbcast L + B(P-1) (delay), kbcast L + B(P-1) + k - 1 */
static int bf_bound_of(const cli_cbcast_args *a, int64_t *lb) {
  oc_params p;
  int64_t single, thm37;
  int e;
  if (a->P == 1) { *lb = 0; return OC_OK; }
  if ((e = oc_params_postal(&p, a->P, a->L, 1)) != OC_OK) return e;
  if ((e = oc_kbcast_bound_single(&p, a->kitem ? a->k : 1, &single, &thm37)) != OC_OK)
    return e;
  *lb = single;
  return OC_OK;
}

/* Karp's Fig. 5 form: one row per processor, one column per step, the item
 * (1-based) taken then; [i]: an item that waited in the buffer; (i): an
 * item taken while another item arrived (the reason that one waits; Karp
 * circles these when the processor forwards the item, and his schedule
 * has no others). */
static void bf_table(const cli_cbcast_args *a, const oc_sched *s, const int64_t *rt,
                     int64_t T) {
  int64_t w = 3;
  if (a->P > 40 || T > 60) {
    printf("(reception table drawn for P <= 40 and at most 60 steps; use --csv)\n");
    return;
  }
  for (int64_t x = a->k; x >= 10; x /= 10) w++;
  printf("reception table (row: processor, column: step, entry: item taken from the "
         "buffer, 1-based;\n[i]: it waited, (i): taken while another item arrived, "
         "which waits)\n%6s", "step");
  for (int64_t t = 0; t <= T; t++) printf(" %*lld", (int)w, (long long)t);
  printf("\n");
  for (int64_t q = 0; q < a->P; q++) {
    printf("%6lld", (long long)q);
    for (int64_t t = 0; t <= T; t++) {
      char cell[32] = ".";
      for (size_t i = 0; i < s->n; i++) {
        const oc_msg *m = &s->msg[i];
        if (m->dst != q || rt[i] != t) continue;
        if (rt[i] > m->t + a->L) {
          snprintf(cell, sizeof cell, "[%lld]", (long long)m->item + 1);
        } else {
          int clash = 0;
          for (size_t j = 0; j < s->n && !clash; j++)
            clash = j != i && s->msg[j].dst == q && s->msg[j].t + a->L == t;
          snprintf(cell, sizeof cell, clash ? "(%lld)" : "%lld",
                   (long long)m->item + 1);
        }
      }
      printf(" %*s", (int)w, cell);
    }
    printf("%s\n", q == a->root ? "  (source)" : "");
  }
}

static int bf_plan(const cli_cbcast_args *a) {
  oc_params p;
  oc_sched s;
  oc_verdict v;
  const int64_t *rt;
  int64_t lb, time, max_wait = 0;
  int e;
  if (a->P > 1 && a->k > OC_CBCAST_MSGS_MAX / (a->P - 1)) {
    fprintf(stderr, "optcast: --items, --procs: items * (P - 1) at most %lld\n",
            (long long)OC_CBCAST_MSGS_MAX);
    return 2;
  }
  if ((e = oc_params_postal(&p, a->P, a->L, 1)) != OC_OK) return cli_fail("plan", e);
  if ((e = bf_bound_of(a, &lb)) != OC_OK) return cli_fail("plan", e);
  oc_sched_init(&s);
  if (a->kitem) {
    oc_kbcast_result r;
    e = oc_kbcast_buffered(&p, a->root, a->k, &s, &r);
  } else {
    oc_cbcast *c = NULL;
    e = oc_cbcast_new_buffered(&c, a->P, a->L);
    if (e == OC_OK) e = oc_cbcast_schedule_rt(c, a->root, a->k, &s);
    oc_cbcast_free(c);
  }
  if (e == OC_OK) e = oc_verify_buffered(&p, a->root, a->k, !a->kitem, &s, &v);
  if (e != OC_OK) {
    oc_sched_free(&s);
    return cli_fail("plan", e);
  }
  if (!v.ok) { /* a bug: never print it */
    oc_sched_free(&s);
    return cli_self_check_failed("buffered", v.detail);
  }
  rt = s.recv_at; /* the schedule's receive times */
  time = v.time;
  for (size_t i = 0; i < s.n; i++)
    if (rt[i] - s.msg[i].t - a->L > max_wait) max_wait = rt[i] - s.msg[i].t - a->L;
  if (a->draw || a->report) {
    e = cli_cb_picture(a, &s, rt, time, lb, "block-cyclic", a->kitem ? "time" : "delay");
  } else if (a->csv) {
    oc_sched_write_csv(stdout, &s, NULL); /* integer steps, with recv */
  } else if (a->json) {
    bf_json_head(a, time, lb, 1);
    printf(",\"max_wait\":%lld,\"messages\":%zu,\"verified\":true}\n", (long long)max_wait,
           s.n);
  } else {
    int64_t end = 0;
    for (size_t i = 0; i < s.n; i++)
      if (rt[i] > end) end = rt[i];
    printf("optcast plan %s --buffered: postal L=%lld, P=%lld, %lld items from processor "
           "%lld (Karp et al. 3.5)\n",
           a->kitem ? "kbcast" : "cbcast", (long long)a->L, (long long)a->P, (long long)a->k,
           (long long)a->root);
    if (a->kitem)
      printf("time %lld, single-sending lower bound L + B(P-1) + k - 1 = %lld (%s, Theorem "
             "3.8)\n",
             (long long)time, (long long)lb, time == lb ? "optimal" : "above it");
    else
      printf("delay %lld for every item, lower bound L + B(P-1) = %lld (%s)\n",
             (long long)time, (long long)lb, time == lb ? "optimal" : "above it");
    printf("%zu messages; items wait in a buffer up to %lld step%s; checked by the verifier "
           "(buffered rules): valid\n\n", s.n, (long long)max_wait, max_wait == 1 ? "" : "s");
    bf_table(a, &s, rt, end);
  }
  oc_sched_free(&s);
  return a->draw || a->report ? e : 0;
}

static int bf_bound(const cli_cbcast_args *a) {
  int64_t lb;
  int e = bf_bound_of(a, &lb);
  if (e != OC_OK) return cli_fail("bound", e);
  if (a->json) {
    bf_json_head(a, lb, lb, 1);
    printf(",\"bound\":\"%s\"}\n",
           a->kitem ? "L + B(P-1) + k - 1, single-sending (Karp et al. 3.4, 3.8)"
                    : "L + B(P-1) (Karp et al. 3.1)");
  } else {
    printf("optcast bound %s --buffered: postal L=%lld, P=%lld%s\n",
           a->kitem ? "kbcast" : "cbcast", (long long)a->L, (long long)a->P,
           a->kitem ? "" : " (delay)");
    if (a->kitem)
      printf("single-sending lower bound L + B(P-1) + k - 1 = %lld; Theorem 3.8: reached "
             "in the buffered model ('optcast plan kbcast --buffered')\n", (long long)lb);
    else
      printf("lower bound on the delay L + B(P-1) = %lld\n", (long long)lb);
  }
  return 0;
}

static int bf_verify(const cli_cbcast_args *a, char *buf, size_t len) {
  oc_params p;
  oc_sched s;
  oc_verdict v;
  char err[200];
  int64_t lb;
  int e;
  if ((e = oc_params_postal(&p, a->P, a->L, 1)) != OC_OK) return cli_fail("verify", e);
  if ((e = bf_bound_of(a, &lb)) != OC_OK) return cli_fail("verify", e);
  oc_sched_init(&s);
  e = oc_sched_read_csv_buffered(buf, len, &p, &s, err, sizeof err);
  if (e != OC_OK) {
    oc_sched_free(&s);
    fprintf(stderr, "optcast: %s\n", e == OC_EPARSE ? err : oc_strerror(e));
    return 2;
  }
  e = oc_verify_buffered(&p, a->root, a->k, !a->kitem, &s, &v);
  if (e != OC_OK) {
    oc_sched_free(&s);
    return cli_fail("verify", e);
  }
  if (a->json) {
    bf_json_head(a, v.ok ? v.time : 0, lb, v.ok);
    cli_json_verify_tail(s.n, &v, NULL, NULL);
  } else if (v.ok) {
    printf("valid (buffered): %zu messages, %s %lld, lower bound %lld (%s)\n", s.n,
           a->kitem ? "completion time" : "largest delay", (long long)v.time, (long long)lb,
           v.time == lb ? "optimal" : "above the bound");
  }
  if (!v.ok) cli_print_violation(&v, a->json, "time ", NULL);
  oc_sched_free(&s);
  return v.ok ? 0 : 1;
}

int cli_buffered(const cli_cbcast_args *a, char *buf, size_t len) {
  if (strcmp(a->cmd, "plan") == 0 || a->draw || a->report) return bf_plan(a);
  if (strcmp(a->cmd, "bound") == 0) return bf_bound(a);
  return bf_verify(a, buf, len);
}
