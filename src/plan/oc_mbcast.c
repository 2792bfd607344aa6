/* oc_mbcast.c - broadcast of m packets in LogP: several constructions, each
 * at its best segment size, timed by one simulator; the fastest is kept.
 *
 * Sources and cost formulas, with h = L + 2o, G = max(g, o), a segment of
 * s packets sent as one long message (usable h + (s-1)G after its start,
 * its sender busy sG), k = ceil(m/s) segments:
 *   KARP       Karp, Sahay, Santos & Schauser (SPAA 1993), Thm 2.1: the
 *              optimal single-item tree for L' = L + (s-1)G, g' = sG, then
 *              pipelined; s = m gives B'(P), optimal among algorithms that
 *              send the message whole; s = 1, m = 1 is B(P), optimal.
 *   CHAIN      (P-1)(h + (s-1)G) + (k-1) s max(G, 2o) (about: a relay
 *              receives and sends each segment)
 *   BINARY,    the libraries' pipelined trees (Open MPI coll/base
 *   BINOMIAL   bcast_intra_generic): depth d, about d(h + (s-1)G) +
 *              (k-1) s max(cG, (c+1)o), c children a node
 *   TWOTREE    Sanders, Speck & Traeff, "Two-tree algorithms for full
 *              bandwidth broadcast, reduction and scan", Parallel
 *              Computing 35 (2009): about 2 log2(P) (h + (s-1)G) +
 *              (k-1) s max(G, 2o) / 2 ... per packet max(g, 2o) in the
 *              limit, half the binary tree's send load
 *   SPLIT      Open MPI's split_bintree (coll_base_bcast.c): about the
 *              binary tree for ceil(m/2) packets plus one exchange
 *   SCATTER_*  van de Geijn et al.; Thakur, Rabenseifner & Gropp (2005):
 *              about m G + (log P) h + m max(g, 2o) (P-1)/P
 *   RAREST     ours: a list schedule, rarest segment first (oc_lpshape.c);
 *              one segment: Karp's greedy tree, B(P); a few segments at
 *              large L against G: each keeps Karp's fan-out (measured in
 *              docs/algorithms/logp.md); at most OC_LP_RAREST_MAX segments
 *   CIRCULANT  Traff's round-optimal circulant broadcast (arXiv 2312.11236;
 *              the per-rank schedule in oc_circsched.c), in ns interleaved
 *              streams on fixed slots (oc_lpshape.c): about (ceil(k/ns) - 1
 *              + q) D for k segments, q = ceil(log2 P), D the slots' round
 *              (>= L + 2o, ns sends and receptions a round); every P up to
 *              about 2^20 (OC_LP_CIRC_WORK)
 * The simulator (oc_lprog.c) is the judge: the formulas only explain the
 * choice.  Where each wins, measured: docs/algorithms/logp.md.
 *
 * Segment search: for the segmented constructions, every s = m, m/2, m/4,
 * ..., 1 (rounded up) is timed.  The time is about A s + B m/s + C, but the
 * simulator's greedy timing makes it far from convex (a pipeline whose
 * relays fall behind at s = 4 may keep up at s = 1), so the scan does not
 * stop early; the sizes together cost about twice the s = 1 run.
 *
 * Lower bounds (oc_mbcast_bound), G = max(g, o):
 *   LB1 = B(P) + (m-1) G: the root's sends are G apart, so the last packet
 *         to leave the root for the first time leaves at (m-1)G or later;
 *         from then on that packet alone needs a single-item broadcast,
 *         B(P) at least.
 *   LB2 = the least T with (P-1)(T + o) - S >= o (2m(P-1) - R(T)),
 *         R(T) = min(m(P-1), floor((T-L-2o)/G) + 1), S = the sum of the P-1
 *         smallest non-root labels of Karp et al.'s universal tree: a non-
 *         root processor q is busy only within [a_q - o, T], a_q the moment
 *         its first packet is usable (its first reception starts o before);
 *         it has no use for work after T; the non-root processors receive
 *         m(P-1) packets, o each, and send all but the R that the root
 *         sends, o each; the root sends at most R(T) packets that arrive by
 *         T.  And sum a_q >= S: the first packets spread like one item, so
 *         by time t at most P(t) processors hold one (Karp et al. Thm 2.1's
 *         counting does not care which packet a message carries).  When S
 *         is too costly to sum (more than 2^22 label classes), a_q >= L + 2o
 *         stands in.
 * Both are checked against exact optima of small instances
 * (tests/test_mbexact.c).
 */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"

