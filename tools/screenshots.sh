#!/bin/sh
# screenshots.sh - the docs' screenshots (docs/img/*.png): the pictures at
# scale as headless Chromium renders them, for docs/CLI.md.  Needs chromium
# (Debian: apt-get install chromium); not part of `make check`.
#   sh tools/screenshots.sh [OUTDIR]     default docs/img
set -u
cd "$(dirname "$0")/.." || exit 2
out=${1:-docs/img}
bin=./build/optcast
browser=${CHROMIUM:-chromium}
command -v "$browser" > /dev/null 2>&1 || { echo "screenshots: $browser not installed" >&2; exit 2; }
[ -x "$bin" ] || { echo "screenshots: $bin missing (make)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shot SVG PNG: Chromium's picture of SVG at the SVG's own size
shot() {
  w=$(sed -n 's/.*<svg [^>]*width="\([0-9]*\)[.0-9]*" height="\([0-9]*\)[.0-9]*".*/\1/p' "$1" | head -n 1)
  h=$(sed -n 's/.*<svg [^>]*width="\([0-9]*\)[.0-9]*" height="\([0-9]*\)[.0-9]*".*/\2/p' "$1" | head -n 1)
  [ -n "$w" ] && [ -n "$h" ] || { echo "screenshots: no size in $1" >&2; exit 1; }
  case $1 in /*) url=file://$1 ;; *) url=file://$PWD/$1 ;; esac
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --screenshot="$2" --window-size="$w,$h" "$url" > "$work/chromium.log" 2>&1
  [ -s "$2" ] || { echo "screenshots: no PNG for $1" >&2; tail -n 5 "$work/chromium.log" >&2; exit 1; }
  echo "$2 (${w}x$h)"
}
"$bin" draw bcast --procs 1024 --latency 6 --overhead 2 --gap 4 --svg "$work/tree.svg" || exit 1
shot "$work/tree.svg" "$out/shot-tree-1024.png"
"$bin" compare bcast --preset ib-tukey --sweep procs=8..4096 --size 262144 --csv \
  --svg "$work/sweep.svg" > /dev/null || exit 1
shot "$work/sweep.svg" "$out/shot-sweep-ib-tukey.png"
"$bin" draw bcast --model rrp --procs 16 --lines 4 --svg "$work/ring.svg" || exit 1
shot "$work/ring.svg" "$out/shot-ring-16.png"
