/* test_cbcast.c - continuous broadcast (Karp et al. section 3.1-3.3). */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"
#include "test.h"

static int lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

static void plan_check(int64_t P, int64_t L, int64_t k, int64_t root, int64_t *delay,
                       int64_t *bound) {
  oc_cbcast *c = NULL;
  oc_params p;
  oc_sched s;
  oc_verdict v;
  const oc_cbcast_info *in;
  CHECK_OK(oc_cbcast_new(&c, P, L));
  in = oc_cbcast_get_info(c);
  CHECK_OK(oc_params_postal(&p, P, L, 1));
  oc_sched_init(&s);
  CHECK_OK(oc_cbcast_schedule(c, root, k, &s));
  CHECK_EQ(s.n, (size_t)(k * (P - 1)));
  CHECK_OK(oc_verify_cbcast(&p, root, k, &s, &v));
  if (!v.ok) test_failf(__FILE__, __LINE__, "P=%lld L=%lld: %s", (long long)P, (long long)L, v.detail);
  if (P > 1) CHECK_EQ(v.time, in->delay);
  CHECK(in->delay >= in->bound);
  CHECK_EQ(in->bound, P == 1 ? 0 : L + in->B);
  *delay = in->delay;
  *bound = in->bound;
  oc_sched_free(&s);
  oc_cbcast_free(c);
}

/* Karp Fig. 2: P = 10, L = 3 (P - 1 = 9 = f_7): S_7 = {a,a,a,b,b,c,D1,E2,H5};
 * words acab (H5 block), a (E2), empty (D1), b (receive-only). */
void test_cbcast_karp_fig2(void) {
  oc_cbcast *c = NULL;
  const oc_cbcast_info *in;
  int64_t cnt[8] = {0}, r, J, d, b;
  const int64_t *w;
  int seen[3] = {0, 0, 0};
  CHECK_OK(oc_cbcast_new(&c, 10, 3));
  in = oc_cbcast_get_info(c);
  CHECK_EQ(in->B, 7);
  CHECK_EQ(in->delay, 10);
  CHECK_EQ(in->blocks, 3);
  CHECK_EQ(in->ro, 1); /* b */
  cnt[in->ro]++;
  for (int64_t i = 0; i < in->blocks; i++) {
    CHECK_OK(oc_cbcast_block(c, i, &r, &J, &w));
    CHECK_EQ(w[0], J);
    for (int64_t q = 1; q < r; q++) cnt[w[q]]++;
    if (r == 5) { /* H5 acab: a=0 c=2 a=0 b=1 */
      CHECK_EQ(J, 7);
      CHECK_EQ(w[1], 0);
      CHECK_EQ(w[2], 2);
      CHECK_EQ(w[3], 0);
      CHECK_EQ(w[4], 1);
      seen[0] = 1;
    } else if (r == 2) { /* E2 a */
      CHECK_EQ(J, 4);
      CHECK_EQ(w[1], 0);
      seen[1] = 1;
    } else { /* D1, empty */
      CHECK_EQ(r, 1);
      CHECK_EQ(J, 3);
      seen[2] = 1;
    }
  }
  CHECK(seen[0] && seen[1] && seen[2]);
  CHECK_EQ(cnt[0], 3); /* the leaves of S_7: a a a b b c */
  CHECK_EQ(cnt[1], 2);
  CHECK_EQ(cnt[2], 1);
  oc_cbcast_free(c);
  plan_check(10, 3, 8, 0, &d, &b); /* k = 8 as in the figure */
  CHECK_EQ(d, 10);
}

/* Karp 3.3: "when L = 4 and t = 8 no block-cyclic schedule can achieve a
 * delay of L + t": confirmed exhaustively (Hall's criterion); and every
 * optimal full-tree plan we build implies existence (a cross-check of the
 * exhaustive search). */
