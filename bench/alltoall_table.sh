#!/bin/sh
# All-to-all in LogP: 300 seeded random instances, each planned (and so
# verified: the command runs the verifier on every schedule it prints) by two
# builds, the older one first; prints how many are at their lower bound and
# the worst time / bound, for the old plan against the old bound, the new plan
# against the new bound and against the old one, then the issue's three
# instances.  Instances: P 2..32, L 0..40, o 0..10, g 1..40, k 1..4 items per
# processor (L + 2o >= 1), drawn with Park & Miller's minimal standard
# generator (x <- 16807 x mod 2^31 - 1, exact in awk's doubles) from seed 1.
# Usage: bench/alltoall_table.sh old-optcast [new-optcast [count [seed]]]
old=${1:?usage: bench/alltoall_table.sh old-optcast [new-optcast [count [seed]]]}
new=${2:-./build/optcast}
count=${3:-300}
seed=${4:-1}
field() { printf '%s' "$1" | sed "s/.*\"$2\":\\([0-9.a-z]*\\).*/\\1/"; }
plan() { # binary P L o g k -> "time bound"
  out=$("$1" plan alltoall --procs "$2" --latency "$3" --overhead "$4" --gap "$5" --items "$6" --json) || {
    echo "plan failed: $*" >&2; exit 1; }
  [ "$(field "$out" verified)" = true ] || { echo "not verified: $*" >&2; exit 1; }
  echo "$(field "$out" time) $(field "$out" lower_bound)"
}
tmp=${TMPDIR:-/tmp}/alltoall_table.$$
trap 'rm -f "$tmp"' EXIT
awk -v n="$count" -v x="$seed" 'function r(lo, hi) { x = (16807 * x) % 2147483647; return lo + x % (hi - lo + 1) }
  BEGIN { while (n > 0) { P = r(2, 32); L = r(0, 40); o = r(0, 10); g = r(1, 40); k = r(1, 4);
            if (L + 2 * o < 1) continue; print P, L, o, g, k; n-- } }' |
while read -r P L o g k; do
  echo "$P $L $o $g $k $(plan "$old" "$P" "$L" "$o" "$g" "$k") $(plan "$new" "$P" "$L" "$o" "$g" "$k")" || exit 1
done > "$tmp" || exit 1
[ "$(wc -l < "$tmp")" -eq "$count" ] || { echo "only $(wc -l < "$tmp") of $count instances planned" >&2; exit 1; }
awk -v n="$count" '{ ot = $6; ob = $7; nt = $8; nb = $9
    if (nt > ot) bad++                      # the new plan is never slower
    if (nb < ob) weak++                     # nor the new bound lower
    a += ot <= ob; b += nt <= nb; c += nt <= ob; d += nt < ot
    if (ot / ob > wa) { wa = ot / ob; ia = $0 } if (nt / nb > wb) { wb = nt / nb; ib = $0 }
    if (nt / ob > wc) { wc = nt / ob; ic = $0 } }
  function row(what, at, w, i) { split(i, f, " ")
    printf "| %s | %d of %d | %.3f (P=%d L=%d o=%d g=%d k=%d) |\n", what, at, n, w, f[1], f[2], f[3], f[4], f[5] }
  END { print "| plan against bound | at the bound | worst time / bound (its instance) |"
        print "| --- | ---: | --- |"
        row("before: old plan, old bound", a, wa, ia)
        row("after: new plan, new bound", b, wb, ib)
        row("new plan, old bound", c, wc, ic)
        printf "\nnew plan faster on %d of %d; slower on %d; new bound below the old on %d\n", d, n, bad + 0, weak + 0
        if (bad + weak > 0) exit 1 }' "$tmp" || exit 1
printf '\n| P | L | o | g | k | old plan | old bound | new plan | new bound |\n'
printf '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n'
for inst in "3 20 4 3 3" "12 11 1 3 3" "17 3 1 2 1"; do
  set -- $inst
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$5" \
    "$(plan "$old" "$@" | sed 's/ / | /')" "$(plan "$new" "$@" | sed 's/ / | /')"
done
