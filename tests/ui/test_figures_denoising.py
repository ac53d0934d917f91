"""The denoising lab's builders (figures, tables, captions) and its cached helpers, without a page."""

from __future__ import annotations

import doctest
import math

import numpy as np
import plotly.graph_objects as go
import pytest

import gaussmech_ui.cached.denoising as cached
import gaussmech_ui.figures.denoising as figures
from gaussmech_core.histogram import (
    calibrate_histogram_noise,
    error_metrics,
    error_sweep,
    neighbour_model,
)
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting
from gaussmech_ui.downloads import csv_bytes
from gaussmech_ui.examples import EXAMPLES
from gaussmech_ui.format import format_ratio
from gaussmech_ui.uploads import make_histogram_data


def test_doctests_of_both_modules_pass():
    for module in (figures, cached):
        result = doctest.testmod(module)
        assert result.failed == 0
        assert result.attempted > 0


# --- comparison and error figures ---------------------------------------------------------------------


def _arrays(d=12, seed=0):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 20, d).astype(float)
    released = truth + rng.normal(0, 2, d)
    denoised = np.maximum(released, 0)
    return truth, released, denoised


def _comparison(truth, released, denoised, **kwargs):
    return figures.comparison_figure(
        truth,
        released,
        denoised,
        title="T",
        released_name="Released: aGM",
        denoised_name="Denoised: clip",
        released_color="#0072B2",
        **kwargs,
    )


def test_comparison_figure_1d_has_three_bar_panels_on_one_scale():
    truth, released, denoised = _arrays()
    figure = _comparison(truth, released, denoised)
    assert [trace.type for trace in figure.data] == ["bar", "bar", "bar"]
    for trace, values in zip(figure.data, (truth, released, denoised)):
        np.testing.assert_array_equal(trace.y, values)
        np.testing.assert_array_equal(trace.x, np.arange(1, 13))
    assert "teaching lab" in figure.data[0].name
    assert figure.layout.yaxis2.matches == "y" and figure.layout.yaxis3.matches == "y"
    low, high = figure.layout.yaxis.range
    assert low <= min(released.min(), 0) and high >= max(truth.max(), released.max())


def test_comparison_figure_shows_a_window_of_large_histograms():
    d = figures.MAX_BARS * 3
    truth = np.arange(d, dtype=float)
    figure = _comparison(truth, truth + 1, truth, first_bin=2501)
    x = np.asarray(figure.data[0].x)
    assert x[0] == 2501 and x.size == figures.MAX_BARS
    np.testing.assert_array_equal(figure.data[1].y, truth[2500 : 2500 + figures.MAX_BARS] + 1)
    assert f"showing 2,501–{2500 + figures.MAX_BARS:,} of {d:,}" in figure.layout.xaxis3.title.text
    # A window past the end is moved back inside the data.
    assert figures.bar_window(d, d) == slice(d - figures.MAX_BARS, d)


def test_comparison_figure_2d_draws_three_heat_maps_with_one_colour_scale():
    truth = np.arange(12, dtype=float).reshape(3, 4)
    released = truth - 5
    figure = _comparison(truth, released, truth, row_labels=("a", "b", "c"))
    assert [trace.type for trace in figure.data] == ["heatmap"] * 3
    assert {trace.coloraxis for trace in figure.data} == {"coloraxis"}
    np.testing.assert_array_equal(np.asarray(figure.data[1].z), released)
    assert figure.layout.coloraxis.cmin == -5 and figure.layout.coloraxis.cmax == 11
    assert "Released: aGM" in figure.layout.title.text  # the details move under the title
    assert figure.data[0].customdata[2][1] == "row c, column 2"


