/* oc_cbcast_int.h - what the continuous broadcast's two files share
 * (oc_cbcast.c: Karp's form, the induction, the plan, the buffered model, the
 * schedule; oc_cbsearch.c: the partition search over an instance's leaf
 * letters).  Not installed. */
#ifndef OC_CBCAST_INT_H
#define OC_CBCAST_INT_H

#include "plan/oc_plan.h"

#ifndef CB_EX_R
#define CB_EX_R 7 /* blocks up to this size: every legal word */
#endif
#define CB_EX_A 512 /* ... when the letters are below this */

typedef struct cb_blk {
  int32_t r;      /* processors = children                               */
  int64_t J;      /* letter of the internal node                         */
  int64_t woff;   /* word at words[woff + 1 .. woff + r - 1]; [woff] = J  */
  int64_t first;  /* its processors: first .. first + r - 1 (relative)   */
  int64_t soff;   /* its send slots c = 0..r-1: send_to[soff + c]        */
} cb_blk;

/* a solution: blocks, words, receive-only letter, deadline */
typedef struct cb_sol {
  int64_t D;        /* deadline: every item is everywhere L + D after creation */
  int64_t ro;       /* receive-only letter                                     */
  int64_t nb, cap;  /* blocks                                                  */
  cb_blk *b;
  int64_t nw, wcap; /* word letters                                            */
  int64_t *w;
} cb_sol;

/* An instance: internal nodes (r, J) and leaf letter counts. */
typedef struct cb_inst {
  int64_t D;
  int64_t nn, cap;   /* internal nodes (unsorted, with multiplicity 1 each) */
  int32_t *r;
  int64_t *J;
  int64_t A;         /* letters 0..A-1 */
  int64_t *leaf;     /* leaf counts by letter */
} cb_inst;

/* f_0 .. f_T of latency L (malloc'd; NULL: out of memory) */
int64_t *oc_cb_fseq(int64_t L, int64_t T);
/* Makes room for `need` elements of `size` bytes in *arr (capacity *cap,
 * doubled from `first`). */
int oc_cb_grow(void **arr, int64_t *cap, int64_t need, size_t size, int64_t first);
void oc_cb_sol_free(cb_sol *s);
int oc_cb_sol_add(cb_sol *s, int32_t r, int64_t J, const int64_t *word);

/* ---- the partition search (oc_cbsearch.c) ---- */
void oc_cb_inst_free(cb_inst *I);
/* The tree for n processors and deadline D (letters relative to D, offset
 * base); *rr the root's child count (0: a leaf). */
int oc_cb_shape(cb_inst *I, const int64_t *f, int64_t L, int64_t n, int64_t D, int64_t base,
             int32_t *rr);
/* The instance of oc_cb_shape for n processors and deadline D; the full tree
 * of f_t processors, deadline t. */
int oc_cb_shape_inst(cb_inst *I, const int64_t *f, int64_t L, int64_t n, int64_t D);
int oc_cb_full_inst(cb_inst *I, const int64_t *f, int64_t L, int64_t t);
/* A solution of the instance: 1 found (into out), 0 none, -1 budget out
 * (want_ro: the receive-only letter, -1 any; root_form: Karp's form). */
int oc_cb_solve_inst(const cb_inst *I, int64_t want_ro, int root_form, int64_t budget,
                  cb_sol *out);
/* The complete search (every word of every block), its steps in *used. */
int oc_cb_solve_exhaustive_form(const cb_inst *I, int root_form, int64_t budget, cb_sol *out,
                             int64_t *used);
int oc_cb_solve_exhaustive(const cb_inst *I, int64_t budget, cb_sol *out);

#endif
