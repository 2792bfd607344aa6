/* rt_choose.c - which algorithm a collective runs and how many segments it
 * cuts the buffer into, as data: a table of candidates per collective, each
 * with its cost function (rt_model.c).  The model's least wins, or the one
 * oc_comm_set_algorithm forced; a segmented candidate's segment count is
 * searched over the powers of two.  A memo per collective keeps the last
 * RT_MEMO_WAYS choices for the next calls of the same shapes.
 *
 * The rule, for every collective: the table's first candidate is the
 * default; the first allowed candidate is taken whatever its time, each
 * later one only when strictly cheaper.  A segmented candidate counts only
 * with a segment count below the time to beat. */
#include <string.h>

#include "core/oc_core.h"
#include "optcast_rt.h"
#include "rt/rt_internal.h"

enum {
  C_SEGMENTED = 1,   /* the segment count is searched                      */
  C_COMMUTATIVE = 2, /* chosen by the model only for commutative operators */
  C_BLOCKS = 4,      /* chosen by the model only with P > 2 and blocks of at
                      * least OC_RT_SEGMENT_MIN bytes: each of its 2(P - 1)
                      * steps pays the per-message costs the figures miss  */
  C_RANGE_STOPS = 8, /* segment counts past the model's range end the search
                      * (the tree's m G overflows); none in range is OC_ERANGE */
  C_SIMULATED = 16   /* the planner's constructions, priced by simulating
                      * the whole schedule (rt_view_time), up to
                      * RT_VIEW_PRICE_MAX messages P m: only when named
                      * (oc_comm_set_algorithm), where that price is not what
                      * runs (docs/SMPI.md: the circulant's) or costs too
                      * much to work out on every rank.  The two-tree
                      * broadcast and reduce, which run at their prices, are
                      * priced so in the model's own choice too (tens of ms
                      * a call shape up to 2^16 messages,
                      * bench/bench_rtchoose.c; the shapes are memoised) */
};

/* allreduce's tree: reduce to 0 + broadcast from 0, each as chosen */
static int cost_reduce_bcast(oc_comm *c, const rt_shape *s, int64_t *t) {
  rt_choice r, b;
  int e = rt_choose(c, RT_REDUCE, s->count, s->el, &r);
  if (e == OC_OK) e = rt_choose(c, RT_BCAST, s->count, s->el, &b);
  if (e == OC_OK) *t = oc_add_sat(r.t, b.t);
  return e;
}

/* a planner's schedule run as it is (rt_view.c): its simulated time, at the
 * segment count for bcast and reduce, at its own packets for allreduce */
static int cost_view(oc_comm *c, const rt_shape *s, int64_t *t) {
  int64_t m = s->coll == RT_ALLREDUCE ? rt_view_packets(c, s->alg, s->count) : s->m;
  int e = OC_ERANGE;
  if (oc_max64(m, 1) <= RT_VIEW_PRICE_MAX / c->tp.size)
    e = rt_view_time(c, s->coll, s->alg, s->count, s->el, oc_max64(m, 1), t);
  if (e == OC_ERANGE && s->coll == RT_ALLREDUCE) { /* too large to simulate: runs unpriced */
    *t = 0;
    return OC_OK;
  }
  return e;
}

/* the allgather as Karp et al.'s all-to-all, on blocks of count elements */
static int cost_all_to_all(oc_comm *c, const rt_shape *s, int64_t *t) {
  return rt_cost_allgather(c, oc_mul_sat(s->count, (int64_t)s->el->extent), t);
}

#define V_FLAGS (C_SEGMENTED | C_RANGE_STOPS | C_SIMULATED)
#define V_BCAST(a, n) {RT_BCAST, "bcast", n, RT_ALG_MB + (a), n, V_FLAGS, cost_view}
#define V_REDUCE(a, n) \
  {RT_REDUCE, "reduce", n, RT_ALG_MB + (a), "reversed " n, V_FLAGS | C_COMMUTATIVE, cost_view}

