/* oc_plan.h - what the planners share among themselves (and with the tests):
 * the broadcast tree's postorder view, the continuous broadcast's nested
 * construction, the k-port chains of boxes, the ring's problem check.  Not
 * installed. */
#ifndef OC_PLAN_H
#define OC_PLAN_H

#include "core/oc_core.h"

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
/* The same with a delay up to d + 1 + slack (0 <= slack <= 8). */
int oc_kport_chain_find_slack(int64_t n, int64_t k, int64_t slack, kp_chain *out);
/* Delay d + 2 and no SINGLE box at position d + 2: every processor then
 * gets a message of the batch after the last within d + 1 rounds (the
 * last message's spread by replacement, oc_kport.c). */
int oc_kport_chain_find_tail(int64_t n, int64_t k, kp_chain *out);
/* m messages from root (relabelled x -> (x + root) mod n); out may be
 * NULL; *time = the last arrival round. */
int oc_kport_chain_emit(const kp_chain *c, int64_t m, int64_t root,
                        oc_sched *out, int64_t *time);
/* Items i0..m-1 of it (*time: their last arrival). */
int oc_kport_chain_emit_range(const kp_chain *c, int64_t i0, int64_t m, int64_t root,
                              oc_sched *out, int64_t *time);

/* The ring (oc_rrp.c): OC_OK, or OC_EINVAL / OC_ERANGE for a spec that no
 * schedule can answer (problem, N, L, root, segments). */
int oc_rrp_spec_check(const oc_rrp_spec *sp);

/* Tests only: drop the table so that every value of f comes from the
 * closed form. */
void oc_bcast_test_closed_form(oc_bcast *b);


/* ---- LogP send programs (oc_lprog.c) and their shapes (oc_lpshape.c) -----------
 * A multi-packet broadcast as a program per processor: the sends it issues,
 * in order.  Programs are written by relative rank (v is rank (v + root)
 * mod P) 0, 1, ..., P-1: oc_lprog_begin(b, v), then v's sends with
 * oc_lp_emit (destination as a relative rank, first item, packets);
 * oc_lprog_finish puts them in rank order; oc_lprog_run times them under
 * LogP (each send as early as the rules allow, in program order) and
 * returns the completion time, and the schedule when out is not NULL.
 * Errors while writing are kept in b->err (finish returns them). */
typedef struct oc_lp_op {
  int64_t dst, item, len;
} oc_lp_op;
typedef struct oc_lprog {
  int64_t P, m, root;
  int64_t release; /* the root may send packet i from i * release on (0: all
                      at once): paces a pipeline to what its relays forward */
  int send_first;  /* 1: a processor with a send ready keeps its slot against
                      incoming receptions (oc_lprog.c); 0: pure greedy        */
  oc_lp_op *op;
  size_t n, cap;
  size_t *off; /* off[q] .. off[q+1]: q's sends in issue order */
  int64_t *src; /* NULL: the root holds every packet; else packet i starts at
                   rank src[i] alone (a spread: reduce-scatter + allgather) */
  int64_t *at;  /* NULL, or each send's earliest start (oc_lp_emit_at: a
                   construction with slots of its own, the circulant)     */
  int64_t sx;   /* added to every send overhead (0; a reduction's exact
                   reversal puts the receiver's addition there: oc_mreduce.c) */
  int err;
} oc_lprog;
int oc_lprog_init(oc_lprog *b, int64_t P, int64_t m, int64_t root);
void oc_lprog_free(oc_lprog *b);
void oc_lprog_begin(oc_lprog *b, int64_t v);
int64_t oc_lp_act(const oc_lprog *b, int64_t v); /* relative rank -> rank */
void oc_lp_emit(oc_lprog *b, int64_t dst_rel, int64_t item, int64_t len);
/* the same, not to start before t */
void oc_lp_emit_at(oc_lprog *b, int64_t dst_rel, int64_t item, int64_t len, int64_t t);
int64_t oc_lp_nsegs(int64_t lo, int64_t hi, int64_t seg); /* seg <= 0: one */
void oc_lp_emit_seg(oc_lprog *b, int64_t dst, int64_t lo, int64_t hi, int64_t seg,
                    int64_t j);
