/* rt_model.c - the runtime's cost model: each candidate algorithm's
 * predicted time in model units (c->unit_ns), from the communicator's
 * PLogP parameters (oc_rtparams) at the message size the algorithm sends.
 * rt_choose.c compares them; the executor runs the least.
 *
 * Broadcast (Karp et al.'s optimal LogP tree run as Bar-Noy & Kipnis's
 * PIPELINE of m segments): a child is "sent" in m G time units (G =
 * max(g, o) at the segment's size) and can forward after L + 2o, so the
 * tree is the optimal tree for (L, o, mG) and the last segment lands at
 *   T_bcast(m) = B_{L,o,mG}(P) + (m - 1) G.
 * Reduce (the time-reversed optimal tree, pipelined the same way): a
 * combination costs a = c->combine_ns per byte (default 0.1 ns, a
 * vectorised sum at ~100 us per MiB; OPTCAST_COMBINE_NS), once a hop (the
 * receiver combines, then forwards) and in the receiver's time per
 * segment:
 *   T_reduce(m) = R_{L+a,o,mG'}(P) + (m - 1) G',  G' = max(g, o + a).
 * Ring allreduce (Patarasuk & Yuan), at a block's size:
 *   T_ring = 2 (P - 1) max(G, L + 2o) + (P - 1) a.
 * Direct allreduce (every block straight to its owner, folded, then to
 * everyone), at a block's size s: two rounds of P - 1 sends each to
 * distinct peers, all in flight at once.  A round ends when the last
 * message is in: the first takes o_s + L + o_r end to end, and each further
 * one adds c(s) (bytes_gap): g(s), or where the measuring stream's sends
 * blocked for the whole gap only the bytes, s G_b, with G_b LogGP's
 * per-byte gap (the slope of the measured g): the rest of such a g(s) is a
 * per-message delay (a rendezvous handshake) that messages to distinct
 * peers overlap:
 *   T_direct = 2 (L + 2o + (P - 2) c(s)) + (P - 1) a.
 * Recursive doubling allreduce, at the whole size (a round is one send and
 * one receive at once: L + 2o, then the fold):
 *   T_rd = (ceil(log2 P') + 2 [r > 0]) (L + 2o + a),  P' = 2^floor(log2 P).
 * Scan by recursive doubling: ceil(log2 P)(L + 2o + a) at the whole size.
 * Direct scan (every rank's value straight to every higher rank, folded
 * there), at the whole size B, priced like a round of the direct allreduce:
 *   T_scan_direct = L + 2o + (P - 2) c(B) + (P - 1) a,
 * and left out (OC_SAT) where the last rank would hold more than
 * SCAN_DIRECT_BYTES of values aside.
 * Scan as a pipelined chain, at the segment size:
 *   T_chain(m) = (P - 1)(L + 2o + a) + (m - 1)(G + a). */
#include <math.h>
#include <stdlib.h>

#include "core/oc_core.h"
#include "optcast_rt.h"
#include "rt/rt_internal.h"

/* model for kind at segment size `bytes`: stream tree parameters */
static int stream_params(const oc_comm *c, int kind, int64_t bytes, int64_t m,
                         oc_params *tree, int64_t *G) {
  oc_params q;
  int e = oc_rtparams_model(&c->prm, bytes, c->tp.size, c->unit_ns, &q);
  int64_t L = q.L, a = 0;
  if (e) return e;
  if (kind == RT_REDUCE) { /* once a hop (after the reception), and in the
                            * receiver's time per segment */
    double au = ceil(c->combine_ns * (double)bytes / c->unit_ns);
    a = au < (double)OC_PARAM_MAX ? (int64_t)au : OC_PARAM_MAX;
    L = oc_min64(oc_add_sat(L, a), OC_PARAM_MAX);
  }
  *G = oc_max64(q.g, oc_add_sat(q.o, a));
  if (*G > OC_PARAM_MAX / m) return OC_ERANGE;
  return oc_params_logp(tree, c->tp.size, L, q.o, *G * m);
}

