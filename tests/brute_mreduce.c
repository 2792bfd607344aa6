/* brute_mreduce.c - the optimum of the LogP reduction of m packets on tiny
 * instances by exhaustive search, written without the library's planners
 * (oc_sched is only the output).  Internally the root is processor 0 (the
 * labels 0 and root are swapped on output).
 *
 * The judge is oc_verify_vreduce (plain form: every message adds, no copy,
 * seq, not_before or hist column): a message (s, src, dst, j) carries the
 * multiset of contributions src has added into its packet j by s
 * (additions ending at s included); dst handles its messages in arrival
 * order, each by one unit addition started at the earliest x >= max(its
 * arrival s + L + 2o, the end of dst's previous addition) with [x, x+1)
 * clear of all of dst's send and receive overheads; the schedule is
 * invalid if an addition would hold more than P contributions (FOLD) or
 * breaks a message rule; it completes when the root's last packet holds
 * every contribution once.
 *
 * 1. Tree form.  Call a message useful when it is in the derivation of the
 *    root's result: a packet-j message to the root is useful when its
 *    addition ends by the time the root's packet j becomes complete; a
 *    packet-j message to q != root is useful when its addition at q ends
 *    by the start of a useful packet-j send of q.  Unfolding the root's
 *    result, every useful message contributes its value, and each value
 *    holds its sender's own contribution; as the result holds every
 *    contribution exactly once, in a valid schedule:
 *    (a) the root sends no useful message (its own contribution would be
 *        counted twice);
 *    (b) each non-root q makes exactly one useful send of each packet j (at
 *        most one: two would count q's contribution twice; at least one:
 *        q's contribution leaves q only in q's own sends);
 *    (c) every packet-j message that q adds before that send is useful (by
 *        definition), so its value is q's own plus the values of the
 *        useful messages into q.
 *    Keep only the useful messages.  The message rules still hold (gaps,
 *    overlaps and capacity compare messages of one processor among
 *    themselves: fewer messages, fewer pairs, fewer in flight).  Every
 *    processor handles a subset of its messages in the same order, and by
 *    induction along that order each addition starts no later than before
 *    (its earliest start max(arrival, previous end) is no later, and the
 *    first clear unit after it, among fewer overheads, is no later).  So
 *    each useful send of q still finds every useful message into q added,
 *    and no other message of that packet (by (c) there was none to add),
 *    and carries the same value as before (induction on send time); the
 *    root adds the same values, no later; no addition exceeds P (every
 *    value added is a disjoint part of the result).  The result: a valid
 *    schedule, completing no later, in TREE FORM: the root never sends;
 *    each non-root q sends each packet j exactly once (to its parent for
 *    j); every packet-j message to q has been added when q sends j, and
 *    none comes to q after that.  Conversely every tree-form schedule that
 *    keeps the message rules is valid: the parent relation of a packet is
 *    acyclic (a sender's send follows the sends of all the messages it
 *    adds), every message carries exactly its sender's subtree, so the
 *    root ends with each contribution once, when its last addition ends.
 *    The search enumerates the tree-form schedules, so its optimum is the
 *    optimum of all valid schedules.  Hence at most m(P-1) messages.
 * 2. Times are integers (the schedule's times are int64 model units; o, L,
 *    g and the unit 1 are integers).  One send start and one receive start
 *    per processor per time unit (g >= 1).
 *
 * What is searched.  The search decides time by time, t = 0, 1, 2, ...: at
 * each t, processor 0, 1, ..., P-1 in turn either sends nothing or sends
 * one packet j it has not sent, none of whose messages to it is still
 * unhandled, to a processor d != it that has not sent j (d may be the
 * root).  Then the additions at [t, t+1): each processor whose oldest
 * unhandled message has arrived (a <= t) and whose overheads leave [t, t+1)
 * free adds it (done at t+1, seen by its sends from t+1 on).  This is the
 * verifier's rule run unit by unit: an addition takes one unit, so "the
 * earliest clear unit after max(arrival, previous end)" is the first free
 * slot; whether slot t is free is known at the end of step t (sends that
 * cover it start at t or before; a reception covering it starts at
 * s + o + L <= t, so s < t, or there are no overheads at all: o = 0).
 * The path is a tree-form schedule (its messages by send start, then
 * sender), and every tree-form schedule with integer times is one path.
 * It succeeds with deadline T at the start of step t <= T when every
 * non-root has sent every packet and every message has been added.
 *
 * The rules along a path.  Messages are decided in nondecreasing send
 * start, so also nondecreasing receive start.  Per processor the search
 * keeps its next allowed send start sw = (last send) + G and receive start
 * rw = (last receive start) + G, G = max(g, o) (send starts g apart and
 * send overheads disjoint: in order that is "G apart"; the same for
 * receptions).  A send at t by p must not overlap p's receive overheads
 * [a-o, a): those of messages decided later start at >= t + o + L, those
 * already handled ended (a <= their addition < t), so only p's unhandled
 * messages with t < a < t + 2o block it.  A reception at d, [t+o+L,
 * t+2o+L), cannot overlap d's sends so far (they end by t + o), and its
 * later sends check it (the message is unhandled at d until after a).
 * Capacity (max(1, ceil(L/g)) in flight) follows from the gaps (starts G
 * >= g apart).  So every path keeps the message rules; the tests check
 * the witness with the verifier anyway.
 *
 * The state at the start of step t is time-shift invariant written
 * relative to t: per processor max(0, sw - t) (the last send, at sw - G,
 * is the only one whose overhead can still cover a slot >= t), max(0,
 * rw - (t+o+L)) (receive starts before t+o+L are not possible any more),
 * the packets it has sent, and its unhandled messages in arrival order,
 * each as (packet, max(0, a - t)): an arrived one's exact arrival no
 * longer matters, an in-flight one's overhead does.  With the budget
 * T - t that is the whole subproblem.
 *
 * Reductions of the search (each optional, BRUTE_MR_*):
 * MEMO  states proven to fail with budget b are stored (the state above;
 *       canonical under SYM's symmetries when SYM is on); the same state
 *       with a budget <= b fails too (a schedule meeting a deadline meets
 *       every later one).  The table survives from one deadline to the
 *       next (budgets are relative).  A full run of the table overwrites an
 *       entry (a cache: only time is lost).
 * SYM   (a) the non-root processors are interchangeable, and so are the
 *       packets: a state and its image under a permutation of the non-root
 *       processors and of the packets are the same subproblem.  The MEMO
 *       key is then the least, over the packet permutations, of the root's
 *       record followed by the non-root records sorted (records are
 *       self-delimiting, so equal keys are images of one another).
 *       (b) within a step, when p sends packet j to a non-root d: if
 *       d' < d is another non-root, not p, whose state is the same as d's
 *       now (sw, rw, packets sent, unhandled messages: this includes what
 *       happened at t so far) and on the same side of p (both already
 *       decided at t, or both still to decide), swapping d and d' is an
 *       automorphism of the current search node (the choices of one step
 *       constrain each other only through the shared receivers' rw and the
 *       packets sent and under way, symmetrically, so the order in which
 *       processors decide within a step does not change which combinations
 *       are possible): only the least d of such a class is tried.  Likewise
 *       packets: if packet j' < j is in the same state at every processor
 *       (sent by the same processors, and no unhandled message of either
 *       anywhere), only j' is tried.  By induction on the steps left, a
 *       completion through a skipped choice is the image of one through a
 *       tried choice, and the search finds one there.
 * PRUNE lower bounds, each a relaxation of the rules:
 *       (a) a send must still be followed by its arrival (L + 2o) and one
 *       addition by T: no send after T - L - 2o - 1; to a non-root d, d
 *       must add it and send the packet on itself, so none to a non-root
 *       after T - 2(L + 2o + 1);
 *       (b) a non-root processor sends each of its unsent packets j at or
 *       after max(t, sw) and after its addition of its last unhandled
 *       packet-j message, which ends at or after x_k in x_0 = t, x_k =
 *       max(x_{k-1}, a_k) + 1 over its unhandled messages in order (one
 *       addition per unit, overheads ignored); its sends are G apart, so
 *       the last starts no earlier than the release-ordered greedy
 *       sequence's last (the least makespan of G-long jobs with release
 *       times), and must still arrive and be added by T;
 *       (c) the root handles its unhandled messages in order and then at
 *       least one message of every packet some non-root has not sent yet
 *       (that contribution can only come in a message not sent yet),
 *       whose receive starts are >= max(t + o + L, rw) and G apart, each
 *       added one unit after its arrival at the earliest: the last of the
 *       additions (overheads ignored) must end by T.
 *
 * The deadline T runs up from L + 2o + 1 (a message and an addition) to
 * the first one that succeeds; the schedule in which the non-roots send
 * every packet straight to the root, one message every max(G, L + 2o + 1)
 * units, bounds it: (m(P-1) - 1) max(G, L+2o+1) + L + 2o + 1.  Failing
 * there would be a bug (returns -1). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "brute_mreduce.h"

#define MAXP BRUTE_MR_MAXP
#define MAXM BRUTE_MR_MAXM
#define MAXMSG ((MAXP - 1) * MAXM)
#define KEYW 5 /* key words: 40 bytes >= 3 P + m (P - 1) */
#define RMAX 512
#define RSAT (1 << 20)

