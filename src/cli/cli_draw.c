/* cli_draw.c - `optcast draw`: a verified schedule as one self-contained
 * SVG picture, in up to three sections stacked top to bottom:
 *
 *   tree      the broadcast tree (processor in each node, the time its
 *             datum is usable below; Karp et al. Fig. 1 left, Shou & Chen
 *             Fig. 1) or the reduction tree (when each processor sends its
 *             partial result; Karp Fig. 6 right, Shou & Chen Fig. 2)
 *   activity  one row per processor, time across: send overhead, receive
 *             overhead, waiting for the gap, additions, holding the datum
 *             (Karp Fig. 1 right, Fig. 6 left), a time axis and a legend
 *   table     the reception table of a multi-item schedule: row =
 *             processor, column = time (postal) or round (k-port), cell =
 *             the items received then; or, in Karp et al.'s form (their
 *             Figs. 2, 4, 5; integer postal latency), a column per step,
 *             items numbered from 1, forwarded items bold, and with a
 *             buffer a square around an item that waited and a circle
 *             around the item taken in its place
 *
 * Large instances stay legible: at most DRAW_ROWS processors, DRAW_NODES
 * tree nodes, DRAW_COLS activity columns and DRAW_TCOLS table columns,
 * merging time columns when needed; the picture says what it left out.
 * The document is built in memory and written in one piece. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define DRAW_ROWS 32
#define DRAW_NODES 63
#define DRAW_COLS 960   /* activity chart: at most this many columns (px) */
#define DRAW_COLW 24    /* ... each at most this wide                     */
#define DRAW_TCOLS 32   /* reception table columns                        */
#define DRAW_CELL 16    /* characters in a table cell                     */
#define DRAW_STEPS 48   /* Karp-form table: step columns                  */
#define SLOT_W 56.0     /* tree: horizontal room per leaf                 */
#define LEVEL_H 84.0    /* tree: vertical distance between depths         */
#define ROW_H 18.0      /* chart and table rows                           */
#define LEFT 20.0       /* page margin                                    */
#define CHAR_W 7.0      /* rough width of one 12 px character             */

/* ---- small helpers ------------------------------------------------------- */
static int64_t sat_add(int64_t a, int64_t b) {
  return a > INT64_MAX - b ? INT64_MAX : a + b;
}
static int64_t sat_mul(int64_t a, int64_t b) {
  return (b != 0 && a > INT64_MAX / b) ? INT64_MAX : a * b;
}
static double dmax(double a, double b) { return a > b ? a : b; }
static double text_w(const char *s, double per_char) {
  return (double)strlen(s) * per_char;
}

static int64_t unit_of(const cli_draw_in *d) { return d->p ? d->p->unit : 1; }

/* a time for a label: exact when short (24, 2.5), else rounded (~2.333) */
static void dtime(char *b, size_t n, const cli_draw_in *d, int64_t x) {
  oc_format_time(b, n, x, unit_of(d));
  if (strlen(b) > 8 && x % unit_of(d) != 0)
    snprintf(b, n, "~%.4g", (double)x / (double)unit_of(d));
}

static int64_t msg_len(const oc_sched *s, size_t i) {
  return s->len ? s->len[i] : 1;
}

/* when the message's items are usable at the receiver (k-port: its round;
 * buffered postal: when it is taken from the buffer) */
static int64_t arrival(const cli_draw_in *d, size_t i) {
  const oc_msg *m = &d->s->msg[i];
  if (d->p == NULL) return m->t;
  if (d->recv != NULL) return d->recv[i];
  return sat_add(sat_add(m->t, d->p->L + 2 * d->p->o),
                 sat_mul(msg_len(d->s, i) - 1, d->p->g));
}

/* "showing processors 0-31 of 1000" when rows < P */
static double shown_note(FILE *f, const cli_draw_in *d, int64_t rows, double y) {
  char b[160];
  if (rows >= d->P) return y;
  snprintf(b, sizeof b, "showing processors 0-%lld of %lld", (long long)(rows - 1),
           (long long)d->P);
  cli_svg_text(f, LEFT, y, "start", 12, b);
  return y + 18;
}

/* ---- tree ------------------------------------------------------------------ */
typedef struct tedge {
  int64_t parent, child, t, label;
} tedge;

/* three-way comparison of (a1, a2, a3) with (b1, b2, b3), lexicographic */
static int cmp3(int64_t a1, int64_t b1, int64_t a2, int64_t b2, int64_t a3, int64_t b3) {
  if (a1 != b1) return a1 > b1 ? 1 : -1;
  if (a2 != b2) return a2 > b2 ? 1 : -1;
  return (a3 > b3) - (a3 < b3);
}

static int tedge_cmp(const void *x, const void *y) {
  const tedge *a = (const tedge *)x, *b = (const tedge *)y;
  return cmp3(a->parent, b->parent, a->t, b->t, a->child, b->child);
}

typedef struct tnode {
  int64_t q, label, up, hidden, lo, hi; /* up: parent's index, -1 root   */
  int64_t depth, shown;                 /* shown: children drawn         */
  double x;
} tnode;

/* The edges of the tree: one parent per processor (the earliest usable
 * message for a broadcast tree), sorted by parent and send time. */
