/* oc_cbnest.c - continuous broadcast (postal, integer L, g = 1): the NESTED
 * block-cyclic construction, for any number of processors and any L.
 *
 * Source: ours, in Karp, Sahay, Santos, Schauser's block-cyclic frame
 * ("Optimal Broadcast and Summation in the LogP Model", section 3.2; the
 * terms block, letter, word and receive-only processor are theirs, see
 * oc_cbcast.c).  Used where Karp's induction and the searched trees of
 * oc_cbcast.c find nothing within Theorem 3.7's budget: their words come
 * from a small family, and for large L (>= 19) the trees they need are
 * not found (e.g. L = 20, P = 21 fell back to the path, delay 400).
 *
 * What it does.  A tree of deadline D (every item is everywhere L + D
 * after its creation) in which every internal node v with r children has
 * its own block of r processors, as in Karp's scheme; what differs is
 * WHICH leaves a block takes.  Here every subtree hands exactly one of its
 * leaves up to its parent's block and keeps the rest:
 *   - a subtree with s nodes and i internal nodes has s - i leaves, and its
 *     blocks need sum (r_u - 1) = (s - 1) - i of them: one is left over;
 *   - the node v's block can use its own leaf children and the leaf handed
 *     up by each internal child: r candidates, r - 1 taken, one handed on;
 *     at the root the one left over goes to the receive-only processor.
 * A block (r, J) with letters w_1..w_{r-1} has a legal word iff J + sum w
 * = 0 (mod r) (Hall's theorem, see oc_cbcast.c), so the leaf v hands up
 * is forced modulo r: with offsets (receive times relative to the root's)
 * instead of letters it is T = off(v) + sum of the candidates (mod r).
 * The candidates are the own leaf children, r - m consecutive offsets
 * off(v) + L + j, and the m internal children's leaves.  If none is = T,
 * two children trade slots (one internal child moves to the slot where
 * its handed-up leaf is = T, or off a slot whose own leaf would be), where
 * the deadline allows.  Everything inside a subtree shifts with its root,
 * and a block's condition is unchanged by a shift (r terms), so this runs
 * bottom-up on relative offsets: a subtree is its size, height and the
 * offset of the leaf it hands up.  Where no trade fits, the block hands up
 * a leaf anyway and its sum is repaired afterwards by trading leaves with
 * other blocks B (x for y with r_B | y - x, so B's sum stays right) or
 * with the receive-only processor (see "the repair" below).
 *
 * The tree shape: the full postal tree of deadline D (a node with h steps
 * left has children with h - L, h - L - 1, ..., 0 left; a subtree with h
 * left holds at most f_h nodes, f_h = 1 (h < L), f_{h-1} + f_{h-L}) cut
 * down to n = P - 1 nodes top-down, either filling the first children
 * first (tight, for D = B) or in proportion to their capacity (slack in
 * every subtree, for the trades).  D runs from B(P-1) up.
 *
 * Words: any multiset that meets the condition has a legal order (Hall);
 * we find one by local search (swap two positions' letters, fewest
 * residue clashes), which is not guaranteed to finish but has not failed
 * in our runs (docs/ALGORITHMS.md); a block whose search runs out fails
 * the attempt.  oc_cbcast.c checks the result as it does every plan
 * (finalize), and the tests run the verifier on it.
 *
 * Cost: O(n + sum r) per attempt for the tree; the repair O(r D) lookups
 * per trade; the words' search O(iterations * r) per block.  Deadlines
 * B .. B + 2L + 4, two attempts each, until one works (at P = 10^6: up to
 * 1.2 s; P <= 400: < 10 ms).
 * Where it is optimal: delay L + D; D = B(P-1) where the first attempt
 * succeeds, which is the case for every n <= L + 1 (the root's leaf
 * children alone: consecutive offsets cover every residue) and, seen, for
 * 99.5% of P <= 400 with L = 19..64 (the rest +1; up to P = 10^6: +2 at
 * most, Theorem 3.7 allows L - 1).  The delay is reported with its gap to
 * L + B(P-1).
 */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"

