/* test_mbexact.c - the exact optimum of the m-item LogP broadcast on tiny
 * instances (tests/brute_mbcast.c), its witnesses through the verifier,
 * the search against itself and against a plain enumeration judged by the
 * verifier alone, and two lower bounds against the optimum.
 *
 * Default: the ten parameter sets below, P = 2..5, m = 1..3.  With
 * OPTCAST_SWEEP: P = 2..6, m = 1..4, and nine more parameter sets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute_mbcast.h"
#include "test.h"

/* (L, o, g); o > g: (1,2,1) (0,3,2); 2o > g: (0,1,1) (2,1,1) (2,2,3) ... */
static const int64_t SETS[][3] = {
    {1, 0, 1}, {2, 0, 1}, {0, 1, 1}, {1, 1, 2}, {3, 1, 2},
    {2, 1, 1}, {1, 2, 1}, {4, 1, 3}, {2, 2, 3}, {0, 3, 2},
    /* sweep only: the rest of verify_exhaustive_small's sets, then more
     * with o > g or 2o > g */
    {0, 2, 3}, {1, 0, 3}, {2, 1, 5}, {4, 0, 2},
    {0, 2, 1}, {1, 3, 1}, {2, 3, 4}, {5, 1, 1}, {3, 2, 1},
};
#define NSETS_DEFAULT 10

static size_t nsets(void) {
  return test_sweep() ? sizeof SETS / sizeof SETS[0] : NSETS_DEFAULT;
}
static int64_t max_P(void) { return test_sweep() ? 6 : 5; }
static int64_t max_m(void) { return test_sweep() ? 4 : 3; }

static int64_t gmax(int64_t g, int64_t o) { return g > o ? g : o; }

static int64_t opt_of(int64_t L, int64_t o, int64_t g, int64_t P, int64_t m,
                      oc_sched *w) {
  int64_t opt = brute_mbcast_opt(L, o, g, P, m, w);
  if (opt < 0)
    test_failf(__FILE__, __LINE__, "search failed (%lld): P=%lld m=%lld L=%lld o=%lld g=%lld",
               (long long)opt, (long long)P, (long long)m, (long long)L, (long long)o,
               (long long)g);
  return opt;
}

/* ---- an enumeration judged by the verifier alone ------------------------
 * Every schedule in which each non-root processor receives each item once,
 * from any other processor, with a send start in 0..T-L-2o (the reduction
 * "each pair received once" is argued in brute_mbcast.c; nothing else of
 * the search is assumed): 1 when the verifier accepts one completing by
 * T.  ((P-1)(T-L-2o+1))^(m(P-1)) schedules: tiny instances only. */
typedef struct enum_ctx {
  oc_params p;
  int64_t m, T, smax;
  oc_sched s;
  int64_t tried;
} enum_ctx;

static int enum_rec(enum_ctx *c, size_t k) {
  if (k == c->s.n) {
    oc_verdict v;
    c->tried++;
    CHECK_OK(oc_verify_bcast(&c->p, 0, c->m, &c->s, &v));
    return v.ok && v.time <= c->T;
  }
  for (int64_t src = 0; src < c->p.P; src++) {
    if (src == c->s.msg[k].dst) continue;
    c->s.msg[k].src = src;
    for (int64_t t = 0; t <= c->smax; t++) {
      c->s.msg[k].t = t;
      if (enum_rec(c, k + 1)) return 1;
    }
  }
  return 0;
}

/* the number of schedules enum_faster would try, saturated at cap */
static int64_t enum_size(int64_t P, int64_t m, int64_t slots, int64_t cap) {
  int64_t n = 1;
  for (int64_t k = 0; k < m * (P - 1); k++) {
    n *= (P - 1) * slots;
    if (n > cap) return cap + 1;
  }
  return n;
}

static int enum_faster(int64_t L, int64_t o, int64_t g, int64_t P, int64_t m,
                       int64_t T, int64_t *tried) {
  enum_ctx c;
  int r;
  CHECK_OK(oc_params_logp(&c.p, P, L, o, g));
  c.m = m;
  c.T = T;
  c.smax = T - L - 2 * o;
  c.tried = 0;
  oc_sched_init(&c.s);
  for (int64_t q = 1; q < P; q++)
    for (int64_t i = 0; i < m; i++) CHECK_OK(oc_sched_push(&c.s, 0, 0, q, i));
  r = c.smax >= 0 && enum_rec(&c, 0);
  oc_sched_free(&c.s);
  *tried += c.tried;
  return r;
}

/* ---- witnesses ------------------------------------------------------------- */

