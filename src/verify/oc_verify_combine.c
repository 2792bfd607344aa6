/* oc_verify_combine.c - the verifiers of the combining problems in LogP /
 * postal: reduction and summation, all-to-all, allreduce (circulant and
 * rank order).  The message rules are oc_verify.c's (oc_vcheck_messages).
 *
 * Combining problems (oc_verify_reduce) add: additions are busy time
 * [t, t + cost); OPERAND - the segments partition [0, n) and each processor
 * adds its own operands once, in order; ARRIVAL - a received value is added
 * only after it is usable; FOLD - every addition joins adjacent intervals
 * in order (so non-commutative operators get the serial fold); RESULT - a
 * processor sends its accumulator at most once and only when its additions
 * are done, every received value is added, and the root ends with [0, n).
 * The first violation reported is the one with the smallest time, then
 * the smallest processor, then the rule in the order above (oc_verify.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/oc_verify_int.h"

/* ---- combining problems ----------------------------------------------------- */

typedef struct rstate {
  int64_t lo, hi;  /* accumulator [lo, hi); lo < 0: empty */
  int64_t ready;   /* end of its last addition */
  int sent;
  size_t seg;      /* next own segment (index into the sorted segment list) */
  int64_t cursor;  /* next own operand in that segment */
} rstate;

typedef struct ev { int64_t t, proc; size_t idx; int kind; } ev; /* kind 0 send, +-1 op */

static int ev_cmp(const void *x, const void *y) {
  const ev *a = (const ev *)x, *b = (const ev *)y;
  if (a->t != b->t) return a->t < b->t ? -1 : 1;
  if (a->kind != b->kind) return a->kind - b->kind;
  if (a->proc != b->proc) return a->proc < b->proc ? -1 : 1;
  return (a->idx > b->idx) - (a->idx < b->idx);
}

typedef struct skey { int64_t a, b; size_t idx; } skey; /* sort key */

static int skey_cmp(const void *x, const void *y) {
  const skey *p = (const skey *)x, *q = (const skey *)y;
  if (p->a != q->a) return p->a < q->a ? -1 : 1;
  return (p->b > q->b) - (p->b < q->b);
}

/* Segment indices sorted by (lo) when by_proc = 0, by (proc, lo) else. */
static int seg_order(const oc_sched *s, int by_proc, size_t *out) {
  skey *k = (skey *)malloc((s->nseg + 1) * sizeof *k);
  if (k == NULL) return OC_ENOMEM;
  for (size_t i = 0; i < s->nseg; i++) {
    k[i].a = by_proc ? s->seg[i].proc : s->seg[i].lo;
    k[i].b = by_proc ? s->seg[i].lo : 0;
    k[i].idx = i;
  }
  qsort(k, s->nseg, sizeof *k, skey_cmp);
  for (size_t i = 0; i < s->nseg; i++) out[i] = k[i].idx;
  free(k);
  return OC_OK;
}

static void ivl(char *b, size_t n, int64_t lo, int64_t hi) {
  snprintf(b, n, "[%lld,%lld)", (long long)lo, (long long)hi);
}

