"""The HTML report: self-contained, both versions from one template, every warning included."""

from __future__ import annotations

import datetime
import re

import plotly.graph_objects as go
import pytest

from gaussmech_core.registry_types import Setting
from gaussmech_ui import report

SETTING = Setting(epsilon=1.0, delta=1e-5, dim=10)
NOW = datetime.datetime(2026, 12, 1, 12, 0, tzinfo=datetime.timezone.utc)


def _content(**changes) -> report.ReportContent:
    charts = [
        report.ReportChart(
            go.Figure(go.Scatter(x=[1, 2], y=[1, 2], name="Analytic Gaussian")), "First chart", "First <caption>"
        ),
        report.ReportChart(go.Figure(go.Bar(x=["a"], y=[1], name="Laplace")), "Second chart", "Second caption"),
    ]
    values = dict(
        page_label="Overview",
        setting=SETTING,
        charts=charts,
        page_warnings=["A page warning"],
        page_notes=["The page's summary."],
        latex=[r"\sigma = \frac{\Delta}{\varepsilon}"],
        link="http://x/?epsilon=1",
    )
    values.update(changes)
    return report.ReportContent(**values)


def test_the_report_is_self_contained():
    html = report.build_report(_content(), "full", now=NOW)
    assert html.startswith("<!doctype html>")
    assert "Plotly" in html and len(html) > 1_000_000  # plotly.js embedded
    assert not re.search(r"<script[^>]+src=", html), "no script is fetched from the network"
    assert "cdn.plot.ly" not in html.split("</script>", 1)[1]


def test_brief_has_one_chart_full_has_all_with_math_and_sources():
    brief = report.build_report(_content(), "brief", now=NOW)
    full = report.build_report(_content(), "full", now=NOW)
    assert brief.count("<figure class='chart'>") == 1 and full.count("<figure class='chart'>") == 2
    assert "Formulas" not in brief and "Formulas" in full
    # The page's LaTeX is typeset offline as MathML, never shown as source.
    assert r"\frac" not in full and "<mfrac>" in full and 'display="block"' in full
    assert "Balle &amp; Wang 2018, Theorem 8" in full
    assert "The page's summary." in full and "The page's summary." not in brief
    for html in (brief, full):
        assert "ε = 1, δ = 1e-5, Δ₂ = 1, d = 10" in html
        assert "P[S | Alice in] ≤ e^ε·P[S | Alice out] + δ" in html and "δ = 1e-5" in html
        assert "except with probability" not in html  # the (ε, δ)-DP promise, not the probabilistic-DP reading
        assert "First &lt;caption&gt;" in html  # captions are escaped
        assert "@media print" in html and "break-inside: avoid" in html
        assert "2026-12-01 12:00 UTC" in html


def test_the_brief_opens_with_the_answer_and_no_markdown_link_or_path_survives():
    chart = report.ReportChart(
        go.Figure(go.Scatter(x=[1, 2], y=[1, 2])),
        "Chart",
        "Hover for exact values.",
        "The analytic Gaussian wins.\nWhy: …",
    )
    note = (
        "See [docs/math.md section 2.3](docs/math.md#23) and [the paper](https://arxiv.org/abs/1805.06530); $\\sigma$."
    )
    html = report.build_report(_content(charts=[chart], page_notes=[note], page_warnings=[note]), "brief", now=NOW)
    body = html.split("<body>", 1)[1]
    assert re.search(r"<p class='answer'><strong>The answer.</strong> The analytic Gaussian wins.</p>", body)
    assert body.index("The answer.") < body.index("DP promises that on any yes/no decision")
    assert "Hover for exact values" not in body  # the brief leaves the usage caption out
    full = report.build_report(_content(charts=[chart], page_notes=[note]), "full", now=NOW).split("<body>", 1)[1]
    for text in (body, full):
        assert "](" not in text and "docs/math.md" not in text and "$" not in text
        assert "gaussmech's math reference section 2.3" in text  # a relative link keeps its words
        assert "<a href='https://arxiv.org/abs/1805.06530'>the paper</a>" in text
        assert "<mi>σ</mi>" in text or "<mi>&#x003C3;</mi>" in text


def test_every_warning_is_in_the_report():
    html = report.build_report(_content(), "brief", now=NOW)
    assert "A page warning" in html
    assert "Classical Gaussian: Not a theorem here" in html  # outside its theorem at ε = 1
    assert re.search(r"claims \(ε, δ\) = \(1, 1e-5\), but the computed true δ of its noise at this ε is 0\.181", html)


def test_the_table_greys_out_invalid_rows_and_states_scales():
    full = report.build_report(_content(), "full", now=NOW)
    assert "<tr class=\"invalid\"><th scope='row'>Classical Gaussian</th>" in full
    assert "σ = 3.73" in full


def test_unknown_version_is_refused():
    with pytest.raises(ValueError, match="version must be one of brief, full"):
        report.build_report(_content(), "slides")


def test_file_name():
    assert (
        report.report_file_name("overview", SETTING, "brief")
        == "gaussmech-report-overview-eps1-delta1e-5-d10-brief.html"
    )
