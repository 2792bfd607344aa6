/* test_rrp.c - the reconfigurable ring: COMET against the latency model, the
 * paper's cases, random instances through the verifier, a reference
 * checker on mutants, values computed with a non-commutative operator,
 * the Theorem 2.1 bound. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute_rrp.h"
#include "test.h"

/* ---- helpers ------------------------------------------------------------- */
static int64_t ref_flight(int64_t d) { /* max(1, ceil(log2 d)), by doubling */
  int64_t f = 0, p = 1;
  while (p < d) p *= 2, f++;
  return f < 1 ? 1 : f;
}

static int plan_and_verify(const oc_rrp_spec *sp, oc_rrp_alg alg, oc_rrp_sched *s,
                           oc_rrp_result *r) {
  oc_verdict v;
  oc_rrp_result r2;
  int e = oc_rrp_plan(sp, alg, s, r);
  if (e != OC_OK) return e;
  CHECK_OK(oc_verify_rrp(sp, s, &v));
  if (!v.ok)
    test_failf(__FILE__, __LINE__, "%s N=%lld L=%lld root=%lld alg=%s: %s",
               oc_rrp_problem_name(sp->problem), (long long)sp->N, (long long)sp->L,
               (long long)sp->root, oc_rrp_alg_name(alg), v.detail);
  CHECK_EQ(v.time, r->time);
  CHECK_OK(oc_rrp_plan(sp, alg, NULL, &r2)); /* time only agrees */
  CHECK_EQ(r2.time, r->time);
  return OC_OK;
}

/* ---- reference checker: plain and quadratic, from the contract -------------
 * Knowledge is a boolean table can[p][a][b] (p can form [a, b]) closed
 * under concatenation; N <= REF_N. */
#define REF_N 24
static unsigned char can_[REF_N][REF_N][REF_N];

static void ref_close(int64_t N, int64_t p) {
  int changed = 1;
  while (changed) {
    changed = 0;
    for (int64_t a = 0; a < N; a++)
      for (int64_t m = a; m + 1 < N; m++)
        if (can_[p][a][m])
          for (int64_t b = m + 1; b < N; b++)
            if (can_[p][m + 1][b] && !can_[p][a][b]) can_[p][a][b] = 1, changed = 1;
  }
}

static int64_t ref_dist(int64_t N, const oc_rrp_msg *m) {
  int64_t d = m->dir == OC_RRP_CW ? m->dst - m->src : m->src - m->dst;
  return ((d % N) + N) % N;
}

static int ref_on_arc(int64_t N, const oc_rrp_msg *m, int64_t p) {
  int64_t d = ref_dist(N, m);
  for (int64_t k = 0; k <= d; k++) {
    int64_t q = m->dir == OC_RRP_CW ? m->src + k : m->src - k;
    if (((q % N) + N) % N == p) return 1;
  }
  return 0;
}

/* 1 when valid; *time = the last arrival */
static int ref_check(const oc_rrp_spec *sp, const oc_rrp_sched *s, int64_t *time) {
  int64_t N = sp->N, last = 0, maxt = 0;
  size_t nseg = sp->seg ? sp->nseg : 1;
  int comb = sp->problem != OC_RRP_BCAST;
  int64_t *carried = calloc(s->n + 1, sizeof *carried);
  unsigned char has[REF_N][REF_N]; /* bcast: has[p][segment] */
  int ok = 1;
  if (N > REF_N) abort();
  memset(can_, 0, sizeof can_);
  memset(has, 0, sizeof has);
  for (int64_t p = 0; p < N; p++) can_[p][p][p] = 1;
  for (size_t i = 0; i < nseg; i++) has[sp->seg ? sp->seg[i] : sp->root][i] = 1;
  for (size_t i = 0; i < s->n && ok; i++) {
    const oc_rrp_msg *m = &s->msg[i];
    if (m->src < 0 || m->src >= N || m->dst < 0 || m->dst >= N || m->src == m->dst ||
        m->t < 1 || m->line < 0 || m->line >= sp->L ||
        (m->dir != OC_RRP_CW && m->dir != OC_RRP_CCW) || m->item < 0 ||
        m->item >= (comb ? N : (int64_t)nseg))
      ok = 0;
    else if (m->t > maxt)
      maxt = m->t;
  }
  /* ports and lines, pairwise */
  for (size_t i = 0; i < s->n && ok; i++)
    for (size_t j = i + 1; j < s->n && ok; j++) {
      const oc_rrp_msg *a = &s->msg[i], *b = &s->msg[j];
      int64_t ea = a->t + ref_flight(ref_dist(N, a)) - 1;
      int64_t eb = b->t + ref_flight(ref_dist(N, b)) - 1;
      if (a->src == b->src && a->t == b->t) ok = 0;
      if (a->dst == b->dst && ea == eb) ok = 0;
      if (a->line == b->line && a->t <= eb && b->t <= ea)
        for (int64_t p = 0; p < N && ok; p++)
          if (ref_on_arc(N, a, p) && ref_on_arc(N, b, p)) ok = 0;
    }
  /* knowledge, step by step */
  for (int64_t t = 1; t <= maxt + 64 && ok; t++) {
    for (size_t i = 0; i < s->n; i++) { /* sends of step t */
      const oc_rrp_msg *m = &s->msg[i];
      if (m->t != t) continue;
      if (comb) {
        int64_t a = -1;
        for (int64_t x = 0; x <= m->item && a < 0; x++)
          if (can_[m->src][x][m->item]) a = x;
        if (a < 0) ok = 0;
        carried[i] = a;
      } else if (!has[m->src][m->item]) {
        ok = 0;
      }
    }
    for (size_t i = 0; i < s->n && ok; i++) { /* arrivals at the end of step t */
      const oc_rrp_msg *m = &s->msg[i];
      if (m->t + ref_flight(ref_dist(N, m)) - 1 != t) continue;
      if (t > last) last = t;
      if (comb) {
        can_[m->dst][carried[i]][m->item] = 1;
        ref_close(N, m->dst);
      } else {
        has[m->dst][m->item] = 1;
      }
    }
  }
  for (int64_t p = 0; p < N && ok; p++) {
    size_t g = 0;
    int64_t lo, hi;
    while (sp->seg && g + 1 < nseg && sp->seg[g + 1] <= p) g++;
    lo = sp->seg ? sp->seg[g] : 0;
    hi = (sp->seg && g + 1 < nseg) ? sp->seg[g + 1] : N;
    if (sp->problem == OC_RRP_BCAST && !has[p][g]) ok = 0;
    if (sp->problem == OC_RRP_SCAN && !can_[p][lo][p]) ok = 0;
    if (sp->problem == OC_RRP_REDUCE && p == (sp->seg ? lo : sp->root) && !can_[p][lo][hi - 1])
      ok = 0;
  }
  free(carried);
  *time = last;
  return ok;
}

