/* optcast/libmodels.h - the MPI libraries' broadcast and allreduce algorithms
 * and their default choices, as LogP schedules (for comparison).
 * Part of the public API; include "optcast.h" for all of it. */
#ifndef OPTCAST_LIBMODELS_H
#define OPTCAST_LIBMODELS_H

#include "optcast/sched.h"
#include "optcast/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- MPI library broadcast algorithms, for comparison (oc_libcoll.c) -------
 * The broadcast algorithms of Open MPI (coll/base) and MPICH as LogP
 * schedules of a message of m packets (items 0..m-1) from any root, each
 * processor issuing its sends in the library's order as early as the rules
 * allow (docs/ALGORITHMS.md, "MPI library algorithms").  Unsegmented
 * algorithms send the whole message as one long message per edge;
 * segmented ones (seg > 0) send segments of seg packets.  Every schedule
 * passes oc_verify_bcast.
 *  LINEAR       the root sends to every rank in rank order (Open MPI
 *               basic_linear)
 *  CHAIN        root -> root+1 -> ... (Open MPI chain, fan-out 1)
 *  PIPELINE     the chain, in segments of seg packets (Open MPI pipeline)
 *  BINARY       Open MPI's binary tree (topo build_tree, fan-out 2)
 *  BINOMIAL     binomial tree, largest subtree first (MPICH binomial)
 *  KNOMIAL      k-nomial tree of radix `radix` (Open MPI / MPICH knomial)
 *  SPLIT_BINARY Open MPI split_bintree: halves down the two subtrees, then
 *               exchanged between partners
 *  BMTREE       Open MPI's binomial tree (topo build_bmtree): the parent
 *               clears the highest set bit of the relative rank; equal to
 *               BINOMIAL's shape only when P is a power of two
 *  SCATTER_RD   binomial scatter + recursive-doubling allgather (MPICH)
 *  SCATTER_RING binomial scatter + ring allgather (MPICH) */
typedef enum oc_libcoll_alg {
  OC_LC_LINEAR = 0,
  OC_LC_CHAIN,
  OC_LC_PIPELINE,
  OC_LC_BINARY,
  OC_LC_BINOMIAL,
  OC_LC_KNOMIAL,
  OC_LC_SPLIT_BINARY,
  OC_LC_SCATTER_RD,
  OC_LC_SCATTER_RING,
  OC_LC_BMTREE,
  OC_LC_COUNT
} oc_libcoll_alg;

#define OC_LIBCOLL_MAX ((int64_t)1 << 26) /* P * m                        */
#define OC_LIBCOLL_RADIX_MAX 64

typedef struct oc_libcoll_spec {
  oc_libcoll_alg alg;
  int64_t seg;    /* packets per segment; 0: the whole message (PIPELINE
                     with 0 is the unsegmented chain)                     */
  int64_t radix;  /* KNOMIAL: 2..OC_LIBCOLL_RADIX_MAX (BINOMIAL: 2)       */
} oc_libcoll_spec;

const char *oc_libcoll_alg_name(oc_libcoll_alg a);
int oc_libcoll_alg_parse(const char *name, oc_libcoll_alg *out);

/* The schedule (out may be NULL: time only) and its completion time.
 * P * m <= OC_LIBCOLL_MAX and m max(g, o) <= 2^50, else OC_ERANGE. */
int oc_libcoll_bcast(const oc_params *p, int64_t root, int64_t m,
                     const oc_libcoll_spec *spec, oc_sched *out, int64_t *time);
/* optcast's own rows for m items: the optimal single-item tree (Karp)
 * pipelined item by item, and Karp's tree for the whole message as one long
 * message (optimal among trees that send it whole; OC_ERANGE when m max(g,o)
 * or L + (m-1) max(g,o) exceeds OC_PARAM_MAX).  LogP multi-item optimality
 * is not claimed for either. */
int oc_libcoll_tree_pipelined(const oc_params *p, int64_t root, int64_t m,
                              oc_sched *out, int64_t *time);
int oc_libcoll_tree_long(const oc_params *p, int64_t root, int64_t m,
                         oc_sched *out, int64_t *time);
/* max(B(P), L + 2o + (m-1) max(g, o)) for P >= 2 (0 for P = 1). */
int oc_libcoll_lower_bound(const oc_params *p, int64_t m, int64_t *lb);

/* The libraries' default choice for P processes and a message of `bytes`
 * bytes: Open MPI 4.1's ompi_coll_tuned_bcast_intra_dec_fixed and MPICH
 * 4.0's MPIR_Bcast_intra_auto (tables in oc_libcoll.c, sources in
 * docs/ALGORITHMS.md). */
