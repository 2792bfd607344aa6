/* test_libcoll.c - the MPI library broadcast algorithms (oc_libcoll.c): every
 * schedule passes the verifier, times match the stated formulas, optcast's
 * optimal tree is never slower for one item, the selection tables at their
 * edges. */
#include <stdlib.h>
#include <string.h>

#include "core/oc_core.h"
#include "test.h"

/* every algorithm (k-nomial with k = 3, 4, 8; segmented ones with a random
 * segment), as the compare command lists them */
static int all_specs(oc_libcoll_spec *s, int64_t m) {
  int n = 0;
  for (int a = 0; a < OC_LC_COUNT; a++) {
    if (a == OC_LC_KNOMIAL) {
      static const int64_t ks[] = {3, 4, 8};
      for (int i = 0; i < 3; i++) s[n++] = (oc_libcoll_spec){OC_LC_KNOMIAL, 0, ks[i]};
      continue;
    }
    s[n++] = (oc_libcoll_spec){(oc_libcoll_alg)a, 0, 2};
    if (a == OC_LC_PIPELINE || a == OC_LC_BINARY || a == OC_LC_SPLIT_BINARY ||
        a == OC_LC_BINOMIAL)
      s[n++] = (oc_libcoll_spec){(oc_libcoll_alg)a, test_range(1, m), 2};
  }
  return n;
}

void test_rand_logp(oc_params *p, int64_t maxP) {
  for (;;) {
    int64_t L = test_range(0, 12), o = test_range(0, 6), g = test_range(1, 8);
    if (test_range(0, 9) == 0) L = test_range(0, 200);
    if (oc_params_logp(p, test_range(1, maxP), L, o, g) == OC_OK) return;
  }
}

static int64_t ilog2(int64_t P) {
  int64_t k = 0;
  while (((int64_t)1 << k) < P) k++;
  return k;
}

/* Random (P <= 300, m <= 16, root, L, o, g): every library algorithm and
 * both optcast rows verify, with the simulator's time; none beats the lower
 * bound; for m = 1 none beats optcast's optimal tree. */
void test_libcoll_random(void) {
  int rounds = test_sweep() ? 20000 : 2500;
  for (int it = 0; it < rounds; it++) {
    oc_params p;
    oc_libcoll_spec sp[24];
    int64_t m, root, lb, B;
    int n;
    test_rand_logp(&p, it % 10 == 0 ? 300 : 40);
    m = test_range(1, it % 3 == 0 ? 16 : 4);
    root = test_range(0, p.P - 1);
    n = all_specs(sp, m);
    CHECK_OK(oc_libcoll_lower_bound(&p, m, &lb));
    CHECK_OK(oc_bcast_time(&p, &B));
    for (int i = 0; i < n + 2; i++) {
      oc_sched s;
      oc_verdict v;
      int64_t t = -1;
      const char *name = i < n ? oc_libcoll_alg_name(sp[i].alg)
                               : (i == n ? "tree-pipelined" : "tree-long");
      oc_sched_init(&s);
      if (i < n) CHECK_OK(oc_libcoll_bcast(&p, root, m, &sp[i], &s, &t));
      else if (i == n) CHECK_OK(oc_libcoll_tree_pipelined(&p, root, m, &s, &t));
      else CHECK_OK(oc_libcoll_tree_long(&p, root, m, &s, &t));
      CHECK_OK(oc_verify_bcast(&p, root, m, &s, &v));
      if (!v.ok || v.time != t)
        test_failf(__FILE__, __LINE__,
                   "%s seg=%lld k=%lld P=%lld m=%lld root=%lld L=%lld o=%lld g=%lld: "
                   "ok=%d time %lld vs %lld: %s",
                   name, (long long)(i < n ? sp[i].seg : 0), (long long)(i < n ? sp[i].radix : 0),
                   (long long)p.P, (long long)m, (long long)root, (long long)p.L,
                   (long long)p.o, (long long)p.g, v.ok, (long long)v.time, (long long)t,
                   v.detail);
      if (t < lb) test_failf(__FILE__, __LINE__, "%s below the bound", name);
      if (m == 1 && t < B)
        test_failf(__FILE__, __LINE__, "%s P=%lld L=%lld o=%lld g=%lld: %lld beats B(P) = %lld",
                   name, (long long)p.P, (long long)p.L, (long long)p.o, (long long)p.g,
                   (long long)t, (long long)B);
      oc_sched_free(&s);
    }
  }
}

