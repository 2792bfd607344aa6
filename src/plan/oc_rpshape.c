/* oc_rpshape.c - the MPI libraries' reduce and allreduce algorithms, and
 * two allreduce programs of ours built from their parts (oc_rp_hybrid,
 * oc_rp_groups: sources and costs at each), as reduction programs
 * (oc_rprog.c times them).  Allreduce (P processors,
 * m packets, h = L + 2o, G = max(g, o), one unit per addition; pof2 = the
 * largest power of two <= P, rem = P - pof2):
 *   recursive doubling  MPICH MPIR_Allreduce_intra_recursive_doubling,
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
 *   linear  Open MPI allreduce_intra_basic_linear: every rank sends its
 *       vector to rank 0, which adds them in rank order and sends the result
 *       to every rank
 * Reduce to a root (oc_rp_reduce):
 *   chain, binary, binomial, bmtree  Open MPI ompi_coll_base_reduce_generic
 *       over the trees of coll_base_topo.c (the broadcast's shapes,
 *       oc_lpshape.c), segment by segment: a node receives the segment
 *       from each child in order, adds each, then sends it to its parent;
 *       about depth (h + 1 + (s-1)G) + (k-1) s max(G, c(o+1) + o) for k
 *       segments of s and c children.  MPICH's binomial reduce is the
 *       binomial tree unsegmented.
 *   in-order binary  Open MPI reduce_intra_in_order_binary: a binary tree
 *       rooted at rank P-1 (modelled by the binary tree of the same size:
 *       the same depth and fan-out), then rank P-1 sends the result to the
 *       root when that is another rank.
 *   linear  Open MPI reduce_intra_basic_linear: the root receives the
 *       whole vector from rank P-1, P-2, ..., 0 in turn and adds each.
 *   rabenseifner  MPICH MPIR_Reduce_intra_reduce_scatter_gather, Open MPI
 *       reduce_intra_redscat_gather: the fold, recursive halving, then a
 *       binomial gather of the finished chunks to the root (to the root's
 *       odd partner, and on to the root, when the root sat out the fold):
 *       about 2 log2 pof2 h + 2 (pof2-1)/pof2 m G + (pof2-1)/pof2 m.
 * Work: O(n) for n messages (the trees: O(P) once, then per segment). */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"

/* first packet of chunk c when m packets are cut into n chunks (the first
 * m mod n one packet longer) */
int64_t oc_rp_chunk_lo(int64_t m, int64_t n, int64_t c) {
  int64_t base = m / n, extra = m % n;
  return c * base + (c < extra ? c : extra);
}

/* the fold of the ranks below 2 rem (even into odd) and its inverse; new
 * rank of r, or -1 for the even ones that sit out */
int64_t oc_rp_newrank(int64_t r, int64_t rem) {
  if (r < 2 * rem) return (r & 1) ? r / 2 : -1;
  return r - rem;
}
int64_t oc_rp_oldrank(int64_t nr, int64_t rem) {
  return nr < rem ? 2 * nr + 1 : nr + rem;
}

static void fold_in(oc_rprog *b, int64_t rem) {
  for (int64_t r = 0; r < 2 * rem; r += 2) oc_rp_xfer_range(b, r, r + 1, 0, b->m, 0);
  oc_rp_step(b);
}
static void fold_out(oc_rprog *b, int64_t rem) {
  for (int64_t r = 0; r < 2 * rem; r += 2) oc_rp_xfer_range(b, r + 1, r, 0, b->m, 1);
  oc_rp_step(b);
}

static void prog_rd(oc_rprog *b) {
  int64_t pof2 = 1, rem;
  while (2 * pof2 <= b->P) pof2 *= 2;
  rem = b->P - pof2;
  fold_in(b, rem);
  for (int64_t mask = 1; mask < pof2; mask *= 2) {
    for (int64_t r = 0; r < b->P; r++) {
      int64_t nr = oc_rp_newrank(r, rem);
      if (nr >= 0) oc_rp_xfer_range(b, r, oc_rp_oldrank(nr ^ mask, rem), 0, b->m, 0);
    }
    oc_rp_step(b);
  }
  fold_out(b, rem);
}

