/* oc_verify_oview.c - a set of per-rank views (oc_mb_rank, one per rank)
 * run together symbolically, with the order of the operands kept: the
 * check behind the order-keeping patterns (oc_oview_rank) and any other
 * view set that must hold for an operator that is not commutative.
 *
 * Every rank starts with its own contribution x_q to each of the m
 * packets; its value of a packet is always a run x_a op ... op x_b of
 * consecutive ranks, kept as the pair (a, b).  The ranks run their steps
 * in order: a send puts the packets' current runs into the channel to its
 * peer (first in, first out per ordered pair of ranks, as MPI matches
 * messages of one tag); a reception takes the oldest message from its
 * peer, which must carry the packets and the kind (copy or add) the step
 * names, and replaces the rank's runs (copy) or joins them on the step's
 * side: in front (side 0) the message's run must end just before the
 * rank's, behind (side 1) start just after it.  A rank waits at a
 * reception whose message has not been sent; the set is run until no rank
 * can move.
 *
 * Rules: RANGE (a step's peer, packets or kind out of range, a send of an
 * older value (hist >= 0: not handled here), a message unlike the
 * reception that takes it), FOLD (runs that do not join), MISSING (a rank
 * left waiting for a message never sent: a deadlock), RESULT (a message
 * never received; the wanted ranks not ending with the wanted runs: the
 * root (root >= 0) or every rank (OC_OVIEWS_ALL) x_0 .. x_{P-1}, or rank
 * q x_0 .. x_q (OC_OVIEWS_SCAN)).  OC_OVIEWS_GATHER checks an allgather:
 * rank q starts with its own packets only (packet j the run j .. j, the
 * rest NONE), every step copies, sending a packet not held is HELD, and
 * every rank must end with every packet j as j .. j.  v->time: the longest chain of messages
 * (each counted 1) before a wanted rank's last reception - rounds, not
 * LogP time.  Work O(P m + steps); P m <= 2^26.
 *
 * oc_verify_oviews_held starts rank q from a run of operands of its own,
 * first[q] .. first[q] + held[q] - 1 (the distributed sum's views,
 * oc_sum_rank), the runs tiling 0 .. n - 1 (O(P log P) to check). */
#include <stdlib.h>
#include <string.h>

#include "optcast.h"
#include "verify/oc_verify_int.h"

typedef struct ovmsg {
  int64_t src, dst, item, len, stamp, voff, next;
  int copy;
} ovmsg;

typedef struct ovrun {
  int64_t P, m;
  const oc_mb_rank *views;
  int64_t *lo, *hi;        /* per rank and packet: the run held          */
  int64_t *vlo, *vhi;      /* the messages' runs, voff.. per message     */
  ovmsg *msg;
  int64_t nmsg, nval;
  int64_t *key, *head, *tail; /* channels: hash of (src, dst) -> queue   */
  int64_t hcap;
  size_t *pc;
  int64_t *clock;
  unsigned char *waiting, *queued;
  int64_t *stack, nstack;
  int gather; /* OC_OVIEWS_GATHER: copies of the ranks' own packets */
  oc_verdict *v;
} ovrun;

/* rank q's first run: first[q] .. first[q] + held[q] - 1, or none (held 0:
 * NONE, which joins nothing and is no result) */
#define NONE (-2)

static void ov_bad(ovrun *r, oc_rule rule, int64_t q, int64_t item, const char *fmt, int64_t a,
                   int64_t b, int64_t c) {
  char d[200];
  snprintf(d, sizeof d, fmt, (long long)a, (long long)b, (long long)c);
  oc_verdict_violate(r->v, rule, q, r->clock[q], item, (size_t)-1, d);
}

