"""Would giving up on a Sudoku round early pay? Reads `sudoku_hazard --trace` CSVs (one file per
puzzle: the page's rounds without the stop) and reports, for the rounds not yet verified at step
k = 1, 2, 3:

- the AUC of each signal (the highest LPRM value, the highest Q logit, minus the fewest cells in
  a rule conflict) for "verifies by the end of the budget", pairs taken within each puzzle;
- rules "at step k go on only where the signal is at least the q-quantile of the earlier rounds'
  signal at step k" (round 0 always goes on), simulated: the sum over puzzles of steps per
  verified round, against the plain rounds'.

    cargo run --release -p engine --example sudoku_hazard -- <puzzle> 7 30 0.5 6 --trace <name>.csv
    python3 bench/give_up_early.py --budget 6 *.csv
"""

import argparse
import collections
import csv

SIGNALS = (("LPRM", 0), ("Q", 1), ("-conflicts", 2))


def load(path):
    by = collections.defaultdict(dict)
    for r in csv.DictReader(open(path)):
        by[int(r["round"])][int(r["step"])] = (float(r["max_lprm"]), float(r["max_q_logit"]), -int(r["min_conflicts"]), int(r["verified"]))
    return [by[k] for k in sorted(by)]


def first(d, budget):
    steps = [s for s in range(1, budget + 1) if d[s][3]]
    return steps[0] if steps else None


def auc(runs, k, idx, budget):
    wins = pairs = 0
    for rounds in runs:
        live = [d for d in rounds if first(d, budget) is None or first(d, budget) > k]
        pos = [d[k][idx] for d in live if first(d, budget) is not None]
        neg = [d[k][idx] for d in live if first(d, budget) is None]
        wins += sum((p > q) + 0.5 * (p == q) for p in pos for q in neg)
        pairs += len(pos) * len(neg)
    return wins / pairs if pairs else float("nan")


def steps_per_verified(rounds, budget, k=None, idx=0, q=0.0):
    """Steps and verified rounds of one puzzle's rounds under the rule (none when k is None)."""
    steps = verified = 0
    seen = []
    for d in rounds:
        f = first(d, budget)
        signal = d[k][idx] if k else 0.0
        if f is not None and (k is None or f <= k):
            steps, verified = steps + f, verified + 1
        elif k is not None and seen and signal < sorted(seen)[min(len(seen) - 1, int(q * len(seen)))]:
            steps += k
        else:
            steps += f if f is not None else budget
            verified += f is not None
        seen.append(signal)
    return steps / max(verified, 0.5)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", type=int, default=6, help="steps per round (the trace may hold more; later ones are not read)")
    ap.add_argument("traces", nargs="+")
    a = ap.parse_args()
    runs = [load(p) for p in a.traces]
    for k in (1, 2, 3):
        print(f"step {k}: within-puzzle AUC " + ", ".join(f"{name} {auc(runs, k, idx, a.budget):.2f}" for name, idx in SIGNALS))
    plain = sum(steps_per_verified(r, a.budget) for r in runs)
    print(f"plain rounds: {plain:.1f} steps per verified round, summed over {len(runs)} puzzles")
    for name, idx in SIGNALS:
        for k in (1, 2, 3):
            cells = [f"q {q}: {sum(steps_per_verified(r, a.budget, k, idx, q) for r in runs):.1f}" for q in (0.25, 0.5, 0.75)]
            print(f"give up at step {k} on {name}: " + ", ".join(cells))


if __name__ == "__main__":
    main()
