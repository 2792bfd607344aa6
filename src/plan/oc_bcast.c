/* oc_bcast.c - optimal single-item broadcast in the LogP and postal models.
 *
 * Three algorithms, all optimal (completion time B(P)):
 *
 * KARP - Karp, Sahay, Santos, Schauser, SPAA'93, Defs. 2.3/2.4, Thm 2.1.
 *   The universal tree: root label 0, a node with label x has children
 *   x + h + kG (h = L + 2o, G = max(g, o); Karp writes g, assuming g >= o).
 *   B(P) = the tree of the P smallest labels.  Labels below T = B(P) are all
 *   in; of the E(T) = f(T) - f(T-1) nodes labelled exactly T, the first
 *   c = P - f(T-1) in preorder are kept (all of them are leaves, so any
 *   choice is a tree and all are optimal; preorder makes it computable).
 *   Processors are numbered in preorder from the root (Shou & Chen Def. 3),
 *   so a subtree is a contiguous block of ranks.
 *   Worked example (Karp Fig. 1, P = 8, L = 6, o = 2, g = 4; h = 10, G = 4):
 *   root 0 sends at 0, 4, 8, 12 to ranks 1, 4, 6, 7 (ready 10, 14, 18, 22);
 *   rank 1 sends at 10, 14 to ranks 2, 3 (ready 20, 24); rank 4 sends at 14
 *   to rank 5 (ready 24).  Labels 0,10,14,18,20,22,24,24: time 24.
 *   Cost: B(P) = min{t : f(t) >= P}; Shou & Chen Thm 4:
 *   min(g, L+2o) log2 P <= B(P) < max(g, L+2o) log2 4P.
 *
 * SHOUCHEN - Shou & Chen Def. 4: T*(P) = the first P nodes in preorder of
 *   OBT(f(T)).  Also optimal for broadcast (every label is <= T), but it
 *   may keep a larger label and drop a smaller one (their Fig. 1: T*(7;
 *   6,2,4) drops node (7,2) of label 22 and keeps two nodes of label 24).
 *
 * BARNOY - Bar-Noy & Kipnis, Algorithm BCAST: a processor holding the range
 *   [lo, lo+n) at time x sends to lo + j, j = f(B(n) - G) (F_lambda(f_lambda
 *   (n) - 1) in the postal model; j = 1 when B(n) < G, the chain case),
 *   hands it [lo+j, lo+n), and continues with [lo, lo+j) at x + G.  Lemma 4
 *   carries over: B(j) <= B(n) - G and n - j <= f(B(n) - h).
 *
 * Per-rank view (KARP, SHOUCHEN): the rank's preorder position is found by
 * walking down from the root.  A run of first-child steps is one binary
 * search (the chain below a node of remaining time t has sizes
 * S(t - i h)), a step into child k >= 1 is another (the sizes of children
 * 0..k-1 add up to Fs(t) - Fs(t - kG), Shou & Chen Thm 3, corrected for the
 * kept label-T nodes).  Every child step with k >= 1 lowers the remaining
 * time by at least h + G > max(h, G), so there are fewer than log2(4P)
 * rounds of two binary searches each: O(log P * log B(P)) values of f,
 * each O(1) from the table or O(log^2 P) in closed form.  Memory O(1)
 * beyond the shared oc_reach.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"

struct oc_bcast {
  oc_params p;
  int64_t root;
  oc_bcast_alg alg;
  oc_reach *r;
  int64_t st0; /* KARP: label-T nodes kept (c); SHOUCHEN: P */
};

const char *oc_bcast_alg_name(oc_bcast_alg a) {
  switch (a) {
  case OC_BCAST_KARP: return "karp";
  case OC_BCAST_SHOUCHEN: return "shou-chen";
  case OC_BCAST_BARNOY: return "bar-noy-kipnis";
  }
  return "?";
}

int oc_bcast_alg_parse(const char *name, oc_bcast_alg *out) {
  static const oc_bcast_alg all[] = {OC_BCAST_KARP, OC_BCAST_SHOUCHEN,
                                     OC_BCAST_BARNOY};
  if (name == NULL) return OC_EINVAL;
  if (strcmp(name, "optimal") == 0 || strcmp(name, "best") == 0) {
    *out = OC_BCAST_KARP;
    return OC_OK;
  }
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    if (strcmp(name, oc_bcast_alg_name(all[i])) == 0) {
      *out = all[i];
      return OC_OK;
    }
  }
  return OC_EINVAL;
}

