/* oc_verify_rrp.c - checks a reconfigurable-ring schedule against the
 * (N, L)-RRP rules of the contract and against its problem; reads the ring
 * CSV (`time,src,dst,item,dir,line`).
 *
 * Rules checked (oc_rule names):
 *   RANGE     processor, line, direction, item or step out of range; a
 *             message to its own sender
 *   SEND_GAP  two sends started by one processor in one step
 *   RECV_GAP  two receives completed by one processor in one step
 *   OVERLAP   two messages on one line, flying in a common step, whose
 *             segments (closed: sender and receiver included) share a
 *             processor
 *   HELD      the sender cannot send the item at its send step: a
 *             broadcast item it has not received; for combining problems
 *             no value ending at x_item that it can form
 *   MISSING   at the end: a processor without its segment's item, the root
 *             of a block without x_lo..x_hi-1, a processor without its
 *             prefix
 *
 * Knowledge model of the combining problems: processor p starts with the
 * value [p, p]; it can form exactly the concatenations of adjacent values
 * it holds.  A message with item b carries [a, b] for the smallest such a
 * (the longest value the sender can form that ends at x_b); the receiver
 * holds it from the step after the flight.  That is all an associative,
 * non-commutative operator allows, so an accepted schedule computes the
 * result with any such operator.
 *
 * Cost: O(M log M) for M messages, plus the lookups of what a processor
 * can form: O(A log A) per send for A values held by the sender (A <= the
 * steps of the schedule; small for every schedule optcast builds).  Both
 * are capped (RRP_OCC_MAX line pieces, RRP_WORK_MAX value visits, counted
 * in the lookups, the arrivals and the final check); beyond, OC_EUNSUP.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h" /* oc_rrp_spec_check */
#include "verify/oc_verify_int.h"

#define RRP_WORK_MAX ((int64_t)1 << 30) /* lookups, in value visits          */
#define RRP_OCC_MAX ((size_t)1 << 24)   /* line pieces: 16M x 40 bytes      */
#define RRP_STEP_MAX ((int64_t)1 << 40)

typedef struct atom {
  int64_t a, b;
} atom;

typedef struct know {
  atom *v;
  size_t n, cap;
} know;

typedef struct rctx {
  const oc_rrp_spec *sp;
  const oc_rrp_sched *s;
  oc_verdict *v;
  int64_t N;
  know *k;           /* per processor                                   */
  atom *scratch;     /* for lookups                                     */
  size_t scap;
  int64_t work;
} rctx;

static void viol(rctx *c, oc_rule rule, int64_t proc, int64_t at, int64_t item,
                 size_t msg, const char *fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  oc_verdict_violate(c->v, rule, proc, at, item, msg, buf);
}

/* duplicates are kept: they change nothing but the work */
static int know_add(know *k, int64_t a, int64_t b) {
  if (k->n > 0 && k->v[k->n - 1].a == a && k->v[k->n - 1].b == b) return OC_OK;
  if (oc_grow((void **)&k->v, k->n, &k->cap, sizeof *k->v) != OC_OK) return OC_ENOMEM;
  k->v[k->n++] = (atom){a, b};
  return OC_OK;
}

static int atom_by_b(const void *x, const void *y) {
  const atom *p = x, *q = y;
  if (p->b != q->b) return p->b < q->b ? -1 : 1;
  return (p->a > q->a) - (p->a < q->a);
}

