/* oc_cbcast.c - continuous broadcast in the postal model, block-cyclic.
 *
 * Source: Karp, Sahay, Santos, Schauser, "Optimal Broadcast and Summation in
 * the LogP Model", section 3.1-3.3 (seed 000): integer latency L, g = 1,
 * o = 0; the source creates item i at time i and sends it once, at time i,
 * to that item's tree root; the delay of an item is the time from its
 * creation until every processor holds it.  Lower bound L + B(P-1)
 * (section 3.1).  f_t = 1 (t < L), f_t = f_{t-1} + f_{t-L}; B(n) = min{t :
 * f_t >= n} (Theorem 2.2).
 *
 * The scheme.  Every item is broadcast among the P-1 other processors by
 * the same tree, whose internal nodes send on consecutive steps from the
 * step they receive.  A node is named by its LETTER, the deadline D minus
 * its delay: the item received with letter j at time T is T + j - L - D.
 * An internal node with r children and letter J (J >= r + L - 1) sends to
 * children with letters J-L, J-L-1, ..., J-L-r+1.  Each internal node gets a
 * BLOCK of r processors: processor q of the block takes that node for the
 * items whose node it receives at times = q (mod r), sends r steps, and in
 * the r-1 steps between receives leaves given by the block's WORD w_1..w_{r-1}
 * (position s receives letter w_s).  One more processor, the RECEIVE-ONLY
 * one, receives one fixed letter every step.  Sends never collide (each
 * block processor sends exactly one item a step) and every processor
 * receives one item a step.  A processor never gets an item twice iff
 * J, 1 + w_1, ..., r-1 + w_{r-1} are distinct mod r (Karp's "second
 * restriction"), and the words plus the receive-only letter must use
 * exactly the leaves' letters (the "first restriction").
 *
 * Our reconstruction (checked by exhaustive search in the tests):
 *  - By M. Hall's theorem on abelian groups (Proc. AMS 3, 1952: r elements
 *    of Z_r that sum to 0 are the differences of two permutations), a
 *    multiset of r-1 letters can be ordered into a legal word for the block
 *    (r, J) iff J + (sum of the letters) = 0 (mod r).  So whether a block-
 *    cyclic schedule exists is a pure partition question, which
 *    oc_cbcast_exists answers exhaustively for small instances (e.g. Karp's
 *    L = 4, t = 8: none).
 *  - The words we build come from one family that contains Lemma 3.1's
 *    words: x^p (x+2 x)^m (x+1)^n is legal for (r, J) iff p + 1 + x = J
 *    (mod r) (its residues are x+1 .. x+r without p+1+x), plus, for blocks
 *    of at most 7, every legal word.
 *  - Section 3.3's induction: the tree for f_t is the tree for f_{t-1} (its
 *    root sends one step more) plus that of f_{t-L} under the root's first
 *    child, and letters are preserved.  From solutions of t-1 and t-L whose
 *    receive-only letter is b and whose root word is a^{L-2}(ca)^m b^n, the
 *    root word gets one more b and the second b becomes the receive-only
 *    letter: a solution of the same form for t.  L consecutive base cases
 *    found by search therefore give every larger t.  The base cases are
 *    decided by a complete search in that form (solve_exhaustive_form):
 *    t(L) = 3L - 3 for 5 <= L <= 18, none below it (docs/ALGORITHMS.md).
 *  - Any P: n = P-1 = f_{t-1} + n1 with 1 <= n1 < f_{t-L}: the full
 *    solution of t-1 (in the form above) under the root, and any solution
 *    for n1 processors (delay <= t-L, letters shifted up) under its first
 *    child; the root word gets one more b; the receive-only processor is
 *    the subtree's.  Delay L + B(P-1), optimal.  Where no base exists (small
 *    t), the tree is searched for deadlines B, B+1, ...: the delay reached
 *    is reported with its gap to the bound.
 *  - L = 2 (Karp's Theorem 3.4: L + B(P-1) is not always reachable): the
 *    same induction and split run on Theorem 3.5's pruned trees (the full
 *    tree of deadline t + 1 cut to f_t processors, karp_prune), "slack 1":
 *    delay L + B(P-1) + 1 for every P tested.
 *
 * Cost: set-up O(P) after the base cases (a bounded search per L, cached
 * in the plan); what a processor receives and sends at a step is O(1)
 * (oc_cbcast_step); the schedule of k items is k(P-1) messages in O(k P).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/oc_cbcast_int.h"

#define CB_BUDGET 100000   /* search steps per instance                    */
#ifndef CB_PLAN_WORK
#define CB_PLAN_WORK 40000000 /* search steps granted per plan, in all: bounds
                                 the plan's time (seconds) for large L */
#endif
#define CB_KARP_L 18 /* above: the nested construction alone (oc_cbnest.c) */


struct oc_cbcast {
  int64_t P, L, B, n; /* n = P - 1 */
  oc_cbcast_info info;
  cb_sol s;
  int64_t root_blk;   /* the block fed by the source                        */
  int64_t *send_to;   /* per send slot (block's soff + c): the receiving slot,
                         block << CB_POS_BITS | position, or -1: receive-only */
  int64_t *recv_from; /* per receiving slot (block's woff + position, and nw
                         for the receive-only): the send slot, encoded alike;
                         -1 for the root block's upper (the source)          */
  int32_t *blk_of;    /* per relative processor (but the receive-only): its
                         block, so a step is O(1)                            */
  int64_t *orig;      /* buffered plans: per word slot, the letter of the leaf
                         that arrives there (>= the word's letter: the item
                         waits orig - w steps in the buffer); NULL otherwise */
};

/* How long the item received in slot i (woff + position; nw: the receive-
 * only processor) waited in the buffer. */
static int64_t slot_wait(const oc_cbcast *c, int64_t i) {
  return c->orig == NULL || i >= c->s.nw ? 0 : c->orig[i] - c->s.w[i];
}

/* the same for an encoded receiving slot (block << CB_POS_BITS | pos; < 0:
 * the receive-only processor) */
static int64_t enc_wait(const oc_cbcast *c, int64_t enc);

/* ---- f_t ------------------------------------------------------------------ */

int64_t *oc_cb_fseq(int64_t L, int64_t T) {
  int64_t *f = (int64_t *)malloc((size_t)(T + 1) * sizeof *f);
  if (f == NULL) return NULL;
  for (int64_t i = 0; i <= T; i++)
    f[i] = i < L ? 1 : oc_add_sat(f[i - 1], f[i - L]);
  return f;
}

static int64_t bfun(int64_t L, int64_t n) { /* B(n), n >= 1 */
  int64_t t = 0, *f;
  if (n <= 1) return 0;
  /* f_t >= t/L + 1 ... grows; at most L * 64 steps for n < 2^62 */
  f = oc_cb_fseq(L, 64 * L + 64);
  if (f == NULL) return -1;
  while (f[t] < n) t++;
  free(f);
  return t;
}

/* Makes room for `need` elements of `size` bytes in *arr (capacity *cap,
 * doubled from `first`). */
