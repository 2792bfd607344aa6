/* oc_kport.c - multi-message broadcast in the k-port model.
 *
 * Source: "Broadcasting multiple messages in the multiport model" (Bar-Noy
 * and Ho, IEEE TPDS 1999); the text we worked from lost its formulas in
 * extraction, so what follows is reconstructed from its prose and checked
 * by exhaustive search, tests/brute_kport.c; docs/ALGORITHMS.md, "k-port").
 *
 * Model: n processors, rounds 1, 2, ...; per round a processor sends at
 * most k messages to distinct processors and receives at most k from
 * distinct processors; an arrival in round r can be forwarded from r + 1.
 * The source holds m messages.  Below, the source is processor 0 and the
 * others are 1..N (N = n - 1); a root r relabels x as (x + r) mod n.
 *
 * Lower bounds (k' = min(k, N): the source reaches at most N processors a
 * round; d = ceil(log_{k+1} n)):
 *  Lemma 1   d rounds for one message: the informed set grows at most
 *            (k+1)-fold a round.
 *  Lemma 2   ceil(m/k') - 1 + d: the last message leaves the source no
 *            earlier than round T0 = ceil(m/k'), then needs d rounds.
 *  Lemma 3   +1 when beta (n - 1) > (k+1)^d - 1, beta = m - k'(T0 - 1):
 *            the beta messages that leave the source in round T0 or later
 *            need beta (n-1) deliveries, and in the j-th round from T0 at
 *            most k (k+1)^(j-1) are possible (the processors knowing any
 *            of them).  The seed's Corollary 4 is the case n = (k+1)^d.
 *  receive   1 + ceil((m-1)/k'): a processor gets at most one message in
 *            round 1 (only the source knows any) and k' in later rounds.
 *
 * KTREE (the seed's section 3, Theorem 6; the trees built here by a rule
 * of our own, below): kk = min(k, N, m) spanning trees rooted at the
 * source, which has one child in each; message i goes down tree i mod kk,
 * sent by the source in round i/kk + 1 and forwarded one level a round.  A
 * processor sends in one round to its children in every tree and receives
 * from its parent in every tree, so the rules hold when (a) its children
 * summed over the trees number at most k, and (b) no pair (x, y) is
 * parent-child in two trees.  Time: max_j (messages in tree j - 1 + H_j),
 * H_j the depth of tree j (source at depth 0); ceil(m/kk) - 1 + H.
 * Construction: tree j lists the processors by remaining child budget
 * (k minus children in earlier trees), most first, ties by number; the
 * first one that is not an earlier tree's top becomes the top, and the
 * list is read in breadth-first order, each node taking as many of the
 * next ones as its budget allows (skipping, by a swap, any processor it
 * is already parent of).  Example k = 2, n = 8 (N = 7): tree 0 is
 * 1 -> {2, 3} -> {4, 5, 6, 7}, tree 1 is 4 -> {5, 6} -> {1, 2, 3, 7};
 * H = 3, so m messages take ceil(m/2) + 2 rounds: optimal for even m
 * (Lemma 3: 2 * 7 > 3^2 - 1), one above for odd m >= 5 (`optcast plan
 * kbcast --model kport --ports 2 --procs 8 --items 4` prints its reception
 * table; m = 1, 3 are optimal by the last-message spread below).  It is
 * optimal when H = d + 1 and Lemma 3 adds its round, as here, and one
 * above whenever H = d + 1; H grows as log_k n against the bound's
 * log_{k+1} n (docs/algorithms/kport.md tabulates the gap).  Cost O(k n)
 * time and memory for the trees, plus the m (n - 1) messages.
 *
 * KTREE's last message (ours): when the trees for the first m - 1
 * messages finish earlier than those for m (a last batch of one message),
 * the last message is not sent down tree 0 but spread greedily, from the
 * source's first free round on, over the send and receive ports the trees
 * leave free (kp_tail_spread: round by round, receivers with no later
 * free port first, then those with the most free send ports after this
 * round); kept when everybody has it by lb or lb + 1 (lb first) and
 * that is earlier than the trees' time.  No proof it succeeds: the schedule is verified like
 * every other.  For m = 1 it is the (k+1)-ary spread, d rounds.  This
 * brings the n without a chain to Lemma 2 + 1 at beta = 1 (the trees are
 * Lemma 2 + 2 there) - every k <= 6, n <= 10^4 is then within one round
 * of the lower bound on the docs' grid - and some instances to the bound.
 * Cost O(n k w (k + w) + n w log n) beyond the trees, w = rounds spread.
 *
 * BEST where no chain of delay d + 1 exists and the k-tree is above the
 * bound (ours): a chain of delay d + 2 (oc_kport_chain_find_slack), which
 * is lb + 1 when Lemma 3 adds its round; for a last batch of one message
 * x, the chain for m - 1 messages (it ends at Lemma 2 + 1) and x sent by
 * replacement (kp_rotation_tail: the sends the chain would make for the
 * batches after the last, every one of them x, the first arrival at each
 * processor kept), which reaches everybody by Lemma 2 + 1 = lb + 1 when no
 * SINGLE box sits at position d + 2 (oc_kport_chain_find_tail; such a
 * chain exists for every n without a chain of delay d + 1, k <= 6,
 * n <= 10^4).  It matters where the k-tree's height is d + 3 (k = 3,
 * n = 3762..4095 without a chain: a fan-out-3 tree of depth d + 2 holds
 * too few); there the greedy spread above works at a few batches but not
 * at many (the chain keeps every port busy until it drains, and the chain
 * it had ended with a SINGLE that is busy receiving until round lb + 1).
 * The greedy spread over the plain slack chain stays as the fallback.
 *
 * DIRECT, n <= k + 1 (ours; `rotation` and `best` use it there): with
 * N = n - 1 <= k partners nobody can exceed k, so only the distinct-partner
 * rule binds.  The source sends batch b (N messages, one to each
 * processor) in round b; the receiver forwards its message to the N - 1
 * others in round b + 1; when m = N (T - 1) + 1 the last message goes from
 * the source to everybody in round T.  T = 1 + ceil((m - 1)/N) rounds =
 * the receptions bound, which is the lower bound for n <= k + 1 (Lemma 3
 * never exceeds it there): optimal for every m, O(m n).
 *
 * ROTATION for n = (k+1)^d (the seed's section 4; the one-box case of its
 * chain of "broadcast black boxes"): processors are the vectors of
 * Z_{k+1}^d, the source is 0, and
 * round r uses dimension c = (r - 1) mod d: every processor v sends to its
 * k neighbours v + a e_c (a = 1..k; a send to 0 is dropped).  The source
 * sends the k messages of batch r - 1 to a e_c.  Every other v forwards
 * one message: with u_t its digit in dimension (c - t) mod d, its stage s
 * is d if u_0 != 0, else the largest t < d with u_t != 0; it sends lane
 * u_s of batch r - 1 - s.  The processors of one stage and lane form a
 * coset of the span of the s - 1 dimensions used since the message
 * entered, the cosets of all stages partition Z^d minus 0, each send
 * reaches a processor that lacks the message, and a message reaches all
 * (k+1)^d processors d rounds after the source sent it.  So every
 * processor sends and receives k messages a round, to and from distinct
 * neighbours, and m messages take ceil(m/k) + d rounds: optimal when the
 * last batch has at least two messages (Lemma 3), one above Lemma 2
 * otherwise.  Other n: a chain of boxes (oc_kport_chain.c), ceil(m/k) + d
 * rounds or one fewer where one is found - every n for k <= 2; for k >= 3
 * most n, docs/ALGORITHMS.md lists the others for k <= 6, n <= 200 (for
 * k >= 7 many large n have no chain).
 */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"

