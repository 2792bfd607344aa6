/* test_collect.c - all-to-all broadcast and combining broadcast (allreduce). */
#include <stdlib.h>
#include <string.h>

#include "core/oc_core.h"
#include "test.h"

static void model(oc_params *p, int64_t maxP) {
  for (;;) {
    int64_t P = test_range(1, maxP);
    if (test_rand() % 3 == 0) {
      int64_t q = test_range(1, 3), num = test_range(q, 5 * q);
      if (oc_params_postal(p, P, num, q) == OC_OK) return;
    } else if (oc_params_logp(p, P, test_range(0, 9), test_range(0, 4),
                              test_range(1, 9)) == OC_OK) {
      return;
    }
  }
}

/* Karp Thm 4.1 with the unit addition: postal lambda (integer) and
 * P = f_{lambda+1}(T): time = T = the reduction time B(P; lambda + 1), the
 * lower bound.  Other P: at most one round later (counted). */
void test_allreduce_postal_optimal(void) {
  int64_t opt = 0, all = 0;
  for (int64_t lam = 1; lam <= 5; lam++) {
    for (int64_t P = 1; P <= (test_sweep() ? 400 : 120); P++) {
      oc_params p;
      oc_sched s;
      oc_verdict v;
      int64_t t, lb;
      CHECK_OK(oc_params_postal(&p, P, lam, 1));
      oc_sched_init(&s);
      CHECK_OK(oc_allreduce_schedule(&p, &s, &t, &lb));
      CHECK_OK(oc_verify_allreduce(&p, &s, &v));
      if (!v.ok) test_failf(__FILE__, __LINE__, "lambda=%lld P=%lld: %s", (long long)lam, (long long)P, v.detail);
      CHECK_EQ(v.time, t);
      {
        oc_params q; /* is P a value of f for latency lambda + 1? */
        int64_t fT;
        CHECK_OK(oc_params_postal(&q, P, lam + 1, 1));
        fT = oc_reach_count(&q, lb);
        if (fT == P && t != lb)
          test_failf(__FILE__, __LINE__, "lambda=%lld P=%lld = f(%lld): time %lld, lower bound %lld",
                     (long long)lam, (long long)P, (long long)lb, (long long)t, (long long)lb);
      }
      CHECK(t <= lb + 1);
      opt += t == lb;
      all++;
      oc_sched_free(&s);
    }
  }
  fprintf(stderr, "  allreduce, postal integer lambda: %lld of %lld at the lower bound\n",
          (long long)opt, (long long)all);
  { /* Karp's example shape: lambda = 1 gives windows 1, 2, 3, 5, 8 */
    oc_params p;
    oc_sched s;
    int64_t t, lb, dst_of_round[8] = {0}, rounds = 0, prev = -1;
    CHECK_OK(oc_params_postal(&p, 8, 1, 1));
    oc_sched_init(&s);
    CHECK_OK(oc_allreduce_schedule(&p, &s, &t, &lb));
    for (size_t i = 0; i < s.n; i++)
      if (s.msg[i].src == 0 && s.msg[i].t != prev) { dst_of_round[rounds++] = s.msg[i].dst; prev = s.msg[i].t; }
    CHECK_EQ(rounds, 4);
    CHECK_EQ(dst_of_round[0], 1); /* offsets = the receiver's window: 1, 2, 3, 5 */
    CHECK_EQ(dst_of_round[1], 2);
    CHECK_EQ(dst_of_round[2], 3);
    CHECK_EQ(dst_of_round[3], 5);
    CHECK_EQ(t, 5);
    oc_sched_free(&s);
  }
}

/* Executes an allreduce schedule on numbers mod a prime (commutative):
 * every processor must end with the sum. */
static int execute_sum(const oc_params *p, const oc_sched *s) {
  int64_t P = p->P, h = p->L + 2 * p->o;
  const uint64_t M = 1000000007ULL;
  uint64_t want = 0;
  /* history of partial sums per processor, filled in arrival order; a
   * message's value is taken when it is sent, so process by time */
  uint64_t **hist = (uint64_t **)calloc((size_t)P, sizeof *hist);
  size_t *nh = (size_t *)calloc((size_t)P, sizeof *nh);
  typedef struct ev2 { int64_t t; int kind; size_t i; } ev2;
  ev2 *e = (ev2 *)malloc((2 * s->n + 1) * sizeof *e);
  uint64_t *val = (uint64_t *)calloc(s->n + 1, sizeof *val);
  size_t ne = 0;
  int ok = 1;
  for (int64_t q = 0; q < P; q++) {
    hist[q] = (uint64_t *)malloc((s->n + 2) * sizeof(uint64_t));
    hist[q][0] = (uint64_t)(q * q + 7) % M;
    nh[q] = 1;
    want = (want + hist[q][0]) % M;
  }
  for (size_t i = 0; i < s->n; i++) {
    e[ne].t = s->msg[i].t; e[ne].kind = 1; e[ne++].i = i;          /* send */
    e[ne].t = s->msg[i].t + h; e[ne].kind = 0; e[ne++].i = i;      /* arrival */
  }
  for (size_t a = 1; a < ne; a++) { /* insertion sort by (t, kind) */
    ev2 x = e[a];
    size_t b = a;
    while (b > 0 && (e[b - 1].t > x.t || (e[b - 1].t == x.t && e[b - 1].kind > x.kind))) { e[b] = e[b - 1]; b--; }
    e[b] = x;
  }
  for (size_t k = 0; k < ne && ok; k++) {
    const oc_msg *m = &s->msg[e[k].i];
    if (e[k].kind == 1) {
      if ((size_t)m->item >= nh[m->src]) ok = 0; else val[e[k].i] = hist[m->src][m->item];
    } else {
      hist[m->dst][nh[m->dst]] = (hist[m->dst][nh[m->dst] - 1] + val[e[k].i]) % M;
      nh[m->dst]++;
    }
  }
  for (int64_t q = 0; q < P && ok; q++) ok = hist[q][nh[q] - 1] == want;
  for (int64_t q = 0; q < P; q++) free(hist[q]);
  free(hist); free(nh); free(e); free(val);
  return ok;
}

