/* oc_theap.h - a binary min-heap of (time, processor), ties to the lower
 * processor: the event queue of the LogP program simulators (oc_lprog.c,
 * oc_rprog.c).  Entries move by holes (one copy a level, not a swap); the
 * caller owns the array and its capacity. */
#ifndef OC_THEAP_H
#define OC_THEAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct oc_hent {
  int64_t key, proc;
} oc_hent;

static inline int oc_hent_less(oc_hent a, oc_hent b) {
  return a.key < b.key || (a.key == b.key && a.proc < b.proc);
}

/* e[0..n) a heap with room for one more: x goes in; returns the new n */
static inline size_t oc_theap_push(oc_hent *e, size_t n, int64_t key, int64_t proc) {
  size_t i = n;
  oc_hent x;
  x.key = key;
  x.proc = proc;
  while (i > 0 && oc_hent_less(x, e[(i - 1) / 2])) { /* the hole moves up */
    e[i] = e[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  e[i] = x;
  return n + 1;
}

/* the top of e[0..n) (n >= 1) is replaced by x, which moves down to its place */
static inline void oc_theap_sift_top(oc_hent *e, size_t n, oc_hent x) {
  size_t i = 0;
  for (;;) { /* the hole moves down */
    size_t l = 2 * i + 1, r = l + 1, c;
    if (l >= n) break;
    c = (r < n && oc_hent_less(e[r], e[l])) ? r : l;
    if (!oc_hent_less(e[c], x)) break;
    e[i] = e[c];
    i = c;
  }
  e[i] = x;
}

/* the top of e[0..n) (n >= 1) goes; returns the new n */
static inline size_t oc_theap_pop(oc_hent *e, size_t n) {
  n--;
  if (n > 0) oc_theap_sift_top(e, n, e[n]);
  return n;
}

#endif
