/* oc_num.c - error table, exact number parsing and printing, parameter
 * checks.  Everything here is exact: integers are range-checked while they
 * are read, rationals are kept as reduced fractions, and times are printed
 * from integers so that 15 units of 1/2 print as 7.5, never 7.4999. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/oc_core.h"

const char *oc_err_name(int err) {
  switch (err) {
  case OC_OK: return "OC_OK";
#define OC_XX_(name, val, msg) case OC_##name: return "OC_" #name;
  OC_ERRNO_MAP(OC_XX_)
#undef OC_XX_
  default: return "OC_E?";
  }
}

const char *oc_strerror(int err) {
  switch (err) {
  case OC_OK: return "success";
#define OC_XX_(name, val, msg) case OC_##name: return msg;
  OC_ERRNO_MAP(OC_XX_)
#undef OC_XX_
  default: return "unknown error";
  }
}

int64_t oc_gcd(int64_t a, int64_t b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

int oc_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out) {
  int neg = 0;
  int64_t v = 0;
  int range = 0;
  if (s == NULL || *s == '\0') return OC_EPARSE;
  if (*s == '-' || *s == '+') {
    neg = (*s == '-');
    s++;
  }
  if (*s == '\0') return OC_EPARSE;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return OC_EPARSE;
    if (v > (INT64_MAX - (*s - '0')) / 10)
      range = 1; /* keep scanning: "12x" is a parse error, not a range one */
    else
      v = v * 10 + (*s - '0');
  }
  if (range) return OC_ERANGE;
  if (neg) v = -v;
  if (v < lo || v > hi) return OC_ERANGE;
  *out = v;
  return OC_OK;
}

/* Reads digits into *v (saturating at `cap`, flagging overflow); returns the
 * number of digits read. */
static int read_digits(const char **ps, int64_t cap, int64_t *v, int *over) {
  const char *s = *ps;
  int n = 0;
  *v = 0;
  while (*s >= '0' && *s <= '9') {
    if (*v > (cap - (*s - '0')) / 10)
      *over = 1;
    else
      *v = *v * 10 + (*s - '0');
    s++;
    n++;
  }
  *ps = s;
  return n;
}

int oc_parse_rational(const char *s, int64_t max, int64_t *num, int64_t *den) {
  const int64_t cap = (int64_t)1 << 62;
  int64_t a = 0, b = 1;
  int over = 0;
  if (s == NULL) return OC_EPARSE;
  if (read_digits(&s, cap, &a, &over) == 0) return OC_EPARSE;
  if (*s == '.') {
    int64_t frac = 0;
    int nd;
    s++;
    nd = read_digits(&s, cap, &frac, &over);
    if (nd == 0 || *s != '\0') return OC_EPARSE;
    for (int i = 0; i < nd && !over; i++) {
      if (b > cap / 10) over = 1; else b *= 10;
    }
    if (!over) {
      if (a > (cap - frac) / b) over = 1; else a = a * b + frac;
    }
  } else if (*s == '/') {
    s++;
    if (read_digits(&s, cap, &b, &over) == 0 || *s != '\0') return OC_EPARSE;
    if (b == 0) return OC_EPARSE;
  } else if (*s != '\0') {
    return OC_EPARSE;
  }
  if (over) return OC_ERANGE;
  {
    int64_t gg = oc_gcd(a, b);
    if (gg > 1) { a /= gg; b /= gg; }
  }
  if (a > max || b > max) return OC_ERANGE;
  *num = a;
  *den = b;
  return OC_OK;
}

