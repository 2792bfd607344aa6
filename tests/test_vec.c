/* test_vec.c - oc_verify_vreduce, the verifier of vector reductions and
 * allreduces: hand-computed cases, the MPI libraries' algorithm shapes
 * (recursive doubling, ring = reduce-scatter + allgather, binomial reduce,
 * chain) built here with generous times, a reference checker of our own
 * (exact sets of any size, quadratic) that must agree with it, and
 * mutants (an add turned copy and back, a dropped message, another packet,
 * another receiver, an addition repeated) that must be rejected - on both
 * sides of P = 64, where the verifier turns from exact bitmasks to
 * fingerprints - unless the reference finds them harmless too. */
#include <stdlib.h>
#include <string.h>

#include "test.h"

/* ---- schedules built in rounds ----------------------------------------------
 * Round r's transfers: each sender sends its packets k = 0, 1, ... at
 * T_r + k G; the next round starts when every addition of this one is
 * surely done.  With o > 0 a processor must not send and receive in one
 * round (the builders below keep to that when they are given o > 0). */
typedef struct vb {
  oc_sched s;
  unsigned char *copy;
  uint32_t *seq;       /* each receiver's messages in the order emitted */
  int64_t *got;
  size_t cap;
  int64_t T, G, span; /* round start, packet spacing, longest round so far */
  int64_t *nsend, *nrecv, P;
  const oc_params *p;
} vb;

static void vb_init(vb *b, const oc_params *p) {
  memset(b, 0, sizeof *b);
  oc_sched_init(&b->s);
  b->p = p;
  b->P = p->P;
  b->G = p->g > p->o ? p->g : p->o;
  b->nsend = calloc((size_t)p->P, sizeof *b->nsend);
  b->nrecv = calloc((size_t)p->P, sizeof *b->nrecv);
  b->got = calloc((size_t)p->P, sizeof *b->got);
  CHECK(b->nsend && b->nrecv && b->got);
}

static void vb_free(vb *b) {
  oc_sched_free(&b->s);
  free(b->copy);
  free(b->seq);
  free(b->got);
  free(b->nsend);
  free(b->nrecv);
}

static void vb_send(vb *b, int64_t src, int64_t dst, int64_t j, int copy) {
  int64_t t = b->T + b->nsend[src]++ * b->G;
  b->nrecv[dst]++;
  CHECK_OK(oc_sched_push(&b->s, t, src, dst, j));
  if (b->s.n > b->cap) {
    b->cap = 2 * b->s.n;
    b->copy = realloc(b->copy, b->cap);
    b->seq = realloc(b->seq, b->cap * sizeof *b->seq);
    CHECK(b->copy != NULL && b->seq != NULL);
  }
  b->copy[b->s.n - 1] = (unsigned char)copy;
  b->seq[b->s.n - 1] = (uint32_t)b->got[dst]++;
}

static void vb_round(vb *b) {
  int64_t most = 0;
  for (int64_t q = 0; q < b->P; q++) {
    if (b->nsend[q] > most) most = b->nsend[q];
    if (b->nrecv[q] > most) most = b->nrecv[q];
    b->nsend[q] = b->nrecv[q] = 0;
  }
  b->T += most * (b->G + b->p->unit + 2 * b->p->o) + b->p->L + 2 * b->p->o + 1;
}

/* recursive doubling allreduce, P a power of two: exchange whole vectors */
static void build_rd(vb *b, int64_t m) {
  for (int64_t mask = 1; mask < b->P; mask *= 2) {
    for (int64_t q = 0; q < b->P; q++)
      for (int64_t j = 0; j < m; j++) vb_send(b, q, q ^ mask, j, 0);
    vb_round(b);
  }
}

/* ring allreduce: packet j is in chunk j mod P; reduce-scatter (P-1 steps,
 * q sends chunk q - i to q + 1, which adds), then allgather (P-1 steps of
 * copies of the finished chunks) */
static void build_ring(vb *b, int64_t m) {
  int64_t P = b->P;
  for (int64_t ph = 0; ph < 2; ph++)
    for (int64_t i = 0; i < P - 1; i++) {
      for (int64_t q = 0; q < P; q++) {
        int64_t c = ((q - i - ph * (P - 1)) % P + 2 * P) % P;
        if (ph) c = ((q + 1 - i) % P + P) % P; /* the chunk q finished or got */
        for (int64_t j = c; j < m; j += P) vb_send(b, q, (q + 1) % P, j, (int)ph);
      }
      vb_round(b);
    }
}

/* binomial reduce to root: relative rank v sends its subtree's sum to
 * v - lowbit(v) in round log2(lowbit(v)) */
static void build_binomial(vb *b, int64_t m, int64_t root) {
  for (int64_t mask = 1; mask < b->P; mask *= 2) {
    for (int64_t v = mask; v < b->P; v += 2 * mask)
      for (int64_t j = 0; j < m; j++)
        vb_send(b, (v + root) % b->P, (v - mask + root) % b->P, j, 0);
    vb_round(b);
  }
}

