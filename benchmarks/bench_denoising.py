"""Speed of the denoising lab's numerics, against baselines measured in the same run.

Targets (from the issue):
* release + every denoiser + every metric on 1e6 bins: <= 1 s;
* the error-against-ε sweep with R = 50 repetitions on 1e4 bins (20 ε values, 4 mechanisms ×
  5 pipelines): <= 3 s.

Baselines: drawing the same amount of Gaussian noise with numpy (the least any release must
do). Each figure is the median of several runs. Also reported, for information: reading an
uploaded CSV of 1e6 bins (one column, and a 1000 × 1000 grid).

Run: ``.venv/bin/python benchmarks/bench_denoising.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gaussmech_core.denoise import DENOISERS, oracle_prior  # noqa: E402
from gaussmech_core.histogram import error_sweep, evaluate_pipelines, release_histogram  # noqa: E402
from gaussmech_ui.uploads import parse_histogram_csv  # noqa: E402


def median_time(task, runs: int) -> float:
    task()  # warm-up: imports, caches, first-touch of memory
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        task()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def sparse_grid(side: int, records: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    bins = side * side
    return rng.multinomial(records, rng.dirichlet(np.full(bins, 1.0 / bins))).reshape(side, side).astype(float)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per figure (median reported)")
    runs = parser.parse_args().runs
    rows = []

    # 1. One release of 1e6 bins, every denoiser (each alone, plus a full pipeline), every metric.
    counts = sparse_grid(1000, 1_000_000, seed=0)
    total = float(counts.sum())
    prior = oracle_prior(counts)
    pipelines = [(step,) for step in DENOISERS] + [("soft_threshold", "simplex", "round")]

    def release_and_denoise():
        release = release_histogram(counts, "analytic_gaussian", 1.0, 1e-5, "add_remove", rng=1)
        evaluate_pipelines(counts, release.noisy, release.noise_std, pipelines, total=total, prior=prior)

    rng = np.random.default_rng(2)
    baseline_release = median_time(lambda: rng.standard_normal(counts.size), runs)
    measured = median_time(release_and_denoise, runs)
    rows.append((f"release + {len(pipelines)} pipelines + 4 metrics, 1e6 bins", measured, 1.0, baseline_release))

    # 2. The error-against-ε sweep: R = 50 on 1e4 bins, 20 ε, 4 mechanisms × 5 pipelines.
    histogram = sparse_grid(100, 10_000, seed=3).reshape(-1)
    mechanisms = ["analytic_gaussian", "classical_gaussian", "laplace", ("generalized_gaussian", 3.0)]
    sweep_pipelines = [(), ("soft_threshold",), ("james_stein_plus",), ("simplex",), ("soft_threshold", "simplex")]
    epsilons = np.logspace(-2, 1, 20)

    def sweep():
        error_sweep(histogram, mechanisms, sweep_pipelines, epsilons, 1e-5, "add_remove", repetitions=50, seed=0,
                    total=float(histogram.sum()))

    baseline_sweep = median_time(lambda: rng.standard_normal((len(mechanisms) * 50, histogram.size)), runs)
    measured = median_time(sweep, runs)
    rows.append(("sweep R=50, 1e4 bins, 20 ε, 4 mech × 5 pipelines", measured, 3.0, baseline_sweep))

    # 3. For information: reading uploads of 1e6 bins.
    values = np.random.default_rng(4).integers(0, 1000, 1_000_000)
    column_csv = ("label,count\n" + "\n".join(f"bin{i},{v}" for i, v in enumerate(values))).encode()
    grid_csv = "\n".join(",".join(map(str, row)) for row in values.reshape(1000, 1000)).encode()
    upload_runs = max(1, runs // 2)
    rows.append(("parse CSV, 1e6 rows (label,count)",
                 median_time(lambda: parse_histogram_csv(column_csv, max_bytes=10**8), upload_runs), None, None))
    rows.append(("parse CSV, 1000 × 1000 grid",
                 median_time(lambda: parse_histogram_csv(grid_csv, max_bytes=10**8), upload_runs), None, None))

    print(f"{'task':<56} {'median s':>9} {'target s':>9} {'baseline s':>11} {'ratio':>7}  verdict")
    for task, seconds, target, baseline in rows:
        target_text = f"{target:9.2f}" if target else f"{'-':>9}"
        baseline_text = f"{baseline:11.4f}" if baseline else f"{'-':>11}"
        ratio = f"{seconds / baseline:7.1f}" if baseline else f"{'-':>7}"
        verdict = ("ok" if seconds <= target else "SLOW") if target else ""
        print(f"{task:<56} {seconds:9.3f} {target_text} {baseline_text} {ratio}  {verdict}")
    print(f"(median of {runs} runs; baseline = numpy standard_normal of the same number of values)")


if __name__ == "__main__":
    main()
