/* brute_rrp.c - optimal broadcast, in-order reduction and scan on tiny
 * (N, L)-RRPs by exhaustive search, written without the library.
 *
 * All three searches are iterative deepening on the deadline T (from a valid
 * lower bound up, the first feasible T is the optimum), depth-first over the
 * steps 1..T.  A step is enumerated processor by processor (0..N-1): each
 * either starts no send or one send (what, to whom, which direction, which
 * line), checked at once against the rules: one start per processor (one
 * choice each), one completion per receiver and step, and no two messages
 * in flight on one line sharing a processor.  A message must arrive by T.
 * The state at a step boundary is then advanced and the next step searched.
 * States that failed with R steps left are remembered (a hash set of
 * canonical keys; all times in a key are relative to the current step, so a
 * failure holds for every T).
 *
 * Prunings common to all searches, and why they are safe:
 *  - Lines.  Any permutation of the line labels maps a valid schedule to a
 *    valid one, and the future depends only on which messages are in flight
 *    on which line.  So every line that carries nothing at the moment (no
 *    message in flight and none chosen so far in this step) is equivalent to
 *    every other: a new message is tried on each line that carries
 *    something and on the lowest-numbered empty line only.  Memo keys
 *    rename the lines in order of first use, for the same reason.
 *  - Staged lines (br_deepen): a schedule on L' < L lines is one on L
 *    lines, so for each deadline T the search runs with 1, 2, ..., L lines
 *    and stops at the first success.  After a failure with L' lines in
 *    which no message ever found every line taken (no new line was wanted
 *    when none was left), a search with more lines would make exactly the
 *    same choices and fail too, so T is infeasible and the stages stop.
 *    (Failures are remembered per number of lines: it is in the key.)
 *    This only changes the order of the search: feasible deadlines are
 *    usually found with few lines at once.
 *  - An empty step (nothing sent, nothing in flight) is never needed:
 *    deleting it and moving every later message one step earlier keeps a
 *    schedule valid and makes it no later.
 *  - Distance: information at v usable from step s reaches u no earlier
 *    than the end of step s + D(v,u) - 1, with D the least total flight
 *    over chains of relays (a relay can send in the step after arrival).
 *
 * BROADCAST (root 0; any root by rotation).  State: the informed set, and
 * the messages in flight (receiver, end step, line, segment).  A message is
 * sent only to a processor that is neither informed nor already targeted:
 * in any schedule, the messages to a processor after its first one can be
 * deleted (they only take ports and lines; deleting a message never breaks
 * a rule).  Bound: a processor usable from step s informs at most 2^(T-s+1)
 * processors, itself included, by T (it sends once a step, each message
 * takes a step: the binomial count), so the informed ones plus those in
 * flight must be able to reach N.
 *
 * REDUCTION (into root, any interval the sender knows).  Take any schedule
 * that reduces in T steps and follow how the root forms [0, N-1]: it is a
 * concatenation of x_root and intervals the root received, each of which its
 * sender formed from its own x and intervals it had received, and so on: a
 * derivation tree whose leaves, in order, are x_0 .. x_{N-1} once each.  So
 * every message appears in it at most once and every x_p once.  Deleting
 * the messages outside the tree keeps the schedule valid and the root still
 * forms [0, N-1] (the tree needs only its own messages).  Hence it suffices
 * to search "derivation schedules": the state is a tiling of 0..N-1 into
 * PIECES, each held by one processor (and maybe in flight to it); at the
 * start piece [p,p] is held by p.  A send takes a run of adjacent pieces its
 * sender holds and that have arrived, concatenates them into one interval
 * (the message's content, which the sender can form) and gives it, as one
 * piece in flight, to the receiver; the pieces sent are used up.  The goal
 * is that the root holds every piece.  Conversely every derivation schedule
 * is a valid schedule of the model, so the optimum is exact.  This removes
 * every redundant choice (sending what the receiver has, sending a value
 * twice, sending x_p inside two values) without any further argument.
 * Bound (doubling, backwards): every non-root processor holding a piece
 * must send within the last R = T - t + 1 steps; take each such sender's
 * last send: it goes to a processor that sends later (or the root), one
 * arrival per receiver and step, so these processors form a tree in which a
 * node with k steps before its last send has at most 2^k nodes below and
 * including it: at most 2^R - 1 non-root holders.
 * LONGEST rule: the project's CSV names only b, and the interval carried is
 * the longest one ending at b that the sender can form.  The search then
 * also keeps, for every processor, the closed set of intervals it knows
 * (from the messages of the derivation schedule) and allows a send only if
 * its interval is the longest one ending at b in the sender's set.  This is
 * exact for the restricted problem too: in a restricted schedule, deleting
 * the messages outside the derivation tree only shrinks what each processor
 * knows, and each kept message's interval is still formable by its sender,
 * so by induction over time it stays the longest one ending at b.
 *
 * WHOLE-KNOWLEDGE SEARCH (scan; reduction as a cross-check).  State: the
 * closed set of intervals every processor can form (a bit per interval
 * [a,b]), and the messages in flight (receiver, end, interval, line,
 * segment).  A processor sends any interval it can form (LONGEST: for each
 * b the longest one ending at b) to a processor that cannot form it yet and
 * to which no message with the same interval arrives no later: such a
 * message changes no knowledge and can be deleted.  Last step: a message
 * that arrives in the last step T must be the one that makes its
 * receiver's goal ([0,r] in a scan, [0,N-1] at the root) formable, else it
 * can be deleted (nothing is sent after T).  Bound: for each target g (the
 * root; in a scan every p that cannot form [0,p] yet) the derivation tree
 * of its goal, cut at the current step, tiles the goal by intervals that
 * processors know or have in flight to them; each such holder other than g
 * must still get its tile to g (distance, as above) and must send in the
 * last R steps, so at most 2^R - 1 of them (the doubling argument of the
 * reduction).  Checked by a shortest path over the tiles of holders that
 * can reach g in time, then by trying every small set of holders.
 *
 * Search order only (every choice is still tried, so exactness does not
 * depend on it): in the whole-knowledge search long intervals first and
 * receivers from b+1 on; and without the LONGEST rule each (T, lines)
 * stage first searches with the rule, whose schedules are a subset.
 *
 * Limits: N <= 8 (bit masks); the deadline at most BRUTE_RRP_TMAX; the
 * failure table stops growing at about 256 MB (the search stays exact, only
 * slower).  Running times: see brute_rrp.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "brute_rrp.h"

#define BR_MAXN BRUTE_RRP_MAXN
#define BR_MAXACT 32 /* in flight: one start per processor and step, f <= 3 */
#define BR_KEYW 15
#define BR_MEMO_MAXWORDS ((size_t)1 << 25) /* 256 MB of keys */