static const char *const MB_NAMES[OC_MB_COUNT] = {
    "karp", "chain", "binary", "binomial", "two-tree", "multi-tree", "split-binary",
    "scatter-rd", "scatter-ring", "rarest-first", "circulant-bcast", "pipeline"};

const char *oc_mbcast_degree_unit(oc_mbcast_alg a, int64_t degree) {
  return a != OC_MB_CIRCULANT ? "trees" : degree == 1 ? "stream" : "streams";
}

const char *oc_mbcast_alg_name(oc_mbcast_alg a) {
  return (a >= 0 && a < OC_MB_COUNT) ? MB_NAMES[a] : "?";
}

int oc_mbcast_alg_parse(const char *name, oc_mbcast_alg *out) {
  int a = oc_name_index(MB_NAMES, OC_MB_COUNT, name);
  if (a < 0 || out == NULL) return OC_EINVAL;
  *out = (oc_mbcast_alg)a;
  return OC_OK;
}

static int mb_check(const oc_params *p, int64_t root, int64_t m) {
  if (p == NULL || oc_params_check(p) != OC_OK) return OC_EINVAL;
  if (root < 0 || root >= p->P || m < 1) return OC_EINVAL;
  if (p->P > OC_MBCAST_MAX || m > OC_MBCAST_MAX / p->P) return OC_ERANGE;
  /* the message's packets span at most 2^50: times stay far from wrapping */
  if (oc_mul_sat(m, oc_max64(p->g, p->o)) > ((int64_t)1 << 50)) return OC_ERANGE;
  return OC_OK;
}

static int mb_segmented(oc_mbcast_alg a) {
  return a != OC_MB_SCATTER_RD && a != OC_MB_SCATTER_RING;
}

/* Pacing (oc_lprog's release): when 2o > G a relay that receives a segment
 * and forwards it pays 2o (3o for the binary tree's two children) a
 * segment, more than the root's G; a root that sends at its own pace fills
 * its children with receptions and they fall behind.  The paced variant
 * releases packet i at i 2o (i 3o), the relays' rate; both are timed. */
static int mb_paced(oc_mbcast_alg a) {
  return a == OC_MB_CHAIN || a == OC_MB_BINARY || a == OC_MB_TWOTREE || a == OC_MB_MULTITREE;
}

