/* rt_view.c - the planner's own schedules, run as they are: a rank's view
 * (oc_mb_rank, from oc_mbcast_rank / oc_mreduce_rank: its receptions and
 * sends of packet ranges in its program's order, no O(P) state) executed
 * step by step over the transport (rt_exec_view), and the collectives
 * that run that way (rt_view_bcast, rt_view_reduce, rt_view_allreduce).
 *
 * The buffer of count elements is cut into the view's m packets, packet j
 * the elements [rt_part_lo(count, m, j), rt_part_lo(count, m, j + 1)) (the
 * first count % m one element longer); a step of packets [item, item+len)
 * moves the elements of those packets, and a step without elements is
 * skipped on both ends.
 *
 * The steps run in the view's order: a send is posted (paced, in the send
 * window) when it is reached, once every reception before it into its
 * packets has landed; a reception into a slot aside is waited for when it
 * is reached (the view lists a reduction's receptions in the order its
 * program combines them), one straight into the buffer only when a later
 * step needs its packets, or at the end: in the planner's model a
 * reception holds up nothing but the steps that use its data (a two-tree
 * node receives from two parents in turn, and waiting for each in the
 * view's order would tie the trees together).  Receptions are posted
 * ahead, in the view's order (so a peer's messages match in the order it
 * sends them): one that is the first step touching its packets straight
 * into the buffer (a broadcast's), any other into a slot aside (2 + (o_s
 * + L + o_r) / g of them at the slot's size, enough to cover a message's
 * latency, at most RT_VIEW_AHEAD, for each peer the rank receives from
 * aside, within RT_VIEW_AHEAD_BYTES; a network
 * that moves a message only once its receive is posted, as SMPI and MPI's
 * rendezvous, would otherwise charge a latency each), copied or combined
 * into the buffer when reached, after every send still reading those
 * packets is done.  A send with hist >= 0 carries the packets' value after
 * the rank had handled hist messages of them: from the buffer when that is
 * the value it holds, else from a snapshot taken when it was (Karp et al.'s
 * circulant sends older partial results).  Combining receptions fold
 * in the order the view lists them, each on its step's side: acc := in
 * (op) acc (side 0; the planner's commutative reductions) or acc (op) in
 * (side 1; the order-keeping views of oc_oview_rank, which any associative
 * operator runs).
 *
 * With own apart from buf (a reduction from a send buffer), a reception
 * that adds into packets no step touched before goes straight into the
 * buffer and own's packets are added in when it lands (V_FOLD: no copy, no
 * slot; own op in, so for a non-commutative operator only a reception
 * joined behind); own is copied into any other packet on its first use.
 *
 * Work and memory O(n + m) for n steps and m packets (the packets' touch,
 * reception count and last-send marks), plus the slots and snapshots, in
 * buffers the communicator keeps (rt_keep_alloc); the view itself is kept
 * for the next call of the same shape (rt_view_get). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/oc_core.h"
#include "optcast_rt.h"
#include "rt/rt_internal.h"

#define RT_VIEW_AHEAD 32
#define RT_VIEW_AHEAD_BYTES ((int64_t)16 << 20)

/* per step: skipped (no elements); received straight into the buffer;
 * and then the rank's own data added in (the first reception into its
 * packets adds, and own is apart: as a 3-operand add, no copy) */
enum { V_SKIP = 1, V_DIRECT = 2, V_FOLD = 4,
       V_EAGER = 8 /* a send from own: the next step on its first packet adds
                      into it, so own is copied into buf while it travels */ };

typedef struct vrun {
  const oc_mb_rank *v;
  char *buf;
  const char *own;      /* NULL, or the rank's data, copied into a packet of
                           buf on its first use (one pass over the packet
                           while it is in cache: the copy and the first add) */
  unsigned char *init;  /* per packet, with own: buf holds it             */
  int64_t count, m, P, me;
  const oc_elem *el;
  unsigned char *flag;  /* per step: V_*                                  */
  unsigned char *touched; /* per packet: a step of v_prepare's has it     */
  int64_t *peers;       /* per step: v_aside_peers' scratch                */
  int64_t *snap;        /* per step: a send's snapshot offset (elements) or -1 */
  int64_t *cnt;         /* per packet: receptions handled                  */
  int64_t *lastsend;    /* per packet: the last send reading it, or -1     */
  int64_t *pend;        /* per packet: the direct reception (step) still to
                           land in it, or -1                               */
  int64_t *sfirst, *snext; /* snapshot requests by first packet: lists of steps */
  char *sbuf;           /* the snapshots                                   */
  int64_t nrecv, *rord; /* receptions; per step its number among them      */
  oc_req *rq;
  unsigned char *live;
  char *slots;          /* aside receptions: win slots of slot elements    */
  int64_t win, slot, posted;
  int64_t fold_live, fold_win; /* V_FOLD receptions in flight, and at most */
  int64_t nfold;        /* V_FOLD receptions in the view (v_prepare)      */
  int64_t *fq, fq_head, fq_tail; /* V_FOLD receptions posted, in order (steps) */
  int64_t *aq, aq_head, aq_tail; /* aside receptions posted, in order (steps) */
  int64_t *slot_of;     /* per step: its slot                              */
  int64_t *freeslot, nfree;
  rt_sendwin *sw;
  const char *alt;      /* NULL, or packet `me`'s data, not yet in buf: its
                           sends read it, and it is copied in while they
                           travel (an allgather's own block)               */
} vrun;

