/* test_kport.c - the k-port model: bounds against exhaustive search, both
 * algorithms through the verifier, the verifier against a reference
 * checker on mutants, and k = 1 against the postal model with lambda = 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"
#include "brute_kport.h"
#include "test.h"

__extension__ typedef unsigned __int128 u128;

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* Reference checker written from the contract, quadratic and plain:
 * returns 1 when valid and the completion round in *time. */
static int ref_check(int64_t n, int64_t k, int64_t m, int64_t root,
                     const oc_sched *s, int64_t *time) {
  int64_t done = 0;
  for (size_t i = 0; i < s->n; i++) {
    const oc_msg *a = &s->msg[i];
    int64_t outs = 0, ins = 0;
    if (a->t < 1 || a->src < 0 || a->src >= n || a->dst < 0 || a->dst >= n ||
        a->src == a->dst || a->item < 0 || a->item >= m)
      return 0;
    if (a->src != root) { /* held: some message brought it earlier */
      int held = 0;
      for (size_t j = 0; j < s->n && !held; j++)
        held = s->msg[j].dst == a->src && s->msg[j].item == a->item &&
               s->msg[j].t < a->t;
      if (!held) return 0;
    }
    for (size_t j = 0; j < s->n; j++) {
      const oc_msg *b = &s->msg[j];
      if (b->t != a->t) continue;
      if (b->src == a->src) {
        outs++;
        if (j != i && b->dst == a->dst) return 0;
      }
      if (b->dst == a->dst) {
        ins++;
        if (j != i && b->src == a->src) return 0;
      }
    }
    if (outs > k || ins > k) return 0;
  }
  for (int64_t q = 0; q < n; q++)
    for (int64_t x = 0; x < m; x++) {
      int64_t first = INT64_MAX;
      if (q == root) continue;
      for (size_t j = 0; j < s->n; j++)
        if (s->msg[j].dst == q && s->msg[j].item == x && s->msg[j].t < first)
          first = s->msg[j].t;
      if (first == INT64_MAX) return 0;
      if (first > done) done = first;
    }
  *time = done;
  return 1;
}

/* plan, verify, and check the time the planner reports */
static int64_t plan_checked(int64_t n, int64_t k, int64_t m, int64_t root,
                            oc_kport_alg alg, oc_kport_result *res) {
  oc_sched s;
  oc_verdict v;
  int e;
  oc_sched_init(&s);
  e = oc_kport_plan(n, k, m, root, alg, &s, res);
  if (e == OC_EUNSUP) {
    oc_sched_free(&s);
    return -1;
  }
  CHECK_OK(e);
  CHECK_OK(oc_verify_kport(n, k, m, root, &s, &v));
  if (!v.ok)
    test_failf(__FILE__, __LINE__, "n=%lld k=%lld m=%lld %s: %s", (long long)n,
               (long long)k, (long long)m, oc_kport_alg_name(res->alg), v.detail);
  CHECK_EQ(v.time, res->time);
  CHECK_EQ(s.n, (size_t)(m * (n - 1))); /* every processor gets each item once */
  oc_sched_free(&s);
  return res->time;
}

/* The seed's lemmas (reconstructed) are the exact optimum on every tiny
 * instance, found by exhaustive search; every algorithm is at or above it. */
void test_kport_bounds_exhaustive(void) {
  int nmax = test_sweep() ? 8 : 6, kmax = test_sweep() ? 4 : 3,
      mmax = test_sweep() ? 5 : 4, cases = 0;
  for (int k = 1; k <= kmax; k++)
    for (int n = 2; n <= nmax; n++)
      for (int m = 1; m <= mmax; m++) {
        oc_kport_bounds b;
        oc_kport_result r;
        int opt;
        if (n == 8 && k >= 3 && m >= 4) continue; /* 24-34 s each: run by hand */
        opt = brute_kport_opt(n, k, m, 16);
        CHECK(opt > 0);
        CHECK_OK(oc_kport_bound(n, k, m, &b));
        if (opt != b.lb)
          test_failf(__FILE__, __LINE__, "n=%d k=%d m=%d: optimum %d, bound %lld", n,
                     k, m, opt, (long long)b.lb);
        CHECK(plan_checked(n, k, m, 0, OC_KP_BEST, &r) >= opt);
        if (r.time > opt + 1) /* best is within a round of the optimum */
          test_failf(__FILE__, __LINE__, "n=%d k=%d m=%d: best %lld, optimum %d", n, k, m,
                     (long long)r.time, opt);
        if (n <= k + 1) { /* DIRECT: the optimum itself */
          CHECK_EQ(r.time, opt);
          CHECK_EQ(plan_checked(n, k, m, n - 1, OC_KP_ROTATION, &r), opt);
        }
        cases++;
      }
  CHECK(cases >= 60);
  printf("  k-port: lower bound = exhaustive optimum on %d instances (n <= %d, k <= %d, "
         "m <= %d)\n", cases, nmax, kmax, mmax);
}

