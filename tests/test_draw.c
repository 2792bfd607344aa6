/* test_draw.c - `optcast draw`: every SVG it writes is well-formed XML (a
 * small checker below), shows what it should (a node per processor, the
 * legend's colours, the "showing ... of ..." note for large P), the golden
 * drawings of the paper figures are reproduced byte for byte, files are
 * written atomically and bad input leaves nothing behind. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

/* ---- a small XML well-formedness checker ---------------------------------
 * Elements balanced and properly nested, attributes quoted and not
 * repeated, entities among the five predefined ones or numeric, no stray
 * '<' or '&', exactly one root element, which must be <svg> with the SVG
 * namespace.  Accepts an XML declaration and comments.  Returns NULL when
 * well-formed, else what is wrong. */
#define XML_DEPTH 64

static int name_char(char c, int first) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':') return 1;
  return !first && ((c >= '0' && c <= '9') || c == '-' || c == '.');
}

static const char *xml_name(const char *s, size_t *n) {
  size_t k = 0;
  if (!name_char(s[0], 1)) return NULL;
  while (name_char(s[k], 0)) k++;
  *n = k;
  return s + k;
}

/* an entity or character reference at s ('&'); returns past the ';' */
static const char *xml_entity(const char *s) {
  static const char *const named[] = {"amp;", "lt;", "gt;", "quot;", "apos;"};
  size_t k = 0;
  s++;
  for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
    if (strncmp(s, named[i], strlen(named[i])) == 0) return s + strlen(named[i]);
  if (s[0] != '#') return NULL;
  s++;
  if (s[0] == 'x') {
    s++;
    while ((s[k] >= '0' && s[k] <= '9') || (s[k] >= 'a' && s[k] <= 'f') ||
           (s[k] >= 'A' && s[k] <= 'F'))
      k++;
  } else {
    while (s[k] >= '0' && s[k] <= '9') k++;
  }
  return (k > 0 && k < 8 && s[k] == ';') ? s + k + 1 : NULL;
}

static int space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

/* attributes of a start tag from s up to '>' or '/>'; sets *empty */
static const char *xml_attrs(const char *s, const char *root_ns, int *empty,
                              const char **why) {
  int root = root_ns != NULL;
  const char *seen[32];
  size_t seen_n[32], nseen = 0;
  int has_ns = 0;
  for (;;) {
    const char *nm, *end;
    size_t n;
    char q;
    int sp = 0;
    while (space(*s)) { s++; sp = 1; }
    if (s[0] == '>' || (s[0] == '/' && s[1] == '>')) {
      *empty = s[0] == '/';
      if (root && !has_ns) { *why = "the root lacks its xmlns"; return NULL; }
      return s + (*empty ? 2 : 1);
    }
    if (!sp) { *why = "attributes not separated by space"; return NULL; }
    nm = s;
    if ((end = xml_name(s, &n)) == NULL) { *why = "bad attribute name"; return NULL; }
    for (size_t i = 0; i < nseen; i++)
      if (seen_n[i] == n && strncmp(seen[i], nm, n) == 0) { *why = "attribute repeated"; return NULL; }
    if (nseen < 32) { seen[nseen] = nm; seen_n[nseen++] = n; }
    s = end;
    if (*s != '=') { *why = "attribute without '='"; return NULL; }
    s++;
    if (*s != '"' && *s != '\'') { *why = "attribute value not quoted"; return NULL; }
    q = *s++;
    if (root && n == 5 && strncmp(nm, "xmlns", 5) == 0)
      has_ns = strncmp(s, root_ns, strlen(root_ns)) == 0 && s[strlen(root_ns)] == q;
    while (*s && *s != q) {
      if (*s == '<') { *why = "'<' in an attribute value"; return NULL; }
      if (*s == '&') {
        if ((s = xml_entity(s)) == NULL) { *why = "bad entity in an attribute"; return NULL; }
        continue;
      }
      s++;
    }
    if (*s != q) { *why = "unterminated attribute value"; return NULL; }
    s++;
  }
}

/* s well-formed, with one root element `root` in namespace ns */
static const char *xml_check_doc(const char *s, const char *root, const char *ns) {
  const char *open[XML_DEPTH], *why = NULL;
  size_t openn[XML_DEPTH];
  int depth = 0, roots = 0;
  if (strncmp(s, "<?xml", 5) == 0) {
    s = strstr(s, "?>");
    if (s == NULL) return "unterminated XML declaration";
    s += 2;
  }
  while (*s) {
    if (*s == '&') {
      if (depth == 0) return "text outside the root";
      if ((s = xml_entity(s)) == NULL) return "bad entity in text";
      continue;
    }
    if (*s == '>') return "stray '>'";
    if (*s != '<') {
      if (depth == 0 && !space(*s)) return "text outside the root";
      s++;
      continue;
    }
    if (strncmp(s, "<!--", 4) == 0) {
      s = strstr(s + 4, "-->");
      if (s == NULL) return "unterminated comment";
      s += 3;
    } else if (s[1] == '/') {
      size_t n;
      const char *end = xml_name(s + 2, &n);
      if (end == NULL || depth == 0) return "bad or unexpected end tag";
      depth--;
      if (n != openn[depth] || strncmp(s + 2, open[depth], n) != 0) return "mismatched end tag";
      while (space(*end)) end++;
      if (*end != '>') return "bad end tag";
      s = end + 1;
    } else {
      size_t n;
      int empty = 0;
      const char *nm = s + 1, *end = xml_name(s + 1, &n);
      if (end == NULL) return "bad element name";
      if (depth == 0) {
        if (++roots > 1) return "more than one root element";
        if (n != strlen(root) || strncmp(nm, root, n) != 0) return "wrong root element";
      }
      if ((s = xml_attrs(end, depth == 0 ? ns : NULL, &empty, &why)) == NULL) return why;
      if (!empty) {
        if (depth >= XML_DEPTH) return "nested too deep";
        open[depth] = nm;
        openn[depth++] = n;
      }
    }
  }
  if (depth != 0) return "unclosed element";
  if (roots != 1) return "no root element";
  return NULL;
}

