/* mpi_interpose.c - build/liboptcast_mpi.so: MPI_Bcast, MPI_Reduce,
 * MPI_Allreduce, MPI_Allgather and MPI_Scan run by optcast (PMPI
 * interposition; docs/MPI.md).
 *
 *   LD_PRELOAD=build/liboptcast_mpi.so mpirun -np 8 ./program
 *
 * Each of the five calls on an intra-communicator runs oc_exec_bcast /
 * _reduce / _allreduce / _allgather / _scan over the MPI transport
 * (rt_mpi.c) on a private communicator: the first collective optcast runs
 * on a communicator creates it (PMPI_Comm_create over the same group, a
 * collective call that every rank makes at the same point: the same first
 * collective; unlike MPI_Comm_dup it does not run the program's attribute
 * copy callbacks), with MPI_ERRORS_RETURN, and caches it with the
 * oc_comm in an attribute of the program's communicator; the attribute's
 * delete callback frees both when the program frees its communicator
 * (MPI_COMM_WORLD's at MPI_Finalize).
 *
 * Handled by optcast: any datatype (oc_mpi_elem), built-in and user
 * operators (MPI_Reduce_local; a non-commutative operator is folded in
 * rank order), MPI_IN_PLACE (Allgather: the rank's block is already in
 * recvbuf), count 0 (MPI_SUCCESS after the argument checks, no
 * communication), MPI_BOTTOM (absolute addresses: the executor, which
 * refuses NULL buffers, gets the datatype shifted by its true lower bound
 * and the buffers moved by as much), MPI_Allgather with different send and
 * receive datatypes of the same signature size.  The executor copies whole
 * spans of elements (gaps and padding too: rt_copy_elems), which MPI does
 * not allow on the program's buffers, so with a datatype that is not dense
 * (size != extent or != true extent) Reduce, Allreduce and Scan run in
 * place on a private buffer laid out like the datatype, filled from and
 * emptied into the program's buffers with MPI_Pack / MPI_Unpack (which
 * touch only the datatype's bytes); Allgather places the rank's own block
 * that way and runs in place; Bcast moves the buffer with the datatype
 * itself and needs nothing.
 *
 * Passed to the MPI library's own PMPI_ function, exactly:
 *   - every call when the environment has OPTCAST_MPI=off (or 0, no, false);
 *   - every call before MPI_Init or after MPI_Finalize, and on
 *     MPI_COMM_NULL or a handle MPI does not accept (MPI reports the error);
 *   - inter-communicators (MPI_Comm_test_inter);
 *   - MPI_Allgather whose send signature size differs from the receive one
 *     (sendcount * size(sendtype) != recvcount * size(recvtype), not in
 *     place): an erroneous call, left for MPI to report.
 *
 * Requirements beyond MPI's (documented in docs/MPI.md): every rank passes
 * the same count and an equivalent datatype (MPI only asks for matching
 * type signatures; other counts are reported as MPI_ERR_TRUNCATE or after
 * the timeout as MPI_ERR_OTHER), and every rank has the same parameters
 * (OPTCAST_PARAMS: the plans, and so the tags, come from them).
 *
 * Errors go through the program communicator's error handler
 * (MPI_Comm_call_errhandler: with the default MPI_ERRORS_ARE_FATAL the job
 * aborts): negative count MPI_ERR_COUNT, root out of range MPI_ERR_ROOT,
 * MPI_DATATYPE_NULL MPI_ERR_TYPE, MPI_OP_NULL MPI_ERR_OP, a misplaced
 * MPI_IN_PLACE or an aliased buffer MPI_ERR_ARG / MPI_ERR_BUFFER; from the
 * executor OC_EMISMATCH MPI_ERR_TRUNCATE, OC_ETIMEDOUT and OC_ETRANSPORT
 * MPI_ERR_OTHER.  After one of these three the private communicator may
 * still hold messages of the failed call: further optcast collectives on
 * that communicator fail at once with MPI_ERR_OTHER (free it, use a new
 * one).  An operator that does not apply to the datatype is reported by
 * MPI_Reduce_local (through MPI_COMM_WORLD's handler).
 *
 * Environment: OPTCAST_MPI=off, OPTCAST_PARAMS=FILE (oc_rtparams_read;
 * defaults otherwise), OPTCAST_TIMEOUT_MS, OPTCAST_MPI_STATS=1 (rank 0 of
 * MPI_COMM_WORLD prints its own counts to stderr at MPI_Finalize). */