/* chain reduce to P - 1: q sends its partial to q + 1, one hop a round */
static void build_chain(vb *b, int64_t m) {
  for (int64_t q = 0; q + 1 < b->P; q++) {
    for (int64_t j = 0; j < m; j++) vb_send(b, q, q + 1, j, 0);
    vb_round(b);
  }
}

/* ---- a reference checker: exact sets, quadratic, no library code ------------
 * The same semantics written plainly, values as multiplicity vectors:
 * 1 valid, 0 invalid; *time when valid.  The message rules (gaps, capacity) are not checked here: the
 * cases compared keep them. */
typedef struct rev {
  int64_t key;
  int kind;
  size_t i, seq;
} rev;

static int rev_cmp(const void *x, const void *y) {
  const rev *a = x, *b = y;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  if (a->kind != b->kind) return a->kind - b->kind;
  return (a->seq > b->seq) - (a->seq < b->seq);
}

/* oc_verify_vreduce on s with the given columns (a shallow view: the
 * tests build and mutate their columns as plain arrays) */
static int vr_check(const oc_params *p, int64_t root, int64_t m, const oc_sched *s,
                    const unsigned char *copy, const uint32_t *seq, const int64_t *nb,
                    const uint32_t *hist, oc_verdict *v) {
  oc_sched t = *s;
  t.copy = (unsigned char *)(uintptr_t)copy;
  t.seq = (uint32_t *)(uintptr_t)seq;
  t.not_before = (int64_t *)(uintptr_t)nb;
  t.hist = (uint32_t *)(uintptr_t)hist;
  return oc_verify_vreduce(p, root, m, &t, v);
}

/* hist (or NULL): message i carries its sender's value of the packet after
 * it handled hist[i] messages of that packet (0: its own), which must be
 * done by the send start */
static int ref_check_h(const oc_params *p, int64_t root, int64_t m, const oc_sched *s,
                       const unsigned char *copy, const uint32_t *seq, const int64_t *nb,
                       const uint32_t *hist, int64_t *time) {
  /* a value: how many times each contribution is in it */
  int64_t P = p->P, *cnt = calloc((size_t)(P * m * P), sizeof *cnt);
  int64_t *car = calloc(s->n * (size_t)P + 1, sizeof *car);
  int64_t *full = malloc((size_t)(P * m) * sizeof *full), done = 0;
  rev *ev = malloc((2 * s->n + 1) * sizeof *ev);
  int64_t *aft = hist ? calloc(s->n * (size_t)P + 1, sizeof *aft) : NULL; /* value after i */
  int64_t *hdone = malloc((s->n + 1) * sizeof *hdone), *hnum = calloc(s->n + 1, sizeof *hnum);
  size_t ne = 0, order = 0;
  int ok = 1;
  CHECK(cnt && car && full && ev && hdone && hnum && (hist == NULL || aft));
  for (size_t i = 0; i < s->n; i++) /* a range the verifier also rejects */
    if (s->msg[i].item < 0 || s->msg[i].item >= m) ok = 0;
  for (int64_t q = 0; q < P; q++)
    for (int64_t j = 0; j < m; j++) {
      cnt[(q * m + j) * P + q] = 1;
      full[q * m + j] = P == 1 ? 0 : -1;
    }
  for (int64_t q = 0; q < P && ok; q++) { /* q's arrivals in order */
    size_t *ord = malloc((s->n + 1) * sizeof *ord), n = 0;
    int64_t free_at = 0;
    CHECK(ord != NULL);
    for (size_t i = 0; i < s->n; i++)
      if (s->msg[i].dst == q) ord[n++] = i;
    for (size_t a = 1; a < n; a++) /* insertion sort by arrival (or seq), index */
      for (size_t k = a; k > 0 && (seq ? seq[ord[k - 1]] > seq[ord[k]]
                                       : s->msg[ord[k - 1]].t > s->msg[ord[k]].t);
           k--) {
        size_t x = ord[k];
        ord[k] = ord[k - 1];
        ord[k - 1] = x;
      }
    for (size_t k = 0; k < n; k++) {
      size_t i = ord[k];
      int64_t a = copy && copy[i] ? 0 : p->unit;
      int64_t t = s->msg[i].t + p->L + 2 * p->o;
      int moved = 1;
      if (t < free_at) t = free_at;
      if (nb != NULL && nb[i] > t) t = nb[i];
      while (moved && a > 0 && p->o > 0) { /* clear of q's overheads */
        moved = 0;
        for (size_t x = 0; x < s->n; x++) {
          int64_t b0 = -1;
          if (s->msg[x].src == q) b0 = s->msg[x].t;
          if (b0 >= 0 && b0 < t + a && t < b0 + p->o) { t = b0 + p->o; moved = 1; }
          b0 = s->msg[x].dst == q ? s->msg[x].t + p->o + p->L : -1;
          if (b0 >= 0 && b0 < t + a && t < b0 + p->o) { t = b0 + p->o; moved = 1; }
        }
      }
      free_at = t + a;
      hdone[i] = free_at;
      for (size_t x = 0; x < k; x++) /* its number among q's messages of that packet */
        if (s->msg[ord[x]].item == s->msg[i].item) hnum[i]++;
      hnum[i]++;
      ev[ne++] = (rev){free_at, 0, i, order++};
    }
    free(ord);
  }
  for (size_t i = 0; i < s->n; i++) ev[ne++] = (rev){s->msg[i].t, 1, i, i};
  qsort(ev, ne, sizeof *ev, rev_cmp);
  for (size_t k = 0; k < ne && ok; k++) {
    const oc_msg *x = &s->msg[ev[k].i];
    int64_t *cur = cnt + (x->dst * m + x->item) * P, *in = car + ev[k].i * (size_t)P;
    int64_t ncur = 0, nin = 0, once = 1;
    if (ev[k].kind == 1) {
      memcpy(in, cnt + (x->src * m + x->item) * P, (size_t)P * sizeof *in);
      if (hist != NULL && hist[ev[k].i] == 0) {
        memset(in, 0, (size_t)P * sizeof *in);
        in[x->src] = 1;
      } else if (hist != NULL) {
        size_t r = s->n;
        for (size_t y = 0; y < s->n; y++)
          if (s->msg[y].dst == x->src && s->msg[y].item == x->item &&
              hnum[y] == (int64_t)hist[ev[k].i])
            r = y;
        if (r == s->n || hdone[r] > x->t) ok = 0;
        else memcpy(in, aft + r * (size_t)P, (size_t)P * sizeof *in);
      }
      continue;
    }
    for (int64_t q = 0; q < P; q++) { ncur += cur[q]; nin += in[q]; }
    if (copy && copy[ev[k].i]) {
      if (nin < ncur) ok = 0;
      memcpy(cur, in, (size_t)P * sizeof *cur);
    } else {
      if (ncur + nin > P) ok = 0;
      for (int64_t q = 0; q < P; q++) cur[q] += in[q];
    }
    for (int64_t q = 0; q < P; q++) once &= cur[q] == 1;
    if (once && full[x->dst * m + x->item] < 0) full[x->dst * m + x->item] = ev[k].key;
    if (aft != NULL) memcpy(aft + ev[k].i * (size_t)P, cur, (size_t)P * sizeof *cur);
  }
  for (int64_t q = 0; q < P && ok; q++)
    for (int64_t j = 0; j < m && ok; j++) {
      if (root >= 0 && q != root) continue;
      if (full[q * m + j] < 0) ok = 0;
      else if (full[q * m + j] > done) done = full[q * m + j];
    }
  *time = done;
  free(cnt);
  free(car);
  free(full);
  free(ev);
  free(aft);
  free(hdone);
  free(hnum);
  return ok;
}

