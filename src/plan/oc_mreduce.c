/* oc_mreduce.c - reduce and allreduce of an m-packet vector in LogP
 * (commutative operator, one time unit per packet addition): several
 * constructions, each timed by the reduction-program simulator
 * (oc_rprog.c); the fastest is kept and checked by oc_verify_vreduce.
 *
 * Constructions, with h = L + 2o, G = max(g, o):
 *   REVERSED   a broadcast construction of oc_mbcast.c (Karp's tree, chain,
 *              binary, binomial, two-tree, multi-tree, split tree, scatter +
 *              allgather, rarest-first) at a segment size, run backwards in time: its
 *              broadcast schedule is simulated, and every message u -> v
 *              at time t becomes v -> u, taken in decreasing t.  A processor
 *              sends a packet on once everything that reversed order puts
 *              before it has come in and been added; receives are handled
 *              in that order.  Reversal is the classical duality of
 *              broadcast and reduction (Karp, Sahay, Santos & Schauser, SPAA
 *              1993, section 4.2, for one item; Sanders, Speck & Traeff,
 *              Parallel Computing 35 (2009), for the two-tree).  The
 *              reversed chain is the pipelined chain reduce, the reversed
 *              binomial tree the binomial reduce, the reversed scatter + rd
 *              allgather recursive halving + binomial gather (Rabenseifner's
 *              reduce, Thakur, Rabenseifner & Gropp 2005), the reversed
 *              scatter + ring allgather the ring reduce-scatter + gather.
 *              The additions (one unit each) are what a broadcast does not
 *              have: the simulator re-times the reversed program, so a relay
 *              adding c children's packets pays c (o + 1) a packet.
 *              Allreduce: the reduction to rank 0, then a broadcast from
 *              rank 0 (the root sends packet j on as soon as it is reduced,
 *              in the broadcast's packet order or, flipped, in the order
 *              the reduction finishes them; a relay forwards the broadcast
 *              after its reduction part): about reduce + broadcast.
 *   EXACT      (ours; REVERSED with exact = 1) the broadcast is built and
 *              timed with every send overhead o + u (u the addition's time:
 *              oc_lprog.sx, oc_mb_plan_sx) and run backwards on its own
 *              times, t -> T - t: a send at t, busy [t, t + o + u), becomes
 *              the reception [a, a + o) and its addition [a + o, a + o + u),
 *              a = T - t - o - u; the reception at t + o + u + L, busy o,
 *              becomes the send at a - L - o; the transit [t + o + u,
 *              t + o + u + L] maps onto itself reversed, so every LogP rule
 *              (gaps, overheads, capacity) holds backwards as it held
 *              forwards, and "forward packet j after receiving it" becomes
 *              "send j up after adding every child's j".  T is the
 *              broadcast's completion: the reduction takes exactly its time.
 *              The reduce simulator gets each send's time as its earliest
 *              start (oc_rp_at) and checks the rules again.  Plain REVERSED
 *              re-times the reversed order greedily instead: the receptions
 *              are fixed by the senders (LogP), so relays that add pay with
 *              collisions (cm5, P = 8, m = 1024, the chain: 6239 greedily,
 *              5192 here, the period 2o + 1 = 5 a packet).  The circulant's
 *              fixed slots survive only this way.
 *   LIBRED     (reduce only) the MPI libraries' reduce programs (oc_rpshape.c:
 *              Open MPI's segmented chain, binary, binomial and in-order
 *              trees, linear, Rabenseifner's reduce-scatter + gather), as
 *              `optcast compare reduce` runs them (search_libred).
 *   RD, RING, RABEN, REDBCAST, LINEAR (allreduce only) the MPI libraries'
 *              allreduce programs (sources and costs in oc_rpshape.c):
 *              recursive doubling about
 *              log2(P) (h + (m-1)G + m), the ring and Rabenseifner about
 *              2 (P-1)/P m G plus 2(P-1) h, resp. 2 log2(P) h.
 *   KARP       (reduce of one packet) Karp et al.'s optimal reduction
 *              (section 4.2; oc_reduce.c): B(P) for L + 1 and max(g, o+1).
 *   CIRCULANT  (allreduce only) Karp et al. Thm 4.1's circulant schedule
 *              with the packets interleaved (oc_allreduce.c): optimal for
 *              one packet, rounds of length mD for m.
 *   SPREAD     (ours) rarest-first (oc_lpshape.c) with segment j starting
 *              alone at relative rank j P / k instead of the root, simulated
 *              as a multi-source broadcast; its messages run backwards
 *              reduce segment j to that rank (a reduce-scatter).  Allreduce:
 *              the same messages run forwards broadcast it from there (an
 *              allgather): no processor carries every packet twice, as rank
 *              0 does in reduce + broadcast.  Reduce: each rank sends the
 *              sums it holds to the root (a gather, as in Rabenseifner's
 *              reduce).  At most OC_LP_RAREST_MAX segments.
 *   HYBRID     (ours, allreduce) recursive halving stopped after s steps,
 *              recursive doubling of each rank's 1/2^s share among the
 *              ranks with its low s bits, doubling back (oc_rpshape.c):
 *              Rabenseifner's (s = log2 P) and recursive doubling (s = 0)
 *              are its ends; in between, for a few packets on many
 *              processors, each of the log2 P exchanges carries a share.
 *   GROUPS     (ours; reduce: the last step a gather to the root) groups
 *              of q consecutive ranks (q | P,
 *              q <= m): a direct reduce-scatter in each group, Karp et
 *              al.'s circulant (Thm 4.1, oc_allreduce.c) on each chunk
 *              across the P/q groups, kept partial results and all (the
 *              hist column), a direct allgather in each group
 *              (oc_rpshape.c).  The circulant is the fastest one-packet
 *              allreduce where L is large against g and o; here it serves
 *              a chunk of m/q packets.  Reduce with flip: the columns
 *              reduced to the root's group by Karp's broadcast tree for
 *              P/q processors run backwards instead (groups_reduce).
 * optcast includes the libraries' programs among its own candidates: where
 * one of them is the fastest known schedule, optcast uses it and says so.
 *
 * Search (search_reversed): first EXACT with the fastest broadcast for
 * sends of o + u (oc_mb_plan_sx: the broadcast planner's whole search, the
 * circulant included); then every construction at the segment sizes m,
 * ceil(m/2), ceil(m/4), ..., 1, the broadcast under the greedy policy
 * (oc_lprog.c), is timed as a broadcast; the best few and each
 * construction's best are then timed reversed.  Allreduce:
 * the fastest reduction to rank 0 followed by the fastest broadcast from
 * rank 0, and each construction followed by itself, against the library
 * programs and the circulant, HYBRID (search_hybrid).  Both: GROUPS
 * (search_groups; reduce only for m > 1), SPREAD at every segment size with at
 * most OC_LP_RAREST_MAX segments (search_spread).
 *
 * Lower bounds (oc_mreduce_bound), reduce, P >= 2:
 *   R1 = the one-item reduction time (Karp et al. 4.2; oc_reduce_time):
 *        the messages of one packet alone form a one-item reduction (a copy
 *        only forwards a value built by additions elsewhere: it does not
 *        let a value grow faster than the additions' recurrence).
 *   R2 = L + 2o + (m-1) G: the root takes at least one message of every
 *        packet (each must bring the others' contributions), receive
 *        starts G apart, the first at L + o or later, the last busy for o.
 *        (Not more: a message may bring a finished value that the root
 *        copies without adding, as Rabenseifner's gather does.  R1 + (m-1)
 *        G, the mirror of the broadcast's LB1, is not shown: with g <= o a
 *        root may take its receptions back to back and add afterwards.)
 *   R3 = ceil(m (P-1) (2o + 1) / P): every non-root processor sends at
 *        least one message of every packet (its contribution must leave
 *        it), o at each end; a full value of P contributions is built by
 *        at least P - 1 additions (each merges two disjoint sets); all of
 *        it is busy time of P processors within [0, T].
 *   R4 = the least T >= L + 2o with (P-1)(T + o) - S >= m(P-1) o +
 *        (m(P-1) - R(T))(o + 1), R(T) = min(m(P-1), floor((T-L-2o)/G) + 1),
 *        S the sum of the P-1 smallest non-root labels of Karp et al.'s
 *        universal broadcast tree (oc_mbcast.c): the broadcast's overhead
 *        bound run backwards.  A non-root processor q has no use for work
 *        after its last send l_q, so it is busy within [0, l_q + o]; the
 *        non-root processors send m(P-1) messages or more, o each, receive
 *        all of them but the R(T) the root can take by T, o each, and do
 *        all the m(P-1) additions but one per root reception.  And
 *        sum (T - l_q) >= S: reversing time maps each LogP message to a
 *        valid one, and q's last message to the processor p it goes to,
 *        p != root, is followed by a later send of p carrying what it
 *        brought; so in reversed time these messages form a broadcast from
 *        the root in which q holds the datum from T - l_q on, and by time
 *        t at most P(t) processors hold it (Karp et al. Thm 2.1).  When S
 *        is too costly to sum, (P-1)(L + 2o) stands in.
 * Allreduce (oc_mallreduce_bound): the largest of oc_allreduce_vector_bound,
 * the reduce's (an allreduce is a reduce to processor 0 once the messages
 * that do not feed 0's result are dropped), and two from the one-way
 * gossip count of 2(P-1) messages a packet (at oc_mallreduce_bound).  Work: a candidate costs two
 * simulations (the broadcast, then the reversed program),
 * O(n log n) for n messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/oc_plan.h"

static const char *const MR_NAMES[OC_MR_COUNT] = {
    "reversed", "library", "recursive-doubling", "ring", "rabenseifner", "reduce-bcast", "linear",
    "circulant", "karp-reduction", "rarest-first-spread", "halving-doubling",
    "groups-circulant"};

static const char *const ML_NAMES[OC_ML_COUNT] = {
    "chain", "binary", "binomial", "bmtree", "in-order-binary", "linear", "rabenseifner"};

const char *oc_mred_lib_name(oc_mred_lib l) {
  return (l >= 0 && l < OC_ML_COUNT) ? ML_NAMES[l] : "?";
}

const char *oc_mred_family_name(oc_mred_family f) {
  return (f >= 0 && f < OC_MR_COUNT) ? MR_NAMES[f] : "?";
}

static int mr_check(const oc_params *p, int64_t root, int64_t m) {
  if (p == NULL || oc_params_check(p) != OC_OK) return OC_EINVAL;
  if (root < -1 || root >= p->P || m < 1) return OC_EINVAL;
  if (p->P > OC_MREDUCE_MAX || m > OC_MREDUCE_MAX / p->P) return OC_ERANGE;
  if (oc_mul_sat(m, oc_max64(p->g, p->o) + 1) > ((int64_t)1 << 50)) return OC_ERANGE;
  return OC_OK;
}

/* one packet-message of a broadcast schedule (long messages expanded) */
typedef struct mr_msg {
  int64_t t, src, dst, item, idx;
} mr_msg;

