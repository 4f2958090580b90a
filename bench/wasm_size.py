#!/usr/bin/env python3
"""Where the bytes of a wasm binary go: code size per crate, from the function names in the
`name` section of rustc's output (before wasm-bindgen and wasm-opt strip it).

    python3 bench/wasm_size.py $CARGO_TARGET_DIR/wasm32-unknown-unknown/release/worker_webgpu.wasm   (or worker_cpu.wasm, app.wasm)

Prints the code bytes per crate (the first path segment of each demangled-ish symbol), largest
first, and the share of the code section. A size breakdown for docs/speed.md, not a test.
"""

import re
import sys
from collections import Counter


def leb(data, i):
    result = shift = 0
    while True:
        b = data[i]
        i += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return result, i


def sections(data):
    i = 8
    while i < len(data):
        sid = data[i]
        size, j = leb(data, i + 1)
        yield sid, data[j:j + size]
        i = j + size


def imported_functions(body):
    count, i = leb(body, 0)
    funcs = 0
    for _ in range(count):
        for _ in range(2):  # module, field
            n, i = leb(body, i)
            i += n
        kind = body[i]
        i += 1
        if kind == 0:
            _, i = leb(body, i)
            funcs += 1
        elif kind == 1:
            i += 1
            flags, i = leb(body, i)
            _, i = leb(body, i)
            if flags & 1:
                _, i = leb(body, i)
        elif kind == 2:
            flags, i = leb(body, i)
            _, i = leb(body, i)
            if flags & 1:
                _, i = leb(body, i)
        elif kind == 3:
            i += 2
        elif kind == 4:
            i += 1
            _, i = leb(body, i)
    return funcs


def crate_of(name):
    # Legacy mangling: _ZN<len><seg>...; v0 and demangled names: take the first path segment.
    m = re.match(r"_ZN(\d+)", name)
    if m:
        n = int(m[1])
        seg = name[len(m[0]):len(m[0]) + n]
        if seg.startswith("_$LT$"):  # <impl X for Y>: name the implementing type's crate
            inner = re.search(r"_\$LT\$([A-Za-z0-9_]+)", name)
            return inner[1] if inner else seg
        return seg
    m = re.match(r"<?([A-Za-z0-9_]+)::", name)
    return m[1] if m else "(other)"


def main():
    data = open(sys.argv[1], "rb").read()
    code_sizes, names, imports = [], {}, 0
    for sid, body in sections(data):
        if sid == 2:
            imports = imported_functions(body)
        elif sid == 10:
            count, i = leb(body, 0)
            for _ in range(count):
                size, j = leb(body, i)
                code_sizes.append(size)
                i = j + size
        elif sid == 0:
            n, i = leb(body, 0)
            if body[i:i + n] != b"name":
                continue
            i += n
            while i < len(body):
                sub = body[i]
                size, j = leb(body, i + 1)
                if sub == 1:
                    count, k = leb(body, j)
                    for _ in range(count):
                        idx, k = leb(body, k)
                        ln, k = leb(body, k)
                        names[idx] = body[k:k + ln].decode("utf-8", "replace")
                        k += ln
                i = j + size
    per_crate = Counter()
    for local, size in enumerate(code_sizes):
        per_crate[crate_of(names.get(imports + local, ""))] += size
    total = sum(code_sizes)
    print(f"file {sys.argv[1]}: {len(data):,} bytes, code section {total:,} bytes, {len(code_sizes):,} functions")
    for crate, size in per_crate.most_common(int(sys.argv[2]) if len(sys.argv) > 2 else 25):
        print(f"{size:>12,}  {100 * size / total:5.1f}%  {crate}")


if __name__ == "__main__":
    main()