int oc_lprog_finish(oc_lprog *b);
int oc_lprog_run(const oc_params *p, const oc_lprog *b, oc_sched *out, int64_t *time);

/* Shapes: trees (children in the libraries' send order), segments of seg
 * packets (seg <= 0: the whole message).  KNOMIAL takes the radix k in
 * 2..OC_LP_RADIX_MAX. */
#define OC_LP_RADIX_MAX 64
typedef enum oc_lp_shape { OC_LP_CHAIN = 0, OC_LP_BINARY, OC_LP_KNOMIAL, OC_LP_BMTREE } oc_lp_shape;
void oc_lp_tree(oc_lprog *b, oc_lp_shape shape, int64_t k, int64_t seg);
/* relative rank v's children in the shape, in send order (at most cap:
 * OC_LP_CHILDREN_MAX is always enough); returns how many */
#define OC_LP_CHILDREN_MAX (64 * OC_LP_RADIX_MAX) /* a k-nomial node's, P < 2^64 */
int64_t oc_lp_children(oc_lp_shape shape, int64_t P, int64_t v, int64_t k, int64_t *ch,
                       int64_t cap);
void oc_lp_linear(oc_lprog *b);
void oc_lp_split(oc_lprog *b, int64_t seg);
void oc_lp_scatter_allgather(oc_lprog *b, int ring);
int oc_lp_twotree(oc_lprog *b, int64_t seg);
int oc_lp_multitree(oc_lprog *b, int64_t d, int64_t seg); /* 2 <= d <= P-1 */
int oc_lp_karp(oc_lprog *b, const oc_params *p, int64_t seg);
/* Bar-Noy & Kipnis's PIPELINE carried into LogP (the runtime's broadcast):
 * Karp's tree for a child that takes the whole stream of k segments (gap
 * k s G), each node streaming all k segments to its first child, then to
 * the next */
int oc_lp_pipeline(oc_lprog *b, const oc_params *p, int64_t seg);
/* rarest segment first (oc_lpshape.c): at most OC_LP_RAREST_MAX segments
 * (OC_ERANGE beyond) */
#define OC_LP_RAREST_MAX 32
int oc_lp_rarest(oc_lprog *b, const oc_params *p, int64_t seg);
/* the circulant broadcast (oc_lpshape.c): ns interleaved streams of segments
 * (segment j in stream j mod ns), ns <= OC_LP_CIRC_STREAMS (0: the most packets
 * a round, oc_lp_circ_streams; more streams than segments leave some empty),
 * segments of at most OC_LP_CIRC_SEG packets, Traff's schedule (oc_circsched.c)
 * in fixed LogP slots. */
#define OC_LP_CIRC_STREAMS 32
#define OC_LP_CIRC_SEG 16 /* packets a segment at most */
/* the receive table's work P q (q+1) at most (well under a second at P = 2^20):
 * beyond, OC_ERANGE, as the table would cost far more than the broadcast */
#define OC_LP_CIRC_WORK ((int64_t)1 << 29)
int oc_lp_circulant(oc_lprog *b, const oc_params *p, int64_t ns, int64_t seg);
/* the stream counts worth trying for segments of s packets: those whose
 * round carries more packets per unit of time than any fewer streams' (ns[],
 * increasing; D[] their round lengths when not NULL); returns how many (-1:
 * out of memory); sends take o + sx (oc_lprog.sx) */
