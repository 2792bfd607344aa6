/* test_mrexact.c - the exact optimum of the m-packet LogP reduction on tiny
 * instances (tests/brute_mreduce.c), its witnesses through the verifier
 * (oc_verify_vreduce), the search against itself and against a plain
 * enumeration judged by the verifier alone, and the library's lower bound
 * and planner against the optimum.
 *
 * Default: the ten parameter sets below, P = 2..5, m = 1..3, root 0, and
 * other roots on a few.  With OPTCAST_SWEEP: P = 2..6 (m = 4 up to P = 4)
 * and nine more parameter sets.  Under valgrind: P <= 4, m <= 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute_mreduce.h"
#include "test.h"

/* (L, o, g); o > g: (1,2,1) (0,3,2); 2o > g: (0,1,1) (2,1,1) (2,2,3) ...;
 * o = 0: (1,0,1) (2,0,1) */
static const int64_t SETS[][3] = {
    {1, 0, 1}, {2, 0, 1}, {0, 1, 1}, {1, 1, 2}, {3, 1, 2},
    {2, 1, 1}, {1, 2, 1}, {4, 1, 3}, {2, 2, 3}, {0, 3, 2},
    /* sweep only */
    {0, 2, 3}, {1, 0, 3}, {2, 1, 5}, {4, 0, 2},
    {0, 2, 1}, {1, 3, 1}, {2, 3, 4}, {5, 1, 1}, {3, 2, 1},
};
#define NSETS_DEFAULT 10

static size_t nsets(void) {
  return test_sweep() ? sizeof SETS / sizeof SETS[0] : NSETS_DEFAULT;
}
static int64_t max_P(void) { return test_valgrind() ? 4 : test_sweep() ? 6 : 5; }
static int64_t max_m(int64_t P) {
  if (test_valgrind()) return 2;
  if (test_sweep()) return P <= 4 ? 4 : 3;
  return 3;
}

static int64_t opt_of(int64_t L, int64_t o, int64_t g, int64_t P, int64_t m, int64_t root,
                      oc_sched *w) {
  int64_t opt = brute_mreduce_opt(L, o, g, P, m, root, w);
  if (opt < 0)
    test_failf(__FILE__, __LINE__,
               "search failed (%lld): P=%lld m=%lld root=%lld L=%lld o=%lld g=%lld",
               (long long)opt, (long long)P, (long long)m, (long long)root, (long long)L,
               (long long)o, (long long)g);
  return opt;
}

/* ---- an enumeration judged by the verifier alone -------------------------
 * Every set of at most m(P-1) + 1 messages (s, src, dst, j), any src (the
 * root too) and dst, s in 0 .. T-L-2o-1 (a message sent later arrives after
 * T - 1, and its addition cannot end by T), in which no two messages of one
 * processor break the gap or overlap rules (pairs the verifier rejects
 * anyway) and every non-root sends and the root receives every packet (or
 * the result is incomplete): 1 when the verifier accepts one completing by
 * T.  The search's tree form (brute_mreduce.c, 1) is not assumed: a set
 * may hold the root's sends, two sends of one packet by one processor,
 * messages into a processor after it sent that packet.  Gives up (-1)
 * after cap sets. */
typedef struct enum_ctx {
  oc_params p;
  int64_t m, T, G, cap, tried;
  int64_t nu, u[1024][4]; /* the candidate messages, by send start */
  int64_t pick[32];
  int kmax;
  oc_sched s;
} enum_ctx;

/* two messages of one schedule that the message rules already forbid */
static int clash(const enum_ctx *c, const int64_t *a, const int64_t *b) {
  int64_t o = c->p.o, L = c->p.L, g = c->p.g;
  int64_t as = a[0], bs = b[0], ar = a[0] + o + L, br = b[0] + o + L;
  if (a[1] == b[1] && (as - bs < g && bs - as < g)) return 1; /* send gap */
  if (a[2] == b[2] && (ar - br < g && br - ar < g)) return 1; /* receive gap */
  if (o > 0) { /* overheads of one processor: [x, x+o) */
    if (a[1] == b[1] && as < bs + o && bs < as + o) return 1;
    if (a[2] == b[2] && ar < br + o && br < ar + o) return 1;
    if (a[1] == b[2] && as < br + o && br < as + o) return 1;
    if (a[2] == b[1] && ar < bs + o && bs < ar + o) return 1;
  }
  return 0;
}

