#!/bin/sh
# mpi_bench.sh - optcast's collectives against Open MPI's (or MPICH's), one
# mpirun per row set (build/bench_mpi alternates the two on the same buffers;
# docs/RUNTIME.md).
#   sh bench/mpi_bench.sh [PROCS] [ITERS] [PARAMS]
#   MPI=mpich sh bench/mpi_bench.sh ...   the same with MPICH (make mpi-mpich):
#     mpiexec.mpich, build/mpich/, MPICH's broadcast algorithms forced through
#     MPIR_CVAR_BCAST_INTRA_ALGORITHM
#     PROCS   rank counts, default "2 4 8 16"
#     ITERS   timed iterations per implementation and size, default 15
#     PARAMS  an optcast parameter file; default "measure": before each rank
#             count, build/optcast_measure_mpi runs on that many ranks (all
#             pairs at once, so the figures carry the load) and its file is used
# Runs: Open MPI's default choice for all five collectives, then each of its
# broadcast algorithms forced (coll_tuned_use_dynamic_rules=1,
# coll_tuned_bcast_algorithm=N).  Prints bench_mpi's lines, prefixed by the
# rank count and the MPI algorithm, and a closing summary of the largest
# optcast/MPI ratio per collective.
set -u
PROCS=${1:-"2 4 8 16"}
ITERS=${2:-15}
PARAMS=${3:-measure}
case ${MPI:-openmpi} in
openmpi)
  B=build
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  MPIRUN="mpirun --oversubscribe --mca mpi_yield_when_idle 1"
  ALGS="1:basic_linear 2:chain 3:pipeline 4:split_binary_tree 5:binary_tree 6:binomial
        7:knomial 8:scatter_allgather 9:scatter_allgather_ring" ;;
mpich)
  B=build/mpich
  MPIRUN=mpiexec.mpich
  ALGS="binomial scatter_recursive_doubling_allgather scatter_ring_allgather pipelined_tree
        tree" ;;
*) echo "mpi_bench: MPI: '$MPI' is neither openmpi nor mpich" >&2; exit 2 ;;
esac
BIN=$B/bench_mpi
[ -x "$BIN" ] || { echo "mpi_bench: $BIN missing (make mpi, make mpi-mpich)" >&2; exit 2; }
OUT=$(mktemp)
PF=$(mktemp)
trap 'rm -f "$OUT" "$PF"' EXIT
if [ "${MPI:-openmpi}" = openmpi ]; then version=$(mpirun --version | head -1)
else version=$(mpichversion | head -1 | tr -s ' \t' ' '); fi
echo "# machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; $version"
echo "# P mpi_algorithm coll size_bytes optcast_us mpi_us ratio segments optcast_algorithm"
for P in $PROCS; do
  if [ "$PARAMS" = measure ]; then
    timeout 600 $MPIRUN -n "$P" $B/optcast_measure_mpi --reps 15 \
      --sizes 8,64,512,4096,16384,65536,262144,1048576,4194304 --out "$PF" > /dev/null 2>&1 \
      || { echo "mpi_bench: measuring on $P ranks failed" >&2; exit 1; }
    EXTRA="--params $PF"
  else
    EXTRA="--params $PARAMS"
  fi
  timeout 1200 $MPIRUN -n "$P" "$BIN" --iters "$ITERS" $EXTRA 2>&1 \
    | grep -v '^#' | sed "s/^/$P default /" | tee -a "$OUT"
  for alg in $ALGS; do
    n=${alg%%:*}
    name=${alg#*:}
    if [ "${MPI:-openmpi}" = openmpi ]; then
      set -- env OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_bcast_algorithm="$n"
    else
      set -- env MPIR_CVAR_BCAST_INTRA_ALGORITHM="$name"
    fi
    "$@" timeout 1200 $MPIRUN -n "$P" "$BIN" --coll bcast --iters "$ITERS" $EXTRA 2>&1 \
      | grep -v '^#' | sed "s/^/$P $name /" | tee -a "$OUT"
  done
done
echo "# largest optcast/MPI ratio per collective against the default choice (P size):"
awk '$2 == "default" && NF >= 7 { k = $3; if (!(k in m) || $7 > m[k]) { m[k] = $7; w[k] = $1 " " $4 } }
     END { for (k in m) printf "#   %-10s %.3f at P=%s bytes\n", k, m[k], w[k] }' "$OUT"
echo "# broadcast: largest ratio against every forced algorithm:"
awk '$3 == "bcast" && NF >= 7 { if ($7 > m) { m = $7; w = $1 " " $2 " " $4 } }
     END { printf "#   %.3f at P=%s bytes\n", m, w }' "$OUT"