int64_t oc_lp_circ_streams(const oc_params *p, int64_t sx, int64_t s, int64_t *ns, int64_t *D);
int oc_lp_circ_skips(int64_t P, int variant, int64_t *s); /* 0: Traff's; 1: powers of two */
/* the circulant's streams (*ns; 0 asks for the most packets a round), their
 * phases ph[] and the round D for m packets in segments of seg (0: whole),
 * sends of o + sx: as oc_lp_circulant lays them out */
int oc_lp_circ_layout(const oc_params *p, int64_t sx, int64_t m, int64_t seg, int64_t *ns,
                      int64_t *ph, int64_t *D);
/* every relative rank's receive schedule R (oc_circ_recv): *R[r q + k] (P q
 * bytes, row 0 unused) is the caller's to free; s and *q as
 * oc_lp_circ_skips(P, 0).  OC_ERANGE where P q (q+1) is past OC_LP_CIRC_WORK
 * (nothing allocated then) */
int oc_lp_circ_table(int64_t P, int64_t *s, int *q, int8_t **R);
/* the block (0 .. n-1) that a rank receives in round i of a stream of n
 * blocks when its R[i mod q] is rk; -1: none.  The stream's rounds are
 * i = x .. x + n - 2 + q, x = (q - (n-1) mod q) mod q (its round i - x) */
int64_t oc_lp_circ_block(int q, int rk, int64_t n, int64_t i);
int64_t oc_lp_circ_first(int q, int64_t n); /* that x: a stream's first round */

/* kbcast: Karp et al.'s reception count for any lambda (oc_kbcast.c): the
 * least T by which m (P - 1) receptions fit; -1 if it cannot be computed */
int64_t oc_kbcast_recv_bound(const oc_params *p, int64_t m);

/* Bar-Noy & Kipnis's BCAST (OC_BCAST_BARNOY): the root's last send start
 * (-1: no children), as oc_bcast_schedule would place it, in O(children);
 * -2 for the other algorithms */
int64_t oc_bcast_barnoy_root_last(const oc_bcast *b);

/* kbcast's circulant (lambda = 1) seen from one rank: step(ctx, t, peer,
 * item, 0) for each reception (t its send start), (.., 1) for each send, in
 * no particular order; O(q^3 + q (m + q)) time, O(q) memory, no O(P)
 * state.  OC_EUNSUP unless postal lambda = 1. */
typedef int (*oc_kb_step_fn)(void *ctx, int64_t t, int64_t peer, int64_t item, int send);
int oc_kbcast_circulant_rank(const oc_params *p, int64_t root, int64_t m, int64_t rank,
                             oc_kb_step_fn step, void *ctx);

/* Traff's round-optimal schedule, rank by rank (oc_circsched.c): s from
 * oc_lp_circ_skips(P, 0, s), q = ceil(log2 P) <= 62.  R[k] (S[k]), k < q: the
 * block relative rank r receives from r - s[k] (sends to r + s[k]) in slot k
 * of phase 0; in phase f, R[k] + f q (negative: none yet).  S[k] = -q - 1: the
 * receiver is the root (no send).  O(q^2) for R, O(q^3) for S; no O(P) state.
 * baseblock: r's base block (q for the root). */
int oc_circ_baseblock(int64_t P, int q, const int64_t *s, int64_t r);
int oc_circ_recv(int64_t P, int q, const int64_t *s, int64_t r, int *R);
int oc_circ_send(int64_t P, int q, const int64_t *s, int64_t r, int *S);
/* the same with segment j starting at relative rank j P / k instead of the
 * root (b->src says where): every packet is broadcast from its own
 * processor; run backwards it is a reduce-scatter to those processors */
int oc_lp_rarest_spread(oc_lprog *b, const oc_params *p, int64_t seg);
/* their list schedule: the sends (relative ranks, segment u) in the order
 * they were decided, which is each sender's program order; *ops is the
 * caller's to free.  Spread: segment u starts at relative rank u P / k.
 * O(P k^2 + P k log P) time, O(P k) memory. */
