/* cli_cbcast.c - the continuous broadcast's row: `optcast plan|bound|
 * verify|draw|report cbcast` (Karp et al. section 3.1-3.3, postal model
 * with an integer latency), and the parameters it shares with the buffered
 * row (cli_buffered.c); --karp-block's table.
 *
 * Its parameters, its planner, bound and verifier, its text (the blocks,
 * the reception table); the flow (cli_flow.c) prints the rest.  Errors
 * print one line on stderr and return exit code 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"


/* cbcast and --buffered: the postal model with an integer latency L; items
 * default to 16 (enough to see the steady state), kbcast's to 1.  --karp-
 * block r: one r-block's table, no processors, no schedule. */
void cli_cb_build(cli *c) {
  int lat;
  for (int o = 0; o < O_NOPTS; o++)
    if (c->a.set[o] && o != O_MODEL && o != O_PROCS && o != O_LATENCY && o != O_LAMBDA &&
        o != O_ITEMS && o != O_ROOT && o != O_JSON && o != O_CSV && o != O_QUIET &&
        o != O_BUFFERED && o != O_SVG && o != O_HTML && o != O_FORMAT && o != O_KARP_BLOCK &&
        !(o == O_ALGORITHM && strcmp(c->a.val[o], "block-cyclic") == 0))
      die("--%s: not a parameter of '%s%s' (it takes --latency L, --procs P, "
          "--items k, --root r)", CLI_OPTS[o].name, c->problem,
          c->a.set[O_BUFFERED] ? " --buffered" : "");
  if (c->a.bit != CMD_PLAN && c->a.bit != CMD_BOUND &&
      c->a.bit != CMD_VERIFY && c->a.bit != CMD_DRAW &&
      c->a.bit != CMD_REPORT)
    die("%s: not available for '%s' (use plan, bound, verify, draw or report)", c->cmd,
        c->problem);
  if (c->a.set[O_MODEL] && strcmp(c->a.val[O_MODEL], "postal") != 0)
    die("--model: %s%s is the postal model (got '%s')", c->problem,
        c->a.set[O_BUFFERED] ? " --buffered" : "", c->a.val[O_MODEL]);
  if (c->a.set[O_LATENCY] && c->a.set[O_LAMBDA]) die("--lambda: give --latency or --lambda, not both");
  lat = c->a.set[O_LAMBDA] ? O_LAMBDA : O_LATENCY;
  if (!c->a.set[lat]) die("missing --latency (the postal latency L, an integer)");
  if (c->a.set[O_KARP_BLOCK]) {
    if (c->a.bit != CMD_PLAN || !is(c, P_CBCAST) || c->a.set[O_BUFFERED] ||
        c->a.set[O_PROCS] || c->a.set[O_ROOT] || c->a.set[O_CSV] || c->a.set[O_SVG] || c->a.set[O_HTML] ||
        c->a.set[O_FORMAT])
      die("--karp-block: only 'optcast plan cbcast --latency L --karp-block r [--items k] "
          "[--json]'");
    c->L = cli_need_int(c, lat, 1, OC_CBCAST_L_MAX);
    c->karp_block = cli_need_int(c, O_KARP_BLOCK, 1, 64);
    c->items = c->a.set[O_ITEMS] ? cli_need_int(c, O_ITEMS, 1, 4096) : 16;
    return;
  }
  if (!c->a.set[O_PROCS]) die("missing --procs (number of processors)");
#ifdef OC_CLI_NO_MAIN /* the fuzzing build: small instances (the plan searches) */
  c->L = cli_need_int(c, lat, 1, 8);
  c->p.P = cli_need_int(c, O_PROCS, 1, 64);
  c->items = c->a.set[O_ITEMS] ? cli_need_int(c, O_ITEMS, 1, 64) : 16;
#else
  c->L = cli_need_int(c, lat, 1, OC_CBCAST_L_MAX);
  c->p.P = cli_need_int(c, O_PROCS, 1, OC_CBCAST_PROCS_MAX);
  c->items = c->a.set[O_ITEMS] ? cli_need_int(c, O_ITEMS, 1, OC_CBCAST_MSGS_MAX) : 16;
#endif
  c->kitem = is(c, P_KBCAST);
  if (c->kitem && !c->a.set[O_ITEMS]) c->items = 1;
  c->buffered = c->a.set[O_BUFFERED];
  c->root = c->a.set[O_ROOT] ? cli_need_int(c, O_ROOT, 0, c->p.P - 1) : 0;
  if (c->a.set[O_JSON] && c->a.set[O_CSV]) die("--json and --csv: choose one");
  if (c->a.set[O_CSV] && c->a.bit != CMD_PLAN) die("--csv: only 'optcast plan' prints a schedule");
}

