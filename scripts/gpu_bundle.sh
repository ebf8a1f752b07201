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
# compiled for any x86-64 processor with SSE4.2 (-march=x86-64-v2), not for
# this one (MINITF_NATIVE=OFF).
#
# What the bundle holds (build/gpu-bundle/bundle, at most 57 MiB, so that it
# travels with the repository's files within 64 MiB):
#   bin.tar.xz      the programs, stripped and packed (run.sh unpacks them
#                   into a temporary folder). Linked statically: libstdc++,
#                   libgcc, the CUDA runtime (cudart_static), protobuf,
#                   GoogleTest, Boost.Context and zlib
#   lib/            every other shared library they load that is neither the
#                   C library's nor the driver's nor CUDA's (GCC 12's
#                   OpenMP, libgomp), as `ldd` lists them
#   data.tar.xz     the seeds' data set (Fashion-MNIST)
#   tools/          xz and its liblzma, for a machine without xz
#   commit.txt      the commit built, which the results files name
#   fallback.tar.xz the repository's files, and the headers, static
#                   libraries and CMake files of Eigen, protobuf (with
#                   protoc), GoogleTest, Google Benchmark, Boost.Context,
#                   zlib and NCCL's header: run.sh --rebuild, or a binary
#                   that cannot start there, builds the programs there with
#                   the machine's nvcc, CMake and C++ compiler
#   run.sh          runs it all (scripts/gpu_bundle_run.sh; run.sh --help)
#   MANIFEST.txt    what was built, how, and each binary's libraries
# Not in it: libcuda.so.1 (the driver's), cuBLAS 13 (libcublas,
# libcublasLt: over 500 MiB) and NCCL 2 (over 200 MiB). run.sh finds them on
# the machine: in a CUDA 13 toolkit (/usr/local/cuda), the system's
# libraries, or Python's nvidia-cublas and nvidia-nccl wheels.
#
# The run, on a machine with the GPU:
#   what to copy  the folder build/gpu-bundle/bundle (at most 57 MiB), to
#                 the same place beside the repository's files or anywhere
#   the command   build/gpu-bundle/bundle/run.sh RESULTS_DIR
#                 (or, with $OUT set, build/gpu-bundle/bundle/run.sh $OUT)
#   its limit     it ends within 7 minutes (MINITF_BUNDLE_SECONDS=420), a
#                 step still running then being stopped and marked in the
#                 table; give the command 9 minutes
#   the results   RESULTS_DIR receives machine.txt (OS release, C library,
#                 driver and GPU, nvcc; written first), table.md (a row per
#                 step), run.log (every output) and results/gpu_*.md,
#                 chapter 5's tables: copy those to the repository's
#                 results/ and commit them
# The machine needs the NVIDIA driver, cuBLAS 13 and NCCL 2, nothing else;
# for the fallback, nvcc, CMake and a C++ compiler.
#
# tests/tools/gpu_bundle_test.sh checks a bundle here: every binary's
# libraries resolve from the bundle alone (libcuda, cuBLAS and NCCL aside),
# and, with --chroot DIR, run.sh passes in a bare Debian made by debootstrap
# (with --rebuild, the fallback in a Debian with a compiler and CMake only).
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
# Any x86-64 processor of the last fifteen years (SSE4.2, POPCNT): not
# -march=native, which would tie the programs to this machine's CPU.
march=x86-64-v2
targets=(kernels_on_gpu_test gemm_on_gpu_test gpu_ops_on_gpu_test nccl_on_gpu_test
         gemm_bench gemm_bench_emulated gpu_ops_bench cpu_vs_gpu
         seed_softmax_regression_gpu seed_multi_gpu_model)

