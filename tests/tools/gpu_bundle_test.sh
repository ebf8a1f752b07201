#!/usr/bin/env bash
# Checks the GPU bundle that scripts/gpu_bundle.sh makes.
#
#   tests/tools/gpu_bundle_test.sh [BUNDLE]                 # quick
#   tests/tools/gpu_bundle_test.sh --chroot DIR [BUNDLE]    # bare Debian
#   tests/tools/gpu_bundle_test.sh --chroot DIR --rebuild [BUNDLE]
#
# Quick: the bundle is at most 57 MiB (64 MiB with the repository's files);
# every binary in bin.tar.xz, with a cleared environment and only the
# bundle's lib/ and CUDA's library folder on the library path, resolves
# every library but the driver's libcuda.so.1; run.sh answers --help.
#
# --chroot DIR: DIR is a Debian made by `debootstrap --variant=minbase`
# (none of the build's packages in it). The bundle is mounted there
# read-only at /bundle, /proc beside it, and the CUDA toolkit's library
# folder at /usr/local/cuda/lib64 (cuBLAS and NCCL, which the GPU machine's
# toolkit holds); then run.sh runs there and must pass: the GPU tests skip
# for want of a GPU, every program runs on the emulator. Everything mounted
# is unmounted at the end. Needs root.
#
# --rebuild: the fallback, as on a machine where the binaries cannot start.
# DIR is then a Debian with a C++ compiler, CMake and ninja but none of the
# build's -dev packages (no Eigen, protobuf, GoogleTest, Boost); the whole
# CUDA toolkit is mounted at /usr/local/cuda, and run.sh --rebuild builds
# the programs there from fallback.tar.xz and runs them. Slow: a whole
# build of layers 1-6 (run.sh gives it 5 minutes, a 16-core machine's time).
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
chroot_dir=""
rebuild=()
if [[ "${1:-}" == "--chroot" ]]; then
  chroot_dir="${2:?--chroot needs a folder}"
  shift 2
  [[ "${1:-}" == "--rebuild" ]] && rebuild=(--rebuild) && shift
fi
bundle="$(cd "${1:-$root/build/gpu-bundle/bundle}" && pwd)" || exit 1
cuda_lib=/usr/local/cuda/lib64
fail=0
bad() { echo "FAIL: $*"; fail=1; }

size=$(du -sm "$bundle" | cut -f1)
((size <= 57)) || bad "the bundle is $size MiB, over 57"
echo "bundle: $bundle, $size MiB"
bins=$(mktemp -d) && trap 'rm -rf "$bins"' EXIT && tar -xJf "$bundle/bin.tar.xz" -C "$bins" || exit 1
for bin in "$bins"/bin/*; do
  missing=$(env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="$bundle/lib:$cuda_lib" ldd "$bin" 2>&1 |
            grep "not found" | grep -v "libcuda\.so")
  if [[ -n "$missing" ]]; then
    bad "$(basename "$bin") lacks: $missing"
  else
    echo "ok: $(basename "$bin") resolves its libraries"
  fi
done
"$bundle/run.sh" --help | grep -q "RESULTS_DIR" || bad "run.sh --help"

if [[ -n "$chroot_dir" ]]; then
  [[ -x "$chroot_dir/bin/bash" ]] || { bad "$chroot_dir is no Debian"; exit 1; }
  if ((${#rebuild[@]})); then
    for p in libeigen3-dev libprotobuf-dev libgtest-dev libboost-context-dev; do
      ! chroot "$chroot_dir" dpkg -s "$p" >/dev/null 2>&1 || bad "$chroot_dir holds $p"
    done
  else
    ! chroot "$chroot_dir" dpkg -s libprotobuf32 libgomp1 libstdc++-12-dev >/dev/null 2>&1 ||
      bad "$chroot_dir holds the build's packages: not bare"
  fi
  mounts=()
  cleanup() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount "${mounts[i]}" || umount -l "${mounts[i]}"; done
  }
  trap 'cleanup; rm -rf "$bins"' EXIT
  mnt() {  # mnt <source> <target in the chroot> [options]
    mkdir -p "$chroot_dir$2" && mount --bind "$1" "$chroot_dir$2" && mounts+=("$chroot_dir$2") &&
      mount -o remount,bind,ro "$chroot_dir$2"
  }
  mnt "$bundle" /bundle || { bad "mounting the bundle"; exit 1; }
  if ((${#rebuild[@]})); then
    mnt "$(readlink -f /usr/local/cuda)" /usr/local/cuda || { bad "mounting CUDA"; exit 1; }
  else
    mnt "$(readlink -f "$cuda_lib")" /usr/local/cuda/lib64 || { bad "mounting CUDA's libraries"; exit 1; }
  fi
  mount -t proc proc "$chroot_dir/proc" && mounts+=("$chroot_dir/proc")
  rm -rf "$chroot_dir/tmp/bundle-out"
  echo "run.sh in $chroot_dir:"
  if chroot "$chroot_dir" /usr/bin/env -i PATH=/usr/local/cuda/bin:/usr/bin:/bin HOME=/root /bundle/run.sh "${rebuild[@]}" /tmp/bundle-out \
      >"$chroot_dir/tmp/bundle-run.txt" 2>&1; then
    cat "$chroot_dir/tmp/bundle-out/table.md"
  else
    tail -n 60 "$chroot_dir/tmp/bundle-run.txt"
    bad "run.sh failed in the chroot"
  fi
fi
((fail)) && exit 1
echo "gpu_bundle_test: passed"
