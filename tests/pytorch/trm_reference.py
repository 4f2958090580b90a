#!/usr/bin/env python3
"""A small PyTorch re-implementation of TinyRecursiveModels' inner forward (TRM, the attention
variant of `models/recursive_reasoning/trm.py` in SamsungSAILMontreal/TinyRecursiveModels), in
TRM's tensor names and maths, written by us from the paper's and the repository's description,
and the fixture `engine/tests/trm_import.rs` checks our importer (`engine::weights::trm_import`)
against.

What it reproduces of TRM (and where ours differs, which the importer reconciles):
- inputs: token embedding `embed_tokens.embedding_weight` [V, D]; before the board, P
  puzzle-embedding positions: the row's `puzzle_emb.weights` [n_puzzles, ndim] vector, zero-padded
  to P * D and laid over the P positions; all of it scaled by sqrt(D);
- RoPE over the P + L positions, rotate_half style: channel i pairs with i + Dh/2, angle
  p * theta^(-2i/Dh) (ours pairs 2i with 2i + 1 at the same angles);
- each layer: x = rms_norm(x + attn(x)); x = rms_norm(x + mlp(x)), rms_norm without a gain,
  eps 1e-5; attention without biases, `qkv_proj` rows q (all heads), k, v; SwiGLU with
  `gate_up_proj` = gate rows then up rows, `down_proj`;
- the recursion per supervision step: H_cycles times (L_cycles times z_L = f(z_L + z_H + e);
  z_H = f(z_H + z_L)), the carry (z_H, z_L) starting at H_init, L_init and carried between steps;
- outputs: `lm_head(z_H)[:, P:]` (no bias) and `q_head(z_H[:, 0])` = (q_halt, q_continue).
Not reproduced: TRM's bfloat16 (the reference runs in float64 from float32 weights), the ACT
wrapper's halting and data swapping (every row runs both steps), training.

It writes under tests/pytorch/fixtures/:
  trm-official.safetensors     the weights, float32, in TRM's names behind the prefix
                               `_orig_mod.model.inner.` that torch.compile's checkpoints carry;
  trm-official.io.safetensors  `inputs` (int64 [B, L]), `puzzle_identifiers` (int64 [B]), and after
                               each supervision step `logits` [S, B, L, V], `q_halt_logits` [S, B],
                               `q_continue_logits` [S, B] (float64);
  trm-official.json            TRM's config of the run (what the importer's options give) and the
                               shapes the importer should infer.

Usage: python3 tests/pytorch/trm_reference.py [--out DIR] [--seed N]
Needs torch, safetensors and numpy (tests/pytorch/README.md)."""

import argparse
import json
import math
from pathlib import Path

import torch
import torch.nn.functional as F
from safetensors.torch import load_file, save_file
from torch import nn

PREFIX = "_orig_mod.model.inner."
# Tiny, with puzzle_emb_ndim (24) wider than D (16) so the vector spans two of the P = 4
# positions and the zero padding matters.
CONFIG = {
    "seq_len": 9, "vocab_size": 6, "hidden_size": 16, "num_heads": 2, "L_layers": 2, "d_ff": 32,
    "puzzle_emb_ndim": 24, "puzzle_emb_len": 4, "num_puzzle_identifiers": 3,
    "H_cycles": 2, "L_cycles": 2, "halt_max_steps": 16, "rms_norm_eps": 1e-5, "rope_theta": 10000.0,
}
BATCH, STEPS = 3, 2
# As in gram_reference.py: Linear weights at half the 1/sqrt(fan_in) scale keep the random
# recursion from amplifying float32 rounding (measured below and printed).
LINEAR_GAIN = 0.5


def rms_norm(x, eps):
    """TRM's norm: no gain."""
    return x * torch.rsqrt(x.square().mean(-1, keepdim=True) + eps)


def rope_cos_sin(positions, head_dim, theta):
    """cos, sin [positions, Dh]: the Dh/2 frequencies theta^(-2i/Dh), repeated for both halves."""
    inv_freq = theta ** (-torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim)
    angles = torch.outer(torch.arange(positions, dtype=torch.float64), inv_freq)
    both = torch.cat([angles, angles], dim=-1)
    return both.cos(), both.sin()


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat([-x[..., half:], x[..., :half]], dim=-1)


