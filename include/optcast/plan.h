/* optcast/plan.h - the planners: broadcast (one item, m items, continuous),
 * k-port, the ring, summation and reduction, all-to-all, allreduce.
 * Part of the public API; include "optcast.h" for all of it. */
#ifndef OPTCAST_PLAN_H
#define OPTCAST_PLAN_H

#include "optcast/sched.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- single-item broadcast ------------------------------------------------
 * Algorithms (see docs/ALGORITHMS.md):
 *  OC_BCAST_KARP      the tree of the P smallest labels of Karp et al.'s
 *                     universal tree (Defs. 2.3/2.4, Thm 2.1), processors
 *                     numbered in preorder from the root (Shou & Chen Def. 3);
 *                     among nodes whose label equals B(P), the first ones in
 *                     preorder are kept.  Optimal.  Per-rank view available.
 *  OC_BCAST_SHOUCHEN  Shou & Chen's T*(P): the first P nodes in preorder of
 *                     OBT(f(B(P))) (Def. 4).  Optimal.  Per-rank view.
 *  OC_BCAST_BARNOY    Bar-Noy & Kipnis Algorithm BCAST (range splitting with
 *                     j = F(f(n) - 1)), extended to LogP.  Optimal. */
typedef enum oc_bcast_alg {
  OC_BCAST_KARP = 0,
  OC_BCAST_SHOUCHEN = 1,
  OC_BCAST_BARNOY = 2
} oc_bcast_alg;

const char *oc_bcast_alg_name(oc_bcast_alg a);
int oc_bcast_alg_parse(const char *name, oc_bcast_alg *out);

/* A broadcast tree context: parameters, root, algorithm and a reach
 * function.  Built once (O(B(P)) time when tabulated, else O(log^3 P)),
 * then shared read-only by any number of per-rank queries. */
typedef struct oc_bcast oc_bcast;

int oc_bcast_new(oc_bcast **out, const oc_params *p, int64_t root,
                 oc_bcast_alg alg);
void oc_bcast_free(oc_bcast *b);
int64_t oc_bcast_completion(const oc_bcast *b); /* = B(P) for all three */

/* A rank's own plan: its parent, when the datum becomes usable, and its
 * children (random access with oc_bcast_child).  O(1) memory. */
typedef struct oc_bcast_view {
  int64_t rank;       /* physical rank                                    */
  int64_t parent;     /* physical rank of the parent, -1 for the root      */
  int64_t recv_send;  /* parent's send start, -1 for the root              */
  int64_t ready;      /* time the datum is usable here (0 at the root)     */
  int64_t nchildren;  /* children, in send order                           */
  /* private: position in the tree */
  int64_t pos_, t_, rem_;
} oc_bcast_view;

/* Karp and Shou & Chen only (OC_EUNSUP for Bar-Noy & Kipnis). */
int oc_bcast_rank(const oc_bcast *b, int64_t rank, oc_bcast_view *out);
/* k-th child (0 <= k < nchildren): its physical rank and our send start. */
int oc_bcast_child(const oc_bcast *b, const oc_bcast_view *v, int64_t k,
                   int64_t *child_rank, int64_t *send_time);

/* The global schedule: P - 1 messages, the union of the per-rank views.
 * P <= OC_GLOBAL_PROCS_MAX.  Messages come in no particular order. */
int oc_bcast_schedule(const oc_bcast *b, oc_sched *out);

/* ---- multi-packet broadcast in LogP (oc_mbcast.c) ---------------------------
 * m packets (items 0..m-1) from root under LogP, any L, o, g.  Several
 * constructions, each a send program timed by one LogP simulator, each at
 * its best segment size (segments of seg packets sent as one long message);
 * oc_mbcast_plan times them and keeps the fastest (the choice and why in
 * info).  Sources, cost formulas and where each wins: oc_mbcast.c and
 * docs/algorithms/logp.md, "Many packets".
 *  KARP         Karp et al.'s optimal single-item tree built for a segment,
 *               segment by segment (seg = m: the whole message; optimal
 *               for m = 1)
 *  CHAIN        pipelined chain (period max(g, 2o) a segment, depth P-1)
 *  BINARY       pipelined binary tree (Open MPI's shape)
 *  BINOMIAL     pipelined binomial tree (MPICH's shape)
 *  TWOTREE      two binary trees, segments alternating (Sanders, Speck &
 *               Traeff 2009): the chain's period at depth O(log P)
 *  MULTITREE    d trees with disjoint inner nodes (d-ary heaps), segments
 *               going round them: the two-tree's period at depth log_d P,
 *               for large L against G (our generalisation)
 *  SPLIT        the binary tree with the message split in halves, one per
 *               subtree, then exchanged between partners (Open MPI
 *               split_bintree)
 *  SCATTER_RD   binomial scatter + recursive-doubling allgather
 *  SCATTER_RING binomial scatter + ring allgather (both van de Geijn et
 *               al.; MPICH)
 *  RAREST       rarest segment first: a free processor sends the segment
 *               fewest hold to the next processor lacking it (ours; for a
 *               few packets at large L; at most 32 segments)
 *  PIPELINE     Bar-Noy & Kipnis's PIPELINE in LogP, the runtime's
 *               broadcast: Karp's tree for a child that takes the whole
 *               stream of k segments (gap k s max(g, o)), each node
 *               streaming all k to its first child, then to the next.  By
 *               name only: OC_MB_BEST does not try it (it would change
 *               the planners' published figures; see docs) */
typedef enum oc_mbcast_alg {
  OC_MB_KARP = 0,
  OC_MB_CHAIN,
  OC_MB_BINARY,
  OC_MB_BINOMIAL,
  OC_MB_TWOTREE,
  OC_MB_MULTITREE,
  OC_MB_SPLIT,
  OC_MB_SCATTER_RD,
  OC_MB_SCATTER_RING,
  OC_MB_RAREST,
  OC_MB_CIRCULANT,
  OC_MB_PIPELINE,
  OC_MB_COUNT,
  OC_MB_BEST = -1 /* oc_mbcast_plan: the fastest of all */
} oc_mbcast_alg;
#define OC_MBCAST_MAX ((int64_t)1 << 26) /* P * m                          */
/* Past OC_MB_FULL_MAX messages (P m) the planners rank the constructions on
 * instances of about OC_MB_PROXY messages and simulate only the first few at
 * full size (the bounded search, docs/algorithms/logp.md). */
#define OC_MB_FULL_MAX ((int64_t)1 << 22)
#define OC_MB_PROXY ((int64_t)1 << 20)

typedef struct oc_mbcast_info {
  oc_mbcast_alg alg;        /* the construction chosen                      */
  int64_t seg;              /* its segment size in packets                  */
  int64_t degree;           /* MULTITREE: the number of trees; CIRCULANT:
                               the number of streams (else 0)              */
  int64_t pace;             /* the root releases packet i at i * pace (0:
                               all at once; see oc_mbcast.c)                 */
  int send_first;           /* the simulator's policy: 1 a processor's ready
                               send goes before incoming receptions, 0 pure
                               greedy (oc_lprog.c)                           */
  int64_t sx;               /* added to each send overhead: 0 for a
                               broadcast (a reduction's exact reversal puts
                               the receiver's addition there, oc_mreduce.c) */
  int64_t time;             /* its completion time                          */
  int64_t runner_up;        /* the next best construction's time (or -1)    */
  oc_mbcast_alg runner_alg; /* and which                                    */
  int64_t timed;            /* (construction, segment) pairs simulated      */
} oc_mbcast_info;

