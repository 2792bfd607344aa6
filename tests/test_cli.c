/* test_cli.c - the command line against the contract: JSON keys, CSV,
 * exit codes, one-line errors naming the parameter. */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

static void slurp(int fd, char *buf, size_t cap) {
  size_t n = 0;
  char tmp[4096];
  for (;;) {
    ssize_t k = read(fd, tmp, sizeof tmp);
    if (k <= 0) break;
    for (ssize_t i = 0; i < k; i++)
      if (n + 1 < cap) buf[n++] = tmp[i];
  }
  buf[n] = '\0';
}

void run_optcast(run_result *r, const char *in, const char *const *argv) {
  int pin[2], pout[2], perr[2], st = 0;
  pid_t pid;
  const char *bin = getenv("OPTCAST_BIN");
  const char *args[64];
  size_t n = 0;
  CHECK(bin != NULL);
  args[n++] = bin;
  while (argv[n - 1] != NULL && n < 63) { args[n] = argv[n - 1]; n++; }
  args[n] = NULL;
  CHECK(pipe(pin) == 0 && pipe(pout) == 0 && pipe(perr) == 0);
  pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    dup2(pin[0], 0);
    dup2(pout[1], 1);
    dup2(perr[1], 2);
    close(pin[1]); close(pout[0]); close(perr[0]);
    execv(bin, (char *const *)args);
    _exit(127);
  }
  close(pin[0]); close(pout[1]); close(perr[1]);
  signal(SIGPIPE, SIG_IGN);
  if (in) {
    size_t len = strlen(in), off = 0;
    while (off < len) {
      ssize_t k = write(pin[1], in + off, len - off);
      if (k <= 0) break;
      off += (size_t)k;
    }
  }
  close(pin[1]);
  slurp(pout[0], r->out, sizeof r->out);
  slurp(perr[0], r->err, sizeof r->err);
  close(pout[0]); close(perr[0]);
  waitpid(pid, &st, 0);
  r->code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static run_result R;
#define RUN(in, ...)                                                           \
  do {                                                                         \
    const char *a_[] = {__VA_ARGS__, NULL};                                    \
    run_optcast(&R, (in), a_);                                                 \
  } while (0)
#define HAS(s, sub) (strstr((s), (sub)) != NULL)

static int lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

void test_cli_plan_json_fig1(void) {
  RUN(NULL, "plan", "bcast", "--procs", "8", "--latency", "6", "--overhead", "2",
      "--gap", "4", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"problem\":\"bcast\""));
  CHECK(HAS(R.out, "\"model\":\"logp\""));
  CHECK(HAS(R.out, "\"algorithm\":\"karp\""));
  CHECK(HAS(R.out, "\"P\":8"));
  CHECK(HAS(R.out, "\"time\":24,"));
  CHECK(HAS(R.out, "\"lower_bound\":24,"));
  CHECK(HAS(R.out, "\"optimal\":true"));
  CHECK_EQ(lines(R.out), 1);
  CHECK(R.out[0] == '{');
  RUN(NULL, "bound", "bcast", "--procs", "8", "--latency", "6", "--overhead", "2",
      "--gap", "4", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"lower_bound\":24,"));
  CHECK(HAS(R.out, "\"time\":24,"));
}

void test_cli_postal_rational(void) {
  static char first[1 << 16];
  RUN(NULL, "plan", "bcast", "--model", "postal", "--lambda", "2.5", "--procs",
      "14", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"time\":7.5,"));
  CHECK(HAS(R.out, "\"lower_bound\":7.5,"));
  CHECK(HAS(R.out, "\"model\":\"postal\""));
  snprintf(first, sizeof first, "%s", R.out);
  RUN(NULL, "plan", "bcast", "--model", "postal", "--lambda", "5/2", "--procs",
      "14", "--json");
  CHECK(strcmp(first, R.out) == 0);
  RUN(NULL, "plan", "bcast", "--model", "postal", "--latency", "10/4", "--procs",
      "14", "--json");
  CHECK(strcmp(first, R.out) == 0);
  RUN(NULL, "plan", "bcast", "--lambda", "2.5", "--procs", "14",
      "--algorithm", "bar-noy-kipnis", "--csv");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "time,src,dst,item\n0,0,9,0\n"));
  CHECK(HAS(R.out, "\n0.5,") == 0); /* times are multiples of 1 here */
  /* 7/3: times in thirds print as the nearest double, exact form beside */
  RUN(NULL, "bound", "bcast", "--lambda", "7/3", "--procs", "5", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"time_exact\":\"14/3\"")); /* sends at 0, 1, 2; 7/3 + 7/3 */
  CHECK(HAS(R.out, "\"time\":4.666666666666667,"));
  RUN(NULL, "bound", "bcast", "--lambda", "3/2", "--procs", "2", "--json");
  CHECK(HAS(R.out, "\"time_exact\":\"3/2\""));
  RUN(NULL, "bound", "bcast", "--lambda", "3/2", "--procs", "4", "--json");
  CHECK(HAS(R.out, "\"time\":3,")); /* 0, 1.5, 2.5, 1.5+1.5: 6/2, printed reduced */
  CHECK(HAS(R.out, "\"time_exact\":\"3\""));
}

void test_cli_csv_roundtrip(void) {
  static char csv[1 << 16];
  const char *common[] = {"--procs", "40", "--latency", "3", "--overhead", "1",
                          "--gap", "2", "--root", "5"};
  RUN(NULL, "plan", "bcast", common[0], common[1], common[2], common[3],
      common[4], common[5], common[6], common[7], common[8], common[9], "--csv");
  CHECK_EQ(R.code, 0);
  CHECK(strncmp(R.out, "time,src,dst,item\n", 18) == 0);
  CHECK_EQ(lines(R.out), 40);
  { /* sorted by time, then src, then dst */
    long pt = -1, ps = -1, pd = -1, t, s, d, it;
    const char *q = strchr(R.out, '\n') + 1;
    while (*q) {
      CHECK(sscanf(q, "%ld,%ld,%ld,%ld", &t, &s, &d, &it) == 4);
      CHECK(t > pt || (t == pt && (s > ps || (s == ps && d > pd))));
      pt = t; ps = s; pd = d;
      q = strchr(q, '\n') + 1;
    }
  }
  snprintf(csv, sizeof csv, "%s", R.out);
  RUN(csv, "verify", "bcast", common[0], common[1], common[2], common[3],
      common[4], common[5], common[6], common[7], common[8], common[9]);
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "valid"));
  RUN(csv, "verify", common[0], common[1], common[2], common[3], common[4],
      common[5], common[6], common[7], common[8], common[9], "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"valid\":true"));
  CHECK(HAS(R.out, "\"optimal\":true"));
  /* wrong root: 5 is not the source any more */
  RUN(csv, "verify", common[0], common[1], common[2], common[3], common[4],
      common[5], common[6], common[7], "--root", "0");
  CHECK_EQ(R.code, 1);
}

void test_cli_verify_exit_codes(void) {
  const char *ok = "time,src,dst,item\n0,0,1,0\n4,0,2,0\n";
  const char *gap = "time,src,dst,item\n0,0,1,0\n3,0,2,0\n";
  RUN(ok, "verify", "--procs", "3", "--latency", "6", "--overhead", "2", "--gap", "4");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "completion time 14"));
  RUN(gap, "verify", "--procs", "3", "--latency", "6", "--overhead", "2", "--gap", "4");
  CHECK_EQ(R.code, 1);
  CHECK(HAS(R.err, "processor 0"));
  CHECK(HAS(R.err, "time 3"));
  CHECK(HAS(R.err, "send-gap"));
  CHECK_EQ(lines(R.err), 1);
  RUN(gap, "verify", "--procs", "3", "--latency", "6", "--overhead", "2", "--gap",
      "4", "--json");
  CHECK_EQ(R.code, 1);
  CHECK(HAS(R.out, "\"valid\":false"));
  CHECK(HAS(R.out, "\"rule\":\"send-gap\""));
  /* malformed */
  RUN("time,src,dst\n0,0,1\n", "verify", "--procs", "3", "--latency", "6",
      "--overhead", "2", "--gap", "4");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "header"));
  RUN("time,src,dst,item\n0,0,x,0\n", "verify", "--procs", "3", "--latency", "6",
      "--overhead", "2", "--gap", "4");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "row 2"));
  CHECK(HAS(R.err, "dst"));
  RUN("time,src,dst,item\n0.5,0,1,0\n", "verify", "--procs", "3", "--latency", "6",
      "--overhead", "2", "--gap", "4");
  CHECK_EQ(R.code, 2);
  RUN("", "verify", "--procs", "3", "--latency", "6", "--overhead", "2", "--gap", "4");
  CHECK_EQ(R.code, 2);
  /* postal: 7.5 and 15/2 are the same time; 0.25 is off the 1/2 grid */
  RUN("time,src,dst,item\n0,0,1,0\n", "verify", "--procs", "2", "--lambda", "2.5");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "completion time 2.5"));
  RUN("time,src,dst,item\n1/2,0,1,0\n", "verify", "--procs", "2", "--lambda", "2.5",
      "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"time\":3,"));
  RUN("time,src,dst,item\n0.25,0,1,0\n", "verify", "--procs", "2", "--lambda", "2.5");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "1/2"));
  /* range violations are check failures, not input errors */
  RUN("time,src,dst,item\n0,0,7,0\n", "verify", "--procs", "2", "--lambda", "2");
  CHECK_EQ(R.code, 1);
  RUN("time,src,dst,item\n-1,0,1,0\n", "verify", "--procs", "2", "--lambda", "2");
  CHECK_EQ(R.code, 1);
}

/* Each bad input: exit 2, one line on stderr naming the parameter, nothing
 * on stdout. */
