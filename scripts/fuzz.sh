#!/usr/bin/env bash
# Builds the fuzzers (fuzz/) with clang, libFuzzer, AddressSanitizer and UBSan
# in build/fuzz, and runs each on a scratch copy of its seed corpus. The
# same tree builds the unit tests that CI runs under the sanitizers (.ci/run,
# step 5; fuzz_configure in scripts/common.sh), so after that step there is
# nothing left here to build.
#   scripts/fuzz.sh [SECONDS] [FUZZER...]  SECONDS per fuzzer (default 600);
#                                          writes results/fuzz.md
#   scripts/fuzz.sh --quick [FUZZER...]    a few seconds each, for CI; no results file
#   scripts/fuzz.sh --build                builds only
# FUZZER names a fuzzer without its _fuzzer suffix (graph_def, master_run_step).
# An input that crashes, leaks, runs past 10 s or grows the process past
# 2 GiB is saved as build/fuzz/findings/<fuzzer>/<kind>-<hash>, with the
# command that replays it; the script then fails. The scratch corpus,
# build/fuzz/corpora/<fuzzer>, keeps what a run found, for the next run.
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$MINITF_ROOT"

seconds=600 quick=0 build_only=0
case "${1:-}" in
  --quick) quick=1 seconds=5; shift ;;
  --build) build_only=1; shift ;;
  [0-9]*) seconds=$1; shift ;;
esac
wanted=("$@")

# The commit results/fuzz.md names (results_commit), taken before the build:
# the fuzzers run the code built now, whatever is committed in their hours.
commit=${MINITF_COMMIT:-$(results_commit)}
build=build/fuzz
fuzz_configure
build_with_progress "$build" "the fuzzers" minitf_fuzzers
((build_only)) && exit 0

if ((${#wanted[@]} == 0)); then
  mapfile -t wanted < <(ls fuzz/corpus)
fi

# Leaks inside third-party libraries, as in CI's sanitizer step; a request
# too large to allocate is an error the engine reports, not a crash.
export LSAN_OPTIONS="suppressions=$PWD/.ci/lsan_suppressions.txt"
export ASAN_OPTIONS="allocator_may_return_null=1"
export OMP_NUM_THREADS=1

# fuzz_one <name>: runs one fuzzer; what it prints goes to
# build/fuzz/findings/<name>.out, its table row to <name>.row, and it
# exits non-zero when the fuzzer found a fault.
fuzz_one() {
  local name=$1
  local binary="$build/fuzz/${name}_fuzzer"
  local corpus="$build/corpora/$name" findings="$build/findings/$name"
  local log="$build/findings/$name.log" status=0 seeds execs cov features kept found result
  mkdir -p "$corpus" "$findings"
  cp -n fuzz/corpus/"$name"/* "$corpus"/
  seeds=$(ls fuzz/corpus/"$name" | wc -l)
  echo "=== $name: ${seconds} s from $seeds seeds"
  "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$findings/" "$corpus" >"$log" 2>&1 || status=$?
  # The last status line: "#123456 DONE cov: 1234 ft: 5678 corp: 90/12Kb ...".
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
  features=$(grep -Eo 'ft: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
  kept=$(grep -Eo 'corp: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
  found=$(ls "$findings" | head -n 1)
  result="none"
  if ((status != 0)) || [[ -n $found ]]; then
    result="FOUND: $found"
    echo "fuzz: $name found a fault (exit status $status); its report:"
    grep -E -A12 '^==[0-9]+==(ERROR|WARNING)|runtime error|ALARM|out-of-memory|deadly signal' \
      "$log" | head -n 40 || tail -n 30 "$log"
    [[ -n $found ]] && echo "replay: $binary $findings/$found"
  fi
  echo "$name: ${execs:-0} inputs run, coverage ${cov:-0} edges, ${features:-0} features, corpus $seeds -> ${kept:-0}; findings: $result"
  echo "| $name | $seeds | ${kept:-0} | ${execs:-0} | ${cov:-0} | ${features:-0} | $result |" \
    >"$build/findings/$name.row"
  [[ $result == none ]]
}

# MINITF_JOBS fuzzers at a time, each a single thread on a core of its
# own, so that each still gets its SECONDS of a core; their reports are
# printed in the order the fuzzers are named.
for name in "${wanted[@]}"; do
  [[ -x $build/fuzz/${name}_fuzzer ]] ||
    { echo "fuzz: no fuzzer named '$name' ($build/fuzz/${name}_fuzzer)" >&2; exit 2; }
  [[ -d fuzz/corpus/$name ]] || { echo "fuzz: no corpus fuzz/corpus/$name" >&2; exit 2; }
done
mkdir -p "$build/findings"
for name in "${wanted[@]}"; do
  while (($(jobs -rp | wc -l) >= MINITF_JOBS)); do wait -n || true; done
  (
    status=0
    fuzz_one "$name" >"$build/findings/$name.out" 2>&1 || status=$?
    echo "$status" >"$build/findings/$name.status"
  ) &
done
wait
rows=() failed=()
for name in "${wanted[@]}"; do
  cat "$build/findings/$name.out"
  rows+=("$(cat "$build/findings/$name.row")")
  [[ $(cat "$build/findings/$name.status") == 0 ]] || failed+=("$name")
done

if ((!quick)); then
  results="${MINITF_RESULTS_DIR:-$MINITF_ROOT/results}/fuzz.md"
  mkdir -p "$(dirname "$results")"
  # A run of some fuzzers replaces their rows and keeps the others' (run
  # for as many seconds: the first line names the duration).
  if [[ -f $results ]] && grep -q "scripts/fuzz.sh $seconds\b" "$results"; then
    for row in $(grep -n '^| [a-z_]* | [0-9]' "$results" | cut -d: -f1); do
      line=$(sed -n "${row}p" "$results")
      old=$(cut -d' ' -f2 <<<"$line")
      [[ " ${wanted[*]} " == *" $old "* ]] || rows+=("$line")
    done
    mapfile -t rows < <(printf '%s\n' "${rows[@]}" | sort)
  fi
  cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
  {
    echo "*Measured on ${cpu:-unknown CPU} ($(getconf _NPROCESSORS_ONLN) cores, $(uname -s) $(uname -m)), $(date +%F)${commit:+, at commit $commit}, with \`scripts/fuzz.sh $seconds\`, $MINITF_JOBS fuzzers at a time.*"
    echo
    echo "**libFuzzer with AddressSanitizer, LeakSanitizer and UBSan, $seconds s per fuzzer**"
    echo
    echo "| fuzzer | seeds | corpus after | inputs run | edges covered | features | findings |"
    echo "|---|---:|---:|---:|---:|---:|---|"
    printf '%s\n' "${rows[@]}"
    echo
    echo "Edges covered: the instrumented branches of the engine that the fuzzer's inputs reached, as libFuzzer counts them (cov); features: edges with how often each ran (ft). Findings: an input that crashed, leaked, ran over 10 s or grew the process past 2 GiB."
  } >"$results"
  echo "fuzz: wrote $results"
fi

if ((${#failed[@]})); then
  echo "fuzz: faults found by: ${failed[*]} (inputs in $build/findings/)" >&2
  exit 1
fi
echo "fuzz: no faults found"