typedef struct cn_node {
  int64_t size;  /* nodes in the subtree                                   */
  int64_t h;     /* steps left when it receives (planned): D - offset      */
  int64_t first; /* children: nodes first .. first + r - 1                  */
  int64_t r;
  int64_t slot;  /* its slot among its parent's children                   */
  int64_t H;     /* height: last reception in the subtree, relative        */
  int64_t sigma; /* offset of the leaf it hands up, relative               */
  int64_t off;   /* absolute offset (emission)                             */
} cn_node;

static uint64_t cn_rng(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static int32_t cn_res(int32_t s, int32_t x, int32_t r) { return (s + x) % r; }

/* Orders w[1..r-1] so that w[0] = J, 1 + w[1], ..., r-1 + w[r-1] are
 * distinct mod r (Karp's second restriction).  Local search: a position
 * whose residue clashes swaps letters with the position that lowers the
 * clashes most (ties and, now and then, a random swap, by a seeded
 * generator).  OC_EINVAL if the sum condition fails or the search runs out. */
int oc_cb_order_word(int32_t r, int64_t *w, uint64_t seed) {
  int32_t *cnt = NULL, *x = NULL, *conf = NULL;
  int64_t sum = 0, it, cap;
  uint64_t st = seed;
  int e = OC_EINVAL;
  if (r <= 1) return OC_OK;
  for (int32_t s = 0; s < r; s++) {
    if (w[s] < 0) return OC_EINVAL;
    sum = (sum + w[s] % r) % r;
  }
  if (sum != 0) return OC_EINVAL;
  cnt = (int32_t *)calloc((size_t)r, sizeof *cnt);
  x = (int32_t *)malloc((size_t)r * sizeof *x);
  conf = (int32_t *)malloc((size_t)r * sizeof *conf);
  if (cnt == NULL || x == NULL || conf == NULL) {
    e = OC_ENOMEM;
    goto out;
  }
  for (int32_t s = 0; s < r; s++) {
    x[s] = (int32_t)(w[s] % r);
    cnt[cn_res(s, x[s], r)]++;
  }
  cap = 400 * (int64_t)r + 20000;
  for (it = 0; it < cap; it++) {
    int32_t nc = 0, s, rs, best_t = -1;
    int64_t best = INT64_MAX;
    for (int32_t q = 1; q < r; q++)
      if (cnt[cn_res(q, x[q], r)] > 1) conf[nc++] = q;
    if (nc == 0) {
      e = OC_OK;
      break;
    }
    s = conf[cn_rng(&st) % (uint64_t)nc];
    rs = cn_res(s, x[s], r);
    for (int32_t t = 1; t < r; t++) {
      int32_t rt, ns, nt;
      int64_t d = 0;
      if (t == s || x[t] == x[s]) continue;
      rt = cn_res(t, x[t], r);
      ns = cn_res(s, x[t], r);
      nt = cn_res(t, x[s], r);
      /* clashes = sum over residues of max(0, count - 1) */
      cnt[rs]--;
      d -= cnt[rs] >= 1;
      cnt[rt]--;
      d -= cnt[rt] >= 1;
      d += cnt[ns] >= 1;
      cnt[ns]++;
      d += cnt[nt] >= 1;
      cnt[nt]++;
      cnt[nt]--;
      cnt[ns]--;
      cnt[rt]++;
      cnt[rs]++;
      d = d * 4 + (int64_t)(cn_rng(&st) & 3);
      if (d < best) {
        best = d;
        best_t = t;
      }
    }
    if (best_t < 0) break; /* every letter the same: nothing to swap */
    if (best >= 0 && cn_rng(&st) % 16 == 0) { /* no gain: a random walk step */
      best_t = 1 + (int32_t)(cn_rng(&st) % (uint64_t)(r - 1));
      if (best_t == s) continue;
    }
    {
      int32_t t = best_t, tx = x[s];
      int64_t tw = w[s];
      cnt[rs]--;
      cnt[cn_res(t, x[t], r)]--;
      x[s] = x[t];
      x[t] = tx;
      w[s] = w[t];
      w[t] = tw;
      cnt[cn_res(s, x[s], r)]++;
      cnt[cn_res(t, x[t], r)]++;
    }
  }
out:
  free(cnt);
  free(x);
  free(conf);
  return e;
}

/* ---- the tree -------------------------------------------------------------- */

typedef struct cn_tree {
  int64_t n, L, D;
  int64_t slack;    /* the shape is cut for deadline D - slack           */
  const int64_t *f; /* f[0..D] */
  cn_node *v;
  int64_t nv;
  int64_t *ch;      /* scratch: a node's children by slot */
} cn_tree;

/* The shape: node sizes top-down (breadth first, children contiguous).
 * policy 0 fills the first children first, 1 shares in proportion to
 * capacity.  OC_EINVAL if n does not fit. */
static int cn_shape(cn_tree *t, int policy) {
  int64_t L = t->L;
  t->nv = 1;
  memset(&t->v[0], 0, sizeof t->v[0]);
  t->v[0].size = t->n;
  t->v[0].h = t->D - t->slack;
  if (t->f[t->v[0].h] < t->n) return OC_EINVAL;
  for (int64_t i = 0; i < t->nv; i++) {
    cn_node *v = &t->v[i];
    int64_t rem = v->size - 1, h = v->h, tot = 0, give;
    v->first = t->nv;
    v->r = 0;
    if (rem == 0) continue;
    if (h < L) return OC_EINVAL;
    if (policy == 1)
      for (int64_t j = 0; j <= h - L; j++) tot += oc_min64(t->f[h - L - j], rem);
    for (int64_t j = 0; j <= h - L && rem > 0; j++) {
      int64_t cap = t->f[h - L - j];
      cn_node *c;
      if (policy == 0) {
        give = oc_min64(cap, rem);
      } else {
        /* floor share of the original rem, then top up from the front */
        give = (int64_t)((long double)(v->size - 1) * (long double)oc_min64(cap, v->size - 1) /
                         (long double)tot);
        if (give < 1) give = 1;
        give = oc_min64(oc_min64(give, cap), rem);
      }
      if (t->nv >= t->n) return OC_EINVAL;
      c = &t->v[t->nv++];
      memset(c, 0, sizeof *c);
      c->size = give;
      c->h = h - L - j;
      c->slot = j;
      rem -= give;
      v->r++;
    }
    /* policy 1: what the floors left over goes to the first children that
     * have room (their sizes stay non-increasing) */
    for (int64_t j = 0; j < v->r && rem > 0; j++) {
      cn_node *c = &t->v[v->first + j];
      int64_t more = oc_min64(t->f[c->h] - c->size, rem);
      c->size += more;
      rem -= more;
    }
    if (rem > 0) return OC_EINVAL;
  }
  return t->nv == t->n ? OC_OK : OC_EINVAL;
}

/* the offset of the leaf child c hands up, relative to its parent */
static int64_t cn_cand(const cn_tree *t, const cn_node *c) {
  return t->L + c->slot + (c->r > 0 ? c->sigma : 0);
}

static int64_t cn_reach(const cn_tree *t, const cn_node *c) {
  return t->L + c->slot + c->H;
}

/* Node i's children are solved: settle their slots so that one candidate
 * is = T (mod r), and its height and handed-up leaf. */
static int cn_settle(cn_tree *t, int64_t i) {
  cn_node *v = &t->v[i];
  int64_t r = v->r, T = 0, tau, L = t->L, *ch = t->ch, lim = v->h + t->slack;
  int64_t pass = -1;
  for (int64_t j = 0; j < r; j++) {
    cn_node *c = &t->v[v->first + j];
    ch[c->slot] = v->first + j;
    T = (T + cn_cand(t, c)) % r;
  }
  tau = ((T - L) % r + r) % r;
  if (t->v[ch[tau]].r == 0) pass = ch[tau];
  for (int64_t j = 0; j < r && pass < 0; j++) {
    const cn_node *c = &t->v[ch[j]];
    if (c->r > 0 && cn_cand(t, c) % r == T) pass = ch[j];
  }
  /* trade: an internal child moves to the slot where its leaf is = T */
  for (int64_t j = 0; j < r && pass < 0; j++) {
    cn_node *c = &t->v[ch[j]], *o;
    int64_t js = ((tau - c->sigma) % r + r) % r;
    if (c->r == 0 || js == c->slot) continue;
    o = &t->v[ch[js]];
    if (L + js + c->H > lim || L + c->slot + o->H > lim) continue;
    o->slot = c->slot;
    c->slot = js;
    ch[o->slot] = (int64_t)(o - t->v);
    ch[js] = (int64_t)(c - t->v);
    pass = ch[js];
  }
  /* or the internal child on slot tau moves to a later leaf's slot */
  if (pass < 0) {
    cn_node *u = &t->v[ch[tau]];
    for (int64_t j = tau + 1; j < r && pass < 0; j++) {
      cn_node *o = &t->v[ch[j]];
      if (o->r > 0 || L + j + u->H > lim) continue;
      o->slot = tau;
      u->slot = j;
      ch[tau] = (int64_t)(o - t->v);
      ch[j] = (int64_t)(u - t->v);
      pass = ch[tau];
    }
  }
  /* none: hand up the last own leaf (or the first child) and leave the
   * block's sum to the repair */
  for (int64_t j = r - 1; j >= 0 && pass < 0; j--)
    if (t->v[ch[j]].r == 0) pass = ch[j];
  if (pass < 0) pass = ch[0];
  v->H = 0;
  for (int64_t j = 0; j < r; j++) v->H = oc_max64(v->H, cn_reach(t, &t->v[ch[j]]));
  v->sigma = cn_cand(t, &t->v[pass]);
  /* remember which child hands up: a negative slot marks it */
  t->v[pass].slot = -1 - t->v[pass].slot;
  return v->H <= lim ? OC_OK : OC_EINVAL;
}

static int64_t cn_slot(const cn_node *c) { return c->slot < 0 ? -1 - c->slot : c->slot; }

/* ---- the repair ---------------------------------------------------------------
 * Blocks whose sum is off (cn_settle found no leaf to hand up) trade one
 * leaf x for a leaf y of another block B with r_B | y - x (B's sum does not
 * change mod r_B) or of the receive-only processor, where y - x makes
 * A's sum right.  Leaves are found by value and block size: a list per
 * (value, size index), entries checked when met (lazy deletion). */
typedef struct cn_rep {
  int64_t D, nb;
  const int64_t *r, *boff; /* per block: size, its leaves lv[boff .. + r - 2] */
  int64_t *lv, ro;
  int64_t *qi, nq;         /* size -> index, -1 absent                       */
  int64_t *head;           /* (value * nq + size index) -> entry, -1 none    */
  struct { int64_t next, blk; } *ent; /* the lists' entries               */
  size_t ne, ce;
  int64_t *dv, *dvo;       /* divisors of 1..D: dv[dvo[k] .. dvo[k+1] - 1]   */
} cn_rep;

static int rep_push(cn_rep *R, int64_t y, int64_t b) {
  int64_t k = y * R->nq + R->qi[R->r[b]];
  if (oc_grow((void **)&R->ent, R->ne, &R->ce, sizeof *R->ent) != OC_OK) return OC_ENOMEM;
  R->ent[R->ne].blk = b;
  R->ent[R->ne].next = R->head[k];
  R->head[k] = (int64_t)R->ne++;
  return OC_OK;
}

/* position of a leaf of value y in block b, -1 none */
static int64_t rep_find(const cn_rep *R, int64_t b, int64_t y) {
  for (int64_t q = 0; q + 1 < R->r[b]; q++)
    if (R->lv[R->boff[b] + q] == y) return R->boff[b] + q;
  return -1;
}

/* a block (not a) of size index qi holding y: its leaf's position, or -1 */
static int64_t rep_take(cn_rep *R, int64_t y, int64_t qi, int64_t a, int64_t *blk) {
  int64_t *pp = &R->head[y * R->nq + qi];
  while (*pp >= 0) {
    int64_t e = *pp, b = R->ent[e].blk, pos = b == a ? -1 : rep_find(R, b, y);
    if (pos >= 0) {
      *blk = b;
      return pos;
    }
    if (b != a) *pp = R->ent[e].next; /* stale: b holds no y any more */
    else pp = &R->ent[e].next;
  }
  return -1;
}

static int64_t rep_sum(const cn_rep *R, int64_t b, const int64_t *off) {
  int64_t s = off[b] % R->r[b];
  for (int64_t q = 0; q + 1 < R->r[b]; q++) s = (s + R->lv[R->boff[b] + q]) % R->r[b];
  return s;
}

/* One trade for block a that changes its sum by d (a leaf x of a for a
 * leaf x + d of another holder); 1 done (dry: possible, nothing changed), 0
 * none, < 0 an error. */
static int rep_trade(cn_rep *R, int64_t a, int64_t d, int dry) {
  int64_t ra = R->r[a], ad = d < 0 ? -d : d;
  if (ad == 0 || ad > R->D) return 0;
  for (int64_t q = 0; q + 1 < ra; q++) {
    int64_t px = R->boff[a] + q, x = R->lv[px], y = x + d;
    if (y < 0 || y > R->D) continue;
    if (R->ro == y) {
      if (dry) return 1;
      R->ro = x;
      R->lv[px] = y;
      return rep_push(R, y, a) == OC_OK ? 1 : OC_ENOMEM;
    }
    for (int64_t k = R->dvo[ad]; k < R->dvo[ad + 1]; k++) {
      int64_t b = -1, pos = rep_take(R, y, R->qi[R->dv[k]], a, &b);
      if (pos < 0) continue;
      if (dry) return 1;
      R->lv[pos] = x;
      R->lv[px] = y;
      if (rep_push(R, x, b) != OC_OK || rep_push(R, y, a) != OC_OK) return OC_ENOMEM;
      return 1;
    }
  }
  return 0;
}

/* the correction of a sum s mod r, the short way round (|t| <= r / 2) */
static int64_t rep_short(int64_t s, int64_t r) { return s <= r / 2 ? -s : r - s; }

/* a trade that makes block a's sum s right, the short way round first */
static int rep_exact(cn_rep *R, int64_t a, int64_t s, int dry) {
  int64_t ra = R->r[a], t0 = rep_short(s, ra);
  int e = rep_trade(R, a, t0, dry);
  return e == 0 ? rep_trade(R, a, t0 < 0 ? t0 + ra : t0 - ra, dry) : e;
}

/* Fixes block a (sum s != 0 mod r_a): a trade by the whole correction if
 * one is found, else the largest part of it that a trade can make, else
 * a trade of any size after which one trade would finish; and again (a
 * bounded number of rounds).  OC_EINVAL if it gets stuck. */
static int rep_fix(cn_rep *R, int64_t a, int64_t s) {
  int64_t ra = R->r[a];
  for (int64_t round = 0; s != 0; round++) {
    int64_t t0 = rep_short(s, ra), sg = t0 < 0 ? -1 : 1, d = 0;
    int e = rep_exact(R, a, s, 0);
    if (e != 0) return e < 0 ? e : OC_OK;
    if (round > 4 * ra + 16) return OC_EINVAL;
    for (int64_t m = (t0 < 0 ? -t0 : t0) - 1; m >= 1 && d == 0; m--) {
      if ((e = rep_trade(R, a, sg * m, 1)) < 0) return e;
      if (e == 1) d = sg * m;
    }
    for (int64_t m = 1; m <= R->D && d == 0; m++)
      for (int sgn = -1; sgn <= 1 && d == 0; sgn += 2) {
        int64_t s1 = ((s + sgn * m) % ra + ra) % ra;
        if (s1 == 0 || (e = rep_trade(R, a, sgn * m, 1)) == 0) continue;
        if (e < 0 || (e = rep_exact(R, a, s1, 1)) < 0) return e;
        if (e == 1) d = sgn * m;
      }
    if (d == 0) return OC_EINVAL;
    if ((e = rep_trade(R, a, d, 0)) != 1) return e < 0 ? e : OC_EINVAL;
    s = ((s + d) % ra + ra) % ra;
  }
  return OC_OK;
}

/* The lookup for the repair: block sizes indexed, the divisors of 1..D
 * that are block sizes, and every leaf listed under (value, size). */
static int rep_index(cn_rep *R) {
  int64_t D = R->D, *fill;
  for (int64_t q = 0; q <= D; q++) R->qi[q] = -1;
  for (int64_t b = 0; b < R->nb; b++)
    if (R->r[b] > 1 && R->qi[R->r[b]] < 0) R->qi[R->r[b]] = R->nq++;
  R->head = (int64_t *)malloc((size_t)((D + 1) * (R->nq + 1)) * sizeof *R->head);
  R->dvo = (int64_t *)calloc((size_t)(D + 2), sizeof *R->dvo);
  if (R->head == NULL || R->dvo == NULL) return OC_ENOMEM;
  for (int64_t k = 0; k < (D + 1) * (R->nq + 1); k++) R->head[k] = -1;
  for (int64_t q = 2; q <= D; q++)
    if (R->qi[q] >= 0)
      for (int64_t m = q; m <= D; m += q) R->dvo[m + 1]++;
  for (int64_t m = 0; m <= D; m++) R->dvo[m + 1] += R->dvo[m];
  R->dv = (int64_t *)malloc((size_t)(R->dvo[D + 1] + 1) * sizeof *R->dv);
  fill = (int64_t *)malloc((size_t)(D + 1) * sizeof *fill);
  if (R->dv == NULL || fill == NULL) {
    free(fill);
    return OC_ENOMEM;
  }
  memcpy(fill, R->dvo, (size_t)(D + 1) * sizeof *fill);
  for (int64_t q = 2; q <= D; q++)
    if (R->qi[q] >= 0)
      for (int64_t m = q; m <= D; m += q) R->dv[fill[m]++] = q;
  free(fill);
  for (int64_t b = 0; b < R->nb; b++)
    for (int64_t q = 0; q + 1 < R->r[b]; q++) {
      int e = rep_push(R, R->lv[R->boff[b] + q], b);
      if (e) return e;
    }
  return OC_OK;
}

/* Emits the blocks (root first) by add(), letters counted from the root's
 * height (the real deadline, <= t->D); *ro the receive-only letter. */
static int cn_emit(cn_tree *t, oc_cbn_add_fn add, void *ctx, int64_t *ro, uint64_t seed) {
  int64_t D = t->v[0].H, *w = NULL, rmax = 1, nb = 0, nl = 0;
  int64_t *bi = NULL, *br = NULL, *bo = NULL, *boff = NULL;
  cn_rep R;
  int e = OC_OK;
  memset(&R, 0, sizeof R);
  for (int64_t i = 0; i < t->nv; i++)
    if (t->v[i].r > 0) {
      rmax = oc_max64(rmax, t->v[i].r);
      nb++;
      nl += t->v[i].r - 1;
    }
  w = (int64_t *)malloc((size_t)rmax * sizeof *w);
  bi = (int64_t *)malloc((size_t)(nb + 1) * sizeof *bi);
  br = (int64_t *)malloc((size_t)(nb + 1) * sizeof *br);
  bo = (int64_t *)malloc((size_t)(nb + 1) * sizeof *bo);
  boff = (int64_t *)malloc((size_t)(nb + 1) * sizeof *boff);
  R.lv = (int64_t *)malloc((size_t)(nl + 1) * sizeof *R.lv);
  R.qi = (int64_t *)malloc((size_t)(D + 1) * sizeof *R.qi);
  if (w == NULL || bi == NULL || br == NULL || bo == NULL || boff == NULL || R.lv == NULL ||
      R.qi == NULL) {
    e = OC_ENOMEM;
    goto out;
  }
  /* offsets, blocks and their leaves */
  t->v[0].off = 0;
  nb = nl = 0;
  for (int64_t i = 0; i < t->nv; i++) {
    cn_node *v = &t->v[i];
    if (v->r == 0) continue;
    for (int64_t j = 0; j < v->r; j++) {
      cn_node *c = &t->v[v->first + j];
      c->off = v->off + t->L + cn_slot(c);
    }
    if (i == 0) R.ro = v->off + v->sigma;
    bi[nb] = i;
    br[nb] = v->r;
    bo[nb] = v->off;
    boff[nb] = nl;
    for (int64_t j = 0; j < v->r; j++) {
      const cn_node *c = &t->v[v->first + j];
      if (c->slot >= 0) R.lv[nl++] = c->off + (c->r > 0 ? c->sigma : 0);
    }
    if (nl - boff[nb] != v->r - 1) {
      e = OC_EINVAL;
      goto out;
    }
    nb++;
  }
  R.D = D;
  R.nb = nb;
  R.r = br;
  R.boff = boff;
  /* the repair, where a block's sum is off */
  for (int64_t b = 0; b < nb && e == OC_OK; b++) {
    int64_t sm = rep_sum(&R, b, bo);
    if (sm != 0 && R.head == NULL) e = rep_index(&R);
    if (sm != 0 && e == OC_OK) e = rep_fix(&R, b, sm);
  }
  if (e) goto out;
  *ro = D - R.ro;
  for (int64_t b = 0; b < nb && e == OC_OK; b++) {
    w[0] = D - bo[b];
    for (int64_t q = 1; q < br[b]; q++) w[q] = D - R.lv[boff[b] + q - 1];
    if ((e = oc_cb_order_word((int32_t)br[b], w, seed + (uint64_t)bi[b])) != OC_OK) break;
    e = add(ctx, (int32_t)br[b], w[0], w);
  }
out:
  free(w);
  free(bi);
  free(br);
  free(bo);
  free(boff);
  free(R.lv);
  free(R.qi);
  free(R.head);
  free(R.ent);
  free(R.dv);
  free(R.dvo);
  return e;
}

int oc_cbnest_build(int64_t n, int64_t L, int64_t D, int64_t slack, int policy,
                    oc_cbn_add_fn add, void *ctx, int64_t *ro, int64_t *Dreal) {
  cn_tree t = {.n = n, .L = L, .D = D, .slack = slack};
  int64_t *f = NULL;
  int e;
  if (n < 2 || n > OC_CBCAST_PROCS_MAX || L < 1 || L > OC_CBCAST_L_MAX || D < L ||
      D > 64 * L + 64 || slack < 0 || slack > D || policy < 0 || policy > 1)
    return OC_EINVAL; /* D: B(2^20) < 64 L, so D stays small and D^2 fits */
  f = (int64_t *)malloc((size_t)(D + 1) * sizeof *f);
  t.v = (cn_node *)malloc((size_t)n * sizeof *t.v);
  t.ch = (int64_t *)malloc((size_t)(D + 1) * sizeof *t.ch);
  if (f == NULL || t.v == NULL || t.ch == NULL) {
    e = OC_ENOMEM;
    goto out;
  }
  for (int64_t h = 0; h <= D; h++) f[h] = h < L ? 1 : oc_add_sat(f[h - 1], f[h - L]);
  t.f = f;
  if ((e = cn_shape(&t, policy)) != OC_OK) goto out;
  for (int64_t i = t.nv - 1; i >= 0 && e == OC_OK; i--)
    if (t.v[i].r > 0) e = cn_settle(&t, i);
  if (e == OC_OK) e = cn_emit(&t, add, ctx, ro, (uint64_t)(n * 131 + L * 7 + D));
  if (e == OC_OK) *Dreal = t.v[0].H;
out:
  free(f);
  free(t.v);
  free(t.ch);
  return e;
}
