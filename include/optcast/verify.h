/* optcast/verify.h - the verifiers: every model's rules, checked on any schedule.
 * Part of the public API; include "optcast.h" for all of it. */
#ifndef OPTCAST_VERIFY_H
#define OPTCAST_VERIFY_H

#include "optcast/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- verifier --------------------------------------------------------------
 * Checks a schedule against every LogP rule of the contract (postal is LogP
 * with o = 0) for the broadcast of `items` items from `root` (all items held
 * by the root at time 0; every processor must get every item). */
typedef enum oc_rule {
  OC_RULE_NONE = 0,
  OC_RULE_RANGE,      /* processor, item or time out of range; src == dst   */
  OC_RULE_HELD,       /* item sent before it is usable at the sender       */
  OC_RULE_SEND_GAP,   /* two send starts less than g apart                 */
  OC_RULE_RECV_GAP,   /* two receive starts less than g apart              */
  OC_RULE_OVERLAP,    /* two busy intervals of one processor overlap       */
  OC_RULE_CAP_OUT,    /* more than max(1, ceil(L/g)) in transit from one   */
  OC_RULE_CAP_IN,     /* ... or to one processor                           */
  OC_RULE_MISSING,    /* a processor never gets an item                    */
  OC_RULE_OPERAND,    /* operands not a partition of [0,n), not owned, used
                         twice or out of order, or never used              */
  OC_RULE_ARRIVAL,    /* an addition uses a value that has not arrived     */
  OC_RULE_FOLD,       /* an addition whose intervals are not adjacent      */
  OC_RULE_RESULT      /* the root does not end with [0,n), a value is left
                         over, or a processor sends nothing / twice        */
} oc_rule;

const char *oc_rule_name(oc_rule r);

typedef struct oc_verdict {
  int ok;             /* 1 when the schedule is valid                      */
  int64_t time;       /* completion time (valid schedules)                 */
  oc_rule rule;       /* first violation (smallest time, then processor)   */
  int64_t proc;       /* processor of the first violation                  */
  int64_t at;         /* its time (model units)                            */
  int64_t item;       /* item concerned, -1 if none                        */
  size_t msg;         /* index of a message involved, (size_t)-1 if none   */
  char detail[256];   /* one line, human-readable                          */
} oc_verdict;

/* Returns OC_OK with v->ok = 0/1, or an error (OC_ENOMEM, OC_EINVAL). */
int oc_verify_bcast(const oc_params *p, int64_t root, int64_t items,
                    const oc_sched *s, oc_verdict *v);
/* Checks a continuous broadcast: the LogP/postal rules, item i held by the
 * root from time i (user units) only; v->time = the largest delay. */
/* Karp et al. section 3.5's buffered postal model: message i is sent at
 * its t, arrives t + L later into its receiver's buffer, and is taken from
 * there at s->recv_at[i] (the column OC_COL_RECV_AT, required: >= t + L; at
 * most one a step per processor, the receive-gap rule on these times): the
 * item is usable from recv_at[i].
 * continuous: item i is created at time i and v->time is the largest delay
 * (as oc_verify_cbcast); else all items are there from 0. */
int oc_verify_buffered(const oc_params *p, int64_t root, int64_t items, int continuous,
                       const oc_sched *s, oc_verdict *v);
int oc_verify_cbcast(const oc_params *p, int64_t root, int64_t items,
                     const oc_sched *s, oc_verdict *v);

/* Checks a combining schedule (sum of n operands, reduce: n = P) with root
 * `root`: the message rules above, plus additions as busy time, every
 * operand used exactly once and in order, values added only after they
 * arrived, each processor sending its whole accumulator at most once, and
 * the root ending with [0, n).  v->time = when the root's result is
 * complete. */
int oc_verify_reduce(const oc_params *p, int64_t root, int64_t n,
                     const oc_sched *s, oc_verdict *v);
/* Allreduce (commutative): each processor starts with its value; it adds
 * each received partial result in arrival order, as early as its busy
 * time allows (one addition each, prepended to its window: the received
 * window must end just before its own); a message carries the sender's
 * partial result number `item`, finished by the send start; every
 * processor must end with a window of all P values, none twice. */
