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

/* Times only (out == NULL): the compaction is run up to this many
 * messages (2 x 8 bytes each, 64 MB), past it the periodic time. */
#define OC_A2A_TIMES_MAX ((int64_t)1 << 22)

/* The lower bound of the header, M = k(P-1) >= 1, G = max(g, o). */
static int64_t a2a_bound(const oc_params *p, int64_t M) {
  int64_t L = p->L, o = p->o, G = oc_max64(p->g, o), A, a, idle, busy, B1, B2;
  if (M < 1) return 0;
  A = oc_add_sat(L + 2 * o, oc_mul_sat(G, M - 1));
  if (o > 0 && A < OC_SAT) { /* a send jG and a reception L + o + dG (|d| < M) collide */
    int64_t x = L + o, d0 = -(x / G);
    for (int64_t d = d0 - 1; d <= d0 + 1; d++) {
      int64_t y;
      if (d < -(M - 1) || d > M - 1) continue;
      y = x + d * G; /* |d| <= x / G + 1: no overflow */
      if ((y < 0 ? -y : y) < o) {
        A++;
        break;
      }
    }
  }
  a = (L + o + G - 1) / G; /* send starts in [0, L + o) */
  if (a > M) a = M;
  idle = L + o - a * o; /* a <= (L + o)/G + 1 <= 2^41: no overflow */
  if (idle < 0) idle = 0;
  busy = oc_mul_sat(2 * o, M);
  B1 = oc_max64(A, oc_add_sat(busy, idle));
  if (B1 < 2 * (L + o)) return B1; /* the two ends may overlap */
  B2 = oc_add_sat(busy, 2 * idle);
  return oc_max64(B1, B2);
}

/* The compaction: the periodic plan's messages, in its order (step m =
 * j(P-1) + r - 1, then i), each sent as early as the rules allow given the
 * ones before it, every processor's sends and receptions kept in the
 * plan's order.  snd[i M + m] gets processor i's send of step m.  Linear:
 * rp[i] walks i's receptions and sp[i] its sends, never back. */
static int compact(const oc_params *p, int64_t k, int64_t *snd, int64_t *time) {
  int64_t P = p->P, M = k * (P - 1), L = p->L, o = p->o, G = oc_max64(p->g, o), T = 0;
  int64_t *rcv = (int64_t *)malloc((size_t)(P * M) * sizeof *rcv);
  int64_t *cnt = (int64_t *)calloc((size_t)(4 * P), sizeof *cnt);
  int64_t *ns = cnt, *nr = cnt + P, *sp = cnt + 2 * P, *rp = cnt + 3 * P;
  int e = OC_OK;
  if (rcv == NULL || cnt == NULL) { e = OC_ENOMEM; goto done; }
  for (int64_t m = 0; m < M; m++) {
    int64_t r = m % (P - 1) + 1;
    for (int64_t a = 0; a < P; a++) {
      int64_t b = (a + r) % P, s = 0, *ra = rcv + a * M, *sb = snd + b * M;
      if (ns[a] > 0) s = snd[a * M + ns[a] - 1] + G;
      if (nr[b] > 0) s = oc_max64(s, rcv[b * M + nr[b] - 1] + G - o - L);
      while (o > 0) { /* a's receptions against [s, s+o), b's sends against s+o+L */
        int64_t R;
        while (rp[a] < nr[a] && ra[rp[a]] + o <= s) rp[a]++;
        if (rp[a] < nr[a] && ra[rp[a]] < s + o) { s = ra[rp[a]] + o; continue; }
        R = s + o + L;
        while (sp[b] < ns[b] && sb[sp[b]] + o <= R) sp[b]++;
        if (sp[b] < ns[b] && sb[sp[b]] < R + o) { s = sb[sp[b]] - L; continue; }
        break;
      }
      if (s > OC_TIME_MAX) { e = OC_ERANGE; goto done; }
      snd[a * M + ns[a]++] = s;
      rcv[b * M + nr[b]++] = s + o + L;
      if (s + L + 2 * o > T) T = s + L + 2 * o;
    }
  }
  *time = T;
done:
  free(rcv);
  free(cnt);
  return e;
}

int oc_alltoall_schedule(const oc_params *p, int64_t k, int personalized,
                         oc_sched *out, int64_t *time, int64_t *lower_bound) {
  int64_t P, M, D, e, per, ct = OC_SAT, *snd = NULL;
  if ((e = oc_params_check(p)) != OC_OK) return (int)e;
  P = p->P;
  if (k < 1) return OC_ERANGE;
  if (out != NULL && (P > OC_GLOBAL_PROCS_MAX || k > OC_GLOBAL_PROCS_MAX / P ||
                      (P - 1) > OC_GLOBAL_PROCS_MAX / (P * k)))
    return OC_ERANGE;
  M = oc_mul_sat(k, P - 1); /* times only: saturating for huge P */
  D = spacing(p);
  per = P == 1 ? 0 : oc_add_sat(p->L + 2 * p->o, oc_mul_sat(D, M - 1));
  /* o = 0: the periodic plan meets the bound; past OC_A2A_TIMES_MAX
   * messages a times-only call reports the periodic time */
  if (P > 1 && p->o > 0 && per < OC_SAT &&
      (out != NULL || (P <= OC_A2A_TIMES_MAX && M <= OC_A2A_TIMES_MAX / P))) {
    snd = (int64_t *)malloc((size_t)(P * M) * sizeof *snd);
    if (snd == NULL) return OC_ENOMEM;
    e = compact(p, k, snd, &ct);
    if (e == OC_ERANGE) ct = OC_SAT; /* past OC_TIME_MAX: the periodic plan */
    else if (e != OC_OK) { free(snd); return (int)e; }
  }
  for (int64_t j = 0; j < k && out != NULL; j++) {
    for (int64_t r = 1; r < P; r++) {
      int64_t m = j * (P - 1) + (r - 1); /* step */
      for (int64_t i = 0; i < P; i++) {
        int64_t dst = (i + r) % P;
        int64_t item = personalized ? (i * P + dst) * k + j : i * k + j;
        int64_t t = ct < per ? snd[i * M + m] : m * D;
        if ((e = oc_sched_push(out, t, i, dst, item)) != OC_OK) {
          free(snd);
          return (int)e;
        }
      }
    }
  }
  free(snd);
  *time = ct < per ? ct : per;
  *lower_bound = P == 1 ? 0 : a2a_bound(p, M);
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
