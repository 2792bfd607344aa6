/* oc_kport_chain.c - the rotation algorithm for any n: a chain of
 * "broadcast black boxes" (Bar-Noy & Ho, seed 004, section 4 and
 * Theorem 7), with boxes of our own where the seed's could not be read.
 *
 * A box receives, every round, the k messages of one batch (lane b = the
 * b-th message of the batch) at its entry processors, gives each of them
 * to all its processors within t rounds (the entry round counts), and may
 * hand each message on ("spare" send) to the next box.  The source feeds
 * box 1 in round beta + 1 with batch beta; box i gets a message i - 1
 * rounds later, so the delay of the chain is max_i (i - 1 + t_i) and m
 * messages take ceil(m/k) - 1 + that many rounds.  With d =
 * ceil(log_{k+1} n) the target is d + 1, which makes the algorithm one
 * round above Lemma 2 (Theorem 10 of the seed).  Boxes:
 *
 *  CUBE(e)   the (k+1)-ary e-cube of oc_kport.c without its vertex 0:
 *            (k+1)^e - 1 processors, lane b enters at b e_c (c = the
 *            dimension of the entry round), t = e + 1; its spare is the
 *            send the cube schedule makes to vertex 0 (by the entry
 *            vertex, e rounds after entry).
 *  SPECIAL(e) (ours, in place of the seed's lost "special" box) the
 *            vertices of Z_{k+1}^D, D = e + 1, whose digit sum is not 0
 *            mod k+1: k (k+1)^e processors, t = e + 2, spare one round
 *            after entry.  A message runs the cube schedule of Z_{k+1}^D
 *            from a virtual vertex 0 (the feeder): lane b enters at b e_c,
 *            and in each of the next D rounds (dimension c) every holder
 *            v sends to v + a e_c, a = 1..k.  H = {digit sum 0} is a
 *            hyperplane that meets every line v + Z e_c exactly once, so
 *            (i) each holder has exactly one send into H - dropped; the
 *            entry's is the spare; (ii) a missing h in H that the cube
 *            makes a holder (two or more rounds after entry, when the
 *            holders' coset spans the previous round's dimension j) has
 *            k targets h + a e_c, all outside H, and k holders h + a e_j
 *            on its j-line, all outside H and
 *            holding the message: h + a e_j sends to h + a e_c in h's
 *            place, with the send it dropped.  Senders and receivers keep
 *            k distinct partners (h + a e_j is on neither the sender's nor
 *            the receiver's c-line), every reception is one the cube makes.
 *            Example k = 2, e = 1: Z_3^2 minus the line x + y = 0,
 *            {(0,0), (1,2), (2,1)}: 6 processors, 3 rounds.
 *  SINGLE    one processor taking all k lanes (from distinct senders):
 *            t = 1, spare one round later.  Never first (the source would
 *            send k messages to one processor) nor after a SINGLE.
 *  FRONT     k processors z_1..z_k, lane b entering z_b, and x children
 *            (CUBEs, SPECIALs and SINGLEs).  One round after entry z_b
 *            sends lane b to every child's entry (x sends), to y = k-1-x other
 *            fronts (z_{b+1}, ..., z_{b+y}, indices mod k) and, as the
 *            box's spare, to the next box (1 send): k sends.  The x fronts
 *            it skips (z_{b+y+1}, ..., z_{b+k-1}) get lane b from the
 *            children's spares, child j feeding z_{b+y+1+j}.  So z_c
 *            receives lane c from outside and every other lane once, from
 *            distinct processors: k receptions a round.  t = max(2, e + 2
 *            for a CUBE(e) child, f + 3 for a SPECIAL(f) child, 3 for a
 *            SINGLE child).  The last box may be a FRONT without spare:
 *            y = k - x, x >= 1, and one child's spare unused.
 *
 * The seed's "special" boxes of a(k+1)^e - 1 processors (delay 1) are
 * replaced by SPECIAL(e) (a = k, one processor more) and FRONTs (about
 * a <= k - 1).  For k <= 2 every n has a chain; the n where no chain of
 * these boxes has exactly n - 1 processors (a few per k for k >= 3,
 * e.g. n = 15, k = 3) are listed in docs/ALGORITHMS.md, with the k-tree
 * taking over there.
 *
 * oc_kport_chain_find_slack allows a delay of d + 1 + slack (tl grows by
 * slack): `best` uses slack 1 where no chain of delay d + 1 exists.
 * oc_kport_chain_find_tail is slack 1 with SINGLE boxes held to positions
 * <= d + 1, what the last message's replacement needs (oc_kport.c).
 *
 * oc_kport_chain_find searches chains box by box (largest first, failures
 * memoised, a capacity cut), in three passes of at most KPC_STEPS_MAX
 * steps: SPECIAL boxes, then SPECIAL FRONT children too, then no SPECIAL
 * at all; it records the chain's delay.  oc_kport_chain_emit
 * writes a message's sends box by box, O(1) per message sent.  Nothing
 * here checks a schedule: the verifier checks every one (tests, and
 * `optcast plan` before printing).
 */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"

