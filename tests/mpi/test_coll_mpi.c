/* test_coll_mpi.c - optcast's collectives over the MPI transport, checked
 * against serial references (tests/mpi/run.sh runs it on 1..33 ranks).
 *
 * Every input is a function of (seed, rank or operand index, element
 * index), so each rank computes every collective's exact result by itself:
 * the serial left-to-right fold x_0 op x_1 op ... in rank order.  Floating
 * inputs are small integers (sums) or +-2^k (products), so every order of
 * evaluation is exact and results compare byte for byte.
 *
 * Each check is agreed over MPI_COMM_WORLD (plain MPI, not optcast): rank 0
 * prints "ok   ..." or "FAIL ..." and at the end
 * "test_coll_mpi: N passed, M failed"; the exit status is 1 on failure.
 * When a call fails on any rank the private communicator is dropped and a
 * fresh duplicate used (optcast_rt.h: after OC_EMISMATCH / OC_ETIMEDOUT /
 * OC_ETRANSPORT the communicator is unusable). */
#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "optcast_mpi.h"

static int me, np;
static int npass, nfail;
static MPI_Comm pdup = MPI_COMM_NULL;
static oc_comm *occ;
static const int64_t normal_timeout_ms = 30000;

static void die(const char *what, int e) {
  fprintf(stderr, "test_coll_mpi: rank %d: %s: %s\n", me, what, oc_err_name(e));
  MPI_Abort(MPI_COMM_WORLD, 2);
}

/* the communicators given up after an error, freed at the end: messages of
 * the failed call may still be in flight, and MPICH gives a freed
 * communicator's context to the next duplicate, where they would land */
static MPI_Comm *retired;
static int nretired;

/* a fresh private communicator and oc_comm (collective) */
static void fresh(void) {
  oc_transport tp;
  int e;
  if (occ != NULL) oc_comm_free(occ);
  occ = NULL;
  if (pdup != MPI_COMM_NULL) {
    MPI_Comm *more = (MPI_Comm *)realloc(retired, (size_t)(nretired + 1) * sizeof *more);
    if (more == NULL) {
      die("realloc", OC_ENOMEM);
      return;
    }
    retired = more;
    retired[nretired++] = pdup;
    pdup = MPI_COMM_NULL;
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &pdup);
  MPI_Comm_set_errhandler(pdup, MPI_ERRORS_RETURN);
  if ((e = oc_mpi_transport(pdup, &tp)) != OC_OK) die("oc_mpi_transport", e);
  if ((e = oc_comm_new(&occ, &tp, NULL)) != OC_OK) die("oc_comm_new", e);
  oc_comm_set_timeout(occ, normal_timeout_ms);
}

/* Agree on one call over all ranks: *all_ok the AND of ok, *min_err the
 * most negative error.  Any error: start over on a fresh communicator. */
