#!/usr/bin/env bash
# `make anim-check`: re2d render's APNG and GIF judged by Pillow (tests/anim/check_anim.py),
# each positive check paired with a negative control that must fail the same check.
# usage: [PYTHON=python-with-Pillow] tests/anim/run.sh path/to/re2d
# The judge exits 0 (accepted), 1 (rejected) or 2 (it could not judge: no Pillow, an
# exception). A negative control passes only on a real rejection (exit 1); a judge that
# cannot judge fails every check, positive or negative.
set -u
re2d=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
d=$(mktemp -d "${TMPDIR:-/tmp}/re2d-anim.XXXXXX")
trap 'rm -rf "$d"' EXIT
cp "$repo/assets/animal.character.json" "$repo/assets/animal.animations.json" "$d/"
cp "$repo/tests/golden/animal-1024.png" "$d/animal.png"
m="$d/animal.character.json"
pass=0 fail=0
py=${PYTHON:-python3}
ok() { if "$@"; then pass=$((pass + 1)); else echo "FAILED: $*"; fail=$((fail + 1)); fi; }
rejects() {
  "$@" 2>"$d/judge.err"
  case $? in
    1) pass=$((pass + 1)) ;;
    0) echo "FAILED (negative control passed): $*"; fail=$((fail + 1)) ;;
    *) echo "FAILED (the judge could not judge): $*"; sed 's/^/  | /' "$d/judge.err"; fail=$((fail + 1)) ;;
  esac
}
render() { "$re2d" render "$m" --pitch 10 "$@" >/dev/null || { echo "render failed: $*"; exit 1; }; }
check() { "$py" "$here/check_anim.py" "$@"; }

render --frames 6 --turn 30 --fps 15 -o "$d/f" --apng "$d/a.png" --gif "$d/a.gif"
render --frames 6 --turn 30 --fps 15 --fit 4 -o "$d/fit" --apng "$d/fit.png" --gif "$d/fit.gif"
render --frames 6 --turn 31 --fps 15 -o "$d/f31"
render --frames 6 --turn 30 --fps 10 --apng "$d/a10.png" --gif "$d/a10.gif"
render --frames 5 --turn 30 --fps 15 --apng "$d/a5.png"

ok check "$d/a.png" "$d/f" 15 0
ok check "$d/a.gif" "$d/f" 15 0
ok check "$d/fit.png" "$d/fit" 15 0
ok check "$d/fit.gif" "$d/fit" 15 0
rejects check "$d/a.png" "$d/f31" 15 0     # other pixels
rejects check "$d/a.gif" "$d/f31" 15 0
rejects check "$d/a10.png" "$d/f" 15 0    # other delay
rejects check "$d/a10.gif" "$d/f" 15 0
rejects check "$d/a5.png" "$d/f" 15 0     # one frame short
rejects check "$d/a.png" "$d/fit" 15 0    # not cropped
rejects check "$d/a.png" "$d/f" 15 1      # loops, not once

# a clip that does not loop plays once
sed -i 's/"loop": true/"loop": false/' "$d/animal.animations.json"
render --frames 3 -o "$d/o" --apng "$d/once.png" --gif "$d/once.gif"
ok check "$d/once.png" "$d/o" 12 1
ok check "$d/once.gif" "$d/o" 12 1
rejects check "$d/once.png" "$d/o" 12 0

echo "anim-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
