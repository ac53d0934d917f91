"""The Privacy profiles page in AppTest: δ(ε) curves, privacy loss, the classical map, testing, composition.

Numbers read back from the chart specs and tables are checked against the core.
"""

from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from gaussmech_core import accounting, audit, gaussian
from gaussmech_ui.format import format_number
from gaussmech_ui.params import widget_key
from tests.app.page_helpers import open_page, trace_named

PAGE = "pages/3_Privacy_profiles.py"
TABS = [
    "Privacy profiles",
    "What an attacker can do",
    "Privacy loss",
    "Where the classical formula holds",
    "Hypothesis testing",
    "Composition",
]
SIGMA = 3.730631634816  # analytic Gaussian at (1, 1e-5), Δ = 1 (docs/math.md section 2.5)


def _open(tab: str | None = None, **query) -> AppTest:
    return open_page(PAGE, view_key="profiles_view", view=tab, **query)


_trace = trace_named


def test_profiles_pass_through_the_chosen_point_and_r1smg_is_flagged(chart_specs):
    at = _open()
    assert at.title[0].value == "What does the privacy guarantee mean?"
    assert [tab.label for tab in at.tabs] == TABS
    (spec,) = chart_specs(at)
    names = [trace["name"] for trace in sorted(spec["data"], key=lambda trace: trace.get("legendrank", 1000))]
    assert names == [
        "Analytic Gaussian",
        "Laplace",
        "Generalized Gaussian GG(p) (on the analytic Gaussian's curve)",
        "Matrix-variate Gaussian (i.i.d. form)",
        "R1SMG, claimed (Ji & Li 2024): true δ(ε) of its noise",
        "Truncated GG(p), bounded data",
        # Both bounded-data profiles are the pure-ε-DP bound δ(ε') at the same ε: one curve.
        "Boundary-inflated truncated GG(p), bounded data (on the truncated GG(p)'s curve)",
        "Discrete Gaussian",
        "R1SMG, claimed (Ji & Li 2024): claimed δ (open) vs true δ (filled) at ε",
        "chosen (ε, δ) = (1, 1e-5)",
    ]
    assert spec["layout"]["xaxis"]["type"] == "log" and spec["layout"]["yaxis"]["type"] == "log"
    analytic = _trace(spec, "Analytic Gaussian")
    epsilons, deltas = np.asarray(analytic["x"], dtype=float), np.asarray(analytic["y"], dtype=float)
    at_one = int(np.argmin(np.abs(np.log(epsilons))))
    assert epsilons[at_one] == pytest.approx(1.0) and deltas[at_one] == pytest.approx(1e-5, rel=1e-9)
    shown = np.isfinite(deltas)
    np.testing.assert_allclose(deltas[shown], gaussian.gaussian_delta(epsilons[shown], SIGMA), rtol=1e-9)
    laplace = np.asarray(_trace(spec, "Laplace")["y"], dtype=float)
    assert np.isnan(laplace[epsilons >= 1.0]).all(), "δ is exactly 0 for ε ≥ Δ₁/b: not drawn on a log axis"
    claim = _trace(spec, "R1SMG, claimed (Ji & Li 2024): claimed δ (open) vs true δ (filled) at ε")
    assert claim["y"][0] == 1e-5 and claim["y"][1] == pytest.approx(0.18141, rel=1e-3)  # docs/math.md section 6.2
    assert any("published guarantee does not hold here" in w.value for w in at.warning)
    assert "at ε/2 = 0.5 their δ is 0.221 for the Laplace mechanism" in at.info[0].value
    assert at.expander[0].label == "The math" and len(at.expander[0].get("latex")) >= 3


def test_sliders_move_every_profile(chart_specs):
    at = _open()
    before = _trace(chart_specs(at)[0], "Analytic Gaussian")["y"]
    at.select_slider(key=widget_key("delta")).set_value(1e-10).run()
    (spec,) = chart_specs(at)
    assert list(_trace(spec, "Analytic Gaussian")["y"]) != list(before)
    assert spec["data"][-1]["name"] == "chosen (ε, δ) = (1, 1e-10)"
    at.checkbox(key="profiles_every_variant").check().run()
    names = [trace["name"] for trace in chart_specs(at)[0]["data"]]
    assert "Gaussian via zCDP (Canonne–Kamath–Steinke)" in names


