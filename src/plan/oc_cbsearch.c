/* oc_cbsearch.c - the continuous broadcast's partition search (Karp et al.
 * section 3.2): given an instance - the block tree's internal nodes (r, J)
 * and its leaves' letter counts - find for every block a word of leaf
 * letters that Karp's restrictions accept (J, 1 + w_1, ..., r-1 + w_{r-1}
 * distinct mod r), with one letter left for the receive-only processor.
 * A budgeted depth-first search over candidate multisets (families of
 * consecutive letters, and for blocks up to CB_EX_R every legal word), with
 * a memo of failed states; oc_cbcast_exists runs it to completion.  Its
 * users and the plan are in oc_cbcast.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/oc_cbcast_int.h"

/* ---- the partition search ----------------------------------------------------
 * Blocks sorted by (r, J) descending; each block picks a candidate (a
 * multiset of r-1 letters with a known legal order); the receive-only
 * processor takes the one letter left.  Memo of failed (block, previous
 * candidate for equal types, remaining counts) states. */

typedef struct cb_cand { int64_t cnt[3]; int64_t x; int64_t *word; } cb_cand;
/* family candidates: letters x, x+1, x+2 with counts cnt[0..2]; exhaustive
 * candidates (r <= CB_EX_R) carry their word instead (x = -1). */

typedef struct cb_type {
  int32_t r;
  int64_t J, mult;
  int64_t exsteps;  /* enumeration steps left for the exhaustive words */
  cb_cand *c;
  int64_t nc, cc;
  uint64_t *hkey;   /* exhaustive words' multisets: hash -> found (open      */
  int64_t hcap, hn; /* addressing; a multiset is kept once, by its hash)   */
} cb_type;

typedef struct cb_search {
  int64_t A;          /* letters 0 .. A-1                                 */
  int64_t *rem;       /* remaining letter counts                          */
  int64_t left;       /* letters remaining                                */
  cb_type *ty;
  int64_t nty;
  int64_t steps, budget;
  int64_t want_ro;    /* -1: any                                          */
  int root_form;      /* block 0 restricted to the family word with
                         x = want_ro - 1 and p + 1 + x = J - r (Karp's form:
                         then one more child and one more letter x + 1 keep
                         the word legal, see ctx_init) */
  int64_t *pick;      /* per block (in order): candidate index            */
  /* failure memo: open addressing on a 64-bit hash (collisions only cost
   * completeness of the budgeted search, never correctness: every result is
   * rebuilt and checked) */
  uint64_t *memo;
  int64_t memo_cap, memo_n;
  int64_t *stack;     /* exhaustive mode: the letters chosen, block by block */
  int64_t sp;
} cb_search;

static int cand_push(cb_type *t, const cb_cand *c) {
  int e = oc_cb_grow((void **)&t->c, &t->cc, t->nc + 1, sizeof *t->c, 8);
  if (e) return e;
  t->c[t->nc++] = *c;
  return OC_OK;
}

static int64_t cand_count(const cb_cand *c, int64_t j) {
  if (c->x >= 0) return j >= c->x && j <= c->x + 2 ? c->cnt[j - c->x] : 0;
  return 0;
}

static uint64_t mix(uint64_t h, uint64_t v);

