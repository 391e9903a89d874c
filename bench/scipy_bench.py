"""SciPy baselines for `npm run bench`: the same problems and settings as
bench/wasm_bench.mjs, timed the same way (median of N solves), printed as one JSON
object on stdout.

Usage: python bench/scipy_bench.py RUNS_RK45 RUNS_STIFF
"""

import json
import math
import os
import re
import statistics
import sys
import time

# odelab's WASM runs on one thread; so does SciPy here (its dense LUs would otherwise
# use OpenBLAS threads, on a machine whose two cores other jobs share).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import scipy  # noqa: E402
from scipy.integrate import solve_ivp  # noqa: E402

# The pendulum of src/model/pendulum.rs with its defaults (g = 9.81, L = 1, y0 = (1, 0)).
G, L = 9.81, 1.0


def pendulum(_t, y):
    return [y[1], -G / L * math.sin(y[0])]


# Van der Pol of src/model/van_der_pol.rs (mu = 1000, y0 = (2, 0)), with its Jacobian
# (the Rust model has an analytic one too).
MU = 1000.0


def vdp(_t, y):
    return [y[1], MU * (1.0 - y[0] * y[0]) * y[1] - y[0]]


def vdp_jac(_t, y):
    return np.array([[0.0, 1.0], [-2.0 * MU * y[0] * y[1] - 1.0, MU * (1.0 - y[0] * y[0])]])


VDP_REF = (-1.51060693674397, 1.1783800007312e-3)


CASES = os.environ.get("BENCH_CASES") or os.path.join(os.path.dirname(__file__), "cases.json")


def heat(n):
    """The N-cell heat equation u' = (N+1)² (u[i-1] − 2u[i] + u[i+1]) as in
    bench/cases.json: its right-hand side, u(0) = sin(πi/(N+1)) and its tridiagonal
    Jacobian pattern."""
    from scipy.sparse import diags

    k = (n + 1) ** 2

    def f(_t, u):
        d = -2.0 * u
        d[1:] += u[:-1]
        d[:-1] += u[1:]
        return k * d

    u0 = np.sin(np.pi * np.arange(1, n + 1) / (n + 1))
    return f, u0, diags([1, 1, 1], [-1, 0, 1], shape=(n, n))


def heat_bdf(n, case, runs):
    """The heat equation of bench/cases.json's `heat` under BDF with the tridiagonal
    jac_sparsity, and its error against the semi-discrete exact solution."""
    spec = case["spec"]
    f, u0, pattern = heat(n)
    t1 = spec["t1"]
    med, times, sol = timed(
        runs,
        lambda: solve_ivp(
            f, (0.0, t1), u0, method="BDF", rtol=spec["rtol"], atol=spec["atol"], jac_sparsity=pattern
        ),
    )
    s = np.sin(np.pi / (2 * (n + 1)))
    decay = np.exp(-4 * (n + 1) ** 2 * s * s * sol.t[-1])
    err = float(np.max(np.abs(sol.y[:, -1] - u0 * decay)) / decay)
    return {
        "n": n,
        "ms": med,
        "runs": times,
        "nfev": int(sol.nfev),
        "njev": int(sol.njev),
        "nlu": int(sol.nlu),
        "nsteps": int(sol.t.size - 1),
        "err": err,
        "status": int(sol.status),
    }


