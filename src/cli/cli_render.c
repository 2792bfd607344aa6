/* cli_render.c - the human-readable pictures of a schedule: the tree
 * (Karp et al. Fig. 1 left, Fig. 6 right) and each processor's activity
 * over time (Fig. 1 right, Fig. 6 left).  Large instances are summarised,
 * and say so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define TREE_MAX_NODES 64
#define CHART_MAX_ROWS 32
#define CHART_MAX_COLS 96

typedef struct kid {
  int64_t who, t; /* the other end of the message, its send start */
} kid;

static int kid_cmp(const void *x, const void *y) {
  const kid *a = (const kid *)x, *b = (const kid *)y;
  return (a->t > b->t) - (a->t < b->t);
}

/* children of each processor (CSR over the schedule), in send order, and
 * the time each first holds the datum (broadcast) */
typedef struct tree {
  int64_t P;
  size_t *off;
  kid *k;
  int64_t *ready;
} tree;

static int tree_build(tree *tr, const oc_params *p, int64_t root,
                      const oc_sched *s, int reverse) {
  int64_t P = p->P, h = p->L + 2 * p->o;
  size_t *fill;
  memset(tr, 0, sizeof *tr);
  tr->P = P;
  tr->off = (size_t *)calloc((size_t)P + 1, sizeof *tr->off);
  tr->k = (kid *)malloc((s->n ? s->n : 1) * sizeof *tr->k);
  tr->ready = (int64_t *)malloc((size_t)P * sizeof *tr->ready);
  fill = (size_t *)malloc(((size_t)P + 1) * sizeof *fill);
  if (!tr->off || !tr->k || !tr->ready || !fill) {
    free(fill);
    return OC_ENOMEM;
  }
  for (int64_t q = 0; q < P; q++) tr->ready[q] = (q == root || root < 0) ? 0 : -1;
  for (size_t i = 0; i < s->n; i++)
    tr->off[(reverse ? s->msg[i].dst : s->msg[i].src) + 1]++;
  for (int64_t q = 0; q < P; q++) tr->off[q + 1] += tr->off[q];
  memcpy(fill, tr->off, ((size_t)P + 1) * sizeof *fill);
  for (size_t i = 0; i < s->n; i++) {
    const oc_msg *m = &s->msg[i];
    int64_t at = reverse ? m->dst : m->src;
    tr->k[fill[at]].who = reverse ? m->src : m->dst;
    tr->k[fill[at]++].t = m->t;
    if (root >= 0 && (tr->ready[m->dst] < 0 || m->t + h < tr->ready[m->dst]))
      tr->ready[m->dst] = m->t + h;
  }
  free(fill);
  for (int64_t q = 0; q < P; q++)
    qsort(tr->k + tr->off[q], tr->off[q + 1] - tr->off[q], sizeof(kid), kid_cmp);
  return OC_OK;
}

static void tree_free(tree *tr) {
  free(tr->off);
  free(tr->k);
  free(tr->ready);
}

static void tstr(char *b, size_t n, int64_t x, const oc_params *p) {
  oc_format_time(b, n, x, p->unit);
}

int cli_render_tree(FILE *f, const oc_params *p, int64_t root,
                    const oc_sched *s, int reverse) {
  tree tr;
  typedef struct fr { int64_t q; size_t next; int depth; char last[64]; } fr;
  fr *stk;
  size_t sp, shown;
  char tb[48], sb[48];
  int e = tree_build(&tr, p, reverse ? -1 : root, s, reverse);
  if (e) { tree_free(&tr); return e; }
  stk = (fr *)malloc(sizeof(fr) * (TREE_MAX_NODES + 2));
  if (stk == NULL) { tree_free(&tr); return OC_ENOMEM; }
  if (reverse)
    fprintf(f, "Reduction tree (rank: when it sends its partial result; children "
               "in the order they send)\n");
  else
    fprintf(f, "Broadcast tree (rank @ time the datum is usable; children in "
               "send order)\n");
  tstr(tb, sizeof tb, 0, p);
  if (reverse)
    fprintf(f, "p%lld (root)\n", (long long)root);
  else
    fprintf(f, "p%lld @ %s\n", (long long)root, tb);
  shown = 1;
  stk[0].q = root;
  stk[0].next = tr.off[root];
  stk[0].depth = 0;
  sp = 1;
  while (sp > 0 && shown < TREE_MAX_NODES) {
    fr *top = &stk[sp - 1];
    if (top->next >= tr.off[top->q + 1] || top->depth >= 62) { sp--; continue; }
    {
      kid c = tr.k[top->next++];
      int last = top->next >= tr.off[top->q + 1];
      for (int d = 0; d < top->depth; d++)
        fputs(top->last[d] ? "    " : "|   ", f);
      tstr(sb, sizeof sb, c.t, p);
      if (reverse) {
        fprintf(f, "%s p%lld sends at %s\n", last ? "`--" : "|--", (long long)c.who, sb);
      } else {
        tstr(tb, sizeof tb, tr.ready[c.who], p);
        fprintf(f, "%s p%lld @ %s  (sent at %s)\n", last ? "`--" : "|--",
                (long long)c.who, tb, sb);
      }
      shown++;
      if (tr.off[c.who + 1] > tr.off[c.who] && sp < TREE_MAX_NODES + 1) {
        fr *n = &stk[sp++];
        n->q = c.who;
        n->next = tr.off[c.who];
        n->depth = top->depth + 1;
        memcpy(n->last, top->last, sizeof n->last);
        n->last[top->depth] = (char)last;
      }
    }
  }
  if ((int64_t)shown < tr.P)
    fprintf(f, "... %lld more processors not drawn (the tree is drawn for the "
               "first %d in depth-first order)\n",
            (long long)(tr.P - (int64_t)shown), TREE_MAX_NODES);
  free(stk);
  tree_free(&tr);
  return OC_OK;
}

