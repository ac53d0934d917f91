"""The tools at the end of every page: share the view, export its figures, write a report, reproduce.

A page imports this module at its top (which starts recording what it draws, see
:mod:`gaussmech_ui.chart_log`) and calls, as its last line::

    render_page_tools(setting, "pages/3_Privacy_profiles.py")

That draws, under a divider, five tools (one shown at a time):

* **Link**: the URL of exactly this view, in a box with a copy button, and what it holds;
* **Figures**: every chart of the page as SVG or PNG (2×) for slides (:mod:`gaussmech_ui.export`);
* **Report**: the brief and the full HTML report (:mod:`gaussmech_ui.report`);
* **Settings file**: download this view as JSON, or load one (:mod:`gaussmech_ui.share`);
* **Python**: the script that reproduces the page's numbers (:mod:`gaussmech_ui.reproduce`);

plus the presenter-mode toggle (:mod:`gaussmech_ui.presenter`). The print style sheet that
leaves the sidebar and the tools out of a printed page is part of every page's style
(:data:`gaussmech_ui.page_kit.PAGE_STYLE`).
"""

from __future__ import annotations

from urllib.parse import quote

import streamlit as st

from gaussmech_core.registry_types import Setting

from . import chart_log, menu, page_facts, params, presenter, report, reproduce, share
from .chart_log import PageLog
from .downloads import download_csv, download_file
from .export import IMAGE_FORMATS, export_unavailable_reason, figure_file_name, figure_image
from .format import escape_markdown
from .params import quote_untrusted

__all__ = ["render_page_tools", "current_query", "base_url"]

chart_log.install()

ATTACK_PRIOR_KEY = "attack_prior"  # the prior of the attack-risk section (key prefix "attack")
TABS = ("Link", "Figures", "Report", "Settings file", "Python")
_UPLOAD_COUNTER = "_page_tools_upload_counter"
_PENDING_LOAD = "_page_tools_pending_load"
_LOAD_MESSAGES = "_page_tools_load_messages"


def current_query() -> dict[str, str]:
    """Every value the URL holds now (shared parameters and the page's own), as text."""
    return {key: st.query_params.get(key) for key in st.query_params}


def base_url(page_path: str) -> str:
    """The browser's address of this page without its query (``st.context.url``; a local guess in tests)."""
    url = None
    try:
        url = st.context.url
    except Exception:  # older Streamlit or no browser session
        url = None
    if url:
        return url
    entry = menu.entry_for(page_path)
    return "http://localhost:8501/" + ("" if entry is None else quote(entry.url_path))


def _page_label(page_path: str) -> str:
    entry = menu.entry_for(page_path)
    return entry.label if entry else "gaussmech"


def _page_slug(page_path: str) -> str:
    return "-".join(_page_label(page_path).lower().split())


def render_page_tools(setting: Setting, page_path: str) -> None:
    """Draw the page tools (or, with ``present=1`` in the URL, the presenter view)."""
    log = chart_log.current_log() or PageLog()
    log.close()
    charts = list(log.charts)
    context = reproduce.recall(page_path)  # every run, so no page's context outlives its run
    _apply_pending_load()
    facts = page_facts.facts_for(page_path)  # what the page uses: its setting line states that, no more
    line = facts.line(setting, log.inputs)
    if presenter.is_presenting():
        if not log.deck_drawn:  # the Class tour draws its own deck
            presenter.render_presenter(log, setting, line)
        return
    presenter.release_keys()
    with st.container(key="page_tools"):
        st.divider()
        st.subheader("Share, export, reproduce")
        st.toggle(
            "Presenter mode: one chart per screen, large type",
            value=False,
            key="page_tools_present",
            on_change=_start_presenting,
            help="Also as present=1 in the URL, so the link you share opens in presenter mode.",
        )
        # One tool at a time (a segmented control, so only the chosen tool runs: no export and no
        # report is made until asked for).
        tool = st.segmented_control(
            "Tool",
            options=TABS,
            default=TABS[0],
            key="page_tools_tab",
            label_visibility="collapsed",
        )
        query = current_query()
        if tool == "Link" or tool is None:
            _render_link(page_path, query, facts)
        elif tool == "Figures":
            _render_figures(charts, setting, facts, line)
        elif tool == "Report":
            _render_reports(page_path, setting, log, charts, query, facts)
        elif tool == "Settings file":
            _render_settings_file(page_path, query)
        elif tool == "Python":
            _render_python(page_path, setting, context, line)


def _start_presenting() -> None:
    if st.session_state.get("page_tools_present"):
        st.query_params[presenter.PRESENT_KEY] = "1"
        st.query_params[presenter.SLIDE_KEY] = "1"
        st.session_state["page_tools_present"] = False


def _render_link(page_path: str, query: dict[str, str], facts: page_facts.PageFacts) -> None:
    url = share.view_url(base_url(page_path), query)
    lines = share.describe_query(query, facts)
    # Page values come from the URL as typed: shown as text, never as markup. One paragraph above
    # the box, not one on each side: every element is part of every rerun's cost.
    holds = (" It holds: " + "; ".join(escape_markdown(line) for line in lines) + ".") if lines else ""
    st.markdown(f"The box below is the link to exactly this view, with a copy button at its right.{holds}")
    st.code(url, language=None, wrap_lines=True)


def _image_maker(chart, setting: Setting, image_format: str, line: str):
    def make() -> bytes:
        return figure_image(chart.figure, setting, image_format, line)

    return make


