/* cli_report.c - `optcast report`: one self-contained HTML page for a
 * verified schedule: the parameters, the result against the lower bound,
 * the pictures of `optcast draw` (inline SVG), the first messages of the
 * schedule and the command that reproduces it.
 *
 * The page is well-formed XML as well as HTML5 (every element closed,
 * attributes quoted, text escaped), so the tests check it with the same
 * well-formedness checker as the SVGs.  No scripts, no external files: it
 * can be mailed or attached to a ticket as it is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The inline SVG without its XML declaration (not allowed mid-document). */
static void put_svg(FILE *f, const char *svg, size_t n) {
  const char *start = svg;
  if (n >= 5 && strncmp(svg, "<?xml", 5) == 0) {
    const char *e = memchr(svg, '\n', n);
    if (e != NULL) start = e + 1;
  }
  fwrite(start, 1, n - (size_t)(start - svg), f);
}

static void put_rows(FILE *f, const cli_report_kv *kv, size_t n) {
  fputs("<table class=\"kv\">\n", f);
  for (size_t i = 0; i < n; i++) {
    fputs("<tr><th>", f);
    cli_svg_escape(f, kv[i].key);
    fputs("</th><td>", f);
    cli_svg_escape(f, kv[i].value);
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
}

static void put_schedule(FILE *f, const cli_report_in *in) {
  const oc_sched *s = in->s;
  size_t shown = s->n < in->max_rows ? s->n : in->max_rows;
  char b[64];
  fputs("<h2>Schedule</h2>\n", f);
  if (shown < s->n)
    fprintf(f, "<p class=\"note\">showing the first %zu of %zu messages "
               "(all of them: <code>--csv</code> of the command below)</p>\n",
            shown, s->n);
  fprintf(f, "<table class=\"sched\">\n<tr><th>%s</th><th>from</th><th>to</th>"
             "<th>item</th>%s</tr>\n",
          in->rounds ? "round" : "send start", s->len ? "<th>packets</th>" : "");
  for (size_t i = 0; i < shown; i++) {
    const oc_msg *m = &s->msg[i];
    if (in->rounds)
      snprintf(b, sizeof b, "%lld", (long long)m->t);
    else
      oc_format_time(b, sizeof b, m->t, in->unit);
    fprintf(f, "<tr><td>%s</td><td>%lld</td><td>%lld</td><td>%lld</td>", b,
            (long long)m->src, (long long)m->dst, (long long)m->item);
    if (s->len) fprintf(f, "<td>%lld</td>", (long long)s->len[i]);
    fputs("</tr>\n", f);
  }
  fputs("</table>\n", f);
}

void cli_report_page(FILE *f, const cli_report_in *in) {
  fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
        "<head>\n<meta charset=\"utf-8\"/>\n<title>",
        f);
  cli_svg_escape(f, in->title);
  fputs("</title>\n<style>\n"
        "body{font-family:\"DejaVu Sans\",Arial,Helvetica,sans-serif;margin:2em;"
        "color:#111;max-width:72em}\n"
        "table{border-collapse:collapse;margin:0.5em 0 1.5em 0}\n"
        "th,td{border:1px solid #bbb;padding:0.2em 0.6em;text-align:left}\n"
        "table.sched td{text-align:right;font-family:monospace}\n"
        "table.kv th{background:#f3f3f3}\n"
        ".note{color:#555;font-style:italic}\n"
        "pre{background:#f6f6f6;padding:0.6em;overflow-x:auto}\n"
        ".ok{color:#1a7f37;font-weight:bold}.bad{color:#b42318;font-weight:bold}\n"
        "</style>\n</head>\n<body>\n<h1>",
        f);
  cli_svg_escape(f, in->title);
  fputs("</h1>\n<h2>Parameters</h2>\n", f);
  put_rows(f, in->params, in->nparams);
  fputs("<h2>Result</h2>\n", f);
  fprintf(f, "<p class=\"%s\">", in->optimal ? "ok" : "bad");
  cli_svg_escape(f, in->verdict);
  fputs("</p>\n", f);
  put_rows(f, in->result, in->nresult);
  if (in->svg != NULL) {
    fputs("<h2>Pictures</h2>\n<div class=\"svg\">\n", f);
    put_svg(f, in->svg, in->svglen);
    fputs("</div>\n", f);
  }
  if (in->extra != NULL) fputs(in->extra, f);
  if (in->s != NULL) put_schedule(f, in);
  fputs("<h2>Reproduce</h2>\n<pre>", f);
  cli_svg_escape(f, in->command);
  fputs("</pre>\n<p class=\"note\">The schedule above was built and checked by "
        "optcast's verifier against every rule of the model "
        "(docs/MODEL.md); times are in the model's units.</p>\n"
        "</body>\n</html>\n",
        f);
}

int cli_report_finish(cli_report_in *in, const char *done, const char *lb, int optimal,
                      const char *html) {
  char verdict[320], err[320];
  snprintf(verdict, sizeof verdict, "%s, lower bound %s: %s", done, lb,
           optimal ? "optimal" : "above the lower bound");
  in->verdict = verdict;
  in->optimal = optimal;
  if (cli_report_write(in, html, err, sizeof err) != OC_OK) {
    in->verdict = NULL;
    fprintf(stderr, "optcast: %s: %s\n", html ? "--html" : "--format", err);
    return 2;
  }
  in->verdict = NULL;
  return 0;
}

int cli_report_write(const cli_report_in *in, const char *path, char *err,
                     size_t errlen) {
  char *page = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&page, &n);
  int e;
  if (f == NULL) {
    snprintf(err, errlen, "out of memory");
    return OC_ENOMEM;
  }
  cli_report_page(f, in);
  if (fclose(f) != 0) {
    free(page);
    snprintf(err, errlen, "out of memory");
    return OC_ENOMEM;
  }
  if (path != NULL) {
    e = cli_svg_write_file(path, page, n, err, errlen);
  } else if (fwrite(page, 1, n, stdout) != n || fflush(stdout) != 0) {
    snprintf(err, errlen, "cannot write to standard output");
    e = OC_EIO;
  } else {
    e = OC_OK;
  }
  free(page);
  return e;
}
