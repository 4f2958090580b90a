#!/usr/bin/env python3
"""Graphs from a generator outside the project (networkx), for scoring the colouring models on
graphs they never saw: `data import --format coloring --test`, then `eval --data`.

Writes one graph per line as an edge list (`0-1 0-2 ...`, vertices from 0), keeping only
3-colourable graphs with at least one edge (checked here by backtracking, independently of the
engine) and no graph twice. Families:

  gnp P      Erdos-Renyi G(n, P) (networkx.gnp_random_graph)
  regular D  random D-regular graphs (networkx.random_regular_graph)
  geometric R  random geometric graphs in the unit square, radius R (networkx.random_geometric_graph)
  ws K P     Watts-Strogatz small worlds, ring of K neighbours rewired with probability P

Usage: python3 bench/outside_graphs.py --n 8 --count 120 --seed 1 gnp 0.45 > out.txt
       python3 bench/outside_graphs.py --n 8 --isomorphic-to train8.txt out.txt [--print same|new]
The second form counts the graphs of out.txt isomorphic to some graph of train8.txt (the task's
lines, e.g. `native-trainer split --task coloring8 --part train`): the models never saw these
graphs as numbered, but may have seen the same shape under other numbers. With --print it
prints the graphs that are (same) or are not (new) instead.
Needs networkx (pip install networkx); the graphs it made for the docs are committed under
docs/data/, so the figures do not depend on networkx's version.
"""

import argparse
import sys

import networkx as nx


def colourable(n, edges):
    """Whether the graph has a proper 3-colouring (plain backtracking)."""
    adj = [set() for _ in range(n)]
    for u, v in edges:
        adj[u].add(v)
        adj[v].add(u)
    colour = [-1] * n

    def go(v):
        if v == n:
            return True
        for c in range(3):
            if all(colour[u] != c for u in adj[v]):
                colour[v] = c
                if go(v + 1):
                    return True
        colour[v] = -1
        return False

    return go(0)


def make(family, params, n, seed):
    if family == "gnp":
        return nx.gnp_random_graph(n, float(params[0]), seed=seed)
    if family == "regular":
        return nx.random_regular_graph(int(params[0]), n, seed=seed)
    if family == "geometric":
        return nx.random_geometric_graph(n, float(params[0]), seed=seed)
    if family == "ws":
        return nx.watts_strogatz_graph(n, int(params[0]), float(params[1]), seed=seed)
    sys.exit(f"unknown family {family!r}")


def from_line(n, line):
    """A graph from an edge list (`0-1 0-2`) or the task's line of 0s and 1s."""
    g = nx.empty_graph(n)
    line = line.strip()
    if set(line) <= {"0", "1"}:
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        g.add_edges_from(p for p, c in zip(pairs, line) if c == "1")
    else:
        g.add_edges_from(tuple(map(int, e.split("-"))) for e in line.split())
    return g


def isomorphic_count(n, train_file, graphs_file, show=None):
    """How many graphs of graphs_file are isomorphic to one of train_file; with show "same" or
    "new", the lines of those that are, or are not, instead."""
    buckets = {}
    for line in open(train_file):
        if line.strip():
            g = from_line(n, line)
            buckets.setdefault(nx.weisfeiler_lehman_graph_hash(g), []).append(g)
    hits = total = 0
    for line in open(graphs_file):
        if line.strip():
            g = from_line(n, line)
            total += 1
            same = any(nx.is_isomorphic(g, h) for h in buckets.get(nx.weisfeiler_lehman_graph_hash(g), []))
            hits += same
            if show == ("same" if same else "new"):
                print(line.strip())
    if show is None:
        print(f"{hits} of {total} graphs are isomorphic to a graph of {train_file}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--count", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--isomorphic-to", metavar="TRAIN")
    ap.add_argument("--print", choices=["same", "new"], help="with --isomorphic-to: print the graphs isomorphic to a TRAIN graph (same) or not (new)")
    ap.add_argument("family")
    ap.add_argument("params", nargs="*")
    a = ap.parse_args()
    if a.isomorphic_to:
        return isomorphic_count(a.n, a.isomorphic_to, a.family, a.print)
    if a.count is None:
        sys.exit("--count is needed to make graphs")
    seen, out, seed = set(), [], a.seed * 1_000_003
    while len(out) < a.count:
        seed += 1
        if seed - a.seed * 1_000_003 > 200 * a.count:
            sys.exit(f"only {len(out)} distinct 3-colourable graphs after {200 * a.count} draws")
        g = make(a.family, a.params, a.n, seed)
        edges = sorted(tuple(sorted(e)) for e in g.edges())
        key = tuple(edges)
        if not edges or key in seen or not colourable(a.n, edges):
            continue
        seen.add(key)
        out.append(" ".join(f"{u}-{v}" for u, v in edges))
    print("\n".join(out))


if __name__ == "__main__":
    main()