/* the channel src -> dst: its slot in the table (created when new) */
static int64_t ov_chan(ovrun *r, int64_t src, int64_t dst) {
  uint64_t k = (uint64_t)src * (uint64_t)r->P + (uint64_t)dst;
  uint64_t h = (k * 0x9E3779B97F4A7C15ULL) >> 7;
  for (int64_t i = (int64_t)(h & (uint64_t)(r->hcap - 1));; i = (i + 1) & (r->hcap - 1)) {
    if (r->key[i] == (int64_t)k) return i;
    if (r->key[i] < 0) {
      r->key[i] = (int64_t)k;
      r->head[i] = r->tail[i] = -1;
      return i;
    }
  }
}

static void ov_wake(ovrun *r, int64_t q) {
  if (r->waiting[q] && !r->queued[q]) {
    r->queued[q] = 1;
    r->stack[r->nstack++] = q;
  }
}

/* rank q's steps until it waits or ends; 0 on a violation */
static int ov_step(ovrun *r, int64_t q) {
  const oc_mb_rank *w = &r->views[q];
  r->waiting[q] = 0;
  while (r->pc[q] < w->n) {
    const oc_mb_step *s = &w->step[r->pc[q]];
    int64_t *lo = r->lo + q * r->m, *hi = r->hi + q * r->m, ch;
    if (s->peer < 0 || s->peer >= r->P || s->peer == q || s->item < 0 || s->len < 1 ||
        s->item > r->m - s->len || (s->kind != OC_MB_SEND && s->kind != OC_MB_RECV) ||
        (s->kind == OC_MB_SEND && s->hist >= 0) || (s->side != 0 && s->side != 1)) {
      ov_bad(r, OC_RULE_RANGE, q, s->item, "rank %lld step %lld: peer %lld, packets, kind, hist or side out of range",
             q, (int64_t)r->pc[q], s->peer);
      return 0;
    }
    if (r->gather && !s->copy) {
      ov_bad(r, OC_RULE_RANGE, q, s->item, "rank %lld step %lld: an addition in an allgather (peer %lld)",
             q, (int64_t)r->pc[q], s->peer);
      return 0;
    }
    if (s->kind == OC_MB_SEND) {
      ovmsg *x = &r->msg[r->nmsg];
      for (int64_t j = s->item; j < s->item + s->len; j++)
        if (lo[j] == NONE && r->gather) {
          ov_bad(r, OC_RULE_HELD, q, j, "rank %lld step %lld sends packet %lld, which it does not hold",
                 q, (int64_t)r->pc[q], j);
          return 0;
        }
      x->src = q;
      x->dst = s->peer;
      x->item = s->item;
      x->len = s->len;
      x->copy = s->copy;
      x->stamp = r->clock[q] + 1;
      x->voff = r->nval;
      x->next = -1;
      memcpy(r->vlo + r->nval, lo + s->item, (size_t)s->len * sizeof *lo);
      memcpy(r->vhi + r->nval, hi + s->item, (size_t)s->len * sizeof *hi);
      r->nval += s->len;
      ch = ov_chan(r, q, s->peer);
      if (r->tail[ch] >= 0) r->msg[r->tail[ch]].next = r->nmsg;
      else r->head[ch] = r->nmsg;
      r->tail[ch] = r->nmsg++;
      ov_wake(r, s->peer);
    } else {
      const ovmsg *x;
      ch = ov_chan(r, s->peer, q);
      if (r->head[ch] < 0) {
        r->waiting[q] = 1;
        return 1;
      }
      x = &r->msg[r->head[ch]];
      if (x->item != s->item || x->len != s->len || x->copy != s->copy) {
        ov_bad(r, OC_RULE_RANGE, q, s->item,
               "rank %lld takes packets from %lld's %lld-th channel message, which carries others (or copy/add differs)",
               q, s->peer, r->head[ch]);
        return 0;
      }
      for (int64_t j = 0; j < s->len; j++) {
        int64_t a = r->vlo[x->voff + j], b = r->vhi[x->voff + j], p = s->item + j;
        if (s->copy) {
          lo[p] = a;
          hi[p] = b;
        } else if (s->side == 0 ? b + 1 != lo[p] : hi[p] + 1 != a) {
          char d[200];
          snprintf(d, sizeof d, "rank %lld packet %lld: run %lld..%lld joined %s its run %lld..%lld",
                   (long long)q, (long long)p, (long long)a, (long long)b,
                   s->side == 0 ? "in front of" : "behind", (long long)lo[p], (long long)hi[p]);
          oc_verdict_violate(r->v, OC_RULE_FOLD, q, r->clock[q], p, (size_t)r->head[ch], d);
          return 0;
        } else if (s->side == 0) {
          lo[p] = a;
        } else {
          hi[p] = b;
        }
      }
      r->clock[q] = oc_max64(r->clock[q], x->stamp);
      r->head[ch] = x->next;
      if (r->head[ch] < 0) r->tail[ch] = -1;
    }
    r->pc[q]++;
  }
  return 1;
}

