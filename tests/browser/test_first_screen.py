"""Issue 10 in a real browser: what must be on the first screen, and entries that say what went wrong."""

from __future__ import annotations

from playwright.sync_api import expect

IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


def test_whether_each_guarantee_holds_is_visible_at_1400_px_without_a_sideways_scroll(page, app_url):
    from gaussmech_core.mechanisms import MECHANISMS

    page.goto(f"{app_url}/?dim=50&delta=1e-6")
    page.locator(IDLE).wait_for(state="attached")
    table = page.locator('.st-key-overview_table:not([data-stale="true"])')
    expect(table).to_be_visible()
    row = list(MECHANISMS).index("r1smg")
    holds = table.locator(f'[data-testid="glide-cell-1-{row}"]')
    from gaussmech_ui.cached.overview import calibration_table
    from gaussmech_ui.format import format_number

    true_delta = calibration_table(1.0, 1e-6, 1.0, 2.0, 50, "one_coordinate").at["r1smg", "true_delta"]
    expect(holds).to_have_text(f"✗ no: true δ = {format_number(true_delta)}")
    # Second column, right after the mechanism's name: in view at 1400 px with no sideways scroll.
    expect(table.locator('[data-testid="glide-cell-0-0"]')).to_have_text("Analytic Gaussian")
    expect(table.locator('[data-testid="glide-cell-1-0"]')).to_have_text("✓ yes")


def test_typing_abc_into_exact_d_keeps_d_and_says_so_beside_the_box(page, app_url):
    page.goto(app_url)
    page.locator(IDLE).wait_for(state="attached")
    box = page.locator(".st-key-_w_dim_exact input")
    box.fill("abc")
    box.press("Enter")
    page.locator(IDLE).wait_for(state="attached")
    sidebar = page.locator('[data-testid="stSidebar"]')
    message = sidebar.locator('[data-testid="stAlert"]').filter(
        has_text="Could not use abc for d: that is not a number. Keeping d = 10."
    )
    expect(message).to_be_visible()
    expect(box).to_have_value("10")
    # The message sits right under the box it is about.
    box_bottom = box.bounding_box()["y"] + box.bounding_box()["height"]
    assert 0 <= message.bounding_box()["y"] - box_bottom < 120
