/* rt_exec.c - the collectives' entry points, and the send window and
 * fold the view executor (rt_view.c) uses.
 *
 * Every collective runs a planner's schedule: this rank's view of it,
 * executed by rt_view.c (view_call below), with the construction and the
 * packet count chosen by the model (rt_choose.c).  The default broadcast is
 * the planner's `pipeline`: Karp et al.'s optimal LogP tree for a child
 * that takes the whole stream, run as Bar-Noy & Kipnis's PIPELINE over m
 * segments; the default commutative reduce is the same run backwards.  A
 * non-commutative operator runs the order-keeping views of oc_oview.c
 * (rank-order reduction tree, recursive doubling and direct allreduces,
 * the scans), any operator may.  Allreduce: the model's least of reduce to
 * rank 0 + broadcast from it, the planner's ring, Rabenseifner and
 * circulant, the direct reduce-scatter + allgather and recursive doubling.
 * Scan: the chain, recursive doubling or the direct scan.  The allgather:
 * Karp et al.'s all-to-all or the mesh.
 *
 * With pacing on (oc_comm_set_pacing) consecutive sends are posted at
 * least the model's gap apart, as the schedule has them; otherwise as soon
 * as they may go, at most SEND_WINDOW in flight. */
#include <stdlib.h>
#include <string.h>

#include "core/oc_core.h"
#include "optcast_rt.h"
#include "rt/rt_internal.h"

/* acc := child (op) acc when left, acc (op) child when right */
int rt_fold(const oc_elem *el, char *acc, char *child, int64_t n, int left) {
  int e;
  if (left) return el->combine(el, child, acc, n);
  e = el->combine(el, acc, child, n);
  if (e == OC_OK) rt_copy_elems(acc, child, n, el);
  return e;
}

/* ---- a window of sends in flight ------------------------------------------------
 * Sends are posted non-blocking; at most SEND_WINDOW are in flight, the
 * oldest waited for before a new one.  rt_win_drain waits for the rest. */
int rt_win_send(oc_comm *c, rt_sendwin *w, const void *buf, int64_t n, const oc_elem *el,
                int peer, int tag) {
  int e;
  if (w->ns - w->head == SEND_WINDOW || (w->one && w->ns > w->head)) {
    if ((e = rt_xwait(c, &w->r[w->head % SEND_WINDOW], -1)) != OC_OK) return e;
    w->head++;
  }
  /* the model's gap since the last post (oc_comm_set_pacing) */
  if (w->gap > 0 && w->ns > 0) rt_sleep_until(w->last + w->gap);
  if (w->gap > 0 || w->track) w->last = rt_now_ns();
  e = rt_xsend(c, buf, n, el, peer, tag, &w->r[w->ns % SEND_WINDOW]);
  if (e == OC_OK) w->ns++;
  return e;
}

/* every send up to number upto (counted from 0) done */
int rt_win_wait_upto(oc_comm *c, rt_sendwin *w, int64_t upto) {
  int e = OC_OK;
  for (; w->head <= upto && w->head < w->ns && e == OC_OK; w->head++)
    e = rt_xwait(c, &w->r[w->head % SEND_WINDOW], -1);
  return e;
}

/* every send still in flight; e, or the first error of these */
int rt_win_drain(oc_comm *c, rt_sendwin *w, int e) {
  for (; w->head < w->ns; w->head++) {
    int e2 = rt_xwait(c, &w->r[w->head % SEND_WINDOW], -1);
    if (e == OC_OK) e = e2;
  }
  return e;
}

/* Receives of a stream posted ahead of the one being combined: enough to
 * cover a message's latency at the model's gap (rt_recv_ahead), at most m,
 * within RT_RECV_AHEAD_BYTES of buffers (but 2 at least). */
int64_t rt_recv_ahead(const oc_comm *c, int64_t bytes) {
  int64_t w = RT_RECV_AHEAD;
  double L, os, orv, g;
  oc_rtparams_at(&c->prm, bytes, &L, &os, &orv, &g);
  if (g > 0 && os + L + orv < g * RT_RECV_AHEAD) w = 2 + (int64_t)((os + L + orv) / g);
  return oc_min64(w, RT_RECV_AHEAD);
}

/* ---- the collectives on it ---------------------------------------------------------- */

