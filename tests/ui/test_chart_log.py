"""The chart log records what a page draws in its main area, per run, without changing the page."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

SCRIPT = """
import plotly.graph_objects as go
import streamlit as st

from gaussmech_ui import chart_log

chart_log.install()
chart_log.install()  # idempotent
with st.sidebar:
    st.caption("sidebar caption")
    st.warning("sidebar warning")
count = st.session_state.get("count", 1)
st.info("summary sentence")
for index in range(count):
    figure = go.Figure(go.Scatter(x=[1, 2], y=[index, 1], name=f"trace {index}"))
    figure.update_layout(title=f"Chart <b>{index}</b>")
    st.plotly_chart(figure, key=f"demo_{index}_chart", alt=f"alt {index}")
    st.caption(f"caption {index}")
    st.caption("a second caption is not the chart's")
    st.download_button("CSV", data=b"x", file_name=f"gaussmech-demo-{index}.csv", key=f"dl_{index}")
st.warning("main warning")
st.error("main error")
st.warning("main warning")
st.latex(r"\\sigma")
log = chart_log.current_log()
st.session_state["snapshot"] = {
    "charts": [(c.key, c.alt, c.caption, c.data_file, c.slug, c.title) for c in log.charts],
    "warnings": log.warnings(), "notes": log.notes(), "latex": log.latex(),
}
"""


def test_the_log_holds_charts_captions_files_and_messages_of_the_main_area():
    at = AppTest.from_string(SCRIPT, default_timeout=30).run()
    assert not at.exception, at.exception
    snapshot = at.session_state["snapshot"]
    assert snapshot["charts"] == [("demo_0_chart", "alt 0", "caption 0", "gaussmech-demo-0.csv", "demo-0", "Chart 0")]
    assert snapshot["warnings"] == ["main warning", "main error"]  # the sidebar's are not the page's; no repeats
    assert snapshot["notes"] == ["summary sentence"]
    assert snapshot["latex"] == [r"\sigma"]
    # the page itself is unchanged: the wrapped calls drew their elements
    assert [c.value for c in at.main.get("caption")][:2] == ["caption 0", "a second caption is not the chart's"]
    assert len(at.get("plotly_chart")) == 1


def test_each_run_starts_a_new_log():
    at = AppTest.from_string(SCRIPT, default_timeout=30).run()
    at.session_state["count"] = 2
    at.run()
    charts = at.session_state["snapshot"]["charts"]
    assert [c[0] for c in charts] == ["demo_0_chart", "demo_1_chart"]
    at.session_state["count"] = 1
    at.run()
    assert [c[0] for c in at.session_state["snapshot"]["charts"]] == ["demo_0_chart"]


def test_outside_a_streamlit_run_there_is_no_log():
    from gaussmech_ui import chart_log

    assert chart_log.current_log() is None
    assert chart_log.RecordedChart(figure=None, key="overview_std_chart").slug == "overview-std"
