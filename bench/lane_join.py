"""When should the page's helper workers join a verified Sudoku run? A time model, fed with
where one worker's run verifies (`solve`'s JSON lines: `verified_at` = round, step).

    native-trainer split --task sudoku --part validation > val.txt
    native-trainer split --task sudoku --part validation --hardest-of 8 > val8.txt
    native-trainer --threads 1 solve --task sudoku --weights public/weights/gram-sudoku.bpk --restarts 6 < val.txt > val.out
    native-trainer --threads 1 solve --task sudoku --weights public/weights/gram-sudoku.bpk --restarts 6 < val8.txt > val8.out
    python3 bench/lane_join.py --rho 1.15 --lanes 2 val.out val8.out

Times are in units of one worker's step alone. With helpers running, every worker's step takes
`rho` of that (measured in the browser on 2 cores: 1,348-1,398 ms with two workers against
1,180-1,235 ms with one, so about 1.15). Lanes as the engine's `solve::lane`: lane k of L runs
rounds k, k + L, ...; lane 0 starts alone and the others join after K steps of round 0. "Before"
is the earlier scheme: lane 0 ran rounds 0, 1, 1 + L, ...; lane k rounds 1 + k, 1 + k + L, ...;
the others joined at lane 0's first step of round 1.

Only the first verifying round of a single run is known, so a later round that another lane
could have verified sooner in wall time is not counted: every time here is an upper bound. A
puzzle with no verified sample in its 7 rounds counts as 7 full budgets.
"""

import argparse
import json
import statistics as st

BUDGET = 16


def load(path):
    """(givens, (round, step) or None) per puzzle of a `solve` output."""
    out = []
    for line in open(path):
        line = line.strip()
        if not line.startswith('{'):
            continue
        d = json.loads(line)
        givens = sum(c not in '.0' for c in d['puzzle'])
        v = d.get('verified_at')
        out.append((givens, (v['round'], v['step']) if v else None))
    return out


def joined(r, s, lanes, k_join, rho, budget=BUDGET):
    """Wall time to round r's step s when the other lanes join after k_join steps of round 0,
    every round a budget of `budget` steps."""
    if lanes == 1:
        return budget * r + s
    if r == 0:
        return min(s, k_join) + max(s - k_join, 0) * rho
    lane, before = r % lanes, r // lanes
    if lane == 0:
        return k_join + (budget * before + s - k_join) * rho
    return k_join + (budget * before + s) * rho


def after_round_zero(r, s, lanes, rho):
    """The earlier scheme (module doc)."""
    if lanes == 1 or r == 0:
        return BUDGET * r + s
    join = BUDGET + 1
    if r == 1 or (r - 1) % lanes == 0:
        n = BUDGET + BUDGET * ((r - 1) // lanes) + s
        return min(n, join) + max(n - join, 0) * rho
    lane = (r - 1) % lanes
    return join + (BUDGET * ((r - 1 - lane) // lanes) + s) * rho


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--rho', type=float, default=1.15)
    ap.add_argument('--lanes', type=int, default=2)
    ap.add_argument('outputs', nargs='+')
    a = ap.parse_args()
    cap = 7 * BUDGET
    sets = [(p, load(p)) for p in a.outputs]
    sets.append(('all of them', [x for _, d in sets for x in d]))
    schemes = [('1 worker', lambda r, s: joined(r, s, 1, 0, 1.0)),
               (f'{a.lanes} workers, join when round 0 is spent (before)', lambda r, s: after_round_zero(r, s, a.lanes, a.rho))]
    schemes += [(f'{a.lanes} workers, join after step {k}', lambda r, s, k=k: joined(r, s, a.lanes, k, a.rho))
                for k in [1, 2, 3, 4, 5, 6, 8, 12, 16]]
    for name, data in sets:
        restarted = sum(1 for _, v in data if v and v[0] > 0)
        print(f'\n{name}: {len(data)} puzzles, {restarted} verify after a restart, '
              f'{sum(1 for _, v in data if not v)} not within 7 rounds; lanes {a.lanes}, rho {a.rho}')
        print('| scheme | mean | expert (<= 27 givens) median | restarted puzzles: mean |')
        print('| --- | --- | --- | --- |')
        for label, f in schemes:
            t = [f(*v) if v else cap for _, v in data]
            ex = [f(*v) if v else cap for g, v in data if g <= 27]
            re = [f(*v) for _, v in data if v and v[0] > 0]
            print(f'| {label} | {st.mean(t):.3f} | {st.median(ex):.2f} | {st.mean(re) if re else float("nan"):.2f} |')


if __name__ == '__main__':
    main()