/* Every command's own help (from the command table), exit 0 on stdout:
 * `optcast COMMAND --help` equals `optcast help COMMAND`; plan's differs
 * from compare's; the overview lists every command. */
static void cli_help_checks(void) {
  static const char *const cmds[] = {"plan", "bound", "verify", "rank", "draw",
                                     "report", "compare", "run", "measure"};
  static char first[1 << 16];
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
    char want[64];
    RUN(NULL, cmds[i], "--help");
    CHECK_EQ(R.code, 0);
    CHECK(R.err[0] == '\0');
    snprintf(want, sizeof want, "optcast %s", cmds[i]);
    if (!HAS(R.out, want)) test_failf(__FILE__, __LINE__, "%s --help: '%.80s'", cmds[i], R.out);
    snprintf(first, sizeof first, "%s", R.out);
    RUN(NULL, "help", cmds[i]);
    CHECK_EQ(R.code, 0);
    CHECK(strcmp(first, R.out) == 0);
  }
  RUN(NULL, "plan", "--help");
  snprintf(first, sizeof first, "%s", R.out);
  CHECK(HAS(first, "--operands"));
  RUN(NULL, "compare", "--help");
  CHECK_EQ(R.code, 0);
  CHECK(strcmp(first, R.out) != 0);
  CHECK(HAS(R.out, "--sweep") && !HAS(R.out, "--operands"));
  RUN(NULL, "run", "bcast", "--help"); /* not "--help: missing value" */
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "--count"));
  RUN(NULL, "measure", "--help");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "--sizes"));
  RUN(NULL, "plan", "bcast", "--procs", "8", "--help"); /* help wins over the rest */
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "usage: optcast plan"));
  RUN(NULL, "--help");
  CHECK_EQ(R.code, 0);
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) CHECK(HAS(R.out, cmds[i]));
  snprintf(first, sizeof first, "%s", R.out);
  RUN(NULL, "help");
  CHECK_EQ(R.code, 0);
  CHECK(strcmp(first, R.out) == 0);
  CHECK(strcmp(first, R.out) == 0);
  RUN(NULL, "help", "frobnicate");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "frobnicate") && R.out[0] == '\0');
}

void test_cli_bad_input(void) {
  static const struct {
    const char *args[16];
    const char *names;
  } cases[] = {
      {{"plan", "bcast", "--procs", "-1", "--latency", "1", "--overhead", "0", "--gap", "1"}, "--procs"},
      {{"plan", "bcast", "--procs", "0", "--latency", "1", "--overhead", "0", "--gap", "1"}, "--procs"},
      {{"plan", "bcast", "--procs", "4611686018427387905", "--latency", "1", "--overhead", "0", "--gap", "1"}, "--procs"},
      {{"bound", "bcast", "--procs", "99999999999999999999999", "--latency", "1", "--overhead", "0", "--gap", "1"}, "--procs"},
      {{"plan", "bcast", "--latency", "1", "--overhead", "0", "--gap", "1"}, "--procs"},
      {{"plan", "bcast", "--procs", "8", "--overhead", "0", "--gap", "1"}, "--latency"},
      {{"plan", "bcast", "--procs", "8", "--latency", "1", "--gap", "1"}, "--overhead"},
      {{"plan", "bcast", "--procs", "8", "--latency", "1", "--overhead", "0"}, "--gap"},
      {{"plan", "bcast", "--procs", "8", "--latency", "-3", "--overhead", "0", "--gap", "1"}, "--latency"},
      {{"plan", "bcast", "--procs", "8", "--latency", "1", "--overhead", "-1", "--gap", "1"}, "--overhead"},
      {{"plan", "bcast", "--procs", "8", "--latency", "1", "--overhead", "0", "--gap", "0"}, "--gap"},
      {{"plan", "bcast", "--procs", "8", "--latency", "0", "--overhead", "0", "--gap", "1"}, "--latency"},
      {{"plan", "bcast", "--procs", "8", "--latency", "2.5", "--overhead", "0", "--gap", "1"}, "--latency"},
      {{"plan", "bcast", "--procs", "8", "--latency", "1099511627777", "--overhead", "0", "--gap", "1"}, "--latency"},
      {{"plan", "bcast", "--model", "postal", "--procs", "8", "--lambda", "0.5"}, "--lambda"},
      {{"plan", "bcast", "--model", "postal", "--procs", "8", "--lambda", "abc"}, "--lambda"},
      {{"plan", "bcast", "--model", "postal", "--procs", "8", "--lambda", "1/0"}, "--lambda"},
      {{"plan", "bcast", "--model", "postal", "--procs", "8"}, "--lambda"},
      {{"plan", "bcast", "--model", "postal", "--procs", "8", "--lambda", "2", "--gap", "1"}, "--gap"},
      {{"plan", "bcast", "--model", "postal", "--procs", "8", "--lambda", "2", "--latency", "3"}, "--latency"},
      {{"plan", "bcast", "--model", "ring", "--procs", "8"}, "--model"},
      {{"plan", "bcast", "--procs", "8", "--latency", "1", "--overhead", "0", "--gap", "1", "--frobnicate"}, "--frobnicate"},
      {{"plan", "bcast", "--procs", "8", "--procs", "9", "--latency", "1", "--overhead", "0", "--gap", "1"}, "--procs"},
      {{"plan", "bcast", "--procs", "8", "--latency", "1", "--overhead", "0", "--gap", "1", "--root", "8"}, "--root"},
      {{"plan", "bcast", "--procs", "8", "--latency", "1", "--overhead", "0", "--gap", "1", "--algorithm", "magic"}, "--algorithm"},
      {{"plan", "bcast", "--procs", "8", "--lambda", "2", "--items", "3"}, "--items"},
      {{"plan", "bcast", "--procs", "8", "--latency", "1", "--overhead", "0", "--gap", "1", "--items", "0"}, "--items"},
      {{"plan", "bcast", "--procs", "8", "--preset", "cm5", "--items", "3", "--algorithm", "karp-tree"}, "--algorithm"},
      /* the circulant past its receive table's work limit */
      {{"plan", "bcast", "--procs", "2097152", "--preset", "cm5", "--items", "8", "--algorithm", "circulant-bcast"}, "--algorithm: circulant-bcast"},
      {{"plan", "bcast", "--procs", "2000000000", "--latency", "1", "--overhead", "0", "--gap", "1"}, "--procs"},
      {{"plan", "--procs", "8", "--latency", "1", "--overhead", "0", "--gap", "1"}, "PROBLEM"},
      {{"plan", "frob", "--procs", "8", "--latency", "1", "--overhead", "0", "--gap", "1"}, "frob"},
      {{"plan", "bcast", "--procs"}, "--procs"},
      {{"launch", "bcast"}, "launch"},
      {{"rank", "bcast", "--procs", "8", "--latency", "1", "--overhead", "0", "--gap", "1", "--rank", "8"}, "--rank"},
      /* a missing value names its option, also when the next argument is an option */
      {{"plan", "bcast", "--procs", "8", "--latency", "--overhead", "2", "--gap", "1"}, "--latency: missing value"},
      {{"compare", "bcast", "--procs", "8", "--preset", "--items", "2"}, "--preset: missing value"},
      {{"run", "bcast", "--procs"}, "--procs: missing value"},
      {{"run", "bcast", "--procs", "2", "--algorithm", "ring"}, "--algorithm: unknown 'ring' for bcast (expected auto, pipeline, karp"},
      {{"run", "allgather", "--procs", "2", "--algorithm", "ring"}, "--algorithm: unknown 'ring' for allgather (expected auto, all-to-all, mesh)"},
      {{"run", "allreduce", "--procs", "2", "--algorithm", "two-tree"}, "--algorithm: unknown 'two-tree' for allreduce"},
      {{"run", "bcast", "--procs", "--count", "4"}, "--procs: missing value"},
      {{"measure", "--reps"}, "--reps: missing value"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    run_optcast(&R, NULL, cases[i].args);
    if (R.code != 2 || R.out[0] != '\0' || lines(R.err) != 1 ||
        !HAS(R.err, cases[i].names))
      test_failf(__FILE__, __LINE__, "case %zu (%s): exit %d, stderr '%s', stdout '%.40s'",
                 i, cases[i].names, R.code, R.err, R.out);
  }
  cli_help_checks();
}

void test_cli_bound_edges(void) {
  RUN(NULL, "bound", "bcast", "--procs", "4611686018427387904", "--latency",
      "1099511627776", "--overhead", "1099511627776", "--gap", "1099511627776",
      "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"lower_bound\":"));
  RUN(NULL, "rank", "--procs", "1000000000", "--latency", "6", "--overhead", "2",
      "--gap", "4", "--rank", "123456789", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"rank\":123456789"));
  CHECK(HAS(R.out, "\"children\":["));
  /* the reduction's per-rank view: the plan's tree (see cli_combining) */
  RUN(NULL, "rank", "reduce", "--procs", "8", "--latency", "5", "--overhead", "2",
      "--gap", "4", "--root", "3", "--rank", "3", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"children\":[{\"rank\":2,\"send\":14},{\"rank\":7,\"send\":10},"
                   "{\"rank\":5,\"send\":6},{\"rank\":4,\"send\":2}]"));
  RUN(NULL, "rank", "reduce", "--procs", "4611686018427387904", "--latency", "6",
      "--overhead", "2", "--gap", "4", "--root", "5", "--rank", "6", "--commutative");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "rank 6: "));
}

/* `optcast rank PROBLEM --items m` (and allreduce): the planner's choice and
 * the rank's steps; over all ranks the sends add up to the plan's messages,
 * the algorithm and time are the plan's */
