/* oc_oview.c - order-keeping patterns as per-rank views: schedules for any
 * associative operator, commutative or not (MPI_Reduce, MPI_Allreduce and
 * MPI_Scan with a user operator that is not commutative).  Each rank's
 * value of a packet is always x_a op ... op x_b for a run of consecutive
 * ranks a..b; a reception that adds names the side the received run joins
 * (oc_mb_step.side).  The runtime executes these views as it executes the
 * planner's other schedules (rt_view.c); oc_verify_oviews checks a whole
 * set of them.
 *
 * Sources and costs (LogP, a message of the whole vector costing L + 2o,
 * one combination a; the runtime's cost model prices them: rt_model.c):
 *  - OC_OV_REDUCE: the optimal one-item reduction tree with a rank-order
 *    fold (Karp, Sahay, Santos & Schauser, SPAA'93, section 5, reversed
 *    broadcast; oc_reduce_new ordered), its packets pipelined down the tree:
 *    B(P) for the first packet at L + a, max(g, o + a) per packet after.
 *  - OC_OV_ALLREDUCE_RD: recursive doubling with the non-power-of-two
 *    pre- and post-step of Thakur, Rabenseifner & Gropp (IJHPCA 2005,
 *    section 4): (ceil(log2 P) + 2 [P not a power of two]) (L + 2o + a).
 *  - OC_OV_ALLREDUCE_DIRECT: reduce-scatter and allgather by one direct
 *    exchange each (the all-to-all of Karp et al. section 4.1 on blocks):
 *    2 (L + 2o) + 2 (P - 2) max(g, o) + (P - 1) a/P: two latencies, for
 *    networks whose per-message costs are small against L.
 *  - OC_OV_SCAN_RD: Hillis & Steele (CACM 1986): ceil(log2 P) rounds.
 *  - OC_OV_SCAN_CHAIN: the pipelined chain: (P - 1) (L + 2o + a) for the
 *    first packet, max(g, 2o + a) per packet after.
 *  - OC_OV_SCAN_DIRECT: one round: L + 2o + (P - 2) max(g, o) at the last
 *    rank, which also combines P - 1 values.
 * Each is optimal only in its corner (the runtime's model picks); the
 * commutative collectives run the planner's optimal schedules instead.
 * A view lists a rank's steps in its program's order: sends carry the
 * rank's value as it stands, receptions that add are combined in the
 * order listed. */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"

static int ov_push(oc_mb_rank *r, int kind, int64_t peer, int64_t item, int64_t len, int copy,
                   int side) {
  return oc_mb_push(r, kind, peer, item, len, copy, -1, side);
}

/* insertion sort of k[lo..hi), descending when down: a handful of children */
static void ov_sort(int64_t *k, int64_t lo, int64_t hi, int down) {
  for (int64_t i = lo + 1; i < hi; i++)
    for (int64_t j = i; j > lo && (down ? k[j] > k[j - 1] : k[j] < k[j - 1]); j--) {
      int64_t s = k[j];
      k[j] = k[j - 1];
      k[j - 1] = s;
    }
}

/* the rank-order tree: per packet the children (left of the rank nearest
 * first, then right nearest first), then the parent */
static int ov_reduce(const oc_params *p, int64_t root, int64_t m, int64_t x, oc_mb_rank *out) {
  oc_reduce *r = NULL;
  oc_reduce_view v;
  int64_t *kids = NULL, nl = 0, n;
  int e = oc_reduce_new(&r, p, root, 1);
  memset(&v, 0, sizeof v);
  if (e == OC_OK) e = oc_reduce_rank(r, x, &v);
  if (e == OC_OK && v.nchildren > INT64_MAX / 2 / m) e = OC_ERANGE;
  n = e == OC_OK ? v.nchildren : 0;
  if (e == OC_OK && (kids = (int64_t *)malloc((size_t)(2 * n + 1) * sizeof *kids)) == NULL)
    e = OC_ENOMEM;
  for (int64_t k = 0; k < n && e == OC_OK; k++) {
    int64_t st;
    e = oc_reduce_child(r, &v, k, &kids[n + k], &st);
  }
  if (e == OC_OK) {
    for (int64_t k = 0; k < n; k++)
      if (kids[n + k] < x) kids[nl++] = kids[n + k];
    for (int64_t k = 0, i = nl; k < n; k++)
      if (kids[n + k] > x) kids[i++] = kids[n + k];
    ov_sort(kids, 0, nl, 1);
    ov_sort(kids, nl, n, 0);
  }
  for (int64_t j = 0; j < m && e == OC_OK; j++) {
    for (int64_t k = 0; k < n && e == OC_OK; k++)
      e = ov_push(out, OC_MB_RECV, kids[k], j, 1, 0, k >= nl);
    if (e == OC_OK && v.parent >= 0) e = ov_push(out, OC_MB_SEND, v.parent, j, 1, 0, 0);
  }
  free(kids);
  oc_reduce_free(r);
  return e;
}

