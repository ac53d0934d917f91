"""The Noise distributions page in AppTest: each view at defaults and extremes, and what its controls change.

Charts are read back from their Plotly spec (``chart_specs``); the open tab is chosen through the
URL (``distributions_view``), as a shared link would.
"""

from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting
from gaussmech_ui.params import widget_key
from tests.app.page_helpers import legend_order, open_page, trace_named

PAGE = "pages/1_Noise_distributions.py"
TABS = ["Densities", "Generalized Gaussian family", "Draw samples", "Noise as vectors"]
FEATURED_VALID_AT_DEFAULTS = [
    "Analytic Gaussian",
    "Laplace",
    "Generalized Gaussian GG(p)",
    "Matrix-variate Gaussian (i.i.d. form)",
    "R1SMG, claimed (Ji & Li 2024)",
    "Truncated GG(p), bounded data",
    "Boundary-inflated truncated GG(p), bounded data",
    "Discrete Gaussian",
]


def _open(tab: str | None = None, **query) -> AppTest:
    return open_page(PAGE, view_key="distributions_view", view=tab, **query)


_trace = trace_named


_legend = legend_order


def test_the_page_opens_on_the_densities_with_every_featured_mechanism(chart_specs):
    at = _open()
    assert at.title[0].value == "What does the noise look like?"
    assert [tab.label for tab in at.tabs] == TABS
    (spec,) = chart_specs(at)
    assert _legend(spec) == FEATURED_VALID_AT_DEFAULTS
    # A curve has a line colour, a pmf on the integers (the discrete Gaussian) a marker colour.
    assert [
        (_trace(spec, name).get("line") or _trace(spec, name)["marker"])["color"] for name in FEATURED_VALID_AT_DEFAULTS
    ] == [
        MECHANISMS[key].color
        for key in (
            "analytic_gaussian",
            "laplace",
            "generalized_gaussian",
            "mvg_iid",
            "r1smg",
            "truncated_gg",
            "bit_gg",
            "discrete_gaussian",
        )
    ]
    assert spec["layout"]["yaxis"]["type"] == "linear"
    assert "ε = 1, δ = 1e-5" in spec["layout"]["title"]["text"]
    x = np.asarray(_trace(spec, "Analytic Gaussian")["x"], dtype=float)
    sigma = MECHANISMS["analytic_gaussian"].scale(Setting(1.0, 1e-5))
    assert x.max() == pytest.approx(6 * sigma, rel=1e-12), "the window is ±6 std of the analytic Gaussian"
    gaussian = np.asarray(_trace(spec, "Analytic Gaussian")["y"], dtype=float)
    assert gaussian.max() == pytest.approx(1 / (sigma * np.sqrt(2 * np.pi)), rel=1e-3)
    assert "the Laplace mechanism has the narrowest noise" in at.info[0].value
    assert len(at.get("download_button")) == 1
    expander, bounded = at.expander  # the page's math, and why the bounded-data mechanisms need bounds
    assert expander.label == "The math" and len(expander.get("latex")) >= 2
    assert bounded.label.startswith("Mechanisms for bounded data")


def test_the_log_view_and_every_variant(chart_specs):
    at = _open()
    at.segmented_control(key="distributions_density_scale").set_value("log").run()
    (spec,) = chart_specs(at)
    assert spec["layout"]["yaxis"]["type"] == "log" and "tails" in spec["layout"]["title"]["text"]
    at.checkbox(key="distributions_every_variant").check().run()
    (spec,) = chart_specs(at)
    setting = Setting(1.0, 1e-5, dim=10)
    valid = [m for m in MECHANISMS.values() if m.validity(setting).valid]
    assert len(spec["data"]) == len(valid) == len(MECHANISMS) - 1  # all but the classical Gaussian at ε = 1
    names = [trace["name"] for trace in spec["data"]]
    assert "Gaussian via zCDP (Bun–Steinke)" in names and "Classical Gaussian" not in names
    assert "Not drawn: Classical Gaussian" in at.info[0].value


def test_epsilon_changes_the_densities(chart_specs):
    at = _open()
    before = np.asarray(_trace(chart_specs(at)[0], "Analytic Gaussian")["y"], dtype=float)
    at.select_slider(key=widget_key("epsilon")).set_value(0.5).run()
    (spec,) = chart_specs(at)
    after = np.asarray(_trace(spec, "Analytic Gaussian")["y"], dtype=float)
    sigma = MECHANISMS["analytic_gaussian"].scale(Setting(0.5, 1e-5))
    assert after.max() == pytest.approx(1 / (sigma * np.sqrt(2 * np.pi)), rel=1e-3)
    assert after.max() < before.max(), "more privacy, wider noise"
    assert "Classical Gaussian" in [trace["name"] for trace in spec["data"]], "a theorem at ε < 1"