void test_allreduce_random(void) {
  int rounds = test_sweep() ? 3000 : 400;
  int64_t at_bound = 0;
  for (int i = 0; i < rounds; i++) {
    oc_params p;
    oc_sched s;
    oc_verdict v;
    int64_t t, lb;
    model(&p, 100);
    oc_sched_init(&s);
    CHECK_OK(oc_allreduce_schedule(&p, &s, &t, &lb));
    CHECK(t >= lb);
    at_bound += t == lb;
    CHECK_OK(oc_verify_allreduce(&p, &s, &v));
    if (!v.ok)
      test_failf(__FILE__, __LINE__, "P=%lld L=%lld o=%lld g=%lld: %s", (long long)p.P,
                 (long long)p.L, (long long)p.o, (long long)p.g, v.detail);
    CHECK_EQ(v.time, t);
    CHECK(execute_sum(&p, &s));
    if (s.n > 0) { /* mutants: one message dropped; one duplicated */
      size_t m = (size_t)(test_rand() % s.n);
      oc_msg keep = s.msg[m];
      s.msg[m] = s.msg[s.n - 1];
      s.n--;
      CHECK_OK(oc_verify_allreduce(&p, &s, &v));
      CHECK(!v.ok);
      s.msg[s.n++] = s.msg[m];
      s.msg[m] = keep;
      CHECK_OK(oc_sched_push(&s, keep.t + p.g * 1000 + 1000, keep.src, keep.dst, keep.item));
      CHECK_OK(oc_verify_allreduce(&p, &s, &v));
      CHECK(!v.ok);
    }
    oc_sched_free(&s);
  }
  fprintf(stderr, "  allreduce: %lld of %d random instances at the reduction lower bound\n",
          (long long)at_bound, rounds);
}

/* All-to-all: verifies, time as stated, optimal (= Karp's bound) when o = 0
 * or the phases fit; personalized too; mutants rejected. */
void test_alltoall_random(void) {
  int rounds = test_sweep() ? 2000 : 300;
  for (int i = 0; i < rounds; i++) {
    oc_params p;
    oc_sched s;
    oc_verdict v;
    int64_t t, lb, k = test_range(1, 3);
    int pers = i % 2;
    model(&p, 40);
    oc_sched_init(&s);
    CHECK_OK(oc_alltoall_schedule(&p, k, pers, &s, &t, &lb));
    CHECK(t >= lb);
    if (p.o == 0) CHECK_EQ(t, lb);
    CHECK_OK(oc_verify_alltoall(&p, k, pers, &s, &v));
    if (!v.ok) test_failf(__FILE__, __LINE__, "P=%lld: %s", (long long)p.P, v.detail);
    CHECK_EQ(v.time, t);
    if (s.n > 0) {
      size_t m = (size_t)(test_rand() % s.n);
      oc_msg keep = s.msg[m];
      s.msg[m] = s.msg[--s.n];
      CHECK_OK(oc_verify_alltoall(&p, k, pers, &s, &v));
      CHECK(!v.ok && v.rule == OC_RULE_MISSING);
      s.msg[s.n++] = s.msg[m];
      s.msg[m] = keep;
      s.msg[m].src = (s.msg[m].src + 1) % p.P; /* a processor that lacks it */
      if (s.msg[m].src != s.msg[m].dst) {
        CHECK_OK(oc_verify_alltoall(&p, k, pers, &s, &v));
        CHECK(!v.ok);
      }
    }
    oc_sched_free(&s);
  }
  { /* Karp 4.1 example shape: P = 4, L = 6, o = 2, g = 4: phases collide at
     * D = 4, D = 5 fits; 20 against the bound 18 */
    oc_params p;
    oc_sched s;
    int64_t t, lb;
    CHECK_OK(oc_params_logp(&p, 4, 6, 2, 4));
    oc_sched_init(&s);
    CHECK_OK(oc_alltoall_schedule(&p, 1, 0, &s, &t, &lb));
    CHECK_EQ(t, 20);
    /* 18 before; sends 0, 4, 8 would meet receptions 8, 12, 16 (19), and
     * both ends idle 4 of their 8 (2oM + 2 * 4 = 20): optimal */
    CHECK_EQ(lb, 20);
    oc_sched_free(&s);
  }
}

/* The periodic plan's time, computed here: the least D >= max(g, 2o) whose
 * reception phase (o + L) mod D clears the sends (o = 0: D = g). */
static int64_t a2a_periodic(const oc_params *p, int64_t M) {
  int64_t D = p->g > 2 * p->o ? p->g : 2 * p->o;
  while (p->o > 0 && !((p->o + p->L) % D >= p->o && (p->o + p->L) % D + p->o <= D)) D++;
  return p->L + 2 * p->o + D * (M - 1);
}

/* The compacted all-to-all over random instances up to L = 40, o = 10,
 * g = 40 (and postal ones): verified, its time the verifier's, never above
 * the periodic plan nor below the bound, the bound never below the old one
 * (max(L + 2o + g(M-1), 2oM)); times only the same; and where the
 * compaction was kept every message is tight: moved one unit earlier it
 * breaks a rule. */
void test_alltoall_compact(void) {
  int rounds = test_sweep() ? 3000 : 400, compacted = 0, at_bound = 0;
  for (int i = 0; i < rounds; i++) {
    oc_params p;
    oc_sched s;
    oc_verdict v;
    int64_t t, lb, t2, lb2, k = test_range(1, 3), M, per, old;
    int pers = i % 2;
    if (i % 4 == 3) model(&p, 24);
    else
      while (oc_params_logp(&p, test_range(2, 24), test_range(0, 40), test_range(0, 10),
                            test_range(1, 40)) != OC_OK) {
      }
    M = k * (p.P - 1);
    oc_sched_init(&s);
    CHECK_OK(oc_alltoall_schedule(&p, k, pers, &s, &t, &lb));
    CHECK_OK(oc_alltoall_schedule(&p, k, pers, NULL, &t2, &lb2));
    CHECK_EQ(t2, t);
    CHECK_EQ(lb2, lb);
    CHECK_EQ((int64_t)s.n, p.P * M);
    CHECK_OK(oc_verify_alltoall(&p, k, pers, &s, &v));
    if (!v.ok) test_failf(__FILE__, __LINE__, "P=%lld: %s", (long long)p.P, v.detail);
    CHECK_EQ(v.time, t);
    if (p.P == 1) {
      CHECK_EQ(t, 0);
      oc_sched_free(&s);
      continue;
    }
    per = a2a_periodic(&p, M);
    old = p.L + 2 * p.o + p.g * (M - 1);
    if (2 * p.o * M > old) old = 2 * p.o * M;
    CHECK(t <= per);
    CHECK(lb <= t);
    CHECK(lb >= old);
    at_bound += t == lb;
    if (t < per) { /* the compaction: no message but a processor's first
                    * (it may wait for its stagger) can start a unit sooner */
      size_t n = s.n, step = n > 400 ? n / 100 : 1;
      int64_t *first = (int64_t *)malloc((size_t)p.P * sizeof *first);
      CHECK(first != NULL);
      for (int64_t q = 0; q < p.P; q++) first[q] = INT64_MAX;
      for (size_t m = 0; m < n; m++)
        if (s.msg[m].t < first[s.msg[m].src]) first[s.msg[m].src] = s.msg[m].t;
      compacted++;
      for (size_t m = 0; m < n; m += step) {
        if (s.msg[m].t == first[s.msg[m].src]) continue;
        s.msg[m].t--;
        CHECK_OK(oc_verify_alltoall(&p, k, pers, &s, &v));
        if (v.ok) test_failf(__FILE__, __LINE__, "message %zu moves earlier", m);
        s.msg[m].t++;
      }
      free(first);
    }
    oc_sched_free(&s);
  }
  CHECK(compacted > rounds / 8);
  fprintf(stderr, "  alltoall: %d of %d compacted, %d at the bound\n", compacted, rounds, at_bound);
  { /* the three instances: plan 78, 173, 50 before */
    static const int64_t c[3][8] = {/* P L o g k  time bound old */
                                    {3, 20, 4, 3, 3, 48, 48, 78},
                                    {12, 11, 1, 3, 3, 117, 110, 173},
                                    {17, 3, 1, 2, 1, 42, 36, 50}};
    for (int i = 0; i < 3; i++) {
      oc_params p;
      int64_t t, lb;
      CHECK_OK(oc_params_logp(&p, c[i][0], c[i][1], c[i][2], c[i][3]));
      CHECK_OK(oc_alltoall_schedule(&p, c[i][4], 0, NULL, &t, &lb));
      CHECK_EQ(t, c[i][5]);
      CHECK_EQ(lb, c[i][6]);
      CHECK_EQ(a2a_periodic(&p, c[i][4] * (c[i][0] - 1)), c[i][7]);
    }
  }
}