int oc_verify_reduce(const oc_params *p, int64_t root, int64_t n,
                     const oc_sched *s, oc_verdict *v) {
  vctx c;
  int64_t P, h;
  unsigned char *bad = NULL, *used = NULL, *opbad = NULL;
  uint32_t *coff = NULL, *inoff = NULL;
  span *cspan = NULL;
  size_t *inidx = NULL, *sorder = NULL, *porder = NULL, *pfirst = NULL;
  int64_t *vlo = NULL, *vhi = NULL;
  rstate *st = NULL;
  ev *evs = NULL;
  size_t nev = 0;
  int e;
  char d[240], b1[64], b2[64];
  if (p == NULL || s == NULL || v == NULL) return OC_EINVAL;
  if ((e = oc_params_check(p)) != OC_OK) return e;
  P = p->P;
  if (P > OC_GLOBAL_PROCS_MAX || root < 0 || root >= P || n < 1 ||
      s->n >= UINT32_MAX || s->nop >= UINT32_MAX)
    return OC_ERANGE;
  oc_verdict_init(v);
  c.p = p;
  c.v = v;
  h = p->L + 2 * p->o;

  bad = (unsigned char *)calloc(s->n + 1, 1);
  used = (unsigned char *)calloc(s->n + 1, 1);
  opbad = (unsigned char *)calloc(s->nop + 1, 1);
  st = (rstate *)malloc((size_t)P * sizeof *st);
  vlo = (int64_t *)malloc((s->n + 1) * sizeof *vlo);
  vhi = (int64_t *)malloc((s->n + 1) * sizeof *vhi);
  evs = (ev *)malloc((s->n + s->nop + 1) * sizeof *evs);
  sorder = (size_t *)malloc((s->nseg + 1) * sizeof *sorder);
  porder = (size_t *)malloc((s->nseg + 1) * sizeof *porder);
  pfirst = (size_t *)malloc(((size_t)P + 1) * sizeof *pfirst);
  inoff = (uint32_t *)calloc((size_t)P + 1, sizeof *inoff);
  inidx = (size_t *)malloc((s->n + 1) * sizeof *inidx);
  if (!bad || !used || !opbad || !st || !vlo || !vhi || !evs ||
      !sorder || !porder || !pfirst || !inoff || !inidx) {
    e = OC_ENOMEM;
    goto done;
  }

  /* additions: range, then per-processor busy spans for the overlap rule */
  for (size_t i = 0; i < s->nop; i++) {
    const oc_op *o = &s->op[i];
    if (o->proc < 0 || o->proc >= P || o->t < 0 || o->t > OC_TIME_MAX ||
        o->kind < OC_OP_LOCAL || o->kind > OC_OP_PREPEND || o->lo < 0 ||
        o->lo > o->mid || o->mid >= o->hi || o->hi > n) {
      opbad[i] = 1;
      snprintf(d, sizeof d, "addition %zu (time %s, kind %d, [%lld,%lld,%lld)) is out of range",
               i, ts(&c, o->t).s, o->kind, (long long)o->lo, (long long)o->mid,
               (long long)o->hi);
      violate(&c, OC_RULE_RANGE, (o->proc >= 0 && o->proc < P) ? o->proc : 0,
              o->t < 0 ? 0 : (o->t > OC_TIME_MAX ? OC_TIME_MAX : o->t), -1,
              (size_t)-1, d);
      continue;
    }
    evs[nev].t = o->t;
    evs[nev].proc = o->proc;
    evs[nev].idx = i;
    /* an addition that costs nothing (starting the accumulator) comes
     * before a send at the same time; others after it */
    evs[nev++].kind = oc_op_cost(o) == 0 ? -1 : 1;
  }
  if ((e = oc_vop_spans(p, s, opbad, &coff, &cspan)) != OC_OK) goto done;
  if ((e = oc_vcheck_messages(&c, s, 1, bad, coff, cspan, NULL)) != OC_OK) goto done;

  /* operands: the segments must partition [0, n) */
  if ((e = seg_order(s, 0, sorder)) != OC_OK || (e = seg_order(s, 1, porder)) != OC_OK)
    goto done;
  {
    int64_t at = 0;
    for (size_t i = 0; i < s->nseg; i++) {
      const oc_seg *g = &s->seg[sorder[i]];
      if (g->proc < 0 || g->proc >= P || g->lo != at || g->hi <= g->lo) {
        snprintf(d, sizeof d, "operand segments do not partition [0,%lld): "
                 "segment [%lld,%lld) at processor %lld where %lld was expected next",
                 (long long)n, (long long)g->lo, (long long)g->hi,
                 (long long)g->proc, (long long)at);
        violate(&c, OC_RULE_OPERAND, (g->proc >= 0 && g->proc < P) ? g->proc : 0, 0,
                -1, (size_t)-1, d);
        goto finish;
      }
      at = g->hi;
    }
    if (at != n) {
      snprintf(d, sizeof d, "operand segments cover [0,%lld), not [0,%lld)",
               (long long)at, (long long)n);
      violate(&c, OC_RULE_OPERAND, root, 0, -1, (size_t)-1, d);
      goto finish;
    }
  }
  for (int64_t q = 0; q <= P; q++) pfirst[q] = s->nseg;
  for (size_t i = s->nseg; i-- > 0;) pfirst[s->seg[porder[i]].proc] = i;
  for (int64_t q = 0; q < P; q++) {
    st[q].lo = st[q].hi = -1;
    st[q].ready = 0;
    st[q].sent = 0;
    st[q].seg = pfirst[q];
    st[q].cursor = pfirst[q] < s->nseg ? s->seg[porder[pfirst[q]]].lo : 0;
  }

  /* incoming messages by destination */
  for (size_t i = 0; i < s->n; i++) {
    vlo[i] = vhi[i] = -1;
    if (!bad[i]) {
      inoff[s->msg[i].dst + 1]++;
      evs[nev].t = s->msg[i].t;
      evs[nev].proc = s->msg[i].src;
      evs[nev].idx = i;
      evs[nev++].kind = 0;
    }
  }
  for (int64_t q = 0; q < P; q++) inoff[q + 1] += inoff[q];
  {
    uint32_t *fill = (uint32_t *)malloc(((size_t)P + 1) * sizeof *fill);
    if (fill == NULL) { e = OC_ENOMEM; goto done; }
    memcpy(fill, inoff, ((size_t)P + 1) * sizeof *fill);
    for (size_t i = 0; i < s->n; i++)
      if (!bad[i]) inidx[fill[s->msg[i].dst]++] = i;
    free(fill);
  }

  /* simulate in time order: sends before additions at the same time */
  qsort(evs, nev, sizeof *evs, ev_cmp);
  for (size_t k = 0; k < nev; k++) {
    const ev *x = &evs[k];
    rstate *r = &st[x->proc];
    if (x->kind == 0) {
      size_t i = x->idx;
      if (r->sent) {
        snprintf(d, sizeof d, "sends at %s but already sent its value", ts(&c, x->t).s);
        violate(&c, OC_RULE_RESULT, x->proc, x->t, -1, i, d);
        continue;
      }
      if (r->lo < 0) {
        snprintf(d, sizeof d, "sends at %s but holds no value", ts(&c, x->t).s);
        violate(&c, OC_RULE_HELD, x->proc, x->t, -1, i, d);
        continue;
      }
      if (r->ready > x->t) {
        snprintf(d, sizeof d, "sends at %s before its last addition ends at %s",
                 ts(&c, x->t).s, ts(&c, r->ready).s);
        violate(&c, OC_RULE_HELD, x->proc, x->t, -1, i, d);
        continue;
      }
      vlo[i] = r->lo;
      vhi[i] = r->hi;
      r->lo = r->hi = -1;
      r->sent = 1;
    } else {
      const oc_op *o = &s->op[x->idx];
      if (r->sent) {
        snprintf(d, sizeof d, "adds at %s after it sent its value", ts(&c, o->t).s);
        violate(&c, OC_RULE_RESULT, o->proc, o->t, -1, (size_t)-1, d);
        continue;
      }
      if (o->kind == OC_OP_LOCAL) {
        const oc_seg *g = r->seg < s->nseg ? &s->seg[porder[r->seg]] : NULL;
        if (g == NULL || g->proc != o->proc || o->mid != r->cursor || o->hi > g->hi) {
          ivl(b1, sizeof b1, o->mid, o->hi);
          if (g != NULL && g->proc == o->proc)
            snprintf(d, sizeof d, "adds own operands %s at %s but its next unused operand is %lld",
                     b1, ts(&c, o->t).s, (long long)r->cursor);
          else
            snprintf(d, sizeof d, "adds operands %s at %s that it does not hold (or already used)",
                     b1, ts(&c, o->t).s);
          violate(&c, OC_RULE_OPERAND, o->proc, o->t, -1, (size_t)-1, d);
          continue;
        }
        if ((r->lo < 0 && o->lo != o->mid) || (r->lo >= 0 && (r->lo != o->lo || r->hi != o->mid))) {
          ivl(b1, sizeof b1, o->lo, o->mid);
          ivl(b2, sizeof b2, r->lo, r->hi);
          snprintf(d, sizeof d, "adds to %s at %s but its accumulator is %s",
                   b1, ts(&c, o->t).s, r->lo < 0 ? "empty" : b2);
          violate(&c, OC_RULE_FOLD, o->proc, o->t, -1, (size_t)-1, d);
          continue;
        }
        if (r->lo < 0) r->lo = o->mid;
        r->hi = o->hi;
        r->cursor = o->hi;
        if (r->cursor == g->hi) {
          r->seg++;
          if (r->seg < s->nseg && s->seg[porder[r->seg]].proc == o->proc)
            r->cursor = s->seg[porder[r->seg]].lo;
        }
      } else {
        int app = o->kind == OC_OP_APPEND;
        int64_t blo = app ? o->mid : o->lo, bhi = app ? o->hi : o->mid;
        int64_t alo = app ? o->lo : o->mid, ahi = app ? o->mid : o->hi;
        size_t found = (size_t)-1, late = (size_t)-1;
        for (uint32_t j = inoff[o->proc]; j < inoff[o->proc + 1]; j++) {
          size_t mi = inidx[j];
          if (used[mi] || vlo[mi] != blo || vhi[mi] != bhi) continue;
          if (s->msg[mi].t + h <= o->t) { found = mi; break; }
          late = mi;
        }
        if (found == (size_t)-1) {
          ivl(b1, sizeof b1, blo, bhi);
          if (late != (size_t)-1)
            snprintf(d, sizeof d, "adds the value %s at %s but it is usable only from %s",
                     b1, ts(&c, o->t).s, ts(&c, s->msg[late].t + h).s);
          else
            snprintf(d, sizeof d, "adds the value %s at %s but has not received it",
                     b1, ts(&c, o->t).s);
          violate(&c, OC_RULE_ARRIVAL, o->proc, o->t, -1, (size_t)-1, d);
          continue;
        }
        if (r->lo != alo || r->hi != ahi) {
          ivl(b1, sizeof b1, alo, ahi);
          ivl(b2, sizeof b2, r->lo, r->hi);
          snprintf(d, sizeof d, "%s a value next to %s at %s but its accumulator is %s",
                   app ? "appends" : "prepends", b1, ts(&c, o->t).s,
                   r->lo < 0 ? "empty" : b2);
          violate(&c, OC_RULE_FOLD, o->proc, o->t, -1, (size_t)-1, d);
          continue;
        }
        used[found] = 1;
        r->lo = o->lo;
        r->hi = o->hi;
      }
      r->ready = o->t + oc_op_cost(o) * p->unit;
    }
  }

  /* the end */
  for (int64_t q = 0; q < P; q++) {
    const rstate *r = &st[q];
    if (r->seg < s->nseg && s->seg[porder[r->seg]].proc == q) {
      snprintf(d, sizeof d, "never adds its operands from %lld on", (long long)r->cursor);
      violate(&c, OC_RULE_OPERAND, q, OC_AT_END, -1, (size_t)-1, d);
    }
    if (q != root && r->lo >= 0) {
      ivl(b1, sizeof b1, r->lo, r->hi);
      snprintf(d, sizeof d, "holds %s at the end but never sends it", b1);
      violate(&c, OC_RULE_RESULT, q, OC_AT_END, -1, (size_t)-1, d);
    }
  }
  for (size_t i = 0; i < s->n; i++) {
    if (!bad[i] && !used[i]) {
      snprintf(d, sizeof d, "the value sent to it by %lld at %s is never added",
               (long long)s->msg[i].src, ts(&c, s->msg[i].t).s);
      violate(&c, OC_RULE_RESULT, s->msg[i].dst, OC_AT_END, -1, i, d);
    }
  }
  if (st[root].lo != 0 || st[root].hi != n) {
    ivl(b1, sizeof b1, st[root].lo, st[root].hi);
    snprintf(d, sizeof d, "the root ends with %s, not [0,%lld)",
             st[root].lo < 0 ? "nothing" : b1, (long long)n);
    violate(&c, OC_RULE_RESULT, root, OC_AT_END, -1, (size_t)-1, d);
  }
  v->time = st[root].ready;
finish:
  e = OC_OK;
done:
  free(bad);
  free(used);
  free(opbad);
  free(coff);
  free(cspan);
  free(st);
  free(vlo);
  free(vhi);
  free(evs);
  free(sorder);
  free(porder);
  free(pfirst);
  free(inoff);
  free(inidx);
  return e;
}

