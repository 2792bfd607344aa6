/* oc_libred.c - the allreduce algorithms of the MPI libraries (Open MPI's
 * coll/base, MPICH's allreduce directory) as LogP schedules of an m-packet
 * vector, for `optcast compare allreduce`; and the two libraries' default
 * selection rules.  Every schedule is checked by oc_verify_vreduce.
 *
 * An algorithm is written as a *program* per processor, as the library
 * posts it: sends (destination, packet, add or copy at the receiver, after
 * how many of its own receives are done) and receives (in the order they
 * are posted; a message that arrives early waits for its turn, as an
 * unexpected MPI message does).  One simulator (lr_run) times all programs
 * under the LogP rules in global time order:
 *   - a send starts as early as its sender has handled the receives it
 *     waits for, its send gap max(g, o) has passed, its overhead [t, t+o)
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
 * Algorithms (P processors, m packets, h = L + 2o, G = max(g, o), one
 * unit per addition; pof2 = the largest power of two <= P, rem = P - pof2):
 *   recursive-doubling  MPICH MPIR_Allreduce_intra_recursive_doubling,
 *       Open MPI allreduce_intra_recursivedoubling: ranks below 2 rem fold
 *       pairwise (even into odd), log2 pof2 exchanges of the whole vector,
 *       the odd ranks copy the result back: about
 *       (log2 pof2 + 2 [rem > 0]) (h + (m-1) G + m)
 *   ring  Open MPI allreduce_intra_ring: P chunks; P - 1 steps of
 *       reduce-scatter (send chunk q - k to q + 1, add the one from q - 1),
 *       P - 1 steps of allgather (copies): about
 *       2 (P-1) (h + (m/P - 1) G) + (P-1) m/P
 *   rabenseifner  MPICH MPIR_Allreduce_intra_reduce_scatter_allgather,
 *       Open MPI allreduce_intra_redscat_allgather (Rabenseifner 2004; Thakur,
 *       Rabenseifner & Gropp 2005): the same fold, pof2 chunks, recursive
 *       halving (reduce-scatter) then recursive doubling (allgather): about
 *       2 log2 pof2 h + 2 (pof2-1)/pof2 m G + (pof2-1)/pof2 m
 *   reduce-bcast  Open MPI allreduce_intra_nonoverlapping: a reduction to
 *       rank 0, then a broadcast; modelled with the binomial tree both ways
 *       (Open MPI runs its own reduce and bcast selections there)
 *   linear  Open MPI allreduce_intra_basic_linear: every rank sends its
 *       vector to rank 0, which adds them in rank order and sends the result
 *       to every rank
 * Work: O(n log n) for n messages, memory O(P + n).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/oc_core.h"


static const char *const LR_NAMES[OC_LR_COUNT] = {"recursive-doubling", "ring",
                                                  "rabenseifner", "reduce-bcast", "linear"};

const char *oc_libred_alg_name(oc_libred_alg a) {
  return (a >= 0 && a < OC_LR_COUNT) ? LR_NAMES[a] : "?";
}

/* messages of the schedule, saturating: recursive doubling sends the whole
 * vector log2 pof2 times (plus the fold); the others about 2 (P-1) m.
 * linear counts P times more: its P - 1 senders all wait for the one
 * receiver, and each of its slots is fought over (simulation work).  The
 * ring's program takes 2 (P-1) steps of P processors whatever m is (empty
 * chunks included), so it counts at least P^2 / 4 (building work). */
int64_t oc_libred_messages(int64_t P, int64_t m, oc_libred_alg a) {
  int64_t lg = 0, pm;
  if (P < 1 || m < 1) return 0;
  while (((int64_t)2 << lg) <= P) lg++;
  pm = oc_mul_sat(P, m);
  if (a == OC_LR_RD) return oc_mul_sat(pm, lg + 2);
  if (a == OC_LR_LINEAR) return oc_mul_sat(oc_mul_sat(pm, 2), P / 64 + 1);
  if (a == OC_LR_RING) return oc_max64(oc_mul_sat(pm, 2), oc_mul_sat(P, P) / 4);
  return oc_mul_sat(pm, 2);
}

