/* oc_verify_tree.c - verifying combining schedules read from CSV, which
 * carry messages only: the rows a reduction tree cannot have are reported
 * first, at their own time; then the additions are inferred
 * (oc_reduce_infer) and the schedule is checked as a reduction, a sum or
 * a rank-order allreduce.  A schedule whose messages form no tree gets a
 * verdict, never an error. */
#include <stdio.h>
#include <stdlib.h>

#include "verify/oc_verify_int.h"

/* the arguments every one of these takes: valid parameters, a P whose
 * per-processor arrays fit (a global schedule's limit) */
static int rows_check(const oc_params *p, const oc_sched *s, const oc_verdict *v) {
  int e;
  if (p == NULL || s == NULL || v == NULL) return OC_EINVAL;
  if ((e = oc_params_check(p)) != OC_OK) return e;
  return p->P > OC_GLOBAL_PROCS_MAX ? OC_ERANGE : OC_OK;
}

int oc_verify_tree_rows(const oc_params *p, int64_t root, const oc_sched *s, oc_verdict *v) {
  int64_t best = INT64_MAX, P;
  /* the one violation kept: the first row at the least time out of range,
   * else the least time of a root's send or a second send */
  oc_rule rule = OC_RULE_RANGE;
  int64_t proc = 0, at = 0;
  char detail[sizeof v->detail];
  int bad = 0, e;
  if ((e = rows_check(p, s, v)) != OC_OK) return e;
  if (root < 0 || root >= p->P) return OC_EINVAL;
  P = p->P;
  oc_verdict_init(v);
  for (size_t i = 0; i < s->n; i++) {
    const oc_msg *m = &s->msg[i];
    int bad_range = m->src < 0 || m->src >= P || m->dst < 0 || m->dst >= P ||
                    m->src == m->dst || m->t < 0;
    if (bad_range && m->t < best) {
      best = m->t < 0 ? 0 : m->t;
      bad = 1;
      rule = OC_RULE_RANGE;
      proc = (m->src >= 0 && m->src < P) ? m->src : 0;
      at = best;
      snprintf(detail, sizeof detail, "row %zu (%lld -> %lld) is out of range", i + 1,
               (long long)m->src, (long long)m->dst);
    }
  }
  if (!bad) { /* sends by the root; a processor's second send (in time) */
    int64_t *first = (int64_t *)malloc((size_t)P * sizeof *first);
    int64_t *second = (int64_t *)malloc((size_t)P * sizeof *second);
    if (first == NULL || second == NULL) {
      free(first);
      free(second);
      return OC_ENOMEM;
    }
    for (int64_t q = 0; q < P; q++) first[q] = second[q] = INT64_MAX;
    for (size_t i = 0; i < s->n; i++) {
      int64_t q = s->msg[i].src, t = s->msg[i].t;
      if (t < first[q]) {
        second[q] = first[q];
        first[q] = t;
      } else if (t < second[q]) {
        second[q] = t;
      }
    }
    for (int64_t q = 0; q < P; q++) {
      int64_t t = q == root ? first[q] : second[q];
      if (t < best) {
        best = t;
        bad = 1;
        rule = OC_RULE_RESULT;
        proc = q;
        at = t;
        snprintf(detail, sizeof detail, "%s",
                 q == root ? "the root sends its partial result away"
                           : "sends a second partial result");
      }
    }
    free(first);
    free(second);
  }
  if (bad) oc_verdict_violate(v, rule, proc, at, -1, (size_t)-1, detail);
  return OC_OK;
}

int oc_verify_reduce_rows(const oc_params *p, int64_t root, const int64_t *counts,
                          int ordered, oc_sched *s, oc_verdict *v) {
  int64_t n = 0;
  int e;
  if (counts == NULL) return OC_EINVAL;
  if ((e = oc_verify_tree_rows(p, root, s, v)) != OC_OK || !v->ok) return e;
  for (int64_t q = 0; q < p->P; q++) n += counts[q];
  e = oc_reduce_infer(p, root, counts, ordered, s);
  if (e == OC_EINVALID) {
    oc_verdict_violate(v, OC_RULE_FOLD, root, 0, -1, (size_t)-1,
                       "the partial results cannot be folded in rank order (a subtree's "
                       "ranks are not an interval next to its parent's)");
    return OC_OK;
  }
  if (e == OC_EINVAL || e == OC_EUNSUP || e == OC_ERANGE) {
    oc_verdict_violate(v, OC_RULE_RESULT, root, OC_AT_END, -1, (size_t)-1,
                       "the messages do not form a tree into the root (a processor sends "
                       "twice, sends from the root, a cycle, or only forwards)");
    return OC_OK;
  }
  if (e != OC_OK) return e;
  return oc_verify_reduce(p, root, n, s, v);
}

int oc_verify_allreduce_ordered_rows(const oc_params *p, oc_sched *s, oc_verdict *v) {
  return oc_verify_allreduce_rows(p, 1, s, v);
}

int oc_verify_allreduce_rows(const oc_params *p, int ordered, oc_sched *s, oc_verdict *v) {
  oc_sched a;
  int64_t *one;
  int e;
  if ((e = rows_check(p, s, v)) != OC_OK) return e;
  if (s->nop != 0 || s->nseg != 0) return OC_EINVAL; /* messages only: additions are inferred */
  one = (int64_t *)malloc((size_t)p->P * sizeof *one);
  if (one == NULL) return OC_ENOMEM;
  for (int64_t q = 0; q < p->P; q++) one[q] = 1;
  oc_sched_init(&a);
  for (size_t i = 0; i < s->n && e == OC_OK; i++) /* phase 1: item 0 */
    if (s->msg[i].item == 0) e = oc_sched_push(&a, s->msg[i].t, s->msg[i].src, s->msg[i].dst, 0);
  if (e == OC_OK) e = oc_reduce_infer(p, 0, one, ordered, &a);
  free(one);
  if (e == OC_ENOMEM) {
    oc_sched_free(&a);
    return e;
  }
  if (e == OC_OK) { /* the inferred additions, then both phases checked */
    s->op = a.op; s->nop = a.nop; s->opcap = a.opcap;
    s->seg = a.seg; s->nseg = a.nseg; s->segcap = a.segcap;
    a.op = NULL;
    a.seg = NULL;
    e = oc_verify_allreduce_ordered(p, s, v);
  } else {
    oc_verdict_init(v);
    oc_verdict_violate(v, e == OC_EINVALID ? OC_RULE_FOLD : OC_RULE_RESULT, 0,
                       e == OC_EINVALID ? 0 : OC_AT_END, -1, (size_t)-1,
                       ordered ? "the item-0 messages are not a rank-order reduction into rank 0"
                               : "the item-0 messages are not a reduction into rank 0");
    e = OC_OK;
  }
  oc_sched_free(&a);
  return e;
}
