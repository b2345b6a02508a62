#!/usr/bin/env bash
# `make install-test`: make install into a fresh PREFIX, use everything installed
# (re2d, re2d-qjs, the header, libre2d.a through pkg-config --static, libre2d.so),
# then make uninstall and check that exactly the installed files are gone.
# Each positive check has a negative control that must fail the same way.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
make=${MAKE:-make}
p=$(mktemp -d "${TMPDIR:-/tmp}/re2d-prefix.XXXXXX")
w=$(mktemp -d "${TMPDIR:-/tmp}/re2d-install-work.XXXXXX")
trap 'rm -rf "$p" "$w"' EXIT
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$repo/Cargo.toml" | head -n 1)
pass=0 fail=0
ok() { if "$@"; then pass=$((pass + 1)); else echo "FAILED: $*"; fail=$((fail + 1)); fi; }
not() { if "$@" >/dev/null 2>&1; then echo "FAILED (negative control passed): $*"; fail=$((fail + 1)); else pass=$((pass + 1)); fi; }
same() { [ "$1" = "$2" ] || { echo "got '$1', want '$2'"; return 1; }; }
empty_dir() { [ -z "$(find "$1" -mindepth 1 -print -quit)" ]; }

# files of another package in the prefix must survive uninstall
mkdir -p "$p/bin" "$p/lib"
echo other >"$p/bin/other-tool"
echo other >"$p/lib/libother.a"

"$make" -C "$repo" --no-print-directory install PREFIX="$p" >"$w/install.log" 2>&1 \
  || { tail -n 20 "$w/install.log"; echo "make install failed"; exit 1; }
for f in lib/libre2d.a lib/libre2d.so include/rotsprite_math.h include/re2d.h lib/pkgconfig/re2d.pc bin/re2d bin/re2d-qjs; do
  ok test -f "$p/$f"
done

ok same "$("$p/bin/re2d" --version)" "re2d $version"
ok same "$("$p/bin/re2d-qjs" --version)" "re2d-qjs $version"
not same "$("$p/bin/re2d" --version)" "re2d 0.0.0-not-this"

# the installed CLI compiles a surface on its own
ok "$p/bin/re2d" compile "$repo/assets/prop.surface.json" -o "$w/prop.png"
ok sh -c "'$p/bin/re2d' atlas inspect '$w/prop.png' | grep -q 'problems: none'"
not "$p/bin/re2d" compile "$w/missing.json" -o "$w/x.png"

# the installed re2d writes a player page with the installed Rive runtime beside it (docs/pages.md)
ok test -f "$p/share/re2d/rive.js"
ok "$p/bin/re2d" export-riv "$repo/tests/riv/fixtures/walk/model.json" -o "$w/walk.riv"
ok "$p/bin/re2d" rig page "$w/walk.riv" --clip walk
ok cmp -s "$w/rive.js" "$p/share/re2d/rive.js"
ok grep -q 'atob(' "$w/walk.html"
not "$p/bin/re2d" rig page "$w/walk.riv" --clip walk --runtime "$w/no-such-rive.js"

# the installed re2d-qjs runs a script with its built-in modules
ok same "$(cd "$w" && "$p/bin/re2d-qjs" "$repo/tests/install/script.mjs" a b)" "qjs ok a,b function object"
not same "$(cd "$w" && "$p/bin/re2d-qjs" "$repo/tests/install/script.mjs" a)" "qjs ok a,b function object"

# C: static through pkg-config, then shared
export PKG_CONFIG_PATH="$p/lib/pkgconfig"
ok same "$(pkg-config --modversion re2d)" "$version"
ok cc -std=c99 -Wall -Wextra -Werror "$repo/tests/install/use_re2d.c" \
  $(pkg-config --cflags --libs --static re2d) -o "$w/static"
ok same "$("$w/static")" "c program ok"
not env -u PKG_CONFIG_PATH PKG_CONFIG_LIBDIR=/nonexistent pkg-config --libs re2d
ok cc -std=c99 "$repo/tests/install/use_re2d.c" -I"$p/include" -L"$p/lib" -lre2d \
  -Wl,-rpath,"$p/lib" -o "$w/shared"
ok same "$("$w/shared")" "c program ok"
ok sh -c "ldd '$w/shared' | grep -q '$p/lib/libre2d.so'"
not sh -c "ldd '$w/static' | grep -q libre2d"

not empty_dir "$p"
"$make" -C "$repo" --no-print-directory uninstall PREFIX="$p" >"$w/uninstall.log" 2>&1 \
  || { cat "$w/uninstall.log"; echo "make uninstall failed"; exit 1; }
ok test -f "$p/bin/other-tool"
ok test -f "$p/lib/libother.a"
not test -e "$p/bin/re2d"
rm "$p/bin/other-tool" "$p/lib/libother.a"
rmdir "$p/bin" "$p/lib" 2>/dev/null
ok empty_dir "$p"
[ "$fail" -eq 0 ] || find "$p" -mindepth 1
echo "install-test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
