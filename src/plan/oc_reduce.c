/* oc_reduce.c - optimal summation of n operands and reduction (one operand
 * per processor) in the LogP and postal models.
 *
 * Source: Karp, Sahay, Santos, Schauser (SPAA'93) section 5 (summation as
 * the time reversal of broadcast, Lemma 5.1); Shou & Chen section 3
 * (Lemma 1, Thms 5-6, Algorithm 2).
 *
 * Model facts used (a = one addition, 1 time unit = `unit` model units):
 *  - a processor that receives k partial results spends k(o + a) on them
 *    (receive overhead, then the addition), and its local operands fill
 *    the rest of its time before it sends at S: N = floor(S/a) - k(o+a)/a + 1
 *    operands (o + a is a multiple of a: o = 0 in the postal model, a = 1
 *    in LogP);
 *  - in a lazy schedule (Karp) the child that arrives m-th from last sends
 *    at S - (L + 2o + a) - m G' with G' = max(g, o + a): receptions that
 *    each end in their addition are max(g, o + a) apart.  Karp et al. and
 *    Shou & Chen take g >= o + 1 and write g; with g < o + 1 the spacing is
 *    o + 1 (checked by exhaustive search, tests/test_reduce.c);
 *  - so the labels d = t - S form Karp's universal broadcast tree with
 *    L' = L + a and g' = G' (o unchanged), and a child with label d adds
 *    floor((t - d)/a) - o/a operands net: it is worth using iff
 *    d <= t - o - a ("a processor whose available time does not exceed o
 *    only slows its parent").
 *  Capacity (Karp's inverse problem): with D the P-1 smallest non-root
 *  labels <= t - o - a,
 *      N(t) = floor(t/a) + 1 + sum_{d in D} (floor((t - d)/a) - o/a),
 *  and the optimal time for n operands is min{t : N(t) >= n}.  Worked
 *  example (Karp Fig. 6: t = 28, P = 8, L = 5, o = 2, g = 4): labels
 *  0,10,14,18,20,22,24,24 (the Fig. 1 tree, L' = 6), N = 29 + 16+12+8+6+4+2+2
 *  = 79 operands.
 *
 * Reduction: every processor holds one operand; time = B(P) of the L'
 * model (Karp section 4.2: reduction is broadcast reversed).
 *
 * Order: operands are numbered so that every addition joins adjacent
 * intervals (oc_sched's rule): a processor's block is its children's
 * blocks in broadcast send order, then its own operands; values arrive
 * last-child-first and are prepended, own operands are appended.  For a
 * reduction the root may sit anywhere in [0, P): its children are split
 * into a left part (prepended) and a right part (appended) whose sizes add
 * up to the root's rank; the split is found greedily and exists whenever
 * every child's subtree is at most one more than the subtrees after it
 * (true for L + 2o + a >= G'; the tests check every root for P <= 300).
 *
 * Limits: N(t) reads the tree's labels off the tabulated reach function
 * (B(P) below OC_REACH_TABLE_MAX normalised units: always for L, o, g <=
 * 100) or generates the P - 1 smallest with a heap (P <= 2^30); huge
 * parameters with P > 2^30: OC_EUNSUP.  Global plans: P <= 2^30.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"

struct oc_reduce {
  oc_params p;     /* the user's model                                  */
  oc_params pp;    /* the summation tree's broadcast model (L+a, G')    */
  int64_t root, n, t, used, a;
  int reduce;
  int ordered;     /* reduce: operand i at rank i, folded in rank order */
  int64_t lb;      /* lower bound: B(P) of the tree model (reduce)      */
};

/* The summation tree's model. */
static oc_params tree_params(const oc_params *p, int64_t P) {
  oc_params q = *p;
  int64_t a = p->unit;
  q.model = OC_MODEL_LOGP;
  q.P = P;
  q.L = p->L + a;
  q.g = oc_max64(p->g, p->o + a);
  q.lam_num = 0;
  q.lam_den = 1;
  return q;
}

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 oc_u128;
#endif

/* What the capacity N(t) needs: the tree model's labels in increasing
 * order.  With a tabulated reach function they are read off the table
 * (label x d, E(x) times); otherwise the P - 1 smallest non-root labels are
 * generated with a heap, O(P log P) once (P <= OC_GLOBAL_PROCS_MAX). */
typedef struct sumctx {
  oc_reach *r;
  int64_t *lab;   /* non-root labels ascending, or NULL (table) */
#ifdef __SIZEOF_INT128__
  oc_u128 *pre;   /* pre[i] = lab[0] + ... + lab[i-1] */
#endif
  int64_t nlab;
} sumctx;

static void heap_up(int64_t *hp, size_t i) {
  while (i > 0 && hp[(i - 1) / 2] > hp[i]) {
    int64_t t = hp[i];
    hp[i] = hp[(i - 1) / 2];
    hp[(i - 1) / 2] = t;
    i = (i - 1) / 2;
  }
}

static int64_t heap_pop(int64_t *hp, size_t *n) {
  int64_t top = hp[0];
  size_t i = 0;
  hp[0] = hp[--(*n)];
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < *n && hp[l] < hp[m]) m = l;
    if (r < *n && hp[r] < hp[m]) m = r;
    if (m == i) break;
    {
      int64_t t = hp[i];
      hp[i] = hp[m];
      hp[m] = t;
    }
    i = m;
  }
  return top;
}

static void sumctx_free(sumctx *c) {
  oc_reach_free(c->r);
  free(c->lab);
#ifdef __SIZEOF_INT128__
  free(c->pre);
#endif
  memset(c, 0, sizeof *c);
}