static int64_t json_int(const char *s, const char *key) {
  const char *p = strstr(s, key);
  return p == NULL ? -1 : strtoll(p + strlen(key), NULL, 10);
}
static int64_t step_packets(const char *s, const char *kind) {
  int64_t n = 0;
  for (const char *p = strstr(s, kind); p != NULL; p = strstr(p + 1, kind))
    n += json_int(p, "\"len\":");
  return n;
}
void test_cli_rank_multi(void) {
  static const char *PROBS[] = {"allreduce", "reduce", "bcast"};
  for (int k = 0; k < 3; k++) {
    char alg[200], time[40], *a;
    int64_t msgs, sum = 0, got = 0;
    RUN(NULL, "plan", PROBS[k], "--procs", "8", "--latency", "6", "--overhead", "2", "--gap",
        "4", "--items", "5", "--root", "2", "--json");
    CHECK_EQ(R.code, 0);
    msgs = json_int(R.out, "\"messages\":");
    a = strstr(R.out, "\"algorithm\":");
    CHECK(a != NULL && msgs > 0);
    if (a == NULL) continue;
    snprintf(alg, sizeof alg, "%.*s", (int)(strchr(a + 13, ',') - a), a);
    snprintf(time, sizeof time, "\"time\":%lld,", (long long)json_int(R.out, "\"time\":"));
    for (int r = 0; r < 8; r++) {
      char rs[16];
      snprintf(rs, sizeof rs, "%d", r);
      RUN(NULL, "rank", PROBS[k], "--procs", "8", "--latency", "6", "--overhead", "2", "--gap",
          "4", "--items", "5", "--root", "2", "--rank", rs, "--json");
      CHECK_EQ(R.code, 0);
      CHECK(HAS(R.out, alg));
      CHECK(HAS(R.out, time));
      sum += step_packets(R.out, "\"kind\":\"send\"");
      got += step_packets(R.out, "\"kind\":\"recv\"");
    }
    CHECK_EQ(sum, got); /* every send received */
    if (k < 2) CHECK_EQ(sum, msgs); /* a message a packet */
    else CHECK_EQ(sum, 7 * 5); /* bcast: every other rank gets every packet once */
  }
  RUN(NULL, "rank", "allreduce", "--procs", "8", "--latency", "6", "--overhead", "2", "--gap",
      "4", "--items", "4", "--rank", "2");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "chosen: "));
  CHECK(HAS(R.out, "rank 2: "));
  CHECK(HAS(R.out, "recv from"));
  RUN(NULL, "rank", "allreduce", "--procs", "8", "--latency", "6", "--overhead", "2", "--gap",
      "4", "--items", "4", "--rank", "8");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "--rank"));
  CHECK_EQ(lines(R.err), 1);
  CHECK(R.out[0] == 0);
}

void test_cli_text_output(void) {
  RUN(NULL, "plan", "bcast", "--procs", "8", "--latency", "6", "--overhead", "2",
      "--gap", "4");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "time 24, lower bound 24 (optimal)"));
  CHECK(HAS(R.out, "p0 @ 0"));
  CHECK(HAS(R.out, "p7 @ 22  (sent at 12)"));
  CHECK(HAS(R.out, "Activity"));
  CHECK(HAS(R.out, "p0     |SS==SS==SS==SS"));
  RUN(NULL, "plan", "bcast", "--procs", "5000", "--latency", "6", "--overhead", "2",
      "--gap", "4");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "--csv"));
  RUN(NULL, "help");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "usage"));
}

/* The combining problems through the command: JSON (operands_per_proc adds
 * up to n), CSV round trip through verify, and errors. */
void test_cli_combining(void) {
  static char csv[1 << 16];
  const char *m[] = {"--procs", "7", "--latency", "5", "--overhead", "2", "--gap", "4"};
  RUN(NULL, "plan", "sum", m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7],
      "--operands", "82", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"problem\":\"sum\""));
  CHECK(HAS(R.out, "\"time\":29,"));
  CHECK(HAS(R.out, "\"optimal\":true"));
  CHECK(HAS(R.out, "\"operands_per_proc\":[16,14,10,6,16,12,8]"));
  RUN(NULL, "bound", "sum", m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7],
      "--operands", "82", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"lower_bound\":29,"));
  CHECK(HAS(R.out, "\"operands_per_proc\":["));
  RUN(NULL, "plan", "sum", m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7],
      "--operands", "82", "--csv");
  CHECK_EQ(R.code, 0);
  snprintf(csv, sizeof csv, "%s", R.out);
  RUN(csv, "verify", "sum", m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7],
      "--operands", "82", "--counts", "16,14,10,6,16,12,8");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "completion time 29"));
  /* more operands than the senders can add by their send times */
  RUN(csv, "verify", "sum", m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7],
      "--operands", "84", "--counts", "16,14,10,6,16,12,10");
  CHECK_EQ(R.code, 1);
  CHECK(HAS(R.err, "processor 6"));
  RUN(csv, "verify", "sum", m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7],
      "--operands", "82", "--counts", "16,14,10,6,16,12");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "--counts"));
  RUN(NULL, "plan", "sum", m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]);
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "--operands"));

  /* reduce: rank order by default; the CSV verifies, also --ordered */
  RUN(NULL, "plan", "reduce", "--procs", "8", "--latency", "5", "--overhead", "2",
      "--gap", "4", "--root", "3", "--csv");
  CHECK_EQ(R.code, 0);
  snprintf(csv, sizeof csv, "%s", R.out);
  RUN(csv, "verify", "reduce", "--procs", "8", "--latency", "5", "--overhead", "2",
      "--gap", "4", "--root", "3", "--ordered");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "completion time 24, lower bound 24 (optimal)"));
  RUN(NULL, "plan", "reduce", "--procs", "8", "--latency", "5", "--overhead", "2",
      "--gap", "4", "--root", "3", "--commutative", "--csv");
  snprintf(csv, sizeof csv, "%s", R.out);
  RUN(csv, "verify", "reduce", "--procs", "8", "--latency", "5", "--overhead", "2",
      "--gap", "4", "--root", "3");
  CHECK_EQ(R.code, 0);
  RUN(csv, "verify", "reduce", "--procs", "8", "--latency", "5", "--overhead", "2",
      "--gap", "4", "--root", "3", "--ordered");
  CHECK_EQ(R.code, 1); /* cyclic order is not rank order */
  CHECK(HAS(R.err, "fold-order"));

  /* allreduce and alltoall */
  RUN(NULL, "plan", "allreduce", "--lambda", "1", "--procs", "8", "--csv");
  CHECK_EQ(R.code, 0);
  snprintf(csv, sizeof csv, "%s", R.out);
  RUN(csv, "verify", "allreduce", "--lambda", "1", "--procs", "8", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"time\":5,"));
  CHECK(HAS(R.out, "\"optimal\":true"));
  RUN(NULL, "plan", "allreduce", "--procs", "8", "--latency", "5", "--overhead", "2",
      "--gap", "4", "--ordered", "--csv");
  CHECK_EQ(R.code, 0);
  snprintf(csv, sizeof csv, "%s", R.out);
  RUN(csv, "verify", "allreduce", "--procs", "8", "--latency", "5", "--overhead", "2",
      "--gap", "4", "--ordered", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"valid\":true"));
  CHECK(HAS(R.out, "\"lower_bound\":24,"));
  RUN(NULL, "plan", "alltoall", "--procs", "6", "--latency", "3", "--overhead", "0",
      "--gap", "2", "--items", "2", "--personalized", "--csv");
  CHECK_EQ(R.code, 0);
  snprintf(csv, sizeof csv, "%s", R.out);
  RUN(csv, "verify", "alltoall", "--procs", "6", "--latency", "3", "--overhead", "0",
      "--gap", "2", "--items", "2", "--personalized");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "(optimal)"));
  RUN(csv, "verify", "alltoall", "--procs", "6", "--latency", "3", "--overhead", "0",
      "--gap", "2", "--items", "2");
  CHECK_EQ(R.code, 1); /* not every processor gets every item */
  RUN(NULL, "plan", "alltoall", "--procs", "6", "--latency", "3", "--overhead", "0",
      "--gap", "2", "--commutative");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "--commutative"));
  RUN(NULL, "plan", "scan", "--procs", "6", "--latency", "3", "--overhead", "0",
      "--gap", "2");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "scan"));
}

/* The default one-packet allreduce chooses among constructions of two
 * schedule forms; either is the contract's time,src,dst,item CSV, which
 * `verify allreduce` with the same parameters reads back as valid - and a
 * broken one (a message dropped) as invalid, exit 1 */
