"""Is the discrete Gaussian's default σ safe to round up? A slow check, stored as test data.

    .venv/bin/python tools/discrete_gaussian_round_up_reference.py [--quick]

For every setting of the grid (ε from 1e-3 to 1000, δ from 1e-300 to 0.5, Δ in {1, 2, 3, 7, 100},
both neighbour relations) it takes σ₀ = ``discrete_gaussian_sigma`` and scans σ' in [σ₀, 2σ₀]:
the float profile on a fine grid (20 001 points) finds the σ' where δ(σ') is largest, and the
mpmath lattice sum of ``tests/core/test_discrete_gaussian.py`` (40 digits, written independently
of the module) evaluates δ at σ₀, at the eight largest grid points and at the crossings nearest
them. It records, per setting, σ₀, the smallest private σ, and the worst δ(σ')/δ_target found
by mpmath, and writes ``tests/data/discrete_gaussian_round_up.json``, which
``tests/core/test_discrete_gaussian_round_up_data.py`` reads: every ratio must be at most 1,
and σ₀ must still be what the module returns.

Not a test and not fast (tens of minutes): it is run by hand after a change to the calibration.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import mpmath as mp
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "core"))

from test_discrete_gaussian import mp_log_delta  # noqa: E402  (the independent mpmath oracle)

from gaussmech_core.discrete_gaussian import (  # noqa: E402
    discrete_gaussian_log_delta,
    discrete_gaussian_sigma,
    discrete_gaussian_smallest_sigma,
)

OUTPUT = ROOT / "tests" / "data" / "discrete_gaussian_round_up.json"
EPSILONS = [1e-3, 1e-2, 0.1, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0, 13.0, 20.0, 50.0, 200.0, 1000.0]
DELTAS = [1e-300, 1e-100, 1e-30, 1e-10, 1e-5, 1e-2, 0.1, 0.5]
SENSITIVITIES = [1, 2, 3, 7, 100]
RELATIONS = ["add_remove", "replace"]
GRID = 20_001
CHECKED = 8  # grid points (the largest δ) confirmed by mpmath per setting


def check(epsilon, delta, sensitivity, neighbours):
    sigma = float(discrete_gaussian_sigma(epsilon, delta, sensitivity, neighbours))
    smallest = discrete_gaussian_smallest_sigma(epsilon, delta, sensitivity, neighbours).smallest_sigma
    grid = np.linspace(sigma, 2.0 * sigma, GRID)
    log_delta = discrete_gaussian_log_delta(epsilon, grid, sensitivity, neighbours)
    worst = np.argsort(log_delta)[-CHECKED:]
    # Where the sawtooth has its peaks, the grid point next to a peak may be just off it: check the
    # neighbours of each worst point as well.
    points = sorted(
        {0, *worst.tolist(), *np.clip(worst - 1, 0, GRID - 1).tolist(), *np.clip(worst + 1, 0, GRID - 1).tolist()}
    )
    target = mp.log(mp.mpf(delta))
    with mp.workdps(40):
        ratios = [
            float(mp.exp(mp_log_delta(epsilon, float(grid[i]), sensitivity, neighbours) - target)) for i in points
        ]
    return {
        "epsilon": epsilon,
        "delta": delta,
        "sensitivity": sensitivity,
        "neighbours": neighbours,
        "sigma": sigma,
        "smallest_sigma": smallest,
        "float_worst_ratio": float(math.exp(float(np.max(log_delta)) - math.log(delta))),
        "mpmath_worst_ratio": max(ratios),
        "mpmath_points": len(points),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few settings only, printed, nothing written")
    args = parser.parse_args()
    settings = [(e, d, s, n) for n in RELATIONS for s in SENSITIVITIES for d in DELTAS for e in EPSILONS]
    if args.quick:
        settings = settings[:: max(1, len(settings) // 12)]
    started = time.process_time()
    rows = []
    for index, setting in enumerate(settings):
        rows.append(check(*setting))
        if index % 50 == 0:
            print(f"{index}/{len(settings)} {time.process_time() - started:.0f} s CPU", flush=True)
    worst = max(rows, key=lambda row: row["mpmath_worst_ratio"])
    differ = sum(row["sigma"] > row["smallest_sigma"] for row in rows)
    summary = {
        "settings": len(rows),
        "grid_points_per_setting": GRID,
        "mpmath_points": sum(row["mpmath_points"] for row in rows),
        "worst_mpmath_ratio": worst["mpmath_worst_ratio"],
        "worst_setting": {key: worst[key] for key in ("epsilon", "delta", "sensitivity", "neighbours")},
        "settings_where_the_safe_sigma_exceeds_the_smallest": differ,
        "cpu_seconds": round(time.process_time() - started, 1),
    }
    print(json.dumps(summary, indent=2))
    if not args.quick:
        OUTPUT.parent.mkdir(parents=True, exist_ok=True)
        OUTPUT.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1) + "\n")
        print(f"wrote {OUTPUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