int oc_cb_grow(void **arr, int64_t *cap, int64_t need, size_t size, int64_t first) {
  int64_t nc = *cap ? *cap : first;
  void *n;
  if (need <= *cap) return OC_OK;
  while (nc < need) nc *= 2;
  if ((n = realloc(*arr, (size_t)nc * size)) == NULL) return OC_ENOMEM;
  *arr = n;
  *cap = nc;
  return OC_OK;
}

/* ---- solutions -------------------------------------------------------------- */

void oc_cb_sol_free(cb_sol *s) {
  free(s->b);
  free(s->w);
  memset(s, 0, sizeof *s);
}

int oc_cb_sol_add(cb_sol *s, int32_t r, int64_t J, const int64_t *word) {
  int64_t bcap = s->cap;
  int e = oc_cb_grow((void **)&s->b, &bcap, s->nb + 1, sizeof *s->b, 16);
  s->cap = bcap;
  if (e || (e = oc_cb_grow((void **)&s->w, &s->wcap, s->nw + r, sizeof *s->w, 64))) return e;
  memset(&s->b[s->nb], 0, sizeof s->b[0]);
  s->b[s->nb].r = r;
  s->b[s->nb].J = J;
  s->b[s->nb].woff = s->nw;
  s->w[s->nw] = J;
  for (int32_t i = 1; i < r; i++) s->w[s->nw + i] = word ? word[i] : 0;
  s->nw += r;
  s->nb++;
  return OC_OK;
}

/* Karp's second restriction: J, 1 + w_1, ..., r-1 + w_{r-1} distinct mod r. */
static int word_legal(int32_t r, const int64_t *w, unsigned char *seen) {
  int ok = 1;
  memset(seen, 0, (size_t)r);
  for (int32_t s = 0; s < r && ok; s++) {
    int64_t x = ((w[s] + s) % r + r) % r; /* buffered words may go below 0 */
    if (seen[x]) ok = 0;
    seen[x] = 1;
  }
  return ok;
}

/* ---- Karp's form and the induction -------------------------------------------
 * how[t]: 0 no form solution known, 1 a base case (searched, kept in
 * base[t]), 2 composed from t-1 and t-L.  A form solution has receive-only
 * letter 1 (b) and a root word from the x = 0 family (a^{L-2}(ca)^m b^n). */

#define CB_M3_MAX 64 /* slack-1 forms: Karp's m3 tried up to this */
#define CB_FORM_EX_BUDGET 2000000 /* the complete search in Karp's form */
#define CB_TL_EX_BUDGET 40000000  /* ... when computing t(L) (no plan cap) */
#define CB_FORM_DIRECT_MAX 6000 /* base cases are searched up to f_t this big */
#ifndef CB_FORM_BUDGET
#define CB_FORM_BUDGET 400000
#endif

typedef struct cb_ctx {
  int64_t L, T;     /* f and how known for t <= T */
  int64_t s;        /* slack: form(t) has f_t processors and deadline t + s */
  int64_t *left;    /* search steps the whole plan may still spend; NULL: no cap */
  int64_t ex_budget; /* the complete form search's steps per base case      */
  int64_t *f;
  signed char *how;
  cb_sol *base;     /* base[t] when how[t] == 1 */
  int64_t base_lo;  /* first of L consecutive form solutions, -1 */
} cb_ctx;

static void ctx_free(cb_ctx *x) {
  if (x->base)
    for (int64_t t = 0; t <= x->T; t++) oc_cb_sol_free(&x->base[t]);
  free(x->base);
  free(x->how);
  free(x->f);
  memset(x, 0, sizeof *x);
}

static int pruned_inst(cb_inst *I, const int64_t *f, int64_t L, int64_t n, int64_t D,
                       int variant);

/* f up to T + 2L + 6 (the fallback's deeper trees), forms up to T.  Slack
 * s = 0: form(t) is the full tree of deadline t (Karp's base cases); s = 1
 * (L = 2 only): the full tree of deadline t + 1 pruned to f_t processors by
 * Theorem 3.5's recipe (karp_prune), where s = 0 has no base cases from
 * t = 7 on (Theorem 3.4).  Form: receive-only letter b, root word
 * x^p (x+2 x)^m (x+1)^n with x = a and p + 1 + x = J - r: one more child
 * (r, J both + 1) and one more b keep it legal, so the induction works for
 * either slack (f_t = f_{t-1} + f_{t-L} holds for the pruned sizes too). */
/* Grants up to b search steps from the plan's cap (0: the cap is spent). */
static int64_t take(const cb_ctx *x, int64_t b) {
  int64_t g;
  if (x->left == NULL) return b;
  g = *x->left < b ? *x->left : b;
  *x->left -= g;
  return g;
}

static int ctx_init(cb_ctx *x, int64_t L, int64_t T, int64_t s, int64_t *left) {
  int64_t run = 0;
  memset(x, 0, sizeof *x);
  x->L = L;
  x->T = T;
  x->s = s;
  x->left = left;
  /* up to L = 18 (where the t(L) table shows base cases from 3L - 3 on)
   * a plan grants each t three times as much: L = 17 needed it for its run
   * of base cases, and fell back to the path at P >= 10^4 without */
  x->ex_budget = left == NULL ? CB_TL_EX_BUDGET
                 : L <= 18    ? 3 * CB_FORM_EX_BUDGET
                              : CB_FORM_EX_BUDGET;
  x->base_lo = -1;
  x->f = oc_cb_fseq(L, T + 2 * L + 6);
  x->how = (signed char *)calloc((size_t)T + 1, 1);
  x->base = (cb_sol *)calloc((size_t)T + 1, sizeof *x->base);
  if (x->f == NULL || x->how == NULL || x->base == NULL) return OC_ENOMEM;
  if (L < 2) return OC_OK; /* L = 1: the direct search always works */
  for (int64_t t = L; t <= T; t++) {
    if (t - L >= 0 && x->how[t - 1] && x->how[t - L]) {
      x->how[t] = 2;
    } else if (x->f[t] <= CB_FORM_DIRECT_MAX && !(L == 2 && s == 0 && t >= 4)) {
      /* (L = 2, s = 0, t >= 4: none, Theorem 3.4 / test cbcast_l2) */
      /* s = 1: Karp's pruning with m3 = 0, 1, ... (variant 4 + m3) */
      int fit = 0;
      for (int variant = s ? 4 : 0; variant < (s ? 4 + CB_M3_MAX : 1) && !x->how[t]; variant++) {
        cb_inst I;
        int r, e;
        memset(&I, 0, sizeof I);
        e = s ? pruned_inst(&I, x->f, L, x->f[t], t + s, variant) : oc_cb_full_inst(&I, x->f, L, t);
        if (e == OC_EINVAL) {
          oc_cb_inst_free(&I);
          if (fit) break; /* past the feasible m3 */
          continue;
        }
        fit = 1;
        if (e) { oc_cb_inst_free(&I); return e; }
        {
          /* s = 0: the complete search in Karp's form first (it settles
           * t < 3L - 3 as "none" and finds the rest, L <= 16 checked),
           * then the candidate search */
          int64_t b = s == 0 ? take(x, x->ex_budget) : 0, used = 0;
          r = b > 0 ? oc_cb_solve_exhaustive_form(&I, 1, b, &x->base[t], &used) : -1;
          if (x->left != NULL) *x->left += b - used; /* what it did not spend */
          if (r != 1 && (b = take(x, CB_FORM_BUDGET)) > 0)
            r = oc_cb_solve_inst(&I, 1, 1, b, &x->base[t]);
          else if (r != 1)
            r = -1;
        }
        oc_cb_inst_free(&I);
        if (r < -1) return r;
        if (r == 1) x->how[t] = 1;
      }
    }
    run = x->how[t] ? run + 1 : 0;
    if (run == L && x->base_lo < 0) x->base_lo = t - L + 1;
  }
  return OC_OK;
}

