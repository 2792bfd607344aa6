/* test_docs.c - the docs against the tree: README.md's "Layout" table names
 * every folder under src/ and every .c/.h file under src/ and include/, and
 * everything it names exists. Run from the repository root.
 *
 * The table's rows read "| `folder/` | `file`, `file`, `sub/`, ... | text |":
 * the first cell is a folder (a path ending in '/'), the second the names in
 * it (files, or subfolders ending in '/'). The third cell is free text and is
 * not checked. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test.h"

#define DOCS_MAX_NAMES 1024
#define DOCS_PATH_MAX 512

/* every path the Layout section names: folders ("src/core/") and folder +
 * name ("src/core/oc_num.c", "tests/mpi/") */
typedef struct layout {
  char *path[DOCS_MAX_NAMES];
  int n;
  int problems;
} layout;

static void problem(layout *ly, const char *fmt, const char *what) {
  fprintf(stderr, "  docs_layout: ");
  fprintf(stderr, fmt, what);
  fputc('\n', stderr);
  ly->problems++;
}

static char *read_all(const char *file) {
  FILE *f = fopen(file, "rb");
  if (f == NULL) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (buf == NULL) break;
    if (n + 4096 + 1 > cap) {
      char *nb = realloc(buf, cap * 2);
      if (nb == NULL) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
      cap *= 2;
    }
    size_t k = fread(buf + n, 1, 4096, f);
    n += k;
    if (k == 0) break;
  }
  fclose(f);
  if (buf != NULL) buf[n] = '\0';
  return buf;
}

static void add_path(layout *ly, const char *folder, const char *name,
                     size_t len) {
  char p[DOCS_PATH_MAX];
  size_t fl = strlen(folder);
  if (fl + len + 1 > sizeof p || ly->n >= DOCS_MAX_NAMES) {
    problem(ly, "%s: a name too long or too many names", folder);
    return;
  }
  memcpy(p, folder, fl);
  memcpy(p + fl, name, len);
  p[fl + len] = '\0';
  ly->path[ly->n] = malloc(fl + len + 1);
  if (ly->path[ly->n] == NULL) return;
  memcpy(ly->path[ly->n], p, fl + len + 1);
  ly->n++;
}

static int named(const layout *ly, const char *path) {
  for (int i = 0; i < ly->n; i++)
    if (strcmp(ly->path[i], path) == 0) return 1;
  return 0;
}

/* one table row: the first cell's folder, the second cell's names */
static void parse_row(layout *ly, const char *row, const char *end) {
  const char *c1 = row + 1; /* after the leading '|' */
  const char *bar = memchr(c1, '|', (size_t)(end - c1));
  if (bar == NULL) return;
  const char *q1 = memchr(c1, '`', (size_t)(bar - c1));
  if (q1 == NULL) return; /* the header and the --- line */
  const char *q2 = memchr(q1 + 1, '`', (size_t)(bar - q1 - 1));
  char folder[DOCS_PATH_MAX];
  size_t fl = q2 == NULL ? 0 : (size_t)(q2 - q1 - 1);
  if (q2 == NULL || fl == 0 || fl + 1 > sizeof folder || q1[fl] != '/') {
    problem(ly, "a Layout row whose first cell is not a `folder/`: %.60s", row);
    return;
  }
  memcpy(folder, q1 + 1, fl);
  folder[fl] = '\0';
  add_path(ly, folder, "", 0);
  const char *c2 = bar + 1;
  const char *bar2 = memchr(c2, '|', (size_t)(end - c2));
  if (bar2 == NULL) bar2 = end;
  for (const char *s = c2; s < bar2;) {
    const char *a = memchr(s, '`', (size_t)(bar2 - s));
    if (a == NULL) break;
    const char *b = memchr(a + 1, '`', (size_t)(bar2 - a - 1));
    if (b == NULL) break;
    if (b > a + 1) add_path(ly, folder, a + 1, (size_t)(b - a - 1));
    s = b + 1;
  }
}

/* the rows of the table in the "## Layout" section of README.md */
static void parse_layout(layout *ly, const char *text) {
  const char *sec = strstr(text, "\n## Layout\n");
  if (sec == NULL) {
    problem(ly, "%s", "README.md has no '## Layout' section");
    return;
  }
  sec += 1;
  const char *stop = strstr(sec + 3, "\n## ");
  if (stop == NULL) stop = sec + strlen(sec);
  for (const char *l = sec; l < stop;) {
    const char *e = memchr(l, '\n', (size_t)(stop - l));
    if (e == NULL) e = stop;
    if (*l == '|') parse_row(ly, l, e);
    l = e + 1;
  }
}

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int has_suffix(const char *s, const char *suf) {
  size_t n = strlen(s), k = strlen(suf);
  return n >= k && strcmp(s + n - k, suf) == 0;
}

/* every folder below dir (dir itself too when with_self) and every .c/.h
 * file in any of them must be named */
static void walk(layout *ly, const char *dir, int with_self) {
  char p[DOCS_PATH_MAX];
  if (with_self && !named(ly, dir))
    problem(ly, "folder %s is not in README.md's Layout", dir);
  DIR *d = opendir(dir);
  if (d == NULL) {
    problem(ly, "cannot open %s", dir);
    return;
  }
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    int len = snprintf(p, sizeof p, "%s%s", dir, e->d_name);
    if (len < 0 || (size_t)len + 2 > sizeof p) continue;
    if (is_dir(p)) {
      p[len] = '/';
      p[len + 1] = '\0';
      walk(ly, p, 1);
    } else if (has_suffix(p, ".c") || has_suffix(p, ".h")) {
      if (!named(ly, p))
        problem(ly, "%s is not in README.md's Layout", p);
    }
  }
  closedir(d);
}

void test_docs_layout(void) {
  layout ly;
  memset(&ly, 0, sizeof ly);
  char *text = read_all("README.md");
  if (text == NULL) {
    test_failf(__FILE__, __LINE__, "cannot read README.md (run from the root)");
    return;
  }
  parse_layout(&ly, text);
  free(text);
  CHECK(ly.n > 0);
  /* (b) everything named exists: folders as folders, files as files */
  for (int i = 0; i < ly.n; i++) {
    const char *p = ly.path[i];
    if (has_suffix(p, "/") ? !is_dir(p) : !is_file(p))
      problem(&ly, "README.md's Layout names %s, which does not exist", p);
  }
  /* (a) the sources: every folder under src/, every .c/.h file under src/
   * and include/ */
  walk(&ly, "src/", 0);
  walk(&ly, "include/", 0);
  int problems = ly.problems;
  for (int i = 0; i < ly.n; i++) free(ly.path[i]);
  if (problems > 0)
    test_failf(__FILE__, __LINE__,
               "%d mismatch(es) between README.md's Layout and the tree "
               "(listed above)",
               problems);
}
