/* test_rt.c - the runtime on the threads transport: types and operators,
 * parameter files, the transport's rules, and every collective against a
 * serial reference for P in {1, 2, 3, 5, 8, 16, 33}, several sizes, types,
 * operators (one non-commutative) and roots; bad calls end in an error,
 * never a hang. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "optcast_rt.h"
#include "test.h"

#define WRONG 1000 /* a rank's result differs from the reference */

static const int PROCS[] = {1, 2, 3, 5, 8, 16, 33};
#define NPROCS ((int)(sizeof PROCS / sizeof PROCS[0]))

/* ---- a non-commutative operator: 2x2 matrices mod 65521 in a uint64 ---- */
#define MP 65521u
static uint64_t mat_mul(uint64_t a, uint64_t b) {
  uint64_t a0 = a & 0xffff, a1 = (a >> 16) & 0xffff, a2 = (a >> 32) & 0xffff,
           a3 = a >> 48;
  uint64_t b0 = b & 0xffff, b1 = (b >> 16) & 0xffff, b2 = (b >> 32) & 0xffff,
           b3 = b >> 48;
  uint64_t c0 = (a0 * b0 + a1 * b2) % MP, c1 = (a0 * b1 + a1 * b3) % MP;
  uint64_t c2 = (a2 * b0 + a3 * b2) % MP, c3 = (a2 * b1 + a3 * b3) % MP;
  return c0 | c1 << 16 | c2 << 32 | c3 << 48;
}
static void mat_op(const void *in, void *inout, int64_t n, void *arg) {
  const uint64_t *x = (const uint64_t *)in;
  uint64_t *y = (uint64_t *)inout;
  (void)arg;
  for (int64_t i = 0; i < n; i++) y[i] = mat_mul(x[i], y[i]);
}

/* ---- inputs: a deterministic value per (seed, rank, element) ---- */
static uint64_t h64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

static void fill(void *buf, oc_type t, int64_t n, uint64_t seed, int rank, int mat) {
  for (int64_t i = 0; i < n; i++) {
    uint64_t v = h64(seed * 1000003u + (uint64_t)rank * 7919u + (uint64_t)i);
    switch (t) {
    case OC_INT8: ((int8_t *)buf)[i] = (int8_t)(v & 0x7f); break;
    case OC_UINT8: ((uint8_t *)buf)[i] = (uint8_t)v; break;
    case OC_INT16: ((int16_t *)buf)[i] = (int16_t)(v & 0x7fff); break;
    case OC_UINT16: ((uint16_t *)buf)[i] = (uint16_t)v; break;
    case OC_INT32: ((int32_t *)buf)[i] = (int32_t)(v & 0x7fffffff) - 0x3fffffff; break;
    case OC_UINT32: ((uint32_t *)buf)[i] = (uint32_t)v; break;
    case OC_INT64: ((int64_t *)buf)[i] = (int64_t)(v >> 1); break;
    case OC_UINT64:
      ((uint64_t *)buf)[i] = mat ? ((v % MP) | ((v >> 16) % MP) << 16 |
                                    ((v >> 32) % MP) << 32 | ((v >> 40) % MP) << 48)
                                 : v;
      break;
    case OC_FLOAT: ((float *)buf)[i] = (float)(v % 1000) / 8.0f; break;
    case OC_DOUBLE: ((double *)buf)[i] = (double)(v % 100000) / 16.0; break;
    default: ((uint8_t *)buf)[i] = (uint8_t)v; break;
    }
  }
}

typedef enum { K_BCAST, K_REDUCE, K_ALLREDUCE, K_ALLGATHER, K_SCAN, K_SUM } kind;

typedef struct job {
  kind k;
  int64_t count;
  oc_type t;
  oc_reducer op;
  int root, mat, in_place;
  uint64_t seed;
  int64_t segment;   /* 0: model's choice */
  int64_t n;         /* K_SUM: operands */
  int64_t total_sends; /* filled by the ranks (under no lock: each adds its own slot) */
  int64_t sends[64];
  int64_t segments;  /* rank 0's last call */
  const char *alg;   /* allreduce / scan: forced algorithm, or NULL */
} job;

/* the serial fold of ranks lo..hi (inclusive) into out */
static void ref_fold(const job *j, int lo, int hi, void *out) {
  size_t sz = oc_type_size(j->t), b = (size_t)j->count * sz;
  void *x = malloc(b ? b : 1);
  fill(out, j->t, j->count, j->seed, lo, j->mat);
  for (int r = lo + 1; r <= hi; r++) {
    fill(x, j->t, j->count, j->seed, r, j->mat);
    oc_reducer_apply(&j->op, j->t, out, x, j->count); /* x = out op x */
    if (b) memcpy(out, x, b);
  }
  free(x);
}

static int same(const void *a, const void *b, size_t n) {
  return n == 0 || memcmp(a, b, n) == 0;
}

static int run_job(oc_comm *c, void *arg) {
  job *j = (job *)arg;
  int me = oc_comm_rank(c), P = oc_comm_size(c), e = OC_OK, ok = 1;
  size_t sz = oc_type_size(j->t), b = (size_t)j->count * sz;
  unsigned char *in = (unsigned char *)malloc(b + 1), *out = NULL,
                *ref = (unsigned char *)malloc(b * (size_t)P + 1);
  oc_callinfo ci;
  if (j->segment > 0) oc_comm_set_segment(c, j->segment);
  if (j->alg != NULL &&
      oc_comm_set_algorithm(c, j->k == K_SCAN ? "scan" : "allreduce", j->alg) != OC_OK)
    return OC_EINVAL;
  fill(in, j->t, j->count, j->seed, me, j->mat);
  switch (j->k) {
  case K_BCAST:
    out = (unsigned char *)malloc(b + 1);
    if (me == j->root) memcpy(out, in, b);
    else memset(out, 0xa5, b);
    e = oc_coll_bcast(c, out, j->count, j->t, j->root);
    fill(ref, j->t, j->count, j->seed, j->root, j->mat);
    ok = same(out, ref, b);
    break;
  case K_REDUCE:
    out = (unsigned char *)malloc(b + 1);
    memset(out, 0xa5, b);
    if (j->in_place && me == j->root) {
      memcpy(out, in, b);
      e = oc_coll_reduce(c, OC_IN_PLACE, out, j->count, j->t, &j->op, j->root);
    } else {
      e = oc_coll_reduce(c, in, me == j->root ? out : NULL, j->count, j->t, &j->op,
                         j->root);
    }
    if (me == j->root) {
      ref_fold(j, 0, P - 1, ref);
      ok = same(out, ref, b);
    }
    break;
  case K_ALLREDUCE:
    out = (unsigned char *)malloc(b + 1);
    if (j->in_place) {
      memcpy(out, in, b);
      e = oc_coll_allreduce(c, OC_IN_PLACE, out, j->count, j->t, &j->op);
    } else {
      e = oc_coll_allreduce(c, in, out, j->count, j->t, &j->op);
    }
    ref_fold(j, 0, P - 1, ref);
    ok = same(out, ref, b);
    break;
  case K_ALLGATHER:
    out = (unsigned char *)malloc(b * (size_t)P + 1);
    memset(out, 0xa5, b * (size_t)P);
    if (j->in_place) {
      memcpy(out + (size_t)me * b, in, b);
      e = oc_coll_allgather(c, OC_IN_PLACE, out, j->count, j->t);
    } else {
      e = oc_coll_allgather(c, in, out, j->count, j->t);
    }
    for (int r = 0; r < P; r++) fill(ref + (size_t)r * b, j->t, j->count, j->seed, r, j->mat);
    ok = same(out, ref, b * (size_t)P);
    break;
  case K_SCAN:
    out = (unsigned char *)malloc(b + 1);
    if (j->in_place) {
      memcpy(out, in, b);
      e = oc_coll_scan(c, OC_IN_PLACE, out, j->count, j->t, &j->op);
    } else {
      e = oc_coll_scan(c, in, out, j->count, j->t, &j->op);
    }
    ref_fold(j, 0, me, ref);
    ok = same(out, ref, b);
    break;
  case K_SUM: {
    int64_t first = -1, held = -1;
    unsigned char *ops;
    e = oc_coll_sum_share(c, j->n, j->count, j->t, j->root, &first, &held);
    if (e) break;
    ops = (unsigned char *)malloc(b * (size_t)(held + 1) + 1);
    for (int64_t i = 0; i < held; i++) /* operand k is "rank" k's input */
      fill(ops + (size_t)i * b, j->t, j->count, j->seed, (int)(first + i), j->mat);
    out = (unsigned char *)malloc(b + 1);
    e = oc_coll_sum(c, j->n, ops, me == j->root ? out : NULL, j->count, j->t, &j->op,
                    j->root);
    free(ops);
    if (e == OC_OK && me == j->root) {
      free(ref);
      ref = (unsigned char *)malloc(b + 1);
      ref_fold(j, 0, (int)j->n - 1, ref);
      ok = same(out, ref, b);
    }
    break;
  }
  }
  oc_comm_last_call(c, &ci);
  if (me < 64) j->sends[me] = ci.sends;
  if (me == 0) j->segments = ci.segments;
  free(in);
  free(out);
  free(ref);
  if (e) return e;
  return ok ? OC_OK : WRONG;
}