/* Built with mpicc only (mpi.mk).  Where mpi.h cannot be found -- the
 * project-wide static checks run on the sources without MPI's include path --
 * the file is empty; tests/mpi/run.sh runs clang-tidy on it with mpicc's. */
#if defined(__has_include)
#if !__has_include(<mpi.h>)
#define OC_NO_MPI_H 1
#endif
#endif
#ifndef OC_NO_MPI_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "optcast_mpi.h"

/* The interposed functions are defined here with the MPI library's own
 * prototypes (from mpi.h); -Wmissing-prototypes is satisfied by those. */

enum { K_BCAST, K_REDUCE, K_ALLREDUCE, K_ALLGATHER, K_SCAN, K_COUNT };

static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static int g_enabled = 1, g_stats = 0;
static int64_t g_timeout_ms = -1; /* -1: oc_comm's own default */
static oc_rtparams g_params;
static int g_keyval = MPI_KEYVAL_INVALID;
static atomic_long g_calls[K_COUNT];
static atomic_long g_passed;

typedef struct ocstate {
  MPI_Comm dup;
  oc_comm *oc;
  int broken; /* a communication error left messages behind */
} ocstate;

static int env_false(const char *v) {
  return v != NULL && (strcmp(v, "0") == 0 || strcasecmp(v, "off") == 0 ||
                       strcasecmp(v, "no") == 0 || strcasecmp(v, "false") == 0);
}

static int world_rank(void) {
  int r = 0;
  if (PMPI_Comm_rank(MPI_COMM_WORLD, &r) != MPI_SUCCESS) r = 0;
  return r;
}

static void env_init(void) {
  const char *v = getenv("OPTCAST_MPI");
  const char *path = getenv("OPTCAST_PARAMS");
  const char *t = getenv("OPTCAST_TIMEOUT_MS");
  const char *s = getenv("OPTCAST_MPI_STATS");
  g_enabled = !env_false(v);
  g_stats = s != NULL && *s != '\0' && !env_false(s);
  oc_rtparams_default(&g_params);
  if (path != NULL && *path != '\0') {
    int line = 0, e = oc_rtparams_read(path, &g_params, &line);
    if (e != OC_OK) {
      if (world_rank() == 0) {
        if (e == OC_EPARSE)
          fprintf(stderr, "optcast: OPTCAST_PARAMS=%s: line %d: %s; using the defaults\n",
                  path, line, oc_strerror(e));
        else
          fprintf(stderr, "optcast: OPTCAST_PARAMS=%s: %s; using the defaults\n", path,
                  oc_strerror(e));
      }
      oc_rtparams_default(&g_params);
    }
  }
  if (t != NULL && *t != '\0') {
    char *end = NULL;
    long long ms = strtoll(t, &end, 10);
    if (end != t && *end == '\0' && ms >= 0)
      g_timeout_ms = (int64_t)ms;
    else if (world_rank() == 0)
      fprintf(stderr, "optcast: OPTCAST_TIMEOUT_MS=%s is not a number of milliseconds; ignored\n", t);
  }
}

static int del_state(MPI_Comm comm, int keyval, void *attr, void *extra) {
  ocstate *s = (ocstate *)attr;
  (void)comm;
  (void)keyval;
  (void)extra;
  if (s != NULL) {
    oc_comm_free(s->oc);
    if (s->dup != MPI_COMM_NULL) PMPI_Comm_free(&s->dup);
    free(s);
  }
  return MPI_SUCCESS;
}

