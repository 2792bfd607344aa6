/* oc_rrp.c - the reconfigurable ring of processors: tree sweeps, broadcast,
 * accumulation and parallel prefix (Rosenberg, Scarano & Sitaraman, seed
 * 003, section 2).
 *
 * What it does.  Down_(N,L) simulates a downward sweep of an M-leaf
 * complete binary tree on a block of M consecutive processors x0 .. x0+M-1
 * (the root at x0, messages clockwise).  Figure 3 of the paper, made
 * concrete here for any M and L:
 *
 *   Phase 1  Down on the first N' processors of the block (the top
 *            ceil(log2 N') levels; its leaves are the block's N' parts);
 *   Phase 2  processor x0+c sends the state of part c to the part's first
 *            processor x0+s_c, c = 1 .. N'-1, all in one step on lines
 *            0 .. N'-2 (the segments nest, so they need distinct lines);
 *   Phase 3  Down on every part in parallel (the parts are disjoint, so
 *            they reuse the same lines).
 *
 * The parts have sizes floor(M/N') or ceil(M/N') (the larger first):
 * s_c = c*q + min(c, r) with q = M div N', r = M mod N'.  The phases are
 * separated by barriers as in the paper's analysis, so
 *
 *   T(M) = T(N') + max_c flight(s_c - c) + T(ceil(M/N'))
 *
 * (the paper's recurrence (3), where flight <= log M).  Blocks of at most
 * four processors are binomial trees (T(2) = 1, T(3) = T(4) = 2; the paper's
 * initial condition T(4,2) = 2).  Worked example, N = 16, L = 4 (N' = 4):
 * Phase 1 is a binomial tree on 0..3 (0->2 in step 1, 0->1 and 2->3 in step
 * 2); Phase 2 sends 1->4, 2->8, 3->12 in step 3 (flights 2, 3, 4: ends at
 * step 6); Phase 3 runs four binomial trees on 0..3, 4..7, 8..11, 12..15 in
 * steps 7-8.  T = 8; Theorem 2.1's bound is 4*1 + 16/2 = 12.
 *
 * Choice of N'.  SWEEP takes N' = min(L+1, ceil(sqrt M)): the paper's text
 * asks for 2^k <= L+1 (N'-1 remap messages on L lines) and balanced
 * phases; its Figure 3 writes min(L, ...), which for L = 1 never splits.
 * TUNED picks, for each block size, the binomial tree or the N' in
 * 2 .. min(L+1, M-1, 2 ceil(sqrt M)) that minimises the recurrence
 * (dynamic programming over the sizes the recursion meets), and for bcast
 * and reduce into 0 or N-1 tries a two-sided start (two_sided below).  BINOMIAL is
 * the binomial tree with the leftmost-leaf mapping (one line; round j
 * sends over distance 2^(k-j)).
 *
 * Up_(N,L) is Down_(N,L) reversed in time: a message sent in step t with
 * flight f becomes one from the receiver to the sender sent in step
 * T - t - f + 2 (the occupied steps mirror, so lines and ports stay legal).
 *
 * Problems on top (section 2.2):
 *   BCAST   Down from the root over the cyclic block root .. root+N-1;
 *           messages to processors that already hold the item are dropped
 *           (the sweep re-uses processors for different tree nodes).
 *   REDUCE  Up into processor 0 (index order); root N-1 by the mirrored
 *           sweep; any other root r the faster of (a) [0, r] mirrored into
 *           r and [r+1, N) into r+1 in parallel, then r+1 -> r (one more
 *           step), (b) Up into 0, then 0 -> r (one more flight).
 *   SCAN    Up into 0, then Down from 0 carrying prefixes: a tree node
 *           whose leaves start at u receives x_0..x_{u-1}; 2T steps.
 *   Segmented versions run every block in parallel (no extra cost beyond
 *   the largest block).
 *
 * Costs: Theorem 2.1, T(N, L) <= log N log log L + log^2 N / log L for
 * N >= 4, L >= 2 (powers of two in the paper); lower bounds of Theorems 3.1
 * and 3.2 in oc_rrp_bound.  Within a constant factor of optimal (Cor. 3.1
 * and Theorem 3.2); the exhaustive search in the tests gives the exact
 * distance on rings of up to 8 processors.  Global schedules: O(messages)
 * time and memory, N <= OC_RRP_PROCS_MAX.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"

/* ---- schedules ----------------------------------------------------------- */
void oc_rrp_sched_init(oc_rrp_sched *s) { memset(s, 0, sizeof *s); }

