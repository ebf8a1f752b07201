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

# The peers (scripts/peers.sh): TensorFlow and PyTorch from PyPI in a virtual
# environment, .peers/ unless MINITF_PEERS_DIR names another.
MINITF_PEERS_DIR="${MINITF_PEERS_DIR:-$MINITF_ROOT/.peers}"

# peers_python [tensorflow|torch]: prints the peers' python when the peers
# (or the one named) are installed; else prints nothing and returns 1, and
# the caller says that scripts/peers.sh installs them.
peers_python() {
  local py="$MINITF_PEERS_DIR/bin/python" package
  [[ -x "$py" ]] || return 1
  for package in "${1:-tensorflow}" "${1:-torch}"; do
    compgen -G "$MINITF_PEERS_DIR/lib/python3*/site-packages/$package/__init__.py" >/dev/null ||
      return 1
  done
  echo "$py"
}