static int tree_edges(const cli_draw_in *d, tedge **out, size_t *n) {
  const oc_sched *s = d->s;
  int64_t *pick = (int64_t *)malloc((size_t)d->P * sizeof *pick);
  tedge *e;
  size_t k = 0;
  if (pick == NULL) return OC_ENOMEM;
  for (int64_t q = 0; q < d->P; q++) pick[q] = -1;
  for (size_t i = 0; i < s->n; i++) {
    const oc_msg *m = &s->msg[i];
    if (d->tree == CLI_TREE_REDUCE) {
      if (m->src != d->root && pick[m->src] < 0) pick[m->src] = (int64_t)i;
      continue;
    }
    if (m->item > 0 || m->item + msg_len(s, i) <= 0 || m->dst == d->root) continue;
    if (pick[m->dst] < 0 || arrival(d, i) < arrival(d, (size_t)pick[m->dst]))
      pick[m->dst] = (int64_t)i;
  }
  e = (tedge *)malloc(((size_t)d->P + 1) * sizeof *e);
  if (e == NULL) {
    free(pick);
    return OC_ENOMEM;
  }
  for (int64_t q = 0; q < d->P; q++) {
    const oc_msg *m;
    if (pick[q] < 0) continue;
    m = &s->msg[pick[q]];
    if (d->tree == CLI_TREE_REDUCE)
      e[k] = (tedge){m->dst, m->src, m->t, m->t};
    else
      e[k] = (tedge){m->src, m->dst, m->t, arrival(d, (size_t)pick[q])};
    k++;
  }
  free(pick);
  qsort(e, k, sizeof *e, tedge_cmp);
  *out = e;
  *n = k;
  return OC_OK;
}

/* The first DRAW_NODES nodes in depth-first order, children in send
 * order; nodes[i].up < i. */
static int tree_walk(const cli_draw_in *d, const tedge *e, size_t ne,
                     tnode *nodes, int64_t *count) {
  size_t *off = (size_t *)calloc((size_t)d->P + 1, sizeof *off);
  size_t stack_next[DRAW_NODES + 1];
  int64_t stack_node[DRAW_NODES + 1], n = 1, sp = 1;
  if (off == NULL) return OC_ENOMEM;
  for (size_t i = 0; i < ne; i++) off[e[i].parent + 1]++;
  for (int64_t q = 0; q < d->P; q++) off[q + 1] += off[q];
  memset(nodes, 0, sizeof *nodes);
  nodes[0].q = d->root;
  nodes[0].up = -1;
  nodes[0].label = d->tree == CLI_TREE_REDUCE ? d->time : 0;
  stack_node[0] = 0;
  stack_next[0] = off[d->root];
  while (sp > 0 && n < DRAW_NODES) {
    int64_t top = stack_node[sp - 1];
    const tedge *c;
    if (stack_next[sp - 1] >= off[nodes[top].q + 1]) {
      sp--;
      continue;
    }
    c = &e[stack_next[sp - 1]++];
    memset(&nodes[n], 0, sizeof nodes[n]);
    nodes[n].q = c->child;
    nodes[n].label = c->label;
    nodes[n].up = top;
    nodes[n].depth = nodes[top].depth + 1;
    nodes[top].shown++;
    stack_node[sp] = n;
    stack_next[sp] = off[c->child];
    sp++;
    n++;
  }
  for (int64_t i = 0; i < n; i++)
    nodes[i].hidden = (int64_t)(off[nodes[i].q + 1] - off[nodes[i].q]) - nodes[i].shown;
  free(off);
  *count = n;
  return OC_OK;
}

#define DRAW_WIDE 21 /* a cut tree: at most this many nodes on a level (fits ~1200 px) */

/* A large tree, cut breadth-first: the levels 0..k whole, k the deepest
 * with at most DRAW_NODES nodes down to it and DRAW_WIDE on each level (at
 * least the root and its first DRAW_WIDE children), returned in preorder
 * (children in send order: nodes[i].up < i, leaves left to right) with
 * the counts of the levels below in *below (nbelow of them; freed by the
 * caller). */
static int tree_walk_bfs(const cli_draw_in *d, const tedge *e, size_t ne, tnode *nodes,
                         int64_t *count, int64_t **below, int64_t *nbelow) {
  size_t *off = (size_t *)calloc((size_t)d->P + 1, sizeof *off);
  int64_t *queue = (int64_t *)malloc(((size_t)ne + 1) * sizeof *queue);
  int64_t *depth = (int64_t *)malloc((size_t)d->P * sizeof *depth);
  int64_t *levels = (int64_t *)calloc((size_t)ne + 2, sizeof *levels);
  int64_t head = 0, tail = 0, maxd = 0, k = 0, cum, sel[DRAW_NODES], nsel = 0;
  int64_t up[DRAW_NODES], kids[DRAW_NODES], stack[DRAW_NODES], sp = 0, n = 0;
  if (off == NULL || queue == NULL || depth == NULL || levels == NULL) {
    free(off);
    free(queue);
    free(depth);
    free(levels);
    return OC_ENOMEM;
  }
  for (size_t i = 0; i < ne; i++) off[e[i].parent + 1]++;
  for (int64_t q = 0; q < d->P; q++) off[q + 1] += off[q];
  /* every member's depth, and each level's size */
  queue[tail++] = d->root;
  depth[d->root] = 0;
  while (head < tail) {
    int64_t q = queue[head++];
    levels[depth[q]]++;
    if (depth[q] > maxd) maxd = depth[q];
    for (size_t j = off[q]; j < off[q + 1]; j++) {
      depth[e[j].child] = depth[q] + 1;
      queue[tail++] = e[j].child;
    }
  }
  for (cum = 1; k < maxd && cum + levels[k + 1] <= DRAW_NODES && levels[k + 1] <= DRAW_WIDE;
       k++)
    cum += levels[k + 1];
  /* the chosen nodes in breadth-first order (the root's first DRAW_WIDE
   * children when even level 1 is too wide) */
  for (int64_t i = 0; i < tail && nsel < DRAW_NODES; i++) {
    int64_t q = queue[i];
    if (depth[q] > k && !(k == 0 && depth[q] == 1 && nsel <= DRAW_WIDE)) break;
    sel[nsel++] = i;
  }
  /* parents within the selection (a node's parent comes before it) */
  for (int64_t i = 0; i < nsel; i++) {
    up[i] = -1;
    kids[i] = 0;
  }
  {
    int64_t at = 1; /* the children of sel[i], in send order, follow in BFS order */
    for (int64_t i = 0; i < nsel && at < nsel; i++) {
      int64_t q = queue[sel[i]];
      for (size_t j = off[q]; j < off[q + 1] && at < nsel; j++)
        if (queue[sel[at]] == e[j].child) {
          up[at++] = i;
          kids[i]++;
        }
    }
  }
  /* preorder: a stack of selection indices, children pushed last-first */
  stack[sp++] = 0;
  {
    int64_t where[DRAW_NODES];
    while (sp > 0) {
      int64_t i = stack[--sp], q = queue[sel[i]];
      where[i] = n;
      memset(&nodes[n], 0, sizeof nodes[n]);
      nodes[n].q = q;
      nodes[n].up = up[i] < 0 ? -1 : where[up[i]];
      nodes[n].depth = depth[q];
      nodes[n].shown = kids[i];
      nodes[n].hidden = (int64_t)(off[q + 1] - off[q]) - kids[i];
      if (up[i] < 0) {
        nodes[n].label = d->tree == CLI_TREE_REDUCE ? d->time : 0;
      } else { /* the edge from its parent carries its time */
        int64_t pq = queue[sel[up[i]]];
        for (size_t j = off[pq]; j < off[pq + 1]; j++)
          if (e[j].child == q) {
            nodes[n].label = e[j].label;
            break;
          }
      }
      n++;
      for (int64_t c = nsel - 1; c > i; c--) /* its children, the first on top */
        if (up[c] == i) stack[sp++] = c;
    }
  }
  {
    int64_t deepest = 0, cnt = 0;
    for (int64_t i = 0; i < n; i++) if (nodes[i].depth > deepest) deepest = nodes[i].depth;
    *below = (int64_t *)malloc(((size_t)(maxd - deepest) + 1) * sizeof **below);
    if (*below != NULL) {
      for (int64_t dd = deepest + 1; dd <= maxd; dd++) (*below)[cnt++] = levels[dd];
    }
    *nbelow = *below != NULL ? cnt : 0;
  }
  free(off);
  free(queue);
  free(depth);
  free(levels);
  *count = n;
  return OC_OK;
}

