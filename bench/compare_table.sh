#!/bin/sh
# optcast's broadcast, reduce and allreduce against the MPI libraries'
# algorithms and default selections (`optcast compare bcast|reduce|allreduce`), at presets
# and P = 8 .. 4096: one packet, and a larger message.  Every number is a
# verified LogP schedule time in the preset's unit (machine-independent).
# For each P: optcast's time (the best optcast row), the lower bound, the
# fastest library algorithm, the two default selections (which algorithm
# they pick), and how many times longer each takes than optcast.  "n/a": a
# row past its builder's size limit (reduce and allreduce only).
# Usage: bench/compare_table.sh [optcast] [bcast|reduce|allreduce|all]  (markdown)
bin=${1:-./build/optcast}
which=${2:-all}
table() { # problem, preset, size option (or empty)
  echo
  if [ -n "$3" ]; then echo "$1, preset $2, message $3 bytes:"; else echo "$1, preset $2, one packet:"; fi
  echo
  printf '| P | lower bound | optcast | best library | ompi-default | mpich-default | best lib / optcast | ompi / optcast | mpich / optcast |\n'
  printf '| ---: | ---: | ---: | --- | --- | --- | ---: | ---: | ---: |\n'
  if [ -n "$3" ]; then size="--size $3"; else size=""; fi
  # shellcheck disable=SC2086
  "$bin" compare "$1" --preset "$2" --sweep procs=8..4096 $size --csv --quiet |
    awk -F, 'NR > 1 {
      P = $1; lb[P] = $5
      if (!(P in seen)) { order[++n] = P; seen[P] = 1 }
      if ($8 == "n/a") na = 1
      else if ($8 != "yes") bad = 1
      if ($2 ~ /^optcast/) { if ($4 != "" && (!(P in opt) || $4 + 0 < opt[P])) opt[P] = $4 + 0 }
      else if ($2 == "ompi-default") { om[P] = $4; omp[P] = $3 }
      else if ($2 == "mpich-default") { mp[P] = $4; mpp[P] = $3 }
      else if ($4 != "" && (!(P in bl) || $4 + 0 < bl[P])) { bl[P] = $4 + 0; bln[P] = $2 }
    }
    function r(a, b) { return (a == "" || b == "") ? "-" : sprintf("%.3f", a / b) }
    function v(a) { return a == "" ? "n/a" : a }
    END {
      for (i = 1; i <= n; i++) {
        P = order[i]; sub(/^picks /, "", omp[P]); sub(/^picks /, "", mpp[P])
        printf "| %s | %s | %s | %s %s | %s %s | %s %s | %s | %s | %s |\n", P, lb[P], v(opt[P]),
          bln[P], bl[P], omp[P], v(om[P]), mpp[P], v(mp[P]), r(bl[P], opt[P]), r(om[P], opt[P]),
          r(mp[P], opt[P])
      }
      if (bad) { print "a schedule failed the verifier" > "/dev/stderr"; exit 1 }
    }' || exit 1
}
if [ "$which" = bcast ] || [ "$which" = all ]; then
  table bcast cm5 "" || exit 1
  table bcast cm5 4096 || exit 1
  table bcast ib-tukey "" || exit 1
  table bcast ib-tukey 262144 || exit 1
  table bcast atlahs "" || exit 1
  table bcast atlahs 16384 || exit 1
fi
if [ "$which" = reduce ] || [ "$which" = all ]; then
  table reduce cm5 "" || exit 1
  table reduce cm5 4096 || exit 1
  table reduce atlahs "" || exit 1
  table reduce atlahs 16384 || exit 1
fi
if [ "$which" = allreduce ] || [ "$which" = all ]; then
  table allreduce cm5 "" || exit 1
  table allreduce cm5 4096 || exit 1
  table allreduce atlahs "" || exit 1
  table allreduce atlahs 16384 || exit 1
fi