void oc_rrp_sched_free(oc_rrp_sched *s) {
  free(s->msg);
  memset(s, 0, sizeof *s);
}

int oc_rrp_sched_push(oc_rrp_sched *s, int64_t t, int64_t src, int64_t dst,
                      int64_t item, int dir, int64_t line) {
  if (oc_grow((void **)&s->msg, s->n, &s->cap, sizeof *s->msg) != OC_OK) return OC_ENOMEM;
  s->msg[s->n++] = (oc_rrp_msg){t, src, dst, item, line, dir};
  return OC_OK;
}

static int cmp3(int64_t a, int64_t b) { return (a > b) - (a < b); }

static int msg_cmp(const void *x, const void *y) {
  const oc_rrp_msg *a = x, *b = y;
  int c;
  if ((c = cmp3(a->t, b->t)) != 0) return c;
  if ((c = cmp3(a->src, b->src)) != 0) return c;
  if ((c = cmp3(a->dst, b->dst)) != 0) return c;
  if ((c = cmp3(a->item, b->item)) != 0) return c;
  if ((c = cmp3(a->dir, b->dir)) != 0) return c;
  return cmp3(a->line, b->line);
}

/* Stable counting sort of s->msg into tmp by key (0 .. kmax), back again. */
static int count_pass(oc_rrp_sched *s, oc_rrp_msg *tmp, int64_t kmax, int by_time) {
  size_t *pos = calloc((size_t)kmax + 2, sizeof *pos);
  if (pos == NULL) return OC_ENOMEM;
  for (size_t i = 0; i < s->n; i++) pos[(by_time ? s->msg[i].t : s->msg[i].src) + 1]++;
  for (int64_t k = 1; k <= kmax + 1; k++) pos[k] += pos[k - 1];
  for (size_t i = 0; i < s->n; i++)
    tmp[pos[by_time ? s->msg[i].t : s->msg[i].src]++] = s->msg[i];
  memcpy(s->msg, tmp, s->n * sizeof *tmp);
  free(pos);
  return OC_OK;
}

/* Linear for optcast's own schedules: counting sorts by source, then
 * (stably) by step, then an insertion pass for messages of one source and
 * step (none in a valid schedule); qsort when the keys are too spread out
 * or memory is short. */
void oc_rrp_sched_sort(oc_rrp_sched *s) {
  int64_t tmax = 0, smax = 0, lim;
  oc_rrp_msg *tmp;
  if (s->n < 2) return;
  lim = (int64_t)s->n * 4 + 1024;
  for (size_t i = 0; i < s->n; i++) {
    if (s->msg[i].t < 0 || s->msg[i].src < 0) tmax = lim + 1;
    tmax = oc_max64(tmax, s->msg[i].t);
    smax = oc_max64(smax, s->msg[i].src);
  }
  tmp = (tmax <= lim && smax <= lim) ? malloc(s->n * sizeof *tmp) : NULL;
  if (tmp == NULL || count_pass(s, tmp, smax, 0) != OC_OK ||
      count_pass(s, tmp, tmax, 1) != OC_OK) {
    free(tmp);
    qsort(s->msg, s->n, sizeof *s->msg, msg_cmp);
    return;
  }
  free(tmp);
  for (size_t i = 1; i < s->n; i++) { /* ties of (step, source) only */
    oc_rrp_msg m = s->msg[i];
    size_t j = i;
    while (j > 0 && msg_cmp(&s->msg[j - 1], &m) > 0) {
      s->msg[j] = s->msg[j - 1];
      j--;
    }
    s->msg[j] = m;
  }
}

/* ---- the model ----------------------------------------------------------- */
static int64_t ceil_log2(int64_t x) {
  int64_t k = 0;
  while (k < 63 && ((int64_t)1 << k) < x) k++;
  return k;
}

int64_t oc_rrp_dist(int64_t N, int64_t src, int64_t dst, int dir) {
  int64_t d = dir == OC_RRP_CW ? dst - src : src - dst;
  d %= N;
  return d < 0 ? d + N : d;
}

int64_t oc_rrp_flight(int64_t d) { return oc_max64(1, ceil_log2(d)); }

