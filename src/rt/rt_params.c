/* rt_params.c - machine parameters (PLogP style, per message size) and
 * their conversion into the LogP model's integer units.
 *
 * File format (optcast_rt.h): '#' comments, `transport NAME`, `procs N`,
 * `combine_ns X` (optional: a combination's cost per byte, ns), then rows `bytes L os or g` (microseconds), sizes strictly ascending.
 * Between rows the values are interpolated linearly in the size; beyond
 * the last row they are extrapolated from the last two rows (so a
 * per-byte cost measured up to 4 MiB carries on), never below the last
 * row's value. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "core/oc_core.h"
#include "optcast_rt.h"

/* Defaults: a shared-memory node of today, roughly what `optcast measure`
 * reports for the threads transport on an AMD EPYC (docs/RUNTIME.md):
 * about 0.5 us to hand a message over, 0.2-0.3 us of overhead each side,
 * and a copy bandwidth of about 5 GB/s once messages are large. */
void oc_rtparams_default(oc_rtparams *p) {
  static const int64_t b[] = {8, 65536, 4194304};
  memset(p, 0, sizeof *p);
  p->nrows = 3;
  for (int i = 0; i < 3; i++) {
    double kb = (double)b[i] / 1000.0;
    p->bytes[i] = b[i];
    p->L[i] = 0.5 + 0.05 * kb;
    p->os[i] = 0.25 + 0.1 * kb;
    p->orv[i] = 0.2 + 0.1 * kb;
    p->g[i] = 0.3 + 0.2 * kb;
  }
  snprintf(p->transport, sizeof p->transport, "%s", "default");
}

static int parse_row(char *s, oc_rtparams *p) {
  char *end;
  long long b;
  double v[4];
  int i = p->nrows;
  errno = 0;
  b = strtoll(s, &end, 10);
  if (end == s || errno != 0) return OC_EPARSE;
  for (int k = 0; k < 4; k++) {
    char *q = end;
    v[k] = strtod(q, &end);
    if (end == q) return OC_EPARSE;
  }
  while (*end == ' ' || *end == '\t' || *end == '\r') end++;
  if (*end != '\0') return OC_EPARSE;
  if (b < 1) return OC_ERANGE;
  for (int k = 0; k < 4; k++)
    if (!isfinite(v[k]) || v[k] < 0 || v[k] > 1e9) return OC_ERANGE;
  if (i >= OC_RTPARAMS_ROWS_MAX) return OC_ERANGE;
  if (i > 0 && b <= p->bytes[i - 1]) return OC_ERANGE;
  p->bytes[i] = b;
  p->L[i] = v[0];
  p->os[i] = v[1];
  p->orv[i] = v[2];
  p->g[i] = v[3];
  p->nrows++;
  return OC_OK;
}

/* one line (NUL-terminated, no newline) */
static int parse_line(char *s, oc_rtparams *p) {
  while (*s == ' ' || *s == '\t') s++;
  if (*s == '#' || *s == '\0' || *s == '\r') return OC_OK;
  if (strncmp(s, "transport ", 10) == 0) {
    char *v = s + 10;
    size_t n = strcspn(v, " \t\r");
    if (n == 0 || n >= sizeof p->transport) return OC_EPARSE;
    memcpy(p->transport, v, n);
    p->transport[n] = '\0';
    return OC_OK;
  }
  if (strncmp(s, "combine_ns ", 11) == 0) {
    char *end;
    double v = strtod(s + 11, &end);
    while (*end == ' ' || *end == '\t' || *end == '\r') end++;
    if (end == s + 11 || *end != '\0') return OC_EPARSE;
    if (!isfinite(v) || v < 0 || v > 1000) return OC_ERANGE;
    p->combine_ns = v;
    return OC_OK;
  }
  if (strncmp(s, "procs ", 6) == 0) {
    char *cr = strchr(s, '\r');
    if (cr != NULL && cr[1] == '\0') *cr = '\0';
    return oc_parse_int(s + 6, 1, OC_PROCS_MAX, &p->procs);
  }
  return parse_row(s, p);
}

int oc_rtparams_parse(const char *text, size_t len, oc_rtparams *p, int *line) {
  char buf[512];
  size_t i = 0;
  int e = OC_OK, ln = 0;
  if (line != NULL) *line = 0;
  memset(p, 0, sizeof *p);
  while (e == OC_OK && i < len) {
    size_t j = i, n;
    while (j < len && text[j] != '\n') j++;
    n = j - i;
    ln++;
    if (n >= sizeof buf || memchr(text + i, '\0', n) != NULL) {
      e = OC_EPARSE; /* too long, or a NUL byte */
      break;
    }
    memcpy(buf, text + i, n);
    buf[n] = '\0';
    e = parse_line(buf, p);
    i = j + 1;
  }
  if (e == OC_OK && p->nrows == 0) {
    e = OC_EPARSE; /* no rows at all */
    ln = 0;
  }
  if (e != OC_OK && line != NULL) *line = ln;
  return e;
}

#define RTPARAMS_FILE_MAX (1 << 20)

int oc_rtparams_read(const char *path, oc_rtparams *p, int *line) {
  FILE *f;
  char *text;
  size_t n;
  int e;
  if (line != NULL) *line = 0;
  memset(p, 0, sizeof *p);
  f = fopen(path, "rb");
  if (f == NULL) return OC_EIO;
  text = (char *)malloc(RTPARAMS_FILE_MAX + 1);
  if (text == NULL) {
    fclose(f);
    return OC_ENOMEM;
  }
  n = fread(text, 1, RTPARAMS_FILE_MAX + 1, f);
  e = ferror(f) ? OC_EIO : n > RTPARAMS_FILE_MAX ? OC_ERANGE : OC_OK;
  fclose(f);
  if (e == OC_OK) e = oc_rtparams_parse(text, n, p, line);
  free(text);
  return e;
}