/* ---- all-to-all ------------------------------------------------------------- */

typedef struct rcpt { int64_t dst, item, arr; } rcpt;

static int rcpt_cmp(const void *x, const void *y) {
  const rcpt *a = (const rcpt *)x, *b = (const rcpt *)y;
  if (a->dst != b->dst) return a->dst < b->dst ? -1 : 1;
  if (a->item != b->item) return a->item < b->item ? -1 : 1;
  return (a->arr > b->arr) - (a->arr < b->arr);
}

/* earliest arrival of item at q, INT64_MAX if never */
static int64_t rcpt_find(const rcpt *r, size_t n, int64_t q, int64_t item) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (r[mid].dst < q || (r[mid].dst == q && r[mid].item < item)) lo = mid + 1;
    else hi = mid;
  }
  return (lo < n && r[lo].dst == q && r[lo].item == item) ? r[lo].arr : INT64_MAX;
}

int oc_verify_alltoall(const oc_params *p, int64_t k, int personalized,
                       const oc_sched *s, oc_verdict *v) {
  vctx c;
  int64_t P, h, items;
  unsigned char *bad = NULL;
  rcpt *r = NULL;
  size_t nr = 0;
  int e;
  char d[240];
  if (p == NULL || s == NULL || v == NULL) return OC_EINVAL;
  if ((e = oc_params_check(p)) != OC_OK) return e;
  P = p->P;
  if (k < 1 || P > OC_GLOBAL_PROCS_MAX || k > OC_GLOBAL_PROCS_MAX / P ||
      (personalized && P > OC_GLOBAL_PROCS_MAX / (P * k)) || s->n >= UINT32_MAX)
    return OC_ERANGE;
  items = personalized ? P * P * k : P * k;
  oc_verdict_init(v);
  c.p = p;
  c.v = v;
  h = p->L + 2 * p->o;
  bad = (unsigned char *)calloc(s->n + 1, 1);
  r = (rcpt *)malloc((s->n + 1) * sizeof *r);
  if (bad == NULL || r == NULL) { e = OC_ENOMEM; goto done; }
  if ((e = oc_vcheck_messages(&c, s, items, bad, NULL, NULL, NULL)) != OC_OK) goto done;
  for (size_t i = 0; i < s->n; i++) {
    if (bad[i]) continue;
    r[nr].dst = s->msg[i].dst;
    r[nr].item = s->msg[i].item;
    r[nr++].arr = s->msg[i].t + h;
  }
  qsort(r, nr, sizeof *r, rcpt_cmp);
  for (size_t i = 0; i < s->n; i++) { /* HELD */
    const oc_msg *m = &s->msg[i];
    int64_t origin, have;
    if (bad[i]) continue;
    origin = personalized ? (m->item / k) / P : m->item / k;
    if (m->src == origin) continue;
    have = rcpt_find(r, nr, m->src, m->item);
    if (have > m->t) {
      snprintf(d, sizeof d, "sends item %lld at %s but %s", (long long)m->item,
               ts(&c, m->t).s, have == INT64_MAX ? "never holds it" : "holds it later");
      violate(&c, OC_RULE_HELD, m->src, m->t, m->item, i, d);
    }
  }
  { /* coverage */
    int64_t done_at = 0;
    for (int64_t q = 0; q < P; q++) {
      for (int64_t src = 0; src < P; src++) {
        if (src == q) continue;
        for (int64_t j = 0; j < k; j++) {
          int64_t item = personalized ? (src * P + q) * k + j : src * k + j;
          int64_t a = rcpt_find(r, nr, q, item);
          if (a == INT64_MAX) {
            snprintf(d, sizeof d, "never receives item %lld (from %lld)",
                     (long long)item, (long long)src);
            violate(&c, OC_RULE_MISSING, q, OC_AT_END, item, (size_t)-1, d);
          } else if (a > done_at) {
            done_at = a;
          }
        }
      }
    }
    v->time = done_at;
  }
  e = OC_OK;
done:
  free(bad);
  free(r);
  return e;
}