static void key_init(void) {
  if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_state, &g_keyval, NULL) !=
      MPI_SUCCESS)
    g_keyval = MPI_KEYVAL_INVALID;
}

/* Does optcast run this call?  0: the caller passes it to PMPI. */
static int routed(MPI_Comm comm, int kind) {
  int flag = 0, inter = 0;
  if (PMPI_Initialized(&flag) == MPI_SUCCESS && flag &&
      PMPI_Finalized(&flag) == MPI_SUCCESS && !flag) /* the set-up may call MPI */
    pthread_once(&env_once, env_init);
  else
    flag = 1;
  if (!flag && g_enabled && comm != MPI_COMM_NULL &&
      PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && !inter) {
    pthread_once(&key_once, key_init);
    if (g_keyval != MPI_KEYVAL_INVALID) {
      atomic_fetch_add(&g_calls[kind], 1);
      return 1;
    }
  }
  atomic_fetch_add(&g_passed, 1);
  return 0;
}

static int raise_err(MPI_Comm comm, int cls) {
  PMPI_Comm_call_errhandler(comm, cls);
  return cls;
}

/* The communicator's optcast state, created on first use (collective). */
static int get_state(MPI_Comm comm, ocstate **out) {
  void *v = NULL;
  int flag = 0, e;
  ocstate *s;
  MPI_Group grp;
  oc_transport tp;
  *out = NULL;
  if (PMPI_Comm_get_attr(comm, g_keyval, &v, &flag) != MPI_SUCCESS) return MPI_ERR_OTHER;
  if (flag) {
    s = (ocstate *)v;
    if (s->broken) return MPI_ERR_OTHER;
    *out = s;
    return MPI_SUCCESS;
  }
  s = (ocstate *)calloc(1, sizeof *s);
  if (s == NULL) return MPI_ERR_NO_MEM;
  s->dup = MPI_COMM_NULL;
  if (PMPI_Comm_group(comm, &grp) != MPI_SUCCESS) {
    free(s);
    return MPI_ERR_OTHER;
  }
  e = PMPI_Comm_create(comm, grp, &s->dup);
  PMPI_Group_free(&grp);
  if (e != MPI_SUCCESS || s->dup == MPI_COMM_NULL) {
    free(s);
    return MPI_ERR_OTHER;
  }
  PMPI_Comm_set_errhandler(s->dup, MPI_ERRORS_RETURN);
  e = oc_mpi_transport(s->dup, &tp);
  if (e == OC_OK) e = oc_comm_new(&s->oc, &tp, &g_params);
  if (e != OC_OK) {
    PMPI_Comm_free(&s->dup);
    free(s);
    return e == OC_ENOMEM ? MPI_ERR_NO_MEM : MPI_ERR_OTHER;
  }
  if (g_timeout_ms >= 0) oc_comm_set_timeout(s->oc, g_timeout_ms);
  if (PMPI_Comm_set_attr(comm, g_keyval, s) != MPI_SUCCESS) {
    del_state(comm, g_keyval, s, NULL);
    return MPI_ERR_OTHER;
  }
  *out = s;
  return MPI_SUCCESS;
}

/* an optcast result as the MPI call's */
static int finish(MPI_Comm comm, ocstate *s, int e) {
  int cls;
  switch (e) {
  case OC_OK: return MPI_SUCCESS;
  case OC_EMISMATCH: cls = MPI_ERR_TRUNCATE; break;
  case OC_ENOMEM: cls = MPI_ERR_NO_MEM; break;
  case OC_EINVAL: cls = MPI_ERR_ARG; break;
  case OC_ERANGE: cls = MPI_ERR_COUNT; break;
  default: cls = MPI_ERR_OTHER; break;
  }
  if (e == OC_EMISMATCH || e == OC_ETIMEDOUT || e == OC_ETRANSPORT || e == OC_ENOMEM)
    s->broken = 1;
  return raise_err(comm, cls);
}

