"""Accuracy first: the ε a mechanism needs for a target error, checked against independent oracles."""

from __future__ import annotations

import dataclasses
import doctest
import math
import warnings

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

import gaussmech_core.inverse as inverse
from gaussmech_core.inverse import EPSILON_RANGE, epsilon_for_target_error, epsilons_for_target_error, error_at_epsilon
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting

BASE = Setting(epsilon=1.0, delta=1e-5, sensitivity=1.0, dim=10)


def test_doctests_pass():
    result = doctest.testmod(inverse)
    assert result.attempted > 0
    assert result.failed == 0


# --- Independent oracles ----------------------------------------------------------------------


def _gaussian_delta_mp(epsilon, sigma, sensitivity=1.0):
    """Balle & Wang's exact δ(ε) (Theorem 8, docs/math.md section 2.1) at 60 digits."""
    mp.mp.dps = 60
    a = mp.mpf(sensitivity) / (2 * mp.mpf(sigma))
    b = mp.mpf(epsilon) * mp.mpf(sigma) / mp.mpf(sensitivity)
    return mp.ncdf(a - b) - mp.exp(mp.mpf(epsilon)) * mp.ncdf(-a - b)


def _gaussian_epsilon_mp(delta, sigma, sensitivity=1.0):
    """The ε at which N(0, σ²) noise has δ(ε) = δ, by bisection in mpmath (δ(ε) decreases in ε)."""
    low, high = mp.mpf(0), mp.mpf(2000)
    for _ in range(200):
        middle = (low + high) / 2
        if _gaussian_delta_mp(middle, sigma, sensitivity) > delta:
            low = middle
        else:
            high = middle
    return float(high)


def _r1smg_psi_mp(delta, dim):
    """ψ of Ji & Li (docs/math.md section 6.1) at 60 digits."""
    mp.mp.dps = 60
    base = mp.mpf(delta) * mp.gamma(mp.mpf(dim - 1) / 2) / (mp.sqrt(mp.pi) * mp.gamma(mp.mpf(dim) / 2))
    return base ** (mp.mpf(2) / (dim - 2))


# --- Closed-form inverses -------------------------------------------------------------------


@pytest.mark.parametrize("dim", [1, 10, 1_000_000])
@pytest.mark.parametrize("l1_model", ["one_coordinate", "all_coordinates"])
@pytest.mark.parametrize("scope", ["norm", "coordinate"])
def test_laplace_rms_matches_its_closed_form(dim, l1_model, scope):
    setting = dataclasses.replace(BASE, dim=dim, l1_model=l1_model, sensitivity=2.5)
    target = 7.0
    result = epsilon_for_target_error("laplace", setting, target, scope=scope)
    # E‖n‖² = 2 d b², b = Δ₁/ε, so the RMS (norm) is √(2d) Δ₁/ε and per coordinate √2 Δ₁/ε.
    factor = math.sqrt(2 * dim) if scope == "norm" else math.sqrt(2)
    exact = factor * setting.l1_sensitivity / target
    if exact < EPSILON_RANGE[0]:
        assert result.epsilon == EPSILON_RANGE[0] and result.at_lower_end
    elif exact > EPSILON_RANGE[1]:
        assert result.epsilon is None
    else:
        assert result.epsilon >= exact * (1 - 1e-15)
        assert result.epsilon == pytest.approx(exact, rel=1e-9)
    if result.epsilon is not None:
        assert result.error <= target