static int ref_check(const oc_params *p, int64_t root, int64_t m, const oc_sched *s,
                     const unsigned char *copy, const uint32_t *seq, const int64_t *nb,
                     int64_t *time) {
  return ref_check_h(p, root, m, s, copy, seq, nb, NULL, time);
}

/* ---- the tests ------------------------------------------------------------- */
void test_vreduce_hand(void) {
  oc_params p;
  oc_sched s;
  oc_verdict v;
  unsigned char cp[2] = {0, 0};
  /* P = 2, L = 5, o = 0, g = 1: an exchange at 0; arrival 5, addition [5, 6) */
  CHECK_OK(oc_params_logp(&p, 2, 5, 0, 1));
  oc_sched_init(&s);
  CHECK_OK(oc_sched_push(&s, 0, 0, 1, 0));
  CHECK_OK(oc_sched_push(&s, 0, 1, 0, 0));
  CHECK_OK(vr_check(&p, -1, 1, &s, NULL, NULL, NULL, NULL, &v));
  CHECK(v.ok);
  CHECK_EQ(v.time, 6);
  /* L = 5, o = 2, g = 4: receive overhead [7, 9), addition [9, 10) */
  CHECK_OK(oc_params_logp(&p, 2, 5, 2, 4));
  CHECK_OK(vr_check(&p, -1, 1, &s, NULL, NULL, NULL, NULL, &v));
  CHECK(v.ok);
  CHECK_EQ(v.time, 10);
  /* 1 -> 0 a copy: 0 loses its own value and ends without it */
  cp[1] = 1;
  CHECK_OK(vr_check(&p, -1, 1, &s, cp, NULL, NULL, NULL, &v));
  CHECK(!v.ok && v.rule == OC_RULE_RESULT && v.proc == 0);
  /* 0 -> 1 again at 20: 1 would hold 3 values */
  {
    oc_sched t2;
    oc_sched_init(&t2);
    CHECK_OK(oc_sched_push(&t2, 0, 0, 1, 0));
    CHECK_OK(oc_sched_push(&t2, 20, 0, 1, 0));
    CHECK_OK(vr_check(&p, 1, 1, &t2, NULL, NULL, NULL, NULL, &v));
    CHECK(!v.ok && v.rule == OC_RULE_FOLD && v.proc == 1 && v.at == 29);
    /* ... and the copy of one value over two */
    cp[0] = 0;
    cp[1] = 1;
    CHECK_OK(vr_check(&p, 1, 1, &t2, cp, NULL, NULL, NULL, &v));
    CHECK(!v.ok && v.rule == OC_RULE_FOLD && v.proc == 1 && v.at == 29);
    oc_sched_free(&t2);
  }
  /* reduce to 1: only 0 -> 1 needed; 1 -> 0 adds harmlessly */
  CHECK_OK(vr_check(&p, 1, 1, &s, NULL, NULL, NULL, NULL, &v));
  CHECK(v.ok);
  CHECK_EQ(v.time, 10);
  /* an addition pushed past a send overhead: 1 sends again at 9 */
  CHECK_OK(oc_sched_push(&s, 9, 1, 0, 1));
  CHECK_OK(vr_check(&p, 1, 2, &s, NULL, NULL, NULL, NULL, &v));
  CHECK(!v.ok && v.rule == OC_RULE_RESULT); /* packet 1 never reaches 1 */
  CHECK_OK(vr_check(&p, 0, 2, &s, NULL, NULL, NULL, NULL, &v));
  CHECK(v.ok);      /* 0: packet 0 at 10, packet 1: arrival 18, add [18, 19) */
  CHECK_EQ(v.time, 19);
  CHECK_OK(oc_params_logp(&p, 2, 5, 2, 4));
  /* the handling order: P = 3, 2 -> 0 arrives at 9, 1 -> 0 at 19; with
     seq, 0 handles 1's first (its addition [19, 20)), then 2's ([20, 21)) */
  {
    oc_sched t3;
    uint32_t sq[2] = {1, 0};
    int64_t rt = 0;
    CHECK_OK(oc_params_logp(&p, 3, 5, 2, 4));
    oc_sched_init(&t3);
    CHECK_OK(oc_sched_push(&t3, 0, 2, 0, 0));
    CHECK_OK(oc_sched_push(&t3, 10, 1, 0, 0));
    CHECK_OK(vr_check(&p, 0, 1, &t3, NULL, NULL, NULL, NULL, &v));
    CHECK(v.ok);
    CHECK_EQ(v.time, 20); /* arrival order: [9, 10), then [19, 20) */
    CHECK_OK(vr_check(&p, 0, 1, &t3, NULL, sq, NULL, NULL, &v));
    CHECK(v.ok);
    CHECK_EQ(v.time, 21);
    CHECK(ref_check(&p, 0, 1, &t3, NULL, sq, NULL, &rt));
    CHECK_EQ(rt, 21);
    sq[0] = 0; /* two messages with order 0 */
    CHECK_OK(vr_check(&p, 0, 1, &t3, NULL, sq, NULL, NULL, &v));
    CHECK(!v.ok && v.rule == OC_RULE_RANGE && v.proc == 0);
    oc_sched_free(&t3);
    CHECK_OK(oc_params_logp(&p, 2, 5, 2, 4));
  }
  /* bad arguments */
  CHECK_EQ(vr_check(&p, -1, 0, &s, NULL, NULL, NULL, NULL, &v), OC_EINVAL);
  CHECK_EQ(vr_check(&p, 2, 1, &s, NULL, NULL, NULL, NULL, &v), OC_EINVAL);
  CHECK_EQ(vr_check(&p, -2, 1, &s, NULL, NULL, NULL, NULL, &v), OC_EINVAL);
  CHECK_OK(oc_params_logp(&p, 1 << 20, 5, 2, 4));
  CHECK_EQ(vr_check(&p, -1, 1 << 7, &s, NULL, NULL, NULL, NULL, &v), OC_ERANGE);
  /* an item beyond m is a range violation */
  CHECK_OK(oc_params_logp(&p, 2, 5, 2, 4));
  CHECK_OK(vr_check(&p, -1, 1, &s, NULL, NULL, NULL, NULL, &v));
  CHECK(!v.ok && v.rule == OC_RULE_RANGE);
  oc_sched_free(&s);
  /* long messages are refused */
  oc_sched_init(&s);
  CHECK_OK(oc_sched_push_long(&s, 0, 0, 1, 0, 2));
  CHECK_EQ(vr_check(&p, -1, 2, &s, NULL, NULL, NULL, NULL, &v), OC_EINVAL);
  oc_sched_free(&s);
}

