#!/usr/bin/env bash
# Fault tests with real processes (chapter 7 §6): one ps and two workers of
# fault_trainer (chapter 7's programs), asynchronous training to a last step,
# the chief (worker 0) checkpointing every 50 steps. One fault per scenario:
#
#   worker_killed   worker 1 is killed mid-training: the chief goes on alone;
#   ps_restarted    the ps is killed and restarted 1 s later: both workers
#                   see the error, make a new session, the chief restores
#                   the last checkpoint and global_step resumes from it;
#   chief_restarted the chief is killed and restarted 1 s later: it resumes
#                   from its checkpoint while worker 1 goes on;
#   partition       worker 1, in a network namespace joined to the others by
#                   a veth pair, is cut off for 3 s and then joined again
#                   (skipped, saying why, where namespaces are not allowed).
#
# Two more train synchronously (SyncReplicasOptimizer):
#
#   sync_backup_worker_killed    three workers, 2 gradients of 3 per update:
#                   worker 2 is killed; the third is a backup, so the
#                   updates go on with the other two to the last step;
#   sync_worker_killed_times_out two workers, 2 of 2: worker 1 is killed;
#                   the chief's step waits for its gradient (as TensorFlow
#                   waits, for ever) until operation_timeout_in_ms (3 s)
#                   ends it with DeadlineExceeded, and the chief exits.
#
# Each scenario prints what happened and how long the recovery took, ends
# its processes itself, and fails when a check fails. Every process is
# killed on exit; every wait has a deadline, so a scenario ends within a
# minute.
#
#   fault_test.sh build/all/chapters/.../fault_trainer ps_restarted
#
# KEEP_WORK=1 keeps the logs' folder (/tmp/minitf_fault.*) for reading.
set -u
trainer=$1
scenario=$2
work=$(mktemp -d /tmp/minitf_fault.XXXXXX)
pids=()
netns=""
LAST=600

cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  wait 2>/dev/null
  if [ -n "$netns" ]; then
    ip link del "mts_a$$" 2>/dev/null
    ip netns del "$netns" 2>/dev/null
  fi
  [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "FAIL ($scenario): $*"
  for f in "$work"/*.log; do echo "--- $f"; tail -n 15 "$f"; done
  exit 1
}

now_ms() { date +%s%3N; }
# A free loopback port below the system's ephemeral range (32768 and up),
# where no other test's port-0 server or connection can take it before the
# task starts (tests/distributed/distributed_testing.h says more).
free_port() {
  python3 -c '
import random, socket
while True:
    p = random.randrange(20000, 32000)
    s = socket.socket()
    try:
        s.bind(("localhost", p))
        break
    except OSError:
        pass
    finally:
        s.close()
print(p)'
}

host_ps=localhost host_w0=localhost host_w1=localhost bind=localhost
ports=("$(free_port)" "$(free_port)" "$(free_port)" "$(free_port)")
workers=2    # how many workers the cluster has (worker 2 runs on localhost)
trainer_flags=()

# start JOB INDEX LOG [PREFIX...]: starts a task, its pid in $started.
start() {
  local job=$1 index=$2 log=$3
  shift 3
  local worker_hosts="$host_w0:${ports[1]},$host_w1:${ports[2]}"
  [ "$workers" -lt 3 ] || worker_hosts+=",localhost:${ports[3]}"
  "$@" "$trainer" --job_name="$job" --task_index="$index" \
    --ps_hosts="$host_ps:${ports[0]}" --worker_hosts="$worker_hosts" \
    --bind_host="$bind" --checkpoint_dir="$work/ckpt" --last_step=$LAST \
    --save_checkpoint_steps=50 --step_sleep_ms=20 "${trainer_flags[@]}" \
    >"$work/$log" 2>&1 &
  started=$!
  pids+=("$started")
}

# The global_step of a log's last step line (0 before the first).
last_step() {
  local s
  s=$(grep -o 'step: global_step=[0-9]*' "$work/$1" | tail -n 1 | cut -d= -f2)
  echo "${s:-0}"
}

# wait_step LOG N SECONDS: until the log's task has seen global_step >= N.
wait_step() {
  local deadline=$(($(date +%s) + $3))
  while [ "$(last_step "$1")" -lt "$2" ]; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "$1 did not reach step $2"
    sleep 0.05
  done
}

# wait_exit PID SECONDS: the process's exit status, or failure at the
# deadline.
wait_exit() {
  local deadline=$(($(date +%s) + $2))
  while kill -0 "$1" 2>/dev/null; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "process $1 still running"
    sleep 0.1
  done
  wait "$1"
}

# check_done LOG: the task finished, and count - global_step is what the
# restored checkpoint held ($skew, 0 without a restore): every step since
# added one to both (in synchronous training count counts the workers'
# steps, not the updates: only global_step is checked). Where a restore ran
# while another worker trained ($skew_slack 1, chief_restarted), one of that
# worker's steps may fall between the restore's two assignments and move
# the difference by one; no more. So may a killed worker's last step
# (worker_killed): the ps cancels a RunGraph whose caller has gone, and a
# step cancelled after global_step's update and before count's keeps the
# first, as any cancelled step keeps the updates it has made.
skew=0
skew_slack=0
check_done() {
  local line g c off
  line=$(grep '^done:' "$work/$1") || fail "$1 did not finish"
  g=$(echo "$line" | sed 's/.*global_step=\([0-9]*\).*/\1/')
  c=$(echo "$line" | sed 's/.*count=\([0-9]*\).*/\1/')
  [ "$g" -ge "$LAST" ] || fail "$1 ended at global_step $g < $LAST"
  if [[ "$line" != *"count(worker steps)"* ]]; then
    off=$((c - g - skew))
    [ "${off#-}" -le "$skew_slack" ] ||
      fail "$1: global_step $g but count $c (the checkpoint's difference:" \
        "$skew): a step lost or counted twice"
  fi
  echo "  $1: $line"
}