static int emit_block(cb_sol *out, int32_t r, int64_t J, const int64_t *w, int64_t nw,
                      int64_t extra_b, int64_t delta) {
  int64_t *word = (int64_t *)malloc((size_t)r * sizeof *word);
  int e;
  if (word == NULL) return OC_ENOMEM;
  word[0] = J + delta;
  for (int64_t i = 1; i < nw; i++) word[i] = w[i] + delta;
  for (int64_t i = 0; i < extra_b; i++) word[nw + i] = 1 + delta;
  e = oc_cb_sol_add(out, r, J + delta, word);
  free(word);
  return e;
}

static int emit_all(const cb_ctx *x, int64_t t, int64_t delta, int64_t extra_root,
                    cb_sol *out);

/* the blocks of form(t) except its root */
static int emit_nonroot(const cb_ctx *x, int64_t t, int64_t delta, cb_sol *out) {
  int64_t tb = t;
  int e;
  while (x->how[tb] == 2) tb--;
  for (int64_t i = 1; i < x->base[tb].nb; i++) {
    const cb_blk *b = &x->base[tb].b[i];
    if ((e = emit_block(out, b->r, b->J, x->base[tb].w + b->woff, b->r, 0, delta)))
      return e;
  }
  for (int64_t u = tb + 1; u <= t; u++)
    if ((e = emit_all(x, u - x->L, delta, 0, out)) != OC_OK) return e;
  return OC_OK;
}

/* form(t), its root word with extra_root more b's (and r, J grown). */
static int emit_all(const cb_ctx *x, int64_t t, int64_t delta, int64_t extra_root,
                    cb_sol *out) {
  int64_t tb = t;
  const cb_blk *rb;
  int e;
  while (x->how[tb] == 2) tb--;
  rb = &x->base[tb].b[0];
  extra_root += t - tb;
  if ((e = emit_block(out, (int32_t)(rb->r + extra_root), rb->J + extra_root,
                      x->base[tb].w + rb->woff, rb->r, extra_root, delta)))
    return e;
  return emit_nonroot(x, t, delta, out);
}

/* ---- any n: plan, then emit ------------------------------------------------ */

enum { CB_M_ONE = 0, CB_M_FULL = 1, CB_M_SPLIT = 2, CB_M_SEARCH = 3 };

typedef struct cb_node { /* how n processors are served */
  int method;
  int64_t s;             /* FULL, SPLIT: the forms' slack           */
  int64_t n, D, t;       /* deadline reached; t = B(n)             */
  struct cb_node *sub;   /* SPLIT: the first child's subtree        */
  cb_sol found;          /* SEARCH: the solution                    */
} cb_node;

static int plan_n(const cb_ctx *x0, const cb_ctx *x1, int64_t n, int64_t maxD,
                  cb_node **out);

static void node_free(cb_node *nd) {
  while (nd != NULL) {
    cb_node *s = nd->sub;
    oc_cb_sol_free(&nd->found);
    free(nd);
    nd = s;
  }
}

#define CB_SEARCH_MAX 4000 /* processors for the fallback tree search */
#define CB_SEARCH_FIRST 400 /* up to this, the exact search before slack forms */

/* Theorem 3.5's pruning (Karp et al., L = 2), of a full tree (a node with
 * letter J has r = J - 1 children, the last two leaves b and a): every node
 * with 4 or more children loses both leaves, m3 of those with 3 children
 * lose both, every node with 2 children loses its a, and as many as the cut
 * still needs of those with one child lose it (becoming leaves c).  The
 * paper leaves the fractions open; the caller tries m3 = 0, 1, ... */
static int karp_prune(cb_inst *I, int64_t L, int64_t cut, int64_t m3) {
  int64_t n1 = 0;
  if (L != 2 || I->A < 3) return OC_EINVAL;
  for (int64_t i = 0; i < I->nn; i++) {
    int32_t r = I->r[i];
    if (r >= 4 || (r == 3 && m3 > 0)) {
      m3 -= r == 3;
      I->r[i] -= 2;
      I->leaf[0]--;
      I->leaf[1]--;
      cut -= 2;
    } else if (r == 2) {
      I->r[i] = 1;
      I->leaf[0]--;
      cut--;
    } else if (r == 1 && I->J[i] == 2) {
      n1++;
    }
  }
  if (m3 > 0 || cut < 0 || cut > n1) return OC_EINVAL;
  for (int64_t i = 0; i < I->nn && cut > 0; i++)
    if (I->r[i] == 1 && I->J[i] == 2) {
      I->leaf[0]--;
      I->leaf[2]++;
      I->r[i] = I->r[I->nn - 1];
      I->J[i] = I->J[I->nn - 1];
      I->nn--;
      i--;
      cut--;
    }
  for (int64_t j = 0; j < I->A; j++)
    if (I->leaf[j] < 0) return OC_EINVAL;
  return OC_OK;
}

/* Theorem 3.5's idea (Karp et al., for L = 2): the full tree of deadline D
 * with f_D - n leaves pruned.  A node's last child is a leaf (letter
 * J - L - r + 1 < L); pruning it leaves the node (r - 1, J).  variant 1
 * prunes round-robin from the largest nodes, 2 from the smallest, 3 as 1
 * but never the root (whose word must keep the form a^{L-2}(ca)^m b^n). */
static int pruned_inst(cb_inst *I, const int64_t *f, int64_t L, int64_t n, int64_t D,
                       int variant) {
  int64_t cut, progress = 1;
  int e;
  if (D < L || f[D] < n || f[D] - n > 4 * n) return OC_EINVAL;
  if ((e = oc_cb_shape_inst(I, f, L, f[D], D)) != OC_OK) return e;
  cut = f[D] - n;
  if (variant >= 4) return karp_prune(I, L, cut, variant - 4);
  /* nodes as built: order by r (desc for variant 1, asc for 2) */
  for (int64_t i = 1; i < I->nn; i++)
    for (int64_t j = i; j > 0; j--) {
      int sw = variant != 2 ? I->r[j - 1] < I->r[j] : I->r[j - 1] > I->r[j];
      if (!sw) break;
      {
        int32_t tr = I->r[j];
        int64_t tJ = I->J[j];
        I->r[j] = I->r[j - 1];
        I->J[j] = I->J[j - 1];
        I->r[j - 1] = tr;
        I->J[j - 1] = tJ;
      }
    }
  while (cut > 0 && progress) {
    progress = 0;
    for (int64_t i = 0; i < I->nn && cut > 0; i++) {
      int64_t last = I->J[i] - L - (I->r[i] - 1);
      if (I->r[i] < 1 || last < 0 || last >= L || I->leaf[last] == 0) continue;
      if (variant == 3 && I->J[i] == D) continue; /* keeps the root's form */
      I->r[i]--;
      I->leaf[last]--;
      cut--;
      progress = 1;
      if (I->r[i] == 0) { /* the node itself is a leaf now */
        I->leaf[I->J[i]]++;
        I->r[i] = I->r[I->nn - 1];
        I->J[i] = I->J[I->nn - 1];
        I->nn--;
        i--;
      }
    }
  }
  return cut == 0 ? OC_OK : OC_EINVAL;
}