typedef struct vcase {
  int alg; /* 0 rd, 1 ring, 2 binomial, 3 chain */
  int64_t P, m, L, o, g, root;
} vcase;

static void build(vb *b, const vcase *c) {
  if (c->alg == 0) build_rd(b, c->m);
  else if (c->alg == 1) build_ring(b, c->m);
  else if (c->alg == 2) build_binomial(b, c->m, c->root);
  else build_chain(b, c->m);
}

static const vcase CASES[] = {
    {0, 8, 3, 5, 0, 2, -1},     {0, 64, 2, 7, 0, 1, -1},    {0, 128, 2, 3, 0, 2, -1},
    {1, 5, 10, 4, 0, 1, -1},    {1, 64, 64, 2, 0, 3, -1},   {1, 100, 7, 6, 0, 1, -1},
    {1, 65, 130, 1, 0, 1, -1},  {2, 13, 2, 6, 2, 4, 5},     {2, 100, 3, 5, 1, 3, 99},
    {2, 64, 1, 9, 3, 5, 0},     {3, 9, 4, 6, 2, 4, 8},      {3, 70, 2, 3, 1, 2, 69},
};

/* each algorithm valid, and the reference agrees on the time */
void test_vreduce_algorithms(void) {
  for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
    const vcase *c = &CASES[k];
    oc_params p;
    oc_verdict v;
    vb b;
    int64_t rt = -1;
    CHECK_OK(oc_params_logp(&p, c->P, c->L, c->o, c->g));
    vb_init(&b, &p);
    build(&b, c);
    CHECK_OK(vr_check(&p, c->root, c->m, &b.s, b.copy, NULL, NULL, NULL, &v));
    if (!v.ok) test_failf(__FILE__, __LINE__, "case %zu: %s", k, v.detail);
    CHECK(ref_check(&p, c->root, c->m, &b.s, b.copy, NULL, NULL, &rt));
    CHECK_EQ(v.time, rt);
    /* handled in program order (each receiver's messages as emitted): the
       rounds keep arrivals in that order, so nothing changes */
    CHECK_OK(vr_check(&p, c->root, c->m, &b.s, b.copy, b.seq, NULL, NULL, &v));
    CHECK(v.ok);
    CHECK_EQ(v.time, rt);
    CHECK(ref_check(&p, c->root, c->m, &b.s, b.copy, b.seq, NULL, &rt));
    CHECK_EQ(v.time, rt);
    if (b.s.n > 1) { /* a handling order that is not a permutation */
      uint32_t keep = b.seq[0];
      b.seq[0] = (uint32_t)b.s.n + 5;
      CHECK_OK(vr_check(&p, c->root, c->m, &b.s, b.copy, b.seq, NULL, NULL, &v));
      CHECK(!v.ok && v.rule == OC_RULE_RANGE);
      b.seq[0] = keep;
    }
    CHECK(v.time > 0);
    vb_free(&b);
  }
}