/* The element for a call, with MPI_BOTTOM handled: when a buffer the call
 * uses is MPI_BOTTOM (a datatype of absolute addresses), the executor, which
 * refuses NULL buffers, gets the datatype shifted by its true lower bound
 * and every buffer moved up by the same amount. */
typedef struct callel {
  oc_elem el;
  MPI_Datatype shifted; /* MPI_DATATYPE_NULL when not used */
  uintptr_t shift;
} callel;

static int make_el(callel *ce, MPI_Datatype dt, MPI_Op op, int bottom) {
  ce->shifted = MPI_DATATYPE_NULL;
  ce->shift = 0;
  if (bottom) {
    MPI_Aint lb = 0, ext = 0, tlb = 0, text = 0, disp;
    MPI_Datatype st = MPI_DATATYPE_NULL;
    int one = 1;
    if (PMPI_Type_get_extent(dt, &lb, &ext) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent(dt, &tlb, &text) != MPI_SUCCESS)
      return MPI_ERR_TYPE;
    if (tlb <= 0) return MPI_ERR_BUFFER; /* NULL with relative displacements */
    disp = -tlb;
    if (PMPI_Type_create_struct(1, &one, &disp, &dt, &st) != MPI_SUCCESS) return MPI_ERR_TYPE;
    if (PMPI_Type_create_resized(st, lb - tlb, ext, &ce->shifted) != MPI_SUCCESS) {
      PMPI_Type_free(&st);
      return MPI_ERR_TYPE;
    }
    PMPI_Type_free(&st);
    if (PMPI_Type_commit(&ce->shifted) != MPI_SUCCESS) {
      PMPI_Type_free(&ce->shifted);
      return MPI_ERR_TYPE;
    }
    ce->shift = (uintptr_t)tlb;
    dt = ce->shifted;
  }
  if (oc_mpi_elem(&ce->el, dt, op) != OC_OK) {
    if (ce->shifted != MPI_DATATYPE_NULL) PMPI_Type_free(&ce->shifted);
    return MPI_ERR_TYPE;
  }
  return MPI_SUCCESS;
}

static void drop_el(callel *ce) {
  if (ce->shifted != MPI_DATATYPE_NULL) PMPI_Type_free(&ce->shifted);
}

/* a buffer as the executor sees it (MPI_BOTTOM shifted, in place mapped) */
static void *ebuf(const callel *ce, const void *b) {
  if (b == MPI_IN_PLACE) return (void *)(uintptr_t)OC_IN_PLACE;
  if (b == NULL && ce->shift == 0) return NULL;
  return (void *)((uintptr_t)b + ce->shift);
}

/* count, datatype and (with needs_op) operator checks shared by all five */
static int check_args(int count, MPI_Datatype dt, int needs_op, MPI_Op op, int *tsize) {
  *tsize = 0;
  if (count < 0) return MPI_ERR_COUNT;
  if (dt == MPI_DATATYPE_NULL) return MPI_ERR_TYPE;
  if (needs_op && op == MPI_OP_NULL) return MPI_ERR_OP;
  if (PMPI_Type_size(dt, tsize) != MPI_SUCCESS) return MPI_ERR_TYPE;
  return MPI_SUCCESS;
}

static int check_root(MPI_Comm comm, int root, int *rank) {
  int size = 0;
  if (PMPI_Comm_rank(comm, rank) != MPI_SUCCESS || PMPI_Comm_size(comm, &size) != MPI_SUCCESS)
    return MPI_ERR_COMM;
  if (root < 0 || root >= size) return MPI_ERR_ROOT;
  return MPI_SUCCESS;
}

/* Dense: a buffer of elements is all data (no gaps, no padding), so the
 * executor's copies of whole spans touch nothing but the elements. */