def test_the_window_follows_the_chosen_reference(chart_specs):
    at = _open()
    at.selectbox(key="distributions_reference").set_value("laplace").run()
    x = np.asarray(_trace(chart_specs(at)[0], "Laplace")["x"], dtype=float)
    assert x.max() == pytest.approx(6 * np.sqrt(2.0), rel=1e-12)  # Laplace b = 1: std √2


def test_generalized_gaussian_family_at_equal_variance_and_calibrated(chart_specs):
    at = _open("Generalized Gaussian family", order="3")
    (spec,) = chart_specs(at)
    assert [trace["name"] for trace in spec["data"]] == ["GG(p = 3)", "Laplace (p = 1)", "Gaussian (p = 2)"]
    peaks = {trace["name"]: np.asarray(trace["y"], dtype=float).max() for trace in spec["data"]}
    assert peaks["Laplace (p = 1)"] > peaks["Gaussian (p = 2)"] > peaks["GG(p = 3)"], "Liu: Laplace peaks highest"
    assert "1.77× as much mass at the mean" in at.info[0].value
    at.slider(key=widget_key("order")).set_value(5.0).run()
    assert chart_specs(at)[0]["data"][0]["name"] == "GG(p = 5)"
    at.segmented_control(key="distributions_family_mode").set_value("calibrated").run()
    (spec,) = chart_specs(at)
    assert [trace["name"] for trace in spec["data"]] == [
        "GG(p = 5), exact (ε, δ)-DP",
        "Laplace (p = 1), pure ε-DP",
        "analytic Gaussian (p = 2), (ε, δ)-DP",
    ]
    assert "calibrated scales" in at.info[0].value


def test_draw_samples_matches_the_density_and_draw_again_changes_the_bars(chart_specs):
    at = _open("Draw samples")
    spec = chart_specs(at)[0]
    bars, curve = spec["data"]
    assert bars["type"] == "bar" and bars["name"] == "10,000 draws (seed 1)"
    assert curve["name"] == "exact density: Analytic Gaussian"
    heights = np.asarray(bars["y"], dtype=float)
    centres = np.asarray(bars["x"], dtype=float)
    sigma = MECHANISMS["analytic_gaussian"].scale(Setting(1.0, 1e-5))
    exact = np.exp(-(centres**2) / (2 * sigma**2)) / (sigma * np.sqrt(2 * np.pi))
    width = centres[1] - centres[0]
    # Each bar is a binomial share / width: within 5 sd of the density (CLT, n = 10,000).
    tolerance = 5 * np.sqrt(exact * width * (1 - exact * width) / 10_000) / width + 1e-3 * exact.max()
    assert np.all(np.abs(heights - exact) < tolerance)
    at.button(key="distributions_draw_again").click().run()
    spec = chart_specs(at)[0]
    assert spec["data"][0]["name"] == "10,000 draws (seed 2)"
    assert not np.array_equal(np.asarray(spec["data"][0]["y"], dtype=float), heights)
    at.select_slider(key="distributions_draws").set_value(1_000).run()
    assert chart_specs(at)[0]["data"][0]["name"] == "1,000 draws (seed 2)"
    at.selectbox(key="distributions_sample_mechanism").set_value("r1smg").run()
    spec = chart_specs(at)[0]
    assert spec["data"][1]["name"] == "exact density: R1SMG, claimed (Ji & Li 2024)"
    assert any("claim does not hold" in w.value for w in at.warning)


def _history_spec(at, chart_specs) -> dict:
    (spec,) = [spec for spec in chart_specs(at) if spec["layout"]["title"]["text"].split(" draw")[0].isdigit()]
    return spec