typedef struct oc_lp_gop {
  int64_t src, dst, u;
} oc_lp_gop;
int oc_lp_rarest_ops(const oc_params *p, int64_t m, int64_t seg, int spread, int64_t release,
                     oc_lp_gop **ops, size_t *n);
/* Karp's tree (root 0: relative ranks) for a segment of s packets sent as
 * one long message: L' = L + (s-1)G, g' = sG (OC_ERANGE past the limits) */
int oc_lp_karp_tree(const oc_params *p, int64_t s, oc_bcast **out);
/* the same for a stream of k segments of s packets a child (k = 1: Karp's) */
int oc_lp_pipeline_tree(const oc_params *p, int64_t s, int64_t k, oc_bcast **out);

/* The multi-tree's degrees 2 .. 64 (up to min(P-1, m)) in the order of
 * oc_mbcast.c's estimate, best first, into deg (OC_MB_DEGREES entries at
 * most); returns how many. */
#define OC_MB_DEGREES 21
int oc_mb_degree_order(const oc_params *p, int64_t m, int64_t *deg);
/* OC_OK when the circulant's receive table for P is within OC_LP_CIRC_WORK */
int oc_mb_circ_ok(int64_t P);
/* oc_mbcast_plan's search past OC_MB_FULL_MAX messages: constructions ranked
 * on instances of about proxy messages, the best few simulated at full size
 * (oc_mbcast.c).  Exported for the tests. */
int oc_mb_plan_bounded(const oc_params *p, int64_t sx, int64_t root, int64_t m,
                       oc_mbcast_alg alg, int64_t proxy, oc_mbcast_info *info);
/* oc_mbcast_plan with every send overhead o + sx (oc_lprog.sx; 0: the
 * broadcast itself), no verification: the reduce's exact reversal */
int oc_mb_plan_sx(const oc_params *p, int64_t sx, int64_t root, int64_t m, oc_mbcast_alg alg,
                  oc_sched *out, oc_mbcast_info *info);
/* The ranking behind it: each construction (the multi-tree once per degree)
 * with its estimate for (P, m) and its choice of segment and variant at
 * (P', m), best first, into cand (OC_MB_RANKED entries at most); skip (not
 * OC_MB_BEST): a construction left out. */
typedef struct oc_mb_cand {
  oc_mbcast_info cfg;
  int64_t est;
} oc_mb_cand;
#define OC_MB_RANKED (OC_MB_COUNT + 8)
int oc_mb_rank_bounded(const oc_params *p, int64_t sx, int64_t m, oc_mbcast_alg alg,
                       oc_mbcast_alg skip, int64_t proxy, oc_mb_cand *cand, int *ncand,
                       int64_t *timed);
/* the same construction under the simulator's other policy (sends first or
 * not; pacing only with sends first) */
void oc_mb_other_policy(oc_mbcast_info *c);
/* 1 when the k-th ranked (from 0) is still simulated at full size */
int oc_mb_large_take(int64_t P, int64_t m, int k);
/* a floor under the simulated time of recursive doubling, reduce +
 * broadcast, halving-doubling and groups-circulant (0 for the other
 * families), without building them: the search skips them at or above its
 * best (oc_mreduce.c) */
int64_t oc_mr_floor(const oc_params *p, int64_t root, int64_t m, const oc_mreduce_info *c);
/* oc_mreduce_plan with the bounded search past full_max messages, its
 * ranking on instances of about proxy messages (oc_mreduce_plan: OC_MB_FULL_MAX,
 * OC_MB_PROXY).  Exported for the tests. */
int oc_mr_plan_ex(const oc_params *p, int64_t root, int64_t m, oc_mbcast_alg alg,
                  int64_t full_max, int64_t proxy, oc_sched *out, oc_mreduce_info *info);
/* The sum of the P-1 smallest non-root labels of Karp et al.'s universal
 * broadcast tree (oc_mbcast.c; the overhead bounds); OC_ERANGE when that
 * takes more than 2^22 label classes. */
