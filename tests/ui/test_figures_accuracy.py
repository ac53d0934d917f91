"""The Accuracy-vs-dimension page's numbers and pictures: cached sweeps against the core, figures, captions."""

from __future__ import annotations

import dataclasses
import doctest
import json
import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

import gaussmech_ui.cached.accuracy as cached_module
import gaussmech_ui.figures.accuracy as figures_module
from gaussmech_core import audit, inverse, loss, multivariate
from gaussmech_core.mechanisms import MECHANISMS, evaluate
from gaussmech_ui.cached import accuracy as cached
from gaussmech_ui.figures import accuracy as figures
from gaussmech_ui.figures.common import figure_frame

SWEEP = dict(epsilon=1.0, delta=1e-5, sensitivity=1.0, order=2.0, l1_model="one_coordinate", rows=1, gamma_ratio=0.5)


def _setting(dim=10, rows=1, **changes):
    values = dict(SWEEP, dim=dim, rows=rows)
    values.update(changes)
    return cached.make_setting(
        values["epsilon"],
        values["delta"],
        values["sensitivity"],
        values["order"],
        values["dim"],
        values["l1_model"],
        values["rows"],
        values["gamma_ratio"],
    )


def test_doctests_pass():
    for module in (cached_module, figures_module):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


# --- Grids and shapes -------------------------------------------------------------------------


def test_dim_grid_spans_one_to_a_million_in_whole_numbers():
    grid = cached.dim_grid()
    assert grid[0] == 1 and grid[-1] == 1_000_000
    assert grid.dtype.kind == "i" and np.all(np.diff(grid) > 0)
    for decade in (1, 10, 100, 1000, 10_000, 100_000):
        assert decade in grid  # the Monte Carlo points sit on the curve's own grid


def test_mvg_dims_and_divisors():
    assert cached.mvg_dims(1)[-1] == 1_000_000
    dims = cached.mvg_dims(1000)
    assert dims[0] == 1000 and dims[-1] == 1_000_000 and np.all(dims % 1000 == 0)
    assert cached.mvg_dims(2_000_000).size == 0
    assert cached.divisors(1_000_000)[:6] == [1, 2, 4, 5, 8, 10]
    assert all(1_000_000 % k == 0 for k in cached.divisors(1_000_000))


def test_make_setting_uses_the_page_shape_and_falls_back_when_rows_do_not_divide():
    setting = cached.make_setting(1.0, 1e-5, 2.0, 2.0, 12, "one_coordinate", 3, 0.75)
    assert setting.matrix_shape == (3, 4) and setting.matrix_gamma == pytest.approx(1.5)
    assert cached.make_setting(1.0, 1e-5, 1.0, 2.0, 10, "one_coordinate", 7, 0.5).matrix_shape == (1, 10)


# --- Sweeps agree with the registry -----------------------------------------------------------


@pytest.mark.parametrize("l1_model", ["one_coordinate", "all_coordinates"])
@pytest.mark.parametrize("order", [2.0, 3.0])
def test_scales_against_dim_match_the_registry_at_every_point(l1_model, order):
    base = _setting(1, l1_model=l1_model, order=order)
    dims = np.array([1, 2, 3, 10, 1000, 1_000_000])
    for mechanism_id in cached.shown_ids():
        mechanism = MECHANISMS[mechanism_id]
        scales, reason = cached.scales_against_dim(mechanism, base, dims)
        for dim, scale in zip(dims, scales):
            calibration = evaluate(mechanism, dataclasses.replace(base, dim=int(dim), mvg_shape=(1, int(dim))))
            if calibration.scale is None:
                assert math.isnan(scale) and reason
            else:
                assert scale == calibration.scale, (mechanism_id, dim)