/* ---- all-to-all: exact optima of tiny instances ------------------------------
 * The least completion time over every direct schedule (each message from the
 * item's own processor; k messages for each ordered pair, the items of a pair
 * interchangeable), found by a depth-first search over the send starts
 * t = 0, 1, 2, ... with the LogP rules checked as the sends are placed and a
 * memo of the states that cannot finish by T.  A send at t can collide only
 * with receptions of sends before t, so placing sends in time order checks
 * every rule: send gap and overlap at the sender, receive gap at the
 * receiver (receptions arrive in send order).  No library code. */
#define XP 4
typedef struct xa {
  int64_t P, k, L, o, g, G, T;
  int cnt[XP][XP];          /* messages still to send p -> q */
  int64_t ls[XP], lr[XP];   /* last send / reception start (-inf: none) */
  int64_t rec[XP][16];      /* reception starts of p (all of them) */
  int nrec[XP];
  uint64_t *memo;           /* failed states (open addressing, 0 empty) */
  size_t cap, used;
} xa;

static uint64_t xa_key(const xa *x, int64_t t) {
  uint64_t h = 1469598103934665603ull;
  for (int64_t p = 0; p < x->P; p++) {
    uint64_t v = 0;
    for (int64_t q = 0; q < x->P; q++) v = v * 3 + (uint64_t)x->cnt[p][q];
    v = v * 64 + (uint64_t)(x->ls[p] < 0 ? 63 : oc_min64(t - x->ls[p], 62));
    v = v * 64 + (uint64_t)(x->lr[p] < 0 ? 63 : oc_min64(t + x->o + x->L - x->lr[p], 62));
    for (int i = 0; i < x->nrec[p]; i++) /* receptions still ahead of t - o */
      if (x->rec[p][i] + x->o > t) v = v * 131 + (uint64_t)(x->rec[p][i] - t + 64);
    h = (h ^ v) * 1099511628211ull;
    h ^= h >> 29;
  }
  h = (h ^ (uint64_t)t) * 0x9e3779b97f4a7c15ull;
  return h ? h : 1;
}

static int xa_seen(xa *x, uint64_t key, int add) {
  size_t i = (size_t)(key % x->cap);
  while (x->memo[i] != 0) {
    if (x->memo[i] == key) return 1;
    i = (i + 1) % x->cap;
  }
  if (add && x->used < x->cap / 2) {
    x->memo[i] = key;
    x->used++;
  }
  return 0;
}

/* can every remaining message be sent from t on and arrive by T? */
static int xa_lower(const xa *x, int64_t t) {
  for (int64_t p = 0; p < x->P; p++) {
    int64_t out = 0, in = 0, s0, r0;
    for (int64_t q = 0; q < x->P; q++) {
      out += x->cnt[p][q];
      in += x->cnt[q][p];
    }
    s0 = x->ls[p] < 0 ? t : oc_max64(t, x->ls[p] + x->G);
    if (out > 0 && s0 + x->G * (out - 1) + x->L + 2 * x->o > x->T) return 0;
    r0 = x->lr[p] < 0 ? t + x->o + x->L : oc_max64(t + x->o + x->L, x->lr[p] + x->G);
    if (in > 0 && r0 + x->G * (in - 1) + x->o > x->T) return 0;
  }
  return 1;
}

static int xa_time(xa *x, int64_t t);

/* processor p decides at t (p == P: next time) */
static int xa_proc(xa *x, int64_t t, int64_t p) {
  if (p == x->P) return xa_time(x, t + 1);
  if (xa_proc(x, t, p + 1)) return 1; /* p idle at t */
  if (x->ls[p] >= 0 && t - x->ls[p] < x->G) return 0;
  for (int i = 0; i < x->nrec[p]; i++) /* [t, t+o) against p's receptions */
    if (x->rec[p][i] < t + x->o && x->rec[p][i] + x->o > t) return 0;
  for (int64_t q = 0; q < x->P; q++) {
    int64_t R = t + x->o + x->L, ls = x->ls[p], lr = x->lr[q];
    if (x->cnt[p][q] == 0 || (lr >= 0 && R - lr < x->G)) continue;
    x->cnt[p][q]--;
    x->ls[p] = t;
    x->lr[q] = R;
    x->rec[q][x->nrec[q]++] = R;
    if (xa_proc(x, t, p + 1)) return 1;
    x->nrec[q]--;
    x->lr[q] = lr;
    x->ls[p] = ls;
    x->cnt[p][q]++;
  }
  return 0;
}

static int xa_time(xa *x, int64_t t) {
  int left = 0;
  uint64_t key;
  for (int64_t p = 0; p < x->P; p++)
    for (int64_t q = 0; q < x->P; q++) left += x->cnt[p][q];
  if (left == 0) {
    for (int64_t p = 0; p < x->P; p++)
      if (x->lr[p] >= 0 && x->lr[p] + x->o > x->T) return 0;
    return 1;
  }
  if (t + x->L + 2 * x->o > x->T || !xa_lower(x, t)) return 0;
  key = xa_key(x, t);
  if (xa_seen(x, key, 0)) return 0;
  if (xa_proc(x, t, 0)) return 1;
  xa_seen(x, key, 1);
  return 0;
}