__extension__ typedef unsigned __int128 kp_u128;

static const char *const KP_NAMES[] = {"ktree", "rotation", "best", "circulant"};

const char *oc_kport_alg_name(oc_kport_alg a) {
  return (a >= OC_KP_KTREE && a <= OC_KP_CIRCULANT) ? KP_NAMES[a] : "?";
}

int oc_kport_alg_parse(const char *name, oc_kport_alg *out) {
  for (int i = 0; i <= (int)OC_KP_CIRCULANT; i++)
    if (strcmp(name, KP_NAMES[i]) == 0) {
      *out = (oc_kport_alg)i;
      return OC_OK;
    }
  if (strcmp(name, "k-tree") == 0) {
    *out = OC_KP_KTREE;
    return OC_OK;
  }
  if (strcmp(name, "optimal") == 0) {
    *out = OC_KP_BEST;
    return OC_OK;
  }
  return OC_EINVAL;
}

static int kp_args_ok(int64_t n, int64_t k, int64_t m) {
  return n >= 1 && n <= OC_PROCS_MAX && k >= 1 && k <= OC_PARAM_MAX && m >= 1 &&
         m <= OC_KPORT_ITEMS_MAX;
}

/* ceil(log_b n) for b >= 2, n >= 1, and b^that (exact, n <= 2^62). */
static int64_t kp_clog(int64_t n, int64_t b, kp_u128 *pw) {
  kp_u128 x = 1;
  int64_t d = 0;
  while (x < (kp_u128)n) {
    x *= (kp_u128)b;
    d++;
  }
  if (pw) *pw = x;
  return d;
}

static int64_t kp_ceil(int64_t a, int64_t b) { return a / b + (a % b != 0); }

int oc_kport_bound(int64_t n, int64_t k, int64_t m, oc_kport_bounds *out) {
  int64_t ks, t0, beta;
  kp_u128 pw;
  if (out == NULL || !kp_args_ok(n, k, m)) return OC_EINVAL;
  memset(out, 0, sizeof *out);
  if (n == 1) return OC_OK;
  ks = oc_min64(k, n - 1);
  out->depth = kp_clog(n, k + 1, &pw);
  t0 = kp_ceil(m, ks);
  out->lemma2 = t0 - 1 + out->depth;
  beta = m - ks * (t0 - 1);
  out->lemma3 = out->lemma2 +
                ((kp_u128)beta * (kp_u128)(n - 1) > pw - 1 ? 1 : 0);
  out->recv = 1 + kp_ceil(m - 1, ks);
  out->lb = oc_max64(out->lemma3, out->recv);
  return OC_OK;
}

int oc_kport_rotation_covers(int64_t n, int64_t k, int64_t *depth) {
  kp_chain *c;
  int ok;
  if (n < 1 || n > OC_PROCS_MAX || k < 1 || k > OC_PARAM_MAX) return 0;
  if (n == 1) {
    if (depth) *depth = 0;
    return 1;
  }
  if (n <= k + 1) { /* DIRECT (below): a message takes 2 rounds, 1 for n = 2 */
    if (depth) *depth = n == 2 ? 1 : 2;
    return 1;
  }
  c = (kp_chain *)malloc(sizeof *c);
  if (c == NULL) return 0;
  ok = oc_kport_chain_find(n, k, c) == OC_OK;
  if (ok && depth) *depth = c->delay;
  free(c);
  return ok;
}

/* ---- KTREE ------------------------------------------------------------------ */
typedef struct kp_trees {
  int64_t N, kk;
  int32_t *par;   /* par[j * (N + 1) + y]: parent of y in tree j (0 = source) */
  int32_t *dep;   /* depth of y in tree j                                     */
  int64_t *H;     /* height of tree j                                         */
  uint64_t *pair; /* open-addressing set of parent-child pairs x * W + y + 1  */
  size_t pmask;
} kp_trees;

static void kp_trees_free(kp_trees *t) {
  free(t->par);
  free(t->dep);
  free(t->H);
  free(t->pair);
}

