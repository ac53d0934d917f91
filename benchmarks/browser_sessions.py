"""A handful of real Chromium sessions (Playwright) that watch for crosstalk while the load runs.

Each browser session (its own context, so its own cookies and Streamlit session) opens the
dashboard with its own ε, δ and d in the URL, uploads its own CSV on the denoising lab, and for
the whole run keeps checking that the page's URL and the ε entry box show its own values and the
upload summary its own total, while switching pages through the sidebar's menu. Used by
``benchmarks/load_test.py --browsers N`` and by ``tests/browser/test_sessions_apart.py``.
"""

from __future__ import annotations

import concurrent.futures
import math
import time
import urllib.parse

CHROMIUM = "/usr/bin/chromium"
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


def own_values(number: int) -> dict[str, str]:
    """URL values no other browser session uses (ε and d differ between sessions, δ too)."""
    return {"epsilon": f"{0.25 + 0.5 * number:g}", "delta": f"1e-{6 + number}", "dim": str(20 + number)}


def _wait_idle(page) -> None:
    page.wait_for_selector(IDLE, timeout=120_000)


def _check(page, number: int, values: dict, crosstalk: list, where: str) -> None:
    shown = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)
    for key, value in values.items():
        raw = shown.get(key, [None])[0]
        if raw is None or not math.isclose(float(raw), float(value), rel_tol=1e-9):
            crosstalk.append(f"browser {number} {where}: URL shows {key}={raw}, not {value}")
    box = page.locator(".st-key-_w_epsilon_exact input")
    if box.count():
        text = box.first.input_value().strip()
        if text and not math.isclose(float(text), float(values["epsilon"]), rel_tol=1e-9):
            crosstalk.append(f"browser {number} {where}: the ε box shows {text}, not {values['epsilon']}")


def run_browser_sessions(base_url: str, count: int, seconds: float) -> tuple[list, list]:
    """Drive ``count`` Chromium sessions for ``seconds``; the errors and the crosstalk seen."""
    from playwright.sync_api import sync_playwright

    errors, crosstalk = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        pages = []
        try:
            for number in range(count):
                page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
                values = own_values(number)
                page.goto(f"{base_url}/?{urllib.parse.urlencode(values)}", timeout=120_000)
                pages.append((number, page, values))
            for number, page, values in pages:
                _wait_idle(page)
                _check(page, number, values, crosstalk, "on opening")
            # Each uploads its own file on the denoising lab.
            for number, page, values in pages:
                page.goto(f"{base_url}/Denoising_lab?{urllib.parse.urlencode(values)}", timeout=120_000)
                _wait_idle(page)
                page.locator(".st-key-denoising_data button", has_text="Upload a CSV").click()
                _wait_idle(page)
                total = 1000 + 17 * number
                page.locator(".st-key-denoising_upload input[type=file]").set_input_files(
                    files=[
                        {
                            "name": f"browser-{number}.csv",
                            "mimeType": "text/csv",
                            "buffer": f"label,count\na,{total - 5}\nb,5\n".encode(),
                        }
                    ]
                )
            for number, page, values in pages:
                total = 1000 + 17 * number
                try:
                    page.get_by_text(f"total {total:,}").first.wait_for(timeout=120_000)
                except Exception as error:  # noqa: BLE001
                    errors.append(f"browser {number}: its upload summary never showed total {total:,}: {error}")
                _check(page, number, values, crosstalk, "after its upload")
            # Then they move between pages through the menu until the time is up.
            deadline = time.monotonic() + seconds
            step = 0
            while time.monotonic() < deadline:
                for number, page, values in pages:
                    links = page.locator('[data-testid="stSidebar"] a[href]')
                    count = links.count()  # read once: the menu may be redrawing between two reads
                    if count:
                        links.nth((number + step) % count).click()
                        _wait_idle(page)
                    _check(page, number, values, crosstalk, f"after page switch {step}")
                step += 1
        except Exception as error:  # noqa: BLE001 - reported, not raised, so the load run still ends
            errors.append(f"browsers: {type(error).__name__}: {error}")
        finally:
            browser.close()
    return errors, crosstalk


def start_browser_sessions(base_url: str, count: int, seconds: float) -> concurrent.futures.Future:
    """Run :func:`run_browser_sessions` in a thread (Playwright's sync API outside the asyncio loop)."""
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    future = executor.submit(run_browser_sessions, base_url, count, seconds)
    executor.shutdown(wait=False)
    return future
