/* test_mbcast.c - the multi-packet LogP broadcast (oc_mbcast.c): every
 * construction at every segment size passes the verifier with the
 * simulator's time, nothing beats the lower bound, the chosen schedule is
 * never slower than any MPI-library row of `optcast compare bcast`, and
 * damaged schedules are rejected. */
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

/* Random (P, L, o, g, m, root), o > g and 2o > g included: every
 * construction at a random segment size and the chosen one pass the
 * verifier with the planned time, none is below oc_mbcast_bound; for m = 1
 * the choice is B(P), the single-item optimum. */
void test_mbcast_random(void) {
  int rounds = test_sweep() ? 20000 : (test_valgrind() ? 200 : 1500);
  for (int it = 0; it < rounds; it++) {
    oc_params p;
    int64_t m, root, lb, B;
    oc_mbcast_info info;
    test_rand_logp(&p, it % 10 == 0 ? 300 : 24);
    m = test_range(1, it % 3 == 0 ? 24 : 5);
    root = test_range(0, p.P - 1);
    CHECK_OK(oc_mbcast_bound(&p, m, &lb, NULL));
    CHECK_OK(oc_bcast_time(&p, &B));
    for (int a = -1; a < OC_MB_COUNT; a++) {
      oc_sched s;
      oc_verdict v;
      int64_t t = -1;
      oc_sched_init(&s);
      if (a < 0) {
        CHECK_OK(oc_mbcast_plan(&p, root, m, OC_MB_BEST, &s, &info));
        t = info.time;
      } else {
        oc_mbcast_info c;
        memset(&c, 0, sizeof c);
        c.alg = (oc_mbcast_alg)a;
        c.seg = test_range(0, m);
        c.degree = p.P > 2 ? test_range(2, p.P - 1) : 2;
        c.pace = test_range(0, 2) == 0 ? test_range(0, 3 * p.o + 2) : 0;
        if (a == OC_MB_MULTITREE && p.P < 3) {
          CHECK_EQ(oc_mbcast_run(&p, root, m, &c, NULL, &t), p.P == 1 ? OC_OK : OC_EINVAL);
          oc_sched_free(&s);
          continue;
        }
        if (a == OC_MB_CIRCULANT) { /* segments of at most 16; stream counts with slots */
          int64_t ns[OC_LP_CIRC_STREAMS], nn;
          c.seg = test_range(1, m < OC_LP_CIRC_SEG ? m : OC_LP_CIRC_SEG);
          nn = oc_lp_circ_streams(&p, 0, c.seg, ns, NULL);
          c.degree = nn > 0 ? (test_range(0, 1) ? ns[test_range(0, nn - 1)] : 0) : 1;
          /* no periodic schedule for this P, or no slots for such segments (a
           * segment's own packets would overlap its receptions) */
          if (p.P > 1 && (oc_mb_circ_ok(p.P) != OC_OK || nn == 0)) {
            CHECK_EQ(oc_mbcast_run(&p, root, m, &c, &s, &t), OC_ERANGE);
            oc_sched_free(&s);
            continue;
          }
        }
        CHECK_OK(oc_mbcast_run(&p, root, m, &c, &s, &t));
      }
      CHECK_OK(oc_verify_bcast(&p, root, m, &s, &v));
      if (!v.ok || v.time != t) {
        fail_params(__LINE__, a < 0 ? "best" : oc_mbcast_alg_name(a), &p, root, m, t, v.time);
      }
      if (t < lb) fail_params(__LINE__, "below the lower bound", &p, root, m, t, lb);
      oc_sched_free(&s);
    }
    if (m == 1 && info.time != B) fail_params(__LINE__, "m = 1 is not B(P)", &p, root, m, info.time, B);
  }
}

/* the rows of `optcast compare bcast` (cli_compare.c): every library
 * algorithm unsegmented, the pipeline in segments of one packet, k-nomial
 * with k = 3, 4, 8 */
static int compare_specs(oc_libcoll_spec *s) {
  int n = 0;
  for (int a = 0; a < OC_LC_COUNT; a++) {
    if (a == OC_LC_KNOMIAL) {
      static const int64_t ks[] = {3, 4, 8};
      for (int i = 0; i < 3; i++) s[n++] = (oc_libcoll_spec){OC_LC_KNOMIAL, 0, ks[i]};
      continue;
    }
    s[n++] = (oc_libcoll_spec){(oc_libcoll_alg)a, a == OC_LC_PIPELINE ? 1 : 0, 2};
  }
  return n;
}