static void prog_ring(oc_rprog *b) {
  int64_t P = b->P;
  for (int64_t k = 0; k < P - 1; k++) { /* reduce-scatter */
    for (int64_t q = 0; q < P; q++) {
      int64_t c = ((q - k) % P + P) % P;
      oc_rp_xfer_range(b, q, (q + 1) % P, oc_rp_chunk_lo(b->m, P, c),
                       oc_rp_chunk_lo(b->m, P, c + 1), 0);
    }
    oc_rp_step(b);
  }
  for (int64_t k = 0; k < P - 1; k++) { /* allgather: q holds chunk q + 1 */
    for (int64_t q = 0; q < P; q++) {
      int64_t c = ((q + 1 - k) % P + P) % P;
      oc_rp_xfer_range(b, q, (q + 1) % P, oc_rp_chunk_lo(b->m, P, c),
                       oc_rp_chunk_lo(b->m, P, c + 1), 1);
    }
    oc_rp_step(b);
  }
}

/* chunks [lo, hi) of pof2 as packets */
static void xfer_chunks(oc_rprog *b, int64_t q, int64_t d, int64_t pof2, int64_t lo,
                        int64_t hi, int copy) {
  oc_rp_xfer_range(b, q, d, oc_rp_chunk_lo(b->m, pof2, lo), oc_rp_chunk_lo(b->m, pof2, hi), copy);
}

/* The chunks new rank nr is responsible for after s steps of recursive
 * halving (of pof2 chunks): at step k (mask 2^k) partners split their
 * range, the one with bit k clear keeps the lower half.  O(s). */
void oc_rp_raben_range(int64_t nr, int64_t s, int64_t pof2, int64_t *lo, int64_t *hi) {
  int64_t a = 0, e = pof2;
  for (int64_t k = 0, mask = 1; k < s; k++, mask *= 2) {
    int64_t mid = a + (e - a) / 2;
    if (nr & mask) a = mid;
    else e = mid;
  }
  *lo = a;
  *hi = e;
}

/* s steps of recursive halving over nch chunks (nr keeps the half its bit
 * k says), after the fold of rem */
static void halve(oc_rprog *b, int64_t pof2, int64_t rem, int64_t s, int64_t nch) {
  for (int64_t k = 0, mask = 1; k < s; k++, mask *= 2) {
    for (int64_t nr = 0; nr < pof2; nr++) {
      int64_t a, e, mid;
      oc_rp_raben_range(nr, k, nch, &a, &e);
      mid = a + (e - a) / 2;
      if (nr & mask) xfer_chunks(b, oc_rp_oldrank(nr, rem), oc_rp_oldrank(nr ^ mask, rem), nch, a, mid, 0);
      else xfer_chunks(b, oc_rp_oldrank(nr, rem), oc_rp_oldrank(nr ^ mask, rem), nch, mid, e, 0);
    }
    oc_rp_step(b);
  }
}

/* recursive doubling back up from s steps: send what is finished, copy
 * the partner's */
static void double_back(oc_rprog *b, int64_t pof2, int64_t rem, int64_t s, int64_t nch) {
  for (int64_t k = s, mask = ((int64_t)1 << s) / 2; mask >= 1; k--, mask /= 2) {
    for (int64_t nr = 0; nr < pof2; nr++) {
      int64_t a, e;
      oc_rp_raben_range(nr, k, nch, &a, &e);
      xfer_chunks(b, oc_rp_oldrank(nr, rem), oc_rp_oldrank(nr ^ mask, rem), nch, a, e, 1);
    }
    oc_rp_step(b);
  }
}

/* Recursive halving (the reduce-scatter of Rabenseifner's algorithms),
 * after the fold; returns its steps (log2 pof2). */
static int64_t halving(oc_rprog *b, int64_t *pof2_out, int64_t *rem_out) {
  int64_t pof2 = 1, rem, steps = 0;
  while (2 * pof2 <= b->P) { pof2 *= 2; steps++; }
  rem = b->P - pof2;
  fold_in(b, rem);
  halve(b, pof2, rem, steps, pof2);
  *pof2_out = pof2;
  *rem_out = rem;
  return steps;
}

