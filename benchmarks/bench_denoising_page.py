"""How fast the denoising lab answers: a server rerun after a change, against the frame alone.

    .venv/bin/python benchmarks/bench_denoising_page.py [--repeats 20]

Each figure is the median time of one ``AppTest.run()`` after a change, measured in the same run
as a baseline: the same change on a trivial app that draws only the shared frame (sidebar and
menu), so the ratio reads the same on any machine.

* "new ε": the ε slider moves to a stop not seen before (within (0.1, 10], so the sweep's ε axis
  stays put): the release, the denoising, the metrics, the figures and the sweeps at the
  current ε are computed again; the sweeps over the ε axis come from the cache.
* "revisited ε": alternating between two stops, everything cached but the release and figures.
* "draw again": a new release seed (the sweeps are unchanged).
* "new pipeline": step 1 changes, so every mechanism's sweep is computed for the new pipeline
  (the worst case of a rerun at the defaults: 1,000 bins, R = 20, 17 values of ε, 3 mechanisms).
* "first load": a new session with an empty cache (the defaults, everything computed).

Target (pages preamble): a rerun at the defaults within a few hundred ms. Not a test: no
assertion, only figures (DESIGN.md section 4).
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

PAGE = "pages/5_Denoising_lab.py"
FRAME_ONLY_PAGE = """
import streamlit as st
from gaussmech_ui.sidebar import render_sidebar

setting = render_sidebar()
st.text("current ε = " + repr(setting.epsilon))
"""
WALK = [stop for stop in PARAMETERS["epsilon"].stops if 0.1 < stop <= 10]
ESTIMATORS = ["empirical_bayes", "james_stein_plus", "soft_threshold", "none"]


def _frame_only_app(folder: Path) -> Path:
    """A throw-away app drawing only the frame, with a page at every menu path (``st.page_link``
    needs the pages it links to, as in the frame's own tests)."""
    from gaussmech_ui.menu import MENU

    shutil.copytree(ROOT / ".streamlit", folder / ".streamlit", dirs_exist_ok=True)
    for entry in MENU:
        page = folder / entry.path
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(FRAME_ONLY_PAGE, encoding="utf-8")
    return folder / "app.py"


def _session(script: Path, page: str | None):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(script), default_timeout=120)
    if page:
        at.switch_page(page)
    at.run()
    if at.exception:
        raise RuntimeError(at.exception[0].value)
    return at


def _timed(run) -> float:
    started = time.perf_counter()
    at = run()
    elapsed = time.perf_counter() - started
    if at.exception:
        raise RuntimeError(at.exception[0].value)
    return elapsed


def epsilon_times(script: Path, page: str | None, epsilons: list[float]) -> list[float]:
    at = _session(script, page)
    at.select_slider(key=widget_key("epsilon")).set_value(0.1).run()
    return [_timed(at.select_slider(key=widget_key("epsilon")).set_value(e).run) for e in epsilons]


def draw_times(repeats: int) -> list[float]:
    at = _session(ROOT / "app.py", PAGE)
    return [_timed(at.button(key="denoising_draw_again").click().run) for _ in range(repeats)]


def pipeline_times(repeats: int) -> list[float]:
    import streamlit as st

    at = _session(ROOT / "app.py", PAGE)
    times = []
    for index in range(repeats):
        st.cache_data.clear()  # every pipeline is new: its sweeps are computed
        box = at.selectbox(key="denoising_estimator_histogram").set_value(ESTIMATORS[index % len(ESTIMATORS)])
        times.append(_timed(box.run))
    return times


def first_load_times(repeats: int) -> list[float]:
    import streamlit as st

    times = []
    for _ in range(repeats):
        st.cache_data.clear()
        started = time.perf_counter()
        _session(ROOT / "app.py", PAGE)
        times.append(time.perf_counter() - started)
    return times


def _row(label: str, times: list[float], baseline: float | None) -> str:
    median = statistics.median(times) * 1000
    ratio = f"{median / baseline:6.1f}×" if baseline else "    —  "
    return f"{label:<58} {median:8.1f} ms  {ratio}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    repeats = parser.parse_args().repeats
    os.chdir(ROOT)
    walk = [WALK[i % len(WALK)] for i in range(repeats)]
    alternating = [0.5, 0.7] * max(1, repeats // 2)
    with tempfile.TemporaryDirectory() as folder:
        baseline = epsilon_times(_frame_only_app(Path(folder)), None, walk)
    _session(ROOT / "app.py", PAGE)  # warm-up: imports and first compilation
    base = statistics.median(baseline) * 1000
    rows = [
        ("baseline: frame only (sidebar + menu), ε change", baseline, None),
        ("denoising lab, new ε (release + current-ε sweeps)", epsilon_times(ROOT / "app.py", PAGE, walk), base),
        ("denoising lab, revisited ε", epsilon_times(ROOT / "app.py", PAGE, alternating), base),
        ("denoising lab, draw again", draw_times(repeats), base),
        ("denoising lab, new pipeline (all sweeps recomputed)", pipeline_times(max(4, repeats // 2)), base),
        ("denoising lab, first load with an empty cache", first_load_times(max(3, repeats // 4)), base),
    ]
    print(f"Server time of one rerun (AppTest, median of {repeats} unless stated):")
    for label, times, reference in rows:
        print(_row(label, times, reference))


if __name__ == "__main__":
    main()
