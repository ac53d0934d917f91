"""Attack risk from a privacy profile: the general route against closed forms and mpmath.

Oracles: the Gaussian trade-off curve Φ(Φ⁻¹(α) + μ) and the Laplace one (Dong, Roth & Su 2022,
Example for ε-DP Laplace), both at 40 digits in mpmath; properties every trade-off curve has
(TPR ≥ FPR, monotone, within every (ε, δ(ε)) line) checked with hypothesis.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from gaussmech_core import attack_risk
from gaussmech_core.attack_risk import (
    attack_advantage_from_profile,
    attack_power_from_profile,
    attack_risk_all,
    gaussian_attack_advantage,
    gaussian_attack_power,
    gaussian_sigma_for_attack,
    mechanism_attack_risk,
    posterior_belief,
    scale_for_attack_limit,
    tradeoff_from_profile,
)
from gaussmech_core.gaussian import gaussian_delta, gaussian_tradeoff
from gaussmech_core.laplace import laplace_delta
from gaussmech_core.mechanisms import MECHANISMS, Setting

mp.mp.dps = 40
ALPHAS = np.array([1e-12, 1e-6, 1e-3, 0.01, 0.05, 0.2, 0.5, 0.8, 0.99])


def _mp_gaussian_power(alpha, mu):
    alpha = mp.mpf(alpha)
    return mp.ncdf(mp.mpf(mu) + mp.sqrt(2) * mp.erfinv(2 * alpha - 1))


def _mp_laplace_power(alpha, epsilon):
    """1 − f_ε(α) for Laplace noise with Δ/b = ε (Dong, Roth & Su 2022, Sec. 2.3)."""
    alpha, e = mp.mpf(alpha), mp.e ** (-mp.mpf(epsilon))
    if alpha < e / 2:
        beta = 1 - alpha / e
    elif alpha <= mp.mpf(1) / 2:
        beta = e / (4 * alpha)
    else:
        beta = e * (1 - alpha)
    return 1 - beta


@pytest.mark.parametrize("sigma", [0.2, 0.7, 1.0, 3.730632, 30.0, 1e4])
def test_general_route_matches_gaussian_closed_form_in_mpmath(sigma):
    general = attack_power_from_profile(ALPHAS, lambda e: gaussian_delta(e, sigma))
    for alpha, value in zip(ALPHAS, general):
        exact = float(_mp_gaussian_power(alpha, 1.0 / sigma))
        assert value == pytest.approx(exact, rel=1e-11, abs=1e-300)
        # never on the unsafe side beyond rounding: the attacker is not made weaker
        assert value >= exact * (1 - 1e-13)
    closed = gaussian_attack_power(ALPHAS, sigma)
    np.testing.assert_allclose(closed, [float(_mp_gaussian_power(a, 1.0 / sigma)) for a in ALPHAS], rtol=1e-12)


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 3.0])
def test_general_route_matches_laplace_closed_form(epsilon):
    general = attack_power_from_profile(ALPHAS, lambda e: laplace_delta(e, 1.0 / epsilon, 1.0))
    exact = np.array([float(_mp_laplace_power(a, epsilon)) for a in ALPHAS])
    np.testing.assert_allclose(general, exact, rtol=1e-9)
    assert np.all(general >= exact * (1 - 1e-13))


def test_tradeoff_is_one_minus_power_and_matches_gdp():
    beta = tradeoff_from_profile(ALPHAS, lambda e: gaussian_delta(e, 2.0))
    np.testing.assert_allclose(beta, gaussian_tradeoff(ALPHAS, 0.5), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("sigma", [0.3, 1.0, 5.0])
def test_advantage_is_delta_at_zero_and_the_curves_largest_gap(sigma):
    profile = lambda e: gaussian_delta(e, sigma)  # noqa: E731
    advantage = attack_advantage_from_profile(profile)
    assert advantage == pytest.approx(gaussian_attack_advantage(sigma), rel=1e-13)
    exact = mp.erf(mp.mpf(1) / (sigma * 2 * mp.sqrt(2)))
    assert advantage == pytest.approx(float(exact), rel=1e-13)
    alphas = np.linspace(1e-4, 1 - 1e-4, 2001)
    gaps = attack_power_from_profile(alphas, profile) - alphas
    assert np.max(gaps) <= advantage * (1 + 1e-12)
    assert np.max(gaps) == pytest.approx(advantage, rel=1e-5)


@settings(max_examples=40, deadline=None)
@given(
    sigma=st.floats(0.05, 200.0),
    alpha=st.floats(1e-9, 0.999),
    epsilon=st.floats(0.0, 30.0),
)
def test_power_lies_within_every_privacy_line(sigma, alpha, epsilon):
    profile = lambda e: gaussian_delta(e, sigma)  # noqa: E731
    power = attack_power_from_profile(alpha, profile)
    assert alpha <= power <= 1.0
    delta = float(gaussian_delta(epsilon, sigma))
    assert power <= delta + math.exp(epsilon) * alpha + 1e-15
    assert power <= 1 - math.exp(-epsilon) * (1 - delta - alpha) + 1e-15


@settings(max_examples=30, deadline=None)
@given(sigma=st.floats(0.1, 50.0), a=st.floats(1e-6, 0.5), b=st.floats(1e-6, 0.5), factor=st.floats(1.01, 4.0))
def test_power_grows_with_fpr_and_falls_with_noise(sigma, a, b, factor):
    low, high = sorted((a, b))
    power = lambda x, s: attack_power_from_profile(x, lambda e: gaussian_delta(e, s))  # noqa: E731
    assert power(low, sigma) <= power(high, sigma) * (1 + 1e-12)
    assert power(low, sigma * factor) <= power(low, sigma) * (1 + 1e-12)


def test_power_is_vectorized_and_keeps_shape():
    alphas = ALPHAS[:6].reshape(2, 3)
    power = attack_power_from_profile(alphas, lambda e: gaussian_delta(e, 1.0))
    assert power.shape == (2, 3)
    assert isinstance(attack_power_from_profile(0.01, lambda e: gaussian_delta(e, 1.0)), float)


def test_no_privacy_means_certain_detection():
    # σ tiny: δ(0) = 1, every test reaches TPR 1
    assert attack_power_from_profile(1e-6, lambda e: gaussian_delta(e, 1e-3)) == 1.0


@pytest.mark.parametrize(
    ("prior", "tpr", "fpr"), [(0.5, 0.2, 0.01), (0.01, 0.5, 0.001), (0.9, 0.011, 0.01), (1e-6, 1.0, 1e-6)]
)
def test_posterior_is_bayes_rule(prior, tpr, fpr):
    p, t, f = mp.mpf(prior), mp.mpf(tpr), mp.mpf(fpr)
    assert posterior_belief(prior, tpr, fpr) == pytest.approx(float(p * t / (p * t + (1 - p) * f)), rel=1e-14)


def test_posterior_of_pure_dp_is_the_odds_bound():
    """Laplace at ε: the odds move by exactly e^ε at small FPR (the odds framing)."""
    risk = mechanism_attack_risk("laplace", Setting(epsilon=1.0, delta=1e-5), prior=0.2)
    odds = 0.2 / 0.8 * math.e
    for posterior in risk.posteriors:
        assert posterior == pytest.approx(odds / (1 + odds), rel=1e-10)


def test_every_registered_mechanism_gets_risk_numbers_or_a_reason():
    setting = Setting(epsilon=1.0, delta=1e-5, dim=10)
    risks = attack_risk_all(setting)
    assert [r.mechanism.id for r in risks] == list(MECHANISMS)
    for risk in risks:
        if risk.reason:
            assert risk.advantage is None and risk.scale is None
            continue
        assert 0.0 <= risk.advantage <= 1.0
        profile = lambda e, r=risk: r.mechanism.privacy_profile(np.asarray(e, float), r.scale, setting)  # noqa: E731
        for fpr, tpr, posterior in zip(risk.false_positive_rates, risk.true_positive_rates, risk.posteriors):
            assert fpr <= tpr <= 1.0
            for epsilon in (0.0, 0.5, 1.0, 2.0):
                assert tpr <= float(profile(np.array([epsilon]))[0]) + math.exp(epsilon) * fpr + 1e-12
            assert posterior >= risk.prior
    by_id = {r.mechanism.id: r for r in risks}
    assert by_id["classical_gaussian"].reason  # ε = 1 is outside its theorem
    # R1SMG's true profile lets an attacker do far more than its claimed (1, 1e-5) allows
    claimed_bound = 1e-5 + math.e * 0.01
    assert by_id["r1smg"].true_positive_rates[0] > claimed_bound
    # the analytic Gaussian meets (1, 1e-5) and its attack numbers respect it
    assert by_id["analytic_gaussian"].true_positive_rates[0] <= claimed_bound


@pytest.mark.parametrize("advantage", [0.01, 0.1, 0.5])
def test_inverse_for_advantage_matches_the_gaussian_closed_form(advantage):
    setting = Setting(epsilon=1.0, delta=1e-5, sensitivity=2.0)
    sigma = scale_for_attack_limit("analytic_gaussian", setting, advantage=advantage)
    exact = gaussian_sigma_for_attack(2.0, advantage=advantage)
    # the profile's δ(0) itself is accurate to ~1e-11 relative at small μ (docs/math.md section 2.3)
    assert sigma == pytest.approx(exact, rel=1e-9)
    assert float(gaussian_delta(0.0, sigma, 2.0)) <= advantage
    assert float(gaussian_delta(0.0, sigma * (1 - 1e-8), 2.0)) > advantage


@pytest.mark.parametrize("mechanism_id", ["analytic_gaussian", "laplace", "generalized_gaussian"])
def test_inverse_for_tpr_holds_the_attack_and_is_tight(mechanism_id):
    setting = Setting(epsilon=1.0, delta=1e-5, order=1.5)
    mechanism = MECHANISMS[mechanism_id]
    scale = scale_for_attack_limit(mechanism, setting, true_positive_rate=0.05, false_positive_rate=0.01)
    risk = mechanism_attack_risk(mechanism, setting, false_positive_rates=(0.01,), scale=scale)
    assert risk.true_positive_rates[0] <= 0.05
    tighter = mechanism_attack_risk(mechanism, setting, false_positive_rates=(0.01,), scale=scale * (1 - 1e-8))
    assert tighter.true_positive_rates[0] > 0.05
    if mechanism_id == "analytic_gaussian":
        exact = gaussian_sigma_for_attack(true_positive_rate=0.05, false_positive_rate=0.01)
        assert scale == pytest.approx(exact, rel=1e-10)


def test_gaussian_inverse_round_trips():
    sigma = gaussian_sigma_for_attack(1.5, true_positive_rate=0.3, false_positive_rate=1e-3)
    assert gaussian_attack_power(1e-3, sigma, 1.5) == pytest.approx(0.3, rel=1e-12)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: attack_power_from_profile(0.0, lambda e: gaussian_delta(e, 1.0)), "alpha must be in (0, 1)"),
        (lambda: attack_power_from_profile(1.5, lambda e: gaussian_delta(e, 1.0)), "got alpha=1.5"),
        (lambda: attack_power_from_profile(0.1, lambda e: np.full(np.shape(e), np.nan)), "not a probability"),
        (lambda: posterior_belief(1.0, 0.5, 0.1), "prior must be in (0, 1)"),
        (lambda: gaussian_attack_power(0.1, -1.0), "sigma must be"),
        (lambda: gaussian_sigma_for_attack(advantage=1.0), "advantage must be in (0, 1)"),
        (lambda: gaussian_sigma_for_attack(true_positive_rate=0.01, false_positive_rate=0.05), "must exceed"),
        (lambda: mechanism_attack_risk("nope", Setting(epsilon=1.0, delta=1e-5)), "mechanism must be one of"),
        (lambda: mechanism_attack_risk("laplace", Setting(epsilon=1.0, delta=1e-5), prior=0.0), "prior must be"),
        (
            lambda: scale_for_attack_limit("laplace", Setting(epsilon=1.0, delta=1e-5), true_positive_rate=0.5),
            "true_positive_rate= together with false_positive_rate=",
        ),
    ],
)
def test_bad_arguments_name_the_parameter(call, message):
    with pytest.raises((ValueError, TypeError), match=message.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_type_errors_for_non_numbers():
    with pytest.raises(TypeError, match="alpha"):
        attack_power_from_profile("0.1", lambda e: gaussian_delta(e, 1.0))
    with pytest.raises(TypeError, match="advantage=, or true_positive_rate="):
        scale_for_attack_limit("laplace", Setting(epsilon=1.0, delta=1e-5), advantage=0.1, true_positive_rate=0.2)


def test_module_lists_its_public_names():
    for name in attack_risk.__all__:
        assert hasattr(attack_risk, name)


# --- edges of the float64 range (issue 9 follow-up) -------------------------------------------


def test_posterior_at_a_subnormal_prior_is_prior_odds_times_the_likelihood_ratio():
    # π TPR/(π TPR + (1 − π) FPR) ≈ 5e-324 × 20 = 1e-322 (the old 1/(1 + ratio) overflowed to 0)
    assert attack_risk.posterior_belief(5e-324, 0.2, 0.01) == pytest.approx(1e-322, rel=0.05)
    assert attack_risk.posterior_belief(0.5, 0.5, 5e-324) == 1.0


def test_sigma_for_a_tiny_advantage_is_finite_and_matched_by_the_registry_search():
    expected = float(1 / (mp.mpf("1e-300") * mp.sqrt(2 * mp.pi)))  # μ = 2√2 erfinv(a) ≈ a √(2π)
    assert attack_risk.gaussian_sigma_for_attack(advantage=1e-300) == pytest.approx(expected, rel=1e-14)
    searched = attack_risk.scale_for_attack_limit(
        "analytic_gaussian", Setting(epsilon=1.0, delta=1e-5), advantage=1e-300
    )
    assert searched == pytest.approx(expected, rel=1e-9)


def test_attack_functions_name_an_empty_rate_list():
    with pytest.raises(ValueError, match="^false_positive_rates must hold at least one"):
        attack_risk.mechanism_attack_risk(
            "analytic_gaussian", Setting(epsilon=1.0, delta=1e-5), false_positive_rates=[]
        )


def test_a_mechanism_outside_its_domain_does_not_stop_the_table():
    """At Δ = 1e300 the discrete Gaussian's exact forms have no integer lattice (Δ > 2^52): its entry
    says so through its validity, and every other mechanism's row is still computed."""
    from gaussmech_core.attack_risk import attack_risk_all
    from gaussmech_core.mechanisms import evaluate
    from gaussmech_core.registry_types import Setting

    setting = Setting(epsilon=1.0, delta=1e-5, sensitivity=1e300)
    validity = evaluate("discrete_gaussian", setting).validity
    assert not validity.valid and "2^52" in validity.reason
    rows = attack_risk_all(setting)
    assert len(rows) >= 10


