/* rt_sum.c - the distributed sum (Shou & Chen section 3; Karp et al.
 * section 5): n operands placed by the optimal summation plan (oc_sum_new)
 * and folded in index order.  Each rank replays its own operations of the
 * global plan: LOCAL folds its next operands, APPEND / PREPEND fold a
 * value received from the child whose final interval starts at mid / lo.
 * Cost: the plan's time, oc_sum_time(n) (optimal in LogP with unit
 * additions).  Unlike the other collectives this builds the global plan
 * (O(n) set-up) on every rank: a replay, not a per-rank plan of the
 * executor (rt_exec.c). */
#include <stdlib.h>
#include <string.h>

#include "core/oc_core.h"
#include "optcast_rt.h"
#include "rt/rt_internal.h"

typedef struct sumplan {
  oc_sched s;
  int64_t first, held, time;
} sumplan;

static int sum_plan(oc_comm *c, int64_t n, int64_t count, oc_type t, int root,
                    sumplan *sp) {
  oc_params p;
  oc_reduce *r = NULL;
  int e;
  size_t sz = oc_type_size(t);
  oc_sched_init(&sp->s);
  sp->first = 0;
  sp->held = 0;
  if (sz == 0 || n < 1 || count < 0 || root < 0 || root >= c->tp.size) return OC_EINVAL;
  if (n > OC_REDUCE_PLAN_MAX) return OC_ERANGE;
  if ((uint64_t)count > (uint64_t)INT64_MAX / sz) return OC_ERANGE;
  e = oc_rtparams_model(&c->prm, count * (int64_t)sz, c->tp.size, c->unit_ns, &p);
  if (e == OC_OK) e = oc_sum_new(&r, &p, root, n);
  if (e == OC_OK) e = oc_reduce_schedule(r, &sp->s);
  if (e == OC_OK) sp->time = oc_reduce_completion(r);
  oc_reduce_free(r);
  if (e) {
    oc_sched_free(&sp->s);
    return e;
  }
  for (size_t i = 0; i < sp->s.nseg; i++)
    if (sp->s.seg[i].proc == c->tp.rank) {
      sp->first = sp->s.seg[i].lo;
      sp->held = sp->s.seg[i].hi - sp->s.seg[i].lo;
    }
  return OC_OK;
}

int oc_coll_sum_share(oc_comm *c, int64_t n, int64_t count, oc_type t, int root,
                      int64_t *first, int64_t *held) {
  sumplan sp;
  int e;
  if (c == NULL || first == NULL || held == NULL) return OC_EINVAL;
  if ((e = sum_plan(c, n, count, t, root, &sp)) != OC_OK) return e;
  *first = sp.first;
  *held = sp.held;
  oc_sched_free(&sp.s);
  return OC_OK;
}

static int op_cmp(const void *a, const void *b) {
  const oc_op *x = *(const oc_op *const *)a, *y = *(const oc_op *const *)b;
  return (x->t > y->t) - (x->t < y->t);
}