/* Exact formulas, h = L + 2o, G = max(g, o), P >= 2:
 *   linear:   h + ((P-1) m - 1) G
 *   chain:    (P-1)(h + (m-1) G)
 *   binomial, P = 2^k: H + (k-1) max(H, m G) with H = h + (m-1) G
 *   k-nomial, m = 1, P = k^j: j (h + (k-2) G)... when h >= G:
 *             each level costs h + (k-2) G for the last child (largest
 *             subtree first, so the critical path always takes child k-1
 *             of the top digit); checked for h >= (k-1) G where the
 *             first-sent subtree does not dominate.
 *   optcast tree-long: B(P) for L + (m-1) G, o, m G. */
void test_libcoll_formulas(void) {
  int rounds = test_valgrind() ? 150 : 600;
  for (int it = 0; it < rounds; it++) {
    oc_params p;
    oc_libcoll_spec s = {OC_LC_LINEAR, 0, 2};
    int64_t m = test_range(1, 8), t, h, G;
    test_rand_logp(&p, 64);
    if (p.P < 2) continue;
    h = p.L + 2 * p.o;
    G = oc_max64(p.g, p.o);
    CHECK_OK(oc_libcoll_bcast(&p, 0, m, &s, NULL, &t));
    CHECK_EQ(t, h + ((p.P - 1) * m - 1) * G);
    s.alg = OC_LC_CHAIN;
    CHECK_OK(oc_libcoll_bcast(&p, test_range(0, p.P - 1), m, &s, NULL, &t));
    CHECK_EQ(t, (p.P - 1) * (h + (m - 1) * G));
    {
      int64_t k = ilog2(p.P), H = h + (m - 1) * G;
      oc_params q;
      CHECK_OK(oc_params_logp(&q, (int64_t)1 << k, p.L, p.o, p.g));
      s.alg = OC_LC_BINOMIAL;
      CHECK_OK(oc_libcoll_bcast(&q, 0, m, &s, NULL, &t));
      CHECK_EQ(t, H + (k - 1) * oc_max64(H, m * G));
    }
    {
      oc_params q;
      int64_t tl;
      CHECK_OK(oc_params_logp(&q, p.P, p.L + (m - 1) * G, p.o, m * G));
      CHECK_OK(oc_bcast_time(&q, &t));
      CHECK_OK(oc_libcoll_tree_long(&p, 0, m, NULL, &tl));
      CHECK_EQ(tl, t);
    }
  }
  /* message counts (g >= o: one message per edge): scatter + ring sends
   * P nc - 1 messages (the scatter's nc - 1 edges, then every one of the nc
   * chunks that hold data passes P - 1 ranks), nc = ceil(m / ceil(m/P)) */
  for (int it = 0; it < 300; it++) {
    oc_params p;
    oc_libcoll_spec s = {OC_LC_SCATTER_RING, 0, 2};
    oc_sched x;
    int64_t P = test_range(1, 700), m = test_range(1, it % 2 ? 16 : 2000), t, ss, nc;
    if (P * m > OC_LIBCOLL_MAX) continue;
    ss = (m + P - 1) / P;
    nc = (m + ss - 1) / ss;
    CHECK_OK(oc_params_logp(&p, P, 5, 1, 3));
    oc_sched_init(&x);
    CHECK_OK(oc_libcoll_bcast(&p, test_range(0, P - 1), m, &s, &x, &t));
    CHECK_EQ(x.n, P * nc - 1);
    oc_sched_free(&x);
  }
  /* k-nomial, m = 1, P = k^j, h >= (k-1) G: j (h + (k-2) G) */
  for (int64_t k = 3; k <= 8; k++)
    for (int64_t j = 1; j <= 3; j++) {
      oc_params p;
      oc_libcoll_spec s = {OC_LC_KNOMIAL, 0, k};
      int64_t P = 1, t;
      for (int64_t x = 0; x < j; x++) P *= k;
      if (P > 600) continue;
      CHECK_OK(oc_params_logp(&p, P, 6 * k, 1, 2)); /* h = 6k + 2 >= (k-1) 2 */
      CHECK_OK(oc_libcoll_bcast(&p, 1, 1, &s, NULL, &t));
      CHECK_EQ(t, j * (p.L + 2 * p.o + (k - 2) * 2));
    }
}

