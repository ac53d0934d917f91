"""The Accuracy-vs-dimension page in AppTest: defaults, the extremes of d, matrix shapes, every tab.

Numbers read back from the chart specs and tables are checked against the core.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from gaussmech_core import audit, gaussian, multivariate
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_ui.format import format_number
from gaussmech_ui.params import widget_key

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/4_Accuracy_vs_dimension.py"
TABS = ["Mean error", "Spread of the error", "R1SMG audit", "Accuracy first"]
SIGMA = 3.730631634816  # analytic Gaussian at (1, 1e-5), Δ = 1 (docs/math.md section 2.5)
R1SMG = "R1SMG, claimed (Ji & Li 2024)"


def _open(tab: str | None = None, **query) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    for key, value in query.items():
        at.query_params[key] = str(value)
    if tab:
        at.query_params["accuracy_view"] = tab
    at.switch_page(PAGE)
    at.run()
    _assert_clean(at)
    return at


def _assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _trace(spec, name):
    return next(trace for trace in spec["data"] if trace["name"] == name)


def _text(at) -> str:
    parts = [element.value for kind in ("markdown", "info", "warning", "caption") for element in at.main.get(kind)]
    return "\n".join(str(part) for part in parts)


def _table(at, index: int = 0):
    return at.dataframe[index].value.set_index("Mechanism")


# --- Mean error (the default view) ------------------------------------------------------------


def test_defaults_show_the_mean_error_chart_with_the_papers_constants(chart_specs):
    at = _open()
    assert at.title[0].value == "How does the error grow with the dimension?"
    assert [tab.label for tab in at.tabs] == TABS
    (spec,) = chart_specs(at)
    assert spec["layout"]["xaxis"]["type"] == "log" and spec["layout"]["yaxis"]["type"] == "log"
    names = [trace["name"] for trace in spec["data"]]
    for expected in (
        "Analytic Gaussian",
        "Laplace",
        "Generalized Gaussian GG(p) (on the analytic Gaussian's curve)",
        "Matrix-variate Gaussian (i.i.d. form)",
        R1SMG,
        "Ji & Li's C_A·Δ² (the paper's bound)",
        "Ji & Li's C_M·Δ² (the paper's bound)",
        "Ji & Li's C_R·Δ² (the paper's bound)",
        "at d = 10",
    ):
        assert expected in names
    assert "Classical Gaussian" not in names  # ε = 1: not a theorem, not drawn
    analytic = _trace(spec, "Analytic Gaussian")
    dims, losses = np.asarray(analytic["x"], dtype=float), np.asarray(analytic["y"], dtype=float)
    assert dims[0] == 1 and dims[-1] == 1_000_000
    np.testing.assert_allclose(losses, dims * SIGMA**2, rtol=1e-9)
    r1smg = _trace(spec, R1SMG)
    r1smg_dims = np.asarray(r1smg["x"], dtype=float)
    assert r1smg_dims[0] == 3
    np.testing.assert_allclose(
        r1smg["y"], multivariate.r1smg_sigma_star(1.0, 1e-5, 1.0, r1smg_dims.astype(int)), rtol=1e-12
    )
    text = _text(at)
    assert "smallest expected squared error with a proven guarantee is 20 (the Laplace mechanism" in text
    assert "Left out where the mechanism is not valid" in text and "Classical Gaussian" in text
    table = _table(at)
    assert table.at["Analytic Gaussian", "Exact ÷ paper"] == "0.725"
    assert table.at["Matrix-variate Gaussian (i.i.d. form)", "Ji & Li's constant × Δ²"] == "C_M·Δ² = 7.5"
    assert len(at.get("download_button")) == 3
    assert at.expander[0].label.startswith("This page's settings")  # collapsed, so the chart starts on the first screen
    math = next(expander for expander in at.expander if expander.label == "The math")
    assert len(math.get("latex")) >= 3


def test_a_smaller_epsilon_draws_the_classical_gaussian_and_its_exact_constant(chart_specs):
    at = _open()
    at.select_slider(key=widget_key("epsilon")).set_value(0.5).run()
    _assert_clean(at)
    (spec,) = chart_specs(at)
    classical = _trace(spec, "Classical Gaussian")
    constant = _trace(spec, "Ji & Li's C_C·Δ² (the paper's bound)")
    np.testing.assert_allclose(classical["y"], constant["y"], rtol=1e-12)  # C_C is exact (docs/math.md section 6.3)
    assert "ε = 0.5" in spec["layout"]["title"]["text"]


def test_draw_again_changes_the_simulated_points_only(chart_specs):
    at = _open()
    before = chart_specs(at)[0]
    at.button(key="accuracy_redraw_mean").click().run()
    _assert_clean(at)
    after = chart_specs(at)[0]
    simulated = [i for i, t in enumerate(before["data"]) if t["name"].startswith("simulated")]
    assert simulated
    assert any(list(before["data"][i]["y"]) != list(after["data"][i]["y"]) for i in simulated)
    assert list(_trace(before, "Laplace")["y"]) == list(_trace(after, "Laplace")["y"])


# --- The extremes of d and the matrix shapes --------------------------------------------------


@pytest.mark.parametrize("tab", TABS)
def test_dimension_one_million(tab, chart_specs):
    at = _open(tab, dim=1_000_000)
    specs = chart_specs(at)
    if tab == "Mean error":
        markers = _trace(specs[0], "at d = 1,000,000")
        assert set(markers["x"]) == {1_000_000}
        labels = [a for a in specs[0]["layout"]["annotations"] if a["text"] == "d = 1,000,000"]
        assert labels and labels[0]["x"] == pytest.approx(6.0)
    if tab == "R1SMG audit":
        assert len(specs) == 3
        assert "claim fails" in _text(at)
    if tab == "Accuracy first":
        table = _table(at)
        assert table.at["Analytic Gaussian", "ε needed"] == "0.71"  # per coordinate: independent of d
        assert table.at["Matrix-variate Gaussian (i.i.d. form)", "ε needed"] == "—"


def test_dimension_one_leaves_out_r1smg_and_explains_why(chart_specs):
    at = _open(dim=1)
    markers = _trace(chart_specs(at)[0], "at d = 1")
    # aGM, Laplace, GG, MVG (1 × 1), Liu's truncated and BIT GG, the discrete Gaussian; not R1SMG, not the classical
    assert len(markers["y"]) == 7
    below_one = _trace(chart_specs(_open(dim=1, epsilon=0.5))[0], "at d = 1")
    assert len(below_one["y"]) == 8  # ε < 1: the classical Gaussian is valid from d = 1 too
    audit_view = _open("R1SMG audit", dim=1)
    assert "R1SMG is not defined at this setting" in _text(audit_view)
    assert "R1SMG needs d ≥ 3" in _text(audit_view)
    first = _open("Accuracy first", dim=1)
    assert first.dataframe[0].value.set_index("Mechanism").at[R1SMG, "ε needed"] == "—"


def test_dimension_three_is_the_smallest_for_r1smg_and_its_claim_holds_there():
    at = _open("R1SMG audit", dim=3)
    values = {metric.label: metric.value for metric in at.metric}
    assert values["Claimed δ (Ji & Li)"] == "1e-5"
    true_delta = float(values["True δ(1), quadrature"])
    assert true_delta < 1e-5  # docs/math.md section 6.2: 1.7e-6 at M = 3
    assert any("the claim holds" in info.value for info in at.info)
    at4 = _open("R1SMG audit", dim=4)
    assert any("The claim fails here" in warning.value for warning in at4.warning)


def test_rows_times_columns_shapes(chart_specs):
    at = _open(dim=12, accuracy_mvg_rows=3)
    assert "3 × 4" in _text(at)
    (spec,) = chart_specs(at)
    mvg = np.asarray(_trace(spec, "Matrix-variate Gaussian (i.i.d. form)")["x"], dtype=float)
    assert mvg[0] == 3 and np.all(mvg % 3 == 0)
    expected = multivariate.mvg_iid_expected_loss(1.0, 1e-5, 1.0, 3, (mvg // 3).astype(int), 0.5)
    np.testing.assert_allclose(_trace(spec, "Matrix-variate Gaussian (i.i.d. form)")["y"], expected, rtol=1e-12)
    at.number_input(key="accuracy_mvg_rows").set_value(5).run()
    _assert_clean(at)
    assert any("does not divide d = 12" in info.value for info in at.info)
    assert "1 × 12" in _text(at)


def test_the_smallest_dimension_for_a_matrix_shape():
    at = _open("Spread of the error", dim=4, accuracy_mvg_rows=4, accuracy_mvg_gamma=2)
    table = _table(at)
    mvg = MECHANISMS["mvg_iid"]
    assert table.at[mvg.name, "Skewness"] == "1.41"  # σ²χ²₄: √(8/4)
    assert "4 × 1" in _text(at)


def test_a_bad_page_value_in_the_link_becomes_a_warning_and_the_default():
    at = _open(accuracy_mvg_rows="abc", accuracy_view="No such tab", accuracy_mvg_gamma="0.1")
    assert at.title[0].value == "How does the error grow with the dimension?"
    warnings = [w.value for w in at.warning]
    assert any("accuracy_mvg_rows=abc" in w and "default" in w for w in warnings)
    assert any("accuracy_view=No such tab" in w for w in warnings)
    assert any("accuracy_mvg_gamma=0.1" in w for w in warnings)
    assert (
        at.number_input(key="accuracy_mvg_rows").value == 1 and at.number_input(key="accuracy_mvg_gamma").value == 0.5
    )
    first = _open("Accuracy first", accuracy_target="-3", accuracy_kind="Root-mean-square error")
    assert any(
        "Could not use `-3` for t: that is outside the allowed range" in w.value and "Keeping t = 10." in w.value
        for w in first.warning
    )
    assert first.radio(key="accuracy_kind").value == "rms"  # a valid value (its label) is taken silently
    assert not any("accuracy_kind" in w.value for w in first.warning)


# --- Spread of the error ----------------------------------------------------------------------


def test_spread_tab_shows_bands_and_the_moments_table(chart_specs):
    at = _open("Spread of the error")
    (spec,) = chart_specs(at)
    assert "relative to its mean" in spec["layout"]["title"]["text"]
    r1smg_median = np.asarray(_trace(spec, f"{R1SMG} (median, 5-95% band)")["y"], dtype=float)
    np.testing.assert_allclose(r1smg_median, 0.454936423119572, rtol=1e-9)  # χ²₁ median / mean
    table = _table(at)
    assert table.at["Analytic Gaussian", "Mean"] == "139" and table.at["Analytic Gaussian", "Skewness"] == "0.894"
    assert table.at[R1SMG, "Excess kurtosis"] == "12"
    assert "heavier tail" in _text(at)
    at.checkbox(key="accuracy_relative").uncheck().run()
    _assert_clean(at)
    assert "How the loss ‖n‖₂² is spread" in chart_specs(at)[0]["layout"]["title"]["text"]


# --- The R1SMG audit --------------------------------------------------------------------------


def test_audit_tab_shows_the_true_delta_and_the_live_test(chart_specs):
    at = _open("R1SMG audit", dim=100)
    assert any("not as a mechanism to use" in warning.value for warning in at.warning)
    values = {metric.label: metric.value for metric in at.metric}
    assert values["True δ(1), quadrature"] == "0.971"  # docs/math.md section 6.2
    bars = chart_specs(at)[1]
    assert bars["layout"]["yaxis"]["type"] == "category"
    rates = dict(zip(bars["data"][0]["y"], bars["data"][0]["x"]))
    ceiling = audit.max_distinguishing_success(1.0, 1e-5)
    assert rates["R1SMG (claimed (ε, δ)-DP)"] > ceiling
    assert rates["Analytic Gaussian at (ε, δ)"] < ceiling
    text = _text(at)
    assert "The whole interval lies above that ceiling" in text
    assert "73.11%" in text  # (e + 1e-5)/(1 + e)
    before = dict(rates)
    at.button(key="accuracy_redraw_test").click().run()
    _assert_clean(at)
    after = dict(zip(chart_specs(at)[1]["data"][0]["y"], chart_specs(at)[1]["data"][0]["x"]))
    assert after != before
    at.selectbox(key="accuracy_trials").set_value(2_000).run()
    _assert_clean(at)
    assert "2,000 simulated releases" in _text(at)


def test_audit_tab_at_the_default_dimension_says_one_release_is_not_enough():
    at = _open("R1SMG audit")
    text = _text(at)
    assert "one release is not enough" in text and "d = 17" in text
    assert "0.181" in text


# --- Accuracy first ---------------------------------------------------------------------------


def test_accuracy_first_answers_from_the_target():
    at = _open("Accuracy first")
    table = _table(at)
    assert table.at["Analytic Gaussian", "ε needed"] == "0.71"
    assert table.at["Laplace", "ε needed"] == "0.3"
    assert "most private proven choice is the Laplace mechanism at ε = 0.3" in at.info[0].value
    assert any("only by its claim" in warning.value for warning in at.warning)
    at.radio(key="accuracy_kind").set_value("rms").run()
    at.radio(key="accuracy_scope").set_value("norm").run()
    at.text_input(key="accuracy_target").input("100").run()
    _assert_clean(at)
    table = _table(at)
    # √E‖n‖² = √d σ = 100 at d = 10: σ = √1000, whose exact ε at δ = 1e-5 is the answer.
    assert table.at["Analytic Gaussian", "ε needed"] == format_number(
        gaussian.gaussian_epsilon(1e-5, math.sqrt(1000.0))
    )
    assert "root-mean-square" in at.info[0].value


def test_accuracy_first_with_an_impossible_target():
    at = _open("Accuracy first", accuracy_target="1e-9")
    assert at.info[0].value.startswith("No mechanism")
    assert any(c.value.startswith("Analytic Gaussian: even at ε = 1000") for c in at.caption)


def _round_up_captions(at) -> list[str]:
    return [str(caption.value) for caption in at.caption if "but some larger σ do not" in str(caption.value)]


def test_the_round_up_sentence_is_on_the_views_that_show_scales_at_the_sidebars_epsilon():
    """At (ε, δ) = (5, 0.01) the discrete Gaussian's smallest private σ is not safe to round up: the
    views drawn at the sidebar's ε say so; "Accuracy first", which finds ε for a target error and shows
    no scale at the sidebar's ε, does not compute or show it."""
    assert len(_round_up_captions(_open(epsilon="5", delta="0.01"))) == 1
    assert _round_up_captions(_open("Accuracy first", epsilon="5", delta="0.01")) == []
