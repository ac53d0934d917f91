"""How fast the Accuracy-vs-dimension page answers a slider move, on the server (AppTest).

    .venv/bin/python benchmarks/bench_accuracy_page.py [--repeats 20]

Prints medians with a baseline measured in the same run: the same measurement on a trivial app
that draws only the shared frame (sidebar and menu), so the figures read on any machine as "this
much slower than the frame alone".

For each view (tab) of the page: one rerun after a change of the ε slider, timed around
``AppTest.run()``, median of ``--repeats``.

* "new ε": every run moves to an ε the server has not seen (a walk over the slider's stops in
  (0.1, 10]), so every ε-dependent sweep, Monte Carlo and table of the open view is recomputed;
  only ε-independent caches (Laplace/GG loss quantiles at scale 1) are reused, as they are for a
  user moving ε.
* "revisited ε": alternates between two stops, so everything comes from the cache.
* "cold": ``st.cache_data`` and the page's shared calibrations are cleared before each run
  (defaults, ε alternating 1 ↔ 0.7): everything is computed again, including ε-independent tables.

Target (issue 5): the default view reruns in <= 500 ms of server time at the defaults.
Not a test: no assertion, only figures (DESIGN.md section 4).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gaussmech_ui.params import PARAMETERS, widget_key  # noqa: E402

PAGE = "pages/4_Accuracy_vs_dimension.py"
VIEWS = ("Mean error", "Spread of the error", "R1SMG audit", "Accuracy first")
FRAME_ONLY_PAGE = """
import streamlit as st
from gaussmech_ui.sidebar import render_sidebar

setting = render_sidebar()
st.text("current ε = " + repr(setting.epsilon))
"""
START = 0.1
WALK = [stop for stop in PARAMETERS["epsilon"].stops if START < stop <= 10]


def _frame_only_app(folder: Path) -> Path:
    shutil.copytree(ROOT / ".streamlit", folder / ".streamlit", dirs_exist_ok=True)
    # Streamlit resolves st.page_link("app.py") only when the app uses folder-based pages, so the
    # frame-only app gets an (empty) pages/ folder like the real one.
    (folder / "pages").mkdir(exist_ok=True)
    script = folder / "app.py"
    script.write_text(FRAME_ONLY_PAGE, encoding="utf-8")
    return script


def server_times(script: Path, epsilons: list[float], *, view: str | None = None, cold: bool = False) -> list[float]:
    """Time of one rerun after each ε slider change (the page's view chosen through the URL)."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(script), default_timeout=120)
    if view is not None:
        at.query_params["accuracy_view"] = view
        at.switch_page(PAGE)
    at.run()
    at.select_slider(key=widget_key("epsilon")).set_value(START).run()  # imports and ε-independent caches warm
    times = []
    for epsilon in epsilons:
        if cold:
            from gaussmech_ui.cached import accuracy

            st.cache_data.clear()
            accuracy._SHARED_SCALES.clear()  # the calibrations shared across M, kept outside st.cache_data
        slider = at.select_slider(key=widget_key("epsilon")).set_value(epsilon)
        started = time.perf_counter()
        slider.run()
        times.append(time.perf_counter() - started)
        if at.exception or at.error:
            raise RuntimeError([e.value for e in list(at.exception) + list(at.error)])
    return times


def _row(label: str, times: list[float], baseline: float | None, target_ms: float | None) -> str:
    median = statistics.median(times) * 1000
    ratio = f"{median / baseline:6.1f}×" if baseline else "    —  "
    verdict = "" if target_ms is None else ("meets target" if median <= target_ms else "MISSES target")
    target = f"<= {target_ms:.0f} ms" if target_ms else ""
    return f"{label:<58} {median:8.1f} ms  {ratio}  {target:<11} {verdict}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    arguments = parser.parse_args()
    os.chdir(ROOT)
    repeats = arguments.repeats
    walk = [WALK[i % len(WALK)] for i in range(repeats)]
    alternating = [1.0, 0.7] * (repeats // 2) + [1.0] * (repeats % 2)
    with tempfile.TemporaryDirectory() as folder:
        baseline = server_times(_frame_only_app(Path(folder)), walk)
    base = statistics.median(baseline) * 1000
    print(f"Server time of one rerun after an ε slider change (AppTest, median of {repeats}):")
    print(_row("baseline: frame only (sidebar + menu)", baseline, None, None))
    app = ROOT / "app.py"
    print(_row("Mean error (default view), new ε", server_times(app, walk, view=VIEWS[0]), base, 500))
    print(_row("Mean error (default view), revisited ε", server_times(app, alternating, view=VIEWS[0]), base, 500))
    print(
        _row(
            "Mean error (default view), cold (cache cleared)",
            server_times(app, alternating, view=VIEWS[0], cold=True),
            base,
            500,
        )
    )
    for view in VIEWS[1:]:
        print(_row(f"{view}, new ε", server_times(app, walk, view=view), base, None))
        print(_row(f"{view}, revisited ε", server_times(app, alternating, view=view), base, None))


if __name__ == "__main__":
    main()
