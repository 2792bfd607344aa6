/* brute_kport.c - the optimum of k-port multi-message broadcast on tiny
 * instances by exhaustive search, written without the library.
 *
 * State: the set of messages each non-source processor holds (the source
 * holds all; processors are interchangeable, so a state is kept sorted).
 * A round gives every processor p a set S_p of messages it lacks,
 * |S_p| <= k, such that the requests (p, x) can be served by distinct
 * senders per p that hold x, each sender serving at most k: a bipartite
 * matching, found here by augmenting paths.  Holding more never hurts, so
 * only maximal rounds (no request can be added) are tried.  Iterative
 * deepening on the number of rounds with a table of states that failed.
 */
#include <stdlib.h>
#include <string.h>

#include "brute_kport.h"

#define BK_MAXN 8
#define BK_MAXREQ (BK_MAXN * 4)

typedef struct bk {
  int n, k, m;
  unsigned full;
  /* round being built */
  unsigned have[BK_MAXN]; /* at the round's start (index 0 = source) */
  unsigned sel[BK_MAXN];  /* S_p */
  int nreq, rp[BK_MAXREQ], rx[BK_MAXREQ], match[BK_MAXREQ];
  int load[BK_MAXN], used[BK_MAXN][BK_MAXN]; /* used[s][p]: s serves p */
  int seen[BK_MAXN];
  /* failed (state, rounds left) */
  uint64_t *memo;
  size_t mask, count;
  int found, depth_left;
} bk;

static int bk_try(bk *b, int r, int stamp) {
  int p = b->rp[r], x = b->rx[r];
  for (int s = 0; s < b->n; s++) {
    if (s == p || !(b->have[s] >> x & 1) || b->used[s][p] || b->seen[s] == stamp)
      continue;
    b->seen[s] = stamp;
    if (b->load[s] < b->k) {
      b->load[s]++;
      b->used[s][p] = 1;
      b->match[r] = s;
      return 1;
    }
    /* s is full: free one of its slots by moving another request */
    for (int q = 0; q < b->nreq; q++)
      if (q != r && b->match[q] == s && !b->used[s][p]) {
        int qp = b->rp[q];
        b->used[s][qp] = 0;
        b->match[q] = -1;
        b->load[s]--;
        if (bk_try(b, q, stamp)) {
          b->load[s]++;
          b->used[s][p] = 1;
          b->match[r] = s;
          return 1;
        }
        b->load[s]++;
        b->used[s][qp] = 1;
        b->match[q] = s;
      }
  }
  return 0;
}

/* Can all requests be served?  (rebuilds the matching) */
static int bk_feasible(bk *b) {
  memset(b->load, 0, sizeof b->load);
  memset(b->used, 0, sizeof b->used);
  for (int r = 0; r < b->nreq; r++) b->match[r] = -1;
  for (int r = 0; r < b->nreq; r++) {
    memset(b->seen, 0, sizeof b->seen);
    if (!bk_try(b, r, 1)) return 0;
  }
  return 1;
}

static int bk_add(bk *b, int p, unsigned S) {
  int before = b->nreq;
  for (int x = 0; x < b->m; x++)
    if (S >> x & 1) {
      b->rp[b->nreq] = p;
      b->rx[b->nreq] = x;
      b->nreq++;
    }
  return before;
}

static int bk_popcount(unsigned v) {
  int c = 0;
  while (v) { v &= v - 1; c++; }
  return c;
}

static uint64_t bk_key(const bk *b, const unsigned *st, int left) {
  unsigned s[BK_MAXN];
  uint64_t key = (uint64_t)left;
  int n = b->n - 1;
  memcpy(s, st, (size_t)n * sizeof *s);
  for (int i = 1; i < n; i++) { /* insertion sort */
    unsigned v = s[i];
    int j = i;
    while (j > 0 && s[j - 1] > v) { s[j] = s[j - 1]; j--; }
    s[j] = v;
  }
  for (int i = 0; i < n; i++) key = key * 33 + s[i] + 1; /* m <= 5: s[i] + 1 <= 32 */
  return key * 2 + 1;
}