/* first index j < i of the sorted values with s[j].b >= b */
static size_t first_end(const atom *s, size_t i, int64_t b) {
  size_t lo = 0, hi = i;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (s[mid].b < b) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* The values processor p holds, sorted by end, in c->scratch; each
 * atom's `a` replaced by the smallest start of a value ending with it. */
static int chains(rctx *c, int64_t p, size_t *n) {
  know *k = &c->k[p];
  atom *s;
  if (k->n > c->scap) {
    atom *m = realloc(c->scratch, k->n * sizeof *m);
    if (m == NULL) return OC_ENOMEM;
    c->scratch = m;
    c->scap = k->n;
  }
  s = c->scratch;
  memcpy(s, k->v, k->n * sizeof *s);
  qsort(s, k->n, sizeof *s, atom_by_b);
  c->work += (int64_t)k->n * 8 + 1;
  for (size_t i = 0; i < k->n; i++) {
    /* values ending at a - 1 come earlier in the order; a is this value's
     * own start (s[i].a is lowered below, in this iteration only) */
    int64_t a = s[i].a;
    size_t j = first_end(s, i, a - 1);
    c->work += (int64_t)(i - j) + 1;
    for (; j < i && s[j].b == a - 1; j++)
      if (s[j].a < s[i].a) s[i].a = s[j].a;
  }
  *n = k->n;
  return OC_OK;
}

/* Smallest a such that p can form [a, b]; -1 if none. */
static int64_t longest(rctx *c, int64_t p, int64_t b, int *err) {
  size_t n;
  int64_t best = -1;
  if ((*err = chains(c, p, &n)) != OC_OK) return -1;
  for (size_t i = 0; i < n; i++)
    if (c->scratch[i].b == b && (best < 0 || c->scratch[i].a < best))
      best = c->scratch[i].a;
  return best;
}

/* Whether p can form exactly [a, b]: a chain of its values from x_a to
 * x_b.  Over the values sorted by end: value i is reachable when it starts
 * at a or follows a reachable value ending just before it. */
static int can_form(rctx *c, int64_t p, int64_t a, int64_t b, int *err) {
  know *k = &c->k[p];
  atom *s;
  unsigned char *ok;
  int found = 0;
  size_t n = k->n;
  *err = OC_OK;
  if (n == 0) return 0;
  s = malloc(n * sizeof *s);
  ok = calloc(n, 1);
  if (s == NULL || ok == NULL) {
    free(s);
    free(ok);
    *err = OC_ENOMEM;
    return 0;
  }
  memcpy(s, k->v, n * sizeof *s);
  qsort(s, n, sizeof *s, atom_by_b);
  c->work += (int64_t)n * 8 + 1;
  for (size_t i = 0; i < n && !found; i++) {
    if (s[i].a == a) {
      ok[i] = 1;
    } else if (s[i].a > a) {
      size_t j = first_end(s, i, s[i].a - 1);
      c->work += (int64_t)(i - j) + 1;
      for (; j < i && s[j].b == s[i].a - 1 && !ok[i]; j++) ok[i] = ok[j];
    }
    if (ok[i] && s[i].b == b) found = 1;
  }
  free(s);
  free(ok);
  return found;
}

static int64_t seg_of(const oc_rrp_spec *sp, int64_t p, int64_t *lo, int64_t *hi) {
  size_t n = sp->seg ? sp->nseg : 1, i = 0;
  if (sp->seg) {
    size_t l = 0, h = n; /* last start <= p */
    while (h - l > 1) {
      size_t m = (l + h) / 2;
      if (sp->seg[m] <= p) l = m;
      else h = m;
    }
    i = l;
  }
  *lo = sp->seg ? sp->seg[i] : 0;
  *hi = (sp->seg && i + 1 < n) ? sp->seg[i + 1] : sp->N;
  return (int64_t)i;
}

static int64_t arrival(const oc_rrp_msg *m, int64_t N) {
  return m->t + oc_rrp_flight(oc_rrp_dist(N, m->src, m->dst, m->dir)) - 1;
}

typedef struct key {
  int64_t k1, k2;
  size_t i;
} key;

static int key_cmp(const void *x, const void *y) {
  const key *p = x, *q = y;
  if (p->k1 != q->k1) return p->k1 < q->k1 ? -1 : 1;
  if (p->k2 != q->k2) return p->k2 < q->k2 ? -1 : 1;
  return (p->i > q->i) - (p->i < q->i);
}

/* a piece of line a message holds in one step: processors lo .. hi */
typedef struct occ {
  int64_t line, step, lo, hi;
  size_t i;
} occ;

static int occ_cmp(const void *x, const void *y) {
  const occ *p = x, *q = y;
  if (p->line != q->line) return p->line < q->line ? -1 : 1;
  if (p->step != q->step) return p->step < q->step ? -1 : 1;
  if (p->lo != q->lo) return p->lo < q->lo ? -1 : 1;
  return (p->i > q->i) - (p->i < q->i);
}

static int check_rules(rctx *c, key *ks) {
  const oc_rrp_sched *s = c->s;
  int64_t N = c->N;
  size_t n = s->n;
  /* sends per step, then receive completions per step */
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0; i < n; i++)
      ks[i] = pass == 0 ? (key){s->msg[i].src, s->msg[i].t, i}
                        : (key){s->msg[i].dst, arrival(&s->msg[i], N), i};
    qsort(ks, n, sizeof *ks, key_cmp);
    for (size_t i = 1; i < n; i++)
      if (ks[i].k1 == ks[i - 1].k1 && ks[i].k2 == ks[i - 1].k2)
        viol(c, pass == 0 ? OC_RULE_SEND_GAP : OC_RULE_RECV_GAP, ks[i].k1, ks[i].k2,
             s->msg[ks[i].i].item, ks[i].i, "processor %lld %s two %s in step %lld",
             (long long)ks[i].k1, pass == 0 ? "starts" : "completes",
             pass == 0 ? "sends" : "receives", (long long)ks[i].k2);
  }
  /* lines: for every line and step the segments in flight, sorted by their
   * first processor (a wrapping segment in two pieces): neighbours must not
   * meet.  Work: the flights' total length. */
  {
    size_t cnt = 0, k = 0;
    occ *o;
    for (size_t i = 0; i < n; i++) {
      const oc_rrp_msg *m = &s->msg[i];
      int64_t d = oc_rrp_dist(N, m->src, m->dst, m->dir);
      int64_t from = m->dir == OC_RRP_CW ? m->src : m->dst;
      cnt += (size_t)(oc_rrp_flight(d) * (from + d >= N ? 2 : 1));
      if (cnt > RRP_OCC_MAX) return OC_EUNSUP;
    }
    c->work += (int64_t)cnt;
    o = malloc((cnt ? cnt : 1) * sizeof *o);
    if (o == NULL) return OC_ENOMEM;
    for (size_t i = 0; i < n; i++) {
      const oc_rrp_msg *m = &s->msg[i];
      int64_t d = oc_rrp_dist(N, m->src, m->dst, m->dir);
      int64_t from = m->dir == OC_RRP_CW ? m->src : m->dst, f = oc_rrp_flight(d);
      for (int64_t t = m->t; t < m->t + f; t++) {
        if (from + d < N) {
          o[k++] = (occ){m->line, t, from, from + d, i};
        } else {
          o[k++] = (occ){m->line, t, from, N - 1, i};
          o[k++] = (occ){m->line, t, 0, from + d - N, i};
        }
      }
    }
    qsort(o, k, sizeof *o, occ_cmp);
    for (size_t j = 1; j < k; j++) {
      const occ *a = &o[j - 1], *b = &o[j];
      const oc_rrp_msg *ma, *mb, *late;
      if (a->line != b->line || a->step != b->step || b->lo > a->hi || a->i == b->i)
        continue;
      ma = &s->msg[a->i];
      mb = &s->msg[b->i];
      late = (mb->t > ma->t || (mb->t == ma->t && b->i > a->i)) ? mb : ma;
      viol(c, OC_RULE_OVERLAP, late->src, late->t, late->item, late == mb ? b->i : a->i,
           "line %lld: %lld->%lld (step %lld) and %lld->%lld (step %lld) share a "
           "processor in flight",
           (long long)ma->line, (long long)ma->src, (long long)ma->dst, (long long)ma->t,
           (long long)mb->src, (long long)mb->dst, (long long)mb->t);
    }
    free(o);
  }
  return OC_OK;
}

