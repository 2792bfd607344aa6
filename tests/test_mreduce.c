/* test_mreduce.c - reduce and allreduce of m packets in LogP (oc_mreduce.c):
 * every construction passes the vector verifier with the simulator's time,
 * nothing beats the lower bounds, the chosen schedule is never slower than
 * any MPI-library row of `optcast compare reduce|allreduce`, damaged
 * schedules are rejected, and the vector CSV form reads back what it
 * wrote. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "plan/oc_plan.h"

static void fail_params(int line, const char *what, const oc_params *p, int64_t root, int64_t m,
                        int64_t t, int64_t other) {
  test_failf(__FILE__, line, "%s: P=%lld L=%lld o=%lld g=%lld root=%lld m=%lld: %lld vs %lld",
             what, (long long)p->P, (long long)p->L, (long long)p->o, (long long)p->g,
             (long long)root, (long long)m, (long long)t, (long long)other);
}

/* one candidate through the verifier: the simulator's time, no lower */
static void check_run(const oc_params *p, int64_t root, int64_t m, const oc_mreduce_info *c,
                      int64_t lb, const char *what) {
  oc_sched s;
  oc_verdict v;
  int64_t t = -1;
  int e;
  oc_sched_init(&s);
  e = oc_mreduce_run(p, root, m, c, &s, &t);
  if (e == OC_ERANGE) { /* the circulant past its limits */
    oc_sched_free(&s);
    return;
  }
  if (e != OC_OK) fail_params(__LINE__, what, p, root, m, e, 0);
  CHECK_OK(oc_verify_vreduce(p, root, m, &s, &v));
  if (!v.ok || v.time != t) {
    printf("    %s: %s\n", what, v.detail);
    fail_params(__LINE__, what, p, root, m, t, v.time);
  }
  if (t < lb) fail_params(__LINE__, "below the lower bound", p, root, m, t, lb);
  oc_sched_free(&s);
}

/* EXACT: the broadcast with sends of o + 1 (the receiver's addition),
 * run backwards on its own times, passes the verifier and takes exactly
 * the broadcast's time: the reversal keeps every LogP rule (a schedule
 * that broke one would be re-timed by the reduce simulator, or rejected). */
static void check_exact(const oc_params *p, int64_t root, int64_t m, oc_mreduce_info c,
                        int64_t lb, const char *what) {
  oc_sched s;
  oc_verdict v;
  int64_t tb = -1, t = -1;
  int e;
  c.exact = 1;
  c.red.sx = p->unit;
  c.bc.sx = 0;
  e = oc_mbcast_run(p, root < 0 ? 0 : root, m, &c.red, NULL, &tb);
  if (e == OC_ERANGE) return; /* (the circulant: no slots for these) */
  if (e != OC_OK) fail_params(__LINE__, what, p, root, m, e, 0);
  oc_sched_init(&s);
  if ((e = oc_mreduce_run(p, root, m, &c, &s, &t)) != OC_OK)
    fail_params(__LINE__, what, p, root, m, e, 0);
  CHECK_OK(oc_verify_vreduce(p, root, m, &s, &v));
  if (!v.ok || v.time != t) {
    printf("    %s (times kept): %s\n", what, v.detail);
    fail_params(__LINE__, what, p, root, m, t, v.time);
  }
  if (root >= 0 && t != tb) fail_params(__LINE__, "times kept: not the broadcast's", p, root, m, t, tb);
  if (root < 0 && t < tb) fail_params(__LINE__, "times kept: before its reduction", p, root, m, t, tb);
  if (t < lb) fail_params(__LINE__, "below the lower bound", p, root, m, t, lb);
  c.exact = 0; /* a program that says one without the other is refused */
  CHECK(oc_mreduce_run(p, root, m, &c, NULL, &t) == OC_EINVAL);
  oc_sched_free(&s);
}

/* Random (P, L, o, g, m, root), o > g and 2o > g included: every
 * construction (each broadcast run backwards at a random segment size, each
 * library program, for allreduce the composed ones and the other families)
 * and the chosen one pass oc_verify_vreduce with the planned time, none is
 * below the lower bound; for m = 1 the reduce is the optimal reduction
 * time. */
void test_mreduce_random(void) {
  int rounds = test_sweep() ? 4000 : (test_valgrind() ? 40 : 300);
  for (int it = 0; it < rounds; it++) {
    oc_params p;
    int64_t m, root, lb, alb, R;
    oc_mreduce_info info;
    test_rand_logp(&p, it % 10 == 0 ? 200 : 20);
    m = test_range(1, it % 3 == 0 ? 20 : 5);
    root = test_range(0, p.P - 1);
    CHECK_OK(oc_mreduce_bound(&p, m, &lb, NULL));
    CHECK_OK(oc_mallreduce_bound(&p, m, &alb, NULL));
    CHECK_OK(oc_reduce_time(&p, &R));
    for (int a = 0; a < OC_MB_COUNT; a++) {
      oc_mreduce_info c;
      memset(&c, 0, sizeof c);
      c.family = OC_MR_REVERSED;
      c.red.alg = (oc_mbcast_alg)a;
      c.red.seg = test_range(0, m);
      c.red.degree = p.P > 2 ? test_range(2, p.P - 1) : 2;
      if (a == OC_MB_MULTITREE && p.P < 3) continue;
      if (a == OC_MB_CIRCULANT) { /* where P has a schedule; a few streams, short segments */
        int64_t ns[OC_LP_CIRC_STREAMS];
        c.red.seg = test_range(1, m < OC_LP_CIRC_SEG ? m : OC_LP_CIRC_SEG);
        c.red.degree = 0; /* its best rate */
        if (oc_mb_circ_ok(p.P) != OC_OK || oc_lp_circ_streams(&p, 0, c.red.seg, ns, NULL) == 0) continue;
      }
      check_run(&p, root, m, &c, lb, oc_mbcast_alg_name((oc_mbcast_alg)a));
      c.red.send_first = (int)test_range(0, 1);
      check_exact(&p, root, m, c, lb, oc_mbcast_alg_name((oc_mbcast_alg)a));
      c.red.send_first = 0;
      c.bc.alg = (oc_mbcast_alg)test_range(0, OC_MB_COUNT - 1);
      c.bc.seg = test_range(0, m);
      c.bc.degree = c.red.degree;
      if (c.bc.alg == OC_MB_MULTITREE && p.P < 3) c.bc.alg = OC_MB_CHAIN;
      if (c.bc.alg == OC_MB_MULTITREE && c.bc.degree < 2) c.bc.degree = 2;
      if (c.bc.alg == OC_MB_CIRCULANT) {
        int64_t ns[OC_LP_CIRC_STREAMS];
        c.bc.degree = 0;
        c.bc.seg = 1;
        if (oc_mb_circ_ok(p.P) != OC_OK || oc_lp_circ_streams(&p, 0, 1, ns, NULL) == 0)
          c.bc.alg = OC_MB_CHAIN;
      }
      c.flip = (int)test_range(0, 1);
      check_run(&p, -1, m, &c, alb, "allreduce: reversed + broadcast");
      check_exact(&p, -1, m, c, alb, "allreduce: reversed + broadcast");
    }
    for (int l = 0; l < OC_ML_COUNT; l++) {
      oc_mreduce_info c;
      memset(&c, 0, sizeof c);
      c.family = OC_MR_LIBRED;
      c.lib = (oc_mred_lib)l;
      c.seg = test_range(0, m);
      check_run(&p, root, m, &c, lb, oc_mred_lib_name((oc_mred_lib)l));
    }
    for (int f = OC_MR_RD; f <= OC_MR_CIRCULANT; f++) {
      oc_mreduce_info c;
      memset(&c, 0, sizeof c);
      c.family = (oc_mred_family)f;
      check_run(&p, -1, m, &c, alb, oc_mred_family_name((oc_mred_family)f));
    }
    { /* the spread: packet j reduced to its own processor, then sent on from there */
      oc_mreduce_info c;
      memset(&c, 0, sizeof c);
      c.family = OC_MR_SPREAD;
      c.seg = test_range(0, m);
      check_run(&p, -1, m, &c, alb, "rarest-first spread");
      check_run(&p, root, m, &c, lb, "rarest-first spread + gather");
    }
    { /* ours: halving stopped early; groups + circulant at a random divisor */
      oc_mreduce_info c;
      int64_t q = test_range(1, m < p.P ? m : p.P);
      memset(&c, 0, sizeof c);
      c.family = OC_MR_HYBRID;
      c.seg = test_range(0, 6);
      check_run(&p, -1, m, &c, alb, "halving-doubling");
      while (p.P % q != 0) q--;
      c.family = OC_MR_GROUPS;
      c.seg = q;
      check_run(&p, -1, m, &c, alb, "groups + circulant");
      check_run(&p, root, m, &c, lb, "groups + circulant + gather");
      c.flip = 1;
      check_run(&p, root, m, &c, lb, "groups + reversed karp + gather");
    }
    for (int k = 0; k < 2; k++) {
      int64_t r = k == 0 ? root : -1;
      oc_sched s;
      oc_verdict v;
      oc_sched_init(&s);
      CHECK_OK(oc_mreduce_plan(&p, r, m, OC_MB_BEST, &s, &info));
      CHECK_OK(oc_verify_vreduce(&p, r, m, &s, &v));
      if (!v.ok || v.time != info.time) fail_params(__LINE__, "best", &p, r, m, info.time, v.time);
      if (info.time < (k == 0 ? lb : alb))
        fail_params(__LINE__, "best below the bound", &p, r, m, info.time, k == 0 ? lb : alb);
      if (k == 0 && m == 1 && p.P > 1 && info.time != R)
        fail_params(__LINE__, "one packet: not the optimal reduction", &p, r, m, info.time, R);
      oc_sched_free(&s);
    }
  }
}

