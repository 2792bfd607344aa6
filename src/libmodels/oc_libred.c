/* oc_libred.c - the allreduce algorithms of the MPI libraries (Open MPI's
 * coll/base, MPICH's allreduce directory) as LogP schedules of an m-packet
 * vector, for `optcast compare allreduce`; and the two libraries' default
 * selection rules.  Every schedule is checked by oc_verify_vreduce.
 *
 * An algorithm is a reduction program per processor (src/plan/oc_rprog.c:
 * its sends with add or copy at the receiver, its receives in posted
 * order, as the library posts them), timed by that file's LogP simulator.
 *
 * The algorithms, their sources and cost formulas: oc_rpshape.c.
 * Work: O(n log n) for n messages, memory O(P + n).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"


static const char *const LR_NAMES[OC_LR_COUNT] = {"recursive-doubling", "ring",
                                                  "rabenseifner", "reduce-bcast", "linear"};

const char *oc_libred_alg_name(oc_libred_alg a) {
  return (a >= 0 && a < OC_LR_COUNT) ? LR_NAMES[a] : "?";
}

/* messages of the schedule, saturating: recursive doubling sends the whole
 * vector log2 pof2 times (plus the fold); the others about 2 (P-1) m.
 * linear counts P times more: its P - 1 senders all wait for the one
 * receiver, and each of its slots is fought over (simulation work).  The
 * ring's program takes 2 (P-1) steps of P processors whatever m is (empty
 * chunks included), so it counts at least P^2 / 4 (building work). */
int64_t oc_libred_messages(int64_t P, int64_t m, oc_libred_alg a) {
  int64_t lg = 0, pm;
  if (P < 1 || m < 1) return 0;
  while (((int64_t)2 << lg) <= P) lg++;
  pm = oc_mul_sat(P, m);
  if (a == OC_LR_RD) return oc_mul_sat(pm, lg + 2);
  if (a == OC_LR_LINEAR) return oc_mul_sat(oc_mul_sat(pm, 2), P / 64 + 1);
  if (a == OC_LR_RING) return oc_max64(oc_mul_sat(pm, 2), oc_mul_sat(P, P) / 4);
  return oc_mul_sat(pm, 2);
}

int oc_libred_allreduce(const oc_params *p, int64_t m, oc_libred_alg a, oc_sched *out,
                        int64_t *time) {
  oc_rprog b;
  oc_verdict v;
  int e;
  if (p == NULL || out == NULL || time == NULL || m < 1 || a < 0 || a >= OC_LR_COUNT)
    return OC_EINVAL;
  if ((e = oc_params_check(p)) != OC_OK) return e;
  if (oc_libred_messages(p->P, m, a) > OC_LIBRED_MSGS_MAX) return OC_ERANGE;
  if ((e = oc_rprog_init(&b, p->P, m)) != OC_OK) return e;
  oc_rp_shape(&b, (oc_rp_kind)a); /* the enums agree (libmodels.h, oc_plan.h) */
  if ((e = oc_rprog_finish(&b)) != OC_OK) goto done;
  if ((e = oc_rprog_run(p, &b, -1, out, NULL)) != OC_OK) goto done;
  if ((e = oc_verify_vreduce(p, -1, m, out, &v)) != OC_OK) goto done;
  if (!v.ok) { /* never hand out a schedule the verifier rejects */
    e = OC_EINVALID;
    goto done;
  }
  *time = v.time;
done:
  oc_rprog_free(&b);
  return e;
}

/* ---- the libraries' default choices ------------------------------------------------
 * Open MPI: ompi_coll_tuned_allreduce_intra_dec_fixed, commutative branch
 * (the table generated from the ompi-collectives-tuning results, Open MPI
 * 4.1 on): algorithm by communicator size (below the first number) and
 * total bytes (below the second).  Its numbers: 1 basic_linear,
 * 2 nonoverlapping, 3 recursive_doubling, 4 ring, 5 segmented_ring,
 * 6 rabenseifner; segmented_ring is modelled as the ring (its segments
 * only pipeline within a step).  Transcribed as thresholds (our table). */
typedef struct lr_rule {
  int64_t procs, bytes;
  oc_libred_alg alg;
} lr_rule;

