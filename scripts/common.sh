# Shared by the scripts: paths and the build of the whole course.
# Every build tree sits at build/<name>, one level deep, so ccache (set up in
# cmake/Course.cmake) serves the same objects to all of them.
MINITF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MINITF_BUILD="$MINITF_ROOT/build/all"
MINITF_JOBS="${MINITF_JOBS:-$(nproc)}"

# configure <source dir> <build dir> [cmake args...]: CMake's configure
# step, its output in <build dir>.configure.log (shown if it fails).
configure() {
  local src="$1" dir="$2"
  shift 2
  mkdir -p "$(dirname "$dir")"
  cmake -S "$src" -B "$dir" -G Ninja "$@" >"$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log"; return 1; }
}

# configure_and_build <source dir> <build dir> [cmake args...]
configure_and_build() {
  configure "$@" || return 1
  cmake --build "$2" -j "$MINITF_JOBS"
}

# The clang tree with libFuzzer's coverage, AddressSanitizer and UBSan
# (-DMINITF_SANITIZE=fuzzer): the fuzzers (scripts/fuzz.sh) and CI's run of
# the unit tests under the sanitizers both build in it, from the same
# objects. The two limits that differ in the fuzzers are linked into the
# fuzzers alone (fuzz/fuzzing_limits.cc), so the tests check the real ones.
MINITF_FUZZ_BUILD="$MINITF_ROOT/build/fuzz"

# fuzz_configure: CMake's configure step of that tree, with clang-14
# (MINITF_FUZZ_CC and MINITF_FUZZ_CXX name another clang).
fuzz_configure() {
  CC="${MINITF_FUZZ_CC:-clang-14}" CXX="${MINITF_FUZZ_CXX:-clang++-14}" \
    configure "$MINITF_ROOT" "$MINITF_FUZZ_BUILD" -DMINITF_SANITIZE=fuzzer -DMINITF_CUDA=OFF
}

# build_with_progress <build dir> <what> <target...>: builds the targets
# with the compiler's output in <build dir>/build-logs/<what>.log and, on
# the screen, one progress line made of ninja's [done/total]:
# "building chapter 3: 120/310". On a terminal the line is redrawn in
# place; elsewhere (a pipe, a file) it is printed at 0, 25, 50, 75 and 100%.
# A failed build shows the compiler's messages from the first failing step.
build_with_progress() {
  local dir="$1" what="$2"
  shift 2
  local log="$dir/build-logs/${what//[^A-Za-z0-9]/_}.log" status
  mkdir -p "$dir/build-logs"
  set +e
  NINJA_STATUS="[%f/%t] " cmake --build "$dir" -j "$MINITF_JOBS" --target "$@" 2>&1 |
    _minitf_progress "building $what" "$log"
  status=${PIPESTATUS[0]}
  set -e
  if ((status != 0)); then
    echo "FAILED: building $what (exit status $status); the compiler's messages:" >&2
    sed -n '/^FAILED: /,$p' "$log" | head -n 60 >&2
    echo "(all of it: $log)" >&2
    return 1
  fi
}

# _minitf_progress <label> <log>: reads ninja's output, keeps all of it in
# <log>, shows "<label>: done/total" (see build_with_progress).
_minitf_progress() {
  local label="$1" line done total quarter shown=-1 tty=0 any=0
  [[ -t 1 ]] && tty=1
  exec 3>"$2"
  while IFS= read -r line; do
    printf '%s\n' "$line" >&3
    [[ $line =~ ^\[([0-9]+)/([0-9]+)\]\ (.*) ]] || continue
    # CMake's check of its file globs runs first, with a count of its own.
    [[ ${BASH_REMATCH[3]} == Re-* ]] && continue
    done=${BASH_REMATCH[1]} total=${BASH_REMATCH[2]} any=1
    if ((tty)); then
      printf '\r%s: %d/%d ' "$label" "$done" "$total"
    else
      quarter=$((4 * done / total))
      if ((quarter != shown)); then
        shown=$quarter
        echo "$label: $done/$total"
      fi
    fi
  done
  exec 3>&-
  if ((tty && any)); then echo; fi
  if ((!any)); then echo "$label: up to date"; fi
}

