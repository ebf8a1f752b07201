#!/usr/bin/env bash
# Proves that every exercise is a real exercise: its test FAILS on the
# learner's starter (so a learner cannot pass without writing code) and
# PASSES on the reference solution (so it can be passed).
#
# Exercises are found as tools/learn.py finds them: each folder
# exercises/<chapter>/<name>/ with a README.md and a solution/. The script
# configures build/ex-starters/ and build/ex-solutions/ (-G Ninja,
# -DMINITF_EXERCISES=starters|solutions), builds only the exercise_<name>
# targets, runs CTest's exercise.<name> in each, and names every exercise that
# misbehaves. Logs: build/ex-*/exercise-logs/. Exit status 0 only if all behave.
#
#   tools/check_exercises.sh               # MINITF_JOBS=N limits parallel compiles
#   tools/check_exercises.sh 05-gpu-kernels   # one chapter's exercises only
set -uo pipefail

cd "$(dirname "$0")/.." || exit 1
readonly jobs="${MINITF_JOBS:-$(nproc)}"

chapters=("$@")
if ((${#chapters[@]} == 0)); then
  chapters=("*")
fi
names=()
for chapter in "${chapters[@]}"; do
  for readme in exercises/$chapter/*/README.md; do
    dir="$(dirname "$readme")"
    [[ -d "$dir/solution" ]] && names+=("$(basename "$dir")")
  done
done
if ((${#names[@]} == 0)); then
  echo "check_exercises: FAILED: no exercises found under exercises/${1:-}" >&2
  exit 1
fi
echo "check_exercises: ${#names[@]} exercises: ${names[*]}"

# configure <mode>: build/ex-<mode>/ with MINITF_EXERCISES=<mode>.
configure() {
  local mode="$1" dir="build/ex-$1"
  mkdir -p "$dir/exercise-logs"
  if ! cmake -S . -B "$dir" -G Ninja -DMINITF_EXERCISES="$mode" \
      >"$dir/exercise-logs/configure.log" 2>&1; then
    cat "$dir/exercise-logs/configure.log" >&2
    echo "check_exercises: FAILED: configuring $dir" >&2
    exit 1
  fi
}

# outcome <mode> <name>: prints "pass", "fail", "unbuilt" or "unregistered".
outcome() {
  local mode="$1" name="$2" dir="build/ex-$1"
  local logs="$dir/exercise-logs"
  if ! cmake --build "$dir" --target "exercise_$name" -j "$jobs" >"$logs/$name.build.log" 2>&1; then
    echo unbuilt
    return
  fi
  # --no-tests=error alone would make a missing test look like a failing one.
  if ! ctest --test-dir "$dir" -N -R "^exercise\.$name\$" | grep -q "Total Tests: 1$"; then
    echo unregistered
    return
  fi
  if ctest --test-dir "$dir" -R "^exercise\.$name\$" --no-tests=error --output-on-failure \
      >"$logs/$name.test.log" 2>&1; then
    echo pass
  else
    echo fail
  fi
}

configure starters
configure solutions

passed=0
failed=0
for name in "${names[@]}"; do
  starter="$(outcome starters "$name")"
  solution="$(outcome solutions "$name")"
  problems=()
  logs=()
  case "$starter" in
    fail) ;;
    pass) problems+=("its test PASSES on the starter: the stub solves it, or the test checks nothing") ;;
    unbuilt)
      problems+=("the starter does not build")
      logs+=("build/ex-starters/exercise-logs/$name.build.log") ;;
    unregistered) problems+=("no CTest test exercise.$name: is add_subdirectory($name) missing?") ;;
  esac
  case "$solution" in
    pass) ;;
    fail)
      problems+=("its test FAILS on the solution")
      logs+=("build/ex-solutions/exercise-logs/$name.test.log") ;;
    unbuilt)
      problems+=("the solution does not build")
      logs+=("build/ex-solutions/exercise-logs/$name.build.log") ;;
    unregistered) problems+=("no CTest test exercise.$name: is add_subdirectory($name) missing?") ;;
  esac
  if ((${#problems[@]} == 0)); then
    echo "ok      $name: fails on the starter, passes on the solution"
    passed=$((passed + 1))
    continue
  fi
  failed=$((failed + 1))
  for problem in "${problems[@]}"; do
    echo "FAILED  $name: $problem" >&2
  done
  for log in "${logs[@]}"; do
    echo "---- from $log" >&2
    if grep -q ': Failure$' "$log"; then
      grep -A 6 ': Failure$' "$log" | head -n 40 >&2
    else
      tail -n 30 "$log" >&2
    fi
  done
done

echo "check_exercises: $passed passed, $failed failed"
((failed == 0))
