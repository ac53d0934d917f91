"""The Gaussian family: exact profile, calibrations, PLD, zCDP/GDP conversions and noise tails.

The oracle is mpmath (an independent implementation of Balle & Wang's eq. (6) at 50+ digits and a
bisection for σ), plus the reference tables of docs/math.md sections 1, 2.5, 3 and 9.2.
"""

from __future__ import annotations

import doctest
import functools
import math
import warnings

import mpmath as mp
import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st
from scipy import special, stats

import gaussmech_core.gaussian as gaussian
from gaussmech_core.gaussian import (
    DELTA_MIN,
    EPSILON_MAX,
    analytic_gaussian_sigma,
    classical_gaussian_sigma,
    delta_zero,
    gaussian_coordinate_tail,
    gaussian_delta,
    gaussian_epsilon,
    gaussian_log_coordinate_tail,
    gaussian_log_delta,
    gaussian_loss_quantile,
    gaussian_norm_tail,
    gaussian_privacy_loss,
    gaussian_tradeoff,
    gdp_mu,
    low_privacy_sigma_bound,
    pdp_gaussian_sigma,
    privacy_loss_masses,
    tail_bound_gaussian_sigma,
    theorem2_gaussian_sigma,
    vinterbo_gaussian_sigma,
    zcdp_bun_steinke_sigma,
    zcdp_cks_sigma,
    zcdp_rho,
    zcdp_to_delta_cks,
    zcdp_to_epsilon_bun_steinke,
    zcdp_to_epsilon_cks,
    zero_epsilon_gaussian_sigma,
)

GRID_EPSILONS = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1.0, 10.0, 100.0, 1000.0]
GRID_DELTAS = [1e-300, 1e-100, 1e-20, 1e-10, 1e-5, 1e-3, 0.1, 0.5, 0.9]
DPS = 60  # 9 digits cancel at ε = 1e-6, δ = 1e-300; 60 leaves 45 more than a double needs


# --- The mpmath oracle ----------------------------------------------------------------------


def mp_delta(epsilon, mu):
    """δ(ε; μ) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ) (Balle & Wang eq. (6)), inputs taken exactly."""
    with mp.workdps(DPS):
        epsilon, mu = mp.mpf(epsilon), mp.mpf(mu)
        if mu == 0:
            return mp.mpf(0)
        a = mu / 2 - epsilon / mu
        b = -mu / 2 - epsilon / mu
        return mp.ncdf(a) - mp.exp(epsilon) * mp.ncdf(b)


def mp_delta_at(epsilon, sigma, sensitivity=1.0):
    """The δ achieved by the float σ returned, computed exactly from the floats (μ = Δ/σ in mpmath)."""
    with mp.workdps(DPS):
        return mp_delta(epsilon, mp.mpf(sensitivity) / mp.mpf(sigma))


@functools.lru_cache(maxsize=None)
def mp_sigma(epsilon, delta):
    """σ for Δ = 1: the root in t = log μ of log δ(ε; e^t) = log δ, to ~1e-24, proven by a sign change.

    A bracket is found by steps of 4 in t, then safeguarded Newton (d log δ/dt = μ φ(a)/δ, falling
    back to bisection outside the bracket) narrows it; the result is accepted only if
    log δ − log target changes sign across ±1e-24 around it.
    """
    with mp.workdps(DPS):
        log_target = mp.log(mp.mpf(delta))
        if epsilon == 0:
            return 1 / (2 * mp.sqrt(2) * mp.erfinv(mp.mpf(delta)))

        def excess(t):
            return mp.log(mp_delta(epsilon, mp.exp(t))) - log_target

        low = mp.mpf(-1)
        while excess(low) > 0:
            low -= 4
        high = low + 4
        while excess(high) < 0:
            low, high = high, high + 4
        t = (low + high) / 2
        for _ in range(200):
            value = excess(t)
            if value < 0:
                low = t
            else:
                high = t
            mu = mp.exp(t)
            slope = mu * mp.npdf(mu / 2 - epsilon / mu) / mp_delta(epsilon, mu)
            step = t - value / slope
            step = step if low < step < high else (low + high) / 2
            if abs(step - t) < mp.mpf(10) ** -40:
                break
            t = step
        width = mp.mpf(10) ** -24 * max(1, abs(t))
        assert excess(t - width) < 0 < excess(t + width)
        return 1 / mp.exp(t)


@pytest.fixture(scope="module")
def reference_grid():
    """mpmath σ on the brief's grid (computed once per module)."""
    return {(e, d): mp_sigma(e, d) for e in GRID_EPSILONS for d in GRID_DELTAS}


def relative_error(value, exact):
    with mp.workdps(DPS):
        return float(abs(mp.mpf(value) - exact) / exact)


def test_doctests_pass():
    result = doctest.testmod(gaussian)
    assert result.attempted > 30
    assert result.failed == 0


# --- analytic_gaussian_sigma against mpmath ---------------------------------------------------


@pytest.fixture
def no_last_resort(monkeypatch):
    """Fail if the calibration ever needs its σ-doubling fallback (only meant for subnormal σ)."""

    def refuse(*args, **kwargs):
        raise AssertionError("the doubling fallback was reached")

    monkeypatch.setattr(gaussian, "_doubled_until_private", refuse)


def test_analytic_sigma_accuracy_on_the_grid(reference_grid, no_last_resort):
    epsilon = np.array([key[0] for key in reference_grid])
    delta = np.array([key[1] for key in reference_grid])
    vectorized = analytic_gaussian_sigma(epsilon, delta)
    for (e, d), sigma_array in zip(reference_grid, vectorized):
        exact = reference_grid[(e, d)]
        sigma_scalar = analytic_gaussian_sigma(e, d)
        bar = 1e-12 if e >= 1e-2 else 1e-9
        for sigma in (sigma_scalar, float(sigma_array)):
            assert relative_error(sigma, exact) <= bar, (e, d, sigma, float(exact))
            # Never below the exact value: the achieved δ (exact arithmetic on the float σ) ≤ target.
            assert sigma >= exact * (1 - 1e-30)
            assert mp_delta_at(e, sigma) <= d, (e, d, sigma)


def test_analytic_sigma_is_much_better_than_the_bar(reference_grid):
    """What we actually achieve (the bar above is the brief's): about 3e-13 everywhere."""
    worst = max(relative_error(analytic_gaussian_sigma(e, d), exact) for (e, d), exact in reference_grid.items())
    assert worst < 1e-12


@pytest.mark.parametrize("delta", [1e-300, 1e-20, 1e-5, 0.3, 0.9, 1 - 1e-12])
def test_zero_epsilon_is_exact_total_variation(delta):
    with mp.workdps(DPS):
        exact = 1 / (2 * mp.sqrt(2) * mp.erfinv(mp.mpf(delta)))
    for sigma in (analytic_gaussian_sigma(0.0, delta), zero_epsilon_gaussian_sigma(delta)):
        # The safety margin is 1e-14 (1 + |log δ| + q) in log δ and q = d log δ/d log μ ≈ 1 here,
        # so σ sits up to ~1e-11 above the exact value at δ = 1e-300 (the bar below 1e-2 is 1e-9).
        assert relative_error(sigma, exact) < 2.5e-14 * (2 + abs(math.log(delta)) + abs(math.log1p(-delta)))
        assert mp_delta_at(0.0, sigma) <= delta