static int msg_cmp(const void *x, const void *y) {
  const mr_msg *a = (const mr_msg *)x, *b = (const mr_msg *)y;
  if (a->t != b->t) return a->t < b->t ? -1 : 1;
  return (a->idx > b->idx) - (a->idx < b->idx);
}

/* the schedule's packet messages in time order (a long message's packets
 * g apart, as the verifier spaces them), each processor's first receipt
 * of each packet only (none for the root): later copies (a scatter + allgather may deliver a
 * packet twice) would be counted twice when reversed */
static int expand(const oc_params *p, int64_t root, const int64_t *src, int64_t m,
                  const oc_sched *s, mr_msg **out, size_t *n) {
  size_t k = 0, tot = 0, w = 0;
  mr_msg *a;
  unsigned char *seen;
  for (size_t i = 0; i < s->n; i++) tot += (size_t)(s->len ? s->len[i] : 1);
  a = (mr_msg *)malloc((tot + 1) * sizeof *a);
  seen = (unsigned char *)calloc((size_t)(p->P * m), 1);
  if (a == NULL || seen == NULL) {
    free(a);
    free(seen);
    return OC_ENOMEM;
  }
  for (size_t i = 0; i < s->n; i++) {
    int64_t len = s->len ? s->len[i] : 1;
    for (int64_t x = 0; x < len; x++, k++) {
      a[k].t = s->msg[i].t + x * p->g;
      a[k].src = s->msg[i].src;
      a[k].dst = s->msg[i].dst;
      a[k].item = s->msg[i].item + x;
      a[k].idx = (int64_t)k;
    }
  }
  qsort(a, tot, sizeof *a, msg_cmp);
  if (src == NULL)
    memset(seen + root * m, 1, (size_t)m); /* the root holds every packet */
  else
    for (int64_t j = 0; j < m; j++) seen[src[j] * m + j] = 1; /* packet j starts at src[j] */
  for (size_t i = 0; i < tot; i++) {
    unsigned char *f = &seen[a[i].dst * m + a[i].item];
    if (*f) continue;
    *f = 1;
    a[w++] = a[i];
  }
  free(seen);
  *out = a;
  *n = w;
  return OC_OK;
}

/* The reversed broadcast: messages in decreasing time, each v -> u for
 * u -> v, adding.  Receives are posted in that order; a send of packet j
 * waits only for its sender's receives of j (in[v m + j]: 1 + the last of
 * them, 0 for none), and, as receives are handled in posted order, for
 * what was posted before them.  in[] is left for emit_forward (the root's
 * entries: when its reduction of each packet is in). */
static void emit_reversed(oc_rprog *b, const mr_msg *a, size_t n, int64_t *in,
                          const oc_params *p, int64_t sx) {
  int64_t m = b->m, T = 0, o2 = p->o + sx;
  if (sx > 0) /* EXACT (the broadcast's sends took o + sx): sent at T - t - o2 - L - o */
    for (size_t k = 0; k < n; k++) T = oc_max64(T, a[k].t + p->L + p->o + o2);
  for (size_t k = n; k-- > 0 && !b->err;) {
    int64_t q = a[k].dst, d = a[k].src, j = a[k].item;
    b->barrier[q] = in[q * m + j];
    oc_rp_xfer(b, q, d, j, 0);
    if (sx > 0) oc_rp_at(b, T - a[k].t - o2 - p->L - p->o);
    in[d * m + j] = b->nrecv[d];
  }
}

/* The broadcast after it: messages in increasing time, copies; the root
 * sends packet j once its reduction is in (in[root m + j]), the others
 * once they hold it (their receive of j, posted after all their receives
 * of the reduction: a relay forwards once its part of the reduction is
 * done); later sends wait for earlier ones.  With flip the broadcast's
 * packet i is packet m-1-i: the reduction run backwards completes the last
 * packets first, so the broadcast can start with the first one done.
 * (Interleaving the two parts packet by packet at the relays was tried:
 * 2 to 30 times slower, since each processor issues its sends in one
 * order and the reduction's then wait behind the broadcast's.) */
