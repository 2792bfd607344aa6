/* cli_cbcast.c - `optcast plan|bound|verify cbcast` (continuous broadcast,
 * Karp et al. section 3.1-3.3, postal model with an integer latency).
 *
 * cli.c parses and range-checks the options; here the plan is built,
 * checked by the verifier and printed.  Errors print one line on stderr and
 * return exit code 2 (nothing on stdout); a schedule that breaks a rule
 * returns 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void cb_json_head(const cli_cbcast_args *a, const char *alg, int64_t time,
                         int64_t lb, int valid) {
  printf("{\"problem\":\"cbcast\",\"model\":\"postal\",\"algorithm\":\"%s\","
         "\"P\":%lld,\"lambda\":%lld,\"latency\":%lld,\"items\":%lld,\"root\":%lld,"
         "\"time\":%lld,\"lower_bound\":%lld,\"optimal\":%s",
         alg, (long long)a->P, (long long)a->L, (long long)a->L, (long long)a->k,
         (long long)a->root, (long long)time, (long long)lb,
         valid && time == lb ? "true" : "false");
}

static char letter(int64_t j, char *buf, size_t n, int upper, int64_t sub) {
  /* a..z for 0..25, then #j */
  if (j >= 0 && j < 26) {
    if (upper) snprintf(buf, n, "%c%lld", 'A' + (int)j, (long long)sub);
    else snprintf(buf, n, "%c", 'a' + (int)j);
  } else {
    snprintf(buf, n, "%s%lld", upper ? "#" : "~", (long long)j);
  }
  return buf[0];
}

/* The block structure in Karp's relative addressing. */
static void cb_blocks(const oc_cbcast *c) {
  const oc_cbcast_info *in = oc_cbcast_get_info(c);
  char b[32];
  int64_t nb = in->blocks, shown = nb < 40 ? nb : 40;
  printf("relative addressing: at each step, letter j is the item whose broadcast "
         "ends j steps later;\nan upper-case letter is an internal node (subscript: "
         "children), lower case a leaf\n");
  printf("blocks (processors: node, then the word it receives between):\n");
  for (int64_t i = 0; i < shown; i++) {
    int64_t r, J;
    const int64_t *w;
    if (oc_cbcast_block(c, i, &r, &J, &w) != OC_OK) return;
    letter(J, b, sizeof b, 1, r);
    printf("  block %lld: %lld processor%s  %s | ", (long long)i, (long long)r,
           r == 1 ? " " : "s", b);
    if (r == 1) printf("(empty)");
    for (int64_t s = 1; s < r; s++) {
      letter(w[s], b, sizeof b, 0, 0);
      printf("%s", b);
    }
    printf("\n");
  }
  if (shown < nb) printf("  ... %lld more blocks (--json or --csv for all)\n", (long long)(nb - shown));
  letter(in->ro, b, sizeof b, 0, 0);
  printf("  receive-only processor: %s\n", b);
}

/* Karp's Fig. 2 in absolute addressing: one row per processor, one column
 * per step, the item (1-based, as in the paper: a = 1) received then. */
static void cb_table(const cli_cbcast_args *a, const oc_sched *s, int64_t T) {
  int64_t w = 1;
  if (a->P > 40 || T > 40) {
    printf("(reception table drawn for P <= 40 and at most 40 steps; use --csv)\n");
    return;
  }
  for (int64_t x = a->k; x >= 10; x /= 10) w++;
  printf("reception table (row: processor, column: step, entry: item received, "
         "1-based)\n%6s", "step");
  for (int64_t t = 0; t <= T; t++) printf(" %*lld", (int)w, (long long)t);
  printf("\n");
  for (int64_t p = 0; p < a->P; p++) {
    printf("%6lld", (long long)p);
    for (int64_t t = 0; t <= T; t++) {
      int64_t item = -1;
      for (size_t i = 0; i < s->n; i++)
        if (s->msg[i].dst == p && s->msg[i].t + a->L == t) item = s->msg[i].item;
      if (item < 0) printf(" %*s", (int)w, ".");
      else printf(" %*lld", (int)w, (long long)item + 1);
    }
    printf("%s\n", p == a->root ? "  (source)" : "");
  }
}