int oc_mb_label_sum(const oc_params *p, int64_t *sum);

/* the circulant's rounds (oc_allreduce.c) for p->P processors, rounds
 * stride spacings apart: *R rounds; in round k every processor i sends
 * to i + off[k] (mod P) its partial result after pick[k] rounds (0: its
 * own value; -1: no message); the caller frees off and pick */
int oc_allreduce_rounds(const oc_params *p, int64_t stride, int64_t **off, int64_t **pick,
                        int64_t *R);

/* a step appended to a rank's view (oc_mbrank.c; none for len <= 0) */
int oc_mb_push(oc_mb_rank *r, int kind, int64_t peer, int64_t item, int64_t len, int copy,
               int64_t hist, int side);

/* ---- reduction programs (oc_rprog.c) -----------------------------------------
 * Sends with "add" or "copy" at the receiver; each send waits until its
 * sender has handled b->barrier[q] receives (as of the oc_rp_xfer call);
 * receives are handled in the order they were posted (oc_rp_xfer order at
 * the receiver).  oc_rp_step ends an MPI-style step (later sends wait for
 * every receive posted so far; a step's receives are combined after the
 * receiver's own sends of the step start); oc_rp_sync(q) makes q's next
 * sends wait for all its receives posted so far.  oc_rprog_run times the
 * programs (docs/MODEL.md) into out (columns copy, seq, not_before), or
 * only their time (out NULL: no schedule, about half the memory). */
/* 32-bit fields (28 bytes a send; oc_rprog_init refuses P or m past
 * 2^31, oc_rp_xfer more than 2^32 - 2 sends): the program is the
 * simulator's biggest array */
#define OC_RP_NOHIST UINT32_MAX
typedef struct oc_rp_send {
  uint32_t dst, item;
  uint32_t need;  /* receives of the sender handled before it may start */
  uint32_t rslot; /* index of the matching receive at dst (in dst's list) */
  uint32_t rsb;   /* sends dst starts before it handles this one        */
  uint32_t hist;  /* with has_hist: the sender's value of the packet after
                     hist handled messages of it (0: its own);
                     OC_RP_NOHIST: not said                              */
  unsigned char copy;
} oc_rp_send;
typedef struct oc_rprog {
  int64_t P, m;
  oc_rp_send *snd;   /* all sends, grouped by sender after oc_rprog_finish */
  size_t ns, scap;
  uint32_t *src_of;  /* sender of each send, while building */
  int64_t *nrecv;    /* receives posted so far, per processor */
  int64_t *nsent;    /* sends posted so far, per processor */
  int64_t *barrier;  /* receives a processor's next sends wait for */
  size_t step0;      /* first send of the current step */
  size_t *soff;      /* soff[q] .. soff[q+1]: q's sends in order */
  int has_hist;      /* the sends say which partial result they carry
                        (oc_rp_xfer_hist; then every send must) */
  int64_t *at;       /* NULL, or each send's earliest start (oc_rp_at: a
                        program with times of its own, a broadcast's run
                        backwards exactly)                                 */
  int64_t calendar;  /* the simulator's event calendar has at most this many
                        buckets (0: 2^16; 1: none, every event through its
                        heap: the reference order, for tests)              */
  int err;
} oc_rprog;
int oc_rprog_init(oc_rprog *b, int64_t P, int64_t m);
/* The simulators' rings of a processor's last events (oc_lprog.c,
 * oc_rprog.c): need rounded up to a power of two, or 0 (keep every event)
 * when P of them would be as many as the n messages. */
