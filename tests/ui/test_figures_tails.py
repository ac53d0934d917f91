"""The Tail probabilities builders on synthetic numbers: charts, tables, captions (no core, no Streamlit)."""

from __future__ import annotations

import doctest
import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import gaussmech_ui.figures.tails as tails_module
from gaussmech_core.registry_types import GUARANTEE_LABELS, Setting
from gaussmech_ui.figures.common import figure_frame
from gaussmech_ui.figures.tails import (
    error_bound_table,
    lemma11_caption,
    lemma11_figure,
    privacy_cost_caption,
    privacy_cost_figure,
    tail_caption,
    tail_figure,
    tail_ratio_caption,
    tail_ratio_figure,
)

SETTING = Setting(epsilon=1.0, delta=1e-5, dim=10)


def _mechanism(name, guarantee, color, short_name=None, source="Somebody 2020"):
    return SimpleNamespace(
        name=name,
        short_name=short_name or name,
        guarantee=guarantee,
        guarantee_label=GUARANTEE_LABELS[guarantee],
        color=color,
        source=source,
    )


MECHANISMS = {
    "analytic_gaussian": _mechanism("Analytic Gaussian", "approximate", "#0072B2"),
    "laplace": _mechanism("Laplace", "pure", "#E69F00"),
    "r1smg": _mechanism("R1SMG (claimed)", "claimed", "#CC6677", short_name="R1SMG", source="Ji & Li 2024 (USENIX)"),
}


def _curves():
    t = np.geomspace(0.1, 100, 6)
    return pd.DataFrame(
        {
            "t": t,
            "analytic_gaussian": [1.0, 0.9, 0.1, 1e-30, np.nan, np.nan],
            "laplace": np.exp(-t),
        }
    )


def test_doctests_pass():
    import gaussmech_ui.cached.tails as cached_module

    assert doctest.testmod(tails_module).failed == 0
    assert doctest.testmod(cached_module).failed == 0


def test_tail_figure_marks_alpha_and_each_bound():
    bounds = {"analytic_gaussian": 7.31, "laplace": 3.0, "r1smg": math.nan}
    figure = tail_figure(_curves(), MECHANISMS, SETTING, alpha=0.05, bounds=bounds, vector=False)
    ranked = sorted(figure.data, key=lambda trace: trace.legendrank if trace.legendrank is not None else 1000)
    assert [trace.name for trace in ranked] == ["Analytic Gaussian", "Laplace", "error bound at confidence 1 − α = 95%"]
    assert [trace.name for trace in figure.data[:2]] == ["Laplace", "Analytic Gaussian"], "the first is drawn on top"
    markers = figure.data[-1]
    assert list(markers.x) == [7.31, 3.0] and list(markers.y) == [0.05, 0.05], "NaN bounds are left out"
    assert list(markers.marker.color) == ["#0072B2", "#E69F00"]
    assert figure.layout.yaxis.type == "log"
    assert [shape.y0 for shape in figure.layout.shapes] == [0.05]
    (label,) = figure.layout.annotations
    assert label.text == "α = 0.05" and label.y == pytest.approx(math.log10(0.05)), "log axis: the label at log10 α"
    assert figure.layout.yaxis.dtick == 10  # down to e^-100 ≈ 4e-44: a tick every 10 decades
    assert "one noise coordinate" in figure.layout.title.text and "P(|noise| > t)" in figure.layout.yaxis.title.text
    frame = figure_frame(figure)
    assert frame["series"].nunique() == 3


def test_vector_tail_figure_adds_monte_carlo_curves():
    monte_carlo = pd.DataFrame({"t": [1.0, 2.0], "laplace": [0.5, np.nan]})
    figure = tail_figure(
        _curves().drop(columns="laplace"),
        MECHANISMS,
        SETTING,
        alpha=1e-3,
        bounds={},
        vector=True,
        monte_carlo=monte_carlo,
        monte_carlo_size=20_000,
    )
    assert [trace.name for trace in figure.data] == ["Analytic Gaussian", "Laplace (Monte Carlo, 20,000 vectors)"]
    assert figure.data[1].line.dash == "dashdot"
    assert "length at d = 10" in figure.layout.title.text and "‖noise‖₂" in figure.layout.yaxis.title.text


def test_tail_caption_sorts_the_bounds_and_compares_proven_ones():
    text = tail_caption({"analytic_gaussian": 7.31, "laplace": 3.0, "r1smg": 4.87}, MECHANISMS, 0.05, vector=False)
    assert text.startswith(
        "With probability 95%, each noise coordinate is at most: Laplace 3; R1SMG, claimed (Ji & Li 2024) 4.87; Analytic Gaussian 7.31."
    )
    assert "largest bound (the analytic Gaussian) is 2.44× the smallest (the Laplace mechanism)" in text
    assert "whole noise vector" in tail_caption({"laplace": 1.0}, MECHANISMS, 1e-6, vector=True)
    assert tail_caption({"laplace": math.nan}, MECHANISMS, 0.05, vector=False) == ""