def chain_radau(case, n, t1, runs):
    """bench/cases.json's `chainBodies`: the N-link chain's augmented (index-1) equations
    in NumPy (bench/scipy_chain.py) under Radau at the case's tolerances (Jacobian by
    SciPy's finite differences, vectorised), timed as the minimum of `runs` solves, and
    an untimed tight reference (DOP853) for the error of both sides."""
    sys.path.insert(0, os.path.dirname(__file__))
    sys.dont_write_bytecode = True  # no bench/__pycache__ in the work tree
    from scipy_chain import Chain

    chain = Chain(n)
    # The release angle θ0 (and nothing else) is read from the case's system text.
    y0 = chain.initial(float(re.search(r"θ0 = (-?[0-9.e-]+)", case["system"]).group(1)))
    times, cpu, sol = [], [], None
    for _ in range(runs):
        # CPU time beside the wall clock (a loaded machine makes a solve wait for a core).
        start, cpu0 = time.perf_counter(), time.process_time()
        sol = solve_ivp(
            chain.f, (0.0, t1), y0, method="Radau", rtol=case["rtol"], atol=case["atol"], vectorized=True
        )
        times.append((time.perf_counter() - start) * 1e3)
        cpu.append((time.process_time() - cpu0) * 1e3)
    ref = case["reference"]
    tight = solve_ivp(
        chain.f, (0.0, t1), y0, method=ref["method"], rtol=ref["rtol"], atol=ref["atol"], vectorized=True
    )
    q, q_ref = sol.y[: chain.nq, -1], tight.y[: chain.nq, -1]
    return {
        "n": n,
        "t1": t1,
        "ms": min(times),
        "runs": times,
        "cpuMs": min(cpu),
        "cpuRuns": cpu,
        "nfev": int(sol.nfev),
        "njev": int(sol.njev),
        "nlu": int(sol.nlu),
        "nsteps": int(sol.t.size - 1),
        "status": int(sol.status),
        "x": float(q[-3]),
        "y": float(q[-2]),
        "drift": float(np.linalg.norm(chain.phi(q))),
        "reference": {"x": float(q_ref[-3]), "y": float(q_ref[-2]), "drift": float(np.linalg.norm(chain.phi(q_ref)))},
    }
# HIRES (Hairer & Wanner II, §IV.10; the Test Set for IVP Solvers, problem HIRES) with
# its Jacobian, as bench/cases.json's `workPrecision` writes it for odelab.
def hires(_t, y):
    y1, y2, y3, y4, y5, y6, y7, y8 = y
    r = 280.0 * y6 * y8
    return [
        -1.71 * y1 + 0.43 * y2 + 8.32 * y3 + 0.0007,
        1.71 * y1 - 8.75 * y2,
        -10.03 * y3 + 0.43 * y4 + 0.035 * y5,
        8.32 * y2 + 1.71 * y3 - 1.12 * y4,
        -1.745 * y5 + 0.43 * y6 + 0.43 * y7,
        -r + 0.69 * y4 + 1.71 * y5 - 0.43 * y6 + 0.69 * y7,
        r - 1.81 * y7,
        -r + 1.81 * y7,
    ]


def hires_jac(_t, y):
    y6, y8 = y[5], y[7]
    j = np.zeros((8, 8))
    j[0, :3] = [-1.71, 0.43, 8.32]
    j[1, :2] = [1.71, -8.75]
    j[2, 2:5] = [-10.03, 0.43, 0.035]
    j[3, 1:4] = [8.32, 1.71, -1.12]
    j[4, 4:7] = [-1.745, 0.43, 0.43]
    j[5, 3:8] = [0.69, 1.71, -0.43 - 280.0 * y8, 0.69, -280.0 * y6]
    j[6, 5:8] = [280.0 * y8, -1.81, 280.0 * y6]
    j[7, 5:8] = [-280.0 * y8, 1.81, -280.0 * y6]
    return j


def wp_problem(p):
    """(f, y0, t1, per-method extra arguments) of a `workPrecision` problem."""
    if p["id"] == "vdp":
        return vdp, [2.0, 0.0], p["spec"]["t1"], {"jac": vdp_jac}, {"jac": vdp_jac}
    if p["id"] == "hires":
        y0 = [1.0, 0, 0, 0, 0, 0, 0, 0.0057]
        return hires, y0, p["spec"]["t1"], {"jac": hires_jac}, {"jac": hires_jac}
    f, u0, pattern = heat(p["n"])
    # Radau and BDF: the tridiagonal pattern (Jacobian by grouped differences); LSODA
    # takes a band (lband = uband = 1) instead.
    return f, u0, p["spec"]["t1"], {"jac_sparsity": pattern}, {"lband": 1, "uband": 1}