static int cb_plan(const cli_cbcast_args *a) {
  oc_cbcast *c = NULL;
  const oc_cbcast_info *in;
  oc_params p;
  oc_sched s;
  oc_verdict v;
  int e;
  if (a->P > 1 && a->k > OC_CBCAST_MSGS_MAX / (a->P - 1)) {
    fprintf(stderr,
            "optcast: --items, --procs: %lld items x %lld processors is too large "
            "(items * (P - 1) at most %lld)\n",
            (long long)a->k, (long long)a->P, (long long)OC_CBCAST_MSGS_MAX);
    return 2;
  }
  if ((e = oc_cbcast_new(&c, a->P, a->L)) != OC_OK) return cli_fail("plan", e);
  in = oc_cbcast_get_info(c);
  oc_sched_init(&s);
  if ((e = oc_cbcast_schedule(c, a->root, a->k, &s)) != OC_OK ||
      (e = oc_params_postal(&p, a->P, a->L, 1)) != OC_OK ||
      (e = oc_verify_cbcast(&p, a->root, a->k, &s, &v)) != OC_OK) {
    oc_sched_free(&s);
    oc_cbcast_free(c);
    return cli_fail("plan", e);
  }
  if (!v.ok || (a->P > 1 && v.time != in->delay)) { /* a bug: never print it */
    oc_sched_free(&s);
    oc_cbcast_free(c);
    return cli_self_check_failed("continuous", v.ok ? "delay differs" : v.detail);
  }
  oc_sched_sort(&s);
  if (a->draw || a->report) {
    e = cli_cb_picture(a, &s, NULL, a->P > 1 ? in->delay : 0, in->bound, "block-cyclic",
                       "delay");
    oc_sched_free(&s);
    oc_cbcast_free(c);
    return e;
  }
  if (a->csv) {
    oc_sched_write_csv(stdout, &s, NULL); /* integer steps */
  } else if (a->json) {
    cb_json_head(a, "block-cyclic", in->delay, in->bound, 1);
    printf(",\"delay\":%lld,\"B\":%lld,\"deadline\":%lld,\"method\":\"%s\","
           "\"slack\":%lld,\"blocks\":[",
           (long long)in->delay, (long long)in->B, (long long)in->D,
           oc_cbcast_method_name(in->method), (long long)in->slack);
    for (int64_t i = 0; i < in->blocks; i++) {
      int64_t r, J;
      const int64_t *w;
      if (oc_cbcast_block(c, i, &r, &J, &w) != OC_OK) break;
      printf("%s{\"r\":%lld,\"letter\":%lld,\"word\":[", i ? "," : "", (long long)r,
             (long long)J);
      for (int64_t q = 1; q < r; q++) printf("%s%lld", q > 1 ? "," : "", (long long)w[q]);
      printf("]}");
    }
    printf("],\"receive_only\":%lld,\"messages\":%zu,\"verified\":true}\n",
           (long long)in->ro, s.n);
  } else {
    printf("optcast plan cbcast: postal L=%lld, P=%lld, %lld items from processor %lld\n",
           (long long)a->L, (long long)a->P, (long long)a->k, (long long)a->root);
    printf("delay %lld for every item, lower bound L + B(P-1) = %lld + %lld = %lld (%s); "
           "method: %s%s\n",
           (long long)in->delay, (long long)a->L, (long long)in->B, (long long)in->bound,
           in->delay == in->bound ? "optimal" : "above the bound",
           oc_cbcast_method_name(in->method),
           in->slack ? ", from pruned trees of deadline t + 1 (Karp Theorem 3.5)" : "");
    printf("%zu messages, all items done at %lld; checked by the verifier: valid\n\n", s.n,
           a->P > 1 ? (long long)(a->k - 1 + in->delay) : 0LL);
    if (a->P > 2) cb_blocks(c);
    printf("\n");
    cb_table(a, &s, a->P > 1 ? a->k - 1 + in->delay : 0);
  }
  oc_sched_free(&s);
  oc_cbcast_free(c);
  return 0;
}

static int cb_bound(const cli_cbcast_args *a) {
  oc_cbcast *c = NULL;
  const oc_cbcast_info *in;
  int e = oc_cbcast_new(&c, a->P, a->L);
  if (e != OC_OK) return cli_fail("bound", e);
  in = oc_cbcast_get_info(c);
  if (a->json) {
    cb_json_head(a, oc_cbcast_method_name(in->method), in->delay, in->bound, 1);
    printf(",\"B\":%lld,\"bound\":\"L + B(P-1) (Karp et al. 3.1)\"}\n", (long long)in->B);
  } else {
    printf("optcast bound cbcast: postal L=%lld, P=%lld\n", (long long)a->L,
           (long long)a->P);
    printf("lower bound on the delay: L + B(P-1) = %lld (Karp et al. section 3.1)\n",
           (long long)in->bound);
    printf("best known schedule: delay %lld (%s)\n", (long long)in->delay,
           oc_cbcast_method_name(in->method));
  }
  oc_cbcast_free(c);
  return 0;
}

