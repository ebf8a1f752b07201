"""PyTorch's per-op cost on the chain graph_bench.cc times: 1,000 in-place
adds on 1-element CPU tensors (a.add_(b) in a loop), one thread. Each of
--runs runs (default 5; 1 with --quick) takes the best of many repetitions
and prints one machine-readable line, which compare.sh hands to graph_bench:
  peer_us|<label>|<us per op>
Usage: <peers' python> torch_tiny_ops.py [--quick] [--runs N]
(scripts/peers.sh)"""
import torch

from tiny_chain import CHAIN, best_seconds, parse_args

reps, runs = parse_args()
torch.set_num_threads(1)
a = torch.zeros(1)
b = torch.ones(1)


def chain():
    for _ in range(CHAIN):
        a.add_(b)


print(f"PyTorch {torch.__version__}, 1 thread: a.add_(b) on 1-element tensors")
for _ in range(runs):
    best = best_seconds(reps, chain)
    print(f"peer_us|PyTorch {torch.__version__}, `a.add_(b)`, eager|"
          f"{best * 1e6 / CHAIN:.4f}")
