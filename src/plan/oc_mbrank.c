/* oc_mbrank.c - a rank's own part of a multi-packet broadcast (oc_mbcast.c):
 * its receptions and sends, segment by segment, in the order its program
 * issues them, computed from the construction's shape alone: no global
 * schedule and no O(P) state.
 *
 * Per segment j (items [j s, min(m, (j+1) s))): the reception from the
 * parent in segment j's tree (none at the root), then the sends to the
 * children in the program's order.  Work O(k (c + log P)) for k segments
 * and c children a node, memory O(k c).  The send order is exactly the
 * program's (oc_lpshape.c), so the global schedule's sends of a rank,
 * sorted by time, are these; the receptions are the same set (a rank may
 * receive segments of different trees out of order).  Times are not
 * given: they come from the global simulation (oc_mbcast_plan), which
 * the greedy timing needs whole.  The runtime needs only the order.
 * Constructions: karp, chain, binary, binomial, two-tree, multi-tree, the
 * circulant (Traff's per-rank schedule, with its slots' times: mr_circulant),
 * and rarest-first by its whole list schedule (O(P k^2), not per rank: see
 * mr_rarest); split-binary and the scatters by the whole broadcast
 * simulated (O(P m), mr_simulated).  The same run
 * backwards is a reduction's view (oc_mreduce_rank, at the end); the
 * reduction programs of oc_rpshape.c have views of their own (rk_*), and
 * the rest are read off their whole program (rk_whole). */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"

int oc_mb_push(oc_mb_rank *r, int kind, int64_t peer, int64_t item, int64_t len, int copy,
               int64_t hist, int side) {
  oc_mb_step *x;
  if (len <= 0) return OC_OK;
  if (oc_grow((void **)&r->step, r->n, &r->cap, sizeof *r->step) != OC_OK) return OC_ENOMEM;
  x = &r->step[r->n++];
  x->kind = kind;
  x->copy = copy;
  x->peer = peer;
  x->item = item;
  x->len = len;
  x->hist = hist;
  x->side = side;
  return OC_OK;
}
static int mr_push_full(oc_mb_rank *r, int kind, int64_t peer, int64_t item, int64_t len,
                        int copy, int64_t hist) {
  return oc_mb_push(r, kind, peer, item, len, copy, hist, 0);
}
/* a broadcast's step: a copy, the value as it stands */
static int mr_push(oc_mb_rank *r, int kind, int64_t peer, int64_t item, int64_t len) {
  return mr_push_full(r, kind, peer, item, len, 1, -1);
}

/* ---- the shapes' parents and children, relative ranks ---------------------- */

/* Open MPI's binary tree (oc_lpshape.c): node v on the level of width w has
 * children v + w and v + 2w */
static int64_t mr_width(int64_t v) {
  int64_t w = 1;
  while (2 * w - 1 <= v) w *= 2;
  return w;
}
static int64_t mr_binary(int64_t P, int64_t v, int64_t *ch, int64_t *parent) {
  int64_t w = mr_width(v), n = 0;
  if (v + w < P) ch[n++] = v + w;
  if (v + 2 * w < P) ch[n++] = v + 2 * w;
  *parent = -1;
  if (v > 0) { /* the parent is on the level of width w/2: v - w/2 or v - w */
    int64_t u = v - w / 2;
    *parent = (u >= w / 2 - 1 && mr_width(u) == w / 2) ? u : v - w;
  }
  return n;
}

/* binomial (MPICH): the parent clears v's lowest set bit; the children are
 * v + 2^i below it, the largest first */
static int64_t mr_binomial(int64_t P, int64_t v, int64_t *ch, int64_t *parent) {
  int64_t mask = 1, n = 0;
  while (mask < P && (v & mask) == 0) mask *= 2;
  *parent = v == 0 ? -1 : v - (v & -v);
  for (mask /= 2; mask > 0; mask /= 2)
    if (v + mask < P) ch[n++] = v + mask;
  return n;
}

/* two-tree T1 (oc_lpshape.c, lp_tt_build): the top of the in-order range
 * [lo, hi], and id's parent and children found by descending the ranges to
 * id; O(log n) */
static int64_t mr_tt_top(int64_t lo, int64_t hi) {
  int64_t len = hi - lo + 1;
  return len == 1 ? lo : lo + 1 + 2 * ((len - 2) / 4);
}
static void mr_tt1(int64_t n, int64_t id, int64_t *parent, int64_t *left, int64_t *right) {
  int64_t lo = 0, hi = n - 1, up = -1;
  for (;;) {
    int64_t r = mr_tt_top(lo, hi);
    if (lo == hi || id == r) {
      *parent = up;
      *left = lo == hi ? -1 : mr_tt_top(lo, r - 1);
      *right = lo == hi || r + 1 > hi ? -1 : mr_tt_top(r + 1, hi);
      return;
    }
    up = r;
    if (id < r) hi = r - 1;
    else lo = r + 1;
  }
}
static int64_t mr_tt_map(int64_t n, int64_t id) { return (n % 2 == 0) ? n - 1 - id : (id + 1) % n; }
static int64_t mr_tt_unmap(int64_t n, int64_t id) {
  return (n % 2 == 0) ? n - 1 - id : (id + n - 1) % n;
}

/* multi-tree (oc_lpshape.c, lp_mt_id): tree t lists the ids = t mod d, then
 * the others; the id at position x and the position of id */
static int64_t mr_mt_id(int64_t n, int64_t d, int64_t t, int64_t x) {
  int64_t c = (n - t + d - 1) / d;
  if (x < c) return t + x * d;
  x -= c;
  {
    int64_t blk = x / (d - 1), r = x % (d - 1), id = blk * d + r;
    return r >= t ? id + 1 : id;
  }
}
static int64_t mr_mt_pos(int64_t n, int64_t d, int64_t t, int64_t id) {
  int64_t c = (n - t + d - 1) / d, below; /* ids = t mod d below id */
  if (id % d == t) return (id - t) / d;
  below = id > t ? (id - t + d - 1) / d : 0;
  return c + id - below;
}