/* ---- geometry ------------------------------------------------------------ */

typedef struct br_geo {
  int N, L, ndir; /* ndir = 1 for N = 2: cw and ccw are the same route      */
  int f[BR_MAXN][BR_MAXN][2];
  unsigned seg[BR_MAXN][BR_MAXN][2];
  int D[BR_MAXN][BR_MAXN]; /* least total flight over relays (0 on the diagonal) */
} br_geo;

static int br_flight(int d) {
  int f = 0;
  while ((1 << f) < d) f++;
  return f < 1 ? 1 : f;
}

static void br_geo_init(br_geo *g, int N, int L) {
  memset(g, 0, sizeof *g);
  g->N = N;
  g->L = L;
  g->ndir = N == 2 ? 1 : 2;
  for (int s = 0; s < N; s++)
    for (int r = 0; r < N; r++) {
      g->D[s][r] = s == r ? 0 : 1000;
      if (s == r) continue;
      for (int dir = 0; dir < 2; dir++) {
        int d = dir == BRUTE_RRP_CW ? r - s : s - r;
        int step = dir == BRUTE_RRP_CW ? 1 : N - 1;
        unsigned m = 0;
        d = ((d % N) + N) % N;
        for (int p = s;; p = (p + step) % N) {
          m |= 1u << p;
          if (p == r) break;
        }
        g->f[s][r][dir] = br_flight(d);
        g->seg[s][r][dir] = m;
        if (g->f[s][r][dir] < g->D[s][r]) g->D[s][r] = g->f[s][r][dir];
      }
    }
  for (int k = 0; k < N; k++)
    for (int s = 0; s < N; s++)
      for (int r = 0; r < N; r++)
        if (g->D[s][k] + g->D[k][r] < g->D[s][r]) g->D[s][r] = g->D[s][k] + g->D[k][r];
}

static int br_ceil_log2(int n) {
  int k = 0;
  while ((1 << k) < n) k++;
  return k;
}

/* ---- messages in flight and lines --------------------------------------- */

typedef struct br_act {
  int dst, a, b, end, line;
  unsigned seg;
} br_act;

/* The labels carrying something, and the lowest empty one (-1: none left). */
static uint64_t br_lines_used(const br_act *act, int nact, int L, int *fresh, int *capped) {
  uint64_t used = 0;
  int distinct = 0;
  for (int i = 0; i < nact; i++)
    if (!(used >> act[i].line & 1)) {
      used |= (uint64_t)1 << act[i].line;
      distinct++;
    }
  *fresh = -1;
  if (distinct < L) {
    int l = 0;
    while (used >> l & 1) l++;
    *fresh = l;
  } else {
    *capped = 1; /* a search with more lines would differ */
  }
  return used;
}

static int br_line_ok(const br_act *act, int nact, int line, unsigned seg) {
  for (int i = 0; i < nact; i++)
    if (act[i].line == line && (act[i].seg & seg)) return 0;
  return 1;
}

static int br_recv_ok(const br_act *act, int nact, int dst, int end) {
  for (int i = 0; i < nact; i++)
    if (act[i].dst == dst && act[i].end == end) return 0;
  return 1;
}

/* ---- failure table -------------------------------------------------------- */

typedef struct br_memo {
  uint64_t *slot;
  size_t cap, count;
  int nw;
} br_memo;

typedef struct br_key {
  uint64_t w[BR_KEYW];
  int pos;
} br_key;

static void key_init(br_key *k) {
  memset(k->w, 0, sizeof k->w);
  k->w[0] = 1; /* never all zero: zero marks an empty slot */
  k->pos = 1;
}

static void key_put(br_key *k, uint64_t v, int n) {
  int w = k->pos >> 6, b = k->pos & 63;
  if (w >= BR_KEYW) return; /* cannot happen: sizes checked in *_nw */
  k->w[w] |= v << b;
  if (b + n > 64 && w + 1 < BR_KEYW) k->w[w + 1] |= v >> (64 - b);
  k->pos += n;
}

static size_t memo_hash(const uint64_t *k, int nw) {
  uint64_t h = 0x243f6a8885a308d3ULL;
  for (int i = 0; i < nw; i++) {
    h ^= k[i];
    h *= 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
  }
  return (size_t)h;
}

/* A slot: nw words of key, then one word of value. */
static int memo_init(br_memo *m, int nw) {
  m->nw = nw;
  m->cap = (size_t)1 << 12;
  m->count = 0;
  m->slot = (uint64_t *)calloc(m->cap * (size_t)(nw + 1), sizeof *m->slot);
  return m->slot != NULL;
}

static void memo_free(br_memo *m) {
  free(m->slot);
  m->slot = NULL;
}

static uint64_t *memo_find(const br_memo *m, const uint64_t *k) {
  size_t mask = m->cap - 1, h = memo_hash(k, m->nw) & mask;
  for (;;) {
    uint64_t *s = m->slot + h * (size_t)(m->nw + 1);
    if (s[0] == 0 || memcmp(s, k, (size_t)m->nw * sizeof *s) == 0) return s;
    h = (h + 1) & mask;
  }
}

/* The value stored with key k, or -1. */
static int memo_get(const br_memo *m, const br_key *k) {
  const uint64_t *s = memo_find(m, k->w);
  return s[0] != 0 ? (int)s[m->nw] : -1;
}

