/* rt_pattern.c - the hand-coded exchange patterns: the direct and
 * recursive doubling allreduces, recursive doubling and direct scans and
 * the all-to-all allgather (the ring allreduce is the planner's own now,
 * run by rt_view.c).  Recursive doubling exchanges with one peer a round
 * (rt_xchg), the direct patterns and the allgather have
 * all their messages in flight at once (exchange); unlike the trees they do
 * not stream segments of one buffer between fixed peers, so they are not
 * plans of the generic executor (rt_exec.c). */
#include <stdlib.h>
#include <string.h>

#include "core/oc_core.h"
#include "optcast_rt.h"
#include "rt/rt_internal.h"

/* ---- many messages in flight at once ------------------------------------------- */
/* requests for n messages out and in: the requests, the receives' sizes
 * and their live flags, in the communicator's scratch */
typedef struct xreqs {
  oc_req *rq;
  int64_t *want;
  unsigned char *live;
} xreqs;

static int xreqs_get(oc_comm *c, size_t n, xreqs *x) {
  char *base = (char *)rt_scratch(c, n * (sizeof(oc_req) + sizeof(int64_t) + 1), n * sizeof(oc_req));
  if (base == NULL) return OC_ENOMEM;
  x->rq = (oc_req *)(void *)base;
  x->want = (int64_t *)(void *)(base + n * sizeof(oc_req));
  x->live = (unsigned char *)(base + n * (sizeof(oc_req) + sizeof(int64_t)));
  return OC_OK;
}

/* wait for requests 0 .. nr-1, the first nrecv receives of want[i] elements */
static int exchange(oc_comm *c, const xreqs *x, int64_t nr, int64_t nrecv, int e) {
  oc_req *rq = x->rq;
  unsigned char *live = x->live;
  for (int64_t i = 0; i < nr && e == OC_OK; i++) {
    live[i] = 0;
    e = rt_xwait(c, &rq[i], i < nrecv ? x->want[i] : -1);
  }
  if (e != OC_OK) {
    rt_drain(c, rq, nrecv, live); /* receives cancelled, sends waited for */
    for (int64_t i = nrecv; i < nr; i++)
      if (live[i]) (void)rt_xwait(c, &rq[i], -1);
  }
  return e;
}

/* ---- direct allreduce: reduce-scatter and allgather in one exchange each -------
 * The buffer in P blocks.  Every rank sends block j straight to rank j and
 * receives its own block from everyone (P - 1 messages out and in at once),
 * folds the P copies in rank order (x_0 op ... op x_{P-1}: any associative
 * operator), then sends its finished block to everyone and receives theirs
 * (Karp et al.'s all-to-all, section 4.1, on blocks).  Two latencies and
 * 2 (P - 1) / P of the buffer out of each rank: the bandwidth optimum, with
 * the latency of two rounds where the ring pays 2 (P - 1); for networks
 * whose per-message costs are small (o, g << L), as in the reduce-scatter
 * by all-to-all of Rabenseifner's allreduce (cost: rt_model.c). */
int rt_allreduce_direct(oc_comm *c, char *res, int64_t count, const oc_elem *el) {
  int P = c->tp.size, me = c->tp.rank, tag = rt_next_tag(c, RT_ALLREDUCE, -3, P, NULL);
  int64_t bmax = rt_blk_len(count, P, 0), n = rt_blk_len(count, P, me), nr = 0, nrecv;
  char *mine = rt_at(res, rt_blk_lo(count, P, me), el), *tmp;
  xreqs x;
  void *raw = NULL;
  int e = xreqs_get(c, 2 * (size_t)(P - 1), &x);
  if (e != OC_OK) return e;
  if ((tmp = rt_tmp_alloc(el, (int64_t)(P - 1) * bmax, &raw)) == NULL) return OC_ENOMEM;
  /* reduce-scatter: my block from everyone into tmp slot src, theirs out */
  for (int i = 1; i < P && e == OC_OK && n > 0; i++) {
    int src = (me - i + P) % P;
    x.want[nr] = n;
    e = rt_xrecv(c, rt_at(tmp, (int64_t)(src < me ? src : src - 1) * bmax, el), n, el, src,
                 tag, &x.rq[nr]);
    if (e == OC_OK) x.live[nr++] = 1;
  }
  nrecv = nr;
  for (int i = 1; i < P && e == OC_OK; i++) {
    int to = (me + i) % P;
    if (rt_blk_len(count, P, to) == 0) continue;
    e = rt_xsend(c, rt_at(res, rt_blk_lo(count, P, to), el), rt_blk_len(count, P, to), el, to,
                 tag, &x.rq[nr]);
    if (e == OC_OK) x.live[nr++] = 1;
  }
  e = exchange(c, &x, nr, nrecv, e);
  /* fold in rank order: x_{me-1}, ..., x_0 prepended, x_{me+1}, ... appended */
  for (int r = me - 1; r >= 0 && e == OC_OK && n > 0; r--)
    e = rt_fold(el, mine, rt_at(tmp, (int64_t)r * bmax, el), n, 1);
  for (int r = me + 1; r < P && e == OC_OK && n > 0; r++)
    e = rt_fold(el, mine, rt_at(tmp, (int64_t)(r - 1) * bmax, el), n, 0);
  free(raw);
  /* allgather: the finished blocks */
  nr = 0;
  for (int i = 1; i < P && e == OC_OK; i++) {
    int src = (me - i + P) % P;
    if (rt_blk_len(count, P, src) == 0) continue;
    x.want[nr] = rt_blk_len(count, P, src);
    e = rt_xrecv(c, rt_at(res, rt_blk_lo(count, P, src), el), x.want[nr], el, src, tag,
                 &x.rq[nr]);
    if (e == OC_OK) x.live[nr++] = 1;
  }
  nrecv = nr;
  for (int i = 1; i < P && e == OC_OK && n > 0; i++) {
    e = rt_xsend(c, mine, n, el, (me + i) % P, tag, &x.rq[nr]);
    if (e == OC_OK) x.live[nr++] = 1;
  }
  return exchange(c, &x, nr, nrecv, e);
}

