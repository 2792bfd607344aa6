/* oc_libcoll.c - the broadcast algorithms of the MPI libraries (Open MPI's
 * coll/base, MPICH's bcast directory) as LogP schedules, for comparison with
 * optcast's optimal trees; and the two libraries' default selection rules.
 *
 * Every algorithm is written as a *program* per processor: the sends it
 * issues, in the order the library issues them (destination, first item,
 * packets).  One simulator (lc_run) then times all programs under the LogP
 * rules of docs/MODEL.md: a processor issues its next send as early as
 *   - it holds every item of the message (all of a long message's packets
 *     are usable at the receiver at s + L + 2o + (len-1)G),
 *   - its own send starts are G = max(g, o) apart (g per packet),
 *   - neither its send overheads nor the receiver's receive overheads
 *     overlap another busy interval of that processor,
 *   - the receiver's receive starts are G apart,
 * allow.  Messages are committed in the order of their send starts (a heap),
 * so a new send only has to be checked against what is already committed;
 * see docs/ALGORITHMS.md ("MPI library algorithms") for the argument.  A
 * message of len packets is a long message (oc_sched_push_long) when g >= o;
 * when o > g its packets are G apart and written one by one (the verifier
 * spaces a long message's packets g apart, which o > g forbids).
 *
 * Work: O(n log n) for n messages plus O(packets) for the data checks (a
 * conflict search per packet only when o > 0), memory O(P m + n).
 */
#include <stdlib.h>
#include <string.h>

#include "core/oc_core.h"


/* ---- names ------------------------------------------------------------------ */
static const char *const LC_NAMES[OC_LC_COUNT] = {
    "linear", "chain", "pipeline", "binary", "binomial", "knomial",
    "split-binary", "scatter-rd-allgather", "scatter-ring-allgather", "bmtree"};

const char *oc_libcoll_alg_name(oc_libcoll_alg a) {
  return (a >= 0 && a < OC_LC_COUNT) ? LC_NAMES[a] : "?";
}

int oc_libcoll_alg_parse(const char *name, oc_libcoll_alg *out) {
  if (name == NULL || out == NULL) return OC_EINVAL;
  for (int a = 0; a < OC_LC_COUNT; a++)
    if (strcmp(name, LC_NAMES[a]) == 0) {
      *out = (oc_libcoll_alg)a;
      return OC_OK;
    }
  return OC_EINVAL;
}

/* Cost formulas, with h = L + 2o, G = max(g, o), m packets, P >= 2 (the
 * tests check the exact ones; "about" ones are the textbook estimates, the
 * simulator is the judge):
 *   linear        h + ((P-1) m - 1) G                                 exact
 *   chain         (P-1)(h + (m-1) G)                                   exact
 *   pipeline      k = ceil(m/s) segments of s: about
 *                 (P-1)(h + (s-1) G) + (k-1) s max(G, 2o)
 *   binary        depth d = floor(log2 P): at most d (h + (2m-1) G)
 *   binomial      P = 2^k: H + (k-1) max(H, m G), H = h + (m-1) G      exact
 *   k-nomial      m = 1, P = k^j, h >= G: j (h + (k-2) G)              exact
 *   split-binary  about the binary tree for ceil(m/2), plus one exchange
 *                 h + (ceil(m/2) - 1) G
 *   scatter + rd  P = 2^k: about 2 k h + 2 (P-1)/P m G (Thakur, Rabenseifner
 *                 & Gropp 2005)
 *   scatter + ring about k h + (P-1)/P m G + (P-1)(h + (ceil(m/P)-1) G)
 */

/* ---- programs ------------------------------------------------------------------ */
typedef struct lc_op {
  int64_t dst, item, len;
} lc_op;

typedef struct lc_prog {
  int64_t P, m, root;
  lc_op *op;
  size_t n, cap;
  size_t *off; /* off[q] .. off[q+1]: q's sends in issue order */
  int err;
} lc_prog;

static int64_t act(const lc_prog *b, int64_t v) { /* relative rank -> rank */
  int64_t r = v + b->root;
  return r >= b->P ? r - b->P : r;
}

/* q's next send: items [item, item + len) to relative rank dst (len <= 0:
 * nothing, as a message without data is left out) */
static void emit(lc_prog *b, int64_t dst_rel, int64_t item, int64_t len) {
  if (len <= 0 || b->err) return;
  if (b->n == b->cap) {
    size_t nc = b->cap ? 2 * b->cap : 256;
    lc_op *x = (lc_op *)realloc(b->op, nc * sizeof *x);
    if (x == NULL) {
      b->err = OC_ENOMEM;
      return;
    }
    b->op = x;
    b->cap = nc;
  }
  b->op[b->n].dst = act(b, dst_rel);
  b->op[b->n].item = item;
  b->op[b->n].len = len;
  b->n++;
}

/* segment j of [lo, hi) in pieces of seg packets (seg <= 0: one piece) */
static int64_t nsegs(int64_t lo, int64_t hi, int64_t seg) {
  if (hi <= lo) return 0;
  if (seg <= 0) return 1;
  return (hi - lo + seg - 1) / seg;
}
static void emit_seg(lc_prog *b, int64_t dst, int64_t lo, int64_t hi,
                     int64_t seg, int64_t j) {
  int64_t a = seg <= 0 ? lo : lo + j * seg;
  int64_t e = seg <= 0 ? hi : oc_min64(hi, a + seg);
  emit(b, dst, a, e - a);
}

