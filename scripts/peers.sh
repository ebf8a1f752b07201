#!/usr/bin/env bash
# The peers: TensorFlow and PyTorch from PyPI, in a virtual environment of
# Debian's python3 outside the tracked files (.peers/, or $MINITF_PEERS_DIR).
# TensorFlow is the oracle: the oracle tests (CTest label "oracle") run each
# seed program's Python twin under tf.compat.v1 and compare it with minitf's
# C++ program, and TensorBoard's reader loads minitf's event files. PyTorch is the benchmarks' peer. Neither README command needs
# them; without them the oracle tests are skipped, saying so.
#   scripts/peers.sh      (about 3.5 GB download; safe to run again)
set -euo pipefail
source "$(dirname "$0")/common.sh"

# The versions the oracle tests were written against. TensorFlow 2.x is used
# through tf.compat.v1 with v2 behaviour off, which keeps TF 1.x's graphs,
# sessions and names.
readonly TENSORFLOW="tensorflow-cpu==2.21.0"
readonly TORCH="torch==2.15.0"
# TensorBoard's reader of event files (EventAccumulator), which the
# checkpoint oracle loads minitf's event files with.
readonly TENSORBOARD="tensorboard==2.21.0"

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

# Debian leaves ensurepip, which venv needs, to python3-venv.
if ! /usr/bin/python3 -c 'import ensurepip' 2>/dev/null; then
  echo "peers: installing python3-venv"
  as_root apt-get update -q
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -q --no-install-recommends python3-venv
fi

if [[ ! -x "$MINITF_PEERS_DIR/bin/python" ]]; then
  echo "peers: creating $MINITF_PEERS_DIR"
  /usr/bin/python3 -m venv "$MINITF_PEERS_DIR"
fi
pip=("$MINITF_PEERS_DIR/bin/python" -m pip install -q --disable-pip-version-check)

echo "peers: installing $TENSORFLOW and $TENSORBOARD"
"${pip[@]}" "$TENSORFLOW" "$TENSORBOARD"

# PyPI's torch wheel is the CUDA build: it declares about 3 GB of NVIDIA
# libraries (cuda-toolkit, nvidia-cudnn-cu13, nccl, nvshmem, triton). Leaving
# them out (pip --no-deps) does not work: `import torch` loads them at once
# and fails with "libcufile.so.0: cannot open shared object file". PyTorch's
# CPU-only wheels are not on PyPI, so the whole wheel with its dependencies
# is installed; the benchmarks use it on the CPU only.
echo "peers: installing $TORCH (with its CUDA libraries, about 3 GB)"
"${pip[@]}" "$TORCH"

"$MINITF_PEERS_DIR/bin/python" - <<'EOF'
import os
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import tensorflow as tf
import torch
a = torch.arange(6.0).reshape(2, 3)
assert torch.equal(a @ a.T, torch.tensor([[5.0, 14.0], [14.0, 50.0]]))
assert tf.reduce_sum(tf.constant([1.0, 2.0])).numpy() == 3.0
print(f"peers: tensorflow {tf.__version__}, torch {torch.__version__}")
EOF
echo "peers: ready in $MINITF_PEERS_DIR (oracle tests: ctest --test-dir build/all -L oracle)"
