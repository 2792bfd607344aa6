#!/bin/sh
# `make check`: the test suite optimised and under ASan+UBSan, then under
# valgrind memcheck (leaks count), cppcheck, clang-tidy (.clang-tidy) and
# the libFuzzer targets for FUZZ_SECONDS each, the MPI tests with Open MPI
# and MPICH, `make install` into a scratch prefix (tests/install_check.sh)
# and the SMPI smoke test.  Closes with one line for
# CI: "check: N passed, N failed" (each test, and each extra check, counts
# once).  A missing tool is skipped with a note, except under CI=true,
# where .ci/run has installed everything and a missing tool fails.
set -u
cd "$(dirname "$0")/.." || exit 2
tp=0; tf=0
pass() { tp=$((tp + 1)); echo "ok   $1"; }
fail() { tf=$((tf + 1)); echo "FAIL $1"; }
have() {
  if command -v "$1" >/dev/null 2>&1; then return 0; fi
  if [ "${CI:-}" = true ]; then fail "$2 ($1 not installed)"; else echo "SKIP $2 ($1 not installed)"; fi
  return 1
}
for dir in build build-san; do
  echo "== tests ($dir)"
  out=$(ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        OPTCAST_BIN="$PWD/$dir/optcast" "./$dir/test_optcast" 2>&1)
  printf '%s\n' "$out" | grep -v '^[0-9]* passed, [0-9]* failed$'
  line=$(printf '%s\n' "$out" | grep '^[0-9]* passed, [0-9]* failed$' | tail -n 1)
  if [ -z "$line" ]; then fail "$dir: the test runner did not finish"; continue; fi
  p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}
  echo "$dir: $line"
  tp=$((tp + p)); tf=$((tf + f))
done
echo "== valgrind memcheck (the optimised suite, leaks are errors)"
if have valgrind "valgrind memcheck"; then
  # (xmllint, run by the draw_xmllint test, is not ours to check)
  if OPTCAST_VALGRIND=1 OPTCAST_BIN="$PWD/build/optcast" valgrind -q --trace-children=yes \
       --trace-children-skip='*/xmllint' --leak-check=full \
       --errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
       ./build/test_optcast > build/valgrind.log 2>&1 &&
     tail -n 1 build/valgrind.log | grep -q ' 0 failed$'; then
    pass "valgrind memcheck: $(tail -n 1 build/valgrind.log)"
  else
    grep -v '^ok' build/valgrind.log | tail -n 20
    fail "valgrind memcheck (build/valgrind.log)"
  fi
fi
echo "== cppcheck"
if have cppcheck cppcheck; then
  if cppcheck --enable=warning,performance,portability --std=c11 --quiet --library=tests/cppcheck.cfg \
       --error-exitcode=1 -Iinclude -Isrc src tests bench fuzz 2> build/cppcheck.log; then
    pass cppcheck
  else
    cat build/cppcheck.log; fail cppcheck
  fi
fi
echo "== clang-tidy (.clang-tidy)"
if have clang-tidy clang-tidy; then
  if clang-tidy --quiet src/*/*.c -- -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc \
       > build/clang-tidy.log 2>&1; then
    pass clang-tidy
  else
    grep -E 'warning|error' build/clang-tidy.log | head -n 20; fail clang-tidy
  fi
fi
echo "== fuzzing (${FUZZ_SECONDS:-45} s per target)"
if have clang "libFuzzer targets"; then
  if make -s build-fuzz/fuzz_verify build-fuzz/fuzz_numbers build-fuzz/fuzz_cli > build/fuzz-build.log 2>&1 &&
     sh fuzz/run.sh "${FUZZ_SECONDS:-45}"; then
    pass "fuzzing"
  else
    tail -n 20 build/fuzz-build.log; fail "fuzzing"
  fi
fi
echo "== MPI: transport, interposer (make mpi-check, docs/MPI.md)"
if have mpicc "MPI tests"; then
  if make -s mpi-check > build/mpi-check.log 2>&1; then
    pass "$(tail -n 1 build/mpi-check.log)"
  else
    grep -v '^ok' build/mpi-check.log | tail -n 20; fail "mpi-check (build/mpi-check.log)"
  fi
fi
echo "== MPICH: the same MPI tests with MPICH (make mpi-check-mpich, docs/MPI.md)"
if have mpicc.mpich "MPI tests with MPICH"; then
  if make -s mpi-check-mpich > build/mpi-check-mpich.log 2>&1; then
    pass "MPICH $(tail -n 1 build/mpi-check-mpich.log)"
  else
    grep -v '^ok' build/mpi-check-mpich.log | tail -n 20; fail "mpi-check-mpich (build/mpi-check-mpich.log)"
  fi
fi
echo "== make install: prefix, pkg-config, shared library, man, completion, uninstall"
if have pkg-config "make install check"; then
  if out=$(sh tests/install_check.sh 2>&1); then
    pass "$out"
  else
    printf '%s\n' "$out" | tail -n 20; fail "make install check (tests/install_check.sh)"
  fi
fi
echo "== SMPI: the MPI runtime on a simulated cluster (make smpi-check, docs/SMPI.md)"
if have smpicc "SMPI smoke test"; then
  if make -s smpi-check > build/smpi-check.log 2>&1; then
    pass "$(tail -n 1 build/smpi-check.log)"
  else
    tail -n 20 build/smpi-check.log; fail "smpi-check (build/smpi-check.log)"
  fi
fi
echo "check: $tp passed, $tf failed"
[ "$tf" -eq 0 ]
