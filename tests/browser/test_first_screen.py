"""Issue 10 in a real browser: what must be on the first screen, and entries that say what went wrong."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.devices import IDLE


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


def test_the_overview_answer_starts_on_a_laptops_first_screen_and_its_table_fits(page, app_url):
    """Issue 21, item 10: at 1400×1000 the answer starts above the fold and no table column is cut at the right."""
    page.goto(app_url)
    page.locator(IDLE).wait_for(state="attached")
    answer = page.locator('[data-testid="stAlertContentInfo"]').first
    expect(answer).to_contain_text("adds the least noise")
    page.locator('[data-testid="stMain"] [data-testid="stPlotlyChart"] .main-svg').first.wait_for()
    page.locator(IDLE).wait_for(state="attached")
    assert answer.bounding_box()["y"] < 1000 - 60, "at least the answer's first line is on the first screen"
    table = page.locator('.st-key-overview_table:not([data-stale="true"]) [data-testid="stDataFrame"]')
    expect(table).to_be_visible()
    widths = table.evaluate(
        "t => { const s = t.querySelector('.dvn-scroller'); return [s.scrollWidth, s.clientWidth]; }"
    )
    assert widths[0] <= widths[1], ("every shown column fits: no sideways scroll", widths)


def test_a_focused_menu_link_does_not_look_like_the_current_page(page, app_url):
    page.goto(app_url)
    page.locator(IDLE).wait_for(state="attached")
    expect(page.locator('[data-testid="stAlertContentInfo"]').first).to_contain_text("adds the least noise")
    links = page.locator('[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"]')
    current = page.locator('.st-key-menu_current [data-testid="stPageLink-NavLink"]')
    expect(current).to_contain_text("Overview")
    other = links.filter(has_text="Noise distributions")
    page.locator(IDLE).wait_for(state="attached")  # a rerun (the window's width check) may redraw the menu
    other.focus()
    expect(other).to_be_focused()
    # Styles may still be in transition on a busy machine: wait until the two differ, as they settle.
    page.wait_for_function(
        """([focused, current]) => getComputedStyle(focused).backgroundColor
                                   !== getComputedStyle(current).backgroundColor""",
        arg=[other.element_handle(), current.element_handle()],
        timeout=60_000,
    )


def test_the_tours_question_is_on_a_1280_by_620_projectors_first_screen_at_every_step(browser, app_url):
    """Issue 22, item 8: a 1280×720 projector less the browser's bars shows the question for the room."""
    from gaussmech_ui.tour import STEPS

    context = browser.new_context(viewport={"width": 1280, "height": 620})
    context.set_default_timeout(90_000)
    page = context.new_page()
    try:
        for step in STEPS:
            page.goto(f"{app_url}/Class_tour?tour_step={step.number}")
            page.locator(IDLE).wait_for(state="attached")
            question = page.locator(".st-key-tour_question")
            expect(question).to_contain_text(step.question)
            box = question.bounding_box()
            assert box["y"] + box["height"] <= 620, (step.number, box)
    finally:
        context.close()


def _views_with_a_chart() -> list[str]:
    from tools.measure_first_screen import views

    # The accuracy-first view answers with a sentence and a table: it has no chart to fit.
    return [view for view in views() if "accuracy_view=Accuracy+first" not in view]


@pytest.mark.parametrize("view", _views_with_a_chart())
def test_every_views_first_chart_ends_on_a_1280_by_620_projectors_first_screen(browser, app_url, view, artifacts):
    """Issue 22, item 8: every page, every tab bound to the URL and every tour step shows its first chart
    whole (and the tour its question for the room) on a 1280×720 projector less the browser's bars."""
    from tools.measure_first_screen import FIRST_PLOT, MEASURE

    context = browser.new_context(viewport={"width": 1280, "height": 620})
    context.set_default_timeout(90_000)
    page = context.new_page()
    try:
        page.goto(app_url.rstrip("/") + view)
        page.locator(IDLE).wait_for(state="attached")
        page.locator(FIRST_PLOT).first.wait_for()
        page.locator(IDLE).wait_for(state="attached")
        geometry = page.evaluate(MEASURE)
        if geometry["chart_bottom"] is None or geometry["chart_bottom"] > 620:
            # Once, a clean-clone run measured a tour step 160 px lower and its chart unfitted, which no
            # local run reproduced: measure a settled page again, and keep its picture if it still fails.
            page.locator(IDLE).wait_for(state="attached")
            geometry = page.evaluate(MEASURE)
            if geometry["chart_bottom"] is None or geometry["chart_bottom"] > 620:
                name = "first-screen-" + "".join(c if c.isalnum() else "-" for c in view).strip("-") + ".png"
                page.screenshot(path=str(artifacts / name))
                geometry["viewport"] = page.evaluate("() => [window.innerWidth, window.innerHeight]")
    finally:
        context.close()
    print(f"\n{view} at 1280x620: {geometry}")
    assert geometry["chart_top"] >= 0, geometry
    assert geometry["chart_bottom"] <= 620, ("the first chart is whole on the first screen", geometry)
    if "Class_tour" in view:
        assert geometry["question_bottom"] is not None and geometry["question_bottom"] <= 620, geometry


def test_the_overview_table_fits_a_1280_by_720_projector_without_a_sideways_scroll(browser, app_url):
    """Issue 21, item 10 on a projector: every column of the Overview's table is in view at 1280 px."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.set_default_timeout(90_000)
    page = context.new_page()
    try:
        page.goto(app_url)
        page.locator(IDLE).wait_for(state="attached")
        table = page.locator('.st-key-overview_table:not([data-stale="true"]) [data-testid="stDataFrame"]')
        expect(table).to_be_visible()
        widths = table.evaluate(
            "t => { const s = t.querySelector('.dvn-scroller'); return [s.scrollWidth, s.clientWidth]; }"
        )
    finally:
        context.close()
    assert widths[0] <= widths[1], ("every shown column fits: no sideways scroll", widths)