static void prog_raben(oc_rprog *b) {
  int64_t pof2, rem, steps = halving(b, &pof2, &rem);
  double_back(b, pof2, rem, steps, pof2);
  fold_out(b, rem);
}

/* binomial reduction to 0 (v sends to v - lowbit(v) once its subtree is
 * in), then the binomial broadcast back */
static void prog_redbcast(oc_rprog *b) {
  int64_t top = 1;
  for (int64_t mask = 1; mask < b->P; mask *= 2) {
    for (int64_t v = mask; v < b->P; v += 2 * mask) oc_rp_xfer_range(b, v, v - mask, 0, b->m, 0);
    oc_rp_step(b);
    top = mask;
  }
  for (int64_t mask = top; mask >= 1 && b->P > 1; mask /= 2) {
    for (int64_t v = 0; v + mask < b->P; v += 2 * mask) oc_rp_xfer_range(b, v, v + mask, 0, b->m, 1);
    oc_rp_step(b);
  }
}

static void prog_linear(oc_rprog *b) {
  for (int64_t q = 1; q < b->P; q++) oc_rp_xfer_range(b, q, 0, 0, b->m, 0);
  oc_rp_step(b);
  for (int64_t q = 1; q < b->P; q++) oc_rp_xfer_range(b, 0, q, 0, b->m, 1);
}

/* ours: recursive halving stopped after s steps (2^s chunks cut by
 * packets, not pof2 of them: with m < pof2 most of Rabenseifner's chunks
 * are empty), then recursive doubling of the chunk each rank holds among
 * the pof2 / 2^s ranks that share its low s bits, then recursive doubling
 * back for s steps (copies).  s = 0 is recursive doubling; s = log2 pof2
 * is Rabenseifner's with 2^s chunks.  About
 * 2 s h + 2 (1 - 2^-s) m G + (log2 pof2 - s)(h + (ceil(m/2^s) - 1) G + ceil(m/2^s))
 * (plus the fold): for a few packets on many processors each rank carries
 * its share of the vector, not all of it, through the log2 P exchanges. */
void oc_rp_hybrid(oc_rprog *b, int64_t s) {
  int64_t pof2 = 1, steps = 0, rem, nch;
  while (2 * pof2 <= b->P) { pof2 *= 2; steps++; }
  rem = b->P - pof2;
  if (s > steps) s = steps;
  if (s < 0) s = 0;
  nch = (int64_t)1 << s;
  fold_in(b, rem);
  halve(b, pof2, rem, s, nch);
  for (int64_t mask = nch; mask < pof2; mask *= 2) {
    for (int64_t nr = 0; nr < pof2; nr++) {
      int64_t a, e;
      oc_rp_raben_range(nr, s, nch, &a, &e);
      xfer_chunks(b, oc_rp_oldrank(nr, rem), oc_rp_oldrank(nr ^ mask, rem), nch, a, e, 0);
    }
    oc_rp_step(b);
  }
  double_back(b, pof2, rem, s, nch);
  fold_out(b, rem);
}

/* ours: groups of q consecutive ranks (q | P, q <= m); member b of a
 * group owns chunk b of q.  Each rank sends every other member of its
 * group that member's chunk (additions: a direct reduce-scatter, one
 * latency and about (q-1)/q m sends); then the r = P/q owners of chunk b,
 * one per group, run the circulant allreduce of Karp et al. Thm 4.1
 * (oc_allreduce.c) on it, its packets interleaved, as a dataflow program
 * that keeps its partial results (a send waits only for the receives its
 * partial result needs); then each rank copies its finished chunk to the
 * other members (a direct allgather; reduce, root >= 0: the members of
 * the root's group send theirs to the root, a gather).  About
 * 2 (h + ((q-1) ceil(m/q) - 1) G) + the circulant of r processors on
 * ceil(m/q) packets: where L is large against g and o, the circulant's
 * many messages per latency serve a share of the vector, not all of it.
 * OC_EINVAL for a bad q; OC_ERANGE past the circulant's limits. */