def test_large_grids_are_shown_as_block_means():
    side = 2 * figures.MAX_HEATMAP_SIDE + 1
    truth = np.arange(side * side, dtype=float).reshape(side, side)
    figure = _comparison(truth, truth, truth)
    z = np.asarray(figure.data[0].z)
    assert z.shape == (side // 3 + 1, side // 3 + 1)
    assert z[0, 0] == pytest.approx(truth[:3, :3].mean())
    assert z[-1, -1] == pytest.approx(truth[399:, 399:].mean())  # a partial (2×2) block averages only its cells
    assert "mean of 3×3 cells" in figure.layout.annotations[0].text


def test_error_figure_shows_estimate_minus_truth():
    truth, released, denoised = _arrays()
    figure = figures.error_figure(
        truth, released, denoised, title="E", released_name="R", denoised_name="D", released_color="#0072B2"
    )
    np.testing.assert_allclose(figure.data[0].y, released - truth)
    np.testing.assert_allclose(figure.data[1].y, denoised - truth)
    grid = figures.error_figure(
        truth.reshape(3, 4),
        released.reshape(3, 4),
        denoised.reshape(3, 4),
        title="E",
        released_name="R",
        denoised_name="D",
        released_color="#0072B2",
    )
    largest = np.abs(released - truth).max()
    assert grid.layout.coloraxis.cmin == pytest.approx(-largest) and grid.layout.coloraxis.cmax == pytest.approx(
        largest
    )


def test_labels_from_a_file_are_inert_in_hover_and_ticks():
    truth, released, denoised = _arrays(d=3)
    labels = ("<b>bold</b>", "=cmd", "ok")
    figure = _comparison(truth, released, denoised, labels=labels)
    assert list(figure.data[0].customdata) == ["&lt;b&gt;bold&lt;/b&gt;", "=cmd", "ok"]
    assert figure.layout.xaxis3.ticktext[0] == "&lt;b&gt;bold&lt;/b&gt;"


# --- tables and downloads ---------------------------------------------------------------------------


def test_values_and_published_frames_hold_every_bin_and_escape_formula_labels():
    truth, released, denoised = _arrays(d=3)
    labels = ("=HYPERLINK(1)", "-5", "@x")
    frame = figures.values_frame(truth, released, denoised, labels=labels)
    assert list(frame.columns) == ["bin", "true", "released", "denoised", "released error", "denoised error"]
    np.testing.assert_allclose(frame["denoised error"], denoised - truth)
    published = figures.published_frame(released, denoised, labels=labels)
    assert list(published.columns) == ["bin", "released", "denoised"] and "true" not in published
    text = csv_bytes(published).decode("utf-8-sig")
    lines = text.splitlines()
    assert lines[1].startswith("'=HYPERLINK(1),") and lines[2].startswith("'-5,") and lines[3].startswith("'@x,")
    # Numbers stay numbers: a negative release is written as a number, not escaped.
    negative = figures.published_frame(np.array([-1.5]), np.array([0.0]))
    assert csv_bytes(negative).decode("utf-8-sig").splitlines()[1] == "1,-1.5,0.0"


def test_values_frame_of_a_grid_is_long():
    grid = np.arange(6, dtype=float).reshape(2, 3)
    frame = figures.values_frame(grid, grid + 1, grid, row_labels=("s", "n"), column_labels=("w", "m", "e"))
    assert len(frame) == 6
    assert frame.iloc[4][["row", "column", "released"]].tolist() == ["n", "m", 5.0]


def test_metrics_frames_give_raw_denoised_improvement_and_relative_errors():
    truth = np.array([3.0, 4.0, 0.0, 0.0])
    raw = error_metrics(truth, truth + np.array([2.0, -2.0, 2.0, -2.0]))
    denoised = error_metrics(truth, truth + np.array([1.0, 0.0, 0.0, 0.0]))
    exact, display = figures.metrics_frames(truth, raw, denoised)
    assert exact["metric"].tolist() == [
        "MSE",
        "l1 distance",
        "KL divergence",
        "max error",
        "relative l2 error",
        "relative l1 error",
    ]
    mse = exact.set_index("metric").loc["MSE"]
    assert mse["released"] == 4.0 and mse["denoised"] == 0.25 and mse["improvement"] == 16.0
    relative = exact.set_index("metric").loc["relative l2 error"]
    assert relative["released"] == pytest.approx(4.0 / 5.0) and relative["denoised"] == pytest.approx(1.0 / 5.0)
    shown = display.set_index("Metric")
    assert shown.loc["MSE", "Improvement (raw ÷ denoised)"] == "16×"
    assert shown.loc["relative l2 error", "Released (raw)"] == "80%"


def test_metrics_frames_show_a_dash_where_kl_does_not_apply():
    truth = np.array([1.0, -2.0, 0.5])
    metrics = error_metrics(truth, truth + 0.1)
    exact, display = figures.metrics_frames(truth, metrics, metrics)
    assert math.isnan(exact.set_index("metric").loc["KL divergence", "improvement"])
    assert display.set_index("Metric").loc["KL divergence", "Released (raw)"] == "—"


def test_relative_error_of_each_metric():
    truth = np.array([3.0, -4.0])
    assert figures.relative_error("mse", 12.5, truth) == pytest.approx(1.0)
    assert figures.relative_error("l1", 3.5, truth) == pytest.approx(0.5)
    assert figures.relative_error("max", 2.0, truth) == pytest.approx(0.5)
    assert math.isnan(figures.relative_error("kl", 0.1, truth))
    assert math.isnan(figures.relative_error("mse", 1.0, np.zeros(3)))


# --- captions -----------------------------------------------------------------------------------------


def _caption(truth, raw_noise, denoised_noise, steps=("soft_threshold",), noise_std=1.0):
    return figures.release_caption(
        mechanism_name="Analytic Gaussian",
        epsilon=1.0,
        delta=1e-5,
        noise_std=noise_std,
        sensitivity_phrase="Δ₂ = 1",
        pure=False,
        truth=truth,
        raw_metrics=error_metrics(truth, truth + raw_noise),
        denoised_metrics=error_metrics(truth, truth + denoised_noise),
        steps=steps,
    )


def test_release_caption_says_how_much_denoising_removed():
    truth = np.array([10.0, 0.0, 0.0, 0.0])
    text = _caption(truth, np.array([2.0, 2.0, -2.0, 2.0]), np.array([1.0, 0.0, 0.0, 0.0]))
    assert "standard deviation 1 to every count (Δ₂ = 1)" in text
    assert "off by 2 per bin" in text and "relative l2 error of 40%" in text
    assert "the MSE is 16× smaller, at no privacy cost" in text


def test_release_caption_says_when_denoising_made_it_worse_or_nothing_is_chosen():
    truth = np.array([10.0, 0.0, 0.0, 0.0])
    worse = _caption(truth, np.array([1.0, 0.0, 0.0, 0.0]), np.array([2.0, 2.0, 2.0, 2.0]))
    assert "16× larger" in worse and "does not suit these data" in worse
    nothing = _caption(truth, np.array([1.0, 0.0, 0.0, 0.0]), np.array([1.0, 0.0, 0.0, 0.0]), steps=())
    assert "No denoising is chosen" in nothing
    laplace = figures.release_caption(
        mechanism_name="Laplace",
        epsilon=0.5,
        delta=1e-5,
        noise_std=1.0,
        sensitivity_phrase="Δ₁ = 1",
        pure=True,
        truth=truth,
        raw_metrics=error_metrics(truth, truth),
        denoised_metrics=error_metrics(truth, truth),
        steps=(),
    )
    assert "Laplace at ε = 0.5 adds" in laplace and "δ" not in laplace.split("adds")[0]


def test_release_caption_points_to_the_error_chart_when_noise_is_invisible():
    truth = np.array([6000.0, 0.0, 0.0, 0.0])
    text = _caption(truth, np.array([3.0, 3.0, -3.0, 3.0]), np.array([1.0, 0.0, 0.0, 0.0]), noise_std=3.0)
    assert "too small to see next to the bars" in text
    visible = _caption(
        np.array([10.0, 0.0, 0.0, 0.0]), np.array([3.0, 3.0, -3.0, 3.0]), np.array([1.0, 0.0, 0.0, 0.0]), noise_std=3.0
    )
    assert "too small to see" not in visible


def test_calibration_sentence_names_the_sensitivity_used():
    gaussian = calibrate_histogram_noise("analytic_gaussian", 1.0, 1e-5, "replace")
    text = figures.calibration_sentence(gaussian, "Analytic Gaussian", "σ")
    assert "σ = 5.28" in text and "Δ₂ = 1.41" in text
    gg = calibrate_histogram_noise("generalized_gaussian", 1.0, 1e-5, "replace", order=3.0)
    assert "Δ = 1 (2 coordinates change" in figures.calibration_sentence(gg, "GG", "b")


# --- error against epsilon ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sweep():
    counts = np.array([30.0, 0.0, 0.0, 5.0, 0.0, 0.0, 0.0, 1.0])
    return counts, error_sweep(
        counts,
        ["classical_gaussian"],
        [(), ("soft_threshold", "simplex")],
        [0.1, 0.5, 2.0],
        1e-5,
        "add_remove",
        repetitions=30,
        seed=3,
        metrics=("mse", "l1", "kl", "max"),
        total=counts.sum(),
    )


def test_sweep_figure_draws_mean_and_band_per_mechanism_and_pipeline(sweep):
    counts, result = sweep
    figure = figures.sweep_figure(
        [result], MECHANISMS, "mse", truth=counts, title="S", current_epsilon=0.5, current=[result]
    )
    lines = [trace for trace in figure.data if trace.mode == "lines+markers"]
    assert [trace.name for trace in lines] == [
        "Classical Gaussian, raw release (no denoising)",
        "Classical Gaussian, Soft thresholding → Project onto counts with total n",
    ]
    assert lines[0].line.dash == "dot" and lines[1].line.dash == "solid"
    assert lines[0].line.color == MECHANISMS["classical_gaussian"].color
    np.testing.assert_allclose(np.asarray(lines[1].y, dtype=float)[:2], result.mean[0, 0, 1, :2])
    assert math.isnan(float(lines[1].y[2])), "no point where the classical Gaussian is not valid (ε ≥ 1)"
    bands = [trace for trace in figure.data if trace.fill == "tonexty"]
    assert len(bands) == 2
    np.testing.assert_allclose(np.asarray(bands[0].y, dtype=float)[:2], result.lower[0, 0, 0, :2])
    assert figure.layout.xaxis.type == "log" and figure.layout.yaxis.type == "log"
    assert figure.layout.yaxis.title.text == figures.METRIC_AXIS_TITLES["mse"]
    assert any("current ε = 0.5" in annotation.text for annotation in figure.layout.annotations)


def test_sweep_figure_leaves_out_zero_errors_on_the_log_axis(sweep):
    counts, result = sweep
    figure = figures.sweep_figure([result], MECHANISMS, "kl", truth=counts, title="S", current_epsilon=1.0)
    for trace in figure.data:
        values = np.asarray(trace.y, dtype=float)
        assert not np.any(values <= 0)


def test_sweep_frame_has_one_row_per_point_with_exact_values(sweep):
    _, result = sweep
    frame = figures.sweep_frame([result], MECHANISMS)
    assert len(frame) == 2 * 4 * 3
    row = frame[
        (frame["pipeline"] == "raw release (no denoising)")
        & (frame["metric"] == "l1 distance")
        & (frame["epsilon"] == 0.1)
    ].iloc[0]
    assert row["mean"] == result.mean[1, 0, 0, 0] and row["valid"]
    assert not frame[frame["epsilon"] == 2.0]["valid"].any()


def test_sweep_caption_gives_the_improvement_range_and_the_gaps(sweep):
    counts, result = sweep
    text = figures.sweep_caption([result], MECHANISMS, "mse", current=[result], current_epsilon=0.5)
    factors = result.improvement("mse")[0, :2]
    assert text.startswith(
        "- **Classical Gaussian**: Soft thresholding → Project onto counts with total n divides the MSE"
    )
    assert format_ratio(factors.min()) in text and format_ratio(factors.max()) in text
    assert "No curve for ε from 2 to 2: the guarantee does not hold there." in text
    raw_only = error_sweep(counts, ["laplace"], [()], [1.0], 1e-5, "add_remove", repetitions=5, seed=1)
    assert figures.sweep_caption([raw_only], MECHANISMS, "mse") == ""


# --- the page's choices -------------------------------------------------------------------------------


def test_sweep_pipelines_compare_the_chosen_one_and_optionally_every_estimator():
    estimators = ("none", "posterior_mean", "soft_threshold")
    assert figures.sweep_pipelines(("soft_threshold", "simplex", "round"), estimators, False) == (
        (),
        ("soft_threshold", "simplex", "round"),
    )
    assert figures.sweep_pipelines(("soft_threshold", "simplex"), estimators, True) == (
        (),
        ("soft_threshold", "simplex"),
        ("simplex",),
        ("posterior_mean", "simplex"),
    )
    assert figures.sweep_pipelines((), estimators, True) == ((), ("posterior_mean",), ("soft_threshold",))


def test_step_fits_and_default_estimator_follow_the_data():
    from gaussmech_core.denoise import DENOISERS

    grid = make_histogram_data(np.ones((4, 4)))
    vector = make_histogram_data(np.array([0.0, 5.0]))  # half the bins empty: sparse, soft thresholding suits it
    mean = make_histogram_data(np.array([1.0, -1.0, 0.5]), nonnegative=False)
    fitting = [step for step in figures.ESTIMATOR_STEPS if figures.step_fits(DENOISERS[step], vector.counts.shape)]
    assert "james_stein" not in fitting and "wavelet_soft_threshold" not in fitting
    assert figures.default_estimator(grid, figures.ESTIMATOR_STEPS) == "wavelet_soft_threshold"
    assert figures.default_estimator(vector, fitting) == "soft_threshold"
    assert figures.default_estimator(make_histogram_data(np.ones(2)), fitting) == "none"  # dense: step 2 does the work
    assert figures.default_estimator(mean, figures.ESTIMATOR_STEPS) == "james_stein_plus"
    assert figures.default_estimator(mean, ("none", "empirical_bayes")) == "empirical_bayes"


def test_applicable_metrics_leave_out_kl_for_values_that_are_not_a_histogram():
    assert figures.applicable_metrics(make_histogram_data([1.0, 2.0])) == ("mse", "l1", "kl", "max")
    assert figures.applicable_metrics(make_histogram_data([0.0, 0.0])) == ("mse", "l1", "max")


def test_link_problems_name_the_key_and_what_is_allowed():
    rules = {
        "denoising_bins": ("int", (2, 100)),
        "denoising_round": ("bool", ()),
        "denoising_mechanism": ("choice", ("Laplace", "Analytic Gaussian")),
    }
    assert (
        figures.link_problems(
            {"denoising_bins": "50", "denoising_round": "False", "denoising_mechanism": "Laplace"}, rules
        )
        == []
    )
    problems = figures.link_problems(
        {
            "denoising_bins": "500",
            "denoising_round": "maybe",
            "denoising_mechanism": ["Laplace", "=evil"],
            "other": "x",
        },
        rules,
    )
    assert problems == [
        "The link sets denoising_bins=500, but it must be a whole number from 2 to 100. Using this page's default instead.",
        "The link sets denoising_round=maybe, but it must be true or false. Using this page's default instead.",
        "The link sets denoising_mechanism==evil, but it must be one of 'Laplace', 'Analytic Gaussian'. "
        "Using this page's default instead.",
    ]
    assert figures.link_problems({"denoising_bins": "2.5"}, rules)


def test_markdown_escape_makes_file_text_inert():
    from gaussmech_ui.format import escape_markdown

    assert escape_markdown("**x** $y$ [a](b)") == r"\*\*x\*\* \$y\$ \[a\](b)"
    assert not hasattr(figures, "markdown_escape"), "one Markdown escaper, in gaussmech_ui.format"
    assert figures.html_escape("<img src=x>") == "&lt;img src=x&gt;"


def test_preview_frame_keeps_labels_as_text():
    data = make_histogram_data([1.0, 2.0], labels=("=1+1", "b"), column="count")
    frame = figures.preview_frame(data)
    assert frame["bin"].tolist() == ["=1+1", "b"] and frame["count"].tolist() == [1.0, 2.0]
    grid = figures.preview_frame(make_histogram_data(np.arange(30.0).reshape(15, 2)))
    assert grid.shape == (10, 3) and grid.columns.tolist() == ["row", "1", "2"]


def test_title_setting_lists_the_parameters():
    setting = Setting(epsilon=0.5, delta=1e-6, order=3.0)
    assert figures.title_setting(setting, neighbour_model("replace"), MECHANISMS["laplace"], 4) == (
        "ε = 0.5, δ = 1e-6, Δ₂ = 1.41, Δ₁ = 2, release seed 4"
    )
    assert "p = 3" in figures.title_setting(setting, neighbour_model("add_remove"))
    assert "p = 3" in figures.title_setting(setting, neighbour_model("add_remove"), MECHANISMS["generalized_gaussian"])


# --- cached helpers -----------------------------------------------------------------------------------


def test_epsilon_grid_contains_the_current_epsilon_range_and_its_ends():
    for epsilon in (1e-6, 0.003, 1.0, 70.0, 1000.0):
        low, high = cached.epsilon_grid_exponents(epsilon)
        grid = cached.epsilon_grid(low, high)
        assert grid[0] <= epsilon <= grid[-1]
        assert grid[0] == pytest.approx(10.0**low) and grid[-1] == pytest.approx(10.0**high)
        assert len(grid) == (high - low) * cached.POINTS_PER_DECADE + 1
    assert cached.epsilon_grid_exponents(0.5) == cached.epsilon_grid_exponents(5.0), "the axis stays put"


def test_each_mechanism_sweep_has_its_own_stream_keyed_by_id():
    counts = np.array([9.0, 0.0, 2.0, 0.0, 5.0])
    arguments = (2.0, ((),), (0.5,), 1e-5, 1, 1.0, 30, ("mse",), None, None)
    laplace = cached.mechanism_sweep(counts, "laplace", *arguments)
    gaussian = cached.mechanism_sweep(counts, "analytic_gaussian", *arguments)
    direct = error_sweep(
        counts, ["analytic_gaussian", "laplace"], [()], [0.5], 1e-5, "add_remove", 30, cached.SWEEP_BASE_SEED
    )
    # The same numbers alone or next to another mechanism, in either order: streams follow the id.
    np.testing.assert_array_equal(direct.mean[:, 1], laplace.mean[:, 0])
    np.testing.assert_array_equal(direct.mean[:, 0], gaussian.mean[:, 0])


def test_sweep_units_and_seconds_grow_with_every_factor():
    base = cached.sweep_units(100, 10, 5, 2, 1)
    assert cached.sweep_units(200, 10, 5, 2, 1) == 2 * base == cached.sweep_units(100, 10, 5, 2, 2)
    assert cached.sweep_seconds(2 * base) == 2 * cached.sweep_seconds(base)


def test_parsed_upload_returns_data_or_the_message():
    data, problem = cached.parsed_upload(b"fruit,count\napple,3\npear,5\n", "f.csv", None, None, None)
    assert problem == "" and data.counts.tolist() == [3.0, 5.0]
    data, problem = cached.parsed_upload(b"a,b\n1,2\n3\n4,5,6,7\n", "bad.csv", None, None, None)
    assert data is None and "line" in problem.lower()
    data, problem = cached.parsed_upload(b"count\n3\n-1\n", "neg.csv", None, None, None)
    assert data is None and "line 3" in problem.lower()


def test_example_data_is_the_example_builder():
    data = cached.example_data("sparse_dirichlet", (("bins", 50), ("records", 300), ("seed", 2)))
    expected = EXAMPLES["sparse_dirichlet"].build(bins=50, records=300, seed=2)
    np.testing.assert_array_equal(data.counts, expected.counts)
    grid = cached.example_data("carshare", (("grid", (4, 5)), ("weight", "locations")))
    assert grid.counts.shape == (4, 5) and grid.total == 249


def test_mechanism_sweep_equals_the_core_sweep_with_its_seed():
    counts = np.array([9.0, 0.0, 2.0, 0.0])
    result = cached.mechanism_sweep(
        counts, "laplace", 2.0, ((), ("nonnegative",)), (0.5, 1.0), 1e-5, 2, 1.0, 15, ("mse", "l1"), None, None
    )
    direct = error_sweep(
        counts,
        [("laplace", 2.0)],
        [(), ("nonnegative",)],
        [0.5, 1.0],
        1e-5,
        "replace",
        15,
        cached.SWEEP_BASE_SEED,
        metrics=("mse", "l1"),
    )
    np.testing.assert_array_equal(result.mean, direct.mean)
    assert isinstance(
        figures.sweep_figure([result], MECHANISMS, "l1", truth=counts, title="x", current_epsilon=1.0), go.Figure
    )


def test_a_sweep_is_keyed_only_on_the_parameters_its_mechanism_reads():
    """Laplace reads neither δ nor p: one cached sweep for every δ and p, equal to the core's at each."""
    counts = np.array([4.0, 1.0, 0.0, 7.0])
    arguments = dict(
        pipelines=((),),
        epsilons=(0.5, 2.0),
        changed_coordinates=1,
        coordinate_sensitivity=1.0,
        repetitions=12,
        metrics=("mse",),
        total=None,
        prior=None,
    )
    first = cached.mechanism_sweep(counts, "laplace", 2.0, delta=1e-5, **arguments)
    second = cached.mechanism_sweep(counts, "laplace", 3.5, delta=1e-9, **arguments)
    direct = error_sweep(counts, ["laplace"], [()], [0.5, 2.0], 1e-9, "add_remove", 12, cached.SWEEP_BASE_SEED)
    np.testing.assert_array_equal(second.mean, direct.mean)
    np.testing.assert_array_equal(first.mean, second.mean)
    # The analytic Gaussian reads δ: a new δ is a new sweep, with larger noise.
    loose = cached.mechanism_sweep(counts, "analytic_gaussian", 2.0, delta=1e-3, **arguments)
    tight = cached.mechanism_sweep(counts, "analytic_gaussian", 2.0, delta=1e-9, **arguments)
    assert np.all(tight.noise_std > loose.noise_std)