static void check_not_slower(const oc_params *p, int64_t root, int64_t m) {
  oc_libcoll_spec sp[16];
  oc_mbcast_info info;
  int n = compare_specs(sp);
  CHECK_OK(oc_mbcast_plan(p, root, m, OC_MB_BEST, NULL, &info));
  for (int k = 0; k < n; k++) {
    int64_t t;
    CHECK_OK(oc_libcoll_bcast(p, root, m, &sp[k], NULL, &t));
    if (t < info.time) fail_params(__LINE__, oc_libcoll_alg_name(sp[k].alg), p, root, m, info.time, t);
  }
}

/* Never slower: on a grid of the four presets' parameters and raw ones
 * (2o > g, o > g, g >= 2o, o = 0), P from 2 to 200, m from 1 to 64, and on
 * random instances, the chosen broadcast takes no longer than any library
 * row. */
void test_mbcast_never_slower(void) {
  int rounds = test_sweep() ? 5000 : (test_valgrind() ? 60 : 400);
  for (int it = 0; it < rounds; it++) {
    oc_params p;
    test_rand_logp(&p, 48);
    check_not_slower(&p, test_range(0, p.P - 1), test_range(1, 20));
  }
  static const int64_t PAR[][3] = {{6, 2, 4},   {74, 15, 11}, {25, 15, 10}, {740, 40, 1},
                                   {3, 2, 1},   {1, 3, 2},    {5, 1, 4},    {4, 0, 1},
                                   {0, 2, 3}};
  static const int64_t PS[] = {2, 3, 7, 8, 33, 64, 200};
  size_t nps = test_valgrind() ? 5 : sizeof PS / sizeof PS[0]; /* P <= 33 under valgrind */
  static const int64_t MS[] = {1, 2, 5, 16, 64};
  for (size_t a = 0; a < sizeof PAR / sizeof PAR[0]; a++)
    for (size_t i = 0; i < nps; i++)
      for (size_t j = 0; j < sizeof MS / sizeof MS[0]; j++) {
        oc_params p;
        CHECK_OK(oc_params_logp(&p, PS[i], PAR[a][0], PAR[a][1], PAR[a][2]));
        check_not_slower(&p, PS[i] / 3, MS[j]);
      }
}

/* Damaged schedules are rejected: a relay's send moved before it holds
 * the packet, a send moved into the sender's previous overhead, a message
 * dropped. */
void test_mbcast_mutants(void) {
  int tried[3] = {0, 0, 0};
  for (int it = 0; it < 400; it++) {
    oc_params p;
    oc_sched s;
    oc_verdict v;
    oc_mbcast_info info;
    oc_mbcast_alg alg;
    int64_t m, root;
    size_t i, n;
    test_rand_logp(&p, 40);
    if (p.P < 3) continue;
    m = test_range(2, 12);
    root = test_range(0, p.P - 1);
    oc_sched_init(&s);
    alg = (oc_mbcast_alg)test_range(-1, OC_MB_COUNT - 1);
    if (alg == OC_MB_CIRCULANT && oc_mb_circ_ok(p.P) != OC_OK) alg = OC_MB_BEST; /* none for P */
    CHECK_OK(oc_mbcast_plan(&p, root, m, alg, &s, &info));
    n = s.n;
    i = (size_t)test_range(0, (int64_t)n - 1);
    switch (it % 3) {
    case 0: /* a relay sends at 0: before anything can reach it */
      while (i < n && s.msg[i].src == root) i++;
      if (i == n) break;
      s.msg[i].t = 0;
      tried[0]++;
      CHECK_OK(oc_verify_bcast(&p, root, m, &s, &v));
      if (v.ok) fail_params(__LINE__, "early relay accepted", &p, root, m, s.msg[i].src, (int64_t)i);
      break;
    case 1: { /* the next send of the same sender, moved one unit after the
                 previous one's start: inside its overhead or its gap */
      size_t j;
      for (j = i + 1; j < n && s.msg[j].src != s.msg[i].src; j++) {
      }
      if (j == n || s.msg[j].t <= s.msg[i].t) break;
      s.msg[j].t = s.msg[i].t + 1;
      if (p.g <= 1 && p.o <= 1) break; /* one unit later is legal then */
      tried[1]++;
      CHECK_OK(oc_verify_bcast(&p, root, m, &s, &v));
      if (v.ok) fail_params(__LINE__, "crowded send accepted", &p, root, m, s.msg[i].t, s.msg[j].t);
      break;
    }
    default: { /* a dropped message that alone brings some packet to its
                  receiver (the scatters send packets to the root too) */
      int64_t *cnt = (int64_t *)calloc((size_t)(p.P * m), sizeof *cnt);
      size_t k;
      CHECK(cnt != NULL);
      for (k = 0; k < n; k++)
        for (int64_t x = 0; x < (s.len ? s.len[k] : 1); x++)
          cnt[s.msg[k].dst * m + s.msg[k].item + x]++;
      for (k = 0; k < n; k++) {
        size_t c = (i + k) % n;
        if (s.msg[c].dst != root && cnt[s.msg[c].dst * m + s.msg[c].item] == 1) break;
      }
      free(cnt);
      if (k == n) break;
      i = (i + k) % n;
      {
        oc_msg d = s.msg[i];
        s.msg[i] = s.msg[n - 1];
        s.msg[n - 1] = d; /* kept past the end, for the message below */
      }
      if (s.len != NULL) s.len[i] = s.len[n - 1];
      s.n--;
      tried[2]++;
      CHECK_OK(oc_verify_bcast(&p, root, m, &s, &v));
      if (v.ok)
        test_failf(__FILE__, __LINE__, "dropped %lld->%lld item %lld (%s seg %lld) accepted: P=%lld L=%lld o=%lld g=%lld m=%lld",
                   (long long)s.msg[n - 1].src, (long long)s.msg[n - 1].dst, (long long)s.msg[n - 1].item,
                   oc_mbcast_alg_name(info.alg), (long long)info.seg, (long long)p.P, (long long)p.L,
                   (long long)p.o, (long long)p.g, (long long)m);
      break;
    }
    }
    oc_sched_free(&s);
  }
  for (int k = 0; k < 3; k++) CHECK(tried[k] > 20);
}