# results_commit: the commit the results files record, as their first line
# names it: git's HEAD in 12 hex digits, with " + uncommitted changes" when
# tracked files differ from it. Files under results/ do not count: a run of
# scripts/record_results.sh writes them one after another, and a table
# written early must not make the later ones look measured on changed code.
# Prints nothing outside a git checkout. scripts/record_results.sh --check
# compares the commit with the paths each table measures.
results_commit() {
  local head
  head=$(git -C "$MINITF_ROOT" rev-parse --short=12 HEAD 2>/dev/null) || return 0
  if [[ -n $(git -C "$MINITF_ROOT" status --porcelain --untracked-files=no -- . ':!results') ]]; then
    head+=" + uncommitted changes"
  fi
  echo "$head"
}

# The peers, TensorFlow and PyTorch from PyPI, in a virtual environment that
# scripts/peers.sh makes (MINITF_PEERS_DIR says where; .peers/ in the
# repository by default). The benchmarks compare with them; the oracle tests
# run TensorFlow beside minitf.
MINITF_PEERS_DIR="${MINITF_PEERS_DIR:-$MINITF_ROOT/.peers}"
MINITF_PEERS_PYTHON="$MINITF_PEERS_DIR/bin/python"

# peer_has <package>: whether the peers' Python is there with <package>
# (tensorflow, torch) installed. Looks for the package's files rather than
# importing it: importing TensorFlow alone takes seconds.
peer_has() {
  [[ -x "$MINITF_PEERS_PYTHON" ]] &&
    compgen -G "$MINITF_PEERS_DIR/lib/python3*/site-packages/$1/__init__.py" >/dev/null
}

# This machine as an AVX2 machine without AVX-512 sees it, for the
# benchmarks that compare with the peers and the libraries (compare.sh
# --isa avx2): minitf built for x86-64-v3 (AVX2 + FMA) in build/avx2, and
# the run-time dispatch of the others limited to AVX2.
MINITF_AVX2_BUILD="$MINITF_ROOT/build/avx2"

# avx2_build <target...>: configures build/avx2 (-march=x86-64-v3) and
# builds the targets.
avx2_build() {
  configure "$MINITF_ROOT" "$MINITF_AVX2_BUILD" -DMINITF_NATIVE=OFF \
    -DMINITF_MARCH=x86-64-v3 -DMINITF_CUDA=OFF || return 1
  build_with_progress "$MINITF_AVX2_BUILD" "AVX2 build" "$@"
}

# avx2_env: limits the libraries' CPU dispatch to AVX2 and names the limit
# for the results files. oneDNN (TensorFlow's, PyTorch's, Debian's):
# ONEDNN_MAX_CPU_ISA. TensorFlow on Linux turns its oneDNN operations on
# only for CPUs with AVX-512 VNNI, AVX-VNNI or AMX, so an AVX2 machine runs
# its Eigen kernels (TF_ENABLE_ONEDNN_OPTS=0), whose contractions still call
# oneDNN's sgemm. PyTorch: MKL_ENABLE_INSTRUCTIONS for MKL, and
# ATEN_CPU_CAPABILITY for its own vectorised kernels. Debian's BLIS picks
# its AVX2 kernels (zen3) on AMD's AVX-512 CPUs already. MINITF_ISA_LIMIT
# makes the benchmarks write results/<name>_avx2.md and say so.
avx2_env() {
  export ONEDNN_MAX_CPU_ISA=AVX2 TF_ENABLE_ONEDNN_OPTS=0 \
    MKL_ENABLE_INSTRUCTIONS=AVX2 ATEN_CPU_CAPABILITY=avx2 MINITF_ISA_LIMIT=avx2
}
