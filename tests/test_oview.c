/* test_oview.c - the order-keeping views (oc_oview_rank) and their
 * verifier (oc_verify_oviews): every kind on every small P and random
 * larger ones, their depth in messages against the closed forms, and
 * mutants (a side flipped, a reception dropped, a send sent astray, two
 * receptions swapped) that the verifier must reject. */
#include <stdlib.h>
#include <string.h>

#include "optcast.h"
#include "test.h"

static const oc_ov_kind KINDS[] = {OC_OV_REDUCE,  OC_OV_ALLREDUCE_RD, OC_OV_ALLREDUCE_DIRECT,
                                   OC_OV_SCAN_RD, OC_OV_SCAN_CHAIN,   OC_OV_SCAN_DIRECT};
#define NKINDS (sizeof KINDS / sizeof *KINDS)

static int64_t clog2(int64_t P) {
  int64_t k = 0;
  while (((int64_t)1 << k) < P) k++;
  return k;
}

/* the views of every rank of one instance; root: the verifier's */
static int build(const oc_params *p, oc_ov_kind k, int64_t root, int64_t m, oc_mb_rank *v,
                 int64_t *vroot) {
  int64_t P = p->P;
  for (int64_t q = 0; q < P; q++) {
    int e = oc_oview_rank(p, k, k == OC_OV_REDUCE ? root : -1, m, q, &v[q]);
    if (e != OC_OK) return e;
  }
  *vroot = k == OC_OV_REDUCE                                         ? root
           : k == OC_OV_ALLREDUCE_RD || k == OC_OV_ALLREDUCE_DIRECT ? OC_OVIEWS_ALL
                                                                    : OC_OVIEWS_SCAN;
  return OC_OK;
}

static void free_views(oc_mb_rank *v, int64_t P) {
  for (int64_t q = 0; q < P; q++) oc_mb_rank_free(&v[q]);
}

/* the depth (messages in a chain) each pattern has by construction */
static void check_depth(oc_ov_kind k, int64_t P, int64_t t) {
  int64_t lg = clog2(P), pow2 = (P & (P - 1)) == 0;
  switch (k) {
  case OC_OV_ALLREDUCE_RD: /* log2 P' rounds, the pre- and post-step around them */
    if (pow2) CHECK_EQ(t, lg);
    else CHECK(t >= lg && t <= lg + 1);
    break;
  case OC_OV_ALLREDUCE_DIRECT: CHECK_EQ(t, P == 1 ? 0 : 2); break;
  case OC_OV_SCAN_RD: /* at most a message a round, and rank P-1 hears from P-2 */
    CHECK(t <= lg && t >= (P > 1));
    break;
  case OC_OV_SCAN_CHAIN: CHECK_EQ(t, P - 1); break;
  case OC_OV_SCAN_DIRECT: CHECK_EQ(t, P == 1 ? 0 : 1); break;
  default: CHECK(t >= (P > 1) && t <= P - 1); break; /* a tree */
  }
}

static void one(const oc_params *p, oc_ov_kind k, int64_t root, int64_t m) {
  oc_mb_rank *v = (oc_mb_rank *)calloc((size_t)p->P, sizeof *v);
  oc_verdict vd;
  int64_t vroot;
  CHECK(v != NULL);
  CHECK_OK(build(p, k, root, m, v, &vroot));
  CHECK_OK(oc_verify_oviews(p->P, m, vroot, v, &vd));
  if (!vd.ok) fprintf(stderr, "  kind %d P=%lld m=%lld root=%lld: %s\n", (int)k, (long long)p->P,
                      (long long)m, (long long)root, vd.detail);
  CHECK(vd.ok);
  if (vd.ok) check_depth(k, p->P, vd.time);
  free_views(v, p->P);
  free(v);
}

static oc_params params(int64_t P, int64_t L, int64_t o, int64_t g) {
  oc_params p;
  memset(&p, 0, sizeof p);
  p.P = P;
  p.L = L;
  p.o = o;
  p.g = g;
  p.unit = 1;
  return p;
}

/* every kind, P = 1..40, a few packet counts, every root of the reduce */
void test_oview_small(void) {
  for (int64_t P = 1; P <= 40; P++)
    for (size_t k = 0; k < NKINDS; k++)
      for (int64_t m = 1; m <= 3; m++) {
        oc_params p = params(P, 1 + P % 7, P % 3, 1 + P % 4);
        if (KINDS[k] == OC_OV_ALLREDUCE_DIRECT) {
          if (m == 1) one(&p, KINDS[k], -1, P);
          continue;
        }
        for (int64_t root = 0; root < (KINDS[k] == OC_OV_REDUCE ? P : 1); root++)
          one(&p, KINDS[k], root, m);
      }
}

/* random instances: P up to 300, L, o, g, m, root */
void test_oview_random(void) {
  int n = test_sweep() ? 20000 : test_valgrind() ? 100 : 2000;
  for (int it = 0; it < n; it++) {
    oc_ov_kind k = KINDS[test_range(0, NKINDS - 1)];
    int64_t P = test_range(1, 300), m = k == OC_OV_ALLREDUCE_DIRECT ? P : test_range(1, 9);
    oc_params p = params(P, test_range(1, 40), test_range(0, 10), test_range(1, 20));
    one(&p, k, test_range(0, P - 1), m);
  }
}