/* rarest-first: no shape to read a rank's part from; the whole list schedule
 * (oc_lp_rarest_ops, O(P k^2) time, O(P k) memory) is computed and the
 * rank's steps kept, in the order they were decided: a reception comes
 * before any send of its segment. */
static int mr_rarest(const oc_params *p, int64_t root, int64_t m, int64_t s, int64_t pace,
                     int64_t v, oc_mb_rank *out) {
  oc_lp_gop *ops = NULL;
  size_t n = 0;
  int e;
  if (pace < 0 || pace > OC_PARAM_MAX) return OC_EINVAL;
  if ((e = oc_lp_rarest_ops(p, m, s, 0, pace, &ops, &n)) != OC_OK) return e;
  for (size_t i = 0; i < n && e == OC_OK; i++) {
    int64_t lo = ops[i].u * s, len = oc_min64(m, lo + s) - lo;
    if (ops[i].dst == v) e = mr_push(out, OC_MB_RECV, (ops[i].src + root) % p->P, lo, len);
    else if (ops[i].src == v) e = mr_push(out, OC_MB_SEND, (ops[i].dst + root) % p->P, lo, len);
  }
  free(ops);
  if (e != OC_OK) out->n = 0;
  return e;
}

/* split-binary and the scatters: no shape to read a rank's part from here;
 * the whole broadcast is simulated (oc_mbcast_run: O(P m) work and memory)
 * and the rank's messages kept in time order, a reception at the end of its
 * receive overhead, a send at its start (a reception first on a tie): each
 * send comes after the reception of what it sends. */
typedef struct mr_ev {
  int64_t t, kind, peer, item, len;
} mr_ev;
static int mr_ev_cmp(const void *a, const void *b) {
  const mr_ev *x = (const mr_ev *)a, *y = (const mr_ev *)b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1; /* OC_MB_RECV = 0 first */
  return (x->item > y->item) - (x->item < y->item);
}
static int mr_simulated(const oc_params *p, int64_t root, int64_t m, const oc_mbcast_info *cfg,
                        int64_t x, oc_mb_rank *out) {
  oc_sched s;
  mr_ev *ev = NULL;
  size_t n = 0;
  int64_t t;
  int e;
  oc_sched_init(&s);
  if ((e = oc_mbcast_run(p, root, m, cfg, &s, &t)) != OC_OK) goto done;
  if ((ev = (mr_ev *)malloc((s.n + 1) * sizeof *ev)) == NULL) {
    e = OC_ENOMEM;
    goto done;
  }
  for (size_t i = 0; i < s.n; i++) {
    int64_t len = s.len ? s.len[i] : 1;
    if (s.msg[i].src == x) ev[n++] = (mr_ev){s.msg[i].t, OC_MB_SEND, s.msg[i].dst, s.msg[i].item, len};
    else if (s.msg[i].dst == x) /* the last packet's receive overhead ends then */
      ev[n++] = (mr_ev){s.msg[i].t + (len - 1) * p->g + p->L + 2 * p->o,
                        OC_MB_RECV, s.msg[i].src, s.msg[i].item, len};
  }
  qsort(ev, n, sizeof *ev, mr_ev_cmp);
  for (size_t i = 0; i < n && e == OC_OK; i++)
    e = mr_push(out, (int)ev[i].kind, ev[i].peer, ev[i].item, ev[i].len);
done:
  free(ev);
  oc_sched_free(&s);
  return e;
}

/* The circulant (oc_lp_circulant): rank v's own receive schedule and its
 * receivers' (oc_circ_recv, oc_circ_send: O(log^3 P)), then per round and
 * stream its send and its reception at the slot's times, sorted as
 * mr_simulated sorts them; O(m log m + log^3 P) work, O(m + log P)
 * memory, no O(P) state (so at any P, also past the global table's
 * OC_LP_CIRC_WORK). */
static int mr_circulant(const oc_params *p, int64_t root, int64_t m, const oc_mbcast_info *cfg,
                        int64_t v, oc_mb_rank *out) {
  int64_t P = p->P, s[64], ph[OC_LP_CIRC_STREAMS], ns = cfg->degree, D, K, smax = 0, seg = cfg->seg;
  int64_t os = p->o + cfg->sx, G = oc_max64(p->g, os);
  int q, R[64], S[64], e;
  mr_ev *ev;
  size_t n = 0, cap;
  if (cfg->sx < 0 || cfg->sx > OC_PARAM_MAX) return OC_EINVAL;
  if (P < 2) return OC_OK;
  if ((e = oc_lp_circ_layout(p, cfg->sx, m, seg, &ns, ph, &D)) != OC_OK) return e;
  K = oc_lp_nsegs(0, m, seg);
  q = oc_lp_circ_skips(P, 0, s);
  if ((e = oc_circ_send(P, q, s, v, S)) != OC_OK) return e;
  if (v != 0 && (e = oc_circ_recv(P, q, s, v, R)) != OC_OK) return e;
  for (int64_t t = 0; t < ns; t++) {
    int64_t nb = (K - t + ns - 1) / ns;
    if (nb > 0) smax = oc_max64(smax, nb - 1 + q);
  }
  cap = (size_t)(2 * (K + (int64_t)q * ns) + 1);
  if ((ev = (mr_ev *)malloc(cap * sizeof *ev)) == NULL) return OC_ENOMEM;
  for (int64_t jj = 0; jj < smax; jj++)
    for (int64_t t = 0; t < ns; t++) {
      int64_t nb = (K - t + ns - 1) / ns, i, k, bb, a, len, at;
      if (nb < 1) continue;
      i = jj + oc_lp_circ_first(q, nb);
      k = i % q;
      at = jj * D + ph[t];
      for (int dir = 0; dir < 2 && n + 1 < cap; dir++) {
        int64_t peer = dir == 0 ? (v + s[k]) % P : (v - s[k] % P + P) % P;
        if (dir == 0 ? peer == 0 : v == 0) continue; /* nothing to the root, nothing at it */
        if ((bb = oc_lp_circ_block(q, dir == 0 ? S[k] : R[k], nb, i)) < 0) continue;
        a = seg <= 0 ? 0 : (t + bb * ns) * seg;
        len = (seg <= 0 ? m : oc_min64(m, a + seg)) - a;
        ev[n++] = dir == 0 ? (mr_ev){at, OC_MB_SEND, (peer + root) % P, a, len}
                           : (mr_ev){at + (len - 1) * G + os + p->L + p->o,
                                     OC_MB_RECV, (peer + root) % P, a, len};
      }
    }
  qsort(ev, n, sizeof *ev, mr_ev_cmp);
  for (size_t i = 0; i < n && e == OC_OK; i++)
    e = mr_push(out, (int)ev[i].kind, ev[i].peer, ev[i].item, ev[i].len);
  free(ev);
  return e;
}

