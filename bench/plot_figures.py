#!/usr/bin/env python3
"""The GRAM paper's figures 12 and 13 as SVG, from the CSV files `native-trainer eval --csv` writes.

    python3 bench/plot_figures.py OUT_PREFIX LABEL=FILE.csv [LABEL=FILE.csv ...]

writes OUT_PREFIX-by-count.svg (accuracy and coverage against the number of valid answers,
the inputs grouped in powers of two: figure 12) and OUT_PREFIX-by-samples.svg (coverage
against the number of samples drawn, n = 1..N: figure 13), one line per LABEL. Standard
library only; the results pages in docs/results/ show the files it wrote under docs/figures/.
"""
import csv
import sys

COLOURS = ["#6d28d9", "#d97706", "#059669", "#dc2626", "#2563eb", "#6b7280"]
W, H, L, R, T, B = 540, 300, 56, 170, 30, 46


def read(path):
    rows = {"by_count": [], "by_samples": []}
    with open(path) as f:
        for r in csv.DictReader(f):
            rows[r["figure"]].append(r)
    return rows


def group_name(g):
    return str(g) if g <= 1 else f"{g}-{2 * g - 1}"


def svg(title, xlabel, xs, xticks, series, ylabel="%"):
    """series: [(label, colour, dash, [(x index, y)])]"""
    pw, ph = W - L - R, H - T - B
    n = max(len(xs) - 1, 1)
    px = lambda i: L + pw * i / n
    py = lambda y: T + ph * (1 - y / 100)
    # Tick labels wider than their spacing (about 6 px a character) alternate between two rows.
    crowded = max((len(t) for t in xticks if t), default=0) * 6.2 > pw / n
    extra = 12 if crowded else 0
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H + extra}" font-family="sans-serif" font-size="11">',
           f'<rect width="{W}" height="{H + extra}" fill="white"/>',
           f'<text x="{L}" y="16" font-size="13">{title}</text>']
    for y in range(0, 101, 25):
        out.append(f'<line x1="{L}" x2="{L + pw}" y1="{py(y)}" y2="{py(y)}" stroke="#e5e7eb"/>')
        out.append(f'<text x="{L - 6}" y="{py(y) + 4}" text-anchor="end">{y}{ylabel}</text>')
    for i, t in enumerate(xticks):
        if t:
            row = 12 if crowded and i % 2 else 0
            out.append(f'<text x="{px(i)}" y="{T + ph + 16 + row}" text-anchor="middle">{t}</text>')
    out.append(f'<text x="{L + pw / 2}" y="{H + extra - 8}" text-anchor="middle">{xlabel}</text>')
    out.append(f'<line x1="{L}" x2="{L}" y1="{T}" y2="{T + ph}" stroke="black"/>')
    out.append(f'<line x1="{L}" x2="{L + pw}" y1="{T + ph}" y2="{T + ph}" stroke="black"/>')
    for k, (label, colour, dash, pts) in enumerate(series):
        path = " ".join(f"{'M' if j == 0 else 'L'}{px(i):.1f},{py(y):.1f}" for j, (i, y) in enumerate(pts))
        out.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2" stroke-dasharray="{dash}"/>')
        for i, y in pts:
            out.append(f'<circle cx="{px(i):.1f}" cy="{py(y):.1f}" r="2.5" fill="{colour}"/>')
        ly = T + 14 + 16 * k
        out.append(f'<line x1="{L + pw + 10}" x2="{L + pw + 30}" y1="{ly - 4}" y2="{ly - 4}" stroke="{colour}" stroke-width="2" stroke-dasharray="{dash}"/>')
        out.append(f'<text x="{L + pw + 34}" y="{ly}">{label}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    prefix, specs = sys.argv[1], sys.argv[2:]
    data = [(s.split("=", 1)[0], read(s.split("=", 1)[1])) for s in specs]
    groups = sorted({int(r["x"]) for _, d in data for r in d["by_count"]})
    series = []
    for k, (label, d) in enumerate(data):
        by = {int(r["x"]): r for r in d["by_count"]}
        colour = COLOURS[k % len(COLOURS)]
        acc = [(i, float(by[g]["accuracy"])) for i, g in enumerate(groups) if g in by]
        cov = [(i, float(by[g]["coverage"])) for i, g in enumerate(groups) if g in by]
        series += [(f"{label} accuracy", colour, ""), (f"{label} coverage", colour, "5,3")]
        series[-2] += (acc,)
        series[-1] += (cov,)
    with open(f"{prefix}-by-count.svg", "w") as f:
        f.write(svg("Accuracy and coverage by number of valid answers", "valid answers of the input",
                    groups, [group_name(g) for g in groups], series))
    n = max(len(d["by_samples"]) for _, d in data)
    series = []
    for k, (label, d) in enumerate(data):
        pts = [(int(r["x"]) - 1, float(r["coverage"])) for r in d["by_samples"]]
        series.append((label, COLOURS[k % len(COLOURS)], "", pts))
    ticks = [str(i + 1) if (i + 1) in (1, 5, 10, 15, 20) or i + 1 == n else "" for i in range(n)]
    with open(f"{prefix}-by-samples.svg", "w") as f:
        f.write(svg("Coverage against samples drawn", "samples drawn (N)", list(range(n)), ticks, series))
    print(f"wrote {prefix}-by-count.svg and {prefix}-by-samples.svg")


if __name__ == "__main__":
    main()
