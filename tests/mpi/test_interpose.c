/* test_interpose.c - a plain MPI program (mpi.h only, nothing of optcast)
 * checking MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Allgather and
 * MPI_Scan against serial references.  tests/mpi/run.sh runs it with
 * LD_PRELOAD=build/liboptcast_mpi.so (optcast runs the five calls) and
 * without (the MPI library does): the same checks must pass both ways.
 *
 * Inputs are functions of (seed, rank, element index), so every rank
 * computes each result by itself; floating inputs are small integers, so
 * every order of evaluation is exact.  Each check's verdict is gathered on
 * rank 0 of MPI_COMM_WORLD with MPI_Gather (not one of the five), which
 * prints "ok   ..." or "FAIL ..." and at the end
 * "test_interpose: N passed, M failed"; exit status 1 on failure.
 *
 * The suite runs on MPI_COMM_WORLD and on a split communicator (two halves,
 * ranks in reverse order).  Covered: sizes 0, 1, 7, 1000 and a large one;
 * MPI_INT, MPI_DOUBLE, MPI_LONG_LONG; a vector type with gaps and a struct
 * type with padding (the gaps and padding of receive buffers must stay as
 * they were); MPI_BOTTOM with absolute addresses; MPI_IN_PLACE; MPI_SUM,
 * MPI_MAX, MPI_PROD; a non-commutative user operator (2x2 matrices modulo
 * a prime: rank order must be kept); every root for small sizes; the error
 * classes of bad arguments under MPI_ERRORS_RETURN. */
#include <mpi.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int wrank, wsize, npass, nfail;

static void check(int ok, const char *fmt, ...) {
  char msg[300];
  int *all = NULL, good = 1, first = -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ok = ok ? 1 : 0;
  if (wrank == 0) all = (int *)malloc(sizeof(int) * (size_t)wsize);
  MPI_Gather(&ok, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (wrank == 0) {
    for (int r = 0; r < wsize; r++)
      if (!all[r]) {
        good = 0;
        if (first < 0) first = r;
      }
    if (good) {
      npass++;
      printf("ok   %s\n", msg);
    } else {
      nfail++;
      printf("FAIL %s (wrong on world rank %d first)\n", msg, first);
    }
    fflush(stdout);
    free(all);
  }
}

static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (p == NULL) MPI_Abort(MPI_COMM_WORLD, 2);
  return p;
}

static uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
static uint64_t hv(uint64_t seed, int who, int64_t i) {
  return mix64(mix64(seed * 1000003u + (uint64_t)who) ^ (uint64_t)i);
}

/* ---- basic types: MPI_INT / MPI_DOUBLE / MPI_LONG_LONG ----------------------------- */

enum { T_INT, T_DOUBLE, T_LL };
static const char *const tname[] = {"MPI_INT", "MPI_DOUBLE", "MPI_LONG_LONG"};
static MPI_Datatype tmpi(int t) { return t == T_INT ? MPI_INT : t == T_DOUBLE ? MPI_DOUBLE : MPI_LONG_LONG; }
static size_t tsize(int t) { return t == T_INT ? sizeof(int) : t == T_DOUBLE ? sizeof(double) : sizeof(long long); }

/* values: int in [-1000, 1000] (sums fit), double any small integer,
 * long long in {-1, 1, 2} (products of 33 fit) */
static void fill(void *buf, int t, uint64_t seed, int who, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    uint64_t h = hv(seed, who, i);
    if (t == T_INT) ((int *)buf)[i] = (int)(h % 2001) - 1000;
    else if (t == T_DOUBLE) ((double *)buf)[i] = (double)((int64_t)(h % 20001) - 10000);
    else ((long long *)buf)[i] = (long long)(h % 3) - 1 == 0 ? 2 : (long long)(h % 3) - 1;
  }
}

/* the operator each type is tested with */
static MPI_Op top(int t) { return t == T_INT ? MPI_SUM : t == T_DOUBLE ? MPI_MAX : MPI_PROD; }
static const char *const topname[] = {"MPI_SUM", "MPI_MAX", "MPI_PROD"};

