"""Presenter mode, the phone layout, copy link, figure downloads and the offline report, in Chromium.

Positions and sizes are measured on the elements (bounding boxes), not only on screenshots.
"""

from __future__ import annotations

import struct

from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect

from tests.browser.devices import IDLE


def _wait_idle(page) -> None:
    page.locator(IDLE).wait_for(state="attached")
    page.wait_for_timeout(300)
    page.locator(IDLE).wait_for(state="attached")


def _no_exception(page) -> None:
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)


def _open_tool(page, name: str) -> None:
    page.locator(".st-key-page_tools_tab").get_by_role("radio", name=name, exact=True).click()
    _wait_idle(page)


def test_presenter_mode_fits_one_chart_on_a_projector(browser, app_url, artifacts):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(f"{app_url}/?present=1")
    _wait_idle(page)
    view = page.locator(".st-key-presenter_view")
    chart = view.locator('[data-testid="stPlotlyChart"]')
    expect(chart).to_contain_text("How much noise each mechanism adds")
    expect(page.locator('[data-testid="stSidebar"]')).to_be_hidden()
    expect(page.get_by_text("Chart 1 of 2")).to_be_visible()
    expect(view.get_by_text("ε = 1, δ = 1e-5, Δ₂ = 1, d = 10", exact=False).first).to_be_visible()
    box = chart.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 720, box
    assert box["width"] >= 1100, box
    caption = view.locator(".st-key-presenter_text").bounding_box()
    assert caption["y"] + caption["height"] <= box["y"] + 1, "the answer is above the chart"
    expect(view.locator(".st-key-presenter_text")).not_to_contain_text("Hover")  # no usage instructions
    next_button = view.get_by_role("button", name="Next")
    assert next_button.bounding_box()["y"] + next_button.bounding_box()["height"] <= 720
    page.screenshot(path=str(artifacts / "presenter-1280x720.png"))
    next_button.click()
    _wait_idle(page)
    expect(page.get_by_text("Chart 2 of 2")).to_be_visible()
    expect(chart).to_contain_text("What exact calibration saves")
    assert "slide=2" in page.url and "present=1" in page.url
    box = chart.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 720, box
    _no_exception(page)
    context.close()


def test_the_tour_on_a_phone_uses_the_full_width_with_the_legend_below(browser, app_url, artifacts):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{app_url}/Class_tour?tour_step=3")
    _wait_idle(page)
    chart = page.locator('.st-key-tour_step_3 [data-testid="stPlotlyChart"]')
    expect(chart).to_contain_text("How often the error exceeds t")
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["width"] >= 340, box
    plot = chart.locator(".nsewdrag").first.bounding_box()
    legend = chart.locator(".legend").first.bounding_box()
    assert legend["y"] >= plot["y"] + plot["height"], "legend below the plot"
    assert legend["x"] >= box["x"] - 1 and legend["x"] + legend["width"] <= box["x"] + box["width"] + 1
    caption = page.locator('.st-key-tour_step_3 [data-testid="stCaptionContainer"]').first.bounding_box()
    assert caption["y"] >= box["y"] + box["height"] - 1, "the caption does not overlap the chart"
    page.screenshot(path=str(artifacts / "tour-390x844.png"))
    _no_exception(page)
    context.close()


def _step_box(page):
    return page.locator(".st-key-tour_step").get_by_role("combobox")


def test_copy_link_opens_the_same_view_in_a_fresh_browser(browser, page, app_url):
    page.goto(f"{app_url}/Class_tour?epsilon=0.5&tour_step=4")
    _wait_idle(page)
    page.locator(".st-key-tour_next").get_by_role("button").click()
    _wait_idle(page)
    expect(_step_box(page)).to_have_value("Step 5 of 6: What ε means as odds")
    link = page.locator('.st-key-page_tools [data-testid="stCode"] code').first.inner_text().strip()
    assert "tour_step=5" in link and "epsilon=0.5" in link and link.startswith(app_url)
    fresh = browser.new_context(viewport={"width": 1400, "height": 1000})
    other = fresh.new_page()
    other.goto(link)
    _wait_idle(other)
    expect(_step_box(other)).to_have_value("Step 5 of 6: What ε means as odds")
    expect(other.locator(".st-key-_w_epsilon_exact input")).to_have_value("0.5")
    expect(other.locator('.st-key-tour_step_5 [data-testid="stPlotlyChart"]')).to_contain_text("ε = 0.5")
    _no_exception(other)
    fresh.close()