/* Hand-checked: binomial, P = 8, L = 6, o = 2, g = 4 (h = 10, G = 4).
 * The root sends to 4 at 0, to 2 at 4, to 1 at 8 (usable at 10, 14, 18);
 * 4 sends to 6 at 10 and to 5 at 14 (usable 20, 24); 2 to 3 at 14 (24);
 * 6 to 7 at 20 (30).  Time 30, vs optcast's B(8) = 24. */
void test_libcoll_hand(void) {
  oc_params p;
  oc_libcoll_spec s = {OC_LC_BINOMIAL, 0, 2};
  oc_sched x;
  oc_verdict v;
  int64_t t;
  static const int64_t want[][3] = {{0, 0, 4}, {4, 0, 2}, {8, 0, 1}, {10, 4, 6},
                                    {14, 2, 3}, {14, 4, 5}, {20, 6, 7}};
  CHECK_OK(oc_params_logp(&p, 8, 6, 2, 4));
  oc_sched_init(&x);
  CHECK_OK(oc_libcoll_bcast(&p, 0, 1, &s, &x, &t));
  CHECK_EQ(t, 30);
  oc_sched_sort(&x);
  CHECK_EQ(x.n, 7);
  for (size_t i = 0; i < x.n && i < 7; i++) {
    CHECK_EQ(x.msg[i].t, want[i][0]);
    CHECK_EQ(x.msg[i].src, want[i][1]);
    CHECK_EQ(x.msg[i].dst, want[i][2]);
  }
  CHECK_OK(oc_verify_bcast(&p, 0, 1, &x, &v));
  CHECK(v.ok);
  CHECK_EQ(v.time, 30);
  oc_sched_free(&x);
  /* linear, P = 4, m = 2: root sends 2 packets to 1, 2, 3 at 0, 8, 16;
   * the last usable at 16 + 10 + 4 = 30 = h + (3*2 - 1) G */
  s.alg = OC_LC_LINEAR;
  CHECK_OK(oc_params_logp(&p, 4, 6, 2, 4));
  CHECK_OK(oc_libcoll_bcast(&p, 0, 2, &s, NULL, &t));
  CHECK_EQ(t, 30);
  /* pipelined chain, P = 3, m = 2, seg = 1, L=6 o=2 g=4: 0 sends item 0 at
   * 0 and item 1 at 4; 1 has item 0 at 10, sends it at 10 (its reception
   * of item 1 runs [12, 14), its send [10, 12): no overlap); item 1 usable
   * at 14, sent at 14; 2 has item 1 at 24. */
  s.alg = OC_LC_PIPELINE;
  s.seg = 1;
  CHECK_OK(oc_params_logp(&p, 3, 6, 2, 4));
  CHECK_OK(oc_libcoll_bcast(&p, 0, 2, &s, NULL, &t));
  CHECK_EQ(t, 24);
  { /* Open MPI's bmtree against MPICH's binomial: the same time when P is a
     * power of two (mirror images), not otherwise.  P = 5, L = 2, o = 0,
     * g = 1 (h = 2): bmtree: 0 -> 1, 2, 4 at 0, 1, 2; 1 (usable at 2) ->
     * 3 at 2, usable at 4; 4 usable at 4: time 4.  MPICH's: 0 -> 4, 2, 1
     * at 0, 1, 2; 2 (usable at 3) -> 3 at 3, usable at 5: time 5. */
    oc_params q;
    oc_sched sch;
    oc_libcoll_spec bm = {OC_LC_BMTREE, 0, 2}, bi = {OC_LC_BINOMIAL, 0, 2};
    int64_t tb, ti;
    CHECK_OK(oc_params_logp(&q, 5, 2, 0, 1));
    CHECK_OK(oc_libcoll_bcast(&q, 0, 1, &bm, NULL, &tb));
    CHECK_OK(oc_libcoll_bcast(&q, 0, 1, &bi, NULL, &ti));
    CHECK_EQ(tb, 4);
    CHECK_EQ(ti, 5);
    for (int64_t P = 2; P <= 256; P *= 2) {
      CHECK_OK(oc_params_logp(&q, P, 6, 2, 4));
      oc_sched_init(&sch);
      CHECK_OK(oc_libcoll_bcast(&q, 0, 3, &bm, &sch, &tb));
      oc_sched_free(&sch);
      CHECK_OK(oc_libcoll_bcast(&q, 0, 3, &bi, NULL, &ti));
      CHECK_EQ(tb, ti);
    }
  }
}

