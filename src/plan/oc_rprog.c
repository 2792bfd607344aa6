/* oc_rprog.c - reduction programs (reduce, allreduce of an m-packet vector)
 * and the LogP simulator that times them.
 *
 * A reduction is written as a *program* per processor, as an MPI code posts
 * it: sends (destination, packet, add or copy at the receiver, after how
 * many of its own receives are done) and receives (in the order they are
 * posted; a message that arrives early waits for its turn, as an unexpected
 * MPI message does).  One simulator (oc_rprog_run) times every program
 * under the LogP rules of docs/MODEL.md, in global time order:
 *   - a send starts as early as its sender has handled the receives it
 *     waits for (and not before its earliest start, for a program with
 *     times of its own), its send gap max(g, o) has passed, its overhead [t, t+o)
 *     misses the sender's receive overheads and additions, and the
 *     receiver's receive starts stay max(g, o) apart;
 *   - a receiver handles its receives in posted order, each once it has
 *     arrived and the previous one is done: a copy at once, an addition
 *     (one time unit) at the first time it misses the processor's send and
 *     receive overheads - the rule oc_verify_vreduce applies.
 * Processing by time works because nothing at time t changes anything
 * else at t: a send at t arrives at t + L + 2o > t and its receive
 * overhead begins at t + o + L >= t + 1 (L + o >= 1 for valid parameters),
 * after every addition begun by t has ended.
 *
 * Programs come from two places: the shapes of oc_rpshape.c (the MPI
 * libraries' reduce and allreduce algorithms), and time-reversed broadcast
 * schedules (oc_mreduce.c).
 * Work: O(n) for n messages plus the sort of each time's events (a radix
 * sort), a step per time unit up to the completion (the calendar's empty
 * buckets) and the overflow heap's O(log n) for events beyond the calendar;
 * memory O(P K + n): the program, 13 bytes a message (arrival, copy flag,
 * step) and, with a schedule, 12 more and the schedule's own.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"
#include "plan/oc_theap.h"

int oc_rprog_init(oc_rprog *b, int64_t P, int64_t m) {
  memset(b, 0, sizeof *b);
  if (P < 1 || m < 1) return OC_EINVAL;
  if (P > INT32_MAX || m > INT32_MAX) return OC_ERANGE; /* (oc_rp_send's fields) */
  b->P = P;
  b->m = m;
  b->nrecv = (int64_t *)calloc((size_t)P, sizeof *b->nrecv);
  b->barrier = (int64_t *)calloc((size_t)P, sizeof *b->barrier);
  b->nsent = (int64_t *)calloc((size_t)P, sizeof *b->nsent);
  if (b->nrecv == NULL || b->barrier == NULL || b->nsent == NULL) {
    oc_rprog_free(b);
    return OC_ENOMEM;
  }
  return OC_OK;
}

void oc_rprog_free(oc_rprog *b) {
  free(b->snd);
  free(b->src_of);
  free(b->nrecv);
  free(b->nsent);
  free(b->barrier);
  free(b->soff);
  free(b->at);
  memset(b, 0, sizeof *b);
}

/* q's next sends wait for every receive it has posted so far (a dataflow
 * program: forward once everything before is in) */
void oc_rp_sync(oc_rprog *b, int64_t q) {
  if (!b->err) b->barrier[q] = b->nrecv[q];
}

/* ---- programs ---------------------------------------------------------------- */

/* q sends packet j to d, who adds it or (copy) takes it; d posts the
 * matching receive now (its program order) */
