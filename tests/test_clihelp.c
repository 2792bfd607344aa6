/* test_clihelp.c - the command's release, manual page and completion
 * scripts against its own tables (each command's --help), and the "did you
 * mean" of misspelt commands and options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "optcast.h"
#include "test.h"

static run_result R, H;
#define RUN(r, ...)                                                            \
  do {                                                                         \
    const char *a_[] = {__VA_ARGS__, NULL};                                    \
    run_optcast(&(r), NULL, a_);                                               \
  } while (0)
#define HAS(s, sub) (strstr((s), (sub)) != NULL)

void test_cli_version(void) {
  char want[64];
  CHECK(strcmp(oc_version(), OC_VERSION_STRING) == 0);
  CHECK_EQ(OC_VERSION_NUMBER,
           OC_VERSION_MAJOR * 10000 + OC_VERSION_MINOR * 100 + OC_VERSION_PATCH);
  snprintf(want, sizeof want, "%d.%d.%d", OC_VERSION_MAJOR, OC_VERSION_MINOR, OC_VERSION_PATCH);
  CHECK(strcmp(want, OC_VERSION_STRING) == 0);
  snprintf(want, sizeof want, "optcast %s\n", OC_VERSION_STRING);
  RUN(R, "--version");
  CHECK_EQ(R.code, 0);
  CHECK(strcmp(R.out, want) == 0);
  RUN(R, "-V");
  CHECK(R.code == 0 && strcmp(R.out, want) == 0);
  RUN(R, "version");
  CHECK(R.code == 0 && strcmp(R.out, want) == 0);
  RUN(R, "version", "--help");
  CHECK(R.code == 0 && HAS(R.out, "usage: optcast version"));
  RUN(R, "version", "extra");
  CHECK(R.code == 2 && R.out[0] == '\0' && HAS(R.err, "'extra'"));
}

/* the option names of one command's --help ("  --name ..." lines) */
static size_t help_options(const char *help, char names[][32], size_t cap) {
  size_t n = 0;
  const char *s = strstr(help, "\noptions:\n");
  if (s == NULL) return 0;
  for (s = strchr(s + 1, '\n'); s != NULL && n < cap; s = strchr(s + 1, '\n')) {
    size_t k = 0;
    if (strncmp(s + 1, "  --", 4) != 0) continue;
    for (const char *t = s + 5; *t != '\0' && *t != ' ' && k < 31; t++) names[n][k++] = *t;
    names[n++][k] = '\0';
  }
  return n;
}

/* the words of the overview's "commands:" section */
static size_t commands(char names[][32], size_t cap) {
  size_t n = 0;
  const char *s;
  RUN(H, "--help");
  CHECK_EQ(H.code, 0);
  if ((s = strstr(H.out, "\ncommands:\n")) == NULL) return 0;
  for (s = strchr(s + 1, '\n'); s != NULL && strncmp(s + 1, "  ", 2) == 0 && n < cap;
       s = strchr(s + 1, '\n')) {
    size_t k = 0;
    for (const char *t = s + 3; *t != '\0' && *t != ' ' && k < 31; t++) names[n][k++] = *t;
    names[n++][k] = '\0';
  }
  return n;
}

/* word between from and end, as a whole word (after a space or a quote,
 * before one) */
static int has_word(const char *from, const char *end, const char *word) {
  size_t n = strlen(word);
  for (const char *t = strstr(from, word); t != NULL && t < end; t = strstr(t + 1, word))
    if ((t[-1] == '"' || t[-1] == ' ') && (t[n] == '"' || t[n] == ' ')) return 1;
  return 0;
}

/* Every command and every option its --help lists (the tables) are in the
 * manual page, and in that command's arm of both completion scripts. */