/* the reduce rows of `optcast compare reduce`: every library program
 * unsegmented, the pipeline (chain) in segments of one packet, and the
 * defaults' picks for bytes = 16 m (the CM-5 preset's packet) and 2048 m */
static void check_not_slower(const oc_params *p, int64_t root, int64_t m) {
  oc_mreduce_info info;
  CHECK_OK(oc_mreduce_plan(p, root, m, OC_MB_BEST, NULL, &info));
  for (int l = 0; l < OC_ML_COUNT; l++)
    for (int k = 0; k < 2; k++) {
      oc_sched s;
      int64_t t;
      if (k == 1 && l != OC_ML_CHAIN) continue;
      oc_sched_init(&s);
      CHECK_OK(oc_libred_reduce(p, root, m, (oc_mred_lib)l, k, &s, &t));
      if (t < info.time)
        fail_params(__LINE__, oc_mred_lib_name((oc_mred_lib)l), p, root, m, info.time, t);
      oc_sched_free(&s);
    }
  for (int rule = OC_LC_RULE_OMPI; rule <= OC_LC_RULE_MPICH; rule++)
    for (int k = 0; k < 2; k++) {
      oc_mred_lib lib;
      oc_sched s;
      int64_t t;
      CHECK_OK(oc_libred_reduce_select((oc_libcoll_rule)rule, p->P, (k ? 2048 : 16) * m, 8,
                                       &lib));
      CHECK_OK(oc_libred_reduce_runs((oc_libcoll_rule)rule, lib, p->P, (k ? 256 : 2) * m, &lib));
      oc_sched_init(&s);
      CHECK_OK(oc_libred_reduce(p, root, m, lib, 0, &s, &t));
      if (t < info.time) fail_params(__LINE__, "a default", p, root, m, info.time, t);
      oc_sched_free(&s);
    }
  CHECK_OK(oc_mreduce_plan(p, -1, m, OC_MB_BEST, NULL, &info));
  for (int a = 0; a < OC_LR_COUNT; a++) {
    oc_sched s;
    int64_t t;
    oc_sched_init(&s);
    CHECK_OK(oc_libred_allreduce(p, m, (oc_libred_alg)a, &s, &t));
    if (t < info.time)
      fail_params(__LINE__, oc_libred_alg_name((oc_libred_alg)a), p, -1, m, info.time, t);
    oc_sched_free(&s);
  }
}

/* Never slower: on a grid of the four presets' parameters and raw ones
 * (2o > g, o > g, g >= 2o, o = 0), P from 2 to 100, m from 1 to 32, and on
 * random instances, the chosen reduce and allreduce take no longer than
 * any library row. */
void test_mreduce_never_slower(void) {
  int rounds = test_sweep() ? 2000 : (test_valgrind() ? 10 : 120);
  for (int it = 0; it < rounds; it++) {
    oc_params p;
    test_rand_logp(&p, 40);
    check_not_slower(&p, test_range(0, p.P - 1), test_range(1, 12));
  }
  static const int64_t PAR[][3] = {{6, 2, 4},   {74, 15, 11}, {25, 15, 10}, {740, 40, 1},
                                   {3, 2, 1},   {1, 3, 2},    {5, 1, 4},    {4, 0, 1},
                                   {0, 2, 3}};
  static const int64_t PS[] = {2, 3, 8, 13, 64, 100};
  size_t nps = test_valgrind() ? 3 : sizeof PS / sizeof PS[0];
  static const int64_t MS[] = {1, 2, 5, 16, 32};
  size_t nms = test_valgrind() ? 3 : sizeof MS / sizeof MS[0];
  for (size_t a = 0; a < sizeof PAR / sizeof PAR[0]; a++)
    for (size_t i = 0; i < nps; i++)
      for (size_t j = 0; j < nms; j++) {
        oc_params p;
        CHECK_OK(oc_params_logp(&p, PS[i], PAR[a][0], PAR[a][1], PAR[a][2]));
        check_not_slower(&p, PS[i] / 3, MS[j]);
      }
}

/* Damaged schedules are rejected: a message of a processor that has
 * received that packet moved to time 0 (it would carry less than it
 * should), the next send of a sender moved one unit after the previous
 * one's start (into its overhead or its gap), a message dropped. */
void test_mreduce_mutants(void) {
  int tried[3] = {0, 0, 0};
  int rounds = test_valgrind() ? 90 : 300;
  for (int it = 0; it < rounds; it++) {
    oc_params p;
    oc_sched s;
    oc_verdict v;
    oc_mreduce_info info;
    int64_t m, root;
    size_t i, n;
    test_rand_logp(&p, 24);
    if (p.P < 3) continue;
    m = test_range(1, 6);
    root = it % 2 ? test_range(0, p.P - 1) : -1;
    oc_sched_init(&s);
    CHECK_OK(oc_mreduce_plan(&p, root, m, OC_MB_BEST, &s, &info));
    n = s.n;
    i = (size_t)test_range(0, (int64_t)n - 1);
    switch (it % 3) {
    case 0: { /* a sender that received the packet earlier (an add): sent at 0 */
      size_t k, j = n;
      for (k = 0; k < n && j == n; k++) {
        size_t c = (i + k) % n;
        for (size_t x = 0; x < n; x++)
          if (s.msg[x].dst == s.msg[c].src && s.msg[x].item == s.msg[c].item &&
              s.msg[x].t < s.msg[c].t && (s.copy == NULL || !s.copy[x]) && s.msg[c].t > 0 &&
              s.hist == NULL) {
            j = c;
            break;
          }
      }
      if (j == n) break;
      s.msg[j].t = 0;
      tried[0]++;
      CHECK_OK(oc_verify_vreduce(&p, root, m, &s, &v));
      if (v.ok) fail_params(__LINE__, "early partial accepted", &p, root, m, (int64_t)j, 0);
      break;
    }
    case 1: { /* the next send of the same sender, one unit after the previous one's start */
      size_t j;
      for (j = i + 1; j < n && s.msg[j].src != s.msg[i].src; j++) {
      }
      if (j == n || s.msg[j].t <= s.msg[i].t + 1) break;
      if (p.g <= 1 && p.o <= 1) break; /* one unit later is legal then */
      s.msg[j].t = s.msg[i].t + 1;
      tried[1]++;
      CHECK_OK(oc_verify_vreduce(&p, root, m, &s, &v));
      if (v.ok) fail_params(__LINE__, "crowded send accepted", &p, root, m, s.msg[i].t, s.msg[j].t);
      break;
    }
    default: { /* a dropped message */
      oc_sched d;
      oc_sched_init(&d);
      for (size_t k = 0; k < n; k++)
        if (k != i) {
          CHECK_OK(oc_sched_push(&d, s.msg[k].t, s.msg[k].src, s.msg[k].dst, s.msg[k].item));
        }
      /* the columns, without row i */
      if (s.copy) CHECK_OK(oc_sched_add_col(&d, OC_COL_COPY));
      if (s.seq) CHECK_OK(oc_sched_add_col(&d, OC_COL_SEQ));
      if (s.not_before) CHECK_OK(oc_sched_add_col(&d, OC_COL_NOT_BEFORE));
      if (s.hist) CHECK_OK(oc_sched_add_col(&d, OC_COL_HIST));
      for (size_t k = 0, w = 0; k < n; k++) {
        if (k == i) continue;
        if (s.copy) d.copy[w] = s.copy[k];
        if (s.not_before) d.not_before[w] = s.not_before[k];
        if (s.hist) d.hist[w] = s.hist[k];
        if (s.seq) /* the receiver's later receives move up one */
          d.seq[w] = s.seq[k] - (s.msg[k].dst == s.msg[i].dst && s.seq[k] > s.seq[i]);
        w++;
      }
      tried[2]++;
      CHECK_OK(oc_verify_vreduce(&p, root, m, &d, &v));
      if (v.ok)
        test_failf(__FILE__, __LINE__,
                   "dropped %lld->%lld item %lld accepted: P=%lld L=%lld o=%lld g=%lld m=%lld "
                   "root=%lld",
                   (long long)s.msg[i].src, (long long)s.msg[i].dst, (long long)s.msg[i].item,
                   (long long)p.P, (long long)p.L, (long long)p.o, (long long)p.g,
                   (long long)m, (long long)root);
      oc_sched_free(&d);
      break;
    }
    }
    oc_sched_free(&s);
  }
  for (int k = 0; k < 3; k++) CHECK(tried[k] > 10);
}