int oc_verify_allreduce(const oc_params *p, const oc_sched *s, oc_verdict *v);
/* The two-phase ordered allreduce: item 0 messages and the additions form a
 * reduction to rank 0 in rank order (oc_verify_reduce's rules); item 1
 * messages broadcast the result, which rank 0 holds from the end of its
 * last addition; the message rules hold across both phases. */
int oc_verify_allreduce_ordered(const oc_params *p, const oc_sched *s,
                                oc_verdict *v);
/* Vector reduction (root >= 0) and allreduce (root = -1) of m packets,
 * commutative (docs/MODEL.md "Vector combining"): processor q starts with
 * its own contribution to each packet; message i (one packet, item = the
 * packet; no long messages) carries its sender's value of that packet at
 * its send start; its receiver handles the messages it gets one at a time,
 * in arrival order or, with the column seq, in the order seq[i] = 0, 1,
 * ... among the messages to that processor (what its program posts; an
 * early one waits, as an unexpected MPI message does), each once it has
 * arrived and the one before is handled, and adds it (one unit addition,
 * as early as its overheads allow) or, copy[i] set, replaces its own value
 * with it (no cost); the column not_before delays handling message i to
 * not_before[i] at the earliest (an MPI program combines what it received
 * in a step only after starting its own sends of that step); with the
 * column hist, message i carries its sender's value of its packet as it
 * was after the sender handled hist[i] messages of that packet (0: its own
 * contribution) - a program that keeps its partial results.  The columns
 * are the schedule's (OC_COL_COPY, _SEQ, _NOT_BEFORE, _HIST), each
 * optional: without copy all add.  Rules (range also: seq not a
 * permutation, a hist beyond the sender's handled messages of the packet):
 * the message rules of oc_verify_bcast, HELD (with hist: the value is not
 * made by the send start), FOLD (an addition whose result would hold more
 * than P contributions, a copy of fewer than the receiver holds), RESULT
 * (the root, or every processor, ends with every contribution to every
 * packet once: exact for P <= 64; above, by size and a 61-bit fingerprint,
 * a wrong result passing with probability < 2^-60).  v->time: when the last
 * required packet is complete.  P * m <= 2^26, fewer than 2^31 messages,
 * not_before <= OC_TIME_MAX and unit <= OC_PARAM_MAX: else OC_ERANGE. */
int oc_verify_vreduce(const oc_params *p, int64_t root, int64_t m, const oc_sched *s,
                      oc_verdict *v);

/* A set of per-rank views (views[q] for q = 0 .. P-1, m packets) run
 * together symbolically with the operands' order kept (oc_verify_oview.c):
 * every rank starts with its own x_q in each packet and always holds a run
 * x_a op ... op x_b; sends put the current runs into a first-in first-out
 * channel to the peer, receptions take the oldest message from theirs (it
 * must carry the packets and copy/add of the step) and copy it or join it
 * on the step's side (0: in front, the message's run ending at a - 1; 1:
 * behind, starting at b + 1).  Rules: RANGE (steps out of range, a send of
 * an older value, a message unlike its reception), FOLD (runs that do not
 * join), MISSING (a rank waiting forever: a deadlock), RESULT (a message
 * never taken; root >= 0: the root, OC_OVIEWS_ALL: every rank, not ending
 * with x_0 .. x_{P-1} in every packet; OC_OVIEWS_SCAN: rank q not with x_0
 * .. x_q).  v->time: the longest chain of messages before a wanted rank's
 * last reception (rounds, not LogP time).  P m <= 2^26 (else OC_ERANGE). */
#define OC_OVIEWS_ALL (-1)
#define OC_OVIEWS_SCAN (-2)
/* root OC_OVIEWS_GATHER: an allgather's views instead (m a multiple k of
 * P): rank q starts holding only its own packets qk .. qk + k - 1 (packet j
 * as the run j .. j), every step must copy (an addition is RANGE), a send
 * of a packet the rank does not hold is HELD, and every rank must end with
 * every packet j as j .. j (RESULT). */
