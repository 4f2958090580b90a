#!/usr/bin/env python3
"""The LLM-JEPA paper's 2-D picture of the two views, as SVG, from the projection CSVs that
`native-trainer eval --weights W --csv OUT.csv` writes beside OUT.csv (OUT.projection.csv: each
test pair's description and regex embedding on the first two principal axes of both views).

    python3 bench/plot_regex.py OUT.svg LABEL=FILE.projection.csv [LABEL=FILE.projection.csv ...]

One panel per LABEL: descriptions as circles, regexes as squares, coloured by meaning family,
a grey line joining the two views of each pair (the first 300 pairs). Standard library only.
"""
import csv
import sys

FAMILY_COLOURS = ["#2563eb", "#db2777", "#059669", "#d97706", "#6d28d9", "#dc2626", "#0891b2", "#65a30d",
                  "#9333ea", "#ea580c", "#0d9488", "#be123c", "#4f46e5", "#a16207", "#15803d", "#7c3aed"]
SIZE, PAD, PAIRS = 300, 24, 300


def read(path):
    views = {"text": {}, "code": {}}
    with open(path) as f:
        for r in csv.DictReader(f):
            views[r["view"]][int(r["pair"])] = (float(r["x"]), float(r["y"]), r["family"])
    return views


def panel(out, x0, label, views, families):
    pairs = sorted(set(views["text"]) & set(views["code"]))[:PAIRS]
    pts = [views[v][i] for v in ("text", "code") for i in pairs]
    span = max(max(abs(p[0]), abs(p[1])) for p in pts) or 1.0
    at = lambda p: (x0 + SIZE / 2 + (SIZE / 2 - PAD) * p[0] / span, PAD + 20 + SIZE / 2 - (SIZE / 2 - PAD) * p[1] / span)
    out.append(f'<text x="{x0 + SIZE / 2}" y="16" text-anchor="middle" font-size="13">{label}</text>')
    out.append(f'<rect x="{x0}" y="{PAD + 20 - SIZE / 2 + SIZE / 2}" width="{SIZE}" height="{SIZE}" fill="#fafafa" stroke="#d1d5db"/>')
    for i in pairs:
        (tx, ty), (cx, cy) = at(views["text"][i]), at(views["code"][i])
        out.append(f'<line x1="{tx:.1f}" y1="{ty:.1f}" x2="{cx:.1f}" y2="{cy:.1f}" stroke="#9ca3af" stroke-width="0.5"/>')
    for i in pairs:
        t, c = views["text"][i], views["code"][i]
        colour = FAMILY_COLOURS[families.index(t[2]) % len(FAMILY_COLOURS)]
        (tx, ty), (cx, cy) = at(t), at(c)
        out.append(f'<circle cx="{tx:.1f}" cy="{ty:.1f}" r="2.6" fill="{colour}" fill-opacity="0.75"/>')
        out.append(f'<rect x="{cx - 2.5:.1f}" y="{cy - 2.5:.1f}" width="5" height="5" fill="{colour}" fill-opacity="0.75"/>')


def main():
    out_path, specs = sys.argv[1], [a.split("=", 1) for a in sys.argv[2:]]
    data = [(label, read(path)) for label, path in specs]
    families = sorted({p[2] for _, v in data for p in v["text"].values()})
    width = len(data) * (SIZE + 20) + 20
    height = SIZE + PAD + 60 + 18 * ((len(families) + 3) // 4)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>']
    for k, (label, views) in enumerate(data):
        panel(out, 20 + k * (SIZE + 20), label, views, families)
    y0 = SIZE + PAD + 44
    for j, fam in enumerate(families):
        x, y = 20 + (j % 4) * 170, y0 + 18 * (j // 4)
        out.append(f'<circle cx="{x}" cy="{y - 4}" r="4" fill="{FAMILY_COLOURS[j % len(FAMILY_COLOURS)]}"/><text x="{x + 8}" y="{y}">{fam}</text>')
    out.append(f'<text x="{width - 20}" y="{height - 6}" text-anchor="end" fill="#6b7280">circle: description, square: its regex; a line joins the two views of one pair</text>')
    out.append("</svg>")
    with open(out_path, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
