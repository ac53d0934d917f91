"""Presenter mode: a deck of slides, one chart per screen, its answer above it, the setting in view.

Switched on by the toggle in the page tools or by ``present=1`` in the URL (so a teacher can put
it in the link the class opens). The page draws as usual; at its end :func:`render_presenter`
shows the page's charts (recorded by :mod:`gaussmech_ui.chart_log`) one at a time in a container
of its own and hides everything else with a style sheet: the sidebar, the page's other parts,
Streamlit's toolbar. The Class tour draws its own deck, one step per slide (:mod:`gaussmech_ui.tour`),
in the same frame (:func:`slide_frame`, :func:`deck_controls`). Each slide has

* the page's setting line (what it uses: :mod:`gaussmech_ui.page_facts`), sticky at the top;
* the chart's plain-language answer (the reading written for it, in large type) above it;
* the chart, sized so that slide and controls fit a 1280×620 screen (a projector minus the browser);
* "previous" / "next" and "leave presenter mode".

A page with views (stateful tabs) is one deck: every chart of every view, in order; moving past a
view's last chart opens the next view. The slide number is in the URL (``slide=2``, with the view's
own URL value), so a link opens the same slide. A clicker's keys move the slides: PageDown,
ArrowRight, Space and ``n`` go forward, PageUp, ArrowLeft and ``p`` back (``streamlit-shortcuts``
clicks the buttons, so a key does exactly what the button does).
"""

from __future__ import annotations

import copy
import math
import re
from contextlib import contextmanager
from typing import Callable, Iterator

import plotly.graph_objects as go
import streamlit as st

from gaussmech_core.registry_types import Setting

from .chart_log import PageLog, PageViews, RecordedChart
from .export import setting_line

__all__ = [
    "PRESENT_KEY",
    "SLIDE_KEY",
    "SLIDE_HEIGHT",
    "NEXT_KEYS",
    "PREVIOUS_KEYS",
    "is_presenting",
    "slide_index",
    "slide_frame",
    "deck_controls",
    "render_presenter",
    "slide_figure",
    "slide_text",
    "chart_height_for",
]

PRESENT_KEY = "present"
SLIDE_KEY = "slide"
SLIDE_HEIGHT = 620  # a 1280×720 projector less the browser's own 80-100 px of chrome
MIN_CHART_HEIGHT = SLIDE_HEIGHT // 2  # the plot takes at least half of the slide
# What a presentation clicker sends (PageDown/PageUp, or the arrows), and Space and n/p.
NEXT_KEYS = ["pagedown", "arrowright", " ", "n"]
PREVIOUS_KEYS = ["pageup", "arrowleft", "p"]
_FONT_BOOST = 4
_TITLE_BOOST = 8
# Pixels a slide spends on what is not the chart: the setting line, the controls row, the gaps
# between the parts and the page's own padding (measured in Chromium at 1280×620).
_FRAME_PIXELS = 24 + 42 + 3 * 8 + 8 + 8 + 30
_TEXT_LINE_PIXELS = 27  # one line of the answer at 1.25rem
_TEXT_LINE_CHARACTERS = 110  # characters of a line of the answer across 1230 px

