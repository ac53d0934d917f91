"""The phone layout of a chart (gaussmech_ui.page_kit.fit_to_screen): legend below in one column, nothing too wide."""

from __future__ import annotations

import re

import plotly.graph_objects as go

from gaussmech_ui.figures.common import apply_layout
from gaussmech_ui.page_kit import _PANEL_TITLE_LINE, _PHONE_LINE, fit_to_screen, on_phone

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


def test_on_a_phone_side_by_side_panel_titles_wrap_to_their_share_of_the_width():
    """Two heat maps side by side (the denoising lab's error maps): each title gets half a line."""
    from plotly.subplots import make_subplots

    names = ("Released (analytic Gaussian, σ = 4.2): error", "Soft thresholding, then the simplex: error")
    figure = make_subplots(rows=1, cols=2, subplot_titles=names)
    figure.add_trace(go.Heatmap(z=[[1, 2], [3, 4]]), row=1, col=1)
    figure.add_trace(go.Heatmap(z=[[1, 2], [3, 4]]), row=1, col=2)
    figure.add_annotation(x=1, y=1, text="a note with an arrow, which is not a panel title at all", showarrow=True)
    apply_layout(figure, title="Error of each cell", x_title="column", y_title="row", height=500)
    fitted = fit_to_screen(figure, phone=True)
    titles = [annotation for annotation in fitted.layout.annotations if annotation.showarrow is False]
    assert [re.sub(r"<br>", " ", title.text) for title in titles] == list(names), "the words stay, in order"
    for title in titles:
        assert title.text.count("<br>") >= 1
        assert all(len(line) <= _PANEL_TITLE_LINE // 2 - 2 for line in _visible_lines(title.text)), title.text
    (note,) = [annotation for annotation in fitted.layout.annotations if annotation.showarrow is not False]
    assert "<br>" not in note.text, "only panel titles are wrapped"
    # The top margin makes room for the wrapped titles' extra lines.
    short = apply_layout(
        make_subplots(rows=1, cols=2, subplot_titles=("A", "B")),
        title="Error of each cell",
        x_title="column",
        y_title="row",
        height=500,
    )
    assert fitted.layout.margin.t > fit_to_screen(short, phone=True).layout.margin.t
    # Panels stacked one per row keep their titles on one line (a second would run into the panel above).
    stacked = make_subplots(rows=2, cols=1, subplot_titles=names)
    stacked.add_trace(go.Scatter(x=[1, 2], y=[1, 2]), row=1, col=1)
    stacked.add_trace(go.Scatter(x=[1, 2], y=[1, 2]), row=2, col=1)
    assert [title.text for title in fit_to_screen(stacked, phone=True).layout.annotations] == list(names)
