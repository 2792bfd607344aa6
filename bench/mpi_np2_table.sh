#!/bin/sh
# mpi_np2_table.sh - one markdown table from repeated mpi_bench.sh runs at one
# rank count, with Open MPI and with MPICH (docs/BENCHMARKS.md):
#   sh bench/mpi_np2_table.sh "ompi_1.txt ompi_2.txt ..." "mpich_1.txt ..."
# Per collective and size (the "default" lines: each MPI's own choice): the
# median over the runs of optcast's and the MPI's medians, their ratio, and
# each run's ratio; then the cells above 1.2x.
set -eu
[ $# -eq 2 ] || { echo "usage: mpi_np2_table.sh \"OPENMPI_FILES\" \"MPICH_FILES\"" >&2; exit 2; }
# shellcheck disable=SC2086
{ for f in $1; do sed 's/^/ompi /' "$f"; done; for f in $2; do sed 's/^/mpich /' "$f"; done; } | awk '
function median(s,   n, a, i, j, t) {
  n = split(s, a, " ")
  for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
$3 == "default" && NF >= 10 {
  key = $4 SUBSEP $5
  o[$1, key] = o[$1, key] " " $6; m[$1, key] = m[$1, key] " " $7
  r[$1, key] = r[$1, key] sprintf(" %.2f", $6 / $7); an = $10; for (f = 11; f < NF; f++) an = an " " $f; alg[$1, key] = an "/" $9
  seen[key] = 1; sz[$5] = 1
}
END {
  print "| collective | bytes | optcast us | Open MPI us | optcast / Open MPI (each run) | optcast us | MPICH us | optcast / MPICH (each run) | optcast ran (Open MPI build) |"
  print "| --- | ---: | ---: | ---: | --- | ---: | ---: | --- | --- |"
  n = 0; for (s in sz) sl[++n] = s + 0
  for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (sl[j] < sl[i]) { t = sl[i]; sl[i] = sl[j]; sl[j] = t }
  split("bcast reduce allreduce allgather scan", order, " ")
  for (c = 1; c <= 5; c++) for (i = 1; i <= n; i++) {
    key = order[c] SUBSEP sl[i]
    if (!(key in seen)) continue
    line = "| " order[c] " | " sl[i]
    for (q = 1; q <= 2; q++) {
      lib = q == 1 ? "ompi" : "mpich"
      if ((lib, key) in o) {
        oo = median(o[lib, key]); mm = median(m[lib, key]); ratio = oo / mm
        line = line sprintf(" | %.2f | %.2f | %s%.2f%s (%s)", oo, mm, ratio > 1.2 ? "**" : "", ratio, ratio > 1.2 ? "**" : "", substr(r[lib, key], 2))
        if (ratio > 1.2) over[lib] = over[lib] sprintf(" %s %d (%.2f);", order[c], sl[i], ratio)
        total[lib]++; if (ratio > 1.2) bad[lib]++
      } else line = line " | - | - | -"
    }
    print line " | " alg["ompi", key] " |"
  }
  for (q = 1; q <= 2; q++) {
    lib = q == 1 ? "ompi" : "mpich"
    if (total[lib] > 0) printf "\n%s: %d of %d cells within 1.2x; above:%s\n", lib == "ompi" ? "Open MPI" : "MPICH", total[lib] - bad[lib], total[lib], bad[lib] ? over[lib] : " none"
  }
}'