static int64_t v_lo(const vrun *x, int64_t item) { return rt_part_lo(x->count, x->m, item); }

/* packets [a, a+len) about to be used: the rank's own data copied in where
 * buf does not hold it yet (own); with over, the use overwrites them */
static void v_init(vrun *x, int64_t a, int64_t len, int over) {
  if (x->own == NULL) return;
  for (int64_t p = a; p < a + len; p++) {
    if (!x->init[p] && !over) {
      int64_t lo = v_lo(x, p);
      rt_copy_elems(rt_at(x->buf, lo, x->el), rt_at(x->own, lo, x->el), v_lo(x, p + 1) - lo,
                    x->el);
    }
    x->init[p] = 1;
  }
}

/* snapshots of the packets that just reached cnt (a reception of
 * [a, a+len) handled, or the start with len = m) */
static void v_snapshots(vrun *x, int64_t a, int64_t len) {
  if (x->sfirst == NULL) return;
  for (int64_t p = a; p < a + len; p++)
    for (int64_t i = x->sfirst[p]; i >= 0; i = x->snext[i]) {
      const oc_mb_step *s = &x->v->step[i];
      if (x->cnt[p] == s->hist) {
        int64_t lo = v_lo(x, s->item);
        rt_copy_elems(rt_at(x->sbuf, x->snap[i], x->el), rt_at(x->buf, lo, x->el),
                      v_lo(x, s->item + s->len) - lo, x->el);
      }
    }
}

/* the plan's pass: skips, direct receptions, snapshots needed */
static int v_prepare(vrun *x, int64_t *snap_elems, int64_t *slot_elems, int64_t *naside) {
  const oc_mb_rank *v = x->v;
  unsigned char *touched = x->touched; /* zeroed by the caller */
  int e = OC_OK;
  *snap_elems = *slot_elems = *naside = 0;
  for (size_t i = 0; i < v->n && e == OC_OK; i++) {
    const oc_mb_step *s = &v->step[i];
    int64_t lo, n, first = 1, c0;
    x->snap[i] = -1;
    x->rord[i] = -1;
    if (s->item < 0 || s->len < 1 || s->item > x->m - s->len || s->peer < 0 ||
        s->peer >= x->P || s->peer == x->me) {
      e = OC_EINVAL;
      break;
    }
    lo = v_lo(x, s->item);
    n = v_lo(x, s->item + s->len) - lo;
    if (n == 0) {
      x->flag[i] = V_SKIP;
      continue;
    }
    c0 = x->cnt[s->item];
    for (int64_t p = s->item; p < s->item + s->len; p++) {
      if (touched[p]) first = 0;
      touched[p] = 1;
      if (s->kind == OC_MB_SEND && s->hist >= 0 && x->cnt[p] != c0)
        e = OC_EINVAL; /* an older value of packets at different stages */
    }
    if (s->kind == OC_MB_RECV) {
      x->rord[i] = x->nrecv++;
      if (s->copy && first) {
        x->flag[i] = V_DIRECT;
      } else if (first && x->own != NULL && x->sfirst == NULL &&
                 (s->side == 1 || x->el->commutative)) { /* own op in */
        x->flag[i] = V_DIRECT | V_FOLD;
        x->nfold++;
      } else {
        *slot_elems = oc_max64(*slot_elems, n);
        (*naside)++;
      }
      for (int64_t p = s->item; p < s->item + s->len; p++) x->cnt[p]++;
    } else if (s->hist >= 0 && s->hist != c0) {
      if (s->hist > c0 || x->sfirst == NULL) {
        e = OC_EINVAL; /* a value the rank will only have later */
        break;
      }
      x->snap[i] = *snap_elems;
      *snap_elems += n;
      x->snext[i] = x->sfirst[s->item];
      x->sfirst[s->item] = (int64_t)i;
    }
  }
  /* backwards: per packet what touches it next (0 nothing, 1 a send, 2 a
   * reception that adds, 3 one that copies), for V_EAGER */
  for (int64_t p = 0; p < x->m; p++) x->cnt[p] = 0;
  for (size_t i = v->n; e == OC_OK && x->own != NULL && i-- > 0;) {
    const oc_mb_step *s = &v->step[i];
    if (x->flag[i] & V_SKIP) continue;
    if (s->kind == OC_MB_SEND && x->cnt[s->item] == 2) x->flag[i] |= V_EAGER;
    for (int64_t p = s->item; p < s->item + s->len; p++)
      x->cnt[p] = s->kind == OC_MB_SEND ? 1 : s->copy ? 3 : 2;
  }
  for (int64_t p = 0; p < x->m; p++) x->cnt[p] = 0;
  return e;
}

static int v_land(oc_comm *c, vrun *x, size_t i);

static int v_overlap(const oc_mb_step *a, const oc_mb_step *b) {
  return a->item < b->item + b->len && b->item < a->item + a->len;
}

/* an aside reception lands (step i): the earlier ones into its packets
 * first, then waited for, copied or added into the buffer once no send
 * still reads those packets, counted; its slot free */