/* one mutation of a valid set; 0 when the set has no step it applies to */
static int mutate(oc_mb_rank *v, int64_t P, int how) {
  for (int tries = 0; tries < 64; tries++) {
    int64_t q = test_range(0, P - 1);
    size_t i;
    oc_mb_step *s;
    if (v[q].n == 0) continue;
    i = (size_t)test_range(0, (int64_t)v[q].n - 1);
    s = &v[q].step[i];
    if (how == 0 && s->kind == OC_MB_RECV && !s->copy) { /* joined on the other side */
      s->side = !s->side;
      return 1;
    }
    if (how == 1 && s->kind == OC_MB_RECV) { /* a reception dropped */
      memmove(s, s + 1, (v[q].n - i - 1) * sizeof *s);
      v[q].n--;
      return 1;
    }
    if (how == 2 && s->kind == OC_MB_SEND && P > 2) { /* a send astray */
      int64_t to = (s->peer + test_range(1, P - 1)) % P;
      if (to == q) to = (to + 1) % P;
      if (to == s->peer) continue;
      s->peer = to;
      return 1;
    }
    if (how == 3 && s->kind == OC_MB_RECV && !s->copy) { /* two joins of one packet swapped */
      for (size_t j = i + 1; j < v[q].n; j++) {
        oc_mb_step *t = &v[q].step[j];
        if (t->kind == OC_MB_SEND && t->item < s->item + s->len && s->item < t->item + t->len)
          break; /* a send between them reads the value */
        if (t->kind == OC_MB_RECV && !t->copy && t->item == s->item && t->len == s->len &&
            t->side == s->side && t->peer != s->peer) {
          oc_mb_step x = *s;
          *s = *t;
          *t = x;
          return 1;
        }
      }
    }
  }
  return 0;
}

void test_oview_mutants(void) {
  int n = test_sweep() ? 8000 : test_valgrind() ? 40 : 800, tried[4] = {0, 0, 0, 0};
  for (int it = 0; it < n; it++) {
    oc_ov_kind k = KINDS[test_range(0, NKINDS - 1)];
    int64_t P = test_range(2, 40), m = k == OC_OV_ALLREDUCE_DIRECT ? P : test_range(1, 4), vroot;
    int how = (int)test_range(0, 3);
    oc_params p = params(P, test_range(1, 20), test_range(0, 5), test_range(1, 9));
    oc_mb_rank *v = (oc_mb_rank *)calloc((size_t)P, sizeof *v);
    oc_verdict vd;
    CHECK(v != NULL);
    CHECK_OK(build(&p, k, test_range(0, P - 1), m, v, &vroot));
    if (mutate(v, P, how)) {
      tried[how]++;
      CHECK_OK(oc_verify_oviews(P, m, vroot, v, &vd));
      if (vd.ok) fprintf(stderr, "  kind %d P=%lld mutant %d passed\n", (int)k, (long long)P, how);
      CHECK(!vd.ok);
    }
    free_views(v, P);
    free(v);
  }
  for (int h = 0; h < 4; h++) CHECK(tried[h] > 0);
}

/* refusals: bad arguments, the direct allreduce's m != P */
void test_oview_refusals(void) {
  oc_params p = params(8, 5, 1, 2);
  oc_mb_rank v;
  oc_verdict vd;
  memset(&v, 0, sizeof v);
  CHECK_EQ(oc_oview_rank(&p, OC_OV_ALLREDUCE_DIRECT, -1, 4, 0, &v), OC_EINVAL);
  CHECK_EQ(oc_oview_rank(&p, OC_OV_REDUCE, 8, 1, 0, &v), OC_EINVAL);
  CHECK_EQ(oc_oview_rank(&p, OC_OV_SCAN_RD, 0, 1, 0, &v), OC_EINVAL);
  CHECK_EQ(oc_oview_rank(&p, OC_OV_SCAN_RD, -1, 0, 0, &v), OC_EINVAL);
  CHECK_EQ(oc_oview_rank(&p, OC_OV_SCAN_RD, -1, 1, 8, &v), OC_EINVAL);
  CHECK_EQ(oc_oview_rank(&p, (oc_ov_kind)99, -1, 1, 0, &v), OC_EINVAL);
  CHECK_EQ(oc_verify_oviews(8, 1, OC_OVIEWS_SCAN - 1, &v, &vd), OC_EINVAL);
  CHECK_EQ(oc_verify_oviews(1 << 20, 1 << 10, 0, &v, &vd), OC_ERANGE);
  oc_mb_rank_free(&v);
}

/* The distributed sum's per-rank views (oc_sum_rank): for random LogP
 * instances, every rank's view together through oc_verify_oviews_held
 * (the operands' runs joined in index order into x_0 .. x_{n-1} at the
 * root, no deadlock, no message left); each rank's operands and messages
 * those of the global plan (oc_reduce_counts, oc_reduce_schedule: its one
 * send to the same parent, its receptions from the same children), the
 * plan itself through oc_verify_reduce; and mutants of the views (a side
 * flipped, a reception dropped, a send astray, two children's joins
 * swapped) rejected. */