int oc_verify_oviews(int64_t P, int64_t m, int64_t root, const oc_mb_rank *views,
                     oc_verdict *v) {
  return oc_verify_oviews_held(P, m, root, views, NULL, NULL, v);
}

static int run_cmp(const void *x, const void *y) {
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return (a > b) - (a < b);
}

int oc_verify_oviews_held(int64_t P, int64_t m, int64_t root, const oc_mb_rank *views,
                          const int64_t *first, const int64_t *held, oc_verdict *v) {
  ovrun r;
  int64_t nsend = 0, nval = 0, want_t = 0, total = P;
  int e = OC_OK;
  if (v == NULL || views == NULL || P < 1 || m < 1 || root >= P || root < OC_OVIEWS_GATHER ||
      (first == NULL) != (held == NULL) ||
      (root == OC_OVIEWS_GATHER && (held != NULL || m % P != 0)))
    return OC_EINVAL;
  if (held != NULL) {
    /* the runs must tile 0 .. total - 1: the result is then a run */
    total = 0;
    for (int64_t q = 0; q < P; q++) {
      if (held[q] < 0 || first[q] < 0 || held[q] > INT64_MAX / 4 || first[q] > INT64_MAX / 4)
        return OC_EINVAL;
      total = oc_add_sat(total, held[q]);
    }
    if (total < 1 || total > INT64_MAX / 4) return OC_EINVAL;
    if (P > ((int64_t)1 << 26)) return OC_ERANGE;
    /* sorted by first, the non-empty runs must abut from 0 */
    {
      int64_t(*run)[2] = (int64_t(*)[2])malloc((size_t)P * sizeof *run);
      int64_t k = 0, at = 0;
      if (run == NULL) return OC_ENOMEM;
      for (int64_t q = 0; q < P; q++)
        if (held[q] > 0) {
          run[k][0] = first[q];
          run[k++][1] = held[q];
        }
      qsort(run, (size_t)k, sizeof *run, run_cmp);
      for (int64_t j = 0; j < k && e == OC_OK; j++) {
        if (run[j][0] != at) e = OC_EINVAL;
        at += run[j][1];
      }
      free(run);
    }
    if (e != OC_OK) return e;
  }
  if (P > ((int64_t)1 << 26) / m) return OC_ERANGE;
  oc_verdict_init(v);
  memset(&r, 0, sizeof r);
  r.P = P;
  r.m = m;
  r.views = views;
  r.v = v;
  r.gather = root == OC_OVIEWS_GATHER;
  for (int64_t q = 0; q < P; q++)
    for (size_t i = 0; i < views[q].n; i++)
      if (views[q].step[i].kind == OC_MB_SEND) {
        int64_t len = views[q].step[i].len;
        nsend++;
        nval = oc_add_sat(nval, len >= 1 && len <= m ? len : 0);
      }
  if (nsend > ((int64_t)1 << 31) || nval > ((int64_t)1 << 32)) return OC_ERANGE;
  for (r.hcap = 16; r.hcap < 2 * nsend + 2; r.hcap *= 2) {}
  r.lo = (int64_t *)malloc((size_t)(P * m) * sizeof(int64_t));
  r.hi = (int64_t *)malloc((size_t)(P * m) * sizeof(int64_t));
  r.vlo = (int64_t *)malloc((size_t)(nval + 1) * sizeof(int64_t));
  r.vhi = (int64_t *)malloc((size_t)(nval + 1) * sizeof(int64_t));
  r.msg = (ovmsg *)malloc((size_t)(nsend + 1) * sizeof(ovmsg));
  r.key = (int64_t *)malloc((size_t)r.hcap * 3 * sizeof(int64_t));
  r.pc = (size_t *)calloc((size_t)P, sizeof(size_t));
  r.clock = (int64_t *)calloc((size_t)P, sizeof(int64_t));
  r.stack = (int64_t *)malloc((size_t)P * sizeof(int64_t));
  r.waiting = (unsigned char *)calloc((size_t)P * 2, 1);
  if (!r.lo || !r.hi || !r.vlo || !r.vhi || !r.msg || !r.key || !r.pc || !r.clock || !r.stack ||
      !r.waiting) {
    e = OC_ENOMEM;
    goto out;
  }
  r.head = r.key + r.hcap;
  r.tail = r.head + r.hcap;
  r.queued = r.waiting + P;
  for (int64_t i = 0; i < r.hcap; i++) r.key[i] = -1;
  for (int64_t q = 0; q < P; q++) {
    int64_t a = held == NULL ? q : held[q] > 0 ? first[q] : NONE;
    int64_t b = held == NULL ? q : held[q] > 0 ? first[q] + held[q] - 1 : NONE;
    for (int64_t j = 0; j < m; j++) {
      int own = r.gather && j / (m / P) == q; /* an allgather's own packets */
      r.lo[q * m + j] = r.gather ? (own ? j : NONE) : a;
      r.hi[q * m + j] = r.gather ? (own ? j : NONE) : b;
    }
  }
  for (int64_t q = P; q-- > 0;) {
    r.stack[r.nstack++] = q;
    r.queued[q] = 1;
  }
  while (r.nstack > 0 && v->ok) {
    int64_t q = r.stack[--r.nstack];
    r.queued[q] = 0;
    if (!ov_step(&r, q)) break;
  }
  for (int64_t q = 0; q < P && v->ok; q++)
    if (r.pc[q] < views[q].n)
      ov_bad(&r, OC_RULE_MISSING, q, views[q].step[r.pc[q]].item,
             "rank %lld waits at step %lld for a message from %lld that is never sent", q,
             (int64_t)r.pc[q], views[q].step[r.pc[q]].peer);
  for (int64_t i = 0; i < r.hcap && v->ok; i++)
    if (r.key[i] >= 0 && r.head[i] >= 0) {
      const ovmsg *x = &r.msg[r.head[i]];
      ov_bad(&r, OC_RULE_RESULT, x->dst, x->item, "a message from %lld to %lld (packet %lld) is never received",
             x->src, x->dst, x->item);
    }
  for (int64_t q = 0; q < P && v->ok; q++) {
    int64_t hi = root != OC_OVIEWS_SCAN ? total - 1
                 : held == NULL      ? q
                 : held[q] > 0       ? first[q] + held[q] - 1
                                     : NONE;
    if (root >= 0 && q != root) continue;
    if (root == OC_OVIEWS_SCAN && held != NULL && held[q] == 0) continue;
    want_t = oc_max64(want_t, r.clock[q]);
    for (int64_t j = 0; j < m; j++)
      if (r.lo[q * m + j] != (r.gather ? j : 0) || r.hi[q * m + j] != (r.gather ? j : hi)) {
        ov_bad(&r, OC_RULE_RESULT, q, j, "rank %lld ends packet %lld with x_%lld .. ", q, j,
               r.lo[q * m + j]);
        break;
      }
  }
  if (v->ok) v->time = want_t;
out:
  free(r.lo);
  free(r.hi);
  free(r.vlo);
  free(r.vhi);
  free(r.msg);
  free(r.key);
  free(r.pc);
  free(r.clock);
  free(r.stack);
  free(r.waiting);
  return e;
}