/* The selection tables at their edges. */
void test_libcoll_select(void) {
  oc_libcoll_spec s;
  static const struct {
    int rule;
    int64_t P, bytes;
    oc_libcoll_alg alg;
    int64_t radix;
  } cases[] = {
      /* MPICH: short < 12288 bytes or P < 8: binomial */
      {OC_LC_RULE_MPICH, 64, 12287, OC_LC_BINOMIAL, 2},
      {OC_LC_RULE_MPICH, 64, 12288, OC_LC_SCATTER_RD, 2},
      {OC_LC_RULE_MPICH, 7, 1 << 20, OC_LC_BINOMIAL, 2},
      {OC_LC_RULE_MPICH, 8, 12288, OC_LC_SCATTER_RD, 2},
      {OC_LC_RULE_MPICH, 64, 524287, OC_LC_SCATTER_RD, 2},
      {OC_LC_RULE_MPICH, 64, 524288, OC_LC_SCATTER_RING, 2},
      {OC_LC_RULE_MPICH, 63, 12288, OC_LC_SCATTER_RING, 2},
      {OC_LC_RULE_MPICH, 12, 100000, OC_LC_SCATTER_RING, 2},
      /* Open MPI 4.1 */
      {OC_LC_RULE_OMPI, 2, 31, OC_LC_PIPELINE, 4},
      {OC_LC_RULE_OMPI, 3, 32, OC_LC_BINARY, 4},
      {OC_LC_RULE_OMPI, 3, 1048576, OC_LC_BINARY, 4},
      {OC_LC_RULE_OMPI, 4, 63, OC_LC_BINARY, 4},
      {OC_LC_RULE_OMPI, 7, 1048576, OC_LC_CHAIN, 4},
      {OC_LC_RULE_OMPI, 8, 7, OC_LC_KNOMIAL, 4},
      {OC_LC_RULE_OMPI, 15, 32768, OC_LC_LINEAR, 4},
      {OC_LC_RULE_OMPI, 16, 4095, OC_LC_KNOMIAL, 4},
      {OC_LC_RULE_OMPI, 31, 1048576, OC_LC_SCATTER_RD, 4},
      {OC_LC_RULE_OMPI, 32, 2047, OC_LC_BMTREE, 4},
      {OC_LC_RULE_OMPI, 64, 1, OC_LC_KNOMIAL, 4},
      {OC_LC_RULE_OMPI, 128, 1, OC_LC_BMTREE, 4},
      {OC_LC_RULE_OMPI, 255, 2, OC_LC_BINARY, 4},
      {OC_LC_RULE_OMPI, 512, 16384, OC_LC_SPLIT_BINARY, 4},
      {OC_LC_RULE_OMPI, 1023, 32768, OC_LC_KNOMIAL, 4},
      {OC_LC_RULE_OMPI, 1024, 524287, OC_LC_KNOMIAL, 4},
      {OC_LC_RULE_OMPI, 2047, 524288, OC_LC_SCATTER_RD, 4},
      {OC_LC_RULE_OMPI, 2048, 262144, OC_LC_SCATTER_RD, 4},
      {OC_LC_RULE_OMPI, 4096, 8191, OC_LC_KNOMIAL, 4},
      {OC_LC_RULE_OMPI, 4096, 8192, OC_LC_BINARY, 4},
      {OC_LC_RULE_OMPI, 4096, 16384, OC_LC_KNOMIAL, 4},
      {OC_LC_RULE_OMPI, 100000, 262144, OC_LC_SCATTER_RD, 4},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    CHECK_OK(oc_libcoll_select((oc_libcoll_rule)cases[i].rule, cases[i].P, cases[i].bytes, &s));
    if (s.alg != cases[i].alg)
      test_failf(__FILE__, __LINE__, "case %zu: %s P=%lld bytes=%lld: got %s, want %s", i,
                 oc_libcoll_rule_name((oc_libcoll_rule)cases[i].rule), (long long)cases[i].P,
                 (long long)cases[i].bytes, oc_libcoll_alg_name(s.alg),
                 oc_libcoll_alg_name(cases[i].alg));
    if (s.alg == OC_LC_KNOMIAL) CHECK_EQ(s.radix, cases[i].radix);
    CHECK_EQ(s.seg, 0);
  }
  CHECK_EQ(oc_libcoll_select(OC_LC_RULE_OMPI, 0, 1, &s), OC_EINVAL);
  CHECK_EQ(oc_libcoll_select(OC_LC_RULE_MPICH, 4, -1, &s), OC_EINVAL);
}