void oc_rp_xfer(oc_rprog *b, int64_t q, int64_t d, int64_t j, int copy) {
  if (b->err) return;
  if (b->ns == b->scap) {
    size_t nc = b->scap ? 2 * b->scap : 256;
    oc_rp_send *x;
    uint32_t *y;
    if (b->ns >= (size_t)UINT32_MAX - 1) { /* counts and slots are 32-bit */
      b->err = OC_ERANGE;
      return;
    }
    x = (oc_rp_send *)realloc(b->snd, nc * sizeof *x);
    if (x != NULL) b->snd = x;
    y = x == NULL ? NULL : (uint32_t *)realloc(b->src_of, nc * sizeof *y);
    if (y != NULL) b->src_of = y;
    if (x == NULL || y == NULL) {
      b->err = OC_ENOMEM;
      return;
    }
    if (b->at != NULL) {
      int64_t *a = (int64_t *)realloc(b->at, nc * sizeof *a);
      if (a == NULL) {
        b->err = OC_ENOMEM;
        return;
      }
      b->at = a;
    }
    b->scap = nc;
  }
  b->snd[b->ns].dst = (uint32_t)d;
  b->snd[b->ns].item = (uint32_t)j;
  b->snd[b->ns].need = (uint32_t)b->barrier[q];
  b->snd[b->ns].rslot = (uint32_t)b->nrecv[d]++;
  b->snd[b->ns].copy = (unsigned char)(copy != 0);
  b->snd[b->ns].rsb = 0;
  b->snd[b->ns].hist = OC_RP_NOHIST;
  b->src_of[b->ns] = (uint32_t)q;
  if (b->at != NULL) b->at[b->ns] = 0;
  b->nsent[q]++;
  b->ns++;
}

void oc_rp_at(oc_rprog *b, int64_t t) {
  if (b->err) return;
  if (b->ns == 0 || t < 0 || t > OC_TIME_MAX) {
    b->err = OC_EINVAL;
    return;
  }
  if (b->at == NULL) { /* made on the first timed send; the earlier ones at 0 */
    b->at = (int64_t *)calloc(b->scap, sizeof *b->at);
    if (b->at == NULL) {
      b->err = OC_ENOMEM;
      return;
    }
  }
  b->at[b->ns - 1] = t;
}

void oc_rp_xfer_hist(oc_rprog *b, int64_t q, int64_t d, int64_t j, int copy, int64_t need,
                     int64_t hist) {
  size_t i = b->ns;
  if (b->err) return;
  if (hist < 0 || need < 0 || need > b->nrecv[q] || hist >= (int64_t)OC_RP_NOHIST) {
    b->err = OC_EINVAL;
    return;
  }
  oc_rp_xfer(b, q, d, j, copy);
  if (b->err) return;
  b->snd[i].need = (uint32_t)need;
  b->snd[i].hist = (uint32_t)hist;
  b->has_hist = 1;
}

/* packets [lo, hi) from q to d */
void oc_rp_xfer_range(oc_rprog *b, int64_t q, int64_t d, int64_t lo, int64_t hi, int copy) {
  for (int64_t j = lo; j < hi; j++) oc_rp_xfer(b, q, d, j, copy);
}

/* the end of a step: a receiver combines what it got in the step only
 * after starting its own sends of the step (MPI's sendrecv, then the local
 * reduction), and later sends of every processor wait for all the
 * receives it has posted so far */
void oc_rp_step(oc_rprog *b) {
  if (b->err) return;
  for (size_t i = b->step0; i < b->ns; i++) b->snd[i].rsb = (uint32_t)b->nsent[b->snd[i].dst];
  b->step0 = b->ns;
  memcpy(b->barrier, b->nrecv, (size_t)b->P * sizeof *b->barrier);
}

/* Drop what the root never needs, in a reduce by a program that keeps its
 * partial results (has_hist; no steps, so no rsb): a message of packet j
 * that d handles as its h-th message of j is needed when d is the root, or
 * when d later sends a needed message of j from its value after h' >= h
 * messages of j.  One pass backwards over the sends in the order they were
 * written, which must put every send after the messages its value holds
 * (oc_rp_groups does: reduce-scatter, circulant rounds, gather).  The
 * needed messages of (d, j) are its first ones, so every hist stays
 * right; the receive slots and the counts a send waits for (need) are
 * renumbered.  A reduction by the circulant, an allreduce, so becomes a
 * reduction to the root's group.  Call before oc_rprog_finish. */
