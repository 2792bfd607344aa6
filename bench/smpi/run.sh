#!/bin/sh
# bench/smpi/run.sh - optcast's MPI runtime against SMPI's collectives on
# simulated clusters (SimGrid's SMPI: unmodified MPI programs, simulated time,
# deterministic).  docs/SMPI.md has the method and the figures.
#
#   bench/smpi/run.sh [--smoke] [--nets "ib eth"] [--procs "16 64"]
#                     [--sizes 8,1024,...] [--colls "bcast reduce ..."]
#                     [--selectors "ompi mpich"] [--iters N] [--algs] [--report]
#                     [--cell-timeout S] [--split] [--tag T] [--alg-names "A B ..."]
#
# For each network, the PLogP parameters are first measured on the simulated
# cluster itself (build-smpi/optcast_measure_mpi, 2 ranks) and handed to
# optcast (--params); then build-smpi/bench_mpi runs every collective and
# size with optcast and SMPI's collective alternating, once per selector
# (SMPI's copies of Open MPI's and MPICH's algorithm choices).  Every rank's
# result is checked on every iteration (bench_mpi stops with exit 1 on a
# wrong one).  Raw lines go to build-smpi/run/ (smoke: build-smpi/smoke/),
# the table to stdout.
# --smoke: P = 16, two sizes, every collective, the ompi selector, on the
# InfiniBand-like cluster; exit 1 unless every line came out (make check).
# --algs: also every single SMPI algorithm of bcast, reduce, allreduce and
# allgather (--cfg=smpi/COLL:NAME; the names are SMPI's own list, read from
# the error it gives for an unknown one; its choosers default, ompi, mpich,
# mvapich2, impi and automatic left out), MPI's collective alone
# (bench_mpi --mpi-only), each algorithm in its own run so that one that
# crashes or hangs (20 minutes) or gives a wrong result is reported and the
# sweep goes on; the table gains the best single algorithm per cell.
# --report: no runs, the table from the raw lines of earlier ones.
# --cell-timeout S: each (collective, size) of the selector runs in its own
# simulation, stopped after S seconds; a cell stopped so is named on stderr
# and in the raw file ("# TIMEOUT coll size") and left out of the table
# (SimGrid's time grows faster than linearly with the messages in flight:
# at 256 ranks a pattern with P^2 small messages can take hours).
# --split: each (collective, size) runs optcast's call alone
# (bench_mpi --optcast-only, once) and each selector's MPI call alone
# (--mpi-only), each in a simulation of its own (a cell whose two calls do
# not fit in one simulation's time); implies one simulation a size.
# --tag T: the raw files of this invocation are NET-PP-WHAT-T.txt, beside
# those of other invocations (each invocation truncates its own files
# only); the table reads them all.
# --alg-names "A B ...": with --algs, only those of SMPI's algorithms
# (for sizes where the whole list takes too long).
set -eu
cd "$(dirname "$0")/../.."

SMOKE=0
REPORT=0
NETS="ib eth"
PROCS="16 64"
SIZES="8,1024,65536,1048576,4194304"
COLLS="bcast reduce allreduce allgather scan"
SELECTORS="ompi mpich"
ITERS=3
ALGS=0
CELLTMO=
SPLIT=0
TAG=
ANAMES=
die() { echo "smpi/run.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
  --smoke) SMOKE=1; shift; continue ;;
  --report) REPORT=1; shift; continue ;;
  --algs) ALGS=1; shift; continue ;;
  --split) SPLIT=1; shift; continue ;;
  --nets | --procs | --sizes | --colls | --selectors | --iters | --cell-timeout | --tag | --alg-names)
    [ $# -ge 2 ] || die "$1: missing value" ;;
  *) die "unknown argument '$1' (see the top of bench/smpi/run.sh)" ;;
  esac
  case "$1" in
  --nets) NETS=$2 ;;
  --procs) PROCS=$2 ;;
  --sizes) SIZES=$2 ;;
  --colls) COLLS=$2 ;;
  --selectors) SELECTORS=$2 ;;
  --iters) ITERS=$2 ;;
  --cell-timeout) CELLTMO=$2 ;;
  --tag) TAG=$2 ;;
  --alg-names) ANAMES=$2 ;;
  esac
  shift 2
done
if [ "$SMOKE" = 1 ]; then
  NETS=ib PROCS=16 SIZES=8,65536 SELECTORS=ompi ITERS=2
