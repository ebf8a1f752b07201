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

rows=() failed=()
for name in "${wanted[@]}"; do
  binary="$build/fuzz/${name}_fuzzer"
  [[ -x $binary ]] || { echo "fuzz: no fuzzer named '$name' ($binary)" >&2; exit 2; }
  [[ -d fuzz/corpus/$name ]] || { echo "fuzz: no corpus fuzz/corpus/$name" >&2; exit 2; }
  corpus="$build/corpora/$name" findings="$build/findings/$name"
  mkdir -p "$corpus" "$findings"
  cp -n fuzz/corpus/"$name"/* "$corpus"/
  seeds=$(ls fuzz/corpus/"$name" | wc -l)
  log="$build/findings/$name.log"
  echo "=== $name: ${seconds} s from $seeds seeds"
  status=0
  "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$findings/" "$corpus" >"$log" 2>&1 || status=$?
  # The last status line: "#123456 DONE cov: 1234 ft: 5678 corp: 90/12Kb ...".
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
  features=$(grep -Eo 'ft: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
  kept=$(grep -Eo 'corp: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
  found=$(ls "$findings" | head -n 1)
  if ((status != 0)) || [[ -n $found ]]; then
    failed+=("$name")
    result="FOUND: $found"
    echo "fuzz: $name found a fault (exit status $status); its report:" >&2
    grep -E -A12 '^==[0-9]+==(ERROR|WARNING)|runtime error|ALARM|out-of-memory|deadly signal' \
      "$log" | head -n 40 >&2 || tail -n 30 "$log" >&2
    [[ -n $found ]] && echo "replay: $binary $findings/$found" >&2
  else
    result="none"
  fi
  echo "$name: ${execs:-0} inputs run, coverage ${cov:-0} edges, ${features:-0} features, corpus $seeds -> ${kept:-0}; findings: $result"
  rows+=("| $name | $seeds | ${kept:-0} | ${execs:-0} | ${cov:-0} | ${features:-0} | $result |")
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
    echo "*Measured on ${cpu:-unknown CPU} ($(getconf _NPROCESSORS_ONLN) cores, $(uname -s) $(uname -m)), $(date +%F), with \`scripts/fuzz.sh $seconds\`.*"
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
