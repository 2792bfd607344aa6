/*
 * optcast_rt.h - running optcast's schedules for real: transports, a
 * communicator and the collective operations.
 *
 * Data flow: a transport (threads in one process, or MPI) gives each rank
 * an endpoint (oc_transport); a communicator (oc_comm) wraps it with the
 * machine's parameters (oc_rtparams, measured by `optcast measure`); each
 * collective call builds the calling rank's OWN plan from the model
 * (oc_bcast_rank / oc_reduce_rank: O(log P) work, no O(P) state) and the
 * executor (rt_exec.c) runs it over the transport, cutting large buffers
 * into segments that are pipelined down the tree.
 *
 * Ownership.  Buffers stay the caller's; a call returns when this rank's
 * part is done and its buffers may be reused (the root of a broadcast may
 * return before the others hold the data).  oc_comm objects are created and
 * freed by the caller; oc_comm_free does not free the transport.
 *
 * Threading.  One oc_comm belongs to one thread at a time: a rank's calls
 * must not overlap.  Different ranks' communicators (the threads transport
 * gives one per thread) are independent and may be used concurrently.
 * Every rank of a communicator must make the same collective calls in the
 * same order with matching arguments (count, type, operator, root), as in
 * MPI.
 *
 * Errors.  Negative oc_err codes (optcast.h): OC_EINVAL for a bad argument
 * on this rank (negative count, root out of range, unknown type, NULL
 * buffer with count > 0), OC_EMISMATCH when a message from a peer does not
 * fit the call (another count, type or operation: caught from the message's
 * size and tag), OC_ETIMEDOUT when a peer sends nothing for the
 * communicator's timeout (a peer that skipped the call or died, or one that
 * passed another root and left others waiting), OC_ETRANSPORT when the
 * transport fails.  A root or operator that differs on some rank is caught
 * for sure only with the argument check on (oc_comm_set_check): without it
 * such a call never hangs, but some ranks may return OC_OK (as in MPI).  After OC_EMISMATCH,
 * OC_ETIMEDOUT or OC_ETRANSPORT the communicator is unusable (messages of
 * the failed call may still be in flight): free it.  No call hangs for
 * longer than the timeout (default 60 s; oc_comm_set_timeout, environment
 * OPTCAST_TIMEOUT_MS).
 */
#ifndef OPTCAST_RT_H
#define OPTCAST_RT_H

#include <stddef.h>
#include <stdint.h>

#include "optcast.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- element types and operators ------------------------------------------ */
#define OC_TYPE_MAP(XX)                                                        \
  XX(BYTE, uint8_t, "byte")                                                   \
  XX(INT8, int8_t, "int8")                                                    \
  XX(UINT8, uint8_t, "uint8")                                                 \
  XX(INT16, int16_t, "int16")                                                 \
  XX(UINT16, uint16_t, "uint16")                                              \
  XX(INT32, int32_t, "int32")                                                 \
  XX(UINT32, uint32_t, "uint32")                                              \
  XX(INT64, int64_t, "int64")                                                 \
  XX(UINT64, uint64_t, "uint64")                                              \
  XX(FLOAT, float, "float")                                                   \
  XX(DOUBLE, double, "double")

typedef enum oc_type {
#define OC_XX_(name, ctype, str) OC_##name,
  OC_TYPE_MAP(OC_XX_)
#undef OC_XX_
  OC_TYPE_COUNT
} oc_type;

const char *oc_type_name(oc_type t);
int oc_type_parse(const char *name, oc_type *out);
size_t oc_type_size(oc_type t); /* 0 for an unknown type */

/* Built-in operators.  Bitwise ones are for integer types only; OC_BYTE has
 * no operator.  Signed integer SUM and PROD wrap modulo 2^bits (computed in
 * unsigned arithmetic, so no undefined behaviour), as MPI implementations do. */
#define OC_OPKIND_MAP(XX)                                                      \
  XX(SUM, "sum")                                                              \
  XX(PROD, "prod")                                                            \
  XX(MIN, "min")                                                              \
  XX(MAX, "max")                                                              \
  XX(BAND, "band")                                                            \
  XX(BOR, "bor")                                                              \
  XX(BXOR, "bxor")                                                            \
  XX(LAND, "land")                                                            \
  XX(LOR, "lor")

