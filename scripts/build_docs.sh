#!/usr/bin/env bash
# Builds the course site into site/: Doxygen's API reference (docs/api/), then
# the MkDocs site around it. Any Doxygen warning, any MkDocs warning and any
# broken code quote fails the build. Run from anywhere:
#   scripts/build_docs.sh
# Debian's mkdocs, its Material theme and pymdownx live in the system Python,
# so the script runs mkdocs under /usr/bin/python3 (not whatever python3 is
# first on PATH), with one warning silenced (see run_mkdocs below).
set -euo pipefail

cd "$(dirname "$0")/.."

fail() {
  echo "build_docs: FAILED: $*" >&2
  exit 1
}

for tool in doxygen /usr/bin/mkdocs; do
  command -v "$tool" >/dev/null || fail "$tool is missing; run scripts/setup.sh"
done

# The hooks are imported by MkDocs; keep Python's caches out of docs/.
export PYTHONDONTWRITEBYTECODE=1

# The chapters' pictures are drawn by the course's own programs: minitf writes
# Graphviz DOT, and dot renders it into docs/images/generated/ (not in git).
source scripts/common.sh
command -v dot >/dev/null || fail "Graphviz's dot is missing; run scripts/setup.sh"
programs="$MINITF_BUILD/programs"
if [[ ! -x "$programs/01-tensors/draw_cpu_gemm" ||
      ! -x "$programs/03-variables-and-autodiff/plot_loss" ||
      ! -x "$programs/04-device-placement/draw_devices" ||
      ! -x "$programs/05-gpu-kernels/draw_cuda_memory" ||
      ! -x "$programs/05-gpu-kernels/draw_cuda_grid" ||
      ! -x "$programs/05-gpu-kernels/draw_gemm_tiles" ||
      ! -x "$programs/05-gpu-kernels/draw_streams" ||
      ! -x "$programs/06-multi-gpu-towers/draw_ring" ||
      ! -x "$programs/06-multi-gpu-towers/draw_towers" ||
      ! -x "$programs/07-ps-worker-distribution/seed_distributed" ||
      ! -x "$programs/07-ps-worker-distribution/draw_rpc_step" ||
      ! -x "$programs/07-ps-worker-distribution/draw_staleness" ||
      ! -x "$programs/07-ps-worker-distribution/draw_sync_replicas" ||
      ! -x "$MINITF_BUILD/benchmarks/towers/towers_bench" ]]; then
  echo "build_docs: building the course first (for the pictures)"
  configure_and_build . "$MINITF_BUILD" >/dev/null
