/* rt_exec.c - the executor: runs a rank's own plan over a transport.
 *
 * Every collective builds only the calling rank's part of the model's
 * schedule (oc_bcast_rank, oc_reduce_rank: O(log P) set-up, no O(P)
 * state; cached per communicator for the next call of the same shape) and
 * runs it with non-blocking sends and receives.
 *
 * Broadcast: Karp et al.'s optimal LogP tree, run as Bar-Noy & Kipnis's
 * PIPELINE when the buffer is cut into m segments: a node receives the
 * segments from its parent and streams all m of them to child 0, then to
 * child 1, ...; each segment is forwarded as soon as it has arrived.  In
 * LogP terms a child is "sent" in m G time units (G = max(g, o) at the
 * segment's size) and can forward after L + 2o, so the tree is the optimal
 * tree for (L, o, mG) and the last segment lands at
 *   T_bcast(m) = B_{L,o,mG}(P) + (m - 1) G.
 * m is the power of two (or 1) minimising T_bcast(m) under the
 * communicator's parameters (oc_rtparams at the segment's size), at most
 * OC_RT_SEGMENTS_MAX; the caller may fix the segment size instead.
 *
 * Reduce: the time-reversed optimal tree of oc_reduce_new (Karp et al.
 * section 5; rank-order fold for non-commutative operators), pipelined the
 * same way: segment j of every child is received and combined into the
 * accumulator, then sent up while segment j + 1 arrives.  A combination
 * costs a = COMBINE_NS_PER_BYTE per byte, folded into o for the model:
 *   T_reduce(m) = R_{L,o+a,mG'}(P) + (m - 1) G',  G' = max(g, o + a).
 * Children are combined in rank order: left of the node nearest first,
 * each prepended (in op acc), right of it nearest first, appended.
 *
 * Allreduce: reduce to rank 0, then broadcast from it (2 trees; see
 * docs/RUNTIME.md for what that leaves on the table).
 * Allgather: Karp et al. section 4.1: rank i sends its block to i + 1,
 * i + 2, ..., i + P - 1 (mod P) and receives every other block; optimal
 * for one item per rank in LogP (P - 1 sends and receives each).
 * Scan: recursive doubling (Hillis & Steele): ceil(log2 P) rounds, round d
 * sends the partial prefix to rank r + 2^d and prepends the one from
 * r - 2^d; rank order is kept for any operator.
 *
 * Matching: each call takes the next sequence number of the communicator;
 * the tag mixes it with the call's kind, root, segment count and model
 * parameters, so ranks that disagree on any of them do not exchange
 * messages (they time out) and a message of the wrong size is caught
 * (OC_EMISMATCH). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/oc_core.h"
#include "optcast_rt.h"
#include "rt/rt_internal.h"

#define COMBINE_NS_PER_BYTE 0.1 /* a vectorised sum: ~20 us per MiB here */
#define SEND_WINDOW 64

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- communicator ---------------------------------------------------------- */

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
  rt_plan_clear(&c->bplan);
  rt_plan_clear(&c->rplan);
  free(c->scratch);
  free(c);
}

int oc_comm_rank(const oc_comm *c) { return c->tp.rank; }
int oc_comm_size(const oc_comm *c) { return c->tp.size; }
void oc_comm_set_timeout(oc_comm *c, int64_t ms) {
  c->timeout_ms = ms < 0 ? 0 : ms > OC_RT_TIMEOUT_MAX ? OC_RT_TIMEOUT_MAX : ms;
}
void oc_comm_set_check(oc_comm *c, int on) { c->check = on != 0; }

/* the choices as data: (collective, name) -> which field, which value */
static const struct {
  const char *coll, *name;
  int scan, alg;
} ALG_TABLE[] = {
    {"allreduce", "auto", 0, RT_ALG_AUTO}, {"allreduce", "tree", 0, RT_ALG_TREE},
    {"allreduce", "ring", 0, RT_ALG_RING}, {"allreduce", "doubling", 0, RT_ALG_DOUBLING},
    {"scan", "auto", 1, RT_ALG_AUTO},
    {"scan", "doubling", 1, RT_ALG_DOUBLING}, {"scan", "chain", 1, RT_ALG_CHAIN},
};

int oc_comm_set_algorithm(oc_comm *c, const char *collective, const char *algorithm) {
  if (c == NULL || collective == NULL || algorithm == NULL) return OC_EINVAL;
  for (size_t i = 0; i < sizeof ALG_TABLE / sizeof ALG_TABLE[0]; i++)
    if (strcmp(ALG_TABLE[i].coll, collective) == 0 && strcmp(ALG_TABLE[i].name, algorithm) == 0) {
      if (ALG_TABLE[i].scan) c->scan_alg = ALG_TABLE[i].alg;
      else c->allreduce_alg = ALG_TABLE[i].alg;
      return OC_OK;
    }
  return OC_EINVAL;
}
void oc_comm_set_segment(oc_comm *c, int64_t bytes) {
  c->seg_bytes = bytes < 0 ? 0 : bytes;
  rt_plan_clear(&c->bplan);
  rt_plan_clear(&c->rplan);
}
void oc_comm_last_call(const oc_comm *c, oc_callinfo *out) { *out = c->last; }

/* ---- transport helpers ---------------------------------------------------------- */

static int64_t deadline(const oc_comm *c) {
  return c->timeout_ms == 0 ? -1 : now_ns() + c->timeout_ms * 1000000;
}

int rt_xsend(oc_comm *c, const void *buf, int64_t n, const oc_elem *el,
                 int peer, int tag, oc_req *r) {
  c->last.sends++;
  return c->tp.isend(c->tp.ctx, buf, n, el, peer, tag, r);
}

int rt_xrecv(oc_comm *c, void *buf, int64_t n, const oc_elem *el, int peer,
                 int tag, oc_req *r) {
  c->last.recvs++;
  return c->tp.irecv(c->tp.ctx, buf, n, el, peer, tag, r);
}

/* wait for r; expect >= 0: a receive of exactly that many elements */
int rt_xwait(oc_comm *c, oc_req *r, int64_t expect) {
  int64_t got = -1;
  int e = c->tp.wait(c->tp.ctx, r, deadline(c), &got);
  if (e == OC_ETIMEDOUT && c->tp.cancel != NULL) c->tp.cancel(c->tp.ctx, r);
  if (e == OC_OK && expect >= 0 && got != expect) e = OC_EMISMATCH;
  return e;
}