static size_t kp_hash(uint64_t key, size_t mask) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdULL;
  key ^= key >> 33;
  return (size_t)key & mask;
}

/* Open addressing over set[0..mask] (keys != 0): is key in it?  add: put. */
static int kp_set(uint64_t *set, size_t mask, uint64_t key, int add) {
  size_t h = kp_hash(key, mask);
  while (set[h] != 0) {
    if (set[h] == key) return 1;
    h = (h + 1) & mask;
  }
  if (add) set[h] = key;
  return 0;
}

/* Is x already y's parent in an earlier tree?  add != 0: record it. */
static int kp_pair(kp_trees *t, int64_t x, int64_t y, int add) {
  return kp_set(t->pair, t->pmask, (uint64_t)x * (uint64_t)(t->N + 1) + (uint64_t)y + 1, add);
}

static int kp_build_trees(int64_t N, int64_t k, int64_t m, int64_t kk, kp_trees *t) {
  int64_t W = N + 1;
  int64_t kb = oc_min64(k, N); /* budgets never exceed N useful children */
  int64_t *bud = NULL, *list = NULL, *cnt = NULL, *ntop = NULL;
  unsigned char *top = NULL;
  size_t cap = 2;
  int e = OC_ENOMEM;
  memset(t, 0, sizeof *t);
  t->N = N;
  t->kk = kk;
  while (cap < (size_t)(2 * kk * N)) cap <<= 1;
  t->pmask = cap - 1;
  t->par = (int32_t *)malloc((size_t)(kk * W) * sizeof *t->par);
  t->dep = (int32_t *)malloc((size_t)(kk * W) * sizeof *t->dep);
  t->H = (int64_t *)calloc((size_t)kk, sizeof *t->H);
  t->pair = (uint64_t *)calloc(cap, sizeof *t->pair);
  bud = (int64_t *)malloc((size_t)W * sizeof *bud);
  list = (int64_t *)malloc((size_t)W * sizeof *list);
  cnt = (int64_t *)malloc((size_t)(kb + 2) * sizeof *cnt);
  ntop = (int64_t *)malloc((size_t)kk * sizeof *ntop);
  top = (unsigned char *)calloc((size_t)W, 1);
  if (!t->par || !t->dep || !t->H || !t->pair || !bud || !list || !cnt || !top ||
      !ntop)
    goto out;
  for (int64_t y = 1; y <= N; y++) bud[y] = kb;
  /* tops per tree: the source sends k a round when m > kk; with m = kk < k
   * (one batch) it can give each message several first receivers */
  for (int64_t j = 0; j < kk; j++) {
    ntop[j] = 1;
    if (m == kk && kk < k) {
      int64_t ports = oc_min64(k, N);
      ntop[j] = ports / kk + (j < ports % kk);
    }
  }
  for (int64_t j = 0; j < kk; j++) {
    int32_t *par = t->par + j * W, *dep = t->dep + j * W;
    int64_t nxt, p;
    /* counting sort by budget, most first, ties by number */
    for (int64_t b = 0; b <= kb + 1; b++) cnt[b] = 0;
    for (int64_t y = 1; y <= N; y++) cnt[kb - bud[y] + 1]++;
    for (int64_t b = 1; b <= kb + 1; b++) cnt[b] += cnt[b - 1];
    for (int64_t y = 1; y <= N; y++) list[cnt[kb - bud[y]]++] = y;
    /* the tops (the source's children): the first processors that are no
     * earlier tree's top; one per tree, or with a single batch (m < k)
     * the source's k ports shared among the m trees */
    for (nxt = 0; nxt < ntop[j]; nxt++) {
      for (p = nxt; p < N && top[list[p]]; p++) {}
      if (p == N) { e = OC_EINVAL; goto out; } /* cannot happen: sum <= N */
      {
        int64_t x = list[p];
        memmove(list + nxt + 1, list + nxt, (size_t)(p - nxt) * sizeof *list);
        list[nxt] = x;
        top[x] = 1;
        par[x] = 0;
        dep[x] = 1;
        t->H[j] = 1;
      }
    }
    for (p = 0; p < N && nxt < N; p++) {
      int64_t x = list[p];
      if (p >= nxt) { e = OC_EINVAL; goto out; } /* budgets ran out */
      while (bud[x] > 0 && nxt < N) {
        int64_t q = nxt;
        while (q < N && kp_pair(t, x, list[q], 0)) q++;
        if (q == N) break;
        if (q != nxt) {
          int64_t s = list[q];
          list[q] = list[nxt];
          list[nxt] = s;
        }
        par[list[nxt]] = (int32_t)x;
        dep[list[nxt]] = dep[x] + 1;
        if (dep[x] + 1 > t->H[j]) t->H[j] = dep[x] + 1;
        (void)kp_pair(t, x, list[nxt], 1);
        bud[x]--;
        nxt++;
      }
    }
    if (nxt < N) { e = OC_EINVAL; goto out; }
  }
  e = OC_OK;
out:
  free(bud);
  free(list);
  free(cnt);
  free(top);
  free(ntop);
  if (e != OC_OK) kp_trees_free(t);
  return e;
}

static int64_t kp_phys(int64_t x, int64_t root, int64_t n) {
  return (x + root) % n;
}

/* The trees and their time (the schedule is kp_ktree_emit's). */
static int kp_ktree_build(int64_t n, int64_t k, int64_t m, kp_trees *t,
                          oc_kport_result *res) {
  int64_t N = n - 1, time = 0, H = 0, kk = oc_min64(oc_min64(k, N), m);
  int e;
  /* The greedy rule can run out of conflict-free pairs when k is close to
   * n (e.g. n = 10, k = 7); fewer trees always work (one tree does). */
  while ((e = kp_build_trees(N, k, m, kk, t)) == OC_EINVAL && kk > 1) kk--;
  if (e != OC_OK) return e;
  for (int64_t j = 0; j < t->kk; j++) {
    int64_t cnt = kp_ceil(m - j, t->kk); /* messages down tree j */
    if (cnt > 0 && cnt - 1 + t->H[j] > time) time = cnt - 1 + t->H[j];
    if (t->H[j] > H) H = t->H[j];
  }
  res->alg = OC_KP_KTREE;
  res->time = time;
  res->height = H;
  return OC_OK;
}

