#!/usr/bin/env bash
# minitf's client on TensorFlow's server: starts tf_server.py (a TensorFlow
# server) on a free loopback port under the peers' python, runs
# matmul_client against it and checks the printout of seed 001's product.
# Exits 77, CTest's skip, saying why, when TensorFlow is not installed.
#   minitf_client_test.sh <path of matmul_client>
source "$(dirname "$0")/../../scripts/common.sh"
if ! peer_has tensorflow; then
  echo "SKIP: TensorFlow, whose server this test runs on, is not installed" \
    "in $MINITF_PEERS_DIR (scripts/peers.sh installs it)"
  exit 77
fi
client=$1
port=$(( 20000 + RANDOM % 40000 ))
log=$(mktemp)
"$MINITF_PEERS_PYTHON" "$(dirname "$0")/tf_server.py" "$port" 100 >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 1 600); do
  grep -q '^ready' "$log" && break
  kill -0 $pid 2>/dev/null || { cat "$log"; exit 1; }
  sleep 0.1
done
out=$("$client" "grpc://localhost:$port")
echo "$out"
expected=$'[[22. 28.]\n [49. 64.]]'
[ "$out" = "$expected" ] || { echo "expected: $expected"; exit 1; }