static int cb_verify(const cli_cbcast_args *a, char *buf, size_t len) {
  oc_params p;
  oc_sched s;
  oc_verdict v;
  oc_cbcast *c = NULL;
  int e;
  int64_t lb;
  if (a->P > 1 && a->k > OC_CBCAST_MSGS_MAX / (a->P - 1)) {
    fprintf(stderr, "optcast: --items, --procs: items * (P - 1) at most %lld for verify\n",
            (long long)OC_CBCAST_MSGS_MAX);
    return 2;
  }
  if ((e = oc_params_postal(&p, a->P, a->L, 1)) != OC_OK) return cli_fail("verify", e);
  if ((e = oc_cbcast_new(&c, a->P, a->L)) != OC_OK) return cli_fail("verify", e);
  lb = oc_cbcast_get_info(c)->bound;
  oc_cbcast_free(c);
  if (cli_read_schedule(buf, len, &p, &s) != 0) return 2;
  if ((e = oc_verify_cbcast(&p, a->root, a->k, &s, &v)) != OC_OK) {
    oc_sched_free(&s);
    return cli_fail("verify", e);
  }
  if (a->json) {
    cb_json_head(a, "input", v.ok ? v.time : 0, lb, v.ok);
    cli_json_verify_tail(s.n, &v, NULL, NULL);
  } else if (v.ok) {
    printf("valid: %zu messages, largest delay %lld, lower bound %lld (%s)\n", s.n,
           (long long)v.time, (long long)lb, v.time == lb ? "optimal" : "above the bound");
  }
  if (!v.ok) cli_print_violation(&v, a->json, "time ", NULL);
  oc_sched_free(&s);
  return v.ok ? 0 : 1;
}

/* --karp-block r: Theorem 3.7's reception pattern in one r-block (Karp et
 * al.'s Fig. 4 form: rows the block's processors, columns steps, the item
 * taken, '*' its active items, bold in the paper).  Checked before it is
 * printed: every processor takes every item once, one a step. */
static int cb_karp_block(const cli_cbcast_args *a) {
  int64_t T = 0, r = a->karp_block, *tab;
  int e;
  if (r > 64 || a->k > 4096) {
    fprintf(stderr, "optcast: --karp-block, --items: at most 64 processors and 4096 items "
                    "(got %lld, %lld)\n", (long long)r, (long long)a->k);
    return 2;
  }
  tab = (int64_t *)malloc((size_t)(r * (a->k + 2 * r)) * sizeof *tab);
  if (tab == NULL) return cli_fail("plan", OC_ENOMEM);
  if ((e = oc_kbcast_karp_block(a->L, r, a->k, tab, &T)) != OC_OK) {
    free(tab);
    if (e == OC_EUNSUP) {
      fprintf(stderr, "optcast: --karp-block: %lld is outside Theorem 3.7's case L <= r < 2L, "
                      "r >= 4 (L = %lld)\n", (long long)r, (long long)a->L);
      return 2;
    }
    return cli_fail("plan", e);
  }
  for (int64_t j = 0; j < r; j++) { /* each item once, one a step (the rows' steps are distinct) */
    int64_t got = 0;
    for (int64_t x = 0; x < T; x++) got += tab[j * T + x] != 0;
    if (got != a->k) {
      free(tab);
      fprintf(stderr, "optcast: internal error: the block pattern loses receptions\n");
      return CLI_EXIT_CHECK;
    }
  }
  if (a->json) {
    printf("{\"problem\":\"cbcast\",\"model\":\"postal\",\"karp_block\":%lld,\"latency\":%lld,"
           "\"items\":%lld,\"steps\":%lld,\"table\":[",
           (long long)r, (long long)a->L, (long long)a->k, (long long)T);
    for (int64_t j = 0; j < r; j++) {
      printf("%s[", j ? "," : "");
      for (int64_t x = 0; x < T; x++) printf("%s%lld", x ? "," : "", (long long)tab[j * T + x]);
      printf("]");
    }
    printf("]}\n");
  } else {
    int64_t w = 2;
    for (int64_t x = a->k; x >= 10; x /= 10) w++;
    printf("Karp et al. Theorem 3.7, one block of r = %lld processors, L = %lld, %lld items "
           "(Fig. 4's form):\nrow: the block's processor p_j, column: step, entry: the item "
           "it takes then, * = active (it forwards it)\n%6s",
           (long long)r, (long long)a->L, (long long)a->k, "step");
    for (int64_t x = 0; x < T; x++) printf(" %*lld", (int)w, (long long)x);
    printf("\n");
    for (int64_t j = 0; j < r; j++) {
      printf("  p%-3lld", (long long)j + 1);
      for (int64_t x = 0; x < T; x++) {
        int64_t v = tab[j * T + x];
        char cell[32];
        if (v == 0) snprintf(cell, sizeof cell, ".");
        else snprintf(cell, sizeof cell, v < 0 ? "*%lld" : "%lld", (long long)(v < 0 ? -v : v));
        printf(" %*s", (int)w, cell);
      }
      printf("\n");
    }
  }
  free(tab);
  return 0;
}

int cli_cbcast(const cli_cbcast_args *a, char *buf, size_t len) {
  if (a->karp_block > 0) return cb_karp_block(a);
  if (strcmp(a->cmd, "plan") == 0 || a->draw || a->report) return cb_plan(a);
  if (strcmp(a->cmd, "bound") == 0) return cb_bound(a);
  return cb_verify(a, buf, len);
}
