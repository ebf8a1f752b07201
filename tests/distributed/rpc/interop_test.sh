#!/usr/bin/env bash
# minitf and TensorFlow on one wire, both ways, with seed 001's matmul:
#   interop_test.sh tf_client <minitf_server>      TensorFlow's client
#       (tf_client.py) on a minitf server;
#   interop_test.sh minitf_client <matmul_client>  minitf's client on a
#       TensorFlow server (tf_server.py).
# Either must print TensorFlow's [[22. 28.]\n [49. 64.]].
#   interop_test.sh tf_fetch_order <minitf_server>      TensorFlow's client
#       (tf_fetch_order.py) asks a minitf server for several fetches;
#   interop_test.sh minitf_fetch_order <fetch_order_client>  minitf's client
#       asks a TensorFlow server for the same.
# Either must end with "all N runs agree" (each client compares every run
# with its own local session). Exits 77, CTest's
# skip, saying why, when TensorFlow is not installed in the peers' python.
source "$(dirname "$0")/../../../scripts/common.sh"
if ! peer_has tensorflow; then
  echo "SKIP: TensorFlow, the other side of this test, is not installed in" \
    "$MINITF_PEERS_DIR (scripts/peers.sh installs it)"
  exit 77
fi
mode=$1
binary=$2
here=$(dirname "$0")
port=$(( 20000 + RANDOM % 40000 ))
log=$(mktemp)
if [ "$mode" = tf_client ] || [ "$mode" = tf_fetch_order ]; then
  "$binary" --job_name=worker --task_index=0 \
    --cluster="{\"worker\": [\"localhost:$port\"]}" >"$log" 2>&1 &
  ready='^Started server'
else
  "$MINITF_PEERS_PYTHON" "$here/tf_server.py" "$port" 100 >"$log" 2>&1 &
  ready='^ready'
fi
pid=$!
trap 'kill $pid 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 1 600); do
  grep -q "$ready" "$log" && break
  kill -0 $pid 2>/dev/null || { cat "$log"; exit 1; }
  sleep 0.1
done
case $mode in
  tf_client) out=$("$MINITF_PEERS_PYTHON" "$here/tf_client.py" "$port" 2>/dev/null) ;;
  minitf_client) out=$("$binary" "grpc://localhost:$port") ;;
  tf_fetch_order)
    out=$("$MINITF_PEERS_PYTHON" "$here/tf_fetch_order.py" "$port" 2>/dev/null) ;;
  minitf_fetch_order) out=$("$binary" "grpc://localhost:$port") ;;
esac
echo "$out"
case $mode in
  *_fetch_order)
    grep -q '^all [0-9]* runs agree$' <<<"$out" || { echo "expected: all N runs agree"; exit 1; } ;;
  *)
    expected=$'[[22. 28.]\n [49. 64.]]'
    [ "$out" = "$expected" ] || { echo "expected: $expected"; exit 1; } ;;
esac