static int sumctx_new(const oc_params *p, sumctx *c) {
  oc_params q = tree_params(p, p->P);
  int e;
  memset(c, 0, sizeof *c);
  if ((e = oc_reach_new(&c->r, &q)) != OC_OK) return e;
  if (c->r->tab != NULL) return OC_OK;
#ifdef __SIZEOF_INT128__
  if (p->P > OC_GLOBAL_PROCS_MAX) { sumctx_free(c); return OC_EUNSUP; }
  {
    int64_t h = q.L + 2 * q.o, G = q.g, n = p->P - 1;
    size_t hn = 0;
    int64_t *hp = (int64_t *)malloc((size_t)(2 * n + 2) * sizeof *hp);
    c->lab = (int64_t *)malloc((size_t)(n + 1) * sizeof *c->lab);
    c->pre = (oc_u128 *)malloc((size_t)(n + 1) * sizeof *c->pre);
    if (hp == NULL || c->lab == NULL || c->pre == NULL) {
      free(hp);
      sumctx_free(c);
      return OC_ENOMEM;
    }
    /* every node with label x has children x + h + kG: pop in order */
    hp[hn++] = h;
    c->pre[0] = 0;
    for (int64_t i = 0; i < n; i++) {
      int64_t x = heap_pop(hp, &hn);
      c->lab[i] = x;
      c->pre[i + 1] = c->pre[i] + (oc_u128)(uint64_t)x;
      hp[hn] = x + G; /* the parent's next child */
      heap_up(hp, hn++);
      hp[hn] = x + h; /* this node's first child */
      heap_up(hp, hn++);
    }
    c->nlab = n;
    free(hp);
  }
  return OC_OK;
#else
  sumctx_free(c);
  return OC_EUNSUP;
#endif
}

/* the number of non-root labels <= lim among the P - 1 smallest */
static int64_t labels_upto(const sumctx *c, int64_t lim, int64_t P) {
  if (lim < 0) return 0;
  if (c->lab == NULL)
    return oc_min64(P, oc_reach_fn(c->r, oc_floordiv(lim, c->r->d))) - 1;
  {
    int64_t lo = 0, hi = c->nlab;
    while (lo < hi) { /* first label > lim */
      int64_t mid = lo + (hi - lo) / 2;
      if (c->lab[mid] <= lim) lo = mid + 1; else hi = mid;
    }
    return lo;
  }
}

/* N(t): floor(t/a) + 1 + sum over the useful labels of floor((t-d)/a) - o/a */
static int64_t capacity(const sumctx *c, const oc_params *p, int64_t t) {
  int64_t a = p->unit, ooa = p->o / a, budget = p->P - 1;
  int64_t lim = t - p->o - a; /* largest useful label, model units */
  int64_t n = oc_add_sat(t / a, 1);
  if (c->lab == NULL) {
    const oc_reach *r = c->r;
    for (int64_t x = 1; budget > 0 && x * r->d <= lim; x++) {
      int64_t e = oc_reach_fn(r, x) - oc_reach_fn(r, x - 1), take, per;
      if (e <= 0) continue;
      take = oc_min64(e, budget);
      per = (t - x * r->d) / a - ooa; /* >= 1 here */
      n = oc_add_sat(n, oc_mul_sat(take, per));
      budget -= take;
    }
    return n;
  }
#ifdef __SIZEOF_INT128__
  {
    int64_t k = labels_upto(c, lim, p->P);
    if (a == 1) { /* k (t - o) - (sum of the k smallest labels) */
      oc_u128 v = (oc_u128)(uint64_t)k * (uint64_t)(t - p->o) - c->pre[k];
      return v >= (oc_u128)(OC_SAT - n) ? OC_SAT : n + (int64_t)v;
    }
    for (int64_t i = 0; i < k; i++) n = oc_add_sat(n, (t - c->lab[i]) / a - ooa);
  }
#endif
  return n;
}

/* nodes worth using at time t (root included), and how many of the used
 * non-root ones add exactly one operand net (the largest labels) */
static void useful(const sumctx *c, const oc_params *p, int64_t t, int64_t *full,
                   int64_t *ones) {
  int64_t a = p->unit, lim = t - p->o - a, k = labels_upto(c, lim, p->P);
  *full = 1 + k;
  /* one operand net: floor((t - d)/a) - o/a == 1, i.e. d > t - o - 2a */
  *ones = k - labels_upto(c, t - p->o - 2 * a, p->P);
}

int oc_sum_capacity(const oc_params *p, int64_t t, int64_t *n_out) {
  sumctx c;
  int e = oc_params_check(p);
  if (e) return e;
  if (p->o % p->unit != 0) return OC_EUNSUP; /* (the counting takes o/a whole) */
  if (t < 0) return OC_ERANGE;
  if ((e = sumctx_new(p, &c)) != OC_OK) return e;
  *n_out = capacity(&c, p, t);
  sumctx_free(&c);
  return OC_OK;
}

static int64_t sum_time(const sumctx *c, const oc_params *p, int64_t n) {
  int64_t lo = 0, hi = p->unit * (n - 1); /* the root alone */
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (capacity(c, p, mid) >= n) hi = mid; else lo = mid + 1;
  }
  return lo;
}

int oc_sum_time(const oc_params *p, int64_t n, int64_t *t_out) {
  sumctx c;
  int e = oc_params_check(p);
  if (e) return e;
  if (p->o % p->unit != 0) return OC_EUNSUP;
  if (n < 1 || n - 1 > OC_PROCS_MAX / p->unit) return OC_ERANGE;
  if ((e = sumctx_new(p, &c)) != OC_OK) return e;
  *t_out = sum_time(&c, p, n);
  sumctx_free(&c);
  return OC_OK;
}

int oc_reduce_time(const oc_params *p, int64_t *t_out) {
  oc_params q;
  int e = oc_params_check(p);
  if (e) return e;
  q = tree_params(p, p->P);
  return oc_bcast_time(&q, t_out);
}

typedef struct slots {
  int64_t K, h, G;
  int64_t *F;
  unsigned char *side;
} slots;

