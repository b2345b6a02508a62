#!/usr/bin/env bash
# tools/fuzz-smoke.sh SECS JOBS TARGET... — `make fuzz-smoke` / `make fuzz-quick`: builds every
# fuzz target once (cargo-fuzz, ASan), then runs each for SECS seconds from its committed corpus,
# JOBS at a time. New inputs go to target/fuzz/<t>, the log to target/fuzz/<t>.log, a crashing
# input to fuzz/artifacts/<t>/. Prints one line per target; on a failure the log's tail, exit 1.
# A timeout (libFuzzer's -timeout in FUZZ_FLAGS) on a busy machine is not yet a hang: the
# input is run again alone, with the same limit, and only fails the target if it is slow alone
# too. Crashes, leaks and RSS-limit hits fail at once.
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
  local art="fuzz/artifacts/$t"
  mkdir -p "$art"
  rm -f "$art"/timeout-*
  if (cd fuzz && cargo +nightly fuzz run -O "$t" "../target/fuzz/$t" "corpus/$t" -- \
      -max_total_time="$FUZZ_SMOKE_SECS" $FUZZ_FLAGS ${!own:-}) \
      >"target/fuzz/$t.log" 2>&1; then
    echo "fuzz-smoke: $t ($FUZZ_SMOKE_SECS s): $(awk '/^stat::number_of_executed_units/{e=$2} /^stat::peak_rss_mb/{r=$2} END{print e " executions, peak RSS " r " MB"}' "target/fuzz/$t.log")"
    return 0
  fi
  local slow
  slow=$(ls "$art"/timeout-* 2>/dev/null | head -n 1)
  if [ -n "$slow" ] && ! grep -q 'ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|deadly signal\|out-of-memory' "target/fuzz/$t.log"; then
    # alone: the same binary, the same flags, this one input
    if (cd fuzz && cargo +nightly fuzz run -O "$t" "../$slow" -- $FUZZ_FLAGS ${!own:-}) \
        >"target/fuzz/$t.alone.log" 2>&1; then
      echo "fuzz-smoke: $t ($FUZZ_SMOKE_SECS s): a timeout under load; the input alone ran within the limit ($slow kept for a look)"
      return 0
    fi
    tail -20 "target/fuzz/$t.alone.log"
    echo "fuzz-smoke: $t FAILED: $slow is slow alone too"
    return 1
  fi
  tail -40 "target/fuzz/$t.log"
  echo "fuzz-smoke: $t FAILED"
  return 1
}
export -f one
export FUZZ_SMOKE_SECS=$secs

printf '%s\n' "$@" | xargs -P "$jobs" -I{} bash -c 'one "$1"' _ {}
rc=$?
if [ $rc -ne 0 ]; then
  echo "fuzz-smoke: FAILED (see the lines above)"
  exit 1
fi
echo "fuzz-smoke: $# passed, 0 failed"
