#!/usr/bin/env python3
"""How close generated Sudoku grids come to valid: reads `native-trainer generate` JSON lines
(one {"sample": 81 characters, "valid": bool} per line) on stdin and prints, over the samples,
the share of valid grids, the mean number of the 27 units (9 rows, 9 columns, 9 boxes) that
hold nine different digits (27 = a valid grid; a grid of uniform random digits expects
27 * 9!/9^9 = 0.025), the mean number of cells in a clash (a digit repeated in one of its
units; uniform random digits expect 81 (1 - (8/9)^20) = 73.3), and distinct samples.
Independent of the engine: the rules are written out here.

    native-trainer generate --weights W --samples 64 --steps 16 --seed S | python3 bench/grid_units.py
"""
import json
import sys


def units():
    rows = [[r * 9 + c for c in range(9)] for r in range(9)]
    cols = [[r * 9 + c for r in range(9)] for c in range(9)]
    boxes = [[(b // 3 * 3 + k // 3) * 9 + b % 3 * 3 + k % 3 for k in range(9)] for b in range(9)]
    return rows + cols + boxes


def score(grid):
    full = 0
    clash = set()
    for unit in units():
        digits = [grid[i] for i in unit]
        if sorted(digits) == list("123456789"):
            full += 1
        for i in unit:
            if grid[i] in "123456789" and digits.count(grid[i]) > 1:
                clash.add(i)
    return full, len(clash)


def main():
    samples = [json.loads(line)["sample"] for line in sys.stdin if line.strip()]
    if not samples:
        sys.exit("no samples on stdin")
    scored = [score(s) for s in samples]
    valid = sum(1 for f, _ in scored if f == 27)
    print(
        f"samples {len(samples)}  valid {100 * valid / len(samples):.1f}%  "
        f"complete units {sum(f for f, _ in scored) / len(samples):.2f} of 27  "
        f"cells in a clash {sum(c for _, c in scored) / len(samples):.1f} of 81  "
        f"distinct {len(set(samples))}"
    )


if __name__ == "__main__":
    main()
