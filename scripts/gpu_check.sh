#!/usr/bin/env bash
# Chapter 5 measured in one command: builds the course's GPU parts, runs the
# GPU tests and the benchmarks, and writes the chapter's results files.
#
#   scripts/gpu_check.sh                      # on a machine with a GPU:
#                                             # writes results/gpu_*.md
#   scripts/gpu_check.sh --emulated           # on the CPU emulator of CUDA
#   scripts/gpu_check.sh --emulated --quick   # CI: shorter runs
#   scripts/gpu_check.sh --logs DIR           # each step's whole output there
#
# On a GPU: configures build/gpu with nvcc for the GPU it finds
# (CMAKE_CUDA_ARCHITECTURES=native), builds chapter 5's tests, programs,
# exercises and benchmarks, runs `ctest -L gpu` (the tests that run on a real
# GPU), gemm_bench at 4096^3 (cuBLAS against the FP32 peak, each teaching
# GEMM as % of cuBLAS), gpu_ops_bench (bandwidths as fractions of the
# device-to-device copy's, softmax at batch 100, the executor's overhead per
# GPU op) and cpu_vs_gpu --table (seed 002's model and an MLP with 256
# hidden units, at batch 100 and 1000, on the GPU and on the CPU). Their
# tables, each naming the GPU, go to results/gpu_gemm.md, gpu_ops.md and
# gpu_cpu_vs_gpu.md, the files chapter 5 includes: commit them.
#
# --emulated does the same on the emulator, in the normal build tree
# ($MINITF_BUILD, configured if absent), with `ctest -L ch05` (every test of
# the chapter) for the GPU tests, which skip without a GPU. Its figures are
# the emulator's, and the tables say so (results/emulator_*.md). --quick
# makes every run short, writes no results file unless MINITF_RESULTS_DIR
# is set, and leaves out the chapter's two slow tests, the seed's program on
# an emulated GPU and the installed package's (labels program and install),
# which the whole suite runs anyway.
#
# What the build needs and the machine lacks is named before the build, and
# a failed step is marked in the table; the script then exits with 1.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
source scripts/common.sh