static void tree_labels(FILE *f, const cli_draw_in *d, const tnode *v, double y) {
  char b[96], t[64];
  dtime(t, sizeof t, d, v->label);
  if (d->tree != CLI_TREE_REDUCE)
    snprintf(b, sizeof b, "at %s", t);
  else if (v->up < 0)
    snprintf(b, sizeof b, "done %s", t);
  else
    snprintf(b, sizeof b, "sends %s", t);
  cli_svg_text(f, v->x, y + 29, "middle", 10, b);
  if (d->counts != NULL) {
    snprintf(b, sizeof b, "%lld ops", (long long)d->counts[v->q]);
    cli_svg_text(f, v->x, y + 41, "middle", 10, b);
  }
  if (v->hidden > 0) {
    snprintf(b, sizeof b, "+%lld", (long long)v->hidden);
    cli_svg_text(f, v->x + 18, y - 10, "start", 10, b);
  }
}

static int draw_tree(FILE *f, const cli_draw_in *d, double y0, double *w, double *h) {
  tedge *e = NULL;
  size_t ne = 0;
  tnode nodes[DRAW_NODES];
  int64_t n = 0, leaves = 0, maxdepth = 0;
  double y = y0;
  char b[200];
  int err = tree_edges(d, &e, &ne);
  int64_t members = (int64_t)ne + 1; /* the tree's nodes: its edges and the root */
  int64_t *below = NULL, nbelow = 0;
  if (err == OC_OK && members <= DRAW_NODES) err = tree_walk(d, e, ne, nodes, &n);
  else if (err == OC_OK) err = tree_walk_bfs(d, e, ne, nodes, &n, &below, &nbelow);
  free(e);
  if (err) return err;
  if (d->tree == CLI_TREE_REDUCE)
    snprintf(b, sizeof b, "Reduction tree: each processor sends its partial result "
                          "to its parent at the time shown (children left to right "
                          "in the order they send)");
  else
    snprintf(b, sizeof b, "%s tree: processor in the node, the time %s usable below "
                          "(children left to right in send order)",
             d->tree == CLI_TREE_ITEM0 ? "Item 0's" : "Broadcast",
             d->tree == CLI_TREE_ITEM0 ? "item 0 is" : "its datum is");
  cli_svg_text(f, LEFT, y + 12, "start", 13, b);
  *w = LEFT + text_w(b, CHAR_W);
  y += 22;
  if (n < members) { /* cut breadth-first: say where, and what is below */
    int64_t deepest = 0;
    size_t at;
    for (int64_t i = 0; i < n; i++) if (nodes[i].depth > deepest) deepest = nodes[i].depth;
    if (deepest == 1 && nodes[0].hidden > 0)
      snprintf(b, sizeof b, "showing %lld of %lld nodes, breadth-first: the root and its first "
               "%lld children; +k: children not drawn", (long long)n, (long long)members,
               (long long)(n - 1));
    else
      snprintf(b, sizeof b, "showing %lld of %lld nodes, breadth-first: depths 0-%lld whole; "
               "+k: children not drawn", (long long)n, (long long)members, (long long)deepest);
    cli_svg_text(f, LEFT, y + 12, "start", 12, b);
    *w = dmax(*w, LEFT + text_w(b, CHAR_W * 12 / 13));
    y += 18;
    at = (size_t)snprintf(b, sizeof b, "below, per depth:");
    for (int64_t i = 0; i < nbelow && at < sizeof b - 40; i++) {
      if (i == 8 && nbelow > 9) {
        (void)snprintf(b + at, sizeof b - at, " ... depth %lld: %lld",
                       (long long)deepest + (long long)nbelow, (long long)below[nbelow - 1]);
        break;
      }
      at += (size_t)snprintf(b + at, sizeof b - at, "%s depth %lld: %lld", i ? "," : "",
                             (long long)deepest + 1 + (long long)i, (long long)below[i]);
    }
    if (nbelow > 0) {
      cli_svg_text(f, LEFT, y + 12, "start", 12, b);
      *w = dmax(*w, LEFT + text_w(b, CHAR_W * 12 / 13));
      y += 18;
    }
  }
  free(below);
  if (members < d->P) {
    snprintf(b, sizeof b, "%lld of the %lld processors take no part",
             (long long)(d->P - members), (long long)d->P);
    cli_svg_text(f, LEFT, y + 12, "start", 12, b);
    y += 18;
  }
  y += 24; /* the root's centre */
  /* leaves get slots left to right; a parent sits over its children */
  for (int64_t i = 0; i < n; i++) {
    if (nodes[i].shown == 0) nodes[i].x = LEFT + SLOT_W * ((double)leaves++ + 0.5);
    if (nodes[i].depth > maxdepth) maxdepth = nodes[i].depth;
    nodes[i].lo = -1;
  }
  for (int64_t i = n - 1; i > 0; i--) {
    tnode *u = &nodes[nodes[i].up];
    if (nodes[i].shown > 0) nodes[i].x = (nodes[nodes[i].lo].x + nodes[nodes[i].hi].x) / 2;
    if (u->lo < 0 || i < u->lo) u->lo = i;
    if (u->hi < i) u->hi = i;
  }
  if (nodes[0].shown > 0) nodes[0].x = (nodes[nodes[0].lo].x + nodes[nodes[0].hi].x) / 2;
  for (int64_t i = 1; i < n; i++) {
    const tnode *u = &nodes[nodes[i].up];
    cli_svg_line(f, u->x, y + LEVEL_H * (double)u->depth + (d->counts ? 45 : 33), nodes[i].x,
                 y + LEVEL_H * (double)nodes[i].depth - 15, "#555555");
  }
  for (int64_t i = 0; i < n; i++) {
    double cy = y + LEVEL_H * (double)nodes[i].depth;
    cli_svg_circle(f, nodes[i].x, cy, 15, i == 0 ? "#ffe9a8" : "#ffffff", "#333333");
    snprintf(b, sizeof b, "p%lld", (long long)nodes[i].q);
    cli_svg_text(f, nodes[i].x, cy + 4, "middle", nodes[i].q < 100 ? 11 : 8, b);
    tree_labels(f, d, &nodes[i], cy);
  }
  *w = dmax(*w, LEFT + SLOT_W * (double)(leaves > 0 ? leaves : 1) + 20);
  *h = y - y0 + LEVEL_H * (double)maxdepth + 48;
  return OC_OK;
}

