#!/bin/sh
# mpi_table.sh - markdown tables from mpi_bench.sh's output (stdin):
#   1. per collective: optcast / Open MPI's default choice, size x ranks
#      (optcast's median and MPI's median in microseconds, then the ratio);
#   2. broadcast: optcast / each forced Open MPI algorithm, the worst and the
#      best ratio over sizes per rank count.
# Lines: P mpi_algorithm coll size optcast_us mpi_us ratio segments algorithm
awk '
/^#/ { next }
NF >= 9 {
  P = $1; alg = $2; k = $3; sz = $4
  if (alg == "default") {
    key = k SUBSEP sz SUBSEP P
    cell[key] = sprintf("%.1f / %.1f = **%.2f** (%s)", $5, $6, $7, $9)
    colls[k] = 1; sizes[sz] = 1; procs[P] = 1
  } else if (k == "bcast") {
    fk = alg SUBSEP P
    if (!(fk in lo) || $7 < lo[fk]) lo[fk] = $7
    if (!(fk in hi) || $7 > hi[fk]) { hi[fk] = $7; hiat[fk] = sz }
    forced[alg] = 1
  }
}
END {
  np = 0; for (p in procs) plist[++np] = p + 0
  for (i = 1; i <= np; i++) for (j = i + 1; j <= np; j++) if (plist[j] < plist[i]) { t = plist[i]; plist[i] = plist[j]; plist[j] = t }
  ns = 0; for (s in sizes) slist[++ns] = s + 0
  for (i = 1; i <= ns; i++) for (j = i + 1; j <= ns; j++) if (slist[j] < slist[i]) { t = slist[i]; slist[i] = slist[j]; slist[j] = t }
  split("bcast reduce allreduce allgather scan", order, " ")
  for (c = 1; c <= 5; c++) {
    k = order[c]; if (!(k in colls)) continue
    printf "\n**%s**: optcast us / Open MPI us = optcast/MPI (optcast algorithm)\n\n| bytes |", k
    for (i = 1; i <= np; i++) printf " P = %d |", plist[i]
    printf "\n| ---: |"; for (i = 1; i <= np; i++) printf " --- |"; printf "\n"
    for (s = 1; s <= ns; s++) {
      printf "| %d |", slist[s]
      for (i = 1; i <= np; i++) { key = k SUBSEP slist[s] SUBSEP plist[i]; printf " %s |", (key in cell) ? cell[key] : "" }
      printf "\n"
    }
  }
  printf "\n**bcast against each forced Open MPI algorithm**: optcast/MPI, best .. worst over the sizes (worst at bytes)\n\n| algorithm |"
  for (i = 1; i <= np; i++) printf " P = %d |", plist[i]
  printf "\n| --- |"; for (i = 1; i <= np; i++) printf " --- |"; printf "\n"
  for (a in forced) {
    printf "| %s |", a
    for (i = 1; i <= np; i++) { fk = a SUBSEP plist[i]; if (fk in lo) printf " %.2f .. %.2f (%s) |", lo[fk], hi[fk], hiat[fk]; else printf " |" }
    printf "\n"
  }
}'