/* ---- programs ---------------------------------------------------------------- */
typedef struct lr_send {
  int64_t dst, item;
  int64_t need;   /* receives of the sender handled before it may start */
  int64_t rslot;  /* index of the matching receive at dst (in dst's list) */
  int64_t rsb;    /* sends dst starts before it handles this one        */
  int copy;
} lr_send;

typedef struct lr_prog {
  int64_t P, m;
  lr_send *snd;            /* all sends, grouped by sender after lr_finish */
  size_t ns, scap;
  int64_t *src_of;         /* sender of each send, while building */
  int64_t *nrecv;          /* receives posted so far, per processor */
  int64_t *nsent;          /* sends posted so far, per processor */
  int64_t *barrier;        /* receives a processor's next sends wait for */
  size_t step0;            /* first send of the current step */
  size_t *soff;            /* soff[q] .. soff[q+1]: q's sends in order */
  int err;
} lr_prog;

/* q sends packet j to d, who adds it or (copy) takes it; d posts the
 * matching receive now (its program order) */
static void xfer(lr_prog *b, int64_t q, int64_t d, int64_t j, int copy) {
  if (b->err) return;
  if (b->ns == b->scap) {
    size_t nc = b->scap ? 2 * b->scap : 256;
    lr_send *x = (lr_send *)realloc(b->snd, nc * sizeof *x);
    int64_t *y = (int64_t *)realloc(b->src_of, nc * sizeof *y);
    if (x != NULL) b->snd = x;
    if (y != NULL) b->src_of = y;
    if (x == NULL || y == NULL) {
      b->err = OC_ENOMEM;
      return;
    }
    b->scap = nc;
  }
  b->snd[b->ns].dst = d;
  b->snd[b->ns].item = j;
  b->snd[b->ns].need = b->barrier[q];
  b->snd[b->ns].rslot = b->nrecv[d]++;
  b->snd[b->ns].copy = copy;
  b->snd[b->ns].rsb = 0;
  b->src_of[b->ns] = q;
  b->nsent[q]++;
  b->ns++;
}

/* packets [lo, hi) from q to d */
static void xfer_range(lr_prog *b, int64_t q, int64_t d, int64_t lo, int64_t hi, int copy) {
  for (int64_t j = lo; j < hi; j++) xfer(b, q, d, j, copy);
}

/* the end of a step: a receiver combines what it got in the step only
 * after starting its own sends of the step (MPI's sendrecv, then the local
 * reduction), and later sends of every processor wait for all the
 * receives it has posted so far */
static void step(lr_prog *b) {
  if (b->err) return;
  for (size_t i = b->step0; i < b->ns; i++) b->snd[i].rsb = b->nsent[b->snd[i].dst];
  b->step0 = b->ns;
  memcpy(b->barrier, b->nrecv, (size_t)b->P * sizeof *b->barrier);
}

/* first packet of chunk c when m packets are cut into n chunks (the first
 * m mod n one packet longer) */
static int64_t chunk_lo(int64_t m, int64_t n, int64_t c) {
  int64_t base = m / n, extra = m % n;
  return c * base + (c < extra ? c : extra);
}

/* the fold of the ranks below 2 rem (even into odd) and its inverse; new
 * rank of r, or -1 for the even ones that sit out */
static int64_t newrank(int64_t r, int64_t rem) {
  if (r < 2 * rem) return (r & 1) ? r / 2 : -1;
  return r - rem;
}
static int64_t oldrank(int64_t nr, int64_t rem) {
  return nr < rem ? 2 * nr + 1 : nr + rem;
}

static void fold_in(lr_prog *b, int64_t rem) {
  for (int64_t r = 0; r < 2 * rem; r += 2) xfer_range(b, r, r + 1, 0, b->m, 0);
  step(b);
}
static void fold_out(lr_prog *b, int64_t rem) {
  for (int64_t r = 0; r < 2 * rem; r += 2) xfer_range(b, r + 1, r, 0, b->m, 1);
  step(b);
}

static void prog_rd(lr_prog *b) {
  int64_t pof2 = 1, rem;
  while (2 * pof2 <= b->P) pof2 *= 2;
  rem = b->P - pof2;
  fold_in(b, rem);
  for (int64_t mask = 1; mask < pof2; mask *= 2) {
    for (int64_t r = 0; r < b->P; r++) {
      int64_t nr = newrank(r, rem);
      if (nr >= 0) xfer_range(b, r, oldrank(nr ^ mask, rem), 0, b->m, 0);
    }
    step(b);
  }
  fold_out(b, rem);
}