/* FULL or SPLIT from the forms of x (deadline t + x->s); 1 done, 0 not. */
static int plan_form(const cb_ctx *x, const cb_ctx *x0, const cb_ctx *x1, cb_node *nd) {
  int64_t t = nd->t, n = nd->n;
  int e;
  if (x == NULL || t > x->T) return 0;
  if (x->f[t] == n && x->how[t]) {
    nd->method = CB_M_FULL;
    nd->s = x->s;
    nd->D = t + x->s;
    return 1;
  }
  if (t >= 1 && x->f[t] != n && x->how[t - 1] && t + x->s - x->L >= 0) {
    int64_t n1 = n - x->f[t - 1];
    if ((e = plan_n(x0, x1, n1, t + x->s - x->L, &nd->sub)) != OC_OK) return e;
    if (nd->sub->D <= t + x->s - x->L) {
      nd->method = CB_M_SPLIT;
      nd->s = x->s;
      nd->D = t + x->s;
      return 1;
    }
    node_free(nd->sub);
    nd->sub = NULL;
  }
  return 0;
}

/* searched trees of deadline D0 .. D1; 1 found, 0 not */
static int plan_search(const cb_ctx *x, cb_node *nd, int64_t D0, int64_t D1) {
  int64_t n = nd->n;
  int e;
  if (n > CB_SEARCH_MAX) return 0;
  for (int64_t D = D0; D <= D1 && D <= x->T + 2 * x->L + 6; D++)
    for (int variant = 0, fit = 0; variant < (x->L == 2 ? 4 + CB_M3_MAX : 3); variant++) {
      cb_inst I;
      int r;
      memset(&I, 0, sizeof I);
      if (variant == 3) continue; /* 3: forms only; 4 + m3: Karp's pruning */
      e = variant == 0 ? oc_cb_shape_inst(&I, x->f, x->L, n, D)
                       : pruned_inst(&I, x->f, x->L, n, D, variant);
      if (e == OC_EINVAL) {
        oc_cb_inst_free(&I);
        if (variant > 4 && fit) break;
        continue;
      }
      if (variant >= 4) fit = 1;
      if (e) { oc_cb_inst_free(&I); return e; }
      {
        int64_t b = take(x, CB_BUDGET);
        r = b > 0 ? oc_cb_solve_inst(&I, -1, 0, b, &nd->found) : -1;
        if ((r == 0 || r == -1) && n <= 400 && (b = take(x, CB_BUDGET)) > 0)
          r = oc_cb_solve_exhaustive(&I, b, &nd->found);
      }
      oc_cb_inst_free(&I);
      if (r < -1) return r;
      if (r == 1) {
        nd->method = CB_M_SEARCH;
        nd->D = D;
        return 1;
      }
    }
  return 0;
}

/* How to serve n processors within deadline maxD: the forms of x0 (slack
 * 0: optimal), a searched tree of deadline B(n), the forms of x1 (slack 1),
 * searched trees of deadline B(n) + 1 .. maxD.  Either context may be NULL.
 * nd->D > maxD: nothing found. */
static int plan_n(const cb_ctx *x0, const cb_ctx *x1, int64_t n, int64_t maxD,
                  cb_node **out) {
  const cb_ctx *x = x0 ? x0 : x1;
  cb_node *nd = (cb_node *)calloc(1, sizeof *nd);
  int64_t t = 0;
  int r;
  if (nd == NULL) return OC_ENOMEM;
  *out = nd;
  nd->n = n;
  nd->method = CB_M_SEARCH;
  if (n == 1) {
    nd->method = CB_M_ONE;
    return OC_OK;
  }
  while (x->f[t] < n) t++;
  nd->t = t;
  nd->D = maxD + 1;
  if (t > maxD) return OC_OK;
  if ((r = plan_form(x0, x0, x1, nd)) != 0) return r < 0 ? r : OC_OK;
  /* with slack forms at hand, large n try them before the exact search
   * (L = 2: an optimal tree is rarely found there, Theorem 3.4) */
  if (x1 == NULL || n <= CB_SEARCH_FIRST)
    if ((r = plan_search(x, nd, t, t)) != 0) return r < 0 ? r : OC_OK;
  if (t + 1 > maxD) return OC_OK;
  if ((r = plan_form(x1, x0, x1, nd)) != 0) return r < 0 ? r : OC_OK;
  if (x1 != NULL && n > CB_SEARCH_FIRST)
    if ((r = plan_search(x, nd, t, t)) != 0) return r < 0 ? r : OC_OK;
  if ((r = plan_search(x, nd, t + 1, maxD)) != 0) return r < 0 ? r : OC_OK;
  nd->D = maxD + 1; /* nothing within maxD */
  return OC_OK;
}

/* The fallback that always works: a path (every block one processor, no
 * words): delay L (P - 1). */
static int emit_path(int64_t n, int64_t L, cb_sol *out) {
  for (int64_t i = 0; i + 1 < n; i++) {
    int e = oc_cb_sol_add(out, 1, (n - 1 - i) * L, NULL);
    if (e) return e;
  }
  out->D = (n - 1) * L;
  out->ro = 0;
  return OC_OK;
}

/* emits node nd shifted by delta; *ro = the receive-only letter */
static int emit_node(const cb_ctx *x0, const cb_ctx *x1, const cb_node *nd, int64_t delta,
                     cb_sol *out, int64_t *ro) {
  const cb_ctx *x = nd->s ? x1 : x0;
  int e;
  switch (nd->method) {
  case CB_M_ONE:
    *ro = delta; /* the lone processor is the subtree's root: letter D = 0 */
    return OC_OK;
  case CB_M_FULL:
    *ro = 1 + delta;
    return emit_all(x, nd->t, delta, 0, out);
  case CB_M_SPLIT: {
    int64_t t = nd->t;
    /* the root part: form(t-1) with one more child (+1 b); its b goes to
     * the root word; the subtree keeps its own receive-only processor */
    if ((e = emit_all(x, t - 1, delta, 1, out)) != OC_OK) return e;
    return emit_node(x0, x1, nd->sub, delta + (t + x->s - x->L - nd->sub->D), out, ro);
  }
  default:
    for (int64_t i = 0; i < nd->found.nb; i++) {
      const cb_blk *b = &nd->found.b[i];
      if ((e = emit_block(out, b->r, b->J, nd->found.w + b->woff, b->r, 0, delta)))
        return e;
    }
    *ro = nd->found.ro + delta;
    return OC_OK;
  }
}

/* ---- the plan ------------------------------------------------------------------ */

#define CB_POS_BITS 24

