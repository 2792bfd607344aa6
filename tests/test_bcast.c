/* test_bcast.c - single-item broadcast: paper cases, random properties,
 * per-rank views against global schedules, huge P. */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"
#include "test.h"

static int cmp64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* ready time of every processor from a schedule (first arrival) */
static int64_t *ready_of(const oc_params *p, int64_t root, const oc_sched *s) {
  int64_t *r = (int64_t *)malloc((size_t)p->P * sizeof *r);
  for (int64_t i = 0; i < p->P; i++) r[i] = (i == root) ? 0 : INT64_MAX;
  for (size_t i = 0; i < s->n; i++) {
    int64_t a = s->msg[i].t + p->L + 2 * p->o;
    if (a < r[s->msg[i].dst]) r[s->msg[i].dst] = a;
  }
  return r;
}

static void plan(const oc_params *p, int64_t root, oc_bcast_alg alg,
                 oc_bcast **b, oc_sched *s) {
  oc_verdict v;
  CHECK_OK(oc_bcast_new(b, p, root, alg));
  oc_sched_init(s);
  CHECK_OK(oc_bcast_schedule(*b, s));
  CHECK_EQ(s->n, p->P - 1);
  CHECK_OK(oc_verify_bcast(p, root, 1, s, &v));
  if (!v.ok) test_failf(__FILE__, __LINE__, "%s P=%lld L=%lld o=%lld g=%lld: %s",
                        oc_bcast_alg_name(alg), (long long)p->P, (long long)p->L,
                        (long long)p->o, (long long)p->g, v.detail);
  CHECK_EQ(v.time, oc_bcast_completion(*b));
}

/* Karp et al. Fig. 1: P = 8, L = 6, o = 2, g = 4: time 24, labels
 * 0,10,14,18,20,22,24,24. */
void test_bcast_karp_fig1(void) {
  static const int64_t want[8] = {0, 10, 14, 18, 20, 22, 24, 24};
  oc_params p;
  oc_bcast *b;
  oc_sched s;
  int64_t *r;
  CHECK_OK(oc_params_logp(&p, 8, 6, 2, 4));
  plan(&p, 0, OC_BCAST_KARP, &b, &s);
  CHECK_EQ(oc_bcast_completion(b), 24);
  r = ready_of(&p, 0, &s);
  qsort(r, 8, sizeof *r, cmp64);
  for (int i = 0; i < 8; i++) CHECK_EQ(r[i], want[i]);
  free(r);
  { /* root sends at 0, 4, 8, 12 */
    oc_bcast_view v;
    CHECK_OK(oc_bcast_rank(b, 0, &v));
    CHECK_EQ(v.nchildren, 4);
    for (int k = 0; k < 4; k++) {
      int64_t c, t;
      CHECK_OK(oc_bcast_child(b, &v, k, &c, &t));
      CHECK_EQ(t, 4 * k);
    }
  }
  oc_sched_free(&s);
  oc_bcast_free(b);
}

/* Shou & Chen Fig. 1: T*(8; 6,2,4) has nodes (P_i, T_i) = (0,24) (1,14)
 * (2,4) (3,0) (4,10) (5,0) (6,6) (7,2), T_i = 24 - ready; T*(7; 6,2,4)
 * drops node (7,2). */
void test_bcast_shouchen_fig1(void) {
  static const int64_t T8[8] = {24, 14, 4, 0, 10, 0, 6, 2};
  for (int64_t P = 7; P <= 8; P++) {
    oc_params p;
    oc_bcast *b;
    oc_sched s;
    CHECK_OK(oc_params_logp(&p, P, 6, 2, 4));
    plan(&p, 0, OC_BCAST_SHOUCHEN, &b, &s);
    CHECK_EQ(oc_bcast_completion(b), 24);
    for (int64_t i = 0; i < P; i++) {
      oc_bcast_view v;
      CHECK_OK(oc_bcast_rank(b, i, &v));
      CHECK_EQ(24 - v.ready, T8[i]);
    }
    oc_sched_free(&s);
    oc_bcast_free(b);
  }
}

