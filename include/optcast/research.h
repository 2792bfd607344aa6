/* optcast/research.h - research probes: exhaustive searches, reconstructions of
 * the papers' figures and helpers the tests and benchmarks use.  NOT API-stable:
 * names and meanings may change between versions.
 * Part of the public API; include "optcast.h" for all of it. */
#ifndef OPTCAST_RESEARCH_H
#define OPTCAST_RESEARCH_H

#include "optcast/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exhaustive (M. Hall's criterion): does ANY block-cyclic schedule with the
 * optimal trees exist for P-1 = f_t?  *result 1 yes, 0 no, -1 budget out. */
int oc_cbcast_exists(int64_t L, int64_t t, int64_t budget, int *result);

/* Section 3.3's t(L): the smallest t0 from which every t has a solution in
 * Karp's form, found by searching base cases up to f_t <= 6000 (tmax <= 64L
 * + 64); -1 when none.  form_ok (tmax + 1 entries, may be NULL): per t, 0
 * none found, 1 base case found by search, 2 by the induction. */
int oc_cbcast_tl(int64_t L, int64_t tmax, int64_t *tl, int64_t *base_lo,
                 unsigned char *form_ok);

/* Karp et al. Theorem 3.7's reception pattern inside one r-block (the
 * case L <= r < 2L, their Fig. 4 for L = 5, r = 7, k = 16), as we
 * reconstruct it: processor j = 1..r of the block takes item i (1-based)
 * as its active item when i = j (mod r), at step i - 1; the other r - 1
 * receive i at steps r - 1 + i .. 2r - 3 + i, one per step.  tab gets r
 * rows of *T = k + 2r - 2 steps (row j - 1, column step): +i an inactive
 * reception, -i an active one (bold in the paper), 0 none; it must hold
 * r * (k + 2r - 2) entries.  OC_EUNSUP unless 4 <= r, L <= r < 2L;
 * OC_ERANGE past r <= 4096, k <= 65536. */
int oc_kbcast_karp_block(int64_t L, int64_t r, int64_t k, int64_t *tab, int64_t *T);

/* Whether ROTATION has a construction for (n, k), and its per-message
 * depth in rounds. */
int oc_kport_rotation_covers(int64_t n, int64_t k, int64_t *depth);

/* COMET (the paper's section 1.4), simulated step by step along one line:
 * the steps until the CPE at distance d >= 1 knows the message (the
 * knowing CPEs double each step).  Equals ceil(log2(d + 1)). */
int64_t oc_rrp_comet_steps(int64_t d);

#ifdef __cplusplus
}
#endif
#endif /* OPTCAST_RESEARCH_H */