int oc_mbcast_run(const oc_params *p, int64_t root, int64_t m, const oc_mbcast_info *cfg,
                  oc_sched *out, int64_t *time) {
  oc_lprog b;
  int64_t t = 0, seg, degree;
  oc_mbcast_alg alg;
  int e;
  if (time == NULL || cfg == NULL || cfg->seg < 0 || cfg->pace < 0) return OC_EINVAL;
  alg = cfg->alg;
  seg = cfg->seg;
  degree = cfg->degree;
  if ((e = mb_check(p, root, m)) != OC_OK) return e;
  if (alg < 0 || alg >= OC_MB_COUNT) return OC_EINVAL;
  if (seg == 0 || seg > m) seg = m;
  if (cfg->pace > OC_PARAM_MAX) return OC_ERANGE;
  if ((e = oc_lprog_init(&b, p->P, m, root)) != OC_OK) return e;
  b.release = cfg->pace;
  b.send_first = cfg->send_first != 0;
  b.sx = cfg->sx;
  switch (alg) {
  case OC_MB_KARP: e = oc_lp_karp(&b, p, seg); break;
  case OC_MB_CHAIN: oc_lp_tree(&b, OC_LP_CHAIN, 1, seg); break;
  case OC_MB_BINARY: oc_lp_tree(&b, OC_LP_BINARY, 2, seg); break;
  case OC_MB_BINOMIAL: oc_lp_tree(&b, OC_LP_KNOMIAL, 2, seg); break;
  case OC_MB_TWOTREE: e = oc_lp_twotree(&b, seg); break;
  case OC_MB_MULTITREE: e = oc_lp_multitree(&b, degree, seg); break;
  case OC_MB_SPLIT: oc_lp_split(&b, seg); break;
  case OC_MB_SCATTER_RD: oc_lp_scatter_allgather(&b, 0); break;
  case OC_MB_SCATTER_RING: oc_lp_scatter_allgather(&b, 1); break;
  case OC_MB_RAREST: e = oc_lp_rarest(&b, p, seg); break;
  case OC_MB_CIRCULANT: e = oc_lp_circulant(&b, p, degree, seg); break;
  case OC_MB_PIPELINE: e = oc_lp_pipeline(&b, p, seg); break;
  default: e = OC_EINVAL; break;
  }
  if (e == OC_OK) e = oc_lprog_finish(&b);
  if (e == OC_OK) e = oc_lprog_run(p, &b, out, &t);
  if (e == OC_OK) *time = t;
  oc_lprog_free(&b);
  return e;
}

/* the best segment size and variant of one construction (d trees for the
 * multi-tree) into *best, its time in best->time; *timed counts the
 * simulations */
static int mb_best_seg(const oc_params *p, int64_t sx, int64_t root, int64_t m,
                       oc_mbcast_alg a, int64_t d, oc_mbcast_info *best, int64_t *timed) {
  int64_t bt = -1, prev = 0, os = p->o + sx, G = oc_max64(p->g, os);
  for (int64_t s = m;; s = (s + 1) / 2) {
    if (s == prev) break; /* (1 + 1) / 2 = 1: done */
    prev = s;
    if (a == OC_MB_MULTITREE && oc_lp_nsegs(0, m, s) < d) continue; /* trees unused */
    if (a == OC_MB_CIRCULANT && (s > OC_LP_CIRC_SEG || oc_lp_nsegs(0, m, s) < d)) continue;
    /* the variants: pure greedy; sends first; sends first and paced */
    for (int k = 0; k < 3; k++) {
      oc_mbcast_info c;
      int64_t t;
      int e;
      if (k == 1 && p->o == 0) continue; /* no overheads: the same as greedy */
      if (k > 0 && a == OC_MB_CIRCULANT) continue; /* its own slots */
      if (k == 2 && !(p->o + os > G && s < m && mb_paced(a))) continue;
      memset(&c, 0, sizeof c);
      c.alg = a;
      c.seg = s;
      c.degree = d;
      if (a == OC_MB_CIRCULANT && d == 0) { /* its best rate: say how many streams */
        int64_t ns[OC_LP_CIRC_STREAMS], n = oc_lp_circ_streams(p, sx, s, ns, NULL);
        if (n < 0) return OC_ENOMEM;
        if (n == 0) continue; /* no slots for such segments */
        c.degree = ns[n - 1];
      }
      c.send_first = k > 0;
      c.sx = sx;
      c.pace = k == 2 ? p->o + (a == OC_MB_BINARY ? 2 : 1) * os : 0; /* a relay's busy time */
      e = oc_mbcast_run(p, root, m, &c, NULL, &t);
      (*timed)++;
      if (e == OC_ERANGE) continue; /* this segment size cannot be built */
      if (e != OC_OK) return e;
      if (bt < 0 || t < bt) {
        bt = t;
        *best = c;
        best->time = t;
      }
    }
    if (!mb_segmented(a) || s == 1) break;
  }
  if (bt < 0) return OC_ERANGE;
  return OC_OK;
}