static int v_land_aside(oc_comm *c, vrun *x, size_t i) {
  const oc_mb_step *s = &x->v->step[i];
  int64_t r = x->rord[i], lo = v_lo(x, s->item), n = v_lo(x, s->item + s->len) - lo, busy = -1;
  char *slot = rt_at(x->slots, x->slot_of[i] * x->slot, x->el);
  int e = OC_OK;
  for (int64_t p = s->item; p < s->item + s->len && e == OC_OK; p++)
    if (x->pend[p] >= 0) e = v_land(c, x, (size_t)x->pend[p]);
  for (int64_t q = x->aq_head; q < x->aq_tail && e == OC_OK; q++) {
    size_t j = (size_t)x->aq[q];
    if (j >= i) break;
    if (x->live[x->rord[j]] && v_overlap(&x->v->step[j], s)) e = v_land_aside(c, x, j);
  }
  if (e != OC_OK) return e;
  x->live[r] = 0;
  if ((e = rt_xwait(c, &x->rq[r], n)) != OC_OK) return e;
  for (int64_t p = s->item; p < s->item + s->len; p++) busy = oc_max64(busy, x->lastsend[p]);
  if (busy >= 0 && (e = rt_win_wait_upto(c, x->sw, busy)) != OC_OK) return e;
  v_init(x, s->item, s->len, s->copy);
  if (s->copy)
    rt_copy_elems(rt_at(x->buf, lo, x->el), slot, n, x->el);
  else /* joined in front (in op acc) or behind (acc op in: a copy more) */
    e = rt_fold(x->el, rt_at(x->buf, lo, x->el), slot, n, s->side == 0 || x->el->commutative);
  x->freeslot[x->nfree++] = x->slot_of[i];
  for (int64_t p = s->item; p < s->item + s->len; p++) x->cnt[p]++;
  v_snapshots(x, s->item, s->len);
  while (x->aq_head < x->aq_tail && !x->live[x->rord[x->aq[x->aq_head]]]) x->aq_head++;
  return e;
}

/* post receptions in the view's order up to step `upto` at least, and
 * further while slots are free */
static int v_post(oc_comm *c, vrun *x, size_t upto, int tag) {
  const oc_mb_rank *v = x->v;
  int e = OC_OK;
  for (; (size_t)x->posted < v->n && e == OC_OK; x->posted++) {
    size_t i = (size_t)x->posted;
    const oc_mb_step *s = &v->step[i];
    int64_t lo, n, r = x->rord[i];
    char *into;
    if (s->kind != OC_MB_RECV || (x->flag[i] & V_SKIP)) continue;
    lo = v_lo(x, s->item);
    n = v_lo(x, s->item + s->len) - lo;
    if (x->flag[i] & V_DIRECT) {
      /* as many adding ones ahead as aside ones: a sender's stream is not
       * flooded (SimGrid shares a link between the messages in flight) */
      while ((x->flag[i] & V_FOLD) && x->fold_live >= x->fold_win && e == OC_OK) {
        size_t j;
        if (i > upto) break;
        while (!x->live[x->rord[x->fq[x->fq_head]]]) x->fq_head++;
        j = (size_t)x->fq[x->fq_head];
        for (int64_t p = x->v->step[j].item; p < x->v->step[j].item + x->v->step[j].len; p++)
          if (x->pend[p] == (int64_t)j) x->pend[p] = -1;
        e = v_land(c, x, j); /* the oldest lands */
      }
      if (e != OC_OK || ((x->flag[i] & V_FOLD) && x->fold_live >= x->fold_win)) break;
      into = rt_at(x->buf, lo, x->el);
      v_init(x, s->item, s->len, 1); /* the first step on its packets: a copy */
      if (x->flag[i] & V_FOLD) {
        x->fold_live++;
        x->fq[x->fq_tail++] = (int64_t)i;
      }
    } else {
      if (x->nfree == 0 && i > upto) break; /* ahead only into free slots */
      if (x->nfree == 0 && (e = v_land_aside(c, x, (size_t)x->aq[x->aq_head])) != OC_OK)
        break; /* the oldest lands to free its slot */
      x->slot_of[i] = x->freeslot[--x->nfree];
      into = rt_at(x->slots, x->slot_of[i] * x->slot, x->el);
      x->aq[x->aq_tail++] = (int64_t)i;
    }
    e = rt_xrecv(c, into, n, x->el, (int)s->peer, tag, &x->rq[r]);
    if (e == OC_OK) x->live[r] = 1;
  }
  return e;
}

/* a direct reception lands: waited for, counted, its packets free */
static int v_land(oc_comm *c, vrun *x, size_t i) {
  const oc_mb_step *s = &x->v->step[i];
  int64_t r = x->rord[i], lo = v_lo(x, s->item), n = v_lo(x, s->item + s->len) - lo;
  int e;
  x->live[r] = 0;
  e = rt_xwait(c, &x->rq[r], n);
  if (x->flag[i] & V_FOLD) {
    x->fold_live--;
    if (e == OC_OK)
      e = x->el->combine(x->el, rt_at(x->own, lo, x->el), rt_at(x->buf, lo, x->el), n);
  }
  for (int64_t p = s->item; p < s->item + s->len; p++) {
    x->pend[p] = -1;
    x->cnt[p]++;
  }
  v_snapshots(x, s->item, s->len);
  return e;
}

/* step k needs the packets of step k: every reception listed before it
 * into them landed (direct ones reached, aside ones posted before k) */
