# Shared by the scripts: paths and the build of the whole course.
# Every build tree sits at build/<name>, one level deep, so ccache (set up in
# cmake/Course.cmake) serves the same objects to all of them.
MINITF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MINITF_BUILD="$MINITF_ROOT/build/all"
MINITF_JOBS="${MINITF_JOBS:-$(nproc)}"

# configure_and_build <source dir> <build dir> [cmake args...]
configure_and_build() {
  local src="$1" dir="$2"
  shift 2
  mkdir -p "$(dirname "$dir")"
  cmake -S "$src" -B "$dir" -G Ninja "$@" >"$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log"; return 1; }
  cmake --build "$dir" -j "$MINITF_JOBS"
}

# The peers the benchmarks compare with, TensorFlow and PyTorch from PyPI, in
# a virtual environment that scripts/peers.sh makes (MINITF_PEERS_DIR says
# where; .peers/ in the repository by default).
MINITF_PEERS_DIR="${MINITF_PEERS_DIR:-$MINITF_ROOT/.peers}"
MINITF_PEERS_PYTHON="$MINITF_PEERS_DIR/bin/python"

# peer_has <module>: whether the peers' Python is there and imports <module>.
peer_has() {
  [[ -x "$MINITF_PEERS_PYTHON" ]] &&
    TF_CPP_MIN_LOG_LEVEL=3 "$MINITF_PEERS_PYTHON" -c "import $1" >/dev/null 2>&1
}