/* inout = in (op) inout */
static void ref(int t, const void *in, void *inout, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    if (t == T_INT) ((int *)inout)[i] += ((const int *)in)[i];
    else if (t == T_DOUBLE) {
      double a = ((const double *)in)[i], *b = (double *)inout + i;
      if (a > *b) *b = a;
    } else {
      ((long long *)inout)[i] *= ((const long long *)in)[i];
    }
  }
}

/* the fold x_0 op ... op x_upto */
static void fold(void *want, int t, uint64_t seed, int upto, int64_t n) {
  void *x = xmalloc((size_t)n * tsize(t));
  fill(want, t, seed, 0, n);
  for (int r = 1; r <= upto; r++) {
    fill(x, t, seed, r, n);
    ref(t, want, x, n); /* x = want op x_r */
    memcpy(want, x, (size_t)n * tsize(t));
  }
  free(x);
}

static int nroots(int p, int64_t n) { return n <= 7 ? p : (p >= 2 ? 2 : 1); }
static int root_at(int p, int64_t n, int i) { return n <= 7 ? i : (i == 0 ? 0 : p - 1); }

static void t_bcast(MPI_Comm comm, const char *cn, int t, int64_t n, uint64_t seed) {
  int r, p, ok = 1, rc = MPI_SUCCESS;
  size_t bytes = (size_t)n * tsize(t);
  char *buf = (char *)xmalloc(bytes), *want = (char *)xmalloc(bytes);
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  for (int i = 0; i < nroots(p, n); i++) {
    int root = root_at(p, n, i);
    fill(want, t, seed + (uint64_t)root, root, n);
    if (r == root) memcpy(buf, want, bytes);
    else memset(buf, 0x77, bytes);
    rc = MPI_Bcast(n > 0 ? buf : NULL, (int)n, tmpi(t), root, comm);
    ok = ok && rc == MPI_SUCCESS && memcmp(buf, want, bytes) == 0;
  }
  check(ok, "%s: MPI_Bcast %s count %lld, %d root(s)", cn, tname[t], (long long)n, nroots(p, n));
  free(buf);
  free(want);
}

/* kind 0 Reduce (every root for small n), 1 Allreduce, 2 Scan */
static void t_combine(MPI_Comm comm, const char *cn, int kind, int t, int64_t n, int inplace,
                      uint64_t seed) {
  static const char *const kn[] = {"MPI_Reduce", "MPI_Allreduce", "MPI_Scan"};
  int r, p, ok = 1;
  size_t bytes = (size_t)n * tsize(t);
  char *send = (char *)xmalloc(bytes), *recv = (char *)xmalloc(bytes);
  char *want = (char *)xmalloc(bytes);
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  fold(want, t, seed, kind == 2 ? r : p - 1, n);
  for (int i = 0; i < (kind == 0 ? nroots(p, n) : 1); i++) {
    int root = kind == 0 ? root_at(p, n, i) : 0, rc, ip = inplace && (kind != 0 || r == root);
    fill(send, t, seed, r, n);
    memset(recv, 0x66, bytes);
    if (ip) memcpy(recv, send, bytes);
    if (kind == 0)
      rc = MPI_Reduce(ip ? MPI_IN_PLACE : send, recv, (int)n, tmpi(t), top(t), root, comm);
    else if (kind == 1)
      rc = MPI_Allreduce(ip ? MPI_IN_PLACE : send, recv, (int)n, tmpi(t), top(t), comm);
    else
      rc = MPI_Scan(ip ? MPI_IN_PLACE : send, recv, (int)n, tmpi(t), top(t), comm);
    ok = ok && rc == MPI_SUCCESS;
    if (kind != 0 || r == root) ok = ok && memcmp(recv, want, bytes) == 0;
  }
  check(ok, "%s: %s %s %s count %lld%s%s", cn, kn[kind], tname[t], topname[t], (long long)n,
        kind == 0 ? (n <= 7 ? " every root" : " roots 0, last") : "",
        inplace ? " MPI_IN_PLACE" : "");
  free(send);
  free(recv);
  free(want);
}