/* the letter of the leaf a word slot is paired with (its arrival) */
static int64_t slot_letter(const oc_cbcast *c, int64_t i) {
  return c->orig != NULL ? c->orig[i] : c->s.w[i];
}

static int64_t enc_wait(const oc_cbcast *c, int64_t enc) {
  if (enc < 0 || c->orig == NULL) return 0;
  return slot_wait(c, c->s.b[enc >> CB_POS_BITS].woff + (enc & ((1 << CB_POS_BITS) - 1)));
}

static int finalize(oc_cbcast *c) {
  cb_sol *s = &c->s;
  int64_t nrecv = 0, nsend = 0, rel = 0, A = s->D + 1, L = c->L;
  int64_t *cntr = NULL, *cnts = NULL, *rs = NULL;
  unsigned char *seen = NULL;
  int32_t rmax = 1;
  int e = OC_OK;
  c->root_blk = -1;
  for (int64_t i = 0; i < s->nb; i++) {
    cb_blk *b = &s->b[i];
    b->first = rel;
    b->soff = nsend;
    rel += b->r;
    nsend += b->r;
    nrecv += b->r;
    if (b->r > rmax) rmax = b->r;
    if (b->J == s->D && c->root_blk < 0) c->root_blk = i;
    if (b->J - L - (b->r - 1) < 0 || b->J > s->D || b->r >= (1 << CB_POS_BITS))
      return OC_EINVAL;
  }
  if (rel + 1 != c->n || s->ro < 0 || s->ro > s->D) return OC_EINVAL;
  if (c->root_blk < 0 && c->n > 1) return OC_EINVAL;
  if (s->nb >= INT32_MAX) return OC_ERANGE;
  c->blk_of = (int32_t *)malloc((size_t)c->n * sizeof *c->blk_of);
  if (c->blk_of == NULL) return OC_ENOMEM;
  for (int64_t i = 0; i < s->nb; i++)
    for (int32_t q = 0; q < s->b[i].r; q++) c->blk_of[s->b[i].first + q] = (int32_t)i;
  seen = (unsigned char *)malloc((size_t)rmax);
  if (seen == NULL) return OC_ENOMEM;
  for (int64_t i = 0; i < s->nb && e == OC_OK; i++) {
    const cb_blk *b = &s->b[i];
    for (int32_t q = 1; q < b->r; q++)
      if (s->w[b->woff + q] < (c->orig != NULL ? -(int64_t)b->r : 0) || s->w[b->woff + q] > s->D ||
          slot_letter(c, b->woff + q) < s->w[b->woff + q] || slot_letter(c, b->woff + q) > s->D)
        e = OC_EINVAL;
    if (e == OC_OK && !word_legal(b->r, s->w + b->woff, seen)) e = OC_EINVAL;
  }
  free(seen);
  if (e) return e;
  /* match send slots to receive slots letter by letter */
  c->send_to = (int64_t *)malloc((size_t)(nsend + 1) * sizeof *c->send_to);
  cntr = (int64_t *)calloc((size_t)A + 1, sizeof *cntr);
  cnts = (int64_t *)calloc((size_t)A + 1, sizeof *cnts);
  rs = (int64_t *)malloc((size_t)(nrecv + 1) * sizeof *rs);
  if (c->send_to == NULL || cntr == NULL || cnts == NULL || rs == NULL) {
    e = OC_ENOMEM;
    goto out;
  }
  /* receive slots: (block, pos) encoded, root block's upper excluded; ro = -1 */
  for (int64_t i = 0; i < s->nb; i++)
    for (int32_t q = 0; q < s->b[i].r; q++) {
      if (q == 0 && i == c->root_blk) continue;
      cntr[slot_letter(c, s->b[i].woff + q) + 1]++;
    }
  cntr[s->ro + 1]++;
  for (int64_t j = 0; j < A; j++) cntr[j + 1] += cntr[j];
  for (int64_t i = 0; i < s->nb; i++)
    for (int32_t q = 0; q < s->b[i].r; q++) {
      if (q == 0 && i == c->root_blk) continue;
      rs[cntr[slot_letter(c, s->b[i].woff + q)]++] = (i << CB_POS_BITS) | q;
    }
  rs[cntr[s->ro]++] = -1;
  c->recv_from = (int64_t *)malloc((size_t)(s->nw + 1) * sizeof *c->recv_from);
  if (c->recv_from == NULL) { e = OC_ENOMEM; goto out; }
  if (c->root_blk >= 0) c->recv_from[s->b[c->root_blk].woff] = -1;
  /* cntr[j] is now the end of letter j's run; rewind to starts */
  for (int64_t j = A; j > 0; j--) cntr[j] = cntr[j - 1];
  cntr[0] = 0;
  for (int64_t i = 0; i < s->nb; i++)
    for (int32_t q = 0; q < s->b[i].r; q++) cnts[s->b[i].J - L - q + 1]++;
  for (int64_t j = 0; j < A; j++) {
    cnts[j + 1] += cnts[j];
    if (cnts[j + 1] != cntr[j + 1]) { e = OC_EINVAL; goto out; } /* not a tree */
  }
  for (int64_t i = 0; i < s->nb; i++)
    for (int32_t q = 0; q < s->b[i].r; q++) {
      int64_t j = s->b[i].J - L - q, to = rs[cntr[j]++];
      c->send_to[s->b[i].soff + q] = to;
      c->recv_from[to < 0 ? s->nw : s->b[to >> CB_POS_BITS].woff + (to & ((1 << CB_POS_BITS) - 1))] =
          (i << CB_POS_BITS) | q;
    }
out:
  free(cntr);
  free(cnts);
  free(rs);
  return e;
}

void oc_cbcast_free(oc_cbcast *c) {
  if (c == NULL) return;
  oc_cb_sol_free(&c->s);
  free(c->send_to);
  free(c->recv_from);
  free(c->orig);
  free(c->blk_of);
  free(c);
}

/* the info fields that follow from the solution c->s */
static void info_from_sol(oc_cbcast *c) {
  c->info.D = c->s.D;
  c->info.delay = c->L + c->s.D;
  c->info.blocks = c->s.nb;
  c->info.ro = c->s.ro;
}

static int nest_add(void *ctx, int32_t r, int64_t J, const int64_t *word) {
  return oc_cb_sol_add((cb_sol *)ctx, r, J, word);
}

/* The nested construction (oc_cbnest.c) for deadlines B .. maxD, the
 * first that works: its shape cut for B (the rest room for its trades),
 * else in proportion.  *out (empty: none found) gets the plan; OC_OK or an
 * error. */
static int try_nested(const oc_cbcast *c, cb_sol *out, int64_t maxD) {
  for (int64_t D = c->B; D <= maxD; D++)
    for (int a = 0; a < 2; a++) {
      int64_t ro = 0, Dr = D;
      int e = oc_cbnest_build(c->n, c->L, D, a == 0 ? D - c->B : 0, a, nest_add, out, &ro, &Dr);
      if (e == OC_OK) {
        out->D = Dr;
        out->ro = ro;
        return OC_OK;
      }
      oc_cb_sol_free(out);
      if (e != OC_EINVAL) return e;
    }
  return OC_OK;
}