void test_cli_allreduce_roundtrip(void) {
  static char csv[1 << 20];
  static const char *const cases[][4] = {{"5", "5", "1", "34"},    /* reduce-then-bcast */
                                         {"1000", "5", "1", "34"}, /* reduce-then-bcast */
                                         {"64", "5", "1", "3"},    /* karp-circulant */
                                         {"22", "1", "0", "19"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *second;
    RUN(NULL, "plan", "allreduce", "--procs", cases[i][0], "--latency", cases[i][1],
        "--overhead", cases[i][2], "--gap", cases[i][3], "--csv");
    CHECK_EQ(R.code, 0);
    CHECK(strncmp(R.out, "time,src,dst,item\n", 18) == 0);
    snprintf(csv, sizeof csv, "%s", R.out);
    RUN(csv, "verify", "allreduce", "--procs", cases[i][0], "--latency", cases[i][1],
        "--overhead", cases[i][2], "--gap", cases[i][3]);
    if (R.code != 0)
      test_failf(__FILE__, __LINE__, "P=%s L=%s o=%s g=%s: verify says %s%s", cases[i][0],
                 cases[i][1], cases[i][2], cases[i][3], R.out, R.err);
    second = strchr(csv, '\n'); /* drop the first message */
    if (second != NULL && (second = strchr(second + 1, '\n')) != NULL) {
      char *first = strchr(csv, '\n') + 1;
      memmove(first, second + 1, strlen(second + 1) + 1);
      RUN(csv, "verify", "allreduce", "--procs", cases[i][0], "--latency", cases[i][1],
          "--overhead", cases[i][2], "--gap", cases[i][3]);
      CHECK_EQ(R.code, 1);
    }
  }
}

void test_cli_kbcast(void) {
  static char csv[1 << 16];
  RUN(NULL, "plan", "kbcast", "--lambda", "2.5", "--procs", "14", "--items", "4",
      "--algorithm", "pack", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"algorithm\":\"pack\""));
  CHECK(HAS(R.out, "\"time\":20.5,"));       /* 4 f_{1 + 1.5/4}(14) */
  CHECK(HAS(R.out, "\"lemma_time\":20.5"));
  CHECK(HAS(R.out, "\"bound_lemma8\":10.5")); /* 3 + 7.5 */
  CHECK(HAS(R.out, "\"lower_bound\":11,"));   /* the reception count */
  RUN(NULL, "plan", "kbcast", "--lambda", "2.5", "--procs", "14", "--items", "4",
      "--algorithm", "pack", "--csv");
  CHECK_EQ(R.code, 0);
  snprintf(csv, sizeof csv, "%s", R.out);
  RUN(csv, "verify", "kbcast", "--lambda", "2.5", "--procs", "14", "--items", "4");
  CHECK_EQ(R.code, 0);
  RUN(csv, "verify", "kbcast", "--lambda", "2.5", "--procs", "14", "--items", "5");
  CHECK_EQ(R.code, 1); /* item 4 never sent */
  RUN(NULL, "bound", "kbcast", "--lambda", "3", "--procs", "10", "--items", "8", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"lower_bound\":15,"));  /* Karp Fig. 2 instance */
  CHECK(HAS(R.out, "\"bound_karp31\":15"));
  RUN(NULL, "plan", "kbcast", "--lambda", "3", "--procs", "10", "--items", "8",
      "--algorithm", "dtree", "--degree", "3", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"degree\":3"));
  RUN(NULL, "plan", "kbcast", "--procs", "10", "--latency", "3", "--overhead", "0",
      "--gap", "1", "--items", "2");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "--model"));
  RUN(NULL, "plan", "kbcast", "--lambda", "3", "--procs", "10", "--items", "2",
      "--algorithm", "pack", "--degree", "2");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "--degree"));
  /* Karp et al. section 3.4: the continuous schedule's first 8 items */
  RUN(NULL, "plan", "kbcast", "--lambda", "3", "--procs", "10", "--items", "8",
      "--algorithm", "cyclic", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"algorithm\":\"cyclic\""));
  CHECK(HAS(R.out, "\"time\":17,"));
  CHECK(HAS(R.out, "\"bound_single_sending\":17"));
  CHECK(HAS(R.out, "\"theorem37_time\":19"));
  RUN(NULL, "plan", "kbcast", "--lambda", "3", "--procs", "10", "--items", "8",
      "--algorithm", "cyclic", "--csv");
  CHECK_EQ(R.code, 0);
  snprintf(csv, sizeof csv, "%s", R.out);
  RUN(csv, "verify", "kbcast", "--lambda", "3", "--procs", "10", "--items", "8");
  CHECK_EQ(R.code, 0);
  /* one rank's part of the circulant (lambda = 1): its m receptions */
  RUN(NULL, "rank", "kbcast", "--lambda", "1", "--procs", "1000", "--items", "5", "--rank",
      "517", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"algorithm\":\"circulant\""));
  CHECK(HAS(R.out, "\"optimal\":true"));
  {
    int recv = 0;
    for (const char *x = R.out; (x = strstr(x, "\"kind\":\"recv\"")) != NULL; x++) recv++;
    CHECK_EQ(recv, 5);
  }
  RUN(NULL, "rank", "kbcast", "--lambda", "2", "--procs", "10", "--items", "5", "--rank", "1");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "--lambda"));
  CHECK_EQ(lines(R.err), 1);
  /* a fractional lambda: the plan of ceil(lambda), said so */
  RUN(NULL, "plan", "kbcast", "--lambda", "2.5", "--procs", "10", "--items", "8",
      "--algorithm", "cyclic", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"lambda_plan\":3"));
  RUN(NULL, "plan", "kbcast", "--lambda", "2.5", "--procs", "10", "--items", "8",
      "--algorithm", "circulant");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "--algorithm"));
  CHECK_EQ(lines(R.err), 1);
  CHECK_EQ(R.out[0], '\0');
  RUN(NULL, "plan", "kbcast", "--lambda", "65", "--procs", "10", "--items", "8",
      "--algorithm", "cyclic");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "--lambda"));
}

/* Edges for every problem: P near 2^62, L, o, g near 2^31 and 2^40, lambda
 * with large numerator and denominator: each command either answers (exit
 * 0, one JSON line with a time) or refuses cleanly (exit 2, one line on
 * stderr, nothing on stdout) - never a crash or a hang. */
void test_cli_edges(void) {
  static const char *problems[] = {"bcast", "kbcast", "sum", "reduce", "allreduce", "alltoall"};
  static const char *procs[] = {"4611686018427387904", "4611686018427387903", "1073741824", "65537", "2"};
  static const char *lat[] = {"2147483647", "1099511627776", "0", "1"};
  static const char *lam[] = {"1099511627775/1099511627774", "1099511627776", "1", "3/2"};
  int answered = 0, refused = 0;
  for (size_t a = 0; a < sizeof problems / sizeof problems[0]; a++)
    for (size_t b = 0; b < sizeof procs / sizeof procs[0]; b++)
      for (size_t k = 0; k < 4; k++) {
        const char *cmd = (b >= 3 && k >= 2) ? "plan" : "bound";
        if (test_valgrind() && (a + b + k) % 2 == 1) continue; /* half under valgrind */
        if (strcmp(problems[a], "kbcast") == 0 || k == 3) {
          RUN(NULL, cmd, problems[a], "--procs", procs[b], "--lambda", lam[k], "--items", "3",
              "--operands", "1000", "--json");
        } else {
          RUN(NULL, cmd, problems[a], "--procs", procs[b], "--latency", lat[k], "--overhead",
              lat[(k + 1) % 4], "--gap", lat[(k + 2) % 4], "--json");
        }
        if (R.code == 0) {
          CHECK(HAS(R.out, "\"time\":"));
          /* one line (the capture keeps 64 KiB: long operand lists are cut) */
          CHECK(lines(R.out) == 1 || strlen(R.out) >= sizeof R.out - 1);
          answered++;
        } else {
          if (R.code != 2 || lines(R.err) != 1 || R.out[0] != '\0')
            test_failf(__FILE__, __LINE__, "%s %s P=%s k=%zu: exit %d, stderr '%s'", cmd,
                       problems[a], procs[b], k, R.code, R.err);
          refused++;
        }
      }
  fprintf(stderr, "  edges: %d answered, %d refused cleanly\n", answered, refused);
  CHECK(answered > 0 && refused > 0);
}

/* Regressions from a code review: each was a wrong answer or an exit code
 * against the contract. */
void test_cli_review_regressions(void) {
  static char csv[1 << 16];
  /* exact CSV times for lambda = 7/3, and they read back */
  RUN(NULL, "plan", "sum", "--procs", "2", "--lambda", "7/3", "--operands", "7", "--csv");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "/3,"));
  snprintf(csv, sizeof csv, "%s", R.out);
  RUN(NULL, "plan", "sum", "--procs", "2", "--lambda", "7/3", "--operands", "7", "--json");
  {
    const char *q = strstr(R.out, "\"operands_per_proc\":[");
    char counts[64];
    long a = 0, b = 0;
    CHECK(q != NULL);
    CHECK(sscanf(q, "\"operands_per_proc\":[%ld,%ld]", &a, &b) == 2);
    snprintf(counts, sizeof counts, "%ld,%ld", a, b);
    RUN(csv, "verify", "sum", "--procs", "2", "--lambda", "7/3", "--operands", "7",
        "--counts", counts);
    CHECK_EQ(R.code, 0);
  }
  /* a huge operand count at one processor: answered at once */
  RUN("time,src,dst,item\n", "verify", "sum", "--procs", "1", "--latency", "1",
      "--overhead", "0", "--gap", "1", "--operands", "40000000000", "--counts", "40000000000");
  CHECK_EQ(R.code, 0);
  /* operands whose time would pass 2^60: refused, naming --operands */
  RUN(NULL, "plan", "sum", "--procs", "4", "--latency", "1", "--overhead", "0", "--gap", "1",
      "--operands", "4611686018427387904");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "--operands"));
  /* an invalid schedule is never "optimal" */
  RUN("time,src,dst,item\n0,0,1,0\n0,0,2,0\n1,1,3,0\n", "verify", "bcast", "--procs", "4",
      "--latency", "1", "--overhead", "0", "--gap", "1", "--json");
  CHECK_EQ(R.code, 1);
  CHECK(HAS(R.out, "\"optimal\":false"));
  /* rank order may need a value held back until its neighbour arrives */
  RUN("time,src,dst,item\n0,0,2,0\n1,1,2,0\n", "verify", "reduce", "--procs", "3", "--latency",
      "1", "--overhead", "0", "--gap", "1", "--root", "2", "--ordered");
  CHECK_EQ(R.code, 0);
  /* bounds without plans */
  RUN(NULL, "bound", "kbcast", "--procs", "1000", "--lambda", "2", "--items", "100000", "--json");
  CHECK_EQ(R.code, 0);
  RUN(NULL, "bound", "allreduce", "--procs", "70000", "--latency", "2", "--overhead", "1",
      "--gap", "1", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"time_is_upper_bound\":true"));
  RUN(NULL, "bound", "reduce", "--procs", "2147483648", "--latency", "2", "--overhead", "1",
      "--gap", "1", "--json");
  CHECK_EQ(R.code, 0);
  /* no overflow in the lemma's time */
  RUN(NULL, "plan", "kbcast", "--procs", "2", "--lambda", "1048577/1048576", "--items", "4096",
      "--algorithm", "pack", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"lemma_time\":4096.0000009"));
  /* input details */
  RUN("time,src,dst,item\n0,0,1,0\n", "verify", "sum", "--procs", "2", "--latency", "1",
      "--overhead", "0", "--gap", "1", "--operands", "3", "--counts", "1,2,");
  CHECK_EQ(R.code, 2);
  RUN("time,src,dst,item\n0,0,1,0,1,2,3\n", "verify", "--procs", "2", "--latency", "1",
      "--overhead", "0", "--gap", "1");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "got 7"));
  RUN("time,src,dst,item\n5,1,2,0\n0,0,9,0\n", "verify", "reduce", "--procs", "3", "--latency",
      "1", "--overhead", "0", "--gap", "1", "--root", "2");
  CHECK_EQ(R.code, 1);
  CHECK(HAS(R.err, "time 0, rule range"));
}