static void t_allgather(MPI_Comm comm, const char *cn, int t, int64_t n, int inplace,
                        uint64_t seed) {
  int r, p, rc, ok;
  size_t bytes = (size_t)n * tsize(t);
  char *send, *recv, *want;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  send = (char *)xmalloc(bytes);
  recv = (char *)xmalloc(bytes * (size_t)p);
  want = (char *)xmalloc(bytes * (size_t)p);
  fill(send, t, seed, r, n);
  for (int q = 0; q < p; q++) fill(want + (size_t)q * bytes, t, seed, q, n);
  memset(recv, 0x55, bytes * (size_t)p);
  if (inplace) memcpy(recv + (size_t)r * bytes, send, bytes);
  rc = MPI_Allgather(inplace ? MPI_IN_PLACE : send, (int)n, tmpi(t), recv, (int)n, tmpi(t), comm);
  ok = rc == MPI_SUCCESS && memcmp(recv, want, bytes * (size_t)p) == 0;
  check(ok, "%s: MPI_Allgather %s count %lld%s", cn, tname[t], (long long)n,
        inplace ? " MPI_IN_PLACE" : "");
  free(send);
  free(recv);
  free(want);
}

/* ---- a vector type with gaps: 3 blocks of 2 ints, stride 3 ------------------------
 * element = 8 ints of extent, data at 0 1 3 4 6 7, gaps at 2 and 5 */
#define VEXT 8
static const int voff[6] = {0, 1, 3, 4, 6, 7};
static int is_gap(int64_t i) { return i % VEXT == 2 || i % VEXT == 5; }

/* a user operator on it, commutative: element-wise sum of the data ints */
static void vsum(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  for (int k = 0; k < *len; k++)
    for (int j = 0; j < 6; j++) ((int *)inout)[k * VEXT + voff[j]] += ((int *)in)[k * VEXT + voff[j]];
}

/* n elements' data from (seed, who); gaps hold the rank's own mark */
static void vfill(int *buf, int64_t n, uint64_t seed, int who, int mark) {
  for (int64_t i = 0; i < n * VEXT; i++)
    buf[i] = is_gap(i) ? mark : (int)(hv(seed, who, i) % 2001) - 1000;
}