void oc_rp_group_scatter(oc_rprog *b, int64_t q, int hist) {
  for (int64_t d = 1; d < q; d++)
    for (int64_t x = 0; x < b->P; x++) {
      int64_t t = (x % q + d) % q;
      for (int64_t j = oc_rp_chunk_lo(b->m, q, t); j < oc_rp_chunk_lo(b->m, q, t + 1); j++) {
        if (hist) oc_rp_xfer_hist(b, x, x / q * q + t, j, 0, 0, 0);
        else oc_rp_xfer(b, x, x / q * q + t, j, 0);
      }
    }
}

int oc_rp_groups(oc_rprog *b, const oc_params *p, int64_t q, int64_t root) {
  int64_t P = b->P, m = b->m, r, cmax, R, *off = NULL, *pick = NULL, rounds = 0;
  oc_params cp;
  int e;
  if (q < 1 || q > m || P % q != 0) return OC_EINVAL;
  r = P / q;
  cmax = (m + q - 1) / q;
  cp = *p;
  cp.P = r;
  if ((e = oc_allreduce_rounds(&cp, cmax, &off, &pick, &R)) != OC_OK) return e;
  oc_rp_group_scatter(b, q, 1); /* the reduce-scatter in the groups */
  for (int64_t k = 0; k < R; k++) { /* the circulant across the groups */
    if (pick[k] < 0) continue;
    for (int64_t x = 0; x < P; x++) {
      int64_t g = x / q, bb = x % q, lo = oc_rp_chunk_lo(m, q, bb);
      int64_t c = oc_rp_chunk_lo(m, q, bb + 1) - lo;
      int64_t dst = ((g + off[k]) % r) * q + bb;
      for (int64_t j = lo; j < lo + c; j++)
        oc_rp_xfer_hist(b, x, dst, j, 0, (q - 1 + pick[k]) * c, q - 1 + pick[k]);
    }
    rounds++;
  }
  for (int64_t d = 1; d < q; d++) /* the allgather in the groups, or the gather to root */
    for (int64_t x = 0; x < P; x++) {
      int64_t g = x / q, bb = x % q, lo = oc_rp_chunk_lo(m, q, bb);
      int64_t c = oc_rp_chunk_lo(m, q, bb + 1) - lo;
      int64_t to = g * q + (bb + d) % q;
      if (root >= 0 && (to != root || g != root / q)) continue;
      for (int64_t j = lo; j < lo + c; j++)
        oc_rp_xfer_hist(b, x, to, j, 1, (q - 1 + rounds) * c, q - 1 + rounds);
    }
  free(off);
  free(pick);
  return b->err;
}

void oc_rp_shape(oc_rprog *b, oc_rp_kind k) {
  switch (k) {
  case OC_RP_RD: prog_rd(b); break;
  case OC_RP_RING: prog_ring(b); break;
  case OC_RP_RABEN: prog_raben(b); break;
  case OC_RP_REDBCAST: prog_redbcast(b); break;
  default: prog_linear(b); break;
  }
}

/* ---- reduce to a root --------------------------------------------------------- */

/* the shape's postorder from relative rank 0 (children before parents, in
 * send order) and each node's parent */
static int postorder(int64_t P, oc_lp_shape shape, int64_t k, int64_t *order, int64_t *parent) {
  int64_t *ch = (int64_t *)malloc(OC_LP_CHILDREN_MAX * sizeof *ch);
  int64_t *stack = (int64_t *)malloc((size_t)P * sizeof *stack);
  int64_t *next = (int64_t *)calloc((size_t)P, sizeof *next);
  int64_t sp = 0, n = 0;
  if (ch == NULL || stack == NULL || next == NULL) {
    free(ch);
    free(stack);
    free(next);
    return OC_ENOMEM;
  }
  parent[0] = -1;
  stack[sp++] = 0;
  while (sp > 0) { /* next[v]: children of v entered so far */
    int64_t v = stack[sp - 1];
    int64_t nc = oc_lp_children(shape, P, v, k, ch, OC_LP_CHILDREN_MAX);
    if (next[v] < nc) {
      int64_t c = ch[next[v]++];
      parent[c] = v;
      stack[sp++] = c;
    } else {
      order[n++] = v;
      sp--;
    }
  }
  free(ch);
  free(stack);
  free(next);
  return n == P ? OC_OK : OC_EINVAL;
}