/* ---- allreduce (commutative, circulant windows) ------------------------------ */

typedef struct win { int64_t end, len, ready; } win; /* x[end-len+1 .. end] mod P */

typedef struct aproc {
  win *h;            /* history: h[0] own value, h[k] after k additions */
  size_t nh, cap;
  size_t next;       /* next arrival (index into its sorted arrivals) */
  int64_t free_at;   /* end of its last addition */
  uint32_t sp, rp;   /* first send / reception overhead not yet behind it */
} aproc;

typedef struct amsg { int64_t arr; size_t i; } amsg;

static int amsg_cmp(const void *x, const void *y) {
  const amsg *a = (const amsg *)x, *b = (const amsg *)y;
  if (a->arr != b->arr) return a->arr < b->arr ? -1 : 1;
  return (a->i > b->i) - (a->i < b->i);
}

typedef struct actx {
  vctx *c;
  const oc_sched *s;
  aproc *pr;
  uint32_t *aoff, *soff; /* arrivals and send starts by processor */
  amsg *arr;
  int64_t *sendt;
  win *val;              /* value carried by each message */
  unsigned char *known;  /* val[] computed */
  int64_t P, a, o;
} actx;

/* earliest t >= t0 with [t, t + a) free of q's send and receive overheads;
 * t0 never decreases for a processor, so the overheads already behind it
 * are skipped for good (amortised O(1)) */
