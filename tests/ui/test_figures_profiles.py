"""The Privacy profiles builders on synthetic numbers: charts, tables, captions (no core, no Streamlit)."""

from __future__ import annotations

import doctest
import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import plotly.graph_objects as go

import gaussmech_ui.figures.profiles as profiles_module
from gaussmech_core.registry_types import GUARANTEE_LABELS, Setting
from gaussmech_ui.figures.common import figure_frame
from gaussmech_ui.figures.profiles import (
    REGION_COLORS,
    ROUTE_STYLES,
    classical_map_caption,
    classical_map_figure,
    composition_caption,
    composition_figure,
    composition_table,
    low_privacy_caption,
    low_privacy_figure,
    map_frame,
    per_release_caption,
    per_release_sigma_figure,
    privacy_loss_caption,
    privacy_loss_figure,
    profile_caption,
    profile_figure,
    tradeoff_caption,
    tradeoff_figure,
)

SETTING = Setting(epsilon=1.0, delta=1e-5, dim=10)
LABELS = {0: "theorem", 1: "holds anyway", 2: "fails"}


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


def _profiles():
    epsilons = np.array([0.5, 1.0, 2.0])
    return pd.DataFrame(
        {
            "epsilon": epsilons,
            "analytic_gaussian": [1e-3, 1e-5, 4.6e-15],
            "laplace": [0.22, np.nan, np.nan],
            "r1smg": [0.3, 0.181, 0.1],
        }
    )


def test_doctests_pass():
    import gaussmech_ui.cached.profiles as cached_module

    assert doctest.testmod(profiles_module).failed == 0
    assert doctest.testmod(cached_module).failed == 0


def test_profile_figure_draws_each_curve_the_claim_against_the_truth_and_the_chosen_point():
    figure = profile_figure(_profiles(), MECHANISMS, SETTING, claimed={"r1smg": (1e-5, 0.181)})
    ranked = sorted(figure.data[:3], key=lambda trace: trace.legendrank)
    assert [trace.name for trace in ranked] == [
        "Analytic Gaussian",
        "Laplace",
        "R1SMG, claimed (Ji & Li 2024): true δ(ε) of its noise",
    ]
    assert figure.data[2].name == "Analytic Gaussian", "the reference is drawn on top"
    assert tuple(figure.layout.yaxis.range) == (-15.0, 0.3), "opens around the chosen δ = 1e-5: down to δ³"
    segment = figure.data[3]
    assert list(segment.x) == [1.0, 1.0] and list(segment.y) == [1e-5, 0.181]
    assert list(segment.marker.symbol) == ["circle-open", "circle"]
    assert figure.data[4].name == "chosen (ε, δ) = (1, 1e-5)" and list(figure.data[4].y) == [1e-5]
    assert figure.layout.xaxis.type == "log" and figure.layout.yaxis.type == "log"
    assert len(figure_frame(figure)) == 3 * 3 + 2 + 1


def test_profile_caption_compares_at_half_and_twice_epsilon_and_flags_the_claim():
    comparison = pd.DataFrame(
        {"half": [1.2e-3, 0.221], "double": [4.6e-15, 0.0]}, index=["analytic_gaussian", "laplace"]
    )
    text = profile_caption(comparison, MECHANISMS, SETTING, {"r1smg": (1e-5, 0.181)})
    assert "at ε/2 = 0.5 their δ is 0.221 for the Laplace mechanism; 0.0012 for the analytic Gaussian" in text
    assert "at 2ε = 2 it is 4.6e-15 for the analytic Gaussian; 0 for the Laplace mechanism." in text
    assert "true δ = 0.181 at ε = 1, 18,100× the claimed δ = 1e-5. The claim does not hold here." in text
    text = profile_caption(comparison.iloc[:0], MECHANISMS, SETTING, {"r1smg": (1e-5, 1e-6)})
    assert text.startswith("R1SMG, claimed (Ji & Li 2024): its true δ") and "within the claim here" in text


