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

/* Element-wise loops: T the type, U the unsigned type for wrapping
 * arithmetic (T itself for floating point). */
#define OC_ARITH_(T, U, a, b, expr)                                            \
  do {                                                                         \
    const T *a##p = (const T *)in;                                             \
    T *b##p = (T *)inout;                                                      \
    for (int64_t i = 0; i < n; i++) {                                          \
      T a = a##p[i], b = b##p[i];                                              \
      b##p[i] = (T)(expr);                                                     \
    }                                                                          \
  } while (0)

#define OC_INT_OPS_(T, U)                                                      \
  switch (k) {                                                                 \
  case OC_OP_SUM: OC_ARITH_(T, U, x, y, (U)((uintmax_t)(U)x + (U)y)); break;  \
  case OC_OP_PROD: OC_ARITH_(T, U, x, y, (U)((uintmax_t)(U)x * (U)y)); break; \
  case OC_OP_MIN: OC_ARITH_(T, U, x, y, x < y ? x : y); break;                 \
  case OC_OP_MAX: OC_ARITH_(T, U, x, y, x > y ? x : y); break;                 \
  case OC_OP_BAND: OC_ARITH_(T, U, x, y, x & y); break;                        \
  case OC_OP_BOR: OC_ARITH_(T, U, x, y, x | y); break;                         \
  case OC_OP_BXOR: OC_ARITH_(T, U, x, y, x ^ y); break;                        \
  case OC_OP_LAND: OC_ARITH_(T, U, x, y, (x != 0) && (y != 0)); break;         \
  case OC_OP_LOR: OC_ARITH_(T, U, x, y, (x != 0) || (y != 0)); break;          \
  default: return OC_EINVAL;                                                   \
  }

#define OC_FLT_OPS_(T)                                                         \
  switch (k) {                                                                 \
  case OC_OP_SUM: OC_ARITH_(T, T, x, y, x + y); break;                         \
  case OC_OP_PROD: OC_ARITH_(T, T, x, y, x * y); break;                        \
  case OC_OP_MIN: OC_ARITH_(T, T, x, y, x < y ? x : y); break;                 \
  case OC_OP_MAX: OC_ARITH_(T, T, x, y, x > y ? x : y); break;                 \
  case OC_OP_LAND: OC_ARITH_(T, T, x, y, (x != 0) && (y != 0)); break;         \
  case OC_OP_LOR: OC_ARITH_(T, T, x, y, (x != 0) || (y != 0)); break;          \
  default: return OC_EINVAL;                                                   \
  }

int oc_reducer_apply(const oc_reducer *op, oc_type t, const void *in,
                     void *inout, int64_t n) {
  oc_opkind k;
  int e = oc_reducer_check(op, t);
  if (e) return e;
  if (n <= 0) return n == 0 ? OC_OK : OC_EINVAL;
  k = op->kind;
  if (k == OC_OP_USER) {
    op->fn(in, inout, n, op->arg);
    return OC_OK;
  }
  switch (t) {
  case OC_INT8: OC_INT_OPS_(int8_t, uint8_t) break;
  case OC_UINT8: OC_INT_OPS_(uint8_t, uint8_t) break;
  case OC_INT16: OC_INT_OPS_(int16_t, uint16_t) break;
  case OC_UINT16: OC_INT_OPS_(uint16_t, uint16_t) break;
  case OC_INT32: OC_INT_OPS_(int32_t, uint32_t) break;
  case OC_UINT32: OC_INT_OPS_(uint32_t, uint32_t) break;
  case OC_INT64: OC_INT_OPS_(int64_t, uint64_t) break;
  case OC_UINT64: OC_INT_OPS_(uint64_t, uint64_t) break;
  case OC_FLOAT: OC_FLT_OPS_(float) break;
  case OC_DOUBLE: OC_FLT_OPS_(double) break;
  default: return OC_EINVAL;
  }
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