/* every legal word of a small block, one per letter multiset */
static int ex_words(cb_type *t, int64_t A, const int64_t *have, int64_t *w,
                    unsigned char *used, int32_t s) {
  int e;
  if (s == t->r) {
    cb_cand c;
    int64_t *cp;
    /* keep one word per multiset: words generated non-decreasing in the
     * sorted-multiset key are deduplicated by comparing sorted copies */
    int64_t key[CB_EX_R];
    for (int32_t i = 1; i < t->r; i++) key[i - 1] = w[i];
    for (int32_t i = 1; i < t->r - 1; i++) /* insertion sort */
      for (int32_t j = i; j > 0 && key[j - 1] > key[j]; j--) {
        int64_t x = key[j];
        key[j] = key[j - 1];
        key[j - 1] = x;
      }
    {
      /* seen this multiset?  The key is injective (letters < 2^9 = CB_EX_A,
       * at most CB_EX_R - 1 = 6 of them), so equal keys are equal multisets. */
      uint64_t h = 1;
      int64_t slot;
      for (int32_t i = 0; i < t->r - 1; i++) h = (h << 9) | (uint64_t)key[i];
      if (t->hn * 2 >= t->hcap) { /* grow and rehash */
        int64_t nc2 = t->hcap ? 2 * t->hcap : 64;
        uint64_t *nk = (uint64_t *)calloc((size_t)nc2, sizeof *nk);
        if (nk == NULL) return OC_ENOMEM;
        for (int64_t k = 0; k < t->hcap; k++)
          if (t->hkey[k]) {
            int64_t q = (int64_t)(mix(0, t->hkey[k]) & (uint64_t)(nc2 - 1));
            while (nk[q]) q = (q + 1) & (nc2 - 1);
            nk[q] = t->hkey[k];
          }
        free(t->hkey);
        t->hkey = nk;
        t->hcap = nc2;
      }
      slot = (int64_t)(mix(0, h) & (uint64_t)(t->hcap - 1));
      while (t->hkey[slot] && t->hkey[slot] != h) slot = (slot + 1) & (t->hcap - 1);
      if (t->hkey[slot] == h) return OC_OK;
      t->hkey[slot] = h;
      t->hn++;
    }
    cp = (int64_t *)malloc((size_t)t->r * sizeof *cp);
    if (cp == NULL) return OC_ENOMEM;
    memcpy(cp, w, (size_t)t->r * sizeof *cp);
    memset(&c, 0, sizeof c);
    c.x = -1;
    c.word = cp;
    if ((e = cand_push(t, &c)) != OC_OK) free(cp);
    return e;
  }
  for (int64_t j = 0; j < A; j++) {
    int64_t x = (s + j) % t->r;
    if (used[x] || have[j] == 0) continue;
    if (--t->exsteps < 0) return OC_OK; /* enough: the search is budgeted anyway */
    used[x] = 1;
    w[s] = j;
    e = ex_words(t, A, have, w, used, s + 1);
    used[x] = 0;
    if (e) return e;
  }
  return OC_OK;
}

static int make_cands(cb_type *t, int64_t A, const int64_t *have, int64_t root_x,
                      int32_t ex_r) {
  int e;
  for (int64_t x = root_x >= 0 ? root_x : 0; x < A; x++) {
    int64_t p0 = (((t->J - 1 - x) % t->r) + t->r) % t->r;
    if (root_x >= 0 && (x != root_x || p0 != t->J - t->r - 1 - x)) break;
    for (int64_t m = 0; p0 + 2 * m <= t->r - 1; m++) {
      cb_cand c;
      int64_t n = t->r - 1 - p0 - 2 * m;
      if ((m > 0 && x + 2 >= A) || (n > 0 && x + 1 >= A)) continue;
      memset(&c, 0, sizeof c);
      c.x = x;
      c.cnt[0] = p0 + m;
      c.cnt[1] = n;
      c.cnt[2] = m;
      if ((e = cand_push(t, &c)) != OC_OK) return e;
    }
  }
  if (t->r <= ex_r && root_x < 0 && A <= CB_EX_A) {
    int64_t w[CB_EX_R + 1];
    unsigned char used[CB_EX_R + 1];
    memset(used, 0, sizeof used);
    used[t->J % t->r] = 1;
    t->exsteps = 20000;
    w[0] = t->J;
    if ((e = ex_words(t, A, have, w, used, 1)) != OC_OK) return e;
  }
  return OC_OK;
}

static int64_t cand_get(const cb_cand *c, int32_t r, int64_t j) {
  int64_t k = 0;
  if (c->x >= 0) return cand_count(c, j);
  for (int32_t i = 1; i < r; i++) k += c->word[i] == j;
  return k;
}

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

static uint64_t state_hash(const cb_search *S, int64_t blk, int64_t prev) {
  uint64_t h = mix(0x1234567ULL, (uint64_t)blk);
  h = mix(h, (uint64_t)prev);
  for (int64_t j = 0; j < S->A; j++) h = mix(h, (uint64_t)S->rem[j]);
  return h | 1;
}

