#!/usr/bin/env bash
# Installs what minitf needs and is missing, from Debian's packages (and
# playwright-core from npm for the site's browser test). Safe to run again:
# it only touches what is absent. Needs root (or sudo) on Debian 12.
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
  "nodejs /usr/bin/node"
  "npm /usr/bin/npm"
  "libprotobuf-dev /usr/include/google/protobuf/message.h"
  "protobuf-compiler /usr/bin/protoc"
  "python3-torch /usr/lib/python3/dist-packages/torch/__init__.py"
  "python3-venv /usr/lib/python3.11/ensurepip/__init__.py"
  "graphviz /usr/bin/dot"
  "zlib1g-dev /usr/include/zlib.h"
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

# The site's browser test drives Debian's chromium with playwright-core (no
# browser download: playwright-core never fetches one).
if [[ ! -d tests/site/node_modules/playwright-core ]]; then
  echo "setup: installing playwright-core for the site test"
  (cd tests/site && npm ci --no-audit --no-fund --loglevel=error)
fi