void test_cbcast_exists(void) {
  int r;
  CHECK_OK(oc_cbcast_exists(4, 8, 1000000, &r));
  CHECK_EQ(r, 0);
  CHECK_OK(oc_cbcast_exists(4, 9, 1000000, &r));
  CHECK_EQ(r, 1);
  CHECK_OK(oc_cbcast_exists(3, 7, 1000000, &r));
  CHECK_EQ(r, 1);
  for (int64_t L = 3; L <= 6; L++) {
    int64_t f[64] = {0};
    for (int64_t t = 0; t < L; t++) f[t] = 1;
    for (int64_t t = L; t < 64; t++) f[t] = f[t - 1] + f[t - L];
    for (int64_t t = L; t <= L + 8; t++) {
      int64_t d, b;
      CHECK_OK(oc_cbcast_exists(L, t, 2000000, &r));
      CHECK(r >= 0); /* small: decided */
      plan_check(f[t] + 1, L, 6, 0, &d, &b);
      if (d == b) CHECK_EQ(r, 1); /* ours is block-cyclic on the full tree */
      if (r == 0) CHECK(d > b);
    }
  }
  /* even L, t = 2L: none (the letter-sum argument in docs/ALGORITHMS.md);
   * odd L: one exists */
  for (int64_t L = 3; L <= 10; L++) {
    CHECK_OK(oc_cbcast_exists(L, 2 * L, 5000000, &r));
    CHECK_EQ(r, L % 2 == 0 ? 0 : 1);
  }
  CHECK_EQ(oc_cbcast_exists(0, 8, 10, &r), OC_ERANGE);
}

/* L = 2 (Karp Theorems 3.4, 3.5): on the full trees no block-cyclic schedule
 * has delay L + B (exhaustive, t = 4..12); the pruned trees of deadline
 * t + 1 give L + B + 1 for P - 1 = f_t by Karp's induction; and, extended
 * here, delay <= L + B(P-1) + 1 for every P tested. */
void test_cbcast_l2(void) {
  int64_t f[40] = {1, 1};
  int64_t Pmax = test_valgrind() ? 40 : (test_sweep() ? 400 : 150);
  int r;
  for (int64_t t = 2; t < 40; t++) f[t] = f[t - 1] + f[t - 2];
  for (int64_t t = 4; t <= 12; t++) {
    CHECK_OK(oc_cbcast_exists(2, t, 50000000, &r));
    CHECK_EQ(r, 0);
  }
  for (int64_t t = 8; t <= (test_valgrind() ? 10 : 16); t++) {
    oc_cbcast *c = NULL;
    int64_t d, b;
    CHECK_OK(oc_cbcast_new(&c, f[t] + 1, 2));
    CHECK_EQ(oc_cbcast_get_info(c)->slack, 1);
    CHECK_EQ(oc_cbcast_get_info(c)->B, t);
    oc_cbcast_free(c);
    plan_check(f[t] + 1, 2, 4, 0, &d, &b);
    CHECK_EQ(d, b + 1);
  }
  for (int64_t P = 2; P <= Pmax; P++) {
    int64_t d, b;
    plan_check(P, 2, test_sweep() ? 64 : 5, P / 3, &d, &b);
    CHECK(d <= b + 1);
  }
}

/* every P up to a bound, several L: verified; for L = 3 every delay optimal
 * (seen here; a regression if it changes) */
void test_cbcast_grid(void) {
  int64_t Pmax = test_valgrind() ? 24 : (test_sweep() ? 200 : 60);
  int64_t Lmax = test_sweep() ? 12 : 5;
  for (int64_t L = 1; L <= Lmax; L++)
    for (int64_t P = 1; P <= Pmax; P++) {
      int64_t d, b;
      plan_check(P, L, test_sweep() ? 64 : 12, (P * 7) % P, &d, &b);
      if (L == 3 || L == 1) CHECK_EQ(d, b);
      CHECK(d <= b + 1); /* seen: +1 only for L = 2 and the even-L t = 2L trees */
      if (test_sweep() && d != b)
        printf("cbcast L=%lld P=%lld: delay %lld, bound %lld, gap %lld\n", (long long)L,
               (long long)P, (long long)d, (long long)b, (long long)(d - b));
    }
}

/* the O(1) rule agrees with the schedule, message for message (also the
 * buffered plan, whose receptions may come after the arrival) */
