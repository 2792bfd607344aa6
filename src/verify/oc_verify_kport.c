/* oc_verify_kport.c - the k-port model's verifier (docs/MODEL.md, "k-port").
 *
 * Written apart from the generators (oc_kport.c): it knows only the rules.
 * A message (t, p, q, i) is sent by p in round t and arrives at q at the
 * end of round t; q may send item i from round t + 1 on.  Rules:
 *   RANGE    0 <= p, q < n, p != q, 0 <= i < m, 1 <= t <= 2^40
 *   HELD     p is the root or got item i in a round before t
 *   CAP_OUT  p sends at most k messages in round t, no two to one processor
 *   CAP_IN   q receives at most k messages in round t, no two from one
 *            processor
 *   MISSING  every processor gets every item
 * The first violation reported has the smallest round, then processor, then
 * rule in this order.  Cost: O(M log M + n m) time, 4 n m + 8 M bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/oc_verify_int.h"

#define KP_ROUND_MAX ((int64_t)1 << 40)
#define KP_NEVER INT64_MAX

typedef struct kp_sort {
  const oc_msg *msg;
  int by_dst;
} kp_sort;

/* qsort has no context argument: sort indices with a small merge sort. */
static int kp_before(const kp_sort *c, size_t a, size_t b) {
  const oc_msg *x = &c->msg[a], *y = &c->msg[b];
  int64_t x1 = c->by_dst ? x->dst : x->src, y1 = c->by_dst ? y->dst : y->src;
  int64_t x2 = c->by_dst ? x->src : x->dst, y2 = c->by_dst ? y->src : y->dst;
  if (x->t != y->t) return x->t < y->t;
  if (x1 != y1) return x1 < y1;
  if (x2 != y2) return x2 < y2;
  return a < b;
}

static void kp_msort(const kp_sort *c, size_t *a, size_t *tmp, size_t n) {
  size_t h, i, j, k;
  if (n < 2) return;
  h = n / 2;
  kp_msort(c, a, tmp, h);
  kp_msort(c, a + h, tmp, n - h);
  i = 0; j = h; k = 0;
  while (i < h && j < n) tmp[k++] = kp_before(c, a[j], a[i]) ? a[j++] : a[i++];
  while (i < h) tmp[k++] = a[i++];
  while (j < n) tmp[k++] = a[j++];
  memcpy(a, tmp, n * sizeof *a);
}

/* One side of the port rules: runs of equal (round, processor). */
static void kp_ports(const oc_sched *s, int64_t k, int by_dst, size_t *idx,
                     oc_verdict *v) {
  size_t i = 0, n = s->n;
  char d[160];
  while (i < n) {
    const oc_msg *a = &s->msg[idx[i]];
    int64_t who = by_dst ? a->dst : a->src;
    size_t j = i + 1;
    while (j < n && s->msg[idx[j]].t == a->t &&
           (by_dst ? s->msg[idx[j]].dst : s->msg[idx[j]].src) == who) {
      const oc_msg *b = &s->msg[idx[j - 1]], *c = &s->msg[idx[j]];
      int64_t pb = by_dst ? b->src : b->dst, pc = by_dst ? c->src : c->dst;
      if (pb == pc) {
        snprintf(d, sizeof d, "two messages %s processor %lld in round %lld",
                 by_dst ? "from" : "to", (long long)pc, (long long)a->t);
        oc_verdict_violate(v, by_dst ? OC_RULE_CAP_IN : OC_RULE_CAP_OUT, who,
                           a->t, c->item, idx[j], d);
      }
      j++;
    }
    if ((int64_t)(j - i) > k) {
      snprintf(d, sizeof d, "%s %lld messages in round %lld (k = %lld)",
               by_dst ? "receives" : "sends", (long long)(j - i),
               (long long)a->t, (long long)k);
      oc_verdict_violate(v, by_dst ? OC_RULE_CAP_IN : OC_RULE_CAP_OUT, who,
                         a->t, -1, idx[i], d);
    }
    i = j;
  }
}

