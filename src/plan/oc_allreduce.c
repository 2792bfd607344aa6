/* oc_allreduce.c - combining broadcast (allreduce) of one packet: circulant
 * windows, reduce + broadcast, the choice between them and a lower bound.
 *
 * Source: Karp, Sahay, Santos, Schauser (SPAA'93) section 4.2, Thm 4.1:
 * postal model, zero-time combining, P = f_T: at time j processor i sends
 * its value to i + f_{j+L-1}; at time j it holds x[i - f_j + 1 : i].
 *
 * Extension (contract model: an addition takes a = 1 time unit, LogP
 * overheads, any P):
 *  - every processor acts alike, in rounds D apart: send at mD (busy o),
 *    receive at mD + o + L (busy o), add at mD + 2o + L (busy a); D is the
 *    least value >= max(g, 2o + a) for which the send and the
 *    receive-and-add phases are disjoint modulo D (o = 0: D = max(g, a));
 *  - round m's addition is finished at mD + L + 2o + a, so a partial
 *    result can be sent c = ceil((L + 2o + a)/D) rounds after the round
 *    that made it;
 *  - the receiver's window before round m has A_m = 1 + sum_{m'<m} w_m'
 *    values; the sender i sends to i + A_m the largest finished partial
 *    result w_m <= P - A_m (its own value counts: size 1), so the windows
 *    meet exactly and the last one has P values.
 * Worked example (postal lambda = 1, so L = 1, a = 1, D = 1, c = 2):
 * windows 1, 2, 3, 5, 8, ... (f with latency 2): P = 8 takes rounds
 * 0..3 (+1, +1, +1, +2, +... ) and finishes when the last round's addition
 * ends.  With integer postal latency lambda and P = f_{lambda+1}(T) this
 * is Karp's schedule with L + 1 for the unit addition, and it meets the
 * reduction time B(P; L + 1) - optimal; elsewhere the tests report the
 * gap to that lower bound.
 *
 * The choice (oc_allreduce_best, the default of `plan allreduce`): the
 * fastest of four constructions, timed on the instance (ties: the first):
 *  1. the circulant above ("karp-circulant");
 *  2. the rank-order reduction to rank 0 (oc_reduce.c, Karp 4.2 / Shou &
 *     Chen) then Karp's optimal broadcast from rank 0 (oc_bcast.c), shifted
 *     by the least delta >= 0 that keeps every processor's gaps across the
 *     two phases ("reduce-then-bcast", also `--ordered`): time R + delta +
 *     B(P), R the rank-order reduction's time;
 *  3. the same with the optimal commutative reduction tree
 *     ("commutative-reduce-then-bcast");
 *  4. the m-packet planner's fastest for m = 1 (oc_mreduce.c: recursive
 *     doubling, the circulant's rounds as a dataflow program that sends
 *     each window as soon as it is made, reversed broadcasts + broadcast,
 *     the MPI libraries' programs, ...), named by its family.
 * 1 wins with small g and o (postal: optimal for P = f_{L+1}(T)); 2 with
 * large g where chains of L + 2o + 1 fit under one gap (L = 5, o = 0,
 * g = 34, P = 28213: 720 for the circulant, 439 for 2, bound 228); 4
 * elsewhere, mostly recursive doubling and the circulant as a dataflow
 * program (the fixed rounds D >= max(g, 2o + 1) wait where a dataflow
 * program need not; the window search often needs more rounds than
 * doubling).  The rank-order reduction is as fast as the commutative one
 * on almost every instance, so 3 rarely wins alone (none of the bench's
 * 300 instances).
 *
 * Lower bound (oc_allreduce_bound): max(R*, L + 2o + max(g, o) if P >= 3,
 * oc_mallreduce_bound at m = 1), R* the reduction time (Karp 4.2: B(P)
 * with L + 1 and max(g, o + 1)); the last is the m-packet planner's
 * (oc_mreduce.c: the broadcast time B(P), and the one-way gossip's 2(P-1)
 * messages: their work over P processors, and some processor's
 * ceil(2(P-1)/P) = 2 receptions, the second term again).
 *  - R*: the first processor to hold all P contributions made them by its
 *    own additions (nobody could send them to it), so its receptions form
 *    a reduction tree into it.
 *  - L + 2o + max(g, o): let s1 be the earliest send start.  A message sent at s1
 *    carries its sender's own value alone (a received value is usable from
 *    s + L + 2o > s1 at the earliest, L + 2o >= 1).  Its receiver q starts
 *    receiving it at s1 + o + L, q's first reception (every reception
 *    starts at s1 + o + L or later, q's reception starts are g >= 1 apart),
 *    and then holds at most two contributions.  With P >= 3 q must receive
 *    again: that reception starts max(g, o) after the first or later (the
 *    gap; the first's overhead) and its value is usable from
 *    s1 + L + 2o + max(g, o).  Above R* when g > L + 2o + 2 and P is
 *    small (P = 3, L = 1, o = 0, g = 10: 11, met by 2; R* = 4).
 *  Not a bound: "a processor's knowledge at most doubles per round of
 *  max(g, L + 2o + 1)" - reduce-then-bcast beats it (P = 28213 above: 439
 *  against 14 * 34 + 6 = 482), as a reduction tree's chains fit several
 *  hops of L + 2o + 1 into one gap g.  Checked: never above the exhaustive
 *  optimum of a relaxation of the model for P <= 3 (wider L, o, g in the sweep;
 *  tests/test_collect.c, test_allreduce_exact_small).
 */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"

