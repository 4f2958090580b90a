"""Screen Sudoku puzzles by the model's own effort: from `solve`'s JSON lines, how many verify in
which round, and the puzzles that need round 2 or later (or never verify) as candidates for a
model-hard set; with re-runs at other seeds, each candidate's mean trajectory-steps to verify.

    native-trainer --threads 1 solve --task sudoku --weights public/weights/gram-sudoku.bpk --restarts 3 --seed 0 < puzzles.txt > screen.out
    python3 bench/sudoku_screen.py screen.out --candidates cand.txt
    for s in 1 2 3; do native-trainer --threads 1 solve --task sudoku --weights public/weights/gram-sudoku.bpk --restarts 64 --seed $s < cand.txt > cand-s$s.out; done
    python3 bench/sudoku_screen.py screen.out --reruns cand-s1.out cand-s2.out cand-s3.out

A re-run that does not verify counts at the trajectory-steps it spent (a lower bound).
"""

import argparse
import collections
import json
import statistics as st


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def verified_round(run):
    return run['verified_at']['round'] if run['verified'] else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('screen', help="solve's output on the screened puzzles")
    ap.add_argument('--from-round', type=int, default=2, help='a candidate verifies in this round or later, or never')
    ap.add_argument('--candidates', help='write the candidates here, one puzzle per line')
    ap.add_argument('--reruns', nargs='*', default=[], help="solve's output on the candidates, one file per seed")
    a = ap.parse_args()
    runs = load(a.screen)
    rounds = collections.Counter(verified_round(r) for r in runs)
    spent = sum(r['trajectory_steps'] for r in runs)
    print(f'{len(runs)} puzzles, {spent} trajectory-steps ({spent / len(runs):.1f} per puzzle)')
    for k in sorted(k for k in rounds if k is not None):
        print(f'  verified in round {k}: {rounds[k]}')
    print(f'  not verified: {rounds[None]}')
    cands = [r['puzzle'] for r in runs if verified_round(r) is None or verified_round(r) >= a.from_round]
    print(f'{len(cands)} candidates (round {a.from_round} or later, or never)')
    if a.candidates:
        with open(a.candidates, 'w') as f:
            f.write(''.join(p + '\n' for p in cands))
    if a.reruns:
        reruns = collections.defaultdict(list)
        for path in a.reruns:
            for r in load(path):
                reruns[r['puzzle']].append(r)
        rows = [(st.mean(r['trajectory_steps'] for r in rs), puzzle, rs) for puzzle, rs in reruns.items()]
        for mean, puzzle, rs in sorted(rows, reverse=True):
            each = ' / '.join(f"{r['trajectory_steps']}{'' if r['verified'] else '+'}" for r in rs)
            print(f'{mean:8.0f}  {puzzle}  {each}')


if __name__ == '__main__':
    main()