@pytest.mark.parametrize(
    "epsilon, delta, sensitivity",
    [(0.5, 0.9999999999, 1.0), (1000.0, 1 - 2**-53, 1.0), (1e-6, 1 - 1e-15, 3.0), (20.0, 0.999, 1.0)],
)
def test_delta_close_to_one_is_calibrated_exactly(epsilon, delta, sensitivity, no_last_resort):
    """δ near 1 is solved on log(1 − δ), so σ is accurate, not just private."""
    sigma = analytic_gaussian_sigma(epsilon, delta, sensitivity)
    exact = mp_sigma(epsilon, delta) * sensitivity
    assert relative_error(sigma, exact) < 1e-10
    with mp.workdps(DPS):
        assert 1 - mp_delta_at(epsilon, sigma, sensitivity) >= 1 - mp.mpf(delta)


# --- Reference tables of docs/math.md ---------------------------------------------------------------

MATH_2_5 = [
    (1e-6, 1e-5, 38021.98146875, 4.84481e6),
    (0.01, 1e-5, 243.7854376757, 484.481),
    (0.1, 1e-5, 30.74956613198, 48.4481),
    (0.5, 1e-5, 7.031826675582, 9.68961),
    (1, 1e-5, 3.730631634816, None),
    (1, 1e-10, 5.867777749631, None),
    (1, 1e-20, 8.838226921981, None),
    (1, 1e-100, 21.0094090423, None),
    (1, 1e-300, 36.86549789411, None),
    (2, 1e-6, 2.230476271186, None),
    (5, 1e-5, 0.8918682649515, None),
    (10, 1e-5, 0.499888619709, None),
    (100, 1e-5, 0.09466990701475, None),
    (1000, 1e-5, 0.02458178335165, None),
    (1000, 1e-300, 0.04753766013224, None),
    (0.5, 0.5, 0.5909175992588, None),
    (0.5, 0.9, 0.2841201552895, None),
]


@pytest.mark.parametrize("epsilon, delta, sigma, classical", MATH_2_5)
def test_math_2_5_sigma_table(epsilon, delta, sigma, classical):
    assert analytic_gaussian_sigma(epsilon, delta) == pytest.approx(sigma, rel=1e-11)
    if classical is not None:
        assert classical_gaussian_sigma(epsilon, delta) == pytest.approx(classical, rel=1e-5)


@pytest.mark.parametrize(
    "epsilon, delta",
    [
        (0, 0.382924922548),
        (0.5, 0.2384217081349),
        (1, 0.1269367375066),
        (2, 0.02092363582111),
        (5, 5.793721691919e-7),
        (10, 9.812705826847e-23),
    ],
)
def test_math_2_5_profile_table(epsilon, delta):
    assert gaussian_delta(epsilon, 1.0) == pytest.approx(delta, rel=1e-11)
    assert gaussian_delta(np.array([epsilon]), 1.0)[0] == pytest.approx(delta, rel=1e-11)


@pytest.mark.parametrize(
    "epsilon, value",
    [(0.01, 0.0517715100154), (0.1, 0.138210780761), (1, 0.286208211922), (5, 0.383836852812), (20, 0.438393029956)],
)
def test_math_2_5_delta_zero_table(epsilon, value):
    assert delta_zero(epsilon) == pytest.approx(value, rel=1e-11)
    # δ₀(ε) is the δ achieved at σ = Δ/√(2ε) (Balle & Wang, Algorithm 1)
    assert gaussian_delta(epsilon, 1.0 / math.sqrt(2 * epsilon)) == pytest.approx(value, rel=1e-11)


@pytest.mark.parametrize("epsilon", [0.0, 1e-300, 1e-12, 1e-6, 0.2, 0.3, 1.0, 50.0, 1e6])
def test_delta_zero_against_mpmath(epsilon):
    with mp.workdps(400):  # ½ − e^ε Φ(−√(2ε)) cancels to √(ε/π) ≈ 1e-150 at ε = 1e-300
        e = mp.mpf(epsilon)
        exact = mp.mpf(1) / 2 - mp.exp(e) * mp.ncdf(-mp.sqrt(2 * e))
    assert delta_zero(epsilon) == pytest.approx(float(exact), rel=1e-14, abs=0)


@pytest.mark.parametrize("delta, exact, theorem2", [(0.1, 3.979, 5.0), (1e-3, 398.94, 500.0), (1e-6, 398942, 500000.0)])
def test_math_3_zero_epsilon_table(delta, exact, theorem2):
    assert zero_epsilon_gaussian_sigma(delta) == pytest.approx(exact, rel=2e-4)
    assert theorem2_gaussian_sigma(delta) == theorem2
    # Asymptotically the exact (0, δ) σ is Δ/(δ√(2π)) = 0.798 × Theorem 2's.
    assert zero_epsilon_gaussian_sigma(1e-12) / theorem2_gaussian_sigma(1e-12) == pytest.approx(
        2 / math.sqrt(2 * math.pi), rel=1e-9
    )


@pytest.mark.parametrize(
    "epsilon, delta_zero_value, mills", [(1, 0.2862, 0.2179), (5, 0.3838, 0.3738), (20, 0.4384, 0.4369)]
)
def test_math_3_low_privacy_table(epsilon, delta_zero_value, mills):
    assert delta_zero(epsilon) == pytest.approx(delta_zero_value, abs=5e-5)
    assert 0.5 - 1 / math.sqrt(4 * math.pi * epsilon) == pytest.approx(mills, abs=5e-5)
    assert mills < delta_zero(epsilon)  # the Mills-ratio threshold is a valid weakening


def test_theorem_4_bound_holds_exactly_below_delta_zero():
    """σ ≥ Δ/√(2ε) is necessary iff δ < δ₀(ε) (docs/math.md section 3), checked on the exact calibration."""
    for epsilon in (0.01, 0.5, 1.0, 5.0, 100.0):
        bound = low_privacy_sigma_bound(epsilon, 2.0)
        threshold = delta_zero(epsilon)
        assert analytic_gaussian_sigma(epsilon, threshold * 0.999, 2.0) > bound
        assert analytic_gaussian_sigma(epsilon, min(threshold * 1.001, 0.99), 2.0) < bound


def test_theorem_4_extracted_threshold_is_numerically_false():
    """docs/math.md section 3: e^ε Φ(−√(2ε)) < e^{−3ε}/√(4πε) fails at ε = 1 (0.2138 vs 0.0140)."""
    with mp.workdps(30):
        left = mp.e * mp.ncdf(-mp.sqrt(2))
        right = mp.e**-3 / mp.sqrt(4 * mp.pi)
    assert float(left) == pytest.approx(0.2138, abs=1e-4)
    assert float(right) == pytest.approx(0.0140, abs=1e-4)
    assert left > right