/* Argument checks and limits. */
void test_mbcast_refusals(void) {
  oc_params p;
  oc_mbcast_info info;
  int64_t t, lb;
  CHECK_OK(oc_params_logp(&p, 8, 6, 2, 4));
  CHECK_EQ(oc_mbcast_plan(&p, 8, 4, OC_MB_BEST, NULL, &info), OC_EINVAL);
  CHECK_EQ(oc_mbcast_plan(&p, 0, 0, OC_MB_BEST, NULL, &info), OC_EINVAL);
  CHECK_EQ(oc_mbcast_plan(&p, 0, 4, (oc_mbcast_alg)OC_MB_COUNT, NULL, &info), OC_EINVAL);
  {
    oc_mbcast_info c;
    memset(&c, 0, sizeof c);
    c.alg = OC_MB_CHAIN;
    c.seg = -1;
    CHECK_EQ(oc_mbcast_run(&p, 0, 4, &c, NULL, &t), OC_EINVAL);
    c.seg = 1;
    c.pace = -1;
    CHECK_EQ(oc_mbcast_run(&p, 0, 4, &c, NULL, &t), OC_EINVAL);
    c.pace = 0;
    c.alg = OC_MB_MULTITREE;
    c.degree = 8; /* more trees than the 7 non-root processors */
    CHECK_EQ(oc_mbcast_run(&p, 0, 4, &c, NULL, &t), OC_EINVAL);
  }
  CHECK_EQ(oc_mbcast_plan(&p, 0, OC_MBCAST_MAX, OC_MB_BEST, NULL, &info), OC_ERANGE);
  CHECK_EQ(oc_mbcast_bound(&p, 0, &lb, NULL), OC_EINVAL);
  CHECK_OK(oc_params_logp(&p, 1, 6, 2, 4));
  CHECK_OK(oc_mbcast_plan(&p, 0, 5, OC_MB_BEST, NULL, &info));
  CHECK_EQ(info.time, 0);
  {
    oc_mbcast_alg a;
    CHECK_OK(oc_mbcast_alg_parse("two-tree", &a));
    CHECK_EQ(a, OC_MB_TWOTREE);
    CHECK_EQ(oc_mbcast_alg_parse("tree", &a), OC_EINVAL);
  }
}

/* The lower bound, recomputed from its definition with the universal
 * tree's labels enumerated node by node (tests/brute.c) and T scanned one
 * unit at a time: oc_mbcast_bound equals max(LB1, LB2) of oc_mbcast.c. */
void test_mbcast_bound_formula(void) {
  for (int it = 0; it < 600; it++) {
    oc_params p;
    int64_t m = test_range(1, 40), lb, B, G, h, S = 0, lb1, lb2 = 0, *lab;
    test_rand_logp(&p, it % 5 == 0 ? 2000 : 60);
    if (p.P < 2) continue;
    G = p.g > p.o ? p.g : p.o;
    h = p.L + 2 * p.o;
    CHECK_OK(oc_mbcast_bound(&p, m, &lb, NULL));
    CHECK_OK(oc_bcast_time(&p, &B));
    lab = brute_smallest_labels(p.P, h, G);
    for (int64_t q = 1; q < p.P; q++) S += lab[q];
    free(lab);
    lb1 = B + (m - 1) * G;
    if (p.o > 0)
      for (int64_t T = h;; T++) {
        int64_t R = (T - h) / G + 1;
        if (R > m * (p.P - 1)) R = m * (p.P - 1);
        if ((p.P - 1) * (T + p.o) - S >= p.o * (2 * m * (p.P - 1) - R)) {
          lb2 = T;
          break;
        }
      }
    if (lb != (lb1 > lb2 ? lb1 : lb2))
      fail_params(__LINE__, "bound", &p, 0, m, lb, lb1 > lb2 ? lb1 : lb2);
  }
}

