/* rt_internal.h - the runtime's shared internals (not installed).
 *
 * The runtime's files, in the order a call goes through them:
 *   rt_coll.c    the public collective API: validate, agree, call rt__*
 *   rt_choose.c  which algorithm and how many segments (a table of
 *                candidates with their cost functions; one memo)
 *   rt_model.c   the cost model: each candidate's predicted time
 *   rt_exec.c    the collectives' entry points (each runs a planner's view),
 *                the send window
 *   rt_view.c    the planner's per-rank schedules, run as they are
 *   rt_xport.c   transport calls with deadline and counting, tags, agreement
 *   rt_comm.c    the communicator, its settings, oc_threads_run
 *   rt_sum.c     the distributed sum (replays a global plan) */
#ifndef RT_INTERNAL_H
#define RT_INTERNAL_H

#include "optcast_rt.h"

#define OC_RT_SEGMENTS_MAX 1024 /* most segments a call is cut into */
/* The model's choice never cuts below this many bytes a segment: every
 * message also pays costs the PLogP figures of an idle pair miss (waking a
 * descheduled process, protocol switches), as MPI libraries' own segment
 * sizes (8-128 KiB) reflect.  oc_comm_set_segment overrides it. */
#define OC_RT_SEGMENT_MIN 8192
/* the longest timeout (2^40 ms, ~35 years): longer ones are clamped to it */
#define OC_RT_TIMEOUT_MAX ((int64_t)1 << 40)
/* the most bytes one rank's buffer of a call may span (2^60) */
#define OC_RT_BYTES_MAX ((int64_t)1 << 60)

enum { RT_ALG_AUTO = 0, RT_ALG_TREE, RT_ALG_RING, RT_ALG_DOUBLING, RT_ALG_CHAIN,
       RT_ALG_DIRECT, RT_ALG_RABEN, RT_ALG_CIRCULANT, RT_ALG_MESH,
       RT_ALG_MB = 32 /* + oc_mbcast_alg: the planner's broadcast construction */ };
/* the collectives (also the kinds mixed into tags and signatures) */
enum { RT_BCAST = 1, RT_REDUCE, RT_ALLGATHER, RT_SCAN, RT_SUM, RT_CHECK, RT_ALLREDUCE,
       RT_NCOLL };

/* ---- small helpers ---------------------------------------------------------- */

/* elements per segment when count is cut into m */
static inline int64_t rt_seg_len(int64_t count, int64_t m) { return (count + m - 1) / m; }
/* block b of count cut into P blocks (the first count % P one longer) */
static inline int64_t rt_blk_lo(int64_t count, int P, int b) {
  return (count / P) * b + (b < count % P ? b : count % P);
}
static inline int64_t rt_blk_len(int64_t count, int P, int b) {
  return count / P + (b < count % P ? 1 : 0);
}
/* the same for a 64-bit number of parts (the packets of a view) */
static inline int64_t rt_part_lo(int64_t count, int64_t m, int64_t j) {
  return (count / m) * j + (j < count % m ? j : count % m);
}
static inline int64_t rt_part_len(int64_t count, int64_t m, int64_t j) {
  return count / m + (j < count % m ? 1 : 0);
}
/* element i of a buffer */
static inline char *rt_at(const void *base, int64_t i, const oc_elem *el) {
  return (char *)base + (size_t)i * el->extent;
}

/* ---- the cost model (rt_model.c) ---------------------------------------------
 * A candidate's predicted time in model units for a call of collective
 * coll on count elements, cut into m segments of len elements
 * (unsegmented algorithms ignore len and m). */
typedef struct rt_shape {
  int coll, alg;
  int64_t count, len, m;
  const oc_elem *el;
} rt_shape;
typedef int rt_cost_fn(oc_comm *c, const rt_shape *s, int64_t *t);
rt_cost_fn rt_cost_tree, rt_cost_ring, rt_cost_rd, rt_cost_scan_rd, rt_cost_chain,
    rt_cost_direct, rt_cost_scan_direct;
int rt_cost_allgather(oc_comm *c, int64_t b, int64_t *t); /* Karp's all-to-all, blocks of b bytes */
/* the mesh allgather's phases (oc_allgather_mesh_rank) for blocks of b
 * bytes: the model's least with two phases or more, and its time (n = 0,
 * OC_SAT: none, P prime or below 4); dims holds OC_MESH_DIMS_MAX */