static void memo_add(br_memo *m, const br_key *k, int value) {
  size_t stride = (size_t)m->nw + 1;
  if ((m->count + 1) * 2 > m->cap) {
    size_t ncap = m->cap * 2, ocap = m->cap;
    uint64_t *old = m->slot, *fresh;
    if (ncap * stride > BR_MEMO_MAXWORDS) return; /* full: stays exact, only slower */
    fresh = (uint64_t *)calloc(ncap * stride, sizeof *fresh);
    if (fresh == NULL) return;
    m->slot = fresh;
    m->cap = ncap;
    for (size_t i = 0; i < ocap; i++) {
      const uint64_t *s = old + i * stride;
      if (s[0]) memcpy(memo_find(m, s), s, stride * sizeof *s);
    }
    free(old);
  }
  {
    uint64_t *s = memo_find(m, k->w);
    if (s[0] == 0) {
      memcpy(s, k->w, (size_t)m->nw * sizeof *s);
      s[m->nw] = (uint64_t)value;
      m->count++;
    }
  }
}

/* Renames line labels in order of first appearance. */
typedef struct br_relabel {
  int map[64], next;
} br_relabel;

static void relabel_init(br_relabel *r) {
  for (int i = 0; i < 64; i++) r->map[i] = -1;
  r->next = 0;
}

static int relabel(br_relabel *r, int line) {
  if (r->map[line] < 0) r->map[line] = r->next++;
  return r->map[line];
}

/* ---- the schedule being built --------------------------------------------- */

typedef struct br_rec {
  int n;
  brute_rrp_msg m[BRUTE_RRP_MAXMSG];
} br_rec;

static void rec_push(br_rec *r, int t, int src, int dst, int a, int b, int dir,
                     int line) {
  brute_rrp_msg *m = &r->m[r->n++]; /* n <= N per step, T <= TMAX steps */
  m->t = t;
  m->src = src;
  m->dst = dst;
  m->a = a;
  m->b = b;
  m->dir = dir;
  m->line = line;
}

static void rec_save(const br_rec *r, const br_geo *g, brute_rrp_sched *out) {
  if (out == NULL) return;
  out->n = r->n;
  out->time = 0;
  for (int i = 0; i < r->n; i++) {
    const brute_rrp_msg *m = &r->m[i];
    int end = m->t + g->f[m->src][m->dst][m->dir] - 1;
    out->msg[i] = *m;
    if (end > out->time) out->time = end;
  }
}

static int popcount(uint64_t v) {
  int c = 0;
  while (v) {
    v &= v - 1;
    c++;
  }
  return c;
}

/* Sorts act[0..n) by a line-independent key (insertion sort). */
static void act_sort(br_act *act, int n) {
  for (int i = 1; i < n; i++) {
    br_act v = act[i];
    int j = i;
    while (j > 0) {
      const br_act *u = &act[j - 1];
      int gt = u->dst != v.dst ? u->dst > v.dst
               : u->end != v.end ? u->end > v.end
               : u->a != v.a ? u->a > v.a
               : u->b != v.b ? u->b > v.b
               : u->seg > v.seg;
      if (!gt) break;
      act[j] = act[j - 1];
      j--;
    }
    act[j] = v;
  }
}

/* Iterative deepening on T from lb.  try(ctx, T, lines) is 1 on success, 0
 * on failure after wanting more lines than it had, -1 on a failure that no
 * number of lines changes.  Staged lines (the top of this file): for each T
 * the searches with 1, 2, ..., L lines; BRUTE_RRP_NOSTAGE: L lines only;
 * BRUTE_RRP_NOPRUNE: T from 1 (no lower bound) and L lines only.  Staged
 * searches without the LONGEST rule first try it with the rule: its
 * schedules are a subset, often found much sooner. */
static int br_deepen(void *ctx, int (*try_fn)(void *, int, int, int), int lb, int L,
                     int flags, int has_rules) {
  int stage = !(flags & (BRUTE_RRP_NOSTAGE | BRUTE_RRP_NOPRUNE));
  int rule = flags & BRUTE_RRP_LONGEST;
  if (flags & BRUTE_RRP_NOPRUNE) lb = 1;
  for (int T = lb; T <= BRUTE_RRP_TMAX; T++)
    for (int l = stage ? 1 : L; l <= L; l++) {
      int r;
      if (stage && has_rules && rule == BRUTE_RRP_ANY &&
          try_fn(ctx, T, l, BRUTE_RRP_LONGEST) == 1)
        return T; /* a schedule under the rule is one without it */
      r = try_fn(ctx, T, l, rule);
      if (r == 1) return T;
      if (r < 0) break;
    }
  return -1;
}

/* ======================================================================== */
/* BROADCAST                                                                */
/* ======================================================================== */

typedef struct bc_ctx {
  br_geo g;
  int T;
  unsigned full;
  br_memo memo;
  br_rec rec;
  brute_rrp_sched *out;
  long long nodes;
  int capped; /* this search wanted more lines than it had */
  int prune;  /* bounds and the failure table (off: BRUTE_RRP_NOPRUNE) */
} bc_ctx;

static int bc_step(bc_ctx *c, int t, unsigned inf, unsigned tgt, const br_act *act,
                   int nact);

static int bc_choose(bc_ctx *c, int t, int p, unsigned inf, unsigned tgt, br_act *act,
                     int nact) {
  const br_geo *g = &c->g;
  if (p == g->N) {
    br_act nx[BR_MAXACT];
    int nn = 0;
    unsigned inf2 = inf, tgt2 = tgt;
    if (nact == 0) return 0; /* an empty step */
    for (int i = 0; i < nact; i++)
      if (act[i].end == t) {
        inf2 |= 1u << act[i].dst;
        tgt2 &= ~(1u << act[i].dst);
      } else {
        nx[nn++] = act[i];
      }
    return bc_step(c, t + 1, inf2, tgt2, nx, nn);
  }
  if (inf >> p & 1) {
    for (int u = 0; u < g->N; u++) {
      if ((inf | tgt) >> u & 1) continue;
      for (int dir = 0; dir < g->ndir; dir++) {
        int end = t + g->f[p][u][dir] - 1, fresh;
        unsigned seg = g->seg[p][u][dir];
        uint64_t used;
        if (end > c->T) continue;
        used = br_lines_used(act, nact, g->L, &fresh, &c->capped);
        for (int l = 0; l < 64; l++) {
          if (!(used >> l & 1) && l != fresh) continue;
          if (!br_line_ok(act, nact, l, seg)) continue;
          act[nact].dst = u;
          act[nact].a = act[nact].b = 0;
          act[nact].end = end;
          act[nact].line = l;
          act[nact].seg = seg;
          rec_push(&c->rec, t, p, u, 0, 0, dir, l);
          if (bc_choose(c, t, p + 1, inf, tgt | 1u << u, act, nact + 1)) return 1;
          c->rec.n--;
        }
      }
    }
  }
  return bc_choose(c, t, p + 1, inf, tgt, act, nact);
}