const char *oc_mbcast_alg_name(oc_mbcast_alg a);
int oc_mbcast_alg_parse(const char *name, oc_mbcast_alg *out);
/* what a construction's degree counts, for "(3 trees)", "(1 stream)" */
const char *oc_mbcast_degree_unit(oc_mbcast_alg a, int64_t degree);
/* One construction as cfg says: cfg->alg with segments of cfg->seg packets
 * (0: the whole message; the scatters ignore it), cfg->degree trees
 * (MULTITREE: 2 <= degree <= P-1; ignored by the others), cfg->pace
 * (>= 0) and cfg->send_first; time, and the schedule when out is not
 * NULL. */
int oc_mbcast_run(const oc_params *p, int64_t root, int64_t m, const oc_mbcast_info *cfg,
                  oc_sched *out, int64_t *time);
/* The construction alg (OC_MB_BEST: all) at its best segment size; out
 * may be NULL (times only).  P * m <= OC_MBCAST_MAX, else OC_ERANGE. */
int oc_mbcast_plan(const oc_params *p, int64_t root, int64_t m, oc_mbcast_alg alg,
                   oc_sched *out, oc_mbcast_info *info);
/* A rank's own part (oc_mbrank.c): its receptions and sends segment by
 * segment in its program's order (per segment: the reception from its
 * parent, then the sends to its children), from the construction's shape
 * alone: O(k (c + log P)) work for k segments and c children, no O(P)
 * state.  No times: those come from the global simulation.  The sends are
 * exactly the global schedule's sends of that rank in time order; the
 * receptions are its receptions as a set.  karp, chain, binary, binomial,
 * two-tree, multi-tree, circulant-bcast (Traff's per-rank schedule:
 * O(log^3 P + m log m), its steps in its slots' time order), cfg as
 * oc_mbcast_plan returns it; rarest-first,
 * split-binary and the scatters cost more (the whole list schedule, resp.
 * the whole broadcast simulated, its messages in time order: O(P m)). */
typedef enum oc_mb_kind { OC_MB_RECV = 0, OC_MB_SEND = 1 } oc_mb_kind;
typedef struct oc_mb_step {
  int kind;          /* oc_mb_kind                                         */
  int copy;          /* the message is taken as it is (1: a broadcast's,
                        an allgather's) or added to the receiver's value
                        (0: a reduction's); the same on both ends        */
  int64_t peer;      /* the sender (RECV) or the receiver (SEND)           */
  int64_t item, len; /* packets item .. item+len-1, one segment            */
  int64_t hist;      /* SEND: -1, the rank's value as it stands; else its
                        value of each packet as it was after it had
                        handled hist messages of that packet (an older
                        partial result: groups-circulant's circulant)    */
  int side;          /* RECV that adds: where the received partial result
                        joins the rank's (0: in front, in op acc - what
                        every commutative view has; 1: behind, acc op in);
                        the order-keeping views (oc_oview_rank) need it */
} oc_mb_step;
typedef struct oc_mb_rank {
  int64_t rank;
  oc_mb_step *step;
  size_t n, cap;
} oc_mb_rank; /* zero it before the first call; oc_mb_rank_free */
int oc_mbcast_rank(const oc_params *p, int64_t root, int64_t m, const oc_mbcast_info *cfg,
                   int64_t rank, oc_mb_rank *out);
void oc_mb_rank_free(oc_mb_rank *r);

/* ---- order-keeping patterns as per-rank views (oc_oview.c) -----------------
 * Schedules for any associative operator, commutative or not: every
 * reception that adds joins the rank's value on the side its step names,
 * so each rank's value of a packet is always a run of consecutive ranks'
 * contributions x_a op ... op x_b.  Views of rank `rank` in the format of
 * oc_mbcast_rank (oc_mb_rank), checked together by oc_verify_oviews:
 *   OC_OV_REDUCE            the rank-order reduction tree of oc_reduce_new
 *                           (ordered = 1) for p, to root, pipelined over m
 *                           packets: per packet, the children's partial
 *                           results (left ones nearest first, prepended;
 *                           right ones nearest first, appended), then the
 *                           sum up to the parent.  O(m (children + 1)) steps.
 *   OC_OV_ALLREDUCE_RD      recursive doubling (Thakur, Rabenseifner & Gropp
 *                           2005): P' = 2^floor(log2 P), ranks 2i+1 < 2(P-P')
 *                           hand their value to 2i first and get the result
 *                           from it last; log2 P' exchanges, the partner's
 *                           run joined on its side.  All m packets a step.
 *   OC_OV_ALLREDUCE_DIRECT  m = P blocks: block j of every rank straight to
 *                           rank j (P - 1 messages out, P - 1 in, joined in
 *                           rank order), then rank j's finished block to
 *                           every rank (Karp et al.'s all-to-all on blocks).
 *   OC_OV_SCAN_RD           inclusive scan by Hillis & Steele's doubling:
 *                           round d sends the rank's value to rank + 2^d and
 *                           prepends the one from rank - 2^d.
 *   OC_OV_SCAN_CHAIN        inclusive scan down the chain 0 -> 1 -> ... ->
 *                           P-1, m packets pipelined: a rank prepends its
 *                           left neighbour's packet and passes it on.
 *   OC_OV_SCAN_DIRECT       every rank's value straight to every higher
 *                           rank, prepended nearest first.
 * Only OC_OV_REDUCE reads L, o, g (its tree); root is ignored but by it
 * (the others: -1).  OC_EINVAL for a bad argument (m != P for the direct
 * allreduce). */
typedef enum oc_ov_kind {
  OC_OV_REDUCE = 0,
  OC_OV_ALLREDUCE_RD,
  OC_OV_ALLREDUCE_DIRECT,
  OC_OV_SCAN_RD,
  OC_OV_SCAN_CHAIN,
  OC_OV_SCAN_DIRECT
} oc_ov_kind;
int oc_oview_rank(const oc_params *p, oc_ov_kind kind, int64_t root, int64_t m, int64_t rank,
                  oc_mb_rank *out);

/* The strongest lower bound on an m-packet LogP broadcast known here, with
 * its source (a static string), without building anything:
 *   B(P) + (m-1) max(g, o)        the last packet to leave the root
 *   the overhead bound            receptions and forwarding sends cost o each
 * (docs/algorithms/logp.md, "Lower bounds for many packets"). */
int oc_mbcast_bound(const oc_params *p, int64_t m, int64_t *lb, const char **source);

