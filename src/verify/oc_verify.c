/* oc_verify.c - the LogP / postal schedule verifier (simulator): the verdict
 * core, the message rules every LogP verifier applies, and broadcast.
 *
 * Written apart from the generators: it knows only the contract's timing
 * rules (docs/MODEL.md), never how a schedule was made.
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
 * The first violation reported is the one with the smallest time, then
 * the smallest processor, then the rule in the order above.  The
 * combining problems' verifiers are in oc_verify_combine.c; every
 * verifier keeps its verdict with oc_verdict_violate (here).
 * Cost: O(M + P*items) memory, O(M log(M/P) + P*items) time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/oc_verify_int.h"


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
  case OC_RULE_OPERAND: return "operand";
  case OC_RULE_ARRIVAL: return "not-arrived";
  case OC_RULE_FOLD: return "fold-order";
  case OC_RULE_RESULT: return "result";
  }
  return "?";
}


/* Keep the earliest violation; `at` = OC_AT_END means "at the end". */
void oc_verdict_violate(oc_verdict *v, oc_rule rule, int64_t proc, int64_t at,
                        int64_t item, size_t msg, const char *detail) {
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



static int cmp_i64(const void *x, const void *y) {
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return (a > b) - (a < b);
}

void oc_vsort_i64(int64_t *a, size_t n) {
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
                  int by_dst, int64_t shift, const int64_t *at, uint32_t **off_out,
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
        val[fill[who]++] = at != NULL ? at[i] : s->msg[i].t + shift;
      }
    }
    free(fill);
  }
  for (int64_t p = 0; p < P; p++) oc_vsort_i64(val + off[p], off[p + 1] - off[p]);
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

/* Busy intervals of one processor: sends [a_i, a_i+o), receives
 * [b_i, b_i+o) (both sorted) and additions [c_i.s, c_i.e) (sorted). */

static void check_overlap(vctx *c, int64_t proc, const int64_t *a, size_t na,
                          const int64_t *b, size_t nb, const span *cs,
                          size_t nc) {
  const int64_t o = c->p->o;
  size_t i = 0, j = 0, k = 0;
  int64_t end = INT64_MIN, prev = 0;
  while (i < na || j < nb || k < nc) {
    int64_t x, xe;
    int which = -1;
    if (i < na && o > 0) which = 0;
    if (j < nb && o > 0 && (which < 0 || b[j] < a[i])) which = 1;
    if (k < nc && (which < 0 || cs[k].s < (which == 0 ? a[i] : b[j]))) which = 2;
    if (which < 0) break;
    if (which == 0) { x = a[i++]; xe = x + o; }
    else if (which == 1) { x = b[j++]; xe = x + o; }
    else { x = cs[k].s; xe = cs[k].e; k++; }
    if (xe == x) continue; /* empty interval */
    if (x < end) {
      char d[240];
      snprintf(d, sizeof d,
               "busy interval starting at %s overlaps the one starting at %s",
               ts(c, x).s, ts(c, prev).s);
      violate(c, OC_RULE_OVERLAP, proc, x, -1, (size_t)-1, d);
      return;
    }
    end = xe;
    prev = x;
  }
}

/* The rules on messages alone (range, gaps, capacity, overlap with the
 * given additions): marks out-of-range messages in bad[]. */
int oc_vcheck_messages(vctx *c, const oc_sched *s, int64_t items,
                          unsigned char *bad, const uint32_t *coff,
                          const span *cspan, const int64_t *recv_at) {
  const oc_params *p = c->p;
  int64_t P = p->P, *sendt = NULL, *recvt = NULL;
  uint32_t *soff = NULL, *roff = NULL;
  int e;
  for (size_t i = 0; i < s->n; i++) {
    const oc_msg *m = &s->msg[i];
    int sok = m->src >= 0 && m->src < P, dok = m->dst >= 0 && m->dst < P;
    if (!sok || !dok || m->src == m->dst || m->item < 0 || m->item >= items ||
        m->t < 0 || m->t > OC_TIME_MAX) {
      char d[240];
      bad[i] = 1;
      snprintf(d, sizeof d,
               "message %zu (time %s, %lld -> %lld, item %lld) is out of range",
               i, ts(c, m->t).s, (long long)m->src, (long long)m->dst,
               (long long)m->item);
      violate(c, OC_RULE_RANGE, sok ? m->src : (dok ? m->dst : 0),
              m->t < 0 ? 0 : (m->t > OC_TIME_MAX ? OC_TIME_MAX : m->t),
              m->item, i, d);
    }
  }
  if ((e = bucket(s, bad, P, 0, 0, NULL, &soff, &sendt)) != OC_OK) goto done;
  if ((e = bucket(s, bad, P, 1, p->o + p->L, recv_at, &roff, &recvt)) != OC_OK) goto done;
  for (int64_t q = 0; q < P; q++) {
    check_starts(c, q, sendt + soff[q], soff[q + 1] - soff[q], 0);
    check_starts(c, q, recvt + roff[q], roff[q + 1] - roff[q], 1);
    check_overlap(c, q, sendt + soff[q], soff[q + 1] - soff[q], recvt + roff[q],
                  roff[q + 1] - roff[q], coff ? cspan + coff[q] : NULL,
                  coff ? coff[q + 1] - coff[q] : 0);
  }
  e = OC_OK;
done:
  free(soff);
  free(sendt);
  free(roff);
  free(recvt);
  return e;
}