/* ---- trees ---------------------------------------------------------------------
 * Children of relative rank v, in send order; returns how many (<= cap). */
typedef int64_t (*lc_children_fn)(int64_t P, int64_t v, int64_t k, int64_t *ch,
                                  int64_t cap);

/* chain: v -> v + 1 */
static int64_t ch_chain(int64_t P, int64_t v, int64_t k, int64_t *ch, int64_t cap) {
  (void)k;
  (void)cap;
  if (v + 1 < P) {
    ch[0] = v + 1;
    return 1;
  }
  return 0;
}

/* Open MPI's binary tree (coll_base_topo.c, ompi_coll_base_topo_build_tree
 * with fanout 2): node v on level l (levels 2^l - 1 .. 2^(l+1) - 2) has the
 * children v + 2^l and v + 2^(l+1); the root's left subtree holds the odd
 * relative ranks, its right subtree the even ones. */
static int64_t ch_binary(int64_t P, int64_t v, int64_t k, int64_t *ch, int64_t cap) {
  int64_t d = 1, n = 0;
  (void)k;
  (void)cap;
  while (2 * d - 1 <= v) d *= 2; /* v on the level of width d */
  if (v + d < P) ch[n++] = v + d;
  if (v + 2 * d < P) ch[n++] = v + 2 * d;
  return n;
}

/* k-nomial tree (binomial for k = 2), MPICH's and Open MPI's shape: v's
 * parent clears v's lowest nonzero base-k digit; v sends to v + j k^i for
 * the positions i below that digit, the largest subtrees (highest i) first
 * and j = 1 .. k-1 within a position. */
static int64_t ch_knomial(int64_t P, int64_t v, int64_t k, int64_t *ch, int64_t cap) {
  int64_t mask = 1, n = 0; /* P <= 2^22 and k <= 64: no overflow */
  while (mask < P && v % (mask * k) == 0) mask *= k;
  for (mask /= k; mask > 0; mask /= k)
    for (int64_t j = 1; j < k; j++) {
      int64_t c = v + j * mask;
      if (c >= P) break;
      if (n < cap) ch[n++] = c;
    }
  return n;
}

/* Open MPI's binomial tree (coll_base_topo.c, ompi_coll_base_topo_build_bmtree):
 * v's parent clears the highest set bit of v; v's children are v + 2^j for
 * the bits j above it, increasing j, so the largest subtree comes first
 * (the root's first child, 1, holds every odd relative rank).  For P a
 * power of two this is the mirror image of ch_knomial with k = 2; for
 * other P the subtrees differ (P = 6: {1,3,5}, {2}, {4} here, {4,5}, {2,3},
 * {1} for MPICH's). */
static int64_t ch_bmtree(int64_t P, int64_t v, int64_t k, int64_t *ch, int64_t cap) {
  int64_t bit = 1, n = 0;
  (void)k;
  while (bit <= v) bit *= 2; /* the first bit above v's highest */
  for (; v + bit < P; bit *= 2)
    if (n < cap) ch[n++] = v + bit;
  return n;
}

/* the tree program: for each segment, to each child (Open MPI's generic
 * segmented tree broadcast; unsegmented with seg <= 0) */
static void prog_tree(lc_prog *b, lc_children_fn fn, int64_t k, int64_t seg,
                      int64_t *ch, int64_t cap) {
  for (int64_t q = 0; q < b->P; q++) {
    int64_t v = q, nc;
    b->off[act(b, v)] = b->n; /* programs are emitted by relative rank */
    nc = fn(b->P, v, k, ch, cap);
    for (int64_t j = 0; j < nsegs(0, b->m, seg); j++)
      for (int64_t c = 0; c < nc; c++) emit_seg(b, ch[c], 0, b->m, seg, j);
  }
}

/* Open MPI's split binary tree (coll_base_bcast.c, split_bintree): the
 * message is cut in two halves (the first one packet larger when m is odd);
 * the root sends the first half down its left subtree (odd relative ranks)
 * and the second down its right subtree (even ones), segment by segment,
 * alternating; then v and v + 1 (v odd) exchange their halves.  When P is
 * even the last odd rank has no partner and gets the second half from the
 * root.  With m = 1 there is nothing to split: the chain. */
static void prog_split(lc_prog *b, int64_t seg, int64_t *ch, int64_t cap) {
  int64_t h0 = (b->m + 1) / 2;
  for (int64_t v = 0; v < b->P; v++) {
    int64_t nc = ch_binary(b->P, v, 2, ch, cap);
    b->off[act(b, v)] = b->n;
    if (v == 0) {
      int64_t n0 = nsegs(0, h0, seg), n1 = nsegs(h0, b->m, seg);
      for (int64_t j = 0; j < oc_max64(n0, n1); j++) {
        if (nc > 0 && j < n0) emit_seg(b, ch[0], 0, h0, seg, j);
        if (nc > 1 && j < n1) emit_seg(b, ch[1], h0, b->m, seg, j);
      }
      if (b->P % 2 == 0 && b->P > 1) emit(b, b->P - 1, h0, b->m - h0);
    } else {
      int64_t lo = (v & 1) ? 0 : h0, hi = (v & 1) ? h0 : b->m;
      int64_t pair = (v & 1) ? v + 1 : v - 1;
      for (int64_t j = 0; j < nsegs(lo, hi, seg); j++)
        for (int64_t c = 0; c < nc; c++) emit_seg(b, ch[c], lo, hi, seg, j);
      if (pair >= 1 && pair < b->P) emit(b, pair, lo, hi - lo);
    }
  }
}