typedef struct memo_e {
  uint64_t k[KEYW];
  int32_t bud1; /* failing budget + 1; 0 = empty slot */
} memo_e;

typedef struct mr {
  int P, m, L, o, G, lat; /* lat = L + 2o */
  int Ga;                 /* max(G, o + 1): receptions that are all added */
  int T;                  /* the deadline tried */
  int flags;
  int sw[MAXP];               /* earliest next send start */
  int rw[MAXP];               /* earliest next receive start */
  int sent[MAXP];             /* packets sent (bitmask; the root: none) */
  int np[MAXP];               /* unhandled messages, in arrival order: */
  int pa[MAXP][MAXMSG];       /*   arrival */
  int pj[MAXP][MAXMSG];       /*   packet */
  int open;                   /* (non-root, packet) pairs not sent */
  int unhandled;              /* messages not added yet */
  int n, ms[MAXMSG], msrc[MAXMSG], mdst[MAXMSG], mitem[MAXMSG];
  int nperm, perm[24][MAXM];  /* the packet permutations (SYM) */
  int32_t reach[RMAX];        /* R(y) of PRUNE (d), saturated at RSAT */
  memo_e *memo;
  size_t mask;
  int64_t nodes, max_nodes; /* max_nodes <= 0: no limit */
  int aborted;              /* the limit was hit: nothing is proven */
} mr;