typedef enum oc_opkind {
#define OC_XX_(name, str) OC_OP_##name,
  OC_OPKIND_MAP(OC_XX_)
#undef OC_XX_
  OC_OP_USER,
  OC_OPKIND_COUNT
} oc_opkind;

const char *oc_opkind_name(oc_opkind k);
int oc_opkind_parse(const char *name, oc_opkind *out);

/* A user operator: inout[i] = in[i] (op) inout[i] for 0 <= i < n, the left
 * operand `in` holding the lower ranks' contribution (MPI's convention). */
typedef void oc_user_fn(const void *in, void *inout, int64_t n, void *arg);

/* An operator: a built-in kind, or OC_OP_USER with fn and arg.  commutative
 * = 0 makes every combining collective fold strictly in rank order
 * (x_0 op x_1 op ... op x_{P-1}); built-in operators are commutative. */
typedef struct oc_reducer {
  oc_opkind kind;
  oc_user_fn *fn;
  void *arg;
  int commutative;
} oc_reducer;

oc_reducer oc_reducer_builtin(oc_opkind k);
oc_reducer oc_reducer_user(oc_user_fn *fn, void *arg, int commutative);
/* OC_OK when the operator applies to the type (OC_EINVAL otherwise). */
int oc_reducer_check(const oc_reducer *op, oc_type t);
/* inout = in (op) inout for n elements of type t. */
int oc_reducer_apply(const oc_reducer *op, oc_type t, const void *in,
                     void *inout, int64_t n);

/* ---- machine parameters ------------------------------------------------------
 * PLogP-style parameters (Kielmann et al.): per message size, the latency
 * L, the send and receive overheads o_s, o_r and the gap g, in
 * microseconds.  `optcast measure` writes them; a parameter file is text:
 *
 *   # optcast parameters v1
 *   transport threads
 *   procs 8
 *   # bytes L_us os_us or_us g_us
 *   8 0.35 0.12 0.10 0.20
 *   ...
 *
 * Sizes ascending; values between rows are interpolated linearly and
 * beyond the last row extrapolated from the last two rows. */
#define OC_RTPARAMS_ROWS_MAX 64
typedef struct oc_rtparams {
  int nrows;
  int64_t bytes[OC_RTPARAMS_ROWS_MAX];
  double L[OC_RTPARAMS_ROWS_MAX], os[OC_RTPARAMS_ROWS_MAX],
      orv[OC_RTPARAMS_ROWS_MAX], g[OC_RTPARAMS_ROWS_MAX];
  char transport[32];
  int64_t procs; /* ranks the measurement ran on, 0 if unknown */
  double combine_ns; /* a combination's cost per byte (a sum of doubles), in
                        ns; 0 if unknown (the runtime then takes 0.1) */
} oc_rtparams;

/* Defaults: a shared-memory machine of today (documented in docs/RUNTIME.md). */
void oc_rtparams_default(oc_rtparams *p);
/* Read / write a parameter file.  Read: OC_EIO (cannot open), OC_EPARSE
 * with *line set to the offending line (1-based), OC_ERANGE (a value
 * negative, not finite, or sizes not ascending). */
int oc_rtparams_read(const char *path, oc_rtparams *p, int *line);
/* The same from text in memory (files up to 1 MiB; lines up to 511 bytes). */
int oc_rtparams_parse(const char *text, size_t len, oc_rtparams *p, int *line);
int oc_rtparams_write(const char *path, const oc_rtparams *p);
/* The parameters at one message size, interpolated (microseconds). */
void oc_rtparams_at(const oc_rtparams *p, int64_t bytes, double *L, double *os,
                    double *orv, double *g);
/* The model for messages of `bytes` bytes: LogP in integer units of
 * `unit_ns` nanoseconds (each value rounded up; g at least 1 unit) for P
 * processors: o the mean of o_s and o_r but at most g/2 (where o_s + o_r
 * exceeds g, both contain the transfer: a rendezvous), and L such that L +
 * 2o is the measured one-way time RTT/2 = L_PLogP + g. */
