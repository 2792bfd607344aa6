/* rt_internal.h - the runtime's shared internals (not installed). */
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

enum { RT_ALG_AUTO = 0, RT_ALG_TREE, RT_ALG_RING, RT_ALG_DOUBLING, RT_ALG_CHAIN };
enum { RT_BCAST = 1, RT_REDUCE, RT_ALLGATHER, RT_SCAN, RT_SUM, RT_CHECK, RT_ALLREDUCE };

/* A rank's cached part of a tree: parent and children (reduce: in the
 * order they are combined, the first nleft prepended), the segment count
 * m of len elements, and the model's prediction. */
typedef struct rt_plan {
  int valid;
  int64_t count;
  size_t extent;
  int root, ordered;
  int64_t m, len, predicted;
  oc_params params;
  int parent;
  int64_t nkids, nleft;
  int *kids;
} rt_plan;

void rt_plan_clear(rt_plan *pl);

/* With the check on: agree with every rank on the call's signature
 * (OC_EMISMATCH everywhere when they differ); OC_OK at once when off. */
int rt_agree(oc_comm *c, int kind, int root, int64_t count, const oc_elem *el);

/* The next call's tag: 10 bits of sequence number, the rest a signature of
 * (kind, root, m, model parameters p or NULL). */
int rt_next_tag(oc_comm *c, int kind, int root, int64_t m, const oc_params *p);

/* transport calls with the communicator's deadline and counting (rt_exec.c);
 * rt_xwait: expect >= 0 checks a receive's element count (OC_EMISMATCH) */
int rt_xsend(oc_comm *c, const void *buf, int64_t n, const oc_elem *el, int peer,
             int tag, oc_req *r);
int rt_xrecv(oc_comm *c, void *buf, int64_t n, const oc_elem *el, int peer,
             int tag, oc_req *r);
int rt_xwait(oc_comm *c, oc_req *r, int64_t expect);
void rt_drain(oc_comm *c, oc_req *r, int64_t n, const unsigned char *live);
/* a buffer of n elements laid out like the caller's (free *raw) */
char *rt_tmp_alloc(const oc_elem *el, int64_t n, void **raw);
void rt_copy_elems(void *dst, const void *src, int64_t n, const oc_elem *el);

struct oc_comm {
  oc_transport tp;
  oc_rtparams prm;
  double unit_ns;      /* the model's time unit                        */
  int64_t timeout_ms;  /* 0: none                                      */
  int64_t seg_bytes;   /* 0: chosen from the model                     */
  int check;           /* agree on the arguments first                 */
  int allreduce_alg;   /* RT_ALG_AUTO, RT_ALG_TREE, RT_ALG_RING            */
  int scan_alg;        /* RT_ALG_AUTO, RT_ALG_DOUBLING, RT_ALG_CHAIN       */
  uint64_t seq;        /* collective calls made                        */
  oc_callinfo last;
  rt_plan bplan, rplan;
  void *scratch;       /* request arrays of the last calls, reused       */
  /* the last allreduce / scan decision: key, choice, predicted time */
  struct {
    int valid, alg, commutative;
    int64_t count, seg;
    size_t extent;
    int64_t pick, t;
  } ar_memo, scan_memo;
  size_t scratch_cap;
};

#endif