static const char *xml_check(const char *s) {
  return xml_check_doc(s, "svg", "http://www.w3.org/2000/svg");
}

static const char *xhtml_check(const char *s) {
  return xml_check_doc(s, "html", "http://www.w3.org/1999/xhtml");
}

/* ---- running `optcast draw` ------------------------------------------------ */
static run_result R;
static char dir[64];

static void make_dir(void) {
  snprintf(dir, sizeof dir, "/tmp/optcast-draw-XXXXXX");
  CHECK(mkdtemp(dir) != NULL);
}

static void remove_dir(void) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char path[512];
  CHECK(d != NULL);
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    unlink(path);
  }
  closedir(d);
  rmdir(dir);
}

/* files in dir (temporary ones included) */
static int dir_entries(void) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  CHECK(d != NULL);
  while ((e = readdir(d)) != NULL) /* temporaries (.optcast-XXXXXX) count too */
    n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(d);
  return n;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf;
  long n;
  if (f == NULL) return NULL;
  CHECK(fseek(f, 0, SEEK_END) == 0);
  n = ftell(f);
  CHECK(n >= 0 && fseek(f, 0, SEEK_SET) == 0);
  buf = (char *)malloc((size_t)n + 1);
  if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
    fclose(f);
    free(buf);
    return NULL;
  }
  buf[n] = '\0';
  fclose(f);
  if (len) *len = (size_t)n;
  return buf;
}

/* "CMD ARGS OPT dir/FILE" with ARGS split at spaces; returns the file
 * (caller frees) after checking exit 0, quiet stdout, a file that `check`
 * finds well-formed (from byte `skip`) and no temporary left in it */
static char *run_to_file(const char *cmd, const char *opt, const char *args,
                         const char *file, const char *(*check)(const char *), size_t skip) {
  char buf[512], path[256], *argv[40], *out;
  const char *why;
  int n = 0;
  snprintf(buf, sizeof buf, "%s", args);
  snprintf(path, sizeof path, "%s/%s", dir, file);
  argv[n++] = (char *)cmd;
  for (char *t = strtok(buf, " "); t && n < 36; t = strtok(NULL, " ")) argv[n++] = t;
  argv[n++] = (char *)opt;
  argv[n++] = path;
  argv[n] = NULL;
  run_optcast(&R, NULL, (const char *const *)argv);
  if (R.code != 0) test_failf(__FILE__, __LINE__, "%s %s: exit %d: %s", cmd, args, R.code, R.err);
  CHECK(R.out[0] == '\0');
  out = read_file(path, NULL);
  why = out == NULL ? "no file written" : strlen(out) < skip ? "too short" : check(out + skip);
  if (why) test_failf(__FILE__, __LINE__, "%s %s: not well-formed: %s", cmd, args, why);
  return out;
}

static char *draw(const char *args, const char *file) {
  return run_to_file("draw", "--svg", args, file, xml_check, 0);
}

#define HAS(s, sub) (strstr((s), (sub)) != NULL)

static const char *const LEGEND[] = {"#d62728", "#1f77b4", "#f2c14e", "#2ca02c",
                                     "#d9d9d9"};

/* the legend lists a colour exactly when the chart uses it (a swatch is
 * 12 x 12; the chart's cells are other rectangles of that fill) */
static void check_legend(const char *svg) {
  int listed = 0;
  CHECK(HAS(svg, "legend:"));
  for (size_t i = 0; i < sizeof LEGEND / sizeof LEGEND[0]; i++) {
    char want[64], fill[32];
    int swatch, all = 0;
    snprintf(want, sizeof want, "width=\"12.0\" height=\"12.0\" fill=\"%s\"", LEGEND[i]);
    snprintf(fill, sizeof fill, "fill=\"%s\"", LEGEND[i]);
    swatch = HAS(svg, want);
    for (const char *t = strstr(svg, fill); t != NULL; t = strstr(t + 1, fill)) all++;
    if (swatch != (all - swatch > 0))
      test_failf(__FILE__, __LINE__, "legend: %s %s, used %d times", LEGEND[i],
                 swatch ? "listed" : "not listed", all - swatch);
    listed += swatch;
  }
  CHECK(listed >= 1);
}

/* a node or row label ">pQ<" (">pQ (source)<") for every processor below
 * `upto` */
static void check_labels(const char *svg, int64_t upto) {
  for (int64_t q = 0; q < upto; q++) {
    char want[32], src[48];
    snprintf(want, sizeof want, ">p%lld<", (long long)q);
    snprintf(src, sizeof src, ">p%lld (source)<", (long long)q);
    if (!HAS(svg, want) && !HAS(svg, src))
      test_failf(__FILE__, __LINE__, "no label %s", want);
  }
}

