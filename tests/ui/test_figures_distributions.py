"""The Noise distributions builders on synthetic numbers: charts, captions and CSV (no core, no Streamlit)."""

from __future__ import annotations

import doctest
from types import SimpleNamespace

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

import gaussmech_ui.figures.distributions as distributions_module
from gaussmech_core.registry_types import GUARANTEE_LABELS, Setting
from gaussmech_ui.figures.common import DASH_BY_GUARANTEE, figure_frame
from gaussmech_ui.figures.distributions import (
    density_caption,
    density_figure,
    gg_family_caption,
    gg_family_figure,
    sample_caption,
    sample_histogram_figure,
    scatter_frame,
    trace_name,
    vector_caption,
    vector_scatter_figure,
)

SETTING = Setting(epsilon=1.0, delta=1e-5, dim=10, order=3.0)


def _mechanism(name, guarantee, color, short_name=None, source="Somebody 2020"):
    return SimpleNamespace(
        name=name,
        short_name=short_name or name,
        guarantee=guarantee,
        guarantee_label=GUARANTEE_LABELS[guarantee],
        color=color,
        source=source,
        featured=True,
    )


MECHANISMS = {
    "analytic_gaussian": _mechanism("Analytic Gaussian", "approximate", "#0072B2"),
    "laplace": _mechanism("Laplace", "pure", "#E69F00"),
    "r1smg": _mechanism(
        "Rank-1 Gaussian (claimed)",
        "claimed",
        "#CC6677",
        short_name="R1SMG",
        source="Ji & Li 2024 (USENIX Security), as published",
    ),
}


def _curves():
    x = np.linspace(-10, 10, 8)
    return pd.DataFrame(
        {
            "x": x,
            "analytic_gaussian": np.exp(-(x**2) / 8) / 5,
            "laplace": np.exp(-np.abs(x)) / 2,
            "r1smg": np.where(np.abs(x) < 5, 0.1, 0.0),
        }
    )


def _in_legend_order(figure):
    """Traces as the legend lists them (curves are drawn last-to-first, ranked for the legend)."""
    return sorted(figure.data, key=lambda trace: trace.legendrank if trace.legendrank is not None else 1000)


def test_doctests_pass():
    import gaussmech_ui.cached.distributions as cached_module

    assert doctest.testmod(distributions_module).failed == 0
    assert doctest.testmod(cached_module).failed == 0


def test_trace_name_says_claimed_and_whose_claim():
    assert trace_name(MECHANISMS["r1smg"]) == "R1SMG, claimed (Ji & Li 2024)"
    assert trace_name(MECHANISMS["laplace"]) == "Laplace"


@pytest.mark.parametrize("log_density", [False, True])
def test_density_figure_has_one_trace_per_mechanism_in_its_colour(log_density):
    figure = density_figure(_curves(), MECHANISMS, SETTING, log_density=log_density)
    traces = _in_legend_order(figure)
    assert [trace.name for trace in traces] == ["Analytic Gaussian", "Laplace", "R1SMG, claimed (Ji & Li 2024)"]
    assert [trace.line.color for trace in traces] == ["#0072B2", "#E69F00", "#CC6677"]
    assert figure.data[-1].name == "Analytic Gaussian", "the reference is drawn on top"
    assert traces[2].line.dash == DASH_BY_GUARANTEE["claimed"]
    assert figure.layout.yaxis.type == ("log" if log_density else "linear")
    assert "ε = 1, δ = 1e-5" in figure.layout.title.text
    r1smg = np.asarray(traces[2].y, dtype=float)
    if log_density:
        assert np.isnan(r1smg[np.abs(_curves()["x"]) >= 5]).all(), "zeros are left out of a log axis"
    else:
        assert (r1smg >= 0).all() and not np.isnan(r1smg).any()
    frame = figure_frame(figure)
    assert len(frame) == 3 * 8 and set(frame["series"]) == {trace.name for trace in figure.data}


def test_density_caption_names_the_narrowest_and_widest_and_what_is_missing():
    caption = density_caption({"analytic_gaussian": 3.73, "laplace": 1.41, "r1smg": 2.2}, MECHANISMS, {})
    assert "the Laplace mechanism has the narrowest noise (std 1.41" in caption
    assert "the analytic Gaussian the widest (std 3.73, 2.65×)" in caption
    assert "R1SMG, claimed (Ji & Li 2024) is drawn at the scale its authors claim" in caption
    mechanisms = {**MECHANISMS, "classical": _mechanism("Classical Gaussian", "approximate", "#D55E00")}
    caption = density_caption({"analytic_gaussian": 3.73}, mechanisms, {"classical": "Not a theorem here."})
    assert "Not drawn: Classical Gaussian (Not a theorem here)." in caption


