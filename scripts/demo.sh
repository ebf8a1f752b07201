#!/usr/bin/env bash
# README command 1: install what is missing, build the course, run every
# finished chapter's programs under a heading per chapter (each one's first
# and last lines; the whole output in build/all/demo-logs/), build the site.
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$MINITF_ROOT"

scripts/setup.sh

echo "Building minitf (all chapters) in build/all ..."
configure_and_build . "$MINITF_BUILD"

# Each program's whole output goes to build/all/demo-logs/<program>.log;
# the screen shows its first and last lines.
scripts/run_programs.sh "$MINITF_BUILD"

echo
echo "Building the course site ..."
scripts/build_docs.sh
