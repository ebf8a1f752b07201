#!/usr/bin/env bash
# Chapter 7's figures of seed 003's cluster: the sequence diagrams of one
# step's RPCs, asynchronous and synchronous, and the staleness histograms.
# Runs scripts/cluster.sh three times, with seed 003's two workers
# (MINITF_RPC_TRACE set, --staleness_dir), with four (--staleness_dir), and
# with two training synchronously (--sync_replicas=true, traced; 100 steps
# unless the extra flags say otherwise), then the drawing programs on what
# the processes wrote:
#   <out dir>/rpc_step.svg, <out dir>/staleness.svg, <out dir>/rpc_sync_step.svg
# and prints the workers' logs and the drawing programs' tables.
#
#   scripts/cluster_figures.sh <programs dir> <out dir> [extra worker flags...]
#
# <programs dir> is the build's programs/07-ps-worker-distribution. The extra
# flags go to every worker (--train_steps=60 for a short run).
set -euo pipefail
programs=${1:?usage: cluster_figures.sh <programs dir> <out dir> [flags...]}
out=${2:?usage: cluster_figures.sh <programs dir> <out dir> [flags...]}
shift 2
here="$(cd "$(dirname "$0")" && pwd)"
work="$out/cluster_run"
rm -rf "$work"
mkdir -p "$work/staleness_2" "$work/staleness_4"
MINITF_RPC_TRACE="$work/rpcs.tsv" bash "$here/cluster.sh" \
  "$programs/seed_distributed" "$work/logs_2" \
  --staleness_dir="$work/staleness_2" "$@"
bash "$here/cluster.sh" --workers=4 "$programs/seed_distributed" \
  "$work/logs_4" --staleness_dir="$work/staleness_4" "$@"
MINITF_RPC_TRACE="$work/rpcs_sync.tsv" bash "$here/cluster.sh" \
  "$programs/seed_distributed" "$work/logs_sync" --train_steps=100 "$@" \
  --sync_replicas=true
"$programs/draw_staleness" "$out/staleness.svg" "$work/staleness_2" \
  "$work/staleness_4"
"$programs/draw_rpc_step" "$work/rpcs.tsv" "$out/rpc_step.svg"
# The non-chief worker's step: it lasts until the chief's update releases it.
"$programs/draw_rpc_step" "$work/rpcs_sync.tsv" "$out/rpc_sync_step.svg" \
  /job:worker/replica:0/task:1 sync
rm -rf "$work"