_STYLE = """
<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stExpandSidebarButton"],
[data-testid="stHeader"], [data-testid="stToolbar"], [data-testid="stDecoration"] { display: none !important; }
[data-testid="stMainBlockContainer"] { padding: 0.25rem 1.5rem 0.25rem 1.5rem !important; max-width: 100% !important; }
[data-testid="stMainBlockContainer"] > [data-testid="stVerticalBlock"] > *:not(:has(.st-key-presenter_view)) { display: none !important; }
.st-key-presenter_view { gap: 0.5rem; }
.st-key-presenter_view [data-testid="stVerticalBlock"] { gap: 0.5rem; }
.st-key-presenter_setting { position: sticky; top: 0; z-index: 10; background: white; }
.st-key-presenter_setting p { font-size: 1.2rem !important; font-weight: 600; margin: 0; }
.st-key-presenter_view [data-testid="stMarkdownContainer"], .st-key-presenter_view [data-testid="stMarkdownContainer"] p { margin-bottom: 0 !important; }
.st-key-presenter_text p, .st-key-presenter_text li { font-size: 1.25rem !important; line-height: 1.35; }
.st-key-presenter_view button p { font-size: 1.1rem !important; }
.st-key-presenter_view [data-testid="stCaptionContainer"] { font-size: 0.9rem; line-height: 1.3; }
.st-key-tour_question { padding: 0.35rem 0.9rem !important; }
.st-key-tour_question p { font-size: 1.2rem !important; }
.st-key-presenter_keys { position: absolute; height: 0; overflow: hidden; }
</style>
"""
# The answer on a slide: whole sentences up to about two lines; the rest goes under "Why, and what it assumes".
_ANSWER_CHARACTERS = 230
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z“(])")
_KEYS_INSTALLED = "_presenter_keys_installed"
_PENDING_VIEW = "_presenter_pending_view"  # sidebar.PENDING_VIEW_KEY
_SKIPS = "_presenter_skips"  # (direction, views skipped in a row) while passing views without charts


def is_presenting() -> bool:
    """Whether the URL asks for presenter mode (``present=1``)."""
    return st.query_params.get(PRESENT_KEY) == "1"


def slide_index(count: int) -> int:
    """The slide in the URL (``slide``, 1-based there; ``last`` for the last), clamped to ``count``; 0-based."""
    raw = st.query_params.get(SLIDE_KEY, "1")
    if raw == "last":
        return max(count, 1) - 1
    try:
        number = int(raw)
    except (TypeError, ValueError):
        number = 1
    return min(max(number, 1), max(count, 1)) - 1


def _leave() -> None:
    for key in (PRESENT_KEY, SLIDE_KEY):
        if key in st.query_params:
            del st.query_params[key]


def slide_text(chart: RecordedChart) -> tuple[str, str]:
    """A slide's text: the plain-language answer written for the chart, else its caption (never its alt
    text); split into its first paragraph (the answer, in large type) and the rest (why, what it assumes)."""
    text = (chart.answer or chart.caption).strip()
    first, _, rest = text.partition("\n")
    sentences = _SENTENCE_END.split(first.strip())
    answer = sentences[0]
    for index, sentence in enumerate(sentences[1:], start=1):
        if len(answer) + len(sentence) > _ANSWER_CHARACTERS:
            rest = " ".join(sentences[index:]) + ("\n" + rest if rest else "")
            break
        answer = f"{answer} {sentence}"
    return answer, rest.strip()


def chart_height_for(text: str, *, other_pixels: int = 0) -> int:
    """The chart's height on a slide of :data:`SLIDE_HEIGHT` that also shows ``text`` and ``other_pixels`` more."""
    lines = sum(
        max(1, math.ceil(len(paragraph) / _TEXT_LINE_CHARACTERS)) for paragraph in text.split("\n") if paragraph
    )
    height = SLIDE_HEIGHT - _FRAME_PIXELS - lines * _TEXT_LINE_PIXELS - other_pixels
    return max(height, MIN_CHART_HEIGHT)