/* ---- recursive doubling allreduce (any associative operator) ---------------------
 * With P' = 2^floor(log2 P) and r = P - P': ranks 2i+1 (i < r) first hand
 * their value to 2i (which forms x_2i op x_2i+1); the P' survivors, each
 * holding a contiguous run of ranks in order, exchange with partner v ^ 2^k
 * in round k and fold the partner's run on its side (left when the partner
 * is lower); finally 2i passes the result back to 2i+1.  Rank order is kept,
 * so any associative operator works (cost: rt_model.c). */
/* rt_xchg where the rank's value is still in own (not NULL): what would go
 * out of acc goes out of own, and own is copied into acc while the
 * messages travel */
static int xchg_own(oc_comm *c, char *acc, const char *own, int64_t count, int to, void *in,
                    int from, const oc_elem *el, int tag) {
  int64_t nout = to >= 0 ? count : 0, nin = from >= 0 ? count : 0;
  if (own == NULL) return rt_xchg(c, acc, nout, to, in, nin, from, el, tag);
  return rt_xchg_copy(c, own, nout, to, in, nin, from, el, tag, acc, own, count);
}

int rt_allreduce_rd(oc_comm *c, char *acc, const char *own, int64_t count, const oc_elem *el) {
  int P = c->tp.size, me = c->tp.rank, Pp = 1, r, v, tag, e = OC_OK;
  void *raw = NULL;
  char *tmp = rt_keep_alloc(c, RT_KEEP_SLOTS, el, count, &raw);
  if (own == acc) own = NULL;
  if (tmp == NULL) return OC_ENOMEM;
  while (Pp * 2 <= P) Pp *= 2;
  r = P - Pp;
  tag = rt_next_tag(c, RT_ALLREDUCE, -2, P, NULL);
  /* pre-step: 2i+1 hands its value to 2i */
  if (me < 2 * r) {
    if (me % 2 == 1) {
      e = xchg_own(c, acc, own, count, me - 1, NULL, -1, el, tag);
      v = -1;
    } else {
      e = xchg_own(c, acc, own, count, -1, tmp, me + 1, el, tag);
      if (e == OC_OK) e = rt_fold(el, acc, tmp, count, 0); /* acc op x_{me+1} */
      v = me / 2;
    }
    own = NULL;
  } else {
    v = me - r;
  }
  for (int mask = 1; v >= 0 && mask < Pp && e == OC_OK; mask <<= 1) {
    int pv = v ^ mask, peer = pv < r ? 2 * pv : pv + r;
    e = xchg_own(c, acc, own, count, peer, tmp, peer, el, tag);
    own = NULL;
    if (e == OC_OK) e = rt_fold(el, acc, tmp, count, pv < v);
  }
  if (own != NULL) rt_copy_elems(acc, own, count, el); /* (no exchange: P = 1) */
  /* post-step: 2i passes the result to 2i+1 */
  if (e == OC_OK && me < 2 * r) {
    if (me % 2 == 0) e = rt_xchg(c, acc, count, me + 1, NULL, 0, -1, el, tag);
    else {
      e = rt_xchg(c, NULL, 0, -1, tmp, count, me - 1, el, tag);
      if (e == OC_OK) rt_copy_elems(acc, tmp, count, el);
    }
  }
  free(raw);
  return e;
}