int oc_rprog_prune(oc_rprog *b, int64_t root) {
  size_t n = b->ns, w = 0;
  int64_t P = b->P, m = b->m;
  uint32_t *pos = NULL, *cnt = NULL;
  int64_t *maxh = NULL;
  size_t *roff = NULL, *fill = NULL, *pre = NULL;
  unsigned char *keep = NULL;
  int e = OC_OK;
  if (b->err || !b->has_hist || root < 0 || root >= P) return b->err;
  if (b->at != NULL) return OC_EINVAL; /* (no program needs both) */
  for (size_t i = 0; i < n; i++)
    if (b->snd[i].rsb != 0) return OC_OK; /* (steps: not this kind of program) */
  pos = (uint32_t *)malloc((n + 1) * sizeof *pos);
  cnt = (uint32_t *)calloc((size_t)(P * m), sizeof *cnt);
  maxh = (int64_t *)malloc((size_t)(P * m) * sizeof *maxh);
  keep = (unsigned char *)malloc(n + 1);
  roff = (size_t *)calloc((size_t)P + 1, sizeof *roff);
  fill = (size_t *)malloc(((size_t)P + 1) * sizeof *fill);
  pre = (size_t *)malloc((n + (size_t)P + 1) * sizeof *pre);
  if (!pos || !cnt || !maxh || !keep || !roff || !fill || !pre) {
    e = OC_ENOMEM;
    goto out;
  }
  for (size_t i = 0; i < n; i++) pos[i] = ++cnt[(int64_t)b->snd[i].dst * m + b->snd[i].item];
  for (int64_t x = 0; x < P * m; x++) maxh[x] = x / m == root ? INT64_MAX : -1;
  for (size_t i = n; i-- > 0;) {
    int64_t q = b->src_of[i], d = b->snd[i].dst, j = b->snd[i].item;
    keep[i] = d == root || (int64_t)pos[i] <= maxh[d * m + j];
    if (keep[i] && (int64_t)b->snd[i].hist > maxh[q * m + j]) maxh[q * m + j] = b->snd[i].hist;
  }
  /* pre[roff[q] + k]: kept receptions among q's first k (in posted order) */
  for (size_t i = 0; i < n; i++) roff[b->snd[i].dst + 1]++;
  for (int64_t q = 0; q < P; q++) roff[q + 1] += roff[q] + 1; /* (k = 0 .. nrecv) */
  for (int64_t q = 0; q < P; q++) {
    fill[q] = roff[q] + 1;
    pre[roff[q]] = 0;
  }
  for (size_t i = 0; i < n; i++) { /* posted order = written order */
    size_t at = fill[b->snd[i].dst]++;
    pre[at] = pre[at - 1] + keep[i];
  }
  memset(b->nrecv, 0, (size_t)P * sizeof *b->nrecv);
  memset(b->nsent, 0, (size_t)P * sizeof *b->nsent);
  for (size_t i = 0; i < n; i++) {
    oc_rp_send x = b->snd[i];
    uint32_t q = b->src_of[i];
    if (!keep[i]) continue;
    x.need = (uint32_t)pre[roff[q] + x.need];
    x.rslot = (uint32_t)b->nrecv[x.dst]++;
    b->nsent[q]++;
    b->snd[w] = x;
    b->src_of[w++] = q;
  }
  b->ns = w;
  b->step0 = w;
  memcpy(b->barrier, b->nrecv, (size_t)P * sizeof *b->barrier);
out:
  free(pos);
  free(cnt);
  free(maxh);
  free(keep);
  free(roff);
  free(fill);
  free(pre);
  return e;
}