int oc_bcast_new(oc_bcast **out, const oc_params *p, int64_t root,
                 oc_bcast_alg alg) {
  oc_bcast *b;
  int e = oc_params_check(p);
  if (e) return e;
  if (root < 0 || root >= p->P) return OC_ERANGE;
  if (alg != OC_BCAST_KARP && alg != OC_BCAST_SHOUCHEN && alg != OC_BCAST_BARNOY)
    return OC_EINVAL;
  b = (oc_bcast *)calloc(1, sizeof *b);
  if (b == NULL) return OC_ENOMEM;
  b->p = *p;
  b->root = root;
  b->alg = alg;
  e = oc_reach_new(&b->r, p);
  if (e) {
    free(b);
    return e;
  }
  if (alg == OC_BCAST_KARP)
    b->st0 = p->P - oc_reach_fn(b->r, b->r->T - 1);
  else
    b->st0 = p->P;
  *out = b;
  return OC_OK;
}

void oc_bcast_free(oc_bcast *b) {
  if (b == NULL) return;
  oc_reach_free(b->r);
  free(b);
}

int64_t oc_bcast_completion(const oc_bcast *b) { return oc_reach_time(b->r); }

/* ---- subtree sizes ---------------------------------------------------------
 * A node is described by its remaining time t = T - label (normalised) and
 * a state st: KARP - how many label-T nodes its subtree may still keep;
 * SHOUCHEN - how many nodes its subtree may hold (budget). */

static int64_t fn(const oc_bcast *b, int64_t t) { return oc_reach_fn(b->r, t); }
/* Fs(x) = 1 + sum_{k>=0, x-h-kG>=0} f(x-h-kG): f(x) for x >= 0, 1 below. */
static int64_t fs(const oc_bcast *b, int64_t x) { return x < 0 ? 1 : fn(b, x); }

static int64_t size_of(const oc_bcast *b, int64_t t, int64_t st) {
  if (t < 0) return 0;
  if (b->alg == OC_BCAST_KARP) {
    int64_t below = fn(b, t - 1), exact = fn(b, t) - below;
    return below + oc_min64(exact, st);
  }
  return oc_min64(fn(b, t), st);
}

/* Total size of children 0..k-1 of the node (t, st). */
static int64_t prefix_of(const oc_bcast *b, int64_t t, int64_t st, int64_t k) {
  int64_t kG = k * b->r->G; /* k <= t / G + 1: no overflow */
  int64_t full = fs(b, t) - fs(b, t - kG);
  if (b->alg == OC_BCAST_KARP) {
    int64_t below = fs(b, t - 1) - fs(b, t - 1 - kG); /* labels < T */
    return below + oc_min64(full - below, st);
  }
  return oc_min64(full, size_of(b, t, st) - 1);
}

/* State of child k of node (t, st). */
static int64_t child_state(const oc_bcast *b, int64_t t, int64_t st,
                           int64_t k) {
  if (b->alg == OC_BCAST_KARP) {
    int64_t kG = k * b->r->G;
    int64_t full = fs(b, t) - fs(b, t - kG);
    int64_t below = fs(b, t - 1) - fs(b, t - 1 - kG);
    return st - oc_min64(full - below, st);
  }
  return size_of(b, t, st) - 1 - prefix_of(b, t, st, k);
}

/* Size of the node i first-child steps below (t, st). */
static int64_t chain_size(const oc_bcast *b, int64_t t, int64_t st, int64_t i) {
  int64_t ti = t - i * b->r->h; /* i <= t/h + 1 */
  if (b->alg == OC_BCAST_KARP) return size_of(b, ti, st);
  return size_of(b, ti, st - i);
}

static int64_t nchildren_of(const oc_bcast *b, int64_t t, int64_t st) {
  int64_t want, lo = 0, hi;
  if (t < b->r->h) return 0;
  want = size_of(b, t, st) - 1;
  hi = (t - b->r->h) / b->r->G + 1;
  while (lo < hi) { /* least k with prefix(k) >= want */
    int64_t mid = lo + (hi - lo) / 2;
    if (prefix_of(b, t, st, mid) >= want) hi = mid; else lo = mid + 1;
  }
  return lo;
}

/* The child k >= 1 of node (t, st) whose block holds offset x (counted
 * from the first child's block): the largest k with prefix(k) <= x. */
static int64_t child_holding(const oc_bcast *b, int64_t t, int64_t st, int64_t x) {
  int64_t lo = 1, hi = (t - b->r->h) / b->r->G;
  while (lo < hi) {
    int64_t mid = hi - (hi - lo) / 2;
    if (prefix_of(b, t, st, mid) <= x) lo = mid; else hi = mid - 1;
  }
  return lo;
}

