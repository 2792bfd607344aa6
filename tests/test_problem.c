/* test_problem.c - the planners behind one call (oc_problem_plan): on random
 * instances of every problem it returns exactly what the problem's own
 * planner returns (same messages, time and bound), verified; times only
 * agree with the plan; refusals are errors, never a schedule. */
#include <stdlib.h>
#include <string.h>

#include "test.h"

static void random_params(oc_params *p, int64_t maxP) {
  for (;;) {
    int64_t P = test_range(1, maxP);
    if (test_rand() % 3 == 0) {
      int64_t q = test_range(1, 3), num = test_range(q, 5 * q);
      if (oc_params_postal(p, P, num, q) == OC_OK) return;
    } else if (oc_params_logp(p, P, test_range(0, 9), test_range(0, 4), test_range(1, 9)) ==
               OC_OK) {
      return;
    }
  }
}

static int same_msgs(const oc_sched *a, const oc_sched *b) {
  if (a->n != b->n || a->nop != b->nop) return 0;
  for (size_t i = 0; i < a->n; i++)
    if (a->msg[i].t != b->msg[i].t || a->msg[i].src != b->msg[i].src ||
        a->msg[i].dst != b->msg[i].dst || a->msg[i].item != b->msg[i].item)
      return 0;
  return 1;
}

/* the problem's own planner, called directly as the command line did */
static int direct(const oc_problem *pr, oc_sched *s, int64_t *time, int64_t *lb) {
  const oc_params *p = &pr->params;
  int e;
  switch (pr->kind) {
  case OC_PROB_BCAST: {
    oc_bcast *b = NULL;
    if ((e = oc_bcast_new(&b, p, pr->root, (oc_bcast_alg)pr->alg)) != OC_OK) return e;
    *time = *lb = oc_bcast_completion(b);
    e = oc_bcast_schedule(b, s);
    oc_bcast_free(b);
    return e;
  }
  case OC_PROB_KBCAST: {
    oc_kbcast_result r;
    int64_t l8, k31;
    if ((e = oc_kbcast_bound(p, pr->items, lb, &l8, &k31)) != OC_OK) return e;
    e = oc_kbcast_plan(p, pr->root, pr->items, (oc_kbcast_alg)pr->alg, 0, s, &r);
    *time = r.time;
    return e;
  }
  case OC_PROB_SUM:
  case OC_PROB_REDUCE: {
    oc_reduce *x = NULL;
    e = pr->kind == OC_PROB_SUM ? oc_sum_new(&x, p, pr->root, pr->operands)
                                : oc_reduce_new(&x, p, pr->root, !(pr->flags & OC_PF_COMMUTATIVE));
    if (e != OC_OK) return e;
    *time = oc_reduce_completion(x);
    *lb = oc_reduce_lower_bound(x);
    e = oc_reduce_schedule(x, s);
    oc_reduce_free(x);
    return e;
  }
  case OC_PROB_ALLREDUCE: {
    oc_allreduce_choice ch;
    int ea;
    if (pr->flags & OC_PF_ORDERED) return oc_allreduce_ordered_schedule(p, s, time, lb);
    /* the fastest construction with a time,src,dst,item CSV */
    ea = oc_allreduce_best_of(p, (1u << OC_AR_CIRCULANT) | (1u << OC_AR_ORDERED) |
                                     (1u << OC_AR_COMMUTATIVE), s, &ch);
    *time = ch.time;
    *lb = ch.lower_bound;
    return ea;
  }
  default:
    return oc_alltoall_schedule(p, pr->items, (pr->flags & OC_PF_PERSONALIZED) != 0, s, time,
                                lb);
  }
}