/* For P = 7 the tree of the P smallest labels keeps label 22 and drops a
 * 24 (Karp Def. 2.4), unlike T*(7). */
void test_bcast_karp_p7_smallest_labels(void) {
  static const int64_t want[7] = {0, 10, 14, 18, 20, 22, 24};
  oc_params p;
  oc_bcast *b;
  oc_sched s;
  int64_t *r;
  CHECK_OK(oc_params_logp(&p, 7, 6, 2, 4));
  plan(&p, 0, OC_BCAST_KARP, &b, &s);
  r = ready_of(&p, 0, &s);
  qsort(r, 7, sizeof *r, cmp64);
  for (int i = 0; i < 7; i++) CHECK_EQ(r[i], want[i]);
  free(r);
  oc_sched_free(&s);
  oc_bcast_free(b);
}

/* Bar-Noy & Kipnis Fig. 1: n = 14, lambda = 2.5: time 7.5, p0 first
 * sends to p9 and then (at 1) broadcasts to p0..p8. */
void test_bcast_barnoy_fig1(void) {
  oc_params p;
  oc_bcast *b;
  oc_sched s;
  int seen9 = 0;
  CHECK_OK(oc_params_postal(&p, 14, 5, 2));
  plan(&p, 0, OC_BCAST_BARNOY, &b, &s);
  CHECK_EQ(oc_bcast_completion(b), 15);
  for (size_t i = 0; i < s.n; i++) {
    if (s.msg[i].src == 0 && s.msg[i].t == 0) {
      CHECK_EQ(s.msg[i].dst, 9);
      seen9 = 1;
    }
    if (s.msg[i].src == 0) CHECK(s.msg[i].dst <= 9); /* p0 keeps p0..p8 */
    if (s.msg[i].dst > 9) CHECK(s.msg[i].src >= 9);   /* p9 serves p9..p13 */
  }
  CHECK(seen9);
  oc_sched_free(&s);
  oc_bcast_free(b);
}

static void random_params(oc_params *p, int64_t maxP) {
  for (;;) {
    int64_t P = test_range(1, maxP);
    if (test_rand() % 4 == 0) {
      int64_t q = test_range(1, 5), num = test_range(q, 6 * q);
      if (oc_params_postal(p, P, num, q) == OC_OK) return;
    } else {
      int64_t L = test_range(0, 12), o = test_range(0, 5), g = test_range(1, 12);
      if (test_rand() % 8 == 0) g = test_range(20, 200); /* chain-like */
      if (oc_params_logp(p, P, L, o, g) == OC_OK) return;
    }
  }
}

/* Random instances: every algorithm's schedule verifies with time B(P),
 * and B(P) is the largest of the P smallest labels of the universal tree
 * enumerated independently; KARP's labels are exactly those. */
void test_bcast_random_property(void) {
  int rounds = test_sweep() ? 20000 : 2000;
  for (int i = 0; i < rounds; i++) {
    oc_params p;
    int64_t root, *lab, h, G;
    random_params(&p, i % 10 == 0 ? 3000 : 200);
    root = test_range(0, p.P - 1);
    h = p.L + 2 * p.o;
    G = p.g > p.o ? p.g : p.o;
    lab = brute_smallest_labels(p.P, h, G);
    for (int a = 0; a < 3; a++) {
      oc_bcast *b;
      oc_sched s;
      plan(&p, root, (oc_bcast_alg)a, &b, &s);
      CHECK_EQ(oc_bcast_completion(b), lab[p.P - 1]);
      if (a == OC_BCAST_KARP) {
        int64_t *r = ready_of(&p, root, &s);
        qsort(r, (size_t)p.P, sizeof *r, cmp64);
        for (int64_t j = 0; j < p.P; j++) CHECK_EQ(r[j], lab[j]);
        free(r);
      }
      oc_sched_free(&s);
      oc_bcast_free(b);
    }
    free(lab);
  }
}

typedef struct kid { int64_t t, dst; } kid;
static int kid_cmp(const void *a, const void *b) {
  const kid *x = (const kid *)a, *y = (const kid *)b;
  return (x->t > y->t) - (x->t < y->t);
}

