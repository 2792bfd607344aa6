/* oc_verify.c - the LogP / postal schedule verifier (simulator).
 *
 * Written apart from the generators: it knows only the contract's timing
 * rules (shared/spec/CONTRACT.md section 1), never how a schedule was made.
 *
 * For a message sent at s from p to q carrying item i:
 *   p is busy [s, s+o); q is busy receiving [s+o+L, s+2o+L); the item is
 *   usable at q from s+L+2o.  Rules checked:
 *   RANGE    0 <= p, q < P, p != q, 0 <= i < items, 0 <= s <= OC_TIME_MAX
 *   HELD     i usable at p no later than s (the root holds every item at 0)
 *   SEND_GAP two send starts of p at least g apart
 *   RECV_GAP two receive starts of q at least g apart
 *   OVERLAP  no two busy intervals of a processor overlap (only o > 0)
 *   CAP_OUT  at most max(1, ceil(L/g)) messages in transit from p, where a
 *            message is in transit during [s+o, s+o+L)
 *   CAP_IN   ... and to q
 *   MISSING  every processor gets every item
 * The availability of an item at a processor is the minimum over the
 * messages that bring it, so no event order is needed: every message's
 * L + 2o >= 1, which makes the "usable before sent" relation well founded.
 * (With the receive time fixed at s+o+L, the gap rules already imply the
 * capacity rules; they are checked anyway, as stated.)
 *
 * The first violation reported is the one with the smallest time, then
 * the smallest processor, then the rule in the order above.
 * Cost: O(M + P*items) memory, O(M log(M/P) + P*items) time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oc_internal.h"

#define OC_TIME_MAX ((int64_t)1 << 60)

const char *oc_rule_name(oc_rule r) {
  switch (r) {
  case OC_RULE_NONE: return "none";
  case OC_RULE_RANGE: return "range";
  case OC_RULE_HELD: return "item-not-held";
  case OC_RULE_SEND_GAP: return "send-gap";
  case OC_RULE_RECV_GAP: return "receive-gap";
  case OC_RULE_OVERLAP: return "overlap";
  case OC_RULE_CAP_OUT: return "capacity-out";
  case OC_RULE_CAP_IN: return "capacity-in";
  case OC_RULE_MISSING: return "missing";
  }
  return "?";
}

typedef struct vctx {
  const oc_params *p;
  oc_verdict *v;
} vctx;

/* Keep the earliest violation; `at` = OC_TIME_MAX + 1 means "at the end". */
static void violate(vctx *c, oc_rule rule, int64_t proc, int64_t at,
                    int64_t item, size_t msg, const char *detail) {
  oc_verdict *v = c->v;
  if (!v->ok) {
    if (at > v->at) return;
    if (at == v->at && proc > v->proc) return;
    if (at == v->at && proc == v->proc && rule >= v->rule) return;
  }
  v->ok = 0;
  v->rule = rule;
  v->proc = proc;
  v->at = at;
  v->item = item;
  v->msg = msg;
  snprintf(v->detail, sizeof v->detail, "%s", detail);
}

/* A time in the user's units, for messages. */
typedef struct tbuf { char s[48]; } tbuf;
static tbuf ts(const vctx *c, int64_t x) {
  tbuf b = {{0}};
  oc_format_time(b.s, sizeof b.s, x, c->p->unit);
  return b;
}

static int cmp_i64(const void *x, const void *y) {
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return (a > b) - (a < b);
}

static void sort_i64(int64_t *a, size_t n) {
  if (n < 24) {
    for (size_t i = 1; i < n; i++) {
      int64_t x = a[i];
      size_t j = i;
      while (j > 0 && a[j - 1] > x) { a[j] = a[j - 1]; j--; }
      a[j] = x;
    }
  } else {
    qsort(a, n, sizeof *a, cmp_i64);
  }
}