/* MULTITREE: the degrees 2 .. 16, 20, 24, 32, 40, 48, 64 (up to min(P-1,
 * m)), each at its best segment size.  The time is far from convex in d
 * (how the levels of the d-ary heaps fill and how the segments share out
 * among the trees both jump), so the scan does not stop at a worse degree;
 * instead the degrees are taken in the order of a rough estimate, one
 * packet a segment,
 *   E(d) = (m-1) G + (D+1)(L + 2o) + D (d-1) G,   D = the heaps' depth,
 * and simulated while the work so far (packets simulated) stays within
 * MB_DEGREE_WORK; at least three are simulated.  Small instances get every
 * degree; large ones the most promising few, deterministically. */
#define MB_DEGREE_WORK ((int64_t)1 << 23)
static int64_t mb_depth(int64_t n, int64_t d) { /* levels below the top */
  int64_t D = 0, have = 1, width = 1;
  while (have < n) {
    width = oc_mul_sat(width, d);
    have = oc_add_sat(have, width);
    D++;
  }
  return D;
}

int oc_mb_degree_order(const oc_params *p, int64_t m, int64_t *deg) {
  int64_t top = oc_min64(p->P - 1, m), G = oc_max64(p->g, p->o);
  int64_t est[OC_MB_DEGREES];
  int nd = 0;
  for (int64_t d = 2; d <= top && d <= 64; d = d < 16 ? d + 1 : d < 24 ? d + 4 : d < 48 ? d + 8 : d + 16) {
    int64_t D = mb_depth(p->P - 1, d);
    int k = nd++;
    deg[k] = d;
    est[k] = oc_add_sat(oc_mul_sat(m - 1, G),
                        oc_add_sat(oc_mul_sat(D + 1, p->L + 2 * p->o), oc_mul_sat(D * (d - 1), G)));
    while (k > 0 && est[k - 1] > est[k]) { /* insertion sort: stable on ties */
      int64_t x = est[k], y = deg[k];
      est[k] = est[k - 1];
      deg[k] = deg[k - 1];
      est[k - 1] = x;
      deg[k - 1] = y;
      k--;
    }
  }
  return nd;
}

static int mb_best_degree(const oc_params *p, int64_t sx, int64_t root, int64_t m,
                          oc_mbcast_info *best, int64_t *timed) {
  int64_t bt = -1, work = 0, deg[OC_MB_DEGREES];
  int nd = oc_mb_degree_order(p, m, deg);
  for (int i = 0; i < nd; i++) {
    oc_mbcast_info c;
    int64_t before = *timed;
    int e;
    if (i >= 3 && work > MB_DEGREE_WORK) break;
    e = mb_best_seg(p, sx, root, m, OC_MB_MULTITREE, deg[i], &c, timed);
    work = oc_add_sat(work, oc_mul_sat(oc_mul_sat(p->P, m), *timed - before));
    if (e == OC_ERANGE) continue;
    if (e != OC_OK) return e;
    if (bt < 0 || c.time < bt || (c.time == bt && deg[i] < best->degree)) {
      bt = c.time;
      *best = c;
    }
  }
  if (bt < 0) return OC_ERANGE;
  return OC_OK;
}

/* CIRCULANT: the stream counts of oc_lp_circ_streams (each a better rate
 * than fewer streams), each at its best segment size; nothing (OC_ERANGE)
 * where its receive table would take more than OC_LP_CIRC_WORK steps (P
 * beyond about 2^20). */
int oc_mb_circ_ok(int64_t P) {
  int64_t s[64];
  int q = oc_lp_circ_skips(P, 0, s);
  return oc_mul_sat(P, (int64_t)q * (q + 1)) > OC_LP_CIRC_WORK ? OC_ERANGE : OC_OK;
}

