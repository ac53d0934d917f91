"""gaussmech_ui.figures.light: the charts built as plain dicts are the charts Plotly would validate.

Each builder that uses :func:`gaussmech_ui.figures.light.new_figure` is run twice on the page's
real inputs: once as shipped (dicts, no validation) and once with ``go.Figure`` swapped in (every
property validated by Plotly); the two must serialise to the same JSON.
"""

from __future__ import annotations

import json
import logging

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest
from plotly.subplots import make_subplots

from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting
from gaussmech_ui.cached import distributions as cached_distributions, tails as cached_tails
from gaussmech_ui.figures import (
    denoising as denoising_figures,
    distributions as distribution_figures,
    light,
    tails as tail_figures,
)
from gaussmech_ui.figures.denoising import MAX_BARS, MAX_HEATMAP_SIDE
from gaussmech_ui.figures.light import LightFigure

logging.getLogger("streamlit").setLevel(logging.ERROR)  # "No runtime found" outside a server

SETTING = Setting(epsilon=1.0, delta=1e-5, dim=10)
ARGS = dict(
    epsilon=1.0,
    delta=1e-5,
    sensitivity=1.0,
    order=2.0,
    dim=10,
    l1_model="one_coordinate",
    data_lower=0.0,
    data_upper=1.0,
)


def _both(monkeypatch, build):
    made = []
    lightweight = light.new_figure, light.new_subplots
    monkeypatch.setattr(light, "new_figure", lambda: made.append(1) or lightweight[0]())
    monkeypatch.setattr(
        light, "new_subplots", lambda *args, **kwargs: made.append(1) or lightweight[1](*args, **kwargs)
    )
    light_json = pio.to_json(build(), validate=False)
    assert made, "the builder does not use light.new_figure or light.new_subplots"
    monkeypatch.setattr(light, "new_figure", go.Figure)
    monkeypatch.setattr(light, "new_subplots", make_subplots)
    validated = build()
    assert not isinstance(validated, LightFigure)
    return json.loads(light_json), json.loads(pio.to_json(validated))


@pytest.mark.parametrize("vector", [False, True])
@pytest.mark.parametrize("floor", [1e-6, 1e-300])
def test_the_tail_chart_is_the_validated_chart(monkeypatch, vector, floor):
    if vector:
        curves, monte_carlo, vectors, _ = cached_tails.norm_tail_curves(**ARGS, every_variant=False, floor=floor)
        bounds = cached_tails.norm_bounds(**ARGS, every_variant=False, alpha=0.05)["bound"].to_dict()
        extra = dict(monte_carlo=monte_carlo, monte_carlo_size=vectors)
    else:
        curves, _ = cached_tails.coordinate_tail_curves(**ARGS, every_variant=False, floor=floor)
        bounds = cached_tails.coordinate_bounds(**ARGS, every_variant=False, alpha=0.05)["bound"].to_dict()
        extra = {}
    shipped, validated = _both(
        monkeypatch,
        lambda: tail_figures.tail_figure(
            curves, MECHANISMS, SETTING, alpha=0.05, bounds=bounds, vector=vector, **extra
        ),
    )
    assert shipped == validated


@pytest.mark.parametrize("log_density", [False, True])
@pytest.mark.parametrize("every_variant", [False, True])
def test_the_density_chart_is_the_validated_chart(monkeypatch, log_density, every_variant):
    curves, _, _ = cached_distributions.density_curves(
        **ARGS, every_variant=every_variant, reference="analytic_gaussian"
    )
    shipped, validated = _both(
        monkeypatch,
        lambda: distribution_figures.density_figure(curves, MECHANISMS, SETTING, log_density=log_density),
    )
    assert shipped == validated


@pytest.mark.parametrize("mechanism_id", ["analytic_gaussian", "discrete_gaussian", "bit_gg", "r1smg"])
def test_the_sample_chart_is_the_validated_chart(monkeypatch, mechanism_id):
    histogram, curve, _ = cached_distributions.sample_histogram(mechanism_id, **ARGS, size=1000, seed=7)
    shipped, validated = _both(
        monkeypatch,
        lambda: distribution_figures.sample_histogram_figure(
            histogram, curve, MECHANISMS[mechanism_id], SETTING, size=1000, seed=7
        ),
    )
    assert shipped == validated


def test_a_light_figure_takes_only_typed_dict_traces():
    figure = LightFigure()
    with pytest.raises(TypeError, match="type"):
        figure.add_trace(go.Scatter(x=[1], y=[2]))
    with pytest.raises(TypeError, match="type"):
        figure.add_trace(dict(x=[1], y=[2]))


def test_axis_updates_reach_every_axis_of_that_letter():
    figure = LightFigure()
    figure.layout = dict(yaxis=dict(type="log"), yaxis2=dict(type="linear"), xaxis=dict(type="log"))
    figure.update_yaxes(dtick=2)
    assert figure.layout["yaxis"] == dict(type="log", dtick=2) and figure.layout["yaxis2"]["dtick"] == 2
    assert "dtick" not in figure.layout["xaxis"]