static void agree(int ok, int err, int *all_ok, int *min_err) {
  int in[2], out[2];
  in[0] = ok ? 1 : 0;
  in[1] = err;
  MPI_Allreduce(in, out, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  *all_ok = out[0];
  *min_err = out[1];
  if (out[1] != 0) fresh();
}

static void report(int ok, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (ok) npass++;
  else nfail++;
  if (me == 0) {
    printf("%s %s\n", ok ? "ok  " : "FAIL", msg);
    fflush(stdout);
  }
}

/* ---- inputs ----------------------------------------------------------------- */

static uint64_t mix64(uint64_t x) { /* splitmix64's finaliser */
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

static uint64_t hval(uint64_t seed, int64_t who, int64_t i) {
  return mix64(mix64(seed * 1000003u + (uint64_t)who) ^ (uint64_t)i);
}

enum { GEN_ANY, GEN_POW2 };

/* n elements of type t from (seed, who) */
static void gen(void *buf, oc_type t, int mode, uint64_t seed, int64_t who, int64_t n) {
  static const double pw[4] = {0.5, 1.0, 2.0, -1.0};
  for (int64_t i = 0; i < n; i++) {
    uint64_t h = hval(seed, who, i);
    switch (t) {
    case OC_BYTE: case OC_INT8: case OC_UINT8: ((uint8_t *)buf)[i] = (uint8_t)h; break;
    case OC_INT16: case OC_UINT16: ((uint16_t *)buf)[i] = (uint16_t)h; break;
    case OC_INT32: case OC_UINT32: ((uint32_t *)buf)[i] = (uint32_t)h; break;
    case OC_INT64: case OC_UINT64: ((uint64_t *)buf)[i] = h; break;
    case OC_FLOAT:
      ((float *)buf)[i] = mode == GEN_POW2 ? (float)pw[h % 4] : (float)((int)(h % 201) - 100);
      break;
    case OC_DOUBLE:
      ((double *)buf)[i] = mode == GEN_POW2 ? pw[h % 4] : (double)((int64_t)(h % 2001) - 1000);
      break;
    default: break;
    }
  }
}

/* ---- the serial reference: inout = in (op) inout --------------------------------- */

#define REF_INT_(T, U)                                                          \
  do {                                                                          \
    const T *a = (const T *)in;                                                 \
    T *b = (T *)inout;                                                          \
    for (int64_t i = 0; i < n; i++) {                                           \
      T x = a[i], y = b[i], r;                                                  \
      switch (k) {                                                              \
      case OC_OP_SUM: r = (T)(U)((U)x + (U)y); break;                           \
      case OC_OP_PROD: r = (T)(U)((U)x * (U)y); break;                          \
      case OC_OP_MIN: r = x < y ? x : y; break;                                 \
      case OC_OP_MAX: r = x > y ? x : y; break;                                 \
      case OC_OP_BAND: r = (T)(x & y); break;                                   \
      case OC_OP_BOR: r = (T)(x | y); break;                                    \
      case OC_OP_BXOR: r = (T)(x ^ y); break;                                   \
      case OC_OP_LAND: r = (T)(x && y); break;                                  \
      default: r = (T)(x || y); break;                                          \
      }                                                                         \
      b[i] = r;                                                                 \
    }                                                                           \
  } while (0)

#define REF_FLT_(T)                                                             \
  do {                                                                          \
    const T *a = (const T *)in;                                                 \
    T *b = (T *)inout;                                                          \
    for (int64_t i = 0; i < n; i++) {                                           \
      T x = a[i], y = b[i], r;                                                  \
      switch (k) {                                                              \
      case OC_OP_SUM: r = x + y; break;                                         \
      case OC_OP_PROD: r = x * y; break;                                        \
      case OC_OP_MIN: r = x < y ? x : y; break;                                 \
      case OC_OP_MAX: r = x > y ? x : y; break;                                 \
      case OC_OP_LAND: r = (T)(x != 0 && y != 0); break;                        \
      default: r = (T)(x != 0 || y != 0); break;                                \
      }                                                                         \
      b[i] = r;                                                                 \
    }                                                                           \
  } while (0)

static void ref_apply(oc_type t, oc_opkind k, const void *in, void *inout, int64_t n) {
  switch (t) {
  case OC_INT8: REF_INT_(int8_t, uint8_t); break;
  case OC_UINT8: REF_INT_(uint8_t, uint8_t); break;
  case OC_INT16: REF_INT_(int16_t, uint16_t); break;
  case OC_UINT16: REF_INT_(uint16_t, uint16_t); break;
  case OC_INT32: REF_INT_(int32_t, uint32_t); break;
  case OC_UINT32: REF_INT_(uint32_t, uint32_t); break;
  case OC_INT64: REF_INT_(int64_t, uint64_t); break;
  case OC_UINT64: REF_INT_(uint64_t, uint64_t); break;
  case OC_FLOAT: REF_FLT_(float); break;
  case OC_DOUBLE: REF_FLT_(double); break;
  default: break;
  }
}

/* ---- the non-commutative operators: 2x2 matrix products modulo a prime ------------ */

#define MAT_P 1000000007u /* entries of 4 x uint32, row-major */
static void mat_mul(const uint32_t *x, uint32_t *y) { /* y = x * y */
  uint64_t a = x[0], b = x[1], c = x[2], d = x[3];
  uint64_t e = y[0], f = y[1], g = y[2], h = y[3];
  y[0] = (uint32_t)((a * e + b * g) % MAT_P);
  y[1] = (uint32_t)((a * f + b * h) % MAT_P);
  y[2] = (uint32_t)((c * e + d * g) % MAT_P);
  y[3] = (uint32_t)((c * f + d * h) % MAT_P);
}
static void mat_gen(uint32_t *m, uint64_t seed, int64_t who, int64_t n) {
  for (int64_t i = 0; i < 4 * n; i++) m[i] = (uint32_t)(hval(seed, who, i) % MAT_P);
}
/* as an MPI user operator over MPI_Type_contiguous(4, MPI_UINT32_T) */
static void mat_mpi_op(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  for (int i = 0; i < *len; i++) mat_mul((const uint32_t *)in + 4 * i, (uint32_t *)inout + 4 * i);
}

/* the same packed in one uint64 (4 x 16 bits, modulo 65521) for oc_coll_*:
 * an oc_user_fn over OC_UINT64 */
#define PK_P 65521u
static uint64_t pk_mul(uint64_t x, uint64_t y) {
  uint64_t a = x & 0xffff, b = (x >> 16) & 0xffff, c = (x >> 32) & 0xffff, d = x >> 48;
  uint64_t e = y & 0xffff, f = (y >> 16) & 0xffff, g = (y >> 32) & 0xffff, h = y >> 48;
  return ((a * e + b * g) % PK_P) | (((a * f + b * h) % PK_P) << 16) |
         (((c * e + d * g) % PK_P) << 32) | (((c * f + d * h) % PK_P) << 48);
}
static void pk_fn(const void *in, void *inout, int64_t n, void *arg) {
  const uint64_t *a = (const uint64_t *)in;
  uint64_t *b = (uint64_t *)inout;
  int *calls = (int *)arg;
  for (int64_t i = 0; i < n; i++) b[i] = pk_mul(a[i], b[i]);
  (*calls)++;
}
static void pk_gen(uint64_t *v, uint64_t seed, int64_t who, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    uint64_t h = hval(seed, who, i), r = 0;
    for (int j = 0; j < 4; j++) r |= ((h >> (16 * j)) & 0xffff) % PK_P << (16 * j);
    v[i] = r;
  }
}

/* ---- helpers ----------------------------------------------------------------------- */

static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (p == NULL) die("malloc", OC_ENOMEM);
  return p;
}

/* the roots to try: every root for small counts, else first, middle, last */
static int nroots(int64_t n) { return n <= 7 ? np : (np >= 3 ? 3 : np); }
static int root_at(int64_t n, int i) {
  if (n <= 7) return i;
  return i == 0 ? 0 : i == 1 ? np - 1 : np / 2;
}

typedef struct combo {
  oc_type t;
  oc_opkind k;
  int mode;
} combo;