static int v_need(oc_comm *c, vrun *x, size_t k) {
  const oc_mb_step *s = &x->v->step[k];
  int e = OC_OK;
  for (int64_t p = s->item; p < s->item + s->len && e == OC_OK; p++)
    if (x->pend[p] >= 0) e = v_land(c, x, (size_t)x->pend[p]);
  for (int64_t q = x->aq_head; q < x->aq_tail && e == OC_OK; q++) {
    size_t j = (size_t)x->aq[q];
    if (j >= k) break;
    if (x->live[x->rord[j]] && v_overlap(&x->v->step[j], s)) e = v_land_aside(c, x, j);
  }
  return e;
}

static int v_cmp64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* the distinct peers of the aside receptions (at least 1) */
static int64_t v_aside_peers(const vrun *x) {
  int64_t *pe = x->peers, k = 0, d = 0;
  for (size_t i = 0; i < x->v->n; i++)
    if (x->v->step[i].kind == OC_MB_RECV && !(x->flag[i] & (V_SKIP | V_DIRECT)))
      pe[k++] = x->v->step[i].peer;
  qsort(pe, (size_t)k, sizeof *pe, v_cmp64);
  for (int64_t i = 0; i < k; i++) d += i == 0 || pe[i] != pe[i - 1];
  return oc_max64(d, 1);
}

/* ---- a small buffer: the same steps, without the machinery ----------------------
 * A view of at most V_SMALL_BYTES, at most V_SMALL_STEPS steps, no older
 * values sent and no pacing, one packet or no own data apart (most calls of
 * a few bytes: a tree's node, recursive doubling, the allgather of 2 to 16
 * ranks) runs here: every reception posted at the start in the view's
 * order (each into a slot of its own, or straight into the buffer when it is
 * a copy no earlier step touches), then the steps in order - a send posted
 * from the buffer, or from own while the buffer does not hold the rank's
 * value yet (from alt for the allgather's own block); a reception waited
 * for, then (every send reading the buffer done) copied or joined on its
 * side.  The same sends and
 * receptions in the same order as rt_exec_view; its set-up (the per-step
 * arrays, the windows) cost an 8-byte broadcast's root about 700
 * instructions a call. */
#define V_SMALL_STEPS 16
#define V_SMALL_BYTES 4096
static int v_small(oc_comm *c, char *buf, const char *own, const char *alt, int64_t count,
                   const oc_elem *el, int64_t m, const oc_mb_rank *v, int tag, int serial) {
  oc_req rq[V_SMALL_STEPS], sq[V_SMALL_STEPS];
  unsigned char live[V_SMALL_STEPS], direct[V_SMALL_STEPS];
  int64_t lo[V_SMALL_STEPS], len[V_SMALL_STEPS];
  /* sends 0 .. sbuf-1 include every one reading buf; 0 .. done-1 waited for */
  int64_t nr = 0, ns = 0, sbuf = 0, done = 0, k = 0, nslot = 0, slot = 0, me = c->tp.rank;
  size_t n = v->n;
  int init = own == NULL || own == buf, e = OC_OK; /* (m > 1: own is NULL) */
  void *raw = NULL;
  char *slots = NULL;
  for (size_t i = 0; i < n; i++) { /* a copy no earlier step touches goes straight in */
    const oc_mb_step *s = &v->step[i];
    lo[i] = rt_part_lo(count, m, s->item);
    len[i] = rt_part_lo(count, m, s->item + s->len) - lo[i];
    direct[i] = s->kind == OC_MB_RECV && s->copy;
    for (size_t j = 0; j < i && direct[i]; j++)
      direct[i] = !v_overlap(&v->step[j], s) || len[j] == 0;
    if (s->kind == OC_MB_RECV && !direct[i] && len[i] > 0) {
      nslot++;
      slot = oc_max64(slot, len[i]);
    }
  }
  if (nslot > 0 && (slots = rt_keep_alloc(c, RT_KEEP_SLOTS, el, nslot * slot, &raw)) == NULL)
    return OC_ENOMEM;
  for (size_t i = 0; i < n && e == OC_OK; i++) /* every reception, in the view's order */
    if (v->step[i].kind == OC_MB_RECV && len[i] > 0) {
      char *into = direct[i] ? rt_at(buf, lo[i], el) : rt_at(slots, (k++) * slot, el);
      e = rt_xrecv(c, into, len[i], el, (int)v->step[i].peer, tag, &rq[nr]);
      live[nr] = e == OC_OK;
      nr += e == OC_OK;
    }
  k = 0;
  for (size_t i = 0, r = 0; i < n && e == OC_OK; i++) {
    const oc_mb_step *s = &v->step[i];
    if (len[i] == 0) continue; /* no elements: skipped on both ends */
    if (s->kind == OC_MB_SEND) {
      int fromalt = alt != NULL && s->item == me && s->len == 1; /* buf not read */
      for (; serial && done < ns && e == OC_OK; done++) e = rt_xwait(c, &sq[done], -1);
      if (e != OC_OK) break;
      e = rt_xsend(c, fromalt ? alt : init ? rt_at(buf, lo[i], el) : own, len[i], el,
                   (int)s->peer, tag, &sq[ns++]);
      if (e != OC_OK) ns--;
      else if (init && !fromalt) sbuf = ns;
      continue;
    }
    live[r] = 0;
    if ((e = rt_xwait(c, &rq[r], len[i])) != OC_OK) break;
    r++;
    if (direct[i]) { /* straight into buf */
      init = 1;
      continue;
    }
    for (; done < sbuf && e == OC_OK; done++) e = rt_xwait(c, &sq[done], -1); /* buf free */
    if (e == OC_OK) {
      char *sl = rt_at(slots, (k++) * slot, el), *acc = rt_at(buf, lo[i], el);
      if (s->copy) {
        rt_copy_elems(acc, sl, len[i], el);
      } else if (init) { /* in front: in op acc; behind: acc op in */
        e = rt_fold(el, acc, sl, len[i], s->side == 0 || el->commutative);
      } else if (s->side == 0 && !el->commutative) { /* in op own (m = 1) */
        rt_copy_elems(buf, own, count, el);
        e = el->combine(el, sl, buf, count);
      } else { /* own op in, formed in the slot (m = 1) */
        e = el->combine(el, own, sl, count);
        if (e == OC_OK) rt_copy_elems(buf, sl, count, el);
      }
      init = 1;
    }
  }
  if (e == OC_OK && !init) rt_copy_elems(buf, own, count, el); /* no step changed it */
  if (e == OC_OK && alt != NULL) { /* the own packet into place, its messages in flight */
    int64_t l0 = rt_part_lo(count, m, me);
    rt_copy_elems(rt_at(buf, l0, el), alt, rt_part_lo(count, m, me + 1) - l0, el);
  }
  for (; done < ns; done++) { /* every send done (the first error kept) */
    int e2 = rt_xwait(c, &sq[done], -1);
    if (e == OC_OK) e = e2;
  }
  if (e != OC_OK) rt_drain(c, rq, nr, live);
  free(raw);
  return e;
}