/* Lemma 2 / 3 by hand: Corollary 4 (n a power of k + 1) and small cases */
void test_kport_bounds_values(void) {
  oc_kport_bounds b;
  CHECK_OK(oc_kport_bound(9, 2, 6, &b)); /* 3 batches of 2: beta = 2 */
  CHECK_EQ(b.depth, 2);
  CHECK_EQ(b.lemma2, 4);
  CHECK_EQ(b.lemma3, 5); /* 2 * 8 > 3^2 - 1 */
  CHECK_OK(oc_kport_bound(9, 2, 5, &b)); /* beta = 1: Corollary 4's -1 case */
  CHECK_EQ(b.lemma3, 4);
  CHECK_EQ(b.lb, 4);
  CHECK_OK(oc_kport_bound(3, 2, 2, &b)); /* receptions: round 1 brings one */
  CHECK_EQ(b.recv, 2);
  CHECK_EQ(b.lb, 2);
  CHECK_OK(oc_kport_bound(1, 3, 7, &b));
  CHECK_EQ(b.lb, 0);
  CHECK_OK(oc_kport_bound(5, 10, 8, &b)); /* k' = n - 1 = 4 */
  CHECK_EQ(b.lemma2, 2);
  CHECK_EQ(b.recv, 3);
  /* the edges: nothing wraps */
  {
    int64_t n = (int64_t)1 << 62, k = (int64_t)1 << 40, m = (int64_t)1 << 40;
    u128 pw = 1;
    int64_t d = 0;
    CHECK_OK(oc_kport_bound(n, k, m, &b));
    while (pw < (u128)n) { pw *= (u128)(k + 1); d++; }
    CHECK_EQ(b.depth, d);
    CHECK_EQ(b.lemma2, 1 - 1 + d);
    CHECK_OK(oc_kport_bound(n, 1, m, &b));
    CHECK_EQ(b.depth, 62);
    CHECK_EQ(b.lb, m - 1 + 62);
    CHECK_OK(oc_kport_bound(3, (int64_t)1 << 40, (int64_t)1 << 40, &b));
    CHECK_EQ(b.lemma2, ((int64_t)1 << 39) - 1 + 1);
  }
  CHECK_EQ(oc_kport_bound(0, 1, 1, &b), OC_EINVAL);
  CHECK_EQ(oc_kport_bound(4, 0, 1, &b), OC_EINVAL);
  CHECK_EQ(oc_kport_bound(4, 1, 0, &b), OC_EINVAL);
  CHECK_EQ(oc_kport_bound(4, ((int64_t)1 << 40) + 1, 1, &b), OC_EINVAL);
}

/* n = (k+1)^d: the rotation algorithm is the seed's Theorem 10 bound
 * ceil(m/k) + d, optimal whenever the last batch has two messages. */
void test_kport_rotation_cube(void) {
  for (int64_t k = 1; k <= 6; k++)
    for (int64_t n = k + 1; n <= (test_sweep() ? 4096 : 400); n *= k + 1)
      for (int64_t m = 1; m <= 13; m += 3) {
        oc_kport_result r;
        oc_kport_bounds b;
        int64_t d = 0, pw = 1;
        while (pw < n) { pw *= k + 1; d++; }
        CHECK_OK(oc_kport_bound(n, k, m, &b));
        CHECK_EQ(plan_checked(n, k, m, n / 2, OC_KP_ROTATION, &r),
                 n == k + 1 ? b.lb : ceil_div(m, k) + d); /* n = k + 1: DIRECT */
        if (m - k * (ceil_div(m, k) - 1) >= 2 && n > 2) CHECK_EQ(r.time, b.lb);
      }
}

/* Random instances: every schedule verified; rotation within one round of
 * Lemma 2 wherever it has a construction; k-tree at its formula. */
void test_kport_random(void) {
  int cases = test_sweep() ? 0 : 250, covered = 0;
  int64_t kk, N;
  if (test_sweep()) { /* the grid, whole */
    for (int64_t k = 1; k <= 6; k++)
      for (int64_t n = 1; n <= 200; n++)
        for (int64_t m = 1; m <= 64; m++) {
          oc_kport_result a, r, best;
          oc_kport_bounds b;
          CHECK_OK(oc_kport_bound(n, k, m, &b));
          CHECK(plan_checked(n, k, m, (7 * n / 11) % n, OC_KP_KTREE, &a) >= b.lb);
          if (plan_checked(n, k, m, 0, OC_KP_ROTATION, &r) >= 0) {
            CHECK(r.time >= b.lb);
            CHECK(r.time <= b.lemma2 + 1);
            covered++;
          }
          CHECK(plan_checked(n, k, m, n - 1, OC_KP_BEST, &best) >= b.lb);
          CHECK(best.time <= a.time);
        }
    CHECK(covered > 40000);
    printf("  k-port sweep: %d of %d (n, k, m) covered by rotation, all within Lemma 2 + 1\n",
           covered, 6 * 200 * 64);
    return;
  }
  for (int i = 0; i < cases; i++) {
    int64_t k = test_range(1, 6), n = test_range(1, 200), m = test_range(1, 64);
    int64_t root = test_range(0, n - 1);
    oc_kport_result a, r;
    oc_kport_bounds b;
    CHECK_OK(oc_kport_bound(n, k, m, &b));
    CHECK(plan_checked(n, k, m, root, OC_KP_KTREE, &a) >= b.lb);
    N = n - 1;
    kk = k < N ? k : N;
    if (kk > m) kk = m;
    if (n > 1) CHECK(a.time <= ceil_div(m, kk) - 1 + a.height);
    if (plan_checked(n, k, m, root, OC_KP_ROTATION, &r) >= 0) {
      CHECK(r.time >= b.lb);
      CHECK(r.time <= b.lemma2 + 1);
      covered++;
    }
  }
  CHECK(covered > cases / 3);
}

/* Every mutant of a valid schedule: the verifier and the reference checker
 * agree, and mutants that break a rule are rejected. */