static void prog_ring(lr_prog *b) {
  int64_t P = b->P;
  for (int64_t k = 0; k < P - 1; k++) { /* reduce-scatter */
    for (int64_t q = 0; q < P; q++) {
      int64_t c = ((q - k) % P + P) % P;
      xfer_range(b, q, (q + 1) % P, chunk_lo(b->m, P, c), chunk_lo(b->m, P, c + 1), 0);
    }
    step(b);
  }
  for (int64_t k = 0; k < P - 1; k++) { /* allgather: q holds chunk q + 1 */
    for (int64_t q = 0; q < P; q++) {
      int64_t c = ((q + 1 - k) % P + P) % P;
      xfer_range(b, q, (q + 1) % P, chunk_lo(b->m, P, c), chunk_lo(b->m, P, c + 1), 1);
    }
    step(b);
  }
}

/* chunks [lo, hi) of pof2 as packets */
static void xfer_chunks(lr_prog *b, int64_t q, int64_t d, int64_t pof2, int64_t lo,
                        int64_t hi, int copy) {
  xfer_range(b, q, d, chunk_lo(b->m, pof2, lo), chunk_lo(b->m, pof2, hi), copy);
}

static void prog_raben(lr_prog *b) {
  int64_t pof2 = 1, rem, steps = 0;
  int64_t *lo, *hi; /* per new rank: the chunks it is responsible for */
  while (2 * pof2 <= b->P) { pof2 *= 2; steps++; }
  rem = b->P - pof2;
  lo = (int64_t *)calloc((size_t)(pof2 * (steps + 1)), sizeof *lo);
  hi = (int64_t *)calloc((size_t)(pof2 * (steps + 1)), sizeof *hi);
  if (lo == NULL || hi == NULL) {
    free(lo);
    free(hi);
    b->err = OC_ENOMEM;
    return;
  }
  fold_in(b, rem);
  for (int64_t nr = 0; nr < pof2; nr++) hi[nr] = pof2;
  /* recursive halving: at level s (mask 2^s) partners share a range; the
     one with bit s clear keeps the lower half */
  for (int64_t s = 0, mask = 1; mask < pof2; s++, mask *= 2) {
    for (int64_t nr = 0; nr < pof2; nr++) {
      int64_t a = lo[s * pof2 + nr], e = hi[s * pof2 + nr], mid = a + (e - a) / 2;
      int64_t keep_lo = (nr & mask) ? mid : a, keep_hi = (nr & mask) ? e : mid;
      lo[(s + 1) * pof2 + nr] = keep_lo;
      hi[(s + 1) * pof2 + nr] = keep_hi;
      if (nr & mask) xfer_chunks(b, oldrank(nr, rem), oldrank(nr ^ mask, rem), pof2, a, mid, 0);
      else xfer_chunks(b, oldrank(nr, rem), oldrank(nr ^ mask, rem), pof2, mid, e, 0);
    }
    step(b);
  }
  /* recursive doubling back up: send what is finished, copy the partner's */
  for (int64_t s = steps, mask = pof2 / 2; mask >= 1; s--, mask /= 2) {
    for (int64_t nr = 0; nr < pof2; nr++)
      xfer_chunks(b, oldrank(nr, rem), oldrank(nr ^ mask, rem), pof2, lo[s * pof2 + nr],
                  hi[s * pof2 + nr], 1);
    step(b);
  }
  fold_out(b, rem);
  free(lo);
  free(hi);
}

/* binomial reduction to 0 (v sends to v - lowbit(v) once its subtree is
 * in), then the binomial broadcast back */
static void prog_redbcast(lr_prog *b) {
  int64_t top = 1;
  for (int64_t mask = 1; mask < b->P; mask *= 2) {
    for (int64_t v = mask; v < b->P; v += 2 * mask) xfer_range(b, v, v - mask, 0, b->m, 0);
    step(b);
    top = mask;
  }
  for (int64_t mask = top; mask >= 1 && b->P > 1; mask /= 2) {
    for (int64_t v = 0; v + mask < b->P; v += 2 * mask) xfer_range(b, v, v + mask, 0, b->m, 1);
    step(b);
  }
}

