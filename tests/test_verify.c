/* test_verify.c - the verifier: each rule on hand-made schedules, mutants
 * of generated schedules, and an exhaustive search on tiny instances. */
#include <stdlib.h>
#include <string.h>

#include "core/oc_core.h"
#include "test.h"

static oc_verdict run(const oc_params *p, int64_t root, const oc_sched *s) {
  oc_verdict v;
  CHECK_OK(oc_verify_bcast(p, root, 1, s, &v));
  return v;
}

static void push(oc_sched *s, int64_t t, int64_t a, int64_t b) {
  CHECK_OK(oc_sched_push(s, t, a, b, 0));
}

void test_verify_rules_handmade(void) {
  oc_params p;
  oc_sched s;
  oc_verdict v;
  CHECK_OK(oc_params_logp(&p, 3, 6, 2, 4)); /* h = 10 */
  /* valid: 0 -> 1 at 0, 0 -> 2 at 4 */
  oc_sched_init(&s);
  push(&s, 0, 0, 1);
  push(&s, 4, 0, 2);
  v = run(&p, 0, &s);
  CHECK(v.ok);
  CHECK_EQ(v.time, 14);
  /* send gap: 0 -> 2 at 3 */
  s.msg[1].t = 3;
  v = run(&p, 0, &s);
  CHECK(!v.ok);
  CHECK_EQ(v.rule, OC_RULE_SEND_GAP);
  CHECK_EQ(v.proc, 0);
  CHECK_EQ(v.at, 3);
  /* not held: 1 -> 2 at 9 (1 has it from 10) */
  s.msg[1].t = 9;
  s.msg[1].src = 1;
  v = run(&p, 0, &s);
  CHECK(!v.ok);
  CHECK_EQ(v.rule, OC_RULE_HELD);
  CHECK_EQ(v.proc, 1);
  CHECK_EQ(v.at, 9);
  /* exactly when usable: fine */
  s.msg[1].t = 10;
  v = run(&p, 0, &s);
  CHECK(v.ok);
  CHECK_EQ(v.time, 20);
  /* missing: drop the second message */
  s.n = 1;
  v = run(&p, 0, &s);
  CHECK(!v.ok);
  CHECK_EQ(v.rule, OC_RULE_MISSING);
  CHECK_EQ(v.proc, 2);
  /* range: to itself, to P, negative time, bad item */
  s.n = 0;
  push(&s, 0, 0, 0);
  v = run(&p, 0, &s);
  CHECK(!v.ok && v.rule == OC_RULE_RANGE);
  s.msg[0].dst = 3;
  v = run(&p, 0, &s);
  CHECK(!v.ok && v.rule == OC_RULE_RANGE);
  s.msg[0].dst = 1;
  s.msg[0].t = -1;
  v = run(&p, 0, &s);
  CHECK(!v.ok && v.rule == OC_RULE_RANGE);
  s.msg[0].t = 0;
  s.msg[0].item = 1;
  v = run(&p, 0, &s);
  CHECK(!v.ok && v.rule == OC_RULE_RANGE);
  oc_sched_free(&s);

  /* receive gap: two messages reach 2 one unit apart (g = 4) */
  CHECK_OK(oc_params_logp(&p, 4, 1, 0, 4));
  oc_sched_init(&s);
  push(&s, 0, 0, 1);
  push(&s, 4, 0, 3);
  push(&s, 1, 1, 2);
  push(&s, 2, 1, 2); /* 1 cannot send again before 5 either */
  v = run(&p, 0, &s);
  CHECK(!v.ok);
  CHECK_EQ(v.at, 2);
  CHECK(v.rule == OC_RULE_SEND_GAP);
  s.msg[3].src = 3;  /* now 3 -> 2 at 2? 3 holds it only from 5 */
  s.msg[3].t = 5;
  push(&s, 1, 3, 0); /* harmless? 3 lacks it at 1 */
  v = run(&p, 0, &s);
  CHECK(!v.ok && v.rule == OC_RULE_HELD && v.at == 1);
  s.n = 3;
  push(&s, 6, 3, 2); /* arrives 7; the first reached 2 at 2: gap 5 >= 4 fine */
  v = run(&p, 0, &s);
  CHECK(v.ok);
  s.msg[3].t = 5; s.msg[3].src = 3; /* arrives at 6; 3 holds from 5 */
  s.msg[2].t = 3;                   /* 1 -> 2 arrives at 4: gap 2 < 4 */
  v = run(&p, 0, &s);
  CHECK(!v.ok);
  CHECK_EQ(v.rule, OC_RULE_RECV_GAP);
  CHECK_EQ(v.proc, 2);
  oc_sched_free(&s);

  /* overlap: o = 3 > g = 1: sends two units apart overlap */
  CHECK_OK(oc_params_logp(&p, 3, 1, 3, 1));
  oc_sched_init(&s);
  push(&s, 0, 0, 1);
  push(&s, 2, 0, 2);
  v = run(&p, 0, &s);
  CHECK(!v.ok);
  CHECK_EQ(v.rule, OC_RULE_OVERLAP);
  CHECK_EQ(v.at, 2);
  s.msg[1].t = 3;
  v = run(&p, 0, &s);
  CHECK(v.ok);
  CHECK_EQ(v.time, 10);
  oc_sched_free(&s);
  /* a receive overlapping a send: p1 receives [4,7), sends [7,10), sends
   * again [11,14) and receives a second copy [12,15): overlap at 12 */
  CHECK_OK(oc_params_logp(&p, 3, 1, 3, 1)); /* h = 7 */
  oc_sched_init(&s);
  push(&s, 0, 0, 1);
  push(&s, 7, 1, 2);
  push(&s, 8, 0, 1);  /* 1 receives again during [12,15) */
  push(&s, 11, 1, 0); /* 1 sends [11,14): overlaps its receive at 12 */
  v = run(&p, 0, &s);
  CHECK(!v.ok);
  CHECK_EQ(v.rule, OC_RULE_OVERLAP);
  CHECK_EQ(v.proc, 1); /* p0: [0,3) [8,11) [15,18): fine */
  CHECK_EQ(v.at, 12);
  oc_sched_free(&s);
}