void test_kport_mutants(void) {
  int tried = 0, killed = 0, broken = 0, rounds = test_sweep() ? 60 : 12;
  for (int it = 0; it < rounds; it++) {
    int64_t k = test_range(1, 4), n = test_range(2, 14), m = test_range(1, 6);
    oc_sched s;
    oc_kport_result r;
    oc_sched_init(&s);
    CHECK_OK(oc_kport_plan(n, k, m, 0, it % 2 ? OC_KP_BEST : OC_KP_KTREE, &s, &r));
    for (size_t i = 0; i < s.n; i++)
      for (int kind = 0; kind < 6; kind++) {
        oc_sched x;
        oc_verdict v;
        int64_t t_ref = 0;
        int ref;
        oc_sched_init(&x);
        for (size_t j = 0; j < s.n; j++) {
          oc_msg a = s.msg[j];
          if (j == i) {
            if (kind == 0) a.t -= 1;                      /* shift earlier */
            if (kind == 1) a.t += 1;                      /* shift later   */
            if (kind == 2) continue;                      /* drop          */
            if (kind == 3) a.dst = (a.dst + 1) % n;       /* retarget      */
            if (kind == 4) a.item = (a.item + 1) % m;     /* other item    */
            if (kind == 5) { CHECK_OK(oc_sched_push(&x, a.t, a.src, a.dst, a.item)); }
          }
          CHECK_OK(oc_sched_push(&x, a.t, a.src, a.dst, a.item));
        }
        CHECK_OK(oc_verify_kport(n, k, m, 0, &x, &v));
        ref = ref_check(n, k, m, 0, &x, &t_ref);
        if (v.ok != ref)
          test_failf(__FILE__, __LINE__, "n=%lld k=%lld m=%lld kind %d: verifier %d, "
                     "reference %d (%s)", (long long)n, (long long)k, (long long)m,
                     kind, v.ok, ref, v.detail);
        if (v.ok && ref) CHECK_EQ(v.time, t_ref);
        tried++;
        killed += !v.ok;
        broken += !ref;
        oc_sched_free(&x);
      }
    oc_sched_free(&s);
  }
  CHECK(tried > 100);
  CHECK(killed * 2 > tried); /* some shifts keep every rule */
  printf("  | kbcast | kport | %d | %d | %d | %d |\n", tried, broken, killed, tried);
}

/* Rules one by one on handmade schedules (n = 4, k = 2, m = 2). */
void test_kport_verify_rules(void) {
  static const struct {
    int64_t msg[8][4]; /* t, src, dst, item; t = 0 ends */
    int ok;
    oc_rule rule;
  } cases[] = {
      /* valid: 0 -> 1 (item 0), 0 -> 2 (item 1); then swaps and 3 */
      {{{1, 0, 1, 0}, {1, 0, 2, 1}, {2, 1, 2, 0}, {2, 2, 1, 1}, {2, 1, 3, 0},
        {2, 2, 3, 1}}, 1, OC_RULE_NONE},
      /* held: 1 forwards item 1 it has not got */
      {{{1, 0, 1, 0}, {1, 0, 2, 1}, {2, 1, 2, 0}, {2, 1, 3, 1}, {2, 1, 3, 0},
        {2, 2, 1, 1}, {3, 2, 3, 1}}, 0, OC_RULE_HELD},
      /* two messages from 0 to 1 in round 1 */
      {{{1, 0, 1, 0}, {1, 0, 1, 1}, {2, 1, 2, 0}, {2, 1, 3, 1}, {3, 2, 3, 0},
        {3, 3, 2, 1}}, 0, OC_RULE_CAP_OUT},
      /* 3 sends in one round with k = 2 */
      {{{1, 0, 1, 0}, {1, 0, 2, 1}, {2, 1, 2, 0}, {2, 1, 3, 0}, {2, 2, 1, 1},
        {3, 1, 3, 1}, {3, 1, 0, 0}, {3, 1, 2, 1}}, 0, OC_RULE_CAP_OUT},
      /* 3 receives in one round */
      {{{1, 0, 1, 0}, {1, 0, 2, 1}, {2, 1, 3, 0}, {2, 2, 3, 1}, {2, 0, 3, 0},
        {3, 1, 2, 0}, {3, 2, 1, 1}}, 0, OC_RULE_CAP_IN},
      /* round 0 */
      {{{1, 0, 1, 0}, {1, 0, 2, 1}, {2, 1, 2, 0}, {2, 2, 1, 1}, {2, 1, 3, 0},
        {-1, 2, 3, 1}}, 0, OC_RULE_RANGE},
      /* 3 never gets item 1 */
      {{{1, 0, 1, 0}, {1, 0, 2, 1}, {2, 1, 2, 0}, {2, 2, 1, 1}, {2, 1, 3, 0}},
       0, OC_RULE_MISSING},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    oc_sched s;
    oc_verdict v;
    int64_t t_ref = 0;
    oc_sched_init(&s);
    for (int i = 0; i < 8 && cases[c].msg[i][0] != 0; i++)
      CHECK_OK(oc_sched_push(&s, cases[c].msg[i][0], cases[c].msg[i][1],
                             cases[c].msg[i][2], cases[c].msg[i][3]));
    CHECK_OK(oc_verify_kport(4, 2, 2, 0, &s, &v));
    if (v.ok != cases[c].ok || v.rule != cases[c].rule)
      test_failf(__FILE__, __LINE__, "case %zu: ok %d rule %s (%s)", c, v.ok,
                 oc_rule_name(v.rule), v.detail);
    CHECK_EQ(ref_check(4, 2, 2, 0, &s, &t_ref), cases[c].ok);
    if (v.ok) CHECK_EQ(v.time, 2);
    oc_sched_free(&s);
  }
  {
    oc_sched s;
    oc_verdict v;
    oc_sched_init(&s);
    CHECK_EQ(oc_verify_kport(0, 1, 1, 0, &s, &v), OC_EINVAL);
    CHECK_EQ(oc_verify_kport(4, 1, 1, 4, &s, &v), OC_EINVAL);
    CHECK_EQ(oc_verify_kport(1 << 20, 1, 1 << 20, 0, &s, &v), OC_ERANGE);
    CHECK_OK(oc_verify_kport(1, 3, 3, 0, &s, &v)); /* alone: nothing to do */
    CHECK(v.ok);
    CHECK_EQ(v.time, 0);
  }
}

