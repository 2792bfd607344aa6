/* oc_csv.c - reading the contract's CSV schedules (`time,src,dst,item`, and
 * `time,src,dst,item,dir,line` for the reconfigurable ring).
 * Times are exact: integers for LogP, multiples of 1/q for the postal
 * model with lambda = p/q ("7.5" or "15/2"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/oc_core.h"


static char *trim(char *s) {
  char *e;
  while (*s == ' ' || *s == '\t') s++;
  e = s + strlen(s);
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) *--e = '\0';
  return s;
}

#define FAIL(...)                                                              \
  do {                                                                         \
    snprintf(err, errlen, __VA_ARGS__);                                        \
    return OC_EPARSE;                                                          \
  } while (0)

static int csv_time(const oc_params *p, const char *s, size_t row, int64_t *out,
                    char *err, size_t errlen) {
  int64_t num, den, q;
  int neg = (*s == '-');
  int e = oc_parse_rational(neg ? s + 1 : s, OC_TIME_MAX, &num, &den);
  if (e == OC_EPARSE) FAIL("row %zu: time '%.40s' is not a number", row, s);
  if (e != OC_OK) FAIL("row %zu: time '%.40s' is out of range", row, s);
  if (p->unit % den != 0) {
    if (p->unit == 1)
      FAIL("row %zu: time '%.40s' is not an integer (LogP times are integers)", row, s);
    FAIL("row %zu: time '%.40s' is not a multiple of 1/%lld (postal lambda=%lld/%lld)",
         row, s, (long long)p->unit, (long long)p->lam_num, (long long)p->lam_den);
  }
  q = p->unit / den;
  if (num > OC_TIME_MAX / q) FAIL("row %zu: time '%.40s' is out of range", row, s);
  *out = neg ? -(num * q) : num * q;
  return OC_OK;
}

/* The forms: 0 plain, 1 buffered (a fifth column `recv`, into the column
 * OC_COL_RECV_AT), 2 vector reductions (op add|copy, seq, not_before,
 * hist: the columns OC_COL_COPY, _SEQ, _NOT_BEFORE, _HIST; "-" in every
 * row of a column the schedule does not have). */
#define CSV_FIELDS 8
static const char *const CSV_HDR[3] = {"time,src,dst,item", "time,src,dst,item,recv",
                                       "time,src,dst,item,op,seq,not_before,hist"};

/* one of the vector form's optional columns in row (1-based) row: "-" or
 * a value; all rows must agree (*have: -1 unknown yet, 0 absent, 1 present) */
static int vec_field(const oc_params *p, char *x, size_t row, const char *name, int is_time,
                     int64_t hi, int *have, int64_t *out, char *err, size_t errlen) {
  int dash = strcmp(x, "-") == 0, e;
  if (*have < 0) *have = !dash;
  if (*have == dash)
    FAIL("row %zu: %s '%.40s': every row gives %s, or none ('-')", row, name, x, name);
  *out = 0;
  if (dash) return OC_OK;
  if (is_time) return csv_time(p, x, row, out, err, errlen);
  e = oc_parse_int(x, 0, hi, out);
  if (e == OC_EPARSE) FAIL("row %zu: %s '%.40s' is not an integer", row, name, x);
  if (e != OC_OK) FAIL("row %zu: %s '%.40s' is out of range (0 to %lld)", row, name, x,
                       (long long)hi);
  return OC_OK;
}