/* ---- activity chart ------------------------------------------------------- */
enum { A_NONE, A_HOLD, A_GAP, A_ADD, A_RECV, A_SEND, A_KINDS };
static const char *const A_FILL[A_KINDS] = {"#ffffff", "#d9d9d9", "#f2c14e",
                                            "#2ca02c", "#1f77b4", "#d62728"};

typedef struct grid {
  unsigned char *cell; /* rows x cols */
  int64_t rows, cols, scale;
  int64_t instant;     /* how long an instantaneous event is drawn: one time
                          unit in model units, so that the picture does not
                          depend on lambda's denominator */
} grid;

/* [a, b) in model units (an empty one: g->instant long); a column keeps its
 * strongest kind when several meet there */
static void mark(grid *g, int64_t q, int64_t a, int64_t b, unsigned char k) {
  unsigned char *row;
  if (q < 0 || q >= g->rows) return;
  row = g->cell + q * g->cols;
  if (b <= a) b = sat_add(a, g->instant);
  if (a < 0) a = 0;
  for (int64_t c = a / g->scale; c <= (b - 1) / g->scale && c < g->cols; c++)
    if (row[c] < k) row[c] = k;
}

static void fill_grid(const cli_draw_in *d, grid *g) {
  const oc_params *p = d->p;
  const oc_sched *s = d->s;
  int64_t G = p->g > p->o ? p->g : p->o, ready[DRAW_ROWS];
  for (int64_t q = 0; q < g->rows; q++)
    ready[q] = ((d->all_hold && (d->counts == NULL || d->counts[q] > 0)) || q == d->root)
                   ? 0 : INT64_MAX;
  for (size_t i = 0; i < s->n; i++) {
    const oc_msg *m = &s->msg[i];
    int64_t len = msg_len(s, i);
    if (m->src >= g->rows && m->dst >= g->rows) continue;
    for (int64_t j = 0; j < len; j++) {
      int64_t ts = sat_add(m->t, sat_mul(j, p->g)), tr = sat_add(ts, p->o + p->L);
      mark(g, m->src, ts, sat_add(ts, G), A_GAP);
      mark(g, m->src, ts, sat_add(ts, p->o), A_SEND);
      mark(g, m->dst, tr, sat_add(tr, p->o), A_RECV);
      if (ts == INT64_MAX) break;
    }
    if (m->dst < g->rows && arrival(d, i) < ready[m->dst]) ready[m->dst] = arrival(d, i);
  }
  for (size_t i = 0; i < s->nop; i++)
    if (oc_op_cost(&s->op[i]) > 0) /* (taking the first operand is free) */
      mark(g, s->op[i].proc, s->op[i].t,
           sat_add(s->op[i].t, sat_mul(oc_op_cost(&s->op[i]), p->unit)), A_ADD);
  for (int64_t q = 0; q < g->rows; q++)
    if (ready[q] < INT64_MAX) mark(g, q, ready[q], INT64_MAX, A_HOLD);
}