/* k = 1 is the simultaneous send/receive model, i.e. postal with lambda = 1
 * (a message sent at time t - 1 arrives at t = its k-port round): the
 * bounds agree with Bar-Noy & Kipnis's, and schedules of either model pass
 * the other's verifier with the same time. */
void test_kport_k1_postal(void) {
  for (int64_t n = 1; n <= 40; n++)
    for (int64_t m = 1; m <= 9; m++) {
      oc_params p;
      oc_kport_bounds b;
      int64_t lb, l8, k31;
      oc_kbcast_result kr;
      oc_sched s, x;
      oc_verdict v;
      oc_kport_result r;
      CHECK_OK(oc_params_postal(&p, n, 1, 1));
      CHECK_OK(oc_kport_bound(n, 1, m, &b));
      CHECK_OK(oc_kbcast_bound(&p, m, &lb, &l8, &k31));
      CHECK_EQ(b.lb, n == 1 ? 0 : l8); /* (m - 1) + ceil(log2 n) */
      CHECK(b.lb <= lb);
      /* postal schedules as k-port ones */
      oc_sched_init(&s);
      oc_sched_init(&x);
      CHECK_OK(oc_kbcast_plan(&p, 0, m, OC_KB_BEST, 0, &s, &kr));
      if (s.len == NULL) { /* PACK's long messages have no k-port form */
        for (size_t i = 0; i < s.n; i++)
          CHECK_OK(oc_sched_push(&x, s.msg[i].t + 1, s.msg[i].src, s.msg[i].dst,
                                 s.msg[i].item));
        CHECK_OK(oc_verify_kport(n, 1, m, 0, &x, &v));
        CHECK(v.ok);
        CHECK_EQ(v.time, kr.time);
      }
      oc_sched_free(&s);
      oc_sched_free(&x);
      /* k-port schedules as postal ones */
      oc_sched_init(&s);
      oc_sched_init(&x);
      CHECK_OK(oc_kport_plan(n, 1, m, 0, OC_KP_BEST, &s, &r));
      for (size_t i = 0; i < s.n; i++)
        CHECK_OK(oc_sched_push(&x, s.msg[i].t - 1, s.msg[i].src, s.msg[i].dst,
                               s.msg[i].item));
      CHECK_OK(oc_verify_bcast(&p, 0, m, &x, &v));
      CHECK(v.ok);
      if (n > 1) CHECK_EQ(v.time, r.time);
      oc_sched_free(&s);
      oc_sched_free(&x);
    }
}

/* The trees of the k-tree algorithm obey Theorem 6 for every n <= 300,
 * k <= 8 (the verifier sees it), and the plan refuses what it cannot hold. */
void test_kport_ktree_all(void) {
  for (int64_t k = 2; k <= 8; k++)
    for (int64_t n = 2; n <= (test_sweep() ? 1000 : 300); n += (n < 60 ? 1 : 7)) {
      oc_kport_result r;
      int64_t t = plan_checked(n, k, 2 * k + 1, n / 3, OC_KP_KTREE, &r);
      oc_kport_bounds b;
      CHECK_OK(oc_kport_bound(n, k, 2 * k + 1, &b));
      CHECK(t - b.lb <= 3 + (n > 300)); /* the gap the docs tabulate */
    }
  {
    oc_kport_result r;
    CHECK_EQ(oc_kport_plan(1 << 22, 2, 4, 0, OC_KP_KTREE, NULL, &r), OC_ERANGE);
    CHECK_EQ(oc_kport_plan(4, 2, 4, 4, OC_KP_KTREE, NULL, &r), OC_EINVAL);
    CHECK_EQ(oc_kport_plan(4, 2, 4, 0, (oc_kport_alg)7, NULL, &r), OC_EINVAL);
    CHECK_OK(oc_kport_plan(1, 2, 4, 0, OC_KP_BEST, NULL, &r));
    CHECK_EQ(r.time, 0);
  }
}

/* The SPECIAL box (Z_{k+1}^(e+1) without the hyperplane digit-sum = 0):
 * n = k (k+1)^e + 1 is one SPECIAL box after the source, delay e + 2, so
 * ceil(m/k) + e + 1 = Lemma 2 + 1 rounds, verified, any root; and with it
 * every n has a chain for k = 1 and k = 2 (the seed's Theorem 10 bound;
 * n <= 200, 3000 in the sweep),
 * while for k >= 3 the n without a chain are as many as
 * docs/ALGORITHMS.md lists (8, 11, 15, 10 of k + 1 < n <= 200 for k = 3..6). */