/* group the sends by sender, keeping each sender's order */
int oc_rprog_finish(oc_rprog *b) {
  oc_rp_send *g;
  size_t *at;
  int64_t *ga = NULL;
  if (b->err) return b->err;
  if (b->has_hist)
    for (size_t i = 0; i < b->ns; i++)
      if (b->snd[i].hist == OC_RP_NOHIST) return OC_EINVAL; /* every send must say */
  b->soff = (size_t *)calloc((size_t)b->P + 1, sizeof *b->soff);
  g = (oc_rp_send *)malloc((b->ns + 1) * sizeof *g);
  at = (size_t *)malloc(((size_t)b->P + 1) * sizeof *at);
  if (b->at != NULL) ga = (int64_t *)malloc((b->ns + 1) * sizeof *ga);
  if (b->soff == NULL || g == NULL || at == NULL || (b->at != NULL && ga == NULL)) {
    free(g);
    free(at);
    free(ga);
    return OC_ENOMEM;
  }
  for (size_t i = 0; i < b->ns; i++) b->soff[b->src_of[i] + 1]++;
  for (int64_t q = 0; q < b->P; q++) b->soff[q + 1] += b->soff[q];
  memcpy(at, b->soff, ((size_t)b->P + 1) * sizeof *at);
  for (size_t i = 0; i < b->ns; i++) {
    size_t k = at[b->src_of[i]]++;
    g[k] = b->snd[i];
    if (ga != NULL) ga[k] = b->at[i];
  }
  if (ga != NULL) {
    free(b->at);
    b->at = ga;
  }
  free(b->snd);
  free(at);
  free(b->src_of); /* (the senders are soff's now) */
  b->src_of = NULL;
  b->snd = g;
  return OC_OK;
}

/* ---- the simulator -------------------------------------------------------------- */
/* The event queue: (time, processor) pairs popped in increasing time, and
 * at one time in increasing processor (the order the binary heap of
 * oc_theap.h gives; the simulation depends on it).  A calendar: W buckets
 * for the times [base, base + W), one a time unit, and an overflow heap for
 * later ones; the events of one time are taken out together (a batch) and
 * sorted by processor.  Most pushes land a few units ahead (a message's
 * arrival, a processor's next free time), so a push and a pop cost O(1)
 * plus the batch's sort, against O(log n) cache-missing levels of a heap
 * (about 45% of oc_rprog_run's time at 2^22 messages before). */
typedef struct rp_bucket {
  uint32_t *v;
  size_t n, cap;
} rp_bucket;

typedef struct rp_queue {
  rp_bucket *bk;       /* W buckets: time t in bk[t & (W - 1)]          */
  size_t W, inwheel;   /* a power of two; events in the buckets         */
  int64_t base;        /* the buckets hold [base, base + W)             */
  oc_hent *ov;         /* the heap of later events                      */
  size_t ovn, ovcap;
  uint32_t *cur, *tmp; /* the batch of time curt, sorted; from curi on   */
  size_t curn, curi, curcap;
  int64_t curt;
} rp_queue;

static int bk_add(rp_bucket *b, uint32_t q) {
  if (b->n == b->cap) {
    size_t nc = b->cap ? 2 * b->cap : 8;
    uint32_t *v = (uint32_t *)realloc(b->v, nc * sizeof *v);
    if (v == NULL) return OC_ENOMEM;
    b->v = v;
    b->cap = nc;
  }
  b->v[b->n++] = q;
  return OC_OK;
}

static int rq_init(rp_queue *h, int64_t span, int64_t most) {
  memset(h, 0, sizeof *h);
  h->W = 1;
  if (most < 1) most = (int64_t)1 << 16;
  while ((int64_t)h->W < span && (int64_t)h->W < most && (int64_t)h->W < ((int64_t)1 << 30))
    h->W <<= 1;
  h->bk = (rp_bucket *)calloc(h->W, sizeof *h->bk);
  h->curt = -1;
  return h->bk == NULL ? OC_ENOMEM : OC_OK;
}

static void rq_free(rp_queue *h) {
  for (size_t i = 0; h->bk != NULL && i < h->W; i++) free(h->bk[i].v);
  free(h->bk);
  free(h->ov);
  free(h->cur);
  free(h->tmp);
  memset(h, 0, sizeof *h);
}

static int rq_grow_cur(rp_queue *h, size_t n) {
  if (n <= h->curcap) return OC_OK;
  {
    size_t nc = h->curcap ? h->curcap : 64;
    uint32_t *a, *b;
    while (nc < n) nc *= 2;
    a = (uint32_t *)realloc(h->cur, nc * sizeof *a);
    if (a != NULL) h->cur = a;
    b = a == NULL ? NULL : (uint32_t *)realloc(h->tmp, nc * sizeof *b);
    if (b != NULL) h->tmp = b;
    if (a == NULL || b == NULL) return OC_ENOMEM;
    h->curcap = nc;
  }
  return OC_OK;
}