/* the exact optimum, searched from `from` up to `upto` (-1 past it) */
static int64_t xa_optimum(int64_t P, int64_t k, int64_t L, int64_t o, int64_t g, int64_t from,
                          int64_t upto) {
  xa x;
  memset(&x, 0, sizeof x);
  x.P = P; x.k = k; x.L = L; x.o = o; x.g = g; x.G = g > o ? g : o;
  x.cap = (size_t)1 << 20;
  x.memo = (uint64_t *)calloc(x.cap, sizeof *x.memo);
  if (x.memo == NULL) return -2;
  for (int64_t T = from; T <= upto; T++) {
    if (x.used > 0) memset(x.memo, 0, x.cap * sizeof *x.memo);
    x.used = 0;
    x.T = T;
    for (int64_t p = 0; p < P; p++) {
      x.ls[p] = x.lr[p] = -1;
      x.nrec[p] = 0;
      for (int64_t q = 0; q < P; q++) x.cnt[p][q] = p == q ? 0 : (int)k;
    }
    if (xa_time(&x, 0)) {
      free(x.memo);
      return T;
    }
  }
  free(x.memo);
  return -1;
}

/* Exact optima of tiny instances against the plan and the bound: P = 2, 3
 * with k = 1, 2 over L 0..4, o 0..3, g 1..4 (sweep: also P = 4, k = 1 and
 * L to 6, g to 5).  The bound never exceeds the optimum, the plan never
 * beats it (the search would be wrong); the counts are printed. */
void test_alltoall_exact(void) {
  int n = 0, tight = 0, opt_plan = 0, Lmax = test_sweep() ? 6 : 4, gmax = test_sweep() ? 5 : 4;
  for (int64_t P = 2; P <= (test_sweep() ? 4 : 3); P++)
    for (int64_t k = 1; k <= (P == 4 ? 1 : 2); k++)
      for (int64_t L = 0; L <= Lmax; L++)
        for (int64_t o = 0; o <= 3; o++)
          for (int64_t g = 1; g <= gmax; g++) {
            oc_params p;
            int64_t t, lb, opt;
            if (oc_params_logp(&p, P, L, o, g) != OC_OK) continue;
            CHECK_OK(oc_alltoall_schedule(&p, k, 0, NULL, &t, &lb));
            opt = xa_optimum(P, k, L, o, g, L + 2 * o, t);
            CHECK(opt != -2);
            if (opt < 0 || lb > opt)
              test_failf(__FILE__, __LINE__, "P=%lld k=%lld L=%lld o=%lld g=%lld: plan %lld, bound %lld, optimum %lld",
                         (long long)P, (long long)k, (long long)L, (long long)o, (long long)g,
                         (long long)t, (long long)lb, (long long)opt);
            n++;
            tight += lb == opt;
            opt_plan += t == opt;
          }
  fprintf(stderr, "  alltoall exact: %d instances, bound = optimum in %d, plan = optimum in %d\n", n,
          tight, opt_plan);
}

/* A rank's view of the all-to-all broadcast (oc_alltoall_rank, what the
 * runtime's allgather runs) is exactly its part of the global schedule:
 * its sends in time order (peer, item), its receptions in time order. */
void test_alltoall_rank_views(void) {
  int rounds = test_sweep() ? 1000 : 150;
  for (int i = 0; i < rounds; i++) {
    oc_params p;
    oc_sched s;
    int64_t t, lb, k = test_range(1, 3);
    model(&p, 24);
    oc_sched_init(&s);
    CHECK_OK(oc_alltoall_schedule(&p, k, 0, &s, &t, &lb));
    for (int64_t r = 0; r < p.P; r++) {
      oc_mb_rank v;
      size_t ns = 0, nr = 0;
      memset(&v, 0, sizeof v);
      CHECK_OK(oc_alltoall_rank(&p, k, r, &v));
      CHECK_EQ((int64_t)v.n, 2 * k * (p.P - 1));
      for (int send = 0; send <= 1; send++) {
        /* the schedule's messages of r of this kind, by time (one a step) */
        int64_t last = -1;
        size_t at = 0;
        for (size_t q = 0; q < v.n; q++) {
          const oc_mb_step *st = &v.step[q];
          int64_t best = -1;
          if ((st->kind == OC_MB_SEND) != send) continue;
          CHECK_EQ(st->len, 1);
          CHECK_EQ(st->copy, 1);
          /* the next message of r after `last` */
          for (size_t x = 0; x < s.n; x++) {
            const oc_msg *mm = &s.msg[x];
            if ((send ? mm->src : mm->dst) != r || mm->t <= last) continue;
            if (best < 0 || mm->t < s.msg[best].t) best = (int64_t)x;
          }
          CHECK(best >= 0);
          CHECK_EQ(send ? s.msg[best].dst : s.msg[best].src, st->peer);
          CHECK_EQ(s.msg[best].item, st->item);
          last = s.msg[best].t;
          at++;
        }
        if (send) ns = at;
        else nr = at;
      }
      CHECK_EQ((int64_t)ns, k * (p.P - 1));
      CHECK_EQ((int64_t)nr, k * (p.P - 1));
      oc_mb_rank_free(&v);
    }
    oc_sched_free(&s);
  }
  { /* refusals */
    oc_params p;
    oc_mb_rank v;
    memset(&v, 0, sizeof v);
    CHECK_OK(oc_params_logp(&p, 4, 6, 2, 4));
    CHECK_EQ(oc_alltoall_rank(&p, 1, 4, &v), OC_ERANGE);
    CHECK_EQ(oc_alltoall_rank(&p, 0, 0, &v), OC_ERANGE);
    CHECK_EQ(oc_alltoall_rank(&p, 1, 0, NULL), OC_EINVAL);
  }
}

/* a random ordered factorisation of P into factors >= 2 (n = 0 for P = 1) */
static int factorise(int64_t P, int64_t *dims) {
  int64_t f[64], nf = 0, x = P;
  int n = 0;
  for (int64_t d = 2; d <= x / d; d++)
    while (x % d == 0) {
      f[nf++] = d;
      x /= d;
    }
  if (x > 1) f[nf++] = x;
  for (int64_t i = nf - 1; i > 0; i--) { /* shuffled, then runs multiplied */
    int64_t j = test_range(0, i), t = f[i];
    f[i] = f[j];
    f[j] = t;
  }
  for (int64_t i = 0; i < nf; i++) {
    if (n > 0 && test_rand() % 2 == 0) dims[n - 1] *= f[i];
    else dims[n++] = f[i];
  }
  return n;
}