MATH_9_2 = [
    # (ε, δ): cGM, aGM, tail-sufficient, Liu pDP, zCDP–BS, zCDP–CKS
    ((0.1, 1e-5), (48.45, 30.75, 42.77, 44.28, 48.09, 33.98)),
    ((1.0, 1e-5), (4.845, 3.731, 4.379, 4.528, 4.901, 4.045)),
    ((1.0, 1e-10), (6.819, 5.868, 6.439, 6.543, 6.859, 6.145)),
    ((8.0, 1e-6), (0.6624, 0.6529, 0.6854, 0.7007, 0.7414, 0.6893)),
]


@pytest.mark.parametrize("setting, values", MATH_9_2)
def test_math_9_2_calibration_table(setting, values):
    epsilon, delta = setting
    classical, analytic, tail, pdp, bun_steinke, cks = values
    if epsilon < 1:
        assert classical_gaussian_sigma(epsilon, delta) == pytest.approx(classical, rel=1e-3)
    else:  # "outside Thm 1": the formula's value, which the function refuses to return
        assert 2 * math.sqrt(2 * math.log(1.25 / delta)) / epsilon / 2 == pytest.approx(classical, rel=1e-3)
        with pytest.raises(ValueError, match="analytic_gaussian_sigma"):
            classical_gaussian_sigma(epsilon, delta)
    assert analytic_gaussian_sigma(epsilon, delta) == pytest.approx(analytic, rel=1e-3)
    assert tail_bound_gaussian_sigma(epsilon, delta) == pytest.approx(tail, rel=1e-3)
    assert pdp_gaussian_sigma(epsilon, delta) == pytest.approx(pdp, rel=1e-3)
    assert zcdp_bun_steinke_sigma(epsilon, delta) == pytest.approx(bun_steinke, rel=1e-3)
    assert zcdp_cks_sigma(epsilon, delta) == pytest.approx(cks, rel=1e-3)


def test_math_1_table_and_classical_failure_beyond_its_domain():
    assert vinterbo_gaussian_sigma(1.0, 1e-5) == pytest.approx(4.609, rel=1e-3)
    assert vinterbo_gaussian_sigma(10.0, 1e-5) == pytest.approx(0.542, rel=2e-3)
    # docs/math.md section 1: the classical formula is not private at ε = 10, δ = 1e-5 (true δ 2.27e-5).
    formula = math.sqrt(2 * (math.log(1.25) - math.log(1e-5))) / 10.0
    assert gaussian_delta(10.0, formula) == pytest.approx(2.27e-5, rel=1e-2)
    assert gaussian_delta(5.0, formula * 2) == pytest.approx(1.3e-6, rel=5e-2)


# --- The profile evaluator ---------------------------------------------------------------------


def _profile_points():
    """(ε, σ) near the calibrations the library makes (σ within a factor ~2 of the answer)."""
    rng = np.random.default_rng(11)
    epsilon = 10 ** rng.uniform(-7, 3.3, 120)
    sigma = analytic_gaussian_sigma(epsilon, 10 ** rng.uniform(-300, -0.01, 120)) * np.exp(rng.normal(0, 0.3, 120))
    points = list(zip(epsilon.tolist(), sigma.tolist()))
    points += [(0.0, 1e-3), (0.0, 1e3), (1e-6, 3.6e7), (1.0, 1e-3), (1000.0, 0.02), (700.0, 0.1)]
    return points


@pytest.fixture(scope="module")
def profile_points():
    return [(e, s, mp.log(mp_delta_at(e, s))) for e, s in _profile_points()]


def test_log_delta_against_mpmath(profile_points):
    epsilon = np.array([p[0] for p in profile_points])
    sigma = np.array([p[1] for p in profile_points])
    vectorized = gaussian_log_delta(epsilon, sigma)
    for (e, s, exact), value_array in zip(profile_points, vectorized):
        # The value is raised by 4e-15 (1 + |log δ| + q), q = μ φ(a)/δ (the condition number in μ),
        # so it is never below the exact log δ and above it by at most that plus the rounding.
        mu = 1.0 / mp.mpf(s)
        q = float(mu * mp.npdf(mu / 2 - mp.mpf(e) / mu) / mp.exp(exact))
        tolerance = 6e-15 * (1 + abs(float(exact)) + q)
        for value in (gaussian_log_delta(e, s), value_array):
            assert float(exact) <= value <= float(exact) + tolerance, (e, s)


def mp_log_profile(epsilon, sigma, sensitivity=1.0):
    """(log δ, q = μ φ(a)/δ) with μ = Δ/σ exact, at a precision that covers both cancellations:
    δ = Φ(a) − e^ε Φ(b) loses about 2 log10(1/μ) digits as μ → 0 (1 − erfcx(x₂)/erfcx(x₁) ≈ μ²/ε),
    and e^{−a²/2} needs log10(a²) more digits for its exponent; for a ≥ 0, log δ = log1p(−(1 − δ))."""
    mu_float = sensitivity / sigma
    digits = 40 + 4 * max(0, -math.log10(mu_float)) + 2 * max(0.0, math.log10(epsilon + 1) + math.log10(mu_float))
    with mp.workdps(int(digits)):
        mu, e = mp.mpf(sensitivity) / mp.mpf(sigma), mp.mpf(epsilon)
        a, b = mu / 2 - e / mu, -mu / 2 - e / mu
        if a < 0:
            delta = mp.erfc(-a / mp.sqrt(2)) / 2 - mp.exp(e) * mp.erfc(-b / mp.sqrt(2)) / 2
            log_delta = mp.log(delta)
        else:
            rest = mp.erfc(a / mp.sqrt(2)) / 2 + mp.exp(e) * mp.erfc(-b / mp.sqrt(2)) / 2
            delta, log_delta = 1 - rest, mp.log1p(-rest)
        return float(log_delta), float(mu * mp.npdf(a) / delta)


def _error_bound_points():
    """(ε, σ, Δ): random over ε in [1e-6, 1e3], Δ in [1e-3, 1e3], σ near the calibrations and out to
    1e30 (|a| up to 1e33), plus the worst points of a 20,000-point scan and the audit's points."""
    rng = np.random.default_rng(20)
    n = 300
    epsilon = 10 ** rng.uniform(-6, 3, n)
    sensitivity = 10 ** rng.uniform(-3, 3, n)
    near = analytic_gaussian_sigma(epsilon, 10 ** rng.uniform(-300, -0.01, n), sensitivity)
    sigma = np.where(np.arange(n) % 2 == 0, near * np.exp(rng.normal(0, 0.5, n)), 10 ** rng.uniform(-3, 30, n))
    points = list(zip(epsilon.tolist(), sigma.tolist(), sensitivity.tolist()))
    return points + [
        (0.02018126941799268, 3.571332968291168, 0.6527946111197205),  # 1.54e-15: the largest seen
        (0.2181434042825388, 28.597165549221852, 0.8152033097298927),
        (0.022745528613192866, 0.4325445533853725, 0.06365944110735425),
        (1.3, 1.9e10, 1.0),  # the audit's: log δ = −3.05e20 was reported as +2.03e289
        (459.26842812619464, 2347093.0558747845, 1.1831558272024363),  # q cancelled: 3e-5 relative high
        (0.011570721562127509, 198976934153340.2, 0.0023843663863712134),
        (2.99, 1.9e32, 1.0),
        (0.3, 1e18, 1.0),  # |log δ| ≈ 5e34, q ≈ 1e35
    ]