/* The CPEs of one line from the sender (offset 0) to the receiver (offset
 * d), stepped as section 1.4 describes: in step 0 the sender's CPE passes
 * the message to its neighbour; in every later step each CPE that knows it
 * "pumps" the line so that as many CPEs beyond the front learn it as know
 * it already.  Simulated CPE by CPE rather than by formula. */
int64_t oc_rrp_comet_steps(int64_t d) {
  int64_t knowing = 1, steps = 0; /* CPEs 0 .. knowing-1 know the message */
  if (d < 1) return 0;
  while (knowing <= d) {
    int64_t helpers = knowing, learned = 0;
    for (int64_t k = 0; k < helpers && knowing + learned <= d; k++) learned++;
    knowing += learned;
    steps++;
  }
  return steps;
}

static const char *const ALG_NAMES[] = {"sweep", "tuned", "binomial", "best"};

const char *oc_rrp_alg_name(oc_rrp_alg a) {
  return (unsigned)a < 4 ? ALG_NAMES[a] : "?";
}

int oc_rrp_alg_parse(const char *name, oc_rrp_alg *out) {
  for (int i = 0; i < 4; i++)
    if (strcmp(name, ALG_NAMES[i]) == 0) {
      *out = (oc_rrp_alg)i;
      return OC_OK;
    }
  return OC_EINVAL;
}

const char *oc_rrp_problem_name(oc_rrp_problem p) {
  switch (p) {
  case OC_RRP_BCAST: return "bcast";
  case OC_RRP_REDUCE: return "reduce";
  case OC_RRP_SCAN: return "scan";
  }
  return "?";
}

/* ---- spec checks ---------------------------------------------------------- */
int oc_rrp_spec_check(const oc_rrp_spec *sp) {
  if (sp == NULL) return OC_EINVAL;
  if (sp->problem != OC_RRP_BCAST && sp->problem != OC_RRP_REDUCE &&
      sp->problem != OC_RRP_SCAN)
    return OC_EINVAL;
  if (sp->N < 1 || sp->N > OC_RRP_PROCS_MAX) return OC_ERANGE;
  if (sp->L < 1 || sp->L > OC_PARAM_MAX) return OC_ERANGE;
  if (sp->seg != NULL) {
    if (sp->nseg < 1 || sp->seg[0] != 0) return OC_EINVAL;
    for (size_t i = 1; i < sp->nseg; i++)
      if (sp->seg[i] <= sp->seg[i - 1] || sp->seg[i] >= sp->N) return OC_EINVAL;
  } else if (sp->root < 0 || sp->root >= sp->N) {
    return OC_ERANGE;
  }
  if (sp->seg != NULL && sp->root != 0) return OC_EINVAL;
  if (sp->problem == OC_RRP_SCAN && sp->seg == NULL && sp->root != 0)
    return OC_EINVAL;
  return OC_OK;
}

static int64_t seg_start(const oc_rrp_spec *sp, size_t i) {
  return sp->seg ? sp->seg[i] : 0;
}
static int64_t seg_end(const oc_rrp_spec *sp, size_t i) { /* exclusive */
  return (sp->seg && i + 1 < sp->nseg) ? sp->seg[i + 1] : sp->N;
}
static size_t seg_count(const oc_rrp_spec *sp) { return sp->seg ? sp->nseg : 1; }

/* ---- bounds ---------------------------------------------------------------- */

/* Theorem 3.1's argument (the paper's section 3.1), carried out in whole
 * steps for an ignorant block of S processors: the first arrival in its
 * middle third comes from at least D = floor((S+1)/3) away, so no earlier
 * than ceil(log2 D) steps after the previous one; at that step at most 2L
 * messages hold segments across the third's two edges (one per edge and
 * line: the segments of a line are disjoint), and if they all landed at
 * once they would leave a gap of at least (m - 2L) / (2L+1) ignorant
 * processors of the third's m.  Repeat on the gap. */
static int64_t ignorant_bound(int64_t S, int64_t L) {
  int64_t T = 0;
  while (S >= 1) {
    int64_t D = (S + 1) / 3, m;
    if (D < 1) return T + 1; /* one ignorant processor: one more step */
    T += oc_rrp_flight(D);
    m = S + 2 - 2 * D;
    S = m > 2 * L ? (m - 2 * L) / (2 * L + 1) : 0;
  }
  return T;
}

