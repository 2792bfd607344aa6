#!/bin/sh
# tests/mpi/run.sh - `make mpi-check`: the MPI tests (docs/MPI.md).  Builds
# nothing (make mpi-check builds first).  For np = 1 2 3 5 8 16 33:
#   test_coll_mpi                      optcast's C API over the MPI transport
#   test_interpose                     a plain MPI program, the MPI library alone
#   test_interpose + LD_PRELOAD        the same under build/liboptcast_mpi.so,
#                                      OPTCAST_MPI_STATS=1: the interposer must
#                                      report intercepted calls, and pass as many
#                                      checks as the plain run
# then the switches (OPTCAST_MPI=off, OPTCAST_PARAMS, OPTCAST_CHECK=1, a bad
# OPTCAST_PARAMS) and
# clang-tidy on the MPI sources with MPI's include path (the project-wide
# clang-tidy cannot see mpi.h).  Each counts once; closes with
# "mpi-check: N passed, N failed" (exit 1 on failure).  Logs: $MPI_BUILD/mpi-logs/.
# With an MPI other than Open MPI, the plain program failing under the MPI
# library alone (and OPTCAST_MPI=off, which is the same) is reported as KNOWN,
# not failed: MPICH 4.0.2's own collectives crash on two of its calls
# (docs/MPI.md); the LD_PRELOAD run must pass every check all the same.
# MPI_NPS="1 2 3" limits the rank counts.  MPIRUN, MPICC and MPI_BUILD (the
# programs' directory, default build) choose the MPI: make mpi-check-mpich sets
# mpiexec.mpich, mpicc.mpich and build/mpich.
set -u
cd "$(dirname "$0")/../.." || exit 2
MPIRUN=${MPIRUN:-mpirun}
MPICC=${MPICC:-mpicc}
B=${MPI_BUILD:-build}
tp=0; tf=0; tk=0
pass() { tp=$((tp + 1)); echo "ok   $1"; }
# the MPI library alone failing where optcast is not involved (not Open MPI's)
known() { tk=$((tk + 1)); echo "KNOWN $1"; }
fail() { tf=$((tf + 1)); echo "FAIL $1"; }
logs=$B/mpi-logs
mkdir -p "$logs"
for f in $B/test_coll_mpi $B/test_interpose $B/liboptcast_mpi.so; do
  if [ ! -e "$f" ]; then echo "mpi-check: $f missing (run make mpi-check)"; exit 2; fi
done
preload="$PWD/$B/liboptcast_mpi.so"

# Open MPI: oversubscribe the cores, yield when idle, allow root (containers);
# environment for the ranks through -x.  Other MPIs (MPICH's hydra) pass the
# whole environment on.
if $MPIRUN --version 2>/dev/null | grep -q 'Open MPI'; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  ompi=1
else
  ompi=0
