#!/bin/sh
# The multi-packet grid of issue 24: 4 presets x P in {8, 64, 1024, 65536}
# x m in {1, 4, 16, 64, 256, 1024} packets, for bcast, reduce or allreduce.
# For each cell: optcast's time (the fastest of its constructions) and
# which, the fastest library row of `optcast compare PROBLEM` (named), their
# ratio (> 1: optcast wins), and optcast's ratio to the strongest lower
# bound.  Every schedule is verified by `compare`.  Only the cells with
# MIN <= P m <= MAX are run (default 1..2^20: the large cells take minutes
# to an hour each); library rows past their builders' limits ("n/a") do
# not count.  Times in the preset's unit (machine-independent).
# Usage: bench/mbcast_grid.sh [optcast] [bcast|reduce|allreduce] [MAX] [MIN]
#        (markdown on stdout); PRESETS="cm5 atlahs" in the environment runs
#        only those presets' rows (one large cell at a time).
bin=${1:-./build/optcast}
problem=${2:-bcast}
max=${3:-1048576}
min=${4:-1}
case "$problem" in
bcast | reduce | allreduce) ;;
*) echo "mbcast_grid.sh: PROBLEM must be bcast, reduce or allreduce, got '$problem'" >&2; exit 2 ;;
esac
presets=${PRESETS:-cm5 ib-tukey loggopsim atlahs}
for pr in $presets; do
  case "$pr" in
  cm5 | ib-tukey | loggopsim | atlahs) ;;
  *) echo "mbcast_grid.sh: PRESETS: '$pr' is not one of the grid's presets (cm5 ib-tukey loggopsim atlahs)" >&2; exit 2 ;;
  esac
done
echo '| preset | P | m | optcast | construction | best library | lib / optcast | optcast / bound |'
echo '| --- | ---: | ---: | ---: | --- | --- | ---: | ---: |'
for pr in $presets; do
  for P in 8 64 1024 65536; do
    for m in 1 4 16 64 256 1024; do
      [ $((P * m)) -gt "$max" ] || [ $((P * m)) -lt "$min" ] && continue
      "$bin" compare "$problem" --preset "$pr" --procs "$P" --items "$m" --csv --quiet |
        awk -F, -v pr="$pr" -v m="$m" '
          NR > 1 && $8 != "yes" && $8 != "n/a" { bad = 1 }
          NR > 1 && $2 == "optcast" { ot = $4; lb = $5; alg = $3; P = $1 }
          NR > 1 && $2 != "optcast" && $2 !~ /-default$/ && $4 != "" {
            if (best == "" || $4 + 0 < best + 0) { best = $4; bn = $2 } }
          END {
            if (bad) { print "a schedule failed the verifier" > "/dev/stderr"; exit 1 }
            printf "| %s | %s | %s | %s | %s | %s %s | %.3f | %.3f |\n", pr, P, m, ot, alg, bn,
              best, best / ot, ot / lb }' || exit 1
    done
  done
done