def _closed_form_points():
    """Random (α, σ, Δ, advantage, TPR) over the ranges the pages use, with the audit's points."""
    rng = np.random.default_rng(2020)
    n = 150
    alpha = 10 ** rng.uniform(-12, -0.01, n)
    points = list(
        zip(
            alpha.tolist(),
            (10 ** rng.uniform(-1.5, 3, n)).tolist(),
            (10 ** rng.uniform(-1, 1, n)).tolist(),
            (10 ** rng.uniform(-10, -1e-6, n)).tolist(),
            (alpha + (1 - alpha) * rng.random(n)).tolist(),
        )
    )
    # Points where the plain closed forms erred low (power 1.5e-14 relative) or gave too small a σ.
    return points + [
        (4.1193754154195335e-12, 26.751703807068314, 0.1557901024531592, 2.1657912176406984e-07, 0.00892890177355854),
        (5.5401857932122294e-12, 1.4273727664240352, 3.146447870830271, 0.5, 0.00892890177355854),
    ]


def _mp_power(alpha, mu):
    return mp.ncdf(mu + mp.sqrt(2) * mp.erfinv(2 * mp.mpf(alpha) - 1))


def test_gaussian_closed_forms_round_toward_the_safe_side_against_mpmath():
    """The reported TPR is never below the exact one, a returned σ never lets the exact advantage
    or TPR exceed its target, and each is within 1e-13 relative of exact (issue 20 item 7: the
    power was 1.5e-14 low, the σ of both modes a few ulp small)."""
    with mp.workdps(50):
        for alpha, sigma, sensitivity, advantage, tpr in _closed_form_points():
            exact = _mp_power(alpha, mp.mpf(sensitivity) / mp.mpf(sigma))
            reported = gaussian_attack_power(alpha, sigma, sensitivity)
            assert exact <= reported <= exact * (1 + 1e-13), (alpha, sigma, sensitivity)
            by_advantage = gaussian_sigma_for_attack(sensitivity, advantage=advantage)
            reached = mp.erf(mp.mpf(sensitivity) / mp.mpf(by_advantage) / (2 * mp.sqrt(2)))
            assert advantage * (1 - 1e-13) <= reached <= advantage, (advantage, sensitivity)
            by_power = gaussian_sigma_for_attack(sensitivity, true_positive_rate=tpr, false_positive_rate=alpha)
            assert by_power > 0
            reached = _mp_power(alpha, mp.mpf(sensitivity) / mp.mpf(by_power))
            assert reached <= tpr and (tpr - reached) <= 1e-13 * tpr + 1e-12 * (tpr - alpha), (tpr, alpha)


def test_attack_power_search_stops_once_the_parabola_settles_it():
    """Half the profile calls of before (52 per call, a cost the pages' risk tables paid 15 times
    per setting), with the same answer: at most 36 calls here, within 2e-13 of the full search."""
    calls = []

    def profile(epsilons):
        calls.append(np.size(epsilons))
        return gaussian_delta(epsilons, 3.73)

    alphas = np.array([0.3, 0.05, 0.01, 0.001, 1e-6, 1e-10])
    fast = attack_risk.attack_power_from_profile(alphas, profile)
    assert len(calls) <= 36
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(attack_risk, "_NARROW", 0.0)  # never settle early: all 48 steps
        full = attack_risk.attack_power_from_profile(alphas, lambda e: gaussian_delta(e, 3.73))
    assert np.all(fast >= full * (1 - 1e-15)) and np.all(fast <= full * (1 + 2e-13))
