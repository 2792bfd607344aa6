/* oc_libcoll.c - the broadcast algorithms of the MPI libraries (Open MPI's
 * coll/base, MPICH's bcast directory) as LogP schedules, for comparison with
 * optcast's own broadcasts; and the two libraries' default selection rules.
 *
 * Every algorithm is a send program per processor (src/plan/oc_lpshape.c)
 * timed by the planner's LogP program simulator (src/plan/oc_lprog.c): each
 * processor issues its sends in the library's order, each as early as the
 * rules allow.  The simulator has two policies when o > 0 (pure greedy, and
 * "a processor's ready send before incoming receptions", which keeps a
 * pipeline's relays from being flooded by their parent); a library row is
 * timed under both and gets the faster, the generous reading.  This file
 * maps an algorithm and its segment size to a program and holds the
 * selection rules.
 *
 * Work: O(n log n) for n messages plus O(packets) for the data checks (a
 * conflict search per packet only when o > 0), memory O(P m + n).
 */
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"


/* ---- names ------------------------------------------------------------------ */
static const char *const LC_NAMES[OC_LC_COUNT] = {
    "linear", "chain", "pipeline", "binary", "binomial", "knomial",
    "split-binary", "scatter-rd-allgather", "scatter-ring-allgather", "bmtree"};

const char *oc_libcoll_alg_name(oc_libcoll_alg a) {
  return (a >= 0 && a < OC_LC_COUNT) ? LC_NAMES[a] : "?";
}

int oc_libcoll_alg_parse(const char *name, oc_libcoll_alg *out) {
  int a = oc_name_index(LC_NAMES, OC_LC_COUNT, name);
  if (a < 0 || out == NULL) return OC_EINVAL;
  *out = (oc_libcoll_alg)a;
  return OC_OK;
}

/* Cost formulas, with h = L + 2o, G = max(g, o), m packets, P >= 2 (the
 * tests check the exact ones; "about" ones are the textbook estimates, the
 * simulator is the judge):
 *   linear        h + ((P-1) m - 1) G                                 exact
 *   chain         (P-1)(h + (m-1) G)                                   exact
 *   pipeline      k = ceil(m/s) segments of s: about
 *                 (P-1)(h + (s-1) G) + (k-1) s max(G, 2o)
 *   binary        depth d = floor(log2 P): at most d (h + (2m-1) G)
 *   binomial      P = 2^k: H + (k-1) max(H, m G), H = h + (m-1) G      exact
 *   k-nomial      m = 1, P = k^j, h >= G: j (h + (k-2) G)              exact
 *   split-binary  about the binary tree for ceil(m/2), plus one exchange
 *                 h + (ceil(m/2) - 1) G
 *   scatter + rd  P = 2^k: about 2 k h + 2 (P-1)/P m G (Thakur, Rabenseifner
 *                 & Gropp 2005)
 *   scatter + ring about k h + (P-1)/P m G + (P-1)(h + (ceil(m/P)-1) G)
 */

/* ---- the algorithms ------------------------------------------------------------- */
static int check_args(const oc_params *p, int64_t root, int64_t m) {
  if (p == NULL) return OC_EINVAL;
  if (oc_params_check(p) != OC_OK) return OC_EINVAL;
  if (root < 0 || root >= p->P || m < 1) return OC_EINVAL;
  if (p->P > OC_LIBCOLL_MAX || m > OC_LIBCOLL_MAX / p->P) return OC_ERANGE;
  /* a message's packets span at most 2^50: times stay far from wrapping */
  if (oc_mul_sat(m, oc_max64(p->g, p->o)) > ((int64_t)1 << 50)) return OC_ERANGE;
  return OC_OK;
}