int rt_mesh_dims(oc_comm *c, int64_t b, int64_t *dims, int *n, int64_t *t);
/* the model's time of the mesh allgather of phases dims[0..n-1] (the sum
 * above, phase by phase; n = 1: Karp's all-to-all, rt_cost_allgather) */
int rt_mesh_time(oc_comm *c, int64_t b, const int64_t *dims, int n, int64_t *t);
rt_cost_fn rt_cost_mesh;
/* the tree a pipeline of m segments of `bytes` runs on (LogP with the gap
 * m G), and its time: kind RT_BCAST or RT_REDUCE */
int rt_model_tree(const oc_comm *c, int kind, int64_t bytes, int64_t m, oc_params *tree,
                  int64_t *t);

/* ---- the choice (rt_choose.c) ------------------------------------------------ */
typedef struct rt_choice {
  int alg;          /* RT_ALG_*                                   */
  const char *name; /* oc_callinfo's algorithm                    */
  int64_t m, t;     /* segments (0: the algorithm is unsegmented), time */
} rt_choice;

/* The algorithm (c->alg[coll] or the model's least) and its segment count
 * for a call of count elements; memoised per collective. */
int rt_choose(oc_comm *c, int coll, int64_t count, const oc_elem *el, rt_choice *out);
/* oc_comm_set_algorithm's names: OC_EINVAL for an unknown pair */
int rt_alg_lookup(const char *collective, const char *algorithm, int *coll, int *alg);

/* ---- transport glue (rt_xport.c) --------------------------------------------- */

/* With the check on: agree with every rank on the call's signature
 * (OC_EMISMATCH everywhere when they differ); OC_OK at once when off. */
int rt_agree(oc_comm *c, int kind, int root, int64_t count, const oc_elem *el);

/* The next call's tag: 10 bits of sequence number, the rest a signature of
 * (kind, root, m, model parameters p or NULL). */
int rt_next_tag(oc_comm *c, int kind, int root, int64_t m, const oc_params *p);

/* transport calls with the communicator's deadline and counting;
 * rt_xwait: expect >= 0 checks a receive's element count (OC_EMISMATCH) */
int rt_xsend(oc_comm *c, const void *buf, int64_t n, const oc_elem *el, int peer,
             int tag, oc_req *r);
int rt_xrecv(oc_comm *c, void *buf, int64_t n, const oc_elem *el, int peer,
             int tag, oc_req *r);
int rt_xwait(oc_comm *c, oc_req *r, int64_t expect);
/* the monotonic clock (ns), and waiting until it reads t: a spin below
 * 100 us, a sleep above (on SMPI both simulated) */
int64_t rt_now_ns(void);
void rt_sleep_until(int64_t t);
/* the pacing gap of a stream of `bytes`-byte segments: g in ns where it is
 * above o_s (the link, not the sender, sets the pace), else 0; 0 with
 * pacing off */
int64_t rt_pace_gap(const oc_comm *c, int64_t bytes);
void rt_drain(oc_comm *c, oc_req *r, int64_t n, const unsigned char *live);
/* One exchange: nout elements of `out` to peer `to` and nin into `in` from
 * peer `from` at once (either peer < 0: that half skipped); returns when
 * both are done (a receive of other than nin elements: OC_EMISMATCH). */
int rt_xchg(oc_comm *c, const void *out, int64_t nout, int to, void *in, int64_t nin,
            int from, const oc_elem *el, int tag);
/* the same, copying ncopy elements src -> dst while the messages travel */
int rt_xchg_copy(oc_comm *c, const void *out, int64_t nout, int to, void *in, int64_t nin,
                 int from, const oc_elem *el, int tag, void *dst, const void *src,
                 int64_t ncopy);
/* a buffer of n elements laid out like the caller's (free *raw) */
char *rt_tmp_alloc(const oc_elem *el, int64_t n, void **raw);
void rt_copy_elems(void *dst, const void *src, int64_t n, const oc_elem *el);

/* ---- the communicator (rt_comm.c) ------------------------------------------- */