/* The groups + circulant carries partial results (the hist column): a
 * message's partial one step older (contributions missing) or one newer
 * (not made yet, or counted twice) is rejected. */
void test_mreduce_hist_mutants(void) {
  int tried = 0;
  int rounds = test_valgrind() ? 40 : 300;
  for (int it = 0; it < rounds; it++) {
    oc_params p;
    oc_sched s;
    oc_verdict v;
    oc_mreduce_info c;
    int64_t t, q = test_range(1, 4), m;
    size_t i;
    test_rand_logp(&p, 40);
    p.P = q * test_range(2, 12);
    m = q + test_range(0, 2 * q);
    memset(&c, 0, sizeof c);
    c.family = OC_MR_GROUPS;
    c.seg = q;
    oc_sched_init(&s);
    CHECK_OK(oc_mreduce_run(&p, -1, m, &c, &s, &t));
    CHECK(s.hist != NULL);
    CHECK_OK(oc_verify_vreduce(&p, -1, m, &s, &v));
    CHECK(v.ok && v.time == t);
    i = (size_t)test_range(0, (int64_t)s.n - 1);
    for (size_t k = 0; k < s.n && s.hist[i] == 0; k++) i = (i + 1) % s.n;
    if (s.hist[i] > 0) {
      int d = it % 2 ? 1 : -1;
      s.hist[i] = (uint32_t)((int64_t)s.hist[i] + d);
      tried++;
      CHECK_OK(oc_verify_vreduce(&p, -1, m, &s, &v));
      if (v.ok) fail_params(__LINE__, d > 0 ? "newer partial accepted" : "older partial accepted",
                            &p, -1, m, (int64_t)i, d);
    }
    oc_sched_free(&s);
  }
  printf("  hist mutants: %d of %d schedules damaged, all rejected\n", tried, rounds);
  CHECK(tried > rounds / 6); /* most schedules have a message with hist > 0 */
}

/* The vector verifier puts its events in time order by counting when the
 * times are dense (a simulated schedule's are) and by merging its
 * processors' runs when they are not: every schedule, valid or damaged,
 * gets the same verdict at its own times and with every time moved later
 * by a million (sparse: the merge), the times in it moved too.  The
 * damage: a time moved, a receiver or packet changed, add <-> copy,
 * handling orders or partial results swapped. */
void test_vreduce_shift(void) {
  int rounds = test_valgrind() ? 60 : test_sweep() ? 5000 : 600, bad = 0, kinds[3] = {0, 0, 0};
  int rejected = 0;
  const int64_t T = 1000000;
  for (int it = 0; it < rounds; it++) {
    oc_params p;
    oc_sched s;
    oc_verdict a, b;
    oc_mreduce_info c;
    int64_t m = test_range(1, 5), root, t;
    int e;
    test_rand_logp(&p, it % 5 == 0 ? 150 : 30);
    root = it % 2 && p.P > 1 ? test_range(0, p.P - 1) : -1;
    oc_sched_init(&s);
    memset(&c, 0, sizeof c);
    if (it % 3 == 0 && root < 0 && p.P >= 2) { /* partial results (hist) */
      c.family = OC_MR_GROUPS;
      c.seg = test_range(1, p.P < 4 ? p.P : 4);
      while (p.P % c.seg) c.seg--;
      e = oc_mreduce_run(&p, -1, m, &c, &s, &t);
      if (e == OC_EINVAL) { /* (no such grouping here) */
        oc_sched_free(&s);
        oc_sched_init(&s);
        e = oc_mreduce_plan(&p, root, m, OC_MB_BEST, &s, &c);
      }
    } else {
      e = oc_mreduce_plan(&p, root, m, OC_MB_BEST, &s, &c);
    }
    CHECK_OK(e);
    kinds[s.hist != NULL ? 2 : s.seq != NULL ? 1 : 0]++;
    for (int k = 0; s.n > 0 && k < it % 4; k++) {
      size_t i = (size_t)test_range(0, (int64_t)s.n - 1), j = (size_t)test_range(0, (int64_t)s.n - 1);
      bad++;
      switch (test_range(0, 5)) {
      case 0: s.msg[i].t = s.msg[j].t; break;
      case 1: s.msg[i].dst = test_range(0, p.P - 1); break;
      case 2: s.msg[i].item = test_range(0, m - 1); break;
      case 3: if (s.copy != NULL) s.copy[i] ^= 1; break;
      case 4: if (s.seq != NULL) { uint32_t x = s.seq[i]; s.seq[i] = s.seq[j]; s.seq[j] = x; } break;
      default: if (s.hist != NULL) { uint32_t x = s.hist[i]; s.hist[i] = s.hist[j]; s.hist[j] = x; } break;
      }
    }
    CHECK_OK(oc_verify_vreduce(&p, root, m, &s, &a));
    rejected += !a.ok;
    for (size_t i = 0; i < s.n; i++) {
      s.msg[i].t += T;
      if (s.not_before != NULL) s.not_before[i] += T;
    }
    CHECK_OK(oc_verify_vreduce(&p, root, m, &s, &b));
    if (a.ok != b.ok || (a.ok && b.time != (s.n > 0 ? a.time + T : a.time)) ||
        (!a.ok && (a.rule != b.rule || a.proc != b.proc || a.item != b.item || a.msg != b.msg ||
                   b.at != (a.at == OC_AT_END ? OC_AT_END : a.at + T))))
      fail_params(__LINE__, "verdict moved", &p, root, m, a.ok ? a.time : (int64_t)a.rule,
                  b.ok ? b.time : (int64_t)b.rule);
    oc_sched_free(&s);
  }
  printf("  %d schedules (%d plain, %d with handling orders, %d with partial results), %d "
         "changes, %d rejected: the same verdicts a million units later\n", rounds, kinds[0],
         kinds[1], kinds[2], bad, rejected);
  CHECK(kinds[1] > 0 && kinds[2] > 0 && rejected > rounds / 10 && rejected < rounds - rounds / 10);
  { /* an earliest handling past the latest time, or an addition of 2^41 units:
       refused (handling times would leave the range) */
    oc_params p;
    oc_sched s;
    oc_verdict v;
    CHECK_OK(oc_params_logp(&p, 2, 3, 1, 2));
    oc_sched_init(&s);
    CHECK_OK(oc_sched_push(&s, 0, 1, 0, 0));
    CHECK_OK(oc_sched_add_col(&s, OC_COL_NOT_BEFORE));
    s.not_before[0] = OC_TIME_MAX;
    CHECK_OK(oc_verify_vreduce(&p, 0, 1, &s, &v));
    CHECK(v.ok && v.time == OC_TIME_MAX + p.unit);
    s.not_before[0] = INT64_MAX;
    CHECK_EQ(oc_verify_vreduce(&p, 0, 1, &s, &v), OC_ERANGE);
    s.not_before[0] = 0;
    p.unit = OC_PARAM_MAX + 1;
    CHECK_EQ(oc_verify_vreduce(&p, 0, 1, &s, &v), OC_ERANGE);
    oc_sched_free(&s);
  }
}

/* The reduction simulator timing alone (no schedule written: how the
 * planner's search times its candidates) gives the time of the schedule it
 * writes, which the verifier accepts at that time; and its event calendar
 * (oc_rprog.c) takes events in the order of a plain heap (calendar = 1):
 * the same messages, at the same times, in the same order.  Parameters
 * that push the calendar to each case: latencies past its 2^16 buckets
 * (every arrival in the overflow heap), queues far ahead (linear, one
 * receiver for P - 1 senders), one processor; and its ring of receive
 * overheads on and off (P K against the messages). */
static int same_sched(const oc_sched *a, const oc_sched *b) {
  if (a->n != b->n) return 0;
  for (size_t i = 0; i < a->n; i++)
    if (a->msg[i].t != b->msg[i].t || a->msg[i].src != b->msg[i].src ||
        a->msg[i].dst != b->msg[i].dst || a->msg[i].item != b->msg[i].item ||
        a->not_before[i] != b->not_before[i])
      return 0;
  return 1;
}

