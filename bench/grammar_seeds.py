#!/usr/bin/env python3
"""The grammar study's sweeps over training seeds: mean and range of each cell.

Reads the CSVs `native-trainer eval --weights W --csv F` writes (one per training seed) and prints,
as Markdown, the JEPA-Reasoner paper's Table 5 for T and R (accuracy over the first k tokens,
k = 1..4, and k = 4 as a % of the same model's clean accuracy, computed per seed then averaged)
with validity, then its Table 4 (C and R under latent noise). Each cell is the mean over the
seeds, then [min-max].

With --compact, one row per corruption level: T's and R's k = 4 accuracy, its relative figure
and validity side by side (no latent noise).

Usage: grammar_seeds.py [--compact] SEED0.csv SEED1.csv ...
"""
import csv
import sys


def read(path):
    rows = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            rows[(r["sweep"], float(r["level"]), r["model"])] = r
    return rows


def cell(values, digits=1):
    mean = sum(values) / len(values)
    if len(values) == 1:
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} [{min(values):.{digits}f}-{max(values):.{digits}f}]"


def compact(seeds, levels):
    print("| corruption | T k=4 | T rel k=4 | T valid % | R k=4 | R rel k=4 | R valid % |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for level in levels:
        cells = []
        for model in ("t", "r"):
            got = [s[("corruption", level, model)] for s in seeds]
            clean = [s[("corruption", 0.0, model)] for s in seeds]
            cells += [
                cell([float(g["acc_k4"]) for g in got]),
                cell([100 * float(g["acc_k4"]) / float(c["acc_k4"]) for g, c in zip(got, clean)]),
                cell([float(g["valid"]) for g in got]),
            ]
        print(f"| {level:.2f} | {' | '.join(cells)} |")


def main(paths):
    short = "--compact" in paths
    paths = [p for p in paths if p != "--compact"]
    seeds = [read(p) for p in paths]
    levels = sorted({k[1] for k in seeds[0] if k[0] == "corruption"})
    if short:
        return compact(seeds, levels)
    print(f"Token corruption, {len(seeds)} training seeds: mean [min-max]")
    print()
    print("| corruption | model | k=1 | k=2 | k=3 | k=4 | rel k=4 | valid % |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for level in levels:
        for model in ("t", "r"):
            got = [s[("corruption", level, model)] for s in seeds]
            clean = [s[("corruption", 0.0, model)] for s in seeds]
            ks = [cell([float(g[f"acc_k{k}"]) for g in got]) for k in range(1, 5)]
            rel = cell([100 * float(g["acc_k4"]) / float(c["acc_k4"]) for g, c in zip(got, clean)])
            valid = cell([float(g["valid"]) for g in got])
            print(f"| {level:.2f} | {model} | {' | '.join(ks)} | {rel} | {valid} |")
    print()
    print("Latent noise: accuracy % over the continuation's positions 5-8")
    print()
    print("| sigma / max abs h | c | r | r: 8 tokens valid % |")
    print("| --- | --- | --- | --- |")
    for level in sorted({k[1] for k in seeds[0] if k[0] == "latent-noise"}):
        c = cell([float(s[("latent-noise", level, "c")]["acc_k4"]) for s in seeds])
        r = cell([float(s[("latent-noise", level, "r")]["acc_k4"]) for s in seeds])
        v = cell([float(s[("latent-noise", level, "r")]["valid"]) for s in seeds])
        print(f"| {level:.2f} | {c} | {r} | {v} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
