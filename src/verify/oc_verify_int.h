/* oc_verify_int.h - the verifiers' shared core: one verdict (the earliest
 * violation wins) and the LogP message rules every LogP verifier applies.
 * Not installed. */
#ifndef OC_VERIFY_INT_H
#define OC_VERIFY_INT_H

#include <stdio.h>

#include "core/oc_core.h"

/* Verdicts (oc_verify.c): start valid; record a violation, keeping the
 * earliest (time, then processor, then rule order). */
void oc_verdict_init(oc_verdict *v);
void oc_verdict_violate(oc_verdict *v, oc_rule rule, int64_t proc, int64_t at,
                        int64_t item, size_t msg, const char *detail);
/* The LogP rules on messages alone (range with items, send and receive
 * gaps, capacity, overlapping overheads), recorded in v; out-of-range
 * messages are marked in bad[] (s->n entries, zeroed by the caller). */
int oc_verify_message_rules(const oc_params *p, const oc_sched *s, int64_t items,
                            unsigned char *bad, oc_verdict *v);

/* The verifiers' shared context and helpers (oc_verify.c). */
typedef struct vctx {
  const oc_params *p;
  oc_verdict *v;
} vctx;
static inline void violate(vctx *c, oc_rule rule, int64_t proc, int64_t at, int64_t item,
                           size_t msg, const char *detail) {
  oc_verdict_violate(c->v, rule, proc, at, item, msg, detail);
}

/* A time in the user's units, for messages. */
typedef struct tbuf { char s[48]; } tbuf;
static inline tbuf ts(const vctx *c, int64_t x) {
  tbuf b = {{0}};
  oc_format_time(b.s, sizeof b.s, x, c->p->unit);
  return b;
}
/* a busy span [s, e) */
typedef struct span { int64_t s, e; } span;
void oc_vsort_i64(int64_t *a, size_t n);
/* The rules on messages alone (range, gaps, capacity, overlap with the
 * additions' busy spans cspan[coff[q] .. coff[q+1]) when coff is given):
 * marks out-of-range messages in bad[]; recv_at (or NULL) the receive
 * times of the buffered model. */
int oc_vcheck_messages(vctx *c, const oc_sched *s, int64_t items, unsigned char *bad,
                       const uint32_t *coff, const span *cspan, const int64_t *recv_at);
/* Busy spans [t, t + cost) of the additions, by processor, sorted by start
 * (CSR: coff[q] .. coff[q+1]); additions with opbad[i] set are left out. */
int oc_vop_spans(const oc_params *p, const oc_sched *s, const unsigned char *opbad,
                 uint32_t **coff_out, span **cs_out);

#endif
