/* rt_exec.c - the collectives' entry points and the segment-stream
 * executor (rt_exec_steps) for what is not a planner schedule yet.
 *
 * Broadcast, commutative reduce, and the ring, Rabenseifner and circulant
 * allreduces run the planner's own schedule: this rank's view of it,
 * executed by rt_view.c (view_call below).  The default broadcast is the
 * planner's `pipeline`: Karp et al.'s optimal LogP tree for a child that
 * takes the whole stream, run as Bar-Noy & Kipnis's PIPELINE over m
 * segments (each node streams all m to child 0, then to child 1, ...); the
 * default commutative reduce is the same run backwards.  m and the
 * construction come from rt_choose.c.
 *
 * The stream executor: a rank's buffer cut into m segments of len
 * elements; segment j arrives from the `from` peers (received aside and
 * combined into it: the first nleft prepended, the rest appended) and goes
 * on to the `to` peers.  A segment
 * is forwarded only after it arrived (all of its contributions combined);
 * combined segments go up one after the other while the next arrive (the
 * receives of the next few segments posted ahead into slots aside:
 * recv_ahead).  Each segment goes to every `to` peer in turn.  With
 * pacing on (oc_comm_set_pacing) consecutive sends are posted at least the
 * model's gap G apart, as the schedule has them; otherwise as soon as they
 * may go, at most SEND_WINDOW in flight (the window both executors share).
 * Its plans: the ordered reduce (a non-commutative operator: the
 * time-reversed optimal tree of rt_plan.c, children folded in rank order)
 * and the scan as a pipelined chain (rank r receives segment j of x_0 ..
 * x_{r-1} from r - 1, prepends it to its own and passes it to r + 1).
 *
 * Allreduce: the model's least of reduce to rank 0 + broadcast from it, the
 * planner's ring, Rabenseifner and circulant, the direct reduce-scatter +
 * allgather and recursive doubling (rt_pattern.c).  Scan: the chain,
 * recursive doubling or the direct scan (rt_pattern.c); rank order kept
 * every way. */
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
  if (w->ns - w->head == SEND_WINDOW) {
    if ((e = rt_xwait(c, &w->r[w->head % SEND_WINDOW], -1)) != OC_OK) return e;
    w->head++;
  }
  if (w->gap > 0) { /* the model's gap since the last post (oc_comm_set_pacing) */
    if (w->ns > 0) rt_sleep_until(w->last + w->gap);
    w->last = rt_now_ns();
  }
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

/* ---- the generic per-rank executor ------------------------------------------------ */

/* A rank's plan: where each segment comes from (received aside and
 * combined into buf) and goes to. */
typedef struct rt_steps {
  char *buf;           /* the rank's data: combined into, sent from            */
  int64_t count, m, len;
  const oc_elem *el;
  int tag;
  const int *from;     /* peers segments arrive from                           */
  int64_t nfrom, nleft; /* the first nleft prepended, the rest appended         */
  const int *to;       /* peers each segment goes to                           */
  int64_t nto;
} rt_steps;

typedef struct rt_run {
  const rt_steps *s;
  oc_req *rr;          /* receive requests: win nfrom                          */
  unsigned char *live; /* a receive posted and not yet waited for              */
  char *tmp;           /* win nfrom segments: the receives aside               */
  int64_t win;         /* aside: segments whose receives are posted ahead      */
  int64_t posted, ready; /* segments whose receives are posted; arrived        */
} rt_run;

static int64_t seg_n(const rt_steps *s, int64_t j) {
  return oc_min64(s->len, s->count - j * s->len);
}

/* post segment j's receives into slot j % win aside */
static int post(oc_comm *c, rt_run *x, int64_t j) {
  const rt_steps *s = x->s;
  int e = OC_OK;
  for (int64_t k = 0; k < s->nfrom && e == OC_OK; k++) {
    int64_t b = (j % x->win) * s->nfrom + k;
    e = rt_xrecv(c, rt_at(x->tmp, b * s->len, s->el), seg_n(s, j), s->el, s->from[k], s->tag,
                 &x->rr[b]);
    if (e == OC_OK) x->live[b] = 1;
  }
  x->posted = j + 1;
  return e;
}