#define KPC_STEPS_MAX 2000000 /* search effort before giving up (~0.1 s) */

typedef struct kpc_search {
  int64_t n, k, d, slack; /* target delay d + 1 + slack */
  int64_t single_max;     /* the last position a SINGLE box may take */
  kp_chain *out;
  long steps;
  int special;    /* pass: 0 none, 1 SPECIAL boxes, 2 also as FRONT children */
  int64_t pw[64]; /* (k+1)^e, saturated */
  /* memo of failures: (position, remaining, prev_single) */
  uint64_t *memo;
  size_t mask;
} kpc_search;

/* pw[e] = (k+1)^e, saturated at OC_PROCS_MAX */
static void kpc_powers(int64_t k, int64_t pw[64]) {
  pw[0] = 1;
  for (int e = 1; e < 64; e++)
    pw[e] = pw[e - 1] > OC_PROCS_MAX / (k + 1) ? OC_PROCS_MAX : pw[e - 1] * (k + 1);
}

static uint64_t kpc_key(int64_t i, int64_t rem, int ps) {
  return ((uint64_t)rem << 8 | (uint64_t)i << 1 | (uint64_t)ps) + 1;
}

static int kpc_memo(kpc_search *s, uint64_t key, int add) {
  size_t h = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 17) & s->mask;
  for (size_t probes = 0; s->memo[h] != 0 && probes <= s->mask; probes++) {
    if (s->memo[h] == key) return 1;
    h = (h + 1) & s->mask;
  }
  if (add && s->memo[h] == 0) s->memo[h] = key;
  return 0;
}

static int kpc_rec(kpc_search *s, int64_t i, int64_t rem, int prev_single);

/* A FRONT child's processors and rounds from the FRONT's entry: code 0
 * SINGLE, e > 0 CUBE(e), -(f + 1) SPECIAL(f). */
static int64_t kpc_ch_procs(const int64_t *pw, int64_t k, int ce) {
  return ce > 0 ? pw[ce] - 1 : ce < 0 ? pw[-ce - 1] * k : 1;
}

static int64_t kpc_ch_rounds(int ce) { return ce > 0 ? ce + 2 : ce < 0 ? -ce + 2 : 3; }

/* Try FRONTs at position i with children chosen from kinds e = emax..0
 * (0 = SINGLE, allowed when tl >= 3), count <= cmax.  last: s = 0. */