/* ticks at round numbers of the user's time unit, about ten of them */
static double draw_axis(FILE *f, const cli_draw_in *d, const grid *g, double x0,
                        double colw, double y, int64_t span) {
  int64_t unit = unit_of(d), total = span / unit, step = 1, mant = 1;
  char b[64];
  cli_svg_line(f, x0, y, x0 + colw * (double)g->cols, y, "#333333");
  while (total / step > 12) { /* 1, 2, 5, 10, 20, 50, ... */
    int64_t next = mant == 2 ? step / 2 * 5 : step * 2;
    mant = mant == 2 ? 5 : (mant == 5 ? 1 : 2);
    step = next;
  }
  if (step > INT64_MAX / unit) step = INT64_MAX / unit;
  for (int64_t k = 0, T = 0; T <= span; k++, T = sat_mul(k, step * unit)) {
    double x = x0 + (double)T / (double)g->scale * colw;
    cli_svg_line(f, x, y, x, y + 4, "#333333");
    dtime(b, sizeof b, d, T);
    cli_svg_text(f, x, y + 16, "middle", 10, b);
    if (T == INT64_MAX) break;
  }
  if (g->scale > 1) {
    dtime(b, sizeof b, d, g->scale);
    snprintf(b + strlen(b), sizeof b - strlen(b), " time units per column");
  } else {
    snprintf(b, sizeof b, "time");
  }
  cli_svg_text(f, x0 + colw * (double)g->cols, y + 30, "end", 11, b);
  return y + 36;
}

/* the legend of the kinds the drawn rows show, and only those */
static double draw_legend(FILE *f, const cli_draw_in *d, const grid *g, double y, double *w) {
  const char *label[A_KINDS] = {NULL, "holds the datum (idle)", NULL,
                                "additions", NULL, NULL};
  static const int order[] = {A_SEND, A_RECV, A_GAP, A_ADD, A_HOLD};
  unsigned char seen[A_KINDS] = {0};
  double x = LEFT;
  for (int64_t i = 0; i < g->rows * g->cols; i++) seen[g->cell[i] % A_KINDS] = 1;
  label[A_SEND] = d->p->o > 0 ? "send overhead o" : "send (o = 0)";
  label[A_RECV] = d->p->o > 0 ? "receive overhead o" : "arrival (o = 0)";
  label[A_GAP] = "waiting for the gap g";
  cli_svg_text(f, x, y + 10, "start", 11, "legend:");
  x += 54;
  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
    if (!seen[order[i]]) continue;
    cli_svg_rect(f, x, y, 12, 12, A_FILL[order[i]], "#555555");
    cli_svg_text(f, x + 16, y + 10, "start", 11, label[order[i]]);
    x += 30 + text_w(label[order[i]], 6.2);
  }
  *w = dmax(*w, x);
  return y + 20;
}

static int draw_activity(FILE *f, const cli_draw_in *d, double y0, double *w,
                         double *h) {
  grid g;
  int64_t span = d->time > 1 ? d->time : 1;
  double x0 = LEFT + 56, colw, y = y0;
  char b[64];
  g.rows = d->P < DRAW_ROWS ? d->P : DRAW_ROWS;
  g.scale = span / DRAW_COLS + (span % DRAW_COLS != 0);
  g.cols = span / g.scale + (span % g.scale != 0);
  g.instant = unit_of(d);
  colw = (double)(DRAW_COLS / g.cols < DRAW_COLW ? DRAW_COLS / g.cols : DRAW_COLW);
  g.cell = (unsigned char *)calloc((size_t)(g.rows * g.cols), 1);
  if (g.cell == NULL) return OC_ENOMEM;
  fill_grid(d, &g);
  cli_svg_text(f, LEFT, y + 12, "start", 13,
               "Activity: one row per processor, time across");
  y += 22;
  y = shown_note(f, d, g.rows, y + 12) - 12;
  for (int64_t q = 0; q < g.rows; q++) {
    const unsigned char *row = g.cell + q * g.cols;
    double ry = y + ROW_H * (double)q;
    snprintf(b, sizeof b, "p%lld", (long long)q);
    cli_svg_text(f, x0 - 6, ry + 11, "end", 11, b);
    cli_svg_rect(f, x0, ry, colw * (double)g.cols, 14, "#ffffff", "#cccccc");
    for (int64_t c = 0; c < g.cols;) {
      int64_t e = c;
      while (e < g.cols && row[e] == row[c]) e++;
      if (row[c] != A_NONE)
        cli_svg_rect(f, x0 + colw * (double)c, ry, colw * (double)(e - c), 14,
                     A_FILL[row[c]], NULL);
      c = e;
    }
  }
  y = draw_axis(f, d, &g, x0, colw, y + ROW_H * (double)g.rows, span);
  *w = x0 + colw * (double)g.cols + 20;
  y = draw_legend(f, d, &g, y, w);
  free(g.cell);
  *h = y - y0;
  return OC_OK;
}

/* ---- reception table ------------------------------------------------------ */
typedef struct rcpt {
  int64_t row, col, lo, hi;
} rcpt;

static int rcpt_cmp(const void *x, const void *y) {
  const rcpt *a = (const rcpt *)x, *b = (const rcpt *)y;
  return cmp3(a->row, b->row, a->col, b->col, a->lo, b->lo);
}

static int i64_cmp(const void *x, const void *y) {
  return cmp3(*(const int64_t *)x, *(const int64_t *)y, 0, 0, 0, 0);
}

/* The table's time keys, sorted and distinct: every round 1..time for
 * k-port, else the times at which shown processors receive. */