/* ---- COMET ------------------------------------------------------------------- */
void test_rrp_comet(void) {
  int64_t differ = 0;
  for (int64_t d = 1; d <= 4096; d++) {
    int64_t c = oc_rrp_comet_steps(d), f = oc_rrp_flight(d), pow2 = (d & (d - 1)) == 0;
    CHECK_EQ(f, ref_flight(d));
    CHECK_EQ(c, ref_flight(d + 1)); /* ceil(log2(d+1)) for d >= 1 */
    /* the model's ceil(log2 d) is one step short exactly at the powers of
     * two from 2 on (docs/MODEL.md) */
    CHECK_EQ(c - f, (pow2 && d >= 2) ? 1 : 0);
    differ += c != f;
  }
  CHECK_EQ(differ, 12); /* d = 2, 4, ..., 4096 */
}

/* ---- the paper's cases ------------------------------------------------------------ */
void test_rrp_paper_cases(void) {
  oc_rrp_spec sp = {OC_RRP_BCAST, 16, 4, 0, NULL, 0};
  oc_rrp_sched s;
  oc_rrp_result r;
  oc_rrp_bounds b;
  int remaps = 0;
  /* the worked example in oc_rrp.c: N = 16, L = 4, N' = 4 */
  oc_rrp_sched_init(&s);
  CHECK_OK(plan_and_verify(&sp, OC_RRP_SWEEP, &s, &r));
  CHECK_EQ(r.time, 8);
  for (size_t i = 0; i < s.n; i++)
    if (s.msg[i].t == 3) {
      CHECK_EQ(s.msg[i].dst, 4 * s.msg[i].src); /* Phase 2: i -> i N/N' */
      CHECK_EQ(s.msg[i].line, s.msg[i].src - 1);
      remaps++;
    }
  CHECK_EQ(remaps, 3);
  oc_rrp_sched_free(&s);
  /* the initial condition of Theorem 2.1's proof: T(4, 2) = 2 */
  sp.N = 4;
  sp.L = 2;
  CHECK_OK(oc_rrp_plan(&sp, OC_RRP_SWEEP, NULL, &r));
  CHECK_EQ(r.time, 2);
  /* Theorem 2.1's bound and the lower bounds at N = 4096, L = 16 */
  sp.N = 4096;
  sp.L = 16;
  CHECK_OK(oc_rrp_bound(&sp, &b));
  CHECK(fabs(b.thm21 - (12.0 * 2.0 + 144.0 / 4.0)) < 1e-9);
  CHECK(fabs(b.thm32 - 12.0 * log2(12.0) / 15.0) < 1e-9);
  CHECK(fabs(b.thm31_lead - 144.0 / 12.0) < 1e-9);
  CHECK_EQ(b.doubling, 12);
  CHECK_EQ(b.distance, 11); /* 2048 away */
  /* Theorem 3.1's argument in whole steps, by hand: the ignorant 4095
   * processors' middle third is 1365 away (11 steps); 32 segments across
   * its edges leave a gap of (1367 - 32) / 33 = 40, whose middle is 13 away
   * (4 steps); (16 - 32) leaves nothing: 15 */
  CHECK_EQ((int64_t)b.thm31, 15);
  CHECK_EQ(b.lb, 15);
  /* L = 1: gaps 455, 50, 5, then 0: 11 + 8 + 5 + 1 = 25 steps */
  sp.L = 1;
  CHECK_OK(oc_rrp_bound(&sp, &b));
  CHECK_EQ((int64_t)b.thm31, 25);
  CHECK(b.thm31_lead == 0 && b.thm21 == 0); /* need L >= 2 */
  /* segments: the bounds are the largest block's (blocks of 4: 2 steps) */
  {
    static int64_t seg[1024];
    for (int i = 0; i < 1024; i++) seg[i] = 4 * i;
    sp.seg = seg;
    sp.nseg = 1024;
    sp.L = 9;
    CHECK_OK(oc_rrp_bound(&sp, &b));
    CHECK_OK(oc_rrp_plan(&sp, OC_RRP_BEST, NULL, &r));
    CHECK_EQ(r.time, 2);
    CHECK_EQ(b.lb, 2);
    CHECK(b.thm32 == 0);
    /* a block longer than half the ring: its far end is nearer the other
     * way round (block 1..15 of 16: processor 8 is 7 away from 1) */
    sp.N = 16;
    sp.L = 2;
    seg[1] = 1;
    sp.nseg = 2;
    CHECK_OK(oc_rrp_bound(&sp, &b));
    CHECK_EQ(b.distance, oc_rrp_flight(2)); /* min(14, 16 - 15 + 1) = 2 */
  }
}

