/* oc_verify_vec.c - the verifier of vector reductions and allreduces
 * (docs/MODEL.md, "Vector combining"), written apart from the generators.
 *
 * Processor q starts with its own contribution x_q[j] to each packet j of
 * an m-packet vector.  A message (t, src, dst, j) carries src's value of
 * packet j at time t: the set of contributions combined into it by then.
 * The receiver handles its messages one at a time, in arrival order (ties:
 * message index) or in the order seq gives (its program's receives: a
 * message that arrives early waits, like an unexpected MPI message): an
 * ADD is one unit addition, started as early as its busy time allows
 * (never inside one of its send or receive overheads, not before the
 * message arrives, nor before the previous one is handled, nor before
 * not_before[i] when given: an MPI program combines a received vector only
 * after posting its own send of the step); a COPY replaces its value at
 * no cost once it has arrived and the previous one is handled (and
 * not_before[i]).  Rules, besides the
 * message rules of oc_verify_bcast (oc_verify_message_rules):
 *   FOLD    an ADD whose result would hold more than P contributions (one
 *           is counted twice); a COPY of fewer contributions than the
 *           receiver holds (some would be lost)
 *   RANGE   (also) seq is not 0, 1, ..., n_q - 1 over the n_q messages to q
 *   RESULT  root >= 0: the root ends with every contribution to every
 *           packet exactly once; root = -1: every processor does
 *   HELD    (with hist) a message carries a value its sender has not made
 *           by the send start; RANGE: a hist beyond the sender's handled
 *           messages of that packet
 * hist (the column OC_COL_HIST; absent: every message carries the current
 * value) lets a message carry an earlier value of its sender: hist[i] = 0
 * its own contribution, h >= 1 the value right after it handled its h-th
 * message of that packet - a program that keeps its partial results, as
 * the circulant allreduce (oc_allreduce.c) does.
 * A value is a multiset of contributions, kept as its size (exact) and,
 * for P <= 64, its support as a bitmask: size P with full support is
 * exactly "each once".  Above 64, the support is replaced by a 61-bit
 * fingerprint, the sum of fixed pseudo-random weights modulo 2^61 - 1 over
 * the multiset: a final value of size P with one contribution twice and
 * another missing passes only if the weights collide, probability below
 * 2^-60.  The rules are the same on both sides of 64: a double count that
 * never reaches a required result (an extra addition at a processor whose
 * value is not used any more) is not a violation.
 *
 * Cost: O(M log M + P m) time, O(M + P m) memory for M messages (with or
 * without hist).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/oc_verify_int.h"

#define VR_STATE_MAX ((int64_t)1 << 26) /* P * m values at most */
#define VR_PRIME (((uint64_t)1 << 61) - 1)

typedef struct vset {
  uint64_t h;      /* bitmask (P <= 64) or fingerprint                   */
  int64_t n;       /* contributions                                      */
} vset;

/* 16 bytes an event (two a message: the verifier's biggest array, and
 * sorting it takes as much again): the kind in seq's top bit, so that
 * (key, seqk) orders by time, then handlings before sends, then seq;
 * messages and their positions fit in 31 bits (VR_MSGS_MAX) */
#define VR_MSGS_MAX ((size_t)1 << 31)
#define VR_SEND ((uint32_t)1 << 31)
typedef struct vevt {
  int64_t key;   /* handled at (arrival events) or sent at (snapshots) */
  uint32_t i;    /* the message                                       */
  uint32_t seqk; /* VR_SEND | i: i is sent; else a receiver handles
                    message i, seqk its place in the handling lists   */
} vevt;

static int vevt_cmp(const void *x, const void *y) {
  const vevt *a = (const vevt *)x, *b = (const vevt *)y;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return (a->seqk > b->seqk) - (a->seqk < b->seqk);
}

static uint64_t weight(int64_t q) { /* splitmix64 of q, reduced */
  uint64_t z = (uint64_t)q + 0x9e3779b97f4a7c15u;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return (z ^ (z >> 31)) % VR_PRIME;
}

static uint64_t addmod(uint64_t a, uint64_t b) {
  uint64_t r = a + b; /* a, b < 2^61: no wrap */
  return r >= VR_PRIME ? r - VR_PRIME : r;
}

typedef struct arrv {
  int64_t at, key; /* arrival; handling order key (arrival, or seq) */
  size_t i;
} arrv;

static int arrv_cmp(const void *x, const void *y) {
  const arrv *a = (const arrv *)x, *b = (const arrv *)y;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return (a->i > b->i) - (a->i < b->i);
}