/* Mutants of generated schedules (the four kinds) are rejected. */
void test_verify_mutants_rejected(void) {
  int rounds = test_sweep() ? 20000 : 2000;
  int killed[4] = {0, 0, 0, 0};
  for (int i = 0; i < rounds; i++) {
    oc_params p;
    oc_bcast *b;
    oc_sched s;
    oc_verdict v;
    int64_t P = test_range(2, 150), L = test_range(0, 10), o = test_range(0, 4);
    int64_t g = test_range(1, 10), root;
    size_t m;
    int kind = i % 4;
    if (oc_params_logp(&p, P, L, o, g) != OC_OK) continue;
    root = test_range(0, P - 1);
    CHECK_OK(oc_bcast_new(&b, &p, root, (oc_bcast_alg)(i % 3)));
    oc_sched_init(&s);
    CHECK_OK(oc_bcast_schedule(b, &s));
    m = (size_t)(test_rand() % s.n);
    switch (kind) {
    case 0: s.msg[m].t -= 1; break;            /* one send 1 unit earlier */
    case 1: s.msg[m] = s.msg[--s.n]; break;    /* drop one */
    case 2: CHECK_OK(oc_sched_push(&s, s.msg[m].t, s.msg[m].src, s.msg[m].dst, 0));
            break;                             /* duplicate one */
    case 3: {                                  /* sender lacks the item */
      int64_t *ready = (int64_t *)malloc((size_t)P * 8), q = -1;
      for (int64_t x = 0; x < P; x++) ready[x] = x == root ? 0 : INT64_MAX;
      for (size_t j = 0; j < s.n; j++)
        ready[s.msg[j].dst] = s.msg[j].t + L + 2 * o;
      for (int64_t x = 0; x < P; x++)
        if (ready[x] > s.msg[m].t && x != s.msg[m].dst) { q = x; break; }
      free(ready);
      if (q < 0) { kind = -1; break; }
      s.msg[m].src = q;
      break;
    }
    }
    if (kind >= 0) {
      CHECK_OK(oc_verify_bcast(&p, root, 1, &s, &v));
      if (v.ok)
        test_failf(__FILE__, __LINE__, "mutant %d accepted: P=%lld L=%lld o=%lld g=%lld",
                   kind, (long long)P, (long long)L, (long long)o, (long long)g);
      killed[kind]++;
    }
    oc_sched_free(&s);
    oc_bcast_free(b);
  }
  for (int k = 0; k < 4; k++) CHECK(killed[k] > rounds / 8);
}