/* Theorem 2.1: every sweep within log N log log L + log^2 N / log L for
 * N = 2^n <= 4096 and L = 2, 4, ..., N (bcast and reduce one sweep, scan
 * two). */
void test_rrp_theorem21(void) {
  for (int64_t N = 4; N <= 4096; N *= 2)
    for (int64_t L = 2; L <= N; L *= 2)
      for (int prob = 0; prob < 3; prob++) {
        oc_rrp_spec sp = {(oc_rrp_problem)prob, N, L, 0, NULL, 0};
        oc_rrp_bounds b;
        for (int a = OC_RRP_SWEEP; a <= OC_RRP_TUNED; a++) {
          oc_rrp_sched s;
          oc_rrp_result r;
          double lim;
          oc_rrp_sched_init(&s);
          CHECK_OK(plan_and_verify(&sp, (oc_rrp_alg)a, &s, &r));
          CHECK_OK(oc_rrp_bound(&sp, &b));
          lim = b.thm21 * (prob == OC_RRP_SCAN ? 2 : 1);
          if ((double)r.time > lim + 1e-9)
            test_failf(__FILE__, __LINE__, "%s N=%lld L=%lld %s: %lld > %.2f",
                       oc_rrp_problem_name(prob), (long long)N, (long long)L,
                       oc_rrp_alg_name((oc_rrp_alg)a), (long long)r.time, lim);
          CHECK(r.time >= b.lb);
          CHECK(r.lines <= L);
          oc_rrp_sched_free(&s);
        }
      }
}

/* ---- random instances ------------------------------------------------------------- */
static size_t random_segments(int64_t N, int64_t *seg) {
  size_t n = 1;
  seg[0] = 0;
  for (int64_t p = 1; p < N && n < 64; p++)
    if (test_range(0, 7) == 0) seg[n++] = p;
  return n;
}

void test_rrp_random(void) {
  int64_t seg[64];
  int runs = test_sweep() ? 20000 : 3000;
  for (int i = 0; i < runs; i++) {
    int64_t N = test_range(1, i % 10 == 0 ? 2000 : 200);
    int64_t L = test_range(1, 3) == 1 ? test_range(1, 4) : test_range(1, N + 2);
    oc_rrp_spec sp = {(oc_rrp_problem)test_range(0, 2), N, L, 0, NULL, 0};
    oc_rrp_alg alg = (oc_rrp_alg)test_range(0, 3);
    oc_rrp_sched s;
    oc_rrp_result r;
    oc_rrp_bounds b;
    if (test_range(0, 2) == 0) {
      sp.nseg = random_segments(N, seg);
      sp.seg = seg;
    } else if (sp.problem != OC_RRP_SCAN) {
      sp.root = test_range(0, N - 1);
    }
    oc_rrp_sched_init(&s);
    CHECK_OK(plan_and_verify(&sp, alg, &s, &r));
    CHECK_OK(oc_rrp_bound(&sp, &b));
    CHECK(r.time >= b.lb);
    CHECK(r.lines <= L);
    if (N <= REF_N) {
      int64_t t;
      CHECK(ref_check(&sp, &s, &t));
      CHECK_EQ(t, r.time);
    }
    oc_rrp_sched_free(&s);
  }
}

/* BEST is never slower than any of the three, and TUNED never slower than
 * SWEEP (the same family, searched) */
void test_rrp_best(void) {
  for (int64_t N = 1; N <= 300; N += (N < 40 ? 1 : 7))
    for (int64_t L = 1; L <= N + 1; L = L < 3 ? L + 1 : L * 3)
      for (int prob = 0; prob < 3; prob++) {
        oc_rrp_spec sp = {(oc_rrp_problem)prob, N, L, prob == 1 ? N / 3 : 0, NULL, 0};
        oc_rrp_result r[4];
        for (int a = 0; a < 4; a++) CHECK_OK(oc_rrp_plan(&sp, (oc_rrp_alg)a, NULL, &r[a]));
        CHECK(r[3].time <= r[0].time && r[3].time <= r[1].time && r[3].time <= r[2].time);
        if (prob != OC_RRP_BCAST) CHECK(r[1].time <= r[0].time);
      }
}