static int emit_forward(oc_rprog *b, const mr_msg *a, size_t n, int64_t root,
                        const int64_t *src, const int64_t *in, int flip) {
  int64_t m = b->m;
  int64_t *got = (int64_t *)malloc((size_t)(b->P * m) * sizeof *got);
  if (got == NULL) return OC_ENOMEM;
  for (int64_t i = 0; i < b->P * m; i++) got[i] = -1;
  for (size_t k = 0; k < n && !b->err; k++) {
    int64_t q = a[k].src, d = a[k].dst, j = flip ? m - 1 - a[k].item : a[k].item;
    int64_t from = src != NULL ? src[j] : root; /* where packet j's reduction ends */
    int64_t need = q == from ? in[q * m + j] : got[q * m + j] + 1;
    if (q != from && got[q * m + j] < 0) { /* the broadcast sends what it lacks: a bug */
      free(got);
      return OC_EINVALID;
    }
    if (need > b->barrier[q]) b->barrier[q] = need;
    oc_rp_xfer(b, q, d, j, 1);
    if (got[d * m + j] < 0) got[d * m + j] = b->nrecv[d] - 1;
  }
  free(got);
  return b->err;
}

/* one broadcast construction's schedule from root, as packet messages */
/* SPREAD: rarest-first with a source per segment (oc_lp_rarest_spread),
 * simulated as a broadcast; its messages, and in *src (m entries, the
 * caller frees) each packet's source */
static int spread_msgs(const oc_params *p, int64_t m, int64_t seg, mr_msg **a, size_t *n,
                       int64_t **src) {
  oc_lprog b;
  oc_sched s;
  int64_t t;
  int e;
  *src = NULL;
  if ((e = oc_lprog_init(&b, p->P, m, 0)) != OC_OK) return e;
  oc_sched_init(&s);
  e = oc_lp_rarest_spread(&b, p, seg);
  if (e == OC_OK) e = oc_lprog_finish(&b);
  if (e == OC_OK) e = oc_lprog_run(p, &b, &s, &t);
  if (e == OC_OK) e = expand(p, 0, b.src, m, &s, a, n);
  if (e == OC_OK) {
    *src = b.src; /* the caller's now */
    b.src = NULL;
  }
  oc_sched_free(&s);
  oc_lprog_free(&b);
  return e;
}

static int bcast_msgs(const oc_params *p, int64_t root, int64_t m, const oc_mbcast_info *cfg,
                      mr_msg **a, size_t *n) {
  oc_sched s;
  int64_t t;
  int e;
  oc_sched_init(&s);
  e = oc_mbcast_run(p, root, m, cfg, &s, &t);
  if (e == OC_OK) e = expand(p, root, NULL, m, &s, a, n);
  oc_sched_free(&s);
  return e;
}

/* GROUPS for reduce, with the columns reduced rather than allreduced:
 * the direct reduce-scatter in groups of q (as oc_rp_groups), then the
 * owners of chunk b, one per group, reduce it to the member of the root's
 * group by Karp's broadcast tree for P/q processors (one packet a
 * segment) run backwards, then the root's group sends its chunks to the
 * root (a gather).  in: P m entries, zeroed. */
static int groups_reduce(oc_rprog *b, const oc_params *p, int64_t root, int64_t q,
                         int64_t *in) {
  int64_t P = p->P, m = b->m, r, g0 = root / q, base = m / q, extra = m % q;
  oc_params cp;
  mr_msg *col[2] = {NULL, NULL};
  size_t ncol[2] = {0, 0};
  oc_mbcast_info kc;
  int e = OC_OK;
  if (q < 1 || q > m || P % q != 0) return OC_EINVAL;
  r = P / q;
  cp = *p;
  cp.P = r;
  memset(&kc, 0, sizeof kc);
  kc.alg = OC_MB_KARP;
  kc.seg = 1;
  for (int k = 0; k < 2 && r > 1; k++) /* the column's broadcast of base (+1) packets */
    if (base + k >= 1 && (k == 0 || extra > 0) &&
        (e = bcast_msgs(&cp, g0, base + k, &kc, &col[k], &ncol[k])) != OC_OK)
      goto out;
  oc_rp_group_scatter(b, q, 0); /* own values, no waiting */
  for (int64_t x = 0; x < P; x++) /* a column send waits for the group's part */
    for (int64_t j = 0; j < m; j++) in[x * m + j] = b->nrecv[x];
  for (int64_t bb = 0; bb < q && r > 1; bb++) { /* the columns, backwards */
    int k = bb < extra;
    int64_t lo = oc_rp_chunk_lo(m, q, bb);
    const mr_msg *a = col[k];
    for (size_t i = ncol[k]; i-- > 0 && !b->err;) {
      int64_t x = a[i].dst * q + bb, d = a[i].src * q + bb, j = lo + a[i].item;
      b->barrier[x] = in[x * m + j];
      oc_rp_xfer(b, x, d, j, 0);
      in[d * m + j] = b->nrecv[d];
    }
  }
  for (int64_t bb = 0; bb < q; bb++) { /* the gather in the root's group */
    int64_t x = g0 * q + bb;
    if (x == root) continue;
    oc_rp_sync(b, x);
    oc_rp_xfer_range(b, x, root, oc_rp_chunk_lo(m, q, bb), oc_rp_chunk_lo(m, q, bb + 1), 1);
  }
  e = b->err;
out:
  free(col[0]);
  free(col[1]);
  return e;
}

/* Karp et al.'s optimal one-item reduction (commutative), its messages as
 * a vector schedule of one packet (the verifier adds in arrival order, as
 * early as the rules allow: no later than the plan's own additions) */
static int karp_one(const oc_params *p, int64_t root, int64_t m, oc_sched *out, int64_t *time) {
  oc_reduce *x = NULL;
  oc_sched s, tmp, *o;
  oc_verdict v;
  int e;
  if (m != 1) return OC_EINVAL;
  if (p->P > OC_REDUCE_PLAN_MAX) return OC_ERANGE;
  if ((e = oc_reduce_new(&x, p, root, 0)) != OC_OK) return e;
  oc_sched_init(&s);
  oc_sched_init(&tmp);
  o = out != NULL ? out : &tmp;
  e = oc_reduce_schedule(x, &s);
  oc_reduce_free(x);
  for (size_t i = 0; i < s.n && e == OC_OK; i++)
    e = oc_sched_push(o, s.msg[i].t, s.msg[i].src, s.msg[i].dst, 0);
  if (e == OC_OK && (e = oc_verify_vreduce(p, root, 1, o, &v)) == OC_OK)
    e = v.ok ? OC_OK : OC_EINVALID;
  if (e == OC_OK) *time = v.time;
  oc_sched_free(&s);
  oc_sched_free(&tmp);
  return e;
}

/* The reduction program of a candidate (not KARP nor CIRCULANT, which are
 * schedules of their own), finished (oc_rprog_finish); *b is the caller's
 * to free (oc_rprog_free) whatever is returned. */