static void run_all(job *j, int P) {
  int rcs[64];
  memset(j->sends, 0, sizeof j->sends);
  CHECK_OK(oc_threads_run(P, NULL, 20000, run_job, j, rcs));
  for (int r = 0; r < P; r++)
    if (rcs[r] != OC_OK)
      test_failf(__FILE__, __LINE__,
                 "kind %d P %d count %lld type %s op %s root %d seg %lld: rank %d -> %d",
                 (int)j->k, P, (long long)j->count, oc_type_name(j->t),
                 oc_opkind_name(j->op.kind), j->root, (long long)j->segment, r, rcs[r]);
}

void test_rt_types_ops(void) {
  int32_t a[3] = {INT32_MAX, -5, 7}, b[3] = {1, 9, -7};
  double d[2] = {1.5, -2}, e2[2] = {2, 3};
  uint8_t u[2] = {200, 3}, v[2] = {100, 250};
  oc_reducer sum = oc_reducer_builtin(OC_OP_SUM), prod = oc_reducer_builtin(OC_OP_PROD);
  oc_reducer band = oc_reducer_builtin(OC_OP_BAND), mx = oc_reducer_builtin(OC_OP_MAX);
  oc_reducer user = oc_reducer_user(mat_op, NULL, 0), bad = oc_reducer_user(NULL, NULL, 1);
  oc_type t;
  oc_opkind k;
  CHECK_OK(oc_reducer_apply(&sum, OC_INT32, a, b, 3));
  CHECK_EQ(b[0], INT32_MIN); /* wraps, no undefined behaviour */
  CHECK_EQ(b[1], 4);
  CHECK_EQ(b[2], 0);
  CHECK_OK(oc_reducer_apply(&prod, OC_UINT8, u, v, 2));
  CHECK_EQ(v[0], (200 * 100) % 256);
  CHECK_EQ(v[1], (3 * 250) % 256);
  CHECK_OK(oc_reducer_apply(&mx, OC_DOUBLE, d, e2, 2));
  CHECK(e2[0] == 2 && e2[1] == 3);
  CHECK_EQ(oc_reducer_apply(&band, OC_DOUBLE, d, e2, 2), OC_EINVAL);
  CHECK_EQ(oc_reducer_apply(&sum, OC_BYTE, u, v, 2), OC_EINVAL);
  CHECK_EQ(oc_reducer_check(&bad, OC_INT32), OC_EINVAL);
  CHECK_OK(oc_reducer_check(&user, OC_UINT64));
  CHECK_EQ(oc_reducer_apply(&sum, OC_INT32, a, b, -1), OC_EINVAL);
  {
    uint64_t x = 1 | 2ULL << 16 | 3ULL << 32 | 4ULL << 48, y = 5 | 6ULL << 16 | 7ULL << 32 | 8ULL << 48;
    CHECK(mat_mul(x, y) != mat_mul(y, x)); /* the test operator does not commute */
  }
  for (int i = 0; i < OC_TYPE_COUNT; i++) {
    CHECK_OK(oc_type_parse(oc_type_name((oc_type)i), &t));
    CHECK_EQ(t, i);
    CHECK(oc_type_size((oc_type)i) > 0);
  }
  for (int i = 0; i < OC_OP_USER; i++) {
    CHECK_OK(oc_opkind_parse(oc_opkind_name((oc_opkind)i), &k));
    CHECK_EQ(k, i);
  }
  CHECK_EQ(oc_type_parse("int128", &t), OC_EINVAL);
  CHECK_EQ(oc_opkind_parse("user", &k), OC_EINVAL);
  CHECK_EQ(oc_type_size((oc_type)99), 0);
}