static int memo_has(const cb_search *S, uint64_t h) {
  if (S->memo_cap == 0) return 0;
  for (int64_t i = (int64_t)(h % (uint64_t)S->memo_cap);; i = (i + 1) % S->memo_cap) {
    if (S->memo[i] == 0) return 0;
    if (S->memo[i] == h) return 1;
  }
}

static void memo_add(cb_search *S, uint64_t h) {
  if (S->memo_cap == 0 || 2 * (S->memo_n + 1) > S->memo_cap) {
    int64_t nc = S->memo_cap ? 2 * S->memo_cap : 4096;
    uint64_t *n = (uint64_t *)calloc((size_t)nc, sizeof *n);
    if (n == NULL) return; /* no memo: only slower */
    for (int64_t k = 0; k < S->memo_cap; k++)
      if (S->memo[k])
        for (int64_t i = (int64_t)(S->memo[k] % (uint64_t)nc);; i = (i + 1) % nc)
          if (n[i] == 0) { n[i] = S->memo[k]; break; }
    free(S->memo);
    S->memo = n;
    S->memo_cap = nc;
  }
  for (int64_t i = (int64_t)(h % (uint64_t)S->memo_cap);; i = (i + 1) % S->memo_cap)
    if (S->memo[i] == 0) { S->memo[i] = h; S->memo_n++; return; }
}

/* Exhaustive mode (Hall): block (r, J) takes any r-1 letters with J + sum
 * = 0 (mod r); chosen letter by letter in non-decreasing order.  Returns 1
 * found, 0 none exists, -1 budget. */
static int dfs_ex(cb_search *S, int64_t ti, int64_t k, int64_t need, int64_t sum,
                  int64_t minj) {
  cb_type *t;
  int r;
  if (++S->steps > S->budget) return -1;
  if (need == 0) { /* between blocks */
    uint64_t h;
    while (ti < S->nty && (k >= S->ty[ti].mult || S->ty[ti].r == 1)) {
      ti++;
      k = 0;
    }
    if (ti == S->nty) return S->left == 1;
    h = state_hash(S, ti * 1000003 + k, -7);
    if (memo_has(S, h)) return 0;
    t = &S->ty[ti];
    r = dfs_ex(S, ti, k, t->r - 1, t->J % t->r, 0);
    if (r == 0) memo_add(S, h);
    return r;
  }
  t = &S->ty[ti];
  for (int64_t j = minj; j < S->A; j++) {
    if (S->rem[j] == 0) continue;
    if (need == 1 && (sum + j) % t->r != 0) continue;
    S->rem[j]--;
    S->left--;
    if (S->stack) S->stack[S->sp++] = j;
    r = need == 1 ? dfs_ex(S, ti, k + 1, 0, 0, 0)
                  : dfs_ex(S, ti, k, need - 1, (sum + j) % t->r, j);
    if (r != 0) return r; /* found: the stack keeps the choice */
    if (S->stack) S->sp--;
    S->rem[j]++;
    S->left++;
  }
  return 0;
}

/* Constructive mode: candidates. Returns 1 found, 0 none, -1 budget. */
static int dfs_c(cb_search *S, int64_t ti, int64_t k, int64_t prev, int64_t pos) {
  cb_type *t;
  uint64_t h;
  int r;
  if (++S->steps > S->budget) return -1;
  while (ti < S->nty && k >= S->ty[ti].mult) { ti++; k = 0; prev = 0; }
  if (ti == S->nty) {
    if (S->left != 1) return 0;
    if (S->want_ro >= 0 && S->rem[S->want_ro] != 1) return 0;
    return 1;
  }
  t = &S->ty[ti];
  h = state_hash(S, ti * 1000003 + k, k ? prev : -1);
  if (memo_has(S, h)) return 0;
  for (int64_t ci = k ? prev : 0; ci < t->nc; ci++) {
    const cb_cand *c = &t->c[ci];
    int fits = 1;
    if (ti == 0 && S->root_form && c->x != S->want_ro - 1) continue;
    for (int64_t j = 0; j < S->A && fits; j++)
      if (cand_get(c, t->r, j) > S->rem[j]) fits = 0;
    if (!fits) continue;
    for (int64_t j = 0; j < S->A; j++) S->rem[j] -= cand_get(c, t->r, j);
    S->left -= t->r - 1;
    S->pick[pos] = ci;
    r = dfs_c(S, ti, k + 1, ci, pos + 1);
    for (int64_t j = 0; j < S->A; j++) S->rem[j] += cand_get(c, t->r, j);
    S->left += t->r - 1;
    if (r != 0) return r;
  }
  memo_add(S, h);
  return 0;
}