static const combo combos[] = {
    {OC_INT32, OC_OP_SUM, GEN_ANY},   {OC_INT64, OC_OP_MAX, GEN_ANY},
    {OC_DOUBLE, OC_OP_SUM, GEN_ANY},  {OC_UINT8, OC_OP_BXOR, GEN_ANY},
    {OC_UINT64, OC_OP_PROD, GEN_ANY}, {OC_DOUBLE, OC_OP_PROD, GEN_POW2},
    {OC_INT16, OC_OP_MIN, GEN_ANY},   {OC_FLOAT, OC_OP_MAX, GEN_ANY},
    {OC_UINT32, OC_OP_BOR, GEN_ANY},  {OC_INT8, OC_OP_LOR, GEN_ANY},
};
#define NCOMBOS ((int)(sizeof combos / sizeof combos[0]))

static const oc_type move_types[] = {OC_INT32, OC_INT64, OC_DOUBLE, OC_UINT8};

/* ---- the collectives over oc_coll_* ------------------------------------------------- */

static void t_bcast(oc_type t, int64_t n, uint64_t seed) {
  size_t sz = oc_type_size(t);
  char *buf = (char *)xmalloc((size_t)n * sz), *want = (char *)xmalloc((size_t)n * sz);
  int all_ok = 1, err = 0, bad_root = -1;
  for (int i = 0; i < nroots(n); i++) {
    int root = root_at(n, i), e, ok, aok, aerr;
    gen(want, t, GEN_ANY, seed + (uint64_t)root, root, n);
    if (me == root) memcpy(buf, want, (size_t)n * sz);
    else memset(buf, 0xa5, (size_t)n * sz);
    e = oc_coll_bcast(occ, buf, n, t, root);
    ok = e == OC_OK && memcmp(buf, want, (size_t)n * sz) == 0;
    agree(ok, e, &aok, &aerr);
    if (!aok) {
      all_ok = 0;
      err = aerr;
      bad_root = root;
      break;
    }
  }
  report(all_ok, "bcast %s n=%lld roots=%d%s%s%s", oc_type_name(t), (long long)n, nroots(n),
         bad_root >= 0 ? " (wrong at root " : "", bad_root >= 0 ? oc_err_name(err) : "",
         bad_root >= 0 ? ")" : "");
  free(buf);
  free(want);
}

/* kind: 0 reduce, 1 allreduce, 2 scan; inplace: OC_IN_PLACE */
static void t_combine(int kind, const combo *cb, int64_t n, int inplace, uint64_t seed) {
  static const char *const names[] = {"reduce", "allreduce", "scan"};
  size_t sz = oc_type_size(cb->t), bytes = (size_t)n * sz;
  char *send = (char *)xmalloc(bytes), *recv = (char *)xmalloc(bytes);
  char *want = (char *)xmalloc(bytes), *tmp = (char *)xmalloc(bytes);
  oc_reducer op = oc_reducer_builtin(cb->k);
  int roots = kind == 0 ? nroots(n) : 1, all_ok = 1, err = 0, bad_root = -1;
  for (int i = 0; i < roots; i++) {
    int root = kind == 0 ? root_at(n, i) : 0, e, ok = 1, aok, aerr, upto;
    gen(send, cb->t, cb->mode, seed, me, n);
    memset(recv, 0x5a, bytes);
    /* the reference: x_0 op ... op x_{upto} */
    upto = kind == 2 ? me : np - 1;
    gen(want, cb->t, cb->mode, seed, 0, n);
    for (int r = 1; r <= upto; r++) {
      gen(tmp, cb->t, cb->mode, seed, r, n);
      ref_apply(cb->t, cb->k, want, tmp, n); /* tmp = want op x_r */
      memcpy(want, tmp, bytes);
    }
    if (inplace) memcpy(recv, send, bytes);
    if (kind == 0)
      e = oc_coll_reduce(occ, inplace && me == root ? OC_IN_PLACE : send,
                         me == root ? recv : NULL, n, cb->t, &op, root);
    else if (kind == 1)
      e = oc_coll_allreduce(occ, inplace ? OC_IN_PLACE : send, recv, n, cb->t, &op);
    else
      e = oc_coll_scan(occ, inplace ? OC_IN_PLACE : send, recv, n, cb->t, &op);
    if (kind != 0 || me == root) ok = memcmp(recv, want, bytes) == 0;
    ok = ok && e == OC_OK;
    agree(ok, e, &aok, &aerr);
    if (!aok) {
      all_ok = 0;
      err = aerr;
      bad_root = root;
      break;
    }
  }
  report(all_ok, "%s %s %s n=%lld%s%s%s%s%s", names[kind], oc_type_name(cb->t),
         oc_opkind_name(cb->k), (long long)n, kind == 0 ? " all roots" : "",
         inplace ? " in place" : "", bad_root >= 0 ? " (wrong: " : "",
         bad_root >= 0 ? oc_err_name(err) : "", bad_root >= 0 ? ")" : "");
  free(send);
  free(recv);
  free(want);
  free(tmp);
}