static int hpush(rp_queue *h, int64_t key, int64_t proc) {
  uint32_t q = (uint32_t)proc;
  if (key <= h->curt) { /* (at the batch's own time: into its rest, in order) */
    size_t i = h->curn;
    int e = rq_grow_cur(h, h->curn + 1);
    if (e != OC_OK) return e;
    while (i > h->curi && h->cur[i - 1] > q) {
      h->cur[i] = h->cur[i - 1];
      i--;
    }
    h->cur[i] = q;
    h->curn++;
    return OC_OK;
  }
  if (key < h->base + (int64_t)h->W) {
    h->inwheel++;
    return bk_add(&h->bk[(size_t)key & (h->W - 1)], q);
  }
  if (h->ovn == h->ovcap) {
    size_t nc = h->ovcap ? 2 * h->ovcap : 1024;
    oc_hent *k = (oc_hent *)realloc(h->ov, nc * sizeof *k);
    if (k == NULL) return OC_ENOMEM;
    h->ov = k;
    h->ovcap = nc;
  }
  h->ovn = oc_theap_push(h->ov, h->ovn, key, proc);
  return OC_OK;
}

/* sort a[0..n) (processors, < 2^32) by an LSD radix sort, 8 bits a pass,
 * through tmp; insertion sort when short */
static void rq_sort(uint32_t *a, uint32_t *tmp, size_t n, uint32_t top) {
  uint32_t *src = a, *dst = tmp;
  if (n < 48) {
    for (size_t i = 1; i < n; i++) {
      uint32_t x = a[i];
      size_t j = i;
      while (j > 0 && a[j - 1] > x) {
        a[j] = a[j - 1];
        j--;
      }
      a[j] = x;
    }
    return;
  }
  for (int sh = 0; sh < 32 && (top >> sh) != 0; sh += 8) {
    size_t cnt[257] = {0};
    uint32_t *x;
    for (size_t i = 0; i < n; i++) cnt[((src[i] >> sh) & 255) + 1]++;
    for (int k = 0; k < 256; k++) cnt[k + 1] += cnt[k];
    for (size_t i = 0; i < n; i++) dst[cnt[(src[i] >> sh) & 255]++] = src[i];
    x = src;
    src = dst;
    dst = x;
  }
  if (src != a) memcpy(a, src, n * sizeof *a);
}

/* the next event: 1 and (*t, *q), or 0 when none is left */
static int rq_pop(rp_queue *h, uint32_t top, int64_t *t, int64_t *q) {
  while (h->curi == h->curn) { /* the next time's batch */
    int64_t next = -1;
    size_t n;
    rp_bucket *b;
    if (h->inwheel > 0) {
      while (h->bk[(size_t)h->base & (h->W - 1)].n == 0) h->base++;
      next = h->base;
    }
    if (h->ovn > 0 && (next < 0 || h->ov[0].key < next)) next = h->ov[0].key;
    if (next < 0) return 0;
    h->base = next; /* (the wheel's events are all at next or later) */
    while (h->ovn > 0 && h->ov[0].key < h->base + (int64_t)h->W) { /* now in range */
      if (bk_add(&h->bk[(size_t)h->ov[0].key & (h->W - 1)], (uint32_t)h->ov[0].proc) != OC_OK)
        return -1;
      h->inwheel++;
      h->ovn = oc_theap_pop(h->ov, h->ovn);
    }
    b = &h->bk[(size_t)next & (h->W - 1)]; /* (not empty) */
    if (rq_grow_cur(h, b->n) != OC_OK) return -1;
    memcpy(h->cur, b->v, b->n * sizeof *b->v);
    n = b->n;
    h->inwheel -= n;
    b->n = 0;
    rq_sort(h->cur, h->tmp, n, top);
    h->curn = n;
    h->curi = 0;
    h->curt = next;
  }
  *t = h->curt;
  *q = h->cur[h->curi++];
  return 1;
}