void oc_cb_inst_free(cb_inst *I) {
  free(I->r);
  free(I->J);
  free(I->leaf);
  memset(I, 0, sizeof *I);
}

static int inst_node(cb_inst *I, int32_t r, int64_t J) {
  int64_t rcap = I->cap;
  int e = oc_cb_grow((void **)&I->r, &rcap, I->nn + 1, sizeof *I->r, 16);
  if (e || (e = oc_cb_grow((void **)&I->J, &I->cap, I->nn + 1, sizeof *I->J, 16))) return e;
  I->r[I->nn] = r;
  I->J[I->nn] = J;
  I->nn++;
  return OC_OK;
}

/* The tree for n processors and deadline D: the root's first child takes
 * n1 = clamp(n - f_{D-1}, 1, f_{D-L}) processors (deadline D - L), the root
 * keeps sending as the root of the other n - n1 (deadline D - 1).  Node
 * letters are relative to D.  Returns the root's child count through *rr
 * (0: a leaf). */
int oc_cb_shape(cb_inst *I, const int64_t *f, int64_t L, int64_t n, int64_t D, int64_t base,
             int32_t *rr) {
  /* iterative over the root part: the root sends at delays 0, 1, ..., each
   * child subtree with deadline D - L - c */
  int64_t c = 0;
  int e;
  int32_t rc;
  while (n > 1) {
    int64_t Dc = D - c;            /* deadline of the remaining root part */
    int64_t cap1 = Dc - L >= 0 ? f[Dc - L] : 0;
    int64_t rest = Dc - 1 >= 0 ? f[Dc - 1] : 1;
    int64_t n1 = n - rest;
    if (cap1 == 0) return OC_EINVAL; /* n does not fit in the deadline */
    if (n1 < 1) n1 = 1;
    if (n1 > cap1) n1 = cap1;
    if ((e = oc_cb_shape(I, f, L, n1, Dc - L, base, &rc)) != OC_OK) return e;
    n -= n1;
    c++;
  }
  *rr = (int32_t)c;
  if (c == 0) { /* a leaf with letter D */
    if (D + base >= I->A) return OC_EINVAL;
    I->leaf[D + base]++;
    return OC_OK;
  }
  return inst_node(I, (int32_t)c, D + base);
}

/* descending (tried ascending: slower on the base cases); the root
 * (largest r) is the first type */
static int type_cmp(const void *x, const void *y) {
  const cb_type *a = (const cb_type *)x, *b = (const cb_type *)y;
  if (a->r != b->r) return a->r > b->r ? -1 : 1;
  return (a->J < b->J) - (a->J > b->J);
}

static void types_free(cb_type *ty, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    for (int64_t k = 0; k < ty[i].nc; k++) free(ty[i].c[k].word);
    free(ty[i].c);
    free(ty[i].hkey);
  }
  free(ty);
}

/* Groups an instance's nodes into types (r, J), sorted by type_cmp. */
static int make_types(const cb_inst *I, cb_type **out, int64_t *nty) {
  cb_type *ty = (cb_type *)calloc((size_t)(I->nn ? I->nn : 1), sizeof *ty);
  int64_t n = 0;
  if (ty == NULL) return OC_ENOMEM;
  for (int64_t i = 0; i < I->nn; i++) {
    int64_t k;
    for (k = 0; k < n; k++)
      if (ty[k].r == I->r[i] && ty[k].J == I->J[i]) break;
    if (k == n) {
      ty[n].r = I->r[i];
      ty[n].J = I->J[i];
      n++;
    }
    ty[k].mult++;
  }
  qsort(ty, (size_t)n, sizeof *ty, type_cmp);
  *out = ty;
  *nty = n;
  return OC_OK;
}

