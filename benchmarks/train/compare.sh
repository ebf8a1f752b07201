#!/usr/bin/env bash
# Chapter 3's speed figures in one script: training examples per second of
# the chapter's two models in TensorFlow's graph mode (tf_train.py), in
# PyTorch (torch_train.py) and in minitf (train_bench), on the same machine,
# threads, models, batches and optimizer settings. The peers run first;
# train_bench then runs minitf, puts the peers' figures beside its own with
# the ratios, and adds what a second thread gives and what tf::gradients
# costs. With MINITF_RESULTS_DIR set, the tables go to
# $MINITF_RESULTS_DIR/train_bench.md (scripts/record_results.sh does that).
#
# The peers come from the virtual environment of scripts/peers.sh
# (MINITF_PEERS_DIR); a peer that is not there is skipped, with a line that
# says so.
#
#   benchmarks/train/compare.sh [--quick] [--isa avx2]
#                                  (after scripts/test.sh has built)
# --quick: fewer, shorter runs, one thread only (CI runs this).
# --isa avx2: as a CPU without AVX-512 runs it: train_bench from build/avx2
# (built here for x86-64-v3), the peers' CPU dispatch limited to AVX2
# (scripts/common.sh, avx2_env), the tables in train_bench_avx2.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/common.sh

quick=()
thread_counts=(1 2)
isa=""
while (($#)); do
  case "$1" in
    --quick) quick=(--quick) thread_counts=(1) ;;
    --isa) isa="${2:-}"; shift ;;
    *) echo "usage: compare.sh [--quick] [--isa avx2]" >&2; exit 2 ;;
  esac
  shift
done
bench="$MINITF_BUILD/benchmarks/train/train_bench"
case "$isa" in
  "") ;;
  avx2)
    avx2_build train_bench
    avx2_env
    bench="$MINITF_AVX2_BUILD/benchmarks/train/train_bench" ;;
  *) echo "compare.sh: --isa takes avx2, not '$isa'" >&2; exit 2 ;;
esac
[[ -x "$bench" ]] || { echo "compare.sh: build first (scripts/test.sh)"; exit 1; }

# The peers' machine-readable lines (peer, peer_setup, examples_per_s), for
# train_bench --peers.
peers=$(mktemp)
trap 'rm -f "$peers"' EXIT
run_peer() {  # <package> <script>
  if ! peer_has "$1"; then
    echo "$1 is not in the peers' environment ($MINITF_PEERS_DIR, scripts/peers.sh): its figures are skipped."
    return
  fi
  for t in "${thread_counts[@]}"; do
    "$MINITF_PEERS_PYTHON" "benchmarks/train/$2" --threads "$t" "${quick[@]}" | tee -a "$peers" |
      grep -v -e '^peer' -e '^examples_per_s'
  done
  echo
}
run_peer tensorflow tf_train.py
run_peer torch torch_train.py

threads=$(IFS=,; echo "${thread_counts[*]}")
"$bench" "${quick[@]}" --threads "$threads" --peers "$peers" \
  --command "benchmarks/train/compare.sh${quick:+ ${quick[*]}}${isa:+ --isa $isa}"
