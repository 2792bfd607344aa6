/* rt_xport.c - the executor's transport glue: sends, receives and waits
 * with the communicator's deadline and message counting, one exchange
 * (rt_xchg), scratch element buffers, the tags that keep calls apart, and
 * the argument agreement (rt_agree).
 *
 * Matching: each call takes the next sequence number of the communicator;
 * the tag mixes it with the call's kind, root, segment count and model
 * parameters, so ranks that disagree on any of them do not exchange
 * messages (they time out) and a message of the wrong size is caught
 * (OC_EMISMATCH). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/oc_core.h"
#include "optcast_rt.h"
#include "rt/rt_internal.h"

int64_t rt_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void rt_sleep_until(int64_t t) {
  int64_t d = t - rt_now_ns();
  if (d <= 0) return;
#ifndef SMPI_HELPERS_H /* smpicc's: a spin would never see simulated time pass */
  if (d < 100000) { /* a timer sleeps 50 us and more: spin */
    while (rt_now_ns() < t) {
    }
    return;
  }
#endif
  struct timespec ts = {(time_t)(d / 1000000000), (long)(d % 1000000000)};
  nanosleep(&ts, NULL);
}

int64_t rt_pace_gap(const oc_comm *c, int64_t bytes) {
  double os, g;
  if (!c->pace) return 0;
  oc_rtparams_at(&c->prm, bytes, NULL, &os, NULL, &g);
  /* where the send's own overhead is the gap or more, the sender's time
   * spaces its posts already; pacing would only read clocks (on SMPI each
   * reading costs simulated time: 255 sends of 8 B at 256 ranks, 4.5 us) */
  if (g <= os) return 0;
  return g > 0 && g < 1e9 ? (int64_t)(g * 1000.0) : 0;
}

static int64_t deadline(const oc_comm *c) {
#ifdef SMPI_HELPERS_H
  /* smpicc: the MPI transport's wait blocks in MPI_Wait and SMPI itself
   * reports a deadlock, and every clock reading costs simulated time (0.01
   * us: a rank waiting for 63 messages paid 0.6 us for its deadlines) */
  (void)c;
  return -1;
#else
  return c->timeout_ms == 0 ? -1 : rt_now_ns() + c->timeout_ms * 1000000;
#endif
}

int rt_xsend(oc_comm *c, const void *buf, int64_t n, const oc_elem *el,
                 int peer, int tag, oc_req *r) {
  c->last.sends++;
  return c->tp.isend(c->tp.ctx, buf, n, el, peer, tag, r);
}

int rt_xrecv(oc_comm *c, void *buf, int64_t n, const oc_elem *el, int peer,
                 int tag, oc_req *r) {
  c->last.recvs++;
  return c->tp.irecv(c->tp.ctx, buf, n, el, peer, tag, r);
}

/* wait for r; expect >= 0: a receive of exactly that many elements */
int rt_xwait(oc_comm *c, oc_req *r, int64_t expect) {
  int64_t got = -1;
  int e = c->tp.wait(c->tp.ctx, r, deadline(c), &got);
  if (e == OC_ETIMEDOUT && c->tp.cancel != NULL) c->tp.cancel(c->tp.ctx, r);
  if (e == OC_OK && expect >= 0 && got != expect) e = OC_EMISMATCH;
  return e;
}

/* abandon receives after an error (cancelled); callers wait for their
 * sends themselves (MPI cannot cancel a send), with the deadline */
void rt_drain(oc_comm *c, oc_req *r, int64_t n, const unsigned char *live) {
  for (int64_t i = 0; i < n; i++)
    if (live == NULL || live[i]) {
      if (c->tp.cancel != NULL) c->tp.cancel(c->tp.ctx, &r[i]);
    }
}

/* the receive posted first, then the send; both waited for */
int rt_xchg(oc_comm *c, const void *out, int64_t nout, int to, void *in, int64_t nin,
            int from, const oc_elem *el, int tag) {
  return rt_xchg_copy(c, out, nout, to, in, nin, from, el, tag, NULL, NULL, 0);
}

int rt_xchg_copy(oc_comm *c, const void *out, int64_t nout, int to, void *in, int64_t nin,
                 int from, const oc_elem *el, int tag, void *dst, const void *src,
                 int64_t ncopy) {
  oc_req sq, rq;
  int e = OC_OK, e2;
  if (from >= 0 && (e = rt_xrecv(c, in, nin, el, from, tag, &rq)) != OC_OK) return e;
  if (to >= 0 && (e = rt_xsend(c, out, nout, el, to, tag, &sq)) != OC_OK) {
    if (from >= 0) rt_drain(c, &rq, 1, NULL);
    return e;
  }
  if (dst != NULL) rt_copy_elems(dst, src, ncopy, el); /* while the messages travel */
  if (from >= 0) e = rt_xwait(c, &rq, nin);
  if (to >= 0) {
    e2 = rt_xwait(c, &sq, -1);
    if (e == OC_OK) e = e2;
  }
  return e;
}