int oc_rtparams_model(const oc_rtparams *p, int64_t bytes, int64_t P,
                      double unit_ns, oc_params *out);

/* ---- transports -----------------------------------------------------------------
 * A rank's endpoint.  Elements are described by an oc_elem (below); the
 * transport moves n elements from / to a buffer.  Requests live in
 * caller-provided storage.  wait returns OC_ETIMEDOUT once the monotonic
 * clock passes deadline_ns (a CLOCK_MONOTONIC time; < 0: no deadline), and
 * for a receive sets *got to the elements received (OC_EMISMATCH when more
 * arrived than fit). */
typedef struct oc_req {
  uint64_t opaque[8];
} oc_req;

typedef struct oc_elem oc_elem;

typedef struct oc_transport {
  void *ctx;
  int rank, size;
  int tag_max; /* largest tag the transport carries (>= 32767) */
  /* the transport's handle for a raw byte (MPI: MPI_BYTE; threads: NULL),
   * used by the runtime's own small messages (argument checks) */
  const void *byte_handle;
  int (*isend)(void *ctx, const void *buf, int64_t n, const oc_elem *el,
               int peer, int tag, oc_req *r);
  int (*irecv)(void *ctx, void *buf, int64_t n, const oc_elem *el, int peer,
               int tag, oc_req *r);
  int (*wait)(void *ctx, oc_req *r, int64_t deadline_ns, int64_t *got);
  /* abandon a request that timed out (best effort) */
  void (*cancel)(void *ctx, oc_req *r);
  unsigned flags; /* OC_TRANSPORT_* (0: none) */
} oc_transport;

/* The network shares a link's bandwidth among the messages in flight on it
 * (a flow model, as SimGrid's SMPI simulates) instead of sending them one
 * after the other: a rank that posts a stream of segments at once gets
 * them all delivered together at the end.  The communicator then paces its
 * streams (oc_comm_set_pacing).  oc_mpi_transport sets it when built with
 * SMPI's smpicc. */
#define OC_TRANSPORT_SHARED_LINKS 1u

/* How the executor sees an element: its extent in memory, the span a
 * buffer of elements needs (true_lb, true_extent, as MPI's
 * MPI_Type_get_true_extent), the transport's own handle for it (an
 * MPI_Datatype for the MPI transport; unused by the threads transport,
 * which moves extent bytes per element) and how two are combined. */
struct oc_elem {
  size_t extent;
  ptrdiff_t true_lb;
  size_t true_extent;
  const void *handle;
  /* inout = in (op) inout over n elements; NULL for data movement only */
  int (*combine)(const oc_elem *el, const void *in, void *inout, int64_t n);
  /* dst = src for n elements, touching only the elements' own bytes (an
   * MPI datatype with gaps); NULL: the span is copied with memcpy */
  int (*copy)(const oc_elem *el, void *dst, const void *src, int64_t n);
  int commutative;
  /* for combine: the built-in reducer or the caller's own context */
  oc_type type;
  oc_reducer op;
  void *user;
};

/* The threads transport: P ranks in one process.  A world owns the
 * mailboxes; each thread takes its own endpoint. */
typedef struct oc_threads oc_threads;
int oc_threads_new(oc_threads **out, int P);
void oc_threads_free(oc_threads *w);
int oc_threads_endpoint(oc_threads *w, int rank, oc_transport *out);

/* ---- communicator ---------------------------------------------------------------- */
typedef struct oc_comm oc_comm;

/* params NULL: oc_rtparams_default.  The transport is copied. */
int oc_comm_new(oc_comm **out, const oc_transport *tp, const oc_rtparams *params);
void oc_comm_free(oc_comm *c);
int oc_comm_rank(const oc_comm *c);
int oc_comm_size(const oc_comm *c);
/* Per wait, in ms: 0 = wait forever; longer than 2^40 is clamped to 2^40;
 * the default comes from OPTCAST_TIMEOUT_MS or 60000. */