def test_svg_and_png_downloads_hold_the_legend(page, app_url, tmp_path):
    page.goto(app_url)
    _wait_idle(page)
    _open_tool(page, "Figures")
    with page.expect_download(timeout=90_000) as svg_download:
        page.locator(".st-key-page_tools_svg").get_by_role("button").click()
    assert svg_download.value.suggested_filename == "gaussmech-noise-vs-epsilon-eps1-delta1e-5-d10.svg"
    svg = tmp_path / "chart.svg"
    svg_download.value.save_as(svg)
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<svg")
    for entry in ("Analytic Gaussian", "Laplace", "R1SMG, claimed (Ji &amp; Li 2024)", "ε = 1, δ = 1e-5"):
        assert entry in text.replace("&nbsp;", " "), entry
    with page.expect_download(timeout=90_000) as png_download:
        page.locator(".st-key-page_tools_png").get_by_role("button").click()
    assert png_download.value.suggested_filename == "gaussmech-noise-vs-epsilon-eps1-delta1e-5-d10.png"
    png = tmp_path / "chart.png"
    png_download.value.save_as(png)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert width == 2400 and height > 1000
    _no_exception(page)


def test_the_report_opens_offline_and_shows_its_charts(browser, page, app_url, tmp_path):
    page.goto(f"{app_url}/?epsilon=2")
    _wait_idle(page)
    _open_tool(page, "Report")
    files = {}
    for version, label in (("brief", "Brief (one page)"), ("full", "Full report with the math")):
        with page.expect_download(timeout=90_000) as download:
            page.get_by_role("button", name=label).click()
        files[version] = tmp_path / download.value.suggested_filename
        download.value.save_as(files[version])
    offline = browser.new_context(viewport={"width": 1200, "height": 900}, offline=True)
    requests = []
    offline.on("request", lambda request: requests.append(request.url))
    for version, expected_charts in (("brief", 1), ("full", 2)):
        report = offline.new_page()
        report.goto(files[version].as_uri())
        charts = report.locator(".js-plotly-plot")
        expect(charts).to_have_count(expected_charts)
        expect(charts.first.locator(".main-svg").first).to_be_visible()
        expect(charts.first).to_contain_text("Analytic Gaussian")
        expect(report.locator("body")).to_contain_text("ε = 2, δ = 1e-5")
        expect(report.locator(".warnings")).to_contain_text("Classical Gaussian: Not a theorem here")
        expect(report.locator(".warnings")).to_contain_text("true δ = 0.181")  # R1SMG's, once
        report.emulate_media(media="print")
        expect(report.locator("table").first).to_be_visible()
        text = report.locator("body").inner_text()
        for raw in ("](", "\\frac", "\\sigma", "$", "docs/math.md", ".py"):
            assert raw not in text, (version, raw)  # no raw Markdown, LaTeX source or file path
        if version == "brief":
            expect(report.locator("p.answer")).to_contain_text("The answer.")
            assert text.index("The answer.") < text.index("How much noise each mechanism needs")
            for paper in ("A4", "Letter"):  # Chromium's own PDF, as the browser's Print would make it
                pdf = report.pdf(format=paper, print_background=True)
                pages = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
                assert pages == 1, (paper, pages)
        report.close()
    assert all(url.startswith("file:") for url in requests), requests
    offline.close()


def _keys_ready(page) -> None:
    """Wait until the clicker's keys are attached (the shortcuts component's script has run)."""
    page.wait_for_function("() => window.__streamlitShortcutsInitialized === true")


def _press_to_move(page, key: str) -> None:
    """Press a clicker key that moves the deck, and wait until the page's link has moved with it.

    A press is pressed again (at most twice) only when the page has settled with its link unchanged:
    on a busy machine a key's trigger can be lost (left open in the issue's closing note); pressing
    again is what a presenter does, and the slide the test then expects tells a lost key from a
    double step.
    """
    address = page.url
    for attempt in range(3):
        page.keyboard.press(key)
        try:
            page.wait_for_url(lambda url: url != address, timeout=30_000)
            break
        except PlaywrightTimeout:
            _wait_idle(page)
            if page.url != address or attempt == 2:
                break
    _wait_idle(page)