def test_a_dimension_free_calibration_is_computed_once():
    calls = []
    original = MECHANISMS["analytic_gaussian"]
    counting = dataclasses.replace(original, scale=lambda s: calls.append(1) or original.scale(s))
    scales, _ = cached.scales_against_dim(counting, _setting(1), cached.dim_grid())
    assert len(calls) == 1 and np.all(scales == scales[0])
    calls.clear()
    laplace = MECHANISMS["laplace"]
    counting_laplace = dataclasses.replace(laplace, scale=lambda s: calls.append(1) or laplace.scale(s))
    cached.scales_against_dim(counting_laplace, _setting(1, l1_model="all_coordinates"), [1, 4, 9])
    assert len(calls) == 3  # reads l1_sensitivity, which depends on the dimension


def test_loss_curves_match_the_registry_and_leave_out_invalid_points():
    curves, not_drawn = cached.loss_curves(**SWEEP)
    assert "classical_gaussian" in not_drawn and "r1smg" in not_drawn  # ε = 1; R1SMG below M = 3
    assert set(curves["mechanism"]) == {
        "analytic_gaussian",
        "laplace",
        "generalized_gaussian",
        "mvg_iid",
        "r1smg",
        "truncated_gg",
        "bit_gg",
        "discrete_gaussian",
    }
    assert curves[curves["mechanism"] == "r1smg"]["dim"].min() == 3
    for _, row in curves.sample(25, random_state=1).iterrows():
        setting = _setting(int(row["dim"]))
        assert row["expected_loss"] == pytest.approx(evaluate(row["mechanism"], setting).expected_loss, rel=1e-12)


def test_classical_gaussian_is_drawn_below_epsilon_one_with_its_exact_constant():
    curves, not_drawn = cached.loss_curves(**dict(SWEEP, epsilon=0.5))
    assert "classical_gaussian" not in not_drawn
    bounds = cached.paper_bounds(0.5, 1e-5, 1.0, 1)
    exact = curves[curves["mechanism"] == "classical_gaussian"].set_index("dim")["expected_loss"]
    paper = bounds[bounds["constant"] == "C_C"].set_index("dim")["bound"]
    assert np.allclose(
        exact.to_numpy(), paper.loc[exact.index].to_numpy(), rtol=1e-12
    )  # C_C is exact (docs/math.md section 6.3)
    assert "C_C" not in set(cached.paper_bounds(1.0, 1e-5, 1.0, 1)["constant"])


