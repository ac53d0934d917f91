"""Browser fixtures: the dashboard served by ``streamlit run``, driven by Playwright in Debian's Chromium.

* ``app_url``: a session-wide server of the real app on a free loopback port (stopped at the end).
* ``probe_url``: the same for a throw-away app with a probe page at every menu path, so that
  switching pages through the menu is tested even before the real pages exist.
* ``page``: a fresh browser tab (1400×1000) per test.
* ``artifacts``: the ``test-artifacts/`` folder (git-ignored) for screenshots.

Chromium is ``/usr/bin/chromium``, launched with the flags of DESIGN.md section 4. Without it the
tests skip with the reason, except when ``CI`` is set, where that is a failure. Every test here
is marked ``browser`` (``pytest -m "not browser"`` leaves them out). Under pytest-xdist each worker
starts its own server.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
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
SERVER_START_TIMEOUT = 90


def pytest_collection_modifyitems(items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class StreamlitServer:
    """``streamlit run <script>`` on a free loopback port, with its log kept for failure reports."""

    def __init__(self, script: Path, log_path: Path):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        environment = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        }
        self.log = open(log_path, "w", encoding="utf-8")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                str(script.name),
                "--server.headless",
                "true",
                "--server.port",
                str(self.port),
                "--server.address",
                "127.0.0.1",
                "--browser.gatherUsageStats",
                "false",
                "--server.fileWatcherType",
                "none",
            ],
            cwd=script.parent,
            env=environment,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def wait_until_healthy(self) -> None:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"streamlit did not start; its log:\n{self.log_path.read_text(encoding='utf-8')[-4000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)
        self.log.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    folder = ROOT / "test-artifacts"
    folder.mkdir(exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def chromium() -> Path:
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium chromium-driver)"
        if os.environ.get("CI"):
            pytest.fail(reason + "; CI must run the browser tests")
        pytest.skip(reason)
    return CHROMIUM


def _serve(script: Path, log_path: Path):
    server = StreamlitServer(script, log_path)
    server.wait_until_healthy()
    return server


@pytest.fixture(scope="session")
def app_url(chromium, artifacts, worker_name):
    server = _serve(ROOT / "app.py", artifacts / f"streamlit-app-{worker_name}.log")
    yield server.url
    server.stop()


@pytest.fixture(scope="session")
def probe_url(chromium, artifacts, worker_name, tmp_path_factory):
    from gaussmech_ui.menu import MENU

    folder = tmp_path_factory.mktemp("probe_app")
    shutil.copytree(ROOT / ".streamlit", folder / ".streamlit")
    for entry in MENU:
        page = folder / entry.path
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(
            "import streamlit as st\n"
            "from gaussmech_ui.sidebar import render_sidebar\n"
            "setting = render_sidebar()\n"
            f"st.header({('Probe of ' + entry.label)!r})\n"
            "st.text(repr(setting))\n",
            encoding="utf-8",
        )
    server = _serve(folder / "app.py", artifacts / f"streamlit-probe-{worker_name}.log")
    yield server.url
    server.stop()


@pytest.fixture(scope="session")
def worker_name(request) -> str:
    """The pytest-xdist worker (``gw0``...), or ``main`` without xdist."""
    return getattr(request.config, "workerinput", {}).get("workerid", "main")


@pytest.fixture(scope="session")
def browser(chromium):
    from playwright.sync_api import expect, sync_playwright

    # A shared 2-core machine computes a cold page in seconds: give assertions room, not a hair trigger.
    expect.set_options(timeout=30_000)

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(chromium), args=LAUNCH_ARGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def page(browser, request, artifacts):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(30_000)
    tab = context.new_page()
    yield tab
    if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
        tab.screenshot(path=str(artifacts / f"failure-{request.node.name}.png"), full_page=True)
    context.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
