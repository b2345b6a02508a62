#!/usr/bin/env bash
# tools/run-tests.sh TARGET... — `make test`: runs each make target in order (all of them, even
# after a failure), then prints one line per target with its wall time and result, and the total.
# Exit 1 when any target failed. The table also goes to target/test-times.txt.
set -u
cd "$(dirname "$0")/.."
make=${MAKE:-make}
rows=() failed=0 t0=$(date +%s)
for t in "$@"; do
  s=$(date +%s)
  if "$make" --no-print-directory "$t"; then r=ok; else r=FAILED; failed=$((failed + 1)); fi
  rows+=("$(printf '%-16s %5ds  %s' "$t" $(( $(date +%s) - s )) "$r")")
  echo "make test: $t $r"
done
{
  echo "make test: time per target"
  printf '  %s\n' "${rows[@]}"
  printf '  %-16s %5ds  %s\n' total $(( $(date +%s) - t0 )) \
    "$([ $failed -eq 0 ] && echo "all $# passed" || echo "$failed of $# FAILED")"
} | tee target/test-times.txt
[ $failed -eq 0 ]
