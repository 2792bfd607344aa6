/* optcast/sched.h - the schedule: messages, operations, optional columns,
 * reading and writing CSV.
 * Part of the public API; include "optcast.h" for all of it. */
#ifndef OPTCAST_SCHED_H
#define OPTCAST_SCHED_H

#include <stdio.h>

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

/* Optional per-message columns.  Each is NULL until a producer adds it
 * (oc_sched_add_col); once added it holds one entry per message and push,
 * sort and packets keep it in step with msg.  A message pushed after the
 * column was added gets the column's default (len 1, everything else 0),
 * which the producer then overwrites at index n - 1. */
typedef enum oc_col {
  OC_COL_LEN = 0,    /* packets per message: a long message of len items
                        item .. item+len-1 (Bar-Noy & Kipnis PACK)        */
  OC_COL_RECV_AT,    /* buffered model: when the receiver takes the item
                        from its buffer (oc_verify_buffered)              */
  OC_COL_COPY,       /* vector reductions: 1 = the receiver replaces its
                        value instead of adding (oc_verify_vreduce)       */
  OC_COL_SEQ,        /* vector reductions: the order in which the receiver
                        handles its messages (0, 1, ... per receiver)     */
  OC_COL_NOT_BEFORE, /* vector reductions: earliest handling time         */
  OC_COL_HIST,       /* vector reductions: the message carries its
                        sender's value after hist handled messages        */
  OC_COL_COUNT
} oc_col;

typedef struct oc_sched {
  oc_msg *msg;
  size_t n, cap;
  int64_t *len;             /* OC_COL_LEN        */
  int64_t *recv_at;         /* OC_COL_RECV_AT    */
  unsigned char *copy;      /* OC_COL_COPY       */
  uint32_t *seq;            /* OC_COL_SEQ        */
  int64_t *not_before;      /* OC_COL_NOT_BEFORE */
  uint32_t *hist;           /* OC_COL_HIST       */
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
/* Room for `extra` more messages (and their columns) without moving them
 * again; OC_OK or OC_ENOMEM (nothing changed). */
int oc_sched_reserve(oc_sched *s, size_t extra);
/* Adds column col (if absent), every message so far at its default;
 * OC_OK, OC_EINVAL (no such column) or OC_ENOMEM. */
int oc_sched_add_col(oc_sched *s, oc_col col);
/* The same schedule with every long message cut into its packets (what
 * CSV shows); out must be empty.  Other columns are repeated per packet. */
int oc_sched_packets(const oc_sched *s, int64_t g, oc_sched *out);
int oc_sched_push_op(oc_sched *s, int64_t t, int64_t proc, oc_op_kind kind,
                     int64_t lo, int64_t mid, int64_t hi);
int oc_sched_push_seg(oc_sched *s, int64_t proc, int64_t lo, int64_t hi);
/* By time, then src, then dst, then item (ties keep their order); the
 * columns move with their messages.  A schedule with long messages is left
 * as it is: sort its packets (oc_sched_packets).  OC_OK, or OC_ENOMEM with
 * the schedule unchanged (only with columns: a plain one always sorts). */
int oc_sched_sort(oc_sched *s);
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
 * the row's item is taken from the receiver's buffer, into the column
 * out->recv_at (OC_COL_RECV_AT, present on success). */
int oc_sched_read_csv_buffered(char *buf, size_t len, const oc_params *p, oc_sched *out,
                               char *err, size_t errlen);

/* Vector reductions (oc_verify_vreduce): the plain form, or the vector
 * form `time,src,dst,item,op,seq,not_before,hist` (op add|copy; seq,
 * not_before, hist a value in every row or '-' in every row), whichever the
 * header is; the columns copy (always, in the vector form), seq,
 * not_before, hist. */
int oc_sched_read_csv_vector(char *buf, size_t len, const oc_params *p, oc_sched *out,
                             char *err, size_t errlen);
/* Writing CSV schedules (oc_csv_write.c): the header and one row per
 * message in s's order (sort with oc_sched_sort first for time order), the
 * form oc_sched_read_csv reads back; with the column recv_at, the buffered
 * model's form `time,src,dst,item,recv` (oc_sched_read_csv_buffered);
 * with any of the columns copy, seq, not_before, hist, the vector form
 * (oc_sched_read_csv_vector).  Times exactly in the user's unit: an integer, a terminating decimal,
 * else a/b (postal lambda = p/q); p NULL: the times as integers (k-port
 * rounds).  Long messages (s->len) are OC_EINVAL: cut them with
 * oc_sched_packets first.  OC_EIO on a write error.  (The ring's CSV:
 * oc_rrp_sched_write_csv, plan.h.) */
int oc_sched_write_csv(FILE *f, const oc_sched *s, const oc_params *p);

#ifdef __cplusplus
}
#endif
#endif /* OPTCAST_SCHED_H */