void test_cbcast_step(void) {
  static const int64_t cases[][2] = {{10, 3}, {14, 3}, {33, 4}, {20, 2}, {7, 1}, {2, 5}, {50, 5}};
  for (int buffered = 0; buffered <= 1; buffered++)
  for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
    int64_t P = cases[ci][0], L = cases[ci][1], k = 9, root = P / 3, T, *rt = NULL;
    oc_cbcast *c = NULL;
    oc_sched s;
    size_t sends = 0, recvs = 0;
    CHECK_OK(buffered ? oc_cbcast_new_buffered(&c, P, L) : oc_cbcast_new(&c, P, L));
    oc_sched_init(&s);
    CHECK_OK(oc_cbcast_schedule_rt(c, root, k, &s));
    rt = s.recv_at;
    T = k + oc_cbcast_get_info(c)->delay + 2;
    for (int64_t p = 0; p < P; p++)
      for (int64_t t = 0; t <= T; t++) {
        oc_cbcast_act rv, sd;
        int fs = 0, fr = 0;
        CHECK_OK(oc_cbcast_step(c, root, p, t, k, &rv, &sd));
        for (size_t i = 0; i < s.n; i++) {
          const oc_msg *m = &s.msg[i];
          if (m->src == p && m->t == t) {
            fs++;
            CHECK_EQ(sd.item, m->item);
            CHECK_EQ(sd.peer, m->dst);
          }
          if (m->dst == p && rt[i] == t) { /* taken then (buffered: maybe later) */
            fr++;
            CHECK_EQ(rv.item, m->item);
            CHECK_EQ(rv.peer, m->src);
          }
        }
        if (!fs) CHECK_EQ(sd.item, -1);
        if (!fr) CHECK_EQ(rv.item, -1);
        sends += (size_t)fs;
        recvs += (size_t)fr;
      }
    CHECK_EQ(sends, s.n);
    CHECK_EQ(recvs, s.n);
      oc_sched_free(&s);
    oc_cbcast_free(c);
  }
}

/* mutants the verifier must reject: a dropped message, a retargeted one, an
 * item sent before it is created, two receptions in one step */
void test_cbcast_mutants(void) {
  oc_cbcast *c = NULL;
  oc_params p;
  oc_sched s;
  oc_verdict v;
  int64_t P = 22, L = 3, k = 10;
  size_t tried = 0;
  CHECK_OK(oc_cbcast_new(&c, P, L));
  CHECK_OK(oc_params_postal(&p, P, L, 1));
  oc_sched_init(&s);
  CHECK_OK(oc_cbcast_schedule(c, 0, k, &s));
  for (size_t i = 0; i < s.n; i += 7) {
    oc_msg keep = s.msg[i];
    /* drop: the receiver misses the item */
    s.msg[i] = s.msg[s.n - 1];
    s.n--;
    CHECK_OK(oc_verify_cbcast(&p, 0, k, &s, &v));
    CHECK(!v.ok);
    s.n++;
    s.msg[s.n - 1] = s.msg[i];
    s.msg[i] = keep;
    /* retarget to another non-source processor */
    s.msg[i].dst = 1 + (keep.dst % (P - 1));
    if (s.msg[i].dst == keep.src) s.msg[i].dst = 1 + (s.msg[i].dst % (P - 1));
    CHECK_OK(oc_verify_cbcast(&p, 0, k, &s, &v));
    CHECK(!v.ok);
    s.msg[i] = keep;
    /* the source sends item i >= 1 one step before it exists */
    if (keep.src == 0 && keep.item >= 1) {
      s.msg[i].t = keep.item - 1;
      CHECK_OK(oc_verify_cbcast(&p, 0, k, &s, &v));
      CHECK(!v.ok);
      CHECK_EQ(v.rule, OC_RULE_HELD);
      s.msg[i] = keep;
    }
    tried++;
  }
  CHECK(tried > 20);
  CHECK_OK(oc_verify_cbcast(&p, 0, k, &s, &v));
  CHECK(v.ok);
  oc_sched_free(&s);
  oc_cbcast_free(c);
}

/* large: P - 1 = f_t far beyond the base cases (Karp's induction) and a
 * split P; per-processor steps without the global schedule */