/* Bad arguments and limits. */
void test_libcoll_limits(void) {
  oc_params p;
  oc_libcoll_spec s = {OC_LC_KNOMIAL, 0, 1};
  int64_t t;
  CHECK_OK(oc_params_logp(&p, 16, 6, 2, 4));
  CHECK_EQ(oc_libcoll_bcast(&p, 0, 1, &s, NULL, &t), OC_EINVAL); /* radix 1 */
  s.radix = 4;
  CHECK_EQ(oc_libcoll_bcast(&p, 16, 1, &s, NULL, &t), OC_EINVAL); /* root */
  CHECK_EQ(oc_libcoll_bcast(&p, 0, 0, &s, NULL, &t), OC_EINVAL);  /* m */
  CHECK_EQ(oc_libcoll_bcast(&p, 0, OC_LIBCOLL_MAX, &s, NULL, &t), OC_ERANGE);
  CHECK_OK(oc_params_logp(&p, 4, 6, 2, OC_PARAM_MAX));
  CHECK_EQ(oc_libcoll_tree_long(&p, 0, 2, NULL, &t), OC_ERANGE);
  CHECK_OK(oc_params_logp(&p, (int64_t)1 << 40, 6, 2, 4));
  CHECK_EQ(oc_libcoll_bcast(&p, 0, 1, &s, NULL, &t), OC_ERANGE);
  { /* large parameters: no wrap, verified */
    oc_sched x;
    oc_verdict v;
    CHECK_OK(oc_params_logp(&p, 100, OC_PARAM_MAX, OC_PARAM_MAX / 2, OC_PARAM_MAX));
    s.alg = OC_LC_SCATTER_RING;
    oc_sched_init(&x);
    CHECK_OK(oc_libcoll_bcast(&p, 7, 3, &s, &x, &t));
    CHECK_OK(oc_verify_bcast(&p, 7, 3, &x, &v));
    CHECK(v.ok);
    CHECK_EQ(v.time, t);
    oc_sched_free(&x);
  }
}