static void t_vector(MPI_Comm comm, const char *cn, MPI_Datatype vec, MPI_Op vop, int64_t n,
                     uint64_t seed) {
  int r, p, ok, rc, mark;
  size_t ints = (size_t)n * VEXT;
  int *send, *recv, *want, *x, *big;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  mark = -7000 - r;
  send = (int *)xmalloc(ints * sizeof(int));
  recv = (int *)xmalloc(ints * sizeof(int));
  want = (int *)xmalloc(ints * sizeof(int));
  x = (int *)xmalloc(ints * sizeof(int));
  /* Bcast from the last rank: the receivers' gaps keep their marks */
  {
    int root = p - 1;
    vfill(want, n, seed, root, mark);
    if (r == root) memcpy(recv, want, ints * sizeof(int));
    else
      for (size_t i = 0; i < ints; i++) recv[i] = is_gap((int64_t)i) ? mark : 0;
    rc = MPI_Bcast(recv, (int)n, vec, root, comm);
    ok = rc == MPI_SUCCESS && memcmp(recv, want, ints * sizeof(int)) == 0;
    check(ok, "%s: MPI_Bcast vector type with gaps, count %lld: data right, gaps untouched", cn,
          (long long)n);
  }
  /* Reduce / Allreduce / Scan with the user operator: recvbuf gaps untouched */
  for (int kind = 0; kind < 3; kind++) {
    static const char *const kn[] = {"MPI_Reduce", "MPI_Allreduce", "MPI_Scan"};
    int upto = kind == 2 ? r : p - 1, root = kind == 0 ? p / 2 : 0;
    vfill(send, n, seed, r, -1);
    vfill(want, n, seed, 0, mark);
    for (int q = 1; q <= upto; q++) {
      vfill(x, n, seed, q, 0);
      for (size_t i = 0; i < ints; i++)
        if (!is_gap((int64_t)i)) want[i] += x[i];
    }
    for (size_t i = 0; i < ints; i++) recv[i] = is_gap((int64_t)i) ? mark : 99;
    if (kind == 0) rc = MPI_Reduce(send, recv, (int)n, vec, vop, root, comm);
    else if (kind == 1) rc = MPI_Allreduce(send, recv, (int)n, vec, vop, comm);
    else rc = MPI_Scan(send, recv, (int)n, vec, vop, comm);
    ok = rc == MPI_SUCCESS;
    if (kind != 0 || r == root) ok = ok && memcmp(recv, want, ints * sizeof(int)) == 0;
    else
      for (size_t i = 0; i < ints; i++) ok = ok && recv[i] == (is_gap((int64_t)i) ? mark : 99);
    /* in place: the data starts in recvbuf */
    for (size_t i = 0; i < ints; i++) recv[i] = is_gap((int64_t)i) ? mark : send[i];
    if (kind == 0) rc = MPI_Reduce(r == root ? MPI_IN_PLACE : send, recv, (int)n, vec, vop, root, comm);
    else if (kind == 1) rc = MPI_Allreduce(MPI_IN_PLACE, recv, (int)n, vec, vop, comm);
    else rc = MPI_Scan(MPI_IN_PLACE, recv, (int)n, vec, vop, comm);
    ok = ok && rc == MPI_SUCCESS;
    if (kind != 0 || r == root) ok = ok && memcmp(recv, want, ints * sizeof(int)) == 0;
    check(ok, "%s: %s vector type with gaps, user op, count %lld (and MPI_IN_PLACE): gaps untouched",
          cn, kn[kind], (long long)n);
  }
  /* Allgather into the vector type: from 6n MPI_INTs, and from the vector type */
  big = (int *)xmalloc(ints * (size_t)p * sizeof(int));
  for (int variant = 0; variant < 2; variant++) {
    int *flat = (int *)xmalloc((size_t)n * 6 * sizeof(int));
    vfill(send, n, seed, r, -1);
    for (int64_t k = 0; k < n; k++)
      for (int j = 0; j < 6; j++) flat[k * 6 + j] = send[k * VEXT + voff[j]];
    for (size_t i = 0; i < ints * (size_t)p; i++) big[i] = is_gap((int64_t)i) ? mark : 0;
    if (variant == 0)
      rc = MPI_Allgather(flat, (int)(6 * n), MPI_INT, big, (int)n, vec, comm);
    else
      rc = MPI_Allgather(send, (int)n, vec, big, (int)n, vec, comm);
    ok = rc == MPI_SUCCESS;
    for (int q = 0; q < p && ok; q++) {
      vfill(want, n, seed, q, mark);
      ok = memcmp(big + (size_t)q * ints, want, ints * sizeof(int)) == 0;
    }
    check(ok, "%s: MPI_Allgather %s into the vector type with gaps, count %lld: gaps untouched",
          cn, variant == 0 ? "6n MPI_INTs" : "the vector type", (long long)n);
    free(flat);
  }
  free(big);
  free(send);
  free(recv);
  free(want);
  free(x);
}

/* ---- a struct type with padding: {char c; double d; int i;} ------------------------ */
typedef struct rec {
  char c;
  double d;
  int i;
} rec;