#define AR_CIRC_MSGS_MAX ((int64_t)1 << 26) /* oc_allreduce_schedule's cap */

static int64_t round_spacing(const oc_params *p, int64_t a) {
  int64_t o = p->o, D = oc_max64(p->g, 2 * o + a);
  if (o == 0) return oc_max64(p->g, a);
  for (;; D++) {
    int64_t ph = (o + p->L) % D; /* receive-and-add phase, o + a long */
    if (ph >= o && ph + o + a <= D) return D;
  }
}

/* Window sizes: a[0] = 1 (the own value), a[j] after the j-th round that
 * sent; made[j] = that round.  A partial result made in round r can be
 * sent from round r + c on. */
typedef struct wseq {
  int64_t *a, *made, *pick; /* pick[m]: index sent in round m, -1: none */
  int64_t n, c, R, P;
  int64_t budget;           /* search nodes left */
} wseq;

/* the most values reachable by round R from the state after round m - 1 */
static int64_t wmax(const wseq *w, int64_t m, int64_t n) {
  int64_t A = w->a[n - 1];
  int64_t *tmp = (int64_t *)malloc((size_t)(n + w->R - m + 1) * sizeof *tmp);
  int64_t *mk = (int64_t *)malloc((size_t)(n + w->R - m + 1) * sizeof *mk);
  if (tmp == NULL || mk == NULL) { free(tmp); free(mk); return -1; }
  memcpy(tmp, w->a, (size_t)n * sizeof *tmp);
  memcpy(mk, w->made, (size_t)n * sizeof *mk);
  for (int64_t r = m; r < w->R && A < w->P; r++) {
    /* the largest finished one: scan down from the newest finished */
    {
      int64_t j = n - 1;
      while (j > 0 && mk[j] + w->c > r) j--;
      A = oc_add_sat(A, tmp[j]);
    }
    tmp[n] = A;
    mk[n++] = r;
  }
  free(tmp);
  free(mk);
  return A;
}

/* depth-first: can round m .. R-1 bring the window to exactly P? */
static int wdfs(wseq *w, int64_t m) {
  int64_t A = w->a[w->n - 1];
  if (A == w->P) {
    for (int64_t r = m; r < w->R; r++) w->pick[r] = -1;
    return 1;
  }
  if (m == w->R || --w->budget < 0) return 0;
  {
    int64_t mx = wmax(w, m, w->n);
    if (mx < w->P) return 0;
  }
  for (int64_t j = w->n - 1; j >= -1; j--) { /* largest first; -1: skip */
    if (j >= 1 && w->made[j] + w->c > m) continue;
    if (j >= 0 && w->a[j] > w->P - A) continue;
    w->pick[m] = j;
    if (j >= 0) {
      w->a[w->n] = A + w->a[j];
      w->made[w->n++] = m;
    }
    if (wdfs(w, m + 1)) return 1;
    if (j >= 0) w->n--;
    if (w->budget < 0) return 0;
  }
  return 0;
}

/* The circulant with its rounds `stride` spacings D apart (stride 1: the
 * schedule above; stride m: one packet of m interleaved, oc_allreduce_vector);
 * *D_out gets D; OC_ERANGE once it would make more than cap messages;
 * lower_bound may be NULL. */
