/* rt_mpi.c - the MPI transport (optcast_mpi.h).
 *
 * An endpoint is the communicator itself: oc_transport.ctx holds the
 * MPI_Comm handle (copied bit for bit into the pointer, so nothing is
 * allocated and nothing needs freeing), a request holds the MPI_Request,
 * the datatype (for MPI_Get_count) and what kind of request it is.  Every
 * MPI call goes through its PMPI_ name: inside the interposer
 * (mpi_interpose.c) the transport must reach the MPI library, not the
 * interposer's own MPI_ functions.
 *
 * wait polls PMPI_Test (a blocking PMPI_Wait could not honour the
 * deadline): eight polls back to back, then polls separated by
 * sched_yield() for the first SPIN_NS, then sleeps of 1 us doubling up to
 * 50 us between polls, so that ranks oversubscribing the cores leave them
 * to the ranks that have work.  (A nanosleep lasts at least the timer
 * slack, about 50 us on Linux: sleeping at once would make every short
 * message cost that much.)
 *
 * Under SimGrid's SMPI (its mpi.h defines SMPI_H) time is simulated, and
 * polling costs simulated time: each unsuccessful PMPI_Test injects some
 * (SMPI's smpi/test, growing with the count), and a sleep advances the
 * simulated clock by its length.  There the wait blocks in PMPI_Wait, which
 * costs nothing beyond the message itself; the deadline is not enforced
 * (a rank that would wait forever is a deadlock, which SMPI detects and
 * reports itself, ending the run). */
/* Built with mpicc only (mpi.mk).  Where mpi.h cannot be found -- the
 * project-wide static checks run on the sources without MPI's include path --
 * the file is empty; tests/mpi/run.sh runs clang-tidy on it with mpicc's. */
#if defined(__has_include)
#if !__has_include(<mpi.h>)
#define OC_NO_MPI_H 1
#endif
#endif
#ifndef OC_NO_MPI_H
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "optcast_mpi.h"

/* MPI handles are pointers (Open MPI) or integers (MPICH): either fits in a
 * pointer and is carried in one through a union, bit for bit. */
_Static_assert(sizeof(MPI_Comm) <= sizeof(void *), "MPI_Comm fits a pointer");
_Static_assert(sizeof(MPI_Datatype) <= sizeof(void *), "MPI_Datatype fits a pointer");
_Static_assert(sizeof(MPI_Op) <= sizeof(void *), "MPI_Op fits a pointer");

/* name_pack / name_unpack: handle type H carried in pointer type P */
#define HANDLE_CARRIER(name, H, P)                                             \
  typedef union {                                                              \
    H h;                                                                       \
    P p;                                                                       \
  } name##_u;                                                                  \
  static P name##_pack(H x) {                                                  \
    name##_u u;                                                                \
    u.p = NULL;                                                                \
    u.h = x;                                                                   \
    return u.p;                                                                \
  }                                                                            \
  static H name##_unpack(P p) {                                                \
    name##_u u;                                                                \
    u.p = p;                                                                   \
    return u.h;                                                                \
  }
HANDLE_CARRIER(comm, MPI_Comm, void *)
HANDLE_CARRIER(dt, MPI_Datatype, const void *)
HANDLE_CARRIER(op, MPI_Op, void *)

/* a request as it sits in oc_req.opaque */
enum { MREQ_NONE = 0, MREQ_SEND = 1, MREQ_RECV = 2 };
typedef struct mreq {
  int kind;
  MPI_Datatype dt;
  MPI_Request req;
  size_t bytes_per; /* handle NULL: the element's extent (moved as bytes) */
} mreq;
_Static_assert(sizeof(mreq) <= sizeof(oc_req), "an MPI request fits oc_req");

static void req_get(const oc_req *r, mreq *q) { memcpy(q, r->opaque, sizeof *q); }
static void req_put(oc_req *r, const mreq *q) {
  memset(r, 0, sizeof *r);
  memcpy(r->opaque, q, sizeof *q);
}