static int mb_best_streams(const oc_params *p, int64_t sx, int64_t root, int64_t m,
                           oc_mbcast_info *best, int64_t *timed) {
  int64_t bt = -1, ns[OC_LP_CIRC_STREAMS], n;
  int e;
  if ((e = oc_mb_circ_ok(p->P)) != OC_OK) return e;
  if ((n = oc_lp_circ_streams(p, sx, 1, ns, NULL)) < 0) return OC_ENOMEM;
  for (int64_t i = 0; i < n && ns[i] <= m; i++) {
    oc_mbcast_info c;
    e = mb_best_seg(p, sx, root, m, OC_MB_CIRCULANT, ns[i], &c, timed);
    if (e == OC_ERANGE) continue;
    if (e != OC_OK) return e;
    if (bt < 0 || c.time < bt) {
      bt = c.time;
      *best = c;
    }
  }
  return bt < 0 ? OC_ERANGE : OC_OK;
}

/* ---- the bounded search for large instances ---------------------------------
 * Past OC_MB_FULL_MAX messages (P m) the full search above costs dozens of
 * simulations of the whole broadcast (about 90 at m = 1024), minutes each at
 * 2^26.  There the constructions are ranked on smaller instances instead:
 * with m' = proxy / P and P' = proxy / m, a construction's time is taken to
 * split as A(P) + B(m) (the pipeline's fill grows with P, its stream with m),
 * so
 *   E = T(P, m') + T(P', m) - T(P', m'),
 * each T the construction's best over its segment sizes and variants.  The
 * MB_LARGE_TOP constructions with the least E (more while the messages
 * simulated stay within MB_LARGE_WORK; the multi-tree counts once per degree,
 * its MB_LARGE_DEGREES most promising degrees by the estimate of
 * mb_best_degree) are then simulated at full size with the (P', m) choice of
 * segment and variant, and with the other sends-first policy.  The
 * simulator still times what is chosen; the estimate only picks what to
 * simulate, so the choice may be worse than the full search's (measured in
 * docs/algorithms/logp.md). */
#define MB_LARGE_TOP 3
#define MB_LARGE_DEGREES 8
#define MB_LARGE_WORK ((int64_t)1 << 25) /* more of them while P m (k + 1) stays below */

static int mb_best_one(const oc_params *p, int64_t sx, int64_t P, int64_t m, oc_mbcast_alg a,
                       int64_t d, oc_mbcast_info *c, int64_t *timed) {
  oc_params q = *p;
  q.P = P;
  memset(c, 0, sizeof *c);
  if (a == OC_MB_MULTITREE && (d > P - 1 || d > m)) return OC_ERANGE;
  return mb_best_seg(&q, sx, 0, m, a, d, c, timed);
}

