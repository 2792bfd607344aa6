#!/usr/bin/env python3
"""kbcast_exact.py - the exact optimum of k-item broadcast in the postal model
(integer latency L, one send and one reception per processor per step,
o = 0, g = 1; the source 0 holds all k items at time 0), by SAT.

Usage: tools/kbcast_exact.py P L k T [--gap G] [--solver cadical]
  prints "sat" and the schedule as optcast's CSV (time,src,dst,item) when
  every processor can hold every item by time T, else "unsat".
  tools/kbcast_exact.py P L k --min [--from T0] [--gap G]: the least such T
  (from the lower bound T0 up), with its schedule.
  --gap G: a fractional latency lambda = L/G, every time in steps of 1/G
  (docs/MODEL.md: LogP with L, o = 0, g = G in those steps): a processor
  sends at most once and takes at most one arrival in any G consecutive
  steps; T and --from are in steps, the CSV's times are fractions t/G.

Encoding (written for optcast; the rules are those of
docs/MODEL.md for postal with integer lambda, checked again by
`optcast verify kbcast` on what it prints):
  s[t,u,v,i]  u sends item i to v at step t (0 <= t <= T - L): usable at v at t + L
  h[t,v,i]    v holds item i at time t (the source always)
  s -> h[t,u,i] (a processor sends only what it holds); h[t,v,i] -> h[t-1,v,i] or
  some s[t-L,*,v,i]; at most one send per (t,u); at most one arrival per
  (t,v); h[T,v,i] for every v != 0 and i.  Capacity (at most L in transit)
  follows from one send a step.
Needs a DIMACS SAT solver on PATH (Debian: apt-get install cadical).
"""
import itertools
import subprocess
import sys
import tempfile


def solve(P, L, k, T, solver="cadical", G=1):
    var = {}

    def v(*key):
        if key not in var:
            var[key] = len(var) + 1
        return var[key]

    cls = []
    ts = range(0, T - L + 1)
    for t in ts:
        for u in range(P):
            for w in range(1, P):
                if u == w:
                    continue
                for i in range(k):
                    if u != 0:  # a send needs the item
                        cls.append([-v("s", t, u, w, i), v("h", t, u, i)])
    for t in range(0, T + 1):
        for w in range(1, P):
            for i in range(k):
                reasons = [v("s", t - L, u, w, i) for u in range(P) if u != w and t - L >= 0]
                prev = [v("h", t - 1, w, i)] if t >= 1 else []
                cls.append([-v("h", t, w, i)] + prev + reasons)
    def amo(lits):  # at most one: sequential counter
        n = len(lits)
        if n <= 1:
            return
        if n <= 6:
            for a, b in itertools.combinations(lits, 2):
                cls.append([-a, -b])
            return
        aux = [v("amo", len(var)) for _ in range(n - 1)]
        cls.append([-lits[0], aux[0]])
        for j in range(1, n - 1):
            cls.append([-lits[j], aux[j]])
            cls.append([-aux[j - 1], aux[j]])
            cls.append([-lits[j], -aux[j - 1]])
        cls.append([-lits[n - 1], -aux[n - 2]])
    for t0 in range(ts.start - G + 1, ts.stop):  # every window of G steps
        win = [t for t in range(t0, t0 + G) if t in ts]
        for u in range(P):
            amo([v("s", t, u, w, i) for t in win for w in range(1, P) if w != u for i in range(k)])
        for w in range(1, P):
            amo([v("s", t, u, w, i) for t in win for u in range(P) if u != w for i in range(k)])
    for w in range(1, P):
        for i in range(k):
            cls.append([v("h", T, w, i)])
    # symmetry: processors 1..P-1 are alike, so number them by the time of
    # their first reception: a[t,w] (w holds something at t) implies
    # a[t,w-1]; a[t,w] is implied by each h[t,w,i]
    for t in range(0, T + 1):
        for w in range(1, P):
            for i in range(k):
                cls.append([-v("h", t, w, i), v("a", t, w)])
            if w >= 2:
                cls.append([-v("a", t, w)] + [v("h", t, w - 1, i) for i in range(k)])
    with tempfile.NamedTemporaryFile("w", suffix=".cnf", delete=False) as f:
        f.write("p cnf %d %d\n" % (len(var), len(cls)))
        for c in cls:
            f.write(" ".join(map(str, c)) + " 0\n")
        name = f.name
    out = subprocess.run([solver, "-q", name], capture_output=True, text=True).stdout
    lines = out.split("\n")
    if any(l.startswith("s UNSATISFIABLE") for l in lines):
        return None
    true = set()
    for l in lines:
        if l.startswith("v "):
            true.update(int(x) for x in l[2:].split() if int(x) > 0)
    sched = []
    for key, n in var.items():
        if key[0] == "s" and n in true:
            _, t, u, w, i = key
            sched.append((t, u, w, i))
    # drop receptions of items already held (the solver may add useless ones)
    sched.sort()
    held = {(0, i): 0 for i in range(k)}
    keep = []
    for t, u, w, i in sched:
        if (w, i) in held and held[(w, i)] <= t + L:
            continue
        keep.append((t, u, w, i))
        held[(w, i)] = t + L
    return keep


def main():
    a = sys.argv[1:]
    P, L, k = int(a[0]), int(a[1]), int(a[2])
    G = int(a[a.index("--gap") + 1]) if "--gap" in a else 1
    if "--min" in a:
        T = int(a[a.index("--from") + 1]) if "--from" in a else L
        while True:
            s = solve(P, L, k, T, G=G)
            if s is not None:
                break
            print("T=%d unsat" % T, file=sys.stderr)
            T += 1
    else:
        T = int(a[3])
        s = solve(P, L, k, T, G=G)
        if s is None:
            print("unsat")
            return
    print("sat T=%d" % T, file=sys.stderr)
    print("time,src,dst,item")
    for t, u, w, i in s:
        print("%s,%d,%d,%d" % (str(t) if G == 1 else "%d/%d" % (t, G), u, w, i))


if __name__ == "__main__":
    main()
