#!/usr/bin/env bash
# CTest's entry to the checkpoint oracle (checkpoint_oracle.py): runs it under
# the peers' python, or exits 77, CTest's skip, saying why when TensorFlow is
# not installed there (scripts/peers.sh installs it).
#   checkpoint_oracle.sh <seed_single_machine> <checkpoint_oracle_helper>
source "$(dirname "$0")/../../scripts/common.sh"
if ! peer_has tensorflow; then
  echo "SKIP: TensorFlow, the oracle, is not installed in $MINITF_PEERS_DIR" \
    "(scripts/peers.sh installs it; MINITF_PEERS_DIR names another place)"
  exit 77
fi
exec "$MINITF_PEERS_PYTHON" "$MINITF_ROOT/tests/oracle/checkpoint_oracle.py" "$@"
