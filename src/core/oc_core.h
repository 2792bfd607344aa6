/* oc_core.h - the core layer's internals, shared by every layer above it
 * (plan, libmodels, verify, rt): saturating arithmetic, growing arrays, the
 * reach function's normalised view.  Not installed. */
#ifndef OC_CORE_H
#define OC_CORE_H

#include "optcast.h"


/* Makes room for one more element of size sz in *arr (count n, capacity
 * *cap), growing by half (oc_sched.c).  OC_OK or OC_ENOMEM. */
int oc_grow(void **arr, size_t n, size_t *cap, size_t sz);
/* the index of name in names[0..n), or -1 (algorithm name tables) */
int oc_name_index(const char *const *names, int n, const char *name);

/* The reach function's normalised view: labels are multiples of d, so
 * everything runs in units of d with h = (L+2o)/d and G = max(g,o)/d. */
struct oc_reach {
  int64_t h, G, d;  /* normalised step lengths and the scale            */
  int64_t P;        /* processors                                       */
  int64_t T;        /* B(P) / d                                         */
  int64_t *tab;     /* f(0..T), or NULL: closed form                    */
};

/* f in normalised units (t may be negative: 0). */
int64_t oc_reach_fn(const oc_reach *r, int64_t t);
/* min { t : f(t) >= n } in normalised units, for 1 <= n <= P. */
int64_t oc_reach_inv(const oc_reach *r, int64_t n);
/* Closed form of f in normalised units (exposed for the tests). */
int64_t oc_reach_closed(int64_t h, int64_t G, int64_t t);

#endif