@pytest.fixture(scope="module")
def error_bound_points():
    return [(e, s, d, *mp_log_profile(e, s, d)) for e, s, d in _error_bound_points()]


def test_log_delta_error_bound_as_stated_holds_against_mpmath(error_bound_points):
    """The evaluator's error is below the bound the docstring states, _LOG_DELTA_ERROR (1 + |log δ| + q),
    on both paths; and what gaussian_log_delta reports lies in [log δ, log δ + (4e-15 + bound)(…)].

    The old statement, 1.1e-16 (1 + |log δ| + q), was exceeded 14x (at log δ ≈ −2.75); the slope q
    cancelled for |a| ≳ 1e8 (log μ − a²/2 − log δ with log δ ≈ −a²/2), so log δ = −3.05e20 was
    reported as +2.03e289 and gaussian_delta overflowed."""
    bound = gaussian._LOG_DELTA_ERROR
    assert f"below {bound:g} (1 + |log δ| + q)" in " ".join(gaussian.gaussian_log_delta.__doc__.split())
    epsilon, sigma, sensitivity = (np.array([p[i] for p in error_bound_points]) for i in range(3))
    mu = gaussian._unit_mu(sigma, sensitivity)
    raw_array = gaussian._log_delta_array(epsilon, mu)
    reported_array = gaussian_log_delta(epsilon, sigma, sensitivity)
    for (e, s, d, exact, q), m, raw, reported in zip(error_bound_points, mu.tolist(), raw_array, reported_array):
        scale = 1.0 + abs(exact) + q
        for value in (raw, gaussian._log_delta_scalar(e, m)):
            assert abs(value - exact) <= bound * scale, (e, s, d, value, exact, q)
        for value in (reported, gaussian_log_delta(e, s, d)):
            assert exact <= value <= exact + (gaussian._REPORT_MARGIN + bound) * scale, (e, s, d, value, exact, q)


def test_log_delta_far_out_in_sigma_is_finite_and_negative():
    """|μ/2 − ε/μ| ≳ 1e8: δ underflows to 0 (no OverflowError), log δ ≈ −a²/2 (raised by 1.2e-14 relative, 4e-15 (1 + |log δ| + q) with q ≈ 2 |log δ|)."""
    assert gaussian_delta(1.3, 1.9e10) == 0.0
    assert gaussian_log_delta(1.3, 1.9e10) == pytest.approx(-0.5 * (1.3 * 1.9e10) ** 2, rel=2e-14)
    far = gaussian_log_delta(np.array([1.3, 2.99, 0.3]), np.array([1.9e10, 1.9e32, 1e18]))
    np.testing.assert_allclose(far, -0.5 * (np.array([1.3, 2.99, 0.3]) * [1.9e10, 1.9e32, 1e18]) ** 2, rtol=2e-14)


def test_log_delta_far_below_float64():
    """log δ where δ underflows (docs/math.md section 2.3): δ = e^−5014, and the brief's δ = 1e-800."""
    # Both are reported raised by 4e-15 (1 + |log δ| + q), with q ≈ 2 |log δ| here: 1.2e-14 relative.
    with mp.workdps(DPS):
        exact = mp.log(mp_delta(1.0, mp.mpf(1) / 100))
    assert gaussian_log_delta(1.0, 100.0) == pytest.approx(float(exact), rel=2e-14)
    assert gaussian_delta(1.0, 100.0) == 0.0
    target = -800 * math.log(10)  # log(1e-800)
    with mp.workdps(DPS):
        epsilon = float(mp.findroot(lambda e: mp.log(mp_delta(e, mp.mpf(1) / 20)) - target, 4.0))
        exact = mp.log(mp_delta(epsilon, mp.mpf(1) / 20))
    assert float(exact) == pytest.approx(target, rel=1e-12)
    assert gaussian_log_delta(epsilon, 20.0) == pytest.approx(float(exact), rel=2e-14)


def test_scalar_and_array_evaluators_agree():
    rng = np.random.default_rng(3)
    epsilon = 10 ** rng.uniform(-8, 3, 2000)
    mu = 10 ** rng.uniform(-9, 2, 2000)
    array = gaussian._log_delta_array(epsilon, mu)
    scalar = np.array([gaussian._log_delta_scalar(e, m) for e, m in zip(epsilon.tolist(), mu.tolist())])
    assert np.allclose(array, scalar, rtol=1e-15, atol=1e-15)


def test_gaussian_delta_special_values():
    assert gaussian_delta(0.3, math.inf) == 0.0
    assert gaussian_log_delta(0.0, 1.0, 0.0) == -math.inf
    assert gaussian_delta(0.0, 1e-300) == 1.0
    assert gaussian_log_delta(5.0, 1e-300) == 0.0
    assert gaussian_delta(0.0, 1.0) == pytest.approx(math.erf(1 / (2 * math.sqrt(2))), rel=1e-15)
    # tiny μ at ε = 0: δ = μ/√(2π)
    # (reported upward by its margin 4e-15 (1 + |log δ| + q), with q = d log δ/d log μ = 1 here)
    exact = math.log(1e-305) - 0.5 * math.log(2 * math.pi)
    assert exact <= gaussian_log_delta(0.0, 1e305) <= exact + 6e-15 * (2 + abs(exact))


# --- Properties (hypothesis) --------------------------------------------------------------------

epsilons = st.floats(min_value=1e-6, max_value=1e3).filter(lambda e: e > 0)
log_deltas = st.floats(min_value=-690.0, max_value=math.log(0.9))
sensitivities = st.floats(min_value=1e-3, max_value=1e3)


@settings(max_examples=80, deadline=None)
@given(epsilons, log_deltas, sensitivities)
def test_returned_sigma_meets_epsilon_delta(epsilon, log_delta, sensitivity):
    delta = math.exp(log_delta)
    sigma = analytic_gaussian_sigma(epsilon, delta, sensitivity)
    assert mp_delta_at(epsilon, sigma, sensitivity) <= delta
    # ... and it is tight: 1e-9 relative less noise already violates the target.
    assert mp_delta_at(epsilon, sigma * (1 - 1e-9), sensitivity) > delta


@settings(max_examples=80, deadline=None)
@given(epsilons, log_deltas, st.floats(min_value=1.0001, max_value=10.0))
def test_monotone_in_epsilon_and_delta(epsilon, log_delta, factor):
    delta = math.exp(log_delta)
    assume(epsilon * factor <= 1e3 and delta * factor < 1)
    sigma = analytic_gaussian_sigma(epsilon, delta)
    assert analytic_gaussian_sigma(epsilon * factor, delta) < sigma
    assert analytic_gaussian_sigma(epsilon, delta * factor) < sigma


@settings(max_examples=80, deadline=None)
@given(epsilons, log_deltas, sensitivities)
def test_linear_in_sensitivity(epsilon, log_delta, sensitivity):
    delta = math.exp(log_delta)
    unit = analytic_gaussian_sigma(epsilon, delta)
    assert analytic_gaussian_sigma(epsilon, delta, sensitivity) == pytest.approx(sensitivity * unit, rel=1e-12)
    assert analytic_gaussian_sigma(epsilon, delta, 0.0) == 0.0


