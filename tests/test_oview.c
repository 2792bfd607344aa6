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
