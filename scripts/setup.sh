#!/usr/bin/env bash
# Installs what minitf needs and is missing, all from Debian's packages. Safe
# to run again: it only touches what is absent. Needs root (or sudo) on
# Debian 12. The peers the benchmarks and oracle tests compare with
# (TensorFlow, PyTorch) are not needed here: scripts/peers.sh installs them.
set -euo pipefail

cd "$(dirname "$0")/.."

# One package per line: Debian package, and a file whose presence shows it is installed.
readonly PACKAGES=(
  "cmake /usr/bin/cmake"
  "ninja-build /usr/bin/ninja"
  "g++ /usr/bin/g++"
  "ccache /usr/bin/ccache"
  "libeigen3-dev /usr/include/eigen3/Eigen/Core"
  "libgtest-dev /usr/include/gtest/gtest.h"
  "libgmock-dev /usr/include/gmock/gmock.h"
  "libbenchmark-dev /usr/include/benchmark/benchmark.h"
  "clang-format /usr/bin/clang-format"
  "doxygen /usr/bin/doxygen"
  "mkdocs /usr/bin/mkdocs"
  "mkdocs-material /usr/share/mkdocs/themes/material/__init__.py"
  "python3-pymdownx /usr/lib/python3/dist-packages/pymdownx/__init__.py"
  "chromium /usr/bin/chromium"
  "chromium-driver /usr/bin/chromedriver"
  "python3-selenium /usr/lib/python3/dist-packages/selenium/__init__.py"
  "libprotobuf-dev /usr/include/google/protobuf/message.h"
  "protobuf-compiler /usr/bin/protoc"
  "libgrpc++-dev /usr/include/grpcpp/grpcpp.h"
  "protobuf-compiler-grpc /usr/bin/grpc_cpp_plugin"
  "graphviz /usr/bin/dot"
  "zlib1g-dev /usr/include/zlib.h"
  "libboost-context-dev /usr/include/boost/context/detail/fcontext.hpp"
  "dataset-fashion-mnist /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz"
)

missing=()
for entry in "${PACKAGES[@]}"; do
  read -r package marker <<<"$entry"
  [[ -e "$marker" ]] || missing+=("$package")
done

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  as_root apt-get update -q
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "setup: every Debian package is present"
fi