/* ---- mutants: the verifier agrees with the reference checker ---------------------- */
static const char *const MUT_NAMES[] = {"shift -1", "shift +1", "drop", "duplicate",
                                        "retarget", "line", "direction", "item",
                                        "swap times"};
enum { NMUT = 9 };

void test_rrp_mutants(void) {
  long tried[NMUT] = {0}, broke[NMUT] = {0}, killed[NMUT] = {0};
  long bdrops = 0, bdrop_broke = 0;
  int64_t seg[64];
  for (int i = 0; i < 600; i++) {
    int64_t N = test_range(2, REF_N), L = test_range(1, 4);
    oc_rrp_spec sp = {(oc_rrp_problem)test_range(0, 2), N, L, 0, NULL, 0};
    oc_rrp_sched s;
    oc_rrp_result r;
    if (test_range(0, 3) == 0) {
      sp.nseg = random_segments(N, seg);
      sp.seg = seg;
    } else if (sp.problem != OC_RRP_SCAN) {
      sp.root = test_range(0, N - 1);
    }
    oc_rrp_sched_init(&s);
    CHECK_OK(oc_rrp_plan(&sp, (oc_rrp_alg)test_range(0, 3), &s, &r));
    if (s.n == 0) {
      oc_rrp_sched_free(&s);
      continue;
    }
    for (int k = 0; k < NMUT; k++) {
      oc_rrp_sched m;
      size_t j = (size_t)test_range(0, (int64_t)s.n - 1);
      oc_verdict v;
      int64_t t;
      int ref;
      oc_rrp_sched_init(&m);
      for (size_t q = 0; q < s.n; q++)
        CHECK_OK(oc_rrp_sched_push(&m, s.msg[q].t, s.msg[q].src, s.msg[q].dst,
                                   s.msg[q].item, s.msg[q].dir, s.msg[q].line));
      switch (k) {
      case 0: m.msg[j].t--; break;
      case 1: m.msg[j].t++; break;
      case 2: m.msg[j] = m.msg[--m.n]; break;
      case 3: CHECK_OK(oc_rrp_sched_push(&m, m.msg[j].t, m.msg[j].src, m.msg[j].dst,
                                         m.msg[j].item, m.msg[j].dir, m.msg[j].line));
        break;
      case 4: m.msg[j].dst = (m.msg[j].dst + test_range(1, N - 1)) % N; break;
      case 5: m.msg[j].line = (m.msg[j].line + 1) % (L + 1); break;
      case 6: m.msg[j].dir ^= 1; break;
      case 7: m.msg[j].item = test_range(0, N - 1); break;
      default: {
        size_t o = (size_t)test_range(0, (int64_t)s.n - 1);
        int64_t x = m.msg[j].t;
        m.msg[j].t = m.msg[o].t;
        m.msg[o].t = x;
      }
      }
      CHECK_OK(oc_verify_rrp(&sp, &m, &v));
      ref = ref_check(&sp, &m, &t);
      if (ref != v.ok)
        test_failf(__FILE__, __LINE__, "mutant %s of %s N=%lld L=%lld: verifier %d, "
                   "reference %d (%s)", MUT_NAMES[k], oc_rrp_problem_name(sp.problem),
                   (long long)N, (long long)L, v.ok, ref, v.detail);
      if (ref && v.ok) CHECK_EQ(v.time, t);
      tried[k]++;
      broke[k] += !ref;
      if (k == 2 && sp.problem == OC_RRP_BCAST) bdrops++, bdrop_broke += !ref;
      killed[k] += !v.ok;
      oc_rrp_sched_free(&m);
    }
    oc_rrp_sched_free(&s);
  }
  for (int k = 0; k < NMUT; k++) {
    printf("  rrp mutant %-11s tried %4ld, break a rule %4ld, rejected %4ld\n", MUT_NAMES[k],
           tried[k], broke[k], killed[k]);
    CHECK_EQ(killed[k], broke[k]);
  }
  /* every broadcast message is a first receipt: dropping one always breaks
   * it (a reduction may not need every message: a sender that re-uses a
   * processor forwards the longest value it can form, docs/ALGORITHMS.md) */
  CHECK(bdrops > 50);
  CHECK_EQ(bdrop_broke, bdrops);
  CHECK_EQ(broke[3], tried[3]); /* two sends in one step */
}

/* ---- values: a non-commutative operator, actually computed ------------------------
 * 2x2 matrices modulo a prime.  Every processor keeps the values it holds
 * (interval and matrix); a message with item b carries the product along
 * the longest chain ending at b that the sender holds, multiplied here;
 * results are compared with the serial product. */
typedef struct mat {
  uint64_t a, b, c, d;
} mat;
#define MOD 1000003u
static mat mul(mat x, mat y) {
  mat r = {(x.a * y.a + x.b * y.c) % MOD, (x.a * y.b + x.b * y.d) % MOD,
           (x.c * y.a + x.d * y.c) % MOD, (x.c * y.b + x.d * y.d) % MOD};
  return r;
}
static int mat_eq(mat x, mat y) { return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d; }

typedef struct held {
  int64_t a, b;
  mat v;
} held;
typedef struct store {
  held *h;
  size_t n, cap;
} store;

