#!/usr/bin/env bash
# benches/bench.sh — `make bench`: one table of this build against a baseline build, so the next
# speed round starts from it.
#
#   benches/bench.sh            (make bench builds target/release first)
#
# Rows:
#   core   every C-ABI path (decode, decode_anime, v2_draw 128, anime 256, anime 512 with a
#          workspace and on 2 threads) on five atlases (the engine's animal and prop surfaces
#          compiled at 1024 and 2048, the dense generated figure at 2048), this build's
#          libre2d.so against the baseline build's, interleaved in one process
#          (benches/abi/abi_bench.c), and against the existing C library when RE2D_C_LIB=path.so
#          is given; the 1/2-thread speed-up of anime 512 per atlas; "bytes" says whether every
#          library wrote the same bytes.
#   mesh   `$.mesh` deformPart and draw in re2d-qjs at 100 / 1 000 / 10 000 vertices: "base" is
#          the plain-JS transcription of the same algorithm (js/bench/mesh.bench.mjs).
#   rig    `re2d rig build --timings` per stage for the generated 1696x2528 biped and
#          quadruped, the baseline build's CLI against this build's (median of 3 runs each,
#          interleaved).
#
# The baseline is a commit (BENCH_BASE, default: main at the start of speed round 4), built
# once into target/bench-base/<commit>/ from `git archive` (library and CLI, release). Wall
# times on a shared machine are noisy: ratios come from interleaved runs in one process or one
# loop; rerun a row that looks off with BENCH_ATLAS=… BENCH_PATH=… (see abi_bench.c).
# Environment: BENCH_BASE, RE2D_C_LIB, BENCH_ROUNDS (core samples per cell, default 7).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/target/bench
mkdir -p "$work"

die() { echo "bench: $*" >&2; exit 2; }
[ -f target/release/libre2d.so ] && [ -x target/release/re2d ] && [ -x target/release/re2d-qjs ] \
    || die "run make release first (make bench does)"

# ---- the baseline build -----------------------------------------------------------------------
. benches/base.sh

# ---- inputs ------------------------------------------------------------------------------------
[ -x target/release/examples/bench_atlases ] || die "run make release first (bench_atlases example)"
[ -f "$work/atlases/dense-2048.rgba" ] || target/release/examples/bench_atlases "$work/atlases" >/dev/null
cc -O2 -std=gnu11 -Wall -Wextra -Iinclude -o "$work/abi_bench" benches/abi/abi_bench.c -ldl
[ -f "$work/drawings/biped.skeleton.json" ] || target/release/examples/rig_drawings "$work/drawings" >/dev/null

echo "re2d bench: this build ($(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . 2>/dev/null || echo ', with local changes')) against the baseline ${commit:0:12}${RE2D_C_LIB:+ and the C library $RE2D_C_LIB}"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); times in ms (medians); ratio < 1 = this build is faster"
echo
libs=("base=$base_lib" "this=$root/target/release/libre2d.so")
[ -z "${RE2D_C_LIB:-}" ] || libs+=("C=$RE2D_C_LIB")
status=0
"$work/abi_bench" "$work/atlases" --header "${libs[@]}" || status=$?

# ---- $.mesh: native vs the plain-JS transcription ----------------------------------------------
# Rows with two values (base, this) get "—" in the C library's columns when it is given.
pad=""
[ -z "${RE2D_C_LIB:-}" ] || pad=" — |"
target/release/re2d-qjs js/bench/mesh.bench.mjs 300 | python3 -c '
import sys
pad = sys.argv[1]
def ms(v, unit):
    return float(v) / 1000 if unit == "us" else float(v)
for line in sys.stdin:
    f = line.split()
    if len(f) >= 7 and f[1] in ("deformPart", "draw"):
        native, js = ms(f[2], f[3]), ms(f[4], f[5])
        print(f"| mesh | {f[0]} vertices | $.mesh {f[1]} (base: plain JS) | {js:.3f} | {native:.3f} |{pad} {native / js:.3f} |{pad} same floats |")
' "$pad"

# ---- rig build per stage -----------------------------------------------------------------------
for c in biped quadruped; do
    for run in 1 2 3; do
        for which in base this; do
            cli=$base_cli; [ $which = this ] && cli=$root/target/release/re2d
            rm -rf "$work/rig-$which"
            "$cli" rig build "$work/drawings/$c.skeleton.json" --motion assets/mocap/cmu-131-01-walk.bvh \
                --out "$work/rig-$which" --timings 2>"$work/rig-$c-$which-$run.txt" >/dev/null \
                || { echo "bench: rig build $c failed with the $which build:" >&2; cat "$work/rig-$c-$which-$run.txt" >&2; status=1; }
        done
    done
    python3 - "$work" "$c" "$pad" <<'PY'
import re, statistics, sys
work, c, pad = sys.argv[1:4]
def stages(which):
    runs = []
    for run in (1, 2, 3):
        d = {}
        for line in open(f"{work}/rig-{c}-{which}-{run}.txt"):
            m = re.match(r"re2d rig build: stage (\S+)\s+([\d.]+) ms", line)
            if m:
                d[m.group(1)] = float(m.group(2))
            m = re.match(r"re2d rig build: total ([\d.]+) ms", line)
            if m:
                d["total"] = float(m.group(1))
        runs.append(d)
    return {k: statistics.median(r.get(k, 0.0) for r in runs) for k in runs[0]}
b, t = stages("base"), stages("this")
for k in list(t) + [k for k in b if k not in t]:
    bv, tv = b.get(k), t.get(k)
    ratio = f"{tv / bv:.2f}" if bv and tv else "—"
    fmt = lambda v: f"{v:.1f}" if v is not None else "—"
    print(f"| rig | {c} 1696x2528 | {k} | {fmt(bv)} | {fmt(tv)} |{pad} {ratio} |{pad} |")
PY
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
