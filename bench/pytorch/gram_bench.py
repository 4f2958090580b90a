#!/usr/bin/env python3
"""PyTorch reference for `native-trainer bench`: the cost of a GRAM/TRM sampling step and training
step on the CPU, per model and thread count, printed as `TABLE bench impl=pytorch ...` lines with
the same fields as the Rust bench (native-trainer/src/commands/bench.rs), so the two join into
burn / PyTorch ratios. See README.md for what is mirrored and what is not.

Run from anywhere: python3 bench/pytorch/gram_bench.py [--quick] [--models ...] [--threads 1,2]
"""

import argparse
import json
import math
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gram_model import Gram, NoiseSource, balanced_kl  # noqa: E402
from gram_tasks import Task  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
MODELS = ["gram-nqueens8", "trm-nqueens8", "gram-sudoku"]
SAMPLES = [1, 5, 20, 64]
# native-trainer/src/gram/presets.rs: (batch, peak lr, warm-up, AdamW weight decay, steps).
PRESETS = {
    "gram-sudoku": (32, 1e-3, 200, 0.1, 5500),
    **{p: (64, 1e-3, 200, 0.1, 4000) for p in [
        "gram-nqueens8", "trm-nqueens8", "gram-nqueens8-mixer", "trm-nqueens8-mixer", "gram-nqueens10", "trm-nqueens10"]},
}
F32_MIN_POSITIVE = float(np.finfo(np.float32).tiny)


def load_manifest(name, weights_dir):
    manifest = json.loads((weights_dir / f"{name}.json").read_text())
    words = manifest["training_command"].split()
    preset = words[words.index("--preset") + 1]  # its first command's preset, as bench.rs reads it
    return manifest["config"], preset


# ----- sampling: engine/src/gram/sample.rs -------------------------------------------------------

class Trajectories:
    """N trajectories of one puzzle (SampleOptions: guidance scale 1, settle 0, halting off)."""

    def __init__(self, model, puzzle, n, max_steps, noise, seed=0):
        x = torch.from_numpy(np.tile(puzzle, (n, 1)))  # [B, L]
        self.model, self.max_steps, self.scale = model, max_steps, 1.0
        self.e_x = model.encode(x)
        self.z = model.initial_state(n, x.shape[1])
        self.source = NoiseSource(seed, noise)
        self.steps, self.last, self.vocab = 0, None, 0

    def step(self):
        packed = self.advance()
        return self.observe(packed.numpy())

    def advance(self):
        settling = self.steps + 0 >= self.max_steps  # settle_steps() = floor(max_steps * 0) = 0
        scale = 0.0 if settling else self.scale
        for _ in range(self.model.t_outer):
            self.z, _ = self.model.transition(self.z, self.e_x, ("prior", scale, self.source))
        h = self.z[0]
        logits = self.model.decode(h)  # [B, L, V]
        b, l, v = logits.shape
        self.vocab = v
        value = self.model.value(h).reshape(b, 1)
        halt = torch.sigmoid(self.model.halt_logit(h)).reshape(b, 1)
        return torch.cat([logits.reshape(b, l * v), value, halt], dim=1)  # [B, L*V + 2]

    def observe(self, data):
        """Greedy tokens and per-cell softmax on the host, then the halting bookkeeping."""
        b, l, _ = self.e_x.shape
        v = self.vocab
        cells = data[:, : l * v].reshape(b, l, v)
        predictions = cells.argmax(axis=2)
        e = np.exp(cells - cells.max(axis=2, keepdims=True))
        probabilities = e / e.sum(axis=2, keepdims=True)
        obs = {"step": self.steps + 1, "predictions": predictions, "probabilities": probabilities,
               "values": data[:, l * v].copy(), "halt_probs": data[:, l * v + 1].copy(), "halted": np.zeros(b, bool)}
        if self.last is not None and self.last["halted"].any():
            keep = self.last["halted"]
            for key in ["predictions", "probabilities", "values", "halt_probs"]:
                obs[key][keep] = self.last[key][keep]
            obs["halted"] |= keep
        self.steps += 1
        self.last = obs
        return obs