/* Exhaustive search on tiny instances: over every schedule in which each
 * non-root processor receives once, from any processor, at any time,
 * the verifier accepts none that is faster than B(P) and some that
 * equals it.  Covers o > g (G = max(g, o)) and o = 0. */
static int64_t best;
static int64_t npar[8], ntime[8];

static void search(const oc_params *p, int64_t who, int64_t limit) {
  if (who == p->P) {
    oc_sched s;
    oc_verdict v;
    oc_sched_init(&s);
    for (int64_t q = 1; q < p->P; q++) push(&s, ntime[q], npar[q], q);
    CHECK_OK(oc_verify_bcast(p, 0, 1, &s, &v));
    if (v.ok && v.time < best) best = v.time;
    oc_sched_free(&s);
    return;
  }
  for (int64_t par = 0; par < p->P; par++) {
    if (par == who) continue;
    for (int64_t t = 0; t + p->L + 2 * p->o <= limit; t++) {
      npar[who] = par;
      ntime[who] = t;
      search(p, who + 1, limit);
    }
  }
}

void test_verify_exhaustive_small(void) {
  static const int64_t cases[][3] = {
      {1, 0, 1}, {2, 0, 1}, {0, 1, 1}, {1, 2, 1}, {0, 2, 3}, {3, 1, 2},
      {1, 0, 3}, {2, 1, 5}, {0, 3, 2}, {4, 0, 2},
  };
  int maxP = test_sweep() ? 5 : 4;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    for (int64_t P = 2; P <= maxP; P++) {
      oc_params p;
      int64_t B;
      CHECK_OK(oc_params_logp(&p, P, cases[i][0], cases[i][1], cases[i][2]));
      CHECK_OK(oc_bcast_time(&p, &B));
      best = INT64_MAX;
      search(&p, 1, B); /* every schedule finishing by B(P) */
      CHECK_EQ(best, B);
    }
  }
}

/* The schedule's optional columns: a column added after some pushes gives
 * them its default (len 1, others 0), later pushes too; sort moves every
 * column with its message (ties keep their order) and leaves a plain
 * schedule sorted as before; packets repeats the other columns per packet;
 * oc_sched_free releases them (valgrind counts leaks). */
