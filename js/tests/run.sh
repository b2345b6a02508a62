#!/usr/bin/env bash
# re2d JS test runner (make js-test): every js/tests/*.test.mjs under re2d-qjs, then host/CLI checks.
# Usage: js/tests/run.sh [path/to/re2d-qjs]. Prints "N passed, N failed"; exits 1 on any failure.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
qjs="$(cd "$(dirname "${1:-$here/../../target/release/re2d-qjs}")" && pwd)/$(basename "${1:-re2d-qjs}")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# run NAME WANT_EXIT CMD... ; leaves stdout in $tmp/out, stderr in $tmp/err
run() {
    local name="$1" want="$2"
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" -ne "$want" ]; then
        bad "$name: exit $got, want $want"
        sed 's/^/  | /' "$tmp/out" "$tmp/err" | head -20
        return 1
    fi
    ok
}
out_is() { # NAME EXPECTED (exact stdout)
    if [ "$(cat "$tmp/out")" == "$2" ]; then ok; else bad "$1: stdout was"; sed 's/^/  | /' "$tmp/out"; fi
}
has() { # NAME FILE PATTERN (fixed string)
    if grep -qF -- "$3" "$tmp/$2"; then ok; else bad "$1: $2 lacks '$3'"; sed 's/^/  | /' "$tmp/$2" | head -10; fi
}
lines() { # NAME FILE N
    local n
    n=$(wc -l <"$tmp/$2")
    if [ "$n" -eq "$3" ]; then ok; else bad "$1: $2 has $n lines, want $3"; fi
}

