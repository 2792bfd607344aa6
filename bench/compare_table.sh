#!/bin/sh
# optcast's broadcast against the MPI libraries' algorithms and default
# selections (`optcast compare bcast`), at two presets and P = 8 .. 4096:
# one packet, and a larger message.  Every number is a verified LogP schedule
# time in the preset's unit (machine-independent).  For each P: optcast's
# time (the best optcast row), the lower bound, the fastest library
# algorithm, the two default selections (which algorithm they pick), and how
# many times longer each takes than optcast.
# Usage: bench/compare_table.sh [optcast]   (prints markdown)
bin=${1:-./build/optcast}
table() { # preset, size option (or empty)
  echo
  if [ -n "$2" ]; then echo "preset $1, message $2 bytes:"; else echo "preset $1, one packet:"; fi
  echo
  printf '| P | lower bound | optcast | best library | ompi-default | mpich-default | best lib / optcast | ompi / optcast | mpich / optcast |\n'
  printf '| ---: | ---: | ---: | --- | --- | --- | ---: | ---: | ---: |\n'
  if [ -n "$2" ]; then size="--size $2"; else size=""; fi
  # shellcheck disable=SC2086
  "$bin" compare bcast --preset "$1" --sweep procs=8..4096 $size --csv --quiet |
    awk -F, 'NR > 1 {
      P = $1; lb[P] = $5
      if (!(P in seen)) { order[++n] = P; seen[P] = 1 }
      if ($2 ~ /^optcast/) { if (!(P in opt) || $4 + 0 < opt[P]) opt[P] = $4 + 0 }
      else if ($2 == "ompi-default") { om[P] = $4; omp[P] = $3 }
      else if ($2 == "mpich-default") { mp[P] = $4; mpp[P] = $3 }
      else if (!(P in bl) || $4 + 0 < bl[P]) { bl[P] = $4 + 0; bln[P] = $2 }
      if ($8 != "yes") bad = 1
    }
    END {
      for (i = 1; i <= n; i++) {
        P = order[i]; sub(/^picks /, "", omp[P]); sub(/^picks /, "", mpp[P])
        printf "| %s | %s | %s | %s %s | %s %s | %s %s | %.3f | %.3f | %.3f |\n", P, lb[P], opt[P],
          bln[P], bl[P], omp[P], om[P], mpp[P], mp[P], bl[P] / opt[P], om[P] / opt[P], mp[P] / opt[P]
      }
      if (bad) { print "a schedule failed the verifier" > "/dev/stderr"; exit 1 }
    }' || exit 1
}
table cm5 "" || exit 1
table cm5 4096 || exit 1
table ib-tukey "" || exit 1
table ib-tukey 262144 || exit 1
table atlahs "" || exit 1
table atlahs 16384 || exit 1