static int write_rows(FILE *f, const oc_rtparams *p) {
  fprintf(f, "# optcast parameters v1 (PLogP: microseconds per message size)\n");
  fprintf(f, "transport %s\n", p->transport[0] ? p->transport : "unknown");
  if (p->procs > 0) fprintf(f, "procs %lld\n", (long long)p->procs);
  if (p->combine_ns > 0) fprintf(f, "combine_ns %.4f\n", p->combine_ns);
  fprintf(f, "# bytes L_us os_us or_us g_us\n");
  for (int i = 0; i < p->nrows; i++)
    fprintf(f, "%lld %.4f %.4f %.4f %.4f\n", (long long)p->bytes[i], p->L[i], p->os[i],
            p->orv[i], p->g[i]);
  return (fflush(f) != 0 || ferror(f)) ? OC_EIO : OC_OK;
}

/* A file is written whole or not at all: into a temporary file next to it,
 * then renamed over it. */
int oc_rtparams_write(const char *path, const oc_rtparams *p) {
  char tmp[4096];
  FILE *f;
  int fd, e;
  if (p->nrows < 1 || p->nrows > OC_RTPARAMS_ROWS_MAX) return OC_EINVAL;
  if (path == NULL || strcmp(path, "-") == 0) return write_rows(stdout, p);
  if ((size_t)snprintf(tmp, sizeof tmp, "%s.XXXXXX", path) >= sizeof tmp) return OC_EIO;
  fd = mkstemp(tmp);
  if (fd < 0) return OC_EIO;
  (void)fchmod(fd, 0644); /* mkstemp's 0600 is for secrets; this is a table */
  f = fdopen(fd, "w");
  if (f == NULL) {
    close(fd);
    unlink(tmp);
    return OC_EIO;
  }
  e = write_rows(f, p);
  if (fclose(f) != 0) e = OC_EIO;
  if (e == OC_OK && rename(tmp, path) != 0) e = OC_EIO;
  if (e != OC_OK) unlink(tmp);
  return e;
}

static double interp(const oc_rtparams *p, const double *v, int64_t bytes) {
  int n = p->nrows, i;
  double x = (double)bytes, x0, x1, y;
  if (n <= 0) return 0;
  if (n == 1 || bytes <= p->bytes[0]) return v[0];
  for (i = 1; i < n - 1 && p->bytes[i] < bytes; i++) {
  }
  x0 = (double)p->bytes[i - 1];
  x1 = (double)p->bytes[i];
  y = v[i - 1] + (v[i] - v[i - 1]) * (x - x0) / (x1 - x0);
  if (bytes > p->bytes[n - 1] && y < v[n - 1]) y = v[n - 1];
  return y < 0 ? 0 : y;
}

void oc_rtparams_at(const oc_rtparams *p, int64_t bytes, double *L, double *os,
                    double *orv, double *g) {
  if (L != NULL) *L = interp(p, p->L, bytes);
  if (os != NULL) *os = interp(p, p->os, bytes);
  if (orv != NULL) *orv = interp(p, p->orv, bytes);
  if (g != NULL) *g = interp(p, p->g, bytes);
}

static int64_t to_units(double us, double unit_ns, int64_t least) {
  double u = ceil(us * 1000.0 / unit_ns - 1e-9);
  if (!(u >= (double)least)) return least;
  if (u > (double)OC_PARAM_MAX) return OC_PARAM_MAX;
  return (int64_t)u;
}

int oc_rtparams_model(const oc_rtparams *p, int64_t bytes, int64_t P,
                      double unit_ns, oc_params *out) {
  double L, os, orv, g, o;
  int64_t Lu, ou, gu;
  if (p == NULL || p->nrows < 1 || bytes < 0 || !(unit_ns > 0) ||
      !isfinite(unit_ns))
    return OC_EINVAL;
  oc_rtparams_at(p, bytes, &L, &os, &orv, &g);
  /* o: the mean of the two overheads, at most g / 2.  Where o_s + o_r
   * exceeds g both overheads contain the transfer (a rendezvous whose copy
   * sender and receiver both wait for: Open MPI's shared memory from 32 KiB,
   * SMPI's long messages) and adding them would count it twice; the
   * stream's period g bounds what a message keeps the sender busy.  L:
   * the rest of the measured one-way time RTT/2 = L + g (PLogP), so that
   * LogP's L + 2o is what one message takes */
  o = (os + orv) / 2;
  if (2 * o > g) o = g / 2;
  Lu = to_units(L + g - 2 * o, unit_ns, 0);
  ou = to_units(o, unit_ns, 0);
  gu = to_units(g, unit_ns, 1);
  /* o <= g / 2 in the model's units too: rounded up apart, 2o could pass
   * g by a unit, and a relay that must spend 2o on each packet while they
   * arrive g apart cannot forward between receptions - the planner's
   * pipelines then receive the whole stream before passing any of it on,
   * and their price doubles (eth, 8 KiB: g 6.15 us, o 3.07: 615 and 308
   * units; a chain of 3 ranks priced at 6384 us, simulated 3499) */
  if (2 * ou > gu) ou = gu / 2;
  if (Lu + 2 * ou < 1) Lu = 1;
  return oc_params_logp(out, P, Lu, ou, gu);
}