int oc_rrp_bound(const oc_rrp_spec *sp, oc_rrp_bounds *out) {
  int e = oc_rrp_spec_check(sp);
  int64_t M = 0, far = 0;
  double n, l;
  if (e != OC_OK) return e;
  memset(out, 0, sizeof *out);
  /* the largest block, and the processor farthest from a block's first
   * processor by the shorter way round: floor(N/2) on the whole ring (for
   * reduce and scan too: reversed in time they broadcast from the sink) */
  for (size_t i = 0; i < seg_count(sp); i++) {
    int64_t m = seg_end(sp, i) - seg_start(sp, i);
    M = oc_max64(M, m);
    far = oc_max64(far, oc_min64(m - 1, sp->N - m + 1));
  }
  if (sp->seg == NULL) far = sp->N / 2;
  if (M <= 1) return OC_OK;
  out->doubling = ceil_log2(M);
  out->distance = far >= 1 ? oc_rrp_flight(far) : 0;
  out->thm31 = (double)ignorant_bound(M - 1, sp->L);
  n = log2((double)M);
  l = log2((double)sp->L);
  if (sp->L >= 2) out->thm31_lead = n * n / (3.0 * l);
  /* Theorem 3.2 is about the whole ring: not applied to segments */
  if (sp->seg == NULL && M > 4) out->thm32 = n * log2(n) / 15.0;
  if (M >= 4 && sp->L >= 2) out->thm21 = n * log2(l) + n * n / l;
  out->lb = oc_max64(out->doubling, out->distance);
  /* all three problems: a reduction or scan reversed in time broadcasts
   * from its sink (section 4); whole steps, so round up */
  out->lb = oc_max64(out->lb, (int64_t)out->thm31);
  if (out->thm32 > 0) out->lb = oc_max64(out->lb, (int64_t)ceil(out->thm32 - 1e-9));
  return OC_OK;
}

/* ---- the sweep ---------------------------------------------------------------
 * A generated Down message, in the coordinates of the block being swept
 * (positions 0 .. M-1 from the root): it delivers the tree node whose
 * leaves are the positions [lo, hi) of the outermost block. */
typedef struct drec {
  int64_t t, f, src, dst, line, lo, hi;
} drec;

/* Maps a recursive call's positions to leaf positions of the outermost
 * block: Phase 1's positions x0+c stand for the parts starting at x0+s_c. */
typedef struct frame {
  const struct frame *up; /* NULL: positions are leaves                  */
  int64_t x0, q, r;       /* position x0+c -> up's x0 + c*q + min(c, r)   */
} frame;

static int64_t leaf_of(const frame *fr, int64_t pos) {
  while (fr != NULL) {
    int64_t c = pos - fr->x0;
    pos = fr->x0 + c * fr->q + oc_min64(c, fr->r);
    fr = fr->up;
  }
  return pos;
}

typedef struct sweep {
  int64_t L;
  oc_rrp_alg alg;      /* SWEEP, TUNED or BINOMIAL                         */
  int32_t *memo;       /* TUNED: T(M), -1 unknown; choice: 0 binomial, N' */
  int32_t *choice;
  drec *rec;           /* the messages of the sweep being placed          */
  size_t n, cap;
  int64_t lines;
  int err;
} sweep;

static int64_t isqrt_ceil(int64_t m) {
  int64_t r = (int64_t)sqrt((double)m);
  while (r * r > m) r--;
  while (r * r < m) r++;
  return r;
}

static int64_t binomial_time(int64_t M) {
  int64_t k = ceil_log2(M), t = 0;
  for (int64_t e = 0; e < k; e++) t += e < 1 ? 1 : e;
  return t;
}

static void put(sweep *w, int64_t t, int64_t f, int64_t src, int64_t dst,
                int64_t line, int64_t lo, int64_t hi) {
  if (line + 1 > w->lines) w->lines = line + 1;
  if (w->err) return;
  if (oc_grow((void **)&w->rec, w->n, &w->cap, sizeof *w->rec) != OC_OK) {
    w->err = OC_ENOMEM;
    return;
  }
  w->rec[w->n++] = (drec){t, f, src, dst, line, lo, hi};
}