/* ---- multi-item broadcast in the postal model (Bar-Noy & Kipnis section 4) ---
 * m items from the root to n processors, postal latency lambda = p/q.
 *  REPEAT    BCAST once per item, the next started after the root's last
 *            send of the previous (Lemma 10)
 *  PACK      BCAST of one long message of m packets: its sender busy m,
 *            its receiver holding it lambda + m - 1 after the start
 *            (Lemma 12; a long message in oc_sched)
 *  PIPELINE  BCAST of streams: a sender sends the m items back to back, a
 *            receiver forwards each item as it arrives; the tree is BCAST
 *            for "receiver ready after lambda, sender after m"
 *            (PIPELINE-1 m <= lambda, Lemma 14; PIPELINE-2 m >= lambda,
 *            Lemma 16)
 *  DTREE     the left-to-right almost-full degree-d tree (Lemma 18);
 *            degree 0: the best d for the instance
 *  CYCLIC    Karp et al. section 3: the first m items of the block-cyclic
 *            continuous broadcast (oc_cbcast); integer lambda, or at a
 *            fractional lambda the plan of ceil(lambda) with every send at
 *            the same time (res->lam_int), P <= OC_CBCAST_PROCS_MAX.  Single-
 *            sending; time = its delay + m - 1, which is L + B(P-1) + m - 1
 *            (Corollary 3.1) where the continuous schedule is optimal and
 *            at most B(P-1) + 2L + m - 2 (Theorem 3.7) wherever its delay
 *            is within L - 1 of optimal
 *  GREEDY    multi-sending, step by step: a maximum matching of processors
 *            that hold an item someone lacks to processors that lack one
 *            (most missing first, the rarest item), best of 4 (P m >=
 *            1024) to 32 (P m <= 128) seeded tie-breaks, stopping at the
 *            lower bound; integer lambda (fractional: as CYCLIC), P <= 128,
 *            m <= 128 (OC_ERANGE).  No formula (formula -1); it can go
 *            below the single-sending bound, towards Theorem 3.1's
 *  CIRCULANT lambda = 1 only (OC_EUNSUP otherwise): Traff's round-optimal
 *            circulant schedule (oc_circsched.c), m - 1 + ceil(log2 P),
 *            which is Lemma 8's bound: optimal for every P and m
 *  BEST      the fastest of the above for the instance (CYCLIC only for
 *            L <= 7, or L <= 12 and P <= 256: elsewhere its plan's searches
 *            take seconds and rarely find better than the path); it stops
 *            at the first that meets the lower bound */
typedef enum oc_kbcast_alg {
  OC_KB_REPEAT = 0,
  OC_KB_PACK = 1,
  OC_KB_PIPELINE = 2,
  OC_KB_DTREE = 3,
  OC_KB_CYCLIC = 4,
  OC_KB_GREEDY = 5,
  OC_KB_BEST = 6,
  OC_KB_CIRCULANT = 7 /* after BEST: the values above keep their numbers */
} oc_kbcast_alg;

const char *oc_kbcast_alg_name(oc_kbcast_alg a);
int oc_kbcast_alg_parse(const char *name, oc_kbcast_alg *out);

typedef struct oc_kbcast_result {
  oc_kbcast_alg alg;  /* the algorithm run (BEST: the winner)            */
  int64_t degree;     /* DTREE's d                                       */
  int64_t time;       /* the schedule's time, model units                */
  int64_t formula;    /* the paper's lemma for it (DTREE: Lemma 18's
                         upper bound with the tree's height; CYCLIC:
                         Theorem 3.7's B(P-1) + 2L + m - 2)              */
  int64_t lam_int;    /* > 0: the plan is the one for the integer latency
                         lam_int (> lambda), run at lambda with every send
                         at the same time (CYCLIC, GREEDY at a fractional
                         lambda); 0 otherwise                            */
} oc_kbcast_result;

/* Postal model only (OC_EUNSUP otherwise).  out may be NULL (times only);
 * m * (P - 1) messages, at most 2^26. */
int oc_kbcast_plan(const oc_params *p, int64_t root, int64_t m,
                   oc_kbcast_alg alg, int64_t degree, oc_sched *out,
                   oc_kbcast_result *res);
/* Lower bounds: Lemma 8 / Corollary 9, (m - 1) + f_lambda(n); Karp et al.
 * Thm 3.1, B(P-1) + L + (k-1) - k* for k >= k*, from its proof's count of
 * receptions for smaller k, and that count window by window at a
 * fractional lambda (-1 for n = 1); *lb is the larger. */
int oc_kbcast_bound(const oc_params *p, int64_t m, int64_t *lb, int64_t *lemma8,
                    int64_t *karp31);
/* Karp et al. section 3.5's buffered model (oc_verify_buffered): m items,
 * integer lambda <= 64, out empty; its column out->recv_at (OC_COL_RECV_AT)
 * says when each is taken from its receiver's buffer.  res->time is the
 * last reception, res->formula Theorem 3.8's optimum L + B(P-1) + m - 1
 * (single-sending).  See docs/ALGORITHMS.md for where they are equal. */
int oc_kbcast_buffered(const oc_params *p, int64_t root, int64_t m, oc_sched *out,
                       oc_kbcast_result *res);
/* Karp et al. section 3.4, integer lambda = L, P >= 2 (OC_EUNSUP
 * otherwise): *single = B(P-1) + L + m - 1, the least time of a single-
 * sending schedule (the source sends each item once); *thm37 =
 * B(P-1) + 2L + m - 2, Theorem 3.7's single-sending upper bound. */
int oc_kbcast_bound_single(const oc_params *p, int64_t m, int64_t *single,
                           int64_t *thm37);

/* ---- continuous broadcast in the postal model (Karp et al. 3.1-3.3) ------
 * Integer latency L (g = 1, o = 0).  The source creates item i at time i
 * and sends it once, at time i; every processor must get every item; the
 * delay of an item is creation to arrival at the last processor.  Lower
 * bound L + B(P-1).  The plan is block-cyclic (see src/plan/oc_cbcast.c and
 * docs/ALGORITHMS.md "Continuous broadcast"): one block of r processors per
 * internal node with r children of the broadcast tree, one receive-only
 * processor; each block has a word saying which leaf it receives at each
 * step.  Set-up O(P); what a processor does at a step is O(1) (a block
 * index per processor; bench/bench_cbcast.c: 206 instructions a call at
 * P = 10^3 and 10^6). */
#define OC_CBCAST_PROCS_MAX ((int64_t)1 << 20)
#define OC_CBCAST_L_MAX 64
#define OC_CBCAST_MSGS_MAX ((int64_t)1 << 26)

typedef enum oc_cbcast_method {
  OC_CB_DIRECT = 0,    /* P-1 = f_t, words found by search (or P <= 2)    */
  OC_CB_INDUCTION = 1, /* P-1 = f_t, Karp's induction from base cases     */
  OC_CB_SPLIT = 2,     /* P-1 = f_{t-1} + n1: full part + a smaller tree  */
  OC_CB_SEARCH = 3,    /* a tree of deadline D >= B(P-1) and words searched */
  OC_CB_PATH = 4,      /* none found: a path, delay L (P - 1)             */
  OC_CB_NESTED = 5     /* every subtree hands one leaf up (oc_cbnest.c)   */
} oc_cbcast_method;
const char *oc_cbcast_method_name(int m);

