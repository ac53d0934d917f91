"""How fast the three teaching pages answer a slider move, on the server (AppTest).

    .venv/bin/python benchmarks/bench_teaching_pages.py [--repeats 20] [--pages 1 2 3]

Pages: Noise distributions, Tail probabilities, Privacy profiles. For every tab of each page (the
default tab first; only the open tab is computed), one rerun after a change of the ε slider is
timed around ``AppTest.run()``, median of ``--repeats``, with **every** ``st.cache_data`` entry
dropped before each run: the worst case of a new ε, where calibrations, curves and Monte Carlo
draws (at the default sample size) are all computed again. A baseline is measured in the same
run: the same measurement on a trivial app that draws only the shared frame (sidebar and menu).
Target: <= 300 ms for each page at its default tab.

Not a test: no assertion, only figures (DESIGN.md section 4).
"""

from __future__ import annotations

import argparse
import logging
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

FRAME_ONLY_PAGE = """
import streamlit as st
from gaussmech_ui.sidebar import render_sidebar

setting = render_sidebar()
st.text("current ε = " + repr(setting.epsilon))
"""
PAGES = {
    "1": (
        "pages/1_Noise_distributions.py",
        "distributions_view",
        ["Densities", "Generalized Gaussian family", "Draw samples", "Noise as vectors"],
    ),
    "2": (
        "pages/2_Tail_probabilities.py",
        "tails_view",
        [
            "Per coordinate",
            "Whole vector",
            "Laplace vs Gaussian: tails",
            "Laplace vs Gaussian: privacy cost",
            "Laplace vs Gaussian: variance",
        ],
    ),
    "3": (
        "pages/3_Privacy_profiles.py",
        "profiles_view",
        ["Privacy profiles", "Privacy loss", "Where the classical formula holds", "Hypothesis testing", "Composition"],
    ),
}
TARGET_MS = 300.0
START = 0.7
# ε stops around the default, each rerun a different value (and every cache is dropped anyway).
WALK = [stop for stop in PARAMETERS["epsilon"].stops if 0.7 < stop <= 3.0] + [0.7]


def _frame_only_app(folder: Path) -> Path:
    shutil.copytree(ROOT / ".streamlit", folder / ".streamlit", dirs_exist_ok=True)
    # Streamlit resolves st.page_link("app.py") only when the app uses folder-based pages, so the
    # frame-only app gets an (empty) pages/ folder like the real one.
    (folder / "pages").mkdir(exist_ok=True)
    script = folder / "app.py"
    script.write_text(FRAME_ONLY_PAGE, encoding="utf-8")
    return script


def server_times(
    script: Path, repeats: int, page: str | None = None, tab_key: str | None = None, tab: str | None = None
) -> list[float]:
    """Time of one rerun after each ε slider change, with st.cache_data cleared before each run."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(script), default_timeout=120)
    if page:
        at.switch_page(page)
    at.run()
    if tab_key and tab:
        at.session_state[tab_key] = tab
    at.select_slider(key=widget_key("epsilon")).set_value(START).run()  # imports and first draw done
    times = []
    for index in range(repeats):
        epsilon = WALK[index % len(WALK)]
        st.cache_data.clear()
        slider = at.select_slider(key=widget_key("epsilon")).set_value(epsilon)
        started = time.perf_counter()
        slider.run()
        times.append(time.perf_counter() - started)
        if at.exception:
            raise RuntimeError(at.exception[0].value)
        if at.error:
            raise RuntimeError(at.error[0].value)
        if tab_key and tab and at.session_state[tab_key] != tab:
            raise RuntimeError(f"expected tab {tab!r}, got {at.session_state[tab_key]!r}")
    return times


def _row(label: str, times: list[float], baseline: float | None, target_ms: float | None) -> str:
    median = statistics.median(times) * 1000
    ratio = f"{median / baseline:5.1f}×" if baseline else "   —  "
    verdict = "" if target_ms is None else ("meets target" if median <= target_ms else "MISSES target")
    target = f"<= {target_ms:.0f} ms" if target_ms else ""
    return f"{label:<60} {median:8.1f} ms  {ratio}  {target:<11} {verdict}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--pages", nargs="*", default=list(PAGES))
    arguments = parser.parse_args()
    os.chdir(ROOT)
    # st.cache_data.clear() outside a server logs "No runtime found" each time; it is expected here.
    logging.getLogger("streamlit").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as folder:
        frame_only = _frame_only_app(Path(folder))
        baseline = server_times(frame_only, arguments.repeats)
        base = statistics.median(baseline) * 1000
        print(
            f"Server time of one rerun after an ε slider change, every cache dropped (AppTest, median of {arguments.repeats}):"
        )
        print(_row("baseline: frame only (sidebar + menu)", baseline, None, None))
        for number in arguments.pages:
            page, tab_key, tabs = PAGES[number]
            for index, tab in enumerate(tabs):
                times = server_times(ROOT / "app.py", arguments.repeats, page, tab_key, tab)
                label = f"{Path(page).stem} · {tab}" + (" (default tab)" if index == 0 else "")
                print(_row(label, times, base, TARGET_MS if index == 0 else None))


if __name__ == "__main__":
    main()
