"""Values at the edges of the domain, for the root fixes behind the edge contract (issue 9 follow-up).

Each test pins a closed form or a limit the fixed evaluation must reach: not only "no warning"
(test_edge_contract.py checks that), but the right number.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from gaussmech_core import bounded, denoise, discrete_gaussian, loss, multivariate, tails
from gaussmech_core._validation import MAX_SAMPLE_COUNT, sample_shape

LARGEST = 1.7976931348623157e308


@pytest.mark.parametrize(
    "size, shape", [(3, (3,)), ((2, 3), (2, 3)), (np.int64(4), (4,)), (np.array(4), (4,)), (np.array([2, 3]), (2, 3))]
)
def test_sample_shape_accepts_integers_and_shapes(size, shape):
    assert sample_shape(size) == shape


@pytest.mark.parametrize("size, error", [(4.0, TypeError), (True, TypeError), (-1, ValueError), (2**1024, ValueError)])
def test_sample_shape_refuses_by_name(size, error):
    with pytest.raises(error, match="size"):
        sample_shape(size)
    with pytest.raises(ValueError, match="size"):
        sample_shape((MAX_SAMPLE_COUNT, 2))


def test_r1smg_privacy_loss_at_huge_z_is_the_finite_exact_value():
    # L = (k/2) log1p(ρ(2t + ρ)) + a(zt + a/2) with ρ = a/z: at z = 1e300 the log term vanishes.
    z, t, a, k = mpmath.mpf(1e300), mpmath.mpf(0.2), 1, 2
    exact = k / 2 * mpmath.log(((z + a * t) ** 2 + a * a * (1 - t * t)) / z**2) + a * (z * t + mpmath.mpf(a) / 2)
    value = multivariate.r1smg_privacy_loss(z, t, 1.0, 1.0, 3)
    assert value == pytest.approx(float(exact), rel=1e-15)
    assert multivariate.r1smg_privacy_loss(0.0, 0.2, 1.0, 1.0, 3) == math.inf
    assert multivariate.r1smg_privacy_loss(-1.0, 1.0, 1.0, 1.0, 3) == -math.inf  # n + d at the origin


def test_r1smg_monte_carlo_work_is_bounded():
    with pytest.raises(ValueError, match="n_samples"):
        multivariate.r1smg_true_delta_monte_carlo(1.0, 2.0, 1.0, 3, n_samples=10**9)
    with pytest.raises(ValueError, match="n_samples"):
        multivariate.r1smg_true_delta_monte_carlo(np.linspace(0, 1, 200), 2.0, 1.0, 3, n_samples=10**6)


def test_r1smg_true_delta_is_zero_beyond_the_underflow_of_epsilon():
    # The bound δ <= 2a e^{-R/k} < 1e-330 holds there; just below it the quadrature still runs.
    assert multivariate.r1smg_true_delta(1e300, 2.0, 1.0, 3) == 0.0
    assert multivariate.r1smg_true_delta(LARGEST, 2.0, 1.0, 30) == 0.0
    below = multivariate.r1smg_true_delta(1000.0, 2.0, 1.0, 3)
    assert 0.0 < below < 1e-200


def test_mvg_iid_std_at_the_largest_gamma_is_finite():
    # 1×1, ε = 1: s = (β + sqrt(β² + 8αε))/(4ε) with α = 2γ² + 2γΔ, i.e. s ≈ γ + 1/2 + β/2.
    assert multivariate.mvg_iid_std(1.0, 1e-5, 1.0, 1, 1, 1e300) == pytest.approx(1e300, rel=1e-14)
    assert math.isfinite(multivariate.mvg_iid_std(1e-300, 1e-5, 1.0, 2, 3, 1.0))  # issue 9 item 8


def test_ji_li_constants_divide_in_a_safe_order():
    assert multivariate.ji_li_constant_analytic(1e300, 1e-5, 1) == pytest.approx(1e-300, rel=1e-12)
    assert multivariate.ji_li_constant_classical(1.0, 5e-324, 1) == pytest.approx(
        2 * (math.log(1.25) - math.log(5e-324))
    )
    assert multivariate.ji_li_constant_classical(1e-300, 1e-5, 1) == math.inf  # beyond float64, truthfully


def test_truncated_noise_tends_to_the_uniform_law_as_the_scale_grows():
    for scale in (1e6, 1e300, LARGEST):
        assert bounded.truncated_noise_pdf(0.3, scale, 2.0, 0.5) == pytest.approx(1.0, rel=1e-12)
        assert bounded.truncated_noise_tail(0.3, scale, 2.0, 0.5) == pytest.approx(0.4, rel=1e-12)
    assert bounded.truncated_noise_pdf(0.0, 1.5, 2.0, 1e-300) == pytest.approx(5e299, rel=1e-12)


@pytest.mark.parametrize("q, scale, order, h", [(300.0, 1.0, 2.0, 3.0), (1.0, 5.0, 1.0, 2.0), (8.0, 0.1, 1.5, 1.0)])
def test_clamped_noise_moment_against_mpmath(q, scale, order, h):
    mpmath.mp.dps = 40
    q_, b, p, h_ = (mpmath.mpf(v) for v in (q, scale, order, h))
    density = lambda x: p / (2 * b * mpmath.gamma(1 / p)) * mpmath.exp(-((x / b) ** p))  # noqa: E731
    inside = 2 * mpmath.quad(lambda x: x**q_ * density(x), [0, h_ / 2, h_])
    exact = inside + h_**q_ * mpmath.gammainc(1 / p, (h_ / b) ** p, mpmath.inf, regularized=True)
    assert bounded.clamped_noise_moment(q, scale, order, h) == pytest.approx(float(exact), rel=1e-13)


def test_clamped_noise_moment_at_a_huge_order_is_the_outer_mass():
    # h = 1: E|e|^q -> P(|X| > 1) as q grows (the inside part is below 1e-299).
    outer = float(bounded.clamped_noise_tail(0.999999999999, 1.5, 2.0, 1.0))
    assert bounded.clamped_noise_moment(1e300, 1.5, 2.0, 1.0) == pytest.approx(outer, rel=1e-9)


def test_half_width_is_vectorized_and_validated():
    assert half_width_values() == [2.0, LARGEST]
    with pytest.raises(ValueError, match="upper"):
        bounded.half_width(1.0, 1.0)
    with pytest.raises(ValueError, match="lower"):
        bounded.half_width(math.nan, 1.0)


def half_width_values():
    return bounded.half_width(np.array([-1.0, -LARGEST]), np.array([3.0, LARGEST])).tolist()


def test_discrete_gaussian_zcdp_bound_is_one_where_rho_overflows():
    assert discrete_gaussian.discrete_gaussian_delta_zcdp_bound(1.0, 1e-300, 1.0) == 1.0
    values = discrete_gaussian.discrete_gaussian_delta_zcdp_bound(1.0, 2.0, np.array([2**0.5, 1e300]))
    assert values[1] == 1.0 and values[0] == discrete_gaussian.discrete_gaussian_delta_zcdp_bound(1.0, 2.0, 2**0.5)


def test_classical_formula_and_true_delta_at_a_subnormal_epsilon():
    # σ = Δ√(2 ln(1.25/δ))/ε: the product is finite even where √(…)/ε is not.
    assert tails.classical_formula_sigma(5e-324, 1e-5, 1e-300) == pytest.approx(
        1e-300 * math.sqrt(2 * math.log(1.25e5)) / 5e-324, rel=1e-12
    )
    delta = tails.classical_true_delta(2.5e-310, 1e-5)
    assert 0.0 <= delta < 1e-300  # δ(ε) -> 0 with ε at this σ(ε); the overflowing σ is never formed


def test_loss_from_moments_is_scale_invariant_up_to_the_largest_double():
    unit = loss.iid_loss_summary_from_moments((1 / 3, 1 / 5, 1 / 7, 1 / 9), 100, largest=1.0)
    with pytest.raises(ValueError, match="even_moments"):
        loss.iid_loss_summary_from_moments((1.0, 2.0, 3.0, math.inf), 100)
    c = 1e38  # moments c^{2j} E X^{2j}, up to E X⁸ = 1.1e303, the top of the range
    scaled = loss.iid_loss_summary_from_moments((c**2 / 3, c**4 / 5, c**6 / 7, c**8 / 9), 100, largest=c**2)
    assert scaled.mean == pytest.approx(unit.mean * c**2, rel=1e-13)
    assert scaled.skewness == pytest.approx(unit.skewness, rel=1e-10)
    assert scaled.median == pytest.approx(unit.median * c**2, rel=1e-12)
    # Moments that are no moment sequence (E X² = 1e300 with E X⁸ = 105) used to raise OverflowError.
    odd = loss.iid_loss_summary_from_moments((1e300, 3.0, 15.0, 105.0), 100)
    assert odd.mean == pytest.approx(1e302) and odd.std == 0.0


def test_bayes_risks_in_harmonic_form():
    assert denoise.posterior_mean_bayes_risk(4, LARGEST, 1.5) == pytest.approx(6.0)
    assert denoise.james_stein_bayes_risk(10, 1e300, 1.0) == math.inf  # 2σ² is beyond float64
    assert denoise.james_stein_bayes_risk(10, 0.0, 1.0) == 0.0
    assert np.allclose(denoise.posterior_mean_bayes_risk([10, 20], 1.0, 1.0), [5.0, 10.0])


def test_oracle_prior_and_shrinkage_at_the_largest_double():
    mean, variance = denoise.oracle_prior([LARGEST, LARGEST, LARGEST])
    assert mean == LARGEST and variance == 0.0  # the sum overflows, the mean does not
    # ‖y - c‖ = 3.6e308 overflows, σ/‖y - c‖ does not: the factor is 1 (c + (y - c) rounds to 0).
    shrunk = denoise.james_stein([1.0, -0.5, 2.0, 3.5], sigma=1.0, center=-LARGEST)
    assert np.all(np.isfinite(shrunk)) and np.all(np.abs(shrunk) <= 4.0)