void oc_comm_set_timeout(oc_comm *c, int64_t ms);
/* Argument check: on = every collective first agrees with all ranks on
 * its kind, root, count, element extent and operator (one extra round of
 * ceil(log2 P) 16-byte messages) and fails with OC_EMISMATCH on every rank
 * when they differ.  Without it a count mismatch is still caught from the
 * message sizes, but a root or operator mismatch may go unnoticed (as in
 * MPI).  Default: off, or the environment's OPTCAST_CHECK=1. */
void oc_comm_set_check(oc_comm *c, int on);
/* The algorithm of one collective, instead of the model's choice:
 *   "bcast":     "auto" = "pipeline" (Karp's tree pipelined, the planner's
 *                `pipeline`) | a planner construction run as the planner
 *                builds it: "karp" | "chain" | "binary" | "binomial" |
 *                "two-tree" | "circulant-bcast"
 *   "reduce":    "auto" = "pipeline" (its reversal; the ordered reduction
 *                tree for a non-commutative operator) | the same
 *                constructions run backwards (commutative operators only:
 *                OC_EINVAL at the call otherwise)
 *   "allreduce": "auto" | "tree" (reduce + broadcast) | "doubling"
 *                (recursive doubling) | "ring" (commutative operators only:
 *                OC_EINVAL at the call otherwise) | "direct" (reduce-scatter
 *                and allgather, each one exchange of every rank with all) |
 *                "rabenseifner" | "circulant" (Karp et al.'s, one packet;
 *                both commutative only)
 *   "scan":      "auto" | "doubling" | "chain" | "direct" (every rank's value
 *                straight to every higher rank)
 * The planner's constructions are taken only by name; the segment count
 * is the one the planner's simulation of the schedule puts lowest (at most
 * 2^16 messages P m simulated).  OC_EINVAL for another collective or name.
 * (Allgather has one algorithm.) */
int oc_comm_set_algorithm(oc_comm *c, const char *collective, const char *algorithm);
/* The names oc_comm_set_algorithm takes for a collective, comma-separated
 * into buf (n bytes, truncated); returns how many (0: the collective has
 * no choice or is unknown). */
int oc_algorithm_names(const char *collective, char *buf, size_t n);
/* Segment size in bytes: 0 (default, or the environment's OPTCAST_SEGMENT)
 * = chosen from the model per call; otherwise every message carries at most
 * this many bytes. */
void oc_comm_set_segment(oc_comm *c, int64_t bytes);
/* Pacing: a rank posts the segments of a stream no closer together than the
 * model's gap G = max(g, o_s) at the segment's size (the parameters
 * interpolated), the LogP rule that consecutive sends of a processor are at
 * least g apart, which the executor otherwise leaves to the network.  On a
 * network that serves messages one after the other this only costs the
 * waiting (a spin below 100 us, a sleep above); on one that shares its
 * links (OC_TRANSPORT_SHARED_LINKS) it is what makes a pipeline a pipeline.
 * Default: on for such transports, off otherwise, or the environment's
 * OPTCAST_PACE=1 / 0. */
void oc_comm_set_pacing(oc_comm *c, int on);

/* What the last call on this rank ran: the tree's algorithm, segments and
 * the model's predicted time (units of unit_ns), for reports and tests.
 * algorithm is a static string, except the allgather's mesh (its phases:
 * "mesh-8x32"), which the communicator keeps until its next allgather. */
typedef struct oc_callinfo {
  const char *algorithm;
  int64_t segments, segment_bytes;
  int64_t predicted;  /* model units */
  double unit_ns;
  int64_t sends, recvs; /* messages this rank sent and received */
} oc_callinfo;
void oc_comm_last_call(const oc_comm *c, oc_callinfo *out);

/* ---- collectives (built-in types) --------------------------------------------
 * count elements of type t per rank; roots 0 <= root < size.  A count whose
 * bytes exceed 2^60 (allgather: the whole receive buffer) is OC_ERANGE. */
int oc_coll_bcast(oc_comm *c, void *buf, int64_t count, oc_type t, int root);
/* recvbuf used at the root only (may be NULL elsewhere); sendbuf may equal
 * recvbuf at the root (in place). */
int oc_coll_reduce(oc_comm *c, const void *sendbuf, void *recvbuf,
                   int64_t count, oc_type t, const oc_reducer *op, int root);
