"""Loss summaries of a whole sweep over d, and the closed-form quantiles of bounded noise.

The accuracy page's bands ask a mechanism's loss summary at every d of its grid for one scale;
``Mechanism.loss_summary_against_dim`` does the work that does not depend on d once. Each
shortcut here is checked against the slow path it replaced (one call per d; a root search on the
tail), on grids that include the extremes, and the closed forms against mpmath.
"""

from __future__ import annotations

import dataclasses
import math

import mpmath
import numpy as np
import pytest

from gaussmech_core import bounded, loss, tails
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting

DIMS = (1, 2, 3, 5, 10, 22, 100, 1000, 10**6)
LEVELS = (0.05, 0.5, 0.95)
BOUNDED = ("truncated_gg", "bit_gg")
# (b, p, data bounds): b from far below to far above the half-width h.
BOUNDED_CASES = [
    (1e-3, 2.0, (0.0, 1.0)),
    (0.3, 1.0, (0.0, 1.0)),
    (0.7, 2.0, (0.0, 1.0)),
    (2.58, 2.0, (0.0, 1.0)),
    (8.06, 3.5, (-2.0, 5.0)),
    (1e4, 10.0, (0.0, 1.0)),
    (1e200, 1.5, (0.0, 1.0)),
]


def _setting(order, bounds, dim=1):
    return Setting(epsilon=1.0, delta=1e-5, order=order, dim=dim, data_lower=bounds[0], data_upper=bounds[1])


def _tail_and_moment(mechanism_id):
    if mechanism_id == "truncated_gg":
        return bounded.truncated_noise_tail, bounded.truncated_noise_moment
    return bounded.clamped_noise_tail, bounded.clamped_noise_moment


def _per_d_reference(mechanism_id, b, setting, dim):
    """The bounded entry's loss summary as it was computed before: one call per d, a root search at d = 1."""
    tail, moment = _tail_and_moment(mechanism_id)
    h = bounded.half_width(setting.data_lower, setting.data_upper)
    moments = [float(v) for v in np.asarray(moment(np.array([2.0, 4.0, 6.0, 8.0]), b, setting.order, h))]
    summary = loss.iid_loss_summary_from_moments(moments, dim, LEVELS, largest=h**2)
    if dim > 1:
        return summary
    log_tail = lambda t: np.log(np.maximum(tail(t, b, setting.order, h), 1e-320))  # noqa: E731
    values = [
        min(float(tails.tail_quantile(log_tail, 1.0 - q, math.sqrt(moments[0]))) ** 2, h**2) for q in LEVELS + (0.5,)
    ]
    return dataclasses.replace(summary, quantiles=dict(zip(LEVELS, values[:-1])), median=values[-1])


def _close(a: float, b: float, rel: float) -> bool:
    return (math.isinf(a) and a == b) or a == pytest.approx(b, rel=rel, abs=1e-300)


def test_iid_summaries_against_dim_equal_one_call_per_dim():
    for moments, largest in [((1 / 3, 1 / 5, 1 / 7, 1 / 9), 1.0), ((2.0, 24.0, 720.0, 40320.0), None)]:
        batch = loss._iid_loss_summaries_from_moments(moments, DIMS, LEVELS, largest=largest, name="x")
        assert batch == [
            loss.iid_loss_summary_from_moments(moments, d, LEVELS, largest=largest, name="x") for d in DIMS
        ]


def test_iid_summaries_against_dim_check_each_dim():
    with pytest.raises(ValueError, match="dim"):
        loss._iid_loss_summaries_from_moments((1.0, 3.0, 15.0, 105.0), (3, 0), LEVELS)


@pytest.mark.parametrize("mechanism_id", BOUNDED)
@pytest.mark.parametrize("b, order, bounds", BOUNDED_CASES)
def test_bounded_summaries_against_dim_agree_with_the_per_d_path(mechanism_id, b, order, bounds):
    mechanism = MECHANISMS[mechanism_id]
    setting = _setting(order, bounds, dim=7)
    batch = mechanism.loss_summary_against_dim(b, setting, DIMS, LEVELS, 0)
    for dim, summary in zip(DIMS, batch):
        at_dim = dataclasses.replace(setting, dim=dim)
        assert summary == mechanism.loss_summary(b, at_dim, LEVELS, 0)
        reference = _per_d_reference(mechanism_id, b, at_dim, dim)
        assert summary.exact == (dim == 1)
        for name in ("mean", "std", "skewness", "excess_kurtosis"):
            assert getattr(summary, name) == getattr(reference, name)
        # d = 1: closed forms against the root search (which stops at a relative 1e-12).
        for level in LEVELS:
            assert _close(summary.quantiles[level], reference.quantiles[level], 1e-9), (dim, level)
        assert _close(summary.median, reference.median, 1e-9)