typedef struct oc_cbcast_info {
  int64_t P, L;
  int64_t B;        /* B(P-1)                                             */
  int64_t D;        /* the trees' deadline: delay = L + D                 */
  int64_t delay;    /* every item's delay                                 */
  int64_t bound;    /* L + B(P-1)                                         */
  int64_t blocks;   /* internal nodes of the tree                         */
  int64_t ro;       /* the receive-only processor's letter                */
  int method;       /* oc_cbcast_method                                   */
  int64_t base_lo;  /* first of L consecutive base cases in Karp's form
                       (section 3.3), -1 if none within reach             */
  int64_t slack;    /* DIRECT/INDUCTION/SPLIT: 1 if built from forms of
                       deadline t + 1 (pruned trees, Theorem 3.5), else 0 */
  int buffered;     /* oc_cbcast_new_buffered's plan                       */
  int64_t max_wait; /* buffered: the longest an item waits in a buffer     */
} oc_cbcast_info;

typedef struct oc_cbcast oc_cbcast;
typedef struct oc_cbcast_act { int64_t item, peer; } oc_cbcast_act; /* -1: none */

/* 1 <= P <= OC_CBCAST_PROCS_MAX, 1 <= L <= OC_CBCAST_L_MAX (OC_ERANGE).
 * L <= 18: Karp's induction, the split and searched trees of deadline
 * B(P-1) .. B(P-1) + 2L + 4, then the nested construction if it does
 * better; L > 18: the nested construction (deadlines up to B + 2L + 4).
 * If nothing is found, the path (method OC_CB_PATH; not seen). */
int oc_cbcast_new(oc_cbcast **out, int64_t P, int64_t L);
/* Karp et al. section 3.5's buffered model: arrived items wait in a buffer
 * and a processor takes one a step, any of them.  The plan has delay
 * L + B(P-1) (optimal) for every P tested; leaves are taken up to max_wait
 * steps after they arrive (oc_cbcast_schedule_rt gives the times; verify
 * with oc_verify_buffered).  OC_EINVAL if the construction does not apply. */
int oc_cbcast_new_buffered(oc_cbcast **out, int64_t P, int64_t L);
void oc_cbcast_free(oc_cbcast *c);
const oc_cbcast_info *oc_cbcast_get_info(const oc_cbcast *c);
/* Block b: r processors, letter J of its node, word[0] = J, word[1..r-1] the
 * letters it receives between (relative addressing: letter j at time T is
 * item T + j - L - D). */
int oc_cbcast_block(const oc_cbcast *c, int64_t b, int64_t *r, int64_t *J,
                    const int64_t **word);
/* What processor proc receives and sends at step T when k items are
 * broadcast from root (item -1: nothing; peer: the other processor). */
int oc_cbcast_step(const oc_cbcast *c, int64_t root, int64_t proc, int64_t T,
                   int64_t k, oc_cbcast_act *recv, oc_cbcast_act *send);
/* The k items' messages, k (P-1) <= OC_CBCAST_MSGS_MAX (appended to out). */
int oc_cbcast_schedule(const oc_cbcast *c, int64_t root, int64_t k, oc_sched *out);
/* The same, with the column OC_COL_RECV_AT (out->recv_at): when each
 * message is received, its arrival or later for a buffered plan. */
int oc_cbcast_schedule_rt(const oc_cbcast *c, int64_t root, int64_t k, oc_sched *out);

/* ---- k-port model: multi-message broadcast (Bar-Noy & Ho, seed 004) -------
 * n processors in synchronous rounds 1, 2, ...; in one round a processor
 * sends at most k messages, to distinct processors, and receives at most k,
 * from distinct processors; what arrives in round r can be sent from round
 * r + 1 on.  The source (root) holds m messages; every processor must get
 * all of them.  Times are round counts.  See docs/ALGORITHMS.md ("k-port")
 * for the reconstruction of the seed's lost formulas and the exhaustive
 * checks behind them.
 *  KTREE     k spanning trees, each node with at most k children summed
 *            over the trees (the seed's Theorem 6); message i goes down
 *            tree i mod k, one level per round: ceil(m/k) - 1 + H rounds
 *            for trees of height H (the source at depth 0)
 *  ROTATION  the rotation algorithm: the (k+1)-ary d-cube with the
 *            dimension of round r being r mod d, for other n a chain of
 *            boxes; every message reaches everyone d + 1 (or d) rounds
 *            after the source sends it, so ceil(m/k) + ceil(log_{k+1} n)
 *            rounds at most, within one of the lower bound (the seed's
 *            Theorem 10).  See oc_kport_plan for the n it covers.
 *  BEST      the faster of the two for the instance */
typedef enum oc_kport_alg {
  OC_KP_KTREE = 0,
  OC_KP_ROTATION = 1,
  OC_KP_BEST = 2,
  OC_KP_CIRCULANT = 3 /* k = 1 only: the postal lambda = 1 circulant
                         (OC_KB_CIRCULANT) a round later, m - 1 + ceil(log2 n)
                         rounds, optimal; BEST takes it at k = 1 */
} oc_kport_alg;

#define OC_KPORT_PLAN_MAX ((int64_t)1 << 23) /* m * (n - 1) messages; n * m */
#define OC_KPORT_ITEMS_MAX ((int64_t)1 << 40)

const char *oc_kport_alg_name(oc_kport_alg a);
int oc_kport_alg_parse(const char *name, oc_kport_alg *out);

typedef struct oc_kport_bounds {
  int64_t depth;   /* ceil(log_{k+1} n): Lemma 1, one message            */
  int64_t lemma2;  /* ceil(m/k') - 1 + depth, k' = min(k, n-1)           */
  int64_t lemma3;  /* lemma2 + 1 when the last beta messages need more
                      bandwidth than depth rounds give (Lemma 3), else
                      lemma2                                             */
  int64_t recv;    /* 1 + ceil((m-1)/k'): receptions at one processor     */
  int64_t lb;      /* the largest of these (0 when n = 1)                 */
} oc_kport_bounds;

/* 1 <= n <= OC_PROCS_MAX, 1 <= k <= OC_PARAM_MAX, 1 <= m <= OC_KPORT_ITEMS_MAX. */
int oc_kport_bound(int64_t n, int64_t k, int64_t m, oc_kport_bounds *out);

typedef struct oc_kport_result {
  oc_kport_alg alg;   /* the algorithm run (BEST: the winner)              */
  int64_t time;       /* rounds                                            */
  int64_t height;     /* KTREE: the trees' height H; ROTATION: rounds per
                         message, d + 1 or d                              */
} oc_kport_result;

/* The schedule (CSV time = the round a message is sent in, from 1).
 * m * n <= OC_KPORT_PLAN_MAX.  ROTATION covers every n for which the
 * project has a construction (docs/ALGORITHMS.md), OC_EUNSUP otherwise;
 * BEST then runs KTREE.  out may be NULL: times only. */
int oc_kport_plan(int64_t n, int64_t k, int64_t m, int64_t root,
                  oc_kport_alg alg, oc_sched *out, oc_kport_result *res);

