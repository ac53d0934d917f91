"""Where the first chart and the tour's question end on a projector: every page and view reachable by URL.

    .venv/bin/python tools/measure_first_screen.py http://127.0.0.1:8501 [--width 1280 --height 620]

Against a running ``streamlit run app.py``, it opens every page, every tab of a page (the tabs
are bound to the URL) and every step of the Class tour in headless Chromium, waits for the page
to settle (the app's script state "notRunning") and for the first chart's plot, and prints one
line per view: the top and bottom of the first chart and, on the tour, the bottom of the question
for the room, in CSS pixels from the top of the window. Issue 22, item 8 asks for both bottoms to
be at most 620 at 1280×620 (a 1280×720 projector less the browser's bars).

Not a test: a measuring tool for layout work (a view with no chart prints ``None``).
"""

from __future__ import annotations

import argparse
import json
from urllib.parse import quote_plus

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
IDLE = 'html[data-gaussmech-layout="settled"] [data-testid="stApp"][data-test-script-state="notRunning"]'
FIRST_PLOT = '[data-testid="stMain"] [data-testid="stPlotlyChart"] .main-svg'
# The URL-bound tabs of each page: (page path, query parameter, tab labels).
TABBED_PAGES = (
    (
        "/Noise_distributions",
        "distributions_view",
        ("Densities", "Generalized Gaussian family", "Draw samples", "Noise as vectors"),
    ),
    (
        "/Tail_probabilities",
        "tails_view",
        (
            "Per coordinate",
            "Whole vector",
            "Laplace vs Gaussian: tails",
            "Laplace vs Gaussian: privacy cost",
            "Laplace vs Gaussian: variance",
        ),
    ),
    (
        "/Privacy_profiles",
        "profiles_view",
        (
            "Privacy profiles",
            "What an attacker can do",
            "Privacy loss",
            "Where the classical formula holds",
            "Hypothesis testing",
            "Composition",
        ),
    ),
    ("/Accuracy_vs_dimension", "accuracy_view", ("Mean error", "Spread of the error", "R1SMG audit", "Accuracy first")),
)
MEASURE = """() => {
  const bottom = element => element ? Math.round(element.getBoundingClientRect().bottom) : null;
  const chart = document.querySelector('[data-testid="stMain"] [data-testid="stPlotlyChart"]');
  return {
    chart_top: chart ? Math.round(chart.getBoundingClientRect().top) : null,
    chart_bottom: bottom(chart),
    question_bottom: bottom(document.querySelector('.st-key-tour_question')),
  };
}"""


def views() -> list[str]:
    """Every page and view reachable by URL, as paths with their query."""
    from gaussmech_ui.tour import STEPS

    paths = ["/"] + [f"/Class_tour?tour_step={step.number}" for step in STEPS]
    for path, parameter, labels in TABBED_PAGES:
        paths += [f"{path}?{parameter}={quote_plus(label)}" for label in labels]
    return paths + ["/Denoising_lab", "/Training_DP_SGD"]


def main() -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout, sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the running app, e.g. http://127.0.0.1:8501")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=620)
    arguments = parser.parse_args()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True)
        context = browser.new_context(viewport={"width": arguments.width, "height": arguments.height})
        context.set_default_timeout(120_000)
        page = context.new_page()
        for path in views():
            page.goto(arguments.url.rstrip("/") + path)
            page.locator(IDLE).wait_for(state="attached")
            try:
                page.locator(FIRST_PLOT).first.wait_for(timeout=30_000)
            except PlaywrightTimeout:
                pass  # a view without a chart: measured as it is
            print(json.dumps({"view": path, **page.evaluate(MEASURE)}), flush=True)
        browser.close()


if __name__ == "__main__":
    main()
