#!/usr/bin/env python3
"""The peer of memsym's interpolation: SymPy interpolating value vectors exactly.

Reads the vectors bench/vectors writes (JSON: the dimensions, their grid
values, and per vector its values at the grid's points, the first
dimension's values outermost, and the polynomial they come from), and
interpolates each exactly, axis by axis with sympy.interpolate: along T at
each value of B, then along B over those polynomials. Each answer is checked
against the polynomial the vector came from, outside the timed part.

Each run interpolates its own vectors, none seen before, after clearing
SymPy's cache, so that no run gets another's answers back from it; one run
on other vectors, untimed, warms up first.

Prints one JSON object: the seconds per vector of each run (the mean over
the vectors timed), over the wall time and over the process's CPU time, the
wall times' median, min and max, and the SymPy version.

Usage: sympy_interp.py VECTORS.json [--count 50] [--runs 5]
"""

import argparse
import json
import statistics
import sys
import time

import sympy


def interpolate(values, grid, b, t):
    """The polynomial through values on the grid, interpolated axis by axis."""
    along_t = []
    for i in range(3):
        row = values[3 * i:3 * i + 3]
        along_t.append(sympy.interpolate(list(zip(grid[1], row)), t))
    return sympy.expand(sympy.interpolate(list(zip(grid[0], along_t)), b))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("vectors")
    ap.add_argument("--count", type=int, default=50, help="vectors timed in each run")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()

    with open(args.vectors) as f:
        data = json.load(f)
    if data["vars"] != ["B", "T"]:
        sys.exit("sympy_interp.py: expected the dimensions B and T, found %s" % data["vars"])
    b, t = sympy.symbols("B T")
    grid = [[sympy.Integer(x) for x in g] for g in data["grid"]]
    need = (args.runs + 1) * args.count
    if len(data["vectors"]) < need:
        sys.exit("sympy_interp.py: %d vectors, fewer than the %d that %d runs and a warm-up of --count %d need"
                 % (len(data["vectors"]), need, args.runs, args.count))

    runs, cpu_runs = [], []
    for r in range(args.runs + 1):
        vectors = data["vectors"][r * args.count:(r + 1) * args.count]
        values = [[sympy.Integer(x) for x in v["values"]] for v in vectors]
        sympy.core.cache.clear_cache()
        answers = []
        start, start_cpu = time.perf_counter(), time.process_time()
        for vs in values:
            answers.append(interpolate(vs, grid, b, t))
        elapsed, elapsed_cpu = time.perf_counter() - start, time.process_time() - start_cpu
        if r > 0:
            runs.append(elapsed / len(values))
            cpu_runs.append(elapsed_cpu / len(values))
        for n, (p, v) in enumerate(zip(answers, vectors)):
            want = sum(sympy.Integer(c) * b**e[0] * t**e[1] for c, e in zip(v["coefs"], data["exps"]))
            if sympy.expand(p - want) != 0:
                sys.exit("sympy_interp.py: vector %d: interpolated %s, expected %s"
                         % (r * args.count + n, p, want))

    json.dump({
        "sympy": sympy.__version__,
        "python": "%s (%s)" % (sys.executable, sys.version.split()[0]),
        "vectors": args.count,
        "runs_s": runs,
        "cpu_runs_s": cpu_runs,
        "median_s": statistics.median(runs),
        "min_s": min(runs),
        "max_s": max(runs),
    }, sys.stdout)
    print()


if __name__ == "__main__":
    main()