void test_cbcast_large(void) {
  int64_t f[60] = {1, 1, 1}, d, b;
  oc_cbcast *c = NULL;
  const oc_cbcast_info *in;
  for (int64_t t = 3; t < 60; t++) f[t] = f[t - 1] + f[t - 3];
  plan_check(f[24] + 1, 3, 3, 5, &d, &b); /* 4,000+ processors */
  CHECK_EQ(d, b);
  plan_check(f[24] + 1 + 1000, 3, 2, 0, &d, &b);
  CHECK_EQ(d, b);
  CHECK_OK(oc_cbcast_new(&c, f[34] + 1, 3)); /* ~ 850,000 processors */
  in = oc_cbcast_get_info(c);
  CHECK_EQ(in->delay, in->bound);
  CHECK_EQ(in->method, OC_CB_INDUCTION);
  {
    oc_cbcast_act rv, sd;
    CHECK_OK(oc_cbcast_step(c, 0, 12345, 1000, 2000, &rv, &sd));
    CHECK(rv.item >= 0 && sd.item >= 0);
  }
  oc_cbcast_free(c);
  CHECK_EQ(oc_cbcast_new(&c, 0, 3), OC_ERANGE);
  CHECK_EQ(oc_cbcast_new(&c, 5, 0), OC_ERANGE);
  CHECK_EQ(oc_cbcast_new(&c, OC_CBCAST_PROCS_MAX + 1, 3), OC_ERANGE);
  CHECK_EQ(oc_cbcast_new(&c, 5, OC_CBCAST_L_MAX + 1), OC_ERANGE);
}

/* t(L) (Theorem 3.3): found for 3 <= L <= 6 here; the docs' table is
 * regenerated by the sweep */
/* Theorem 3.3's t(L): the first of L consecutive base cases in Karp's form
 * (the complete search in that form, so every t below it with no form
 * solution is proved so).  Found here: t(3) = 11, t(4) = 12 and t(L) =
 * 3L - 3 for 5 <= L <= 10 (make check) and up to L = 16 (make sweep). */
void test_cbcast_tl(void) {
  int64_t tl, lo;
  for (int64_t L = 3; L <= (test_sweep() ? 16 : (test_valgrind() ? 6 : 10)); L++) {
    unsigned char ok[200];
    CHECK_OK(oc_cbcast_tl(L, 5 * L + 6, &tl, &lo, ok));
    CHECK(tl >= L && lo >= tl);
    CHECK_EQ(tl, L == 3 ? 11 : (L == 4 ? 12 : 3 * L - 3));
    if (L >= 5)
      for (int64_t t = tl; t < tl + L; t++) CHECK(ok[t]);
    if (test_sweep()) printf("t(%lld) = %lld (base cases from %lld)\n", (long long)L, (long long)tl, (long long)lo);
  }
  CHECK_OK(oc_cbcast_tl(4, 40, &tl, &lo, NULL));
  CHECK(tl > 8); /* t = 8 has no schedule at all */
}