emulated=0
quick=0
logs=""
while (($#)); do
  case "$1" in
    --emulated) emulated=1 ;;
    --quick) quick=1 ;;
    --logs)
      [[ $# -ge 2 ]] || { echo "gpu_check: --logs needs a folder" >&2; exit 2; }
      logs="$2"
      shift
      ;;
    *)
      echo "usage: scripts/gpu_check.sh [--emulated] [--quick] [--logs DIR]" >&2
      exit 2
      ;;
  esac
  shift
done
start=$SECONDS
step() { printf '\n=== gpu_check: %s (%ds) ===\n' "$*" $((SECONDS - start)); }

# --- what the machine has ---------------------------------------------------
# A fresh machine with a GPU may lack the build's tools and libraries, and
# may have no way to fetch them: name each one missing, with the Debian
# package that brings it (scripts/setup.sh installs them all).
step "what this machine has"
missing=()
need() {  # need <what> <Debian package> <file or command>...
  local what="$1" package="$2" marker
  shift 2
  for marker in "$@"; do
    if [[ "$marker" == /* ]]; then [[ -e "$marker" ]] && return 0
    else command -v "$marker" >/dev/null && return 0
    fi
  done
  missing+=("$what (Debian: $package)")
}
need "CMake 3.25 or later" cmake cmake
need "Ninja" ninja-build ninja
need "a C++20 compiler" g++ g++ c++
need "Eigen 3.4" libeigen3-dev /usr/include/eigen3/Eigen/Core /usr/local/include/eigen3/Eigen/Core
need "GoogleTest" libgtest-dev /usr/include/gtest/gtest.h /usr/local/include/gtest/gtest.h
need "GoogleMock" libgmock-dev /usr/include/gmock/gmock.h /usr/local/include/gmock/gmock.h
need "Google Benchmark" libbenchmark-dev /usr/include/benchmark/benchmark.h /usr/local/include/benchmark/benchmark.h
need "Protocol Buffers" libprotobuf-dev /usr/include/google/protobuf/message.h /usr/local/include/google/protobuf/message.h
need "protoc" protobuf-compiler protoc
need "zlib" zlib1g-dev /usr/include/zlib.h
need "Boost.Context" libboost-context-dev /usr/include/boost/context/detail/fcontext.hpp /usr/local/include/boost/context/detail/fcontext.hpp
if command -v cmake >/dev/null; then
  cmake_version=$(cmake --version | sed -n 's/^cmake version \([0-9.]*\).*/\1/p')
  if [[ "$(printf '%s\n' 3.25 "$cmake_version" | sort -V | head -1)" != 3.25 ]]; then
    missing+=("CMake 3.25 or later (this one is $cmake_version)")
  fi
fi
gpu_name=""
if ((!emulated)); then
  need "nvcc, the CUDA compiler" "the CUDA toolkit" nvcc /usr/local/cuda/bin/nvcc
  if command -v nvidia-smi >/dev/null; then
    gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
  fi
  if [[ -z "$gpu_name" ]]; then
    echo "gpu_check: nvidia-smi finds no GPU here; scripts/gpu_check.sh --emulated" \
         "measures the CPU emulator of CUDA instead." >&2
    exit 1
  fi
  echo "GPU: $gpu_name"
fi
# The seed's data, for the program test of the full run (not a build need).
if [[ ! -e /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz ]] && ((!quick)); then
  echo "note: Fashion-MNIST (Debian: dataset-fashion-mnist) is missing, so the test" \
       "program.seed_softmax_regression_gpu will fail"
fi
if ((${#missing[@]})); then
  echo "gpu_check: this machine lacks what the build needs:"
  printf '  - %s\n' "${missing[@]}"
  echo "Install them (scripts/setup.sh on Debian or Ubuntu), or bring their packages" \
       "along on a machine without a network, and run this again."
  exit 1
fi
echo "tools and libraries: all there"

# --- build ------------------------------------------------------------------
if ((emulated)); then
  build="$MINITF_BUILD"
  cmake_args=()
else
  build="$MINITF_ROOT/build/gpu"
  cmake_args=(-DCMAKE_CUDA_ARCHITECTURES=native)
fi
logs="${logs:-$build/gpu_check_logs}"
mkdir -p "$logs"
logs="$(cd "$logs" && pwd)"
rows=()  # "figure<TAB>value" lines of the final table
failed=()
row() { rows+=("$1"$'\t'"$2"); }
# run <name> <command...>: the command's output to the terminal and to
# $logs/<name>.log; a failure is remembered for the table.
run() {
  local name="$1"
  shift
  "$@" 2>&1 | tee "$logs/$name.log"
  local rc=${PIPESTATUS[0]}
  if ((rc != 0)); then
    failed+=("$name (exit $rc)")
    row "FAILED: $name" "exit $rc; see $logs/$name.log"
  fi
  return "$rc"
}

step "configure and build ($build)"
if [[ ! -f "$build/build.ninja" ]] || ((${#cmake_args[@]})); then
  mkdir -p "$(dirname "$build")"
  if ! cmake -S "$MINITF_ROOT" -B "$build" -G Ninja "${cmake_args[@]}" >"$logs/configure.log" 2>&1; then
    grep -A8 "CMake Error" "$logs/configure.log" | head -40
    echo "gpu_check: configuring $build failed; the whole log: $logs/configure.log"
    exit 1
  fi
fi
if ((!emulated)) && ! grep -q "minitf: CUDA parts ON" "$logs/configure.log"; then
  echo "gpu_check: CMake found no CUDA compiler in $build; see $logs/configure.log"
  exit 1
fi
# Chapter 5's folders only: each CMake folder's "all" target.
if ! cmake --build "$build" -j "$MINITF_JOBS" --target tests/gpu/all \
    programs/05-gpu-kernels/all exercises/05-gpu-kernels/all benchmarks/gpu/all \
    >"$logs/build.log" 2>&1; then
  grep -B2 -A12 "FAILED\|error:" "$logs/build.log" | head -60
  echo "gpu_check: the build failed; the whole log: $logs/build.log"
  exit 1
fi
echo "built: chapter 5's tests, programs, exercises and benchmarks"
bench="$build/benchmarks/gpu"
programs="$build/programs/05-gpu-kernels"

# --- tests ------------------------------------------------------------------
if ((emulated)); then
  labels=(-L ch05)
  ((quick)) && labels+=(-LE 'program|install')
else
  labels=(-L gpu)
fi
step "tests: ctest ${labels[*]}"
run tests ctest --test-dir "$build" "${labels[@]}" -j "$MINITF_JOBS" --output-on-failure \
  >/dev/null || tail -n 40 "$logs/tests.log"
summary=$(grep -E "tests passed|tests failed" "$logs/tests.log" | tail -1)
skipped=$(grep -c "Skipped" "$logs/tests.log")
echo "$summary; $skipped skipped"
row "ctest ${labels[*]}" "$summary; $skipped skipped"

# --- benchmarks -------------------------------------------------------------
# Each benchmark prints its tables as Markdown (benchmarks/tensor/results.h)
# and, when MINITF_RESULTS_DIR is set, writes them there: a full run writes
# the book's results files (results/gpu_*.md on a GPU, naming it;
# results/emulator_*.md with --emulated), which fill the chapter's tables. A
# quick run writes none unless MINITF_RESULTS_DIR is set.
if ((!quick)); then
  export MINITF_RESULTS_DIR="${MINITF_RESULTS_DIR:-$MINITF_ROOT/results}"
fi
if [[ -n "${MINITF_RESULTS_DIR:-}" ]]; then
  mkdir -p "$MINITF_RESULTS_DIR"
  echo "results files: $MINITF_RESULTS_DIR"
  # The commit each file names (results.h), so that
  # `scripts/record_results.sh --check` can tell when its code has changed.
  export MINITF_COMMIT="${MINITF_COMMIT:-$(results_commit)}"
fi
written=()  # the results files this run wrote
# bench <name> <results file stem> <command...>
bench() {
  local name="$1" stem="$2"
  shift 2
  step "$name: ${*#"$MINITF_ROOT/"}"
  if run "$name" "$@" && [[ -n "${MINITF_RESULTS_DIR:-}" ]]; then
    written+=("$MINITF_RESULTS_DIR/$stem.md")
  fi
}

if ((emulated)); then
  gemm_args=(--emulated)
  ((quick)) && gemm_args+=(--quick)
  bench gemm_bench emulator_gemm "$bench/gemm_bench" "${gemm_args[@]}"
else
  gemm_args=()
  ((quick)) && gemm_args=(--quick)
  bench gemm_bench gpu_gemm "$bench/gemm_bench" "${gemm_args[@]}"
fi

ops_args=()
((emulated)) && ops_args+=(--emulated)
((quick)) && ops_args+=(--quick)
bench gpu_ops_bench "$( ((emulated)) && echo emulator_ops || echo gpu_ops)" \
  "$bench/gpu_ops_bench" "${ops_args[@]}"

# Seed 002's model and the MLP at batch 100 and 1000, on the GPU against
# minitf on the CPU.
if ((emulated)); then
  vs_args=($( ((quick)) && echo --steps 1 --rounds 1 || echo --steps 10 --rounds 3))
  gpu_env=(env -u CUDA_VISIBLE_DEVICES MINITF_VIRTUAL_GPUS=1 MINITF_EMULATE_GPU_KERNELS=1)
  stem=emulator_cpu_vs_gpu
else
  vs_args=($( ((quick)) && echo --steps 20 --rounds 3 || echo --steps 100 --rounds 5))
  gpu_env=(env -u MINITF_VIRTUAL_GPUS -u MINITF_EMULATE_GPU_KERNELS)
  stem=gpu_cpu_vs_gpu
fi
bench cpu_vs_gpu "$stem" "${gpu_env[@]}" "$programs/cpu_vs_gpu" --table "${vs_args[@]}"

# --- summary ----------------------------------------------------------------
step "done"
echo
if ((emulated)); then
  echo "Chapter 5 on the CPU emulator of CUDA: the figures above are the emulator's,"
  echo "NOT a GPU's speed. Run scripts/gpu_check.sh on a machine with a GPU for those."
else
  echo "Chapter 5 on $gpu_name"
fi
echo "scripts/gpu_check.sh$( ((emulated)) && echo ' --emulated')$( ((quick)) && echo ' --quick'):" \
     "$((SECONDS - start)) s"
for r in "${rows[@]}"; do
  printf '  %s: %s\n' "${r%%$'\t'*}" "${r#*$'\t'}"
done
if ((${#written[@]})); then
  echo "results files written (the chapter's tables):"
  printf '  %s\n' "${written[@]#"$MINITF_ROOT/"}"
fi
if ((${#failed[@]})); then
  echo "gpu_check: failed: ${failed[*]}"
  exit 1
fi