/* ---- scatter + allgather (MPICH) -------------------------------------------------
 * The message is cut into P chunks of ss = ceil(m/P) packets, chunk v for
 * relative rank v (the last ones may be short or empty).  Items of chunks
 * [a, b): [a ss, b ss) clipped to m. */
static int64_t chunk_at(const lc_prog *b, int64_t c, int64_t ss) {
  return oc_min64(oc_mul_sat(c, ss), b->m);
}
static void emit_chunks(lc_prog *b, int64_t dst, int64_t a, int64_t e, int64_t ss) {
  int64_t lo = chunk_at(b, a, ss), hi = chunk_at(b, e, ss);
  emit(b, dst, lo, hi - lo);
}

/* MPICH's binomial scatter (MPII_Scatter_for_bcast): v receives the chunks
 * of its binomial subtree [v, v + lowbit(v)) and passes on the chunks of
 * each child's subtree, the largest subtree first. */
static void prog_scatter(lc_prog *b, int64_t v, int64_t ss) {
  int64_t mask = 1;
  while (mask < b->P && !(v & mask)) mask *= 2; /* v's lowest bit (root: >= P) */
  for (mask /= 2; mask > 0; mask /= 2)
    if (v + mask < b->P) emit_chunks(b, v + mask, v + mask, oc_min64(v + 2 * mask, b->P), ss);
}

/* Recursive-doubling allgather of the chunks (MPICH's
 * scatter_recursive_doubling_allgather): in step i (mask = 2^i) v sends the
 * chunks of its subtree [t, t + mask), t = v with the low i bits cleared, to
 * v ^ mask.  When P is not a power of two, v ^ mask may not exist; then the
 * processes of the lower subtree that did get the partner subtree's chunks
 * (the first P - t - mask of them) pass them on to the others of their
 * subtree, doubling the holders each round (MPICH does this with a tree of
 * sends over the same processes; this ordering is ours). */
static void prog_rd(lc_prog *b, int64_t v, int64_t ss) {
  for (int64_t mask = 1; mask < b->P; mask *= 2) {
    int64_t t = v & ~(mask - 1), d = v ^ mask;
    if (d < b->P) emit_chunks(b, d, t, t + mask, ss);
    if (!(v & mask)) { /* lower subtree: is the upper one incomplete? */
      int64_t up = t + mask, have = b->P - up; /* holders: offsets < have */
      if (have > 0 && have < mask) {
        int64_t x = v - t;
        for (int64_t cnt = have; cnt < mask; cnt *= 2)
          if (x < cnt && x + cnt < mask)
            emit_chunks(b, t + x + cnt, up, oc_min64(up + mask, b->P), ss);
      }
    }
  }
}

/* Ring allgather of the chunks (MPICH's scatter_ring_allgather): in step
 * i = 0 .. P-2, v sends chunk v - i (mod P) to v + 1.  Only the first nc
 * chunks hold data; the steps that carry one are, in order, i = v - c for
 * c = min(v, nc-1) .. max(0, v-P+2), then i = v - c + P for c = nc-1 ..
 * v+2 (step P-1 does not exist): O(nc) per processor, not O(P). */
static void prog_ring(lc_prog *b, int64_t v, int64_t ss) {
  int64_t nc = oc_min64(b->P, (b->m + ss - 1) / ss), right = (v + 1) % b->P;
  for (int64_t c = oc_min64(v, nc - 1); c >= oc_max64(0, v - b->P + 2); c--)
    emit_chunks(b, right, c, c + 1, ss);
  for (int64_t c = nc - 1; c > v + 1; c--) emit_chunks(b, right, c, c + 1, ss);
}

/* ---- the simulator ------------------------------------------------------------- */
typedef struct lc_blk {
  int64_t t, len; /* packets at t, t + G, ..., t + (len-1) G */
} lc_blk;

typedef struct lc_heap {
  int64_t *key, *proc;
  size_t n;
} lc_heap;

static int heap_less(const lc_heap *h, size_t a, size_t b) {
  return h->key[a] < h->key[b] || (h->key[a] == h->key[b] && h->proc[a] < h->proc[b]);
}
static void heap_swap(lc_heap *h, size_t a, size_t b) {
  int64_t k = h->key[a], p = h->proc[a];
  h->key[a] = h->key[b];
  h->proc[a] = h->proc[b];
  h->key[b] = k;
  h->proc[b] = p;
}
static void heap_push(lc_heap *h, int64_t key, int64_t proc) {
  size_t i = h->n++;
  h->key[i] = key;
  h->proc[i] = proc;
  while (i > 0 && heap_less(h, i, (i - 1) / 2)) {
    heap_swap(h, i, (i - 1) / 2);
    i = (i - 1) / 2;
  }
}
static void heap_pop(lc_heap *h) {
  size_t i = 0;
  h->n--;
  h->key[0] = h->key[h->n];
  h->proc[0] = h->proc[h->n];
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, s = i;
    if (l < h->n && heap_less(h, l, s)) s = l;
    if (r < h->n && heap_less(h, r, s)) s = r;
    if (s == i) break;
    heap_swap(h, i, s);
    i = s;
  }
}

