#!/usr/bin/env bash
# Runs every finished chapter's programs, as README command 1 (demo.sh) does,
# under a heading per chapter. The seed programs print long training logs, so
# each program's whole output (standard output and error) goes to a file,
# BUILD/demo-logs/<program>.log, and the screen shows its first and last
# lines with the number left out between them. A program that exits non-zero
# stops the run, naming its exit status and its log.
#   scripts/run_programs.sh [BUILD]   (default build/all; reads BUILD/programs.txt)
#   MINITF_DEMO_LINES=N               lines shown at each end (default 5)
set -euo pipefail
source "$(dirname "$0")/common.sh"

build="${1:-$MINITF_BUILD}"
lines="${MINITF_DEMO_LINES:-5}"
logs="$build/demo-logs"
mkdir -p "$logs"

# show_ends <log>: the log in full when it is short, else its first and last
# $lines lines around a "... N lines ..." marker.
show_ends() {
  local log="$1" total
  total=$(wc -l <"$log")
  if ((total <= 2 * lines + 1)); then
    cat "$log"
  else
    head -n "$lines" "$log"
    echo "    ... $((total - 2 * lines)) lines ..."
    tail -n "$lines" "$log"
  fi
}

# build/all/programs.txt lists "<chapter>: prog1;prog2" in course order.
# A chapter still being written, with no programs yet, is skipped.
while IFS=': ' read -r chapter programs; do
  [[ -n "$programs" ]] || continue
  echo
  echo "================================================================"
  echo " Chapter ${chapter%%-*}: ${chapter#*-}"
  echo "================================================================"
  IFS=';' read -ra names <<<"$programs"
  for name in "${names[@]}"; do
    log="$logs/$name.log"
    echo
    echo "--- $name (full output: $log) ---"
    status=0
    "$build/programs/$chapter/$name" >"$log" 2>&1 </dev/null || status=$?
    show_ends "$log"
    if ((status != 0)); then
      echo "FAILED: $name exited with status $status; its full output: $log" >&2
      exit 1
    fi
  done
done <"$build/programs.txt"
