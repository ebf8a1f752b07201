#!/usr/bin/env bash
# run.sh of the GPU bundle (scripts/gpu_bundle.sh copies this file there):
# chapter 5's GPU tests, benchmarks and programs, and chapter 6's NCCL test
# and tower program on one GPU, run on the machine this folder was copied to.
#
#   ./run.sh [--quick] [--rebuild] [RESULTS_DIR]  # RESULTS_DIR, else $OUT,
#                                                 # else ./out
#
# It ends within 7 minutes (MINITF_BUNDLE_SECONDS=420): a step still running
# then is stopped and marked, and the table is written all the same.
#
# It writes, in RESULTS_DIR:
#   machine.txt   what the machine is: OS release, C library, CPU, driver and
#                 GPU (nvidia-smi), nvcc, and where cuBLAS and NCCL were found
#   run.log       every step's whole output
#   table.md      one row per step: passed, skipped, failed, with its time
#   results/      gpu_gemm.md, gpu_ops.md, gpu_cpu_vs_gpu.md: the tables that
#                 chapter 5 includes (copy them to the repository's results/)
#
# Without a GPU the tests skip, saying why, and the programs run briefly on
# the CPU emulator of CUDA, to show that each one starts; no results files
# are written then.
#
# The binaries link libstdc++, libgcc, the CUDA runtime, protobuf, GoogleTest,
# Boost.Context and zlib statically; lib/ holds the other libraries they
# need. cuBLAS 13 and NCCL 2 are the machine's: a CUDA 13 toolkit, the
# system's libraries, or Python's nvidia-* wheels (searched in that order).
# libcuda.so.1 is the driver's.
#
# The fallback: when a binary cannot start here (a library or C library
# version missing), or with --rebuild, the programs are built here from
# fallback.tar.xz with the machine's nvcc, CMake and C++ compiler (ninja if
# there is one), on all its cores, and run instead. The archive holds the
# repository's sources and the headers, static libraries and CMake files of
# the packages the build needs (Eigen, protobuf with protoc, GoogleTest,
# Google Benchmark, Boost.Context, zlib, NCCL's header), so the machine needs
# none of them. The build has at most 4 minutes of the run's 7.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
quick=0
rebuild=0
out=""
while (($#)); do
  case "$1" in
    --quick) quick=1 ;;
    --rebuild) rebuild=1 ;;
    -h | --help) awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$0"; exit 0 ;;
    *) out="$1" ;;
  esac
  shift
done
out="${out:-${OUT:-$here/out}}"
mkdir -p "$out/results" || exit 1
out="$(cd "$out" && pwd)"
exec > >(tee "$out/run.log") 2>&1
start=$SECONDS
# The whole run ends within $MINITF_BUNDLE_SECONDS (default 420): each step
# stops at its own limit or at what is left of that, whichever comes first.
budget=${MINITF_BUNDLE_SECONDS:-420}
step() { printf '\n=== run.sh: %s (%ds) ===\n' "$*" $((SECONDS - start)); }

