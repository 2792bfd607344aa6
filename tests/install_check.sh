#!/bin/sh
# install_check.sh - `make install` as a user meets it (run by tests/run.sh):
# install into an empty prefix; build a program with pkg-config against the
# shared library and run it; the manual page renders; the bash completion
# loads and completes; the installed command says its release; the same
# into a staging directory (DESTDIR); `make uninstall` leaves nothing.
# Prints "install: ok" or the first failure (exit 1).
set -u
cd "$(dirname "$0")/.." || exit 2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "install: FAIL: $*"; exit 1; }
P=$T/usr
make -s install PREFIX="$P" > "$T/make.log" 2>&1 || { tail -n 20 "$T/make.log"; fail "make install"; }
ver=$(sed -n 's/^#define OC_VERSION_STRING "\(.*\)"/\1/p' include/optcast/version.h)
[ "$("$P/bin/optcast" --version)" = "optcast $ver" ] || fail "installed optcast --version"
for f in lib/liboptcast.a "lib/liboptcast.so.$ver" lib/pkgconfig/optcast.pc include/optcast.h \
         include/optcast_rt.h include/optcast_mpi.h include/optcast/version.h \
         share/man/man1/optcast.1 share/bash-completion/completions/optcast \
         share/zsh/site-functions/_optcast; do
  [ -f "$P/$f" ] || fail "$f not installed"
done
# a program built with pkg-config against the shared library
cat > "$T/prog.c" <<'PROG'
#include <stdio.h>
#include <string.h>
#include "optcast.h"
#include "optcast_rt.h"
static int body(oc_comm *c, void *arg) {
  int64_t x[4];
  oc_reducer sum = oc_reducer_builtin(OC_OP_SUM);
  (void)arg;
  for (int i = 0; i < 4; i++) x[i] = oc_comm_rank(c) + i;
  if (oc_coll_allreduce(c, OC_IN_PLACE, x, 4, OC_INT64, &sum) != OC_OK) return -1;
  return x[3] == 0 + 1 + 2 + 3 + 4 * 3 ? 0 : -2; /* 4 ranks: sum of r + 3 */
}
int main(void) {
  oc_params p;
  oc_problem pr;
  oc_sched s;
  oc_result r;
  int rcs[4];
  if (strcmp(oc_version(), OC_VERSION_STRING) != 0) return 1;
  oc_params_logp(&p, 8, 6, 2, 4);
  oc_problem_init(&pr, OC_PROB_BCAST, &p);
  oc_sched_init(&s);
  if (oc_problem_plan(&pr, &s, &r) != OC_OK) return 2;
  printf("%s %s %lld\n", oc_version(), r.algorithm, (long long)r.time);
  oc_result_free(&r);
  oc_sched_free(&s);
  if (oc_threads_run(4, NULL, 0, body, NULL, rcs) != OC_OK) return 3;
  for (int i = 0; i < 4; i++) if (rcs[i] != 0) return 4;
  return 0;
}
PROG
flags=$(PKG_CONFIG_PATH="$P/lib/pkgconfig" pkg-config --cflags --libs optcast) ||
  fail "pkg-config --cflags --libs optcast"
[ "$(PKG_CONFIG_PATH="$P/lib/pkgconfig" pkg-config --modversion optcast)" = "$ver" ] ||
  fail "pkg-config --modversion"
# shellcheck disable=SC2086
cc $flags "$T/prog.c" -o "$T/prog" 2> "$T/cc.log" || { cat "$T/cc.log"; fail "cc \$(pkg-config ...) prog.c"; }
# shellcheck disable=SC2086
cc "$T/prog.c" -o "$T/prog2" $flags 2> "$T/cc.log" || { cat "$T/cc.log"; fail "cc prog.c \$(pkg-config ...)"; }
cmp -s "$T/prog" "$T/prog2" || readelf -d "$T/prog2" | grep -q 'NEEDED.*liboptcast' || fail "prog2 without liboptcast"
# shellcheck disable=SC2086
cc -static "$T/prog.c" -o "$T/prog3" $(PKG_CONFIG_PATH="$P/lib/pkgconfig" pkg-config --cflags --libs --static optcast) \
  2> "$T/cc.log" || { cat "$T/cc.log"; fail "cc -static with pkg-config --static"; }
[ "$("$T/prog3" | cut -d' ' -f2-)" = "karp 24" ] || fail "the static program"

soname=$(readelf -d "$T/prog" | sed -n 's/.*NEEDED.*\[\(liboptcast[^]]*\)\].*/\1/p')
case $soname in liboptcast.so.*) ;; *) fail "the program does not use the shared library ($soname)" ;; esac
out=$(LD_LIBRARY_PATH="$P/lib" "$T/prog") || fail "the program built against the shared library"
[ "$out" = "$ver karp 24" ] || fail "the program printed '$out'"
# the manual page (man -l renders the installed file)
if command -v man > /dev/null 2>&1; then
  page=$(MANWIDTH=80 man -l "$P/share/man/man1/optcast.1" 2> "$T/man.err" | sed 's/.\x08//g')
  printf '%s\n' "$page" | grep -q '^OPTCAST(1)' || { cat "$T/man.err"; fail "man -l optcast.1"; }
  printf '%s\n' "$page" | grep -q -- '--completion bash|zsh' || fail "man page: help's options"
  [ ! -s "$T/man.err" ] || { cat "$T/man.err"; fail "man -l warned"; }
elif [ "${CI:-}" = true ]; then fail "man not installed"; fi
# the bash completion: loads, and completes a command, an option and a value
got=$(bash -c '. "$1" || exit 1
  t() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _optcast; printf "%s;" "${COMPREPLY[*]}"; }
  t optcast mea; t optcast plan bcast --pro; t optcast plan bcast --model po' \
  sh "$P/share/bash-completion/completions/optcast") || fail "bash cannot load the completion"
[ "$got" = "measure;--procs;postal;" ] || fail "bash completion gave '$got'"
# DESTDIR: the files under the staging directory, PREFIX in optcast.pc
make -s install DESTDIR="$T/stage" PREFIX=/opt/oc > "$T/make2.log" 2>&1 || fail "make install DESTDIR"
[ -x "$T/stage/opt/oc/bin/optcast" ] || fail "DESTDIR: bin/optcast"
grep -q '^prefix=/opt/oc$' "$T/stage/opt/oc/lib/pkgconfig/optcast.pc" || fail "DESTDIR: optcast.pc's prefix"
# uninstall: nothing left (not even empty directories under the prefix)
make -s uninstall PREFIX="$P" > /dev/null 2>&1 || fail "make uninstall"
[ -z "$(find "$P" -mindepth 1 2>/dev/null)" ] || { find "$P" -mindepth 1; fail "make uninstall left files"; }
make -s uninstall DESTDIR="$T/stage" PREFIX=/opt/oc > /dev/null 2>&1 || fail "make uninstall DESTDIR"
[ -z "$(find "$T/stage/opt/oc" -mindepth 1 2>/dev/null)" ] || fail "make uninstall DESTDIR left files"
echo "install: ok (optcast $ver; pkg-config build against liboptcast.so; man; bash completion; uninstall clean)"