int oc_mb_rank_bounded(const oc_params *p, int64_t sx, int64_t m, oc_mbcast_alg alg,
                       oc_mbcast_alg skip, int64_t proxy, oc_mb_cand *cand, int *ncand,
                       int64_t *timed) {
  int64_t P = p->P, m1 = oc_max64(1, oc_min64(m, proxy / P));
  int64_t P1 = oc_min64(P, oc_max64(2, proxy / m)), deg[OC_MB_DEGREES];
  int nd = oc_mb_degree_order(p, m, deg), nc = 0, e;
  for (int a = 0; a < OC_MB_COUNT; a++) {
    int ndeg = a == OC_MB_MULTITREE ? (int)oc_min64(nd, MB_LARGE_DEGREES) : 1;
    if ((alg != OC_MB_BEST && a != (int)alg) || a == (int)skip) continue;
    if (alg == OC_MB_BEST && a == OC_MB_PIPELINE) continue; /* by name only */
    if (a == OC_MB_CIRCULANT) { /* its best rate; the proxies' P must have a schedule too */
      if (oc_mb_circ_ok(P) != OC_OK || oc_mb_circ_ok(P1) != OC_OK) continue;
    }
    for (int i = 0; i < ndeg; i++) {
      oc_mbcast_info c1, c2, c3;
      int64_t d = a == OC_MB_MULTITREE ? deg[i] : 0;
      if ((e = mb_best_one(p, sx, P, m1, (oc_mbcast_alg)a, d, &c1, timed)) == OC_OK &&
          (e = mb_best_one(p, sx, P1, m, (oc_mbcast_alg)a, d, &c2, timed)) == OC_OK)
        e = mb_best_one(p, sx, P1, m1, (oc_mbcast_alg)a, d, &c3, timed);
      if (e == OC_ERANGE) continue;
      if (e != OC_OK) return e;
      cand[nc].cfg = c2;
      cand[nc].est = oc_add_sat(c1.time, c2.time) - c3.time;
      for (int k = nc++; k > 0 && cand[k - 1].est > cand[k].est; k--) { /* stable */
        oc_mb_cand x = cand[k];
        cand[k] = cand[k - 1];
        cand[k - 1] = x;
      }
    }
  }
  *ncand = nc;
  return OC_OK;
}

void oc_mb_other_policy(oc_mbcast_info *c) {
  c->send_first = !c->send_first;
  if (!c->send_first) c->pace = 0; /* pacing goes with sends first */
}

int oc_mb_large_take(int64_t P, int64_t m, int k) {
  return k < MB_LARGE_TOP || oc_mul_sat(oc_mul_sat(P, m), k + 1) <= MB_LARGE_WORK;
}

int oc_mb_plan_bounded(const oc_params *p, int64_t sx, int64_t root, int64_t m,
                       oc_mbcast_alg alg, int64_t proxy, oc_mbcast_info *info) {
  oc_mb_cand cand[OC_MB_RANKED];
  oc_mbcast_info r;
  int nc = 0, e;
  memset(&r, 0, sizeof r);
  r.time = r.runner_up = -1;
  r.runner_alg = OC_MB_BEST;
  if ((e = oc_mb_rank_bounded(p, sx, m, alg, OC_MB_BEST, proxy, cand, &nc, &r.timed)) != OC_OK)
    return e;
  for (int k = 0; k < nc && oc_mb_large_take(p->P, m, k); k++)
    for (int v = 0; v < (p->o > 0 ? 2 : 1); v++) {
      oc_mbcast_info c = cand[k].cfg;
      int64_t t;
      if (v == 1) oc_mb_other_policy(&c);
      e = oc_mbcast_run(p, root, m, &c, NULL, &t);
      r.timed++;
      if (e == OC_ERANGE) continue;
      if (e != OC_OK) return e;
      if (r.time < 0 || t < r.time) {
        if (r.time >= 0 && r.alg != c.alg) {
          r.runner_up = r.time;
          r.runner_alg = r.alg;
        }
        c.timed = r.timed;
        c.runner_up = r.runner_up;
        c.runner_alg = r.runner_alg;
        c.time = t;
        r = c;
      } else if (c.alg != r.alg && (r.runner_up < 0 || t < r.runner_up)) {
        r.runner_up = t;
        r.runner_alg = c.alg;
      }
    }
  if (r.time < 0) return OC_ERANGE;
  *info = r;
  return OC_OK;
}

int oc_mbcast_plan(const oc_params *p, int64_t root, int64_t m, oc_mbcast_alg alg,
                   oc_sched *out, oc_mbcast_info *info) {
  return oc_mb_plan_sx(p, 0, root, m, alg, out, info);
}

