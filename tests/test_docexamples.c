/* test_docexamples.c - every example in README.md and docs/CLI.md is run and
 * its output compared, so the docs cannot drift from the command.
 *
 * An example is a line "$ COMMAND" inside a ``` block (continued by a
 * trailing backslash), and its expected output the lines after it up to the
 * next "$ " line or the end of the block.  Each document's examples run in
 * order in one shell, in a scratch directory (files one example writes,
 * another reads: `> s.csv`, `< s.csv`), with `optcast` and `./build/optcast`
 * the command under test; `$?` is the exit status of the example before.
 * Standard output, then standard error, are compared with the lines shown,
 * line by line, trailing blanks ignored; a line "..." stands for any lines
 * (none or more), and "..." inside a line for any text.  An example shown
 * without output, and one whose output is a measurement (`optcast run`,
 * `optcast measure`, and what reads a file measure wrote), must exit 0; its
 * output is not compared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

#define EX_MAX 128

typedef struct example {
  int line;   /* of the "$ " line in the document */
  char *cmd;  /* the command, continuation lines included */
  char *want; /* the expected output, lines joined by '\n' */
  int vary;   /* a measurement: exit 0, output not compared */
} example;

static char *slurp_file(const char *path) {
  FILE *f = fopen(path, "rb");
  char *buf;
  long n;
  if (f == NULL) return NULL;
  if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return NULL;
  }
  buf = (char *)malloc((size_t)n + 1);
  if (buf != NULL) {
    size_t k = fread(buf, 1, (size_t)n, f);
    buf[k] = '\0';
  }
  fclose(f);
  return buf;
}

static char *dup_range(const char *a, const char *b) {
  char *s = (char *)malloc((size_t)(b - a) + 1);
  if (s == NULL) abort(); /* (out of memory: the test fails) */
  memcpy(s, a, (size_t)(b - a));
  s[b - a] = '\0';
  return s;
}

/* the examples of one document, in order */
static int parse(const char *text, example *ex, int cap) {
  int n = 0, fence = 0, line = 1;
  const char *p = text;
  while (*p != '\0') {
    const char *e = strchr(p, '\n');
    if (e == NULL) e = p + strlen(p);
    if (strncmp(p, "```", 3) == 0) {
      fence = !fence;
    } else if (fence && strncmp(p, "$ ", 2) == 0) {
      const char *c = p + 2, *ce = e, *w, *we;
      int at = line;
      while (ce > c && ce[-1] == '\\' && *ce == '\n') { /* continued */
        const char *nx = strchr(ce + 1, '\n');
        ce = nx != NULL ? nx : ce + 1 + strlen(ce + 1);
        line++;
      }
      CHECK(n < cap);
      ex[n].line = at;
      ex[n].cmd = dup_range(c, ce);
      /* its output: up to the next "$ " or the end of the block */
      w = *ce == '\n' ? ce + 1 : ce;
      we = w;
      while (*we != '\0' && strncmp(we, "$ ", 2) != 0 && strncmp(we, "```", 3) != 0) {
        const char *nx = strchr(we, '\n');
        we = nx != NULL ? nx + 1 : we + strlen(we);
        line++;
      }
      ex[n].want = dup_range(w, we);
      ex[n].vary = strstr(ex[n].cmd, "optcast run ") != NULL ||
                   strstr(ex[n].cmd, "optcast measure") != NULL ||
                   strstr(ex[n].cmd, "threads.params") != NULL;
      n++;
      p = we;
      line++;
      continue;
    }
    p = *e == '\n' ? e + 1 : e;
    line++;
  }
  return n;
}

/* the next line of s (without its '\n', trailing blanks dropped) into b */
static const char *next_line(const char *s, char *b, size_t cap) {
  const char *e = strchr(s, '\n');
  size_t k = e != NULL ? (size_t)(e - s) : strlen(s);
  while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t' || s[k - 1] == '\r')) k--;
  snprintf(b, cap, "%.*s", (int)(k < cap ? k : cap - 1), s);
  return e != NULL ? e + 1 : s + strlen(s);
}

static int is_ellipsis(const char *l) {
  while (*l == ' ') l++;
  return strcmp(l, "...") == 0;
}

/* a line against a documented one: "..." inside it stands for any text */
static int line_matches(const char *w, const char *g) {
  const char *dots = strstr(w, "...");
  if (dots == NULL) return strcmp(w, g) == 0;
  if (strncmp(w, g, (size_t)(dots - w)) != 0) return 0;
  g += dots - w;
  for (const char *t = g;; t++) {
    if (line_matches(dots + 3, t)) return 1;
    if (*t == '\0') return 0;
  }
}