static void store_add(store *s, int64_t a, int64_t b, mat v) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 8;
    s->h = realloc(s->h, s->cap * sizeof *s->h);
    if (s->h == NULL) abort();
  }
  s->h[s->n].a = a;
  s->h[s->n].b = b;
  s->h[s->n].v = v;
  s->n++;
}

/* the value of the longest [a, b] p can form (by exhaustive chain search
 * from b backwards, choosing the smallest start); 0 if none */
static int form(const store *s, int64_t lo_limit, int64_t b, int64_t want_a, mat *out,
                int64_t *a_out, int depth) {
  int found = 0;
  int64_t best_a = INT64_MAX;
  mat best = {0, 0, 0, 0};
  if (depth > 64) return 0;
  for (size_t i = 0; i < s->n; i++) {
    const held *h = &s->h[i];
    mat left;
    int64_t la;
    if (h->b != b || h->a < lo_limit) continue;
    if (want_a >= 0 && h->a == want_a) {
      *out = h->v;
      *a_out = h->a;
      return 1;
    }
    if (want_a < 0 && h->a < best_a) best_a = h->a, best = h->v, found = 1;
    if (h->a > 0 && form(s, want_a >= 0 ? want_a : 0, h->a - 1, want_a, &left, &la, depth + 1)) {
      if (want_a >= 0) {
        *out = mul(left, h->v);
        *a_out = la;
        return 1;
      }
      if (la < best_a) best_a = la, best = mul(left, h->v), found = 1;
    }
  }
  if (found) *out = best, *a_out = best_a;
  return found;
}

static void run_values(const oc_rrp_spec *sp, const oc_rrp_sched *s) {
  int64_t N = sp->N, maxt = 0;
  mat *x = malloc((size_t)N * sizeof *x), *pref = malloc((size_t)N * sizeof *pref);
  store *st = calloc((size_t)N, sizeof *st);
  mat *carry = malloc((s->n + 1) * sizeof *carry);
  int64_t *ca = malloc((s->n + 1) * sizeof *ca);
  if (!x || !pref || !st || !carry || !ca) abort();
  for (int64_t p = 0; p < N; p++) {
    x[p] = (mat){(uint64_t)test_range(0, MOD - 1), (uint64_t)test_range(0, MOD - 1),
                 (uint64_t)test_range(0, MOD - 1), (uint64_t)test_range(0, MOD - 1)};
    store_add(&st[p], p, p, x[p]);
  }
  for (size_t i = 0; i < s->n; i++) maxt = s->msg[i].t > maxt ? s->msg[i].t : maxt;
  for (int64_t t = 1; t <= maxt + 64; t++) {
    for (size_t i = 0; i < s->n; i++)
      if (s->msg[i].t == t) {
        CHECK(form(&st[s->msg[i].src], 0, s->msg[i].item, -1, &carry[i], &ca[i], 0));
      }
    for (size_t i = 0; i < s->n; i++) {
      const oc_rrp_msg *m = &s->msg[i];
      if (m->t + oc_rrp_flight(oc_rrp_dist(N, m->src, m->dst, m->dir)) - 1 == t)
        store_add(&st[m->dst], ca[i], m->item, carry[i]);
    }
  }
  for (size_t g = 0; g < (sp->seg ? sp->nseg : 1); g++) {
    int64_t lo = sp->seg ? sp->seg[g] : 0;
    int64_t hi = (sp->seg && g + 1 < sp->nseg) ? sp->seg[g + 1] : N;
    pref[lo] = x[lo];
    for (int64_t p = lo + 1; p < hi; p++) pref[p] = mul(pref[p - 1], x[p]);
    for (int64_t p = lo; p < hi; p++) {
      mat v;
      int64_t a;
      if (sp->problem == OC_RRP_SCAN) {
        CHECK(form(&st[p], lo, p, lo, &v, &a, 0));
        CHECK(mat_eq(v, pref[p]));
      }
    }
    if (sp->problem == OC_RRP_REDUCE) {
      mat v;
      int64_t a, root = sp->seg ? lo : sp->root;
      CHECK(form(&st[root], lo, hi - 1, lo, &v, &a, 0));
      CHECK(mat_eq(v, pref[hi - 1]));
      /* and the other order differs: the operator really does not commute */
      if (hi - lo >= 2) CHECK(!mat_eq(mul(x[lo + 1], x[lo]), mul(x[lo], x[lo + 1])));
    }
  }
  for (int64_t p = 0; p < N; p++) free(st[p].h);
  free(st);
  free(x);
  free(pref);
  free(carry);
  free(ca);
}

void test_rrp_noncommutative(void) {
  int64_t seg[64];
  for (int i = 0; i < 400; i++) {
    int64_t N = test_range(1, i % 20 == 0 ? 300 : 60), L = test_range(1, 9);
    oc_rrp_spec sp = {test_range(0, 1) ? OC_RRP_SCAN : OC_RRP_REDUCE, N, L, 0, NULL, 0};
    oc_rrp_sched s;
    oc_rrp_result r;
    if (test_range(0, 2) == 0) {
      sp.nseg = random_segments(N, seg);
      sp.seg = seg;
    } else if (sp.problem == OC_RRP_REDUCE) {
      sp.root = test_range(0, N - 1);
    }
    oc_rrp_sched_init(&s);
    CHECK_OK(plan_and_verify(&sp, (oc_rrp_alg)test_range(0, 3), &s, &r));
    run_values(&sp, &s);
    oc_rrp_sched_free(&s);
  }
}