static inline size_t oc_ring_size(int64_t need, int64_t P, size_t n) {
  size_t k = 1;
  while ((int64_t)k < need && k < ((size_t)1 << 40)) k <<= 1;
  return oc_mul_sat(P, (int64_t)k) >= (int64_t)n ? 0 : k;
}
void oc_rprog_free(oc_rprog *b);
void oc_rp_xfer(oc_rprog *b, int64_t q, int64_t d, int64_t j, int copy);
void oc_rp_xfer_range(oc_rprog *b, int64_t q, int64_t d, int64_t lo, int64_t hi, int copy);
void oc_rp_step(oc_rprog *b);
/* q sends d packet j as it was after q handled hist messages of it, once q
 * has handled need receives in all: a program that keeps its partial
 * results (the circulant); the schedule gets the hist column */
void oc_rp_xfer_hist(oc_rprog *b, int64_t q, int64_t d, int64_t j, int copy, int64_t need,
                     int64_t hist);
void oc_rp_sync(oc_rprog *b, int64_t q);
/* the send written last starts at t or later (the others written without
 * one: at 0 or later) */
void oc_rp_at(oc_rprog *b, int64_t t);
int oc_rprog_finish(oc_rprog *b);
/* *time (may be NULL): when root (-1: every processor) has handled its
 * last receive */
/* drop the sends a reduce to root never needs from a program that keeps
 * its partial results (oc_rprog.c; before oc_rprog_finish) */
int oc_rprog_prune(oc_rprog *b, int64_t root);
/* a candidate's reduction program (oc_mreduce.c; not KARP nor CIRCULANT),
 * finished; *b the caller's to free whatever is returned */
int oc_mreduce_prog(const oc_params *p, int64_t root, int64_t m, const oc_mreduce_info *cfg,
                    oc_rprog *b);
int oc_rprog_run(const oc_params *p, const oc_rprog *b, int64_t root, oc_sched *out,
                 int64_t *time);
/* the allreduce shapes (the MPI libraries' algorithms; oc_rpshape.c) */
typedef enum oc_rp_kind {
  OC_RP_RD = 0, OC_RP_RING, OC_RP_RABEN, OC_RP_REDBCAST, OC_RP_LINEAR
} oc_rp_kind;
void oc_rp_shape(oc_rprog *b, oc_rp_kind k);
/* ours: recursive halving for s steps, recursive doubling, doubling back */
void oc_rp_hybrid(oc_rprog *b, int64_t s);
/* ours: direct reduce-scatter in groups of q, the circulant across them,
 * direct allgather (root < 0) or gather to root (q | P, q <= m) */
int oc_rp_groups(oc_rprog *b, const oc_params *p, int64_t q, int64_t root);
/* their first step: every rank sends each other member of its group of q
 * that member's chunk (own values; hist 0 with hist); chunk c of n is
 * packets oc_rp_chunk_lo(m, n, c) .. oc_rp_chunk_lo(m, n, c + 1) - 1 */
void oc_rp_group_scatter(oc_rprog *b, int64_t q, int hist);
int64_t oc_rp_chunk_lo(int64_t m, int64_t n, int64_t c);
/* the chunks [*lo, *hi) of n that new rank nr holds after s steps of
 * recursive halving (oc_rp_hybrid; the per-rank views use it too) */
void oc_rp_raben_range(int64_t nr, int64_t s, int64_t n, int64_t *lo, int64_t *hi);
/* the fold of the ranks below 2 rem (even into odd): r's new rank, -1 for
 * the even ones that sit out; and back */
int64_t oc_rp_newrank(int64_t r, int64_t rem);
int64_t oc_rp_oldrank(int64_t nr, int64_t rem);
/* the reduce shapes, to root; seg packets a segment (the trees; <= 0: the
 * whole vector).  The values are those of oc_mred_lib (plan.h). */
typedef enum oc_rp_red {
  OC_RR_CHAIN = 0, OC_RR_BINARY, OC_RR_BINOMIAL, OC_RR_BMTREE, OC_RR_INORDER, OC_RR_LINEAR,
  OC_RR_RABEN
} oc_rp_red;
void oc_rp_reduce(oc_rprog *b, int64_t root, oc_rp_red t, int64_t seg);

#endif