void test_rt_params_file(void) {
  oc_rtparams p, q;
  oc_params m;
  char path[] = "/tmp/optcast_rtp_XXXXXX";
  int fd = mkstemp(path), line = 0;
  double L, os, orv, g;
  FILE *f;
  CHECK(fd >= 0);
  close(fd);
  oc_rtparams_default(&p);
  CHECK_OK(oc_rtparams_write(path, &p));
  CHECK_OK(oc_rtparams_read(path, &q, &line));
  CHECK_EQ(q.nrows, p.nrows);
  for (int i = 0; i < p.nrows; i++) CHECK_EQ(q.bytes[i], p.bytes[i]);
  /* interpolation halfway between rows, and extrapolation past the last */
  q.nrows = 2;
  q.bytes[0] = 100, q.bytes[1] = 300;
  q.L[0] = 1, q.L[1] = 3, q.os[0] = 0, q.os[1] = 2, q.orv[0] = 0, q.orv[1] = 0;
  q.g[0] = 10, q.g[1] = 20;
  oc_rtparams_at(&q, 200, &L, &os, &orv, &g);
  CHECK(L == 2 && os == 1 && g == 15);
  oc_rtparams_at(&q, 500, &L, &os, &orv, &g);
  CHECK(L == 5 && g == 30);
  oc_rtparams_at(&q, 1, &L, NULL, NULL, &g);
  CHECK(L == 1 && g == 10);
  /* microseconds to units of 10 ns, rounded up; g at least one unit */
  CHECK_OK(oc_rtparams_model(&q, 200, 8, 10.0, &m));
  CHECK_EQ(m.o, 50); /* the mean of o_s = 1 and o_r = 0 us */
  CHECK_EQ(m.L, 1600); /* L + 2o = RTT/2 = L + g: 2 + 15 - 1 us */
  CHECK_EQ(m.g, 1500);
  CHECK_EQ(m.P, 8);
  /* overheads above g (a rendezvous: both contain the transfer): o = g/2 */
  q.os[0] = q.os[1] = 40;
  CHECK_OK(oc_rtparams_model(&q, 200, 8, 10.0, &m));
  CHECK_EQ(m.o, 750);
  CHECK_EQ(m.L, 200);
  q.os[0] = 0, q.os[1] = 2;
  CHECK_EQ(oc_rtparams_model(&q, 200, 8, 0.0, &m), OC_EINVAL);
  /* bad files: the line is named */
  {
    static const struct { const char *text; int err, line; } bad[] = {
        {"transport x\n8 1 2 3\n", OC_EPARSE, 2},
        {"8 1 1 1 1\n4 1 1 1 1\n", OC_ERANGE, 2},
        {"# c\n8 1 -1 1 1\n", OC_ERANGE, 2},
        {"8 1 1 1 nan\n", OC_ERANGE, 1},
        {"0 1 1 1 1\n", OC_ERANGE, 1},
        {"procs 0\n8 1 1 1 1\n", OC_ERANGE, 1},
        {"# only a comment\n", OC_EPARSE, 0},
        {"8 1 1 1 1 junk\n", OC_EPARSE, 1},
        {"combine_ns\n8 1 1 1 1\n", OC_EPARSE, 1},
        {"procs 2\ncombine_ns 0.1x\n8 1 1 1 1\n", OC_EPARSE, 2},
        {"combine_ns -0.5\n8 1 1 1 1\n", OC_ERANGE, 1},
        {"combine_ns inf\n8 1 1 1 1\n", OC_ERANGE, 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      f = fopen(path, "w");
      if (f == NULL) {
        CHECK(f != NULL);
      } else {
        fputs(bad[i].text, f);
        fclose(f);
      }
      CHECK_EQ(oc_rtparams_read(path, &q, &line), bad[i].err);
      CHECK_EQ(line, bad[i].line);
    }
  }
  /* the measured cost of a combination: written, read back, absent = 0 */
  oc_rtparams_default(&p);
  p.combine_ns = 0.0375;
  CHECK_OK(oc_rtparams_write(path, &p));
  CHECK_OK(oc_rtparams_read(path, &q, &line));
  CHECK(q.combine_ns == 0.0375);
  CHECK_OK(oc_rtparams_parse("8 1 1 1 1\n", 10, &q, &line));
  CHECK(q.combine_ns == 0);
  unlink(path);
  CHECK_EQ(oc_rtparams_read("/nonexistent/optcast.params", &q, &line), OC_EIO);
}

static int64_t mono_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void test_rt_threads_transport(void) {
  oc_threads *w = NULL;
  oc_transport a, b;
  oc_elem el;
  oc_req r[4];
  int32_t x[3] = {1, 2, 3}, y[3] = {0, 0, 0}, z[3] = {0, 0, 0}, big[5] = {0};
  int64_t got = -1, t0;
  CHECK_OK(oc_elem_builtin(&el, OC_INT32, NULL));
  CHECK_OK(oc_threads_new(&w, 2));
  CHECK_OK(oc_threads_endpoint(w, 0, &a));
  CHECK_OK(oc_threads_endpoint(w, 1, &b));
  CHECK_EQ(oc_threads_endpoint(w, 2, &b), OC_EINVAL);
  CHECK_OK(oc_threads_endpoint(w, 1, &b));
  /* unexpected then posted; two messages with one tag stay in order */
  CHECK_OK(a.isend(a.ctx, x, 3, &el, 1, 7, &r[0]));
  x[0] = 9; /* buffered: the send copied */
  CHECK_OK(a.isend(a.ctx, x, 2, &el, 1, 7, &r[1]));
  CHECK_OK(b.irecv(b.ctx, y, 3, &el, 0, 7, &r[2]));
  CHECK_OK(b.wait(b.ctx, &r[2], -1, &got));
  CHECK_EQ(got, 3);
  CHECK(y[0] == 1 && y[1] == 2 && y[2] == 3);
  CHECK_OK(b.irecv(b.ctx, z, 3, &el, 0, 7, &r[2]));
  CHECK_OK(b.wait(b.ctx, &r[2], -1, &got));
  CHECK_EQ(got, 2);
  CHECK(z[0] == 9 && z[1] == 2);
  CHECK_OK(a.wait(a.ctx, &r[0], -1, NULL));
  CHECK_OK(a.wait(a.ctx, &r[1], -1, NULL));
  /* posted first, then matched by the send; another tag does not match */
  CHECK_OK(b.irecv(b.ctx, y, 3, &el, 0, 5, &r[2]));
  CHECK_OK(a.isend(a.ctx, x, 3, &el, 1, 6, &r[0]));
  CHECK_OK(a.isend(a.ctx, x, 1, &el, 1, 5, &r[1]));
  CHECK_OK(b.wait(b.ctx, &r[2], -1, &got));
  CHECK_EQ(got, 1);
  /* too large for the buffer */
  CHECK_OK(b.irecv(b.ctx, z, 2, &el, 0, 6, &r[3]));
  CHECK_EQ(b.wait(b.ctx, &r[3], -1, &got), OC_EMISMATCH);
  /* nothing comes: a timeout, then the receive is cancelled */
  t0 = mono_ms();
  {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    CHECK_OK(b.irecv(b.ctx, big, 5, &el, 0, 99, &r[3]));
    CHECK_EQ(b.wait(b.ctx, &r[3], (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + 50000000,
                    &got),
             OC_ETIMEDOUT);
    b.cancel(b.ctx, &r[3]);
  }
  CHECK(mono_ms() - t0 < 5000);
  /* a message left unreceived is freed with the world (valgrind checks) */
  CHECK_OK(a.isend(a.ctx, x, 3, &el, 1, 11, &r[0]));
  CHECK_EQ(a.isend(a.ctx, x, 3, &el, 2, 11, &r[0]), OC_EINVAL);
  CHECK_EQ(a.isend(a.ctx, x, -1, &el, 1, 11, &r[0]), OC_EINVAL);
  oc_threads_free(w);
  CHECK_EQ(oc_threads_new(&w, 0), OC_EINVAL);
}

static const oc_type TYPES[] = {OC_INT32, OC_DOUBLE, OC_UINT8, OC_INT64, OC_FLOAT, OC_UINT16};

/* one collective kind over every P, several sizes, types, operators, roots */
static void sweep_kind(kind k) {
  static const int64_t counts[] = {0, 1, 7, 1000, 70000};
  job j;
  memset(&j, 0, sizeof j);
  j.k = k;
  for (int pi = 0; pi < NPROCS; pi++) {
    int P = PROCS[pi];
    if (test_valgrind() && P > 5) break; /* valgrind: a smaller grid */
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
      int64_t n = counts[ci];
      if (n >= 70000 && P > 8) continue; /* keep the run short */
      if (n >= 70000 && test_valgrind()) continue;
      for (int variant = 0; variant < 4; variant++) {
        j.count = n;
        j.seed = (uint64_t)(pi * 100 + (int)ci * 10 + variant);
        j.t = TYPES[(pi + ci + (size_t)variant) % (sizeof TYPES / sizeof TYPES[0])];
        j.mat = 0;
        j.in_place = variant == 1;
        j.segment = variant == 2 ? 64 : 0; /* many segments */
        switch (variant) {
        case 0: j.op = oc_reducer_builtin(OC_OP_SUM); break;
        case 1: j.op = oc_reducer_builtin(OC_OP_MAX); break;
        case 2: j.op = oc_reducer_builtin(OC_OP_MIN); break;
        default:
          j.op = oc_reducer_user(mat_op, NULL, 0);
          j.t = OC_UINT64;
          j.mat = 1;
        }
        if (k == K_ALLGATHER && n >= 70000 && P > 5) continue;
        /* every root for the small sizes, two otherwise */
        for (int root = 0; root < P; root++) {
          if (n > 7 && root != 0 && root != P - 1) continue;
          if ((k == K_ALLREDUCE || k == K_ALLGATHER || k == K_SCAN) && root > 0) break;
          j.root = root;
          j.alg = NULL;
          run_all(&j, P);
          /* and each algorithm forced (the ring only for commutative ones) */
          if (k == K_ALLREDUCE) {
            j.alg = "tree";
            run_all(&j, P);
            j.alg = "doubling";
            run_all(&j, P);
            j.alg = "direct"; /* rank order kept: the matrix product too */
            run_all(&j, P);
            if (j.op.commutative) {
              j.alg = "ring";
              run_all(&j, P);
            }
          } else if (k == K_SCAN) {
            j.alg = "doubling";
            run_all(&j, P);
            j.alg = "chain";
            run_all(&j, P);
            j.alg = "direct";
            run_all(&j, P);
          }
        }
      }
    }
  }
}

void test_rt_bcast(void) { sweep_kind(K_BCAST); }
void test_rt_reduce(void) { sweep_kind(K_REDUCE); }
void test_rt_allreduce(void) { sweep_kind(K_ALLREDUCE); }
void test_rt_allgather(void) { sweep_kind(K_ALLGATHER); }
void test_rt_scan(void) { sweep_kind(K_SCAN); }

void test_rt_sum(void) {
  job j;
  memset(&j, 0, sizeof j);
  j.k = K_SUM;
  for (int pi = 0; pi < NPROCS; pi++) {
    int P = PROCS[pi];
    if (test_valgrind() && P > 5) break;
    /* 432 and 1000: a rank prepends a child's interval, so two senders'
     * intervals start at the same operand (a review found the root then
     * waited on the wrong rank) */
    static const int64_t ns[] = {1, 2, 5, 40, 200, 432, 1000};
    for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
      j.n = ns[ni];
      if (test_valgrind() && ns[ni] > 200) continue;
      j.count = (int64_t)(ni * 3 + 1);
      j.seed = (uint64_t)(pi * 10 + (int)ni);
      j.root = (int)(ni % (size_t)P);
      j.op = oc_reducer_user(mat_op, NULL, 0);
      j.t = OC_UINT64;
      j.mat = 1;
      run_all(&j, P);
      j.op = oc_reducer_builtin(OC_OP_SUM);
      j.t = OC_INT64;
      j.mat = 0;
      run_all(&j, P);
    }
  }
}

