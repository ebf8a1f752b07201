#!/usr/bin/env bash
# Installs what minitf needs and is missing, all from Debian's packages. Safe
# to run again: it only touches what is absent. Needs root (or sudo) on
# Debian 12. The peers the benchmarks and oracle tests compare with
# (TensorFlow, PyTorch) are not needed here: scripts/peers.sh installs them.
#
#   scripts/setup.sh [GROUP...] [--download-only]
#
# The packages come in three groups, so that README command 1 (demo.sh) can
# build and run chapter 1 as soon as chapter 1's packages are in:
#   first   chapter 1: compiler, CMake, Ninja, ccache, Eigen, GoogleTest,
#           Google Benchmark, Python (the exercise runner)
#   later   chapters 2 to 7 and the site: protobuf, gRPC, zlib,
#           Boost.Context, Fashion-MNIST, Doxygen, MkDocs, Graphviz
#   tests   the rest of the test suite: clang-format, Chromium with its
#           driver and Selenium (the site's browser test); clang 14 with
#           libFuzzer, its OpenMP and lld (the fuzzers, scripts/fuzz.sh)
# No GROUP means all three (README command 2, test.sh). --download-only
# fetches the missing packages' files into apt's cache and installs nothing
# (demo.sh does that while chapter 1 builds).
#
# apt's own output goes to build/setup-<groups>.log; the screen gets one line
# per step, or the log's last lines when apt fails.
set -euo pipefail

cd "$(dirname "$0")/.."

# One package per line: Debian package, and a file whose presence shows it is installed.
readonly FIRST=(
  "cmake /usr/bin/cmake"
  "ninja-build /usr/bin/ninja"
  "g++ /usr/bin/g++"
  "ccache /usr/bin/ccache"
  "python3 /usr/bin/python3"
  "libeigen3-dev /usr/include/eigen3/Eigen/Core"
  "libgtest-dev /usr/include/gtest/gtest.h"
  "libgmock-dev /usr/include/gmock/gmock.h"
  "libbenchmark-dev /usr/include/benchmark/benchmark.h"
)
readonly LATER=(
  "libprotobuf-dev /usr/include/google/protobuf/message.h"
  "protobuf-compiler /usr/bin/protoc"
  "zlib1g-dev /usr/include/zlib.h"
  "dataset-fashion-mnist /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz"
  "libboost-context-dev /usr/include/boost/context/detail/fcontext.hpp"
  "libgrpc++-dev /usr/include/grpcpp/grpcpp.h"
  "protobuf-compiler-grpc /usr/bin/grpc_cpp_plugin"
  "graphviz /usr/bin/dot"
  "doxygen /usr/bin/doxygen"
  "mkdocs /usr/bin/mkdocs"
  "mkdocs-material /usr/share/mkdocs/themes/material/__init__.py"
  "python3-pymdownx /usr/lib/python3/dist-packages/pymdownx/__init__.py"
)
readonly TESTS=(
  "clang-format /usr/bin/clang-format"
  "chromium /usr/bin/chromium"
  "chromium-driver /usr/bin/chromedriver"
  "python3-selenium /usr/lib/python3/dist-packages/selenium/__init__.py"
  # The fuzzers (scripts/fuzz.sh): clang with libFuzzer and the sanitizers'
  # runtimes, clang's OpenMP, and LLVM's linker.
  "clang-14 /usr/bin/clang++-14"
  "libclang-rt-14-dev /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a"
  "libomp-14-dev /usr/lib/llvm-14/lib/libomp.so"
  "lld-14 /usr/bin/ld.lld-14"
)

groups=()
download_only=0
for arg in "$@"; do
  case "$arg" in
    first | later | tests) groups+=("$arg") ;;
    --download-only) download_only=1 ;;
    *) echo "usage: scripts/setup.sh [first|later|tests ...] [--download-only]" >&2; exit 2 ;;
  esac
done
((${#groups[@]})) || groups=(first later tests)

entries=()
for group in "${groups[@]}"; do
  case "$group" in
    first) entries+=("${FIRST[@]}") ;;
    later) entries+=("${LATER[@]}") ;;
    tests) entries+=("${TESTS[@]}") ;;
  esac
done

missing=()
for entry in "${entries[@]}"; do
  read -r package marker <<<"$entry"
  [[ -e "$marker" ]] || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
  echo "setup: every Debian package is present (${groups[*]})"
  exit 0
fi

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

mkdir -p build
label="${groups[*]}"
log="build/setup-${label// /-}.log"
if ((download_only)); then log="build/setup-${label// /-}-download.log"; fi
: >"$log"

# run <what> <command...>: the command with its output in the log; on
# failure, the log's end and its path.
run() {
  local what="$1"
  shift
  if ! "$@" >>"$log" 2>&1; then
    echo "setup: $what failed; the end of $log:" >&2
    tail -n 30 "$log" >&2
    exit 1
  fi
}

start=$SECONDS
# Package lists this script fetched in the last hour (an earlier step of the
# same demo) are fresh enough. (apt dates the lists' files by the mirror's
# clock, so the script keeps a stamp of its own.)
stamp=build/.apt-lists-fetched
if [[ -z "$(find "$stamp" -mmin -60 2>/dev/null)" ]]; then
  run "apt-get update" as_root apt-get update -q
  touch "$stamp"
fi
# dpkg's --force-unsafe-io: no fsync after each unpacked file, which matters
# only if the machine loses power during the install (Debian's container
# images install this way). Unpacking is most of the setup's time.
apt_args=(install -y -q --no-install-recommends -o DPkg::Options::=--force-unsafe-io)
if ((download_only)); then
  echo "setup: fetching ${#missing[@]} packages (${missing[*]})"
  run "fetching the packages" as_root apt-get "${apt_args[@]}" --download-only "${missing[@]}"
else
  echo "setup: installing ${#missing[@]} packages (${missing[*]})"
  run "installing the packages" \
    as_root env DEBIAN_FRONTEND=noninteractive apt-get "${apt_args[@]}" "${missing[@]}"
fi
echo "setup: done in $((SECONDS - start)) s (apt's output: $log)"