/* an MPI error code as an optcast error */
static int mpi_err(int rc) {
  int cls = MPI_ERR_OTHER;
  if (rc == MPI_SUCCESS) return OC_OK;
  if (PMPI_Error_class(rc, &cls) != MPI_SUCCESS) cls = MPI_ERR_OTHER;
  return cls == MPI_ERR_TRUNCATE ? OC_EMISMATCH : OC_ETRANSPORT;
}

#ifndef SMPI_H
#define SPIN_NS 200000 /* yield, not sleep, for the first 200 us of a wait */

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
#endif

static void nap(long ns) {
  struct timespec ts;
  ts.tv_sec = 0;
  ts.tv_nsec = ns;
  nanosleep(&ts, NULL);
}

/* Check a message and say how it travels: *dt and *count, with q->bytes_per
 * set when the element has no MPI datatype (handle NULL: an oc_elem_builtin
 * element, as oc_coll_* use) and moves as extent bytes, as in the threads
 * transport. */
static int prepare(MPI_Comm comm, int64_t n, const oc_elem *el, int peer, int tag,
                   mreq *q, int *count) {
  int size = 0;
  if (el == NULL || n < 0 || tag < 0) return OC_EINVAL;
  if (PMPI_Comm_size(comm, &size) != MPI_SUCCESS) return OC_ETRANSPORT;
  if (peer < 0 || peer >= size) return OC_EINVAL;
  q->req = MPI_REQUEST_NULL;
  if (el->handle != NULL) {
    q->dt = dt_unpack(el->handle);
    q->bytes_per = 0;
    if (n > INT_MAX) return OC_ERANGE; /* the executor's segments are smaller */
    *count = (int)n;
  } else {
    q->dt = MPI_BYTE;
    q->bytes_per = el->extent;
    if (el->extent == 0 || (uint64_t)n > (uint64_t)INT_MAX / el->extent) return OC_ERANGE;
    *count = (int)((size_t)n * el->extent);
  }
  return OC_OK;
}

/* post a send (buf read) or a receive (into buf) */
static int mp_post(void *ctx, int kind, void *buf, int64_t n, const oc_elem *el, int peer,
                   int tag, oc_req *r) {
  MPI_Comm comm = comm_unpack(ctx);
  mreq q;
  int count = 0, rc, e;
  memset(&q, 0, sizeof q);
  if ((e = prepare(comm, n, el, peer, tag, &q, &count)) != OC_OK) return e;
  q.kind = kind;
  rc = kind == MREQ_SEND ? PMPI_Isend(buf, count, q.dt, peer, tag, comm, &q.req)
                         : PMPI_Irecv(buf, count, q.dt, peer, tag, comm, &q.req);
  if (rc != MPI_SUCCESS) return mpi_err(rc);
  req_put(r, &q);
  return OC_OK;
}

static int mp_isend(void *ctx, const void *buf, int64_t n, const oc_elem *el,
                    int peer, int tag, oc_req *r) {
  return mp_post(ctx, MREQ_SEND, (void *)(uintptr_t)buf, n, el, peer, tag, r);
}

static int mp_irecv(void *ctx, void *buf, int64_t n, const oc_elem *el,
                    int peer, int tag, oc_req *r) {
  return mp_post(ctx, MREQ_RECV, buf, n, el, peer, tag, r);
}

/* Wait for q's request (st: its status); OC_ETIMEDOUT past the deadline
 * (-1: none), the request left pending. */
#ifdef SMPI_H
static int req_wait(mreq *q, MPI_Status *st, int64_t deadline_ns) {
  int rc;
  (void)deadline_ns; /* simulated time: block (see the top of the file) */
  rc = PMPI_Wait(&q->req, st);
  if (rc == MPI_SUCCESS) return OC_OK;
  if (q->req != MPI_REQUEST_NULL) PMPI_Request_free(&q->req);
  return mpi_err(rc);
}
#else
static int req_wait(mreq *q, MPI_Status *st, int64_t deadline_ns) {
  int polls = 0, flag = 0, rc;
  long sleep_ns = 1000;
  int64_t spin_until = -1;
  for (;;) {
    rc = PMPI_Test(&q->req, &flag, st);
    if (rc != MPI_SUCCESS) {
      /* a request that completed in error is not freed by MPI_Test */
      if (q->req != MPI_REQUEST_NULL) PMPI_Request_free(&q->req);
      return mpi_err(rc);
    }
    if (flag) return OC_OK;
    if (deadline_ns >= 0 && now_ns() >= deadline_ns) return OC_ETIMEDOUT;
    if (++polls <= 8) continue;
    if (spin_until < 0) spin_until = now_ns() + SPIN_NS;
    if (now_ns() < spin_until) {
      sched_yield();
    } else {
      nap(sleep_ns);
      if (sleep_ns < 50000) sleep_ns = sleep_ns * 2 > 50000 ? 50000 : sleep_ns * 2;
    }
  }
}
#endif