static int table_keys(const cli_draw_in *d, int64_t rows, int64_t **out, size_t *n) {
  const oc_sched *s = d->s;
  size_t k = 0, cap = d->p == NULL ? (size_t)(d->time > 0 ? d->time : 1) : s->n + 1;
  int64_t *key = (int64_t *)malloc(cap * sizeof *key);
  if (key == NULL) return OC_ENOMEM;
  if (d->p == NULL) {
    for (int64_t r = 1; r <= d->time; r++) key[k++] = r;
  } else {
    for (size_t i = 0; i < s->n; i++)
      if (s->msg[i].dst < rows) key[k++] = arrival(d, i);
    qsort(key, k, sizeof *key, i64_cmp);
    if (k > 0) {
      size_t u = 1;
      for (size_t i = 1; i < k; i++)
        if (key[i] != key[u - 1]) key[u++] = key[i];
      k = u;
    }
  }
  *out = key;
  *n = k;
  return OC_OK;
}

/* the items of one cell as ranges "0-3,5", cut short with "..." */
static void cell_text(char *b, size_t n, const rcpt *r, size_t cnt) {
  size_t len = 0;
  b[0] = '\0';
  for (size_t i = 0; i < cnt;) {
    int64_t lo = r[i].lo, hi = r[i].hi;
    char part[48];
    int k;
    for (i++; i < cnt && r[i].lo <= hi + 1; i++)
      if (r[i].hi > hi) hi = r[i].hi;
    k = lo == hi ? snprintf(part, sizeof part, "%s%lld", len ? "," : "", (long long)lo)
                 : snprintf(part, sizeof part, "%s%lld-%lld", len ? "," : "",
                            (long long)lo, (long long)hi);
    if (len + (size_t)k > DRAW_CELL || len + (size_t)k + 1 > n) {
      snprintf(b + len, n - len, "...");
      return;
    }
    memcpy(b + len, part, (size_t)k + 1);
    len += (size_t)k;
  }
}

static void table_header(FILE *f, const cli_draw_in *d, const int64_t *key, size_t nk,
                         int64_t gs, int64_t ncols, double x0, double cw, double y) {
  char b[96], e[40];
  cli_svg_text(f, x0 - 6, y + 12, "end", 11, d->p ? "time" : "round");
  for (int64_t c = 0; c < ncols; c++) {
    size_t first = (size_t)(c * gs), last = first + (size_t)gs - 1;
    if (last >= nk) last = nk - 1;
    dtime(b, 40, d, key[first]);
    if (last > first) {
      dtime(e, sizeof e, d, key[last]);
      snprintf(b + strlen(b), sizeof b - strlen(b), "-%.39s", e);
    }
    cli_svg_text(f, x0 + cw * ((double)c + 0.5), y + 12, "middle", 10, b);
  }
}

static int draw_table(FILE *f, const cli_draw_in *d, double y0, double *w, double *h) {
  const oc_sched *s = d->s;
  int64_t rows = d->P < DRAW_ROWS ? d->P : DRAW_ROWS, gs, ncols;
  int64_t *key = NULL;
  size_t nk = 0, nr = 0, maxlen = 3;
  rcpt *r;
  char(*cell)[DRAW_CELL + 8];
  double y = y0, x0 = LEFT + 80, cw;
  char b[200];
  int e = table_keys(d, rows, &key, &nk);
  if (e) return e;
  gs = nk == 0 ? 1 : (int64_t)((nk + DRAW_TCOLS - 1) / DRAW_TCOLS);
  ncols = (int64_t)(nk / (size_t)gs + (nk % (size_t)gs != 0));
  r = (rcpt *)malloc((s->n + 1) * sizeof *r);
  cell = calloc((size_t)(rows * (ncols > 0 ? ncols : 1)), sizeof *cell);
  if (r == NULL || cell == NULL) {
    free(key);
    free(r);
    free(cell);
    return OC_ENOMEM;
  }
  for (size_t i = 0; i < s->n; i++) {
    int64_t t = arrival(d, i);
    const int64_t *at;
    if (s->msg[i].dst >= rows) continue;
    at = (const int64_t *)bsearch(&t, key, nk, sizeof *key, i64_cmp);
    if (at == NULL) continue; /* (k-port rounds past the end: none) */
    r[nr].row = s->msg[i].dst;
    r[nr].col = (int64_t)(at - key) / gs;
    r[nr].lo = s->msg[i].item;
    r[nr].hi = sat_add(s->msg[i].item, msg_len(s, i) - 1);
    nr++;
  }
  qsort(r, nr, sizeof *r, rcpt_cmp);
  for (size_t i = 0; i < nr;) {
    size_t j = i;
    while (j < nr && r[j].row == r[i].row && r[j].col == r[i].col) j++;
    cell_text(cell[r[i].row * ncols + r[i].col], DRAW_CELL + 8, r + i, j - i);
    if (strlen(cell[r[i].row * ncols + r[i].col]) > maxlen)
      maxlen = strlen(cell[r[i].row * ncols + r[i].col]);
    i = j;
  }
  cw = dmax(gs > 1 ? 64 : 30, 6.5 * (double)maxlen + 10);
  snprintf(b, sizeof b, "Reception table: row = processor, column = %s, cell = the "
                        "items received%s",
           d->p ? "the time they are usable" : "round", d->p ? "" : " in that round");
  cli_svg_text(f, LEFT, y + 12, "start", 13, b);
  *w = LEFT + text_w(b, CHAR_W);
  y = shown_note(f, d, rows, y + 34) - 12;
  if (gs > 1) {
    snprintf(b, sizeof b, "columns merged: each covers %lld %s", (long long)gs,
             d->p ? "reception times" : "rounds");
    cli_svg_text(f, LEFT, y + 12, "start", 12, b);
    y += 18;
  }
  table_header(f, d, key, nk, gs, ncols, x0, cw, y);
  y += ROW_H;
  for (int64_t q = 0; q < rows; q++) {
    double ry = y + ROW_H * (double)q;
    snprintf(b, sizeof b, q == d->root ? "p%lld (source)" : "p%lld", (long long)q);
    cli_svg_text(f, x0 - 6, ry + 12, "end", 11, b);
    for (int64_t c = 0; c < ncols; c++) {
      const char *t = cell[q * ncols + c];
      cli_svg_rect(f, x0 + cw * (double)c, ry, cw, ROW_H, t[0] ? "#cfe2f3" : "#ffffff",
                   "#bbbbbb");
      if (t[0]) cli_svg_text(f, x0 + cw * ((double)c + 0.5), ry + 13, "middle", 10, t);
    }
  }
  *w = dmax(*w, x0 + cw * (double)ncols + 20);
  *h = y + ROW_H * (double)rows + 10 - y0;
  free(key);
  free(r);
  free(cell);
  return OC_OK;
}

