#!/usr/bin/env python3
"""Independent re-check of the grammar study (the JEPA-Reasoner paper section 5.2), without the engine's code.

Reads the grammar the shipped weights were trained on (`native-trainer grammar`), draws its own
sequences from it with its own random generator, keeps those the documented split rule puts in
the test part (FNV-1a-64 of the digits % 100 < 15: never trained on), cuts and corrupts them
itself, asks `solve --task grammar` for T's and R's 4-token completions, and checks every `valid` and
`prefix_valid` flag with its own Earley recogniser. Prints each model's accuracy against the
sequences' own continuations, clean and with 20% of the prefix flipped.

Usage: independent_cfg.py <path to native-trainer> [sequences]
"""
import json
import random
import subprocess
import sys

WEIGHTS = "public/weights/cfg-small.bpk"


def fnv1a64(s):
    h = 0xCBF29CE484222325
    for b in s.encode():
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def sample(rules, symbol, rng):
    if symbol not in rules:
        return [symbol]
    out = []
    for s in rng.choice(rules[symbol]):
        out += sample(rules, s, rng)
    return out


def begins_sentence(rules, start, seq):
    """Earley: does `seq` begin some sentence derived from `start`? Items (lhs, rhs, dot, origin)."""
    sets = [set()]
    for rhs in rules[start]:
        sets[0].add((start, tuple(rhs), 0, 0))
    for k in range(len(seq) + 1):
        agenda = list(sets[k])
        while agenda:
            lhs, rhs, dot, origin = agenda.pop()
            new = []
            if dot < len(rhs) and rhs[dot] in rules:
                new = [(rhs[dot], tuple(r), 0, k) for r in rules[rhs[dot]]]
            elif dot == len(rhs):
                new = [(l, r, d + 1, o) for (l, r, d, o) in list(sets[origin]) if d < len(r) and r[d] == lhs]
            for it in new:
                if it not in sets[k]:
                    sets[k].add(it)
                    agenda.append(it)
        if k == len(seq):
            return True
        nxt = {(l, r, d + 1, o) for (l, r, d, o) in sets[k] if d < len(r) and r[d] == seq[k]}
        if not nxt:
            return False
        sets.append(nxt)


def corrupt(prefix, share, rng):
    n = round(share * len(prefix))
    out = list(prefix)
    for i in rng.sample(range(len(prefix)), n):
        out[i] = rng.choice([t for t in "123" if t != out[i]])
    return out


def solve(trainer, model, prefixes):
    out = subprocess.run([trainer, "solve", "--task", "cfg", "--weights", WEIGHTS, "--model", model, "--steps", "4"],
                         input="\n".join(" ".join(p) for p in prefixes) + "\n", capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    rows = [json.loads(l) for l in out.stdout.splitlines()]
    assert len(rows) == len(prefixes)
    return rows


def check(trainer, n=150):
    g = json.loads(subprocess.run([trainer, "grammar", "--weights", WEIGHTS], check=True, capture_output=True, text=True).stdout)
    rules, start = g["rules"], g["start"]
    assert g["terminals"] == ["1", "2", "3"]
    rng = random.Random(20261126)
    seqs = []
    while len(seqs) < n:
        s = sample(rules, start, rng)
        if fnv1a64("".join(s)) % 100 < 15:
            seqs.append(s)
    assert all(begins_sentence(rules, start, s) for s in seqs[:20]), "the grammar's own sentences must parse"
    cuts = [rng.randint(16, len(s) - 8) for s in seqs]
    report = []
    for share in [0.0, 0.2]:
        prefixes = [corrupt(s[:c], share, rng) for s, c in zip(seqs, cuts)]
        for model in ["t", "r"]:
            rows = solve(trainer, model, prefixes)
            right = 0
            for s, c, p, row in zip(seqs, cuts, prefixes, rows):
                written = row["completion"]
                assert len(written) == 4, row
                assert row["prefix_valid"] == begins_sentence(rules, start, p), f"prefix_valid wrong: {row}"
                mine = all(t in "123" for t in written) and begins_sentence(rules, start, p + written)
                assert row["valid"] == mine, f"valid is {row['valid']}, this parser says {mine}: {row}"
                right += sum(a == b for a, b in zip(written, s[c:c + 4]))
            acc = 100 * right / (4 * n)
            report.append(f"{model.upper()} {acc:.1f}% at {share:.0%}")
            floor = 50 if share == 0 else 35
            assert acc >= floor, f"{model} at {share:.0%} corruption: {acc:.1f}% of tokens right"
    print(f"cfg: {n} held-out sequences drawn here from the printed grammar; every valid / prefix_valid flag agrees "
          f"with this Earley parser; 4-token accuracy {', '.join(report)}")


if __name__ == "__main__":
    check(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 150)
