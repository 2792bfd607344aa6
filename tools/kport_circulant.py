#!/usr/bin/env python3
"""kport_circulant.py - circulant steady-state k-port broadcasts, by SAT.

    tools/kport_circulant.py N K [--free] [--period L] [--delay D] [--items M1,M2,...]

A research aid for the k-port cases docs/ALGORITHMS.md lists as open (not
part of `make check`; needs `apt-get install cadical` and build/optcast).

The schedule searched for is circulant: in round i, with slot j = i mod L,
every processor r receives from r - d for the k offsets d of slot j (so it
sends to r + d).  Default offsets: the skips s_0 = 1 < s_1 < ... < s_q = N,
s_j = ceil(s_{j+1} / (K+1)), slot j using a * s_(j mod q), a = 1..K (as in
Traeff's circulant broadcast schedules for K = 1); --free lets the solver
choose any K distinct offsets per slot.  Batch t (K messages, one per lane)
leaves the source in round t; a processor receives each (t mod L, lane) class
once per period, at an "age" (round - t) that is the same for every t of the
class, and may forward it only at a larger age (the source holds all).

Finite m: batches are renumbered so the last one, T, falls in class 0, and
every message of a later (non-existent) batch is replaced by the message of
batch T in the same lane (by lane mod beta when the last batch has beta < K
messages).  A processor holding a replaced message holds the real one, so
the unrolled schedule stays valid; the solver is asked for schedules in which
every processor gets every lane of batch T or later by round T + D and every
earlier batch T - e by T + D too.  D = q gives ceil(m/K) + q rounds, Lemma 2
+ 1.  Every unrolled schedule is checked by `optcast verify`.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kport_sat import Cnf, check  # noqa: E402


def skips(n, k):
    s = [n]
    while s[-1] > 1:
        s.append(-(-s[-1] // (k + 1)))
    return s[::-1]


def encode(n, k, L, D, free):
    """Variables x[r, j, d, c, lane, age]: r receives class (c, lane) in slot j
    from r - d at that age.  Returns (cnf, x, y) with y[j, d] = d is an offset
    of slot j (constants when not free)."""
    s = skips(n, k)
    q = len(s) - 1
    cnf = Cnf()
    y = {}
    if free:
        for j in range(L):
            lits = [cnf.new() for _ in range(1, n)]
            for d, v in zip(range(1, n), lits):
                y[j, d] = v
            cnf.at_most(lits, k)
            cnf.at_most([-v for v in lits], n - 1 - k)
        offsets = {j: range(1, n) for j in range(L)}
    else:
        offsets = {j: sorted({a * s[j % q] % n for a in range(1, k + 1)}) for j in range(L)}
        if any(0 in o or len(o) < k for o in offsets.values()):
            return None
    x = {}
    for r in range(1, n):
        for j in range(L):
            for d in offsets[j]:
                parent = (r - d) % n
                for c in range(L):
                    e = (-c) % L  # class c holds batch T - e
                    for age in range((j - c) % L, 2 * L + D + 1, L):
                        if age == 0 and parent != 0:
                            continue
                        if e > 0 and age > D + e:
                            continue
                        if e == 0 and age > L + D:
                            continue
                        for lane in range(k):
                            v = cnf.new()
                            x[r, j, d, c, lane, age] = v
                            if free:
                                cnf.add([-v, y[j, d]])
    slot, held = {}, {}
    for (r, j, d, c, lane, age), v in x.items():
        slot.setdefault((r, j, d), []).append(v)
        held.setdefault((r, c, lane), []).append((age, v))
    for lits in slot.values():
        cnf.at_most(lits, 1)
    for lits in held.values():
        vs = [v for _, v in lits]
        cnf.add(vs)
        cnf.at_most(vs, 1)
    for (r, j, d, c, lane, age), v in x.items():
        parent = (r - d) % n
        if parent != 0:
            cnf.add([-v] + [w for (a2, w) in held[parent, c, lane] if a2 < age])
    # the end: every lane of batch T + e (e >= 0) by round T + D
    for r in range(1, n):
        for lane in range(k):
            cnf.add([v for e in range(D + 1) for (age, v) in held[r, e % L, lane]
                     if age <= D - e])
    return cnf, x, y


def unroll(sol, n, k, L, m):
    T = (m + k - 1) // k - 1
    beta = m - k * T
    shift = (-T) % L
    first = {}
    for (r, j, d, c, lane, age) in sol:
        for vt in range(c, T + shift + 2 * L + 2, L):
            t = vt - shift
            if t < 0:
                continue
            if t > T or (t == T and lane >= beta):
                item = T * k + lane % beta
            else:
                item = t * k + lane
            row = (t + age + 1, (r - d) % n, r, item)
            if (r, item) not in first or row < first[r, item]:
                first[r, item] = row
    return sorted(first.values())


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    n, k = int(argv[1]), int(argv[2])
    q = len(skips(n, k)) - 1
    free = "--free" in argv
    L = int(argv[argv.index("--period") + 1]) if "--period" in argv else q
    D = int(argv[argv.index("--delay") + 1]) if "--delay" in argv else q
    ms = [int(x) for x in argv[argv.index("--items") + 1].split(",")] if "--items" in argv else []
    t0 = time.time()
    enc = encode(n, k, L, D, free)
    if enc is None:
        print("n=%d k=%d: the default offsets repeat or hit 0; try --free" % (n, k))
        return 1
    cnf, x, y = enc
    names = list(x) + [("y",) + key for key in y]
    lits = {i: v for i, v in enumerate(list(x.values()) + list(y.values()))}
    idx = cnf.solve(lits)
    took = time.time() - t0
    if idx is None:
        print("n=%d k=%d q=%d period %d delay %d%s: none (%.1f s)" % (n, k, q, L, D, ", free offsets" if free else "", took))
        return 1
    chosen = [names[i] for i in idx]
    sol = [key for key in chosen if key[0] != "y"]
    offs = {}
    for (r, j, d, c, lane, age) in sol:
        offs.setdefault(j, set()).add(d)
    print("n=%d k=%d q=%d period %d delay %d: found (%.1f s); offsets per slot %s" % (
        n, k, q, L, D, took, [sorted(offs[j]) for j in sorted(offs)]))
    for m in ms:
        csv, t = check(n, k, m, unroll(sol, n, k, L, m))
        print("  m=%d: %d rounds, verified (ceil(m/k) + q = %d)" % (m, t, -(-m // k) + q))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