/* a planner's construction: its view of this rank, on buf (own: as
 * rt_exec_view) */
static int view_call(oc_comm *c, int coll, const rt_choice *ch, char *buf, const char *own,
                     int64_t count, const oc_elem *el, int root) {
  int64_t m = coll == RT_ALLREDUCE ? rt_view_packets(c, ch->alg, count) : oc_max64(ch->m, 1);
  int tag = rt_next_tag(c, coll, root, m, NULL);
  rt_set_info(c, ch->name, m, rt_part_len(count, m, 0) * (int64_t)el->extent, ch->t);
  if (count == 0) return OC_OK;
  if (c->tp.size == 1) {
    if (own != NULL) rt_copy_elems(buf, own, count, el);
    return OC_OK;
  }
  return rt_run_view(c, coll, ch->alg, buf, own, NULL, count, el, root, m, tag);
}

int rt__bcast(oc_comm *c, void *buf, int64_t count, const oc_elem *el, int root) {
  rt_choice ch;
  int e;
  if ((e = rt_choose(c, RT_BCAST, count, el, &ch)) != OC_OK) return e;
  if (ch.alg == RT_ALG_TREE) ch.alg = RT_ALG_MB + OC_MB_PIPELINE; /* the planner's pipeline */
  return view_call(c, RT_BCAST, &ch, (char *)buf, NULL, count, el, root);
}

/* Reduce into `result` (root) or up to the parent; own: this rank's data.
 * A commutative operator runs a planner's construction backwards, any
 * other the rank-order tree (oc_oview.c). */
int rt__reduce(oc_comm *c, const void *own, void *result, int64_t count,
               const oc_elem *el, int root) {
  int e;
  rt_choice ch;
  void *araw = NULL;
  char *acc = (char *)result;
  if ((e = rt_choose(c, RT_REDUCE, count, el, &ch)) != OC_OK) return e;
  if (ch.alg == RT_ALG_TREE && el->commutative) /* the planner's pipeline, run backwards */
    ch.alg = RT_ALG_MB + OC_MB_PIPELINE;
  else if (ch.alg == RT_ALG_TREE)
    ch.name = "karp-reduce-ordered";
  if (c->tp.rank != root && count > 0 && c->tp.size > 1) {
    /* a rank that receives nothing (a leaf) sends its own data as it is;
     * any other adds into a buffer the communicator keeps */
    const oc_mb_rank *v = rt_view_get(c, RT_REDUCE, ch.alg, count, el, root,
                                      oc_max64(ch.m, 1), &e);
    int recv = 0;
    if (v == NULL) return e;
    for (size_t i = 0; i < v->n && !recv; i++) recv = v->step[i].kind == OC_MB_RECV;
    if (!recv) acc = (char *)(uintptr_t)own;
    else if ((acc = rt_keep_alloc(c, RT_KEEP_ACC, el, count, &araw)) == NULL) return OC_ENOMEM;
  }
  /* own is copied into acc packet by packet as the view first uses each */
  e = view_call(c, RT_REDUCE, &ch, acc, (const char *)own, count, el, root);
  free(araw);
  return e;
}

/* Allreduce: the choice (rt_choose.c) among reduce + broadcast, the ring,
 * Rabenseifner's, the circulant, the direct pattern and recursive
 * doubling. */
int rt__allreduce(oc_comm *c, const void *own, void *result, int64_t count,
                  const oc_elem *el) {
  rt_choice ch;
  oc_callinfo r;
  int e;
  if (count > 0 && c->tp.size > 1) {
    if ((e = rt_choose(c, RT_ALLREDUCE, count, el, &ch)) != OC_OK) return e;
    if (ch.alg != RT_ALG_TREE) /* the planner's schedule, as it is */
      return view_call(c, RT_ALLREDUCE, &ch, (char *)result, (const char *)own, count, el, -1);
  }
  /* reduce to 0 (into result there), then broadcast result from 0; a
   * rank reducing in place only reads result until its sends are done */
  if ((e = rt__reduce(c, own, result, count, el, 0)) != OC_OK) return e;
  r = c->last;
  rt_begin(c);
  e = rt__bcast(c, result, count, el, 0);
  c->last.algorithm = "reduce+bcast";
  c->last.predicted = oc_add_sat(r.predicted, c->last.predicted);
  c->last.sends += r.sends;
  c->last.recvs += r.recvs;
  return e;
}

