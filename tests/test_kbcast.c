/* test_kbcast.c - broadcasting m items in the postal model (Bar-Noy &
 * Kipnis section 4): every algorithm verified, times against the lemmas,
 * the lower bounds, Theorem 7's bounds on F and f. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "oc_internal.h"
#include "test.h"

static void rand_postal(oc_params *p, int64_t maxn) {
  for (;;) {
    int64_t q = test_range(1, 4), num = test_range(q, 8 * q);
    if (oc_params_postal(p, test_range(1, maxn), num, q) == OC_OK) return;
  }
}

/* Random (n, m, lambda) with lambda rational: every algorithm's schedule
 * verifies; PACK and PIPELINE (both regimes) take exactly their lemma's
 * time; REPEAT at most Lemma 10's (equal when the root's last send is at
 * f(n) - lambda); DTREE at most Lemma 18's; BEST the fastest; all at least
 * the lower bound. */
void test_kbcast_random(void) {
  int rounds = test_sweep() ? 3000 : 400;
  int64_t repeat_eq = 0, repeat_all = 0, pl2 = 0;
  for (int i = 0; i < rounds; i++) {
    oc_params p;
    int64_t m = test_range(1, 12), root, lb, l8, k31, best = INT64_MAX, bestrun;
    rand_postal(&p, 120);
    root = test_range(0, p.P - 1);
    CHECK_OK(oc_kbcast_bound(&p, m, &lb, &l8, &k31));
    for (int a = OC_KB_REPEAT; a <= OC_KB_BEST; a++) {
      oc_sched s;
      oc_verdict v;
      oc_kbcast_result r;
      int64_t d = a == OC_KB_DTREE ? test_range(1, 6) : 0;
      oc_sched_init(&s);
      CHECK_OK(oc_kbcast_plan(&p, root, m, (oc_kbcast_alg)a, d, &s, &r));
      CHECK_OK(oc_verify_bcast(&p, root, m, &s, &v));
      if (!v.ok)
        test_failf(__FILE__, __LINE__, "%s n=%lld lambda=%lld/%lld m=%lld: %s",
                   oc_kbcast_alg_name((oc_kbcast_alg)a), (long long)p.P,
                   (long long)p.lam_num, (long long)p.lam_den, (long long)m, v.detail);
      CHECK_EQ(v.time, r.time);
      if (r.time < lb)
        test_failf(__FILE__, __LINE__, "%s n=%lld lambda=%lld/%lld m=%lld: time %lld < bound %lld (lemma 8 %lld, karp %lld)",
                   oc_kbcast_alg_name((oc_kbcast_alg)a), (long long)p.P, (long long)p.lam_num,
                   (long long)p.lam_den, (long long)m, (long long)r.time, (long long)lb,
                   (long long)l8, (long long)k31);
      if (p.P > 1) {
        switch (a) {
        case OC_KB_PACK: CHECK_EQ(r.time, r.formula); break;
        case OC_KB_PIPELINE:
          if (r.time != r.formula)
            test_failf(__FILE__, __LINE__, "pipeline n=%lld lambda=%lld/%lld m=%lld: %lld vs lemma %lld",
                       (long long)p.P, (long long)p.lam_num, (long long)p.lam_den,
                       (long long)m, (long long)r.time, (long long)r.formula);
          pl2 += m * p.g > p.L;
          break;
        case OC_KB_REPEAT:
          CHECK(r.time <= r.formula);
          repeat_eq += r.time == r.formula;
          repeat_all++;
          break;
        case OC_KB_DTREE: CHECK(r.time <= r.formula); break;
        default: break;
        }
      }
      if (a != OC_KB_BEST && r.time < best) best = r.time;
      if (a == OC_KB_BEST) {
        bestrun = r.time;
        CHECK(bestrun <= best);
      }
      oc_sched_free(&s);
    }
  }
  fprintf(stderr, "  kbcast: REPEAT met Lemma 10 exactly in %lld of %lld; %lld PIPELINE-2 cases\n",
          (long long)repeat_eq, (long long)repeat_all, (long long)pl2);
}

/* Lower bounds: Lemma 8 = (m - 1) + f_lambda(n); Karp Thm 3.1 on Karp's
 * Fig. 2 instance (P = 10, L = 3, k = 8): B(9) = 7, k* = 2, bound 15. */