void test_sched_columns(void) {
  oc_sched s, x;
  size_t moved = 0;
  oc_sched_init(&s);
  CHECK(s.len == NULL && s.recv_at == NULL && s.copy == NULL && s.seq == NULL &&
        s.not_before == NULL && s.hist == NULL);
  CHECK_EQ(oc_sched_add_col(&s, OC_COL_COUNT), OC_EINVAL);
  CHECK_EQ(oc_sched_add_col(&s, (oc_col)-1), OC_EINVAL);
  CHECK_OK(oc_sched_push(&s, 5, 0, 1, 0));
  CHECK_OK(oc_sched_add_col(&s, OC_COL_RECV_AT));
  CHECK_OK(oc_sched_add_col(&s, OC_COL_COPY));
  CHECK_OK(oc_sched_add_col(&s, OC_COL_RECV_AT)); /* twice: no change */
  CHECK_EQ(s.recv_at[0], 0);
  CHECK_EQ(s.copy[0], 0);
  s.recv_at[0] = 1005;
  /* enough pushes to grow the arrays several times, times falling */
  for (int64_t i = 0; i < 300; i++) {
    CHECK_OK(oc_sched_push(&s, 1000 - i / 2, i % 3, 3 + i % 2, 0));
    CHECK_EQ(s.recv_at[s.n - 1], 0);
    s.recv_at[s.n - 1] = 7 * i;
    s.copy[s.n - 1] = (unsigned char)(i % 5 == 0);
  }
  CHECK_OK(oc_sched_sort(&s));
  for (size_t i = 1; i < s.n; i++) {
    const oc_msg *a = &s.msg[i - 1], *b = &s.msg[i];
    CHECK(a->t < b->t || (a->t == b->t && (a->src < b->src || (a->src == b->src && a->dst <= b->dst))));
  }
  for (size_t i = 0; i < s.n; i++) { /* each row kept its own columns */
    const oc_msg *m = &s.msg[i];
    if (m->t == 5) {
      CHECK_EQ(s.recv_at[i], 1005);
      continue;
    }
    {
      int64_t k = s.recv_at[i] / 7; /* the push index */
      CHECK_EQ(s.recv_at[i] % 7, 0);
      CHECK_EQ(m->t, 1000 - k / 2);
      CHECK_EQ(m->src, k % 3);
      CHECK_EQ(m->dst, 3 + k % 2);
      CHECK_EQ(s.copy[i], (unsigned char)(k % 5 == 0));
      moved += (size_t)k + 1 != i; /* not where it was pushed */
    }
  }
  CHECK(moved > 100);
  /* a planner that reserves room first keeps the columns in step (ASan
   * would see a column shorter than the messages) */
  oc_sched_free(&s);
  oc_sched_init(&s);
  {
    oc_params p;
    oc_bcast *b = NULL;
    CHECK_OK(oc_params_logp(&p, 300, 6, 2, 4));
    CHECK_OK(oc_sched_add_col(&s, OC_COL_RECV_AT));
    CHECK_OK(oc_bcast_new(&b, &p, 0, OC_BCAST_KARP));
    CHECK_OK(oc_bcast_schedule(b, &s));
    oc_bcast_free(b);
    CHECK_EQ(s.n, 299);
    CHECK_OK(oc_sched_push(&s, 1, 0, 1, 0)); /* one more, past the reserved room */
    for (size_t i = 0; i < s.n; i++) CHECK_EQ(s.recv_at[i], 0);
    CHECK_OK(oc_sched_reserve(&s, 1000));
    CHECK(s.cap >= s.n + 1000);
  }
  /* long messages: the columns repeat per packet */
  oc_sched_free(&s);
  oc_sched_init(&s);
  CHECK_OK(oc_sched_add_col(&s, OC_COL_HIST));
  CHECK_OK(oc_sched_push_long(&s, 0, 0, 1, 0, 3));
  s.hist[0] = 2;
  CHECK_OK(oc_sched_push(&s, 1, 1, 2, 0));
  s.hist[1] = 9;
  CHECK(s.len != NULL && s.len[0] == 3 && s.len[1] == 1);
  CHECK_OK(oc_sched_sort(&s)); /* long messages: left as they are */
  CHECK_EQ(s.msg[0].t, 0);
  oc_sched_init(&x);
  CHECK_OK(oc_sched_packets(&s, 4, &x));
  CHECK_EQ(x.n, 4);
  CHECK(x.len == NULL && x.hist != NULL);
  CHECK(x.msg[2].t == 8 && x.msg[2].item == 2 && x.hist[2] == 2 && x.hist[3] == 9);
  oc_sched_free(&x);
  oc_sched_free(&s);
}
