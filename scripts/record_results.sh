#!/usr/bin/env bash
# Runs every benchmark the book quotes and records its tables in results/,
# the files the chapters include (`--8<-- "results/<name>.md"`). Each file
# says on which CPU, on what day, at which commit and with which command it
# was measured, so re-running this script (or one of its lines) updates the
# pages, and --check can tell when the code a table measures has changed.
#   scripts/record_results.sh            every benchmark (not the fuzzers,
#                                        not the *_avx2 ones)
#   scripts/record_results.sh NAME...    only these (the names below)
#   scripts/record_results.sh --check    lists the stale results files (see
#                                        MEASURES below) and exits with 1
#                                        when there is any
#   scripts/record_results.sh --stale    records the stale ones again, the
#                                        fuzzers' and the *_avx2 ones too
# The benchmarks take a few minutes in all; run them on an idle machine.
# The fuzzers' ten-minute runs (about four hours) are recorded only when
# named: scripts/record_results.sh fuzz. So are the *_avx2 files, the same
# benchmarks as a CPU without AVX-512 runs them, which build a tree of their
# own first (build/avx2; scripts/common.sh, avx2_build and avx2_env):
# scripts/record_results.sh cpu_gemm_bench_avx2 train_bench_avx2.
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$MINITF_ROOT"

bench="build/all/benchmarks"

# name: the command that writes results/<name>.md. Commands are spelled from
# the repository root, as a reader would type them.
declare -A RECORD=(
  # Chapter 1: layer 1's kernels beside Eigen's product and a copy loop.
  [tensor_bench]="$bench/tensor/tensor_bench"
  # Chapter 1, part 2: the CPU GEMM versions against Eigen and the FMA peak.
  [cpu_gemm_bench]="$bench/tensor/cpu_gemm_bench"
  # Chapter 2: what a Session adds to its kernels, beside TensorFlow's
  # Session and PyTorch's eager calls (the peers of scripts/peers.sh).
  [graph_bench]="benchmarks/graph/compare.sh"
  # Chapter 3: training examples/s beside TensorFlow and PyTorch (the peers
  # of scripts/peers.sh), what a second thread gives, tf::gradients' cost.
  [train_bench]="benchmarks/train/compare.sh"
  # Chapter 4: what devices cost and buy; placing, cutting and first runs
  # beside TensorFlow's.
  [device_bench]="$bench/device/device_bench"
  [placement_bench]="benchmarks/device/compare.sh"
  # Chapter 6: what two towers buy on two cores; gather against ring.
  [towers_bench]="$bench/towers/towers_bench"
  [all_reduce_bench]="$bench/towers/all_reduce_bench"
  # Chapter 7: a parameter server's pull and push against raw gRPC; what
  # staleness costs seed 003's model (deterministic); synchronous training's
  # second worker and its barrier.
  [ps_bench]="$bench/distributed/ps_bench"
  [stale_gradients]="build/all/programs/07-ps-worker-distribution/stale_gradients --seeds=8"
  [sync_bench]="$bench/distributed/sync_bench --runs=3"
  # Chapter 5, on the CPU emulator of CUDA. The GPU's own files
  # (results/gpu_*.md) come from scripts/gpu_check.sh on a machine with a GPU.
  [emulator_bench]="$bench/gpu/emulator_bench"
  [emulator_gemm]="$bench/gpu/gemm_bench --emulated"
  [emulator_ops]="$bench/gpu/gpu_ops_bench --emulated"
  # The testing page: every fuzzer for ten minutes (about four hours in
  # all; fuzz/ and scripts/fuzz.sh say what is fuzzed).
  [fuzz]="scripts/fuzz.sh 600"
  # Chapters 1 and 3 as a CPU with AVX2 and FMA but no AVX-512 sees them.
  [cpu_gemm_bench_avx2]="avx2_build cpu_gemm_bench && (avx2_env && build/avx2/benchmarks/tensor/cpu_gemm_bench)"
  [train_bench_avx2]="benchmarks/train/compare.sh --isa avx2"
  [emulator_cpu_vs_gpu]="env -u CUDA_VISIBLE_DEVICES MINITF_VIRTUAL_GPUS=1 MINITF_EMULATE_GPU_KERNELS=1 build/all/programs/05-gpu-kernels/cpu_vs_gpu --table --steps 10 --rounds 3"
)

