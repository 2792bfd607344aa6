/* test_reach.c - numbers, parameters and the reach function P(t), B(P). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/oc_core.h"
#include "test.h"

void test_num_parse_int(void) {
  int64_t v;
  CHECK_OK(oc_parse_int("42", 0, 100, &v));
  CHECK_EQ(v, 42);
  CHECK_OK(oc_parse_int("-7", -10, 10, &v));
  CHECK_EQ(v, -7);
  CHECK_EQ(oc_parse_int("", 0, 1, &v), OC_EPARSE);
  CHECK_EQ(oc_parse_int("1x", 0, 100, &v), OC_EPARSE);
  CHECK_EQ(oc_parse_int(" 1", 0, 100, &v), OC_EPARSE);
  CHECK_EQ(oc_parse_int("2.5", 0, 100, &v), OC_EPARSE);
  CHECK_EQ(oc_parse_int("101", 0, 100, &v), OC_ERANGE);
  CHECK_EQ(oc_parse_int("99999999999999999999999", 0, INT64_MAX, &v), OC_ERANGE);
  CHECK_OK(oc_parse_int("9223372036854775807", 0, INT64_MAX, &v));
  CHECK_EQ(v, INT64_MAX);
  CHECK_EQ(oc_parse_int("9223372036854775808", 0, INT64_MAX, &v), OC_ERANGE);
  CHECK_OK(oc_parse_int("4611686018427387904", 1, OC_PROCS_MAX, &v));
  CHECK_EQ(oc_parse_int("4611686018427387905", 1, OC_PROCS_MAX, &v), OC_ERANGE);
}

void test_num_parse_rational(void) {
  int64_t n, d;
  CHECK_OK(oc_parse_rational("2.5", OC_PARAM_MAX, &n, &d));
  CHECK(n == 5 && d == 2);
  CHECK_OK(oc_parse_rational("5/2", OC_PARAM_MAX, &n, &d));
  CHECK(n == 5 && d == 2);
  CHECK_OK(oc_parse_rational("10/4", OC_PARAM_MAX, &n, &d));
  CHECK(n == 5 && d == 2);
  CHECK_OK(oc_parse_rational("2.50", OC_PARAM_MAX, &n, &d));
  CHECK(n == 5 && d == 2);
  CHECK_OK(oc_parse_rational("3", OC_PARAM_MAX, &n, &d));
  CHECK(n == 3 && d == 1);
  CHECK_OK(oc_parse_rational("0.125", OC_PARAM_MAX, &n, &d));
  CHECK(n == 1 && d == 8);
  CHECK_EQ(oc_parse_rational("abc", OC_PARAM_MAX, &n, &d), OC_EPARSE);
  CHECK_EQ(oc_parse_rational("5/0", OC_PARAM_MAX, &n, &d), OC_EPARSE);
  CHECK_EQ(oc_parse_rational("1.", OC_PARAM_MAX, &n, &d), OC_EPARSE);
  CHECK_EQ(oc_parse_rational(".5", OC_PARAM_MAX, &n, &d), OC_EPARSE);
  CHECK_EQ(oc_parse_rational("1/2/3", OC_PARAM_MAX, &n, &d), OC_EPARSE);
  CHECK_EQ(oc_parse_rational("-2", OC_PARAM_MAX, &n, &d), OC_EPARSE);
  CHECK_EQ(oc_parse_rational("1099511627777/2", OC_PARAM_MAX, &n, &d), OC_ERANGE);
  CHECK_OK(oc_parse_rational("1099511627777/3", OC_PARAM_MAX + 1, &n, &d));
  CHECK_EQ(oc_parse_rational("0.0000000000001", OC_PARAM_MAX, &n, &d), OC_ERANGE);
  CHECK_EQ(oc_parse_rational("123456789012345678901234567890", OC_PARAM_MAX, &n, &d),
           OC_ERANGE);
}

void test_num_format_time(void) {
  char b[64];
  oc_format_time(b, sizeof b, 15, 2);
  CHECK(strcmp(b, "7.5") == 0);
  oc_format_time(b, sizeof b, 24, 1);
  CHECK(strcmp(b, "24") == 0);
  oc_format_time(b, sizeof b, 14, 2);
  CHECK(strcmp(b, "7") == 0);
  oc_format_time(b, sizeof b, 1, 8);
  CHECK(strcmp(b, "0.125") == 0);
  oc_format_time(b, sizeof b, 0, 3);
  CHECK(strcmp(b, "0") == 0);
  oc_format_time(b, sizeof b, 14, 3); /* 14/3: no exact decimal */
  CHECK(strtod(b, NULL) == 14.0 / 3.0);
  oc_format_time(b, sizeof b, 1, (int64_t)1 << 40); /* 2^-40, exact */
  CHECK(strcmp(b, "0.0000000000009094947017729282379150390625") == 0);
}