/* mutants: every one rejected by the verifier; those that keep the message
 * times (flip, drop, other packet) by the reference too */
void test_vreduce_mutants(void) {
  size_t total = 0, harmless = 0;
  for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
    const vcase *c = &CASES[k];
    oc_params p;
    vb b;
    size_t n, tries;
    CHECK_OK(oc_params_logp(&p, c->P, c->L, c->o, c->g));
    vb_init(&b, &p);
    build(&b, c);
    n = b.s.n;
    tries = n < 60 ? n : test_sweep() ? (n < 400 ? n : 400) : test_valgrind() ? 12 : 60;
    for (size_t r = 0; r < tries; r++) {
      size_t i = tries == n ? r : (size_t)test_range(0, (int64_t)n - 1);
      for (int kind = 0; kind < 5; kind++) {
        oc_sched s;
        unsigned char *cp = malloc(n + 2);
        oc_verdict v;
        int64_t rt, same_times = kind <= 2;
        oc_msg orig = b.s.msg[i];
        if (cp == NULL || b.copy == NULL) {
          test_fail(__FILE__, __LINE__, "out of memory");
          free(cp);
          return;
        }
        memcpy(cp, b.copy, n);
        oc_sched_init(&s);
        for (size_t x = 0; x < n; x++) {
          oc_msg mm = b.s.msg[x];
          if (x == i && kind == 1) continue; /* dropped */
          if (x == i && kind == 2) {        /* another packet (m >= 2) */
            if (c->m < 2) break;
            mm.item = (mm.item + 1) % c->m;
          }
          if (x == i && kind == 3) /* another receiver */
            mm.dst = (mm.dst + 1) % c->P == mm.src ? (mm.dst + 2) % c->P : (mm.dst + 1) % c->P;
          CHECK_OK(oc_sched_push(&s, mm.t, mm.src, mm.dst, mm.item));
          cp[s.n - 1] = b.copy[x];
          if (x == i && kind == 0) cp[s.n - 1] ^= 1; /* add <-> copy */
        }
        if ((kind == 2 && c->m < 2) || (kind == 3 && c->P < 3) ||
            (kind == 4 && b.copy[i])) { /* not a mutant here */
          oc_sched_free(&s);
          free(cp);
          continue;
        }
        if (kind == 4) { /* the addition again, long after everything */
          CHECK_OK(oc_sched_push(&s, b.T + 10 * c->L + 100, orig.src, orig.dst, orig.item));
          cp[s.n - 1] = 0;
        }
        CHECK_OK(vr_check(&p, c->root, c->m, &s, cp, NULL, NULL, NULL, &v));
        if (kind == 3 || (kind == 4 && c->root >= 0)) {
          /* another receiver may pass the values on, and a repeated addition at a
             processor that already sent its partial result harms nobody: then it
             must be right (the reference agrees, with the same time) */
          if (v.ok) {
            CHECK(ref_check(&p, c->root, c->m, &s, cp, NULL, NULL, &rt));
            CHECK_EQ(v.time, rt);
          }
          harmless += v.ok;
        } else if (v.ok) {
          test_failf(__FILE__, __LINE__, "case %zu: mutant %d of message %zu accepted", k,
                     kind, i);
        }
        if (same_times) CHECK(!ref_check(&p, c->root, c->m, &s, cp, NULL, NULL, &rt));
        if (kind == 4 && !v.ok) CHECK(!ref_check(&p, c->root, c->m, &s, cp, NULL, NULL, &rt));
        total++;
        oc_sched_free(&s);
        free(cp);
      }
    }
    vb_free(&b);
  }
  CHECK(total > (test_valgrind() ? 300u : 1000u));
  if (getenv("OPTCAST_VERBOSE")) printf("vreduce mutants: %zu, harmless %zu\n", total, harmless);
  CHECK(harmless < total / 5);
}