static int simulate(rctx *c, key *ks, int64_t *carried) {
  const oc_rrp_sched *s = c->s;
  const oc_rrp_spec *sp = c->sp;
  int64_t N = c->N;
  size_t n = s->n, ai = 0;
  key *arr;
  int combining = sp->problem != OC_RRP_BCAST, e;
  arr = malloc((n ? n : 1) * sizeof *arr);
  if (arr == NULL) return OC_ENOMEM;
  for (size_t i = 0; i < n; i++) arr[i] = (key){arrival(&s->msg[i], N), 0, i};
  qsort(arr, n, sizeof *arr, key_cmp);
  for (size_t i = 0; i < n; i++) ks[i] = (key){s->msg[i].t, 0, i};
  qsort(ks, n, sizeof *ks, key_cmp);
  for (size_t i = 0; i < n; i++) {
    const oc_rrp_msg *m = &s->msg[ks[i].i];
    /* everything that has landed by the end of the previous step */
    while (ai < n && arr[ai].k1 < m->t) {
      size_t j = arr[ai++].i;
      if (carried[j] >= 0) {
        const oc_rrp_msg *q = &s->msg[j];
        e = combining ? know_add(&c->k[q->dst], carried[j], q->item)
                      : know_add(&c->k[q->dst], q->item, q->item);
        if (e != OC_OK) goto out;
      }
      c->work++;
    }
    if (combining) {
      int64_t a = longest(c, m->src, m->item, &e);
      if (e != OC_OK) goto out;
      if (a < 0)
        viol(c, OC_RULE_HELD, m->src, m->t, m->item, ks[i].i,
             "processor %lld sends a value ending at x_%lld in step %lld but "
             "holds none", (long long)m->src, (long long)m->item, (long long)m->t);
      carried[ks[i].i] = a;
    } else {
      int held = 0;
      c->work += (int64_t)c->k[m->src].n;
      for (size_t j = 0; j < c->k[m->src].n && !held; j++)
        held = c->k[m->src].v[j].a == m->item;
      if (!held)
        viol(c, OC_RULE_HELD, m->src, m->t, m->item, ks[i].i,
             "processor %lld sends item %lld in step %lld before it has it",
             (long long)m->src, (long long)m->item, (long long)m->t);
      carried[ks[i].i] = held ? m->item : -1;
    }
    if (c->work > RRP_WORK_MAX) {
      e = OC_EUNSUP;
      goto out;
    }
  }
  while (ai < n) {
    size_t j = arr[ai++].i;
    if (carried[j] >= 0) {
      const oc_rrp_msg *q = &s->msg[j];
      e = combining ? know_add(&c->k[q->dst], carried[j], q->item)
                    : know_add(&c->k[q->dst], q->item, q->item);
      if (e != OC_OK) goto out;
    }
  }
  e = OC_OK;
out:
  free(arr);
  return e;
}

