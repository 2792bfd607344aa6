/* optcast/problem.h - one shape for every planner: a problem description
 * in, a verified schedule and a result record out.
 * Part of the public API; include "optcast.h" for all of it.
 *
 * The planners of plan.h each have their own arguments; this layer puts
 * them behind one call, so that a caller (the command line, a benchmark,
 * a binding) handles problems as data:
 *
 *   oc_problem pr;
 *   oc_sched s;
 *   oc_result r;
 *   oc_problem_init(&pr, OC_PROB_SUM, &params);
 *   pr.operands = 82;
 *   oc_sched_init(&s);
 *   if (oc_problem_plan(&pr, &s, &r) == OC_OK) ...   // r.time, r.lower_bound
 *   oc_result_free(&r);
 *   oc_sched_free(&s);
 *
 * Every schedule it returns has passed the problem's verifier with the
 * planned time (broadcasts in LogP/postal: the verifier's time); when the
 * verifier rejects one, the call fails with OC_EINVALID and the verdict in
 * r.check (the rejected messages are still in out, for inspection).  The reconfigurable ring
 * has a schedule type of its own (oc_rrp_sched) and the same shape:
 * oc_rrp_plan(spec, alg, out, result). */
#ifndef OPTCAST_PROBLEM_H
#define OPTCAST_PROBLEM_H

#include "optcast/verify.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum oc_problem_kind {
  OC_PROB_BCAST = 0, /* one item from root (LogP, postal); `items` > 1: m
                        packets from root in LogP (oc_mbcast_plan)          */
  OC_PROB_KBCAST,    /* `items` items from root (postal; k-port: ports > 0)  */
  OC_PROB_SUM,       /* `operands` operands summed at root                   */
  OC_PROB_REDUCE,    /* one value per processor reduced to root; `items` > 1:
                        an m-packet vector in LogP, commutative operator
                        (oc_mreduce_plan)                                    */
  OC_PROB_ALLREDUCE, /* every processor ends with the reduction; `items` >
                        1: as reduce, every processor ends with it          */
  OC_PROB_ALLTOALL,  /* every processor's `items` items to every other       */
  OC_PROB_COUNT
} oc_problem_kind;

/* flags */
#define OC_PF_COMMUTATIVE 1u  /* reduce: any order (default: rank order)     */
#define OC_PF_ORDERED 2u      /* allreduce: rank order (reduce + broadcast)   */
#define OC_PF_PERSONALIZED 4u /* alltoall: exchange (each item to one peer)   */

typedef struct oc_problem {
  oc_problem_kind kind;
  oc_params params;  /* LogP or postal; for the k-port model only P is read */
  int64_t ports;     /* > 0: the k-port model with this many ports (kbcast) */
  int64_t root;      /* bcast, kbcast, sum, reduce                          */
  int64_t items;     /* bcast, reduce, allreduce (m packets), kbcast, alltoall */
  int64_t operands;  /* sum                                                 */
  int alg;           /* bcast: oc_bcast_alg (items > 1: oc_mbcast_alg; reduce
                        and allreduce of m packets: the oc_mbcast_alg run
                        backwards);
                        kbcast: oc_kbcast_alg or, with ports, oc_kport_alg;
                        -1: the problem's default (the fastest)            */
  int64_t degree;    /* kbcast DTREE: the tree's degree (0: chosen)          */
  unsigned flags;    /* OC_PF_*                                             */
} oc_problem;