/* The circulant's rounds for P processors with rounds `stride` spacings D
 * apart: w->R rounds, w->pick[m] the index of the partial result sent in
 * round m (-1: none), w->a[j] its size; *D_out = D, *hh = L + 2o + a. */
static int ar_windows(const oc_params *p, int64_t stride, wseq *w, int64_t *D_out,
                      int64_t *hh_out) {
  int64_t P = p->P, D, a = p->unit;
  D = round_spacing(p, a);
  *D_out = D;
  if (stride < 1) return OC_EINVAL;
  if (stride > 1 && (D > OC_PARAM_MAX || stride > OC_PARAM_MAX / D)) return OC_ERANGE;
  D *= stride;
  *hh_out = p->L + 2 * p->o + a;
  w->R = 0;
  if (P == 1) return OC_OK;
  if (P > ((int64_t)1 << 16)) return OC_ERANGE; /* rounds * P messages, the search */
  /* rounds: at most P - 1 (each adds at least one value) */
  w->a = (int64_t *)malloc((size_t)(P + 1) * sizeof *w->a);
  w->made = (int64_t *)malloc((size_t)(P + 1) * sizeof *w->made);
  w->pick = (int64_t *)malloc((size_t)(P + 1) * sizeof *w->pick);
  if (!w->a || !w->made || !w->pick) return OC_ENOMEM;
  w->c = (*hh_out + D - 1) / D;
  w->P = P;
  /* the fewest rounds that can reach P with full windows, then the first
   * R for which an exact choice is found (a bounded search; taking the
   * own value every round always succeeds by R = P - 1) */
  w->a[0] = 1;
  w->made[0] = 0;
  w->n = 1;
  w->R = P - 1;
  {
    int found = 0;
    int64_t R0;
    /* the fewest rounds with full windows: one forward pass */
    w->n = 1;
    for (R0 = 1; R0 < P - 1; R0++) {
      w->R = R0;
      if (wmax(w, 0, 1) >= P) break;
      if (R0 > 64 && R0 * 2 < P) { /* long latency: grow the guess faster */
        int64_t hi = P - 1, lo2 = R0;
        while (lo2 < hi) {
          int64_t mid = lo2 + (hi - lo2) / 2;
          w->R = mid;
          if (wmax(w, 0, 1) >= P) hi = mid; else lo2 = mid + 1;
        }
        R0 = lo2;
        break;
      }
    }
    /* an exact choice: depth-first (bounded; the depth is R, so only for
     * R <= 4096), else the own value in the rounds that would overshoot */
    for (int64_t R = R0; R <= P - 1 && !found && R <= 4096; R++) {
      w->R = R;
      w->n = 1;
      if (wmax(w, 0, 1) < P) continue;
      w->budget = 200000;
      found = wdfs(w, 0);
    }
    if (!found) { /* greedy: the largest finished window that fits */
      int64_t A = 1;
      w->n = 1;
      for (w->R = 0; A < P; w->R++) {
        int64_t j = w->n - 1;
        while (j > 0 && (w->made[j] + w->c > w->R || w->a[j] > P - A)) j--;
        w->pick[w->R] = j; /* j = 0: the own value, always fits */
        A += w->a[j];
        w->a[w->n] = A;
        w->made[w->n++] = w->R;
      }
    }
  }
  return OC_OK;
}

static void ar_windows_free(wseq *w) {
  free(w->a);
  free(w->made);
  free(w->pick);
  memset(w, 0, sizeof *w);
}

int oc_allreduce_rounds(const oc_params *p, int64_t stride, int64_t **off, int64_t **pick,
                        int64_t *R) {
  wseq w;
  int64_t D, hh, A = 1;
  int e;
  memset(&w, 0, sizeof w);
  *off = *pick = NULL;
  *R = 0;
  if ((e = ar_windows(p, stride, &w, &D, &hh)) != OC_OK) {
    ar_windows_free(&w);
    return e;
  }
  *off = (int64_t *)malloc((size_t)(w.R + 1) * sizeof **off);
  *pick = (int64_t *)malloc((size_t)(w.R + 1) * sizeof **pick);
  if (*off == NULL || *pick == NULL) {
    free(*off);
    free(*pick);
    *off = *pick = NULL;
    ar_windows_free(&w);
    return OC_ENOMEM;
  }
  for (int64_t m = 0; m < w.R; m++) {
    (*pick)[m] = w.pick[m];
    (*off)[m] = A;
    if (w.pick[m] >= 0) A += w.a[w.pick[m]];
  }
  *R = w.R;
  ar_windows_free(&w);
  return OC_OK;
}

