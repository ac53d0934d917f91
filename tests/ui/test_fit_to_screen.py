"""The phone layout of a chart (gaussmech_ui.page_kit.fit_to_screen): legend below in one column, nothing too wide."""

from __future__ import annotations

import re

import plotly.graph_objects as go

from gaussmech_ui.figures.common import apply_layout
from gaussmech_ui.page_kit import _PHONE_LINE, fit_to_screen, on_phone

LONG = "Boundary-inflated truncated GG(p), bounded data (on the truncated GG(p)'s curve)"


def _figure() -> go.Figure:
    figure = go.Figure([go.Scatter(x=[1, 2], y=[1, 2], name=LONG), go.Scatter(x=[1, 2], y=[2, 3], name="Laplace")])
    return apply_layout(
        figure,
        title="Privacy profiles: the smallest δ at every ε, for noise calibrated to one (ε, δ)"
        "<br><sup>ε = 1, δ = 1e-5, Δ = 1, d = 10, p = 2; Gaussian, Laplace and GG curves are exact</sup>",
        x_title="ε",
        y_title="δ(ε)",
        height=540,
    )


def _visible_lines(text: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", line) for line in re.split(r"<br>", text)]


def test_on_a_laptop_the_figure_is_untouched():
    figure = _figure()
    assert fit_to_screen(figure, phone=False) is figure
    assert on_phone() is False  # no browser session here


def test_on_a_phone_the_legend_is_one_column_below_and_long_text_wraps():
    figure = _figure()
    before = figure.to_dict()
    fitted = fit_to_screen(figure, phone=True)
    assert figure.to_dict() == before, "the page's figure (recorded for export) is not changed"
    legend = fitted.layout.legend
    assert legend.orientation == "h" and legend.entrywidthmode == "fraction" and legend.entrywidth == 1.0
    assert legend.yanchor == "top" and legend.y < 0, "below the plot area"
    assert all(len(line) <= _PHONE_LINE for line in _visible_lines(fitted.layout.title.text))
    long_name = fitted.data[0].name
    assert long_name.count("<br>") >= 1 and all(len(line) <= _PHONE_LINE + 6 for line in _visible_lines(long_name))
    assert fitted.layout.height > figure.layout.height, "taller by the legend's rows, so the plot keeps its height"
    assert fitted.layout.margin.l < figure.layout.margin.l and fitted.layout.font.size < figure.layout.font.size
