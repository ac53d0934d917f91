"""Each page's first screen at 1400×1000, 1280×720 (the projector) and on a phone (390×844), compared with a stored image.

A layout regression (a legend eating the chart, a table needing a sideways scroll, a warning
pushing the answer below the fold) changes the first screen a lot; font antialiasing and a
redrawn pixel do not. So the comparison is tolerant: both images are reduced to a quarter of the
size in grey, and the mean absolute difference of the pixels must stay under
:data:`MEAN_DIFFERENCE_LIMIT` (out of 255). The stored images are small for the same reason.

After an intended change of layout, regenerate the images and look at them before committing::

    GAUSSMECH_UPDATE_SCREENSHOTS=1 .venv/bin/python -m pytest tests/browser/test_screenshots.py -p no:cacheprovider

The images live in ``tests/browser/screenshots/<page>-<width>x<height>.png``.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np
import pytest

from gaussmech_ui.menu import available_entries
from tests.browser.devices import IDLE, PHONE

SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
VIEWPORTS = ((1400, 1000), (1280, 720), (390, 844))
REDUCTION = 4
MEAN_DIFFERENCE_LIMIT = 4.0
UPDATE = os.environ.get("GAUSSMECH_UPDATE_SCREENSHOTS") == "1"
# No blinking caret, no transitions: the same page gives the same pixels.
STILL = "*, *::before, *::after { transition: none !important; animation: none !important; caret-color: transparent !important; }"
ENTRIES = available_entries()


def _slug(entry) -> str:
    """The label as a file name: ``Privacy profiles`` → ``privacy_profiles``, ``Training (DP-SGD)`` → ``training_dp-sgd``."""
    return "".join(c for c in entry.label.lower().replace(" ", "_") if c.isalnum() or c in "_-")


def _reduced(png: bytes) -> np.ndarray:
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("L")
    return np.asarray(
        image.resize((image.width // REDUCTION, image.height // REDUCTION), Image.Resampling.BOX), dtype=float
    )


def _first_screen(browser, url: str, width: int, height: int) -> bytes:
    phone = width < 500  # a phone's browser (its user agent), so the page lays its charts out for a phone
    context = (
        browser.new_context(**{**PHONE, "device_scale_factor": 1})
        if phone
        else browser.new_context(viewport={"width": width, "height": height})
    )
    context.set_default_timeout(90_000)
    page = context.new_page()
    try:
        page.goto(url)
        page.locator(IDLE).wait_for(state="attached")
        page.add_style_tag(content=STILL)
        # Every chart drawn and no placeholder left, then the web fonts.
        page.wait_for_function(
            """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
                       .every(c => c.querySelector('.main-svg'))
                 && !document.querySelector('[data-testid="stSkeleton"]')"""
        )
        page.evaluate("document.fonts.ready")
        page.wait_for_timeout(1500)
        page.locator(IDLE).wait_for(state="attached")
        return page.screenshot()
    finally:
        context.close()


def _page_url(app_url: str, entry) -> str:
    if entry.path == "app.py":
        return app_url
    return app_url.rstrip("/") + "/" + entry.url_path


@pytest.mark.parametrize("size", VIEWPORTS, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("entry", ENTRIES, ids=_slug)
def test_the_first_screen_looks_as_stored(browser, app_url, artifacts, entry, size):
    from PIL import Image

    width, height = size
    reference = SCREENSHOTS / f"{_slug(entry)}-{width}x{height}.png"
    shot = _reduced(_first_screen(browser, _page_url(app_url, entry), width, height))
    if UPDATE:
        SCREENSHOTS.mkdir(exist_ok=True)
        Image.fromarray(shot.astype(np.uint8)).save(reference, optimize=True)
        return
    if not reference.exists():
        pytest.fail(f"no stored image {reference.name}: run with GAUSSMECH_UPDATE_SCREENSHOTS=1 and look at it")
    stored = np.asarray(Image.open(reference).convert("L"), dtype=float)
    if stored.shape != shot.shape:
        pytest.fail(f"{reference.name}: the first screen is {shot.shape}, the stored one {stored.shape}")
    difference = float(np.mean(np.abs(stored - shot)))
    if difference > MEAN_DIFFERENCE_LIMIT:
        Image.fromarray(shot.astype(np.uint8)).save(artifacts / f"actual-{reference.name}")
        Image.fromarray(np.abs(stored - shot).astype(np.uint8)).save(artifacts / f"difference-{reference.name}")
    assert difference <= MEAN_DIFFERENCE_LIMIT, (
        f"{reference.name}: mean pixel difference {difference:.2f} > {MEAN_DIFFERENCE_LIMIT} "
        f"(see test-artifacts/actual-{reference.name}; if the change is intended, regenerate the images)"
    )