/* ---- state ---------------------------------------------------------------- */

static int has_unhandled(const mr *b, int p, int j) {
  for (int k = 0; k < b->np[p]; k++)
    if (b->pj[p][k] == j) return 1;
  return 0;
}

/* non-roots p and q are in the same state (at the same moment) */
static int same_proc(const mr *b, int p, int q) {
  if (b->sw[p] != b->sw[q] || b->rw[p] != b->rw[q] || b->sent[p] != b->sent[q] ||
      b->np[p] != b->np[q])
    return 0;
  for (int k = 0; k < b->np[p]; k++)
    if (b->pa[p][k] != b->pa[q][k] || b->pj[p][k] != b->pj[q][k]) return 0;
  return 1;
}

/* packets i and j are in the same state everywhere, none under way */
static int same_item(const mr *b, int i, int j) {
  for (int p = 0; p < b->P; p++) {
    if (((b->sent[p] >> i) & 1) != ((b->sent[p] >> j) & 1)) return 0;
    if (has_unhandled(b, p, i) || has_unhandled(b, p, j)) return 0;
  }
  return 1;
}

/* ---- the table of failed states ------------------------------------------- */

/* processor p's record relative to t, packets renamed by pm; returns its length */
static int record(const mr *b, int p, int t, const int *pm, unsigned char *out) {
  int rsw = b->sw[p] > t ? b->sw[p] - t : 0;
  int r0 = t + b->o + b->L, rrw = b->rw[p] > r0 ? b->rw[p] - r0 : 0, mask = 0;
  for (int j = 0; j < b->m; j++)
    if ((b->sent[p] >> j) & 1) mask |= 1 << pm[j];
  out[0] = (unsigned char)(rsw | rrw << 4);
  out[1] = (unsigned char)mask;
  out[2] = (unsigned char)b->np[p];
  for (int k = 0; k < b->np[p]; k++) {
    int a = b->pa[p][k] > t ? b->pa[p][k] - t : 0;
    out[3 + k] = (unsigned char)(pm[b->pj[p][k]] << 5 | a);
  }
  return 3 + b->np[p];
}