int oc_verify_message_rules(const oc_params *p, const oc_sched *s, int64_t items,
                            unsigned char *bad, oc_verdict *v) {
  vctx c;
  c.p = p;
  c.v = v;
  return oc_vcheck_messages(&c, s, items, bad, NULL, NULL, NULL);
}

/* Busy spans [t, t + cost) of the additions, by processor, sorted by start
 * (CSR: coff[q] .. coff[q+1]); additions with opbad[i] set are left out. */
int oc_vop_spans(const oc_params *p, const oc_sched *s,
                    const unsigned char *opbad, uint32_t **coff_out,
                    span **cs_out) {
  uint32_t *coff = (uint32_t *)calloc((size_t)p->P + 1, sizeof *coff);
  uint32_t *fill = (uint32_t *)malloc(((size_t)p->P + 1) * sizeof *fill);
  span *cs = (span *)malloc((s->nop + 1) * sizeof *cs);
  if (coff == NULL || fill == NULL || cs == NULL) {
    free(coff);
    free(fill);
    free(cs);
    return OC_ENOMEM;
  }
  for (size_t i = 0; i < s->nop; i++)
    if (!opbad[i]) coff[s->op[i].proc + 1]++;
  for (int64_t q = 0; q < p->P; q++) coff[q + 1] += coff[q];
  memcpy(fill, coff, ((size_t)p->P + 1) * sizeof *fill);
  for (size_t i = 0; i < s->nop; i++) {
    const oc_op *o = &s->op[i];
    if (opbad[i]) continue;
    cs[fill[o->proc]].s = o->t;
    cs[fill[o->proc]++].e = o->t + oc_op_cost(o) * p->unit;
  }
  free(fill);
  for (int64_t q = 0; q < p->P; q++) { /* insertion sort: few per processor */
    span *a = cs + coff[q];
    size_t m = coff[q + 1] - coff[q];
    for (size_t i = 1; i < m; i++) {
      span x = a[i];
      size_t j = i;
      while (j > 0 && a[j - 1].s > x.s) { a[j] = a[j - 1]; j--; }
      a[j] = x;
    }
  }
  *coff_out = coff;
  *cs_out = cs;
  return OC_OK;
}

void oc_verdict_init(oc_verdict *v) {
  memset(v, 0, sizeof *v);
  v->ok = 1;
  v->item = -1;
  v->msg = (size_t)-1;
}

/* arr_at[i]: when message i's item is usable at its receiver (NULL: its
 * send start + L + 2o); need_at[i]: when the sender must hold it (NULL: the
 * send start).  Long messages are checked as their packets with these. */