# first_step_after LOG T_MS: "<step> <t_ms>" of the log's first step line
# at or after T_MS.
first_step_after() {
  awk -v t="$2" -F'[= ]' '/^step:/ && $5 >= t {print $3, $5; exit}' "$work/$1"
}

# The t_ms of the LOG's Nth "session ready" line, and its global_step.
ready_line() {
  grep '^session ready:' "$work/$1" | sed -n "${2}p"
}

# kill_worker PID: once the chief has passed step 150, kills a task; sets
# killed_at and t_kill.
kill_worker() {
  wait_step w0.log 150 30
  killed_at=$(last_step w0.log)
  t_kill=$(now_ms)
  kill -9 "$1"
  wait "$1" 2>/dev/null
}

# kill_and_restart PID JOB INDEX LOG: once the chief has passed step 150,
# kills the task and starts it again 1 s later, logging to LOG; sets
# killed_at, t_kill, t_up and started.
kill_and_restart() {
  kill_worker "$1"
  sleep 1
  start "$2" "$3" "$4"
  t_up=$(now_ms)
}

# restored LOG N: the checkpoint the chief of LOG restored (ckpt, the step
# in its name) and the global step and count it holds (ckpt_g, skew), the
# step its Nth session read (resumed) and when (t_ready), and its first step
# after that (s at t). The checkpoint may hold a later step than its name:
# the hook reads global_step for the name, then the save reads the
# variables, and worker 1 may step in between (TensorFlow's hook does the
# same). Worker 1 may also step between the restore and the chief's read
# (in ps_restarted once it sees the model ready; in chief_restarted it never
# stopped), so the step read may be past the checkpoint's by worker 1's
# steps, never below it.
restored() {
  local ready w1_steps path held
  path=$(grep -o 'Restoring parameters from .*model.ckpt-[0-9]*' "$work/$1" |
    tail -n 1 | sed 's/^Restoring parameters from //')
  [ -n "$path" ] || fail "$1: no checkpoint restored"
  ckpt=${path##*-}
  held=$("$trainer" --inspect_checkpoint="$path" 2>&1 | grep '^checkpoint:') ||
    fail "could not read checkpoint $path"
  ckpt_g=$(echo "$held" | sed 's/.*global_step=\([0-9]*\).*/\1/')
  skew=$(($(echo "$held" | sed 's/.*count=\([0-9]*\).*/\1/') - ckpt_g))
  ready=$(ready_line "$1" "$2")
  resumed=$(echo "$ready" | sed 's/.*global_step=\([0-9]*\).*/\1/')
  t_ready=$(echo "$ready" | sed 's/.*t_ms=//')
  w1_steps=$(awk -v a="$t_up" -v b="$((t_ready + 100))" -F'[= ]' \
    '/^step:/ && $5 >= a && $5 < b {n++} END {print n + 0}' "$work/w1.log")
  [ "$resumed" -ge "$ckpt_g" ] &&
    [ "$resumed" -le $((ckpt_g + w1_steps)) ] ||
    fail "resumed at $resumed: checkpoint $ckpt holding global_step" \
      "$ckpt_g, $w1_steps steps of worker 1"
  read -r s t < <(first_step_after "$1" "$t_ready")
}

start_cluster() {
  start ps 0 ps.log "$@"
  ps_pid=$started
  start worker 0 w0.log "$@"
  w0_pid=$started
  start worker 1 w1.log "${w1_prefix[@]}"
  w1_pid=$started
  if [ "$workers" -ge 3 ]; then
    start worker 2 w2.log
    w2_pid=$started
  fi
}

w1_prefix=()
case "$scenario" in
worker_killed)
  start_cluster
  kill_worker "$w1_pid"
  wait_exit "$w0_pid" 45 || fail "the chief exited with $?"
  skew_slack=1
  check_done w0.log
  read -r s t < <(first_step_after w0.log "$t_kill")
  grep -q '^done:.*recoveries=0' "$work/w0.log" ||
    fail "the chief made a new session"
  echo "worker_killed: worker 1 killed at global_step ~$killed_at; the chief's" \
    "next step ($s) came $((t - t_kill)) ms later in the same session; it" \
    "trained on alone to $LAST"
  ;;
