/* oc_problem.c - one shape for the planners (include/optcast/problem.h).
 *
 * A table row per problem: its name, its default algorithm's name, where
 * its lower bound comes from, and one function that plans it (or, with no
 * schedule wanted, times it).  oc_problem_plan runs the row, then the
 * problem's verifier on the schedule, and hands out only a schedule the
 * verifier accepts with the planned time.  The algorithms themselves, their
 * sources and cost formulas are in the planners' files (oc_bcast.c,
 * oc_kbcast.c, oc_kport.c, oc_reduce.c, oc_allreduce.c, oc_alltoall.c). */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"

#define KPORT_BOUND                                                                  \
  "Bar-Noy & Ho Lemmas 1-3 (reconstructed): ceil(m/k') - 1 + ceil(log_{k+1} n), +1 when " \
  "the last batch needs more bandwidth; receptions: 1 + ceil((m-1)/k')"

typedef int (*pb_plan_fn)(const oc_problem *pr, oc_sched *out, oc_result *res);

typedef struct pb_row {
  const char *name;
  const char *bound_source;
  pb_plan_fn plan;
} pb_row;

/* bcast of m packets in LogP (oc_mbcast.c): the fastest construction */
static int pb_mbcast(const oc_problem *pr, oc_sched *out, oc_result *res) {
  oc_mbcast_info info;
  int e;
  int alg = pr->alg < 0 ? OC_MB_BEST : pr->alg;
  if (alg != OC_MB_BEST && (alg < 0 || alg >= OC_MB_COUNT)) return OC_EINVAL;
  if ((e = oc_mbcast_bound(&pr->params, pr->items, &res->lower_bound, &res->bound_source)) !=
      OC_OK)
    return e;
  if ((e = oc_mbcast_plan(&pr->params, pr->root, pr->items, (oc_mbcast_alg)alg, out, &info)) !=
      OC_OK)
    return e;
  res->algorithm = oc_mbcast_alg_name(info.alg);
  res->alg = (int)info.alg;
  res->time = info.time;
  res->segment = info.seg;
  res->degree = info.degree;
  res->runner_up = info.runner_up >= 0 ? oc_mbcast_alg_name(info.runner_alg) : NULL;
  res->runner_up_time = info.runner_up;
  res->timed = info.timed;
  return OC_OK;
}

/* reduce (root >= 0) and allreduce (root -1) of m packets in LogP
 * (oc_mreduce.c): the fastest construction */
static int pb_mreduce(const oc_problem *pr, int64_t root, oc_sched *out, oc_result *res) {
  oc_mreduce_info info;
  int e;
  int alg = pr->alg < 0 ? OC_MB_BEST : pr->alg;
  if (alg != OC_MB_BEST && (alg < 0 || alg >= OC_MB_COUNT)) return OC_EINVAL;
  if (root >= 0) {
    e = oc_mreduce_bound(&pr->params, pr->items, &res->lower_bound, &res->bound_source);
  } else {
    e = oc_mallreduce_bound(&pr->params, pr->items, &res->lower_bound, &res->bound_source);
  }
  if (e != OC_OK) return e;
  if ((e = oc_mreduce_plan(&pr->params, root, pr->items, (oc_mbcast_alg)alg, out, &info)) !=
      OC_OK)
    return e;
  res->alg = info.family == OC_MR_REVERSED ? (int)info.red.alg : -1;
  res->algorithm = info.family == OC_MR_REVERSED ? oc_mbcast_alg_name(info.red.alg)
                   : info.family == OC_MR_LIBRED ? oc_mred_lib_name(info.lib)
                                                 : oc_mred_family_name(info.family);
  res->time = info.time;
  res->segment = info.family == OC_MR_REVERSED ? info.red.seg : info.seg;
  res->degree = info.family == OC_MR_REVERSED ? info.red.degree : 0;
  res->runner_up = info.runner_up < 0 ? NULL
                   : info.runner_family == OC_MR_REVERSED
                       ? oc_mbcast_alg_name(info.runner_alg)
                       : oc_mred_family_name(info.runner_family);
  res->runner_up_time = info.runner_up;
  res->timed = info.timed;
  res->used = pr->params.P; /* every processor contributes */
  return oc_mreduce_describe(&info, root, pr->items, res->choice, sizeof res->choice);
}