int oc_mreduce_prog(const oc_params *p, int64_t root, int64_t m, const oc_mreduce_info *cfg,
                    oc_rprog *b) {
  mr_msg *ra = NULL, *ba = NULL;
  size_t rn = 0, bn = 0;
  int64_t *in = NULL, *src = NULL, r0 = root < 0 ? 0 : root;
  int e;
  memset(b, 0, sizeof *b);
  if (cfg == NULL) return OC_EINVAL;
  if ((e = mr_check(p, root, m)) != OC_OK) return e;
  if (cfg->family < 0 || cfg->family >= OC_MR_COUNT || cfg->family == OC_MR_KARP ||
      cfg->family == OC_MR_CIRCULANT)
    return OC_EINVAL;
  if ((cfg->family == OC_MR_LIBRED) != (root >= 0) && cfg->family != OC_MR_REVERSED &&
      cfg->family != OC_MR_SPREAD && cfg->family != OC_MR_GROUPS)
    return OC_EINVAL; /* LIBRED: reduce only; REVERSED, SPREAD, GROUPS: both; the
                         others: allreduce only */
  if (cfg->family == OC_MR_LIBRED && (cfg->lib < 0 || cfg->lib >= OC_ML_COUNT || cfg->seg < 0))
    return OC_EINVAL;
  if ((e = oc_rprog_init(b, p->P, m)) != OC_OK) return e;
  if (cfg->family == OC_MR_LIBRED) {
    oc_rp_reduce(b, root, (oc_rp_red)cfg->lib, cfg->seg);
  } else if (cfg->family == OC_MR_HYBRID) {
    if (cfg->seg < 0) {
      e = OC_EINVAL;
      goto done;
    }
    oc_rp_hybrid(b, cfg->seg);
  } else if (cfg->family == OC_MR_GROUPS && root >= 0 && cfg->flip) {
    if ((in = (int64_t *)calloc((size_t)(p->P * m), sizeof *in)) == NULL) {
      e = OC_ENOMEM;
      goto done;
    }
    if ((e = groups_reduce(b, p, root, cfg->seg, in)) != OC_OK) goto done;
  } else if (cfg->family == OC_MR_GROUPS) {
    if ((e = oc_rp_groups(b, p, cfg->seg, root)) != OC_OK) goto done;
    if (root >= 0 && (e = oc_rprog_prune(b, root)) != OC_OK) goto done;
  } else if (cfg->family != OC_MR_REVERSED && cfg->family != OC_MR_SPREAD) {
    oc_rp_shape(b, (oc_rp_kind)(cfg->family - OC_MR_RD));
  } else if (cfg->family == OC_MR_SPREAD) { /* the spread backwards, then forwards */
    if (cfg->seg < 0) {
      e = OC_EINVAL;
      goto done;
    }
    if ((e = spread_msgs(p, m, cfg->seg, &ra, &rn, &src)) != OC_OK) goto done;
    if ((in = (int64_t *)calloc((size_t)(p->P * m), sizeof *in)) == NULL) {
      e = OC_ENOMEM;
      goto done;
    }
    emit_reversed(b, ra, rn, in, p, 0);
    if (root >= 0 && src != NULL) { /* reduce: the sources send their sums to the root */
      size_t g = 0;
      for (int64_t j = 0; j < m; j++)
        if (src[j] != root) {
          ra[g].src = src[j];
          ra[g].dst = root;
          ra[g++].item = j;
        }
      rn = g; /* (rn >= m - 1 such messages were there: every packet reaches everyone) */
    }
    if ((e = emit_forward(b, ra, rn, r0, src, in, 0)) != OC_OK) goto done;
  } else {
    if (cfg->exact != (cfg->red.sx != 0) || cfg->bc.sx != 0) { /* EXACT: sends take o + sx */
      e = OC_EINVAL;
      goto done;
    }
    if ((e = bcast_msgs(p, r0, m, &cfg->red, &ra, &rn)) != OC_OK) goto done;
    if (root < 0 && (e = bcast_msgs(p, r0, m, &cfg->bc, &ba, &bn)) != OC_OK) goto done;
    if ((in = (int64_t *)calloc((size_t)(p->P * m), sizeof *in)) == NULL) {
      e = OC_ENOMEM;
      goto done;
    }
    emit_reversed(b, ra, rn, in, p, cfg->red.sx);
    if (root < 0 && (e = emit_forward(b, ba, bn, r0, NULL, in, cfg->flip)) != OC_OK) goto done;
  }
  free(ra); /* the program holds it all now: room for the simulation */
  free(ba);
  free(in);
  free(src);
  ra = ba = NULL;
  in = src = NULL;
  e = oc_rprog_finish(b);
done:
  free(ra);
  free(ba);
  free(in);
  free(src);
  return e;
}

int oc_mreduce_run(const oc_params *p, int64_t root, int64_t m, const oc_mreduce_info *cfg,
                   oc_sched *out, int64_t *time) {
  oc_rprog b;
  int e;
  if (cfg == NULL || time == NULL) return OC_EINVAL;
  if ((e = mr_check(p, root, m)) != OC_OK) return e;
  if (cfg->family < 0 || cfg->family >= OC_MR_COUNT) return OC_EINVAL;
  if ((cfg->family == OC_MR_KARP || cfg->family == OC_MR_CIRCULANT) &&
      (cfg->family == OC_MR_KARP) != (root >= 0))
    return OC_EINVAL; /* KARP: reduce only; CIRCULANT: allreduce only */
  if (cfg->family == OC_MR_KARP) return karp_one(p, root, m, out, time);
  if (cfg->family == OC_MR_CIRCULANT && out == NULL) /* its time has a formula */
    return oc_allreduce_vector_time(p, m, time);
  if (cfg->family == OC_MR_CIRCULANT) {
    int64_t lb;
    return oc_allreduce_vector(p, m, out, time, &lb);
  }
  if ((e = oc_mreduce_prog(p, root, m, cfg, &b)) == OC_OK)
    e = oc_rprog_run(p, &b, root, out, time); /* (out NULL: the time only) */
  oc_rprog_free(&b);
  return e;
}

/* ---- search ------------------------------------------------------------------- */
typedef struct mr_best {
  oc_mreduce_info best;
  int have;
  int64_t full_max, proxy; /* the bounded search past full_max messages (OC_MB_FULL_MAX) */
} mr_best;

/* two candidates of the same construction (segment sizes, degrees) are
 * not each other's runner-up */
static int same_kind(const oc_mreduce_info *a, const oc_mreduce_info *b) {
  return a->family == b->family && (a->family != OC_MR_REVERSED || a->red.alg == b->red.alg) &&
         (a->family != OC_MR_LIBRED || a->lib == b->lib);
}

static void consider(mr_best *r, const oc_mreduce_info *c, int64_t t) {
  if (!r->have || t < r->best.time) {
    oc_mreduce_info old = r->best;
    r->best = *c;
    r->best.time = t;
    r->best.timed = old.timed;
    r->best.runner_up = -1;
    if (r->have && !same_kind(&old, c)) {
      r->best.runner_up = old.time;
      r->best.runner_family = old.family;
      r->best.runner_alg = old.red.alg;
    } else if (r->have) {
      r->best.runner_up = old.runner_up;
      r->best.runner_family = old.runner_family;
      r->best.runner_alg = old.runner_alg;
    }
    r->have = 1;
  } else if (!same_kind(&r->best, c) && (r->best.runner_up < 0 || t < r->best.runner_up)) {
    r->best.runner_up = t;
    r->best.runner_family = c->family;
    r->best.runner_alg = c->red.alg;
  }
}

/* time one candidate; OC_ERANGE (cannot be built) is skipped */
static int try_one(const oc_params *p, int64_t root, int64_t m, oc_mreduce_info *c, mr_best *r) {
  int64_t t;
  int e = oc_mreduce_run(p, root, m, c, NULL, &t);
  r->best.timed++;
  if (e == OC_ERANGE) return OC_OK;
  if (e != OC_OK) return e;
  c->time = t;
  consider(r, c, t);
  return OC_OK;
}

/* The reversed constructions (alg, or all) in two passes.  First every
 * construction at every segment size (the multi-tree at the three degrees
 * oc_mb_degree_order ranks first) is timed as a broadcast: cheap, no
 * schedule.  A reduction is about its broadcast run backwards, plus the
 * additions, so the broadcast time ranks the candidates; then the
 * MR_TOP best of them, and each construction's best (unless its broadcast
 * takes 1.25 times the best one's), are built reversed and timed.  The
 * first pass costs about one oc_mbcast_plan, the second at most MR_TOP +
 * OC_MB_COUNT candidates of two simulations each; when o > 0 the top ones
 * also with the broadcast timed under its other policy (sends first,
 * oc_lprog.c), whose order, run backwards, is sometimes the better one
 * (5 of twelve instances 1-5% faster).  (Measured on the twelve: the top 6
 * and 1.5 times chose the same in all twelve, the top 3 and 1.1 times lost
 * in two; 25% less time at P = m = 1024.) */
#define MR_TOP 4
#define MR_CANDS 512
typedef struct mr_cand {
  oc_mbcast_info cfg;
  int64_t bt;
} mr_cand;

