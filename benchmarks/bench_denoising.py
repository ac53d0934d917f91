"""Speed of the denoising lab's numerics, against baselines measured in the same run.

Targets (from the issue):
* release + every denoiser + every metric on 1e6 bins: <= 1 s;
* the error-against-ε sweep with R = 50 repetitions on 1e4 bins (20 ε values, 4 mechanisms ×
  5 pipelines): <= 3 s.

* reading the largest accepted upload (1e6 bins within the 10 MiB cap: label,count rows, and a
  1000 × 1000 grid): <= 3 × the time of ``pandas.read_csv`` on the same bytes, with a peak
  memory <= 10 × the file's size (the rise of the peak resident size of a fresh process).

Baselines: drawing the same amount of Gaussian noise with numpy (the least any release must
do), and ``pandas.read_csv`` for the uploads. Each figure is the median of several runs.

Run: ``.venv/bin/python benchmarks/bench_denoising.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import io
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gaussmech_core.denoise import DENOISERS, oracle_prior  # noqa: E402
from gaussmech_core.histogram import error_sweep, evaluate_pipelines, release_histogram  # noqa: E402
from gaussmech_ui.uploads import DEFAULT_MAX_BINS, DEFAULT_MAX_BYTES, parse_histogram_csv  # noqa: E402


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


def numerics_rows(runs: int) -> list:
    """Rows 1 and 2: the release pipeline on 1e6 bins and the error sweep."""
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
        error_sweep(
            histogram,
            mechanisms,
            sweep_pipelines,
            epsilons,
            1e-5,
            "add_remove",
            repetitions=50,
            seed=0,
            total=float(histogram.sum()),
        )

    baseline_sweep = median_time(lambda: rng.standard_normal((len(mechanisms) * 50, histogram.size)), runs)
    measured = median_time(sweep, runs)
    rows.append(("sweep R=50, 1e4 bins, 20 ε, 4 mech × 5 pipelines", measured, 3.0, baseline_sweep))

    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per figure (median reported)")
    parser.add_argument("--uploads-only", action="store_true", help="measure only the reading of uploads")
    arguments = parser.parse_args()
    runs = arguments.runs
    rows = []
    if not arguments.uploads_only:
        rows += numerics_rows(runs)

    # 3. Reading uploads: the largest accepted files, against pandas.read_csv on the same bytes.
    upload_rows = []
    for name, data in largest_uploads().items():
        ours, theirs = interleaved_times(lambda: parse_histogram_csv(data), lambda: pd.read_csv(io.BytesIO(data)), runs)
        rows.append((f"parse {name}", ours, None, theirs, 3.0))
        upload_rows.append((name, data))
    # For reference: the line-precise reader alone (what every upload cost before the fast reader).
    data = next(iter(largest_uploads().values()))
    with_precise_reader_only = lambda: _precise_parse(data)  # noqa: E731
    rows.append(
        (
            "  the same, line-precise reader only (1 run)",
            median_time(with_precise_reader_only, 1),
            None,
            interleaved_times(lambda: None, lambda: pd.read_csv(io.BytesIO(data)), 1)[1],
        )
    )
    print(f"{'task':<56} {'median s':>9} {'target s':>9} {'baseline s':>11} {'ratio':>7}  verdict")
    for task, seconds, target, baseline, *ratio_target in rows:
        target_text = f"{target:9.2f}" if target else f"{'-':>9}"
        baseline_text = f"{baseline:11.4f}" if baseline else f"{'-':>11}"
        ratio = f"{seconds / baseline:7.1f}" if baseline else f"{'-':>7}"
        if ratio_target:
            verdict = (
                f"{'ok' if seconds / baseline <= ratio_target[0] else 'SLOW'} (target ratio <= {ratio_target[0]:g})"
            )
        else:
            verdict = ("ok" if seconds <= target else "SLOW") if target else ""
        print(f"{task:<56} {seconds:9.3f} {target_text} {baseline_text} {ratio}  {verdict}")
    print(
        f"(median of {runs} runs; baseline = numpy standard_normal of the same number of values, "
        "or pandas.read_csv on the same bytes for the uploads, timed alternately with it)"
    )

    # 4. Peak memory of reading each upload, in a fresh process: the rise of the peak resident
    # size (which sees pyarrow's buffers too, unlike tracemalloc). The file's bytes are not counted.
    print(f"\n{'upload':<40} {'file MB':>8} {'peak MB':>8} {'x file':>7} {'pandas MB':>10} {'x file':>7}  verdict")
    for name, data in upload_rows:
        ours = peak_memory("parse_histogram_csv", data)
        theirs = peak_memory("pandas.read_csv", data)
        ratio = ours / len(data)
        print(
            f"{name:<40} {len(data) / 1e6:8.2f} {ours / 1e6:8.1f} {ratio:7.1f} {theirs / 1e6:10.1f} {theirs / len(data):7.1f}"
            f"  {'ok' if ratio <= 10 else 'HIGH'} (target <= 10x the file)"
        )


def _precise_parse(data: bytes):
    """parse_histogram_csv with the fast reader declining every file."""
    import gaussmech_ui.uploads as uploads

    fast, uploads._read_fast = uploads._read_fast, lambda *arguments: None
    try:
        return parse_histogram_csv(data)
    finally:
        uploads._read_fast = fast


def largest_uploads() -> dict[str, bytes]:
    """The largest files the denoising lab accepts: 1e6 bins within the 10 MiB cap, two shapes."""
    values = np.random.default_rng(4).integers(0, 1000, DEFAULT_MAX_BINS)
    column = ("label,count\n" + "\n".join(f"b{i:x},{v}" for i, v in enumerate(values)) + "\n").encode()
    if len(column) > DEFAULT_MAX_BYTES:  # as many whole rows as the cap allows
        column = column[: column.rindex(b"\n", 0, DEFAULT_MAX_BYTES) + 1]
    grid = ("\n".join(",".join(map(str, row)) for row in values.reshape(1000, 1000)) + "\n").encode()
    rows = column.count(b"\n") - 1
    return {
        f"{rows:,} rows (label,count), {len(column) / 2**20:.1f} MiB": column,
        f"1000 x 1000 grid, {len(grid) / 2**20:.1f} MiB": grid,
    }


def interleaved_times(task, baseline, runs: int) -> tuple[float, float]:
    """Median times of ``task`` and ``baseline``, run alternately so that both see the same load."""
    task(), baseline()
    ours, theirs = [], []
    for _ in range(max(runs, 5)):
        for function, times in ((task, ours), (baseline, theirs)):
            start = time.perf_counter()
            function()
            times.append(time.perf_counter() - start)
    return statistics.median(ours), statistics.median(theirs)


_PEAK_SCRIPT = """
import io, os, resource, sys
sys.path.insert(0, {root!r})
import pandas
from gaussmech_ui.uploads import parse_histogram_csv
data = open({path!r}, "rb").read()
read = (lambda: parse_histogram_csv(data)) if {ours} else (lambda: pandas.read_csv(io.BytesIO(data)))
head = b"\\n".join(data.split(b"\\n", 20)[:20])
parse_histogram_csv(head) if {ours} else pandas.read_csv(io.BytesIO(head))  # imports, first calls
# A forked child starts with its peak resident size equal to its resident size (Linux sets the
# high-water mark of a copied address space to its current size), so its rise is the read's.
child = os.fork()
if child == 0:
    with open("/proc/self/statm") as statm:
        before = int(statm.read().split()[1]) * resource.getpagesize()
    result = read()
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before, flush=True)
    os._exit(0)
os.waitpid(child, 0)
"""


def peak_memory(reader: str, data: bytes) -> int:
    """Bytes by which reading ``data`` raises the peak resident size of a fresh Python process."""
    with tempfile.NamedTemporaryFile(suffix=".csv") as file:
        file.write(data)
        file.flush()
        script = _PEAK_SCRIPT.format(root=str(ROOT), path=file.name, ours=reader == "parse_histogram_csv")
        output = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return int(output.stdout.split()[-1])


if __name__ == "__main__":
    main()
