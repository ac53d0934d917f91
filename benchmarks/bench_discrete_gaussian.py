"""Speed of the discrete Gaussian (CKS20) against baselines measured in the same run.

Run: ``.venv/bin/python benchmarks/bench_discrete_gaussian.py``

Prints two tables:

* calibration: µs per point of :func:`gaussmech_core.discrete_gaussian.discrete_gaussian_sigma`
  in one vectorized call (both neighbour relations, Δ = 1 and 5) and per scalar call, with the
  ratio to :func:`gaussmech_core.gaussian.analytic_gaussian_sigma` (the continuous Gaussian) on
  the same points, timed in the same run; ε log-uniform in [1e-3, 50], δ log-uniform in
  [1e-300, 0.5] (the domain the tests check against mpmath);
* sampling: draws per second of the exact sampler (integer and rational arithmetic only, pure
  Python) and of the float sampler (numpy, vectorized), at several σ, and their ratio.

Each figure is the median of a few repeats (``time.perf_counter``) with the process CPU time
beside it (``time.process_time``): the machine may be shared, so compare ratios and CPU time.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_calibration import _median_seconds as median_seconds  # noqa: E402

from gaussmech_core.discrete_gaussian import (  # noqa: E402
    discrete_gaussian_exact_sample,
    discrete_gaussian_sample,
    discrete_gaussian_sigma,
)
from gaussmech_core.gaussian import analytic_gaussian_sigma  # noqa: E402

VECTOR_POINTS = 2_000
SCALAR_POINTS = 100
REPEATS = 3
EXACT_DRAWS = 20_000
FLOAT_DRAWS = 1_000_000


def _median_seconds(function, repeats=REPEATS):
    """(median wall time, median CPU time of this process): the timer of bench_calibration.py."""
    return median_seconds(function, repeats)


def _sample(rng, size):
    epsilon = 10.0 ** rng.uniform(-3.0, np.log10(50.0), size)
    delta = 10.0 ** rng.uniform(-300.0, np.log10(0.5), size)
    return epsilon, delta


def calibration_rows(rng):
    epsilon, delta = _sample(rng, VECTOR_POINTS)
    scalar_epsilon, scalar_delta = _sample(rng, SCALAR_POINTS)
    rows = []
    for neighbours in ("add_remove", "replace"):
        for sensitivity in (1, 5):
            continuous = sensitivity * (2**0.5 if neighbours == "replace" else 1.0)
            wall, cpu = _median_seconds(lambda: discrete_gaussian_sigma(epsilon, delta, sensitivity, neighbours))
            base_wall, base_cpu = _median_seconds(lambda: analytic_gaussian_sigma(epsilon, delta, continuous))
            pairs = list(zip(scalar_epsilon.tolist(), scalar_delta.tolist()))
            one_wall, _ = _median_seconds(
                lambda: [discrete_gaussian_sigma(e, d, sensitivity, neighbours) for e, d in pairs], 1
            )
            one_base, _ = _median_seconds(lambda: [analytic_gaussian_sigma(e, d, continuous) for e, d in pairs], 1)
            rows.append(
                (
                    f"{neighbours}, Δ={sensitivity}",
                    1e6 * wall / epsilon.size,
                    1e6 * cpu / epsilon.size,
                    wall / base_wall,
                    cpu / base_cpu,
                    1e6 * one_wall / len(pairs),
                    one_wall / one_base,
                )
            )
    return rows


def sampling_rows():
    rows = []
    for sigma_squared in (Fraction(1, 4), Fraction(4), Fraction(100), Fraction(10**6)):
        sigma = float(sigma_squared) ** 0.5
        exact_wall, exact_cpu = _median_seconds(
            lambda: discrete_gaussian_exact_sample(sigma_squared, size=EXACT_DRAWS, rng=1), 1
        )
        rng = np.random.default_rng(1)
        float_wall, float_cpu = _median_seconds(lambda: discrete_gaussian_sample(rng, FLOAT_DRAWS, sigma))
        exact_rate, float_rate = EXACT_DRAWS / exact_wall, FLOAT_DRAWS / float_wall
        rows.append(
            (
                f"σ² = {sigma_squared}",
                exact_rate,
                EXACT_DRAWS / exact_cpu,
                float_rate,
                FLOAT_DRAWS / float_cpu,
                float_rate / exact_rate,
            )
        )
    return rows


def main():
    rng = np.random.default_rng(2020)
    print(
        f"Calibration, {VECTOR_POINTS} points vectorized / {SCALAR_POINTS} scalar calls "
        "(ε in [1e-3, 50], δ in [1e-300, 0.5]); ratio = discrete / analytic Gaussian, same points"
    )
    print(f"{'case':<18} {'µs/pt':>9} {'cpu µs/pt':>10} {'ratio':>8} {'cpu ratio':>10} {'µs/scalar':>10} {'ratio':>8}")
    for name, per_point, cpu_point, ratio, cpu_ratio, scalar, scalar_ratio in calibration_rows(rng):
        print(
            f"{name:<18} {per_point:9.1f} {cpu_point:10.1f} {ratio:8.0f} {cpu_ratio:10.0f} {scalar:10.0f} {scalar_ratio:8.0f}"
        )
    print()
    print(
        f"Sampling: exact sampler ({EXACT_DRAWS} draws, pure Python, integers only) vs float sampler "
        f"({FLOAT_DRAWS} draws, numpy)"
    )
    print(f"{'σ²':<14} {'exact/s':>10} {'cpu':>10} {'float/s':>12} {'cpu':>12} {'float/exact':>12}")
    for name, exact_rate, exact_cpu, float_rate, float_cpu, ratio in sampling_rows():
        print(f"{name:<14} {exact_rate:10.0f} {exact_cpu:10.0f} {float_rate:12.0f} {float_cpu:12.0f} {ratio:12.0f}")


if __name__ == "__main__":
    main()