static int kp_ktree_emit(const kp_trees *t, int64_t n, int64_t m, int64_t root,
                         oc_sched *out) {
  int64_t N = n - 1;
  int e = OC_OK;
  for (int64_t i = 0; i < m && e == OC_OK; i++) {
    int64_t j = i % t->kk, b = i / t->kk;
    for (int64_t y = 1; y <= N && e == OC_OK; y++)
      e = oc_sched_push(out, b + t->dep[j * (N + 1) + y],
                        kp_phys(t->par[j * (N + 1) + y], root, n), kp_phys(y, root, n),
                        i);
  }
  return e;
}

/* ---- KTREE's last message, spread greedily (ours) ---------------------------
 * When the k-tree for m messages takes T rounds but the k-tree for the
 * first m - 1 takes fewer (the last batch holds one message, beta = 1), the
 * last message x need not go down tree 0: from round T0 = its batch's round
 * on, the source is idle, and as the trees drain the other processors get
 * free ports.  Round by round, r = T0..target, every holder of x sends it
 * over its free send ports (k minus its tree sends that round) to
 * processors that lack it and have a free receive port, skipping a pair
 * the trees already use that round (the distinct-partner rule).  Order of
 * the receivers: those with no free receive port in a later round up to
 * the target first, then by free send ports in the rounds after this one
 * (most first: they spread x further), then by number.  Each holder takes
 * receivers in turn; a receiver no holder can serve waits for the next
 * round.  Nothing guarantees the target, so the result is kept only when
 * everybody has x by then; the verifier checks every schedule.  Cost
 * O(n k d (d + k) + n d log n) beyond the trees, d = target - T0.  This is
 * what brings the n without a chain (k >= 3) to Lemma 2 + 1 for beta = 1,
 * where the trees alone were Lemma 2 + 2 (docs/algorithms/kport.md). */
typedef struct kp_tail {
  const kp_trees *t;
  int64_t n, k, m1; /* m1 = m - 1 messages down the trees */
  int32_t *nch;     /* nch[j * (N + 1) + x]: x's children in tree j */
  int64_t *cnt;     /* messages down tree j */
  /* or, when t == NULL, any schedule's ports in rounds w0..w0 + w - 1:
   * receptions / sends rc, sc[v * w + r - w0], pairs a hash set */
  int64_t w0, w, *rc, *sc;
  uint64_t *pairs;
  size_t pmask;
  int order; /* receivers: 0 last chance first, 1 fewest later free ports first */
} kp_tail;

static uint64_t kp_tail_key(const kp_tail *z, int64_t u, int64_t v, int64_t r) {
  return ((uint64_t)(r - z->w0) * (uint64_t)z->n + (uint64_t)u) * (uint64_t)z->n +
         (uint64_t)v + 1;
}

/* The set of pairs (u, v) used in round r: is (u, v, r) in it?  add: put. */
static int kp_tail_pair(kp_tail *z, int64_t u, int64_t v, int64_t r, int add) {
  return kp_set(z->pairs, z->pmask, kp_tail_key(z, u, v, r), add);
}

/* The ports a schedule uses in rounds w0..w0 + w - 1. */
static int kp_tail_fill(kp_tail *z, const oc_sched *s, int64_t w0, int64_t w) {
  size_t cap = 2, cnt = 0;
  for (size_t i = 0; i < s->n; i++)
    cnt += s->msg[i].t >= w0 && s->msg[i].t < w0 + w;
  while (cap < 2 * cnt + 2) cap <<= 1;
  z->w0 = w0;
  z->w = w;
  z->pmask = cap - 1;
  z->rc = (int64_t *)calloc((size_t)(z->n * w), sizeof *z->rc);
  z->sc = (int64_t *)calloc((size_t)(z->n * w), sizeof *z->sc);
  z->pairs = (uint64_t *)calloc(cap, sizeof *z->pairs);
  if (!z->rc || !z->sc || !z->pairs) return OC_ENOMEM;
  for (size_t i = 0; i < s->n; i++) {
    const oc_msg *a = &s->msg[i];
    if (a->t < w0 || a->t >= w0 + w) continue;
    z->rc[a->dst * w + a->t - w0]++;
    z->sc[a->src * w + a->t - w0]++;
    (void)kp_tail_pair(z, a->src, a->dst, a->t, 1);
  }
  return OC_OK;
}

/* Does y (>= 1) get a tree-j message in round r? */
static int kp_tail_act(const kp_tail *z, int64_t j, int64_t y, int64_t r) {
  int64_t dp = z->t->dep[j * (z->t->N + 1) + y];
  return r >= dp && r <= z->cnt[j] - 1 + dp;
}

static int64_t kp_tail_recv(const kp_tail *z, int64_t y, int64_t r) {
  int64_t c = 0;
  if (z->t == NULL) return z->rc[y * z->w + r - z->w0];
  for (int64_t j = 0; j < z->t->kk; j++) c += kp_tail_act(z, j, y, r);
  return c;
}

static int64_t kp_tail_send(const kp_tail *z, int64_t x, int64_t r) {
  int64_t c = 0, W;
  if (z->t == NULL) return z->sc[x * z->w + r - z->w0];
  W = z->t->N + 1;
  for (int64_t j = 0; j < z->t->kk; j++) {
    int64_t dp = x == 0 ? 0 : z->t->dep[j * W + x];
    if (r >= dp + 1 && r <= z->cnt[j] + dp) c += z->nch[j * W + x];
  }
  return c;
}