typedef enum oc_libcoll_rule { OC_LC_RULE_OMPI = 0, OC_LC_RULE_MPICH = 1 } oc_libcoll_rule;
const char *oc_libcoll_rule_name(oc_libcoll_rule r);
int oc_libcoll_select(oc_libcoll_rule rule, int64_t P, int64_t bytes,
                      oc_libcoll_spec *out);

/* ---- MPI library allreduce algorithms, for comparison (oc_libred.c) -------
 * Commutative allreduce of an m-packet vector (one packet a message) under
 * LogP with one time unit per packet addition; each schedule comes with
 * its receivers' add/copy flags, handling order and earliest handling
 * times (the columns copy, seq, not_before of out, which must be empty),
 * and is checked by oc_verify_vreduce before it is returned (*time its
 * completion).  Algorithms and cost formulas:
 * oc_libred.c's header and docs/ALGORITHMS.md. */
typedef enum oc_libred_alg {
  OC_LR_RD = 0,       /* recursive doubling (MPICH, Open MPI)              */
  OC_LR_RING,         /* ring: reduce-scatter + allgather (Open MPI)       */
  OC_LR_RABEN,        /* Rabenseifner: recursive halving + doubling        */
  OC_LR_REDBCAST,     /* reduce to 0 + broadcast, binomial (Open MPI)      */
  OC_LR_LINEAR,       /* linear reduce to 0 + linear broadcast (Open MPI)  */
  OC_LR_COUNT
} oc_libred_alg;
/* oc_libred_allreduce refuses (OC_ERANGE) an instance whose
 * oc_libred_messages (an estimate of its messages, and for linear of its
 * simulation work) exceeds this: two messages a packet and processor at
 * the largest P m (2^26, OC_MREDUCE_MAX), so that Rabenseifner and reduce +
 * broadcast answer there; about 15 GB and twenty minutes at the limit
 * (docs/BENCHMARKS.md). */
#define OC_LIBRED_MSGS_MAX ((int64_t)1 << 27)
int64_t oc_libred_messages(int64_t P, int64_t m, oc_libred_alg a);
const char *oc_libred_alg_name(oc_libred_alg a);
int oc_libred_allreduce(const oc_params *p, int64_t m, oc_libred_alg a, oc_sched *out,
                        int64_t *time);
/* The libraries' default allreduce (commutative operator) for P processes
 * and `bytes` bytes of `elem` bytes each: Open MPI's
 * ompi_coll_tuned_allreduce_intra_dec_fixed, MPICH's
 * MPIR_Allreduce_intra_auto with its CVAR defaults (docs/ALGORITHMS.md). */
int oc_libred_select(oc_libcoll_rule rule, int64_t P, int64_t bytes, int64_t elem,
                     oc_libred_alg *out);
/* What the library then runs for a vector of `count` elements: Open MPI
 * 4.1's ring falls back to recursive doubling for count < P, its
 * Rabenseifner to basic_linear for count < pof2; MPICH runs what it picks. */
int oc_libred_runs(oc_libcoll_rule rule, oc_libred_alg alg, int64_t P, int64_t count,
                   oc_libred_alg *out);

/* ---- MPI library reduce algorithms, for comparison (oc_libred.c) ----------
 * Commutative reduce of an m-packet vector to root under LogP with one
 * time unit per packet addition: the library's program (lib, with seg
 * packets a segment for the trees, 0 = the whole vector; src/plan/
 * oc_rpshape.c), timed by the planner's simulator and checked by
 * oc_verify_vreduce before it is returned (*time its time); OC_ERANGE past
 * OC_LIBRED_MSGS_MAX messages. */
int oc_libred_reduce(const oc_params *p, int64_t root, int64_t m, oc_mred_lib lib,
                     int64_t seg, oc_sched *out, int64_t *time);
/* The libraries' default reduce for `bytes` bytes of `elem`-byte elements
 * (a built-in commutative operator): Open MPI's
 * ompi_coll_tuned_reduce_intra_dec_fixed (4.1 and 5.0; whole messages),
 * MPICH's MPIR_Reduce_intra_auto with its CVAR defaults. */
int oc_libred_reduce_select(oc_libcoll_rule rule, int64_t P, int64_t bytes, int64_t elem,
                            oc_mred_lib *out);
/* What the library then runs for `count` elements: Open MPI's Rabenseifner
 * reduce falls back to basic_linear for count < pof2. */
int oc_libred_reduce_runs(oc_libcoll_rule rule, oc_mred_lib lib, int64_t P, int64_t count,
                          oc_mred_lib *out);

#ifdef __cplusplus
}
#endif
#endif /* OPTCAST_LIBMODELS_H */