int oc_coll_sum(oc_comm *c, int64_t n, const void *operands, void *recvbuf,
                int64_t count, oc_type t, const oc_reducer *op, int root) {
  sumplan sp;
  oc_elem el;
  int me, e, tag;
  int64_t *lo_of = NULL, *who = NULL, nmine = 0, nin = 0, j = 0, parent = -1;
  const oc_op **mine = NULL;
  oc_req *rq = NULL;
  unsigned char *live = NULL;
  char *acc = NULL, *rb = NULL;
  size_t vb;
  int have = 0;
  if (c == NULL) return OC_EINVAL;
  rt_begin(c);
  if (op == NULL || oc_elem_builtin(&el, t, op) != OC_OK) return OC_EINVAL;
  me = c->tp.rank;
  if ((e = sum_plan(c, n, count, t, root, &sp)) != OC_OK) return e;
  /* this rank's own arguments first: nothing sent when they are wrong */
  if ((sp.held > 0 && count > 0 && operands == NULL) ||
      (me == root && recvbuf == NULL && count > 0)) {
    oc_sched_free(&sp.s);
    return OC_EINVAL;
  }
  if ((e = rt_agree(c, RT_SUM, root, oc_mul_sat(n, count), &el)) != OC_OK) {
    oc_sched_free(&sp.s);
    return e;
  }
  tag = rt_next_tag(c, RT_SUM, root, n, NULL);
  c->last.algorithm = "shou-chen-sum";
  c->last.segments = 1;
  c->last.unit_ns = c->unit_ns;
  c->last.predicted = sp.time;
  vb = (size_t)count * el.extent;
  c->last.segment_bytes = (int64_t)vb;
  /* every processor's final interval starts at lo_of[q]; among the ranks
   * that send to this one (its children, whose intervals are disjoint)
   * who[lo] names the one whose value starts at lo */
  who = (int64_t *)malloc((size_t)n * sizeof *who);
  lo_of = (int64_t *)malloc((size_t)c->tp.size * sizeof *lo_of);
  mine = (const oc_op **)malloc((sp.s.nop + 1) * sizeof(const oc_op *));
  if (who == NULL || lo_of == NULL || mine == NULL) {
    e = OC_ENOMEM;
    goto out;
  }
  for (int64_t q = 0; q < c->tp.size; q++) lo_of[q] = -1;
  for (size_t i = 0; i < sp.s.nseg; i++)
    if (sp.s.seg[i].hi > sp.s.seg[i].lo) lo_of[sp.s.seg[i].proc] = sp.s.seg[i].lo;
  for (size_t i = 0; i < sp.s.nop; i++) { /* PREPEND grows it leftwards */
    const oc_op *o = &sp.s.op[i];
    if (lo_of[o->proc] < 0 || o->lo < lo_of[o->proc]) lo_of[o->proc] = o->lo;
    if (o->proc == me) {
      mine[nmine++] = o;
      nin += o->kind != OC_OP_LOCAL;
    }
  }
  for (size_t i = 0; i < sp.s.n; i++) {
    const oc_msg *mg = &sp.s.msg[i];
    if (mg->src == me) parent = mg->dst;
    if (mg->dst == me && lo_of[mg->src] >= 0) who[lo_of[mg->src]] = mg->src;
  }
  qsort(mine, (size_t)nmine, sizeof(const oc_op *), op_cmp);
  acc = (char *)malloc(vb ? vb : 1);
  rb = (char *)malloc(vb * (size_t)(nin + 1) + 1); /* receive slots + scratch */
  rq = (oc_req *)calloc((size_t)nin + 1, sizeof *rq);
  live = (unsigned char *)calloc((size_t)nin + 1, 1);
  if (acc == NULL || rb == NULL || rq == NULL || live == NULL) {
    e = OC_ENOMEM;
    goto out;
  }
  /* one receive per APPEND / PREPEND, posted up front in op order */
  for (int64_t i = 0; i < nmine && e == OC_OK; i++)
    if (mine[i]->kind != OC_OP_LOCAL) {
      int64_t from = who[mine[i]->kind == OC_OP_APPEND ? mine[i]->mid : mine[i]->lo];
      e = rt_xrecv(c, rb + (size_t)j * vb, count, &el, (int)from, tag, &rq[j]);
      if (e == OC_OK) live[j++] = 1;
    }
  j = 0;
  for (int64_t i = 0; i < nmine && e == OC_OK; i++) {
    const oc_op *o = mine[i];
    if (o->kind == OC_OP_LOCAL) {
      for (int64_t k = o->mid; k < o->hi && e == OC_OK; k++) {
        const char *x = (const char *)operands + (size_t)(k - sp.first) * vb;
        if (!have) {
          if (vb) memcpy(acc, x, vb);
          have = 1;
        } else { /* acc = acc (op) x, formed in the scratch slot */
          char *cp = rb + (size_t)nin * vb;
          if (vb) memcpy(cp, x, vb);
          e = el.combine(&el, acc, cp, count);
          if (vb) memcpy(acc, cp, vb);
        }
      }
    } else {
      char *r = rb + (size_t)j * vb;
      live[j] = 0;
      e = rt_xwait(c, &rq[j++], count);
      if (e != OC_OK) break;
      if (o->kind == OC_OP_PREPEND) {
        e = el.combine(&el, r, acc, count);
      } else {
        e = el.combine(&el, acc, r, count);
        if (vb) memcpy(acc, r, vb);
      }
      have = 1;
    }
  }
  if (e == OC_OK && !have && sp.held == 1) { /* a lone operand, no operation */
    if (vb) memcpy(acc, operands, vb);
    have = 1;
  }
  if (e == OC_OK && parent >= 0 && have) {
    oc_req s;
    e = rt_xsend(c, acc, count, &el, (int)parent, tag, &s);
    if (e == OC_OK) e = rt_xwait(c, &s, -1);
  }
  if (e == OC_OK && me == root && vb) memcpy(recvbuf, acc, vb);
  if (e != OC_OK) rt_drain(c, rq, nin, live);
out:
  free(who);
  free(lo_of);
  free(mine);
  free(rq);
  free(live);
  free(acc);
  free(rb);
  oc_sched_free(&sp.s);
  return e;
}
