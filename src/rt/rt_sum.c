/* rt_sum.c - the distributed sum (Shou & Chen section 3; Karp et al.
 * section 5): n operands placed by the optimal summation plan (oc_sum_new)
 * and folded in index order.  Each rank takes its own part of the plan
 * (oc_sum_rank: its operands, its children's partial results in the
 * plan's order, its parent), folds its operands, and runs the rest through
 * the executor every collective uses (rt_exec_view), the children's values
 * prepended.  Cost: the plan's time, oc_sum_time(n) (optimal in LogP with
 * unit additions).  Set-up: the plan of the processors used, O(P), built
 * and dropped on every call; the rank keeps its view only (children + 1
 * steps). */
#include <stdlib.h>
#include <string.h>

#include "core/oc_core.h"
#include "optcast_rt.h"
#include "rt/rt_internal.h"

typedef struct sumpart {
  oc_mb_rank view; /* this rank's part */
  int64_t first, held, time;
} sumpart;

static int sum_part(oc_comm *c, int64_t n, int64_t count, oc_type t, int root, sumpart *sp) {
  oc_params p;
  oc_reduce *r = NULL;
  int e;
  size_t sz = oc_type_size(t);
  memset(sp, 0, sizeof *sp);
  if (sz == 0 || n < 1 || count < 0 || root < 0 || root >= c->tp.size) return OC_EINVAL;
  if (n > OC_REDUCE_PLAN_MAX) return OC_ERANGE;
  if ((uint64_t)count > (uint64_t)INT64_MAX / sz) return OC_ERANGE;
  e = oc_rtparams_model(&c->prm, count * (int64_t)sz, c->tp.size, c->unit_ns, &p);
  if (e == OC_OK) e = oc_sum_new(&r, &p, root, n);
  if (e == OC_OK) e = oc_sum_rank(r, c->tp.rank, &sp->first, &sp->held, &sp->view);
  if (e == OC_OK) sp->time = oc_reduce_completion(r);
  oc_reduce_free(r);
  if (e) oc_mb_rank_free(&sp->view);
  return e;
}

int oc_coll_sum_share(oc_comm *c, int64_t n, int64_t count, oc_type t, int root,
                      int64_t *first, int64_t *held) {
  sumpart sp;
  int e;
  if (c == NULL || first == NULL || held == NULL) return OC_EINVAL;
  if ((e = sum_part(c, n, count, t, root, &sp)) != OC_OK) return e;
  *first = sp.first;
  *held = sp.held;
  oc_mb_rank_free(&sp.view);
  return OC_OK;
}

int oc_coll_sum(oc_comm *c, int64_t n, const void *operands, void *recvbuf,
                int64_t count, oc_type t, const oc_reducer *op, int root) {
  sumpart sp;
  oc_elem el;
  int me, e, tag;
  char *acc = NULL;
  size_t vb;
  if (c == NULL) return OC_EINVAL;
  rt_begin(c);
  if (op == NULL || oc_elem_builtin(&el, t, op) != OC_OK) return OC_EINVAL;
  me = c->tp.rank;
  if ((e = sum_part(c, n, count, t, root, &sp)) != OC_OK) return e;
  /* this rank's own arguments first: nothing sent when they are wrong */
  if ((sp.held > 0 && count > 0 && operands == NULL) ||
      (me == root && recvbuf == NULL && count > 0)) {
    oc_mb_rank_free(&sp.view);
    return OC_EINVAL;
  }
  if ((e = rt_agree(c, RT_SUM, root, oc_mul_sat(n, count), &el)) != OC_OK) {
    oc_mb_rank_free(&sp.view);
    return e;
  }
  tag = rt_next_tag(c, RT_SUM, root, n, NULL);
  c->last.algorithm = "shou-chen-sum";
  c->last.segments = 1;
  c->last.unit_ns = c->unit_ns;
  c->last.predicted = sp.time;
  vb = (size_t)count * el.extent;
  c->last.segment_bytes = (int64_t)vb;
  if (sp.held == 0) goto out; /* not used by the plan: no part in it */
  /* the accumulator: the root's result buffer, else one of its own */
  acc = me == root ? (char *)recvbuf : (char *)malloc(vb ? vb : 1);
  if (acc == NULL) {
    e = OC_ENOMEM;
    goto out;
  }
  /* own operands in index order, folded from the last one leftwards (each
   * prepended in place, no copy): acc = x_first op ... op x_{first+held-1} */
  if (vb) memcpy(acc, (const char *)operands + (size_t)(sp.held - 1) * vb, vb);
  for (int64_t k = sp.held - 2; k >= 0 && e == OC_OK; k--)
    e = el.combine(&el, (const char *)operands + (size_t)k * vb, acc, count);
  /* the children's partial results (prepended) and the send up */
  if (e == OC_OK) e = rt_exec_view(c, acc, NULL, NULL, count, &el, 1, &sp.view, tag, 0);
out:
  if (acc != recvbuf) free(acc);
  oc_mb_rank_free(&sp.view);
  return e;
}