def test_profile_caption_names_mechanisms_with_the_same_exact_value_together():
    comparison = pd.DataFrame(
        {"half": [1.2e-3, 0.221, 0.3], "double": [4.6e-15, 0.0, 0.0]}, index=["analytic_gaussian", "laplace", "mvg_iid"]
    )
    from gaussmech_core.mechanisms import MECHANISMS as REGISTRY

    text = profile_caption(comparison, REGISTRY, SETTING, {})
    assert "at 2ε = 2 it is 4.6e-15 for the analytic Gaussian; 0 for the Laplace mechanism and MVG." in text
    assert "significant digits" not in text


def test_privacy_loss_figure_shades_both_masses_beyond_plus_and_minus_epsilon():
    loss = np.linspace(-3, 3, 13)
    frame = pd.DataFrame({"loss": loss, "density": np.exp(-(loss**2))})
    figure = privacy_loss_figure(frame, SETTING, sigma=3.73, eta=0.036, upper=1.61e-4, lower=1.51e-4, delta=1e-5)
    upper, lower, curve = figure.data
    assert min(upper.x) >= 1.0 and max(lower.x) <= -1.0
    assert upper.fill == "tozeroy" and lower.fill == "tozeroy"
    assert len(curve.x) == 13
    assert sorted(shape.x0 for shape in figure.layout.shapes) == [-1.0, 1.0]
    assert figure.layout.title.text.startswith("δ = P[L ≥ ε] − e^ε P[L ≤ −ε] = 1.61e-4 − 1.51e-4 = 1e-5")
    text = privacy_loss_caption(SETTING, eta=0.036, upper=1.61e-4, lower=1.51e-4, delta=1e-5)
    assert "mean η = 0.036" in text and "δ = 1e-5" in text


def _map():
    log_epsilons = np.array([-1.0, 0.0, 1.0, 2.0])
    log_deltas = np.array([-10.0, -5.0, -1.0])
    regions = np.array([[0, 1, 1, 2], [0, 1, 2, 2], [0, 2, 2, 2]])
    true_deltas = np.full(regions.shape, 1e-6)
    return log_epsilons, log_deltas, regions, true_deltas


def test_classical_map_has_one_layer_per_region_a_legend_the_threshold_and_the_point():
    log_epsilons, log_deltas, regions, true_deltas = _map()
    delta_zero = pd.DataFrame({"epsilon": 10.0**log_epsilons, "delta_zero": [0.1, 0.29, 0.4, 0.0]})
    figure = classical_map_figure(
        log_epsilons, log_deltas, regions, true_deltas, SETTING, labels=LABELS, current_region=1, delta_zero=delta_zero
    )
    heatmaps = [trace for trace in figure.data if isinstance(trace, go.Heatmap)]
    assert [trace.name for trace in heatmaps] == ["theorem", "holds anyway", "fails"]
    for code, trace in enumerate(heatmaps):
        z = np.asarray(trace.z, dtype=float)
        assert np.array_equal(np.isfinite(z), regions == code)
        assert trace.colorscale[0][1] == REGION_COLORS[code]
    threshold = next(trace for trace in figure.data if trace.name.startswith("δ₀(ε)"))
    assert len(threshold.x) == 3, "δ₀ = 0 cannot be drawn on a log axis"
    chosen = figure.data[-1]
    assert list(chosen.x) == [0.0] and list(chosen.y) == [-5.0]
    assert "holds anyway" in figure.layout.title.text
    assert list(figure.layout.xaxis.ticktext)[:2] == ["10<sup>-1</sup>", "1"]
    frame = map_frame(log_epsilons, log_deltas, regions, true_deltas, LABELS)
    assert len(frame) == 12 and frame["region"].iloc[0] == "theorem" and frame["epsilon"].iloc[1] == 1.0


def test_classical_map_caption_in_each_region():
    assert "is a theorem" in classical_map_caption(0, 1e-8, Setting(epsilon=0.5, delta=1e-5), 8.42)
    text = classical_map_caption(1, 4.1e-8, SETTING, 8.42)
    assert "not a theorem, but" in text and "fails from ε ≈ 8.42 on" in text
    text = classical_map_caption(2, 2.27e-5, Setting(epsilon=10.0, delta=1e-5), math.inf)
    assert "**not private enough**" in text and "2.27× the target" in text and "fails from" not in text