void test_cli_man_completion(void) {
  static char cmds[32][32], opts[64][32], man[1 << 16], bash[1 << 16], zsh[1 << 16];
  size_t nc = commands(cmds, 32), total = 0;
  CHECK(nc >= 11);
  RUN(R, "help", "--man");
  CHECK(R.code == 0 && R.err[0] == '\0');
  snprintf(man, sizeof man, "%s", R.out);
  CHECK(strncmp(man, ".\\\"", 3) == 0 && HAS(man, ".TH OPTCAST 1"));
  CHECK(HAS(man, OC_VERSION_STRING) && HAS(man, ".SH EXIT STATUS"));
  RUN(R, "help", "--completion", "bash");
  CHECK(R.code == 0 && HAS(R.out, "complete -F _optcast optcast"));
  snprintf(bash, sizeof bash, "%s", R.out);
  RUN(R, "help", "--completion", "zsh");
  CHECK(R.code == 0 && strncmp(R.out, "#compdef optcast", 16) == 0);
  snprintf(zsh, sizeof zsh, "%s", R.out);
  for (size_t i = 0; i < nc; i++) {
    char want[128], arm[64];
    const char *sb, *sz;
    size_t no;
    snprintf(want, sizeof want, ".SS %.31s\n", cmds[i]);
    if (!HAS(man, want)) test_failf(__FILE__, __LINE__, "man page: no section for %s", cmds[i]);
    snprintf(arm, sizeof arm, "\n    %.31s) opts=\"", cmds[i]);
    sb = strstr(bash, arm);
    sz = strstr(zsh, arm);
    CHECK(sb != NULL && sz != NULL);
    RUN(H, cmds[i], "--help");
    CHECK_EQ(H.code, 0);
    no = help_options(H.out, opts, 64);
    CHECK(no >= 1); /* --help at least */
    for (size_t k = 0; k < no; k++) {
      const char *eb = strchr(sb + 1, '\n'), *ez = strchr(sz + 1, '\n');
      char o[48];
      size_t w = (size_t)snprintf(want, sizeof want, "\\-\\-");
      for (const char *t = opts[k]; *t != '\0' && w + 3 < sizeof want; t++) { /* roff: \- */
        if (*t == '-') want[w++] = '\\';
        want[w++] = *t;
      }
      want[w] = '\0';
      if (!HAS(man, want)) test_failf(__FILE__, __LINE__, "man page: no --%s", opts[k]);
      snprintf(o, sizeof o, " --%.31s", opts[k]); /* within the command's arm */
      if (!has_word(sb, eb, o + 1)) test_failf(__FILE__, __LINE__, "bash: %s has no --%s", cmds[i], opts[k]);
      if (!has_word(sz, ez, o + 1)) test_failf(__FILE__, __LINE__, "zsh: %s has no --%s", cmds[i], opts[k]);
      total++;
    }
  }
  CHECK(total >= 60);
  RUN(R, "help", "--completion", "fish");
  CHECK(R.code == 2 && R.out[0] == '\0' && HAS(R.err, "--completion") && HAS(R.err, "'fish'"));
  RUN(R, "help", "--man", "plan");
  CHECK(R.code == 2 && R.out[0] == '\0');
  RUN(R, "help", "--man", "--completion", "bash");
  CHECK(R.code == 2 && R.out[0] == '\0');
}