/* --model kport: plan, bound, verify, and refusals */
void test_cli_kport(void) {
  static char csv[1 << 16];
  RUN(NULL, "plan", "kbcast", "--model", "kport", "--ports", "2", "--procs", "9",
      "--items", "6", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"model\":\"kport\""));
  CHECK(HAS(R.out, "\"algorithm\":\"rotation\""));
  CHECK(HAS(R.out, "\"n\":9,\"P\":9"));
  CHECK(HAS(R.out, "\"time\":5,"));        /* ceil(6/2) + log_3 9 */
  CHECK(HAS(R.out, "\"lower_bound\":5,")); /* Lemma 3: 2 * 8 > 3^2 - 1 */
  CHECK(HAS(R.out, "\"optimal\":true"));
  CHECK_EQ(lines(R.out), 1);
  RUN(NULL, "plan", "kbcast", "--model", "kport", "--ports", "3", "--procs", "30",
      "--items", "7", "--algorithm", "ktree", "--csv");
  CHECK_EQ(R.code, 0);
  CHECK(strncmp(R.out, "time,src,dst,item\n", 18) == 0);
  CHECK_EQ(lines(R.out), 1 + 7 * 29);
  snprintf(csv, sizeof csv, "%s", R.out);
  RUN(csv, "verify", "kbcast", "--model", "kport", "--ports", "3", "--procs", "30",
      "--items", "7", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"valid\":true"));
  RUN(csv, "verify", "kbcast", "--model", "kport", "--ports", "2", "--procs", "30",
      "--items", "7");
  CHECK_EQ(R.code, 1); /* three ports used */
  CHECK(HAS(R.err, "capacity-"));
  RUN(csv, "verify", "kbcast", "--model", "kport", "--ports", "3", "--procs", "30",
      "--items", "8");
  CHECK_EQ(R.code, 1);
  CHECK(HAS(R.err, "missing"));
  RUN("time,src,dst,item\n1.5,0,1,0\n", "verify", "kbcast", "--model", "kport",
      "--ports", "1", "--procs", "2");
  CHECK_EQ(R.code, 2);
  RUN(NULL, "bound", "kbcast", "--model", "kport", "--ports", "4", "--procs",
      "4611686018427387904", "--items", "1099511627776", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"lower_bound\":274877906971,")); /* 2^38 - 1 + 27 + 1 */
  CHECK(HAS(R.out, "\"time_is_lower_bound\":true"));
  CHECK(HAS(R.out, "\"optimal\":false"));
  RUN(NULL, "bound", "kbcast", "--model", "kport", "--ports", "2", "--procs", "100",
      "--items", "10", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"time\":10,\"lower_bound\":9,")); /* rotation: Lemma 2 + 1 */
  RUN(NULL, "plan", "bcast", "--model", "kport", "--ports", "2", "--procs", "5");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "reception table"));
  /* refusals: exit 2, one line naming the parameter, nothing on stdout */
  {
    static const char *const bad[][16] = {
        {"plan", "kbcast", "--model", "kport", "--procs", "9", NULL},
        {"plan", "kbcast", "--model", "kport", "--ports", "0", "--procs", "9", NULL},
        {"plan", "kbcast", "--model", "kport", "--ports", "2", "--procs", "9",
         "--latency", "3", NULL},
        {"plan", "sum", "--model", "kport", "--ports", "2", "--procs", "9", NULL},
        {"plan", "kbcast", "--model", "kport", "--ports", "2", "--procs", "9",
         "--items", "0", NULL},
        {"plan", "kbcast", "--model", "kport", "--ports", "2", "--procs", "9",
         "--root", "9", NULL},
        {"plan", "kbcast", "--model", "kport", "--ports", "2", "--procs", "9",
         "--algorithm", "binomial", NULL},
        {"plan", "kbcast", "--model", "kport", "--ports", "2", "--procs",
         "100000", "--items", "1000", NULL},
        {"rank", "bcast", "--model", "kport", "--ports", "2", "--procs", "9",
         "--rank", "1", NULL},
        {"plan", "bcast", "--model", "kport", "--ports", "2", "--procs", "9",
         "--items", "3", NULL},
        {"plan", "kbcast", "--model", "kport", "--ports", "3", "--procs", "15",
         "--algorithm", "rotation", NULL},
    };
    static const char *const name[] = {"--ports", "--ports", "--latency", "sum",
                                       "--items", "--root", "--algorithm", "--items",
                                       "rank", "--items", "--algorithm"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      run_optcast(&R, NULL, bad[i]);
      if (R.code != 2 || !HAS(R.err, name[i]) || R.out[0] != '\0' || lines(R.err) != 1)
        test_failf(__FILE__, __LINE__, "case %zu: code %d, err '%s', out '%.40s'", i,
                   R.code, R.err, R.out);
    }
  }
}

/* `optcast compare bcast` and `--preset`: JSON/CSV shape, the optimal row
 * first and never slower for one packet, the defaults named, --segment,
 * errors. */
