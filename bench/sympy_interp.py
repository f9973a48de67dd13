#!/usr/bin/env python3
"""The peers of memsym's interpolation: Python interpolating value vectors exactly.

Reads the vectors bench/vectors writes (JSON: the dimensions, their grid
values, and per vector its values at the grid's points, the first
dimension's values outermost, and the polynomial they come from), and
interpolates each exactly, by one of three methods (--method):

  interpolate   SymPy's interpolate, axis by axis: along T at each value of
                B, then along B over those polynomials, then expand.
  fractions     the standard library's fractions: the inverse of each axis's
                3×3 Vandermonde matrix computed once, before the timed part;
                each vector's nine coefficients are those inverses applied
                axis by axis (54 products of Fractions).
  domainmatrix  SymPy's DomainMatrix over QQ: the 9×9 grid matrix's inverse
                computed once, before the timed part; each run's vectors are
                one 9×N matrix, multiplied by it at once (the timed part),
                divided by N.

Each answer is checked against the polynomial the vector came from,
outside the timed part. Each run interpolates its own vectors, none seen
before (--offset picks where in the file the runs start), after clearing
SymPy's cache, so that no run gets another's answers back from it; one run
on other vectors, untimed, warms up first.

Prints one JSON object: the seconds per vector of each run (the mean over
the vectors timed), over the wall time and over the process's CPU time, the
wall times' median, min and max, the seconds the inverse took (0 for
interpolate), and the SymPy version.

Usage: sympy_interp.py VECTORS.json [--method interpolate] [--count 50] [--runs 5] [--offset 0]
"""

import argparse
import json
import statistics
import sys
import time
from fractions import Fraction

import sympy
from sympy.polys.matrices import DomainMatrix


def interpolate(values, grid, b, t):
    """The polynomial through values on the grid, interpolated axis by axis."""
    along_t = []
    for i in range(3):
        row = values[3 * i:3 * i + 3]
        along_t.append(sympy.interpolate(list(zip(grid[1], row)), t))
    return sympy.expand(sympy.interpolate(list(zip(grid[0], along_t)), b))


def inverse3(xs):
    """The inverse of the Vandermonde matrix [x^0, x^1, x^2] of three values, in Fractions."""
    m = [[Fraction(x) ** e for e in range(3)] for x in xs]
    n = 3
    a = [row[:] + [Fraction(int(i == j)) for j in range(n)] for i, row in enumerate(m)]
    for c in range(n):
        p = next(r for r in range(c, n) if a[r][c] != 0)
        a[c], a[p] = a[p], a[c]
        pivot = a[c][c]
        a[c] = [v / pivot for v in a[c]]
        for r in range(n):
            if r != c and a[r][c] != 0:
                f = a[r][c]
                a[r] = [v - f * w for v, w in zip(a[r], a[c])]
    return [row[n:] for row in a]


def solve_fractions(values, inv_b, inv_t):
    """The coefficients of B^i T^j (index 3i + j) through values: the inverses applied axis by axis."""
    # Along T: for each of B's three values, the coefficients of T^0..T^2.
    rows = []
    for i in range(3):
        v = values[3 * i:3 * i + 3]
        rows.append([inv_t[e][0] * v[0] + inv_t[e][1] * v[1] + inv_t[e][2] * v[2] for e in range(3)])
    # Along B, for each power of T.
    out = [None] * 9
    for j in range(3):
        for e in range(3):
            out[3 * e + j] = inv_b[e][0] * rows[0][j] + inv_b[e][1] * rows[1][j] + inv_b[e][2] * rows[2][j]
    return out


