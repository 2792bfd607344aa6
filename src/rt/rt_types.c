/* rt_types.c - element types and operators of the runtime (optcast_rt.h).
 *
 * One table (OC_TYPE_MAP) gives the names and sizes; the built-in operators
 * are generated per type below.  Signed SUM and PROD are computed in the
 * unsigned type of the same width, so they wrap modulo 2^bits instead of
 * overflowing (undefined behaviour in C); floating SUM/PROD are IEEE. */
#include <stdbool.h>
#include <string.h>

#include "optcast_rt.h"

static const char *const type_names[] = {
#define OC_XX_(name, ctype, str) str,
    OC_TYPE_MAP(OC_XX_)
#undef OC_XX_
};
static const size_t type_sizes[] = {
#define OC_XX_(name, ctype, str) sizeof(ctype),
    OC_TYPE_MAP(OC_XX_)
#undef OC_XX_
};
static const char *const op_names[] = {
#define OC_XX_(name, str) str,
    OC_OPKIND_MAP(OC_XX_)
#undef OC_XX_
    "user"};

const char *oc_type_name(oc_type t) {
  return (unsigned)t < OC_TYPE_COUNT ? type_names[t] : "?";
}

size_t oc_type_size(oc_type t) {
  return (unsigned)t < OC_TYPE_COUNT ? type_sizes[t] : 0;
}

int oc_type_parse(const char *name, oc_type *out) {
  for (int i = 0; i < OC_TYPE_COUNT; i++)
    if (strcmp(name, type_names[i]) == 0) {
      *out = (oc_type)i;
      return OC_OK;
    }
  return OC_EINVAL;
}

const char *oc_opkind_name(oc_opkind k) {
  return (unsigned)k < OC_OPKIND_COUNT ? op_names[k] : "?";
}

int oc_opkind_parse(const char *name, oc_opkind *out) {
  for (int i = 0; i < OC_OP_USER; i++) /* "user" needs a function */
    if (strcmp(name, op_names[i]) == 0) {
      *out = (oc_opkind)i;
      return OC_OK;
    }
  return OC_EINVAL;
}

oc_reducer oc_reducer_builtin(oc_opkind k) {
  oc_reducer r;
  memset(&r, 0, sizeof r);
  r.kind = k;
  r.commutative = 1;
  return r;
}

oc_reducer oc_reducer_user(oc_user_fn *fn, void *arg, int commutative) {
  oc_reducer r;
  memset(&r, 0, sizeof r);
  r.kind = OC_OP_USER;
  r.fn = fn;
  r.arg = arg;
  r.commutative = commutative != 0;
  return r;
}

static bool is_float(oc_type t) { return t == OC_FLOAT || t == OC_DOUBLE; }

int oc_reducer_check(const oc_reducer *op, oc_type t) {
  if (op == NULL || (unsigned)t >= OC_TYPE_COUNT) return OC_EINVAL;
  if (op->kind == OC_OP_USER) return op->fn != NULL ? OC_OK : OC_EINVAL;
  if ((unsigned)op->kind >= OC_OP_USER || t == OC_BYTE) return OC_EINVAL;
  if (is_float(t) && (op->kind == OC_OP_BAND || op->kind == OC_OP_BOR ||
                      op->kind == OC_OP_BXOR))
    return OC_EINVAL;
  return OC_OK;
}

/* Element-wise loops over n elements: y[i] = x[i] (op) y[i], one function
 * per (type, operator), generated below, with restrict parameters (in and
 * inout never overlap) so that the compiler vectorises them.  Signed SUM
 * and PROD run on the unsigned type of the same width (an object may be
 * accessed through its unsigned variant), where wrapping is defined; the
 * products are formed in unsigned int or wider so that small types do not
 * promote to a signed int that could overflow. */
typedef void loop_fn(const void *restrict in, void *restrict inout, int64_t n);