def time_sampling(model, puzzle, n, iters, noise):
    """ms per supervision step over `iters` steps of N trajectories, after one warm-up step."""
    with torch.inference_mode():
        t = Trajectories(model, puzzle, n, iters + 1, noise)
        t.step()
        began = time.perf_counter()
        for _ in range(iters):
            t.step()
        return (time.perf_counter() - began) * 1000.0 / iters


# ----- training: engine/src/gram/loss.rs, native-trainer/src/{train,batch,run}.rs ---------------

def supervision_step(model, cfg, x, y, z, task, source):
    x_np = x.numpy()
    e_x = model.encode(x)  # [B, L, D]
    noise = (lambda stop_u: ("posterior", y, source, stop_u)) if model.guidance is not None else (lambda _: ("off",))
    h_history, kl = [], torch.zeros(())
    for _ in range(1, model.t_outer):  # t < T: built with autograd on, then detached
        z, g = model.transition(z, e_x, noise(True))
        if g is not None:
            kl = kl + balanced_kl(g[0], g[1], cfg["kl_balance"]).mean()
        z = (z[0].detach(), z[1].detach())
        h_history.append(z[0])
    z, g = model.transition(z, e_x, noise(False))  # t = T: full gradient
    h_t = z[0]
    h_history.append(h_t)
    if g is not None:
        kl = kl + balanced_kl(g[0], g[1], cfg["kl_balance"]).mean()

    logits = model.decode(h_t)  # [B, L, V]
    b, l, _ = logits.shape
    logp = torch.log_softmax(logits, dim=2)
    ce = -logp.gather(2, y.reshape(b, l, 1)).mean()

    predictions = logits.detach().argmax(dim=2).numpy()
    rewards = task.rewards(x_np, predictions)
    r = torch.from_numpy(rewards)
    halt = model.halt_logit(h_t)
    halt_loss = (torch.relu(halt) - halt * r + torch.exp(-halt.abs()).log1p()).mean()
    value_loss = None
    for h in h_history:
        term = (model.value(h) - r).pow(2.0).mean()
        value_loss = term if value_loss is None else value_loss + term
    loss = ce + kl * cfg["beta"] + halt_loss * 0.5 + value_loss * 0.5
    out = {"ce": ce.item(), "kl": kl.item(), "predictions": predictions, "rewards": rewards,
           "halt_logits": halt.detach().numpy(), "z": (z[0].detach(), z[1].detach())}
    return loss, out


def step_rng(seed, step, stream, noise):
    """run.rs step_rng: one generator per (seed, step, stream); numpy's SeedSequence mixes them."""
    return NoiseSource([seed, step, stream], noise)


class InFlight:
    """batch.rs: B slots (pair index, steps run) and the carried state."""

    def __init__(self, model, task, b, l, rng):
        self.task = task
        self.slots = [[task.draw(rng), 0] for _ in range(b)]
        h, l_ = model.initial_state(b, l)
        self.z = (h.detach(), l_.detach())

    def tensors(self):
        idx = np.array([s[0] for s in self.slots])
        return torch.from_numpy(self.task.xs[idx]), torch.from_numpy(self.task.ys[idx])

    def advance(self, model, z, halt_logits, rewards, rng, n_sup):
        reset = np.zeros(len(self.slots), dtype=np.float32)
        for i, slot in enumerate(self.slots):
            slot[1] += 1
            if slot[1] >= n_sup or halt_logits[i] > 0.0:
                self.slots[i] = [self.task.draw(rng), 0]
                reset[i] = 1.0
        b, l, _ = z[0].shape
        z0 = model.initial_state(b, l)
        m = torch.from_numpy(reset).reshape(b, 1, 1)
        keep = -m + 1.0
        self.z = ((z[0] * keep + z0[0] * m).detach(), (z[1] * keep + z0[1] * m).detach())