@settings(max_examples=80, deadline=None)
@given(epsilons, log_deltas)
def test_round_trips(epsilon, log_delta):
    delta = math.exp(log_delta)
    sigma = analytic_gaussian_sigma(epsilon, delta)
    achieved = gaussian_delta(epsilon, sigma)
    assert achieved <= delta
    assert achieved == pytest.approx(delta, rel=1e-9)
    back = gaussian_epsilon(delta, sigma)  # both directions round to the safe side, by ~1e-13
    assert back == pytest.approx(epsilon, rel=1e-8)
    assert mp_delta_at(back, sigma) <= delta


@settings(max_examples=60, deadline=None)
@given(log_deltas, st.floats(min_value=1e-6, max_value=1e12))
def test_gaussian_epsilon_is_the_smallest_private_epsilon(log_delta, sigma):
    delta = math.exp(log_delta)
    epsilon = gaussian_epsilon(delta, sigma)
    assert mp_delta_at(epsilon, sigma) <= delta
    if epsilon > 0 and sigma > 1e-9:
        assert mp_delta_at(epsilon * (1 - 1e-8), sigma) > delta
    if epsilon == 0:
        assert gaussian_delta(0.0, sigma) <= delta


def test_gaussian_epsilon_with_a_subnormal_answer():
    """δ just below δ(0) at μ ≈ 5e-305: ε ≈ 3e-309 (a regression: Newton used to oscillate)."""
    sigma, delta = 1 / 4.640323336937864e-305, 1.851162746131146e-305
    epsilon = gaussian_epsilon(delta, sigma)
    assert 0 < epsilon < 1e-307
    with mp.workdps(DPS):
        assert mp_delta_at(epsilon, sigma) <= delta


def test_gaussian_epsilon_tiny_sigma_returns_an_upper_bound():
    """σ < Δ/1e10: the profile is not resolvable near the answer; the tail-bound ε is returned."""
    for sigma, delta in [(1e-11, 1e-5), (1e-20, 1e-300), (1e-160, 0.5)]:
        epsilon = gaussian_epsilon(delta, sigma)
        mu = 1 / sigma
        assert epsilon >= mu * mu / 2
        if math.isfinite(epsilon):
            with mp.workdps(400):
                assert mp_delta(epsilon, mp.mpf(1) / mp.mpf(sigma)) <= delta
    assert gaussian_epsilon(1e-5, 1e-170) == math.inf


# --- Extremes: no warning, no NaN, no hang ----------------------------------------------------

EXTREME_EPSILONS = [0.0, 1e-300, 1e-6, 1.0, 1e3, 1e6, EPSILON_MAX]
EXTREME_DELTAS = [DELTA_MIN, 1e-300, 1e-5, 0.5, 1 - 1e-10, 1 - 2**-53]
EXTREME_SENSITIVITIES = [0.0, 1e-300, 1.0, 1e300]


def test_extremes_of_the_calibration():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        e, d, s = np.meshgrid(EXTREME_EPSILONS, EXTREME_DELTAS, EXTREME_SENSITIVITIES, indexing="ij")
        sigma = analytic_gaussian_sigma(e, d, s)
        assert not np.any(np.isnan(sigma))
        assert np.all(sigma[s == 0] == 0)
        assert np.all(sigma[s > 0] > 0)
        for index in np.ndindex(sigma.shape):
            scalar = analytic_gaussian_sigma(float(e[index]), float(d[index]), float(s[index]))
            assert scalar == pytest.approx(sigma[index], rel=1e-9) or scalar == sigma[index] == math.inf
            if s[index] > 0 and math.isfinite(scalar):
                assert gaussian_log_delta(float(e[index]), scalar, float(s[index])) <= math.log(d[index])


@pytest.mark.parametrize(
    "function, args",
    [
        (gaussian_log_delta, (np.array(EXTREME_EPSILONS), np.array([1e-300, 1e-6, 1.0, 1e6, 1e300, np.inf, 2.0]), 1.0)),
        (gaussian_delta, (np.array(EXTREME_EPSILONS), 1e-300, 1e300)),
        (gaussian_epsilon, (np.array(EXTREME_DELTAS), np.array([1e-300, 1e-10, 1.0, 1e10, 1e300, np.inf]), 1.0)),
        (privacy_loss_masses, (np.array(EXTREME_EPSILONS), np.array([1e-300, 1e-6, 1.0, 1e6, 1e300, np.inf, 2.0]))),
        (gaussian_privacy_loss, (np.array([1e-300, 1.0, np.inf]), 1e300)),
        (delta_zero, (np.array(EXTREME_EPSILONS),)),
        (zero_epsilon_gaussian_sigma, (np.array(EXTREME_DELTAS), 1e300)),
        (theorem2_gaussian_sigma, (np.array(EXTREME_DELTAS), 1e300)),
        (tail_bound_gaussian_sigma, (np.array(EXTREME_EPSILONS[1:]), np.array(EXTREME_DELTAS)[:, None])),
        (pdp_gaussian_sigma, (np.array(EXTREME_EPSILONS[1:]), np.array(EXTREME_DELTAS)[:, None])),
        (zcdp_bun_steinke_sigma, (np.array(EXTREME_EPSILONS[1:]), np.array(EXTREME_DELTAS)[:, None])),
        (zcdp_cks_sigma, (np.array(EXTREME_EPSILONS[1:]), np.array(EXTREME_DELTAS)[:, None])),
        (vinterbo_gaussian_sigma, (np.array(EXTREME_EPSILONS[1:]), np.array(EXTREME_DELTAS)[:, None])),
        (zcdp_to_delta_cks, (np.array([0.0, 1e-300, 1e-6, 1.0, 1e6]), np.array(EXTREME_EPSILONS)[:, None])),
        (zcdp_to_epsilon_cks, (np.array([0.0, 1e-300, 1e-6, 1.0, 1e6]), np.array(EXTREME_DELTAS)[:, None])),
        (zcdp_to_epsilon_bun_steinke, (np.array([0.0, 1e-300, 1.0, 1e300]), np.array(EXTREME_DELTAS)[:, None])),
        (gaussian_tradeoff, (np.array([0.0, 1e-300, 0.5, 1.0]), np.array([0.0, 1.0, 1e300])[:, None])),
        (
            gaussian_norm_tail,
            (np.array([0.0, 1e-300, 1.0, 1e200, np.inf]), np.array([1e-300, 1.0, np.inf])[:, None], 10**6),
        ),
        (gaussian_coordinate_tail, (np.array([0.0, 1.0, 1e200, np.inf]), np.array([1e-300, 1.0, np.inf])[:, None])),
        (gaussian_log_coordinate_tail, (np.array([0.0, 1.0, 1e200, np.inf]), np.array([1e-300, 1.0, np.inf])[:, None])),
        (gaussian_loss_quantile, (np.array([0.0, 1e-300, 0.5, 1.0]), np.array([1e-300, 1.0, 1e300])[:, None], 3)),
    ],
)
def test_extremes_raise_no_warning_and_give_no_nan(function, args):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = function(*args)
    for part in result if isinstance(result, tuple) else (result,):
        assert not np.any(np.isnan(part))