/* The circulant with its rounds `stride` spacings D apart (stride 1: the
 * schedule above; stride m: one packet of m interleaved, oc_allreduce_vector);
 * *D_out gets D; OC_ERANGE once it would make more than cap messages;
 * lower_bound may be NULL. */
static int ar_build(const oc_params *p, int64_t stride, int64_t cap, oc_sched *out,
                    int64_t *time, int64_t *lower_bound, int64_t *D_out, int64_t *msgs) {
  int64_t P, D, hh, last = -1, A = 1;
  wseq w;
  int e = oc_params_check(p);
  memset(&w, 0, sizeof w);
  if (e) return e;
  P = p->P;
  if (P > OC_GLOBAL_PROCS_MAX) return OC_ERANGE;
  if (lower_bound != NULL && (e = oc_reduce_time(p, lower_bound)) != OC_OK) return e;
  *time = 0;
  if ((e = ar_windows(p, stride, &w, D_out, &hh)) != OC_OK) goto out;
  D = *D_out * stride;
  if (msgs != NULL) *msgs = 0;
  /* A: the receiver's window before round m, 1 + what came before */
  for (int64_t m = 0; m < w.R && e == OC_OK; A += w.pick[m] >= 0 ? w.a[w.pick[m]] : 0, m++) {
    int64_t j = w.pick[m];
    if (j < 0) continue;
    last = m;
    if (msgs != NULL) *msgs = oc_add_sat(*msgs, P);
    if (out == NULL) continue; /* the time alone */
    if ((int64_t)out->n > cap - P) { e = OC_ERANGE; break; } /* messages */
    for (int64_t i = 0; i < P && e == OC_OK; i++) {
      /* the item: the index of the partial result in the sender's history
       * (rounds that sent, counted) */
      e = oc_sched_push(out, m * D, i, (i + A) % P, j);
    }
  }
  if (e == OC_OK) *time = last < 0 ? 0 : last * D + hh;
out:
  ar_windows_free(&w);
  return e;
}

int oc_allreduce_schedule(const oc_params *p, oc_sched *out, int64_t *time,
                          int64_t *lower_bound) {
  int64_t D;
  int e = ar_build(p, 1, AR_CIRC_MSGS_MAX, out, time, NULL, &D, NULL);
  if (e == OC_OK && lower_bound != NULL) e = oc_allreduce_bound(p, lower_bound);
  return e;
}

/* Packet j of m runs the circulant with rounds mD apart, shifted by jD: a
 * processor's events repeat every D as in the one-packet schedule (send
 * overhead, then receive overhead and addition in the other phase), so the
 * packets never collide; a partial result can be sent again after
 * ceil((L + 2o + 1)/(mD)) of its rounds.  Time: (R - 1) mD + (m - 1) D +
 * L + 2o + 1 for R rounds.  Not bandwidth-optimal: every packet takes about
 * log P rounds, against the ring's and Rabenseifner's two passes. */
int oc_allreduce_vector_bound(const oc_params *p, int64_t m, int64_t *lower_bound) {
  int e;
  if (p == NULL || lower_bound == NULL || m < 1) return OC_EINVAL;
  if ((e = oc_reduce_time(p, lower_bound)) != OC_OK) return e;
  if (p->P >= 2) {
    /* every processor receives a message of every packet: receive starts
     * max(g, o) apart, the first at o + L at the earliest */
    int64_t recv = oc_add_sat(p->L + 2 * p->o, oc_mul_sat(m - 1, oc_max64(p->g, p->o)));
    /* ... and sends one of every packet (its contribution must leave it);
     * the m (P-1) additions (P-1 per packet) leave some processor at least
     * ceil(m (P-1) / P); overheads and additions never overlap */
    int64_t adds = m - m / p->P; /* ceil(m (P-1)/P) */
    int64_t busy = oc_add_sat(oc_mul_sat(oc_mul_sat(2, m), p->o), oc_mul_sat(adds, p->unit));
    *lower_bound = oc_max64(*lower_bound, oc_max64(recv, busy));
  }
  return OC_OK;
}

