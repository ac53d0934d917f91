"""Accuracy of :func:`analytic_gaussian_sigma` against an mpmath bisection, per decade of ε.

Run: ``.venv/bin/python benchmarks/accuracy_table.py`` (about 10 s).

For ε in each decade [10^k, 10^(k+1)) (four values per decade, k = -6 … 2, plus ε = 1000) and
δ in [1e-300, 0.5] (20 values from 1e-300 to 0.5), it prints the largest relative error of σ
(vectorized and scalar paths) against a 60-digit mpmath bisection of Balle & Wang's eq. (6),
the smallest relative excess σ/σ_exact − 1 (never negative: σ is never below the exact value),
and whether the δ achieved by the returned float σ, computed exactly in mpmath, ever exceeds
the target.
"""

from __future__ import annotations

import sys
from pathlib import Path

import mpmath as mp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gaussmech_core.gaussian import analytic_gaussian_sigma  # noqa: E402

DPS = 60
DELTAS = [10.0**-p for p in (300, 250, 200, 150, 100, 75, 50, 30, 20, 15, 10, 7, 5, 4, 3, 2)] + [0.05, 0.1, 0.3, 0.5]


def mp_delta(epsilon, mu):
    epsilon, mu = mp.mpf(epsilon), mp.mpf(mu)
    return mp.ncdf(mu / 2 - epsilon / mu) - mp.exp(epsilon) * mp.ncdf(-mu / 2 - epsilon / mu)


def mp_sigma(epsilon, delta):
    """σ (Δ = 1) by bisection in log μ, bracketed by doubling, to 1e-30 relative."""
    target = mp.mpf(delta)
    low = mp.mpf(-1)
    while mp_delta(epsilon, mp.exp(low)) > target:
        low -= 4
    high = low + 4
    while mp_delta(epsilon, mp.exp(high)) < target:
        low, high = high, high + 4
    while high - low > mp.mpf(10) ** -30:
        middle = (low + high) / 2
        if mp_delta(epsilon, mp.exp(middle)) > target:
            high = middle
        else:
            low = middle
    return 1 / mp.exp((low + high) / 2)


def main():
    mp.mp.dps = DPS
    decades = [(k, [10.0 ** (k + j / 4) for j in range(4)]) for k in range(-6, 3)] + [(3, [1000.0])]
    print(
        f"{'ε decade':<12} {'max rel. error (vector)':>24} {'max rel. error (scalar)':>24} {'min excess':>11} {'δ exceeded':>11}"
    )
    overall = 0.0
    for k, epsilons in decades:
        epsilon_grid, delta_grid = np.meshgrid(epsilons, DELTAS, indexing="ij")
        vectorized = analytic_gaussian_sigma(epsilon_grid.ravel(), delta_grid.ravel())
        worst_vector = worst_scalar = 0.0
        min_excess = np.inf
        exceeded = 0
        for e, d, sigma_vector in zip(epsilon_grid.ravel(), delta_grid.ravel(), vectorized):
            exact = mp_sigma(float(e), float(d))
            sigma_scalar = analytic_gaussian_sigma(float(e), float(d))
            for sigma, slot in ((float(sigma_vector), "vector"), (sigma_scalar, "scalar")):
                excess = float((mp.mpf(sigma) - exact) / exact)
                min_excess = min(min_excess, excess)
                if slot == "vector":
                    worst_vector = max(worst_vector, abs(excess))
                else:
                    worst_scalar = max(worst_scalar, abs(excess))
                exceeded += int(mp_delta(float(e), 1 / mp.mpf(sigma)) > d)
        overall = max(overall, worst_vector, worst_scalar)
        label = f"[1e{k}, 1e{k + 1})" if k < 3 else "1e3"
        print(f"{label:<12} {worst_vector:>24.1e} {worst_scalar:>24.1e} {min_excess:>11.1e} {exceeded:>11d}")
    print(f"overall max relative error: {overall:.1e} (bar: 1e-9 for ε < 1e-2, 1e-12 for ε ≥ 1e-2)")


if __name__ == "__main__":
    main()