fi
generated=docs/images/generated
rm -rf "$generated"
mkdir -p "$generated"
# Chapter 1, part 2: one block of the packed CPU GEMM, at this build's
# tile (written as SVG by the program itself).
"$programs/01-tensors/draw_cpu_gemm" "$generated/cpu_gemm.svg" >/dev/null
"$programs/02-graph-and-session/draw_graphs" "$generated/dot" >/dev/null
"$programs/03-variables-and-autodiff/draw_gradients" "$generated/dot" >/dev/null
# Chapter 4: seed 001's towers on four virtual GPUs, placed, partitioned and
# traced. The two traces go to the site as they are (timeline.json opens in
# chrome://tracing or Perfetto).
"$programs/04-device-placement/draw_devices" "$generated/dot" >/dev/null
mv "$generated/dot/timeline.svg" "$generated/dot/timeline.json" "$generated/"
# Chapter 5, written as SVG by the programs themselves: a launch and the
# memory each of its parts sees, a grid of blocks of threads over a matrix,
# the teaching GEMM's version 3 on its matrices, and the GPU's streams in
# one run.
"$programs/05-gpu-kernels/draw_cuda_memory" "$generated/cuda_memory.svg" >/dev/null
"$programs/05-gpu-kernels/draw_cuda_grid" "$generated/cuda_grid.svg" >/dev/null
"$programs/05-gpu-kernels/draw_gemm_tiles" "$generated/gemm_tiles.svg" >/dev/null
"$programs/05-gpu-kernels/draw_streams" "$generated/streams.svg" >/dev/null
# Chapter 6: a ring all-reduce on four virtual GPUs, drawn from its run's log.
"$programs/06-multi-gpu-towers/draw_ring" "$generated/ring.svg" >/dev/null
# Chapter 6: seed 004's tower graph with two towers, grouped by name and
# coloured by the devices a session with two virtual GPUs placed it on.
"$programs/06-multi-gpu-towers/draw_towers" "$generated/dot" >/dev/null
# Chapter 7: SyncReplicasOptimizer's graph for seed 003, coloured by task.
"$programs/07-ps-worker-distribution/draw_sync_replicas" "$generated/dot" >/dev/null
# Chapter 6: one traced training step of two towers, from the benchmark's
# own model.
"$MINITF_BUILD/benchmarks/towers/towers_bench" --timeline "$generated/tower_step.svg" >/dev/null
for f in "$generated"/dot/*.dot; do
  dot -Tsvg "$f" -o "$generated/$(basename "${f%.dot}").svg" || fail "dot could not render $f"
done
rm -rf "$generated/dot"
# Chapter 3's loss curve: the MLP trains (about 10 s) writing an event file,
# and plot_loss draws its "loss" scalar as TensorBoard would.
echo "build_docs: training the MLP for the loss curve"
"$programs/03-variables-and-autodiff/mlp" "$generated/mlp_logs" >/dev/null ||
  fail "mlp failed (is the Fashion-MNIST data installed? run scripts/setup.sh)"
"$programs/03-variables-and-autodiff/plot_loss" "$generated/mlp_logs" "$generated/mlp_loss.svg" >/dev/null
rm -rf "$generated/mlp_logs"
# Chapter 7: seed 003's cluster, run by scripts/cluster.sh with its RPCs
# traced (one step's calls as a sequence diagram) and the staleness of every
# asynchronous update counted, with two workers and with four (about 15 s).
echo "build_docs: running seed 003's cluster for chapter 7's pictures"
scripts/cluster_figures.sh "$programs/07-ps-worker-distribution" "$generated" >/dev/null ||
  fail "seed 003's cluster failed (run scripts/cluster_figures.sh to see its logs)"

echo "build_docs: API reference (doxygen docs/Doxyfile -> docs/api/)"
rm -rf docs/api
doxygen docs/Doxyfile || fail "doxygen reported a documentation error (see above)"
[[ -f docs/api/index.html ]] || fail "doxygen wrote no docs/api/index.html"

# run_mkdocs <args...>: Debian's mkdocs, less one warning. jinja2 3.1.2
# decodes Material 8.2.5's templates with "unicode-escape", and Python 3.11
# reports their "\s" as a DeprecationWarning from module jinja2.lexer, which
# mkdocs prints as an INFO line with a traceback. It concerns Debian's jinja2
# and theme, not this site, and nothing here can change it. A PYTHONWARNINGS
# filter does not reach it: mkdocs puts its own DeprecationWarning filter in
# front of every other when a command starts (_enable_warnings in
# mkdocs/__main__.py), so this filter, for that category and that module
# only, goes in front of mkdocs's, right after it. Every other warning still
# shows, and --strict still fails on mkdocs's own warnings.
run_mkdocs() {
  /usr/bin/python3 -c '
import sys, warnings
import mkdocs.__main__ as cli
enable = cli._enable_warnings
def enable_but_jinja2_escapes():
    enable()
    warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"jinja2\.lexer")
cli._enable_warnings = enable_but_jinja2_escapes
sys.exit(cli.cli(prog_name="mkdocs"))
' "$@"
}

echo "build_docs: site (mkdocs build --strict -> site/)"
run_mkdocs build --strict --clean --site-dir site ||
  fail "mkdocs reported an error or a warning (see above)"
[[ -f site/index.html && -f site/api/index.html ]] || fail "site/ is incomplete"

cat <<DONE
build_docs: done. Open the site:
  file://$PWD/site/index.html        (search needs a server:)
  python3 -m http.server -d site 8000    then http://localhost:8000/
DONE