typedef struct rp_proc {
  size_t next_send;    /* index into its sends                         */
  int64_t send_free;   /* earliest next send start                     */
  int64_t recv_free;   /* earliest next receive-overhead start         */
  int64_t busy_until;  /* end of its addition in progress              */
  int64_t handled;     /* receives done (additions ended, copies)      */
  int64_t head;        /* next receive to handle                       */
  int64_t last_send;   /* start of its last send overhead              */
  int64_t done;        /* when its last handled receive was done     */
  int64_t last_run;    /* the last time rp_step ran for it (a run does
                          all it can, so a second at the same time is
                          skipped: duplicates would multiply)          */
} rp_proc;

typedef struct rp_sim {
  const oc_params *p;
  const oc_rprog *b;
  rp_proc *pr;
  int64_t G;
  int64_t *arr;        /* per receive slot (roff[q] + k): arrival, or -1 */
  unsigned char *rcopy; /* ... copy flag                               */
  uint32_t *rsb;       /* ... the receiver's sends to start first      */
  uint32_t *rmsg;      /* ... the message (index in out; < 2^32 sends) */
  int64_t *sst;        /* send starts, by processor (soff)             */
                       /* (rmsg, sst: only with out, for not_before)   */
  int64_t *ovh;        /* receive-overhead starts per processor, sorted
                          (by roff), or (K > 0) each one's last K at
                          ovh[q K + (i & (K - 1))]                      */
  size_t *roff, *nov;  /* slots by processor; overheads committed      */
  size_t K;            /* a power of two, or 0                         */
  int lost;            /* an overhead sought fell off the ring         */
  rp_queue h;
  oc_sched *out;       /* with its columns copy, seq, not_before; NULL:
                          the time only                                */
  size_t sent;         /* messages committed                           */
} rp_sim;

/* the first of q's receive overheads [r, r + o) that meets [t, t + len),
 * or -1.  Ring (K > 0): it is asked for t >= now (a send or an addition of
 * q about to start), so the overheads sought end after now, r > now - o;
 * the committed ones start by now + o + L, G = max(g, o) apart or more
 * (the receiver's receive starts); at most (L + 2o) / G + 1 of them
 * qualify, and the last K > (L + 2o) / G + 1 hold the first of them. */
static int64_t ovh_hit(rp_sim *s, int64_t q, int64_t t, int64_t len) {
  const int64_t *a = s->ovh + s->roff[q];
  size_t lo = 0, hi = s->nov[q];
  int64_t o = s->p->o;
  if (o == 0 || len == 0) return -1;
  if (s->K > 0) {
    size_t n = hi, k = n < s->K ? n : s->K, j = 0;
    int64_t r;
    a = s->ovh + (size_t)q * s->K;
    while (j < k && a[(n - 1 - j) & (s->K - 1)] + o > t) j++; /* from the newest back */
    if (j == 0) return -1;
    if (j == k && n > s->K) {
      s->lost = 1; /* (never, by the above: a bug) */
      return -1;
    }
    r = a[(n - j) & (s->K - 1)]; /* the oldest that ends after t */
    return r < t + len ? r : -1;
  }
  /* committed in time order: the one sought is almost always among the last */
  while (hi > 0 && s->nov[q] - hi < 4 && a[hi - 1] + o > t) hi--;
  if (hi > 0 && a[hi - 1] + o > t) {
    while (lo < hi) { /* first r with r + o > t */
      size_t mid = lo + (hi - lo) / 2;
      if (a[mid] + o <= t) lo = mid + 1; else hi = mid;
    }
  }
  return (hi < s->nov[q] && a[hi] < t + len) ? a[hi] : -1; /* hi: the first r with r + o > t */
}

static int emit(rp_sim *s, int64_t t, int64_t q, const oc_rp_send *x) {
  int e;
  if (s->out == NULL) return OC_OK;
  if ((e = oc_sched_push(s->out, t, q, x->dst, x->item)) != OC_OK) return e;
  s->out->copy[s->out->n - 1] = (unsigned char)x->copy;
  s->out->seq[s->out->n - 1] = (uint32_t)x->rslot;
  if (s->b->has_hist) s->out->hist[s->out->n - 1] = (uint32_t)x->hist;
  return OC_OK;
}