/* Chooses the sides for completion time t; OC_EUNSUP when impossible. */
static int slots_plan(const oc_reduce *x, int64_t t, slots *sl) {
  oc_reach *r = NULL;
  const oc_params *q = &x->pp;
  oc_params qq = *q;
  int64_t need[2], room[2] = {0, 0};
  int small, e;
  qq.P = x->p.P;
  if ((e = oc_reach_new(&r, &qq)) != OC_OK) return e;
  sl->h = q->L + 2 * q->o;
  sl->G = q->g;
  sl->K = (t - sl->h) / sl->G; /* slots 0..K; t >= h since P >= 2 */
  sl->F = (int64_t *)malloc((size_t)(sl->K + 1) * sizeof *sl->F);
  sl->side = (unsigned char *)malloc((size_t)(sl->K + 1));
  if (sl->F == NULL || sl->side == NULL) { e = OC_ENOMEM; goto out; }
  need[0] = x->root;
  need[1] = x->p.P - 1 - x->root;
  small = need[0] <= need[1] ? 0 : 1;
  {
    int64_t rem = need[small], cover = -1;
    for (int64_t j = 0; j <= sl->K; j++) { /* F_j falls with j */
      sl->F[j] = oc_reach_f(r, t - sl->h - j * sl->G);
      sl->side[j] = (unsigned char)(1 - small);
      if (sl->F[j] <= rem && rem > 0) {
        sl->side[j] = (unsigned char)small;
        rem -= sl->F[j];
      }
    }
    for (int64_t j = sl->K; j >= 0 && rem > 0 && cover < 0; j--)
      if (sl->side[j] != small && sl->F[j] >= rem) cover = j;
    if (rem > 0 && cover < 0) { e = OC_EUNSUP; goto out; }
    if (cover >= 0) sl->side[cover] = (unsigned char)small;
    for (int64_t j = 0; j <= sl->K; j++)
      room[sl->side[j]] = oc_add_sat(room[sl->side[j]], sl->F[j]);
  }
  if (room[0] < need[0] || room[1] < need[1]) e = OC_EUNSUP;
out:
  oc_reach_free(r);
  return e;
}

static void slots_free(slots *sl) {
  free(sl->F);
  free(sl->side);
  sl->F = NULL;
  sl->side = NULL;
}

static int make(oc_reduce **out, const oc_params *p, int64_t root, int64_t n,
                int reduce, int ordered) {
  oc_reduce *x;
  sumctx sc;
  int e = oc_params_check(p);
  if (e) return e;
  if (root < 0 || root >= p->P) return OC_ERANGE;
  x = (oc_reduce *)calloc(1, sizeof *x);
  if (x == NULL) return OC_ENOMEM;
  x->p = *p;
  x->root = root;
  x->a = p->unit;
  x->reduce = reduce;
  x->ordered = ordered;
  x->pp = tree_params(p, p->P);
  if (reduce) {
    x->n = p->P;
    x->used = p->P;
    { /* B(P) of the tree model, from the tabulated reach where it fits */
      oc_reach *rr = NULL;
      if ((e = oc_reach_new(&rr, &x->pp)) == OC_OK) x->t = oc_reach_time(rr);
      oc_reach_free(rr);
    }
    x->lb = x->t;
    /* rank order with the root inside [0, P): the root's children split
     * into a left and a right part; where the slots at B(P) cannot hold
     * both, wait one model unit more (reported as not optimal) */
    if (e == OC_OK && ordered && p->P > 1) {
      /* try B, B+1, ... (at most 4096 units), then one whole reception slot
       * later; the root's slot walk is O(B/G'), refused past 2^22 slots */
      int64_t B0 = x->t, G1 = x->pp.g, tries = 0;
      if ((x->t - x->pp.L - 2 * x->pp.o) / G1 > ((int64_t)1 << 22)) e = OC_EUNSUP;
      while (e == OC_OK) {
        slots sl = {0, 0, 0, NULL, NULL};
        e = slots_plan(x, x->t, &sl);
        slots_free(&sl);
        if (e != OC_EUNSUP) break;
        e = OC_OK;
        if (++tries <= 4096 && x->t + 1 - B0 <= G1) x->t++;
        else if (x->t < B0 + G1) x->t = B0 + G1;
        else e = OC_EUNSUP;
      }
    }
  } else {
    if (n < 1 || n - 1 > OC_PROCS_MAX / p->unit) { free(x); return OC_ERANGE; }
    /* a node's operands are counted with o/a whole (capacity, own_capacity) */
    if (p->o % p->unit != 0) { free(x); return OC_EUNSUP; }
    x->n = n;
    if ((e = sumctx_new(p, &sc)) == OC_OK) {
      int64_t full, ones, excess;
      x->t = sum_time(&sc, p, n);
      x->lb = x->t;
      useful(&sc, p, x->t, &full, &ones);
      /* drop leaves that add exactly one operand net while there is excess
       * (they have the largest labels, so the rest are the smallest) */
      excess = capacity(&sc, p, x->t) - n;
      x->used = full - oc_min64(excess, ones);
      sumctx_free(&sc);
    }
  }
  if (e) {
    free(x);
    return e;
  }
  x->pp.P = x->used;
  *out = x;
  return OC_OK;
}

int oc_sum_new(oc_reduce **out, const oc_params *p, int64_t root, int64_t n) {
  return make(out, p, root, n, 0, 1);
}

int oc_reduce_new(oc_reduce **out, const oc_params *p, int64_t root,
                  int ordered) {
  return make(out, p, root, 0, 1, ordered != 0);
}

int64_t oc_reduce_lower_bound(const oc_reduce *r) { return r->lb; }

void oc_reduce_free(oc_reduce *r) { free(r); }
int64_t oc_reduce_completion(const oc_reduce *r) { return r->t; }
int64_t oc_reduce_operands(const oc_reduce *r) { return r->n; }
int64_t oc_reduce_used(const oc_reduce *r) { return r->used; }

/* ---- the global plan -------------------------------------------------------- */