static void prog_linear(lr_prog *b) {
  for (int64_t q = 1; q < b->P; q++) xfer_range(b, q, 0, 0, b->m, 0);
  step(b);
  for (int64_t q = 1; q < b->P; q++) xfer_range(b, 0, q, 0, b->m, 1);
}

/* group the sends by sender, keeping each sender's order */
static int lr_finish(lr_prog *b) {
  lr_send *g;
  size_t *at;
  if (b->err) return b->err;
  b->soff = (size_t *)calloc((size_t)b->P + 1, sizeof *b->soff);
  g = (lr_send *)malloc((b->ns + 1) * sizeof *g);
  at = (size_t *)malloc(((size_t)b->P + 1) * sizeof *at);
  if (b->soff == NULL || g == NULL || at == NULL) {
    free(g);
    free(at);
    return OC_ENOMEM;
  }
  for (size_t i = 0; i < b->ns; i++) b->soff[b->src_of[i] + 1]++;
  for (int64_t q = 0; q < b->P; q++) b->soff[q + 1] += b->soff[q];
  memcpy(at, b->soff, ((size_t)b->P + 1) * sizeof *at);
  for (size_t i = 0; i < b->ns; i++) g[at[b->src_of[i]]++] = b->snd[i];
  free(b->snd);
  free(at);
  b->snd = g;
  return OC_OK;
}

/* ---- the simulator -------------------------------------------------------------- */
typedef struct lr_heap {
  int64_t *key, *proc;
  size_t n, cap;
} lr_heap;

static int hless(const lr_heap *h, size_t a, size_t b) {
  return h->key[a] < h->key[b] || (h->key[a] == h->key[b] && h->proc[a] < h->proc[b]);
}
static void hswap(lr_heap *h, size_t a, size_t b) {
  int64_t k = h->key[a], p = h->proc[a];
  h->key[a] = h->key[b];
  h->proc[a] = h->proc[b];
  h->key[b] = k;
  h->proc[b] = p;
}
static int hpush(lr_heap *h, int64_t key, int64_t proc) {
  size_t i;
  if (h->n == h->cap) {
    size_t nc = h->cap ? 2 * h->cap : 1024;
    int64_t *k = (int64_t *)realloc(h->key, nc * sizeof *k);
    int64_t *p = (int64_t *)realloc(h->proc, nc * sizeof *p);
    if (k != NULL) h->key = k;
    if (p != NULL) h->proc = p;
    if (k == NULL || p == NULL) return OC_ENOMEM;
    h->cap = nc;
  }
  i = h->n++;
  h->key[i] = key;
  h->proc[i] = proc;
  while (i > 0 && hless(h, i, (i - 1) / 2)) {
    hswap(h, i, (i - 1) / 2);
    i = (i - 1) / 2;
  }
  return OC_OK;
}
static void hpop(lr_heap *h) {
  size_t i = 0;
  h->key[0] = h->key[--h->n];
  h->proc[0] = h->proc[h->n];
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, s = i;
    if (l < h->n && hless(h, l, s)) s = l;
    if (r < h->n && hless(h, r, s)) s = r;
    if (s == i) break;
    hswap(h, i, s);
    i = s;
  }
}

typedef struct lr_proc {
  size_t next_send;    /* index into its sends                         */
  int64_t send_free;   /* earliest next send start                     */
  int64_t recv_free;   /* earliest next receive-overhead start         */
  int64_t busy_until;  /* end of its addition in progress              */
  int64_t handled;     /* receives done (additions ended, copies)      */
  int64_t head;        /* next receive to handle                       */
  int64_t last_send;   /* start of its last send overhead              */
  int64_t last_run;    /* the last time lr_step ran for it (a run does
                          all it can, so a second at the same time is
                          skipped: duplicates would multiply)          */
} lr_proc;