/* every fixed value the completion offers is one the command takes */
void test_cli_completion_values(void) {
  static char bash[1 << 16];
  static const struct {
    const char *opt;
    const char *argv[12]; /* the command, "%" where the value goes */
  } uses[] = {
      {"--model", {"bound", "bcast", "--procs", "5", "--model", "%", NULL}},
      {"--preset", {"plan", "bcast", "--procs", "5", "--preset", "%", NULL}},
      {"--type", {"run", "bcast", "--procs", "2", "--count", "3", "--iters", "1", "--type", "%", NULL}},
      {"--op", {"run", "allreduce", "--procs", "2", "--count", "3", "--iters", "1", "--op", "%", NULL}},
      {"--format", {"draw", "bcast", "--procs", "4", "--latency", "2", "--overhead", "1", "--gap", "2", "--format", "%"}},
      {"--transport", {"run", "bcast", "--procs", "2", "--count", "3", "--iters", "1", "--transport", "%", NULL}},
      {"--completion", {"help", "--completion", "%", NULL}},
  };
  size_t tried = 0;
  RUN(R, "help", "--completion", "bash");
  CHECK_EQ(R.code, 0);
  snprintf(bash, sizeof bash, "%s", R.out);
  for (size_t u = 0; u < sizeof uses / sizeof uses[0]; u++) {
    char arm[64], list[512], *w, *save = NULL;
    const char *s, *q;
    snprintf(arm, sizeof arm, "\n    %s) COMPREPLY=($(compgen -W \"", uses[u].opt);
    s = strstr(bash, arm);
    if (s == NULL) test_failf(__FILE__, __LINE__, "bash: no values for %s", uses[u].opt);
    s += strlen(arm);
    if ((q = strchr(s, '"')) == NULL) q = s;
    CHECK(q > s && (size_t)(q - s) < sizeof list);
    snprintf(list, sizeof list, "%.*s", (int)(q - s), s);
    for (w = strtok_r(list, " ", &save); w != NULL; w = strtok_r(NULL, " ", &save)) {
      const char *argv[14];
      size_t n = 0;
      int bound = strcmp(uses[u].argv[0], "bound") == 0;
      for (; n < 12 && uses[u].argv[n] != NULL; n++)
        argv[n] = strcmp(uses[u].argv[n], "%") == 0 ? w : uses[u].argv[n];
      /* the models other than LogP need their own parameter */
      if (bound && strcmp(w, "postal") == 0) { argv[n++] = "--lambda"; argv[n++] = "3"; }
      if (bound && strcmp(w, "kport") == 0) { argv[n++] = "--ports"; argv[n++] = "2"; }
      if (bound && strcmp(w, "rrp") == 0) { argv[n++] = "--lines"; argv[n++] = "2"; }
      if (bound && strcmp(w, "logp") == 0) {
        argv[n++] = "--latency"; argv[n++] = "2"; argv[n++] = "--overhead"; argv[n++] = "1";
        argv[n++] = "--gap"; argv[n++] = "2";
      }
      argv[n] = NULL;
      if (strcmp(uses[u].opt, "--format") == 0 && strcmp(w, "html") == 0) argv[0] = "report";
      run_optcast(&R, NULL, argv);
      if (R.code != 0)
        test_failf(__FILE__, __LINE__, "%s %s: exit %d: %.200s", uses[u].opt, w, R.code, R.err);
      tried++;
    }
  }
  CHECK(tried >= 30);
}

