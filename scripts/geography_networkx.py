#!/usr/bin/env python3
"""The reference side of scripts/bench-geography.sh: a maximum matching of a
graph in grundy's GRAPH format by networkx (Edmonds' blossoms, pure Python).

    python3 scripts/geography_networkx.py g.txt            # matching number
    python3 scripts/geography_networkx.py g.txt --missable # and |D| (slow: n matchings)

Prints the matching number, |D| (the vertices some maximum matching misses:
those whose removal keeps the matching number) when asked, and the seconds the
matching took inside the process. Loops are dropped and repeated edges merged,
as grundy's geography does.
"""
import sys
import time

import networkx as nx


def read(path):
    with open(path) as f:
        lines = [l.split('#')[0].split() for l in f]
    lines = [l for l in lines if l]
    n, m = int(lines[0][0]), int(lines[0][1])
    g = nx.Graph()
    g.add_nodes_from(range(1, n + 1))
    g.add_edges_from((int(u), int(v)) for u, v in lines[1:1 + m] if u != v)
    return g


def size(g):
    return len(nx.max_weight_matching(g, maxcardinality=True))


def main():
    g = read(sys.argv[1])
    start = time.perf_counter()
    nu = size(g)
    seconds = time.perf_counter() - start
    print(f"vertices {g.number_of_nodes()} edges {g.number_of_edges()} (simple)")
    print(f"matching number {nu}")
    if '--missable' in sys.argv:
        missed = 0
        for v in list(g.nodes):
            h = g.copy()
            h.remove_node(v)
            missed += size(h) == nu
        print(f"starts lost for the player to move (|D|) {missed}")
    print(f"seconds: maximum matching {seconds:.3f}")


if __name__ == '__main__':
    main()