/* abandon receives after an error (cancelled); callers wait for their
 * sends themselves (MPI cannot cancel a send), with the deadline */
void rt_drain(oc_comm *c, oc_req *r, int64_t n, const unsigned char *live) {
  for (int64_t i = 0; i < n; i++)
    if (live == NULL || live[i]) {
      if (c->tp.cancel != NULL) c->tp.cancel(c->tp.ctx, &r[i]);
    }
}

/* bytes of zeroed scratch owned by the communicator (request arrays): one
 * allocation reused by every call, so a short call allocates nothing */
static void *scratch(oc_comm *c, size_t bytes) {
  if (bytes > c->scratch_cap) {
    void *p = malloc(bytes);
    if (p == NULL) return NULL;
    free(c->scratch);
    c->scratch = p;
    c->scratch_cap = bytes;
  }
  memset(c->scratch, 0, bytes);
  return c->scratch;
}

static char *at(const void *base, int64_t i, const oc_elem *el) {
  return (char *)base + (size_t)i * el->extent;
}

/* a buffer of n >= 1 elements laid out like the caller's */
char *rt_tmp_alloc(const oc_elem *el, int64_t n, void **raw) {
  size_t bytes;
  *raw = NULL;
  if (n < 1) n = 1;
  if ((uint64_t)(n - 1) > (SIZE_MAX - el->true_extent) / (el->extent ? el->extent : 1))
    return NULL;
  bytes = (size_t)(n - 1) * el->extent + el->true_extent;
  *raw = malloc(bytes ? bytes : 1);
  if (*raw == NULL) return NULL;
  return (char *)*raw - el->true_lb;
}

void rt_copy_elems(void *dst, const void *src, int64_t n, const oc_elem *el) {
  if (n <= 0 || dst == src) return;
  if (el->copy != NULL) {
    (void)el->copy(el, dst, src, n); /* cannot fail once the type was accepted */
    return;
  }
  memcpy((char *)dst + el->true_lb, (const char *)src + el->true_lb,
         (size_t)(n - 1) * el->extent + el->true_extent);
}

/* the element description, and a count whose bytes fit the runtime's range
 * (count x extent <= OC_RT_BYTES_MAX, so no size or offset can wrap) */
static int check_elem(const oc_elem *el, int combining, int64_t count) {
  if (el == NULL || el->extent == 0 || el->true_extent == 0 || count < 0) return OC_EINVAL;
  if (combining && el->combine == NULL) return OC_EINVAL;
  if ((uint64_t)count > (uint64_t)OC_RT_BYTES_MAX / el->extent) return OC_ERANGE;
  return OC_OK;
}

/* ---- tags ---------------------------------------------------------------------- */

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

/* The next call's tag: 10 bits of sequence number, the rest a signature. */
/* the tags used: the largest power of two <= tag_max + 1 (>= 2^15), so the
 * low 10 bits are the sequence number exactly */
static uint64_t tag_mask(const oc_comm *c) {
  uint64_t r = 1;
  while (r * 2 <= (uint64_t)c->tp.tag_max + 1) r *= 2;
  return r - 1;
}

int rt_next_tag(oc_comm *c, int kind, int root, int64_t m, const oc_params *p) {
  uint64_t h = mix(mix(mix(0, (uint64_t)kind), (uint64_t)root), (uint64_t)m);
  if (p != NULL) h = mix(mix(mix(h, (uint64_t)p->L), (uint64_t)p->o), (uint64_t)p->g);
  c->seq++;
  return (int)(((h << 10) | (c->seq & 1023)) & tag_mask(c));
}

/* ---- argument check -------------------------------------------------------------
 * Dissemination (Hensgen, Finkel & Manber): in round d every rank sends its
 * running (min, max) of the signatures to r + 2^d and folds in the one from
 * r - 2^d (mod P); after ceil(log2 P) rounds every rank holds the global
 * min and max, equal exactly when all signatures are. */
int rt_agree(oc_comm *c, int kind, int root, int64_t count, const oc_elem *el) {
  uint64_t mine[2], in[2], sig;
  oc_elem byte;
  int P = c->tp.size, me = c->tp.rank, tag, e = OC_OK;
  if (!c->check) return OC_OK;
  sig = mix(mix(mix(mix(0, (uint64_t)kind), (uint64_t)root), (uint64_t)count),
            el != NULL ? (uint64_t)el->extent : 0);
  if (el != NULL && el->combine != NULL)
    sig = mix(mix(sig, (uint64_t)el->commutative + 2),
              el->handle == NULL ? (uint64_t)el->op.kind + 1 : 0);
  memset(&byte, 0, sizeof byte);
  byte.extent = 1;
  byte.true_extent = 1;
  byte.handle = c->tp.byte_handle;
  c->seq++;
  tag = (int)(c->seq & 1023); /* < 2^15 <= tag_max + 1 */
  mine[0] = mine[1] = sig;
  for (int64_t d = 1; d < P && e == OC_OK; d *= 2) {
    oc_req s, r;
    uint64_t out[2] = {mine[0], mine[1]};
    e = rt_xsend(c, out, 16, &byte, (int)((me + d) % P), tag, &s);
    if (e) break;
    e = rt_xrecv(c, in, 16, &byte, (int)((me - d % P + P) % P), tag, &r);
    if (e == OC_OK) e = rt_xwait(c, &r, 16);
    if (e == OC_OK) {
      if (in[0] < mine[0]) mine[0] = in[0];
      if (in[1] > mine[1]) mine[1] = in[1];
    }
    {
      int e2 = rt_xwait(c, &s, -1);
      if (e == OC_OK) e = e2;
    }
  }
  if (e == OC_OK && mine[0] != mine[1]) e = OC_EMISMATCH;
  c->last.sends = c->last.recvs = 0; /* count the collective's own messages */
  return e;
}

/* ---- plans ----------------------------------------------------------------------- */

void rt_plan_clear(rt_plan *pl) {
  free(pl->kids);
  memset(pl, 0, sizeof *pl);
}

static int64_t seg_len(int64_t count, int64_t m) { return (count + m - 1) / m; }