void test_cli_compare(void) {
  RUN(NULL, "compare", "bcast", "--procs", "8", "--latency", "6", "--overhead", "2",
      "--gap", "4", "--json");
  CHECK_EQ(R.code, 0);
  CHECK_EQ(lines(R.out), 1);
  CHECK(HAS(R.out, "{\"problem\":\"bcast\",\"model\":\"logp\",\"algorithm\":\"compare\","
                   "\"P\":8,\"procs\":8,\"time\":24,\"lower_bound\":24,\"optimal\":true"));
  CHECK(HAS(R.out, "\"rows\":[{\"name\":\"optcast\",\"algorithm\":\"karp (optimal)\","
                   "\"time\":24,\"ratio_lower_bound\":1.0000,\"ratio_best\":1.0000,"
                   "\"verified\":true,\"messages\":7,\"available\":true,\"note\":null}"));
  CHECK(HAS(R.out, "{\"name\":\"binomial\",\"algorithm\":\"MPICH binomial\",\"time\":30,"));
  CHECK(HAS(R.out, "{\"name\":\"mpich-default\",\"algorithm\":\"picks binomial\",\"time\":30,"));
  CHECK(HAS(R.out, "\"preset\":null"));
  CHECK(!HAS(R.out, "\"verified\":false"));
  /* the preset gives the same parameters (cm5 = Karp et al.'s Fig. 1) */
  RUN(NULL, "compare", "bcast", "--preset", "cm5", "--procs", "8", "--csv");
  CHECK_EQ(R.code, 0);
  CHECK(strncmp(R.out, "P,row,algorithm,time,lower_bound,ratio_lower_bound,ratio_best,"
                       "verified,messages,note\n8,optcast,karp (optimal),24,24,1.0000,1.0000,yes,"
                       "7,\n",
                127) == 0);
  CHECK_EQ(lines(R.out), 1 + 15);
  CHECK(!HAS(R.out, ",no,"));
  /* a sweep in CSV: 4 values of P, 14 rows each */
  RUN(NULL, "compare", "bcast", "--preset", "ib-tukey", "--sweep", "procs=8..64", "--csv");
  CHECK_EQ(R.code, 0);
  CHECK_EQ(lines(R.out), 1 + 4 * 15);
  CHECK(HAS(R.out, "\n64,optcast,"));
  /* a step sweep in JSON: one object with the list */
  RUN(NULL, "compare", "bcast", "--latency", "3", "--overhead", "1", "--gap", "2",
      "--sweep", "procs=5..15:5", "--items", "3", "--root", "4", "--json");
  CHECK_EQ(R.code, 0);
  CHECK_EQ(lines(R.out), 1);
  CHECK(HAS(R.out, "{\"problem\":\"bcast\",\"algorithm\":\"compare\",\"sweep\":[{"));
  CHECK(HAS(R.out, "\"P\":15,"));
  /* one optcast row for many packets: the fastest construction, named */
  CHECK(HAS(R.out, "{\"name\":\"optcast\",\"algorithm\":\""));
  CHECK(!HAS(R.out, "\"name\":\"optcast-long\""));
  /* --size: bytes -> packets with the preset's packet size; the selection
   * rules see the bytes: 20000 bytes, 16 processes: MPICH takes scatter +
   * recursive doubling (12288 <= 20000 < 524288, P a power of two), Open MPI
   * its own binomial tree (P in [16, 32), 4096 <= bytes < 1048576: bmtree) */
  RUN(NULL, "compare", "bcast", "--preset", "cm5", "--procs", "16", "--size", "20000",
      "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"items\":1250,\"bytes\":20000,\"packet_bytes\":16,"));
  CHECK(HAS(R.out, "\"name\":\"mpich-default\",\"algorithm\":\"picks scatter-rd-allgather\""));
  CHECK(HAS(R.out, "\"name\":\"ompi-default\",\"algorithm\":\"picks bmtree\""));
  /* --segment sets the pipeline's segment */
  RUN(NULL, "compare", "bcast", "--preset", "cm5", "--procs", "16", "--items", "8",
      "--segment", "4", "--csv");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\n16,pipeline-seg4,Open MPI pipeline,"));
  /* plan bcast of m packets (LogP): the choice in JSON, a CSV the verifier
   * takes back, bound without a schedule */
  RUN(NULL, "plan", "bcast", "--preset", "cm5", "--procs", "64", "--items", "16", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"items\":16,\"choice\":{\"construction\":\""));
  CHECK(HAS(R.out, "\"reason\":\"") && HAS(R.out, "\"verified\":true"));
  RUN(NULL, "plan", "bcast", "--preset", "cm5", "--procs", "9", "--items", "5", "--root", "4",
      "--algorithm", "two-tree", "--csv");
  CHECK_EQ(R.code, 0);
  {
    char *csv = strdup(R.out);
    CHECK(csv != NULL);
    RUN(csv, "verify", "bcast", "--preset", "cm5", "--procs", "9", "--items", "5", "--root", "4");
    CHECK_EQ(R.code, 0);
    CHECK(HAS(R.out, "valid: "));
    RUN(csv, "verify", "bcast", "--preset", "cm5", "--procs", "9", "--items", "6", "--root", "4");
    CHECK_EQ(R.code, 1); /* packet 5 never sent */
    free(csv);
  }
  RUN(NULL, "bound", "bcast", "--preset", "ib-tukey", "--procs", "64", "--items", "64", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"bound\":\"overhead: "));
  /* text: the table and the gains line */
  RUN(NULL, "compare", "bcast", "--preset", "cm5", "--procs", "16");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "optcast gains: "));
  CHECK(HAS(R.out, "lower bound "));
  /* --preset in the other commands: the same as its numbers */
  RUN(NULL, "plan", "bcast", "--preset", "cm5", "--procs", "8", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"time\":24,") && HAS(R.out, "\"L\":6,\"o\":2,\"g\":4"));
  { /* every preset: its numbers (docs/PRESETS.md), the same plan as given by hand */
    static const char *const pre[][4] = {{"ib-tukey", "74", "15", "11"},
                                         {"loggopsim", "25", "15", "10"},
                                         {"atlahs", "740", "40", "1"}};
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++) {
      char want[64], t1[64] = "", *t;
      RUN(NULL, "plan", "bcast", "--preset", pre[i][0], "--procs", "100", "--json");
      CHECK_EQ(R.code, 0);
      snprintf(want, sizeof want, "\"L\":%s,\"o\":%s,\"g\":%s", pre[i][1], pre[i][2],
               pre[i][3]);
      if (!HAS(R.out, want)) test_failf(__FILE__, __LINE__, "%s: no %s", pre[i][0], want);
      t = strstr(R.out, "\"time\":");
      CHECK(t != NULL);
      if (t != NULL) snprintf(t1, sizeof t1, "%.20s", t);
      RUN(NULL, "plan", "bcast", "--latency", pre[i][1], "--overhead", pre[i][2], "--gap",
          pre[i][3], "--procs", "100", "--json");
      CHECK_EQ(R.code, 0);
      CHECK(t1[0] != '\0' && HAS(R.out, t1));
    }
  }
  /* refusals: exit 2, one line naming the parameter, nothing on stdout */
  {
    static const char *const bad[][16] = {
        {"compare", "bcast", "--preset", "cm5", "--latency", "6", "--procs", "8", NULL},
        {"compare", "bcast", "--preset", "cray", "--procs", "8", NULL},
        {"compare", "bcast", "--latency", "6", "--overhead", "2", "--procs", "8", NULL},
        {"compare", "bcast", "--preset", "cm5", NULL},
        {"compare", "bcast", "--preset", "cm5", "--procs", "8", "--sweep", "procs=2..4", NULL},
        {"compare", "bcast", "--preset", "cm5", "--sweep", "procs=8..4", NULL},
        {"compare", "bcast", "--preset", "cm5", "--sweep", "P=8..16", NULL},
        {"compare", "bcast", "--preset", "cm5", "--sweep", "procs=1..1000:1", NULL},
        {"compare", "bcast", "--preset", "cm5", "--procs", "65536", "--items", "1025", NULL},
        {"compare", "bcast", "--latency", "1", "--overhead", "0", "--gap", "1", "--procs",
         "8", "--size", "100", NULL},
        {"compare", "bcast", "--preset", "cm5", "--procs", "8", "--items", "2", "--size",
         "100", NULL},
        {"compare", "bcast", "--preset", "cm5", "--procs", "8", "--root", "8", NULL},
        {"compare", "bcast", "--preset", "cm5", "--procs", "8", "--svg", "x.svg", NULL},
        {"compare", "sum", "--preset", "cm5", "--procs", "8", NULL},
        {"compare", "bcast", "--preset", "cm5", "--procs", "8", "--algorithm", "karp", NULL},
        {"compare", "bcast", "--lambda", "2", "--procs", "8", NULL},
        {"compare", "bcast", "--preset", "cm5", "--procs", "8", "--json", "--csv", NULL},
        {"plan", "bcast", "--preset", "cm5", "--gap", "4", "--procs", "8", NULL},
        {"plan", "bcast", "--preset", "cm5", "--procs", "8", "--size", "4", NULL},
        {"compare", "bcast", "--preset", "cm5", "--procs", "0", NULL},
        {"compare", "bcast", "--latency", "0", "--overhead", "0", "--gap", "1", "--procs",
         "8", NULL},
        {"compare", "bcast", "--latency", "1", "--overhead", "1", "--gap", "1099511627776",
         "--procs", "8", "--items", "2", NULL},
        {"compare", "bcast", "--preset", "cm5", "--procs", "8", "--items", "8", "--segment",
         "9", NULL},
        {"plan", "bcast", "--preset", "cm5", "--procs", "8", "--segment", "2", NULL},
        /* review: the option given is named; completions count against 2^60 */
        {"compare", "bcast", "--preset", "cm5", "--procs", "8", "--size",
         "4611686018427387903", NULL},
        {"compare", "bcast", "--latency", "1099511627776", "--overhead", "1099511627776",
         "--gap", "1", "--procs", "349527", NULL},
    };
    static const char *const name[] = {
        "--latency", "--preset", "--gap", "--procs", "--sweep", "--sweep", "--sweep",
        "--sweep", "--procs", "--size", "--items", "--root", "--svg", "sum", "--algorithm",
        "--lambda", "--json", "--gap", "--size", "--procs", "--latency", "--items",
        "--segment", "--segment", "--size", "beyond the planner's range"};
    CHECK_EQ(sizeof bad / sizeof bad[0], sizeof name / sizeof name[0]);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      run_optcast(&R, NULL, bad[i]);
      if (R.code != 2 || !HAS(R.err, name[i]) || R.out[0] != '\0' || lines(R.err) != 1)
        test_failf(__FILE__, __LINE__, "case %zu: code %d, err '%s', out '%.40s'", i,
                   R.code, R.err, R.out);
    }
  }
}

/* `optcast compare allreduce`: every available row verified and never
 * below the lower bound, the rows in the documented order, Open MPI's
 * small-vector fallback shown and timed as what runs, "n/a" past the
 * builders' limits, and the refusals. */