int oc_mbcast_rank(const oc_params *p, int64_t root, int64_t m, const oc_mbcast_info *cfg,
                   int64_t rank, oc_mb_rank *out) {
  int64_t P, v, n, s, k, ch[64], parent = -1, nc = 0;
  oc_bcast *bc = NULL;
  oc_bcast_view bv;
  int e = OC_OK;
  if (p == NULL || cfg == NULL || out == NULL || oc_params_check(p) != OC_OK) return OC_EINVAL;
  P = p->P;
  if (root < 0 || root >= P || rank < 0 || rank >= P || m < 1 || cfg->seg < 0) return OC_EINVAL;
  if (cfg->alg < 0 || cfg->alg >= OC_MB_COUNT) return OC_EINVAL;
  out->n = 0;
  out->rank = rank;
  if (cfg->alg == OC_MB_CIRCULANT) {
    if ((e = mr_circulant(p, root, m, cfg, (rank - root + P) % P, out)) != OC_OK) out->n = 0;
    return e;
  }
  if (cfg->alg == OC_MB_SPLIT || cfg->alg == OC_MB_SCATTER_RD || cfg->alg == OC_MB_SCATTER_RING) {
    if ((e = mr_simulated(p, root, m, cfg, rank, out)) != OC_OK) out->n = 0;
    return e;
  }
  if (P == 1) return OC_OK;
  v = (rank - root + P) % P; /* relative rank */
  n = P - 1;
  s = (cfg->seg == 0 || cfg->seg > m) ? m : cfg->seg;
  k = (m + s - 1) / s;
  if (cfg->alg == OC_MB_RAREST) return mr_rarest(p, root, m, s, cfg->pace, v, out);
  if (cfg->alg == OC_MB_MULTITREE && (cfg->degree < 2 || cfg->degree > n)) return OC_EINVAL;
  if (cfg->alg == OC_MB_PIPELINE) { /* the stream tree, as oc_lp_pipeline builds it */
    int64_t got = 0; /* segments received so far (none at the root) */
    if ((e = oc_lp_pipeline_tree(p, s, k, &bc)) != OC_OK) return e;
    if ((e = oc_bcast_rank(bc, v, &bv)) == OC_OK) {
      if (bv.parent < 0) got = k;
      for (int64_t c = 0; c < bv.nchildren && e == OC_OK; c++) {
        int64_t child = 0, when;
        if ((e = oc_bcast_child(bc, &bv, c, &child, &when)) != OC_OK) break;
        for (int64_t j = 0; j < k && e == OC_OK; j++) {
          int64_t lo = j * s, len = oc_min64(m, lo + s) - lo;
          if (j == got) /* forwarded once it has arrived */
            e = mr_push(out, OC_MB_RECV, (bv.parent + root) % P, lo, len), got++;
          if (e == OC_OK) e = mr_push(out, OC_MB_SEND, (child + root) % P, lo, len);
        }
      }
      for (; got < k && e == OC_OK; got++) /* a leaf: the receptions alone */
        e = mr_push(out, OC_MB_RECV, (bv.parent + root) % P, got * s,
                    oc_min64(m, got * s + s) - got * s);
    }
    goto out;
  }
  if (cfg->alg == OC_MB_KARP) { /* the tree for a segment, as oc_lp_karp builds it */
    if ((e = oc_lp_karp_tree(p, s, &bc)) != OC_OK) return e;
    if ((e = oc_bcast_rank(bc, v, &bv)) != OC_OK) goto out;
    parent = bv.parent;
  }
  for (int64_t j = 0; j < k && e == OC_OK; j++) {
    int64_t lo = j * s, len = oc_min64(m, lo + s) - lo;
    switch (cfg->alg) {
    case OC_MB_KARP: nc = bv.nchildren; break; /* children below, in order */
    case OC_MB_CHAIN:
      parent = v - 1;
      nc = 0;
      if (v + 1 < P) ch[nc++] = v + 1;
      break;
    case OC_MB_BINARY: nc = mr_binary(P, v, ch, &parent); break;
    case OC_MB_BINOMIAL: nc = mr_binomial(P, v, ch, &parent); break;
    case OC_MB_TWOTREE: {
      int64_t pa, l, r, top1 = mr_tt_top(0, n - 1), x;
      nc = 0;
      if (v == 0) {
        parent = -1;
        ch[nc++] = 1 + ((j & 1) ? mr_tt_map(n, top1) : top1);
        break;
      }
      x = (j & 1) ? mr_tt_unmap(n, v - 1) : v - 1; /* v's node in T1 */
      mr_tt1(n, x, &pa, &l, &r);
      if (j & 1) {
        pa = pa < 0 ? -1 : mr_tt_map(n, pa);
        l = l < 0 ? -1 : mr_tt_map(n, l);
        r = r < 0 ? -1 : mr_tt_map(n, r);
      }
      parent = pa < 0 ? 0 : 1 + pa;
      if (l >= 0) ch[nc++] = 1 + l;
      if (r >= 0) ch[nc++] = 1 + r;
      break;
    }
    default: { /* OC_MB_MULTITREE */
      int64_t d = cfg->degree, t = j % d, inner = (n - 1 + d - 1) / d, x;
      nc = 0;
      if (v == 0) {
        parent = -1;
        ch[nc++] = 1 + mr_mt_id(n, d, t, 0);
        break;
      }
      x = mr_mt_pos(n, d, t, v - 1);
      parent = x == 0 ? 0 : 1 + mr_mt_id(n, d, t, (x - 1) / d);
      if (x < inner)
        for (int64_t c = d * x + 1; c <= d * x + d && c < n && nc < 64; c++)
          ch[nc++] = 1 + mr_mt_id(n, d, t, c);
      break;
    }
    }
    if (parent >= 0) e = mr_push(out, OC_MB_RECV, (parent + root) % P, lo, len);
    for (int64_t c = 0; c < nc && e == OC_OK; c++) {
      int64_t child = 0, when;
      if (cfg->alg == OC_MB_KARP) {
        if ((e = oc_bcast_child(bc, &bv, c, &child, &when)) != OC_OK) break;
      } else {
        child = ch[c];
      }
      e = mr_push(out, OC_MB_SEND, (child + root) % P, lo, len);
    }
  }
out:
  oc_bcast_free(bc);
  if (e != OC_OK) out->n = 0;
  return e;
}

