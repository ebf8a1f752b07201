#!/usr/bin/env bash
# Starts seed 003's cluster on this machine: one ps and two workers, each a
# process of its own on a loopback port, each logging to <log dir>/<job>_<i>.log.
# Waits for the workers, stops the ps, prints every log, and exits with the
# first worker's failure, if any.
#
#   scripts/cluster.sh [--workers=N] <seed_distributed binary> [<log dir>] [extra flags...]
#
# The program may also be TensorFlow's twin of it,
# tests/oracle/twins/seed_distributed.py (a .py file runs under the peers'
# python, which scripts/peers.sh installs): the same cluster in TensorFlow.
#
# --workers sets the number of workers (2 by default). The extra flags go to
# every worker (--train_steps=200, --learning_rate=0.5). The environment
# reaches every process: MINITF_RPC_TRACE=<file> traces their RPCs.
set -u
workers=2
if [[ "${1:-}" == --workers=* ]]; then
  workers=${1#--workers=}
  shift
fi
if ! [[ "$workers" =~ ^[1-9][0-9]*$ ]]; then
  echo "cluster.sh: --workers wants a positive number, got '$workers'" >&2
  exit 2
fi
program=${1:?usage: cluster.sh [--workers=N] <seed_distributed binary> [<log dir>] [flags...]}
logs=${2:-$(mktemp -d /tmp/minitf-cluster.XXXXXX)}
shift $(( $# >= 2 ? 2 : 1 ))
mkdir -p "$logs"
run=("$program")
if [[ "$program" == *.py ]]; then
  source "$(dirname "$0")/common.sh"
  if ! peer_has tensorflow; then
    echo "cluster.sh: $program needs TensorFlow in $MINITF_PEERS_DIR (scripts/peers.sh installs it)" >&2
    exit 2
  fi
  run=("$MINITF_PEERS_PYTHON" "$program")
  export PYTHONUNBUFFERED=1  # a log keeps what was printed before a failure
fi
rm -f "$logs"/worker_*.log  # of an earlier run with more workers

# Loopback ports nobody listens on now (the servers bind them at once), no
# two alike, below the system's range of ephemeral ports (32768 and up),
# which it hands out by itself to other programs' connections.
taken=" "
free_port() {
  while :; do
    local p=$(( 20000 + RANDOM % 12000 ))
    [[ "$taken" == *" $p "* ]] && continue
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      taken+="$p "
      port=$p
      return
    fi
  done
}
free_port
ps_hosts="localhost:$port"
free_port
worker_hosts="localhost:$port"
for ((i = 1; i < workers; ++i)); do
  free_port
  worker_hosts+=",localhost:$port"
done
common=(--ps_hosts="$ps_hosts" --worker_hosts="$worker_hosts")

"${run[@]}" "${common[@]}" --job_name=ps --task_index=0 >"$logs/ps_0.log" 2>&1 &
ps_pid=$!
pids=()
for ((i = 0; i < workers; ++i)); do
  "${run[@]}" "${common[@]}" --job_name=worker --task_index=$i "$@" \
    >"$logs/worker_$i.log" 2>&1 &
  pids+=($!)
done
# A worker that fails (a port another program took in the meantime, say)
# would leave the others waiting for it for ever, as TensorFlow's do: the
# first failure stops them all.
status=0
running=("${pids[@]}")
while ((${#running[@]} > 0)); do
  wait -n -p finished "${running[@]}"
  rc=$?
  still=()
  for pid in "${running[@]}"; do
    [[ "$pid" != "$finished" ]] && still+=("$pid")
  done
  running=("${still[@]}")
  if [ $rc -ne 0 ] && [ $status -eq 0 ]; then
    status=$rc
    echo "cluster.sh: a worker failed (exit status $rc); stopping the others" >&2
    kill "${running[@]}" 2>/dev/null
  fi
done
kill "$ps_pid" 2>/dev/null
wait "$ps_pid" 2>/dev/null
for f in "$logs"/ps_0.log "$logs"/worker_*.log; do
  echo "== $f"
  cat "$f"
done
exit $status
