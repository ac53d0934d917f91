"""What every page repeats, once: a chart with its caption and CSV download, the Plotly config, seed controls.

* :data:`PLOTLY_CONFIG`: the toolbar of every chart (no logo; the camera saves a PNG at twice
  the screen resolution, ready for a slide).
* :func:`chart`: a Plotly figure, then its caption (a claim in words from the numbers) and a
  CSV download of its data, with stable widget keys.
* :func:`seed_controls`: a seed box bound to the URL and a "Draw again" button that moves to
  the next seed, so a drawn picture can still be shared by its link.
* :func:`page_style`: the shared style sheet: a compact page top (the first chart starts on a
  1280×720 projector's first screen) and, on a phone, no Plotly toolbar over a chart's title.
* :func:`on_phone` and :func:`fit_to_screen`: a chart laid out for a narrow window (a phone, a narrow
  desktop window: legend below in one column, smaller type and margins, wrapped title), applied by
  :func:`show_chart`; the window's width comes from the browser (:func:`watch_screen_width`).
* :func:`bounded_data_explainer`: where mechanisms for bounded data are shown, why bounds buy pure
  ε-DP for GG noise (Liu, Claim 4) and Liu's note on the exponential mechanism (docs/math.md sections 5.6, 5.8).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from html import escape
from typing import Callable

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from .downloads import download_csv
from .figures.common import _merged
from .format import cite_math, format_number

__all__ = [
    "PLOTLY_CONFIG",
    "PAGE_STYLE",
    "page_style",
    "on_phone",
    "fit_to_screen",
    "show_chart",
    "window_height_style",
    "MIN_WINDOW_CHART_HEIGHT",
    "say",
    "table",
    "card_rows_html",
    "chart",
    "seed_controls",
    "next_seed",
    "BOUNDED_DATA_TEXT",
    "bounded_data_explainer",
    "round_up_note",
]

PLOTLY_CONFIG = {
    "displaylogo": False,
    # The camera button saves a PNG at twice the screen resolution, ready for a slide.
    "toImageButtonOptions": {"format": "png", "scale": 2},
}
SEED_RANGE = (1, 1_000_000)

# The page's top: Streamlit leaves 6rem above the title and draws it at 2.75rem, two lines on a
# projector; compact (its header transparent, the title right under its menu button), the title is one
# line and a view's first chart ends within a 1280×620 projector's first screen (show_chart's screen_top). On a narrow
# screen the chart toolbar (it appears on touch) would sit on the title, so it is hidden there.
# Printed, the page leaves out the sidebar, Streamlit's header and the page tools (container key
# ``page_tools``, :mod:`gaussmech_ui.page_tools`), and keeps charts and tables whole. One style
# element for both: every element is part of every rerun's cost.
# The menu: a focused link gets an outline, not the current page's background (the current page is
# the link in the container ``menu_current``, gaussmech_ui.sidebar._draw_menu).
PAGE_STYLE = """
<style>
[data-testid="stMainBlockContainer"] { padding-top: 2.75rem !important; padding-bottom: 3rem !important; }
[data-testid="stHeader"] { background: transparent; }
[data-testid="stSidebar"] .st-key-screen_width { display: none; }
[class*="st-key-compact_notice"] [data-testid="stAlertContainer"] { padding-top: 0.45rem; padding-bottom: 0.45rem; }
[data-testid="stMainBlockContainer"] h1 { font-size: 1.9rem !important; padding: 0 0 0.2rem 0 !important; line-height: 1.2; }
[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"]:focus { background-color: transparent; }
[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"]:hover { background-color: rgba(151, 164, 190, 0.25); }
[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"]:focus-visible { outline: 2px solid #0068c9; outline-offset: -2px; }
[data-testid="stSidebar"] .st-key-menu_current [data-testid="stPageLink-NavLink"] { background-color: rgba(151, 164, 190, 0.15); }
[data-testid="stSidebar"] .st-key-menu_current [data-testid="stPageLink-NavLink"] span { font-weight: 600; }
[class*="st-key-narrow_table_"] { display: none !important; }
.gm-card { border: 1px solid rgba(49, 51, 63, 0.2); border-radius: 0.5rem; padding: 0.45rem 0.7rem; margin-bottom: 0.5rem; }
.gm-card-head { font-weight: 600; margin-bottom: 0.2rem; }
.gm-card dl { display: grid; grid-template-columns: minmax(7rem, 45%) 1fr; gap: 0.1rem 0.6rem; margin: 0; padding: 0; font-size: 0.9rem; }
.gm-card dt { color: #555; font-weight: 400; overflow-wrap: anywhere; margin: 0; padding: 0; }
.gm-card dd { margin: 0; overflow-wrap: anywhere; }
@media (max-width: 640px) {
  [class*="st-key-wide_table_"] { display: none !important; }
  [class*="st-key-narrow_table_"] { display: flex !important; }
  [data-testid="stMainBlockContainer"] { padding-left: 0.75rem !important; padding-right: 0.75rem !important; }
  [data-testid="stMainBlockContainer"] h1 { font-size: 1.7rem !important; }
  [data-testid="stPlotlyChart"] .modebar-container { display: none !important; }
}
@media print {
  [data-testid="stSidebar"], [data-testid="stHeader"], [data-testid="stToolbar"], [data-testid="stDecoration"],
  .st-key-page_tools, [data-testid="stExpandSidebarButton"], [data-testid="stSidebarCollapsedControl"] { display: none !important; }
  [data-testid="stMainBlockContainer"] { max-width: 100% !important; padding: 0 !important; }
  [data-testid="stDataFrame"], [data-testid="stTable"], [data-testid="stPlotlyChart"] { break-inside: avoid; }
  [data-testid="stTable"] table { width: 100% !important; }
}
</style>
"""
# Before the browser has said how wide its window is (the first run of a session), a phone's browser says
# "Mobi" in its user agent (MDN's advice for telling phones from tablets and laptops).
_PHONE_MARK = "Mobi"
# Narrower than this (CSS px), a chart gets the narrow layout: Streamlit stacks columns below 640 px.
NARROW_SCREEN = 641
_NARROW_STATE = "_gaussmech_narrow_screen"
_PROBE_KEY = "screen_width"
_AGENT_STATE = "_gaussmech_agent_is_a_phone"
# Streamlit's own custom-component API (st.components.v2): a script with no view of its own that reports
# whether the window is narrower than NARROW_SCREEN, now and after every resize, and only when that differs
# from what the page assumed, so a laptop's page runs once and a narrow window's once more.
_WIDTH_PROBE_JS = """
export default function(component) {
  const { data, setStateValue } = component;
  const report = () => {
    const narrow = window.innerWidth < data.breakpoint;
    // "settled": the page on screen was drawn for this width; "pending": a rerun for it is on its way.
    document.documentElement.dataset.gaussmechLayout = narrow === data.narrow ? "settled" : "pending";
    if (narrow !== data.narrow) setStateValue("narrow", narrow);
  };
  report();
  window.addEventListener("resize", report);
  return () => window.removeEventListener("resize", report);
}
"""
_width_probe = None
_PHONE_FONT = 12
_PHONE_LINE = 40  # characters of a title line on a 390 px screen at 15 px (legend lines: 6 more, at 11 px)
_PHONE_ROW = 19  # pixels per legend line
_PANEL_TITLE_LINE = 58  # characters of 11 px type across a 390 px screen (panel titles)
_PANEL_TITLE_ROW = 15  # pixels per extra line of a wrapped panel title (11 px type)


def page_style() -> None:
    """Apply :data:`PAGE_STYLE` and watch the window's width (the sidebar calls it on every page)."""
    st.html(PAGE_STYLE)
    watch_screen_width()


def _agent_is_a_phone() -> bool:
    """Whether the session's browser says it is a phone; read once a session (``st.context.headers``
    costs about 2 ms a call, and a session's browser does not change)."""
    try:
        known = st.session_state.get(_AGENT_STATE)
        if known is None:
            known = st.session_state[_AGENT_STATE] = _PHONE_MARK in (st.context.headers.get("User-Agent") or "")
    except Exception:  # no browser session (AppTest, a script)
        return False
    return bool(known)


def watch_screen_width() -> None:
    """Mount the width probe (in the sidebar, with no view) and keep what it reports for :func:`on_phone`."""
    global _width_probe
    _keep_reported_width()
    assumed = on_phone()
    try:
        if _width_probe is None:
            _width_probe = st.components.v2.component("gaussmech_width_probe", js=_WIDTH_PROBE_JS)
        with st.sidebar:
            result = _width_probe(
                key=_PROBE_KEY,
                data={"narrow": assumed, "breakpoint": NARROW_SCREEN},
                on_narrow_change=lambda: None,
            )
        reported = getattr(result, "narrow", None)
    except Exception:  # no browser session (AppTest, a script): the user agent decides
        return
    if reported is not None:
        st.session_state[_NARROW_STATE] = bool(reported)


def _keep_reported_width() -> None:
    """Keep what the probe reported in the last run before it is mounted again, so that the page it
    draws and the width the probe is told the page assumed agree from the first rerun on."""
    try:
        reported = (st.session_state.get(_PROBE_KEY) or {}).get("narrow")
    except Exception:  # no session (a script)
        return
    if reported is not None:
        st.session_state[_NARROW_STATE] = bool(reported)


def on_phone() -> bool:
    """Whether this session's window is narrow (below :data:`NARROW_SCREEN` px), so charts get the narrow
    layout: what the browser reported (:func:`watch_screen_width`), else whether its user agent is a phone's."""
    try:
        reported = st.session_state.get(_NARROW_STATE)
    except Exception:  # no session (a script)
        reported = None
    return _agent_is_a_phone() if reported is None else bool(reported)


def _wrapped(text: str, width: int = _PHONE_LINE) -> tuple[str, int]:
    """``text`` with every line longer than ``width`` characters broken at spaces; and its number of lines."""
    lines = []
    for line in re.split(r"<br\s*/?>", text):
        words, current = line.split(" "), ""
        for word in words:
            visible = len(re.sub(r"<[^>]+>", "", current + " " + word))
            if current and visible > width:
                lines.append(current)
                current = word
            else:
                current = f"{current} {word}" if current else word
        lines.append(current)
    return "<br>".join(lines), len(lines)


def _panel_titles(figure) -> list:
    """The panel titles of a figure with subplots: the annotations that ``make_subplots`` places
    centred over an x axis's domain, on the top edge of a y axis's domain, without an arrow."""
    centres = {round(sum(axis.domain or (0.0, 1.0)) / 2, 6) for axis in figure.select_xaxes()}
    tops = {round((axis.domain or (0.0, 1.0))[1], 6) for axis in figure.select_yaxes()}
    return [
        annotation
        for annotation in figure.layout.annotations
        if annotation.text
        and annotation.showarrow is False
        and annotation.xref == "paper"
        and annotation.yref == "paper"
        and annotation.yanchor == "bottom"
        and annotation.x is not None
        and annotation.y is not None
        and round(annotation.x, 6) in centres
        and round(annotation.y, 6) in tops
    ]


def _wrap_panel_titles(figure) -> int:
    """Wrap the titles of panels side by side to each panel's share of a phone's width; the extra
    lines of the top row. A panel alone in its row keeps its title on one line: it has the width,
    and a second line would run into the panel above."""
    titles = _panel_titles(figure)
    panels_per_row = Counter(round(title.y, 6) for title in titles)
    top_row = max(panels_per_row, default=None)
    extra_lines = 0
    for title in titles:
        row = round(title.y, 6)
        if panels_per_row[row] < 2:
            continue
        title.text, lines = _wrapped(title.text, max(12, _PANEL_TITLE_LINE // panels_per_row[row] - 2))
        if row == top_row:
            extra_lines = max(extra_lines, lines - 1)
    return extra_lines


def fit_to_screen(figure, *, phone: bool | None = None):
    """The figure laid out for the session's screen: unchanged on a laptop; on a phone, a copy with the
    legend below the plot, one entry per row, the title, panel titles and long legend entries wrapped
    to the width, smaller type and margins, and the figure taller by the legend's rows (so the plot
    keeps its height).
    """
    if not (on_phone() if phone is None else phone) or not isinstance(figure, go.Figure):
        return figure
    figure = go.Figure(figure)
    layout = figure.layout
    title_lines = 0
    if layout.title.text:
        text, title_lines = _wrapped(layout.title.text)
        figure.update_layout(title=dict(text=text, font=dict(size=15)))
    if layout.title.subtitle.text:
        text, lines = _wrapped(layout.title.subtitle.text, _PHONE_LINE + 8)
        figure.update_layout(title_subtitle=dict(text=text, font=dict(size=11)))
        title_lines += lines
    rows = 0
    for trace in figure.data:
        if trace.name and trace.showlegend is not False:
            trace.name, lines = _wrapped(trace.name, _PHONE_LINE + 6)
            rows += lines
        if getattr(trace, "legendgrouptitle", None) is not None and trace.legendgrouptitle.text:
            rows += 1
    top = max(40, 22 * title_lines + 20) if title_lines else (layout.margin.t or 40)
    # Side-by-side panels share the width: their titles wrap, and the top row's extra lines (at 11 px)
    # push the plot down instead of running into the chart's title.
    top += _PANEL_TITLE_ROW * _wrap_panel_titles(figure)
    legend_height = rows * _PHONE_ROW if layout.showlegend is not False and rows > 1 else 0
    figure.update_layout(
        font=dict(size=_PHONE_FONT),
        margin=dict(l=52, r=12, t=top, b=60 + legend_height),
        height=(layout.height or 450) + legend_height - 40,
        legend=dict(
            orientation="h",
            x=0.0,
            xanchor="left",
            y=-0.12 if legend_height == 0 else -(60 / max((layout.height or 450) - 100, 200)),
            yanchor="top",
            entrywidth=1.0,
            entrywidthmode="fraction",
            font=dict(size=_PHONE_FONT - 1),
            grouptitlefont=dict(size=_PHONE_FONT - 1),
        ),
    )
    figure.update_xaxes(tickfont=dict(size=_PHONE_FONT - 1), title_font=dict(size=_PHONE_FONT), nticks=6)
    figure.update_yaxes(tickfont=dict(size=_PHONE_FONT - 1), title_font=dict(size=_PHONE_FONT), nticks=6)
    for annotation in figure.layout.annotations:
        annotation.font.size = _PHONE_FONT - 1
    return figure


# A chart that follows the window's height is never lower than this (its axes and title stay readable).
MIN_WINDOW_CHART_HEIGHT = 300
# Above this width the window's height decides (a laptop, a projector); below it the chart keeps its own
# height, since on a phone the page scrolls and a legend below the plot needs its rows.
_WIDE_SCREEN = 641
_BOTTOM_GAP = 6  # px between a window-fitted chart and the window's bottom


def window_height_style(key: str, height: int, screen_top: int) -> str:
    """The style that makes the chart of container ``key`` end at the window's bottom when it starts at
    ``screen_top`` px: at most its own ``height``, at least :data:`MIN_WINDOW_CHART_HEIGHT`.

    Streamlit gives a container of fixed height a wrapper whose flex basis is that height; the rule
    replaces both by ``min(height, max(MIN, 100vh - screen_top))`` on wide screens.

    >>> "min(640px, max(300px, calc(100vh - 256px)))" in window_height_style("first", 640, 250)
    True
    """
    if not re.fullmatch(r"[A-Za-z0-9_-]+", key):
        raise ValueError(f"key must be a CSS name (letters, digits, _ and -), got {key!r}")
    if not all(isinstance(number, int) and not isinstance(number, bool) for number in (height, screen_top)):
        raise TypeError("height and screen_top must be whole numbers of pixels")
    size = f"min({height}px, max({MIN_WINDOW_CHART_HEIGHT}px, calc(100vh - {screen_top + _BOTTOM_GAP}px)))"
    return (
        f"<style>@media (min-width: {_WIDE_SCREEN}px) {{ div:has(> .st-key-{key}) "
        f"{{ flex: 0 0 {size} !important; height: {size} !important; }} }}</style>"
    )


def fit_to_window(figure):
    """``figure`` laid out for a height that follows the window, as a display-only
    :class:`PreparedFigure` (the original is unchanged): a legend that sat under the
    plot moves beside it, one entry a line in small type (shortened to a projector's window, the plot
    would be a strip under the legend's rows), and the title hangs from the figure's top (placed at a
    fraction of the height, it rose above a shortened chart's top and was cut). Anything that is not
    a Plotly figure is returned as it is.
    """
    if not isinstance(figure, go.Figure):
        return figure
    layout = figure.layout
    updates: dict = {}
    if layout.title.text:
        updates["title"] = dict(yref="container", y=1.0, yanchor="top", pad=dict(t=24))
    legend = layout.legend
    if legend.orientation == "h" and (legend.y or 0) < 0:
        bottom = max(60, layout.margin.b or 0)  # the x axis title, which the legend had room under
        updates["legend"] = dict(orientation="v", x=1.02, xanchor="left", y=1.0, yanchor="top", font=dict(size=11))
        updates["margin"] = dict(b=bottom)
    if not updates:
        return figure
    spec = figure.to_dict()
    return PreparedFigure(dict(spec, layout=_merged(spec["layout"], updates)), height=layout.height)


class PreparedFigure(go.Figure):
    """A figure whose JSON is already written: ``st.plotly_chart`` asks a figure for ``to_dict()`` once and
    sends that, so a relaid copy costs one ``to_dict`` of the original, where a real copy
    (``go.Figure(spec)``) builds every trace again and ``st.plotly_chart`` copies it once more: 2-3 times
    the work, about 17 ms on the Whole vector view. Only for display: its own traces and layout are empty
    (its ``height`` is the spec's), so :func:`show_chart` logs the original for the page tools.
    """

    def __init__(self, spec: dict, height: int | None = None):
        super().__init__(layout=dict(height=height) if height else None)
        self._prepared_spec = spec

    def to_dict(self) -> dict:
        return self._prepared_spec

    def to_plotly_json(self) -> dict:
        return self._prepared_spec


def show_chart(
    figure, key: str, *, alt: str | None = None, config: dict | None = None, screen_top: int | None = None
) -> None:
    """``st.plotly_chart`` of ``figure`` fitted to the screen (:func:`fit_to_screen`), keyed, with the shared toolbar.

    With ``screen_top`` (where the chart starts on a 1280 px wide screen, in px), the chart's height
    follows the window's so that the chart ends on the first screen (:func:`window_height_style`):
    a view's first chart, whole on a projector (1280×620) and as tall as drawn on a laptop.
    """
    options = dict(key=key, theme=None, config=config or PLOTLY_CONFIG)
    if alt is not None:
        options["alt"] = alt
    fitted = fit_to_screen(figure)
    if screen_top is not None and fitted is figure:  # a wide window: the chart follows its height
        fitted = fit_to_window(figure)
    height = getattr(getattr(fitted, "layout", None), "height", None)
    if screen_top is None or not height:
        st.plotly_chart(fitted, **options)
    else:
        frame_key = f"window_fit_{key}"
        st.html(window_height_style(frame_key, int(height), screen_top))
        with st.container(key=frame_key, height=int(height), border=False):
            st.plotly_chart(fitted, height="stretch", **options)
    if fitted is not figure:  # the page tools export and present the chart as laid out for a laptop
        from . import chart_log

        log = chart_log.current_log()
        if log is not None and log.charts and log.charts[-1].figure is fitted:
            log.charts[-1].figure = figure


def card_rows_html(frame: pd.DataFrame, key: str) -> str:
    """``frame`` as stacked cards, one per row: its first column as the card's heading, then one
    "column: value" line per other column, so a phone reads every column without scrolling sideways.

    Numbers are shown to 3 significant digits (the table's CSV has the exact values); text is escaped.

    >>> html = card_rows_html(pd.DataFrame({"Mechanism": ["Laplace"], "Scale": [1.23456]}), "t")
    >>> "<dt>Scale</dt><dd>1.23</dd>" in html and "Laplace" in html
    True
    """

    def shown(value) -> str:
        if isinstance(value, bool) or value is None:
            return escape(str(value))
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return escape(format_number(float(value)) if isinstance(value, float) else f"{value:,}")
        return escape(str(value))

    columns = list(frame.columns)
    cards = []
    for row in frame.itertuples(index=False, name=None):
        fields = "".join(
            f"<dt>{escape(str(name))}</dt><dd>{shown(value)}</dd>" for name, value in zip(columns[1:], row[1:])
        )
        cards.append(f'<div class="gm-card"><div class="gm-card-head">{shown(row[0])}</div><dl>{fields}</dl></div>')
    return f'<div class="gm-cards" data-table="{escape(key)}">{"".join(cards)}</div>'


def table(data, *, key: str, static: bool = False, **dataframe_options) -> None:
    """A table: ``st.dataframe(data, key=key, **dataframe_options)`` (``st.table(data)`` if ``static``) on a
    wide window; below :data:`NARROW_SCREEN` px the same rows as stacked cards (:func:`card_rows_html`),
    by a media query. The cards are built only for a window known or assumed narrow (:func:`on_phone`).

    ``data`` may be a pandas Styler (its frame gives the cards); ``column_order`` is kept in the cards.
    """
    with st.container(key=f"wide_table_{key}"):
        if static:
            st.table(data)
        else:
            st.dataframe(data, key=key, **dataframe_options)
    if not on_phone():  # a window reported or assumed wide gets no cards; a narrower one reruns with them
        return
    frame = data.data if hasattr(data, "data") and isinstance(getattr(data, "data"), pd.DataFrame) else data
    frame = pd.DataFrame(frame)
    if not dataframe_options.get("hide_index", False):
        frame = frame.reset_index()
    order = dataframe_options.get("column_order")
    if order:
        frame = frame[[column for column in order if column in frame.columns]]
    with st.container(key=f"narrow_table_{key}"):
        st.html(card_rows_html(frame, key))


def say(text: str) -> None:
    """A plain-language reading of a chart, generated from its numbers (nothing when there is none)."""
    if text:
        st.info(text, icon=":material/campaign:")


def chart(
    figure,
    key: str,
    *,
    alt: str | None = None,
    caption: str | None = None,
    data: pd.DataFrame | Callable[[], pd.DataFrame] | None = None,
    file_name: str | None = None,
    download_key: str | None = None,
    download_label: str = "Chart data as CSV",
    screen_top: int | None = None,
) -> None:
    """Draw ``figure`` (key ``key``), then ``caption`` (:func:`say`) and a CSV download of ``data``.

    The download's key is ``download_key``, or ``key`` with ``_chart`` replaced by ``_download``;
    ``screen_top`` as in :func:`show_chart`.
    """
    show_chart(figure, key, alt=alt, screen_top=screen_top)
    say(caption or "")
    if data is not None:
        download_key = download_key or (key.replace("_chart", "_download") if "_chart" in key else f"{key}_download")
        download_csv(download_label, data, file_name or f"gaussmech-{key}.csv", key=download_key)


# A plain decimal number, ASCII only (Python's float() also reads "９" and "1_0", a link must not).
_PLAIN_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?", re.ASCII)


def _link_value_fits(raw: str, low: float, high: float, whole: bool) -> bool:
    text = str(raw).strip()
    if not _PLAIN_NUMBER.fullmatch(text):
        return False
    value = float(text)
    return math.isfinite(value) and low <= value <= high and (not whole or value.is_integer())


def linked_number_input(container, label: str, min_value, max_value, value="min", *, key: str, step=1, **options):
    """``number_input`` bound to the URL that first drops a link value it cannot take.

    Streamlit's binding raises on ``inf`` or ``1e309`` and keeps other bad text in the URL while
    the box shows its default; removing such a value before the box reads it makes the box use its
    default and lets :func:`gaussmech_ui.sidebar.finish_page` warn about the dropped value.
    """
    raw = st.query_params.get(key)
    whole = isinstance(min_value, int) and isinstance(step, int)
    options.setdefault("bind", "query-params")
    if raw is not None and not _link_value_fits(raw, min_value, max_value, whole):
        # Streamlit seeds a bound box from the link it was opened with, so this run the box is not
        # bound; the value leaves the URL, and the next run binds it again.
        del st.query_params[key]
        options.pop("bind")
    return container.number_input(label, min_value, max_value, value, step=step, key=key, **options)


def next_seed(key: str) -> None:
    """ "Draw again": the next seed (wrapping within :data:`SEED_RANGE`)."""
    st.session_state[key] = int(st.session_state.get(key, SEED_RANGE[0])) % SEED_RANGE[1] + 1


def seed_controls(
    prefix: str, *, help: str = "Draws new random noise (the next seed). The curve stays: it is exact."
) -> int:
    """A seed box (key ``<prefix>_seed``, in the URL) and a "Draw again" button; returns the seed."""
    left, right = st.columns([1, 1], vertical_alignment="bottom")
    with right:
        st.button(
            "Draw again",
            key=f"{prefix}_draw_again",
            icon=":material/casino:",
            on_click=next_seed,
            args=(f"{prefix}_seed",),
            help=help,
        )
    with left:
        seed = linked_number_input(
            st,
            "Seed",
            SEED_RANGE[0],
            SEED_RANGE[1],
            step=1,
            key=f"{prefix}_seed",
            help="The same seed always draws the same noise, so a shared link shows the same picture.",
        )
    return int(seed)


BOUNDED_DATA_TEXT = cite_math(
    "**Why the data bounds matter.** With unbounded outputs, generalized Gaussian noise of order p > 1 is never "
    "pure ε-DP (Liu, Claim 4): the privacy loss (|e + Δ|ᵖ − |e|ᵖ)/bᵖ grows without limit as the noise e grows, "
    "so no scale b caps it. When every coordinate is known to lie in [a, b] and the release is kept there "
    "(truncated, or clamped with the excess piled on the bounds), the loss is at most (Wᵖ − (W − Δ)ᵖ)/bᵖ with "
    "W = b − a, and that buys pure ε-DP for every p ≥ 1 at a finite b (docs/math.md section 5.6). The noise is shown for a "
    "true value at the middle of [a, b].\n\n"
    "**Liu's note on the exponential mechanism** (docs/math.md section 5.8). The exponential mechanism with utility "
    "u = −‖s* − s‖ₚᵖ also releases GG-shaped output, but its scale follows the sensitivity Δᵤ of the utility, "
    "not Δₚ; with u = −‖s* − s‖₁ both become a truncated Laplace. Its actual privacy cost is below its nominal ε, "
    "and equals ε/2 when the normaliser does not depend on the data (Liu, Appendix D)."
)


def round_up_note(setting) -> None:
    """Where a mechanism's smallest private scale is not safe to round up, one sentence saying so
    (:mod:`gaussmech_ui.round_up`)."""
    from .round_up import round_up_note as note  # here, so the sidebar draws without the core

    note(setting)


def bounded_data_explainer() -> None:
    """An expander with :data:`BOUNDED_DATA_TEXT`, drawn when the registry has a mechanism for bounded data."""
    from gaussmech_core.mechanisms import (
        MECHANISMS,  # here, so the sidebar (which imports this module) draws without the core
    )

    bounded = [mechanism for mechanism in MECHANISMS.values() if mechanism.uses_bounds]
    if not bounded:
        return
    names = ", ".join(mechanism.name for mechanism in bounded)
    with st.expander(f"Mechanisms for bounded data: {names}", icon=":material/crop_free:"):
        st.markdown(BOUNDED_DATA_TEXT)