static int mp_wait(void *ctx, oc_req *r, int64_t deadline_ns, int64_t *got) {
  mreq q;
  MPI_Status st;
  int rc, e;
  (void)ctx;
  req_get(r, &q);
  if (q.kind != MREQ_SEND && q.kind != MREQ_RECV) return OC_EINVAL;
  memset(&st, 0, sizeof st);
  e = req_wait(&q, &st, deadline_ns);
  if (e == OC_ETIMEDOUT) return e;
  if (got != NULL) *got = 0;
  if (e == OC_OK && q.kind == MREQ_RECV) {
    int count = 0;
    rc = PMPI_Get_count(&st, q.dt, &count);
    if (rc != MPI_SUCCESS) {
      e = mpi_err(rc);
    } else if (count == MPI_UNDEFINED ||
               (q.bytes_per > 0 && (size_t)count % q.bytes_per != 0)) {
      e = OC_EMISMATCH; /* not a whole number of elements */
    } else if (got != NULL) {
      *got = q.bytes_per > 0 ? (int64_t)((size_t)count / q.bytes_per) : count;
    }
  }
  q.kind = MREQ_NONE;
  q.req = MPI_REQUEST_NULL;
  req_put(r, &q);
  return e;
}

static void mp_cancel(void *ctx, oc_req *r) {
  mreq q;
  (void)ctx;
  req_get(r, &q);
  if (q.kind != MREQ_NONE && q.req != MPI_REQUEST_NULL) {
    int flag = 0;
    PMPI_Cancel(&q.req);
    /* let a cancelled receive complete so that MPI stops referring to the
     * buffer (at most ~100 polls); a send, which MPI may not cancel at all
     * (Open MPI does not), is freed at once and left to finish alone */
    for (int i = 0; q.kind == MREQ_RECV && i < 100 && q.req != MPI_REQUEST_NULL; i++) {
      if (PMPI_Test(&q.req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) break;
      if (flag) break;
      nap(10000);
    }
    if (q.req != MPI_REQUEST_NULL) PMPI_Request_free(&q.req);
  }
  q.kind = MREQ_NONE;
  q.req = MPI_REQUEST_NULL;
  req_put(r, &q);
}

int oc_mpi_transport(MPI_Comm comm, oc_transport *out) {
  int rank = 0, size = 0, inter = 0, flag = 0;
  int *ub = NULL;
  if (out == NULL || comm == MPI_COMM_NULL) return OC_EINVAL;
  memset(out, 0, sizeof *out);
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS) return OC_ETRANSPORT;
  if (inter) return OC_EINVAL;
  if (PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
      PMPI_Comm_size(comm, &size) != MPI_SUCCESS ||
      PMPI_Comm_get_attr(comm, MPI_TAG_UB, &ub, &flag) != MPI_SUCCESS)
    return OC_ETRANSPORT;
  out->ctx = comm_pack(comm);
  out->rank = rank;
  out->size = size;
  /* MPI guarantees a tag upper bound of at least 32767 */
  out->tag_max = flag && ub != NULL && *ub >= 32767 ? *ub : 32767;
  out->byte_handle = dt_pack(MPI_BYTE);
  out->isend = mp_isend;
  out->irecv = mp_irecv;
  out->wait = mp_wait;
  out->cancel = mp_cancel;
#ifdef SMPI_H
  out->flags = OC_TRANSPORT_SHARED_LINKS; /* SimGrid's flows share the links */
#endif
  return OC_OK;
}