static int enum_leaf(enum_ctx *c, int k, int64_t root) {
  oc_verdict v;
  int64_t P = c->p.P;
  uint64_t sends[8] = {0}, recv = 0; /* (processor, packet) bits */
  for (int i = 0; i < k; i++) {
    const int64_t *x = c->u[c->pick[i]];
    sends[x[1]] |= (uint64_t)1 << x[3];
    if (x[2] == root) recv |= (uint64_t)1 << x[3];
  }
  if (recv != ((uint64_t)1 << c->m) - 1) return 0;
  for (int64_t q = 0; q < P; q++)
    if (q != root && sends[q] != ((uint64_t)1 << c->m) - 1) return 0;
  if (++c->tried > c->cap) return -1;
  c->s.n = 0;
  for (int i = 0; i < k; i++) {
    const int64_t *x = c->u[c->pick[i]];
    CHECK_OK(oc_sched_push(&c->s, x[0], x[1], x[2], x[3]));
  }
  CHECK_OK(oc_verify_vreduce(&c->p, root, c->m, &c->s, &v));
  return v.ok && v.time <= c->T;
}

/* sets of the candidates from index i on, k picked so far */
static int enum_rec(enum_ctx *c, int64_t i, int k, int64_t root) {
  int r;
  if (k > 0 && (r = enum_leaf(c, k, root)) != 0) return r;
  if (k == c->kmax) return 0;
  for (int64_t x = i; x < c->nu; x++) {
    int ok = 1;
    for (int y = 0; y < k && ok; y++)
      if (clash(c, c->u[c->pick[y]], c->u[x])) ok = 0;
    if (!ok) continue;
    c->pick[k] = x;
    if ((r = enum_rec(c, x + 1, k + 1, root)) != 0) return r;
  }
  return 0;
}

/* 1: a schedule completing by T; 0: none; -1: gave up */
static int enum_by(int64_t L, int64_t o, int64_t g, int64_t P, int64_t m, int64_t root,
                   int64_t T, int64_t cap, int64_t *tried) {
  enum_ctx *c = (enum_ctx *)calloc(1, sizeof *c);
  int r;
  CHECK(c != NULL);
  CHECK_OK(oc_params_logp(&c->p, P, L, o, g));
  c->m = m;
  c->T = T;
  c->cap = cap;
  c->kmax = (int)(m * (P - 1) + 1);
  for (int64_t s = 0; s <= T - L - 2 * o - 1; s++)
    for (int64_t a = 0; a < P; a++)
      for (int64_t b = 0; b < P; b++)
        for (int64_t j = 0; j < m && a != b; j++) {
          CHECK(c->nu < 1024);
          c->u[c->nu][0] = s;
          c->u[c->nu][1] = a;
          c->u[c->nu][2] = b;
          c->u[c->nu][3] = j;
          c->nu++;
        }
  oc_sched_init(&c->s);
  r = enum_rec(c, 0, 0, root);
  *tried += c->tried;
  oc_sched_free(&c->s);
  free(c);
  return r;
}

/* ---- witnesses ---------------------------------------------------------------- */

