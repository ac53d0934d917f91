"""Every page's first chart on a 1280×720 projector and on a phone (390×844), measured on the elements.

* **Projector** (1280×720, the sidebar open): the first chart starts within the first screen, with
  at least :data:`VISIBLE_ON_FIRST_SCREEN` pixels of it in view.
* **Phone** (an iPhone 13's browser, 390×844) and a **narrow desktop window** (600×900, a desktop
  browser: the layout follows the width, not the user agent): the first chart uses at least 90 % of
  the main column and stays inside the screen; its legend is below the plot area and inside the
  chart; no element of the page overlaps the chart; nothing makes the page scroll sideways, and every
  table is shown as stacked cards ("column: value" lines) that need no sideways scroll.

The measurements are printed (``-s`` shows them) for the report of issue 11.
"""

from __future__ import annotations

import pytest

from gaussmech_ui.menu import available_entries
from tests.browser.devices import IDLE, PHONE

VISIBLE_ON_FIRST_SCREEN = 250
# Pages with a chart (the math reference has none).
ENTRIES = [entry for entry in available_entries() if entry.path != "pages/9_Math_reference.py"]

# The geometry of the first visible chart, its plot area and legend, the main column, and whatever
# other element of the main area overlaps the chart (siblings of the chart's element container).
_MEASURE = """() => {
  const box = e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y + window.scrollY, width: r.width, height: r.height}; };
  const main = document.querySelector('[data-testid="stMainBlockContainer"]');
  const style = getComputedStyle(main);
  const mainBox = main.getBoundingClientRect();
  const column = {x: mainBox.x + parseFloat(style.paddingLeft),
                  width: mainBox.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)};
  const chart = [...main.querySelectorAll('[data-testid="stPlotlyChart"]')].find(c => c.offsetParent !== null);
  if (!chart) return {column};
  const chartBox = box(chart);
  const inside = (r) => r.x < chartBox.x + chartBox.width - 1 && r.x + r.width > chartBox.x + 1
                        && r.y < chartBox.y + chartBox.height - 1 && r.y + r.height > chartBox.y + 1;
  const container = chart.closest('[data-testid="stElementContainer"]');
  const overlapping = [...main.querySelectorAll('[data-testid="stElementContainer"]')]
      .filter(e => e !== container && !e.contains(container) && !container.contains(e) && e.offsetParent !== null
                   && !e.closest('details:not([open])') && e.checkVisibility({visibilityProperty: true}))
      .map(e => ({testid: (e.firstElementChild || e).getAttribute('data-testid'), box: box(e)}))
      .filter(e => e.box.height > 0 && inside(e.box));
  const tables = [...main.querySelectorAll('[data-testid="stDataFrame"], [data-testid="stTable"], .gm-cards')]
      .filter(t => t.offsetParent !== null).map(t => {
      const scroller = t.querySelector('.dvn-scroller') || t;
      return {kind: t.classList.contains('gm-cards') ? 'cards' : t.getAttribute('data-testid'), box: box(t),
              scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth};
  });
  const legend = chart.querySelector('.legend');
  return {column, chart: chartBox, plot: box(chart.querySelector('.nsewdrag')),
          legend: legend ? box(legend) : null, overlapping, tables,
          pageWidth: document.documentElement.scrollWidth, viewportWidth: window.innerWidth};
}"""


def _url(app_url: str, entry) -> str:
    if entry.path == "app.py":
        return app_url
    return app_url.rstrip("/") + "/" + entry.url_path


def _measure(page, url: str) -> dict:
    page.goto(url)
    page.locator(IDLE).wait_for(state="attached")
    page.wait_for_timeout(300)
    page.locator(IDLE).wait_for(state="attached")
    page.wait_for_function(
        """() => { const charts = [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
                                 .filter(c => c.offsetParent !== null);
                   return charts.length > 0 && charts.every(c => c.querySelector('.main-svg .nsewdrag')); }""",
        timeout=90_000,
    )
    page.wait_for_timeout(800)  # Plotly's resize to the column, then the last layout pass
    page.locator(IDLE).wait_for(state="attached")
    return page.evaluate(_MEASURE)


def _slug(entry) -> str:
    return entry.label.lower().replace(" ", "_")


@pytest.mark.parametrize("entry", ENTRIES, ids=_slug)
def test_the_first_chart_starts_on_a_projectors_first_screen(browser, app_url, entry):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.set_default_timeout(90_000)
    try:
        geometry = _measure(context.new_page(), _url(app_url, entry))
    finally:
        context.close()
    chart = geometry["chart"]
    print(
        f"\n{_slug(entry)} at 1280x720: first chart top {chart['y']:.0f}, width {chart['width']:.0f}, height {chart['height']:.0f}"
    )
    assert 0 <= chart["y"] <= 720 - VISIBLE_ON_FIRST_SCREEN, chart
    assert chart["width"] >= 0.9 * geometry["column"]["width"], (chart, geometry["column"])