/* Builds the word of candidate c for block (r, J) into w[0..r) (w[0] = J). */
static void cand_word(const cb_cand *c, int32_t r, int64_t J, int64_t *w) {
  if (c->x < 0) {
    memcpy(w, c->word, (size_t)r * sizeof *w);
    return;
  }
  w[0] = J;
  {
    int64_t p = c->cnt[0] - c->cnt[2], s = 1;
    for (int64_t i = 0; i < p; i++) w[s++] = c->x;
    for (int64_t i = 0; i < c->cnt[2]; i++) {
      w[s++] = c->x + 2;
      w[s++] = c->x;
    }
    for (int64_t i = 0; i < c->cnt[1]; i++) w[s++] = c->x + 1;
  }
}

/* Solves an instance: 1 solved (*out filled, blocks in type order, root
 * first), 0 no solution among the candidates, -1 budget, < -1 error. */
static int solve_inst1(const cb_inst *I, int64_t want_ro, int root_form, int64_t budget,
                       int32_t ex_r, cb_sol *out) {
  cb_search S;
  int r, e;
  int64_t pos = 0;
  memset(&S, 0, sizeof S);
  S.A = I->A;
  S.budget = budget;
  S.want_ro = want_ro;
  S.root_form = root_form;
  if (want_ro >= I->A) return 0;
  if ((e = make_types(I, &S.ty, &S.nty)) != OC_OK) return e;
  S.rem = (int64_t *)malloc((size_t)I->A * sizeof *S.rem);
  S.pick = (int64_t *)malloc((size_t)(I->nn + 1) * sizeof *S.pick);
  if (S.rem == NULL || S.pick == NULL) { r = OC_ENOMEM; goto out; }
  memcpy(S.rem, I->leaf, (size_t)I->A * sizeof *S.rem);
  for (int64_t j = 0; j < I->A; j++) S.left += S.rem[j];
  for (int64_t i = 0; i < S.nty; i++) {
    if ((e = make_cands(&S.ty[i], I->A, I->leaf,
                        root_form && i == 0 && want_ro >= 1 ? want_ro - 1 : -1, ex_r)) != OC_OK) {
      r = e;
      goto out;
    }
  }
  r = dfs_c(&S, 0, 0, 0, 0);
  if (r == 1) {
    /* the root (the first type) first: the induction expects it there */
    memset(out, 0, sizeof *out);
    out->D = I->D;
    for (int64_t i = 0; i < S.nty; i++) {
      for (int64_t k = 0; k < S.ty[i].mult; k++) {
        const cb_cand *c = &S.ty[i].c[S.pick[pos++]];
        int64_t *word = (int64_t *)malloc((size_t)S.ty[i].r * sizeof *word);
        if (word == NULL) { r = OC_ENOMEM; goto out; }
        cand_word(c, S.ty[i].r, S.ty[i].J, word);
        for (int64_t j = 0; j < I->A; j++) S.rem[j] -= cand_get(c, S.ty[i].r, j);
        e = oc_cb_sol_add(out, S.ty[i].r, S.ty[i].J, word);
        free(word);
        if (e) { r = e; goto out; }
      }
    }
    for (int64_t j = 0; j < I->A; j++)
      if (S.rem[j] == 1) out->ro = j;
  }
out:
  if (r < -1) oc_cb_sol_free(out);
  free(S.rem);
  free(S.pick);
  free(S.memo);
  types_free(S.ty, S.nty);
  return r;
}

/* First with the family words only (blocks up to 3 also exhaustive): few
 * candidates, fast; then with every word of blocks up to CB_EX_R. */
int oc_cb_solve_inst(const cb_inst *I, int64_t want_ro, int root_form, int64_t budget,
                  cb_sol *out) {
  int r = solve_inst1(I, want_ro, root_form, budget, 3, out);
  if (r == 0 || r == -1) r = solve_inst1(I, want_ro, root_form, budget, CB_EX_R, out);
  return r;
}

/* Orders the multiset let[0..r-2] into a legal word for (r, J) (w[0] = J);
 * Hall's theorem says one exists when J + sum = 0 (mod r).  Depth-first,
 * for small blocks.  Returns 1 found, 0 none, -1 budget. */
