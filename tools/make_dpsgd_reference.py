"""Compute dp_accounting's DP-SGD ε at grid 1e-5 once, for tests/core/test_dpsgd.py.

dp_accounting (requirements-dev.txt) is the reference in the tests, not the engine: its
Connect-the-Dots PLD with ``pessimistic_estimate=True`` is an upper bound on ε, its privacy-buckets
PLD with ``pessimistic_estimate=False`` a lower bound. At the grid 1e-5 each value takes minutes,
so they are computed here and stored as JSON (tests/core/data/dpsgd_reference.json)::

    .venv/bin/python tools/make_dpsgd_reference.py
"""

from __future__ import annotations

import json
import pathlib
import sys
import time

from dp_accounting.pld import privacy_loss_distribution

GRID = 1e-5
CASES = [
    # (sigma, sampling_rate, steps, delta), quick ones first
    (1.0, 0.1, 100, 1e-6),
    (2.0, 0.05, 1_000, 1e-8),
    (0.88253, 0.01, 10_000, 1e-5),  # the setting 1
    (1.20936, 0.00512, 19_532, 1e-5),  # the setting 2
]
OUTPUT = pathlib.Path(__file__).resolve().parents[1] / "tests" / "core" / "data" / "dpsgd_reference.json"


def _epsilon(sigma: float, q: float, steps: int, delta: float, pessimistic: bool) -> float:
    pld = privacy_loss_distribution.from_gaussian_mechanism(
        standard_deviation=sigma,
        sampling_prob=q,
        value_discretization_interval=GRID,
        pessimistic_estimate=pessimistic,
        use_connect_dots=pessimistic,
    )
    return float(pld.self_compose(steps).get_epsilon_for_delta(delta))


def main() -> int:
    rows = []
    for sigma, q, steps, delta in CASES:
        start = time.time()
        upper = _epsilon(sigma, q, steps, delta, True)
        lower = _epsilon(sigma, q, steps, delta, False)
        rows.append(
            {
                "sigma": sigma,
                "sampling_rate": q,
                "steps": steps,
                "delta": delta,
                "pessimistic": upper,
                "optimistic": lower,
            }
        )
        print(rows[-1], f"{time.time() - start:.0f} s", flush=True)
        OUTPUT.write_text(json.dumps({"grid": GRID, "cases": rows}, indent=1) + "\n")  # after each case
    return 0


if __name__ == "__main__":
    sys.exit(main())