ps_restarted)
  start_cluster
  kill_and_restart "$ps_pid" ps 0 ps2.log
  wait_exit "$w0_pid" 50 || fail "the chief exited with $?"
  wait_exit "$w1_pid" 10 || fail "worker 1 exited with $?"
  grep -q 'An error was raised' "$work/w0.log" || fail "the chief saw no error"
  grep -q 'An error was raised' "$work/w1.log" || fail "worker 1 saw no error"
  restored w0.log 2
  check_done w0.log
  check_done w1.log
  grep -o 'Error: .*' "$work/w0.log" | head -n 1 | sed 's/^/  chief: /'
  grep -o 'Error: .*' "$work/w1.log" | head -n 1 | sed 's/^/  worker 1: /'
  waits=$(awk '/An error was raised/ {f = 1} f && /Waiting for model/ {n++}
    END {print n + 0}' "$work/w1.log")
  echo "ps_restarted: ps killed at global_step ~$killed_at, restarted" \
    "$((t_up - t_kill)) ms later; last checkpoint $ckpt (holding global_step $ckpt_g); the chief's new" \
    "session read $resumed (worker 1 logged 'Waiting for model to be" \
    "ready' $waits times meanwhile); its first step after the restore ($s) came" \
    "$((t - t_kill)) ms after the kill ($((t - t_up)) ms after the ps was up" \
    "again)"
  ;;
chief_restarted)
  start_cluster
  kill_and_restart "$w0_pid" worker 0 w0b.log
  w0_pid=$started
  wait_exit "$w0_pid" 50 || fail "the restarted chief exited with $?"
  wait_exit "$w1_pid" 20 || fail "worker 1 exited with $?"
  restored w0b.log 1
  skew_slack=1
  w1_steps=$(awk -v a="$t_kill" -v b="$t_ready" -F'[= ]' \
    '/^step:/ && $5 >= a && $5 < b {n++} END {print n + 0}' "$work/w1.log")
  read -r w1_last _ < <(first_step_after w1.log "$t_ready")
  check_done w0b.log
  check_done w1.log
  echo "chief_restarted: chief killed at global_step ~$killed_at; worker 1" \
    "made $w1_steps steps while it was gone (its next step after the restore: ~$w1_last);" \
    "the new chief restored checkpoint $ckpt, rolling back the" \
    "steps since, read $resumed in its new session, and its first step ($s)" \
    "came $((t - t_kill)) ms after the kill"
  ;;
partition)
  if [ "$(id -u)" != 0 ] || ! ip netns add "mts$$" 2>/dev/null; then
    echo "SKIP: network namespaces are not allowed here (needs root and" \
      "'ip netns add')"
    exit 77
  fi
  netns="mts$$"
  ip link add "mts_a$$" type veth peer name "mts_b$$" || fail "no veth pair"
  ip link set "mts_b$$" netns "$netns"
  ip addr add 10.231.0.1/24 dev "mts_a$$"
  ip link set "mts_a$$" up
  ip netns exec "$netns" ip addr add 10.231.0.2/24 dev "mts_b$$"
  ip netns exec "$netns" ip link set "mts_b$$" up
  ip netns exec "$netns" ip link set lo up
  host_ps=10.231.0.1 host_w0=10.231.0.1 host_w1=10.231.0.2 bind=0.0.0.0
  w1_prefix=(ip netns exec "$netns")
  start_cluster
  wait_step w1.log 150 30
  cut_at=$(last_step w1.log)
  t_cut=$(now_ms)
  ip link set "mts_a$$" down
  sleep 3
  ip link set "mts_a$$" up
  t_heal=$(now_ms)
  wait_exit "$w1_pid" 50 || fail "worker 1 exited with $?"
  wait_exit "$w0_pid" 20 || fail "the chief exited with $?"
  read -r s t < <(first_step_after w1.log "$t_heal")
  check_done w1.log
  check_done w0.log
  echo "partition: worker 1 cut off from the ps at its global_step ~$cut_at" \
    "for $((t_heal - t_cut)) ms; its first step after the heal ($s) came" \
    "$((t - t_heal)) ms after it ($((t - t_cut)) ms after the cut)"
  ;;
