/* oc_lprog.c - LogP send programs and the simulator that times them.
 *
 * A multi-packet broadcast is written as a *program* per processor: the
 * sends it issues, in order (destination, first item, packets).  One
 * simulator (oc_lprog_run) times every program under the LogP rules of
 * docs/MODEL.md: a processor issues its next send as early as
 *   - it holds every item of the message (all of a long message's packets
 *     are usable at the receiver at s + L + 2o + (len-1)G),
 *   - its own send starts are G = max(g, o) apart (g per packet),
 *   - neither its send overheads nor the receiver's receive overheads
 *     overlap another busy interval of that processor,
 *   - the receiver's receive starts are G apart,
 * allow.  Messages are committed in the order of their send starts (a heap),
 * so a new send only has to be checked against what is already committed;
 * see docs/algorithms/libraries.md for the argument.  A message of len
 * packets is a long message (oc_sched_push_long) when g >= o; when o > g
 * its packets are G apart and written one by one (the verifier spaces a
 * long message's packets g apart, which o > g forbids).
 *
 * The planner's multi-packet broadcasts (oc_mbcast.c) and the MPI
 * libraries' algorithms (oc_libcoll.c) are programs of this kind; their
 * shapes are in oc_lpshape.c.
 *
 * Work: O(n log P) for n messages plus O(packets) for the data checks (a
 * conflict search per packet only when o > 0), memory O(P m + P K) beside
 * the program: each processor's last send and last K >= L / max(g, o) + 2
 * receptions (recv_below says why no older one can matter).
 */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"
#include "plan/oc_theap.h"

/* ---- programs ------------------------------------------------------------------ */
int oc_lprog_init(oc_lprog *b, int64_t P, int64_t m, int64_t root) {
  memset(b, 0, sizeof *b);
  b->P = P;
  b->m = m;
  b->root = root;
  b->off = (size_t *)calloc((size_t)P + 1, sizeof *b->off);
  return b->off == NULL ? OC_ENOMEM : OC_OK;
}

void oc_lprog_free(oc_lprog *b) {
  free(b->op);
  free(b->off);
  free(b->src);
  free(b->at);
  memset(b, 0, sizeof *b);
}

void oc_lprog_begin(oc_lprog *b, int64_t v) { b->off[oc_lp_act(b, v)] = b->n; }

/* Programs were written by relative rank 0, 1, ..., P-1: make off[] a CSR
 * by rank (a no-op when the root is 0). */
int oc_lprog_finish(oc_lprog *b) {
  oc_lp_op *sorted;
  int64_t *at = NULL;
  size_t *cnt, pos = 0;
  if (b->err) return b->err;
  if (b->root == 0) {
    b->off[b->P] = b->n;
    return OC_OK;
  }
  sorted = (oc_lp_op *)malloc((b->n + 1) * sizeof *sorted);
  cnt = (size_t *)calloc((size_t)b->P + 1, sizeof *cnt);
  if (sorted == NULL || cnt == NULL) {
    free(sorted);
    free(cnt);
    return OC_ENOMEM;
  }
  for (int64_t v = 0; v < b->P; v++) { /* lengths, by relative rank */
    int64_t q = oc_lp_act(b, v);
    size_t end = (v + 1 < b->P) ? b->off[oc_lp_act(b, v + 1)] : b->n;
    cnt[q] = end - b->off[q];
  }
  if (b->at != NULL && (at = (int64_t *)malloc((b->n + 1) * sizeof *at)) == NULL) {
    free(sorted);
    free(cnt);
    return OC_ENOMEM;
  }
  for (int64_t q = 0; q < b->P; q++) {
    if (cnt[q] > 0) memcpy(sorted + pos, b->op + b->off[q], cnt[q] * sizeof *sorted);
    if (cnt[q] > 0 && at != NULL) memcpy(at + pos, b->at + b->off[q], cnt[q] * sizeof *at);
    b->off[q] = pos;
    pos += cnt[q];
  }
  if (at != NULL) {
    free(b->at);
    b->at = at;
  }
  b->off[b->P] = pos;
  free(cnt);
  free(b->op);
  b->op = sorted;
  b->cap = b->n;
  return OC_OK;
}