def test_release_by_release_keeps_a_seeded_history_in_the_link(chart_specs):
    from gaussmech_core.streams import mechanism_rng

    at = _open("Draw samples")
    bars, curve = _history_spec(at, chart_specs)["data"]
    assert bars["name"] == "1 draw (seed 0)" and curve["name"] == "exact density: Analytic Gaussian"
    at.button(key="distributions_history_draw_again").click().run()
    assert at.query_params["distributions_history_draws"] == "2"
    at.button(key="distributions_history_draw_ten").click().run()
    assert at.query_params["distributions_history_draws"] == "12"
    spec = _history_spec(at, chart_specs)
    assert spec["data"][0]["name"] == "12 draws (seed 0)"
    # The history is the releases (seed 0, i) for i < 12: the caption names the latest, the bars count all.
    sigma = MECHANISMS["analytic_gaussian"].scale(Setting(1.0, 1e-5))
    latest = mechanism_rng(0, "analytic_gaussian", 11).normal(0.0, sigma)
    caption = next(c.value for c in at.caption if c.value.startswith("12 releases so far (history seed 0)"))
    heights = np.asarray(spec["data"][0]["y"], dtype=float)
    centres = np.asarray(spec["data"][0]["x"], dtype=float)
    assert round(float(np.sum(heights) * (centres[1] - centres[0]) * 12)) == 12
    again = _open("Draw samples", distributions_history_draws="12")
    assert caption in [c.value for c in again.caption], "the same link shows the same history"
    assert f"{latest:.3g}"[:4] in caption.replace("−", "-")
    at.button(key="distributions_history_new_history").click().run()
    assert at.query_params["distributions_history_seed"] == "1"
    assert at.query_params["distributions_history_draws"] == "1"


def test_draw_samples_of_an_invalid_mechanism_says_why(chart_specs):
    # Streamlit binds a selectbox to the URL by its displayed label.
    at = _open("Draw samples", dim="1", distributions_sample_mechanism="R1SMG, claimed (Ji & Li 2024)")
    assert chart_specs(at) == []
    assert "defined only for d ≥ 3" in at.warning[0].value


def _collinear(points: np.ndarray) -> bool:
    return np.linalg.matrix_rank(points, tol=1e-8 * np.abs(points).max()) == 1


def test_noise_vectors_in_two_and_three_dimensions(chart_specs):
    at = _open("Noise as vectors")
    specs = chart_specs(at)
    assert len(specs) == 2
    two, three = specs
    assert [trace["type"] for trace in two["data"]] == ["scattergl", "scattergl", "scatter"]
    assert [trace["type"] for trace in three["data"]] == ["scatter3d"] * 3
    r1smg = two["data"][1]
    points = np.column_stack([np.asarray(r1smg["x"], dtype=float), np.asarray(r1smg["y"], dtype=float)])
    assert "claimed (Ji & Li 2024)" in r1smg["name"] and _collinear(points)
    gaussian = two["data"][0]
    cloud = np.column_stack([np.asarray(gaussian["x"], dtype=float), np.asarray(gaussian["y"], dtype=float)])
    assert not _collinear(cloud)
    assert "E‖noise‖² = 27.8" in two["layout"]["title"]["text"]  # 2 σ², σ = 3.7306
    assert len(at.get("download_button")) == 2
    at.segmented_control(key="distributions_direction").set_value("fresh").run()
    r1smg = chart_specs(at)[0]["data"][1]
    points = np.column_stack([np.asarray(r1smg["x"], dtype=float), np.asarray(r1smg["y"], dtype=float)])
    assert not _collinear(points)
    at.button(key="distributions_vectors_draw_again").click().run()
    assert "seed 2" in chart_specs(at)[0]["layout"]["title"]["text"]


def test_a_bad_tab_in_the_link_falls_back_to_the_first(chart_specs):
    at = _open("No such view")
    assert len(chart_specs(at)) == 1 and "one coordinate" in chart_specs(at)[0]["layout"]["title"]["text"]


@pytest.mark.parametrize("tab", TABS)
@pytest.mark.parametrize(
    "query",
    [
        {"epsilon": "1e-6", "delta": "1e-300", "sensitivity": "1e-6", "order": "1", "dim": "1"},
        {
            "epsilon": "1000",
            "delta": "0.999999",
            "sensitivity": "1e6",
            "order": "10",
            "dim": "1000000",
            "l1": "all_coordinates",
        },
    ],
    ids=["all-smallest", "all-largest"],
)
def test_every_view_draws_at_the_extremes(chart_specs, tab, query):
    at = _open(tab, **query)
    specs = chart_specs(at)
    assert specs, "every view draws its chart"
    for spec in specs:
        for trace in spec["data"]:
            for axis in ("x", "y"):
                values = np.asarray(trace.get(axis, []), dtype=float)
                assert not np.isinf(values).any(), (tab, trace["name"])
