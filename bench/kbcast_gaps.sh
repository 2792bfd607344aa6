#!/bin/sh
# The postal k-item broadcast's gaps to the lower bound on three seeded grids
# (issue 27; docs/algorithms/postal.md shows the tables, before and after):
#   lambda1  261 instances, n log-uniform in 2..10^4, m log-uniform in 1..1024,
#            lambda = 1: `plan kbcast` (built and verified; the run stops if
#            a schedule fails); one row per instance: n m time lower_bound
#   frac     200 instances, n log-uniform in 2..10^4, m in 1..1024, lambda =
#            p/q with q in 2..4, p/q in (1, 8) not an integer: the best time,
#            the bound (`plan kbcast`, verified), and the time of the plan of
#            ceil(lambda) run at lambda
#            (the integer plan's best time t_c as (t_c - c) q + p)
#   cyclic   the cyclic plan (Karp et al. 3.3-3.4) for one item at L = 1..4 and
#            93 P log-uniform in 401..20000: its time against Corollary 3.1's
#            L + B(P-1) and Theorem 3.7's B(P-1) + 2L - 1
# Usage: bench/kbcast_gaps.sh lambda1|frac|cyclic [optcast]  (rows on stdout;
# summarise with bench/kbcast_gaps.sh summary FILE).  Times are in units of
# 1/q of a message (JSON time_exact is the fraction).
set -e
what=$1
bin=${2:-./build/optcast}
field() { printf '%s' "$1" | sed "s/.*\"$2\":\"*\\([0-9./]*\\).*/\\1/"; }
# seeded log-uniform integers: awk's srand with a fixed seed per grid
grid() { awk -v seed="$1" -v n="$2" -v lo="$3" -v hi="$4" -v lo2="$5" -v hi2="$6" 'BEGIN {
  srand(seed);
  for (i = 0; i < n; i++) {
    a = int(exp(log(lo) + rand() * (log(hi + 1) - log(lo)))); if (a > hi) a = hi;
    b = int(exp(log(lo2) + rand() * (log(hi2 + 1) - log(lo2)))); if (b > hi2) b = hi2;
    q = 2 + int(rand() * 3); p = q + 1 + int(rand() * (7 * q - 1)); if (p % q == 0) p++;
    print a, b, p, q
  } }'; }
case $what in
lambda1)
  grid 27 261 2 10000 1 1024 | while read -r n m p q; do
    out=$("$bin" plan kbcast --lambda 1 --procs "$n" --items "$m" --json)
    case $out in *'"verified":true'*) ;; *) echo "not verified: n=$n m=$m" >&2; exit 1 ;; esac
    echo "$n $m $(field "$out" time) $(field "$out" lower_bound)"
  done ;;
frac)
  grid 28 200 2 10000 1 1024 | while read -r n m p q; do
    out=$("$bin" plan kbcast --lambda "$p/$q" --procs "$n" --items "$m" --json)
    case $out in *'"verified":true'*) ;; *) echo "not verified: n=$n m=$m" >&2; exit 1 ;; esac
    c=$(( (p + q - 1) / q ))
    outc=$("$bin" bound kbcast --lambda "$c" --procs "$n" --items "$m" --json)
    echo "$n $m $p/$q $(field "$out" time_exact) $(field "$out" lower_bound) $(field "$outc" time)"
  done ;;
cyclic)
  grid 29 93 401 20000 1 1 | while read -r n m p q; do
    for L in 1 2 3 4; do
      out=$("$bin" plan kbcast --lambda "$L" --procs "$n" --items 1 --algorithm cyclic --json)
      echo "$n $L $(field "$out" time) $(field "$out" bound_single_sending) $(field "$out" theorem37_time)"
    done
  done ;;
summary)
  # lambda1 rows: n m time lb; frac rows: n m p/q time lb tc; cyclic rows: n L time opt thm37
  awk '
    NF == 4 { k = "lambda1"; n++; if ($3 == $4) at++; d = $3 - $4; if (d > w) w = d; next }
    NF == 6 { k = "frac"; n++; split($3, f, "/"); t = $4; if (t ~ /\//) { split(t, u, "/"); t = u[1] / u[2] }
              split($3, pq, "/"); c = int((pq[1] + pq[2] - 1) / pq[2]);
              tcl = ($6 - c) + pq[1] / pq[2]; if (t <= tcl + 1e-9) within++;
              r = t / $5; if (r > w) w = r; if (t == $5) at++; next }
    NF == 5 { k = "cyclic"; n++; if ($3 == $4) at++; if ($3 <= $5) in37++; d = $3 - $4; if (d > w) w = d; next }
    END {
      if (k == "lambda1") printf "lambda = 1: %d instances, %d at the bound, worst +%d\n", n, at, w;
      if (k == "frac") printf "fractional lambda: %d instances, %d at the bound, %d within the plan of ceil(lambda), worst ratio %.3f\n", n, at, within, w;
      if (k == "cyclic") printf "cyclic, one item: %d cases, %d at L + B(P-1), %d within Theorem 3.7, worst +%d\n", n, at, in37, w;
    }' "$2" ;;
*) echo "usage: bench/kbcast_gaps.sh lambda1|frac|cyclic [optcast] | summary FILE" >&2; exit 2 ;;
esac
