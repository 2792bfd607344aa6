/* oc_alltoall.c - all-to-all broadcast and personalized exchange.
 *
 * Source: Karp, Sahay, Santos, Schauser (SPAA'93) section 4.1.  Processor
 * i sends to i+1, ..., i+P-1 (mod P) in turn, its k items to each before
 * the next (Karp et al. go item by item; for k = 1 the same, and the order
 * is what the compaction below needs); all processors keep the same pace,
 * so in each step every processor is the target of exactly one message.
 * Karp et al. send every g and reach the bound L + 2o + g(k(P-1) - 1); they
 * take g >= 2o implicitly.  Under the contract a processor's send overheads
 * [mD, mD+o) and receive overheads [mD+o+L, mD+2o+L) must not overlap, so
 * the spacing D is the least value >= g for which the two phases (0 and
 * (o + L) mod D, each o long) are disjoint modulo D; D = g whenever g >= 2o
 * and the phases fit.  Periodic time: L + 2o + D(k(P-1) - 1) (0 for P = 1).
 * Worked example: P = 4, L = 6, o = 2, g = 4, k = 1: sends at 0, 4, 8,
 * receptions at 8, 12, 16 (phase 0 vs 0 in D = 4: overlap), D = 5 gives
 * phases 0 and 3 (disjoint), time 6 + 4 + 10 = 20.
 *
 * Compaction (o > 0; with o = 0 the periodic plan meets the bound).  The
 * same messages in the same order (step m, then sender i), each sent at the
 * earliest time the rules allow given the ones placed before it, with every
 * processor's sends and its receptions kept in the plan's order: a send
 * starts >= G = max(g, o) after the sender's previous send, its reception
 * (at s + o + L: there is no buffering) >= G after the receiver's previous
 * reception, and while [s, s+o) meets one of the sender's receptions or
 * [s+o+L, s+2o+L) one of the receiver's sends, s moves to just past it.
 * Per processor a pointer walks its receptions and one its sends, never
 * back (the send and reception times it checks only grow), so a pass is
 * linear in the k P (P-1) messages.  In step, every processor meets the
 * same collision at the same moment; so the pass is also run with
 * processor i's first send held to i h or (P-1-i) h, h = u = gcd(L, o, g), o, G/2 (7
 * passes in all, 24 bytes a message), which lets the receptions fall
 * between the sends where they would not in step.  The fastest of these
 * and the periodic plan is kept.  The processors' orders are the plan's
 * in every case, so oc_alltoall_rank is the view of whichever is kept.
 * Worked example: P = 3, L = 20, o = 4, g = 3, k = 3: D = 10 and 78
 * periodic; compacted every processor sends at 0, 4, ..., 20 and receives
 * at 24, 28, ..., 44: 48, the bound.
 *
 * Lower bound, M = k(P-1), G = max(g, o), c = ceil((L+o)/G), a = min(M, c),
 * idle = max(0, L + o - a o):
 *   A  = L + 2o + G(M-1), plus 1 when o > 0 and |L + o + dG| < o for an
 *        integer |d| < M;
 *   B1 = 2oM + idle;  LB = max(A, B1);
 *   B2 = 2oM + 2 idle, counted only when LB >= 2(L + o): max(LB, B2).
 * Proof, T the completion time; drop every message that arrives after T
 * (it brings nothing needed by T, and a relay of its item would arrive
 * later still).  (1) Every processor lacks M items, so receives >= M
 * messages, each starting >= L + o and ending <= T, two of them >= G
 * apart (receive gap, overlap): T >= L + 2o + G(M-1).  (2) There are >= PM
 * receptions, as many sends, so some processor p sends S >= M (relays
 * included); it receives R >= M.  (3) If T = L + 2o + G(M-1), p's M
 * receptions start exactly at L + o + jG and its sends (starts <= T - L
 * - 2o, >= G apart) exactly at jG, j < M; a send and a reception that
 * overlap make that impossible.  (4) p is busy (S + R)o.  Before L + o
 * nothing reaches it, so it only sends there: at most min(S, c) send starts
 * in [0, L + o), busy at most min(L + o, min(S, c) o) of it; so T >= L + o
 * + (S + R)o - min(L + o, min(S, c) o) >= B1 (the right side grows with S
 * and R).  (5) After T - L - o it only receives (a later send would arrive
 * after T), again at most min(L + o, min(R, c) o) busy; when T >= 2(L + o)
 * the two windows are disjoint and T >= 2(L + o) + (S + R)o - 2 min(L + o,
 * a o) >= B2.  Both ends idle, as in (4) and (5), and the collision of (3)
 * are what the old bound max(L + 2o + g(M-1), 2oM) missed.  Exhaustive
 * search (tests/test_collect.c, alltoall_exact: P <= 3, k <= 2, L <= 4,
 * o <= 3, g <= 4) finds the bound tight on 251 of 304 instances and the
 * plan optimal on 291.  Worked example: P = 17, L = 3, o = 1, g = 2, k = 1:
 * A = 35 + 1 (L + o = 2G: a send at 4 meets a reception at 4), idle = 4 -
 * 2 = 2, B1 = 34, B2 = 36: bound 36; periodic 50, compacted 42.
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

/* The compaction: the plan's messages, in its order (step m, then sender
 * i), each sent as early as the rules allow given the ones placed before
 * it, every processor's sends and receptions kept in the plan's order;
 * processor i sends first at rel(i) = i c (dir 0) or (P-1-i) c (dir 1)
 * or later.  snd[i M + m] gets processor i's send of step m.  Linear: rp[i]
 * walks i's receptions and sp[i] its sends, never back.  OC_ERANGE past
 * OC_TIME_MAX. */