#define OC_OVIEWS_GATHER (-3)
int oc_verify_oviews(int64_t P, int64_t m, int64_t root, const oc_mb_rank *views,
                     oc_verdict *v);
/* The same with rank q starting from the run of operands first[q] ..
 * first[q] + held[q] - 1 (a distributed sum's, oc_sum_rank) instead of
 * x_q; held[q] = 0: from nothing (such a rank may not send a value that
 * is joined; under OC_OVIEWS_SCAN it wants nothing).  The runs must tile
 * 0 .. n - 1 (OC_EINVAL otherwise), and the wanted result is x_0 ..
 * x_{n-1} (OC_OVIEWS_SCAN: rank q x_0 .. its run's end).  first = held =
 * NULL: oc_verify_oviews. */
int oc_verify_oviews_held(int64_t P, int64_t m, int64_t root, const oc_mb_rank *views,
                          const int64_t *first, const int64_t *held, oc_verdict *v);

/* Checks a k-port schedule (msg t = round >= 1): RANGE, HELD (sent only
 * from the round after it arrived; the root holds everything), CAP_OUT
 * (more than k sends in a round, or two to one processor), CAP_IN (more
 * than k receptions, or two from one processor), MISSING.  v->time = the
 * round in which the last processor gets its last message. */
int oc_verify_kport(int64_t n, int64_t k, int64_t m, int64_t root,
                    const oc_sched *s, oc_verdict *v);

/* Checks a ring schedule against the model and the problem.  Rules: RANGE,
 * HELD (the sender cannot form the item), SEND_GAP (two sends in one
 * step), RECV_GAP (two receive completions in one step), OVERLAP (two
 * messages on one line share a processor while both fly), MISSING (a
 * processor without its item / prefix; the root without its result).
 * v->time = the last arrival step. */
int oc_verify_rrp(const oc_rrp_spec *sp, const oc_rrp_sched *s, oc_verdict *v);
/* CSV with header time,src,dst,item,dir,line (dir cw|ccw). */
int oc_rrp_read_csv(char *buf, size_t len, int64_t N, int64_t L,
                    oc_rrp_sched *out, char *err, size_t errlen);

/* Every processor must end with every item of the others (personalized:
 * every item addressed to it); items start at their sources at time 0. */
int oc_verify_alltoall(const oc_params *p, int64_t k, int personalized,
                       const oc_sched *s, oc_verdict *v);

/* Combining schedules read from CSV (messages only; oc_verify_tree.c);
 * P up to OC_GLOBAL_PROCS_MAX (OC_ERANGE above).
 * oc_verify_tree_rows: the rows a reduction tree into root cannot have,
 * reported at their own time: a processor or time out of range (the first
 * such row at the least time), else the root sending or a processor
 * sending a second time (the earliest).  v->ok = 1 when there are none. */
int oc_verify_tree_rows(const oc_params *p, int64_t root, const oc_sched *s, oc_verdict *v);
/* A sum or reduction: the rows, then the additions inferred into s
 * (oc_reduce_infer; counts: operands per processor, ordered: rank order),
 * then oc_verify_reduce with n = the counts' sum.  Messages that fold in
 * no order, or form no tree, are a verdict (FOLD, RESULT), not an error. */
int oc_verify_reduce_rows(const oc_params *p, int64_t root, const int64_t *counts,
                          int ordered, oc_sched *s, oc_verdict *v);
/* A rank-order allreduce: item 0's messages a rank-order reduction into
 * rank 0 (additions inferred into s, which must have none: OC_EINVAL),
 * item 1's the broadcast back; then oc_verify_allreduce_ordered. */
int oc_verify_allreduce_ordered_rows(const oc_params *p, oc_sched *s, oc_verdict *v);
/* The same with the additions inferred in any order (ordered = 0: the
 * commutative reduction tree, oc_reduce_infer's rule) or in rank order
 * (ordered = 1: oc_verify_allreduce_ordered_rows). */
int oc_verify_allreduce_rows(const oc_params *p, int ordered, oc_sched *s, oc_verdict *v);

#ifdef __cplusplus
}
#endif
#endif /* OPTCAST_VERIFY_H */