static int bk_memo(bk *b, uint64_t key, int add) {
  size_t h = (size_t)(key * 0x9e3779b97f4a7c15ULL >> 20) & b->mask;
  while (b->memo[h]) {
    if (b->memo[h] == key) return 1;
    h = (h + 1) & b->mask;
  }
  if (add && b->count * 2 < b->mask) {
    b->memo[h] = key;
    b->count++;
  }
  return 0;
}

static int bk_solve(bk *b, const unsigned *st, int left);

/* choose S_p for p = i.. (st = non-source states, index p - 1) */
static int bk_round(bk *b, const unsigned *st, int i, int left) {
  if (i == b->n) {
    unsigned next[BK_MAXN];
    /* maximal only: no processor can take one more message */
    for (int p = 1; p < b->n; p++) {
      unsigned miss = b->full & ~st[p - 1] & ~b->sel[p];
      if (bk_popcount(b->sel[p]) >= b->k) continue;
      for (int x = 0; x < b->m; x++)
        if (miss >> x & 1) {
          int mark = bk_add(b, p, 1u << x), ok = bk_feasible(b);
          b->nreq = mark;
          if (ok) return 0;
        }
    }
    for (int p = 1; p < b->n; p++) next[p - 1] = st[p - 1] | b->sel[p];
    return bk_solve(b, next, left - 1);
  }
  {
    unsigned miss = b->full & ~st[i - 1];
    /* subsets of miss with at most k elements, larger first */
    for (int size = bk_popcount(miss) < b->k ? bk_popcount(miss) : b->k; size >= 0;
         size--)
      for (unsigned S = miss;; S = (S - 1) & miss) {
        if (bk_popcount(S) == size) {
          int mark = bk_add(b, i, S);
          if (bk_feasible(b)) {
            b->sel[i] = S;
            if (bk_round(b, st, i + 1, left)) { b->nreq = mark; return 1; }
          }
          b->nreq = mark;
        }
        if (S == 0) break;
      }
  }
  return 0;
}

static int bk_solve(bk *b, const unsigned *st, int left) {
  int done = 1, need = 0;
  uint64_t key;
  for (int p = 0; p < b->n - 1; p++)
    if (st[p] != b->full) {
      int miss = bk_popcount(b->full & ~st[p]);
      done = 0;
      if ((miss + b->k - 1) / b->k > need) need = (miss + b->k - 1) / b->k;
    }
  if (done) return 1;
  if (need > left) return 0;
  key = bk_key(b, st, left);
  if (bk_memo(b, key, 0)) return 0;
  {
    bk save = *b; /* the round's scratch is rebuilt below */
    unsigned have0[BK_MAXN];
    int ok;
    memcpy(have0, b->have, sizeof have0);
    b->have[0] = b->full;
    for (int p = 1; p < b->n; p++) b->have[p] = st[p - 1];
    b->nreq = 0;
    memset(b->sel, 0, sizeof b->sel);
    ok = bk_round(b, st, 1, left);
    memcpy(b->have, have0, sizeof have0);
    b->nreq = save.nreq;
    memcpy(b->sel, save.sel, sizeof b->sel);
    memcpy(b->rp, save.rp, sizeof b->rp);
    memcpy(b->rx, save.rx, sizeof b->rx);
    if (ok) return 1;
  }
  bk_memo(b, key, 1);
  return 0;
}

int brute_kport_opt(int n, int k, int m, int tmax) {
  bk *b;
  unsigned st[BK_MAXN] = {0};
  int res = -1;
  if (n < 1 || n > BK_MAXN || k < 1 || k > 4 || m < 1 || m > 5) return -2;
  if (n == 1) return 0;
  b = (bk *)calloc(1, sizeof *b);
  if (b == NULL) return -2;
  b->n = n;
  b->k = k;
  b->m = m;
  b->full = (1u << m) - 1;
  b->mask = ((size_t)1 << 20) - 1;
  b->memo = (uint64_t *)calloc(b->mask + 1, sizeof *b->memo);
  if (b->memo == NULL) { free(b); return -2; }
  for (int t = 1; t <= tmax && res < 0; t++)
    if (bk_solve(b, st, t)) res = t;
  free(b->memo);
  free(b);
  return res;
}