/* The per-rank view of every rank equals its part of the global schedule. */
static void views_match(const oc_params *p, int64_t root, oc_bcast *b,
                        const oc_sched *s) {
  int64_t *ready = ready_of(p, root, s), *par = (int64_t *)malloc((size_t)p->P * 8);
  kid *k = (kid *)malloc((s->n + 1) * sizeof *k);
  size_t *off = (size_t *)calloc((size_t)p->P + 1, sizeof *off);
  for (int64_t i = 0; i < p->P; i++) par[i] = -1;
  for (size_t i = 0; i < s->n; i++) { off[s->msg[i].src + 1]++; par[s->msg[i].dst] = s->msg[i].src; }
  for (int64_t i = 0; i < p->P; i++) off[i + 1] += off[i];
  {
    size_t *fill = (size_t *)malloc(((size_t)p->P + 1) * sizeof *fill);
    memcpy(fill, off, ((size_t)p->P + 1) * sizeof *fill);
    for (size_t i = 0; i < s->n; i++) {
      k[fill[s->msg[i].src]].t = s->msg[i].t;
      k[fill[s->msg[i].src]++].dst = s->msg[i].dst;
    }
    free(fill);
  }
  for (int64_t q = 0; q < p->P; q++) {
    oc_bcast_view v;
    size_t n = off[q + 1] - off[q];
    qsort(k + off[q], n, sizeof *k, kid_cmp);
    CHECK_OK(oc_bcast_rank(b, q, &v));
    CHECK_EQ(v.rank, q);
    CHECK_EQ(v.parent, par[q]);
    CHECK_EQ(v.ready, ready[q]);
    if (q != root) CHECK_EQ(v.recv_send, ready[q] - p->L - 2 * p->o);
    CHECK_EQ(v.nchildren, (int64_t)n);
    for (size_t j = 0; j < n; j++) {
      int64_t c, t;
      CHECK_OK(oc_bcast_child(b, &v, (int64_t)j, &c, &t));
      CHECK_EQ(c, k[off[q] + j].dst);
      CHECK_EQ(t, k[off[q] + j].t);
    }
  }
  free(ready);
  free(par);
  free(k);
  free(off);
}

void test_bcast_views_agree_random(void) {
  int rounds = test_sweep() ? 5000 : 600;
  for (int i = 0; i < rounds; i++) {
    oc_params p;
    int64_t root;
    random_params(&p, i % 20 == 0 ? 5000 : 300);
    root = test_range(0, p.P - 1);
    for (int a = 0; a < 2; a++) {
      oc_bcast *b;
      oc_sched s;
      plan(&p, root, (oc_bcast_alg)a, &b, &s);
      views_match(&p, root, b, &s);
      oc_sched_free(&s);
      oc_bcast_free(b);
    }
  }
}

/* The closed form of f gives the same trees as the table. */
void test_bcast_closed_form_views_agree(void) {
  int rounds = test_sweep() ? 2000 : 200;
  for (int i = 0; i < rounds; i++) {
    oc_params p;
    int64_t root;
    random_params(&p, 400);
    root = test_range(0, p.P - 1);
    for (int a = 0; a < 2; a++) {
      oc_bcast *b;
      oc_sched s;
      plan(&p, root, (oc_bcast_alg)a, &b, &s);
      oc_bcast_test_closed_form(b);
      views_match(&p, root, b, &s);
      oc_sched_free(&s);
      oc_sched_init(&s);
      CHECK_OK(oc_bcast_schedule(b, &s));
      {
        oc_verdict v;
        CHECK_OK(oc_verify_bcast(&p, root, 1, &s, &v));
        CHECK(v.ok);
      }
      oc_sched_free(&s);
      oc_bcast_free(b);
    }
  }
}

/* Local consistency of the per-rank view where no global schedule fits:
 * a rank's parent lists it as a child with the matching send time, and
 * its children name it as their parent. */