/* Everything q can do at time t; pushes the next times worth a look. */
static int rp_step(rp_sim *s, int64_t q, int64_t t) {
  const oc_params *p = s->p;
  rp_proc *r = &s->pr[q];
  int progress = 1, e;
  while (progress) {
    progress = 0;
    /* an addition that has ended */
    if (r->busy_until > 0 && r->busy_until <= t && r->handled < r->head) {
      r->handled = r->head;
      progress = 1;
    }
    /* the next send */
    if (r->next_send < s->b->soff[q + 1] - s->b->soff[q]) {
      const oc_rp_send *x = &s->b->snd[s->b->soff[q] + r->next_send];
      rp_proc *d = &s->pr[x->dst];
      if (r->handled >= x->need) {
        int64_t t0 = t, hit;
        if (s->b->at != NULL) t0 = oc_max64(t0, s->b->at[s->b->soff[q] + r->next_send]);
        if (t0 < r->send_free) t0 = r->send_free;
        if (p->o > 0 && t0 < r->busy_until) t0 = r->busy_until;
        if (t0 + p->o + p->L < d->recv_free) t0 = d->recv_free - p->o - p->L;
        hit = ovh_hit(s, q, t0, p->o);
        if (hit >= 0) t0 = hit + p->o;
        if (t0 > OC_TIME_MAX) return OC_ERANGE;
        if (t0 > t) {
          if ((e = hpush(&s->h, t0, q)) != OC_OK) return e;
        } else { /* commit at t */
          int64_t rs = t + p->o + p->L, slot = (int64_t)s->roff[x->dst] + x->rslot;
          if ((e = emit(s, t, q, x)) != OC_OK) return e;
          if (s->K > 0)
            s->ovh[(size_t)x->dst * s->K + (s->nov[x->dst]++ & (s->K - 1))] = rs;
          else
            s->ovh[s->roff[x->dst] + s->nov[x->dst]++] = rs;
          d->recv_free = rs + s->G;
          r->send_free = t + s->G;
          r->last_send = t;
          s->arr[slot] = t + p->L + 2 * p->o;
          s->rcopy[slot] = x->copy;
          s->rsb[slot] = x->rsb;
          if (s->out != NULL) {
            s->rmsg[slot] = (uint32_t)(s->out->n - 1);
            s->sst[s->b->soff[q] + r->next_send] = t;
          }
          s->sent++;
          r->next_send++;
          if ((e = hpush(&s->h, s->arr[slot], x->dst)) != OC_OK) return e;
          /* (no wake-up at send_free: the loop goes on, and the next send,
           * if its data is in, pushes its own start) */
          progress = 1;
          continue;
        }
      }
    }
    /* the next receive, when q is not adding */
    if (r->handled == r->head && r->head < (int64_t)(s->roff[q + 1] - s->roff[q])) {
      int64_t slot = (int64_t)s->roff[q] + r->head;
      if (s->arr[slot] >= 0 && s->arr[slot] <= t && (int64_t)r->next_send >= s->rsb[slot]) {
        /* its own sends of the step have started: from the last one on */
        if (s->out != NULL)
          s->out->not_before[s->rmsg[slot]] =
              s->rsb[slot] > 0 ? s->sst[s->b->soff[q] + (size_t)s->rsb[slot] - 1] : 0;
        if (s->rcopy[slot]) {
          r->head++;
          r->handled++;
          r->done = t;
          progress = 1;
        } else {
          int64_t t0 = t, hit;
          if (p->o > 0 && r->last_send >= 0 && r->last_send + p->o > t0)
            t0 = r->last_send + p->o;
          hit = ovh_hit(s, q, t0, p->unit);
          if (hit >= 0) t0 = hit + p->o;
          if (t0 > t) {
            if ((e = hpush(&s->h, t0, q)) != OC_OK) return e;
          } else {
            r->head++;
            r->busy_until = t + p->unit;
            r->done = r->busy_until;
            if ((e = hpush(&s->h, r->busy_until, q)) != OC_OK) return e;
          }
        }
      }
    }
  }
  return OC_OK;
}