static int kpc_front(kpc_search *s, int64_t i, int64_t rem, int last, int e,
                     int64_t cmax, int64_t tl) {
  kp_elem *el = &s->out->el[i - 1];
  if (++s->steps > KPC_STEPS_MAX) return 0;
  if (e < 0 || cmax == 0) {
    if (rem < 0) return 0;
    if (last) {
      if (rem != 0 || el->nch == 0) return 0;
      el->spare = 0;
      s->out->len = i;
      return 1;
    }
    el->spare = 1;
    return kpc_rec(s, i + 1, rem, 0);
  }
  if (e == 0 && tl < 3) return kpc_front(s, i, rem, last, -1, cmax, tl);
  /* take c children of kind e, c from the most down to 0 */
  {
    int64_t sz = kpc_ch_procs(s->pw, s->k, e), cmost = cmax;
    if (sz > 0 && rem / sz < cmost) cmost = rem / sz;
    for (int64_t c = cmost; c >= 0; c--) {
      int64_t base = el->nch;
      if (base + c > KP_CHAIN_CHILDREN) continue;
      for (int64_t j = 0; j < c; j++) el->ch[base + j] = e;
      el->nch = base + c;
      if (kpc_front(s, i, rem - c * sz, last, e - 1, cmax - c, tl)) return 1;
      el->nch = base;
      if (s->steps > KPC_STEPS_MAX) return 0;
    }
  }
  return 0;
}

/* FRONT children SPECIAL(f), f = fmax..0 (child = -(f + 1), t = f + 3
 * for the box: the child enters one round after the box), count <=
 * cmax; then the CUBE and SINGLE children of kpc_front. */
static int kpc_front_sp(kpc_search *s, int64_t i, int64_t rem, int last, int f,
                        int64_t cmax, int64_t tl, int emax) {
  kp_elem *el = &s->out->el[i - 1];
  int64_t sz, cmost = cmax;
  if (f < 0 || cmax == 0 || s->special < 2) return kpc_front(s, i, rem, last, emax, cmax, tl);
  if (s->pw[f] > rem / s->k) return kpc_front_sp(s, i, rem, last, f - 1, cmax, tl, emax);
  if (++s->steps > KPC_STEPS_MAX) return 0;
  sz = s->pw[f] * s->k;
  if (rem / sz < cmost) cmost = rem / sz;
  for (int64_t c = cmost; c >= 0; c--) {
    int64_t base = el->nch;
    if (base + c > KP_CHAIN_CHILDREN) continue;
    for (int64_t j = 0; j < c; j++) el->ch[base + j] = -(f + 1);
    el->nch = base + c;
    if (kpc_front_sp(s, i, rem - c * sz, last, f - 1, cmax - c, tl, emax)) return 1;
    el->nch = base;
    if (s->steps > KPC_STEPS_MAX) return 0;
  }
  return 0;
}

/* Position i (1-based) with rem processors left to place. */
static int kpc_rec(kpc_search *s, int64_t i, int64_t rem, int prev_single) {
  int64_t tl = s->d + 2 + s->slack - i; /* box i must finish within tl rounds */
  kp_elem *el;
  uint64_t key;
  if (rem == 0) {
    s->out->len = i - 1;
    return i > 1;
  }
  if (tl <= 0 || i > KP_CHAIN_MAX || ++s->steps > KPC_STEPS_MAX) return 0;
  /* boxes i, i+1, ... hold at most (k+1)^(tl-1): SPECIALs k (k+1)^(t-2)
   * for t = tl, tl-1, ..., 2 and a closing SINGLE telescope to it (a
   * FRONT holds at most as much as the SPECIAL of its t, a closing
   * CUBE(tl-1) one less) */
  if (tl - 1 < 63 && rem > s->pw[tl - 1]) return 0;
  key = kpc_key(i, rem, prev_single);
  if (kpc_memo(s, key, 0)) return 0;
  el = &s->out->el[i - 1];
  memset(el, 0, sizeof *el);
  /* a CUBE closing the chain */
  for (int64_t f = 1; f < tl && f < 63 && s->pw[f] - 1 <= rem; f++)
    if (s->pw[f] - 1 == rem) {
      el->type = KP_EL_CUBE;
      el->e = (int)f;
      s->out->len = i;
      return 1;
    }
  /* a SPECIAL(f): k (k+1)^f processors, t = f + 2, closing the chain or
   * handing on one round after entry; largest first */
  for (int64_t f = oc_min64(tl - 2, 61); f >= 0 && s->special; f--) {
    int64_t sz;
    if (s->pw[f] > rem / s->k) continue;
    sz = s->pw[f] * s->k;
    el->type = KP_EL_SPECIAL;
    el->e = (int)f;
    if (sz == rem) {
      s->out->len = i;
      return 1;
    }
    if (kpc_rec(s, i + 1, rem - sz, 0)) return 1;
    if (s->steps > KPC_STEPS_MAX) return 0;
    memset(el, 0, sizeof *el);
  }
  /* a SINGLE closing the chain */
  if (rem == 1 && i > 1 && !prev_single && i <= s->single_max) {
    el->type = KP_EL_SINGLE;
    s->out->len = i;
    return 1;
  }
  if (tl >= 2 && rem >= s->k) { /* a SINGLE before it feeds z_b from one processor: fine */
    int emax = (int)oc_min64(tl - 2, 62);
    while (emax > 0 && s->pw[emax] - 1 > rem - s->k) emax--;
    el->type = KP_EL_FRONT;
    el->nch = 0;
    int fmax = (int)oc_min64(tl - 3, 61);
    if (kpc_front_sp(s, i, rem - s->k, 1, fmax, s->k, tl, emax)) return 1;
    el->nch = 0;
    if (kpc_front_sp(s, i, rem - s->k, 0, fmax, s->k - 1, tl, emax)) return 1;
  }
  /* a SINGLE in the middle (not first, not after a SINGLE) */
  if (i > 1 && !prev_single && s->k >= 2 && i <= s->single_max) {
    memset(el, 0, sizeof *el);
    el->type = KP_EL_SINGLE;
    if (kpc_rec(s, i + 1, rem - 1, 1)) return 1;
  }
  if (s->steps <= KPC_STEPS_MAX) kpc_memo(s, key, 1);
  return 0;
}