/* Does u send v a tree message in round r? */
static int kp_tail_used(kp_tail *z, int64_t u, int64_t v, int64_t r) {
  int64_t W;
  if (z->t == NULL) return kp_tail_pair(z, u, v, r, 0);
  W = z->t->N + 1;
  for (int64_t j = 0; j < z->t->kk; j++)
    if (z->t->par[j * W + v] == u && kp_tail_act(z, j, v, r)) return 1;
  return 0;
}

typedef struct kp_cand {
  int64_t last, grow, v; /* sort keys: last chance first, then most ports */
} kp_cand;

static int kp_cand_cmp(const void *a, const void *b) {
  const kp_cand *x = (const kp_cand *)a, *y = (const kp_cand *)b;
  if (x->last != y->last) return x->last > y->last ? -1 : 1;
  if (x->grow != y->grow) return x->grow > y->grow ? -1 : 1;
  return (x->v > y->v) - (x->v < y->v);
}

/* Spread x in rounds T0..target; on success the sends (round, from, to)
 * are in snd[0..3(n-1)) and the last round in *last. */
static int kp_tail_spread(kp_tail *z, int64_t T0, int64_t target, int64_t *snd,
                          int64_t *last) {
  int64_t n = z->n, k = z->k, nh = 1, ns = 0, nact, w = target - T0 + 1;
  /* free receive and send ports of v in round T0 + q: fr/fs[v * w + q] */
  int64_t *fr = (int64_t *)malloc((size_t)(n * w) * sizeof *fr);
  int64_t *fs = (int64_t *)malloc((size_t)(n * w) * sizeof *fs);
  unsigned char *have = (unsigned char *)calloc((size_t)n, 1);
  int64_t *hold = (int64_t *)malloc((size_t)n * sizeof *hold);
  int64_t *act = (int64_t *)malloc((size_t)n * sizeof *act);
  int64_t *slack = (int64_t *)malloc((size_t)n * sizeof *slack);
  kp_cand *cd = (kp_cand *)malloc((size_t)n * sizeof *cd);
  int e = OC_ENOMEM;
  if (!fr || !fs || !have || !hold || !act || !slack || !cd) goto out;
  for (int64_t v = 0; v < n; v++)
    for (int64_t q = 0; q < w; q++) {
      fr[v * w + q] = v == 0 ? 0 : k - kp_tail_recv(z, v, T0 + q);
      fs[v * w + q] = k - kp_tail_send(z, v, T0 + q);
    }
  have[0] = 1;
  hold[0] = 0;
  *last = 0;
  for (int64_t r = T0; r <= target && nh < n; r++) {
    int64_t nc = 0, nh0 = nh;
    for (int64_t v = 1; v < n; v++) {
      int64_t fut = 0, grow = 0;
      const int64_t *vr = fr + v * w - T0, *vs = fs + v * w - T0;
      if (have[v] || vr[r] <= 0) continue;
      for (int64_t q = r + 1; q <= target; q++) fut += vr[q];
      for (int64_t q = r + 1; q < target; q++) grow += vs[q];
      cd[nc].last = z->order == 0 ? fut == 0 : -fut;
      cd[nc].grow = grow;
      cd[nc++].v = v;
    }
    qsort(cd, (size_t)nc, sizeof *cd, kp_cand_cmp);
    nact = 0;
    for (int64_t h = 0; h < nh0; h++) {
      int64_t u = hold[h];
      slack[u] = fs[u * w + r - T0];
      if (slack[u] > 0) act[nact++] = u;
    }
    for (int64_t c = 0; c < nc && nact > 0; c++) {
      int64_t v = cd[c].v, i = 0;
      while (i < nact && kp_tail_used(z, act[i], v, r)) i++;
      if (i == nact) continue;
      snd[3 * ns] = r;
      snd[3 * ns + 1] = act[i];
      snd[3 * ns + 2] = v;
      ns++;
      have[v] = 1;
      hold[nh++] = v;
      *last = r;
      if (--slack[act[i]] == 0) act[i] = act[--nact];
    }
  }
  e = nh == n ? OC_OK : OC_EUNSUP;
out:
  free(fr);
  free(fs);
  free(have);
  free(hold);
  free(act);
  free(slack);
  free(cd);
  return e;
}

/* The k-tree for m - 1 messages (none for m = 1) and x spread greedily,
 * if that beats `worse` rounds, trying the targets lb and lb + 1: OC_OK
 * with the time in *time (and the schedule in out when out != NULL),
 * OC_EUNSUP when it does not. */
