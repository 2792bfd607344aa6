/* brute_rrp.h - exhaustive (optimal) search for broadcast, in-order
 * reduction and prefix scan on tiny reconfigurable rings, (N, L)-RRP,
 * written without the library (test support).
 *
 * The model is the project's contract (include/optcast.h, "reconfigurable
 * ring"): a message from i to j goes cw or ccw over d ring edges on one of
 * L lines, holds that line's closed segment for f = max(1, ceil(log2 d))
 * steps (t .. t+f-1), is usable from step t+f; per step a processor starts
 * at most one send and completes at most one receive.
 *
 * What is exact, and how long it takes (gcc -O2, one core; the driver
 * tools/rrp_brute_main.c prints the figures of a run):
 *   brute_rrp_bcast       exact for 1 <= N <= 8, any L >= 1: the whole
 *                         N = 2..8 x L = 1..8 table in milliseconds.
 *   brute_rrp_reduce      exact (any interval the sender can form) for
 *                         1 <= N <= 8, every root, any L: milliseconds per
 *                         call; N = 8, all roots, L = 1..8 and both rules
 *                         below 0.2 s.
 *   BRUTE_RRP_LONGEST     (brute_rrp_reduce_sched, brute_rrp_scan_sched)
 *                         the optimum with senders restricted to the CSV
 *                         rule: the longest interval ending at b; exact too.
 *   brute_rrp_reduce_full the same reduction by a plain search over every
 *                         processor's whole knowledge (no derivation-tree
 *                         argument): an independent cross-check, N <= 8,
 *                         milliseconds per call.
 *   brute_rrp_scan        exact for N <= 8.  N <= 7: at most 0.3 s per call
 *                         (all of N = 2..7 x L = 1..8, both rules, about
 *                         3 s); N = 8: about 30 s per call for L >= 2
 *                         (optimum 3) and 17 minutes for L = 1 (optimum 5,
 *                         575 million states); the driver stops at N = 7.
 * Arguments out of range give -2; -1 means no memory or no schedule within
 * BRUTE_RRP_TMAX = 24 steps (which cannot happen in range: a chain along
 * the ring on one line needs N - 1 steps for a broadcast or a scan, N for a
 * reduction).
 *
 * The searches, what they enumerate and why each pruning is safe, are
 * described at the top of brute_rrp.c. */
#ifndef OC_BRUTE_RRP_H
#define OC_BRUTE_RRP_H

#define BRUTE_RRP_CW 0  /* = OC_RRP_CW  */
#define BRUTE_RRP_CCW 1 /* = OC_RRP_CCW */

/* rule / flags */
#define BRUTE_RRP_ANY 0     /* a combining message may carry any interval
                               its sender can form                        */
#define BRUTE_RRP_LONGEST 1 /* ... only the longest one ending at its b   */
#define BRUTE_RRP_NOPRUNE 2 /* self-test: no lower bounds, no failure
                               table, deadlines from 1 (slow)             */
#define BRUTE_RRP_NOSTAGE 4 /* self-test: search with all L lines at once */

/* problems for brute_rrp_solve */
#define BRUTE_RRP_BCAST 0
#define BRUTE_RRP_REDUCE 1      /* the derivation-tree search             */
#define BRUTE_RRP_SCAN 2
#define BRUTE_RRP_REDUCE_FULL 3 /* reduce by the whole-knowledge search   */

#define BRUTE_RRP_MAXN 8
#define BRUTE_RRP_TMAX 24
#define BRUTE_RRP_MAXMSG (BRUTE_RRP_MAXN * BRUTE_RRP_TMAX)

/* One message: sent in step t (from 1) from src to dst in direction dir on
 * line 0..L-1.  Broadcast: a = b = 0 (the item).  Reduce / scan: it
 * carries x_a (*) ... (*) x_b; the project's CSV item is b. */
typedef struct brute_rrp_msg {
  int t, src, dst, a, b, dir, line;
} brute_rrp_msg;

typedef struct brute_rrp_sched {
  int n;              /* messages, sorted by send step                    */
  int time;           /* the last arrival step (= the optimum)            */
  long long nodes;    /* search statistics: states expanded               */
  brute_rrp_msg msg[BRUTE_RRP_MAXMSG];
} brute_rrp_sched;

/* The general entry: problem as above, root (0 for BCAST and SCAN), flags
 * an OR of the above; out may be NULL.  BCAST and REDUCE take N <= 8, SCAN
 * and REDUCE_FULL N <= 6. */
int brute_rrp_solve(int problem, int N, int L, int root, int flags,
                    brute_rrp_sched *out);

/* Broadcast from processor 0 (any root by rotation): the least number of
 * steps; 0 for N = 1.  out (may be NULL) gets one optimal schedule. */
int brute_rrp_bcast(int N, int L);
int brute_rrp_bcast_sched(int N, int L, brute_rrp_sched *out);

/* In-order reduction of x_0 .. x_{N-1} into root: the least number of
 * steps (0 for N = 1).  rule is BRUTE_RRP_ANY or BRUTE_RRP_LONGEST. */
int brute_rrp_reduce(int N, int L, int root);
int brute_rrp_reduce_sched(int N, int L, int root, int rule,
                           brute_rrp_sched *out);
/* The same by the whole-knowledge search (N <= 5; slow beyond). */
int brute_rrp_reduce_full(int N, int L, int root, int rule,
                          brute_rrp_sched *out);

/* Prefix scan: every p ends able to form x_0 (*) ... (*) x_p (N <= 5). */
int brute_rrp_scan(int N, int L);
int brute_rrp_scan_sched(int N, int L, int rule, brute_rrp_sched *out);

#endif