void test_kport_rotation_special(void) {
  static const int listed[7] = {0, 0, 0, 8, 11, 15, 10};
  for (int64_t k = 1; k <= 6; k++)
    for (int64_t n = k * (k + 1) + 1; n <= (test_sweep() ? 20000 : 2000); n = (n - 1) * (k + 1) + 1) {
      kp_chain *c = (kp_chain *)malloc(sizeof *c);
      int64_t d = 0, pw = 1;
      CHECK(c != NULL);
      while (pw < n) { pw *= k + 1; d++; }
      CHECK_OK(oc_kport_chain_find(n, k, c));
      CHECK_EQ(c->len, 1);
      CHECK_EQ(c->el[0].type, KP_EL_SPECIAL);
      CHECK_EQ(c->el[0].e, d - 1);
      free(c);
      for (int64_t m = 1; m <= 2 * k + 1; m += (n > 500 ? 2 * k : 1)) {
        oc_kport_result r;
        oc_kport_bounds b;
        CHECK_OK(oc_kport_bound(n, k, m, &b));
        CHECK_EQ(plan_checked(n, k, m, (7 * m + n / 3) % n, OC_KP_ROTATION, &r),
                 ceil_div(m, k) + d);
        CHECK_EQ(r.time, b.lemma2 + 1);
      }
    }
  for (int64_t k = 1; k <= 6; k++) {
    int missing = 0;
    int64_t top = k <= 2 && test_sweep() ? 3000 : 200;
    for (int64_t n = k + 2; n <= top; n++) { /* n <= k + 1: the source alone */
      oc_kport_result r;
      oc_kport_bounds b;
      int64_t m = n > 200 ? 1 : n % 3 == 0 ? 2 * k + 1 : 3, t;
      CHECK_OK(oc_kport_bound(n, k, m, &b));
      t = plan_checked(n, k, m, n / 2, OC_KP_ROTATION, &r);
      if (t >= 0) { /* rounds per message: d + 1, or d where the chain allows */
        int64_t d = 0, pw = 1, dep = -1;
        while (pw < n) { pw *= k + 1; d++; }
        CHECK(r.height == d + 1 || r.height == d);
        CHECK_EQ(t, ceil_div(m, k) - 1 + r.height);
        CHECK(oc_kport_rotation_covers(n, k, &dep));
        CHECK_EQ(dep, r.height);
      }
      if (t < 0) {
        missing += n <= 200;
        if (k <= 2) test_failf(__FILE__, __LINE__, "k=%lld n=%lld: no chain", (long long)k, (long long)n);
        continue;
      }
      CHECK(t <= b.lemma2 + 1);
    }
    if (missing != listed[k])
      test_failf(__FILE__, __LINE__, "k=%lld: %d n <= 200 without a chain, %d listed",
                 (long long)k, missing, listed[k]);
  }
}

/* n <= k + 1 (DIRECT): every k <= 8, n <= k + 1, m <= 64 at the lower
 * bound, which is the receptions bound 1 + ceil((m - 1)/(n - 1)) there
 * (so the schedule is optimal), for rotation and best and any root; the
 * k-tree is never faster. */
void test_kport_direct(void) {
  int cases = 0;
  for (int64_t k = 1; k <= 8; k++)
    for (int64_t n = 1; n <= k + 1; n++)
      for (int64_t m = 1; m <= 64; m++) {
        oc_kport_result r, best, kt;
        oc_kport_bounds b;
        int64_t dep = -1;
        CHECK_OK(oc_kport_bound(n, k, m, &b));
        if (n > 1) CHECK_EQ(b.lb, 1 + ceil_div(m - 1, n - 1));
        CHECK_EQ(plan_checked(n, k, m, (m * 5) % n, OC_KP_ROTATION, &r), b.lb);
        CHECK_EQ(plan_checked(n, k, m, (m * 3) % n, OC_KP_BEST, &best), b.lb);
        CHECK(plan_checked(n, k, m, 0, OC_KP_KTREE, &kt) >= b.lb);
        CHECK(oc_kport_rotation_covers(n, k, &dep));
        if (n > 1 && m > 1) CHECK_EQ(r.height, dep);
        cases++;
      }
  CHECK_EQ(cases, 44 * 64);
  printf("  k-port n <= k + 1: %d instances (k <= 8, m <= 64) at the lower bound\n", cases);
}

/* Mutants of DIRECT schedules: each delivery is made once, so dropping,
 * retargeting or relabelling any message, or sending it a round earlier
 * (its sender does not hold it yet, or already uses that partner, or
 * round 0), must be rejected by the verifier and the reference checker. */