void test_draw_xml_checker(void) {
  /* the checker itself: it must reject each kind of breakage */
  static const char *const bad[] = {
      "<svg xmlns=\"http://www.w3.org/2000/svg\"><g></svg>",
      "<svg xmlns=\"http://www.w3.org/2000/svg\"><g></h></svg>",
      "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect x=1/></svg>",
      "<svg xmlns=\"http://www.w3.org/2000/svg\"><text>a & b</text></svg>",
      "<svg xmlns=\"http://www.w3.org/2000/svg\"><text>&nbsp;</text></svg>",
      "<svg xmlns=\"http://www.w3.org/2000/svg\"></svg><svg xmlns=\"http://www.w3.org/2000/svg\"></svg>",
      "<svg></svg>",
      "<html xmlns=\"http://www.w3.org/2000/svg\"></html>",
      "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect a=\"1\" a=\"2\"/></svg>",
      "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect a=\"<\"/></svg>",
      "<svg xmlns=\"http://www.w3.org/2000/svg\">",
      "text<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>",
  };
  CHECK(xml_check("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
                  "a='1'><!-- c --><g><text x=\"1\">a &amp; &#60; &#x3e;</text></g>"
                  "<rect/></svg>\n") == NULL);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    if (xml_check(bad[i]) == NULL) test_failf(__FILE__, __LINE__, "accepted: %s", bad[i]);
}

/* every problem, small and large P, LogP / postal / k-port */
void test_draw_wellformed(void) {
  static const struct {
    const char *args;
    int64_t labels;   /* ">pQ<" for q < labels */
    int legend;       /* the activity chart's legend */
    const char *note; /* must appear */
  } cases[] = {
      {"bcast --procs 8 --latency 6 --overhead 2 --gap 4", 8, 1, "Broadcast tree"},
      {"bcast --procs 8 --latency 6 --overhead 2 --gap 4 --algorithm bar-noy-kipnis", 8, 1, "at 24<"},
      {"bcast --procs 1 --latency 6 --overhead 2 --gap 4", 1, 1, ">p0<"},
      {"bcast --lambda 5/2 --procs 14", 14, 1, "arrival (o = 0)"},
      {"bcast --procs 1000 --latency 6 --overhead 2 --gap 4", 32, 1,
       "showing processors 0-31 of 1000"},
      {"bcast --procs 1000 --latency 6 --overhead 2 --gap 4 --root 999", 32, 1,
       "of 1000 nodes, breadth-first: depths 0-1 whole"},
      {"bcast --procs 1024 --preset ib-tukey", 32, 1,
       "showing 22 of 1024 nodes, breadth-first: the root and its first 21 children"},
      {"sum --procs 1024 --operands 5000 --latency 6 --overhead 2 --gap 4", 32, 1,
       "below, per depth: depth 2: "},
      {"bcast --procs 300 --latency 1000 --overhead 1 --gap 2", 32, 1, "time units per column"},
      {"sum --procs 7 --latency 5 --overhead 2 --gap 4 --operands 82", 7, 1, "16 ops"},
      {"sum --procs 500 --lambda 3 --operands 5000", 32, 1, "showing processors 0-31 of 500"},
      {"reduce --procs 9 --latency 3 --overhead 1 --gap 2 --root 4", 9, 1, "Reduction tree"},
      {"reduce --procs 9 --lambda 5/2 --commutative", 9, 1, "done "},
      {"allreduce --procs 12 --latency 6 --overhead 2 --gap 4", 12, 1, "Activity"},
      {"allreduce --procs 6 --lambda 2 --ordered", 6, 1, "Activity"},
      {"alltoall --procs 6 --latency 6 --overhead 2 --gap 4 --items 2", 6, 1, "Activity"},
      {"alltoall --procs 5 --lambda 3/2 --personalized", 5, 1, "Activity"},
      {"kbcast --lambda 5/2 --procs 8 --items 4", 8, 1, "Reception table"},
      {"kbcast --lambda 5/2 --procs 10 --items 5 --algorithm pack", 10, 1, "0-4<"},
      {"kbcast --lambda 2 --procs 12 --items 3 --algorithm dtree --degree 3", 12, 1, "p0 (source)"},
      {"kbcast --lambda 3 --procs 200 --items 50 --algorithm repeat", 32, 1,
       "showing steps 0-47 of 0-"},
      {"kbcast --lambda 5/2 --procs 200 --items 50 --algorithm repeat", 32, 1,
       "columns merged"},
      {"cbcast --latency 3 --procs 10 --items 8", 10, 0, "Karp et al.&apos;s form"},
      {"cbcast --latency 4 --procs 1000 --items 100", 32, 0, "showing processors 0-31 of 1000"},
      {"cbcast --latency 1 --procs 1 --items 3", 1, 0, "p0 (source)"},
      {"kbcast --buffered --lambda 3 --procs 14 --items 14", 14, 0, "waited in the buffer"},
      {"cbcast --buffered --latency 2 --procs 40 --items 60", 32, 0, "showing steps 0-47"},
      {"kbcast --model kport --ports 2 --procs 9 --items 6", 9, 0, ">round<"},
      {"kbcast --model kport --ports 3 --procs 100 --items 40 --algorithm ktree", 32, 0,
       "showing processors 0-31 of 100"},
      {"bcast --model kport --ports 1 --procs 5", 5, 0, "p0 (source)"},
      {"kbcast --model kport --ports 2 --procs 27 --items 90 --algorithm rotation", 27, 0,
       "columns merged: each covers 2 rounds"},
  };
  make_dir();
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *svg = draw(cases[i].args, "out.svg");
    check_labels(svg, cases[i].labels);
    if (cases[i].legend) check_legend(svg);
    else if (!HAS(cases[i].args, "cbcast") && !HAS(cases[i].args, "--buffered"))
      CHECK(!HAS(svg, "legend:"));
    if (!HAS(svg, cases[i].note))
      test_failf(__FILE__, __LINE__, "draw %s: no '%s'", cases[i].args, cases[i].note);
    if (HAS(svg, "breadth-first") && !HAS(svg, "Reception table")) { /* a cut tree: < 1300 px */
      const char *wd = strstr(svg, " width=\"");
      if (wd == NULL || atof(wd + 8) > 1300)
        test_failf(__FILE__, __LINE__, "draw %s: %.40s", cases[i].args, wd ? wd : "no width");
    }
    CHECK(HAS(svg, "checked by the verifier: valid"));
    CHECK_EQ(dir_entries(), 1); /* no temporary file left */
    free(svg);
  }
  remove_dir();
}