def test_a_panel_is_addressed_as_in_plotly_and_a_wrong_one_is_refused():
    figure = light.new_subplots(rows=2, cols=2, subplot_titles=("a", "", "c"))
    assert [annotation["text"] for annotation in figure.layout["annotations"]] == ["a", "c"]  # no empty title
    figure.add_trace(dict(type="bar", x=[1], y=[2]), row=2, col=1)
    assert (figure.data[0]["xaxis"], figure.data[0]["yaxis"]) == ("x3", "y3")
    figure.update_yaxes(title_text="count", row=2)
    assert figure.layout["yaxis3"]["title"] == {"text": "count"} and figure.layout["yaxis4"]["title"] == {
        "text": "count"
    }
    assert "title" not in figure.layout["yaxis"]
    figure.update_xaxes(showgrid=False, title=dict(font=dict(size=3)))
    figure.update_xaxes(title_text="bin", showgrid=None)
    assert figure.layout["xaxis2"]["title"] == {"text": "bin", "font": {"size": 3}}
    assert "showgrid" not in figure.layout["xaxis2"]  # None: back to the default, as in Plotly
    with pytest.raises(ValueError, match="row must be from 1 to 2"):
        figure.add_trace(dict(type="bar", x=[1], y=[2]), row=3, col=1)
    with pytest.raises(ValueError, match="both row and col"):
        figure.add_trace(dict(type="bar", x=[1], y=[2]), row=1)
    with pytest.raises(ValueError, match="no subplots"):
        LightFigure().update_xaxes(row=1, col=1, showgrid=False)


def test_a_named_colour_scale_is_spelled_out_as_plotly_validates_it():
    scale = light.colorscale("Viridis")
    assert scale == [list(stop) for stop in go.Layout(coloraxis=dict(colorscale="Viridis")).coloraxis.colorscale]
    scale[0][1] = "#000000"  # a caller's copy: the next one is unchanged
    assert light.colorscale("Viridis")[0][1] == "#440154"


@pytest.mark.parametrize("mode", ["equal_variance", "calibrated"])
def test_the_gg_family_chart_is_the_validated_chart(monkeypatch, mode):
    curves, styles, _, _ = cached_distributions.gg_family_curves(**ARGS, mode=mode)
    shipped, validated = _both(
        monkeypatch, lambda: distribution_figures.gg_family_figure(curves, styles, SETTING, mode=mode)
    )
    assert shipped == validated


@pytest.mark.parametrize("every_variant", [False, True])
def test_the_profile_chart_is_the_validated_chart(monkeypatch, every_variant):
    from gaussmech_ui.cached import profiles as cached_profiles
    from gaussmech_ui.figures import profiles as profile_figures

    curves, claimed, _, _ = cached_profiles.profile_curves(**ARGS, every_variant=every_variant)
    shipped, validated = _both(
        monkeypatch, lambda: profile_figures.profile_figure(curves, MECHANISMS, SETTING, claimed=claimed)
    )
    assert shipped == validated


@pytest.mark.parametrize("log_density", [False, True])
def test_the_privacy_loss_chart_is_the_validated_chart(monkeypatch, log_density):
    from gaussmech_ui.cached import profiles as cached_profiles
    from gaussmech_ui.figures import profiles as profile_figures

    frame, numbers = cached_profiles.privacy_loss_frame(**ARGS)
    shipped, validated = _both(
        monkeypatch,
        lambda: profile_figures.privacy_loss_figure(frame, SETTING, **numbers, log_density=log_density),
    )
    assert shipped == validated


@pytest.mark.parametrize("type_one_error", [0.05, 1e-3])
def test_the_tradeoff_chart_is_the_validated_chart(monkeypatch, type_one_error):
    from gaussmech_ui.cached import profiles as cached_profiles
    from gaussmech_ui.figures import profiles as profile_figures

    frame, numbers = cached_profiles.tradeoff_frame(**ARGS, type_one_error=type_one_error)
    shipped, validated = _both(
        monkeypatch,
        lambda: profile_figures.tradeoff_figure(
            frame,
            SETTING,
            mu=numbers["mu"],
            alpha=type_one_error,
            gaussian_beta=numbers["gaussian_beta"],
            region_beta=numbers["region_beta"],
        ),
    )
    assert shipped == validated


@pytest.mark.parametrize("k", [1, 10, 1000])
def test_the_composition_charts_are_the_validated_charts(monkeypatch, k):
    from gaussmech_ui.cached import profiles as cached_profiles
    from gaussmech_ui.figures import profiles as profile_figures

    frame = cached_profiles.composition_frame(**ARGS)
    shipped, validated = _both(
        monkeypatch, lambda: profile_figures.composition_figure(frame, SETTING, total_delta_text="naive: (kε, kδ)", k=k)
    )
    assert shipped == validated
    monkeypatch.undo()
    per_release = cached_profiles.per_release_frame(SETTING.epsilon, SETTING.delta, SETTING.sensitivity)
    shipped, validated = _both(monkeypatch, lambda: profile_figures.per_release_sigma_figure(per_release, SETTING, k=k))
    assert shipped == validated