/* ---- reconfigurable ring of processors (N, L)-RRP -------------------------
 * Rosenberg, Scarano & Sitaraman (seeds/003).  N processors on a ring, a bus
 * of L lines.  A message from i to j goes clockwise over the processors
 * i, i+1, ..., j or counter-clockwise over i, i-1, ..., j (d ring edges), on
 * one line, holding that line's segment over those processors for its whole
 * flight of max(1, ceil(log2 d)) steps.  A message sent in step t (from 1)
 * with flight f occupies steps t .. t+f-1 and is usable by its receiver from
 * step t+f.  Per step a processor starts at most one send and completes at
 * most one receive; two messages on one line whose step ranges meet must
 * share no processor (segments are closed: endpoints count).
 *
 * Problems:  BCAST  the source (or every segment's first processor) sends
 *                   one item to all; item = the segment's number (0).
 *            REDUCE x_0 (*) ... (*) x_{N-1} in index order at the root, any
 *                   associative operator (need not commute).
 *            SCAN   processor p ends with x_0 (*) ... (*) x_p.
 * Segmented versions run on blocks [s_i, s_{i+1}) of 0..N-1 given by their
 * first processors (REDUCE: into each block's first processor; SCAN: prefix
 * restarts at each block).  Combining messages carry a value
 * x_a (*) ... (*) x_b; the CSV item is b, and a is the smallest start whose
 * value the sender can form at the send step from its own x and what it has
 * received (concatenating adjacent values, nothing else): see
 * docs/MODEL.md, "Reconfigurable ring".
 *
 * Algorithms (docs/ALGORITHMS.md, "Reconfigurable ring"):
 *  SWEEP     Down_(N,L) / Up_(N,L) of the paper's Figure 3 and section 2.1:
 *            top tree on the first N' processors, remap (N'-1 messages on
 *            N'-1 lines), the N' blocks in parallel; N' = min(L+1,
 *            ceil(sqrt M)); blocks of sizes floor/ceil(M/N'); blocks of at
 *            most 4 processors are binomial trees (T(4) = 2).
 *  TUNED     the same family with N' chosen per block size by dynamic
 *            programming (2 <= N' <= min(L+1, M-1, 2 ceil(sqrt M))) or a
 *            binomial tree, whichever is faster; bcast and reduce into 0 or
 *            N-1 also try a two-sided start (two half rings meeting at the
 *            root, one more step).
 *  BINOMIAL  the binomial tree (leftmost-leaf mapping): one line.
 *  BEST      the fastest of the three. */
typedef enum oc_rrp_problem {
  OC_RRP_BCAST = 0,
  OC_RRP_REDUCE = 1,
  OC_RRP_SCAN = 2
} oc_rrp_problem;
typedef enum oc_rrp_alg {
  OC_RRP_SWEEP = 0,
  OC_RRP_TUNED = 1,
  OC_RRP_BINOMIAL = 2,
  OC_RRP_BEST = 3
} oc_rrp_alg;

#define OC_RRP_PROCS_MAX ((int64_t)1 << 20) /* N for a global schedule      */
#define OC_RRP_CW 0
#define OC_RRP_CCW 1

typedef struct oc_rrp_msg {
  int64_t t;      /* send step, from 1                                    */
  int64_t src, dst;
  int64_t item;   /* BCAST: segment number; REDUCE/SCAN: b (see above)     */
  int64_t line;   /* 0 .. L-1                                             */
  int dir;        /* OC_RRP_CW or OC_RRP_CCW                              */
} oc_rrp_msg;

typedef struct oc_rrp_sched {
  oc_rrp_msg *msg;
  size_t n, cap;
} oc_rrp_sched;

void oc_rrp_sched_init(oc_rrp_sched *s);
void oc_rrp_sched_free(oc_rrp_sched *s);
int oc_rrp_sched_push(oc_rrp_sched *s, int64_t t, int64_t src, int64_t dst,
                      int64_t item, int dir, int64_t line);
void oc_rrp_sched_sort(oc_rrp_sched *s); /* time, src, dst, item, dir, line */
/* The ring's CSV form `time,src,dst,item,dir,line` (oc_rrp_read_csv), steps
 * as integers, in s's order (oc_csv_write.c). */
int oc_rrp_sched_write_csv(FILE *f, const oc_rrp_sched *s);

/* Ring distance from src to dst in direction dir (1 .. N-1), and the
 * flight time max(1, ceil(log2 d)). */
int64_t oc_rrp_dist(int64_t N, int64_t src, int64_t dst, int dir);
int64_t oc_rrp_flight(int64_t d);

const char *oc_rrp_alg_name(oc_rrp_alg a);
int oc_rrp_alg_parse(const char *name, oc_rrp_alg *out);
const char *oc_rrp_problem_name(oc_rrp_problem p);

typedef struct oc_rrp_spec {
  oc_rrp_problem problem;
  int64_t N, L;           /* 1 <= N <= OC_RRP_PROCS_MAX, 1 <= L            */
  int64_t root;           /* BCAST / REDUCE without segments              */
  const int64_t *seg;     /* segment starts (strictly increasing, seg[0] =
                             0, all < N), or NULL: one segment            */
  size_t nseg;
} oc_rrp_spec;

typedef struct oc_rrp_bounds {
  int64_t lb;        /* the best lower bound known (steps)                 */
  int64_t doubling;  /* ceil(log2 M): informed processors at most double   */
  int64_t distance;  /* flight to the farthest processor of a block        */
  double thm31;      /* Theorem 3.1's argument carried out in whole steps
                        (any L; an integer): docs/ALGORITHMS.md          */
  double thm31_lead; /* its leading term log^2 M / (3 log L) (L >= 2)    */
  double thm32;      /* Theorem 3.2 (N > 4, whole ring): log N log log N
                        / 15, else 0                                      */
  double thm21;      /* Theorem 2.1 upper bound (M >= 4, L >= 2), else 0:
                        log M log log L + log^2 M / log L                 */
} oc_rrp_bounds;
/* Bounds for the spec; M = N, or the largest block with --segments. */
int oc_rrp_bound(const oc_rrp_spec *sp, oc_rrp_bounds *out);

typedef struct oc_rrp_result {
  oc_rrp_alg alg;   /* the algorithm run (BEST: the winner)               */
  int64_t time;     /* steps                                              */
  int64_t lines;    /* lines used                                         */
} oc_rrp_result;
/* Builds the schedule (out may be NULL: time only).  Errors: OC_EINVAL
 * (bad segments), OC_ERANGE (N, L, root). */
int oc_rrp_plan(const oc_rrp_spec *sp, oc_rrp_alg alg, oc_rrp_sched *out,
                oc_rrp_result *res);


/* ---- summation and reduction -----------------------------------------------
 * SUM: n operands, their placement chosen by the algorithm, summed in
 * minimum time at `root` (Karp et al. section 5; Shou & Chen section 3).
 * REDUCE: one operand per processor, operand i at rank i (MPI_Reduce's
 * shape), any root, folded in rank order.
 * Both run the time-reversed optimal broadcast tree of the model with
 * L' = L + a and g' = max(g, o + a), where a is one addition (1 time unit):
 * a processor that receives k values spends k(o + a) on them, and receptions
 * that each end in their addition are max(g, o + a) apart.  See
 * docs/ALGORITHMS.md for the derivation and the exhaustive check. */