/* model for kind at segment size `bytes`: stream tree parameters */
static int stream_params(const oc_comm *c, int kind, int64_t bytes, int64_t m,
                         oc_params *tree, int64_t *G) {
  oc_params q;
  int e = oc_rtparams_model(&c->prm, bytes, c->tp.size, c->unit_ns, &q);
  int64_t o = q.o;
  if (e) return e;
  if (kind == RT_REDUCE) {
    double a = COMBINE_NS_PER_BYTE * (double)bytes / c->unit_ns;
    o = oc_add_sat(o, (int64_t)a + 1);
  }
  *G = oc_max64(q.g, o);
  if (*G > OC_PARAM_MAX / m) return OC_ERANGE;
  return oc_params_logp(tree, c->tp.size, q.L, oc_min64(o, OC_PARAM_MAX),
                        *G * m);
}

static int predict(const oc_comm *c, int kind, int64_t bytes, int64_t m,
                   oc_params *tree, int64_t *t) {
  int64_t G, b;
  int e = stream_params(c, kind, bytes, m, tree, &G);
  if (e) return e;
  e = kind == RT_REDUCE ? oc_reduce_time(tree, &b) : oc_bcast_time(tree, &b);
  if (e) return e;
  *t = oc_add_sat(b, oc_mul_sat(m - 1, G));
  return OC_OK;
}

/* The model at one message size: L, o, G = max(g, o) and a combination's
 * cost a, in model units. */
static int costs_at(const oc_comm *c, int64_t bytes, int64_t *L, int64_t *o, int64_t *G,
                    int64_t *a) {
  oc_params q;
  int e = oc_rtparams_model(&c->prm, bytes, c->tp.size, c->unit_ns, &q);
  if (e) return e;
  *L = q.L;
  *o = q.o;
  *G = oc_max64(q.g, q.o);
  *a = (int64_t)(COMBINE_NS_PER_BYTE * (double)bytes / c->unit_ns) + 1;
  return OC_OK;
}

/* Choose the segment count and build this rank's part of the tree. */
static int plan_get(oc_comm *c, rt_plan *pl, int kind, int64_t count,
                    const oc_elem *el, int root, int ordered) {
  int64_t best_m = 1, best_t = OC_SAT, m;
  oc_params best_p, tree;
  int e;
  if (pl->valid && pl->count == count && pl->extent == el->extent &&
      pl->root == root && pl->ordered == ordered)
    return OC_OK;
  rt_plan_clear(pl);
  memset(&best_p, 0, sizeof best_p);
  if (c->seg_bytes > 0) {
    int64_t per = oc_max64(1, c->seg_bytes / (int64_t)el->extent);
    best_m = (count + per - 1) / per;
    if (best_m < 1) best_m = 1;
    e = predict(c, kind, (int64_t)el->extent * seg_len(count, best_m), best_m,
                &best_p, &best_t);
    if (e) return e;
  } else {
    for (m = 1; m <= OC_RT_SEGMENTS_MAX && m <= oc_max64(count, 1); m *= 2) {
      int64_t len = seg_len(count, m), mm = count > 0 ? seg_len(count, len) : 1, t;
      if (m > 1 && len * (int64_t)el->extent < OC_RT_SEGMENT_MIN) break;
      e = predict(c, kind, (int64_t)el->extent * len, mm, &tree, &t);
      if (e == OC_ERANGE) break; /* segments too many for the model's range */
      if (e) return e;
      if (t < best_t) {
        best_t = t;
        best_m = mm;
        best_p = tree;
      }
    }
    if (best_t == OC_SAT) return OC_ERANGE;
  }
  pl->m = best_m;
  pl->len = seg_len(count, best_m);
  pl->predicted = best_t;
  pl->params = best_p;
  if (kind == RT_BCAST) {
    oc_bcast *b = NULL;
    oc_bcast_view v;
    e = oc_bcast_new(&b, &best_p, root, OC_BCAST_KARP);
    if (e == OC_OK) e = oc_bcast_rank(b, c->tp.rank, &v);
    if (e == OC_OK) {
      pl->parent = (int)v.parent;
      pl->nkids = v.nchildren;
      pl->kids = (int *)malloc((size_t)oc_max64(1, v.nchildren) * sizeof *pl->kids);
      if (pl->kids == NULL) e = OC_ENOMEM;
      for (int64_t k = 0; e == OC_OK && k < v.nchildren; k++) {
        int64_t kr, st;
        e = oc_bcast_child(b, &v, k, &kr, &st);
        pl->kids[k] = (int)kr;
      }
    }
    oc_bcast_free(b);
  } else {
    oc_reduce *r = NULL;
    oc_reduce_view v;
    e = oc_reduce_new(&r, &best_p, root, ordered);
    if (e == OC_OK) e = oc_reduce_rank(r, c->tp.rank, &v);
    if (e == OC_OK) {
      int64_t nl = 0, k;
      int *tmp;
      pl->parent = (int)v.parent;
      pl->nkids = v.nchildren;
      pl->kids = (int *)malloc((size_t)oc_max64(1, 2 * v.nchildren) * sizeof *pl->kids);
      if (pl->kids == NULL) e = OC_ENOMEM;
      tmp = pl->kids == NULL ? NULL : pl->kids + v.nchildren;
      for (k = 0; e == OC_OK && k < v.nchildren; k++) {
        int64_t kr, st;
        e = oc_reduce_child(r, &v, k, &kr, &st);
        if (tmp != NULL) tmp[k] = (int)kr;
      }
      if (e == OC_OK) {
        /* combine order: arrival order (child 0 sends last) when the
         * operator commutes; else left children nearest first, then
         * right children nearest first */
        if (!ordered) {
          for (k = 0; k < v.nchildren; k++) pl->kids[k] = tmp[v.nchildren - 1 - k];
          pl->nleft = v.nchildren;
        } else {
          int me = c->tp.rank;
          for (k = 0; k < v.nchildren; k++)
            if (tmp[k] < me) pl->kids[nl++] = tmp[k];
          pl->nleft = nl;
          for (k = 0; k < v.nchildren; k++)
            if (tmp[k] > me) pl->kids[nl++] = tmp[k];
          /* insertion sorts: left descending, right ascending */
          for (int64_t i = 1; i < pl->nleft; i++)
            for (int64_t j = i; j > 0 && pl->kids[j] > pl->kids[j - 1]; j--) {
              int s = pl->kids[j];
              pl->kids[j] = pl->kids[j - 1];
              pl->kids[j - 1] = s;
            }
          for (int64_t i = pl->nleft + 1; i < nl; i++)
            for (int64_t j = i; j > pl->nleft && pl->kids[j] < pl->kids[j - 1]; j--) {
              int s = pl->kids[j];
              pl->kids[j] = pl->kids[j - 1];
              pl->kids[j - 1] = s;
            }
          if (nl != v.nchildren) e = OC_EINVAL; /* a child equal to me */
        }
      }
    }
    oc_reduce_free(r);
  }
  if (e) {
    rt_plan_clear(pl);
    return e;
  }
  pl->count = count;
  pl->extent = el->extent;
  pl->root = root;
  pl->ordered = ordered;
  pl->valid = 1;
  return OC_OK;
}

