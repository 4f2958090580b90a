#!/usr/bin/env python3
"""The JEPA-Reasoner paper's Figure 2 and Table 4 as SVG, from the CSV files `native-trainer eval --csv` writes
for grammar weights.

    python3 bench/plot_cfg.py OUT_PREFIX LABEL=FILE.csv [LABEL=FILE.csv ...]

writes OUT_PREFIX-corruption.svg (accuracy over the first 4 tokens against the share of the
prefix corrupted, T solid and R dashed, one colour per LABEL; left absolute, right relative to
the model's own clean accuracy; dotted grey the Bayes-optimal completion, the ceiling, when the
first file has its `bayes` rows) and OUT_PREFIX-latent-noise.svg (accuracy over the
continuation's positions 5-8 against latent noise, C solid and R dashed). Standard library only.
"""
import csv
import sys

COLOURS = ["#6d28d9", "#d97706", "#059669", "#dc2626"]
CEILING = "#6b7280"
W, H, L, T, B, GAP = 760, 300, 52, 30, 46, 60


def read(path):
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            rows.append(r)
    return rows


def panel(out, x0, pw, ph, title, xs, xlabel, ymin, ymax, series, even=False):
    """even: the levels evenly spaced (the noise levels are not)."""
    if even:
        px = lambda x: x0 + pw * xs.index(x) / (len(xs) - 1)
    else:
        px = lambda x: x0 + pw * (x - xs[0]) / (xs[-1] - xs[0])
    py = lambda y: T + ph * (1 - (y - ymin) / (ymax - ymin))
    out.append(f'<text x="{x0}" y="{T - 10}" font-size="12">{title}</text>')
    step = (ymax - ymin) / 4
    for k in range(5):
        y = ymin + k * step
        out.append(f'<line x1="{x0}" x2="{x0 + pw}" y1="{py(y):.1f}" y2="{py(y):.1f}" stroke="#e5e7eb"/>')
        out.append(f'<text x="{x0 - 6}" y="{py(y) + 4:.1f}" text-anchor="end">{y:.0f}</text>')
    for x in xs:
        out.append(f'<text x="{px(x):.1f}" y="{T + ph + 16}" text-anchor="middle">{x * 100:.0f}%</text>')
    out.append(f'<text x="{x0 + pw / 2}" y="{T + ph + 34}" text-anchor="middle">{xlabel}</text>')
    for colour, dash, pts in series:
        d = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
        out.append(f'<polyline points="{d}" fill="none" stroke="{colour}" stroke-width="2" stroke-dasharray="{dash}"/>')
        for x, y in pts:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="2.5" fill="{colour}"/>')


def legend(out, x, labels, pair):
    for i, label in enumerate(labels):
        c = COLOURS[i % len(COLOURS)]
        for j, (name, dash) in enumerate(pair):
            y = T + 14 * (2 * i + j)
            out.append(f'<line x1="{x}" x2="{x + 22}" y1="{y}" y2="{y}" stroke="{c}" stroke-width="2" stroke-dasharray="{dash}"/>')
            out.append(f'<text x="{x + 28}" y="{y + 4}">{label} {name}</text>')


def main():
    prefix, pairs = sys.argv[1], [a.split("=", 1) for a in sys.argv[2:]]
    data = [(label, read(path)) for label, path in pairs]
    pw, ph = (W - L - GAP - 150) / 2, H - T - B
    # Figure 2: corruption.
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
           f'<rect width="{W}" height="{H}" fill="white"/>']
    xs = sorted({float(r["level"]) for _, rows in data for r in rows if r["sweep"] == "corruption"})
    for rel, x0 in [(False, L), (True, L + pw + GAP)]:
        series = []
        for i, (label, rows) in enumerate(data):
            for model, dash in [("t", ""), ("r", "5 3")]:
                pts = [(float(r["level"]), float(r["acc_k4"])) for r in rows if r["sweep"] == "corruption" and r["model"] == model]
                if rel and pts:
                    clean = pts[0][1]
                    pts = [(x, 100 * y / clean) for x, y in pts]
                series.append((COLOURS[i % len(COLOURS)], dash, pts))
        # The ceiling (the Bayes-optimal completion), where the first file has it: the same
        # completions for every file of one part.
        ceiling = [(float(r["level"]), float(r["acc_k4"])) for r in data[0][1] if r["sweep"] == "corruption" and r["model"] == "bayes"]
        if rel and ceiling:
            ceiling = [(x, 100 * y / ceiling[0][1]) for x, y in ceiling]
        if ceiling:
            series.append((CEILING, "2 3", ceiling))
        lo = 0 if not rel else min(y for _, _, p in series for _, y in p) // 10 * 10
        hi = 100 if rel else max(y for _, _, p in series for _, y in p) // 10 * 10 + 10
        title = "relative to the clean accuracy (%)" if rel else "4-token accuracy (%)"
        panel(out, x0, pw, ph, title, xs, "share of the prefix corrupted", lo, max(hi, 100) if rel else hi, series)
    legend(out, L + 2 * pw + GAP + 14, [l for l, _ in data], [("T", ""), ("R", "5 3")])
    if any(r["model"] == "bayes" for r in data[0][1]):
        x, y = L + 2 * pw + GAP + 14, T + 14 * 2 * len(data)
        out.append(f'<line x1="{x}" x2="{x + 22}" y1="{y}" y2="{y}" stroke="{CEILING}" stroke-width="2" stroke-dasharray="2 3"/>')
        out.append(f'<text x="{x + 28}" y="{y + 4}">Bayes-optimal</text>')
    out.append("</svg>")
    open(f"{prefix}-corruption.svg", "w").write("\n".join(out) + "\n")
    # Table 4: latent noise.
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W // 2 + 150}" height="{H}" font-family="sans-serif" font-size="11">',
           f'<rect width="{W // 2 + 150}" height="{H}" fill="white"/>']
    xs = sorted({float(r["level"]) for _, rows in data for r in rows if r["sweep"] == "latent-noise"})
    series = []
    for i, (label, rows) in enumerate(data):
        for model, dash in [("c", ""), ("r", "5 3")]:
            pts = [(float(r["level"]), float(r["acc_k4"])) for r in rows if r["sweep"] == "latent-noise" and r["model"] == model]
            series.append((COLOURS[i % len(COLOURS)], dash, pts))
    hi = max(y for _, _, p in series for _, y in p) // 10 * 10 + 10
    panel(out, L, pw, ph, "accuracy on positions 5-8 (%)", xs, "latent noise (sigma / max |h|; levels evenly spaced)", 0, hi, series, even=True)
    legend(out, L + pw + 14, [l for l, _ in data], [("C", ""), ("R", "5 3")])
    out.append("</svg>")
    open(f"{prefix}-latent-noise.svg", "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