static int rec_cmp(const unsigned char *x, int nx, const unsigned char *y, int ny) {
  int n = nx < ny ? nx : ny, c = memcmp(x, y, (size_t)n);
  if (c != 0) return c;
  return nx - ny;
}

static void key_of(const mr *b, int t, uint64_t *key) {
  unsigned char best[8 * KEYW], cur[8 * KEYW];
  int sym = b->flags & BRUTE_MR_SYM, np = sym ? b->nperm : 1;
  memset(best, 0xff, sizeof best);
  for (int x = 0; x < np; x++) {
    unsigned char rec[MAXP][3 + MAXMSG];
    int len[MAXP], ord[MAXP], n = 0;
    memset(cur, 0, sizeof cur);
    for (int p = 0; p < b->P; p++) {
      len[p] = record(b, p, t, b->perm[x], rec[p]);
      ord[p] = p;
    }
    if (sym)
      for (int i = 2; i < b->P; i++) { /* insertion sort of the non-roots */
        int v = ord[i], j = i;
        while (j > 1 && rec_cmp(rec[ord[j - 1]], len[ord[j - 1]], rec[v], len[v]) > 0) {
          ord[j] = ord[j - 1];
          j--;
        }
        ord[j] = v;
      }
    for (int i = 0; i < b->P; i++) {
      memcpy(cur + n, rec[ord[i]], (size_t)len[ord[i]]);
      n += len[ord[i]];
    }
    if (memcmp(cur, best, sizeof cur) < 0) memcpy(best, cur, sizeof best);
  }
  for (int w = 0; w < KEYW; w++) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | best[8 * w + i];
    key[w] = v;
  }
}

static size_t slot_of(const mr *b, const uint64_t *k) {
  uint64_t h = 0x243F6A8885A308D3ULL;
  for (int w = 0; w < KEYW; w++) {
    h ^= k[w];
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 29;
  }
  return (size_t)h & b->mask;
}

static int key_eq(const uint64_t *x, const uint64_t *y) {
  for (int w = 0; w < KEYW; w++)
    if (x[w] != y[w]) return 0;
  return 1;
}

/* 1 when the state is known to fail with budget bud */
static int memo_fails(const mr *b, const uint64_t *k, int bud) {
  size_t h = slot_of(b, k);
  for (int i = 0; i < 4; i++, h = (h + 1) & b->mask) {
    const memo_e *e = &b->memo[h];
    if (e->bud1 == 0) return 0;
    if (key_eq(e->k, k)) return e->bud1 - 1 >= bud;
  }
  return 0;
}

static void memo_put(mr *b, const uint64_t *k, int bud) {
  size_t h = slot_of(b, k), first = h;
  memo_e *e;
  for (int i = 0; i < 4; i++, h = (h + 1) & b->mask) {
    e = &b->memo[h];
    if (e->bud1 == 0 || key_eq(e->k, k)) {
      if (e->bud1 < bud + 1) e->bud1 = bud + 1;
      memcpy(e->k, k, sizeof e->k);
      return;
    }
  }
  e = &b->memo[first]; /* a full run: overwrite */
  memcpy(e->k, k, sizeof e->k);
  e->bud1 = bud + 1;
}

/* ---- lower bounds (PRUNE (b), (c)) ---------------------------------------- */

/* p's busy time still due for its unhandled messages: the rest of their
 * receive overheads and their additions */