static const struct rt_cand {
  int coll;
  const char *coll_name, *opt; /* oc_comm_set_algorithm's names (opt NULL: none) */
  int alg;
  const char *name;            /* oc_callinfo's algorithm */
  unsigned flags;
  rt_cost_fn *cost;
} CANDS[] = {
    {RT_BCAST, "bcast", "pipeline", RT_ALG_TREE, "karp-pipeline", C_SEGMENTED | C_RANGE_STOPS,
     rt_cost_tree},
    V_BCAST(OC_MB_KARP, "karp"), V_BCAST(OC_MB_CHAIN, "chain"),
    V_BCAST(OC_MB_BINARY, "binary"), V_BCAST(OC_MB_BINOMIAL, "binomial"),
    {RT_BCAST, "bcast", "two-tree", RT_ALG_MB + OC_MB_TWOTREE, "two-tree",
     C_SEGMENTED | C_RANGE_STOPS, cost_view},
    V_BCAST(OC_MB_CIRCULANT, "circulant-bcast"),
    {RT_REDUCE, "reduce", "pipeline", RT_ALG_TREE, "karp-reduce", C_SEGMENTED | C_RANGE_STOPS,
     rt_cost_tree},
    V_REDUCE(OC_MB_KARP, "karp"), V_REDUCE(OC_MB_CHAIN, "chain"),
    V_REDUCE(OC_MB_BINARY, "binary"), V_REDUCE(OC_MB_BINOMIAL, "binomial"),
    {RT_REDUCE, "reduce", "two-tree", RT_ALG_MB + OC_MB_TWOTREE, "reversed two-tree",
     C_SEGMENTED | C_RANGE_STOPS | C_COMMUTATIVE, cost_view},
    V_REDUCE(OC_MB_CIRCULANT, "circulant-bcast"),
    {RT_ALLREDUCE, "allreduce", "tree", RT_ALG_TREE, "reduce+bcast", 0, cost_reduce_bcast},
    {RT_ALLREDUCE, "allreduce", "doubling", RT_ALG_DOUBLING, "recursive-doubling", 0,
     rt_cost_rd},
    {RT_ALLREDUCE, "allreduce", "ring", RT_ALG_RING, "ring", C_COMMUTATIVE | C_BLOCKS,
     rt_cost_ring},
    {RT_ALLREDUCE, "allreduce", "direct", RT_ALG_DIRECT, "direct-rs-ag", 0, rt_cost_direct},
    {RT_ALLREDUCE, "allreduce", "rabenseifner", RT_ALG_RABEN, "rabenseifner",
     C_SIMULATED | C_COMMUTATIVE, cost_view},
    {RT_ALLREDUCE, "allreduce", "circulant", RT_ALG_CIRCULANT, "circulant",
     C_SIMULATED | C_COMMUTATIVE, cost_view},
    {RT_ALLGATHER, "allgather", "all-to-all", RT_ALG_DIRECT, "karp-all-to-all", 0,
     cost_all_to_all},
    {RT_ALLGATHER, "allgather", "mesh", RT_ALG_MESH, "mesh", 0, rt_cost_mesh},
    {RT_SCAN, "scan", "doubling", RT_ALG_DOUBLING, "recursive-doubling", 0, rt_cost_scan_rd},
    {RT_SCAN, "scan", "chain", RT_ALG_CHAIN, "pipelined-chain", C_SEGMENTED, rt_cost_chain},
    {RT_SCAN, "scan", "direct", RT_ALG_DIRECT, "direct", 0, rt_cost_scan_direct},
};
#define NCANDS (sizeof CANDS / sizeof CANDS[0])

int rt_alg_lookup(const char *collective, const char *algorithm, int *coll, int *alg) {
  for (size_t i = 0; i < NCANDS; i++)
    if (CANDS[i].opt != NULL && strcmp(CANDS[i].coll_name, collective) == 0 &&
        (strcmp(CANDS[i].opt, algorithm) == 0 || strcmp("auto", algorithm) == 0)) {
      *coll = CANDS[i].coll;
      *alg = strcmp("auto", algorithm) == 0 ? RT_ALG_AUTO : CANDS[i].alg;
      return OC_OK;
    }
  return OC_EINVAL;
}

/* name k of the list into buf (n bytes, truncated), after a comma */
static void name_add(char *buf, size_t n, size_t *used, int k, const char *name) {
  int w;
  if (buf == NULL || *used + 1 >= n) return;
  w = snprintf(buf + *used, n - *used, "%s%s", k > 0 ? ", " : "", name);
  if (w > 0) *used = *used + (size_t)w < n ? *used + (size_t)w : n - 1;
}

int oc_algorithm_names(const char *collective, char *buf, size_t n) {
  int k = 0;
  size_t used = 0;
  if (buf != NULL && n > 0) buf[0] = '\0';
  if (collective == NULL) return 0;
  for (size_t i = 0; i < NCANDS; i++) {
    if (CANDS[i].opt == NULL || strcmp(CANDS[i].coll_name, collective) != 0) continue;
    if (k == 0) name_add(buf, n, &used, k++, "auto");
    name_add(buf, n, &used, k++, CANDS[i].opt);
  }
  return k;
}

