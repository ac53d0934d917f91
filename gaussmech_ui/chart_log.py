"""What the running page has shown: its charts (with caption and data file) and its messages.

The page-wide tools (figure export, the report, presenter mode) need every chart a page drew,
the caption under it and every warning it showed, at the current setting. Rather than make each
page list them a second time (and keep the lists in step with the pages), this module records
them as the page draws them: :func:`install` wraps Streamlit's ``plotly_chart``, ``caption``,
``info``, ``warning``, ``error``, ``latex`` and ``download_button`` with pass-through functions that call
the original and note what was drawn in the main area (not the sidebar) in a per-run log.

* A chart is recorded with its figure, key and ``alt`` text.
* The first ``st.info`` or ``st.warning`` after a chart (before the next chart) is its answer: the
  plain-language reading written for it (a slide's text). The first ``st.caption`` after a chart
  is its caption; the first CSV
  download after it names its data file, whose stem (``gaussmech-noise-vs-epsilon``) names the
  chart in exported file names.
* ``st.info``, ``st.warning``, ``st.error`` and ``st.latex`` texts are kept in order, for the report.
* The page's own inputs in use and its tables for the report, handed over by the page itself
  (:func:`note_inputs`, :func:`note_table`): what the setting line states besides the sidebar
  (:mod:`gaussmech_ui.page_facts`), and the tables that stand in a report for the registry's.
* The page's views: the first ``st.tabs`` with a key whose open tab is kept in state (bound to the
  URL, or rerunning on a change), with its labels and the number of charts drawn before it, so
  presenter mode can walk every chart of every view.

The wrappers change nothing on the page: they return what Streamlit returns, and a failure to
record is logged and ignored. The log lives in the session's state and is replaced when a new
script run starts (Streamlit gives each run a fresh cursor table), so it always describes the run
in progress. :func:`current_log` returns it; a page reads it at its end.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "RecordedChart",
    "PageViews",
    "PageLog",
    "install",
    "current_log",
    "note_inputs",
    "note_table",
    "RECORDED_METHODS",
]

_LOG = logging.getLogger(__name__)
_STATE_KEY = "_gaussmech_chart_log"
RECORDED_METHODS = ("plotly_chart", "caption", "info", "warning", "error", "download_button", "latex", "tabs")


@dataclass
class RecordedChart:
    """One chart as the page drew it."""

    figure: Any
    key: str | None = None
    alt: str = ""
    caption: str = ""
    answer: str = ""
    data_file: str | None = None

    @property
    def slug(self) -> str:
        """A short file-name stem: the CSV's stem without ``gaussmech-``, else the key, else ``chart``."""
        if self.data_file and self.data_file.lower().endswith(".csv"):
            stem = self.data_file.rsplit("/", 1)[-1][: -len(".csv")]
            return stem.removeprefix("gaussmech-") or "chart"
        if self.key:
            return self.key.removesuffix("_chart").replace("_", "-")
        return "chart"

    @property
    def title(self) -> str:
        """The figure's title without Plotly's HTML tags."""
        from .figures.common import plain_text

        try:
            return plain_text(self.figure.layout.title.text)
        except AttributeError:
            return ""


@dataclass(frozen=True)
class PageViews:
    """A page's views: the tabs' widget key, their labels, and how many charts came before them."""

    key: str
    labels: tuple[str, ...]
    charts_before: int


@dataclass
class PageLog:
    """Everything one script run has drawn so far, in order."""

    marker: Any = None
    charts: list[RecordedChart] = field(default_factory=list)
    messages: list[tuple[str, str]] = field(default_factory=list)
    views: PageViews | None = None
    deck_drawn: bool = False
    inputs: dict[str, Any] = field(default_factory=dict)
    tables: list[tuple[str, Any]] = field(default_factory=list)
    _caption_open: bool = False
    _answer_open: bool = False
    _data_open: bool = False

    def add_chart(self, chart: RecordedChart) -> None:
        self.charts.append(chart)
        self._caption_open = self._answer_open = self._data_open = True

    def add_message(self, kind: str, text: str) -> None:
        self.messages.append((kind, text))
        if kind in ("info", "warning") and self.charts and self._answer_open and text:
            self.charts[-1].answer = text
            self._answer_open = False

    def add_views(self, key: str | None, labels, stateful: bool) -> None:
        """Note the page's first stateful tabs (the views presenter mode walks through)."""
        if self.views is None and key is not None and stateful:
            self.views = PageViews(str(key), tuple(str(label) for label in labels), len(self.charts))

    def add_caption(self, text: str) -> None:
        if self.charts and self._caption_open:
            self.charts[-1].caption = text
            self._caption_open = False

    def add_download(self, file_name: str | None) -> None:
        if self.charts and self._data_open and file_name and file_name.lower().endswith(".csv"):
            self.charts[-1].data_file = file_name
            self._data_open = False

    def close(self) -> None:
        """Attach nothing more to the charts so far (the page tools draw captions of their own)."""
        self._caption_open = self._answer_open = self._data_open = False

    def warnings(self) -> list[str]:
        """The texts of every warning and error shown, in order, without repeats."""
        return list(dict.fromkeys(text for kind, text in self.messages if kind in ("warning", "error")))

    def notes(self) -> list[str]:
        """The texts of every ``st.info`` (the pages' plain-language summaries), without repeats."""
        return self._texts("info")

    def latex(self) -> list[str]:
        """The LaTeX source of every ``st.latex`` (the page's formulas), without repeats."""
        return self._texts("latex")

    def _texts(self, kind: str) -> list[str]:
        return list(dict.fromkeys(text for message_kind, text in self.messages if message_kind == kind))


