#!/usr/bin/env bash
# re2d bench-ir: instructions executed (callgrind Ir) by every golden call, next to the existing C library's.
#
#   benches/ir/ir.sh LIB.so RAW_DIR [TABLE.md]
#
# LIB.so: any library exporting rotsprite_math.h (target/release/libre2d.so, or the
# existing C library for a fresh baseline). RAW_DIR: output of ffi-tests/gen_golden.py
# (golden_cases.h and the *.rgba atlases; `make bench-ir` builds it). Prints a markdown
# table: Ir per call in millions, the C library's Ir for the same call (baseline-c.tsv,
# measured the same way), their ratio and whether the call's output matched the
# manifest. Exit 1 if a call's output differs from the manifest. Without valgrind it
# prints one line and exits 0. Environment: JOBS (parallel valgrind runs, default 1),
# CG_DIR (keep one callgrind file per call, for callgrind_annotate), RE2D_SIMD (passed
# to the library: sse2 or scalar measure the baseline-x86-64 or scalar quad fill; the
# default is the CPU's best, AVX2 where valgrind and the CPU have it).
set -euo pipefail

die() { echo "bench-ir: $*" >&2; exit 2; }
[ $# -ge 2 ] && [ $# -le 3 ] || die "usage: ir.sh LIB.so RAW_DIR [TABLE.md]"
if ! command -v valgrind >/dev/null; then
    echo "bench-ir: skipped (valgrind is not installed)"
    exit 0
fi
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ -f "$1" ] || die "no such library: $1"
lib=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
raw=$(cd "$2" && pwd)
[ -f "$raw/golden_cases.h" ] || die "no golden_cases.h in $raw (run ffi-tests/gen_golden.py)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -std=gnu11 -Wall -Wextra -I"$repo/include" -I"$repo/ffi-tests" -I"$raw" \
    -o "$tmp/replay" "$here/replay.c" -ldl
"$tmp/replay" "$lib" "$raw" --groups >"$tmp/groups.txt"

# One callgrind run per op group; --dump-after writes one file per measured call
# (cg.ATLAS.OP.1, .2, ...). An empty environment keeps the stack layout, and so the
# counts of alignment-sensitive code such as memset, the same from run to run.
ln -s "$lib" "$tmp/lib.so"
run_group() {
    local base="$tmp/cg.$1.$2" rc=0
    env -i ${RE2D_SIMD:+RE2D_SIMD=$RE2D_SIMD} "$valgrind" --tool=callgrind --toggle-collect=measured_call \
        --dump-after=measured_call --callgrind-out-file="$base" --log-file="$base.vg" \
        "$tmp/replay" "$tmp/lib.so" "$raw" "$1" "$2" >"$base.calls" 2>"$base.err" || rc=$?
    echo $rc >"$base.rc"
}
export -f run_group
valgrind=$(command -v valgrind)
export tmp raw valgrind RE2D_SIMD
echo "bench-ir: $(wc -l <"$tmp/groups.txt") op groups under callgrind, ${JOBS:=1} at a time" >&2
xargs -P "$JOBS" -L 1 bash -c 'run_group "$@"' _ <"$tmp/groups.txt"

[ -z "${CG_DIR:-}" ] || mkdir -p "$CG_DIR"
fail=0
{
    echo "Ir: instructions executed inside each call (callgrind), millions; C: the existing C library"
    echo "(benches/ir/baseline-c.tsv); ratio = re2d / C. Library: \`$(basename "$1")\`${RE2D_SIMD:+, RE2D_SIMD=$RE2D_SIMD}."
    echo
    echo "| atlas | op | call | Ir (M) | C (M) | ratio | output |"
    echo "|---|---|---:|---:|---:|---:|---|"
    while read -r atlas op; do
        base="$tmp/cg.$atlas.$op"
        k=0
        while read -r _ _ n verdict _; do
            if [ "$n" = sample_depth ]; then
                echo "| $atlas | $op | - | - | - | - | sample_depth MISMATCH |"
                fail=1
                continue
            fi
            k=$((k + 1))
            ir=$(awk '/^totals:/ { printf "%.2f", $2 / 1e6 }' "$base.$k" 2>/dev/null || true)
            c=$(awk -v a="$atlas" -v o="$op" -v n="$n" '$1 == a && $2 == o && $3 == n { print $4 }' \
                "$here/baseline-c.tsv")
            ratio=-
            [ -z "$c" ] || [ -z "$ir" ] || ratio=$(awk -v x="$ir" -v y="$c" 'BEGIN { printf "%.2f", x / y }')
            [ "$verdict" = ok ] && [ -n "$ir" ] || fail=1
            echo "| $atlas | $op | $n | ${ir:-?} | ${c:--} | $ratio | $verdict |"
            [ -z "${CG_DIR:-}" ] || cp "$base.$k" "$CG_DIR/$atlas.$op.$n.callgrind" 2>/dev/null || true
        done <"$base.calls"
        rc=$(cat "$base.rc")
        if [ "$rc" -gt 1 ] || [ $k -eq 0 ]; then
            echo "| $atlas | $op | - | - | - | - | error (exit $rc) $(head -n1 "$base.err") |"
            fail=1
        fi
    done <"$tmp/groups.txt"
    echo
    if [ $fail -eq 0 ]; then
        echo "Every call returned as in the manifest and every output hash matched."
    else
        echo "**Some calls failed or did not match the manifest.**"
    fi
} >"$tmp/table.md"
cat "$tmp/table.md"
[ -z "${3:-}" ] || cp "$tmp/table.md" "$3"
exit $fail