typedef struct plan {
  int64_t U;             /* nodes (positions 0..U-1, preorder, root 0) */
  int64_t *par, *d, *N;  /* parent, label, own operands */
  int64_t *koff;         /* children CSR (by send order) */
  int64_t *kid;
  int64_t *size;         /* operands in the subtree */
  int64_t *base;         /* first operand of the subtree's block */
  unsigned char *right;  /* reduce root split: child goes right */
  int64_t *rank;         /* physical rank of each position */
} plan;

static void plan_free(plan *pl) {
  free(pl->par);
  free(pl->d);
  free(pl->N);
  free(pl->koff);
  free(pl->kid);
  free(pl->size);
  free(pl->base);
  free(pl->right);
  free(pl->rank);
}

static int kid_cmp_d(const void *x, const void *y, const int64_t *d) {
  int64_t a = d[*(const int64_t *)x], b = d[*(const int64_t *)y];
  return (a > b) - (a < b);
}

/* insertion sort of children by label (send order); lists are short */
static void sort_kids(int64_t *k, int64_t n, const int64_t *d) {
  for (int64_t i = 1; i < n; i++) {
    int64_t v = k[i], j = i;
    while (j > 0 && kid_cmp_d(&k[j - 1], &v, d) > 0) { k[j] = k[j - 1]; j--; }
    k[j] = v;
  }
}

static int plan_alloc(plan *pl, int64_t U) {
  memset(pl, 0, sizeof *pl);
  pl->U = U;
  pl->par = (int64_t *)malloc((size_t)U * sizeof(int64_t));
  pl->d = (int64_t *)malloc((size_t)U * sizeof(int64_t));
  pl->N = (int64_t *)malloc((size_t)U * sizeof(int64_t));
  pl->koff = (int64_t *)calloc((size_t)U + 1, sizeof(int64_t));
  pl->kid = (int64_t *)malloc((size_t)U * sizeof(int64_t));
  pl->size = (int64_t *)malloc((size_t)U * sizeof(int64_t));
  pl->base = (int64_t *)malloc((size_t)U * sizeof(int64_t));
  pl->right = (unsigned char *)calloc((size_t)U, 1);
  pl->rank = (int64_t *)malloc((size_t)U * sizeof(int64_t));
  if (!pl->par || !pl->d || !pl->N || !pl->koff || !pl->kid || !pl->size ||
      !pl->base || !pl->right || !pl->rank)
    return OC_ENOMEM;
  pl->par[0] = -1;
  pl->d[0] = 0;
  return OC_OK;
}

/* Adds the karp tree of `n` nodes of model q, its root at position `at`
 * with label `d0`, hung below position `parent`. */
static int plan_add_tree(plan *pl, const oc_params *q, int64_t n, int64_t at,
                         int64_t d0, int64_t parent) {
  oc_params qq = *q;
  oc_bcast *b = NULL;
  oc_sched s;
  int64_t h = q->L + 2 * q->o;
  int e;
  qq.P = n;
  oc_sched_init(&s);
  if ((e = oc_bcast_new(&b, &qq, 0, OC_BCAST_KARP)) == OC_OK &&
      (e = oc_bcast_schedule(b, &s)) == OC_OK) {
    pl->par[at] = parent;
    pl->d[at] = d0;
    for (size_t i = 0; i < s.n; i++) {
      pl->par[at + s.msg[i].dst] = at + s.msg[i].src;
      pl->d[at + s.msg[i].dst] = d0 + s.msg[i].t + h;
    }
  }
  oc_sched_free(&s);
  oc_bcast_free(b);
  return e;
}

/* The reduce root's children: slot j (label h + jG) can hold any subtree
 * of at most F_j = f(t - h - jG) nodes (all its labels stay <= t).  The
 * root's rank r needs r operands on its left and P - 1 - r on its right.
 * The side that needs fewer takes whole slots, largest first, while they
 * fit, then the smallest slot that covers the rest; the other side takes
 * every other slot, and each slot is filled up to its room.  The room adds
 * up to f(t) - 1 >= P - 1; this fails only if the other side is left with
 * too little (OC_EUNSUP; not seen for any root of the tested instances). */
static int reduce_slots(const oc_reduce *x, plan *pl) {
  slots sl = {0, 0, 0, NULL, NULL};
  int64_t need[2], at = 1;
  int e = slots_plan(x, x->t, &sl);
  need[0] = x->root;
  need[1] = x->p.P - 1 - x->root;
  for (int64_t j = 0; e == OC_OK && j <= sl.K; j++) {
    int64_t sz = oc_min64(sl.F[j], need[sl.side[j]]);
    if (sz == 0) continue;
    e = plan_add_tree(pl, &x->pp, sz, at, sl.h + j * sl.G, 0);
    pl->right[at] = sl.side[j];
    need[sl.side[j]] -= sz;
    at += sz;
  }
  slots_free(&sl);
  return e;
}

static int plan_build(const oc_reduce *x, plan *pl) {
  int64_t U = x->used;
  int e = plan_alloc(pl, U);
  if (e) return e;
  if (x->reduce && x->ordered && U > 1)
    e = reduce_slots(x, pl);
  else
    e = plan_add_tree(pl, &x->pp, U, 0, 0, -1);
  if (e) return e;
  for (int64_t i = 1; i < U; i++) pl->koff[pl->par[i] + 1]++;
  for (int64_t i = 0; i < U; i++) pl->koff[i + 1] += pl->koff[i];
  {
    int64_t *fill = (int64_t *)malloc(((size_t)U + 1) * sizeof(int64_t));
    if (fill == NULL) return OC_ENOMEM;
    memcpy(fill, pl->koff, ((size_t)U + 1) * sizeof(int64_t));
    for (int64_t i = 1; i < U; i++) pl->kid[fill[pl->par[i]]++] = i;
    free(fill);
  }
  for (int64_t i = 0; i < U; i++)
    sort_kids(pl->kid + pl->koff[i], pl->koff[i + 1] - pl->koff[i], pl->d);
  return OC_OK;
}

