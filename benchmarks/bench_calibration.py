"""Speed of the analytic Gaussian calibration against baselines measured in the same run.

Run: ``.venv/bin/python benchmarks/bench_calibration.py``

Prints one table: time per point of :func:`gaussmech_core.gaussian.analytic_gaussian_sigma` on
100,000 (ε, δ) pairs in one vectorized call, time per scalar call, and the same for

* Balle & Wang's reference algorithm (``agm-example.py``, 2018), rewritten here in its style: Φ
  from ``scipy.special.erf``, the B+/B− split, doubling then bisection until
  ``|B(s) − δ| ≤ 1e-12`` (an absolute tolerance, which makes it wrong for δ below about 1e-12);
* ``dp_accounting.gaussian_mechanism.get_sigma_gaussian`` (Google), when it is importable.

The baselines work only on part of the domain (Balle & Wang's code loops forever at ε = 0,
overflows at ε ≥ 710 and is not private for tiny δ), so the comparison uses a sample where they
do: ε log-uniform in [1e-2, 10], δ log-uniform in [1e-10, 1e-2]. Our function is also timed on
the full domain (ε in [1e-6, 1e3], δ in [1e-300, 0.5]). Each figure is the median of several
repeats (``time.perf_counter``), with the process CPU time beside it (``time.process_time``)
because the machine may be shared: under load compare ratios and CPU time, not wall time.
Targets: ≤ 1 µs per point vectorized, ≤ 20 µs per scalar call.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from math import exp, sqrt
from pathlib import Path

import numpy as np
from scipy.special import erf

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gaussmech_core.gaussian import analytic_gaussian_sigma  # noqa: E402

VECTOR_POINTS = 100_000
SCALAR_POINTS = 2_000
REPEATS = 7


def balle_wang_sigma(epsilon, delta, sensitivity=1.0, tol=1.0e-12):
    """Balle & Wang's Algorithm 1 as in their ``agm-example.py``: scalar, erf-based, absolute tol."""

    def phi(t):
        return 0.5 * (1.0 + erf(float(t) / sqrt(2.0)))

    def case_a(s):  # B+ (alpha < 1)
        return phi(sqrt(epsilon * s)) - exp(epsilon) * phi(-sqrt(epsilon * (s + 2.0)))

    def case_b(s):  # B- (alpha >= 1)
        return phi(-sqrt(epsilon * s)) - exp(epsilon) * phi(-sqrt(epsilon * (s + 2.0)))

    def doubling_trick(predicate_stop, s_inf, s_sup):
        while not predicate_stop(s_sup):
            s_inf = s_sup
            s_sup = 2.0 * s_inf
        return s_inf, s_sup

    def binary_search(predicate_stop, predicate_left, s_inf, s_sup):
        s_mid = s_inf + (s_sup - s_inf) / 2.0
        while not predicate_stop(s_mid):
            if predicate_left(s_mid):
                s_sup = s_mid
            else:
                s_inf = s_mid
            s_mid = s_inf + (s_sup - s_inf) / 2.0
        return s_mid

    delta_threshold = case_a(0.0)
    if delta == delta_threshold:
        alpha = 1.0
    else:
        if delta > delta_threshold:
            predicate_stop_doubling = lambda s: case_a(s) >= delta  # noqa: E731
            s_to_delta = case_a
            predicate_left = lambda s: s_to_delta(s) > delta  # noqa: E731
            s_to_alpha = lambda s: sqrt(1.0 + s / 2.0) - sqrt(s / 2.0)  # noqa: E731
        else:
            predicate_stop_doubling = lambda s: case_b(s) <= delta  # noqa: E731
            s_to_delta = case_b
            predicate_left = lambda s: s_to_delta(s) < delta  # noqa: E731
            s_to_alpha = lambda s: sqrt(1.0 + s / 2.0) + sqrt(s / 2.0)  # noqa: E731
        predicate_stop_bisection = lambda s: abs(s_to_delta(s) - delta) <= tol  # noqa: E731
        s_inf, s_sup = doubling_trick(predicate_stop_doubling, 0.0, 1.0)
        alpha = s_to_alpha(binary_search(predicate_stop_bisection, predicate_left, s_inf, s_sup))
    return alpha * sensitivity / sqrt(2.0 * epsilon)


