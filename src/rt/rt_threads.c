/* rt_threads.c - the threads transport: P ranks as threads of one process.
 *
 * Each rank has a mailbox (mutex, condition variable on CLOCK_MONOTONIC)
 * holding the receives it has posted and the messages that arrived before
 * a matching receive ("unexpected", copied into a heap buffer).  A send
 * locks the destination's mailbox and either copies straight into the
 * first matching posted receive or queues a copy; either way the send is
 * complete when isend returns (buffered, like MPI_Bsend).  Matching is by
 * (source, tag) in arrival order, so messages between two ranks with one
 * tag never overtake each other (MPI's rule).  A receive whose message is
 * larger than its buffer completes with OC_EMISMATCH.  Elements are moved
 * as extent bytes each: the threads transport needs contiguous elements
 * (every built-in type). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "optcast_rt.h"

typedef struct msg {
  struct msg *next;
  int src, tag;
  size_t bytes;
  unsigned char data[];
} msg;

typedef struct precv { /* a posted receive */
  struct precv *next;
  int src, tag;
  void *buf;
  size_t cap, got;
  int done, err;
} precv;

typedef struct mailbox {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  msg *uhead, **utail; /* unexpected messages, FIFO */
  precv *phead, **ptail; /* posted receives, FIFO */
} mailbox;

typedef struct endpoint {
  struct oc_threads *w;
  int rank;
} endpoint;

struct oc_threads {
  int P;
  mailbox *mb;
  endpoint *eps; /* one per rank: the transports' contexts */
};

/* request layout in oc_req.opaque: [0] kind (1 send, 2 recv), [1] precv* */
enum { REQ_SEND = 1, REQ_RECV = 2 };

int oc_threads_new(oc_threads **out, int P) {
  oc_threads *w;
  pthread_condattr_t ca;
  int i;
  *out = NULL;
  if (P < 1) return OC_EINVAL;
  w = (oc_threads *)calloc(1, sizeof *w);
  if (w == NULL) return OC_ENOMEM;
  w->mb = (mailbox *)calloc((size_t)P, sizeof *w->mb);
  w->eps = (endpoint *)calloc((size_t)P, sizeof *w->eps);
  if (w->mb == NULL || w->eps == NULL) {
    free(w->mb);
    free(w->eps);
    free(w);
    return OC_ENOMEM;
  }
  if (pthread_condattr_init(&ca) != 0) {
    free(w->mb);
    free(w->eps);
    free(w);
    return OC_ETRANSPORT;
  }
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  for (i = 0; i < P; i++) {
    mailbox *m = &w->mb[i];
    if (pthread_mutex_init(&m->mu, NULL) != 0) break;
    if (pthread_cond_init(&m->cv, &ca) != 0) {
      pthread_mutex_destroy(&m->mu);
      break;
    }
    m->utail = &m->uhead;
    m->ptail = &m->phead;
    w->eps[i].w = w;
    w->eps[i].rank = i;
  }
  pthread_condattr_destroy(&ca);
  w->P = i;
  if (i < P) {
    oc_threads_free(w);
    return OC_ETRANSPORT;
  }
  *out = w;
  return OC_OK;
}

void oc_threads_free(oc_threads *w) {
  if (w == NULL) return;
  for (int i = 0; i < w->P; i++) {
    mailbox *m = &w->mb[i];
    msg *u = m->uhead;
    precv *p = m->phead;
    while (u != NULL) {
      msg *nx = u->next;
      free(u);
      u = nx;
    }
    while (p != NULL) { /* receives abandoned without cancel */
      precv *nx = p->next;
      free(p);
      p = nx;
    }
    pthread_cond_destroy(&m->cv);
    pthread_mutex_destroy(&m->mu);
  }
  free(w->mb);
  free(w->eps);
  free(w);
}

static void deliver(precv *p, const void *data, size_t bytes) {
  if (bytes > p->cap) {
    p->err = OC_EMISMATCH;
    p->got = bytes;
  } else {
    if (bytes > 0) memcpy(p->buf, data, bytes);
    p->got = bytes;
  }
  p->done = 1;
}

static int th_isend(void *ctx, const void *buf, int64_t n, const oc_elem *el,
                    int peer, int tag, oc_req *r) {
  endpoint *ep = (endpoint *)ctx;
  mailbox *m;
  precv **pp;
  size_t bytes;
  if (peer < 0 || peer >= ep->w->P || n < 0) return OC_EINVAL;
  if ((uint64_t)n > SIZE_MAX / (el->extent ? el->extent : 1)) return OC_ERANGE;
  bytes = (size_t)n * el->extent;
  m = &ep->w->mb[peer];
  memset(r, 0, sizeof *r);
  r->opaque[0] = REQ_SEND;
  pthread_mutex_lock(&m->mu);
  for (pp = &m->phead; *pp != NULL; pp = &(*pp)->next) {
    precv *p = *pp;
    if (p->src == ep->rank && p->tag == tag) {
      *pp = p->next;
      if (*pp == NULL) m->ptail = pp;
      p->next = NULL;
      deliver(p, buf, bytes);
      pthread_cond_broadcast(&m->cv);
      pthread_mutex_unlock(&m->mu);
      return OC_OK;
    }
  }
  {
    msg *u = (msg *)malloc(sizeof *u + bytes);
    if (u == NULL) {
      pthread_mutex_unlock(&m->mu);
      return OC_ENOMEM;
    }
    u->next = NULL;
    u->src = ep->rank;
    u->tag = tag;
    u->bytes = bytes;
    if (bytes > 0) memcpy(u->data, buf, bytes);
    *m->utail = u;
    m->utail = &u->next;
  }
  pthread_mutex_unlock(&m->mu);
  return OC_OK;
}

