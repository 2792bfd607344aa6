#!/usr/bin/env bash
# capture.sh - record what the command does, to show that a refactoring changed nothing.
#
#   tools/capture.sh DIR [OPTCAST]     write the capture into DIR (made fresh)
#   tools/capture.sh --compare before/ after/
#                                      compare two captures (the docs' examples by command line)
#
# A capture holds, for each case, the command's stdout, stderr and exit code:
#   corpus/   every command line of fuzz/corpus/cli/* (first line: arguments, the rest: stdin;
#             the measured times of `run` and `measure` masked)
#   docs/     every `$ optcast ...` example of README.md and docs/*.md (continuation lines
#             joined), run in a scratch directory; the files they write are hashed too.
#             Examples of `run` and `measure` time real threads: only their exit code is kept.
#   demo      the output of `make demo`'s three commands
#   random/   the --csv and --json output of a few hundred random instances per problem,
#             from a fixed-seed generator (Park-Miller, exact in awk's doubles), as hashes
# The golden drawings are checked by `make golden` + `git status tests/golden`.
set -u
if [ "${1:-}" = --compare ]; then # --compare BEFORE AFTER: what differs
  a=${2:?usage: tools/capture.sh --compare BEFORE AFTER}; b=${3:?usage: tools/capture.sh --compare BEFORE AFTER}
  bad=0
  diff -r -x docs "$a" "$b" || bad=1
  # the docs' examples by their command line (a doc may have moved or grown): every example
  # of BEFORE that AFTER still has must give the same output and exit code
  same=0 gone=0
  for c in "$a"/docs/*.cmd; do
    m=$(grep -lxF -f "$c" "$b"/docs/*.cmd 2>/dev/null | head -n 1)
    if [ -z "$m" ]; then gone=$((gone + 1)); continue; fi
    for x in out err rc; do
      [ -e "${c%.cmd}.$x" ] || continue
      cmp -s "${c%.cmd}.$x" "${m%.cmd}.$x" || { echo "docs: $(cat "$c"): $x differs"; bad=1; }
    done
    same=$((same + 1))
  done
  echo "docs: $same examples compared, $gone no longer in the docs"
  exit $bad
fi
out=${1:?usage: tools/capture.sh DIR [OPTCAST] | --compare BEFORE AFTER}
top=$(cd "$(dirname "$0")/.." && pwd)
oc=${2:-$top/build/optcast}
case $oc in /*) ;; *) oc=$(pwd)/$oc ;; esac
[ -x "$oc" ] || { echo "capture.sh: no executable '$oc' (make first)" >&2; exit 2; }
N=${CAPTURE_N:-200}
rm -rf "$out" && mkdir -p "$out/corpus" "$out/docs" "$out/random" || exit 2
out=$(cd "$out" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
bin="$scratch/bin"
mkdir -p "$bin" && ln -s "$oc" "$bin/optcast"

# 1. the fuzz corpus of the command line
for f in "$top"/fuzz/corpus/cli/*; do
  name=$(basename "$f")
  read -r -a args < <(head -n 1 "$f")
  tail -n +2 "$f" > "$scratch/stdin"
  (cd "$scratch" && "$oc" "${args[@]}" < "$scratch/stdin" > "$out/corpus/$name.out" 2> "$out/corpus/$name.err")
  echo $? > "$out/corpus/$name.rc"
  case ${args[0]:-} in # measured times vary from run to run: masked
    run|measure) sed -i -E 's/ *[0-9]+\.[0-9]+/ #/g' "$out/corpus/$name.out" ;;
  esac
done

# 2. the examples of the docs, each doc's in order in one scratch directory (later examples
#    read the files earlier ones wrote)
for doc in "$top/README.md" $(find "$top/docs" -name "*.md" | sort); do
  work="$scratch/w"; rm -rf "$work"; mkdir -p "$work"
  i=0
  while IFS= read -r cmd; do
    i=$((i + 1))
    name=$(basename "$doc" .md)_$(printf %03d "$i")
    cmd=${cmd//.\/build\/optcast/optcast}
    printf '%s\n' "$cmd" > "$out/docs/$name.cmd"
    (cd "$work" && PATH="$bin:$PATH" timeout 300 sh -c "$cmd" > "$out/docs/$name.out" 2> "$out/docs/$name.err" < /dev/null)
    echo $? > "$out/docs/$name.rc"
    case $cmd in # real threads or measured parameters: only the exit code is stable
      *"optcast run"*|*"optcast measure"*|*.params*) rm -f "$out/docs/$name.out" "$out/docs/$name.err" ;;
    esac
  done < <(awk '
    /^\$ / { cmd = substr($0, 3); while (cmd ~ /\\$/ && (getline line) > 0) cmd = substr(cmd, 1, length(cmd) - 1) " " line; print cmd }
  ' "$doc")
  (cd "$work" && find . -type f ! -name '*.params' | sort | xargs -r sha256sum) > "$out/docs/$(basename "$doc" .md).files"
done

# 3. make demo's commands
{
  "$oc" plan bcast --procs 8 --latency 6 --overhead 2 --gap 4; echo "rc $?"
  "$oc" plan bcast --procs 8 --latency 6 --overhead 2 --gap 4 --csv \
    | "$oc" verify bcast --procs 8 --latency 6 --overhead 2 --gap 4; echo "rc $?"
  "$oc" plan bcast --model postal --lambda 5/2 --procs 14 --algorithm bar-noy-kipnis --json; echo "rc $?"
} > "$out/demo.out" 2>&1

# 4. random instances: one line per instance with the hashes of --csv and --json and both rcs
gen() { # gen SEED COUNT TEMPLATE: prints COUNT argument lines; TEMPLATE fields are
        # name:lo:hi (a random integer), or literal words; "root" picks 0..P-1 from --procs
  awk -v seed="$1" -v n="$2" -v tpl="$3" '
    function rnd(lo, hi) { s = (s * 16807) % 2147483647; return lo + s % (hi - lo + 1) }
    BEGIN {
      s = seed; nt = split(tpl, t, " ")
      for (c = 0; c < n; c++) {
        line = ""; P = 1
        for (k = 1; k <= nt; k++) {
          w = t[k]
          if (w ~ /^[0-9]+:[0-9]+$/) { split(w, r, ":"); v = rnd(r[1] + 0, r[2] + 0); if (prev == "--procs" || prev == "--operands") P = v; w = v }
          else if (w == "ROOT") w = rnd(0, P - 1)
          else if (w ~ /^\{.*\}$/) { m = split(substr(w, 2, length(w) - 2), alt, "|"); w = alt[rnd(1, m)] }
          if (w != "") line = line (line != "" ? " " : "") w
          prev = w
        }
        print line
      }
    }'
}
runset() { # runset NAME SEED COUNT TEMPLATE
  gen "$2" "$3" "$4" | while IFS= read -r line; do
    read -r -a a <<< "$line"
    c=$("$oc" "${a[@]}" --csv 2>&1); rc1=$?
    j=$("$oc" "${a[@]}" --json 2>&1); rc2=$?
    printf '%s | %d %s | %d %s\n' "$line" "$rc1" "$(printf '%s' "$c" | sha256sum | cut -c1-16)" \
      "$rc2" "$(printf '%s' "$j" | sha256sum | cut -c1-16)"
  done > "$out/random/$1"
}
runset bcast_logp 11 "$N" "plan bcast --procs 1:3000 --latency 0:40 --overhead 0:6 --gap 1:12 --root ROOT --algorithm {karp|shou-chen|optimal}"
runset bcast_postal 12 "$N" "plan bcast --model postal --lambda {1|2|3|5/2|7/3|4|11/4} --procs 1:3000 --root ROOT --algorithm {karp|bar-noy-kipnis}"
runset sum 13 "$N" "plan sum --procs 1:200 --latency 0:20 --overhead 0:5 --gap 1:10 --operands 1:3000"
runset reduce 14 "$N" "plan reduce --procs 1:500 --latency 0:20 --overhead 0:5 --gap 1:10 --root ROOT {--commutative|}"
runset allreduce 15 "$N" "plan allreduce --procs 1:300 --latency 0:20 --overhead 0:5 --gap 1:10 {--ordered|}"
runset alltoall 16 "$N" "plan alltoall --procs 1:40 --latency 0:20 --overhead 0:4 --gap 1:8 --items 1:4 {--personalized|}"
runset kbcast_postal 17 "$N" "plan kbcast --lambda {1|2|3|4|5/2|6} --procs 1:120 --items 1:24 --root ROOT --algorithm {repeat|pack|pipeline|dtree|cyclic|greedy|best}"
runset kbcast_kport 18 "$N" "plan kbcast --model kport --ports 1:5 --procs 1:300 --items 1:20 --algorithm {ktree|rotation|best}"
runset cbcast 19 "$N" "plan cbcast --latency 1:12 --procs 2:200 --items 1:30"
runset buffered 20 "$N" "plan kbcast --buffered --lambda 1:8 --procs 2:100 --items 1:20"
runset rrp 21 "$N" "plan {bcast|reduce|scan} --model rrp --procs 1:200 --lines 1:8 --algorithm {sweep|tuned|binomial|best}"
runset bound 22 "$N" "bound {bcast|reduce|allreduce} --procs 1:100000 --latency 0:50 --overhead 0:9 --gap 1:20"
runset bound_sum 25 "$N" "bound sum --procs 1:100000 --latency 0:50 --overhead 0:9 --gap 1:20 --operands 1:200000"
runset compare 23 40 "compare {bcast|allreduce} --procs 2:200 --latency 0:30 --overhead 0:5 --gap 1:10 --items 1:16"
runset rank 24 "$N" "rank bcast --procs 1:100000 --latency 0:30 --overhead 0:5 --gap 1:10 --rank ROOT"
echo "capture written to $out"