/* bcast: Karp et al. Thm 2.1; the tree is optimal by construction */
static int pb_bcast(const oc_problem *pr, oc_sched *out, oc_result *res) {
  oc_bcast *b = NULL;
  int e;
  if (pr->items != 1) return pb_mbcast(pr, out, res);
  if (pr->alg < OC_BCAST_KARP || pr->alg > OC_BCAST_BARNOY) return OC_EINVAL;
  res->algorithm = oc_bcast_alg_name((oc_bcast_alg)pr->alg);
  res->alg = pr->alg;
  res->optimal = 1;
  if (out == NULL) {
    if ((e = oc_bcast_time(&pr->params, &res->lower_bound)) != OC_OK) return e;
    res->time = res->lower_bound;
    return OC_OK;
  }
  if (pr->params.P > OC_GLOBAL_PROCS_MAX) return OC_ERANGE;
  if ((e = oc_bcast_new(&b, &pr->params, pr->root, (oc_bcast_alg)pr->alg)) != OC_OK) return e;
  res->lower_bound = res->time = oc_bcast_completion(b);
  e = oc_bcast_schedule(b, out);
  oc_bcast_free(b);
  return e;
}

/* kbcast: postal (Bar-Noy & Kipnis, Karp et al. section 3) or k-port */
static int pb_kbcast(const oc_problem *pr, oc_sched *out, oc_result *res) {
  int e;
  if (pr->ports > 0) {
    oc_kport_bounds kb;
    oc_kport_result kr;
    int alg = pr->alg < 0 ? OC_KP_BEST : pr->alg;
    if ((e = oc_kport_bound(pr->params.P, pr->ports, pr->items, &kb)) != OC_OK) return e;
    if ((e = oc_kport_plan(pr->params.P, pr->ports, pr->items, pr->root, (oc_kport_alg)alg,
                           out, &kr)) != OC_OK)
      return e;
    res->algorithm = oc_kport_alg_name(kr.alg);
    res->alg = (int)kr.alg;
    res->time = kr.time;
    res->lower_bound = kb.lb;
    res->bound_source = KPORT_BOUND;
    res->formula = kr.height;
    return OC_OK;
  } else {
    oc_kbcast_result kr;
    int64_t l8, k31;
    int alg = pr->alg < 0 ? OC_KB_BEST : pr->alg;
    if ((e = oc_kbcast_bound(&pr->params, pr->items, &res->lower_bound, &l8, &k31)) != OC_OK)
      return e;
    if ((e = oc_kbcast_plan(&pr->params, pr->root, pr->items, (oc_kbcast_alg)alg, pr->degree,
                            out, &kr)) != OC_OK)
      return e;
    res->algorithm = oc_kbcast_alg_name(kr.alg);
    res->alg = (int)kr.alg;
    res->degree = kr.degree;
    res->time = kr.time;
    res->formula = kr.formula;
    res->lam_int = kr.lam_int;
    return OC_OK;
  }
}