void test_cli_cbcast(void) {
  run_result r;
  static const char *const plan[] = {"plan", "cbcast", "--latency", "3", "--procs", "10", "--json", NULL};
  static const char *const csv[] = {"plan", "cbcast", "--latency", "3", "--procs", "14", "--items", "5", "--csv", NULL};
  static const char *const ver[] = {"verify", "cbcast", "--latency", "3", "--procs", "14", "--items", "5", NULL};
  static const char *const text[] = {"plan", "cbcast", "--latency", "3", "--procs", "10", "--items", "8", NULL};
  static const char *const bad[][10] = {
      {"plan", "cbcast", "--latency", "0", "--procs", "10", NULL},
      {"plan", "cbcast", "--latency", "2.5", "--procs", "10", NULL},
      {"plan", "cbcast", "--latency", "3", "--procs", "0", NULL},
      {"plan", "cbcast", "--latency", "3", "--procs", "10", "--items", "0", NULL},
      {"plan", "cbcast", "--latency", "3", "--procs", "10", "--overhead", "1", NULL},
      {"plan", "cbcast", "--procs", "10", NULL},
      {"plan", "cbcast", "--latency", "3", NULL},
      {"rank", "cbcast", "--latency", "3", "--procs", "10", "--rank", "1", NULL},
      {"plan", "cbcast", "--latency", "3", "--procs", "10", "--model", "logp", NULL},
      {"plan", "cbcast", "--latency", "3", "--procs", "10", "--root", "10", NULL},
      {"plan", "cbcast", "--latency", "3", "--procs", "1000000", "--items", "100000", NULL},
      {"plan", "cbcast", "--latency", "5", "--karp-block", "10", NULL},
      {"plan", "cbcast", "--latency", "5", "--karp-block", "7", "--procs", "9", NULL},
      {"plan", "cbcast", "--latency", "5", "--karp-block", "0", NULL},
      {"plan", "kbcast", "--lambda", "5", "--procs", "8", "--karp-block", "7", NULL},
  };
  static const char *const names[] = {"--latency", "--latency", "--procs", "--items", "--overhead",
                                      "--latency", "--procs", "rank", "--model", "--root", "--items",
                                      "--karp-block", "--karp-block", "--karp-block", "--karp-block"};
  static const char *const fig4[] = {"plan", "cbcast", "--latency", "5", "--karp-block", "7",
                                     "--items", "16", NULL};
  char sched[1 << 15];
  run_optcast(&r, NULL, plan);
  CHECK_EQ(r.code, 0);
  CHECK(strstr(r.out, "\"problem\":\"cbcast\"") && strstr(r.out, "\"time\":10,") &&
        strstr(r.out, "\"lower_bound\":10,") && strstr(r.out, "\"optimal\":true"));
  run_optcast(&r, NULL, text);
  CHECK_EQ(r.code, 0);
  CHECK(strstr(r.out, "H5 | acab") && strstr(r.out, "E2 | a") && strstr(r.out, "receive-only processor: b"));
  run_optcast(&r, NULL, csv);
  CHECK_EQ(r.code, 0);
  CHECK(strlen(r.out) < sizeof sched);
  strcpy(sched, r.out);
  run_optcast(&r, sched, ver);
  CHECK_EQ(r.code, 0);
  CHECK(strstr(r.out, "valid"));
  { /* the first item sent one step late at the source: delay + 1, still valid;
       a row removed: invalid, exit 1 */
    char *second = strchr(sched, '\n') + 1, *third = strchr(second, '\n') + 1;
    memmove(second, third, strlen(third) + 1);
    run_optcast(&r, sched, ver);
    CHECK_EQ(r.code, 1);
    CHECK(strstr(r.err, "rule"));
  }
  run_optcast(&r, NULL, fig4); /* Karp Fig. 4, rows p1 and p7 as in the paper */
  CHECK_EQ(r.code, 0);
  CHECK(strstr(r.out, "p1    *1   .   .   .   .   .   .  *8   .   2   3   4   5   7 *15   6   9  10  11  12  14   .  13  16"));
  CHECK(strstr(r.out, "p7     .   .   .   .   .   .  *7   .   2   3   4   5   1 *14   6   9  10  11  12   8   .  13  16   .   .   .  15"));
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    run_optcast(&r, NULL, bad[i]);
    if (r.code != 2 || r.out[0] != 0 || !strstr(r.err, names[i]) || lines(r.err) != 1)
      test_failf(__FILE__, __LINE__, "case %zu: code %d err '%s'", i, r.code, r.err);
  }
}

/* Karp et al. section 3.5 (buffered model), our construction: delay
 * L + B(P-1) for every P and L tried (the optimum; L = 2: + 1), checked by the buffered
 * verifier both as continuous broadcast and as k items (time L + B + k - 1,
 * Theorem 3.8's single-sending optimum); mutants: a reception moved before
 * its arrival, two receptions at one step. */