/* The binomial tree on x0 .. x0+M-1 from step t0+1; returns its steps. */
static int64_t down_binomial(sweep *w, const frame *fr, int64_t x0, int64_t M,
                             int64_t t0) {
  int64_t k = ceil_log2(M), t = t0;
  for (int64_t e = k - 1; e >= 0; e--) {
    int64_t h = (int64_t)1 << e, f = oc_rrp_flight(h);
    for (int64_t i = 0; i + h < M; i += 2 * h)
      put(w, t + 1, f, x0 + i, x0 + i + h, 0, leaf_of(fr, x0 + i + h),
          leaf_of(fr, x0 + oc_min64(i + 2 * h, M)));
    t += f;
  }
  return t - t0;
}

static int64_t remap_time(int64_t M, int64_t np) {
  int64_t q = M / np, r = M % np, c = np - 1;
  int64_t s = c * q + oc_min64(c, r);
  return s > c ? oc_rrp_flight(s - c) : 0;
}

/* TUNED: the best time for a block of M (memoised). */
static int64_t tuned_time(sweep *w, int64_t M) {
  int64_t best, lim;
  int32_t pick = 0;
  if (M <= 1) return 0;
  if (w->memo[M] >= 0) return w->memo[M];
  best = binomial_time(M);
  lim = oc_min64(oc_min64(w->L + 1, M - 1), 2 * isqrt_ceil(M));
  for (int64_t np = 2; np <= lim; np++) {
    int64_t q = M / np, r = M % np;
    int64_t t = tuned_time(w, np) + remap_time(M, np) + tuned_time(w, q + (r > 0));
    if (t < best) {
      best = t;
      pick = (int32_t)np;
    }
  }
  w->memo[M] = (int32_t)best;
  w->choice[M] = pick;
  return best;
}

static int64_t choose_np(sweep *w, int64_t M) {
  if (w->alg == OC_RRP_BINOMIAL) return 0;
  if (w->alg == OC_RRP_TUNED) {
    tuned_time(w, M);
    return w->choice[M];
  }
  if (M <= 4) return 0;
  return oc_min64(w->L + 1, isqrt_ceil(M));
}

/* Down on positions x0 .. x0+M-1 (frame fr) from step t0+1; returns the
 * steps it takes. */
static int64_t down(sweep *w, const frame *fr, int64_t x0, int64_t M, int64_t t0) {
  int64_t np, q, r, t1, t2 = 0, t3 = 0;
  frame top;
  if (M <= 1) return 0;
  np = choose_np(w, M);
  if (np < 2) return down_binomial(w, fr, x0, M, t0);
  q = M / np;
  r = M % np;
  top.up = fr;
  top.x0 = x0;
  top.q = q;
  top.r = r;
  t1 = down(w, &top, x0, np, t0);                      /* Phase 1 */
  for (int64_t c = 1; c < np; c++) {                   /* Phase 2 */
    int64_t s = c * q + oc_min64(c, r), e = (c + 1) * q + oc_min64(c + 1, r);
    if (s == c) continue;
    put(w, t0 + t1 + 1, oc_rrp_flight(s - c), x0 + c, x0 + s, c - 1,
        leaf_of(fr, x0 + s), leaf_of(fr, x0 + e));
    t2 = oc_max64(t2, oc_rrp_flight(s - c));
  }
  for (int64_t c = 0; c < np; c++) {                   /* Phase 3 */
    int64_t s = c * q + oc_min64(c, r), size = q + (c < r);
    t3 = oc_max64(t3, down(w, fr, x0 + s, size, t0 + t1 + t2));
  }
  return t1 + t2 + t3;
}

/* ---- placing sweeps on the ring ---------------------------------------------- */
typedef struct placer {
  const oc_rrp_spec *sp;
  oc_rrp_sched *out;   /* NULL: time only */
  int64_t N;
} placer;

enum { KIND_BCAST, KIND_UP, KIND_SCANDOWN };

/* Runs one sweep over M positions and appends its messages: position x is
 * processor base + sign*x (mod N); KIND_UP reverses it in time (it ends at
 * step t0 + T); items: the segment number (BCAST), the end of the carried
 * interval (UP), the end of the prefix x_0..x_{u-1} (SCANDOWN).  Returns
 * T, or a negative error. */
