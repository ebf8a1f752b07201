#!/usr/bin/env bash
# TensorFlow's client on minitf's server: starts minitf_server on a free
# loopback port, runs tf_client.py against it under the peers' python, and
# checks TensorFlow's printout of seed 001's product. Exits 77, CTest's skip,
# saying why, when TensorFlow is not installed.
#   tf_client_test.sh <path of minitf_server>
source "$(dirname "$0")/../../scripts/common.sh"
if ! peer_has tensorflow; then
  echo "SKIP: TensorFlow, the client of this test, is not installed in" \
    "$MINITF_PEERS_DIR (scripts/peers.sh installs it)"
  exit 77
fi
server=$1
port=$(( 20000 + RANDOM % 40000 ))
"$server" --job_name=worker --task_index=0 \
  --cluster="{\"worker\": [\"localhost:$port\"]}" &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
sleep 1
out=$("$MINITF_PEERS_PYTHON" "$(dirname "$0")/tf_client.py" "$port" 2>/dev/null)
echo "$out"
expected=$'[[22. 28.]\n [49. 64.]]'
[ "$out" = "$expected" ] || { echo "expected: $expected"; exit 1; }
