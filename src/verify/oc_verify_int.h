/* oc_verify_int.h - the verifiers' shared core: one verdict (the earliest
 * violation wins) and the LogP message rules every LogP verifier applies.
 * Not installed. */
#ifndef OC_VERIFY_INT_H
#define OC_VERIFY_INT_H

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

#endif
