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
    a = (int64_t)(c->combine_ns * (double)bytes / c->unit_ns) + 1;
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
static int64_t all_to_all(const oc_comm *c, int64_t b, int64_t L, int64_t o) {
  return oc_add_sat(oc_add_sat(L, 2 * o),
                    oc_mul_sat(oc_max64(c->tp.size - 2, 0), bytes_gap(c, b)));
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