static void t_struct(MPI_Comm comm, const char *cn, MPI_Datatype rt, int64_t n, uint64_t seed) {
  int r, p, ok = 1, rc, root;
  rec *buf = (rec *)xmalloc((size_t)n * sizeof(rec));
  unsigned char *raw = (unsigned char *)buf;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  root = p > 1 ? 1 : 0;
  /* the root's padding is 0xAA, everybody else's 0x55 and must stay */
  memset(buf, r == root ? 0xaa : 0x55, (size_t)n * sizeof(rec));
  if (r == root)
    for (int64_t k = 0; k < n; k++) {
      buf[k].c = (char)(hv(seed, root, k) & 0x7f);
      buf[k].d = (double)(int)(hv(seed, root, k) % 1000);
      buf[k].i = (int)(hv(seed, root, k) % 100000);
    }
  rc = MPI_Bcast(buf, (int)n, rt, root, comm);
  ok = rc == MPI_SUCCESS;
  for (int64_t k = 0; k < n && ok; k++) {
    size_t b = (size_t)k * sizeof(rec);
    ok = buf[k].c == (char)(hv(seed, root, k) & 0x7f) &&
         buf[k].d == (double)(int)(hv(seed, root, k) % 1000) &&
         buf[k].i == (int)(hv(seed, root, k) % 100000);
    if (r != root) {
      for (size_t j = 1; j < offsetof(rec, d); j++) ok = ok && raw[b + j] == 0x55;
      for (size_t j = offsetof(rec, i) + sizeof(int); j < sizeof(rec); j++)
        ok = ok && raw[b + j] == 0x55;
    }
  }
  check(ok, "%s: MPI_Bcast struct {char, double, int} count %lld: fields right, padding untouched",
        cn, (long long)n);
  /* Allgather of the struct type */
  {
    rec *all = (rec *)xmalloc((size_t)n * (size_t)p * sizeof(rec));
    rec *mine = (rec *)xmalloc((size_t)n * sizeof(rec));
    for (int64_t k = 0; k < n; k++) {
      mine[k].c = (char)(hv(seed, r, k) & 0x7f);
      mine[k].d = (double)(int)(hv(seed, r, k) % 1000);
      mine[k].i = r;
    }
    memset(all, 0, (size_t)n * (size_t)p * sizeof(rec));
    rc = MPI_Allgather(mine, (int)n, rt, all, (int)n, rt, comm);
    ok = rc == MPI_SUCCESS;
    for (int q = 0; q < p && ok; q++)
      for (int64_t k = 0; k < n && ok; k++) {
        rec *e = &all[(size_t)q * (size_t)n + (size_t)k];
        ok = e->c == (char)(hv(seed, q, k) & 0x7f) && e->d == (double)(int)(hv(seed, q, k) % 1000) &&
             e->i == q;
      }
    check(ok, "%s: MPI_Allgather struct type count %lld", cn, (long long)n);
    free(all);
    free(mine);
  }
  free(buf);
}

/* ---- MPI_BOTTOM: a struct of absolute addresses ---------------------------------------- */
static void t_bottom(MPI_Comm comm, const char *cn, MPI_Op isum, uint64_t seed) {
  int r, p, ok, rc, root;
  int a[5];
  double d = 0;
  long long q = 0;
  int blens[3] = {5, 1, 1};
  MPI_Aint disp[3];
  MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_LONG_LONG}, st, ht;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  root = p - 1;
  MPI_Get_address(a, &disp[0]);
  MPI_Get_address(&d, &disp[1]);
  MPI_Get_address(&q, &disp[2]);
  MPI_Type_create_struct(3, blens, disp, types, &st);
  MPI_Type_commit(&st);
  for (int i = 0; i < 5; i++) a[i] = r == root ? (int)(hv(seed, root, i) % 1000) : -1;
  d = r == root ? 2.5 : -1;
  q = r == root ? 1234567890123LL : -1;
  rc = MPI_Bcast(MPI_BOTTOM, 1, st, root, comm);
  ok = rc == MPI_SUCCESS && d == 2.5 && q == 1234567890123LL;
  for (int i = 0; i < 5; i++) ok = ok && a[i] == (int)(hv(seed, root, i) % 1000);
  check(ok, "%s: MPI_Bcast(MPI_BOTTOM) struct of absolute addresses", cn);
  MPI_Type_free(&st);
  /* Allreduce in place on MPI_BOTTOM: one block of 5 ints at an absolute address */
  MPI_Type_create_hindexed(1, blens, disp, MPI_INT, &ht);
  MPI_Type_commit(&ht);
  for (int i = 0; i < 5; i++) a[i] = r * 10 + i;
  rc = MPI_Allreduce(MPI_IN_PLACE, MPI_BOTTOM, 1, ht, isum, comm);
  ok = rc == MPI_SUCCESS;
  for (int i = 0; i < 5; i++) ok = ok && a[i] == 10 * (p * (p - 1) / 2) + p * i;
  check(ok, "%s: MPI_Allreduce(MPI_IN_PLACE, MPI_BOTTOM) absolute hindexed type, user op", cn);
  MPI_Type_free(&ht);
}