void oc_mb_rank_free(oc_mb_rank *r) {
  if (r == NULL) return;
  free(r->step);
  memset(r, 0, sizeof *r);
}

/* ---- reduce and allreduce (oc_mreduce.c) ---------------------------------------
 * A reversed construction's view is its broadcast's run backwards: the
 * steps in reverse order, each reception a send (to the parent, of the
 * value the rank has added up for those packets) and each send a reception
 * (from that child, added).  Allreduce: the reduction to rank 0's view,
 * then the broadcast's.  (The reduction programs' own views follow.) */

/* ---- the reduction programs (oc_rpshape.c), rank by rank -----------------------
 * Each view walks the program's steps as oc_rpshape.c writes them and keeps
 * what rank x sends and receives: per step its sends, then its receptions,
 * which is the program's order (a rank combines what a step brings after
 * starting its own sends of the step).  The ranges are oc_rp_chunk_lo's. */

/* packets of chunks [lo, hi) of n */
static int rk_chunks(oc_mb_rank *r, int kind, int64_t peer, int64_t m, int64_t n, int64_t lo,
                     int64_t hi, int copy, int64_t hist) {
  int64_t a = oc_rp_chunk_lo(m, n, lo);
  return mr_push_full(r, kind, peer, a, oc_rp_chunk_lo(m, n, hi) - a, copy, hist);
}

/* a send and a reception of the same chunks with one partner */
static int rk_swap(oc_mb_rank *r, int64_t peer, int64_t m, int64_t n, int64_t slo, int64_t shi,
                   int64_t rlo, int64_t rhi, int copy) {
  int e = rk_chunks(r, OC_MB_SEND, peer, m, n, slo, shi, copy, -1);
  return e == OC_OK ? rk_chunks(r, OC_MB_RECV, peer, m, n, rlo, rhi, copy, -1) : e;
}

/* oc_rp_hybrid (s halving steps; recursive doubling is s = 0, Rabenseifner's
 * s = log2 pof2): the fold, halving, doubling of the share, doubling back,
 * the fold undone.  O(log P) steps. */
static int rk_hybrid(int64_t P, int64_t m, int64_t s, int64_t x, oc_mb_rank *r) {
  int64_t pof2 = 1, steps = 0, rem, nr, nch;
  int e = OC_OK;
  while (2 * pof2 <= P) { pof2 *= 2; steps++; }
  rem = P - pof2;
  if (s > steps) s = steps;
  if (s < 0) s = 0;
  nch = (int64_t)1 << s;
  nr = oc_rp_newrank(x, rem);
  if (x < 2 * rem)
    e = (x & 1) ? mr_push_full(r, OC_MB_RECV, x - 1, 0, m, 0, -1)
                : mr_push_full(r, OC_MB_SEND, x + 1, 0, m, 0, -1);
  for (int64_t k = 0, mask = 1; nr >= 0 && k < s && e == OC_OK; k++, mask *= 2) {
    int64_t a, b, mid;
    oc_rp_raben_range(nr, k, nch, &a, &b);
    mid = a + (b - a) / 2;
    e = (nr & mask) ? rk_swap(r, oc_rp_oldrank(nr ^ mask, rem), m, nch, a, mid, mid, b, 0)
                    : rk_swap(r, oc_rp_oldrank(nr ^ mask, rem), m, nch, mid, b, a, mid, 0);
  }
  for (int64_t mask = nch; nr >= 0 && mask < pof2 && e == OC_OK; mask *= 2) {
    int64_t a, b;
    oc_rp_raben_range(nr, s, nch, &a, &b);
    e = rk_swap(r, oc_rp_oldrank(nr ^ mask, rem), m, nch, a, b, a, b, 0);
  }
  for (int64_t k = s, mask = nch / 2; nr >= 0 && mask >= 1 && e == OC_OK; k--, mask /= 2) {
    int64_t a, b, pa, pb;
    oc_rp_raben_range(nr, k, nch, &a, &b);
    oc_rp_raben_range(nr ^ mask, k, nch, &pa, &pb);
    e = rk_swap(r, oc_rp_oldrank(nr ^ mask, rem), m, nch, a, b, pa, pb, 1);
  }
  if (e == OC_OK && x < 2 * rem)
    e = (x & 1) ? mr_push_full(r, OC_MB_SEND, x - 1, 0, m, 1, -1)
                : mr_push_full(r, OC_MB_RECV, x + 1, 0, m, 1, -1);
  return e;
}