/* Open MPI's segmented tree reduction over shape, rooted at rank root */
static void prog_tree_reduce(oc_rprog *b, int64_t root, oc_lp_shape shape, int64_t k,
                             int64_t seg) {
  int64_t P = b->P, nseg = oc_lp_nsegs(0, b->m, seg);
  int64_t *order = (int64_t *)malloc((size_t)P * sizeof *order);
  int64_t *parent = (int64_t *)malloc((size_t)P * sizeof *parent);
  int e;
  if (seg <= 0 || seg > b->m) seg = b->m;
  if (order == NULL || parent == NULL) {
    e = OC_ENOMEM;
  } else {
    e = postorder(P, shape, k, order, parent);
  }
  for (int64_t j = 0; j < nseg && e == OC_OK; j++) {
    int64_t lo = j * seg, hi = oc_min64(b->m, lo + seg);
    for (int64_t x = 0; x < P; x++) {
      int64_t v = order[x];
      if (v == 0) continue;
      oc_rp_sync(b, (v + root) % P); /* its children's part of the segment is in */
      oc_rp_xfer_range(b, (v + root) % P, (parent[v] + root) % P, lo, hi, 0);
    }
  }
  if (e != OC_OK && !b->err) b->err = e;
  free(order);
  free(parent);
}

/* Rabenseifner's reduce: halving, then the binomial gather to the root */
static void prog_raben_reduce(oc_rprog *b, int64_t root) {
  int64_t pof2, rem, steps = halving(b, &pof2, &rem);
  int64_t tgt, via;
  tgt = oc_rp_newrank(root, rem);
  if (tgt < 0) tgt = oc_rp_newrank(root + 1, rem); /* the root sat out: its partner */
  via = oc_rp_oldrank(tgt, rem);
  for (int64_t s = steps, mask = pof2 / 2; mask >= 1; s--, mask /= 2) {
    for (int64_t nr = 0; nr < pof2; nr++) {
      int64_t x = nr ^ tgt, a, e;
      if ((x & ~(2 * mask - 1)) != 0 || !(x & mask)) continue; /* not a sender now */
      oc_rp_raben_range(nr, s, pof2, &a, &e);
      xfer_chunks(b, oc_rp_oldrank(nr, rem), oc_rp_oldrank(nr ^ mask, rem), pof2, a, e, 1);
    }
    oc_rp_step(b);
  }
  if (via != root) oc_rp_xfer_range(b, via, root, 0, b->m, 1);
}

void oc_rp_reduce(oc_rprog *b, int64_t root, oc_rp_red t, int64_t seg) {
  switch (t) {
  case OC_RR_CHAIN: prog_tree_reduce(b, root, OC_LP_CHAIN, 1, seg); break;
  case OC_RR_BINARY: prog_tree_reduce(b, root, OC_LP_BINARY, 2, seg); break;
  case OC_RR_BINOMIAL: prog_tree_reduce(b, root, OC_LP_KNOMIAL, 2, seg); break;
  case OC_RR_BMTREE: prog_tree_reduce(b, root, OC_LP_BMTREE, 2, seg); break;
  case OC_RR_INORDER:
    prog_tree_reduce(b, b->P - 1, OC_LP_BINARY, 2, seg);
    if (root != b->P - 1) {
      oc_rp_sync(b, b->P - 1);
      oc_rp_xfer_range(b, b->P - 1, root, 0, b->m, 1);
    }
    break;
  case OC_RR_LINEAR:
    for (int64_t q = b->P - 1; q >= 0; q--)
      if (q != root) oc_rp_xfer_range(b, q, root, 0, b->m, 0);
    break;
  default: prog_raben_reduce(b, root); break;
  }
}
