#!/usr/bin/env bash
# The GPU bundle: chapter 5's GPU programs built here, with nvcc, for a
# machine with an NVIDIA Hopper GPU (H100, H200) that has none of the
# build's libraries and cannot fetch them.
#
#   scripts/gpu_bundle.sh            # builds build/gpu-bundle/bundle
#   scripts/gpu_bundle.sh --no-build # gathers the bundle from the last build
#   scripts/gpu_bundle.sh --from DIR # gathers it from another build folder
#                                    # with CUDA (its libraries are carried
#                                    # as they are linked there)
#   scripts/gpu_bundle.sh --help
#
# What it builds (build/gpu-bundle/build, chapter 6's project, for sm_90
# with PTX beside it, so that a later GPU compiles the PTX at start): the
# tests that run on a GPU (kernels_on_gpu_test, gemm_on_gpu_test,
# gpu_ops_on_gpu_test, nccl_on_gpu_test), gemm_bench (with
# gemm_bench_emulated), gpu_ops_bench, cpu_vs_gpu, seed 002's
# seed_softmax_regression_gpu and seed 004's seed_multi_gpu_model: what
# scripts/gpu_check.sh runs, and the tower program on one GPU. The code is
# compiled for any x86-64 processor (MINITF_NATIVE=OFF), not for this one.
#
# What the bundle holds (build/gpu-bundle/bundle, at most 60 MiB):
#   bin.tar.gz          the programs, stripped and packed (run.sh unpacks them
#                       into a temporary folder). Linked statically:
#                       libstdc++, libgcc, the CUDA runtime (cudart_static),
#                       protobuf, GoogleTest, Boost.Context and zlib
#   lib/                every other shared library they load that is neither
#                       the C library's nor the driver's nor CUDA's (OpenMP's
#                       libgomp), as `ldd` lists them
#   data/fashion-mnist/ the seeds' data set
#   run.sh              runs it all (scripts/gpu_bundle_run.sh; run.sh --help)
#   fallback-src.tar.gz the sources run.sh builds with the machine's own nvcc
#                       when a binary cannot start: kernels_on_gpu_test,
#                       gemm_on_gpu_test and gemm_bench need only CUDA, cuBLAS
#                       and GoogleTest (its source is in the archive)
#   MANIFEST.txt        what was built, how, and each binary's libraries
# Not in it: libcuda.so.1 (the driver's), cuBLAS 13 (libcublas,
# libcublasLt: over 500 MiB) and NCCL 2 (over 200 MiB). run.sh finds them on
# the machine: in a CUDA 13 toolkit (/usr/local/cuda), the system's
# libraries, or Python's nvidia-cublas and nvidia-nccl wheels.
#
# The run, on a machine with the GPU (one command; it ends within 9 minutes,
# a step still running then being stopped and marked in the table):
#   copy build/gpu-bundle/bundle there (at most 60 MiB), then
#   bundle/run.sh RESULTS_DIR        (or with $OUT set: bundle/run.sh)
# Give the command 10 minutes. The machine needs the NVIDIA driver and
# cuBLAS 13 and NCCL 2, nothing else.
# RESULTS_DIR receives machine.txt (OS, C library, driver, GPU, nvcc),
# table.md (a row per step), run.log (every output) and results/gpu_*.md,
# chapter 5's tables: copy those to the repository's results/ and commit.
#
# tests/tools/gpu_bundle_test.sh checks a bundle here: every binary's
# libraries resolve from the bundle alone (libcuda, cuBLAS and NCCL aside),
# and, with --chroot DIR, run.sh passes in a bare Debian made by debootstrap.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
source scripts/common.sh

build=1
from=""
while (($#)); do
  case "$1" in
    --no-build) build=0 ;;
    --from)
      [[ $# -ge 2 ]] || { echo "gpu_bundle: --from needs a build folder" >&2; exit 2; }
      build=0
      from="$(cd "$2" && pwd)" || exit 2
      shift
      ;;
    -h | --help) awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$0"; exit 0 ;;
    *) echo "usage: scripts/gpu_bundle.sh [--no-build | --from DIR] [--help]" >&2; exit 2 ;;
  esac
  shift
done

top="$MINITF_ROOT/build/gpu-bundle"
dir="${from:-$top/build}"
bundle="$top/bundle"
nvcc=/usr/local/cuda/bin/nvcc
cuda_lib=/usr/local/cuda/lib64
targets=(kernels_on_gpu_test gemm_on_gpu_test gpu_ops_on_gpu_test nccl_on_gpu_test
         gemm_bench gemm_bench_emulated gpu_ops_bench cpu_vs_gpu
         seed_softmax_regression_gpu seed_multi_gpu_model)