static int dense(MPI_Datatype dt) {
  MPI_Aint lb = 0, ext = 0, tlb = 0, text = 0;
  int size = 0;
  if (PMPI_Type_size(dt, &size) != MPI_SUCCESS ||
      PMPI_Type_get_extent(dt, &lb, &ext) != MPI_SUCCESS ||
      PMPI_Type_get_true_extent(dt, &tlb, &text) != MPI_SUCCESS)
    return 0;
  return (MPI_Aint)size == ext && (MPI_Aint)size == text;
}

/* count elements of type st at src -> rcount of type rt at dst, touching
 * only the bytes the datatypes name (MPI_Pack / MPI_Unpack: local) */
static int typed_copy(void *dst, int rcount, MPI_Datatype rt, const void *src, int scount,
                      MPI_Datatype st) {
  int bytes = 0, pos = 0, rc;
  void *tmp;
  if (PMPI_Pack_size(scount, st, MPI_COMM_SELF, &bytes) != MPI_SUCCESS) return MPI_ERR_TYPE;
  tmp = malloc(bytes > 0 ? (size_t)bytes : 1);
  if (tmp == NULL) return MPI_ERR_NO_MEM;
  rc = PMPI_Pack(src, scount, st, tmp, bytes, &pos, MPI_COMM_SELF);
  if (rc == MPI_SUCCESS) {
    int len = pos;
    pos = 0;
    rc = PMPI_Unpack(tmp, len, &pos, dst, rcount, rt, MPI_COMM_SELF);
  }
  free(tmp);
  return rc == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_TRUNCATE;
}

/* a zeroed buffer of count elements laid out like dt's (free *raw) */
static void *stage_alloc(MPI_Datatype dt, int count, void **raw) {
  MPI_Aint lb = 0, ext = 0, tlb = 0, text = 0;
  size_t bytes;
  *raw = NULL;
  if (PMPI_Type_get_extent(dt, &lb, &ext) != MPI_SUCCESS ||
      PMPI_Type_get_true_extent(dt, &tlb, &text) != MPI_SUCCESS || ext < 0 || text < 0)
    return NULL;
  if ((uint64_t)(count - 1) > (SIZE_MAX - (size_t)text) / ((size_t)ext + 1)) return NULL;
  bytes = (size_t)(count - 1) * (size_t)ext + (size_t)text;
  *raw = calloc(bytes > 0 ? bytes : 1, 1);
  if (*raw == NULL) return NULL;
  return (void *)((uintptr_t)*raw - (uintptr_t)tlb);
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  ocstate *s;
  callel ce;
  int rc, rank, tsize;
  if (!routed(comm, K_BCAST)) return PMPI_Bcast(buffer, count, datatype, root, comm);
  if ((rc = check_args(count, datatype, 0, MPI_OP_NULL, &tsize)) != MPI_SUCCESS ||
      (rc = check_root(comm, root, &rank)) != MPI_SUCCESS)
    return raise_err(comm, rc);
  if (buffer == MPI_IN_PLACE) return raise_err(comm, MPI_ERR_BUFFER);
  if (count == 0 || tsize == 0) return MPI_SUCCESS;
  if ((rc = get_state(comm, &s)) != MPI_SUCCESS) return raise_err(comm, rc);
  /* the executor moves the buffer with the datatype itself: no copies */
  if ((rc = make_el(&ce, datatype, MPI_OP_NULL, buffer == MPI_BOTTOM)) != MPI_SUCCESS)
    return raise_err(comm, rc);
  rc = oc_exec_bcast(s->oc, ebuf(&ce, buffer), count, &ce.el, root);
  drop_el(&ce);
  return finish(comm, s, rc);
}

/* Reduce (root >= 0), Allreduce (K_ALLREDUCE) and Scan (K_SCAN) after the
 * routing.  A datatype with gaps is staged: the executor copies whole spans
 * of elements (gaps too), so it runs in place on a private buffer laid out
 * like the datatype, filled and emptied with typed copies that touch only
 * the datatype's bytes of the program's buffers. */
