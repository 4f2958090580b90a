#!/usr/bin/env python3
"""Independent re-check of the regex-writing task, without the engine's code.

1. The split: every line `native-trainer split --task regex --part P` prints is
   `description<TAB>regex`, every regex compiles with Python's `re`, no regex of the test part is
   a regex of the train part, and the test part is 10-20% of all lines.
2. The answers: `solve --task regex` writes a regex for every test description; each is judged
   against the reference by Python's `re.fullmatch` (a regex accepts a line when it matches the
   whole line) on a probe set made here from the pieces the two regexes mention (their literal
   words; a few characters of every class: `a e i o u` for [aeiou], `a b q z` for [a-z], ...;
   plus ` `, `x`, `B`, `7`, `-`): every string of up to 3 pieces, thousands of seeded random
   strings of 4-9 pieces, and lines sampled from each regex by walking Python's own parse tree
   (with one-edit variants of each), so rare accept cases such as "dog ... dog ... dog" are
   probed. An answer is semantically right iff every probe gets the same verdict under both
   regexes (one that Python cannot compile is wrong). Probes can miss a difference, never invent
   one (under Python's semantics): this figure bounds the exact automaton comparison from above.
3. Compares its semantic and exact accuracy with the `semantic %` and `exact %` that
   `native-trainer eval --part test` prints: exact must agree to the printed digit, semantic
   within 1.0 point; the shipped weights must reach 80% semantic accuracy (the project's bar).

Usage: independent_regex.py <path to native-trainer> [<weights .bpk or run directory>]
Without weights: each of the shipped ones, public/weights/<name>.bpk for every name in SHIPPED
(its .json manifest says task "regex" and that name); if there are none yet, only the split is
checked.
"""
import glob
import itertools
import json
import os
import random
import re
import subprocess
import sys
import time

try:
    import re._parser as sre  # Python 3.11+
except ImportError:  # pragma: no cover - older Pythons
    import sre_parse as sre

SHIPPED = ("regex-lm", "regex-llm-jepa")  # LM only, and LM + LLM-JEPA
BAR = 80.0  # semantic % the shipped weights must reach on the test part
SEMANTIC_TOLERANCE = 1.0  # percentage points between this script's figure and eval's
EXTRA = [" ", "x", "B", "7", "-"]
# Characters a class contributes to the pieces: its endpoints and these (spec: b q z for [a-z]).
RANGE_PICKS = {("a", "z"): "bqz", ("A", "Z"): "AQZ", ("0", "9"): "059"}
CATEGORY_PICKS = {
    sre.CATEGORY_DIGIT: "059", sre.CATEGORY_NOT_DIGIT: "a-", sre.CATEGORY_SPACE: " ",
    sre.CATEGORY_NOT_SPACE: "a", sre.CATEGORY_WORD: "aZ5_", sre.CATEGORY_NOT_WORD: "- ",
}
SAMPLES = 300  # lines drawn from each regex's parse tree (each also edited once)
RANDOM_STRINGS = 3000  # random strings of 4-9 pieces per (reference, answer) pair
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(args, stdin=None):
    out = subprocess.run(args, input=stdin, capture_output=True, text=True)
    return out.returncode, out.stdout, out.stderr


# ---------------------------------------------------------------- the regexes, one cache each

class Regex:
    """One distinct regex text: its compiled pattern (None if Python rejects it), its pieces and
    the probe lines sampled from it."""

    def __init__(self, text):
        self.text = text
        try:
            self.pattern = re.compile(text)
            self.tree = sre.parse(text)
        except (re.error, RecursionError, OverflowError):
            self.pattern = self.tree = None
        self.pieces = set()
        if self.tree is not None:
            collect_pieces(list(self.tree), self.pieces)
        self._samples = None

    def samples(self):
        """Lines drawn from the parse tree, then one edit of each (delete, insert or replace)."""
        if self._samples is None:
            rng = random.Random("samples\0" + self.text)
            pieces = sorted(self.pieces | set(EXTRA))
            universe = sorted({ch for p in pieces for ch in p})
            lines = set()
            for _ in range(SAMPLES):
                s = draw(list(self.tree), rng, universe, {})
                lines.add(s)
                i = rng.randint(0, len(s))
                edit = rng.randrange(3)
                if edit == 0 and s:
                    i = min(i, len(s) - 1)
                    lines.add(s[:i] + s[i + 1:])
                elif edit == 1:
                    lines.add(s[:i] + rng.choice(pieces) + s[i:])
                elif s:
                    i = min(i, len(s) - 1)
                    lines.add(s[:i] + rng.choice(universe) + s[i + 1:])
            self._samples = sorted(lines)
        return self._samples


