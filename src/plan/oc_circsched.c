/* oc_circsched.c - a rank's own receive and send schedule in Traff's
 * round-optimal circulant broadcast, in O(log^2 P) time and O(log P) memory.
 *
 * Source: J. L. Traff, "Optimal broadcast schedules in logarithmic time with
 * applications to broadcast, all-broadcast, reduction and all-reduction",
 * arXiv 2312.11236 (2023; ACM TOPC 2025, doi 10.1145/3735139); the receive
 * rule as MPICH's circulant broadcast states it (its `circ_graph` bcast).
 *
 * Pattern: q = ceil(log2 P), skips s_q = P, s_k = ceil(s_{k+1} / 2), s_0 = 1.
 * In round i (slot k = i mod q) relative rank r receives from r - s_k and
 * sends to r + s_k (mod P).  Blocks are numbered per phase of q rounds:
 * R[k] is the block r receives in slot k of phase 0, and in phase f it
 * receives R[k] + f q (negative: nothing yet).  The n blocks of a broadcast
 * take n - 1 + q rounds, which is the least a one-ported broadcast can take
 * (the root sends a block a round; the last needs q rounds to reach P).
 *
 * baseblock(r): write r greedily as s_{e1} + s_{e2} + ... + s_{b}
 * (e1 > e2 > ... > b; every r < P can be, as s_k <= s_{k+1} <= 2 s_k and
 * s_0 = 1); b is r's base block (the root's is q).  R[0], R[1], ... are
 * filled by a recursive walk over sums of skips, largest first, drawn from
 * the indices not used yet (q, then q-1 .. 0 without b and without those
 * already taken; circ_blocks): a sum u that stays at most r + P - s_k
 * (and below the sum taken last) first goes deeper while it is at most
 * r + P - s_{k+1}, then, unless the walk has passed slot k's range, slot k
 * takes u's last skip.  Then R[k] = b where the walk gave q, R[k] - q
 * otherwise.  Sends: S[k] = R_{r + s_k}[k] (the receiver's), the root's
 * S[k] = k.  The tests (mbcast_circulant) check every rank's schedule for
 * every P up to 581 and random P up to 40000: in every phase a rank
 * receives one block of each residue mod q, and every block it sends it
 * has received in an earlier round (or is the root). */
#include "plan/oc_plan.h"

int oc_circ_baseblock(int64_t P, int q, const int64_t *s, int64_t r) {
  if (r <= 0 || r >= P) return q;
  for (int k = q - 1; k >= 0; k--)
    if (r >= s[k]) {
      r -= s[k];
      if (r == 0) return k;
    }
  return -1; /* (cannot happen: s_0 = 1) */
}

/* The walk over the sums (Traff's receive schedule, as recursion): the
 * unused indices form a list, largest first (nx/pv, shifted by one so that
 * -1 is the list's head); rank x = r + P; v: the sum so far; lim: the sums
 * must stay below it (the one taken last); e: where the list walk starts.
 * Returns the next slot to fill. */
typedef struct circ_walk {
  const int64_t *s;
  int64_t x;
  int q;
  int nx[66], pv[66]; /* index i at i + 1; 0 is the head (-1) */
  int *R;
  int deep; /* the recursion went past CIRC_DEPTH: refused (never seen) */
} circ_walk;
#define CIRC_DEPTH 128

static void circ_unlink(circ_walk *w, int e) {
  w->nx[w->pv[e + 1] + 1] = w->nx[e + 1];
  w->pv[w->nx[e + 1] + 1] = w->pv[e + 1];
}

static int circ_blocks(circ_walk *w, int64_t v, int64_t lim, int e, int k, int depth) {
  while (e != -1 && k < w->q) {
    int64_t u = oc_add_sat(v, w->s[e]); /* past 2^63 at P = 2^62: too large either way */
    if (u <= w->x - w->s[k] && u < lim) {
      if (u <= w->x - w->s[k + 1]) {
        if (depth >= CIRC_DEPTH) {
          w->deep = 1;
          return w->q;
        }
        k = circ_blocks(w, u, lim, e, k, depth + 1);
      }
      if (k >= w->q || v > w->x - w->s[k + 1]) return k;
      lim = u;
      w->R[k++] = e;
      circ_unlink(w, e);
    }
    e = w->nx[e + 1];
  }
  return k;
}

int oc_circ_recv(int64_t P, int q, const int64_t *s, int64_t r, int *R) {
  circ_walk w;
  int b, k;
  if (P < 2 || q < 1 || q > 62 || r < 0 || r >= P) return OC_EINVAL;
  b = oc_circ_baseblock(P, q, s, r);
  if (b < 0) return OC_EINVALID;
  w.s = s;
  w.x = P + r;
  w.q = q;
  w.R = R;
  w.deep = 0;
  for (int i = 0; i <= q; i++) { /* q -> q-1 -> ... -> 0 -> end */
    w.nx[i + 1] = i - 1;
    w.pv[i + 1] = i + 1 > q ? -1 : i + 1;
  }
  w.nx[0] = q;
  w.pv[0] = 0;
  circ_unlink(&w, b);
  k = circ_blocks(&w, 0, oc_mul_sat(2, P), q, 0, 0); /* every sum stays below 2P: saturating at P = 2^62 changes nothing */
  if (k != q || w.deep) return OC_EINVALID;
  for (int i = 0; i < q; i++) R[i] = R[i] == q ? b : R[i] - q;
  return OC_OK;
}

int oc_circ_send(int64_t P, int q, const int64_t *s, int64_t r, int *S) {
  int R[64];
  if (P < 2 || q < 1 || q > 62 || r < 0 || r >= P) return OC_EINVAL;
  for (int k = 0; k < q; k++) {
    int64_t to = (r + s[k]) % P;
    int e;
    if (r == 0) {
      S[k] = k;
      continue;
    }
    if (to == 0) { /* to the root: not sent */
      S[k] = -q - 1;
      continue;
    }
    if ((e = oc_circ_recv(P, q, s, to, R)) != OC_OK) return e;
    S[k] = R[k];
  }
  return OC_OK;
}