/* one choice of one collective: key and result (rt_choose.c) */
typedef struct rt_memo {
  int valid, alg, commutative;
  int64_t count, seg;
  size_t extent;
  rt_choice pick;
} rt_memo;
/* the choices kept per collective (the oldest replaced): a program that
 * alternates a few shapes does not price them again on every call */
#define RT_MEMO_WAYS 8

/* a rank's view of the planner's schedule the last call of one collective
 * ran, and its key (rt_view.c): the next call of the same shape runs it
 * without planning again */
typedef struct rt_vmemo {
  int valid, alg, root;
  int64_t count, m;
  size_t extent;
  oc_mb_rank v;
} rt_vmemo;

/* buffers the communicator keeps for the next calls (rt_keep_alloc) */
enum { RT_KEEP_ACC, RT_KEEP_SLOTS, RT_KEEP_SNAP, RT_KEEP_WORK, RT_NKEEP };
/* the largest kept: a larger one is allocated for the call and freed */
#define RT_KEEP_MAX ((size_t)64 << 20)

struct oc_comm {
  oc_transport tp;
  oc_rtparams prm;
  double unit_ns;      /* the model's time unit                        */
  int64_t timeout_ms;  /* 0: none                                      */
  int64_t seg_bytes;   /* 0: chosen from the model                     */
  int check;           /* agree on the arguments first                 */
  int pace;            /* streams keep the model's gap (oc_comm_set_pacing) */
  double combine_ns;   /* the model's cost of combining a byte (ns)      */
  int alg[RT_NCOLL];   /* per collective: RT_ALG_AUTO or the forced one */
  uint64_t seq;        /* collective calls made                        */
  oc_callinfo last;
  rt_memo memo[RT_NCOLL][RT_MEMO_WAYS];
  int memo_next[RT_NCOLL]; /* the entry replaced next                  */
  void *scratch;       /* request arrays of the last calls, reused       */
  size_t scratch_cap;
  rt_vmemo vmemo[RT_NCOLL];
  char ag_name[96];    /* the allgather's mesh, by its phases: mesh-16x16 */
  int64_t ag_bytes;    /* the block size ag_name is for (0: none yet;
                          "mesh" alone: no mesh of two phases, P prime)  */
  void *keep[RT_NKEEP];
  size_t keep_cap[RT_NKEEP];
};

/* bytes of scratch owned by the communicator, zeroed from byte zero_from
 * on (NULL: no memory) */
void *rt_scratch(oc_comm *c, size_t bytes, size_t zero_from);
/* As rt_tmp_alloc, n elements of el, from the communicator's kept buffer
 * k (RT_KEEP_*), grown as needed and kept for the next calls (*raw NULL),
 * or above RT_KEEP_MAX bytes allocated for this call (*raw: free it). Not
 * zeroed; one user of each k at a time. */
char *rt_keep_alloc(oc_comm *c, int k, const oc_elem *el, int64_t n, void **raw);
/* the same in bytes (aligned for int64_t) */
void *rt_keep_bytes(oc_comm *c, int k, size_t bytes, void **raw);
/* a call starts: its oc_callinfo cleared */
void rt_begin(oc_comm *c);
/* the call's oc_callinfo: algorithm, m segments of len elements, time */
void rt_set_info(oc_comm *c, const char *alg, int64_t m, int64_t seg_bytes,
                 int64_t predicted);

/* ---- a window of sends in flight (rt_exec.c) ----------------------------------
 * At most SEND_WINDOW sends posted and not yet waited for; with gap > 0
 * consecutive posts at least gap ns apart (pacing). */
#define SEND_WINDOW 64
typedef struct rt_sendwin {
  oc_req *r;         /* SEND_WINDOW requests                            */
  int64_t ns, head;  /* sends posted; the oldest not yet waited for     */
  int64_t gap, last; /* pacing: ns between posts (0: none), the last post */
  int one;           /* a send posted only once the one before is done  */
  int track;         /* record this post as the last even unpaced (the
                        next send keeps a gap from it)                  */
} rt_sendwin;
int rt_win_send(oc_comm *c, rt_sendwin *w, const void *buf, int64_t n, const oc_elem *el,
                int peer, int tag);