int oc_cbcast_new(oc_cbcast **out, int64_t P, int64_t L) {
  oc_cbcast *c;
  cb_ctx x, x1;
  memset(&x, 0, sizeof x);
  memset(&x1, 0, sizeof x1);
  cb_node *nd = NULL;
  cb_sol ns; /* the nested construction's plan, if any (ns.nb > 0) */
  int64_t T, ro = 0, left = CB_PLAN_WORK;
  int e;
  memset(&ns, 0, sizeof ns);
  if (out == NULL) return OC_EINVAL;
  *out = NULL;
  if (P < 1 || P > OC_CBCAST_PROCS_MAX || L < 1 || L > OC_CBCAST_L_MAX) return OC_ERANGE;
  c = (oc_cbcast *)calloc(1, sizeof *c);
  if (c == NULL) return OC_ENOMEM;
  c->P = P;
  c->L = L;
  c->n = P - 1;
  c->B = bfun(L, c->n);
  if (c->B < 0) { free(c); return OC_ENOMEM; }
  c->info.P = P;
  c->info.L = L;
  c->info.B = c->B;
  c->info.bound = P == 1 ? 0 : L + c->B;
  c->info.base_lo = -1;
  if (P <= 2) { /* nothing to arrange: the source sends item i at time i */
    c->s.D = 0;
    c->s.ro = 0;
    c->info.D = 0;
    c->info.delay = P == 1 ? 0 : L;
    c->info.method = OC_CB_DIRECT;
    *out = c;
    return OC_OK;
  }
  T = c->B;
  /* L > CB_KARP_L: the nested construction alone.  Karp's search takes
   * tens of seconds there (L = 22, P = 5000: 19 s) and finds base cases
   * for few P; the nested plans are at the bound for 99.5% of P <= 400 and
   * seen within 2 of it up to P = 10^6 (docs/ALGORITHMS.md). */
  if (L > CB_KARP_L) {
    if ((e = try_nested(c, &ns, c->B + 2 * L + 4)) < 0) goto fail;
    if (ns.nb > 0) goto take_nested;
    if ((e = emit_path(c->n, L, &c->s)) != OC_OK) goto fail;
    c->info.method = OC_CB_PATH;
    goto done;
  }
  if ((e = ctx_init(&x, L, T, 0, &left)) != OC_OK) goto fail;
  c->info.base_lo = x.base_lo;
  /* L = 2: with the slack-1 forms of Theorem 3.5 at once; else optimal
   * first, then trees of larger deadlines */
  if (L == 2 && (e = ctx_init(&x1, L, T, 1, &left)) != OC_OK) goto fail;
  if ((e = plan_n(&x, L == 2 ? &x1 : NULL, c->n, L == 2 ? c->B + 2 * L + 4 : c->B, &nd)) !=
      OC_OK)
    goto fail;
  if (nd->D > c->B && L != 2) {
    node_free(nd);
    nd = NULL;
    if ((e = plan_n(&x, NULL, c->n, c->B + 2 * L + 4, &nd)) != OC_OK) goto fail;
  }
  /* not optimal: the nested construction, if it does better (not for
   * L = 2: Theorem 3.4's gap, where it never did in our scans) */
  if (nd->D > c->B && L != 2 &&
      (e = try_nested(c, &ns, oc_min64(nd->D - 1, c->B + 2 * L + 4))) < 0)
    goto fail;
  if (ns.nb > 0 && ns.D < nd->D) {
  take_nested:
    oc_cb_sol_free(&c->s);
    c->s = ns;
    memset(&ns, 0, sizeof ns);
    c->info.method = OC_CB_NESTED;
  } else if (nd->D > c->B + 2 * L + 4) { /* nothing found: the path */
    if ((e = emit_path(c->n, L, &c->s)) != OC_OK) goto fail;
    c->info.method = OC_CB_PATH;
  } else {
    const cb_ctx *xs = nd->s ? &x1 : &x;
    if ((e = emit_node(&x, &x1, nd, 0, &c->s, &ro)) != OC_OK) goto fail;
    c->s.D = nd->D;
    c->s.ro = ro;
    c->info.slack = nd->method == CB_M_FULL || nd->method == CB_M_SPLIT ? nd->s : 0;
    c->info.method = nd->method == CB_M_FULL
                         ? (xs->how[nd->t] == 1 ? OC_CB_DIRECT : OC_CB_INDUCTION)
                     : nd->method == CB_M_SPLIT ? OC_CB_SPLIT
                                                : OC_CB_SEARCH;
  }
done:
  info_from_sol(c);
  if ((e = finalize(c)) == OC_EINVAL && c->info.method == OC_CB_NESTED) {
    /* not seen: a nested plan that is not a tree with legal words; the path */
    free(c->send_to);
    free(c->recv_from);
    free(c->blk_of);
    c->send_to = c->recv_from = NULL;
    c->blk_of = NULL;
    oc_cb_sol_free(&c->s);
    if ((e = emit_path(c->n, L, &c->s)) != OC_OK) goto fail;
    c->info.method = OC_CB_PATH;
    info_from_sol(c);
    e = finalize(c);
  }
  if (e != OC_OK) goto fail;
  node_free(nd);
  ctx_free(&x);
  ctx_free(&x1);
  oc_cb_sol_free(&ns);
  *out = c;
  return OC_OK;
fail:
  node_free(nd);
  oc_cb_sol_free(&ns);
  ctx_free(&x);
  ctx_free(&x1);
  oc_cbcast_free(c);
  return e;
}

/* ---- the buffered model (Karp et al. section 3.5) -------------------------------
 * A processor may hold arrived items in a buffer and take one a step.  A leaf
 * that arrives with letter x can then be taken as any letter x' <= x (x - x'
 * steps later).  With that freedom every block of the optimal tree (deadline
 * B) gets a legal word: all letters 0 except a chain from position J mod r to
 * r in steps s_1, s_2, ... (position p takes letter = its step), the steps
 * summing to v = -J mod r; the residues are then J, the positions off the
 * chain, the chain's next positions and r = 0: all of Z_r.  A step needs a leaf
 * of at least that letter.  Greedy: blocks by v descending take the largest
 * leaves left; the receive-only processor takes the largest leaf after that
 * (it waits for nothing), the other positions the rest (waiting their whole
 * letter).  Every item then reaches everyone L + B(P-1) after its creation,
 * optimal; k items take L + B(P-1) + k - 1, Theorem 3.8's single-sending
 * optimum.  Returns OC_EINVAL when the leaves' letters do not suffice (not
 * seen in the tests: every L <= 12, P <= 400). */
typedef struct cb_pair { int64_t key, idx; } cb_pair;

static int pair_desc(const void *x, const void *y) {
  const cb_pair *a = (const cb_pair *)x, *b = (const cb_pair *)y;
  if (a->key != b->key) return a->key > b->key ? -1 : 1;
  return (a->idx > b->idx) - (a->idx < b->idx);
}

