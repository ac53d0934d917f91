"""The layout helpers of issue 22 (items 8 and 9): charts that follow the window's height, tables as cards."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from gaussmech_ui.page_kit import MIN_WINDOW_CHART_HEIGHT, card_rows_html, fit_to_window, window_height_style


def _figure_with_legend_below() -> go.Figure:
    figure = go.Figure([go.Scatter(x=[1, 2], y=[1, 2], name="Analytic Gaussian")])
    figure.update_layout(title="Noise against ε", height=640, legend=dict(orientation="h", y=-0.16), margin=dict(b=40))
    return figure


def test_the_window_rule_caps_the_chart_at_its_own_height_and_keeps_a_readable_minimum():
    style = window_height_style("window_fit_chart", 640, 250)
    assert f"max({MIN_WINDOW_CHART_HEIGHT}px, calc(100vh - " in style and "min(640px, " in style
    assert "@media (min-width: 641px)" in style, "a phone keeps the chart's own height"
    assert ".st-key-window_fit_chart" in style


def test_a_window_fitted_chart_gets_its_legend_beside_the_plot_and_the_original_is_kept():
    figure = _figure_with_legend_below()
    before = figure.to_dict()
    fitted = fit_to_window(figure)
    assert figure.to_dict() == before, "the original (exports, presenter) is unchanged"
    shown = go.Figure(fitted.to_dict())  # what st.plotly_chart sends, read back by Plotly's validation
    assert shown.layout.legend.orientation == "v" and shown.layout.legend.x > 1
    assert shown.layout.margin.b >= 60, "room for the x axis title the legend used to sit under"
    assert shown.layout.title.yref == "container" and shown.layout.title.yanchor == "top"
    assert shown.data[0].name == "Analytic Gaussian" and list(shown.data[0].y) == [1, 2]
    assert fitted.layout.height == 640, "show_chart sizes its frame by the fitted figure's height"


def test_a_legend_already_beside_the_plot_stays_there():
    figure = go.Figure([go.Scatter(x=[1], y=[1], name="a")])
    figure.update_layout(legend=dict(orientation="v", x=1.02))
    assert fit_to_window(figure).layout.legend.x == 1.02


def test_cards_hold_every_column_of_every_row_escaped_and_numbers_for_people():
    frame = pd.DataFrame(
        {"Mechanism": ["Laplace", "<b>R1SMG</b>"], "Scale": [1.23456, 0.5], "Holds here?": ["✓ yes", "✗ no"]}
    )
    html = card_rows_html(frame, "overview")
    assert html.count('class="gm-card"') == 2
    assert "<dt>Scale</dt><dd>1.23</dd>" in html and "<dt>Holds here?</dt><dd>✗ no</dd>" in html
    assert "&lt;b&gt;R1SMG&lt;/b&gt;" in html and "<b>R1SMG</b>" not in html