static int combining(int kind, const void *sendbuf, void *recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm) {
  ocstate *s;
  callel ce;
  int rc, rank = 0, tsize, at_root, bottom;
  const void *sb;
  void *rb;
  if ((rc = check_args(count, datatype, 1, op, &tsize)) != MPI_SUCCESS ||
      (kind == K_REDUCE && (rc = check_root(comm, root, &rank)) != MPI_SUCCESS))
    return raise_err(comm, rc);
  at_root = kind != K_REDUCE || rank == root; /* recvbuf matters here */
  /* MPI_IN_PLACE only as sendbuf (Reduce: the root's); no aliasing */
  if ((kind == K_REDUCE && !at_root && sendbuf == MPI_IN_PLACE) ||
      (at_root && (recvbuf == MPI_IN_PLACE || (count > 0 && sendbuf == recvbuf))))
    return raise_err(comm, MPI_ERR_ARG);
  if (count == 0 || tsize == 0) return MPI_SUCCESS;
  if ((rc = get_state(comm, &s)) != MPI_SUCCESS) return raise_err(comm, rc);
  if (!dense(datatype)) {
    void *raw = NULL, *tmp = stage_alloc(datatype, count, &raw);
    if (tmp == NULL) return raise_err(comm, MPI_ERR_NO_MEM);
    rc = typed_copy(tmp, count, datatype, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count,
                    datatype);
    if (rc == MPI_SUCCESS) rc = make_el(&ce, datatype, op, 0);
    if (rc != MPI_SUCCESS) {
      free(raw);
      return raise_err(comm, rc);
    }
    if (kind == K_ALLREDUCE)
      rc = oc_exec_allreduce(s->oc, OC_IN_PLACE, tmp, count, &ce.el);
    else if (kind == K_SCAN)
      rc = oc_exec_scan(s->oc, OC_IN_PLACE, tmp, count, &ce.el);
    else if (at_root)
      rc = oc_exec_reduce(s->oc, OC_IN_PLACE, tmp, count, &ce.el, root);
    else
      rc = oc_exec_reduce(s->oc, tmp, NULL, count, &ce.el, root);
    drop_el(&ce);
    if (rc == OC_OK && at_root) {
      int rc2 = typed_copy(recvbuf, count, datatype, tmp, count, datatype);
      free(raw);
      if (rc2 != MPI_SUCCESS) return raise_err(comm, rc2);
      return MPI_SUCCESS;
    }
    free(raw);
    return finish(comm, s, rc);
  }
  bottom = sendbuf == MPI_BOTTOM || (at_root && recvbuf == MPI_BOTTOM);
  if ((rc = make_el(&ce, datatype, op, bottom)) != MPI_SUCCESS) return raise_err(comm, rc);
  sb = ebuf(&ce, sendbuf);
  rb = at_root ? ebuf(&ce, recvbuf) : NULL; /* the executor gets NULL where it does not matter */
  if (kind == K_ALLREDUCE)
    rc = oc_exec_allreduce(s->oc, sb, rb, count, &ce.el);
  else if (kind == K_SCAN)
    rc = oc_exec_scan(s->oc, sb, rb, count, &ce.el);
  else
    rc = oc_exec_reduce(s->oc, sb, rb, count, &ce.el, root);
  drop_el(&ce);
  return finish(comm, s, rc);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
               MPI_Op op, int root, MPI_Comm comm) {
  if (!routed(comm, K_REDUCE))
    return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
  return combining(K_REDUCE, sendbuf, recvbuf, count, datatype, op, root, comm);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm) {
  if (!routed(comm, K_ALLREDUCE))
    return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
  return combining(K_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, 0, comm);
}