static int64_t place(placer *pl, sweep *w, int64_t M, int64_t base, int sign,
                     int kind, int64_t t0, int64_t segno, int64_t *lines) {
  int64_t T;
  w->n = 0;
  w->lines = 0;
  w->err = OC_OK;
  T = down(w, NULL, 0, M, 0);
  if (w->err) return w->err;
  if (w->lines > *lines) *lines = w->lines;
  if (kind == KIND_BCAST) {
    /* keep, per receiver, the message that reaches it first (the sweep
     * sends again to processors that already hold the item) */
    int64_t *first = malloc((size_t)M * sizeof *first);
    if (first == NULL) return OC_ENOMEM;
    for (int64_t x = 0; x < M; x++) first[x] = -1;
    for (size_t i = 0; i < w->n; i++) {
      const drec *d = &w->rec[i];
      int64_t cur = first[d->dst];
      if (cur < 0 || w->rec[cur].t + w->rec[cur].f > d->t + d->f) first[d->dst] = (int64_t)i;
    }
    T = 0;
    for (int64_t x = 1; x < M; x++) {
      const drec *d;
      if (first[x] < 0) continue;
      d = &w->rec[first[x]];
      T = oc_max64(T, d->t + d->f - 1);
      if (pl->out != NULL && oc_rrp_sched_push(pl->out, t0 + d->t, (base + sign * d->src + pl->N) % pl->N,
                            (base + sign * d->dst + pl->N) % pl->N, segno,
                            sign > 0 ? OC_RRP_CW : OC_RRP_CCW, d->line) != OC_OK) {
        free(first);
        return OC_ENOMEM;
      }
    }
    free(first);
    return T;
  }
  for (size_t i = 0; pl->out != NULL && i < w->n; i++) {
    const drec *d = &w->rec[i];
    int64_t s = (base + sign * d->src + pl->N) % pl->N;
    int64_t r = (base + sign * d->dst + pl->N) % pl->N;
    int e;
    if (kind == KIND_UP) {
      /* the node's value x over leaves [lo, hi) goes back up */
      int64_t item = sign > 0 ? base + d->hi - 1 : base - d->lo;
      e = oc_rrp_sched_push(pl->out, t0 + T - d->t - d->f + 2, r, s, item,
                            sign > 0 ? OC_RRP_CCW : OC_RRP_CW, d->line);
    } else { /* SCANDOWN: only left-rooted (sign > 0) */
      e = oc_rrp_sched_push(pl->out, t0 + d->t, s, r, base + d->lo - 1, OC_RRP_CW,
                            d->line);
    }
    if (e != OC_OK) return e;
  }
  return T;
}

static int sweep_init(sweep *w, const oc_rrp_spec *sp, oc_rrp_alg alg) {
  memset(w, 0, sizeof *w);
  w->L = sp->L;
  w->alg = alg;
  if (alg == OC_RRP_TUNED) {
    w->memo = malloc((size_t)(sp->N + 1) * sizeof *w->memo);
    w->choice = malloc((size_t)(sp->N + 1) * sizeof *w->choice);
    if (w->memo == NULL || w->choice == NULL) return OC_ENOMEM;
    for (int64_t i = 0; i <= sp->N; i++) w->memo[i] = -1, w->choice[i] = 0;
  }
  return OC_OK;
}

static void sweep_free(sweep *w) {
  free(w->memo);
  free(w->choice);
  free(w->rec);
}

/* Adds delta to the steps of out's messages from .. to-1. */
static void shift_range(oc_rrp_sched *out, size_t from, size_t to, int64_t delta) {
  for (size_t i = from; i < to; i++) out->msg[i].t += delta;
}

/* Two reductions in parallel, aligned to end together, then one message
 * joining them: part A (na processors from abase in direction asign) and
 * part B, then `from` -> `to` carrying the value ending at x_item. */
static int64_t up_and_join(placer *pl, sweep *w, int64_t na, int64_t abase, int asign,
                           int64_t nb, int64_t bbase, int bsign, int64_t from, int64_t to,
                           int64_t item, int dir, int64_t *lines) {
  size_t a0 = pl->out ? pl->out->n : 0, b0;
  int64_t ta = place(pl, w, na, abase, asign, KIND_UP, 0, 0, lines), tb, m;
  if (ta < 0) return ta;
  b0 = pl->out ? pl->out->n : 0;
  if ((tb = place(pl, w, nb, bbase, bsign, KIND_UP, 0, 0, lines)) < 0) return tb;
  m = oc_max64(ta, tb);
  if (pl->out) { /* the shorter part starts later */
    shift_range(pl->out, a0, b0, m - ta);
    shift_range(pl->out, b0, pl->out->n, m - tb);
    if (oc_rrp_sched_push(pl->out, m + 1, from, to, item, dir, 0) != OC_OK) return OC_ENOMEM;
  }
  return m + 1;
}