static void mark(char *line, int64_t from, int64_t to, int64_t span, int64_t scale,
                 char ch) {
  for (int64_t x = from < 0 ? 0 : from; x < to && x < span; x++) line[x / scale] = ch;
}

/* One character per time column:
 *   ' ' does not hold the datum yet   'R' receive overhead
 *   'S' send overhead ('s' a send start when o = 0)   '+' additions
 *   '=' waiting for the gap after a send   '.' idle */
int cli_render_activity(FILE *f, const oc_params *p, int64_t root,
                        const oc_sched *s, int64_t completion) {
  tree tr, in;
  int64_t P = p->P, rows = P < CHART_MAX_ROWS ? P : CHART_MAX_ROWS;
  int64_t span = completion + 1; /* one column past the end */
  int64_t cols, scale, G = p->g > p->o ? p->g : p->o, h = p->L + 2 * p->o;
  char *line;
  int e;
  memset(&in, 0, sizeof in);
  e = tree_build(&tr, p, root, s, 0);
  if (e == OC_OK) e = tree_build(&in, p, root, s, 1);
  if (e) { tree_free(&tr); tree_free(&in); return e; }
  scale = (span + CHART_MAX_COLS - 1) / CHART_MAX_COLS;
  if (scale < 1) scale = 1;
  cols = (span + scale - 1) / scale;
  line = (char *)malloc((size_t)cols + 1);
  if (line == NULL) { tree_free(&tr); tree_free(&in); return OC_ENOMEM; }
  {
    char ub[48];
    tstr(ub, sizeof ub, scale, p);
    fprintf(f, "\nActivity (one row per processor, one column = %s time "
               "unit%s)\n", ub, scale == 1 && p->unit == 1 ? "" : "s");
  }
  fprintf(f, "legend: S send overhead, s send start (o = 0), R receive "
             "overhead, + additions, = gap, . idle\n");
  for (int64_t q = 0; q < rows; q++) {
    int64_t rdy = tr.ready[q];
    for (int64_t c = 0; c < cols; c++) line[c] = (rdy >= 0 && c * scale >= rdy) ? '.' : ' ';
    for (size_t i = tr.off[q]; i < tr.off[q + 1]; i++) { /* gaps after sends */
      int64_t t = tr.k[i].t;
      for (int64_t x = t + (p->o > 0 ? p->o : 1); x < t + G && x < span; x++)
        if (line[x / scale] == '.' || line[x / scale] == ' ') line[x / scale] = '=';
    }
    for (size_t i = 0; i < s->nop; i++) /* additions */
      if (s->op[i].proc == q)
        mark(line, s->op[i].t, s->op[i].t + oc_op_cost(&s->op[i]) * p->unit, span, scale, '+');
    if (p->o > 0) /* receive overheads */
      for (size_t i = in.off[q]; i < in.off[q + 1]; i++)
        mark(line, in.k[i].t + p->o + p->L, in.k[i].t + h, span, scale, 'R');
    for (size_t i = tr.off[q]; i < tr.off[q + 1]; i++) { /* send overheads */
      int64_t t = tr.k[i].t;
      if (p->o == 0) {
        if (t < span && line[t / scale] != 'R' && line[t / scale] != 'S')
          line[t / scale] = 's';
      } else {
        mark(line, t, t + p->o, span, scale, 'S');
      }
    }
    line[cols] = '\0';
    {
      size_t n = strlen(line);
      while (n > 0 && line[n - 1] == ' ') line[--n] = '\0';
    }
    fprintf(f, "p%-6lld|%s\n", (long long)q, line);
  }
  if (rows < P)
    fprintf(f, "... %lld more processors not drawn\n", (long long)(P - rows));
  free(line);
  tree_free(&tr);
  tree_free(&in);
  return OC_OK;
}