static void set_info(oc_comm *c, const char *alg, const rt_plan *pl,
                     const oc_elem *el) {
  c->last.algorithm = alg;
  c->last.segments = pl != NULL ? pl->m : 1;
  c->last.segment_bytes = pl != NULL ? pl->len * (int64_t)el->extent : 0;
  c->last.predicted = pl != NULL ? pl->predicted : -1;
  c->last.unit_ns = c->unit_ns;
}

static void begin(oc_comm *c) {
  memset(&c->last, 0, sizeof c->last);
}

/* ---- a window of sends in flight ------------------------------------------------
 * Sends are posted non-blocking; at most SEND_WINDOW are in flight, the
 * oldest waited for before a new one.  win_drain waits for the rest. */
typedef struct sendwin {
  oc_req *r; /* SEND_WINDOW requests */
  int64_t ns, head;
} sendwin;

static int win_send(oc_comm *c, sendwin *w, const void *buf, int64_t n, const oc_elem *el,
                    int peer, int tag) {
  int e;
  if (w->ns - w->head == SEND_WINDOW) {
    if ((e = rt_xwait(c, &w->r[w->head % SEND_WINDOW], -1)) != OC_OK) return e;
    w->head++;
  }
  e = rt_xsend(c, buf, n, el, peer, tag, &w->r[w->ns % SEND_WINDOW]);
  if (e == OC_OK) w->ns++;
  return e;
}

/* every send still in flight; e, or the first error of these */
static int win_drain(oc_comm *c, sendwin *w, int e) {
  for (; w->head < w->ns; w->head++) {
    int e2 = rt_xwait(c, &w->r[w->head % SEND_WINDOW], -1);
    if (e == OC_OK) e = e2;
  }
  return e;
}

/* ---- broadcast ---------------------------------------------------------------------- */

int oc_exec_bcast(oc_comm *c, void *buf, int64_t count, const oc_elem *el, int root) {
  rt_plan *pl;
  oc_req *rr = NULL;
  sendwin sw = {NULL, 0, 0};
  unsigned char *have = NULL, *rlive = NULL;
  int64_t m, len;
  int e, tag, P;
  if (c == NULL) return OC_EINVAL;
  P = c->tp.size;
  begin(c);
  if ((e = check_elem(el, 0, count)) != OC_OK) return e;
  if (count < 0 || root < 0 || root >= P || (buf == NULL && count > 0)) return OC_EINVAL;
  if ((e = rt_agree(c, RT_BCAST, root, count, el)) != OC_OK) return e;
  pl = &c->bplan;
  if ((e = plan_get(c, pl, RT_BCAST, count, el, root, 0)) != OC_OK) return e;
  tag = rt_next_tag(c, RT_BCAST, root, pl->m, &pl->params);
  set_info(c, "karp-pipeline", pl, el);
  if (count == 0 || P == 1) return OC_OK;
  m = pl->m;
  len = pl->len;
  {
    /* requests: m receives, SEND_WINDOW sends; then the two flag arrays */
    size_t nreq = (size_t)m + SEND_WINDOW;
    char *base = (char *)scratch(c, nreq * sizeof(oc_req) + 2 * (size_t)m);
    if (base == NULL) return OC_ENOMEM;
    rr = (oc_req *)(void *)base;
    sw.r = rr + m;
    have = (unsigned char *)(base + nreq * sizeof(oc_req));
    rlive = have + m;
  }
  if (pl->parent >= 0) {
    for (int64_t j = 0; j < m && e == OC_OK; j++) {
      int64_t n = oc_min64(len, count - j * len);
      e = rt_xrecv(c, at(buf, j * len, el), n, el, pl->parent, tag, &rr[j]);
      if (e == OC_OK) rlive[j] = 1;
    }
  } else {
    memset(have, 1, (size_t)m);
  }
  for (int64_t k = 0; k < pl->nkids && e == OC_OK; k++)
    for (int64_t j = 0; j < m && e == OC_OK; j++) {
      int64_t n = oc_min64(len, count - j * len);
      if (!have[j]) {
        rlive[j] = 0;
        if ((e = rt_xwait(c, &rr[j], n)) != OC_OK) break;
        have[j] = 1;
      }
      e = win_send(c, &sw, at(buf, j * len, el), n, el, pl->kids[k], tag);
    }
  for (int64_t j = 0; j < m && e == OC_OK; j++)
    if (!have[j]) {
      rlive[j] = 0;
      e = rt_xwait(c, &rr[j], oc_min64(len, count - j * len));
      have[j] = 1;
    }
  e = win_drain(c, &sw, e);
  if (e != OC_OK) rt_drain(c, rr, m, rlive);
  return e;
}

/* ---- reduce --------------------------------------------------------------------------- */

/* acc := child (op) acc when left, acc (op) child when right */
static int fold(const oc_elem *el, char *acc, char *child, int64_t n, int left) {
  int e;
  if (left) return el->combine(el, child, acc, n);
  e = el->combine(el, acc, child, n);
  if (e == OC_OK) rt_copy_elems(acc, child, n, el);
  return e;
}