int oc_rprog_run(const oc_params *p, const oc_rprog *b, int64_t root, oc_sched *out,
                 int64_t *time) {
  rp_sim s;
  int64_t P = b->P;
  int e = OC_OK;
  memset(&s, 0, sizeof s);
  s.p = p;
  s.b = b;
  s.out = out;
  s.G = p->g > p->o ? p->g : p->o;
  s.pr = (rp_proc *)calloc((size_t)P, sizeof *s.pr);
  s.roff = (size_t *)calloc((size_t)P + 1, sizeof *s.roff);
  s.nov = (size_t *)calloc((size_t)P, sizeof *s.nov);
  s.arr = (int64_t *)malloc((b->ns + 1) * sizeof *s.arr);
  s.rcopy = (unsigned char *)calloc(b->ns + 1, sizeof *s.rcopy);
  s.rsb = (uint32_t *)calloc(b->ns + 1, sizeof *s.rsb);
  if (out != NULL) {
    s.rmsg = (uint32_t *)calloc(b->ns + 1, sizeof *s.rmsg);
    s.sst = (int64_t *)calloc(b->ns + 1, sizeof *s.sst);
  }
  /* the ring, when smaller than every overhead (ovh_hit; o = 0: never read) */
  s.K = oc_ring_size(p->o > 0 ? (p->L + 2 * p->o) / s.G + 2 : 1, P, b->ns);
  s.ovh = (int64_t *)malloc((s.K > 0 ? (size_t)P * s.K : b->ns + 1) * sizeof *s.ovh);
  if (!s.pr || !s.roff || !s.nov || !s.arr || !s.rcopy || !s.rsb ||
      (out != NULL && (!s.rmsg || !s.sst)) || !s.ovh ||
      rq_init(&s.h, oc_max64(64, 4 * (p->L + 2 * p->o + s.G + p->unit)), b->calendar) != OC_OK) {
    e = OC_ENOMEM;
    goto done;
  }
  if (out != NULL && (oc_sched_add_col(out, OC_COL_COPY) != OC_OK ||
                      oc_sched_add_col(out, OC_COL_SEQ) != OC_OK ||
                      oc_sched_add_col(out, OC_COL_NOT_BEFORE) != OC_OK ||
                      (b->has_hist && oc_sched_add_col(out, OC_COL_HIST) != OC_OK) ||
                      oc_sched_reserve(out, b->ns) != OC_OK)) { /* (one allocation, no slack) */
    e = OC_ENOMEM;
    goto done;
  }
  for (int64_t q = 0; q < P; q++) s.roff[q + 1] = s.roff[q] + (size_t)b->nrecv[q];
  for (size_t i = 0; i <= b->ns; i++) s.arr[i] = -1;
  for (int64_t q = 0; q < P; q++) {
    s.pr[q].recv_free = INT64_MIN / 4;
    s.pr[q].last_send = -1;
    s.pr[q].last_run = -1;
    if ((e = hpush(&s.h, 0, q)) != OC_OK) goto done;
  }
  for (;;) {
    int64_t t, q;
    int got = rq_pop(&s.h, (uint32_t)(P - 1), &t, &q);
    if (got < 0) {
      e = OC_ENOMEM;
      goto done;
    }
    if (got == 0) break;
    if (s.pr[q].last_run == t) continue;
    s.pr[q].last_run = t;
    if ((e = rp_step(&s, q, t)) != OC_OK) goto done;
  }
  if (s.sent != b->ns || s.lost) { /* a program waits for a receive nobody sends, or the
                                      ring was too short: a bug */
    e = OC_EINVALID;
    goto done;
  }
  for (int64_t q = 0; q < P; q++)
    if (s.pr[q].handled != b->nrecv[q]) {
      e = OC_EINVALID;
      goto done;
    }
  if (time != NULL) { /* the root's last handling, or everyone's (root -1) */
    *time = 0;
    for (int64_t q = 0; q < P; q++)
      if ((root < 0 || q == root) && s.pr[q].done > *time) *time = s.pr[q].done;
  }
done:
  free(s.pr);
  free(s.roff);
  free(s.nov);
  free(s.arr);
  free(s.rcopy);
  free(s.rsb);
  free(s.rmsg);
  free(s.sst);
  free(s.ovh);
  rq_free(&s.h);
  return e;
}
