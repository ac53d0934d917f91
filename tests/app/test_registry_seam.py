"""The registry is the seam: a mechanism added to it appears on every page, with no page edit.

A toy mechanism (Gaussian noise at twice the analytic σ, under a name no page could know) is
added to the registry for the test (``monkeypatch.setitem``: the registry is restored after),
and each of the six pages is opened the way a visitor would. The toy must be drawn or listed
on each: in the Overview's table and chart, the densities, the tails, the privacy profiles,
the accuracy charts, and the denoising lab's choice of mechanism and its sweep.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats

from gaussmech_core import gaussian, loss, mechanisms
from gaussmech_core.registry_types import HistogramCalibration, HistogramRelease, Mechanism, Validity
from tests.app.page_helpers import open_page

TOY_NAME = "Toy noise for the seam test"
PAGES = [
    "app.py",
    "pages/1_Noise_distributions.py",
    "pages/2_Tail_probabilities.py",
    "pages/3_Privacy_profiles.py",
    "pages/4_Accuracy_vs_dimension.py",
    "pages/5_Denoising_lab.py",
]


def _toy_sigma(epsilon, delta, sensitivity):
    return 2.0 * np.asarray(gaussian.analytic_gaussian_sigma(epsilon, delta, sensitivity), dtype=float)


def _toy_histogram_calibration(epsilon, delta, model, order):
    sigma = _toy_sigma(epsilon, delta, model.l2_sensitivity)
    return HistogramCalibration(sigma, sigma, model.l2_sensitivity, "Δ₂", 2.0, "twice the analytic σ at Δ₂")


def toy_mechanism() -> Mechanism:
    """Gaussian noise at twice the analytic σ: private (more noise than needed), and new to every page."""
    return Mechanism(
        id="toy_for_the_seam",
        name=TOY_NAME,
        short_name="Toy",
        source="tests/app/test_registry_seam.py",
        guarantee="approximate",
        scale_symbol="σ",
        color="#000000",
        family="gaussian",
        validity=lambda s: Validity(True),
        scale=lambda s: float(_toy_sigma(s.epsilon, s.delta, s.sensitivity)),
        scale_over_epsilon=lambda epsilons, s: _toy_sigma(epsilons, s.delta, s.sensitivity),
        coordinate_std=lambda sigma, s: float(sigma),
        expected_loss=lambda sigma, s: s.dim * float(sigma) ** 2,
        sample=lambda rng, size, sigma, s: rng.normal(0.0, sigma, size=(size, s.dim)),
        coordinate_sample=lambda rng, size, sigma, s: rng.normal(0.0, sigma, size=size),
        pdf=lambda x, sigma, s: stats.norm.pdf(x, scale=sigma),
        tail=lambda t, sigma, s: gaussian.gaussian_coordinate_tail(t, sigma),
        log_tail=lambda t, sigma, s: gaussian.gaussian_log_coordinate_tail(t, sigma),
        norm_tail=lambda t, sigma, s: gaussian.gaussian_norm_tail(t, sigma, s.dim),
        log_norm_tail=lambda t, sigma, s: np.log(gaussian.gaussian_norm_tail(t, sigma, s.dim)),
        loss_summary=lambda sigma, s, levels=loss.DEFAULT_LEVELS, n_samples=0: loss.gaussian_loss_summary(
            sigma, s.dim, levels
        ),
        privacy_profile=lambda eps, sigma, s: gaussian.gaussian_delta(eps, sigma, s.sensitivity),
        histogram=HistogramRelease(
            _toy_histogram_calibration, lambda rng, shape, sigma, order: sigma * rng.standard_normal(shape)
        ),
        featured=True,
    )


@pytest.fixture
def toy_registry(monkeypatch):
    """The registry with the toy added at its end (restored after the test)."""
    toy = toy_mechanism()
    monkeypatch.setitem(mechanisms.MECHANISMS, toy.id, toy)
    return toy


def _texts(node) -> list[str]:
    """Every string an AppTest element tree holds (protos included), depth first."""
    found = []
    proto = getattr(node, "proto", None)
    if proto is not None:
        found.append(str(proto))
    for child in getattr(node, "children", {}).values() if isinstance(getattr(node, "children", None), dict) else []:
        found.extend(_texts(child))
    return found


def _chart_trace_names(at) -> list[str]:
    names = []
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        names.extend(str(trace.get("name", "")) for trace in spec["data"])
    return names


@pytest.mark.parametrize("page", PAGES)
def test_a_mechanism_added_to_the_registry_appears_on_every_page(toy_registry, page):
    at = open_page(page)
    shown = "\n".join(_texts(at._tree))
    assert TOY_NAME in shown, f"{page} does not show the mechanism added to the registry"
    if page != "pages/5_Denoising_lab.py":
        assert any(TOY_NAME in name or "Toy" in name for name in _chart_trace_names(at)), f"{page}: not in a chart"


def test_the_denoising_lab_releases_with_the_added_mechanism(toy_registry):
    at = open_page("pages/5_Denoising_lab.py", denoising_mechanism=TOY_NAME)
    assert TOY_NAME in at.selectbox(key="denoising_mechanism").options
    assert any("twice the analytic σ" in m.value for m in at.markdown)
    names = _chart_trace_names(at)
    assert any(TOY_NAME in name for name in names), "the sweep draws the added mechanism by default"


def test_the_toy_leaves_the_registry_after_the_test():
    assert "toy_for_the_seam" not in mechanisms.MECHANISMS


def test_adding_a_mechanism_changes_no_other_mechanisms_draws(monkeypatch):
    from gaussmech_core.histogram import error_sweep
    from gaussmech_ui.cached import accuracy

    counts = np.array([7.0, 0.0, 3.0, 1.0, 0.0, 12.0])
    arguments = ([(), ("nonnegative",)], [0.5, 2.0], 1e-5, "add_remove")
    before_sweep = error_sweep(counts, ["laplace", "analytic_gaussian"], *arguments, repetitions=6, seed=4)
    sweep_setting = dict(
        epsilon=1.0,
        delta=1e-5,
        sensitivity=1.0,
        order=2.0,
        l1_model="one_coordinate",
        rows=1,
        gamma_ratio=0.5,
        seed=3,
        samples=60,
    )
    before_points = accuracy.monte_carlo_points(**sweep_setting)
    toy = toy_mechanism()
    monkeypatch.setitem(mechanisms.MECHANISMS, toy.id, toy)
    import streamlit as st

    st.cache_data.clear()  # the curves were cached without the toy
    after_sweep = error_sweep(counts, [toy.id, "laplace", "analytic_gaussian"], *arguments, repetitions=6, seed=4)
    np.testing.assert_array_equal(after_sweep.mean[:, 1:], before_sweep.mean)
    after_points = accuracy.monte_carlo_points(**sweep_setting)
    assert toy.id in set(after_points["mechanism"])
    kept = after_points[after_points["mechanism"] != toy.id].reset_index(drop=True)
    assert kept.equals(before_points.reset_index(drop=True))


# --- integer noise: a toy discrete Laplace added to the registry -------------------------------------

INTEGER_NAME = "Toy discrete Laplace for the seam test"


def _q(b):
    return np.exp(-1.0 / np.asarray(b, dtype=float))


def _discrete_laplace_pmf(k, b):
    q = _q(b)
    k = np.asarray(k, dtype=float)
    return np.where(k == np.round(k), (1 - q) / (1 + q) * q ** np.abs(k), 0.0)


def _discrete_laplace_tail(t, b):
    q = _q(b)
    return 2 * q ** (np.floor(np.asarray(t, dtype=float)) + 1) / (1 + q)


def _discrete_laplace_sample(rng, shape, b):
    q = float(_q(b))
    return (rng.geometric(1 - q, shape) - rng.geometric(1 - q, shape)).astype(float)


def _discrete_laplace_moments(b):
    k = np.arange(1, 20_000, dtype=float)
    weights = 2 * _discrete_laplace_pmf(k, b)
    return [float(np.sum(weights * k ** (2 * j))) for j in (1, 2, 3, 4)]


def integer_toy() -> Mechanism:
    """Discrete Laplace noise on the integers, b = Δ/ε: pure ε-DP for integer queries (a toy)."""
    from gaussmech_core import bounded

    def histogram_calibration(epsilon, delta, model, order):
        b = np.asarray(model.l1_sensitivity / np.asarray(epsilon, dtype=float), dtype=float)
        q = _q(b)
        return HistogramCalibration(
            b, np.sqrt(2 * q) / (1 - q), model.l1_sensitivity, "Δ₁", 1.0, "b = Δ₁/ε on the integers"
        )

    std = lambda b, s: float(np.sqrt(2 * _q(b)) / (1 - _q(b)))  # noqa: E731
    return Mechanism(
        id="toy_integer_for_the_seam",
        name=INTEGER_NAME,
        short_name="ToyZ",
        source="tests/app/test_registry_seam.py",
        guarantee="pure",
        scale_symbol="b",
        color="#111111",
        family="laplace",
        validity=lambda s: Validity(s.epsilon > 0, "" if s.epsilon > 0 else "needs ε > 0"),
        scale=lambda s: s.sensitivity / s.epsilon,
        coordinate_std=std,
        expected_loss=lambda b, s: s.dim * std(b, s) ** 2,
        sample=lambda rng, size, b, s: _discrete_laplace_sample(rng, (size, s.dim), b),
        coordinate_sample=lambda rng, size, b, s: _discrete_laplace_sample(rng, size, b),
        pdf=lambda x, b, s: _discrete_laplace_pmf(x, b),
        tail=lambda t, b, s: _discrete_laplace_tail(t, b),
        log_tail=lambda t, b, s: np.log(np.maximum(_discrete_laplace_tail(t, b), np.finfo(float).tiny)),
        norm_tail=None,
        log_norm_tail=None,
        loss_summary=lambda b, s, levels=loss.DEFAULT_LEVELS, n_samples=0: loss.iid_loss_summary_from_moments(
            _discrete_laplace_moments(b), s.dim, levels
        ),
        privacy_profile=lambda eps, b, s: bounded.pure_dp_delta_bound(eps, s.sensitivity / b),
        sensitivity_norm="l1",
        uses_delta=False,
        support="integer",
        histogram=HistogramRelease(
            histogram_calibration,
            lambda rng, shape, b, order: _discrete_laplace_sample(rng, shape, b),
            scale_family=False,
        ),
        featured=True,
    )


@pytest.fixture
def integer_registry(monkeypatch):
    toy = integer_toy()
    monkeypatch.setitem(mechanisms.MECHANISMS, toy.id, toy)
    return toy


@pytest.mark.parametrize("page", PAGES)
def test_an_integer_mechanism_appears_on_every_page(integer_registry, page):
    at = open_page(page)
    assert INTEGER_NAME in "\n".join(_texts(at._tree)), page


def test_integer_noise_is_drawn_as_a_pmf_on_the_integers(integer_registry):
    at = open_page("pages/1_Noise_distributions.py", dim="1")
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    trace = next(t for t in spec["data"] if t["name"] == INTEGER_NAME)
    assert trace["mode"] == "markers"
    from tests.conftest import _decode

    x = np.asarray(_decode(trace["x"]), dtype=float)
    assert x.size > 3 and np.array_equal(x, np.round(x)), "the pmf sits on the integers"
    y = np.asarray(_decode(trace["y"]), dtype=float)
    np.testing.assert_allclose(y, _discrete_laplace_pmf(x, 1.0), rtol=1e-12)
    gaussian = next(t for t in spec["data"] if t["name"] == "Analytic Gaussian")
    assert gaussian["mode"] in ("lines", "lines+markers")  # a curve, with the integers of the pmf left out, not gaps
    assert np.isfinite(np.asarray(_decode(gaussian["y"]), dtype=float)).all(), "the curve skips the pmf's integers"


def test_integer_noise_releases_integer_counts(integer_registry):
    from gaussmech_core.histogram import error_sweep, release_histogram

    release = release_histogram([10.0, 0.0, 3.0, 7.0], integer_registry.id, 1.0, 1e-5, "add_remove", rng=3)
    assert np.array_equal(release.noisy, np.round(release.noisy)) and release.calibration.sensitivity_symbol == "Δ₁"
    sweep = error_sweep([10.0, 0.0, 3.0], [integer_registry.id, "laplace"], [()], [0.5, 2.0], 1e-5, "add_remove", 50, 1)
    assert np.all(np.isfinite(sweep.mean)) and sweep.mean[0, 0, 0, 0] > sweep.mean[0, 0, 0, 1]
