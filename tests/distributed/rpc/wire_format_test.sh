#!/usr/bin/env bash
# CTest's entry to wire_format.py: runs it under the peers' python, or exits
# 77, CTest's skip, saying why when TensorFlow is not installed there.
#   wire_format_test.sh <path of distributed_wire_helper>
source "$(dirname "$0")/../../../scripts/common.sh"
if ! peer_has tensorflow; then
  echo "SKIP: TensorFlow, whose message classes the wire format is checked" \
    "against, is not installed in $MINITF_PEERS_DIR (scripts/peers.sh" \
    "installs it; MINITF_PEERS_DIR names another place)"
  exit 77
fi
exec "$MINITF_PEERS_PYTHON" "$(dirname "$0")/wire_format.py" "$@"