void test_cli_compare_allreduce(void) {
  static const char *const rows[] = {"optcast", "recursive-doubling", "ring", "rabenseifner",
                                     "reduce-bcast", "linear", "ompi-default", "mpich-default"};
  const char *x;
  long long lb = -1;
  int nt = 0;
  RUN(NULL, "compare", "allreduce", "--preset", "cm5", "--procs", "16", "--json");
  CHECK_EQ(R.code, 0);
  CHECK_EQ(lines(R.out), 1);
  CHECK(HAS(R.out, "{\"problem\":\"allreduce\",\"model\":\"logp\",\"algorithm\":\"compare\","
                   "\"P\":16,\"procs\":16,"));
  CHECK(!HAS(R.out, "\"root\":"));
  CHECK(!HAS(R.out, "\"verified\":false") && !HAS(R.out, "\"available\":false"));
  x = strstr(R.out, "\"lower_bound\":");
  CHECK(x != NULL && sscanf(x, "\"lower_bound\":%lld", &lb) == 1 && lb > 0);
  for (x = strstr(R.out, "\"rows\":"); x != NULL && (x = strstr(x, "\"time\":")) != NULL; x++) {
    long long t = -1;
    CHECK(sscanf(x, "\"time\":%lld", &t) == 1 && t >= lb);
    nt++;
  }
  CHECK_EQ(nt, 8);
  { /* the rows in order */
    const char *at = R.out;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
      char key[64];
      snprintf(key, sizeof key, "{\"name\":\"%s\",", rows[i]);
      at = at ? strstr(at, key) : NULL;
      if (at == NULL) test_failf(__FILE__, __LINE__, "row %s missing or out of order", rows[i]);
    }
  }
  /* 16 bytes = 2 elements < P: Open MPI's table says ring, which runs
   * recursive doubling - the row has that time */
  RUN(NULL, "compare", "allreduce", "--preset", "cm5", "--procs", "16", "--csv");
  CHECK_EQ(R.code, 0);
  CHECK_EQ(lines(R.out), 1 + 8);
  CHECK(HAS(R.out, "\n16,ompi-default,picks ring (runs recursive-doubling),"));
  {
    long long a = -1, b = -2;
    const char *p1 = strstr(R.out, "\n16,recursive-doubling,"),
               *p2 = strstr(R.out, "\n16,ompi-default,");
    CHECK(p1 && p2);
    if (p1 && p2) {
      for (int c = 0; c < 3 && p1 != NULL; c++) p1 = strchr(p1 + 1, ','); /* P,row,algorithm, */
      p2 = strstr(p2, "recursive-doubling),");
      CHECK(p1 && p2 && sscanf(p1 + 1, "%lld", &a) == 1 &&
            sscanf(p2 + strlen("recursive-doubling),"), "%lld", &b) == 1);
      CHECK_EQ(a, b);
    }
  }
  /* a sweep with several packets: every row verified */
  RUN(NULL, "compare", "allreduce", "--latency", "3", "--overhead", "1", "--gap", "2",
      "--sweep", "procs=2..64", "--items", "3", "--csv");
  CHECK_EQ(R.code, 0);
  CHECK_EQ(lines(R.out), 1 + 6 * 8);
  CHECK(!HAS(R.out, ",no,") && !HAS(R.out, ",n/a,"));
  /* past the builders' limits: n/a rows, the rest still computed */
  if (!test_valgrind()) {
    /* (the ring's 2 (P-1) steps of P processors and linear's queue are past
     * their limits at P = 8192; the defaults are not, so the gains are computed) */
    RUN(NULL, "compare", "allreduce", "--preset", "cm5", "--procs", "8192", "--items", "8");
    CHECK_EQ(R.code, 0);
    CHECK(HAS(R.out, "\noptcast "));
    CHECK(HAS(R.out, "\nrecursive-doubling     MPICH / Open MPI recursive doubling"));
    CHECK(HAS(R.out, "\nring                   Open MPI ring"));
    CHECK(HAS(R.out, " n/a "));
    CHECK(HAS(R.out, "\nrabenseifner "));
    CHECK(!HAS(R.out, " NO"));
    CHECK(HAS(R.out, "optcast gains: ") && !HAS(R.out, "optcast gains: not computed"));
  }
  {
    static const char *const bad[][16] = {
        {"compare", "allreduce", "--preset", "cm5", "--procs", "8", "--root", "1", NULL},
        {"compare", "allreduce", "--preset", "cm5", "--procs", "8", "--segment", "1", NULL},
        {"compare", "scan", "--preset", "cm5", "--procs", "8", NULL},
        {"compare", "allreduce", "--preset", "cm5", "--procs", "8", "--items", "0", NULL},
        {"compare", "allreduce", "--preset", "cm5", NULL},
    };
    static const char *const name[] = {"--root", "--segment", "scan", "--items", "--procs"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      run_optcast(&R, NULL, bad[i]);
      if (R.code != 2 || !HAS(R.err, name[i]) || R.out[0] != '\0' || lines(R.err) != 1)
        test_failf(__FILE__, __LINE__, "case %zu: code %d, err '%s', out '%.40s'", i,
                   R.code, R.err, R.out);
    }
  }
}

/* --svg: a self-contained SVG written atomically (no temporary left); an
 * unwritable place is an error with no file and nothing on stdout. */
void test_cli_compare_svg(void) {
  char dir[] = "/tmp/optcast_svg_XXXXXX", path[256], bad[256];
  FILE *f;
  static char buf[1 << 16];
  size_t n;
  CHECK(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/chart.svg", dir);
  RUN(NULL, "compare", "bcast", "--preset", "cm5", "--sweep", "procs=8..128", "--svg", path,
      "--csv");
  CHECK_EQ(R.code, 0);
  CHECK_EQ(lines(R.out), 1 + 5 * 15);
  f = fopen(path, "r");
  if (f == NULL) {
    test_fail(__FILE__, __LINE__, "the SVG file is missing");
    return;
  }
  n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  CHECK(strncmp(buf, "<?xml", 5) == 0);
  CHECK(HAS(buf, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
  CHECK(HAS(buf, "</svg>\n"));
  CHECK(HAS(buf, ">optcast</text>") && HAS(buf, ">mpich-default</text>"));
  CHECK(HAS(buf, ">128</text>"));
  { /* nothing else in the directory */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "test $(ls %s | wc -l) -eq 1", dir);
    CHECK_EQ(system(cmd), 0);
  }
  snprintf(bad, sizeof bad, "%s/no/such/dir/c.svg", dir);
  RUN(NULL, "compare", "bcast", "--preset", "cm5", "--sweep", "procs=8..16", "--svg", bad);
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "--svg"));
  CHECK_EQ(lines(R.err), 1);
  CHECK(R.out[0] == '\0');
  remove(path);
  CHECK_EQ(rmdir(dir), 0);
}

/* Standard output that cannot be written (a full disk: /dev/full) is an
 * error for every command — exit 2 and one line on stderr — never a silent
 * success.  Skipped where /dev/full does not exist. */
void test_cli_stdout_full(void) {
  static const char *const cmds[] = {
      "plan bcast --procs 8 --latency 6 --overhead 2 --gap 4",
      "plan bcast --procs 8 --latency 6 --overhead 2 --gap 4 --csv",
      "bound sum --procs 7 --latency 5 --overhead 2 --gap 4 --operands 82 --json",
      "plan kbcast --model kport --ports 2 --procs 9 --items 6",
      "draw bcast --procs 8 --lambda 2 --format svg",
      "report bcast --procs 8 --lambda 2 --format html",
      "compare bcast --preset cm5 --procs 8 --json",
  };
  const char *bin = getenv("OPTCAST_BIN");
  char cmd[512], err[256];
  if (access("/dev/full", W_OK) != 0 || bin == NULL) {
    printf("  (skipped: no /dev/full or no OPTCAST_BIN)\n");
    return;
  }
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
    FILE *f;
    int st;
    size_t n;
    snprintf(cmd, sizeof cmd, "%s %s 2>&1 >/dev/full", bin, cmds[i]);
    f = popen(cmd, "r");
    if (f == NULL) {
      test_failf(__FILE__, __LINE__, "popen failed");
      return;
    }
    n = fread(err, 1, sizeof err - 1, f);
    err[n] = '\0';
    st = pclose(f);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 2 || strstr(err, "cannot write") == NULL ||
        strchr(err, '\n') != err + n - 1)
      test_failf(__FILE__, __LINE__, "%s: status %d, stderr '%s'", cmds[i], st, err);
  }
}

/* --model rrp: JSON, CSV with dir and line, verify both ways, draw, refusals */
void test_cli_rrp(void) {
  static char csv[1 << 16];
  RUN(NULL, "plan", "bcast", "--model", "rrp", "--procs", "16", "--lines", "4",
      "--algorithm", "sweep", "--json");
  CHECK_EQ(R.code, 0);
  CHECK_EQ(lines(R.out), 1);
  CHECK(HAS(R.out, "{\"problem\":\"bcast\",\"model\":\"rrp\",\"algorithm\":\"sweep\","
                   "\"N\":16,\"P\":16,\"L\":4,\"lines\":4,\"root\":0,\"time\":8,"));
  CHECK(HAS(R.out, "\"optimal\":false"));
  CHECK(HAS(R.out, "\"thm21_upper\":12"));
  CHECK(HAS(R.out, "\"verified\":true"));
  RUN(NULL, "plan", "scan", "--model", "rrp", "--procs", "12", "--lines", "3",
      "--segments", "0,5,6", "--csv");
  CHECK_EQ(R.code, 0);
  CHECK(strncmp(R.out, "time,src,dst,item,dir,line\n", 27) == 0);
  snprintf(csv, sizeof csv, "%s", R.out);
  RUN(csv, "verify", "scan", "--model", "rrp", "--procs", "12", "--lines", "3",
      "--segments", "0,5,6", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"valid\":true"));
  /* the same messages do not make an unsegmented scan */
  RUN(csv, "verify", "scan", "--model", "rrp", "--procs", "12", "--lines", "3");
  CHECK_EQ(R.code, 1);
  CHECK(HAS(R.err, "rule missing"));
  /* on fewer lines they collide or name a line that is not there */
  RUN(csv, "verify", "scan", "--model", "rrp", "--procs", "12", "--lines", "1",
      "--segments", "0,5,6");
  CHECK_EQ(R.code, 1);
  RUN("time,src,dst,item,dir,line\n1,0,1,0,up,0\n", "verify", "bcast", "--model", "rrp",
      "--procs", "2", "--lines", "1");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "dir 'up'"));
  RUN("time,src,dst,item\n1,0,1,0\n", "verify", "bcast", "--model", "rrp", "--procs",
      "2", "--lines", "1");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "time,src,dst,item,dir,line"));
  RUN("time,src,dst,item,dir,line\n1,0,1,0,cw,0\n", "verify", "bcast", "--model", "rrp",
      "--procs", "2", "--lines", "1");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "valid: 1 messages, completion step 1"));
  RUN(NULL, "plan", "reduce", "--model", "rrp", "--procs", "10", "--lines", "2", "--root",
      "7");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "root 7"));
  CHECK(HAS(R.out, "checked by the verifier: valid"));
  RUN(NULL, "bound", "bcast", "--model", "rrp", "--procs", "4096", "--lines", "16",
      "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"lower_bound\":15,")); /* Theorem 3.1's argument, whole steps */
  CHECK(HAS(R.out, "\"best_known\":"));
  RUN(NULL, "draw", "bcast", "--model", "rrp", "--procs", "16", "--lines", "4",
      "--format", "svg");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "<svg"));
  CHECK(HAS(R.out, "bus-line occupancy"));
  {
    static const char *const bad[][16] = {
        {"plan", "bcast", "--model", "rrp", "--procs", "9", NULL},
        {"plan", "bcast", "--model", "rrp", "--procs", "9", "--lines", "0", NULL},
        {"plan", "bcast", "--model", "rrp", "--procs", "0", "--lines", "2", NULL},
        {"plan", "bcast", "--model", "rrp", "--procs", "2000000", "--lines", "2", NULL},
        {"plan", "kbcast", "--model", "rrp", "--procs", "9", "--lines", "2", NULL},
        {"plan", "bcast", "--model", "rrp", "--procs", "9", "--lines", "2", "--gap", "1", NULL},
        {"plan", "scan", "--model", "rrp", "--procs", "9", "--lines", "2", "--root", "1", NULL},
        {"plan", "bcast", "--model", "rrp", "--procs", "9", "--lines", "2", "--segments",
         "1,4", NULL},
        {"plan", "bcast", "--model", "rrp", "--procs", "9", "--lines", "2", "--segments",
         "0,4,4", NULL},
        {"plan", "bcast", "--model", "rrp", "--procs", "9", "--lines", "2", "--segments",
         "0,x", NULL},
        {"plan", "bcast", "--model", "rrp", "--procs", "9", "--lines", "2", "--segments",
         "0,9", NULL},
        {"plan", "bcast", "--model", "rrp", "--procs", "9", "--lines", "2", "--algorithm",
         "karp", NULL},
        {"plan", "bcast", "--model", "rrp", "--procs", "9", "--lines", "2", "--root", "9",
         NULL},
        {"plan", "scan", "--procs", "9", "--latency", "1", "--overhead", "0", "--gap", "1",
         NULL},
        {"plan", "bcast", "--procs", "9", "--latency", "1", "--overhead", "0", "--gap", "1",
         "--segments", "0,3", NULL},
        {"rank", "bcast", "--model", "rrp", "--procs", "9", "--lines", "2", "--rank", "1",
         NULL},
    };
    static const char *const name[] = {"--lines", "--lines", "--procs", "--procs",
                                       "kbcast", "--gap", "--root", "--segments",
                                       "--segments", "--segments", "--segments",
                                       "--algorithm", "--root", "scan", "--segments", "rank"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      run_optcast(&R, NULL, bad[i]);
      if (R.code != 2 || !HAS(R.err, name[i]) || R.out[0] != '\0' || lines(R.err) != 1)
        test_failf(__FILE__, __LINE__, "case %zu: code %d, err '%s', out '%.40s'", i,
                   R.code, R.err, R.out);
    }
  }
}