static int compact(const oc_params *p, int64_t k, int64_t c, int dir, int64_t *snd,
                   int64_t *rcv, int64_t *cnt, int64_t *time) {
  int64_t P = p->P, M = k * (P - 1), L = p->L, o = p->o, G = oc_max64(p->g, o), T = 0;
  int64_t *ns = cnt, *nr = cnt + P, *sp = cnt + 2 * P, *rp = cnt + 3 * P;
  memset(cnt, 0, (size_t)(4 * P) * sizeof *cnt);
  for (int64_t m = 0; m < M; m++) {
    int64_t r = m / k + 1;
    for (int64_t a = 0; a < P; a++) {
      int64_t b = (a + r) % P, s, *ra = rcv + a * M, *sb = snd + b * M;
      s = ns[a] > 0 ? snd[a * M + ns[a] - 1] + G : oc_mul_sat(dir ? P - 1 - a : a, c);
      if (nr[b] > 0) s = oc_max64(s, rcv[b * M + nr[b] - 1] + G - o - L);
      if (s > OC_TIME_MAX) return OC_ERANGE;
      while (o > 0) { /* a's receptions against [s, s+o), b's sends against s+o+L */
        int64_t R;
        while (rp[a] < nr[a] && ra[rp[a]] + o <= s) rp[a]++;
        if (rp[a] < nr[a] && ra[rp[a]] < s + o) { s = ra[rp[a]] + o; continue; }
        R = s + o + L;
        while (sp[b] < ns[b] && sb[sp[b]] + o <= R) sp[b]++;
        if (sp[b] < ns[b] && sb[sp[b]] < R + o) { s = sb[sp[b]] - L; continue; }
        break;
      }
      if (s > OC_TIME_MAX) return OC_ERANGE;
      snd[a * M + ns[a]++] = s;
      rcv[b * M + nr[b]++] = s + o + L;
      if (s + L + 2 * o > T) T = s + L + 2 * o;
    }
  }
  *time = T;
  return OC_OK;
}

/* The fastest compaction: processors in step (c = 0), then staggered by
 * c = u, o and G/2 (rounded down to a multiple of u) a processor either
 * way, u = gcd(L, o, g) the model's own time quantum - so the choice, and
 * the time, do not depend on the unit the parameters are written in (test
 * cli_units: 1.8us/1400ns/3000ns against 18/14/30).  *best the time
 * (OC_SAT: none within OC_TIME_MAX); snd the winner's send starts (NULL:
 * times only). */
static int compact_best(const oc_params *p, int64_t k, int64_t *snd, int64_t *best) {
  int64_t P = p->P, n = P * k * (P - 1), G = oc_max64(p->g, p->o);
  int64_t u = oc_max64(1, oc_gcd(oc_gcd(p->L, p->o), p->g));
  int64_t cs[4] = {0, u, p->o, oc_max64(u, G / (2 * u) * u)};
  int64_t *a = (int64_t *)malloc((size_t)n * sizeof *a), *rcv = (int64_t *)malloc((size_t)n * sizeof *rcv);
  int64_t *cnt = (int64_t *)malloc((size_t)(4 * P) * sizeof *cnt);
  int e = OC_OK;
  *best = OC_SAT;
  if (a == NULL || rcv == NULL || cnt == NULL) { e = OC_ENOMEM; goto done; }
  for (int i = 0; i < 4; i++)
    for (int dir = 0; dir < (i == 0 ? 1 : 2); dir++) {
      int64_t t;
      int ei = compact(p, k, cs[i], dir, a, rcv, cnt, &t);
      if (ei == OC_ERANGE || t >= *best) continue;
      *best = t;
      if (snd != NULL) memcpy(snd, a, (size_t)n * sizeof *a);
    }
done:
  free(a);
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
    if (out != NULL && (snd = (int64_t *)malloc((size_t)(P * M) * sizeof *snd)) == NULL)
      return OC_ENOMEM;
    if ((e = compact_best(p, k, snd, &ct)) != OC_OK) {
      free(snd);
      return (int)e;
    }
  }
  for (int64_t m = 0; m < M && out != NULL; m++) { /* step m: offset r, item j */
    int64_t r = m / k + 1, j = m % k;
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
  free(snd);
  *time = ct < per ? ct : per;
  *lower_bound = P == 1 ? 0 : a2a_bound(p, M);
  return OC_OK;
}

/* One processor's part of the all-to-all broadcast above: in step
 * m = (r-1)k + j it sends its item j to rank + r and receives item j of
 * rank - r (mod P), every message a copy; O(k P) steps, nothing else
 * kept.  The same order whichever schedule is kept.  The runtime's
 * allgather runs it (k = 1: a block a rank). */
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
  for (int64_t r = 1; r < P; r++)
    for (int64_t j = 0; j < k; j++) {
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