static int mp_combine(const oc_elem *el, const void *in, void *inout,
                      int64_t n) {
  MPI_Datatype dt = dt_unpack(el->handle);
  MPI_Op op = op_unpack(el->user);
  const char *a = (const char *)in;
  char *b = (char *)inout;
  if (n < 0) return OC_EINVAL;
  while (n > 0) { /* MPI counts are int */
    int k = n > INT_MAX ? INT_MAX : (int)n;
    int rc = PMPI_Reduce_local(a, b, k, dt, op);
    if (rc != MPI_SUCCESS) return mpi_err(rc);
    n -= k;
    if (n > 0) {
      a += (size_t)k * el->extent;
      b += (size_t)k * el->extent;
    }
  }
  return OC_OK;
}

/* dst = src for n elements of a datatype that may have gaps: packed and
 * unpacked (MPI_Pack / MPI_Unpack on MPI_COMM_SELF) in chunks, so only the
 * datatype's own bytes of dst are written. */
static int mp_copy(const oc_elem *el, void *dst, const void *src, int64_t n) {
  MPI_Datatype dt = dt_unpack(el->handle);
  const int64_t chunk = (int64_t)1 << 16;
  int bytes = 0, rc = MPI_SUCCESS;
  void *tmp;
  if (n <= 0 || dst == src) return OC_OK;
  if (PMPI_Pack_size((int)(n < chunk ? n : chunk), dt, MPI_COMM_SELF, &bytes) != MPI_SUCCESS)
    return OC_ETRANSPORT;
  tmp = malloc(bytes > 0 ? (size_t)bytes : 1);
  if (tmp == NULL) return OC_ENOMEM;
  for (int64_t i = 0; i < n && rc == MPI_SUCCESS; i += chunk) {
    int k = (int)(n - i < chunk ? n - i : chunk), pos = 0, len;
    size_t off = (size_t)i * el->extent;
    rc = PMPI_Pack((const char *)src + off, k, dt, tmp, bytes, &pos, MPI_COMM_SELF);
    len = pos;
    pos = 0;
    if (rc == MPI_SUCCESS)
      rc = PMPI_Unpack(tmp, len, &pos, (char *)dst + off, k, dt, MPI_COMM_SELF);
  }
  free(tmp);
  return rc == MPI_SUCCESS ? OC_OK : OC_ETRANSPORT;
}

/* a datatype whose elements fill their extent needs no typed copy */
static int mp_dense(MPI_Datatype dt, MPI_Aint extent, MPI_Aint tlb, MPI_Aint textent) {
  int size = 0;
  if (PMPI_Type_size(dt, &size) != MPI_SUCCESS) return 0;
  return tlb == 0 && textent == extent && (MPI_Aint)size == extent;
}

int oc_mpi_elem(oc_elem *el, MPI_Datatype dt, MPI_Op op) {
  MPI_Aint lb = 0, extent = 0, tlb = 0, textent = 0;
  int commute = 1;
  if (el == NULL) return OC_EINVAL;
  memset(el, 0, sizeof *el);
  if (dt == MPI_DATATYPE_NULL) return OC_EINVAL;
  if (PMPI_Type_get_extent(dt, &lb, &extent) != MPI_SUCCESS ||
      PMPI_Type_get_true_extent(dt, &tlb, &textent) != MPI_SUCCESS)
    return OC_ETRANSPORT;
  if (extent < 0 || textent < 0) return OC_EINVAL;
  if (op != MPI_OP_NULL && PMPI_Op_commutative(op, &commute) != MPI_SUCCESS)
    return OC_ETRANSPORT;
  el->extent = (size_t)extent;
  el->true_lb = (ptrdiff_t)tlb;
  el->true_extent = (size_t)textent;
  el->handle = dt_pack(dt);
  if (!mp_dense(dt, extent, tlb, textent)) el->copy = mp_copy;
  el->commutative = 1;
  el->op.kind = OC_OP_USER; /* not a built-in reducer: combine says how */
  el->op.commutative = 1;
  if (op != MPI_OP_NULL) {
    el->combine = mp_combine;
    el->commutative = commute != 0;
    el->op.commutative = el->commutative;
    el->user = op_pack(op);
  }
  return OC_OK;
}

#endif /* OC_NO_MPI_H */
