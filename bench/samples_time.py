"""How many samples N should /sudoku draw per step? A time model per band, fed with `solve`'s
JSON lines (`verified_at` = round, step) for each N on the same puzzles, and each N's time per
step measured in the browser (CPU fallback, one worker, ms) and the restarts `solve` gives it.

    native-trainer split --task sudoku --part validation > val.txt
    native-trainer --threads 1 solve --task sudoku --weights public/weights/gram-sudoku.bpk --samples N --restarts 6 < val.txt > val-nN.out
    python3 bench/samples_time.py 20:1345:2:val-n20.out 10:718:3:val-n10.out
    # runs with solve --steps S: write N as N/S (10/8:718:7:val-s8.out)

A puzzle's time is (steps to its verifying step over every round) x (that N's ms per step),
for one worker and for two on two cores (the page's lanes: the helper joins after round 0's
third step, every step then `--rho` slower; `bench/lane_join.py`). "Verified" counts what
`solve` verifies with that many restarts. A puzzle not verified within those restarts counts as
all their budgets (restarts + 1 rounds of S steps).
"""

import argparse
import statistics as st
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from lane_join import BUDGET, joined, load  # noqa: E402

BANDS = [('easy', 36, 81), ('medium', 32, 35), ('hard', 28, 31), ('expert', 17, 27)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--rho', type=float, default=1.15)
    ap.add_argument('runs', nargs='+', help='N:ms_per_step:restarts:solve_output, N written N/S for a budget of S steps per round')
    a = ap.parse_args()
    print('| N | band | puzzles | verified (restarts) | median s, 1 worker | median s, 2 workers | mean s, 2 workers | slowest s, 2 workers |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- |')
    for spec in a.runs:
        n, ms, restarts, path = spec.split(':', 3)
        budget = int(n.split('/')[1]) if '/' in n else BUDGET
        cap = (int(restarts) + 1) * budget
        sec = float(ms) / 1000
        data = load(path)
        for band, lo, hi in BANDS + [('all', 0, 81)]:
            rows = [v for g, v in data if lo <= g <= hi]
            if not rows:
                continue
            ok = sum(1 for v in rows if v and v[0] <= int(restarts))
            one = [sec * (joined(*v, 1, 0, 1.0, budget) if v else cap) for v in rows]
            two = [sec * (joined(*v, 2, 3, a.rho, budget) if v else cap) for v in rows]
            print(f'| {n} | {band} | {len(rows)} | {100 * ok / len(rows):.2f}% ({restarts}) | {st.median(one):.1f} | {st.median(two):.1f} | '
                  f'{st.mean(two):.1f} | {max(two):.1f} |')


if __name__ == '__main__':
    main()