CACHE = {}


def regex(text):
    if text not in CACHE:
        CACHE[text] = Regex(text)
    return CACHE[text]


def class_picks(items):
    out = set()
    for op, av in items:
        if op == sre.LITERAL:
            out.add(chr(av))
        elif op == sre.RANGE:
            lo, hi = chr(av[0]), chr(av[1])
            out |= {lo, hi} | set(RANGE_PICKS.get((lo, hi), chr((av[0] + av[1]) // 2)))
        elif op == sre.CATEGORY:
            out |= set(CATEGORY_PICKS.get(av, ""))
    return out


def collect_pieces(seq, out):
    """Literal words (maximal runs of literal characters) and the picks of every class."""
    run_ = ""
    for op, av in seq:
        if op == sre.LITERAL:
            run_ += chr(av)
            continue
        if run_:
            out.add(run_)
            run_ = ""
        if op == sre.NOT_LITERAL:
            out.add(chr(av))
        elif op == sre.IN:
            out |= class_picks(av)
        elif op == sre.SUBPATTERN:
            collect_pieces(list(av[-1]), out)
        elif op == sre.BRANCH:
            for alt in av[1]:
                collect_pieces(list(alt), out)
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", None)):
            collect_pieces(list(av[2]), out)
        elif op == getattr(sre, "ATOMIC_GROUP", None):
            collect_pieces(list(av), out)
    if run_:
        out.add(run_)


def in_class(ch, items):
    c, negate, hit = ord(ch), False, False
    for op, av in items:
        if op == sre.NEGATE:
            negate = True
        elif op == sre.LITERAL:
            hit |= c == av
        elif op == sre.RANGE:
            hit |= av[0] <= c <= av[1]
        elif op == sre.CATEGORY:
            hit |= {
                sre.CATEGORY_DIGIT: ch.isdigit(), sre.CATEGORY_NOT_DIGIT: not ch.isdigit(),
                sre.CATEGORY_SPACE: ch.isspace(), sre.CATEGORY_NOT_SPACE: not ch.isspace(),
                sre.CATEGORY_WORD: ch.isalnum() or ch == "_",
                sre.CATEGORY_NOT_WORD: not (ch.isalnum() or ch == "_"),
            }.get(av, False)
    return hit != negate


FITS = {}  # (class, universe) -> the universe's characters in the class


def draw(seq, rng, universe, groups):
    """One line from a parsed pattern: a random branch, a small random count for each repeat, a
    random character of the universe for `.` and for each class."""
    out = []
    for op, av in seq:
        if op == sre.LITERAL:
            out.append(chr(av))
        elif op == sre.NOT_LITERAL:
            out.append(rng.choice([c for c in universe if ord(c) != av] or ["\x01"]))
        elif op == sre.ANY:
            out.append(rng.choice(universe))
        elif op == sre.IN:
            key = (repr(av), "".join(universe))
            if key not in FITS:
                FITS[key] = [c for c in universe if in_class(c, av)] or sorted(
                    c for c in class_picks(av) if in_class(c, av))
            fits = FITS[key]
            if fits:
                out.append(rng.choice(fits))
        elif op == sre.SUBPATTERN:
            s = draw(list(av[-1]), rng, universe, groups)
            if av[0] is not None:
                groups[av[0]] = s
            out.append(s)
        elif op == sre.BRANCH:
            out.append(draw(list(rng.choice(av[1])), rng, universe, groups))
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", None)):
            lo, hi, item = av
            n = lo + rng.choice([0, 0, 1, 1, 2, 3, 4])
            if hi != sre.MAXREPEAT:
                n = min(n, hi)
            out.extend(draw(list(item), rng, universe, groups) for _ in range(n))
        elif op == sre.GROUPREF:
            out.append(groups.get(av, ""))
        elif op == getattr(sre, "ATOMIC_GROUP", None):
            out.append(draw(list(av), rng, universe, groups))
        elif op == sre.GROUPREF_EXISTS:
            group, yes, no = av
            branch = yes if group in groups else no
            if branch is not None:
                out.append(draw(list(branch), rng, universe, groups))
        # AT (anchors), ASSERT, ASSERT_NOT and anything else: nothing
    return "".join(out)


# ---------------------------------------------------------------- judging one answer

def probes(ref, ans):
    """The probe lines for a pair, most telling first: both regexes' samples, every string of up
    to 3 pieces, then seeded random strings of 4-9 pieces."""
    yield from ref.samples()
    yield from ans.samples()
    pieces = sorted(ref.pieces | ans.pieces | set(EXTRA))
    for k in range(4):
        for combo in itertools.product(pieces, repeat=k):
            yield "".join(combo)
    rng = random.Random("random\0" + ref.text + "\0" + ans.text)
    for _ in range(RANDOM_STRINGS):
        yield "".join(rng.choice(pieces) for _ in range(rng.randint(4, 9)))


VERDICTS = {}
UNCOMPILABLE = object()  # witness() of an answer Python cannot compile


def witness(ref_text, ans_text):
    """None when every probe gets the same verdict under both regexes (the same language as far
    as these probes tell), else a line on which they disagree, or UNCOMPILABLE."""
    key = (ref_text, ans_text)
    if key not in VERDICTS:
        ref, ans = regex(ref_text), regex(ans_text)
        assert ref.pattern is not None, f"reference {ref_text!r} does not compile"
        found = None
        if ans.pattern is None:
            found = UNCOMPILABLE
        elif ref_text != ans_text:  # the same text is the same language: nothing to probe
            rf, af = ref.pattern.fullmatch, ans.pattern.fullmatch
            for line in probes(ref, ans):
                if (rf(line) is None) != (af(line) is None):
                    found = line
                    break
        VERDICTS[key] = found
    return VERDICTS[key]


def self_test():
    """The probes must tell these apart (and must not tell the equivalent ones apart)."""
    same = [(".*(dog|cat).*", ".*(cat|dog).*"), ("(.*dog){2,}.*", ".*dog.*dog.*"),
            (".*(dog.*cat|cat.*dog).*", ".*(cat.*dog|dog.*cat).*"), ("(dog)+", "dog(dog)*")]
    differ = [("(.*dog){3,}.*", "(.*dog){2,}.*"), ("(.*dog){3,}.*", "(.*dog){4,}.*"),
              ("[a-z]{8}", "[a-z]{8,}"), ("[^aeiou]*", "[^a-z]*"), ("dog.*", ".*dog"),
              (".*dog.*[0-9].*", ".*[0-9].*dog.*"), ("[aeiou]+", "[a-z]+"), ("(dog)+", "dog.*"),
              (".*(dog|cat|sun).*", ".*(dog|cat).*"), (".{5}", ".{5,}"), (".*", "dog[")]
    for a, b in same:
        assert witness(a, b) is None, f"self-test: probes tell equivalent {a} and {b} apart"
    for a, b in differ:
        assert witness(a, b) is not None, f"self-test: probes miss the difference of {a} and {b}"


# ---------------------------------------------------------------- the checks

def split_lines(trainer, part):
    rc, out, err = run([trainer, "split", "--task", "regex", "--part", part])
    assert rc == 0, f"split --part {part} failed: {err.strip()}"
    return out.splitlines()


def check_split(trainer):
    parts = {}
    for part in ("train", "validation", "test"):
        rows = []
        for n, line in enumerate(split_lines(trainer, part), 1):
            fields = line.split("\t")
            assert len(fields) == 2 and all(f.strip() for f in fields), \
                f"{part} line {n} is not description<TAB>regex: {line!r}"
            assert regex(fields[1]).pattern is not None, \
                f"{part} line {n}: the regex {fields[1]!r} does not compile in Python"
            rows.append((fields[0], fields[1]))
        assert rows, f"the {part} part is empty"
        parts[part] = rows
    train = {r for _, r in parts["train"]}
    leaked = sorted({r for _, r in parts["test"]} & train)
    assert not leaked, f"{len(leaked)} test regexes are also train regexes, e.g. {leaked[:3]}"
    total = sum(len(rows) for rows in parts.values())
    share = 100.0 * len(parts["test"]) / total
    assert 10.0 <= share <= 20.0, f"the test part is {share:.1f}% of all lines, not 10-20%"
    print(f"regex split: train {len(parts['train'])}, validation {len(parts['validation'])}, "
          f"test {len(parts['test'])} ({share:.1f}% of {total}; "
          f"{len({r for _, r in parts['test']})} test regexes, none in train): every line is "
          f"description<TAB>regex and every regex compiles")
    return parts


def shipped_weights():
    found = []
    for path in sorted(glob.glob(os.path.join(REPO, "public", "weights", "*.json"))):
        try:
            with open(path) as f:
                manifest = json.load(f)
        except (OSError, ValueError):
            continue
        if manifest.get("task") == "regex" and manifest.get("name") in SHIPPED:
            bpk = path[:-len(".json")] + ".bpk"
            if os.path.exists(bpk):
                found.append(os.path.relpath(bpk))
    return found


def eval_figures(trainer, weights):
    """`semantic %` and `exact %` of the weights' row of `eval --part test`."""
    rc, out, err = run([trainer, "eval", "--weights", weights, "--part", "test"])
    assert rc == 0, f"eval failed: {err.strip()[-2000:]}"
    header, rows = None, []
    for line in (out + "\n" + err).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if "semantic %" in cells and "exact %" in cells:
            header = cells
        elif header and len(cells) == len(header) and not set(cells[0]) <= set("-: "):
            rows.append(cells)
    assert header and rows, f"no `semantic %` table in eval's output:\n{out}{err}"
    mine = [r for r in rows if r[0] == weights] or [
        r for r in rows if os.path.realpath(r[0]) == os.path.realpath(weights)] or rows[-1:]
    row = mine[0]
    return float(row[header.index("semantic %")]), float(row[header.index("exact %")])


def check(trainer, weights=None):
    start = time.time()
    self_test()
    parts = check_split(trainer)
    shipped = shipped_weights()
    if weights is None:
        if not shipped:
            print(f"regex: no shipped regex weights yet (public/weights/*.json with task \"regex\" "
                  f"and a name in {SHIPPED}): only the split is checked")
            return
        for w in shipped:
            check_answers(trainer, parts, w, True)
    else:
        check_answers(trainer, parts, weights, any(os.path.realpath(weights) == os.path.realpath(w) for w in shipped))
    print(f"regex: done ({time.time() - start:.1f} s)")


def check_answers(trainer, parts, weights, is_shipped):
    start = time.time()

    test = parts["test"]
    descriptions = [d for d, _ in test]
    rc, out, err = run([trainer, "solve", "--task", "regex", "--weights", weights],
                       stdin="\n".join(descriptions) + "\n")
    answers = out.splitlines()
    assert len(answers) == len(test), \
        f"solve wrote {len(answers)} lines for {len(test)} descriptions (exit {rc}): {err.strip()[-2000:]}"
    semantic = exact = 0
    wrong = []
    for (description, reference), line in zip(test, answers):
        row = json.loads(line)
        assert row.get("input") == description, f"solve answered {row!r} for {description!r}"
        written = row.get("regex")
        if not isinstance(written, str):
            wrong.append((description, reference, row.get("error", "no regex"), None))
            continue
        exact += written == reference
        w = witness(reference, written)
        if w is None:
            semantic += 1
        else:
            wrong.append((description, reference, written, w))
    n = len(test)
    sem_pct, exact_pct = 100.0 * semantic / n, 100.0 * exact / n
    print(f"regex solve ({weights}): {n} test descriptions; semantic {semantic}/{n} = {sem_pct:.2f}%, "
          f"exact {exact}/{n} = {exact_pct:.2f}% (Python re.fullmatch on probe sets made here)")
    for description, reference, written, w in wrong[:5]:
        why = "Python cannot compile it" if w is UNCOMPILABLE else (
            "no regex" if w is None else f"they disagree on the line {w!r}")
        print(f"  wrong: {description!r}: reference {reference!r}, written {written!r}: {why}")

    rust_sem, rust_exact = eval_figures(trainer, weights)
    print(f"regex eval --part test:   independent  vs  Rust\n"
          f"  semantic %              {sem_pct:10.2f}  {rust_sem:6.2f}\n"
          f"  exact %                 {exact_pct:10.2f}  {rust_exact:6.2f}")
    assert abs(exact_pct - rust_exact) <= 0.005 + 1e-9, \
        f"exact accuracy differs: {exact_pct:.2f}% here, {rust_exact:.2f}% from eval"
    assert abs(sem_pct - rust_sem) <= SEMANTIC_TOLERANCE, \
        f"semantic accuracy differs by more than {SEMANTIC_TOLERANCE} point: " \
        f"{sem_pct:.2f}% here, {rust_sem:.2f}% from eval"
    if is_shipped:
        assert sem_pct >= BAR, \
            f"the shipped regex weights are semantically right on {sem_pct:.2f}% of the test part, " \
            f"below the project's bar of {BAR:.0f}%"
    print(f"regex: independent and Rust figures agree ({time.time() - start:.1f} s)")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    try:
        check(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
    except AssertionError as e:
        print(f"FAIL: {e}", file=sys.stderr)
        sys.exit(1)