void test_params_reject(void) {
  oc_params p;
  CHECK_OK(oc_params_logp(&p, 8, 6, 2, 4));
  CHECK_EQ(oc_params_logp(&p, 0, 6, 2, 4), OC_ERANGE);
  CHECK_EQ(oc_params_logp(&p, OC_PROCS_MAX + 1, 6, 2, 4), OC_ERANGE);
  CHECK_EQ(oc_params_logp(&p, 8, -1, 2, 4), OC_ERANGE);
  CHECK_EQ(oc_params_logp(&p, 8, 6, -1, 4), OC_ERANGE);
  CHECK_EQ(oc_params_logp(&p, 8, 6, 2, 0), OC_ERANGE);
  CHECK_EQ(oc_params_logp(&p, 8, 0, 0, 1), OC_ERANGE); /* L + 2o = 0 */
  CHECK_OK(oc_params_logp(&p, 8, 0, 1, 1));
  CHECK_OK(oc_params_logp(&p, 8, OC_PARAM_MAX, OC_PARAM_MAX, OC_PARAM_MAX));
  CHECK_EQ(oc_params_logp(&p, 8, OC_PARAM_MAX + 1, 0, 1), OC_ERANGE);
  CHECK_OK(oc_params_postal(&p, 14, 5, 2));
  CHECK(p.L == 5 && p.g == 2 && p.o == 0 && p.unit == 2);
  CHECK_OK(oc_params_postal(&p, 14, 10, 4));
  CHECK(p.L == 5 && p.g == 2);
  CHECK_EQ(oc_params_postal(&p, 14, 1, 2), OC_ERANGE); /* lambda < 1 */
  CHECK(strcmp(oc_err_name(OC_ERANGE), "OC_ERANGE") == 0);
  CHECK(strcmp(oc_strerror(OC_ENOMEM), "out of memory") == 0);
}

/* Karp et al. Thm 2.2: P(t; L, 0, 1) = f_t, f_i = 1 (i < L),
 * f_i = f_{i-1} + f_{i-L}.  L = 1: powers of two (binomial trees);
 * L = 2: Fibonacci; L = 3, 4: the sequences below (Fact 2.1 also checked). */
void test_reach_karp_thm22(void) {
  static const int64_t want[4][14] = {
      {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192},
      {1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377},
      {1, 1, 1, 2, 3, 4, 6, 9, 13, 19, 28, 41, 60, 88},
      {1, 1, 1, 1, 2, 3, 4, 5, 7, 10, 14, 19, 26, 36},
  };
  for (int L = 1; L <= 4; L++) {
    oc_params p;
    CHECK_OK(oc_params_logp(&p, 1000, L, 0, 1));
    for (int t = 0; t < 14; t++) {
      CHECK_EQ(oc_reach_count(&p, t), want[L - 1][t]);
      if (t + L < 14) { /* Fact 2.1: 1 + sum_{i<=t} f_i = f_{t+L} */
        int64_t s = 1;
        for (int i = 0; i <= t; i++) s += want[L - 1][i];
        CHECK_EQ(s, want[L - 1][t + L]);
      }
    }
    /* B(P) is the index function: the least t with f_t >= P */
    for (int64_t P = 1; P <= 300; P++) {
      int64_t B, t = 0;
      CHECK_OK(oc_params_logp(&p, P, L, 0, 1));
      CHECK_OK(oc_bcast_time(&p, &B));
      while (oc_reach_count(&p, t) < P) t++;
      CHECK_EQ(B, t);
    }
  }
}