fi
for n in $NETS; do case $n in ib | eth) ;; *) die "--nets: unknown network '$n' (ib, eth)" ;; esac; done
for p in $PROCS; do
  case $p in '' | *[!0-9]*) die "--procs: '$p' is not a count" ;; esac
  [ "$p" -ge 2 ] && [ "$p" -le 1024 ] || die "--procs: $p is outside 2..1024"
done
case $SIZES in '' | *[!0-9,]* | ,* | *, | *,,*) die "--sizes: '$SIZES' is not a list of byte counts" ;; esac
for c in $COLLS; do
  case $c in bcast | reduce | allreduce | allgather | scan) ;; *) die "--colls: unknown collective '$c'" ;; esac
done
for s in $SELECTORS; do case $s in ompi | mpich) ;; *) die "--selectors: unknown selector '$s' (ompi, mpich)" ;; esac; done
case $ITERS in '' | *[!0-9]* | 0) die "--iters: '$ITERS' is not a positive count" ;; esac

OUT=build-smpi/run
[ "$SMOKE" = 0 ] || OUT=build-smpi/smoke # (the benchmark's raw lines stay)
# SimGrid: Debian's package, as .ci/run installs the other tools
if [ "$REPORT" = 0 ] && ! command -v smpicc >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "smpi/run.sh: smpicc not found: installing Debian's libsimgrid-dev" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libsimgrid-dev >&2
  else
    die "smpicc not found: install SimGrid's SMPI (Debian: apt-get install libsimgrid-dev)"
  fi
fi
[ "$REPORT" = 1 ] || make -s smpi-build >&2
mkdir -p "$OUT"
# The clusters: one rank per host, every host on its own full-duplex link to
# a non-blocking switch (SimGrid's <cluster>: a message crosses its sender's
# and its receiver's links).  ib: 1.5 us and 12.5 GB/s a link (InfiniBand
# HDR-like); eth: 10 us and 1.25 GB/s (10 Gb Ethernet-like).
platform() { # net: writes $OUT/net.xml
  case $1 in
  ib) lat=1.5us bw=12.5GBps ;;
  eth) lat=10us bw=1.25GBps ;;
  esac
  cat >"$OUT/$1.xml" <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="$1" prefix="node-" suffix="" radical="0-1023" speed="1Gf"
           bw="$bw" lat="$lat" sharing_policy="SPLITDUPLEX" bb_bw="10000GBps" bb_lat="0us"/>
</platform>
EOF
}

# smpirun with the settings every run shares (the callers keep its messages);
# under `timeout $TMO` when TMO is set.  smpirun passes the timeout's TERM on
# to the simulator, which may not stop for it: after a timeout the simulator
# of this benchmark is killed outright
TMO=
# smpirun hands the simulator TMPDIR (--cfg=smpi/tmpdir:...): one of its
# own per invocation tells this invocation's simulators from those of
# others running beside it
RUNTMP=$(mktemp -d "${TMPDIR:-/tmp}/optcast-smpi.XXXXXX")
trap 'rm -rf "$RUNTMP"' EXIT
trap 'exit 130' INT TERM # (the EXIT trap then cleans up)
export TMPDIR="$RUNTMP"
smpi() { # net np args...
  net=$1 np=$2
  shift 2
  ${TMO:+timeout "$TMO"} smpirun -np "$np" -platform "$OUT/$net.xml" -hostfile "$OUT/hosts" \
    --cfg=smpi/simulate-computation:no --log=root.thres:warning "$@"
  rc=$?
  if [ "$rc" = 124 ]; then # (this invocation's simulator only: its own temporary directory)
    sleep 2
    pkill -KILL -f "simgrid/smpimain build-smpi/.*smpi/tmpdir:$RUNTMP " 2>/dev/null
  fi
  return "$rc"
}

# the measured sizes: every power of two from 8 B to 4 MiB (SMPI's cost of a
# message changes by pieces with its size; the runtime interpolates between rows)
MSIZES=$(awk 'BEGIN { for (s = 8; s <= 4194304; s *= 2) printf "%s%d", (s > 8 ? "," : ""), s }')
# the sizes a collective runs at: allgather's P^2 size bytes at most 2 GiB
sizes_for() { # coll P
  if [ "$1" = allgather ]; then
    echo "$SIZES" | tr , '\n' | awk -v P="$2" 'P * P * $1 <= 2147483648' | paste -sd, -
  else
    echo "$SIZES"
  fi
}