void test_rprog_time_only(void) {
  int rounds = test_sweep() ? 3000 : (test_valgrind() ? 30 : 300);
  static const oc_mred_family FAM[] = {OC_MR_REVERSED, OC_MR_LIBRED, OC_MR_RD, OC_MR_RING,
                                       OC_MR_RABEN, OC_MR_REDBCAST, OC_MR_LINEAR,
                                       OC_MR_SPREAD, OC_MR_HYBRID, OC_MR_GROUPS};
  int ran = 0, far = 0;
  for (int it = 0; it < rounds; it++) {
    oc_params p;
    oc_mreduce_info c;
    oc_sched s;
    oc_verdict v;
    int64_t L, m, root, t1 = -1, t2 = -1;
    int e1, e2, k = it % 3;
    L = k == 0 ? test_range(0, 12) : k == 1 ? test_range(100, 5000) : test_range(70000, 300000);
    if (oc_params_logp(&p, it % 29 == 0 ? test_range(257, 700) : test_range(1, it % 7 == 0 ? 60 : 12),
                       L, test_range(0, 6), test_range(1, 8)) != OC_OK)
      continue; /* (P > 256: batches sorted on two bytes) */
    m = test_range(1, p.P > 256 ? 3 : 12);
    memset(&c, 0, sizeof c);
    c.family = FAM[test_range(0, (int64_t)(sizeof FAM / sizeof FAM[0]) - 1)];
    root = c.family == OC_MR_LIBRED || (c.family == OC_MR_REVERSED && test_range(0, 1))
               ? test_range(0, p.P - 1) : -1;
    c.lib = (oc_mred_lib)test_range(0, OC_ML_COUNT - 1);
    c.seg = c.family == OC_MR_GROUPS ? test_range(1, m) : test_range(0, m);
    if (c.family == OC_MR_HYBRID) c.seg = test_range(0, 3);
    c.red.alg = (oc_mbcast_alg)test_range(0, OC_MB_COUNT - 1);
    if (c.red.alg == OC_MB_CIRCULANT || (c.red.alg == OC_MB_MULTITREE && p.P < 3))
      c.red.alg = OC_MB_BINOMIAL;
    c.red.seg = test_range(0, m);
    c.red.degree = p.P > 2 ? test_range(2, p.P - 1) : 2;
    c.bc = c.red;
    e1 = oc_mreduce_run(&p, root, m, &c, NULL, &t1);
    oc_sched_init(&s);
    e2 = oc_mreduce_run(&p, root, m, &c, &s, &t2);
    if (e1 != e2 || (e1 == OC_OK && t1 != t2))
      fail_params(__LINE__, "the time alone is not the schedule's", &p, root, m, t1, t2);
    if (e2 == OC_OK && c.family != OC_MR_CIRCULANT) { /* the reference order */
      oc_rprog b;
      oc_sched h;
      int64_t t3 = -1;
      oc_sched_init(&h);
      CHECK_OK(oc_mreduce_prog(&p, root, m, &c, &b));
      b.calendar = 1;
      CHECK_OK(oc_rprog_run(&p, &b, root, &h, &t3));
      if (t3 != t2 || !same_sched(&s, &h))
        fail_params(__LINE__, "not the heap's order", &p, root, m, t2, t3);
      oc_rprog_free(&b);
      oc_sched_free(&h);
    }
    if (e2 == OC_OK) {
      CHECK_OK(oc_verify_vreduce(&p, root, m, &s, &v));
      if (!v.ok || v.time != t2) {
        printf("    family %d: %s\n", (int)c.family, v.detail);
        fail_params(__LINE__, "time alone: rejected", &p, root, m, t2, v.time);
      }
      ran++;
      far += k == 2 && p.P > 1;
    } else if (e2 != OC_ERANGE && e2 != OC_EINVAL) {
      fail_params(__LINE__, "time alone: error", &p, root, m, e2, 0);
    }
    oc_sched_free(&s);
  }
  printf("    %d of %d programs ran, %d with latencies past the calendar\n", ran, rounds, far);
  CHECK(ran > rounds / 3);
  CHECK(far > rounds / 20); /* (the overflow heap did run) */
}

/* The lower bound from its four definitions (oc_mreduce.c), the universal
 * tree's labels enumerated node by node (tests/brute.c) and T scanned one
 * unit at a time; and the arguments' checks. */
void test_mreduce_bound_formula(void) {
  for (int it = 0; it < 400; it++) {
    oc_params p;
    int64_t m = test_range(1, 300), lb, R1, r2, r3, r4 = -1, G, h, S = 0, n, want, *lab;
    test_rand_logp(&p, it % 5 == 0 ? 2000 : 60);
    CHECK_OK(oc_mreduce_bound(&p, m, &lb, NULL));
    if (p.P < 2) {
      CHECK_EQ(lb, 0);
      continue;
    }
    CHECK_OK(oc_reduce_time(&p, &R1));
    G = p.g > p.o ? p.g : p.o;
    h = p.L + 2 * p.o;
    n = m * (p.P - 1);
    r2 = h + (m - 1) * G;
    r3 = (n * (2 * p.o + 1) + p.P - 1) / p.P;
    lab = brute_smallest_labels(p.P, h, G);
    for (int64_t q = 1; q < p.P; q++) S += lab[q];
    free(lab);
    for (int64_t T = h;; T++) {
      int64_t R = (T - h) / G + 1;
      if (R > n) R = n;
      if ((p.P - 1) * (T + p.o) - S >= n * p.o + (n - R) * (p.o + 1)) {
        r4 = T;
        break;
      }
    }
    want = R1 > r2 ? R1 : r2;
    if (r3 > want) want = r3;
    if (r4 > want) want = r4;
    if (lb != want) fail_params(__LINE__, "bound", &p, 0, m, lb, want);
  }
  {
    oc_params p;
    oc_mreduce_info info;
    int64_t t;
    CHECK_OK(oc_params_logp(&p, 8, 6, 2, 4));
    CHECK_EQ(oc_mreduce_plan(&p, 8, 4, OC_MB_BEST, NULL, &info), OC_EINVAL);
    CHECK_EQ(oc_mreduce_plan(&p, -2, 4, OC_MB_BEST, NULL, &info), OC_EINVAL);
    CHECK_EQ(oc_mreduce_plan(&p, 0, 0, OC_MB_BEST, NULL, &info), OC_EINVAL);
    CHECK_EQ(oc_mreduce_plan(&p, 0, OC_MREDUCE_MAX, OC_MB_BEST, NULL, &info), OC_ERANGE);
    memset(&info, 0, sizeof info);
    info.family = OC_MR_RING; /* allreduce only */
    CHECK_EQ(oc_mreduce_run(&p, 0, 4, &info, NULL, &t), OC_EINVAL);
    info.family = OC_MR_LIBRED; /* reduce only */
    CHECK_EQ(oc_mreduce_run(&p, -1, 4, &info, NULL, &t), OC_EINVAL);
    info.lib = OC_ML_COUNT;
    CHECK_EQ(oc_mreduce_run(&p, 0, 4, &info, NULL, &t), OC_EINVAL);
    CHECK_EQ(oc_mreduce_bound(&p, 0, &t, NULL), OC_EINVAL);
  }
}

/* The libraries' default reduce picks at a few points of their tables
 * (oc_libred.c's transcriptions): Open MPI's by communicator size and
 * bytes, MPICH's short / long rule. */