int rt_exec_view(oc_comm *c, char *buf, const char *own, const char *alt, int64_t count,
                 const oc_elem *el, int64_t m, const oc_mb_rank *v, int tag, unsigned how) {
  vrun x;
  rt_sendwin sw = {NULL, 0, 0, 0, 0, 0, 0};
  int64_t snap_elems, slot_elems, naside, maxsend = 0, ahead_slot = 0, cur_len = -1, cur_gap = 0;
  int pace;
  void *sraw = NULL, *lraw = NULL, *wraw = NULL;
  int e = OC_OK, any_hist = 0;
  size_t n = v->n;
  if (m < 1 || count < 0) return OC_EINVAL;
  if ((m == 1 || own == NULL || own == buf) && n <= V_SMALL_STEPS && count > 0 &&
      count <= V_SMALL_BYTES / (int64_t)el->extent &&
      ((how & RT_X_NOPACE) || rt_pace_gap(c, count * (int64_t)el->extent) == 0)) {
    int small = 1; /* every step valid, no older value sent */
    for (size_t i = 0; i < n && small; i++)
      small = v->step[i].item >= 0 && v->step[i].len >= 1 && v->step[i].item <= m - v->step[i].len &&
              v->step[i].peer >= 0 && v->step[i].peer < c->tp.size &&
              v->step[i].peer != c->tp.rank && (v->step[i].kind == OC_MB_RECV || v->step[i].hist < 0);
    if (small)
      return v_small(c, buf, own, alt != NULL && c->tp.rank < m ? alt : NULL, count, el, m, v,
                     tag, (how & RT_X_SERIAL) != 0);
  }
  memset(&x, 0, sizeof x);
  x.v = v;
  x.buf = buf;
  x.own = own == buf ? NULL : own;
  x.count = count;
  x.m = m;
  x.P = c->tp.size;
  x.me = c->tp.rank;
  x.alt = alt != NULL && x.me < m ? alt : NULL;
  x.el = el;
  for (size_t i = 0; i < n; i++) any_hist |= v->step[i].kind == OC_MB_SEND && v->step[i].hist >= 0;
  x.sw = &sw;
  { /* the per-step and per-packet arrays: one block the communicator keeps */
    size_t ns = n + 1, words = 8 * ns + 4 * (size_t)m + (ns + 2 * (size_t)m + 7) / 8;
    int64_t *w;
    if (ns > SIZE_MAX / 80 || (uint64_t)m > (SIZE_MAX / 8 - 9 * ns) / 5 ||
        (w = (int64_t *)rt_keep_bytes(c, RT_KEEP_WORK, words * sizeof(int64_t), &wraw)) == NULL) {
      e = OC_ENOMEM;
      goto out;
    }
    x.snap = w;
    x.rord = w + ns;
    x.slot_of = w + 2 * ns;
    x.aq = w + 3 * ns;
    x.snext = any_hist ? w + 4 * ns : NULL;
    x.fq = w + 5 * ns;
    x.cnt = w + 6 * ns;
    x.lastsend = x.cnt + m;
    x.pend = x.lastsend + m;
    x.sfirst = any_hist ? x.pend + m : NULL;
    x.freeslot = x.pend + 2 * m; /* (the slots never outnumber the steps) */
    x.peers = x.freeslot + ns;
    x.flag = (unsigned char *)(x.peers + ns);
    x.init = x.flag + ns;
    x.touched = x.init + m;
    memset(x.flag, 0, ns + 2 * (size_t)m);
    memset(x.cnt, 0, (size_t)m * sizeof(int64_t));
  }
  for (int64_t p = 0; p < m; p++) {
    x.lastsend[p] = x.pend[p] = -1;
    if (x.sfirst != NULL) x.sfirst[p] = -1;
  }
  if ((e = v_prepare(&x, &snap_elems, &slot_elems, &naside)) != OC_OK) goto out;
  /* the window of folds ahead only for a view that folds (an interpolation) */
  x.fold_win = x.nfold > 0 ? rt_recv_ahead(c, rt_part_len(count, m, 0) * (int64_t)el->extent) : 1;
  /* slots: enough to cover a message's latency, as the tree executor's */
  for (size_t i = 0; i < n; i++)
    if (v->step[i].kind == OC_MB_SEND && !(x.flag[i] & V_SKIP))
      maxsend = oc_max64(maxsend, v_lo(&x, v->step[i].item + v->step[i].len) -
                                      v_lo(&x, v->step[i].item));
  if (naside > 0) { /* enough to cover a message's latency at the gap, as the tree executor */
    int64_t bytes = slot_elems * (int64_t)el->extent;
    double L, os, orv, g;
    oc_rtparams_at(&c->prm, bytes, &L, &os, &orv, &g);
    int64_t w = RT_VIEW_AHEAD, peers = v_aside_peers(&x);
    if (g > 0 && os + L + orv < g * RT_VIEW_AHEAD) w = 2 + (int64_t)((os + L + orv) / g);
    /* that many per peer the receptions come from (a root adding what 63
     * children send posts all 63 at once) */
    x.win = oc_min64(oc_mul_sat(oc_min64(w, RT_VIEW_AHEAD), peers), naside);
    while (x.win > 1 && x.win * bytes > RT_VIEW_AHEAD_BYTES) x.win--;
    x.slot = slot_elems;
    ahead_slot = x.win * slot_elems;
    for (x.nfree = 0; x.nfree < x.win; x.nfree++) x.freeslot[x.nfree] = x.win - 1 - x.nfree;
    if ((x.slots = rt_keep_alloc(c, RT_KEEP_SLOTS, el, ahead_slot, &lraw)) == NULL) {
      e = OC_ENOMEM;
      goto out;
    }
  }
  if (snap_elems > 0 && (x.sbuf = rt_keep_alloc(c, RT_KEEP_SNAP, el, snap_elems, &sraw)) == NULL) {
    e = OC_ENOMEM;
    goto out;
  }
  {
    size_t nreq = (size_t)x.nrecv + SEND_WINDOW;
    char *base = (char *)rt_scratch(c, nreq * sizeof(oc_req) + (size_t)x.nrecv + 1, nreq * sizeof(oc_req));
    if (base == NULL) {
      e = OC_ENOMEM;
      goto out;
    }
    x.rq = (oc_req *)(void *)base;
    sw.r = x.rq + x.nrecv;
    x.live = (unsigned char *)(base + nreq * sizeof(oc_req));
  }
  /* paced: each send keeps the gap of the send before it (a mesh's phases
   * send blocks of different sizes) */
  sw.gap = (how & RT_X_NOPACE) ? 0 : rt_pace_gap(c, maxsend * (int64_t)el->extent);
  pace = !(how & RT_X_NOPACE) && c->pace;
  sw.one = (how & RT_X_SERIAL) != 0;
  if (x.sfirst != NULL) v_init(&x, 0, m, 0); /* snapshots read the own data */
  v_snapshots(&x, 0, m); /* values of hist 0: the rank's own */
  for (size_t i = 0; i < n && e == OC_OK; i++) {
    const oc_mb_step *s = &v->step[i];
    int64_t lo, len;
    if (x.flag[i] & V_SKIP) continue;
    lo = v_lo(&x, s->item);
    len = v_lo(&x, s->item + s->len) - lo;
    if ((e = v_post(c, &x, i, tag)) != OC_OK) break;
    if ((e = v_need(c, &x, i)) != OC_OK) break; /* its data, landed */
    if (s->kind == OC_MB_SEND) {
      const char *from;
      if (pace) { /* this send waits the previous one's gap; its own, the next's */
        if (cur_len >= 0) sw.gap = cur_gap;
        if (len != cur_len) {
          cur_len = len;
          cur_gap = rt_pace_gap(c, len * (int64_t)el->extent);
        }
        sw.track = cur_gap > 0;
      }
      int fresh = x.own != NULL && x.snap[i] < 0; /* own holds the packets' value */
      for (int64_t p = s->item; fresh && p < s->item + s->len; p++) fresh = !x.init[p];
      if (fresh) { /* sent from own, buf not read; copied in while it travels
                    * when an addition into it comes next, else on first use */
        e = rt_win_send(c, &sw, rt_at(x.own, lo, el), len, el, (int)s->peer, tag);
        if (e == OC_OK && (x.flag[i] & V_EAGER)) v_init(&x, s->item, s->len, 0);
        continue;
      }
      v_init(&x, s->item, s->len, 0);
      if (x.alt != NULL && s->item == x.me && s->len == 1 && x.snap[i] < 0) {
        e = rt_win_send(c, &sw, x.alt, len, el, (int)s->peer, tag); /* buf not read */
        continue;
      }
      from = x.snap[i] >= 0 ? rt_at(x.sbuf, x.snap[i], el) : rt_at(buf, lo, el);
      e = rt_win_send(c, &sw, from, len, el, (int)s->peer, tag);
      if (e == OC_OK && x.snap[i] < 0)
        for (int64_t p = s->item; p < s->item + s->len; p++) x.lastsend[p] = sw.ns - 1;
      continue;
    }
    if (x.flag[i] & V_DIRECT) { /* waited for when a step needs its packets */
      if (x.live[x.rord[i]]) /* (an adding one may have landed early) */
        for (int64_t p = s->item; p < s->item + s->len; p++) x.pend[p] = (int64_t)i;
      continue;
    }
    e = v_land_aside(c, &x, i); /* an aside one when the view reaches it */
  }
  if (e == OC_OK && x.alt != NULL) { /* the own packet into place, the messages in flight */
    int64_t lo = v_lo(&x, x.me);
    rt_copy_elems(rt_at(buf, lo, el), x.alt, v_lo(&x, x.me + 1) - lo, el);
  }
  for (size_t i = 0; i < n && e == OC_OK; i++) /* the direct receptions no step needed */
    if ((x.flag[i] & V_DIRECT) && x.live[x.rord[i]]) e = v_land(c, &x, i);
  if (e == OC_OK) v_init(&x, 0, m, 0); /* the packets nothing touched */
  e = rt_win_drain(c, &sw, e);
  if (e != OC_OK && x.rq != NULL) rt_drain(c, x.rq, x.nrecv, x.live);
out:
  free(wraw);
  free(sraw);
  free(lraw);
  return e;
}

