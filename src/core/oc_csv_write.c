/* oc_csv_write.c - writing the contract's CSV schedules (`time,src,dst,item`,
 * with `recv` for the buffered model, and `time,src,dst,item,dir,line` for
 * the reconfigurable ring): the form oc_csv.c reads back.
 * Times are exact and in the user's unit: an integer, a terminating
 * decimal, else a/b (postal lambda = p/q). */
#include <stdio.h>

#include "core/oc_core.h"
#include "optcast/plan.h"

/* x model units in the user's unit, exactly: the decimal when it
 * terminates, else a/b; p NULL: x itself (k-port rounds, ring steps). */
static const char *exact_time(char *b, size_t n, const oc_params *p, int64_t x) {
  int64_t unit, gg, den;
  if (p == NULL) {
    snprintf(b, n, "%lld", (long long)x);
    return b;
  }
  unit = p->unit;
  gg = oc_gcd(x, unit);
  den = unit / gg;
  while (den % 2 == 0) den /= 2;
  while (den % 5 == 0) den /= 5;
  if (den == 1) oc_format_time(b, n, x, unit);
  else snprintf(b, n, "%lld/%lld", (long long)(x / gg), (long long)(unit / gg));
  return b;
}

/* the vector-reduction form: op, seq, not_before, hist ("-" for a column
 * the schedule does not have) */
static void write_vec(FILE *f, const oc_sched *s, const oc_params *p, size_t i) {
  char b[64];
  fprintf(f, ",%s", s->copy != NULL && s->copy[i] ? "copy" : "add");
  if (s->seq != NULL) fprintf(f, ",%lu", (unsigned long)s->seq[i]);
  else fputs(",-", f);
  if (s->not_before != NULL) fprintf(f, ",%s", exact_time(b, sizeof b, p, s->not_before[i]));
  else fputs(",-", f);
  if (s->hist != NULL) fprintf(f, ",%lu", (unsigned long)s->hist[i]);
  else fputs(",-", f);
}

int oc_sched_write_csv(FILE *f, const oc_sched *s, const oc_params *p) {
  const int64_t *recv = s != NULL ? s->recv_at : NULL;
  char b[64], r[64];
  int vec;
  if (f == NULL || s == NULL || s->len != NULL) return OC_EINVAL;
  vec = s->copy != NULL || s->seq != NULL || s->not_before != NULL || s->hist != NULL;
  fputs(recv != NULL ? "time,src,dst,item,recv\n"
        : vec        ? "time,src,dst,item,op,seq,not_before,hist\n"
                     : "time,src,dst,item\n",
        f);
  for (size_t i = 0; i < s->n; i++) {
    const oc_msg *m = &s->msg[i];
    fprintf(f, "%s,%lld,%lld,%lld", exact_time(b, sizeof b, p, m->t), (long long)m->src,
            (long long)m->dst, (long long)m->item);
    if (recv != NULL) fprintf(f, ",%s", exact_time(r, sizeof r, p, recv[i]));
    else if (vec) write_vec(f, s, p, i);
    fputc('\n', f);
  }
  return ferror(f) ? OC_EIO : OC_OK;
}

int oc_rrp_sched_write_csv(FILE *f, const oc_rrp_sched *s) {
  if (f == NULL || s == NULL) return OC_EINVAL;
  fputs("time,src,dst,item,dir,line\n", f);
  for (size_t i = 0; i < s->n; i++)
    fprintf(f, "%lld,%lld,%lld,%lld,%s,%lld\n", (long long)s->msg[i].t,
            (long long)s->msg[i].src, (long long)s->msg[i].dst, (long long)s->msg[i].item,
            s->msg[i].dir == OC_RRP_CW ? "cw" : "ccw", (long long)s->msg[i].line);
  return ferror(f) ? OC_EIO : OC_OK;
}
