/* optcast/sched.h - the schedule: messages, operations, reading CSV.
 * Part of the public API; include "optcast.h" for all of it. */
#ifndef OPTCAST_SCHED_H
#define OPTCAST_SCHED_H

#include "optcast/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- schedules -------------------------------------------------------------
 * One representation for every problem: messages (send start, source,
 * destination, item) and, for the combining problems, computation events
 * and the operands each processor starts with.  Times are model units.
 *
 * Combining problems work on operands numbered 0..n-1 and an associative
 * operator that need not commute: a value is an interval [lo, hi) of operand
 * indices, x_lo + ... + x_{hi-1} in that order.  A processor holds one
 * accumulator; every addition extends it by an adjacent interval (its own
 * next operands, or a received value on either side), so the root's final
 * [0, n) is the serial left-to-right fold. */
typedef struct oc_msg {
  int64_t t;     /* send start                                            */
  int64_t src;
  int64_t dst;
  int64_t item;  /* broadcast: the item; combining problems: 0 (the
                    sender's accumulator)                                 */
} oc_msg;

typedef enum oc_op_kind {
  OC_OP_LOCAL = 0,   /* acc [lo,mid) += own operands [mid,hi), one unit per
                        addition; with an empty acc, lo == mid and the first
                        operand costs nothing                             */
  OC_OP_APPEND = 1,  /* acc [lo,mid) + received [mid,hi): one unit        */
  OC_OP_PREPEND = 2  /* received [lo,mid) + acc [mid,hi): one unit        */
} oc_op_kind;

typedef struct oc_op {
  int64_t t, proc;   /* start time, processor                             */
  int64_t lo, mid, hi;
  int kind;          /* oc_op_kind                                        */
} oc_op;

typedef struct oc_seg { /* operands [lo, hi) start at proc                */
  int64_t proc, lo, hi;
} oc_seg;

typedef struct oc_sched {
  oc_msg *msg;
  size_t n, cap;
  int64_t *len;      /* NULL, or packets per message: a long message of len
                        items item .. item+len-1 (Bar-Noy & Kipnis PACK) */
  oc_op *op;
  size_t nop, opcap;
  oc_seg *seg;
  size_t nseg, segcap;
} oc_sched;

void oc_sched_init(oc_sched *s);
void oc_sched_free(oc_sched *s);
int oc_sched_push(oc_sched *s, int64_t t, int64_t src, int64_t dst, int64_t item);
/* A long message: len packets sent back to back (its sender busy len*g),
 * carrying items item .. item+len-1, all usable at the receiver only when
 * the last packet is in: s + L + 2o + (len-1)g. */
int oc_sched_push_long(oc_sched *s, int64_t t, int64_t src, int64_t dst,
                       int64_t item, int64_t len);
/* The same schedule with every long message cut into its packets (what
 * CSV shows); out must be empty. */
int oc_sched_packets(const oc_sched *s, int64_t g, oc_sched *out);
int oc_sched_push_op(oc_sched *s, int64_t t, int64_t proc, oc_op_kind kind,
                     int64_t lo, int64_t mid, int64_t hi);
int oc_sched_push_seg(oc_sched *s, int64_t proc, int64_t lo, int64_t hi);
void oc_sched_sort(oc_sched *s);  /* by time, then src, then dst, then item */
/* Additions an operation makes (1 for a fold; a LOCAL run adds hi - mid
 * operands, one fewer when it starts the accumulator); each addition is
 * one time unit, i.e. oc_params.unit model units. */
int64_t oc_op_cost(const oc_op *op);

/* Reads a contract CSV schedule (header `time,src,dst,item`, blank lines
 * and CRLF accepted) from buf[0..len) (buf is modified; it must end with a
 * NUL at len).  Times in the user's units, converted exactly to model units
 * (a postal time must be a multiple of 1/q).  OC_EPARSE with a one-line
 * message in err naming the row and field; nothing else is reported. */
int oc_sched_read_csv(char *buf, size_t len, const oc_params *p, oc_sched *out,
                      char *err, size_t errlen);
/* The buffered model's form: header `time,src,dst,item,recv`, recv the time
 * the row's item is taken from the receiver's buffer; *recv_at malloc'd,
 * one per row (NULL on failure). */
int oc_sched_read_csv_buffered(char *buf, size_t len, const oc_params *p, oc_sched *out,
                               int64_t **recv_at, char *err, size_t errlen);

/* Writing CSV schedules (oc_csv_write.c): the header and one row per
 * message in s's order (sort with oc_sched_sort first for time order), the
 * form oc_sched_read_csv reads back.  Times exactly in the user's unit:
 * an integer, a terminating decimal, else a/b (postal lambda = p/q); p
 * NULL: the times as integers (k-port rounds).  Long messages (s->len) are
 * OC_EINVAL: cut them with oc_sched_packets first.  OC_EIO on a write
 * error. */
#include <stdio.h>
int oc_sched_write_csv(FILE *f, const oc_sched *s, const oc_params *p);
/* The buffered model's form `time,src,dst,item,recv` (recv: one per row,
 * as oc_sched_read_csv_buffered reads it); recv NULL: oc_sched_write_csv. */
int oc_sched_write_csv_recv(FILE *f, const oc_sched *s, const oc_params *p,
                            const int64_t *recv);
/* The ring's form `time,src,dst,item,dir,line` (oc_rrp_read_csv), steps as
 * integers, in s's order. */
struct oc_rrp_sched;
int oc_rrp_sched_write_csv(FILE *f, const struct oc_rrp_sched *s);

#ifdef __cplusplus
}
#endif
#endif /* OPTCAST_SCHED_H */