/* a user operator summing the ints of any datatype made of MPI_INTs in one
 * block (the hindexed type of t_bottom): element k's ints start at
 * base + true_lb + k * extent, whatever the base (MPI_BOTTOM or a buffer) */
static void isum_fn(void *in, void *inout, int *len, MPI_Datatype *dt) {
  MPI_Aint lb = 0, ext = 0, tlb = 0, text = 0;
  int size = 0, per;
  MPI_Type_size(*dt, &size);
  MPI_Type_get_extent(*dt, &lb, &ext);
  MPI_Type_get_true_extent(*dt, &tlb, &text);
  per = size / (int)sizeof(int);
  for (int k = 0; k < *len; k++) {
    const int *x = (const int *)(uintptr_t)((uintptr_t)in + (uintptr_t)(tlb + k * ext));
    int *y = (int *)(uintptr_t)((uintptr_t)inout + (uintptr_t)(tlb + k * ext));
    for (int j = 0; j < per; j++) y[j] += x[j];
  }
}

/* ---- the non-commutative operator: 2x2 matrices modulo a prime ------------------------ */
#define MP 1000000007u
static void mmul(const unsigned *x, unsigned *y) { /* y = x * y */
  uint64_t a = x[0], b = x[1], c = x[2], d = x[3], e = y[0], f = y[1], g = y[2], h = y[3];
  y[0] = (unsigned)((a * e + b * g) % MP);
  y[1] = (unsigned)((a * f + b * h) % MP);
  y[2] = (unsigned)((c * e + d * g) % MP);
  y[3] = (unsigned)((c * f + d * h) % MP);
}
static void mat_fn(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  for (int k = 0; k < *len; k++) mmul((const unsigned *)in + 4 * k, (unsigned *)inout + 4 * k);
}
static void mgen(unsigned *m, uint64_t seed, int who, int64_t n) {
  for (int64_t i = 0; i < 4 * n; i++) m[i] = (unsigned)(hv(seed, who, i) % MP);
}

static void t_matrix(MPI_Comm comm, const char *cn, MPI_Datatype mt, MPI_Op mop, int64_t n,
                     uint64_t seed) {
  static const char *const kn[] = {"MPI_Reduce", "MPI_Allreduce", "MPI_Scan"};
  int r, p;
  size_t bytes = (size_t)n * 16;
  unsigned *send = (unsigned *)xmalloc(bytes), *recv = (unsigned *)xmalloc(bytes);
  unsigned *want = (unsigned *)xmalloc(bytes), *x = (unsigned *)xmalloc(bytes);
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  for (int kind = 0; kind < 3; kind++) {
    int ok = 1, upto = kind == 2 ? r : p - 1;
    mgen(want, seed, 0, n);
    for (int q = 1; q <= upto; q++) {
      mgen(x, seed, q, n);
      for (int64_t k = 0; k < n; k++) {
        mmul(want + 4 * k, x + 4 * k);
        memcpy(want + 4 * k, x + 4 * k, 16);
      }
    }
    for (int i = 0; i < (kind == 0 ? nroots(p, n) : 1); i++) {
      int root = kind == 0 ? root_at(p, n, i) : 0, rc, ip = i % 2 == 1 && (kind != 0 || r == root);
      mgen(send, seed, r, n);
      memset(recv, 0, bytes);
      if (ip) memcpy(recv, send, bytes);
      if (kind == 0) rc = MPI_Reduce(ip ? MPI_IN_PLACE : send, recv, (int)n, mt, mop, root, comm);
      else if (kind == 1) rc = MPI_Allreduce(ip ? MPI_IN_PLACE : send, recv, (int)n, mt, mop, comm);
      else rc = MPI_Scan(ip ? MPI_IN_PLACE : send, recv, (int)n, mt, mop, comm);
      ok = ok && rc == MPI_SUCCESS;
      if (kind != 0 || r == root) ok = ok && memcmp(recv, want, bytes) == 0;
    }
    check(ok, "%s: %s non-commutative user op (2x2 matrices mod p) count %lld%s", cn, kn[kind],
          (long long)n, kind == 0 ? (n <= 7 ? " every root" : " roots 0, last") : "");
  }
  free(send);
  free(recv);
  free(want);
  free(x);
}