void test_mreduce_select(void) {
  static const struct {
    int rule;
    int64_t P, bytes, elem;
    oc_mred_lib want;
  } C[] = {
      {OC_LC_RULE_OMPI, 2, 4, 8, OC_ML_RABEN},       {OC_LC_RULE_OMPI, 3, 100, 8, OC_ML_LINEAR},
      {OC_LC_RULE_OMPI, 3, 600000, 8, OC_ML_CHAIN},  {OC_LC_RULE_OMPI, 8, 100, 8, OC_ML_BINARY},
      {OC_LC_RULE_OMPI, 8, 10000, 8, OC_ML_BMTREE},  {OC_LC_RULE_OMPI, 64, 1, 8, OC_ML_BMTREE},
      {OC_LC_RULE_OMPI, 300, 10000, 8, OC_ML_INORDER}, {OC_LC_RULE_OMPI, 5000, 20, 8, OC_ML_INORDER},
      {OC_LC_RULE_OMPI, 5000, INT64_MAX, 8, OC_ML_BMTREE},
      {OC_LC_RULE_MPICH, 8, 2048, 8, OC_ML_BINOMIAL}, {OC_LC_RULE_MPICH, 8, 4096, 8, OC_ML_RABEN},
      {OC_LC_RULE_MPICH, 8, 4096, 1024, OC_ML_BINOMIAL},
  };
  for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
    oc_mred_lib got;
    CHECK_OK(oc_libred_reduce_select((oc_libcoll_rule)C[i].rule, C[i].P, C[i].bytes, C[i].elem,
                                     &got));
    if (got != C[i].want)
      test_failf(__FILE__, __LINE__, "case %zu: %s, want %s", i, oc_mred_lib_name(got),
                 oc_mred_lib_name(C[i].want));
  }
  {
    oc_mred_lib got;
    CHECK_OK(oc_libred_reduce_runs(OC_LC_RULE_OMPI, OC_ML_RABEN, 3, 1, &got));
    CHECK_EQ(got, OC_ML_LINEAR); /* 1 element < pof2 = 2 */
    CHECK_OK(oc_libred_reduce_runs(OC_LC_RULE_OMPI, OC_ML_RABEN, 3, 2, &got));
    CHECK_EQ(got, OC_ML_RABEN);
    CHECK_OK(oc_libred_reduce_runs(OC_LC_RULE_MPICH, OC_ML_RABEN, 3, 1, &got));
    CHECK_EQ(got, OC_ML_RABEN);
    CHECK_EQ(oc_libred_reduce_select(OC_LC_RULE_OMPI, 0, 8, 8, &got), OC_EINVAL);
    CHECK_EQ(oc_libred_reduce_select((oc_libcoll_rule)7, 8, 8, 8, &got), OC_EINVAL);
  }
}

/* plan -> the vector CSV form -> read back -> the same verdict and time;
 * and the reader's refusals */
void test_mreduce_csv(void) {
  for (int it = 0; it < 60; it++) {
    oc_params p;
    oc_sched s, back;
    oc_verdict v;
    oc_mreduce_info info;
    int64_t m, root;
    char *buf = NULL, err[200];
    size_t len = 0;
    FILE *f;
    test_rand_logp(&p, 16);
    m = test_range(1, 4);
    root = it % 2 ? test_range(0, p.P - 1) : -1;
    oc_sched_init(&s);
    oc_sched_init(&back);
    CHECK_OK(oc_mreduce_plan(&p, root, m, OC_MB_BEST, &s, &info));
    CHECK_OK(oc_sched_sort(&s));
    f = open_memstream(&buf, &len);
    CHECK(f != NULL);
    CHECK_OK(oc_sched_write_csv(f, &s, &p));
    CHECK(fclose(f) == 0);
    CHECK_OK(oc_sched_read_csv_vector(buf, len, &p, &back, err, sizeof err));
    CHECK_OK(oc_verify_vreduce(&p, root, m, &back, &v));
    if (!v.ok || v.time != info.time) fail_params(__LINE__, "csv", &p, root, m, v.time, info.time);
    free(buf);
    oc_sched_free(&s);
    oc_sched_free(&back);
  }
  {
    static const char *const BAD[] = {
        "time,src,dst,item,op,seq,not_before,hist\n0,1,0,0,mul,-,-,-\n",
        "time,src,dst,item,op,seq,not_before,hist\n0,1,0,0,add,0,-,-\n2,2,0,0,add,-,-,-\n",
        "time,src,dst,item,op,seq,not_before,hist\n0,1,0,0,add,x,-,-\n",
        "time,src,dst,item,op,seq,not_before\n0,1,0,0,add,0,0\n",
        "time,src,dst,item,op,seq,not_before,hist\n0,1,0,0,add,-,-\n"};
    oc_params p;
    { /* a wrong value copied over a right one of the same size (a review's
         find): packet 0 ends as {1, 2, 2} at the root */
      static const char WRONG[] = "time,src,dst,item,op,seq,not_before,hist\n"
                                  "0,2,1,0,add,-,-,-\n2,1,2,0,add,-,-,-\n3,1,0,0,add,-,-,-\n"
                                  "4,2,0,0,copy,-,-,-\n6,1,0,1,add,-,-,-\n7,2,0,1,add,-,-,-\n";
      char buf[sizeof WRONG], err[200];
      oc_sched s;
      oc_verdict v;
      memcpy(buf, WRONG, sizeof WRONG);
      oc_sched_init(&s);
      CHECK_OK(oc_params_logp(&p, 3, 1, 0, 1));
      CHECK_OK(oc_sched_read_csv_vector(buf, strlen(buf), &p, &s, err, sizeof err));
      CHECK_OK(oc_verify_vreduce(&p, 0, 2, &s, &v));
      CHECK(!v.ok && v.rule == OC_RULE_RESULT && v.proc == 0);
      oc_sched_free(&s);
    }
    CHECK_OK(oc_params_logp(&p, 3, 2, 1, 1));
    for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; k++) {
      oc_sched s;
      char buf[256], err[200];
      snprintf(buf, sizeof buf, "%s", BAD[k]);
      oc_sched_init(&s);
      CHECK_EQ(oc_sched_read_csv_vector(buf, strlen(buf), &p, &s, err, sizeof err), OC_EPARSE);
      CHECK(strstr(err, "row") != NULL);
      oc_sched_free(&s);
    }
  }
}

/* A rank's view of a reversed construction (oc_mreduce_rank) against the
 * global schedule (oc_mreduce_run): the same sends and receptions as sets,
 * for reduce and allreduce; a reduce's receptions in the order the
 * program handles them (seq). */
typedef struct vkey {
  int64_t peer, item, kind;
} vkey;
static int vkey_cmp(const void *a, const void *b) {
  const vkey *x = (const vkey *)a, *y = (const vkey *)b;
  if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
  if (x->peer != y->peer) return x->peer < y->peer ? -1 : 1;
  return (x->item > y->item) - (x->item < y->item);
}

static int exec_views(const oc_params *p, int64_t root, int64_t m, const oc_mreduce_info *c,
                      char *why, size_t nwhy);

/* sends of rank r's view whose message (the schedule's, by peer and
 * packet: a reduce sends each once) starts before an earlier one's */
static int64_t late_sends(const oc_sched *s, int64_t r, const oc_mb_rank *view) {
  int64_t last = -1, late = 0;
  for (size_t i = 0; i < view->n; i++)
    for (int64_t x = 0; view->step[i].kind == OC_MB_SEND && x < view->step[i].len; x++)
      for (size_t k = 0; k < s->n; k++)
        if (s->msg[k].src == r && s->msg[k].dst == view->step[i].peer &&
            s->msg[k].item == view->step[i].item + x) {
          late += s->msg[k].t < last;
          last = oc_max64(last, s->msg[k].t);
        }
  return late;
}