def _render_figures(charts, setting: Setting, facts: page_facts.PageFacts, line: str) -> None:
    if not charts:
        st.markdown("This page has drawn no charts at this setting.")
        return
    reason = export_unavailable_reason()
    if reason:
        st.info(reason, icon=":material/info:")
    labels = [chart.title or chart.slug for chart in charts]
    index = st.selectbox(
        "Chart",
        options=range(len(charts)),
        format_func=lambda i: labels[i],
        key="page_tools_chart",
        help="The image has the title, the legend and the setting line inside, for a slide.",
    )
    chart = charts[min(int(index), len(charts) - 1)]
    columns = st.columns(len(IMAGE_FORMATS))
    for column, (image_format, mime) in zip(columns, IMAGE_FORMATS.items()):
        download_file(
            f"{image_format.upper()}" + (" (2×)" if image_format == "png" else ""),
            data=_image_maker(chart, setting, image_format, line),
            file_name=figure_file_name(chart.slug, setting, image_format, facts.setting_fields),
            mime=mime,
            container=column,
            key=f"page_tools_{image_format}",
            on_click="ignore",
            icon=":material/image:",
            disabled=reason is not None,
            use_container_width=True,
        )
    st.caption(
        f"File name: {figure_file_name(chart.slug, setting, 'svg', facts.setting_fields)} (or .png). Made on the server by Plotly's own export."
    )


def _report_maker(content: report.ReportContent, version: str):
    def make() -> bytes:
        return report.build_report(content, version).encode("utf-8")

    return make


def _render_reports(page_path: str, setting: Setting, log: PageLog, charts, query, facts: page_facts.PageFacts) -> None:
    content = report.ReportContent(
        page_label=_page_label(page_path),
        setting=setting,
        charts=[report.ReportChart(chart.figure, chart.title, chart.caption, chart.answer) for chart in charts],
        page_warnings=log.warnings(),
        page_notes=log.notes(),
        latex=log.latex(),
        link=share.view_url(base_url(page_path), query),
        facts=facts,
        inputs=dict(log.inputs),
        tables=list(log.tables),
    )
    table = "calibration table" if facts.uses_mechanisms else "page's tables"
    st.markdown(
        f"One self-contained HTML file (it works offline and prints cleanly to A4 or Letter): the setting, the "
        f"{table}, this page's charts with their captions, and every warning at this setting."
    )
    columns = st.columns(len(report.VERSIONS))
    for column, (version, label) in zip(columns, report.VERSIONS.items()):
        download_file(
            label,
            data=_report_maker(content, version),
            file_name=report.report_file_name(_page_slug(page_path), setting, version, facts),
            mime="text/html",
            container=column,
            key=f"page_tools_report_{version}",
            on_click="ignore",
            icon=":material/description:",
            use_container_width=True,
        )


def _render_settings_file(page_path: str, query: dict[str, str]) -> None:
    download_file(
        "Download this view's settings (JSON)",
        data=share.settings_bytes(page_path, query, page_label=_page_label(page_path)),
        file_name=f"gaussmech-settings-{_page_slug(page_path)}.json",
        mime="application/json",
        key="page_tools_settings_download",
        on_click="ignore",
        icon=":material/download:",
    )
    counter = st.session_state.get(_UPLOAD_COUNTER, 0)
    st.file_uploader(
        "Load a settings file",
        type=["json"],
        key=f"page_tools_settings_upload_{counter}",
        on_change=_read_upload,
        args=(f"page_tools_settings_upload_{counter}",),
        help="Opens the page and values the file holds; every value is checked as if it came in a link.",
    )
    for kind, message in st.session_state.pop(_LOAD_MESSAGES, []):
        (st.error if kind == "error" else st.warning)(message)


def _read_upload(key: str) -> None:
    uploaded = st.session_state.get(key)
    st.session_state[_UPLOAD_COUNTER] = st.session_state.get(_UPLOAD_COUNTER, 0) + 1  # empties the uploader
    if uploaded is None:
        return
    try:
        loaded = share.read_settings_file(uploaded.getvalue())
    except share.SettingsFileError as problem:
        st.session_state[_LOAD_MESSAGES] = [("error", f"Could not load {quote_untrusted(uploaded.name)}: {problem}.")]
        return
    st.session_state[_PENDING_LOAD] = loaded


def _apply_pending_load() -> None:
    """Open the loaded file's page; its bad values are warned about at the top of that page, one message each.

    The warnings go where a link's bad values go (the sidebar's pending warnings, shown above the
    page), not into the settings tool, which the opened page does not show.
    """
    loaded = st.session_state.pop(_PENDING_LOAD, None)
    if loaded is not None:
        count = len(loaded.warnings)
        summary = "Loaded the settings file" + (
            f"; {count} value{'s' if count != 1 else ''} could not be used (see the warnings above the page)."
            if count
            else "."
        )
        params.add_pending_warnings(loaded.warnings)
        st.toast(summary, icon=":material/warning:" if count else ":material/check:")
        st.switch_page(loaded.page_path, query_params=loaded.query)


def _render_python(page_path: str, setting: Setting, context: dict | None, line: str) -> None:
    prior = st.session_state.get(ATTACK_PRIOR_KEY, 0.5)
    file_name = f"gaussmech-{_page_slug(page_path)}.py"
    code = reproduce.snippet(
        page_path,
        setting,
        prior=float(prior) if isinstance(prior, (int, float)) else 0.5,
        values=current_query(),
        context=context,
        file_name=file_name,
        line=line,
    )
    st.markdown("A short script that computes this page's key numbers with `gaussmech_core` at this setting:")
    st.code(code, language="python")
    download_file(
        "Download the script",
        data=code.encode("utf-8"),
        file_name=file_name,
        mime="text/x-python",
        key="page_tools_python_download",
        on_click="ignore",
        icon=":material/code:",
    )
    data = reproduce.context_frame(context)
    if data is not None:
        download_csv("Download its data (CSV)", data, reproduce.COUNTS_FILE, key="page_tools_python_data")
