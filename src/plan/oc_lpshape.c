/* oc_lpshape.c - the shapes of multi-packet LogP broadcasts, written as
 * send programs (oc_lprog.c times them): the MPI libraries' trees, chain,
 * split binary tree and scatter + allgather, and the planner's own two-tree
 * and Karp-tree programs.  Every shape writes the programs of relative ranks
 * 0 .. P-1 (relative rank v is rank (v + root) mod P) in that order. */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"
#include "plan/oc_theap.h"

#define LP_CHILDREN_MAX OC_LP_CHILDREN_MAX

/* ---- trees ---------------------------------------------------------------------
 * Children of relative rank v, in send order; returns how many (<= cap). */
typedef int64_t (*lp_children_fn)(int64_t P, int64_t v, int64_t k, int64_t *ch,
                                  int64_t cap);

/* chain: v -> v + 1 */
static int64_t lp_ch_chain(int64_t P, int64_t v, int64_t k, int64_t *ch, int64_t cap) {
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
static int64_t lp_ch_binary(int64_t P, int64_t v, int64_t k, int64_t *ch, int64_t cap) {
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
static int64_t lp_ch_knomial(int64_t P, int64_t v, int64_t k, int64_t *ch, int64_t cap) {
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
 * power of two this is the mirror image of lp_ch_knomial with k = 2; for
 * other P the subtrees differ (P = 6: {1,3,5}, {2}, {4} here, {4,5}, {2,3},
 * {1} for MPICH's). */
static int64_t lp_ch_bmtree(int64_t P, int64_t v, int64_t k, int64_t *ch, int64_t cap) {
  int64_t bit = 1, n = 0;
  (void)k;
  while (bit <= v) bit *= 2; /* the first bit above v's highest */
  for (; v + bit < P; bit *= 2)
    if (n < cap) ch[n++] = v + bit;
  return n;
}

/* the tree program: for each segment, to each child (Open MPI's generic
 * segmented tree broadcast; unsegmented with seg <= 0) */
static const lp_children_fn LP_CHILDREN[] = {lp_ch_chain, lp_ch_binary, lp_ch_knomial,
                                             lp_ch_bmtree};

int64_t oc_lp_children(oc_lp_shape shape, int64_t P, int64_t v, int64_t k, int64_t *ch,
                       int64_t cap) {
  if (shape < OC_LP_CHAIN || shape > OC_LP_BMTREE) return 0;
  return LP_CHILDREN[shape](P, v, k, ch, cap);
}

void oc_lp_tree(oc_lprog *b, oc_lp_shape shape, int64_t k, int64_t seg) {
  int64_t ch[LP_CHILDREN_MAX];
  lp_children_fn fn = LP_CHILDREN[shape];
  for (int64_t v = 0; v < b->P; v++) {
    int64_t nc = fn(b->P, v, k, ch, LP_CHILDREN_MAX);
    oc_lprog_begin(b, v); /* programs are written by relative rank */
    for (int64_t j = 0; j < oc_lp_nsegs(0, b->m, seg); j++)
      for (int64_t c = 0; c < nc; c++) oc_lp_emit_seg(b, ch[c], 0, b->m, seg, j);
  }
}

/* Open MPI basic_linear: the root sends the whole message to every rank in
 * rank order */
void oc_lp_linear(oc_lprog *b) {
  for (int64_t v = 0; v < b->P; v++) {
    oc_lprog_begin(b, v);
    if (v == 0)
      for (int64_t r = 0; r < b->P; r++)
        if (r != b->root) oc_lp_emit(b, (r - b->root + b->P) % b->P, 0, b->m);
  }
}

/* Open MPI's split binary tree (coll_base_bcast.c, split_bintree): the
 * message is cut in two halves (the first one packet larger when m is odd);
 * the root sends the first half down its left subtree (odd relative ranks)
 * and the second down its right subtree (even ones), segment by segment,
 * alternating; then v and v + 1 (v odd) exchange their halves.  When P is
 * even the last odd rank has no partner and gets the second half from the
 * root.  With m = 1 there is nothing to split: the chain. */
void oc_lp_split(oc_lprog *b, int64_t seg) {
  int64_t ch[LP_CHILDREN_MAX], cap = LP_CHILDREN_MAX;
  int64_t h0 = (b->m + 1) / 2;
  if (b->m < 2) {
    oc_lp_tree(b, OC_LP_CHAIN, 1, seg);
    return;
  }
  for (int64_t v = 0; v < b->P; v++) {
    int64_t nc = lp_ch_binary(b->P, v, 2, ch, cap);
    oc_lprog_begin(b, v);
    if (v == 0) {
      int64_t n0 = oc_lp_nsegs(0, h0, seg), n1 = oc_lp_nsegs(h0, b->m, seg);
      for (int64_t j = 0; j < oc_max64(n0, n1); j++) {
        if (nc > 0 && j < n0) oc_lp_emit_seg(b, ch[0], 0, h0, seg, j);
        if (nc > 1 && j < n1) oc_lp_emit_seg(b, ch[1], h0, b->m, seg, j);
      }
      if (b->P % 2 == 0 && b->P > 1) oc_lp_emit(b, b->P - 1, h0, b->m - h0);
    } else {
      int64_t lo = (v & 1) ? 0 : h0, hi = (v & 1) ? h0 : b->m;
      int64_t pair = (v & 1) ? v + 1 : v - 1;
      for (int64_t j = 0; j < oc_lp_nsegs(lo, hi, seg); j++)
        for (int64_t c = 0; c < nc; c++) oc_lp_emit_seg(b, ch[c], lo, hi, seg, j);
      if (pair >= 1 && pair < b->P) oc_lp_emit(b, pair, lo, hi - lo);
    }
  }
}

/* ---- scatter + allgather (MPICH) -------------------------------------------------
 * The message is cut into P chunks of ss = ceil(m/P) packets, chunk v for
 * relative rank v (the last ones may be short or empty).  Items of chunks
 * [a, b): [a ss, b ss) clipped to m. */
static int64_t lp_chunk_at(const oc_lprog *b, int64_t c, int64_t ss) {
  return oc_min64(oc_mul_sat(c, ss), b->m);
}
static void lp_emit_chunks(oc_lprog *b, int64_t dst, int64_t a, int64_t e, int64_t ss) {
  int64_t lo = lp_chunk_at(b, a, ss), hi = lp_chunk_at(b, e, ss);
  oc_lp_emit(b, dst, lo, hi - lo);
}

/* MPICH's binomial scatter (MPII_Scatter_for_bcast): v receives the chunks
 * of its binomial subtree [v, v + lowbit(v)) and passes on the chunks of
 * each child's subtree, the largest subtree first. */
static void lp_scatter(oc_lprog *b, int64_t v, int64_t ss) {
  int64_t mask = 1;
  while (mask < b->P && !(v & mask)) mask *= 2; /* v's lowest bit (root: >= P) */
  for (mask /= 2; mask > 0; mask /= 2)
    if (v + mask < b->P) lp_emit_chunks(b, v + mask, v + mask, oc_min64(v + 2 * mask, b->P), ss);
}

/* Recursive-doubling allgather of the chunks (MPICH's
 * scatter_recursive_doubling_allgather): in step i (mask = 2^i) v sends the
 * chunks of its subtree [t, t + mask), t = v with the low i bits cleared, to
 * v ^ mask.  When P is not a power of two, v ^ mask may not exist; then the
 * processes of the lower subtree that did get the partner subtree's chunks
 * (the first P - t - mask of them) pass them on to the others of their
 * subtree, doubling the holders each round (MPICH does this with a tree of
 * sends over the same processes; this ordering is ours). */
static void lp_rd(oc_lprog *b, int64_t v, int64_t ss) {
  for (int64_t mask = 1; mask < b->P; mask *= 2) {
    int64_t t = v & ~(mask - 1), d = v ^ mask;
    if (d < b->P) lp_emit_chunks(b, d, t, t + mask, ss);
    if (!(v & mask)) { /* lower subtree: is the upper one incomplete? */
      int64_t up = t + mask, have = b->P - up; /* holders: offsets < have */
      if (have > 0 && have < mask) {
        int64_t x = v - t;
        for (int64_t cnt = have; cnt < mask; cnt *= 2)
          if (x < cnt && x + cnt < mask)
            lp_emit_chunks(b, t + x + cnt, up, oc_min64(up + mask, b->P), ss);
      }
    }
  }
}

/* Ring allgather of the chunks (MPICH's scatter_ring_allgather): in step
 * i = 0 .. P-2, v sends chunk v - i (mod P) to v + 1.  Only the first nc
 * chunks hold data; the steps that carry one are, in order, i = v - c for
 * c = min(v, nc-1) .. max(0, v-P+2), then i = v - c + P for c = nc-1 ..
 * v+2 (step P-1 does not exist): O(nc) per processor, not O(P). */
static void lp_ring(oc_lprog *b, int64_t v, int64_t ss) {
  int64_t nc = oc_min64(b->P, (b->m + ss - 1) / ss), right = (v + 1) % b->P;
  for (int64_t c = oc_min64(v, nc - 1); c >= oc_max64(0, v - b->P + 2); c--)
    lp_emit_chunks(b, right, c, c + 1, ss);
  for (int64_t c = nc - 1; c > v + 1; c--) lp_emit_chunks(b, right, c, c + 1, ss);
}

void oc_lp_scatter_allgather(oc_lprog *b, int ring) {
  int64_t ss = (b->m + b->P - 1) / b->P;
  for (int64_t v = 0; v < b->P; v++) {
    oc_lprog_begin(b, v);
    lp_scatter(b, v, ss);
    if (ring) lp_ring(b, v, ss);
    else lp_rd(b, v, ss);
  }
}

/* ---- two-tree (Sanders, Speck & Traeff 2009) ----------------------------------
 * The n = P - 1 non-root processors (ids 0..n-1, relative rank id + 1) span
 * two binary trees.  T1 numbers its nodes in order, so that every leaf has
 * an even id and every inner node an odd one; T2 is T1 mirrored (id ->
 * n-1-id) when n is even and shifted (id -> id+1 mod n) when n is odd, so
 * that no processor is an inner node of both (with n odd, id 0 is a leaf of
 * both).  Segment j goes from the root to the top of tree j mod 2 and down
 * that tree.  Per two segments a processor receives two and sends at most
 * two: its period is max(g, 2o) a segment, the chain's, at depth
 * O(log P) instead of P.  The segment order within a processor is the
 * segments' order; the simulator interleaves its receptions. */
static int64_t lp_tt_build(int64_t lo, int64_t hi, int64_t *left, int64_t *right) {
  int64_t len = hi - lo + 1, r;
  if (len == 1) return lo;
  r = lo + 1 + 2 * ((len - 2) / 4); /* odd offset: left part [lo, r-1] odd-sized */
  left[r] = lp_tt_build(lo, r - 1, left, right);
  right[r] = r + 1 <= hi ? lp_tt_build(r + 1, hi, left, right) : -1;
  return r;
}

static int64_t lp_tt_map(int64_t n, int64_t id) { /* T1 id -> T2 id */
  if (id < 0) return -1;
  return (n % 2 == 0) ? n - 1 - id : (id + 1) % n;
}

int oc_lp_twotree(oc_lprog *b, int64_t seg) {
  int64_t n = b->P - 1, top1, top2, *left, *right;
  if (n < 1) { /* one processor: nothing to send */
    oc_lprog_begin(b, 0);
    return OC_OK;
  }
  left = (int64_t *)malloc((size_t)n * sizeof *left);
  right = (int64_t *)malloc((size_t)n * sizeof *right);
  if (left == NULL || right == NULL) {
    free(left);
    free(right);
    return OC_ENOMEM;
  }
  for (int64_t i = 0; i < n; i++) left[i] = right[i] = -1;
  top1 = lp_tt_build(0, n - 1, left, right); /* recursion depth O(log n) */
  top2 = lp_tt_map(n, top1);
  oc_lprog_begin(b, 0);
  for (int64_t j = 0; j < oc_lp_nsegs(0, b->m, seg); j++)
    oc_lp_emit_seg(b, 1 + ((j & 1) ? top2 : top1), 0, b->m, seg, j);
  for (int64_t id = 0; id < n; id++) {
    /* id is x in T1; in T2 it is the image of y with lp_tt_map(y) = id */
    int64_t y = (n % 2 == 0) ? n - 1 - id : (id + n - 1) % n;
    int64_t c1[2] = {left[id], right[id]};
    int64_t c2[2] = {lp_tt_map(n, left[y]), lp_tt_map(n, right[y])};
    oc_lprog_begin(b, id + 1);
    for (int64_t j = 0; j < oc_lp_nsegs(0, b->m, seg); j++) {
      const int64_t *c = (j & 1) ? c2 : c1;
      for (int k = 0; k < 2; k++)
        if (c[k] >= 0) oc_lp_emit_seg(b, 1 + c[k], 0, b->m, seg, j);
    }
  }
  free(left);
  free(right);
  return OC_OK;
}

/* ---- Karp's tree, segment by segment -------------------------------------------
 * The optimal single-item tree (oc_bcast, Karp et al. Thm 2.1) for a
 * segment of s packets sent as one long message: L' = L + (s-1)G, g' = sG
 * (a long message keeps its sender sG and is usable L + 2o + (s-1)G after
 * it starts).  Every processor forwards segment 0, 1, ... to its children
 * in the tree's send order.  s = m is the tree for the whole message, s = 1
 * the single-item tree pipelined packet by packet. */
int oc_lp_karp_tree(const oc_params *p, int64_t s, oc_bcast **out) {
  return oc_lp_pipeline_tree(p, s, 1, out);
}

int oc_lp_pipeline_tree(const oc_params *p, int64_t s, int64_t k, oc_bcast **out) {
  oc_params q;
  int64_t G = oc_max64(p->g, p->o);
  int e;
  if (oc_mul_sat(oc_mul_sat(k, s), G) > OC_PARAM_MAX ||
      oc_add_sat(p->L, oc_mul_sat(s - 1, G)) > OC_PARAM_MAX)
    return OC_ERANGE;
  if ((e = oc_params_logp(&q, p->P, p->L + (s - 1) * G, p->o, k * s * G)) != OC_OK) return e;
  return oc_bcast_new(out, &q, 0, OC_BCAST_KARP); /* relative ranks */
}

/* Karp's tree segment by segment (stream 0), or the pipeline (stream 1) */
static int lp_karp_tree_prog(oc_lprog *b, const oc_params *p, int64_t seg, int stream) {
  oc_bcast *bc = NULL;
  oc_sched tree;
  size_t *first = NULL, *cnt = NULL, *kids = NULL;
  int64_t s = seg <= 0 ? b->m : oc_min64(seg, b->m), k = oc_lp_nsegs(0, b->m, s);
  int e;
  oc_sched_init(&tree);
  if ((e = oc_lp_pipeline_tree(p, s, stream ? k : 1, &bc)) != OC_OK) goto out;
  if ((e = oc_bcast_schedule(bc, &tree)) != OC_OK) goto out;
  if ((e = oc_sched_sort(&tree)) != OC_OK) goto out; /* each sender's children in order */
  first = (size_t *)calloc((size_t)b->P + 1, sizeof *first);
  cnt = (size_t *)calloc((size_t)b->P + 1, sizeof *cnt);
  kids = (size_t *)malloc((tree.n + 1) * sizeof *kids);
  if (first == NULL || cnt == NULL || kids == NULL) {
    e = OC_ENOMEM;
    goto out;
  }
  for (size_t i = 0; i < tree.n; i++) first[tree.msg[i].src + 1]++;
  for (int64_t v = 0; v < b->P; v++) first[v + 1] += first[v];
  for (size_t i = 0; i < tree.n; i++) {
    int64_t v = tree.msg[i].src;
    kids[first[v] + cnt[v]++] = (size_t)tree.msg[i].dst;
  }
  for (int64_t v = 0; v < b->P; v++) {
    oc_lprog_begin(b, v);
    if (stream) /* each child the whole stream in turn */
      for (size_t c = first[v]; c < first[v + 1]; c++)
        for (int64_t j = 0; j < k; j++) oc_lp_emit_seg(b, (int64_t)kids[c], 0, b->m, s, j);
    else
      for (int64_t j = 0; j < k; j++)
        for (size_t c = first[v]; c < first[v + 1]; c++)
          oc_lp_emit_seg(b, (int64_t)kids[c], 0, b->m, s, j);
  }
out:
  free(first);
  free(cnt);
  free(kids);
  oc_bcast_free(bc);
  oc_sched_free(&tree);
  return e;
}

int oc_lp_karp(oc_lprog *b, const oc_params *p, int64_t seg) {
  return lp_karp_tree_prog(b, p, seg, 0);
}

int oc_lp_pipeline(oc_lprog *b, const oc_params *p, int64_t seg) {
  return lp_karp_tree_prog(b, p, seg, 1);
}

/* ---- d trees with disjoint inner nodes ---------------------------------------
 * Our generalisation of the two-tree to d trees (the idea of interior-
 * disjoint trees is also SplitStream's, Castro et al. 2003): tree t (0 <= t
 * < d) is a d-ary heap over the n = P - 1 non-root processors (ids 0..n-1,
 * relative rank id + 1) listed as the ids = t mod d first, then the others
 * in order; its inner positions are the first ceil((n-1)/d), so its inner
 * nodes are ids = t mod d (and, when that class is short, the first few of
 * the others).  Segment j goes from the root to the top of tree j mod d and
 * down it.  Per d segments a processor receives d and sends about d: the
 * period is max(g, 2o) a segment, the depth log_d(P) levels of h + (d-1)G.
 * For large L against G (wide trees pay) this beats the binary two-tree.
 * Memory O(d n) for the trees' orders (d <= m keeps it within O(P m)). */
static int64_t lp_mt_id(int64_t n, int64_t d, int64_t t, int64_t pos) {
  int64_t c = (n - t + d - 1) / d; /* ids = t mod d below n */
  if (pos < c) return t + pos * d;
  pos -= c; /* the pos-th id not = t mod d: d-1 of them in each block of d */
  {
    int64_t blk = pos / (d - 1), r = pos % (d - 1), id = blk * d + r;
    if (r >= t) id++; /* skip the block's id = t */
    return id;
  }
}

int oc_lp_multitree(oc_lprog *b, int64_t d, int64_t seg) {
  int64_t n = b->P - 1, inner, nseg = oc_lp_nsegs(0, b->m, seg);
  int64_t *pos; /* pos[t * n + id]: id's position in tree t */
  if (n < 1) {
    oc_lprog_begin(b, 0);
    return OC_OK;
  }
  if (d < 2 || d > n) return OC_EINVAL;
  inner = (n - 1 + d - 1) / d;
  pos = (int64_t *)malloc((size_t)(d * n) * sizeof *pos);
  if (pos == NULL) return OC_ENOMEM;
  for (int64_t t = 0; t < d; t++)
    for (int64_t x = 0; x < n; x++) pos[t * n + lp_mt_id(n, d, t, x)] = x;
  oc_lprog_begin(b, 0);
  for (int64_t j = 0; j < nseg; j++) oc_lp_emit_seg(b, 1 + lp_mt_id(n, d, j % d, 0), 0, b->m, seg, j);
  for (int64_t id = 0; id < n; id++) {
    oc_lprog_begin(b, id + 1);
    for (int64_t j = 0; j < nseg; j++) {
      int64_t t = j % d, x = pos[t * n + id];
      if (x >= inner) continue;
      for (int64_t c = d * x + 1; c <= d * x + d && c < n; c++)
        oc_lp_emit_seg(b, 1 + lp_mt_id(n, d, t, c), 0, b->m, seg, j);
    }
  }
  free(pos);
  return OC_OK;
}

/* ---- rarest segment first --------------------------------------------------------
 * Our construction for a few segments on many processors with L large against
 * o (where the d-ary multi-tree is too deep and Karp's tree for the whole
 * message too slow at each hop).  Segment u reaches the non-root processors
 * in a fixed order, the rotation starting at u n / k of 1..n (k segments,
 * n = P - 1), so different segments have different early receivers, and the
 * early receivers are the ones that forward it most.  A greedy list
 * schedule under a simplified clock (a send of s packets keeps its sender
 * sG and is usable h + (s-1)G after it starts; receive overheads are left
 * to the simulator) decides who sends what: whenever a processor is free it
 * sends, of the segments it holds that someone still lacks, the one fewest
 * processors hold (ties: the lower segment) to the next processor in that
 * segment's order.  With one segment this is Karp's greedy tree; with k it
 * shares every processor's sends among the segments like k interior-disjoint
 * Karp trees.  The simulator (oc_lprog.c) times the programs it writes.
 * Work O(P k^2 + P k log P), memory O(P k): planners use it for k <= OC_LP_RAREST_MAX.
 * Spread (oc_lp_rarest_spread, for reduce and allreduce, oc_mreduce.c):
 * segment u starts at relative rank u P / k alone, and the orders run over
 * all P ranks, so every segment has its own source. */
/* where segment u's order starts among n ranks (k segments); in a spread, its
 * source.  u < k <= OC_LP_RAREST_MAX and n < 2^26: no overflow */
static int64_t lp_seg_start(int64_t u, int64_t n, int64_t k) { return u * n / k; }

/* v wakes at time t (an earlier wake-up of v, if any, is superseded) */
static int lp_wake(oc_hent **heap, size_t *hn, size_t *hcap, int64_t *wake, int64_t v, int64_t t) {
  if (*hn + 1 > *hcap) {
    oc_hent *x = (oc_hent *)realloc(*heap, 2 * *hcap * sizeof *x);
    if (x == NULL) return OC_ENOMEM;
    *heap = x;
    *hcap *= 2;
  }
  wake[v] = t;
  *hn = oc_theap_push(*heap, *hn, t, v);
  return OC_OK;
}

int oc_lp_rarest_ops(const oc_params *p, int64_t m, int64_t seg, int spread, int64_t release,
                     oc_lp_gop **out, size_t *nout) {
  int64_t P = p->P, n = spread ? P : P - 1, s = (seg <= 0 || seg > m) ? m : seg;
  int64_t first = spread ? 0 : 1; /* segment orders run over first .. first + n - 1 */
  int64_t k = oc_lp_nsegs(0, m, s), G = oc_max64(p->g, p->o), h = p->L + 2 * p->o;
  int64_t *ready = NULL, *cur = NULL, *wake = NULL, *start = NULL;
  size_t nops = 0, hn = 0, hcap;
  oc_lp_gop *ops = NULL;
  oc_hent *heap = NULL;
  int e = OC_OK;
  *out = NULL;
  *nout = 0;
  if (k > OC_LP_RAREST_MAX) return OC_ERANGE;
  if (P < 2) return OC_OK;
  hcap = (size_t)P + 16;
  ready = (int64_t *)malloc((size_t)(P * k) * sizeof *ready);
  cur = (int64_t *)calloc((size_t)k, sizeof *cur);
  start = (int64_t *)malloc((size_t)k * sizeof *start);
  wake = (int64_t *)malloc((size_t)P * sizeof *wake);
  ops = (oc_lp_gop *)malloc((size_t)(n * k) * sizeof *ops);
  heap = (oc_hent *)malloc(hcap * sizeof *heap);
  if (ready == NULL || cur == NULL || start == NULL || wake == NULL || ops == NULL ||
      heap == NULL) {
    e = OC_ENOMEM;
    goto out;
  }
  for (int64_t i = 0; i < P * k; i++) ready[i] = INT64_MAX;
  for (int64_t v = 0; v < P; v++) wake[v] = INT64_MAX;
  for (int64_t u = 0; u < k; u++) {
    start[u] = lp_seg_start(u, n, k);
    if (spread) { /* segment u starts at the first of its order, alone */
      int64_t v = start[u];
      ready[v * k + u] = 0;
      cur[u] = 1;
      if (wake[v] != 0) {
        wake[v] = 0;
        hn = oc_theap_push(heap, hn, 0, v);
      }
    } else {
      ready[u] = oc_mul_sat(u * s, release); /* the root holds them all */
    }
  }
  if (!spread) {
    wake[0] = 0;
    hn = oc_theap_push(heap, hn, 0, 0);
  }
  while (hn > 0) {
    int64_t t = heap[0].key, v = heap[0].proc, best = -1, next = INT64_MAX;
    hn = oc_theap_pop(heap, hn);
    if (t != wake[v]) continue; /* superseded */
    wake[v] = INT64_MAX;
    for (int64_t u = 0; u < k; u++) {
      int64_t r = ready[v * k + u];
      if (r == INT64_MAX || cur[u] >= n) continue;
      if (r > t) {
        if (r < next) next = r;
      } else if (best < 0 || cur[u] < cur[best]) {
        best = u;
      }
    }
    if (best >= 0) {
      int64_t len = oc_min64(m, (best + 1) * s) - best * s;
      int64_t dst = first + (start[best] + cur[best]++) % n, r = t + h + (len - 1) * G;
      ops[nops].src = v;
      ops[nops].dst = dst;
      ops[nops++].u = best;
      ready[dst * k + best] = r;
      next = t + len * G; /* free again; maybe more to send */
      if (r < wake[dst]) {
        if ((e = lp_wake(&heap, &hn, &hcap, wake, dst, r)) != OC_OK) goto out;
      }
    }
    if (next != INT64_MAX) {
      if ((e = lp_wake(&heap, &hn, &hcap, wake, v, next)) != OC_OK) goto out;
    }
  }
  *out = ops;
  *nout = nops;
  ops = NULL;
out:
  free(ready);
  free(cur);
  free(start);
  free(wake);
  free(ops);
  free(heap);
  return e;
}

static int lp_rarest(oc_lprog *b, const oc_params *p, int64_t seg, int spread) {
  int64_t P = b->P, m = b->m, s = (seg <= 0 || seg > m) ? m : seg, k = oc_lp_nsegs(0, m, s);
  oc_lp_gop *ops = NULL, *by = NULL;
  size_t nops = 0, *cnt = NULL;
  int e;
  if (k > OC_LP_RAREST_MAX) return OC_ERANGE;
  if (P < 2) {
    oc_lprog_begin(b, 0);
    return OC_OK;
  }
  if (spread) { /* segment u starts at its order's first rank (oc_lp_rarest_ops) */
    if (b->src == NULL && (b->src = (int64_t *)malloc((size_t)m * sizeof *b->src)) == NULL)
      return OC_ENOMEM;
    for (int64_t u = 0; u < k; u++)
      for (int64_t i = u * s; i < oc_min64(m, (u + 1) * s); i++)
        b->src[i] = oc_lp_act(b, lp_seg_start(u, P, k));
  }
  if ((e = oc_lp_rarest_ops(p, m, s, spread, b->release, &ops, &nops)) != OC_OK) return e;
  /* the programs, by relative rank, each in the order its sends were decided */
  cnt = (size_t *)calloc((size_t)P + 1, sizeof *cnt);
  by = (oc_lp_gop *)malloc((nops + 1) * sizeof *by);
  if (cnt == NULL || by == NULL) {
    e = OC_ENOMEM;
    goto out;
  }
  for (size_t i = 0; i < nops; i++) cnt[ops[i].src + 1]++;
  for (int64_t v = 0; v < P; v++) cnt[v + 1] += cnt[v];
  for (size_t i = 0; i < nops; i++) by[cnt[ops[i].src]++] = ops[i];
  for (size_t i = 0, v = 0; v < (size_t)P; v++) {
    oc_lprog_begin(b, (int64_t)v);
    for (; i < nops && by[i].src == (int64_t)v; i++) oc_lp_emit_seg(b, by[i].dst, 0, m, s, by[i].u);
  }
out:
  free(ops);
  free(by);
  free(cnt);
  return e;
}

int oc_lp_rarest(oc_lprog *b, const oc_params *p, int64_t seg) { return lp_rarest(b, p, seg, 0); }

int oc_lp_rarest_spread(oc_lprog *b, const oc_params *p, int64_t seg) {
  return lp_rarest(b, p, seg, 1);
}

/* ---- circulant broadcast ---------------------------------------------------------
 * Traff's round-optimal broadcast (arXiv 2312.11236; the per-rank schedule
 * in oc_circsched.c): q = ceil(log2 P) skips, s_q = P and s_k = ceil(s_{k+1} /
 * 2) (so s_0 = 1); in round i (slot k = i mod q) every relative rank r
 * receives from r - s_k and sends to r + s_k (mod P).  R_r[k] is the block r
 * receives in slot k of phase 0, R_r[k] + f q in phase f.  A stream of n
 * blocks takes exactly n - 1 + q rounds: rounds i = x .. x + n - 2 + q with
 * x = (q - (n-1) mod q) mod q, in round i block R_r[k] + i - k - x, none
 * when negative, and n - 1 when past it.  (Past it happens once per rank,
 * in the last phase at r's base block's slot; every other reception of the
 * last phase is a block below n - 1, so nothing is received twice, and the
 * sender got its own n - 1 in an earlier slot of that phase: the tests
 * check it, with every rule, by the verifier.)  In LogP a round is about
 * L + 2o long, so ns interleaved streams (segment j in stream j mod ns)
 * keep a processor sending every max(g, 2o); each round has a fixed slot
 * (oc_lp_circ_streams) and the programs say so (oc_lp_emit_at). */

int oc_lp_circ_skips(int64_t P, int variant, int64_t *s) {
  int q = 0;
  while (((int64_t)1 << q) < P) q++;
  s[q] = P;
  for (int k = q - 1; k >= 0; k--) s[k] = variant == 0 ? (s[k + 1] + 1) / 2 : (int64_t)1 << k;
  return q;
}

int oc_lp_circ_table(int64_t P, int64_t *s, int *q, int8_t **R) {
  int row[64], e = OC_OK;
  *q = oc_lp_circ_skips(P, 0, s);
  *R = NULL;
  if (P < 2) return OC_OK;
  if (oc_mul_sat(P, (int64_t)*q * (*q + 1)) > OC_LP_CIRC_WORK) return OC_ERANGE; /* too costly */
  if ((*R = (int8_t *)calloc((size_t)(P * *q), 1)) == NULL) return OC_ENOMEM;
  for (int64_t r = 1; r < P && e == OC_OK; r++)
    if ((e = oc_circ_recv(P, *q, s, r, row)) == OC_OK)
      for (int k = 0; k < *q; k++) (*R)[r * *q + k] = (int8_t)row[k];
  if (e != OC_OK) {
    free(*R);
    *R = NULL;
  }
  return e;
}

int64_t oc_lp_circ_first(int q, int64_t n) { return (q - (n - 1) % q) % q; }

int64_t oc_lp_circ_block(int q, int rk, int64_t n, int64_t i) {
  int64_t x = oc_lp_circ_first(q, n), v = rk + (i - i % q) - x;
  if (n < 1 || i < x || i > x + n - 2 + q || v < 0) return -1;
  return v > n - 1 ? n - 1 : v;
}

/* Slots for ns streams of segments of s packets: phases ph[0..ns) in a round
 * of D.  A segment sent at phase f keeps its sender busy os = o + sx at
 * f + iG and its receiver o at f + os + L + iG (i < s, mod D; G = max(g, os));
 * its sender's next send starts sG later, its receiver's next reception sG
 * later; it is usable h + (s-1)G after f, h = L + os + o, so D >= h + (s-1)G
 * lets a block received in one round go on in the next.  Every processor
 * sends and receives in every phase, so two phases f and c may share a
 * round only when their difference x = f - c (mod D) keeps all of that
 * apart, which is a set of allowed x (ok[]) for each D; a phase also has to
 * keep its own send and reception apart.  For each D from the least
 * conceivable up the phases are placed greedily (0, then the least that
 * fits); the first D that takes ns of them is returned (-1: none up to the
 * least + 2(h + sG), or s > OC_LP_CIRC_SEG, or rounds past
 * LP_CIRC_ROUND_MAX, or the search's work past LP_CIRC_STEPS).  Work
 * O(D ns + s os) a D. */
#define LP_CIRC_STEPS ((int64_t)1 << 24)      /* a slot search's work at most      */
#define LP_CIRC_ROUND_MAX ((int64_t)1 << 20)  /* rounds longer: not tried          */
static int64_t lp_mod(int64_t x, int64_t D) { return ((x % D) + D) % D; }
static void lp_forbid(unsigned char *ok, int64_t D, int64_t lo, int64_t hi) {
  for (int64_t y = lo + 1; y < hi; y++) ok[lp_mod(y, D)] = 0; /* lo < x < hi */
}
static int64_t lp_circ_slots(const oc_params *p, int64_t sx, int64_t s, int64_t ns,
                             int64_t *ph) {
  int64_t o = p->o, os = o + sx, G = oc_max64(p->g, os), L = p->L, h = L + o + os, sg = s * G;
  int64_t dlo = oc_max64(h + (s - 1) * G, ns * oc_max64(sg, (o + os) * s)), D;
  unsigned char *ok;
  int64_t dhi, work = 0;
  if (s < 1 || s > OC_LP_CIRC_SEG || ns < 1 || ns > OC_LP_CIRC_STREAMS) return -1;
  if (sx < 0 || sx > OC_PARAM_MAX || dlo > LP_CIRC_ROUND_MAX) return -1; /* not tried */
  dhi = dlo + 2 * (h + sg);
  if ((ok = (unsigned char *)malloc((size_t)(dhi + 1))) == NULL) return -2;
  for (D = dlo; D <= dhi; D++) {
    int64_t n = 0, self = 1;
    for (int64_t a = -(s - 1); a <= s - 1 && o > 0 && self; a++) { /* own send, reception */
      int64_t v = lp_mod(a * G - os - L, D); /* send start - reception start */
      if (v < o || D - v < os) self = 0;
    }
    if (!self) continue;
    work += D * (ns + 2) + 6 * s * os;
    if (work > LP_CIRC_STEPS) { /* a bounded search: give up */
      D = dhi + 1;
      break;
    }
    memset(ok, 1, (size_t)D);
    lp_forbid(ok, D, -sg, sg); /* sends sG apart; receptions the same */
    for (int64_t a = -(s - 1); a <= s - 1 && os > 0; a++) {
      lp_forbid(ok, D, a * G - os, a * G + os); /* overheads of the same kind */
      if (o == 0) continue;
      lp_forbid(ok, D, a * G + L, a * G + L + os + o);  /* f's send, c's reception */
      lp_forbid(ok, D, a * G - L - os - o, a * G - L);  /* f's reception, c's send */
    }
    for (int64_t f = 0; f < D && n < ns; f++) {
      int64_t i = 0;
      while (i < n && ok[lp_mod(f - ph[i], D)]) i++;
      if (i == n) ph[n++] = f;
    }
    if (n == ns) break;
  }
  free(ok);
  return D <= dhi ? D : -1;
}

int64_t oc_lp_circ_streams(const oc_params *p, int64_t sx, int64_t s, int64_t *ns, int64_t *D) {
  int64_t ph[OC_LP_CIRC_STREAMS], bn = 0, bd = 0, os = p->o + sx, G = oc_max64(p->g, os);
  int64_t per = oc_max64(1, s * oc_max64(G, p->o + os)); /* a stream's least share of a round */
  int64_t kmax = oc_min64(OC_LP_CIRC_STREAMS, (p->L + p->o + os + (s - 1) * G + per - 1) / per + 2);
  int n = 0;
  /* more streams than fill a round of h + (s-1)G at the best rate add nothing */
  for (int64_t k = 1; k <= kmax; k++) {
    int64_t d = lp_circ_slots(p, sx, s, k, ph);
    if (d == -2) return -1;
    if (d < 0) continue;
    if (bn == 0 || k * bd > bn * d) { /* a better rate than every fewer */
      ns[n] = k;
      if (D != NULL) D[n] = d;
      n++;
      bn = k;
      bd = d;
    }
  }
  return n;
}

int oc_lp_circ_layout(const oc_params *p, int64_t sx, int64_t m, int64_t seg, int64_t *ns,
                      int64_t *ph, int64_t *D) {
  int64_t ss = seg <= 0 ? m : oc_min64(seg, m), list[OC_LP_CIRC_STREAMS];
  if (*ns < 0 || *ns > OC_LP_CIRC_STREAMS || m < 1) return OC_EINVAL;
  if (*ns == 0) { /* the most packets a round */
    int64_t n = oc_lp_circ_streams(p, sx, ss, list, NULL);
    if (n < 0) return OC_ENOMEM;
    if (n == 0) return OC_ERANGE;
    *ns = list[n - 1];
  }
  if ((*D = lp_circ_slots(p, sx, ss, *ns, ph)) < 0) return *D == -2 ? OC_ENOMEM : OC_ERANGE;
  return OC_OK;
}

int oc_lp_circulant(oc_lprog *b, const oc_params *p, int64_t ns, int64_t seg) {
  int64_t P = b->P, K = oc_lp_nsegs(0, b->m, seg), s[64], ph[OC_LP_CIRC_STREAMS], smax = 0, D;
  int8_t *R;
  int q, e;
  if (ns < 0 || ns > OC_LP_CIRC_STREAMS) return OC_EINVAL;
  if (P < 2) {
    oc_lprog_begin(b, 0);
    return OC_OK;
  }
  if ((e = oc_lp_circ_layout(p, b->sx, b->m, seg, &ns, ph, &D)) != OC_OK) return e;
  if ((e = oc_lp_circ_table(P, s, &q, &R)) != OC_OK) return e;
  for (int64_t t = 0; t < ns; t++) { /* stream t: its n blocks take n - 1 + q rounds */
    int64_t n = (K - t + ns - 1) / ns;
    if (n > 0) smax = oc_max64(smax, n - 1 + q);
  }
  for (int64_t f = 0; f < P; f++) {
    oc_lprog_begin(b, f);
    for (int64_t jj = 0; jj < smax; jj++)
      for (int64_t t = 0; t < ns; t++) {
        int64_t n = (K - t + ns - 1) / ns, x, i, r, bb, a, z;
        if (n < 1) continue;
        x = oc_lp_circ_first(q, n);
        i = jj + x;
        r = (f + s[i % q]) % P;
        if (r == 0 || (bb = oc_lp_circ_block(q, R[r * q + i % q], n, i)) < 0) continue;
        a = seg <= 0 ? 0 : (t + bb * ns) * seg;
        z = seg <= 0 ? b->m : oc_min64(b->m, a + seg);
        oc_lp_emit_at(b, r, a, z - a, oc_add_sat(oc_mul_sat(jj, D), ph[t]));
      }
  }
  free(R);
  return OC_OK;
}