/* Reduce into `result` (root) or up to the parent; own: this rank's data. */
static int reduce_run(oc_comm *c, const void *own, void *result, int64_t count,
                      const oc_elem *el, int root) {
  rt_plan *pl = &c->rplan;
  int ordered = !el->commutative;
  int64_t m, len, nk;
  oc_req *rr = NULL;
  sendwin sw = {NULL, 0, 0};
  unsigned char *rlive = NULL;
  void *traw = NULL, *araw = NULL;
  char *tmp = NULL, *acc;
  int e, tag;
  if ((e = plan_get(c, pl, RT_REDUCE, count, el, root, ordered)) != OC_OK) return e;
  tag = rt_next_tag(c, RT_REDUCE, root, pl->m, &pl->params);
  set_info(c, ordered ? "karp-reduce-ordered" : "karp-reduce", pl, el);
  if (count == 0) return OC_OK;
  if (c->tp.size == 1) {
    rt_copy_elems(result, own, count, el);
    return OC_OK;
  }
  m = pl->m;
  len = pl->len;
  nk = pl->nkids;
  if (pl->parent < 0) {
    acc = (char *)result;
    rt_copy_elems(acc, own, count, el);
  } else if (nk == 0) {
    acc = (char *)own; /* a leaf sends its own data */
  } else {
    acc = rt_tmp_alloc(el, count, &araw);
    if (acc == NULL) return OC_ENOMEM;
    rt_copy_elems(acc, own, count, el);
  }
  {
    /* requests: 2 nk receives (double-buffered), SEND_WINDOW sends; flags */
    size_t nreq = 2 * (size_t)nk + SEND_WINDOW;
    char *base = (char *)scratch(c, nreq * sizeof(oc_req) + 2 * (size_t)nk);
    if (base == NULL) {
      e = OC_ENOMEM;
      goto out;
    }
    rr = (oc_req *)(void *)base;
    sw.r = rr + 2 * nk;
    rlive = (unsigned char *)(base + nreq * sizeof(oc_req));
  }
  if (nk > 0) {
    tmp = rt_tmp_alloc(el, 2 * nk * len, &traw);
    if (tmp == NULL) {
      e = OC_ENOMEM;
      goto out;
    }
  }
  for (int64_t j = 0; j <= m && e == OC_OK; j++) {
    /* post segment j's receives, then fold and send segment j - 1 */
    if (j < m)
      for (int64_t k = 0; k < nk && e == OC_OK; k++) {
        int64_t b = (j % 2) * nk + k, n = oc_min64(len, count - j * len);
        e = rt_xrecv(c, at(tmp, b * len, el), n, el, pl->kids[k], tag, &rr[b]);
        if (e == OC_OK) rlive[b] = 1;
      }
    if (j == 0 || e != OC_OK) continue;
    {
      int64_t s = j - 1, n = oc_min64(len, count - s * len);
      char *a = at(acc, s * len, el);
      for (int64_t k = 0; k < nk && e == OC_OK; k++) {
        int64_t b = (s % 2) * nk + k;
        rlive[b] = 0;
        e = rt_xwait(c, &rr[b], n);
        if (e == OC_OK) e = fold(el, a, at(tmp, b * len, el), n, k < pl->nleft);
      }
      if (e == OC_OK && pl->parent >= 0) {
        e = win_send(c, &sw, a, n, el, pl->parent, tag);
      }
    }
  }
  e = win_drain(c, &sw, e);
  if (e != OC_OK && rr != NULL) rt_drain(c, rr, 2 * nk, rlive);
out:
  free(traw);
  free(araw);
  return e;
}

int oc_exec_reduce(oc_comm *c, const void *sendbuf, void *recvbuf, int64_t count,
                   const oc_elem *el, int root) {
  const void *own;
  int e;
  if (c == NULL) return OC_EINVAL;
  begin(c);
  if ((e = check_elem(el, 1, count)) != OC_OK) return e;
  if (count < 0 || root < 0 || root >= c->tp.size) return OC_EINVAL;
  if (sendbuf == OC_IN_PLACE && c->tp.rank != root) return OC_EINVAL;
  own = sendbuf == OC_IN_PLACE ? recvbuf : sendbuf;
  if (count > 0 && (own == NULL || (c->tp.rank == root && recvbuf == NULL)))
    return OC_EINVAL;
  if ((e = rt_agree(c, RT_REDUCE, root, count, el)) != OC_OK) return e;
  return reduce_run(c, own, recvbuf, count, el, root);
}

/* ---- ring allreduce (commutative operators, long messages) -------------------
 * Patarasuk & Yuan's bandwidth-optimal allreduce: the buffer in P blocks;
 * P - 1 ring steps of reduce-scatter (send block r - s to the right,
 * combine block r - s - 1 from the left), after which rank r holds block
 * r + 1 complete, then P - 1 steps of allgather around the same ring.
 * Each rank sends 2 (P - 1) / P of the buffer, the least any allreduce can;
 *   T_ring = 2 (P - 1) max(G, L + 2o) + (P - 1) a   at a block's size.
 * The fold order differs between blocks, so only for commutative
 * operators; used when the model puts it below reduce + broadcast. */
static int64_t blk_lo(int64_t count, int P, int b) {
  return (count / P) * b + oc_min64(b, count % P);
}
static int64_t blk_len(int64_t count, int P, int b) {
  return count / P + (b < count % P ? 1 : 0);
}

static int ring_predict(const oc_comm *c, int64_t count, const oc_elem *el, int64_t *t) {
  int64_t L, o, G, a, P = c->tp.size, b = blk_len(count, (int)P, 0) * (int64_t)el->extent;
  int e = costs_at(c, b, &L, &o, &G, &a);
  if (e) return e;
  *t = oc_add_sat(oc_mul_sat(2 * (P - 1), oc_max64(G, oc_add_sat(L, 2 * o))),
                  oc_mul_sat(P - 1, a));
  return OC_OK;
}

static int allreduce_ring(oc_comm *c, char *res, int64_t count, const oc_elem *el) {
  int P = c->tp.size, me = c->tp.rank, right = (me + 1) % P, left = (me + P - 1) % P;
  int tag = rt_next_tag(c, RT_ALLREDUCE, -1, P, NULL), e = OC_OK;
  void *raw = NULL;
  char *tmp = rt_tmp_alloc(el, blk_len(count, P, 0), &raw);
  if (tmp == NULL) return OC_ENOMEM;
  for (int phase = 0; phase < 2 && e == OC_OK; phase++)
    for (int st = 0; st < P - 1 && e == OC_OK; st++) {
      /* phase 0: reduce-scatter; phase 1: allgather of the finished blocks */
      int sb = ((phase == 0 ? me - st : me + 1 - st) % P + P) % P;
      int rb = ((phase == 0 ? me - st - 1 : me - st) % P + P) % P;
      int64_t rn = blk_len(count, P, rb);
      char *into = phase == 0 ? tmp : at(res, blk_lo(count, P, rb), el);
      oc_req sq, rq;
      e = rt_xrecv(c, into, rn, el, left, tag, &rq);
      if (e) break;
      e = rt_xsend(c, at(res, blk_lo(count, P, sb), el), blk_len(count, P, sb), el, right, tag, &sq);
      if (e) {
        rt_drain(c, &rq, 1, NULL);
        break;
      }
      e = rt_xwait(c, &rq, rn);
      if (e == OC_OK && phase == 0) e = el->combine(el, tmp, at(res, blk_lo(count, P, rb), el), rn);
      {
        int e2 = rt_xwait(c, &sq, -1);
        if (e == OC_OK) e = e2;
      }
    }
  free(raw);
  return e;
}

