#!/usr/bin/env bash
# tools/fuzz-smoke.sh SECS JOBS TARGET... — `make fuzz-smoke`: builds every fuzz target once
# (cargo-fuzz, ASan), then runs each for SECS seconds from its committed corpus, JOBS at a
# time (one per core: libFuzzer's -timeout=1 must not share a core with another fuzzer).
# New inputs go to target/fuzz/<t>, the log to target/fuzz/<t>.log, a crashing input to
# fuzz/artifacts/<t>/. Prints one line per target; on a failure the log's tail, exit 1.
# libFuzzer flags come from make (mk/fuzz.mk): FUZZ_FLAGS for every target, FUZZ_FLAGS_<t>
# added for target t.
set -u
: "${FUZZ_FLAGS:?set by make fuzz-smoke (mk/fuzz.mk)}"
secs=$1 jobs=$2
shift 2
cd "$(dirname "$0")/.."
mkdir -p target/fuzz
if ! (cd fuzz && cargo +nightly fuzz build -O) >target/fuzz/build.log 2>&1; then
  tail -40 target/fuzz/build.log
  echo "fuzz-smoke: build FAILED"
  exit 1
fi

one() {
  local t=$1 own="FUZZ_FLAGS_$1"
  mkdir -p "target/fuzz/$t"
  # shellcheck disable=SC2086 # the flags are words
  if (cd fuzz && cargo +nightly fuzz run -O "$t" "../target/fuzz/$t" "corpus/$t" -- \
      -max_total_time="$FUZZ_SMOKE_SECS" $FUZZ_FLAGS ${!own:-}) \
      >"target/fuzz/$t.log" 2>&1; then
    echo "fuzz-smoke: $t ($FUZZ_SMOKE_SECS s): $(awk '/^stat::number_of_executed_units/{e=$2} /^stat::peak_rss_mb/{r=$2} END{print e " executions, peak RSS " r " MB"}' "target/fuzz/$t.log")"
  else
    tail -40 "target/fuzz/$t.log"
    echo "fuzz-smoke: $t FAILED"
    return 1
  fi
}
export -f one
export FUZZ_SMOKE_SECS=$secs

printf '%s\n' "$@" | xargs -P "$jobs" -I{} bash -c 'one "$1"' _ {}
rc=$?
failed=$(grep -L '^Done [0-9]* runs' $(printf 'target/fuzz/%s.log ' "$@") 2>/dev/null | wc -l)
if [ $rc -ne 0 ]; then
  echo "fuzz-smoke: $(( $# - failed )) passed, $failed failed"
  exit 1
fi
echo "fuzz-smoke: $# passed, 0 failed"