static int check_goal(rctx *c, int64_t last) {
  const oc_rrp_spec *sp = c->sp;
  int e = OC_OK;
  for (int64_t p = 0; p < c->N && e == OC_OK; p++) {
    int64_t lo, hi, segno = seg_of(sp, p, &lo, &hi);
    if (c->work > RRP_WORK_MAX) return OC_EUNSUP;
    c->work += (int64_t)c->k[p].n;
    if (sp->problem == OC_RRP_BCAST) {
      int held = 0;
      for (size_t j = 0; j < c->k[p].n && !held; j++) held = c->k[p].v[j].a == segno;
      if (!held)
        viol(c, OC_RULE_MISSING, p, last + 1, segno, (size_t)-1,
             "processor %lld never receives item %lld", (long long)p, (long long)segno);
    } else if (sp->problem == OC_RRP_SCAN) {
      if (!can_form(c, p, lo, p, &e) && e == OC_OK)
        viol(c, OC_RULE_MISSING, p, last + 1, p, (size_t)-1,
             "processor %lld cannot form its prefix x_%lld..x_%lld", (long long)p,
             (long long)lo, (long long)p);
    } else {
      int64_t root = sp->seg ? lo : sp->root;
      if (p != root) continue;
      if (!can_form(c, p, lo, hi - 1, &e) && e == OC_OK)
        viol(c, OC_RULE_MISSING, p, last + 1, hi - 1, (size_t)-1,
             "root %lld cannot form x_%lld..x_%lld", (long long)p, (long long)lo,
             (long long)(hi - 1));
    }
  }
  return e;
}

