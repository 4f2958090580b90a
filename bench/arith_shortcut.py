#!/usr/bin/env python3
"""How far the arithmetic chains (engine/src/studies/arith) can be answered without carrying the
running value: the best guess of the final digit given only the last operation and digit, or the
last two of each, learnt from 400,000 chains drawn as the trainer draws them (2-5 operations,
uniform digits and operators, left to right modulo 10) and scored on 100,000 others.

    python3 bench/arith_shortcut.py
"""
import collections
import random


def chain(rng):
    n = rng.randint(2, 5)
    digits = [rng.randrange(10) for _ in range(n + 1)]
    ops = [rng.choice("+-*") for _ in range(n)]
    v = digits[0]
    for op, d in zip(ops, digits[1:]):
        v = (v + d) % 10 if op == "+" else (v - d) % 10 if op == "-" else (v * d) % 10
    return digits, ops, v


def main():
    rng = random.Random(1)
    for name, key in [("last operation and digit", lambda d, o: (o[-1], d[-1])),
                      ("last two operations and digits", lambda d, o: (o[-2], d[-2], o[-1], d[-1]))]:
        counts = collections.defaultdict(collections.Counter)
        for d, o, v in (chain(rng) for _ in range(400_000)):
            counts[key(d, o)][v] += 1
        test = [chain(rng) for _ in range(100_000)]
        right = sum(counts[key(d, o)].most_common(1)[0][0] == v for d, o, v in test)
        print(f"{name}: {100 * right / len(test):.1f}% right")


if __name__ == "__main__":
    main()
