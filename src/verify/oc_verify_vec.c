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
 * Cost for M messages: the message rules first (16 bytes a message, freed
 * before the rest); then each processor's sends and receptions as index
 * lists, sorted one processor at a time in scratch the size of the busiest
 * (O(M log M) at worst), and the events in global time order by counting
 * (times dense: linear) or by merging the processors' runs (O(M log P)).
 * Memory beside the schedule: about 49 bytes a message (69 with hist),
 * 24 (28) a (processor, packet) value and 16 a processor (64 when the
 * heap runs), plus scratch for the busiest processor's sends and
 * receptions (a few dozen bytes each with qsort's copy: 89 (109) a message
 * at worst, when one processor receives nearly everything, as in a
 * linear reduce).  The first version sorted a 16-byte record per event
 * and needed about 121 bytes a message (153 with hist).
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

/* The messages' handlings and sends are processed in one global order:
 * by time, a handling before a send at the same time, handlings by
 * receiver and then in their receiver's order, sends by message index
 * (vr_by_count; vr_by_heap orders sends at one time by sender, then
 * index: the same verdicts, see there).  Message indices fit in 31 bits
 * (VR_MSGS_MAX). */
#define VR_MSGS_MAX ((size_t)1 << 31)
#define VR_SEND ((uint32_t)1 << 31)
typedef struct vhead {
  int64_t key; /* handled at (a receiver's run) or sent at (a sender's) */
  size_t tie;  /* its place: in ridx, or VR_SEND + its place in sidx    */
  size_t end;  /* the run's end, the same way                           */
} vhead;

static int vhead_less(const vhead *a, const vhead *b) {
  return a->key != b->key ? a->key < b->key : a->tie < b->tie;
}