/* The chain's delay: box i (1-based) enters i - 1 rounds after the
 * source's send round and needs t_i rounds, so a message is everywhere
 * max_i (i - 1 + t_i) rounds after that round starts - d + 1 at most by
 * the search, d where the boxes allow (n = (k+1)^j + 1: Lemma 2). */
static void kpc_delay(kp_chain *c) {
  c->delay = 0;
  for (int64_t i = 0; i < c->len; i++) {
    const kp_elem *el = &c->el[i];
    int64_t t = 1; /* SINGLE */
    if (el->type == KP_EL_CUBE) t = el->e + 1;
    if (el->type == KP_EL_SPECIAL) t = el->e + 2;
    if (el->type == KP_EL_FRONT) {
      t = 2;
      for (int64_t j = 0; j < el->nch; j++) t = oc_max64(t, kpc_ch_rounds(el->ch[j]));
    }
    c->delay = oc_max64(c->delay, i + t);
  }
}

static int kpc_find(int64_t n, int64_t k, int64_t slack, int tail, kp_chain *out);

int oc_kport_chain_find(int64_t n, int64_t k, kp_chain *out) {
  return kpc_find(n, k, 0, 0, out);
}

/* slack > 0: a chain of delay up to d + 1 + slack (`best` uses slack 1
 * where no chain of delay d + 1 exists, oc_kport.c). */
int oc_kport_chain_find_slack(int64_t n, int64_t k, int64_t slack, kp_chain *out) {
  return kpc_find(n, k, slack, 0, out);
}

/* A chain of delay d + 2 whose every processor gets some message of a
 * batch within d + 1 rounds of the batch's send round once the batches
 * after it are counted (its "first arrival"): what the last message's
 * spread by replacement needs (oc_kport.c, kp_rotation_slack).  Box i
 * enters i - 1 rounds after the send round; under replacement batch j + 1
 * enters one round after batch j with the next dimension, so a CUBE(e)'s
 * processors have a message e rounds after entry (the entry round
 * counting; batches 0..s cover the vectors with support in the s + 1
 * dimensions used since), a SPECIAL(e)'s after e + 1, a FRONT's after
 * its t - 1 (its fronts at entry, its children a round later): t - 1
 * for every box, so a delay of d + 2 leaves every first arrival within
 * d + 1, except for a SINGLE (its first arrival is its t = 1).  So the
 * only extra rule is SINGLE boxes at positions <= d + 1. */