/* the ring: P - 1 steps of reduce-scatter, P - 1 of allgather; in step k
 * rank x sends chunk x + o - k and receives chunk x + o - 1 - k (o = 0,
 * then 1), mod P.  With m < P only chunks 0 .. m-1 hold a packet, so the
 * walk jumps from step to the next that moves one: O(m) steps. */
static int64_t rk_ring_chunk(int64_t P, int64_t x, int64_t o, int64_t k) {
  return ((x + o - k) % P + 2 * P) % P;
}
static int64_t rk_ring_next(int64_t P, int64_t nne, int64_t x, int64_t o, int64_t k) {
  int64_t c = rk_ring_chunk(P, x, o, k);
  return c < nne ? k : k + (c - (nne - 1)); /* the chunk falls by one a step */
}
static int rk_ring(int64_t P, int64_t m, int64_t x, oc_mb_rank *r) {
  int64_t nne = m < P ? m : P;
  int e = OC_OK;
  for (int copy = 0; copy < 2 && e == OC_OK; copy++)
    for (int64_t k = 0; k < P - 1 && e == OC_OK; k++) {
      int64_t ks = rk_ring_next(P, nne, x, copy, k), kr = rk_ring_next(P, nne, x, copy - 1, k);
      int64_t cs, cr;
      k = ks < kr ? ks : kr;
      if (k >= P - 1) break;
      cs = rk_ring_chunk(P, x, copy, k);
      cr = rk_ring_chunk(P, x, copy - 1, k);
      e = rk_chunks(r, OC_MB_SEND, (x + 1) % P, m, P, cs, cs + 1, copy, -1);
      if (e == OC_OK) e = rk_chunks(r, OC_MB_RECV, (x - 1 + P) % P, m, P, cr, cr + 1, copy, -1);
    }
  return e;
}

/* binomial reduction to 0, then the binomial broadcast back */
static int rk_redbcast(int64_t P, int64_t m, int64_t x, oc_mb_rank *r) {
  int64_t low = x == 0 ? P : (x & -x), top = 1;
  int e = OC_OK;
  for (int64_t mask = 1; mask < P; mask *= 2) top = mask;
  for (int64_t mask = 1; mask < low && mask < P && e == OC_OK; mask *= 2)
    if (x + mask < P) e = mr_push_full(r, OC_MB_RECV, x + mask, 0, m, 0, -1);
  if (e == OC_OK && x > 0) e = mr_push_full(r, OC_MB_SEND, x - low, 0, m, 0, -1);
  if (e == OC_OK && x > 0) e = mr_push_full(r, OC_MB_RECV, x - low, 0, m, 1, -1);
  for (int64_t mask = top; mask >= 1 && P > 1 && e == OC_OK; mask /= 2)
    if (mask < low && x + mask < P) e = mr_push_full(r, OC_MB_SEND, x + mask, 0, m, 1, -1);
  return e;
}

static int rk_linear(int64_t P, int64_t m, int64_t x, oc_mb_rank *r) {
  int e = OC_OK;
  if (x > 0) {
    e = mr_push_full(r, OC_MB_SEND, 0, 0, m, 0, -1);
    return e == OC_OK ? mr_push_full(r, OC_MB_RECV, 0, 0, m, 1, -1) : e;
  }
  for (int64_t q = 1; q < P && e == OC_OK; q++) e = mr_push_full(r, OC_MB_RECV, q, 0, m, 0, -1);
  for (int64_t q = 1; q < P && e == OC_OK; q++) e = mr_push_full(r, OC_MB_SEND, q, 0, m, 1, -1);
  return e;
}

/* groups-circulant (oc_rp_groups) as allreduce, and its reduce form with
 * flip (groups_reduce in oc_mreduce.c; the form without flip is pruned,
 * oc_rprog_prune, and its view read off the whole program): x = g q + bb.  The direct reduce-scatter in the group,
 * then the circulant across the groups on chunk bb (its rounds from
 * oc_allreduce_rounds for P/q processors: O(P/q) memory for the round
 * search, the same for every rank) or, reduce with flip, Karp's tree for
 * P/q processors run backwards (its view, oc_mreduce_rank), then the
 * allgather in the group or the gather to the root.  hist as the program
 * writes it: after the reduce-scatter a rank has handled q - 1 messages of
 * each packet of its chunk, and one more per circulant round. */