typedef struct oc_reduce oc_reduce;
#define OC_REDUCE_PLAN_MAX ((int64_t)1 << 22) /* global sum/reduce plans */

/* Summation (Karp et al.'s counting of operands per node) needs o to be a
 * whole number of additions (o a multiple of p->unit, always so with
 * unit 1 and in the postal model, where o = 0); otherwise OC_EUNSUP. */
int oc_sum_new(oc_reduce **out, const oc_params *p, int64_t root, int64_t n);
/* ordered != 0: operand i at rank i and the result is the rank-order fold
 * (MPI_Reduce with a non-commutative operator).  The root's children then
 * split into blocks left and right of it; for a few (P, root) the optimal
 * tree cannot be split so, and the plan takes longer (see the lower bound).
 * ordered = 0: the fold runs cyclically from rank root + 1 to the root,
 * always in B(P); for commutative operators. */
int oc_reduce_new(oc_reduce **out, const oc_params *p, int64_t root,
                  int ordered);
void oc_reduce_free(oc_reduce *r);
int64_t oc_reduce_completion(const oc_reduce *r); /* the plan's time       */
int64_t oc_reduce_lower_bound(const oc_reduce *r); /* optimum (reduce: B) */
int64_t oc_reduce_operands(const oc_reduce *r);   /* n                     */
int64_t oc_reduce_used(const oc_reduce *r);       /* processors used       */
/* operands per processor (by rank), P entries summing to n */
int oc_reduce_counts(const oc_reduce *r, int64_t *counts);
/* messages, additions and operand segments; checked by oc_verify_reduce */
int oc_reduce_schedule(const oc_reduce *r, oc_sched *out);
/* A rank's own part of the plan, as a one-packet view (oc_mb_rank, as
 * oc_mbcast_rank gives): its operands first .. first + held - 1 (held 0:
 * the rank is not used and its view is empty), which it folds into one
 * value in index order; then its children's partial results in the order
 * the plan adds them (each a RECV that adds, side 0: prepended, or side 1
 * at the ordered reduce's root: appended); then its value to its parent
 * (none at the root).  The messages are the rank's messages of
 * oc_reduce_schedule; the plan's interleaving of local additions with the
 * receptions is left to the executor (the value is the same for an
 * associative operator).  Builds the plan (O(processors used)) and keeps
 * nothing of it; checked by oc_verify_oviews_held. */
int oc_sum_rank(const oc_reduce *r, int64_t rank, int64_t *first, int64_t *held,
                oc_mb_rank *out);

/* Completes a messages-only combining schedule (what CSV carries) with
 * the additions: counts[q] operands start at processor q; every processor
 * adds each received value as soon as it can and its own operands in the
 * remaining time (list scheduling: the earliest finish for unit-time
 * additions), values are prepended as they arrive and own operands
 * appended, and the operands are numbered to match.  ordered != 0 (one
 * operand per processor): operand q is rank q's, and each received value
 * must join the accumulator on its left or right in rank order.  The
 * result goes to oc_verify_reduce.  OC_EINVAL when the messages do not
 * form a tree into the root (a processor sending twice, a cycle);
 * OC_EINVALID when, ordered, a partial result is not a rank interval next
 * to the receiver's. */
int oc_reduce_infer(const oc_params *p, int64_t root, const int64_t *counts,
                    int ordered, oc_sched *s);

/* A rank's own part of a reduction (oc_reduce_new), without the global
 * schedule: O(log P log B(P)) for the unordered plan; the ordered plan
 * also walks the root's K = B(P)/max(g, o+a) reception slots once. */
typedef struct oc_reduce_view {
  int64_t rank;
  int64_t parent;    /* rank it sends its partial result to, -1 root      */
  int64_t send;      /* when it sends (-1 at the root)                    */
  int64_t nchildren; /* ranks that send to it                             */
  /* private */
  int64_t slot_, start_, slot_size_, pos_, label_, t_, st_, base_;
} oc_reduce_view;

int oc_reduce_rank(const oc_reduce *r, int64_t rank, oc_reduce_view *v);
/* k-th child, in the order of the broadcast the reduction reverses: child
 * 0 sends last; its rank and send time */
int oc_reduce_child(const oc_reduce *r, const oc_reduce_view *v, int64_t k,
                    int64_t *child_rank, int64_t *send_time);

/* The most operands P processors can sum in time t (Karp's inverse
 * problem), and the least time for n operands.  OC_EUNSUP when the
 * instance's reach function is too long to tabulate (docs/MODEL.md), or
 * o is not a multiple of an addition (oc_sum_new). */
int oc_sum_capacity(const oc_params *p, int64_t t, int64_t *n_out);
int oc_sum_time(const oc_params *p, int64_t n, int64_t *t_out);
/* Time of the optimal reduction: B(P) for L + a, max(g, o + a). */
int oc_reduce_time(const oc_params *p, int64_t *t_out);

/* ---- all-to-all broadcast ---------------------------------------------------
 * Karp et al. section 4.1: processor i sends to i+1, ..., i+P-1 (mod P),
 * its k items to each in turn, one message every D time units.  D is the least
 * spacing >= g for which a processor's sends [mD, mD+o) and receptions
 * [mD+o+L, mD+2o+L) never overlap; D = g (optimal) when g >= 2o and the
 * phases fit.  With o > 0 the same messages are also compacted (each as
 * early as the rules allow, in the plan's order, every processor's sends
 * and receptions in the plan's order; in step, and with the processors'
 * first sends staggered) and the fastest is kept.
 * Lower bound (oc_alltoall.c proves it), M = k(P-1), G = max(g, o):
 * L + 2o + G(M-1) (+1 when a processor's sends and receptions at that pace
 * collide), 2oM plus the time a processor must idle before its first
 * reception can start (L + o) and, once the time is >= 2(L + o), after its
 * last send can end.  Personalized: item (s, d, j) goes from s to d only,
 * with the same timing.  Items: broadcast s*k + j; personalized
 * (s*P + d)*k + j.  Times only (out NULL): the compaction is run up to
 * 2^22 messages, past that the time is the periodic plan's. */
int oc_alltoall_schedule(const oc_params *p, int64_t k, int personalized,
                         oc_sched *out, int64_t *time, int64_t *lower_bound);
                         /* out may be NULL: times only */
/* One processor's part of the (non-personalized) schedule above: its sends
 * and receptions, step by step (each step's send, then its reception), each
 * of one item (len 1, a copy); O(k P) steps and nothing else; OC_ERANGE
 * past k P = OC_GLOBAL_PROCS_MAX.  oc_mb_rank: oc_mbcast_rank's type. */