static void check_witness(int64_t L, int64_t o, int64_t g, int64_t P, int64_t m,
                          int64_t opt, const oc_sched *w) {
  oc_params p;
  oc_verdict v;
  oc_sched x;
  CHECK_OK(oc_params_logp(&p, P, L, o, g));
  CHECK_OK(oc_verify_bcast(&p, 0, m, w, &v));
  if (!v.ok || v.time != opt)
    test_failf(__FILE__, __LINE__,
               "witness P=%lld m=%lld L=%lld o=%lld g=%lld: ok=%d time=%lld opt=%lld %s",
               (long long)P, (long long)m, (long long)L, (long long)o, (long long)g, v.ok,
               (long long)v.time, (long long)opt, v.detail);
  CHECK_EQ(w->n, m * (P - 1)); /* each pair once */
  /* mutants: one message earlier by 1; one dropped; then random ones
   * (several messages earlier, a message from another sender) - none is a
   * valid schedule faster than the optimum */
  oc_sched_init(&x);
  for (size_t j = 0; j < 2 * w->n + 200; j++) {
    x.n = 0;
    for (size_t k = 0; k < w->n; k++)
      CHECK_OK(oc_sched_push(&x, w->msg[k].t, w->msg[k].src, w->msg[k].dst, w->msg[k].item));
    if (j < w->n) {
      if (x.msg[j].t == 0) continue;
      x.msg[j].t--;
    } else if (j < 2 * w->n) {
      x.msg[j - w->n] = x.msg[--x.n];
    } else {
      int64_t k = test_range(1, 3);
      while (k-- > 0) {
        oc_msg *a = &x.msg[test_range(0, (int64_t)x.n - 1)];
        if (test_range(0, 2) == 0) {
          int64_t src = test_range(0, P - 1);
          if (src != a->dst) a->src = src;
        } else {
          a->t -= test_range(1, 2);
          if (a->t < 0) a->t = 0;
        }
      }
    }
    CHECK_OK(oc_verify_bcast(&p, 0, m, &x, &v));
    if (v.ok && v.time < opt)
      test_failf(__FILE__, __LINE__,
                 "mutant %zu of the witness is valid and faster: P=%lld m=%lld L=%lld o=%lld "
                 "g=%lld time %lld < %lld",
                 j, (long long)P, (long long)m, (long long)L, (long long)o, (long long)g,
                 (long long)v.time, (long long)opt);
  }
  oc_sched_free(&x);
}

/* The witness of every instance is valid and takes exactly the optimum;
 * no mutant of it is valid and faster; m = 1 gives B(P); the search with
 * its reductions switched off gives the same optimum; a plain enumeration
 * judged by the verifier finds nothing faster on the tiniest instances. */
void test_mbcast_exact_witness(void) {
  int64_t cross = 0, skipped = 0, enums = 0, multi = 0, found = 0, tried = 0;
  int64_t enum_cap = test_valgrind() ? 20000 : test_sweep() ? 4000000 : 400000;
  int64_t budget = test_valgrind() ? 100000 : test_sweep() ? 10000000 : 2000000;
  for (size_t si = 0; si < nsets(); si++) {
    int64_t L = SETS[si][0], o = SETS[si][1], g = SETS[si][2];
    for (int64_t P = 2; P <= max_P(); P++)
      for (int64_t m = 1; m <= max_m(); m++) {
        oc_sched w;
        int64_t opt;
        oc_sched_init(&w);
        opt = opt_of(L, o, g, P, m, &w);
        check_witness(L, o, g, P, m, opt, &w);
        oc_sched_free(&w);
        if (m == 1) {
          oc_params p;
          int64_t B;
          CHECK_OK(oc_params_logp(&p, P, L, o, g));
          CHECK_OK(oc_bcast_time(&p, &B));
          if (opt != B)
            test_failf(__FILE__, __LINE__, "m=1: opt %lld != B(P) %lld (P=%lld L=%lld o=%lld g=%lld)",
                       (long long)opt, (long long)B, (long long)P, (long long)L,
                       (long long)o, (long long)g);
        }
        /* the reductions, off: plain; MEMO and SYM alone; PRUNE alone; each
         * within a node budget (a search that runs out proves nothing and is
         * counted as skipped) */
        {
          static const int flag_sets[] = {0, BRUTE_MB_MEMO | BRUTE_MB_SYM, BRUTE_MB_PRUNE};
          for (size_t f = 0; f < sizeof flag_sets / sizeof flag_sets[0]; f++) {
            int64_t nodes, other = brute_mbcast_search(L, o, g, P, m, flag_sets[f], budget,
                                                       NULL, &nodes);
            if (other == -3) {
              skipped++;
              continue;
            }
            if (other != opt)
              test_failf(__FILE__, __LINE__,
                         "flags %d: %lld != %lld (P=%lld m=%lld L=%lld o=%lld g=%lld)",
                         flag_sets[f], (long long)other, (long long)opt, (long long)P,
                         (long long)m, (long long)L, (long long)o, (long long)g);
            cross++;
          }
        }
        /* nothing faster by plain enumeration, where it is small; and, so
         * that it is not vacuous, the enumeration finds the optimum */
        if (opt > L + 2 * o && enum_size(P, m, opt - L - 2 * o, enum_cap) <= enum_cap) {
          if (enum_faster(L, o, g, P, m, opt - 1, &tried))
            test_failf(__FILE__, __LINE__,
                       "enumeration found a schedule faster than %lld (P=%lld m=%lld L=%lld "
                       "o=%lld g=%lld)",
                       (long long)opt, (long long)P, (long long)m, (long long)L,
                       (long long)o, (long long)g);
          enums++;
          multi += m > 1;
          if (enum_size(P, m, opt - L - 2 * o + 1, enum_cap) <= enum_cap) {
            CHECK(enum_faster(L, o, g, P, m, opt, &tried));
            found++;
          }
        }
      }
  }
  printf("  m-item exact: %lld cross-checks of the reductions agree (%lld over the node "
         "budget); nothing faster by enumeration on %lld instances (%lld with m > 1), the "
         "optimum found by it on %lld (%lld schedules through the verifier)\n",
         (long long)cross, (long long)skipped, (long long)enums, (long long)multi,
         (long long)found, (long long)tried);
  CHECK(multi >= 10);
  CHECK(found >= 10);
}

