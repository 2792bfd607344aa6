/* rrp_brute_main.c - tables of optimal (N, L)-RRP schedules found by the
 * exhaustive search in tests/brute_rrp.c, each schedule re-checked here by an
 * independent simulator of the model.
 *
 *   cc -std=c11 -O2 -Itests tools/rrp_brute_main.c tests/brute_rrp.c -o /tmp/rrp_brute
 *   /tmp/rrp_brute [reduce_max_N [scan_max_N [selftest_level]]]  (defaults 8 7 1)
 *
 * Prints the broadcast optima for N = 2..8, L = 1..8; the reduction optima
 * for every root (any interval; and whether the longest-interval rule of
 * the project's CSV costs a step), cross-checked by the search
 * over whole knowledge; the scan optima.  Sanity checks: every optimum is at
 * least ceil(log2 N) and the flight to the farthest processor, at most the
 * halving tree on one line (built and checked here), non-increasing in L,
 * reduce is symmetric under i -> N-1-i, and every schedule is valid and
 * ends at the optimum.  A self-test reruns the searches with their bounds,
 * failure tables and staged lines switched off (selftest_level 2: more of
 * them, about a few minutes).  Exit status 1 if any check fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "brute_rrp.h"

#define MAXN BRUTE_RRP_MAXN
#define NL 8

enum { P_BCAST, P_REDUCE, P_SCAN };

static int failures;

static void fail(const char *what, int N, int L, int root, const char *why) {
  printf("FAIL %s N=%d L=%d root=%d: %s\n", what, N, L, root, why);
  failures++;
}

static double now(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- an independent simulator --------------------------------------------- */

static int flight_of(int d) {
  /* max(1, ceil(log2 d)) by doubling */
  int f = 0, reach = 1;
  while (reach < d) {
    reach *= 2;
    f++;
  }
  return f == 0 ? 1 : f;
}

/* Processors on the route, as a 0/1 array. */
static int route(int N, const brute_rrp_msg *m, int *on) {
  int p = m->src, d = 0;
  memset(on, 0, sizeof(int) * MAXN);
  on[p] = 1;
  while (p != m->dst) {
    p = m->dir == BRUTE_RRP_CW ? (p + 1) % N : (p + N - 1) % N;
    on[p] = 1;
    d++;
  }
  return d;
}

/* base[a][c] = 1: an interval [a, c-1] was received (or a = c-1 own).  Can
 * [a,b] be formed?  (depth-first search a -> b+1) */
static int formable(int N, int base[MAXN + 1][MAXN + 1], int a, int b) {
  int seen[MAXN + 1] = {0}, stack[MAXN + 1], top = 0;
  stack[top++] = a;
  seen[a] = 1;
  while (top) {
    int x = stack[--top];
    if (x == b + 1) return 1;
    for (int y = x + 1; y <= N; y++)
      if (base[x][y] && !seen[y]) {
        seen[y] = 1;
        stack[top++] = y;
      }
  }
  return 0;
}

/* Checks s against the model; returns 1 if valid and the goal is met, and
 * sets *time to the last arrival. */