/* sum and reduce: Karp et al. section 5 / 4.2 (oc_reduce.c) */
static int pb_reduce(const oc_problem *pr, oc_sched *out, oc_result *res) {
  oc_reduce *x = NULL;
  int sum = pr->kind == OC_PROB_SUM, e;
  int64_t P = pr->params.P;
  if (!sum && pr->items != 1) return pb_mreduce(pr, pr->root, out, res);
  res->algorithm = sum ? "karp-summation" : "karp-reduction";
  e = sum ? oc_sum_new(&x, &pr->params, pr->root, pr->operands)
          : oc_reduce_new(&x, &pr->params, pr->root, !(pr->flags & OC_PF_COMMUTATIVE));
  if (e != OC_OK) return e;
  res->lower_bound = oc_reduce_lower_bound(x);
  res->time = oc_reduce_completion(x);
  res->used = oc_reduce_used(x);
  if (P > OC_REDUCE_PLAN_MAX && (out != NULL || sum)) {
    e = OC_ERANGE;
  } else if (P <= OC_REDUCE_PLAN_MAX) {
    res->counts = (int64_t *)malloc((size_t)P * sizeof *res->counts);
    e = res->counts == NULL ? OC_ENOMEM : oc_reduce_counts(x, res->counts);
  }
  if (e == OC_OK && out != NULL) e = oc_reduce_schedule(x, out);
  oc_reduce_free(x);
  return e;
}

/* allreduce: the fastest of the circulant windows, reduce + broadcast in
 * rank order and the commutative reduction + broadcast (oc_allreduce_best);
 * --ordered: reduce + broadcast in rank order */
static int pb_allreduce(const oc_problem *pr, oc_sched *out, oc_result *res) {
  int ordered = (pr->flags & OC_PF_ORDERED) != 0, e;
  oc_allreduce_choice ch;
  if (pr->items != 1) return ordered ? OC_EUNSUP : pb_mreduce(pr, -1, out, res);
  res->algorithm = ordered ? "reduce-then-bcast" : "karp-circulant";
  if (out == NULL && pr->params.P > ((int64_t)1 << 16)) {
    /* no circulant plan this large: the lower bound, and at most a
     * reduction plus a broadcast (shifted by at most g) */
    int64_t B, R;
    if ((e = oc_allreduce_bound(&pr->params, &res->lower_bound)) != OC_OK) return e;
    if ((e = oc_reduce_time(&pr->params, &R)) != OC_OK) return e;
    if ((e = oc_bcast_time(&pr->params, &B)) != OC_OK) return e;
    res->time = oc_add_sat(oc_add_sat(R, B), pr->params.g);
    res->upper_only = 1;
    res->algorithm = "reduce-then-bcast";
    return OC_OK;
  }
  if (out != NULL && pr->params.P > OC_GLOBAL_PROCS_MAX) return OC_ERANGE;
  if (ordered)
    return oc_allreduce_ordered_schedule(&pr->params, out, &res->time, &res->lower_bound);
  /* the constructions whose schedule is a time,src,dst,item CSV that
   * `optcast verify allreduce` reads back: not the m-packet planner's
   * vector form (oc_allreduce_best has it for the library's callers) */
  if ((e = oc_allreduce_best_of(&pr->params, (1u << OC_AR_CIRCULANT) | (1u << OC_AR_ORDERED) |
                                                 (1u << OC_AR_COMMUTATIVE),
                                out, &ch)) != OC_OK)
    return e;
  res->algorithm = ch.name;
  res->alg = (int)ch.alg;
  if (ch.alg == OC_AR_PROGRAM) snprintf(res->choice, sizeof res->choice, "%s", ch.description);
  res->time = ch.time;
  res->lower_bound = ch.lower_bound;
  res->timed = OC_AR_COUNT;
  { /* the runner-up: the next fastest construction */
    int ru = -1;
    for (int a = 0; a < OC_AR_COUNT; a++)
      if (a != (int)ch.alg && ch.times[a] >= 0 && (ru < 0 || ch.times[a] < ch.times[ru])) ru = a;
    if (ru >= 0) {
      res->runner_up = oc_allreduce_alg_name((oc_allreduce_alg)ru);
      res->runner_up_time = ch.times[ru];
    }
  }
  return OC_OK;
}

