"""The Tail probabilities page in AppTest: tails down to 1e-300, error bounds, Liu's three comparisons.

Numbers read back from the chart specs are checked against the core (the page must show what the
core computes, no formula of its own).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special
from streamlit.testing.v1 import AppTest

from gaussmech_core import generalized
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting
from gaussmech_ui.params import widget_key
from tests.app.page_helpers import legend_order, open_page, trace_named

PAGE = "pages/2_Tail_probabilities.py"
TABS = [
    "Per coordinate",
    "Whole vector",
    "Laplace vs Gaussian: tails",
    "Laplace vs Gaussian: privacy cost",
    "Laplace vs Gaussian: variance",
]
BOUND_TRACE = "error bound at confidence 1 − α = 95%"


def _open(tab: str | None = None, **query) -> AppTest:
    return open_page(PAGE, view_key="tails_view", view=tab, **query)


_trace = trace_named


_legend = legend_order


def test_per_coordinate_tails_reach_1e_minus_300_and_mark_the_bounds(chart_specs):
    at = _open(tails_floor="1e-300")  # the default floor is 1e-6 (issue 10); the far tails are one click away
    assert at.title[0].value == "How likely is a large error?"
    assert [tab.label for tab in at.tabs] == TABS
    (spec,) = chart_specs(at)
    names = _legend(spec)
    assert names == [
        "Analytic Gaussian",
        "Laplace",
        "Generalized Gaussian GG(p)",
        "Matrix-variate Gaussian (i.i.d. form)",
        "R1SMG, claimed (Ji & Li 2024)",
        "Truncated GG(p), bounded data",
        "Boundary-inflated truncated GG(p), bounded data",
        "Discrete Gaussian",
        BOUND_TRACE,
    ]
    assert spec["layout"]["yaxis"]["type"] == "log" and spec["layout"]["xaxis"]["type"] == "log"
    gaussian = _trace(spec, "Analytic Gaussian")
    t, p = np.asarray(gaussian["x"], dtype=float), np.asarray(gaussian["y"], dtype=float)
    shown = np.isfinite(p)
    assert np.nanmin(p) >= 1e-300 and np.nanmin(p) < 1e-250, "the Gaussian tail is drawn down to 1e-300"
    sigma = MECHANISMS["analytic_gaussian"].scale(Setting(1.0, 1e-5))
    np.testing.assert_allclose(p[shown][:50], special.erfc(t[shown][:50] / (sigma * math.sqrt(2))), rtol=1e-12)
    markers = _trace(spec, BOUND_TRACE)
    assert set(np.asarray(markers["y"], dtype=float)) == {0.05}
    bound = dict(zip(markers["customdata"], np.asarray(markers["x"], dtype=float)))
    assert bound["Analytic Gaussian"] == pytest.approx(sigma * special.ndtri(0.975), rel=1e-11)
    assert bound["Laplace"] == pytest.approx(math.log(20.0), rel=1e-11)
    table = at.dataframe[0].value.set_index("Mechanism")
    assert table.loc["Analytic Gaussian", "Per-coordinate error bound at 95%"] == "7.31"
    assert table.loc["Laplace", "Per-coordinate error bound at 95%"] == "3"
    assert "With probability 95%, each noise coordinate is at most: Laplace 3;" in at.info[0].value
    assert any("R1SMG, claimed (Ji & Li 2024)" in w.value for w in at.warning)
    assert len(at.get("download_button")) == 2
    assert at.expander[0].label == "The math"


def test_alpha_and_the_floor_change_the_chart(chart_specs):
    at = _open()
    at.select_slider(key="tails_alpha").set_value(1e-6).run()
    (spec,) = chart_specs(at)
    markers = spec["data"][-1]
    assert markers["name"] == "error bound at confidence 1 − α = 99.9999%"
    bound = dict(zip(markers["customdata"], np.asarray(markers["x"], dtype=float)))
    assert bound["Laplace"] == pytest.approx(math.log(1e6), rel=1e-11)
    assert [shape["y0"] for shape in spec["layout"]["shapes"]] == [1e-6]
    at.segmented_control(key="tails_floor").set_value(1e-6).run()
    gaussian = chart_specs(at)[0]["data"][0]
    assert np.nanmin(np.asarray(gaussian["y"], dtype=float)) >= 1e-8, "a hundredth of α = 1e-6: the bounds stay in view"


def test_epsilon_changes_the_tails_and_the_bounds(chart_specs):
    at = _open()
    before = chart_specs(at)[0]["data"][-1]["x"]
    at.select_slider(key=widget_key("epsilon")).set_value(0.3).run()
    (spec,) = chart_specs(at)
    bound = dict(zip(spec["data"][-1]["customdata"], np.asarray(spec["data"][-1]["x"], dtype=float)))
    assert bound["Laplace"] == pytest.approx(math.log(20.0) / 0.3, rel=1e-11)
    assert list(before) != list(spec["data"][-1]["x"])
    assert "Classical Gaussian" in [trace["name"] for trace in spec["data"]]


def test_the_vector_tail_is_exact_for_gaussians_and_monte_carlo_for_laplace(chart_specs):
    at = _open("Whole vector")
    (spec,) = chart_specs(at)
    names = _legend(spec)
    assert names[:3] == ["Analytic Gaussian", "Matrix-variate Gaussian (i.i.d. form)", "R1SMG, claimed (Ji & Li 2024)"]
    assert "Laplace (Monte Carlo, 10,000 vectors)" in names
    assert "Generalized Gaussian GG(p) (Monte Carlo, 10,000 vectors)" in names
    gaussian = _trace(spec, "Analytic Gaussian")
    t, p = np.asarray(gaussian["x"], dtype=float), np.asarray(gaussian["y"], dtype=float)
    sigma = MECHANISMS["analytic_gaussian"].scale(Setting(1.0, 1e-5))
    shown = np.isfinite(p)
    np.testing.assert_allclose(p[shown], special.gammaincc(5, t[shown] ** 2 / (2 * sigma**2)), rtol=1e-10)
    table = at.dataframe[0].value.set_index("Mechanism")
    column = "‖noise‖₂ bound at 95%"
    assert table.loc["Laplace", column].endswith("(Monte Carlo)")
    assert table.loc["Analytic Gaussian", column] == "16"
    assert "10,000 seeded noise vectors" in "\n".join(c.value for c in at.caption)


def test_the_vector_tail_at_a_huge_dimension_skips_the_monte_carlo(chart_specs):
    at = _open("Whole vector", dim="1000000")
    names = [trace["name"] for trace in chart_specs(at)[0]["data"]]
    assert not any("Monte Carlo" in name for name in names)
    assert "too large to draw" in "\n".join(c.value for c in at.caption)


def test_liu_tail_ratio_omits_points_where_both_tails_are_tiny(chart_specs):
    at = _open("Laplace vs Gaussian: tails")
    (spec,) = chart_specs(at)
    assert [trace["name"] for trace in spec["data"]] == [
        "δ = 0.1",
        "δ = 0.01",
        "δ = 1e-4",
        "δ = 1e-5 (current)",
        "δ = 1e-6",
        "δ = 1e-10",
    ]
    current = _trace(spec, "δ = 1e-5 (current)")
    epsilons, ratios = np.asarray(current["x"], dtype=float), np.asarray(current["y"], dtype=float)
    comparison = generalized.laplace_gaussian_tail_ratio(3.0, epsilons, 1e-5)
    omitted = (comparison.laplace < 1e-4) & (comparison.gaussian < 1e-4)
    assert omitted.any() and np.isnan(ratios[omitted]).all()
    np.testing.assert_allclose(ratios[~omitted], comparison.ratio[~omitted], rtol=1e-12)
    at.select_slider(key="tails_threshold").set_value(1.0).run()
    assert "t = 1Δ" in chart_specs(at)[0]["layout"]["title"]["text"]
    at.segmented_control(key="tails_gaussian").set_value("analytic").run()
    (spec,) = chart_specs(at)
    assert "analytic Gaussian (exact)" in spec["layout"]["title"]["text"]
    current = _trace(spec, "δ = 1e-5 (current)")
    epsilons = np.asarray(current["x"], dtype=float)
    expected = generalized.laplace_gaussian_tail_ratio(1.0, epsilons, 1e-5, gaussian="analytic").ratio
    ratios = np.asarray(current["y"], dtype=float)
    np.testing.assert_allclose(ratios[np.isfinite(ratios)], expected[np.isfinite(ratios)], rtol=1e-12)


def test_liu_privacy_cost_and_lemma_11(chart_specs):
    at = _open("Laplace vs Gaussian: privacy cost")
    (spec,) = chart_specs(at)
    current = _trace(spec, "δ = 1e-5 (current)")
    taus = np.asarray(current["x"], dtype=float)
    np.testing.assert_allclose(current["y"], generalized.privacy_cost_ratio(3.0, taus, 1e-5), rtol=1e-12)
    assert "spends" in at.info[0].value
    at = _open("Laplace vs Gaussian: variance", epsilon="2")
    (spec,) = chart_specs(at)
    assert [trace["name"] for trace in spec["data"]] == ["ε = 0.1", "ε = 0.5", "ε = 1", "ε = 2 (current)", "ε = 5"]
    vertical = [shape for shape in spec["layout"]["shapes"] if shape["x0"] == shape["x1"]]
    assert vertical[0]["x0"] == pytest.approx(generalized.LEMMA11_DELTA_THRESHOLD)
    assert generalized.LEMMA11_DELTA_THRESHOLD == pytest.approx(0.1573, abs=1e-4)
    ratio = generalized.lemma11_variance_ratio(2.0, 1e-5)
    assert f"has {ratio:.3g}× the variance" in at.info[0].value


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
    (spec,) = chart_specs(at)
    for trace in spec["data"]:
        values = np.asarray(trace.get("y", []), dtype=float)
        assert not np.isinf(values).any() and (np.nan_to_num(values, nan=1.0) > 0).all(), (tab, trace["name"])


def test_a_link_to_the_first_tab_opens_it_without_a_warning():
    """A control at its default leaves the URL; the link that named it was used, not dropped (issue 22, item 8:
    the false warning took 80 px of a projector's first screen)."""
    from tests.app.page_helpers import open_page

    at = open_page("pages/2_Tail_probabilities.py", view_key="tails_view", view="Per coordinate")
    assert not [warning.value for warning in at.warning if "cannot use that value" in warning.value]
    bad = open_page("pages/2_Tail_probabilities.py", view_key="tails_view", view="Nope")
    assert any("tails_view=Nope" in warning.value for warning in bad.warning), "a bad value still warns"