static void check_witness(int64_t L, int64_t o, int64_t g, int64_t P, int64_t m, int64_t root,
                          int64_t opt, const oc_sched *w) {
  oc_params p;
  oc_verdict v;
  oc_sched x;
  int sent[BRUTE_MR_MAXP][BRUTE_MR_MAXM] = {{0}};
  CHECK_OK(oc_params_logp(&p, P, L, o, g));
  CHECK_OK(oc_verify_vreduce(&p, root, m, w, &v));
  if (!v.ok || v.time != opt)
    test_failf(__FILE__, __LINE__,
               "witness P=%lld m=%lld root=%lld L=%lld o=%lld g=%lld: ok=%d time=%lld opt=%lld "
               "%s",
               (long long)P, (long long)m, (long long)root, (long long)L, (long long)o,
               (long long)g, v.ok, (long long)v.time, (long long)opt, v.detail);
  /* the tree form: each non-root sends each packet once, the root never */
  CHECK_EQ(w->n, m * (P - 1));
  for (size_t k = 0; k < w->n; k++) {
    CHECK(w->msg[k].src != root);
    sent[w->msg[k].src][w->msg[k].item]++;
  }
  for (int64_t q = 0; q < P; q++)
    for (int64_t j = 0; j < m && q != root; j++) CHECK_EQ(sent[q][j], 1);
  /* mutants: one message earlier by 1; one dropped; then random ones
   * (several messages earlier, another sender or receiver, an extra
   * message) - none is a valid schedule faster than the optimum */
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
        int64_t what = test_range(0, 3), q = test_range(0, P - 1);
        if (what == 0 && q != a->dst) a->src = q;
        else if (what == 1 && q != a->src) a->dst = q;
        else if (what == 2 && q != a->dst) {
          CHECK_OK(oc_sched_push(&x, test_range(0, opt), q, a->dst, test_range(0, m - 1)));
        } else {
          a->t -= test_range(1, 2);
          if (a->t < 0) a->t = 0;
        }
      }
    }
    CHECK_OK(oc_verify_vreduce(&p, root, m, &x, &v));
    if (v.ok && v.time < opt)
      test_failf(__FILE__, __LINE__,
                 "mutant %zu of the witness is valid and faster: P=%lld m=%lld root=%lld "
                 "L=%lld o=%lld g=%lld time %lld < %lld",
                 j, (long long)P, (long long)m, (long long)root, (long long)L, (long long)o,
                 (long long)g, (long long)v.time, (long long)opt);
  }
  oc_sched_free(&x);
}

/* The witness of every instance is valid and takes exactly the optimum; no
 * mutant of it is valid and faster; other roots give the same optimum; the
 * search with its reductions switched off (each alone, none) gives the
 * same optimum; a plain enumeration judged by the verifier finds nothing
 * faster on the tiniest instances, and finds the optimum. */