static int kp_ktree_tail(int64_t n, int64_t k, int64_t m, int64_t root, int64_t lb,
                         int64_t worse, oc_sched *out, int64_t *time) {
  kp_trees t;
  kp_tail z;
  oc_kport_result a;
  int64_t W = n, T0, *snd = NULL, last = 0, base;
  int e;
  if (m == 1) { /* no trees: x alone, (k+1)-fold a round, Lemma 1's d */
    memset(&t, 0, sizeof t);
    t.N = n - 1;
    a.time = 0;
  } else if ((e = kp_ktree_build(n, k, m - 1, &t, &a)) != OC_OK) {
    return e;
  }
  base = a.time;
  if (base >= worse) {
    kp_trees_free(&t);
    return OC_EUNSUP;
  }
  memset(&z, 0, sizeof z);
  z.t = &t;
  z.n = n;
  z.k = k;
  z.m1 = m - 1;
  z.nch = (int32_t *)calloc((size_t)(t.kk * W + 1), sizeof *z.nch);
  z.cnt = (int64_t *)malloc((size_t)(t.kk + 1) * sizeof *z.cnt);
  snd = (int64_t *)malloc((size_t)(3 * n) * sizeof *snd);
  e = OC_ENOMEM;
  if (z.nch != NULL && z.cnt != NULL && snd != NULL) {
    /* x leaves the source in the first round it has a free port */
    T0 = 1;
    for (int64_t j = 0; j < t.kk; j++) {
      z.cnt[j] = kp_ceil(m - 1 - j, t.kk);
      if (z.cnt[j] < 0) z.cnt[j] = 0;
      for (int64_t y = 1; y < n; y++) z.nch[j * W + t.par[j * W + y]]++;
    }
    while (kp_tail_send(&z, 0, T0) >= k) T0++;
    e = OC_EUNSUP;
    /* targets lb and lb + 1 only: the spread is for the last round or two
     * (and its window, target - T0 + 1, stays about d rounds) */
    for (int64_t target = oc_max64(lb, base); target < worse && target <= lb + 1 &&
                                              e == OC_EUNSUP;
         target++)
      for (z.order = 0; z.order < 2 && e == OC_EUNSUP; z.order++)
        e = kp_tail_spread(&z, T0, target, snd, &last);
  }
  if (e == OC_OK && out != NULL) {
    e = kp_ktree_emit(&t, n, m - 1, root, out);
    for (int64_t i = 0; i < n - 1 && e == OC_OK; i++)
      e = oc_sched_push(out, snd[3 * i], kp_phys(snd[3 * i + 1], root, n),
                        kp_phys(snd[3 * i + 2], root, n), m - 1);
  }
  if (e == OC_OK) *time = oc_max64(base, last);
  free(z.nch);
  free(z.cnt);
  free(snd);
  kp_trees_free(&t);
  return e;
}

/* ---- DIRECT: n <= k + 1 -------------------------------------------------------
 * Every processor has at most N = n - 1 partners, so k >= N never binds and
 * only the distinct-partner rule does.  Message i < N (T - 1), T = 1 +
 * ceil((m - 1)/N), is the (i mod N + 1)-th of batch b = i / N: the source
 * sends it to processor i mod N + 1 in round b + 1, which forwards it to
 * the N - 1 others in round b + 2.  The message i = N (T - 1), present when
 * m = N (T - 1) + 1, goes from the source to everybody in round T.  In a
 * round r >= 2 processor p hears its N - 1 fellows (batch r - 1) and the
 * source (batch r, or the last message): N distinct senders, each new.
 * Time T = the receptions bound, which is the lower bound here. */
static int64_t kp_direct_time(int64_t n, int64_t m) {
  return 1 + kp_ceil(m - 1, n - 1);
}

static int kp_direct(int64_t n, int64_t m, int64_t root, oc_sched *out,
                     oc_kport_result *res) {
  int64_t N = n - 1, T = kp_direct_time(n, m);
  int e = OC_OK;
  for (int64_t i = 0; out != NULL && i < m && e == OC_OK; i++) {
    int64_t b = i / N, p = i % N + 1;
    if (i == N * (T - 1)) { /* the last message, alone in round T */
      for (int64_t q = 1; q <= N && e == OC_OK; q++)
        e = oc_sched_push(out, T, kp_phys(0, root, n), kp_phys(q, root, n), i);
      break;
    }
    e = oc_sched_push(out, b + 1, kp_phys(0, root, n), kp_phys(p, root, n), i);
    for (int64_t q = 1; q <= N && e == OC_OK; q++)
      if (q != p) e = oc_sched_push(out, b + 2, kp_phys(p, root, n), kp_phys(q, root, n), i);
  }
  if (e == OC_OK && res != NULL) {
    res->alg = OC_KP_ROTATION;
    res->time = T;
    res->height = N >= 2 && m >= 2 ? 2 : 1;
  }
  return e;
}

/* ---- ROTATION (oc_kport_chain.c) ------------------------------------------- */
static int kp_rotation(int64_t n, int64_t k, int64_t m, int64_t root,
                       oc_sched *out, oc_kport_result *res) {
  kp_chain *c;
  int64_t time = 0;
  int e;
  if (n <= k + 1) return kp_direct(n, m, root, out, res);
  c = (kp_chain *)malloc(sizeof *c);
  if (c == NULL) return OC_ENOMEM;
  e = oc_kport_chain_find(n, k, c);
  if (e == OC_OK) e = oc_kport_chain_emit(c, m, root, out, &time);
  if (e == OC_OK && res != NULL) {
    res->alg = OC_KP_ROTATION;
    res->time = time;
    res->height = c->delay;
  }
  free(c);
  return e;
}

/* BEST where no chain of delay d + 1 exists, for a last batch of one
 * message x (ours): the chain of delay d + 2 for the other m - 1 messages,
 * and x sent by *replacement*.  Let the chain run on with batches
 * B, B + 1, ..., B + d (B = ceil(m/k), virtual batches), every message of
 * them replaced by x; a processor that forwards a virtual message got it
 * earlier, so it has x, and the virtual sends use only ports and pairs the
 * real batches leave free (the chain's schedule for all the batches obeys
 * the rules).  Of them keep, for every processor, the send that reaches it
 * first: n - 1 sends of x, each from a processor that has it.  Once the
 * chain runs full (more batches than its delay) that first arrival is the
 * first round from B on in which the processor has a free receive port
 * after the base, so no spread over this base can be faster; with a
 * chain of oc_kport_chain_find_tail it is within d + 1 rounds of round B,
 * i.e. by B + d = Lemma 2 + 1, which is lb + 1 (Lemma 3 never adds its
 * round at beta = 1).  The chain for m - 1 messages ends at the same round.
 * The virtual sends are written one item at a time into a scratch
 * schedule: O(n) memory beyond the output, O(n k d) time beyond the base.
 * OC_EUNSUP when there is no such chain or it is not below `worse`. */