void test_kport_direct_mutants(void) {
  int tried = 0, killed = 0;
  for (int it = 0; it < (test_sweep() ? 120 : 30); it++) {
    int64_t k = test_range(1, 6), n = test_range(2, k + 1), m = test_range(1, 9);
    int64_t root = test_range(0, n - 1);
    oc_sched s;
    oc_kport_result r;
    oc_sched_init(&s);
    CHECK_OK(oc_kport_plan(n, k, m, root, OC_KP_ROTATION, &s, &r));
    for (size_t i = 0; i < s.n; i++)
      for (int kind = 0; kind < 4; kind++) {
        oc_sched x;
        oc_verdict v;
        int64_t t_ref = 0;
        if (kind == 3 && m == 1) continue;
        oc_sched_init(&x);
        for (size_t j = 0; j < s.n; j++) {
          oc_msg a = s.msg[j];
          if (j == i) {
            if (kind == 0) a.t -= 1;                  /* earlier   */
            if (kind == 1) continue;                  /* drop      */
            if (kind == 2) a.dst = (a.dst + 1) % n;   /* retarget  */
            if (kind == 3) a.item = (a.item + 1) % m; /* relabel   */
          }
          CHECK_OK(oc_sched_push(&x, a.t, a.src, a.dst, a.item));
        }
        CHECK_OK(oc_verify_kport(n, k, m, root, &x, &v));
        if (v.ok || ref_check(n, k, m, root, &x, &t_ref))
          test_failf(__FILE__, __LINE__, "n=%lld k=%lld m=%lld message %zu kind %d: "
                     "mutant accepted", (long long)n, (long long)k, (long long)m, i, kind);
        tried++;
        killed += !v.ok;
        oc_sched_free(&x);
      }
    oc_sched_free(&s);
  }
  CHECK(tried > 100);
  CHECK_EQ(killed, tried);
  printf("  k-port DIRECT: %d mutants, all rejected\n", tried);
}

/* The k-tree's last message spread greedily (a last batch of one message,
 * beta = 1): where the trees alone are Lemma 2 + 2 - the n without a chain
 * for k >= 3, e.g. the 15, 48, 51, 63, 177, 180, 243, 1023 (k = 3),
 * 23, 24, 100, 120 (k = 4), 35, 180 (k = 5) - best is now within one
 * round of the lower bound for every m <= 64 (verified).  Random instances
 * (k <= 6, n <= 400, beta = 1): the k-tree is never slower than its trees'
 * formula, best within lb + 1 (within lb + 2 before), all verified. */
void test_kport_tail(void) {
  static const int64_t listed[][2] = {
      {3, 15}, {3, 48}, {3, 51}, {3, 63}, {3, 177}, {3, 180}, {3, 243}, {3, 1023},
      {4, 23}, {4, 24}, {4, 100}, {4, 120}, {5, 35}, {5, 180}};
  int cases = 0, improved = 0;
  for (size_t c = 0; c < sizeof listed / sizeof listed[0]; c++) {
    int64_t k = listed[c][0], n = listed[c][1];
    for (int64_t m = 1; m <= 64; m += (n > 200 ? k : 1)) {
      oc_kport_result r;
      oc_kport_bounds b;
      CHECK_OK(oc_kport_bound(n, k, m, &b));
      if (plan_checked(n, k, m, (m * 7) % n, OC_KP_BEST, &r) > b.lb + 1)
        test_failf(__FILE__, __LINE__, "k=%lld n=%lld m=%lld: %lld rounds, bound %lld",
                   (long long)k, (long long)n, (long long)m, (long long)r.time,
                   (long long)b.lb);
      cases++;
    }
  }
  for (int i = 0; i < (test_sweep() ? 2000 : 200); i++) {
    int64_t k = test_range(2, 6), n = test_range(k + 2, 400);
    int64_t m = k * test_range(0, 10) + 1, root = test_range(0, n - 1);
    int64_t kk = k < n - 1 ? k : n - 1;
    oc_kport_result a, best;
    oc_kport_bounds b;
    CHECK_OK(oc_kport_bound(n, k, m, &b));
    CHECK(plan_checked(n, k, m, root, OC_KP_KTREE, &a) >= b.lb);
    CHECK(a.time <= ceil_div(m, kk > m ? m : kk) - 1 + a.height);
    improved += a.time < ceil_div(m, kk > m ? m : kk) - 1 + a.height;
    CHECK(plan_checked(n, k, m, root, OC_KP_BEST, &best) <= b.lb + 1);
    CHECK(best.time <= a.time);
  }
  CHECK(improved > 0);
  /* k = 3, n just below 4^6 without a chain: the k-tree is Lemma 2 + 3
   * (height d + 3); best takes a chain of delay d + 2 (lb + 1 when Lemma 3
   * adds its round) and, for beta = 1, sends the last message by
   * replacement (kport_tail_replace) - within lb + 1 */
  for (int64_t n = 3762; n <= 4095; n += 333)
    for (int64_t m = 2; m <= 8; m++) {
      oc_kport_result r;
      oc_kport_bounds b;
      CHECK(!oc_kport_rotation_covers(n, 3, NULL));
      CHECK_OK(oc_kport_bound(n, 3, m, &b));
      CHECK(plan_checked(n, 3, m, m % n, OC_KP_BEST, &r) <= b.lb + 1);
      if (m >= 4) CHECK_EQ(r.alg, OC_KP_ROTATION); /* the slack chain */
      cases++;
    }
  printf("  k-port last message spread: %d listed instances within lb + 1, %d random "
         "k-trees a round faster\n", cases, improved);
}

/* Mutants of schedules whose last message was spread greedily: dropping,
 * retargeting or relabelling one of its sends is rejected, by the verifier
 * and by the reference checker. */