/* ---- bad arguments: the error class comes back under MPI_ERRORS_RETURN ----------------- */
static int cls_of(int rc) {
  int c = MPI_SUCCESS;
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &c);
  return c;
}

static void t_errors(MPI_Comm comm, const char *cn) {
  MPI_Comm d;
  int p, a[4] = {0}, b[4 * 64] = {0}, c;
  MPI_Comm_size(comm, &p);
  MPI_Comm_dup(comm, &d);
  MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN);
  c = cls_of(MPI_Bcast(a, -1, MPI_INT, 0, d));
  check(c == MPI_ERR_COUNT, "%s: MPI_Bcast count -1 -> MPI_ERR_COUNT (got class %d)", cn, c);
  c = cls_of(MPI_Bcast(a, 1, MPI_INT, p, d));
  check(c == MPI_ERR_ROOT, "%s: MPI_Bcast root = size -> MPI_ERR_ROOT (got class %d)", cn, c);
  c = cls_of(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, -1, d));
  check(c == MPI_ERR_ROOT, "%s: MPI_Reduce root -1 -> MPI_ERR_ROOT (got class %d)", cn, c);
  c = cls_of(MPI_Allreduce(a, b, 1, MPI_INT, MPI_OP_NULL, d));
  check(c == MPI_ERR_OP, "%s: MPI_Allreduce MPI_OP_NULL -> MPI_ERR_OP (got class %d)", cn, c);
  c = cls_of(MPI_Allreduce(a, b, 1, MPI_DATATYPE_NULL, MPI_SUM, d));
  check(c == MPI_ERR_TYPE || c == MPI_ERR_OP,
        "%s: MPI_Allreduce MPI_DATATYPE_NULL -> MPI_ERR_TYPE or MPI_ERR_OP (got class %d)", cn, c);
  c = cls_of(MPI_Allgather(a, 1, MPI_INT, b, -1, MPI_INT, d));
  check(c == MPI_ERR_COUNT, "%s: MPI_Allgather recvcount -1 -> MPI_ERR_COUNT (got class %d)", cn, c);
  c = cls_of(MPI_Scan(a, b, -3, MPI_INT, MPI_SUM, d));
  check(c == MPI_ERR_COUNT, "%s: MPI_Scan count -3 -> MPI_ERR_COUNT (got class %d)", cn, c);
  /* count 0 is fine, with any buffer */
  c = cls_of(MPI_Bcast(NULL, 0, MPI_INT, 0, d));
  c = c ? c : cls_of(MPI_Reduce(a, b, 0, MPI_INT, MPI_SUM, 0, d));
  c = c ? c : cls_of(MPI_Allreduce(a, b, 0, MPI_DOUBLE, MPI_MAX, d));
  c = c ? c : cls_of(MPI_Allgather(a, 0, MPI_INT, b, 0, MPI_INT, d));
  c = c ? c : cls_of(MPI_Scan(a, b, 0, MPI_LONG_LONG, MPI_PROD, d));
  check(c == MPI_SUCCESS, "%s: count 0 in all five -> MPI_SUCCESS (got class %d)", cn, c);
  /* the communicator still works */
  a[0] = 1;
  c = cls_of(MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, d));
  check(c == MPI_SUCCESS && b[0] == p, "%s: MPI_Allreduce after the bad calls", cn);
  MPI_Comm_free(&d);
}

