/* fuzz_numbers.c - libFuzzer target: exact number parsing and printing,
 * parameter checks and the reach function, with properties that abort. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optcast.h"
#include "optcast_rt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int64_t get64(const uint8_t *d) {
  uint64_t x = 0;
  for (int i = 0; i < 8; i++) x = (x << 8) | d[i];
  return (int64_t)(x >> 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char s[64], b[96];
  int64_t v, num, den, num2, den2;
  size_t n = size < sizeof s - 1 ? size : sizeof s - 1;
  memcpy(s, data, n);
  s[n] = '\0';
  /* integers: what parses prints back the same */
  if (oc_parse_int(s, INT64_MIN + 1, INT64_MAX, &v) == OC_OK) {
    int64_t w;
    snprintf(b, sizeof b, "%lld", (long long)v);
    if (oc_parse_int(b, INT64_MIN + 1, INT64_MAX, &w) != OC_OK || w != v) abort();
  }
  /* rationals: a terminating time prints exactly and reads back equal */
  if (oc_parse_rational(s, OC_PARAM_MAX, &num, &den) == OC_OK) {
    int64_t d2 = den;
    while (d2 % 2 == 0) d2 /= 2;
    while (d2 % 5 == 0) d2 /= 5;
    oc_format_time(b, sizeof b, num, den);
    if (d2 == 1) {
      if (oc_parse_rational(b, OC_PARAM_MAX, &num2, &den2) != OC_OK) abort();
      if (num2 != num || den2 != den) abort();
    }
  }
  /* parameter files: what parses is ascending, finite, and converts */
  {
    oc_rtparams rp;
    int line = -1;
    if (oc_rtparams_parse((const char *)data, size, &rp, &line) == OC_OK) {
      oc_params mp;
      if (rp.nrows < 1 || rp.nrows > OC_RTPARAMS_ROWS_MAX || line != 0) abort();
      for (int i = 1; i < rp.nrows; i++)
        if (rp.bytes[i] <= rp.bytes[i - 1]) abort();
      for (int64_t sz = 1; sz <= ((int64_t)1 << 40); sz *= 33) {
        double L, os, orv, g;
        oc_rtparams_at(&rp, sz, &L, &os, &orv, &g);
        if (!(L >= 0) || !(os >= 0) || !(orv >= 0) || !(g >= 0)) abort();
        if (oc_rtparams_model(&rp, sz, 8, 10.0, &mp) != OC_OK) abort();
      }
    } else if (line < 0) {
      abort(); /* an error always says where */
    }
  }
  /* parameters and the reach function: B is the index function of f */
  if (size >= 32) {
    oc_params p;
    int64_t P = get64(data) % ((int64_t)1 << 62) + 1, L = get64(data + 8) % ((int64_t)1 << 41);
    int64_t o = get64(data + 16) % ((int64_t)1 << 41), g = get64(data + 24) % ((int64_t)1 << 41);
    if (oc_params_logp(&p, P, L, o, g) == OC_OK) {
      int64_t B;
      if (oc_bcast_time(&p, &B) != OC_OK) abort();
      if (oc_reach_count(&p, B) < P) abort();
      if (B > 0 && oc_reach_count(&p, B - 1) >= P) abort();
    }
  }
  return 0;
}