if ((build)); then
  [[ -x "$nvcc" ]] || { echo "gpu_bundle: no nvcc at $nvcc" >&2; exit 1; }
  echo "gpu_bundle: configuring $dir"
  # Static where Debian ships the archive; the C++ runtime always.
  configure "$MINITF_ROOT/chapters/06-multi-gpu-towers" "$dir" \
    -DCMAKE_BUILD_TYPE=Release -DMINITF_NATIVE=OFF "-DCMAKE_CXX_FLAGS=-march=$march" \
    "-DCMAKE_CUDA_FLAGS=-Xcompiler=-march=$march" \
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
mkdir -p "$top/bin" "$bundle/lib" || exit 1
for t in "${targets[@]}"; do
  f=$(find "$dir" -type f -name "$t" -perm -u+x -not -path "*/CMakeFiles/*" | head -1)
  [[ -n "$f" ]] || { echo "gpu_bundle: $t was not built" >&2; exit 1; }
  strip --strip-unneeded -o "$top/bin/$t" "$f" || exit 1
done

# Libraries that a bare machine has, or must not be carried: the C library's
# own, the loader, the driver's, and CUDA's big ones, which run.sh finds.
# libstdc++ and libgcc_s are linked statically into the programs; cuBLAS and
# NCCL load the machine's, which any machine with CUDA has, and a carried
# older one would shadow.
on_the_machine='^(linux-vdso|ld-linux|libc|libm|libdl|librt|libpthread|libutil|libresolv|libcuda|libnvidia-|libcublas|libcublasLt|libnccl|libstdc\+\+|libgcc_s)[.-]'
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

