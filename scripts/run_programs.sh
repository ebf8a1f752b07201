#!/usr/bin/env bash
# Runs every finished chapter's programs, as README command 1 (demo.sh) does,
# under a heading per chapter. The seed programs print long training logs, so
# each program's whole output (standard output and error) goes to a file,
# <logs>/<program>.log, and the screen shows its first and last lines with
# the number left out between them. A program that exits non-zero stops the
# run, naming its exit status and its log. After chapter 7's programs, seed
# 003's cluster runs as three processes (scripts/cluster.sh: one ps, two
# workers), and the screen shows each one's log.
#   scripts/run_programs.sh [BUILD] [CHAPTER]
#       BUILD: the build folder (default build/all; reads BUILD/programs.txt)
#       CHAPTER: only this chapter's programs (3 or 03); default every chapter
#   MINITF_DEMO_LINES=N    lines shown at each end (default 5)
#   MINITF_DEMO_LOGS=DIR   where the logs go (default BUILD/demo-logs)
set -euo pipefail
source "$(dirname "$0")/common.sh"

build="${1:-$MINITF_BUILD}"
only="${2:-}"
if [[ -n "$only" ]]; then
  [[ "$only" =~ ^[0-9]+$ ]] || { echo "run_programs.sh: CHAPTER is a number, not '$only'" >&2; exit 2; }
  only=$(printf '%02d' "$((10#$only))")
fi
lines="${MINITF_DEMO_LINES:-5}"
logs="${MINITF_DEMO_LOGS:-$build/demo-logs}"
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

# run_cluster <seed_distributed>: seed 003's cluster, one ps and two workers,
# each a process of its own talking gRPC on loopback ports; every process's
# log is shown (they are short).
run_cluster() {
  local program="$1" log="$logs/seed_distributed_cluster.log" status=0
  echo
  echo "--- seed_distributed as a cluster: one ps and two workers, three processes"
  echo "    (scripts/cluster.sh; full output: $log) ---"
  bash "$MINITF_ROOT/scripts/cluster.sh" "$program" "$logs/cluster" >"$log" 2>&1 </dev/null ||
    status=$?
  cat "$log"
  if ((status != 0)); then
    echo "FAILED: seed 003's cluster exited with status $status; its full output: $log" >&2
    exit 1
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
  [[ -z "$only" || "${chapter%%-*}" == "$only" ]] || continue
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
  if [[ $chapter == 07-* && -x "$build/programs/$chapter/seed_distributed" ]]; then
    run_cluster "$build/programs/$chapter/seed_distributed"
  fi
done <"$build/programs.txt"