/* earliest t >= t0 with [t, t + a) clear of the overheads [x, x + o) for x
 * in the sorted st[] (sends) and rt[] (receptions); *sp, *rp only move
 * forward, as t0 does for one processor */
static int64_t fit(const int64_t *st, size_t ns, size_t *sp, const int64_t *rt, size_t nr,
                   size_t *rp, int64_t o, int64_t a, int64_t t0) {
  int64_t t = t0;
  int moved = 1;
  if (o == 0 || a == 0) return t0;
  while (moved) {
    moved = 0;
    while (*sp < ns && st[*sp] + o <= t) (*sp)++;
    while (*rp < nr && rt[*rp] + o <= t) (*rp)++;
    if (*sp < ns && st[*sp] < t + a) { t = st[*sp] + o; moved = 1; }
    if (*rp < nr && rt[*rp] < t + a) { t = rt[*rp] + o; moved = 1; }
  }
  return t;
}

static int i64cmp(const void *x, const void *y) {
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return (a > b) - (a < b);
}

int oc_verify_vreduce(const oc_params *p, int64_t root, int64_t m, const oc_sched *s,
                      oc_verdict *v) {
  const unsigned char *copy = s != NULL ? s->copy : NULL;
  const uint32_t *seq = s != NULL ? s->seq : NULL, *hist = s != NULL ? s->hist : NULL;
  const int64_t *not_before = s != NULL ? s->not_before : NULL;
  int64_t P, *sendt = NULL, *recvt = NULL, *full = NULL, *hdone = NULL, done_at = 0;
  size_t *soff = NULL, *roff = NULL, *hoff = NULL, *hlist = NULL, ne = 0;
  unsigned char *bad = NULL;
  arrv *arr = NULL;
  vevt *ev = NULL;
  vset *st = NULL, *carried = NULL, *after = NULL, all = {0, 0};
  int exact, e;
  char d[240];
  if (p == NULL || s == NULL || v == NULL) return OC_EINVAL;
  if ((e = oc_params_check(p)) != OC_OK) return e;
  P = p->P;
  if (m < 1 || root < -1 || root >= P || s->len != NULL) return OC_EINVAL;
  if (P > OC_GLOBAL_PROCS_MAX || m > VR_STATE_MAX / P || s->n >= VR_MSGS_MAX) return OC_ERANGE;
  exact = P <= 64;
  oc_verdict_init(v);
  bad = (unsigned char *)calloc(s->n + 1, 1);
  soff = (size_t *)calloc((size_t)P + 1, sizeof *soff);
  roff = (size_t *)calloc((size_t)P + 1, sizeof *roff);
  sendt = (int64_t *)malloc((s->n + 1) * sizeof *sendt);
  recvt = (int64_t *)malloc((s->n + 1) * sizeof *recvt);
  arr = (arrv *)malloc((s->n + 1) * sizeof *arr);
  ev = (vevt *)malloc((2 * s->n + 1) * sizeof *ev);
  carried = (vset *)calloc(s->n + 1, sizeof *carried);
  st = (vset *)malloc((size_t)(P * m) * sizeof *st);
  full = (int64_t *)malloc((size_t)(P * m) * sizeof *full);
  if (hist != NULL) { /* per (processor, packet): its handled messages in order */
    after = (vset *)calloc(s->n + 1, sizeof *after);
    hdone = (int64_t *)malloc((s->n + 1) * sizeof *hdone);
    hoff = (size_t *)calloc((size_t)(P * m) + 1, sizeof *hoff);
    hlist = (size_t *)malloc((s->n + 1) * sizeof *hlist);
    if (!after || !hdone || !hoff || !hlist) {
      e = OC_ENOMEM;
      goto done;
    }
  }
  if (!bad || !soff || !roff || !sendt || !recvt || !arr || !ev || !carried || !st || !full) {
    e = OC_ENOMEM;
    goto done;
  }
  if ((e = oc_verify_message_rules(p, s, m, bad, v)) != OC_OK) goto done;
  /* by processor: send starts, receive-overhead starts, arrivals */
  for (size_t i = 0; i < s->n; i++)
    if (!bad[i]) { soff[s->msg[i].src + 1]++; roff[s->msg[i].dst + 1]++; }
  for (int64_t q = 0; q < P; q++) { soff[q + 1] += soff[q]; roff[q + 1] += roff[q]; }
  {
    size_t *fs = (size_t *)malloc(((size_t)P + 1) * sizeof *fs);
    size_t *fr = (size_t *)malloc(((size_t)P + 1) * sizeof *fr);
    if (fs == NULL || fr == NULL) { free(fs); free(fr); e = OC_ENOMEM; goto done; }
    memcpy(fs, soff, ((size_t)P + 1) * sizeof *fs);
    memcpy(fr, roff, ((size_t)P + 1) * sizeof *fr);
    for (size_t i = 0; i < s->n; i++) {
      const oc_msg *x = &s->msg[i];
      if (bad[i]) continue;
      sendt[fs[x->src]++] = x->t;
      recvt[fr[x->dst]] = x->t + p->o + p->L;
      arr[fr[x->dst]].at = x->t + p->L + 2 * p->o;
      arr[fr[x->dst]].key = seq ? (int64_t)seq[i] : arr[fr[x->dst]].at;
      arr[fr[x->dst]++].i = i;
    }
    free(fs);
    free(fr);
  }
  /* each receiver's arrivals in order: when each is handled (static: the
   * overheads are fixed by the messages) */
  for (int64_t q = 0; q < P; q++) {
    size_t sp = 0, rp = 0, n = roff[q + 1] - roff[q];
    int64_t free_at = 0;
    qsort(sendt + soff[q], soff[q + 1] - soff[q], sizeof *sendt, i64cmp);
    qsort(recvt + roff[q], n, sizeof *recvt, i64cmp);
    qsort(arr + roff[q], n, sizeof *arr, arrv_cmp);
    for (size_t k = roff[q]; seq != NULL && k < roff[q + 1]; k++)
      if (arr[k].key != (int64_t)(k - roff[q])) { /* not a permutation of 0 .. n-1 */
        const oc_msg *x = &s->msg[arr[k].i];
        snprintf(d, sizeof d, "message %zu (%lld -> %lld) has handling order %lld: the %zu "
                 "messages to %lld need 0 .. %zu, each once", arr[k].i, (long long)x->src,
                 (long long)q, (long long)arr[k].key, n, (long long)q, n - 1);
        oc_verdict_violate(v, OC_RULE_RANGE, q, x->t, x->item, arr[k].i, d);
        break;
      }
    for (size_t k = roff[q]; k < roff[q + 1]; k++) {
      size_t i = arr[k].i;
      int add = copy == NULL || !copy[i];
      int64_t a = add ? p->unit : 0;
      int64_t t0 = arr[k].at > free_at ? arr[k].at : free_at;
      if (not_before != NULL && not_before[i] > t0) t0 = not_before[i];
      int64_t t = fit(sendt + soff[q], soff[q + 1] - soff[q], &sp, recvt + roff[q], n, &rp,
                      p->o, a, t0);
      free_at = t + a;
      if (hist != NULL) {
        hdone[i] = free_at;
        hoff[q * m + s->msg[i].item + 1]++;
      }
      ev[ne].key = free_at;
      ev[ne].i = (uint32_t)i;
      ev[ne].seqk = (uint32_t)k;
      ne++;
    }
  }
  for (size_t i = 0; i < s->n; i++)
    if (!bad[i]) {
      ev[ne].key = s->msg[i].t;
      ev[ne].i = (uint32_t)i;
      ev[ne].seqk = VR_SEND | (uint32_t)i;
      ne++;
    }
  if (hist != NULL) { /* hlist[hoff[q m + j] + h - 1]: q's h-th handled message of j */
    size_t *fill = NULL;
    for (int64_t x = 0; x < P * m; x++) hoff[x + 1] += hoff[x];
    fill = (size_t *)malloc(((size_t)(P * m) + 1) * sizeof *fill);
    if (fill == NULL) {
      e = OC_ENOMEM;
      goto done;
    }
    memcpy(fill, hoff, ((size_t)(P * m) + 1) * sizeof *fill);
    for (int64_t q = 0; q < P; q++) /* arr is in handling order per receiver */
      for (size_t k = roff[q]; k < roff[q + 1]; k++)
        hlist[fill[q * m + s->msg[arr[k].i].item]++] = arr[k].i;
    free(fill);
  }
  qsort(ev, ne, sizeof *ev, vevt_cmp);
  for (int64_t q = 0; q < P; q++) {
    vset own;
    own.h = exact ? (uint64_t)1 << q : weight(q);
    own.n = 1;
    all.h = exact ? (all.h | own.h) : addmod(all.h, own.h);
    all.n++;
    for (int64_t j = 0; j < m; j++) {
      st[q * m + j] = own;
      full[q * m + j] = P == 1 ? 0 : -1;
    }
  }
  for (size_t k = 0; k < ne; k++) {
    const oc_msg *x = &s->msg[ev[k].i];
    if (ev[k].seqk & VR_SEND) { /* the value it carries: the sender's now, or hist's */
      int64_t sj = x->src * m + x->item;
      uint32_t h = hist ? hist[ev[k].i] : 0;
      carried[ev[k].i] = st[sj];
      if (hist == NULL) continue;
      if (h == 0) { /* its own contribution */
        carried[ev[k].i].n = 1;
        carried[ev[k].i].h = exact ? (uint64_t)1 << x->src : weight(x->src);
      } else if (h > hoff[sj + 1] - hoff[sj]) {
        snprintf(d, sizeof d, "sends its value of packet %lld after its message %lu of that "
                 "packet, but it handles only %zu", (long long)x->item, (unsigned long)h,
                 hoff[sj + 1] - hoff[sj]);
        oc_verdict_violate(v, OC_RULE_RANGE, x->src, x->t, x->item, ev[k].i, d);
      } else {
        size_t r = hlist[hoff[sj] + h - 1];
        if (hdone[r] > x->t) {
          snprintf(d, sizeof d, "sends its value of packet %lld after its message %lu of that "
                   "packet, which it has handled only at %lld", (long long)x->item,
                   (unsigned long)h, (long long)hdone[r]);
          oc_verdict_violate(v, OC_RULE_HELD, x->src, x->t, x->item, ev[k].i, d);
        }
        carried[ev[k].i] = after[r];
      }
      continue;
    }
    {
      vset *cur = &st[x->dst * m + x->item];
      const vset *in = &carried[ev[k].i];
      int add = copy == NULL || !copy[ev[k].i];
      int64_t at = add ? ev[k].key - p->unit : ev[k].key;
      if (add) {
        if (cur->n + in->n > P) {
          snprintf(d, sizeof d, "adds packet %lld from %lld (%lld values) to its own (%lld "
                   "values): more than P, some value counted twice", (long long)x->item,
                   (long long)x->src, (long long)in->n, (long long)cur->n);
          oc_verdict_violate(v, OC_RULE_FOLD, x->dst, at, x->item, ev[k].i, d);
          if (after != NULL) after[ev[k].i] = *cur;
          continue;
        }
        cur->h = exact ? (cur->h | in->h) : addmod(cur->h, in->h);
        cur->n += in->n;
      } else {
        if (in->n < cur->n) {
          snprintf(d, sizeof d, "copies packet %lld from %lld (%lld values) over its own "
                   "(%lld values): values would be lost", (long long)x->item,
                   (long long)x->src, (long long)in->n, (long long)cur->n);
          oc_verdict_violate(v, OC_RULE_FOLD, x->dst, at, x->item, ev[k].i, d);
          if (after != NULL) after[ev[k].i] = *cur;
          continue;
        }
        *cur = *in;
      }
      if (after != NULL) after[ev[k].i] = *cur;
      /* complete from now on, or (a copy of a wrong value of the same size)
         not any more: the result is the final value, not the best one seen */
      if (cur->n == all.n && cur->h == all.h) {
        if (full[x->dst * m + x->item] < 0) full[x->dst * m + x->item] = ev[k].key;
      } else {
        full[x->dst * m + x->item] = -1;
      }
    }
  }
  for (int64_t q = root < 0 ? 0 : root; q < (root < 0 ? P : root + 1); q++)
    for (int64_t j = 0; j < m; j++) {
      const vset *c = &st[q * m + j];
      if (full[q * m + j] < 0) {
        if (c->n == all.n)
          snprintf(d, sizeof d, "ends with packet %lld holding %lld values, but not each "
                   "processor's once", (long long)j, (long long)c->n);
        else
          snprintf(d, sizeof d, "ends with packet %lld holding %lld of the %lld values",
                   (long long)j, (long long)c->n, (long long)P);
        oc_verdict_violate(v, OC_RULE_RESULT, q, OC_AT_END, j, (size_t)-1, d);
        j = m; /* one per processor */
      } else if (full[q * m + j] > done_at) {
        done_at = full[q * m + j];
      }
    }
  v->time = done_at;
  e = OC_OK;
done:
  free(bad);
  free(soff);
  free(roff);
  free(sendt);
  free(recvt);
  free(arr);
  free(ev);
  free(carried);
  free(st);
  free(full);
  free(after);
  free(hdone);
  free(hoff);
  free(hlist);
  return e;
}
