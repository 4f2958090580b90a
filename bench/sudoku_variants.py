#!/usr/bin/env python3
"""Make new Sudoku puzzles from given ones by transformations that keep a puzzle's logic.

Each variant applies, at random: a rotation by 0, 90, 180 or 270 degrees, a permutation of the
three bands and of the three stacks, a permutation of the rows inside each band and of the
columns inside each stack, and a renaming of the nine digits. None of these changes how many
solutions a puzzle has or which techniques it needs, so a variant keeps its source's difficulty
for a logical solver. They do change what a network sees: ours is not built to be invariant to
them. This is how some third-party generators make "new" puzzles of a known level from a few
seed puzzles; here it lets us measure the model on many puzzles of such a level.

Input: one puzzle per line, 81 characters, '.' or '0' for a blank, optionally followed by a
comma and its solution. Output: K variants of each input puzzle, in input order, one per line
with '.' for a blank; a solution given is transformed with its puzzle. With --csv NAME and
solutions, the output is a Sudoku CSV (`source,q,a,rating`, rating 0) that `native-trainer data
import --format sudoku-csv` reads, so `eval` can score the variants too.

    python3 bench/sudoku_variants.py --per-puzzle 4 --seed 0 < seeds.txt > variants.txt
    python3 bench/sudoku_variants.py --per-puzzle 4 --seed 0 --csv expert < seeds-with-solutions.txt > variants.csv
"""
import argparse
import random
import sys


def rotate(grid):
    """Rotate a 9x9 grid (list of 9 lists) by 90 degrees clockwise."""
    return [[grid[8 - c][r] for c in range(9)] for r in range(9)]


def line_order(rng):
    """A permutation of 0..8 that keeps each group of three together (bands or stacks)."""
    groups = [0, 1, 2]
    rng.shuffle(groups)
    order = []
    for g in groups:
        inner = [3 * g, 3 * g + 1, 3 * g + 2]
        rng.shuffle(inner)
        order.extend(inner)
    return order


def variant(grids, rng):
    """One random transformation, applied alike to each 81-character grid in `grids`."""
    turns = rng.randrange(4)
    rows, cols = line_order(rng), line_order(rng)
    digits = list("123456789")
    rng.shuffle(digits)
    rename = dict(zip("123456789", digits))
    out = []
    for flat in grids:
        grid = [list(flat[9 * r:9 * r + 9]) for r in range(9)]
        for _ in range(turns):
            grid = rotate(grid)
        grid = [[grid[r][c] for c in cols] for r in rows]
        out.append("".join(rename.get(ch, ".") for row in grid for ch in row))
    return out


def is_grid(s, full):
    allowed = "123456789" if full else ".123456789"
    return len(s) == 81 and all(ch in allowed for ch in s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-puzzle", type=int, default=4, help="variants per input puzzle")
    ap.add_argument("--seed", type=int, default=0, help="random seed")
    ap.add_argument("--csv", metavar="NAME", help="write a Sudoku CSV, sources NAME-0, NAME-1, ... (needs solutions)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    if args.csv:
        print("source,q,a,rating")
    count = 0
    for n, line in enumerate(sys.stdin, 1):
        fields = line.strip().split(",")
        if fields == [""]:
            continue
        puzzle = fields[0].replace("0", ".")
        if len(fields) > 2 or not is_grid(puzzle, False):
            sys.exit(f"line {n}: not an 81-character puzzle, optionally ',' and its solution: {line.strip()!r}")
        sources = [puzzle]
        if len(fields) == 2:
            solution = fields[1]
            if not is_grid(solution, True) or any(p != "." and p != s for p, s in zip(puzzle, solution)):
                sys.exit(f"line {n}: the solution is not a full grid that agrees with the puzzle's givens")
            sources.append(solution)
        elif args.csv:
            sys.exit(f"line {n}: --csv needs each puzzle's solution after a comma")
        for _ in range(args.per_puzzle):
            grids = variant(sources, rng)
            if args.csv:
                print(f"{args.csv}-{count},{grids[0]},{grids[1]},0")
            else:
                print(",".join(grids))
            count += 1


if __name__ == "__main__":
    main()