static int check(int prob, int N, int L, int root, int longest, const brute_rrp_sched *s,
                 int *time, char *why, size_t whylen) {
  int n = s->n, T = 0;
  int end[BRUTE_RRP_MAXMSG], on[BRUTE_RRP_MAXMSG][MAXN];
  static int base[MAXN][MAXN + 1][MAXN + 1];
  int informed_at[MAXN];
  snprintf(why, whylen, "ok");
  for (int i = 0; i < n; i++) {
    const brute_rrp_msg *m = &s->msg[i];
    int d;
    if (m->t < 1 || m->src < 0 || m->src >= N || m->dst < 0 || m->dst >= N || m->src == m->dst ||
        (m->dir != BRUTE_RRP_CW && m->dir != BRUTE_RRP_CCW) || m->line < 0 || m->line >= L) {
      snprintf(why, whylen, "message %d out of range", i);
      return 0;
    }
    if (prob == P_BCAST ? (m->a != 0 || m->b != 0) : (m->a < 0 || m->a > m->b || m->b >= N)) {
      snprintf(why, whylen, "message %d: bad item", i);
      return 0;
    }
    d = route(N, m, on[i]);
    end[i] = m->t + flight_of(d) - 1;
    if (end[i] > T) T = end[i];
  }
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      const brute_rrp_msg *x = &s->msg[i], *y = &s->msg[j];
      if (x->src == y->src && x->t == y->t) {
        snprintf(why, whylen, "SEND_GAP: %d sends twice in step %d", x->src, x->t);
        return 0;
      }
      if (x->dst == y->dst && end[i] == end[j]) {
        snprintf(why, whylen, "RECV_GAP: %d completes two receives in step %d", x->dst, end[i]);
        return 0;
      }
      if (x->line == y->line && x->t <= end[j] && y->t <= end[i])
        for (int p = 0; p < N; p++)
          if (on[i][p] && on[j][p]) {
            snprintf(why, whylen, "OVERLAP: messages %d and %d on line %d at processor %d", i, j,
                     x->line, p);
            return 0;
          }
    }
  /* semantics, step by step */
  memset(base, 0, sizeof base);
  for (int p = 0; p < N; p++) {
    base[p][p][p + 1] = 1;
    informed_at[p] = p == 0 ? 0 : -1;
  }
  for (int t = 1; t <= T + 1; t++) {
    /* arrivals of step t-1 become usable now */
    for (int i = 0; i < n; i++)
      if (end[i] == t - 1) {
        const brute_rrp_msg *m = &s->msg[i];
        if (prob == P_BCAST) {
          if (informed_at[m->dst] < 0) informed_at[m->dst] = t;
        } else {
          base[m->dst][m->a][m->b + 1] = 1;
        }
      }
    for (int i = 0; i < n; i++) {
      const brute_rrp_msg *m = &s->msg[i];
      if (m->t != t) continue;
      if (prob == P_BCAST) {
        if (informed_at[m->src] < 0) {
          snprintf(why, whylen, "HELD: %d sends in step %d before it has the item", m->src, t);
          return 0;
        }
      } else {
        if (!formable(N, base[m->src], m->a, m->b)) {
          snprintf(why, whylen, "HELD: %d cannot form [%d,%d] in step %d", m->src, m->a, m->b, t);
          return 0;
        }
        if (longest)
          for (int a = 0; a < m->a; a++)
            if (formable(N, base[m->src], a, m->b)) {
              snprintf(why, whylen, "LONGEST: %d sends [%d,%d] but can form [%d,%d] in step %d",
                       m->src, m->a, m->b, a, m->b, t);
              return 0;
            }
      }
    }
  }
  for (int p = 0; p < N; p++) {
    int ok = prob == P_BCAST    ? informed_at[p] >= 0
             : prob == P_REDUCE ? (p != root || formable(N, base[p], 0, N - 1))
                                : formable(N, base[p], 0, p);
    if (!ok) {
      snprintf(why, whylen, "MISSING at processor %d", p);
      return 0;
    }
  }
  *time = T;
  return 1;
}

/* ---- the halving tree on one line (an upper bound) ----------------------- */

static int halving_time(int m) {
  int h, a, b;
  if (m <= 1) return 0;
  h = (m + 1) / 2;
  a = halving_time(h);
  b = halving_time(m - h);
  return flight_of(h) + (a > b ? a : b);
}

/* Block [s, s+m-1]: s has the item from step `from`; s sends to s+h, then
 * both halves in parallel. */
static void halving_bcast(brute_rrp_sched *out, int s, int m, int from) {
  int h;
  brute_rrp_msg *x;
  if (m <= 1) return;
  h = (m + 1) / 2;
  x = &out->msg[out->n++];
  x->t = from;
  x->src = s;
  x->dst = s + h;
  x->a = x->b = 0;
  x->dir = BRUTE_RRP_CW;
  x->line = 0;
  halving_bcast(out, s, h, from + flight_of(h));
  halving_bcast(out, s + h, m - h, from + flight_of(h));
}