void test_kport_tail_mutants(void) {
  int tried = 0;
  for (int it = 0; it < (test_sweep() ? 40 : 10); it++) {
    static const int64_t kn[][2] = {{3, 15}, {4, 23}, {3, 48}, {5, 35}};
    int64_t k = kn[it % 4][0], n = kn[it % 4][1], m = k * test_range(1, 3) + 1;
    oc_sched s;
    oc_kport_result r, plain;
    oc_kport_bounds b;
    oc_sched_init(&s);
    CHECK_OK(oc_kport_bound(n, k, m, &b));
    CHECK_OK(oc_kport_plan(n, k, m, 0, OC_KP_KTREE, &s, &r));
    CHECK_OK(oc_kport_plan(n, k, m - 1, 0, OC_KP_KTREE, NULL, &plain));
    CHECK(r.time < ceil_div(m, k) - 1 + r.height); /* the spread was used */
    for (size_t i = 0; i < s.n; i++)
      for (int kind = 0; kind < 3; kind++) {
        oc_sched x;
        oc_verdict v;
        int64_t t_ref = 0;
        if (s.msg[i].item != m - 1) continue;
        oc_sched_init(&x);
        for (size_t j = 0; j < s.n; j++) {
          oc_msg a = s.msg[j];
          if (j == i) {
            if (kind == 0) continue;                /* drop     */
            if (kind == 1) a.dst = (a.dst + 1) % n; /* retarget */
            if (kind == 2) a.item = 0;              /* relabel  */
          }
          CHECK_OK(oc_sched_push(&x, a.t, a.src, a.dst, a.item));
        }
        CHECK_OK(oc_verify_kport(n, k, m, 0, &x, &v));
        if (v.ok || ref_check(n, k, m, 0, &x, &t_ref))
          test_failf(__FILE__, __LINE__, "k=%lld n=%lld m=%lld send %zu kind %d accepted",
                     (long long)k, (long long)n, (long long)m, i, kind);
        tried++;
        oc_sched_free(&x);
      }
    oc_sched_free(&s);
  }
  CHECK(tried > 100);
  printf("  k-port last-message mutants: %d, all rejected\n", tried);
}

/* The last message by replacement (a last batch of one message where no
 * chain of delay d + 1 exists): a chain of delay d + 2 without a SINGLE at
 * position d + 2 exists for every n without a chain (k = 3..6, n <= 10^4
 * in the sweep); best is within lb + 1 at the instances that stayed at
 * lb + 2 under the greedy spread (k = 3, n = 3762..4095, many batches);
 * with more batches than the chain's delay, every processor gets x in the
 * first round from B = ceil(m/k) on in which the base (the other m - 1
 * messages) leaves it a free receive port, so no spread over that base is
 * faster; and mutants of x's sends are rejected. */