/* Bucket `key(m)` times by processor `who(m)`: CSR offsets + times. */
static int bucket(const oc_sched *s, const unsigned char *bad, int64_t P,
                  int by_dst, int64_t shift, uint32_t **off_out,
                  int64_t **val_out) {
  uint32_t *off = (uint32_t *)calloc((size_t)P + 1, sizeof *off);
  int64_t *val = (int64_t *)malloc((s->n ? s->n : 1) * sizeof *val);
  if (off == NULL || val == NULL) {
    free(off);
    free(val);
    return OC_ENOMEM;
  }
  for (size_t i = 0; i < s->n; i++)
    if (!bad[i]) off[(by_dst ? s->msg[i].dst : s->msg[i].src) + 1]++;
  for (int64_t p = 0; p < P; p++) off[p + 1] += off[p];
  {
    uint32_t *fill = (uint32_t *)malloc(((size_t)P + 1) * sizeof *fill);
    if (fill == NULL) {
      free(off);
      free(val);
      return OC_ENOMEM;
    }
    memcpy(fill, off, ((size_t)P + 1) * sizeof *fill);
    for (size_t i = 0; i < s->n; i++) {
      if (bad[i]) continue;
      {
        int64_t who = by_dst ? s->msg[i].dst : s->msg[i].src;
        val[fill[who]++] = s->msg[i].t + shift;
      }
    }
    free(fill);
  }
  for (int64_t p = 0; p < P; p++) sort_i64(val + off[p], off[p + 1] - off[p]);
  *off_out = off;
  *val_out = val;
  return OC_OK;
}

/* Gap and capacity rules over one processor's sorted starts. */
static void check_starts(vctx *c, int64_t proc, const int64_t *a, size_t n,
                         int recv) {
  const oc_params *p = c->p;
  int64_t cap = (p->L + p->g - 1) / p->g;
  if (cap < 1) cap = 1;
  for (size_t i = 1; i < n; i++) {
    if (a[i] - a[i - 1] < p->g) {
      char d[240];
      snprintf(d, sizeof d, "%s starts %s and %s are less than g apart",
               recv ? "receive" : "send", ts(c, a[i - 1]).s, ts(c, a[i]).s);
      violate(c, recv ? OC_RULE_RECV_GAP : OC_RULE_SEND_GAP, proc, a[i], -1,
              (size_t)-1, d);
      break;
    }
  }
  /* In transit: [s+o, s+o+L) (send start s); for receive starts r the same
   * interval is [r-L, r).  More than cap at once iff a[i+cap] < a[i] + L. */
  if (p->L > 0) {
    for (size_t i = 0; i + (size_t)cap < n; i++) {
      if (a[i + (size_t)cap] < a[i] + p->L) {
        char d[240];
        snprintf(d, sizeof d,
                 "more than %lld messages in transit %s it (%s starts %s .. %s)",
                 (long long)cap, recv ? "to" : "from", recv ? "receive" : "send",
                 ts(c, a[i]).s, ts(c, a[i + (size_t)cap]).s);
        violate(c, recv ? OC_RULE_CAP_IN : OC_RULE_CAP_OUT, proc,
                a[i + (size_t)cap], -1, (size_t)-1, d);
        break;
      }
    }
  }
}

/* Busy intervals [x, x+o) of sends (a) and receives (b), both sorted. */
static void check_overlap(vctx *c, int64_t proc, const int64_t *a, size_t na,
                          const int64_t *b, size_t nb) {
  const int64_t o = c->p->o;
  size_t i = 0, j = 0;
  int64_t end = INT64_MIN, prev = 0;
  while (i < na || j < nb) {
    int64_t x = (j >= nb || (i < na && a[i] <= b[j])) ? a[i++] : b[j++];
    if (x < end) {
      char d[240];
      snprintf(d, sizeof d,
               "busy interval starting at %s overlaps the one starting at %s",
               ts(c, x).s, ts(c, prev).s);
      violate(c, OC_RULE_OVERLAP, proc, x, -1, (size_t)-1, d);
      return;
    }
    end = x + o;
    prev = x;
  }
}

