#!/usr/bin/env python3
"""kport_box_sat.py - is there a k-port "black box" of N processors?

    tools/kport_box_sat.py N K T [--period P] [--csv FILE]

A box (docs/ALGORITHMS.md, rotation) takes the k messages of a batch every
round, one per entry processor, gives each message to all N of its
processors within T rounds (the entry round counts) and hands each one on
one round after it enters.  The question is asked of a periodic steady
state (period P, default 2): processors 1..N, the feeder 0 (the source,
sending each message once) and a sink N+1 that must receive every message
exactly one round after it enters the box.  The port rules are those of
tools/kport_sat.py, per round mod P over all messages in flight.

A solution is not trusted: it is unrolled for 4k messages into a broadcast
on N + 2 processors (source, box, sink) and passed through `optcast verify`.
Needs cadical (`apt-get install cadical`) and build/optcast.  A research aid
(which box sizes exist), not part of `make check`.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kport_sat import Cnf, check  # noqa: E402


def solve_box(N, k, T, P):
    """s[f,l,a,p,q]: message (phase f, lane l) goes p -> q at age a."""
    cnf, s, h, sink = Cnf(), {}, {}, N + 1
    for f in range(P):
        for l in range(k):
            for a in range(T):
                for p in range(N + 1):
                    if (a == 0) != (p == 0):
                        continue  # the feeder sends each message once, at age 0
                    for q in range(1, N + 2):
                        if q != p and (q != sink or (a == 1 and p != 0)):
                            s[f, l, a, p, q] = cnf.new()
                for q in range(1, N + 1):
                    h[f, l, a, q] = cnf.new()
    for f in range(P):
        for l in range(k):
            for ends in ([s[f, l, 0, 0, q] for q in range(1, N + 1)],
                         [s[f, l, 1, p, sink] for p in range(1, N + 1)]):
                cnf.add(ends)
                cnf.at_most(ends, 1)
            for a in range(T):
                for q in range(1, N + 1):
                    arr = [s[f, l, a, p, q] for p in range(N + 1) if (f, l, a, p, q) in s]
                    cnf.add([-h[f, l, a, q]] + ([h[f, l, a - 1, q]] if a else []) + arr)
                    for r in range(1, N + 2):
                        if a and (f, l, a, q, r) in s:
                            cnf.add([-s[f, l, a, q, r], h[f, l, a - 1, q]])
            for q in range(1, N + 1):
                cnf.add([h[f, l, T - 1, q]])
    for t in range(P):
        pair = {}
        for a in range(T):
            f = (t - a) % P
            for key, v in s.items():
                if key[0] == f and key[2] == a:
                    pair.setdefault((key[3], key[4]), []).append(v)
        cnf.one_item_per_pair(pair, k)
    return cnf.solve(s)


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    N, k, T = int(argv[1]), int(argv[2]), int(argv[3])
    P = int(argv[argv.index("--period") + 1]) if "--period" in argv else 2
    sol = solve_box(N, k, T, P)
    if sol is None:
        print("N=%d k=%d T=%d: no box of period %d" % (N, k, T, P))
        return 1
    m = 4 * k
    rows = sorted((item // k + a + 1, p, q, item) for item in range(m)
                  for (f, l, a, p, q) in sol if f == (item // k) % P and l == item % k)
    csv, t = check(N + 2, k, m, rows)
    print("N=%d k=%d T=%d: a box of period %d; unrolled for m=%d on n=%d: %d rounds (verified)"
          % (N, k, T, P, m, N + 2, t))
    if "--csv" in argv:
        with open(argv[argv.index("--csv") + 1], "w") as f:
            f.write(csv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
