#!/usr/bin/env bash
# README command 1: the course chapter by chapter. Chapter 1 first, on its
# own: the packages it needs, its build (build/01-tensors), its programs and
# the exercise runner's list, while the later chapters' packages download in
# the background. Then those packages are installed and every later chapter
# is built and run in turn (build/all, target chapter_NN), so its programs'
# output is there to read while the next chapter builds; seed 003's cluster
# runs after chapter 7's programs. Last, the course site.
#
# Each program's whole output goes to build/all/demo-logs/<program>.log, the
# screen shows its first and last lines (scripts/run_programs.sh). Each build
# shows one progress line, "building chapter 3: 120/310"; the compiler's
# output is in <build>/build-logs/, and apt's in build/setup-*.log.
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$MINITF_ROOT"

export MINITF_DEMO_LOGS="$MINITF_BUILD/demo-logs"
chapter_one="$MINITF_ROOT/build/01-tensors"

scripts/setup.sh first

# The later chapters' packages download while chapter 1 builds (apt's
# download takes little of the processor the compiler needs); they are
# installed once chapter 1 has run.
mkdir -p build
scripts/setup.sh later --download-only >build/setup-later-download.out 2>&1 &
download=$!
trap 'kill "$download" 2>/dev/null || true' EXIT

echo
echo "Chapter 1 builds on its own, in build/01-tensors ..."
configure chapters/01-tensors "$chapter_one"
# Its programs first; its exercises build while the later packages install.
build_with_progress "$chapter_one" "chapter 1" chapter_01_programs
scripts/run_programs.sh "$chapter_one" 1

echo
echo "================================================================"
echo " The exercises (python3 tools/learn.py)"
echo "================================================================"
python3 tools/learn.py list

echo
# A failed download is not final: the install below fetches what is missing
# and, if that fails too, shows apt's messages.
wait "$download" || true
# The later chapters' packages install (mostly the disk's work) while chapter
# 1's exercises build (the processor's).
echo "The later chapters' packages install in the background while chapter 1's exercises build ..."
scripts/setup.sh later >build/setup-later.out 2>&1 &
install=$!
# If the demo stops here, it lets dpkg finish rather than leave it half done.
trap 'wait "$install" 2>/dev/null || true' EXIT
build_with_progress "$chapter_one" "the exercises of chapter 1" chapter_01
status=0
wait "$install" || status=$?
trap - EXIT
cat build/setup-later.out
if ((status != 0)); then exit "$status"; fi

echo
echo "Chapters 2 to 7 build in build/all, one after another ..."
configure . "$MINITF_BUILD"
for n in 2 3 4 5 6 7; do
  build_with_progress "$MINITF_BUILD" "chapter $n" "$(printf 'chapter_%02d' "$n")"
  scripts/run_programs.sh "$MINITF_BUILD" "$n"
done

echo
echo "Building the course site ..."
# Chapter 6's picture of a traced training step comes from its benchmark.
build_with_progress "$MINITF_BUILD" "the site's pictures" towers_bench
scripts/build_docs.sh