int oc_alltoall_rank(const oc_params *p, int64_t k, int64_t rank, oc_mb_rank *out);
/* The allgather on a mesh (oc_alltoall.c): P = d_1 d_2 ... d_n ranks, rank
 * q read as mixed-radix digits (q_1 fastest, weight w_t = d_1 ... d_{t-1});
 * in phase t every rank runs the all-to-all above (k = 1) among the d_t
 * ranks that differ from it in digit t only, each sending the w_t
 * consecutive packets it holds - a packet range [q - q mod w_t, + w_t).
 * Rank q starts with packet q and ends with all P.  n = 1 is Karp et al.'s
 * all-to-all (the same steps as oc_alltoall_rank), d_t = 2 throughout is
 * recursive doubling, n = 2 the 2-D mesh (Benson et al., "A comparison of
 * MPICH allgather algorithms on switched networks", EuroPVM/MPI 2003).  A
 * message of phase t carries w_t packets: each rank sends and receives
 * sum (d_t - 1) messages and P - 1 packets.  dims: n >= 1 factors, each
 * >= 2 (P = 1: n = 0), product P; OC_ERANGE otherwise or past
 * OC_GLOBAL_PROCS_MAX ranks.  Steps in order: phase by phase, each
 * send then its reception (checked by oc_verify_oviews, OC_OVIEWS_GATHER). */
#define OC_MESH_DIMS_MAX 62
int oc_allgather_mesh_rank(int64_t P, const int64_t *dims, int n, int64_t rank,
                           oc_mb_rank *out);

/* ---- reduce and allreduce of m packets in LogP (oc_mreduce.c) ---------------
 * A commutative operator, one time unit (p->unit) per packet addition, the
 * schedules of oc_verify_vreduce (item = the packet; columns copy, seq,
 * not_before).  root >= 0: reduce to root; root = -1: allreduce. */
#define OC_MREDUCE_MAX ((int64_t)1 << 26) /* P * m                           */
typedef enum oc_mred_family {
  OC_MR_REVERSED = 0, /* a broadcast construction run backwards in time (and,
                         for allreduce, a broadcast from rank 0 after it)    */
  OC_MR_LIBRED,       /* reduce: an MPI library's reduce program (lib, seg)  */
  OC_MR_RD,           /* allreduce: recursive doubling                       */
  OC_MR_RING,         /* allreduce: ring reduce-scatter + allgather          */
  OC_MR_RABEN,        /* allreduce: Rabenseifner                             */
  OC_MR_REDBCAST,     /* allreduce: binomial reduce, then binomial broadcast */
  OC_MR_LINEAR,       /* allreduce: linear reduce and broadcast              */
  OC_MR_CIRCULANT,    /* allreduce: Karp et al.'s circulant (oc_allreduce.c)  */
  OC_MR_KARP,         /* reduce of one packet: Karp et al.'s optimal
                         reduction (oc_reduce.c)                             */
  OC_MR_SPREAD,       /* rarest-first from a source per segment, run
                         backwards (reduce-scatter), then forwards
                         (allgather) or to the root (gather), in segments
                         of seg packets (ours)                               */
  OC_MR_HYBRID,       /* allreduce: recursive halving for seg steps, then
                         recursive doubling of each rank's share, then
                         doubling back (ours)                                */
  OC_MR_GROUPS,       /* direct reduce-scatter in groups of seg ranks, the
                         circulant across the groups (reduce with flip:
                         Karp's tree backwards), direct allgather or
                         gather to the root (ours)                           */
  OC_MR_COUNT
} oc_mred_family;
/* the MPI libraries' reduce programs (src/plan/oc_rpshape.c) */
typedef enum oc_mred_lib {
  OC_ML_CHAIN = 0, OC_ML_BINARY, OC_ML_BINOMIAL, OC_ML_BMTREE, OC_ML_INORDER, OC_ML_LINEAR,
  OC_ML_RABEN, OC_ML_COUNT
} oc_mred_lib;
const char *oc_mred_lib_name(oc_mred_lib l);
typedef struct oc_mreduce_info {
  oc_mred_family family;
  oc_mred_lib lib;             /* LIBRED: which program                      */
  int64_t seg;                 /* LIBRED, SPREAD: the segment (0 = whole);
                                  HYBRID: halving steps; GROUPS: group size   */
  oc_mbcast_info red;          /* REVERSED: the broadcast run backwards       */
  oc_mbcast_info bc;           /* REVERSED allreduce: the broadcast after it  */
  int flip;                    /* REVERSED allreduce: the broadcast sends the
                                  packets in the order the reduction finishes
                                  them (last first); GROUPS reduce: the
                                  columns reduced by Karp's tree backwards    */
  int exact;                   /* REVERSED: the broadcast built for o + one
                                  addition and run backwards on its own
                                  times (oc_mreduce.c)                         */
  int whole;                   /* oc_mreduce_rank, REVERSED: the view read off
                                  the whole program (O(P m)), in its exact
                                  order, instead of built for the rank alone */
  int64_t time;                /* completion time                             */
  int64_t runner_up;           /* the next best construction's time, or -1   */
  oc_mred_family runner_family;
  oc_mbcast_alg runner_alg;    /* (REVERSED runner-up: which construction)    */
  int64_t timed;               /* candidates simulated                        */
} oc_mreduce_info;
const char *oc_mred_family_name(oc_mred_family f);
/* One candidate as cfg says (cfg->red / cfg->bc as oc_mbcast_run takes
 * them); *time, and the schedule when out is not NULL. */
int oc_mreduce_run(const oc_params *p, int64_t root, int64_t m, const oc_mreduce_info *cfg,
                   oc_sched *out, int64_t *time);
/* The fastest candidate (alg: only that broadcast construction reversed;
 * OC_MB_BEST: all, and for allreduce the other families too); out may be
 * NULL; a schedule handed out has passed oc_verify_vreduce with this time.
 * P * m <= OC_MREDUCE_MAX, else OC_ERANGE. */
int oc_mreduce_plan(const oc_params *p, int64_t root, int64_t m, oc_mbcast_alg alg,
                    oc_sched *out, oc_mreduce_info *info);
/* A rank's own part of a reversed construction (oc_mbrank.c): its
 * broadcast view (oc_mbcast_rank) run backwards - the steps in reverse
 * order, receptions become sends to the parent and sends receptions from
 * the children (added); allreduce (root -1): then the broadcast's view from
 * rank 0.  No O(P) state, no times.  The sends and receptions are the
 * global schedule's as sets, and a reduce's receptions come in the order
 * its program handles them.  The two-tree's steps are put in the order of
 * an estimate of their times instead (its two trees reach a rank at
 * different depths; in segment order the trees wait for each other), and
 * with cfg->whole any reversed construction's view is read off the whole
 * program: the program's order exactly, at O(P m).  The reduction programs (RD, RABEN, HYBRID,
 * RING, REDBCAST, LINEAR: allreduce; GROUPS: both) have their own views,
 * which walk the program (oc_rpshape.c) and keep the rank's part: per step
 * its sends, then its receptions; exactly the schedule's receptions in
 * handling order, its sends with copy and hist.  O(log P) steps for the
 * doubling family, O(m) for the ring, GROUPS the circulant's round search
 * for P/q processors; CIRCULANT (allreduce) its round search for P; KARP
 * (reduce, m = 1) the reduction's oc_reduce_rank.  LIBRED, SPREAD and
 * reversed split-binary and scatters: read off the whole program (O(P m)
 * work and memory), each send after the receptions it waits for. */