def slide_figure(figure: go.Figure, height: int) -> go.Figure:
    """A copy of ``figure`` for a slide: ``height`` pixels, larger type, a larger title with its subtitle
    as a second line right under it, and the legend at the right in one column, so the plot keeps the
    slide's height.

    Traces hidden in the legend are left out (a slide shows what is drawn). On a phone the slide is the
    phone's layout of the chart (legend below, one entry a row: :func:`gaussmech_ui.page_kit.fit_to_screen`).
    """
    from .page_kit import fit_to_screen, on_phone

    figure = go.Figure(copy.deepcopy(figure.to_dict()))
    figure.data = [trace for trace in figure.data if trace.visible != "legendonly"]
    if on_phone():
        figure.update_layout(height=height)
        return fit_to_screen(figure, phone=True)
    layout = figure.layout
    size = (layout.font.size or 14) + _FONT_BOOST
    title_size = (layout.title.font.size or 17) + _TITLE_BOOST
    subtitle_size = (layout.title.subtitle.font.size or 13) + _FONT_BOOST
    title = re.sub(
        r"font-size:\s*(\d+)px",
        lambda match: f"font-size:{int(match.group(1)) + _FONT_BOOST}px",
        layout.title.text or "",
    )
    figure.update_layout(
        height=height,
        font=dict(size=size),
        # Plotly anchors a title of several lines by its first line: the lines above it are pushed down.
        title=dict(
            text=title,
            font=dict(size=title_size),
            y=1.0,
            yref="container",
            yanchor="top",
            pad=dict(t=6 + 22 * title.count("<br>")),
        ),
        legend=dict(font=dict(size=size - 2), orientation="v", x=1.01, xanchor="left", y=1.0, yanchor="top"),
        margin=dict(t=(layout.margin.t or 80) + _TITLE_BOOST + _FONT_BOOST + 10, b=60, r=20),
    )
    if layout.title.subtitle.text:
        figure.update_layout(title_subtitle_font=dict(size=subtitle_size))
    return figure


@contextmanager
def slide_frame(setting: Setting, line: str | None = None) -> Iterator[None]:
    """The frame of a slide: the presenter style (it hides the rest of the page) and the setting line
    (``line``, the page's own; by default the whole sidebar's)."""
    st.html(_STYLE)
    with st.container(key="presenter_view"):
        with st.container(key="presenter_setting"):
            st.markdown(line or setting_line(setting))
        yield


def _install_keys() -> None:
    """The clicker's keys press the Previous / Next buttons (``streamlit-shortcuts``)."""
    from streamlit_shortcuts import add_shortcuts

    with st.container(key="presenter_keys"):
        add_shortcuts(presenter_next=NEXT_KEYS, presenter_previous=PREVIOUS_KEYS)
    st.session_state[_KEYS_INSTALLED] = True


def release_keys() -> None:
    """Give the keys back to the page after presenter mode (once per session that installed them)."""
    if st.session_state.pop(_KEYS_INSTALLED, False):
        from streamlit_shortcuts import clear_shortcuts

        clear_shortcuts()


def deck_controls(
    position: str,
    *,
    on_previous: Callable[[], None],
    on_next: Callable[[], None],
    first: bool = False,
    last: bool = False,
    extra: Callable[[], None] | None = None,
) -> None:
    """The row under a slide: Previous, where we are, (``extra``, e.g. Draw again), Next, Leave; with the keys."""
    widths = [1, 1.3] + ([1] if extra is not None else []) + [1, 1.3]
    columns = st.columns(widths, vertical_alignment="center")
    columns[0].button(
        "Previous",
        key="presenter_previous",
        on_click=on_previous,
        icon=":material/arrow_back:",
        use_container_width=True,
        disabled=first,
        help="Also PageUp, ← or p.",
    )
    columns[1].markdown(position)
    if extra is not None:
        with columns[2]:
            extra()
    columns[-2].button(
        "Next",
        key="presenter_next",
        on_click=on_next,
        icon=":material/arrow_forward:",
        use_container_width=True,
        disabled=last,
        help="Also PageDown, →, Space or n.",
    )
    columns[-1].button(
        "Leave presenter mode",
        key="presenter_leave",
        on_click=_leave,
        icon=":material/close:",
        use_container_width=True,
    )
    _install_keys()


def _view_index(views: PageViews | None) -> int:
    if views is None:
        return 0
    label = st.session_state.get(views.key)
    return views.labels.index(label) if label in views.labels else 0


def _view_charts(charts: list[RecordedChart], views: PageViews | None, view: int) -> list[RecordedChart]:
    """The charts of the open view: charts above the tabs belong to the first view."""
    if views is None or view == 0:
        return charts
    return charts[views.charts_before :]