/* Block [s, s+m-1] reduced into s, finishing by step `by`. */
static void halving_reduce(brute_rrp_sched *out, int s, int m, int by) {
  int h, ts;
  brute_rrp_msg *x;
  if (m <= 1) return;
  h = (m + 1) / 2;
  ts = by - flight_of(h) + 1;
  x = &out->msg[out->n++];
  x->t = ts;
  x->src = s + h;
  x->dst = s;
  x->a = s + h;
  x->b = s + m - 1;
  x->dir = BRUTE_RRP_CCW;
  x->line = 0;
  halving_reduce(out, s, h, ts - 1);
  halving_reduce(out, s + h, m - h, ts - 1);
}

static void check_halving(int N) {
  static brute_rrp_sched s;
  int T, B = halving_time(N);
  char why[160];
  s.n = 0;
  halving_bcast(&s, 0, N, 1);
  if (!check(P_BCAST, N, 1, 0, 0, &s, &T, why, sizeof why) || T != B)
    fail("halving bcast", N, 1, 0, why);
  s.n = 0;
  halving_reduce(&s, 0, N, B);
  if (!check(P_REDUCE, N, 1, 0, 1, &s, &T, why, sizeof why) || T != B)
    fail("halving reduce", N, 1, 0, why);
}

/* ---- tables ---------------------------------------------------------------- */

static int lower_bound(int N) {
  int k = 0, far = N / 2; /* the farthest processor, the shorter way */
  while ((1 << k) < N) k++;
  return k > flight_of(far) ? k : flight_of(far);
}

static void sanity(const char *what, int N, int L, int root, int opt, int prev_in_L,
                   int upper) {
  char why[160];
  if (opt < 0) {
    fail(what, N, L, root, "no result");
    return;
  }
  if (opt < lower_bound(N)) fail(what, N, L, root, "below ceil(log2 N) / distance bound");
  if (upper >= 0 && opt > upper) {
    snprintf(why, sizeof why, "above the halving tree (%d)", upper);
    fail(what, N, L, root, why);
  }
  if (prev_in_L >= 0 && opt > prev_in_L) fail(what, N, L, root, "grows with L");
}

static void verify(const char *what, int prob, int N, int L, int root, int longest, int opt,
                   const brute_rrp_sched *s) {
  int T = -1;
  char why[160];
  if (!check(prob, N, L, root, longest, s, &T, why, sizeof why)) {
    fail(what, N, L, root, why);
  } else if (T != opt || s->time != opt) {
    snprintf(why, sizeof why, "schedule ends at %d (claims %d), optimum %d", T, s->time, opt);
    fail(what, N, L, root, why);
  }
}

static void print_sched(const brute_rrp_sched *s) {
  for (int i = 0; i < s->n; i++) {
    const brute_rrp_msg *m = &s->msg[i];
    printf("    t=%d %d->%d [%d,%d] %s line %d\n", m->t, m->src, m->dst, m->a, m->b,
           m->dir == BRUTE_RRP_CW ? "cw" : "ccw", m->line);
  }
}

/* The least L whose optimum equals the row's L = NL optimum. */
static int least_lines(const int *row) {
  int L = NL;
  while (L > 1 && row[L - 1] == row[NL]) L--;
  return L;
}

/* Reruns the search without bounds, failure table and staged lines, from
 * deadline 1 (BRUTE_RRP_NOPRUNE), or without staged lines only (NOSTAGE),
 * and compares. */
static void selftest(const char *what, int prob, int N, int L, int root, int flags,
                     int want, long long *nodes) {
  static brute_rrp_sched s;
  int got = brute_rrp_solve(prob, N, L, root, flags, &s);
  *nodes += s.nodes;
  if (got != want) {
    char why[160];
    snprintf(why, sizeof why, "flags %d give %d, the pruned search %d", flags, got, want);
    fail(what, N, L, root, why);
    return;
  }
  verify(what,
         prob == BRUTE_RRP_BCAST ? P_BCAST : prob == BRUTE_RRP_SCAN ? P_SCAN : P_REDUCE, N,
         L, root, flags & BRUTE_RRP_LONGEST, got, &s);
}