def work_precision(wp, runs):
    """Each SciPy method at each rtol of the sweep: the minimum CPU time of `runs`
    solves (one when a solve takes over 2 s), the end point and the counts. bench/report.mjs
    measures the end points against the same references as odelab's."""
    out = []
    for p in wp["problems"]:
        f, y0, t1, sparse, banded = wp_problem(p)
        entry = {"id": p["id"], "curves": {}}
        if p.get("reference"):  # a check of the reference odelab uses
            ref = solve_ivp(f, (0.0, t1), y0, method="Radau", rtol=1e-13, atol=1e-15, **sparse)
            entry["reference"] = [float(v) for v in ref.y[:, -1]]
        for method in wp["scipy"]:
            extra = banded if method == "LSODA" else sparse
            solve = lambda rtol: solve_ivp(  # noqa: E731
                f, (0.0, t1), y0, method=method, rtol=rtol, atol=rtol * p["atolPerRtol"], **extra
            )
            solve(wp["rtol"][0])  # warm-up: imports and first-call caches
            points = []
            for rtol in wp["rtol"]:
                times, wall, sol = [], [], None
                for _ in range(runs):
                    t, sol, w = once(lambda r=rtol: solve(r))
                    times.append(t)
                    wall.append(w)
                    if t > 2000:
                        break
                points.append(
                    {
                        "rtol": rtol,
                        "ms": min(times),
                        "runs": times,
                        "wall": wall,
                        "y_end": [float(v) for v in sol.y[:, -1]],
                        "t_end": float(sol.t[-1]),
                        "status": int(sol.status),
                        "nfev": int(sol.nfev),
                        "njev": int(sol.njev),
                        "nlu": int(sol.nlu),
                        "nsteps": int(sol.t.size - 1),
                    }
                )
            entry["curves"][method] = points
        out.append(entry)
    return out


def once(fn):
    """(CPU time of this process in ms, fn's result, wall time in ms). The CPU time is
    what the rows report: on a loaded machine a solve waits for a core, which adds wall
    time but not CPU time (bench/wasm_bench.mjs measures odelab the same way)."""
    cpu, wall = time.process_time(), time.perf_counter()
    sol = fn()
    return (time.process_time() - cpu) * 1e3, sol, (time.perf_counter() - wall) * 1e3


def timed(runs, fn):
    times, sol = [], None
    for _ in range(runs):
        t, sol, _wall = once(fn)
        times.append(t)
    return statistics.median(times), times, sol


def main():
    runs_rk45 = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    runs_stiff = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    out = {"scipy": scipy.__version__, "numpy": np.__version__, "python": sys.version.split()[0]}
    # BENCH_ONLY=chainBodies,heat,workPrecision runs only those of the long cases.
    only = os.environ.get("BENCH_ONLY")
    chain = json.load(open(CASES, encoding="utf-8")).get("chainBodies")
    if chain and (not only or "chainBodies" in only.split(",")):
        runs = chain.get("runs", {})
        out["chain_bodies"] = [chain_radau(chain, chain["n"], chain["t1"], runs.get(str(chain["n"]), 1))] + [
            chain_radau(chain, n, chain["growth"]["t1"], runs.get(str(n), 1)) for n in chain["growth"]["n"]
        ]
    med, times, sol = timed(
        runs_rk45,
        lambda: solve_ivp(pendulum, (0.0, 100.0), [1.0, 0.0], method="RK45", rtol=1e-8, atol=1e-10),
    )
    out["rk45_pendulum"] = {
        "ms": med,
        "runs": times,
        "nfev": int(sol.nfev),
        "nsteps": int(sol.t.size - 1),
        "y_end": [float(v) for v in sol.y[:, -1]],
        "status": int(sol.status),
    }

    for method in ("Radau", "BDF"):
        med, times, sol = timed(
            runs_stiff,
            lambda m=method: solve_ivp(
                vdp, (0.0, 3000.0), [2.0, 0.0], method=m, rtol=1e-6, atol=1e-8, jac=vdp_jac
            ),
        )
        y_end = [float(v) for v in sol.y[:, -1]]
        out[f"{method.lower()}_vdp"] = {
            "ms": med,
            "runs": times,
            "nfev": int(sol.nfev),
            "njev": int(sol.njev),
            "nlu": int(sol.nlu),
            "nsteps": int(sol.t.size - 1),
            "y_end": y_end,
            "err": max(abs(a - b) for a, b in zip(y_end, VDP_REF)),
            "status": int(sol.status),
        }
    cases = json.load(open(CASES, encoding="utf-8"))
    only = set(os.environ["BENCH_ONLY"].split(",")) if os.environ.get("BENCH_ONLY") else None
    heat = cases.get("heat")
    if heat and (only is None or "heat" in only):
        out["bdf_heat"] = [heat_bdf(n, heat, runs_stiff) for n in heat["n"]]
    wp = cases.get("workPrecision")
    if wp and (only is None or "workPrecision" in only):
        out["work_precision"] = work_precision(wp, min(runs_stiff, 3))
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main()