@pytest.mark.parametrize("dim", [3, 4, 10, 100, 10_000])
@pytest.mark.parametrize("delta", [1e-5, 1e-12])
def test_r1smg_rms_matches_its_closed_form(dim, delta):
    setting = dataclasses.replace(BASE, dim=dim, delta=delta)
    target = 1e6 if dim == 3 else 2.5
    result = epsilon_for_target_error("r1smg", setting, target)
    # σ* = E‖n‖² = 2Δ²/(εψ) (docs/math.md section 6.1), so the RMS is √σ* and ε = 2Δ²/(ψ target²).
    exact = float(2 / (_r1smg_psi_mp(delta, dim) * mp.mpf(target) ** 2))
    if exact < EPSILON_RANGE[0]:
        assert result.at_lower_end
    elif exact > EPSILON_RANGE[1]:
        assert result.epsilon is None and "1000" in result.reason
    else:
        assert result.epsilon >= exact * (1 - 1e-13)
        assert result.epsilon == pytest.approx(exact, rel=1e-9)
        assert result.error <= target


@pytest.mark.parametrize("delta", [1e-5, 1e-10, 1e-300])
@pytest.mark.parametrize("alpha", [0.05, 1e-3])
def test_analytic_gaussian_coordinate_bound_matches_mpmath(delta, alpha):
    setting = dataclasses.replace(BASE, delta=delta, dim=1000)
    target = 12.0
    result = epsilon_for_target_error(
        "analytic_gaussian", setting, target, kind="quantile", alpha=alpha, scope="coordinate"
    )
    # P(|N(0, σ²)| > t) = α  ⇔  σ = t / Φ⁻¹(1 - α/2); the ε at which that σ meets δ is the answer.
    mp.mp.dps = 60
    sigma_needed = mp.mpf(target) / mp.sqrt(2) / mp.erfinv(1 - mp.mpf(alpha))
    exact = _gaussian_epsilon_mp(delta, sigma_needed)
    assert result.epsilon == pytest.approx(exact, rel=1e-8)
    assert result.error <= target
    # The bound holds with probability at least 1 - α at the returned ε (the tail at the error, in mpmath).
    sigma = MECHANISMS["analytic_gaussian"].scale(dataclasses.replace(setting, epsilon=result.epsilon))
    assert float(mp.erfc(mp.mpf(result.error) / (mp.sqrt(2) * mp.mpf(sigma)))) <= alpha * (1 + 1e-12)


@pytest.mark.parametrize("dim", [1, 7, 1_000_000])
def test_analytic_gaussian_norm_bound_holds_with_the_stated_probability(dim):
    setting = dataclasses.replace(BASE, dim=dim)
    alpha = 0.05
    target = 4.0 * math.sqrt(dim)
    result = epsilon_for_target_error("analytic_gaussian", setting, target, kind="quantile", alpha=alpha)
    sigma = MECHANISMS["analytic_gaussian"].scale(dataclasses.replace(setting, epsilon=result.epsilon))
    # P(‖n‖ > t) = Q(d/2, t²/(2σ²)) (docs/math.md section 10), in mpmath.
    mp.mp.dps = 50
    tail = mp.gammainc(mp.mpf(dim) / 2, mp.mpf(result.error) ** 2 / (2 * mp.mpf(sigma) ** 2), mp.inf, regularized=True)
    assert float(tail) <= alpha * (1 + 1e-9)
    assert float(tail) >= alpha * (1 - 1e-6)  # and not far inside: the bound is the quantile
    sigma_needed = target / math.sqrt(stats.chi2.isf(alpha, dim))
    assert result.epsilon == pytest.approx(_gaussian_epsilon_mp(1e-5, sigma_needed), rel=1e-7)


def test_rms_round_trip_for_every_featured_mechanism():
    for mechanism in MECHANISMS.values():
        if not mechanism.featured:
            continue
        for epsilon in (0.05, 0.7, 3.0):
            setting = dataclasses.replace(BASE, epsilon=epsilon, mvg_shape=(5, 2))
            if not mechanism.validity(setting).valid:
                continue
            target = error_at_epsilon(mechanism, setting, epsilon)
            result = epsilon_for_target_error(mechanism, setting, target)
            assert result.error <= target
            assert result.epsilon == pytest.approx(epsilon, rel=1e-8), mechanism.id