/* --format svg writes the same document to stdout; -- the file is replaced
 * whole */
void test_draw_stdout_and_replace(void) {
  char *svg, path[256];
  make_dir();
  svg = draw("bcast --procs 8 --latency 6 --overhead 2 --gap 4", "a.svg");
  {
    const char *a[] = {"draw", "bcast", "--procs", "8", "--latency", "6", "--overhead",
                       "2", "--gap", "4", "--format", "svg", NULL};
    run_optcast(&R, NULL, a);
  }
  CHECK_EQ(R.code, 0);
  CHECK(strcmp(R.out, svg) == 0);
  CHECK(R.err[0] == '\0');
  free(svg);
  svg = draw("bcast --procs 9 --latency 6 --overhead 2 --gap 4", "a.svg"); /* replaces */
  CHECK(HAS(svg, "P=9"));
  CHECK_EQ(dir_entries(), 1);
  free(svg);
  snprintf(path, sizeof path, "%s/a.svg", dir);
  {
    const char *a[] = {"draw", "bcast", "--procs", "8", "--latency", "6", "--overhead",
                       "2", "--gap", "4", "--svg", path, "--format", "svg", NULL};
    run_optcast(&R, NULL, a);
  }
  CHECK_EQ(R.code, 0);
  CHECK(R.out[0] == '\0');
  svg = read_file(path, NULL);
  CHECK(svg != NULL && HAS(svg, "P=8"));
  free(svg);
  remove_dir();
}

/* bad input: exit 2, one stderr line naming the parameter, empty stdout,
 * no file */
/* "CMD bcast ... OPT dir/no/such/dir.EXT": exit 2 naming OPT and the path,
 * no file left */
static void expect_unwritable(const char *cmd, const char *opt, const char *ext) {
  char path[256], want[64];
  const char *a[] = {cmd, "bcast", "--procs", "4", "--lambda", "2", opt, path, NULL};
  snprintf(path, sizeof path, "%s/no/such/dir.%s", dir, ext);
  snprintf(want, sizeof want, "no/such/dir.%s", ext);
  run_optcast(&R, NULL, a);
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, opt) && HAS(R.err, want));
  CHECK_EQ(dir_entries(), 0);
}

/* bad command lines: exit 2, one stderr line naming cases[i].names, empty
 * stdout, no file in dir ("F" in args stands for path) */
typedef struct errcase {
  const char *args[16];
  const char *names;
} errcase;

static void expect_errors(const errcase *cases, size_t ncases, const char *path) {
  for (size_t i = 0; i < ncases; i++) {
    const char *a[20];
    size_t n = 0;
    for (; cases[i].args[n]; n++) a[n] = strcmp(cases[i].args[n], "F") ? cases[i].args[n] : path;
    a[n] = NULL;
    run_optcast(&R, NULL, a);
    if (R.code != 2 || !HAS(R.err, cases[i].names))
      test_failf(__FILE__, __LINE__, "case %zu: exit %d, stderr '%s'", i, R.code, R.err);
    CHECK(R.out[0] == '\0');
    CHECK(strchr(R.err, '\n') == R.err + strlen(R.err) - 1); /* one line */
    CHECK_EQ(dir_entries(), 0);
  }
}

void test_draw_errors(void) {
  static const errcase cases[] = {
      {{"draw", "bcast", "--procs", "8", "--latency", "6", "--overhead", "2", "--gap", "4",
        "--json", "--svg", "F"}, "--json"},
      {{"draw", "bcast", "--procs", "8", "--latency", "6", "--overhead", "2", "--gap", "4",
        "--csv", "--format", "svg"}, "--csv"},
      {{"draw", "bcast", "--procs", "8", "--latency", "6", "--overhead", "2", "--gap", "4",
        "--format", "png"}, "--format"},
      {{"draw", "bcast", "--procs", "8", "--latency", "6", "--overhead", "2", "--gap", "4"},
       "--svg"},
      {{"plan", "bcast", "--procs", "8", "--latency", "6", "--overhead", "2", "--gap", "4",
        "--svg", "F"}, "--svg"},
      {{"bound", "bcast", "--procs", "8", "--latency", "6", "--overhead", "2", "--gap", "4",
        "--format", "svg"}, "--format"},
      {{"draw", "bcast", "--procs", "2000000000", "--latency", "6", "--overhead", "2",
        "--gap", "4", "--svg", "F"}, "--procs"},
      {{"draw", "bcast", "--procs", "8", "--latency", "-1", "--overhead", "2", "--gap", "4",
        "--svg", "F"}, "--latency"},
      {{"draw", "kbcast", "--model", "kport", "--ports", "2", "--procs", "3000",
        "--items", "3000", "--svg", "F"}, "--items"},
      {{"draw", "kbcast", "--model", "kport", "--ports", "0", "--procs", "9", "--svg", "F"},
       "--ports"},
      {{"draw", "scan", "--procs", "8", "--lambda", "2", "--svg", "F"}, "scan"},
      {{"draw", "--procs", "8", "--lambda", "2", "--svg", "F"}, "PROBLEM"},
      {{"draw", "bcast", "--procs", "8", "--lambda", "2", "--svg", "F", "--svg", "G"},
       "--svg"},
  };
  char path[256];
  make_dir();
  snprintf(path, sizeof path, "%s/out.svg", dir);
  expect_errors(cases, sizeof cases / sizeof cases[0], path);
  /* an unwritable destination: a missing directory, a directory */
  expect_unwritable("draw", "--svg", "svg");
  {
    const char *a[] = {"draw", "bcast", "--procs", "4", "--lambda", "2", "--svg", dir, NULL};
    run_optcast(&R, NULL, a);
  }
  CHECK_EQ(R.code, 2);
  CHECK(HAS(R.err, "--svg"));
  CHECK_EQ(dir_entries(), 0);
  remove_dir();
}