def warmup_cosine_lr(lr, warmup, step, total):
    if step < warmup:
        return lr * (step + 1) / warmup
    t = (step - warmup) / max(total - warmup, 1)
    return lr * (0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * min(t, 1.0))))


class TrainRun:
    """A fresh run of a preset (train.rs `start` + `InFlight::fresh`), stepped like `train_step`."""

    def __init__(self, cfg, preset, task, noise, adamw):
        self.cfg, self.task, self.noise = cfg, task, noise
        self.batch_size, self.lr, self.warmup, wd, self.total = PRESETS[preset]
        torch.manual_seed(0)
        self.model = Gram(cfg).train()
        self.params = [p for p in self.model.parameters() if p.requires_grad]
        kwargs = {"foreach": True} if adamw == "foreach" else {"fused": True} if adamw == "fused" else {}
        self.optim = torch.optim.AdamW(self.params, lr=self.lr, betas=(0.9, 0.999), eps=1e-5, weight_decay=wd, **kwargs)
        self.step = 0
        self.batch = InFlight(self.model, task, self.batch_size, cfg["seq_len"], step_rng(0, 0, 1, noise))

    def train_step(self):
        lr = warmup_cosine_lr(self.lr, self.warmup, self.step, self.total)
        x, y = self.batch.tensors()
        loss, out = supervision_step(self.model, self.cfg, x, y, self.batch.z, self.task,
                                     step_rng(0, self.step, 2, self.noise))
        value = loss.item()
        if not math.isfinite(value):
            raise RuntimeError(f"the loss is {value}")
        self.optim.zero_grad(set_to_none=True)
        loss.backward()
        # burn's GradientClippingConfig::Norm(1.0): each parameter's gradient clipped to norm 1.
        grads = [p.grad for p in self.params if p.grad is not None]
        norms = torch.stack(torch._foreach_norm(grads))
        torch._foreach_mul_(grads, list((1.0 / (norms + F32_MIN_POSITIVE)).clamp(max=1.0).unbind()))
        for group in self.optim.param_groups:
            group["lr"] = lr
        self.optim.step()
        self.step += 1
        rng = step_rng(0, self.step, 1, self.noise)
        self.batch.advance(self.model, out["z"], out["halt_logits"], out["rewards"], rng, self.cfg["n_sup"])


def time_training(cfg, preset, task, warmup, timed, noise, adamw):
    run = TrainRun(cfg, preset, task, noise, adamw)
    times = []
    for i in range(warmup + timed):
        began = time.perf_counter()
        run.train_step()
        if i >= warmup:
            times.append((time.perf_counter() - began) * 1000.0)
    return times, run.batch_size


# ----- matmul FLOPs and the machine's matmul peak (for the fraction of peak in docs/speed.md) --------

def step_flops(cfg, preset, task, model, what, n, noise):
    """Matmul FLOPs of one sampling step of N trajectories, or of one training step (forward
    and backward), counted by torch.utils.flop_counter (mm, bmm, addmm and their gradients)."""
    from torch.utils.flop_counter import FlopCounterMode
    if what == "sample":
        with torch.inference_mode():
            t = Trajectories(model, task.first_puzzle(), n, 2, noise)
            with FlopCounterMode(display=False) as counter:
                t.step()
    else:
        run = TrainRun(cfg, preset, task, noise, "default")
        with FlopCounterMode(display=False) as counter:
            run.train_step()
    return counter.get_total_flops()


def matmul_peak(threads, size=2048, repeats=5):
    """GFLOP/s of the best of `repeats` fp32 [size, size] @ [size, size] products (MKL here)."""
    torch.set_num_threads(threads)
    a, b = torch.randn(size, size), torch.randn(size, size)
    a @ b
    best = float("inf")
    for _ in range(repeats):
        began = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - began)
    return 2.0 * size ** 3 / best / 1e9


# ----- the table --------------------------------------------------------------------------------

