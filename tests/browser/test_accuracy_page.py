"""The Accuracy-vs-dimension page in a real browser: load, change d with the keyboard, the audit's
"draw again", a shared link to a tab, and the accuracy-first table.

Selectors are the stable ones of DESIGN.md section 4 (``.st-key-<key>``, ``[data-testid=...]``,
the app's idle state); chart text is asserted on the chart's container with ``to_contain_text``.
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.devices import IDLE

PATH = "/Accuracy_vs_dimension"


def _open(page, url: str) -> None:
    page.goto(url)
    page.locator(IDLE).wait_for(state="attached")


def _element(page, key: str):
    """The keyed element as now drawn (during a rerun Streamlit keeps a stale copy beside it)."""
    return page.locator(f'.st-key-{key}:not([data-stale="true"])')


def test_the_page_loads_with_the_mean_error_chart(page, app_url, artifacts):
    _open(page, app_url + PATH)
    expect(page.get_by_role("heading", name="How does the error grow with the dimension?")).to_be_visible()
    chart = _element(page, "accuracy_mean_chart")
    expect(chart).to_contain_text("Expected squared error")
    expect(chart).to_contain_text("d = 10")
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    page.wait_for_timeout(500)  # let Plotly finish its first transition before the picture
    page.screenshot(path=str(artifacts / "accuracy-vs-dimension.png"))


def test_moving_d_with_the_keyboard_moves_the_marker(page, app_url):
    _open(page, app_url + PATH)
    chart = _element(page, "accuracy_mean_chart")
    expect(chart).to_contain_text("d = 10")
    thumb = page.locator('.st-key-_w_dim input[type="range"]')
    thumb.focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator(".st-key-_w_dim_exact input")).to_have_value("20")
    expect(chart).to_contain_text("d = 20")
    assert "dim=20" in page.url


def test_the_audit_tab_draws_again_on_request(page, app_url):
    _open(page, app_url + PATH + "?dim=100")
    page.get_by_role("tab", name="R1SMG audit").click()
    page.locator(IDLE).wait_for(state="attached")
    expect(_element(page, "accuracy_test_chart")).to_contain_text("closer-answer test")
    expect(page.locator('[data-testid="stMetric"]').nth(1)).to_contain_text("0.971")
    assert "accuracy_view=R1SMG" in page.url, "the open tab is in the link"
    first_bullet = page.locator('[data-testid="stMarkdownContainer"] li').first
    expect(first_bullet).to_contain_text("simulated releases of R1SMG noise")
    before = first_bullet.inner_text()
    _element(page, "accuracy_redraw_test").get_by_role("button", name="Draw again").first.click()
    page.locator(IDLE).wait_for(state="attached")
    expect(first_bullet).not_to_have_text(before)
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)


def test_a_shared_link_opens_accuracy_first_with_its_target(page, app_url):
    _open(page, app_url + PATH + "?accuracy_view=Accuracy+first&accuracy_target=5&dim=1000")
    expect(_element(page, "accuracy_target").locator("input")).to_have_value("5")
    expect(page.locator('[data-testid="stAlertContentInfo"]').first).to_contain_text(
        "≤ 5 with probability 95% at d = 1,000"
    )
    # A display-only dataframe gets no .st-key class in Streamlit 1.67: find it by its test id.
    expect(page.locator('[data-testid="stDataFrame"]')).to_have_count(1)
    expect(page.locator('[data-testid="stDataFrame"]')).to_contain_text("ε needed")
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
