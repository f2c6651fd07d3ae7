#!/usr/bin/env bash
# Builds Knuth's exact cover programs, his newer variants (change files) and his generators of
# exact cover problems, from his CWEB sources, for benchmarks only: nothing of them goes into covering.
#   usage: benchmarks/knuth/build.sh SOURCES OUT
# SOURCES: a folder, or a bare git dir, holding his .w and .ch files (the public repository
# ascherer/cwebtest has them all). OUT: where the programs go (OUT/gen: the generators).
# ctangle comes from Debian's texlive-binaries, unpacked into OUT/.ctangle (no root needed).
set -euo pipefail
src=$1; out=$(mkdir -p "$2/gen" && cd "$2" && pwd)
work=$out/.ctangle; mkdir -p "$work/build"
if [ ! -x "$work/root/usr/bin/ctangle" ]; then
  (cd "$work" && { apt-get download texlive-binaries libkpathsea6 >/dev/null 2>&1 \
     || { apt-get update -qq >/dev/null 2>&1; apt-get download texlive-binaries libkpathsea6 >/dev/null; }; })
  for d in "$work"/*.deb; do dpkg-deb -x "$d" "$work/root"; done
fi
printf 'CWEBINPUTS = .\n' > "$work/texmf.cnf"
export LD_LIBRARY_PATH=$work/root/usr/lib/x86_64-linux-gnu TEXMFCNF=$work
cd "$work/build"
fetch() { if [ -d "$src/objects" ]; then git -C "$src" show "HEAD:$1" > "$1"; else cp "$src/$1" .; fi; }
# tangle NAME WEB [CHANGE]: NAME.c from WEB, with the change file CHANGE applied.
tangle() {
  fetch "$2"; [ -z "${3:-}" ] || fetch "$3"
  rm -f "$1.c"
  "$work/root/usr/bin/ctangle" "$2" "${3:--}" "$1.c" > "$1.log" 2>&1 || true  # (gb_flip.w misses boilerplate.w)
  [ -s "$1.c" ] || { echo "ctangle made no $1.c"; exit 1; }
  # A change file that does not match its web is skipped with a warning, and the program
  # built would silently be the web's own.
  if grep -q "did not match" "$1.log"; then echo "$3 does not match $2"; exit 1; fi
}
tangle gb_flip gb_flip.w
gcc -O3 -c gb_flip.c -o gb_flip.o -w
# The solvers: name, web, change file.
while read -r name web change; do
  tangle "$name" "$web" "$change"
  gcc -O3 -march=native -w -I. -o "$out/$name" "$name.c" gb_flip.o -lm
done <<'LIST'
dlx1 dlx1.w
dlx2 dlx2.w
dlx3 dlx3.w
dlx5 dlx5.w
dlx-pre dlx-pre.w
ssxcc ssxcc.w
ssxcc-wtd ssxcc-binary.w ssxcc-wtd.ch
ssxcc-frb ssxcc-binary.w ssxcc-frb.ch
ssxcc-binary ssxcc-binary.w
ssmcc ssmcc.w
ssmcc-wtd ssmcc.w ssmcc-wtd.ch
ssmcc-frb ssmcc.w ssmcc-frb.ch
xccdc xccdc.w
xccdc-wtd xccdc.w xccdc-wtd.ch
LIST
# The generators.
for g in polyomino-dlx polyiamond-dlx polycube-dlx queens-dlx sudoku-dlx windmill-dominoes-dlx \
         macmahon-triangles-dlx de-bruijn-dlx masyu-dlx slitherlink-dlx fillomino-dlx torto-dlx \
         word-rect-dlx pi-day-dlx indicator-dlx queendom-dlx motley-dlx redrect-dlx; do
  tangle "$g" "$g.w"
  gcc -O2 -w -I. -o "$out/gen/$g" "$g.c" gb_flip.o -lm
done
printf 'A B C\nA B\nC\nA\nB C\n' | "$out/dlx1" 2>&1 | grep -q "Altogether 2 solutions" && echo "built in $out (generators in $out/gen)"