/* ---- the verifier's rules, one hand-made case each ---------------------------------- */
void test_rrp_verify_rules(void) {
  oc_rrp_spec sp = {OC_RRP_BCAST, 8, 1, 0, NULL, 0};
  oc_rrp_sched s;
  oc_verdict v;
  struct {
    int64_t t, src, dst, item, line;
    int dir;
  } base[] = {{1, 0, 4, 0, 0, 0}, {3, 0, 2, 0, 0, 0}, {3, 4, 6, 0, 0, 0},
              {4, 0, 1, 0, 0, 0}, {4, 2, 3, 0, 0, 0}, {4, 4, 5, 0, 0, 0},
              {4, 6, 7, 0, 0, 0}};
  /* the binomial tree on 8: 0->4 (flight 2), then distance 2 and 1 */
  oc_rrp_sched_init(&s);
  for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
    CHECK_OK(oc_rrp_sched_push(&s, base[i].t, base[i].src, base[i].dst, base[i].item,
                               base[i].dir, base[i].line));
  CHECK_OK(oc_verify_rrp(&sp, &s, &v));
  CHECK(v.ok);
  CHECK_EQ(v.time, 4);
  /* 4 -> 6 a step early: 4 does not hold the item before step 3 */
  s.msg[2].t = 2;
  CHECK_OK(oc_verify_rrp(&sp, &s, &v));
  CHECK(!v.ok);
  CHECK_EQ(v.rule, OC_RULE_HELD);
  CHECK_EQ(v.proc, 4);
  s.msg[2].t = 3;
  /* 0 -> 2 and 4 -> 6 on one line share no processor; 0 -> 5 would */
  s.msg[1].dst = 5;
  CHECK_OK(oc_verify_rrp(&sp, &s, &v));
  CHECK(!v.ok);
  CHECK_EQ(v.rule, OC_RULE_OVERLAP);
  s.msg[1].dst = 2;
  /* segments are closed: 0 -> 2 and 2 -> 3 in the same step meet at 2 */
  s.msg[4].t = 3;
  CHECK_OK(oc_verify_rrp(&sp, &s, &v));
  CHECK(!v.ok);
  s.msg[4].t = 4;
  /* two receives completing at 5 in step 4: 0 -> 5 from step 2 (flight 3) on
   * a second line, and 4 -> 5 in step 4 */
  sp.L = 2;
  CHECK_OK(oc_rrp_sched_push(&s, 2, 0, 5, 0, OC_RRP_CW, 1));
  CHECK_OK(oc_verify_rrp(&sp, &s, &v));
  CHECK(!v.ok);
  CHECK_EQ(v.rule, OC_RULE_RECV_GAP);
  CHECK_EQ(v.proc, 5);
  CHECK_EQ(v.at, 4);
  /* 0 -> 3 instead (flight 2, arrives in step 3): legal, 3 hears twice */
  s.msg[s.n - 1].dst = 3;
  CHECK_OK(oc_verify_rrp(&sp, &s, &v));
  CHECK(v.ok);
  CHECK_EQ(v.time, 4);
  /* two sends from 0 in step 4 */
  s.msg[s.n - 1].t = 4;
  s.msg[s.n - 1].dst = 7;
  s.msg[s.n - 1].dir = OC_RRP_CCW;
  CHECK_OK(oc_verify_rrp(&sp, &s, &v));
  CHECK(!v.ok);
  CHECK_EQ(v.rule, OC_RULE_SEND_GAP);
  CHECK_EQ(v.proc, 0);
  s.n--;
  /* a missing processor */
  s.n--;
  CHECK_OK(oc_verify_rrp(&sp, &s, &v));
  CHECK(!v.ok);
  CHECK_EQ(v.rule, OC_RULE_MISSING);
  CHECK_EQ(v.proc, 7);
  /* out of range: line */
  s.msg[0].line = 2;
  CHECK_OK(oc_verify_rrp(&sp, &s, &v));
  CHECK(!v.ok);
  CHECK_EQ(v.rule, OC_RULE_RANGE);
  oc_rrp_sched_free(&s);
  /* combining: 1 -> 0 carries [1,1]; 2 -> 0 then carries [2,2]: 0 ends
   * with [0,2] in order */
  {
    oc_rrp_spec rp = {OC_RRP_REDUCE, 3, 1, 0, NULL, 0};
    oc_rrp_sched_init(&s);
    CHECK_OK(oc_rrp_sched_push(&s, 1, 1, 0, 1, OC_RRP_CCW, 0));
    CHECK_OK(oc_rrp_sched_push(&s, 2, 2, 0, 2, OC_RRP_CCW, 0));
    CHECK_OK(oc_verify_rrp(&rp, &s, &v));
    CHECK(v.ok);
    /* the other order: [2,2] first is fine too (0 keeps both) */
    s.msg[0].t = 2;
    s.msg[1].t = 1;
    CHECK_OK(oc_verify_rrp(&rp, &s, &v));
    CHECK(v.ok);
    /* 2 -> 1 -> 0: 1 forwards [1,2]; but 1 sends item 2 before it has x_2 */
    s.msg[0] = (oc_rrp_msg){1, 2, 1, 2, 0, OC_RRP_CCW};
    s.msg[1] = (oc_rrp_msg){1, 1, 0, 2, 0, OC_RRP_CCW};
    CHECK_OK(oc_verify_rrp(&rp, &s, &v));
    CHECK(!v.ok);
    CHECK_EQ(v.rule, OC_RULE_HELD);
    s.msg[1].t = 2;
    CHECK_OK(oc_verify_rrp(&rp, &s, &v));
    CHECK(v.ok);
    oc_rrp_sched_free(&s);
  }
  {
    /* a wrap-around value is not a value: [2] then [0] do not join */
    oc_rrp_spec rp = {OC_RRP_REDUCE, 3, 1, 2, NULL, 0};
    oc_rrp_sched_init(&s);
    CHECK_OK(oc_rrp_sched_push(&s, 1, 0, 2, 0, OC_RRP_CCW, 0)); /* 0 -> 2 ccw: d = 1 */
    CHECK_OK(oc_rrp_sched_push(&s, 2, 1, 2, 1, OC_RRP_CW, 0));
    CHECK_OK(oc_verify_rrp(&rp, &s, &v));
    CHECK(v.ok); /* [0,0], [1,1], [2,2] at 2: [0,2] */
    s.msg[1].item = 0; /* 1 has no value ending at x_0 */
    CHECK_OK(oc_verify_rrp(&rp, &s, &v));
    CHECK(!v.ok);
    oc_rrp_sched_free(&s);
  }
}