/* oc_allreduce_vector's time without its schedule (R P m messages: the
 * planner's search times it this way, and builds it only if it wins);
 * OC_ERANGE where oc_allreduce_vector would refuse. */
int oc_allreduce_vector_time(const oc_params *p, int64_t m, int64_t *time) {
  int64_t D = 0, t1 = 0, msgs = 0;
  int e;
  if (p == NULL || time == NULL) return OC_EINVAL;
  if ((e = oc_params_check(p)) != OC_OK) return e;
  if (m < 1) return OC_EINVAL;
  if (m > OC_LIBRED_MSGS_MAX) return OC_ERANGE;
  if ((e = ar_build(p, m, OC_LIBRED_MSGS_MAX / m, NULL, &t1, NULL, &D, &msgs)) != OC_OK) return e;
  if (msgs > OC_LIBRED_MSGS_MAX / m) return OC_ERANGE;
  *time = msgs == 0 ? 0 : t1 + (m - 1) * D;
  return OC_OK;
}

int oc_allreduce_vector(const oc_params *p, int64_t m, oc_sched *out, int64_t *time,
                        int64_t *lower_bound) {
  oc_sched one;
  int64_t D = 0, t1 = 0;
  oc_verdict v;
  int e;
  if (p == NULL || out == NULL || time == NULL || lower_bound == NULL) return OC_EINVAL;
  if ((e = oc_params_check(p)) != OC_OK) return e;
  if (m < 1 || out->n != 0) return OC_EINVAL;
  if (m > OC_LIBRED_MSGS_MAX) return OC_ERANGE;
  oc_sched_init(&one);
  if ((e = oc_allreduce_vector_bound(p, m, lower_bound)) != OC_OK) return e;
  if ((e = ar_build(p, m, OC_LIBRED_MSGS_MAX / m, &one, &t1, NULL, &D, NULL)) != OC_OK) goto done;
  *time = one.n == 0 ? 0 : t1 + (m - 1) * D;
  if ((e = oc_sched_add_col(out, OC_COL_HIST)) != OC_OK) goto done;
  for (size_t i = 0; i < one.n && e == OC_OK; i++)
    for (int64_t j = 0; j < m && e == OC_OK; j++)
      if ((e = oc_sched_push(out, one.msg[i].t + j * D, one.msg[i].src, one.msg[i].dst, j)) ==
          OC_OK)
        out->hist[out->n - 1] = (uint32_t)one.msg[i].item;
  if (e == OC_OK && (e = oc_verify_vreduce(p, -1, m, out, &v)) == OC_OK &&
      (!v.ok || v.time != *time))
    e = OC_EINVALID; /* never hand out a schedule the verifier rejects */
done:
  oc_sched_free(&one);
  return e;
}

/* Reduce to rank 0 (rank order when `ordered`, else the optimal
 * commutative tree), then broadcast from rank 0 (Karp's optimal tree).
 * The broadcast phase starts at T1 + delta: delta makes every processor's
 * first broadcast send (receive) at least g after its reduction send (last
 * reduction receive); all reduction activity ends by T1, so nothing else
 * can collide.  out may be NULL (the time alone: the schedules are still
 * built, P <= OC_GLOBAL_PROCS_MAX, to find delta). */