int oc_verify_bcast(const oc_params *p, int64_t root, int64_t items,
                    const oc_sched *s, oc_verdict *v) {
  vctx c;
  int64_t P, h, *avail = NULL, *sendt = NULL, *recvt = NULL;
  uint32_t *soff = NULL, *roff = NULL;
  unsigned char *bad = NULL;
  int e;
  if (p == NULL || s == NULL || v == NULL) return OC_EINVAL;
  if ((e = oc_params_check(p)) != OC_OK) return e;
  P = p->P;
  if (P > OC_GLOBAL_PROCS_MAX || root < 0 || root >= P || items < 1 ||
      items > OC_GLOBAL_PROCS_MAX / P || s->n >= UINT32_MAX)
    return OC_ERANGE;
  memset(v, 0, sizeof *v);
  v->ok = 1;
  v->item = -1;
  v->msg = (size_t)-1;
  c.p = p;
  c.v = v;
  h = p->L + 2 * p->o;

  bad = (unsigned char *)calloc(s->n ? s->n : 1, 1);
  avail = (int64_t *)malloc((size_t)(P * items) * sizeof *avail);
  if (bad == NULL || avail == NULL) { e = OC_ENOMEM; goto done; }
  for (int64_t i = 0; i < P * items; i++) avail[i] = INT64_MAX;
  for (int64_t i = 0; i < items; i++) avail[root * items + i] = 0;

  /* RANGE, then availability */
  for (size_t i = 0; i < s->n; i++) {
    const oc_msg *m = &s->msg[i];
    int sok = m->src >= 0 && m->src < P, dok = m->dst >= 0 && m->dst < P;
    if (!sok || !dok || m->src == m->dst || m->item < 0 || m->item >= items ||
        m->t < 0 || m->t > OC_TIME_MAX) {
      char d[240];
      bad[i] = 1;
      snprintf(d, sizeof d,
               "message %zu (time %s, %lld -> %lld, item %lld) is out of range",
               i, ts(&c, m->t).s, (long long)m->src, (long long)m->dst,
               (long long)m->item);
      violate(&c, OC_RULE_RANGE, sok ? m->src : (dok ? m->dst : 0),
              m->t < 0 ? 0 : (m->t > OC_TIME_MAX ? OC_TIME_MAX : m->t),
              m->item, i, d);
      continue;
    }
    {
      int64_t *a = &avail[m->dst * items + m->item];
      if (m->t + h < *a) *a = m->t + h;
    }
  }
  for (size_t i = 0; i < s->n; i++) {
    const oc_msg *m = &s->msg[i];
    int64_t have;
    if (bad[i]) continue;
    have = avail[m->src * items + m->item];
    if (have > m->t) {
      char d[240];
      if (have == INT64_MAX)
        snprintf(d, sizeof d, "sends item %lld at %s but never holds it",
                 (long long)m->item, ts(&c, m->t).s);
      else
        snprintf(d, sizeof d,
                 "sends item %lld at %s but it is usable there only from %s",
                 (long long)m->item, ts(&c, m->t).s, ts(&c, have).s);
      violate(&c, OC_RULE_HELD, m->src, m->t, m->item, i, d);
    }
  }

  /* per-processor send and receive starts */
  if ((e = bucket(s, bad, P, 0, 0, &soff, &sendt)) != OC_OK) goto done;
  if ((e = bucket(s, bad, P, 1, p->o + p->L, &roff, &recvt)) != OC_OK) goto done;
  for (int64_t q = 0; q < P; q++) {
    check_starts(&c, q, sendt + soff[q], soff[q + 1] - soff[q], 0);
    check_starts(&c, q, recvt + roff[q], roff[q + 1] - roff[q], 1);
    if (p->o > 0)
      check_overlap(&c, q, sendt + soff[q], soff[q + 1] - soff[q],
                    recvt + roff[q], roff[q + 1] - roff[q]);
  }

  /* coverage and completion */
  {
    int64_t done_at = 0;
    for (int64_t q = 0; q < P; q++) {
      for (int64_t i = 0; i < items; i++) {
        int64_t a = avail[q * items + i];
        if (a == INT64_MAX) {
          char d[240];
          snprintf(d, sizeof d, "never receives item %lld", (long long)i);
          violate(&c, OC_RULE_MISSING, q, OC_TIME_MAX + 1, i, (size_t)-1, d);
        } else if (a > done_at) {
          done_at = a;
        }
      }
    }
    v->time = done_at; /* over what arrived, also for invalid schedules */
  }
  e = OC_OK;
done:
  free(bad);
  free(avail);
  free(soff);
  free(sendt);
  free(roff);
  free(recvt);
  return e;
}
