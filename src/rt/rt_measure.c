/* rt_measure.c - measuring the PLogP parameters of a transport.
 *
 * Method (Kielmann, Bal & Verstoep, "Fast measurement of LogP parameters
 * for message passing platforms", IPDPS 2000 workshops; the same
 * quantities netgauge reports): between ranks 0 and 1, for each message
 * size m,
 *   RTT(m)  ping-pong round trip, m bytes each way, median of reps;
 *   o_s(m)  time rank 0 spends in a send call (isend + wait), rank 1's
 *           receive already posted;
 *   o_r(m)  time rank 1 spends completing a message that has already
 *           arrived: it posts the receive, waits longer than RTT(m), then
 *           times the wait (posted first: on SimGrid's SMPI, and under
 *           MPI's rendezvous protocol, a message travels only once its
 *           receive is posted, and a receive posted late would time the
 *           transfer);
 *   g(m)    the period of a saturated stream: rank 0 sends N messages
 *           back to back (rank 1's receives posted ahead: recv_stream)
 *           and rank 1 acknowledges the last one; g(m) =
 *           (time - RTT(0)) / N, the inverse of the message rate;
 *   L(m)    = RTT(m) / 2 - g(m), clipped at 0 for the first (smallest)
 *           size m0 and at L(m0) for the others (PLogP: RTT(m) = 2 (L +
 *           g(m)) with L independent of m; on SimGrid's SMPI the latency
 *           grows by pieces with the size, a message of 16 KiB taking 12 us
 *           one way on a cluster whose L(8 B) is 6 us, and the pipelines'
 *           model needs that);
 *   combine_ns  rank 0's cost of combining a byte (a sum of doubles in a
 *           warm buffer of up to 1 MiB), the runtime's a per byte.
 * Every figure is the median over the repetitions.  Other ranks take part
 * only in the final broadcast of the table.  Parameters are in
 * microseconds, ready for oc_rtparams_write.  All pairs of ranks (0,1),
 * (2,3), ... measure at once and pair (0,1)'s figures are kept: run it on
 * as many ranks, placed as the collectives will be, to measure the machine
 * under the load of a collective (with more ranks than cores, o and g grow
 * accordingly). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/oc_core.h"
#include "optcast_rt.h"
#include "rt/rt_internal.h"

double oc_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void sleep_us(double us) {
  struct timespec ts;
  if (us <= 0) return;
  ts.tv_sec = (time_t)(us / 1e6);
  ts.tv_nsec = (long)((us - (double)ts.tv_sec * 1e6) * 1e3);
  nanosleep(&ts, NULL);
}

static int dcmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double oc_median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, dcmp);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

typedef struct mctx {
  oc_comm *c;
  oc_elem byte;
  int tag;
} mctx;

static int msend(mctx *x, const void *buf, int64_t n, int peer) {
  oc_req r;
  int e = rt_xsend(x->c, buf, n, &x->byte, peer, x->tag, &r);
  return e ? e : rt_xwait(x->c, &r, -1);
}

static int mrecv(mctx *x, void *buf, int64_t n, int peer) {
  oc_req r;
  int e = rt_xrecv(x->c, buf, n, &x->byte, peer, x->tag, &r);
  return e ? e : rt_xwait(x->c, &r, n);
}

#define STREAM 32
#define STREAM_BYTES ((int64_t)8 << 20) /* the stream's receive buffers, at most */

/* Rank 1's side of the stream: its STREAM receives posted ahead, a window
 * of w = STREAM_BYTES / m of them (1 .. STREAM) at a time, each into its
 * own slot, reposted as they complete.  A receive posted only after the
 * previous one completed would put a delay between messages that is not
 * the sender's gap: on SimGrid's SMPI a message starts to travel only once
 * its receive is posted (a late receive takes a whole latency), as MPI's
 * rendezvous protocol does for long messages on real networks. */
