#!/bin/sh
# Shou & Chen Fig. 2 instance (P = 7, L = 5, o = 2, g = 4): the optimal
# summation time of n operands (optcast) against Shou & Chen's Theorem 6,
# T(N) = T_B + (N - N_S)/P with N_S = 47 at T_B = 24 for their T*(7)
# (extra operands spread evenly, so ceil((N - 47)/7) more steps).
# Usage: bench/sum_table.sh [optcast binary]
bin=${1:-./build/optcast}
printf '| n | optcast time | operands by then (capacity) | Shou & Chen time | saved |\n'
printf '| ---: | ---: | ---: | ---: | ---: |\n'
for n in 47 48 50 51 52 55 57 60 63 64 70 71 77 78 82 83 84 85 90 91 100; do
  out=$("$bin" bound sum --procs 7 --latency 5 --overhead 2 --gap 4 --operands "$n" --json) || exit 1
  t=$(printf '%s' "$out" | sed 's/.*"time":\([0-9]*\),.*/\1/')
  cap=$(printf '%s' "$out" | sed 's/.*"capacity":\([0-9]*\),.*/\1/')
  sc=$(( 24 + (n - 47 + 6) / 7 ))
  printf '| %s | %s | %s | %s | %s |\n' "$n" "$t" "$cap" "$sc" $((sc - t))
done