static int kp_rotation_tail(int64_t n, int64_t k, int64_t m, int64_t root, int64_t worse,
                            oc_sched *out, oc_kport_result *res) {
  kp_chain *c;
  oc_sched tmp;
  int64_t *ft = NULL, *fs = NULL, base = 0, last = 0, m1 = m - 1;
  int e;
  if (m < 2 || m1 % k != 0) return OC_EUNSUP; /* not a last batch of one */
  if ((c = (kp_chain *)malloc(sizeof *c)) == NULL) return OC_ENOMEM;
  oc_sched_init(&tmp);
  if ((e = oc_kport_chain_find_tail(n, k, c)) != OC_OK) goto out; /* OC_EUNSUP: none */
  base = m1 / k - 1 + c->delay;
  if (base >= worse) { /* the base alone is no faster */
    e = OC_EUNSUP;
    goto out;
  }
  ft = (int64_t *)malloc((size_t)n * sizeof *ft);
  fs = (int64_t *)malloc((size_t)n * sizeof *fs);
  if (ft == NULL || fs == NULL) {
    e = OC_ENOMEM;
    goto out;
  }
  for (int64_t v = 0; v < n; v++) ft[v] = INT64_MAX;
  /* the virtual batches B..B+d (a later one cannot arrive by B + d), one
   * item at a time: each processor's first arrival (round, sender) */
  for (int64_t item = m1; item < m1 + k * (c->d + 1) && e == OC_OK; item++) {
    tmp.n = 0;
    e = oc_kport_chain_emit_range(c, item, item + 1, 0, &tmp, NULL);
    for (size_t i = 0; i < tmp.n && e == OC_OK; i++) {
      int64_t v = tmp.msg[i].dst;
      if (tmp.msg[i].t < ft[v]) {
        ft[v] = tmp.msg[i].t;
        fs[v] = tmp.msg[i].src;
      }
    }
  }
  if (e != OC_OK) goto out;
  for (int64_t v = 1; v < n; v++) last = oc_max64(last, ft[v]);
  e = last == INT64_MAX || oc_max64(base, last) >= worse ? OC_EUNSUP : OC_OK;
  if (e == OC_OK && out != NULL) {
    e = oc_kport_chain_emit(c, m1, root, out, NULL);
    for (int64_t v = 1; v < n && e == OC_OK; v++)
      e = oc_sched_push(out, ft[v], kp_phys(fs[v], root, n), kp_phys(v, root, n), m1);
  }
  if (e == OC_OK && res != NULL) {
    res->alg = OC_KP_ROTATION;
    res->time = oc_max64(base, last);
    res->height = c->delay;
  }
out:
  free(c);
  free(ft);
  free(fs);
  oc_sched_free(&tmp);
  return e;
}

/* BEST where no chain of delay d + 1 exists (n > k + 1): a chain of delay
 * d + 2, which is lb + 1 when Lemma 3 adds its round, and for the others
 * the chain for m - 1 messages with the last one spread greedily over the
 * ports the chain leaves free (kp_tail_spread on the chain's schedule):
 * OC_OK with the time in *time and the schedule in out (when not NULL),
 * OC_EUNSUP when there is no such chain or it is not below `worse`. */
static int kp_rotation_slack(int64_t n, int64_t k, int64_t m, int64_t root, int64_t lb,
                             int64_t worse, oc_sched *out, oc_kport_result *res) {
  kp_chain *c = (kp_chain *)malloc(sizeof *c);
  oc_sched tmp;
  kp_tail z;
  int64_t plain, base = 0, last = 0, T0 = 1, *snd = NULL;
  int e, spread = 0;
  if (c == NULL) return OC_ENOMEM;
  oc_sched_init(&tmp);
  memset(&z, 0, sizeof z);
  /* beta = 1: the replacement spread over a chain that allows it (it
   * writes nothing when it answers OC_EUNSUP) */
  if ((e = kp_rotation_tail(n, k, m, root, worse, out, res)) != OC_EUNSUP) goto out;
  if ((e = oc_kport_chain_find_slack(n, k, 1, c)) != OC_OK) goto out;
  plain = kp_ceil(m, k) - 1 + c->delay;
  base = m >= 2 ? kp_ceil(m - 1, k) - 1 + c->delay : plain; /* the chain's time for m - 1 */
  /* the base schedule is written (into tmp) only where the spread can help */
  if (m >= 2 && base < plain && base <= lb + 1 &&
      (e = oc_kport_chain_emit(c, m - 1, 0, &tmp, &base)) != OC_OK)
    goto out;
  if (m >= 2 && base < plain && base <= lb + 1) {
    int64_t *src0 = (int64_t *)calloc((size_t)(base + 2), sizeof *src0);
    z.n = n;
    z.k = k;
    snd = (int64_t *)malloc((size_t)(3 * n) * sizeof *snd);
    if (src0 == NULL || snd == NULL) {
      free(src0);
      e = OC_ENOMEM;
      goto out;
    }
    for (size_t i = 0; i < tmp.n; i++)
      if (tmp.msg[i].src == 0 && tmp.msg[i].t <= base) src0[tmp.msg[i].t]++;
    while (T0 <= base && src0[T0] >= k) T0++;
    free(src0);
    if ((e = kp_tail_fill(&z, &tmp, T0, lb + 2 - T0)) != OC_OK) goto out;
    e = OC_EUNSUP;
    for (int64_t target = oc_max64(lb, base); target <= lb + 1 && target < plain &&
                                              e == OC_EUNSUP;
         target++)
      for (z.order = 0; z.order < 2 && e == OC_EUNSUP; z.order++)
        e = kp_tail_spread(&z, T0, target, snd, &last);
    if (e != OC_OK && e != OC_EUNSUP) goto out;
    spread = e == OC_OK;
  }
  e = OC_OK;
  if (!spread && plain >= worse) e = OC_EUNSUP;
  if (e == OC_OK && spread && out != NULL) {
    for (size_t i = 0; i < tmp.n && e == OC_OK; i++)
      e = oc_sched_push(out, tmp.msg[i].t, kp_phys(tmp.msg[i].src, root, n),
                        kp_phys(tmp.msg[i].dst, root, n), tmp.msg[i].item);
    for (int64_t i = 0; i < n - 1 && e == OC_OK; i++)
      e = oc_sched_push(out, snd[3 * i], kp_phys(snd[3 * i + 1], root, n),
                        kp_phys(snd[3 * i + 2], root, n), m - 1);
  } else if (e == OC_OK && out != NULL) {
    e = oc_kport_chain_emit(c, m, root, out, &plain);
  }
  if (e == OC_OK && spread && oc_max64(base, last) >= worse) e = OC_EUNSUP;
  if (e == OC_OK && res != NULL) {
    res->alg = OC_KP_ROTATION;
    res->time = spread ? oc_max64(base, last) : plain;
    res->height = c->delay;
  }
out:
  free(c);
  free(snd);
  free(z.rc);
  free(z.sc);
  free(z.pairs);
  oc_sched_free(&tmp);
  return e;
}

