#!/bin/sh
# Runs the test suite twice - optimised, then under ASan+UBSan - and closes
# with one line for CI: "check: N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 2
tp=0; tf=0; rc=0
for dir in build build-san; do
  echo "== tests ($dir)"
  out=$(ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        OPTCAST_BIN="$PWD/$dir/optcast" "./$dir/test_optcast" 2>&1)
  code=$?
  printf '%s\n' "$out" | grep -v '^[0-9]* passed, [0-9]* failed$'
  line=$(printf '%s\n' "$out" | grep '^[0-9]* passed, [0-9]* failed$' | tail -n 1)
  if [ -z "$line" ]; then echo "$dir: the test runner did not finish"; tf=$((tf + 1)); rc=1; continue; fi
  p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}
  echo "$dir: $line"
  tp=$((tp + p)); tf=$((tf + f))
  [ "$code" -eq 0 ] || rc=1
done
echo "check: $tp passed, $tf failed"
[ "$tf" -eq 0 ] && [ "$rc" -eq 0 ]