/* a buffer of n >= 1 elements laid out like the caller's */
char *rt_tmp_alloc(const oc_elem *el, int64_t n, void **raw) {
  size_t bytes;
  *raw = NULL;
  if (n < 1) n = 1;
  if ((uint64_t)(n - 1) > (SIZE_MAX - el->true_extent) / (el->extent ? el->extent : 1))
    return NULL;
  bytes = (size_t)(n - 1) * el->extent + el->true_extent;
  *raw = malloc(bytes ? bytes : 1);
  if (*raw == NULL) return NULL;
  return (char *)*raw - el->true_lb;
}

void rt_copy_elems(void *dst, const void *src, int64_t n, const oc_elem *el) {
  if (n <= 0 || dst == src) return;
  if (el->copy != NULL) {
    (void)el->copy(el, dst, src, n); /* cannot fail once the type was accepted */
    return;
  }
  memcpy((char *)dst + el->true_lb, (const char *)src + el->true_lb,
         (size_t)(n - 1) * el->extent + el->true_extent);
}

/* ---- tags ---------------------------------------------------------------------- */

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

/* The next call's tag: 10 bits of sequence number, the rest a signature. */
/* the tags used: the largest power of two <= tag_max + 1 (>= 2^15), so the
 * low 10 bits are the sequence number exactly */
static uint64_t tag_mask(const oc_comm *c) {
  uint64_t x = (uint64_t)c->tp.tag_max + 1; /* >= 2^15; its bits smeared right */
  x |= x >> 1;
  x |= x >> 2;
  x |= x >> 4;
  x |= x >> 8;
  x |= x >> 16;
  x |= x >> 32;
  return (x - (x >> 1)) - 1; /* (its highest bit) - 1 */
}

int rt_next_tag(oc_comm *c, int kind, int root, int64_t m, const oc_params *p) {
  uint64_t h = mix(mix(mix(0, (uint64_t)kind), (uint64_t)root), (uint64_t)m);
  if (p != NULL) h = mix(mix(mix(h, (uint64_t)p->L), (uint64_t)p->o), (uint64_t)p->g);
  c->seq++;
  return (int)(((h << 10) | (c->seq & 1023)) & tag_mask(c));
}

/* ---- argument check -------------------------------------------------------------
 * Dissemination (Hensgen, Finkel & Manber): in round d every rank sends its
 * running (min, max) of the signatures to r + 2^d and folds in the one from
 * r - 2^d (mod P); after ceil(log2 P) rounds every rank holds the global
 * min and max, equal exactly when all signatures are. */
int rt_agree(oc_comm *c, int kind, int root, int64_t count, const oc_elem *el) {
  uint64_t mine[2], in[2], sig;
  oc_elem byte;
  int P = c->tp.size, me = c->tp.rank, tag, e = OC_OK;
  if (!c->check) return OC_OK;
  sig = mix(mix(mix(mix(0, (uint64_t)kind), (uint64_t)root), (uint64_t)count),
            el != NULL ? (uint64_t)el->extent : 0);
  if (el != NULL && el->combine != NULL)
    sig = mix(mix(sig, (uint64_t)el->commutative + 2),
              el->handle == NULL ? (uint64_t)el->op.kind + 1 : 0);
  memset(&byte, 0, sizeof byte);
  byte.extent = 1;
  byte.true_extent = 1;
  byte.handle = c->tp.byte_handle;
  c->seq++;
  tag = (int)(c->seq & 1023); /* < 2^15 <= tag_max + 1 */
  mine[0] = mine[1] = sig;
  for (int64_t d = 1; d < P && e == OC_OK; d *= 2) {
    uint64_t out[2] = {mine[0], mine[1]};
    e = rt_xchg(c, out, 16, (int)((me + d) % P), in, 16, (int)((me - d % P + P) % P), &byte,
                tag);
    if (e == OC_OK) {
      if (in[0] < mine[0]) mine[0] = in[0];
      if (in[1] > mine[1]) mine[1] = in[1];
    }
  }
  if (e == OC_OK && mine[0] != mine[1]) e = OC_EMISMATCH;
  c->last.sends = c->last.recvs = 0; /* count the collective's own messages */
  return e;
}