# --- Bad input ----------------------------------------------------------------------------------

CALIBRATIONS = [
    analytic_gaussian_sigma,
    tail_bound_gaussian_sigma,
    pdp_gaussian_sigma,
    zcdp_bun_steinke_sigma,
    zcdp_cks_sigma,
    vinterbo_gaussian_sigma,
]


@pytest.mark.parametrize("function", CALIBRATIONS)
@pytest.mark.parametrize(
    "args, error, words",
    [
        ((float("nan"), 1e-5), ValueError, "epsilon"),
        ((float("inf"), 1e-5), ValueError, "epsilon"),
        ((-1.0, 1e-5), ValueError, "epsilon"),
        (("1.0", 1e-5), TypeError, "epsilon"),
        ((1.0, 1.0), ValueError, "delta"),
        ((1.0, 0.0), ValueError, "delta"),
        ((1.0, 1.5), ValueError, "delta"),
        ((1.0, float("nan")), ValueError, "delta"),
        ((1.0, 1e-5, -1.0), ValueError, "sensitivity"),
        ((1.0, 1e-5, float("inf")), ValueError, "sensitivity"),
        ((np.array([1.0, 2.0, np.nan]), 1e-5), ValueError, "index 2"),
        ((1.0, np.array([1e-5, 1e-5, 1e-5, 2.0])), ValueError, "index 3"),
        ((1.0, [1e-5, "x"]), TypeError, "delta"),
        ((True, 1e-5), TypeError, "epsilon"),
        ((None, 1e-5), TypeError, "epsilon"),
    ],
)
def test_calibrations_reject_bad_input(function, args, error, words):
    with pytest.raises(error, match=words):
        function(*args)


@pytest.mark.parametrize("function", CALIBRATIONS[1:])
def test_formulas_dividing_by_epsilon_name_the_alternative_at_zero(function):
    with pytest.raises(ValueError, match="zero_epsilon_gaussian_sigma"):
        function(0.0, 1e-5)


def test_classical_refuses_outside_its_theorem():
    for epsilon in (1.0, 2.0, 0.0):
        with pytest.raises(ValueError, match="analytic_gaussian_sigma") as info:
            classical_gaussian_sigma(epsilon, 1e-5)
        assert "not a theorem" in str(info.value)
    with pytest.raises(ValueError, match="index 1"):
        classical_gaussian_sigma(np.array([0.5, 1.5]), 1e-5)


def test_epsilon_beyond_float64_resolution_is_refused():
    with pytest.raises(ValueError, match="tail_bound_gaussian_sigma"):
        analytic_gaussian_sigma(1e21, 1e-5)
    # ... and the suggested alternative is private and within 1e-9 of the exact σ there
    for epsilon in (1e20, 1e21):
        tail = tail_bound_gaussian_sigma(epsilon, 1e-300)
        with mp.workdps(80):
            assert mp_delta_at(epsilon, tail) <= mp.mpf(1e-300)
    assert tail_bound_gaussian_sigma(1e20, 1e-300) == pytest.approx(analytic_gaussian_sigma(1e20, 1e-300), rel=1e-9)