def test_the_privacy_loss_distribution_and_its_two_masses(chart_specs):
    at = _open("Privacy loss")
    (spec,) = chart_specs(at)
    upper, lower, curve = spec["data"]
    expected_upper, expected_lower = gaussian.privacy_loss_masses(1.0, SIGMA)
    assert upper["name"] == f"P[L ≥ ε] = {format_number(expected_upper)}"
    assert lower["name"] == f"P[L ≤ −ε]; e^ε × it = {format_number(expected_lower)}"
    assert min(np.asarray(upper["x"], dtype=float)) == 1.0 and max(np.asarray(lower["x"], dtype=float)) == -1.0
    eta = 1 / (2 * SIGMA**2)
    loss, density = np.asarray(curve["x"], dtype=float), np.asarray(curve["y"], dtype=float)
    assert loss[np.argmax(density)] == pytest.approx(eta, abs=(loss[1] - loss[0]))
    assert "= 1e-5" in spec["layout"]["title"]["text"].split("<br>")[0]
    at.select_slider(key=widget_key("epsilon")).set_value(2.0).run()
    assert sorted(shape["x0"] for shape in chart_specs(at)[0]["layout"]["shapes"]) == [-2.0, 2.0]


def test_where_the_classical_formula_holds(chart_specs):
    at = _open("Where the classical formula holds")
    specs = chart_specs(at)
    assert len(specs) == 2
    names = [trace["name"] for trace in specs[0]["data"]]
    assert [trace["type"] for trace in specs[0]["data"][:3]] == ["heatmap"] * 3
    assert names[-2].startswith("δ₀(ε)") and names[-1] == "chosen (ε, δ) = (1, 1e-5)"
    assert "not a theorem, but its σ happens to be private enough" in at.info[0].value
    assert "fails from ε ≈ 8.42" in at.info[0].value
    assert [trace["name"] for trace in specs[1]["data"]][3] == "lower bound Δ/√(2ε), valid where δ < δ₀(ε)"
    at.select_slider(key=widget_key("epsilon")).set_value(10.0).run()
    assert "**not private enough**" in at.warning[0].value and "2.27× the target" in at.warning[0].value


def test_hypothesis_testing_reading_matches_the_core(chart_specs):
    at = _open("Hypothesis testing")
    (spec,) = chart_specs(at)
    assert len(spec["data"]) == 4
    mu = 1 / SIGMA
    power = 1 - gaussian.gaussian_tradeoff(0.05, mu)
    region = audit.max_test_power(0.05, 1.0, 1e-5)
    assert f"catches the target at most {100 * power:.2g}% of the time" in at.info[0].value
    assert f"at most {100 * region:.2g}% of the time under any mechanism" in at.info[0].value
    alphas = np.asarray(spec["data"][1]["x"], dtype=float)
    np.testing.assert_allclose(spec["data"][1]["y"], gaussian.gaussian_tradeoff(alphas, mu), rtol=1e-12)
    at.select_slider(key="profiles_alpha").set_value(0.2).run()
    assert "wrongly accuses 20% of the time" in at.info[0].value


def test_composition_routes_side_by_side(chart_specs):
    at = _open("Composition")
    specs = chart_specs(at)
    assert len(specs) == 2 and all(len(spec["data"]) == 5 for spec in specs)
    table = at.dataframe[0].value.set_index("Route")
    exact = accounting.composed_gaussian_epsilon(2 * 10 * 1e-5, SIGMA, 1.0, 10)
    assert table.loc["exact Gaussian composition (Gaussian DP: μ-GDP, μ = √k Δ/σ)", "Total ε"] == f"{exact:.3g}"
    assert table.loc["naive summation (kε, kδ)", "Total ε"] == "10"
    exact_sigma = specs[1]["data"][0]
    ks, sigmas = np.asarray(exact_sigma["x"], dtype=float), np.asarray(exact_sigma["y"], dtype=float)
    np.testing.assert_allclose(sigmas, np.sqrt(ks) * SIGMA, rtol=1e-9)  # docs/math.md section 9.4
    for route_trace in specs[1]["data"][1:]:
        assert np.all(np.asarray(route_trace["y"], dtype=float) >= sigmas * (1 - 1e-12)), "exact is never worse"
    at.select_slider(key="profiles_releases").set_value(100).run()
    specs = chart_specs(at)
    assert [shape["x0"] for shape in specs[0]["layout"]["shapes"]] == [100]
    assert "After k = 100 releases" in at.info[0].value


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
    assert chart_specs(at), "every view draws its chart"