void test_kbcast_bounds(void) {
  oc_params p;
  int64_t lb, l8, k31;
  CHECK_OK(oc_params_postal(&p, 10, 3, 1));
  CHECK_OK(oc_kbcast_bound(&p, 8, &lb, &l8, &k31));
  CHECK_EQ(k31, 15);
  CHECK_EQ(l8, 7 + 8); /* F_3: 1,1,1,2,3,4,6,9,13: f_3(10) = 8 */
  CHECK_EQ(lb, 15);
  CHECK_OK(oc_params_postal(&p, 14, 5, 2));
  CHECK_OK(oc_kbcast_bound(&p, 4, &lb, &l8, &k31));
  CHECK_EQ(l8, 3 * 2 + 15); /* (m-1) + 7.5, in halves */
  CHECK_EQ(k31, -1);        /* Thm 3.1 is for integer L */
  for (int i = 0; i < 500; i++) { /* every plan respects both bounds */
    oc_kbcast_result r;
    int64_t m = test_range(1, 20);
    CHECK_OK(oc_params_postal(&p, test_range(2, 200), test_range(1, 6), 1));
    CHECK_OK(oc_kbcast_bound(&p, m, &lb, &l8, &k31));
    CHECK_OK(oc_kbcast_plan(&p, 0, m, OC_KB_BEST, 0, NULL, &r));
    if (r.time < l8 || r.time < k31)
      test_failf(__FILE__, __LINE__, "n=%lld L=%lld m=%lld: %s %lld, bounds %lld %lld",
                 (long long)p.P, (long long)p.L, (long long)m, oc_kbcast_alg_name(r.alg),
                 (long long)r.time, (long long)l8, (long long)k31);
  }
}

/* Bar-Noy & Kipnis Thm 7 (1), (2) over lambda = num/den and n, t. */
void test_kbcast_theorem7(void) {
  int rounds = test_sweep() ? 20000 : 3000;
  for (int i = 0; i < rounds; i++) {
    int64_t den = test_range(1, 5), num = test_range(den, 12 * den), c, T, e1, e2;
    int64_t n = test_range(1, 1000000);
    oc_params p;
    int64_t F, B, lo = 1, hi = 1;
    CHECK_OK(oc_params_postal(&p, n, num, den));
    num = p.lam_num; /* reduced: times are in units of 1/den */
    den = p.lam_den;
    c = (num + den - 1) / den + 1; /* ceil(lambda) + 1 */
    T = test_range(0, 40 * num);
    e1 = T / (2 * num);
    e2 = T / num;
    F = oc_reach_count(&p, T); /* F_lambda(T/den) */
    for (int64_t k = 0; k < e1 && lo < INT64_MAX / c; k++) lo *= c;
    for (int64_t k = 0; k < e2 && hi < INT64_MAX / c; k++) hi *= c;
    CHECK(lo <= F);
    CHECK(F <= hi || hi >= INT64_MAX / c);
    CHECK_OK(oc_bcast_time(&p, &B));
    {
      long double lam = (long double)num / den, f = (long double)B / den;
      long double base = log2l((long double)c), lg = log2l((long double)n);
      CHECK(f * base >= lam * lg - 1e-9L);
      CHECK(f <= 2 * lam + 2 * lam * lg / base + 1e-9L);
    }
  }
}

/* A PACK receiver may forward only once the whole long message is in; the
 * packet-by-packet schedule of the same tree is another matter. */
void test_kbcast_pack_long_messages(void) {
  oc_params p;
  oc_sched s;
  oc_verdict v;
  oc_kbcast_result r;
  CHECK_OK(oc_params_postal(&p, 14, 5, 2));
  oc_sched_init(&s);
  CHECK_OK(oc_kbcast_plan(&p, 0, 4, OC_KB_PACK, 0, &s, &r));
  CHECK(s.len != NULL);
  CHECK_OK(oc_verify_bcast(&p, 0, 4, &s, &v));
  CHECK(v.ok);
  for (size_t i = 0; i < s.n; i++) { /* a forwarding long message one unit early */
    if (s.msg[i].src != 0) {
      s.msg[i].t -= 1;
      CHECK_OK(oc_verify_bcast(&p, 0, 4, &s, &v));
      CHECK(!v.ok);
      CHECK_EQ(v.rule, OC_RULE_HELD);
      s.msg[i].t += 1;
      break;
    }
  }
  /* the root's long messages overlap when spaced less than m*g */
  {
    size_t a = (size_t)-1, b = (size_t)-1;
    for (size_t i = 0; i < s.n; i++)
      if (s.msg[i].src == 0) { if (a == (size_t)-1) a = i; else if (b == (size_t)-1) b = i; }
    CHECK(b != (size_t)-1);
    s.msg[b].t = s.msg[a].t + 1;
    CHECK_OK(oc_verify_bcast(&p, 0, 4, &s, &v));
    CHECK(!v.ok);
  }
  oc_sched_free(&s);
}