/* A rank's view (oc_mbcast_rank) equals its part of the global schedule:
 * its sends packet by packet in time order, its receptions as a set; for
 * random instances, constructions, segments, degrees, pacing and policy. */
typedef struct pk3 {
  int64_t t, peer, item;
} pk3;
static int pk3_cmp_t(const void *a, const void *b) {
  const pk3 *x = (const pk3 *)a, *y = (const pk3 *)b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  return (x->item > y->item) - (x->item < y->item);
}
static int pk3_cmp_set(const void *a, const void *b) {
  const pk3 *x = (const pk3 *)a, *y = (const pk3 *)b;
  if (x->peer != y->peer) return x->peer < y->peer ? -1 : 1;
  return (x->item > y->item) - (x->item < y->item);
}

/* Every rank's view run as a program, as a runtime would: ranks take turns,
 * each running its steps in order while it can; a send needs the rank to
 * hold those packets (the root holds all), a reception takes the matching
 * message in flight from its peer.  At the end no step is left (no
 * deadlock), nothing is in flight and every rank holds every packet. */
static int bexec(const oc_params *p, int64_t root, int64_t m, const oc_mbcast_info *c) {
  int64_t P = p->P >= 1 && p->P <= 100 ? p->P : 1, nfl = 0, cap = 0;
  size_t nP = (size_t)P, nPm = m >= 1 && m <= 1000 ? nP * (size_t)m : nP;
  oc_mb_rank *v = (oc_mb_rank *)calloc(nP, sizeof *v);
  size_t *pc = (size_t *)calloc(nP, sizeof *pc);
  unsigned char *has = (unsigned char *)calloc(nPm, 1);
  int64_t (*fl)[3] = NULL;
  int ok = v && pc && has && P == p->P && nPm == nP * (size_t)m, progress = 1;
  for (int64_t x = 0; x < P && ok; x++) {
    ok = oc_mbcast_rank(p, root, m, c, x, &v[x]) == OC_OK;
    for (size_t i = 0; ok && i < v[x].n; i++) cap += v[x].step[i].kind == OC_MB_SEND ? v[x].step[i].len : 0;
  }
  fl = malloc((size_t)(cap + 1) * sizeof *fl);
  ok = ok && fl != NULL;
  for (int64_t j = 0; ok && j < m; j++) has[root * m + j] = 1;
  while (ok && progress) {
    progress = 0;
    for (int64_t x = 0; x < P && ok; x++)
      while (pc[x] < v[x].n) {
        const oc_mb_step *st = &v[x].step[pc[x]];
        if (st->kind == OC_MB_SEND) {
          for (int64_t j = st->item; j < st->item + st->len; j++) {
            if (!has[x * m + j]) ok = 0; /* sends what it does not hold */
            fl[nfl][0] = x, fl[nfl][1] = st->peer, fl[nfl++][2] = j;
          }
        } else {
          int64_t found = 0;
          for (int64_t j = st->item; j < st->item + st->len; j++)
            for (int64_t k = 0; k < nfl; k++)
              if (fl[k][0] == st->peer && fl[k][1] == x && fl[k][2] == j) { found++; break; }
          if (found < st->len) break; /* not all there yet: the next rank's turn */
          for (int64_t j = st->item; j < st->item + st->len; j++)
            for (int64_t k = 0; k < nfl; k++)
              if (fl[k][0] == st->peer && fl[k][1] == x && fl[k][2] == j) {
                fl[k][0] = -1; /* taken */
                has[x * m + j] = 1;
                break;
              }
        }
        pc[x]++;
        progress = 1;
      }
  }
  for (int64_t x = 0; x < P && ok; x++) ok = pc[x] == v[x].n;
  for (int64_t k = 0; k < nfl && ok; k++) ok = fl[k][0] == -1;
  for (int64_t x = 0; x < P * m && ok; x++) ok = has[x];
  for (int64_t x = 0; v != NULL && x < P; x++) oc_mb_rank_free(&v[x]);
  free(v);
  free(pc);
  free(has);
  free(fl);
  return ok;
}

