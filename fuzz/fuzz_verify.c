/* fuzz_verify.c - libFuzzer target: the CSV reader and every verifier.
 * Input: 6 bytes choosing the model and problem (the eighth problem is
 * the k-port verifier; data[4] >= 0x80 the ring verifier), then CSV text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "optcast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  oc_params p;
  oc_sched s;
  oc_verdict v;
  char err[200], *buf;
  int64_t P, root;
  int problem;
  if (size < 6) return 0;
  P = 1 + data[0] % 16;
  problem = data[4] % 8;
  root = data[5] % P;
  if (data[1] & 0x80) {
    if (oc_params_postal(&p, P, 1 + data[2] % 9, 1 + data[3] % 4) != OC_OK) return 0;
  } else if (oc_params_logp(&p, P, data[1] % 8, data[2] % 4, 1 + data[3] % 6) != OC_OK) {
    return 0;
  }
  buf = (char *)malloc(size - 6 + 1);
  if (buf == NULL) return 0;
  memcpy(buf, data + 6, size - 6);
  buf[size - 6] = '\0';
  if (data[4] & 0x80) { /* the ring: problem, lines, root or segments */
    oc_rrp_sched rs;
    oc_rrp_spec sp;
    int64_t seg[16];
    memset(&sp, 0, sizeof sp);
    sp.problem = (oc_rrp_problem)(data[4] % 3);
    sp.N = P;
    sp.L = 1 + data[2] % 4;
    if (data[3] & 0x40) { /* segments from the bits of data[1], data[5] */
      unsigned bits = (unsigned)data[1] | ((unsigned)data[5] << 8);
      sp.nseg = 0;
      seg[sp.nseg++] = 0;
      for (int64_t q = 1; q < P; q++)
        if (bits & (1u << q)) seg[sp.nseg++] = q;
      sp.seg = seg;
    } else if (sp.problem != OC_RRP_SCAN) {
      sp.root = root;
    }
    oc_rrp_sched_init(&rs);
    if (oc_rrp_read_csv(buf, size - 6, P, sp.L, &rs, err, sizeof err) == OC_OK)
      oc_verify_rrp(&sp, &rs, &v);
    oc_rrp_sched_free(&rs);
    free(buf);
    return 0;
  }
  oc_sched_init(&s);
  if (oc_sched_read_csv(buf, size - 6, &p, &s, err, sizeof err) == OC_OK) {
    switch (problem) {
    case 0: oc_verify_bcast(&p, root, 1, &s, &v); break;
    case 1: oc_verify_bcast(&p, root, 1 + data[3] % 5, &s, &v); break; /* kbcast */
    case 2: oc_verify_allreduce(&p, &s, &v); break;
    case 3: oc_verify_alltoall(&p, 1 + data[3] % 3, data[2] & 1, &s, &v); break;
    case 4: oc_verify_allreduce_ordered(&p, &s, &v); break;
    case 7: /* k-port: times read as rounds */
      oc_verify_kport(P, 1 + data[2] % 4, 1 + data[3] % 5, root, &s, &v);
      break;
    default: { /* sum / reduce: additions inferred, then checked */
      int64_t cnt[16];
      for (int64_t q = 0; q < P; q++) cnt[q] = problem == 5 ? 1 : 1 + (data[(q % 4) + 1] % 3);
      if (oc_reduce_infer(&p, root, cnt, problem == 5 && (data[2] & 1), &s) == OC_OK) {
        int64_t n = 0;
        for (int64_t q = 0; q < P; q++) n += cnt[q];
        oc_verify_reduce(&p, root, n, &s, &v);
      }
    }
    }
  }
  oc_sched_free(&s);
  free(buf);
  return 0;
}
