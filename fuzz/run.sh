#!/bin/sh
# Runs each libFuzzer target for a bounded time on a scratch copy of its
# corpus, then every committed crash reproducer once.  Prints a table row per
# target (executions, crashes) and fails on any finding.
# Usage: fuzz/run.sh SECONDS
set -u
secs=${1:-45}
cd "$(dirname "$0")/.." || exit 2
work=$(mktemp -d)
rc=0
printf '| fuzz target | seconds | executions | crashes |\n| --- | ---: | ---: | ---: |\n' > build-fuzz/summary.md
for t in verify numbers cli; do
  mkdir -p "$work/$t"
  cp fuzz/corpus/$t/* "$work/$t/" 2>/dev/null
  extra="" asan=""
  # the command longjmps out of its errors and leaves what it had allocated: no leak
  # checks for it here, neither per input nor at exit (the test suite runs the command
  # under ASan with leak detection, and valgrind, on every path it takes)
  [ "$t" = cli ] && extra="-detect_leaks=0" asan="detect_leaks=0"
  # a unit past 30 s is a hang (timeout- artifact, a failure); a slow one below that
  # (libFuzzer's slow-unit- artifact: e.g. a compare sweep under ASan on a loaded
  # machine, 10.7 s) is reported, not failed
  ASAN_OPTIONS=$asan ./build-fuzz/fuzz_$t -max_total_time="$secs" -timeout=30 -report_slow_units=30 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$work/crash-$t-" $extra "$work/$t" \
      > "$work/$t.log" 2>&1
  code=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$t.log" | grep -o '[0-9]*$')
  crashes=$(ls "$work"/crash-$t-* 2>/dev/null | grep -v -- '-slow-unit-' | wc -l)
  slow=$(ls "$work"/crash-$t-*slow-unit-* 2>/dev/null | wc -l)
  [ "$slow" -gt 0 ] && echo "fuzz_$t: $slow slow unit(s) (not a failure): $(cat "$work"/crash-$t-*slow-unit-* | head -c 200)"
  rm -f "$work"/crash-$t-*slow-unit-*
  printf '| %s | %s | %s | %s |\n' "$t" "$secs" "${execs:-?}" "$crashes" >> build-fuzz/summary.md
  echo "fuzz_$t: ${execs:-?} executions in ${secs}s, exit $code, $crashes crash files"
  if [ "$code" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    rc=1
    grep -m 5 -E 'ERROR|SUMMARY|Test unit written' "$work/$t.log"
    for f in "$work"/crash-$t-*; do [ -f "$f" ] && cp "$f" build-fuzz/; done
  fi
done
# committed reproducers of past crashes must stay fixed
for t in verify numbers cli; do
  for f in fuzz/regress/$t-*; do
    [ -f "$f" ] || continue
    extra="" asan=""; [ "$t" = cli ] && extra="-detect_leaks=0" asan="detect_leaks=0"
    if ! ASAN_OPTIONS=$asan ./build-fuzz/fuzz_$t $extra "$f" > "$work/regress.log" 2>&1; then
      echo "regression: $f crashes again"; rc=1
    fi
  done
done
cat build-fuzz/summary.md
rm -rf "$work"
exit $rc