/* where tests/golden is: next to the optcast binary's build directory */
static void golden_dir(char *out, size_t n) {
  const char *bin = getenv("OPTCAST_BIN"), *slash = bin ? strrchr(bin, '/') : NULL;
  if (slash == NULL)
    snprintf(out, n, "tests/golden");
  else
    snprintf(out, n, "%.*s/../tests/golden", (int)(slash - bin), bin);
}

/* the paper figures, byte for byte (tests/golden/LIST; `make golden`) */
void test_draw_golden(void) {
  char gdir[512], path[1100], line[512];
  FILE *list;
  int count = 0;
  golden_dir(gdir, sizeof gdir);
  snprintf(path, sizeof path, "%s/LIST", gdir);
  list = fopen(path, "r");
  if (list == NULL) test_failf(__FILE__, __LINE__, "cannot read %s", path);
  make_dir();
  while (list && fgets(line, sizeof line, list)) {
    char *name = line, *args, *want, *got;
    size_t nw, ng;
    line[strcspn(line, "\n")] = '\0';
    if (line[0] == '#' || line[0] == '\0') continue;
    if ((args = strchr(line, ' ')) == NULL) {
      test_failf(__FILE__, __LINE__, "%s: a name without arguments", name);
      continue;
    }
    *args++ = '\0';
    free(draw(args, "g.svg"));
    snprintf(path, sizeof path, "%s/%s.svg", gdir, name);
    want = read_file(path, &nw);
    if (want == NULL) test_failf(__FILE__, __LINE__, "missing %s (make golden)", path);
    snprintf(path, sizeof path, "%s/g.svg", dir);
    got = read_file(path, &ng);
    CHECK(got != NULL);
    if (nw != ng || memcmp(want, got, nw) != 0)
      test_failf(__FILE__, __LINE__, "%s differs from tests/golden/%s.svg (make golden "
                 "regenerates it)", name, name);
    CHECK(xml_check(want) == NULL);
    free(want);
    free(got);
    count++;
  }
  if (list) fclose(list);
  CHECK(count >= 7);
  remove_dir();
}

static int on_path(const char *prog) {
  const char *path = getenv("PATH");
  char buf[1024];
  while (path && *path) {
    size_t n = strcspn(path, ":");
    snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, prog);
    if (n > 0 && access(buf, X_OK) == 0) return 1;
    path += n + (path[n] == ':');
  }
  return 0;
}

/* xmllint --noout on a few drawings, when it is installed */
void test_draw_xmllint(void) {
  static const char *const args[] = {
      "bcast --procs 8 --latency 6 --overhead 2 --gap 4",
      "sum --procs 7 --latency 5 --overhead 2 --gap 4 --operands 82",
      "kbcast --lambda 5/2 --procs 8 --items 4",
      "kbcast --model kport --ports 2 --procs 9 --items 6",
      "alltoall --procs 40 --latency 2 --overhead 1 --gap 3",
  };
  if (!on_path("xmllint")) {
    printf("  (xmllint not installed: draw_xmllint skipped)\n");
    return;
  }
  make_dir();
  for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
    char path[128];
    pid_t pid;
    int st = 0;
    free(draw(args[i], "x.svg"));
    snprintf(path, sizeof path, "%s/x.svg", dir);
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
      execlp("xmllint", "xmllint", "--noout", path, (char *)NULL);
      _exit(127);
    }
    CHECK(waitpid(pid, &st, 0) == pid);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
      test_failf(__FILE__, __LINE__, "xmllint rejects draw %s", args[i]);
  }
  remove_dir();
}

/* occurrences of sub in s */
static size_t count_of(const char *s, const char *sub) {
  size_t n = 0;
  for (const char *p = strstr(s, sub); p != NULL; p = strstr(p + 1, sub)) n++;
  return n;
}

/* Karp et al.'s reception tables (Figs. 2, 4, 5): the marks drawn agree
 * with the schedule `optcast plan --csv` prints: a bold number for each
 * reception of an item its receiver forwards, a square for each item that
 * waited in the buffer, a circle for each item taken while another
 * arrived; the numbers are the items from 1. */