int rt_model_tree(const oc_comm *c, int kind, int64_t bytes, int64_t m,
                  oc_params *tree, int64_t *t) {
  int64_t G, b;
  int e = stream_params(c, kind, bytes, m, tree, &G);
  if (e) return e;
  e = kind == RT_REDUCE ? oc_reduce_time(tree, &b) : oc_bcast_time(tree, &b);
  if (e) return e;
  *t = oc_add_sat(b, oc_mul_sat(m - 1, G));
  return OC_OK;
}

/* The model at one message size: L, o, G = max(g, o) and a combination's
 * cost a, in model units. */
static int costs_at(const oc_comm *c, int64_t bytes, int64_t *L, int64_t *o, int64_t *G,
                    int64_t *a) {
  oc_params q;
  int e = oc_rtparams_model(&c->prm, bytes, c->tp.size, c->unit_ns, &q);
  if (e) return e;
  *L = q.L;
  *o = q.o;
  *G = oc_max64(q.g, q.o);
  *a = (int64_t)(c->combine_ns * (double)bytes / c->unit_ns) + 1;
  return OC_OK;
}

/* the trees (coll RT_BCAST or RT_REDUCE): m segments of
 * rt_seg_len(count, m) elements (the segment the executor sends; len is
 * only the search's nominal one) */
int rt_cost_tree(oc_comm *c, const rt_shape *s, int64_t *t) {
  oc_params tree;
  return rt_model_tree(c, s->coll, (int64_t)s->el->extent * rt_seg_len(s->count, s->m),
                       s->m, &tree, t);
}

int rt_cost_ring(oc_comm *c, const rt_shape *s, int64_t *t) {
  int64_t L, o, G, a, P = c->tp.size;
  int e = costs_at(c, rt_blk_len(s->count, (int)P, 0) * (int64_t)s->el->extent, &L, &o, &G,
                   &a);
  if (e) return e;
  *t = oc_add_sat(oc_mul_sat(2 * (P - 1), oc_max64(G, oc_add_sat(L, 2 * o))),
                  oc_mul_sat(P - 1, a));
  return OC_OK;
}

/* What one more message of s bytes to another peer adds to a round, in
 * model units: g(s) when the measuring stream's sends returned well within
 * the gap (2 o_s < g: g is the link's time per message); otherwise (the
 * sends blocked for the gap: a rendezvous-bound stream) only its bytes,
 * s G_b, with G_b the slope of g from the last row at or below s to the
 * next one (at a row: the slope above it, so that a protocol switch just
 * below s does not count; the last two rows beyond the table, g(b_0) / b_0
 * below it); at most g(s) either way */
static int64_t bytes_gap(const oc_comm *c, int64_t s) {
  const oc_rtparams *p = &c->prm;
  int i = 1;
  double slope, us, g, os;
  oc_rtparams_at(p, s, NULL, &os, NULL, &g);
  if (2 * os < g) { /* the sender was free long before: g is the link's time */
    us = g;
  } else {
    if (p->nrows < 2 || s <= p->bytes[0]) {
      slope = p->bytes[0] > 0 ? p->g[0] / (double)p->bytes[0] : 0;
    } else {
      while (i < p->nrows - 1 && p->bytes[i] <= s) i++;
      slope = (p->g[i] - p->g[i - 1]) / (double)(p->bytes[i] - p->bytes[i - 1]);
    }
    us = slope > 0 ? slope * (double)s : 0;
    if (us > g) us = g;
  }
  us = ceil(us * 1000.0 / c->unit_ns - 1e-9);
  return us < (double)OC_PARAM_MAX ? (int64_t)us : OC_PARAM_MAX;
}

/* Karp et al.'s all-to-all on blocks of b bytes (section 4.1 with one item
 * a rank): L + 2o + (P - 2) c(b), the P - 1 sends c(b) apart */