/* Own operands before the excess is removed: floor(S/a) - k(o+a)/a + 1. */
static int64_t own_capacity(const oc_reduce *x, const plan *pl, int64_t i) {
  int64_t S = x->t - pl->d[i], k = pl->koff[i + 1] - pl->koff[i];
  return S / x->a - k * ((x->p.o + x->a) / x->a) + 1;
}

static int plan_operands(const oc_reduce *x, plan *pl) {
  int64_t U = pl->U, total = 0, excess;
  if (x->reduce) {
    for (int64_t i = 0; i < U; i++) pl->N[i] = 1;
    return OC_OK;
  }
  for (int64_t i = 0; i < U; i++) {
    pl->N[i] = own_capacity(x, pl, i);
    if (pl->N[i] < 1) return OC_EINVAL; /* cannot happen: labels <= t-o-a */
    total = oc_add_sat(total, pl->N[i]);
  }
  excess = total - x->n;
  for (int64_t i = 0; i < U && excess > 0; i++) { /* root first */
    int64_t cut = oc_min64(excess, pl->N[i] - 1);
    pl->N[i] -= cut;
    excess -= cut;
  }
  return excess == 0 ? OC_OK : OC_EINVAL;
}

/* Sizes bottom-up; blocks top-down (children in send order, own last;
 * the reduce root: left children, own, right children). */
static int plan_blocks(plan *pl) {
  int64_t U = pl->U;
  for (int64_t i = U; i-- > 0;) { /* preorder: children come after parents */
    pl->size[i] = pl->N[i];
    for (int64_t j = pl->koff[i]; j < pl->koff[i + 1]; j++)
      pl->size[i] += pl->size[pl->kid[j]];
  }
  pl->base[0] = 0;
  for (int64_t i = 0; i < U; i++) {
    int64_t at = pl->base[i];
    for (int64_t j = pl->koff[i]; j < pl->koff[i + 1]; j++) {
      int64_t c = pl->kid[j];
      if (!pl->right[c]) { pl->base[c] = at; at += pl->size[c]; }
    }
    at += pl->N[i]; /* own operands */
    for (int64_t j = pl->koff[i + 1]; j-- > pl->koff[i];) {
      int64_t c = pl->kid[j];
      if (pl->right[c]) { pl->base[c] = at; at += pl->size[c]; }
    }
  }
  return OC_OK;
}

/* first own operand of node i */
static int64_t own_lo(const plan *pl, int64_t i) {
  int64_t at = pl->base[i];
  for (int64_t j = pl->koff[i]; j < pl->koff[i + 1]; j++)
    if (!pl->right[pl->kid[j]]) at += pl->size[pl->kid[j]];
  return at;
}

static int emit(const oc_reduce *x, const plan *pl, oc_sched *out) {
  const int64_t a = x->a, o = x->p.o, L = x->p.L;
  int e = OC_OK;
  for (int64_t i = 0; i < pl->U && e == OC_OK; i++) {
    int64_t k = pl->koff[i + 1] - pl->koff[i];
    int64_t S = x->t - pl->d[i], olo = own_lo(pl, i), c = olo; /* next own operand */
    int64_t left = pl->N[i] - 1, alo = olo, ahi = olo + 1, now = 0;
    e = oc_sched_push_seg(out, pl->rank[i], olo, olo + pl->N[i]);
    /* the accumulator starts with the first own operand; then windows of
     * local additions between the folds, folds last-child-first.  A child
     * with label d sends at t - d; its value is received at t - d + o + L
     * and added right after (it is in slot m = (d - d_i - L' - 2o)/G' of
     * the receiver, whose fold ends at S - mG'). */
    for (int64_t m = k; m >= 0 && e == OC_OK; m--) {
      int64_t ch = m > 0 ? pl->kid[pl->koff[i] + m - 1] : -1;
      int64_t F = m > 0 ? x->t - pl->d[ch] + o + L + o : S; /* fold start */
      int64_t wend = m > 0 ? F - o : S; /* the window ends at the reception */
      int64_t fit = (wend - now) / a, run = oc_min64(fit, left);
      if (m == k) { /* the first op starts the accumulator */
        e = oc_sched_push_op(out, 0, pl->rank[i], OC_OP_LOCAL, olo, olo, olo + 1 + run);
        c = olo + 1 + run;
        ahi = c;
      } else if (run > 0) {
        e = oc_sched_push_op(out, now, pl->rank[i], OC_OP_LOCAL, alo, c, c + run);
        c += run;
        ahi = c;
      }
      left -= run;
      if (m == 0 || e != OC_OK) break;
      {
        int64_t blo = pl->base[ch], bhi = blo + pl->size[ch];
        if (pl->right[ch]) {
          e = oc_sched_push_op(out, F, pl->rank[i], OC_OP_APPEND, alo, ahi, bhi);
          ahi = bhi;
        } else {
          e = oc_sched_push_op(out, F, pl->rank[i], OC_OP_PREPEND, blo, alo, ahi);
          alo = blo;
        }
        if (e == OC_OK)
          e = oc_sched_push(out, x->t - pl->d[ch], pl->rank[ch], pl->rank[i], 0);
        now = F + a;
      }
    }
    if (e == OC_OK && left != 0) e = OC_EINVAL; /* the windows hold N - 1 */
  }
  return e;
}

static int plan_all(const oc_reduce *x, plan *pl) {
  int e;
  memset(pl, 0, sizeof *pl);
  /* the plan keeps about 80 bytes per processor, and the schedule more */
  if (x->p.P > OC_REDUCE_PLAN_MAX) return OC_ERANGE;
  e = plan_build(x, pl);
  if (e == OC_OK) e = plan_operands(x, pl);
  if (e == OC_OK) e = plan_blocks(pl);
  if (e == OC_OK) {
    for (int64_t i = 0; i < pl->U; i++)
      pl->rank[i] = !x->reduce ? (x->root + i) % x->p.P
                    : x->ordered ? own_lo(pl, i)
                                 : (own_lo(pl, i) + x->root + 1) % x->p.P;
  }
  return e;
}