def _go(step: int, count: int, views: PageViews | None) -> None:
    """Move ``step`` slides through the page's deck: past a view's end into the next view; wraps around."""
    index = slide_index(count) + step
    if 0 <= index < count:
        st.query_params[SLIDE_KEY] = str(index + 1)
        return
    if views is None or len(views.labels) < 2:
        st.query_params[SLIDE_KEY] = str(index % max(count, 1) + 1)
        return
    view = (_view_index(views) + (1 if step > 0 else -1)) % len(views.labels)
    st.session_state[views.key] = views.labels[view]
    st.query_params[SLIDE_KEY] = "1" if step > 0 else "last"
    st.session_state[_SKIPS] = (step, st.session_state.get(_SKIPS, (step, 0))[1] + 1)


def _skip_empty_view(views: PageViews | None) -> bool:
    """A view without charts (a table to fill in) is no slide: the deck moves on in the direction it
    was going, as if Next (or Previous) were pressed again; at most once around the views.

    The tabs are drawn by now, so the next view is opened by the next run (:func:`open_pending_view`).
    """
    step, skips = st.session_state.get(_SKIPS, (1, 0))
    if views is None or len(views.labels) < 2 or skips >= len(views.labels):
        return False
    view = (_view_index(views) + (1 if step > 0 else -1)) % len(views.labels)
    st.session_state[_PENDING_VIEW] = (views.key, views.labels[view])
    st.query_params[SLIDE_KEY] = "1" if step > 0 else "last"
    st.session_state[_SKIPS] = (step, skips + 1)
    return True


def open_pending_view() -> None:
    """Open the view :func:`_skip_empty_view` chose (the sidebar calls this before a page draws its tabs)."""
    pending = st.session_state.pop(_PENDING_VIEW, None)
    if pending is not None:
        st.session_state[pending[0]] = pending[1]


def render_presenter(log: PageLog, setting: Setting, line: str | None = None) -> None:
    """Draw the presenter view of the charts in ``log`` (hides the rest of the page), under ``line``."""
    views = log.views
    view = _view_index(views)
    charts = _view_charts(list(log.charts), views, view)
    if not charts and _skip_empty_view(views):
        st.rerun()
    st.session_state.pop(_SKIPS, None)
    with slide_frame(setting, line):
        if not charts:
            st.info("This view has no charts to present. Leave presenter mode to see the page.")
            deck_controls("No chart", on_previous=lambda: _go(-1, 0, views), on_next=lambda: _go(1, 0, views))
            return
        count = len(charts)
        index = slide_index(count)
        if st.query_params.get(SLIDE_KEY) != str(index + 1):
            st.query_params[SLIDE_KEY] = str(index + 1)  # "last" or a number out of range, as the slide shown
        chart = charts[index]
        text, more = slide_text(chart)
        if text:
            with st.container(key="presenter_text"):
                st.markdown(text)
        if more:
            with st.expander("Why, and what it assumes", icon=":material/help:"):
                st.markdown(more.replace("\n", "\n\n"))
        st.plotly_chart(
            slide_figure(chart.figure, chart_height_for(text, other_pixels=46 if more else 0)),
            key="presenter_chart",
            theme=None,
            config={"displaylogo": False},
        )
        position = f"Chart {index + 1} of {count}"
        if views is not None and len(views.labels) > 1:
            position = f"{views.labels[view]} ({view + 1} of {len(views.labels)}) · {position}"
        # A deck of one slide (one chart, no other view) has nowhere to go: both buttons are disabled,
        # so a clicker's key does not "move" to the same slide.
        alone = count == 1 and (views is None or len(views.labels) < 2)
        deck_controls(
            position,
            on_previous=lambda: _go(-1, count, views),
            on_next=lambda: _go(1, count, views),
            first=alone,
            last=alone,
        )