static int two_phase(const oc_params *p, int ordered, oc_sched *out, int64_t *time) {
  oc_reduce *r = NULL;
  oc_bcast *b = NULL;
  oc_sched rs, bs;
  int64_t T1, P = p->P, delta = 0;
  int64_t *s1 = NULL, *r1 = NULL, *s2 = NULL, *r2 = NULL;
  int e;
  if ((e = oc_reduce_new(&r, p, 0, ordered)) != OC_OK) return e;
  T1 = oc_reduce_completion(r);
  oc_sched_init(&rs);
  oc_sched_init(&bs);
  s1 = (int64_t *)malloc((size_t)P * sizeof *s1);
  r1 = (int64_t *)malloc((size_t)P * sizeof *r1);
  s2 = (int64_t *)malloc((size_t)P * sizeof *s2);
  r2 = (int64_t *)malloc((size_t)P * sizeof *r2);
  if (!s1 || !r1 || !s2 || !r2) { e = OC_ENOMEM; goto out; }
  if ((e = oc_reduce_schedule(r, &rs)) != OC_OK) goto out;
  if ((e = oc_bcast_new(&b, p, 0, OC_BCAST_KARP)) != OC_OK) goto out;
  if ((e = oc_bcast_schedule(b, &bs)) != OC_OK) goto out;
  for (int64_t q = 0; q < P; q++) s1[q] = r1[q] = INT64_MIN, s2[q] = r2[q] = INT64_MAX;
  for (size_t i = 0; i < rs.n; i++) {
    const oc_msg *m = &rs.msg[i];
    s1[m->src] = oc_max64(s1[m->src], m->t);
    r1[m->dst] = oc_max64(r1[m->dst], m->t + p->o + p->L);
  }
  for (size_t i = 0; i < bs.n; i++) {
    const oc_msg *m = &bs.msg[i];
    s2[m->src] = oc_min64(s2[m->src], m->t);
    r2[m->dst] = oc_min64(r2[m->dst], m->t + p->o + p->L);
  }
  for (int64_t q = 0; q < P; q++) {
    if (s1[q] != INT64_MIN && s2[q] != INT64_MAX)
      delta = oc_max64(delta, p->g - (T1 + s2[q] - s1[q]));
    if (r1[q] != INT64_MIN && r2[q] != INT64_MAX)
      delta = oc_max64(delta, p->g - (T1 + r2[q] - r1[q]));
  }
  *time = oc_add_sat(oc_add_sat(T1, delta), oc_bcast_completion(b));
  if (out != NULL) {
    for (size_t i = 0; e == OC_OK && i < rs.n; i++)
      e = oc_sched_push(out, rs.msg[i].t, rs.msg[i].src, rs.msg[i].dst, 0);
    for (size_t i = 0; e == OC_OK && i < rs.nop; i++) {
      const oc_op *o = &rs.op[i];
      e = oc_sched_push_op(out, o->t, o->proc, (oc_op_kind)o->kind, o->lo, o->mid, o->hi);
    }
    for (size_t i = 0; e == OC_OK && i < rs.nseg; i++)
      e = oc_sched_push_seg(out, rs.seg[i].proc, rs.seg[i].lo, rs.seg[i].hi);
    for (size_t i = 0; e == OC_OK && i < bs.n; i++)
      e = oc_sched_push(out, T1 + delta + bs.msg[i].t, bs.msg[i].src, bs.msg[i].dst, 1);
  }
out:
  free(s1);
  free(r1);
  free(s2);
  free(r2);
  oc_sched_free(&rs);
  oc_sched_free(&bs);
  oc_bcast_free(b);
  oc_reduce_free(r);
  return e;
}

int oc_allreduce_ordered_schedule(const oc_params *p, oc_sched *out,
                                  int64_t *time, int64_t *lower_bound) {
  int e = oc_params_check(p);
  if (e) return e;
  if (p->P > OC_GLOBAL_PROCS_MAX) return OC_ERANGE;
  if ((e = oc_allreduce_bound(p, lower_bound)) != OC_OK) return e;
  return two_phase(p, 1, out, time);
}

/* ---- the bound and the choice --------------------------------------------- */

int oc_allreduce_bound(const oc_params *p, int64_t *lower_bound) {
  int64_t mb;
  int e;
  if (p == NULL || lower_bound == NULL) return OC_EINVAL;
  if ((e = oc_params_check(p)) != OC_OK) return e;
  if ((e = oc_reduce_time(p, lower_bound)) != OC_OK) return e;
  if (p->P >= 3) /* the first message carries one value (header) */
    *lower_bound = oc_max64(*lower_bound, oc_add_sat(oc_add_sat(p->L, 2 * p->o),
                                                     oc_max64(p->g, p->o)));
  /* the m-packet bounds at m = 1 (oc_mreduce.c: B(P), the one-way gossip's
   * 2(P-1) messages); past their range they are left out */
  e = oc_mallreduce_bound(p, 1, &mb, NULL);
  if (e == OC_OK) *lower_bound = oc_max64(*lower_bound, mb);
  else if (e != OC_ERANGE) return e;
  return OC_OK;
}