int oc_reduce_counts(const oc_reduce *x, int64_t *counts) {
  plan pl;
  int e;
  if (x->reduce) { /* one operand each: no plan needed */
    for (int64_t q = 0; q < x->p.P; q++) counts[q] = 1;
    return OC_OK;
  }
  e = plan_all(x, &pl);
  if (e == OC_OK) {
    for (int64_t q = 0; q < x->p.P; q++) counts[q] = 0;
    for (int64_t i = 0; i < pl.U; i++) counts[pl.rank[i]] = pl.N[i];
  }
  plan_free(&pl);
  return e;
}

int oc_reduce_schedule(const oc_reduce *x, oc_sched *out) {
  plan pl;
  int e = plan_all(x, &pl);
  if (e == OC_OK) e = emit(x, &pl, out);
  plan_free(&pl);
  return e;
}

/* A rank's part of the plan (plan.h): the position of the rank, its
 * children's partial results in the order emit folds them (the last child
 * first: the earliest sender), each joined on its side, then the send up. */
int oc_sum_rank(const oc_reduce *x, int64_t rank, int64_t *first, int64_t *held,
                oc_mb_rank *out) {
  plan pl;
  int64_t i = -1;
  int e;
  if (x == NULL || first == NULL || held == NULL || out == NULL || rank < 0 || rank >= x->p.P)
    return OC_EINVAL;
  out->n = 0;
  out->rank = rank;
  *first = 0;
  *held = 0;
  e = plan_all(x, &pl);
  for (int64_t j = 0; e == OC_OK && j < pl.U; j++)
    if (pl.rank[j] == rank) i = j;
  if (e == OC_OK && i >= 0) {
    *first = own_lo(&pl, i);
    *held = pl.N[i];
    for (int64_t m = pl.koff[i + 1] - pl.koff[i]; m >= 1 && e == OC_OK; m--) {
      int64_t ch = pl.kid[pl.koff[i] + m - 1];
      e = oc_mb_push(out, OC_MB_RECV, pl.rank[ch], 0, 1, 0, -1, pl.right[ch] ? 1 : 0);
    }
    if (e == OC_OK && pl.par[i] >= 0)
      e = oc_mb_push(out, OC_MB_SEND, pl.rank[pl.par[i]], 0, 1, 0, -1, 0);
  }
  plan_free(&pl);
  if (e != OC_OK) out->n = 0;
  return e;
}

/* ---- additions for a messages-only schedule ---------------------------------- */

typedef struct arrival { int64_t t, from; } arrival;

static int arr_cmp(const void *x, const void *y) {
  const arrival *a = (const arrival *)x, *b = (const arrival *)y;
  if (a->t != b->t) return a->t < b->t ? -1 : 1;
  return (a->from > b->from) - (a->from < b->from);
}

