#!/usr/bin/env bash
# Chapter 4's planning figures beside TensorFlow's: tf_placement.py (a
# TensorFlow Session's first runs on the 10,000-node tower model) runs first,
# then placement_bench (the placer and the partitioner on the same model,
# and a DirectSession's first runs on it), which puts TensorFlow's figures
# beside its own with the ratios. With MINITF_RESULTS_DIR set, the tables go
# to $MINITF_RESULTS_DIR/placement_bench.md (scripts/record_results.sh does
# that). TensorFlow comes from the virtual environment of scripts/peers.sh
# (MINITF_PEERS_DIR); without it, its columns are left out, with a line that
# says so.
#   benchmarks/device/compare.sh [--quick]    (after scripts/test.sh has built)
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/common.sh
bench="$MINITF_BUILD/benchmarks/device/placement_bench"
[[ -x "$bench" ]] || { echo "compare.sh: build first (scripts/test.sh)"; exit 1; }

tf_lines=$(mktemp)
trap 'rm -f "$tf_lines"' EXIT
tf_args=()
if peer_has tensorflow; then
  "$MINITF_PEERS_PYTHON" benchmarks/device/tf_placement.py "$@" | tee "$tf_lines" |
    grep -v -e '^tf_first_run_ms' -e '^tf_version' -e '^tf_nodes'
  echo
  tf_args=(--tf "$tf_lines")
else
  echo "TensorFlow is not in the peers' environment ($MINITF_PEERS_DIR, scripts/peers.sh): its columns are left out."
fi
"$bench" "$@" "${tf_args[@]}" --command "benchmarks/device/compare.sh${1:+ $*}"
