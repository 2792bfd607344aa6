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
 * Constructions: karp, chain, binary, binomial, two-tree, multi-tree, and
 * rarest-first by its whole list schedule (O(P k^2), not per rank: see
 * mr_rarest); split-binary and the scatters: OC_EUNSUP.  The same run
 * backwards is a reduction's view (oc_mreduce_rank, at the end). */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"

static int mr_push(oc_mb_rank *r, int kind, int64_t peer, int64_t item, int64_t len) {
  oc_mb_step *x;
  if (len <= 0) return OC_OK;
  if (oc_grow((void **)&r->step, r->n, &r->cap, sizeof *r->step) != OC_OK) return OC_ENOMEM;
  x = &r->step[r->n++];
  x->kind = kind;
  x->peer = peer;
  x->item = item;
  x->len = len;
  return OC_OK;
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
  if (cfg->alg == OC_MB_SPLIT || cfg->alg == OC_MB_SCATTER_RD || cfg->alg == OC_MB_SCATTER_RING)
    return OC_EUNSUP;
  out->n = 0;
  out->rank = rank;
  if (P == 1) return OC_OK;
  v = (rank - root + P) % P; /* relative rank */
  n = P - 1;
  s = (cfg->seg == 0 || cfg->seg > m) ? m : cfg->seg;
  k = (m + s - 1) / s;
  if (cfg->alg == OC_MB_RAREST) return mr_rarest(p, root, m, s, cfg->pace, v, out);
  if (cfg->alg == OC_MB_MULTITREE && (cfg->degree < 2 || cfg->degree > n)) return OC_EINVAL;
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
 * then the broadcast's.  The library programs and the circulant have no
 * view here (OC_EUNSUP). */
int oc_mreduce_rank(const oc_params *p, int64_t root, int64_t m, const oc_mreduce_info *cfg,
                    int64_t rank, oc_mb_rank *out) {
  oc_mb_rank b;
  int e;
  if (cfg == NULL || out == NULL || p == NULL || root < -1) return OC_EINVAL;
  if (cfg->family != OC_MR_REVERSED) return OC_EUNSUP;
  memset(&b, 0, sizeof b);
  if ((e = oc_mbcast_rank(p, root < 0 ? 0 : root, m, &cfg->red, rank, &b)) != OC_OK) {
    oc_mb_rank_free(&b);
    return e;
  }
  out->n = 0;
  for (size_t i = b.n; i-- > 0 && e == OC_OK;)
    e = mr_push(out, b.step[i].kind == OC_MB_SEND ? OC_MB_RECV : OC_MB_SEND, b.step[i].peer,
                b.step[i].item, b.step[i].len);
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
