#!/usr/bin/env bash
# Chapter 4's planning figures beside TensorFlow's: placement_bench (the
# placer and the partitioner on a 10,000-node model, and a DirectSession's
# first runs on it) and tf_placement.py (a TensorFlow Session's first runs
# on the same model), on the same machine, with the ratios between them.
# TensorFlow comes from the virtual environment of scripts/peers.sh
# (MINITF_PEERS_DIR); without it, its rows are skipped, with a line that
# says so.
#   benchmarks/device/compare.sh [--quick]    (after scripts/test.sh has built)
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/common.sh
bench="$MINITF_BUILD/benchmarks/device/placement_bench"
[[ -x "$bench" ]] || { echo "compare.sh: build first (scripts/test.sh)"; exit 1; }

echo "[load average $(cut -d' ' -f1-3 /proc/loadavg)]"
minitf_out=$("$bench" "$@")
echo "$minitf_out" | grep -v -e '^placement_ms' -e '^partition_ms' -e '^session_first_run_ms'
echo
if peer_has tensorflow; then
  echo "[load average $(cut -d' ' -f1-3 /proc/loadavg)]"
  tf_out=$("$MINITF_PEERS_PYTHON" benchmarks/device/tf_placement.py "$@")
  echo "$tf_out" | grep -v '^tf_first_run_ms'
  echo
  echo "First run less a cached run, and how many times faster minitf is:"
  printf '%s\n%s\n' "$minitf_out" "$tf_out" | awk '
    /^session_first_run_ms/ { minitf[$2] = $3 }
    /^tf_first_run_ms/ { tf[$2] = $3 }
    function row(label, m, t) {
      printf "  %-44s %7.2f ms %9.2f ms %7.2fx\n", label, m, t, t / m
    }
    END {
      printf "  %-44s %10s %12s %8s\n", "", "minitf", "TensorFlow", "ratio"
      row("initializer (places the graph)", minitf["init"], tf["init"])
      row("training step (plans the step)", minitf["step"], tf["step"])
      row("initializer, TensorFlow with Grappler off", minitf["init"],
          tf["init_no_grappler"])
      row("training step, TensorFlow with Grappler off", minitf["step"],
          tf["step_no_grappler"])
    }'
else
  echo "TensorFlow is not in the peers' environment ($MINITF_PEERS_DIR, scripts/peers.sh): its rows are skipped."
fi
