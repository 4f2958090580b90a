#!/usr/bin/env python3
"""burn / PyTorch time ratios for the speed table of docs/speed.md, measured in one run.

Alternates rounds of `native-trainer bench` (the engine) and `bench/pytorch/gram_bench.py` (the
PyTorch re-implementation) on the same models, batches and thread counts, the order flipped every
round so that neither side always runs on a warmer or quieter machine. Each side's figure for a row
is its best round (the least-disturbed one), and the per-round ratios show the spread. With
`--flops`, it also asks gram_bench.py for each row's matmul FLOPs and the fp32 matmul peak of the
machine (MKL, [2048, 2048] @ [2048, 2048]) at each thread count, and prints the fraction of that
peak each implementation reaches.

Prints one `TABLE compare ...` line per row and a Markdown table. Nothing here is a dependency of
the product or of CI; it needs the venv of bench/pytorch/README.md.

    python3 bench/compare.py --rounds 3 --flops \\
        --python ~/.cache/bench-venv/bin/python \\
        --trainer $CARGO_TARGET_DIR/release/native-trainer
"""

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TABLE = re.compile(r"^TABLE bench impl=(\w+) model=(\S+) what=(\w+) n=(\d+) threads=(\d+) best_ms=([\d.]+)")
FLOPS = re.compile(r"^FLOPS model=(\S+) what=(\w+) n=(\d+) gflop=([\d.]+)")
PEAK = re.compile(r"^PEAK threads=(\d+) gflops=([\d.]+)")


def run(cmd):
    print("$ " + " ".join(map(str, cmd)), file=sys.stderr, flush=True)
    done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"compare: {cmd[0]} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return done.stdout.splitlines()


def parse_times(lines, into):
    for line in lines:
        m = TABLE.match(line)
        if m:
            impl, model, what, n, threads, best = m.groups()
            into.setdefault((model, what, int(n), int(threads)), {}).setdefault(impl, []).append(float(best))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--models", default="gram-nqueens8,trm-nqueens8,gram-sudoku")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--samples", default="1,5,20,64")
    ap.add_argument("--what", default="sample,train")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--iters", type=int, default=3)
    ap.add_argument("--flops", action="store_true", help="also report the fraction of the matmul peak")
    ap.add_argument("--python", default=os.path.expanduser("~/.cache/bench-venv/bin/python"))
    ap.add_argument("--trainer", default=None, help="native-trainer binary (default: the release build)")
    args = ap.parse_args()

    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    trainer = args.trainer or str(target / "release" / "native-trainer")
    models = args.models.split(",")
    common = ["--samples", args.samples, "--what", args.what, "--repeats", str(args.repeats),
              "--iters", str(args.iters)]
    burn = [trainer, "bench", "--bench-threads", args.threads, *common]
    for name in models:
        burn += ["--weights", str(REPO / "public" / "weights" / f"{name}.bpk")]
    torch = [args.python, str(REPO / "bench" / "pytorch" / "gram_bench.py"), "--models", args.models,
             "--threads", args.threads, *common]

    times = {}
    for r in range(args.rounds):
        for cmd in ([burn, torch] if r % 2 == 0 else [torch, burn]):
            parse_times(run(cmd), times)

    flops, peak = {}, {}
    if args.flops:
        for line in run(torch + ["--flops"]):
            if m := FLOPS.match(line):
                flops[(m[1], m[2], int(m[3]))] = float(m[4])
            elif m := PEAK.match(line):
                peak[int(m[1])] = float(m[2])
        for t, g in sorted(peak.items()):
            print(f"PEAK threads={t} gflops={g}")

    print("\n| model | step | N | threads | burn ms | PyTorch ms | burn / PyTorch | per-round ratios |"
          + (" burn % of peak | PyTorch % of peak |" if args.flops else ""))
    print("|---|---|---|---|---|---|---|---|" + ("---|---|" if args.flops else ""))
    for key in sorted(times, key=lambda k: (k[3], models.index(k[0]) if k[0] in models else 99, k[1], k[2])):
        model, what, n, threads = key
        sides = times[key]
        if "burn" not in sides or "pytorch" not in sides:
            continue
        b, p = min(sides["burn"]), min(sides["pytorch"])
        per_round = [x / y for x, y in zip(sides["burn"], sides["pytorch"])]
        spread = f"{min(per_round):.2f}-{max(per_round):.2f}"
        extra, cols = "", ""
        if (model, what, n) in flops and threads in peak:
            gf, pk = flops[(model, what, n)], peak[threads]
            fb, fp = 100 * gf / (b / 1e3) / pk, 100 * gf / (p / 1e3) / pk
            extra = f" gflop={gf} burn_peak={fb:.0f}% pytorch_peak={fp:.0f}%"
            cols = f" {fb:.0f}% | {fp:.0f}% |"
        print(f"TABLE compare model={model} what={what} n={n} threads={threads} burn_ms={b:.3f} "
              f"pytorch_ms={p:.3f} ratio={b / p:.2f} rounds={spread}{extra}", file=sys.stderr)
        print(f"| {model} | {what} | {n} | {threads} | {b:.2f} | {p:.2f} | **{b / p:.2f}** | {spread} |{cols}")


if __name__ == "__main__":
    main()