int oc_verify_rrp(const oc_rrp_spec *sp, const oc_rrp_sched *s, oc_verdict *v) {
  rctx c;
  key *ks = NULL;
  int64_t *carried = NULL, last = 0, N, nseg;
  int e = OC_OK, range_ok = 1;
  oc_verdict_init(v);
  if (s == NULL) return OC_EINVAL;
  if ((e = oc_rrp_spec_check(sp)) != OC_OK) return e;
  N = sp->N;
  nseg = sp->seg ? (int64_t)sp->nseg : 1;
  memset(&c, 0, sizeof c);
  c.sp = sp;
  c.s = s;
  c.v = v;
  c.N = N;
  for (size_t i = 0; i < s->n; i++) {
    const oc_rrp_msg *m = &s->msg[i];
    int64_t imax = sp->problem == OC_RRP_BCAST ? nseg : N;
    const char *why = NULL;
    if (m->src < 0 || m->src >= N) why = "source";
    else if (m->dst < 0 || m->dst >= N) why = "destination";
    else if (m->src == m->dst) why = "destination (its own sender)";
    else if (m->t < 1 || m->t > RRP_STEP_MAX) why = "step";
    else if (m->line < 0 || m->line >= sp->L) why = "line";
    else if (m->dir != OC_RRP_CW && m->dir != OC_RRP_CCW) why = "direction";
    else if (m->item < 0 || m->item >= imax) why = "item";
    if (why) {
      viol(&c, OC_RULE_RANGE, m->src >= 0 && m->src < N ? m->src : 0,
           m->t, m->item, i, "message %zu: %s out of range", i + 1, why);
      range_ok = 0;
    } else {
      last = oc_max64(last, arrival(m, N));
    }
  }
  if (!range_ok) return OC_OK; /* nothing else is meaningful */
  c.k = calloc((size_t)N, sizeof *c.k);
  ks = malloc((s->n ? s->n : 1) * sizeof *ks);
  carried = malloc((s->n ? s->n : 1) * sizeof *carried);
  if (c.k == NULL || ks == NULL || carried == NULL) {
    e = OC_ENOMEM;
    goto out;
  }
  for (int64_t p = 0; p < N && e == OC_OK; p++) {
    if (sp->problem != OC_RRP_BCAST) {
      e = know_add(&c.k[p], p, p);
    } else {
      int64_t lo, hi, segno = seg_of(sp, p, &lo, &hi);
      int64_t src = sp->seg ? lo : sp->root;
      if (p == src) e = know_add(&c.k[p], segno, segno);
    }
  }
  if (e == OC_OK) e = check_rules(&c, ks);
  if (e == OC_OK) e = simulate(&c, ks, carried);
  if (e == OC_OK) e = check_goal(&c, last);
  if (e == OC_OK && v->ok) v->time = last;
out:
  if (c.k)
    for (int64_t p = 0; p < N; p++) free(c.k[p].v);
  free(c.k);
  free(c.scratch);
  free(ks);
  free(carried);
  return e;
}