int oc_mb_plan_sx(const oc_params *p, int64_t sx, int64_t root, int64_t m, oc_mbcast_alg alg,
                  oc_sched *out, oc_mbcast_info *info) {
  oc_mbcast_info r;
  int e, large;
  if (info == NULL || sx < 0 || sx > OC_PARAM_MAX) return OC_EINVAL;
  if ((e = mb_check(p, root, m)) != OC_OK) return e;
  if (alg != OC_MB_BEST && (alg < 0 || alg >= OC_MB_COUNT)) return OC_EINVAL;
  large = oc_mul_sat(p->P, m) > OC_MB_FULL_MAX;
  memset(&r, 0, sizeof r);
  r.time = r.runner_up = -1;
  r.runner_alg = OC_MB_BEST;
  if (large && (e = oc_mb_plan_bounded(p, sx, root, m, alg, OC_MB_PROXY, &r)) != OC_OK) return e;
  for (int a = 0; a < OC_MB_COUNT && !large; a++) {
    oc_mbcast_info c;
    if (alg != OC_MB_BEST && a != (int)alg) continue;
    if (alg == OC_MB_BEST && a == OC_MB_PIPELINE) continue; /* by name only */
    memset(&c, 0, sizeof c);
    if (a == OC_MB_MULTITREE)
      e = mb_best_degree(p, sx, root, m, &c, &r.timed);
    else if (a == OC_MB_CIRCULANT)
      e = mb_best_streams(p, sx, root, m, &c, &r.timed);
    else
      e = mb_best_seg(p, sx, root, m, (oc_mbcast_alg)a, 0, &c, &r.timed);
    if (e == OC_ERANGE && alg == OC_MB_BEST) continue;
    if (e != OC_OK) return e;
    if (r.time < 0 || c.time < r.time) { /* ties: the earlier construction */
      r.runner_up = r.time;
      r.runner_alg = r.alg;
      r.time = c.time;
      r.alg = c.alg;
      r.seg = c.seg;
      r.degree = c.degree; /* 0 but for the multi-tree and the circulant */
      r.pace = c.pace;
      r.send_first = c.send_first;
      r.sx = c.sx;
    } else if (r.runner_up < 0 || c.time < r.runner_up) {
      r.runner_up = c.time;
      r.runner_alg = (oc_mbcast_alg)a;
    }
  }
  if (r.time < 0) return OC_ERANGE;
  if (out != NULL) {
    int64_t t;
    if ((e = oc_mbcast_run(p, root, m, &r, out, &t)) != OC_OK) return e;
    if (t != r.time) return OC_EINVALID; /* the simulator is deterministic */
  }
  *info = r;
  return OC_OK;
}

/* The overhead bound: the least T >= L + 2o with
 *   (P-1) T - start >= o (2m(P-1) - R(T)),  R(T) = min(m(P-1), floor((T-L-2o)/G) + 1),
 * where start bounds from below the sum over the non-root processors of the
 * moment each can first be busy (0 when o = 0 or the products do not fit). */
static int64_t mb_overhead_bound(const oc_params *p, int64_t m, int64_t start) {
  int64_t P = p->P, L = p->L, o = p->o, G = oc_max64(p->g, p->o);
  int64_t need = oc_mul_sat(oc_mul_sat(2 * o, m), P - 1), lo, hi;
  if (o == 0 || P < 2 || need == INT64_MAX || start == INT64_MAX) return 0;
  lo = L + 2 * o;
  hi = oc_add_sat(need, start) / (P - 1) + 1; /* (P-1) hi - start >= need */
  if (hi >= OC_TIME_MAX) return 0;
  hi = oc_max64(hi, lo);
  while (lo < hi) {
    int64_t T = lo + (hi - lo) / 2;
    int64_t R = oc_min64(oc_mul_sat(m, P - 1), (T - L - 2 * o) / G + 1);
    int64_t have = oc_mul_sat(P - 1, T) - start;
    if (have >= need - oc_mul_sat(o, R)) hi = T;
    else lo = T + 1;
  }
  return lo;
}