def summary(rounds):
    s = sorted(rounds)
    best, median = s[0], s[len(s) // 2]  # bench.rs: sorted[len / 2]
    return best, median, 100.0 * (median - best) / best


def print_row(model, what, n, threads, rounds):
    best, median, spread = summary(rounds)
    print(f"TABLE bench impl=pytorch model={model} what={what} n={n} threads={threads} "
          f"best_ms={best:.3f} median_ms={median:.3f} spread={spread:.1f}% repeats={len(rounds)}", flush=True)


def cpu_name():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--what", default="sample,train")
    ap.add_argument("--samples", default=",".join(map(str, SAMPLES)), help="N for the sampling rows")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--iters", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="repeats 2, iters 1 (a smoke test)")
    ap.add_argument("--noise", choices=["boxmuller", "randn"], default="boxmuller",
                    help="boxmuller: the engine's algorithm (numpy, single thread); randn: torch.randn")
    ap.add_argument("--adamw", choices=["default", "foreach", "fused"], default="default",
                    help="torch.optim.AdamW implementation (default: what PyTorch picks on the CPU)")
    ap.add_argument("--weights-dir", type=Path, default=REPO / "public" / "weights")
    ap.add_argument("--flops", action="store_true",
                    help="instead of timing: print each row's matmul FLOPs per step (FLOPS lines) and the "
                         "fp32 matmul peak at each thread count (PEAK lines)")
    args = ap.parse_args()
    if args.quick:
        args.repeats, args.iters = 2, 1
    torch.set_num_interop_threads(1)
    models = [m for m in args.models.split(",") if m]
    threads = [int(t) for t in args.threads.split(",") if t]
    what = set(args.what.split(","))
    samples = [int(n) for n in args.samples.split(",") if n]

    print(f"# pytorch bench: torch {torch.__version__}, numpy {np.__version__}, python {platform.python_version()}, "
          f"{cpu_name()} ({os.cpu_count()} logical CPUs)")
    for line in torch.__config__.parallel_info().strip().splitlines()[:6]:
        print(f"# {line}")
    print(f"# noise={args.noise} adamw={args.adamw} repeats={args.repeats} iters={args.iters}", flush=True)

    setups = {}
    for name in models:
        cfg, preset = load_manifest(name, args.weights_dir)
        task = Task(cfg)
        torch.manual_seed(0)
        model = Gram(cfg).eval()
        if model.guidance is not None:  # trained heads are not zero; keep the sampling weights generic
            for head in [model.guidance.prior, model.guidance.posterior]:
                torch.nn.init.normal_(head.down.weight, 0.0, 0.02)
        setups[name] = (cfg, preset, task, model)
        print(f"# {name}: preset {preset}, {model.num_params()} params, L={cfg['seq_len']} D={cfg['d_model']} "
              f"K={cfg['k_inner']} T={cfg['t_outer']} mixer={cfg['mixer']} guidance={cfg['guidance']}", flush=True)

    if args.flops:
        for name in models:
            cfg, preset, task, model = setups[name]
            rows = ([("sample", n) for n in samples] if "sample" in what else []) + \
                   ([("train", PRESETS[preset][0])] if "train" in what else [])
            for kind, n in rows:
                flops = step_flops(cfg, preset, task, model, kind, n, args.noise)
                print(f"FLOPS model={name} what={kind} n={n} gflop={flops / 1e9:.4f}", flush=True)
        for t in threads:
            print(f"PEAK threads={t} gflops={matmul_peak(t):.1f} size=2048", flush=True)
        return

    for t in threads:
        torch.set_num_threads(t)
        for name in models:
            cfg, preset, task, model = setups[name]
            if "sample" in what:
                puzzle = task.first_puzzle()
                for n in samples:
                    rounds = [time_sampling(model, puzzle, n, args.iters, args.noise) for _ in range(args.repeats)]
                    print_row(name, "sample", n, t, rounds)
            if "train" in what:
                times, batch = time_training(cfg, preset, task, 1, args.repeats * args.iters, args.noise, args.adamw)
                rounds = [sum(times[i:i + args.iters]) / args.iters for i in range(0, len(times), args.iters)]
                print_row(name, "train", batch, t, rounds)


if __name__ == "__main__":
    main()