static int order_word(int32_t r, int64_t *let, unsigned char *usedl, unsigned char *res,
                      int64_t *w, int32_t s, int64_t *budget) {
  if (s == r) return 1;
  if (--*budget < 0) return -1;
  for (int32_t i = 0; i < r - 1; i++) {
    int64_t x;
    int rr;
    if (usedl[i] || (i > 0 && !usedl[i - 1] && let[i - 1] == let[i])) continue;
    x = (s + let[i]) % r;
    if (res[x]) continue;
    usedl[i] = res[x] = 1;
    w[s] = let[i];
    rr = order_word(r, let, usedl, res, w, s + 1, budget);
    usedl[i] = res[x] = 0;
    if (rr) return rr;
  }
  return 0;
}

/* The blocks of types first_ty.. from the exhaustive search's stack (their
 * letters, block by block), each ordered into a legal word. */
static int ex_build(cb_search *S, int64_t first_ty, cb_sol *out) {
  int64_t pos = 0;
  int r = 1, e;
  for (int64_t i = first_ty; i < S->nty && r == 1; i++)
    for (int64_t k = 0; k < S->ty[i].mult && r == 1; k++) {
      int32_t rb = S->ty[i].r;
      int64_t *w = (int64_t *)calloc((size_t)rb, sizeof *w), ob = 200000;
      unsigned char *ul = (unsigned char *)calloc((size_t)rb + 1, 1);
      unsigned char *rs = (unsigned char *)calloc((size_t)rb + 1, 1);
      int o = 0;
      if (w == NULL || ul == NULL || rs == NULL) {
        r = OC_ENOMEM;
      } else {
        w[0] = S->ty[i].J;
        rs[S->ty[i].J % rb] = 1;
        if (rb > 1) {
          o = order_word(rb, S->stack + pos, ul, rs, w, 1, &ob);
          pos += rb - 1;
        } else {
          o = 1;
        }
        if (o != 1) r = o == 0 ? OC_EINVAL : -1; /* 0 would contradict Hall */
        else if ((e = oc_cb_sol_add(out, rb, S->ty[i].J, w)) != OC_OK) r = e;
      }
      free(w);
      free(ul);
      free(rs);
    }
  return r;
}

/* Complete search for small instances: a partition by Hall's criterion,
 * then each block's letters ordered.  1 found, 0 none exists, -1 budget.
 * root_form: the root (the first type, alone) takes Karp's form word
 * a^p (ca)^m b^n (p + 1 = J - r; every m tried) and the receive-only
 * processor b, the rest is searched - the base cases of the induction. */
