"""Run the issue's DP-SGD failure grid once and store what each point gave, for the tests.

The grid q × T × δ × ε (300 points) takes many CPU-minutes, too long for the suite, so each
point's outcome is computed here, one point per child process (its CPU time and peak memory
measured alone), and stored in tests/core/data/dpsgd_failure_grid.json: σ, ε_low, ε_high, or the
ValueError's message; CPU seconds; peak resident memory. tests/core/test_dpsgd.py checks the
stored outcomes (no NaN, certified, monotone, within the time and memory limits) and runs a
subset live::

    .venv/bin/python tools/run_dpsgd_failure_grid.py [workers]
"""

from __future__ import annotations

import itertools
import json
import math
import multiprocessing
import pathlib
import resource
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gaussmech_core import dpsgd  # noqa: E402

SAMPLING_RATES = [1e-5, 1e-3, 0.1, 0.5, 1.0]
STEPS = [1, 100, 10_000, 1_000_000]
DELTAS = [1e-20, 1e-10, 1e-5]
EPSILONS = [0.01, 1.0, 10.0, 100.0, 1000.0]
COARSEN = 3  # the grid step of the failure test: certified, 8 times coarser than the default
OUTPUT = ROOT / "tests" / "core" / "data" / "dpsgd_failure_grid.json"


def grid() -> list[tuple[float, int, float, float]]:
    return list(itertools.product(SAMPLING_RATES, STEPS, DELTAS, EPSILONS))


def run_point(point: tuple[float, int, float, float]) -> dict[str, object]:
    q, steps, delta, epsilon = point
    start = time.process_time()
    outcome: dict[str, object] = {"sampling_rate": q, "steps": steps, "delta": delta, "epsilon": epsilon}
    try:
        c = dpsgd.dpsgd_sigma(epsilon, delta, q, steps, coarsen=COARSEN)
        outcome.update(sigma=c.sigma, epsilon_low=c.epsilon_low, epsilon_high=c.epsilon_high, error=None)
    except ValueError as error:
        outcome.update(sigma=None, epsilon_low=None, epsilon_high=None, error=str(error))
    outcome["cpu_seconds"] = time.process_time() - start
    outcome["peak_memory_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    return outcome


def _json_number(value: object) -> object:
    return value if not isinstance(value, float) or math.isfinite(value) else repr(value)


def _key(outcome: dict[str, object]) -> tuple[object, ...]:
    return (outcome["sampling_rate"], outcome["steps"], outcome["delta"], outcome["epsilon"])


def _write(points: list[tuple[float, int, float, float]], results: dict[tuple[object, ...], dict[str, object]]) -> None:
    ordered = [results[point] for point in points if point in results]
    complete = len(ordered) == len(points)
    OUTPUT.write_text(json.dumps({"coarsen": COARSEN, "complete": complete, "points": ordered}, indent=1) + "\n")


def main(workers: int = 1) -> None:
    """Run every point not yet stored (the file is rewritten after each point, so a run can resume)."""
    points = grid()
    results: dict[tuple[object, ...], dict[str, object]] = {}
    if OUTPUT.exists():
        stored = json.loads(OUTPUT.read_text())
        if stored.get("coarsen") == COARSEN:
            results = {_key(outcome): outcome for outcome in stored["points"]}
    todo = [point for point in points if point not in results]
    with multiprocessing.get_context("spawn").Pool(workers, maxtasksperchild=1) as pool:
        for outcome in pool.imap_unordered(run_point, todo):
            results[_key(outcome)] = {key: _json_number(value) for key, value in outcome.items()}
            _write(points, results)
            print(json.dumps(outcome), flush=True)
    _write(points, results)
    print(f"{len(results)} of {len(points)} points in {OUTPUT}", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