# name: the paths whose code its figures measure, for --check: the program
# (its folder, or its files where a folder holds several), the helpers it
# times with, and the layers of src/minitf whose work is in the figures. A
# layer that a program links but whose work it does not time is left out,
# so that a change there does not call for a new recording: the placer's
# times do not depend on the GEMM. The build (cmake/, CMakeLists.txt) is
# left out too, since it changes with every test added; after a change to
# the compiler's flags, record every file again. results.h shapes how a
# table is written, not what it measures.
tensor=src/minitf/tensor graph=src/minitf/graph train=src/minitf/train
device=src/minitf/device gpu=src/minitf/gpu towers=src/minitf/towers
distributed=src/minitf/distributed timing=benchmarks/tensor/timing.h
declare -A MEASURES=(
  [tensor_bench]="benchmarks/tensor/tensor_bench.cc $timing $tensor"
  [cpu_gemm_bench]="benchmarks/tensor/cpu_gemm_bench.cc $timing $tensor"
  [cpu_gemm_bench_avx2]="benchmarks/tensor/cpu_gemm_bench.cc $timing $tensor"
  # The peers' scripts are in the folder; the peers' versions are pinned in
  # scripts/peers.sh.
  [graph_bench]="benchmarks/graph $timing scripts/peers.sh $tensor $graph"
  [train_bench]="benchmarks/train $timing scripts/peers.sh $tensor $graph $train"
  [train_bench_avx2]="benchmarks/train $timing scripts/peers.sh $tensor $graph $train"
  # The model of both is tower_model.h: variables and their updates (layer
  # 3) on devices. placement_bench subtracts a run on the cached plan from
  # each first run, so the kernels' time cancels and layer 1 is left out.
  [device_bench]="benchmarks/device/device_bench.cc benchmarks/device/tower_model.h $timing $tensor $graph $train $device"
  [placement_bench]="benchmarks/device $timing scripts/peers.sh $graph $train $device"
  # Virtual GPUs are layer 5's devices, with its allocators.
  [towers_bench]="benchmarks/towers/towers_bench.cc $timing $tensor $graph $train $device $gpu $towers"
  [all_reduce_bench]="benchmarks/towers/all_reduce_bench.cc $timing $tensor $graph $train $device $gpu $towers"
  [ps_bench]="benchmarks/distributed/ps_bench.cc tests/distributed/distributed_testing.h $timing $tensor $graph $train $device $distributed"
  [sync_bench]="benchmarks/distributed/sync_bench.cc tests/distributed/distributed_testing.h $tensor $graph $train $device $distributed"
  # Accuracies, not times: the kernels' arithmetic, the gradients, the
  # optimizer and the data's reading decide them.
  [stale_gradients]="chapters/07-ps-worker-distribution/programs/stale_gradients.cc $tensor $graph $train"
  [emulator_bench]="benchmarks/gpu/emulator_bench.cc tests/gpu/test_kernels.cuh $timing $gpu/emulator"
  [emulator_gemm]="benchmarks/gpu/gemm_bench_emulated.cc $timing $gpu/emulator $gpu/kernels/gemm"
  [emulator_ops]="benchmarks/gpu/gpu_ops_bench.cc $timing $tensor $graph $device $gpu"
  [emulator_cpu_vs_gpu]="chapters/05-gpu-kernels/programs/cpu_vs_gpu.cc $timing $tensor $graph $train $device $gpu"
  # The GPU's own files, written by scripts/gpu_check.sh on a machine with
  # one (the emulator's code is not in their figures, but shares $gpu).
  [gpu_gemm]="benchmarks/gpu/gemm_bench.cu $gpu/kernels/gemm"
  [gpu_ops]="benchmarks/gpu/gpu_ops_bench.cc $timing $tensor $graph $device $gpu"
  [gpu_cpu_vs_gpu]="chapters/05-gpu-kernels/programs/cpu_vs_gpu.cc $timing $tensor $graph $train $device $gpu"
  # What the fuzzers reach: every parser of the engine's inputs.
  [fuzz]="fuzz scripts/fuzz.sh $tensor $graph $train $device $distributed"
)

# record_command <name>: the command that records results/<name>.md again.
# The GPU's files come from scripts/gpu_check.sh, on a machine with a GPU.
record_command() {
  if [[ $1 == gpu_* ]]; then
    echo "scripts/gpu_check.sh"
  else
    echo "scripts/record_results.sh $1"
  fi
}