static int64_t afit(actx *x, int64_t q, int64_t t0) {
  aproc *r = &x->pr[q];
  int64_t t = t0;
  int moved = 1;
  if (x->o == 0) return t0; /* no overheads to avoid */
  while (moved) {
    moved = 0;
    while (x->soff[q] + r->sp < x->soff[q + 1] && x->sendt[x->soff[q] + r->sp] + x->o <= t) r->sp++;
    while (x->aoff[q] + r->rp < x->aoff[q + 1] && x->arr[x->aoff[q] + r->rp].arr <= t) r->rp++;
    if (x->soff[q] + r->sp < x->soff[q + 1]) {
      int64_t s0 = x->sendt[x->soff[q] + r->sp];
      if (s0 < t + x->a && t < s0 + x->o) { t = s0 + x->o; moved = 1; }
    }
    if (x->aoff[q] + r->rp < x->aoff[q + 1]) {
      int64_t r0 = x->arr[x->aoff[q] + r->rp].arr - x->o;
      if (r0 < t + x->a && t < r0 + x->o) { t = r0 + x->o; moved = 1; }
    }
  }
  return t;
}

/* Adds q's next arrival to its history; 0 when it cannot (value unknown). */
static int astep(actx *x, int64_t q) {
  aproc *r = &x->pr[q];
  const amsg *m = &x->arr[x->aoff[q] + r->next];
  const win *cur = &r->h[r->nh - 1], *in;
  win nw;
  char d[240];
  if (!x->known[m->i]) return 0;
  in = &x->val[m->i];
  nw.ready = afit(x, q, oc_max64(m->arr, r->free_at)) + x->a;
  r->free_at = nw.ready;
  r->next++;
  nw.end = cur->end;
  nw.len = cur->len + in->len;
  if (((cur->end - cur->len) % x->P + x->P) % x->P != ((in->end % x->P) + x->P) % x->P ||
      nw.len > x->P) {
    snprintf(d, sizeof d, "adds a partial result of %lld values ending at %lld to its window of "
             "%lld values ending at %lld: not adjacent, or more than P values",
             (long long)in->len, (long long)in->end, (long long)cur->len, (long long)cur->end);
    violate(x->c, OC_RULE_FOLD, q, nw.ready - x->a, -1, m->i, d);
    nw.len = cur->len; /* keep going with the old window */
  }
  if (r->nh == r->cap) {
    size_t nc = r->cap ? 2 * r->cap : 8;
    win *nh = (win *)realloc(r->h, nc * sizeof *nh);
    if (nh == NULL) return -1;
    r->h = nh;
    r->cap = nc;
  }
  r->h[r->nh++] = nw;
  return 1;
}