static int read_csv(char *buf, size_t len, const oc_params *p, oc_sched *out,
                    int form, char *err, size_t errlen) {
  char *cur = buf, *line;
  size_t row = 0;
  int header = 0, e, nwant = form == 1 ? 5 : form == 2 ? 8 : 4;
  int have[3] = {-1, -1, -1}; /* vector form: seq, not_before, hist */
  const char *hdr = CSV_HDR[form];
  if (strlen(buf) != len) FAIL("stdin: the schedule contains a NUL byte");
  while (cur != NULL && *cur != '\0') {
    char *nl = strchr(cur, '\n'), *f[CSV_FIELDS];
    int nf = 0;
    if (nl) *nl = '\0';
    line = trim(cur);
    cur = nl ? nl + 1 : NULL;
    row++;
    if (*line == '\0') continue;
    if (!header) {
      char *q = line;
      int ok = 1;
      const char *want[CSV_FIELDS] = {"time", "src", "dst", "item", form == 1 ? "recv" : "op",
                                      "seq", "not_before", "hist"};
      for (int i = 0; i < nwant && ok; i++) {
        char *comma = strchr(q, ',');
        if (comma) *comma = '\0';
        ok = strcmp(trim(q), want[i]) == 0 && (comma != NULL) == (i < nwant - 1);
        q = comma ? comma + 1 : q;
      }
      if (!ok) FAIL("row %zu: expected the header '%s'", row, hdr);
      header = 1;
      continue;
    }
    f[0] = line;
    nf = 1;
    for (char *q = line; *q; q++)
      if (*q == ',') {
        *q = '\0';
        if (nf < CSV_FIELDS) f[nf] = q + 1;
        nf++;
      }
    if (nf != nwant) FAIL("row %zu: expected %d fields (%s), got %d", row, nwant, hdr, nf);
    {
      int64_t t = 0, src = 0, dst = 0, item = 0, r = 0, v[3] = {0, 0, 0};
      const char *names[3] = {"src", "dst", "item"};
      int64_t *outs[3] = {&src, &dst, &item};
      int copy = 0;
      if ((e = csv_time(p, trim(f[0]), row, &t, err, errlen)) != OC_OK) return e;
      for (int i = 0; i < 3; i++) {
        char *x = trim(f[i + 1]);
        e = oc_parse_int(x, INT64_MIN + 1, INT64_MAX, outs[i]);
        if (e == OC_EPARSE) FAIL("row %zu: %s '%.40s' is not an integer", row, names[i], x);
        if (e != OC_OK) FAIL("row %zu: %s '%.40s' is out of range", row, names[i], x);
      }
      if (form == 1 && (e = csv_time(p, trim(f[4]), row, &r, err, errlen)) != OC_OK) return e;
      if (form == 2) {
        char *op = trim(f[4]);
        if (strcmp(op, "copy") == 0) copy = 1;
        else if (strcmp(op, "add") != 0) FAIL("row %zu: op '%.40s' is not add or copy", row, op);
        if ((e = vec_field(p, trim(f[5]), row, "seq", 0, UINT32_MAX - 1, &have[0], &v[0], err,
                           errlen)) != OC_OK ||
            (e = vec_field(p, trim(f[6]), row, "not_before", 1, 0, &have[1], &v[1], err,
                           errlen)) != OC_OK ||
            (e = vec_field(p, trim(f[7]), row, "hist", 0, UINT32_MAX - 1, &have[2], &v[2], err,
                           errlen)) != OC_OK)
          return e;
      }
      if (out->n + 1 >= UINT32_MAX) FAIL("stdin: too many rows");
      if ((form == 1 && oc_sched_add_col(out, OC_COL_RECV_AT) != OC_OK) ||
          (form == 2 && (oc_sched_add_col(out, OC_COL_COPY) != OC_OK ||
                         (have[0] == 1 && oc_sched_add_col(out, OC_COL_SEQ) != OC_OK) ||
                         (have[1] == 1 && oc_sched_add_col(out, OC_COL_NOT_BEFORE) != OC_OK) ||
                         (have[2] == 1 && oc_sched_add_col(out, OC_COL_HIST) != OC_OK))) ||
          oc_sched_push(out, t, src, dst, item) != OC_OK) {
        snprintf(err, errlen, "out of memory reading the schedule");
        return OC_ENOMEM;
      }
      if (form == 1) out->recv_at[out->n - 1] = r;
      if (form == 2) {
        out->copy[out->n - 1] = (unsigned char)copy;
        if (have[0] == 1) out->seq[out->n - 1] = (uint32_t)v[0];
        if (have[1] == 1) out->not_before[out->n - 1] = v[1];
        if (have[2] == 1) out->hist[out->n - 1] = (uint32_t)v[2];
      }
    }
  }
  if (!header) FAIL("stdin: empty input (expected the header '%s')", hdr);
  return OC_OK;
}

