/* optcast/core.h - errors, limits, model parameters, the reach function,
 * exact numbers.
 * Part of the public API; include "optcast.h" for all of it. */
#ifndef OPTCAST_CORE_H
#define OPTCAST_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors (one table generates the enum, the names and the messages) -- */
#define OC_ERRNO_MAP(XX)                                                       \
  XX(EINVAL, -1, "invalid argument")                                          \
  XX(ERANGE, -2, "value out of range")                                        \
  XX(ENOMEM, -3, "out of memory")                                             \
  XX(EPARSE, -4, "malformed input")                                           \
  XX(EUNSUP, -5, "not supported")                                             \
  XX(EINVALID, -6, "schedule violates the model")                             \
  XX(EIO, -7, "input/output error")                                          \
  XX(ETIMEDOUT, -8, "timed out waiting for a peer")                           \
  XX(EMISMATCH, -9, "a peer's message does not fit the call")                 \
  XX(ETRANSPORT, -10, "transport failure")

typedef enum oc_err {
  OC_OK = 0,
#define OC_XX_(name, val, msg) OC_##name = (val),
  OC_ERRNO_MAP(OC_XX_)
#undef OC_XX_
} oc_err;

const char *oc_err_name(int err);  /* "OC_EINVAL", ... "OC_OK"; "OC_E?" */
const char *oc_strerror(int err);  /* "invalid argument", ...            */

/* ---- limits ------------------------------------------------------------- */
#define OC_SAT INT64_MAX                    /* saturated count              */
#define OC_PROCS_MAX ((int64_t)1 << 62)     /* largest P                    */
#define OC_PARAM_MAX ((int64_t)1 << 40)     /* largest L, o, g, lambda p, q */
#define OC_TIME_MAX ((int64_t)1 << 60)      /* latest time a schedule may hold */
#define OC_AT_END (OC_TIME_MAX + 1)         /* a verdict's time: "at the end"    */
#define OC_GLOBAL_PROCS_MAX ((int64_t)1 << 30) /* largest P for a global schedule */

/* ---- models ------------------------------------------------------------- */
typedef enum oc_model { OC_MODEL_LOGP = 0, OC_MODEL_POSTAL = 1 } oc_model;

typedef struct oc_params {
  oc_model model;
  int64_t P;          /* processors, 1..OC_PROCS_MAX                        */
  int64_t L, o, g;    /* in model units (postal: L = p, o = 0, g = q)       */
  int64_t unit;       /* model units per user time unit (postal: q; LogP: 1) */
  int64_t lam_num, lam_den; /* postal: lambda = lam_num / lam_den, reduced  */
} oc_params;

/* Fill a LogP parameter set and check it.  Errors name nothing; the
 * command line does that.  Valid: L >= 0, o >= 0, g >= 1, L + 2o >= 1,
 * 1 <= P <= OC_PROCS_MAX, L, o, g <= OC_PARAM_MAX. */
int oc_params_logp(oc_params *p, int64_t P, int64_t L, int64_t o, int64_t g);
/* Postal model with lambda = num/den (reduced here); lambda >= 1. */
int oc_params_postal(oc_params *p, int64_t P, int64_t num, int64_t den);
/* Check an already filled oc_params. */
int oc_params_check(const oc_params *p);

/* ---- reach function P(t) and its inverse B(P) ----------------------------
 * f(t) = P(t; L, o, g): the most processors a single-item broadcast can
 * inform by time t (Karp et al. Def. 2.2 / Thm 2.2; Shou & Chen Thm 2;
 * Bar-Noy & Kipnis F_lambda).  With h = L + 2o and G = max(g, o):
 *   f(t) = 0 (t < 0);  f(t) = 1 + sum_{k >= 0, t-h-kG >= 0} f(t - h - kG).
 * B(P) = min { t : f(t) >= P } is the optimal broadcast time.
 * An oc_reach holds what evaluating f for one instance needs: for moderate
 * B(P) a table of f (at most OC_REACH_TABLE_MAX entries), otherwise nothing
 * (f is then evaluated in closed form). */
#define OC_REACH_TABLE_MAX ((int64_t)1 << 16)
typedef struct oc_reach oc_reach;

int oc_reach_new(oc_reach **out, const oc_params *p);
void oc_reach_free(oc_reach *r);
int64_t oc_reach_time(const oc_reach *r);          /* B(P), model units   */
int64_t oc_reach_f(const oc_reach *r, int64_t t);  /* f(t), saturating    */
/* Stateless helpers (closed form; O(log^2 P) per call). */
int64_t oc_reach_count(const oc_params *p, int64_t t);      /* f(t)        */
int oc_bcast_time(const oc_params *p, int64_t *out_time);   /* B(P)        */

/* ---- integer helpers (counts saturate, never wrap) ----------------------- */
/* Saturating arithmetic on non-negative int64 counts: results cap at OC_SAT. */
static inline int64_t oc_add_sat(int64_t a, int64_t b) {
  return (a > OC_SAT - b) ? OC_SAT : a + b;
}
static inline int64_t oc_mul_sat(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  return (a > OC_SAT / b) ? OC_SAT : a * b;
}
static inline int64_t oc_min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t oc_max64(int64_t a, int64_t b) { return a > b ? a : b; }
/* floor(a / b) for b > 0 and any a. */
static inline int64_t oc_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}
/* Greatest common divisor of |a| and |b| (oc_gcd(0, 0) = 0). */
int64_t oc_gcd(int64_t a, int64_t b);

/* ---- exact number parsing (used by the command line, exposed for tests) - */
/* Decimal integer in [lo, hi]; OC_EPARSE if not an integer, OC_ERANGE if
 * out of range. */
int oc_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out);
/* Rational "a", "a.b" or "a/b" >= 0, reduced; numerator and denominator
 * at most `max`. */
int oc_parse_rational(const char *s, int64_t max, int64_t *num, int64_t *den);
/* Print v/unit exactly: an integer, a terminating decimal, or else the
 * shortest decimal that reads back as the same double. */
void oc_format_time(char *buf, size_t n, int64_t v, int64_t unit);

#ifdef __cplusplus
}
#endif
#endif /* OPTCAST_CORE_H */