int oc_libcoll_bcast(const oc_params *p, int64_t root, int64_t m,
                     const oc_libcoll_spec *spec, oc_sched *out, int64_t *time) {
  oc_lprog b;
  int64_t k, t = 0;
  int e;
  if (spec == NULL || time == NULL) return OC_EINVAL;
  if ((e = check_args(p, root, m)) != OC_OK) return e;
  if (spec->alg < 0 || spec->alg >= OC_LC_COUNT || spec->seg < 0) return OC_EINVAL;
  k = spec->alg == OC_LC_BINOMIAL ? 2 : spec->radix;
  if (spec->alg == OC_LC_KNOMIAL && (k < 2 || k > OC_LIBCOLL_RADIX_MAX)) return OC_EINVAL;
  if ((e = oc_lprog_init(&b, p->P, m, root)) != OC_OK) return e;
  switch (spec->alg) {
  case OC_LC_LINEAR: oc_lp_linear(&b); break;
  case OC_LC_CHAIN: oc_lp_tree(&b, OC_LP_CHAIN, 1, 0); break;
  case OC_LC_PIPELINE: oc_lp_tree(&b, OC_LP_CHAIN, 1, spec->seg); break;
  case OC_LC_BINARY: oc_lp_tree(&b, OC_LP_BINARY, 2, spec->seg); break;
  case OC_LC_BINOMIAL:
  case OC_LC_KNOMIAL: oc_lp_tree(&b, OC_LP_KNOMIAL, k, spec->seg); break;
  case OC_LC_BMTREE: oc_lp_tree(&b, OC_LP_BMTREE, 2, spec->seg); break;
  case OC_LC_SPLIT_BINARY: oc_lp_split(&b, spec->seg); break;
  case OC_LC_SCATTER_RD: oc_lp_scatter_allgather(&b, 0); break;
  case OC_LC_SCATTER_RING: oc_lp_scatter_allgather(&b, 1); break;
  default: e = OC_EINVAL; break;
  }
  if (e == OC_OK) e = oc_lprog_finish(&b);
  if (e == OC_OK && p->o > 0) { /* the simulator's two policies: the faster */
    int64_t t0, t1;
    if ((e = oc_lprog_run(p, &b, NULL, &t0)) == OC_OK) {
      b.send_first = 1;
      e = oc_lprog_run(p, &b, NULL, &t1);
      b.send_first = e == OC_OK && t1 < t0;
      t = oc_min64(t0, t1);
    }
  }
  if (e == OC_OK && (out != NULL || p->o == 0)) e = oc_lprog_run(p, &b, out, &t);
  if (e == OC_OK) *time = t;
  oc_lprog_free(&b);
  return e;
}

/* optcast's own rows, kept for the comparison's history: Karp's tree
 * segment by segment (oc_mbcast.c), one packet a segment and the whole
 * message as one. */
int oc_libcoll_tree_pipelined(const oc_params *p, int64_t root, int64_t m,
                              oc_sched *out, int64_t *time) {
  oc_mbcast_info c;
  int e = check_args(p, root, m);
  memset(&c, 0, sizeof c);
  c.alg = OC_MB_KARP;
  c.seg = 1;
  return e != OC_OK ? e : oc_mbcast_run(p, root, m, &c, out, time);
}

int oc_libcoll_tree_long(const oc_params *p, int64_t root, int64_t m,
                         oc_sched *out, int64_t *time) {
  oc_mbcast_info c;
  int e = check_args(p, root, m);
  memset(&c, 0, sizeof c);
  c.alg = OC_MB_KARP;
  c.seg = m;
  return e != OC_OK ? e : oc_mbcast_run(p, root, m, &c, out, time);
}

/* Lower bound for m items (docs/ALGORITHMS.md): B(P) (item 0 alone), and
 * L + 2o + (m-1) max(g, o): some processor other than the root receives m
 * packets, their receive starts at least max(g, o) apart, the first no
 * earlier than o + L and the last usable o after its start. */
int oc_libcoll_lower_bound(const oc_params *p, int64_t m, int64_t *lb) {
  int64_t B, stream;
  int e;
  if (p == NULL || lb == NULL || m < 1) return OC_EINVAL;
  if ((e = oc_bcast_time(p, &B)) != OC_OK) return e;
  if (p->P < 2) {
    *lb = 0;
    return OC_OK;
  }
  stream = oc_add_sat(p->L + 2 * p->o, oc_mul_sat(m - 1, oc_max64(p->g, p->o)));
  *lb = oc_max64(B, stream);
  return OC_OK;
}

/* ---- the libraries' default selection, as data ----------------------------------
 * A row applies when P < p_lt, bytes < b_lt and (pof2 = 0 or P is a power
 * of two); the first row that applies wins. */
typedef struct lc_rule {
  int64_t p_lt, b_lt;
  int pof2;
  oc_libcoll_alg alg;
  int64_t radix;
} lc_rule;

#define ANY INT64_MAX
/* Open MPI 4.1, ompi/mca/coll/tuned/coll_tuned_decision_fixed.c,
 * ompi_coll_tuned_bcast_intra_dec_fixed: algorithm by communicator size
 * and total message size in bytes; it passes segment size 0 and fan-in/out
 * 0 (no segmentation), and the k-nomial tree takes the MCA default radix
 * coll_tuned_bcast_knomial_radix = 4.  Open MPI's numbers: 1 basic_linear,
 * 2 chain, 3 pipeline, 4 split_binary_tree, 5 binary_tree, 6 binomial,
 * 7 knomial, 8 scatter_allgather (recursive doubling), 9
 * scatter_allgather_ring.  Transcribed as thresholds (our own table); its
 * binomial is Open MPI's own tree (BMTREE), not MPICH's. */
