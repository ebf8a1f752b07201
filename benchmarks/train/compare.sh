#!/usr/bin/env bash
# Chapter 3's speed figures in one script: training examples per second of
# the chapter's two models in minitf (train_bench), in TensorFlow's graph
# mode (tf_train.py) and in PyTorch (torch_train.py), on the same machine,
# threads, models, batches and optimizer settings, with the ratios between
# them; what a second thread gives minitf's MLP against what it gives a
# plain Eigen GEMM of the step's products (train_bench --scaling); and, for
# the record, the time tf::gradients takes to build the MLP's backward graph.
#
# The peers come from the virtual environment of scripts/peers.sh
# (MINITF_PEERS_DIR); a peer that is not there is skipped, with a line that
# says so. The load average is printed before each run: on a shared
# machine, only runs made at a low load are worth recording.
#
#   benchmarks/train/compare.sh [--quick]    (after scripts/test.sh has built)
# --quick: fewer, shorter runs, one thread only (CI runs this).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/common.sh
bench="$MINITF_BUILD/benchmarks/train/train_bench"
[[ -x "$bench" ]] || { echo "compare.sh: build first (scripts/test.sh)"; exit 1; }

quick=()
thread_counts=(1 2)
if [[ "${1:-}" == "--quick" ]]; then
  quick=(--quick)
  thread_counts=(1)
fi
have_tf=0
have_torch=0
peer_has tensorflow && have_tf=1
peer_has torch && have_torch=1
load() { echo "[load average $(cut -d' ' -f1-3 /proc/loadavg)]"; }

# Machine-readable lines of every run, gathered for the table:
#   <model> <threads> <who> <examples/s>
rates=""
grad_ms=""
for t in "${thread_counts[@]}"; do
  echo "=== $t thread(s)"
  load
  out=$("$bench" --threads "$t" "${quick[@]}")
  echo "$out" | grep -v -e '^train_examples_per_s' -e '^gradients_ms'
  rates+=$(echo "$out" | awk '/^train_examples_per_s/ {print $2, $3, "minitf", $4}')
  rates+=$'\n'
  grad_ms=$(echo "$out" | awk '/^gradients_ms/ {print $2}')
  if ((have_tf)); then
    echo
    load
    out=$("$MINITF_PEERS_PYTHON" benchmarks/train/tf_train.py --threads "$t" "${quick[@]}")
    echo "$out" | grep -v '^tf_examples_per_s'
    rates+=$(echo "$out" | awk '/^tf_examples_per_s/ {print $2, $3, "tf", $4}')
    rates+=$'\n'
  fi
  if ((have_torch)); then
    echo
    load
    out=$("$MINITF_PEERS_PYTHON" benchmarks/train/torch_train.py --threads "$t" "${quick[@]}")
    echo "$out" | grep -v '^torch_examples_per_s'
    rates+=$(echo "$out" | awk '/^torch_examples_per_s/ {print $2, $3, "torch", $4}')
    rates+=$'\n'
  fi
  echo
done

((have_tf)) || echo "TensorFlow is not in the peers' environment ($MINITF_PEERS_DIR, scripts/peers.sh): its figures are skipped."
((have_torch)) || echo "PyTorch is not in the peers' environment ($MINITF_PEERS_DIR, scripts/peers.sh): its figures are skipped."
echo "Training examples per second (batch 100), and minitf / peer:"
echo "$rates" | awk '
  NF == 4 { rate[$1 " " $2 " " $3] = $4; seen[$1 " " $2] = 1 }
  END {
    printf "  %-8s %7s %10s %12s %7s %12s %7s\n", "model", "threads", "minitf",
           "TensorFlow", "ratio", "PyTorch", "ratio"
    n = split("softmax mlp", models, " ")
    for (i = 1; i <= n; ++i) {
      for (t = 1; t <= 2; ++t) {
        key = models[i] " " t
        if (!(key in seen)) continue
        m = rate[key " minitf"]; f = rate[key " tf"]; p = rate[key " torch"]
        printf "  %-8s %7d %10.0f", models[i], t, m
        if (f > 0) printf " %12.0f %6.2fx", f, m / f; else printf " %12s %7s", "-", "-"
        if (p > 0) printf " %12.0f %6.2fx", p, m / p; else printf " %12s %7s", "-", "-"
        printf "\n"
      }
    }
  }'
echo "tf::gradients builds the MLP's backward graph in $grad_ms ms."

echo
load
"$bench" --scaling "${quick[@]}" | grep -v '^mlp_scaling'