def _mpmath_abs_quantile(level, b, order, h, truncated):
    with mpmath.workdps(40):
        s = mpmath.mpf(1) / order

        def lower(t):  # P(|X| <= t) for X ~ GG(0, b, p)
            return mpmath.gammainc(s, 0, (mpmath.mpf(t) / b) ** order, regularized=True)

        inside = lower(h)
        target = mpmath.mpf(level) * (inside if truncated else 1)
        if not truncated and target >= inside:
            return float(h)
        t = mpmath.findroot(lambda t: lower(t) - target, (mpmath.mpf(0), mpmath.mpf(h)), solver="bisect")
        return float(t)


@pytest.mark.parametrize("truncated", [True, False])
@pytest.mark.parametrize("b", [1e-3, 0.05, 0.5, 2.0, 30.0, 1e5])
@pytest.mark.parametrize("order", [1.0, 2.0, 3.5, 10.0])
def test_abs_noise_quantiles_match_mpmath(truncated, b, order):
    h = 0.5
    levels = np.array([1e-6, 0.05, 0.5, 0.95, 0.999])
    values = bounded._abs_noise_quantiles(levels, b, order, h, truncated)
    for level, value in zip(levels, values):
        reference = _mpmath_abs_quantile(float(level), b, order, h, truncated)
        if math.isnan(value):  # only where a double cannot hold the closed form; the entry root-finds there
            assert truncated and float(bounded._mass_inside(np.float64(b), np.float64(order), np.float64(h))) <= 1e-280
            continue
        assert value == pytest.approx(reference, rel=1e-10), (level, b, order)
        assert 0.0 < value <= h


def test_abs_noise_quantiles_give_nan_where_the_mass_inside_underflows():
    # b ≫ h: P(1/p, (h/b)^p) ~ (h/b)/Γ(1 + 1/p) underflows; the entry's root search takes over.
    assert np.isnan(bounded._abs_noise_quantiles(np.array([0.5]), 1e300, 1.0, 1e-20, True)).all()
    mechanism = MECHANISMS["truncated_gg"]
    setting = _setting(1.0, (0.0, 2e-20))
    summary = mechanism.loss_summary(1e300, setting, LEVELS, 0)
    reference = _per_d_reference("truncated_gg", 1e300, setting, 1)
    assert summary.median == pytest.approx(reference.median, rel=1e-9)


# --- The discrete Gaussian ----------------------------------------------------------------------

DG_SIGMAS = (1e-3, 0.8, 1.352, 5.16, 11.24, 21.22, 30.0, 100.0)
DG_DIMS = (1, 2, 3, 5, 7, 10, 15, 20, 22, 100, 1000, 10**6)


def test_discrete_gaussian_summaries_against_dim_equal_one_call_per_dim():
    from gaussmech_core import discrete_gaussian as dg

    for sigma in DG_SIGMAS:
        batch = dg._discrete_gaussian_loss_summaries(sigma, DG_DIMS, LEVELS, 20_000)
        assert batch == [dg.discrete_gaussian_loss_summary(sigma, d, LEVELS, 20_000) for d in DG_DIMS], sigma
    entry = MECHANISMS["discrete_gaussian"]
    setting = Setting(epsilon=0.15, delta=1e-5, dim=4)
    sigma = entry.scale(setting)
    batch = entry.loss_summary_against_dim(sigma, setting, DG_DIMS, LEVELS, 20_000)
    assert batch == [entry.loss_summary(sigma, dataclasses.replace(setting, dim=d), LEVELS, 20_000) for d in DG_DIMS]


def test_exact_chain_with_shared_powers_is_the_same_array():
    from gaussmech_core import discrete_gaussian as dg

    powers: list = []
    for dim in (1, 2, 3, 5, 7, 10, 15, 20):
        assert np.array_equal(dg._loss_pmf_for_quantiles(1.7, dim, powers), dg._loss_pmf_for_quantiles(1.7, dim))


@pytest.mark.parametrize("sigma", [0.4, 1.0, 2.5, 5.16, 11.24, 21.22])
def test_windowed_quantiles_equal_the_exact_chain(sigma):
    # Where both apply, the window [0, M) gives the integer quantiles of the full lattice pmf.
    from gaussmech_core import discrete_gaussian as dg

    wanted = np.array([1e-6, 0.05, 0.5, 0.95, 1.0 - 1e-6])
    for dim in (1, 2, 3, 5, 10, 20):
        if dg._exact_loss_support(sigma, dim) > dg._EXACT_SUPPORT:
            continue
        cdf = np.cumsum(dg._loss_pmf_for_quantiles(sigma, dim))
        exact = np.searchsorted(cdf, wanted * cdf[-1]).astype(float)
        windowed = dg._loss_quantiles_on_window(sigma, dim, wanted)
        assert windowed is not None and np.array_equal(windowed, exact), (sigma, dim, windowed, exact)