static int work(const mr *b, int p, int t) {
  int w = 0;
  for (int k = 0; k < b->np[p]; k++) {
    int a = b->pa[p][k], left = a - t;
    w += 1 + (left <= 0 ? 0 : left < b->o ? left : b->o);
  }
  return w;
}

static int hopeless(const mr *b, int t) {
  int need_root = 0; /* packets some non-root has still to send */
  for (int q = 1; q < b->P; q++) {
    int rel[MAXM], nr = 0, e = b->sw[q] > t ? b->sw[q] : t, x = t, y = INT_MIN / 2;
    int done_j[MAXM];
    int unsent = ~b->sent[q] & ((1 << b->m) - 1);
    if (unsent == 0) continue;
    need_root |= unsent;
    for (int j = 0; j < b->m; j++) done_j[j] = e;
    for (int k = 0; k < b->np[q]; k++) { /* its additions, one per unit */
      x = (x > b->pa[q][k] ? x : b->pa[q][k]) + 1;
      if (x > done_j[b->pj[q][k]]) done_j[b->pj[q][k]] = x;
    }
    for (int j = 0; j < b->m; j++) /* release times, sorted */
      if ((unsent >> j) & 1) {
        int v = done_j[j], i = nr++;
        while (i > 0 && rel[i - 1] > v) { rel[i] = rel[i - 1]; i--; }
        rel[i] = v;
      }
    for (int i = 0; i < nr; i++) y = rel[i] > y + b->G ? rel[i] : y + b->G;
    if (y + b->lat + 1 > b->T) return 1; /* (b) */
    if (work(b, q, t) + nr * b->o > b->T - b->lat - 1 + b->o - t) return 1; /* (b') */
  }
  {
    int x = t, f = 0, r0 = t + b->o + b->L;
    for (int j = 0; j < b->m; j++) f += (need_root >> j) & 1;
    for (int k = 0; k < b->np[0]; k++) x = (x > b->pa[0][k] ? x : b->pa[0][k]) + 1;
    if (b->rw[0] > r0) r0 = b->rw[0];
    for (int k = 0; k < f; k++) {
      int a = r0 + k * b->G + b->o;
      x = (x > a ? x : a) + 1;
    }
    if (x > b->T) return 1; /* (c) */
    if (f > 0 && r0 + b->o + (f - 1) * b->Ga + 1 > b->T) return 1; /* (c') */
    if (work(b, 0, t) + f * (b->o + 1) > b->T - t) return 1;     /* (c'') */
  }
  { /* (d) */
    int64_t cap = 0;
    int lo = b->rw[0] - b->o - b->L; /* the root's receptions start >= rw */
    if (lo < t) lo = t;
    for (int s = b->T - b->lat - 1; s >= lo && cap < b->open; s -= b->Ga)
      cap += b->reach[s - t < RMAX ? s - t : RMAX - 1];
    if (cap < b->open) return 1;
  }
  return 0;
}

/* ---- the search ------------------------------------------------------------- */

static int step(mr *b, int t, int p);

/* the start of step t: 1 when the rest can be done by T */
static int boundary(mr *b, int t) {
  uint64_t key[KEYW];
  int ok, bud = b->T - t;
  if (b->aborted) return 0;
  if (++b->nodes > b->max_nodes && b->max_nodes > 0) {
    b->aborted = 1;
    return 0;
  }
  if (b->open == 0 && b->unhandled == 0) return 1;
  if (bud <= 0) return 0;
  if ((b->flags & BRUTE_MR_PRUNE) && hopeless(b, t)) return 0;
  if (b->flags & BRUTE_MR_MEMO) {
    key_of(b, t, key);
    if (memo_fails(b, key, bud)) return 0;
  }
  ok = step(b, t, 0);
  if (!ok && !b->aborted && (b->flags & BRUTE_MR_MEMO)) memo_put(b, key, bud);
  return ok;
}

/* slot [t, t+1) is covered by one of p's overheads (all decided by now) */
static int covered(const mr *b, int p, int t) {
  int last = b->sw[p] - b->G; /* the last send (or earlier than -o: none) */
  if (b->o == 0) return 0;
  if (last <= t && t < last + b->o) return 1;
  for (int k = 0; k < b->np[p]; k++)
    if (b->pa[p][k] - b->o <= t && t < b->pa[p][k]) return 1;
  return 0;
}