static int bc_step(bc_ctx *c, int t, unsigned inf, unsigned tgt, const br_act *act,
                   int nact) {
  const br_geo *g = &c->g;
  int R = c->T - t + 1;
  long long reach;
  br_act work[BR_MAXACT];
  br_key key;
  c->nodes++;
  if ((inf | tgt) == c->full) {
    rec_save(&c->rec, g, c->out);
    return 1;
  }
  if (R <= 0) return 0;
  if (!c->prune) {
    memcpy(work, act, (size_t)nact * sizeof *work);
    return bc_choose(c, t, 0, inf, tgt, work, nact);
  }
  /* doubling */
  reach = (long long)popcount(inf) << R;
  for (int i = 0; i < nact; i++) reach += 1LL << (c->T - act[i].end);
  if (reach < g->N) return 0;
  /* distance */
  for (int u = 0; u < g->N; u++) {
    int best = 1 << 20;
    if ((inf | tgt) >> u & 1) continue;
    for (int v = 0; v < g->N; v++)
      if ((inf >> v & 1) && t + g->D[v][u] - 1 < best) best = t + g->D[v][u] - 1;
    for (int i = 0; i < nact; i++)
      if (act[i].end + g->D[act[i].dst][u] < best) best = act[i].end + g->D[act[i].dst][u];
    if (best > c->T) return 0;
  }
  /* failure table: R, informed, messages in flight (sorted by receiver) */
  memcpy(work, act, (size_t)nact * sizeof *work);
  act_sort(work, nact);
  key_init(&key);
  key_put(&key, (uint64_t)R, 5);
  key_put(&key, (uint64_t)(g->L < 63 ? g->L : 63), 6); /* lines of this stage */
  key_put(&key, inf, 8);
  key_put(&key, (uint64_t)nact, 5);
  {
    br_relabel rl;
    relabel_init(&rl);
    for (int i = 0; i < nact; i++) {
      key_put(&key, (uint64_t)work[i].dst, 3);
      key_put(&key, (uint64_t)(work[i].end - t), 2);
      key_put(&key, (uint64_t)relabel(&rl, work[i].line), 5);
      key_put(&key, work[i].seg, 8);
    }
  }
  /* the failure table: with each failed state, whether its search ran out
   * of lines (staged lines need that even when the state is not searched
   * again) */
  {
    int seen = memo_get(&c->memo, &key), outer = c->capped, found;
    if (seen >= 0) {
      c->capped |= seen;
      return 0;
    }
    c->capped = 0;
    found = bc_choose(c, t, 0, inf, tgt, work, nact);
    if (!found) memo_add(&c->memo, &key, c->capped);
    c->capped |= outer;
    return found;
  }
}

static int bc_try(void *ctx, int T, int lines, int rule) {
  bc_ctx *c = (bc_ctx *)ctx;
  (void)rule;
  br_act none[1];
  memset(none, 0, sizeof none);
  c->T = T;
  c->g.L = lines;
  c->rec.n = 0;
  c->capped = 0;
  return bc_step(c, 1, 1u, 0, none, 0) ? 1 : c->capped ? 0 : -1;
}

static int bc_run(int N, int L, int flags, brute_rrp_sched *out) {
  bc_ctx *c = (bc_ctx *)calloc(1, sizeof *c);
  int res = -1, lb;
  if (c == NULL) return -1;
  br_geo_init(&c->g, N, L);
  c->full = (1u << N) - 1;
  c->out = out;
  c->prune = !(flags & BRUTE_RRP_NOPRUNE);
  if (memo_init(&c->memo, (5 + 6 + 8 + 5 + BR_MAXN * 18) / 64 + 1)) {
    lb = br_ceil_log2(N);
    for (int u = 0; u < N; u++)
      if (c->g.D[0][u] > lb) lb = c->g.D[0][u];
    res = br_deepen(c, bc_try, lb, L, flags, 0);
  }
  if (out != NULL) out->nodes = c->nodes;
  memo_free(&c->memo);
  free(c);
  return res;
}

/* ======================================================================== */
/* intervals                                                                */
/* ======================================================================== */

typedef struct br_iv {
  int n;                         /* intervals: N(N+1)/2 */
  int id[BR_MAXN][BR_MAXN];      /* id[a][b], a <= b     */
  int a[BR_MAXN * (BR_MAXN + 1) / 2], b[BR_MAXN * (BR_MAXN + 1) / 2];
} br_iv;

static void iv_init(br_iv *v, int N) {
  v->n = 0;
  for (int a = 0; a < N; a++)
    for (int b = a; b < N; b++) {
      v->id[a][b] = v->n;
      v->a[v->n] = a;
      v->b[v->n] = b;
      v->n++;
    }
}

static int iv_has(const br_iv *v, uint64_t K, int a, int b) {
  return (int)(K >> v->id[a][b] & 1);
}

/* Adds [a,b] to the concatenation-closed set K (closed again after). */
static uint64_t iv_add(const br_iv *v, int N, uint64_t K, int a, int b) {
  int lefts[BR_MAXN + 1], rights[BR_MAXN + 1], nl = 0, nr = 0;
  if (iv_has(v, K, a, b)) return K;
  lefts[nl++] = a;
  for (int x = 0; x < a; x++)
    if (iv_has(v, K, x, a - 1)) lefts[nl++] = x;
  rights[nr++] = b;
  for (int y = b + 1; y < N; y++)
    if (iv_has(v, K, b + 1, y)) rights[nr++] = y;
  for (int i = 0; i < nl; i++)
    for (int j = 0; j < nr; j++) K |= (uint64_t)1 << v->id[lefts[i]][rights[j]];
  return K;
}

/* The least a with [a,b] in K, or -1. */
static int iv_lo(const br_iv *v, uint64_t K, int b) {
  for (int a = 0; a <= b; a++)
    if (iv_has(v, K, a, b)) return a;
  return -1;
}

/* ======================================================================== */
/* REDUCTION by derivation schedules (pieces)                               */
/* ======================================================================== */