static int th_irecv(void *ctx, void *buf, int64_t n, const oc_elem *el,
                    int peer, int tag, oc_req *r) {
  endpoint *ep = (endpoint *)ctx;
  mailbox *m = &ep->w->mb[ep->rank];
  msg **up;
  precv *p;
  if (peer < 0 || peer >= ep->w->P || n < 0) return OC_EINVAL;
  if ((uint64_t)n > SIZE_MAX / (el->extent ? el->extent : 1)) return OC_ERANGE;
  p = (precv *)calloc(1, sizeof *p);
  if (p == NULL) return OC_ENOMEM;
  p->src = peer;
  p->tag = tag;
  p->buf = buf;
  p->cap = (size_t)n * el->extent;
  memset(r, 0, sizeof *r);
  r->opaque[0] = REQ_RECV;
  r->opaque[1] = (uint64_t)(uintptr_t)p;
  r->opaque[2] = el->extent;
  pthread_mutex_lock(&m->mu);
  for (up = &m->uhead; *up != NULL; up = &(*up)->next) {
    msg *u = *up;
    if (u->src == peer && u->tag == tag) {
      *up = u->next;
      if (*up == NULL) m->utail = up;
      deliver(p, u->data, u->bytes);
      pthread_mutex_unlock(&m->mu);
      free(u);
      return OC_OK;
    }
  }
  *m->ptail = p;
  m->ptail = &p->next;
  pthread_mutex_unlock(&m->mu);
  return OC_OK;
}

static int th_wait(void *ctx, oc_req *r, int64_t deadline_ns, int64_t *got) {
  endpoint *ep = (endpoint *)ctx;
  mailbox *m = &ep->w->mb[ep->rank];
  precv *p;
  int e = OC_OK;
  size_t ext;
  if (r->opaque[0] == REQ_SEND) {
    if (got != NULL) *got = 0;
    r->opaque[0] = 0;
    return OC_OK;
  }
  if (r->opaque[0] != REQ_RECV) return OC_EINVAL;
  p = (precv *)(uintptr_t)r->opaque[1];
  ext = (size_t)r->opaque[2];
  pthread_mutex_lock(&m->mu);
  while (!p->done) {
    if (deadline_ns < 0) {
      pthread_cond_wait(&m->cv, &m->mu);
    } else {
      struct timespec ts;
      ts.tv_sec = (time_t)(deadline_ns / 1000000000);
      ts.tv_nsec = (long)(deadline_ns % 1000000000);
      if (pthread_cond_timedwait(&m->cv, &m->mu, &ts) == ETIMEDOUT && !p->done) {
        e = OC_ETIMEDOUT;
        break;
      }
    }
  }
  pthread_mutex_unlock(&m->mu);
  if (e) return e; /* still posted: the caller cancels it */
  if (got != NULL) *got = ext ? (int64_t)(p->got / ext) : 0;
  if (ext && p->got % ext != 0) e = OC_EMISMATCH;
  if (p->err) e = p->err;
  free(p);
  r->opaque[0] = 0;
  return e;
}

static void th_cancel(void *ctx, oc_req *r) {
  endpoint *ep = (endpoint *)ctx;
  mailbox *m = &ep->w->mb[ep->rank];
  precv **pp, *p;
  if (r->opaque[0] != REQ_RECV) {
    r->opaque[0] = 0;
    return;
  }
  p = (precv *)(uintptr_t)r->opaque[1];
  pthread_mutex_lock(&m->mu);
  for (pp = &m->phead; *pp != NULL; pp = &(*pp)->next)
    if (*pp == p) {
      *pp = p->next;
      if (*pp == NULL) m->ptail = pp;
      break;
    }
  pthread_mutex_unlock(&m->mu);
  free(p); /* matched or not, it is off the list now */
  r->opaque[0] = 0;
}

int oc_threads_endpoint(oc_threads *w, int rank, oc_transport *out) {
  if (w == NULL || out == NULL || rank < 0 || rank >= w->P) return OC_EINVAL;
  memset(out, 0, sizeof *out);
  out->ctx = &w->eps[rank];
  out->rank = rank;
  out->size = w->P;
  out->tag_max = 0x7fffffff;
  out->isend = th_isend;
  out->irecv = th_irecv;
  out->wait = th_wait;
  out->cancel = th_cancel;
  return OC_OK;
}