/* ---- lower bounds ----------------------------------------------------------- */

/* LB2: non-root processors are busy only within [L+o, T]; they pay o per
 * reception (m(P-1)) and o per send they make, at least m(P-1) - R of
 * them, R the root's sends by T - L - 2o (G apart). */
static int64_t lb2_of(int64_t L, int64_t o, int64_t g, int64_t P, int64_t m) {
  int64_t G = gmax(g, o), need = m * (P - 1);
  for (int64_t T = L + 2 * o;; T++) {
    int64_t R = (T - L - 2 * o) / G + 1;
    if (R > need) R = need;
    if ((P - 1) * (T - L - o) >= o * (2 * need - R)) return T;
  }
}

/* The optimum against LB1 = B(P) + (m-1)G and LB2; prints the table. */
void test_mbcast_exact_bounds(void) {
  int rows = 0, gaps = 0, above = 0;
  int64_t worst = 0;
  printf("  %2s %2s %2s %2s %2s %4s %4s %4s %5s %5s  %s\n", "P", "m", "L", "o", "g", "opt", "LB1",
         "LB2", "bound", "plan", "tight");
  for (size_t si = 0; si < nsets(); si++) {
    int64_t L = SETS[si][0], o = SETS[si][1], g = SETS[si][2];
    for (int64_t P = 2; P <= max_P(); P++)
      for (int64_t m = 1; m <= max_m(); m++) {
        oc_params p;
        oc_mbcast_info info;
        int64_t B, lb1, lb2, opt = opt_of(L, o, g, P, m, NULL), lb, libb;
        char tight[32];
        CHECK_OK(oc_params_logp(&p, P, L, o, g));
        CHECK_OK(oc_bcast_time(&p, &B));
        /* the library's bound (oc_mbcast_bound: LB1 and the overhead bound
         * with the universal tree's labels) and the planner's choice */
        CHECK_OK(oc_mbcast_bound(&p, m, &libb, NULL));
        CHECK_OK(oc_mbcast_plan(&p, 0, m, OC_MB_BEST, NULL, &info));
        lb1 = B + (m - 1) * gmax(g, o);
        lb2 = lb2_of(L, o, g, P, m);
        lb = lb1 > lb2 ? lb1 : lb2;
        if (libb > lb) lb = libb;
        if (opt == lb) snprintf(tight, sizeof tight, "bound tight");
        else snprintf(tight, sizeof tight, "gap %lld", (long long)(opt - lb));
        printf("  %2lld %2lld %2lld %2lld %2lld %4lld %4lld %4lld %5lld %5lld  %s%s\n", (long long)P,
               (long long)m, (long long)L, (long long)o, (long long)g, (long long)opt,
               (long long)lb1, (long long)lb2, (long long)libb, (long long)info.time, tight,
               info.time > opt ? "; planner above" : "");
        if (opt < lb1 || opt < lb2 || opt < libb)
          test_failf(__FILE__, __LINE__,
                     "optimum below a lower bound: P=%lld m=%lld L=%lld o=%lld g=%lld opt=%lld "
                     "LB1=%lld LB2=%lld library %lld",
                     (long long)P, (long long)m, (long long)L, (long long)o, (long long)g,
                     (long long)opt, (long long)lb1, (long long)lb2, (long long)libb);
        if (info.time < opt)
          test_failf(__FILE__, __LINE__,
                     "the planner beats the exact optimum: P=%lld m=%lld L=%lld o=%lld g=%lld "
                     "opt=%lld plan=%lld (%s)",
                     (long long)P, (long long)m, (long long)L, (long long)o, (long long)g,
                     (long long)opt, (long long)info.time, oc_mbcast_alg_name(info.alg));
        gaps += opt > lb;
        above += info.time > opt;
        if (info.time - opt > worst) worst = info.time - opt;
        rows++;
      }
  }
  printf("  %d instances: %d with the optimum above the library's bound, the planner above the "
         "optimum in %d (by at most %lld)\n", rows, gaps, above, (long long)worst);
}