/* --buffered (Karp et al. 3.5): plan, CSV with `recv`, verify round trip,
 * a reception moved before its arrival is caught, bad input refused. */
void test_cli_buffered(void) {
  static char csv[1 << 16];
  char *p;
  RUN(NULL, "plan", "kbcast", "--buffered", "--lambda", "3", "--procs", "14", "--items",
      "14");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "time 24, single-sending lower bound L + B(P-1) + k - 1 = 24 (optimal"));
  CHECK(HAS(R.out, "reception table"));
  CHECK_EQ(lines(R.out), 3 + 1 + 2 + 1 + 14); /* Fig. 5: 14 processors */
  RUN(NULL, "plan", "kbcast", "--buffered", "--lambda", "2", "--procs", "30", "--items",
      "9", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"buffered\":true"));
  CHECK(HAS(R.out, "\"optimal\":true"));
  RUN(NULL, "plan", "cbcast", "--buffered", "--latency", "4", "--procs", "8", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"time\":12,\"lower_bound\":12,\"optimal\":true"));
  RUN(NULL, "plan", "kbcast", "--buffered", "--lambda", "3", "--procs", "14", "--items",
      "14", "--csv");
  CHECK_EQ(R.code, 0);
  CHECK(strncmp(R.out, "time,src,dst,item,recv\n", 23) == 0);
  snprintf(csv, sizeof csv, "%s", R.out);
  RUN(csv, "verify", "kbcast", "--buffered", "--lambda", "3", "--procs", "14", "--items",
      "14");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "valid (buffered)"));
  RUN(csv, "verify", "kbcast", "--lambda", "3", "--procs", "14", "--items", "14");
  CHECK_EQ(R.code, 2); /* the plain reader wants four columns */
  CHECK_EQ(lines(R.err), 1);
  /* the first data row: the source's send at 0 to the root, taken at 3;
   * claim it was taken at 2, before it arrives */
  p = strchr(csv, '\n') + 1;
  p = strchr(p, '\n');
  CHECK(p != NULL && p[-1] == '3');
  if (p == NULL) return;
  p[-1] = '2';
  RUN(csv, "verify", "kbcast", "--buffered", "--lambda", "3", "--procs", "14", "--items",
      "14", "--json");
  CHECK_EQ(R.code, 1);
  CHECK(HAS(R.out, "\"valid\":false"));
  RUN(NULL, "plan", "bcast", "--buffered", "--lambda", "3", "--procs", "14");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "--buffered"));
  CHECK_EQ(R.out[0], '\0');
  RUN(NULL, "plan", "kbcast", "--buffered", "--lambda", "2.5", "--procs", "14");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "--lambda"));
  CHECK_EQ(lines(R.err), 1);
  RUN(NULL, "plan", "kbcast", "--buffered", "--lambda", "3", "--procs", "14", "--degree",
      "2");
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "--degree"));
}

/* reduce and allreduce of m packets: plan --csv writes the vector form,
 * verify reads it back (valid, the same time; a dropped row is invalid),
 * --json names the choice, compare reduce has its rows in order, and the
 * refusals name their option. */
void test_cli_vector_reduce(void) {
  static char csv[1 << 16];
  static const char *const rows[] = {"optcast", "linear", "chain", "pipeline-seg1", "binary",
                                     "binomial", "bmtree", "in-order-binary", "rabenseifner",
                                     "ompi-default", "mpich-default"};
  long long t = -1;
  const char *x;
  for (int k = 0; k < 2; k++) {
    const char *pr = k ? "allreduce" : "reduce";
    RUN(NULL, "plan", pr, "--procs", "13", "--latency", "6", "--overhead", "3", "--gap", "2",
        "--items", "5", "--json");
    CHECK_EQ(R.code, 0);
    CHECK(HAS(R.out, "\"choice\":{\"construction\":"));
    CHECK(HAS(R.out, "\"verified\":true"));
    x = strstr(R.out, "\"time\":");
    CHECK(x != NULL && sscanf(x, "\"time\":%lld", &t) == 1 && t > 0);
    RUN(NULL, "plan", pr, "--procs", "13", "--latency", "6", "--overhead", "3", "--gap", "2",
        "--items", "5", "--csv");
    CHECK_EQ(R.code, 0);
    CHECK(strncmp(R.out, "time,src,dst,item,op,seq,not_before,hist\n", 41) == 0);
    snprintf(csv, sizeof csv, "%s", R.out);
    RUN(csv, "verify", pr, "--procs", "13", "--latency", "6", "--overhead", "3", "--gap", "2",
        "--items", "5", "--json");
    CHECK_EQ(R.code, 0);
    CHECK(HAS(R.out, "\"valid\":true"));
    {
      char want[64];
      snprintf(want, sizeof want, "\"time\":%lld,", t);
      CHECK(HAS(R.out, want));
    }
    { /* the last row dropped: some packet misses a contribution */
      size_t n = strlen(csv);
      while (n > 1 && csv[n - 2] != '\n') n--;
      csv[n - 1] = '\0';
      RUN(csv, "verify", pr, "--procs", "13", "--latency", "6", "--overhead", "3", "--gap",
          "2", "--items", "5");
      CHECK_EQ(R.code, 1);
    }
  }
  RUN(NULL, "compare", "reduce", "--preset", "cm5", "--procs", "24", "--items", "8",
      "--root", "3", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "{\"problem\":\"reduce\",\"model\":\"logp\",\"algorithm\":\"compare\","));
  CHECK(HAS(R.out, "\"root\":3,") && !HAS(R.out, "\"verified\":false"));
  {
    const char *at = R.out;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
      char key[64];
      snprintf(key, sizeof key, "{\"name\":\"%s\",", rows[i]);
      at = at ? strstr(at, key) : NULL;
      if (at == NULL) test_failf(__FILE__, __LINE__, "row %s missing or out of order", rows[i]);
    }
  }
  {
    static const char *const bad[][16] = {
        {"plan", "reduce", "--procs", "8", "--lambda", "2", "--items", "3", NULL},
        {"plan", "allreduce", "--procs", "8", "--latency", "2", "--overhead", "1", "--gap", "1",
         "--items", "3", "--ordered", NULL},
        {"plan", "reduce", "--procs", "8", "--latency", "2", "--overhead", "1", "--gap", "1",
         "--items", "3", "--algorithm", "ring", NULL},
        {"plan", "reduce", "--procs", "8", "--latency", "2", "--overhead", "1", "--gap", "1",
         "--items", "0", NULL},
        {"verify", "reduce", "--procs", "8", "--latency", "2", "--overhead", "1", "--gap", "1",
         "--items", "2", NULL},
        {"rank", "reduce", "--procs", "8", "--latency", "2", "--overhead", "1", "--gap", "1",
         "--items", "2", "--rank", "8", NULL},
        {"rank", "allreduce", "--procs", "8", "--latency", "2", "--overhead", "1", "--gap", "1",
         "--items", "3", "--ordered", "--rank", "1", NULL},
        {"draw", "reduce", "--procs", "8", "--latency", "2", "--overhead", "1", "--gap", "1",
         "--items", "2", "--format", "svg", NULL},
    };
    static const char *const name[] = {"--items", "--ordered", "--algorithm", "--items",
                                       "header", "--rank",  "--ordered", "--items"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      run_optcast(&R, i == 4 ? "time,src,dst\n" : NULL, bad[i]);
      if (R.code != 2 || !HAS(R.err, name[i]) || R.out[0] != '\0' || lines(R.err) != 1)
        test_failf(__FILE__, __LINE__, "case %zu: code %d, err '%s', out '%.40s'", i, R.code,
                   R.err, R.out);
    }
  }
}