void test_mreduce_rank_views(void) {
  static const oc_mbcast_alg ALGS[] = {OC_MB_KARP,     OC_MB_CHAIN,   OC_MB_BINARY,
                                       OC_MB_BINOMIAL, OC_MB_TWOTREE, OC_MB_MULTITREE,
                                       OC_MB_CIRCULANT, OC_MB_PIPELINE};
  int rounds = test_sweep() ? 2000 : (test_valgrind() ? 40 : 200), circ = 0;
  int tt_sends = 0, tt_late = 0;
  for (int it = 0; it < rounds; it++) {
    oc_params p;
    oc_mreduce_info c;
    oc_sched s;
    oc_mb_rank view;
    int64_t m, root, t;
    test_rand_logp(&p, it % 10 == 0 ? 100 : 20);
    m = test_range(1, 8);
    root = it % 3 == 0 ? -1 : test_range(0, p.P - 1);
    memset(&c, 0, sizeof c);
    c.family = OC_MR_REVERSED;
    c.red.alg = ALGS[it % 7];
    c.red.seg = test_range(0, m);
    c.red.degree = p.P > 2 ? test_range(2, p.P - 1 < 64 ? p.P - 1 : 64) : 2;
    c.bc = c.red;
    c.bc.alg = ALGS[(it / 7) % 7];
    if (c.red.alg == OC_MB_CIRCULANT) { /* its streams, short segments */
      c.red.degree = 0;
      c.red.seg = test_range(1, m < 4 ? m : 4);
    }
    if (c.bc.alg == OC_MB_CIRCULANT) {
      c.bc.degree = 0;
      c.bc.seg = test_range(1, m < 4 ? m : 4);
    }
    c.flip = (int)test_range(0, 1);
    if (it % 2 == 1) { /* the broadcast with the additions in its sends, times kept */
      c.exact = 1;
      c.red.sx = p.unit;
    }
    if ((c.red.alg == OC_MB_MULTITREE || c.bc.alg == OC_MB_MULTITREE) && p.P < 3) continue;
    oc_sched_init(&s);
    if ((c.red.alg == OC_MB_CIRCULANT || c.bc.alg == OC_MB_CIRCULANT) &&
        oc_mreduce_run(&p, root, m, &c, NULL, &t) == OC_ERANGE) { /* no slots for these */
      oc_sched_free(&s);
      continue;
    }
    CHECK_OK(oc_mreduce_run(&p, root, m, &c, &s, &t));
    circ += c.red.alg == OC_MB_CIRCULANT || (root < 0 && c.bc.alg == OC_MB_CIRCULANT);
    memset(&view, 0, sizeof view);
    for (int64_t r = 0; r < p.P; r++) {
      size_t cap = s.n + 1, ng = 0, nv = 0, ngr = 0, nvr = 0;
      vkey *g = (vkey *)malloc(cap * sizeof *g), *v = (vkey *)malloc((cap + (size_t)m) * sizeof *v);
      int64_t *gr = (int64_t *)malloc(cap * 2 * sizeof *gr), *vr = (int64_t *)malloc(cap * 2 * sizeof *vr);
      CHECK(g && v && gr && vr);
      for (size_t i = 0; i < s.n; i++) {
        if (s.msg[i].src == r) g[ng++] = (vkey){s.msg[i].dst, s.msg[i].item, OC_MB_SEND};
        if (s.msg[i].dst == r) g[ng++] = (vkey){s.msg[i].src, s.msg[i].item, OC_MB_RECV};
      }
      /* the reduce's receptions by seq: (peer, item) in handling order */
      if (root >= 0)
        for (uint32_t q = 0;; q++) {
          size_t i;
          for (i = 0; i < s.n && !(s.msg[i].dst == r && s.seq[i] == q); i++) {
          }
          if (i == s.n) break;
          gr[2 * ngr] = s.msg[i].src;
          gr[2 * ngr++ + 1] = s.msg[i].item;
        }
      CHECK_OK(oc_mreduce_rank(&p, root, m, &c, r, &view));
      for (size_t i = 0; i < view.n; i++)
        for (int64_t x = 0; x < view.step[i].len; x++) {
          int64_t item = view.step[i].kind == OC_MB_RECV && root >= 0
                             ? view.step[i].item + view.step[i].len - 1 - x /* backwards */
                             : view.step[i].item + x;
          CHECK(nv < cap + (size_t)m);
          v[nv++] = (vkey){view.step[i].peer, item, view.step[i].kind};
          if (view.step[i].kind == OC_MB_RECV && root >= 0) {
            vr[2 * nvr] = view.step[i].peer;
            vr[2 * nvr++ + 1] = item;
          }
        }
      qsort(g, ng, sizeof *g, vkey_cmp);
      qsort(v, nv, sizeof *v, vkey_cmp);
      if (ng != nv || memcmp(g, v, ng * sizeof *g) != 0)
        test_failf(__FILE__, __LINE__, "%s rank %lld: %zu/%zu steps differ; P=%lld m=%lld seg=%lld root=%lld",
                   oc_mbcast_alg_name(c.red.alg), (long long)r, ng, nv, (long long)p.P,
                   (long long)m, (long long)c.red.seg, (long long)root);
      if (root >= 0 && c.red.alg == OC_MB_TWOTREE) {
        /* the reversed two-tree's sends against the schedule's times: the
         * view estimates the program's order; read off the whole program
         * (whole) it is that order */
        oc_mreduce_info cw = c;
        oc_mb_rank wv;
        memset(&wv, 0, sizeof wv);
        cw.whole = 1;
        CHECK_OK(oc_mreduce_rank(&p, root, m, &cw, r, &wv));
        tt_late += late_sends(&s, r, &view) > 0;
        CHECK_EQ(late_sends(&s, r, &wv), 0);
        tt_sends++;
        oc_mb_rank_free(&wv);
      }
      if (root >= 0 && (ngr != nvr || memcmp(gr, vr, 2 * ngr * sizeof *gr) != 0))
        test_failf(__FILE__, __LINE__, "%s rank %lld: the receptions' order differs; P=%lld m=%lld seg=%lld",
                   oc_mbcast_alg_name(c.red.alg), (long long)r, (long long)p.P, (long long)m,
                   (long long)c.red.seg);
      free(g);
      free(v);
      free(gr);
      free(vr);
    }
    if (p.P <= 64) { /* all views run together compute the reduction */
      char why[160];
      if (!exec_views(&p, root, m, &c, why, sizeof why))
        test_failf(__FILE__, __LINE__, "%s + %s: views run as programs: %s; P=%lld m=%lld root=%lld L=%lld o=%lld g=%lld unit=%lld seg=%lld deg=%lld flip=%d exact=%d sx=%lld",
                   oc_mbcast_alg_name(c.red.alg), oc_mbcast_alg_name(c.bc.alg), why,
                   (long long)p.P, (long long)m, (long long)root, (long long)p.L, (long long)p.o, (long long)p.g, (long long)p.unit, (long long)c.red.seg, (long long)c.red.degree, c.flip, c.exact, (long long)c.red.sx);
    }
    oc_mb_rank_free(&view);
    oc_sched_free(&s);
  }
  printf("  %d instances with the circulant, forwards or backwards\n", circ);
  printf("  reversed two-tree: %d of %d ranks' sends out of the schedule's time order (the "
         "estimate); none read off the whole program\n", tt_late, tt_sends);
  CHECK(circ > rounds / 20); /* (the circulant reduces in every seventh; some refused) */
  { /* the reversed two-tree's estimated order once deadlocked here (ranks 3
     * and 4 each receiving from the other first): each message's estimate
     * is now its receiver's arrival at both ends */
    oc_params p;
    oc_mreduce_info c;
    char why[160];
    CHECK_OK(oc_params_logp(&p, 6, 1, 1, 5));
    memset(&c, 0, sizeof c);
    c.family = OC_MR_REVERSED;
    c.red.alg = OC_MB_TWOTREE;
    c.red.seg = 1;
    c.red.degree = 2;
    c.bc = c.red;
    for (int64_t root = 0; root < 6; root++)
      if (!exec_views(&p, root, 4, &c, why, sizeof why))
        test_failf(__FILE__, __LINE__, "P=6 m=4 root=%lld: %s", (long long)root, why);
  }
  {
    oc_params p;
    oc_mreduce_info c;
    oc_mb_rank view;
    memset(&c, 0, sizeof c);
    memset(&view, 0, sizeof view);
    CHECK_OK(oc_params_logp(&p, 8, 6, 2, 4));
    c.family = OC_MR_REVERSED; /* the scatters: read off the whole program */
    c.red.alg = OC_MB_SCATTER_RD;
    CHECK_OK(oc_mreduce_rank(&p, 0, 4, &c, 0, &view));
    CHECK(view.n > 0);
    c.red.alg = OC_MB_COUNT;
    CHECK_EQ(oc_mreduce_rank(&p, 0, 4, &c, 0, &view), OC_EINVAL);
    oc_mb_rank_free(&view);
  }
}

/* A rank's view of a reduction program (oc_mreduce_rank: recursive
 * doubling, Rabenseifner, halving-doubling, the ring, reduce + broadcast,
 * linear, groups-circulant in its three forms) against the global schedule
 * (oc_mreduce_run): its sends as a multiset of (peer, packet, copy, hist),
 * in an order the schedule's times keep; its receptions exactly, in the
 * order its program handles them (the seq column), with the copy flag. */
typedef struct pkey {
  int64_t peer, item, copy, hist, t;
} pkey;
static int pkey_cmp(const void *a, const void *b) {
  const pkey *x = (const pkey *)a, *y = (const pkey *)b;
  if (x->peer != y->peer) return x->peer < y->peer ? -1 : 1;
  if (x->item != y->item) return x->item < y->item ? -1 : 1;
  if (x->copy != y->copy) return x->copy < y->copy ? -1 : 1;
  return (x->hist > y->hist) - (x->hist < y->hist);
}