int64_t oc_lp_act(const oc_lprog *b, int64_t v) { /* relative rank -> rank */
  int64_t r = v + b->root;
  return r >= b->P ? r - b->P : r;
}

/* the current program's next send: items [item, item + len) to relative rank dst (len <= 0:
 * nothing, as a message without data is left out) */
void oc_lp_emit(oc_lprog *b, int64_t dst_rel, int64_t item, int64_t len) {
  if (len <= 0 || b->err) return;
  if (b->n == b->cap) {
    size_t nc = b->cap ? 2 * b->cap : 256;
    oc_lp_op *x = (oc_lp_op *)realloc(b->op, nc * sizeof *x);
    if (x == NULL) {
      b->err = OC_ENOMEM;
      return;
    }
    b->op = x;
    if (b->at != NULL) {
      int64_t *y = (int64_t *)realloc(b->at, nc * sizeof *y);
      if (y == NULL) {
        b->err = OC_ENOMEM;
        return;
      }
      b->at = y;
    }
    b->cap = nc;
  }
  b->op[b->n].dst = oc_lp_act(b, dst_rel);
  b->op[b->n].item = item;
  b->op[b->n].len = len;
  if (b->at != NULL) b->at[b->n] = 0;
  b->n++;
}

/* at[] is made on the first timed send (the sends before it: 0) and then
 * grows with op[] */
void oc_lp_emit_at(oc_lprog *b, int64_t dst_rel, int64_t item, int64_t len, int64_t t) {
  size_t n = b->n;
  oc_lp_emit(b, dst_rel, item, len);
  if (b->n == n) return;
  if (b->at == NULL && (b->at = (int64_t *)calloc(b->cap, sizeof *b->at)) == NULL) {
    b->err = OC_ENOMEM;
    return;
  }
  b->at[n] = t;
}

/* segment j of [lo, hi) in pieces of seg packets (seg <= 0: one piece) */

int64_t oc_lp_nsegs(int64_t lo, int64_t hi, int64_t seg) {
  if (hi <= lo) return 0;
  if (seg <= 0) return 1;
  return (hi - lo + seg - 1) / seg;
}
void oc_lp_emit_seg(oc_lprog *b, int64_t dst, int64_t lo, int64_t hi,
                     int64_t seg, int64_t j) {
  int64_t a = seg <= 0 ? lo : lo + j * seg;
  int64_t e = seg <= 0 ? hi : oc_min64(hi, a + seg);
  oc_lp_emit(b, dst, a, e - a);
}


/* ---- the simulator ------------------------------------------------------------- */
typedef struct lp_blk {
  int64_t t, len; /* packets at t, t + G, ..., t + (len-1) G */
} lp_blk;

typedef struct lp_heap { /* the event queue: at most one entry a processor */
  oc_hent *e;
  size_t n;
} lp_heap;

static void heap_push(lp_heap *h, int64_t key, int64_t proc) {
  h->n = oc_theap_push(h->e, h->n, key, proc);
}

/* In one block, the packet x closest below lim (x < lim): 1 and *x when
 * there is one. */
static int block_below(lp_blk k, int64_t G, int64_t lim, int64_t *x) {
  if (k.len <= 0 || k.t >= lim) return 0;
  *x = k.t + oc_min64(k.len - 1, (lim - 1 - k.t) / G) * G;
  return 1;
}

/* In blocks a[0..n) (sorted, disjoint), the packet x closest below
 * lim (x < lim); returns 1 and *x when there is one.  The blocks are
 * committed in the order of their send starts, so the one sought is almost
 * always among the last few: look there first, then search by halves. */