/* ---- scan as a pipelined chain (long messages) ----------------------------------
 * Rank r receives segment j of x_0 .. x_{r-1} from r - 1, prepends it to
 * its own segment j and passes segment j of x_0 .. x_r to r + 1 at once:
 *   T_chain(m) = (P - 1)(L + 2o + a) + (m - 1)(G + a)   at the segment size,
 * against recursive doubling's ceil(log2 P)(L + 2o + a) at the whole
 * size; the executor runs whichever the model puts lower (rank order kept
 * either way). */
static int scan_choose(const oc_comm *c, int64_t count, const oc_elem *el, int64_t *best_m,
                       int64_t *best_t) {
  int64_t L, o, G, a, P = c->tp.size, rounds = 0, t;
  int e = costs_at(c, count * (int64_t)el->extent, &L, &o, &G, &a);
  if (e) return e;
  while (((int64_t)1 << rounds) < P) rounds++;
  *best_m = 0; /* 0: recursive doubling */
  *best_t = oc_mul_sat(rounds, oc_add_sat(oc_add_sat(L, 2 * o), a));
  if (c->scan_alg == RT_ALG_DOUBLING) return OC_OK;
  if (c->scan_alg == RT_ALG_CHAIN) *best_t = OC_SAT;
  for (int64_t m = 1; m <= OC_RT_SEGMENTS_MAX && m <= count; m *= 2) {
    int64_t len = seg_len(count, m), mm = seg_len(count, len);
    if (c->seg_bytes > 0) { /* the caller's segment size */
      len = oc_max64(1, c->seg_bytes / (int64_t)el->extent);
      mm = seg_len(count, len);
    } else if (m > 1 && len * (int64_t)el->extent < OC_RT_SEGMENT_MIN) {
      break;
    }
    if ((e = costs_at(c, len * (int64_t)el->extent, &L, &o, &G, &a)) != OC_OK) return e;
    t = oc_add_sat(oc_mul_sat(P - 1, oc_add_sat(oc_add_sat(L, 2 * o), a)),
                   oc_mul_sat(mm - 1, oc_add_sat(G, a)));
    if (t < *best_t) {
      *best_t = t;
      *best_m = mm;
    }
    if (c->seg_bytes > 0) break;
  }
  return OC_OK;
}

static int scan_chain(oc_comm *c, char *res, int64_t count, const oc_elem *el, int64_t m,
                      int tag) {
  int P = c->tp.size, me = c->tp.rank, e = OC_OK;
  int64_t len = seg_len(count, m);
  oc_req *rq = NULL;
  sendwin sw = {NULL, 0, 0};
  unsigned char *live = NULL;
  void *raw = NULL;
  char *tmp = NULL;
  {
    size_t nreq = (size_t)m + SEND_WINDOW;
    char *base = (char *)scratch(c, nreq * sizeof(oc_req) + (size_t)m);
    if (base == NULL) return OC_ENOMEM;
    rq = (oc_req *)(void *)base;
    sw.r = rq + m;
    live = (unsigned char *)(base + nreq * sizeof(oc_req));
  }
  if (me > 0 && (tmp = rt_tmp_alloc(el, count, &raw)) == NULL) return OC_ENOMEM;
  if (me > 0)
    for (int64_t j = 0; j < m && e == OC_OK; j++) {
      e = rt_xrecv(c, at(tmp, j * len, el), oc_min64(len, count - j * len), el, me - 1, tag,
                   &rq[j]);
      if (e == OC_OK) live[j] = 1;
    }
  for (int64_t j = 0; j < m && e == OC_OK; j++) {
    int64_t n = oc_min64(len, count - j * len);
    if (me > 0) {
      live[j] = 0;
      e = rt_xwait(c, &rq[j], n);
      if (e == OC_OK) e = el->combine(el, at(tmp, j * len, el), at(res, j * len, el), n);
    }
    if (e == OC_OK && me < P - 1) {
      e = win_send(c, &sw, at(res, j * len, el), n, el, me + 1, tag);
    }
  }
  e = win_drain(c, &sw, e);
  if (e != OC_OK) rt_drain(c, rq, m, live);
  free(raw);
  return e;
}

/* ---- recursive doubling allreduce (any associative operator) ---------------------
 * With P' = 2^floor(log2 P) and r = P - P': ranks 2i+1 (i < r) first hand
 * their value to 2i (which forms x_2i op x_2i+1); the P' survivors, each
 * holding a contiguous run of ranks in order, exchange with partner v ^ 2^k
 * in round k and fold the partner's run on its side (left when the partner
 * is lower); finally 2i passes the result back to 2i+1.  Rank order is kept,
 * so any associative operator works.
 *   T_rd = (ceil(log2 P') + 2 [r > 0]) (L + 2o + a)   at the whole size
 * (a round is one send and one receive at once: L + 2o, then the fold). */
static int rd_predict(const oc_comm *c, int64_t count, const oc_elem *el, int64_t *t) {
  int64_t L, o, G, a, P = c->tp.size, rounds = 0;
  int e = costs_at(c, count * (int64_t)el->extent, &L, &o, &G, &a);
  if (e) return e;
  while (((int64_t)2 << rounds) <= P) rounds++;
  if (((int64_t)1 << rounds) < P) rounds += 2;
  *t = oc_mul_sat(rounds, oc_add_sat(oc_add_sat(L, 2 * o), a));
  return OC_OK;
}

static int rd_xchg(oc_comm *c, char *acc, char *tmp, int64_t count, const oc_elem *el,
                   int peer, int tag, int send, int recv) {
  oc_req sq, rq;
  int e = OC_OK, e2;
  if (recv && (e = rt_xrecv(c, tmp, count, el, peer, tag, &rq)) != OC_OK) return e;
  if (send && (e = rt_xsend(c, acc, count, el, peer, tag, &sq)) != OC_OK) {
    if (recv) rt_drain(c, &rq, 1, NULL);
    return e;
  }
  if (recv) e = rt_xwait(c, &rq, count);
  if (send) {
    e2 = rt_xwait(c, &sq, -1);
    if (e == OC_OK) e = e2;
  }
  return e;
}