static void rank_consistent(oc_bcast *b, const oc_params *p, int64_t r) {
  oc_bcast_view v, pv;
  int64_t h = p->L + 2 * p->o, B = oc_bcast_completion(b);
  CHECK_OK(oc_bcast_rank(b, r, &v));
  CHECK(v.ready >= 0 && v.ready <= B);
  if (v.parent >= 0) {
    int64_t lo = 0, hi, found = 0;
    CHECK_OK(oc_bcast_rank(b, v.parent, &pv));
    CHECK_EQ(v.ready, v.recv_send + h);
    CHECK(pv.ready <= v.recv_send);
    /* children come in send order: find r by send time */
    hi = pv.nchildren - 1;
    while (lo <= hi && !found) {
      int64_t mid = lo + (hi - lo) / 2, c, t;
      CHECK_OK(oc_bcast_child(b, &pv, mid, &c, &t));
      if (t == v.recv_send) { CHECK_EQ(c, r); found = 1; }
      else if (t < v.recv_send) lo = mid + 1; else hi = mid - 1;
    }
    CHECK(found);
  }
  for (int64_t k = 0; k < v.nchildren && k < 8; k++) {
    int64_t c, t;
    oc_bcast_view cv;
    CHECK_OK(oc_bcast_child(b, &v, k, &c, &t));
    CHECK_OK(oc_bcast_rank(b, c, &cv));
    CHECK_EQ(cv.parent, r);
    CHECK_EQ(cv.ready, t + h);
  }
}

void test_bcast_rank_huge(void) {
  /* the last three evaluate f in closed form (B(P) too large to tabulate) */
  static const int64_t ps[][3] = {{6, 2, 4}, {1, 0, 1}, {100, 100, 100},
                                  {0, 100, 1}, {3, 0, 7}, {1, 0, 100},
                                  {1000000, 0, 1}, {1, 0, 1000000},
                                  {(int64_t)1 << 30, (int64_t)1 << 29, (int64_t)1 << 30}};
  const int64_t Ps[] = {1000000000, OC_PROCS_MAX, 999999937};
  for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
    for (size_t j = 0; j < 3; j++) {
      oc_params p;
      oc_bcast *b;
      CHECK_OK(oc_params_logp(&p, Ps[j], ps[i][0], ps[i][1], ps[i][2]));
      for (int a = 0; a < 2; a++) {
        int64_t root = (int64_t)(test_rand() % (uint64_t)Ps[j]);
        CHECK_OK(oc_bcast_new(&b, &p, root, (oc_bcast_alg)a));
        rank_consistent(b, &p, root);
        rank_consistent(b, &p, Ps[j] - 1);
        rank_consistent(b, &p, (root + 1) % Ps[j]);
        for (int k = 0; k < 20; k++)
          rank_consistent(b, &p, (int64_t)(test_rand() % (uint64_t)Ps[j]));
        oc_bcast_free(b);
      }
    }
  }
}

/* g much larger than L + 2o: a chain, B(P) = (P-1)(L+2o). */
void test_bcast_rank_chain(void) {
  oc_params p;
  oc_bcast *b;
  CHECK_OK(oc_params_logp(&p, 1000000000, 1, 0, 1000000000));
  CHECK_OK(oc_bcast_new(&b, &p, 0, OC_BCAST_KARP));
  CHECK_EQ(oc_bcast_completion(b), 999999999);
  for (int k = 0; k < 50; k++) {
    int64_t r = test_range(1, p.P - 1);
    oc_bcast_view v;
    CHECK_OK(oc_bcast_rank(b, r, &v));
    CHECK_EQ(v.parent, r - 1);
    CHECK_EQ(v.ready, r);
    CHECK_EQ(v.nchildren, r == p.P - 1 ? 0 : 1);
  }
  oc_bcast_free(b);
  /* just past the chain: g = 10, L+2o = 1, P = 40 */
  {
    oc_sched s;
    CHECK_OK(oc_params_logp(&p, 40, 1, 0, 10));
    plan(&p, 3, OC_BCAST_KARP, &b, &s);
    views_match(&p, 3, b, &s);
    oc_sched_free(&s);
    oc_bcast_free(b);
  }
}