static int last_packet_below(const lp_blk *a, size_t n, lp_blk last, int64_t G,
                             int64_t lim, int64_t *x) {
  size_t lo = 0, hi = n; /* hi: the first block with t >= lim */
  if (n > 0 && last.t < lim) return block_below(last, G, lim, x); /* (a hot copy of a[n-1]) */
  while (hi > 0 && n - hi < 4 && a[hi - 1].t >= lim) hi--;
  if (hi > 0 && a[hi - 1].t >= lim) { /* more than 4 from the end */
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (a[mid].t < lim) lo = mid + 1; else hi = mid;
    }
  }
  return hi > 0 && block_below(a[hi - 1], G, lim, x);
}

typedef struct lp_sim {
  const oc_params *p;
  int64_t G, h;             /* G: a message's packets (and a processor's
                               sends) at least this far apart            */
  int64_t os, Gr;           /* the send overhead o + sx; receive starts Gr
                               = max(g, o) apart                         */
  int64_t *avail;           /* P * m: when item i is usable at q      */
  int64_t *send_free, *recv_free;
  lp_blk *rb;               /* CSR by processor: receptions, or (K > 0)
                               each one's last K at rb[q K + (i & (K-1))] */
  lp_blk *sl, *rl;          /* each processor's last send, reception  */
  size_t *roff, *rn, K;
  int lost;                 /* a reception sought fell off the ring   */
  size_t *head;             /* next op of each processor              */
  oc_lp_op *hop;            /* a copy of it (read once from op[])     */
  int64_t *scan, *ready;    /* head op: items checked, their latest   */
  unsigned char *waiting;   /* head op blocked on data                */
} lp_sim;

/* 1 when q's head op has all its data; ready[q] = when */
static int head_ready(lp_sim *s, const oc_lprog *b, int64_t q) {
  const oc_lp_op *o = &s->hop[q];
  int64_t *av = s->avail + q * b->m;
  while (s->scan[q] < o->len) {
    int64_t a = av[o->item + s->scan[q]];
    if (a == INT64_MAX) return 0;
    if (a > s->ready[q]) s->ready[q] = a;
    s->scan[q]++;
  }
  return 1;
}

/* q's reception packet closest below lim, as last_packet_below.  Ring
 * (K > 0): earliest() asks for lim > now + os (a send of q at t >= now,
 * the end of its overhead), and q's receptions committed so far start by
 * now + os + L, max(g, o) = Gr apart or more; so at most L / Gr + 1 of
 * them start at lim or later, and K = L / Gr + 2 of the last ones hold the
 * one sought. */
static int recv_below(lp_sim *s, int64_t q, int64_t G, int64_t lim, int64_t *x) {
  size_t n = s->rn[q], k = n < s->K ? n : s->K;
  if (s->K == 0) return last_packet_below(s->rb + s->roff[q], n, s->rl[q], G, lim, x);
  if (n > 0 && s->rl[q].t < lim) return block_below(s->rl[q], G, lim, x);
  for (size_t j = 1; j < k; j++) {
    lp_blk r = s->rb[(size_t)q * s->K + ((n - 1 - j) & (s->K - 1))];
    if (r.t < lim) return block_below(r, G, lim, x);
  }
  if (n > s->K) s->lost = 1; /* (never, by the above: a bug) */
  return 0;
}

/* the earliest send start >= t of q's head op that breaks no rule against
 * what is committed */