/* ---- the collectives that run a planner's view ------------------------------------ */

/* the planner's LogP parameters at a packet of `bytes` (model units); a
 * reduction's with the combination of a packet in its overhead, o + a (a
 * = c->combine_ns a byte, as rt_model.c prices the reduce): its tree is
 * the broadcast's for those, run backwards */
static int v_params(const oc_comm *c, int coll, int64_t bytes, oc_params *p) {
  int e = oc_rtparams_model(&c->prm, oc_max64(bytes, 1), c->tp.size, c->unit_ns, p);
  if (e == OC_OK && coll == RT_REDUCE) {
    double a = ceil(c->combine_ns * (double)bytes / c->unit_ns);
    int64_t o;
    if (!(a >= 0) || a > (double)OC_PARAM_MAX) return OC_ERANGE;
    o = oc_add_sat(p->o, (int64_t)a);
    if (o > OC_PARAM_MAX || 2 * o > OC_PARAM_MAX) return OC_ERANGE;
    p->o = o;
    /* a relay receives, adds and sends every packet: it cannot take them
     * closer than 2(o + a) apart (with g below that the program it runs
     * backwards would hold the whole stream before passing any on) */
    if (p->g < 2 * o) p->g = 2 * o;
    if (p->g < 1) p->g = 1;
  }
  return e;
}

