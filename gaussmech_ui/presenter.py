"""Presenter mode: one chart per screen, caption above it, the setting always in view.

Switched on by the toggle in the page tools or by ``present=1`` in the URL (so a teacher can put
it in the link the class opens). The page draws as usual; at its end :func:`render_presenter`
shows the page's charts (recorded by :mod:`gaussmech_ui.chart_log`) one at a time in a container
of its own and hides everything else with a style sheet: the sidebar, the page's other parts,
Streamlit's toolbar. Each slide has

* the setting line (ε, δ, Δ, d, neighbour model), sticky at the top;
* the chart's plain-language caption above it, in large type;
* the chart, sized to fit a 1280×720 projector with everything above and below it;
* "previous" / "next" through the page's charts, and "leave presenter mode".

The slide number is in the URL (``slide=2``), so a link opens the same slide.
"""

from __future__ import annotations

import copy
import html

import plotly.graph_objects as go
import streamlit as st

from gaussmech_core.registry_types import Setting

from .chart_log import RecordedChart
from .export import legend_below, setting_line

__all__ = [
    "PRESENT_KEY",
    "SLIDE_KEY",
    "SLIDE_CHART_HEIGHT",
    "is_presenting",
    "slide_index",
    "render_presenter",
    "slide_figure",
]

PRESENT_KEY = "present"
SLIDE_KEY = "slide"
SLIDE_CHART_HEIGHT = 470  # 720 − browser-free viewport chrome − setting line − caption − buttons
_FONT_BOOST = 4

_STYLE = """
<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stExpandSidebarButton"],
[data-testid="stHeader"], [data-testid="stToolbar"], [data-testid="stDecoration"] { display: none !important; }
[data-testid="stMainBlockContainer"] { padding: 0.5rem 1.5rem 0.5rem 1.5rem !important; max-width: 100% !important; }
[data-testid="stMainBlockContainer"] > [data-testid="stVerticalBlock"] > *:not(:has(.st-key-presenter_view)) { display: none !important; }
.st-key-presenter_view { gap: 0.4rem; }
.st-key-presenter_setting { position: sticky; top: 0; z-index: 10; background: white; }
.st-key-presenter_setting p { font-size: 1.25rem !important; font-weight: 600; margin: 0; }
.st-key-presenter_view [data-testid="stMarkdownContainer"] { margin-bottom: 0 !important; }
.presenter-caption { font-size: 1.4rem; line-height: 1.3; padding: 0.1rem 0 0.7rem 0; }
.st-key-presenter_view button p { font-size: 1.15rem !important; }
</style>
"""


def is_presenting() -> bool:
    """Whether the URL asks for presenter mode (``present=1``)."""
    return st.query_params.get(PRESENT_KEY) == "1"


def slide_index(count: int) -> int:
    """The slide in the URL (``slide``, 1-based there), clamped to the page's charts; 0-based."""
    raw = st.query_params.get(SLIDE_KEY, "1")
    try:
        number = int(raw)
    except (TypeError, ValueError):
        number = 1
    return min(max(number, 1), max(count, 1)) - 1


def _go(step: int, count: int) -> None:
    current = slide_index(count)
    st.query_params[SLIDE_KEY] = str((current + step) % count + 1)


def _leave() -> None:
    for key in (PRESENT_KEY, SLIDE_KEY):
        if key in st.query_params:
            del st.query_params[key]


def slide_figure(chart: RecordedChart) -> go.Figure:
    """A copy of the chart sized for one screen, with larger type and the legend below in columns.

    Traces hidden in the legend are left out (a slide shows what is drawn).
    """
    figure = go.Figure(copy.deepcopy(chart.figure.to_dict()))
    size = (figure.layout.font.size or 16) + _FONT_BOOST
    title_size = (figure.layout.title.font.size or size) + _FONT_BOOST
    figure.update_layout(font=dict(size=size), title_font=dict(size=title_size), legend_font=dict(size=size - 2))
    legend_below(figure, top=max(70, figure.layout.margin.t or 0), height=SLIDE_CHART_HEIGHT, row_height=30)
    return figure


def _caption_text(chart: RecordedChart, setting: Setting) -> str:
    text = chart.caption or chart.alt or chart.title
    if "δ" not in text:  # δ is always stated
        text = f"{text} (δ = {setting.delta:g})" if text else f"δ = {setting.delta:g}"
    return text


def render_presenter(charts: list[RecordedChart], setting: Setting) -> None:
    """Draw the presenter view of the page's ``charts`` (hides the rest of the page)."""
    st.html(_STYLE)
    with st.container(key="presenter_view"):
        with st.container(key="presenter_setting"):
            st.markdown(setting_line(setting))
        if not charts:
            st.info("This page has no charts to present. Leave presenter mode to see the page.")
            st.button("Leave presenter mode", key="presenter_leave", on_click=_leave, icon=":material/close:")
            return
        count = len(charts)
        index = slide_index(count)
        chart = charts[index]
        st.markdown(
            f"<div class='presenter-caption'>{html.escape(_caption_text(chart, setting))}</div>", unsafe_allow_html=True
        )
        st.plotly_chart(slide_figure(chart), key="presenter_chart", theme=None, config={"displaylogo": False})
        left, middle, right, leave = st.columns([1, 1, 1, 1.3], vertical_alignment="center")
        left.button(
            "Previous",
            key="presenter_previous",
            on_click=_go,
            args=(-1, count),
            icon=":material/arrow_back:",
            use_container_width=True,
        )
        middle.markdown(f"Chart {index + 1} of {count}")
        right.button(
            "Next",
            key="presenter_next",
            on_click=_go,
            args=(1, count),
            icon=":material/arrow_forward:",
            use_container_width=True,
        )
        leave.button(
            "Leave presenter mode",
            key="presenter_leave",
            on_click=_leave,
            icon=":material/close:",
            use_container_width=True,
        )
