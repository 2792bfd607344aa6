/* oc_reach.c - the reach function P(t; L, o, g) and its inverse B(P).
 *
 * Source: Karp, Sahay, Santos, Schauser, "Optimal Broadcast and Summation
 * in the LogP Model" (SPAA'93), Defs. 2.2-2.5 and Thm 2.2; Shou & Chen,
 * Thm 2 (the recurrence for arbitrary L, o, g); Bar-Noy & Kipnis, the
 * generalized Fibonacci function F_lambda and its index function f_lambda.
 *
 * Write h = L + 2o (a message's send start to usable at the receiver) and
 * G = max(g, o) (the least distance between two send starts of one
 * processor: the gap, and the send overheads may not overlap).  In Karp's
 * universal tree a node with label x has children x + h + kG, k >= 0, and
 *
 *   f(t) = #nodes with label <= t = 1 + sum_{k>=0, t-h-kG>=0} f(t-h-kG),
 *   equivalently f(t) = f'(t-G) + f(t-h), f'(x) = (x < 0 ? 1 : f(x)),
 *
 * which is Shou & Chen's Thm 2 (f_n = f_{n-g} + f_{n-L-2o} once
 * n >= max(g, L+2o); 1 + floor(n/(L+2o)) on the chain part).  B(P) is the
 * least t with f(t) >= P (Karp Thm 2.1: the tree of the P smallest labels
 * is optimal).  Postal latency lambda = p/q is h = p, G = q in units of 1/q,
 * so f(t q) = F_lambda(t) of Bar-Noy & Kipnis.
 *
 * Labels are sums a*h + b*G, so all of this runs in units of
 * d = gcd(h, G).  Evaluation:
 *  - table: f(0..B(P)) by the recurrence, when the a-priori bound
 *    B(P) < max(h, G) * log2(4P) (Shou & Chen Thm 4) is below
 *    OC_REACH_TABLE_MAX: O(B(P)) to build, O(1) per value;
 *  - closed form otherwise: a node at depth a whose child indices sum to b
 *    has label a h + b G, and there are C(a+b-1, a-1) of them, so by the
 *    hockey-stick identity
 *        f(t) = 1 + sum_{a=1}^{floor(t/h)} C(a + floor((t - a h)/G), a).
 *    The sum is taken over a when t/h is the smaller index range, else
 *    grouped by B = floor((t - a h)/G), each group summed by the hockey
 *    stick again: sum_{a=lo}^{hi} C(a+B, B) = C(hi+B+1, B+1) - C(lo+B, B+1).
 *    Both ranges are at most log2(4P)+1 long for t <= B(P), so one value
 *    costs O(log^2 P) multiplications.  Values saturate at OC_SAT.
 */
#include <stdlib.h>
#include <string.h>

#include "core/oc_core.h"

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 oc_u128;
#endif

/* C(n, k), saturating at OC_SAT. */
static int64_t binom_sat(int64_t n, int64_t k) {
  int64_t c = 1;
  if (k < 0 || k > n) return 0;
  if (k > n - k) k = n - k;
  for (int64_t i = 1; i <= k; i++) {
    int64_t m = n - k + i; /* c = C(m-1, i-1) here, result C(m, i) */
#ifdef __SIZEOF_INT128__
    oc_u128 x = (oc_u128)(uint64_t)c * (uint64_t)m / (uint64_t)i;
    if (x >= (oc_u128)OC_SAT) return OC_SAT;
    c = (int64_t)x;
#else
    int64_t g1 = oc_gcd(c, i);
    int64_t c1 = c / g1, i1 = i / g1; /* i1 divides m */
    c = oc_mul_sat(c1, m / i1);
    if (c == OC_SAT) return OC_SAT;
#endif
  }
  return c;
}

