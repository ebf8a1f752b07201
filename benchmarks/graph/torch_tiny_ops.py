"""PyTorch's per-op cost on the chain graph_bench.cc times: 1,000 in-place
adds on 1-element CPU tensors (a.add_(b) in a loop), best of many runs, one
thread. Prints, last, one machine-readable line:
  torch_tiny_op_us <us per op>
Usage: <peers' python> torch_tiny_ops.py [--quick]   (scripts/peers.sh)"""
import sys
import time

import torch

CHAIN = 1000
REPS = 20 if "--quick" in sys.argv else 200

torch.set_num_threads(1)
a = torch.zeros(1)
b = torch.ones(1)
best = float("inf")
for _ in range(REPS):
    start = time.perf_counter()
    for _ in range(CHAIN):
        a.add_(b)
    best = min(best, time.perf_counter() - start)
print(f"PyTorch {torch.__version__}, 1 thread: a.add_(b) on 1-element tensors")
print(f"torch_tiny_op_us {best * 1e6 / CHAIN:.4f}")
