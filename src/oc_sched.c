/* oc_sched.c - the schedule: a growable array of messages. */
#include <stdlib.h>

#include "oc_internal.h"

void oc_sched_init(oc_sched *s) {
  s->msg = NULL;
  s->n = 0;
  s->cap = 0;
}

void oc_sched_free(oc_sched *s) {
  free(s->msg);
  oc_sched_init(s);
}

int oc_sched_push(oc_sched *s, int64_t t, int64_t src, int64_t dst,
                  int64_t item) {
  if (s->n == s->cap) {
    size_t nc = s->cap ? s->cap + s->cap / 2 : 64;
    oc_msg *m;
    if (nc > SIZE_MAX / sizeof *m) return OC_ENOMEM;
    m = (oc_msg *)realloc(s->msg, nc * sizeof *m);
    if (m == NULL) return OC_ENOMEM;
    s->msg = m;
    s->cap = nc;
  }
  s->msg[s->n].t = t;
  s->msg[s->n].src = src;
  s->msg[s->n].dst = dst;
  s->msg[s->n].item = item;
  s->n++;
  return OC_OK;
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

void oc_sched_sort(oc_sched *s) {
  if (s->n > 1) qsort(s->msg, s->n, sizeof *s->msg, msg_cmp);
}