# The data set, unpacked (the loader reads plain files too) and packed with
# xz, which saves a sixth; kept in $top for the next bundle.
mnist="${MINITF_MNIST_DIR:-/usr/share/datasets/fashion-mnist}"
if [[ -e "$mnist/train-images-idx3-ubyte.gz" ]]; then
  if [[ ! -s "$top/data.tar.xz" || "$mnist/train-images-idx3-ubyte.gz" -nt "$top/data.tar.xz" ]]; then
    rm -rf "$top/data" && mkdir -p "$top/data/fashion-mnist" || exit 1
    for f in "$mnist"/*-ubyte.gz; do gzip -dc "$f" >"$top/data/fashion-mnist/$(basename "$f" .gz)"; done
    tar -cf - -C "$top" data | xz -6 -T"${MINITF_JOBS:-2}" >"$top/data.tar.xz.part" &&
      mv "$top/data.tar.xz.part" "$top/data.tar.xz" || exit 1
    rm -rf "$top/data"
  fi
  cp "$top/data.tar.xz" "$bundle/data.tar.xz" || exit 1
else
  echo "gpu_bundle: note: no Fashion-MNIST at $mnist; the seeds will say so there" >&2
fi

# The fallback (run.sh --rebuild, or a binary that cannot start there): the
# repository's files, and a prefix laid out as /usr is with the headers,
# static libraries and CMake files of the packages the build finds here and
# that machine lacks. CMake there is pointed at each one by path.
fb="$top/fallback"
rm -rf "${fb:?}" && mkdir -p "$fb/src" "$fb/deps" || exit 1
git -C "$MINITF_ROOT" ls-files -z --cached --others --exclude-standard |
  (cd "$MINITF_ROOT" && tar -cf - --null -T - --ignore-failed-read) | tar -xf - -C "$fb/src" || exit 1
multi=lib/x86_64-linux-gnu
deps_paths=(
  include/eigen3 share/eigen3/cmake                                      # Eigen
  include/google/protobuf "$multi/libprotobuf.a"                         # protobuf
  include/gtest include/gmock "$multi"/libg{test,mock}{,_main}.a "$multi/cmake/GTest"
  include/benchmark "$multi"/libbenchmark{.so,.so.1debian,.so.1.7.1,_main.a} "$multi/cmake/benchmark"
  "$multi/libboost_context.a" "$multi"/cmake/{Boost-1.74.0,boost_context-1.74.0,boost_headers-1.74.0}
  "$multi/cmake/BoostDetectToolset-1.74.0.cmake"
  include/zlib.h include/zconf.h "$multi/libz.a"                         # zlib
)
# Boost: the headers that fcontext.hpp includes, not all of Boost's 150 MiB.
mapfile -t boost_headers < <(echo '#include <boost/context/detail/fcontext.hpp>
#include <boost/version.hpp>' | g++ -std=c++20 -M -x c++ - | tr ' \\' '\n\n' |
  sed -n 's,^/usr/\(include/boost/.*\),\1,p' | sort -u)
((${#boost_headers[@]})) || { echo "gpu_bundle: Boost.Context's headers not found" >&2; exit 1; }
(cd /usr && cp -a --parents "${deps_paths[@]}" "${boost_headers[@]}" "$fb/deps/") || exit 1
# protoc and the two libraries it loads, behind a script that finds them.
mkdir -p "$fb/deps/bin" "$fb/deps/libexec/protoc" &&
  cp /usr/bin/protoc "$(readlink -f /usr/$multi/libprotoc.so.32)" "$fb/deps/libexec/protoc/" &&
  cp "$(readlink -f /usr/$multi/libprotobuf.so.32)" "$fb/deps/libexec/protoc/" || exit 1
(cd "$fb/deps/libexec/protoc" && mv libprotoc.so.32.* libprotoc.so.32 && mv libprotobuf.so.32.* libprotobuf.so.32)
cat >"$fb/deps/bin/protoc" <<'PROTOC'
#!/bin/sh
lib="$(dirname "$(readlink -f "$0")")/../libexec/protoc"
LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$lib/protoc" "$@"
PROTOC
chmod 755 "$fb/deps/bin/protoc"
# NCCL's header: NCCL is no part of the CUDA toolkit, and its wheel has no header.
cp /usr/local/cuda/include/nccl.h "$fb/deps/include/" 2>/dev/null ||
  cp /usr/include/nccl.h "$fb/deps/include/" || exit 1

# xz: the programs share most of their code, which xz's window finds again
# from one program to the next (gzip's does not).
xz_tar() {  # xz_tar <archive> <tar arguments...>
  tar -cf - "${@:2}" | xz -6 -T"${MINITF_JOBS:-2}" >"$1"
}
xz_tar "$bundle/bin.tar.xz" -C "$top" bin || exit 1
# xz itself, for a machine without it (Debian's minimal system has none).
mkdir -p "$bundle/tools" && cp /usr/bin/xz "$bundle/tools/" &&
  cp -L "/usr/$multi/liblzma.so.5" "$bundle/tools/" || exit 1
xz_tar "$bundle/fallback.tar.xz" -C "$top" fallback || exit 1
install -m 755 scripts/gpu_bundle_run.sh "$bundle/run.sh"
# The commit the results files will name (results_commit): the bundle's
# machine has no repository to ask.
results_commit >"$bundle/commit.txt"
{
  echo "minitf GPU bundle, made $(date -u '+%Y-%m-%d %H:%M UTC') on $(. /etc/os-release; echo "$PRETTY_NAME"), $(ldd --version | head -1)"
  echo "source: $(git -C "$MINITF_ROOT" describe --always --dirty 2>/dev/null)"
  echo "nvcc: $("$nvcc" --version | tail -2 | head -1)"
  echo "GPU code: sm_90 machine code and compute_90 PTX"
  echo "CPU code: $(grep -o -m1 -- '-march=[a-z0-9-]*' "$dir/build.ninja" 2>/dev/null || echo "no -march")"
  echo "static: libstdc++, libgcc, cudart_static, protobuf, GoogleTest, Boost.Context, zlib"
  echo "from the machine: libcuda.so.1 (driver), libcublas.so.13 + libcublasLt.so.13, libnccl.so.2"
  echo "carried in lib/: $(ls "$bundle/lib" | tr '\n' ' ')"
  echo "each binary's libraries (ldd):"
  printf '  %s\n' "${manifest_libs[@]}"
} >"$bundle/MANIFEST.txt"

size=$(du -sm "$bundle" | cut -f1)
echo "gpu_bundle: $bundle, $size MiB:"
(cd "$bundle" && du -sh bin.tar.xz lib data.tar.xz fallback.tar.xz | sed 's/^/  /')
if ((size > 57)); then
  echo "gpu_bundle: the bundle is over 57 MiB" >&2
  exit 1
fi
echo "Copy it to the machine with the GPU and run: build/gpu-bundle/bundle/run.sh RESULTS_DIR"