/* ---- the MPI libraries' allreduce algorithms (oc_libred.c) ------------------- */
/* every algorithm, many P and m and parameter sets: a schedule the verifier
 * accepts (the library checks it, we check again), and the same time from
 * the reference checker in the library's handling order */
void test_libred_allreduce(void) {
  static const int64_t Ps[] = {1, 2, 3, 5, 8, 12, 13, 16, 31, 64, 65, 100};
  static const int64_t ms[] = {1, 2, 5, 16, 33};
  static const int64_t prm[][3] = {{6, 2, 4}, {5, 0, 1}, {3, 1, 1}, {0, 1, 1}, {9, 3, 2}};
  size_t runs = 0;
  for (int a = 0; a < OC_LR_COUNT; a++)
    for (size_t i = 0; i < sizeof Ps / sizeof Ps[0]; i++)
      for (size_t k = 0; k < sizeof ms / sizeof ms[0]; k++)
        for (size_t x = 0; x < sizeof prm / sizeof prm[0]; x++) {
          oc_params p;
          oc_sched s;
          oc_verdict v;
          const unsigned char *cp;
          const uint32_t *sq;
          const int64_t *nb;
          int64_t t = -1, rt = -1;
          int e;
          if (test_valgrind() && (Ps[i] > 16 || ms[k] > 5)) continue;
          CHECK_OK(oc_params_logp(&p, Ps[i], prm[x][0], prm[x][1], prm[x][2]));
          oc_sched_init(&s);
          e = oc_libred_allreduce(&p, ms[k], (oc_libred_alg)a, &s, &t);
          if (e != OC_OK)
            test_failf(__FILE__, __LINE__, "%s P=%lld m=%lld L=%lld o=%lld g=%lld: %s",
                       oc_libred_alg_name((oc_libred_alg)a), (long long)Ps[i],
                       (long long)ms[k], (long long)prm[x][0], (long long)prm[x][1],
                       (long long)prm[x][2], oc_strerror(e));
          if (e == OC_OK) {
            cp = s.copy; /* the builder's columns */
            sq = s.seq;
            nb = s.not_before;
            CHECK(cp != NULL && sq != NULL && nb != NULL && s.hist == NULL);
            CHECK_OK(oc_verify_vreduce(&p, -1, ms[k], &s, &v));
            CHECK(v.ok);
            CHECK_EQ(v.time, t);
            CHECK(Ps[i] == 1 ? t == 0 : t > 0);
            if (Ps[i] <= 16 && ms[k] <= 5) {
              CHECK(ref_check(&p, -1, ms[k], &s, cp, sq, nb, &rt));
              CHECK_EQ(rt, t);
            }
            runs++;
          }
          oc_sched_free(&s);
        }
  CHECK(runs > 100);
}

/* closed forms where the schedule is easy to time by hand, and refusals */
void test_libred_values(void) {
  oc_params p;
  oc_sched s;
  int64_t t = -1;
  /* recursive doubling, P = 8, o = 0, g = 1: 3 rounds of L + (m-1) g + 1 */
  CHECK_OK(oc_params_logp(&p, 8, 5, 0, 1));
  oc_sched_init(&s);
  CHECK_OK(oc_libred_allreduce(&p, 3, OC_LR_RD, &s, &t));
  CHECK_EQ(t, 3 * (5 + 2 + 1));
  CHECK_EQ(s.n, 8 * 3 * 3);
  oc_sched_free(&s);
  /* linear, P = 4, m = 1, L = 5, o = 0, g = 1: 0 gets 1, 2, 3 at 5 and adds
     them [5, 8); its sends at 8, 9, 10 arrive by 15 */
  CHECK_OK(oc_params_logp(&p, 4, 5, 0, 1));
  oc_sched_init(&s);
  CHECK_OK(oc_libred_allreduce(&p, 1, OC_LR_LINEAR, &s, &t));
  CHECK_EQ(t, 15);
  oc_sched_free(&s);
  /* refusals */
  oc_sched_init(&s);
  CHECK_EQ(oc_libred_allreduce(&p, 0, OC_LR_RD, &s, &t), OC_EINVAL);
  CHECK_EQ(oc_libred_allreduce(&p, 1, OC_LR_COUNT, &s, &t), OC_EINVAL);
  CHECK_OK(oc_params_logp(&p, 1 << 12, 5, 0, 1));
  CHECK_EQ(oc_libred_allreduce(&p, 1 << 13, OC_LR_RD, &s, &t), OC_ERANGE);
  CHECK_EQ(oc_libred_messages(1 << 12, 1 << 13, OC_LR_RD), (int64_t)(1 << 25) * 14);
  CHECK(oc_libred_messages(1 << 16, 1 << 10, OC_LR_RABEN) <= OC_LIBRED_MSGS_MAX); /* (2^26) */
  oc_sched_free(&s);
}

