"""Every presenter slide of every page (the Class tour's six steps, every chart of every view) at
1280×620 and 1280×720 (a projector with and without the browser's chrome) and 390×844 (a phone),
compared with stored images as tolerantly as the first screens (:mod:`tests.browser.test_screenshots`).

One test per page and size walks the page's deck with PageDown (a clicker's key; it presses the
Next button) until it comes back to the first slide or reaches the last; it also
checks that every slide with its controls fits the screen's height at 1280×620 and 1280×720 and
that the chart takes at least half of 620 px.

Regenerate after an intended change, and look at the images (``slides-<page>-<n>-<size>.png``)::

    GAUSSMECH_UPDATE_SCREENSHOTS=1 .venv/bin/python -m pytest tests/browser/test_slide_screenshots.py -p no:cacheprovider
"""

from __future__ import annotations

import numpy as np
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from gaussmech_ui.menu import available_entries
from tests.browser.devices import PHONE
from tests.browser.test_screenshots import (
    IDLE,
    MEAN_DIFFERENCE_LIMIT,
    SCREENSHOTS,
    STILL,
    UPDATE,
    _page_url,
    _reduced,
    _slug,
)

VIEWPORTS = ((1280, 620), (1280, 720), (390, 844))
MAX_SLIDES = 40  # a guard against a deck that never comes back
MIN_CHART_HEIGHT = 310
ENTRIES = [entry for entry in available_entries() if entry.label != "Math reference"]  # no charts there


def _settled(page) -> None:
    page.locator(IDLE).wait_for(state="attached")
    page.wait_for_function(
        """() => [...document.querySelectorAll('.st-key-presenter_view [data-testid="stPlotlyChart"]')]
                   .every(c => c.querySelector('.main-svg'))
             && !document.querySelector('[data-testid="stSkeleton"]')"""
    )
    page.evaluate("document.fonts.ready")
    page.wait_for_timeout(800)
    page.locator(IDLE).wait_for(state="attached")


def _position(page) -> str:
    return page.locator('.st-key-presenter_view [data-testid="stHorizontalBlock"]').last.inner_text()


def _compare(shot: np.ndarray, name: str, artifacts) -> str | None:
    from PIL import Image

    reference = SCREENSHOTS / name
    if UPDATE:
        Image.fromarray(shot.astype(np.uint8)).save(reference, optimize=True)
        return None
    if not reference.exists():
        return f"no stored image {name}"
    stored = np.asarray(Image.open(reference).convert("L"), dtype=float)
    if stored.shape != shot.shape:
        return f"{name}: shape {shot.shape}, stored {stored.shape}"
    difference = float(np.mean(np.abs(stored - shot)))
    if difference > MEAN_DIFFERENCE_LIMIT:
        Image.fromarray(shot.astype(np.uint8)).save(artifacts / f"actual-{name}")
        return f"{name}: mean pixel difference {difference:.2f} > {MEAN_DIFFERENCE_LIMIT}"
    return None


@pytest.mark.parametrize("size", VIEWPORTS, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("entry", ENTRIES, ids=_slug)
def test_every_slide_fits_and_looks_as_stored(browser, app_url, artifacts, entry, size):
    width, height = size
    phone = width < 500
    context = (
        browser.new_context(**{**PHONE, "device_scale_factor": 1})
        if phone
        else browser.new_context(viewport={"width": width, "height": height})
    )
    context.set_default_timeout(90_000)
    page = context.new_page()
    problems: list[str] = []
    try:
        url = _page_url(app_url, entry)
        page.goto(url + ("&" if "?" in url else "?") + "present=1")
        page.add_style_tag(content=STILL)
        _settled(page)
        page.wait_for_function("() => window.__streamlitShortcutsInitialized === true")
        first = _position(page)
        for number in range(1, MAX_SLIDES + 1):
            view = page.locator(".st-key-presenter_view")
            chart = view.locator('[data-testid="stPlotlyChart"]').first
            if not phone:
                next_box = view.get_by_role("button", name="Next").bounding_box()
                if next_box["y"] + next_box["height"] > height:
                    problems.append(
                        f"slide {number} ({_position(page)}): controls end at {next_box['y'] + next_box['height']:.0f} px"
                    )
                box = chart.bounding_box()
                if box is None or box["height"] < MIN_CHART_HEIGHT:
                    problems.append(f"slide {number} ({_position(page)}): chart {box}")
            name = f"slides-{_slug(entry)}-{number:02d}-{width}x{height}.png"
            problem = _compare(_reduced(page.screenshot()), name, artifacts)
            if problem:
                problems.append(problem)
            following = view.get_by_role("button", name="Next")
            if following.is_disabled():
                break
            address = page.url
            page.keyboard.press("PageDown")  # the clicker's key (it presses Next; no mouse, so no tooltip)
            for _attempt in range(3):
                try:
                    page.wait_for_url(lambda url, address=address: url != address, timeout=30_000)  # own link
                    break
                except PlaywrightTimeout:
                    # A press whose rerun was interrupted by another (a window-width check, a chart's
                    # resize) is lost, as Streamlit drops a button's trigger from an interrupted run:
                    # once the page has settled on the same slide, press again.
                    _settled(page)
                    if page.url == address and _attempt < 2:
                        page.keyboard.press("PageDown")
                    elif page.url == address:
                        # Keys still lost on a busy machine (Noise distributions on a phone): the deck's
                        # own Next button, then the mouse out of the way of the next screenshot. The
                        # keys themselves are tested in test_present_and_export.py.
                        view.get_by_role("button", name="Next").click()
                        page.mouse.move(0, 0)
            else:
                page.wait_for_url(lambda url, address=address: url != address)
            _settled(page)
            if _position(page) == first:
                break
        else:
            problems.append(f"the deck did not come back to its first slide within {MAX_SLIDES} slides")
        assert not page.locator('[data-testid="stException"]').count()
    finally:
        context.close()
    assert not problems, problems