/* the end of step t: the additions in [t, t+1), then step t + 1 */
static int additions(mr *b, int t) {
  int took[MAXP] = {0}, ta[MAXP] = {0}, tj[MAXP] = {0}, ok;
  for (int p = 0; p < b->P; p++) {
    took[p] = b->np[p] > 0 && b->pa[p][0] <= t && !covered(b, p, t);
    if (!took[p]) continue;
    ta[p] = b->pa[p][0];
    tj[p] = b->pj[p][0];
    memmove(&b->pa[p][0], &b->pa[p][1], (size_t)(b->np[p] - 1) * sizeof b->pa[p][0]);
    memmove(&b->pj[p][0], &b->pj[p][1], (size_t)(b->np[p] - 1) * sizeof b->pj[p][0]);
    b->np[p]--;
    b->unhandled--;
  }
  ok = boundary(b, t + 1);
  for (int p = 0; p < b->P; p++) {
    if (!took[p]) continue;
    memmove(&b->pa[p][1], &b->pa[p][0], (size_t)b->np[p] * sizeof b->pa[p][0]);
    memmove(&b->pj[p][1], &b->pj[p][0], (size_t)b->np[p] * sizeof b->pj[p][0]);
    b->pa[p][0] = ta[p];
    b->pj[p][0] = tj[p];
    b->np[p]++;
    b->unhandled++;
  }
  return ok;
}

static int can_send(const mr *b, int p, int t) {
  if (b->sw[p] > t) return 0;
  for (int k = 0; k < b->np[p]; k++) { /* receiving [a-o, a) overlaps [t, t+o) */
    int a = b->pa[p][k];
    if (a > t && a < t + 2 * b->o) return 0;
  }
  return 1;
}

/* processor p decides at step t */
static int step(mr *b, int t, int p) {
  int sym = b->flags & BRUTE_MR_SYM, prune = b->flags & BRUTE_MR_PRUNE;
  if (b->aborted) return 0;
  if (p == b->P) return additions(b, t);
  if (p != 0 && b->sent[p] != (1 << b->m) - 1 && can_send(b, p, t) &&
      !(prune && t + b->lat + 1 > b->T)) {
    int r = t + b->o + b->L;
    for (int j = 0; j < b->m; j++) {
      int ok_item = 1;
      if (((b->sent[p] >> j) & 1) || has_unhandled(b, p, j)) continue;
      if (sym)
        for (int i = 0; i < j && ok_item; i++)
          if (same_item(b, i, j)) ok_item = 0;
      if (!ok_item) continue;
      for (int d = 0; d < b->P; d++) {
        int ok_dst = 1, sw0, rw0;
        if (d == p || (d != 0 && ((b->sent[d] >> j) & 1)) || b->rw[d] > r) continue;
        if (prune && d != 0 && t + 2 * (b->lat + 1) > b->T) continue;
        if (sym && d != 0)
          for (int e = 1; e < d && ok_dst; e++)
            if (e != p && (e < p) == (d < p) && same_proc(b, d, e)) ok_dst = 0;
        if (!ok_dst) continue;
        /* send */
        sw0 = b->sw[p];
        rw0 = b->rw[d];
        b->sw[p] = t + b->G;
        b->rw[d] = r + b->G;
        b->sent[p] |= 1 << j;
        b->open--;
        b->pa[d][b->np[d]] = t + b->lat;
        b->pj[d][b->np[d]] = j;
        b->np[d]++;
        b->unhandled++;
        b->ms[b->n] = t;
        b->msrc[b->n] = p;
        b->mdst[b->n] = d;
        b->mitem[b->n] = j;
        b->n++;
        if (step(b, t, p + 1)) return 1;
        b->n--;
        b->unhandled--;
        b->np[d]--;
        b->open++;
        b->sent[p] &= ~(1 << j);
        b->rw[d] = rw0;
        b->sw[p] = sw0;
      }
    }
  }
  return step(b, t, p + 1); /* p sends nothing at t */
}

