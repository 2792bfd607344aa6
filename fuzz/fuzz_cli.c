/* fuzz_cli.c - libFuzzer target: the whole command line in one process.
 * Input: arguments separated by spaces on the first line, then stdin.
 * Inputs with numbers of more than 4 digits are skipped (they only make
 * the planners big, not different; the unit tests cover the edges). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int oc_cli_fuzz(int argc, char **argv, FILE *in);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int quiet, devnull = -1, saved = -1;
  char *buf, *nl, *argv[24];
  int argc = 0, digits = 0;
  FILE *in;
  if (!quiet) { /* the command's own output is not the point */
    if (freopen("/dev/null", "w", stdout) == NULL) return 0;
    devnull = open("/dev/null", O_WRONLY);
    saved = dup(2);
    quiet = 1;
  }
  if (size > 4096) return 0;
  buf = (char *)malloc(size + 1);
  if (buf == NULL) return 0;
  memcpy(buf, data, size);
  buf[size] = '\0';
  for (size_t i = 0; i < size; i++) {
    digits = (buf[i] >= '0' && buf[i] <= '9') ? digits + 1 : 0;
    if (digits > 4) { free(buf); return 0; }
  }
  nl = strchr(buf, '\n');
  if (nl) *nl = '\0';
  argv[argc++] = "optcast";
  for (char *t = strtok(buf, " "); t != NULL && argc < 23; t = strtok(NULL, " "))
    argv[argc++] = t;
  argv[argc] = NULL;
  in = nl ? fmemopen(nl + 1, strlen(nl + 1), "r") : fmemopen((void *)"", 0, "r");
  if (in == NULL) in = fopen("/dev/null", "r");
  if (in != NULL) {
    /* its error lines go nowhere; libFuzzer keeps the input of any crash */
    fflush(stderr);
    if (devnull >= 0) dup2(devnull, 2);
    oc_cli_fuzz(argc, argv, in);
    fflush(stderr);
    if (saved >= 0) dup2(saved, 2);
    fclose(in);
  }
  free(buf);
  return 0;
}