/* The sum of the P-1 smallest non-root labels of Karp et al.'s universal
 * tree (a node labelled x has children x + h + iG, i >= 0): the labels are
 * a h + b G (a >= 1 hops, b >= 0 waits) with multiplicity C(a+b-1, a-1),
 * all of them up to B(P) taken in order.  OC_ERANGE when that is more than
 * 2^22 (a, b) pairs or the sum does not fit. */
typedef struct mb_lab {
  int64_t v, n;
} mb_lab;
static int mb_lab_cmp(const void *x, const void *y) {
  const mb_lab *a = (const mb_lab *)x, *b = (const mb_lab *)y;
  return (a->v > b->v) - (a->v < b->v);
}
__extension__ typedef unsigned __int128 mb_u128;

static int mb_label_sum(const oc_params *p, int64_t B, int64_t *sum) {
  int64_t h = p->L + 2 * p->o, G = oc_max64(p->g, p->o), need = p->P - 1, npairs = 0, S = 0;
  mb_lab *lab;
  size_t n = 0;
  for (int64_t a = 1; a <= B / h; a++) {
    npairs = oc_add_sat(npairs, (B - a * h) / G + 1);
    if (npairs > ((int64_t)1 << 22)) return OC_ERANGE;
  }
  lab = (mb_lab *)malloc((size_t)(npairs + 1) * sizeof *lab);
  if (lab == NULL) return OC_ENOMEM;
  for (int64_t a = 1; a <= B / h; a++) {
    mb_u128 c = 1; /* C(a+b-1, a-1), capped above P */
    for (int64_t b = 0; a * h + b * G <= B; b++) {
      if (b > 0 && c <= (mb_u128)p->P) c = c * (mb_u128)(a + b - 1) / (mb_u128)b;
      lab[n].v = a * h + b * G;
      lab[n++].n = c > (mb_u128)p->P ? p->P : (int64_t)c;
    }
  }
  qsort(lab, n, sizeof *lab, mb_lab_cmp);
  for (size_t i = 0; i < n && need > 0; i++) {
    int64_t k = oc_min64(need, lab[i].n);
    S = oc_add_sat(S, oc_mul_sat(k, lab[i].v));
    need -= k;
  }
  free(lab);
  if (need > 0 || S == INT64_MAX) return OC_ERANGE;
  *sum = S;
  return OC_OK;
}

int oc_mb_label_sum(const oc_params *p, int64_t *sum) {
  int64_t B;
  int e;
  if (p->P < 2) {
    *sum = 0;
    return OC_OK;
  }
  if ((e = oc_bcast_time(p, &B)) != OC_OK) return e;
  return mb_label_sum(p, B, sum);
}

int oc_mbcast_bound(const oc_params *p, int64_t m, int64_t *lb, const char **source) {
  int64_t B, lb1, lb2;
  int e;
  if (p == NULL || lb == NULL || m < 1) return OC_EINVAL;
  if ((e = oc_bcast_time(p, &B)) != OC_OK) return e;
  if (p->P < 2) {
    *lb = 0;
    if (source != NULL) *source = "one processor";
    return OC_OK;
  }
  lb1 = oc_add_sat(B, oc_mul_sat(m - 1, oc_max64(p->g, p->o)));
  { /* the overhead bound: each non-root processor is busy only from its first
       reception on, o before its first packet is usable, and those moments
       are no earlier than the universal tree's labels */
    int64_t S;
    if (mb_label_sum(p, B, &S) == OC_OK)
      lb2 = mb_overhead_bound(p, m, S - oc_mul_sat(p->P - 1, p->o));
    else
      lb2 = mb_overhead_bound(p, m, oc_mul_sat(p->P - 1, p->L + p->o));
  }
  *lb = oc_max64(lb1, lb2);
  if (source != NULL)
    *source = lb2 > lb1 ? "overhead: receptions and forwarding sends, o each, after each "
                          "processor's first packet"
                        : "B(P) + (m-1) max(g,o): the last packet to leave the root";
  return OC_OK;
}