/* GCC's -O2 cost model ("very cheap") will not vectorise a loop that needs
 * an epilogue; these loops are worth it (2-3x on 32-bit sums). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

#define OC_LOOP_(NAME, TX, TY, expr)                                           \
  static void NAME(const void *restrict in, void *restrict inout, int64_t n) { \
    const TX *x_ = (const TX *)in;                                             \
    TY *y_ = (TY *)inout;                                                      \
    for (int64_t i = 0; i < n; i++) y_[i] = (TY)(expr);                        \
  }
#define X_ x_[i]
#define Y_ y_[i]

/* name prefix P, element T, unsigned U, wide type W for SUM / PROD */
#define OC_INT_FNS_(P, T, U, W)                                                \
  OC_LOOP_(P##_sum, U, U, (W)X_ + (W)Y_)                                       \
  OC_LOOP_(P##_prod, U, U, (W)X_ * (W)Y_)                                      \
  OC_LOOP_(P##_min, T, T, X_ < Y_ ? X_ : Y_)                                   \
  OC_LOOP_(P##_max, T, T, X_ > Y_ ? X_ : Y_)                                   \
  OC_LOOP_(P##_band, T, T, X_ & Y_)                                            \
  OC_LOOP_(P##_bor, T, T, X_ | Y_)                                             \
  OC_LOOP_(P##_bxor, T, T, X_ ^ Y_)                                            \
  OC_LOOP_(P##_land, T, T, (X_ != 0) && (Y_ != 0))                             \
  OC_LOOP_(P##_lor, T, T, (X_ != 0) || (Y_ != 0))
#define OC_FLT_FNS_(P, T)                                                      \
  OC_LOOP_(P##_sum, T, T, X_ + Y_)                                             \
  OC_LOOP_(P##_prod, T, T, X_ * Y_)                                            \
  OC_LOOP_(P##_min, T, T, X_ < Y_ ? X_ : Y_)                                   \
  OC_LOOP_(P##_max, T, T, X_ > Y_ ? X_ : Y_)                                   \
  OC_LOOP_(P##_land, T, T, (X_ != 0) && (Y_ != 0))                             \
  OC_LOOP_(P##_lor, T, T, (X_ != 0) || (Y_ != 0))

OC_INT_FNS_(i8, int8_t, uint8_t, unsigned)
OC_INT_FNS_(u8, uint8_t, uint8_t, unsigned)
OC_INT_FNS_(i16, int16_t, uint16_t, unsigned)
OC_INT_FNS_(u16, uint16_t, uint16_t, unsigned)
OC_INT_FNS_(i32, int32_t, uint32_t, uint32_t)
OC_INT_FNS_(u32, uint32_t, uint32_t, uint32_t)
OC_INT_FNS_(i64, int64_t, uint64_t, uint64_t)
OC_INT_FNS_(u64, uint64_t, uint64_t, uint64_t)
OC_FLT_FNS_(f32, float)
OC_FLT_FNS_(f64, double)

#define OC_INT_ROW_(P)                                                         \
  {P##_sum, P##_prod, P##_min, P##_max, P##_band, P##_bor, P##_bxor, P##_land, P##_lor}
#define OC_FLT_ROW_(P)                                                         \
  {P##_sum, P##_prod, P##_min, P##_max, NULL, NULL, NULL, P##_land, P##_lor}

/* [type][operator], in OC_TYPE_MAP and OC_OPKIND_MAP order; BYTE has none */
static loop_fn *const LOOPS[OC_TYPE_COUNT][OC_OP_USER] = {
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
    OC_INT_ROW_(i8),  OC_INT_ROW_(u8),  OC_INT_ROW_(i16), OC_INT_ROW_(u16),
    OC_INT_ROW_(i32), OC_INT_ROW_(u32), OC_INT_ROW_(i64), OC_INT_ROW_(u64),
    OC_FLT_ROW_(f32), OC_FLT_ROW_(f64),
};

int oc_reducer_apply(const oc_reducer *op, oc_type t, const void *in,
                     void *inout, int64_t n) {
  int e = oc_reducer_check(op, t);
  if (e) return e;
  if (n <= 0) return n == 0 ? OC_OK : OC_EINVAL;
  if (op->kind == OC_OP_USER) {
    op->fn(in, inout, n, op->arg);
    return OC_OK;
  }
  if (LOOPS[t][op->kind] == NULL) return OC_EINVAL; /* cannot happen: checked */
  LOOPS[t][op->kind](in, inout, n);
  return OC_OK;
}

static int builtin_combine(const oc_elem *el, const void *in, void *inout,
                           int64_t n) {
  return oc_reducer_apply(&el->op, el->type, in, inout, n);
}

int oc_elem_builtin(oc_elem *el, oc_type t, const oc_reducer *op) {
  size_t sz = oc_type_size(t);
  if (sz == 0) return OC_EINVAL;
  if (op != NULL && oc_reducer_check(op, t) != OC_OK) return OC_EINVAL;
  memset(el, 0, sizeof *el);
  el->extent = sz;
  el->true_lb = 0;
  el->true_extent = sz;
  el->type = t;
  if (op != NULL) {
    el->op = *op;
    el->combine = builtin_combine;
    el->commutative = op->commutative;
  } else {
    el->commutative = 1;
  }
  return OC_OK;
}