/* the broadcast construction a / the reduce family of a runtime choice */
static void v_bcast_cfg(int alg, oc_mbcast_info *cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->alg = (oc_mbcast_alg)(alg - RT_ALG_MB);
  cfg->seg = 1; /* a packet a message: the runtime's segment */
}

int rt_view_of(oc_comm *c, int coll, int alg, int64_t count, const oc_elem *el, int root,
               int64_t m, oc_mb_rank *out) {
  oc_params p;
  int64_t pk = rt_part_len(count, m, 0) * (int64_t)el->extent, t;
  int e = v_params(c, coll, pk, &p);
  if (e != OC_OK) return e;
  if (coll == RT_REDUCE && alg == RT_ALG_TREE) { /* rank order: the tree the choice priced */
    if ((e = rt_model_tree(c, RT_REDUCE, pk, m, &p, &t)) != OC_OK) return e;
    return oc_oview_rank(&p, OC_OV_REDUCE, root, m, c->tp.rank, out);
  }
  if (coll == RT_SCAN)
    return oc_oview_rank(&p, alg == RT_ALG_CHAIN    ? OC_OV_SCAN_CHAIN
                             : alg == RT_ALG_DIRECT ? OC_OV_SCAN_DIRECT
                                                    : OC_OV_SCAN_RD,
                         -1, m, c->tp.rank, out);
  if (coll == RT_ALLREDUCE && (alg == RT_ALG_DOUBLING || alg == RT_ALG_DIRECT))
    return oc_oview_rank(&p, alg == RT_ALG_DIRECT ? OC_OV_ALLREDUCE_DIRECT : OC_OV_ALLREDUCE_RD,
                         -1, m, c->tp.rank, out);
  if (coll == RT_BCAST || coll == RT_REDUCE) {
    oc_mbcast_info b;
    v_bcast_cfg(alg, &b);
    if (coll == RT_BCAST) return oc_mbcast_rank(&p, root, m, &b, c->tp.rank, out);
    {
      oc_mreduce_info r;
      memset(&r, 0, sizeof r);
      r.family = OC_MR_REVERSED;
      r.red = b;
      /* the two-tree's view estimates its program's order; within the
       * size the runtime simulates to price it, the exact order instead */
      r.whole = alg == RT_ALG_MB + OC_MB_TWOTREE && m <= RT_VIEW_PRICE_MAX / c->tp.size;
      return oc_mreduce_rank(&p, root, m, &r, c->tp.rank, out);
    }
  }
  if (coll == RT_ALLREDUCE) {
    oc_mreduce_info r;
    memset(&r, 0, sizeof r);
    r.family = alg == RT_ALG_RING ? OC_MR_RING : alg == RT_ALG_RABEN ? OC_MR_RABEN
                                                                   : OC_MR_CIRCULANT;
    return oc_mreduce_rank(&p, -1, m, &r, c->tp.rank, out);
  }
  if (coll == RT_ALLGATHER && m != c->tp.size) return OC_EINVAL; /* a block (packet) a rank */
  if (coll == RT_ALLGATHER && alg == RT_ALG_MESH) { /* the phases the model priced least */
    int64_t dims[OC_MESH_DIMS_MAX];
    int n;
    if ((e = rt_mesh_dims(c, pk, dims, &n, &t)) != OC_OK) return e;
    if (n == 0) return OC_EINVAL; /* no mesh of two phases or more */
    return oc_allgather_mesh_rank(c->tp.size, dims, n, c->tp.rank, out);
  }
  if (coll == RT_ALLGATHER) /* Karp et al.'s all-to-all */
    return oc_alltoall_rank(&p, 1, c->tp.rank, out);
  return OC_EINVAL;
}

