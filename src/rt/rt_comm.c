/* rt_comm.c - the communicator: oc_comm create / free, its settings
 * (environment, timeout, argument check, algorithm, segment size), what
 * the last call ran (oc_callinfo), its reusable scratch, and
 * oc_threads_run (P threads, one communicator each). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/oc_core.h"
#include "optcast_rt.h"
#include "rt/rt_internal.h"

int oc_comm_new(oc_comm **out, const oc_transport *tp, const oc_rtparams *params) {
  oc_comm *c;
  const char *env;
  if (out == NULL) return OC_EINVAL;
  *out = NULL;
  if (tp == NULL || tp->isend == NULL || tp->irecv == NULL || tp->wait == NULL ||
      tp->size < 1 || tp->rank < 0 || tp->rank >= tp->size || tp->tag_max < 32767)
    return OC_EINVAL;
  if (params != NULL && (params->nrows < 1 || params->nrows > OC_RTPARAMS_ROWS_MAX))
    return OC_EINVAL;
  c = (oc_comm *)calloc(1, sizeof *c);
  if (c == NULL) return OC_ENOMEM;
  c->tp = *tp;
  if (params != NULL) c->prm = *params;
  else oc_rtparams_default(&c->prm);
  c->unit_ns = 10.0;
  c->timeout_ms = 60000;
  env = getenv("OPTCAST_CHECK");
  c->check = env != NULL && strcmp(env, "1") == 0;
  c->pace = (tp->flags & OC_TRANSPORT_SHARED_LINKS) != 0;
  env = getenv("OPTCAST_PACE");
  if (env != NULL && (strcmp(env, "0") == 0 || strcmp(env, "1") == 0)) c->pace = env[0] == '1';
  c->combine_ns = c->prm.combine_ns > 0 ? c->prm.combine_ns : 0.1; /* measured, or a guess */
  env = getenv("OPTCAST_COMBINE_NS"); /* e.g. 0 where additions cost nothing (SMPI) */
  if (env != NULL) {
    char *end;
    double v = strtod(env, &end);
    if (end != env && *end == 0 && v >= 0 && v <= 1000) c->combine_ns = v;
  }
  env = getenv("OPTCAST_SEGMENT");
  if (env != NULL) {
    int64_t v;
    if (oc_parse_int(env, 0, (int64_t)1 << 40, &v) == OC_OK) c->seg_bytes = v;
  }
  env = getenv("OPTCAST_TIMEOUT_MS");
  if (env != NULL) {
    int64_t v;
    if (oc_parse_int(env, 0, OC_RT_TIMEOUT_MAX, &v) == OC_OK) c->timeout_ms = v;
  }
  *out = c;
  return OC_OK;
}

void oc_comm_free(oc_comm *c) {
  if (c == NULL) return;
  free(c->scratch);
  for (int k = 0; k < RT_NCOLL; k++) oc_mb_rank_free(&c->vmemo[k].v);
  for (int k = 0; k < RT_NKEEP; k++) free(c->keep[k]);
  free(c);
}

int oc_comm_rank(const oc_comm *c) { return c->tp.rank; }
int oc_comm_size(const oc_comm *c) { return c->tp.size; }
void oc_comm_set_timeout(oc_comm *c, int64_t ms) {
  c->timeout_ms = ms < 0 ? 0 : ms > OC_RT_TIMEOUT_MAX ? OC_RT_TIMEOUT_MAX : ms;
}
void oc_comm_set_check(oc_comm *c, int on) { c->check = on != 0; }
void oc_comm_set_pacing(oc_comm *c, int on) { c->pace = on != 0; }

/* the names are rt_choose.c's table's */
int oc_comm_set_algorithm(oc_comm *c, const char *collective, const char *algorithm) {
  int coll, alg;
  if (c == NULL || collective == NULL || algorithm == NULL) return OC_EINVAL;
  if (rt_alg_lookup(collective, algorithm, &coll, &alg) != OC_OK) return OC_EINVAL;
  c->alg[coll] = alg;
  return OC_OK;
}
void oc_comm_set_segment(oc_comm *c, int64_t bytes) {
  c->seg_bytes = bytes < 0 ? 0 : bytes;
}
void oc_comm_last_call(const oc_comm *c, oc_callinfo *out) { *out = c->last; }

