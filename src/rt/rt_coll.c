/* rt_coll.c - the public collective API.  The oc_coll_* calls describe a
 * built-in type and operator as an oc_elem and hand over to oc_exec_*;
 * each oc_exec_* clears the call's oc_callinfo, checks this rank's
 * arguments, agrees with every rank on them (rt_agree, when the
 * communicator's check is on) and calls the internal rt__* function that
 * does the work (rt_exec.c, rt_pattern.c).  The distributed sum is in
 * rt_sum.c. */
#include <stdlib.h>

#include "core/oc_core.h"
#include "optcast_rt.h"
#include "rt/rt_internal.h"

/* the element description, and a count whose bytes fit the runtime's range
 * (count x extent <= OC_RT_BYTES_MAX, so no size or offset can wrap) */
static int check_elem(const oc_elem *el, int combining, int64_t count) {
  if (el == NULL || el->extent == 0 || el->true_extent == 0 || count < 0) return OC_EINVAL;
  if (combining && el->combine == NULL) return OC_EINVAL;
  if ((uint64_t)count > (uint64_t)OC_RT_BYTES_MAX / el->extent) return OC_ERANGE;
  return OC_OK;
}

int oc_exec_bcast(oc_comm *c, void *buf, int64_t count, const oc_elem *el, int root) {
  int e;
  if (c == NULL) return OC_EINVAL;
  rt_begin(c);
  if ((e = check_elem(el, 0, count)) != OC_OK) return e;
  if (count < 0 || root < 0 || root >= c->tp.size || (buf == NULL && count > 0))
    return OC_EINVAL;
  if ((e = rt_agree(c, RT_BCAST, root, count, el)) != OC_OK) return e;
  return rt__bcast(c, buf, count, el, root);
}

int oc_exec_reduce(oc_comm *c, const void *sendbuf, void *recvbuf, int64_t count,
                   const oc_elem *el, int root) {
  const void *own;
  int e;
  if (c == NULL) return OC_EINVAL;
  rt_begin(c);
  if ((e = check_elem(el, 1, count)) != OC_OK) return e;
  if (count < 0 || root < 0 || root >= c->tp.size) return OC_EINVAL;
  if (sendbuf == OC_IN_PLACE && c->tp.rank != root) return OC_EINVAL;
  own = sendbuf == OC_IN_PLACE ? recvbuf : sendbuf;
  if (count > 0 && (own == NULL || (c->tp.rank == root && recvbuf == NULL)))
    return OC_EINVAL;
  if ((e = rt_agree(c, RT_REDUCE, root, count, el)) != OC_OK) return e;
  if (c->alg[RT_REDUCE] >= RT_ALG_MB && !el->commutative) return OC_EINVAL;
  return rt__reduce(c, own, recvbuf, count, el, root);
}

int oc_exec_allreduce(oc_comm *c, const void *sendbuf, void *recvbuf,
                      int64_t count, const oc_elem *el) {
  const void *own;
  int e;
  if (c == NULL) return OC_EINVAL;
  rt_begin(c);
  if ((e = check_elem(el, 1, count)) != OC_OK) return e;
  if (count < 0) return OC_EINVAL;
  own = sendbuf == OC_IN_PLACE ? recvbuf : sendbuf;
  if (count > 0 && (own == NULL || recvbuf == NULL)) return OC_EINVAL;
  if ((e = rt_agree(c, RT_ALLREDUCE, 0, count, el)) != OC_OK) return e;
  if ((c->alg[RT_ALLREDUCE] == RT_ALG_RING || c->alg[RT_ALLREDUCE] == RT_ALG_RABEN ||
       c->alg[RT_ALLREDUCE] == RT_ALG_CIRCULANT) && !el->commutative)
    return OC_EINVAL; /* the planner's reductions need a commutative operator */
  return rt__allreduce(c, own, recvbuf, count, el);
}

int oc_exec_allgather(oc_comm *c, const void *sendbuf, void *recvbuf,
                      int64_t count, const oc_elem *el) {
  int e;
  if (c == NULL) return OC_EINVAL;
  rt_begin(c);
  if ((e = check_elem(el, 0, count)) != OC_OK) return e;
  if (count < 0 || (count > 0 && recvbuf == NULL) || (count > 0 && sendbuf == NULL))
    return OC_EINVAL;
  if (count > 0 &&
      (uint64_t)count > (uint64_t)OC_RT_BYTES_MAX / el->extent / (uint64_t)c->tp.size)
    return OC_ERANGE; /* the whole receive buffer */
  if ((e = rt_agree(c, RT_ALLGATHER, 0, count, el)) != OC_OK) return e;
  return rt__allgather(c, sendbuf, recvbuf, count, el);
}

int oc_exec_scan(oc_comm *c, const void *sendbuf, void *recvbuf, int64_t count,
                 const oc_elem *el) {
  int e;
  if (c == NULL) return OC_EINVAL;
  rt_begin(c);
  if ((e = check_elem(el, 1, count)) != OC_OK) return e;
  if (count < 0 || (count > 0 && (recvbuf == NULL || sendbuf == NULL))) return OC_EINVAL;
  if ((e = rt_agree(c, RT_SCAN, 0, count, el)) != OC_OK) return e;
  return rt__scan(c, sendbuf, recvbuf, count, el);
}

/* ---- built-in types ---------------------------------------------------------------- */

int oc_coll_bcast(oc_comm *c, void *buf, int64_t count, oc_type t, int root) {
  oc_elem el;
  if (oc_elem_builtin(&el, t, NULL) != OC_OK) return OC_EINVAL;
  return oc_exec_bcast(c, buf, count, &el, root);
}

int oc_coll_reduce(oc_comm *c, const void *sendbuf, void *recvbuf, int64_t count,
                   oc_type t, const oc_reducer *op, int root) {
  oc_elem el;
  if (op == NULL || oc_elem_builtin(&el, t, op) != OC_OK) return OC_EINVAL;
  return oc_exec_reduce(c, sendbuf, recvbuf, count, &el, root);
}

int oc_coll_allreduce(oc_comm *c, const void *sendbuf, void *recvbuf,
                      int64_t count, oc_type t, const oc_reducer *op) {
  oc_elem el;
  if (op == NULL || oc_elem_builtin(&el, t, op) != OC_OK) return OC_EINVAL;
  return oc_exec_allreduce(c, sendbuf, recvbuf, count, &el);
}

int oc_coll_allgather(oc_comm *c, const void *sendbuf, void *recvbuf,
                      int64_t count, oc_type t) {
  oc_elem el;
  if (oc_elem_builtin(&el, t, NULL) != OC_OK) return OC_EINVAL;
  return oc_exec_allgather(c, sendbuf, recvbuf, count, &el);
}

int oc_coll_scan(oc_comm *c, const void *sendbuf, void *recvbuf, int64_t count,
                 oc_type t, const oc_reducer *op) {
  oc_elem el;
  if (op == NULL || oc_elem_builtin(&el, t, op) != OC_OK) return OC_EINVAL;
  return oc_exec_scan(c, sendbuf, recvbuf, count, &el);
}
