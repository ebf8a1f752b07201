#!/usr/bin/env bash
# A process killed with SIGKILL while it saves never leaves a torn
# checkpoint: 50 times, saver_crash_helper saves 32 MiB checkpoints in a
# loop and is killed at a random moment, spread over the time of its first
# saves so that kills fall in every part of a save; each time, every
# checkpoint the folder's `checkpoint` file names must restore
# with the values it was saved with, and the newest must never go back.
#   saver_crash_test.sh <saver_crash_helper> [ROUNDS]
set -euo pipefail
helper=$1
rounds=${2:-50}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# When a started helper's first save ends, and how long a save takes: the
# kills fall from one save's length before the first save ends to two after.
stamp() { echo $(( $(date +%s%N) / 1000000 )); }
start=$(stamp)
"$helper" save "$dir" >"$dir/out" 2>&1 &
pid=$!
first=0
for _ in $(seq 1 2000); do
  ((first)) || ! grep -q '^saved 1$' "$dir/out" || first=$(stamp)
  grep -q '^saved 3$' "$dir/out" && break
  kill -0 $pid 2>/dev/null || { cat "$dir/out"; exit 1; }
  sleep 0.01
done
kill -9 $pid; wait $pid 2>/dev/null || true
save_ms=$(( ($(stamp) - first) / 2 ))
first_ms=$(( first - start ))
echo "a started helper's first save ends after about $first_ms ms; a save takes about $save_ms ms"
from_ms=$(( first_ms > save_ms ? first_ms - save_ms : 0 ))

newest=0
for round in $(seq 1 "$rounds"); do
  "$helper" save "$dir" >"$dir/out" 2>&1 &
  pid=$!
  delay_ms=$(( from_ms + RANDOM % (3 * save_ms + 1) ))
  sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
  kill -9 $pid 2>/dev/null || true
  wait $pid 2>/dev/null || true
  if ! checked=$("$helper" check "$dir" 2>"$dir/check.err"); then
    echo "FAIL round $round (killed after $delay_ms ms): $checked"
    cat "$dir/check.err"
    ls -l "$dir"; cat "$dir/checkpoint" 2>/dev/null || true
    exit 1
  fi
  now=$(sed -n 's/.*model\.ckpt-\([0-9]*\)$/\1/p' <<<"$checked")
  if ((now < newest)); then
    echo "FAIL round $round: the newest checkpoint went back from $newest to $now"
    exit 1
  fi
  newest=$now
  echo "round $round, killed after $delay_ms ms: $checked"
done
echo "PASS: $rounds kills, every named checkpoint restored, newest $newest"