void rt_begin(oc_comm *c) { memset(&c->last, 0, sizeof c->last); }

void rt_set_info(oc_comm *c, const char *alg, int64_t m, int64_t seg_bytes,
                 int64_t predicted) {
  c->last.algorithm = alg;
  c->last.segments = m;
  c->last.segment_bytes = seg_bytes;
  c->last.predicted = predicted;
  c->last.unit_ns = c->unit_ns;
}

void *rt_keep_bytes(oc_comm *c, int k, size_t bytes, void **raw) {
  *raw = NULL;
  if (bytes == 0) bytes = 1;
  if (bytes > RT_KEEP_MAX) return *raw = malloc(bytes);
  if (bytes > c->keep_cap[k]) {
    void *p = malloc(bytes);
    if (p == NULL) return NULL;
    free(c->keep[k]);
    c->keep[k] = p;
    c->keep_cap[k] = bytes;
  }
  return c->keep[k];
}

char *rt_keep_alloc(oc_comm *c, int k, const oc_elem *el, int64_t n, void **raw) {
  char *p;
  *raw = NULL;
  if (n < 1) n = 1;
  if ((uint64_t)(n - 1) > (SIZE_MAX - el->true_extent) / (el->extent ? el->extent : 1))
    return NULL;
  p = (char *)rt_keep_bytes(c, k, (size_t)(n - 1) * el->extent + el->true_extent, raw);
  return p == NULL ? NULL : p - el->true_lb;
}

/* one allocation reused by every call, so a short call allocates nothing */
void *rt_scratch(oc_comm *c, size_t bytes, size_t zero_from) {
  if (bytes > c->scratch_cap) {
    void *p = malloc(bytes);
    if (p == NULL) return NULL;
    free(c->scratch);
    c->scratch = p;
    c->scratch_cap = bytes;
  }
  if (zero_from < bytes) memset((char *)c->scratch + zero_from, 0, bytes - zero_from);
  return c->scratch;
}

/* ---- P threads ---------------------------------------------------------------------- */

typedef struct thr_arg {
  oc_threads *w;
  const oc_rtparams *params;
  int64_t timeout_ms;
  int rank;
  oc_rank_fn *fn;
  void *arg;
  int rc;
} thr_arg;

static void *thr_main(void *p) {
  thr_arg *a = (thr_arg *)p;
  oc_transport tp;
  oc_comm *c = NULL;
  a->rc = oc_threads_endpoint(a->w, a->rank, &tp);
  if (a->rc == OC_OK) a->rc = oc_comm_new(&c, &tp, a->params);
  if (a->rc == OC_OK) {
    if (a->timeout_ms >= 0) oc_comm_set_timeout(c, a->timeout_ms);
    a->rc = a->fn(c, a->arg);
  }
  oc_comm_free(c);
  return NULL;
}

int oc_threads_run(int P, const oc_rtparams *params, int64_t timeout_ms,
                   oc_rank_fn *fn, void *arg, int *rcs) {
  oc_threads *w = NULL;
  thr_arg *a;
  pthread_t *th;
  int e, started = 0;
  if (P < 1 || fn == NULL) return OC_EINVAL;
  if ((e = oc_threads_new(&w, P)) != OC_OK) return e;
  a = (thr_arg *)calloc((size_t)P, sizeof *a);
  th = (pthread_t *)calloc((size_t)P, sizeof *th);
  if (a == NULL || th == NULL) {
    e = OC_ENOMEM;
    goto out;
  }
  for (int r = 0; r < P; r++) {
    a[r].w = w;
    a[r].params = params;
    a[r].timeout_ms = timeout_ms;
    a[r].rank = r;
    a[r].fn = fn;
    a[r].arg = arg;
    if (pthread_create(&th[r], NULL, thr_main, &a[r]) != 0) {
      e = OC_ETRANSPORT;
      break;
    }
    started++;
  }
  for (int r = 0; r < started; r++) pthread_join(th[r], NULL);
  if (rcs != NULL)
    for (int r = 0; r < P; r++) rcs[r] = r < started ? a[r].rc : e;
out:
  free(a);
  free(th);
  oc_threads_free(w);
  return e;
}