static int64_t earliest(lp_sim *s, const oc_lprog *b, int64_t q, int64_t t) {
  const oc_lp_op *op = &s->hop[q];
  int64_t d = op->dst, o = s->p->o, os = s->os, L = s->p->L, G = s->G;
  int busy;
  int64_t rsv;
  t = oc_max64(t, oc_max64(s->send_free[q], s->recv_free[d] - os - L));
  if (o == 0) return t; /* (receptions take no time: nothing to meet) */
  /* send_first: a receiver that has a send ready (its data in) keeps the
   * slot for it: sends go before receptions at a processor.  Without this a
   * sender whose sends are G = o apart fills its receiver with receptions,
   * and a relay of a pipeline forwards nothing until its parent is done;
   * with it, other schedules lose slots.  The callers time both. */
  busy = b->send_first && !s->waiting[d] && s->head[d] < b->off[d + 1];
  rsv = busy ? oc_max64(s->ready[d], s->send_free[d]) : 0;
  for (;;) {
    int moved = 0;
    for (int64_t k = 0; k < op->len && !moved; k++) {
      int64_t a = t + k * G, x;
      /* the sender's overhead [a, a + os) against its own receptions */
      if (recv_below(s, q, G, a + os, &x) && x > a - o) {
        t += x + o - a;
        moved = 1;
        break;
      }
      a += os + L; /* the receiver's overhead [a, a + o) against its own sends */
      /* (only d's last send is kept: sends are committed in time order, all
       * by now, and a is past now, so it holds the packet sought) */
      if (block_below(s->sl[d], G, a + o, &x) && x > a - os) {
        t += x + os - a;
        moved = 1;
      } else if (busy && a < rsv + os && a + o > rsv) { /* and its next send */
        t += rsv + os - a;
        moved = 1;
      }
    }
    if (!moved) return t;
  }
}

static void lp_sim_free(lp_sim *s) {
  free(s->avail);
  free(s->send_free);
  free(s->recv_free);
  free(s->rb);
  free(s->roff);
  free(s->sl);
  free(s->rl);
  free(s->rn);
  free(s->head);
  free(s->hop);
  free(s->scan);
  free(s->ready);
  free(s->waiting);
}

/* the head op of q can be scheduled: into the heap, or wait for data */
static void lp_arm(lp_sim *s, const oc_lprog *b, lp_heap *hp, int64_t q, int64_t now) {
  if (s->head[q] >= b->off[q + 1]) return;
  if (s->scan[q] == 0) s->hop[q] = b->op[s->head[q]]; /* (a new head) */
  if (head_ready(s, b, q)) {
    int64_t key = oc_max64(now, s->ready[q]);
    if (b->at != NULL) key = oc_max64(key, b->at[s->head[q]]);
    s->waiting[q] = 0;
    heap_push(hp, key, q);
  } else {
    s->waiting[q] = 1;
  }
}

