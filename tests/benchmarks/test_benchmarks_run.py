"""Every benchmark in benchmarks/ still runs to its figures (smallest settings; no timing asserted).

The benchmarks are the evidence for the performance claims in the README and the issues, and
they drive the pages through AppTest by tab names and widget keys: when a page changes, a
benchmark can break silently (a renamed tab once made bench_teaching_pages.py stop with an
error). Each one runs here in a subprocess with its smallest repeat count.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# (script and arguments, a text its output must contain)
RUNS = [
    (["bench_overview.py", "--repeats", "1", "--no-browser"], "Overview, new ε"),
    (["bench_accuracy_page.py", "--repeats", "1"], " ms"),
    (["bench_teaching_pages.py", "--repeats", "1", "--pages", "1", "2", "3"], "Laplace vs Gaussian: variance"),
    (["bench_denoising_page.py", "--repeats", "1"], "first load with an empty cache"),
    (["bench_denoising.py", "--runs", "1", "--uploads-only"], "the cap: 10,485,760 B"),
    (["bench_calibration.py"], "gaussmech vectorized, full domain"),
    (["bench_discrete_gaussian.py"], "add_remove, Δ=1"),
    (["accuracy_table.py"], "overall max relative error"),
    (["bench_export.py", "--repeats", "1"], "attack risk, every mechanism"),
    (
        ["compare_trees.py", "--baseline", ".", "--candidate", ".", "--rounds", "1", "--repeats", "1"]
        + ["--pages", "overview", "--only", "revisited"],
        "Overview, revisited ε",
    ),
    (["count_mechanism_ids.py"], "literal mechanism ids"),
    (["bench_dpsgd.py", "--quick"], "ratio to gaussmech"),
]


@pytest.mark.slow
@pytest.mark.parametrize("command, expected", RUNS, ids=[run[0][0] for run in RUNS])
def test_benchmark_runs_to_its_figures(command, expected):
    finished = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / command[0]), *command[1:]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert finished.returncode == 0, finished.stderr[-3000:]
    assert expected in finished.stdout, finished.stdout[-3000:]