/* the default selections at the edges of their tables */
void test_libred_select(void) {
  static const struct {
    oc_libcoll_rule r;
    int64_t P, bytes;
    oc_libred_alg want;
  } cases[] = {
      {OC_LC_RULE_OMPI, 2, 7, OC_LR_RING},      {OC_LC_RULE_OMPI, 3, 8, OC_LR_RD},
      {OC_LC_RULE_OMPI, 3, 4096, OC_LR_RING},   {OC_LC_RULE_OMPI, 3, 300000, OC_LR_RABEN},
      {OC_LC_RULE_OMPI, 4, 15, OC_LR_RING},     {OC_LC_RULE_OMPI, 7, 8191, OC_LR_RD},
      {OC_LC_RULE_OMPI, 8, 8192, OC_LR_RABEN},  {OC_LC_RULE_OMPI, 16, 63, OC_LR_RING},
      {OC_LC_RULE_OMPI, 100, 262143, OC_LR_RD}, {OC_LC_RULE_OMPI, 128, 131071, OC_LR_REDBCAST},
      {OC_LC_RULE_OMPI, 255, 131072, OC_LR_RD}, {OC_LC_RULE_OMPI, 511, 4096, OC_LR_RABEN},
      {OC_LC_RULE_OMPI, 512, 2047, OC_LR_REDBCAST}, {OC_LC_RULE_OMPI, 2047, 2048, OC_LR_RD},
      {OC_LC_RULE_OMPI, 2048, 2048, OC_LR_RING}, {OC_LC_RULE_OMPI, 4095, 16384, OC_LR_RABEN},
      {OC_LC_RULE_OMPI, 4096, 16383, OC_LR_RING}, {OC_LC_RULE_OMPI, 4096, 16384, OC_LR_RD},
      {OC_LC_RULE_OMPI, 1 << 20, 32768, OC_LR_RABEN},
      {OC_LC_RULE_MPICH, 64, 2048, OC_LR_RD},   {OC_LC_RULE_MPICH, 64, 2056, OC_LR_RABEN},
      {OC_LC_RULE_MPICH, 1024, 8184, OC_LR_RD}, /* 1023 elements < pof2 = 1024 */
      {OC_LC_RULE_MPICH, 1024, 8192, OC_LR_RABEN}, {OC_LC_RULE_MPICH, 1, 1 << 20, OC_LR_RABEN},
  };
  oc_libred_alg a;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    CHECK_OK(oc_libred_select(cases[i].r, cases[i].P, cases[i].bytes, 8, &a));
    if (a != cases[i].want)
      test_failf(__FILE__, __LINE__, "case %zu: %s, want %s", i, oc_libred_alg_name(a),
                 oc_libred_alg_name(cases[i].want));
  }
  CHECK_EQ(oc_libred_select(OC_LC_RULE_OMPI, 0, 8, 8, &a), OC_EINVAL);
  CHECK_EQ(oc_libred_select(OC_LC_RULE_MPICH, 8, 8, 0, &a), OC_EINVAL);
}

/* The circulant allreduce for m packets (oc_allreduce_vector): random LogP
 * instances on both sides of P = 64, each schedule checked again by
 * oc_verify_vreduce (with the column hist) and, when small, by the reference above (which
 * follows hist its own way); its time never below the lower bound, which
 * no library algorithm beats either (a check of the bound); for m = 1 the
 * very schedule of oc_allreduce_schedule.  Mutants: a message carrying
 * its sender's next or previous partial result must be rejected by both. */