static void suite(MPI_Comm comm, const char *cn, int64_t big, uint64_t seed) {
  int64_t sizes[5] = {0, 1, 7, 1000, big};
  MPI_Datatype vec, rt, mt, tmp;
  MPI_Op vop, mop, isum;
  int blens[3] = {1, 1, 1};
  MPI_Aint disp[3] = {offsetof(rec, c), offsetof(rec, d), offsetof(rec, i)};
  MPI_Datatype rtypes[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};

  for (int s = 0; s < 5; s++)
    for (int t = 0; t < 3; t++) t_bcast(comm, cn, t, sizes[s], seed + (uint64_t)(3 * s + t));
  for (int kind = 0; kind < 3; kind++)
    for (int s = 0; s < 5; s++)
      for (int t = 0; t < 3; t++) {
        if (sizes[s] == big && t != kind) continue; /* the big size once per call */
        t_combine(comm, cn, kind, t, sizes[s], 0, seed + (uint64_t)(100 + 3 * s + t));
      }
  for (int kind = 0; kind < 3; kind++)
    for (int t = 0; t < 3; t++) t_combine(comm, cn, kind, t, 7, 1, seed + (uint64_t)(200 + t));
  for (int s = 0; s < 4; s++)
    for (int t = 0; t < 3; t++) t_allgather(comm, cn, t, sizes[s], 0, seed + (uint64_t)(300 + s));
  t_allgather(comm, cn, T_DOUBLE, 7, 1, seed + 310);
  t_allgather(comm, cn, T_INT, 1000, 1, seed + 311);

  MPI_Type_vector(3, 2, 3, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  MPI_Op_create(vsum, 1, &vop);
  t_vector(comm, cn, vec, vop, 1, seed + 400);
  t_vector(comm, cn, vec, vop, 300, seed + 401);
  MPI_Op_free(&vop);
  MPI_Type_free(&vec);

  MPI_Type_create_struct(3, blens, disp, rtypes, &tmp);
  MPI_Type_create_resized(tmp, 0, sizeof(rec), &rt);
  MPI_Type_free(&tmp);
  MPI_Type_commit(&rt);
  t_struct(comm, cn, rt, 1, seed + 500);
  t_struct(comm, cn, rt, 500, seed + 501);
  MPI_Type_free(&rt);

  MPI_Op_create(isum_fn, 1, &isum);
  t_bottom(comm, cn, isum, seed + 600);
  MPI_Op_free(&isum);

  MPI_Type_contiguous(4, MPI_UNSIGNED, &mt);
  MPI_Type_commit(&mt);
  MPI_Op_create(mat_fn, 0, &mop);
  t_matrix(comm, cn, mt, mop, 1, seed + 700);
  t_matrix(comm, cn, mt, mop, 7, seed + 701);
  t_matrix(comm, cn, mt, mop, 2000, seed + 702);
  MPI_Op_free(&mop);
  MPI_Type_free(&mt);

  t_errors(comm, cn);
}

int main(int argc, char **argv) {
  MPI_Comm half, again;
  int64_t big;
  char name[64];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &wsize);
  /* the large size, kept small enough for 33 ranks on 2 cores */
  big = wsize <= 8 ? 200000 : wsize <= 16 ? 20000 : 5000;
  suite(MPI_COMM_WORLD, "world", big, 1);
  /* two halves, ranks in reverse order */
  MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wsize - wrank, &half);
  {
    int hs;
    MPI_Comm_size(half, &hs);
    snprintf(name, sizeof name, "split(half of %d)", hs);
  }
  suite(half, name, big, 2);
  MPI_Comm_free(&half);
  /* a communicator made and freed after another was freed */
  MPI_Comm_dup(MPI_COMM_WORLD, &again);
  t_combine(again, "world dup", 1, T_INT, 1000, 0, 3);
  t_bcast(again, "world dup", T_DOUBLE, 7, 4);
  MPI_Comm_free(&again);
  if (wrank == 0) {
    printf("test_interpose: %d passed, %d failed\n", npass, nfail);
    fflush(stdout);
  }
  MPI_Finalize();
  return nfail > 0;
}