/* random instances: P up to 40, any collective, type, operator (also the
 * non-commutative one), root, forced algorithm and segment size; every rank
 * against the serial reference.  60 here, 1,500 in the sweep. */
void test_rt_random(void) {
  static const kind kinds[] = {K_BCAST, K_REDUCE, K_ALLREDUCE, K_ALLGATHER, K_SCAN, K_SUM};
  static const char *const ar[] = {NULL, "tree", "doubling", "ring", "direct"},
                           *const sc[] = {NULL, "doubling", "chain", "direct"};
  static const oc_opkind ops[] = {OC_OP_SUM, OC_OP_PROD, OC_OP_MIN, OC_OP_MAX, OC_OP_BXOR};
  int rounds = test_sweep() ? 1500 : test_valgrind() ? 10 : 60;
  job j;
  for (int it = 0; it < rounds; it++) {
    int P = (int)test_range(1, test_valgrind() ? 6 : 40);
    memset(&j, 0, sizeof j);
    j.k = kinds[test_range(0, 5)];
    j.count = test_range(0, 3) == 0 ? test_range(0, 5) : test_range(0, 3000);
    j.seed = test_rand();
    j.root = (int)test_range(0, P - 1);
    j.in_place = (int)test_range(0, 1) && j.k != K_SUM && j.k != K_BCAST;
    j.segment = test_range(0, 2) == 0 ? 0 : 8 * test_range(1, 600);
    if (test_range(0, 3) == 0) {
      j.op = oc_reducer_user(mat_op, NULL, 0);
      j.t = OC_UINT64;
      j.mat = 1;
    } else {
      j.op = oc_reducer_builtin(ops[test_range(0, 4)]);
      j.t = j.op.kind == OC_OP_BXOR ? OC_UINT32 : TYPES[test_range(0, 5)];
      /* floating-point products round differently in another (commutative)
       * order; sums of these inputs are exact in any order */
      if (j.op.kind == OC_OP_PROD && (j.t == OC_FLOAT || j.t == OC_DOUBLE))
        j.op = oc_reducer_builtin(OC_OP_SUM);
    }
    if (j.k == K_ALLREDUCE) {
      j.alg = ar[test_range(0, 4)];
      if (j.alg != NULL && strcmp(j.alg, "ring") == 0 && !j.op.commutative) j.alg = "doubling";
    } else if (j.k == K_SCAN) {
      j.alg = sc[test_range(0, 3)];
    }
    if (j.k == K_SUM) {
      j.n = test_range(1, 120);
      j.count = test_range(0, 40);
      j.in_place = 0;
    }
    run_all(&j, P);
  }
}

/* the plan's shape: each segment crosses each tree edge once */
void test_rt_messages(void) {
  job j;
  memset(&j, 0, sizeof j);
  j.op = oc_reducer_builtin(OC_OP_SUM);
  j.t = OC_INT32;
  for (int pi = 1; pi < NPROCS; pi++) {
    int P = PROCS[pi];
    if (test_valgrind() && P > 5) break;
    for (int64_t seg = 0; seg <= 400; seg += 400) {
      int64_t total = 0, m;
      j.k = K_BCAST;
      j.count = 1000;
      j.segment = seg;
      j.root = P / 2;
      run_all(&j, P);
      for (int r = 0; r < P; r++) total += j.sends[r];
      m = j.segments;
      if (seg) CHECK_EQ(m, (j.count * 4 + seg - 1) / seg);
      CHECK_EQ(total, (int64_t)(P - 1) * m);
      j.k = K_REDUCE;
      run_all(&j, P);
      total = 0;
      for (int r = 0; r < P; r++) total += j.sends[r];
      m = j.segments;
      if (seg) CHECK_EQ(m, (j.count * 4 + seg - 1) / seg);
      CHECK_EQ(total, (int64_t)(P - 1) * m);
    }
  }
}

/* the model picks more segments for a long message than for a short one */
static int seg_probe(oc_comm *c, void *arg) {
  int64_t *res = (int64_t *)arg;
  oc_callinfo ci;
  static char buf[1 << 22];
  int e = oc_coll_bcast(c, buf, 8, OC_BYTE, 0);
  if (e) return e;
  oc_comm_last_call(c, &ci);
  if (oc_comm_rank(c) == 0) res[0] = ci.segments;
  e = oc_coll_bcast(c, buf, sizeof buf, OC_BYTE, 0);
  oc_comm_last_call(c, &ci);
  if (oc_comm_rank(c) == 0) {
    res[1] = ci.segments;
    res[2] = ci.predicted;
  }
  return e;
}