void test_mbcast_rank_views(void) {
  static const oc_mbcast_alg ALGS[] = {OC_MB_KARP,     OC_MB_CHAIN,   OC_MB_BINARY,
                                       OC_MB_BINOMIAL, OC_MB_TWOTREE, OC_MB_MULTITREE,
                                       OC_MB_RAREST,   OC_MB_SPLIT,   OC_MB_SCATTER_RD,
                                       OC_MB_SCATTER_RING, OC_MB_CIRCULANT, OC_MB_PIPELINE};
  const int nalg = (int)(sizeof ALGS / sizeof ALGS[0]);
  int rounds = test_sweep() ? 3000 : 300, executed = 0;
  for (int it = 0; it < rounds; it++) {
    oc_params p;
    oc_mbcast_info c;
    oc_sched s;
    oc_mb_rank view;
    int64_t m, root, t;
    test_rand_logp(&p, it % 10 == 0 ? 200 : 30);
    m = test_range(1, 12);
    root = test_range(0, p.P - 1);
    memset(&c, 0, sizeof c);
    c.alg = ALGS[it % nalg];
    c.seg = test_range(0, m);
    c.degree = p.P > 2 ? test_range(2, p.P - 1 < 64 ? p.P - 1 : 64) : 2;
    c.pace = test_range(0, 1) ? 2 * p.o : 0;
    c.send_first = (int)test_range(0, 1);
    if (c.alg == OC_MB_MULTITREE && p.P < 3) continue;
    if (c.alg == OC_MB_CIRCULANT) { /* where it exists: its best rate, short segments */
      int64_t ns[OC_LP_CIRC_STREAMS];
      c.degree = 0;
      c.seg = test_range(1, m < 4 ? m : 4);
      if (oc_mb_circ_ok(p.P) != OC_OK || oc_lp_circ_streams(&p, 0, c.seg, ns, NULL) == 0) continue;
    }
    oc_sched_init(&s);
    CHECK_OK(oc_mbcast_run(&p, root, m, &c, &s, &t));
    memset(&view, 0, sizeof view);
    for (int64_t r = 0; r < p.P; r++) {
      pk3 *gs = (pk3 *)malloc((s.n * (size_t)m + 1) * sizeof *gs), *gr, *vs, *vr;
      size_t ns = 0, nr = 0, vns = 0, vnr = 0;
      gr = (pk3 *)malloc((s.n * (size_t)m + 1) * sizeof *gr);
      vs = (pk3 *)malloc((s.n * (size_t)m + 1) * sizeof *vs);
      vr = (pk3 *)malloc((s.n * (size_t)m + 1) * sizeof *vr);
      CHECK(gs && gr && vs && vr);
      for (size_t i = 0; i < s.n; i++)
        for (int64_t x = 0; x < (s.len ? s.len[i] : 1); x++) {
          if (s.msg[i].src == r) gs[ns++] = (pk3){s.msg[i].t, s.msg[i].dst, s.msg[i].item + x};
          if (s.msg[i].dst == r) gr[nr++] = (pk3){0, s.msg[i].src, s.msg[i].item + x};
        }
      CHECK_OK(oc_mbcast_rank(&p, root, m, &c, r, &view));
      for (size_t i = 0; i < view.n; i++)
        for (int64_t x = 0; x < view.step[i].len; x++) {
          pk3 k = {(int64_t)vns, view.step[i].peer, view.step[i].item + x};
          if (view.step[i].kind == OC_MB_SEND) vs[vns++] = k;
          else vr[vnr++] = (pk3){0, k.peer, k.item};
        }
      qsort(gs, ns, sizeof *gs, pk3_cmp_t);
      qsort(gr, nr, sizeof *gr, pk3_cmp_set);
      qsort(vr, vnr, sizeof *vr, pk3_cmp_set);
      if (ns != vns || nr != vnr)
        test_failf(__FILE__, __LINE__, "%s rank %lld: %zu/%zu sends, %zu/%zu receptions; P=%lld m=%lld seg=%lld d=%lld",
                   oc_mbcast_alg_name(c.alg), (long long)r, ns, vns, nr, vnr, (long long)p.P,
                   (long long)m, (long long)c.seg, (long long)c.degree);
      for (size_t i = 0; i < ns; i++)
        if (gs[i].peer != vs[i].peer || gs[i].item != vs[i].item)
          test_failf(__FILE__, __LINE__, "%s rank %lld send %zu: to %lld item %lld, view %lld %lld",
                     oc_mbcast_alg_name(c.alg), (long long)r, i, (long long)gs[i].peer,
                     (long long)gs[i].item, (long long)vs[i].peer, (long long)vs[i].item);
      for (size_t i = 0; i < nr; i++)
        if (gr[i].peer != vr[i].peer || gr[i].item != vr[i].item)
          test_failf(__FILE__, __LINE__, "%s rank %lld reception %zu differs",
                     oc_mbcast_alg_name(c.alg), (long long)r, i);
      free(gs);
      free(gr);
      free(vs);
      free(vr);
    }
    if (p.P <= 100) { /* the views run together deliver every packet */
      if (!bexec(&p, root, m, &c))
        test_failf(__FILE__, __LINE__, "%s: views run as programs fail; P=%lld m=%lld seg=%lld root=%lld",
                   oc_mbcast_alg_name(c.alg), (long long)p.P, (long long)m, (long long)c.seg,
                   (long long)root);
      executed++;
    }
    oc_mb_rank_free(&view);
    oc_sched_free(&s);
  }
  printf("  %d instances' views run as programs\n", executed);
  CHECK(executed > rounds / 2);
}