int oc_sched_read_csv(char *buf, size_t len, const oc_params *p, oc_sched *out,
                      char *err, size_t errlen) {
  return read_csv(buf, len, p, out, 0, err, errlen);
}

int oc_sched_read_csv_buffered(char *buf, size_t len, const oc_params *p, oc_sched *out,
                               char *err, size_t errlen) {
  int e = read_csv(buf, len, p, out, 1, err, errlen);
  if (e == OC_OK && (e = oc_sched_add_col(out, OC_COL_RECV_AT)) != OC_OK) /* no rows */
    snprintf(err, errlen, "out of memory reading the schedule");
  return e;
}

/* the plain form or the vector form, whichever the header is */
int oc_sched_read_csv_vector(char *buf, size_t len, const oc_params *p, oc_sched *out,
                             char *err, size_t errlen) {
  const char *s = buf;
  while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
  return read_csv(buf, len, p, out, strncmp(s, CSV_HDR[2], strlen(CSV_HDR[2])) == 0 ? 2 : 0,
                  err, errlen);
}

/* The ring: steps are integers, dir is cw or ccw; ranges are the
 * verifier's business. */
int oc_rrp_read_csv(char *buf, size_t len, int64_t N, int64_t L,
                    oc_rrp_sched *out, char *err, size_t errlen) {
  static const char *const want[6] = {"time", "src", "dst", "item", "dir", "line"};
  char *cur = buf;
  size_t row = 0;
  int header = 0;
  (void)N;
  (void)L;
  if (strlen(buf) != len) FAIL("stdin: the schedule contains a NUL byte");
  while (cur != NULL && *cur != '\0') {
    char *nl = strchr(cur, '\n'), *f[6], *line;
    int nf = 1;
    if (nl) *nl = '\0';
    line = trim(cur);
    cur = nl ? nl + 1 : NULL;
    row++;
    if (*line == '\0') continue;
    f[0] = line;
    for (char *q = line; *q; q++)
      if (*q == ',') {
        *q = '\0';
        if (nf < 6) f[nf] = q + 1;
        nf++;
      }
    if (!header) {
      int ok = nf == 6;
      for (int i = 0; i < 6 && ok; i++) ok = strcmp(trim(f[i]), want[i]) == 0;
      if (!ok) FAIL("row %zu: expected the header 'time,src,dst,item,dir,line'", row);
      header = 1;
      continue;
    }
    if (nf != 6)
      FAIL("row %zu: expected 6 fields (time,src,dst,item,dir,line), got %d", row, nf);
    {
      int64_t x[6] = {0, 0, 0, 0, 0, 0};
      int dir = OC_RRP_CW;
      for (int i = 0; i < 6; i++) {
        char *t = trim(f[i]);
        int e;
        if (i == 4) {
          if (strcmp(t, "cw") == 0) dir = OC_RRP_CW;
          else if (strcmp(t, "ccw") == 0) dir = OC_RRP_CCW;
          else FAIL("row %zu: dir '%.40s' is not cw or ccw", row, t);
          continue;
        }
        e = oc_parse_int(t, INT64_MIN + 1, INT64_MAX, &x[i]);
        if (e == OC_EPARSE) FAIL("row %zu: %s '%.40s' is not an integer", row, want[i], t);
        if (e != OC_OK) FAIL("row %zu: %s '%.40s' is out of range", row, want[i], t);
      }
      if (out->n + 1 >= UINT32_MAX) FAIL("stdin: too many rows");
      if (oc_rrp_sched_push(out, x[0], x[1], x[2], x[3], dir, x[5]) != OC_OK) {
        snprintf(err, errlen, "out of memory reading the schedule");
        return OC_ENOMEM;
      }
    }
  }
  if (!header)
    FAIL("stdin: empty input (expected the header 'time,src,dst,item,dir,line')");
  return OC_OK;
}