# --- Conservative and minimal -----------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    mechanism_id=st.sampled_from(["analytic_gaussian", "classical_gaussian", "laplace", "r1smg", "mvg_iid"]),
    log_target=st.floats(-3.0, 6.0),
    dim=st.integers(3, 2000),
    log_delta=st.floats(-300.0, -1.0),
    kind=st.sampled_from(["rms", "quantile"]),
    scope=st.sampled_from(["norm", "coordinate"]),
)
def test_returned_epsilon_meets_the_target_and_is_minimal(mechanism_id, log_target, dim, log_delta, kind, scope):
    setting = Setting(epsilon=1.0, delta=10.0**log_delta, dim=dim)
    target = 10.0**log_target
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = epsilon_for_target_error(mechanism_id, setting, target, kind=kind, scope=scope)
    if result.epsilon is None:
        assert result.reason
        return
    assert EPSILON_RANGE[0] <= result.epsilon <= EPSILON_RANGE[1]
    assert result.error <= target
    assert error_at_epsilon(mechanism_id, setting, result.epsilon, kind=kind, scope=scope) == result.error
    if not result.at_lower_end:
        slightly_smaller = result.epsilon * (1 - 1e-7)
        worse = error_at_epsilon(mechanism_id, setting, slightly_smaller, kind=kind, scope=scope)
        assert worse is None or worse > target


def test_error_is_non_increasing_in_epsilon_on_a_grid():
    # The monotonicity assumption of the module, checked for every featured mechanism.
    epsilons = np.logspace(-6, 3, 28)
    for mechanism in MECHANISMS.values():
        if not mechanism.featured:
            continue
        setting = dataclasses.replace(BASE, dim=12, mvg_shape=(3, 4), order=3.0)
        errors = [error_at_epsilon(mechanism, setting, e, kind="quantile", scope="coordinate") for e in epsilons]
        finite = [e for e in errors if e is not None]
        assert all(b <= a * (1 + 1e-12) for a, b in zip(finite, finite[1:])), mechanism.id


# --- Where no ε in range works ----------------------------------------------------------------


def test_classical_gaussian_is_limited_to_epsilon_below_one():
    setting = dataclasses.replace(BASE, dim=1)
    reachable = error_at_epsilon("classical_gaussian", setting, 0.9)
    result = epsilon_for_target_error("classical_gaussian", setting, reachable)
    assert result.epsilon == pytest.approx(0.9, rel=1e-8)
    too_small = error_at_epsilon("classical_gaussian", setting, 0.999999) * 0.99
    refused = epsilon_for_target_error("classical_gaussian", setting, too_small)
    assert refused.epsilon is None and refused.error is None
    assert "ε = 1" in refused.reason and "not a theorem" in refused.reason.lower()


def test_unreachable_and_trivial_targets():
    setting = dataclasses.replace(BASE, dim=100)
    for mechanism_id in ("analytic_gaussian", "laplace", "generalized_gaussian", "mvg_iid", "r1smg"):
        refused = epsilon_for_target_error(mechanism_id, setting, 1e-9)
        assert refused.epsilon is None and "1000" in refused.reason
    trivial = epsilon_for_target_error("analytic_gaussian", setting, 1e12)
    assert trivial.epsilon == EPSILON_RANGE[0] and trivial.at_lower_end and trivial.error <= 1e12


def test_invalid_everywhere_gives_the_registry_reason():
    r1smg = epsilon_for_target_error("r1smg", dataclasses.replace(BASE, dim=2), 10.0)
    assert r1smg.epsilon is None and "d ≥ 3" in r1smg.reason
    mvg = epsilon_for_target_error("mvg_iid", dataclasses.replace(BASE, dim=10, mvg_shape=(3, 3)), 10.0)
    assert mvg.epsilon is None and "3×3" in mvg.reason
    gg = epsilon_for_target_error(
        "generalized_gaussian", dataclasses.replace(BASE, order=3.0, l1_model="all_coordinates"), 10.0
    )
    assert gg.epsilon is None and gg.reason