/* the planner's time for the view the runtime would run (model units): the
 * planner simulates the whole schedule (O(P m); the caller bounds P m) */
int rt_view_time(oc_comm *c, int coll, int alg, int64_t count, const oc_elem *el, int64_t m,
                 int64_t *t) {
  oc_params p;
  int64_t pk = rt_part_len(count, m, 0) * (int64_t)el->extent;
  int e;
  if ((e = v_params(c, coll, pk, &p)) != OC_OK) return e;
  if (coll == RT_BCAST || coll == RT_REDUCE) {
    oc_mbcast_info b;
    v_bcast_cfg(alg, &b);
    if (coll == RT_BCAST) return oc_mbcast_run(&p, 0, m, &b, NULL, t);
    {
      oc_mreduce_info r;
      memset(&r, 0, sizeof r);
      r.family = OC_MR_REVERSED;
      r.red = b;
      return oc_mreduce_run(&p, 0, m, &r, NULL, t);
    }
  }
  {
    oc_mreduce_info r;
    memset(&r, 0, sizeof r);
    r.family = alg == RT_ALG_RING ? OC_MR_RING : alg == RT_ALG_RABEN ? OC_MR_RABEN
                                                                   : OC_MR_CIRCULANT;
    return oc_mreduce_run(&p, -1, m, &r, NULL, t);
  }
}

/* packets of a view-run allreduce: the ring and Rabenseifner's one a rank
 * (at most count), the direct pattern a block a rank (P; empty ones when
 * count < P), recursive doubling and the circulant the whole vector
 * (Karp et al.'s one-packet circulant) */
int64_t rt_view_packets(const oc_comm *c, int alg, int64_t count) {
  if (alg == RT_ALG_RING || alg == RT_ALG_RABEN) return oc_max64(1, oc_min64(count, c->tp.size));
  if (alg == RT_ALG_DIRECT) return c->tp.size;
  return 1;
}

/* this rank's view for the call: the last call's of the collective when
 * the shape is the same (c->vmemo), else planned and kept */
const oc_mb_rank *rt_view_get(oc_comm *c, int coll, int alg, int64_t count, const oc_elem *el,
                              int root, int64_t m, int *err) {
  rt_vmemo *vm = &c->vmemo[coll];
  if (vm->valid && vm->alg == alg && vm->root == root && vm->count == count && vm->m == m &&
      vm->extent == el->extent)
    return &vm->v;
  vm->valid = 0;
  oc_mb_rank_free(&vm->v);
  memset(&vm->v, 0, sizeof vm->v);
  if ((*err = rt_view_of(c, coll, alg, count, el, root, m, &vm->v)) != OC_OK) {
    oc_mb_rank_free(&vm->v);
    memset(&vm->v, 0, sizeof vm->v);
    return NULL;
  }
  vm->valid = 1;
  vm->alg = alg;
  vm->root = root;
  vm->count = count;
  vm->m = m;
  vm->extent = el->extent;
  return &vm->v;
}

int rt_run_view(oc_comm *c, int coll, int alg, char *buf, const char *own, const char *alt,
                int64_t count, const oc_elem *el, int root, int64_t m, int tag) {
  int e = OC_OK;
  unsigned how = 0;
  const oc_mb_rank *v = rt_view_get(c, coll, alg, count, el, root, m, &e);
  if (v == NULL) return e;
  /* the direct scan's receivers only fold what comes in and forward none
   * of it: spacing the sends would only delay the last (SMPI, ib, P = 64,
   * 1 KiB: 21.57 us paced, 21.19 unpaced, as SMPI's own MPI_Scan) */
  if (coll == RT_SCAN && alg == RT_ALG_DIRECT) how |= RT_X_NOPACE;
  /* recursive doubling's send of a round carries what the round before
   * received: it waits for the send before it, as its LogP schedule has it
   * (o_s, the measured send, ends when the message is taken), instead of
   * sharing the links with it (SMPI, eth, P = 64, scan of 64 KiB: 2568 us
   * with both in flight, 1746 one at a time) */
  if (alg == RT_ALG_DOUBLING && (coll == RT_SCAN || coll == RT_ALLREDUCE)) how |= RT_X_SERIAL;
  return rt_exec_view(c, buf, own, alt, count, el, m, v, tag, how);
}