typedef struct rp_piece {
  int a, b, h;   /* interval, holder                                       */
  int ready;     /* usable by h from this step; in flight while > t        */
  int line;      /* in flight: line and segment                            */
  unsigned seg;
} rp_piece;

typedef struct rp_state {
  int np;
  rp_piece pc[BR_MAXN];
  uint64_t know[BR_MAXN]; /* LONGEST rule only */
} rp_state;

typedef struct rp_choice {
  int k1, k2, r, dir, line, end; /* k1 < 0: no send */
} rp_choice;

typedef struct rp_ctx {
  br_geo g;
  br_iv iv;
  int T, root, rule;
  br_memo memo;
  br_rec rec;
  brute_rrp_sched *out;
  long long nodes;
  int capped, prune;
  rp_state s0; /* the start */
} rp_ctx;

static int rp_step(rp_ctx *c, int t, const rp_state *s);

static int rp_advance(rp_ctx *c, int t, const rp_state *s, const rp_choice *chs) {
  const br_geo *g = &c->g;
  rp_state nx;
  int any = 0;
  nx.np = 0;
  memcpy(nx.know, s->know, sizeof nx.know);
  for (int k = 0; k < s->np;) {
    const rp_choice *ch = &chs[s->pc[k].h];
    if (ch->k1 == k) {
      rp_piece *p = &nx.pc[nx.np++];
      int q = s->pc[k].h;
      p->a = s->pc[ch->k1].a;
      p->b = s->pc[ch->k2].b;
      p->h = ch->r;
      p->ready = ch->end + 1;
      p->line = ch->line;
      p->seg = g->seg[q][ch->r][ch->dir];
      k = ch->k2 + 1;
      any = 1;
    } else {
      nx.pc[nx.np++] = s->pc[k];
      if (s->pc[k].ready > t) any = 1;
      k++;
    }
  }
  if (!any) return 0; /* an empty step */
  if (c->rule == BRUTE_RRP_LONGEST)
    for (int k = 0; k < nx.np; k++)
      if (nx.pc[k].ready == t + 1)
        nx.know[nx.pc[k].h] = iv_add(&c->iv, g->N, nx.know[nx.pc[k].h], nx.pc[k].a, nx.pc[k].b);
  return rp_step(c, t + 1, &nx);
}

static int rp_choose(rp_ctx *c, int t, int q, const rp_state *s, rp_choice *chs,
                     br_act *act, int nact) {
  const br_geo *g = &c->g;
  rp_choice *ch;
  if (q == g->N) return rp_advance(c, t, s, chs);
  ch = &chs[q];
  for (int k1 = 0; k1 < s->np; k1++) {
    if (s->pc[k1].h != q || s->pc[k1].ready > t) continue;
    for (int k2 = k1; k2 < s->np && s->pc[k2].h == q && s->pc[k2].ready <= t; k2++) {
      int a = s->pc[k1].a, b = s->pc[k2].b;
      if (c->rule == BRUTE_RRP_LONGEST && iv_lo(&c->iv, s->know[q], b) != a) continue;
      for (int r = 0; r < g->N; r++) {
        if (r == q) continue;
        for (int dir = 0; dir < g->ndir; dir++) {
          int end = t + g->f[q][r][dir] - 1, fresh;
          unsigned seg = g->seg[q][r][dir];
          uint64_t used;
          if (end > c->T || !br_recv_ok(act, nact, r, end)) continue;
          used = br_lines_used(act, nact, g->L, &fresh, &c->capped);
          for (int l = 0; l < 64; l++) {
            if (!(used >> l & 1) && l != fresh) continue;
            if (!br_line_ok(act, nact, l, seg)) continue;
            act[nact].dst = r;
            act[nact].a = a;
            act[nact].b = b;
            act[nact].end = end;
            act[nact].line = l;
            act[nact].seg = seg;
            ch->k1 = k1;
            ch->k2 = k2;
            ch->r = r;
            ch->dir = dir;
            ch->line = l;
            ch->end = end;
            rec_push(&c->rec, t, q, r, a, b, dir, l);
            if (rp_choose(c, t, q + 1, s, chs, act, nact + 1)) return 1;
            c->rec.n--;
          }
        }
      }
    }
  }
  ch->k1 = -1;
  return rp_choose(c, t, q + 1, s, chs, act, nact);
}

static int rp_step(rp_ctx *c, int t, const rp_state *s) {
  const br_geo *g = &c->g;
  int R = c->T - t + 1, nact = 0;
  unsigned holders = 0;
  br_act act[BR_MAXACT];
  rp_choice chs[BR_MAXN];
  br_key key;
  c->nodes++;
  for (int k = 0; k < s->np; k++)
    if (s->pc[k].h != c->root) holders |= 1u << s->pc[k].h;
  if (holders == 0) {
    rec_save(&c->rec, g, c->out);
    return 1;
  }
  if (R <= 0) return 0;
  if (!c->prune) {
    for (int k = 0; k < s->np; k++)
      if (s->pc[k].ready > t) {
        act[nact].dst = s->pc[k].h;
        act[nact].a = s->pc[k].a;
        act[nact].b = s->pc[k].b;
        act[nact].end = s->pc[k].ready - 1;
        act[nact].line = s->pc[k].line;
        act[nact].seg = s->pc[k].seg;
        nact++;
      }
    return rp_choose(c, t, 0, s, chs, act, nact);
  }
  if (R < 4 && popcount(holders) > (1 << R) - 1) return 0; /* doubling */
  for (int k = 0; k < s->np; k++) {                          /* distance */
    const rp_piece *p = &s->pc[k];
    int from = p->ready > t ? p->ready : t;
    if (p->h != c->root && from + g->D[p->h][c->root] - 1 > c->T) return 0;
  }
  key_init(&key);
  key_put(&key, (uint64_t)R, 5);
  key_put(&key, (uint64_t)(g->L < 63 ? g->L : 63), 6); /* lines of this stage */
  key_put(&key, (uint64_t)c->rule, 1);
  key_put(&key, (uint64_t)s->np, 4);
  {
    br_relabel rl;
    relabel_init(&rl);
    for (int k = 0; k < s->np; k++) {
      const rp_piece *p = &s->pc[k];
      int delay = p->ready > t ? p->ready - t : 0;
      key_put(&key, (uint64_t)(p->b - p->a), 3);
      key_put(&key, (uint64_t)p->h, 3);
      key_put(&key, (uint64_t)delay, 2);
      if (delay) {
        key_put(&key, (uint64_t)relabel(&rl, p->line), 5);
        key_put(&key, p->seg, 8);
        act[nact].dst = p->h;
        act[nact].a = p->a;
        act[nact].b = p->b;
        act[nact].end = p->ready - 1;
        act[nact].line = p->line;
        act[nact].seg = p->seg;
        nact++;
      }
    }
  }
  if (c->rule == BRUTE_RRP_LONGEST)
    for (int q = 0; q < g->N; q++) key_put(&key, s->know[q], c->iv.n);
  /* the failure table: with each failed state, whether its search ran out
   * of lines (staged lines need that even when the state is not searched
   * again) */
  {
    int seen = memo_get(&c->memo, &key), outer = c->capped, found;
    if (seen >= 0) {
      c->capped |= seen;
      return 0;
    }
    c->capped = 0;
    found = rp_choose(c, t, 0, s, chs, act, nact);
    if (!found) memo_add(&c->memo, &key, c->capped);
    c->capped |= outer;
    return found;
  }
}