void test_cli_did_you_mean(void) {
  static const struct {
    const char *argv[6];
    const char *want;
  } cases[] = {
      {{"plna", "bcast", NULL}, "did you mean 'plan'?"},
      {{"mesure", NULL}, "did you mean 'measure'?"},
      {{"help", "compre", NULL}, "did you mean 'compare'?"},
      {{"plan", "bcast", "--proc", "4", NULL}, "did you mean '--procs'?"},
      {{"plan", "bcast", "--lamda", "2", NULL}, "did you mean '--lambda'?"},
      {{"run", "bcast", "--prcos", "2", NULL}, "did you mean '--procs'?"},
      {{"compare", "bcast", "--presset", "cm5", NULL}, "did you mean '--preset'?"},
      {{"plan", "bcast", "--reps", "3", NULL}, "an option of 'optcast measure'"},
      {{"zzzz", NULL}, "expected one of: plan, bound"},
      {{"plan", "bcast", "--zzzzzz", NULL}, "unknown option '--zzzzzz'"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    run_optcast(&R, NULL, cases[i].argv);
    CHECK_EQ(R.code, 2);
    CHECK(R.out[0] == '\0');
    if (!HAS(R.err, cases[i].want) || strchr(R.err, '\n') != R.err + strlen(R.err) - 1)
      test_failf(__FILE__, __LINE__, "%s: '%s'", cases[i].want, R.err);
  }
  /* nothing near: no suggestion */
  RUN(R, "plan", "bcast", "--zzzzzz");
  CHECK(!HAS(R.err, "did you mean"));
}

/* the JSON number after "key": */
static double json_num(const char *s, const char *key) {
  char k[64];
  const char *p;
  snprintf(k, sizeof k, "\"%s\":", key);
  if ((p = strstr(s, k)) == NULL) test_failf(__FILE__, __LINE__, "no %s in '%.200s'", k, s);
  return p == NULL ? -1 : strtod(p + strlen(k), NULL);
}

/* LogP parameters with units: the same plans as the integers they convert
 * to, times printed in the unit of --latency, exactly. */
void test_cli_units(void) {
  static char csv[1 << 16];
  static const char *const probs[] = {"bcast", "reduce", "allreduce", "alltoall"};
  { /* the library: summation needs o to be whole additions (p.unit each) */
    oc_params p;
    oc_reduce *x = NULL;
    int64_t t;
    CHECK_OK(oc_params_logp(&p, 16, 15, 5, 3));
    p.unit = 10;
    CHECK_OK(oc_params_check(&p));
    CHECK_EQ(oc_sum_new(&x, &p, 0, 200), OC_EUNSUP);
    CHECK_EQ(oc_sum_time(&p, 200, &t), OC_EUNSUP);
    CHECK_EQ(oc_sum_capacity(&p, 100, &t), OC_EUNSUP);
    p.o = 10;
    CHECK_OK(oc_sum_new(&x, &p, 0, 200));
    oc_reduce_free(x);
  }
  /* the question: 1024 ranks, L = 1.5 us, o = 0.5 us, g = 0.3 us */
  RUN(R, "plan", "bcast", "--procs", "1024", "--latency", "1.5us", "--overhead", "0.5us", "--gap",
      "0.3us", "--json");
  CHECK_EQ(R.code, 0);
  CHECK(HAS(R.out, "\"time\":14,") && HAS(R.out, "\"unit\":\"us\"") && HAS(R.out, "\"L\":1.5,"));
  CHECK(HAS(R.out, "\"model_unit_ps\":100000") && HAS(R.out, "\"model_L\":15,"));
  RUN(H, "plan", "bcast", "--procs", "1024", "--latency", "15", "--overhead", "5", "--gap", "3",
      "--json");
  CHECK(H.code == 0 && HAS(H.out, "\"time\":140,"));
  RUN(R, "plan", "bcast", "--procs", "1024", "--latency", "1.5us", "--overhead", "0.5us", "--gap",
      "0.3us");
  CHECK(R.code == 0 && HAS(R.out, "time 14 us, lower bound 14 us (optimal)"));
  CHECK(HAS(R.out, "L=1.5us o=0.5us g=0.3us (times in us; model unit 0.1 us)"));
  /* the same instance written other ways */
  RUN(R, "plan", "bcast", "--procs", "1024", "--latency", "1500ns", "--overhead", "500ns",
      "--gap", "300ns", "--json");
  CHECK(R.code == 0 && HAS(R.out, "\"time\":14000,") && HAS(R.out, "\"unit\":\"ns\""));
  RUN(R, "plan", "bcast", "--procs", "1024", "--latency", "0.0015ms", "--overhead", "500ns",
      "--gap", "0.3us", "--json");
  CHECK(R.code == 0 && HAS(R.out, "\"time\":0.014,") && HAS(R.out, "\"unit\":\"ms\""));
  RUN(R, "plan", "bcast", "--procs", "1024", "--latency", "1.5\xc2\xb5s", "--overhead", "0.5us",
      "--gap", "300000ps", "--json");
  CHECK(R.code == 0 && HAS(R.out, "\"time\":14,"));
  /* random instances: units a tenth of a unit apart from the integers */
  for (int i = 0; i < 40; i++) {
    int64_t L = test_range(0, 60), o = test_range(0, 20), g = test_range(1, 30),
            P = test_range(2, 300);
    const char *prob = probs[i % 4];
    char sl[32], so[32], sg[32], il[32], io[32], ig[32], sp[32];
    double tu, ti;
    if (L + 2 * o < 1) L = 1;
    snprintf(sl, sizeof sl, "%lld.%lldus", (long long)(L / 10), (long long)(L % 10));
    snprintf(so, sizeof so, "%lldns", (long long)(o * 100));
    snprintf(sg, sizeof sg, "%lld00ns", (long long)g);
    snprintf(il, sizeof il, "%lld", (long long)L);
    snprintf(io, sizeof io, "%lld", (long long)o);
    snprintf(ig, sizeof ig, "%lld", (long long)g);
    snprintf(sp, sizeof sp, "%lld", (long long)(strcmp(prob, "alltoall") == 0 ? P % 40 + 2 : P));
    RUN(R, "plan", prob, "--procs", sp, "--latency", sl, "--overhead", so, "--gap", sg, "--json");
    RUN(H, "plan", prob, "--procs", sp, "--latency", il, "--overhead", io, "--gap", ig, "--json");
    if (strcmp(prob, "reduce") == 0 || strcmp(prob, "allreduce") == 0) {
      /* an addition is one printed unit (1 us, 10 model units here), which
       * no run with integers has: verified, and no faster than the bound */
      CHECK_EQ(R.code, 0);
      CHECK(HAS(R.out, "\"verified\":true"));
      CHECK(json_num(R.out, "time") >= json_num(R.out, "lower_bound"));
      continue;
    }
    CHECK_EQ(R.code, 0);
    CHECK_EQ(H.code, 0);
    tu = json_num(R.out, "time");
    ti = json_num(H.out, "time");
    if (tu * 10 < ti - 1e-6 || tu * 10 > ti + 1e-6)
      test_failf(__FILE__, __LINE__, "%s P=%s L=%s o=%s g=%s: %g us, integers %g", prob, sp, sl,
                 so, sg, tu, ti);
    CHECK(json_num(R.out, "lower_bound") * 10 > json_num(H.out, "lower_bound") - 1e-6);
  }
  /* the CSV is in the unit given, and verify reads it back with the same options */
  RUN(R, "plan", "bcast", "--procs", "50", "--latency", "1.5us", "--overhead", "0.5us", "--gap",
      "0.3us", "--csv");
  CHECK(R.code == 0 && HAS(R.out, "\n0.5,0,"));
  snprintf(csv, sizeof csv, "%s", R.out);
  {
    const char *a[] = {"verify", "bcast", "--procs", "50", "--latency", "1.5us", "--overhead",
                       "0.5us", "--gap", "0.3us", NULL};
    run_optcast(&R, csv, a);
    CHECK(R.code == 0 && HAS(R.out, "completion time 8.5, lower bound 8.5"));
    *strstr(csv, "\n0.5,0,") = '\0'; /* a mutant: the second send at 0.5 goes */
    strcat(csv, "\n0.1,0,16,0\n");    /* 0.1 after the first: closer than g */
    run_optcast(&R, csv, a);
    CHECK_EQ(R.code, 1);
  }
  /* sum: an addition is one unit of --latency; o must be a whole number of them */
  RUN(R, "plan", "sum", "--procs", "16", "--operands", "200", "--latency", "1.5us", "--overhead",
      "0.5us", "--gap", "0.3us");
  CHECK(R.code == 2 && R.out[0] == '\0' && HAS(R.err, "--overhead") && HAS(R.err, "0.5us"));
  RUN(R, "plan", "sum", "--procs", "16", "--operands", "200", "--latency", "1500ns", "--overhead",
      "500ns", "--gap", "300ns", "--json");
  RUN(H, "plan", "sum", "--procs", "16", "--operands", "200", "--latency", "1500", "--overhead",
      "500", "--gap", "300", "--json");
  CHECK(R.code == 0 && H.code == 0);
  CHECK(json_num(R.out, "time") == json_num(H.out, "time"));
  /* compare: the same rows as the integers, in the model's unit */
  RUN(R, "compare", "bcast", "--procs", "1024", "--latency", "1.5us", "--overhead", "0.5us",
      "--gap", "0.3us");
  RUN(H, "compare", "bcast", "--procs", "1024", "--latency", "15", "--overhead", "5", "--gap", "3");
  CHECK(R.code == 0 && H.code == 0 && HAS(R.out, "(times in units of 0.1 us)"));
  CHECK(strcmp(strchr(R.out, '\n'), strchr(H.out, '\n')) == 0);
  /* bad input: one line naming the option, exit 2, nothing on stdout */
  {
    static const struct {
      const char *l, *o, *g, *want;
    } bad[] = {
        {"1.5xs", "1us", "1us", "--latency: '1.5xs': unknown unit 'xs'"},
        {"1.5us", "1", "1us", "--overhead: '1' has no unit"},
        {"us", "1us", "1us", "--latency: 'us' has a unit but no number"},
        {"1us", "1us", "0us", "--gap: must be more than 0"},
        {"0.0000001us", "1us", "1us", "finer than a picosecond"},
        {"99999999s", "1us", "1us", "--latency: '99999999s' is too large"},
        {"-1us", "1us", "1us", "--latency: must not be negative"},
        {"0ns", "0ns", "1ns", "L + 2o must be more than 0"},
        {"2s", "1ps", "1ps", "--latency: '2s' is 2000000000000 times"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      RUN(R, "plan", "bcast", "--procs", "8", "--latency", bad[i].l, "--overhead", bad[i].o,
          "--gap", bad[i].g);
      if (R.code != 2 || R.out[0] != '\0' || !HAS(R.err, bad[i].want) ||
          strchr(R.err, '\n') != R.err + strlen(R.err) - 1)
        test_failf(__FILE__, __LINE__, "%s %s %s: exit %d '%s'", bad[i].l, bad[i].o, bad[i].g,
                   R.code, R.err);
    }
  }
}

/* The caveats the output owes its reader: threads sharing cores, parameters
 * extrapolated past the measured sizes, a measurement's spread, and plain
 * words for an empty parameter file, a directory for --out, a leaf. */
void test_cli_honest_output(void) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  char procs[32], path[64];
  static char json[1 << 16];
  FILE *f;
  CHECK(cores >= 1);
  snprintf(procs, sizeof procs, "%ld", cores + 1);
  RUN(R, "run", "bcast", "--procs", procs, "--count", "64", "--iters", "2");
  CHECK(R.code == 0 && HAS(R.out, "threads share") && HAS(R.out, "built-in parameters"));
  RUN(R, "run", "bcast", "--procs", procs, "--count", "64", "--iters", "2", "--json");
  CHECK(R.code == 0 && HAS(R.out, "\"oversubscribed\":true") && HAS(R.out, "\"params\":\"default\""));
  RUN(R, "run", "bcast", "--procs", "1", "--count", "64", "--iters", "2", "--json");
  CHECK(R.code == 0 && HAS(R.out, "\"oversubscribed\":false"));
  RUN(R, "run", "bcast", "--procs", "1", "--count", "64", "--iters", "2");
  CHECK(R.code == 0 && !HAS(R.out, "threads share"));
  /* a parameter file measured up to 4096 bytes */
  snprintf(path, sizeof path, "/tmp/optcast-test-%ld.params", (long)getpid());
  if ((f = fopen(path, "w")) == NULL) test_failf(__FILE__, __LINE__, "cannot write %s", path);
  else {
    fputs("transport threads\n8 1.0 0.5 0.5 0.2\n4096 1.5 1.0 1.0 0.8\n", f);
    CHECK(fclose(f) == 0);
  }
  RUN(R, "plan", "bcast", "--procs", "16", "--params", path, "--size", "100000");
  CHECK(R.code == 0 && HAS(R.err, "past the largest size measured") && HAS(R.err, "4096"));
  RUN(R, "plan", "bcast", "--procs", "16", "--params", path, "--size", "100000", "--json");
  CHECK(R.code == 0 && HAS(R.out, "\"params_extrapolated\":true") && R.err[0] == '\0');
  RUN(R, "plan", "bcast", "--procs", "16", "--params", path, "--size", "4096", "--json");
  CHECK(R.code == 0 && HAS(R.out, "\"params_extrapolated\":false"));
  RUN(R, "run", "bcast", "--procs", "2", "--size", "65536", "--iters", "2", "--params", path);
  CHECK(R.code == 0 && HAS(R.out, "past the largest size measured") && HAS(R.out, "measured parameters"));
  remove(path);
  RUN(R, "plan", "bcast", "--procs", "8", "--params", "/dev/null");
  CHECK(R.code == 2 && R.out[0] == '\0' && HAS(R.err, "has no parameter rows"));
  RUN(R, "run", "bcast", "--procs", "2", "--params", "/dev/null");
  CHECK(R.code == 2 && R.out[0] == '\0' && HAS(R.err, "has no parameter rows"));
  RUN(R, "measure", "--out", "/tmp");
  CHECK(R.code == 2 && R.out[0] == '\0' && HAS(R.err, "'/tmp' is a directory"));
  /* measure: the medians of the rounds, and their spread */
  RUN(R, "measure", "--sizes", "8,4096", "--reps", "3", "--rounds", "3", "--json");
  CHECK_EQ(R.code, 0);
  snprintf(json, sizeof json, "%s", R.out);
  CHECK(HAS(json, "\"rounds\":3") && HAS(json, "\"noisy_sizes\":"));
  for (const char *row = strstr(json, "{\"bytes\""); row != NULL; row = strstr(row + 1, "{\"bytes\"")) {
    double g = json_num(row, "g_us"), lo = json_num(row, "g_min_us"), hi = json_num(row, "g_max_us");
    CHECK(lo <= g && g <= hi);
  }
  RUN(R, "measure", "--rounds", "0");
  CHECK(R.code == 2 && HAS(R.err, "--rounds"));
  /* a leaf's plan */
  RUN(R, "rank", "bcast", "--procs", "100", "--rank", "7", "--latency", "6", "--overhead", "2",
      "--gap", "4");
  CHECK(R.code == 0 && HAS(R.out, "no children (a leaf)") && !HAS(R.out, "0 children"));
}

/* a broadcast plan to 3 * 10^6 processors (extra: more options) run on a
 * terminal that script(1) makes, the progress line shown at once; what the
 * terminal got into out */
static void on_terminal(const char *extra, char *out, size_t cap) {
  char cmd[8192];
  const char *bin = getenv("OPTCAST_BIN");
  FILE *f;
  if (bin == NULL) abort(); /* (test_main sets it) */
  snprintf(cmd, sizeof cmd,
           "script -qec 'OPTCAST_PROGRESS_AFTER_MS=0 %s plan bcast --procs 3000000 --latency 6 "
           "--overhead 2 --gap 4%s | head -1' /dev/null", bin, extra);
  if ((f = popen(cmd, "r")) == NULL) {
    test_failf(__FILE__, __LINE__, "cannot run script(1)");
  } else {
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = '\0';
    CHECK(pclose(f) == 0);
  }
}

/* A long plan's progress line (on a terminal only: `script` gives one), and
 * the memory estimate's refusal. */
void test_cli_progress_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
  static char out[1 << 16];
  /* no terminal: no line, whatever the threshold */
  setenv("OPTCAST_PROGRESS_AFTER_MS", "0", 1);
  RUN(R, "plan", "bcast", "--procs", "200000", "--latency", "6", "--overhead", "2", "--gap", "4");
  CHECK(R.code == 0 && !HAS(R.err, "working"));
  /* a terminal (script(1)): the line at once, then cleared before the output */
  /* (not under valgrind, which would trace script(1) itself) */
  if (!test_valgrind() && system("command -v script > /dev/null 2>&1") == 0) {
    on_terminal("", out, sizeof out);
    if (!HAS(out, "optcast plan bcast: working, 0 s; building and verifying the schedule, about"))
      test_failf(__FILE__, __LINE__, "no progress line: '%.300s'", out);
    CHECK(HAS(out, "\r\033[K") && HAS(out, "optcast plan bcast: LogP L=6 o=2 g=4, P=3000000"));
    on_terminal(" --quiet", out, sizeof out);
    CHECK(!HAS(out, "working") && HAS(out, "P=3000000"));
  } else {
    fprintf(stderr, "  (no script(1): the terminal case not run)\n");
  }
  unsetenv("OPTCAST_PROGRESS_AFTER_MS");
  /* the memory estimate: 2^30 processors take about 69 GB to plan */
  if (pages > 0 && psize > 0 && (double)pages * (double)psize / 2 < 64.0 * 1073741824.0) {
    RUN(R, "plan", "bcast", "--procs", "1073741824", "--latency", "6", "--overhead", "2", "--gap", "4");
    CHECK(R.code == 2 && R.out[0] == '\0' && HAS(R.err, "needs about 68.7 GB") &&
          HAS(R.err, "(half this machine's memory)") && HAS(R.err, "--force"));
  }
  setenv("OPTCAST_PLAN_MEMORY_MB", "100", 1); /* 100 MB: P = 2 * 10^6 needs 128 */
  RUN(R, "plan", "bcast", "--procs", "2000000", "--latency", "6", "--overhead", "2", "--gap", "4");
  CHECK(R.code == 2 && HAS(R.err, "needs about 0.1 GB, more than the limit of 0.1 GB"));
  RUN(R, "plan", "bcast", "--procs", "2000000", "--latency", "6", "--overhead", "2", "--gap", "4",
      "--force", "--json");
  CHECK(R.code == 0 && HAS(R.out, "\"P\":2000000"));
  unsetenv("OPTCAST_PLAN_MEMORY_MB");
  RUN(R, "plan", "bcast", "--procs", "1000", "--latency", "6", "--overhead", "2", "--gap", "4",
      "--force");
  CHECK(R.code == 0 && HAS(R.out, "time 70"));
  RUN(R, "bound", "bcast", "--procs", "1073741824", "--latency", "6", "--overhead", "2", "--gap", "4");
  CHECK(R.code == 0); /* no schedule: no estimate */
}