int oc_reduce_infer(const oc_params *p, int64_t root, const int64_t *counts,
                    int ordered, oc_sched *s) {
  int64_t P, h, a, o;
  int64_t *sendt = NULL, *to = NULL, *aoff = NULL, *size = NULL, *base = NULL;
  int64_t *order = NULL;
  arrival *arr = NULL;
  int e;
  if ((e = oc_params_check(p)) != OC_OK) return e;
  P = p->P;
  if (root < 0 || root >= P || P > OC_GLOBAL_PROCS_MAX) return OC_ERANGE;
  h = p->L + 2 * p->o;
  a = p->unit;
  o = p->o;
  sendt = (int64_t *)malloc((size_t)P * sizeof *sendt);
  to = (int64_t *)malloc((size_t)P * sizeof *to);
  aoff = (int64_t *)calloc((size_t)P + 1, sizeof *aoff);
  size = (int64_t *)malloc((size_t)P * sizeof *size);
  base = (int64_t *)malloc((size_t)P * sizeof *base);
  order = (int64_t *)malloc((size_t)P * sizeof *order);
  arr = (arrival *)malloc((s->n + 1) * sizeof *arr);
  if (!sendt || !to || !aoff || !size || !base || !order || !arr) { e = OC_ENOMEM; goto out; }
  for (int64_t q = 0; q < P; q++) {
    to[q] = -1;
    sendt[q] = -1;
    if (counts[q] < 0) { e = OC_EINVAL; goto out; }
  }
  for (size_t i = 0; i < s->n; i++) {
    const oc_msg *m = &s->msg[i];
    if (m->src < 0 || m->src >= P || m->dst < 0 || m->dst >= P || to[m->src] >= 0 ||
        m->src == root || m->src == m->dst) {
      e = OC_EINVAL;
      goto out;
    }
    to[m->src] = m->dst;
    sendt[m->src] = m->t;
    aoff[m->dst + 1]++;
  }
  for (int64_t q = 0; q < P; q++) aoff[q + 1] += aoff[q];
  {
    int64_t *fill = (int64_t *)malloc(((size_t)P + 1) * sizeof *fill);
    if (fill == NULL) { e = OC_ENOMEM; goto out; }
    memcpy(fill, aoff, ((size_t)P + 1) * sizeof *fill);
    for (int64_t q = 0; q < P; q++)
      if (to[q] >= 0) {
        arr[fill[to[q]]].t = sendt[q] + h;
        arr[fill[to[q]]++].from = q;
      }
    free(fill);
  }
  for (int64_t q = 0; q < P; q++)
    qsort(arr + aoff[q], (size_t)(aoff[q + 1] - aoff[q]), sizeof *arr, arr_cmp);
  /* an order with every sender before its receiver (the tree into the root,
   * found from the root down); processors that hold operands must be in it */
  {
    int64_t n = 0, head = 0;
    order[n++] = root;
    while (head < n) {
      int64_t q = order[head++];
      for (int64_t j = aoff[q]; j < aoff[q + 1]; j++) order[n++] = arr[j].from;
    }
    if (n != P) {
      /* processors outside the tree may not hold operands or send */
      unsigned char *seen = (unsigned char *)calloc((size_t)P, 1);
      if (seen == NULL) { e = OC_ENOMEM; goto out; }
      for (int64_t j = 0; j < n; j++) seen[order[j]] = 1;
      for (int64_t q = 0; q < P && e == OC_OK; q++)
        if (!seen[q] && (counts[q] > 0 || to[q] >= 0)) e = OC_EINVAL;
      free(seen);
      if (e) goto out;
    }
    /* sizes bottom-up (reverse of the order), bases top-down: a block is
     * its received blocks, last arrival first, then its own operands */
    for (int64_t j = n; j-- > 0;) {
      int64_t q = order[j];
      size[q] = counts[q];
      for (int64_t k = aoff[q]; k < aoff[q + 1]; k++) size[q] += size[arr[k].from];
    }
    if (ordered) { /* operand q at rank q: every subtree a rank interval */
      for (int64_t j = n; j-- > 0;) {
        int64_t q = order[j], lo = q, hi = q + 1;
        if (counts[q] != 1) { e = OC_EINVAL; goto out; }
        for (int64_t k = aoff[q]; k < aoff[q + 1]; k++) {
          lo = oc_min64(lo, base[arr[k].from]);
          hi = oc_max64(hi, base[arr[k].from] + size[arr[k].from]);
        }
        if (hi - lo != size[q]) { e = OC_EINVALID; goto out; }
        base[q] = lo;
      }
    } else {
      base[root] = 0;
      for (int64_t j = 0; j < n; j++) {
        int64_t q = order[j], at = base[q];
        for (int64_t k = aoff[q + 1]; k-- > aoff[q];) {
          base[arr[k].from] = at;
          at += size[arr[k].from];
        }
      }
    }
    /* additions, list-scheduled: receive overheads [t - o, t) are busy;
     * a received value is pending from its arrival t on */
    for (int64_t j = 0; j < n && e == OC_OK; j++) {
      int64_t q = order[j], end_k = aoff[q + 1];
      int64_t own = ordered ? q : base[q] + size[q] - counts[q];
      int64_t c = own + 1, left = counts[q] - 1, now = 0, run = 0;
      int64_t alo = own, nxt = aoff[q], pf = aoff[q];
      int started = 0;
      if (counts[q] == 0) {
        if (end_k > aoff[q]) e = OC_EUNSUP; /* forwarding only: not inferred */
        continue;
      }
      e = oc_sched_push_seg(s, q, own, own + counts[q]);
/* emit the pending run of own additions (or the start of the accumulator) */
#define FLUSH()                                                                \
  do {                                                                         \
    if (e == OC_OK && (!started || run > 0))                                   \
      e = oc_sched_push_op(s, started ? now - run * a : 0, q, OC_OP_LOCAL,      \
                           started ? alo : own, started ? c - run : own, c);   \
    started = 1;                                                               \
    run = 0;                                                                   \
  } while (0)
      while (e == OC_OK) {
        int64_t nb = nxt < end_k ? arr[nxt].t - o : INT64_MAX; /* next reception */
        if (nxt < end_k && now >= nb) { /* in (or at) a reception: skip it */
          if (now < arr[nxt].t) FLUSH();
          now = oc_max64(now, arr[nxt].t);
          nxt++;
          continue;
        }
        if (pf == nxt && left == 0) { /* idle until the next arrival */
          FLUSH();
          if (nxt < end_k) { now = o > 0 ? nb : arr[nxt].t; continue; }
          break;
        }
        if (o > 0 && now + a > nb) { FLUSH(); now = nb; continue; } /* no room */
        if (pf < nxt) { /* fold a pending value: the oldest, or (ordered) the
                           oldest one next to the accumulator */
          int64_t ch;
          if (ordered) {
            int64_t jj = pf;
            while (jj < nxt && base[arr[jj].from] + size[arr[jj].from] != alo &&
                   base[arr[jj].from] != c)
              jj++;
            if (jj == nxt) { /* none fits yet: wait for the next arrival */
              FLUSH();
              if (nxt < end_k) { now = o > 0 ? oc_max64(now, nb) : oc_max64(now, arr[nxt].t); continue; }
              e = OC_EINVALID;
              break;
            }
            if (jj != pf) { arrival tmp = arr[jj]; arr[jj] = arr[pf]; arr[pf] = tmp; }
          }
          ch = arr[pf++].from;
          FLUSH();
          if (e) break;
          if (base[ch] + size[ch] == alo) {
            e = oc_sched_push_op(s, now, q, OC_OP_PREPEND, base[ch], alo, c);
            alo = base[ch];
          } else if (base[ch] == c && left == 0) {
            e = oc_sched_push_op(s, now, q, OC_OP_APPEND, alo, c, c + size[ch]);
            c += size[ch];
          } else {
            e = OC_EINVALID; /* a partial result not next to the accumulator */
          }
        } else { /* own operands: as many as fit before the next reception
                    (o > 0) or until the next value arrives (o = 0) */
          int64_t k = left;
          if (nxt < end_k) {
            if (o > 0) k = oc_min64(k, (nb - now) / a);
            else k = oc_min64(k, (arr[nxt].t - now + a - 1) / a);
          }
          if (k < 1) k = 1;
          c += k;
          left -= k;
          run += k;
          now += k * a;
          continue;
        }
        now += a;
      }
      FLUSH();
#undef FLUSH
    }
  }
out:
  free(sendt);
  free(to);
  free(aoff);
  free(size);
  free(base);
  free(order);
  free(arr);
  return e;
}

/* ---- a rank's own view ------------------------------------------------------ */