static int verify_bcast_core(const oc_params *p, int64_t root, int64_t items,
                             const oc_sched *s, const int64_t *arr_at,
                             const int64_t *need_at, int64_t rel, int buffered,
                             oc_verdict *v) {
  vctx c;
  int64_t P, h, *avail = NULL;
  unsigned char *bad = NULL;
  int e;
  if (p == NULL || s == NULL || v == NULL) return OC_EINVAL;
  if ((e = oc_params_check(p)) != OC_OK) return e;
  P = p->P;
  if (P > OC_GLOBAL_PROCS_MAX || root < 0 || root >= P || items < 1 ||
      items > OC_GLOBAL_PROCS_MAX / P || s->n >= UINT32_MAX)
    return OC_ERANGE;
  oc_verdict_init(v);
  c.p = p;
  c.v = v;
  h = p->L + 2 * p->o;

  bad = (unsigned char *)calloc(s->n ? s->n : 1, 1);
  avail = (int64_t *)malloc((size_t)(P * items) * sizeof *avail);
  if (bad == NULL || avail == NULL) { e = OC_ENOMEM; goto done; }
  if ((e = oc_vcheck_messages(&c, s, items, bad, NULL, NULL, buffered ? arr_at : NULL)) != OC_OK)
    goto done;
  for (size_t i = 0; buffered && i < s->n; i++) {
    const oc_msg *m = &s->msg[i];
    if (!bad[i] && arr_at[i] < m->t + h) {
      char d[240];
      snprintf(d, sizeof d, "takes item %lld from its buffer at %s, before it arrives at %s",
               (long long)m->item, ts(&c, arr_at[i]).s, ts(&c, m->t + h).s);
      violate(&c, OC_RULE_ARRIVAL, m->dst, arr_at[i], m->item, i, d);
    }
  }
  for (int64_t i = 0; i < P * items; i++) avail[i] = INT64_MAX;
  for (int64_t i = 0; i < items; i++) avail[root * items + i] = i * rel;
  for (size_t i = 0; i < s->n; i++) {
    const oc_msg *m = &s->msg[i];
    if (!bad[i]) {
      int64_t *a = &avail[m->dst * items + m->item];
      int64_t at = arr_at ? arr_at[i] : m->t + h;
      if (at < *a) *a = at;
    }
  }
  for (size_t i = 0; i < s->n; i++) {
    const oc_msg *m = &s->msg[i];
    int64_t have, need = need_at ? need_at[i] : m->t;
    if (bad[i]) continue;
    have = avail[m->src * items + m->item];
    if (have > need) {
      char d[240];
      if (have == INT64_MAX)
        snprintf(d, sizeof d, "sends item %lld at %s but never holds it",
                 (long long)m->item, ts(&c, need).s);
      else
        snprintf(d, sizeof d,
                 "sends item %lld at %s but it is usable there only from %s",
                 (long long)m->item, ts(&c, need).s, ts(&c, have).s);
      violate(&c, OC_RULE_HELD, m->src, need, m->item, i, d);
    }
  }
  { /* coverage and completion (rel > 0: the largest delay) */
    int64_t done_at = 0;
    for (int64_t q = 0; q < P; q++) {
      for (int64_t i = 0; i < items; i++) {
        int64_t a = avail[q * items + i];
        if (a == INT64_MAX) {
          char d[240];
          snprintf(d, sizeof d, "never receives item %lld", (long long)i);
          violate(&c, OC_RULE_MISSING, q, OC_AT_END, i, (size_t)-1, d);
        } else if (a - i * rel > done_at) {
          done_at = a - i * rel;
        }
      }
    }
    v->time = done_at; /* over what arrived, also for invalid schedules */
  }
  e = OC_OK;
done:
  free(bad);
  free(avail);
  return e;
}

int oc_verify_bcast(const oc_params *p, int64_t root, int64_t items,
                    const oc_sched *s, oc_verdict *v) {
  oc_sched x;
  int64_t *arr = NULL, *need = NULL, h;
  size_t k = 0;
  int e;
  if (p == NULL || s == NULL || v == NULL) return OC_EINVAL;
  if (s->len == NULL) return verify_bcast_core(p, root, items, s, NULL, NULL, 0, 0, v);
  if ((e = oc_params_check(p)) != OC_OK) return e;
  h = p->L + 2 * p->o;
  oc_sched_init(&x);
  if ((e = oc_sched_packets(s, p->g, &x)) != OC_OK) goto out;
  arr = (int64_t *)malloc((x.n + 1) * sizeof *arr);
  need = (int64_t *)malloc((x.n + 1) * sizeof *need);
  if (arr == NULL || need == NULL) { e = OC_ENOMEM; goto out; }
  for (size_t i = 0; i < s->n; i++) {
    int64_t len = s->len[i] < 1 ? 1 : s->len[i];
    for (int64_t j = 0; j < len; j++, k++) {
      /* the whole long message is usable when its last packet is in, and
       * its sender holds all of it when it starts */
      arr[k] = s->msg[i].t + h + (len - 1) * p->g;
      need[k] = s->msg[i].t;
    }
  }
  e = verify_bcast_core(p, root, items, &x, arr, need, 0, 0, v);
out:
  free(arr);
  free(need);
  oc_sched_free(&x);
  return e;
}

/* Continuous broadcast: item i is created at the root at time i (user
 * units, p->unit model units each); v->time is the largest delay. */
int oc_verify_cbcast(const oc_params *p, int64_t root, int64_t items,
                     const oc_sched *s, oc_verdict *v) {
  if (p == NULL || s == NULL || v == NULL) return OC_EINVAL;
  if (s->len != NULL) return OC_EINVAL; /* one packet per message */
  if (items > OC_TIME_MAX / (p->unit > 0 ? p->unit : 1)) return OC_ERANGE;
  return verify_bcast_core(p, root, items, s, NULL, NULL, p->unit, 0, v);
}

int oc_verify_buffered(const oc_params *p, int64_t root, int64_t items, int continuous,
                       const oc_sched *s, oc_verdict *v) {
  const int64_t *recv_at = s != NULL ? s->recv_at : NULL;
  if (p == NULL || s == NULL || v == NULL || recv_at == NULL) return OC_EINVAL;
  if (s->len != NULL) return OC_EINVAL; /* one packet per message */
  if (p->model != OC_MODEL_POSTAL) return OC_EUNSUP;
  if (items > OC_TIME_MAX / (p->unit > 0 ? p->unit : 1)) return OC_ERANGE;
  for (size_t i = 0; i < s->n; i++)
    if (recv_at[i] < 0 || recv_at[i] > OC_TIME_MAX) return OC_ERANGE;
  return verify_bcast_core(p, root, items, s, recv_at, NULL, continuous ? p->unit : 0, 1, v);
}