static int buffered_words(const cb_inst *I, int allow_late, cb_sol *s, int64_t **orig_out,
                          int64_t *late) {
  int64_t A = I->A, *cnt = NULL, *ord = NULL, *v = NULL, top = A - 1, nw = 0, mass = 0;
  int64_t **W = NULL, **O = NULL, ro;
  int e = OC_OK;
  *orig_out = NULL;
  *late = 0;
  cnt = (int64_t *)malloc((size_t)A * sizeof *cnt);
  ord = (int64_t *)malloc((size_t)(I->nn + 1) * sizeof *ord);
  v = (int64_t *)malloc((size_t)(I->nn + 1) * sizeof *v);
  W = (int64_t **)calloc((size_t)(I->nn + 1), sizeof *W);
  O = (int64_t **)calloc((size_t)(I->nn + 1), sizeof *O);
  if (cnt == NULL || ord == NULL || v == NULL || W == NULL || O == NULL) { e = OC_ENOMEM; goto out; }
  memcpy(cnt, I->leaf, (size_t)A * sizeof *cnt);
  for (int64_t i = 0; i < I->nn; i++) {
    int32_t r = I->r[i];
    ord[i] = i;
    v[i] = r > 1 ? (r - I->J[i] % r) % r : 0;
    W[i] = (int64_t *)calloc((size_t)r, sizeof **W);
    O[i] = (int64_t *)malloc((size_t)r * sizeof **O);
    if (W[i] == NULL || O[i] == NULL) { e = OC_ENOMEM; goto out; }
    for (int32_t q = 0; q < r; q++) O[i][q] = -1;
    W[i][0] = O[i][0] = I->J[i];
    nw += r;
  }
  /* blocks by v descending, ties by position (deterministic) */
  {
    cb_pair *pr = (cb_pair *)malloc((size_t)(I->nn + 1) * sizeof *pr);
    if (pr == NULL) { e = OC_ENOMEM; goto out; }
    for (int64_t i = 0; i < I->nn; i++) {
      pr[i].key = v[i];
      pr[i].idx = i;
    }
    qsort(pr, (size_t)I->nn, sizeof *pr, pair_desc);
    for (int64_t i = 0; i < I->nn; i++) ord[i] = pr[i].idx;
    free(pr);
  }
  for (int64_t x = 1; x < A; x++) mass += x * cnt[x];
  for (int64_t k = 0; k < I->nn && e == OC_OK; k++) {
    int64_t i = ord[k], rem = v[i], pos = v[i] ? I->J[i] % I->r[i] : 0;
    if (rem > mass) {
      /* not enough letters left: down instead, from J mod r to 0 in steps
       * of -1 (positions J mod r .. 1 take letter -1: one step after the
       * deadline; any leaves, filled below) */
      if (!allow_late) { e = OC_EINVAL; break; }
      for (int64_t q = 1; q <= pos; q++) W[i][q] = -1;
      *late = 1;
      continue;
    }
    while (rem > 0) {
      int64_t step;
      while (top > 0 && cnt[top] == 0) top--;
      if (top < 1) { e = OC_EINVAL; break; } /* cannot happen: mass >= rem */
      cnt[top]--;
      mass -= top;
      step = top < rem ? top : rem;
      W[i][pos] = step;
      O[i][pos] = top;
      pos += step;
      rem -= step;
    }
  }
  if (e) goto out;
  /* the receive-only processor: the largest leaf left, taken as it comes */
  top = A - 1;
  while (top > 0 && cnt[top] == 0) top--;
  if (cnt[top] == 0) { e = OC_EINVAL; goto out; }
  cnt[top]--;
  ro = top;
  /* the other positions: the rest, taken as a (letter 0) */
  {
    int64_t x = 0;
    for (int64_t i = 0; i < I->nn && e == OC_OK; i++)
      for (int32_t q = 1; q < I->r[i]; q++) {
        if (O[i][q] >= 0) continue;
        while (x < A && cnt[x] == 0) x++;
        if (x == A) { e = OC_EINVAL; break; }
        cnt[x]--;
        O[i][q] = x; /* W[i][q] is 0, or the step down */
      }
    while (e == OC_OK && x < A && cnt[x] == 0) x++;
    if (e == OC_OK && x < A) e = OC_EINVAL; /* leaves left over: not a tree */
  }
  if (e) goto out;
  memset(s, 0, sizeof *s);
  s->D = I->D;
  s->ro = ro;
  *orig_out = (int64_t *)malloc((size_t)(nw + 1) * sizeof **orig_out);
  if (*orig_out == NULL) { e = OC_ENOMEM; goto out; }
  for (int64_t i = 0; i < I->nn && e == OC_OK; i++) {
    memcpy(*orig_out + s->nw, O[i], (size_t)I->r[i] * sizeof **orig_out);
    e = oc_cb_sol_add(s, I->r[i], I->J[i], W[i]);
  }
out:
  if (e && orig_out && *orig_out) { free(*orig_out); *orig_out = NULL; }
  if (e) oc_cb_sol_free(s);
  for (int64_t i = 0; W != NULL && O != NULL && i < I->nn; i++) {
    free(W[i]);
    free(O[i]);
  }
  free(W);
  free(O);
  free(cnt);
  free(ord);
  free(v);
  return e;
}

int oc_cbcast_new_buffered(oc_cbcast **out, int64_t P, int64_t L) {
  oc_cbcast *c;
  cb_inst I;
  int64_t *f = NULL, late = 0;
  int e;
  if (out == NULL) return OC_EINVAL;
  *out = NULL;
  if (P < 1 || P > OC_CBCAST_PROCS_MAX || L < 1 || L > OC_CBCAST_L_MAX) return OC_ERANGE;
  if (P <= 2) { /* nothing to wait for */
    e = oc_cbcast_new(out, P, L);
    if (e == OC_OK) (*out)->info.buffered = 1;
    return e;
  }
  c = (oc_cbcast *)calloc(1, sizeof *c);
  if (c == NULL) return OC_ENOMEM;
  memset(&I, 0, sizeof I);
  c->P = P;
  c->L = L;
  c->n = P - 1;
  c->B = bfun(L, c->n);
  if (c->B < 0 || (f = oc_cb_fseq(L, c->B + 1)) == NULL) { e = OC_ENOMEM; goto fail; }
  if ((e = oc_cb_shape_inst(&I, f, L, c->n, c->B)) != OC_OK) goto fail;
  if ((e = buffered_words(&I, 1, &c->s, &c->orig, &late)) != OC_OK) goto fail;
  c->info.P = P;
  c->info.L = L;
  c->info.B = c->B;
  c->info.bound = L + c->B;
  c->info.base_lo = -1;
  c->info.D = c->s.D;
  c->info.delay = L + c->s.D + late;
  c->info.blocks = c->s.nb;
  c->info.ro = c->s.ro;
  c->info.method = OC_CB_DIRECT;
  c->info.buffered = 1;
  if ((e = finalize(c)) != OC_OK) goto fail;
  for (int64_t i = 0; i < c->s.nw; i++)
    if (slot_wait(c, i) > c->info.max_wait) c->info.max_wait = slot_wait(c, i);
  oc_cb_inst_free(&I);
  free(f);
  *out = c;
  return OC_OK;
fail:
  oc_cb_inst_free(&I);
  free(f);
  oc_cbcast_free(c);
  return e;
}

const oc_cbcast_info *oc_cbcast_get_info(const oc_cbcast *c) { return &c->info; }

