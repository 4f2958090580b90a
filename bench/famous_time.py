"""Time to a verified answer on the famous hardest Sudoku puzzles, over noise seeds: `solve`'s
JSON lines (one file per seed, the puzzles in the same order in each) turned into the page's
wall time with two workers on two cores (`lane_join.joined`: the helper joins after round 0's
third step, every step then `--rho` slower) at a measured ms per step of one worker.

    for s in $(seq 0 11); do native-trainer --threads 1 solve --task sudoku --weights public/weights/gram-sudoku.bpk --restarts 64 --seed $s < famous.txt > famous-s$s.out; done
    python3 bench/famous_time.py --ms 718 famous-s*.out
    # with solve --steps S: --budget S

A puzzle not verified within the run's restarts counts as never (over any bound).
"""

import argparse
import statistics as st
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from lane_join import BUDGET, joined, load  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--ms', type=float, default=718.0, help="one worker's ms per step")
    ap.add_argument('--rho', type=float, default=1.15)
    ap.add_argument('--within', type=float, default=60.0, help='seconds')
    ap.add_argument('--budget', type=int, default=BUDGET, help="steps per round (solve's --steps)")
    ap.add_argument('runs', nargs='+', help="solve's output, one file per seed")
    a = ap.parse_args()
    steps, secs = {}, {}
    for path in a.runs:
        for i, (_, at) in enumerate(load(path)):
            steps.setdefault(i, []).append(a.budget * at[0] + at[1] if at else float('inf'))
            secs.setdefault(i, []).append(joined(*at, 2, 3, a.rho, a.budget) * a.ms / 1000 if at else float('inf'))
    print(f'| puzzle | steps to verify, per seed | median steps | median s, 2 workers | within {a.within:.0f} s |')
    print('| --- | --- | --- | --- | --- |')
    for i in sorted(steps):
        shown = ' / '.join('-' if x == float('inf') else str(x) for x in steps[i])
        within = sum(t <= a.within for t in secs[i])
        print(f'| {i + 1} | {shown} | {st.median(steps[i])} | {st.median(secs[i]):.0f} | {within} of {len(secs[i])} |')


if __name__ == '__main__':
    main()