# SMPI's single algorithms for a collective: the list it prints for an
# unknown name, without its choosers
alg_names() { # net coll
  smpi "$1" 2 --cfg=smpi/"$2":optcast-none build-smpi/bench_mpi --coll bcast --sizes 8 \
    --iters 1 2>&1 | sed -n 's/.*Valid algorithms: \(.*\)\.$/\1/p' | tr ',' '\n' |
    tr -d ' ' | grep -Evx 'default|ompi|mpich|mvapich2|impi|automatic|' || true
}

# The clusters compute for free (smpi/simulate-computation:no): the runtime's
# model is told that a combination costs nothing (its default, 0.1 ns a byte,
# is a real machine's vectorised sum)
export OPTCAST_COMBINE_NS=0

status=0
[ "$REPORT" = 1 ] || seq 0 1023 | sed 's/^/node-/' >"$OUT/hosts"
for net in $NETS; do
  [ "$REPORT" = 0 ] || break
  platform "$net"
  prm=$OUT/$net.params
  LOG=$OUT/$net.log
  if [ ! -s "$prm" ]; then
    echo "smpi/run.sh: $net: measuring the PLogP parameters (2 ranks)" >&2
    smpi "$net" 2 build-smpi/optcast_measure_mpi --sizes "$MSIZES" --out "$prm" >"$LOG" 2>&1 ||
      { cat "$LOG" >&2; die "$net: the measurement failed (log: $LOG)"; }
  fi
  for P in $PROCS; do
    # --split: optcast alone first (the "optcast" raw file), then each
    # selector's MPI alone
    for sel in $([ "$SPLIT" = 0 ] || echo optcast) $SELECTORS; do
      raw=$OUT/$net-P$P-$sel${TAG:+-$TAG}.txt
      : >"$raw"
      only=
      [ "$SPLIT" = 0 ] || only=--mpi-only
      [ "$sel" != optcast ] || only=--optcast-only
      for coll in $COLLS; do
        sz=$(sizes_for "$coll" "$P")
        [ -n "$sz" ] || continue
        echo "smpi/run.sh: $net P=$P $sel $coll $sz" >&2
        cells=$sz # one simulation for all sizes, or (--cell-timeout, --split) one a size
        [ -z "$CELLTMO" ] && [ "$SPLIT" = 0 ] || cells=$(echo "$sz" | tr , ' ')
        for one in $cells; do
          rc=0
          TMO=$CELLTMO
          OPTCAST_BENCH_LABEL="SMPI selector $sel" smpi "$net" "$P" \
            --cfg=smpi/coll-selector:"$([ "$sel" = optcast ] && echo ompi || echo "$sel")" \
            build-smpi/bench_mpi --coll "$coll" --sizes "$one" $only \
            --iters "$ITERS" --params "$prm" >>"$raw" 2>>"$LOG" || rc=$?
          TMO=
          case $rc in
          0) ;;
          124) echo "# TIMEOUT $coll $one" >>"$raw"
               echo "smpi/run.sh: $net P=$P $sel $coll $one: not simulated within $CELLTMO s" >&2 ;;
          *) echo "smpi/run.sh: $net P=$P $sel $coll $one: bench_mpi failed (log: $LOG)" >&2
             status=1 ;;
          esac
        done
      done
    done
    [ "$ALGS" = 1 ] || continue
    raw=$OUT/$net-P$P-algs${TAG:+-$TAG}.txt
    : >"$raw"
    for coll in $COLLS; do
      [ "$coll" != scan ] || continue # SMPI has one scan
      sz=$(sizes_for "$coll" "$P")
      [ -n "$sz" ] || continue
      for name in $(alg_names "$net" "$coll"); do
        if [ -n "$ANAMES" ]; then # --alg-names: those only
          case " $ANAMES " in *" $name "*) ;; *) continue ;; esac
        fi
        echo "smpi/run.sh: $net P=$P $coll algorithm $name $sz" >&2
        echo "== $name" >>"$raw"
        rc=0
        TMO=1200
        OPTCAST_BENCH_LABEL="SMPI $coll algorithm $name" smpi "$net" "$P" \
          --cfg=smpi/"$coll":"$name" build-smpi/bench_mpi --mpi-only --coll "$coll" \
          --sizes "$sz" --iters "$ITERS" --params "$prm" >>"$raw" 2>>"$LOG" || rc=$?
        TMO=
        case $rc in
        0) ;;
        3) echo "smpi/run.sh: $net P=$P $coll $name: a wrong result (raw: $raw)" >&2 ;;
        *) echo "!! $coll $name exit $rc" >>"$raw"
           echo "smpi/run.sh: $net P=$P $coll $name: failed, exit $rc (log: $LOG)" >&2 ;;
        esac
      done
    done
  done