static void perms(mr *b) {
  int a[MAXM] = {0}, c[MAXM] = {0}, i = 0;
  for (int j = 0; j < b->m; j++) a[j] = j;
  b->nperm = 0;
  memcpy(b->perm[b->nperm++], a, sizeof a);
  while (i < b->m) { /* Heap's algorithm */
    if (c[i] < i) {
      int x = i % 2 == 0 ? 0 : c[i], tmp = a[x];
      a[x] = a[i];
      a[i] = tmp;
      memcpy(b->perm[b->nperm++], a, sizeof a);
      c[i]++;
      i = 0;
    } else {
      c[i] = 0;
      i++;
    }
  }
}

int64_t brute_mreduce_search(int64_t L, int64_t o, int64_t g, int64_t P, int64_t m,
                             int64_t root, int flags, int64_t max_nodes, oc_sched *witness,
                             int64_t *nodes) {
  mr *b;
  int64_t G = g > o ? g : o, lat = L + 2 * o, D, ub, res = -1;
  if (nodes) *nodes = 0;
  if (P < 1 || P > MAXP || m < 1 || m > MAXM || root < 0 || root >= P || L < 0 || o < 0 ||
      g < 1 || lat < 1 || lat > 30 || G > 15)
    return -2;
  if (P == 1) return 0;
  b = (mr *)calloc(1, sizeof *b);
  if (b == NULL) return -1;
  b->P = (int)P;
  b->m = (int)m;
  b->L = (int)L;
  b->o = (int)o;
  b->G = (int)G;
  b->lat = (int)lat;
  b->Ga = (int)(G > o + 1 ? G : o + 1);
  b->flags = flags;
  b->max_nodes = max_nodes;
  perms(b);
  for (int y = 0; y < RMAX; y++) { /* R(y) */
    int64_t n = 1;
    for (int k = 0; y - (b->lat + 1) - k * b->Ga >= 0 && n < RSAT; k++)
      n += b->reach[y - (b->lat + 1) - k * b->Ga];
    b->reach[y] = (int32_t)(n < RSAT ? n : RSAT);
  }
  if (flags & BRUTE_MR_MEMO) {
    size_t size = (size_t)1 << (P * m <= 8 ? 14 : P * m <= 12 ? 18 : 20);
    b->memo = (memo_e *)calloc(size, sizeof *b->memo);
    if (b->memo == NULL) {
      free(b);
      return -1;
    }
    b->mask = size - 1;
  }
  D = G > lat + 1 ? G : lat + 1;
  ub = (m * (P - 1) - 1) * D + lat + 1;
  for (int64_t T = lat + 1; T <= ub; T++) {
    int ok;
    b->T = (int)T;
    for (int p = 0; p < b->P; p++) {
      b->sw[p] = 0;
      b->rw[p] = 0;
      b->sent[p] = 0;
      b->np[p] = 0;
    }
    b->open = b->m * (b->P - 1);
    b->unhandled = 0;
    b->n = 0;
    ok = boundary(b, 0);
    if (b->aborted) {
      res = -3;
      break;
    }
    if (ok) {
      res = T;
      if (witness)
        for (int k = 0; k < b->n; k++) {
          int64_t s = b->msrc[k], d = b->mdst[k];
          s = s == 0 ? root : s == root ? 0 : s; /* internal 0 is the root */
          d = d == 0 ? root : d == root ? 0 : d;
          if (oc_sched_push(witness, b->ms[k], s, d, b->mitem[k]) != OC_OK) {
            res = -1;
            break;
          }
        }
      break;
    }
  }
  if (nodes) *nodes = b->nodes;
  free(b->memo);
  free(b);
  return res;
}

int64_t brute_mreduce_opt(int64_t L, int64_t o, int64_t g, int64_t P, int64_t m,
                          int64_t root, oc_sched *witness) {
  return brute_mreduce_search(L, o, g, P, m, root, BRUTE_MR_ALL, 0, witness, NULL);
}