static int rk_groups(const oc_params *p, int64_t root, int64_t m, int64_t q, int flip, int64_t x,
                     oc_mb_rank *r) {
  int64_t P = p->P, rr, g, bb, lo, c, rounds = 0, hs;
  int e = OC_OK, hist = root < 0 || !flip;
  if (q < 1 || q > m || P % q != 0) return OC_EINVAL;
  rr = P / q;
  g = x / q;
  bb = x % q;
  lo = oc_rp_chunk_lo(m, q, bb);
  c = oc_rp_chunk_lo(m, q, bb + 1) - lo;
  for (int64_t d = 1; d < q && e == OC_OK; d++) { /* the reduce-scatter */
    int64_t t = (bb + d) % q;
    e = rk_chunks(r, OC_MB_SEND, g * q + t, m, q, t, t + 1, 0, hist ? 0 : -1);
  }
  for (int64_t d = 1; d < q && e == OC_OK; d++)
    e = rk_chunks(r, OC_MB_RECV, g * q + (bb - d + q) % q, m, q, bb, bb + 1, 0, -1);
  if (e != OC_OK) return e;
  if (hist) { /* the circulant on chunk bb */
    oc_params cp = *p;
    int64_t *off = NULL, *pick = NULL, R = 0;
    cp.P = rr;
    if ((e = oc_allreduce_rounds(&cp, (m + q - 1) / q, &off, &pick, &R)) != OC_OK) return e;
    for (int64_t k = 0; k < R && e == OC_OK; k++) {
      if (pick[k] < 0) continue;
      e = mr_push_full(r, OC_MB_SEND, ((g + off[k]) % rr) * q + bb, lo, c, 0, q - 1 + pick[k]);
      if (e == OC_OK)
        e = mr_push_full(r, OC_MB_RECV, ((g - off[k] % rr + rr) % rr) * q + bb, lo, c, 0, -1);
      rounds++;
    }
    free(off);
    free(pick);
  } else if (rr > 1) { /* Karp's tree for rr processors backwards, on chunk bb */
    oc_params cp = *p;
    oc_mreduce_info kc;
    oc_mb_rank col;
    memset(&kc, 0, sizeof kc);
    memset(&col, 0, sizeof col);
    kc.family = OC_MR_REVERSED;
    kc.red.alg = OC_MB_KARP;
    kc.red.seg = 1;
    cp.P = rr;
    e = oc_mreduce_rank(&cp, root / q, c, &kc, g, &col);
    for (size_t i = 0; i < col.n && e == OC_OK; i++)
      e = mr_push_full(r, col.step[i].kind, col.step[i].peer * q + bb, lo + col.step[i].item,
                       col.step[i].len, 0, -1);
    oc_mb_rank_free(&col);
  }
  if (e != OC_OK) return e;
  hs = hist ? q - 1 + rounds : -1;
  if (root >= 0) { /* the gather in the root's group */
    if (g != root / q) return OC_OK;
    if (x != root) return mr_push_full(r, OC_MB_SEND, root, lo, c, 1, hs);
    for (int64_t d = 1; d < q && e == OC_OK; d++) { /* by member, as groups_reduce */
      int64_t from = g * q + (d - 1 < bb ? d - 1 : d);
      e = rk_chunks(r, OC_MB_RECV, from, m, q, from % q, from % q + 1, 1, -1);
    }
    return e;
  }
  for (int64_t d = 1; d < q && e == OC_OK; d++) /* the allgather */
    e = mr_push_full(r, OC_MB_SEND, g * q + (bb + d) % q, lo, c, 1, hs);
  for (int64_t d = 1; d < q && e == OC_OK; d++) {
    int64_t t = (bb - d + q) % q;
    e = rk_chunks(r, OC_MB_RECV, g * q + t, m, q, t, t + 1, 1, -1);
  }
  return e;
}

/* Karp et al.'s circulant for P processors with the m packets interleaved
 * (oc_allreduce_vector): in every round that sends, each packet's partial
 * result numbered pick goes to x + off, and x gets the same from x - off */
static int rk_circulant(const oc_params *p, int64_t m, int64_t x, oc_mb_rank *r) {
  int64_t *off = NULL, *pick = NULL, R = 0, P = p->P;
  int e;
  if (m > OC_LIBRED_MSGS_MAX) return OC_ERANGE;
  if ((e = oc_allreduce_rounds(p, m, &off, &pick, &R)) != OC_OK) return e;
  for (int64_t k = 0; k < R && e == OC_OK; k++) {
    if (pick[k] < 0) continue;
    e = mr_push_full(r, OC_MB_SEND, (x + off[k]) % P, 0, m, 0, pick[k]);
    if (e == OC_OK) e = mr_push_full(r, OC_MB_RECV, ((x - off[k]) % P + P) % P, 0, m, 0, -1);
  }
  free(off);
  free(pick);
  return e;
}

/* Karp et al.'s one-packet reduction (oc_reduce_rank): the children's
 * partial results in the order they arrive, then the send to the parent */
static int rk_karp(const oc_params *p, int64_t root, int64_t m, int64_t x, oc_mb_rank *r) {
  oc_reduce *red = NULL;
  oc_reduce_view v;
  int e;
  if (m != 1 || root < 0) return OC_EINVAL;
  if ((e = oc_reduce_new(&red, p, root, 0)) != OC_OK) return e;
  if ((e = oc_reduce_rank(red, x, &v)) == OC_OK)
    for (int64_t k = v.nchildren; k-- > 0 && e == OC_OK;) { /* child 0 sends last */
      int64_t child, when;
      if ((e = oc_reduce_child(red, &v, k, &child, &when)) == OC_OK)
        e = mr_push_full(r, OC_MB_RECV, child, 0, 1, 0, -1);
    }
  if (e == OC_OK && v.parent >= 0) e = mr_push_full(r, OC_MB_SEND, v.parent, 0, 1, 0, -1);
  oc_reduce_free(red);
  return e;
}

/* the broadcast constructions with a view of their own (oc_mbcast_rank) */
static int mb_has_view(oc_mbcast_alg a) {
  return a != OC_MB_SPLIT && a != OC_MB_SCATTER_RD && a != OC_MB_SCATTER_RING;
}

