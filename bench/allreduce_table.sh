#!/bin/sh
# allreduce_table.sh - the one-packet allreduce on 300 seeded random LogP
# instances: how many plans meet their lower bound, and the worst ratio
# plan time / bound, for two optcast binaries (before and after a change).
#
#   bench/allreduce_table.sh [BEFORE [AFTER [N [SEED]]]]
#   (defaults: /work/base/optcast build/optcast 300 1)
#
# Instances (a Park-Miller generator, seeded, so both binaries see the same
# ones): P log-uniform in 2..30000, L uniform in 0..20, o in 0..10, g in
# 1..40 (L + 2o >= 1: an instance with L = o = 0 gets L = 1).  Every plan is
# built and checked by optcast's verifier (`"verified":true` is required).
# Prints one line per instance (P L o g, before: time bound algorithm,
# after: time bound algorithm), then the summary table in Markdown.
set -eu
BEFORE=${1:-/work/base/optcast}
AFTER=${2:-build/optcast}
N=${3:-300}
SEED=${4:-1}
awk -v n="$N" -v seed="$SEED" 'BEGIN {
  x = seed * 48271 % 2147483647; if (x == 0) x = 1
  for (i = 0; i < n; i++) {
    x = x * 16807 % 2147483647; u = x / 2147483647
    P = int(exp(log(2) + u * (log(30001) - log(2)))); if (P < 2) P = 2; if (P > 30000) P = 30000
    x = x * 16807 % 2147483647; L = x % 21
    x = x * 16807 % 2147483647; o = x % 11
    x = x * 16807 % 2147483647; g = 1 + x % 40
    if (L + 2 * o < 1) L = 1
    print P, L, o, g
  }
}' | while read -r P L o g; do
  b=$("$BEFORE" plan allreduce --procs "$P" --latency "$L" --overhead "$o" --gap "$g" --json)
  a=$("$AFTER" plan allreduce --procs "$P" --latency "$L" --overhead "$o" --gap "$g" --json)
  for j in "$b" "$a"; do
    case $j in *'"verified":true'*) ;; *) echo "not verified: P=$P L=$L o=$o g=$g: $j" >&2; exit 1;; esac
  done
  field() { printf '%s' "$1" | sed -n "s/.*\"$2\":\"\{0,1\}\([^,\"]*\).*/\1/p"; }
  echo "$P $L $o $g $(field "$b" time) $(field "$b" lower_bound) $(field "$b" algorithm)" \
       "$(field "$a" time) $(field "$a" lower_bound) $(field "$a" algorithm)"
done | awk '
  { print
    n++; bt = $5; bl = $6; at = $8; al = $9; alg[$10]++
    if (bt == bl) b_at++; if (at == al) a_at++; if (at == bl) ao_at++
    b_s += bt / bl; a_s += at / al; ao_s += at / bl
    r = bt / bl; if (r > b_w) { b_w = r; b_i = $1 " " $2 " " $3 " " $4 }
    r = at / al; if (r > a_w) { a_w = r; a_i = $1 " " $2 " " $3 " " $4 }
    r = at / bl; if (r > ao_w) { ao_w = r; ao_i = $1 " " $2 " " $3 " " $4 }
    if (at < bt) better++; if (at > bt) worse++; if (al > bl) lb_up++
    if (bt / at > gain) { gain = bt / at; g_i = $1 " " $2 " " $3 " " $4 }
  }
  END {
    printf "\n| %d instances | at the bound | mean time/bound | worst time/bound | worst instance (P L o g) |\n", n
    printf "| --- | --- | --- | --- | --- |\n"
    printf "| before: old plan, old bound | %d | %.3f | %.3f | %s |\n", b_at, b_s / n, b_w, b_i
    printf "| after: new plan, old bound | %d | %.3f | %.3f | %s |\n", ao_at, ao_s / n, ao_w, ao_i
    printf "| after: new plan, new bound | %d | %.3f | %.3f | %s |\n", a_at, a_s / n, a_w, a_i
    printf "\nnew plan faster on %d, slower on %d; largest gain %.3fx (%s); bound raised on %d\n", better, worse, gain, g_i, lb_up
    printf "chosen:"; for (k in alg) printf " %s %d;", k, alg[k]; printf "\n"
  }'