class SelfAttention(nn.Module):
    def __init__(self, c):
        super().__init__()
        d = c["hidden_size"]
        self.heads = c["num_heads"]
        self.qkv_proj = nn.Linear(d, 3 * d, bias=False)
        self.o_proj = nn.Linear(d, d, bias=False)

    def forward(self, x, cos, sin):
        b, s, d = x.shape
        h, dh = self.heads, d // self.heads
        qkv = self.qkv_proj(x).view(b, s, 3 * h, dh)
        q, k, v = qkv[:, :, :h], qkv[:, :, h:2 * h], qkv[:, :, 2 * h:]  # [B, S, H, Dh]
        c, sn = cos[:, None, :].to(x.dtype), sin[:, None, :].to(x.dtype)
        q, k = q * c + rotate_half(q) * sn, k * c + rotate_half(k) * sn
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))  # [B, H, S, Dh]
        weights = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(dh), dim=-1)
        return self.o_proj((weights @ v).transpose(1, 2).reshape(b, s, d))


class SwiGLU(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.gate_up_proj = nn.Linear(c["hidden_size"], 2 * c["d_ff"], bias=False)
        self.down_proj = nn.Linear(c["d_ff"], c["hidden_size"], bias=False)

    def forward(self, x):
        gate, up = self.gate_up_proj(x).chunk(2, dim=-1)
        return self.down_proj(F.silu(gate) * up)


class Layer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.self_attn = SelfAttention(c)
        self.mlp = SwiGLU(c)
        self.eps = c["rms_norm_eps"]

    def forward(self, x, cos, sin):
        x = rms_norm(x + self.self_attn(x, cos, sin), self.eps)
        return rms_norm(x + self.mlp(x), self.eps)


class LevelModule(nn.Module):
    """TRM's reasoning module: the injection added, then the layers."""

    def __init__(self, c):
        super().__init__()
        self.layers = nn.ModuleList(Layer(c) for _ in range(c["L_layers"]))

    def forward(self, hidden, injection, cos, sin):
        hidden = hidden + injection
        for layer in self.layers:
            hidden = layer(hidden, cos, sin)
        return hidden


class PuzzleEmbedding(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.register_buffer("weights", torch.zeros(c["num_puzzle_identifiers"], c["puzzle_emb_ndim"]))


class Inner(nn.Module):
    """The parameters under TRM's names (`state_dict()` gives them) and one supervision step."""

    def __init__(self, c):
        super().__init__()
        d = c["hidden_size"]
        self.c = c
        self.embed_tokens = nn.Module()
        self.embed_tokens.embedding_weight = nn.Parameter(torch.zeros(c["vocab_size"], d))
        self.lm_head = nn.Linear(d, c["vocab_size"], bias=False)
        self.q_head = nn.Linear(d, 2, bias=True)
        self.puzzle_emb = PuzzleEmbedding(c)
        self.L_level = LevelModule(c)
        self.register_buffer("H_init", torch.zeros(d))
        self.register_buffer("L_init", torch.zeros(d))

    def input_embeddings(self, inputs, puzzle_identifiers):
        c, d = self.c, self.c["hidden_size"]
        tokens = self.embed_tokens.embedding_weight[inputs]  # [B, L, D]
        puzzle = self.puzzle_emb.weights[puzzle_identifiers]  # [B, ndim]
        puzzle = F.pad(puzzle, (0, c["puzzle_emb_len"] * d - puzzle.shape[-1]))
        joined = torch.cat([puzzle.view(-1, c["puzzle_emb_len"], d), tokens], dim=-2)
        return math.sqrt(d) * joined

    def initial_carry(self, batch):
        positions = self.c["puzzle_emb_len"] + self.c["seq_len"]
        d = self.c["hidden_size"]
        return self.H_init.expand(batch, positions, d), self.L_init.expand(batch, positions, d)

    def forward(self, carry, inputs, puzzle_identifiers):
        c = self.c
        cos, sin = rope_cos_sin(c["puzzle_emb_len"] + c["seq_len"], c["hidden_size"] // c["num_heads"], c["rope_theta"])
        e = self.input_embeddings(inputs, puzzle_identifiers)
        z_h, z_l = carry
        for _ in range(c["H_cycles"]):
            for _ in range(c["L_cycles"]):
                z_l = self.L_level(z_l, z_h + e, cos, sin)
            z_h = self.L_level(z_h, z_l, cos, sin)
        logits = self.lm_head(z_h)[:, c["puzzle_emb_len"]:]
        q = self.q_head(z_h[:, 0])
        return (z_h, z_l), logits, q[..., 0], q[..., 1]


def randomise(model, gen):
    """Every tensor drawn afresh (float32): Linear N(0, LINEAR_GAIN^2 / fan_in), the Q-head's
    bias N(0, 0.5^2), the token and puzzle embeddings N(0, 1/D) (both scaled by sqrt(D)),
    H_init and L_init N(0, 1) (TRM draws them with std 1)."""
    d = model.c["hidden_size"]
    with torch.no_grad():
        for name, t in list(model.named_parameters()) + list(model.named_buffers()):
            noise = torch.randn(t.shape, generator=gen)
            if name in ("H_init", "L_init"):
                t.copy_(noise)
            elif name == "q_head.bias":
                t.copy_(0.5 * noise)
            elif name in ("embed_tokens.embedding_weight", "puzzle_emb.weights"):
                t.copy_(noise / math.sqrt(d))
            else:
                t.copy_(noise * LINEAR_GAIN / math.sqrt(t.shape[1]))


def run(model, inputs, puzzle_identifiers):
    """STEPS supervision steps from the initial carry; the outputs of each, stacked."""
    carry = model.initial_carry(inputs.shape[0])
    outs = []
    with torch.no_grad():
        for _ in range(STEPS):
            carry, logits, q_halt, q_continue = model(carry, inputs, puzzle_identifiers)
            outs.append((logits, q_halt, q_continue))
    return [torch.stack(x) for x in zip(*outs)]


def main():
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=here / "fixtures")
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    torch.use_deterministic_algorithms(True)
    c = CONFIG
    gen = torch.Generator().manual_seed(args.seed)
    model = Inner(c)
    randomise(model, gen)
    inputs = torch.randint(0, c["vocab_size"], (BATCH, c["seq_len"]), generator=gen)
    puzzle_identifiers = torch.arange(BATCH) % c["num_puzzle_identifiers"]  # every puzzle once

    weights = {PREFIX + k: v.detach().contiguous() for k, v in model.state_dict().items()}
    save_file(weights, str(args.out / "trm-official.safetensors"), metadata={"format": "pt"})
    logits, q_halt, q_continue = run(model.double(), inputs, puzzle_identifiers)
    io = {"inputs": inputs, "puzzle_identifiers": puzzle_identifiers, "logits": logits,
          "q_halt_logits": q_halt, "q_continue_logits": q_continue}
    save_file({k: v.contiguous() for k, v in io.items()}, str(args.out / "trm-official.io.safetensors"))

    # The file, not the module, is the reference; and float32 stays close to float64.
    again = Inner(c)
    loaded = {k[len(PREFIX):]: v for k, v in load_file(str(args.out / "trm-official.safetensors")).items()}
    again.load_state_dict(loaded, strict=True)
    assert torch.equal(run(again.double(), inputs, puzzle_identifiers)[0], logits)
    f32 = run(again.float(), inputs, puzzle_identifiers)
    drift = max((a.double() - b).abs().max().item() for a, b in zip(f32, (logits, q_halt, q_continue)))

    options = {"n_heads": c["num_heads"], "seq_len": c["seq_len"], "puzzle_emb_len": c["puzzle_emb_len"],
               "h_cycles": c["H_cycles"], "l_cycles": c["L_cycles"], "n_sup": c["halt_max_steps"]}
    inferred = {"d_model": c["hidden_size"], "vocab": c["vocab_size"], "d_hidden": c["d_ff"],
                "n_layers": c["L_layers"], "puzzle_emb_ndim": c["puzzle_emb_ndim"],
                "n_puzzles": c["num_puzzle_identifiers"]}
    meta = {"trm_config": c, "options": options, "inferred": inferred, "batch": BATCH, "steps": STEPS,
            "seed": args.seed, "torch": torch.__version__}
    (args.out / "trm-official.json").write_text(json.dumps(meta, indent=2) + "\n")
    n = sum(v.numel() for v in weights.values())
    print(f"trm-official: {n} weights; float32 against float64: max |diff| {drift:.2e}")


if __name__ == "__main__":
    main()