/* The ways optcast builds an unsegmented broadcast or reduction. */
enum {
  CAND_BCAST,      /* one sweep from the root, clockwise                     */
  CAND_BCAST_TWO,  /* TUNED's two-sided start (below)                        */
  CAND_UP,         /* reduce into 0 (or N-1, mirrored): one sweep            */
  CAND_UP_TWO,     /* TUNED's two-sided start for a reduction into 0 or N-1 */
  CAND_SPLIT,      /* reduce into r: [0, r] into r, [r+1, N) into r+1, join  */
  CAND_UP_HOP      /* reduce into 0, then 0 -> r the shorter way             */
};

/* One candidate, emitted into pl->out (when not NULL); returns its time.
 * TUNED's two-sided start (optcast's own, after the exhaustive search:
 * optimal schedules on small rings use both directions) cuts the ring into
 * two paths that meet at the root, a = ceil(N/2) processors clockwise from
 * the root and b = N - a counter-clockwise from root-1:
 *   bcast:  the root sends to root-1 in step 1, then both halves run their
 *           sweeps from step 2: 1 + max(T(a), T(b));
 *   reduce into 0: [0, a-1] up into 0 and [a, N-1] up into N-1 (mirrored)
 *           in parallel, then N-1 -> 0 over the wrap-around edge carrying
 *           [a, N-1]: max(T(a), T(b)) + 1; into N-1 the mirror image. */
static int64_t candidate(placer *pl, sweep *w, int which, int64_t *lines) {
  int64_t N = pl->N, r = pl->sp->root, a = (N + 1) / 2, t, tb;
  switch (which) {
  case CAND_BCAST: return place(pl, w, N, r, 1, KIND_BCAST, 0, 0, lines);
  case CAND_BCAST_TWO:
    if (pl->out && oc_rrp_sched_push(pl->out, 1, r, (r - 1 + N) % N, 0, OC_RRP_CCW, 0))
      return OC_ENOMEM;
    if ((t = place(pl, w, a, r, 1, KIND_BCAST, 1, 0, lines)) < 0) return t;
    if ((tb = place(pl, w, N - a, (r - 1 + N) % N, -1, KIND_BCAST, 1, 0, lines)) < 0) return tb;
    return 1 + oc_max64(t, tb);
  case CAND_UP:
    return r == 0 ? place(pl, w, N, 0, 1, KIND_UP, 0, 0, lines)
                  : place(pl, w, N, N - 1, -1, KIND_UP, 0, 0, lines);
  case CAND_UP_TWO: {
    int64_t lo_n = r == 0 ? a : N - a; /* [0, lo_n) and [lo_n, N) */
    return r == 0 ? up_and_join(pl, w, lo_n, 0, 1, N - lo_n, N - 1, -1, N - 1, 0, N - 1,
                                OC_RRP_CW, lines)
                  : up_and_join(pl, w, lo_n, 0, 1, N - lo_n, N - 1, -1, 0, N - 1, lo_n - 1,
                                OC_RRP_CCW, lines);
  }
  case CAND_SPLIT:
    return up_and_join(pl, w, r + 1, r, -1, N - r - 1, r + 1, 1, r + 1, r, N - 1, OC_RRP_CCW,
                       lines);
  default: /* CAND_UP_HOP */
    if ((t = place(pl, w, N, 0, 1, KIND_UP, 0, 0, lines)) < 0) return t;
    if (pl->out && oc_rrp_sched_push(pl->out, t + 1, 0, r, N - 1,
                                     r <= N - r ? OC_RRP_CW : OC_RRP_CCW, 0) != OC_OK)
      return OC_ENOMEM;
    return t + oc_rrp_flight(oc_min64(r, N - r));
  }
}

/* Builds each candidate once (into a scratch schedule when pl->out) and
 * appends the fastest; on a tie the earlier one. */