void test_problem_agrees(void) {
  int n = test_sweep() ? 3000 : test_valgrind() ? 60 : 600, planned = 0;
  for (int it = 0; it < n; it++) {
    oc_params p;
    oc_problem pr;
    oc_sched s1, s2;
    oc_result r, rb;
    int64_t t = -1, lb = -1;
    int e1, e2;
    oc_problem_kind k = (oc_problem_kind)(it % OC_PROB_COUNT);
    random_params(&p, k == OC_PROB_ALLTOALL || k == OC_PROB_KBCAST ? 24 : 300);
    oc_problem_init(&pr, k, &p);
    {
      oc_problem_kind back;
      CHECK_OK(oc_problem_parse(oc_problem_name(k), &back));
      CHECK_EQ(back, k);
    }
    pr.root = test_range(0, p.P - 1);
    if (k == OC_PROB_BCAST) pr.alg = (int)test_range(0, 2);
    if (k == OC_PROB_KBCAST) {
      pr.items = test_range(1, 6);
      pr.alg = (int)test_range(0, OC_KB_BEST);
      if (p.model != OC_MODEL_POSTAL) CHECK(oc_params_postal(&p, p.P, 3, 1) == OC_OK);
      pr.params = p;
    }
    if (k == OC_PROB_SUM) pr.operands = test_range(1, 2000);
    if (k == OC_PROB_REDUCE && test_rand() % 2) pr.flags |= OC_PF_COMMUTATIVE;
    if (k == OC_PROB_ALLREDUCE && test_rand() % 2) pr.flags |= OC_PF_ORDERED;
    if (k == OC_PROB_ALLTOALL) {
      pr.items = test_range(1, 3);
      if (test_rand() % 2) pr.flags |= OC_PF_PERSONALIZED;
    }
    oc_sched_init(&s1);
    oc_sched_init(&s2);
    e1 = oc_problem_plan(&pr, &s1, &r);
    e2 = direct(&pr, &s2, &t, &lb);
    if (e1 != e2)
      test_failf(__FILE__, __LINE__, "%s P=%lld: facade %s, planner %s", oc_problem_name(k),
                 (long long)p.P, oc_err_name(e1), oc_err_name(e2));
    if (e1 == OC_OK) {
      CHECK(same_msgs(&s1, &s2));
      CHECK(r.check.ok);
      CHECK_EQ(r.lower_bound, lb);
      CHECK_EQ(r.time, t);
      CHECK_EQ(r.check.time, r.time);
      CHECK(r.time >= r.lower_bound);
      CHECK_EQ(r.optimal, r.time == r.lower_bound);
      CHECK(r.algorithm != NULL && r.bound_source != NULL);
      if (k == OC_PROB_KBCAST) { /* the winner and its tree, as the planner says */
        oc_kbcast_result kr;
        CHECK_OK(oc_kbcast_plan(&p, pr.root, pr.items, (oc_kbcast_alg)pr.alg, 0, NULL, &kr));
        CHECK(r.alg == (int)kr.alg && r.degree == kr.degree && r.formula == kr.formula);
        CHECK(strcmp(r.algorithm, oc_kbcast_alg_name(kr.alg)) == 0);
      } else if (k == OC_PROB_BCAST) {
        CHECK_EQ(r.alg, pr.alg);
      } else if (k == OC_PROB_ALLREDUCE && !(pr.flags & OC_PF_ORDERED)) {
        oc_allreduce_choice ch; /* the winner, as the choice says */
        CHECK_OK(oc_allreduce_best_of(&p, (1u << OC_AR_CIRCULANT) | (1u << OC_AR_ORDERED) |
                                              (1u << OC_AR_COMMUTATIVE), NULL, &ch));
        CHECK_EQ(r.alg, (int)ch.alg);
        CHECK(strcmp(r.algorithm, ch.name) == 0);
      } else {
        CHECK_EQ(r.alg, -1);
      }
      if (k == OC_PROB_SUM) { /* operands per processor add up to n */
        int64_t sum = 0;
        for (int64_t q = 0; q < p.P; q++) sum += r.counts[q];
        CHECK_EQ(sum, pr.operands);
      }
      /* times only: the same result, no schedule */
      CHECK_OK(oc_problem_bound(&pr, &rb));
      CHECK_EQ(rb.lower_bound, r.lower_bound);
      if (k != OC_PROB_BCAST && k != OC_PROB_KBCAST) CHECK_EQ(rb.time, r.time);
      oc_result_free(&rb);
      /* the verifier of the problem rejects the schedule less a message */
      if (s1.n > 0 && k != OC_PROB_ALLTOALL) {
        oc_verdict v;
        s1.n--;
        CHECK_OK(oc_problem_verify(&pr, &s1, &v));
        CHECK(!v.ok);
        s1.n++;
      }
      oc_result_free(&r);
      planned++;
    }
    oc_sched_free(&s1);
    oc_sched_free(&s2);
  }
  CHECK(planned > n / 2);
}

