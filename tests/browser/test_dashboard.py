"""Real flows in a real browser: load, move ε with the keyboard, open a shared link, switch pages.

Selectors are the stable ones of DESIGN.md section 4: ``.st-key-<key>`` for keyed widgets and
elements, ``[data-testid="stPlotlyChart"]``, and the app's idle state. Chart text is asserted on
the chart's container with ``to_contain_text`` (a title is drawn twice during a redraw).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.devices import IDLE

ROOT = Path(__file__).resolve().parents[2]


def _open(page, url: str) -> None:
    page.goto(url)
    page.locator(IDLE).wait_for(state="attached")


def _open_overview(page, url: str) -> None:
    _open(page, url)
    expect(page.locator('[data-testid="stPlotlyChart"]')).to_have_count(2)


def _element(page, key: str):
    """The keyed element as now drawn (during a rerun Streamlit keeps a stale copy beside it)."""
    return page.locator(f'.st-key-{key}:not([data-stale="true"])')


def _exact_box(page, name: str):
    return page.locator(f".st-key-_w_{name}_exact input")


def _press_on_slider(page, name: str, key: str) -> None:
    thumb = page.locator(f'.st-key-_w_{name} input[type="range"]')
    thumb.focus()
    page.keyboard.press(key)


def test_the_overview_loads_with_its_table_charts_and_controls(page, app_url, artifacts):
    _open_overview(page, app_url)
    expect(page.get_by_role("heading", name="How much noise does each mechanism need?")).to_be_visible()
    expect(_element(page, "overview_table")).to_be_visible()
    expect(_element(page, "overview_std_chart")).to_contain_text("noise std per coordinate")
    expect(_element(page, "overview_ratio_chart")).to_contain_text("Balle & Wang")
    for name in ("epsilon", "delta", "dim"):
        expect(page.locator(f".st-key-_w_{name}")).to_be_visible()
        expect(_exact_box(page, name)).to_be_visible()
    expect(page.locator(".st-key-_w_order")).to_be_visible()
    expect(page.locator(".st-key-_w_l1_model")).to_be_visible()
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    # No Streamlit page list: the custom menu replaces it.
    expect(page.locator('[data-testid="stSidebarNav"]')).to_have_count(0)
    expect(
        page.locator('[data-testid="stSidebar"] [data-testid="stPageLink"]').filter(has_text="Overview")
    ).to_have_count(1)
    # A tall window, so the picture shows the table and the first chart (the README's screenshot).
    page.set_viewport_size({"width": 1400, "height": 1750})
    page.locator(IDLE).wait_for(state="attached")
    page.wait_for_timeout(1000)  # let Plotly redraw at the new size before the picture
    screenshot = artifacts / "overview.png"
    page.screenshot(path=str(screenshot))
    if os.environ.get("GAUSSMECH_UPDATE_SCREENSHOT"):
        shutil.copyfile(screenshot, ROOT / "docs" / "screenshot.png")


def _scale_cell(page, mechanism_id: str):
    """The Scale cell of a mechanism's row, from the grid's accessible table (the grid itself is a canvas)."""
    from gaussmech_core.mechanisms import MECHANISMS

    row = list(MECHANISMS).index(mechanism_id)
    scale_column = 2  # Mechanism, Holds here?, Scale, ...
    return _element(page, "overview_table").locator(f'[data-testid="glide-cell-{scale_column}-{row}"]')


def test_moving_epsilon_with_the_keyboard_updates_table_and_chart(page, app_url):
    from gaussmech_core.gaussian import analytic_gaussian_sigma, classical_gaussian_sigma
    from gaussmech_ui.format import format_number

    _open_overview(page, app_url)
    chart = _element(page, "overview_std_chart")
    summary = page.locator('[data-testid="stAlert"]').first
    expect(chart).to_contain_text("current ε = 1")
    expect(summary).to_contain_text("At ε = 1 and δ = 1e-5")
    expect(_scale_cell(page, "analytic_gaussian")).to_have_text(
        f"σ = {format_number(analytic_gaussian_sigma(1.0, 1e-5))}"
    )
    expect(_scale_cell(page, "classical_gaussian")).to_have_text("—")
    _press_on_slider(page, "epsilon", "ArrowLeft")
    expect(_exact_box(page, "epsilon")).to_have_value("0.7")
    expect(chart).to_contain_text("current ε = 0.7")
    expect(summary).to_contain_text("At ε = 0.7 and δ = 1e-5")
    expect(_scale_cell(page, "analytic_gaussian")).to_have_text(
        f"σ = {format_number(analytic_gaussian_sigma(0.7, 1e-5))}"
    )
    # At ε < 1 the classical Gaussian is a theorem, so its row gets a number.
    expect(_scale_cell(page, "classical_gaussian")).to_have_text(
        f"σ = {format_number(classical_gaussian_sigma(0.7, 1e-5))}"
    )
    assert "epsilon=0.7" in page.url, "the URL mirrors the new value"


def test_a_shared_link_restores_every_value(page, app_url):
    _open_overview(page, f"{app_url}/?epsilon=0.5&delta=1e-8&sensitivity=2&order=3&dim=50&l1=all_coordinates")
    expect(_exact_box(page, "epsilon")).to_have_value("0.5")
    expect(_exact_box(page, "delta")).to_have_value("1e-8")
    expect(page.locator(".st-key-_w_sensitivity_exact input")).to_have_value("2")
    expect(_exact_box(page, "dim")).to_have_value("50")
    expect(_element(page, "overview_std_chart")).to_contain_text("δ = 1e-8, Δ = 2, d = 50, p = 3, Δ₁ = √d·Δ")
    expect(page.locator('[data-testid="stAlert"]').first).to_contain_text("At ε = 0.5 and δ = 1e-8 (Δ = 2)")


def test_a_malformed_link_shows_a_warning_not_a_traceback(page, app_url):
    _open_overview(page, f"{app_url}/?epsilon=-1&dim=abc")
    warnings = page.locator('[data-testid="stAlertContentWarning"]')
    expect(warnings.filter(has_text="epsilon=-1")).to_have_count(1)
    expect(warnings.filter(has_text="dim=abc")).to_have_count(1)
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    expect(_exact_box(page, "epsilon")).to_have_value("1")


def test_switching_pages_through_the_menu_keeps_the_values(page, probe_url):
    from gaussmech_ui.menu import MENU

    _open(page, probe_url)
    _press_on_slider(page, "epsilon", "ArrowRight")
    expect(_exact_box(page, "epsilon")).to_have_value("1.5")
    for entry in MENU[1:] + MENU[:1]:
        page.locator('[data-testid="stSidebar"] [data-testid="stPageLink"]', has_text=entry.label).click()
        expect(page.get_by_role("heading", name=f"Probe of {entry.label}")).to_be_visible()
        expect(_exact_box(page, "epsilon")).to_have_value("1.5")
        assert "epsilon=1.5" in page.url


def _real_pages():
    from gaussmech_ui.menu import available_entries

    return [entry for entry in available_entries(ROOT) if entry.path != "app.py"]


@pytest.mark.parametrize(
    "entry",
    _real_pages() or [pytest.param(None, marks=pytest.mark.skip(reason="no page in pages/ yet"))],
    ids=lambda entry: getattr(entry, "path", "none"),
)
def test_every_real_page_opens_from_the_menu_with_the_values_kept(page, app_url, entry):
    _open_overview(page, f"{app_url}/?epsilon=0.3")
    page.locator('[data-testid="stSidebar"] [data-testid="stPageLink"]', has_text=entry.label).click()
    page.locator(IDLE).wait_for(state="attached")
    expect(_exact_box(page, "epsilon")).to_have_value("0.3")
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