int oc_mreduce_rank(const oc_params *p, int64_t root, int64_t m, const oc_mreduce_info *cfg,
                    int64_t rank, oc_mb_rank *out);
/* "reversed two-tree in segments of 4 + binary in segments of 2" and the
 * like (no commas: it goes into CSV tables) */
int oc_mreduce_describe(const oc_mreduce_info *i, int64_t root, int64_t m, char *buf,
                        size_t n);
/* The reduce's lower bound (oc_mreduce.c's header: one packet's reduction;
 * the root's receptions and additions), with its source. */
int oc_mreduce_bound(const oc_params *p, int64_t m, int64_t *lb, const char **source);
/* The allreduce's: the largest of oc_allreduce_vector_bound, the reduce's
 * (an allreduce is also a reduce to processor 0), and the work and the
 * receptions of 2(P-1) messages a packet (a one-way gossip; oc_mreduce.c). */
int oc_mallreduce_bound(const oc_params *p, int64_t m, int64_t *lb, const char **source);

/* ---- combining broadcast (allreduce) ----------------------------------------
 * Karp et al. Thm 4.1, extended to every P and to LogP: every processor
 * sends in rounds every D time units; in round m processor i sends to
 * i + A_m (mod P) a partial result it holds (a cyclic window of values
 * ending at i), A_m being the window every processor has before combining
 * round m; the receiver prepends it (one addition).  A round's result can
 * be sent c = ceil((L + 2o + a)/D) rounds later; the window sent is the
 * largest finished one that does not overshoot P, so the windows add up
 * to exactly P.  D is the least spacing >= max(g, 2o + a) at which a
 * processor's send overhead and its receive overhead plus addition never
 * overlap.  Lower bound: oc_allreduce_bound.  For commutative operators
 * (each processor ends with its cyclic window, x_{i+1} .. x_{P-1} x_0 ..
 * x_i).  Items: the index of the partial result in the sender's history
 * (0 = its own value, k = after its k-th addition). */
int oc_allreduce_schedule(const oc_params *p, oc_sched *out, int64_t *time,
                          int64_t *lower_bound); /* out may be NULL: times only */
/* Rank order for every processor (non-commutative operators): the ordered
 * reduction to rank 0 (item 0 messages, with its additions), then the
 * optimal broadcast of the result from rank 0 (item 1 messages).  Time:
 * reduction time + B(P); the circulant windows cannot keep rank order, as
 * each processor's window wraps around at a different place. */
int oc_allreduce_ordered_schedule(const oc_params *p, oc_sched *out,
                                  int64_t *time, int64_t *lower_bound);
/* The one-packet allreduce's constructions: the circulant above, reduce in
 * rank order then broadcast (oc_allreduce_ordered_schedule), and the optimal
 * commutative reduction (oc_reduce_new, not ordered) then the broadcast. */
typedef enum oc_allreduce_alg {
  OC_AR_CIRCULANT,   /* "karp-circulant"                                     */
  OC_AR_ORDERED,     /* "reduce-then-bcast": rank order, any operator        */
  OC_AR_COMMUTATIVE, /* "commutative-reduce-then-bcast"                      */
  OC_AR_PROGRAM,     /* the fastest of the m-packet planner's constructions
                        (oc_mreduce_plan, m = 1: recursive doubling, the
                        circulant as a dataflow program, ...), named by its
                        family (oc_mred_family_name)                        */
  OC_AR_COUNT
} oc_allreduce_alg;
const char *oc_allreduce_alg_name(oc_allreduce_alg a);
typedef struct oc_allreduce_choice {
  oc_allreduce_alg alg;       /* the fastest (ties: the lower enum value)     */
  const char *name;           /* its name (static): oc_allreduce_alg_name, or
                                 PROGRAM's family                             */
  char description[160];      /* PROGRAM: oc_mreduce_describe's words         */
  int64_t time;               /* its time                                     */
  int64_t lower_bound;        /* oc_allreduce_bound                           */
  int64_t times[OC_AR_COUNT]; /* each construction's time, -1: not available  */
  oc_mreduce_info program;    /* PROGRAM: the m-packet planner's choice       */
} oc_allreduce_choice;
/* Lower bound of the one-packet allreduce (LogP, an addition one unit):
 * max(reduction time, L + 2o + max(g, o) for P >= 3, oc_mallreduce_bound
 * at m = 1); the argument is in
 * oc_allreduce.c's header. */
int oc_allreduce_bound(const oc_params *p, int64_t *lower_bound);
/* The fastest of the constructions for these parameters (P <= 2^16; the
 * circulant only while it has at most 2^26 messages).  out (empty, or NULL
 * for the times alone) gets the winner's schedule: the circulant's form
 * (oc_verify_allreduce), the two-phase form (item 0 the reduction with its
 * additions, item 1 the broadcast: oc_verify_allreduce_ordered) or PROGRAM's
 * vector form (columns op, seq, not_before, hist: oc_verify_vreduce with
 * root -1, m = 1). */
int oc_allreduce_best(const oc_params *p, oc_sched *out, oc_allreduce_choice *c);
/* The same among the constructions whose bit (1u << a) is in mask (times[]
 * of the others -1).  `optcast plan allreduce` (oc_problem) leaves PROGRAM
 * out: its vector form has more columns than the CSV's time,src,dst,item. */
int oc_allreduce_best_of(const oc_params *p, unsigned mask, oc_sched *out,
                         oc_allreduce_choice *c);
/* One construction's schedule (out empty, or NULL) and time, as
 * oc_allreduce_best builds it; OC_ERANGE, OC_EUNSUP where it refuses.
 * PROGRAM: the m-packet planner's fastest (oc_mreduce_plan). */
int oc_allreduce_construct(const oc_params *p, oc_allreduce_alg a, oc_sched *out,
                           int64_t *time);
/* The circulant for a vector of m packets (one a message), as a schedule
 * of oc_verify_vreduce (commutative; one unit per packet addition, as
 * oc_libred): packet j's rounds are mD apart and shifted by jD, item = the
 * packet, the column out->hist[i] (OC_COL_HIST) = the index of the partial
 * result sent in its sender's history of that packet.  Checked by
 * oc_verify_vreduce before it is returned (OC_EINVALID if it ever failed).  *lower_bound
 * (P >= 2): max(reduction time, L + 2o + (m-1) max(g, o), 2mo +
 * ceil(m(P-1)/P)): each processor receives and sends a message of every
 * packet, and some processor does ceil(m(P-1)/P) of the m(P-1) additions,
 * none overlapping an overhead.  out must be empty; OC_ERANGE past
 * P = 2^16 or OC_LIBRED_MSGS_MAX messages. */
int oc_allreduce_vector(const oc_params *p, int64_t m, oc_sched *out, int64_t *time,
                        int64_t *lower_bound);
/* Its time without building it (the same refusals), in the round search's
 * time: the planner times it so and builds it only when it is chosen. */
int oc_allreduce_vector_time(const oc_params *p, int64_t m, int64_t *time);
/* That lower bound alone (any P). */
int oc_allreduce_vector_bound(const oc_params *p, int64_t m, int64_t *lower_bound);

#ifdef __cplusplus
}
#endif
#endif /* OPTCAST_PLAN_H */