def test_paper_bounds_match_the_core_constants():
    bounds = cached.paper_bounds(1.0, 1e-5, 2.0, 4)
    c_a = bounds[bounds["constant"] == "C_A"]
    assert np.allclose(c_a["bound"], 4.0 * multivariate.ji_li_constant_analytic(1.0, 1e-5, c_a["dim"].to_numpy()))
    c_m = bounds[bounds["constant"] == "C_M"]
    assert np.all(c_m["dim"] % 4 == 0)
    assert np.allclose(c_m["bound"], 4.0 * multivariate.ji_li_constant_mvg(1.0, 4, c_m["dim"].to_numpy() // 4))
    c_r = bounds[bounds["constant"] == "C_R"]
    assert c_r["dim"].min() >= 3 and np.all(np.isfinite(c_r["bound"]))


def test_loss_bands_are_exact_chi_square_for_gaussian_noise_and_ordered():
    bands = cached.loss_bands(**SWEEP)
    assert np.all(bands["q05"] <= bands["q50"]) and np.all(bands["q50"] <= bands["q95"])
    analytic = bands[bands["mechanism"] == "analytic_gaussian"]
    sigma = MECHANISMS["analytic_gaussian"].scale(_setting())
    expected = loss.loss_quantiles_against_dim("gaussian", sigma, analytic["dim"].to_numpy())
    assert np.allclose(analytic["q95"], expected[0.95], rtol=1e-12)
    r1smg = bands[bands["mechanism"] == "r1smg"]
    assert np.allclose(r1smg["q50"] / r1smg["expected_loss"], 0.454936423119572, rtol=1e-9)  # χ²₁ median


def test_iid_bands_scale_with_the_square_of_the_scale():
    # Laplace quantiles come from unit-scale simulations times b²; b = Δ₁/ε, so they scale as 1/ε².
    first = cached.loss_bands(**SWEEP)
    second = cached.loss_bands(**dict(SWEEP, epsilon=0.5))
    a = first[first["mechanism"] == "laplace"].set_index("dim")["q95"]
    b = second[second["mechanism"] == "laplace"].set_index("dim")["q95"]
    assert np.allclose(b / a, 4.0, rtol=1e-12)


def test_current_losses_match_the_loss_module():
    current = cached.current_losses(**SWEEP, dim=10).set_index("mechanism")
    assert (
        not current.at["classical_gaussian", "valid"]
        and "theorem" in current.at["classical_gaussian", "reason"].lower()
    )
    sigma = MECHANISMS["analytic_gaussian"].scale(_setting())
    summary = loss.gaussian_loss_summary(sigma, 10)
    assert current.at["analytic_gaussian", "mean"] == pytest.approx(summary.mean)
    assert current.at["analytic_gaussian", "skewness"] == pytest.approx(math.sqrt(0.8))
    assert current.at["r1smg", "skewness"] == pytest.approx(2 * math.sqrt(2))
    assert current.at["r1smg", "excess_kurtosis"] == pytest.approx(12.0)
    assert current.at["analytic_gaussian", "constant"] == "C_A"
    assert current.at["mvg_iid", "paper_bound"] == pytest.approx(multivariate.ji_li_constant_mvg(1.0, 1, 10))


def test_monte_carlo_points_agree_with_the_exact_means():
    curves, _ = cached.loss_curves(**SWEEP)
    points = cached.monte_carlo_points(**SWEEP, seed=3, samples=2000)
    assert len(points) >= 15
    exact = curves.set_index(["mechanism", "dim"])["expected_loss"]
    misses = 0
    for _, row in points.iterrows():
        truth = exact.loc[(row["mechanism"], row["dim"])]
        assert row["mean_low"] < row["mean"] < row["mean_high"]
        misses += not (row["mean_low"] <= truth <= row["mean_high"])
    # 95% intervals: a few misses are expected among ~20; many would mean a sampler or curve is wrong.
    assert misses <= 4


def test_monte_carlo_points_change_with_the_seed_only():
    first = cached.monte_carlo_points(**SWEEP, seed=0)
    again = cached.monte_carlo_points(**SWEEP, seed=0)
    other = cached.monte_carlo_points(**SWEEP, seed=1)
    pd.testing.assert_frame_equal(first, again)
    assert not np.allclose(first["mean"], other["mean"])


# --- The audit --------------------------------------------------------------------------------


def test_r1smg_audit_point_matches_math_md():
    point = cached.r1smg_audit_point(1.0, 1e-5, 1.0, 10, seed=0)
    assert point["valid"] and point["sigma_star"] == pytest.approx(49.18, rel=1e-3)
    assert point["true_delta"] == pytest.approx(0.18141, abs=1e-5)  # docs/math.md section 6.2, quadrature
    assert abs(point["monte_carlo"] - point["true_delta"]) < 5 * point["monte_carlo_error"]
    assert not cached.r1smg_audit_point(1.0, 1e-5, 1.0, 2, seed=0)["valid"]


def test_true_delta_curve_rises_with_the_dimension():
    curve = cached.r1smg_true_delta_curve(1.0, 1e-5, 1.0)
    assert curve["dim"].iloc[0] == 3 and curve["dim"].iloc[-1] == 1_000_000
    assert curve["true_delta"].iloc[0] < 1e-5 < curve["true_delta"].iloc[4]  # holds at M = 3, fails at M = 10
    assert np.all(np.diff(curve["true_delta"]) >= -1e-12)


def test_closer_test_rows_and_ceiling():
    rows, ceiling = cached.closer_test(1.0, 1e-5, 1.0, 100, 20_000, seed=0)
    assert ceiling == pytest.approx(audit.max_distinguishing_success(1.0, 1e-5))
    by_label = rows.set_index("mechanism")
    r1smg = by_label.loc["r1smg"]
    assert r1smg["low"] > ceiling  # at M = 100 the simple test beats the ceiling (docs/math.md section 6.2 item 3)
    matched = rows[rows["mechanism"] == ""].iloc[0]
    assert matched["expected_loss"] == pytest.approx(r1smg["expected_loss"])
    assert matched["scale"] == pytest.approx(math.sqrt(r1smg["expected_loss"] / 100))
    assert matched["honest_epsilon"] > 1.0
    analytic = by_label.loc["analytic_gaussian"]
    assert analytic["exact"] < ceiling
    assert rows["successes"].between(0, 20_000).all()
    # At d = 2 R1SMG is not defined: only the analytic Gaussian row remains.
    small, _ = cached.closer_test(1.0, 1e-5, 1.0, 2, 2_000, seed=0)
    assert list(small["mechanism"]) == ["analytic_gaussian"]


def test_closer_test_curve_crosses_the_ceiling_once():
    curve = cached.closer_test_curve(1.0, 1e-5, 1.0)
    above = curve["r1smg"] > curve["ceiling"]
    assert not above.iloc[0] and above.iloc[-1]
    assert np.all(np.diff(above.astype(int)) >= 0)


def test_accuracy_first_matches_the_inverse_module():
    frame = cached.accuracy_first(1e-5, 1.0, 2.0, 10, "one_coordinate", 1, 0.5, 10.0, "quantile", 0.05, "coordinate")
    assert list(frame["mechanism"]) == list(cached.shown_ids())
    expected = inverse.epsilon_for_target_error(
        "analytic_gaussian", _setting(), 10.0, kind="quantile", scope="coordinate"
    )
    assert frame.set_index("mechanism").at["analytic_gaussian", "epsilon"] == expected.epsilon
    r1smg = frame.set_index("mechanism").loc["r1smg"]
    assert r1smg["true_delta"] > 1e-5  # the claim behind R1SMG's small ε does not hold
    assert (frame["error"].dropna() <= 10.0).all()


# --- Figures ----------------------------------------------------------------------------------


@pytest.fixture
def mean_inputs():
    curves, _ = cached.loss_curves(**SWEEP)
    bounds = cached.paper_bounds(1.0, 1e-5, 1.0, 1)
    points = cached.monte_carlo_points(**SWEEP, seed=0)
    current = cached.current_losses(**SWEEP, dim=10)
    return curves, bounds, points, current


def _annotation_texts(figure: go.Figure) -> list[str]:
    return [annotation.text for annotation in figure.layout.annotations]


def test_expected_loss_figure(mean_inputs):
    curves, bounds, points, current = mean_inputs
    figure = figures.expected_loss_figure(curves, bounds, points, current, MECHANISMS, _setting(), 1)
    names = [trace.name for trace in figure.data]
    assert "Analytic Gaussian" in names and "R1SMG, claimed (Ji & Li 2024)" in names
    assert any("C_A" in name for name in names) and any("C_M" in name for name in names)
    assert figure.layout.xaxis.type == "log" and figure.layout.yaxis.type == "log"
    assert "ε = 1" in figure.layout.title.text and "δ = 1e-5" in figure.layout.title.text
    # The d label sits at log10(d) (Plotly's unit for annotations on a log axis).
    label = [a for a in figure.layout.annotations if a.text == "d = 10"][0]
    assert label.x == pytest.approx(1.0)
    analytic = [t for t in figure.data if t.name == "Analytic Gaussian"][0]
    assert analytic.line.color == MECHANISMS["analytic_gaussian"].color
    r1smg = [t for t in figure.data if t.name.startswith("R1SMG")][0]
    assert r1smg.line.dash == "dash"
    frame = figure_frame(figure)
    assert len(frame) >= len(curves) + len(bounds)


def test_expected_loss_caption_never_recommends_r1smg():
    current = cached.current_losses(**SWEEP, dim=100_000)
    text = figures.expected_loss_caption(current, MECHANISMS, _setting(100_000))
    assert "smallest expected squared error with a proven guarantee" in text
    best_sentence = text.split(". ")[0]
    assert "R1SMG" not in best_sentence
    assert "audit" in text
    # Even if R1SMG had by far the smallest number, the caption names a proven mechanism.
    assert (
        current.set_index("mechanism").at["r1smg", "mean"]
        < current["mean"].dropna().drop(current.index[current["mechanism"] == "r1smg"]).min()
    )


def test_paper_table_and_explanations():
    current = cached.current_losses(**SWEEP, dim=10)
    table = figures.paper_table(current, MECHANISMS, _setting())
    assert list(table["Mechanism"]) == [
        "Analytic Gaussian",
        "Matrix-variate Gaussian (i.i.d. form)",
        "R1SMG, claimed (Ji & Li 2024)",
    ]
    ratios = dict(zip(table["Mechanism"], table["Exact ÷ paper"]))
    assert ratios["Analytic Gaussian"] == "0.725"  # 13.92/19.19: C_A is not a lower bound (docs/math.md section 6.3)
    assert ratios["R1SMG, claimed (Ji & Li 2024)"] == "1"
    explanations = figures.paper_explanations()
    assert "not a lower bound" in explanations["C_A"].lower() and "far below" in explanations["C_M"].lower()


@pytest.mark.parametrize("relative", [False, True])
def test_loss_bands_figure(relative):
    bands = cached.loss_bands(**SWEEP)
    points = cached.monte_carlo_points(**SWEEP, seed=0)
    figure = figures.loss_bands_figure(bands, points, MECHANISMS, _setting(), 1, relative=relative)
    fills = [trace for trace in figure.data if trace.fill == "tonexty"]
    assert len(fills) == bands["mechanism"].nunique()
    median = [t for t in figure.data if t.name == "R1SMG, claimed (Ji & Li 2024) (median, 5-95% band)"][0]
    if relative:
        assert np.allclose(median.y, 0.454936423119572, rtol=1e-9)
        assert "relative" in figure.layout.title.text
    else:
        assert not np.allclose(median.y, median.y[0])


def test_loss_table_and_notes():
    current = cached.current_losses(**SWEEP, dim=10)
    table = figures.loss_table(current, MECHANISMS, _setting())
    assert list(table.columns) == [
        "Mechanism",
        "Mean",
        "Median",
        "5%",
        "95%",
        "Skewness",
        "Excess kurtosis",
        "How computed",
    ]
    row = table.set_index("Mechanism").loc["R1SMG, claimed (Ji & Li 2024)"]
    assert row["Skewness"] == "2.83" and row["Excess kurtosis"] == "12"
    assert table.set_index("Mechanism").at["Classical Gaussian", "Mean"] == "—"
    assert any("Classical Gaussian" in note for note in figures.loss_table_notes(current, MECHANISMS))
    assert set(figures.loss_csv_frame(current, MECHANISMS, _setting())["dim"]) == {10}


def test_true_delta_figure_and_audit_caption():
    curve = cached.r1smg_true_delta_curve(1.0, 1e-5, 1.0)
    point = cached.r1smg_audit_point(1.0, 1e-5, 1.0, 10, seed=0)
    figure = figures.true_delta_figure(curve, point, MECHANISMS, _setting())
    assert figure.layout.yaxis.type == "log"
    assert any("claimed δ = 1e-5" in t.name for t in figure.data)
    text = figures.audit_caption(point, _setting())
    assert "0.181" in text and "claim fails" in text
    holding = cached.r1smg_audit_point(1.0, 1e-5, 1.0, 3, seed=0)
    assert "claim holds" in figures.audit_caption(holding, _setting(3))
    assert "not defined" in figures.audit_caption(cached.r1smg_audit_point(1.0, 1e-5, 1.0, 2, seed=0), _setting(2))


def test_closer_test_figures_and_caption():
    rows, ceiling = cached.closer_test(1.0, 1e-5, 1.0, 100, 20_000, seed=0)
    curve = cached.closer_test_curve(1.0, 1e-5, 1.0)
    bars = figures.closer_test_figure(rows, ceiling, MECHANISMS, _setting(100))
    assert bars.layout.yaxis.type == "category"
    assert list(bars.data[0].y) == list(rows["label"])
    assert any(shape.x0 == pytest.approx(ceiling) for shape in bars.layout.shapes)
    lines = figures.closer_test_curve_figure(curve, rows, MECHANISMS, _setting(100))
    assert [t.name for t in lines.data][:4] == [
        "R1SMG, claimed (Ji & Li 2024)",
        "Gaussian with R1SMG's E‖n‖²",
        "Analytic Gaussian at (ε, δ)",
        "ceiling for any (ε, δ)-DP mechanism",
    ]
    sentences = figures.closer_test_caption(rows, ceiling, curve, _setting(100))
    assert "above that ceiling" in sentences[0]
    small_rows, _ = cached.closer_test(1.0, 1e-5, 1.0, 10, 20_000, seed=0)
    small = figures.closer_test_caption(small_rows, ceiling, curve, _setting(10))
    assert "not enough" in small[0] and "d = 17" in small[0]


def test_accuracy_first_table_caption_and_notes():
    frame = cached.accuracy_first(1e-5, 1.0, 2.0, 10, "one_coordinate", 1, 0.5, 10.0, "quantile", 0.05, "coordinate")
    table = figures.accuracy_first_table(frame, MECHANISMS, _setting())
    assert table.set_index("Mechanism").at["Analytic Gaussian", "ε needed"] == "0.71"
    caption = figures.accuracy_first_caption(frame, MECHANISMS, _setting(), 10.0, "quantile", "coordinate", 0.05)
    assert "R1SMG" not in caption and "Laplace" in caption
    assert "bounded data are left out of this ranking" in caption
    reasons, warnings = figures.accuracy_first_notes(frame, MECHANISMS, _setting())
    assert not reasons and len(warnings) == 1 and "not for use" in warnings[0]
    impossible = cached.accuracy_first(1e-5, 1.0, 2.0, 10, "one_coordinate", 1, 0.5, 1e-9, "rms", 0.05, "norm")
    text = figures.accuracy_first_caption(impossible, MECHANISMS, _setting(), 1e-9, "rms", "norm", 0.05)
    assert text.startswith("No mechanism")
    table = figures.accuracy_first_table(impossible, MECHANISMS, _setting())
    integer = impossible["mechanism"].map(lambda m: MECHANISMS[m].support == "integer").to_numpy()
    assert (table["ε needed"][~integer] == "—").all()
    # Integer noise is exactly 0 with high probability at large ε: only it meets an error of 1e-9.
    assert (table["ε needed"][integer] != "—").all()


def test_accuracy_first_answer_is_the_table_caption_and_notes_of_both_frames():
    """The cached answer says what the builders say of the two frames, and the other model keeps the data bounds."""
    arguments = (1e-5, 1.0, 2.0, 10)
    targets = (1, 0.5, 1.0, "quantile", 0.05, "coordinate")
    bounds = dict(data_lower=-2.0, data_upper=3.0)
    answer = cached.accuracy_first_answer(*arguments, "all_coordinates", "one_coordinate", *targets, **bounds)
    frame = cached.accuracy_first(*arguments, "all_coordinates", *targets, **bounds)
    other = cached.accuracy_first(*arguments, "one_coordinate", *targets, **bounds)
    pd.testing.assert_frame_equal(answer.frame, frame)
    setting = cached.make_setting(1.0, *arguments, "all_coordinates", 1, 0.5, **bounds)
    assert answer.caption == figures.accuracy_first_caption(
        frame, MECHANISMS, setting, 1.0, "quantile", "coordinate", 0.05, other
    )
    pd.testing.assert_frame_equal(answer.table, figures.accuracy_first_table(frame, MECHANISMS, setting))
    reasons, claims = figures.accuracy_first_notes(frame, MECHANISMS, setting)
    assert (answer.reasons, answer.claims) == (tuple(reasons), tuple(claims))
    # Under the other model the bounded-data mechanisms are valid, and their ε is that of the data
    # bounds [-2, 3] (ε ≈ 35 for the truncated GG), not of the default [0, 1] (met at the smallest ε).
    unit = cached.accuracy_first(*arguments, "one_coordinate", *targets)
    bounded = other["mechanism"].map(lambda m: MECHANISMS[m].uses_bounds).to_numpy()
    assert bounded.any() and np.isfinite(other["epsilon"][bounded]).all()
    assert (other["epsilon"][bounded].to_numpy() > 10 * unit["epsilon"][bounded].to_numpy()).all()


def test_shape_note_and_titles():
    assert "3 × 4" in figures.shape_note(3, 12)
    assert "MVG: 3 × d/3" in figures.setting_title(_setting(12, rows=3), 3)
    assert "Δ₁ = √d·Δ" in figures.setting_title(_setting(l1_model="all_coordinates"), 1)


def _figure_json(figure: go.Figure) -> dict:
    """The figure as Plotly's JSON object, keys sorted, without empty lists of layout items."""
    data = json.loads(figure.to_json())
    data["layout"] = {key: value for key, value in data["layout"].items() if value != []}
    return json.loads(json.dumps(data, sort_keys=True))


def _every_chart(mean_inputs) -> list[go.Figure]:
    curves, bounds, points, current = mean_inputs
    bands = cached.loss_bands(**SWEEP)
    rows, ceiling = cached.closer_test(1.0, 1e-5, 1.0, 100, 2_000, seed=0)
    return [
        figures.expected_loss_figure.build(curves, bounds, points, current, MECHANISMS, _setting(), 1),
        figures.loss_bands_figure.build(bands, points, MECHANISMS, _setting(), 1, relative=False),
        figures.loss_bands_figure.build(bands, points, MECHANISMS, _setting(), 1, relative=True),
        figures.true_delta_figure.build(
            cached.r1smg_true_delta_curve(1.0, 1e-5, 1.0),
            cached.r1smg_audit_point(1.0, 1e-5, 1.0, 10, seed=0),
            MECHANISMS,
            _setting(),
        ),
        figures.closer_test_figure.build(rows, ceiling, MECHANISMS, _setting(100)),
        figures.closer_test_curve_figure.build(
            cached.closer_test_curve(1.0, 1e-5, 1.0), rows, MECHANISMS, _setting(100)
        ),
    ]


def test_charts_built_without_validation_equal_their_validated_rebuild(mean_inputs):
    # The builders skip Plotly's per-property checks (_figure_of); a validated figure made from the
    # same JSON must accept every property (it raises on a misspelt one) and be the same figure.
    for figure in _every_chart(mean_inputs):
        validated = go.Figure(json.loads(figure.to_json()))
        assert validated.data and len(validated.data) == len(figure.data)
        assert _figure_json(validated) == _figure_json(figure)


def test_rows_are_the_records_pandas_gives():
    """figures.common.frame_rows is to_dict("records"), and the Overview's rows to_dict("index"), value
    for value and type for type."""
    import math

    import pandas as pd

    from gaussmech_ui.figures.common import frame_rows
    from gaussmech_ui.figures.overview import _rows as overview_rows

    frame = pd.DataFrame(
        dict(mechanism=["a", "b", None], epsilon=[0.5, float("nan"), 3.0], exact=[True, False, True], count=[1, 2, 3])
    )

    def assert_same(mine: dict, theirs: dict) -> None:
        assert list(mine) == list(theirs)
        for key in mine:
            assert type(mine[key]) is type(theirs[key]), key
            both_nan = isinstance(mine[key], float) and math.isnan(mine[key]) and math.isnan(theirs[key])
            assert both_nan or mine[key] == theirs[key], key

    expected = frame.to_dict("records")
    got = frame_rows(frame)
    assert len(got) == len(expected)
    for mine, theirs in zip(got, expected):
        assert_same(mine, theirs)
    indexed = frame.set_index("mechanism")
    pairs, by_index = overview_rows(indexed), indexed.to_dict("index")
    assert [key for key, _ in pairs] == list(by_index)
    for key, mine in pairs:
        assert_same(mine, by_index[key])