const char *oc_allreduce_alg_name(oc_allreduce_alg a) {
  switch (a) {
  case OC_AR_CIRCULANT: return "karp-circulant";
  case OC_AR_ORDERED: return "reduce-then-bcast";
  case OC_AR_COMMUTATIVE: return "commutative-reduce-then-bcast";
  case OC_AR_PROGRAM: return "multi-packet-planner";
  default: return "?";
  }
}

/* one construction; PROGRAM fills *info (may be NULL otherwise) */
static int construct(const oc_params *p, oc_allreduce_alg a, oc_sched *out, int64_t *time,
                     oc_mreduce_info *info) {
  int64_t D = 0, msgs = 0;
  int e;
  if (a == OC_AR_PROGRAM) {
    if (info == NULL) return OC_EINVAL;
    memset(info, 0, sizeof *info);
    if ((e = oc_mreduce_plan(p, -1, 1, OC_MB_BEST, out, info)) == OC_OK) *time = info->time;
    return e;
  }
  if (a != OC_AR_CIRCULANT) return two_phase(p, a == OC_AR_ORDERED, out, time);
  /* the circulant: timed first, built only within its message cap */
  if ((e = ar_build(p, 1, AR_CIRC_MSGS_MAX, NULL, time, NULL, &D, &msgs)) != OC_OK) return e;
  if (msgs > AR_CIRC_MSGS_MAX) return OC_ERANGE;
  return out == NULL ? OC_OK : ar_build(p, 1, AR_CIRC_MSGS_MAX, out, time, NULL, &D, NULL);
}

static int construct_check(const oc_params *p, oc_allreduce_alg a, const oc_sched *out) {
  int e;
  if (p == NULL || a < 0 || a >= OC_AR_COUNT) return OC_EINVAL;
  if ((e = oc_params_check(p)) != OC_OK) return e;
  if (p->P > ((int64_t)1 << 16)) return OC_ERANGE;
  if (out != NULL && out->n != 0) return OC_EINVAL;
  return OC_OK;
}

int oc_allreduce_construct(const oc_params *p, oc_allreduce_alg a, oc_sched *out,
                           int64_t *time) {
  oc_mreduce_info info;
  int e = construct_check(p, a, out);
  if (e != OC_OK || time == NULL) return e != OC_OK ? e : OC_EINVAL;
  return construct(p, a, out, time, &info);
}

/* Each construction timed (the two-phase ones are built: their shift
 * delta needs the schedules; PROGRAM simulates its candidates), the
 * fastest kept; then the winner built into out.  A construction that
 * refuses these parameters (OC_ERANGE, OC_EUNSUP) is left out. */
int oc_allreduce_best(const oc_params *p, oc_sched *out, oc_allreduce_choice *c) {
  return oc_allreduce_best_of(p, (1u << OC_AR_COUNT) - 1, out, c);
}

int oc_allreduce_best_of(const oc_params *p, unsigned mask, oc_sched *out,
                         oc_allreduce_choice *c) {
  int64_t t;
  int e = construct_check(p, OC_AR_CIRCULANT, out);
  if (e != OC_OK || c == NULL) return e != OC_OK ? e : OC_EINVAL;
  memset(c, 0, sizeof *c);
  if ((e = oc_allreduce_bound(p, &c->lower_bound)) != OC_OK) return e;
  c->time = -1;
  for (int a = 0; a < OC_AR_COUNT; a++) {
    c->times[a] = -1;
    if (!(mask & (1u << a))) continue;
    e = construct(p, (oc_allreduce_alg)a, NULL, &t, &c->program);
    if (e == OC_ERANGE || e == OC_EUNSUP) continue;
    if (e != OC_OK) return e;
    c->times[a] = t;
    if (c->time < 0 || t < c->time) {
      c->time = t;
      c->alg = (oc_allreduce_alg)a;
    }
  }
  if (c->time < 0) return OC_ERANGE;
  c->name = oc_allreduce_alg_name(c->alg);
  if (c->alg == OC_AR_PROGRAM) {
    c->name = oc_mred_family_name(c->program.family);
    oc_mreduce_describe(&c->program, -1, 1, c->description, sizeof c->description);
  }
  if (out == NULL) return OC_OK;
  if (c->alg == OC_AR_PROGRAM) e = oc_mreduce_run(p, -1, 1, &c->program, out, &t);
  else e = construct(p, c->alg, out, &t, &c->program);
  if (e == OC_OK && t != c->time) e = OC_EINVALID; /* timed and built differ: a bug */
  return e;
}