void oc_format_time(char *buf, size_t n, int64_t v, int64_t unit) {
  int64_t gg, num, den, ip, rem, d2 = 0, d5 = 0, tmp;
  int neg = v < 0;
  size_t k;
  if (unit <= 1) {
    snprintf(buf, n, "%lld", (long long)v);
    return;
  }
  gg = oc_gcd(v, unit);
  num = (neg ? -v : v) / gg;
  den = unit / gg;
  if (den == 1) {
    snprintf(buf, n, "%s%lld", neg ? "-" : "", (long long)num);
    return;
  }
  for (tmp = den; tmp % 2 == 0; tmp /= 2) d2++;
  for (; tmp % 5 == 0; tmp /= 5) d5++;
  if (tmp != 1) {
    /* Not a terminating decimal: the shortest text that reads back as the
     * double nearest to num/den (exact times are also printed as a/b where
     * the output has room for it). */
    double x = (double)num / (double)den;
    for (int prec = 1; prec <= 17; prec++) {
      snprintf(buf, n, "%s%.*g", neg ? "-" : "", prec, x);
      if (strtod(buf, NULL) == (neg ? -x : x)) return;
    }
    return;
  }
  ip = num / den;
  rem = num % den;
  k = (size_t)snprintf(buf, n, "%s%lld.", neg ? "-" : "", (long long)ip);
  /* den = 2^d2 5^d5 divides 10^max(d2,d5): at most 41 digits for den <= 2^40.
   * rem < den <= 2^40, so rem * 10 never overflows. */
  while (rem > 0 && k + 1 < n) { /* den >= 2 here */
    int64_t digit;
    rem *= 10;
    digit = rem / den;
    rem -= digit * den;
    buf[k++] = (char)('0' + digit);
  }
  buf[k < n ? k : n - 1] = '\0';
}

int oc_params_check(const oc_params *p) {
  if (p == NULL) return OC_EINVAL;
  if (p->P < 1 || p->P > OC_PROCS_MAX) return OC_ERANGE;
  if (p->L < 0 || p->o < 0 || p->g < 1) return OC_ERANGE;
  /* the library itself derives models with L + 1 and o + 1 (reductions):
   * allow that headroom here; the constructors hold users to OC_PARAM_MAX */
  if (p->L > 2 * OC_PARAM_MAX || p->o > 2 * OC_PARAM_MAX || p->g > 2 * OC_PARAM_MAX)
    return OC_ERANGE;
  if (p->L + 2 * p->o < 1) return OC_ERANGE;
  if (p->unit < 1) return OC_ERANGE;
  if (p->model == OC_MODEL_POSTAL) {
    if (p->o != 0 || p->lam_den < 1 || p->lam_num < p->lam_den ||
        p->L != p->lam_num || p->g != p->lam_den || p->unit != p->lam_den)
      return OC_EINVAL;
  } else if (p->model != OC_MODEL_LOGP) {
    return OC_EINVAL;
  }
  return OC_OK;
}

int oc_params_logp(oc_params *p, int64_t P, int64_t L, int64_t o, int64_t g) {
  oc_params q;
  if (L > OC_PARAM_MAX || o > OC_PARAM_MAX || g > OC_PARAM_MAX) return OC_ERANGE;
  memset(&q, 0, sizeof q);
  q.model = OC_MODEL_LOGP;
  q.P = P;
  q.L = L;
  q.o = o;
  q.g = g;
  q.unit = 1;
  q.lam_num = 0;
  q.lam_den = 1;
  {
    int e = oc_params_check(&q);
    if (e) return e;
  }
  *p = q;
  return OC_OK;
}

int oc_params_postal(oc_params *p, int64_t P, int64_t num, int64_t den) {
  oc_params q;
  int64_t gg;
  if (den < 1 || num < 1) return OC_ERANGE;
  if (num > OC_PARAM_MAX || den > OC_PARAM_MAX) return OC_ERANGE;
  gg = oc_gcd(num, den);
  num /= gg;
  den /= gg;
  if (num < den) return OC_ERANGE;
  memset(&q, 0, sizeof q);
  q.model = OC_MODEL_POSTAL;
  q.P = P;
  q.L = num;
  q.o = 0;
  q.g = den;
  q.unit = den;
  q.lam_num = num;
  q.lam_den = den;
  {
    int e = oc_params_check(&q);
    if (e) return e;
  }
  *p = q;
  return OC_OK;
}

int oc_name_index(const char *const *names, int n, const char *name) {
  if (name == NULL) return -1;
  for (int i = 0; i < n; i++)
    if (strcmp(name, names[i]) == 0) return i;
  return -1;
}