typedef struct oc_result {
  const char *algorithm;    /* what made the schedule (a static string)      */
  int alg;                  /* the same as the problem's enum value (bcast:
                               oc_bcast_alg, kbcast: oc_kbcast_alg or
                               oc_kport_alg - for BEST the winner); -1 for
                               problems with one algorithm                  */
  int64_t degree;           /* kbcast DTREE: the tree's degree; bcast of m
                               packets, multi-tree: the number of trees;
                               circulant: the number of streams              */
  int64_t segment;          /* bcast of m packets: packets per segment       */
  char choice[160];         /* reduce, allreduce of m packets: the chosen
                               construction in words (oc_mreduce_describe) */
  const char *runner_up;    /* a choice among constructions: the next best
                               (static string), or NULL                      */
  int64_t runner_up_time;   /* its time                                      */
  int64_t timed;            /* the candidates simulated to choose            */
  int64_t time;             /* completion time, model units                  */
  int64_t lower_bound;      /* the strongest lower bound known               */
  const char *bound_source; /* where that bound comes from (static string)   */
  int optimal;              /* time equals a proven optimum                  */
  int upper_only;           /* times only: `time` is an upper bound with no
                               plan behind it (allreduce past 2^16)          */
  int64_t *counts;          /* sum, reduce (P <= OC_REDUCE_PLAN_MAX):
                               operands per processor (oc_result_free)       */
  int64_t used;             /* sum, reduce: processors used                  */
  int64_t formula;          /* kbcast: the algorithm's formula (see
                               oc_kbcast_result); k-port: the height        */
  oc_verdict check;         /* the verifier's verdict on the schedule         */
  int64_t lam_int;          /* kbcast: > 0 when the schedule is the plan of
                               this integer latency run at a fractional one
                               (oc_kbcast_result)                            */
} oc_result;

/* pr for `kind` on `params` with every other field at its default (root 0,
 * items 1, no operands, default algorithm, no flags, LogP/postal). */
void oc_problem_init(oc_problem *pr, oc_problem_kind kind, const oc_params *params);
const char *oc_problem_name(oc_problem_kind kind);
/* by name ("bcast", "kbcast", "sum", "reduce", "allreduce", "alltoall") */
int oc_problem_parse(const char *name, oc_problem_kind *out);

/* Builds the schedule into out (empty; NULL: times only, no schedule - what
 * `optcast bound` reports) and checks it with the problem's verifier.
 * OC_OK; OC_EINVAL, OC_ERANGE, OC_EUNSUP (the planner's own refusals);
 * OC_EINVALID when the verifier rejects the schedule or times it otherwise
 * than planned (res->check says why); OC_ENOMEM.  On success free res
 * with oc_result_free. */
int oc_problem_plan(const oc_problem *pr, oc_sched *out, oc_result *res);
/* The lower bound alone, without a schedule. */
int oc_problem_bound(const oc_problem *pr, oc_result *res);
/* Checks any schedule against the problem (what `optcast verify` does).
 * Allreduce of one packet: a schedule with additions (s->nop > 0) is read
 * in the two-phase form of reduce + broadcast (oc_verify_allreduce_ordered),
 * one without in the circulant's (oc_verify_allreduce). */
int oc_problem_verify(const oc_problem *pr, const oc_sched *s, oc_verdict *v);
void oc_result_free(oc_result *res);

/* ---- a rank's own part ------------------------------------------------------
 * What one processor does: its receptions and its sends, each a message of
 * the global schedule seen from one end.  Built from the per-rank views
 * (oc_bcast_rank, oc_reduce_rank) in O(log P) steps and O(polylog P) time,
 * without the global schedule or any O(P) state - what a rank of a real
 * program needs. */
typedef enum oc_step_kind { OC_STEP_RECV = 0, OC_STEP_SEND = 1 } oc_step_kind;
typedef struct oc_step {
  int64_t t;    /* the message's send start, model units                   */
  int64_t peer; /* the processor at the other end                           */
  int64_t item; /* the item (partial results: 0)                             */
  int kind;     /* oc_step_kind                                             */
} oc_step;
typedef struct oc_rank_plan {
  int64_t rank;
  oc_step *step; /* sorted by t, receptions first at equal t                */
  size_t n, cap;
} oc_rank_plan;
void oc_rank_plan_init(oc_rank_plan *rp);
void oc_rank_plan_free(oc_rank_plan *rp);
/* rank's part of pr's plan (out emptied first): bcast with the karp or
 * shou-chen tree, reduce, kbcast at postal lambda = 1 (the circulant, with
 * --algorithm best or circulant: O(log^3 P + m log P), no O(P) state);
 * OC_EUNSUP for the problems planned only as a global schedule (sum among
 * them: its operand split is global). */
int oc_problem_rank(const oc_problem *pr, int64_t rank, oc_rank_plan *out);
/* kbcast's per-rank view lists O(m) steps: m at most this (OC_ERANGE) */
#define OC_KB_RANK_ITEMS_MAX ((int64_t)1 << 24)

#ifdef __cplusplus
}
#endif
#endif /* OPTCAST_PROBLEM_H */