@pytest.mark.parametrize("sigma, dim", [(0.5, 1), (1.0, 3), (2.0, 5), (3.0, 2), (1.5, 20)])
def test_loss_window_holds_all_but_1e_18(sigma, dim):
    # The sub-Gaussian bound against the exact tail (direct convolution: relatively exact far out).
    from gaussmech_core import discrete_gaussian as dg

    size = dg._loss_window(sigma, dim)
    pmf = dg._loss_pmf(sigma, dim)
    beyond = float(pmf[int(math.ceil(size)) :].sum()) if size < pmf.size else 0.0
    assert beyond <= 1e-18
    # And the bound is not wildly loose: the window is within a few times the 1e-18 quantile.
    cdf_tail = np.cumsum(pmf[::-1])[::-1]
    quantile = int(np.argmax(cdf_tail <= 1e-18 * cdf_tail[0])) if (cdf_tail <= 1e-18 * cdf_tail[0]).any() else pmf.size
    assert size <= 4.0 * quantile + 10.0


@pytest.mark.parametrize("mechanism_id", ("discrete_gaussian",) + BOUNDED)
def test_per_coordinate_numbers_asked_at_every_d_equal_the_core_functions(mechanism_id):
    # The entries remember the variance of their last scale (a sweep over d asks it at every d).
    from gaussmech_core import discrete_gaussian as dg

    mechanism = MECHANISMS[mechanism_id]
    for scale in (1e-3, 0.37, 5.16, 21.22, 1e150):
        for dim in (1, 10, 10**6, 2**60):
            setting = _setting(2.0, (0.0, 1.0), dim=dim)
            if mechanism_id == "discrete_gaussian":
                variance = float(dg.discrete_gaussian_variance(scale))
                assert mechanism.expected_loss(scale, setting) == float(dg.discrete_gaussian_expected_loss(scale, dim))
            else:
                _, moment = _tail_and_moment(mechanism_id)
                variance = float(moment(2.0, scale, 2.0, 0.5))
                assert mechanism.expected_loss(scale, setting) == pytest.approx(dim * variance, rel=1e-15)
            assert mechanism.coordinate_std(scale, setting) == math.sqrt(variance)


def test_monte_carlo_quantiles_and_intervals_are_those_of_one_call_per_level():

    for n in (2, 3, 50, 400, 4001):
        result = loss.monte_carlo_loss(
            lambda r, k: r.standard_t(3, (k, 2)), n, seed=5, quantile_levels=(0.01, 0.5, 0.95)
        )
        ordered = np.sort(result.losses)
        for q in (0.01, 0.5, 0.95):
            assert result.quantiles[q] == float(np.quantile(ordered, q))
            spread = 1.959963984540054 * math.sqrt(n * q * (1.0 - q))
            low = int(np.clip(math.floor(n * q - spread), 0, n - 1))
            high = int(np.clip(math.ceil(n * q + spread), 0, n - 1))
            assert result.quantile_intervals[q] == (float(ordered[low]), float(ordered[high]))


@pytest.mark.parametrize("mechanism_id, rows", [("r1smg", 1), ("mvg_iid", 1), ("mvg_iid", 4), ("mvg_iid", 7)])
def test_scales_against_dim_equal_one_calibration_per_dim(mechanism_id, rows):
    # The vectorized calibration over d gives, bit for bit, the entry's scale at each d.
    from gaussmech_ui.cached import accuracy

    mechanism = MECHANISMS[mechanism_id]
    dims = accuracy.mvg_dims(rows) if mechanism.matrix_valued else accuracy.dim_grid()
    for epsilon in (1e-3, 0.15, 0.5, 7.0, 700.0):
        for delta in (1e-300, 1e-5, 0.3):
            for sensitivity in (1e-3, 1.0, 5.0):
                base = accuracy.make_setting(epsilon, delta, sensitivity, 2.0, 1, "one_coordinate", 1, 3.0)
                settings = [accuracy._setting_at(base, int(d), rows if mechanism.matrix_valued else 1) for d in dims]
                valid = [s for s in settings if mechanism.validity(s).valid]
                if not valid:
                    continue
                batch = mechanism.scale_against_dim(valid)
                single = np.array([float(mechanism.scale(s)) for s in valid])
                assert np.array_equal(batch, single, equal_nan=True), (epsilon, delta, sensitivity)