static void buffered_case(int64_t P, int64_t L, int64_t k, int64_t *waits) {
  oc_cbcast *c = NULL;
  oc_params p;
  oc_sched s;
  oc_verdict v;
  const oc_cbcast_info *in;
  int64_t *rt = NULL, waited = 0;
  CHECK_OK(oc_cbcast_new_buffered(&c, P, L));
  in = oc_cbcast_get_info(c);
  CHECK(in->buffered);
  /* optimal; L = 2: one more (continuous; k items reach Theorem 3.8, see
   * kbcast_buffered) */
  CHECK(in->delay == in->bound || (L == 2 && P > 2 && in->delay == in->bound + 1));
  CHECK_OK(oc_params_postal(&p, P, L, 1));
  oc_sched_init(&s);
  CHECK_OK(oc_cbcast_schedule_rt(c, 0, k, &s));
    rt = s.recv_at;
  CHECK_EQ(s.n, (size_t)(k * (P - 1)));
  for (size_t i = 0; i < s.n; i++) {
    CHECK(rt[i] >= s.msg[i].t + L);
    waited += rt[i] > s.msg[i].t + L;
  }
  CHECK_OK(oc_verify_buffered(&p, 0, k, 1, &s, &v));
  if (!v.ok) test_failf(__FILE__, __LINE__, "P=%lld L=%lld: %s", (long long)P, (long long)L, v.detail);
  if (P > 1) CHECK_EQ(v.time, in->delay);
  CHECK_OK(oc_verify_buffered(&p, 0, k, 0, &s, &v));
  CHECK(v.ok);
  if (P > 1) CHECK_EQ(v.time, in->delay + k - 1);
  { /* the postal verifier takes every item at its arrival: where that is
     * still valid, the delay can only be smaller */
    CHECK_OK(oc_verify_cbcast(&p, 0, k, &s, &v));
    if (v.ok && P > 1) CHECK(v.time <= in->delay);
  }
  if (s.n >= 2) { /* mutants */
    size_t i = (size_t)test_range(0, (int64_t)s.n - 1);
    int64_t keep = rt[i];
    rt[i] = s.msg[i].t + L - 1;
    CHECK_OK(oc_verify_buffered(&p, 0, k, 1, &s, &v));
    CHECK(!v.ok);
    rt[i] = keep;
    for (size_t j = 0; j < s.n; j++) /* another reception of i's receiver */
      if (j != i && s.msg[j].dst == s.msg[i].dst && rt[j] >= s.msg[i].t + L) {
        rt[i] = rt[j];
        CHECK_OK(oc_verify_buffered(&p, 0, k, 1, &s, &v));
        CHECK(!v.ok);
        CHECK(v.rule == OC_RULE_RECV_GAP || v.rule == OC_RULE_HELD); /* or a send too early */
        rt[i] = keep;
        break;
      }
  }
  *waits += waited;
  oc_sched_free(&s);
  oc_cbcast_free(c);
}

void test_cbcast_buffered(void) {
  int64_t Pmax = test_valgrind() ? 30 : (test_sweep() ? 400 : 120), waits = 0;
  for (int64_t L = 1; L <= (test_sweep() ? 12 : 6); L++)
    for (int64_t P = 1; P <= Pmax; P += (test_sweep() || L <= 3) ? 1 : 3)
      buffered_case(P, L, 2 * L + 3, &waits);
  CHECK(waits > 0); /* the buffer is used */
  {
    int64_t w = 0;
    buffered_case(14, 3, 14, &w); /* Karp Fig. 5's instance: L = 3, P - 1 = 13, k = 14 */
  }
  CHECK_EQ(oc_cbcast_new_buffered(NULL, 10, 3), OC_EINVAL);
}

/* Karp Fig. 4's form (L = 5, a block of r = 7, k = 16): P = 12 (P - 1 =
 * f_11) has the root block of 7.  Each of its processors receives each of
 * the 16 items once and forwards exactly the items of one residue class
 * mod 7 (its "active" items, bold in the paper), the seven classes
 * distinct; all done by L + B + k - 1 = 31. */
void test_cbcast_fig4_form(void) {
  oc_cbcast *c = NULL;
  oc_sched s;
  int64_t r = 0, J = 0, first = -1, rel = 0, classes = 0;
  const int64_t *w;
  CHECK_OK(oc_cbcast_new(&c, 12, 5));
  for (int64_t b = 0; b < oc_cbcast_get_info(c)->blocks; b++) {
    CHECK_OK(oc_cbcast_block(c, b, &r, &J, &w));
    if (r == 7) { first = rel; break; }
    rel += r;
  }
  CHECK(first >= 0);
  CHECK_EQ(J, 11);
  oc_sched_init(&s);
  CHECK_OK(oc_cbcast_schedule(c, 0, 16, &s));
  for (int64_t q = 0; q < 7; q++) {
    int64_t proc = 1 + first + q, got[16] = {0}, cls = -1;
    for (size_t i = 0; i < s.n; i++) {
      if (s.msg[i].dst == proc) {
        got[s.msg[i].item]++;
        CHECK(s.msg[i].t + 5 <= 15 + 5 + 11); /* item 15 created at 15, delay 16 */
      }
      if (s.msg[i].src == proc) {
        if (cls < 0) cls = s.msg[i].item % 7;
        CHECK_EQ(s.msg[i].item % 7, cls);
      }
    }
    for (int64_t i = 0; i < 16; i++) CHECK_EQ(got[i], 1);
    CHECK(cls >= 0);
    if (cls >= 0) classes |= (int64_t)1 << cls;
  }
  CHECK_EQ(classes, 127);
  oc_sched_free(&s);
  oc_cbcast_free(c);
}