#define OM(p, b, a) {p, b, 0, a, 4}
static const lc_rule OMPI_RULES[] = {
    OM(4, 32, OC_LC_PIPELINE), OM(4, 256, OC_LC_BINARY), OM(4, 512, OC_LC_PIPELINE),
    OM(4, 1024, OC_LC_KNOMIAL), OM(4, 32768, OC_LC_LINEAR), OM(4, 131072, OC_LC_BINARY),
    OM(4, 262144, OC_LC_CHAIN), OM(4, 524288, OC_LC_LINEAR), OM(4, 1048576, OC_LC_BMTREE),
    OM(4, ANY, OC_LC_BINARY),
    OM(8, 64, OC_LC_BINARY), OM(8, 128, OC_LC_BMTREE), OM(8, 2048, OC_LC_BINARY),
    OM(8, 8192, OC_LC_BMTREE), OM(8, 1048576, OC_LC_LINEAR), OM(8, ANY, OC_LC_CHAIN),
    OM(16, 8, OC_LC_KNOMIAL), OM(16, 64, OC_LC_BINARY), OM(16, 4096, OC_LC_KNOMIAL),
    OM(16, 16384, OC_LC_BINARY), OM(16, 32768, OC_LC_BMTREE), OM(16, ANY, OC_LC_LINEAR),
    OM(32, 4096, OC_LC_KNOMIAL), OM(32, 1048576, OC_LC_BMTREE), OM(32, ANY, OC_LC_SCATTER_RD),
    OM(64, 2048, OC_LC_BMTREE), OM(64, ANY, OC_LC_KNOMIAL),
    OM(128, ANY, OC_LC_KNOMIAL),
    OM(256, 2, OC_LC_BMTREE), OM(256, 16384, OC_LC_BINARY), OM(256, 32768, OC_LC_LINEAR),
    OM(256, 65536, OC_LC_BINARY), OM(256, ANY, OC_LC_KNOMIAL),
    OM(1024, 16384, OC_LC_KNOMIAL), OM(1024, 32768, OC_LC_SPLIT_BINARY), OM(1024, ANY, OC_LC_KNOMIAL),
    OM(2048, 524288, OC_LC_KNOMIAL), OM(2048, ANY, OC_LC_SCATTER_RD),
    OM(4096, 262144, OC_LC_KNOMIAL), OM(4096, ANY, OC_LC_SCATTER_RD),
    OM(ANY, 8192, OC_LC_KNOMIAL), OM(ANY, 16384, OC_LC_BINARY), OM(ANY, 262144, OC_LC_KNOMIAL),
    OM(ANY, ANY, OC_LC_SCATTER_RD),
};
#undef OM

/* MPICH 4.0, src/mpi/coll/bcast/bcast.c, MPIR_Bcast_intra_auto with the
 * CVAR defaults MPIR_CVAR_BCAST_SHORT_MSG_SIZE = 12288,
 * MPIR_CVAR_BCAST_LONG_MSG_SIZE = 524288, MPIR_CVAR_BCAST_MIN_PROCS = 8:
 * binomial for short messages or fewer than 8 processes; scatter +
 * recursive-doubling allgather for medium messages on a power of two;
 * scatter + ring allgather otherwise. */
static const lc_rule MPICH_RULES[] = {
    {ANY, 12288, 0, OC_LC_BINOMIAL, 2},
    {8, ANY, 0, OC_LC_BINOMIAL, 2},
    {ANY, 524288, 1, OC_LC_SCATTER_RD, 2},
    {ANY, ANY, 0, OC_LC_SCATTER_RING, 2},
};
#undef ANY

const char *oc_libcoll_rule_name(oc_libcoll_rule r) {
  return r == OC_LC_RULE_OMPI ? "ompi-default" : r == OC_LC_RULE_MPICH ? "mpich-default" : "?";
}

int oc_libcoll_select(oc_libcoll_rule rule, int64_t P, int64_t bytes,
                      oc_libcoll_spec *out) {
  const lc_rule *t;
  size_t n;
  if (out == NULL || P < 1 || bytes < 0) return OC_EINVAL;
  if (rule == OC_LC_RULE_OMPI) {
    t = OMPI_RULES;
    n = sizeof OMPI_RULES / sizeof OMPI_RULES[0];
  } else if (rule == OC_LC_RULE_MPICH) {
    t = MPICH_RULES;
    n = sizeof MPICH_RULES / sizeof MPICH_RULES[0];
  } else {
    return OC_EINVAL;
  }
  for (size_t i = 0; i < n; i++) {
    int pof2 = (P & (P - 1)) == 0;
    if (P < t[i].p_lt && bytes < t[i].b_lt && (!t[i].pof2 || pof2)) {
      out->alg = t[i].alg;
      out->seg = 0;
      out->radix = t[i].alg == OC_LC_BINOMIAL ? 2 : t[i].radix;
      return OC_OK;
    }
  }
  return OC_EINVAL; /* unreachable: the last row takes everything */
}