static int alg_probe(oc_comm *c, void *arg) {
  int32_t x[64], y[64];
  oc_reducer sum = oc_reducer_builtin(OC_OP_SUM), mat = oc_reducer_user(mat_op, NULL, 0);
  oc_callinfo ci;
  const char **names = (const char **)arg;
  int e;
  (void)names;
  for (int i = 0; i < 64; i++) x[i] = i;
  { /* the allgather says what it ran, its block and a predicted time (the
     * measured tables need not grow with the size: no order between them) */
    int32_t g[5 * 64];
    if ((e = oc_coll_allgather(c, x, g, 1, OC_INT32)) != OC_OK) return e;
    oc_comm_last_call(c, &ci);
    if (strcmp(ci.algorithm, "karp-all-to-all") != 0 || ci.predicted <= 0) return 26;
    if ((e = oc_coll_allgather(c, x, g, 64, OC_INT32)) != OC_OK) return e;
    oc_comm_last_call(c, &ci);
    if (ci.predicted <= 0 || ci.segment_bytes != 256) return 27;
  }
  if (oc_comm_set_algorithm(c, "allreduce", "ring") != OC_OK) return 1;
  if ((e = oc_coll_allreduce(c, x, y, 64, OC_INT32, &sum)) != OC_OK) return e;
  oc_comm_last_call(c, &ci);
  if (strcmp(ci.algorithm, "ring") != 0) return 2;
  /* the ring with a non-commutative operator is refused */
  if (oc_coll_allreduce(c, x, y, 32, OC_UINT64, &mat) != OC_EINVAL) return 3;
  if (oc_comm_set_algorithm(c, "scan", "chain") != OC_OK) return 4;
  if ((e = oc_coll_scan(c, x, y, 64, OC_INT32, &sum)) != OC_OK) return e;
  oc_comm_last_call(c, &ci);
  if (strcmp(ci.algorithm, "pipelined-chain") != 0) return 5;
  if (oc_comm_set_algorithm(c, "scan", "doubling") != OC_OK) return 6;
  if ((e = oc_coll_scan(c, x, y, 64, OC_INT32, &sum)) != OC_OK) return e;
  oc_comm_last_call(c, &ci);
  if (strcmp(ci.algorithm, "recursive-doubling") != 0) return 7;
  if (oc_comm_set_algorithm(c, "scan", "direct") != OC_OK) return 23;
  if ((e = oc_coll_scan(c, x, y, 32, OC_UINT64, &mat)) != OC_OK) return e;
  oc_comm_last_call(c, &ci);
  if (strcmp(ci.algorithm, "direct") != 0) return 24;
  if (oc_comm_set_algorithm(c, "bcast", "ring") != OC_EINVAL) return 8;
  if (oc_comm_set_algorithm(c, "allreduce", "binomial") != OC_EINVAL) return 9;
  if (oc_comm_set_algorithm(c, "allreduce", "direct") != OC_OK) return 20;
  if ((e = oc_coll_allreduce(c, x, y, 32, OC_UINT64, &mat)) != OC_OK) return e;
  oc_comm_last_call(c, &ci);
  if (strcmp(ci.algorithm, "direct-rs-ag") != 0) return 21;
  if (oc_comm_set_algorithm(c, "allreduce", "doubling") != OC_OK) return 11;
  if ((e = oc_coll_allreduce(c, x, y, 32, OC_UINT64, &mat)) != OC_OK) return e;
  oc_comm_last_call(c, &ci);
  if (strcmp(ci.algorithm, "recursive-doubling") != 0) return 12;
  if (oc_comm_set_algorithm(c, "allreduce", "auto") != OC_OK) return 10;
  if (oc_comm_set_algorithm(c, "reduce", "auto") != OC_OK) return 13;
  if (oc_comm_set_algorithm(c, "reduce", "ring") != OC_EINVAL) return 25;
  if (oc_comm_set_algorithm(c, "scan", "tree") != OC_EINVAL) return 14;
  {
    /* reduce + broadcast ("tree") is a reduce to 0 and a broadcast from 0:
     * its prediction and messages are theirs summed; the same call again
     * (the memoised choice) reports the same */
    oc_callinfo red, bc, ar, ar2;
    if (oc_comm_set_algorithm(c, "allreduce", "tree") != OC_OK) return 22;
    if ((e = oc_coll_reduce(c, x, y, 64, OC_INT32, &sum, 0)) != OC_OK) return e;
    oc_comm_last_call(c, &red);
    if ((e = oc_coll_bcast(c, y, 64, OC_INT32, 0)) != OC_OK) return e;
    oc_comm_last_call(c, &bc);
    if ((e = oc_coll_allreduce(c, x, y, 64, OC_INT32, &sum)) != OC_OK) return e;
    oc_comm_last_call(c, &ar);
    if ((e = oc_coll_allreduce(c, x, y, 64, OC_INT32, &sum)) != OC_OK) return e;
    oc_comm_last_call(c, &ar2);
    if (strcmp(ar.algorithm, "reduce+bcast") != 0) return 15;
    if (ar.predicted != red.predicted + bc.predicted) return 16;
    if (ar.sends != red.sends + bc.sends || ar.recvs != red.recvs + bc.recvs) return 17;
    if (ar.segments != bc.segments || ar.segment_bytes != bc.segment_bytes) return 18;
    if (strcmp(ar2.algorithm, ar.algorithm) != 0 || ar2.predicted != ar.predicted ||
        ar2.sends != ar.sends || ar2.segments != ar.segments)
      return 19;
  }
  /* a huge timeout is clamped (no overflow of the deadline: UBSan checks) */
  oc_comm_set_timeout(c, INT64_MAX / 1000);
  if ((e = oc_coll_allreduce(c, x, y, 64, OC_INT32, &sum)) != OC_OK) return e;
  return OC_OK;
}

void test_rt_algorithms(void) {
  int rcs[5];
  CHECK_OK(oc_threads_run(5, NULL, 20000, alg_probe, NULL, rcs));
  for (int r = 0; r < 5; r++) CHECK_OK(rcs[r]);
}

void test_rt_segments(void) {
  int64_t res[3] = {0, 0, 0};
  int rcs[8];
  CHECK_OK(oc_threads_run(8, NULL, 20000, seg_probe, res, rcs));
  for (int r = 0; r < 8; r++) CHECK_OK(rcs[r]);
  CHECK_EQ(res[0], 1);
  CHECK(res[1] > 1);
  CHECK(res[2] > 0);
}

/* ---- the executor's pacing and receives ahead, seen through a wrapped
 * threads transport ---- */
typedef struct wrapx {
  oc_transport in;
  int64_t recvs_posted, recvs_at_first_wait; /* -1: no wait yet */
} wrapx;

static int wx_isend(void *ctx, const void *buf, int64_t n, const oc_elem *el, int peer,
                    int tag, oc_req *r) {
  wrapx *w = (wrapx *)ctx;
  return w->in.isend(w->in.ctx, buf, n, el, peer, tag, r);
}
static int wx_irecv(void *ctx, void *buf, int64_t n, const oc_elem *el, int peer, int tag,
                    oc_req *r) {
  wrapx *w = (wrapx *)ctx;
  w->recvs_posted++;
  return w->in.irecv(w->in.ctx, buf, n, el, peer, tag, r);
}
static int wx_wait(void *ctx, oc_req *r, int64_t deadline_ns, int64_t *got) {
  wrapx *w = (wrapx *)ctx;
  if (w->recvs_at_first_wait < 0) w->recvs_at_first_wait = w->recvs_posted;
  return w->in.wait(w->in.ctx, r, deadline_ns, got);
}
static void wx_cancel(void *ctx, oc_req *r) {
  wrapx *w = (wrapx *)ctx;
  w->in.cancel(w->in.ctx, r);
}

typedef struct wjob {
  oc_threads *w;
  const oc_rtparams *prm;
  int kind, pace, rank;  /* kind: K_BCAST or K_REDUCE from rank 0 */
  int in_place;          /* K_REDUCE: the root reduces in place          */
  int64_t count, segment; /* int32 elements, segment bytes */
  int64_t recvs_at_first_wait, call_ns;
  int rc;
} wjob;