/* k-port kbcast through the facade equals oc_kport_plan; refusals */
void test_problem_refusals(void) {
  oc_params p;
  oc_problem pr;
  oc_sched s;
  oc_result r;
  CHECK_OK(oc_params_logp(&p, 8, 6, 2, 4));
  oc_sched_init(&s);
  oc_problem_init(&pr, OC_PROB_BCAST, &p);
  pr.root = 8; /* out of range */
  CHECK_EQ(oc_problem_plan(&pr, &s, &r), OC_ERANGE);
  CHECK_EQ(s.n, 0);
  pr.root = 0;
  pr.items = 0;
  CHECK_EQ(oc_problem_plan(&pr, &s, &r), OC_EINVAL);
  pr.items = 3; /* m packets: the multi-packet broadcast, verified */
  CHECK_OK(oc_problem_plan(&pr, &s, &r));
  CHECK(r.check.ok && r.time == r.check.time && r.time >= r.lower_bound && r.segment >= 1);
  oc_sched_free(&s);
  oc_sched_init(&s);
  pr.alg = OC_MB_COUNT;
  CHECK_EQ(oc_problem_plan(&pr, &s, &r), OC_EINVAL);
  pr.alg = -1;
  pr.items = 1;
  pr.kind = OC_PROB_COUNT;
  CHECK_EQ(oc_problem_plan(&pr, &s, &r), OC_EINVAL);
  CHECK_EQ(oc_problem_parse("scatter", &pr.kind), OC_EPARSE);
  oc_problem_init(&pr, OC_PROB_SUM, &p);
  pr.ports = 2; /* the k-port model has kbcast only */
  CHECK_EQ(oc_problem_plan(&pr, &s, &r), OC_EUNSUP);
  oc_problem_init(&pr, OC_PROB_KBCAST, &p);
  CHECK_EQ(oc_problem_plan(&pr, &s, &r), OC_EUNSUP); /* kbcast: postal or k-port */
  /* Karp et al. Fig. 1 through the facade */
  oc_problem_init(&pr, OC_PROB_BCAST, &p);
  CHECK_OK(oc_problem_plan(&pr, &s, &r));
  CHECK(r.time == 24 && r.lower_bound == 24 && r.optimal && s.n == 7);
  CHECK(strcmp(r.algorithm, "karp") == 0);
  oc_result_free(&r);
  oc_sched_free(&s);
  { /* k-port: n = 9, k = 2, m = 6 */
    oc_kport_result kr;
    oc_sched s2;
    p.P = 9;
    oc_problem_init(&pr, OC_PROB_KBCAST, &p);
    pr.ports = 2;
    pr.items = 6;
    oc_sched_init(&s);
    oc_sched_init(&s2);
    CHECK_OK(oc_problem_plan(&pr, &s, &r));
    CHECK_OK(oc_kport_plan(9, 2, 6, 0, OC_KP_BEST, &s2, &kr));
    CHECK(same_msgs(&s, &s2));
    CHECK_EQ(r.time, kr.time);
    CHECK(r.check.ok && r.time >= r.lower_bound && r.lower_bound > 0);
    oc_result_free(&r);
    oc_sched_free(&s);
    oc_sched_free(&s2);
  }
}

/* A rank's own part equals its messages in the global schedule, for every
 * rank of random broadcasts and reductions (rank order or not); the problems planned only
 * globally say so. */
static int step_less(const oc_step *x, const oc_step *y) {
  if (x->t != y->t) return x->t < y->t;
  if (x->kind != y->kind) return x->kind < y->kind;
  return x->peer < y->peer;
}