static void t_allgather(oc_type t, int64_t n, int inplace, uint64_t seed) {
  size_t sz = oc_type_size(t), bytes = (size_t)n * sz;
  char *send = (char *)xmalloc(bytes), *recv = (char *)xmalloc(bytes * (size_t)np);
  char *want = (char *)xmalloc(bytes * (size_t)np);
  int e, ok, aok, aerr;
  gen(send, t, GEN_ANY, seed, me, n);
  for (int r = 0; r < np; r++) gen(want + (size_t)r * bytes, t, GEN_ANY, seed, r, n);
  memset(recv, 0x3c, bytes * (size_t)np);
  if (inplace) memcpy(recv + (size_t)me * bytes, send, bytes);
  e = oc_coll_allgather(occ, inplace ? OC_IN_PLACE : send, recv, n, t);
  ok = e == OC_OK && memcmp(recv, want, bytes * (size_t)np) == 0;
  agree(ok, e, &aok, &aerr);
  report(aok, "allgather %s n=%lld%s%s%s", oc_type_name(t), (long long)n,
         inplace ? " in place" : "", aerr ? " error " : "", aerr ? oc_err_name(aerr) : "");
  free(send);
  free(recv);
  free(want);
}

/* the packed-matrix operator through oc_coll_*: rank order kept */
static void t_packed(int kind, int64_t n, uint64_t seed) {
  static const char *const names[] = {"reduce", "allreduce", "scan"};
  size_t bytes = (size_t)n * 8;
  uint64_t *send = (uint64_t *)xmalloc(bytes), *recv = (uint64_t *)xmalloc(bytes);
  uint64_t *want = (uint64_t *)xmalloc(bytes), *rev = (uint64_t *)xmalloc(bytes);
  uint64_t *x = (uint64_t *)xmalloc(bytes);
  int calls = 0, all_ok = 1, err = 0, roots = kind == 0 ? nroots(n) : 1, differs = 0;
  oc_reducer op = oc_reducer_user(pk_fn, &calls, 0);
  for (int i = 0; i < roots; i++) {
    int root = kind == 0 ? root_at(n, i) : 0, e, ok = 1, aok, aerr;
    int upto = kind == 2 ? me : np - 1;
    pk_gen(send, seed, me, n);
    pk_gen(want, seed, 0, n);
    memcpy(rev, want, bytes);
    for (int r = 1; r <= upto; r++) {
      pk_gen(x, seed, r, n);
      for (int64_t j = 0; j < n; j++) {
        want[j] = pk_mul(want[j], x[j]);
        rev[j] = pk_mul(x[j], rev[j]);
      }
    }
    for (int64_t j = 0; j < n; j++) differs |= want[j] != rev[j];
    memset(recv, 0, bytes);
    if (kind == 0)
      e = oc_coll_reduce(occ, send, me == root ? recv : NULL, n, OC_UINT64, &op, root);
    else if (kind == 1)
      e = oc_coll_allreduce(occ, send, recv, n, OC_UINT64, &op);
    else
      e = oc_coll_scan(occ, send, recv, n, OC_UINT64, &op);
    if (kind != 0 || me == root) ok = memcmp(recv, want, bytes) == 0;
    agree(ok && e == OC_OK, e, &aok, &aerr);
    if (!aok) {
      all_ok = 0;
      err = aerr;
      break;
    }
  }
  {
    int d = differs, any;
    MPI_Allreduce(&d, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    report(all_ok, "%s non-commutative user op (2x2 matrices mod %u packed in uint64) n=%lld%s"
           "%s%s%s",
           names[kind], PK_P, (long long)n, kind == 0 ? " all roots" : "",
           any ? ", order matters" : "", err ? " error " : "", err ? oc_err_name(err) : "");
  }
  free(send);
  free(recv);
  free(want);
  free(rev);
  free(x);
}

/* the MPI element path: oc_exec_* with oc_mpi_elem on a derived datatype and
 * an MPI_Op_create'd non-commutative operator (4 x uint32 per element) */
static void t_mpi_matrix(int kind, int64_t n, MPI_Datatype mat, MPI_Op matop, uint64_t seed) {
  static const char *const names[] = {"reduce", "allreduce", "scan"};
  size_t bytes = (size_t)n * 16;
  uint32_t *send = (uint32_t *)xmalloc(bytes), *recv = (uint32_t *)xmalloc(bytes);
  uint32_t *want = (uint32_t *)xmalloc(bytes), *x = (uint32_t *)xmalloc(bytes);
  oc_elem el;
  int e = oc_mpi_elem(&el, mat, matop), all_ok = 1, err = 0;
  int roots = kind == 0 ? nroots(n) : 1;
  if (e != OC_OK || el.commutative != 0 || el.extent != 16 || el.combine == NULL) {
    report(0, "oc_mpi_elem on the matrix type: %s commutative %d extent %zu", oc_err_name(e),
           el.commutative, el.extent);
    goto out;
  }
  for (int i = 0; i < roots; i++) {
    int root = kind == 0 ? root_at(n, i) : 0, ok = 1, aok, aerr;
    int upto = kind == 2 ? me : np - 1;
    mat_gen(send, seed, me, n);
    mat_gen(want, seed, 0, n);
    for (int r = 1; r <= upto; r++) {
      mat_gen(x, seed, r, n);
      for (int64_t j = 0; j < n; j++) { /* want = want * x_r */
        mat_mul(want + 4 * j, x + 4 * j);
        memcpy(want + 4 * j, x + 4 * j, 16);
      }
    }
    memset(recv, 0, bytes);
    if (kind == 0)
      e = oc_exec_reduce(occ, send, me == root ? recv : NULL, n, &el, root);
    else if (kind == 1)
      e = oc_exec_allreduce(occ, send, recv, n, &el);
    else
      e = oc_exec_scan(occ, send, recv, n, &el);
    if (kind != 0 || me == root) ok = memcmp(recv, want, bytes) == 0;
    agree(ok && e == OC_OK, e, &aok, &aerr);
    if (!aok) {
      all_ok = 0;
      err = aerr;
      break;
    }
  }
  report(all_ok, "%s oc_mpi_elem matrix type, MPI_Op_create(commute=0) n=%lld%s%s%s",
         names[kind], (long long)n, kind == 0 ? " all roots" : "", err ? " error " : "",
         err ? oc_err_name(err) : "");
out:
  free(send);
  free(recv);
  free(want);
  free(x);
}

/* oc_exec_* with oc_mpi_elem on built-in MPI types and operators, and a
 * vector type with gaps (broadcast: the gaps are not touched) */
static void t_mpi_builtin(int64_t n, uint64_t seed) {
  oc_elem el;
  int32_t *send = (int32_t *)xmalloc((size_t)n * 4), *recv = (int32_t *)xmalloc((size_t)n * 4);
  int32_t *want = (int32_t *)xmalloc((size_t)n * 4), *x = (int32_t *)xmalloc((size_t)n * 4);
  int e = oc_mpi_elem(&el, MPI_INT32_T, MPI_SUM), ok, aok, aerr;
  gen(send, OC_INT32, GEN_ANY, seed, me, n);
  gen(want, OC_INT32, GEN_ANY, seed, 0, n);
  for (int r = 1; r < np; r++) {
    gen(x, OC_INT32, GEN_ANY, seed, r, n);
    ref_apply(OC_INT32, OC_OP_SUM, x, want, n);
  }
  if (e == OC_OK) e = oc_exec_allreduce(occ, send, recv, n, &el);
  ok = e == OC_OK && el.commutative == 1 && memcmp(recv, want, (size_t)n * 4) == 0;
  agree(ok, e, &aok, &aerr);
  report(aok, "allreduce oc_mpi_elem(MPI_INT32_T, MPI_SUM) n=%lld%s%s", (long long)n,
         aerr ? " error " : "", aerr ? oc_err_name(aerr) : "");
  free(send);
  free(recv);
  free(want);
  free(x);
}

static void t_mpi_vector(int64_t n, uint64_t seed) {
  /* element: 2 blocks of 2 doubles, stride 3 (one-double gaps) */
  MPI_Datatype vec;
  oc_elem el;
  int64_t slots = 6 * n; /* extent 5 doubles; room to spare */
  double *buf = (double *)xmalloc((size_t)slots * 8), *want = (double *)xmalloc((size_t)slots * 8);
  int e, ok = 1, aok, aerr, root = np - 1;
  MPI_Type_vector(2, 2, 3, MPI_DOUBLE, &vec);
  MPI_Type_commit(&vec);
  e = oc_mpi_elem(&el, vec, MPI_OP_NULL);
  if (e == OC_OK && (el.extent != 40 || el.true_extent != 40 || el.true_lb != 0 ||
                     el.combine != NULL))
    e = OC_EINVAL;
  for (int64_t i = 0; i < slots; i++) {
    int64_t elem = i / 5, off = i % 5;
    int data = elem < n && off != 2;
    double v = (double)((int64_t)(hval(seed, root, i) % 2001) - 1000);
    want[i] = data ? v : (double)(-1 - me);
    buf[i] = me == root ? want[i] : data ? 12345.0 : (double)(-1 - me);
  }
  if (e == OC_OK) e = oc_exec_bcast(occ, buf, n, &el, root);
  ok = e == OC_OK && memcmp(buf, want, (size_t)slots * 8) == 0;
  agree(ok, e, &aok, &aerr);
  report(aok, "bcast oc_mpi_elem(MPI_Type_vector with gaps) n=%lld, gaps untouched%s%s",
         (long long)n, aerr ? " error " : "", aerr ? oc_err_name(aerr) : "");
  MPI_Type_free(&vec);
  free(buf);
  free(want);
}

/* MPI_SUM is not defined on derived datatypes: a user sum over [x g x] */
static void vec_sum(void *in, void *inout, int *len, MPI_Datatype *dt) {
  const int32_t *a = (const int32_t *)in;
  int32_t *b = (int32_t *)inout;
  (void)dt;
  for (int i = 0; i < *len; i++) {
    b[3 * i] += a[3 * i];
    b[3 * i + 2] += a[3 * i + 2];
  }
}

/* combining on a datatype with gaps (oc_exec_allreduce / scan / reduce):
 * results right, the gaps of every receive buffer untouched */
static void t_mpi_vector_combine(int64_t n, uint64_t seed) {
  MPI_Datatype vec;
  MPI_Op sum;
  oc_elem el;
  int64_t slots = 4 * n + 4; /* extent 3 ints: [x g x] */
  int32_t *in = (int32_t *)xmalloc((size_t)slots * 4), *out = (int32_t *)xmalloc((size_t)slots * 4);
  int e = OC_OK, aok, aerr;
  MPI_Type_vector(2, 1, 2, MPI_INT32_T, &vec);
  MPI_Type_commit(&vec);
  MPI_Op_create(vec_sum, 1, &sum);
  e = oc_mpi_elem(&el, vec, sum);
  for (int kind = 0; kind < 3; kind++) {
    int ok = 1;
    for (int64_t i = 0; i < slots; i++) {
      in[i] = (i % 3 == 1) ? 777 + me : (int32_t)((hval(seed, me, i) % 100));
      out[i] = -1000 - me;
    }
    if (e == OC_OK) {
      if (kind == 0) e = oc_exec_allreduce(occ, in, out, n, &el);
      else if (kind == 1) e = oc_exec_scan(occ, in, out, n, &el);
      else e = oc_exec_reduce(occ, in, me == 0 ? out : NULL, n, &el, 0);
    }
    for (int64_t i = 0; e == OC_OK && i < slots; i++) {
      int data = i < 3 * n && i % 3 != 1;
      int32_t want = -1000 - me;
      if (data && (kind != 2 || me == 0)) {
        int last = kind == 1 ? me : np - 1;
        want = 0;
        for (int r = 0; r <= last; r++) want += (int32_t)(hval(seed, r, i) % 100);
      }
      if (out[i] != want) ok = 0;
    }
    agree(e == OC_OK && ok, e, &aok, &aerr);
    report(aok, "%s oc_mpi_elem(MPI_Type_vector with gaps, a user sum) n=%lld, gaps untouched%s%s",
           kind == 0 ? "allreduce" : kind == 1 ? "scan" : "reduce", (long long)n,
           aerr ? " error " : "", aerr ? oc_err_name(aerr) : "");
    if (aerr) fresh();
  }
  MPI_Op_free(&sum);
  MPI_Type_free(&vec);
  free(in);
  free(out);
}

/* Shou & Chen's distributed sum: operand i's value from (seed, i) */
static void t_sum(int64_t nops, int64_t count, int root, int packed, uint64_t seed) {
  int64_t first = -1, held = -1;
  int calls = 0, e, ok = 1, aok, aerr;
  oc_reducer op = packed ? oc_reducer_user(pk_fn, &calls, 0) : oc_reducer_builtin(OC_OP_SUM);
  oc_type t = packed ? OC_UINT64 : OC_INT64;
  size_t bytes = (size_t)count * 8;
  uint64_t *want = (uint64_t *)xmalloc(bytes), *x = (uint64_t *)xmalloc(bytes);
  uint64_t *recv = (uint64_t *)xmalloc(bytes), *ops = NULL;
  int64_t total = 0, totals;
  e = oc_coll_sum_share(occ, nops, count, t, root, &first, &held);
  if (e == OC_OK && (first < 0 || held < 0 || first + held > nops)) e = OC_EINVAL;
  if (e == OC_OK) {
    ops = (uint64_t *)xmalloc((size_t)(held > 0 ? held : 1) * bytes);
    for (int64_t i = 0; i < held; i++) {
      if (packed) pk_gen(ops + i * count, seed, first + i, count);
      else gen(ops + i * count, OC_INT64, GEN_ANY, seed, first + i, count);
    }
    memset(recv, 0, bytes);
    e = oc_coll_sum(occ, nops, ops, me == root ? recv : NULL, count, t, &op, root);
  }
  for (int64_t i = 0; i < nops; i++) {
    if (packed) pk_gen(x, seed, i, count);
    else gen(x, OC_INT64, GEN_ANY, seed, i, count);
    for (int64_t j = 0; j < count; j++)
      want[j] = i == 0 ? x[j] : packed ? pk_mul(want[j], x[j]) : want[j] + x[j];
  }
  if (me == root) ok = memcmp(recv, want, bytes) == 0;
  /* the shares cover 0..n-1 exactly once */
  total = held > 0 ? held : 0;
  MPI_Allreduce(&total, &totals, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  ok = ok && e == OC_OK && totals == nops;
  agree(ok, e, &aok, &aerr);
  report(aok, "sum %s n=%lld operands of %lld root=%d%s%s",
         packed ? "non-commutative (packed matrices)" : "int64 sum", (long long)nops,
         (long long)count, root, aerr ? " error " : "", aerr ? oc_err_name(aerr) : "");
  free(want);
  free(x);
  free(recv);
  free(ops);
}

/* Small segments: every call pipelines many messages per tree edge. */
static void t_segmented(int64_t n, int64_t seg_bytes, MPI_Datatype mat, MPI_Op matop,
                        uint64_t seed) {
  oc_callinfo ci;
  int32_t *buf = (int32_t *)xmalloc((size_t)n * 4);
  int e, segs, minsegs;
  oc_comm_set_segment(occ, seg_bytes);
  memset(buf, 0, (size_t)n * 4);
  e = oc_coll_bcast(occ, buf, n, OC_INT32, 0);
  oc_comm_last_call(occ, &ci);
  segs = e == OC_OK ? (int)ci.segments : -1;
  MPI_Allreduce(&segs, &minsegs, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  report(minsegs >= (int)((n * 4) / seg_bytes),
         "segment size %lld bytes: a bcast of %lld int32 runs in %d segments", (long long)seg_bytes,
         (long long)n, minsegs);
  t_bcast(OC_DOUBLE, n, seed);
  for (int kind = 0; kind < 3; kind++) {
    t_combine(kind, &combos[kind], n, 0, seed + 1 + (uint64_t)kind);
    t_mpi_matrix(kind, n / 4, mat, matop, seed + 10 + (uint64_t)kind);
  }
  oc_comm_set_segment(occ, 0);
  free(buf);
}

/* ---- bad calls ---------------------------------------------------------------------- */

/* every rank gets OC_EINVAL, nobody hangs */
static void t_einval(void) {
  int32_t buf[8] = {0}, out[8 * 64];
  oc_reducer sum = oc_reducer_builtin(OC_OP_SUM);
  struct {
    const char *what;
    int e;
  } r[6];
  r[0].what = "bcast count -1";
  r[0].e = oc_coll_bcast(occ, buf, -1, OC_INT32, 0);
  r[1].what = "bcast root = size";
  r[1].e = oc_coll_bcast(occ, buf, 1, OC_INT32, np);
  r[2].what = "reduce root -1";
  r[2].e = oc_coll_reduce(occ, buf, buf, 1, OC_INT32, &sum, -1);
  r[3].what = "allreduce count -5";
  r[3].e = oc_coll_allreduce(occ, buf, out, -5, OC_INT32, &sum);
  r[4].what = "allgather count -1";
  r[4].e = oc_coll_allgather(occ, buf, out, -1, OC_INT32);
  r[5].what = "scan count -2";
  r[5].e = oc_coll_scan(occ, buf, out, -2, OC_INT32, &sum);
  for (int i = 0; i < 6; i++) {
    int ok = r[i].e == OC_EINVAL, aok, mn, mx, e = r[i].e;
    MPI_Allreduce(&ok, &aok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&e, &mn, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&e, &mx, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    report(aok, "bad call: %s -> OC_EINVAL on every rank (got %s..%s)", r[i].what,
           oc_err_name(mn), oc_err_name(mx));
  }
  fresh();
}

/* A call whose arguments differ between ranks: some rank reports
 * OC_EMISMATCH or OC_ETIMEDOUT within the (short) timeout, no rank reports
 * anything else, nobody hangs or crashes. */
static void t_mismatch(const char *what, int which, int check) {
  int64_t n = 7;
  int32_t buf[16], out[16 * 64];
  oc_reducer sum = oc_reducer_builtin(OC_OP_SUM);
  int e = OC_OK, bad, abad, hit, ahit, mn;
  double t0 = MPI_Wtime(), dt, maxdt;
  memset(buf, 0, sizeof buf);
  oc_comm_set_timeout(occ, 1500);
  oc_comm_set_check(occ, check);
  switch (which) {
  case 0: /* count: the last rank passes one more */
    e = oc_coll_bcast(occ, buf, me == np - 1 ? n + 1 : n, OC_INT32, 0);
    break;
  case 1: /* count: rank 0 passes one fewer */
    e = oc_coll_allreduce(occ, buf, out, me == 0 ? n - 1 : n, OC_INT32, &sum);
    break;
  case 2: /* root: rank 1 names itself */
    e = oc_coll_reduce(occ, buf, out, n, OC_INT32, &sum, me == 1 ? 1 : 0);
    break;
  case 3: /* root: the last rank names rank 1 (a rank that names itself
           * would simply not wait for anything: undetectable) */
    e = oc_coll_bcast(occ, buf, n, OC_INT32, me == np - 1 ? 1 : 0);
    break;
  case 6: /* root: the last rank names itself (caught by the check only) */
    e = oc_coll_bcast(occ, buf, n, OC_INT32, me == np - 1 ? np - 1 : 0);
    break;
  case 4: /* count, allgather: rank 1 passes twice as many */
    e = oc_coll_allgather(occ, buf, out, me == 1 ? 2 * n : n, OC_INT32);
    break;
  default: /* count, scan: the last rank passes 3 */
    e = oc_coll_scan(occ, buf, out, me == np - 1 ? 3 : n, OC_INT32, &sum);
    break;
  }
  dt = MPI_Wtime() - t0;
  bad = !(e == OC_OK || e == OC_EMISMATCH || e == OC_ETIMEDOUT);
  hit = e == OC_EMISMATCH || e == OC_ETIMEDOUT;
  MPI_Allreduce(&bad, &abad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&hit, &ahit, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&e, &mn, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&dt, &maxdt, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (check) { /* the check: OC_EMISMATCH on every rank */
    int all = e == OC_EMISMATCH, aall;
    MPI_Allreduce(&all, &aall, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    report(aall, "mismatch, argument check on: %s -> OC_EMISMATCH on every rank (%s..), "
           "slowest rank returned in %.1f s", what, oc_err_name(mn), maxdt);
  } else {
    report(!abad && ahit, "mismatch: %s -> %s on some rank, slowest rank returned in %.1f s",
           what, oc_err_name(mn), maxdt);
  }
  fresh();
}

int main(int argc, char **argv) {
  int64_t sizes[8];
  int nsizes = 0;
  uint64_t seed = 20240611;
  MPI_Datatype mat;
  MPI_Op matop;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
#ifdef MPICH_VERSION
  /* MPICH 4.0 raises an error completing a request (MPI_Test, MPI_Wait) on
   * MPI_COMM_WORLD, not on the request's communicator: the mismatch tests'
   * truncated messages must come back there too (docs/MPI.md) */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
#endif
  fresh();
  if (argc > 1 && strcmp(argv[1], "--die") == 0) {
    /* a rank dies in the middle of a collective: the others must end (an
     * error from optcast, or MPI aborting the job), never hang */
    int32_t x[64] = {0}, y[64];
    oc_reducer sum = oc_reducer_builtin(OC_OP_SUM);
    int e;
    oc_comm_set_timeout(occ, 5000);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 1) _exit(3);
    e = oc_coll_allreduce(occ, x, y, 64, OC_INT32, &sum);
    printf("rank %d: allreduce with a dead rank: %s\n", me, oc_err_name(e));
    fflush(stdout);
    _exit(e == OC_OK ? 0 : 4); /* MPI_Finalize would wait for the dead rank */
  }
  {
    oc_transport tp;
    int e = oc_mpi_transport(pdup, &tp), ok;
    ok = e == OC_OK && tp.rank == me && tp.size == np && tp.tag_max >= 32767 &&
         oc_mpi_transport(MPI_COMM_NULL, &tp) == OC_EINVAL;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    report(ok, "oc_mpi_transport: rank, size, tag_max; MPI_COMM_NULL refused");
  }
  /* sizes: small always; 100000 up to 16 ranks (2 cores run them all) */
  sizes[nsizes++] = 0;
  sizes[nsizes++] = 1;
  sizes[nsizes++] = 7;
  sizes[nsizes++] = 1000;
  if (np <= 16) sizes[nsizes++] = 100000;

  for (int s = 0; s < nsizes; s++)
    for (int i = 0; i < 4; i++) t_bcast(move_types[i], sizes[s], seed + (uint64_t)s);
  if (np <= 8) t_bcast(OC_UINT8, (int64_t)4 << 20, seed); /* 4 MiB */

  for (int kind = 0; kind < 3; kind++)
    for (int s = 0; s < nsizes; s++)
      for (int c = 0; c < NCOMBOS; c++) {
        /* the larger sizes with the first few combinations only */
        if (sizes[s] > 1000 && c >= 3) continue;
        t_combine(kind, &combos[c], sizes[s], 0, seed + (uint64_t)(31 * s + c));
      }
  for (int kind = 0; kind < 3; kind++) t_combine(kind, &combos[0], 1000, 1, seed + 7);
  /* each allreduce and scan algorithm forced (the model's choice above) */
  {
    static const char *const forced[][2] = {{"allreduce", "ring"}, {"allreduce", "tree"},
                                            {"allreduce", "doubling"}, {"scan", "chain"},
                                            {"scan", "doubling"}};
    for (int f = 0; f < 5; f++) {
      int kind = f < 3 ? 1 : 2;
      if (oc_comm_set_algorithm(occ, forced[f][0], forced[f][1]) != OC_OK) die("set_algorithm", f);
      if (me == 0) printf("     (the next with %s=%s forced)\n", forced[f][0], forced[f][1]);
      for (int s = 0; s < nsizes; s++) t_combine(kind, &combos[0], sizes[s], s % 2, seed + 40 + (uint64_t)s);
      oc_comm_set_algorithm(occ, forced[f][0], "auto");
    }
  }
  if (np <= 8) {
    static const combo big = {OC_DOUBLE, OC_OP_SUM, GEN_ANY};
    t_combine(1, &big, (int64_t)3 << 17, 0, seed + 11); /* 3 MiB of doubles */
  }

  for (int s = 0; s < nsizes; s++)
    for (int i = 0; i < 4; i++) {
      int64_t n = sizes[s];
      if (n * np * 8 > ((int64_t)4 << 20)) continue; /* at most 4 MiB gathered */
      t_allgather(move_types[i], n, 0, seed + (uint64_t)s);
    }
  t_allgather(OC_INT64, 7, 1, seed);
  t_allgather(OC_DOUBLE, 1000, 1, seed + 1);

  for (int kind = 0; kind < 3; kind++) {
    t_packed(kind, 1, seed + 100);
    t_packed(kind, 7, seed + 101);
    t_packed(kind, 1000, seed + 102);
  }

  MPI_Type_contiguous(4, MPI_UINT32_T, &mat);
  MPI_Type_commit(&mat);
  MPI_Op_create(mat_mpi_op, 0, &matop);
  for (int kind = 0; kind < 3; kind++) {
    t_mpi_matrix(kind, 1, mat, matop, seed + 200);
    t_mpi_matrix(kind, 7, mat, matop, seed + 201);
    t_mpi_matrix(kind, 5000, mat, matop, seed + 202);
  }
  t_segmented(np <= 8 ? 20000 : 2000, 1024, mat, matop, seed + 250);
  MPI_Op_free(&matop);
  MPI_Type_free(&mat);
  t_mpi_builtin(1000, seed + 300);
  t_mpi_vector(1, seed + 301);
  t_mpi_vector(300, seed + 302);
  t_mpi_vector_combine(1, seed + 303);
  t_mpi_vector_combine(500, seed + 304);

  t_sum(1, 1, 0, 0, seed + 400);
  t_sum(np, 7, np - 1, 0, seed + 401);
  t_sum(3 * (int64_t)np + 1, 1, np / 2, 1, seed + 402);
  t_sum(100, 7, 0, 1, seed + 403);

  t_einval();
  if (np >= 2) {
    t_mismatch("bcast, the last rank passes count 8 (others 7)", 0, 0);
    t_mismatch("allreduce, rank 0 passes count 6 (others 7)", 1, 0);
    t_mismatch("reduce, rank 1 passes root 1 (others 0)", 2, 0);
    t_mismatch("allgather, rank 1 passes count 14 (others 7)", 4, 0);
    t_mismatch("scan, the last rank passes count 3 (others 7)", 5, 0);
    if (np >= 3) t_mismatch("bcast, the last rank passes root 1 (others 0)", 3, 0);
    t_mismatch("bcast, the last rank names itself root (others 0)", 6, 1);
    t_mismatch("allreduce, rank 0 passes count 6 (others 7)", 1, 1);
  }
  /* the communicator works after all that */
  t_combine(1, &combos[0], 7, 0, seed + 500);

  oc_comm_free(occ);
  MPI_Comm_free(&pdup);
  for (int i = 0; i < nretired; i++) MPI_Comm_free(&retired[i]);
  free(retired);
  if (me == 0) {
    printf("test_coll_mpi: %d passed, %d failed\n", npass, nfail);
    fflush(stdout);
  }
  MPI_Finalize();
  return nfail > 0;
}