/* In blocks a[0..n) (sorted, disjoint), the packet x closest below
 * lim (x < lim); returns 1 and *x when there is one. */
static int last_packet_below(const lc_blk *a, size_t n, int64_t G, int64_t lim,
                             int64_t *x) {
  size_t lo = 0, hi = n; /* first block with t >= lim */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (a[mid].t < lim) lo = mid + 1; else hi = mid;
  }
  if (lo == 0) return 0;
  {
    const lc_blk *k = &a[lo - 1];
    int64_t i = oc_min64(k->len - 1, (lim - 1 - k->t) / G);
    *x = k->t + i * G;
  }
  return 1;
}

typedef struct lc_sim {
  const oc_params *p;
  int64_t G, h;
  int64_t *avail;           /* P * m: when item i is usable at q      */
  int64_t *send_free, *recv_free;
  lc_blk *sb, *rb;          /* CSR by processor: sends, receptions    */
  size_t *soff, *roff, *sn, *rn;
  size_t *head;             /* next op of each processor              */
  int64_t *scan, *ready;    /* head op: items checked, their latest   */
  unsigned char *waiting;   /* head op blocked on data                */
} lc_sim;

/* 1 when q's head op has all its data; ready[q] = when */
static int head_ready(lc_sim *s, const lc_prog *b, int64_t q) {
  const lc_op *o = &b->op[s->head[q]];
  int64_t *av = s->avail + q * b->m;
  while (s->scan[q] < o->len) {
    int64_t a = av[o->item + s->scan[q]];
    if (a == INT64_MAX) return 0;
    if (a > s->ready[q]) s->ready[q] = a;
    s->scan[q]++;
  }
  return 1;
}

/* the earliest send start >= t of q's head op that breaks no rule against
 * what is committed */
static int64_t earliest(const lc_sim *s, const lc_prog *b, int64_t q, int64_t t) {
  const lc_op *op = &b->op[s->head[q]];
  int64_t d = op->dst, o = s->p->o, L = s->p->L, G = s->G;
  t = oc_max64(t, oc_max64(s->send_free[q], s->recv_free[d] - o - L));
  if (o == 0) return t;
  for (;;) {
    int moved = 0;
    for (int64_t k = 0; k < op->len && !moved; k++) {
      int64_t a = t + k * G, x;
      /* the sender's overhead against its own receptions */
      if (last_packet_below(s->rb + s->roff[q], s->rn[q], G, a + o, &x) && x > a - o) {
        t += x + o - a;
        moved = 1;
        break;
      }
      a += o + L; /* the receiver's overhead against its own sends */
      if (last_packet_below(s->sb + s->soff[d], s->sn[d], G, a + o, &x) && x > a - o) {
        t += x + o - a;
        moved = 1;
      }
    }
    if (!moved) return t;
  }
}

static void lc_sim_free(lc_sim *s) {
  free(s->avail);
  free(s->send_free);
  free(s->recv_free);
  free(s->sb);
  free(s->rb);
  free(s->soff);
  free(s->roff);
  free(s->sn);
  free(s->rn);
  free(s->head);
  free(s->scan);
  free(s->ready);
  free(s->waiting);
}

/* the head op of q can be scheduled: into the heap, or wait for data */
static void lc_arm(lc_sim *s, const lc_prog *b, lc_heap *hp, int64_t q, int64_t now) {
  if (s->head[q] >= b->off[q + 1]) return;
  if (head_ready(s, b, q)) {
    s->waiting[q] = 0;
    heap_push(hp, oc_max64(now, s->ready[q]), q);
  } else {
    s->waiting[q] = 1;
  }
}