int oc_kport_chain_find_tail(int64_t n, int64_t k, kp_chain *out) {
  return kpc_find(n, k, 1, 1, out);
}

static int kpc_find(int64_t n, int64_t k, int64_t slack, int tail, kp_chain *out) {
  kpc_search s;
  int ok;
  memset(out, 0, sizeof *out);
  if (n < 2 || k < 1 || n > KP_CHAIN_PROCS_MAX || slack < 0 || slack > 8) return OC_EUNSUP;
  memset(&s, 0, sizeof s);
  s.n = n;
  s.k = k;
  s.slack = slack;
  s.out = out;
  kpc_powers(k, s.pw);
  for (s.d = 0; s.pw[s.d] < n; s.d++) {}
  s.single_max = s.d + 1 + (tail ? 0 : slack);
  out->k = k;
  out->n = n;
  out->d = s.d;
  if (s.pw[s.d] == n) { /* the cube alone */
    out->len = 1;
    out->el[0].type = KP_EL_CUBE;
    out->el[0].e = (int)s.d;
    out->delay = s.d + 1;
    return OC_OK;
  }
  if (k > KP_CHAIN_CHILDREN) return OC_EUNSUP; /* FRONTs hold at most this */
  s.mask = ((size_t)1 << 16) - 1;
  s.memo = (uint64_t *)calloc(s.mask + 1, sizeof *s.memo);
  if (s.memo == NULL) return OC_ENOMEM;
  /* three passes, each with its own steps and memo: SPECIAL boxes, then
   * also SPECIAL children of FRONTs (many more combinations: for k >= 8
   * and large n they can use up the steps where a plainer chain exists),
   * then the boxes before SPECIAL */
  ok = 0;
  for (int pass = 0; pass < 3 && !ok; pass++) {
    s.special = pass == 2 ? 0 : pass + 1;
    s.steps = 0;
    memset(s.memo, 0, (s.mask + 1) * sizeof *s.memo);
    ok = kpc_rec(&s, 1, n - 1, 0);
  }
  free(s.memo);
  if (ok) kpc_delay(out);
  return ok ? OC_OK : OC_EUNSUP;
}

/* ---- emission ----------------------------------------------------------------- */
typedef struct kpc_emit {
  const kp_chain *c;
  int64_t n, k, m, root;
  oc_sched *out;
  int64_t last; /* latest arrival round */
  int64_t *buf;  /* cube knower list */
  int64_t *sbuf; /* SPECIAL: their digit sums mod k+1 */
  int64_t pw[64];
} kpc_emit;

static int kpc_send(kpc_emit *x, int64_t r, int64_t src, int64_t dst, int64_t item) {
  if (r > x->last) x->last = r;
  if (x->out == NULL) return OC_OK;
  return oc_sched_push(x->out, r, (src + x->root) % x->n, (dst + x->root) % x->n, item);
}

static int64_t kpc_dim(int64_t r, int e) { return (r - 1) % e; }

/* A message entering CUBE(e) (vertices base + v - 1, v = 1..(k+1)^e - 1)
 * in round rho on lane b from feeder: its sends; returns the spare
 * sender and round through *sp, *spr. */
static int kpc_cube(kpc_emit *x, int64_t base, int e, int64_t rho, int64_t b,
                    int64_t feeder, int64_t item, int64_t *sp, int64_t *spr) {
  int64_t B = x->k + 1, cnt = 1, entry;
  int err;
  entry = b * x->pw[kpc_dim(rho, e)];
  if ((err = kpc_send(x, rho, feeder, base + entry - 1, item)) != OC_OK) return err;
  x->buf[0] = entry;
  *sp = -1;
  for (int s = 1; s <= e; s++) {
    int64_t r = rho + s, c = kpc_dim(r, e), have = cnt;
    for (int64_t q = 0; q < have; q++) {
      int64_t v = x->buf[q], dig = (v / x->pw[c]) % B;
      for (int64_t a = 1; a <= x->k; a++) {
        int64_t w = v + ((dig + a) % B - dig) * x->pw[c];
        if (w == 0) {
          *sp = base + v - 1;
          *spr = r;
          continue;
        }
        if ((err = kpc_send(x, r, base + v - 1, base + w - 1, item)) != OC_OK) return err;
        x->buf[cnt++] = w;
      }
    }
  }
  return OC_OK;
}

