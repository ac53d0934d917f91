"""Speed of the denoising lab's numerics, against baselines measured in the same run.

Targets (from the issue):
* release + every denoiser + every metric on 1e6 bins: <= 1 s;
* the error-against-ε sweep with R = 50 repetitions on 1e4 bins (20 ε values, 4 mechanisms ×
  5 pipelines): <= 3 s.

* reading the largest accepted uploads (1e6 label,count rows; a file of exactly the 10 MiB
  cap; a 1000 × 1000 grid): <= 3 × the time of ``pandas.read_csv`` on the same bytes (CPU time,
  wall-clock time shown too), with a peak memory <= 10 × the file's size: the rise of the peak
  resident size of a fresh process, shown with tracemalloc's peak (Python and numpy) and the
  peak of Arrow's memory pool (which tracemalloc does not see).

Baselines: drawing the same amount of Gaussian noise with numpy (the least any release must
do), and ``pandas.read_csv`` for the uploads. Each figure is the median of several runs.

Run: ``.venv/bin/python benchmarks/bench_denoising.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import io
import json
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
from gaussmech_ui.uploads import DEFAULT_MAX_BINS, DEFAULT_MAX_BYTES, PRECISE_MAX_BYTES, parse_histogram_csv  # noqa: E402


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

    print_numerics(rows, runs)
    print()
    print_upload_times(runs)
    print()
    print_upload_memory()


def print_numerics(rows, runs: int) -> None:
    if not rows:
        return
    print(f"{'task':<56} {'median s':>9} {'target s':>9} {'baseline s':>11} {'ratio':>7}  verdict")
    for task, seconds, target, baseline in rows:
        verdict = "ok" if seconds <= target else "SLOW"
        print(f"{task:<56} {seconds:9.3f} {target:9.2f} {baseline:11.4f} {seconds / baseline:7.1f}  {verdict}")
    print(f"(median of {runs} runs; baseline = numpy standard_normal of the same number of values)")


def print_upload_times(runs: int) -> None:
    """Rows 3: parse_histogram_csv against pandas.read_csv on the same bytes, wall-clock and CPU time."""
    print(
        f"{'parse upload':<46} {'ours ms':>8} {'pandas':>7} {'ratio':>6} {'ours cpu':>9} {'pandas':>7} {'ratio':>6}  verdict"
    )
    files = upload_files()
    for name, data in files.items():
        ours, theirs = interleaved_times(lambda: parse_histogram_csv(data), lambda: pd.read_csv(io.BytesIO(data)), runs)
        wall, cpu = ours[0] / theirs[0], ours[1] / theirs[1]
        verdict = f"{'ok' if cpu <= 3 else 'SLOW'} (target ratio <= 3)"
        print(
            f"{name:<46} {ours[0] * 1e3:8.1f} {theirs[0] * 1e3:7.1f} {wall:6.2f} {ours[1] * 1e3:9.1f} {theirs[1] * 1e3:7.1f} {cpu:6.2f}  {verdict}"
        )
    # For reference: the line-precise reader alone (what every upload cost before the fast reader), on
    # the largest file it reads (PRECISE_MAX_BYTES: above it, a file the fast reader declines is refused).
    name, data = next(iter(files.items()))
    largest = data[: data.rindex(b"\n", 0, PRECISE_MAX_BYTES) + 1]
    precise = median_time(lambda: _precise_parse(largest), 1)
    print(f"{f'  its first {len(largest) / 1e6:.1f} MB, line-precise reader only (1 run)':<46} {precise * 1e3:8.1f}")
    print(
        f"(medians of {max(runs, 5)} runs of each, alternating so that both see the same load; 'cpu' is the "
        "process's CPU time, which other processes on a shared machine disturb less; the verdict is on it)"
    )


def print_upload_memory() -> None:
    """Rows 4: peak memory of one read in a fresh process, three ways, as multiples of the file's size."""
    print(
        f"{'upload':<46} {'file MB':>8} {'RSS MB':>7} {'x file':>6} {'traced':>7} {'arrow':>6} {'x file':>6}"
        f" {'pandas RSS':>10} {'x file':>6}  verdict"
    )
    for name, data in upload_files().items():
        ours = peak_memory("parse_histogram_csv", data)
        theirs = peak_memory("pandas.read_csv", data)
        ratio = ours["rss"] / len(data)
        both = (ours["traced"] + ours["arrow"]) / len(data)
        print(
            f"{name:<46} {len(data) / 1e6:8.2f} {ours['rss'] / 1e6:7.1f} {ratio:6.1f} {ours['traced'] / 1e6:7.1f}"
            f" {ours['arrow'] / 1e6:6.1f} {both:6.1f} {theirs['rss'] / 1e6:10.1f} {theirs['rss'] / len(data):6.1f}"
            f"  {'ok' if ratio <= 10 else 'HIGH'} (target <= 10x the file)"
        )
    print(
        "(RSS: the rise of the peak resident size of a forked child doing one read (all memory, Arrow's too; median of 3);"
        " traced: tracemalloc's peak (Python objects and numpy arrays); arrow: the peak of Arrow's memory pool"
        " in the same read; 'x file' after them is their sum, an upper bound of their joint peak; the file's"
        " own bytes are not counted)"
    )


