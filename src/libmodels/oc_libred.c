/* oc_libred.c - the reduce and allreduce algorithms of the MPI libraries
 * (Open MPI's coll/base, MPICH's reduce and allreduce directories) as LogP
 * schedules of an m-packet vector, for `optcast compare reduce|allreduce`;
 * and the two libraries' default selection rules.  Every schedule is checked by oc_verify_vreduce.
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
 * chunks included), so it counts at least P^2 / 4 (building work).  Those
 * two weigh LR_HEAVY more: the limit (OC_LIBRED_MSGS_MAX = 2^27) is meant
 * for messages simulated once, and their extra work is slower per unit
 * (linear's P = 4096, m = 80: over a minute at 4 M units). */
#define LR_HEAVY 16
int64_t oc_libred_messages(int64_t P, int64_t m, oc_libred_alg a) {
  int64_t lg = 0, pm;
  if (P < 1 || m < 1) return 0;
  while (((int64_t)2 << lg) <= P) lg++;
  pm = oc_mul_sat(P, m);
  if (a == OC_LR_RD) return oc_mul_sat(pm, lg + 2);
  if (a == OC_LR_LINEAR) return oc_mul_sat(oc_mul_sat(pm, 2 * LR_HEAVY), P / 64 + 1);
  if (a == OC_LR_RING)
    return oc_max64(oc_mul_sat(pm, 2), oc_mul_sat(oc_mul_sat(P, P) / 4, LR_HEAVY));
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
  int alg; /* oc_libred_alg (allreduce) or oc_mred_lib (reduce) */
} lr_rule;

/* a table's pick: the group of the smallest size bound above P, in it the
 * first byte bound above bytes (the last row of a group takes the rest) */
static int table_pick(const lr_rule *t, size_t n, int64_t P, int64_t bytes) {
  for (size_t i = 0; i < n; i++) {
    if (P >= t[i].procs) continue;
    for (size_t j = i; j < n && t[j].procs == t[i].procs; j++)
      if (bytes < t[j].bytes || t[j].bytes == INT64_MAX) return t[j].alg;
    break;
  }
  return -1; /* not reached: the last rows take everything */
}

/* the largest power of two <= P (P >= 1) */
static int64_t pof2_of(int64_t P) {
  int64_t pof2 = 1;
  while (pof2 <= P / 2) pof2 *= 2;
  return pof2;
}

/* MPICH's "long vector" test: more than short bytes and at least pof2
 * elements (a built-in operator) */
static int mpich_long(int64_t P, int64_t bytes, int64_t elem, int64_t shortmax) {
  return bytes > shortmax && bytes / elem >= pof2_of(P);
}

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
    int a = table_pick(OMPI_AR, sizeof OMPI_AR / sizeof OMPI_AR[0], P, bytes);
    if (a < 0) return OC_EINVAL;
    *out = (oc_libred_alg)a;
    return OC_OK;
  }
  if (rule == OC_LC_RULE_MPICH) {
    *out = mpich_long(P, bytes, elem, MPICH_AR_SHORT) ? OC_LR_RABEN : OC_LR_RD;
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
  if (out == NULL || P < 1 || count < 0 || alg < 0 || alg >= OC_LR_COUNT) return OC_EINVAL;
  if (rule != OC_LC_RULE_OMPI && rule != OC_LC_RULE_MPICH) return OC_EINVAL;
  *out = alg;
  if (rule == OC_LC_RULE_OMPI && alg == OC_LR_RING && count < P) *out = OC_LR_RD;
  if (rule == OC_LC_RULE_OMPI && alg == OC_LR_RABEN && count < pof2_of(P)) *out = OC_LR_LINEAR;
  return OC_OK;
}

/* ---- reduce ----------------------------------------------------------------------- */
int oc_libred_reduce(const oc_params *p, int64_t root, int64_t m, oc_mred_lib lib,
                     int64_t seg, oc_sched *out, int64_t *time) {
  oc_mreduce_info c;
  oc_verdict v;
  int64_t t = 0, lim;
  int e;
  if (p == NULL || out == NULL || time == NULL || m < 1 || lib < 0 || lib >= OC_ML_COUNT ||
      seg < 0)
    return OC_EINVAL;
  if ((e = oc_params_check(p)) != OC_OK) return e;
  if (root < 0 || root >= p->P) return OC_EINVAL;
  /* linear: its P - 1 senders queue at the root (simulation work) */
  lim = oc_mul_sat(oc_mul_sat(p->P, m), lib == OC_ML_LINEAR ? (p->P / 64 + 1) * LR_HEAVY : 2);
  if (lim > OC_LIBRED_MSGS_MAX) return OC_ERANGE;
  memset(&c, 0, sizeof c);
  c.family = OC_MR_LIBRED;
  c.lib = lib;
  c.seg = seg;
  if ((e = oc_mreduce_run(p, root, m, &c, out, &t)) != OC_OK) return e;
  if ((e = oc_verify_vreduce(p, root, m, out, &v)) != OC_OK) return e;
  if (!v.ok || v.time != t) return OC_EINVALID; /* never hand out a rejected one */
  *time = t;
  return OC_OK;
}