int oc_cb_solve_exhaustive_form(const cb_inst *I, int root_form, int64_t budget, cb_sol *out,
                             int64_t *used) {
  cb_search S;
  int r = 0, e;
  memset(&S, 0, sizeof S);
  memset(out, 0, sizeof *out);
  S.A = I->A;
  S.budget = budget;
  S.want_ro = -1;
  if ((e = make_types(I, &S.ty, &S.nty)) != OC_OK) return e;
  S.rem = (int64_t *)malloc((size_t)I->A * sizeof *S.rem);
  S.stack = (int64_t *)malloc((size_t)(I->A + 1) * (size_t)(I->nn + 1) * sizeof *S.stack);
  if (S.rem == NULL || S.stack == NULL) { r = OC_ENOMEM; goto out; }
  memcpy(S.rem, I->leaf, (size_t)I->A * sizeof *S.rem);
  for (int64_t j = 0; j < I->A; j++) S.left += S.rem[j];
  if (!root_form) {
    r = dfs_ex(&S, 0, 0, 0, 0, 0);
    if (r == 1) {
      memset(out, 0, sizeof *out);
      out->D = I->D;
      r = ex_build(&S, 0, out);
    }
  } else if (S.nty > 0 && S.ty[0].mult == 1 && S.ty[0].r > 1 && I->A > 2 &&
             S.rem[1] > 0) {
    const cb_type *rt = &S.ty[0];
    int64_t p = rt->J - rt->r - 1;
    S.rem[1]--; /* the receive-only processor's b, set aside (S.left keeps
                   counting it: the search ends with one letter left) */
    S.want_ro = -1;
    for (int64_t m = 0; p >= 0 && p + 2 * m <= rt->r - 1 && r == 0; m++) {
      int64_t n = rt->r - 1 - p - 2 * m;
      if (S.rem[0] < p + m || S.rem[2] < m || S.rem[1] < n) continue;
      S.rem[0] -= p + m;
      S.rem[2] -= m;
      S.rem[1] -= n;
      S.left -= rt->r - 1;
      S.sp = 0;
      r = dfs_ex(&S, 1, 0, 0, 0, 0);
      if (r == 1) {
        int64_t *w = (int64_t *)malloc((size_t)rt->r * sizeof *w);
        cb_cand c;
        memset(&c, 0, sizeof c);
        c.x = 0;
        c.cnt[0] = p + m;
        c.cnt[1] = n;
        c.cnt[2] = m;
        memset(out, 0, sizeof *out);
        out->D = I->D;
        if (w == NULL) {
          r = OC_ENOMEM;
        } else {
          cand_word(&c, rt->r, rt->J, w);
          if ((e = oc_cb_sol_add(out, rt->r, rt->J, w)) != OC_OK) r = e;
          free(w);
        }
        if (r == 1) r = ex_build(&S, 1, out);
        break;
      }
      S.rem[0] += p + m;
      S.rem[2] += m;
      S.rem[1] += n;
      S.left += rt->r - 1;
    }
  }
  if (r == 1 && !root_form)
    for (int64_t j = 0; j < I->A; j++)
      if (S.rem[j] == 1) out->ro = j;
  if (r == 1 && root_form) out->ro = 1;
out:
  if (r != 1) oc_cb_sol_free(out); /* a partial build (budget, memory) */
  if (used != NULL) *used = S.steps < budget ? S.steps : budget;
  free(S.rem);
  free(S.stack);
  free(S.memo);
  types_free(S.ty, S.nty);
  return r;
}

int oc_cb_solve_exhaustive(const cb_inst *I, int64_t budget, cb_sol *out) {
  return oc_cb_solve_exhaustive_form(I, 0, budget, out, NULL);
}

/* The instance of oc_cb_shape() for n processors and deadline D. */
int oc_cb_shape_inst(cb_inst *I, const int64_t *f, int64_t L, int64_t n, int64_t D) {
  int32_t rr;
  memset(I, 0, sizeof *I);
  I->D = D;
  I->A = D + 1;
  I->leaf = (int64_t *)calloc((size_t)I->A, sizeof *I->leaf);
  if (I->leaf == NULL) return OC_ENOMEM;
  return oc_cb_shape(I, f, L, n, D, 0, &rr);
}

/* The full tree of f_t processors, deadline t. */
int oc_cb_full_inst(cb_inst *I, const int64_t *f, int64_t L, int64_t t) {
  return oc_cb_shape_inst(I, f, L, f[t], t);
}

int oc_cbcast_exists(int64_t L, int64_t t, int64_t budget, int *result) {
  cb_inst I;
  cb_search S;
  int64_t *f;
  int e, r;
  if (L < 1 || L > 64 || t < 0 || t > 64 * L || budget < 1 || result == NULL)
    return OC_ERANGE;
  if ((f = oc_cb_fseq(L, t)) == NULL) return OC_ENOMEM;
  e = oc_cb_full_inst(&I, f, L, t);
  free(f);
  if (e) { oc_cb_inst_free(&I); return e; }
  memset(&S, 0, sizeof S);
  S.A = I.A;
  S.budget = budget;
  S.want_ro = -1;
  if ((e = make_types(&I, &S.ty, &S.nty)) != OC_OK) { oc_cb_inst_free(&I); return e; }
  S.rem = I.leaf;
  for (int64_t j = 0; j < I.A; j++) S.left += S.rem[j];
  r = dfs_ex(&S, 0, 0, 0, 0, 0);
  *result = r;
  free(S.memo);
  types_free(S.ty, S.nty);
  oc_cb_inst_free(&I);
  return OC_OK;
}