static int allreduce_rd(oc_comm *c, char *acc, int64_t count, const oc_elem *el) {
  int P = c->tp.size, me = c->tp.rank, Pp = 1, r, v, tag, e = OC_OK;
  void *raw = NULL;
  char *tmp = rt_tmp_alloc(el, count, &raw);
  if (tmp == NULL) return OC_ENOMEM;
  while (Pp * 2 <= P) Pp *= 2;
  r = P - Pp;
  tag = rt_next_tag(c, RT_ALLREDUCE, -2, P, NULL);
  /* pre-step: 2i+1 hands its value to 2i */
  if (me < 2 * r) {
    if (me % 2 == 1) {
      e = rd_xchg(c, acc, tmp, count, el, me - 1, tag, 1, 0);
      v = -1;
    } else {
      e = rd_xchg(c, acc, tmp, count, el, me + 1, tag, 0, 1);
      if (e == OC_OK) e = fold(el, acc, tmp, count, 0); /* acc op x_{me+1} */
      v = me / 2;
    }
  } else {
    v = me - r;
  }
  for (int mask = 1; v >= 0 && mask < Pp && e == OC_OK; mask <<= 1) {
    int pv = v ^ mask, peer = pv < r ? 2 * pv : pv + r;
    e = rd_xchg(c, acc, tmp, count, el, peer, tag, 1, 1);
    if (e == OC_OK) e = fold(el, acc, tmp, count, pv < v);
  }
  /* post-step: 2i passes the result to 2i+1 */
  if (e == OC_OK && me < 2 * r) {
    if (me % 2 == 0) e = rd_xchg(c, acc, tmp, count, el, me + 1, tag, 1, 0);
    else {
      e = rd_xchg(c, acc, tmp, count, el, me - 1, tag, 0, 1);
      if (e == OC_OK) rt_copy_elems(acc, tmp, count, el);
    }
  }
  free(raw);
  return e;
}

/* Allreduce: the candidates as data, each with its model time; the least
 * wins (or the forced one).  tree = reduce to 0 + broadcast from 0. */
int oc_exec_allreduce(oc_comm *c, const void *sendbuf, void *recvbuf,
                      int64_t count, const oc_elem *el) {
  const void *own;
  int64_t t_tree = OC_SAT, t_ring = OC_SAT, t_rd = OC_SAT;
  int e, pick;
  if (c == NULL) return OC_EINVAL;
  begin(c);
  if ((e = check_elem(el, 1, count)) != OC_OK) return e;
  if (count < 0) return OC_EINVAL;
  own = sendbuf == OC_IN_PLACE ? recvbuf : sendbuf;
  if (count > 0 && (own == NULL || recvbuf == NULL)) return OC_EINVAL;
  if ((e = rt_agree(c, RT_ALLREDUCE, 0, count, el)) != OC_OK) return e;
  if (c->allreduce_alg == RT_ALG_RING && !el->commutative) return OC_EINVAL;
  pick = c->allreduce_alg;
  if (pick == RT_ALG_AUTO && c->ar_memo.valid && c->ar_memo.count == count &&
      c->ar_memo.extent == el->extent && c->ar_memo.commutative == el->commutative &&
      c->ar_memo.seg == c->seg_bytes) {
    pick = (int)c->ar_memo.pick; /* the same call as last time */
    if (pick == RT_ALG_RING) t_ring = c->ar_memo.t;
    if (pick == RT_ALG_DOUBLING) t_rd = c->ar_memo.t;
  } else if (pick == RT_ALG_AUTO && count > 0 && c->tp.size > 1) {
    e = plan_get(c, &c->rplan, RT_REDUCE, count, el, 0, !el->commutative);
    if (e == OC_OK) e = plan_get(c, &c->bplan, RT_BCAST, count, el, 0, 0);
    if (e == OC_OK) t_tree = oc_add_sat(c->rplan.predicted, c->bplan.predicted);
    if (e == OC_OK) e = rd_predict(c, count, el, &t_rd);
    /* the ring only with blocks of at least OC_RT_SEGMENT_MIN bytes: each of
     * its 2(P - 1) steps pays the per-message costs the figures miss */
    if (e == OC_OK && el->commutative && c->tp.size > 2 &&
        count / c->tp.size * (int64_t)el->extent >= OC_RT_SEGMENT_MIN)
      e = ring_predict(c, count, el, &t_ring);
    if (e) return e;
    pick = RT_ALG_TREE;
    if (t_rd < t_tree) pick = RT_ALG_DOUBLING;
    if (t_ring < (pick == RT_ALG_TREE ? t_tree : t_rd)) pick = RT_ALG_RING;
    c->ar_memo.valid = 1;
    c->ar_memo.count = count;
    c->ar_memo.extent = el->extent;
    c->ar_memo.commutative = el->commutative;
    c->ar_memo.seg = c->seg_bytes;
    c->ar_memo.pick = pick;
    c->ar_memo.t = pick == RT_ALG_RING ? t_ring : t_rd;
  }
  if ((pick == RT_ALG_RING || pick == RT_ALG_DOUBLING) && count > 0 && c->tp.size > 1) {
    const char *name = pick == RT_ALG_RING ? "ring" : "recursive-doubling";
    int64_t t = pick == RT_ALG_RING ? t_ring : t_rd;
    if (t == OC_SAT)
      e = pick == RT_ALG_RING ? ring_predict(c, count, el, &t) : rd_predict(c, count, el, &t);
    if (e) return e;
    rt_copy_elems(recvbuf, own, count, el);
    e = pick == RT_ALG_RING ? allreduce_ring(c, (char *)recvbuf, count, el)
                            : allreduce_rd(c, (char *)recvbuf, count, el);
    c->last.algorithm = name;
    c->last.segments = pick == RT_ALG_RING ? c->tp.size : 1;
    c->last.segment_bytes = (pick == RT_ALG_RING ? blk_len(count, c->tp.size, 0) : count) *
                            (int64_t)el->extent;
    c->last.predicted = t;
    c->last.unit_ns = c->unit_ns;
    return e;
  }
  /* reduce to 0 (into recvbuf there), then broadcast recvbuf from 0; a
   * rank reducing in place only reads recvbuf until its sends are done */
  e = reduce_run(c, own, recvbuf, count, el, 0);
  if (e == OC_OK) {
    oc_callinfo r = c->last;
    int check = c->check;
    c->check = 0; /* agreed already */
    e = oc_exec_bcast(c, recvbuf, count, el, 0);
    c->check = check;
    c->last.algorithm = "reduce+bcast";
    c->last.predicted = oc_add_sat(r.predicted, c->last.predicted);
    c->last.sends += r.sends;
    c->last.recvs += r.recvs;
  }
  return e;
}

