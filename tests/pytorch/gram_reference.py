#!/usr/bin/env python3
"""A PyTorch reference of the GRAM / TRM recursive core (engine/src/gram, engine/src/nn), written
from our own Rust code, and the parity fixtures the Rust test `engine/tests/pytorch_parity.rs`
checks against.

For each fixture (attention or mixer core, GRAM or TRM) it builds the model with random float32
weights from a fixed torch seed, runs `--steps` supervision steps in float64 on random inputs,
and writes under tests/pytorch/fixtures/:

  NAME.safetensors     the weights, float32, named by our burn module paths in PyTorch's
                       conventions (a Linear weight [d_out, d_in]; an RMSNorm gain `weight`);
  NAME.io.safetensors  inputs `x`, `y` (int64 [B, L]), per mode the noise `MODE.xi` (float32
                       [S, T, B, L, D]) and the expected `MODE.logits` [S, B, L, V],
                       `MODE.q_logits` [S, B], `MODE.values` [S, B] (float64);
  NAME.json            the GramConfig (as the engine's manifests write it) and the run.

GRAM's noise is an input, not a draw: each transition t of step s uses xi[s, t] ~ N(0, I),
eps = mean + exp(logvar / 2) * xi * scale, from the prior (mode `prior`, guidance scale 1) or
from the posterior given the target y (mode `posterior`). TRM (mode `off`) has no noise.

Usage: python3 tests/pytorch/gram_reference.py [--out DIR] [--seed N]
Needs torch, safetensors and numpy (tests/pytorch/README.md)."""

import argparse
import json
import math
from pathlib import Path

import torch
import torch.nn.functional as F
from safetensors.torch import load_file, save_file
from torch import nn

LOGVAR_OFFSET = -4.0  # gram/guidance.rs: a fresh head's sigma ~ e^-2
RMS_EPS = 1e-5  # burn's RmsNormConfig default
ROPE_THETA = 10000.0
# Linear weights at half the 1/sqrt(fan_in) scale. Measured: at full scale the random mixer
# recursion (2 steps x T(K+1) = 16 block passes) is chaotic, and float32 rounding alone (this
# model run in float32 against float64) grows to 1e-3 on the logits; at 0.5 it stays under 1e-6
# for every fixture, so the parity tolerance measures the implementations, not the chaos.
LINEAR_GAIN = 0.5


class RmsNorm(nn.Module):
    """x / sqrt(mean(x^2) + eps) * weight (burn's RmsNorm; its `gamma` is stored as `weight`)."""

    def __init__(self, d):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + RMS_EPS) * self.weight


class SwiGlu(nn.Module):
    """down(silu(gate(x)) * up(x)), no biases (nn/swiglu.rs)."""

    def __init__(self, d_in, d_hidden, d_out):
        super().__init__()
        self.gate = nn.Linear(d_in, d_hidden, bias=False)
        self.up = nn.Linear(d_in, d_hidden, bias=False)
        self.down = nn.Linear(d_hidden, d_out, bias=False)

    def forward(self, x):
        return self.down(F.silu(self.gate(x)) * self.up(x))


