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

# Chapter 5's programs ask for /gpu:0. On a machine without a GPU they run
# on one emulated GPU (its kernels are CUDA kernels on the CPU emulator),
# and, since the emulator is slow, seed 002 for 2 of its 10 epochs and the
# comparison for 20 steps.
emulated_gpu=0
if ! nvidia-smi -L >/dev/null 2>&1; then emulated_gpu=1; fi
declare -A emulated_args=([seed_softmax_regression_gpu]="--epochs 2"
                          [cpu_vs_gpu]="--steps 20")
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
    env=() args=()
    if [[ $chapter == 05-* ]] && ((emulated_gpu)); then
      env=(MINITF_VIRTUAL_GPUS=1 MINITF_EMULATE_GPU_KERNELS=1)
      read -ra args <<<"${emulated_args[$name]:-}"
      echo "(no GPU here: on an emulated GPU${args:+, with ${args[*]}})"
    fi
    env "${env[@]}" "$build/programs/$chapter/$name" "${args[@]}" >"$log" 2>&1 </dev/null || status=$?
    show_ends "$log"
    if ((status != 0)); then
      echo "FAILED: $name exited with status $status; its full output: $log" >&2
      exit 1
    fi
  done
done <"$build/programs.txt"
