"""gaussmech_ui.figures.light: the charts built as plain dicts are the charts Plotly would validate.

Each builder that uses :func:`gaussmech_ui.figures.light.new_figure` is run twice on the page's
real inputs: once as shipped (dicts, no validation) and once with ``go.Figure`` swapped in (every
property validated by Plotly); the two must serialise to the same JSON.
"""

from __future__ import annotations

import json
import logging

import plotly.graph_objects as go
import plotly.io as pio
import pytest

from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting
from gaussmech_ui.cached import distributions as cached_distributions, tails as cached_tails
from gaussmech_ui.figures import distributions as distribution_figures, light, tails as tail_figures
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
    monkeypatch.setattr(light, "new_figure", lambda: made.append(1) or LightFigure())
    light_json = pio.to_json(build(), validate=False)
    assert made, "the builder does not use light.new_figure"
    monkeypatch.setattr(light, "new_figure", go.Figure)
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