/* ---- allgather ------------------------------------------------------------------------- */

int oc_exec_allgather(oc_comm *c, const void *sendbuf, void *recvbuf,
                      int64_t count, const oc_elem *el) {
  int P, me, tag, e;
  oc_req *rq = NULL;
  unsigned char *live = NULL;
  char *mine;
  int64_t nr = 0;
  if (c == NULL) return OC_EINVAL;
  begin(c);
  if ((e = check_elem(el, 0, count)) != OC_OK) return e;
  P = c->tp.size;
  me = c->tp.rank;
  if (count < 0 || (count > 0 && recvbuf == NULL) ||
      (count > 0 && sendbuf == NULL))
    return OC_EINVAL;
  if (count > 0 && (uint64_t)count > (uint64_t)OC_RT_BYTES_MAX / el->extent / (uint64_t)P)
    return OC_ERANGE; /* the whole receive buffer */
  if ((e = rt_agree(c, RT_ALLGATHER, 0, count, el)) != OC_OK) return e;
  tag = rt_next_tag(c, RT_ALLGATHER, 0, 1, NULL);
  set_info(c, "karp-all-to-all", NULL, el);
  if (count == 0) return OC_OK;
  mine = at(recvbuf, (int64_t)me * count, el);
  if (sendbuf != OC_IN_PLACE) rt_copy_elems(mine, sendbuf, count, el);
  if (P == 1) return OC_OK;
  {
    size_t nreq = 2 * (size_t)(P - 1);
    char *base = (char *)scratch(c, nreq * (sizeof(oc_req) + 1));
    if (base == NULL) return OC_ENOMEM;
    rq = (oc_req *)(void *)base;
    live = (unsigned char *)(base + nreq * sizeof(oc_req));
  }
  for (int i = 1; i < P && e == OC_OK; i++) {
    int src = (me - i + P) % P;
    e = rt_xrecv(c, at(recvbuf, (int64_t)src * count, el), count, el, src, tag, &rq[nr]);
    if (e == OC_OK) live[nr++] = 1;
  }
  for (int i = 1; i < P && e == OC_OK; i++) {
    e = rt_xsend(c, mine, count, el, (me + i) % P, tag, &rq[nr]);
    if (e == OC_OK) live[nr++] = 1;
  }
  for (int64_t i = 0; i < nr && e == OC_OK; i++) {
    live[i] = 0;
    e = rt_xwait(c, &rq[i], i < P - 1 ? count : -1);
  }
  if (e != OC_OK) {
    /* receives (the first P - 1) cancelled; sends waited for */
    rt_drain(c, rq, nr < P - 1 ? nr : P - 1, live);
    for (int64_t i = P - 1; i < nr; i++)
      if (live[i]) (void)rt_xwait(c, &rq[i], -1);
  }
  return e;
}

/* ---- scan ------------------------------------------------------------------------------ */

int oc_exec_scan(oc_comm *c, const void *sendbuf, void *recvbuf, int64_t count,
                 const oc_elem *el) {
  int P, me, tag, e;
  void *sraw = NULL, *rraw = NULL;
  char *sb, *rb;
  if (c == NULL) return OC_EINVAL;
  begin(c);
  if ((e = check_elem(el, 1, count)) != OC_OK) return e;
  P = c->tp.size;
  me = c->tp.rank;
  if (count < 0 || (count > 0 && (recvbuf == NULL || sendbuf == NULL))) return OC_EINVAL;
  if ((e = rt_agree(c, RT_SCAN, 0, count, el)) != OC_OK) return e;
  {
    int64_t m = 0, t = 0;
    if (c->scan_memo.valid && c->scan_memo.count == count && c->scan_memo.extent == el->extent &&
        c->scan_memo.seg == c->seg_bytes && c->scan_memo.alg == c->scan_alg) {
      m = c->scan_memo.pick; /* the same call as last time */
      t = c->scan_memo.t;
    } else if (count > 0) {
      if ((e = scan_choose(c, count, el, &m, &t)) != OC_OK) return e;
      c->scan_memo.valid = 1;
      c->scan_memo.count = count;
      c->scan_memo.extent = el->extent;
      c->scan_memo.seg = c->seg_bytes;
      c->scan_memo.alg = c->scan_alg;
      c->scan_memo.pick = m;
      c->scan_memo.t = t;
    }
    tag = rt_next_tag(c, RT_SCAN, 0, m, NULL);
    set_info(c, m > 0 ? "pipelined-chain" : "recursive-doubling", NULL, el);
    c->last.predicted = count > 0 ? t : 0;
    if (count == 0) return OC_OK;
    if (sendbuf != OC_IN_PLACE) rt_copy_elems(recvbuf, sendbuf, count, el);
    if (P == 1) return OC_OK;
    if (m > 0) {
      c->last.segments = m;
      c->last.segment_bytes = seg_len(count, m) * (int64_t)el->extent;
      return scan_chain(c, (char *)recvbuf, count, el, m, tag);
    }
  }
  sb = rt_tmp_alloc(el, count, &sraw);
  rb = rt_tmp_alloc(el, count, &rraw);
  if (sb == NULL || rb == NULL) {
    e = OC_ENOMEM;
    goto out;
  }
  for (int64_t d = 1; d < P && e == OC_OK; d *= 2) {
    oc_req s, r;
    int sending = me + d < P, receiving = me - d >= 0;
    if (sending) {
      rt_copy_elems(sb, recvbuf, count, el);
      e = rt_xsend(c, sb, count, el, (int)(me + d), tag, &s);
      if (e) break;
    }
    if (receiving) {
      e = rt_xrecv(c, rb, count, el, (int)(me - d), tag, &r);
      if (e == OC_OK) e = rt_xwait(c, &r, count);
      if (e == OC_OK) e = el->combine(el, rb, recvbuf, count);
    }
    if (sending) {
      int e2 = rt_xwait(c, &s, -1);
      if (e == OC_OK) e = e2;
    }
  }
out:
  free(sraw);
  free(rraw);
  return e;
}
