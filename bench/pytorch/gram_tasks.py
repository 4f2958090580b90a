"""Training pairs and validators for the bench, in numpy (vectorised over the batch).

The Rust trainer draws (puzzle, solution) pairs from the task's training split and scores each
greedy prediction with the task's exact validator (native-trainer/src/gram/data.rs: `draw`, `reward`).
What the model computes does not depend on which pairs these are, so the bench builds a small pool
of real pairs here: 8x8 N-Queens solutions with 1-3 given queens, and Sudoku grids (a shuffled
pattern grid) with 22-40 givens. Tokens as in the engine: N-Queens pad 0, empty 1, queen 2;
Sudoku pad 0, blank 1, digit d -> d + 1.
"""

import numpy as np


def queens_solutions(n):
    out = []

    def place(row, cols):
        if row == n:
            out.append(list(cols))
            return
        for c in range(n):
            if all(c != pc and abs(c - pc) != row - pr for pr, pc in enumerate(cols)):
                cols.append(c)
                place(row + 1, cols)
                cols.pop()

    place(0, [])
    return out


def sudoku_grid(rng):
    """A valid solved grid: the pattern grid under random band/stack/row/column/digit shuffles."""
    base = np.array([[(3 * (r % 3) + r // 3 + c) % 9 for c in range(9)] for r in range(9)])
    rows = np.concatenate([3 * b + rng.permutation(3) for b in rng.permutation(3)])
    cols = np.concatenate([3 * s + rng.permutation(3) for s in rng.permutation(3)])
    digits = rng.permutation(9) + 1
    grid = digits[base[rows][:, cols]]
    return grid.T if rng.random() < 0.5 else grid


class Task:
    """A pool of training pairs (x, y: int64 [L]) and the batch validator."""

    def __init__(self, config, seed=0, pool=256):
        rng = np.random.default_rng(seed)
        self.seq_len = config["seq_len"]
        self.sudoku = config["vocab"] == 11
        xs, ys = [], []
        if self.sudoku:
            assert self.seq_len == 81
            for _ in range(pool):
                y = sudoku_grid(rng).reshape(81) + 1
                x = np.ones(81, dtype=np.int64)
                keep = rng.choice(81, size=rng.integers(22, 41), replace=False)
                x[keep] = y[keep]
                xs.append(x)
                ys.append(y)
            groups = np.zeros((27, 81), dtype=np.float32)
            for i in range(81):
                r, c = divmod(i, 9)
                groups[r, i] = groups[9 + c, i] = groups[18 + 3 * (r // 3) + c // 3, i] = 1.0
            self.groups = groups
        else:
            n = int(round(self.seq_len ** 0.5))
            assert n * n == self.seq_len and config["vocab"] == 3
            self.n = n
            sols = queens_solutions(n)
            for _ in range(pool):
                cols = sols[rng.integers(len(sols))]
                y = np.ones(n * n, dtype=np.int64)
                y[[r * n + c for r, c in enumerate(cols)]] = 2
                x = np.ones(n * n, dtype=np.int64)
                for r in rng.choice(n, size=rng.integers(1, 4), replace=False):
                    x[r * n + cols[r]] = 2
                xs.append(x)
                ys.append(y)
            diag = np.zeros((n * n, 2 * (2 * n - 1)), dtype=np.float32)
            for i in range(n * n):
                r, c = divmod(i, n)
                diag[i, r - c + n - 1] = 1.0
                diag[i, 2 * n - 1 + r + c] = 1.0
            self.diag = diag
        self.xs, self.ys = np.stack(xs), np.stack(ys)

    def draw(self, rng):
        """Index of a pair in the pool (the Rust `TrainData::draw`)."""
        return rng.index(len(self.xs))

    def first_puzzle(self):
        return self.xs[0]

    def rewards(self, x, pred):
        """1.0 where the prediction is a valid answer keeping every given, else 0.0. [B, L] -> [B]."""
        b = x.shape[0]
        if self.sudoku:
            onehot = (pred[:, :, None] == np.arange(2, 11)[None, None, :]).astype(np.float32)  # [B, 81, 9]
            counts = np.einsum("gi,bid->bgd", self.groups, onehot)  # [B, 27, 9]
            ok = (counts == 1.0).all(axis=(1, 2))
            ok &= np.where(x != 1, pred == x, True).all(axis=1)
        else:
            n = self.n
            queens = (pred == 2).astype(np.float32)  # [B, n*n]
            board = queens.reshape(b, n, n)
            ok = ((pred == 1) | (pred == 2)).all(axis=1)
            ok &= (board.sum(axis=2) == 1).all(axis=1) & (board.sum(axis=1) == 1).all(axis=1)
            ok &= (queens @ self.diag <= 1.0).all(axis=1)
            ok &= ((x != 2) | (pred == 2)).all(axis=1)
        return ok.astype(np.float32)