/* recurrence, written out here: f(t) = Fs(t-G) + f(t-h) */
static int64_t *rec_table(int64_t h, int64_t G, int64_t n) {
  int64_t *f = (int64_t *)malloc((size_t)(n + 1) * sizeof *f);
  for (int64_t t = 0; t <= n; t++) {
    int64_t a = t >= G ? f[t - G] : 1, b = t >= h ? f[t - h] : 0;
    f[t] = (a > INT64_MAX - b) ? INT64_MAX : a + b;
  }
  return f;
}

void test_reach_closed_matches_recurrence(void) {
  int rounds = test_sweep() ? 20000 : 2000;
  for (int i = 0; i < rounds; i++) {
    int64_t h = test_range(1, 40), G = test_range(1, 40);
    int64_t n = test_range(0, 600);
    int64_t *f = rec_table(h, G, n);
    for (int64_t t = 0; t <= n; t += 1 + (int64_t)(test_rand() % 7))
      CHECK_EQ(oc_reach_closed(h, G, t), f[t]);
    free(f);
  }
  /* saturation: f grows past 2^63 and must cap, never wrap */
  {
    int64_t *f = rec_table(1, 1, 80);
    CHECK_EQ(oc_reach_closed(1, 1, 62), f[62]);
    CHECK_EQ(oc_reach_closed(1, 1, 63), INT64_MAX);
    CHECK_EQ(oc_reach_closed(1, 1, 200), INT64_MAX);
    free(f);
  }
  {
    int64_t *f = rec_table(3, 7, 3000);
    for (int64_t t = 0; t <= 3000; t++) CHECK_EQ(oc_reach_closed(3, 7, t), f[t]);
    free(f);
  }
}

/* f against the universal tree enumerated node by node, including o > g
 * (G = max(g, o)) and the chain shape (g much larger than L + 2o). */
void test_reach_matches_enumeration(void) {
  int rounds = test_valgrind() ? 100 : 400; /* the brute count is slow under valgrind */
  for (int i = 0; i < rounds; i++) {
    int64_t L = test_range(0, 9), o = test_range(0, 4), g = test_range(1, 12);
    int64_t h = L + 2 * o, G = g > o ? g : o, t = test_range(0, 60);
    oc_params p;
    if (h == 0) continue;
    CHECK_OK(oc_params_logp(&p, 100, L, o, g));
    CHECK_EQ(oc_reach_count(&p, t), brute_count(h, G, t, INT64_MAX));
  }
  {
    oc_params p;
    CHECK_OK(oc_params_logp(&p, 100, 1, 0, 1000)); /* chain until t = 1000 */
    CHECK_EQ(oc_reach_count(&p, 999), 1000);
    CHECK_EQ(oc_reach_count(&p, 1000), brute_count(1, 1000, 1000, INT64_MAX));
  }
}