static int cand_cmp(const void *x, const void *y) {
  const mr_cand *a = (const mr_cand *)x, *b = (const mr_cand *)y;
  if (a->bt != b->bt) return a->bt < b->bt ? -1 : 1;
  if (a->cfg.alg != b->cfg.alg) return a->cfg.alg < b->cfg.alg ? -1 : 1;
  if (a->cfg.degree != b->cfg.degree) return a->cfg.degree < b->cfg.degree ? -1 : 1;
  return (a->cfg.seg < b->cfg.seg) - (a->cfg.seg > b->cfg.seg);
}

/* Past OC_MB_FULL_MAX messages: the constructions as oc_mb_rank_bounded
 * ranks them for a broadcast (estimated from smaller instances), the first
 * few (oc_mb_large_take) run backwards at full size, each under both
 * policies when o > 0 - unless the reduction with times kept (EXACT) is
 * already in hand: on the grid's 8 reduce cells past 2^22 messages it or
 * groups-circulant won every one, and the greedy re-timings cost six
 * full-size simulations (about 6 minutes and 10 GB each at 2^26). */
/* MR_NO_CIRC: the greedy re-timing leaves the circulant broadcast out (it
 * can still be asked for by name): its fixed slots (oc_lp_emit_at) are lost
 * when the reduce simulator re-times the reversed order, and it fell far
 * behind on some grid cells.  EXACT (search_exact) keeps its slots and
 * takes it with the other constructions. */
static int search_reversed_large(const oc_params *p, int64_t root, int64_t m, oc_mbcast_alg alg,
                                 mr_best *r, oc_mbcast_info *fastest, int64_t *bestseg) {
  oc_mb_cand c[OC_MB_RANKED];
  int nc = 0, e;
  if ((e = oc_mb_rank_bounded(p, 0, m, alg, alg == OC_MB_BEST ? OC_MB_CIRCULANT : OC_MB_BEST,
                                r->proxy, c, &nc, &r->best.timed)) != OC_OK) /* MR_NO_CIRC */
    return e;
  if (fastest != NULL) {
    memset(fastest, 0, sizeof *fastest);
    fastest->alg = OC_MB_BEST;
    if (nc > 0) *fastest = c[0].cfg;
  }
  if (bestseg != NULL)
    for (int k = nc; k-- > 0;) bestseg[c[k].cfg.alg] = c[k].cfg.seg;
  for (int k = 0; k < nc && oc_mb_large_take(p->P, m, k) && !(r->have && r->best.exact); k++)
    for (int v = 0; v < (p->o > 0 ? 2 : 1); v++) {
      oc_mreduce_info x;
      memset(&x, 0, sizeof x);
      x.family = OC_MR_REVERSED;
      x.red = c[k].cfg;
      if (v == 1) oc_mb_other_policy(&x.red);
      x.bc = x.red;
      if ((e = try_one(p, root, m, &x, r)) != OC_OK) return e;
    }
  return OC_OK;
}

/* EXACT: the fastest broadcast for o + u (oc_mbcast_plan, the circulant
 * among them: its slots are kept), run backwards on its own times, which
 * takes exactly that broadcast's time. */
static int search_exact(const oc_params *p, int64_t root, int64_t m, oc_mbcast_alg alg,
                        mr_best *r) {
  oc_mreduce_info x;
  int e;
  memset(&x, 0, sizeof x);
  e = oc_mb_plan_sx(p, p->unit, root < 0 ? 0 : root, m, alg, NULL, &x.red);
  if (e == OC_ERANGE) return OC_OK; /* (none for these parameters) */
  if (e != OC_OK) return e;
  r->best.timed += x.red.timed;
  x.family = OC_MR_REVERSED;
  x.exact = 1;
  x.bc = x.red; /* (allreduce: the broadcast after it, as an ordinary one) */
  x.bc.sx = 0;
  return try_one(p, root, m, &x, r);
}

static int search_reversed(const oc_params *p, int64_t root, int64_t m, oc_mbcast_alg alg,
                           mr_best *r, oc_mbcast_info *fastest, int64_t *bestseg) {
  mr_cand *c;
  int nc = 0, e = OC_OK, taken[OC_MB_COUNT] = {0};
  int64_t r0 = root < 0 ? 0 : root;
  if ((m > 1 || root < 0) && (e = search_exact(p, root, m, alg, r)) != OC_OK)
    return e; /* (one packet's reduce: KARP is the optimum) */
  if (oc_mul_sat(p->P, m) > r->full_max)
    return search_reversed_large(p, root, m, alg, r, fastest, bestseg);
  c = (mr_cand *)malloc(MR_CANDS * sizeof *c);
  if (c == NULL) return OC_ENOMEM;
  for (int a = 0; a < OC_MB_COUNT && e == OC_OK; a++) {
    int64_t deg[OC_MB_DEGREES];
    int nd = 1;
    if (alg != OC_MB_BEST && a != (int)alg) continue;
    if (alg == OC_MB_BEST && a == OC_MB_CIRCULANT) continue; /* MR_NO_CIRC */
    if (alg == OC_MB_BEST && a == OC_MB_PIPELINE) continue; /* by name only */
    deg[0] = 0;
    if (a == OC_MB_MULTITREE) {
      nd = oc_mb_degree_order(p, m, deg);
      if (nd > 3) nd = 3;
    }
    for (int i = 0; i < nd && e == OC_OK; i++) {
      int64_t prev = 0;
      for (int64_t s = m; nc < MR_CANDS; s = (s + 1) / 2) {
        mr_cand *x = &c[nc];
        if (s == prev) break;
        prev = s;
        if (a == OC_MB_MULTITREE && oc_lp_nsegs(0, m, s) < deg[i]) continue;
        memset(x, 0, sizeof *x);
        x->cfg.alg = (oc_mbcast_alg)a;
        x->cfg.seg = s;
        x->cfg.degree = deg[i];
        e = oc_mbcast_run(p, r0, m, &x->cfg, NULL, &x->bt);
        r->best.timed++;
        if (e == OC_ERANGE) {
          e = OC_OK; /* this one cannot be built */
        } else if (e == OC_OK) {
          nc++;
        } else {
          break;
        }
        if (a == OC_MB_SCATTER_RD || a == OC_MB_SCATTER_RING || s == 1) break;
      }
    }
  }
  if (e == OC_OK) qsort(c, (size_t)nc, sizeof *c, cand_cmp);
  if (fastest != NULL) { /* the fastest broadcast (alg -1: none) */
    memset(fastest, 0, sizeof *fastest);
    fastest->alg = OC_MB_BEST;
    if (nc > 0) *fastest = c[0].cfg;
  }
  if (bestseg != NULL) /* each construction's best segment size (0: none) */
    for (int k = nc; k-- > 0;) bestseg[c[k].cfg.alg] = c[k].cfg.seg;
  for (int k = 0; k < nc && e == OC_OK; k++) {
    oc_mreduce_info x;
    /* past the top: each construction's best, unless hopeless as a broadcast */
    if (k >= MR_TOP && (taken[c[k].cfg.alg] || c[k].bt > c[0].bt + c[0].bt / 4)) continue;
    taken[c[k].cfg.alg] = 1;
    memset(&x, 0, sizeof x);
    x.family = OC_MR_REVERSED;
    x.red = c[k].cfg;
    x.bc = x.red;
    e = try_one(p, root, m, &x, r);
    if (e == OC_OK && p->o > 0 && k < MR_TOP) { /* the broadcast's other policy */
      x.red.send_first = 1;
      x.bc = x.red;
      e = try_one(p, root, m, &x, r);
    }
  }
  free(c);
  return e;
}

