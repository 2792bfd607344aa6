/* cli_out.c - what every command prints the same way: a library error, a
 * verifier's verdict (one line of text, or its JSON), and the schedule
 * verify reads from standard input.  Exit codes: 0 ok, 1 an invalid
 * schedule or a planner's schedule that fails the verifier (a bug), 2 bad
 * input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_fail(const char *what, int e) {
  fprintf(stderr, "optcast: %s: %s\n", what, oc_strerror(e));
  return CLI_EXIT_INPUT;
}

int cli_self_check_failed(const char *alg, const char *why) {
  fprintf(stderr, "optcast: internal error: the %s schedule fails the verifier: %s\n", alg, why);
  return CLI_EXIT_CHECK;
}

/* the violation's time: "the end" (JSON null) for an item never received */
static void at_text(char *b, size_t n, const oc_verdict *v, const oc_params *p, int json) {
  if (v->at > OC_TIME_MAX) snprintf(b, n, "%s", json ? "null" : "the end");
  else if (p != NULL) oc_format_time(b, n, v->at, p->unit);
  else snprintf(b, n, "%lld", (long long)v->at);
}

static void json_violation(FILE *f, const oc_verdict *v, const char *at) {
  fprintf(f, ",\"violation\":{\"processor\":%lld,\"at\":%s,\"rule\":\"%s\",\"detail\":\"",
          (long long)v->proc, at, oc_rule_name(v->rule));
  for (const char *q = v->detail; *q; q++)
    if (*q == '"' || *q == '\\') fprintf(f, "\\%c", *q); else fputc(*q, f);
  fputs("\"}", f);
}

void cli_json_verify_tail(size_t n, const oc_verdict *v, const oc_params *p, const char *extra) {
  char at[64];
  printf(",\"messages\":%zu,\"valid\":%s%s", n, v->ok ? "true" : "false", extra ? extra : "");
  if (!v->ok) {
    at_text(at, sizeof at, v, p, 1);
    json_violation(stdout, v, at);
  }
  printf("}\n");
}

void cli_print_violation(const oc_verdict *v, int json, const char *unit, const oc_params *p) {
  char at[64];
  int end = v->at > OC_TIME_MAX;
  at_text(at, sizeof at, v, p, 0);
  fprintf(stderr, "optcast: invalid schedule: processor %lld, %s%s, rule %s: %s\n",
          (long long)v->proc, end ? "" : unit, at, oc_rule_name(v->rule), v->detail);
  if (!json)
    printf("invalid: processor %lld, %s%s, rule %s: %s\n", (long long)v->proc,
           end ? "" : unit, at, oc_rule_name(v->rule), v->detail);
}

/* Reads a CSV schedule for verify into s (initialised here); on a bad
 * schedule prints one line and returns 2 (s freed), else 0. */
int cli_read_schedule(char *buf, size_t len, const oc_params *p, oc_sched *s) {
  char err[256];
  int e;
  oc_sched_init(s);
  if ((e = oc_sched_read_csv(buf, len, p, s, err, sizeof err)) == OC_OK) return 0;
  oc_sched_free(s);
  if (e == OC_EPARSE) fprintf(stderr, "optcast: schedule: %s\n", err);
  else fprintf(stderr, "optcast: schedule: %s\n", oc_strerror(e));
  return CLI_EXIT_INPUT;
}