static void prog_view_check(const oc_params *p, int64_t root, int64_t m,
                            const oc_mreduce_info *c, const oc_sched *s, int64_t r,
                            oc_mb_rank *view, const char *what) {
  size_t cap = s->n + 1, ng = 0, nv = 0, ngr = 0, nvr = 0;
  pkey *g = (pkey *)malloc(cap * sizeof *g), *v = (pkey *)malloc(cap * sizeof *v);
  pkey *gr = (pkey *)malloc(cap * sizeof *gr), *vr = (pkey *)malloc(cap * sizeof *vr);
  int64_t last = -1, ok = 1;
  CHECK(g && v && gr && vr);
  for (size_t i = 0; i < s->n; i++) {
    int64_t copy = s->copy ? s->copy[i] : 0;
    if (s->msg[i].src == r)
      g[ng++] = (pkey){s->msg[i].dst, s->msg[i].item, copy, s->hist ? (int64_t)s->hist[i] : -1,
                       s->msg[i].t};
    if (s->msg[i].dst == r) { /* by seq, or without it (the circulant, karp) by arrival */
      size_t at = s->seq ? s->seq[i] : ngr;
      CHECK(at < cap);
      if (at < cap) gr[at] = (pkey){s->msg[i].src, s->msg[i].item, copy, 0, s->msg[i].t};
      ngr++;
    }
  }
  if (s->seq == NULL) { /* arrival order: insertion sort by send time (they differ) */
    for (size_t i = 1; i < ngr; i++)
      for (size_t j = i; j > 0 && gr[j - 1].t > gr[j].t; j--) {
        pkey tmp = gr[j];
        gr[j] = gr[j - 1];
        gr[j - 1] = tmp;
      }
  }
  for (size_t i = 0; i < ngr; i++) gr[i].t = 0;
  CHECK_OK(oc_mreduce_rank(p, root, m, c, r, view));
  CHECK(view->rank == r);
  for (size_t i = 0; i < view->n; i++)
    for (int64_t x = 0; x < view->step[i].len; x++) {
      const oc_mb_step *st = &view->step[i];
      pkey k = {st->peer, st->item + x, st->copy, st->kind == OC_MB_SEND ? st->hist : 0, 0};
      if (st->kind == OC_MB_SEND && nv < cap) {
        /* the earliest unmatched message of the schedule with this key */
        size_t best = cap;
        for (size_t j = 0; j < ng; j++)
          if (g[j].t >= 0 && pkey_cmp(&g[j], &k) == 0 && (best == cap || g[j].t < g[best].t))
            best = j;
        if (best == cap) ok = 0;
        else {
          if (g[best].t < last) ok = 0;
          last = g[best].t;
          v[nv] = g[best];
          g[best].t = -1; /* used */
        }
        nv++;
      } else if (st->kind == OC_MB_RECV && nvr < cap) {
        vr[nvr++] = k;
      }
    }
  if (!ok || nv != ng || ngr != nvr || memcmp(gr, vr, ngr * sizeof *gr) != 0)
    test_failf(__FILE__, __LINE__,
               "%s seg %lld flip %d rank %lld: sends %zu/%zu%s, receptions %zu/%zu%s; P=%lld "
               "m=%lld root=%lld",
               what, (long long)c->seg, c->flip, (long long)r, nv, ng, ok ? "" : " (mismatch)",
               nvr, ngr, (ngr == nvr && memcmp(gr, vr, ngr * sizeof *gr) == 0) ? "" : " differ",
               (long long)p->P, (long long)m, (long long)root);
  free(g);
  free(v);
  free(gr);
  free(vr);
}

/* Every rank's view run as a program, the way a runtime would (P <= 64:
 * values are sets of ranks as bit masks): ranks take turns, each running its
 * steps in order while it can; a send puts its value (the rank's value of
 * that packet now, or as it was after hist of its messages) in flight, a
 * reception takes the oldest matching one in flight from its peer, and adds
 * it (the sets must be disjoint: nothing counted twice) or copies it.  At
 * the end no step is left (no deadlock), nothing is in flight, and every
 * rank (allreduce) or the root holds every rank's value of every packet. */
typedef struct xmsg {
  int64_t src, dst, item;
  uint64_t val;
  int live;
} xmsg;
static int exec_views(const oc_params *p, int64_t root, int64_t m, const oc_mreduce_info *c,
                      char *why, size_t nwhy) {
  size_t P = p->P >= 1 && p->P <= 64 ? (size_t)p->P : 0, mm = m >= 1 && m <= 64 ? (size_t)m : 0;
  oc_mb_rank *v = (oc_mb_rank *)calloc(P, sizeof *v);
  size_t *pc = (size_t *)calloc(P, sizeof *pc), nmsg = 0, nh = 0, tot = 0;
  int64_t *off = (int64_t *)calloc(P, sizeof *off); /* packet offset inside a step */
  uint64_t *val = (uint64_t *)malloc(P * mm * sizeof *val + 1), all;
  xmsg *fl = NULL;
  struct hrec { int64_t x, j; uint64_t val; } *hs = NULL; /* history */
  int ok = P > 0 && mm > 0, progress = 1;
  snprintf(why, nwhy, ok ? "ok" : "P or m out of the test's range");
  all = P == 64 ? ~(uint64_t)0 : (((uint64_t)1 << P) - 1);
  if (!v || !pc || !off || !val) { ok = 0; snprintf(why, nwhy, "no memory"); }
  for (int64_t x = 0; x < (int64_t)P && ok; x++) {
    if (oc_mreduce_rank(p, root, m, c, x, &v[x]) != OC_OK) { ok = 0; snprintf(why, nwhy, "no view"); }
    for (int64_t j = 0; j < m; j++) val[x * m + j] = (uint64_t)1 << x;
    for (size_t i = 0; ok && i < v[x].n; i++) tot += (size_t)v[x].step[i].len;
  }
  fl = (xmsg *)malloc((tot + 1) * sizeof *fl); /* at most one message a packet sent */
  hs = malloc((tot + P * mm + 1) * sizeof *hs);
  if (ok && (fl == NULL || hs == NULL)) { ok = 0; snprintf(why, nwhy, "no memory"); }
  for (int64_t x = 0; x < (int64_t)P && ok; x++) /* history entry 0: the own value */
    for (int64_t j = 0; j < m; j++) hs[nh++] = (struct hrec){x, j, (uint64_t)1 << x};
  while (ok && progress) {
    progress = 0;
    for (int64_t x = 0; x < (int64_t)P && ok; x++)
      while (ok && pc[x] < v[x].n) {
        const oc_mb_step *st = &v[x].step[pc[x]];
        int64_t j = st->item + off[x];
        if (st->kind == OC_MB_SEND) {
          uint64_t w = val[x * m + j];
          if (st->hist >= 0) { /* the (hist+1)-th entry of x's history of j */
            int64_t seen = -1;
            w = 0;
            for (size_t h = 0; h < nh && seen < st->hist; h++)
              if (hs[h].x == x && hs[h].j == j && ++seen == st->hist) w = hs[h].val;
            if (seen != st->hist) { ok = 0; snprintf(why, nwhy, "rank %lld: hist %lld not there", (long long)x, (long long)st->hist); break; }
          }
          fl[nmsg++] = (xmsg){x, st->peer, j, w, 1};
        } else {
          size_t k;
          for (k = 0; k < nmsg; k++)
            if (fl[k].live && fl[k].src == st->peer && fl[k].dst == x && fl[k].item == j) break;
          if (k == nmsg) break; /* not there yet: the next rank's turn */
          fl[k].live = 0;
          if (!st->copy && (val[x * m + j] & fl[k].val) != 0) {
            ok = 0;
            snprintf(why, nwhy, "rank %lld packet %lld: a value counted twice", (long long)x, (long long)j);
            break;
          }
          val[x * m + j] = st->copy ? fl[k].val : (val[x * m + j] | fl[k].val);
          hs[nh++] = (struct hrec){x, j, val[x * m + j]};
        }
        progress = 1;
        if (++off[x] == st->len) { off[x] = 0; pc[x]++; }
      }
  }
  for (int64_t x = 0; x < (int64_t)P && ok; x++)
    if (pc[x] < v[x].n) { ok = 0; snprintf(why, nwhy, "rank %lld stuck at step %zu of %zu", (long long)x, pc[x], v[x].n); }
  for (size_t k = 0; k < nmsg && ok; k++)
    if (fl[k].live) { ok = 0; snprintf(why, nwhy, "a message never received"); }
  for (int64_t x = 0; x < (int64_t)P && ok; x++)
    for (int64_t j = 0; j < m && ok; j++)
      if ((root < 0 || x == root) && val[x * m + j] != all) {
        ok = 0;
        snprintf(why, nwhy, "rank %lld packet %lld incomplete", (long long)x, (long long)j);
      }
  for (int64_t x = 0; v != NULL && x < (int64_t)P; x++) oc_mb_rank_free(&v[x]);
  free(v); free(pc); free(off); free(val); free(fl); free(hs);
  return ok;
}