def test_a_clicker_walks_the_tour_in_presenter_mode_and_a_link_lands_on_the_same_step(browser, app_url):
    context = browser.new_context(viewport={"width": 1280, "height": 620})
    page = context.new_page()
    page.goto(f"{app_url}/Class_tour?present=1")
    _wait_idle(page)
    _keys_ready(page)
    view = page.locator(".st-key-presenter_view")
    expect(view.get_by_text("Step 1 of 6")).to_be_visible()
    expect(view.locator(".st-key-tour_question")).to_contain_text("Ask the room")
    expect(view.get_by_role("button", name="Draw again")).to_be_visible()
    for number in range(2, 7):  # PageDown through every step
        _press_to_move(page, "PageDown")
        expect(view.get_by_text(f"Step {number} of 6")).to_be_visible()
        assert f"tour_step={number}" in page.url
        chart = view.locator(f'.st-key-tour_step_{number} [data-testid="stPlotlyChart"]')
        expect(chart).to_be_visible()
        box = chart.bounding_box()
        assert box["height"] >= 310, (number, box)
        controls = view.get_by_role("button", name="Next").bounding_box()
        assert controls["y"] + controls["height"] <= 620, (number, controls)
        expect(view.locator(".st-key-tour_question")).to_be_visible()
    page.keyboard.press("PageDown")  # the last step stays
    _wait_idle(page)
    expect(view.get_by_text("Step 6 of 6")).to_be_visible()
    for number in range(5, 0, -1):  # and PageUp back to the start
        _press_to_move(page, "PageUp")
        expect(view.get_by_text(f"Step {number} of 6")).to_be_visible()
    for key, number in (("ArrowRight", 2), ("n", 3), (" ", 4), ("ArrowLeft", 3), ("p", 2)):
        _press_to_move(page, key)
        expect(view.get_by_text(f"Step {number} of 6")).to_be_visible()
    teacher_link = page.url
    student = browser.new_context(viewport={"width": 1280, "height": 720})
    other = student.new_page()
    other.goto(teacher_link)
    _wait_idle(other)
    expect(other.locator(".st-key-presenter_view").get_by_text("Step 2 of 6")).to_be_visible()
    expect(other.locator('.st-key-tour_step_2 [data-testid="stPlotlyChart"]')).to_be_visible()
    _no_exception(other)
    student.close()
    view.get_by_role("button", name="Leave presenter mode").click()
    _wait_idle(page)
    page.keyboard.press("n")  # the keys belong to the page again
    _wait_idle(page)
    assert "present=1" not in page.url
    _no_exception(page)
    context.close()


def test_a_tabbed_page_presents_every_view_in_order(browser, app_url):
    context = browser.new_context(viewport={"width": 1280, "height": 620})
    page = context.new_page()
    page.goto(f"{app_url}/Tail_probabilities?present=1")
    _wait_idle(page)
    _keys_ready(page)
    view = page.locator(".st-key-presenter_view")
    expect(view.get_by_text("Per coordinate (1 of 5) · Chart 1 of 1")).to_be_visible()
    following = [
        "Whole vector",
        "Laplace vs Gaussian: tails",
        "Laplace vs Gaussian: privacy cost",
        "Laplace vs Gaussian: variance",
    ]
    for number, name in enumerate(following, start=2):
        _press_to_move(page, "PageDown")
        expect(view.get_by_text(f"{name} ({number} of 5)", exact=False)).to_be_visible()
        _wait_idle(page)
        chart = view.locator('[data-testid="stPlotlyChart"]')
        expect(chart).to_be_visible()
        assert chart.bounding_box()["height"] >= 310
    _press_to_move(page, "PageUp")
    expect(view.get_by_text("Laplace vs Gaussian: privacy cost (4 of 5)", exact=False)).to_be_visible()
    _no_exception(page)
    context.close()
