#!/usr/bin/env bash
# Chapter 2's speed figures in one table: TensorFlow's Session in graph mode
# (tf_tiny_ops.py) and PyTorch's eager dispatch (torch_tiny_ops.py) on the
# chain of 1,000 tiny adds, then minitf's Session and eager calls
# (graph_bench), which takes the peers' figures (--peer) and writes the table
# with the ratios, through benchmarks/tensor/results.h: printed, and written
# to $MINITF_RESULTS_DIR/graph_bench.md when that is set
# (scripts/record_results.sh sets it). One thread each. The peers come from
# the virtual environment of scripts/peers.sh (MINITF_PEERS_DIR); a peer that
# is not there is left out, with a line that says so.
#   benchmarks/graph/compare.sh [--quick] [--runs N]   (after scripts/test.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/common.sh
bench="$MINITF_BUILD/benchmarks/graph/graph_bench"
[[ -x "$bench" ]] || { echo "compare.sh: build first (scripts/test.sh)"; exit 1; }

# Each peer prints, besides its own lines, one line a run:
#   peer_us|<label>|<us per op>
# and may print sentences for the results, under the table:
#   peer_note|<sentence>
peer_lines=""
run_peer() {  # <package> <script>
  if peer_has "$1"; then
    local out
    out=$("$MINITF_PEERS_PYTHON" "benchmarks/graph/$2" "${@:3}")
    echo "$out" | grep -v '^peer_\(us\|note\)|'
    peer_lines+=$(echo "$out" | grep '^peer_\(us\|note\)|')$'\n'
  else
    echo "compare.sh: $1 is not in the peers' environment ($MINITF_PEERS_DIR," \
      "scripts/peers.sh): its rows are left out."
  fi
}
run_peer tensorflow tf_tiny_ops.py "$@"
run_peer torch torch_tiny_ops.py "$@"

# One --peer 'LABEL=us,us,...' per label, in the order the peers gave them.
peer_args=()
while IFS= read -r peer; do
  peer_args+=(--peer "$peer")
done < <(echo -n "$peer_lines" | awk -F'|' '
  /^peer_us\|/ {
    if (!($2 in figures)) { order[++n] = $2; figures[$2] = $3 }
    else figures[$2] = figures[$2] "," $3
  }
  END { for (i = 1; i <= n; i++) print order[i] "=" figures[order[i]] }')

while IFS= read -r note; do
  peer_args+=(--peer-note "$note")
done < <(echo -n "$peer_lines" | sed -n 's/^peer_note|//p')

"$bench" "$@" "${peer_args[@]}" --command "benchmarks/graph/compare.sh${*:+ $*}"