/* every rank's view of the mesh allgather, checked together */
static int mesh_check(int64_t P, const int64_t *dims, int n, oc_mb_rank *all, oc_verdict *vd) {
  for (int64_t r = 0; r < P; r++) CHECK_OK(oc_allgather_mesh_rank(P, dims, n, r, &all[r]));
  return oc_verify_oviews(P, P, OC_OVIEWS_GATHER, all, vd);
}

/* The mesh allgather (oc_allgather_mesh_rank) on random P and random
 * ordered factorisations: every rank's view checked together by the
 * verifier's allgather mode (each rank ends with every block, nothing sent
 * before it is held, no deadlock); sum (d_t - 1) sends and as many
 * receptions a rank, P - 1 packets received; one factor gives exactly
 * Karp's views (oc_alltoall_rank), factors of 2 recursive doubling's
 * log2 P exchanges.  Mutants (a block sent one rank off, a reception
 * dropped, a rank's phases swapped, an addition) are rejected, and the
 * verifier's allgather mode rejects a view set where a rank starts
 * with another's block. */
void test_allgather_mesh_views(void) {
  int rounds = test_sweep() ? 2000 : 300;
  for (int it = 0; it < rounds; it++) {
    int64_t P = it < 4 ? (int64_t[]){1, 2, 64, 256}[it] : test_range(1, 200), dims[64];
    int n = it == 2 ? 6 : factorise(P, dims), sends = 0;
    oc_mb_rank *all = (oc_mb_rank *)calloc((size_t)P, sizeof *all);
    oc_verdict vd;
    if (it == 2)
      for (int t = 0; t < 6; t++) dims[t] = 2;
    for (int t = 0; t < n; t++) sends += (int)dims[t] - 1;
    CHECK_OK(mesh_check(P, dims, n, all, &vd));
    CHECK(vd.ok);
    for (int64_t r = 0; r < P; r++) {
      int64_t got = 0;
      CHECK_EQ((int64_t)all[r].n, 2 * (int64_t)sends);
      for (size_t i = 0; i < all[r].n; i++)
        if (all[r].step[i].kind == OC_MB_RECV) got += all[r].step[i].len;
      CHECK_EQ(got, P - 1);
    }
    if (n == 1) { /* Karp's all-to-all, step for step */
      oc_params p;
      CHECK_OK(oc_params_logp(&p, P, 5, 1, 2));
      for (int64_t r = 0; r < P; r++) {
        oc_mb_rank k;
        memset(&k, 0, sizeof k);
        CHECK_OK(oc_alltoall_rank(&p, 1, r, &k));
        CHECK_EQ((int64_t)k.n, (int64_t)all[r].n);
        for (size_t i = 0; i < k.n && i < all[r].n; i++)
          CHECK(k.step[i].kind == all[r].step[i].kind && k.step[i].peer == all[r].step[i].peer &&
                k.step[i].item == all[r].step[i].item && k.step[i].len == all[r].step[i].len);
        oc_mb_rank_free(&k);
      }
    }
    if (P > 2 && all[1].n > 0) { /* mutants, each on a fresh set */
      int64_t q = test_range(0, P - 1);
      size_t i = (size_t)test_range(0, (int64_t)all[q].n - 1);
      oc_mb_step *st = &all[q].step[i], keep = *st;
      int kind = (int)test_range(0, n >= 2 ? 3 : 2);
      if (kind == 0) { /* the block one rank off */
        st->item = (st->item + 1) % P;
        if (st->item + st->len > P) st->item = 0;
        if (st->item == keep.item) st->item = st->len < P ? keep.item + 1 : keep.item;
      } else if (kind == 1) { /* a reception (the first) dropped */
        for (i = 0; all[q].step[i].kind != OC_MB_RECV; i++) {}
        memmove(&all[q].step[i], &all[q].step[i + 1], (all[q].n - i - 1) * sizeof *st);
        all[q].n--;
      } else if (kind == 2) { /* an addition */
        st->copy = 0;
      } else { /* phases 1 and 2 of rank q swapped: a send before it holds */
        size_t a = 2 * (size_t)(dims[0] - 1), b = 2 * (size_t)(dims[1] - 1);
        oc_mb_step *tmp = (oc_mb_step *)malloc((a + b) * sizeof *tmp);
        memcpy(tmp, all[q].step + a, b * sizeof *tmp);
        memcpy(tmp + b, all[q].step, a * sizeof *tmp);
        memcpy(all[q].step, tmp, (a + b) * sizeof *tmp);
        free(tmp);
      }
      if (kind != 0 || st->item != keep.item) {
        CHECK_OK(oc_verify_oviews(P, P, OC_OVIEWS_GATHER, all, &vd));
        CHECK(!vd.ok);
        if (kind == 2) CHECK_EQ((int)vd.rule, (int)OC_RULE_RANGE); /* an addition */
        if (kind == 3) CHECK_EQ((int)vd.rule, (int)OC_RULE_HELD); /* sent before held */
      }
    }
    for (int64_t r = 0; r < P; r++) oc_mb_rank_free(&all[r]);
    free(all);
  }
  { /* Karp's views with k blocks a rank pass the allgather mode too */
    oc_params p;
    oc_mb_rank all[7];
    oc_verdict vd;
    memset(all, 0, sizeof all);
    CHECK_OK(oc_params_logp(&p, 7, 5, 1, 2));
    for (int64_t r = 0; r < 7; r++) CHECK_OK(oc_alltoall_rank(&p, 3, r, &all[r]));
    CHECK_OK(oc_verify_oviews(7, 21, OC_OVIEWS_GATHER, all, &vd));
    CHECK(vd.ok);
    CHECK_EQ(oc_verify_oviews(7, 20, OC_OVIEWS_GATHER, all, &vd), OC_EINVAL); /* m % P */
    /* a rank sends a block it does not hold yet: HELD */
    all[2].step[0].item = 0;
    CHECK_OK(oc_verify_oviews(7, 21, OC_OVIEWS_GATHER, all, &vd));
    CHECK(!vd.ok);
    CHECK_EQ((int)vd.rule, (int)OC_RULE_HELD);
    for (int64_t r = 0; r < 7; r++) oc_mb_rank_free(&all[r]);
  }
  { /* refusals */
    oc_mb_rank v;
    int64_t d[3] = {2, 3, 4}, one[1] = {1};
    memset(&v, 0, sizeof v);
    CHECK_EQ(oc_allgather_mesh_rank(24, d, 3, 24, &v), OC_ERANGE);
    CHECK_EQ(oc_allgather_mesh_rank(24, d, 2, 0, &v), OC_ERANGE);   /* product 6 */
    CHECK_EQ(oc_allgather_mesh_rank(1, one, 1, 0, &v), OC_ERANGE);  /* a factor 1 */
    CHECK_EQ(oc_allgather_mesh_rank(24, d, -1, 0, &v), OC_ERANGE);
    CHECK_EQ(oc_allgather_mesh_rank(24, NULL, 3, 0, &v), OC_EINVAL);
    CHECK_EQ(oc_allgather_mesh_rank(24, d, 3, 0, NULL), OC_EINVAL);
    CHECK_OK(oc_allgather_mesh_rank(1, NULL, 0, 0, &v));
    CHECK_EQ((int64_t)v.n, 0);
    oc_mb_rank_free(&v);
  }
}