/* oc_rrp_sched_sort: counting sorts for compact keys, qsort otherwise; both
 * give the contract's order and keep every message */
void test_rrp_sort(void) {
  for (int round = 0; round < 200; round++) {
    oc_rrp_sched s;
    size_t n = (size_t)test_range(0, 300);
    int64_t spread = round % 3 == 0 ? ((int64_t)1 << 40) : test_range(1, 20);
    uint64_t sum = 0, sum2 = 0;
    oc_rrp_sched_init(&s);
    for (size_t i = 0; i < n; i++) {
      int64_t t = test_range(round % 5 == 0 ? -3 : 0, spread);
      CHECK_OK(oc_rrp_sched_push(&s, t, test_range(0, 9), test_range(0, 9), test_range(0, 3),
                                 (int)test_range(0, 1), test_range(0, 2)));
      sum += (uint64_t)(s.msg[i].t * 7 + s.msg[i].src * 13 + s.msg[i].dst * 17 +
                        s.msg[i].item * 19 + s.msg[i].dir * 23 + s.msg[i].line * 29);
    }
    oc_rrp_sched_sort(&s);
    for (size_t i = 0; i < s.n; i++) {
      const oc_rrp_msg *a = &s.msg[i];
      sum2 += (uint64_t)(a->t * 7 + a->src * 13 + a->dst * 17 + a->item * 19 + a->dir * 23 +
                         a->line * 29);
      if (i > 0) {
        const oc_rrp_msg *b = &s.msg[i - 1];
        int64_t ka[6] = {b->t, b->src, b->dst, b->item, b->dir, b->line};
        int64_t kb[6] = {a->t, a->src, a->dst, a->item, a->dir, a->line};
        int k = 0;
        while (k < 6 && ka[k] == kb[k]) k++;
        CHECK(k == 6 || ka[k] < kb[k]);
      }
    }
    CHECK_EQ(sum, sum2);
    CHECK_EQ(s.n, n);
    oc_rrp_sched_free(&s);
  }
}

/* ---- exhaustive optima on tiny rings (tests/brute_rrp.c) ---------------------------
 * For N <= 8 (reduce: every root; scan N <= 6): the search's optimal
 * schedule passes optcast's verifier with the optimal time, optcast's lower
 * bound never exceeds the optimum, and every algorithm is at or above it;
 * the gaps are printed (docs/ALGORITHMS.md "How far from optimal"). */
static void from_brute(const brute_rrp_sched *b, oc_rrp_sched *s) {
  oc_rrp_sched_init(s);
  for (int i = 0; i < b->n; i++)
    CHECK_OK(oc_rrp_sched_push(s, b->msg[i].t, b->msg[i].src, b->msg[i].dst, b->msg[i].b,
                               b->msg[i].dir, b->msg[i].line));
}