/* The ordered root's slots: sizes and first ranks (left slots from rank 0
 * in slot order, right slots after the root in reverse slot order). */
static int slot_layout(const oc_reduce *x, slots *sl, int64_t **sz, int64_t **start) {
  int64_t need[2], at[2];
  int e = slots_plan(x, x->t, sl);
  if (e) return e;
  *sz = (int64_t *)malloc((size_t)(sl->K + 1) * sizeof **sz);
  *start = (int64_t *)malloc((size_t)(sl->K + 1) * sizeof **start);
  if (*sz == NULL || *start == NULL) return OC_ENOMEM;
  need[0] = x->root;
  need[1] = x->p.P - 1 - x->root;
  for (int64_t j = 0; j <= sl->K; j++) {
    (*sz)[j] = oc_min64(sl->F[j], need[sl->side[j]]);
    need[sl->side[j]] -= (*sz)[j];
  }
  at[0] = 0;
  for (int64_t j = 0; j <= sl->K; j++)
    if (sl->side[j] == 0) { (*start)[j] = at[0]; at[0] += (*sz)[j]; }
  at[1] = x->root + 1;
  for (int64_t j = sl->K; j >= 0; j--)
    if (sl->side[j] == 1) { (*start)[j] = at[1]; at[1] += (*sz)[j]; }
  return OC_OK;
}

/* the karp tree of n nodes in the tree model */
static int slot_tree(const oc_reduce *x, int64_t n, oc_bcast **b) {
  oc_params q = x->pp;
  q.P = n;
  return oc_bcast_new(b, &q, 0, OC_BCAST_KARP);
}

int oc_reduce_rank(const oc_reduce *x, int64_t rank, oc_reduce_view *v) {
  const int64_t P = x->p.P;
  oc_bcast *b = NULL;
  oc_post w;
  int e;
  memset(&w, 0, sizeof w);
  if (!x->reduce) return OC_EUNSUP;
  if (rank < 0 || rank >= P) return OC_ERANGE;
  memset(v, 0, sizeof *v);
  v->rank = rank;
  v->slot_ = -1;
  if (!x->ordered || P == 1) {
    int64_t pos = ((rank - x->root - 1) % P + P) % P;
    if ((e = slot_tree(x, P, &b)) != OC_OK) return e;
    e = oc_bcast_post_locate(b, pos, &w);
    oc_bcast_free(b);
    if (e) return e;
    v->parent = w.parent < 0 ? -1 : (w.parent + x->root + 1) % P;
    v->start_ = 0;
    v->slot_size_ = P;
  } else if (rank == x->root) {
    slots sl = {0, 0, 0, NULL, NULL};
    int64_t *sz = NULL, *start = NULL;
    e = slot_layout(x, &sl, &sz, &start);
    v->parent = -1;
    v->send = -1;
    for (int64_t j = 0; e == OC_OK && j <= sl.K; j++) v->nchildren += sz[j] > 0;
    slots_free(&sl);
    free(sz);
    free(start);
    return e;
  } else {
    slots sl = {0, 0, 0, NULL, NULL};
    int64_t *sz = NULL, *start = NULL, j;
    e = slot_layout(x, &sl, &sz, &start);
    for (j = 0; e == OC_OK && j <= sl.K; j++)
      if (sz[j] > 0 && rank >= start[j] && rank < start[j] + sz[j]) break;
    if (e == OC_OK && j > sl.K) e = OC_EINVAL;
    if (e == OC_OK) {
      v->slot_ = j;
      v->start_ = start[j];
      v->slot_size_ = sz[j];
      if ((e = slot_tree(x, sz[j], &b)) == OC_OK) {
        e = oc_bcast_post_locate(b, rank - start[j], &w);
        oc_bcast_free(b);
      }
      if (e == OC_OK) {
        w.label += sl.h + j * sl.G;
        v->parent = w.parent < 0 ? x->root : start[j] + w.parent;
      }
    }
    slots_free(&sl);
    free(sz);
    free(start);
    if (e) return e;
  }
  v->send = v->parent < 0 ? -1 : x->t - w.label;
  v->nchildren = w.nchildren;
  v->pos_ = w.pos;
  v->label_ = w.label;
  v->t_ = w.t_;
  v->st_ = w.st_;
  v->base_ = w.base_;
  return OC_OK;
}

int oc_reduce_child(const oc_reduce *x, const oc_reduce_view *v, int64_t k,
                    int64_t *child_rank, int64_t *send_time) {
  oc_bcast *b = NULL;
  oc_post w;
  int64_t lab, pos;
  int e;
  if (k < 0 || k >= v->nchildren) return OC_ERANGE;
  if (x->ordered && v->parent < 0 && x->p.P > 1) { /* the ordered root */
    slots sl = {0, 0, 0, NULL, NULL};
    int64_t *sz = NULL, *start = NULL, seen = -1, j;
    e = slot_layout(x, &sl, &sz, &start);
    for (j = 0; e == OC_OK && j <= sl.K; j++)
      if (sz[j] > 0 && ++seen == k) break;
    if (e == OC_OK && j > sl.K) e = OC_EINVAL; /* cannot happen: k < nchildren */
    if (e == OC_OK) {
      *child_rank = start[j] + sz[j] - 1; /* the slot's root: last in postorder */
      *send_time = x->t - (sl.h + j * sl.G);
    }
    slots_free(&sl);
    free(sz);
    free(start);
    return e;
  }
  if ((e = slot_tree(x, v->slot_size_, &b)) != OC_OK) return e;
  w.pos = v->pos_;
  w.label = v->label_;
  w.t_ = v->t_;
  w.st_ = v->st_;
  w.base_ = v->base_;
  pos = oc_bcast_post_child(b, &w, k, &lab);
  oc_bcast_free(b);
  *child_rank = x->ordered ? v->start_ + pos : (pos + x->root + 1) % x->p.P;
  *send_time = x->t - lab;
  return OC_OK;
}