int oc_lprog_run(const oc_params *p, const oc_lprog *b, oc_sched *out, int64_t *time) {
  lp_sim s;
  lp_heap hp;
  int64_t P = b->P, m = b->m, done = 0;
  size_t nmsg = 0;
  int e = OC_OK;
  memset(&s, 0, sizeof s);
  memset(&hp, 0, sizeof hp);
  s.p = p;
  if (b->sx < 0 || b->sx > OC_PARAM_MAX) return OC_EINVAL;
  s.os = p->o + b->sx;
  s.G = oc_max64(p->g, s.os);
  s.Gr = oc_max64(p->g, p->o);
  s.h = p->L + p->o + s.os;
  s.avail = (int64_t *)malloc((size_t)(P * m) * sizeof *s.avail);
  s.send_free = (int64_t *)calloc((size_t)P, sizeof(int64_t));
  s.recv_free = (int64_t *)calloc((size_t)P, sizeof(int64_t));
  s.K = oc_ring_size(p->o > 0 ? p->L / oc_max64(p->g, p->o) + 2 : 1, P, b->n); /* (o = 0:
                                                                          never read) */
  s.rb = (lp_blk *)malloc((s.K > 0 ? (size_t)P * s.K : b->n + 1) * sizeof(lp_blk));
  s.roff = (size_t *)calloc((size_t)P + 1, sizeof(size_t));
  s.sl = (lp_blk *)calloc((size_t)P, sizeof(lp_blk));
  s.rl = (lp_blk *)calloc((size_t)P, sizeof(lp_blk));
  s.rn = (size_t *)calloc((size_t)P, sizeof(size_t));
  s.head = (size_t *)malloc((size_t)P * sizeof(size_t));
  s.hop = (oc_lp_op *)malloc((size_t)P * sizeof(oc_lp_op));
  s.scan = (int64_t *)calloc((size_t)P, sizeof(int64_t));
  s.ready = (int64_t *)calloc((size_t)P, sizeof(int64_t));
  s.waiting = (unsigned char *)calloc((size_t)P, 1);
  hp.e = (oc_hent *)malloc((size_t)P * sizeof(oc_hent));
  if (!s.avail || !s.send_free || !s.recv_free || !s.rb || !s.roff || !s.rn || !s.sl ||
      !s.rl || !s.head || !s.hop || !s.scan || !s.ready || !s.waiting || !hp.e) {
    e = OC_ENOMEM;
    goto out;
  }
  for (int64_t i = 0; i < P * m; i++) s.avail[i] = INT64_MAX;
  for (int64_t i = 0; i < m; i++)
    s.avail[(b->src != NULL ? b->src[i] : b->root) * m + i] = oc_mul_sat(i, b->release);
  for (int64_t q = 0; q < P; q++) {
    s.head[q] = b->off[q];
    s.recv_free[q] = INT64_MIN / 4;
  }
  for (size_t i = 0; i < b->n; i++) s.roff[b->op[i].dst + 1]++;
  for (int64_t q = 0; q < P; q++) s.roff[q + 1] += s.roff[q];
  for (int64_t q = 0; q < P; q++) lp_arm(&s, b, &hp, q, 0);
  while (hp.n > 0) {
    int64_t q = hp.e[0].proc, key = hp.e[0].key, t, d;
    const oc_lp_op *op;
    if (key > OC_TIME_MAX) {
      e = OC_ERANGE;
      goto out;
    }
    t = earliest(&s, b, q, key);
    if (t > key) { /* not yet: back into the heap at t */
      oc_hent x;
      x.key = t;
      x.proc = q;
      oc_theap_sift_top(hp.e, hp.n, x);
      continue;
    }
    hp.n = oc_theap_pop(hp.e, hp.n);
    op = &s.hop[q];
    d = op->dst;
    s.sl[q].t = t; /* (its earlier sends are never looked at again: earliest) */
    s.sl[q].len = op->len;
    s.rl[d].t = t + s.os + p->L;
    s.rl[d].len = op->len;
    if (s.K > 0)
      s.rb[(size_t)d * s.K + (s.rn[d]++ & (s.K - 1))] = s.rl[d];
    else
      s.rb[s.roff[d] + s.rn[d]++] = s.rl[d];
    s.send_free[q] = t + op->len * s.G;
    s.recv_free[d] = t + s.os + p->L + (op->len - 1) * s.G + s.Gr;
    {
      int64_t arr = t + s.h + (op->len - 1) * s.G, *av = s.avail + d * m;
      for (int64_t i = 0; i < op->len; i++)
        if (arr < av[op->item + i]) av[op->item + i] = arr;
    }
    if (out != NULL) {
      if (op->len == 1 || p->g >= s.os)
        e = oc_sched_push_long(out, t, q, d, op->item, op->len);
      else
        for (int64_t i = 0; i < op->len && e == OC_OK; i++)
          e = oc_sched_push(out, t + i * s.G, q, d, op->item + i);
      if (e != OC_OK) goto out;
    }
    nmsg++;
    s.head[q]++;
    s.scan[q] = 0;
    s.ready[q] = 0;
    lp_arm(&s, b, &hp, q, t);
    if (s.waiting[d]) lp_arm(&s, b, &hp, d, t);
  }
  if (nmsg != b->n || s.lost) { /* a program waits for data nobody sends, or the ring
                                   was too short: a bug */
    e = OC_EINVALID;
    goto out;
  }
  for (int64_t i = 0; i < P * m; i++) {
    if (s.avail[i] == INT64_MAX) {
      e = OC_EINVALID;
      goto out;
    }
    if (s.avail[i] > done && i / m != (b->src != NULL ? b->src[i % m] : b->root))
      done = s.avail[i]; /* the source's release times are not arrivals */
  }
  if (done > OC_TIME_MAX) { /* the completion, not only the send starts */
    e = OC_ERANGE;
    goto out;
  }
  *time = done;
out:
  lp_sim_free(&s);
  free(hp.e);
  return e;
}