/* the value of attribute name="..." at or after s, or "" */
static void attr(const char *s, const char *end, const char *name, char *out, size_t cap) {
  char key[40];
  const char *p;
  snprintf(key, sizeof key, " %s=\"", name);
  out[0] = '\0';
  if ((p = strstr(s, key)) == NULL || p > end) return;
  p += strlen(key);
  snprintf(out, cap, "%.*s", (int)(strchr(p, '"') - p), p);
}

/* The sweep chart: every row its own colour and line style, y labels apart;
 * the ring picture readable at N = 16. */
void test_cli_pictures(void) {
  static char svg[1 << 16], seen[64][64];
  char path[64];
  size_t nl = 0, nt = 0;
  double ty[64];
  FILE *f;
  snprintf(path, sizeof path, "/tmp/optcast-chart-%ld.svg", (long)getpid());
  RUN(R, "compare", "bcast", "--preset", "ib-tukey", "--sweep", "procs=8..512", "--size",
      "262144", "--csv", "--svg", path);
  CHECK_EQ(R.code, 0);
  if ((f = fopen(path, "r")) == NULL) test_failf(__FILE__, __LINE__, "no chart %s", path);
  else {
    size_t n = fread(svg, 1, sizeof svg - 1, f);
    svg[n] = '\0';
    fclose(f);
  }
  remove(path);
  for (const char *p = strstr(svg, "<polyline"); p != NULL && nl < 64; p = strstr(p + 1, "<polyline")) {
    char col[16], dash[16];
    const char *e = strchr(p, '>');
    attr(p, e, "stroke", col, sizeof col);
    attr(p, e, "stroke-dasharray", dash, sizeof dash);
    if (col[0] == '\0') test_failf(__FILE__, __LINE__, "a polyline without a colour");
    snprintf(seen[nl], sizeof seen[nl], "%s/%s", col, dash);
    for (size_t k = 0; k < nl; k++)
      if (strcmp(seen[k], seen[nl]) == 0)
        test_failf(__FILE__, __LINE__, "two rows drawn alike: %s", seen[nl]);
    nl++;
  }
  CHECK(nl >= 15);
  for (const char *p = strstr(svg, "text-anchor=\"end\""); p != NULL && nt < 64;
       p = strstr(p + 1, "text-anchor=\"end\"")) { /* the y axis' labels */
    const char *y = strstr(p - 40 > svg ? p - 40 : svg, " y=\"");
    if (y == NULL) {
      test_failf(__FILE__, __LINE__, "a label without y");
      break;
    }
    ty[nt] = atof(y + 4);
    for (size_t k = 0; k < nt; k++)
      if (ty[k] - ty[nt] < 16 && ty[nt] - ty[k] < 16)
        test_failf(__FILE__, __LINE__, "y labels %.1f and %.1f overlap", ty[k], ty[nt]);
    nt++;
  }
  CHECK(nt >= 4);
  /* the ring: one line said as one, the chart about 640 px wide */
  RUN(R, "draw", "bcast", "--model", "rrp", "--procs", "16", "--lines", "4", "--format", "svg");
  CHECK(R.code == 0 && HAS(R.out, "steps on 1 line,") && !HAS(R.out, "1 lines"));
  {
    char w[32];
    attr(strstr(R.out, "<svg"), R.out + strlen(R.out), "width", w, sizeof w);
    CHECK(atof(w) >= 800);
  }
}
