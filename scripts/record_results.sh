#!/usr/bin/env bash
# Runs every benchmark the book quotes and records its tables in results/,
# the files the chapters include (`--8<-- "results/<name>.md"`). Each file
# says on which CPU, on what day and with which command it was measured, so
# re-running this script (or one of its lines) updates the pages.
#   scripts/record_results.sh            every benchmark (not the fuzzers,
#                                        not the *_avx2 ones)
#   scripts/record_results.sh NAME...    only these (the names below)
# The benchmarks take a few minutes in all; run them on an idle machine.
# The fuzzers' ten-minute runs (about four hours) are recorded only when
# named: scripts/record_results.sh fuzz. So are the *_avx2 files, the same
# benchmarks as a CPU without AVX-512 runs them, which build a tree of their
# own first (build/avx2; scripts/common.sh, avx2_build and avx2_env):
# scripts/record_results.sh cpu_gemm_bench_avx2 train_bench_avx2.
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$MINITF_ROOT"

export MINITF_RESULTS_DIR="$MINITF_ROOT/results"
mkdir -p "$MINITF_RESULTS_DIR"
bench="build/all/benchmarks"

# name: the command that writes results/<name>.md. Commands are spelled from
# the repository root, as a reader would type them.
declare -A RECORD=(
  # Chapter 1: layer 1's kernels beside Eigen's product and a copy loop.
  [tensor_bench]="$bench/tensor/tensor_bench"
  # Chapter 1, part 2: the CPU GEMM versions against Eigen and the FMA peak.
  [cpu_gemm_bench]="$bench/tensor/cpu_gemm_bench"
  # Chapter 2: what a Session adds to its kernels, beside TensorFlow's
  # Session and PyTorch's eager calls (the peers of scripts/peers.sh).
  [graph_bench]="benchmarks/graph/compare.sh"
  # Chapter 3: training examples/s beside TensorFlow and PyTorch (the peers
  # of scripts/peers.sh), what a second thread gives, tf::gradients' cost.
  [train_bench]="benchmarks/train/compare.sh"
  # Chapter 4: what devices cost and buy; placing, cutting and first runs
  # beside TensorFlow's.
  [device_bench]="$bench/device/device_bench"
  [placement_bench]="benchmarks/device/compare.sh"
  # Chapter 6: what two towers buy on two cores; gather against ring.
  [towers_bench]="$bench/towers/towers_bench"
  [all_reduce_bench]="$bench/towers/all_reduce_bench"
  # Chapter 7: a parameter server's pull and push against raw gRPC; what
  # staleness costs seed 003's model (deterministic); synchronous training's
  # second worker and its barrier.
  [ps_bench]="$bench/distributed/ps_bench"
  [stale_gradients]="build/all/programs/07-ps-worker-distribution/stale_gradients --seeds=8"
  [sync_bench]="$bench/distributed/sync_bench --runs=3"
  # Chapter 5, on the CPU emulator of CUDA. The GPU's own files
  # (results/gpu_*.md) come from scripts/gpu_check.sh on a machine with a GPU.
  [emulator_bench]="$bench/gpu/emulator_bench"
  [emulator_gemm]="$bench/gpu/gemm_bench --emulated"
  [emulator_ops]="$bench/gpu/gpu_ops_bench --emulated"
  # The testing page: every fuzzer for ten minutes (about four hours in
  # all; fuzz/ and scripts/fuzz.sh say what is fuzzed).
  [fuzz]="scripts/fuzz.sh 600"
  # Chapters 1 and 3 as a CPU with AVX2 and FMA but no AVX-512 sees them.
  [cpu_gemm_bench_avx2]="avx2_build cpu_gemm_bench && (avx2_env && build/avx2/benchmarks/tensor/cpu_gemm_bench)"
  [train_bench_avx2]="benchmarks/train/compare.sh --isa avx2"
  [emulator_cpu_vs_gpu]="env -u CUDA_VISIBLE_DEVICES MINITF_VIRTUAL_GPUS=1 MINITF_EMULATE_GPU_KERNELS=1 build/all/programs/05-gpu-kernels/cpu_vs_gpu --table --steps 10 --rounds 3"
)

names=("$@")
((${#names[@]})) || mapfile -t names < <(printf '%s\n' "${!RECORD[@]}" | grep -vx -e fuzz -e '.*_avx2' | sort)
for name in "${names[@]}"; do
  [[ -n "${RECORD[$name]:-}" ]] || { echo "record_results: no benchmark named '$name'" >&2; exit 2; }
  echo "=== $name: ${RECORD[$name]}"
  eval "${RECORD[$name]}"
  [[ -s "results/$name.md" ]] || { echo "record_results: $name wrote no results/$name.md" >&2; exit 1; }
done