#define ANY INT64_MAX
static const lr_rule OMPI_AR[] = {
    {4, 8, OC_LR_RING}, {4, 4096, OC_LR_RD}, {4, 8192, OC_LR_RING}, {4, 16384, OC_LR_RD},
    {4, 65536, OC_LR_RING}, {4, 262144, OC_LR_RING /* 5 */}, {4, ANY, OC_LR_RABEN},
    {8, 16, OC_LR_RING}, {8, 8192, OC_LR_RD}, {8, ANY, OC_LR_RABEN},
    {16, 8192, OC_LR_RD}, {16, ANY, OC_LR_RABEN},
    {32, 64, OC_LR_RING /* 5 */}, {32, 4096, OC_LR_RD}, {32, ANY, OC_LR_RABEN},
    {64, 128, OC_LR_RING /* 5 */}, {64, ANY, OC_LR_RABEN},
    {128, 262144, OC_LR_RD}, {128, ANY, OC_LR_RABEN},
    {256, 131072, OC_LR_REDBCAST}, {256, 262144, OC_LR_RD}, {256, ANY, OC_LR_RABEN},
    {512, 4096, OC_LR_REDBCAST}, {512, ANY, OC_LR_RABEN},
    {2048, 2048, OC_LR_REDBCAST}, {2048, 16384, OC_LR_RD}, {2048, ANY, OC_LR_RABEN},
    {4096, 2048, OC_LR_REDBCAST}, {4096, 4096, OC_LR_RING /* 5 */}, {4096, 16384, OC_LR_RD},
    {4096, ANY, OC_LR_RABEN},
    {ANY, 2048, OC_LR_REDBCAST}, {ANY, 16384, OC_LR_RING /* 5 */}, {ANY, 32768, OC_LR_RD},
    {ANY, ANY, OC_LR_RABEN},
};
#undef ANY

/* MPICH: MPIR_Allreduce_intra_auto (and the devices' copies of it): recursive
 * doubling when count * type_size <= MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE
 * (default 2048), the operator is not built in, or count < pof2; else
 * reduce_scatter_allgather (Rabenseifner). */
#define MPICH_AR_SHORT 2048

int oc_libred_select(oc_libcoll_rule rule, int64_t P, int64_t bytes, int64_t elem,
                     oc_libred_alg *out) {
  if (out == NULL || P < 1 || bytes < 0 || elem < 1) return OC_EINVAL;
  if (rule == OC_LC_RULE_OMPI) {
    const size_t n = sizeof OMPI_AR / sizeof OMPI_AR[0];
    for (size_t i = 0; i < n; i++) {
      if (P >= OMPI_AR[i].procs) continue;
      /* i opens the group of the smallest size bound above P */
      for (size_t j = i; j < n && OMPI_AR[j].procs == OMPI_AR[i].procs; j++)
        if (bytes < OMPI_AR[j].bytes) {
          *out = OMPI_AR[j].alg;
          return OC_OK;
        }
      break;
    }
    return OC_EINVAL; /* not reached: the last rows take everything */
  }
  if (rule == OC_LC_RULE_MPICH) {
    int64_t pof2 = 1;
    while (pof2 <= P / 2) pof2 *= 2;
    *out = (bytes <= MPICH_AR_SHORT || bytes / elem < pof2) ? OC_LR_RD : OC_LR_RABEN;
    return OC_OK;
  }
  return OC_EINVAL;
}

/* Open MPI 4.1's coll_base_allreduce.c hands small vectors on: the ring
 * with count < P runs recursive doubling, redscat_allgather (Rabenseifner)
 * with count < pof2 runs basic_linear (later versions dropped that second
 * check).  MPICH's selection never picks Rabenseifner for count < pof2. */
int oc_libred_runs(oc_libcoll_rule rule, oc_libred_alg alg, int64_t P, int64_t count,
                   oc_libred_alg *out) {
  int64_t pof2 = 1;
  if (out == NULL || P < 1 || count < 0 || alg < 0 || alg >= OC_LR_COUNT) return OC_EINVAL;
  if (rule != OC_LC_RULE_OMPI && rule != OC_LC_RULE_MPICH) return OC_EINVAL;
  while (pof2 <= P / 2) pof2 *= 2;
  *out = alg;
  if (rule == OC_LC_RULE_OMPI && alg == OC_LR_RING && count < P) *out = OC_LR_RD;
  if (rule == OC_LC_RULE_OMPI && alg == OC_LR_RABEN && count < pof2) *out = OC_LR_LINEAR;
  return OC_OK;
}
