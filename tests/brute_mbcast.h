/* brute_mbcast.h - the exact optimum of the LogP broadcast of m items
 * (packets) from processor 0 on tiny instances, by exhaustive search,
 * written without the library's planners (test support).
 *
 * The problem is the contract's (docs/MODEL.md, "The timing rules"): every
 * item held by the root 0 at time 0; a message (s, src, dst, item) keeps
 * src busy during [s, s+o), dst during [s+o+L, s+2o+L), and the item is
 * usable at dst from s+L+2o; send starts of one processor >= g apart,
 * receive starts >= g apart, no two busy intervals of one processor
 * overlap, a sender holds the item at s.  Any sender, any order, any
 * integer times: processors forward what they got, the schedule need not
 * be a tree per item.  The search, what it enumerates and why each
 * reduction keeps an optimal schedule, is described at the top of
 * brute_mbcast.c.
 *
 * Range: 1 <= P <= 6, 1 <= m <= 4, L + 2o in 1..14, max(g, o) <= 15. */
#ifndef OC_BRUTE_MBCAST_H
#define OC_BRUTE_MBCAST_H

#include <stdint.h>

#include "optcast.h"

#define BRUTE_MB_MAXP 6
#define BRUTE_MB_MAXM 4

/* The search's reductions, each optional (for cross-checks of the search
 * against itself): */
#define BRUTE_MB_MEMO 1  /* a table of states proven to fail             */
#define BRUTE_MB_SYM 2   /* interchangeable receivers and items          */
#define BRUTE_MB_PRUNE 4 /* lower bounds on what is still missing        */
#define BRUTE_MB_ALL 7

/* The least completion time of a valid schedule; with witness (empty on
 * entry, or NULL) one optimal schedule is appended to it, in send order.
 * -2: arguments out of range; -1: no memory (or the search found nothing
 * by the simple upper bound, which would be a bug).  The witness is what
 * makes the value exact: the search leaves out the capacity rule (implied
 * by the gaps), so check the witness with oc_verify_bcast. */
int64_t brute_mbcast_opt(int64_t L, int64_t o, int64_t g, int64_t P, int64_t m,
                         oc_sched *witness);

/* The same with a choice of reductions (flags: BRUTE_MB_*) and a limit on
 * the search nodes (max_nodes <= 0: none; -3 when it is hit, nothing
 * proven); *nodes (may be NULL) gets the number of nodes visited. */
int64_t brute_mbcast_search(int64_t L, int64_t o, int64_t g, int64_t P, int64_t m,
                            int flags, int64_t max_nodes, oc_sched *witness,
                            int64_t *nodes);

#endif