/* Segment counts for candidate k: the caller's segment size (one count),
 * else m = 1, 2, 4, ... up to OC_RT_SEGMENTS_MAX while a segment keeps
 * OC_RT_SEGMENT_MIN bytes; *m, *t replaced by any cheaper than *t. */
static int search(oc_comm *c, const struct rt_cand *k, int64_t count, const oc_elem *el,
                  int64_t *best_m, int64_t *best_t) {
  rt_shape s = {k->coll, k->alg, count, 0, 0, el};
  int64_t t, m;
  int e;
  if (c->seg_bytes > 0) {
    s.len = oc_max64(1, c->seg_bytes / (int64_t)el->extent);
    s.m = oc_max64(1, rt_seg_len(count, s.len));
    e = k->cost(c, &s, &t);
    if (e == OC_ERANGE && (k->flags & C_RANGE_STOPS)) return OC_OK; /* none in range */
    if (e != OC_OK) return e;
    if (t < *best_t) {
      *best_t = t;
      *best_m = s.m;
    }
    return OC_OK;
  }
  for (m = 1; m <= OC_RT_SEGMENTS_MAX && m <= oc_max64(count, 1); m *= 2) {
    s.len = rt_seg_len(count, m);
    s.m = count > 0 ? rt_seg_len(count, s.len) : 1;
    if (m > 1 && s.len * (int64_t)el->extent < OC_RT_SEGMENT_MIN) break;
    e = k->cost(c, &s, &t);
    if (e == OC_ERANGE && (k->flags & C_RANGE_STOPS)) break;
    if (e) return e;
    if (t < *best_t) {
      *best_t = t;
      *best_m = s.m;
    }
  }
  return OC_OK;
}

static int allowed(const oc_comm *c, const struct rt_cand *k, int64_t count,
                   const oc_elem *el) {
  int forced = c->alg[k->coll];
  if (forced != RT_ALG_AUTO) return k->alg == forced;
  if (k->flags & C_SIMULATED) return 0; /* by name only */
  if ((k->flags & C_COMMUTATIVE) && !el->commutative) return 0;
  if ((k->flags & C_BLOCKS) &&
      (c->tp.size <= 2 || count / c->tp.size * (int64_t)el->extent < OC_RT_SEGMENT_MIN))
    return 0;
  return 1;
}

int rt_choose(oc_comm *c, int coll, int64_t count, const oc_elem *el, rt_choice *out) {
  rt_memo *mo;
  const struct rt_cand *def = NULL;
  rt_choice best;
  int any = 0, e;
  for (int w = 0; w < RT_MEMO_WAYS; w++) {
    mo = &c->memo[coll][w];
    if (mo->valid && mo->alg == c->alg[coll] && mo->count == count &&
        mo->extent == el->extent && mo->commutative == el->commutative &&
        mo->seg == c->seg_bytes) {
      *out = mo->pick; /* a call of the same shape as before */
      return OC_OK;
    }
  }
  memset(&best, 0, sizeof best);
  best.t = OC_SAT;
  for (size_t i = 0; i < NCANDS; i++) {
    const struct rt_cand *k = &CANDS[i];
    int64_t t = any ? best.t : OC_SAT, m = 0;
    if (k->coll != coll) continue;
    if (def == NULL) { /* the default, until another is taken */
      def = k;
      best.alg = k->alg;
      best.name = k->name;
    }
    if (!allowed(c, k, count, el)) continue;
    if (k->flags & C_SEGMENTED) {
      if ((e = search(c, k, count, el, &m, &t)) != OC_OK) return e;
      if (m == 0) { /* no segment count below the time to beat */
        if (any) continue;
        if (k->flags & C_RANGE_STOPS) return OC_ERANGE; /* none in range */
        any = 1;
        continue;
      }
    } else if ((e = k->cost(c, &(rt_shape){coll, k->alg, count, 0, 1, el}, &t)) != OC_OK) {
      return e;
    } else if (any && t >= best.t) {
      continue;
    }
    best.alg = k->alg;
    best.name = k->name;
    best.m = m;
    best.t = t;
    any = 1;
  }
  if (def == NULL) return OC_EINVAL;
  mo = &c->memo[coll][c->memo_next[coll]];
  c->memo_next[coll] = (c->memo_next[coll] + 1) % RT_MEMO_WAYS;
  mo->valid = 1;
  mo->alg = c->alg[coll];
  mo->count = count;
  mo->extent = el->extent;
  mo->commutative = el->commutative;
  mo->seg = c->seg_bytes;
  mo->pick = best;
  *out = best;
  return OC_OK;
}
