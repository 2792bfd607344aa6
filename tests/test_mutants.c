/* test_mutants.c - the verifier's strength: a mutation campaign over
 * generated schedules of every problem and model.  For broadcasts and
 * all-to-all, an independent reference checker (pairwise, O(M^2), written
 * from the contract's rules alone) decides whether a mutant breaks a rule;
 * the verifier must agree on every mutant: reject exactly the broken ones.
 * For the combining problems the mutants are counted (tried / rejected). */
#include <stdlib.h>
#include <string.h>

#include "core/oc_core.h"
#include "test.h"

/* ---- the reference checker --------------------------------------------------
 * origin(item): the processor holding item at time 0 (or -1: the root for
 * all); need(q, item): must q end with it. */
typedef struct refp {
  const oc_params *p;
  int64_t root, items, k; /* bcast: items; alltoall: k per processor */
  int mode;               /* 0 bcast, 1 alltoall, 2 personalized */
} refp;

static int64_t origin(const refp *r, int64_t item) {
  if (r->mode == 0) return r->root;
  if (r->mode == 1) return item / r->k;
  return (item / r->k) / r->p->P;
}

static int need(const refp *r, int64_t q, int64_t item) {
  if (r->mode == 2) return ((item / r->k) % r->p->P) == q && origin(r, item) != q;
  return origin(r, item) != q;
}

static int64_t nitems(const refp *r) {
  return r->mode == 0 ? r->items : r->mode == 1 ? r->p->P * r->k : r->p->P * r->p->P * r->k;
}

static int overl(int64_t a, int64_t b, int64_t len) { /* [a,a+len) vs [b,b+len) */
  return len > 0 && a < b + len && b < a + len;
}

/* 1 when the schedule keeps every rule */
static int ref_valid(const refp *r, const oc_sched *s) {
  const oc_params *p = r->p;
  int64_t P = p->P, h = p->L + 2 * p->o, cap = (p->L + p->g - 1) / p->g, NI = nitems(r);
  if (cap < 1) cap = 1;
  for (size_t i = 0; i < s->n; i++) {
    const oc_msg *a = &s->msg[i];
    int held = 0, in_from = 0, in_to = 0;
    if (a->src < 0 || a->src >= P || a->dst < 0 || a->dst >= P || a->src == a->dst ||
        a->item < 0 || a->item >= NI || a->t < 0)
      return 0;
    if (origin(r, a->item) == a->src) held = 1;
    for (size_t j = 0; j < s->n; j++) {
      const oc_msg *b = &s->msg[j];
      if (j == i) continue;
      if (b->dst == a->src && b->item == a->item && b->t + h <= a->t) held = 1;
      if (b->src == a->src && (b->t - a->t < p->g && a->t - b->t < p->g)) return 0; /* send gap */
      if (b->dst == a->dst && (b->t - a->t < p->g && a->t - b->t < p->g)) return 0; /* receive gap */
      /* busy: sends [t, t+o), receives [t+o+L, t+2o+L) of one processor */
      if (b->src == a->src && overl(a->t, b->t, p->o)) return 0;
      if (b->dst == a->dst && overl(a->t + p->o + p->L, b->t + p->o + p->L, p->o)) return 0;
      if (b->dst == a->src && overl(a->t, b->t + p->o + p->L, p->o)) return 0;
      if (b->src == a->dst && overl(a->t + p->o + p->L, b->t, p->o)) return 0;
      /* in transit [t+o, t+o+L): count those overlapping a's start of transit */
      if (p->L > 0 && b->src == a->src && b->t + p->o <= a->t + p->o && a->t + p->o < b->t + p->o + p->L) in_from++;
      if (p->L > 0 && b->dst == a->dst && b->t + p->o <= a->t + p->o && a->t + p->o < b->t + p->o + p->L) in_to++;
    }
    if (!held) return 0;
    if (p->L > 0 && (in_from + 1 > cap || in_to + 1 > cap)) return 0;
  }
  for (int64_t q = 0; q < P; q++) /* every processor gets what it needs */
    for (int64_t it = 0; it < NI; it++) {
      int got = 0;
      if (!need(r, q, it)) continue;
      for (size_t j = 0; j < s->n && !got; j++) got = s->msg[j].dst == q && s->msg[j].item == it;
      if (!got) return 0;
    }
  return 1;
}

static int ver_valid(const refp *r, const oc_sched *s) {
  oc_verdict v;
  if (r->mode == 0) CHECK_OK(oc_verify_bcast(r->p, r->root, r->items, s, &v));
  else CHECK_OK(oc_verify_alltoall(r->p, r->k, r->mode == 2, s, &v));
  return v.ok;
}

