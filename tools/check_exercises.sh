#!/usr/bin/env bash
# Proves that every exercise is a real exercise: its test FAILS on the
# learner's starter (so a learner cannot pass without writing code) and
# PASSES on the reference solution (so it can be passed). For an exercise
# that is a piece of the engine (minitf_exercise(... PIECE ... SEED <program>)
# in cmake/Course.cmake), it also proves that the seed program built with the
# solution's piece prints the library's results: it builds
# <program>_with_<name> and <program> and runs CTest's exercise_seed.<name>
# (tools/learn.py compare), which compares their result lines.
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

# seed_outcome <name>: for an engine piece, builds the seed program with the
# solution's piece and the library's, runs exercise_seed.<name>, and prints
# "agree", "skipped", "differ" or "unbuilt"; "none" for other exercises.
seed_outcome() {
  local name="$1" dir="build/ex-solutions"
  local manifest="$dir/exercise_seeds/$name.txt" logs="$dir/exercise-logs"
  if [[ ! -f "$manifest" ]]; then
    echo none
    return
  fi
  local yours reference
  yours="$(sed -n 's/^yours_target=//p' "$manifest")"
  reference="$(sed -n 's/^reference_target=//p' "$manifest")"
  if ! cmake --build "$dir" --target "$yours" "$reference" -j "$jobs" \
      >"$logs/$name.seed.build.log" 2>&1; then
    echo unbuilt
    return
  fi
  if ! ctest --test-dir "$dir" -R "^exercise_seed\.$name\$" --no-tests=error -V \
      >"$logs/$name.seed.log" 2>&1; then
    echo differ
  elif grep -q "cannot run on this machine" "$logs/$name.seed.log"; then
    echo skipped
  else
    echo agree
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
  seed=none
  if [[ "$solution" == pass ]]; then
    seed="$(seed_outcome "$name")"
  fi
  case "$seed" in
    none | agree | skipped) ;;
    differ)
      problems+=("the seed program built with the solution does not print the library's results")
      logs+=("build/ex-solutions/exercise-logs/$name.seed.log") ;;
    unbuilt)
      problems+=("the seed program with the solution's piece does not build")
      logs+=("build/ex-solutions/exercise-logs/$name.seed.build.log") ;;
  esac
  if ((${#problems[@]} == 0)); then
    case "$seed" in
      agree) echo "ok      $name: fails on the starter, passes on the solution; the seed" \
                  "program built with the solution prints the library's results" ;;
      skipped) echo "ok      $name: fails on the starter, passes on the solution; its seed" \
                    "program cannot run here (see build/ex-solutions/exercise-logs/$name.seed.log)" ;;
      *) echo "ok      $name: fails on the starter, passes on the solution" ;;
    esac
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
