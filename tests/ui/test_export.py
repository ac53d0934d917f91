"""Slide-ready figure export: file names, the slide layout, and real SVG/PNG files from kaleido."""

from __future__ import annotations

import re
import struct

import plotly.graph_objects as go
import pytest

from gaussmech_core.registry_types import Setting
from gaussmech_ui import export

SETTING = Setting(epsilon=1.0, delta=1e-5, dim=10)


def _figure() -> go.Figure:
    figure = go.Figure(
        [
            go.Scatter(x=[1, 2, 3], y=[3, 2, 1], name="Analytic Gaussian", legendgroup="a"),
            go.Scatter(x=[1, 2, 3], y=[1, 2, 3], name="Laplace", legendgroup="b"),
            go.Scatter(x=[1, 2, 3], y=[2, 2, 2], name="Hidden variant", visible="legendonly"),
        ]
    )
    figure.update_layout(title="Noise against ε", height=500, legend=dict(title_text="click to show or hide"))
    return figure


def test_file_name_follows_the_chart_and_the_parameters():
    assert (
        export.figure_file_name("noise-vs-epsilon", SETTING, "svg")
        == "gaussmech-noise-vs-epsilon-eps1-delta1e-5-d10.svg"
    )
    other = Setting(epsilon=0.25, delta=1e-10, sensitivity=2.5, dim=3, l1_model="all_coordinates")
    assert (
        export.figure_file_name("Noise vs ε / δ!", other, "png")
        == "gaussmech-noise-vs-eps0.25-delta1e-10-d3-sens2.5-l1all.png"
    )


def test_slide_figure_keeps_the_original_and_puts_legend_and_setting_inside():
    figure = _figure()
    before = figure.to_dict()
    slide = export.slide_figure(figure, SETTING)
    assert figure.to_dict() == before
    assert slide.layout.width == export.SLIDE_WIDTH
    assert slide.layout.showlegend is True and slide.layout.legend.orientation == "h"
    assert [trace.name for trace in slide.data] == ["Analytic Gaussian", "Laplace"]  # hidden traces are not drawn
    assert slide.layout.title.text == "Noise against ε"
    assert export.setting_line(SETTING) in slide.layout.title.subtitle.text
    assert not slide.layout.legend.title.text
    # the bottom margin holds the axis title and every legend row
    assert slide.layout.margin.b >= 100 + 28 * 1


def _legend_rows(slide: go.Figure, columns: int) -> list[list[str]]:
    entries = sorted(
        (trace for trace in slide.data if trace.name and trace.showlegend is not False),
        key=lambda trace: trace.legendrank if trace.legendrank is not None else 1000,
    )
    names = [trace.name.strip() for trace in entries]
    return [names[start : start + columns] for start in range(0, len(names), columns)]


def test_a_slide_keeps_the_registry_legend_groups_each_title_on_its_own_row():
    """Issue 21, item 9: "Other families" and "Claimed only, not proven" survive the export, in their places."""
    from gaussmech_core.mechanisms import MECHANISMS
    from gaussmech_ui.figures.common import LEGEND_GROUPS, legend_group

    figure = go.Figure()
    for rank, key in enumerate(("analytic_gaussian", "classical_gaussian", "laplace", "truncated_gg", "r1smg")):
        group = legend_group(MECHANISMS[key])
        figure.add_scatter(
            x=[1, 2],
            y=[rank, rank],
            name=MECHANISMS[key].name,
            legendgroup=group,
            legendgrouptitle_text=LEGEND_GROUPS[group],
            legendrank=rank,
        )
    slide = export.slide_figure(figure, SETTING)
    columns = 2  # a name longer than 38 characters: two columns
    rows = [[name for name in row if name] for row in _legend_rows(slide, columns)]
    assert rows == [
        ["<b>Gaussian calibrations</b>"],
        ["Analytic Gaussian", "Classical Gaussian"],
        ["<b>Other families</b>"],
        ["Laplace", "Truncated GG(p), bounded data"],
        ["<b>Claimed only, not proven</b>"],
        ["Rank-1 singular multivariate Gaussian (claimed)"],
    ]
    assert all(trace.legendgroup is None and not trace.legendgrouptitle.text for trace in slide.data)


def test_unavailable_export_says_why(monkeypatch):
    monkeypatch.setenv("BROWSER_PATH", "/nonexistent/chromium")
    reason = export.export_unavailable_reason()
    assert reason and "BROWSER_PATH='/nonexistent/chromium'" in reason and "camera button" in reason
    with pytest.raises(RuntimeError, match="not available"):
        export.figure_image(_figure(), SETTING, "svg")


def test_bad_format_is_refused():
    with pytest.raises(ValueError, match="image_format must be one of svg, png, got image_format='eps'"):
        export.figure_image(_figure(), SETTING, "eps")


@pytest.fixture(scope="module")
def browser_available():
    reason = export.export_unavailable_reason()
    if reason:
        pytest.skip(reason)
    yield
    export.stop_export_browser()


def test_svg_is_valid_and_contains_title_legend_and_setting(browser_available):
    svg = export.figure_image(_figure(), SETTING, "svg").decode("utf-8")
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    texts = " ".join(re.findall(r">([^<>]+)</text>", svg)).replace("&nbsp;", " ")
    for expected in ("Analytic Gaussian", "Laplace", "Noise against ε", "ε = 1, δ = 1e-5"):
        assert expected in texts, expected
    assert "Hidden variant" not in texts


def test_png_is_valid_at_twice_the_size(browser_available):
    png = export.figure_image(_figure(), SETTING, "png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    slide = export.slide_figure(_figure(), SETTING)
    assert (width, height) == (2 * slide.layout.width, 2 * slide.layout.height)