void test_mreduce_prog_views(void) {
  static const oc_mred_family FAM[] = {
      OC_MR_RD,        OC_MR_RABEN, OC_MR_HYBRID, OC_MR_RING,   OC_MR_REDBCAST, OC_MR_LINEAR,
      OC_MR_CIRCULANT, OC_MR_KARP,  OC_MR_LIBRED, OC_MR_SPREAD, OC_MR_REVERSED, OC_MR_GROUPS};
  static const oc_mbcast_alg WHOLE[] = {OC_MB_SPLIT, OC_MB_SCATTER_RD, OC_MB_SCATTER_RING};
  int rounds = test_sweep() ? 4800 : (test_valgrind() ? 48 : 480), checked = 0, executed = 0;
  oc_mb_rank view;
  memset(&view, 0, sizeof view);
  for (int it = 0; it < rounds; it++) {
    oc_params p;
    oc_mreduce_info c;
    oc_sched s;
    int64_t m, root = -1, t;
    test_rand_logp(&p, it % 10 == 0 ? 70 : 24);
    m = test_range(1, 9);
    memset(&c, 0, sizeof c);
    c.family = FAM[it % 12];
    if (c.family == OC_MR_HYBRID) c.seg = test_range(0, 7);
    if (c.family == OC_MR_LIBRED) { /* read off the whole program (rk_whole) */
      c.lib = (oc_mred_lib)test_range(0, OC_ML_COUNT - 1);
      c.seg = test_range(0, m);
      root = test_range(0, p.P - 1);
    }
    if (c.family == OC_MR_SPREAD) { /* the same; allreduce or reduce */
      c.seg = test_range(1, m);
      if (it % 2) root = test_range(0, p.P - 1);
    }
    if (c.family == OC_MR_REVERSED) { /* constructions without a broadcast view */
      c.red.alg = WHOLE[test_range(0, 2)];
      c.red.seg = test_range(0, m);
      c.bc = c.red;
      c.bc.alg = WHOLE[test_range(0, 2)];
      c.flip = (int)test_range(0, 1);
      if (it % 2) root = test_range(0, p.P - 1);
    }
    if (c.family == OC_MR_KARP) { /* one packet, to a root */
      m = 1;
      root = test_range(0, p.P - 1);
    }
    if (c.family == OC_MR_GROUPS) { /* q | P, q <= m; reduce in both forms a third each */
      int64_t q = test_range(1, m < 6 ? m : 6);
      p.P = q * test_range(1, 10);
      c.seg = q;
      if ((it / 12) % 3 > 0) {
        root = test_range(0, p.P - 1);
        c.flip = (it / 12) % 3 == 2;
      }
    }
    oc_sched_init(&s);
    CHECK_OK(oc_mreduce_run(&p, root, m, &c, &s, &t));
    { /* the time alone (the planner's search; the circulant's by formula) agrees */
      int64_t t2 = -1;
      CHECK_OK(oc_mreduce_run(&p, root, m, &c, NULL, &t2));
      CHECK_EQ(t2, t);
      if (oc_mr_floor(&p, root, m, &c) > t) /* the search's floor is one */
        test_failf(__FILE__, __LINE__, "%s seg %lld: floor %lld above %lld; P=%lld m=%lld",
                   oc_mred_family_name(c.family), (long long)c.seg,
                   (long long)oc_mr_floor(&p, root, m, &c), (long long)t, (long long)p.P,
                   (long long)m);
    }
    for (int64_t r = 0; r < p.P; r++)
      prog_view_check(&p, root, m, &c, &s, r, &view, oc_mred_family_name(c.family));
    if (p.P <= 64) { /* the views run as programs compute the reduction */
      char why[160];
      if (!exec_views(&p, root, m, &c, why, sizeof why))
        test_failf(__FILE__, __LINE__, "%s seg %lld flip %d: views run as programs: %s; P=%lld m=%lld root=%lld",
                   oc_mred_family_name(c.family), (long long)c.seg, c.flip, why, (long long)p.P,
                   (long long)m, (long long)root);
      else
        executed++;
    }
    checked++;
    oc_sched_free(&s);
  }
  oc_mb_rank_free(&view);
  printf("  %d programs, every rank's view checked; %d run as programs\n", checked, executed);
  CHECK(executed > checked / 2);
  { /* what has no view, and bad arguments */
    oc_params p;
    oc_mreduce_info c;
    memset(&c, 0, sizeof c);
    CHECK_OK(oc_params_logp(&p, 8, 6, 2, 4));
    c.family = OC_MR_KARP; /* one packet only */
    CHECK_EQ(oc_mreduce_rank(&p, 0, 2, &c, 0, &view), OC_EINVAL);
    c.family = OC_MR_RING;
    CHECK_EQ(oc_mreduce_rank(&p, 0, 4, &c, 0, &view), OC_EINVAL); /* allreduce only */
    CHECK_EQ(oc_mreduce_rank(&p, -1, 4, &c, 8, &view), OC_EINVAL);
    CHECK_EQ(oc_mreduce_rank(&p, -1, 0, &c, 0, &view), OC_EINVAL);
    c.family = OC_MR_GROUPS;
    c.seg = 3; /* not a divisor of 8 */
    CHECK_EQ(oc_mreduce_rank(&p, -1, 4, &c, 0, &view), OC_EINVAL);
    c.seg = 8; /* more than m */
    CHECK_EQ(oc_mreduce_rank(&p, -1, 4, &c, 0, &view), OC_EINVAL);
    oc_mb_rank_free(&view);
  }
}

/* The one-way gossip count behind the allreduce bound (oc_mreduce.c,
 * oc_mallreduce_bound): n people, each knowing one secret; a call a -> b
 * tells b all that a knows; all know everything after 2n - 2 calls and not
 * fewer.  Exhaustive for n = 2..5 (n <= 4 under valgrind): iterative
 * deepening over call sequences, states (what each knows, n*n bits) that
 * failed with k calls left remembered. */
static int gossip_dfs(int n, uint32_t st, int left, unsigned char **seen) {
  uint32_t full = (1u << n) - 1;
  int missing = 0;
  for (int i = 0; i < n; i++) missing += ((st >> (i * n)) & full) != full;
  if (missing == 0) return 1;
  if (missing > left) return 0; /* each of them needs a call in */
  if (seen[left][st >> 3] & (1u << (st & 7))) return 0;
  seen[left][st >> 3] |= (unsigned char)(1u << (st & 7));
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++) {
      uint32_t ka = (st >> (a * n)) & full, kb = (st >> (b * n)) & full;
      if (a == b || (ka & ~kb) == 0) continue; /* a call that tells nothing */
      if (gossip_dfs(n, st | (ka << (b * n)), left - 1, seen)) return 1;
    }
  return 0;
}

void test_mreduce_gossip(void) {
  int top = test_valgrind() ? 4 : 5;
  for (int n = 2; n <= top; n++) {
    size_t bytes = ((size_t)1 << (n * n)) / 8 + 1;
    unsigned char *seen[16];
    uint32_t st = 0;
    int best = -1;
    for (int i = 0; i < n; i++) st |= 1u << (i * n + i);
    for (int k = 0; k <= 2 * n - 2 && best < 0; k++) {
      for (int d = 0; d <= k; d++) {
        seen[d] = (unsigned char *)calloc(bytes, 1);
        CHECK(seen[d] != NULL);
      }
      if (gossip_dfs(n, st, k, seen)) best = k;
      for (int d = 0; d <= k; d++) free(seen[d]);
    }
    printf("  one-way gossip among %d: %d calls\n", n, best);
    if (best != 2 * n - 2)
      test_failf(__FILE__, __LINE__, "one-way gossip among %d: %d calls, expected %d", n, best,
                 2 * n - 2);
  }
}

/* The bounded search (past 2^22 messages in oc_mreduce_plan) forced on small
 * instances: full_max 0 and a tiny proxy.  Its schedule is built, verified
 * by oc_mr_plan_ex itself (a rejected one is an error), and checked again
 * here: the verifier's time is the planned one, never below the bound, and
 * the run of the chosen candidate reproduces it. */
void test_mreduce_bounded(void) {
  int rounds = test_sweep() ? 3000 : (test_valgrind() ? 10 : 400);
  for (int it = 0; it < rounds; it++) {
    oc_params p;
    oc_mreduce_info info;
    oc_sched s;
    oc_verdict v;
    int64_t m, root, lb, t = -1;
    test_rand_logp(&p, it % 4 == 0 ? 100 : 24);
    m = test_range(1, it % 3 == 0 ? 24 : 6);
    root = it % 2 ? -1 : test_range(0, p.P - 1);
    oc_sched_init(&s);
    CHECK_OK(oc_mr_plan_ex(&p, root, m, OC_MB_BEST, 0, test_range(2, 48), &s, &info));
    CHECK_OK(root < 0 ? oc_mallreduce_bound(&p, m, &lb, NULL) : oc_mreduce_bound(&p, m, &lb, NULL));
    CHECK_OK(oc_verify_vreduce(&p, root, m, &s, &v));
    if (!v.ok || v.time != info.time) fail_params(__LINE__, "bounded", &p, root, m, info.time, v.time);
    if (info.time < lb) fail_params(__LINE__, "bounded below the bound", &p, root, m, info.time, lb);
    CHECK_OK(oc_mreduce_run(&p, root, m, &info, NULL, &t));
    CHECK_EQ(t, info.time);
    oc_sched_free(&s);
  }
}