def _precise_parse(data: bytes):
    """parse_histogram_csv with the fast reader declining every file."""
    import gaussmech_ui.uploads as uploads

    fast, uploads._read_fast = uploads._read_fast, lambda *arguments: None
    try:
        return parse_histogram_csv(data)
    finally:
        uploads._read_fast = fast


def upload_files() -> dict[str, bytes]:
    """The largest files the denoising lab accepts: 1e6 label,count rows, a file of exactly the size cap, a grid."""
    rng = np.random.default_rng(4)
    values = rng.integers(0, 100, DEFAULT_MAX_BINS)
    rows = ("label,count\n" + "\n".join(f"b{i:x},{v}" for i, v in enumerate(values)) + "\n").encode()
    assert len(rows) <= DEFAULT_MAX_BYTES, "1e6 rows must fit the cap"
    # Exactly DEFAULT_MAX_BYTES bytes: as many whole rows with counts up to 999 as fit, and the
    # first labels lengthened by the bytes left over.
    values = rng.integers(0, 1000, DEFAULT_MAX_BINS)
    capped = ("label,count\n" + "\n".join(f"b{i:x},{v}" for i, v in enumerate(values)) + "\n").encode()
    capped = capped[: capped.rindex(b"\n", 0, DEFAULT_MAX_BYTES) + 1]
    short = DEFAULT_MAX_BYTES - len(capped)
    lines = capped.split(b"\n", short + 1)
    lines[1 : short + 1] = [line.replace(b",", b"x,", 1) for line in lines[1 : short + 1]]
    capped = b"\n".join(lines)
    assert len(capped) == DEFAULT_MAX_BYTES
    grid = ("\n".join(",".join(map(str, row)) for row in values.reshape(1000, 1000)) + "\n").encode()
    count = {name: data.count(b"\n") - 1 for name, data in (("rows", rows), ("capped", capped))}
    return {
        f"{count['rows']:,} rows (label,count), {len(rows):,} B": rows,
        f"{count['capped']:,} rows, the cap: {len(capped):,} B": capped,
        f"1000 x 1000 grid, {len(grid):,} B": grid,
    }


def interleaved_times(task, baseline, runs: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """Median (wall-clock, CPU) seconds of ``task`` and of ``baseline``, run alternately so that both see the same load."""
    task(), baseline()
    times = {task: ([], []), baseline: ([], [])}
    for _ in range(max(runs, 5)):
        for function in (task, baseline):
            wall, cpu = time.perf_counter(), time.process_time()
            function()
            times[function][0].append(time.perf_counter() - wall)
            times[function][1].append(time.process_time() - cpu)
    return tuple((statistics.median(times[f][0]), statistics.median(times[f][1])) for f in (task, baseline))


_PEAK_SCRIPT = """
import io, json, os, resource, sys, tracemalloc
sys.path.insert(0, {root!r})
import pandas
import pyarrow
import gaussmech_ui.uploads as uploads
data = open({path!r}, "rb").read()
read = (lambda: uploads.parse_histogram_csv(data)) if {ours} else (lambda: pandas.read_csv(io.BytesIO(data)))
head = b"\\n".join(data.split(b"\\n", 20)[:20])
uploads.parse_histogram_csv(head) if {ours} else pandas.read_csv(io.BytesIO(head))  # imports, first calls


def in_child(measure):
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:
        os.write(writing, str(measure()).encode())
        os._exit(0)
    os.waitpid(child, 0)
    os.close(writing)
    return int(os.read(reading, 100))


def resident_rise():
    # A forked child starts with its peak resident size equal to its resident size (Linux sets
    # the high-water mark of a copied address space to its current size): its rise is the read's.
    with open("/proc/self/statm") as statm:
        before = int(statm.read().split()[1]) * resource.getpagesize()
    result = read()
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before


def traced_peak():
    tracemalloc.start()
    result = read()
    return tracemalloc.get_traced_memory()[1]


def arrow_peak():
    # A pool of its own (over the one the reader uses) counts every Arrow allocation of the read.
    pool = pyarrow.proxy_memory_pool(getattr(uploads, "_POOL", None) or pyarrow.default_memory_pool())
    pyarrow.set_memory_pool(pool)
    uploads._POOL = pool
    result = read()
    return pool.max_memory()


rss = sorted(in_child(resident_rise) for _ in range(3))[1]  # the median of three: the resident size is noisy
print(json.dumps(dict(rss=rss, traced=in_child(traced_peak), arrow=in_child(arrow_peak))))
"""


def peak_memory(reader: str, data: bytes) -> dict[str, int]:
    """Peak bytes of one read of ``data`` in a fresh process: the rise of its resident size, tracemalloc's and Arrow's peaks."""
    with tempfile.NamedTemporaryFile(suffix=".csv") as file:
        file.write(data)
        file.flush()
        script = _PEAK_SCRIPT.format(root=str(ROOT), path=file.name, ours=reader == "parse_histogram_csv")
        output = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return json.loads(output.stdout.splitlines()[-1])


if __name__ == "__main__":
    main()