int oc_verify_kport(int64_t n, int64_t k, int64_t m, int64_t root,
                    const oc_sched *s, oc_verdict *v) {
  int64_t *arr = NULL, done = 0;
  size_t *idx = NULL, *tmp = NULL, i;
  kp_sort c;
  char d[160];
  if (v == NULL || s == NULL || n < 1 || n > OC_PROCS_MAX || k < 1 ||
      k > OC_PARAM_MAX || m < 1 || m > OC_KPORT_ITEMS_MAX || root < 0 ||
      root >= n)
    return OC_EINVAL;
  if (n > OC_KPORT_PLAN_MAX / m) return OC_ERANGE;
  oc_verdict_init(v);
  arr = (int64_t *)malloc((size_t)(n * m) * sizeof *arr);
  idx = (size_t *)malloc((s->n ? s->n : 1) * sizeof *idx);
  tmp = (size_t *)malloc((s->n ? s->n : 1) * sizeof *tmp);
  if (arr == NULL || idx == NULL || tmp == NULL) {
    free(arr); free(idx); free(tmp);
    return OC_ENOMEM;
  }
  for (int64_t x = 0; x < n * m; x++) arr[x] = KP_NEVER;
  for (int64_t x = 0; x < m; x++) arr[root * m + x] = 0;
  /* RANGE, and the round each processor first gets each item */
  for (i = 0; i < s->n; i++) {
    const oc_msg *a = &s->msg[i];
    int bad = a->t < 1 || a->t > KP_ROUND_MAX || a->src < 0 || a->src >= n ||
              a->dst < 0 || a->dst >= n || a->src == a->dst || a->item < 0 ||
              a->item >= m;
    if (bad) {
      snprintf(d, sizeof d,
               "message %zu (round %lld, %lld -> %lld, item %lld) out of range "
               "(n = %lld, m = %lld, rounds from 1)",
               i, (long long)a->t, (long long)a->src, (long long)a->dst,
               (long long)a->item, (long long)n, (long long)m);
      oc_verdict_violate(v, OC_RULE_RANGE,
                         a->src >= 0 && a->src < n ? a->src : 0,
                         a->t >= 1 && a->t <= KP_ROUND_MAX ? a->t : 0, a->item,
                         i, d);
      continue;
    }
    if (a->t < arr[a->dst * m + a->item]) arr[a->dst * m + a->item] = a->t;
  }
  if (!v->ok) goto out; /* a range error makes the rest meaningless */
  /* HELD: well founded, as an arrival in round t is usable from t + 1 */
  for (i = 0; i < s->n; i++) {
    const oc_msg *a = &s->msg[i];
    if (arr[a->src * m + a->item] >= a->t) {
      snprintf(d, sizeof d, "sends item %lld to %lld in round %lld before holding it",
               (long long)a->item, (long long)a->dst, (long long)a->t);
      oc_verdict_violate(v, OC_RULE_HELD, a->src, a->t, a->item, i, d);
    }
  }
  /* ports */
  for (i = 0; i < s->n; i++) idx[i] = i;
  c.msg = s->msg;
  c.by_dst = 0;
  kp_msort(&c, idx, tmp, s->n);
  kp_ports(s, k, 0, idx, v);
  c.by_dst = 1;
  kp_msort(&c, idx, tmp, s->n);
  kp_ports(s, k, 1, idx, v);
  /* MISSING, and the completion round */
  for (int64_t q = 0; q < n; q++)
    for (int64_t x = 0; x < m; x++) {
      int64_t t = arr[q * m + x];
      if (t == KP_NEVER) {
        snprintf(d, sizeof d, "processor %lld never gets item %lld", (long long)q,
                 (long long)x);
        oc_verdict_violate(v, OC_RULE_MISSING, q, OC_AT_END, x,
                           (size_t)-1, d);
        x = m; /* one report per processor is enough */
      } else if (t > done) {
        done = t;
      }
    }
  if (v->ok) v->time = done;
out:
  free(arr);
  free(idx);
  free(tmp);
  return OC_OK;
}