/* one packet, joined to the previous step when it continues it */
static int rk_push1(oc_mb_rank *r, int kind, int64_t peer, int64_t item, int copy, int64_t hist) {
  oc_mb_step *l = r->n > 0 ? &r->step[r->n - 1] : NULL;
  if (l != NULL && l->kind == kind && l->peer == peer && l->copy == copy && l->hist == hist &&
      l->item + l->len == item) {
    l->len++;
    return OC_OK;
  }
  return mr_push_full(r, kind, peer, item, 1, copy, hist);
}

/* Any program without a view of its own (the libraries' reduce programs,
 * rarest-first-spread, reversed split-binary and scatters): the whole
 * program is built (O(P m) work and memory: not a per-rank cost) and rank
 * x's part read off it - its sends in order, each after the receptions it
 * waits for (need), and its receptions in posted order, each after the
 * sends the program starts first (rsb): the order the simulator keeps. */
static int rk_whole(const oc_params *p, int64_t root, int64_t m, const oc_mreduce_info *cfg,
                    int64_t x, oc_mb_rank *r) {
  oc_rprog b;
  int64_t *rsrc = NULL;
  size_t nr, s0, ns, i = 0, k = 0;
  int e = oc_mreduce_prog(p, root, m, cfg, &b);
  if (e != OC_OK) goto out;
  nr = (size_t)b.nrecv[x];
  s0 = b.soff[x];
  ns = b.soff[x + 1] - s0;
  if ((rsrc = (int64_t *)malloc(2 * (nr + 1) * sizeof *rsrc)) == NULL) {
    e = OC_ENOMEM;
    goto out;
  }
  for (int64_t q = 0; q < b.P; q++) /* the senders of x's receive slots */
    for (size_t j = b.soff[q]; j < b.soff[q + 1]; j++)
      if (b.snd[j].dst == (uint32_t)x) {
        rsrc[2 * b.snd[j].rslot] = (int64_t)j;
        rsrc[2 * b.snd[j].rslot + 1] = q;
      }
  while ((i < ns || k < nr) && e == OC_OK) {
    if (i < ns && b.snd[s0 + i].need <= k) {
      const oc_rp_send *y = &b.snd[s0 + i++];
      e = rk_push1(r, OC_MB_SEND, y->dst, y->item, y->copy,
                   y->hist == OC_RP_NOHIST ? -1 : (int64_t)y->hist);
    } else if (k < nr && b.snd[rsrc[2 * k]].rsb <= i) {
      const oc_rp_send *y = &b.snd[rsrc[2 * k]];
      e = rk_push1(r, OC_MB_RECV, rsrc[2 * k + 1], y->item, y->copy, -1);
      k++;
    } else {
      e = OC_EINVALID; /* neither can go: the simulator would stall too */
    }
  }
out:
  free(rsrc);
  oc_rprog_free(&b);
  return e;
}

static int mr_prog_rank(const oc_params *p, int64_t root, int64_t m, const oc_mreduce_info *cfg,
                        int64_t x, oc_mb_rank *out) {
  int64_t P;
  int e;
  if (oc_params_check(p) != OC_OK) return OC_EINVAL;
  P = p->P;
  if (root >= P || x < 0 || x >= P || m < 1) return OC_EINVAL;
  out->n = 0;
  out->rank = x;
  switch (cfg->family) {
  case OC_MR_RD: e = root < 0 ? rk_hybrid(P, m, 0, x, out) : OC_EINVAL; break;
  case OC_MR_RABEN: e = root < 0 ? rk_hybrid(P, m, 62, x, out) : OC_EINVAL; break;
  case OC_MR_HYBRID: e = root < 0 && cfg->seg >= 0 ? rk_hybrid(P, m, cfg->seg, x, out) : OC_EINVAL; break;
  case OC_MR_RING: e = root < 0 ? rk_ring(P, m, x, out) : OC_EINVAL; break;
  case OC_MR_REDBCAST: e = root < 0 ? rk_redbcast(P, m, x, out) : OC_EINVAL; break;
  case OC_MR_LINEAR: e = root < 0 ? rk_linear(P, m, x, out) : OC_EINVAL; break;
  case OC_MR_GROUPS: /* the reduce form without flip is pruned (oc_rprog_prune) */
    e = root >= 0 && !cfg->flip ? rk_whole(p, root, m, cfg, x, out)
                                : rk_groups(p, root, m, cfg->seg, cfg->flip, x, out);
    break;
  case OC_MR_CIRCULANT: e = root < 0 ? rk_circulant(p, m, x, out) : OC_EINVAL; break;
  case OC_MR_KARP: e = rk_karp(p, root, m, x, out); break;
  default: e = rk_whole(p, root, m, cfg, x, out); break; /* LIBRED, SPREAD */
  }
  if (e != OC_OK) out->n = 0;
  return e;
}

/* The reversed two-tree.  Its broadcast view lists a rank's steps segment
 * by segment, alternating the trees, but the rank sits at different depths
 * in the two: in the broadcast's schedule, run backwards (the reduction
 * program the planner simulates), its sends of the tree where it is a leaf
 * come long before its steps at the same segment in the tree where it
 * relays.  Run backwards in segment order instead, each leaf send waits
 * behind the other tree's sends, which wait for that tree's subtree, and
 * the trees go in lock step (SMPI, P = 16, 1 MiB in 128 packets: 2849 us,
 * 125 in the program's order, 130 predicted).  So the steps are put in the
 * order of an estimate of their broadcast times, latest first: segment j
 * leaves the root at j G, a hop adds L + 2o and G for each sibling sent to
 * before (contention left out), a send to the k-th child leaves at the
 * rank's arrival + k G.  A message's estimate is its receiver's arrival,
 * worked out the same at both ends, so every rank takes the messages in
 * one global order (ties by packet, then sender) and none can wait on
 * another that waits on it (an estimate for each end, off by a hop that
 * was not the same for every pair, deadlocked: P = 6, m = 4, L = o = 1,
 * g = 5); a hop counts at least 1, so a rank receives a packet strictly
 * before it sends it on.  O(n log n + n log P) for n steps. */
