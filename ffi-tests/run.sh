#!/usr/bin/env bash
# re2d ffi-tests: runs named test commands, sums their "N passed, N failed" lines, prints the total last.
# usage: run.sh NAME CMD [NAME CMD ...]
set -u
tp=0
tf=0
ts=0
bad=0
while [ $# -ge 2 ]; do
  name=$1
  cmd=$2
  shift 2
  echo "=== $name"
  out=$(bash -c "$cmd" 2>&1)
  rc=$?
  printf '%s\n' "$out"
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' <<<"$out" | tail -1)
  if [ -n "$line" ]; then
    p=$(sed -E 's/^([0-9]+) passed.*/\1/' <<<"$line")
    f=$(sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/' <<<"$line")
    s=$(sed -nE 's/.*, ([0-9]+) skipped.*/\1/p' <<<"$line")
    tp=$((tp + p))
    tf=$((tf + f))
    ts=$((ts + ${s:-0}))
  fi
  if [ $rc -ne 0 ]; then
    bad=1
    if [ -z "$line" ] || [ "${f:-0}" -eq 0 ]; then
      echo "FAIL $name (exit $rc)"
      tf=$((tf + 1))
    fi
  fi
done
if [ "$ts" -gt 0 ]; then echo "ffi: $tp passed, $tf failed, $ts skipped"; else echo "ffi: $tp passed, $tf failed"; fi
[ $bad -eq 0 ] && [ $tf -eq 0 ]