static int reduce_lb(const br_geo *g, int root) {
  int lb = br_ceil_log2(g->N);
  for (int u = 0; u < g->N; u++)
    if (g->D[u][root] > lb) lb = g->D[u][root];
  return lb;
}

static int rp_try(void *ctx, int T, int lines, int rule) {
  rp_ctx *c = (rp_ctx *)ctx;
  c->rule = rule;
  c->T = T;
  c->g.L = lines;
  c->rec.n = 0;
  c->capped = 0;
  return rp_step(c, 1, &c->s0) ? 1 : c->capped ? 0 : -1;
}

static int rp_run(int N, int L, int root, int flags, brute_rrp_sched *out) {
  rp_ctx *c = (rp_ctx *)calloc(1, sizeof *c);
  int res = -1;
  if (c == NULL) return -1;
  br_geo_init(&c->g, N, L);
  iv_init(&c->iv, N);
  c->root = root;
  c->rule = flags & BRUTE_RRP_LONGEST;
  c->out = out;
  c->prune = !(flags & BRUTE_RRP_NOPRUNE);
  c->s0.np = N;
  for (int p = 0; p < N; p++) {
    c->s0.pc[p].a = c->s0.pc[p].b = c->s0.pc[p].h = p;
    c->s0.pc[p].ready = 1;
    c->s0.know[p] = (uint64_t)1 << c->iv.id[p][p];
  }
  if (memo_init(&c->memo, (5 + 6 + 1 + 4 + BR_MAXN * 21 + BR_MAXN * 36) / 64 + 1))
    res = br_deepen(c, rp_try, reduce_lb(&c->g, root), L, flags, 1);
  if (out != NULL) out->nodes = c->nodes;
  memo_free(&c->memo);
  free(c);
  return res;
}

/* ======================================================================== */
/* WHOLE-KNOWLEDGE SEARCH (scan; reduction cross-check)                     */
/* ======================================================================== */

typedef struct fk_ctx {
  br_geo g;
  br_iv iv;
  int T, scan, root, rule;
  br_memo memo;
  br_rec rec;
  brute_rrp_sched *out;
  long long nodes;
  int capped, prune;
  uint64_t k0[BR_MAXN]; /* the start */
  int iord[BR_MAXN * (BR_MAXN + 1) / 2]; /* intervals, longest first */
} fk_ctx;

static int fk_step(fk_ctx *c, int t, const uint64_t *know, const br_act *act, int nact);

/* The goal interval of processor r: [0, r] in a scan, [0, N-1] at the root
 * of a reduction; -1: none. */
static int fk_goal(const fk_ctx *c, int r) {
  if (c->scan) return r;
  return r == c->root ? c->g.N - 1 : -1;
}

/* Every message that arrives in the last step T must be the one that makes
 * its receiver's goal formable: after T nothing more is sent, so a message
 * arriving at T whose receiver's goal is not formable with it, or is
 * formable without it, can be deleted from any schedule.  (Checked once the
 * step's sends are all chosen: other messages to the same receiver arrive
 * earlier, one receive per step.) */
static int fk_last_ok(const fk_ctx *c, const uint64_t *know, const br_act *act, int nact) {
  const br_iv *iv = &c->iv;
  for (int i = 0; i < nact; i++) {
    int r = act[i].dst, goal = fk_goal(c, r);
    uint64_t without = know[r], with;
    if (act[i].end != c->T) continue;
    if (goal < 0) return 0;
    for (int j = 0; j < nact; j++)
      if (j != i && act[j].dst == r) without = iv_add(iv, c->g.N, without, act[j].a, act[j].b);
    with = iv_add(iv, c->g.N, without, act[i].a, act[i].b);
    if (iv_has(iv, without, 0, goal) || !iv_has(iv, with, 0, goal)) return 0;
  }
  return 1;
}