static int recv_stream(mctx *x, int64_t m, int peer) {
  int64_t w = oc_max64(1, oc_min64(STREAM, STREAM_BYTES / m));
  oc_req r[STREAM];
  unsigned char live[STREAM];
  char *b = (char *)malloc((size_t)(w * m));
  int64_t posted = 0, done = 0;
  int e = OC_OK;
  if (b == NULL) return OC_ENOMEM;
  memset(live, 0, sizeof live);
  while (done < STREAM && e == OC_OK) {
    for (; posted < STREAM && posted - done < w && e == OC_OK; posted++) {
      e = rt_xrecv(x->c, b + (size_t)((posted % w) * m), m, &x->byte, peer, x->tag,
                   &r[posted % w]);
      live[posted % w] = e == OC_OK;
    }
    if (e == OC_OK) {
      live[done % w] = 0;
      e = rt_xwait(x->c, &r[done % w], m);
      done++;
    }
  }
  rt_drain(x->c, r, w, live); /* (after an error: the receives still posted) */
  free(b);
  return e;
}

/* one size on ranks 0 and 1: rtt, os, or, g (us) */
static int measure_size(mctx *x, char *buf, int64_t m, int reps, double rtt0,
                        double out[4]) {
  int me = x->c->tp.rank % 2, peer = x->c->tp.rank ^ 1, e = OC_OK; /* me: role in the pair */
  double *v = (double *)malloc((size_t)reps * 4 * sizeof *v);
  double *rtt, *os, *orv, *g;
  char ack = 0;
  if (v == NULL) return OC_ENOMEM;
  rtt = v;
  os = v + reps;
  orv = v + 2 * reps;
  g = v + 3 * reps;
  /* warm-up round trip */
  if (me == 0) {
    e = msend(x, buf, m, peer);
    if (e == OC_OK) e = mrecv(x, buf, m, peer);
  } else {
    e = mrecv(x, buf, m, peer);
    if (e == OC_OK) e = msend(x, buf, m, peer);
  }
  for (int i = 0; i < reps && e == OC_OK; i++) {
    double t0 = oc_now_us(), t1;
    if (me == 0) { /* ping-pong */
      e = msend(x, buf, m, peer);
      if (e == OC_OK) e = mrecv(x, buf, m, peer);
      rtt[i] = oc_now_us() - t0;
    } else {
      e = mrecv(x, buf, m, peer);
      if (e == OC_OK) e = msend(x, buf, m, peer);
    }
    if (e) break;
    /* o_s at 0, the receive already posted at 1 (rank 0 waits first) */
    if (me == 0) {
      sleep_us(rtt0 * 4 + 20);
      t0 = oc_now_us();
      e = msend(x, buf, m, peer);
      os[i] = oc_now_us() - t0;
    } else {
      e = mrecv(x, buf, m, peer);
    }
    if (e) break;
    /* o_r at 1, receiving a message sent a while ago (for a message
     * larger than MPI's eager limit this includes the transfer) */
    if (me == 0) {
      e = msend(x, buf, m, peer);
      if (e == OC_OK) e = mrecv(x, &ack, 1, peer);
    } else { /* (posted first: see o_r at the top) */
      oc_req rq;
      e = rt_xrecv(x->c, buf, m, &x->byte, peer, x->tag, &rq);
      if (e == OC_OK) {
        sleep_us(rtt0 * 4 + 20 + (double)m / 500.0);
        t0 = oc_now_us();
        e = rt_xwait(x->c, &rq, m);
        t1 = oc_now_us();
        orv[i] = t1 - t0;
      }
      if (e == OC_OK) e = msend(x, &ack, 1, peer);
    }
    /* saturated stream of STREAM messages, one acknowledgement */
    if (me == 0) {
      t0 = oc_now_us();
      for (int k = 0; k < STREAM && e == OC_OK; k++) e = msend(x, buf, m, peer);
      if (e == OC_OK) e = mrecv(x, &ack, 1, peer);
      g[i] = (oc_now_us() - t0 - rtt0) / STREAM;
      if (g[i] < 0.001) g[i] = 0.001;
    } else {
      e = recv_stream(x, m, peer);
      if (e == OC_OK) e = msend(x, &ack, 1, peer);
    }
  }
  if (e == OC_OK) {
    out[0] = me == 0 ? oc_median(rtt, reps) : 0;
    out[1] = me == 0 ? oc_median(os, reps) : 0;
    out[2] = me == 1 ? oc_median(orv, reps) : 0;
    out[3] = me == 0 ? oc_median(g, reps) : 0;
  }
  free(v);
  return e;
}

/* A combination's cost per byte (ns): the median of up to 101 sums of
 * doubles over min(largest size, 1 MiB) bytes, at least 4 KiB, the
 * buffers warm (the runtime's reductions combine segments as they arrive);
 * 0 when out of memory */