static int64_t fastest(placer *pl, sweep *w, const int *which, int n, int64_t *lines) {
  oc_rrp_sched keep, tmp;
  int64_t best = -1, best_lines = 0;
  oc_rrp_sched_init(&keep);
  for (int i = 0; i < n; i++) {
    placer p = *pl;
    int64_t lx = 0, t;
    oc_rrp_sched_init(&tmp);
    p.out = pl->out ? &tmp : NULL;
    t = candidate(&p, w, which[i], &lx);
    if (t < 0) {
      oc_rrp_sched_free(&tmp);
      oc_rrp_sched_free(&keep);
      return t;
    }
    if (best < 0 || t < best) {
      oc_rrp_sched_free(&keep);
      keep = tmp;
      best = t;
      best_lines = lx;
    } else {
      oc_rrp_sched_free(&tmp);
    }
  }
  for (size_t i = 0; pl->out && i < keep.n; i++) {
    const oc_rrp_msg *m = &keep.msg[i];
    if (oc_rrp_sched_push(pl->out, m->t, m->src, m->dst, m->item, m->dir, m->line)) {
      best = OC_ENOMEM;
      break;
    }
  }
  oc_rrp_sched_free(&keep);
  if (best_lines > *lines) *lines = best_lines;
  return best;
}

static int plan_one(const oc_rrp_spec *sp, oc_rrp_alg alg, oc_rrp_sched *out,
                    oc_rrp_result *res) {
  sweep w;
  placer pl;
  int64_t T = 0, lines = 0;
  int e = sweep_init(&w, sp, alg);
  if (e != OC_OK) {
    sweep_free(&w);
    return e;
  }
  pl.sp = sp;
  pl.out = out;
  pl.N = sp->N;
  if (sp->seg == NULL && sp->problem != OC_RRP_SCAN) {
    int which[2], n = 0, two = alg == OC_RRP_TUNED && sp->N >= 3;
    int64_t r = sp->root;
    if (sp->problem == OC_RRP_BCAST) {
      which[n++] = CAND_BCAST;
      if (two) which[n++] = CAND_BCAST_TWO;
    } else if (r == 0 || r == sp->N - 1) {
      which[n++] = CAND_UP;
      if (two) which[n++] = CAND_UP_TWO;
    } else {
      which[n++] = CAND_SPLIT;
      which[n++] = CAND_UP_HOP;
    }
    T = fastest(&pl, &w, which, n, &lines);
  } else {
    for (size_t i = 0; i < seg_count(sp) && T >= 0; i++) {
      int64_t lo = seg_start(sp, i), M = seg_end(sp, i) - lo, t;
      if (sp->problem == OC_RRP_BCAST) {
        t = place(&pl, &w, M, lo, 1, KIND_BCAST, 0, (int64_t)i, &lines);
      } else if (sp->problem == OC_RRP_REDUCE) {
        t = place(&pl, &w, M, lo, 1, KIND_UP, 0, 0, &lines);
      } else {
        t = place(&pl, &w, M, lo, 1, KIND_UP, 0, 0, &lines);
        if (t >= 0) {
          int64_t t2 = place(&pl, &w, M, lo, 1, KIND_SCANDOWN, t, 0, &lines);
          t = t2 < 0 ? t2 : t + t2;
        }
      }
      T = t < 0 ? t : oc_max64(T, t);
    }
  }
  sweep_free(&w);
  if (T < 0) return (int)T;
  if (res) {
    res->alg = alg;
    res->time = T;
    res->lines = lines;
  }
  return OC_OK;
}

int oc_rrp_plan(const oc_rrp_spec *sp, oc_rrp_alg alg, oc_rrp_sched *out,
                oc_rrp_result *res) {
  int e = oc_rrp_spec_check(sp);
  oc_rrp_result r, best;
  if (e != OC_OK) return e;
  if ((unsigned)alg > OC_RRP_BEST) return OC_EINVAL;
  if (alg != OC_RRP_BEST) {
    e = plan_one(sp, alg, out, &r);
    if (e == OC_OK && res) *res = r;
    if (e == OC_OK && out) oc_rrp_sched_sort(out);
    return e;
  }
  best.alg = OC_RRP_SWEEP;
  best.time = -1;
  best.lines = 0;
  for (int a = OC_RRP_SWEEP; a <= OC_RRP_BINOMIAL; a++) {
    e = plan_one(sp, (oc_rrp_alg)a, NULL, &r);
    if (e != OC_OK) return e;
    if (best.time < 0 || r.time < best.time) best = r;
  }
  if (out) {
    e = plan_one(sp, best.alg, out, &r);
    if (e != OC_OK) return e;
    oc_rrp_sched_sort(out);
    best = r;
  }
  if (res) *res = best;
  return OC_OK;
}