/* ---- the reception table in Karp et al.'s form ------------------------------ */
typedef struct kcell {
  int64_t q, t, item; /* processor, step, item; item = index of a message */
} kcell;

static int kcell_cmp(const void *x, const void *y) {
  const kcell *a = (const kcell *)x, *b = (const kcell *)y;
  return cmp3(a->q, b->q, a->t, b->t, a->item, b->item);
}

/* how many of k[0..n) are (q, t, *) */
static size_t kcount(const kcell *k, size_t n, int64_t q, int64_t t) {
  kcell lo = {q, t, INT64_MIN}, hi = {q, t, INT64_MAX};
  size_t a = 0, b = n, c = 0, e = n;
  while (a < b) { /* first >= lo */
    size_t m = a + (b - a) / 2;
    if (kcell_cmp(&k[m], &lo) < 0) a = m + 1; else b = m;
  }
  while (c < e) { /* first > hi */
    size_t m = c + (e - c) / 2;
    if (kcell_cmp(&k[m], &hi) <= 0) c = m + 1; else e = m;
  }
  return c > a ? c - a : 0;
}

static void steps_legend(FILE *f, const cli_draw_in *d, double y, double *w) {
  double x = LEFT + 54;
  cli_svg_text(f, LEFT, y + 10, "start", 11, "legend:");
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\" "
             "font-weight=\"bold\">7</text>\n", x + 6, y + 10);
  cli_svg_text(f, x + 16, y + 10, "start", 11, "an item it forwards (active, Fig. 4)");
  x += 16 + text_w("an item it forwards (active, Fig. 4)", 6.2) + 20;
  if (d->recv != NULL) {
    cli_svg_rect(f, x - 1, y - 1, 14, 14, "none", "#c0392b");
    cli_svg_text(f, x + 6, y + 10, "middle", 11, "7");
    cli_svg_text(f, x + 18, y + 10, "start", 11, "waited in the buffer");
    x += 18 + text_w("waited in the buffer", 6.2) + 20;
    cli_svg_circle(f, x + 6, y + 6, 8, "none", "#1f5fa8");
    cli_svg_text(f, x + 6, y + 10, "middle", 11, "7");
    cli_svg_text(f, x + 18, y + 10, "start", 11, "taken while another item arrived (that one waits)");
    x += 18 + text_w("taken while another item arrived (that one waits)", 6.2) + 20;
  }
  *w = dmax(*w, x);
}

/* Karp et al.'s reception table (Figs. 2, 4, 5): row = processor, a
 * column per step 0, 1, ..., cell = the item (from 1) received then. */