def test_error_bound_table_shows_three_digits_a_dash_and_the_method():
    frame = pd.DataFrame(
        {"std": [3.7306, 1.4142, 2.0], "bound": [7.3119, math.nan, 5.0], "method": ["exact", "", "Monte Carlo"]},
        index=["analytic_gaussian", "laplace", "r1smg"],
    )
    table = error_bound_table(frame, MECHANISMS, 0.05, 10, vector=True)
    assert list(table.columns) == ["Mechanism", "Guarantee", "√E‖noise‖₂² at d = 10", "‖noise‖₂ bound at 95%"]
    assert table["‖noise‖₂ bound at 95%"].tolist() == [
        "7.31",
        "— (too rare for the Monte Carlo draws)",
        "5 (Monte Carlo)",
    ]
    assert table["Mechanism"].iloc[2] == "R1SMG, claimed (Ji & Li 2024)"
    table = error_bound_table(frame, MECHANISMS, 0.001, 10, vector=False)
    assert "Per-coordinate error bound at 99.9%" in table.columns


def _ratio_frame():
    epsilons = np.array([0.1, 1.0, 10.0])
    return pd.concat(
        [
            pd.DataFrame(
                {"delta": 1e-2, "epsilon": epsilons, "laplace": 0.1, "gaussian": 0.2, "ratio": [2.0, 0.5, np.nan]}
            ),
            pd.DataFrame(
                {"delta": 1e-5, "epsilon": epsilons, "laplace": 0.1, "gaussian": 0.2, "ratio": [2.0, 0.5, 0.2]}
            ),
        ],
        ignore_index=True,
    )


def test_tail_ratio_figure_has_one_curve_per_delta_and_highlights_the_current_one():
    figure = tail_ratio_figure(_ratio_frame(), SETTING, threshold=3.0, gaussian_label="Liu's Lemma 10 (pDP)")
    assert [trace.name for trace in figure.data] == ["δ = 0.01", "δ = 1e-5 (current)"]
    assert figure.data[1].line.color == "#111111" and figure.data[1].line.width > figure.data[0].line.width
    assert np.isnan(np.asarray(figure.data[0].y, dtype=float)[2]), "omitted points stay gaps"
    assert figure.layout.xaxis.type == "log" and figure.layout.yaxis.type == "log"
    assert "t = 3Δ" in figure.layout.title.text and "Lemma 10" in figure.layout.title.text


def test_tail_ratio_caption_reads_the_current_delta():
    assert "Laplace's tail is lighter for ε from 1 to 10" in tail_ratio_caption(_ratio_frame(), SETTING, 3.0)
    everywhere = _ratio_frame().assign(ratio=0.5)
    assert "for every ε shown" in tail_ratio_caption(everywhere, SETTING, 3.0)
    nowhere = _ratio_frame().assign(ratio=2.0)
    assert "Gaussian's tail is the lighter one" in tail_ratio_caption(nowhere, SETTING, 3.0)
    empty = _ratio_frame().assign(ratio=np.nan)
    assert "below 1e-4" in tail_ratio_caption(empty, SETTING, 3.0)


def test_privacy_cost_figure_and_caption():
    taus = np.array([1e-6, 1e-2, 0.4])
    frame = pd.concat(
        [pd.DataFrame({"delta": delta, "tail_probability": taus, "ratio": [3.0, 2.71, 1.2]}) for delta in (1e-2, 1e-5)],
        ignore_index=True,
    )
    figure = privacy_cost_figure(frame, SETTING, threshold=3.0)
    assert len(figure.data) == 2 and figure.data[1].name == "δ = 1e-5 (current)"
    assert figure.layout.xaxis.type == "log"
    text = privacy_cost_caption(frame, SETTING, 3.0)
    assert "as rare as τ = 0.01" in text and "spends 2.71× the ε" in text and "more privacy loss" in text


def test_lemma11_figure_marks_the_threshold_and_caption_reads_it():
    deltas = np.array([1e-6, 0.1, 0.5])
    frame = pd.concat(
        [pd.DataFrame({"epsilon": epsilon, "delta": deltas, "ratio": [10.0, 1.5, 0.4]}) for epsilon in (0.1, 1.0)],
        ignore_index=True,
    )
    figure = lemma11_figure(frame, SETTING, threshold=0.157299)
    assert [trace.name for trace in figure.data] == ["ε = 0.1", "ε = 1 (current)"]
    assert [shape.x0 for shape in figure.layout.shapes if shape.type == "line" and shape.x0 == shape.x1] == [0.157299]
    text = lemma11_caption(10.2496, SETTING, 0.157299)
    assert "10.2× the variance" in text and "below the threshold 0.1573" in text
    above = lemma11_caption(0.4, Setting(epsilon=1.0, delta=0.5), 0.157299)
    assert "above the threshold" in above
