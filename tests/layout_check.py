#!/usr/bin/env python3
"""The layout rules of docs/ARCHITECTURE.md, checked on every crate's sources:

1. no source file over 400 lines, not counting its `#[cfg(test)]` module (a test module at the
   end of a file is left out; files named `*tests.rs` and files under `tests/` and `benches/`
   are tests);
2. no import circle between modules: for every `crate::`/`super::`/`self::` path a module names,
   an edge to the deepest module that path reaches; edges between a module and its own ancestor
   or descendant are a folder's re-exports, not a circle. Any strongly connected component of
   more than one module is reported with the lines that make it;
3. no function over 80 lines in the engine and the trainer (the training loops stay flat and
   readable; tests aside).

Usage: python3 tests/layout_check.py [ROOT]. Exit code 1 on any violation."""

import re
import sys
from pathlib import Path

MAX_LINES = 400
MAX_FN_LINES = 80
# Crates whose functions must stay short (the app's components are view! markup, measured apart).
SHORT_FN_CRATES = ["engine", "native-trainer"]
CRATES = ["engine", "native-trainer", "app", "xtask"]


def module_path(src: Path, file: Path):
    rel = file.relative_to(src).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "mod" or (len(parts) == 1 and parts[0] in ("lib", "main")):
        parts = parts[:-1]
    if parts and parts[0] == "bin":
        return None  # binaries are their own crates
    return tuple(parts)


def code_lines(text: str) -> int:
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("#[cfg(test)]") and i + 1 < len(lines) and lines[i + 1].startswith("mod "):
            return i
    return len(lines)


def resolve(path_parts, here, modules, is_mod_file):
    """The deepest module named by a `use` path, from the module `here`."""
    if not path_parts:
        return None
    head, rest = path_parts[0], path_parts[1:]
    if head == "crate":
        base = ()
    elif head == "self":
        base = here
    elif head == "super":
        base = here[:-1]
        while rest and rest[0] == "super":
            base, rest = base[:-1], rest[1:]
    else:
        return None
    target = base
    for p in rest:
        if target + (p,) in modules:
            target = target + (p,)
        else:
            break
    return target


USE_RE = re.compile(r"\b((?:crate|super|self)(?:::[A-Za-z_][A-Za-z0-9_]*)+)(::\{([^}]*)\})?")


def edges_of(text, here, modules, is_mod_file):
    out = []
    for lineno, line in enumerate(text.split("\n"), 1):
        if line.startswith("#[cfg(test)]"):
            break
        if line.lstrip().startswith("//"):
            continue
        for m in USE_RE.finditer(line):
            parts = m.group(1).split("::")
            targets = []
            if m.group(3):
                for item in m.group(3).split(","):
                    item = item.strip().split(" as ")[0].split("::")[0].strip()
                    if item and item != "self":
                        targets.append(resolve(parts + [item], here, modules, is_mod_file))
            targets.append(resolve(parts, here, modules, is_mod_file))
            for t in targets:
                if t is None or t == here:
                    continue
                if t[: len(here)] == here or here[: len(t)] == t:
                    continue  # ancestor / descendant: a folder and its own files
                out.append((t, lineno, line.strip()))
    return out


FN_RE = re.compile(r"^(\s*)(pub(\([a-z]+\))? )?(async )?(const )?fn (\w+)")


def long_functions(root: Path, file: Path):
    lines = file.read_text().split("\n")[: code_lines(file.read_text())]
    out = []
    for i, line in enumerate(lines):
        m = FN_RE.match(line)
        if not m or line.rstrip().endswith(";"):
            continue
        for j in range(i + 1, len(lines)):
            if lines[j] == m.group(1) + "}":
                if j - i + 1 > MAX_FN_LINES:
                    out.append(f"{file.relative_to(root)}:{i + 1}: fn {m.group(6)} is {j - i + 1} lines (limit {MAX_FN_LINES})")
                break
    return out


def sccs(graph):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in list(graph):
        if v not in index:
            strong(v)
    return out


def check_crate(root: Path, crate: str):
    problems = []
    src = root / crate / "src"
    files = sorted(src.rglob("*.rs"))
    modules = {}
    # Test-only files (`#[cfg(test)] mod x_tests;`) are tests, like the test modules inside files.
    files = [f for f in files if not f.stem.endswith("tests")]
    for f in files:
        mp = module_path(src, f)
        if mp is not None:
            modules[mp] = f
    for f in files:
        n = code_lines(f.read_text())
        if n > MAX_LINES:
            problems.append(f"{f.relative_to(root)}: {n} lines (limit {MAX_LINES}, tests aside)")
    if crate in SHORT_FN_CRATES:
        for f in files:
            problems += long_functions(root, f)
    graph = {}
    for mp, f in modules.items():
        for target, lineno, line in edges_of(f.read_text(), mp, modules, f.name == "mod.rs"):
            # Attribute the edge to the top-most module pair that are not nested in each other.
            graph.setdefault(mp, {}).setdefault(target, (f, lineno, line))
    # Lift edges to siblings: a -> b where b is inside a sibling of a counts between the siblings too.
    lifted = {}
    for a, targets in graph.items():
        for b, why in targets.items():
            k = 0
            while k < min(len(a), len(b)) and a[k] == b[k]:
                k += 1
            pa, pb = a[: k + 1], b[: k + 1]
            lifted.setdefault(pa, {}).setdefault(pb, why)
    for comp in sccs(lifted):
        if len(comp) > 1:
            names = ", ".join("::".join(c) or "crate" for c in sorted(comp))
            detail = []
            for a in comp:
                for b, (f, lineno, line) in lifted.get(a, {}).items():
                    if b in comp:
                        detail.append(f"    {f.relative_to(root)}:{lineno}: {line}")
            problems.append(f"{crate}: import circle between {names}\n" + "\n".join(detail))
    return problems, len(files)


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    problems, total = [], 0
    for crate in CRATES:
        p, n = check_crate(root, crate)
        problems += p
        total += n
    for p in problems:
        print(p)
    print(f"layout: {total} source files in {len(CRATES)} crates, {len(problems)} problem(s)")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
