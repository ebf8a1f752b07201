#!/usr/bin/env bash
# Chapter 2's speed figures in one script: minitf's Session and eager calls
# (graph_bench), TensorFlow's Session in graph mode (tf_tiny_ops.py) and
# PyTorch's eager dispatch (torch_tiny_ops.py), on the same machine, one
# thread each, with the ratios between them. The peers come from the
# virtual environment of scripts/peers.sh (MINITF_PEERS_DIR); a peer that is
# not there is skipped, with a line that says so.
#   benchmarks/graph/compare.sh [--quick]    (after scripts/test.sh has built)
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/common.sh
bench="$MINITF_BUILD/benchmarks/graph/graph_bench"
[[ -x "$bench" ]] || { echo "compare.sh: build first (scripts/test.sh)"; exit 1; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
minitf_out=$("$bench" "$@")
echo "$minitf_out" | grep -v '^tiny_op_us'
read -r session_us eager_us < <(echo "$minitf_out" | awk '/^tiny_op_us/ {print $2, $3}')

echo
echo "Per-op cost on the chain of 1,000 tiny adds, and how many times faster"
echo "minitf's Session::run on its cached plan ($session_us us/op) is:"
if peer_has tensorflow; then
  tf_out=$("$MINITF_PEERS_PYTHON" benchmarks/graph/tf_tiny_ops.py "$@")
  echo "$tf_out" | grep -v '^tf_tiny_op_us'
  echo "$tf_out" | awk -v s="$session_us" '/^tf_tiny_op_us/ {
    how = $2 == "run" ? "TensorFlow sess.run(y, feeds)" : "TensorFlow sess.make_callable(y, [x])"
    printf "  %-38s: %7.3f us/op   %7.2fx\n", how, $3, $3 / s
  }'
else
  echo "  TensorFlow is not in the peers' environment ($MINITF_PEERS_DIR, scripts/peers.sh): its rows are skipped."
fi
if peer_has torch; then
  torch_out=$("$MINITF_PEERS_PYTHON" benchmarks/graph/torch_tiny_ops.py "$@")
  echo "$torch_out" | grep -v '^torch_tiny_op_us'
  echo "$torch_out" | awk -v s="$session_us" '/^torch_tiny_op_us/ {
    printf "  %-38s: %7.3f us/op   %7.2fx\n", "PyTorch a.add_(b), eager", $2, $2 / s
  }'
else
  echo "  PyTorch is not in the peers' environment ($MINITF_PEERS_DIR, scripts/peers.sh): its rows are skipped."
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