/* The libraries' reduce programs as `optcast compare reduce` runs them:
 * the trees whole, the chain and the binary tree also in segments of one
 * packet (Open MPI's pipeline) and of the size at which the same tree
 * broadcasts fastest (bestseg, by oc_mbcast_alg); linear (up to P = 256:
 * its P - 1 senders queue at one receiver); Rabenseifner's. */
static int search_libred(const oc_params *p, int64_t root, int64_t m, const int64_t *bestseg,
                         mr_best *r) {
  for (int l = 0; l < OC_ML_COUNT; l++) {
    int64_t segs[3], ns = 0;
    if (l == OC_ML_LINEAR && p->P > 256) continue;
    segs[ns++] = m;
    if (l == OC_ML_CHAIN || l == OC_ML_BINARY) {
      int64_t b = bestseg[l == OC_ML_CHAIN ? OC_MB_CHAIN : OC_MB_BINARY];
      if (m > 1) segs[ns++] = 1;
      if (b > 1 && b < m) segs[ns++] = b;
    }
    for (int64_t i = 0; i < ns; i++) {
      oc_mreduce_info c;
      int e;
      memset(&c, 0, sizeof c);
      c.family = OC_MR_LIBRED;
      c.lib = (oc_mred_lib)l;
      c.seg = l <= OC_ML_INORDER ? segs[i] : 0;
      if (r->have && oc_mr_floor(p, root, m, &c) >= r->best.time) continue; /* cannot win */
      if ((e = try_one(p, root, m, &c, r)) != OC_OK) return e;
    }
  }
  return OC_OK;
}

/* SPREAD (allreduce): every segment size s = m, ceil(m/2), ..., 1 with at
 * most OC_LP_RAREST_MAX segments; past full_max messages only the one with
 * min(m, 16) segments (where it won the smaller instances: docs) */
static int search_spread(const oc_params *p, int64_t root, int64_t m, mr_best *r) {
  int64_t prev = 0;
  for (int64_t s = m;; s = (s + 1) / 2) {
    oc_mreduce_info c;
    int e;
    if (s == prev) break;
    prev = s;
    if (oc_lp_nsegs(0, m, s) > OC_LP_RAREST_MAX) break;
    if (oc_mul_sat(p->P, m) > r->full_max && oc_lp_nsegs(0, m, s) != oc_min64(m, 16)) continue;
    memset(&c, 0, sizeof c);
    c.family = OC_MR_SPREAD;
    c.seg = s;
    if ((e = try_one(p, root, m, &c, r)) != OC_OK) return e;
  }
  return OC_OK;
}

/* The halving-doubling hybrid (allreduce) at every number s of halving
 * steps with 1 <= s < log2 pof2, 2^s <= 2m (past m packets, more halving
 * only empties chunks) and at most 8 packets per rank in the doubling
 * (more: Rabenseifner's, s = log2 pof2, carries less); at most 4
 * candidates, about 2 P m + 8 P log2 P messages each. */
static int search_hybrid(const oc_params *p, int64_t m, mr_best *r) {
  int64_t steps = 0, top = 1;
  int big = oc_mul_sat(p->P, m) > r->full_max;
  while (((int64_t)2 << steps) <= p->P) steps++;
  while (((int64_t)1 << top) < m) top++; /* ceil(log2 m), at least 1 */
  for (int64_t s = 1; s < steps && s <= top; s++) {
    oc_mreduce_info c;
    int e;
    if ((m + ((int64_t)1 << s) - 1) >> s > 8) continue;
    if (big && s != oc_min64(top, steps - 1)) continue; /* past full_max: one guess */
    memset(&c, 0, sizeof c);
    c.family = OC_MR_HYBRID;
    c.seg = s;
    if (r->have && oc_mr_floor(p, -1, m, &c) >= r->best.time) continue;
    if ((e = try_one(p, -1, m, &c, r)) != OC_OK) return e;
  }
  return OC_OK;
}

/* The groups + circulant for every group size q that divides P with
 * 1 <= q <= m (q = 1: the circulant alone, timed as a dataflow program
 * rather than in fixed rounds, which can be faster) and at most 8 packets
 * a chunk (the circulant's messages carry a chunk each round; reduce: also
 * with the columns reduced by Karp's tree backwards), the 6 largest such (past full_max
 * messages only the largest, which won every grid cell but one);
 * OC_ERANGE (a column past the circulant's limits) is skipped. */
static int search_groups(const oc_params *p, int64_t root, int64_t m, mr_best *r) {
  int tried = 0, most = oc_mul_sat(p->P, m) > r->full_max ? 1 : 6;
  for (int64_t q = oc_min64(m, p->P); q >= 1 && tried < most; q--) {
    oc_mreduce_info c;
    int e;
    if (p->P % q != 0) continue;
    if ((m + q - 1) / q > 8) break;
    memset(&c, 0, sizeof c);
    c.family = OC_MR_GROUPS;
    c.seg = q;
    tried++;
    if ((!r->have || oc_mr_floor(p, root, m, &c) < r->best.time) &&
        (e = try_one(p, root, m, &c, r)) != OC_OK)
      return e;
    c.flip = 1; /* reduce: the columns reduced by Karp's tree backwards */
    if (root >= 0 && (!r->have || oc_mr_floor(p, root, m, &c) < r->best.time) &&
        (e = try_one(p, root, m, &c, r)) != OC_OK)
      return e;
  }
  return OC_OK;
}

/* A floor under a program's simulated time, without building it.  A rank
 * handles its receptions G = max(g, o) apart at the least, the first after
 * L + 2o: (n - 1) G + L + 2o for n receptions.  And a rank's send in a step
 * of the whole-vector programs (oc_rpshape.c) waits until it has handled
 * everything it received before the step, so each step on the longest
 * chain costs at least the last of its k packets sent G apart and its
 * transit, L + 2o + (k-1) G.  Floors:
 *   recursive doubling     log2 pof2 chained steps of m packets
 *   reduce + broadcast     the binomial tree's depth, floor(log2 P), each way
 *   halving-doubling (seg = s halvings)  log2 pof2 - s chained steps of a
 *                          rank's share, at least floor(m / 2^s) packets
 *   groups-circulant (seg = q)  the receptions of member 0, whose chunk
 *                          has c = ceil(m/q) packets: (q-1) c in the
 *                          reduce-scatter, c in each circulant round that
 *                          sends (the same round search as the program),
 *                          m - c in the allgather (allreduce)
 *   the libraries' reduce trees  the tree's root receives m packets from
 *                          each child (in-order binary: rank P-1 from its
 *                          two, before it sends on); the chain also P - 1
 *                          hops of at least L + 2o each; linear: (P-1) m
 *                          receptions at the root
 * 0 for the others (Rabenseifner's reduce).  The search skips a program whose floor is not below
 * the best time found: recursive doubling alone is P m log2 P messages
 * (2^26 at P = 65536, m = 64, about 10 GiB in the simulator) and never
 * wins there; groups with small q run the circulant on many packets. */