def rope_tables(seq_len, d_head, grid_cols):
    """cos, sin [L, Dh/2] (nn/rope.rs): 1-D over the index, or for a grid the first half of the
    pairs rotated by the row and the second half by the column."""
    half = d_head // 2
    angles = torch.zeros(seq_len, half, dtype=torch.float64)
    for p in range(seq_len):
        for i in range(half):
            if grid_cols == 0:
                angles[p, i] = p * ROPE_THETA ** (-i / half)
            else:
                quarter = half // 2
                pos, j = (p // grid_cols, i) if i < quarter else (p % grid_cols, i - quarter)
                angles[p, i] = pos * ROPE_THETA ** (-j / max(quarter, 1))
    return torch.cos(angles), torch.sin(angles)


def rope(x, cos, sin):
    """Rotates interleaved pairs (x0, x1), (x2, x3), ... of x [B, H, L, Dh]."""
    b, h, l, dh = x.shape
    pairs = x.reshape(b, h, l, dh // 2, 2)
    x0, x1 = pairs[..., 0], pairs[..., 1]
    c, s = cos[:l].to(x.dtype), sin[:l].to(x.dtype)
    return torch.stack([x0 * c - x1 * s, x0 * s + x1 * c], dim=-1).reshape(b, h, l, dh)


class Attention(nn.Module):
    """Bidirectional multi-head attention with RoPE on q and k (nn/attention.rs)."""

    def __init__(self, d, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.out = nn.Linear(d, d, bias=False)

    def forward(self, x, cos, sin):
        b, l, d = x.shape
        h, dh = self.n_heads, d // self.n_heads
        qkv = self.qkv(x).reshape(b, l, 3, h, dh).permute(2, 0, 3, 1, 4)  # [3, B, H, L, Dh]
        q, k, v = rope(qkv[0], cos, sin), rope(qkv[1], cos, sin), qkv[2]
        scores = q @ k.transpose(2, 3) / math.sqrt(dh)
        mixed = torch.softmax(scores, dim=-1) @ v  # [B, H, L, Dh]
        return self.out(mixed.transpose(1, 2).reshape(b, l, d))


class Layer(nn.Module):
    def __init__(self, c):
        super().__init__()
        d = c["d_model"]
        self.attn = Attention(d, c["n_heads"])
        self.norm_attn = RmsNorm(d)
        self.mlp = SwiGlu(d, c["d_hidden"], d)
        self.norm_mlp = RmsNorm(d)


class Block(nn.Module):
    """n_layers x [attention + SwiGLU], post-norm (nn/block.rs)."""

    def __init__(self, c):
        super().__init__()
        self.layers = nn.ModuleList(Layer(c) for _ in range(c["n_layers"]))
        cos, sin = rope_tables(c["seq_len"], c["d_model"] // c["n_heads"], c["grid_cols"])
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)

    def forward(self, x):
        for layer in self.layers:
            x = layer.norm_attn(x + layer.attn(x, self.cos, self.sin))
            x = layer.norm_mlp(x + layer.mlp(x))
        return x


class MixerLayer(nn.Module):
    def __init__(self, c):
        super().__init__()
        d, l = c["d_model"], c["seq_len"]
        self.token = SwiGlu(l, c["d_token_hidden"], l)
        self.norm_token = RmsNorm(d)
        self.channel = SwiGlu(d, c["d_hidden"], d)
        self.norm_channel = RmsNorm(d)


class Mixer(nn.Module):
    """n_layers x [token-mixing SwiGLU over L + channel SwiGLU], post-norm (nn/mixer.rs)."""

    def __init__(self, c):
        super().__init__()
        self.layers = nn.ModuleList(MixerLayer(c) for _ in range(c["n_layers"]))

    def forward(self, x):
        for layer in self.layers:
            mixed = layer.token(x.transpose(1, 2)).transpose(1, 2)
            x = layer.norm_token(x + mixed)
            x = layer.norm_channel(x + layer.channel(x))
        return x


class Guidance(nn.Module):
    """Prior p(eps | u) and posterior q(eps | u, y), diagonal Gaussians (gram/guidance.rs)."""

    def __init__(self, c):
        super().__init__()
        d = c["d_model"]
        self.prior = SwiGlu(d, c["d_guidance"], 2 * d)
        self.posterior = SwiGlu(2 * d, c["d_guidance"], 2 * d)
        self.target_embed = nn.Embedding(c["vocab"], d)
        self.bounds = (c["logvar_min"], c["logvar_max"])

    def split(self, raw):
        d = raw.shape[-1] // 2
        return raw[..., :d], (raw[..., d:] + LOGVAR_OFFSET).clamp(*self.bounds)

    def gaussian(self, u, y):
        if y is None:
            return self.split(self.prior(u))
        return self.split(self.posterior(torch.cat([u, self.target_embed(y)], dim=-1)))


class Gram(nn.Module):
    """The network of gram/core.rs; submodule names are the burn module's field names."""

    def __init__(self, c):
        super().__init__()
        d = c["d_model"]
        self.c = c
        self.embed = nn.Embedding(c["vocab"], d)
        self.block = None if c["mixer"] else Block(c)
        self.mixer = Mixer(c) if c["mixer"] else None
        self.h_init = nn.Parameter(torch.zeros(d))
        self.l_init = nn.Parameter(torch.zeros(d))
        self.lm_head = nn.Linear(d, c["vocab"])
        self.q_head = nn.Linear(d, 1)
        self.v_head = nn.Linear(d, 1)
        self.guidance = Guidance(c) if c["guidance"] else None

    def f(self, x):
        return self.mixer(x) if self.mixer is not None else self.block(x)

    def transition(self, h, l, e_x, xi, scale, y):
        """z_{t-1} -> z_t: K steps of f_L, one of f_H, then h = u + eps (or h = u for TRM)."""
        for _ in range(self.c["k_inner"]):
            l = self.f(l + h + e_x)
        u = self.f(h + l)
        if self.guidance is None:
            return u, l
        mean, logvar = self.guidance.gaussian(u, y)
        return u + (mean + torch.exp(logvar * 0.5) * xi * scale), l

    def run(self, x, xi, scale, y):
        """`S = xi.shape[0]` supervision steps of T transitions from z0; the heads after each."""
        b, l = x.shape
        d = self.c["d_model"]
        e_x = self.embed(x) * math.sqrt(d)
        h = self.h_init.reshape(1, 1, d).expand(b, l, d)
        z_l = self.l_init.reshape(1, 1, d).expand(b, l, d)
        logits, q_logits, values = [], [], []
        for step in xi:
            for xi_t in step:
                h, z_l = self.transition(h, z_l, e_x, xi_t.to(h.dtype), scale, y)
            logits.append(self.lm_head(h))
            q_logits.append(self.q_head(h[:, 0]).squeeze(-1))
            values.append(torch.sigmoid(self.v_head(h[:, 0])).squeeze(-1))
        return torch.stack(logits), torch.stack(q_logits), torch.stack(values)


def randomise(model, gen):
    """Every weight drawn afresh (float32), so no part of the forward is trivially 0 or 1: a
    Linear N(0, LINEAR_GAIN^2 / fan_in), a bias N(0, 0.1^2), a norm gain 1 + N(0, 0.1^2), the
    embedding N(0, 1/D) (scaled by sqrt(D) in the encoder), z0 and the target embedding N(0, 1)."""
    d = model.c["d_model"]
    with torch.no_grad():
        for name, p in model.named_parameters():
            noise = torch.randn(p.shape, generator=gen)
            if name.endswith("bias"):
                p.copy_(0.1 * noise)
            elif p.dim() == 1:  # norm gains and z0
                p.copy_(noise if name in ("h_init", "l_init") else 1.0 + 0.1 * noise)
            elif name == "embed.weight":
                p.copy_(noise / math.sqrt(d))
            elif name.endswith("target_embed.weight"):
                p.copy_(noise)
            else:  # Linear [d_out, d_in]
                p.copy_(noise * LINEAR_GAIN / math.sqrt(p.shape[1]))


def config(name, mixer, guidance, grid_cols):
    """A GramConfig as the engine's manifests write it (gram/config.rs), tiny."""
    return {
        "seq_len": 16, "vocab": 3, "grid_cols": grid_cols, "image_side": None, "patch": None,
        "d_model": 16, "n_heads": 2, "d_hidden": 32, "mixer": mixer, "d_token_hidden": 24,
        "n_layers": 2, "k_inner": 3, "t_outer": 2, "n_sup": 8, "guidance": guidance,
        "beta": 0.3, "kl_balance": 0.8, "d_guidance": 16, "logvar_min": -8.0, "logvar_max": 4.0,
        "z0_seed": 0, "ablation": None,
    }


FIXTURES = [
    # name, mixer, guidance, grid_cols (2-D RoPE on a 4x4 board, or 1-D)
    ("gram-attention", False, True, 4),
    ("trm-attention", False, False, 0),
    ("gram-mixer", True, True, 0),
    ("trm-mixer", True, False, 0),
]
BATCH, STEPS, SCALE = 2, 2, 1.0


def build(name, mixer, guidance, grid_cols, seed, out):
    c = config(name, mixer, guidance, grid_cols)
    gen = torch.Generator().manual_seed(seed)
    model = Gram(c)
    randomise(model, gen)
    b, l, d, t = BATCH, c["seq_len"], c["d_model"], c["t_outer"]
    x = torch.randint(0, c["vocab"], (b, l), generator=gen)
    y = torch.randint(1, c["vocab"], (b, l), generator=gen)
    weights = {k: v.detach().contiguous() for k, v in model.state_dict().items()}
    save_file(weights, str(out / f"{name}.safetensors"))

    modes = {"prior": (SCALE, None), "posterior": (1.0, y)} if guidance else {"off": (0.0, None)}
    io = {"x": x, "y": y}
    reference = model.double()
    with torch.no_grad():
        for mode, (scale, target) in modes.items():
            xi = torch.randn((STEPS, t, b, l, d), generator=gen) if guidance else torch.zeros(STEPS, t, 0)
            logits, q_logits, values = reference.run(x, xi, scale, target)
            if guidance:
                io[f"{mode}.xi"] = xi
            io.update({f"{mode}.logits": logits, f"{mode}.q_logits": q_logits, f"{mode}.values": values})
    save_file({k: v.contiguous() for k, v in io.items()}, str(out / f"{name}.io.safetensors"))

    # The file, not the module, is the reference: a model rebuilt from it gives the same logits.
    again = Gram(c)
    again.load_state_dict(load_file(str(out / f"{name}.safetensors")), strict=True)
    mode, (scale, target) = next(iter(modes.items()))
    xi = io.get(f"{mode}.xi", torch.zeros(STEPS, t, 0))
    with torch.no_grad():
        assert torch.equal(again.double().run(x, xi, scale, target)[0], io[f"{mode}.logits"]), name

    meta = {"config": c, "batch": b, "steps": STEPS, "modes": {m: s for m, (s, _) in modes.items()},
            "seed": seed, "torch": torch.__version__}
    (out / f"{name}.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"{name}: {sum(v.numel() for v in weights.values())} weights, modes {list(modes)}")


def main():
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=here / "fixtures")
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    torch.use_deterministic_algorithms(True)
    for i, (name, mixer, guidance, grid_cols) in enumerate(FIXTURES):
        build(name, mixer, guidance, grid_cols, args.seed + i, args.out)


if __name__ == "__main__":
    main()