def _run_context():
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx
    except ImportError:  # pragma: no cover - Streamlit is a dependency of the interface
        return None
    return get_script_run_ctx(suppress_warning=True)


def current_log() -> PageLog | None:
    """The log of the script run in progress (``None`` outside a Streamlit run)."""
    context = _run_context()
    if context is None:
        return None
    state = context.session_state
    marker = context.cursors  # ScriptRunContext.reset() makes a new dict for every run
    log = state[_STATE_KEY] if _STATE_KEY in state else None
    if log is None or log.marker is not marker:
        log = PageLog(marker=marker)
        state[_STATE_KEY] = log
    return log


def note_inputs(values: dict[str, Any]) -> None:
    """Hand over the page's own inputs in use this run, by URL key (the setting line states them)."""
    log = current_log()
    if log is not None:
        log.inputs.update(values)


def note_table(title: str, frame: Any) -> None:
    """Hand over a table of the page (a DataFrame, as shown) for its report, under ``title``."""
    log = current_log()
    if log is not None:
        log.tables.append((title, frame))


def _in_main_area(delta_generator) -> bool:
    """Whether an element drawn through ``delta_generator`` lands in the main area, not the sidebar."""
    try:
        from streamlit.proto.RootContainer_pb2 import RootContainer

        return delta_generator._active_dg._root_container == RootContainer.MAIN  # noqa: SLF001
    except Exception:  # internals moved: record everything rather than nothing
        return True


def _text(args, kwargs, name: str = "body") -> str:
    value = args[0] if args else kwargs.get(name, "")
    return str(value) if value is not None else ""


def _record(method: str, delta_generator, args, kwargs) -> None:
    log = current_log()
    if log is None or not _in_main_area(delta_generator):
        return
    if method == "plotly_chart":
        figure = args[0] if args else kwargs.get("figure_or_data")
        log.add_chart(RecordedChart(figure=figure, key=kwargs.get("key"), alt=str(kwargs.get("alt") or "")))
    elif method == "caption":
        log.add_caption(_text(args, kwargs))
    elif method == "download_button":
        log.add_download(kwargs.get("file_name") if "file_name" in kwargs else (args[2] if len(args) > 2 else None))
    elif method == "tabs":
        labels = args[0] if args else kwargs.get("tabs", ())
        stateful = kwargs.get("bind") is not None or kwargs.get("on_change", "ignore") != "ignore"
        log.add_views(kwargs.get("key"), labels, stateful)
    else:
        log.add_message(method, _text(args, kwargs))


def _wrapped(method: str, original):
    @functools.wraps(original)
    def recording(self, *args, **kwargs):
        result = original(self, *args, **kwargs)
        try:
            _record(method, self, args, kwargs)
        except Exception:  # recording must never break a page
            _LOG.exception("could not record st.%s", method)
        return result

    recording.__gaussmech_original__ = original
    return recording


def install() -> None:
    """Wrap Streamlit's drawing methods once per process (idempotent)."""
    import streamlit
    from streamlit.delta_generator import DeltaGenerator

    for method in RECORDED_METHODS:
        current = getattr(DeltaGenerator, method)
        if not hasattr(current, "__gaussmech_original__"):
            setattr(DeltaGenerator, method, _wrapped(method, current))
        # ``st.caption`` etc. are methods of the main DeltaGenerator bound at import: rebind them.
        main = getattr(streamlit, "_main", None)
        if main is not None:
            setattr(streamlit, method, getattr(main, method))
