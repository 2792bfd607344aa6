/* oc_internal.h - helpers shared by the library's modules (not installed). */
#ifndef OC_INTERNAL_H
#define OC_INTERNAL_H

#include "optcast.h"

/* Saturating arithmetic on non-negative int64 counts: results cap at OC_SAT. */
static inline int64_t oc_add_sat(int64_t a, int64_t b) {
  return (a > OC_SAT - b) ? OC_SAT : a + b;
}
static inline int64_t oc_mul_sat(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  return (a > OC_SAT / b) ? OC_SAT : a * b;
}
static inline int64_t oc_min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t oc_max64(int64_t a, int64_t b) { return a > b ? a : b; }
/* floor(a / b) for b > 0 and any a. */
static inline int64_t oc_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}
int64_t oc_gcd(int64_t a, int64_t b);

/* Makes room for one more element of size sz in *arr (count n, capacity
 * *cap), growing by half (oc_sched.c).  OC_OK or OC_ENOMEM. */
int oc_grow(void **arr, size_t n, size_t *cap, size_t sz);

/* The reach function's normalised view: labels are multiples of d, so
 * everything runs in units of d with h = (L+2o)/d and G = max(g,o)/d. */
struct oc_reach {
  int64_t h, G, d;  /* normalised step lengths and the scale            */
  int64_t P;        /* processors                                       */
  int64_t T;        /* B(P) / d                                         */
  int64_t *tab;     /* f(0..T), or NULL: closed form                    */
};

/* f in normalised units (t may be negative: 0). */
int64_t oc_reach_fn(const oc_reach *r, int64_t t);
/* min { t : f(t) >= n } in normalised units, for 1 <= n <= P. */
int64_t oc_reach_inv(const oc_reach *r, int64_t n);
/* Closed form of f in normalised units (exposed for the tests). */
int64_t oc_reach_closed(int64_t h, int64_t G, int64_t t);



/* Postorder numbering of a KARP or SHOUCHEN tree (root = position P-1):
 * the node at postorder index x, its parent's index, its label (when the
 * broadcast reaches it), its children. O(log P log B(P)) values of f. */
typedef struct oc_post {
  int64_t pos, parent, label, nchildren;
  int64_t t_, st_, base_;
} oc_post;
int oc_bcast_post_locate(const oc_bcast *b, int64_t x, oc_post *out);
/* child k's postorder index; *label its label */
int64_t oc_bcast_post_child(const oc_bcast *b, const oc_post *v, int64_t k,
                            int64_t *label);

/* Continuous broadcast, the nested block-cyclic construction (oc_cbnest.c).
 * oc_cb_order_word orders w[1..r-1] so that w[0], 1 + w[1], ..., r-1 +
 * w[r-1] are distinct mod r (OC_EINVAL: the sum is not 0 mod r, or the
 * search ran out).  oc_cbnest_build makes a tree of deadline D for n
 * processors (the source's P - 1), its shape cut for deadline D - slack
 * (the rest is room for trades), policy 0 or 1 (how sizes are shared
 * out), and hands each block (r, J = word[0], word) to add, the root's
 * first; *ro the receive-only letter, *Dreal the deadline reached (<= D,
 * letters count from it).  OC_EINVAL: none of this shape. */
typedef int (*oc_cbn_add_fn)(void *ctx, int32_t r, int64_t J, const int64_t *word);
int oc_cb_order_word(int32_t r, int64_t *w, uint64_t seed);
int oc_cbnest_build(int64_t n, int64_t L, int64_t D, int64_t slack, int policy,
                    oc_cbn_add_fn add, void *ctx, int64_t *ro, int64_t *Dreal);

/* k-port rotation for any n (oc_kport_chain.c): a chain of boxes. */
#define KP_CHAIN_MAX 64             /* boxes in a chain                 */
#define KP_CHAIN_CHILDREN 64        /* children of a FRONT; k <= this   */
#define KP_CHAIN_PROCS_MAX ((int64_t)1 << 24)
enum { KP_EL_FRONT = 0, KP_EL_SINGLE = 1, KP_EL_CUBE = 2, KP_EL_SPECIAL = 3 };
typedef struct kp_elem {
  int type;   /* KP_EL_*                                               */
  int e;      /* CUBE: dimension; SPECIAL: k (k+1)^e processors        */
  int spare;  /* FRONT: 1 = hands each message on to the next box     */
  int64_t nch;
  int ch[KP_CHAIN_CHILDREN]; /* FRONT children: 0 = SINGLE, e > 0 = CUBE(e),
                                -(f + 1) = SPECIAL(f)                     */
} kp_elem;
typedef struct kp_chain {
  int64_t n, k, d, len;
  int64_t delay; /* rounds per message: d + 1, or d (oc_kport_chain_find) */
  kp_elem el[KP_CHAIN_MAX];
} kp_chain;
/* OC_EUNSUP when no chain of delay d + 1 was found. */
int oc_kport_chain_find(int64_t n, int64_t k, kp_chain *out);
/* m messages from root (relabelled x -> (x + root) mod n); out may be
 * NULL; *time = the last arrival round. */
int oc_kport_chain_emit(const kp_chain *c, int64_t m, int64_t root,
                        oc_sched *out, int64_t *time);

/* The ring (oc_rrp.c): OC_OK, or OC_EINVAL / OC_ERANGE for a spec that no
 * schedule can answer (problem, N, L, root, segments). */
int oc_rrp_spec_check(const oc_rrp_spec *sp);

/* Verdicts (oc_verify.c): start valid; record a violation, keeping the
 * earliest (time, then processor, then rule order). */
void oc_verdict_init(oc_verdict *v);
void oc_verdict_violate(oc_verdict *v, oc_rule rule, int64_t proc, int64_t at,
                        int64_t item, size_t msg, const char *detail);
/* The LogP rules on messages alone (range with items, send and receive
 * gaps, capacity, overlapping overheads), recorded in v; out-of-range
 * messages are marked in bad[] (s->n entries, zeroed by the caller). */
int oc_verify_message_rules(const oc_params *p, const oc_sched *s, int64_t items,
                            unsigned char *bad, oc_verdict *v);

/* Tests only: drop the table so that every value of f comes from the
 * closed form. */
void oc_bcast_test_closed_form(oc_bcast *b);
#endif