static int fk_choose(fk_ctx *c, int t, int q, const uint64_t *know, br_act *act, int nact) {
  const br_geo *g = &c->g;
  const br_iv *iv = &c->iv;
  if (q == g->N) {
    uint64_t nk[BR_MAXN];
    br_act nx[BR_MAXACT];
    int nn = 0;
    if (nact == 0) return 0; /* an empty step */
    if (c->prune && !fk_last_ok(c, know, act, nact)) return 0;
    memcpy(nk, know, sizeof nk);
    for (int i = 0; i < nact; i++)
      if (act[i].end == t)
        nk[act[i].dst] = iv_add(iv, g->N, nk[act[i].dst], act[i].a, act[i].b);
      else
        nx[nn++] = act[i];
    return fk_step(c, t + 1, nk, nx, nn);
  }
  /* value order only (every choice is still tried): long intervals first,
   * receivers from b+1 on, since prefixes flow to higher indices */
  for (int jj = 0; jj < iv->n; jj++) {
    int j = c->iord[jj], a = iv->a[j], b = iv->b[j];
    if (!(know[q] >> j & 1)) continue;
    if (c->rule == BRUTE_RRP_LONGEST && iv_lo(iv, know[q], b) != a) continue;
    for (int ri = 0; ri < g->N; ri++) {
      int r = (b + 1 + ri) % g->N;
      if (r == q || (know[r] >> j & 1)) continue;
      for (int dir = 0; dir < g->ndir; dir++) {
        int end = t + g->f[q][r][dir] - 1, fresh, dup = 0;
        unsigned seg = g->seg[q][r][dir];
        uint64_t used;
        if (end > c->T || !br_recv_ok(act, nact, r, end)) continue;
        for (int i = 0; i < nact; i++)
          if (act[i].dst == r && act[i].a == a && act[i].b == b && act[i].end <= end) dup = 1;
        if (dup) continue;
        if (t == c->T && c->prune) {
          /* the last step: fk_last_ok, now (the other messages to r all
           * arrive earlier: they are in act already) */
          int goal = fk_goal(c, r);
          uint64_t without = know[r];
          if (goal < 0) break;
          for (int i = 0; i < nact; i++)
            if (act[i].dst == r) without = iv_add(iv, g->N, without, act[i].a, act[i].b);
          if (iv_has(iv, without, 0, goal) ||
              !iv_has(iv, iv_add(iv, g->N, without, a, b), 0, goal))
            continue;
        }
        used = br_lines_used(act, nact, g->L, &fresh, &c->capped);
        for (int l = 0; l < 64; l++) {
          if (!(used >> l & 1) && l != fresh) continue;
          if (!br_line_ok(act, nact, l, seg)) continue;
          act[nact].dst = r;
          act[nact].a = a;
          act[nact].b = b;
          act[nact].end = end;
          act[nact].line = l;
          act[nact].seg = seg;
          rec_push(&c->rec, t, q, r, a, b, dir, l);
          if (fk_choose(c, t, q + 1, know, act, nact + 1)) return 1;
          c->rec.n--;
        }
      }
    }
  }
  return fk_choose(c, t, q + 1, know, act, nact);
}

/* Edges of the intervals each processor holds: nxt[h][a] has bit b+1 when
 * h can form [a,b]; now = known, fly[k] = in flight to h, ending at t+k. */
typedef struct fk_held {
  unsigned now[BR_MAXN][BR_MAXN + 1], fly[3][BR_MAXN][BR_MAXN + 1];
} fk_held;

static void fk_held_init(const fk_ctx *c, int t, const uint64_t *know, const br_act *act,
                         int nact, fk_held *H) {
  const br_iv *iv = &c->iv;
  memset(H, 0, sizeof *H);
  for (int h = 0; h < c->g.N; h++)
    for (int j = 0; j < iv->n; j++)
      if (know[h] >> j & 1) H->now[h][iv->a[j]] |= 1u << (iv->b[j] + 1);
  for (int m = 0; m < nact; m++) H->fly[act[m].end - t][act[m].dst][act[m].a] |= 1u << (act[m].b + 1);
}

/* Lower bound for target gp with goal [0,p] (see the top): [0,p] must be
 * tiled by intervals held by gp and by processors that can still reach gp
 * in time, at most k = 2^R - 1 of them other than gp.  Tried first by the
 * fewest non-gp tiles (a shortest path over the tiles, which is at least
 * the number of their holders), then by every small set of holders. */
static int fk_target_ok(const fk_ctx *c, int t, const fk_held *H, int gp, int p) {
  const br_geo *g = &c->g;
  int R = c->T - t + 1, N = g->N, k = R < 4 ? (1 << R) - 1 : N;
  unsigned e[BR_MAXN][BR_MAXN + 1], holders = 0;
  int dist[BR_MAXN + 2];
  if (R <= 0) return 0;
  for (int h = 0; h < N; h++)
    for (int a = 0; a <= p; a++) {
      unsigned v = t + g->D[h][gp] - 1 <= c->T ? H->now[h][a] : 0;
      for (int o = 0; o < 3; o++)
        if (t + o + g->D[h][gp] <= c->T) v |= H->fly[o][h][a];
      e[h][a] = v;
      if (v && h != gp) holders |= 1u << h;
    }
  for (int x = 0; x <= p + 1; x++) dist[x] = x == 0 ? 0 : 1 << 20;
  for (int a = 0; a <= p; a++) {
    if (dist[a] >= 1 << 20) continue;
    for (int h = 0; h < N; h++)
      for (int x = a + 1; x <= p + 1; x++)
        if ((e[h][a] >> x & 1) && dist[a] + (h != gp) < dist[x]) dist[x] = dist[a] + (h != gp);
  }
  if (dist[p + 1] >= 1 << 20) return 0;
  if (dist[p + 1] <= k) return 1;
  for (unsigned S0 = 1; S0 <= holders; S0++) {
    unsigned reach = 1u, frontier = 1u, S = S0 | 1u << gp;
    if ((S0 & ~holders) || popcount(S0) > k) continue;
    while (frontier) {
      unsigned nf = 0;
      for (int a = 0; a <= p; a++) {
        if (!(frontier >> a & 1)) continue;
        for (int h = 0; h < N; h++)
          if (S >> h & 1) nf |= e[h][a];
      }
      frontier = nf & ~reach;
      reach |= nf;
    }
    if (reach >> (p + 1) & 1) return 1;
  }
  return 0;
}

