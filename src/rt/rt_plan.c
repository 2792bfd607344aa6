/* rt_plan.c - the per-rank plan cache of the ordered reduce (a
 * non-commutative operator): the calling rank's part of the model's
 * reduction tree (its parent, its children in combine order) and the
 * segment count, built from oc_reduce_rank (O(log P) set-up, no O(P)
 * state) and kept per communicator for the next call of the same shape.
 * (Broadcasts and commutative reductions run the planner's own schedules:
 * rt_view.c.)
 *
 * The tree: the time-reversed optimal tree of oc_reduce_new (Karp et al.
 * section 5) with its rank-order fold; children are combined in rank
 * order: left of the node nearest first, each prepended (in op acc), right
 * of it nearest first, appended. */
#include <stdlib.h>
#include <string.h>

#include "core/oc_core.h"
#include "optcast_rt.h"
#include "rt/rt_internal.h"

void rt_plan_clear(rt_plan *pl) {
  free(pl->kids);
  memset(pl, 0, sizeof *pl);
}

/* insertion sort of kids[lo..hi) : descending when down, else ascending */
static void sort_kids(int *kids, int64_t lo, int64_t hi, int down) {
  for (int64_t i = lo + 1; i < hi; i++)
    for (int64_t j = i; j > lo && (down ? kids[j] > kids[j - 1] : kids[j] < kids[j - 1]);
         j--) {
      int s = kids[j];
      kids[j] = kids[j - 1];
      kids[j - 1] = s;
    }
}

static int reduce_kids(oc_comm *c, rt_plan *pl, int root) {
  oc_reduce *r = NULL;
  oc_reduce_view v;
  int e = oc_reduce_new(&r, &pl->params, root, 1);
  if (e == OC_OK) e = oc_reduce_rank(r, c->tp.rank, &v);
  if (e == OC_OK) {
    int64_t nl = 0, k;
    int *tmp;
    pl->parent = (int)v.parent;
    pl->nkids = v.nchildren;
    pl->kids = (int *)malloc((size_t)oc_max64(1, 2 * v.nchildren) * sizeof *pl->kids);
    if (pl->kids == NULL) e = OC_ENOMEM;
    tmp = pl->kids == NULL ? NULL : pl->kids + v.nchildren;
    for (k = 0; e == OC_OK && k < v.nchildren; k++) {
      int64_t kr, st;
      e = oc_reduce_child(r, &v, k, &kr, &st);
      if (tmp != NULL) tmp[k] = (int)kr;
    }
    if (e == OC_OK) { /* combine order: left children nearest first, then right */
      int me = c->tp.rank;
      for (k = 0; k < v.nchildren; k++)
        if (tmp[k] < me) pl->kids[nl++] = tmp[k];
      pl->nleft = nl;
      for (k = 0; k < v.nchildren; k++)
        if (tmp[k] > me) pl->kids[nl++] = tmp[k];
      /* insertion sorts: left descending, right ascending */
      sort_kids(pl->kids, 0, pl->nleft, 1);
      sort_kids(pl->kids, pl->nleft, nl, 0);
      if (nl != v.nchildren) e = OC_EINVAL; /* a child equal to me */
    }
  }
  oc_reduce_free(r);
  return e;
}

/* Choose the segment count (rt_choose) and build this rank's part of the
 * tree for it. */
int rt_plan_get(oc_comm *c, int64_t count, const oc_elem *el, int root, rt_plan **out) {
  const int kind = RT_REDUCE;
  rt_plan *pl = &c->plan;
  rt_choice ch;
  int e;
  *out = pl;
  if (pl->valid && pl->count == count && pl->extent == el->extent &&
      pl->root == root)
    return OC_OK;
  rt_plan_clear(pl);
  if ((e = rt_choose(c, kind, count, el, &ch)) != OC_OK) return e;
  pl->m = ch.m;
  pl->len = rt_seg_len(count, ch.m);
  pl->predicted = ch.t;
  /* the tree the choice was priced on */
  e = rt_model_tree(c, kind, (int64_t)el->extent * pl->len, pl->m, &pl->params,
                    &pl->predicted);
  if (e == OC_OK) e = reduce_kids(c, pl, root);
  if (e) {
    rt_plan_clear(pl);
    return e;
  }
  pl->count = count;
  pl->extent = el->extent;
  pl->root = root;
  pl->valid = 1;
  return OC_OK;
}