/* one random mutation of 6 kinds; returns its kind */
static int mutate(oc_sched *s, const oc_params *p, int64_t NI) {
  int kind = (int)(test_rand() % 6);
  size_t m = (size_t)(test_rand() % s->n), m2 = (size_t)(test_rand() % s->n);
  switch (kind) {
  case 0: s->msg[m].t += test_range(-2, 2) * (test_rand() % 2 ? 1 : p->g) ; break; /* shift */
  case 1: s->msg[m] = s->msg[--s->n]; break;                                     /* drop */
  case 2: CHECK_OK(oc_sched_push(s, s->msg[m].t + test_range(0, 3), s->msg[m].src,
                                 s->msg[m].dst, s->msg[m].item)); break;          /* duplicate */
  case 3: { int64_t t = s->msg[m].t; s->msg[m].t = s->msg[m2].t; s->msg[m2].t = t; break; } /* swap */
  case 4: s->msg[m].dst = test_range(0, p->P - 1); break;                        /* retarget */
  default: s->msg[m].item = test_range(0, NI - 1); break;                        /* other item */
  }
  return kind;
}

typedef struct tally { int64_t tried, broken, killed, agree; } tally;

static void campaign(tally *t, const refp *r, const oc_sched *base, int rounds) {
  for (int i = 0; i < rounds; i++) {
    oc_sched s;
    int rv, vv;
    if (base->n == 0) return;
    oc_sched_init(&s);
    for (size_t j = 0; j < base->n; j++)
      CHECK_OK(oc_sched_push(&s, base->msg[j].t, base->msg[j].src, base->msg[j].dst, base->msg[j].item));
    mutate(&s, r->p, nitems(r));
    if (test_rand() % 3 == 0 && s.n > 0) mutate(&s, r->p, nitems(r)); /* sometimes two */
    rv = ref_valid(r, &s);
    vv = ver_valid(r, &s);
    t->tried++;
    t->broken += !rv;
    t->killed += !vv;
    t->agree += rv == vv;
    if (rv != vv)
      test_failf(__FILE__, __LINE__, "verifier says %s, reference %s (P=%lld L=%lld o=%lld g=%lld mode %d)",
                 vv ? "valid" : "invalid", rv ? "valid" : "invalid", (long long)r->p->P,
                 (long long)r->p->L, (long long)r->p->o, (long long)r->p->g, r->mode);
    oc_sched_free(&s);
  }
}

static void model_for(oc_params *p, int postal) {
  for (;;) {
    int64_t P = test_range(2, 9);
    if (postal) {
      int64_t q = test_range(1, 3);
      if (oc_params_postal(p, P, test_range(q, 4 * q), q) == OC_OK) return;
    } else if (oc_params_logp(p, P, test_range(0, 6), test_range(0, 3), test_range(1, 5)) == OC_OK) {
      return;
    }
  }
}

void test_mutants_campaign(void) {
  int rounds = test_sweep() ? 60 : 12, per = 40;
  tally t[4][2]; /* bcast, kbcast, alltoall, personalized  x  logp, postal */
  memset(t, 0, sizeof t);
  for (int i = 0; i < rounds; i++) {
    for (int postal = 0; postal < 2; postal++) {
      oc_params p;
      oc_sched s;
      refp r;
      int64_t tt, lb;
      model_for(&p, postal);
      /* bcast (all three algorithms) */
      for (int a = 0; a < 3; a++) {
        oc_bcast *b;
        r.p = &p; r.root = test_range(0, p.P - 1); r.items = 1; r.k = 1; r.mode = 0;
        CHECK_OK(oc_bcast_new(&b, &p, r.root, (oc_bcast_alg)a));
        oc_sched_init(&s);
        CHECK_OK(oc_bcast_schedule(b, &s));
        CHECK(ref_valid(&r, &s));
        campaign(&t[0][postal], &r, &s, per / 3);
        oc_sched_free(&s);
        oc_bcast_free(b);
      }
      if (postal) { /* kbcast: repeat, pipeline, dtree (PACK's long messages: kbcast tests) */
        static const oc_kbcast_alg algs[3] = {OC_KB_REPEAT, OC_KB_PIPELINE, OC_KB_DTREE};
        for (int a = 0; a < 3; a++) {
          oc_kbcast_result kr;
          r.p = &p; r.root = 0; r.items = test_range(2, 4); r.k = 1; r.mode = 0;
          oc_sched_init(&s);
          CHECK_OK(oc_kbcast_plan(&p, 0, r.items, algs[a], 2, &s, &kr));
          CHECK(ref_valid(&r, &s));
          campaign(&t[1][postal], &r, &s, per / 3);
          oc_sched_free(&s);
        }
      }
      for (int pers = 0; pers < 2; pers++) { /* all-to-all */
        r.p = &p; r.root = 0; r.items = 1; r.k = test_range(1, 2); r.mode = 1 + pers;
        oc_sched_init(&s);
        CHECK_OK(oc_alltoall_schedule(&p, r.k, pers, &s, &tt, &lb));
        CHECK(ref_valid(&r, &s));
        campaign(&t[2 + pers][postal], &r, &s, per / 2);
        oc_sched_free(&s);
      }
    }
  }
  {
    static const char *names[4] = {"bcast", "kbcast", "alltoall", "alltoall personalized"};
    fprintf(stderr, "  | problem | model | mutants | breaking a rule (reference) | rejected | verifier = reference |\n");
    for (int k = 0; k < 4; k++)
      for (int m = 0; m < 2; m++)
        if (t[k][m].tried)
          fprintf(stderr, "  | %s | %s | %lld | %lld | %lld | %lld |\n", names[k], m ? "postal" : "logp",
                  (long long)t[k][m].tried, (long long)t[k][m].broken, (long long)t[k][m].killed,
                  (long long)t[k][m].agree);
  }
}