typedef struct rk_key {
  int64_t t, item, src; /* the message's estimate, packets, (broadcast) sender */
  size_t i;
} rk_key;
/* latest first; ties: the later packets first, then the higher sender (one
 * order of all messages, the same at both ends: no two ranks wait for
 * each other) */
static int rk_key_cmp(const void *a, const void *b) {
  const rk_key *x = (const rk_key *)a, *y = (const rk_key *)b;
  if (x->t != y->t) return x->t > y->t ? -1 : 1;
  if (x->item != y->item) return x->item > y->item ? -1 : 1;
  return (x->src < y->src) - (x->src > y->src);
}
/* the estimated arrival of a segment at T1 position x after it left the root */
static int64_t rk_tt_delay(int64_t n, int64_t x, int64_t G, int64_t H) {
  int64_t lo = 0, hi = n - 1, d = H;
  for (;;) {
    int64_t r = mr_tt_top(lo, hi);
    if (lo == hi || x == r) return d;
    if (x < r) {
      hi = r - 1;
    } else { /* the right child: sent after the left one */
      lo = r + 1;
      d = oc_add_sat(d, G);
    }
    d = oc_add_sat(d, H);
  }
}
/* the estimated arrival of segment j at rank q (the root: when it leaves) */
static int64_t rk_tt_arrival(int64_t P, int64_t root, int64_t q, int64_t j, int64_t G,
                             int64_t H) {
  int64_t n = P - 1, v = (q - root + P) % P, t = oc_mul_sat(j, G);
  if (v == 0) return t;
  return oc_add_sat(t, rk_tt_delay(n, (j & 1) ? mr_tt_unmap(n, v - 1) : v - 1, G, H));
}
static int rk_tt_order(const oc_params *p, int64_t root, int64_t m, const oc_mbcast_info *cfg,
                       int64_t rank, const oc_mb_rank *b, rk_key **out) {
  int64_t P = p->P, G = oc_max64(p->g, p->o);
  /* at least 1 a hop: a rank's reception comes strictly before its sends */
  int64_t H = oc_max64(oc_add_sat(p->L, 2 * p->o), 1);
  int64_t s = (cfg->seg == 0 || cfg->seg > m) ? m : cfg->seg;
  rk_key *key = (rk_key *)malloc((b->n + 1) * sizeof *key);
  if (key == NULL) return OC_ENOMEM;
  for (size_t i = 0; i < b->n; i++) { /* a message's key: its receiver's arrival, at both ends */
    const oc_mb_step *st = &b->step[i];
    int64_t to = st->kind == OC_MB_RECV ? rank : st->peer;
    key[i].i = i;
    key[i].t = rk_tt_arrival(P, root, to, st->item / s, G, H);
    key[i].item = st->item;
    key[i].src = st->kind == OC_MB_RECV ? st->peer : rank;
  }
  qsort(key, b->n, sizeof *key, rk_key_cmp);
  *out = key;
  return OC_OK;
}

int oc_mreduce_rank(const oc_params *p, int64_t root, int64_t m, const oc_mreduce_info *cfg,
                    int64_t rank, oc_mb_rank *out) {
  oc_mb_rank b;
  int e;
  if (cfg == NULL || out == NULL || p == NULL || root < -1) return OC_EINVAL;
  if (cfg->family != OC_MR_REVERSED) return mr_prog_rank(p, root, m, cfg, rank, out);
  if (!mb_has_view(cfg->red.alg) || (root < 0 && !mb_has_view(cfg->bc.alg)) || cfg->whole) {
    if (oc_params_check(p) != OC_OK || rank < 0 || rank >= p->P) return OC_EINVAL;
    out->n = 0;
    out->rank = rank;
    e = rk_whole(p, root, m, cfg, rank, out); /* split-binary, the scatters; asked */
    if (e != OC_OK) out->n = 0;
    return e;
  }
  memset(&b, 0, sizeof b);
  if ((e = oc_mbcast_rank(p, root < 0 ? 0 : root, m, &cfg->red, rank, &b)) != OC_OK) {
    oc_mb_rank_free(&b);
    return e;
  }
  out->n = 0;
  out->rank = rank;
  if (cfg->red.alg == OC_MB_TWOTREE && p->P > 2) { /* latest estimated time first */
    rk_key *key = NULL;
    e = rk_tt_order(p, root < 0 ? 0 : root, m, &cfg->red, rank, &b, &key);
    for (size_t i = 0; i < b.n && e == OC_OK; i++) {
      const oc_mb_step *st = &b.step[key[i].i];
      e = mr_push_full(out, st->kind == OC_MB_SEND ? OC_MB_RECV : OC_MB_SEND, st->peer, st->item,
                       st->len, 0, -1);
    }
    free(key);
  } else {
    for (size_t i = b.n; i-- > 0 && e == OC_OK;)
      e = mr_push_full(out, b.step[i].kind == OC_MB_SEND ? OC_MB_RECV : OC_MB_SEND,
                       b.step[i].peer, b.step[i].item, b.step[i].len, 0, -1);
  }
  if (e == OC_OK && root < 0) { /* the broadcast from rank 0 */
    e = oc_mbcast_rank(p, 0, m, &cfg->bc, rank, &b);
    for (size_t i = 0; i < b.n && e == OC_OK; i++) /* flipped: packet i is m-1-i */
      e = mr_push(out, b.step[i].kind, b.step[i].peer,
                  cfg->flip ? m - b.step[i].item - b.step[i].len : b.step[i].item,
                  b.step[i].len);
  }
  oc_mb_rank_free(&b);
  if (e != OC_OK) out->n = 0;
  return e;
}