typedef struct lr_sim {
  const oc_params *p;
  const lr_prog *b;
  lr_proc *pr;
  int64_t G;
  int64_t *arr;        /* per receive slot (roff[q] + k): arrival, or -1 */
  int64_t *rcopy;      /* ... copy flag                                */
  int64_t *rsb;        /* ... the receiver's sends to start first      */
  int64_t *rmsg;       /* ... the message (index in out)               */
  int64_t *sst;        /* send starts, by processor (soff)             */
  int64_t *ovh;        /* receive-overhead starts per processor, sorted */
  size_t *roff, *nov;  /* slots by processor; overheads committed      */
  lr_heap h;
  oc_sched *out;       /* with its columns copy, seq, not_before     */
} lr_sim;

/* the first of q's receive overheads [r, r + o) that meets [t, t + len),
 * or -1 */
static int64_t ovh_hit(const lr_sim *s, int64_t q, int64_t t, int64_t len) {
  const int64_t *a = s->ovh + s->roff[q];
  size_t lo = 0, hi = s->nov[q];
  int64_t o = s->p->o;
  if (o == 0 || len == 0) return -1;
  while (lo < hi) { /* first r with r + o > t */
    size_t mid = lo + (hi - lo) / 2;
    if (a[mid] + o <= t) lo = mid + 1; else hi = mid;
  }
  return (lo < s->nov[q] && a[lo] < t + len) ? a[lo] : -1;
}

static int emit(lr_sim *s, int64_t t, int64_t q, const lr_send *x) {
  int e = oc_sched_push(s->out, t, q, x->dst, x->item);
  if (e != OC_OK) return e;
  s->out->copy[s->out->n - 1] = (unsigned char)x->copy;
  s->out->seq[s->out->n - 1] = (uint32_t)x->rslot;
  return OC_OK;
}

/* Everything q can do at time t; pushes the next times worth a look. */
static int lr_step(lr_sim *s, int64_t q, int64_t t) {
  const oc_params *p = s->p;
  lr_proc *r = &s->pr[q];
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
      const lr_send *x = &s->b->snd[s->b->soff[q] + r->next_send];
      lr_proc *d = &s->pr[x->dst];
      if (r->handled >= x->need) {
        int64_t t0 = t, hit;
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
          s->ovh[s->roff[x->dst] + s->nov[x->dst]++] = rs;
          d->recv_free = rs + s->G;
          r->send_free = t + s->G;
          r->last_send = t;
          s->arr[slot] = t + p->L + 2 * p->o;
          s->rcopy[slot] = x->copy;
          s->rsb[slot] = x->rsb;
          s->rmsg[slot] = (int64_t)s->out->n - 1;
          s->sst[s->b->soff[q] + r->next_send] = t;
          r->next_send++;
          if ((e = hpush(&s->h, s->arr[slot], x->dst)) != OC_OK) return e;
          if ((e = hpush(&s->h, r->send_free, q)) != OC_OK) return e;
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
        s->out->not_before[s->rmsg[slot]] =
            s->rsb[slot] > 0 ? s->sst[s->b->soff[q] + (size_t)s->rsb[slot] - 1] : 0;
        if (s->rcopy[slot]) {
          r->head++;
          r->handled++;
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
            if ((e = hpush(&s->h, r->busy_until, q)) != OC_OK) return e;
          }
        }
      }
    }
  }
  return OC_OK;
}

