"""PyTorch reference runs for the benchmarks and comparisons of issue 3 (Debian's python3-torch 1.13 on
OpenBLAS). Same architectures as Tinyformer (tests/fixtures/torch_models.py), same data pipeline as the
course page. Run with /usr/bin/python3; for timings unset OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE.

  torch_reference.py step --threads N            ms per training step: MyTransformer(2002) B64xT32
                   [--cpu-time]                  (diffusion and causal) and the sorter (B128); --cpu-time
                                                 times 1 thread by process CPU time (a loaded machine)
  torch_reference.py write --threads N           32-token story, recomputing the prefix every step
  torch_reference.py cuda                        tokens/s of training steps on the GPU (story model and
                                                 dim 512, 8 layers, 64 x 256), diffusion and causal
  torch_reference.py stories --train A,B --valid C --steps 5000 [--causal] [--seed S]
                                                 trains on stories, prints JSON lines and a final line"""
import argparse
import json
import math
import os
import re
import sys
import time
from collections import Counter

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures"))
from torch_models import MyTransformer, Sorter  # noqa: E402

WORD = re.compile(r"[a-z']+|[.,!?\"]")


def diffusion_loss(net, x0, mask_id):
    B, L = x0.shape
    t = torch.rand(B, 1, device=x0.device).clamp_min(1e-6)
    masked = torch.rand(B, L, device=x0.device) < t
    x_t = torch.where(masked, torch.full_like(x0, mask_id), x0)
    logits = net(x_t)
    # Rows of a contiguous (B*L, V) view: PyTorch's fast path (a (B, V, L) transpose is several times slower).
    nll = F.cross_entropy(logits.reshape(B * L, -1), x0.reshape(-1), reduction="none").view(B, L)
    return ((nll * masked) / t).sum() / B


def next_token_loss(net, x0):
    logits = net(x0[:, :-1])
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), x0[:, 1:].reshape(-1))


CLOCK = time.perf_counter  # time.process_time with step --cpu-time at 1 thread, as step_bench --cpu-time


def time_steps(step, warmup=3, reps=20):
    """Median milliseconds per call (the machine is shared: the median shrugs off spikes)."""
    for _ in range(warmup):
        step()
    ms = []
    for _ in range(reps):
        t = CLOCK()
        step()
        ms.append((CLOCK() - t) * 1000)
    return sorted(ms)[len(ms) // 2]


def cmd_step(args):
    global CLOCK
    if args.cpu_time and args.threads == 1:
        CLOCK = time.process_time
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    out = {"threads": args.threads, "torch": torch.__version__}
    for causal in (False, True):
        net = MyTransformer(2002, causal=causal)
        opt = torch.optim.Adam(net.parameters(), lr=1e-3)
        x0 = torch.randint(0, 2000, (64, 32))

        def step():
            opt.zero_grad()
            loss = next_token_loss(net, x0) if causal else diffusion_loss(net, x0, 2001)
            loss.backward()
            opt.step()
        out["causal_ms" if causal else "diffusion_ms"] = time_steps(step)
    net = Sorter()
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3, weight_decay=0.01)
    src = torch.randint(0, 10, (128, 10))
    tgt = src.sort(dim=1).values
    tgt_in = torch.cat([torch.full((128, 1), 10), tgt[:, :-1]], dim=1)

    def sort_step():
        opt.zero_grad()
        F.cross_entropy(net(src, tgt_in).reshape(-1, 11), tgt.reshape(-1)).backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
    out["sorter_ms"] = time_steps(sort_step)
    print(json.dumps(out))


@torch.no_grad()
def cmd_write(args):
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    net = MyTransformer(2002, causal=True).eval()

    def write():
        x = torch.tensor([5, 6, 7, 8])
        while x.shape[0] < 32:                                   # the page's WriteLeftToRight loop
            logits = net(x[None])[0, -1]
            logits[[2000, 2001]] = -math.inf
            x = torch.cat([x, torch.multinomial(logits.softmax(-1), 1)])
        return x
    print(json.dumps({"threads": args.threads, "story_ms": time_steps(write, 2, 10)}))


def cmd_cuda(args):
    dev = torch.device("cuda")
    for causal in (False, True):
        for dim, heads, layers, B, T in ((128, 4, 4, 64, 32), (512, 8, 8, 64, 256)):
            torch.manual_seed(0)
            net = MyTransformer(2002, dim, heads, layers, max_length=max(64, T + 1), causal=causal).to(dev)
            opt = torch.optim.Adam(net.parameters(), lr=1e-3)
            x0 = torch.randint(0, 2000, (B, T), device=dev)

            def step():
                opt.zero_grad()
                loss = next_token_loss(net, x0) if causal else diffusion_loss(net, x0, 2001)
                loss.backward()
                opt.step()
                loss.item()
            ms = time_steps(step, 3, 20)
            print(json.dumps({"dim": dim, "layers": layers, "batch": B, "seq_len": T, "causal": causal, "ms": ms,
                              "tokens_per_s": B * T / ms * 1000}))


def read_words(paths):
    raw = "".join(open(p, encoding="utf-8", errors="ignore").read() + "\n" for p in paths.split(",") if p)
    return WORD.findall(raw.lower().replace("<|endoftext|>", " "))


def cmd_stories(args):
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    words = read_words(args.train)
    vocab = [w for w, n in Counter(words).most_common(2000)] + ["<unk>", "_"]
    index = {w: i for i, w in enumerate(vocab)}
    unk, mask = len(vocab) - 2, len(vocab) - 1
    corpus = torch.tensor([index.get(w, unk) for w in words])
    valid = torch.tensor([index.get(w, unk) for w in read_words(args.valid)])
    net = MyTransformer(len(vocab), causal=args.causal)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    L, B = 32, 64
    losses, t0 = [], time.time()
    for step in range(args.steps):
        start = torch.randint(len(corpus) - L, (B,))
        x0 = torch.stack([corpus[s:s + L] for s in start])
        opt.zero_grad()
        loss = next_token_loss(net, x0) if args.causal else diffusion_loss(net, x0, mask) / L
        (loss if args.causal else loss * L).backward()
        opt.step()
        losses.append(loss.item())
        if (step + 1) % 250 == 0:
            print(json.dumps({"step": step + 1, "loss": sum(losses[-250:]) / 250, "seconds": time.time() - t0}), flush=True)
    net.eval()
    with torch.no_grad():   # the same held-out windows as Tinyformer: consecutive windows from the start
        n = min(256, len(valid) // L)
        xv = valid[: n * L].reshape(n, L)
        if args.causal:
            vloss = next_token_loss(net, xv).item()
        else:
            torch.manual_seed(12345)
            vloss = sum(diffusion_loss(net, xv, mask).item() / L for _ in range(4)) / 4
    tail = losses[-200:]
    print(json.dumps({"final_loss": sum(tail) / len(tail), "validation_loss": vloss, "steps": args.steps,
                      "causal": args.causal, "seconds": time.time() - t0, "tokens": len(corpus)}))


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("cuda")
    for name in ("step", "write", "stories"):
        s = sub.add_parser(name)
        s.add_argument("--threads", type=int, default=1)
        if name == "step":
            s.add_argument("--cpu-time", action="store_true")
        if name == "stories":
            s.add_argument("--train", required=True)
            s.add_argument("--valid", required=True)
            s.add_argument("--steps", type=int, default=5000)
            s.add_argument("--causal", action="store_true")
            s.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    {"step": cmd_step, "write": cmd_write, "stories": cmd_stories, "cuda": cmd_cuda}[args.cmd](args)


if __name__ == "__main__":
    main()
