/* oc_sched.c - the schedule: growable arrays of messages, their optional
 * columns (one table says where each lives and its default), computation
 * events and operand segments. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/oc_core.h"

/* The optional columns: where the pointer lives, the entry size, whether
 * a new message starts at 1 (len) or 0. */
static const struct {
  size_t off, size;
  int one;
} COLS[OC_COL_COUNT] = {
    [OC_COL_LEN] = {offsetof(oc_sched, len), sizeof(int64_t), 1},
    [OC_COL_RECV_AT] = {offsetof(oc_sched, recv_at), sizeof(int64_t), 0},
    [OC_COL_COPY] = {offsetof(oc_sched, copy), sizeof(unsigned char), 0},
    [OC_COL_SEQ] = {offsetof(oc_sched, seq), sizeof(uint32_t), 0},
    [OC_COL_NOT_BEFORE] = {offsetof(oc_sched, not_before), sizeof(int64_t), 0},
    [OC_COL_HIST] = {offsetof(oc_sched, hist), sizeof(uint32_t), 0},
};

static void **col_ptr(oc_sched *s, int c) { return (void **)((char *)s + COLS[c].off); }
static const void *col_get(const oc_sched *s, int c) {
  return *(void *const *)((const char *)s + COLS[c].off);
}

/* Entry i of column c at its default. */
static void col_default(oc_sched *s, int c, size_t i) {
  char *a = (char *)*col_ptr(s, c) + i * COLS[c].size;
  memset(a, 0, COLS[c].size);
  if (COLS[c].one) *(int64_t *)(void *)a = 1;
}

void oc_sched_init(oc_sched *s) {
  s->msg = NULL;
  s->n = s->cap = 0;
  for (int c = 0; c < OC_COL_COUNT; c++) *col_ptr(s, c) = NULL;
  s->op = NULL;
  s->nop = s->opcap = 0;
  s->seg = NULL;
  s->nseg = s->segcap = 0;
}