static double measure_combine(int64_t maxm, int reps) {
  int64_t n = oc_min64(oc_max64(maxm, 4096), (int64_t)1 << 20) / 8;
  int k = reps < 5 ? 5 : reps > 101 ? 101 : reps;
  double *x = (double *)calloc((size_t)n, sizeof *x), *y = (double *)calloc((size_t)n, sizeof *y);
  double *v = (double *)malloc((size_t)k * sizeof *v), r = 0;
  oc_reducer sum = oc_reducer_builtin(OC_OP_SUM);
  if (x != NULL && y != NULL && v != NULL) {
    (void)oc_reducer_apply(&sum, OC_DOUBLE, x, y, n); /* warm */
    for (int i = 0; i < k; i++) {
      double t0 = oc_now_us();
      (void)oc_reducer_apply(&sum, OC_DOUBLE, x, y, n);
      v[i] = oc_now_us() - t0;
    }
    r = oc_median(v, k) * 1000.0 / (double)(n * 8);
  }
  free(x);
  free(y);
  free(v);
  return r;
}

int oc_measure(oc_comm *c, const int64_t *sizes, int nsizes, int reps,
               oc_rtparams *out, oc_measure_progress *progress, void *arg) {
  mctx x;
  char *buf = NULL;
  int64_t maxm = 1;
  double rtt0 = 1, res[4], orr;
  int me, e = OC_OK;
  if (c == NULL || out == NULL || sizes == NULL || nsizes < 1 ||
      nsizes > OC_RTPARAMS_ROWS_MAX || reps < 1 || reps > 100000)
    return OC_EINVAL;
  if (c->tp.size < 2) return OC_EINVAL;
  for (int i = 0; i < nsizes; i++) {
    if (sizes[i] < 1 || sizes[i] > ((int64_t)1 << 30) || (i > 0 && sizes[i] <= sizes[i - 1]))
      return OC_EINVAL;
    maxm = oc_max64(maxm, sizes[i]);
  }
  memset(out, 0, sizeof *out);
  me = c->tp.rank;
  memset(&x, 0, sizeof x);
  x.c = c;
  x.byte.extent = 1;
  x.byte.true_extent = 1;
  x.byte.handle = c->tp.byte_handle;
  c->seq++;
  x.tag = (int)(c->seq & 1023); /* < 2^15 <= tag_max + 1 */
  /* every pair (2i, 2i+1) measures at the same time, so the figures carry
   * the load of a full machine (cores and memory shared as in a collective
   * on all ranks); pair 0's are reported.  A last odd rank only waits. */
  if (me < c->tp.size - c->tp.size % 2) {
    buf = (char *)calloc((size_t)maxm, 1);
    if (buf == NULL) e = OC_ENOMEM;
    if (e == OC_OK) e = measure_size(&x, buf ? buf : (char *)&rtt0, 1, reps, 1, res);
    if (e == OC_OK && me % 2 == 0) rtt0 = res[0];
    for (int i = 0; i < nsizes && e == OC_OK; i++) {
      e = measure_size(&x, buf, sizes[i], reps, rtt0, res);
      if (e) break;
      /* o_r was measured at rank 1: send it over */
      if (me % 2 == 1) e = msend(&x, &res[2], (int64_t)sizeof res[2], me - 1);
      else {
        e = mrecv(&x, &orr, (int64_t)sizeof orr, me + 1);
        out->bytes[i] = sizes[i];
        out->g[i] = res[3];
        out->os[i] = res[1];
        out->orv[i] = orr;
        /* L(m) = RTT(m)/2 - g(m), at least L(m0) */
        out->L[i] = res[0] / 2 - res[3] > 0 ? res[0] / 2 - res[3] : 0;
        if (i > 0 && out->L[i] < out->L[0]) out->L[i] = out->L[0];
        if (progress != NULL && me == 0) progress(i + 1, nsizes, sizes[i], arg);
      }
    }
  }
  free(buf);
  out->nrows = nsizes;
  out->procs = c->tp.size;
  if (e == OC_OK && me == 0) out->combine_ns = measure_combine(maxm, reps);
  /* every rank gets rank 0's table (a broadcast of the whole struct) */
  {
    oc_elem byte = x.byte;
    int e2 = oc_exec_bcast(c, out, (int64_t)sizeof *out, &byte, 0);
    if (e == OC_OK) e = e2;
  }
  return e;
}
