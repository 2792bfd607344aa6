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

/* buffered: the buffered form, a fifth column `recv` (into the column
 * OC_COL_RECV_AT). */
static int read_csv(char *buf, size_t len, const oc_params *p, oc_sched *out,
                    int buffered, char *err, size_t errlen) {
  char *cur = buf, *line;
  size_t row = 0;
  int header = 0, e, nwant = buffered ? 5 : 4;
  const char *hdr = buffered ? "time,src,dst,item,recv" : "time,src,dst,item";
  if (strlen(buf) != len) FAIL("stdin: the schedule contains a NUL byte");
  while (cur != NULL && *cur != '\0') {
    char *nl = strchr(cur, '\n'), *f[5];
    int nf = 0;
    if (nl) *nl = '\0';
    line = trim(cur);
    cur = nl ? nl + 1 : NULL;
    row++;
    if (*line == '\0') continue;
    if (!header) {
      char *q = line;
      int ok = 1;
      const char *want[5] = {"time", "src", "dst", "item", "recv"};
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
        if (nf < 5) f[nf] = q + 1;
        nf++;
      }
    if (nf != nwant) FAIL("row %zu: expected %d fields (%s), got %d", row, nwant, hdr, nf);
    {
      int64_t t = 0, src = 0, dst = 0, item = 0, r = 0;
      const char *names[3] = {"src", "dst", "item"};
      int64_t *outs[3] = {&src, &dst, &item};
      if ((e = csv_time(p, trim(f[0]), row, &t, err, errlen)) != OC_OK) return e;
      for (int i = 0; i < 3; i++) {
        char *x = trim(f[i + 1]);
        e = oc_parse_int(x, INT64_MIN + 1, INT64_MAX, outs[i]);
        if (e == OC_EPARSE) FAIL("row %zu: %s '%.40s' is not an integer", row, names[i], x);
        if (e != OC_OK) FAIL("row %zu: %s '%.40s' is out of range", row, names[i], x);
      }
      if (buffered && (e = csv_time(p, trim(f[4]), row, &r, err, errlen)) != OC_OK) return e;
      if (out->n + 1 >= UINT32_MAX) FAIL("stdin: too many rows");
      if ((buffered && oc_sched_add_col(out, OC_COL_RECV_AT) != OC_OK) ||
          oc_sched_push(out, t, src, dst, item) != OC_OK) {
        snprintf(err, errlen, "out of memory reading the schedule");
        return OC_ENOMEM;
      }
      if (buffered) out->recv_at[out->n - 1] = r;
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
