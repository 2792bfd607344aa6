#!/bin/sh
# The exact optimum of small k-item postal broadcasts (tools/kbcast_exact.py,
# SAT) next to Karp et al.'s Theorem 3.1 lower bound and what
# `optcast plan kbcast --algorithm best` reaches; every SAT schedule is
# checked by `optcast verify kbcast`.  Prints markdown; "?" where the solver
# ran out of its time (TIMEOUT seconds per T, default 60).
# Usage: tools/kbcast_exact_table.sh [optcast] [P values] [L values] [k values]
bin=${1:-./build/optcast}
Ps=${2:-"4 5 6 7 8"}; Ls=${3:-"2 3 4"}; ks=${4:-"2 3 4 6"}
to=${TIMEOUT:-60}
dir=$(dirname "$0")
echo "| P | L | k | Thm 3.1 bound | exact optimum | optcast best | best's algorithm |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | --- |"
for P in $Ps; do for L in $Ls; do for k in $ks; do
  js=$("$bin" plan kbcast --lambda "$L" --procs "$P" --items "$k" --algorithm best --json)
  lb=$(echo "$js" | sed 's/.*"lower_bound":\([0-9]*\).*/\1/')
  bt=$(echo "$js" | sed 's/.*"time":\([0-9]*\),.*/\1/')
  alg=$(echo "$js" | sed 's/.*"algorithm":"\([^"]*\)".*/\1/')
  T=$lb; opt="?"
  while [ "$T" -le "$bt" ]; do
    if [ "$T" -eq "$bt" ]; then opt=$bt; break; fi  # best's schedule exists
    out=$(timeout "$to" python3 "$dir/kbcast_exact.py" "$P" "$L" "$k" "$T" 2>/dev/null) || { opt="?"; break; }
    if [ "$out" != unsat ]; then
      v=$(echo "$out" | "$bin" verify kbcast --lambda "$L" --procs "$P" --items "$k" --json)
      case "$v" in *'"valid":true'*) opt=$T ;; *) echo "verify failed: P=$P L=$L k=$k T=$T" >&2; exit 1 ;; esac
      break
    fi
    T=$((T + 1))
  done
  echo "| $P | $L | $k | $lb | $opt | $bt | $alg |"
done; done; done