/* Shou & Chen Thm 4: min{g, L+2o} log2 P <= B(P) < max{g, L+2o} log2 4P. */
void test_reach_thm4_property(void) {
  int rounds = test_sweep() ? 50000 : 5000;
  for (int i = 0; i < rounds; i++) {
    int64_t L = test_range(0, 100), o = test_range(0, 50), g = test_range(1, 100);
    int64_t P = (i % 3 == 0) ? test_range(1, 1000)
                             : (int64_t)(test_rand() % (uint64_t)OC_PROCS_MAX) + 1;
    int64_t B, h = L + 2 * o;
    long double lo, hi;
    oc_params p;
    if (h == 0) continue;
    CHECK_OK(oc_params_logp(&p, P, L, o, g));
    CHECK_OK(oc_bcast_time(&p, &B));
    lo = (long double)(g < h ? g : h) * log2l((long double)P);
    hi = (long double)(g > h ? g : h) * log2l(4.0L * (long double)P);
    CHECK((long double)B >= lo);
    CHECK((long double)B < hi);
    /* and B is the index function of f */
    CHECK(oc_reach_count(&p, B) >= P);
    CHECK(B == 0 || oc_reach_count(&p, B - 1) < P);
  }
}

/* Extremes: P = 2^62, parameters 2^40, chains: exact, no wrap. */
void test_reach_edges_no_overflow(void) {
  static const int64_t ps[][3] = {
      {0, 1, 1}, {1, 0, 1}, {6, 2, 4}, {1, 0, 1 << 30},
      {1 << 30, 0, 1}, {OC_PARAM_MAX, OC_PARAM_MAX, OC_PARAM_MAX},
      {OC_PARAM_MAX, 0, 1}, {1, 0, OC_PARAM_MAX}, {OC_PARAM_MAX - 1, 0, OC_PARAM_MAX},
      {100, 100, 100}, {1, 100, 3},
  };
  const int64_t Ps[] = {1, 2, 3, 1000000007, OC_PROCS_MAX - 1, OC_PROCS_MAX};
  for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
    for (size_t j = 0; j < sizeof Ps / sizeof Ps[0]; j++) {
      oc_params p;
      oc_reach *r;
      int64_t B, B2;
      CHECK_OK(oc_params_logp(&p, Ps[j], ps[i][0], ps[i][1], ps[i][2]));
      CHECK_OK(oc_bcast_time(&p, &B));
      CHECK(B >= 0);
      CHECK(oc_reach_count(&p, B) >= Ps[j]);
      CHECK(B == 0 || oc_reach_count(&p, B - 1) < Ps[j]);
      CHECK_OK(oc_reach_new(&r, &p));
      B2 = oc_reach_time(r);
      CHECK_EQ(B, B2);
      CHECK_EQ(oc_reach_f(r, B), oc_reach_count(&p, B));
      oc_reach_free(r);
    }
  }
  { /* chain: g huge, L + 2o = 1: B(P) = P - 1 */
    oc_params p;
    int64_t B;
    CHECK_OK(oc_params_logp(&p, 1000000000, 1, 0, OC_PARAM_MAX));
    CHECK_OK(oc_bcast_time(&p, &B));
    CHECK_EQ(B, 999999999);
  }
}

/* Bar-Noy & Kipnis Fig. 1: n = 14, lambda = 2.5: f_lambda(14) = 7.5. */
void test_reach_barnoy_fig1_time(void) {
  oc_params p;
  int64_t B;
  CHECK_OK(oc_params_postal(&p, 14, 5, 2));
  CHECK_OK(oc_bcast_time(&p, &B));
  CHECK_EQ(B, 15); /* units of 1/2 */
  CHECK_EQ(oc_reach_count(&p, 13), 9); /* F(6.5) = 9: p0's first target */
  CHECK_EQ(oc_reach_count(&p, 14), 12);
  CHECK_EQ(oc_reach_count(&p, 15), 14);
  /* lambda = 1: binomial, B = ceil(log2 n); lambda = 2: Fibonacci */
  for (int64_t n = 1; n <= 2000; n++) {
    int64_t lg = 0;
    while (((int64_t)1 << lg) < n) lg++;
    CHECK_OK(oc_params_postal(&p, n, 1, 1));
    CHECK_OK(oc_bcast_time(&p, &B));
    CHECK_EQ(B, lg);
  }
}