def test_gg_family_figure_draws_the_three_orders_and_skips_missing_ones():
    x = np.linspace(-3, 3, 5)
    curves = pd.DataFrame({"x": x, "gg": x**0, "laplace": 2 * x**0, "gaussian": 3 * x**0})
    styles = {
        key: dict(name=key.upper(), color=color)
        for key, color in (("gg", "#009E73"), ("laplace", "#E69F00"), ("gaussian", "#0072B2"))
    }
    figure = gg_family_figure(curves, styles, SETTING, mode="equal_variance")
    assert [trace.name for trace in figure.data] == ["GG", "LAPLACE", "GAUSSIAN"]
    assert [trace.line.dash for trace in figure.data] == ["solid", "dash", "dot"]
    assert "p = 3" in figure.layout.title.text and "same variance" in figure.layout.title.text
    figure = gg_family_figure(curves.drop(columns="gg"), styles, SETTING, mode="calibrated")
    assert [trace.name for trace in figure.data] == ["LAPLACE", "GAUSSIAN"]
    assert "calibrated scale" in figure.layout.title.text


def test_gg_family_caption_gives_liu_s_ratio_at_equal_variance():
    caption = gg_family_caption("equal_variance", 3.0, {"gg": 0.33, "laplace": 0.707107, "gaussian": 0.398942}, {})
    assert "0.707 for Laplace, 0.399 for the Gaussian and 0.33 for GG(p = 3)" in caption
    assert "1.77× as much mass at the mean" in caption
    caption = gg_family_caption("calibrated", 3.0, {}, {"GG(p = 3)": 5.0, "Laplace": 1.41, "Gaussian": float("nan")})
    assert "GG(p = 3) std 5" in caption and "Laplace std 1.41" in caption and "Gaussian std" not in caption


def test_sample_histogram_overlays_bars_and_the_exact_density():
    edges = np.linspace(-2, 2, 5)
    histogram = pd.DataFrame(
        {"left": edges[:-1], "right": edges[1:], "count": [1, 4, 4, 1], "density": [0.1, 0.4, 0.4, 0.1]}
    )
    curve = pd.DataFrame({"x": np.linspace(-2, 2, 9), "density": np.linspace(0, 1, 9)})
    figure = sample_histogram_figure(histogram, curve, MECHANISMS["laplace"], SETTING, size=10_000, seed=7)
    bars, line = figure.data
    assert isinstance(bars, go.Bar) and isinstance(line, go.Scatter)
    np.testing.assert_allclose(bars.x, [-1.5, -0.5, 0.5, 1.5])
    np.testing.assert_allclose(bars.width, [1.0] * 4)
    assert bars.name == "10,000 draws (seed 7)" and bars.marker.color == "#E69F00"
    assert line.name == "exact density: Laplace"
    assert "10,000 draws of Laplace noise" in figure.layout.title.text and "seed 7" in figure.layout.title.text


def test_sample_caption_reports_spread_and_draws_outside_the_window():
    text = sample_caption({"sample_std": 3.7412, "exact_std": 3.7306, "outside": 25}, MECHANISMS["laplace"], 10_000)
    assert "standard deviation 3.74; the exact value is 3.73" in text
    assert "25 draws (0.25%) fall outside" in text and "Draw again" in text
    assert "ragged" in sample_caption({"sample_std": 1.0, "exact_std": 1.0, "outside": 0}, MECHANISMS["laplace"], 100)


@pytest.mark.parametrize("dimension", [2, 3])
def test_vector_scatter_draws_both_noises_and_the_true_value(dimension):
    rng = np.random.default_rng(0)
    points = {"gaussian": rng.normal(size=(50, dimension)), "r1smg": np.outer(rng.normal(size=50), np.ones(dimension))}
    styles = {"gaussian": dict(name="Gaussian", color="#0072B2"), "r1smg": dict(name="R1SMG", color="#CC6677")}
    figure = vector_scatter_figure(
        points, styles, expected_loss=3.0, setting=SETTING, subtitle="50 releases each, seed 1"
    )
    kinds = [type(trace).__name__ for trace in figure.data]
    if dimension == 2:
        assert kinds == ["Scattergl", "Scattergl", "Scatter"]
        assert figure.layout.yaxis.scaleanchor == "x"
        limit = figure.layout.xaxis.range[1]
    else:
        assert kinds == ["Scatter3d", "Scatter3d", "Scatter3d"]
        limit = figure.layout.scene.xaxis.range[1]
    assert limit >= max(np.abs(p).max() for p in points.values())
    assert figure.data[-1].name == "true value f(x)"
    assert figure.layout.title.text.startswith(f"{dimension}-D noise around the true value")
    assert "equal E‖noise‖² = 3; 50 releases each, seed 1" in figure.layout.title.text
    frame = scatter_frame(figure)
    assert len(frame) == 101
    assert list(frame.columns) == (["series", "x1", "x2"] + (["x3"] if dimension == 3 else []))


def test_vector_caption_explains_the_line_and_the_energy():
    points = {"gaussian": np.ones((4, 2)), "r1smg": 2 * np.ones((4, 2))}
    text = vector_caption(points, True, 3.0)
    assert "lies on one line" in text and "expected squared error 3" in text
    assert "Gaussian 2, R1SMG-shaped 8" in text
    assert "spherically symmetric" in vector_caption(points, False, 3.0)