/* got matches want line by line, a line "..." for any lines */
static int matches(const char *want, const char *got) {
  char w[4096], g[4096];
  const char *wn, *gn;
  if (*want == '\0') return *got == '\0';
  wn = next_line(want, w, sizeof w);
  if (is_ellipsis(w)) {
    for (const char *t = got;; t = next_line(t, g, sizeof g)) {
      if (matches(wn, t)) return 1;
      if (*t == '\0') return 0;
    }
  }
  if (*got == '\0') return 0;
  gn = next_line(got, g, sizeof g);
  return line_matches(w, g) && matches(wn, gn);
}

/* $? of the example before: the shell keeps it in __rc */
static void put_cmd(FILE *f, const char *cmd) {
  for (const char *s = cmd; *s != '\0'; s++) {
    if (s[0] == '$' && s[1] == '?') {
      fputs("$__rc", f);
      s++;
    } else if (strncmp(s, "./build/optcast", 15) == 0) {
      fputs("optcast", f);
      s += 14;
    } else {
      fputc(*s, f);
    }
  }
}

static int run_doc(const char *doc) {
  static example ex[EX_MAX];
  char dir[] = "/tmp/optcast-docex-XXXXXX", path[600], *text, bin[4096];
  const char *b = getenv("OPTCAST_BIN");
  int n, bad = 0, rc;
  FILE *f;
  if (b == NULL) abort(); /* (test_main sets it) */
  if (b[0] == '/') { /* the scratch directory needs it absolute */
    snprintf(bin, sizeof bin, "%s", b);
  } else {
    char cwd[2048];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    snprintf(bin, sizeof bin, "%s/%s", cwd, b);
  }
  if (access(bin, X_OK) != 0) test_failf(__FILE__, __LINE__, "no command at %s", bin);
  text = slurp_file(doc);
  if (text == NULL) {
    fprintf(stderr, "  cannot read %s (run from the repository root)\n", doc);
    return 1;
  }
  n = parse(text, ex, EX_MAX);
  CHECK(n >= 10);
  CHECK(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/run.sh", dir);
  if ((f = fopen(path, "w")) == NULL) {
    fprintf(stderr, "  cannot write %s\n", path);
    free(text);
    return 1;
  }
  /* (the memory limit at 16 GB: the refusal the docs show, on any machine) */
  fprintf(f, "cd '%s' || exit 2\nmkdir bin && ln -s '%s' bin/optcast || exit 2\n"
             "PATH=\"$PWD/bin:$PATH\"\nOPTCAST_PLAN_MEMORY_MB=16000\n"
             "export OPTCAST_PLAN_MEMORY_MB\n__rc=0\n", dir, bin);
  for (int i = 0; i < n; i++) {
    fputs("{ ", f);
    put_cmd(f, ex[i].cmd);
    fprintf(f, "\n} > out.%d 2> err.%d < /dev/null; __rc=$?; echo $__rc > rc.%d\n", i, i, i);
  }
  CHECK(fclose(f) == 0);
  snprintf(path, sizeof path, "sh '%s/run.sh'", dir);
  rc = system(path);
  CHECK(rc != -1);
  for (int i = 0; i < n; i++) {
    char *got = NULL, *out, *err, *rcs;
    snprintf(path, sizeof path, "%s/out.%d", dir, i);
    out = slurp_file(path);
    snprintf(path, sizeof path, "%s/err.%d", dir, i);
    err = slurp_file(path);
    if (out != NULL && err != NULL) { /* standard output, then standard error */
      got = (char *)malloc(strlen(out) + strlen(err) + 1);
      if (got == NULL) abort();
      strcpy(got, out);
      strcat(got, err);
    }
    free(out);
    free(err);
    snprintf(path, sizeof path, "%s/rc.%d", dir, i);
    rcs = slurp_file(path);
    if (got == NULL || rcs == NULL) {
      fprintf(stderr, "  %s:%d: '%s' did not run\n", doc, ex[i].line, ex[i].cmd);
      bad++;
    } else if (ex[i].vary || ex[i].want[0] == '\0' ? atoi(rcs) != 0 : !matches(ex[i].want, got)) {
      fprintf(stderr, "  %s:%d: $ %s\n  --- the document says:\n%s  --- the command gives "
              "(exit %d):\n%.3000s\n", doc, ex[i].line, ex[i].cmd, ex[i].want, atoi(rcs), got);
      bad++;
    }
    free(got);
    free(rcs);
  }
  snprintf(path, sizeof path, "rm -rf '%s'", dir);
  if (system(path) != 0) fprintf(stderr, "  (could not remove %s)\n", dir);
  for (int i = 0; i < n; i++) {
    free(ex[i].cmd);
    free(ex[i].want);
  }
  free(text);
  fprintf(stderr, "  %s: %d examples run, %d differ\n", doc, n, bad);
  return bad;
}

void test_docs_examples(void) {
  int bad;
  if (test_valgrind()) return; /* the optimised and sanitized runs check the docs */
  bad = run_doc("README.md");
  bad += run_doc("docs/CLI.md");
  if (bad) test_failf(__FILE__, __LINE__, "%d documented example(s) differ from the command", bad);
}
