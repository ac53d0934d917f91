"""How long the presenter's take-aways take: figure export (SVG, PNG 2×), the HTML report, attack risk.

    .venv/bin/python benchmarks/bench_export.py [--repeats 5]

Prints medians with a baseline measured in the same run: ``figure.to_json()`` of the same chart
(the figure's own serialization, which every export starts from), so the figures read as "this
many times the cost of serializing the chart". The first export also starts the export browser;
it is reported on its own line. Not a test: no assertion, only figures (DESIGN.md section 4).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gaussmech_core.attack_risk import attack_risk_all  # noqa: E402
from gaussmech_core.mechanisms import MECHANISMS  # noqa: E402
from gaussmech_core.registry_types import Setting  # noqa: E402
from gaussmech_ui import export, report  # noqa: E402
from gaussmech_ui.cached import overview as cached  # noqa: E402
from gaussmech_ui.figures import overview as figures  # noqa: E402


def _median(function, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats
    setting = Setting(epsilon=1.0, delta=1e-5, dim=10)
    arguments = cached.setting_arguments(setting, epsilon=False)  # the sweep runs over ε
    low, high = cached.epsilon_grid_exponents(setting.epsilon)
    sweep = cached.std_sweep(**arguments, low_exponent=low, high_exponent=high)
    figure = figures.std_vs_epsilon_figure(sweep, MECHANISMS, setting, {})
    baseline = _median(figure.to_json, repeats)
    rows = [("baseline: figure.to_json()", baseline)]
    if export.export_unavailable_reason() is None:
        start = time.perf_counter()
        export.figure_image(figure, setting, "svg")
        rows.append(("first SVG (starts the export browser)", time.perf_counter() - start))
        rows.append(("SVG", _median(lambda: export.figure_image(figure, setting, "svg"), repeats)))
        rows.append(("PNG at 2×", _median(lambda: export.figure_image(figure, setting, "png"), repeats)))
        export.stop_export_browser()
    else:
        print(export.export_unavailable_reason())
    content = report.ReportContent("Overview", setting, [report.ReportChart(figure, "", "caption")])
    for version in report.VERSIONS:
        rows.append((f"report ({version})", _median(lambda v=version: report.build_report(content, v), repeats)))
    rows.append(("attack risk, every mechanism", _median(lambda: attack_risk_all(setting), max(1, repeats // 2))))
    width = max(len(name) for name, _ in rows)
    print(f"{'what':{width}}  median s  × baseline")
    for name, seconds in rows:
        print(f"{name:{width}}  {seconds:8.3f}  {seconds / baseline:10.1f}")


if __name__ == "__main__":
    main()
