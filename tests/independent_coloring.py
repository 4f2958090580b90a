#!/usr/bin/env python3
"""Independent re-check of the graph-colouring data, written without the engine's code.

Regenerates each dataset from its documented rule (docs/results/coloring.md; engine
`tasks/coloring/data.rs`): a SplitMix64 stream seeded with 0x6752414d30303033 + n, one draw per
vertex pair in text order, an edge when (x >> 11) / 2^53 < p (p = 0.45 for 8 vertices, 0.35 for
10), a graph kept when it is 3-colourable and new, until 7,257 (8) or 13,657 (10) are kept; the
split rule (h = FNV-1a-64(text) >> 24: test iff h % 1000 < 35, validation iff h % 100 in 15..20,
train otherwise). Checks that `native-trainer split --task coloringN` prints exactly those graphs
per part, and prints the distribution of canonical colouring counts (the histogram in docs/results/coloring.md).

Usage: independent_coloring.py <path to native-trainer> [8|10 ...]
"""
import collections
import json
import subprocess
import sys

MASK = 2**64 - 1
SEED = 0x6752414D30303033
P = {8: 0.45, 10: 0.35}
SIZE = {8: 7257, 10: 13657}


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)


def pairs(n):
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def colourings(n, text):
    """Canonical proper 3-colourings (colour of vertex i <= 1 + max of those before it)."""
    adj = [set() for _ in range(n)]
    for (i, j), ch in zip(pairs(n), text):
        if ch == "1":
            adj[i].add(j)
            adj[j].add(i)
    count = 0
    col = [0] * n

    def go(v, used):
        nonlocal count
        if v == n:
            count += 1
            return
        for c in range(min(used + 1, 3)):
            if all(col[u] != c for u in adj[v] if u < v):
                col[v] = c
                go(v + 1, max(used, c + 1))

    go(0, 0)
    return count


def fnv1a64(s):
    h = 0xCBF29CE484222325
    for b in s.encode():
        h = ((h ^ b) * 0x100000001B3) & MASK
    return h


def part(text):
    h = fnv1a64(text) >> 24
    if h % 1000 < 35:
        return "test"
    if 15 <= h % 100 < 20:
        return "validation"
    return "train"


def dataset(n):
    rng = SplitMix64(SEED + n)
    seen, out = set(), []
    while len(out) < SIZE[n]:
        text = "".join("1" if (rng.next() >> 11) / 2**53 < P[n] else "0" for _ in pairs(n))
        if text in seen:
            continue
        c = colourings(n, text)
        if c:
            seen.add(text)
            out.append((text, c))
    return out


def check(trainer, sizes):
    for n in sizes:
        data = dataset(n)
        for name in ["train", "validation", "test"]:
            expected = [t for t, _ in data if part(t) == name]
            got = subprocess.run(
                [trainer, "split", "--task", f"coloring{n}", "--part", name], capture_output=True, text=True, check=True
            ).stdout.split()
            assert got == expected, f"coloring{n} {name}: {len(got)} lines from split, {len(expected)} by the rule"
        counts = collections.Counter(c for _, c in data)
        test = [c for t, c in data if part(t) == "test"]
        buckets = collections.Counter()
        for c, k in counts.items():
            g = 1 << (c.bit_length() - 1)
            buckets[g] += k
        hist = ", ".join(f"{g}-{2 * g - 1}: {buckets[g]}" if g > 1 else f"1: {buckets[g]}" for g in sorted(buckets))
        mean_inv = sum(1 / c for c in test) / len(test)
        print(
            f"coloring{n}: {len(data)} graphs (test {len(test)}), split matches the rule; "
            f"canonical colourings per graph: median {sorted(c for _, c in data)[len(data) // 2]}, "
            f"max {max(counts)}; by count {hist}; test mean 1/count {mean_inv:.3f}"
        )


def proper(n, text, colouring):
    return len(colouring) == n and set(colouring) <= set("012") and all(
        colouring[i] != colouring[j] for (i, j), ch in zip(pairs(n), text) if ch == "1"
    )


def check_solve(trainer, weights="public/weights/gram-coloring8.bpk", n=8, limit=40):
    """`solve` on held-out graphs: every `verified` flag is what these rules say."""
    test = [t for t, _ in dataset(n) if part(t) == "test"]
    picks = [test[i * len(test) // limit] for i in range(limit)]
    out = subprocess.run(
        [trainer, "solve", "--task", f"coloring{n}", "--weights", weights, "--samples", "8"],
        input="\n".join(picks) + "\n", capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    assert len(out) == len(picks)
    right = 0
    for graph, line in zip(picks, out):
        row = json.loads(line)
        assert row["puzzle"] == graph and len(row["samples"]) == 8
        ok = proper(n, graph, row["selected"])
        assert row["verified"] == ok, f"verified={row['verified']} for {row['selected']} on {graph}"
        right += ok
    print(f"coloring{n} solve: {right}/{limit} selected colourings proper (checked by these rules; every verified flag agrees)")


if __name__ == "__main__":
    check(sys.argv[1], [int(a) for a in sys.argv[2:]] or [8, 10])
