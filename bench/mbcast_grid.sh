#!/bin/sh
# The multi-packet broadcast grid of issue 24: 4 presets x P in {8, 64, 1024,
# 65536} x m in {1, 4, 16, 64, 256, 1024} packets.  For each cell: optcast's
# time (the fastest of its constructions, oc_mbcast.c) and which, the
# fastest library row of `optcast compare bcast` (named), their ratio (> 1:
# optcast wins), and optcast's ratio to the strongest lower bound.  Every
# schedule is verified by `compare`.  Cells past the library models' limit
# (compare's limit P m <= 2^20) are left out.  Times in the preset's unit (machine-independent).
# Usage: bench/mbcast_grid.sh [optcast]   (markdown on stdout)
bin=${1:-./build/optcast}
echo '| preset | P | m | optcast | construction | best library | lib / optcast | optcast / bound |'
echo '| --- | ---: | ---: | ---: | --- | --- | ---: | ---: |'
for pr in cm5 ib-tukey loggopsim atlahs; do
  for P in 8 64 1024 65536; do
    for m in 1 4 16 64 256 1024; do
      [ $((P * m)) -gt 1048576 ] && continue
      "$bin" compare bcast --preset "$pr" --procs "$P" --items "$m" --csv --quiet |
        awk -F, -v pr="$pr" -v m="$m" '
          NR > 1 && $8 != "yes" { bad = 1 }
          NR > 1 && $2 == "optcast" { ot = $4; lb = $5; alg = $3; P = $1 }
          NR > 1 && $2 != "optcast" && $2 !~ /-default$/ {
            if (best == "" || $4 + 0 < best + 0) { best = $4; bn = $2 } }
          END {
            if (bad) { print "a schedule failed the verifier" > "/dev/stderr"; exit 1 }
            printf "| %s | %s | %s | %s | %s | %s %s | %.3f | %.3f |\n", pr, P, m, ot, alg, bn,
              best, best / ot, ot / lb }' || exit 1
    done
  done
done