void test_draw_karp_tables(void) {
  static const struct {
    const char *args;
    int64_t L;
  } cases[] = {
      {"kbcast --lambda 3 --procs 10 --items 8", 3},                /* Fig. 2, k items   */
      {"cbcast --latency 3 --procs 10 --items 8", 3},               /* Fig. 2, continuous */
      {"cbcast --latency 5 --procs 12 --items 16", 5},              /* Fig. 4            */
      {"kbcast --buffered --lambda 3 --procs 14 --items 14", 3},    /* Fig. 5            */
      {"cbcast --buffered --latency 4 --procs 20 --items 10", 4},
  };
  make_dir();
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    char buf[256], *argv[24], *svg = draw(cases[c].args, "k.svg");
    int n = 0, buffered = HAS(cases[c].args, "--buffered");
    int64_t (*m)[5] = NULL;
    size_t nm = 0, bold = 0, square = 0, circle = 0;
    snprintf(buf, sizeof buf, "plan %s --csv", cases[c].args);
    for (char *t = strtok(buf, " "); t && n < 22; t = strtok(NULL, " ")) argv[n++] = t;
    argv[n] = NULL;
    run_optcast(&R, NULL, (const char *const *)argv);
    CHECK_EQ(R.code, 0);
    m = calloc(strlen(R.out) / 8 + 1, sizeof *m);
    CHECK(m != NULL);
    for (const char *l = strchr(R.out, '\n'); l != NULL && l[1]; l = strchr(l + 1, '\n')) {
      long long x[5] = {0, 0, 0, 0, -1};
      int k = sscanf(l + 1, "%lld,%lld,%lld,%lld,%lld", &x[0], &x[1], &x[2], &x[3], &x[4]);
      CHECK(k == (buffered ? 5 : 4));
      for (int j = 0; j < 5; j++) m[nm][j] = x[j];
      if (!buffered) m[nm][4] = x[0] + cases[c].L;
      CHECK(m[nm][4] < 48); /* every step is drawn */
      nm++;
    }
    CHECK(nm > 0);
    for (size_t i = 0; i < nm; i++) {
      int fwd = 0, other = 0;
      char cell[64];
      for (size_t j = 0; j < nm; j++) {
        fwd |= m[j][1] == m[i][2] && m[j][3] == m[i][3];
        other |= j != i && m[j][2] == m[i][2] && m[j][0] + cases[c].L == m[i][4];
      }
      bold += (size_t)fwd;
      square += m[i][4] > m[i][0] + cases[c].L;
      circle += m[i][4] == m[i][0] + cases[c].L && other;
      snprintf(cell, sizeof cell, "%s>%lld</text>", fwd ? " font-weight=\"bold\"" : "\"11\"",
               (long long)m[i][3] + 1);
      if (!HAS(svg, cell)) test_failf(__FILE__, __LINE__, "%s: no cell %s", cases[c].args, cell);
    }
    CHECK(bold > 0);
    CHECK_EQ(count_of(svg, "font-weight=\"bold\""), bold + 1); /* + the legend's */
    CHECK_EQ(count_of(svg, "stroke=\"#c0392b\""), square + (size_t)buffered);
    CHECK_EQ(count_of(svg, "stroke=\"#1f5fa8\""), circle + (size_t)buffered);
    if (HAS(cases[c].args, "--items 14")) CHECK(square > 0 && circle > 0); /* Fig. 5 */
    free(m);
    free(svg);
  }
  remove_dir();
}

/* ---- `optcast report` ---------------------------------------------------------- */
/* "report ARGS --html dir/FILE": exit 0, nothing on stdout, one well-formed
 * page with every section; returns it (caller frees) */