void test_allreduce_vector(void) {
  int n = test_sweep() ? 3000 : test_valgrind() ? 30 : 300, mutants = 0, held = 0;
  for (int it = 0; it < n; it++) {
    oc_params p;
    oc_sched s;
    oc_verdict v;
    uint32_t *h = NULL;
    int64_t P = 1 + (int64_t)(test_rand() % 70), m = 1 + (int64_t)(test_rand() % 5);
    int64_t L = (int64_t)(test_rand() % 12), o = (int64_t)(test_rand() % 4);
    int64_t g = 1 + (int64_t)(test_rand() % 7), t = -1, lb = -1, lb2 = -1, rt = -1;
    int small = P <= 20 && m <= 3;
    if (L + 2 * o < 1) L = 1;
    if (test_valgrind() && P > 16) P = 16;
    CHECK_OK(oc_params_logp(&p, P, L, o, g));
    oc_sched_init(&s);
    CHECK_OK(oc_allreduce_vector(&p, m, &s, &t, &lb));
    h = s.hist; /* the builder's column */
    if (h == NULL) {
      test_fail(__FILE__, __LINE__, "no hist");
      oc_sched_free(&s);
      return;
    }
    CHECK_OK(oc_allreduce_vector_bound(&p, m, &lb2));
    CHECK_EQ(lb, lb2);
    CHECK(t >= lb);
    CHECK_OK(oc_verify_vreduce(&p, -1, m, &s, &v));
    CHECK(v.ok);
    CHECK_EQ(v.time, t);
    if (m == 1) {
      int64_t t1 = -1, lb1 = -1;
      CHECK_OK(oc_allreduce_schedule(&p, NULL, &t1, &lb1));
      CHECK_EQ(t1, t);
    }
    if (small) {
      CHECK(ref_check_h(&p, -1, m, &s, NULL, NULL, NULL, h, &rt));
      CHECK_EQ(rt, t);
    }
    for (int a = 0; a < OC_LR_COUNT && P <= 40; a++) { /* nobody beats the bound */
      oc_sched s2;
      int64_t t2 = -1;
      oc_sched_init(&s2);
      CHECK_OK(oc_libred_allreduce(&p, m, (oc_libred_alg)a, &s2, &t2));
      if (t2 < lb)
        test_failf(__FILE__, __LINE__, "%s P=%lld m=%lld L=%lld o=%lld g=%lld: %lld < bound %lld",
                   oc_libred_alg_name((oc_libred_alg)a), (long long)P, (long long)m,
                   (long long)L, (long long)o, (long long)g, (long long)t2, (long long)lb);
      oc_sched_free(&s2);
    }
    for (size_t i = 0; small && i < s.n; i += 1 + s.n / 12) {
      for (int d = -1; d <= 1; d += 2) {
        uint32_t keep = h[i];
        if (d < 0 && keep == 0) continue;
        h[i] = d < 0 ? keep - 1 : keep + 1;
        CHECK_OK(oc_verify_vreduce(&p, -1, m, &s, &v)); /* h is s.hist */
        if (v.ok)
          test_failf(__FILE__, __LINE__, "P=%lld m=%lld L=%lld o=%lld g=%lld: message %zu "
                     "with hist %u accepted", (long long)P, (long long)m, (long long)L,
                     (long long)o, (long long)g, i, (unsigned)h[i]);
        if (v.rule == OC_RULE_HELD) held++;
        CHECK(!ref_check_h(&p, -1, m, &s, NULL, NULL, NULL, h, &rt));
        mutants++;
        h[i] = keep;
      }
    }
    oc_sched_free(&s);
  }
  CHECK(mutants > (test_valgrind() ? 5 : 100));
  CHECK(test_valgrind() || held > 0); /* a later partial result not made yet */
  { /* review: a spacing D above 2^40 is fine for one packet (stride 1) */
    oc_params p;
    int64_t t = 0, lb = 0;
    CHECK_OK(oc_params_logp(&p, 8, 1, (int64_t)1000000000000, 1));
    CHECK_OK(oc_allreduce_schedule(&p, NULL, &t, &lb));
    CHECK(t >= lb && lb > 0);
  }
}

/* what the libraries run for small vectors (Open MPI 4.1's fallbacks) */
void test_libred_runs(void) {
  oc_libred_alg a;
  CHECK_OK(oc_libred_runs(OC_LC_RULE_OMPI, OC_LR_RING, 16, 15, &a));
  CHECK_EQ(a, OC_LR_RD);
  CHECK_OK(oc_libred_runs(OC_LC_RULE_OMPI, OC_LR_RING, 16, 16, &a));
  CHECK_EQ(a, OC_LR_RING);
  CHECK_OK(oc_libred_runs(OC_LC_RULE_OMPI, OC_LR_RABEN, 12, 7, &a)); /* pof2 = 8 */
  CHECK_EQ(a, OC_LR_LINEAR);
  CHECK_OK(oc_libred_runs(OC_LC_RULE_OMPI, OC_LR_RABEN, 12, 8, &a));
  CHECK_EQ(a, OC_LR_RABEN);
  CHECK_OK(oc_libred_runs(OC_LC_RULE_OMPI, OC_LR_REDBCAST, 12, 1, &a));
  CHECK_EQ(a, OC_LR_REDBCAST);
  CHECK_OK(oc_libred_runs(OC_LC_RULE_MPICH, OC_LR_RABEN, 12, 1, &a));
  CHECK_EQ(a, OC_LR_RABEN);
  CHECK_EQ(oc_libred_runs(OC_LC_RULE_OMPI, OC_LR_COUNT, 12, 1, &a), OC_EINVAL);
  CHECK_EQ(oc_libred_runs(OC_LC_RULE_OMPI, OC_LR_RING, 0, 1, &a), OC_EINVAL);
  CHECK_EQ(oc_libred_runs(OC_LC_RULE_MPICH, OC_LR_RING, 4, -1, &a), OC_EINVAL);
  CHECK_EQ(oc_libred_runs(OC_LC_RULE_MPICH, OC_LR_RING, 4, 1, NULL), OC_EINVAL);
}