def test_subnormal_delta_is_refused():
    with pytest.raises(ValueError, match="delta"):
        analytic_gaussian_sigma(1.0, 1e-310)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: gaussian_log_delta(1.0, 0.0), "sigma"),
        (lambda: gaussian_log_delta(1.0, -1.0), "sigma"),
        (lambda: gaussian_log_delta(-1.0, 1.0), "epsilon"),
        (lambda: gaussian_epsilon(0.0, 1.0), "delta"),
        (lambda: gaussian_epsilon(1e-5, np.array([1.0, np.nan])), "index 1"),
        (lambda: low_privacy_sigma_bound(0.0), "vacuous"),
        (lambda: gaussian_tradeoff(1.5, 1.0), "alpha"),
        (lambda: gaussian_tradeoff(0.5, np.inf), "mu"),
        (lambda: gaussian_norm_tail(1.0, 1.0, 0), "dim"),
        (lambda: gaussian_norm_tail(1.0, 1.0, 2.5), "whole number"),
        (lambda: gaussian_norm_tail(1.0, 1.0, np.array([1, 2, 2.5])), "index 2"),
        (lambda: gaussian_norm_tail(-1.0, 1.0, 1), "t"),
        (lambda: gaussian_loss_quantile(1.5, 1.0, 1), "q"),
        (lambda: zcdp_to_delta_cks(-1.0, 1.0), "rho"),
        (lambda: zcdp_to_epsilon_cks(1.0, 1.0), "delta"),
        (lambda: delta_zero(np.array([0.0, -1.0])), "index 1"),
    ],
)
def test_other_functions_reject_bad_input(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def test_dim_must_be_an_integer_type():
    with pytest.raises(TypeError, match="dim"):
        gaussian_norm_tail(1.0, 1.0, True)


# --- Broadcasting and types ------------------------------------------------------------------


def test_hundred_thousand_pairs_match_scalar_calls(no_last_resort):
    rng = np.random.default_rng(7)
    epsilon = 10 ** rng.uniform(-6, 3, 100_000)
    delta = 10 ** rng.uniform(-300, math.log10(0.9), 100_000)
    sigma = analytic_gaussian_sigma(epsilon, delta)
    assert sigma.shape == (100_000,)
    for index in rng.choice(100_000, 300, replace=False):
        assert analytic_gaussian_sigma(float(epsilon[index]), float(delta[index])) == pytest.approx(
            sigma[index], rel=1e-12
        )
    assert np.all(gaussian_log_delta(epsilon, sigma) <= np.log(delta))


def test_broadcasting_shapes_and_scalar_types():
    sigma = analytic_gaussian_sigma(np.array([[0.1], [1.0], [10.0]]), np.array([1e-10, 1e-5, 1e-3, 0.1]))
    assert sigma.shape == (3, 4)
    assert sigma[1, 1] == pytest.approx(3.730631634816, rel=1e-11)
    assert isinstance(analytic_gaussian_sigma(1.0, 1e-5), float)
    assert isinstance(analytic_gaussian_sigma(np.float64(1.0), 1e-5), float)
    assert isinstance(analytic_gaussian_sigma(np.array(1.0), 1e-5), float)
    assert isinstance(analytic_gaussian_sigma(1, 1e-5, 2), float)
    assert analytic_gaussian_sigma([1.0], 1e-5).shape == (1,)
    assert isinstance(gaussian_log_delta(1.0, 2.0), float)
    assert gaussian_log_delta([1.0, 2.0], 2.0).shape == (2,)
    assert isinstance(gaussian_epsilon(1e-5, 2.0), float)
    upper, lower = privacy_loss_masses(np.array([0.5, 1.0]), 1.0)
    assert upper.shape == lower.shape == (2,)
    with pytest.raises(ValueError, match="broadcast"):
        analytic_gaussian_sigma(np.ones(3), np.full(2, 1e-5))


# --- Privacy-loss distribution -----------------------------------------------------------------


def test_privacy_loss_is_normal_eta_two_eta_by_monte_carlo():
    """Lemma 3: L = log p(Y)/p'(Y), Y ~ N(0, σ²), neighbour at distance Δ, is N(η, 2η)."""
    sigma, sensitivity, n = 1.3, 0.9, 400_000
    rng = np.random.default_rng(20260101)
    y = rng.normal(0.0, sigma, n)
    loss = stats.norm.logpdf(y, 0.0, sigma) - stats.norm.logpdf(y, sensitivity, sigma)
    mean, variance = gaussian_privacy_loss(sigma, sensitivity)
    assert mean == pytest.approx(sensitivity**2 / (2 * sigma**2), rel=1e-15)
    assert variance == 2 * mean
    assert abs(loss.mean() - mean) < 5 * math.sqrt(variance / n)
    # the sample variance of a normal has standard error σ²√(2/n)
    assert abs(loss.var() - variance) < 5 * variance * math.sqrt(2 / n)
    assert stats.kstest(loss, stats.norm(mean, math.sqrt(variance)).cdf).pvalue > 1e-3
    # Theorem 5: δ(ε) = E[(1 − e^{ε−L})_+], and the two masses
    for epsilon in (0.0, 0.3, 1.0):
        hinge = np.maximum(1 - np.exp(epsilon - loss), 0.0)
        delta = gaussian_delta(epsilon, sigma, sensitivity)
        assert abs(hinge.mean() - delta) < 5 * hinge.std() / math.sqrt(n)
        upper, lower = privacy_loss_masses(epsilon, sigma, sensitivity)
        tail = (loss >= epsilon).mean()
        assert abs(tail - upper) < 5 * math.sqrt(upper * (1 - upper) / n)
        assert upper - lower == pytest.approx(delta, rel=1e-12)


@pytest.mark.parametrize("epsilon, sigma", [(0.0, 1.0), (1.0, 1.0), (1000.0, 0.05), (1e-6, 1e5), (1.0, 36.0)])
def test_privacy_loss_masses_against_mpmath(epsilon, sigma):
    upper, lower = privacy_loss_masses(epsilon, sigma)
    with mp.workdps(DPS):
        mu = 1 / mp.mpf(sigma)
        e = mp.mpf(epsilon)
        exact_upper = mp.ncdf(mu / 2 - e / mu)
        exact_lower = mp.exp(e) * mp.ncdf(-mu / 2 - e / mu)
    assert upper == pytest.approx(float(exact_upper), rel=1e-13)
    assert lower == pytest.approx(float(exact_lower), rel=1e-13)


def test_privacy_loss_of_nothing():
    assert privacy_loss_masses(0.0, 1.0, 0.0) == (1.0, 1.0)
    assert privacy_loss_masses(0.5, math.inf) == (0.0, 0.0)
    assert gaussian_privacy_loss(math.inf) == (0.0, 0.0)


# --- The other calibrations --------------------------------------------------------------------

CALIBRATION_SETTINGS = [
    (e, d) for e in (1e-6, 1e-3, 0.1, 1.0, 8.0, 100.0, 1e3) for d in (1e-300, 1e-20, 1e-5, 0.1, 0.5, 0.9)
]


@pytest.mark.parametrize("epsilon, delta", CALIBRATION_SETTINGS)
def test_looser_calibrations_meet_their_own_conditions_and_are_never_below_exact(epsilon, delta, reference_grid):
    exact = analytic_gaussian_sigma(epsilon, delta)
    with mp.workdps(DPS):
        e, d = mp.mpf(epsilon), mp.mpf(delta)
        # tail bound: Φ(μ/2 − ε/μ) ≤ δ, tight
        for sigma, tail in (
            (tail_bound_gaussian_sigma(epsilon, delta), d),
            (pdp_gaussian_sigma(epsilon, delta), d / 2),
        ):
            mu = 1 / mp.mpf(sigma)
            assert mp.ncdf(mu / 2 - e / mu) <= tail
            mu_less = 1 / (mp.mpf(sigma) * (1 - mp.mpf(1e-12)))
            assert mp.ncdf(mu_less / 2 - e / mu_less) > tail
            assert sigma >= exact
        # pDP is two-sided: P[|L| > ε] ≤ δ
        sigma = pdp_gaussian_sigma(epsilon, delta)
        eta = 1 / (2 * mp.mpf(sigma) ** 2)
        two_sided = mp.ncdf((eta - e) / mp.sqrt(2 * eta)) + mp.ncdf((-e - eta) / mp.sqrt(2 * eta))
        assert two_sided <= d
        # Bun–Steinke: ρ + 2√(ρ ln(1/δ)) ≤ ε
        sigma = zcdp_bun_steinke_sigma(epsilon, delta)
        rho = 1 / (2 * mp.mpf(sigma) ** 2)
        assert rho + 2 * mp.sqrt(rho * mp.log(1 / d)) <= e
        assert sigma >= exact
        # CKS: some α > 1 converts ρ to (ε, δ); checked through the forward conversion
        sigma = zcdp_cks_sigma(epsilon, delta)
        assert zcdp_to_delta_cks(zcdp_rho(sigma), epsilon) <= delta * (1 + 1e-12)
        assert sigma >= exact
        assert sigma <= zcdp_bun_steinke_sigma(epsilon, delta)
        assert vinterbo_gaussian_sigma(epsilon, delta) >= exact


def test_vinterbo_is_never_below_exact_on_a_fine_grid():
    """docs/math.md section 1 checked ε ≥ 1e-4; we extend it to ε = 1e-6."""
    epsilon, delta = np.meshgrid(
        np.logspace(-6, 3, 37), np.concatenate([np.logspace(-300, -1, 40), [0.3, 0.5, 0.7, 0.9]])
    )
    assert np.all(vinterbo_gaussian_sigma(epsilon, delta) >= analytic_gaussian_sigma(epsilon, delta))


def mp_cks_delta(rho, epsilon):
    """inf over α > 1 of exp((α−1)(αρ − ε)) (1 − 1/α)^α / (α − 1), by mpmath's minimiser on log(α − 1)."""
    with mp.workdps(40):
        rho, epsilon = mp.mpf(rho), mp.mpf(epsilon)

        def log_delta(s):
            alpha = 1 + mp.exp(s)
            return (alpha - 1) * (alpha * rho - epsilon) + alpha * mp.log(1 - 1 / alpha) - mp.log(alpha - 1)

        grid = [mp.mpf(x) / 4 for x in range(-120, 200)]
        best = min(grid, key=log_delta)
        s = mp.findroot(lambda s: mp.diff(log_delta, s), best)
        return min(mp.exp(log_delta(s)), mp.exp(log_delta(best)), mp.mpf(1))


@pytest.mark.parametrize("rho, epsilon", [(0.5, 3.0), (0.01, 0.5), (1e-4, 0.1), (2.0, 1.0), (10.0, 30.0), (1e-8, 1e-3)])
def test_cks_conversion_against_mpmath(rho, epsilon):
    delta = zcdp_to_delta_cks(rho, epsilon)
    exact = mp_cks_delta(rho, epsilon)
    assert delta >= float(exact) * (1 - 1e-14)  # conservative
    assert delta == pytest.approx(float(exact), rel=1e-10)
    back = zcdp_to_epsilon_cks(rho, delta)
    assert back == pytest.approx(epsilon, rel=1e-9)
    assert back >= epsilon * (1 - 1e-12)
    assert zcdp_to_epsilon_cks(rho, delta) <= zcdp_to_epsilon_bun_steinke(rho, delta)


def test_zcdp_helpers():
    assert zcdp_rho(2.0, 1.0) == 0.125
    assert zcdp_rho(math.inf) == 0.0
    assert zcdp_to_delta_cks(0.0, 0.0) == 0.0
    assert zcdp_to_epsilon_cks(0.0, 1e-5) == 0.0
    assert zcdp_to_epsilon_bun_steinke(0.0, 1e-5) == 0.0
    # ρ = ε²/2 from pure ε-DP converts back to at least ε (no free lunch)
    assert zcdp_to_epsilon_cks(0.5, 1e-300) > 1.0


# --- GDP ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("mu", [0.0, 0.3, 1.0, 3.0])
def test_tradeoff_against_mpmath_and_its_profile(mu):
    for alpha in (0.0, 1e-10, 0.05, 0.5, 0.99, 1.0):
        with mp.workdps(40):
            expected = mp.ncdf(-mp.sqrt(2) * mp.erfinv(2 * mp.mpf(alpha) - 1) - mu) if 0 < alpha < 1 else 1 - alpha
        assert gaussian_tradeoff(alpha, mu) == pytest.approx(float(expected), rel=1e-12, abs=1e-300)
    # Dong, Roth & Su Prop. 2.12: δ(ε) = sup_α [1 − G_μ(α) − e^ε α]
    alpha = np.linspace(0, 1, 200_001)
    for epsilon in (0.0, 0.5, 2.0):
        conjugate = np.max(1 - gaussian_tradeoff(alpha, mu) - np.exp(epsilon) * alpha)
        assert conjugate == pytest.approx(gaussian_delta(epsilon, 1.0 / mu if mu else math.inf), abs=2e-6)
    assert gdp_mu(4.0, 2.0) == 0.5
    assert gdp_mu(math.inf) == 0.0
    assert gdp_mu(1e-300, 1e300) == math.inf


# --- Tails of the noise ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "t, sigma, dim", [(0.5, 1.0, 1), (3.0, 1.0, 1), (30.0, 1.0, 10), (100.0, 2.0, 1000), (5.0, 0.1, 3)]
)
def test_norm_tail_against_mpmath(t, sigma, dim):
    with mp.workdps(40):
        exact = mp.gammainc(mp.mpf(dim) / 2, (mp.mpf(t) / sigma) ** 2 / 2, mp.inf, regularized=True)
    assert gaussian_norm_tail(t, sigma, dim) == pytest.approx(float(exact), rel=1e-12)