int oc_bcast_rank(const oc_bcast *b, int64_t rank, oc_bcast_view *out) {
  const int64_t h = b->r->h, G = b->r->G, P = b->p.P;
  int64_t rr, t = b->r->T, st = b->st0, pos = 0, parent = -1;
  if (b->alg == OC_BCAST_BARNOY) return OC_EUNSUP;
  if (rank < 0 || rank >= P) return OC_ERANGE;
  rr = rank - b->root;
  if (rr < 0) rr += P;
  while (rr > 0) {
    /* 1. first-child run: least m with m >= rr or m + S(m+1) <= rr - 1 */
    int64_t lo = 0, hi = oc_min64(rr, t / h + 1);
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (mid + chain_size(b, t, st, mid + 1) <= rr - 1) hi = mid; else lo = mid + 1;
    }
    if (lo > 0) {
      parent = pos + lo - 1;
      pos += lo;
      rr -= lo;
      t -= lo * h;
      if (b->alg == OC_BCAST_SHOUCHEN) st -= lo;
    }
    if (rr == 0) break;
    /* 2. the target is in child k >= 1: largest k with prefix(k) <= rr-1 */
    {
      int64_t k;
      if (t < h) return OC_EINVAL; /* cannot happen: sizes are exact */
      k = child_holding(b, t, st, rr - 1);
      {
        int64_t pre = prefix_of(b, t, st, k);
        int64_t nst = child_state(b, t, st, k);
        parent = pos;
        pos += 1 + pre;
        rr -= 1 + pre;
        t -= h + k * G;
        st = nst;
      }
    }
  }
  {
    const int64_t d = b->r->d;
    out->rank = rank;
    out->parent = parent < 0 ? -1 : (b->root + parent) % P;
    out->ready = (b->r->T - t) * d;
    out->recv_send = parent < 0 ? -1 : out->ready - h * d;
    out->nchildren = nchildren_of(b, t, st);
    out->pos_ = pos;
    out->t_ = t;
    out->rem_ = st;
  }
  return OC_OK;
}

int oc_bcast_child(const oc_bcast *b, const oc_bcast_view *v, int64_t k,
                   int64_t *child_rank, int64_t *send_time) {
  int64_t pre;
  if (b->alg == OC_BCAST_BARNOY) return OC_EUNSUP;
  if (k < 0 || k >= v->nchildren) return OC_ERANGE;
  pre = prefix_of(b, v->t_, v->rem_, k);
  *child_rank = (b->root + v->pos_ + 1 + pre) % b->p.P;
  *send_time = v->ready + k * b->r->G * b->r->d;
  return OC_OK;
}

/* ---- global schedules ----------------------------------------------------- */

typedef struct frame {
  int64_t pos, t, st; /* node (KARP, SHOUCHEN) or lo, x, n (BARNOY) */
} frame;

typedef struct fstack {
  frame *f;
  size_t n, cap;
} fstack;

static int fpush(fstack *s, int64_t a, int64_t b2, int64_t c) {
  if (s->n == s->cap) {
    size_t nc = s->cap ? s->cap * 2 : 64;
    frame *nf = (frame *)realloc(s->f, nc * sizeof *nf);
    if (nf == NULL) return OC_ENOMEM;
    s->f = nf;
    s->cap = nc;
  }
  s->f[s->n].pos = a;
  s->f[s->n].t = b2;
  s->f[s->n].st = c;
  s->n++;
  return OC_OK;
}

static int64_t phys(const oc_bcast *b, int64_t pos) {
  return (b->root + pos) % b->p.P;
}

/* KARP and SHOUCHEN: every node emits the messages to its children; child
 * sizes are computed one after the other in O(1) values of f each. */
static int tree_schedule(const oc_bcast *b, oc_sched *out) {
  const int64_t h = b->r->h, G = b->r->G, d = b->r->d, T = b->r->T;
  fstack stk = {NULL, 0, 0};
  int e = fpush(&stk, 0, T, b->st0);
  while (e == OC_OK && stk.n > 0) {
    frame fr = stk.f[--stk.n];
    int64_t left = size_of(b, fr.t, fr.st) - 1; /* descendants to place */
    int64_t next = fr.pos + 1, st = fr.st;
    int64_t budget = left; /* SHOUCHEN: budget of the next child */
    for (int64_t k = 0; left > 0 && e == OC_OK; k++) {
      int64_t tk = fr.t - h - k * G, sz, cst;
      if (b->alg == OC_BCAST_KARP) {
        int64_t below = fn(b, tk - 1), exact = fn(b, tk) - below;
        sz = below + oc_min64(exact, st);
        cst = st;
        st -= oc_min64(exact, st);
      } else {
        sz = oc_min64(fn(b, tk), budget);
        cst = budget;
        budget -= sz;
      }
      if (sz <= 0) break;
      e = oc_sched_push(out, (T - fr.t) * d + k * G * d, phys(b, fr.pos),
                        phys(b, next), 0);
      if (e == OC_OK && sz > 1) e = fpush(&stk, next, tk, cst);
      next += sz;
      left -= sz;
    }
  }
  free(stk.f);
  return e;
}