int oc_verify_allreduce(const oc_params *p, const oc_sched *s, oc_verdict *v) {
  vctx c;
  actx x;
  unsigned char *bad = NULL;
  int e;
  char d[240];
  if (p == NULL || s == NULL || v == NULL) return OC_EINVAL;
  if ((e = oc_params_check(p)) != OC_OK) return e;
  if (p->P > OC_GLOBAL_PROCS_MAX || s->n >= UINT32_MAX) return OC_ERANGE;
  oc_verdict_init(v);
  c.p = p;
  c.v = v;
  memset(&x, 0, sizeof x);
  x.c = &c;
  x.s = s;
  x.P = p->P;
  x.a = p->unit;
  x.o = p->o;
  bad = (unsigned char *)calloc(s->n + 1, 1);
  x.pr = (aproc *)calloc((size_t)x.P, sizeof *x.pr);
  x.aoff = (uint32_t *)calloc((size_t)x.P + 1, sizeof *x.aoff);
  x.soff = (uint32_t *)calloc((size_t)x.P + 1, sizeof *x.soff);
  x.arr = (amsg *)malloc((s->n + 1) * sizeof *x.arr);
  x.sendt = (int64_t *)malloc((s->n + 1) * sizeof *x.sendt);
  x.val = (win *)malloc((s->n + 1) * sizeof *x.val);
  x.known = (unsigned char *)calloc(s->n + 1, 1);
  if (!bad || !x.pr || !x.aoff || !x.soff || !x.arr || !x.sendt || !x.val || !x.known) {
    e = OC_ENOMEM;
    goto done;
  }
  if ((e = oc_vcheck_messages(&c, s, OC_TIME_MAX, bad, NULL, NULL, NULL)) != OC_OK) goto done;
  for (size_t i = 0; i < s->n; i++)
    if (!bad[i]) { x.aoff[s->msg[i].dst + 1]++; x.soff[s->msg[i].src + 1]++; }
  for (int64_t q = 0; q < x.P; q++) { x.aoff[q + 1] += x.aoff[q]; x.soff[q + 1] += x.soff[q]; }
  {
    uint32_t *fa = (uint32_t *)malloc(((size_t)x.P + 1) * sizeof *fa);
    uint32_t *fs = (uint32_t *)malloc(((size_t)x.P + 1) * sizeof *fs);
    if (fa == NULL || fs == NULL) { free(fa); free(fs); e = OC_ENOMEM; goto done; }
    memcpy(fa, x.aoff, ((size_t)x.P + 1) * sizeof *fa);
    memcpy(fs, x.soff, ((size_t)x.P + 1) * sizeof *fs);
    for (size_t i = 0; i < s->n; i++) {
      if (bad[i]) continue;
      x.arr[fa[s->msg[i].dst]].arr = s->msg[i].t + p->L + 2 * p->o;
      x.arr[fa[s->msg[i].dst]++].i = i;
      x.sendt[fs[s->msg[i].src]++] = s->msg[i].t;
    }
    free(fa);
    free(fs);
  }
  for (int64_t q = 0; q < x.P; q++) {
    qsort(x.arr + x.aoff[q], x.aoff[q + 1] - x.aoff[q], sizeof *x.arr, amsg_cmp);
    oc_vsort_i64(x.sendt + x.soff[q], x.soff[q + 1] - x.soff[q]);
    x.pr[q].h = (win *)malloc(8 * sizeof(win));
    if (x.pr[q].h == NULL) { e = OC_ENOMEM; goto done; }
    x.pr[q].cap = 8;
    x.pr[q].nh = 1;
    x.pr[q].h[0].end = q;
    x.pr[q].h[0].len = 1;
    x.pr[q].h[0].ready = 0;
  }
  /* sends in time order: the carried partial result must be finished */
  {
    amsg *ord = (amsg *)malloc((s->n + 1) * sizeof *ord);
    size_t no = 0;
    if (ord == NULL) { e = OC_ENOMEM; goto done; }
    for (size_t i = 0; i < s->n; i++)
      if (!bad[i]) { ord[no].arr = s->msg[i].t; ord[no++].i = i; }
    qsort(ord, no, sizeof *ord, amsg_cmp);
    for (size_t k = 0; k < no; k++) {
      const oc_msg *m = &s->msg[ord[k].i];
      aproc *r = &x.pr[m->src];
      /* finish the additions this processor can make before m->t */
      while ((int64_t)r->nh <= m->item && r->next < x.aoff[m->src + 1] - x.aoff[m->src]) {
        int st = astep(&x, m->src);
        if (st < 0) { free(ord); e = OC_ENOMEM; goto done; }
        if (st == 0) break;
      }
      if ((int64_t)r->nh <= m->item || r->h[m->item].ready > m->t) {
        snprintf(d, sizeof d, "sends partial result %lld at %s but %s", (long long)m->item,
                 ts(&c, m->t).s, (int64_t)r->nh <= m->item ? "never has it" : "has it later");
        violate(&c, OC_RULE_HELD, m->src, m->t, m->item, ord[k].i, d);
        continue;
      }
      x.val[ord[k].i] = r->h[m->item];
      x.known[ord[k].i] = 1;
    }
    free(ord);
  }
  /* every processor adds what is left, then must hold all P values */
  {
    int64_t done_at = 0;
    for (int64_t q = 0; q < x.P; q++) {
      aproc *r = &x.pr[q];
      int64_t full = -1;
      while (r->next < x.aoff[q + 1] - x.aoff[q]) {
        int st = astep(&x, q);
        if (st < 0) { e = OC_ENOMEM; goto done; }
        if (st == 0) r->next++; /* a value never sent correctly */
      }
      for (size_t k = 0; k < r->nh && full < 0; k++)
        if (r->h[k].len == x.P) full = r->h[k].ready;
      if (full < 0) {
        snprintf(d, sizeof d, "ends with %lld of the %lld values",
                 (long long)r->h[r->nh - 1].len, (long long)x.P);
        violate(&c, OC_RULE_MISSING, q, OC_AT_END, -1, (size_t)-1, d);
      } else if (full > done_at) {
        done_at = full;
      }
    }
    v->time = done_at;
  }
  e = OC_OK;
done:
  if (x.pr)
    for (int64_t q = 0; q < x.P; q++) free(x.pr[q].h);
  free(bad);
  free(x.pr);
  free(x.aoff);
  free(x.soff);
  free(x.arr);
  free(x.sendt);
  free(x.val);
  free(x.known);
  return e;
}