/* SPECIAL(e), D = e + 1 dimensions: the vectors v of Z_{k+1}^D whose
 * digit sum is not 0 (mod k+1), numbered base + (v without its digit 0)
 * k + the rank of digit 0 among the k digits allowed there; sum = v's
 * digit sum mod k+1. */
static int64_t kpc_sp_index(const kpc_emit *x, int64_t v, int64_t sum) {
  int64_t B = x->k + 1, d0 = v % B, h = (B - (sum - d0 + B) % B) % B;
  return v / B * x->k + (d0 < h ? d0 : d0 - 1);
}

/* A message entering SPECIAL(e) in round rho on lane b: the cube schedule
 * of Z_{k+1}^D from the feeder's vertex 0, with H = {digit sum 0} left
 * out.  A holder's send into H is dropped (its spare); a send by a vertex
 * h of H is made by h + a e_j, j the previous round's dimension, for h's
 * target h + a e_c.  The entry's spare, one round after entry, hands the
 * message on (*sp).  Digit sums ride along in sbuf: O(1) per send. */
static int kpc_special(kpc_emit *x, int64_t base, int e, int64_t rho, int64_t b,
                       int64_t feeder, int64_t item, int64_t *sp) {
  int D = e + 1;
  int64_t B = x->k + 1, cnt = 1, entry = b * x->pw[kpc_dim(rho, D)];
  int err;
  *sp = base + kpc_sp_index(x, entry, b);
  if ((err = kpc_send(x, rho, feeder, *sp, item)) != OC_OK) return err;
  x->buf[0] = entry;
  x->sbuf[0] = b;
  for (int s = 1; s <= D; s++) {
    int64_t r = rho + s, have = cnt;
    int c = (int)kpc_dim(r, D), j = (int)kpc_dim(r - 1, D);
    for (int64_t q = 0; q < have; q++) {
      int64_t v = x->buf[q], sv = x->sbuf[q], dc = (v / x->pw[c]) % B;
      int64_t dj = (v / x->pw[j]) % B;
      for (int64_t a = 1; a <= x->k; a++) {
        int64_t nc = (dc + a) % B, w = v + (nc - dc) * x->pw[c], sw = (sv - dc + nc + B) % B;
        int64_t u = v, su = sv;
        x->buf[cnt] = w;
        x->sbuf[cnt++] = sw;
        if (sw == 0) continue; /* w in H: dropped */
        if (sv == 0) { /* v in H: its fellow holder v + a e_j sends */
          int64_t nj = (dj + a) % B;
          u = v + (nj - dj) * x->pw[j];
          su = (sv - dj + nj + B) % B;
        }
        if ((err = kpc_send(x, r, base + kpc_sp_index(x, u, su), base + kpc_sp_index(x, w, sw),
                            item)) != OC_OK)
          return err;
      }
    }
  }
  return OC_OK;
}

int oc_kport_chain_emit(const kp_chain *c, int64_t m, int64_t root,
                        oc_sched *out, int64_t *time) {
  return oc_kport_chain_emit_range(c, 0, m, root, out, time);
}

/* Items i0..m-1 only, each sent where the chain for m messages sends it
 * (the chain is periodic: an item's sends do not depend on m). */
