/* cli_svg.c - the few SVG primitives `optcast draw` needs, XML escaping,
 * and writing a finished document to a file atomically.
 *
 * Coordinates are doubles printed with one decimal ("%.1f"), so the same
 * schedule always gives the same bytes (the golden tests compare them).
 * Nothing here knows about schedules; cli_draw.c composes the pictures. */
#define _XOPEN_SOURCE 700 /* realpath; NOLINT(cert-dcl37-c,cert-dcl51-cpp) */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

void cli_svg_escape(FILE *f, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&apos;", f); break;
    default:
      /* control characters are not allowed in XML 1.0 text */
      if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
        fputc('?', f);
      else
        fputc(*s, f);
    }
  }
}

void cli_svg_rect(FILE *f, double x, double y, double w, double h,
                  const char *fill, const char *stroke) {
  fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"",
          x, y, w, h, fill);
  if (stroke != NULL) fprintf(f, " stroke=\"%s\" stroke-width=\"0.5\"", stroke);
  fputs("/>\n", f);
}

void cli_svg_line(FILE *f, double x1, double y1, double x2, double y2,
                  const char *stroke) {
  fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
          x1, y1, x2, y2, stroke);
}

void cli_svg_circle(FILE *f, double cx, double cy, double r, const char *fill,
                    const char *stroke) {
  fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"%s\"/>\n",
          cx, cy, r, fill, stroke);
}

/* anchor: "start", "middle" or "end"; size in px */
void cli_svg_text(FILE *f, double x, double y, const char *anchor, int size,
                  const char *text) {
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">", x,
          y, anchor, size);
  cli_svg_escape(f, text);
  fputs("</text>\n", f);
}

void cli_svg_begin(FILE *f, double w, double h) {
  fprintf(f,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
          "width=\"%.1f\" height=\"%.1f\" viewBox=\"0 0 %.1f %.1f\" "
          "font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\" "
          "font-size=\"12\" fill=\"#000000\">\n",
          w, h, w, h);
  cli_svg_rect(f, 0, 0, w, h, "#ffffff", NULL);
}

void cli_svg_end(FILE *f) { fputs("</svg>\n", f); }

static int fail_msg(char *err, size_t errlen, const char *what, const char *path,
                    int e) {
  snprintf(err, errlen, "%s '%s': %s", what, path, strerror(e));
  return OC_EIO;
}

static int write_all(int fd, const char *data, size_t n) {
  size_t off = 0;
  while (off < n) {
    ssize_t k = write(fd, data + off, n - off);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return errno ? errno : EIO;
    off += (size_t)k;
  }
  return 0;
}

/* Writes data to path.  A regular file (or a new one) is replaced
 * atomically: the data goes to a temporary file .optcast-XXXXXX in the same
 * directory, which is then renamed over it, so a reader sees the old file
 * or the whole new one and on any error nothing is left behind.  A symbolic
 * link to a regular file keeps the link and replaces its target the same
 * way.  Anything else that exists (a device such as /dev/null or
 * /dev/stdout, a pipe) is written in place. */
int cli_svg_write_file(const char *path, const char *data, size_t n, char *err,
                       size_t errlen) {
  struct stat st;
  const char *target = path, *slash;
  char *real = NULL, *tmp;
  size_t dirlen;
  mode_t mask;
  int fd, e;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) return fail_msg(err, errlen, "cannot write", path, EISDIR);
    fd = open(path, O_WRONLY | O_TRUNC);
    if (fd < 0) return fail_msg(err, errlen, "cannot write", path, errno);
    e = write_all(fd, data, n);
    if (close(fd) != 0 && e == 0) e = errno;
    return e ? fail_msg(err, errlen, "cannot write", path, e) : OC_OK;
  }
  if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
    real = realpath(path, NULL); /* the link's regular target */
    if (real == NULL) return fail_msg(err, errlen, "cannot write", path, errno);
    target = real;
  }
  slash = strrchr(target, '/');
  dirlen = slash ? (size_t)(slash - target) + 1 : 0;
  tmp = (char *)malloc(dirlen + sizeof ".optcast-XXXXXX");
  if (tmp == NULL) {
    free(real);
    snprintf(err, errlen, "out of memory");
    return OC_ENOMEM;
  }
  memcpy(tmp, target, dirlen);
  memcpy(tmp + dirlen, ".optcast-XXXXXX", sizeof ".optcast-XXXXXX");
  fd = mkstemp(tmp);
  if (fd < 0) {
    e = errno;
    free(tmp);
    free(real);
    return fail_msg(err, errlen, "cannot create a file next to", path, e);
  }
  mask = umask(0);
  umask(mask);
  e = write_all(fd, data, n);
  if (e == 0 && fchmod(fd, (mode_t)(0666 & ~mask)) != 0) e = errno;
  if (close(fd) != 0 && e == 0) e = errno;
  if (e == 0 && rename(tmp, target) != 0) e = errno;
  if (e != 0) unlink(tmp);
  free(tmp);
  free(real);
  return e ? fail_msg(err, errlen, "cannot write", path, e) : OC_OK;
}