static char *report(const char *args, const char *file) {
  char *page = run_to_file("report", "--html", args, file, xhtml_check,
                           strlen("<!DOCTYPE html>\n"));
  CHECK(strncmp(page, "<!DOCTYPE html>\n<html", 21) == 0);
  CHECK(HAS(page, "<h2>Parameters</h2>") && HAS(page, "<h2>Result</h2>") &&
        HAS(page, "<h2>Pictures</h2>") && HAS(page, "<h2>Schedule</h2>") &&
        HAS(page, "<h2>Reproduce</h2>"));
  CHECK(HAS(page, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
  CHECK(!HAS(page, "<?xml"));      /* the SVG's declaration is left out   */
  CHECK(!HAS(page, "<script"));    /* self-contained, nothing to run       */
  CHECK(!HAS(page, "href="));      /* ... and nothing to fetch             */
  CHECK(HAS(page, "<td>valid</td>"));
  return page;
}

/* the page's reproduce line, run as a command, gives the page's time */
static void check_reproduce(const char *page, const char *want_time) {
  const char *p = strstr(page, "<pre>optcast plan ");
  const char *e = p ? strstr(p, "</pre>") : NULL;
  char line[512], *argv[40];
  size_t len;
  int n = 0;
  if (p == NULL || e == NULL) {
    test_failf(__FILE__, __LINE__, "no reproduce line");
    return;
  }
  p += strlen("<pre>optcast ");
  len = (size_t)(e - p);
  if (len >= sizeof line) {
    test_failf(__FILE__, __LINE__, "reproduce line too long");
    return;
  }
  memcpy(line, p, len);
  line[len] = '\0';
  CHECK(strstr(line, "--html") == NULL && strstr(line, "--format") == NULL);
  for (char *t = strtok(line, " "); t && n < 36; t = strtok(NULL, " ")) argv[n++] = t;
  argv[n++] = "--json";
  argv[n] = NULL;
  run_optcast(&R, NULL, (const char *const *)argv);
  CHECK_EQ(R.code, 0);
  if (!HAS(R.out, want_time))
    test_failf(__FILE__, __LINE__, "reproduce: '%s' not in %s", want_time, R.out);
}

void test_report_pages(void) {
  char *page;
  make_dir();
  /* Karp et al. Fig. 1: optimal, 7 messages, the tree and the chart inline */
  page = report("bcast --procs 8 --latency 6 --overhead 2 --gap 4", "fig1.html");
  CHECK(HAS(page, "time 24, lower bound 24: optimal"));
  CHECK(HAS(page, "class=\"ok\""));
  CHECK(HAS(page, "<th>messages</th><td>7</td>"));
  CHECK(HAS(page, "L = 6, o = 2, g = 4"));
  CHECK(HAS(page, ">p7<"));
  check_reproduce(page, "\"time\":24,");
  /* next to the MPI libraries' algorithms: optcast's optimal tree is the best row */
  CHECK(HAS(page, "<h2>Compared with the MPI libraries' algorithms</h2>"));
  CHECK(HAS(page, "<tr><td>optcast</td><td>karp (optimal)</td><td>24</td><td>1.000</td>"
                  "<td>1.000</td><td>yes</td></tr>"));
  CHECK(HAS(page, "<td>ompi-default</td>") && HAS(page, "<td>mpich-default</td>"));
  CHECK(!HAS(page, "<td>NO</td>"));
  free(page);
  page = report("bcast --preset cm5 --procs 5000", "cm5.html");
  CHECK(HAS(page, "left out for P &gt; 4096"));
  CHECK(HAS(page, "L = 6, o = 2, g = 4"));
  check_reproduce(page, "\"P\":5000");
  free(page);
  /* postal lambda = 5/2, a non-optimal algorithm's verdict is not green */
  page = report("kbcast --lambda 5/2 --procs 8 --items 4 --algorithm repeat", "kb.html");
  CHECK(!HAS(page, "Compared with the MPI")); /* LogP broadcasts and allreduces only */
  CHECK(HAS(page, "<td>5/2</td>"));
  CHECK(HAS(page, "above the lower bound") && HAS(page, "class=\"bad\""));
  CHECK(HAS(page, "reception table") || HAS(page, "Reception"));
  free(page);
  /* sum: additions are counted; large P: the schedule is cut and says so */
  page = report("sum --procs 7 --latency 5 --overhead 2 --gap 4 --operands 82", "sum.html");
  CHECK(HAS(page, "<th>addition steps</th>"));
  CHECK(HAS(page, "<th>operands n</th><td>82</td>"));  /* what determines the result */
  CHECK(!HAS(page, "<th>items</th>"));                  /* ... and nothing that does not */
  free(page);
  /* allreduce: next to the libraries' allreduce algorithms (Open MPI's pick for 16 bytes
   * at P = 16 is the ring, which runs recursive doubling); the ordered one is not */
  page = report("allreduce --preset cm5 --procs 16", "ar.html");
  CHECK(HAS(page, "<h2>Compared with the MPI libraries' algorithms</h2>"));
  CHECK(HAS(page, "<code>optcast compare allreduce</code>"));
  CHECK(HAS(page, "<tr><td>optcast</td><td>circulant (Karp Thm 4.1 extended)</td><td>41</td>"));
  CHECK(HAS(page, "<td>picks ring (runs recursive-doubling)</td><td>44</td>"));
  CHECK(!HAS(page, "<td>NO</td>"));
  free(page);
  page = report("allreduce --preset cm5 --procs 16 --ordered", "aro.html");
  CHECK(!HAS(page, "Compared with the MPI"));
  free(page);
  page = report("reduce --procs 9 --lambda 2 --commutative", "red.html");
  CHECK(HAS(page, "<th>operator order</th><td>commutative: cyclic from root + 1</td>"));
  free(page);
  page = report("bcast --procs 1000 --latency 6 --overhead 2 --gap 4 --root 17", "big.html");
  CHECK(HAS(page, "showing the first 200 of 999 messages"));
  { /* the listed messages are the first 200 in time order */
    const char *x = strstr(page, "<h2>Schedule</h2>");
    long long prev = -1, t, last = -1;
    int rows = 0;
    while (x && (x = strstr(x, "<tr><td>")) != NULL) {
      x += strlen("<tr><td>");
      if (sscanf(x, "%lld", &t) != 1) break;
      CHECK(t >= prev);
      prev = t;
      last = t;
      rows++;
    }
    CHECK_EQ(rows, 200);
    { /* ... the same as the 200th row of `plan --csv` (sorted by time) */
      const char *a[] = {"plan", "bcast", "--procs", "1000", "--latency", "6", "--overhead",
                         "2", "--gap", "4", "--root", "17", "--csv", NULL};
      const char *y;
      long long t200 = -2;
      int k = 0;
      run_optcast(&R, NULL, a);
      CHECK_EQ(R.code, 0);
      for (y = strchr(R.out, '\n'); y && k < 200; y = strchr(y + 1, '\n'))
        if (++k == 200) CHECK(sscanf(y + 1, "%lld", &t200) == 1);
      CHECK_EQ(t200, last);
    }
  }
  CHECK(HAS(page, "<th>root</th><td>17</td>"));
  check_reproduce(page, "\"root\":17");
  free(page);
  /* k-port: rounds, the reception table */
  page = report("kbcast --model kport --ports 2 --procs 9 --items 6", "kp.html");
  CHECK(HAS(page, "<th>round</th>") && HAS(page, "<th>ports k</th><td>2</td>"));
  CHECK(HAS(page, "5 rounds, lower bound 5 rounds: optimal"));
  check_reproduce(page, "\"time\":5,");
  free(page);
  /* Karp et al.'s continuous and buffered schedules */
  page = report("cbcast --latency 3 --procs 10 --items 8", "cb.html");
  CHECK(HAS(page, "delay 10, lower bound 10: optimal") && HAS(page, "Karp et al."));
  check_reproduce(page, "\"time\":10,");
  free(page);
  page = report("kbcast --buffered --lambda 3 --procs 14 --items 14", "bf.html");
  CHECK(HAS(page, "time 24, lower bound 24: optimal") && HAS(page, "waited in the buffer"));
  check_reproduce(page, "\"time\":24,");
  free(page);
  CHECK_EQ(dir_entries(), 11); /* the pages, no temporary left */
  remove_dir();
}

void test_report_errors(void) {
  static const errcase cases[] = {
      {{"report", "bcast", "--procs", "8", "--lambda", "2"}, "--html"},
      {{"report", "bcast", "--procs", "8", "--lambda", "2", "--json", "--html", "F"}, "--json"},
      {{"report", "bcast", "--procs", "8", "--lambda", "2", "--format", "svg"}, "--format"},
      {{"report", "bcast", "--procs", "8", "--lambda", "2", "--svg", "F"}, "--svg"},
      {{"draw", "bcast", "--procs", "8", "--lambda", "2", "--html", "F"}, "--html"},
      {{"plan", "bcast", "--procs", "8", "--lambda", "2", "--html", "F"}, "--html"},
      {{"report", "bcast", "--procs", "0", "--lambda", "2", "--html", "F"}, "--procs"},
      {{"report", "kbcast", "--model", "kport", "--ports", "2", "--procs", "3000",
        "--items", "3000", "--html", "F"}, "--items"},
      {{"report", "--procs", "8", "--lambda", "2", "--html", "F"}, "PROBLEM"},
  };
  char path[256];
  make_dir();
  snprintf(path, sizeof path, "%s/out.html", dir);
  expect_errors(cases, sizeof cases / sizeof cases[0], path);
  expect_unwritable("report", "--html", "html");
  /* --format html writes the same page to standard output */
  {
    const char *a[] = {"report", "bcast", "--procs", "5", "--lambda", "3/2", "--format",
                       "html", NULL};
    run_optcast(&R, NULL, a);
  }
  CHECK_EQ(R.code, 0);
  CHECK(strncmp(R.out, "<!DOCTYPE html>", 15) == 0 && HAS(R.out, "</html>\n"));
  CHECK(xhtml_check(R.out + strlen("<!DOCTYPE html>\n")) == NULL);
  remove_dir();
}

/* what a fresh-eyes review of draw/report found (each failed before the fix) */
void test_draw_review_regressions(void) {
  char path[512], target[512], name[300], *svg;
  const char *x;
  struct stat st;
  make_dir();
  /* a symbolic link keeps being a link; its target gets the drawing */
  snprintf(target, sizeof target, "%s/target.svg", dir);
  snprintf(path, sizeof path, "%s/link.svg", dir);
  {
    FILE *f = fopen(target, "w");
    if (f == NULL) {
      test_failf(__FILE__, __LINE__, "cannot create %s", target);
      return;
    }
    fputs("old\n", f);
    fclose(f);
  }
  CHECK(symlink("target.svg", path) == 0);
  svg = draw("bcast --procs 8 --lambda 2", "link.svg");
  free(svg);
  CHECK(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
  svg = read_file(target, NULL);
  CHECK(svg != NULL && strncmp(svg, "<?xml", 5) == 0);
  free(svg);
  /* a file name near NAME_MAX: the temporary file's name is short */
  memset(name, 'a', 250);
  memcpy(name + 250, ".svg", 5);
  svg = draw("bcast --procs 4 --lambda 2", name);
  free(svg);
  /* sum with idle processors: the whole tree is drawn, the idle ones said */
  svg = draw("sum --procs 20 --operands 5 --lambda 2", "idle.svg");
  CHECK(!HAS(svg, "showing the first"));
  CHECK(HAS(svg, "of the 20 processors take no part"));
  free(svg);
  /* postal, o = 0: a send fills its whole time unit whatever lambda's
   * denominator, so no gap waiting appears between back-to-back sends */
  svg = draw("bcast --procs 8 --lambda 5/2", "half.svg");
  CHECK(!HAS(svg, "fill=\"#f2c14e\"/>")); /* no amber cell (the legend's has a stroke) */
  free(svg);
  /* labels of non-terminating times are rounded, not 17 digits */
  svg = draw("kbcast --lambda 7/3 --procs 9 --items 5 --algorithm repeat", "third.svg");
  CHECK(HAS(svg, "~2.333"));
  x = strstr(svg, "2.3333333"); /* only in the title, next to "(=7/3)" */
  CHECK(x != NULL && strstr(x + 1, "2.3333333") == NULL && HAS(svg, "(=7/3)"));
  free(svg);
  remove_dir();
}

/* `optcast compare --svg`'s line chart and the chart of the whole sweep of
 * the docs (P = 8..4096) are well-formed SVG too */
void test_compare_svg_wellformed(void) {
  static const char *const sweeps[] = {"procs=8..4096", "procs=2..3", "procs=5..50:9"};
  char path[256], *svg;
  const char *why;
  make_dir();
  snprintf(path, sizeof path, "%s/chart.svg", dir);
  for (size_t i = 0; i < sizeof sweeps / sizeof sweeps[0]; i++) {
    const char *a[] = {"compare", "bcast", "--preset", "cm5", "--sweep", sweeps[i],
                       "--svg", path, "--csv", NULL};
    run_optcast(&R, NULL, a);
    if (R.code != 0) test_failf(__FILE__, __LINE__, "%s: exit %d: %s", sweeps[i], R.code, R.err);
    svg = read_file(path, NULL);
    why = svg ? xml_check(svg) : "no file written";
    if (why) test_failf(__FILE__, __LINE__, "%s: not well-formed: %s", sweeps[i], why);
    CHECK(HAS(svg, ">optcast</text>") && HAS(svg, ">ompi-default</text>"));
    CHECK(!HAS(svg, "nan") && !HAS(svg, "inf"));
    free(svg);
    CHECK_EQ(dir_entries(), 1);
  }
  remove_dir();
}