/* ---- the one-packet allreduce's choice (oc_allreduce_best) ---------------- */

/* The winner's verifier: the circulant's, the two-phase one's, or the
 * vector form's (the m-packet planner's program) */
static void verify_choice(const oc_params *p, oc_allreduce_alg a, const oc_sched *s,
                          oc_verdict *v) {
  if (a == OC_AR_CIRCULANT) CHECK_OK(oc_verify_allreduce(p, s, v));
  else if (a == OC_AR_PROGRAM) CHECK_OK(oc_verify_vreduce(p, -1, 1, s, v));
  else CHECK_OK(oc_verify_allreduce_ordered(p, s, v));
}

/* Random instances: every construction's schedule verifies with its stated
 * time; the choice is the fastest and is what it says; the bound is at most
 * every time and at least the reduction time; mutants (a message dropped, a
 * reduction message sent twice, the broadcast phase one unit earlier) are
 * rejected. */
void test_allreduce_best_random(void) {
  int rounds = test_sweep() ? 3000 : test_valgrind() ? 150 : 500;
  int64_t won[OC_AR_COUNT] = {0}, at_bound = 0, rejected = 0;
  for (int i = 0; i < rounds; i++) {
    oc_params p;
    oc_allreduce_choice ch;
    oc_sched s;
    oc_verdict v;
    int64_t red, best = -1;
    if (i % 2) model(&p, 200);
    else /* the bench's ranges (bench/allreduce_table.sh), smaller P */
      while (oc_params_logp(&p, test_range(1, 300), test_range(0, 20), test_range(0, 10),
                            test_range(1, 40)) != OC_OK) {
      }
    CHECK_OK(oc_allreduce_best(&p, NULL, &ch));
    CHECK_OK(oc_reduce_time(&p, &red));
    CHECK(ch.lower_bound >= red);
    for (int a = 0; a < OC_AR_COUNT; a++) {
      int64_t t = -1, lb = -1;
      oc_sched_init(&s);
      CHECK_OK(oc_allreduce_construct(&p, (oc_allreduce_alg)a, &s, &t));
      CHECK_EQ(t, ch.times[a]);
      CHECK(t >= ch.lower_bound);
      if (best < 0 || t < best) best = t;
      verify_choice(&p, (oc_allreduce_alg)a, &s, &v);
      if (!v.ok || v.time != t)
        test_failf(__FILE__, __LINE__, "%s P=%lld L=%lld o=%lld g=%lld: %s (time %lld, %lld)",
                   oc_allreduce_alg_name((oc_allreduce_alg)a), (long long)p.P, (long long)p.L,
                   (long long)p.o, (long long)p.g, v.detail, (long long)t, (long long)v.time);
      if (a == OC_AR_ORDERED) { /* the old entry point builds the same */
        oc_sched s2;
        int64_t t2;
        oc_sched_init(&s2);
        CHECK_OK(oc_allreduce_ordered_schedule(&p, &s2, &t2, &lb));
        CHECK_EQ(t2, t);
        CHECK_EQ(lb, ch.lower_bound);
        oc_sched_free(&s2);
      }
      if (a != OC_AR_CIRCULANT && s.n > 0) { /* mutants (PROGRAM: the first) */
        /* PROGRAM's columns go with its messages: drop the last one there */
        size_t m = a == OC_AR_PROGRAM ? s.n - 1 : (size_t)(test_rand() % s.n);
        oc_msg keep = s.msg[m];
        s.msg[m] = s.msg[s.n - 1];
        s.n--; /* dropped: someone misses a value or the result */
        verify_choice(&p, (oc_allreduce_alg)a, &s, &v);
        CHECK(!v.ok);
        rejected += !v.ok;
        s.msg[s.n++] = s.msg[m];
        s.msg[m] = keep;
        for (size_t k = 0; k < s.n && a != OC_AR_PROGRAM; k++)
          if (s.msg[k].item == 0) { /* a reduction message twice: counted twice */
            oc_msg d = s.msg[k];
            CHECK_OK(oc_sched_push(&s, d.t + 1000 * (p.g + p.o + 1), d.src, d.dst, 0));
            verify_choice(&p, (oc_allreduce_alg)a, &s, &v);
            CHECK(!v.ok);
            rejected += !v.ok;
            s.n--;
            break;
          }
        { /* the broadcast one unit too early: the root lacks the result */
          int64_t first = INT64_MAX;
          for (size_t k = 0; k < s.n; k++)
            if (s.msg[k].item == 1 && s.msg[k].t < first) first = s.msg[k].t;
          if (first != INT64_MAX && a != OC_AR_PROGRAM) {
            int64_t T1 = 0;
            oc_reduce *r = NULL;
            CHECK_OK(oc_reduce_new(&r, &p, 0, a == OC_AR_ORDERED));
            T1 = oc_reduce_completion(r);
            oc_reduce_free(r);
            if (first == T1) { /* sent the moment the reduction ends: one earlier fails */
              for (size_t k = 0; k < s.n; k++)
                if (s.msg[k].item == 1) s.msg[k].t--;
              verify_choice(&p, (oc_allreduce_alg)a, &s, &v);
              CHECK(!v.ok);
              rejected += !v.ok;
            }
          }
        }
      }
      oc_sched_free(&s);
    }
    CHECK_EQ(ch.time, best);
    CHECK_EQ(ch.times[ch.alg], best);
    for (int a = 0; a < (int)ch.alg; a++) CHECK(ch.times[a] > best); /* ties: the first */
    won[ch.alg]++;
    at_bound += ch.time == ch.lower_bound;
    oc_sched_init(&s); /* the winner, built by the choice */
    CHECK_OK(oc_allreduce_best(&p, &s, &ch));
    verify_choice(&p, ch.alg, &s, &v);
    CHECK(v.ok && v.time == ch.time);
    oc_sched_free(&s);
  }
  fprintf(stderr,
          "  allreduce choice: circulant %lld, rank-order reduce+bcast %lld, commutative "
          "reduce+bcast %lld, the m-packet planner's %lld; %lld of %d at the bound; %lld mutants "
          "rejected\n",
          (long long)won[0], (long long)won[1], (long long)won[2], (long long)won[3],
          (long long)at_bound, rounds, (long long)rejected);
}

