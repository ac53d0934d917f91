"""One real flow through the three teaching pages, in Debian's Chromium.

Noise distributions: move ε with the keyboard, open "Draw samples", press "Draw again" (the seed
goes into the link). Tail probabilities: opened from a shared link carrying ε. Privacy profiles:
a link straight to the Composition view, then k moved with the keyboard. Selectors are the
stable ones of DESIGN.md section 4 (``.st-key-<key>``, the app's idle state); chart text is read
on the chart's container with ``to_contain_text``.
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.devices import IDLE


def _element(page, key: str):
    """The current element with this key. While a rerun draws a view inside a tab, Streamlit can keep
    the previous copy (marked ``data-stale="true"``) next to the new one for a moment."""
    return page.locator(f'.st-key-{key}:not([data-stale="true"])')


def _wait_idle(page) -> None:
    page.locator(IDLE).wait_for(state="attached")


def _no_exception(page) -> None:
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)


def test_a_teacher_walks_through_distributions_tails_and_profiles(page, app_url):
    # 1. Noise distributions: the density chart, then ε one stop to the left with the keyboard.
    page.goto(f"{app_url}/Noise_distributions")
    _wait_idle(page)
    density = _element(page, "distributions_density_chart")
    expect(density).to_contain_text("What each mechanism adds to one coordinate")
    expect(density).to_contain_text("ε = 1, δ = 1e-5")
    thumb = page.locator('.st-key-_w_epsilon input[type="range"]')
    thumb.focus()
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".st-key-_w_epsilon_exact input")).to_have_value("0.7")
    expect(density).to_contain_text("ε = 0.7, δ = 1e-5")
    _no_exception(page)

    # 2. Draw samples: the histogram, then "Draw again" gives the next seed, in the chart and the link.
    page.get_by_role("tab", name="Draw samples").click()
    samples = _element(page, "distributions_sample_chart")
    expect(samples).to_contain_text("10,000 draws (seed 1)")
    _wait_idle(page)
    _element(page, "distributions_draw_again").get_by_role("button", name="Draw again").click()
    expect(samples).to_contain_text("10,000 draws (seed 2)")
    _wait_idle(page)
    assert "distributions_seed=2" in page.url and "epsilon=0.7" in page.url
    _no_exception(page)

    # 3. Tail probabilities from a shared link: the same ε, tails down to 1e-300, the error bounds.
    page.goto(f"{app_url}/Tail_probabilities?epsilon=0.7")
    _wait_idle(page)
    tails = _element(page, "tails_coordinate_chart")
    expect(tails).to_contain_text("How likely is an error larger than t?")
    expect(tails).to_contain_text("ε = 0.7")
    expect(_element(page, "tails_coordinate_bounds")).to_contain_text("Per-coordinate error bound at 95%")
    _no_exception(page)

    # 4. Privacy profiles, straight to the Composition view; move k with the keyboard.
    page.goto(f"{app_url}/Privacy_profiles?epsilon=0.7&profiles_view=Composition")
    _wait_idle(page)
    composition = _element(page, "profiles_composition_chart")
    expect(composition).to_contain_text("Total privacy loss of k releases")
    expect(composition).to_contain_text("k = 10")
    releases = _element(page, "profiles_releases").locator('input[type="range"]')
    releases.focus()
    page.keyboard.press("ArrowRight")
    expect(composition).to_contain_text("k = 20")
    expect(_element(page, "profiles_per_release_chart")).to_contain_text("k = 20")
    _wait_idle(page)
    assert "profiles_releases=20" in page.url
    _no_exception(page)