/* Open MPI: ompi_coll_tuned_reduce_intra_dec_fixed, commutative branch (the
 * table generated from the ompi-collectives-tuning results, as in the 4.1
 * and 5.0 releases), with segsize 0 (whole messages) and fan-in/out 2.
 * Its numbers: 1 linear, 2 chain, 3 pipeline, 4 binary, 5 binomial,
 * 6 in-order binary, 7 rabenseifner.  Unsegmented, the pipeline is the
 * chain; "chain" with fan-out 2 (two chains from the root) is modelled as
 * the one chain (our table). */
static const lr_rule OMPI_RED[] = {
    {4, 8, OC_ML_RABEN}, {4, 16, OC_ML_BINARY}, {4, 32, OC_ML_CHAIN}, {4, 262144, OC_ML_LINEAR},
    {4, 524288, OC_ML_CHAIN}, {4, 1048576, OC_ML_CHAIN}, {4, INT64_MAX, OC_ML_CHAIN},
    {8, 4096, OC_ML_BINARY}, {8, 65536, OC_ML_CHAIN}, {8, 262144, OC_ML_BMTREE},
    {8, 524288, OC_ML_LINEAR}, {8, 1048576, OC_ML_BMTREE}, {8, INT64_MAX, OC_ML_LINEAR},
    {16, 8192, OC_ML_BINARY}, {16, INT64_MAX, OC_ML_BMTREE},
    {32, 4096, OC_ML_BINARY}, {32, INT64_MAX, OC_ML_BMTREE},
    {256, INT64_MAX, OC_ML_BMTREE},
    {512, 8192, OC_ML_BMTREE}, {512, 16384, OC_ML_INORDER}, {512, INT64_MAX, OC_ML_BMTREE},
    {2048, INT64_MAX, OC_ML_BMTREE},
    {4096, 512, OC_ML_BMTREE}, {4096, 1024, OC_ML_INORDER}, {4096, 8192, OC_ML_BMTREE},
    {4096, 16384, OC_ML_INORDER}, {4096, INT64_MAX, OC_ML_BMTREE},
    {INT64_MAX, 16, OC_ML_BMTREE}, {INT64_MAX, 32, OC_ML_INORDER},
    {INT64_MAX, 1024, OC_ML_BMTREE}, {INT64_MAX, 2048, OC_ML_INORDER},
    {INT64_MAX, 8192, OC_ML_BMTREE}, {INT64_MAX, 16384, OC_ML_INORDER},
    {INT64_MAX, INT64_MAX, OC_ML_BMTREE},
};

/* MPICH: MPIR_Reduce_intra_auto: binomial when count * type_size <=
 * MPIR_CVAR_REDUCE_SHORT_MSG_SIZE (default 2048), the operator is not
 * built in, or count < pof2; else reduce_scatter_gather (Rabenseifner). */
#define MPICH_RED_SHORT 2048

int oc_libred_reduce_select(oc_libcoll_rule rule, int64_t P, int64_t bytes, int64_t elem,
                            oc_mred_lib *out) {
  if (out == NULL || P < 1 || bytes < 0 || elem < 1) return OC_EINVAL;
  if (rule == OC_LC_RULE_OMPI) {
    int a = table_pick(OMPI_RED, sizeof OMPI_RED / sizeof OMPI_RED[0], P, bytes);
    if (a < 0) return OC_EINVAL;
    *out = (oc_mred_lib)a;
    return OC_OK;
  }
  if (rule == OC_LC_RULE_MPICH) {
    *out = mpich_long(P, bytes, elem, MPICH_RED_SHORT) ? OC_ML_RABEN : OC_ML_BINOMIAL;
    return OC_OK;
  }
  return OC_EINVAL;
}

/* Open MPI's reduce_intra_redscat_gather hands a vector of fewer elements
 * than pof2 (or a non-commutative operator) to basic_linear
 * (coll_base_reduce.c, 4.1 on); MPICH's selection never picks its
 * reduce_scatter_gather for count < pof2. */
int oc_libred_reduce_runs(oc_libcoll_rule rule, oc_mred_lib lib, int64_t P, int64_t count,
                          oc_mred_lib *out) {
  if (out == NULL || P < 1 || count < 0 || lib < 0 || lib >= OC_ML_COUNT) return OC_EINVAL;
  if (rule != OC_LC_RULE_OMPI && rule != OC_LC_RULE_MPICH) return OC_EINVAL;
  *out = lib;
  if (rule == OC_LC_RULE_OMPI && lib == OC_ML_RABEN && count < pof2_of(P)) *out = OC_ML_LINEAR;
  return OC_OK;
}
