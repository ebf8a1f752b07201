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