int oc_kport_chain_emit_range(const kp_chain *c, int64_t i0, int64_t m, int64_t root,
                              oc_sched *out, int64_t *time) {
  kpc_emit x;
  int64_t bases[KP_CHAIN_MAX], nb = 1, maxcube = 1;
  int err = OC_OK;
  memset(&x, 0, sizeof x);
  x.c = c;
  x.n = c->n;
  x.k = c->k;
  x.m = m;
  x.root = root;
  x.out = out;
  kpc_powers(c->k, x.pw);
  for (int64_t i = 0; i < c->len; i++) {
    const kp_elem *el = &c->el[i];
    bases[i] = nb;
    if (el->type == KP_EL_CUBE) {
      nb += x.pw[el->e] - 1;
      maxcube = oc_max64(maxcube, x.pw[el->e]);
    } else if (el->type == KP_EL_SPECIAL) {
      nb += x.pw[el->e] * c->k;
      maxcube = oc_max64(maxcube, x.pw[el->e + 1]);
    } else if (el->type == KP_EL_SINGLE) {
      nb += 1;
    } else {
      nb += c->k;
      for (int64_t j = 0; j < el->nch; j++) {
        int ce = el->ch[j];
        maxcube = oc_max64(maxcube, x.pw[ce < 0 ? -ce : ce]); /* its cube's vertices */
        nb += kpc_ch_procs(x.pw, c->k, ce);
      }
    }
  }
  if (nb != c->n) return OC_EINVAL;
  x.buf = (int64_t *)malloc((size_t)maxcube * sizeof *x.buf);
  x.sbuf = (int64_t *)malloc((size_t)maxcube * sizeof *x.sbuf);
  if (x.buf == NULL || x.sbuf == NULL) {
    free(x.buf);
    free(x.sbuf);
    return OC_ENOMEM;
  }
  for (int64_t item = i0 < 0 ? 0 : i0; item < m && err == OC_OK; item++) {
    int64_t beta = item / c->k, b = item % c->k + 1; /* lane b = 1..k */
    int64_t feeder = -1, rho = beta + 1;            /* source: processor 0 */
    for (int64_t i = 0; i < c->len && err == OC_OK; i++, rho++) {
      const kp_elem *el = &c->el[i];
      int64_t base = bases[i], sp = -1, spr = 0;
      if (feeder < 0) feeder = 0;
      if (el->type == KP_EL_CUBE) {
        err = kpc_cube(&x, base, el->e, rho, b, feeder, item, &sp, &spr);
        feeder = sp;
      } else if (el->type == KP_EL_SPECIAL) {
        err = kpc_special(&x, base, el->e, rho, b, feeder, item, &sp);
        feeder = sp;
      } else if (el->type == KP_EL_SINGLE) {
        err = kpc_send(&x, rho, feeder, base, item);
        feeder = base; /* sends on one round later */
      } else {
        int64_t k = c->k, z = base + b - 1, xch = el->nch;
        int64_t y = el->spare ? k - 1 - xch : k - xch, cb = base + k;
        if ((err = kpc_send(&x, rho, feeder, z, item)) != OC_OK) break;
        for (int64_t j = 1; j <= y && err == OC_OK; j++)
          err = kpc_send(&x, rho + 1, z, base + (b - 1 + j) % k, item);
        for (int64_t j = 0; j < xch && err == OC_OK; j++) {
          int64_t miss = base + (b - 1 + y + 1 + j) % k, csp = -1, cspr = 0;
          int e = el->ch[j];
          if (e < 0) { /* SPECIAL(-e - 1) child: its entry hands on a round later */
            err = kpc_special(&x, cb, -e - 1, rho + 1, b, z, item, &csp);
            cspr = rho + 2;
            cb += x.pw[-e - 1] * k;
          } else if (e == 0) { /* SINGLE child */
            err = kpc_send(&x, rho + 1, z, cb, item);
            csp = cb;
            cspr = rho + 2;
            cb += 1;
          } else {
            err = kpc_cube(&x, cb, e, rho + 1, b, z, item, &csp, &cspr);
            cb += x.pw[e] - 1;
          }
          if (err == OC_OK && (j < k - 1 - y) && csp >= 0)
            err = kpc_send(&x, cspr, csp, miss, item);
        }
        feeder = el->spare ? z : -1;
      }
      /* the next box is fed one round later by `feeder` (its spare) */
      if (feeder < 0 && i + 1 < c->len) err = OC_EINVAL;
    }
  }
  free(x.buf);
  free(x.sbuf);
  if (err == OC_OK && time != NULL) *time = x.last;
  return err;
}