int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm) {
  if (!routed(comm, K_SCAN)) return PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm);
  return combining(K_SCAN, sendbuf, recvbuf, count, datatype, op, 0, comm);
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  ocstate *s;
  callel ce;
  int rc, rank = 0, rsize = 0, ssize = 0, in_place = sendbuf == MPI_IN_PLACE;
  const void *sb = sendbuf;
  if (!routed(comm, K_ALLGATHER))
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  if ((rc = check_args(recvcount, recvtype, 0, MPI_OP_NULL, &rsize)) != MPI_SUCCESS ||
      (!in_place &&
       (rc = check_args(sendcount, sendtype, 0, MPI_OP_NULL, &ssize)) != MPI_SUCCESS))
    return raise_err(comm, rc);
  if (recvbuf == MPI_IN_PLACE) return raise_err(comm, MPI_ERR_ARG);
  if (!in_place && (int64_t)sendcount * ssize != (int64_t)recvcount * rsize) {
    /* an erroneous call: MPI says what it thinks of it */
    atomic_fetch_sub(&g_calls[K_ALLGATHER], 1);
    atomic_fetch_add(&g_passed, 1);
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }
  if (recvcount == 0 || rsize == 0) return MPI_SUCCESS;
  if (PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS) return raise_err(comm, MPI_ERR_COMM);
  if ((rc = get_state(comm, &s)) != MPI_SUCCESS) return raise_err(comm, rc);
  if (!in_place && (sendtype != recvtype || sendcount != recvcount || !dense(recvtype))) {
    /* another layout, or gaps the executor's copy would overwrite: place
     * the rank's own block with a typed copy and run in place (the
     * executor receives the other blocks with the datatype itself) */
    MPI_Aint lb = 0, ext = 0;
    if (PMPI_Type_get_extent(recvtype, &lb, &ext) != MPI_SUCCESS)
      return raise_err(comm, MPI_ERR_TYPE);
    rc = typed_copy((void *)((uintptr_t)recvbuf + (uintptr_t)((MPI_Aint)rank * recvcount * ext)),
                    recvcount, recvtype, sendbuf, sendcount, sendtype);
    if (rc != MPI_SUCCESS) return raise_err(comm, rc);
    sb = MPI_IN_PLACE;
  }
  if ((rc = make_el(&ce, recvtype, MPI_OP_NULL, recvbuf == MPI_BOTTOM || sb == MPI_BOTTOM)) !=
      MPI_SUCCESS)
    return raise_err(comm, rc);
  rc = oc_exec_allgather(s->oc, ebuf(&ce, sb), ebuf(&ce, recvbuf), recvcount, &ce.el);
  drop_el(&ce);
  return finish(comm, s, rc);
}

int MPI_Finalize(void) {
  int flag = 0;
  void *v = NULL;
  pthread_once(&env_once, env_init);
  if (g_stats && world_rank() == 0) {
    long c[K_COUNT], n = 0;
    for (int k = 0; k < K_COUNT; k++) n += c[k] = atomic_load(&g_calls[k]);
    fprintf(stderr,
            "optcast: intercepted %ld calls (bcast %ld reduce %ld allreduce %ld allgather %ld "
            "scan %ld), passed to MPI %ld\n",
            n, c[K_BCAST], c[K_REDUCE], c[K_ALLREDUCE], c[K_ALLGATHER], c[K_SCAN],
            (long)atomic_load(&g_passed));
    fflush(stderr);
  }
  /* MPI_COMM_WORLD's attributes are not deleted by MPI_Finalize: free its
   * private communicator here (every rank calls MPI_Finalize) */
  if (g_keyval != MPI_KEYVAL_INVALID) {
    if (PMPI_Comm_get_attr(MPI_COMM_WORLD, g_keyval, &v, &flag) == MPI_SUCCESS && flag)
      PMPI_Comm_delete_attr(MPI_COMM_WORLD, g_keyval);
    PMPI_Comm_free_keyval(&g_keyval);
  }
  return PMPI_Finalize();
}

#endif /* OC_NO_MPI_H */
