#!/usr/bin/env python3
"""kport_sat.py - the exact optimum of k-port multi-message broadcast by SAT.

    tools/kport_sat.py N K M1,M2,...     optimum for each m, next to optcast's
    tools/kport_sat.py N K M --rounds T --csv FILE
                                         is T rounds enough?  (schedule to FILE)

Needs a SAT solver (Debian: `apt-get install cadical`; set KPORT_SAT_SOLVER
for another DIMACS solver that prints "s SATISFIABLE" and "v" lines) and
build/optcast for the bounds and for checking: every schedule the solver
finds is passed through `optcast verify`, so the solver is not trusted.
A research aid for the cases docs/ALGORITHMS.md lists as open; not part of
`make check`.

Encoding: x[r,p,q,i] = p sends item i to q in round r (the source is 0 and
never receives); h[r,q,i] = q holds i after round r.  A send needs the item
held before the round; a holding after round r needs one before or an
arrival in r; everybody holds everything after round T.  At most one item
per (round, sender, receiver); at most k receivers per sender and k senders
per receiver in a round (sequential-counter cardinality constraints).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
OPTCAST = os.path.join(HERE, "..", "build", "optcast")
SOLVER = os.environ.get("KPORT_SAT_SOLVER", "cadical")


def encode(n, k, m, T):
    nv = [0]
    cls = []

    def new():
        nv[0] += 1
        return nv[0]

    x, h, y = {}, {}, {}
    for r in range(1, T + 1):
        for p in range(n):
            if p != 0 and r == 1:
                continue  # only the source holds anything in round 1
            for q in range(1, n):
                if q != p:
                    for i in range(m):
                        x[r, p, q, i] = new()
    for r in range(T + 1):
        for q in range(1, n):
            for i in range(m):
                h[r, q, i] = new()
    for q in range(1, n):
        for i in range(m):
            cls.append([-h[0, q, i]])
            cls.append([h[T, q, i]])
    for (r, p, q, i), v in x.items():
        if p != 0:
            cls.append([-v, h[r - 1, p, i]])
    for r in range(1, T + 1):
        for q in range(1, n):
            for i in range(m):
                arrivals = [x[r, p, q, i] for p in range(n) if (r, p, q, i) in x]
                cls.append([-h[r, q, i], h[r - 1, q, i]] + arrivals)

    def at_most(lits, K):  # Sinz's sequential counter
        if len(lits) <= K:
            return
        if K == 0:
            cls.extend([-l] for l in lits)
            return
        s = [[new() for _ in range(K)] for _ in lits]
        for a, l in enumerate(lits):
            cls.append([-l, s[a][0]])
            if a > 0:
                for j in range(K):
                    cls.append([-s[a - 1][j], s[a][j]])
                for j in range(1, K):
                    cls.append([-l, -s[a - 1][j - 1], s[a][j]])
                cls.append([-l, -s[a - 1][K - 1]])

    for r in range(1, T + 1):
        for p in range(n):
            for q in range(1, n):
                xs = [x[r, p, q, i] for i in range(m) if (r, p, q, i) in x]
                if xs:
                    y[r, p, q] = new()
                    for a in xs:
                        cls.append([-a, y[r, p, q]])
                    at_most(xs, 1)
        for p in range(n):
            at_most([y[r, p, q] for q in range(1, n) if (r, p, q) in y], k)
        for q in range(1, n):
            at_most([y[r, p, q] for p in range(n) if (r, p, q) in y], k)
    return nv[0], cls, x


def solve(n, k, m, T):
    """The schedule (list of rows) if T rounds suffice, else None."""
    nvars, cls, x = encode(n, k, m, T)
    with tempfile.NamedTemporaryFile("w", suffix=".cnf", delete=False) as f:
        f.write("p cnf %d %d\n" % (nvars, len(cls)))
        for c in cls:
            f.write(" ".join(map(str, c)) + " 0\n")
        name = f.name
    try:
        out = subprocess.run([SOLVER, "-q", name], capture_output=True, text=True).stdout
    finally:
        os.unlink(name)
    if "s SATISFIABLE" not in out:
        if "s UNSATISFIABLE" not in out:
            sys.exit("kport_sat: the solver gave no answer (is %s installed?)" % SOLVER)
        return None
    true = set()
    for line in out.splitlines():
        if line.startswith("v "):
            true.update(int(t) for t in line[2:].split() if int(t) > 0)
    return sorted(key for key, v in x.items() if v in true)


def optcast(*args):
    res = subprocess.run([OPTCAST] + list(args), capture_output=True, text=True)
    return res


def check(n, k, m, rows):
    csv = "time,src,dst,item\n" + "".join("%d,%d,%d,%d\n" % r for r in rows)
    res = subprocess.run([OPTCAST, "verify", "kbcast", "--model", "kport", "--ports", str(k),
                          "--procs", str(n), "--items", str(m), "--json"],
                         input=csv, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit("kport_sat: optcast rejects the solver's schedule: " + res.stderr.strip())
    return csv, json.loads(res.stdout)["time"]


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    n, k = int(argv[1]), int(argv[2])
    params = ["--model", "kport", "--ports", str(k), "--procs", str(n)]
    if "--rounds" in argv:
        m = int(argv[3])
        T = int(argv[argv.index("--rounds") + 1])
        rows = solve(n, k, m, T)
        if rows is None:
            print("n=%d k=%d m=%d: %d rounds are not enough" % (n, k, m, T))
            return 1
        csv, t = check(n, k, m, rows)
        print("n=%d k=%d m=%d: a schedule of %d rounds (verified)" % (n, k, m, t))
        if "--csv" in argv:
            with open(argv[argv.index("--csv") + 1], "w") as f:
                f.write(csv)
        return 0
    for m in map(int, argv[3].split(",")):
        b = json.loads(optcast("bound", "kbcast", *params, "--items", str(m), "--json").stdout)
        best = json.loads(optcast("plan", "kbcast", *params, "--items", str(m), "--json").stdout)
        T, t0 = b["lower_bound"], time.time()
        rows = solve(n, k, m, T)
        while rows is None:
            T += 1
            rows = solve(n, k, m, T)
        check(n, k, m, rows)
        print("n=%d k=%d m=%d: optimum %d (%.1f s), lower bound %d, Lemma 2 + 1 = %d, "
              "optcast %d (%s)" % (n, k, m, T, time.time() - t0, b["lower_bound"],
                                   b["bounds"]["lemma2"] + 1, best["time"], best["algorithm"]),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