/* Scan: the pipelined chain, recursive doubling or the direct scan, rank
 * order kept every way. */
int rt__scan(oc_comm *c, const void *sendbuf, void *recvbuf, int64_t count,
             const oc_elem *el) {
  rt_choice ch = {RT_ALG_DOUBLING, "recursive-doubling", 0, 0};
  int e;
  if (count > 0 && (e = rt_choose(c, RT_SCAN, count, el, &ch)) != OC_OK) return e;
  return view_call(c, RT_SCAN, &ch, (char *)recvbuf,
                   sendbuf == OC_IN_PLACE ? NULL : (const char *)sendbuf, count, el, 0);
}

/* The allgather: the model's least of Karp et al.'s all-to-all (section
 * 4.1: rank i sends its block to i + 1, ..., i + P - 1 (mod P) and
 * receives every other block; optimal for one item a rank in LogP) and the
 * mesh (oc_allgather_mesh_rank: phases among the ranks of a line of a
 * d_1 x d_2 x ... grid, fewer and larger messages: P - 1 messages a rank
 * become sum (d_t - 1)).  Either runs as the planner's view (P packets, a
 * block a rank).  Karp's sends the own block from the send buffer and
 * copies it into place while the messages travel; the mesh's later phases
 * send it with its neighbours' blocks, so it is copied in first. */
int rt__allgather(oc_comm *c, const void *sendbuf, void *recvbuf, int64_t count,
                  const oc_elem *el) {
  int P = c->tp.size, me = c->tp.rank, tag, e;
  int64_t bytes = oc_mul_sat(count, (int64_t)el->extent);
  rt_choice ch = {RT_ALG_DIRECT, "karp-all-to-all", 0, -1};
  const char *alt = sendbuf != OC_IN_PLACE ? (const char *)sendbuf : NULL;
  char *mine;
  tag = rt_next_tag(c, RT_ALLGATHER, 0, P, NULL);
  if (count > 0 && P > 1 && (e = rt_choose(c, RT_ALLGATHER, count, el, &ch)) != OC_OK) {
    if (e != OC_ERANGE && e != OC_EINVAL) return e;
    ch.alg = RT_ALG_DIRECT; /* no model at this size: Karp's, unpriced */
    ch.name = "karp-all-to-all";
    ch.t = -1;
  }
  if (ch.alg == RT_ALG_MESH && c->ag_bytes != bytes) { /* its phases, named: mesh-16x16 */
    int64_t dims[OC_MESH_DIMS_MAX], t;
    int n, at = snprintf(c->ag_name, sizeof c->ag_name, "mesh");
    if ((e = rt_mesh_dims(c, bytes, dims, &n, &t)) != OC_OK) return e;
    for (int i = 0; i < n && at > 0 && (size_t)at < sizeof c->ag_name; i++)
      at += snprintf(c->ag_name + at, sizeof c->ag_name - (size_t)at, "%s%lld", i ? "x" : "-",
                     (long long)dims[i]);
    c->ag_bytes = bytes; /* (the next calls of this size: kept) */
  }
  if (ch.alg == RT_ALG_MESH) {
    ch.name = c->ag_name;
    if (strcmp(c->ag_name, "mesh") == 0) { /* (named, P prime) one phase: Karp's all-to-all */
      ch.alg = RT_ALG_DIRECT;
      ch.name = "karp-all-to-all";
      if (rt_cost_allgather(c, bytes, &ch.t) != OC_OK) ch.t = -1;
    }
  }
  rt_set_info(c, ch.name, 1, bytes, P == 1 ? 0 : ch.t);
  if (count == 0) return OC_OK;
  mine = rt_at(recvbuf, (int64_t)me * count, el);
  if (P == 1) {
    if (alt != NULL) rt_copy_elems(mine, alt, count, el);
    return OC_OK;
  }
  if (count > INT64_MAX / P) return OC_ERANGE;
  if (ch.alg == RT_ALG_MESH && alt != NULL) {
    rt_copy_elems(mine, alt, count, el);
    alt = NULL;
  }
  return rt_run_view(c, RT_ALLGATHER, ch.alg, (char *)recvbuf, NULL, alt, count * P, el, 0, P,
                     tag);
}
