"""How fast the Overview answers a slider move: on the server (AppTest) and in the browser.

    .venv/bin/python benchmarks/bench_overview.py [--repeats 20] [--no-browser]

Prints a table of medians with a baseline measured in the same run: the same measurement on a
trivial app that draws only the shared frame (sidebar and menu), so the figures can be read on any
machine as "this much slower than the frame alone".

* Server: one Overview rerun after a change of the ε slider, timed around ``AppTest.run()``,
  median of ``--repeats``. "New ε": the table's cache is dropped before each run, so the table is
  calibrated again, while the sweeps behind the charts come from the cache, as they do for a user
  moving ε within the charts' range; "revisited ε" alternates between two stops, so everything
  is cached. Target: <= 150 ms.
* Browser: from the key press on the ε slider to the chart showing the new ε, in Debian's
  Chromium driven by Playwright against ``streamlit run``, one press per stop from 0.1 to 10
  (each ε new to the server). Target: <= 500 ms.

``--server-compile``: compile each script once, as the server does (AppTest compiles the script
again on every run; the frame-only page is five lines, the Overview two hundred and fifty), so the
ratios are those of the rerun's own work.

Not a test: no assertion, only figures (DESIGN.md section 4).
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
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
STOPS = PARAMETERS["epsilon"].stops
LAUNCH_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
IDLE = 'html[data-gaussmech-layout="settled"] [data-testid="stApp"][data-test-script-state="notRunning"]'


def _frame_only_app(folder: Path) -> Path:
    """An app drawing only the frame, with a page at every menu path (so the menu is drawn too)."""
    from gaussmech_ui.menu import MENU

    shutil.copytree(ROOT / ".streamlit", folder / ".streamlit", dirs_exist_ok=True)
    for entry in MENU:
        page = folder / entry.path
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(FRAME_ONLY_PAGE, encoding="utf-8")
    return folder / "app.py"


START = 0.1
# Stops above 0.1 up to 10: the charts' ε range stays [0.01, 100] there, so their sweeps are cached.
WALK = [stop for stop in STOPS if START < stop <= 10]


def _epsilon_walk(repeats: int) -> list[float]:
    """``repeats`` successive stops to the right of 0.1, round and round within (0.1, 10]."""
    return [WALK[i % len(WALK)] for i in range(repeats)]


def server_times(script: Path, epsilons: list[float], *, forget_table: bool = False) -> list[float]:
    """Time of one rerun after each slider change; ``forget_table`` drops the cached table first."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(script), default_timeout=60)
    at.run()
    at.select_slider(key=widget_key("epsilon")).set_value(START).run()  # warm the sweeps for this range
    times = []
    for epsilon in epsilons:
        if forget_table:
            from gaussmech_ui.cached.overview import calibration_table

            calibration_table.clear()
        slider = at.select_slider(key=widget_key("epsilon")).set_value(epsilon)
        started = time.perf_counter()
        slider.run()
        times.append(time.perf_counter() - started)
        if at.exception:
            raise RuntimeError(at.exception[0].value)
    return times


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def browser_times(script: Path, repeats: int, expect_text) -> list[float]:
    """Key press on the ε slider to the page showing the new ε (``expect_text(ε)`` in the main area)."""
    from playwright.sync_api import expect, sync_playwright

    port = _free_port()
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            script.name,
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--browser.gatherUsageStats",
            "false",
            "--server.fileWatcherType",
            "none",
        ],
        cwd=script.parent,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("streamlit did not start")
                time.sleep(0.3)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=LAUNCH_ARGS, headless=True)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"http://127.0.0.1:{port}/?epsilon={START}")
            page.locator(IDLE).wait_for(state="attached")
            main = page.locator('[data-testid="stMain"]')
            expect(main).to_contain_text(expect_text(START), timeout=60_000)
            thumb = page.locator(f'.st-key-{widget_key("epsilon")} input[type="range"]')
            times = []
            for epsilon in _epsilon_walk(min(repeats, len(WALK))):
                thumb.focus()
                started = time.perf_counter()
                page.keyboard.press("ArrowRight")
                expect(main).to_contain_text(expect_text(epsilon), timeout=30_000)
                times.append(time.perf_counter() - started)
                page.locator(IDLE).wait_for(state="attached")
            browser.close()
        return times
    finally:
        server.terminate()
        server.wait(timeout=15)


def _row(label: str, times: list[float], baseline: float | None, target_ms: float | None) -> str:
    median = statistics.median(times) * 1000
    ratio = f"{median / baseline:5.1f}×" if baseline else "   —  "
    verdict = "" if target_ms is None else ("meets target" if median <= target_ms else "MISSES target")
    target = f"<= {target_ms:.0f} ms" if target_ms else ""
    return f"{label:<52} {median:8.1f} ms  {ratio}  {target:<11} {verdict}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--server-compile", action="store_true", help="compile each script once, as the server does")
    arguments = parser.parse_args()
    os.chdir(ROOT)
    if arguments.server_compile:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from compare_trees import _compile_once

        _compile_once()
    from gaussmech_ui.format import format_number

    with tempfile.TemporaryDirectory() as folder:
        frame_only = _frame_only_app(Path(folder))
        walk = _epsilon_walk(arguments.repeats)
        alternating = [0.5, 0.7] * max(1, arguments.repeats // 2)
        baseline_server = server_times(frame_only, walk)
        overview_new = server_times(ROOT / "app.py", walk, forget_table=True)
        overview_revisited = server_times(ROOT / "app.py", alternating)
        base = statistics.median(baseline_server) * 1000
        print(f"Server time of one rerun after an ε slider change (AppTest, median of {arguments.repeats}):")
        print(_row("baseline: frame only (sidebar + menu)", baseline_server, None, None))
        print(_row("Overview, new ε (table recalibrated)", overview_new, base, 150))
        print(_row("Overview, revisited ε (all cached)", overview_revisited, base, 150))
        if arguments.no_browser:
            return
        if not Path("/usr/bin/chromium").exists():
            print("Browser: skipped, /usr/bin/chromium is missing")
            return
        repeats = min(arguments.repeats, len(WALK))
        baseline_browser = browser_times(frame_only, repeats, lambda e: f"current ε = {e!r}")
        overview_browser = browser_times(ROOT / "app.py", repeats, lambda e: f"current ε = {format_number(e)}")
        base = statistics.median(baseline_browser) * 1000
        print(f"Browser: key press on the ε slider to the updated chart (Chromium, median of {repeats}):")
        print(_row("baseline: frame only (sidebar + menu)", baseline_browser, None, None))
        print(_row("Overview: chart shows the new ε", overview_browser, base, 500))


if __name__ == "__main__":
    main()