static void *wjob_main(void *arg) {
  wjob *j = (wjob *)arg;
  wrapx wx;
  oc_transport tp;
  oc_comm *c = NULL;
  oc_reducer sum = oc_reducer_builtin(OC_OP_SUM);
  int32_t *in = (int32_t *)malloc((size_t)j->count * 4), *out = (int32_t *)malloc((size_t)j->count * 4);
  int64_t t0;
  int P, bad = 0;
  memset(&wx, 0, sizeof wx);
  j->rc = oc_threads_endpoint(j->w, j->rank, &wx.in);
  wx.recvs_at_first_wait = -1;
  tp = wx.in;
  tp.ctx = &wx;
  tp.isend = wx_isend;
  tp.irecv = wx_irecv;
  tp.wait = wx_wait;
  tp.cancel = wx_cancel;
  if (j->rc == OC_OK) j->rc = oc_comm_new(&c, &tp, j->prm);
  if (j->rc != OC_OK || in == NULL || out == NULL) {
    if (j->rc == OC_OK) j->rc = OC_ENOMEM;
    free(in);
    free(out);
    oc_comm_free(c);
    return NULL;
  }
  P = oc_comm_size(c);
  oc_comm_set_check(c, 0);
  if (j->pace >= 0) oc_comm_set_pacing(c, j->pace); /* -1: the environment's */
  oc_comm_set_segment(c, j->segment);
  for (int64_t i = 0; i < j->count; i++) in[i] = (int32_t)(i * 7 + j->rank);
  t0 = (int64_t)(oc_now_us() * 1000.0);
  if (j->kind == K_BCAST) {
    if (j->rank == 0) memcpy(out, in, (size_t)j->count * 4);
    j->rc = oc_coll_bcast(c, out, j->count, OC_INT32, 0);
    for (int64_t i = 0; i < j->count; i++) bad |= out[i] != (int32_t)(i * 7);
  } else {
    if (j->in_place && j->rank == 0) memcpy(out, in, (size_t)j->count * 4);
    j->rc = oc_coll_reduce(c, j->in_place && j->rank == 0 ? OC_IN_PLACE : in,
                           j->rank == 0 ? out : NULL, j->count, OC_INT32, &sum, 0);
    for (int64_t i = 0; j->rank == 0 && i < j->count; i++)
      bad |= out[i] != (int32_t)(i * 7 * P + P * (P - 1) / 2);
  }
  j->call_ns = (int64_t)(oc_now_us() * 1000.0) - t0;
  if (j->rc == OC_OK && bad) j->rc = WRONG;
  j->recvs_at_first_wait = wx.recvs_at_first_wait;
  oc_comm_free(c);
  free(in);
  free(out);
  return NULL;
}

/* P ranks of one kind on the wrapped transport; every rank's rc checked */
static void wjob_run(wjob *proto, int P, wjob *jobs) {
  pthread_t th[8];
  CHECK(P <= 8);
  CHECK_OK(oc_threads_new(&proto->w, P));
  for (int r = 0; r < P; r++) {
    jobs[r] = *proto;
    jobs[r].rank = r;
    CHECK(pthread_create(&th[r], NULL, wjob_main, &jobs[r]) == 0);
  }
  for (int r = 0; r < P; r++) CHECK(pthread_join(th[r], NULL) == 0);
  oc_threads_free(proto->w);
  for (int r = 0; r < P; r++) CHECK_OK(jobs[r].rc);
}

/* one row of parameters at every size: L, o_s = o_r = o and g (us) */
static void flat_params(oc_rtparams *p, double L, double o, double g) {
  memset(p, 0, sizeof *p);
  p->nrows = 2;
  p->bytes[0] = 8;
  p->bytes[1] = 1 << 20;
  for (int i = 0; i < 2; i++) {
    p->L[i] = L;
    p->os[i] = p->orv[i] = o;
    p->g[i] = g;
  }
}

/* Pacing: a rank's consecutive sends at least G = max(g, o_s) apart, so
 * the root of a broadcast (or a reducing child) that sends m segments is
 * busy at least (m - 1) G, whatever the machine's load (only a lower
 * bound is checked); results stay right. */
void test_rt_pacing(void) {
  oc_rtparams prm;
  wjob proto, jobs[3];
  const int64_t gap_ms = 15, m = 5;
  flat_params(&prm, 5, 1, (double)gap_ms * 1000);
  memset(&proto, 0, sizeof proto);
  proto.prm = &prm;
  proto.pace = 1;
  proto.count = 256 * m; /* m segments of 1 KiB */
  proto.segment = 1024;
  proto.kind = K_BCAST;
  wjob_run(&proto, 2, jobs);
  CHECK(jobs[0].call_ns >= (m - 1) * gap_ms * 1000000);
  proto.kind = K_REDUCE;
  wjob_run(&proto, 2, jobs);
  CHECK(jobs[1].call_ns >= (m - 1) * gap_ms * 1000000);
  /* from the environment (each test runs in its own process) */
  CHECK(setenv("OPTCAST_PACE", "1", 1) == 0);
  proto.pace = -1;
  proto.kind = K_BCAST;
  wjob_run(&proto, 2, jobs);
  CHECK(jobs[0].call_ns >= (m - 1) * gap_ms * 1000000);
  CHECK(unsetenv("OPTCAST_PACE") == 0);
  proto.kind = K_REDUCE;
  /* off: the same calls, still right (no claim on their time) */
  proto.pace = 0;
  wjob_run(&proto, 3, jobs);
  proto.kind = K_BCAST;
  wjob_run(&proto, 3, jobs);
}

/* Receives posted ahead: a reducing rank posts enough segments' receives
 * aside before it waits for the first to cover a message's latency at the
 * gap, 2 + (o_s + L + o_r) / g, at most 32 and m; 2 when the latency is
 * short.  The same whether the root reduces in place (its buffer holds its
 * data: every reception adds into it through a slot) or from its own send
 * buffer (each packet's first contribution straight into the result, its
 * own data added in after). */
void test_rt_recv_ahead(void) {
  oc_rtparams prm;
  wjob proto, jobs[2];
  memset(&proto, 0, sizeof proto);
  proto.prm = &prm;
  proto.kind = K_REDUCE;
  proto.count = 16 * 64; /* 64 segments of 64 bytes */
  proto.segment = 64;
  flat_params(&prm, 100, 0.5, 5);
  wjob_run(&proto, 2, jobs);
  CHECK_EQ(jobs[0].recvs_at_first_wait, 22);
  proto.in_place = 1;
  flat_params(&prm, 100, 0.5, 5); /* (0.5 + 100 + 0.5) / 5 = 20.2 */
  wjob_run(&proto, 2, jobs);
  CHECK_EQ(jobs[0].recvs_at_first_wait, 22);
  flat_params(&prm, 1000, 0.5, 5); /* capped */
  wjob_run(&proto, 2, jobs);
  CHECK_EQ(jobs[0].recvs_at_first_wait, 32);
  flat_params(&prm, 0.1, 0.05, 5); /* double buffered */
  wjob_run(&proto, 2, jobs);
  CHECK_EQ(jobs[0].recvs_at_first_wait, 2);
  proto.count = 16 * 3; /* 3 segments: all three */
  flat_params(&prm, 100, 0.5, 5);
  wjob_run(&proto, 2, jobs);
  CHECK_EQ(jobs[0].recvs_at_first_wait, 3);
}

/* ---- bad calls: an error, never a hang ---- */
typedef struct badjob {
  int mode;
} badjob;