# stale_reason <name>: why results/<name>.md is stale, in words that follow
# its file name; nothing when it is current. A file whose first line says it
# is not measured yet (a GPU's, before a machine with one ran
# scripts/gpu_check.sh) holds no figures, so it cannot be stale.
stale_reason() {
  local name="$1" header commit path file commits where
  local -a paths changed=() files subjects
  header=$(head -n 1 "results/$name.md")
  [[ $header == "*Not measured"* ]] && return 0
  if [[ -z "${MEASURES[$name]:-}" ]]; then
    echo "has no entry in MEASURES (scripts/record_results.sh): nothing says which code it measures"
    return 0
  fi
  read -ra paths <<<"${MEASURES[$name]}"
  # A path that is gone (a file renamed, say) never changes again, so its
  # tables would never go stale: MEASURES names only paths that exist.
  for path in "${paths[@]}"; do
    [[ -e $path ]] || { echo "record_results: MEASURES[$name] names $path, which does not exist" >&2; exit 2; }
  done
  if [[ ! $header =~ ,\ at\ commit\ ([0-9a-f]{7,40}) ]]; then
    echo "records no commit, so nothing tells whether the code it measures changed since"
    return 0
  fi
  commit=${BASH_REMATCH[1]}
  if ! git rev-parse -q --verify "$commit^{commit}" >/dev/null; then
    echo "was measured at $commit, a commit this clone's history does not hold"
    return 0
  fi
  mapfile -t files < <(git log --format= --name-only "$commit..HEAD" -- "${paths[@]}" | sort -u)
  for path in "${paths[@]}"; do
    for file in "${files[@]}"; do
      if [[ $file == "$path" || $file == "$path"/* ]]; then
        changed+=("$path")
        break
      fi
    done
  done
  ((${#changed[@]})) || return 0
  mapfile -t subjects < <(git log --format=%s "$commit..HEAD" -- "${changed[@]}")
  commits="${#subjects[@]} commits"
  ((${#subjects[@]} > 1)) || commits="1 commit"
  where=$(printf '%s, ' "${changed[@]}")
  echo "was measured at $commit; ${where%, } changed since, in $commits, the newest \"${subjects[0]}\""
}

# check: lists every stale results file, two lines each (the hook
# docs/hooks/stale_results.py reads them to mark the site's tables):
#   results/<name>.md <why it is stale>
#     record it again: <command>
# Sets the array `stale` to the stale files' names.
check() {
  local file name reason
  stale=()
  for file in results/*.md; do
    name=$(basename "$file" .md)
    reason=$(stale_reason "$name") || exit
    [[ -n $reason ]] || continue
    echo "$file $reason"
    echo "  record it again: $(record_command "$name")"
    stale+=("$name")
  done
}

# The names to record: those given; with --stale, the stale ones; with no
# name, every benchmark but the fuzzers and the *_avx2 ones.
names=("$@")
gpu_left=0  # --stale: the stale GPU files, which a machine with a GPU records
case "${1:-}" in
  --check | --stale)
    (($# == 1)) || { echo "usage: scripts/record_results.sh [--check | --stale | NAME...]" >&2; exit 2; }
    git rev-parse --git-dir >/dev/null 2>&1 ||
      { echo "record_results: $1 needs the repository's git history" >&2; exit 2; }
    check
    total=$(compgen -G 'results/*.md' | wc -l)
    if ((${#stale[@]} == 0)); then
      echo "record_results: the $total results files are current"
      exit 0
    fi
    if [[ $1 == --check ]]; then
      echo "record_results: ${#stale[@]} of $total results files are stale;" \
           "record them again on an idle machine: scripts/record_results.sh --stale"
      exit 1
    fi
    names=()
    for name in "${stale[@]}"; do
      if [[ $name == gpu_* ]]; then
        gpu_left=$((gpu_left + 1))
      else
        names+=("$name")
      fi
    done
    ;;
  "")
    mapfile -t names < <(printf '%s\n' "${!RECORD[@]}" | grep -vx -e fuzz -e '.*_avx2' | sort)
    ;;
esac

# The commit every file records, taken once, before the first is written.
export MINITF_COMMIT="${MINITF_COMMIT:-$(results_commit)}"
export MINITF_RESULTS_DIR="$MINITF_ROOT/results"
mkdir -p "$MINITF_RESULTS_DIR"
for name in "${names[@]}"; do
  [[ -n "${RECORD[$name]:-}" ]] || { echo "record_results: no benchmark named '$name'" >&2; exit 2; }
  echo "=== $name: ${RECORD[$name]}"
  eval "${RECORD[$name]}"
  [[ -s "results/$name.md" ]] || { echo "record_results: $name wrote no results/$name.md" >&2; exit 1; }
done
if ((gpu_left)); then
  echo "record_results: $gpu_left GPU results file(s) still stale: run scripts/gpu_check.sh on a machine with an NVIDIA GPU" >&2
  exit 1
fi