static void vheap_down(vhead *h, size_t n, size_t k) {
  for (;;) {
    size_t c = 2 * k + 1;
    vhead x;
    if (c >= n) return;
    if (c + 1 < n && vhead_less(&h[c + 1], &h[c])) c++;
    if (!vhead_less(&h[c], &h[k])) return;
    x = h[k];
    h[k] = h[c];
    h[c] = x;
    k = c;
  }
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
  int64_t at, key; /* arrival; handling order key (arrival, or seq); a
                      send: key its start */
  uint32_t i;
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

/* One value event (the processing loop's body): message i handled by its
 * receiver at key (an addition ends, or a copy happens, then), or sent. */
typedef struct vrun {
  const oc_params *p;
  const oc_sched *s;
  int64_t m;
  int exact;
  vset *st, *carried, *after, all;
  int64_t *full;
  const int64_t *hdone;
  const uint32_t *hoff, *hlist;
  oc_verdict *v;
} vrun;

static void vr_send(vrun *r, size_t i) {
  const oc_msg *x = &r->s->msg[i];
  const uint32_t *hist = r->s->hist;
  int64_t sj = x->src * r->m + x->item;
  uint32_t h = hist ? hist[i] : 0;
  char d[240];
  r->carried[i] = r->st[sj]; /* the value it carries: the sender's now, or hist's */
  if (hist == NULL) return;
  if (h == 0) { /* its own contribution */
    r->carried[i].n = 1;
    r->carried[i].h = r->exact ? (uint64_t)1 << x->src : weight(x->src);
  } else if (h > r->hoff[sj + 1] - r->hoff[sj]) {
    snprintf(d, sizeof d, "sends its value of packet %lld after its message %lu of that "
             "packet, but it handles only %lu", (long long)x->item, (unsigned long)h,
             (unsigned long)(r->hoff[sj + 1] - r->hoff[sj]));
    oc_verdict_violate(r->v, OC_RULE_RANGE, x->src, x->t, x->item, i, d);
  } else {
    size_t k = r->hlist[r->hoff[sj] + h - 1];
    if (r->hdone[k] > x->t) {
      snprintf(d, sizeof d, "sends its value of packet %lld after its message %lu of that "
               "packet, which it has handled only at %lld", (long long)x->item,
               (unsigned long)h, (long long)r->hdone[k]);
      oc_verdict_violate(r->v, OC_RULE_HELD, x->src, x->t, x->item, i, d);
    }
    r->carried[i] = r->after[k];
  }
}

static void vr_handle(vrun *r, size_t i, int64_t key) {
  const oc_msg *x = &r->s->msg[i];
  vset *cur = &r->st[x->dst * r->m + x->item];
  const vset *in = &r->carried[i];
  int add = r->s->copy == NULL || !r->s->copy[i];
  int64_t at = add ? key - r->p->unit : key, *full = &r->full[x->dst * r->m + x->item];
  char d[240];
  if (add && cur->n + in->n > r->p->P) {
    snprintf(d, sizeof d, "adds packet %lld from %lld (%lld values) to its own (%lld "
             "values): more than P, some value counted twice", (long long)x->item,
             (long long)x->src, (long long)in->n, (long long)cur->n);
    oc_verdict_violate(r->v, OC_RULE_FOLD, x->dst, at, x->item, i, d);
  } else if (!add && in->n < cur->n) {
    snprintf(d, sizeof d, "copies packet %lld from %lld (%lld values) over its own "
             "(%lld values): values would be lost", (long long)x->item,
             (long long)x->src, (long long)in->n, (long long)cur->n);
    oc_verdict_violate(r->v, OC_RULE_FOLD, x->dst, at, x->item, i, d);
  } else {
    if (add) {
      cur->h = r->exact ? (cur->h | in->h) : addmod(cur->h, in->h);
      cur->n += in->n;
    } else {
      *cur = *in;
    }
    /* complete from now on, or (a copy of a wrong value of the same size)
       not any more: the result is the final value, not the best one seen */
    if (cur->n == r->all.n && cur->h == r->all.h) {
      if (*full < 0) *full = key;
    } else {
      *full = -1;
    }
  }
  if (r->after != NULL) r->after[i] = *cur;
}

/* The events in the global order by counting: dense times (the latest
 * below the messages plus P, as a simulated schedule's are) get one bucket
 * per (time, handling or send), filled handlings by place, then sends by
 * index.  Linear; 8 bytes a message for the order and at most as much for
 * the counts.  *done = 0 (nothing run) when the times are too sparse or
 * there is no room for the counts. */
static void vr_by_count(vrun *r, const unsigned char *bad, const uint32_t *ridx, size_t nh,
                       int *done) {
  const oc_sched *s = r->s;
  int64_t tmax = 0;
  size_t nb, ne = 2 * nh;
  uint32_t *cnt, *ord;
  *done = 0;
  for (size_t k = 0; k < nh; k++)
    if (r->hdone[ridx[k]] > tmax) tmax = r->hdone[ridx[k]];
  for (size_t i = 0; i < s->n; i++)
    if (!bad[i] && s->msg[i].t > tmax) tmax = s->msg[i].t;
  if (tmax >= (int64_t)nh + r->p->P) return;
  nb = 2 * (size_t)tmax + 3;
  cnt = (uint32_t *)calloc(nb, sizeof *cnt);
  ord = (uint32_t *)malloc((ne + 1) * sizeof *ord);
  if (cnt == NULL || ord == NULL) { /* the merge needs nothing more */
    free(cnt);
    free(ord);
    return;
  }
  for (size_t k = 0; k < nh; k++) cnt[2 * (size_t)r->hdone[ridx[k]] + 1]++;
  for (size_t i = 0; i < s->n; i++)
    if (!bad[i]) cnt[2 * (size_t)s->msg[i].t + 2]++;
  for (size_t b = 1; b < nb; b++) cnt[b] += cnt[b - 1]; /* cnt[b]: first place of bucket b */
  for (size_t k = 0; k < nh; k++) ord[cnt[2 * (size_t)r->hdone[ridx[k]]]++] = (uint32_t)k;
  for (size_t i = 0; i < s->n; i++)
    if (!bad[i]) ord[cnt[2 * (size_t)s->msg[i].t + 1]++] = VR_SEND | (uint32_t)i;
  free(cnt);
  for (size_t k = 0; k < ne; k++) {
    if (ord[k] & VR_SEND) {
      vr_send(r, ord[k] & ~VR_SEND);
    } else {
      size_t i = ridx[ord[k]];
      vr_handle(r, i, r->hdone[i]);
    }
  }
  free(ord);
  *done = 1;
}

/* The order for sparse times: a merge of the 2P runs (each receiver's
 * handlings, in order: its handling times never decrease; each sender's
 * sends by start and index) through a heap of their heads, O(M log P).
 * Sends at one time come by sender, then index, where the counting gives
 * them by index alone.  No verdict changes: between two handlings the
 * sends only record the values they carry (each its own carried[]), read
 * what handlings write, and their violations are at (their time, their
 * sender), so two that tie come from one sender, in index order both
 * ways. */
static void vr_by_heap(vrun *r, const uint32_t *ridx, const size_t *roff, const uint32_t *sidx,
                       const size_t *soff, vhead *heap) {
  const oc_sched *s = r->s;
  int64_t P = r->p->P;
  size_t nh = 0;
  for (int64_t q = 0; q < P; q++) {
    if (roff[q] < roff[q + 1]) {
      vhead *h = &heap[nh++];
      h->key = r->hdone[ridx[roff[q]]];
      h->tie = roff[q];
      h->end = roff[q + 1];
    }
    if (soff[q] < soff[q + 1]) {
      vhead *h = &heap[nh++];
      h->key = s->msg[sidx[soff[q]]].t;
      h->tie = VR_SEND + soff[q];
      h->end = VR_SEND + soff[q + 1];
    }
  }
  for (size_t k = nh / 2; k-- > 0;) vheap_down(heap, nh, k);
  while (nh > 0) {
    vhead *h = &heap[0];
    if (h->tie < VR_SEND) {
      size_t i = ridx[h->tie];
      vr_handle(r, i, h->key);
      if (++h->tie < h->end)
        h->key = r->hdone[ridx[h->tie]];
      else
        heap[0] = heap[--nh];
    } else {
      vr_send(r, sidx[h->tie - VR_SEND]);
      if (++h->tie < h->end)
        h->key = s->msg[sidx[h->tie - VR_SEND]].t;
      else
        heap[0] = heap[--nh];
    }
    vheap_down(heap, nh, 0);
  }
}

int oc_verify_vreduce(const oc_params *p, int64_t root, int64_t m, const oc_sched *s,
                      oc_verdict *v) {
  const uint32_t *seq = s != NULL ? s->seq : NULL;
  const int64_t *not_before = s != NULL ? s->not_before : NULL;
  int64_t P, *full = NULL, *hdone = NULL, *sendt = NULL, *recvt = NULL, done_at = 0;
  size_t *soff = NULL, *roff = NULL, maxs = 0, maxr = 0;
  uint32_t *ridx = NULL, *sidx = NULL, *hoff = NULL, *hlist = NULL;
  unsigned char *bad = NULL;
  arrv *arr = NULL, *sx = NULL;
  vhead *heap = NULL;
  vset *st = NULL, *carried = NULL, *after = NULL;
  vrun r;
  int e, counted = 0;
  char d[240];
  if (p == NULL || s == NULL || v == NULL) return OC_EINVAL;
  if ((e = oc_params_check(p)) != OC_OK) return e;
  P = p->P;
  if (m < 1 || root < -1 || root >= P || s->len != NULL) return OC_EINVAL;
  if (P > OC_GLOBAL_PROCS_MAX || m > VR_STATE_MAX / P || s->n >= VR_MSGS_MAX ||
      p->unit > OC_PARAM_MAX)
    return OC_ERANGE;
  for (size_t i = 0; not_before != NULL && i < s->n; i++)
    if (not_before[i] > OC_TIME_MAX) return OC_ERANGE; /* (handling times stay in range) */
  oc_verdict_init(v);
  /* the message rules first: their arrays are gone before ours come */
  if ((bad = (unsigned char *)calloc(s->n + 1, 1)) == NULL) return OC_ENOMEM;
  if ((e = oc_verify_message_rules(p, s, m, bad, v)) != OC_OK) goto done;
  soff = (size_t *)calloc((size_t)P + 1, sizeof *soff);
  roff = (size_t *)calloc((size_t)P + 1, sizeof *roff);
  ridx = (uint32_t *)malloc((s->n + 1) * sizeof *ridx);
  sidx = (uint32_t *)malloc((s->n + 1) * sizeof *sidx);
  hdone = (int64_t *)malloc((s->n + 1) * sizeof *hdone);
  carried = (vset *)calloc(s->n + 1, sizeof *carried);
  st = (vset *)malloc((size_t)(P * m) * sizeof *st);
  full = (int64_t *)malloc((size_t)(P * m) * sizeof *full);
  if (!soff || !roff || !ridx || !sidx || !hdone || !carried || !st || !full) {
    e = OC_ENOMEM;
    goto done;
  }
  if (s->hist != NULL) { /* per (processor, packet): its handled messages in order */
    after = (vset *)calloc(s->n + 1, sizeof *after);
    hoff = (uint32_t *)calloc((size_t)(P * m) + 1, sizeof *hoff);
    hlist = (uint32_t *)malloc((s->n + 1) * sizeof *hlist);
    if (!after || !hoff || !hlist) {
      e = OC_ENOMEM;
      goto done;
    }
  }
  /* by processor: the messages it sends (sidx) and receives (ridx) */
  for (size_t i = 0; i < s->n; i++)
    if (!bad[i]) { soff[s->msg[i].src + 1]++; roff[s->msg[i].dst + 1]++; }
  for (int64_t q = 0; q < P; q++) {
    if (soff[q + 1] > maxs) maxs = soff[q + 1];
    if (roff[q + 1] > maxr) maxr = roff[q + 1];
    soff[q + 1] += soff[q];
    roff[q + 1] += roff[q];
  }
  {
    size_t *fs = (size_t *)malloc(((size_t)P + 1) * sizeof *fs);
    size_t *fr = (size_t *)malloc(((size_t)P + 1) * sizeof *fr);
    if (fs == NULL || fr == NULL) { free(fs); free(fr); e = OC_ENOMEM; goto done; }
    memcpy(fs, soff, ((size_t)P + 1) * sizeof *fs);
    memcpy(fr, roff, ((size_t)P + 1) * sizeof *fr);
    for (size_t i = 0; i < s->n; i++)
      if (!bad[i]) {
        sidx[fs[s->msg[i].src]++] = (uint32_t)i;
        ridx[fr[s->msg[i].dst]++] = (uint32_t)i;
      }
    free(fs);
    free(fr);
  }
  /* one processor at a time, in scratch as large as its busiest: its sends
     by (start, index), then its receptions in handling order with when
     each is handled (static: the overheads are fixed by the messages) */
  sx = (arrv *)malloc((maxs + 1) * sizeof *sx);
  sendt = (int64_t *)malloc((maxs + 1) * sizeof *sendt);
  recvt = (int64_t *)malloc((maxr + 1) * sizeof *recvt);
  arr = (arrv *)malloc((maxr + 1) * sizeof *arr);
  if (!sx || !sendt || !recvt || !arr) {
    e = OC_ENOMEM;
    goto done;
  }
  for (int64_t q = 0; q < P; q++) {
    size_t sp = 0, rp = 0, ns = soff[q + 1] - soff[q], n = roff[q + 1] - roff[q];
    int64_t free_at = 0;
    for (size_t k = 0; k < ns; k++) {
      sx[k].i = sidx[soff[q] + k];
      sx[k].key = s->msg[sx[k].i].t;
    }
    qsort(sx, ns, sizeof *sx, arrv_cmp);
    for (size_t k = 0; k < ns; k++) {
      sidx[soff[q] + k] = sx[k].i; /* (the merge's run: by start, then index) */
      sendt[k] = sx[k].key;
    }
    for (size_t k = 0; k < n; k++) {
      uint32_t i = ridx[roff[q] + k];
      recvt[k] = s->msg[i].t + p->o + p->L;
      arr[k].at = s->msg[i].t + p->L + 2 * p->o;
      arr[k].key = seq ? (int64_t)seq[i] : arr[k].at;
      arr[k].i = i;
    }
    oc_vsort_i64(recvt, n);
    qsort(arr, n, sizeof *arr, arrv_cmp);
    for (size_t k = 0; seq != NULL && k < n; k++)
      if (arr[k].key != (int64_t)k) { /* not a permutation of 0 .. n-1 */
        const oc_msg *x = &s->msg[arr[k].i];
        snprintf(d, sizeof d, "message %lu (%lld -> %lld) has handling order %lld: the %zu "
                 "messages to %lld need 0 .. %zu, each once", (unsigned long)arr[k].i,
                 (long long)x->src, (long long)q, (long long)arr[k].key, n, (long long)q,
                 n - 1);
        oc_verdict_violate(v, OC_RULE_RANGE, q, x->t, x->item, arr[k].i, d);
        break;
      }
    for (size_t k = 0; k < n; k++) {
      uint32_t i = arr[k].i;
      int64_t a = s->copy == NULL || !s->copy[i] ? p->unit : 0;
      int64_t t0 = arr[k].at > free_at ? arr[k].at : free_at;
      if (not_before != NULL && not_before[i] > t0) t0 = not_before[i];
      free_at = fit(sendt, ns, &sp, recvt, n, &rp, p->o, a, t0) + a;
      hdone[i] = free_at;
      ridx[roff[q] + k] = i; /* now in handling order */
      if (hoff != NULL) hoff[q * m + s->msg[i].item + 1]++;
    }
  }
  free(sx);
  free(sendt);
  free(recvt);
  free(arr);
  sx = NULL;
  sendt = recvt = NULL;
  arr = NULL;
  if (hoff != NULL) { /* hlist[hoff[q m + j] + h - 1]: q's h-th handled message of j */
    uint32_t *fill = NULL;
    for (int64_t x = 0; x < P * m; x++) hoff[x + 1] += hoff[x];
    fill = (uint32_t *)malloc(((size_t)(P * m) + 1) * sizeof *fill);
    if (fill == NULL) {
      e = OC_ENOMEM;
      goto done;
    }
    memcpy(fill, hoff, ((size_t)(P * m) + 1) * sizeof *fill);
    for (int64_t q = 0; q < P; q++) /* ridx is in handling order per receiver */
      for (size_t k = roff[q]; k < roff[q + 1]; k++)
        hlist[fill[q * m + s->msg[ridx[k]].item]++] = ridx[k];
    free(fill);
  }
  r = (vrun){.p = p, .s = s, .m = m, .exact = P <= 64, .st = st, .carried = carried,
             .after = after, .full = full, .hdone = hdone, .hoff = hoff, .hlist = hlist, .v = v};
  for (int64_t q = 0; q < P; q++) {
    vset own;
    own.h = r.exact ? (uint64_t)1 << q : weight(q);
    own.n = 1;
    r.all.h = r.exact ? (r.all.h | own.h) : addmod(r.all.h, own.h);
    r.all.n++;
    for (int64_t j = 0; j < m; j++) {
      st[q * m + j] = own;
      full[q * m + j] = P == 1 ? 0 : -1;
    }
  }
  vr_by_count(&r, bad, ridx, roff[P], &counted);
  if (!counted) {
    if ((heap = (vhead *)malloc((size_t)(2 * P) * sizeof *heap)) == NULL) {
      e = OC_ENOMEM;
      goto done;
    }
    vr_by_heap(&r, ridx, roff, sidx, soff, heap);
  }
  for (int64_t q = root < 0 ? 0 : root; q < (root < 0 ? P : root + 1); q++)
    for (int64_t j = 0; j < m; j++) {
      const vset *c = &st[q * m + j];
      if (full[q * m + j] < 0) {
        if (c->n == r.all.n)
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
  free(ridx);
  free(sidx);
  free(hdone);
  free(carried);
  free(st);
  free(full);
  free(heap);
  free(sx);
  free(sendt);
  free(recvt);
  free(arr);
  free(after);
  free(hoff);
  free(hlist);
  return e;
}
