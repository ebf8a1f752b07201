#!/usr/bin/env bash
# Chapter 3's speed figures in one script: training examples per second of
# the chapter's two models in minitf (train_bench) and in PyTorch
# (torch_train.py), on the same machine, threads, models, batches and
# optimizer settings, with the ratios between them; and, for the record, the
# time tf::gradients takes to build the MLP's backward graph.
#
# PyTorch runs twice per thread count: as the machine is set, and with
# OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset for that command alone, which
# lets an OpenBLAS pick its AVX-512 kernels (the variables pin it to Haswell's
# for reproducible tests; nothing else here changes them). Debian's PyTorch
# calls whichever libblas.so.3 the system provides, and torch_train.py prints
# which one it loaded: with the reference BLAS, the variables change nothing.
# OPENBLAS_NUM_THREADS is set to the thread count, so that an OpenBLAS, which
# ignores torch.set_num_threads, uses the same threads as everything else.
# To time PyTorch on another BLAS without installing it, put its folder first
# in LD_LIBRARY_PATH when calling this script (see chapter 3, section 9).
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
have_torch=0
/usr/bin/python3 -c 'import torch' 2>/dev/null && have_torch=1

# Machine-readable lines of every run, gathered for the table:
#   <model> <threads> <who> <examples/s>
rates=""
grad_ms=""
for t in "${thread_counts[@]}"; do
  echo "=== $t thread(s)"
  out=$("$bench" --threads "$t" "${quick[@]}")
  echo "$out" | grep -v -e '^train_examples_per_s' -e '^gradients_ms'
  rates+=$(echo "$out" | awk '/^train_examples_per_s/ {print $2, $3, "minitf", $4}')
  rates+=$'\n'
  grad_ms=$(echo "$out" | awk '/^gradients_ms/ {print $2}')
  if ((have_torch)); then
    for setting in as_set unset; do
      echo
      if [[ $setting == as_set ]]; then
        echo "PyTorch, OPENBLAS_* as the machine sets them:"
        out=$(OPENBLAS_NUM_THREADS=$t /usr/bin/python3 \
          benchmarks/train/torch_train.py --threads "$t" "${quick[@]}")
      else
        echo "PyTorch, OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset:"
        out=$(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE \
          OPENBLAS_NUM_THREADS="$t" /usr/bin/python3 \
          benchmarks/train/torch_train.py --threads "$t" "${quick[@]}")
      fi
      echo "$out" | grep -v '^torch_examples_per_s'
      rates+=$(echo "$out" |
        awk -v who="torch_$setting" '/^torch_examples_per_s/ {print $2, $3, who, $4}')
      rates+=$'\n'
    done
  fi
  echo
done

if ((!have_torch)); then
  echo "PyTorch is not installed (Debian package python3-torch); its figures are skipped."
fi
echo "Training examples per second (batch 100), and minitf / PyTorch:"
echo "$rates" | awk '
  NF == 4 { rate[$1 " " $2 " " $3] = $4; seen[$1 " " $2] = 1 }
  END {
    printf "  %-8s %7s %12s %14s %7s %14s %7s\n", "model", "threads", "minitf",
           "PyTorch as set", "ratio", "PyTorch unset", "ratio"
    n = split("softmax mlp", models, " ")
    for (i = 1; i <= n; ++i) {
      for (t = 1; t <= 2; ++t) {
        key = models[i] " " t
        if (!(key in seen)) continue
        m = rate[key " minitf"]; a = rate[key " torch_as_set"]; u = rate[key " torch_unset"]
        printf "  %-8s %7d %12.0f", models[i], t, m
        if (a > 0) printf " %14.0f %6.2fx", a, m / a; else printf " %14s %7s", "-", "-"
        if (u > 0) printf " %14.0f %6.2fx", u, m / u; else printf " %14s %7s", "-", "-"
        printf "\n"
      }
    }
  }'
echo "tf::gradients builds the MLP's backward graph in $grad_ms ms."
