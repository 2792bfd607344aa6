/* brute_mreduce.h - the exact optimum of the LogP reduction of m packets
 * to a root on tiny instances, by exhaustive search, written without the
 * library's planners (test support).
 *
 * The problem is oc_verify_vreduce's (include/optcast/verify.h), plain
 * form: every processor starts at time 0 with its own contribution to each
 * packet; a message (s, src, dst, j) carries src's value of packet j at s
 * (what src has added into it by s); src is busy [s, s+o), dst receives
 * during [s+o+L, s+2o+L), send starts of one processor >= g apart, receive
 * starts >= g apart, no two overheads of one processor overlap; dst adds
 * what it receives, one unit of its time per addition, in arrival order,
 * each as early as its overheads allow; a value must never count a
 * contribution twice.  The completion is when the root holds every
 * contribution of every packet once.  Any senders, receivers, times and
 * number of messages.  The search, what it enumerates and why each
 * reduction keeps an optimal schedule, is described at the top of
 * brute_mreduce.c.
 *
 * Range: 1 <= P <= 6, 1 <= m <= 4, 0 <= root < P, L + 2o in 1..30,
 * 1 <= max(g, o) <= 15. */
#ifndef OC_BRUTE_MREDUCE_H
#define OC_BRUTE_MREDUCE_H

#include <stdint.h>

#include "optcast.h"

#define BRUTE_MR_MAXP 6
#define BRUTE_MR_MAXM 4

/* The search's reductions, each optional (for cross-checks of the search
 * against itself): */
#define BRUTE_MR_MEMO 1  /* a table of states proven to fail               */
#define BRUTE_MR_SYM 2   /* interchangeable non-root processors and packets */
#define BRUTE_MR_PRUNE 4 /* lower bounds on what is still to do             */
#define BRUTE_MR_ALL 7

/* The least completion time of a valid schedule; with witness (empty on
 * entry, or NULL) one optimal schedule is appended to it, in send order
 * (m(P-1) messages: each non-root processor sends each packet once).
 * -2: arguments out of range; -1: no memory (or nothing found by the
 * simple upper bound, which would be a bug).  Check the witness with
 * oc_verify_vreduce: its time must be the value returned. */
int64_t brute_mreduce_opt(int64_t L, int64_t o, int64_t g, int64_t P, int64_t m,
                          int64_t root, oc_sched *witness);

/* The same with a choice of reductions (flags: BRUTE_MR_*) and a limit on
 * the search nodes (max_nodes <= 0: none; -3 when it is hit, nothing
 * proven); *nodes (may be NULL) gets the number of nodes visited. */
int64_t brute_mreduce_search(int64_t L, int64_t o, int64_t g, int64_t P, int64_t m,
                             int64_t root, int flags, int64_t max_nodes, oc_sched *witness,
                             int64_t *nodes);

#endif