done

# The table: a row per (network, collective, P, size)
echo "| net | collective | P | bytes | optcast us | predicted us | $(echo $SELECTORS | sed 's/ / us | /g') us | optcast / best selector | best single SMPI algorithm, us | optcast / it | optcast ran |"
echo "| --- | --- | ---: | ---: | ---: | ---: |$(for s in $SELECTORS; do printf ' ---: |'; done) ---: | --- | ---: | --- |"
for net in $NETS; do
  for P in $PROCS; do
    # (every invocation's raw files: untagged and --tag'ged; optcast's own
    # lines of --split first: its columns, no selector's)
    { echo "== optcast"; cat "$OUT/$net-P$P"-optcast*.txt 2>/dev/null || true
      for f in $SELECTORS; do
        echo "== $f"; cat "$OUT/$net-P$P-$f.txt" "$OUT/$net-P$P-$f"-*.txt 2>/dev/null || true
      done
      echo "=A"; cat "$OUT/$net-P$P"-algs*.txt 2>/dev/null || true; } |
      awk -v net="$net" -v P="$P" -v sels="$SELECTORS" '
        /^=A$/ { inalg = 1; next }
        inalg && /^== / { an = $2; next }
        inalg && $3 == "-" && $4 ~ /^[0-9.]+$/ {
          k = $1 " " $2; if (!(k in ab) || $4 + 0 < ab[k] + 0) { ab[k] = $4; abn[k] = an }; next }
        inalg { next }
        /^== / { sel = $2; next }
        NF < 8 || $1 !~ /^(bcast|reduce|allreduce|allgather|scan)$/ { next }
        { k = $1 " " $2  # (the algorithm may be two words: "reversed two-tree"; the prediction is last)
          if ((!(k in seen) || oc[k] == "-") && $3 != "-") { if (!(k in seen)) order[++n] = k
            seen[k] = 1; oc[k] = $3; pr[k] = $NF < 0 ? "-" : $NF
            an2 = $7; for (f = 8; f < NF; f++) an2 = an2 " " $f; alg[k] = an2 "/" $6 }
          else if (!(k in seen)) { seen[k] = 1; order[++n] = k; oc[k] = "-"; pr[k] = "-"; alg[k] = "-" }
          if (sel != "optcast" && $4 != "-") t[k SUBSEP sel] = $4 }
        END {
          ns = split(sels, S, " ")
          for (i = 1; i <= n; i++) {
            k = order[i]; split(k, a, " "); best = -1; row = ""
            for (j = 1; j <= ns; j++) {
              key = k SUBSEP S[j]; v = (key in t) ? t[key] : ""
              row = row " | " (v == "" ? "-" : v)
              if (v != "" && (best < 0 || v + 0 < best)) best = v + 0
            }
            printf "| %s | %s | %d | %s | %s | %s%s | %s | %s | %s | %s |\n", net, a[1], P, a[2], oc[k], pr[k], row,
                   (best > 0 && oc[k] != "-" ? sprintf("%.2f", oc[k] / best) : "-"),
                   ((k in ab) ? abn[k] " " ab[k] : "-"),
                   ((k in ab) && ab[k] > 0 && oc[k] != "-" ? sprintf("%.2f", oc[k] / ab[k]) : "-"), alg[k]
          }
        }'
  done
done

# the single algorithms that failed: crashed, hung or gave a wrong result
for net in $NETS; do
  for P in $PROCS; do
    for f in "$OUT/$net-P$P"-algs*.txt; do
    [ -s "$f" ] || continue
    awk -v net="$net" -v P="$P" '
      /^== / { an = $2; next }
      $1 == "!!" { printf "- %s, P = %d: %s %s failed (%s %s)\n", net, P, $2, $3, $4, $5 }
      $4 == "WRONG" { printf "- %s, P = %d: %s %s: wrong result at %s bytes\n", net, P, $1, an, $2 }' "$f"
    done
  done
done

if [ "$SMOKE" = 1 ]; then
  want=$(($(echo "$COLLS" | wc -w) * 2))
  got=$(grep -Ec '^(bcast|reduce|allreduce|allgather|scan) ' "$OUT/ib-P16-ompi.txt" || true)
  if [ "$got" -ne "$want" ]; then
    echo "smpi/run.sh: smoke: $got result lines of $want (log: $OUT/ib.log)" >&2
    status=1
  else
    echo "smpi/run.sh: smoke: $got cells, every rank's result checked" >&2
  fi
fi
exit $status