static int64_t chain_floor(const oc_params *p, int64_t steps, int64_t k) {
  if (k < 1) return 0;
  return oc_mul_sat(steps, oc_add_sat(p->L + 2 * p->o, oc_mul_sat(k - 1, oc_max64(p->g, p->o))));
}
int64_t oc_mr_floor(const oc_params *p, int64_t root, int64_t m, const oc_mreduce_info *c) {
  int64_t steps = 0, s = c->seg;
  while (((int64_t)2 << steps) <= p->P) steps++;
  switch (c->family) {
  case OC_MR_RD: return chain_floor(p, steps, m);
  case OC_MR_REDBCAST: return chain_floor(p, 2 * steps, m);
  case OC_MR_HYBRID: return s >= 0 && s < steps ? chain_floor(p, steps - s, m >> s) : 0;
  case OC_MR_LIBRED: {
    static const oc_lp_shape SH[] = {OC_LP_CHAIN, OC_LP_BINARY, OC_LP_KNOMIAL, OC_LP_BMTREE,
                                     OC_LP_BINARY};
    int64_t ch[OC_LP_CHILDREN_MAX], n, f;
    if (c->lib == OC_ML_LINEAR) return chain_floor(p, 1, oc_mul_sat(p->P - 1, m));
    if (c->lib > OC_ML_INORDER || p->P < 2) return 0;
    n = oc_lp_children(SH[c->lib], p->P, 0, c->lib == OC_ML_CHAIN ? 1 : 2, ch, OC_LP_CHILDREN_MAX);
    f = chain_floor(p, 1, oc_mul_sat(n, m));
    if (c->lib == OC_ML_CHAIN) f = oc_max64(f, oc_mul_sat(p->P - 1, p->L + 2 * p->o));
    return f;
  }
  case OC_MR_GROUPS: {
    int64_t q = s, cc, n, *off = NULL, *pick = NULL, R = 0;
    oc_params cp = *p;
    if (q < 1 || q > m || p->P % q != 0) return 0;
    cc = (m + q - 1) / q;
    n = (q - 1) * cc + (root < 0 ? m - cc : 0);
    cp.P = p->P / q;
    if (!(root >= 0 && c->flip) && oc_allreduce_rounds(&cp, cc, &off, &pick, &R) == OC_OK)
      for (int64_t k = 0; k < R; k++) n += pick[k] >= 0 ? cc : 0;
    free(off);
    free(pick);
    return n < 1 ? 0 : oc_add_sat(oc_mul_sat(n - 1, oc_max64(p->g, p->o)), p->L + 2 * p->o);
  }
  default: return 0;
  }
}

int oc_mreduce_plan(const oc_params *p, int64_t root, int64_t m, oc_mbcast_alg alg,
                    oc_sched *out, oc_mreduce_info *info) {
  return oc_mr_plan_ex(p, root, m, alg, OC_MB_FULL_MAX, OC_MB_PROXY, out, info);
}

int oc_mr_plan_ex(const oc_params *p, int64_t root, int64_t m, oc_mbcast_alg alg,
                  int64_t full_max, int64_t proxy, oc_sched *out, oc_mreduce_info *info) {
  mr_best r;
  int e;
  if (info == NULL || full_max < 0 || proxy < 1) return OC_EINVAL;
  if ((e = mr_check(p, root, m)) != OC_OK) return e;
  if (alg != OC_MB_BEST && (alg < 0 || alg >= OC_MB_COUNT)) return OC_EINVAL;
  memset(&r, 0, sizeof r);
  r.best.runner_up = -1;
  r.full_max = full_max;
  r.proxy = proxy;
  if (root >= 0) {
    int64_t bestseg[OC_MB_COUNT] = {0};
    if ((e = search_reversed(p, root, m, alg, &r, NULL, bestseg)) != OC_OK) return e;
    if (alg == OC_MB_BEST && (e = search_libred(p, root, m, bestseg, &r)) != OC_OK) return e;
    if ((alg == OC_MB_BEST || alg == OC_MB_RAREST) && m > 1 &&
        (e = search_spread(p, root, m, &r)) != OC_OK)
      return e;
    if (alg == OC_MB_BEST && m > 1 && (e = search_groups(p, root, m, &r)) != OC_OK) return e;
    if (alg == OC_MB_BEST && m == 1) { /* one packet: the optimal reduction */
      oc_mreduce_info c;
      memset(&c, 0, sizeof c);
      c.family = OC_MR_KARP;
      if ((e = try_one(p, root, m, &c, &r)) != OC_OK) return e;
    }
  } else {
    /* allreduce: the best reduction to 0 and broadcast from 0, composed */
    mr_best red;
    oc_mbcast_info bc;
    memset(&red, 0, sizeof red);
    red.best.runner_up = -1;
    red.full_max = full_max;
    red.proxy = proxy;
    if ((e = search_reversed(p, 0, m, alg, &red, &bc, NULL)) != OC_OK) return e;
    r.best.timed = red.best.timed;
    if (red.have) /* itself after itself, then the fastest broadcast; each flipped too */
      for (int k = 0; k < 4; k++) {
        oc_mreduce_info c = red.best;
        c.flip = k & 1;
        if (k >= 2) {
          if (bc.alg == OC_MB_BEST ||
              (bc.alg == c.red.alg && bc.seg == c.red.seg && bc.degree == c.red.degree))
            break;
          c.bc = bc;
        }
        if ((e = try_one(p, -1, m, &c, &r)) != OC_OK) return e;
      }
    if (alg == OC_MB_BEST || alg == OC_MB_RAREST)
      if ((e = search_spread(p, -1, m, &r)) != OC_OK) return e;
    /* (groups first: their time lets the floors skip hopeless programs) */
    if (alg == OC_MB_BEST && (e = search_groups(p, -1, m, &r)) != OC_OK) return e;
    if (alg == OC_MB_BEST && m > 1 && (e = search_hybrid(p, m, &r)) != OC_OK) return e;
    if (alg == OC_MB_BEST)
      for (int f = OC_MR_RD; f <= OC_MR_CIRCULANT; f++) {
        oc_mreduce_info c;
        memset(&c, 0, sizeof c);
        c.family = (oc_mred_family)f;
        if (f == OC_MR_LINEAR && p->P > 256) continue; /* its P - 1 senders queue at one */
        if (r.have && oc_mr_floor(p, -1, m, &c) >= r.best.time) continue;
        if (f == OC_MR_RING && oc_mul_sat(p->P, p->P) / 4 > OC_MREDUCE_MAX / 16) continue;
        /* (its 2 (P-1) steps of P processors, empty chunks included: as
         * oc_libred_messages counts it) */
        if ((e = try_one(p, -1, m, &c, &r)) != OC_OK) return e;
      }
  }
  if (!r.have) return OC_ERANGE;
  if (out != NULL) {
    int64_t t;
    oc_verdict v;
    if ((e = oc_mreduce_run(p, root, m, &r.best, out, &t)) != OC_OK) return e;
    if (t != r.best.time) return OC_EINVALID; /* the simulator is deterministic */
    if ((e = oc_verify_vreduce(p, root, m, out, &v)) != OC_OK) return e;
    if (!v.ok || v.time != t) return OC_EINVALID; /* never hand out a rejected one */
  }
  *info = r.best;
  return OC_OK;
}