def _sample(rng, size, epsilon_range, delta_range):
    epsilon = 10.0 ** rng.uniform(*np.log10(epsilon_range), size)
    delta = 10.0 ** rng.uniform(*np.log10(delta_range), size)
    return epsilon, delta


def _median_seconds(function, repeats=REPEATS):
    """(median wall time by perf_counter, median CPU time of this process) over the repeats."""
    wall, cpu = [], []
    for _ in range(repeats):
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        function()
        wall.append(time.perf_counter() - start_wall)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


def _per_point_vectorized(epsilon, delta):
    wall, cpu = _median_seconds(lambda: analytic_gaussian_sigma(epsilon, delta))
    return wall / epsilon.size, cpu / epsilon.size


def _per_point_loop(function, epsilon, delta, repeats=REPEATS):
    pairs = list(zip(epsilon.tolist(), delta.tolist()))
    wall, cpu = _median_seconds(lambda: [function(e, d) for e, d in pairs], repeats)
    return wall / len(pairs), cpu / len(pairs)


def _dp_accounting():
    try:
        from dp_accounting.gaussian_mechanism import get_sigma_gaussian  # type: ignore
    except ImportError:
        return None
    return get_sigma_gaussian


def main():
    load = os.getloadavg()
    rng = np.random.default_rng(20260101)
    full = _sample(rng, VECTOR_POINTS, (1e-6, 1e3), (1e-300, 0.5))
    common = _sample(rng, VECTOR_POINTS, (1e-2, 10.0), (1e-10, 1e-2))
    full_scalar = (full[0][:SCALAR_POINTS], full[1][:SCALAR_POINTS])
    common_scalar = (common[0][:SCALAR_POINTS], common[1][:SCALAR_POINTS])

    analytic_gaussian_sigma(full[0][:10], full[1][:10])  # warm-up (imports, caches)
    rows = [
        ("gaussmech vectorized, full domain", _per_point_vectorized(*full)),
        ("gaussmech vectorized, common domain", _per_point_vectorized(*common)),
        ("gaussmech scalar calls, full domain", _per_point_loop(analytic_gaussian_sigma, *full_scalar)),
        ("gaussmech scalar calls, common domain", _per_point_loop(analytic_gaussian_sigma, *common_scalar)),
        (
            "Balle & Wang agm-example (scalar), common domain",
            _per_point_loop(balle_wang_sigma, *common_scalar, repeats=3),
        ),
    ]
    google = _dp_accounting()
    if google is not None:
        rows.append(
            ("dp_accounting get_sigma_gaussian, common domain", _per_point_loop(google, *common_scalar, repeats=3))
        )
    baseline_wall, baseline_cpu = rows[4][1]

    width = max(len(name) for name, _ in rows)
    print(f"load average before the run: {', '.join(f'{x:.2f}' for x in load)} on {os.cpu_count()} CPUs")
    print(f"{'calibration':<{width}}  {'wall µs/pt':>10}  {'CPU µs/pt':>9}  {'B&W/this (wall)':>15}  {'(CPU)':>6}")
    for name, (wall, cpu) in rows:
        print(
            f"{name:<{width}}  {wall * 1e6:>10.3f}  {cpu * 1e6:>9.3f}  {baseline_wall / wall:>15.1f}  {baseline_cpu / cpu:>6.1f}"
        )
    if google is None:
        print("dp_accounting is not installed: its get_sigma_gaussian baseline was skipped.")
    vector_wall, scalar_wall = rows[0][1][0], rows[2][1][0]
    print(
        f"targets (wall time): vectorized <= 1 µs per point ({'met' if vector_wall <= 1e-6 else 'NOT met'}), "
        f"scalar <= 20 µs per call ({'met' if scalar_wall <= 20e-6 else 'NOT met'})"
    )
    ours = analytic_gaussian_sigma(*common_scalar)
    theirs = np.array([balle_wang_sigma(e, d) for e, d in zip(*common_scalar)])
    print(f"agreement on the common sample: max |σ_B&W/σ − 1| = {np.max(np.abs(theirs / ours - 1.0)):.1e}")


if __name__ == "__main__":
    main()