/* Combining problems: no reference checker; every mutant kind here breaks
 * a rule by construction (a value or operand lost, duplicated or moved),
 * so every one must be rejected; the counts go to the docs. */
void test_mutants_combining(void) {
  int rounds = test_sweep() ? 400 : 80;
  int64_t tried[3] = {0, 0, 0}, killed[3] = {0, 0, 0};
  for (int i = 0; i < rounds; i++) {
    oc_params p;
    oc_sched s;
    oc_verdict v;
    oc_reduce *x;
    int64_t n, tt, lb;
    model_for(&p, i % 2);
    n = test_range(p.P, 60);
    for (int prob = 0; prob < 3; prob++) {
      size_t m;
      int kind = (int)(test_rand() % 4);
      int64_t root = prob == 1 ? test_range(0, p.P - 1) : 0;
      oc_sched_init(&s);
      if (prob == 0) { CHECK_OK(oc_sum_new(&x, &p, 0, n)); CHECK_OK(oc_reduce_schedule(x, &s)); oc_reduce_free(x); }
      else if (prob == 1) { CHECK_OK(oc_reduce_new(&x, &p, root, 1)); CHECK_OK(oc_reduce_schedule(x, &s)); oc_reduce_free(x); }
      else CHECK_OK(oc_allreduce_schedule(&p, &s, &tt, &lb));
      if (s.n == 0) { oc_sched_free(&s); continue; }
      m = (size_t)(test_rand() % s.n);
      switch (kind) {
      case 0: s.msg[m] = s.msg[--s.n]; break; /* a value dropped */
      case 1: CHECK_OK(oc_sched_push(&s, s.msg[m].t + 1000000, s.msg[m].src, s.msg[m].dst, s.msg[m].item)); break; /* sent twice */
      case 2: /* to the wrong processor (with P = 2 there is none: drop it instead) */
        if (p.P < 3) { s.msg[m] = s.msg[--s.n]; break; }
        do s.msg[m].dst = (s.msg[m].dst + 1) % p.P; while (s.msg[m].dst == s.msg[m].src);
        break;
      default: /* an operand count changed: one operand moves */
        if (prob < 2 && s.nseg > 1 && s.seg[0].hi - s.seg[0].lo > 1) { s.seg[0].hi--; s.seg[1].lo--; }
        else s.msg[m] = s.msg[--s.n];
        break;
      }
      if (prob < 2) CHECK_OK(oc_verify_reduce(&p, root, prob == 0 ? n : p.P, &s, &v));
      else CHECK_OK(oc_verify_allreduce(&p, &s, &v));
      tried[prob]++;
      killed[prob] += !v.ok;
      if (v.ok) test_failf(__FILE__, __LINE__, "problem %d mutant %d accepted (P=%lld)", prob, kind, (long long)p.P);
      oc_sched_free(&s);
    }
  }
  fprintf(stderr, "  | sum | mixed | %lld | - | %lld |\n  | reduce | mixed | %lld | - | %lld |\n  | allreduce | mixed | %lld | - | %lld |\n",
          (long long)tried[0], (long long)killed[0], (long long)tried[1], (long long)killed[1],
          (long long)tried[2], (long long)killed[2]);
}