/* alltoall: Karp et al. 4.1 */
static int pb_alltoall(const oc_problem *pr, oc_sched *out, oc_result *res) {
  int e;
  res->algorithm = "karp-ring";
  if (out != NULL && pr->params.P > OC_GLOBAL_PROCS_MAX) return OC_ERANGE;
  e = oc_alltoall_schedule(&pr->params, pr->items, (pr->flags & OC_PF_PERSONALIZED) != 0, out,
                           &res->time, &res->lower_bound);
  if (e == OC_OK && res->time == OC_SAT) e = OC_ERANGE; /* the time overflows */
  return e;
}

static const pb_row ROWS[OC_PROB_COUNT] = {
    [OC_PROB_BCAST] = {"bcast", "Karp et al. Thm 2.1: B(P) = min{t : P(t) >= P}", pb_bcast},
    [OC_PROB_KBCAST] = {"kbcast",
                        "Bar-Noy & Kipnis Lemma 8: (m-1) + f(n); Karp et al. Thm 3.1's "
                        "reception count",
                        pb_kbcast},
    [OC_PROB_SUM] = {"sum",
                     "Karp et al. Lemma 5.1: the least t whose reversed broadcast tree (L+1) "
                     "holds n operands",
                     pb_reduce},
    [OC_PROB_REDUCE] = {"reduce", "Karp et al. 4.2: B(P) for L + 1 and max(g, o + 1)",
                        pb_reduce},
    [OC_PROB_ALLREDUCE] = {"allreduce",
                           "the reduction time (every processor ends with a reduction); L + 2o + max(g, o) "
                           "for P >= 3 (the first message carries one value); the m-packet "
                           "bounds at m = 1 (B(P), one-way gossip)",
                           pb_allreduce},
    [OC_PROB_ALLTOALL] = {"alltoall",
                          "L + 2o + G(k(P-1) - 1) (+1 on a collision), and 2o k(P-1) of overheads plus the idle ends (oc_alltoall.c)",
                          pb_alltoall},
};

void oc_problem_init(oc_problem *pr, oc_problem_kind kind, const oc_params *params) {
  memset(pr, 0, sizeof *pr);
  pr->kind = kind;
  if (params != NULL) pr->params = *params;
  pr->items = 1;
  pr->alg = -1;
}

const char *oc_problem_name(oc_problem_kind kind) {
  return kind >= 0 && kind < OC_PROB_COUNT ? ROWS[kind].name : "?";
}

int oc_problem_parse(const char *name, oc_problem_kind *out) {
  if (name == NULL || out == NULL) return OC_EINVAL;
  for (int k = 0; k < OC_PROB_COUNT; k++)
    if (strcmp(name, ROWS[k].name) == 0) {
      *out = (oc_problem_kind)k;
      return OC_OK;
    }
  return OC_EPARSE;
}

void oc_result_free(oc_result *res) {
  if (res == NULL) return;
  free(res->counts);
  res->counts = NULL;
}

/* the problem's own checks: kind, model, ranges the rows rely on */
static int pb_check(const oc_problem *pr) {
  int e;
  if (pr == NULL || pr->kind < 0 || pr->kind >= OC_PROB_COUNT) return OC_EINVAL;
  if (pr->ports > 0) { /* k-port: kbcast only, P and the ports checked by the planner */
    if (pr->kind != OC_PROB_KBCAST) return OC_EUNSUP;
  } else if ((e = oc_params_check(&pr->params)) != OC_OK) {
    return e;
  }
  if (pr->ports < 0) return OC_EINVAL;
  if (pr->ports == 0 && (pr->root < 0 || pr->root >= pr->params.P)) return OC_ERANGE;
  if (pr->items < 1) return OC_EINVAL;
  return OC_OK;
}

