#!/usr/bin/env python3
"""How far each GRAM task reaches beyond its own folders: for every task folder of the engine
(`engine/src/tasks/<task>/`), the code files outside it and outside the app's page folder of
the same name (`app/src/ui/<task>/`) that name the task. Comments and test code do not count
(`//` lines, `#[cfg(test)]` modules, files of tests, the e2e tests, benchmarks); a task's name is
its folder's name (for graph colouring both spellings; for the tasks named by an everyday word,
its module path and registry variants).

A task meant to live in its two folders plus one line per registry, the ceiling below says how
many such files each task may reach today; a change that makes a task reach a file more fails
here, and a change that frees one should lower its ceiling. Prints each task's files.

Usage: python3 tests/task_reach.py [ROOT]. Exit code 1 when a task is over its ceiling."""

import re
import subprocess
import sys
from pathlib import Path

# Files outside its folders each task may name (measured; lower it when one is freed).
# Graph colouring's 7: its two registries' lines and module lines, and `/train`, whose page, URL
# and lesson teach on 6-vertex colouring (the word is in their prose).
CEILING = {"boards": 5, "coloring": 7, "digits": 5, "nqueens": 13, "sudoku": 32, "tree": 10}
# What names a task in code: its folder's name, or, where that is an everyday word, its module
# path and its registry variants.
WORDS = {
    "coloring": r"colou?ring",
    "boards": r"tasks::boards|TaskId::(QueensBoards|SudokuGrids)",
    "tree": r"tasks::tree|TaskId::Tree\b",
    "digits": r"tasks::digits|TaskId::Digits\b",
}
CODE = (".rs", ".mjs", ".css", ".js", ".py")


def code_of(path: Path) -> list:
    """A file's code lines: comments and a trailing test module left out."""
    lines = []
    for line in path.read_text(errors="replace").split("\n"):
        if line.startswith("#[cfg(test)]"):
            break
        stripped = line.strip()
        if stripped.startswith(("//", "/*", "*", "#")) and not stripped.startswith(("#[", "#!")):
            continue
        lines.append(line)
    return lines


def is_test(rel: str) -> bool:
    return rel.startswith("tests/") or "/tests/" in rel or rel.endswith("tests.rs") or rel.startswith("bench") or "/benches/" in rel


def reach(root: Path, task: str, files: list) -> list:
    word = re.compile(WORDS.get(task, task), re.I)
    own = (f"engine/src/tasks/{task}/", f"app/src/ui/{task}/")
    out = []
    for rel in files:
        if rel.startswith(own) or is_test(rel) or not rel.endswith(CODE):
            continue
        if any(word.search(line) for line in code_of(root / rel)):
            out.append(rel)
    return out


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    files = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True).stdout.split()
    tasks = sorted(p.name for p in (root / "engine/src/tasks").iterdir() if p.is_dir())
    failed = False
    for task in tasks:
        found = reach(root, task, files)
        ceiling = CEILING.get(task)
        over = ceiling is None or len(found) > ceiling
        failed |= over
        mark = "OVER its ceiling" if over else f"ceiling {ceiling}"
        print(f"{task}: {len(found)} code files outside its folders name it ({mark})")
        for rel in found:
            print(f"    {rel}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