int64_t oc_reach_closed(int64_t h, int64_t G, int64_t t) {
  int64_t A, Bmax, s = 1;
  if (t < 0) return 0;
  if (t < h) return 1;
  A = t / h;
  Bmax = (t - h) / G;
  if (A <= Bmax + 1) {
    for (int64_t a = 1; a <= A; a++) {
      int64_t B = (t - a * h) / G;
      s = oc_add_sat(s, binom_sat(a + B, a < B ? a : B));
      if (s == OC_SAT) return OC_SAT;
    }
    return s;
  }
  for (int64_t B = 0; B <= Bmax; B++) {
    int64_t hi = (t - B * G) / h;
    int64_t lo = oc_floordiv(t - (B + 1) * G, h) + 1, big, small;
    if (lo < 1) lo = 1;
    if (lo > hi) continue;
    big = binom_sat(hi + B + 1, B + 1);
    /* f(t) >= big whenever big is a group's upper term (see the notes in
     * docs/ALGORITHMS.md), so a saturated big saturates f. */
    if (big == OC_SAT) return OC_SAT;
    small = binom_sat(lo + B, B + 1);
    s = oc_add_sat(s, big - small);
    if (s == OC_SAT) return OC_SAT;
  }
  return s;
}

int64_t oc_reach_fn(const oc_reach *r, int64_t t) {
  if (t < 0) return 0;
  if (r->tab != NULL && t <= r->T) return r->tab[t];
  return oc_reach_closed(r->h, r->G, t);
}

static int bitlen(int64_t x) {
  int n = 0;
  while (x > 0) { n++; x >>= 1; }
  return n;
}

/* A bound on B(n) in normalised units: Shou & Chen Thm 4. */
static int64_t time_upper(const oc_reach *r, int64_t n) {
  return oc_max64(r->h, r->G) * (bitlen(n) + 2);
}

int64_t oc_reach_inv(const oc_reach *r, int64_t n) {
  int64_t lo = 0, hi;
  if (n <= 1) return 0;
  hi = (r->tab != NULL && n <= r->P) ? r->T : time_upper(r, n);
  while (lo < hi) { /* least t in [lo, hi] with f(t) >= n */
    int64_t mid = lo + (hi - lo) / 2;
    if (oc_reach_fn(r, mid) >= n) hi = mid; else lo = mid + 1;
  }
  return lo;
}

static void reach_setup(oc_reach *r, const oc_params *p) {
  int64_t h0 = p->L + 2 * p->o, G0 = oc_max64(p->g, p->o);
  r->d = oc_gcd(h0, G0);
  r->h = h0 / r->d;
  r->G = G0 / r->d;
  r->P = p->P;
  r->T = 0;
  r->tab = NULL;
}

int oc_reach_new(oc_reach **out, const oc_params *p) {
  oc_reach *r;
  int64_t ub;
  int e = oc_params_check(p);
  if (e) return e;
  r = (oc_reach *)calloc(1, sizeof *r);
  if (r == NULL) return OC_ENOMEM;
  reach_setup(r, p);
  ub = time_upper(r, p->P);
  if (ub < OC_REACH_TABLE_MAX) {
    int64_t t;
    r->tab = (int64_t *)malloc((size_t)(ub + 1) * sizeof *r->tab);
    if (r->tab == NULL) { free(r); return OC_ENOMEM; }
    for (t = 0; t <= ub; t++) {
      int64_t a = (t >= r->G) ? r->tab[t - r->G] : 1;
      int64_t b = (t >= r->h) ? r->tab[t - r->h] : 0;
      r->tab[t] = oc_add_sat(a, b);
      if (r->tab[t] >= p->P) break;
    }
    if (t > ub) { /* cannot happen by Thm 4; stay exact regardless */
      free(r->tab);
      r->tab = NULL;
      r->T = oc_reach_inv(r, p->P);
    } else {
      r->T = t;
    }
  } else {
    r->T = oc_reach_inv(r, p->P);
  }
  *out = r;
  return OC_OK;
}

void oc_reach_free(oc_reach *r) {
  if (r == NULL) return;
  free(r->tab);
  free(r);
}

int64_t oc_reach_time(const oc_reach *r) { return r->T * r->d; }

int64_t oc_reach_f(const oc_reach *r, int64_t t) {
  return oc_reach_fn(r, oc_floordiv(t, r->d));
}

int64_t oc_reach_count(const oc_params *p, int64_t t) {
  oc_reach r;
  reach_setup(&r, p);
  return oc_reach_closed(r.h, r.G, oc_floordiv(t, r.d));
}

int oc_bcast_time(const oc_params *p, int64_t *out_time) {
  oc_reach r;
  int e = oc_params_check(p);
  if (e) return e;
  reach_setup(&r, p);
  *out_time = oc_reach_inv(&r, p->P) * r.d;
  return OC_OK;
}