def test_r1smg_overflowing_sigma_star_is_handled():
    # δ = 1e-300 at d = 3: σ* overflows float64 at small ε; the answer must still be finite and right.
    setting = Setting(epsilon=1.0, delta=1e-300, dim=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = epsilon_for_target_error("r1smg", setting, 1e3)
    assert result.epsilon is None or result.error <= 1e3


# --- Laplace and GG norm bounds: approximate, and labelled so ---------------------------------


@pytest.mark.parametrize("mechanism_id, order", [("laplace", 2.0), ("generalized_gaussian", 1.5)])
def test_norm_bound_of_iid_noise_is_labelled_and_close(mechanism_id, order):
    setting = dataclasses.replace(BASE, dim=10, order=order)
    alpha = 0.1
    result = epsilon_for_target_error(mechanism_id, setting, 8.0, kind="quantile", alpha=alpha)
    assert result.method.startswith("approximate") and "Monte Carlo" in result.method
    mechanism = MECHANISMS[mechanism_id]
    at_answer = dataclasses.replace(setting, epsilon=result.epsilon)
    noise = mechanism.sample(np.random.default_rng(99), 200_000, mechanism.scale(at_answer), at_answer)
    exceed = np.mean(np.linalg.norm(noise, axis=1) > result.error)
    # The quantile came from 1e5 other draws: both sampling errors, at 5 standard deviations.
    assert abs(exceed - alpha) < 5 * math.sqrt(alpha * (1 - alpha) * (1 / 200_000 + 1 / 100_000)) * 1.5


def test_several_mechanisms_at_once():
    rows = epsilons_for_target_error(BASE, 20.0, mechanism_ids=["analytic_gaussian", "laplace", "r1smg"])
    assert [row.mechanism_id for row in rows] == ["analytic_gaussian", "laplace", "r1smg"]
    assert all(row.error <= 20.0 for row in rows)
    default = epsilons_for_target_error(BASE, 20.0)
    assert {row.mechanism_id for row in default} == {m.id for m in MECHANISMS.values() if m.featured}


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(target=0.0), "target"),
        (dict(target=float("nan")), "target"),
        (dict(target=float("inf")), "target"),
        (dict(target=1.0, alpha=1.0), "alpha"),
        (dict(target=1.0, alpha=0.0), "alpha"),
        (dict(target=1.0, kind="mean"), "kind"),
        (dict(target=1.0, scope="l1"), "scope"),
    ],
)
def test_bad_input_is_refused_with_the_parameter_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        epsilon_for_target_error("analytic_gaussian", BASE, **kwargs)


def test_unknown_mechanism_and_non_numeric_target():
    with pytest.raises(ValueError, match="mechanism"):
        epsilon_for_target_error("gaussian", BASE, 1.0)
    with pytest.raises(TypeError, match="target"):
        epsilon_for_target_error("laplace", BASE, "3")
    with pytest.raises(ValueError, match="epsilon"):
        error_at_epsilon("laplace", BASE, 0.0)


@pytest.mark.parametrize("just_below", [0.5, 0.99, 0.9999])
def test_a_target_met_only_next_to_the_validity_edge_is_still_found(just_below):
    """The validity edge is first placed within 0.5 %: a target met only closer to it still finds ε.

    The classical Gaussian is valid for ε < 1 only; its error at ε just below 1 is the target.
    """
    setting = Setting(epsilon=0.5, delta=1e-5, dim=10)
    target = error_at_epsilon("classical_gaussian", setting, just_below)
    result = epsilon_for_target_error("classical_gaussian", setting, target)
    assert result.epsilon is not None and result.epsilon < 1.0
    assert result.error <= target
    assert result.epsilon == pytest.approx(just_below, rel=1e-9)
    # Just beyond what the classical formula can reach, the reason names the edge.
    tighter = epsilon_for_target_error(
        "classical_gaussian", setting, error_at_epsilon("classical_gaussian", setting, 0.999999) * 0.999
    )
    assert tighter.epsilon is None and "largest ε where it is valid" in tighter.reason