static int64_t among(int64_t d, int64_t first, int64_t gap) { /* d ranks: first + (d-2) gap */
  return oc_add_sat(first, oc_mul_sat(oc_max64(d - 2, 0), gap));
}
static int64_t all_to_all(const oc_comm *c, int64_t b, int64_t L, int64_t o) {
  return among(c->tp.size, oc_add_sat(L, 2 * o), bytes_gap(c, b));
}

int rt_cost_direct(oc_comm *c, const rt_shape *s, int64_t *t) {
  int64_t L, o, G, a, P = c->tp.size;
  int64_t blk = rt_blk_len(s->count, (int)P, 0) * (int64_t)s->el->extent;
  int e = costs_at(c, blk, &L, &o, &G, &a);
  if (e) return e;
  *t = oc_add_sat(oc_mul_sat(2, all_to_all(c, blk, L, o)), oc_mul_sat(P - 1, a));
  return OC_OK;
}

/* the allgather: the all-to-all */
int rt_cost_allgather(oc_comm *c, int64_t b, int64_t *t) {
  int64_t L, o, G, a;
  int e = costs_at(c, b, &L, &o, &G, &a);
  if (e) return e;
  *t = c->tp.size < 2 ? 0 : all_to_all(c, b, L, o);
  return OC_OK;
}

/* The mesh allgather's shape (oc_allgather_mesh_rank): its phases d_1 ..
 * d_n with the least predicted time, at least two phases.  A phase of d
 * ranks on blocks of B bytes is an all-to-all among d:
 *   L + 2o + (d - 2) c(B)   (at B, as Karp's above),
 * and phase t's blocks are b d_1 ... d_{t-1} bytes, so the best shape is a
 * shortest path over the divisors D of P (D: the ranks whose blocks a rank
 * holds), each step D -> D d priced at b D: O(k^2) for k divisors, the
 * model read once a divisor.  Where no shape has two phases (P prime or 1)
 * *t = OC_SAT, n = 0. */
#define MESH_DIVS 2048
int rt_mesh_dims(oc_comm *c, int64_t b, int64_t *dims, int *n, int64_t *t) {
  int64_t P = c->tp.size, k = 0;
  int64_t *div, *best, *from, *ph, *cg, *lc; /* per divisor */
  int e = OC_OK;
  *n = 0;
  *t = OC_SAT;
  if (P < 4) return OC_OK;
  if ((div = (int64_t *)malloc(6 * MESH_DIVS * sizeof *div)) == NULL) return OC_ENOMEM;
  best = div + MESH_DIVS;
  from = best + MESH_DIVS;
  ph = from + MESH_DIVS;
  cg = ph + MESH_DIVS;
  lc = cg + MESH_DIVS;
  /* the divisors, ascending (no int has more than 1600) */
  for (int64_t d = 1; d <= P / d && k < MESH_DIVS / 2; d++)
    if (P % d == 0) div[k++] = d;
  for (int64_t i = k; i-- > 0;)
    if (div[i] != P / div[i]) div[k++] = P / div[i];
  for (int64_t i = 0; i < k && e == OC_OK; i++) { /* the model at b D */
    int64_t L, o, G, a, B = oc_mul_sat(b, div[i]);
    best[i] = i == 0 ? 0 : OC_SAT;
    from[i] = -1;
    ph[i] = i == 0 ? 0 : INT64_MAX;
    if (div[i] == P) continue;
    if ((e = costs_at(c, B, &L, &o, &G, &a)) != OC_OK) break;
    lc[i] = oc_add_sat(L, 2 * o);
    cg[i] = bytes_gap(c, B);
  }
  for (int64_t i = 0; i < k && e == OC_OK; i++) {
    if (best[i] >= OC_SAT || div[i] == P) continue;
    for (int64_t j = i + 1; j < k; j++) {
      int64_t d = div[j] / div[i], tt, phases = ph[i] + 1;
      if (div[j] % div[i] != 0) continue;
      if (i == 0 && j == k - 1) continue; /* one phase: Karp's */
      tt = oc_add_sat(best[i], among(d, lc[i], cg[i]));
      if (tt < best[j] || (tt == best[j] && phases < ph[j])) {
        best[j] = tt;
        from[j] = i;
        ph[j] = phases;
      }
    }
  }
  if (e == OC_OK && best[k - 1] < OC_SAT) {
    int64_t nd = 0;
    for (int64_t j = k - 1; j > 0; j = from[j]) nd++;
    if (nd <= OC_MESH_DIMS_MAX) {
      int64_t at = nd;
      for (int64_t j = k - 1; j > 0; j = from[j]) dims[--at] = div[j] / div[from[j]];
      *n = (int)nd;
      *t = best[k - 1];
    }
  }
  free(div);
  return e;
}