static int bad_rank(oc_comm *c, void *arg) {
  const badjob *bj = (const badjob *)arg;
  int me = oc_comm_rank(c), P = oc_comm_size(c);
  int32_t buf[64] = {0};
  oc_reducer sum = oc_reducer_builtin(OC_OP_SUM);
  int e;
  switch (bj->mode) {
  case 0: return oc_coll_bcast(c, buf, -1, OC_INT32, 0);
  case 1: return oc_coll_bcast(c, buf, 4, OC_INT32, P);
  case 2: return oc_coll_reduce(c, buf, buf, 4, OC_INT32, &sum, -1);
  case 3: /* one rank passes another count */
    return oc_coll_bcast(c, buf, me == P - 1 ? 5 : 4, OC_INT32, 0);
  case 4: /* one rank passes another root */
    return oc_coll_bcast(c, buf, 4, OC_INT32, me == 1 ? 1 : 0);
  case 5: /* one rank skips the call (as if it died) */
    if (me == P - 1) return OC_OK;
    return oc_coll_allreduce(c, buf, buf + 32, 4, OC_INT32, &sum);
  case 6: /* reduce with mismatched counts */
    return oc_coll_reduce(c, buf, buf + 32, me == 0 ? 8 : 6, OC_INT32, &sum, 0);
  case 7: /* allgather with mismatched counts */
    return oc_coll_allgather(c, buf, buf + 8, me == 2 ? 2 : 1, OC_INT32);
  case 8: return oc_coll_bcast(c, NULL, 4, OC_INT32, 0);
  case 9: return oc_coll_reduce(c, buf, buf, 4, OC_BYTE, &sum, 0);
  case 13: /* counts whose bytes would not fit: refused before any buffer is touched */
    if (oc_coll_bcast(c, buf, (int64_t)1 << 61, OC_INT32, 0) != OC_ERANGE) return WRONG;
    if (oc_coll_allreduce(c, buf, buf, INT64_MAX, OC_INT64, &sum) != OC_ERANGE) return WRONG;
    if (oc_coll_scan(c, buf, buf, ((int64_t)1 << 60) / 4 + 1, OC_INT32, &sum) != OC_ERANGE) return WRONG;
    if (oc_coll_reduce(c, buf, buf, ((int64_t)1 << 60) / 8 + 1, OC_DOUBLE, &sum, 0) != OC_ERANGE) return WRONG;
    /* allgather: the receive buffer is P times the count */
    return oc_coll_allgather(c, buf, buf, ((int64_t)1 << 60) / 4 / P + 1, OC_INT32);
  case 10: /* another root, with the argument check on */
    oc_comm_set_check(c, 1);
    return oc_coll_bcast(c, buf, 4, OC_INT32, me == 1 ? 1 : 0);
  case 11: /* another operator, with the check on */
    oc_comm_set_check(c, 1);
    sum = oc_reducer_builtin(me == 3 ? OC_OP_MAX : OC_OP_SUM);
    return oc_coll_allreduce(c, buf, buf + 32, 4, OC_INT32, &sum);
  case 12: /* the check on, all agree: works */
    oc_comm_set_check(c, 1);
    buf[0] = me;
    if ((e = oc_coll_allreduce(c, buf, buf + 32, 1, OC_INT32, &sum)) != OC_OK) return e;
    return buf[32] == P * (P - 1) / 2 ? OC_OK : WRONG;
  default: return OC_EINVAL;
  }
}

void test_rt_bad_calls(void) {
  for (int mode = 0; mode <= 13; mode++) {
    badjob bj = {mode};
    int rcs[5], errs = 0, others = 0;
    int64_t t0 = mono_ms();
    CHECK_OK(oc_threads_run(5, NULL, 300, bad_rank, &bj, rcs));
    for (int r = 0; r < 5; r++) {
      if (rcs[r] == OC_EINVAL || rcs[r] == OC_EMISMATCH || rcs[r] == OC_ETIMEDOUT ||
          rcs[r] == OC_ERANGE)
        errs++;
      else if (rcs[r] != OC_OK) others++;
    }
    /* mode 4 (another root, no check) may pass unnoticed, as in MPI: it
     * must only end; every other bad call ends in an error somewhere */
    if ((errs == 0 && mode != 4 && mode != 12) || others != 0 || (mode == 12 && errs != 0))
      test_failf(__FILE__, __LINE__, "mode %d: %d errors, %d others (%d %d %d %d %d)", mode,
                 errs, others, rcs[0], rcs[1], rcs[2], rcs[3], rcs[4]);
    if (mode <= 2 || mode == 8 || mode == 9)
      for (int r = 0; r < 5; r++) CHECK_EQ(rcs[r], OC_EINVAL); /* caught locally */
    if (mode == 13)
      for (int r = 0; r < 5; r++) CHECK_EQ(rcs[r], OC_ERANGE); /* every edge refused */
    if (mode == 10 || mode == 11)
      for (int r = 0; r < 5; r++) CHECK_EQ(rcs[r], OC_EMISMATCH); /* all told */
    CHECK(mono_ms() - t0 < 10000); /* bounded by the 300 ms timeout per wait */
  }
}

/* ---- `optcast run` and `optcast measure` ---- */
static run_result RR;
#define RUNC(...)                                                              \
  do {                                                                         \
    const char *a_[] = {__VA_ARGS__, NULL};                                    \
    run_optcast(&RR, NULL, a_);                                                \
  } while (0)

static int nlines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

