/* brute.c - reference implementations written without the library: the
 * universal tree enumerated node by node. */
#include <stdlib.h>

#include "test.h"

/* min-heap of labels */
static void heap_push(int64_t *h, size_t *n, int64_t x) {
  size_t i = (*n)++;
  h[i] = x;
  while (i > 0 && h[(i - 1) / 2] > h[i]) {
    int64_t t = h[i];
    h[i] = h[(i - 1) / 2];
    h[(i - 1) / 2] = t;
    i = (i - 1) / 2;
  }
}

static int64_t heap_pop(int64_t *h, size_t *n) {
  int64_t top = h[0];
  size_t i = 0;
  h[0] = h[--(*n)];
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < *n && h[l] < h[m]) m = l;
    if (r < *n && h[r] < h[m]) m = r;
    if (m == i) break;
    {
      int64_t t = h[i];
      h[i] = h[m];
      h[m] = t;
    }
    i = m;
  }
  return top;
}

/* Every informed node sends as early and as often as it can: a node with
 * label x has children x+h, x+h+G, ...  Pop labels in order. */
int64_t *brute_smallest_labels(int64_t P, int64_t h, int64_t G) {
  int64_t *out = (int64_t *)malloc((size_t)P * sizeof *out);
  int64_t *hp = (int64_t *)malloc((size_t)(2 * P + 2) * sizeof *hp);
  size_t n = 0;
  if (out == NULL || hp == NULL) abort();
  out[0] = 0;
  heap_push(hp, &n, h);
  for (int64_t i = 1; i < P; i++) {
    int64_t x = heap_pop(hp, &n);
    out[i] = x;
    heap_push(hp, &n, x + G); /* the parent's next send */
    heap_push(hp, &n, x + h); /* the new node's first send */
  }
  free(hp);
  return out;
}

static int64_t count_from(int64_t x, int64_t h, int64_t G, int64_t t,
                          int64_t cap) {
  int64_t c = 1;
  for (int64_t y = x + h; y <= t && c <= cap; y += G)
    c += count_from(y, h, G, t, cap);
  return c;
}

int64_t brute_count(int64_t h, int64_t G, int64_t t, int64_t cap) {
  if (t < 0) return 0;
  return count_from(0, h, G, t, cap);
}
