# benches/base.sh — sourced by the benches that compare with a baseline build: builds the
# baseline commit (BENCH_BASE, default 7aff7950: main at the start of speed round 4, also the
# code issue 24's "1.26-1.73 s with tube slicing" was measured on) once into
# target/bench-base/<commit>/ from `git archive` (library and CLI, release), and sets
# `commit`, `base_lib` and `base_cli`. Needs `root` (the checkout) and `die`.
base_ref=${BENCH_BASE:-7aff7950}
commit=$(git rev-parse --verify --quiet "$base_ref^{commit}") || die "no commit $base_ref in this clone"
bdir=$root/target/bench-base/${commit:0:12}
if [ ! -f "$bdir/target/release/libre2d.so" ] || [ ! -x "$bdir/target/release/re2d" ]; then
    echo "bench: building the baseline ${commit:0:12} (library and CLI) into $bdir" >&2
    rm -rf "$bdir/src" && mkdir -p "$bdir/src"
    git archive "$commit" | tar -x -C "$bdir/src"
    cargo build --quiet --release --lib --bins --manifest-path "$bdir/src/Cargo.toml" \
        --target-dir "$bdir/target" >&2
fi
base_lib=$bdir/target/release/libre2d.so
base_cli=$bdir/target/release/re2d
