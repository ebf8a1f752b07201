#!/usr/bin/env bash
# Seed 003's cluster against TensorFlow's: scripts/cluster.sh starts one ps
# and ONE worker of the C++ program, then of its TensorFlow twin
# (twins/seed_distributed.py), on the same batches. With one worker,
# asynchronous training is the sequential program, update by update, so both
# must print the same steps and the same test accuracy to the last digit.
# (With two workers the result depends on how the workers' steps interleave,
# which no two runs repeat: chapter 7 §6 compares those runs by their spread.)
#   cluster_oracle.sh <seed_distributed binary>
# Exits 77, CTest's skip, saying why, when TensorFlow is not installed.
source "$(dirname "$0")/../../scripts/common.sh"
if ! peer_has tensorflow; then
  echo "SKIP: TensorFlow, the oracle, is not installed in $MINITF_PEERS_DIR" \
    "(scripts/peers.sh installs it; MINITF_PEERS_DIR names another place)"
  exit 77
fi
binary=$1
logs=$(mktemp -d /tmp/minitf-cluster-oracle.XXXXXX)
trap 'rm -rf "$logs"' EXIT
results() {  # the lines both programs print alike
  grep -h -E "local steps|Test accuracy" "$1/worker_0.log"
}
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
  results "$logs/$side"
done
if [ "$(results "$logs/minitf")" != "$(results "$logs/tensorflow")" ] ||
   [ -z "$(results "$logs/minitf" | grep 'Test accuracy')" ]; then
  echo "FAILED: minitf's cluster and TensorFlow's disagree (or printed no accuracy)"
  exit 1
fi
echo "PASSED: the same steps and accuracy"
