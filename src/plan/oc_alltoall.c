/* oc_alltoall.c - all-to-all broadcast and personalized exchange.
 *
 * Source: Karp, Sahay, Santos, Schauser (SPAA'93) section 4.1.  Processor
 * i sends item j to i+1, ..., i+P-1 (mod P) in turn; all processors keep
 * the same pace, so in each step every processor is the target of exactly
 * one message.  Karp et al. send every g and reach the bound
 * L + 2o + g(k(P-1) - 1); they take g >= 2o implicitly.  Under the
 * contract a processor's send overheads [mD, mD+o) and receive overheads
 * [mD+o+L, mD+2o+L) must not overlap, so the spacing D is the least value
 * >= g for which the two phases (0 and (o + L) mod D, each o long) are
 * disjoint modulo D; D = g whenever g >= 2o and the phases fit.
 * Time: L + 2o + D(k(P-1) - 1) (0 for P = 1).
 * Lower bound: max(L + 2o + g(M - 1), 2oM) with M = k(P-1).
 * Worked example: P = 4, L = 6, o = 2, g = 4, k = 1: sends at 0, 4, 8,
 * receptions at 8, 12, 16 (phase 0 vs 0 in D = 4: overlap), D = 5 gives
 * phases 0 and 3 (disjoint), time 6 + 4 + 10 = 20 against a bound of 18.
 *
 * The mesh allgather (oc_allgather_mesh_rank): the same all-to-all run in
 * phases along the dimensions of a d_1 x ... x d_n grid of the ranks, each
 * phase on the blocks gathered so far (the 2-D mesh is one of the
 * allgathers compared by Benson, Chu, Huang & Ng, EuroPVM/MPI 2003; SMPI
 * ships it as `2dmesh`/`3dmesh`).  Each rank sends sum (d_t - 1) messages
 * instead of P - 1 and receives the same (P - 1) blocks; in LogP with a
 * per-message cost that does not grow with the size (g, o) it is not
 * optimal (Karp's all-to-all is), but where a message's gap grows with its
 * bytes and a message costs more than its bytes - measured networks - the
 * runtime's model prices it lower (docs/RUNTIME.md: phase t costs
 * L + 2o + (d_t - 2) c(s_t) at its block size s_t).  Worked example: P = 6
 * as 2 x 3: rank 4 (digits 0, 2) sends block 4 to rank 5 and receives
 * block 5 from it, then sends blocks 4..5 to ranks 0 and 2 and receives
 * blocks 2..3 from rank 2 and 0..1 from rank 0.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"

/* least D >= max(g, 2o, 1) with [0, o) and [ph, ph + o) disjoint mod D,
 * ph = (o + L) mod D */
static int64_t spacing(const oc_params *p) {
  int64_t o = p->o, D = oc_max64(p->g, 2 * o);
  if (o == 0) return D;
  for (;; D++) {
    int64_t ph = (o + p->L) % D;
    if (ph >= o && ph + o <= D) return D;
  }
}

int oc_alltoall_schedule(const oc_params *p, int64_t k, int personalized,
                         oc_sched *out, int64_t *time, int64_t *lower_bound) {
  int64_t P, M, D, e;
  if ((e = oc_params_check(p)) != OC_OK) return (int)e;
  P = p->P;
  if (k < 1) return OC_ERANGE;
  if (out != NULL && (P > OC_GLOBAL_PROCS_MAX || k > OC_GLOBAL_PROCS_MAX / P ||
                      (P - 1) > OC_GLOBAL_PROCS_MAX / (P * k)))
    return OC_ERANGE;
  M = oc_mul_sat(k, P - 1); /* times only: saturating for huge P */
  D = spacing(p);
  for (int64_t j = 0; j < k && out != NULL; j++) {
    for (int64_t r = 1; r < P; r++) {
      int64_t m = j * (P - 1) + (r - 1); /* step */
      for (int64_t i = 0; i < P; i++) {
        int64_t dst = (i + r) % P;
        int64_t item = personalized ? (i * P + dst) * k + j : i * k + j;
        if ((e = oc_sched_push(out, m * D, i, dst, item)) != OC_OK) return (int)e;
      }
    }
  }
  *time = P == 1 ? 0 : oc_add_sat(p->L + 2 * p->o, oc_mul_sat(D, M - 1));
  *lower_bound = P == 1 ? 0
                        : oc_max64(oc_add_sat(p->L + 2 * p->o, oc_mul_sat(p->g, M - 1)),
                                   oc_mul_sat(2 * p->o, M));
  return OC_OK;
}

/* One processor's part of the all-to-all broadcast above: in step
 * m = j(P-1) + (r-1) it sends its item j to rank + r and receives item j
 * of rank - r (mod P), every message a copy; O(k P) steps, nothing else
 * kept.  The runtime's allgather runs it (k = 1: a block a rank). */
int oc_alltoall_rank(const oc_params *p, int64_t k, int64_t rank, oc_mb_rank *out) {
  int64_t P;
  int e;
  if (out == NULL) return OC_EINVAL;
  if ((e = oc_params_check(p)) != OC_OK) return e;
  P = p->P;
  if (k < 1 || rank < 0 || rank >= P) return OC_ERANGE;
  if (k > OC_GLOBAL_PROCS_MAX / P) return OC_ERANGE; /* 2 k (P - 1) steps */
  out->n = 0;
  out->rank = rank;
  for (int64_t j = 0; j < k; j++)
    for (int64_t r = 1; r < P; r++) {
      int64_t to = (rank + r) % P, from = (rank - r + P) % P;
      if ((e = oc_mb_push(out, OC_MB_SEND, to, rank * k + j, 1, 1, -1, 0)) != OC_OK ||
          (e = oc_mb_push(out, OC_MB_RECV, from, from * k + j, 1, 1, -1, 0)) != OC_OK) {
        out->n = 0;
        return e;
      }
    }
  return OC_OK;
}

/* The mesh allgather (plan.h): phase t among the d_t ranks of q's line
 * along digit t, blocks of w_t packets.  O(sum d_t) steps. */
int oc_allgather_mesh_rank(int64_t P, const int64_t *dims, int n, int64_t rank,
                           oc_mb_rank *out) {
  int64_t prod = 1, w = 1;
  int e;
  if (out == NULL || (dims == NULL && n > 0)) return OC_EINVAL;
  if (P < 1 || P > OC_GLOBAL_PROCS_MAX || n < 0 || n > OC_MESH_DIMS_MAX || rank < 0 ||
      rank >= P)
    return OC_ERANGE;
  for (int t = 0; t < n; t++) {
    if (dims[t] < 2 || dims[t] > P / prod) return OC_ERANGE;
    prod *= dims[t];
  }
  if (prod != P) return OC_ERANGE;
  out->n = 0;
  out->rank = rank;
  for (int t = 0; t < n; t++) {
    int64_t d = dims[t], digit = (rank / w) % d, base = rank - digit * w;
    int64_t mine = rank - rank % w; /* the block this rank holds: [mine, mine + w) */
    for (int64_t s = 1; s < d; s++) {
      int64_t to = base + ((digit + s) % d) * w, from = base + ((digit - s + d) % d) * w;
      if ((e = oc_mb_push(out, OC_MB_SEND, to, mine, w, 1, -1, 0)) != OC_OK ||
          (e = oc_mb_push(out, OC_MB_RECV, from, from - from % w, w, 1, -1, 0)) != OC_OK) {
        out->n = 0;
        return e;
      }
    }
    w *= d;
  }
  return OC_OK;
}