static int draw_steps(FILE *f, const cli_draw_in *d, double y0, double *w, double *h) {
  const oc_sched *s = d->s;
  int64_t rows = d->P < DRAW_ROWS ? d->P : DRAW_ROWS, last = 0, ncols, digits = 1;
  size_t nr = 0, nf = 0, nb = 0;
  kcell *rc = (kcell *)malloc((s->n + 1) * sizeof *rc); /* receptions      */
  kcell *fw = (kcell *)malloc((s->n + 1) * sizeof *fw); /* (src, 0, item)  */
  kcell *ba = (kcell *)malloc((s->n + 1) * sizeof *ba); /* buffer arrivals */
  double y = y0, x0 = LEFT + 80, cw;
  char b[200];
  if (rc == NULL || fw == NULL || ba == NULL) {
    free(rc);
    free(fw);
    free(ba);
    return OC_ENOMEM;
  }
  for (size_t i = 0; i < s->n; i++) {
    const oc_msg *m = &s->msg[i];
    int64_t t = arrival(d, i);
    if (t > last) last = t;
    if (m->dst < rows) {
      rc[nr++] = (kcell){m->dst, t, (int64_t)i};
      ba[nb++] = (kcell){m->dst, sat_add(m->t, d->p->L), 0};
    }
    if (m->src < rows) fw[nf++] = (kcell){m->src, 0, m->item};
  }
  qsort(rc, nr, sizeof *rc, kcell_cmp);
  qsort(fw, nf, sizeof *fw, kcell_cmp);
  qsort(ba, nb, sizeof *ba, kcell_cmp);
  for (size_t i = 0; i < s->n; i++)
    for (int64_t x = s->msg[i].item + 1, dg = 1; x >= 10; x /= 10)
      if (++dg > digits) digits = dg;
  ncols = last + 1 < DRAW_STEPS ? last + 1 : DRAW_STEPS;
  cw = dmax(24, 7.0 * (double)digits + 14);
  snprintf(b, sizeof b, "Reception table (Karp et al.'s form): row = processor, column = "
                        "step, cell = the item received then, numbered from 1");
  cli_svg_text(f, LEFT, y + 12, "start", 13, b);
  *w = LEFT + text_w(b, CHAR_W);
  y = shown_note(f, d, rows, y + 34) - 12;
  if (ncols < last + 1) {
    snprintf(b, sizeof b, "showing steps 0-%lld of 0-%lld", (long long)(ncols - 1),
             (long long)last);
    cli_svg_text(f, LEFT, y + 12, "start", 12, b);
    y += 18;
  }
  steps_legend(f, d, y, w);
  y += 24;
  cli_svg_text(f, x0 - 6, y + 12, "end", 11, "step");
  for (int64_t c = 0; c < ncols; c++) {
    snprintf(b, sizeof b, "%lld", (long long)c);
    cli_svg_text(f, x0 + cw * ((double)c + 0.5), y + 12, "middle", 10, b);
  }
  y += ROW_H;
  for (int64_t q = 0, at = 0; q < rows; q++) {
    double ry = y + (ROW_H + 2) * (double)q;
    snprintf(b, sizeof b, q == d->root ? "p%lld (source)" : "p%lld", (long long)q);
    cli_svg_text(f, x0 - 6, ry + 13, "end", 11, b);
    for (int64_t c = 0; c < ncols; c++) {
      double cx = x0 + cw * ((double)c + 0.5);
      size_t first, cnt;
      while ((size_t)at < nr && rc[at].q == q && rc[at].t < c) at++;
      first = (size_t)at;
      while ((size_t)at < nr && rc[at].q == q && rc[at].t == c) at++;
      cnt = (size_t)at - first;
      cli_svg_rect(f, x0 + cw * (double)c, ry, cw, ROW_H + 2, cnt ? "#cfe2f3" : "#ffffff",
                   "#bbbbbb");
      if (cnt == 0) continue;
      if (cnt > 1) { /* (never in a valid postal schedule: one reception a step) */
        snprintf(b, sizeof b, "%lld+%zu", (long long)s->msg[rc[first].item].item + 1,
                 cnt - 1);
        cli_svg_text(f, cx, ry + 14, "middle", 10, b);
        continue;
      }
      {
        size_t i = (size_t)rc[first].item;
        const oc_msg *m = &s->msg[i];
        kcell key = {q, 0, m->item};
        int fwd = bsearch(&key, fw, nf, sizeof *fw, kcell_cmp) != NULL;
        int waited = d->recv != NULL && d->recv[i] > sat_add(m->t, d->p->L);
        int circled = d->recv != NULL && !waited && kcount(ba, nb, q, c) > 1;
        snprintf(b, sizeof b, "%lld", (long long)m->item + 1);
        if (waited)
          cli_svg_rect(f, cx - cw / 2 + 3, ry + 2, cw - 6, ROW_H - 2, "none", "#c0392b");
        if (circled) cli_svg_circle(f, cx, ry + 10, (ROW_H - 2) / 2, "none", "#1f5fa8");
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\"%s>",
                cx, ry + 14, fwd ? " font-weight=\"bold\"" : "");
        cli_svg_escape(f, b);
        fputs("</text>\n", f);
      }
    }
    while ((size_t)at < nr && rc[at].q == q) at++;
  }
  *w = dmax(*w, x0 + cw * (double)ncols + 20);
  *h = y + (ROW_H + 2) * (double)rows + 10 - y0;
  free(rc);
  free(fw);
  free(ba);
  return OC_OK;
}

/* ---- the document ---------------------------------------------------------- */
static int draw_body(FILE *f, const cli_draw_in *d, double *w, double *h) {
  double y = 16, sw = 0, sh = 0;
  int e = OC_OK;
  cli_svg_text(f, LEFT, y + 14, "start", 15, d->title);
  cli_svg_text(f, LEFT, y + 34, "start", 12, d->subtitle);
  *w = dmax(LEFT + text_w(d->title, 8.5), LEFT + text_w(d->subtitle, CHAR_W)) + 20;
  y += 56;
  if (d->tree != CLI_TREE_NONE && d->P > 0) {
    e = draw_tree(f, d, y, &sw, &sh);
    *w = dmax(*w, sw);
    y += sh + 16;
  }
  if (e == OC_OK && d->activity) {
    e = draw_activity(f, d, y, &sw, &sh);
    *w = dmax(*w, sw);
    y += sh + 16;
  }
  if (e == OC_OK && d->table) {
    e = d->steps ? draw_steps(f, d, y, &sw, &sh) : draw_table(f, d, y, &sw, &sh);
    *w = dmax(*w, sw);
    y += sh + 16;
  }
  *h = y;
  return e;
}

int cli_draw_doc(const cli_draw_in *d, char **out, size_t *outlen, char *err,
                 size_t errlen) {
  char *body = NULL, *doc = NULL;
  size_t nb = 0, nd = 0;
  double w = 0, h = 0;
  FILE *f = open_memstream(&body, &nb);
  int e;
  if (f == NULL) {
    snprintf(err, errlen, "out of memory");
    return OC_ENOMEM;
  }
  e = draw_body(f, d, &w, &h);
  if (fclose(f) != 0 && e == OC_OK) e = OC_ENOMEM;
  if (e == OC_OK) {
    f = open_memstream(&doc, &nd);
    if (f == NULL) {
      e = OC_ENOMEM;
    } else {
      cli_svg_begin(f, (double)(int64_t)(w + 0.5), (double)(int64_t)(h + 0.5));
      fwrite(body, 1, nb, f);
      cli_svg_end(f);
      if (fclose(f) != 0) e = OC_ENOMEM;
    }
  }
  free(body);
  if (e != OC_OK) {
    free(doc);
    snprintf(err, errlen, "%s", oc_strerror(e));
    return e;
  }
  *out = doc;
  *outlen = nd;
  return OC_OK;
}

int cli_draw(const cli_draw_in *d, const char *path, char *err, size_t errlen) {
  char *doc = NULL;
  size_t nd = 0;
  int e = cli_draw_doc(d, &doc, &nd, err, errlen);
  if (e != OC_OK) return e;
  if (path != NULL) {
    e = cli_svg_write_file(path, doc, nd, err, errlen);
  } else if (fwrite(doc, 1, nd, stdout) != nd || fflush(stdout) != 0) {
    snprintf(err, errlen, "cannot write to standard output");
    e = OC_EIO;
  }
  free(doc);
  return e;
}