/* Receives posted ahead of the one being combined, from one peer: enough
 * to cover a message's latency at the gap, 2 + (o_s + L + o_r) / g at
 * `bytes`, at most RT_RECV_AHEAD (the callers also keep their slots within
 * RT_RECV_AHEAD_BYTES).  A network that moves a message only once its
 * receive is posted (SMPI; MPI's rendezvous) would otherwise charge a
 * latency per message. */
#define RT_RECV_AHEAD 32
#define RT_RECV_AHEAD_BYTES ((int64_t)16 << 20)
int64_t rt_recv_ahead(const oc_comm *c, int64_t bytes);
/* sends number 0 .. upto (in posting order) done */
int rt_win_wait_upto(oc_comm *c, rt_sendwin *w, int64_t upto);
/* every send done; returns e, or the first error of these */
int rt_win_drain(oc_comm *c, rt_sendwin *w, int e);

/* ---- the collectives (rt_exec.c) -------------------------------------------------
 * The work of each collective, arguments already checked and agreed. */
int rt__bcast(oc_comm *c, void *buf, int64_t count, const oc_elem *el, int root);
int rt__reduce(oc_comm *c, const void *own, void *result, int64_t count,
               const oc_elem *el, int root);
int rt__allreduce(oc_comm *c, const void *own, void *result, int64_t count,
                  const oc_elem *el);
int rt__scan(oc_comm *c, const void *sendbuf, void *recvbuf, int64_t count,
             const oc_elem *el);
int rt__allgather(oc_comm *c, const void *sendbuf, void *recvbuf, int64_t count,
                  const oc_elem *el);
/* acc := in (op) acc when left, acc (op) in when right (in overwritten) */
int rt_fold(const oc_elem *el, char *acc, char *in, int64_t n, int left);

/* ---- the planner's schedules, run as they are (rt_view.c) ------------------------
 * rt_exec_view: a rank's view (oc_mb_rank) on buf, count elements cut into
 * m packets (rt_part_lo); own NULL (or buf) when buf holds the rank's data,
 * else the data, copied into a packet of buf on its first use.  The runtime's choice alg (RT_ALG_MB + a
 * broadcast construction for bcast and reduce, its reversal; RT_ALG_RING,
 * RT_ALG_RABEN, RT_ALG_CIRCULANT for allreduce; Karp et al.'s all-to-all, m = P,
 * for allgather) as the planner's view of
 * this rank (rt_view_of), its time by the planner's simulation
 * (rt_view_time; rt_choose.c simulates at most RT_VIEW_PRICE_MAX messages
 * P m, for a construction named by the caller),
 * and both at once (rt_run_view). */
#define RT_VIEW_PRICE_MAX ((int64_t)1 << 16)
/* alt: NULL, or the data of packet c->tp.rank when buf does not hold it yet
 * and no step adds into it (an allgather's own block): its sends read alt,
 * and it is copied into buf while the messages travel.  how: RT_X_* */
enum {
  RT_X_NOPACE = 1, /* no pacing, whatever the communicator's setting       */
  RT_X_SERIAL = 2  /* a send posted only once the one before it is done   */
};
int rt_exec_view(oc_comm *c, char *buf, const char *own, const char *alt, int64_t count,
                 const oc_elem *el, int64_t m, const oc_mb_rank *v, int tag, unsigned how);
/* this rank's view of the planner's schedule for a call (rt_view_of), kept
 * by the communicator for the next call of the same shape (one per
 * collective); NULL with *err on failure */
const oc_mb_rank *rt_view_get(oc_comm *c, int coll, int alg, int64_t count, const oc_elem *el,
                              int root, int64_t m, int *err);
int rt_view_of(oc_comm *c, int coll, int alg, int64_t count, const oc_elem *el, int root,
               int64_t m, oc_mb_rank *out);
int rt_view_time(oc_comm *c, int coll, int alg, int64_t count, const oc_elem *el, int64_t m,
                 int64_t *t);
int64_t rt_view_packets(const oc_comm *c, int alg, int64_t count);
int rt_run_view(oc_comm *c, int coll, int alg, char *buf, const char *own, const char *alt,
                int64_t count, const oc_elem *el, int root, int64_t m, int tag);

#endif
