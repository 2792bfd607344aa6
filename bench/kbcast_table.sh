#!/bin/sh
# Multi-item broadcast in the postal model: for a grid of (n, m, lambda) the
# verified time of each algorithm of Bar-Noy & Kipnis section 4, the lower
# bound (Lemma 8; Karp Thm 3.1 for integer lambda), the best/bound ratio and
# the winner.  Times in units of one message.  Usage: bench/kbcast_table.sh [optcast]
bin=${1:-./build/optcast}
field() { printf '%s' "$1" | sed "s/.*\"$2\":\\([0-9.]*\\).*/\\1/"; }
printf '| n | m | lambda | repeat | pack | pipeline | dtree (best d) | lower bound | best / bound | winner |\n'
printf '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n'
for n in 16 100 1000; do
  for m in 1 4 16 64; do
    for lam in 1 2.5 4 10; do
      row="| $n | $m | $lam |"
      best=""; win=""
      for a in repeat pack pipeline dtree; do
        out=$("$bin" plan kbcast --lambda "$lam" --procs "$n" --items "$m" --algorithm "$a" --json) || exit 1
        t=$(field "$out" time)
        lb=$(field "$out" lower_bound)
        if [ "$a" = dtree ]; then d=$(field "$out" degree); row="$row $t ($d) |"; else row="$row $t |"; fi
        if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; win=$a; fi
      done
      ratio=$(awk "BEGIN{printf \"%.2f\", $best / $lb}")
      printf '%s %s | %s | %s |\n' "$row" "$lb" "$ratio" "$win"
    done
  done
done