@pytest.mark.parametrize("every_variant", [False, True])
@pytest.mark.parametrize(
    "setting",
    [SETTING, Setting(epsilon=2e-5, delta=1e-10, dim=300, order=1.5), Setting(epsilon=700.0, delta=0.1, dim=1)],
    ids=["default", "small-eps", "large-eps"],
)
def test_the_overview_charts_are_the_validated_charts(monkeypatch, setting, every_variant):
    from gaussmech_ui.cached import overview as cached_overview
    from gaussmech_ui.cached.arguments import setting_arguments
    from gaussmech_ui.figures import overview as overview_figures

    table = cached_overview.calibration_table(**setting_arguments(setting))
    low, high = cached_overview.epsilon_grid_exponents(setting.epsilon)
    sweep = cached_overview.std_sweep(**setting_arguments(setting, epsilon=False), low_exponent=low, high_exponent=high)
    current = table["coordinate_std"].where(table["valid"]).to_dict()
    shipped, validated = _both(
        monkeypatch,
        lambda: overview_figures.std_vs_epsilon_figure(
            sweep, MECHANISMS, setting, current, every_variant=every_variant
        ),
    )
    assert shipped == validated
    ratios = cached_overview.variance_ratio_frame(
        cached_overview.ratio_deltas(setting.delta), cached_overview.ratio_grid_exponent(setting.epsilon)
    )
    ratio = overview_figures.current_variance_ratio(table)
    shipped, validated = _both(
        monkeypatch,
        lambda: overview_figures.variance_ratio_figure(ratios, setting.epsilon, setting.delta, ratio),
    )
    assert shipped == validated


# --- the denoising lab ------------------------------------------------------------------------------


def _denoising_inputs(shape, seed=0):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 40, shape).astype(float)
    released = truth + rng.normal(0.0, 3.0, shape)
    return truth, released, np.maximum(released, 0.0)


DENOISING_SHAPES = {
    "1d-small": (12,),  # every bin shown, with the file's labels as ticks
    "1d-windowed": (3 * MAX_BARS + 7,),  # a window of MAX_BARS bins from bin 2,501
    "2d": (6, 9),
    "2d-block-means": (2 * MAX_HEATMAP_SIDE + 1, 7),  # drawn as means of 3 × 3 cells
}


def _denoising_labels(shape) -> dict:
    if len(shape) == 2:
        return dict(row_labels=[f"r<{i}>" for i in range(shape[0])], column_labels=[f"c{j}" for j in range(shape[1])])
    if shape[0] <= 30:
        return dict(labels=[f"bin <{i}> & co" for i in range(shape[0])])
    return dict(first_bin=2501)


@pytest.mark.parametrize("shape", DENOISING_SHAPES.values(), ids=DENOISING_SHAPES.keys())
@pytest.mark.parametrize("builder", ["comparison_figure", "error_figure"])
def test_the_denoising_charts_are_the_validated_charts(monkeypatch, shape, builder):
    truth, released, denoised = _denoising_inputs(shape)
    build = getattr(denoising_figures, builder)
    shipped, validated = _both(
        monkeypatch,
        lambda: build(
            truth,
            released,
            denoised,
            title="True & released<br><sup>ε = 1, δ = 1e-5</sup>",
            released_name="Released: analytic Gaussian",
            denoised_name="Denoised: soft thresholding",
            released_color=MECHANISMS["analytic_gaussian"].color,
            **_denoising_labels(shape),
        ),
    )
    assert shipped == validated
    assert shipped["data"] and shipped["layout"]["template"] == validated["layout"]["template"]


@pytest.mark.parametrize("with_current", [False, True])
def test_the_denoising_sweep_chart_is_the_validated_chart(monkeypatch, with_current):
    from gaussmech_core.histogram import error_sweep

    counts = _denoising_inputs((30,))[0]
    pipelines = [(), ("soft_threshold", "simplex")]

    def sweep(mechanism, epsilons):
        return error_sweep(
            counts,
            [(mechanism, 2.0)],
            pipelines,
            epsilons,
            1e-5,
            "replace",
            6,
            1,
            metrics=("mse", "kl"),
            total=counts.sum(),
        )

    mechanisms = ("analytic_gaussian", "laplace", "classical_gaussian")  # the classical one has gaps (ε ≥ 1)
    sweeps = [sweep(m, (0.1, 0.5, 1.0, 2.0)) for m in mechanisms]
    current = [sweep(m, (0.5,)) for m in mechanisms] if with_current else None
    for metric in ("mse", "kl"):
        shipped, validated = _both(
            monkeypatch,
            lambda: denoising_figures.sweep_figure(
                sweeps,
                MECHANISMS,
                metric,
                truth=counts,
                title="Error<br><sup>R = 6</sup>",
                current_epsilon=0.5,
                current=current,
            ),
        )
        assert shipped == validated
        monkeypatch.undo()