static int lr_run(const oc_params *p, const lr_prog *b, oc_sched *out) {
  lr_sim s;
  int64_t P = b->P;
  int e = OC_OK;
  memset(&s, 0, sizeof s);
  s.p = p;
  s.b = b;
  s.out = out;
  s.G = p->g > p->o ? p->g : p->o;
  s.pr = (lr_proc *)calloc((size_t)P, sizeof *s.pr);
  s.roff = (size_t *)calloc((size_t)P + 1, sizeof *s.roff);
  s.nov = (size_t *)calloc((size_t)P, sizeof *s.nov);
  s.arr = (int64_t *)malloc((b->ns + 1) * sizeof *s.arr);
  s.rcopy = (int64_t *)calloc(b->ns + 1, sizeof *s.rcopy);
  s.rsb = (int64_t *)calloc(b->ns + 1, sizeof *s.rsb);
  s.rmsg = (int64_t *)calloc(b->ns + 1, sizeof *s.rmsg);
  s.sst = (int64_t *)calloc(b->ns + 1, sizeof *s.sst);
  s.ovh = (int64_t *)malloc((b->ns + 1) * sizeof *s.ovh);
  if (!s.pr || !s.roff || !s.nov || !s.arr || !s.rcopy || !s.rsb || !s.rmsg || !s.sst ||
      !s.ovh || oc_sched_add_col(out, OC_COL_COPY) != OC_OK ||
      oc_sched_add_col(out, OC_COL_SEQ) != OC_OK ||
      oc_sched_add_col(out, OC_COL_NOT_BEFORE) != OC_OK) {
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
  while (s.h.n > 0) {
    int64_t t = s.h.key[0], q = s.h.proc[0];
    hpop(&s.h);
    if (s.pr[q].last_run == t) continue;
    s.pr[q].last_run = t;
    if ((e = lr_step(&s, q, t)) != OC_OK) goto done;
  }
  if (out->n != b->ns) { /* a program waits for a receive nobody sends: a bug */
    e = OC_EINVALID;
    goto done;
  }
  for (int64_t q = 0; q < P; q++)
    if (s.pr[q].handled != b->nrecv[q]) {
      e = OC_EINVALID;
      goto done;
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
  free(s.h.key);
  free(s.h.proc);
  return e;
}

int oc_libred_allreduce(const oc_params *p, int64_t m, oc_libred_alg a, oc_sched *out,
                        int64_t *time) {
  lr_prog b;
  oc_verdict v;
  int e;
  if (p == NULL || out == NULL || time == NULL || m < 1 || a < 0 || a >= OC_LR_COUNT)
    return OC_EINVAL;
  if ((e = oc_params_check(p)) != OC_OK) return e;
  if (oc_libred_messages(p->P, m, a) > OC_LIBRED_MSGS_MAX) return OC_ERANGE;
  memset(&b, 0, sizeof b);
  b.P = p->P;
  b.m = m;
  b.nrecv = (int64_t *)calloc((size_t)p->P, sizeof *b.nrecv);
  b.barrier = (int64_t *)calloc((size_t)p->P, sizeof *b.barrier);
  b.nsent = (int64_t *)calloc((size_t)p->P, sizeof *b.nsent);
  if (b.nrecv == NULL || b.barrier == NULL || b.nsent == NULL) {
    e = OC_ENOMEM;
    goto done;
  }
  switch (a) {
  case OC_LR_RD: prog_rd(&b); break;
  case OC_LR_RING: prog_ring(&b); break;
  case OC_LR_RABEN: prog_raben(&b); break;
  case OC_LR_REDBCAST: prog_redbcast(&b); break;
  default: prog_linear(&b); break;
  }
  if ((e = lr_finish(&b)) != OC_OK) goto done;
  if ((e = lr_run(p, &b, out)) != OC_OK) goto done;
  if ((e = oc_verify_vreduce(p, -1, m, out, &v)) != OC_OK) goto done;
  if (!v.ok) { /* never hand out a schedule the verifier rejects */
    e = OC_EINVALID;
    goto done;
  }
  *time = v.time;
done:
  free(b.snd);
  free(b.src_of);
  free(b.nrecv);
  free(b.nsent);
  free(b.barrier);
  free(b.soff);
  return e;
}

/* ---- the libraries' default choices ------------------------------------------------
 * Open MPI: ompi_coll_tuned_allreduce_intra_dec_fixed, commutative branch
 * (the table generated from the ompi-collectives-tuning results, Open MPI
 * 4.1 on): algorithm by communicator size (below the first number) and
 * total bytes (below the second).  Its numbers: 1 basic_linear,
 * 2 nonoverlapping, 3 recursive_doubling, 4 ring, 5 segmented_ring,
 * 6 rabenseifner; segmented_ring is modelled as the ring (its segments
 * only pipeline within a step).  Transcribed as thresholds (our table). */
typedef struct lr_rule {
  int64_t procs, bytes;
  oc_libred_alg alg;
} lr_rule;

#define ANY INT64_MAX
static const lr_rule OMPI_AR[] = {
    {4, 8, OC_LR_RING}, {4, 4096, OC_LR_RD}, {4, 8192, OC_LR_RING}, {4, 16384, OC_LR_RD},
    {4, 65536, OC_LR_RING}, {4, 262144, OC_LR_RING /* 5 */}, {4, ANY, OC_LR_RABEN},
    {8, 16, OC_LR_RING}, {8, 8192, OC_LR_RD}, {8, ANY, OC_LR_RABEN},
    {16, 8192, OC_LR_RD}, {16, ANY, OC_LR_RABEN},
    {32, 64, OC_LR_RING /* 5 */}, {32, 4096, OC_LR_RD}, {32, ANY, OC_LR_RABEN},
    {64, 128, OC_LR_RING /* 5 */}, {64, ANY, OC_LR_RABEN},
    {128, 262144, OC_LR_RD}, {128, ANY, OC_LR_RABEN},
    {256, 131072, OC_LR_REDBCAST}, {256, 262144, OC_LR_RD}, {256, ANY, OC_LR_RABEN},
    {512, 4096, OC_LR_REDBCAST}, {512, ANY, OC_LR_RABEN},
    {2048, 2048, OC_LR_REDBCAST}, {2048, 16384, OC_LR_RD}, {2048, ANY, OC_LR_RABEN},
    {4096, 2048, OC_LR_REDBCAST}, {4096, 4096, OC_LR_RING /* 5 */}, {4096, 16384, OC_LR_RD},
    {4096, ANY, OC_LR_RABEN},
    {ANY, 2048, OC_LR_REDBCAST}, {ANY, 16384, OC_LR_RING /* 5 */}, {ANY, 32768, OC_LR_RD},
    {ANY, ANY, OC_LR_RABEN},
};
#undef ANY

/* MPICH: MPIR_Allreduce_intra_auto (and the devices' copies of it): recursive
 * doubling when count * type_size <= MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE
 * (default 2048), the operator is not built in, or count < pof2; else
 * reduce_scatter_allgather (Rabenseifner). */
#define MPICH_AR_SHORT 2048

int oc_libred_select(oc_libcoll_rule rule, int64_t P, int64_t bytes, int64_t elem,
                     oc_libred_alg *out) {
  if (out == NULL || P < 1 || bytes < 0 || elem < 1) return OC_EINVAL;
  if (rule == OC_LC_RULE_OMPI) {
    const size_t n = sizeof OMPI_AR / sizeof OMPI_AR[0];
    for (size_t i = 0; i < n; i++) {
      if (P >= OMPI_AR[i].procs) continue;
      /* i opens the group of the smallest size bound above P */
      for (size_t j = i; j < n && OMPI_AR[j].procs == OMPI_AR[i].procs; j++)
        if (bytes < OMPI_AR[j].bytes) {
          *out = OMPI_AR[j].alg;
          return OC_OK;
        }
      break;
    }
    return OC_EINVAL; /* not reached: the last rows take everything */
  }
  if (rule == OC_LC_RULE_MPICH) {
    int64_t pof2 = 1;
    while (pof2 <= P / 2) pof2 *= 2;
    *out = (bytes <= MPICH_AR_SHORT || bytes / elem < pof2) ? OC_LR_RD : OC_LR_RABEN;
    return OC_OK;
  }
  return OC_EINVAL;
}

/* Open MPI 4.1's coll_base_allreduce.c hands small vectors on: the ring
 * with count < P runs recursive doubling, redscat_allgather (Rabenseifner)
 * with count < pof2 runs basic_linear (later versions dropped that second
 * check).  MPICH's selection never picks Rabenseifner for count < pof2. */
int oc_libred_runs(oc_libcoll_rule rule, oc_libred_alg alg, int64_t P, int64_t count,
                   oc_libred_alg *out) {
  int64_t pof2 = 1;
  if (out == NULL || P < 1 || count < 0 || alg < 0 || alg >= OC_LR_COUNT) return OC_EINVAL;
  if (rule != OC_LC_RULE_OMPI && rule != OC_LC_RULE_MPICH) return OC_EINVAL;
  while (pof2 <= P / 2) pof2 *= 2;
  *out = alg;
  if (rule == OC_LC_RULE_OMPI && alg == OC_LR_RING && count < P) *out = OC_LR_RD;
  if (rule == OC_LC_RULE_OMPI && alg == OC_LR_RABEN && count < pof2) *out = OC_LR_LINEAR;
  return OC_OK;
}
