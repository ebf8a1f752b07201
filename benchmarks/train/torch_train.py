"""PyTorch's side of chapter 3's training benchmark (train_bench.cc): the
same two models, losses, initial values, optimizer settings, batch size,
random data and timing, so that the ratio of the two is the engines' alone.

  softmax regression: y = softmax(x W + b), loss = mean(-sum(y_ * log(y), 1)),
                      W and b zero, SGD at 0.1;
  MLP 784-256-10:     relu(x W1 + b1) W2 + b2, cross-entropy on the logits
                      with the one-hot labels as probabilities (PyTorch's
                      fused log-softmax loss), weights truncated normal
                      (stddev 0.05, cut at two), biases zero, Adam at 0.001
                      with TensorFlow's beta1, beta2 and epsilon.

Each timed window starts from freshly initialised parameters. Prints, last,
machine-readable lines that compare.sh hands to train_bench --peers, which
puts them in its table:
  peer torch <name>
  peer_setup torch <how it ran>
  examples_per_s torch <model> <threads> <examples/s of each window...>
Usage: <peers' python> torch_train.py [--quick] [--threads N]   (scripts/peers.sh)
"""
import argparse
import time
from statistics import median

import torch
import torch.nn.functional as F

BATCH, PIXELS, CLASSES, HIDDEN = 100, 784, 10, 256


def random_batches(count):
    gen = torch.Generator().manual_seed(1)
    xs = [torch.rand(BATCH, PIXELS, generator=gen) for _ in range(count)]
    ys = [
        F.one_hot(torch.randint(0, CLASSES, (BATCH,), generator=gen),
                  CLASSES).float() for _ in range(count)
    ]
    return xs, ys


def softmax_regression():
    w = torch.zeros(PIXELS, CLASSES, requires_grad=True)
    b = torch.zeros(CLASSES, requires_grad=True)

    def loss_fn(x, y_):
        y = torch.softmax(x @ w + b, dim=1)
        return (-(y_ * torch.log(y)).sum(dim=1)).mean()

    def init():
        with torch.no_grad():
            w.zero_()
            b.zero_()

    return loss_fn, torch.optim.SGD([w, b], lr=0.1), init


def mlp():
    w1 = torch.empty(PIXELS, HIDDEN, requires_grad=True)
    b1 = torch.empty(HIDDEN, requires_grad=True)
    w2 = torch.empty(HIDDEN, CLASSES, requires_grad=True)
    b2 = torch.empty(CLASSES, requires_grad=True)
    params = [w1, b1, w2, b2]

    def loss_fn(x, y_):
        hidden = torch.relu(x @ w1 + b1)
        logits = hidden @ w2 + b2
        return F.cross_entropy(logits, y_)

    # TensorFlow's Adam defaults (beta1 0.9, beta2 0.999, epsilon 1e-8) are
    # PyTorch's too; a fresh optimizer per window also resets Adam's moments.
    def make_optimizer():
        return torch.optim.Adam(params, lr=0.001, betas=(0.9, 0.999), eps=1e-8)

    def init():
        torch.manual_seed(1)
        with torch.no_grad():
            for w in (w1, w2):
                torch.nn.init.trunc_normal_(w, 0.0, 0.05, -0.1, 0.1)
            b1.zero_()
            b2.zero_()

    init()
    return loss_fn, make_optimizer, init


def examples_per_second(loss_fn, optimizer_for_window, init, data, windows,
                        steps):
    xs, ys = data
    pool = len(xs)
    state = {"next": 0, "opt": optimizer_for_window()}

    def step():
        i = state["next"]
        opt = state["opt"]
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(xs[i], ys[i])
        loss.backward()
        opt.step()
        state["next"] = (i + 1) % pool

    init()
    for _ in range(20):  # Warms the caches and the allocator.
        step()
    rates = []
    for _ in range(windows):
        init()
        state["opt"] = optimizer_for_window()
        start = time.perf_counter()
        for _ in range(steps):
            step()
        rates.append(steps * BATCH / (time.perf_counter() - start))
    with torch.no_grad():
        last_loss = loss_fn(xs[0], ys[0]).item()
    return rates, last_loss


def blas():
    """The BLAS PyTorch was built with, from its build settings (the PyPI
    wheels carry their own)."""
    settings = torch.__config__.show()
    if "BLAS_INFO=" not in settings:
        return "not shown"
    return settings.split("BLAS_INFO=")[1].split(",")[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(1)
    data = random_batches(10 if args.quick else 60)
    windows = 2 if args.quick else 7

    print(f"PyTorch {torch.__version__}, {torch.get_num_threads()} thread(s),"
          f" BLAS: {blas()}")
    loss_fn, opt, init = softmax_regression()
    softmax_rates, loss = examples_per_second(loss_fn, lambda: opt, init,
                                              data, windows,
                                              200 if args.quick else 2000)
    print(f"  softmax regression, SGD 0.1 : {median(softmax_rates):10.0f}"
          f" examples/s  (loss {loss:.3f})")
    loss_fn, make_opt, init = mlp()
    mlp_rates, loss = examples_per_second(loss_fn, make_opt, init, data,
                                          windows, 20 if args.quick else 300)
    print(f"  MLP 784-256-10, Adam 0.001  : {median(mlp_rates):10.0f}"
          f" examples/s  (loss {loss:.3f})")
    print(f"peer torch PyTorch {torch.__version__.split('+')[0]}")
    print("peer_setup torch eager mode with autograd, torch.set_num_threads"
          f" as many as minitf's threads, BLAS: {blas()}, vectorised kernels:"
          f" {torch.backends.cpu.get_cpu_capability()}")
    for model, rates in (("softmax", softmax_rates), ("mlp", mlp_rates)):
        print(f"examples_per_s torch {model} {args.threads} "
              + " ".join(f"{r:.0f}" for r in rates))


if __name__ == "__main__":
    main()