/* the problem's verifier; reduce-type schedules carry their additions */
int oc_problem_verify(const oc_problem *pr, const oc_sched *s, oc_verdict *v) {
  int e;
  if (s == NULL || v == NULL) return OC_EINVAL;
  if ((e = pb_check(pr)) != OC_OK) return e;
  switch (pr->kind) {
  case OC_PROB_BCAST: return oc_verify_bcast(&pr->params, pr->root, pr->items, s, v);
  case OC_PROB_KBCAST:
    if (pr->ports > 0)
      return oc_verify_kport(pr->params.P, pr->ports, pr->items, pr->root, s, v);
    return oc_verify_bcast(&pr->params, pr->root, pr->items, s, v);
  case OC_PROB_SUM: return oc_verify_reduce(&pr->params, pr->root, pr->operands, s, v);
  case OC_PROB_REDUCE:
    if (pr->items != 1) return oc_verify_vreduce(&pr->params, pr->root, pr->items, s, v);
    return oc_verify_reduce(&pr->params, pr->root, pr->params.P, s, v);
  case OC_PROB_ALLREDUCE:
    if (pr->items != 1) return oc_verify_vreduce(&pr->params, -1, pr->items, s, v);
    /* oc_allreduce_best's three forms: the m-packet planner's vector form
     * (its columns), the two-phase form of reduce + broadcast (carries its
     * additions), the circulant's (neither) */
    if (s->copy != NULL || s->seq != NULL || s->not_before != NULL || s->hist != NULL)
      return oc_verify_vreduce(&pr->params, -1, 1, s, v);
    return (pr->flags & OC_PF_ORDERED) || s->nop > 0
               ? oc_verify_allreduce_ordered(&pr->params, s, v)
               : oc_verify_allreduce(&pr->params, s, v);
  default:
    return oc_verify_alltoall(&pr->params, pr->items, (pr->flags & OC_PF_PERSONALIZED) != 0, s,
                              v);
  }
}

static int pb_run(const oc_problem *pr, oc_sched *out, oc_result *res) {
  oc_problem q;
  int e;
  if (res == NULL) return OC_EINVAL;
  memset(res, 0, sizeof *res);
  res->check.ok = 1;
  res->alg = -1;
  if ((e = pb_check(pr)) != OC_OK) return e;
  if (out != NULL && out->n != 0) return OC_EINVAL;
  q = *pr;
  if (q.kind == OC_PROB_BCAST && q.alg < 0 && q.items == 1) q.alg = OC_BCAST_KARP;
  res->bound_source = ROWS[q.kind].bound_source;
  e = ROWS[q.kind].plan(&q, out, res);
  if (e == OC_OK && out != NULL) {
    /* LogP/postal broadcasts are timed by the verifier (their planners
     * give B(P) or a formula); every other plan must match it */
    int timed = q.kind == OC_PROB_BCAST || (q.kind == OC_PROB_KBCAST && q.ports == 0);
    if ((e = oc_problem_verify(&q, out, &res->check)) == OC_OK &&
        (!res->check.ok || (!timed && res->check.time != res->time)))
      e = OC_EINVALID; /* never hand out a schedule the verifier rejects */
    if (e == OC_OK && timed) res->time = res->check.time;
  }
  if (e == OC_OK) {
    res->optimal = res->time == res->lower_bound && !res->upper_only;
  } else {
    oc_result_free(res);
  }
  return e;
}

int oc_problem_plan(const oc_problem *pr, oc_sched *out, oc_result *res) {
  return pb_run(pr, out, res);
}

int oc_problem_bound(const oc_problem *pr, oc_result *res) { return pb_run(pr, NULL, res); }

/* ---- a rank's own part -------------------------------------------------------- */

void oc_rank_plan_init(oc_rank_plan *rp) { memset(rp, 0, sizeof *rp); }

void oc_rank_plan_free(oc_rank_plan *rp) {
  free(rp->step);
  oc_rank_plan_init(rp);
}

static int rp_push(oc_rank_plan *rp, int64_t t, int64_t peer, int64_t item, int kind) {
  oc_step *x;
  if (oc_grow((void **)&rp->step, rp->n, &rp->cap, sizeof *rp->step) != OC_OK) return OC_ENOMEM;
  x = &rp->step[rp->n++];
  x->t = t;
  x->peer = peer;
  x->item = item;
  x->kind = kind;
  return OC_OK;
}

