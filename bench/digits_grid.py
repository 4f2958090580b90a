#!/usr/bin/env python3
"""The GRAM paper's Figure 14 for our digits: N samples (rows) after supervision steps 1, 2, 4, ... (columns),
drawn by `native-trainer generate` and written as one SVG.

The sampler at step s does not depend on the step budget (no settle for digits), so an s-step run with a
seed is the first s steps of a longer run with that seed: each column is its own `generate --steps s`.

usage: python3 bench/digits_grid.py NATIVE_TRAINER WEIGHTS OUT.svg [--samples 8] [--seed 0] [--steps 1,2,4,8,16,32,64]
"""
import argparse
import json
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("binary")
parser.add_argument("weights")
parser.add_argument("out")
parser.add_argument("--samples", type=int, default=8)
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--steps", default="1,2,4,8,16,32,64")
args = parser.parse_args()
steps = [int(s) for s in args.steps.split(",")]

columns = []
for s in steps:
    out = subprocess.run(
        [args.binary, "generate", "--weights", args.weights, "--samples", str(args.samples), "--steps", str(s), "--seed", str(args.seed)],
        check=True, capture_output=True, text=True,
    ).stdout
    columns.append([json.loads(line)["sample"].split("/") for line in out.splitlines() if line.startswith("{")])

cell, gap, top, left = 28, 6, 22, 4
width = left + len(steps) * (cell + gap)
height = top + args.samples * (cell + gap)
parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width * 3}" height="{height * 3}">',
         f'<rect width="{width}" height="{height}" fill="#fff"/>']
for c, s in enumerate(steps):
    x0 = left + c * (cell + gap)
    parts.append(f'<text x="{x0 + cell / 2}" y="12" font-size="7" text-anchor="middle" font-family="sans-serif">step {s}</text>')
    for r, rows in enumerate(columns[c]):
        y0 = top + r * (cell + gap)
        d = "".join(f"M{x0 + x} {y0 + y}h1v1h-1z" for y, row in enumerate(rows) for x, p in enumerate(row) if p == "1")
        parts.append(f'<rect x="{x0}" y="{y0}" width="{cell}" height="{cell}" fill="#111"/><path d="{d}" fill="#fff"/>')
parts.append("</svg>")
with open(args.out, "w") as f:
    f.write("\n".join(parts) + "\n")
print(f"wrote {args.out}: {args.samples} samples x steps {steps}")
