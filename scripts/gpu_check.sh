#!/usr/bin/env bash
# Chapter 5 measured in one command: builds the course's GPU parts, runs the
# GPU tests and the benchmarks, and ends with one table of every figure.
#
#   scripts/gpu_check.sh                      # on a machine with a GPU
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
# GPU op) and cpu_vs_gpu on seed 002's model and on an MLP with 256 hidden
# units, on the GPU and on the CPU.
#
# --emulated does the same on the emulator, in the normal build tree
# ($MINITF_BUILD, configured if absent), with `ctest -L ch05` (every test of
# the chapter) for the GPU tests, which skip without a GPU. Its figures are
# the emulator's, and the table says so. --quick makes every run short and
# leaves out the chapter's two slow tests, the seed's program on an emulated
# GPU and the installed package's (labels program and install), which the
# whole suite runs anyway.
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
# In a figure's name: what it is; in its value: the number and its unit.
field() {  # field <log> <line pattern> <awk field>
  grep -m1 -E "$2" "$logs/$1.log" | awk "{print \$$3}"
}

if ((emulated)); then
  step "gemm_bench --emulated --quick"
  if run gemm_bench "$bench/gemm_bench" --emulated --quick; then
    row "$(grep -m1 '^SGEMM' "$logs/gemm_bench.log" | sed 's/ on the.*//'), emulated" \
        "CPU time of the emulation, x the CPU reference loop's"
    while read -r name ms times _; do
      row "  $name" "$ms ms, ${times}x reference"
    done < <(grep -E '^v[0-9]' "$logs/gemm_bench.log")
  fi
else
  step "gemm_bench (SGEMM $( ((quick)) && echo 1024 || echo 4096 )^3)"
  gemm_args=()
  ((quick)) && gemm_args=(--quick)
  if run gemm_bench "$bench/gemm_bench" "${gemm_args[@]}"; then
    row "$(grep -m1 '^SGEMM' "$logs/gemm_bench.log" | sed 's/,.*//'), FP32" "GFLOP/s, % of cuBLAS"
    row "  cublasSgemm" "$(field gemm_bench '^cublasSgemm' 3) GFLOP/s"
    row "  FP32 peak" "$(grep -m1 '^FP32 peak' "$logs/gemm_bench.log" | sed 's/^FP32 peak //')"
    while read -r name _ gflops percent _; do
      row "  $name" "$gflops GFLOP/s, $percent% of cuBLAS"
    done < <(grep -E '^v[0-9]' "$logs/gemm_bench.log")
  fi
fi

ops_args=()
((emulated)) && ops_args+=(--emulated)
((quick)) && ops_args+=(--quick)
step "gpu_ops_bench ${ops_args[*]}"
if run gpu_ops_bench "$bench/gpu_ops_bench" "${ops_args[@]}"; then
  if [[ -z "$gpu_name" ]]; then
    gpu_name=$(sed -n 's/^device: //p' "$logs/gpu_ops_bench.log" | head -1)
  fi
  row "bandwidth: $(grep -m1 '^bandwidth' "$logs/gpu_ops_bench.log" | sed 's/^bandwidth: //; s/, [0-9]* calls.*//')" \
      "GB/s, fraction of the copy's (target >= 0.8)"
  for op in "copy device to device" "Add (elementwise)" "Sum of the vector" \
            "Sum of each row" "Sum of each column"; do
    line=$(grep -m1 -F "  $op" "$logs/gpu_ops_bench.log")
    row "  $op" "$(awk '{for (i = 1; i <= NF; i++) if ($i == "GB/s") print $(i-1) " GB/s, " $(i+1)}' <<<"$line")"
  done
  for op in "Softmax " "SoftmaxCrossEntropyWithLogits"; do
    line=$(grep -m1 -F "  $op" "$logs/gpu_ops_bench.log")
    row "  ${op% } 100x10" "$(awk '{print $2 " us a call queued, " $5 " us alone"}' <<<"$line")"
  done
  for what in "per op on /gpu:0" "executor overhead per GPU op" "per op on /cpu:0" \
              "GPU overhead / CPU op"; do
    line=$(grep -m1 -F "  $what" "$logs/gpu_ops_bench.log")
    row "  session chain: $what" "${line##*  }"
  done
fi

# seed 002's model and the MLP, examples/s on the GPU against minitf on the CPU
if ((emulated)); then
  steps=$( ((quick)) && echo 2 || echo 10 )
  gpu_env=(env -u CUDA_VISIBLE_DEVICES MINITF_VIRTUAL_GPUS=1 MINITF_EMULATE_GPU_KERNELS=1)
else
  steps=$( ((quick)) && echo 20 || echo 100 )
  gpu_env=(env -u MINITF_VIRTUAL_GPUS -u MINITF_EMULATE_GPU_KERNELS)
fi
for model in seed mlp; do
  args=(--steps "$steps")
  [[ $model == mlp ]] && args+=(--hidden 256)
  step "cpu_vs_gpu ${args[*]}"
  if run "cpu_vs_gpu_$model" "${gpu_env[@]}" "$programs/cpu_vs_gpu" "${args[@]}"; then
    log="cpu_vs_gpu_$model"
    row "$(sed -n 's/^model: //p' "$logs/$log.log")" \
        "GPU $(field "$log" '^GPU: ' 4 | tr -d '(') ex/s, CPU $(field "$log" '^CPU: ' 4 | tr -d '(') ex/s, GPU time / CPU time $(field "$log" '^GPU time' 6)"
  fi
done

# --- the table --------------------------------------------------------------
step "done"
echo
if ((emulated)); then
  echo "Chapter 5's figures on the CPU emulator of CUDA ($gpu_name): the emulator's,"
  echo "NOT a GPU's speed. Run scripts/gpu_check.sh on a machine with a GPU for those."
else
  echo "Chapter 5's figures on $gpu_name"
fi
echo "($(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)," \
     "scripts/gpu_check.sh$( ((emulated)) && echo ' --emulated')$( ((quick)) && echo ' --quick'), $((SECONDS - start)) s)"
width=0
for r in "${rows[@]}"; do
  name="${r%%$'\t'*}"
  ((${#name} > width)) && width=${#name}
done
printf '%s\n' "${rows[@]}" | while IFS=$'\t' read -r name value; do
  printf "  %-${width}s  %s\n" "$name" "$value"
done
if ((${#failed[@]})); then
  echo "gpu_check: failed: ${failed[*]}"
  exit 1
fi