sync_backup_worker_killed)
  workers=3
  trainer_flags=(--sync_replicas=true --replicas_to_aggregate=2
    --total_num_replicas=3)
  start_cluster
  kill_worker "$w2_pid"
  wait_exit "$w0_pid" 45 || fail "the chief exited with $?"
  check_done w0.log
  grep -q '^done:.*recoveries=0' "$work/w0.log" ||
    fail "the chief made a new session"
  read -r s t < <(first_step_after w0.log "$t_kill")
  gap=$(awk -v a="$t_kill" -F'[= ]' '/^step:/ && $5 >= a {
    if (p && $5 - p > m) m = $5 - p; p = $5} END {print m + 0}' "$work/w0.log")
  echo "sync_backup_worker_killed: worker 2 of 3 killed at global_step" \
    "~$killed_at; the chief's next step ($s) came $((t - t_kill)) ms later," \
    "its longest step after the kill took $gap ms; updates of 2 gradients" \
    "from workers 0 and 1 went on to global_step $LAST"
  ;;
sync_worker_killed_times_out)
  timeout_ms=3000
  trainer_flags=(--sync_replicas=true --replicas_to_aggregate=2
    --total_num_replicas=2 --operation_timeout_in_ms=$timeout_ms)
  start_cluster
  kill_worker "$w1_pid"
  wait_exit "$w0_pid" 30
  rc=$?
  t_exit=$(now_ms)
  [ "$rc" = 1 ] || fail "the chief exited with $rc, not 1 (an error)"
  line=$(grep '^error:' "$work/w0.log") || fail "the chief printed no error"
  # Two of the chief's steps wait, each under the same timeout: its queue
  # runner's on the accumulator (take_grad), and its training step on the
  # token queue the runner fills. Whichever began first times out first:
  # usually the runner's, whose error closes the queue and ends the loop;
  # else the training step's, and the runner's follows when the session
  # closes. Either way the log names the accumulator. The training step's
  # wait is named by whichever side's deadline passes first: the ps's
  # partition, waiting in the dequeue, or the chief's own, waiting for the
  # token's tensor from the ps (sync_token_q_Dequeue:0 from /job:ps/...).
  echo "$line" | grep -Eq '^error: Deadline exceeded: .*did not finish within operation_timeout_in_ms \(3000 ms\); still waiting for: .*(take_grad on |dequeue on sync_token_q|sync_token_q_Dequeue:0 from /job:ps)' ||
    fail "not the timeout's error, naming what the step waited on: $line"
  grep -q 'still waiting for: .*take_grad on ' "$work/w0.log" ||
    fail "no error of the chief names the accumulator the updates waited on"
  t_err=$(echo "$line" | sed 's/.*t_ms=//')
  t_last=$(awk -F'[= ]' '/^step:/ {t = $5} END {print t}' "$work/w0.log")
  waited=$((t_err - t_last))
  [ "$waited" -ge $((timeout_ms - 200)) ] && [ "$waited" -le $((timeout_ms * 3)) ] ||
    fail "the step failed $waited ms after the last one, timeout $timeout_ms ms"
  echo "  w0.log: $line"
  echo "sync_worker_killed_times_out: worker 1 of 2 killed at global_step" \
    "~$killed_at; the chief's step waited $waited ms after its last step" \
    "(operation_timeout_in_ms=$timeout_ms), failed with DeadlineExceeded" \
    "$((t_err - t_kill)) ms after the kill, and the chief exited by itself" \
    "$((t_exit - t_kill)) ms after the kill"
  ;;
*)
  echo "unknown scenario $scenario"
  exit 2
  ;;
esac
echo "PASS ($scenario)"