void test_cli_run(void) {
  char path[] = "/tmp/optcast_meas_XXXXXX";
  int fd = mkstemp(path), line;
  oc_rtparams p;
  CHECK(fd >= 0);
  close(fd);
  RUNC("run", "bcast", "--procs", "8");
  CHECK_EQ(RR.code, 0);
  CHECK(strstr(RR.out, "results: checked on every rank, ok") != NULL);
  CHECK(strstr(RR.out, "algorithm karp-pipeline") != NULL);
  RUNC("run", "allreduce", "--procs", "5", "--count", "3000", "--type", "double", "--op",
       "max", "--segment", "1024", "--iters", "3", "--json");
  CHECK_EQ(RR.code, 0);
  CHECK_EQ(nlines(RR.out), 1);
  CHECK(strstr(RR.out, "\"problem\":\"allreduce\"") != NULL);
  CHECK(strstr(RR.out, "\"P\":5,") != NULL);
  CHECK(strstr(RR.out, "\"wrong_results\":0,\"errors\":false") != NULL);
  CHECK(strstr(RR.out, "\"time\":") && strstr(RR.out, "\"lower_bound\":") &&
        strstr(RR.out, "\"optimal\":"));
  RUNC("run", "scan", "--procs", "33", "--count", "5", "--type", "uint16", "--op", "prod",
       "--check");
  CHECK_EQ(RR.code, 0);
  RUNC("run", "allreduce", "--procs", "6", "--count", "100", "--algorithm", "ring");
  CHECK_EQ(RR.code, 0);
  CHECK(strstr(RR.out, "algorithm ring") != NULL);
  RUNC("run", "scan", "--procs", "6", "--count", "100", "--algorithm", "chain", "--segment", "40");
  CHECK_EQ(RR.code, 0);
  CHECK(strstr(RR.out, "algorithm pipelined-chain, 10 segment(s) of 40 bytes") != NULL);
  RUNC("run", "reduce", "--procs", "5", "--count", "3000", "--algorithm", "two-tree",
       "--segment", "1000", "--root", "2");
  CHECK_EQ(RR.code, 0);
  CHECK(strstr(RR.out, "algorithm reversed two-tree, 12 segment(s) of 1000 bytes") != NULL);
  RUNC("run", "allreduce", "--procs", "5", "--count", "3000", "--algorithm", "rabenseifner");
  CHECK_EQ(RR.code, 0);
  CHECK(strstr(RR.out, "algorithm rabenseifner, 5 segment(s) of 2400 bytes") != NULL);
  RUNC("run", "reduce", "--procs", "3", "--op", "prod", "--type", "float", "--algorithm", "chain");
  CHECK_EQ(RR.code, 0); /* float products commute */
  RUNC("run", "sum", "--procs", "3", "--operands", "17", "--root", "2");
  CHECK_EQ(RR.code, 0);
  CHECK(strstr(RR.out, "17 operands") != NULL);
  RUNC("run", "allgather", "--procs", "16", "--size", "64", "--type", "byte");
  CHECK_EQ(RR.code, 0);
  RUNC("run", "reduce", "--procs", "1", "--count", "0");
  CHECK_EQ(RR.code, 0);
  /* measure: a table, a parameter file that reads back and drives run */
  RUNC("measure", "--sizes", "8,4096", "--reps", "2", "--out", path);
  CHECK_EQ(RR.code, 0);
  CHECK(strstr(RR.out, "o_s us") != NULL);
  CHECK_OK(oc_rtparams_read(path, &p, &line));
  CHECK_EQ(p.nrows, 2);
  CHECK_EQ(p.bytes[1], 4096);
  CHECK(strcmp(p.transport, "threads") == 0);
  RUNC("run", "reduce", "--procs", "4", "--params", path, "--root", "3");
  CHECK_EQ(RR.code, 0);
  /* plan --params: the model at --size bytes, in units of 10 ns */
  {
    FILE *f = fopen(path, "w");
    if (f == NULL) {
      CHECK(f != NULL);
    } else {
      fputs("transport test\n8 2.0 0.5 0.25 1.0\n1008 3.0 1.5 1.25 11.0\n", f);
      fclose(f);
    }
  }
  RUNC("plan", "bcast", "--procs", "8", "--params", path, "--size", "508", "--json");
  CHECK_EQ(RR.code, 0);
  /* halfway, rounded up; L + 2o = RTT/2 = L + g: 2.5 + 6 - 1.75 us */
  CHECK(strstr(RR.out, "\"L\":675,\"o\":88,\"g\":600") != NULL);
  RUNC("plan", "bcast", "--procs", "8", "--params", path, "--json");
  CHECK(strstr(RR.out, "\"L\":225,\"o\":38,\"g\":100") != NULL);
  RUNC("measure", "--sizes", "8", "--reps", "1", "--json");
  CHECK_EQ(RR.code, 0);
  CHECK_EQ(nlines(RR.out), 1);
  CHECK(strstr(RR.out, "\"combine_ns\":") != NULL);
  CHECK(strstr(RR.out, "\"rows\":[{\"bytes\":8,") != NULL);
  {
    const char *const bad[][12] = {
        {"run", NULL},
        {"run", "gather", "--procs", "4", NULL},
        {"run", "bcast", NULL},
        {"run", "bcast", "--procs", "0", NULL},
        {"run", "bcast", "--procs", "4", "--root", "4", NULL},
        {"run", "bcast", "--procs", "4", "--count", "-1", NULL},
        {"run", "bcast", "--procs", "4", "--type", "int128", NULL},
        {"run", "reduce", "--procs", "4", "--op", "avg", NULL},
        {"run", "reduce", "--procs", "4", "--op", "bxor", "--type", "double", NULL},
        {"run", "bcast", "--procs", "4", "--op", "sum", NULL},
        {"run", "bcast", "--procs", "4", "--size", "6", NULL},
        {"run", "bcast", "--procs", "4", "--size", "8", "--count", "2", NULL},
        {"run", "bcast", "--procs", "4", "--params", "/nonexistent/p", NULL},
        {"run", "bcast", "--procs", "4", "--transport", "mpi", NULL},
        {"run", "bcast", "--procs", "4", "--iters", "0", NULL},
        {"run", "bcast", "--procs", "4", "--bogus", "1", NULL},
        {"run", "bcast", "--procs", "4", "--operands", "3", NULL},
        {"run", "allgather", "--procs", "1024", "--count", "1000000", NULL},
        {"measure", "--procs", "1", NULL},
        {"measure", "--sizes", "64,8", NULL},
        {"measure", "--sizes", "", NULL},
        {"measure", "--reps", "x", NULL},
        {"measure", "--out", "/nonexistent/dir/p", "--sizes", "8", "--reps", "1", NULL},
        {"run", "bcast", "--procs", NULL},
        {"run", "bcast", "--procs", "4", "--algorithm", "ring", NULL},
        {"run", "scan", "--procs", "4", "--algorithm", "ring", NULL},
        {"plan", "bcast", "--procs", "4", "--params", "/nonexistent/p", NULL},
        {"plan", "bcast", "--procs", "4", "--params", path, "--gap", "3", NULL},
        {"plan", "bcast", "--procs", "4", "--params", path, "--preset", "cm5", NULL},
        {"plan", "bcast", "--procs", "4", "--params", path, "--size", "0", NULL},
        {"plan", "bcast", "--model", "postal", "--lambda", "2", "--procs", "4", "--params", path, NULL},
    };
    static const char *const name[] = {
        "run",      "gather",    "--procs",  "--procs",   "--root",      "--count",
        "--type",   "--op",      "--op",     "--op",      "--size",      "--count",
        "--params", "--transport", "--iters", "--bogus", "--operands", "--count",
        "--procs",  "--sizes",   "--sizes",  "--reps",    "--out",       "--procs",
        "--algorithm", "--algorithm",
        "--params", "--gap",     "--params", "--size",    "--params"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      run_optcast(&RR, NULL, bad[i]);
      if (RR.code != 2 || strstr(RR.err, name[i]) == NULL || RR.out[0] != '\0' ||
          nlines(RR.err) != 1)
        test_failf(__FILE__, __LINE__, "case %zu: code %d, err '%s', out '%.40s'", i,
                   RR.code, RR.err, RR.out);
    }
  }
  unlink(path);
}

/* The model's parameters in its integer units (oc_rtparams_model): o at
 * most g / 2 there too, for random measured rows and sizes between and
 * beyond them (rounded up apart, 2o passed g by a unit and the planner's
 * pipelines degenerated to store-and-forward); and on the row measured on
 * SMPI's Ethernet-like cluster at 8 KiB the planner's chain of 3 ranks and
 * 512 packets is priced as a pipeline - two hops and 511 gaps - not as the
 * stream twice (6384 us before). */
void test_rt_params_units(void) {
  for (int it = 0; it < 2000; it++) {
    char text[512];
    oc_rtparams prm;
    oc_params q;
    int line = 0;
    double L = (double)test_range(1, 50000) / 1000, g1 = (double)test_range(1, 5000) / 1000;
    double os = (double)test_range(1, 20000) / 1000, orv = (double)test_range(1, 20000) / 1000;
    int64_t b = test_range(1, 1 << 24);
    snprintf(text, sizeof text,
             "# optcast parameters v1\ntransport test\nprocs 2\n8 %.4f %.4f %.4f %.4f\n"
             "65536 %.4f %.4f %.4f %.4f\n",
             L, os, orv, g1, L, os * 3, orv, g1 * 90);
    CHECK_OK(oc_rtparams_parse(text, strlen(text), &prm, &line));
    CHECK_OK(oc_rtparams_model(&prm, b, 16, it % 2 ? 10.0 : 1.0, &q));
    CHECK(2 * q.o <= q.g);
    CHECK(q.L + 2 * q.o >= 1);
  }
  {
    static const char eth[] = "# optcast parameters v1\ntransport test\nprocs 2\n"
                              "8192 43.6565 0.0100 9.4140 6.1465\n";
    oc_rtparams prm;
    oc_params q;
    oc_mbcast_info b;
    int line = 0;
    int64_t t;
    CHECK_OK(oc_rtparams_parse(eth, sizeof eth - 1, &prm, &line));
    CHECK_OK(oc_rtparams_model(&prm, 8192, 3, 10.0, &q));
    CHECK_EQ(q.g, 615);
    CHECK_EQ(q.o, 307);
    memset(&b, 0, sizeof b);
    b.alg = OC_MB_CHAIN;
    b.seg = 1;
    CHECK_OK(oc_mbcast_run(&q, 0, 512, &b, NULL, &t));
    CHECK(t <= 2 * (q.L + 2 * q.o) + 511 * q.g + 2 * q.g);
  }
}