def test_coordinate_tails():
    t = np.array([0.0, 0.5, 1.96, 10.0, 30.0])
    assert np.allclose(gaussian_norm_tail(t, 1.0, 1), gaussian_coordinate_tail(t, 1.0), rtol=1e-13)
    assert np.allclose(np.exp(gaussian_log_coordinate_tail(t, 2.0)), gaussian_coordinate_tail(t, 2.0), rtol=1e-13)
    with mp.workdps(30):
        exact = mp.log(mp.erfc(mp.mpf(40) / mp.sqrt(2)))
    assert gaussian_log_coordinate_tail(40.0, 1.0) == pytest.approx(float(exact), rel=1e-14)
    assert gaussian_coordinate_tail(math.inf, 1.0) == 0.0
    assert gaussian_log_coordinate_tail(math.inf, 1.0) == -math.inf
    assert gaussian_norm_tail(0.0, 1.0, np.array([1, 5])).tolist() == [1.0, 1.0]


def test_loss_quantile():
    q = np.array([0.0, 0.1, 0.5, 0.99])
    assert np.allclose(gaussian_loss_quantile(q, 2.0, 7), 4.0 * stats.chi2.ppf(q, 7), rtol=1e-12)
    assert gaussian_loss_quantile(1.0, 1.0, 3) == math.inf
    assert gaussian_loss_quantile(0.5, 1e200, 3) == math.inf
    median = gaussian_loss_quantile(0.5, 1.5, 4)
    assert gaussian_norm_tail(math.sqrt(median), 1.5, 4) == pytest.approx(0.5, rel=1e-12)
    assert gaussian_loss_quantile(0.5, 1.0, np.array([1, 2, 3])).shape == (3,)


def test_classical_sigma_uses_log_difference():
    assert classical_gaussian_sigma(0.5, 1e-300) == pytest.approx(
        2 * math.sqrt(2 * (math.log(1.25) + 300 * math.log(10))), rel=1e-14
    )
    assert classical_gaussian_sigma(0.5, 1e-5) >= analytic_gaussian_sigma(0.5, 1e-5)


def test_special_function_identity_used_by_the_evaluator():
    """e^ε Φ(b) = ½ e^{−a²/2} erfcx(−b/√2) (docs/math.md section 2.3), at a point where e^ε overflows."""
    epsilon, mu = 800.0, 30.0
    a, b = mu / 2 - epsilon / mu, -mu / 2 - epsilon / mu
    with mp.workdps(40):
        exact = mp.exp(epsilon) * mp.ncdf(b)
    assert 0.5 * math.exp(-a * a / 2) * special.erfcx(-b / math.sqrt(2)) == pytest.approx(float(exact), rel=1e-13)


# --- edges of the float64 range (issue 9 follow-up) -------------------------------------------

LARGEST = 1.7976931348623157e308


def test_low_privacy_bound_and_vinterbo_stay_finite_at_the_largest_epsilon():
    # 2ε and √2 ε overflow there; the answers are about 5.3e-155 Δ, not 0
    exact = float(1 / mp.sqrt(2 * mp.mpf(LARGEST)))
    assert gaussian.low_privacy_sigma_bound(LARGEST) == pytest.approx(exact, rel=1e-15)
    vinterbo = gaussian.vinterbo_gaussian_sigma(LARGEST, 1e-5)
    assert exact <= vinterbo <= 1.01 * exact


@pytest.mark.parametrize("calibrate", [gaussian.zcdp_cks_sigma, gaussian.zcdp_bun_steinke_sigma])
def test_zcdp_sigma_at_the_largest_epsilon_is_verified_and_near_the_lower_bound(calibrate):
    # CKS raised "could not verify" there; both were pushed to σ >= 1e-154, where ρ stopped overflowing
    sigma = calibrate(LARGEST, 1e-5)
    bound = gaussian.low_privacy_sigma_bound(LARGEST)
    assert bound <= sigma <= 1.1 * bound
    assert gaussian.zcdp_to_epsilon_cks(gaussian.zcdp_rho(sigma), 1e-5) <= LARGEST


@pytest.mark.parametrize("function", [gaussian.zcdp_to_epsilon_cks, gaussian.zcdp_to_epsilon_bun_steinke])
def test_zcdp_conversions_overflow_to_a_documented_inf(function):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert function(LARGEST, 1e-5) == math.inf


def test_analytic_sigma_of_a_one_element_array_at_the_largest_sensitivity_is_inf_without_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert gaussian.analytic_gaussian_sigma(1.0, 1e-5, np.array([LARGEST]))[0] == math.inf