static int step_cmp(const void *a, const void *b) {
  const oc_step *x = (const oc_step *)a, *y = (const oc_step *)b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
  return (x->peer > y->peer) - (x->peer < y->peer);
}

static int rank_bcast(const oc_problem *pr, int64_t rank, oc_rank_plan *out) {
  oc_bcast *b = NULL;
  oc_bcast_view v;
  int e;
  if ((e = oc_bcast_new(&b, &pr->params, pr->root, (oc_bcast_alg)pr->alg)) != OC_OK) return e;
  if ((e = oc_bcast_rank(b, rank, &v)) == OC_OK && v.parent >= 0)
    e = rp_push(out, v.recv_send, v.parent, 0, OC_STEP_RECV);
  for (int64_t k = 0; e == OC_OK && k < v.nchildren; k++) {
    int64_t child, when;
    if ((e = oc_bcast_child(b, &v, k, &child, &when)) == OC_OK)
      e = rp_push(out, when, child, 0, OC_STEP_SEND);
  }
  oc_bcast_free(b);
  return e;
}

static int rank_reduce(const oc_problem *pr, int64_t rank, oc_rank_plan *out) {
  oc_reduce *x = NULL;
  oc_reduce_view v;
  int e = oc_reduce_new(&x, &pr->params, pr->root, !(pr->flags & OC_PF_COMMUTATIVE));
  if (e != OC_OK) return e;
  if ((e = oc_reduce_rank(x, rank, &v)) == OC_OK && v.parent >= 0)
    e = rp_push(out, v.send, v.parent, 0, OC_STEP_SEND);
  for (int64_t k = 0; e == OC_OK && k < v.nchildren; k++) {
    int64_t child, when;
    if ((e = oc_reduce_child(x, &v, k, &child, &when)) == OC_OK)
      e = rp_push(out, when, child, 0, OC_STEP_RECV);
  }
  oc_reduce_free(x);
  return e;
}

static int rank_kb_step(void *ctx, int64_t t, int64_t peer, int64_t item, int send) {
  return rp_push((oc_rank_plan *)ctx, t, peer, item, send ? OC_STEP_SEND : OC_STEP_RECV);
}

int oc_problem_rank(const oc_problem *pr, int64_t rank, oc_rank_plan *out) {
  oc_problem q;
  int e;
  if (out == NULL) return OC_EINVAL;
  out->n = 0;
  if ((e = pb_check(pr)) != OC_OK) return e;
  if (pr->ports > 0) return OC_EUNSUP;
  if (rank < 0 || rank >= pr->params.P) return OC_ERANGE;
  out->rank = rank;
  q = *pr;
  switch (q.kind) {
  case OC_PROB_BCAST:
    if (q.alg < 0) q.alg = OC_BCAST_KARP;
    if (q.items != 1) return OC_EINVAL;
    e = rank_bcast(&q, rank, out);
    break;
  case OC_PROB_REDUCE:
    if (q.items != 1) return OC_EUNSUP; /* m packets: no per-rank view yet */
    e = rank_reduce(&q, rank, out);
    break;
  case OC_PROB_KBCAST: /* lambda = 1: the circulant, optimal, has a per-rank form */
    if (q.alg >= 0 && q.alg != OC_KB_BEST && q.alg != OC_KB_CIRCULANT) return OC_EUNSUP;
    e = oc_kbcast_circulant_rank(&q.params, q.root, q.items, rank, rank_kb_step, out);
    break;
  default: return OC_EUNSUP;
  }
  if (e != OC_OK) {
    out->n = 0;
    return e;
  }
  if (out->n > 1) qsort(out->step, out->n, sizeof *out->step, step_cmp);
  return OC_OK;
}