/* segments up to j arrived (and combined), in order */
static int arrive(oc_comm *c, rt_run *x, int64_t j) {
  const rt_steps *s = x->s;
  int e = OC_OK;
  for (; x->ready <= j && e == OC_OK; x->ready++) {
    int64_t g = x->ready, n = seg_n(s, g);
    for (int64_t k = 0; k < s->nfrom && e == OC_OK; k++) {
      int64_t b = (g % x->win) * s->nfrom + k;
      x->live[b] = 0;
      e = rt_xwait(c, &x->rr[b], n);
      if (e == OC_OK)
        e = rt_fold(s->el, rt_at(s->buf, g * s->len, s->el), rt_at(x->tmp, b * s->len, s->el),
                    n, k < s->nleft);
    }
    if (e == OC_OK && x->posted < s->m) e = post(c, x, x->posted); /* its slots are free */
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

static int64_t recv_ahead(const oc_comm *c, const rt_steps *s) {
  int64_t seg = s->len * (int64_t)s->el->extent, w = oc_min64(rt_recv_ahead(c, seg), s->m);
  while (w > 2 && w * s->nfrom * seg > RT_RECV_AHEAD_BYTES) w--;
  return oc_max64(w, 1);
}

static int rt_exec_steps(oc_comm *c, const rt_steps *s) {
  rt_run x;
  rt_sendwin sw = {NULL, 0, 0, 0, 0};
  int64_t win = s->nfrom > 0 ? recv_ahead(c, s) : 0, nrecv = win * s->nfrom;
  int e = OC_OK;
  void *traw = NULL;
  memset(&x, 0, sizeof x);
  x.s = s;
  x.win = win;
  x.ready = s->nfrom == 0 ? s->m : 0;
  sw.gap = s->nto > 0 ? rt_pace_gap(c, s->len * (int64_t)s->el->extent) : 0;
  {
    /* requests: the receives, SEND_WINDOW sends; then the receives' flags */
    size_t nreq = (size_t)nrecv + SEND_WINDOW;
    char *base = (char *)rt_scratch(c, nreq * sizeof(oc_req) + (size_t)nrecv, nreq * sizeof(oc_req));
    if (base == NULL) return OC_ENOMEM;
    x.rr = (oc_req *)(void *)base;
    sw.r = x.rr + nrecv;
    x.live = (unsigned char *)(base + nreq * sizeof(oc_req));
  }
  if (s->nfrom > 0) {
    x.tmp = rt_tmp_alloc(s->el, win * s->nfrom * s->len, &traw);
    if (x.tmp == NULL) return OC_ENOMEM;
  }
  for (int64_t j = 0; j < win && e == OC_OK; j++) e = post(c, &x, j); /* the first win */
  for (int64_t j = 0; j < s->m && e == OC_OK; j++) {
    e = arrive(c, &x, j);
    for (int64_t k = 0; k < s->nto && e == OC_OK; k++)
      e = rt_win_send(c, &sw, rt_at(s->buf, j * s->len, s->el), seg_n(s, j), s->el, s->to[k],
                      s->tag);
  }
  if (e == OC_OK) e = arrive(c, &x, s->m - 1);
  e = rt_win_drain(c, &sw, e);
  if (e != OC_OK) rt_drain(c, x.rr, nrecv, x.live);
  free(traw);
  return e;
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

/* Reduce into `result` (root) or up to the parent; own: this rank's data. */
int rt__reduce(oc_comm *c, const void *own, void *result, int64_t count,
               const oc_elem *el, int root) {
  int ordered = !el->commutative, e, tag;
  rt_plan *pl;
  rt_steps s;
  rt_choice ch;
  void *araw = NULL;
  if ((e = rt_choose(c, RT_REDUCE, count, el, &ch)) != OC_OK) return e;
  if (ch.alg == RT_ALG_TREE && !ordered) /* the planner's pipeline, run backwards */
    ch.alg = RT_ALG_MB + OC_MB_PIPELINE;
  if (ch.alg >= RT_ALG_MB) { /* the planner's reversed construction (commutative) */
    char *acc = (char *)result;
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
  /* the ordered reduce: the reduction tree with its rank-order fold */
  if ((e = rt_plan_get(c, count, el, root, &pl)) != OC_OK) return e;
  tag = rt_next_tag(c, RT_REDUCE, root, pl->m, &pl->params);
  rt_set_info(c, "karp-reduce-ordered", pl->m, pl->len * (int64_t)el->extent, pl->predicted);
  if (count == 0) return OC_OK;
  if (c->tp.size == 1) {
    rt_copy_elems(result, own, count, el);
    return OC_OK;
  }
  memset(&s, 0, sizeof s);
  if (pl->parent < 0) { /* the accumulator: the result, own data, or aside */
    s.buf = (char *)result;
    rt_copy_elems(s.buf, own, count, el);
  } else if (pl->nkids == 0) {
    s.buf = (char *)own; /* a leaf sends its own data */
  } else {
    if ((s.buf = rt_tmp_alloc(el, count, &araw)) == NULL) return OC_ENOMEM;
    rt_copy_elems(s.buf, own, count, el);
  }
  s.count = count;
  s.m = pl->m;
  s.len = pl->len;
  s.el = el;
  s.tag = tag;
  s.from = pl->kids;
  s.nfrom = pl->nkids;
  s.nleft = pl->nleft;
  s.to = &pl->parent;
  s.nto = pl->parent >= 0;
  e = rt_exec_steps(c, &s);
  free(araw);
  return e;
}

/* Allreduce: the choice (rt_choose.c) among reduce + broadcast, ring and
 * recursive doubling. */
int rt__allreduce(oc_comm *c, const void *own, void *result, int64_t count,
                  const oc_elem *el) {
  rt_choice ch;
  oc_callinfo r;
  int e, P = c->tp.size;
  if (count > 0 && P > 1) {
    if ((e = rt_choose(c, RT_ALLREDUCE, count, el, &ch)) != OC_OK) return e;
    if (ch.alg == RT_ALG_RING || ch.alg == RT_ALG_RABEN || ch.alg == RT_ALG_CIRCULANT) {
      rt_copy_elems(result, own, count, el); /* the planner's schedule, as it is */
      return view_call(c, RT_ALLREDUCE, &ch, (char *)result, NULL, count, el, -1);
    }
    if (ch.alg == RT_ALG_DOUBLING || ch.alg == RT_ALG_DIRECT) {
      if (ch.alg == RT_ALG_DIRECT) rt_copy_elems(result, own, count, el);
      e = ch.alg == RT_ALG_DIRECT
              ? rt_allreduce_direct(c, (char *)result, count, el)
              : rt_allreduce_rd(c, (char *)result, (const char *)own, count, el);
      if (ch.alg == RT_ALG_DIRECT)
        rt_set_info(c, ch.name, P, rt_blk_len(count, P, 0) * (int64_t)el->extent, ch.t);
      else
        rt_set_info(c, ch.name, 1, count * (int64_t)el->extent, ch.t);
      return e;
    }
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

/* Scan: the choice between the pipelined chain and recursive doubling. */
int rt__scan(oc_comm *c, const void *sendbuf, void *recvbuf, int64_t count,
             const oc_elem *el) {
  rt_choice ch = {RT_ALG_DOUBLING, "recursive-doubling", 0, 0};
  int P = c->tp.size, me = c->tp.rank, e, tag, left = me - 1, right = me + 1;
  rt_steps s;
  if (count > 0 && (e = rt_choose(c, RT_SCAN, count, el, &ch)) != OC_OK) return e;
  tag = rt_next_tag(c, RT_SCAN, 0, ch.m, NULL);
  rt_set_info(c, ch.name, 1, count * (int64_t)el->extent, ch.t);
  if (count == 0) return OC_OK;
  if (sendbuf != OC_IN_PLACE) rt_copy_elems(recvbuf, sendbuf, count, el);
  if (P == 1) return OC_OK;
  if (ch.alg == RT_ALG_DIRECT) return rt_scan_direct(c, (char *)recvbuf, count, el, tag);
  if (ch.m == 0) return rt_scan_rd(c, (char *)recvbuf, count, el, tag);
  c->last.segments = ch.m;
  c->last.segment_bytes = rt_seg_len(count, ch.m) * (int64_t)el->extent;
  memset(&s, 0, sizeof s);
  s.buf = (char *)recvbuf;
  s.count = count;
  s.m = ch.m;
  s.len = rt_seg_len(count, ch.m);
  s.el = el;
  s.tag = tag;
  s.from = &left;
  s.nfrom = me > 0;
  s.nleft = 1; /* prepended: x_0 .. x_{r-1} (op) x_r */
  s.to = &right;
  s.nto = me < P - 1;
  return rt_exec_steps(c, &s);
}