/* ---- exact optima of tiny one-packet allreduces (exhaustive search) -------
 *
 * A relaxation of the model, written without the planners: P <= 4
 * processors, a value is a set of contributions (a bit mask); processor q
 * starts with {q}.  In each time unit a processor may start a send of any
 * value it holds to any other processor (busy [s, s+o), send starts g
 * apart; the receiver busy [s+o+L, s+2o+L), reception starts g apart, the
 * value held from s+L+2o) and an addition of two disjoint values it holds
 * (busy one unit, the union held at its end; the operands are kept);
 * no two busy intervals of a processor overlap.  Done when every processor
 * holds the full set.  The capacity rule is left out and values are never
 * consumed, so every schedule optcast's verifiers accept is one of these
 * (the circulant's windows and the two-phase trees alike): the optimum
 * found is at most the true optimum, and a lower bound above it would be
 * wrong.  P <= 3: at P = 4 the search runs past its budget.  Depth-first over time with iterative deepening on the horizon T,
 * a table of failed states (two 64-bit hashes), and the prune "a
 * processor without the full set holds it at the earliest one unit from
 * now if what it holds covers every contribution, else when a pending value
 * arrives (one unit later unless that value is the full set), else L + 2o
 * after a new send".  Actions that
 * cannot help are skipped: a value sent to a processor that holds it or has
 * it coming, an addition whose result is held or coming. */

#define AX_MAXP 4 /* the state's room; the test runs P <= 3 */
#define AX_MAXPEND 32
typedef struct ax_pend { int t, q, mask; } ax_pend; /* q holds mask from t (a reception
                                                       ends at t: busy [t-o, t)) */
typedef struct ax_proc { uint32_t held; int busy, last_send, last_recv; } ax_proc;
typedef struct ax_state { ax_proc pr[AX_MAXP]; ax_pend pd[AX_MAXPEND]; int np; } ax_state;
typedef struct ax_ctx {
  int P, L, o, g, T, full;
  uint64_t *memo; /* pairs of hashes; 0,0 empty */
  size_t memo_cap, memo_n;
  int64_t nodes, budget;
} ax_ctx;

#define AX_NEVER (-1000000)

/* [a, b) free of q's busy time and of its receptions still coming */
static int ax_free(const ax_ctx *c, const ax_state *s, int q, int a, int b) {
  if (b <= a) return 1; /* an empty interval (o = 0) overlaps nothing */
  if (s->pr[q].busy > a) return 0;
  for (int i = 0; i < s->np; i++) {
    const ax_pend *d = &s->pd[i];
    if (d->q != q || (d->mask & 0x10000)) continue; /* an addition: in busy */
    if (c->o > 0 && d->t - c->o < b && a < d->t) return 0;
  }
  return 1;
}

static int ax_has(const ax_state *s, int q, int mask) {
  if (s->pr[q].held & (1u << mask)) return 1;
  for (int i = 0; i < s->np; i++)
    if (s->pd[i].q == q && (s->pd[i].mask & 0xffff) == mask) return 1;
  return 0;
}

static void ax_hash(const ax_ctx *c, const ax_state *s, int t, uint64_t *h1, uint64_t *h2) {
  int buf[4 * AX_MAXP + 3 * AX_MAXPEND + 2], n = 0;
  ax_pend pd[AX_MAXPEND];
  buf[n++] = t;
  for (int q = 0; q < c->P; q++) {
    const ax_proc *r = &s->pr[q];
    buf[n++] = (int)r->held;
    buf[n++] = r->busy > t ? r->busy - t : 0;
    buf[n++] = r->last_send + c->g > t ? r->last_send + c->g - t : 0;
    buf[n++] = r->last_recv + c->g > t + c->o + c->L ? r->last_recv + c->g - t : -1;
  }
  memcpy(pd, s->pd, (size_t)s->np * sizeof *pd);
  for (int i = 1; i < s->np; i++) { /* sorted: the same state hashes alike */
    ax_pend x = pd[i];
    int j = i;
    while (j > 0 && (pd[j - 1].t > x.t || (pd[j - 1].t == x.t && (pd[j - 1].q > x.q ||
                     (pd[j - 1].q == x.q && pd[j - 1].mask > x.mask))))) {
      pd[j] = pd[j - 1];
      j--;
    }
    pd[j] = x;
  }
  for (int i = 0; i < s->np; i++) {
    buf[n++] = pd[i].t - t;
    buf[n++] = pd[i].q;
    buf[n++] = pd[i].mask;
  }
  *h1 = 1469598103934665603ULL;
  *h2 = 88172645463325252ULL;
  for (int i = 0; i < n; i++) {
    uint64_t v = (uint64_t)(uint32_t)buf[i] + 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1);
    *h1 = (*h1 ^ v) * 1099511628211ULL;
    *h2 ^= v + 0x9e3779b97f4a7c15ULL + (*h2 << 6) + (*h2 >> 2);
  }
  if (*h1 == 0 && *h2 == 0) *h1 = 1;
}

static int ax_memo(ax_ctx *c, uint64_t h1, uint64_t h2, int insert) {
  size_t i = (size_t)(h1 ^ (h2 >> 7)) & (c->memo_cap - 1);
  for (;;) {
    uint64_t *e = &c->memo[2 * i];
    if (e[0] == 0 && e[1] == 0) {
      if (insert && c->memo_n < c->memo_cap / 2) {
        e[0] = h1;
        e[1] = h2;
        c->memo_n++;
      }
      return 0;
    }
    if (e[0] == h1 && e[1] == h2) return 1;
    i = (i + 1) & (c->memo_cap - 1);
  }
}

static int ax_step(ax_ctx *c, ax_state *s, int t);

/* processor p's choice at time t (send, addition, both when o = 0, or
 * neither), then the next processor's; after the last, the next unit */