/* BARNOY: frames are (lo, x, n): processor lo holds [lo, lo+n) at time x. */
static int barnoy_schedule(const oc_bcast *b, oc_sched *out) {
  const int64_t h = b->r->h, G = b->r->G, d = b->r->d;
  fstack stk = {NULL, 0, 0};
  int e = fpush(&stk, 0, 0, b->p.P);
  while (e == OC_OK && stk.n > 0) {
    frame fr = stk.f[--stk.n];
    int64_t lo = fr.pos, x = fr.t, n = fr.st;
    while (n > 1 && e == OC_OK) {
      int64_t Tn = oc_reach_inv(b->r, n);
      int64_t j = (Tn >= G) ? fn(b, Tn - G) : 1;
      e = oc_sched_push(out, x * d, phys(b, lo), phys(b, lo + j), 0);
      if (e == OC_OK && n - j > 1) e = fpush(&stk, lo + j, x + h, n - j);
      x += G;
      n = j;
    }
  }
  free(stk.f);
  return e;
}

int64_t oc_bcast_barnoy_root_last(const oc_bcast *b) {
  const int64_t G = b->r->G;
  int64_t x = 0, n = b->p.P, last = -1;
  if (b->alg != OC_BCAST_BARNOY) return -2;
  while (n > 1) { /* the root's loop of barnoy_schedule, without the rest */
    int64_t Tn = oc_reach_inv(b->r, n);
    last = x * b->r->d;
    n = (Tn >= G) ? fn(b, Tn - G) : 1;
    x += G;
  }
  return last;
}

int oc_bcast_schedule(const oc_bcast *b, oc_sched *out) {
  int e;
  size_t want;
  if (b->p.P > OC_GLOBAL_PROCS_MAX) return OC_ERANGE;
  want = (size_t)(b->p.P - 1);
  if ((e = oc_sched_reserve(out, want + 1)) != OC_OK) return e;
  e = (b->alg == OC_BCAST_BARNOY) ? barnoy_schedule(b, out)
                                  : tree_schedule(b, out);
  return e;
}

void oc_bcast_test_closed_form(oc_bcast *b) {
  free(b->r->tab);
  b->r->tab = NULL;
}

/* ---- postorder view (reductions) -------------------------------------------
 * The same trees numbered in postorder: a node after its children's blocks,
 * children in send order.  A reduction folds its children's values as they
 * arrive (last child first) by prepending, so its block is exactly this. */

int oc_bcast_post_locate(const oc_bcast *b, int64_t x, oc_post *out) {
  const int64_t h = b->r->h, G = b->r->G;
  int64_t t = b->r->T, st = b->st0, base = 0, size = b->p.P, parent = -1;
  if (b->alg == OC_BCAST_BARNOY) return OC_EUNSUP;
  if (x < 0 || x >= b->p.P) return OC_ERANGE;
  while (x != base + size - 1) {
    /* least m: x is not in the child-0 block of the node m levels down */
    int64_t lo = 0, hi = t / h + 1;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (x - base >= chain_size(b, t, st, mid + 1)) hi = mid; else lo = mid + 1;
    }
    if (lo > 0) {
      parent = base + chain_size(b, t, st, lo - 1) - 1;
      size = chain_size(b, t, st, lo);
      t -= lo * h;
      if (b->alg == OC_BCAST_SHOUCHEN) st -= lo;
    }
    if (x == base + size - 1) break;
    {
      int64_t k, pre, nst;
      if (t < h) return OC_EINVAL; /* cannot happen: sizes are exact */
      k = child_holding(b, t, st, x - base);
      pre = prefix_of(b, t, st, k);
      nst = child_state(b, t, st, k);
      parent = base + size - 1;
      size = prefix_of(b, t, st, k + 1) - pre;
      base += pre;
      t -= h + k * G;
      st = nst;
    }
  }
  out->pos = x;
  out->parent = parent;
  out->label = (b->r->T - t) * b->r->d;
  out->nchildren = nchildren_of(b, t, st);
  out->t_ = t;
  out->st_ = st;
  out->base_ = base;
  return OC_OK;
}

int64_t oc_bcast_post_child(const oc_bcast *b, const oc_post *v, int64_t k,
                            int64_t *label) {
  *label = v->label + (b->r->h + k * b->r->G) * b->r->d;
  return v->base_ + prefix_of(b, v->t_, v->st_, k + 1) - 1;
}