/* recursive doubling; all m packets in every message */
static int ov_allreduce_rd(int64_t P, int64_t m, int64_t x, oc_mb_rank *out) {
  int64_t Pp = 1, r, v;
  int e = OC_OK;
  while (Pp <= P / 2) Pp *= 2;
  r = P - Pp;
  if (x < 2 * r) { /* pre-step: 2i+1 hands its value to 2i, which appends it */
    v = x % 2 == 1 ? -1 : x / 2;
    e = x % 2 == 1 ? ov_push(out, OC_MB_SEND, x - 1, 0, m, 0, 0)
                   : ov_push(out, OC_MB_RECV, x + 1, 0, m, 0, 1);
  } else {
    v = x - r;
  }
  for (int64_t mask = 1; v >= 0 && mask < Pp && e == OC_OK; mask *= 2) {
    int64_t pv = v ^ mask, peer = pv < r ? 2 * pv : pv + r;
    e = ov_push(out, OC_MB_SEND, peer, 0, m, 0, 0);
    if (e == OC_OK) e = ov_push(out, OC_MB_RECV, peer, 0, m, 0, pv > v);
  }
  if (e == OC_OK && x < 2 * r) /* post-step: 2i passes the result to 2i+1 */
    e = x % 2 == 0 ? ov_push(out, OC_MB_SEND, x + 1, 0, m, 1, 0)
                   : ov_push(out, OC_MB_RECV, x - 1, 0, m, 1, 0);
  return e;
}

/* block j to rank j, the own block's runs joined in rank order, then the
 * own block to everyone */
static int ov_allreduce_direct(int64_t P, int64_t x, oc_mb_rank *out) {
  int e = OC_OK;
  for (int64_t i = 1; i < P && e == OC_OK; i++)
    e = ov_push(out, OC_MB_SEND, (x + i) % P, (x + i) % P, 1, 0, 0);
  for (int64_t q = x - 1; q >= 0 && e == OC_OK; q--) e = ov_push(out, OC_MB_RECV, q, x, 1, 0, 0);
  for (int64_t q = x + 1; q < P && e == OC_OK; q++) e = ov_push(out, OC_MB_RECV, q, x, 1, 0, 1);
  for (int64_t i = 1; i < P && e == OC_OK; i++) e = ov_push(out, OC_MB_SEND, (x + i) % P, x, 1, 1, 0);
  for (int64_t i = 1; i < P && e == OC_OK; i++) {
    int64_t q = (x - i + P) % P;
    e = ov_push(out, OC_MB_RECV, q, q, 1, 1, 0);
  }
  return e;
}

static int ov_scan(oc_ov_kind kind, int64_t P, int64_t m, int64_t x, oc_mb_rank *out) {
  int e = OC_OK;
  if (kind == OC_OV_SCAN_RD) {
    for (int64_t d = 1; d < P && e == OC_OK; d *= 2) {
      if (x + d < P) e = ov_push(out, OC_MB_SEND, x + d, 0, m, 0, 0);
      if (e == OC_OK && x - d >= 0) e = ov_push(out, OC_MB_RECV, x - d, 0, m, 0, 0);
    }
  } else if (kind == OC_OV_SCAN_CHAIN) {
    for (int64_t j = 0; j < m && e == OC_OK; j++) {
      if (x > 0) e = ov_push(out, OC_MB_RECV, x - 1, j, 1, 0, 0);
      if (e == OC_OK && x < P - 1) e = ov_push(out, OC_MB_SEND, x + 1, j, 1, 0, 0);
    }
  } else {
    for (int64_t q = x + 1; q < P && e == OC_OK; q++) e = ov_push(out, OC_MB_SEND, q, 0, m, 0, 0);
    for (int64_t q = x - 1; q >= 0 && e == OC_OK; q--) e = ov_push(out, OC_MB_RECV, q, 0, m, 0, 0);
  }
  return e;
}

int oc_oview_rank(const oc_params *p, oc_ov_kind kind, int64_t root, int64_t m, int64_t rank,
                  oc_mb_rank *out) {
  int64_t P;
  int e;
  if (p == NULL || out == NULL || oc_params_check(p) != OC_OK || m < 1) return OC_EINVAL;
  P = p->P;
  if (rank < 0 || rank >= P || (kind == OC_OV_REDUCE ? root < 0 || root >= P : root != -1))
    return OC_EINVAL;
  if (kind == OC_OV_ALLREDUCE_DIRECT && m != P) return OC_EINVAL;
  if (kind == OC_OV_SCAN_CHAIN && m > INT64_MAX / 2) return OC_ERANGE; /* 2 m steps */
  out->n = 0;
  out->rank = rank;
  switch (kind) {
  case OC_OV_REDUCE: e = ov_reduce(p, root, m, rank, out); break;
  case OC_OV_ALLREDUCE_RD: e = ov_allreduce_rd(P, m, rank, out); break;
  case OC_OV_ALLREDUCE_DIRECT: e = ov_allreduce_direct(P, rank, out); break;
  case OC_OV_SCAN_RD:
  case OC_OV_SCAN_CHAIN:
  case OC_OV_SCAN_DIRECT: e = ov_scan(kind, P, m, rank, out); break;
  default: e = OC_EINVAL; break;
  }
  if (e != OC_OK) out->n = 0;
  return e;
}
