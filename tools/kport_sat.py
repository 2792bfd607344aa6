#!/usr/bin/env python3
"""kport_sat.py - the exact optimum of k-port multi-message broadcast by SAT.

    tools/kport_sat.py N K M1,M2,...     optimum for each m, next to optcast's
    tools/kport_sat.py N K M --rounds T --csv FILE
                                         is T rounds enough?  (schedule to FILE)
    tools/kport_sat.py N K M --periodic P --delay D [--csv FILE]
                                         a steady-state schedule of period P in
                                         which every message reaches everyone D
                                         rounds after the source sends it; it is
                                         unrolled for M messages and verified

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


class Cnf:
    """Clauses over variables 1, 2, ...; solved by the external SAT solver."""

    def __init__(self):
        self.nvars = 0
        self.clauses = []

    def new(self):
        self.nvars += 1
        return self.nvars

    def add(self, clause):
        self.clauses.append(clause)

    def at_most(self, lits, K):
        """At most K of lits true (Sinz's sequential counter)."""
        if len(lits) <= K:
            return
        if K == 0:
            self.clauses.extend([-l] for l in lits)
            return
        c = [[self.new() for _ in range(K)] for _ in lits]
        for a, l in enumerate(lits):
            self.add([-l, c[a][0]])
            if a > 0:
                for j in range(K):
                    self.add([-c[a - 1][j], c[a][j]])
                for j in range(1, K):
                    self.add([-l, -c[a - 1][j - 1], c[a][j]])
                self.add([-l, -c[a - 1][K - 1]])

    def one_item_per_pair(self, pair, k):
        """pair: (sender, receiver) -> the literals of its sends in one
        round.  At most one item per pair, k receivers per sender and k
        senders per receiver."""
        out, inn = {}, {}
        for (p, q), lits in pair.items():
            y = self.new()
            for v in lits:
                self.add([-v, y])
            self.at_most(lits, 1)
            out.setdefault(p, []).append(y)
            inn.setdefault(q, []).append(y)
        for ys in list(out.values()) + list(inn.values()):
            self.at_most(ys, k)

    def solve(self, named):
        """The keys of `named` (key -> variable) true in a solution, sorted;
        None when unsatisfiable."""
        with tempfile.NamedTemporaryFile("w", suffix=".cnf", delete=False) as f:
            f.write("p cnf %d %d\n" % (self.nvars, len(self.clauses)))
            for c in self.clauses:
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
        return sorted(key for key, v in named.items() if v in true)


def solve(n, k, m, T):
    """The schedule (rows) if T rounds suffice, else None.  x[r,p,q,i]: p
    sends item i to q in round r; h[r,q,i]: q holds i after round r."""
    cnf = Cnf()
    x, h = {}, {}
    for r in range(1, T + 1):
        for p in range(n):
            if p != 0 and r == 1:
                continue  # only the source holds anything in round 1
            for q in range(1, n):
                if q != p:
                    for i in range(m):
                        x[r, p, q, i] = cnf.new()
    for r in range(T + 1):
        for q in range(1, n):
            for i in range(m):
                h[r, q, i] = cnf.new()
    for q in range(1, n):
        for i in range(m):
            cnf.add([-h[0, q, i]])
            cnf.add([h[T, q, i]])
    for (r, p, q, i), v in x.items():
        if p != 0:
            cnf.add([-v, h[r - 1, p, i]])
    for r in range(1, T + 1):
        pair = {}
        for q in range(1, n):
            for i in range(m):
                arrivals = [x[r, p, q, i] for p in range(n) if (r, p, q, i) in x]
                cnf.add([-h[r, q, i], h[r - 1, q, i]] + arrivals)
                for p in range(n):
                    if (r, p, q, i) in x:
                        pair.setdefault((p, q), []).append(x[r, p, q, i])
        cnf.one_item_per_pair(pair, k)
    return cnf.solve(x)


def solve_periodic(n, k, D, P):
    """Message (phase f, lane l) enters in rounds = f (mod P); s[f,l,a,p,q]:
    at age a (round f + a of its life) p sends it to q.  The port rules hold
    in each round t (mod P) over all messages in flight, ages 0..D-1."""
    cnf = Cnf()
    s, h = {}, {}
    for f in range(P):
        for l in range(k):
            for a in range(D):
                for p in range(n):
                    if (a == 0) != (p == 0):
                        continue  # the source sends each message once, at age 0
                    for q in range(1, n):
                        if q != p:
                            s[f, l, a, p, q] = cnf.new()
                for q in range(1, n):
                    h[f, l, a, q] = cnf.new()
    for f in range(P):
        for l in range(k):
            src = [s[f, l, 0, 0, q] for q in range(1, n)]
            cnf.add(src)
            cnf.at_most(src, 1)
            for a in range(D):
                for q in range(1, n):
                    arr = [s[f, l, a, p, q] for p in range(n) if (f, l, a, p, q) in s]
                    cnf.add([-h[f, l, a, q]] + ([h[f, l, a - 1, q]] if a else []) + arr)
                    if a:
                        for p in range(1, n):
                            if (f, l, a, p, q) in s:
                                cnf.add([-s[f, l, a, p, q], h[f, l, a - 1, p]])
            for q in range(1, n):
                cnf.add([h[f, l, D - 1, q]])
    for t in range(P):
        pair = {}
        for a in range(D):
            f = (t - a) % P
            for l in range(k):
                for p in range(n):
                    for q in range(1, n):
                        if (f, l, a, p, q) in s:
                            pair.setdefault((p, q), []).append(s[f, l, a, p, q])
        cnf.one_item_per_pair(pair, k)
    return cnf.solve(s)


def unroll(sol, k, P, m):
    rows = []
    for item in range(m):
        b, l = divmod(item, k)
        for (f, l2, a, p, q) in sol:
            if f == b % P and l2 == l:
                rows.append((b + a + 1, p, q, item))
    return sorted(rows)


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
    if "--periodic" in argv:
        m = int(argv[3])
        P = int(argv[argv.index("--periodic") + 1])
        D = int(argv[argv.index("--delay") + 1])
        sol = solve_periodic(n, k, D, P)
        if sol is None:
            print("n=%d k=%d: no schedule of period %d and delay %d" % (n, k, P, D))
            return 1
        csv, t = check(n, k, m, unroll(sol, k, P, m))
        sinks = [p for p in range(1, n) if not any(r[3] == p for r in sol)]
        print("n=%d k=%d: period %d, delay %d; unrolled for m=%d: %d rounds (verified); "
              "processors that never send: %s" % (n, k, P, D, m, t, sinks))
        if "--csv" in argv:
            with open(argv[argv.index("--csv") + 1], "w") as f:
                f.write(csv)
        return 0
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
