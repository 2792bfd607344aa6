#!/bin/sh
# `make svg-e2e`: end to end, the way a person sees a drawing.  Renders
# Karp et al.'s Fig. 1 (`optcast draw`, then the same in `optcast report`'s page) in
# headless Chromium to a PNG and
# checks the PNG is not blank: decoded with python3's zlib (no PIL), enough
# pixels differ from the white background, there are several distinct
# colours, and the activity chart's send / receive / gap colours are there.
# Not part of `make check` (CI has no Chromium); needs chromium and python3.
set -u
cd "$(dirname "$0")/.." || exit 2
bin=${OPTCAST_BIN:-./build/optcast}
browser=${CHROMIUM:-chromium}
for tool in "$browser" python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "svg-e2e: $tool not installed (Debian: apt-get install chromium python3)"; exit 2
  fi
done
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
"$bin" draw bcast --procs 8 --latency 6 --overhead 2 --gap 4 --svg "$work/fig1.svg" || exit 1
# the page size: the SVG's own width and height
w=$(sed -n 's/^<svg .* width="\([0-9]*\)\.0" height="\([0-9]*\)\.0".*/\1/p' "$work/fig1.svg")
h=$(sed -n 's/^<svg .* width="\([0-9]*\)\.0" height="\([0-9]*\)\.0".*/\2/p' "$work/fig1.svg")
[ -n "$w" ] && [ -n "$h" ] || { echo "svg-e2e: no width/height in the SVG"; exit 1; }
# render FILE W H PNG: Chromium's screenshot of FILE, then the pixel checks
render() {
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
      --screenshot="$4" --window-size="$2,$3" "file://$1" > "$work/chromium.log" 2>&1
  [ -s "$4" ] || { echo "svg-e2e: chromium wrote no PNG for $1"; tail -n 5 "$work/chromium.log"; return 1; }
  python3 - "$4" <<'PY'
import struct, sys, zlib

def decode(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    width, height, depth, ctype, _, _, interlace = hdr
    assert depth == 8 and ctype in (2, 6) and interlace == 0, "unexpected PNG format %r" % (hdr,)
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows

w, h, bpp, rows = decode(sys.argv[1])
colours, ink = {}, 0
for line in rows:
    for x in range(w):
        px = tuple(line[x * bpp:x * bpp + 3])
        colours[px] = colours.get(px, 0) + 1
        ink += px != (255, 255, 255)
want = {"send overhead": (0xd6, 0x27, 0x28), "receive overhead": (0x1f, 0x77, 0xb4),
        "gap": (0xf2, 0xc1, 0x4e), "holding": (0xd9, 0xd9, 0xd9)}
print("svg-e2e: %dx%d PNG, %d of %d pixels not background (%.1f%%), %d distinct colours"
      % (w, h, ink, w * h, 100.0 * ink / (w * h), len(colours)))
ok = ink >= w * h // 50 and len(colours) >= 8
for name, rgb in want.items():
    n = colours.get(rgb, 0)
    print("svg-e2e: %-16s #%02x%02x%02x: %d pixels" % ((name,) + rgb + (n,)))
    ok = ok and n >= 100
print("svg-e2e: %s" % ("ok" if ok else "FAILED: the rendering looks blank or incomplete"))
sys.exit(0 if ok else 1)
PY
}
render "$work/fig1.svg" "$w" "$h" "$work/fig1.png" || exit 1
# the same picture inside `optcast report`'s page (inline SVG in HTML)
"$bin" report bcast --procs 8 --latency 6 --overhead 2 --gap 4 --html "$work/fig1.html" || exit 1
echo "svg-e2e: the report page:"
render "$work/fig1.html" 1000 1600 "$work/page.png" || exit 1