/* k = 1 is the postal model with lambda = 1 (a send in round r is the
 * postal send at r - 1, usable from r): Traff's circulant there
 * (oc_kbcast.c) is m - 1 + ceil(log2 n) rounds, the bound. */
static int kp_circulant(int64_t n, int64_t m, int64_t root, oc_sched *out, oc_kport_result *res) {
  oc_params p;
  oc_kbcast_result kr;
  size_t n0 = out != NULL ? out->n : 0;
  int e;
  if ((e = oc_params_postal(&p, n, 1, 1)) != OC_OK) return e;
  if ((e = oc_kbcast_plan(&p, root, m, OC_KB_CIRCULANT, 0, out, &kr)) != OC_OK) return e;
  for (size_t i = n0; out != NULL && i < out->n; i++) out->msg[i].t += 1;
  if (res != NULL) {
    res->alg = OC_KP_CIRCULANT;
    res->time = kr.time;
    res->height = 0;
  }
  return OC_OK;
}

int oc_kport_plan(int64_t n, int64_t k, int64_t m, int64_t root,
                  oc_kport_alg alg, oc_sched *out, oc_kport_result *res) {
  oc_kport_result a, b;
  kp_trees t;
  int e, tail = 0;
  if (!kp_args_ok(n, k, m) || root < 0 || root >= n ||
      (alg != OC_KP_KTREE && alg != OC_KP_ROTATION && alg != OC_KP_BEST &&
       alg != OC_KP_CIRCULANT))
    return OC_EINVAL;
  if (n > OC_KPORT_PLAN_MAX / m) return OC_ERANGE;
  if (alg == OC_KP_CIRCULANT && k != 1) return OC_EUNSUP;
  if (n == 1) {
    if (res) {
      res->alg = alg == OC_KP_BEST ? OC_KP_KTREE : alg;
      res->time = 0;
      res->height = 0;
    }
    return OC_OK;
  }
  if (alg == OC_KP_CIRCULANT || (alg == OC_KP_BEST && k == 1))
    return kp_circulant(n, m, root, out, res);
  if (alg == OC_KP_ROTATION) return kp_rotation(n, k, m, root, out, res);
  /* KTREE, and BEST: the k-tree's time comes with its trees; the rotation
   * (when it has a chain) is written straight into out and kept if it is
   * faster, else cut off again and the k-tree written from the same trees */
  if ((e = kp_ktree_build(n, k, m, &t, &a)) != OC_OK) return e;
  {
    /* the trees for m - 1 messages and the last one spread greedily,
     * where that is faster (times only here; written below) */
    oc_kport_bounds bd;
    int64_t tt = 0;
    int64_t base = 0;
    /* the trees for m - 1 are these when kk and the tops are the same
     * (m - 1 >= k, or m - 1 >= kk = n - 1): their time, to skip hopeless
     * cases (beta > 1) without building them */
    if (m - 1 >= t.kk && (m - 1 >= k || t.kk == n - 1))
      for (int64_t j = 0; j < t.kk; j++) {
        int64_t c = kp_ceil(m - 1 - j, t.kk);
        if (c > 0) base = oc_max64(base, c - 1 + t.H[j]);
      }
    if ((e = oc_kport_bound(n, k, m, &bd)) == OC_OK && a.time > bd.lb && base < a.time) {
      e = kp_ktree_tail(n, k, m, root, bd.lb, a.time, NULL, &tt);
      if (e == OC_OK) {
        tail = 1;
        a.time = tt;
      }
    }
    if (e != OC_OK && e != OC_EUNSUP) {
      kp_trees_free(&t);
      return e;
    }
  }
  if (alg == OC_KP_BEST) {
    size_t n0 = out != NULL ? out->n : 0;
    int er = kp_rotation(n, k, m, root, out, &b);
    if (er == OC_OK && b.time < a.time) {
      kp_trees_free(&t);
      if (res != NULL) *res = b;
      return OC_OK;
    }
    if (out != NULL) out->n = n0;
    if (er == OC_EUNSUP && n > k + 1) { /* no chain of delay d + 1 */
      oc_kport_bounds bd;
      e = OC_EUNSUP;
      if (oc_kport_bound(n, k, m, &bd) == OC_OK && a.time > bd.lb)
        e = kp_rotation_slack(n, k, m, root, bd.lb, a.time, out, &b);
      if (e == OC_OK && b.time < a.time) {
        kp_trees_free(&t);
        if (res != NULL) *res = b;
        return OC_OK;
      }
      if (out != NULL) out->n = n0;
      if (e != OC_OK && e != OC_EUNSUP) {
        kp_trees_free(&t);
        return e;
      }
    }
  }
  if (out == NULL)
    e = OC_OK;
  else if (tail)
    e = kp_ktree_tail(n, k, m, root, a.time, a.time + 1, out, &a.time);
  else
    e = kp_ktree_emit(&t, n, m, root, out);
  kp_trees_free(&t);
  if (e == OC_OK && res != NULL) *res = a;
  return e;
}