void test_kport_tail_replace(void) {
  static const int64_t open_n[] = {3762, 3765, 3777, 3780, 3825, 3840,
                                   4017, 4020, 4032, 4080, 4095};
  int vg = test_valgrind(), nochain = 0, cases = 0, full = 0, tried = 0;
  int64_t nmax = test_sweep() ? 10000 : vg ? 800 : 4100;
  for (int64_t k = 3; k <= 6; k++)
    for (int64_t n = k + 2; n <= nmax; n++) {
      kp_chain ch, *c = &ch;
      if (oc_kport_chain_find(n, k, c) != OC_OK) {
        nochain++;
        if (oc_kport_chain_find_tail(n, k, c) != OC_OK)
          test_failf(__FILE__, __LINE__, "k=%lld n=%lld: no chain for the replacement",
                     (long long)k, (long long)n);
        CHECK(c->delay <= c->d + 2);
        for (int64_t i = 0; i < c->len; i++)
          if (c->el[i].type == KP_EL_SINGLE) CHECK(i + 1 <= c->d + 1);
      }
    }
  CHECK(nochain > 20);
  for (size_t c = 0; c < sizeof open_n / sizeof open_n[0]; c++) {
    static const int64_t ms[] = {61, 64, 31, 100};
    for (size_t j = 0; j < (vg ? 1 : sizeof ms / sizeof ms[0]); j++) {
      int64_t n = open_n[c], m = vg ? 7 : ms[j], B = ceil_div(m, 3), root = (int64_t)c * 977 % n;
      oc_kport_bounds b;
      oc_kport_result r;
      oc_sched s;
      oc_verdict v;
      unsigned char *fr;
      int64_t *got;
      if (vg && c % 4 != 0) continue;
      CHECK_OK(oc_kport_bound(n, 3, m, &b));
      oc_sched_init(&s);
      CHECK_OK(oc_kport_plan(n, 3, m, root, OC_KP_BEST, &s, &r));
      CHECK_OK(oc_verify_kport(n, 3, m, root, &s, &v));
      if (!v.ok) test_failf(__FILE__, __LINE__, "n=%lld m=%lld: %s", (long long)n, (long long)m,
                            v.detail);
      CHECK_EQ(v.time, r.time);
      CHECK_EQ(r.time, b.lb + 1); /* lb + 2 under the greedy spread at m = 61, 64 */
      CHECK_EQ(r.alg, OC_KP_ROTATION);
      /* receive counts of the base in rounds B..time, and x's arrivals */
      fr = (unsigned char *)calloc((size_t)(n * (r.time + 1)), 1);
      got = (int64_t *)calloc((size_t)n, sizeof *got);
      CHECK(fr != NULL && got != NULL);
      for (size_t i = 0; i < s.n; i++) {
        const oc_msg *a = &s.msg[i];
        if (a->item == m - 1)
          got[a->dst] = a->t;
        else
          fr[a->dst * (r.time + 1) + a->t]++;
      }
      for (int64_t p = 0; p < n && B > r.height; p++) { /* once the chain is full */
        int64_t first = B;
        if (p == root) continue;
        while (first <= r.time && fr[p * (r.time + 1) + first] >= 3) first++;
        if (got[p] != first)
          test_failf(__FILE__, __LINE__, "n=%lld m=%lld: processor %lld gets x in round %lld, "
                     "its first free receive port is in round %lld", (long long)n, (long long)m,
                     (long long)p, (long long)got[p], (long long)first);
      }
      free(fr);
      cases++;
      full += B > r.height;
      /* mutants: one of x's sends dropped, retargeted, relabelled, a round
       * earlier, or made by a processor that gets x only in that round or
       * later (the holding rule) */
      for (int q = 0; q < (vg ? 4 : 12) && j == 0 && c % 3 == 0; q++) {
        size_t i;
        int64_t late, tmax = 0;
        for (int64_t p = 0; p < n; p++) tmax = got[p] > tmax ? got[p] : tmax;
        do
          i = (size_t)test_range(0, (int64_t)s.n - 1);
        while (s.msg[i].item != m - 1 || s.msg[i].t < 2 || s.msg[i].t >= tmax);
        do
          late = test_range(0, n - 1);
        while (late == root || late == s.msg[i].dst || got[late] < s.msg[i].t);
        for (int kind = 0; kind < 5; kind++) {
          oc_sched x;
          oc_sched_init(&x);
          for (size_t h = 0; h < s.n; h++) {
            oc_msg a = s.msg[h];
            if (h == i) {
              if (kind == 0) continue;
              if (kind == 1) a.dst = (a.dst + 1) % n == a.src ? (a.dst + 2) % n : (a.dst + 1) % n;
              if (kind == 2) a.item = 0;
              if (kind == 3) a.t -= 1;
              if (kind == 4) a.src = late;
            }
            CHECK_OK(oc_sched_push(&x, a.t, a.src, a.dst, a.item));
          }
          CHECK_OK(oc_verify_kport(n, 3, m, root, &x, &v));
          if (v.ok)
            test_failf(__FILE__, __LINE__, "n=%lld m=%lld: mutant %d of send %zu accepted",
                       (long long)n, (long long)m, kind, i);
          tried++;
          oc_sched_free(&x);
        }
      }
      free(got);
      oc_sched_free(&s);
    }
  }
  /* random chainless n (k = 3..6), random root, a last batch of one
   * message: best within lb + 1, verified */
  for (int i = 0; i < (vg ? 3 : 24); i++) {
    int64_t k = test_range(3, 6), n, m, root;
    oc_kport_bounds b;
    oc_kport_result r;
    do
      n = test_range(k + 2, vg ? 1200 : 10000);
    while (oc_kport_rotation_covers(n, k, NULL));
    m = k * test_range(1, vg ? 4 : 40) + 1;
    root = test_range(0, n - 1);
    CHECK_OK(oc_kport_bound(n, k, m, &b));
    if (plan_checked(n, k, m, root, OC_KP_BEST, &r) > b.lb + 1)
      test_failf(__FILE__, __LINE__, "k=%lld n=%lld m=%lld root %lld: %lld rounds, bound %lld",
                 (long long)k, (long long)n, (long long)m, (long long)root,
                 (long long)r.time, (long long)b.lb);
    cases++;
  }
  CHECK(tried > 0);
  CHECK(vg || full > 0);
  printf("  k-port replacement: %d n without a chain all have one for it; %d instances "
         "within lb + 1 (%d with arrivals at the first free port); %d mutants rejected\n",
         nochain, cases, full, tried);
}

/* k = 1: the circulant (the postal lambda = 1 schedule a round later) at
 * the lower bound m - 1 + ceil(log2 n) for every n and m tried, verified
 * by the k-port verifier; before it, best was a round above on most */
void test_kport_one_port(void) {
  int vg = test_valgrind();
  for (int i = 0; i < (vg ? 30 : 400); i++) {
    int64_t n = i < 150 ? i + 2 : test_range(2, vg ? 300 : 3000), m = test_range(1, 24),
            root = test_range(0, n - 1);
    oc_kport_bounds b;
    oc_kport_result r;
    oc_sched s;
    oc_verdict v;
    CHECK_OK(oc_kport_bound(n, 1, m, &b));
    oc_sched_init(&s);
    CHECK_OK(oc_kport_plan(n, 1, m, root, OC_KP_BEST, &s, &r));
    CHECK_OK(oc_verify_kport(n, 1, m, root, &s, &v));
    if (!v.ok || v.time != b.lb || r.time != b.lb || r.alg != OC_KP_CIRCULANT)
      test_failf(__FILE__, __LINE__, "n=%lld m=%lld root %lld: %s, time %lld, bound %lld",
                 (long long)n, (long long)m, (long long)root, v.ok ? "valid" : v.detail,
                 (long long)v.time, (long long)b.lb);
    if (s.n > 1 && m > 1) { /* another item in one message: its receiver lacks one */
      size_t j = (size_t)test_range(0, (int64_t)s.n - 1);
      int64_t keep = s.msg[j].item;
      s.msg[j].item = (keep + 1) % m;
      CHECK_OK(oc_verify_kport(n, 1, m, root, &s, &v));
      CHECK(!v.ok);
      s.msg[j].item = keep;
    }
    if (s.n > 1) { /* a message dropped */
      s.n--;
      CHECK_OK(oc_verify_kport(n, 1, m, root, &s, &v));
      CHECK(!v.ok);
    }
    oc_sched_free(&s);
  }
  {
    oc_kport_result r;
    CHECK_EQ(oc_kport_plan(10, 2, 3, 0, OC_KP_CIRCULANT, NULL, &r), OC_EUNSUP);
  }
}