int oc_mreduce_describe(const oc_mreduce_info *i, int64_t root, int64_t m, char *buf,
                        size_t n) {
  char a[100], b[100];
  const oc_mbcast_info *x[2];
  char *o[2];
  if (i == NULL || buf == NULL || n == 0) return OC_EINVAL;
  if (i->family == OC_MR_LIBRED) {
    if (i->seg > 0 && i->seg < m && i->lib <= OC_ML_INORDER)
      snprintf(buf, n, "%s reduce in segments of %lld", oc_mred_lib_name(i->lib),
               (long long)i->seg);
    else
      snprintf(buf, n, "%s reduce", oc_mred_lib_name(i->lib));
    return OC_OK;
  }
  if (i->family == OC_MR_SPREAD) {
    const char *w = root >= 0 ? "gather" : "allgather";
    if (i->seg > 0 && i->seg < m)
      snprintf(buf, n, "rarest-first reduce-scatter + %s in segments of %lld", w,
               (long long)i->seg);
    else
      snprintf(buf, n, "rarest-first reduce-scatter + %s", w);
    return OC_OK;
  }
  if (i->family == OC_MR_GROUPS && root >= 0 && i->flip) {
    snprintf(buf, n, "reduce-scatter in groups of %lld + reversed karp across them + gather",
             (long long)i->seg);
    return OC_OK;
  }
  if (i->family == OC_MR_GROUPS && i->seg == 1) {
    snprintf(buf, n, "circulant (Karp Thm 4.1) as a dataflow program");
    return OC_OK;
  }
  if (i->family == OC_MR_GROUPS) {
    snprintf(buf, n, "reduce-scatter in groups of %lld + circulant across them + %s",
             (long long)i->seg, root >= 0 ? "gather" : "allgather");
    return OC_OK;
  }
  if (i->family == OC_MR_HYBRID) {
    snprintf(buf, n, "recursive halving for %lld steps + recursive doubling of the share + "
             "doubling back", (long long)i->seg);
    return OC_OK;
  }
  if (i->family != OC_MR_REVERSED) {
    snprintf(buf, n, "%s", i->family == OC_MR_CIRCULANT ? "circulant (Karp Thm 4.1 extended)"
                                                          : oc_mred_family_name(i->family));
    return OC_OK;
  }
  x[0] = &i->red;
  x[1] = &i->bc;
  o[0] = a;
  o[1] = b;
  for (int k = 0; k < 2; k++) {
    char deg[32] = "";
    if (x[k]->degree > 0)
      snprintf(deg, sizeof deg, " (%lld %s)", (long long)x[k]->degree,
               oc_mbcast_degree_unit(x[k]->alg, x[k]->degree));
    if (x[k]->seg >= m || x[k]->alg == OC_MB_SCATTER_RD || x[k]->alg == OC_MB_SCATTER_RING)
      snprintf(o[k], 100, "%s%s", oc_mbcast_alg_name(x[k]->alg), deg);
    else
      snprintf(o[k], 100, "%s%s in segments of %lld", oc_mbcast_alg_name(x[k]->alg), deg,
               (long long)x[k]->seg);
  }
  if (root >= 0)
    snprintf(buf, n, "reversed %s%s", a, i->exact ? " with times kept" : "");
  else
    snprintf(buf, n, "reversed %s%s + %s%s", a, i->exact ? " with times kept" : "", b,
             i->flip ? " from the last packet" : "");
  return OC_OK;
}

/* R4: the least T >= L + 2o with
 *   (P-1)(T + o) - S >= m(P-1) o + (m(P-1) - R(T)) (o + u),
 *   R(T) = min(m(P-1), floor((T - L - 2o)/G) + 1),  u the addition's time */
static int64_t mr_overhead_bound(const oc_params *p, int64_t m, int64_t S) {
  int64_t P = p->P, o = p->o, u = p->unit, G = oc_max64(p->g, p->o), h = p->L + 2 * p->o;
  int64_t n = oc_mul_sat(m, P - 1), lo = h, hi;
  hi = oc_add_sat(oc_add_sat(oc_mul_sat(n, 2 * o + u), S) / (P - 1), h + 1);
  if (hi >= OC_SAT / 4) return h; /* out of range: the bound is not needed */
  while (lo < hi) {
    int64_t T = lo + (hi - lo) / 2;
    int64_t R = oc_min64(n, (T - h) / G + 1);
    int64_t have = oc_mul_sat(P - 1, T + o) - S;
    int64_t need = oc_add_sat(oc_mul_sat(n, o), oc_mul_sat(n - R, o + u));
    if (have >= need) hi = T;
    else lo = T + 1;
  }
  return lo;
}

int oc_mreduce_bound(const oc_params *p, int64_t m, int64_t *lb, const char **source) {
  int64_t r1, r2, r3, r4, G, S;
  int e;
  if (p == NULL || lb == NULL || m < 1) return OC_EINVAL;
  if ((e = oc_params_check(p)) != OC_OK) return e;
  if (p->P < 2) {
    *lb = 0;
    if (source != NULL) *source = "one processor: nothing to do";
    return OC_OK;
  }
  if ((e = oc_reduce_time(p, &r1)) != OC_OK) return e;
  G = oc_max64(p->g, p->o);
  r2 = oc_add_sat(p->L + 2 * p->o, oc_mul_sat(m - 1, G));
  /* the work: m(P-1) messages, o at each end, and m(P-1) additions */
  r3 = oc_mul_sat(oc_mul_sat(m, p->P - 1), 2 * p->o + p->unit);
  r3 = r3 >= OC_SAT ? OC_SAT : (r3 + p->P - 1) / p->P;
  if (r2 >= OC_SAT / 4 || r3 >= OC_SAT / 4) return OC_ERANGE;
  if (oc_mb_label_sum(p, &S) != OC_OK) S = oc_mul_sat(p->P - 1, p->L + 2 * p->o);
  r4 = mr_overhead_bound(p, m, S);
  *lb = oc_max64(oc_max64(r1, r2), oc_max64(r3, r4));
  if (source != NULL)
    *source = *lb == r1   ? "one packet's reduction (Karp et al. 4.2)"
              : *lb == r2 ? "the root's receptions: L + 2o + (m-1) max(g,o)"
              : *lb == r4 ? "overhead: the non-root processors' sends, receptions and additions "
                            "before their last sends"
                          : "the work: m(P-1) messages at 2o and m(P-1) additions over P "
                            "processors";
  return OC_OK;
}

/* The allreduce's messages: at least 2(P-1) of every packet.  Every
 * processor must end with every contribution, and a message passes on its
 * sender's value; a valid schedule, its messages taken in the order they
 * are handled, is a one-way gossip protocol among P people (a call tells
 * the callee all the caller knows; letting the callee keep what it knew,
 * as the union, only helps), and a one-way gossip needs 2P - 2 calls
 * (Harary & Schwenk 1974; tests/test_mreduce.c checks it exhaustively for
 * P <= 5).  So: all processors together are busy at least
 * m(P-1)(4o + 1) (two overheads per message, P - 1 additions per packet),
 * and some processor handles at least ceil(2m(P-1)/P) receptions, G apart,
 * the first starting at L + o or later. */
int oc_mallreduce_bound(const oc_params *p, int64_t m, int64_t *lb, const char **source) {
  int64_t a, r, w, k, q, l = 0;
  const char *rs;
  int e;
  if (p == NULL || lb == NULL || m < 1) return OC_EINVAL;
  if ((e = oc_allreduce_vector_bound(p, m, &a)) != OC_OK) return e;
  if ((e = oc_mreduce_bound(p, m, &r, &rs)) != OC_OK) return e;
  w = q = 0;
  if (p->P > 1) {
    int64_t n = oc_mul_sat(m, p->P - 1), G = oc_max64(p->g, p->o), B;
    if ((e = oc_bcast_time(p, &B)) != OC_OK) return e;
    l = oc_add_sat(B, oc_mul_sat(m - 1, G)); /* the last packet to leave a processor */
    w = oc_mul_sat(n, 4 * p->o + p->unit);
    w = w >= OC_SAT ? OC_SAT : w / p->P + (w % p->P != 0); /* ceilings that cannot wrap */
    k = oc_mul_sat(n, 2);
    k = k >= OC_SAT ? OC_SAT : k / p->P + (k % p->P != 0);
    q = oc_add_sat(p->L + 2 * p->o, oc_mul_sat(k - 1, G));
    if (l >= OC_SAT / 4 || w >= OC_SAT / 4 || q >= OC_SAT / 4) return OC_ERANGE;
  }
  *lb = oc_max64(oc_max64(oc_max64(a, r), oc_max64(w, q)), l);
  if (source != NULL)
    *source = *lb == a   ? "max(one packet's reduction, L + 2o + (m-1) max(g,o), 2mo + "
                           "ceil(m(P-1)/P))"
              : *lb == r ? rs
              : *lb == l ? "B(P) + (m-1) max(g,o): a processor's last packet to leave it "
                           "first, then a broadcast"
              : *lb == w ? "the work: 2(P-1) messages a packet (one-way gossip) at 2o, "
                           "P-1 additions, over P processors"
                         : "the receptions: 2(P-1) messages a packet (one-way gossip), "
                           "some processor takes ceil(2m(P-1)/P), max(g,o) apart";
  return OC_OK;
}