def test_low_privacy_figure_and_the_crossing():
    frame = pd.DataFrame(
        {
            "epsilon": [0.1, 1.0, 10.0, 100.0],
            "analytic": [30.0, 3.7, 0.5, 0.1],
            "classical": [48.0, np.nan, np.nan, np.nan],
            "classical_extrapolated": [48.0, 4.8, 0.48, 0.048],
            "bound": [2.2, 0.7, 0.22, 0.0707],
        }
    )
    figure = low_privacy_figure(frame, SETTING)
    assert [trace.name for trace in figure.data] == [
        "analytic Gaussian σ (exact)",
        "classical σ (a theorem, ε < 1)",
        "classical σ extrapolated (not a theorem)",
        "lower bound Δ/√(2ε), valid where δ < δ₀(ε)",
    ]
    assert figure.data[2].line.dash == "dash" and [shape.x0 for shape in figure.layout.shapes] == [1.0]
    (label,) = figure.layout.annotations
    assert label.x == 0.0 and label.text == "current ε = 1", "on a log axis the label sits at log10 ε"
    assert "crosses below the bound from ε ≈ 100" in low_privacy_caption(frame, SETTING)
    assert "stays above the bound" in low_privacy_caption(frame.assign(bound=0.01), SETTING)


def test_tradeoff_figure_and_plain_reading():
    alphas = np.linspace(0, 1, 5)
    frame = pd.DataFrame({"alpha": alphas, "gaussian": 1 - alphas, "region": np.maximum(0, 1 - 2 * alphas)})
    figure = tradeoff_figure(frame, SETTING, mu=0.268, alpha=0.05, gaussian_beta=0.916, region_beta=0.86)
    assert len(figure.data) == 4
    assert figure.data[1].name == "analytic Gaussian: G_μ, μ = Δ/σ = 0.268"
    assert list(figure.data[3].y) == [0.916, 0.86]
    assert tuple(figure.layout.xaxis.range) == (0, 1) and tuple(figure.layout.yaxis.range) == (0, 1)
    # On a wide, short slide or image the square plot shrinks; α stays a probability (not −1.9 to 2.9).
    assert figure.layout.xaxis.constrain == "domain" and figure.layout.yaxis.constrain == "domain"
    text = tradeoff_caption(0.05, 0.084, 0.136)
    assert text.startswith("An attacker who wrongly accuses 5% of the time catches the target at most 8.4% of the time")
    assert "at most 14% of the time under any mechanism" in text


def _composition():
    ks = [1, 10, 100]
    return pd.DataFrame(
        {"k": ks, **{route: [1.0 * (i + 1), 3.0 * (i + 1), 10.0 * (i + 1)] for i, route in enumerate(ROUTE_STYLES)}}
    )


def test_composition_figure_table_and_caption():
    figure = composition_figure(_composition(), SETTING, total_delta_text="total δ = 2kδ", k=10)
    assert [trace.name for trace in figure.data] == [style["name"] for style in ROUTE_STYLES.values()]
    assert figure.layout.xaxis.type == "log" and [shape.x0 for shape in figure.layout.shapes] == [10]
    rows = pd.DataFrame(
        {
            "route": list(ROUTE_STYLES),
            "total_epsilon": [2.97, 3.3, 3.9, 30.9, 10.0],
            "total_delta": [2e-4, 2e-4, 2e-4, 2e-4, 1e-4],
        }
    )
    table = composition_table(rows)
    assert table["Total ε"].tolist() == ["2.97", "3.3", "3.9", "30.9", "10"]
    text = composition_caption(rows, 10)
    assert text.startswith("After k = 10 releases the exact composition gives total ε = 2.97")
    assert "naive summation (kε, kδ) 3.37×" in text
    assert composition_caption(rows.assign(total_epsilon=np.nan), 10) == ""


def test_per_release_sigma_figure_and_caption():
    figure = per_release_sigma_figure(_composition(), SETTING, k=100)
    assert len(figure.data) == len(ROUTE_STYLES) and "(1, 1e-5)" in figure.layout.title.text
    text = per_release_caption({"exact": 11.8, "zcdp_cks": 12.79, "naive": 36.3, "advanced": math.nan}, 100)
    assert "exact route needs σ = 11.8" in text and "naive summation (kε, kδ) 36.3 (3.08×)" in text
    assert "advanced" not in text