int oc_cbcast_block(const oc_cbcast *c, int64_t b, int64_t *r, int64_t *J,
                    const int64_t **word) {
  if (c == NULL || b < 0 || b >= c->s.nb) return OC_ERANGE;
  *r = c->s.b[b].r;
  *J = c->s.b[b].J;
  *word = c->s.w + c->s.b[b].woff;
  return OC_OK;
}

static int64_t mod(int64_t a, int64_t m) {
  int64_t r = a % m;
  return r < 0 ? r + m : r;
}

/* relative processor (0..n-1) receiving at slot enc at time T */
static int64_t slot_proc(const oc_cbcast *c, int64_t enc, int64_t T) {
  const cb_blk *b;
  int64_t q;
  if (enc < 0) return c->n - 1;
  b = &c->s.b[enc >> CB_POS_BITS];
  q = enc & ((1 << CB_POS_BITS) - 1);
  return b->first + mod(T - q, b->r);
}

static int64_t to_abs(int64_t root, int64_t P, int64_t rel) { return (root + 1 + rel) % P; }

int oc_cbcast_step(const oc_cbcast *c, int64_t root, int64_t proc, int64_t T,
                   int64_t k, oc_cbcast_act *recv, oc_cbcast_act *send) {
  int64_t P, rel, L, D;
  if (c == NULL || recv == NULL || send == NULL) return OC_EINVAL;
  P = c->P;
  if (root < 0 || root >= P || proc < 0 || proc >= P || T < 0 || T > OC_TIME_MAX ||
      k < 0 || k > OC_TIME_MAX)
    return OC_ERANGE;
  L = c->L;
  D = c->s.D;
  recv->item = send->item = -1;
  recv->peer = send->peer = -1;
  if (P == 1) return OC_OK;
  if (proc == root) { /* item T to the root block's processor */
    if (T < k) {
      send->item = T;
      send->peer = c->n == 1 ? to_abs(root, P, 0)
                             : to_abs(root, P, slot_proc(c, (c->root_blk << CB_POS_BITS), T + L));
    }
    return OC_OK;
  }
  rel = mod(proc - root - 1, P);
  if (c->n == 1) {
    if (T >= L && T - L < k) { recv->item = T - L; recv->peer = root; }
    return OC_OK;
  }
  {
    int64_t item, enc, from, wait = 0;
    if (rel == c->n - 1) { /* receive-only */
      item = T + c->s.ro - L - D;
      from = c->recv_from[c->s.nw];
    } else {
      int64_t q, s;
      const cb_blk *b = &c->s.b[c->blk_of[rel]]; /* the block holding rel */
      q = rel - b->first;
      s = mod(T - q, b->r);
      item = T + c->s.w[b->woff + s] - L - D;
      from = c->recv_from[b->woff + s];
      wait = slot_wait(c, b->woff + s);
      /* send: child s of the item whose node it received at T - s */
      enc = T - s + b->J - L - D;
      if (enc >= 0 && enc < k) {
        int64_t to = c->send_to[b->soff + s];
        send->item = enc;
        send->peer = to_abs(root, P, slot_proc(c, to, T + L + enc_wait(c, to)));
      }
    }
    if (item >= 0 && item < k) {
      recv->item = item;
      if (from < 0) {
        recv->peer = root;
      } else { /* the sender's processor took its node at T - L - c */
        const cb_blk *sb = &c->s.b[from >> CB_POS_BITS];
        int64_t cc = from & ((1 << CB_POS_BITS) - 1);
        recv->peer = to_abs(root, P, sb->first + mod(T - wait - L - cc, sb->r));
      }
    }
  }
  return OC_OK;
}

static int cb_schedule(const oc_cbcast *c, int64_t root, int64_t k, oc_sched *out, int recv);

int oc_cbcast_schedule(const oc_cbcast *c, int64_t root, int64_t k, oc_sched *out) {
  return cb_schedule(c, root, k, out, 0);
}

int oc_cbcast_schedule_rt(const oc_cbcast *c, int64_t root, int64_t k, oc_sched *out) {
  return cb_schedule(c, root, k, out, 1);
}

/* recv: fill the receive-time column (OC_COL_RECV_AT). */
static int cb_schedule(const oc_cbcast *c, int64_t root, int64_t k, oc_sched *out, int recv) {
  int64_t P, L, D, *rt;
  int e;
  if (c == NULL || out == NULL) return OC_EINVAL;
  P = c->P;
  if (root < 0 || root >= P || k < 0) return OC_ERANGE;
  if (P > 1 && k > OC_CBCAST_MSGS_MAX / (P - 1)) return OC_ERANGE;
  L = c->L;
  D = c->s.D;
  if (recv && (e = oc_sched_add_col(out, OC_COL_RECV_AT)) != OC_OK) return e;
  for (int64_t i = 0; i < k && P > 1; i++) {
    int64_t dst = c->n == 1 ? 0 : slot_proc(c, c->root_blk << CB_POS_BITS, i + L);
    if ((e = oc_sched_push(out, i, root, to_abs(root, P, dst), i)) != OC_OK) return e;
    if ((rt = out->recv_at) != NULL) rt[out->n - 1] = i + L;
    for (int64_t bi = 0; bi < c->s.nb; bi++) {
      const cb_blk *b = &c->s.b[bi];
      int64_t T0 = i + L + D - b->J; /* it receives the item's node then */
      int64_t src = to_abs(root, P, b->first + mod(T0, b->r));
      for (int32_t q = 0; q < b->r; q++) {
        int64_t to = c->send_to[b->soff + q], at = T0 + q + L + enc_wait(c, to);
        int64_t d = slot_proc(c, to, at);
        if ((e = oc_sched_push(out, T0 + q, src, to_abs(root, P, d), i)) != OC_OK) return e;
        if ((rt = out->recv_at) != NULL) rt[out->n - 1] = at;
      }
    }
  }
  return OC_OK;
}

int oc_cbcast_tl(int64_t L, int64_t tmax, int64_t *tl, int64_t *base_lo,
                 unsigned char *form_ok) {
  cb_ctx x;
  int e;
  if (L < 2 || L > 64 || tmax < L || tmax > 64 * L + 64 || tl == NULL || base_lo == NULL)
    return OC_ERANGE;
  if ((e = ctx_init(&x, L, tmax, 0, NULL)) != OC_OK) { ctx_free(&x); return e; }
  *base_lo = x.base_lo;
  *tl = -1;
  if (x.base_lo >= 0) {
    int64_t t0 = x.base_lo;
    while (t0 - 1 >= L && x.how[t0 - 1]) t0--;
    *tl = t0;
  }
  if (form_ok)
    for (int64_t t = 0; t <= tmax; t++) form_ok[t] = (unsigned char)x.how[t];
  ctx_free(&x);
  return OC_OK;
}

const char *oc_cbcast_method_name(int m) {
  switch (m) {
  case OC_CB_DIRECT: return "search (full tree)";
  case OC_CB_INDUCTION: return "induction (Karp 3.3)";
  case OC_CB_SPLIT: return "split (full part + subtree)";
  case OC_CB_SEARCH: return "search (tree of deadline D)";
  case OC_CB_PATH: return "path (fallback)";
  case OC_CB_NESTED: return "nested (a leaf handed up per subtree)";
  }
  return "?";
}