# 1. JS test files (each prints its own "N passed, N failed" and exits 1 on failure)
for t in "$here"/*.test.mjs; do
    name="$(basename "$t")"
    if run "$name" 0 "$qjs" "$t"; then
        tail -1 "$tmp/out"
    fi
done

h="$here/host"
# 2. print / console.log / scriptArgs
run print 0 "$qjs" "$h/print.mjs" x "y z" && out_is print 'a 1 null undefined 1,2 [object Object] true
log 2.5
["x","y z"]
true' && lines print-empty-line out 5
# 3. exit codes and error reports
run throw 1 "$qjs" "$h/throw.mjs" && { out_is throw-stdout before; has throw-msg err 'RangeError: boom here'; has throw-stack err 'at inner'; }
run reject 1 "$qjs" "$h/reject.mjs" && { has reject-msg err 'Error: rejected eval'; out_is reject-stdout start; }
run syntax 1 "$qjs" "$h/syntax.mjs" && has syntax-msg err 'SyntaxError'
run missing-import 1 "$qjs" "$h/missing_import.mjs" && has missing-import-msg err 'does-not-exist.mjs'
run jobs 0 "$qjs" "$h/jobs.mjs" && out_is jobs 'job 1
awaited 42
job 2'
run unhandled 1 "$qjs" "$h/unhandled.mjs" && { has unhandled-msg err 'nobody catches me'; out_is unhandled-stdout 'end of module'; }
run handled 0 "$qjs" "$h/handled.mjs" && out_is handled 'caught caught later'
run missing-file 1 "$qjs" "$tmp/nope.mjs" && { lines missing-file-oneline err 1; has missing-file-msg err 'nope.mjs'; }
run no-args 2 "$qjs" && lines no-args-oneline err 1
run bad-option 2 "$qjs" --frobnicate "$h/print.mjs" && { lines bad-option-oneline err 1; has bad-option-msg err '--frobnicate'; }
run bad-size 2 "$qjs" --size 0x5 "$h/print.mjs" && lines bad-size-oneline err 1
# 3b. qjs-compatible timers and std/os modules
run timers 0 "$qjs" "$h/timers.mjs" && out_is timers 'module
job
t0 x 2
t5
job after t5
nested true
t10'
printf hello >"$tmp/hello.txt"
run std-exit 3 env RE2D_TEST_VAR=v1 "$qjs" "$h/std_exit.mjs" "$tmp/hello.txt" && { out_is std-exit '42|   ab|7  |3.14|ff|%
005A
true true
v1 true
linux number 0'; has std-err err 'to stderr'; }
# 4. module resolution and aliasing
run relative 0 "$qjs" "$h/relative.mjs" && out_is relative 'value 42'
(cd / && run relative-from-root 0 "$qjs" "$h/relative.mjs") && out_is relative-from-root 'value 42'
run aliases 0 "$qjs" "$h/aliases.mjs" && out_is aliases 'true true function'
run no-builtins-alias 1 "$qjs" --no-builtins "$h/aliases.mjs" && has no-builtins-msg err 'highlevel/mesh.js'
run no-builtins-byname 0 "$qjs" --no-builtins "$h/byname.mjs" && out_is no-builtins-byname true
run native-private 1 "$qjs" "$h/native_private.mjs"
run aliases-rot 0 "$qjs" "$h/aliases_rot.mjs" && out_is aliases-rot 'true true true true function function function'
run native-private-rot 1 "$qjs" "$h/native_private_rot.mjs" && has native-private-rot err 'internal'
run native-private-host 1 "$qjs" "$h/native_private_host.mjs" && has native-private-host err 'internal'
# 5. engine-style test file, unchanged, from several working directories
fx="$here/fixtures/engine/tests/js/mesh.test.mjs"
(cd / && run engine-style-root 0 "$qjs" "$fx") && has engine-style-root out 'engine-style: 8 passed, 0 failed'
(cd "$here/fixtures/engine/tests/js" && run engine-style-here 0 "$qjs" mesh.test.mjs) && has engine-style-here out '8 passed, 0 failed'
(cd "$here/fixtures/engine" && run engine-style-rel 0 "$qjs" tests/js/mesh.test.mjs) && has engine-style-rel out '8 passed, 0 failed'
# 5b. engine-style rotsprite test (createApi + proxy engine), unchanged, from several working directories
rfx="$here/fixtures/engine/tests/js/rotsprite.test.mjs"
(cd / && run engine-rotsprite-root 0 "$qjs" "$rfx") && has engine-rotsprite-root out 'engine-style: 12 passed, 0 failed'
(cd "$here/fixtures/engine/tests/js" && run engine-rotsprite-here 0 "$qjs" rotsprite.test.mjs) && has engine-rotsprite-here out '12 passed, 0 failed'
(cd "$here/fixtures/engine" && run engine-rotsprite-rel 0 "$qjs" tests/js/rotsprite.test.mjs) && has engine-rotsprite-rel out '12 passed, 0 failed'
# 5c. rotsprite on the real natives: golden atlases (tests/golden) + models (assets/)
repo="$(cd "$here/../.." && pwd)"
if [ -f "$repo/tests/golden/animal-1024.png" ] && [ -f "$repo/tests/golden/prop-1024.png" ]; then
    mkdir -p "$tmp/fx" "$tmp/png"
    cp "$repo/tests/golden/animal-1024.png" "$tmp/fx/animal.png"
    cp "$repo/tests/golden/prop-1024.png" "$tmp/fx/prop.png"
    cp "$repo"/assets/{animal,prop}.{character,animations}.json "$tmp/fx/"
    run rotsprite-real 0 "$qjs" "$here/e2e/rotsprite_real.mjs" "$tmp/fx" "$tmp/png" && tail -1 "$tmp/out"
    for f in animal-model animal-frame animal-headless prop-on-paw; do
        if [ -s "$tmp/png/$f.png" ]; then ok; else bad "rotsprite-real: $f.png not written"; fi
    done
else
    bad "rotsprite-real: $repo/tests/golden/{animal,prop}-1024.png not found"
fi
# 6. default engine
run engine-default 0 "$qjs" --size 32x16 "$h/engine_default.mjs" "$tmp/frame.png" && tail -1 "$tmp/out"
if [ -s "$tmp/frame.png" ] && [ "$(head -c 8 "$tmp/frame.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then ok; else bad "engine-default: no PNG written"; fi
run own-engine 0 "$qjs" --size 20x10 "$h/own_engine.mjs" && out_is own-engine 'function 20 10
mine undefined'
run no-engine 0 "$qjs" --no-engine "$h/no_engine.mjs" && out_is no-engine undefined

echo "js-test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