static int lc_run(const oc_params *p, const lc_prog *b, oc_sched *out, int64_t *time) {
  lc_sim s;
  lc_heap hp;
  int64_t P = b->P, m = b->m, done = 0;
  size_t nmsg = 0;
  int e = OC_OK;
  memset(&s, 0, sizeof s);
  memset(&hp, 0, sizeof hp);
  s.p = p;
  s.G = oc_max64(p->g, p->o);
  s.h = p->L + 2 * p->o;
  s.avail = (int64_t *)malloc((size_t)(P * m) * sizeof *s.avail);
  s.send_free = (int64_t *)calloc((size_t)P, sizeof(int64_t));
  s.recv_free = (int64_t *)calloc((size_t)P, sizeof(int64_t));
  s.sb = (lc_blk *)malloc((b->n + 1) * sizeof(lc_blk));
  s.rb = (lc_blk *)malloc((b->n + 1) * sizeof(lc_blk));
  s.soff = (size_t *)calloc((size_t)P + 1, sizeof(size_t));
  s.roff = (size_t *)calloc((size_t)P + 1, sizeof(size_t));
  s.sn = (size_t *)calloc((size_t)P, sizeof(size_t));
  s.rn = (size_t *)calloc((size_t)P, sizeof(size_t));
  s.head = (size_t *)malloc((size_t)P * sizeof(size_t));
  s.scan = (int64_t *)calloc((size_t)P, sizeof(int64_t));
  s.ready = (int64_t *)calloc((size_t)P, sizeof(int64_t));
  s.waiting = (unsigned char *)calloc((size_t)P, 1);
  hp.key = (int64_t *)malloc((size_t)P * sizeof(int64_t));
  hp.proc = (int64_t *)malloc((size_t)P * sizeof(int64_t));
  if (!s.avail || !s.send_free || !s.recv_free || !s.sb || !s.rb || !s.soff ||
      !s.roff || !s.sn || !s.rn || !s.head || !s.scan || !s.ready || !s.waiting ||
      !hp.key || !hp.proc) {
    e = OC_ENOMEM;
    goto out;
  }
  for (int64_t i = 0; i < P * m; i++) s.avail[i] = INT64_MAX;
  for (int64_t i = 0; i < m; i++) s.avail[b->root * m + i] = 0;
  for (int64_t q = 0; q < P; q++) {
    s.soff[q + 1] = b->off[q + 1]; /* a processor's sends: its program */
    s.head[q] = b->off[q];
    s.recv_free[q] = INT64_MIN / 4;
  }
  for (size_t i = 0; i < b->n; i++) s.roff[b->op[i].dst + 1]++;
  for (int64_t q = 0; q < P; q++) s.roff[q + 1] += s.roff[q];
  for (int64_t q = 0; q < P; q++) lc_arm(&s, b, &hp, q, 0);
  while (hp.n > 0) {
    int64_t q = hp.proc[0], key = hp.key[0], t, d;
    const lc_op *op;
    heap_pop(&hp);
    if (key > OC_TIME_MAX) {
      e = OC_ERANGE;
      goto out;
    }
    t = earliest(&s, b, q, key);
    if (t > key) {
      heap_push(&hp, t, q);
      continue;
    }
    op = &b->op[s.head[q]];
    d = op->dst;
    s.sb[s.soff[q] + s.sn[q]].t = t;
    s.sb[s.soff[q] + s.sn[q]++].len = op->len;
    s.rb[s.roff[d] + s.rn[d]].t = t + p->o + p->L;
    s.rb[s.roff[d] + s.rn[d]++].len = op->len;
    s.send_free[q] = t + op->len * s.G;
    s.recv_free[d] = t + p->o + p->L + op->len * s.G;
    {
      int64_t arr = t + s.h + (op->len - 1) * s.G, *av = s.avail + d * m;
      for (int64_t i = 0; i < op->len; i++)
        if (arr < av[op->item + i]) av[op->item + i] = arr;
    }
    if (out != NULL) {
      if (op->len == 1 || p->g >= p->o)
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
    lc_arm(&s, b, &hp, q, t);
    if (s.waiting[d]) lc_arm(&s, b, &hp, d, t);
  }
  if (nmsg != b->n) { /* a program waits for data nobody sends: a bug */
    e = OC_EINVALID;
    goto out;
  }
  for (int64_t i = 0; i < P * m; i++) {
    if (s.avail[i] == INT64_MAX) {
      e = OC_EINVALID;
      goto out;
    }
    if (s.avail[i] > done) done = s.avail[i];
  }
  if (done > OC_TIME_MAX) { /* the completion, not only the send starts */
    e = OC_ERANGE;
    goto out;
  }
  *time = done;
out:
  lc_sim_free(&s);
  free(hp.key);
  free(hp.proc);
  return e;
}

/* ---- the algorithms ------------------------------------------------------------- */
static int check_args(const oc_params *p, int64_t root, int64_t m) {
  if (p == NULL) return OC_EINVAL;
  if (oc_params_check(p) != OC_OK) return OC_EINVAL;
  if (root < 0 || root >= p->P || m < 1) return OC_EINVAL;
  if (p->P > OC_LIBCOLL_MAX || m > OC_LIBCOLL_MAX / p->P) return OC_ERANGE;
  /* a message's packets span at most 2^50: times stay far from wrapping */
  if (oc_mul_sat(m, oc_max64(p->g, p->o)) > ((int64_t)1 << 50)) return OC_ERANGE;
  return OC_OK;
}

int oc_libcoll_bcast(const oc_params *p, int64_t root, int64_t m,
                     const oc_libcoll_spec *spec, oc_sched *out, int64_t *time) {
  lc_prog b;
  int64_t *ch = NULL, cap, k, t = 0;
  int e;
  if (spec == NULL || time == NULL) return OC_EINVAL;
  if ((e = check_args(p, root, m)) != OC_OK) return e;
  if (spec->alg < 0 || spec->alg >= OC_LC_COUNT || spec->seg < 0) return OC_EINVAL;
  k = spec->alg == OC_LC_BINOMIAL ? 2 : spec->radix;
  if (spec->alg == OC_LC_KNOMIAL && (k < 2 || k > OC_LIBCOLL_RADIX_MAX)) return OC_EINVAL;
  memset(&b, 0, sizeof b);
  b.P = p->P;
  b.m = m;
  b.root = root;
  b.off = (size_t *)calloc((size_t)p->P + 1, sizeof *b.off);
  cap = 64 * (k > 2 ? k : 2);
  ch = (int64_t *)malloc((size_t)cap * sizeof *ch);
  if (b.off == NULL || ch == NULL) {
    e = OC_ENOMEM;
    goto out;
  }
  switch (spec->alg) {
  case OC_LC_LINEAR: /* Open MPI basic_linear: to every rank, in rank order */
    for (int64_t v = 0; v < p->P; v++) {
      b.off[act(&b, v)] = b.n;
      if (v == 0)
        for (int64_t r = 0; r < p->P; r++)
          if (r != root) emit(&b, (r - root + p->P) % p->P, 0, m);
    }
    break;
  case OC_LC_CHAIN:
    prog_tree(&b, ch_chain, 1, 0, ch, cap);
    break;
  case OC_LC_PIPELINE:
    prog_tree(&b, ch_chain, 1, spec->seg, ch, cap);
    break;
  case OC_LC_BINARY:
    prog_tree(&b, ch_binary, 2, spec->seg, ch, cap);
    break;
  case OC_LC_BINOMIAL:
  case OC_LC_KNOMIAL:
    prog_tree(&b, ch_knomial, k, spec->seg, ch, cap);
    break;
  case OC_LC_BMTREE:
    prog_tree(&b, ch_bmtree, 2, spec->seg, ch, cap);
    break;
  case OC_LC_SPLIT_BINARY:
    if (m < 2)
      prog_tree(&b, ch_chain, 1, spec->seg, ch, cap);
    else
      prog_split(&b, spec->seg, ch, cap);
    break;
  case OC_LC_SCATTER_RD:
  case OC_LC_SCATTER_RING: {
    int64_t ss = (m + p->P - 1) / p->P;
    for (int64_t v = 0; v < p->P; v++) {
      b.off[act(&b, v)] = b.n;
      prog_scatter(&b, v, ss);
      if (spec->alg == OC_LC_SCATTER_RD) prog_rd(&b, v, ss);
      else prog_ring(&b, v, ss);
    }
    break;
  }
  default:
    e = OC_EINVAL;
    goto out;
  }
  if (b.err) {
    e = b.err;
    goto out;
  }
  { /* programs were emitted by relative rank: make off[] a CSR by rank */
    lc_op *sorted = (lc_op *)malloc((b.n + 1) * sizeof *sorted);
    size_t *cnt = (size_t *)calloc((size_t)p->P + 1, sizeof *cnt);
    size_t pos = 0;
    if (sorted == NULL || cnt == NULL) {
      free(sorted);
      free(cnt);
      e = OC_ENOMEM;
      goto out;
    }
    for (int64_t v = 0; v < p->P; v++) { /* lengths, by relative rank */
      int64_t q = act(&b, v);
      size_t end = (v + 1 < p->P) ? b.off[act(&b, v + 1)] : b.n;
      cnt[q] = end - b.off[q];
    }
    for (int64_t q = 0; q < p->P; q++) {
      if (cnt[q] > 0) memcpy(sorted + pos, b.op + b.off[q], cnt[q] * sizeof *sorted);
      b.off[q] = pos;
      pos += cnt[q];
    }
    b.off[p->P] = pos;
    free(cnt);
    free(b.op);
    b.op = sorted;
  }
  e = lc_run(p, &b, out, &t);
  if (e == OC_OK) *time = t;
out:
  free(b.op);
  free(b.off);
  free(ch);
  return e;
}

/* The optimal single-item tree (oc_bcast, Karp) pipelined item by item:
 * every processor forwards item 0, 1, ..., m-1 to its children in the
 * tree's send order as soon as the rules allow.  Timed by the same
 * simulator. */
int oc_libcoll_tree_pipelined(const oc_params *p, int64_t root, int64_t m,
                              oc_sched *out, int64_t *time) {
  oc_bcast *bc = NULL;
  oc_sched tree;
  lc_prog b;
  int64_t t = 0;
  int e;
  if (time == NULL) return OC_EINVAL;
  if ((e = check_args(p, root, m)) != OC_OK) return e;
  memset(&b, 0, sizeof b);
  oc_sched_init(&tree);
  b.P = p->P;
  b.m = m;
  b.root = 0; /* ranks are physical here */
  if ((e = oc_bcast_new(&bc, p, root, OC_BCAST_KARP)) != OC_OK) goto out;
  if ((e = oc_bcast_schedule(bc, &tree)) != OC_OK) goto out;
  (void)oc_sched_sort(&tree); /* by time, then src: each sender's children in order */
  b.off = (size_t *)calloc((size_t)p->P + 1, sizeof *b.off);
  {
    size_t *cnt = (size_t *)calloc((size_t)p->P + 1, sizeof *cnt);
    size_t *first = (size_t *)malloc(((size_t)p->P + 1) * sizeof *first);
    size_t *kids = (size_t *)malloc((tree.n + 1) * sizeof *kids);
    if (b.off == NULL || cnt == NULL || first == NULL || kids == NULL) {
      free(cnt);
      free(first);
      free(kids);
      e = OC_ENOMEM;
      goto out;
    }
    for (size_t i = 0; i < tree.n; i++) cnt[tree.msg[i].src + 1]++;
    first[0] = 0;
    for (int64_t q = 0; q < p->P; q++) first[q + 1] = first[q] + cnt[q + 1];
    memset(cnt, 0, ((size_t)p->P + 1) * sizeof *cnt);
    for (size_t i = 0; i < tree.n; i++) {
      int64_t q = tree.msg[i].src;
      kids[first[q] + cnt[q]++] = i;
    }
    for (int64_t q = 0; q < p->P; q++) {
      b.off[q] = b.n;
      for (int64_t j = 0; j < m; j++)
        for (size_t c = first[q]; c < first[q + 1]; c++)
          emit(&b, tree.msg[kids[c]].dst, j, 1);
    }
    b.off[p->P] = b.n;
    free(cnt);
    free(first);
    free(kids);
  }
  if (b.err) {
    e = b.err;
    goto out;
  }
  b.root = root;
  /* act() is only used by emit, already done; the simulator wants the root */
  e = lc_run(p, &b, out, &t);
  if (e == OC_OK) *time = t;
out:
  oc_bcast_free(bc);
  oc_sched_free(&tree);
  free(b.op);
  free(b.off);
  return e;
}

/* The optimal tree for the whole message as one long message: Karp's tree
 * for L' = L + (m-1)G, o, g' = mG (a long message keeps its sender m G
 * and is usable L + 2o + (m-1)G after it starts), each edge carrying items
 * 0..m-1.  Time: B(P) under those parameters. */
int oc_libcoll_tree_long(const oc_params *p, int64_t root, int64_t m,
                         oc_sched *out, int64_t *time) {
  oc_params q;
  oc_bcast *bc = NULL;
  oc_sched tree;
  int64_t G;
  int e;
  if (time == NULL) return OC_EINVAL;
  if ((e = check_args(p, root, m)) != OC_OK) return e;
  G = oc_max64(p->g, p->o);
  if (oc_mul_sat(m, G) > OC_PARAM_MAX || oc_add_sat(p->L, oc_mul_sat(m - 1, G)) > OC_PARAM_MAX)
    return OC_ERANGE;
  if ((e = oc_params_logp(&q, p->P, p->L + (m - 1) * G, p->o, m * G)) != OC_OK) return e;
  if ((e = oc_bcast_new(&bc, &q, root, OC_BCAST_KARP)) != OC_OK) return e;
  *time = oc_bcast_completion(bc);
  oc_sched_init(&tree);
  if (out != NULL && (e = oc_bcast_schedule(bc, &tree)) == OC_OK) {
    for (size_t i = 0; i < tree.n && e == OC_OK; i++) {
      const oc_msg *x = &tree.msg[i];
      if (m == 1 || p->g >= p->o)
        e = oc_sched_push_long(out, x->t, x->src, x->dst, 0, m);
      else
        for (int64_t j = 0; j < m && e == OC_OK; j++)
          e = oc_sched_push(out, x->t + j * G, x->src, x->dst, j);
    }
  }
  oc_sched_free(&tree);
  oc_bcast_free(bc);
  return e;
}

/* Lower bound for m items (docs/ALGORITHMS.md): B(P) (item 0 alone), and
 * L + 2o + (m-1) max(g, o): some processor other than the root receives m
 * packets, their receive starts at least max(g, o) apart, the first no
 * earlier than o + L and the last usable o after its start. */
int oc_libcoll_lower_bound(const oc_params *p, int64_t m, int64_t *lb) {
  int64_t B, stream;
  int e;
  if (p == NULL || lb == NULL || m < 1) return OC_EINVAL;
  if ((e = oc_bcast_time(p, &B)) != OC_OK) return e;
  if (p->P < 2) {
    *lb = 0;
    return OC_OK;
  }
  stream = oc_add_sat(p->L + 2 * p->o, oc_mul_sat(m - 1, oc_max64(p->g, p->o)));
  *lb = oc_max64(B, stream);
  return OC_OK;
}

/* ---- the libraries' default selection, as data ----------------------------------
 * A row applies when P < p_lt, bytes < b_lt and (pof2 = 0 or P is a power
 * of two); the first row that applies wins. */
typedef struct lc_rule {
  int64_t p_lt, b_lt;
  int pof2;
  oc_libcoll_alg alg;
  int64_t radix;
} lc_rule;

#define ANY INT64_MAX
/* Open MPI 4.1, ompi/mca/coll/tuned/coll_tuned_decision_fixed.c,
 * ompi_coll_tuned_bcast_intra_dec_fixed: algorithm by communicator size
 * and total message size in bytes; it passes segment size 0 and fan-in/out
 * 0 (no segmentation), and the k-nomial tree takes the MCA default radix
 * coll_tuned_bcast_knomial_radix = 4.  Open MPI's numbers: 1 basic_linear,
 * 2 chain, 3 pipeline, 4 split_binary_tree, 5 binary_tree, 6 binomial,
 * 7 knomial, 8 scatter_allgather (recursive doubling), 9
 * scatter_allgather_ring.  Transcribed as thresholds (our own table); its
 * binomial is Open MPI's own tree (BMTREE), not MPICH's. */
#define OM(p, b, a) {p, b, 0, a, 4}
static const lc_rule OMPI_RULES[] = {
    OM(4, 32, OC_LC_PIPELINE), OM(4, 256, OC_LC_BINARY), OM(4, 512, OC_LC_PIPELINE),
    OM(4, 1024, OC_LC_KNOMIAL), OM(4, 32768, OC_LC_LINEAR), OM(4, 131072, OC_LC_BINARY),
    OM(4, 262144, OC_LC_CHAIN), OM(4, 524288, OC_LC_LINEAR), OM(4, 1048576, OC_LC_BMTREE),
    OM(4, ANY, OC_LC_BINARY),
    OM(8, 64, OC_LC_BINARY), OM(8, 128, OC_LC_BMTREE), OM(8, 2048, OC_LC_BINARY),
    OM(8, 8192, OC_LC_BMTREE), OM(8, 1048576, OC_LC_LINEAR), OM(8, ANY, OC_LC_CHAIN),
    OM(16, 8, OC_LC_KNOMIAL), OM(16, 64, OC_LC_BINARY), OM(16, 4096, OC_LC_KNOMIAL),
    OM(16, 16384, OC_LC_BINARY), OM(16, 32768, OC_LC_BMTREE), OM(16, ANY, OC_LC_LINEAR),
    OM(32, 4096, OC_LC_KNOMIAL), OM(32, 1048576, OC_LC_BMTREE), OM(32, ANY, OC_LC_SCATTER_RD),
    OM(64, 2048, OC_LC_BMTREE), OM(64, ANY, OC_LC_KNOMIAL),
    OM(128, ANY, OC_LC_KNOMIAL),
    OM(256, 2, OC_LC_BMTREE), OM(256, 16384, OC_LC_BINARY), OM(256, 32768, OC_LC_LINEAR),
    OM(256, 65536, OC_LC_BINARY), OM(256, ANY, OC_LC_KNOMIAL),
    OM(1024, 16384, OC_LC_KNOMIAL), OM(1024, 32768, OC_LC_SPLIT_BINARY), OM(1024, ANY, OC_LC_KNOMIAL),
    OM(2048, 524288, OC_LC_KNOMIAL), OM(2048, ANY, OC_LC_SCATTER_RD),
    OM(4096, 262144, OC_LC_KNOMIAL), OM(4096, ANY, OC_LC_SCATTER_RD),
    OM(ANY, 8192, OC_LC_KNOMIAL), OM(ANY, 16384, OC_LC_BINARY), OM(ANY, 262144, OC_LC_KNOMIAL),
    OM(ANY, ANY, OC_LC_SCATTER_RD),
};
#undef OM

/* MPICH 4.0, src/mpi/coll/bcast/bcast.c, MPIR_Bcast_intra_auto with the
 * CVAR defaults MPIR_CVAR_BCAST_SHORT_MSG_SIZE = 12288,
 * MPIR_CVAR_BCAST_LONG_MSG_SIZE = 524288, MPIR_CVAR_BCAST_MIN_PROCS = 8:
 * binomial for short messages or fewer than 8 processes; scatter +
 * recursive-doubling allgather for medium messages on a power of two;
 * scatter + ring allgather otherwise. */
static const lc_rule MPICH_RULES[] = {
    {ANY, 12288, 0, OC_LC_BINOMIAL, 2},
    {8, ANY, 0, OC_LC_BINOMIAL, 2},
    {ANY, 524288, 1, OC_LC_SCATTER_RD, 2},
    {ANY, ANY, 0, OC_LC_SCATTER_RING, 2},
};
#undef ANY

const char *oc_libcoll_rule_name(oc_libcoll_rule r) {
  return r == OC_LC_RULE_OMPI ? "ompi-default" : r == OC_LC_RULE_MPICH ? "mpich-default" : "?";
}

int oc_libcoll_select(oc_libcoll_rule rule, int64_t P, int64_t bytes,
                      oc_libcoll_spec *out) {
  const lc_rule *t;
  size_t n;
  if (out == NULL || P < 1 || bytes < 0) return OC_EINVAL;
  if (rule == OC_LC_RULE_OMPI) {
    t = OMPI_RULES;
    n = sizeof OMPI_RULES / sizeof OMPI_RULES[0];
  } else if (rule == OC_LC_RULE_MPICH) {
    t = MPICH_RULES;
    n = sizeof MPICH_RULES / sizeof MPICH_RULES[0];
  } else {
    return OC_EINVAL;
  }
  for (size_t i = 0; i < n; i++) {
    int pof2 = (P & (P - 1)) == 0;
    if (P < t[i].p_lt && bytes < t[i].b_lt && (!t[i].pof2 || pof2)) {
      out->alg = t[i].alg;
      out->seg = 0;
      out->radix = t[i].alg == OC_LC_BINOMIAL ? 2 : t[i].radix;
      return OC_OK;
    }
  }
  return OC_EINVAL; /* unreachable: the last row takes everything */
}