# A desktop browser's window made narrow: no phone in its user agent, so only the width can tell.
NARROW_DESKTOP = {"viewport": {"width": 600, "height": 900}}
SCREENS = {"phone": (PHONE, 390), "narrow_desktop": (NARROW_DESKTOP, 600)}


def _measure_when_narrow(page) -> dict:
    """The page's geometry once the window's width, reported by the browser after the first run
    (gaussmech_ui.page_kit.watch_screen_width), has laid the first chart out narrow (its legend
    under its plot): a narrow desktop window gets that layout one run later than a phone."""
    page.wait_for_function(
        """() => { const chart = [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stPlotlyChart"]')]
                                   .find(c => c.offsetParent !== null);
                   if (!chart) return false;
                   const plot = chart.querySelector('.nsewdrag'), legend = chart.querySelector('.legend');
                   if (!plot) return false;
                   return !legend || legend.getBoundingClientRect().top >= plot.getBoundingClientRect().bottom; }""",
        timeout=90_000,
    )
    page.locator(IDLE).wait_for(state="attached")
    return page.evaluate(_MEASURE)


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("entry", ENTRIES, ids=_slug)
def test_on_a_narrow_screen_the_first_chart_is_full_width_with_its_legend_below(browser, app_url, entry, screen):
    device, width = SCREENS[screen]
    context = browser.new_context(**device)
    context.set_default_timeout(90_000)
    try:
        page = context.new_page()
        _measure(page, _url(app_url, entry))
        geometry = _measure_when_narrow(page)
    finally:
        context.close()
    chart, plot, legend, column = geometry["chart"], geometry["plot"], geometry["legend"], geometry["column"]
    print(
        f"\n{_slug(entry)} on {screen}: first chart top {chart['y']:.0f}, width {chart['width']:.0f}, "
        f"height {chart['height']:.0f}, plot width {plot['width']:.0f}"
    )
    assert chart["width"] >= 0.9 * column["width"], (chart, column)
    assert chart["x"] >= 0 and chart["x"] + chart["width"] <= width, chart
    assert plot["width"] >= 280, ("the plot itself is about 300 px wide or more, not squeezed by a legend", plot)
    assert plot["width"] >= 0.7 * chart["width"], ("the plot area keeps most of the width", plot, chart)
    if legend is not None:
        assert legend["y"] >= plot["y"] + plot["height"], ("the legend is below the plot area", legend, plot)
        assert legend["x"] >= chart["x"] - 1 and legend["x"] + legend["width"] <= chart["x"] + chart["width"] + 1, (
            "the legend fits the chart's width",
            legend,
            chart,
        )
        assert legend["y"] + legend["height"] <= chart["y"] + chart["height"] + 1, (
            "the legend is not cut",
            legend,
            chart,
        )
    assert geometry["overlapping"] == [], geometry["overlapping"]
    assert geometry["pageWidth"] <= geometry["viewportWidth"], "nothing makes the page scroll sideways"
    for table in geometry["tables"]:
        assert table["kind"] == "cards", ("every table is shown as stacked cards", table)
        assert table["box"]["x"] >= 0 and table["box"]["x"] + table["box"]["width"] <= width, table
        assert table["scrollWidth"] <= table["clientWidth"], ("no table scrolls sideways", table)


@pytest.mark.parametrize("screen", SCREENS)
def test_the_overview_tables_are_stacked_cards_on_a_narrow_screen(browser, app_url, screen):
    """Issue 22, item 9: every row of the Overview's tables readable without a sideways scroll."""
    from gaussmech_core.mechanisms import MECHANISMS

    device, width = SCREENS[screen]
    context = browser.new_context(**device)
    context.set_default_timeout(90_000)
    try:
        page = context.new_page()
        _measure(page, app_url)
        geometry = _measure_when_narrow(page)
        cards = page.locator('.gm-cards[data-table="overview_dataframe"] .gm-card')
        count = cards.count()
        first = cards.first.inner_text()
    finally:
        context.close()
    tables = [table for table in geometry["tables"] if table["box"]["height"] > 0]
    assert tables and all(table["kind"] == "cards" for table in tables), tables
    assert all(table["scrollWidth"] <= table["clientWidth"] <= width for table in tables), tables
    assert count == len(MECHANISMS), "one card per mechanism"
    assert "Holds here?" in first and "✓ yes" in first, first