/* the JSON head's parameters (cbcast and --buffered) */
void cli_cb_json_params(FILE *f, const cli *c, const cli_res *r, int after) {
  (void)r;
  if (!after)
    fprintf(f, "\"P\":%lld,\"lambda\":%lld,\"latency\":%lld,\"items\":%lld,\"root\":%lld,",
            (long long)c->p.P, (long long)c->L, (long long)c->L, (long long)c->items,
            (long long)c->root);
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
static void cb_table(const cli *c, const oc_sched *s, int64_t T) {
  int64_t w = 1;
  if (c->p.P > 40 || T > 40) {
    printf("(reception table drawn for P <= 40 and at most 40 steps; use --csv)\n");
    return;
  }
  for (int64_t x = c->items; x >= 10; x /= 10) w++;
  printf("reception table (row: processor, column: step, entry: item received, "
         "1-based)\n%6s", "step");
  for (int64_t t = 0; t <= T; t++) printf(" %*lld", (int)w, (long long)t);
  printf("\n");
  for (int64_t p = 0; p < c->p.P; p++) {
    printf("%6lld", (long long)p);
    for (int64_t t = 0; t <= T; t++) {
      int64_t item = -1;
      for (size_t i = 0; i < s->n; i++)
        if (s->msg[i].dst == p && s->msg[i].t + c->L == t) item = s->msg[i].item;
      if (item < 0) printf(" %*s", (int)w, ".");
      else printf(" %*lld", (int)w, (long long)item + 1);
    }
    printf("%s\n", p == c->root ? "  (source)" : "");
  }
}

static int cb_plan(cli *c, cli_res *r) {
  const oc_cbcast_info *in;
  oc_params p;
  int64_t P = c->p.P;
  int e;
  if (P > 1 && c->items > OC_CBCAST_MSGS_MAX / (P - 1)) {
    fprintf(stderr,
            "optcast: --items, --procs: %lld items x %lld processors is too large "
            "(items * (P - 1) at most %lld)\n",
            (long long)c->items, (long long)P, (long long)OC_CBCAST_MSGS_MAX);
    return CLI_EXIT_INPUT;
  }
  if ((e = oc_cbcast_new(&r->cb, P, c->L)) != OC_OK) return cli_fail("plan", e);
  in = oc_cbcast_get_info(r->cb);
  if ((e = oc_cbcast_schedule(r->cb, c->root, c->items, &r->s)) != OC_OK ||
      (e = oc_params_postal(&p, P, c->L, 1)) != OC_OK ||
      (e = oc_verify_cbcast(&p, c->root, c->items, &r->s, &r->v)) != OC_OK)
    return cli_fail("plan", e);
  if (!r->v.ok || (P > 1 && r->v.time != in->delay)) /* a bug: never print it */
    return cli_self_check_failed("continuous", r->v.ok ? "delay differs" : r->v.detail);
  (void)oc_sched_sort(&r->s);
  r->alg = "block-cyclic";
  r->time = in->delay;
  r->lb = in->bound;
  r->n = r->s.n;
  return 0;
}

static int cb_picture(cli *c, cli_res *r) {
  const oc_cbcast_info *in = oc_cbcast_get_info(r->cb);
  return cli_cb_picture(c, &r->s, NULL, c->p.P > 1 ? in->delay : 0, in->bound, "block-cyclic",
                        "delay");
}

static void cb_json_plan(FILE *f, const cli *c, const cli_res *r) {
  const oc_cbcast_info *in = oc_cbcast_get_info(r->cb);
  (void)c;
  fprintf(f, ",\"delay\":%lld,\"B\":%lld,\"deadline\":%lld,\"method\":\"%s\","
          "\"slack\":%lld,\"blocks\":[",
          (long long)in->delay, (long long)in->B, (long long)in->D,
          oc_cbcast_method_name(in->method), (long long)in->slack);
  for (int64_t i = 0; i < in->blocks; i++) {
    int64_t rr, J;
    const int64_t *w;
    if (oc_cbcast_block(r->cb, i, &rr, &J, &w) != OC_OK) break;
    fprintf(f, "%s{\"r\":%lld,\"letter\":%lld,\"word\":[", i ? "," : "", (long long)rr,
            (long long)J);
    for (int64_t q = 1; q < rr; q++) fprintf(f, "%s%lld", q > 1 ? "," : "", (long long)w[q]);
    fprintf(f, "]}");
  }
  fprintf(f, "],\"receive_only\":%lld", (long long)in->ro);
}

static void cb_text_plan(const cli *c, const cli_res *r) {
  const oc_cbcast_info *in = oc_cbcast_get_info(r->cb);
  int64_t P = c->p.P;
  printf("optcast plan cbcast: postal L=%lld, P=%lld, %lld items from processor %lld\n",
         (long long)c->L, (long long)P, (long long)c->items, (long long)c->root);
  printf("delay %lld for every item, lower bound L + B(P-1) = %lld + %lld = %lld (%s); "
         "method: %s%s\n",
         (long long)in->delay, (long long)c->L, (long long)in->B, (long long)in->bound,
         in->delay == in->bound ? "optimal" : "above the bound",
         oc_cbcast_method_name(in->method),
         in->slack ? ", from pruned trees of deadline t + 1 (Karp Theorem 3.5)" : "");
  printf("%zu messages, all items done at %lld; checked by the verifier: valid\n\n", r->n,
         P > 1 ? (long long)(c->items - 1 + in->delay) : 0LL);
  if (P > 2) cb_blocks(r->cb);
  printf("\n");
  cb_table(c, &r->s, P > 1 ? c->items - 1 + in->delay : 0);
}

static int cb_bound(cli *c, cli_res *r) {
  const oc_cbcast_info *in;
  int e = oc_cbcast_new(&r->cb, c->p.P, c->L);
  if (e != OC_OK) return cli_fail("bound", e);
  in = oc_cbcast_get_info(r->cb);
  r->alg = oc_cbcast_method_name(in->method);
  r->time = in->delay;
  r->lb = in->bound;
  r->known = 1;
  r->bound = "L + B(P-1) (Karp et al. 3.1)";
  return 0;
}

static void cb_json_bound(FILE *f, const cli *c, const cli_res *r) {
  (void)c;
  fprintf(f, ",\"B\":%lld", (long long)oc_cbcast_get_info(r->cb)->B);
}

static void cb_text_bound(const cli *c, const cli_res *r) {
  const oc_cbcast_info *in = oc_cbcast_get_info(r->cb);
  printf("optcast bound cbcast: postal L=%lld, P=%lld\n", (long long)c->L, (long long)c->p.P);
  printf("lower bound on the delay: L + B(P-1) = %lld (Karp et al. section 3.1)\n",
         (long long)in->bound);
  printf("best known schedule: delay %lld (%s)\n", (long long)in->delay,
         oc_cbcast_method_name(in->method));
}

static int cb_verify(cli *c, char *buf, size_t len, cli_res *r) {
  oc_params p;
  oc_cbcast *cb = NULL;
  int64_t P = c->p.P;
  int e;
  if (P > 1 && c->items > OC_CBCAST_MSGS_MAX / (P - 1)) {
    fprintf(stderr, "optcast: --items, --procs: items * (P - 1) at most %lld for verify\n",
            (long long)OC_CBCAST_MSGS_MAX);
    return CLI_EXIT_INPUT;
  }
  if ((e = oc_params_postal(&p, P, c->L, 1)) != OC_OK) return cli_fail("verify", e);
  if ((e = oc_cbcast_new(&cb, P, c->L)) != OC_OK) return cli_fail("verify", e);
  r->lb = oc_cbcast_get_info(cb)->bound;
  oc_cbcast_free(cb);
  oc_sched_free(&r->s);
  if (cli_read_schedule(buf, len, &p, &r->s) != 0) return CLI_EXIT_INPUT;
  if ((e = oc_verify_cbcast(&p, c->root, c->items, &r->s, &r->v)) != OC_OK)
    return cli_fail("verify", e);
  r->time = r->v.ok ? r->v.time : 0;
  r->n = r->s.n;
  return 0;
}

static void cb_text_valid(const cli *c, const cli_res *r) {
  (void)c;
  printf("valid: %zu messages, largest delay %lld, lower bound %lld (%s)\n", r->n,
         (long long)r->v.time, (long long)r->lb, r->v.time == r->lb ? "optimal" : "above the bound");
}

static void cb_free(cli_res *r) { oc_cbcast_free(r->cb); }

/* --karp-block r: Theorem 3.7's reception pattern in one r-block (Karp et
 * al.'s Fig. 4 form: rows the block's processors, columns steps, the item
 * taken, '*' its active items, bold in the paper).  Checked before it is
 * printed: every processor takes every item once, one a step. */
int cli_karp_block(const cli *c) {
  int64_t T = 0, r = c->karp_block, *tab;
  int e;
  if (r > 64 || c->items > 4096) {
    fprintf(stderr, "optcast: --karp-block, --items: at most 64 processors and 4096 items "
                    "(got %lld, %lld)\n", (long long)r, (long long)c->items);
    return 2;
  }
  tab = (int64_t *)malloc((size_t)(r * (c->items + 2 * r)) * sizeof *tab);
  if (tab == NULL) return cli_fail("plan", OC_ENOMEM);
  if ((e = oc_kbcast_karp_block(c->L, r, c->items, tab, &T)) != OC_OK) {
    free(tab);
    if (e == OC_EUNSUP) {
      fprintf(stderr, "optcast: --karp-block: %lld is outside Theorem 3.7's case L <= r < 2L, "
                      "r >= 4 (L = %lld)\n", (long long)r, (long long)c->L);
      return 2;
    }
    return cli_fail("plan", e);
  }
  for (int64_t j = 0; j < r; j++) { /* each item once, one a step (the rows' steps are distinct) */
    int64_t got = 0;
    for (int64_t x = 0; x < T; x++) got += tab[j * T + x] != 0;
    if (got != c->items) {
      free(tab);
      fprintf(stderr, "optcast: internal error: the block pattern loses receptions\n");
      return CLI_EXIT_CHECK;
    }
  }
  if (c->a.set[O_JSON]) {
    printf("{\"problem\":\"cbcast\",\"model\":\"postal\",\"karp_block\":%lld,\"latency\":%lld,"
           "\"items\":%lld,\"steps\":%lld,\"table\":[",
           (long long)r, (long long)c->L, (long long)c->items, (long long)T);
    for (int64_t j = 0; j < r; j++) {
      printf("%s[", j ? "," : "");
      for (int64_t x = 0; x < T; x++) printf("%s%lld", x ? "," : "", (long long)tab[j * T + x]);
      printf("]");
    }
    printf("]}\n");
  } else {
    int64_t w = 2;
    for (int64_t x = c->items; x >= 10; x /= 10) w++;
    printf("Karp et al. Theorem 3.7, one block of r = %lld processors, L = %lld, %lld items "
           "(Fig. 4's form):\nrow: the block's processor p_j, column: step, entry: the item "
           "it takes then, * = active (it forwards it)\n%6s",
           (long long)r, (long long)c->L, (long long)c->items, "step");
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

const cli_row CLI_ROW_CBCAST = {
    .model = "postal", .head_extra = "", .unit = "time ", .build = cli_cb_build,
    .plan = cb_plan, .bound = cb_bound, .verify = cb_verify, .json_params = cli_cb_json_params,
    .json_plan = cb_json_plan, .json_bound = cb_json_bound, .text_plan = cb_text_plan,
    .text_bound = cb_text_bound, .text_valid = cb_text_valid, .picture = cb_picture,
    .free = cb_free,
};
