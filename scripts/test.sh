#!/usr/bin/env bash
# README command 2: the whole test suite. Installs what is missing, builds
# every chapter, and runs every test (unit tests of each layer, the exercises
# against their reference solutions, the docs hook and the exercise runner).
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$MINITF_ROOT"

scripts/setup.sh

configure_and_build . "$MINITF_BUILD"
ctest --test-dir "$MINITF_BUILD" -j "$MINITF_JOBS" --output-on-failure