static int ax_choose(ax_ctx *c, ax_state *s, int t, int p) {
  int nm = 1 << c->P;
  if (p == c->P) return ax_step(c, s, t + 1);
  for (int send = -1; send < nm * c->P; send++) {
    ax_state s1 = *s;
    if (send >= 0) { /* value v to q */
      int v = send / c->P, q = send % c->P, rs = t + c->o + c->L;
      ax_proc *a = &s1.pr[p], *b = &s1.pr[q];
      if (q == p || v == 0 || !(a->held & (1u << v))) continue;
      if (t - a->last_send < c->g || ax_has(&s1, q, v)) continue;
      if (!ax_free(c, &s1, p, t, t + c->o)) continue;
      if (rs - b->last_recv < c->g || !ax_free(c, &s1, q, rs, rs + c->o)) continue;
      if (s1.np == AX_MAXPEND) continue;
      a->last_send = t;
      if (c->o > 0) a->busy = t + c->o;
      b->last_recv = rs;
      s1.pd[s1.np].t = rs + c->o;
      s1.pd[s1.np].q = q;
      s1.pd[s1.np++].mask = v;
    }
    for (int add = -1; add < nm * nm; add++) {
      ax_state s2 = s1;
      if (add >= 0) {
        int x = add / nm, y = add % nm;
        ax_proc *a = &s2.pr[p];
        if (x == 0 || y <= x || (x & y) || !(a->held & (1u << x)) || !(a->held & (1u << y)))
          continue;
        if (ax_has(&s2, p, x | y) || !ax_free(c, &s2, p, t, t + 1) || s2.np == AX_MAXPEND)
          continue;
        a->busy = t + 1;
        s2.pd[s2.np].t = t + 1;
        s2.pd[s2.np].q = p;
        s2.pd[s2.np++].mask = (x | y) | 0x10000; /* an addition: no reception overhead */
      }
      if (ax_choose(c, &s2, t, p + 1)) return 1;
      if (c->nodes > c->budget) return 0;
    }
  }
  return 0;
}

static int ax_step(ax_ctx *c, ax_state *s, int t) {
  int done = 1;
  uint64_t h1, h2;
  if (++c->nodes > c->budget) return 0;
  for (int i = 0; i < s->np;) { /* deliveries */
    if (s->pd[i].t <= t) {
      s->pr[s->pd[i].q].held |= 1u << (s->pd[i].mask & 0xffff);
      s->pd[i] = s->pd[--s->np];
    } else {
      i++;
    }
  }
  for (int q = 0; q < c->P; q++) {
    int e;
    if (s->pr[q].held & (1u << c->full)) continue;
    done = 0;
    e = t + c->L + 2 * c->o; /* a send from now on */
    for (int i = 0; i < s->np; i++)
      if (s->pd[i].q == q) e = oc_min64(e, s->pd[i].t + ((s->pd[i].mask & 0xffff) != c->full));
    { /* additions of what it holds: one at least */
      int all = 0;
      for (int x = 1; x < c->full; x++)
        if (s->pr[q].held & (1u << x)) all |= x;
      if (all == c->full) e = t + 1;
    }
    if (e > c->T) return 0;
  }
  if (done) return 1;
  if (t >= c->T) return 0;
  ax_hash(c, s, t, &h1, &h2);
  if (ax_memo(c, h1, h2, 0)) return 0;
  if (ax_choose(c, s, t, 0)) return 1;
  if (c->nodes <= c->budget) ax_memo(c, h1, h2, 1);
  return 0;
}

/* the least T, or -1 past Tmax or the node budget */
static int64_t ax_optimum(const oc_params *p, int64_t Tmax, int64_t budget) {
  ax_ctx c;
  int64_t ans = -1;
  memset(&c, 0, sizeof c);
  c.P = (int)p->P;
  c.L = (int)p->L;
  c.o = (int)p->o;
  c.g = (int)p->g;
  c.full = (1 << c.P) - 1;
  c.memo_cap = (size_t)1 << (c.P >= 4 ? 22 : 18);
  c.memo = (uint64_t *)calloc(2 * c.memo_cap, sizeof *c.memo);
  c.budget = budget;
  if (c.memo == NULL) return -1;
  if (c.P == 1) ans = 0;
  for (int T = 1; ans < 0 && T <= Tmax && c.nodes <= c.budget; T++) {
    ax_state s;
    memset(&s, 0, sizeof s);
    for (int q = 0; q < c.P; q++) {
      s.pr[q].held = 1u << (1 << q);
      s.pr[q].last_send = s.pr[q].last_recv = AX_NEVER;
    }
    c.T = T;
    memset(c.memo, 0, 2 * c.memo_cap * sizeof *c.memo);
    c.memo_n = 0;
    if (ax_step(&c, &s, 0)) ans = T;
  }
  free(c.memo);
  return c.nodes > c.budget ? -1 : ans;
}

/* Tiny instances: the lower bound is at most the exhaustive optimum (of the
 * relaxation, so at most the true one), and the chosen plan at least it;
 * the counts where the plan, and the bound, meet it are printed. */
void test_allreduce_exact_small(void) {
  int64_t n = 0, plan_opt = 0, lb_opt = 0, skipped = 0, raised = 0;
  /* valgrind runs 20-50x slower: the smaller half; the sweep: wider */
  int small = test_valgrind(), wide = test_sweep();
  for (int P = 2; P <= 3; P++)
    for (int L = 0; L <= (small ? 2 : wide ? 4 : 3); L++)
      for (int o = 0; o <= (small ? 1 : wide ? 3 : 2); o++)
        for (int g = 1; g <= (small ? 5 : wide ? 10 : 8); g++) {
          oc_params p;
          oc_allreduce_choice ch;
          int64_t ex, red;
          if (oc_params_logp(&p, P, L, o, g) != OC_OK) continue;
          CHECK_OK(oc_allreduce_best(&p, NULL, &ch));
          CHECK_OK(oc_reduce_time(&p, &red));
          ex = ax_optimum(&p, ch.time, 2000000);
          if (ex < 0) { if (getenv("AX_SHOW")) fprintf(stderr, "    skipped P=%d L=%d o=%d g=%d plan %lld (%s)\n", P, L, o, g, (long long)ch.time, ch.name); skipped++; continue; }
          n++;
          if (ch.lower_bound > ex)
            test_failf(__FILE__, __LINE__, "P=%d L=%d o=%d g=%d: bound %lld above the optimum %lld",
                       P, L, o, g, (long long)ch.lower_bound, (long long)ex);
          CHECK(ch.time >= ex);
          if (getenv("AX_SHOW") && ch.time != ex) fprintf(stderr, "    P=%d L=%d o=%d g=%d: plan %lld (%s), optimum %lld, bound %lld\n", P, L, o, g, (long long)ch.time, oc_allreduce_alg_name(ch.alg), (long long)ex, (long long)ch.lower_bound);
          plan_opt += ch.time == ex;
          lb_opt += ch.lower_bound == ex;
          raised += ch.lower_bound > red;
        }
  fprintf(stderr,
          "  allreduce exact (P <= 3): %lld instances (%lld past the search's budget); the plan "
          "optimal on %lld, the bound exact on %lld (raised above the reduction time on %lld)\n",
          (long long)n, (long long)skipped, (long long)plan_opt,
          (long long)lb_opt, (long long)raised);
  CHECK(n > 0);
}