if ((build)); then
  [[ -x "$nvcc" ]] || { echo "gpu_bundle: no nvcc at $nvcc" >&2; exit 1; }
  echo "gpu_bundle: configuring $dir"
  # Static where Debian ships the archive; the C++ runtime always.
  configure "$MINITF_ROOT/chapters/06-multi-gpu-towers" "$dir" \
    -DCMAKE_BUILD_TYPE=Release -DMINITF_NATIVE=OFF \
    -DCMAKE_CUDA_COMPILER="$nvcc" "-DCMAKE_CUDA_ARCHITECTURES=90-real;90-virtual" \
    -DCMAKE_CUDA_RUNTIME_LIBRARY=Static -DCUDA_cudart_LIBRARY="$cuda_lib/libcudart_static.a" \
    -DProtobuf_USE_STATIC_LIBS=ON -DBoost_USE_STATIC_LIBS=ON -DZLIB_USE_STATIC_LIBS=ON \
    "-DCMAKE_EXE_LINKER_FLAGS=-static-libstdc++ -static-libgcc" \
    "-DCMAKE_CXX_STANDARD_LIBRARIES=-ldl -lrt -lpthread" || exit 1
  grep -q "minitf: CUDA parts ON" "$dir.configure.log" ||
    { echo "gpu_bundle: CMake found no CUDA compiler; see $dir.configure.log" >&2; exit 1; }
  echo "gpu_bundle: building ${#targets[@]} programs (nvcc is slow: many minutes)"
  cmake --build "$dir" -j "$MINITF_JOBS" --target "${targets[@]}" || exit 1
fi

# --- gather -----------------------------------------------------------------
echo "gpu_bundle: gathering $bundle"
rm -rf "${bundle:?}" "${top:?}/bin"
mkdir -p "$top/bin" "$bundle/lib" "$bundle/data" || exit 1
for t in "${targets[@]}"; do
  f=$(find "$dir" -type f -name "$t" -perm -u+x -not -path "*/CMakeFiles/*" | head -1)
  [[ -n "$f" ]] || { echo "gpu_bundle: $t was not built" >&2; exit 1; }
  strip --strip-unneeded -o "$top/bin/$t" "$f" || exit 1
done

# Libraries that a bare machine has, or must not be carried: the C library's
# own, the loader, the driver's, and CUDA's big ones, which run.sh finds.
on_the_machine='^(linux-vdso|ld-linux|libc|libm|libdl|librt|libpthread|libutil|libresolv|libcuda|libnvidia-|libcublas|libcublasLt|libnccl)[.-]'
manifest_libs=()
for bin in "$top"/bin/*; do
  while read -r name _ path _; do
    if [[ "$path" == "not" ]]; then
      [[ "$name" =~ ^libcuda\. ]] && continue
      echo "gpu_bundle: $(basename "$bin") needs $name, which is not found here" >&2
      exit 1
    fi
    [[ "$name" =~ $on_the_machine ]] && continue
    [[ -e "$path" ]] || continue
    cp -L "$path" "$bundle/lib/$name"
  done < <(ldd "$bin" | grep "=>")
  manifest_libs+=("$(basename "$bin"): $(ldd "$bin" | awk '/=>/ {print $1}' | tr '\n' ' ')")
done

mnist="${MINITF_MNIST_DIR:-/usr/share/datasets/fashion-mnist}"
if [[ -e "$mnist/train-images-idx3-ubyte.gz" ]]; then
  mkdir -p "$bundle/data/fashion-mnist"
  cp "$mnist"/*-ubyte.gz "$bundle/data/fashion-mnist/"
else
  echo "gpu_bundle: note: no Fashion-MNIST at $mnist; the seeds will say so there" >&2
fi

# The fallback's sources: what kernels_on_gpu_test, gemm_on_gpu_test and
# gemm_bench include, and GoogleTest's source.
gtest_src=/usr/src/googletest/googletest
tar -czf "$bundle/fallback-src.tar.gz" -C "$MINITF_ROOT" src/minitf/gpu tests/gpu benchmarks/gpu \
  benchmarks/tensor/results.h benchmarks/tensor/timing.h \
  --transform "s,^$(dirname "${gtest_src#/}")/googletest,googletest," -C / "${gtest_src#/}" || exit 1

tar -czf "$bundle/bin.tar.gz" -C "$top" bin || exit 1
install -m 755 scripts/gpu_bundle_run.sh "$bundle/run.sh"
{
  echo "minitf GPU bundle, made $(date -u '+%Y-%m-%d %H:%M UTC') on $(. /etc/os-release; echo "$PRETTY_NAME"), $(ldd --version | head -1)"
  echo "source: $(git -C "$MINITF_ROOT" describe --always --dirty 2>/dev/null)"
  echo "nvcc: $("$nvcc" --version | tail -2 | head -1)"
  echo "GPU code: sm_90 machine code and compute_90 PTX"
  echo "static: libstdc++, libgcc, cudart_static, protobuf, GoogleTest, Boost.Context, zlib"
  echo "from the machine: libcuda.so.1 (driver), libcublas.so.13 + libcublasLt.so.13, libnccl.so.2"
  echo "carried in lib/: $(ls "$bundle/lib" | tr '\n' ' ')"
  echo "each binary's libraries (ldd):"
  printf '  %s\n' "${manifest_libs[@]}"
} >"$bundle/MANIFEST.txt"

size=$(du -sm "$bundle" | cut -f1)
echo "gpu_bundle: $bundle, $size MiB:"
(cd "$bundle" && du -sh bin.tar.gz lib data fallback-src.tar.gz | sed 's/^/  /')
if ((size > 60)); then
  echo "gpu_bundle: the bundle is over 60 MiB" >&2
  exit 1
fi
echo "Copy it to the machine with the GPU and run: bundle/run.sh RESULTS_DIR"
