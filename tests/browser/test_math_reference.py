"""The Math reference page in Chromium: a link to a section lands on it, and the formulas render.

A link such as ``Math_reference#section-6-2`` (what ``math_reference_url("6.2")`` gives) must
open the page scrolled to that section, although Streamlit draws the sections after the page has
loaded and rewrites the URL on the way; KaTeX must render every formula without a parse error;
and nothing may widen the page beyond the window, on a laptop or a phone.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from gaussmech_ui.math_reference import math_reference_url
from tests.browser.devices import IDLE


def _open(page, app_url: str, section: str):
    page.goto(f"{app_url}/{math_reference_url(section)}")
    page.locator(IDLE).wait_for(state="attached")
    target = page.locator(f"#{math_reference_url(section).split('#')[1]}")
    expect(target).to_be_attached()
    return target


@pytest.mark.parametrize("section", ["6.2", "9.5"])
def test_a_link_to_a_section_scrolls_to_it(page, app_url, section):
    target = _open(page, app_url, section)
    expect(target).to_contain_text(section)
    expect(target).to_be_in_viewport()
    # the page really moved: the first sections are out of sight, and the address keeps the anchor
    expect(page.locator("#section-0")).not_to_be_in_viewport()
    page.wait_for_function("() => window.location.hash === '#section-" + section.replace(".", "-") + "'")


@pytest.mark.parametrize("width, height", [(1400, 1000), (390, 844)])
def test_formulas_render_and_nothing_widens_the_page(page, app_url, width, height):
    page.set_viewport_size({"width": width, "height": height})
    _open(page, app_url, "2.3")
    expect(page.locator(".katex").first).to_be_attached()
    assert page.locator(".katex").count() > 300
    expect(page.locator(".katex-error")).to_have_count(0)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    # wide display formulas scroll inside their own box instead
    widest = page.evaluate(
        "() => Math.max(...Array.from(document.querySelectorAll('.katex-display'))"
        ".map(e => e.getBoundingClientRect().right))"
    )
    assert widest <= width


def test_the_contents_link_to_a_section(page, app_url):
    page.goto(f"{app_url}/Math_reference")
    page.locator(IDLE).wait_for(state="attached")
    target = page.locator("#section-9-6")
    expect(target).to_be_attached()
    expect(target).not_to_be_in_viewport()
    page.locator('[data-testid="stExpander"] a[href="#section-9-6"]').click()
    expect(target).to_be_in_viewport()