# --- what the machine is ----------------------------------------------------
step "what this machine is ($out/machine.txt)"
find_lib() {  # find_lib <soname>: the folder that holds it, or nothing
  local name="$1" dir root
  for dir in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib \
             /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib; do
    [[ -e "$dir/$name" ]] && { echo "$dir"; return; }
  done
  dir=$(ldconfig -p 2>/dev/null | awk -v n="$name" '$1 == n {print $NF; exit}')
  [[ -n "$dir" ]] && { dirname "$dir"; return; }
  for root in $(python3 -c 'import nvidia; print(" ".join(nvidia.__path__))' 2>/dev/null) \
              /opt/*/.venv/lib/python3*/site-packages/nvidia /usr/local/lib/python3*/dist-packages/nvidia; do
    [[ -d "$root" ]] || continue
    dir=$(find "$root" -maxdepth 4 -name "$name" -print -quit 2>/dev/null)
    [[ -n "$dir" ]] && { dirname "$dir"; return; }
  done
}
cublas_dir=$(find_lib libcublas.so.13)
nccl_dir=$(find_lib libnccl.so.2)
driver_dir=$(find_lib libcuda.so.1)
# The machine's cuBLAS and NCCL for every program; the bundle's lib/ (GCC
# 12's OpenMP) only for the bundle's programs, not for the machine's own
# tools or for programs the fallback builds with the machine's compiler.
machine_libpath=""
for d in "$cublas_dir" "$nccl_dir" "$driver_dir" ${LD_LIBRARY_PATH:+${LD_LIBRARY_PATH//:/ }}; do
  [[ -n "$d" ]] && machine_libpath="${machine_libpath:+$machine_libpath:}$d"
done
bundle_libpath="$here/lib${machine_libpath:+:$machine_libpath}"
export LD_LIBRARY_PATH="$machine_libpath"
gpu=""
if command -v nvidia-smi >/dev/null; then
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
fi
{
  echo "# The machine"
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "kernel: $(uname -srm)"
  echo "C library: $(ldd --version 2>&1 | head -1)"
  echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
  echo "GPU: ${gpu:-none found}"
  echo "cuBLAS 13: ${cublas_dir:-not found}"
  echo "NCCL 2: ${nccl_dir:-not found}"
  echo "driver's libcuda.so.1: ${driver_dir:-not found}"
  for tool in nvcc g++ cmake ninja python3; do
    echo "$tool: $(command -v "$tool" || echo absent)"
  done
  echo
  echo "## /etc/os-release"
  cat /etc/os-release 2>/dev/null
  echo
  echo "## nvidia-smi"
  nvidia-smi 2>&1 || echo "(no nvidia-smi)"
  echo
  echo "## nvcc --version"
  nvcc --version 2>&1 || /usr/local/cuda/bin/nvcc --version 2>&1 || echo "(no nvcc)"
  echo
  echo "## the bundle"
  cat "$here/MANIFEST.txt" 2>/dev/null
} >"$out/machine.txt"
sed -n '1,12p' "$out/machine.txt"

rows=()
failed=0
row() { rows+=("| $1 | $2 | $3 s | $4 |"); }

# --- do the binaries start? -------------------------------------------------
step "do the binaries start (the loader's view, libcuda aside)"
work=$(mktemp -d "${TMPDIR:-/tmp}/minitf-bundle.XXXXXX") && work=$(cd "$work" && pwd -P) || exit 1
trap 'rm -rf "$work"' EXIT
xz=("$here/tools/xz")  # through the loader if a copy lost its modes
[[ -x "$here/tools/xz" ]] || xz=(/lib64/ld-linux-x86-64.so.2 "$here/tools/xz")
unpack() {  # unpack <archive.tar.xz> <folder>: with xz (the machine's, else the
            # bundle's), else with Python's tarfile
  if command -v xz >/dev/null; then
    tar -xJf "$1" -C "$2"
  elif LD_LIBRARY_PATH="$here/tools" "${xz[@]}" --version >/dev/null 2>&1; then
    LD_LIBRARY_PATH="$here/tools" "${xz[@]}" -dc "$1" | tar -xf - -C "$2"
  else
    python3 -c 'import sys, tarfile
kw = {"filter": "fully_trusted"} if hasattr(tarfile, "fully_trusted_filter") else {}
tarfile.open(sys.argv[1]).extractall(sys.argv[2], **kw)' "$1" "$2"
  fi
}
unpack "$here/bin.tar.xz" "$work" || { echo "run.sh: cannot unpack bin.tar.xz (no xz, no python3?)"; exit 1; }
bindir="$work/bin"
programs=()
broken=()
for bin in "$bindir"/*; do
  name=$(basename "$bin")
  programs+=("$name")
  trace=$(LD_LIBRARY_PATH="$bundle_libpath" LD_TRACE_LOADED_OBJECTS=1 "$bin" 2>&1)
  rc=$?
  missing=$(grep -E "not found|No such file|cannot" <<<"$trace" | grep -v "libcuda\.so")
  if ((rc != 0)) || [[ -n "$missing" ]]; then
    echo "$name: cannot start here:"
    echo "$missing" | sed 's/^/    /'
    broken+=("$name")
  else
    echo "$name: starts"
  fi
done
to_build=("${broken[@]}")
((rebuild)) && to_build=("${programs[@]}")

# --- the fallback: the programs built here ----------------------------------
# fallback_build <program...>: builds them from fallback.tar.xz into
# $work/build; true if CMake's configure step passed.
fallback_build() {
  local nvcc cmake_bin generator cudart d="$work/fallback/deps" src="$work/fallback/src"
  local multi="$d/lib/x86_64-linux-gnu" limit nccl_args=() arch="90-real;90-virtual"
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  cmake_bin=$(command -v cmake)
  if [[ ! -x "$nvcc" || -z "$cmake_bin" ]] || ! command -v c++ >/dev/null; then
    echo "fallback: needs nvcc, cmake and c++; found: nvcc=$nvcc cmake=${cmake_bin:-none}" \
         "c++=$(command -v c++ || echo none)"
    return 1
  fi
  unpack "$here/fallback.tar.xz" "$work" || return 1
  generator="Unix Makefiles"
  command -v ninja >/dev/null && generator=Ninja
  cudart=$(find "$(dirname "$nvcc")/.." -name libcudart_static.a -print -quit 2>/dev/null)
  [[ -n "$gpu" ]] && arch=native
  if [[ -n "$nccl_dir" ]]; then
    nccl_args=(-DMINITF_NCCL_LIBRARY="$nccl_dir/libnccl.so.2" -DMINITF_NCCL_INCLUDE_DIR="$d/include")
    [[ -e "$nccl_dir/../include/nccl.h" ]] && nccl_args[1]=-DMINITF_NCCL_INCLUDE_DIR="$nccl_dir/../include"
  fi
  echo "fallback: $("$nvcc" --version | tail -2 | head -1); $("$cmake_bin" --version | head -1);" \
       "$(c++ --version | head -1); generator $generator; CUDA architectures $arch"
  # CUDA 13 has no nvToolsExt, and FindCUDAToolkit of CMake 3.25.1 then
  # stops at a property of its missing target: any file will do, as
  # nothing links it.
  "$cmake_bin" -S "$src/chapters/06-multi-gpu-towers" -B "$work/build" -G "$generator" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES="$arch" \
    ${cudart:+-DCMAKE_CUDA_RUNTIME_LIBRARY=Static -DCUDA_cudart_LIBRARY="$cudart"} \
    ${cublas_dir:+-DCUDA_cublas_LIBRARY="$cublas_dir/libcublas.so.13"} \
    ${cublas_dir:+-DCUDA_cublasLt_LIBRARY="$cublas_dir/libcublasLt.so.13"} \
    "${nccl_args[@]}" -DCMAKE_PREFIX_PATH="$d" \
    -DEigen3_DIR="$d/share/eigen3/cmake" -DGTest_DIR="$multi/cmake/GTest" \
    -Dbenchmark_DIR="$multi/cmake/benchmark" -DBoost_DIR="$multi/cmake/Boost-1.74.0" \
    -DBoost_USE_STATIC_LIBS=ON -DProtobuf_USE_STATIC_LIBS=ON -DProtobuf_INCLUDE_DIR="$d/include" \
    -DProtobuf_LIBRARY="$multi/libprotobuf.a" -DProtobuf_LIBRARY_RELEASE="$multi/libprotobuf.a" \
    -DProtobuf_PROTOC_EXECUTABLE="$d/bin/protoc" -DZLIB_USE_STATIC_LIBS=ON \
    -DZLIB_INCLUDE_DIR="$d/include" -DZLIB_LIBRARY="$multi/libz.a" -DZLIB_LIBRARY_RELEASE="$multi/libz.a" \
    -DCUDA_nvToolsExt_LIBRARY="$multi/libz.a" \
    >"$work/configure.log" 2>&1
  local rc=$?
  tail -n 25 "$work/configure.log"
  ((rc == 0)) || { echo "fallback: CMake's configure step failed"; return 1; }
  # At most 4 minutes (MINITF_BUNDLE_BUILD_SECONDS), and always 3 left for
  # the steps.
  limit=$((budget - (SECONDS - start) - 180))
  ((limit > ${MINITF_BUNDLE_BUILD_SECONDS:-240})) && limit=${MINITF_BUNDLE_BUILD_SECONDS:-240}
  echo "fallback: building $* on $(nproc) cores (at most $limit s)"
  timeout "$limit" "$cmake_bin" --build "$work/build" -j "$(nproc)" --target "$@" 2>&1 |
    grep -vE "^\[[0-9]+/[0-9]+\] " | tail -n 60
  return 0
}
if ((${#to_build[@]})); then
  step "fallback: building ${to_build[*]} here"
  if fallback_build "${to_build[@]}"; then
    mkdir -p "$work/rebuilt"
    for name in "${programs[@]}"; do
      f=""
      [[ " ${to_build[*]} " == *" $name "* ]] &&
        f=$(find "$work/build" -type f -name "$name" -perm -u+x -not -path "*/CMakeFiles/*" | head -1)
      if [[ -n "$f" ]]; then
        ln -s "$f" "$work/rebuilt/$name" && echo "$name: built here"
      elif [[ " ${broken[*]} " == *" $name "* ]]; then
        echo "$name: the fallback did not build it"
      else
        ln -s "$bindir/$name" "$work/rebuilt/$name"
      fi
    done
    bindir="$work/rebuilt"
    broken=()
  fi
fi

if [[ -e "$here/data.tar.xz" ]]; then
  unpack "$here/data.tar.xz" "$work" || echo "run.sh: cannot unpack data.tar.xz"
fi

# --- the steps --------------------------------------------------------------
# run_step <name> <seconds> <command...>: runs it under a time limit, output
# to run.log, and adds its row to the table.
run_step() {
  local name="$1" limit="$2" t0=$SECONDS rc summary status
  shift 2
  local left=$((budget - (SECONDS - start)))
  ((limit > left)) && limit=$left
  if ((limit < 10)); then
    row "$name" "FAILED: not run, the run's ${budget} s are spent" 0 ""
    failed=1
    return
  fi
  step "$name: ${*#"$bindir/"}"
  local log="$out/.step.log" libpath="$bundle_libpath"
  [[ "$(readlink -f "$1")" == "$work/build/"* ]] && libpath="$machine_libpath"
  LD_LIBRARY_PATH="$libpath" timeout "$limit" "$@" >"$log" 2>&1
  rc=$?
  cat "$log"
  summary=$(grep -E "^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ tests?[,.]" "$log" | tr -s ' ' | paste -sd ';' -)
  if ((rc == 0)); then
    status=passed
    grep -q "SKIPPED" "$log" && status="passed (some skipped)"
  elif ((rc == 124)); then
    status="FAILED: ran past ${limit} s"
    failed=1
  else
    status="FAILED: exit $rc"
    failed=1
  fi
  [[ -z "$summary" ]] && summary=$(grep -v '^\s*$' "$log" | tail -1 | cut -c1-100 | tr '|' '/')
  row "$name" "$status" $((SECONDS - t0)) "$summary"
  rm -f "$log"
}
have() {  # have <binary>: true if it is there; else a row says so
  if [[ -x "$bindir/$1" ]] && [[ " ${broken[*]:-} " != *" $1 "* ]]; then
    return 0
  fi
  row "$1" "FAILED: cannot start here" 0 "see machine.txt and the loader's messages above"
  failed=1
  return 1
}

export MINITF_MNIST_DIR="$work/data/fashion-mnist"
tests=(kernels_on_gpu_test gemm_on_gpu_test gpu_ops_on_gpu_test nccl_on_gpu_test)
for t in "${tests[@]}"; do
  have "$t" && run_step "$t" 120 "$bindir/$t"
done

if [[ -n "$gpu" ]]; then
  # The book's tables, measured on this GPU, each naming the commit the
  # bundle was built from (results.h).
  export MINITF_RESULTS_DIR="$out/results"
  export MINITF_COMMIT="$(cat "$here/commit.txt" 2>/dev/null)"
  unset MINITF_VIRTUAL_GPUS MINITF_EMULATE_GPU_KERNELS
  q=()
  ((quick)) && q=(--quick)
  have gemm_bench && run_step gemm_bench 240 "$bindir/gemm_bench" "${q[@]}"
  have gpu_ops_bench && run_step gpu_ops_bench 240 "$bindir/gpu_ops_bench" "${q[@]}"
  vs=(--steps 100 --rounds 5)
  ((quick)) && vs=(--steps 20 --rounds 3)
  have cpu_vs_gpu && run_step cpu_vs_gpu 300 "$bindir/cpu_vs_gpu" --table "${vs[@]}"
  unset MINITF_RESULTS_DIR MINITF_COMMIT
  have seed_softmax_regression_gpu &&
    run_step seed_softmax_regression_gpu 300 "$bindir/seed_softmax_regression_gpu"
  have seed_multi_gpu_model &&
    run_step seed_multi_gpu_model 300 "$bindir/seed_multi_gpu_model" --num_gpus 1 --epochs 1 \
      --logdir "$out/.seed_multi_gpu_model_logs"
else
  # No GPU: each program once, briefly, on one emulated GPU.
  echo "No GPU here: the programs run briefly on the CPU emulator of CUDA."
  export MINITF_VIRTUAL_GPUS=1 MINITF_EMULATE_GPU_KERNELS=1
  unset CUDA_VISIBLE_DEVICES MINITF_RESULTS_DIR
  have gemm_bench && [[ -x "$bindir/gemm_bench_emulated" ]] &&
    run_step "gemm_bench --emulated" 240 "$bindir/gemm_bench" --emulated --quick
  have gpu_ops_bench && run_step gpu_ops_bench 240 "$bindir/gpu_ops_bench" --emulated --quick
  have cpu_vs_gpu && run_step cpu_vs_gpu 240 "$bindir/cpu_vs_gpu" --steps 2 --hidden 32
  have seed_softmax_regression_gpu &&
    run_step seed_softmax_regression_gpu 300 "$bindir/seed_softmax_regression_gpu" --epochs 1
  unset MINITF_VIRTUAL_GPUS
  have seed_multi_gpu_model &&
    run_step seed_multi_gpu_model 300 "$bindir/seed_multi_gpu_model" --num_gpus 1 --epochs 1 \
      --steps 20 --logdir "$out/.seed_multi_gpu_model_logs"
fi
rm -rf "$out/.seed_multi_gpu_model_logs"

# --- the table --------------------------------------------------------------
step "done"
{
  echo "# The GPU bundle on ${gpu:-a machine without a GPU}"
  echo
  echo "| step | status | time | summary |"
  echo "| --- | --- | --- | --- |"
  printf '%s\n' "${rows[@]}"
  echo
  echo "whole run: $((SECONDS - start)) s; the machine: machine.txt; every step's output: run.log"
  if [[ -n "$gpu" ]]; then
    echo "chapter 5's tables: $(cd "$out" && ls results/*.md 2>/dev/null | tr '\n' ' ')"
  fi
} >"$out/table.md"
rmdir "$out/results" 2>/dev/null
cat "$out/table.md"
exit "$failed"