/* The nested construction (oc_cbnest.c).  Words: random multisets whose sum
 * is right get a legal order; a wrong sum is refused.  Plans: every L > 18
 * is nested (no Karp search), verified, within Theorem 3.7's continuous
 * budget B + 2L - 1; every n = P - 1 <= L + 1 optimal (the root's leaf
 * children cover every residue); cases that were the path before: L = 20,
 * P = 21 (delay 400) and L = 18, P = 44 (774), now at the bound. */
static int64_t nest_rng(uint64_t *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (int64_t)(*s >> 33);
}

void test_cbcast_nested(void) {
  uint64_t st = 7;
  int64_t w[400], seen[400];
  for (int trial = 0; trial < (test_valgrind() ? 60 : 600); trial++) {
    int32_t r = 2 + (int32_t)(nest_rng(&st) % (trial % 3 == 0 ? 300 : 30));
    int64_t sum = 0, kinds = 1 + nest_rng(&st) % 40;
    for (int32_t q = 1; q < r; q++) sum += w[q] = nest_rng(&st) % kinds;
    w[0] = (r - sum % r) % r + r * (nest_rng(&st) % 3);
    CHECK_OK(oc_cb_order_word(r, w, (uint64_t)trial));
    memset(seen, 0, sizeof seen);
    for (int32_t q = 0; q < r; q++) seen[(q + w[q]) % r]++;
    for (int32_t q = 0; q < r; q++) CHECK_EQ(seen[q], 1);
    w[0]++; /* the sum is off now: no order can be legal */
    CHECK_EQ(oc_cb_order_word(r, w, 1), OC_EINVAL);
  }
  {
    /* make check: five L; make sweep: every L = 19..64, P = 3..400 */
    static const int64_t Ls[] = {19, 20, 27, 33, 64};
    int64_t nL = test_sweep() ? 64 - 18 : (int64_t)(sizeof Ls / sizeof Ls[0]);
    for (int64_t i = 0; i < nL; i++) {
      int64_t L = test_sweep() ? 19 + i : Ls[i], Pmax = test_valgrind() ? 60 : (test_sweep() ? 400 : 150);
      for (int64_t P = 3; P <= Pmax; P += (test_sweep() || P < L + 3) ? 1 : 7) {
        int64_t d, b;
        plan_check(P, L, test_sweep() ? 40 : 6, (L * 7) % P, &d, &b);
        CHECK(d <= b + L - 1);
        CHECK(d <= b + 1); /* seen: every L = 19..64, P <= 400 (86 of 18308 at +1) */
        if (P - 1 <= L + 1) CHECK_EQ(d, b);
      }
    }
  }
  {
    oc_cbcast *c = NULL;
    int64_t d, b;
    CHECK_OK(oc_cbcast_new(&c, 21, 20));
    CHECK_EQ(oc_cbcast_get_info(c)->method, OC_CB_NESTED);
    oc_cbcast_free(c);
    plan_check(21, 20, 30, 4, &d, &b);
    CHECK_EQ(d, b);
    plan_check(44, 18, 30, 17, &d, &b);
    CHECK_EQ(d, b);
    if (!test_valgrind()) { /* large: the repair's trades at work */
      plan_check(20000, 30, 3, 77, &d, &b);
      CHECK(d <= b + 30 - 1);
      plan_check(300000, 64, 2, 0, &d, &b);
      CHECK(d <= b + 64 - 1);
      CHECK(d <= b + 2); /* seen */
    }
  }
}