void test_problem_rank_views(void) {
  int n = test_sweep() ? 1500 : test_valgrind() ? 20 : 200, ranks = 0;
  static const oc_problem_kind kinds[] = {OC_PROB_BCAST, OC_PROB_REDUCE};
  for (int it = 0; it < n; it++) {
    oc_params p;
    oc_problem pr;
    oc_sched s;
    oc_result r;
    oc_rank_plan rp;
    oc_step *mine;
    random_params(&p, test_valgrind() ? 40 : 260);
    oc_problem_init(&pr, kinds[it % 2], &p);
    pr.root = test_range(0, p.P - 1);
    if (pr.kind == OC_PROB_BCAST) pr.alg = (int)test_range(0, 1); /* karp, shou-chen */
    if (pr.kind == OC_PROB_REDUCE && test_rand() % 2) pr.flags |= OC_PF_COMMUTATIVE;
    oc_sched_init(&s);
    oc_rank_plan_init(&rp);
    if (oc_problem_plan(&pr, &s, &r) != OC_OK) { /* e.g. an ordered reduce beyond its planner */
      CHECK_EQ(oc_problem_rank(&pr, 0, &rp) == OC_OK, 0);
      oc_sched_free(&s);
      oc_rank_plan_free(&rp);
      continue;
    }
    mine = (oc_step *)malloc((s.n + 1) * sizeof *mine);
    CHECK(mine != NULL);
    for (int64_t q = 0; q < p.P; q++) {
      size_t k = 0;
      int e = oc_problem_rank(&pr, q, &rp);
      if (e != OC_OK)
        test_failf(__FILE__, __LINE__, "%s alg %d flags %u P=%lld root %lld rank %lld: %s",
                   oc_problem_name(pr.kind), pr.alg, pr.flags, (long long)p.P,
                   (long long)pr.root, (long long)q, oc_err_name(e));
      CHECK_EQ(rp.rank, q);
      for (size_t i = 0; i < s.n; i++) { /* q's messages, as steps */
        const oc_msg *m = &s.msg[i];
        if (m->src == q) mine[k++] = (oc_step){m->t, m->dst, 0, OC_STEP_SEND};
        if (m->dst == q) mine[k++] = (oc_step){m->t, m->src, 0, OC_STEP_RECV};
      }
      for (size_t i = 1; i < k; i++) /* insertion sort: a few per rank */
        for (size_t j = i; j > 0 && step_less(&mine[j], &mine[j - 1]); j--) {
          oc_step x = mine[j];
          mine[j] = mine[j - 1];
          mine[j - 1] = x;
        }
      if (rp.n != k)
        test_failf(__FILE__, __LINE__, "%s P=%lld rank %lld: %zu steps, the schedule has %zu",
                   oc_problem_name(pr.kind), (long long)p.P, (long long)q, rp.n, k);
      for (size_t i = 0; i < k; i++)
        CHECK(rp.step[i].t == mine[i].t && rp.step[i].peer == mine[i].peer &&
              rp.step[i].kind == mine[i].kind && rp.step[i].item == 0);
      ranks++;
    }
    free(mine);
    oc_result_free(&r);
    oc_sched_free(&s);
    oc_rank_plan_free(&rp);
  }
  CHECK(ranks > n);
  { /* global-only problems, and a tree without a per-rank view */
    oc_params p;
    oc_problem pr;
    oc_rank_plan rp;
    oc_rank_plan_init(&rp);
    CHECK_OK(oc_params_logp(&p, 8, 6, 2, 4));
    oc_problem_init(&pr, OC_PROB_ALLREDUCE, &p);
    CHECK_EQ(oc_problem_rank(&pr, 0, &rp), OC_EUNSUP);
    oc_problem_init(&pr, OC_PROB_SUM, &p);
    pr.operands = 82;
    CHECK_EQ(oc_problem_rank(&pr, 0, &rp), OC_EUNSUP);
    oc_problem_init(&pr, OC_PROB_BCAST, &p);
    pr.alg = OC_BCAST_BARNOY;
    CHECK_EQ(oc_problem_rank(&pr, 0, &rp), OC_EUNSUP);
    pr.alg = OC_BCAST_KARP;
    CHECK_EQ(oc_problem_rank(&pr, 8, &rp), OC_ERANGE);
    CHECK_OK(oc_problem_rank(&pr, 1, &rp)); /* Fig. 1: p1 gets it at 0, sends at 10, 14 */
    CHECK(rp.n == 3 && rp.step[0].kind == OC_STEP_RECV && rp.step[0].t == 0 &&
          rp.step[1].t == 10 && rp.step[2].t == 14 && rp.step[1].kind == OC_STEP_SEND);
    oc_rank_plan_free(&rp);
  }
}