void test_mreduce_exact_witness(void) {
  int64_t cross = 0, skipped = 0, enums = 0, multi = 0, found = 0, gaveup = 0, tried = 0;
  int64_t roots = 0;
  int64_t enum_cap = test_valgrind() ? 3000 : test_sweep() ? 3000000 : 200000;
  int64_t budget = test_valgrind() ? 20000 : test_sweep() ? 4000000 : 1000000;
  for (size_t si = 0; si < nsets(); si++) {
    int64_t L = SETS[si][0], o = SETS[si][1], g = SETS[si][2];
    for (int64_t P = 2; P <= max_P(); P++)
      for (int64_t m = 1; m <= max_m(P); m++) {
        oc_sched w;
        int64_t opt;
        oc_sched_init(&w);
        opt = opt_of(L, o, g, P, m, 0, &w);
        check_witness(L, o, g, P, m, 0, opt, &w);
        oc_sched_free(&w);
        /* other roots: the same optimum, their own witness */
        if (P >= 3 && (si % 3 == 0 || test_sweep()) && m <= 2)
          for (int64_t root = 1; root < P; root += P - 2) {
            int64_t r;
            oc_sched_init(&w);
            r = opt_of(L, o, g, P, m, root, &w);
            CHECK_EQ(r, opt);
            check_witness(L, o, g, P, m, root, r, &w);
            oc_sched_free(&w);
            roots++;
          }
        /* the reductions, off: none; each alone; all but one - within a
         * node budget (a search that runs out proves nothing: skipped) */
        {
          static const int flag_sets[] = {0,
                                          BRUTE_MR_MEMO,
                                          BRUTE_MR_SYM,
                                          BRUTE_MR_PRUNE,
                                          BRUTE_MR_MEMO | BRUTE_MR_SYM,
                                          BRUTE_MR_MEMO | BRUTE_MR_PRUNE,
                                          BRUTE_MR_SYM | BRUTE_MR_PRUNE};
          for (size_t f = 0; f < sizeof flag_sets / sizeof flag_sets[0]; f++) {
            int64_t nodes, other;
            if (!(flag_sets[f] & BRUTE_MR_PRUNE) && P * m > (test_sweep() ? 10 : 8))
              continue; /* the slow ones on the smaller instances only */
            other = brute_mreduce_search(L, o, g, P, m, 0, flag_sets[f], budget, NULL, &nodes);
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
        if (P <= 4 && m * (P - 1) <= 4) {
          int r = enum_by(L, o, g, P, m, 0, opt - 1, enum_cap, &tried);
          if (r == 1)
            test_failf(__FILE__, __LINE__,
                       "enumeration found a schedule faster than %lld (P=%lld m=%lld L=%lld "
                       "o=%lld g=%lld)",
                       (long long)opt, (long long)P, (long long)m, (long long)L, (long long)o,
                       (long long)g);
          if (r < 0) {
            gaveup++;
          } else {
            enums++;
            multi += m > 1;
            r = enum_by(L, o, g, P, m, 0, opt, enum_cap, &tried);
            if (r >= 0) {
              CHECK_EQ(r, 1);
              found++;
            }
          }
        }
      }
  }
  printf("  m-packet reduce exact: %lld cross-checks of the reductions agree (%lld over the "
         "node budget); %lld witnesses for other roots; nothing faster by enumeration on %lld "
         "instances (%lld with m > 1; %lld too large), the optimum found by it on %lld (%lld "
         "schedules through the verifier)\n",
         (long long)cross, (long long)skipped, (long long)roots, (long long)enums,
         (long long)multi, (long long)gaveup, (long long)found, (long long)tried);
  CHECK(cross >= 20);
  CHECK(enums >= (test_valgrind() ? 5 : 10));
  CHECK(found >= (test_valgrind() ? 3 : 10));
}

/* ---- the library's bound and planner -------------------------------------------- */

/* How a schedule of the planner relates to the plain form the search
 * covers: 0 plain (every message adds, handled in arrival order; a
 * not_before column only delays additions, which the search's argument
 * covers: brute_mreduce.c, 1), 1 copies or kept partial results (hist),
 * 2 a handling order (seq) other than arrival order, no copies. */
static int outside_plain(const oc_sched *s) {
  int seq_other = 0;
  if (s->hist != NULL) return 1;
  for (size_t i = 0; s->copy != NULL && i < s->n; i++)
    if (s->copy[i]) return 1;
  for (size_t i = 0; s->seq != NULL && i < s->n; i++)
    for (size_t k = 0; k < s->n; k++) {
      int64_t ai = s->msg[i].t, ak = s->msg[k].t; /* arrival order = send order */
      if (s->msg[i].dst != s->msg[k].dst || s->seq[i] >= s->seq[k]) continue;
      if (ai > ak || (ai == ak && i > k)) seq_other = 1;
    }
  return seq_other ? 2 : 0;
}

/* The optimum of the plain form against oc_mreduce_bound (which must be
 * <= it, and <= the time of every schedule the verifier accepts, the
 * planner's included) and oc_mreduce_plan (which must not beat it with a
 * plain schedule); prints the table. */
void test_mreduce_exact_bounds(void) {
  int rows = 0, tight = 0, plan_eq = 0, below = 0, bad_bound = 0;
  double worst = 1.0;
  char worst_at[96] = "-";
  printf("  %2s %2s %2s %2s %2s %4s %5s %5s  %s\n", "P", "m", "L", "o", "g", "opt", "bound",
         "plan", "");
  for (size_t si = 0; si < nsets(); si++) {
    int64_t L = SETS[si][0], o = SETS[si][1], g = SETS[si][2];
    for (int64_t P = 2; P <= max_P(); P++)
      for (int64_t m = 1; m <= max_m(P); m++) {
        oc_params p;
        oc_mreduce_info info;
        oc_verdict v;
        oc_sched ps;
        const char *src = NULL;
        int64_t opt = opt_of(L, o, g, P, m, 0, NULL), lb;
        int kind;
        char note[160];
        double ratio;
        CHECK_OK(oc_params_logp(&p, P, L, o, g));
        CHECK_OK(oc_mreduce_bound(&p, m, &lb, &src));
        oc_sched_init(&ps);
        CHECK_OK(oc_mreduce_plan(&p, 0, m, OC_MB_BEST, &ps, &info));
        CHECK_OK(oc_verify_vreduce(&p, 0, m, &ps, &v));
        CHECK(v.ok);
        CHECK_EQ(v.time, info.time);
        kind = outside_plain(&ps);
        if (opt == lb) snprintf(note, sizeof note, "bound tight");
        else if (lb < opt) snprintf(note, sizeof note, "gap %lld", (long long)(opt - lb));
        else snprintf(note, sizeof note, "BOUND ABOVE the optimum by %lld", (long long)(lb - opt));
        if (info.time > opt)
          snprintf(note + strlen(note), sizeof note - strlen(note), "; planner above by %lld",
                   (long long)(info.time - opt));
        else if (info.time < opt)
          snprintf(note + strlen(note), sizeof note - strlen(note),
                   "; planner BELOW by %lld (%s)", (long long)(opt - info.time),
                   kind == 1 ? "copies" : kind == 2 ? "handling order" : "plain!");
        if (lb > info.time)
          snprintf(note + strlen(note), sizeof note - strlen(note),
                   "; BOUND ABOVE the planner's verified schedule");
        printf("  %2lld %2lld %2lld %2lld %2lld %4lld %5lld %5lld  %s\n", (long long)P,
               (long long)m, (long long)L, (long long)o, (long long)g, (long long)opt,
               (long long)lb, (long long)info.time, note);
        fflush(stdout);
        if (lb > opt)
          test_failf(__FILE__, __LINE__,
                     "the library's bound is above the optimum: P=%lld m=%lld L=%lld o=%lld "
                     "g=%lld opt=%lld bound=%lld (%s)",
                     (long long)P, (long long)m, (long long)L, (long long)o, (long long)g,
                     (long long)opt, (long long)lb, src ? src : "?");
        if (info.time < opt && kind == 0)
          test_failf(__FILE__, __LINE__,
                     "the planner beats the exact optimum with a plain schedule: P=%lld m=%lld "
                     "L=%lld o=%lld g=%lld opt=%lld plan=%lld",
                     (long long)P, (long long)m, (long long)L, (long long)o, (long long)g,
                     (long long)opt, (long long)info.time);
        bad_bound += lb > info.time;
        below += info.time < opt;
        tight += opt == lb;
        plan_eq += info.time == opt;
        ratio = (double)info.time / (double)opt;
        if (ratio > worst) {
          worst = ratio;
          snprintf(worst_at, sizeof worst_at, "P=%lld m=%lld L=%lld o=%lld g=%lld", (long long)P,
                   (long long)m, (long long)L, (long long)o, (long long)g);
        }
        oc_sched_free(&ps);
        rows++;
      }
  }
  printf("  %d instances: the bound equals the optimum in %d, the planner in %d; worst "
         "planner/opt %.3f (%s); the planner below the plain optimum (copies or another "
         "handling order) in %d; the bound above the planner's verified time in %d\n",
         rows, tight, plan_eq, worst, worst_at, below, bad_bound);
  fflush(stdout);
  /* a lower bound above a schedule the verifier accepts is wrong */
  CHECK_EQ(bad_bound, 0);
}