static int fk_step(fk_ctx *c, int t, const uint64_t *know, const br_act *act, int nact) {
  const br_geo *g = &c->g;
  const br_iv *iv = &c->iv;
  int R = c->T - t + 1, done = 1;
  br_act work[BR_MAXACT];
  br_key key;
  c->nodes++;
  if (c->scan) {
    for (int p = 0; p < g->N; p++)
      if (!iv_has(iv, know[p], 0, p)) done = 0;
  } else {
    done = iv_has(iv, know[c->root], 0, g->N - 1);
  }
  if (done) {
    rec_save(&c->rec, g, c->out);
    return 1;
  }
  if (R <= 0) return 0;
  if (!c->prune) {
    memcpy(work, act, (size_t)nact * sizeof *work);
    return fk_choose(c, t, 0, know, work, nact);
  }
  {
    fk_held H;
    fk_held_init(c, t, know, act, nact, &H);
    if (c->scan) {
      for (int p = 0; p < g->N; p++)
        if (!iv_has(iv, know[p], 0, p) && !fk_target_ok(c, t, &H, p, p)) return 0;
    } else if (!fk_target_ok(c, t, &H, c->root, g->N - 1)) {
      return 0;
    }
  }
  memcpy(work, act, (size_t)nact * sizeof *work);
  act_sort(work, nact);
  key_init(&key);
  key_put(&key, (uint64_t)R, 5);
  key_put(&key, (uint64_t)(g->L < 63 ? g->L : 63), 6); /* lines of this stage */
  key_put(&key, (uint64_t)c->rule, 1);
  for (int p = 0; p < g->N; p++) key_put(&key, know[p], iv->n);
  key_put(&key, (uint64_t)nact, 5);
  {
    br_relabel rl;
    relabel_init(&rl);
    for (int i = 0; i < nact; i++) {
      key_put(&key, (uint64_t)work[i].dst, 3);
      key_put(&key, (uint64_t)(work[i].end - t), 2);
      key_put(&key, (uint64_t)iv->id[work[i].a][work[i].b], 6);
      key_put(&key, (uint64_t)relabel(&rl, work[i].line), 5);
      key_put(&key, work[i].seg, 8);
    }
  }
  /* the failure table: with each failed state, whether its search ran out
   * of lines (staged lines need that even when the state is not searched
   * again) */
  {
    int seen = memo_get(&c->memo, &key), outer = c->capped, found;
    if (seen >= 0) {
      c->capped |= seen;
      return 0;
    }
    c->capped = 0;
    found = fk_choose(c, t, 0, know, work, nact);
    if (!found) memo_add(&c->memo, &key, c->capped);
    c->capped |= outer;
    return found;
  }
}

#define FK_MAXN 8 /* key size: 5 + 6 + 1 + 8*36 + 5 + 24*24 bits < 15 words */

static int fk_try(void *ctx, int T, int lines, int rule) {
  fk_ctx *c = (fk_ctx *)ctx;
  c->rule = rule;
  br_act none[1];
  memset(none, 0, sizeof none);
  c->T = T;
  c->g.L = lines;
  c->rec.n = 0;
  c->capped = 0;
  return fk_step(c, 1, c->k0, none, 0) ? 1 : c->capped ? 0 : -1;
}

static int fk_run(int N, int L, int scan, int root, int flags, brute_rrp_sched *out) {
  fk_ctx *c = (fk_ctx *)calloc(1, sizeof *c);
  int res = -1;
  if (c == NULL) return -1;
  br_geo_init(&c->g, N, L);
  iv_init(&c->iv, N);
  c->scan = scan;
  c->root = root;
  c->rule = flags & BRUTE_RRP_LONGEST;
  c->out = out;
  c->prune = !(flags & BRUTE_RRP_NOPRUNE);
  for (int p = 0; p < N; p++) c->k0[p] = (uint64_t)1 << c->iv.id[p][p];
  {
    int n = 0;
    for (int len = N - 1; len >= 0; len--)
      for (int a = 0; a + len < N; a++) c->iord[n++] = c->iv.id[a][a + len];
  }
  if (memo_init(&c->memo, (5 + 6 + 1 + N * c->iv.n + 5 + 3 * N * 24) / 64 + 1))
    res = br_deepen(c, fk_try, reduce_lb(&c->g, scan ? N - 1 : root), L, flags, 1);
  if (out != NULL) out->nodes = c->nodes;
  memo_free(&c->memo);
  free(c);
  return res;
}

/* ======================================================================== */
/* entry points                                                             */
/* ======================================================================== */

int brute_rrp_solve(int problem, int N, int L, int root, int flags, brute_rrp_sched *out) {
  int maxn = problem == BRUTE_RRP_BCAST || problem == BRUTE_RRP_REDUCE ? BR_MAXN : FK_MAXN;
  if (out != NULL) {
    out->n = 0;
    out->time = 0;
    out->nodes = 0;
  }
  if (problem < BRUTE_RRP_BCAST || problem > BRUTE_RRP_REDUCE_FULL) return -2;
  if (N < 1 || N > maxn || L < 1 || root < 0 || root >= N) return -2;
  if ((flags & ~(BRUTE_RRP_LONGEST | BRUTE_RRP_NOPRUNE | BRUTE_RRP_NOSTAGE)) != 0) return -2;
  if ((problem == BRUTE_RRP_BCAST || problem == BRUTE_RRP_SCAN) && root != 0) return -2;
  if (N == 1) return 0;
  switch (problem) {
  case BRUTE_RRP_BCAST: return bc_run(N, L, flags & ~BRUTE_RRP_LONGEST, out);
  case BRUTE_RRP_REDUCE: return rp_run(N, L, root, flags, out);
  case BRUTE_RRP_SCAN: return fk_run(N, L, 1, 0, flags, out);
  default: return fk_run(N, L, 0, root, flags, out);
  }
}

int brute_rrp_bcast(int N, int L) { return brute_rrp_solve(BRUTE_RRP_BCAST, N, L, 0, 0, NULL); }

int brute_rrp_bcast_sched(int N, int L, brute_rrp_sched *out) {
  return brute_rrp_solve(BRUTE_RRP_BCAST, N, L, 0, 0, out);
}

int brute_rrp_reduce(int N, int L, int root) {
  return brute_rrp_solve(BRUTE_RRP_REDUCE, N, L, root, 0, NULL);
}

static int br_rule_ok(int rule) { return rule == BRUTE_RRP_ANY || rule == BRUTE_RRP_LONGEST; }

int brute_rrp_reduce_sched(int N, int L, int root, int rule, brute_rrp_sched *out) {
  if (!br_rule_ok(rule)) return -2;
  return brute_rrp_solve(BRUTE_RRP_REDUCE, N, L, root, rule, out);
}

int brute_rrp_reduce_full(int N, int L, int root, int rule, brute_rrp_sched *out) {
  if (!br_rule_ok(rule)) return -2;
  return brute_rrp_solve(BRUTE_RRP_REDUCE_FULL, N, L, root, rule, out);
}

int brute_rrp_scan(int N, int L) { return brute_rrp_solve(BRUTE_RRP_SCAN, N, L, 0, 0, NULL); }

int brute_rrp_scan_sched(int N, int L, int rule, brute_rrp_sched *out) {
  if (!br_rule_ok(rule)) return -2;
  return brute_rrp_solve(BRUTE_RRP_SCAN, N, L, 0, rule, out);
}