int rt_mesh_time(oc_comm *c, int64_t b, const int64_t *dims, int n, int64_t *t) {
  int64_t B = b, sum = 0;
  for (int i = 0; i < n; i++) {
    int64_t L, o, G, a;
    int e = costs_at(c, B, &L, &o, &G, &a);
    if (e) return e;
    if (dims[i] < 2) return OC_EINVAL;
    sum = oc_add_sat(sum, among(dims[i], oc_add_sat(L, 2 * o), bytes_gap(c, B)));
    B = oc_mul_sat(B, dims[i]);
  }
  *t = sum;
  return OC_OK;
}

int rt_cost_mesh(oc_comm *c, const rt_shape *s, int64_t *t) {
  int64_t dims[OC_MESH_DIMS_MAX];
  int n;
  return rt_mesh_dims(c, oc_mul_sat(s->count, (int64_t)s->el->extent), dims, &n, t);
}

#define SCAN_DIRECT_BYTES ((int64_t)64 << 20)
int rt_cost_scan_direct(oc_comm *c, const rt_shape *s, int64_t *t) {
  int64_t L, o, G, a, P = c->tp.size, b = s->count * (int64_t)s->el->extent;
  int e;
  if (b > SCAN_DIRECT_BYTES / oc_max64(P - 1, 1)) {
    *t = OC_SAT;
    return OC_OK;
  }
  if ((e = costs_at(c, b, &L, &o, &G, &a)) != OC_OK) return e;
  *t = oc_add_sat(all_to_all(c, b, L, o), oc_mul_sat(P - 1, a)); /* and P - 1 folds */
  return OC_OK;
}

/* rounds x (L + 2o + a) at the whole size */
static int rounds_cost(oc_comm *c, const rt_shape *s, int64_t rounds, int64_t *t) {
  int64_t L, o, G, a;
  int e = costs_at(c, s->count * (int64_t)s->el->extent, &L, &o, &G, &a);
  if (e) return e;
  *t = oc_mul_sat(rounds, oc_add_sat(oc_add_sat(L, 2 * o), a));
  return OC_OK;
}

int rt_cost_rd(oc_comm *c, const rt_shape *s, int64_t *t) {
  int64_t P = c->tp.size, rounds = 0;
  while (((int64_t)2 << rounds) <= P) rounds++;
  if (((int64_t)1 << rounds) < P) rounds += 2;
  return rounds_cost(c, s, rounds, t);
}

int rt_cost_scan_rd(oc_comm *c, const rt_shape *s, int64_t *t) {
  int64_t P = c->tp.size, rounds = 0;
  while (((int64_t)1 << rounds) < P) rounds++;
  return rounds_cost(c, s, rounds, t);
}

/* the chain: m segments of len elements (the caller's segment size when
 * it set one) */
int rt_cost_chain(oc_comm *c, const rt_shape *s, int64_t *t) {
  int64_t L, o, G, a, P = c->tp.size;
  int e = costs_at(c, s->len * (int64_t)s->el->extent, &L, &o, &G, &a);
  if (e) return e;
  *t = oc_add_sat(oc_mul_sat(P - 1, oc_add_sat(oc_add_sat(L, 2 * o), a)),
                  oc_mul_sat(s->m - 1, oc_add_sat(G, a)));
  return OC_OK;
}