def grid_matrix(grid):
    """The 9×9 matrix whose row p, for the grid's point p (B outermost), holds B^i T^j at column 3i + j."""
    rows = []
    for bv in grid[0]:
        for tv in grid[1]:
            rows.append([sympy.QQ(bv ** i * tv ** j) for i in range(3) for j in range(3)])
    return DomainMatrix(rows, (9, 9), sympy.QQ)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("vectors")
    ap.add_argument("--method", choices=["interpolate", "fractions", "domainmatrix"], default="interpolate")
    ap.add_argument("--count", type=int, default=50, help="vectors timed in each run")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--offset", type=int, default=0, help="the first vector of the warm-up run")
    args = ap.parse_args()

    with open(args.vectors) as f:
        data = json.load(f)
    if data["vars"] != ["B", "T"]:
        sys.exit("sympy_interp.py: expected the dimensions B and T, found %s" % data["vars"])
    b, t = sympy.symbols("B T")
    need = args.offset + (args.runs + 1) * args.count
    if len(data["vectors"]) < need:
        sys.exit("sympy_interp.py: %d vectors, fewer than the %d that --offset %d, %d runs and a warm-up of --count %d need"
                 % (len(data["vectors"]), need, args.offset, args.runs, args.count))
    # Each method's answer: the nine coefficients of B^i T^j, index 3i + j.
    exps = [tuple(e) for e in data["exps"]]

    inverse_s = 0.0
    if args.method == "interpolate":
        grid = [[sympy.Integer(x) for x in g] for g in data["grid"]]

        def prepare(vectors):
            return [[sympy.Integer(x) for x in v["values"]] for v in vectors]

        def solve(values):
            return [interpolate(vs, grid, b, t) for vs in values]

        def coefs(answers):
            polys = [sympy.Poly(a, b, t) for a in answers]
            return [[p.coeff_monomial(b ** i * t ** j) for i in range(3) for j in range(3)] for p in polys]
    elif args.method == "fractions":
        start = time.perf_counter()
        inv_b, inv_t = inverse3(data["grid"][0]), inverse3(data["grid"][1])
        inverse_s = time.perf_counter() - start

        def prepare(vectors):
            return [list(v["values"]) for v in vectors]

        def solve(values):
            return [solve_fractions(vs, inv_b, inv_t) for vs in values]

        def coefs(answers):
            return answers
    else:
        start = time.perf_counter()
        inv = grid_matrix(data["grid"]).inv()
        inverse_s = time.perf_counter() - start

        def prepare(vectors):
            cols = [[sympy.QQ(v["values"][p]) for v in vectors] for p in range(9)]
            return DomainMatrix(cols, (9, len(vectors)), sympy.QQ)

        def solve(values):
            return inv * values

        def coefs(answers):
            c = answers.to_list()
            return [[c[k][n] for k in range(9)] for n in range(answers.shape[1])]

    runs, cpu_runs = [], []
    for r in range(args.runs + 1):
        first = args.offset + r * args.count
        vectors = data["vectors"][first:first + args.count]
        values = prepare(vectors)
        sympy.core.cache.clear_cache()
        start, start_cpu = time.perf_counter(), time.process_time()
        answers = solve(values)
        elapsed, elapsed_cpu = time.perf_counter() - start, time.process_time() - start_cpu
        if r > 0:
            runs.append(elapsed / len(vectors))
            cpu_runs.append(elapsed_cpu / len(vectors))
        for n, (got, v) in enumerate(zip(coefs(answers), vectors)):
            want = {e: c for c, e in zip(v["coefs"], exps)}
            for k, x in enumerate(got):
                if x != want[(k // 3, k % 3)]:
                    sys.exit("sympy_interp.py: %s: vector %d: coefficient of B^%d T^%d is %s, expected %s"
                             % (args.method, first + n, k // 3, k % 3, x, want[(k // 3, k % 3)]))

    json.dump({
        "sympy": sympy.__version__,
        "python": "%s (%s)" % (sys.executable, sys.version.split()[0]),
        "method": args.method,
        "vectors": args.count,
        "runs_s": runs,
        "cpu_runs_s": cpu_runs,
        "median_s": statistics.median(runs),
        "min_s": min(runs),
        "max_s": max(runs),
        "inverse_s": inverse_s,
    }, sys.stdout)
    print()



if __name__ == "__main__":
    main()