/* The bounded search of large instances (oc_mb_plan_bounded), run here with
 * a small proxy so that it takes its large-instance path on small P m: what
 * it hands back reproduces its time, passes the verifier, is never below
 * the lower bound, and its ranking holds every construction the full
 * search can build. */
void test_mbcast_bounded(void) {
  int rounds = test_sweep() ? 2000 : (test_valgrind() ? 20 : 200);
  for (int it = 0; it < rounds; it++) {
    oc_params p;
    oc_mbcast_info info, full;
    oc_mb_cand cand[OC_MB_RANKED];
    oc_sched s;
    oc_verdict v;
    int nc = 0;
    int64_t m, root, lb, t = -1, timed = 0, proxy;
    test_rand_logp(&p, it % 4 == 0 ? 200 : 40);
    m = test_range(1, it % 3 == 0 ? 40 : 8);
    root = test_range(0, p.P - 1);
    proxy = test_range(2, 64);
    CHECK_OK(oc_mbcast_bound(&p, m, &lb, NULL));
    CHECK_OK(oc_mb_plan_bounded(&p, 0, root, m, OC_MB_BEST, proxy, &info));
    CHECK_OK(oc_mb_rank_bounded(&p, 0, m, OC_MB_BEST, OC_MB_BEST, proxy, cand, &nc, &timed));
    CHECK(nc >= 1 && nc <= OC_MB_RANKED);
    for (int k = 1; k < nc; k++) CHECK(cand[k - 1].est <= cand[k].est);
    oc_sched_init(&s);
    CHECK_OK(oc_mbcast_run(&p, root, m, &info, &s, &t));
    CHECK_EQ(t, info.time);
    CHECK_OK(oc_verify_bcast(&p, root, m, &s, &v));
    if (!v.ok || v.time != t) fail_params(__LINE__, "bounded", &p, root, m, t, v.time);
    if (t < lb) fail_params(__LINE__, "bounded below the bound", &p, root, m, t, lb);
    CHECK_OK(oc_mbcast_plan(&p, root, m, OC_MB_BEST, NULL, &full));
    if (m == 1 && info.time < full.time) /* one packet: the full search is optimal */
      fail_params(__LINE__, "bounded beat the optimum", &p, root, m, info.time, full.time);
    oc_sched_free(&s);
  }
}

/* The rarest-first greedy (oc_lp_rarest): with one segment it is Karp's
 * greedy tree, so it takes exactly B(P) and its schedule passes the
 * verifier at that time; with a few segments its schedules are valid at
 * every root and pacing; past OC_LP_RAREST_MAX segments it refuses. */
void test_mbcast_rarest(void) {
  int rounds = test_sweep() ? 5000 : (test_valgrind() ? 60 : 600);
  for (int it = 0; it < rounds; it++) {
    oc_params p;
    oc_mbcast_info c;
    oc_sched s;
    oc_verdict v;
    int64_t m = test_range(1, 12), root, B, t = -1, lb;
    test_rand_logp(&p, it % 5 == 0 ? 2000 : 60);
    root = test_range(0, p.P - 1);
    memset(&c, 0, sizeof c);
    c.alg = OC_MB_RAREST;
    c.seg = m; /* one segment: the whole message */
    c.send_first = test_range(0, 1);
    CHECK_OK(oc_bcast_time(&p, &B));
    CHECK_OK(oc_mbcast_run(&p, root, 1, &c, NULL, &t));
    if (t != B) fail_params(__LINE__, "rarest-first, one packet, is not B(P)", &p, root, 1, t, B);
    c.seg = test_range(1, m);
    c.pace = test_range(0, 2) == 0 ? test_range(0, 2 * p.o + 2) : 0;
    oc_sched_init(&s);
    CHECK_OK(oc_mbcast_run(&p, root, m, &c, &s, &t));
    CHECK_OK(oc_verify_bcast(&p, root, m, &s, &v));
    if (!v.ok || v.time != t) fail_params(__LINE__, "rarest-first", &p, root, m, t, v.time);
    CHECK_OK(oc_mbcast_bound(&p, m, &lb, NULL));
    if (t < lb) fail_params(__LINE__, "rarest-first below the bound", &p, root, m, t, lb);
    oc_sched_free(&s);
  }
  {
    oc_params p;
    oc_mbcast_info c;
    int64_t t;
    CHECK_OK(oc_params_logp(&p, 16, 5, 1, 2));
    memset(&c, 0, sizeof c);
    c.alg = OC_MB_RAREST;
    c.seg = 1;
    CHECK_OK(oc_mbcast_run(&p, 0, OC_LP_RAREST_MAX, &c, NULL, &t));
    CHECK_EQ(oc_mbcast_run(&p, 0, OC_LP_RAREST_MAX + 1, &c, NULL, &t), OC_ERANGE);
    c.seg = 2; /* segments, not packets, count */
    CHECK_OK(oc_mbcast_run(&p, 0, 2 * OC_LP_RAREST_MAX, &c, NULL, &t));
  }
}