/* ---- recursive doubling scan ------------------------------------------------------
 * Hillis & Steele: ceil(log2 P) rounds, round d sends the partial prefix to
 * rank r + 2^d and prepends the one from r - 2^d; rank order is kept for
 * any operator. */
int rt_scan_rd(oc_comm *c, char *res, int64_t count, const oc_elem *el, int tag) {
  int P = c->tp.size, me = c->tp.rank, e = OC_OK;
  void *raw = NULL;
  char *rb = rt_tmp_alloc(el, count, &raw);
  if (rb == NULL) return OC_ENOMEM;
  for (int64_t d = 1; d < P && e == OC_OK; d *= 2) {
    int to = me + d < P ? (int)(me + d) : -1, from = me - d >= 0 ? (int)(me - d) : -1;
    e = rt_xchg(c, res, count, to, rb, count, from, el, tag);
    if (e == OC_OK && from >= 0) e = el->combine(el, rb, res, count);
  }
  free(raw);
  return e;
}

/* ---- direct scan (short messages) -------------------------------------------------
 * Every rank sends its own value straight to every higher rank (P - 1 - r
 * messages out, r in, all in flight at once) and folds what came in rank
 * order, x_0 op ... op x_r: one round, for networks whose per-message
 * costs are small against L; rank r holds r values aside (cost:
 * rt_model.c, which prices it out where that is large). */
int rt_scan_direct(oc_comm *c, char *res, int64_t count, const oc_elem *el, int tag) {
  int P = c->tp.size, me = c->tp.rank, e = OC_OK;
  int64_t nr = 0, nrecv;
  xreqs x;
  void *raw = NULL;
  char *tmp = NULL;
  if ((e = xreqs_get(c, (size_t)(P - 1), &x)) != OC_OK) return e;
  if (me > 0 && (tmp = rt_tmp_alloc(el, (int64_t)me * count, &raw)) == NULL) return OC_ENOMEM;
  for (int r = 0; r < me && e == OC_OK; r++) {
    x.want[nr] = count;
    e = rt_xrecv(c, rt_at(tmp, (int64_t)r * count, el), count, el, r, tag, &x.rq[nr]);
    if (e == OC_OK) x.live[nr++] = 1;
  }
  nrecv = nr;
  for (int r = me + 1; r < P && e == OC_OK; r++) {
    e = rt_xsend(c, res, count, el, r, tag, &x.rq[nr]);
    if (e == OC_OK) x.live[nr++] = 1;
  }
  e = exchange(c, &x, nr, nrecv, e); /* the sends done before res changes */
  for (int r = me - 1; r >= 0 && e == OC_OK; r--)
    e = rt_fold(el, res, rt_at(tmp, (int64_t)r * count, el), count, 1);
  free(raw);
  return e;
}

/* ---- allgather --------------------------------------------------------------------
 * Karp et al. section 4.1: rank i sends its block to i + 1, i + 2, ...,
 * i + P - 1 (mod P) and receives every other block; optimal for one item
 * per rank in LogP (P - 1 sends and receives each).  Run as the planner's
 * own view of that schedule (oc_alltoall_rank: P packets, a block a rank)
 * by the view executor; the own block goes out from the send buffer and is
 * copied into place while the messages travel. */
int rt__allgather(oc_comm *c, const void *sendbuf, void *recvbuf, int64_t count,
                  const oc_elem *el) {
  int P = c->tp.size, me = c->tp.rank, tag;
  int64_t pred = -1, bytes = oc_mul_sat(count, (int64_t)el->extent);
  char *mine;
  tag = rt_next_tag(c, RT_ALLGATHER, 0, P, NULL);
  if (rt_cost_allgather(c, bytes, &pred) != OC_OK) pred = -1; /* no model: none */
  rt_set_info(c, "karp-all-to-all", 1, bytes, pred);
  if (count == 0) return OC_OK;
  mine = rt_at(recvbuf, (int64_t)me * count, el);
  if (P == 1) {
    if (sendbuf != OC_IN_PLACE) rt_copy_elems(mine, sendbuf, count, el);
    return OC_OK;
  }
  if (count > INT64_MAX / P) return OC_ERANGE;
  return rt_run_view(c, RT_ALLGATHER, RT_ALG_DIRECT, (char *)recvbuf, NULL,
                     sendbuf != OC_IN_PLACE ? (const char *)sendbuf : NULL, count * P, el, 0,
                     P, tag);
}