void test_rrp_exhaustive_small(void) {
  static brute_rrp_sched bs;
  int gap_max[3][3] = {{0}}; /* problem x algorithm */
  for (int prob = 0; prob < 3; prob++)
    for (int N = 2; N <= (prob == OC_RRP_SCAN ? 6 : 8); N++)
      for (int L = 1; L <= (N <= 5 ? 4 : 2); L++)
        for (int root = 0; root < (prob == OC_RRP_REDUCE ? N : 1); root++) {
          oc_rrp_spec sp = {(oc_rrp_problem)prob, N, L, root, NULL, 0};
          oc_rrp_sched s;
          oc_rrp_bounds bd;
          oc_verdict v;
          int opt;
          if (prob == OC_RRP_BCAST) opt = brute_rrp_bcast_sched(N, L, &bs);
          else if (prob == OC_RRP_REDUCE)
            opt = brute_rrp_reduce_sched(N, L, root, BRUTE_RRP_LONGEST, &bs);
          else opt = brute_rrp_scan_sched(N, L, BRUTE_RRP_LONGEST, &bs);
          CHECK(opt > 0);
          CHECK_EQ(bs.time, opt);
          from_brute(&bs, &s);
          CHECK_OK(oc_verify_rrp(&sp, &s, &v));
          if (!v.ok)
            test_failf(__FILE__, __LINE__, "%s N=%d L=%d root=%d: optimum rejected: %s",
                       oc_rrp_problem_name(sp.problem), N, L, root, v.detail);
          CHECK_EQ(v.time, opt);
          oc_rrp_sched_free(&s);
          CHECK_OK(oc_rrp_bound(&sp, &bd));
          CHECK(bd.lb <= opt);
          for (int a = 0; a < 3; a++) {
            oc_rrp_result r;
            CHECK_OK(oc_rrp_plan(&sp, (oc_rrp_alg)a, NULL, &r));
            CHECK(r.time >= opt);
            if (r.time - opt > gap_max[prob][a]) gap_max[prob][a] = (int)(r.time - opt);
          }
        }
  /* tuned's two-sided start makes every broadcast here optimal */
  CHECK_EQ(gap_max[OC_RRP_BCAST][OC_RRP_TUNED], 0);
  for (int prob = 0; prob < 3; prob++)
    printf("  %-6s largest gap to the optimum: sweep %d, tuned %d, binomial %d\n",
           oc_rrp_problem_name((oc_rrp_problem)prob), gap_max[prob][0], gap_max[prob][1],
           gap_max[prob][2]);
}

/* What a fresh-eyes review found: the longest value was cut short when two
 * values end at the same index (a false accept and a false reject); the
 * final check was quadratic in the values a processor holds. */
static int verify_text(const char *csv, const oc_rrp_spec *sp, oc_verdict *v, int *ref,
                       int64_t *reft) {
  char *buf = strdup(csv), err[200];
  oc_rrp_sched s;
  int e;
  if (buf == NULL) abort();
  oc_rrp_sched_init(&s);
  e = oc_rrp_read_csv(buf, strlen(buf), sp->N, sp->L, &s, err, sizeof err);
  if (e == OC_OK) e = oc_verify_rrp(sp, &s, v);
  if (e == OC_OK) *ref = ref_check(sp, &s, reft);
  oc_rrp_sched_free(&s);
  free(buf);
  return e;
}

void test_rrp_review_regressions(void) {
  static const char head[] =
      "time,src,dst,item,dir,line\n1,9,8,9,ccw,0\n1,10,11,10,cw,1\n2,11,12,11,cw,0\n"
      "2,8,12,9,cw,1\n3,11,9,11,ccw,2\n4,9,12,11,cw,0\n6,12,13,12,cw,0\n";
  static const int64_t segs[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  char csv[2048];
  oc_verdict v;
  int ref = -1;
  int64_t t = 0;
  /* 12 holds [8,9], [9,11], [10,11], [12,12] (and more): item 12 carries
   * [8,12], so 13 cannot form x_9..x_13 */
  oc_rrp_spec sp = {OC_RRP_SCAN, 14, 3, 0, segs, 10};
  snprintf(csv, sizeof csv, "%s7,9,10,9,cw,0\n8,9,11,11,cw,1\n", head);
  CHECK_OK(verify_text(csv, &sp, &v, &ref, &t));
  CHECK(!v.ok);
  CHECK_EQ(v.rule, OC_RULE_MISSING);
  CHECK_EQ(v.proc, 13);
  CHECK_EQ(ref, 0);
  /* and a reduction into 13 that does compute x_0..x_13 (a chain 0 -> 1 ->
   * ... -> 7 -> 8 -> 13 brings x_0..x_8 over the [8,12] junction) */
  {
    oc_rrp_spec rp = {OC_RRP_REDUCE, 14, 3, 13, NULL, 0};
    size_t len = (size_t)snprintf(csv, sizeof csv, "%s", head);
    for (int p = 0; p < 7; p++)
      len += (size_t)snprintf(csv + len, sizeof csv - len, "%d,%d,%d,%d,cw,2\n", p + 1, p,
                              p + 1, p);
    snprintf(csv + len, sizeof csv - len, "8,7,13,7,cw,1\n");
    CHECK_OK(verify_text(csv, &rp, &v, &ref, &t));
    CHECK_EQ(ref, 1);
    if (!v.ok) test_failf(__FILE__, __LINE__, "false reject: %s", v.detail);
    CHECK_EQ(v.time, t);
  }
  /* a star: every p sends x_p to 0 in step 2p - 1 on its own line; 0 holds
   * N - 1 values at the end (linear work, not quadratic) */
  {
    int64_t N = 1 << 13;
    oc_rrp_spec st = {OC_RRP_REDUCE, N, N, 0, NULL, 0};
    oc_rrp_sched s;
    oc_rrp_sched_init(&s);
    for (int64_t p = 1; p < N; p++)
      CHECK_OK(oc_rrp_sched_push(&s, 2 * p - 1, p, 0, p, OC_RRP_CCW, p));
    CHECK_OK(oc_verify_rrp(&st, &s, &v));
    CHECK(v.ok);
    oc_rrp_sched_free(&s);
  }
}