void test_oview_sum(void) {
  int n_it = test_sweep() ? 3000 : test_valgrind() ? 30 : 300, tried[4] = {0, 0, 0, 0};
  for (int it = 0; it < n_it; it++) {
    int64_t P = test_range(1, 48), root = test_range(0, P - 1);
    int64_t n = test_range(0, 3) == 0 ? test_range(1, P + 2) : test_range(1, 3000);
    oc_params p = params(P, test_range(1, 20), test_range(0, 5), test_range(1, 9));
    oc_reduce *r = NULL;
    oc_sched s;
    oc_verdict vd;
    oc_mb_rank *v = (oc_mb_rank *)calloc((size_t)P, sizeof *v);
    int64_t *first = (int64_t *)calloc((size_t)P, sizeof *first);
    int64_t *held = (int64_t *)calloc((size_t)P, sizeof *held);
    int64_t *counts = (int64_t *)calloc((size_t)P, sizeof *counts);
    int64_t *sends = (int64_t *)calloc((size_t)P, sizeof *sends);
    int how = (int)test_range(0, 3);
    CHECK(v != NULL && first != NULL && held != NULL && counts != NULL && sends != NULL);
    if (p.g < p.o + 1) p.g = p.o + 1;
    oc_sched_init(&s);
    CHECK_OK(oc_sum_new(&r, &p, root, n));
    CHECK_OK(oc_reduce_counts(r, counts));
    CHECK_OK(oc_reduce_schedule(r, &s));
    CHECK_OK(oc_verify_reduce(&p, root, n, &s, &vd));
    CHECK(vd.ok);
    for (int64_t q = 0; q < P; q++) {
      CHECK_OK(oc_sum_rank(r, q, &first[q], &held[q], &v[q]));
      CHECK_EQ(held[q], counts[q]);
    }
    /* the global plan's messages, rank by rank: one send to the parent,
     * and every reception the view's (and no other) */
    for (size_t i = 0; i < s.n; i++) {
      const oc_msg *mg = &s.msg[i];
      int found_send = 0, found_recv = 0;
      for (size_t k = 0; k < v[mg->src].n; k++)
        found_send |= v[mg->src].step[k].kind == OC_MB_SEND && v[mg->src].step[k].peer == mg->dst;
      for (size_t k = 0; k < v[mg->dst].n; k++)
        found_recv |= v[mg->dst].step[k].kind == OC_MB_RECV && v[mg->dst].step[k].peer == mg->src;
      CHECK(found_send && found_recv);
      sends[mg->src]++;
    }
    {
      int64_t steps = 0;
      for (int64_t q = 0; q < P; q++) {
        steps += (int64_t)v[q].n;
        CHECK(sends[q] <= 1);
      }
      CHECK_EQ(steps, 2 * (int64_t)s.n); /* each message a send and a reception */
    }
    CHECK_OK(oc_verify_oviews_held(P, 1, root, v, first, held, &vd));
    if (!vd.ok)
      fprintf(stderr, "  sum P=%lld n=%lld root=%lld: %s\n", (long long)P, (long long)n,
              (long long)root, vd.detail);
    CHECK(vd.ok);
    if (P > 1 && mutate(v, P, how)) {
      tried[how]++;
      CHECK_OK(oc_verify_oviews_held(P, 1, root, v, first, held, &vd));
      if (vd.ok) fprintf(stderr, "  sum P=%lld n=%lld mutant %d passed\n", (long long)P, (long long)n, how);
      CHECK(!vd.ok);
    }
    oc_sched_free(&s);
    oc_reduce_free(r);
    free_views(v, P);
    free(v);
    free(first);
    free(held);
    free(counts);
    free(sends);
  }
  for (int h = 0; h < 4; h++) CHECK(tried[h] > 0);
}

/* The verifier's own operand runs: they must tile 0 .. n - 1 */
void test_oview_held_refusals(void) {
  oc_mb_rank v[3];
  oc_verdict vd;
  int64_t first[3] = {0, 2, 5}, held[3] = {2, 3, 1};
  memset(v, 0, sizeof v);
  CHECK_OK(oc_verify_oviews_held(3, 1, 0, v, first, held, &vd)); /* tiles; nobody sends */
  CHECK(!vd.ok);                                                  /* root has 0..1 only  */
  first[2] = 6; /* a hole at 5 */
  CHECK_EQ(oc_verify_oviews_held(3, 1, 0, v, first, held, &vd), OC_EINVAL);
  first[2] = 4; /* an overlap at 4 */
  CHECK_EQ(oc_verify_oviews_held(3, 1, 0, v, first, held, &vd), OC_EINVAL);
  first[2] = 5;
  held[1] = -1;
  CHECK_EQ(oc_verify_oviews_held(3, 1, 0, v, first, held, &vd), OC_EINVAL);
  CHECK_EQ(oc_verify_oviews_held(3, 1, 0, v, first, NULL, &vd), OC_EINVAL);
}