int oc_verify_allreduce_ordered(const oc_params *p, const oc_sched *s,
                                oc_verdict *v) {
  oc_sched a, b;
  oc_verdict va, vb, vm;
  int64_t T1;
  int e;
  if (p == NULL || s == NULL || v == NULL) return OC_EINVAL;
  oc_sched_init(&a);
  oc_sched_init(&b);
  /* phase 1: the reduction (item 0) with all the additions */
  a.op = s->op;
  a.nop = s->nop;
  a.seg = s->seg;
  a.nseg = s->nseg;
  for (size_t i = 0; i < s->n; i++) {
    const oc_msg *m = &s->msg[i];
    e = oc_sched_push(m->item == 0 ? &a : &b, m->t, m->src, m->dst, 0);
    if (e) goto out;
  }
  if ((e = oc_verify_reduce(p, 0, p->P, &a, &va)) != OC_OK) goto out;
  T1 = va.time;
  /* phase 2: the broadcast from rank 0, which holds the result from T1 */
  for (size_t i = 0; i < b.n; i++) b.msg[i].t -= T1;
  if ((e = oc_verify_bcast(p, 0, 1, &b, &vb)) != OC_OK) goto out;
  for (size_t i = 0; i < b.n; i++) b.msg[i].t += T1;
  if (!vb.ok && vb.at <= OC_TIME_MAX) vb.at += T1;
  /* both phases together: gaps, overlaps, capacity (items 0 and 1) */
  {
    vctx c;
    unsigned char *bad = (unsigned char *)calloc(s->n + 1, 1);
    unsigned char *opbad = (unsigned char *)calloc(s->nop + 1, 1);
    uint32_t *coff = NULL;
    span *cs = NULL;
    oc_verdict_init(&vm);
    c.p = p;
    c.v = &vm;
    if (bad == NULL || opbad == NULL) { free(bad); free(opbad); e = OC_ENOMEM; goto out; }
    for (size_t i = 0; i < s->nop; i++)
      opbad[i] = s->op[i].proc < 0 || s->op[i].proc >= p->P;
    e = oc_vop_spans(p, s, opbad, &coff, &cs);
    if (e == OC_OK) e = oc_vcheck_messages(&c, s, 2, bad, coff, cs, NULL);
    free(bad);
    free(opbad);
    free(coff);
    free(cs);
    if (e) goto out;
  }
  /* the earliest of the three verdicts */
  *v = va;
  if (!vb.ok && (v->ok || vb.at < v->at)) *v = vb;
  if (!vm.ok && (v->ok || vm.at < v->at)) *v = vm;
  v->time = vb.ok ? T1 + vb.time : T1;
  if (v->ok) v->time = T1 + vb.time;
  e = OC_OK;
out:
  a.op = NULL;
  a.seg = NULL;
  oc_sched_free(&a);
  oc_sched_free(&b);
  return e;
}
