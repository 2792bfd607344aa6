/* oc_sched.c - the schedule: growable arrays of messages, computation
 * events and operand segments. */
#include <stdlib.h>

#include "core/oc_core.h"

void oc_sched_init(oc_sched *s) {
  s->msg = NULL;
  s->n = s->cap = 0;
  s->len = NULL;
  s->op = NULL;
  s->nop = s->opcap = 0;
  s->seg = NULL;
  s->nseg = s->segcap = 0;
}

void oc_sched_free(oc_sched *s) {
  free(s->msg);
  free(s->len);
  free(s->op);
  free(s->seg);
  oc_sched_init(s);
}

int oc_grow(void **arr, size_t n, size_t *cap, size_t sz) {
  size_t nc;
  void *m;
  if (n < *cap) return OC_OK;
  nc = *cap ? *cap + *cap / 2 : 64;
  if (nc > SIZE_MAX / sz) return OC_ENOMEM;
  m = realloc(*arr, nc * sz);
  if (m == NULL) return OC_ENOMEM;
  *arr = m;
  *cap = nc;
  return OC_OK;
}

int oc_sched_push(oc_sched *s, int64_t t, int64_t src, int64_t dst,
                  int64_t item) {
  oc_msg *m;
  size_t cap = s->cap;
  if (oc_grow((void **)&s->msg, s->n, &s->cap, sizeof *s->msg)) return OC_ENOMEM;
  if (s->len != NULL && s->cap != cap) { /* keep the lengths alongside */
    int64_t *nl = (int64_t *)realloc(s->len, s->cap * sizeof *nl);
    if (nl == NULL) return OC_ENOMEM;
    s->len = nl;
  }
  m = &s->msg[s->n];
  m->t = t;
  m->src = src;
  m->dst = dst;
  m->item = item;
  if (s->len != NULL) s->len[s->n] = 1;
  s->n++;
  return OC_OK;
}

int oc_sched_push_long(oc_sched *s, int64_t t, int64_t src, int64_t dst,
                       int64_t item, int64_t len) {
  int e;
  if (len < 1) return OC_EINVAL;
  if (s->len == NULL && len > 1) {
    s->len = (int64_t *)malloc((s->cap ? s->cap : 1) * sizeof *s->len);
    if (s->len == NULL) return OC_ENOMEM;
    for (size_t i = 0; i < s->n; i++) s->len[i] = 1;
  }
  if ((e = oc_sched_push(s, t, src, dst, item)) != OC_OK) return e;
  if (s->len != NULL) s->len[s->n - 1] = len;
  return OC_OK;
}

int oc_sched_packets(const oc_sched *s, int64_t g, oc_sched *out) {
  for (size_t i = 0; i < s->n; i++) {
    int64_t len = s->len ? s->len[i] : 1;
    for (int64_t k = 0; k < len; k++) {
      int e = oc_sched_push(out, s->msg[i].t + k * g, s->msg[i].src, s->msg[i].dst,
                            s->msg[i].item + k);
      if (e) return e;
    }
  }
  return OC_OK;
}

int oc_sched_push_op(oc_sched *s, int64_t t, int64_t proc, oc_op_kind kind,
                     int64_t lo, int64_t mid, int64_t hi) {
  oc_op *o;
  if (oc_grow((void **)&s->op, s->nop, &s->opcap, sizeof *s->op)) return OC_ENOMEM;
  o = &s->op[s->nop++];
  o->t = t;
  o->proc = proc;
  o->lo = lo;
  o->mid = mid;
  o->hi = hi;
  o->kind = (int)kind;
  return OC_OK;
}

int oc_sched_push_seg(oc_sched *s, int64_t proc, int64_t lo, int64_t hi) {
  oc_seg *g;
  if (oc_grow((void **)&s->seg, s->nseg, &s->segcap, sizeof *s->seg)) return OC_ENOMEM;
  g = &s->seg[s->nseg++];
  g->proc = proc;
  g->lo = lo;
  g->hi = hi;
  return OC_OK;
}

int64_t oc_op_cost(const oc_op *op) {
  if (op->kind == OC_OP_LOCAL) return (op->hi - op->mid) - (op->lo == op->mid ? 1 : 0);
  return 1;
}

static int cmp3(int64_t a, int64_t b) { return (a > b) - (a < b); }

static int msg_cmp(const void *x, const void *y) {
  const oc_msg *a = (const oc_msg *)x, *b = (const oc_msg *)y;
  int c = cmp3(a->t, b->t);
  if (c == 0) c = cmp3(a->src, b->src);
  if (c == 0) c = cmp3(a->dst, b->dst);
  if (c == 0) c = cmp3(a->item, b->item);
  return c;
}

void oc_sched_sort(oc_sched *s) { /* long messages: sort their packets */
  if (s->n > 1 && s->len == NULL) qsort(s->msg, s->n, sizeof *s->msg, msg_cmp);
}