void oc_sched_free(oc_sched *s) {
  free(s->msg);
  for (int c = 0; c < OC_COL_COUNT; c++) free(*col_ptr(s, c));
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

/* Room for `need` messages: every column present first, then the messages,
 * so that a failure leaves cap (what all of them hold) as it was. */
static int sched_fit(oc_sched *s, size_t need) {
  size_t nc;
  void *m;
  if (need <= s->cap) return OC_OK;
  nc = s->cap ? s->cap + s->cap / 2 : 64;
  if (nc < need) nc = need;
  if (nc > SIZE_MAX / sizeof *s->msg) return OC_ENOMEM;
  for (int c = 0; c < OC_COL_COUNT; c++) {
    void **a = col_ptr(s, c);
    if (*a == NULL) continue;
    if ((m = realloc(*a, nc * COLS[c].size)) == NULL) return OC_ENOMEM;
    *a = m;
  }
  if ((m = realloc(s->msg, nc * sizeof *s->msg)) == NULL) return OC_ENOMEM;
  s->msg = (oc_msg *)m;
  s->cap = nc;
  return OC_OK;
}

int oc_sched_reserve(oc_sched *s, size_t extra) {
  if (s == NULL) return OC_EINVAL;
  if (extra > SIZE_MAX - s->n) return OC_ENOMEM;
  return sched_fit(s, s->n + extra);
}

int oc_sched_add_col(oc_sched *s, oc_col col) {
  void **a;
  if (s == NULL || (int)col < 0 || col >= OC_COL_COUNT) return OC_EINVAL;
  a = col_ptr(s, (int)col);
  if (*a != NULL) return OC_OK;
  if (s->cap > SIZE_MAX / COLS[col].size) return OC_ENOMEM;
  if ((*a = malloc((s->cap ? s->cap : 1) * COLS[col].size)) == NULL) return OC_ENOMEM;
  for (size_t i = 0; i < s->n; i++) col_default(s, (int)col, i);
  return OC_OK;
}

int oc_sched_push(oc_sched *s, int64_t t, int64_t src, int64_t dst,
                  int64_t item) {
  oc_msg *m;
  if (sched_fit(s, s->n + 1) != OC_OK) return OC_ENOMEM; /* columns alongside */
  m = &s->msg[s->n];
  m->t = t;
  m->src = src;
  m->dst = dst;
  m->item = item;
  for (int c = 0; c < OC_COL_COUNT; c++)
    if (col_get(s, c) != NULL) col_default(s, c, s->n);
  s->n++;
  return OC_OK;
}

int oc_sched_push_long(oc_sched *s, int64_t t, int64_t src, int64_t dst,
                       int64_t item, int64_t len) {
  int e;
  if (len < 1) return OC_EINVAL;
  if (len > 1 && (e = oc_sched_add_col(s, OC_COL_LEN)) != OC_OK) return e;
  if ((e = oc_sched_push(s, t, src, dst, item)) != OC_OK) return e;
  if (s->len != NULL) s->len[s->n - 1] = len;
  return OC_OK;
}

int oc_sched_packets(const oc_sched *s, int64_t g, oc_sched *out) {
  int e;
  for (int c = 0; c < OC_COL_COUNT; c++)
    if (c != OC_COL_LEN && col_get(s, c) != NULL && (e = oc_sched_add_col(out, (oc_col)c)) != OC_OK)
      return e;
  for (size_t i = 0; i < s->n; i++) {
    int64_t len = s->len ? s->len[i] : 1;
    for (int64_t k = 0; k < len; k++) {
      if ((e = oc_sched_push(out, s->msg[i].t + k * g, s->msg[i].src, s->msg[i].dst,
                             s->msg[i].item + k)) != OC_OK)
        return e;
      for (int c = 0; c < OC_COL_COUNT; c++)
        if (c != OC_COL_LEN && col_get(s, c) != NULL)
          memcpy((char *)*col_ptr(out, c) + (out->n - 1) * COLS[c].size,
                 (const char *)col_get(s, c) + i * COLS[c].size, COLS[c].size);
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

/* With columns: sort (message, position) pairs - ties keep their order -
 * and move every column the same way, through one scratch buffer taken
 * before anything moves (out of memory: the schedule is left as it was). */
typedef struct keyed {
  oc_msg m;
  size_t i;
} keyed;
static int keyed_cmp(const void *x, const void *y) {
  const keyed *a = (const keyed *)x, *b = (const keyed *)y;
  int c = msg_cmp(&a->m, &b->m);
  return c != 0 ? c : (a->i > b->i) - (a->i < b->i);
}

int oc_sched_sort(oc_sched *s) { /* long messages: sort their packets */
  int cols = 0;
  keyed *k;
  int64_t *wide; /* scratch for one column: the widest, int64_t */
  char *tmp;
  if (s->n < 2 || s->len != NULL) return OC_OK;
  for (int c = 0; c < OC_COL_COUNT; c++) cols |= col_get(s, c) != NULL;
  if (!cols) {
    qsort(s->msg, s->n, sizeof *s->msg, msg_cmp);
    return OC_OK;
  }
  k = (keyed *)malloc(s->n * sizeof *k);
  wide = (int64_t *)malloc(s->n * sizeof *wide);
  if (k == NULL || wide == NULL) {
    free(k);
    free(wide);
    return OC_ENOMEM;
  }
  tmp = (char *)wide;
  for (size_t i = 0; i < s->n; i++) {
    k[i].m = s->msg[i];
    k[i].i = i;
  }
  qsort(k, s->n, sizeof *k, keyed_cmp);
  for (size_t i = 0; i < s->n; i++) s->msg[i] = k[i].m;
  for (int c = 0; c < OC_COL_COUNT; c++) {
    char *a = (char *)*col_ptr(s, c);
    size_t sz = COLS[c].size;
    if (a == NULL) continue;
    for (size_t i = 0; i < s->n; i++) memcpy(tmp + i * sz, a + k[i].i * sz, sz);
    memcpy(a, tmp, s->n * sz);
  }
  free(k);
  free(wide);
  return OC_OK;
}
