#!/usr/bin/env bash
# Seed 003's cluster against TensorFlow's: scripts/cluster.sh starts one ps
# and ONE worker of the C++ program, then of its TensorFlow twin
# (twins/seed_distributed.py), on the same batches. With one worker,
# asynchronous training is the sequential program, update by update, so both
# must print the same steps, and test accuracies within the oracle's
# tolerance for this model (oracle.py's SOFTMAX: 0.003, 30 of the 10,000
# test images, for the engines' matmuls round differently).
# (With two workers the result depends on how the workers' steps interleave,
# which no two runs repeat: chapter 7 §6 compares those runs by their spread.)
#   cluster_oracle.sh <seed_distributed binary>
# Exits 77, CTest's skip, saying why, when TensorFlow is not installed.
set -u
source "$(dirname "$0")/../../scripts/common.sh"
if ! peer_has tensorflow; then
  echo "SKIP: TensorFlow, the oracle, is not installed in $MINITF_PEERS_DIR" \
    "(scripts/peers.sh installs it; MINITF_PEERS_DIR names another place)"
  exit 77
fi
binary=${1:?usage: cluster_oracle.sh <seed_distributed binary>}
logs=$(mktemp -d /tmp/minitf-cluster-oracle.XXXXXX)
trap 'rm -rf "$logs"' EXIT
steps() { grep -h "local steps" "$1/worker_0.log"; }
accuracy() { sed -n 's/^Test accuracy after [0-9]* global steps: //p' "$1/worker_0.log"; }
for side in minitf tensorflow; do
  program=$binary
  [ $side = tensorflow ] && program="$MINITF_ROOT/tests/oracle/twins/seed_distributed.py"
  mkdir -p "$logs/$side"
  if ! bash "$MINITF_ROOT/scripts/cluster.sh" --workers=1 "$program" "$logs/$side" \
      >"$logs/$side.out" 2>&1; then
    echo "The $side cluster failed:"
    cat "$logs/$side.out"
    exit 1
  fi
  echo "== $side"
  grep -h -E "local steps|Test accuracy" "$logs/$side/worker_0.log"
done
if [ -z "$(steps "$logs/minitf")" ] ||
   [ "$(steps "$logs/minitf")" != "$(steps "$logs/tensorflow")" ]; then
  echo "FAILED: minitf's cluster and TensorFlow's made different steps"
  exit 1
fi
a=$(accuracy "$logs/minitf")
b=$(accuracy "$logs/tensorflow")
# In whole test images (of 10,000), so that exactly 30 is within it.
if [ -z "$a" ] || [ -z "$b" ] ||
   ! awk -v a="$a" -v b="$b" \
     'BEGIN { d = int(a * 10000 + 0.5) - int(b * 10000 + 0.5); exit !(d <= 30 && d >= -30) }'; then
  echo "FAILED: test accuracies '$a' (minitf) and '$b' (TensorFlow) differ by more than 0.003"
  exit 1
fi
echo "PASSED: the same steps; accuracies $a and $b, within 0.003"
