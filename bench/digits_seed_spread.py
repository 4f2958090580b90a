#!/usr/bin/env python3
"""IS and FID of a digits model after 1..64 supervision steps over several sampling seeds:
the mean, the standard deviation and each seed's value (the claim that quality rises monotonically from 8 to 64 steps).

    python3 bench/digits_seed_spread.py target/release/native-trainer public/weights/gram-digits.bpk [seeds] [samples]

Runs `native-trainer eval --weights W --samples S --steps 64 --seed K` for each seed (default
0-4, 500 samples: the recorded eval's settings) and reads its step table.
"""
import re
import statistics
import subprocess
import sys

ROW = re.compile(r"\| (\d+) \| ([\d.]+) \| ([\d.]+) \|")


def steps_table(binary, weights, seed, samples):
    out = subprocess.run([binary, "eval", "--weights", weights, "--samples", str(samples), "--steps", "64", "--seed", str(seed)],
                         check=True, capture_output=True, text=True).stdout
    return {int(m[1]): (float(m[2]), float(m[3])) for m in map(ROW.match, out.splitlines()) if m}


def main():
    binary, weights = sys.argv[1], sys.argv[2]
    seeds = range(int(sys.argv[3])) if len(sys.argv) > 3 else range(5)
    samples = int(sys.argv[4]) if len(sys.argv) > 4 else 500
    tables = [steps_table(binary, weights, s, samples) for s in seeds]
    print(f"| steps | IS mean ± sd | FID mean ± sd | IS by seed {', '.join(map(str, seeds))} |")
    print("| --- | --- | --- | --- |")
    for step in sorted(tables[0]):
        is_, fid = [t[step][0] for t in tables], [t[step][1] for t in tables]
        sd = lambda xs: statistics.stdev(xs) if len(xs) > 1 else 0.0
        print(f"| {step} | {statistics.mean(is_):.2f} ± {sd(is_):.2f} | {statistics.mean(fid):.1f} ± {sd(fid):.1f} | {', '.join(f'{x:.2f}' for x in is_)} |")
    mono = sum(all(t[a][0] < t[b][0] for a, b in zip((8, 16, 32), (16, 32, 64))) for t in tables)
    fid_mono = sum(all(t[a][1] > t[b][1] for a, b in zip((8, 16, 32), (16, 32, 64))) for t in tables)
    print(f"IS rises at every step from 8 to 64 in {mono} of {len(tables)} seeds; FID falls at every step in {fid_mono} of {len(tables)}")


if __name__ == "__main__":
    main()