int oc_coll_allreduce(oc_comm *c, const void *sendbuf, void *recvbuf,
                      int64_t count, oc_type t, const oc_reducer *op);
/* recvbuf: size * count elements, rank r's block at r * count */
int oc_coll_allgather(oc_comm *c, const void *sendbuf, void *recvbuf,
                      int64_t count, oc_type t);
/* inclusive prefix: rank r gets x_0 op ... op x_r */
int oc_coll_scan(oc_comm *c, const void *sendbuf, void *recvbuf, int64_t count,
                 oc_type t, const oc_reducer *op);
/* Shou & Chen's distributed sum of n operands (each `count` elements):
 * the plan places them (oc_coll_sum_share says which operand indices this
 * rank holds: first .. first + held - 1; `operands` holds those, one after
 * the other) and folds them in index order at the root, in the optimal time
 * for n operands (oc_sum_new with the model at count elements).  Unlike the
 * other collectives this builds the global plan (O(n) set-up, n at most
 * OC_REDUCE_PLAN_MAX) on every rank. */
int oc_coll_sum_share(oc_comm *c, int64_t n, int64_t count, oc_type t,
                      int root, int64_t *first, int64_t *held);
int oc_coll_sum(oc_comm *c, int64_t n, const void *operands, void *recvbuf,
                int64_t count, oc_type t, const oc_reducer *op, int root);

/* ---- the same on any element description (what the MPI interposer uses) --- */
int oc_exec_bcast(oc_comm *c, void *buf, int64_t count, const oc_elem *el,
                  int root);
int oc_exec_reduce(oc_comm *c, const void *sendbuf, void *recvbuf,
                   int64_t count, const oc_elem *el, int root);
int oc_exec_allreduce(oc_comm *c, const void *sendbuf, void *recvbuf,
                      int64_t count, const oc_elem *el);
int oc_exec_allgather(oc_comm *c, const void *sendbuf, void *recvbuf,
                      int64_t count, const oc_elem *el);
int oc_exec_scan(oc_comm *c, const void *sendbuf, void *recvbuf,
                 int64_t count, const oc_elem *el);
/* sendbuf == OC_IN_PLACE: the data is already in recvbuf (MPI_IN_PLACE) */
#define OC_IN_PLACE ((const void *)1)

/* An oc_elem for a built-in type and operator (op NULL: no combining). */
int oc_elem_builtin(oc_elem *el, oc_type t, const oc_reducer *op);

/* ---- measuring a transport (PLogP, Kielmann et al.) ---------------------------
 * Collective over c (size >= 2): every pair of ranks (0,1), (2,3), ...
 * measures at the same time (the machine under a collective's load) and
 * pair (0,1)'s figures are kept: for each size
 * (bytes, strictly ascending, at most OC_RTPARAMS_ROWS_MAX, each <= 2^30),
 * the ping-pong round trip RTT, the send overhead o_s, the receive
 * overhead o_r (of a message already there), the gap g (period of a
 * saturated stream), medians of reps repetitions, and L = RTT/2 - g at the
 * smallest size (PLogP's L does not depend on the size); every
 * rank gets the table in *out (transport name left empty).  progress, if
 * not NULL, is called on rank 0 after each size. */
typedef void oc_measure_progress(int done, int total, int64_t bytes, void *arg);
int oc_measure(oc_comm *c, const int64_t *sizes, int nsizes, int reps,
               oc_rtparams *out, oc_measure_progress *progress, void *arg);

/* Run fn on P threads, each with its own communicator on one threads
 * world; rcs[r] (P entries, may be NULL) gets rank r's return value.
 * Returns OC_OK when every thread ran (whatever fn returned). */
typedef int oc_rank_fn(oc_comm *c, void *arg);
int oc_threads_run(int P, const oc_rtparams *params, int64_t timeout_ms,
                   oc_rank_fn *fn, void *arg, int *rcs);

/* CLOCK_MONOTONIC in microseconds; the median of v[0..n-1], n >= 1 (sorts
 * v).  For timing collectives (`optcast run`, the benchmarks). */
double oc_now_us(void);
double oc_median(double *v, int n);

#ifdef __cplusplus
}
#endif
#endif /* OPTCAST_RT_H */