/* The circulant's periodic receive schedule, checked without the code that
 * built it: every relative rank r != 0 takes one residue in each of the q
 * slots (a bijection), the round offset agrees with the slot (delta = k - rho
 * mod q), and its sender in that slot, r - s_k, is the root or has the
 * residue at a smaller offset.  Returns the largest offset, -1 when a rule
 * fails. */
static int64_t circ_check(int64_t P, int q, const int64_t *s, const uint8_t *dl,
                          const uint8_t *rh) {
  int64_t worst = 0;
  for (int64_t r = 1; r < P; r++) {
    uint64_t seen = 0;
    for (int k = 0; k < q; k++) {
      int rho = rh[r * q + k];
      int64_t f = ((r - s[k]) % P + P) % P, d;
      if (rho >= q || (seen >> rho & 1u)) return -1;
      seen |= (uint64_t)1 << rho;
      d = dl[r * q + rho];
      if ((d - (k - rho)) % q != 0) return -1;
      if (f != 0 && dl[f * q + rho] >= d) return -1;
      if (d > worst) worst = d;
    }
  }
  return worst;
}

/* Traff's table as offsets: rank r receives block R[k] + f q in round f q + k,
 * so residue rho = R[k] mod q comes delta = k - R[k] rounds after its
 * number */
static void circ_offsets(int64_t P, int q, const int8_t *R, uint8_t *dl, uint8_t *rh) {
  for (int64_t r = 1; r < P; r++)
    for (int k = 0; k < q; k++) {
      int x = R[r * q + k], rho = ((x % q) + q) % q;
      rh[r * q + k] = (uint8_t)rho;
      dl[r * q + rho] = (uint8_t)(k - x);
    }
}

/* One stream of n blocks as oc_lp_circulant emits it, checked round by
 * round: each rank other than the root receives every block exactly once,
 * from a sender that had it in an earlier round (or is the root), the last
 * round is n - 2 + q rounds after the first and used.  1: all hold. */
static int circ_stream_ok(int64_t P, int q, const int64_t *s, const int8_t *R, int64_t n) {
  int64_t x = (q - (n - 1) % q) % q, *got = (int64_t *)malloc((size_t)(P * n) * sizeof *got);
  int ok = 1, last = 0;
  if (got == NULL) return 0;
  for (int64_t i = 0; i < P * n; i++) got[i] = -1; /* round block i % n reached rank i / n */
  for (int64_t i = x; ok && i <= x + n - 2 + q + 1; i++) /* (one round past the end: none) */
    for (int64_t r = 1; ok && r < P; r++) {
      int64_t bb = oc_lp_circ_block(q, R[r * q + i % q], n, i), f = ((r - s[i % q]) % P + P) % P;
      if (bb < 0) continue;
      if (i > x + n - 2 + q || got[r * n + bb] >= 0) ok = 0; /* past the end, or twice */
      else if (f != 0 && !(got[f * n + bb] >= 0 && got[f * n + bb] < i)) ok = 0;
      else got[r * n + bb] = i;
      if (i == x + n - 2 + q) last = 1;
    }
  for (int64_t i = n; ok && i < P * n; i++) ok = got[i] >= 0;
  free(got);
  return ok && last;
}

