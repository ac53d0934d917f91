"""Every line colour has at least 3:1 contrast against the white background (WCAG 2.1, 1.4.11)."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_ui.figures.common import DELTA_COLORS, MARKER_SYMBOLS, apply_layout, contrast_ratio


@pytest.mark.parametrize("mechanism_id", list(MECHANISMS))
def test_every_mechanism_colour_has_3_to_1_contrast_against_white(mechanism_id):
    color = MECHANISMS[mechanism_id].color
    assert contrast_ratio(color) >= 3.0, f"{mechanism_id}: {color} is {contrast_ratio(color):.2f}:1"


@pytest.mark.parametrize("color", DELTA_COLORS)
def test_every_delta_curve_colour_has_3_to_1_contrast(color):
    assert contrast_ratio(color) >= 3.0, f"{color} is {contrast_ratio(color):.2f}:1"


def test_the_ratio_matches_wcag_reference_values():
    assert contrast_ratio("#FFFFFF") == pytest.approx(1.0)
    assert contrast_ratio("#000000") == pytest.approx(21.0)
    assert contrast_ratio("#777777") == pytest.approx(4.48, abs=0.01)  # WCAG's classic example


def test_mechanisms_are_told_apart_without_colour():
    assert len(MECHANISMS) <= len(MARKER_SYMBOLS), "each mechanism has its own marker symbol"


def test_the_setting_line_of_a_chart_title_is_readable():
    figure = apply_layout(
        go.Figure(), title="Noise<br><sup>ε = 1, δ = 1e-5, Δ = 1, d = 10</sup>", x_title="x", y_title="y"
    )
    text = figure.layout.title.text
    assert "<sup>" not in text and "font-size:15px" in text
    assert figure.layout.font.color == "#111111", "the setting line is drawn in the text colour, not grey"