fi
# run NP TIMEOUT LOG [VAR=VALUE ...] -- PROGRAM
run() {
  np=$1; limit=$2; log=$3; shift 3
  envs=""; xs=""
  while [ "$1" != "--" ]; do
    envs="$envs $1"; xs="$xs -x $1"; shift
  done
  shift
  if [ "$ompi" = 1 ]; then
    # shellcheck disable=SC2086
    timeout "$limit" $MPIRUN --oversubscribe --mca mpi_yield_when_idle 1 -np "$np" $xs "$@" > "$log" 2>&1
  else
    # shellcheck disable=SC2086
    env $envs timeout "$limit" $MPIRUN -np "$np" "$@" > "$log" 2>&1
  fi
}
# the "NAME: N passed, M failed" line of a log, "" if none
summary() { grep "^$1: [0-9]* passed, [0-9]* failed$" "$2" | tail -n 1; }
passed_of() { s=${1#*: }; echo "${s%% passed*}"; }
failed_of() { s=${1#*passed, }; echo "${s%% failed*}"; }
show() { grep -v '^ok' "$1" | tail -n 15; }

for np in ${MPI_NPS:-1 2 3 5 8 16 33}; do
  limit=120
  [ "$np" -ge 16 ] && limit=200
  [ "$np" -ge 32 ] && limit=300
  log=$logs/coll_np$np.log
  t0=$(date +%s)
  run "$np" "$limit" "$log" -- $B/test_coll_mpi; rc=$?
  s=$(summary test_coll_mpi "$log")
  if [ "$rc" -eq 0 ] && [ -n "$s" ] && [ "$(failed_of "$s")" = 0 ]; then
    pass "np=$np $s ($(( $(date +%s) - t0 )) s)"
  else
    show "$log"; fail "np=$np test_coll_mpi (exit $rc${s:+, $s}; $log)"
  fi

  log=$logs/plain_np$np.log
  t0=$(date +%s)
  run "$np" "$limit" "$log" -- $B/test_interpose; rc=$?
  plain=$(summary test_interpose "$log")
  if [ "$rc" -eq 0 ] && [ -n "$plain" ] && [ "$(failed_of "$plain")" = 0 ]; then
    pass "np=$np MPI alone: $plain ($(( $(date +%s) - t0 )) s)"
  elif [ "$ompi" = 0 ]; then
    # another MPI's own collectives fail the same program (MPICH 4.0.2:
    # docs/MPI.md); the run under optcast below must still pass every check
    known "np=$np the MPI library alone fails test_interpose (exit $rc${plain:+, $plain}; after: \
$(grep '^ok' "$log" | tail -n 1 | cut -c6-); $log)"
    plain=""
  else
    show "$log"; fail "np=$np test_interpose without optcast (exit $rc${plain:+, $plain}; $log)"
  fi

  log=$logs/preload_np$np.log
  t0=$(date +%s)
  run "$np" "$limit" "$log" LD_PRELOAD="$preload" OPTCAST_MPI_STATS=1 -- $B/test_interpose; rc=$?
  s=$(summary test_interpose "$log")
  stats=$(grep '^optcast: intercepted [0-9]* calls' "$log" | tail -n 1)
  n=$(echo "$stats" | sed -n 's/^optcast: intercepted \([0-9]*\) calls.*/\1/p')
  if [ "$rc" -eq 0 ] && [ -n "$s" ] && [ "$(failed_of "$s")" = 0 ] && [ "${n:-0}" -gt 0 ] &&
     { [ -z "$plain" ] || [ "$(passed_of "$s")" = "$(passed_of "$plain")" ]; }; then
    pass "np=$np LD_PRELOAD: $s; $stats ($(( $(date +%s) - t0 )) s)"
  else
    show "$log"
    fail "np=$np test_interpose under LD_PRELOAD (exit $rc${s:+, $s}, ${stats:-no stats line}; $log)"
  fi
done

# a rank dies inside a collective: the job must end with an error (optcast's
# timeout or MPI aborting it), within the limit, never hang
log=$logs/die.log
t0=$(date +%s)
run 3 60 "$log" -- $B/test_coll_mpi --die; rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ]; then
  pass "a rank dies in an allreduce: the job ends with exit $rc in $(( $(date +%s) - t0 )) s"
else
  show "$log"; fail "a rank dies in an allreduce: exit $rc (0: nobody noticed; 124: hang) ($log)"
fi

# OPTCAST_MPI=off: everything goes to the MPI library
log=$logs/off.log
run 3 120 "$log" LD_PRELOAD="$preload" OPTCAST_MPI_STATS=1 OPTCAST_MPI=off -- $B/test_interpose; rc=$?
s=$(summary test_interpose "$log")
if [ "$rc" -eq 0 ] && [ -n "$s" ] && [ "$(failed_of "$s")" = 0 ] &&
   grep -q '^optcast: intercepted 0 calls .*passed to MPI [1-9][0-9]*$' "$log"; then
  pass "OPTCAST_MPI=off: $s; $(grep '^optcast: intercepted' "$log")"
elif [ "$ompi" = 0 ] && [ "$tk" -gt 0 ]; then
  known "OPTCAST_MPI=off: the MPI library alone fails as above ($log)"
else
  show "$log"; fail "OPTCAST_MPI=off ($log)"
fi

# OPTCAST_PARAMS: a machine where pipelining pays (high latency, slow
# bandwidth: many segments), and OPTCAST_TIMEOUT_MS
params=$logs/slow.params
cat > "$params" <<'EOF'
# optcast parameters v1
transport mpi-check
procs 5
# bytes L_us os_us or_us g_us
8 40 0.5 0.5 0.5
65536 60 1 1 400
4194304 100 10 10 25000
EOF
log=$logs/params.log
run 5 120 "$log" LD_PRELOAD="$preload" OPTCAST_MPI_STATS=1 OPTCAST_PARAMS="$PWD/$params" \
  OPTCAST_TIMEOUT_MS=20000 -- $B/test_interpose; rc=$?
s=$(summary test_interpose "$log")
if [ "$rc" -eq 0 ] && [ -n "$s" ] && [ "$(failed_of "$s")" = 0 ] &&
   grep -q '^optcast: intercepted [1-9]' "$log" && ! grep -q 'OPTCAST_PARAMS' "$log"; then
  pass "OPTCAST_PARAMS=$params, OPTCAST_TIMEOUT_MS=20000: $s"
else
  show "$log"; fail "OPTCAST_PARAMS ($log)"
fi

# OPTCAST_CHECK=1: every call first agrees on its arguments (oc_comm_set_check)
log=$logs/check.log
run 5 120 "$log" LD_PRELOAD="$preload" OPTCAST_MPI_STATS=1 OPTCAST_CHECK=1 -- $B/test_interpose; rc=$?
s=$(summary test_interpose "$log")
if [ "$rc" -eq 0 ] && [ -n "$s" ] && [ "$(failed_of "$s")" = 0 ] && grep -q '^optcast: intercepted [1-9]' "$log"; then
  pass "OPTCAST_CHECK=1: $s"
else
  show "$log"; fail "OPTCAST_CHECK=1 ($log)"
fi

# a parameter file that does not exist: one warning, the defaults, all right
log=$logs/params_bad.log
run 2 120 "$log" LD_PRELOAD="$preload" OPTCAST_PARAMS=/nonexistent/optcast.params -- $B/test_interpose; rc=$?
s=$(summary test_interpose "$log")
if [ "$rc" -eq 0 ] && [ -n "$s" ] && [ "$(failed_of "$s")" = 0 ] &&
   [ "$(grep -c '^optcast: OPTCAST_PARAMS=/nonexistent/optcast.params: .*using the defaults$' "$log")" = 1 ]; then
  pass "OPTCAST_PARAMS missing file: one warning, defaults used; $s"
else
  show "$log"; fail "OPTCAST_PARAMS missing file ($log)"
fi

# ASan + UBSan: the C API over MPI (test_coll_mpi built with the sanitizers)
# and the interposer (its sanitized build preloaded after libasan into the
# plain test program).  Leak detection is off: Open MPI keeps its own
# allocations to the end.
san_env="ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1"
libasan=$(${CC:-cc} -print-file-name=libasan.so 2>/dev/null)
for np in 1 3 5; do
  log=$logs/san_coll_np$np.log
  # shellcheck disable=SC2086
  run "$np" 300 "$log" $san_env -- $B/test_coll_mpi_san; rc=$?
  s=$(summary test_coll_mpi "$log")
  if [ "$rc" -eq 0 ] && [ -n "$s" ] && [ "$(failed_of "$s")" = 0 ] &&
     ! grep -q 'ERROR: AddressSanitizer\|runtime error:' "$log"; then
    pass "ASan+UBSan np=$np $s"
  else
    show "$log"; fail "ASan+UBSan np=$np test_coll_mpi_san (exit $rc; $log)"
  fi
  if [ -f "$libasan" ]; then
    log=$logs/san_interpose_np$np.log
    # shellcheck disable=SC2086
    run "$np" 300 "$log" $san_env LD_PRELOAD="$libasan:$PWD/$B/liboptcast_mpi_san.so" \
      OPTCAST_MPI_STATS=1 -- $B/test_interpose; rc=$?
    s=$(summary test_interpose "$log")
    if [ "$rc" -eq 0 ] && [ -n "$s" ] && [ "$(failed_of "$s")" = 0 ] &&
       grep -q '^optcast: intercepted [1-9]' "$log" &&
       ! grep -q 'ERROR: AddressSanitizer\|runtime error:' "$log"; then
      pass "ASan+UBSan interposer np=$np $s"
    else
      show "$log"; fail "ASan+UBSan interposer np=$np (exit $rc; $log)"
    fi
  fi
done

# clang-tidy (.clang-tidy) on the MPI sources, with MPI's include path
if command -v clang-tidy >/dev/null 2>&1; then
  inc=$($MPICC --showme:compile 2>/dev/null || $MPICC -show 2>/dev/null)
  inc=$(for w in $inc; do case $w in -I*) printf ' -isystem %s' "${w#-I}" ;; esac; done)
  # shellcheck disable=SC2086
  if clang-tidy --quiet src/rt/rt_mpi.c src/mpi/mpi_interpose.c -- -std=c11 -D_POSIX_C_SOURCE=200809L \
       -Iinclude -Isrc $inc > "$logs/clang-tidy.log" 2>&1; then
    pass "clang-tidy src/rt/rt_mpi.c src/mpi/mpi_interpose.c"
  else
    grep -E 'warning|error' "$logs/clang-tidy.log" | head -n 20; fail "clang-tidy on the MPI sources"
  fi
else
  echo "SKIP clang-tidy on the MPI sources (clang-tidy not installed)"
fi

if [ "$tk" -gt 0 ]; then
  echo "mpi-check: $tp passed, $tf failed ($tk KNOWN: the MPI library alone, not optcast)"
else
  echo "mpi-check: $tp passed, $tf failed"
fi
[ "$tf" -eq 0 ]