void test_mbcast_circulant(void) {
  static const int64_t PS[] = {2, 3, 4, 6, 7, 8, 10, 14, 15, 16, 31, 32, 33, 34, 63, 64, 65, 100, 128, 1024};
  int rounds = test_sweep() ? 3000 : (test_valgrind() ? 40 : 300), offered = 0;
  int nP = test_sweep() ? 3000 : (test_valgrind() ? 60 : 600);
  for (int i = 0; i < nP; i++) { /* the schedules themselves: every P up to nP, some larger */
    int64_t P = i < nP - 20 ? i + 2 : test_range(nP, test_valgrind() ? 3000 : 40000), s[64], s1[64];
    int64_t worst, n = test_range(1, 3 * 64);
    int q, S[64], Rr[64];
    int8_t *R;
    uint8_t *dl, *rh;
    CHECK_EQ(oc_lp_circ_skips(P, 1, s1), oc_lp_circ_skips(P, 0, s));
    CHECK_OK(oc_lp_circ_table(P, s, &q, &R));
    CHECK(s[0] == 1 && s[q] == P && s1[0] == 1 && ((int64_t)1 << q) >= P && ((int64_t)1 << q) < 2 * P);
    if (R == NULL) return;
    dl = (uint8_t *)malloc((size_t)(P * q));
    rh = (uint8_t *)malloc((size_t)(P * q));
    if (dl == NULL || rh == NULL) return;
    circ_offsets(P, q, R, dl, rh);
    worst = circ_check(P, q, s, dl, rh);
    CHECK(worst >= 0 && worst < 2 * q);
    if (!circ_stream_ok(P, q, s, R, n))
      test_failf(__FILE__, __LINE__, "circulant stream: P=%lld n=%lld", (long long)P, (long long)n);
    for (int64_t r = 0; r < P; r += 1 + P / 16) { /* the sends: what the receiver gets */
      CHECK_OK(oc_circ_send(P, q, s, r, S));
      for (int k = 0; k < q; k++) {
        int64_t to = (r + s[k]) % P;
        if (r == 0) CHECK_EQ(S[k], k);
        else if (to == 0) CHECK_EQ(S[k], -q - 1);
        else CHECK_EQ(S[k], R[to * q + k]);
      }
      if (r > 0) {
        CHECK_OK(oc_circ_recv(P, q, s, r, Rr));
        for (int k = 0; k < q; k++) CHECK_EQ(Rr[k], R[r * q + k]);
      }
    }
    if (P > 2) { /* planted mistakes: an offset too small for the sender, a slot twice */
      int64_t r = 1 + (P - 1) / 2;
      uint8_t keep = dl[r * q + rh[r * q]];
      int64_t f = ((r - s[0]) % P + P) % P;
      int8_t k0 = R[r * q];
      if (f != 0) {
        dl[r * q + rh[r * q]] = dl[f * q + rh[r * q]];
        CHECK_EQ(circ_check(P, q, s, dl, rh), -1);
      }
      dl[r * q + rh[r * q]] = keep;
      if (q > 1) {
        uint8_t k1 = rh[r * q + 1];
        rh[r * q + 1] = rh[r * q];
        CHECK_EQ(circ_check(P, q, s, dl, rh), -1);
        rh[r * q + 1] = k1;
      }
      CHECK(circ_check(P, q, s, dl, rh) == worst);
      if (q > 1) { /* slot 0 takes slot 1's block: one block twice, one never */
        R[r * q] = R[r * q + 1];
        CHECK(!circ_stream_ok(P, q, s, R, 2 * q + 1));
        R[r * q] = k0;
      }
    }
    free(dl);
    free(rh);
    free(R);
  }
  CHECK_EQ(oc_mb_circ_ok(34), OC_OK); /* (the earlier greedy found none for P = 34) */
  CHECK_EQ(oc_mb_circ_ok((int64_t)1 << 22), OC_ERANGE); /* past OC_LP_CIRC_WORK: not tried */
  for (int it = 0; it < rounds; it++) { /* the broadcasts, every stream count */
    oc_params p;
    int64_t m = test_range(1, 40), root, lb, ns[OC_LP_CIRC_STREAMS], nn, seg;
    test_rand_logp(&p, 20);
    p.P = it % 2 ? PS[test_range(0, (int64_t)(sizeof PS / sizeof PS[0]) - 1)] : test_range(2, 300);
    root = test_range(0, p.P - 1);
    seg = test_range(1, m < 4 ? m : 4);
    nn = oc_lp_circ_streams(&p, 0, seg, ns, NULL);
    CHECK(nn >= 0);
    CHECK_OK(oc_mbcast_bound(&p, m, &lb, NULL));
    for (int64_t k = 0; k < nn; k++) {
      oc_mbcast_info c;
      oc_sched sc;
      oc_verdict v;
      int64_t t;
      memset(&c, 0, sizeof c);
      c.alg = OC_MB_CIRCULANT;
      c.seg = seg;
      c.degree = ns[k];
      oc_sched_init(&sc);
      CHECK_OK(oc_mbcast_run(&p, root, m, &c, &sc, &t));
      CHECK_OK(oc_verify_bcast(&p, root, m, &sc, &v));
      if (!v.ok || v.time != t) fail_params(__LINE__, "circulant", &p, root, m, t, v.time);
      if (t < lb) fail_params(__LINE__, "circulant below the bound", &p, root, m, t, lb);
      if (k > 0 && ns[k] <= ns[k - 1]) fail_params(__LINE__, "stream counts", &p, root, m, ns[k], ns[k - 1]);
      oc_sched_free(&sc);
      offered++;
    }
  }
  CHECK(offered > rounds / 2);
}