/* argv[i] as an integer in [lo, hi], or dflt when absent; exits on junk. */
static int arg_int(int argc, char **argv, int i, int dflt, int lo, int hi) {
  char *end;
  long v;
  if (argc <= i) return dflt;
  v = strtol(argv[i], &end, 10);
  if (end == argv[i] || *end != '\0' || v < lo || v > hi) {
    fprintf(stderr, "usage: rrp_brute [reduce_max_N 2..8 [scan_max_N 2..8 [selftest_level 0..2]]]\n");
    exit(2);
  }
  return (int)v;
}

int main(int argc, char **argv) {
  static brute_rrp_sched s;
  int rmax = arg_int(argc, argv, 1, 8, 2, MAXN), smax = arg_int(argc, argv, 2, 7, 2, MAXN);
  int level = arg_int(argc, argv, 3, 1, 0, 2);
  static int bc[MAXN + 1][NL + 1], red[MAXN + 1][MAXN][NL + 1], lng[MAXN + 1][MAXN][NL + 1];
  static int sc[MAXN + 1][NL + 1], scl[MAXN + 1][NL + 1];
  double t0, t1, total0 = now();
  long long nodes;

  /* hand-worked cases */
  if (brute_rrp_bcast(1, 1) != 0) fail("hand bcast", 1, 1, 0, "N=1 is not 0");
  if (brute_rrp_bcast(2, 1) != 1) fail("hand bcast", 2, 1, 0, "N=2 is not 1");
  if (brute_rrp_bcast(3, 1) != 2) fail("hand bcast", 3, 1, 0, "N=3 is not 2");
  if (brute_rrp_bcast(4, 1) != 2) fail("hand bcast", 4, 1, 0, "N=4 is not 2");
  if (brute_rrp_reduce(2, 1, 0) != 1) fail("hand reduce", 2, 1, 0, "N=2 is not 1");
  if (brute_rrp_scan(4, 1) != 3 || brute_rrp_scan(4, 2) != 2)
    fail("hand scan", 4, 1, 0, "N=4 is not 3 (L=1) / 2 (L=2)");
  if (brute_rrp_bcast(9, 1) != -2 || brute_rrp_bcast(3, 0) != -2 ||
      brute_rrp_reduce(3, 1, 3) != -2 || brute_rrp_reduce_sched(3, 1, 0, 7, NULL) != -2 ||
      brute_rrp_solve(4, 3, 1, 0, 0, NULL) != -2)
    fail("arguments", 0, 0, 0, "bad arguments not refused");
  for (int N = 2; N <= MAXN; N++) check_halving(N);

  /* broadcast */
  printf("Broadcast from 0: optimal steps.  L* = fewest lines for the L=%d optimum;\n", NL);
  printf("tree = the halving tree on one line.\n");
  printf(" N\\L");
  for (int L = 1; L <= NL; L++) printf(" %2d", L);
  printf("   L*  tree\n");
  t0 = now();
  nodes = 0;
  for (int N = 2; N <= MAXN; N++) {
    int prev = -1;
    printf(" %2d ", N);
    for (int L = 1; L <= NL; L++) {
      int opt = brute_rrp_bcast_sched(N, L, &s);
      nodes += s.nodes;
      printf(" %2d", opt);
      sanity("bcast", N, L, 0, opt, prev, halving_time(N));
      verify("bcast", P_BCAST, N, L, 0, 0, opt, &s);
      bc[N][L] = prev = opt;
    }
    printf("   %2d    %2d\n", least_lines(bc[N]), halving_time(N));
  }
  t1 = now();
  printf("(%.2f s, %lld states)\n\n", t1 - t0, nodes);

  /* reduce */
  printf("In-order reduction: optimal steps, every root (any interval the sender can form).\n");
  printf("A '*' after a number: the longest-interval rule needs more steps.\n");
  for (int N = 2; N <= rmax; N++) {
    t0 = now();
    nodes = 0;
    printf(" N root\\L");
    for (int L = 1; L <= NL; L++) printf(" %3d", L);
    printf("   L*\n");
    for (int root = 0; root < N; root++) {
      int prev = -1;
      printf(" %d %4d    ", N, root);
      for (int L = 1; L <= NL; L++) {
        int opt = brute_rrp_reduce_sched(N, L, root, BRUTE_RRP_ANY, &s), ol;
        int up = root == 0 || root == N - 1 ? halving_time(N) : -1;
        nodes += s.nodes;
        sanity("reduce", N, L, root, opt, prev, up);
        verify("reduce", P_REDUCE, N, L, root, 0, opt, &s);
        ol = brute_rrp_reduce_sched(N, L, root, BRUTE_RRP_LONGEST, &s);
        nodes += s.nodes;
        verify("reduce longest", P_REDUCE, N, L, root, 1, ol, &s);
        if (ol < opt) fail("reduce longest", N, L, root, "restricted beats unrestricted");
        red[N][root][L] = opt;
        lng[N][root][L] = ol;
        printf(" %2d%c", opt, ol != opt ? '*' : ' ');
        prev = opt;
      }
      printf("   %2d\n", least_lines(red[N][root]));
    }
    for (int root = 0; root < N; root++)
      for (int L = 1; L <= NL; L++)
        if (red[N][root][L] != red[N][N - 1 - root][L])
          fail("reduce mirror", N, L, root, "differs from root N-1-root");
    t1 = now();
    printf(" (N=%d: %.2f s for both rules, %lld states)\n", N, t1 - t0, nodes);
  }
  {
    int diff = 0;
    for (int N = 2; N <= rmax; N++)
      for (int root = 0; root < N; root++)
        for (int L = 1; L <= NL; L++)
          if (lng[N][root][L] != red[N][root][L]) diff++;
    printf("Longest-interval rule: %s.\n",
           diff ? "costs steps at the starred entries" : "the same optimum everywhere above");
  }

  /* cross-check by the whole-knowledge search */
  t0 = now();
  nodes = 0;
  for (int N = 2; N <= rmax; N++)
    for (int root = 0; root < N; root++)
      for (int L = 1; L <= NL; L++)
        for (int rule = 0; rule < 2; rule++) {
          int opt = brute_rrp_reduce_full(N, L, root, rule, &s);
          int want = rule ? lng[N][root][L] : red[N][root][L];
          nodes += s.nodes;
          verify("reduce full", P_REDUCE, N, L, root, rule, opt, &s);
          if (opt != want) fail("reduce full", N, L, root, "disagrees with the piece search");
        }
  t1 = now();
  printf("Whole-knowledge reduction search, every entry above, both rules: %s (%.2f s, %lld "
         "states)\n\n",
         failures ? "see failures" : "agrees", t1 - t0, nodes);

  /* scan */
  printf("Scan (every p forms [0,p]): optimal steps; '*': the longest-interval rule needs more\n");
  printf(" N\\L");
  for (int L = 1; L <= NL; L++) printf(" %3d", L);
  printf("   L*\n");
  for (int N = 2; N <= smax; N++) {
    int prev = -1;
    t0 = now();
    nodes = 0;
    printf(" %2d ", N);
    for (int L = 1; L <= NL; L++) {
      int opt = brute_rrp_scan_sched(N, L, BRUTE_RRP_ANY, &s), ol;
      nodes += s.nodes;
      sanity("scan", N, L, 0, opt, prev, -1);
      verify("scan", P_SCAN, N, L, 0, 0, opt, &s);
      if (N <= rmax && opt < red[N][N - 1][L]) fail("scan", N, L, 0, "below reduce into N-1");
      ol = brute_rrp_scan_sched(N, L, BRUTE_RRP_LONGEST, &s);
      nodes += s.nodes;
      verify("scan longest", P_SCAN, N, L, 0, 1, ol, &s);
      if (ol < opt) fail("scan longest", N, L, 0, "restricted beats unrestricted");
      sc[N][L] = opt;
      scl[N][L] = ol;
      printf(" %2d%c", opt, ol != opt ? '*' : ' ');
      prev = opt;
    }
    t1 = now();
    printf("   %2d  (%.2f s for both rules, %lld states)\n", least_lines(sc[N]), t1 - t0,
           nodes);
  }

  /* self-test of the prunings (level 0: none) */
  if (level > 0) {
    t0 = now();
    nodes = 0;
    for (int N = 2; N <= MAXN; N++)
      for (int L = 1; L <= NL; L++)
        selftest("selftest bcast", BRUTE_RRP_BCAST, N, L, 0, BRUTE_RRP_NOPRUNE, bc[N][L], &nodes);
    for (int N = 2; N <= (rmax < 6 ? rmax : 6); N++)
      for (int root = 0; root < N; root++)
        for (int L = 1; L <= NL; L++) {
          int noprune = N <= 4 || (N == 5 && (L <= 2 || level >= 2)) ||
                        (N == 6 && (L == 1 || (level >= 2 && L == 2)));
          selftest("selftest reduce", BRUTE_RRP_REDUCE, N, L, root, BRUTE_RRP_NOSTAGE,
                   red[N][root][L], &nodes);
          if (!noprune) continue;
          for (int rule = 0; rule < 2; rule++) {
            selftest("selftest reduce", BRUTE_RRP_REDUCE, N, L, root, BRUTE_RRP_NOPRUNE | rule,
                     rule ? lng[N][root][L] : red[N][root][L], &nodes);
            if (N <= 4)
              selftest("selftest reduce full", BRUTE_RRP_REDUCE_FULL, N, L, root,
                       BRUTE_RRP_NOPRUNE | rule, rule ? lng[N][root][L] : red[N][root][L],
                       &nodes);
          }
        }
    for (int N = 2; N <= smax; N++)
      for (int L = 1; L <= NL; L++) {
        selftest("selftest scan", BRUTE_RRP_SCAN, N, L, 0, BRUTE_RRP_NOSTAGE, sc[N][L], &nodes);
        if (N <= 4 || (N == 5 && L <= 2) || (level >= 2 && N == 6 && L == 1)) {
          selftest("selftest scan", BRUTE_RRP_SCAN, N, L, 0, BRUTE_RRP_NOPRUNE, sc[N][L], &nodes);
          selftest("selftest scan", BRUTE_RRP_SCAN, N, L, 0, BRUTE_RRP_NOPRUNE | BRUTE_RRP_LONGEST,
                   scl[N][L], &nodes);
        }
      }
    t1 = now();
    printf("\nSelf-test (level %d): the same optima with no bounds, no failure table, no\n"
           "staged lines and deadlines from 1 (bcast N<=8; reduce N<=4, N=5 L<=%s, N=6 L<=%d,\n"
           "the whole-knowledge reduce N<=4; scan N<=4, N=5 L<=2%s), and without staged\n"
           "lines only (reduce N<=6, scan N<=%d): %s (%.2f s, %lld states)\n",
           level, level >= 2 ? "8" : "2", level >= 2 ? 2 : 1, level >= 2 ? ", N=6 L=1" : "",
           smax, failures ? "see failures" : "agrees", t1 - t0, nodes);
  }

  /* one example of each */
  printf("\nExample optimal schedules:\n");
  printf("  bcast N=8 L=1 (%d steps):\n", brute_rrp_bcast_sched(8, 1, &s));
  print_sched(&s);
  printf("  reduce N=%d L=1 root 0, longest rule (%d steps):\n", rmax,
         brute_rrp_reduce_sched(rmax, 1, 0, BRUTE_RRP_LONGEST, &s));
  print_sched(&s);
  printf("  scan N=4 L=1 (%d steps):\n", brute_rrp_scan_sched(4, 1, BRUTE_RRP_ANY, &s));
  print_sched(&s);
  printf("  scan N=4 L=2 (%d steps):\n", brute_rrp_scan_sched(4, 2, BRUTE_RRP_ANY, &s));
  print_sched(&s);

  printf("\n%s (%.2f s in all)\n", failures ? "CHECKS FAILED" : "all checks passed",
         now() - total0);
  return failures ? 1 : 0;
}
