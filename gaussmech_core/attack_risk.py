"""What an attacker can do: membership-inference risk computed exactly from a privacy profile.

A mechanism that is (ε, δ(ε))-DP for every ε ≥ 0 bounds every test that tries to tell whether
Alice's record is in the data ("in") from the neighbouring data set without it ("out"). Write α
for a test's false-positive rate (it says "in" when Alice is out) and β for its false-negative
rate. The least β any test can reach at α is the mechanism's **trade-off curve**, and from a
privacy profile it is (Dong, Roth & Su 2022, Prop. 2.12; Kairouz, Oh & Viswanath 2015, Thm. 2.1)

    β(α) = sup_{ε ≥ 0} max(0, 1 − δ(ε) − e^ε α, e^{−ε} (1 − δ(ε) − α)).

This module reports the numbers people read off that curve (Kulynych et al. 2024, "Attack-aware
noise calibration for differential privacy", the riskcal library):

* the attacker's **true-positive rate** 1 − β(α) at a chosen false-positive rate α (1 % and
  0.1 % by default): :func:`attack_power_from_profile`;
* the best attacker's **advantage** max_α (1 − α − β(α)) = δ(0), the total-variation distance
  between the outputs with and without Alice: :func:`attack_advantage_from_profile`;
* the **largest posterior belief** that Alice is in the data that an attacker with prior belief π
  can reach on any decision that fires at least a fraction α of the time when Alice is out:
  :func:`posterior_belief`;
* and the inverse, the **smallest noise** that holds an attack below a chosen level:
  :func:`scale_for_attack_limit`.

Every registered mechanism is handled alike, through its entry's
``privacy_profile(epsilon, scale, setting)`` (:func:`mechanism_attack_risk`). For Gaussian noise
the curve has the closed form β(α) = Φ(Φ⁻¹(1 − α) − Δ/σ) (:func:`gaussian_attack_power`), which
the tests use as an independent check of the general route.

Stable evaluation. The true-positive rate is computed directly as

    1 − β(α) = min(1, inf_ε [δ(ε) + e^ε α], inf_ε [1 − e^{−ε} + e^{−ε} (δ(ε) + α)]),

a minimum of sums of non-negative terms, so rates of 1e-6 keep full relative accuracy (no
``1 − (1 − x)`` cancellation). Each infimum runs over a bounded ε range (beyond ε = log(1/α)
the first sum exceeds 1; beyond ε = log((1 − α)/(1 − δ(0) − α)) the second exceeds its value at
ε = 0, and beyond ε = 40 it rounds to 1), first on one shared grid, then by golden-section search
around the grid's best point, which stops once the parabola through its points shows that the
rest of the bracket cannot hold a value 1e-13 (relative) below the best. For an
exact profile each sum is unimodal in ε (its slope is e^ε(α − Q[L > ε]) with Q[L > ε]
decreasing), so the search converges to the infimum; for any profile, every value returned is
the sum at some ε, hence an upper bound on the true-positive rate the profile allows: the
attacker is never made to look weaker than the profile says.

Assumption: ``privacy_profile`` is a valid DP profile, i.e. it bounds the hockey-stick divergence
in both orders of the neighbouring pair (as (ε, δ)-DP requires of every neighbouring pair).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
from scipy import optimize, special

from . import _cover
from ._types import ArrayLike, FloatOrArray
from ._validation import as_float_array, broadcast, overflow_is_inf, require_interval, scalar_or_array
from .mechanisms import MECHANISMS, evaluate
from .registry_types import Mechanism, Setting

__all__ = [
    "DEFAULT_FPRS",
    "AttackRisk",
    "attack_power_from_profile",
    "attack_advantage_from_profile",
    "tradeoff_from_profile",
    "posterior_belief",
    "gaussian_attack_power",
    "gaussian_attack_advantage",
    "gaussian_sigma_for_attack",
    "mechanism_attack_risk",
    "attack_risk_all",
    "scale_for_attack_limit",
]

DEFAULT_FPRS = (0.01, 0.001)

# Grid points per infimum before the golden-section refinement, and its largest number of steps:
# the bracket shrinks by 0.618 per step, so 48 steps take a bracket of width 2 × 40/128 to 6e-11
# in ε, where the sum, flat to second order at its minimum, is exact to rounding. Most searches
# stop after 25-30 steps, once a parabola through their points shows the rest cannot gain more
# than 1e-13 relative (issue 20 item 10: about half the profile calls of the pages' risk tables).
_GRID_POINTS = 129
_GOLDEN_STEPS = 48
# A search may stop early once its bracket is narrower than _NARROW in ε and the parabola through
# its lowest points promises no value below the best by more than _FLAT relative (_golden_search).
_NARROW = 1e-4
_FLAT = 1e-13
_GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0
# e^ε α is evaluated as exp(ε + log α) with the exponent capped here, far below overflow.
_EXPONENT_CAP = 700.0
# 1 − e^{−ε} rounds to 1 in float64 beyond ε = 37.4.
_MIRROR_CAP = 40.0
# The inverse: relative precision of the returned scale, factor-2 bracketing steps, and steps
# of that size taken upwards from Brent's root until the limit is met.
_SCALE_TOLERANCE = 1e-11
_BRACKET_STEPS = 200
_SAFE_SIDE_STEPS = 8
_LARGEST_SCALE = float(np.finfo(np.float64).max)
# The closed forms below are rounded toward the safe side (a risk up, a σ up) by this relative
# bound on their rounding: 8 ulp covers scipy's ndtr, ndtri and erfinv (each within 2-3 ulp,
# checked against mpmath in tests/core/test_attack_risk.py) and the arithmetic around them.
_ROUNDING = 8.0 * 2.0**-52
_START_SCALE = 1.0  # where the search for a scale starts, whatever the setting's ε
_REFERENCE_ROUNDS = 4  # covers again with the last answer's best ε, to tighten the TPR bound

Profile = Callable[[np.ndarray], np.ndarray]


def _profile_values(profile: Profile, epsilons: np.ndarray) -> np.ndarray:
    """δ(ε) on ``epsilons``, checked to be probabilities (a broken profile must not look safe)."""
    values = np.asarray(profile(np.asarray(epsilons, dtype=float)), dtype=float)
    if values.shape != np.shape(epsilons):
        values = np.broadcast_to(values, np.shape(epsilons)).astype(float)
    if not np.all(np.isfinite(values)) or np.any(values < 0.0) or np.any(values > 1.0):
        bad = values[~(np.isfinite(values) & (values >= 0.0) & (values <= 1.0))][0]
        raise ValueError(f"privacy profile returned delta={float(bad)!r}, which is not a probability in [0, 1]")
    return values


def _alpha_array(alpha: ArrayLike, name: str = "alpha") -> np.ndarray:
    array = as_float_array(alpha, name)
    return require_interval(array, name, 0.0, 1.0, lower_open=True, upper_open=True)


def _first_sum(epsilons, deltas, log_alpha):
    """δ(ε) + e^ε α: the true-positive rate bound from the line of slope −e^ε."""
    return deltas + np.exp(np.minimum(epsilons + log_alpha, _EXPONENT_CAP))


def _second_sum(epsilons, deltas, alpha):
    """1 − e^{−ε} + e^{−ε}(δ(ε) + α): the bound from the mirrored line of slope −e^{−ε}."""
    return -np.expm1(-epsilons) + np.exp(-epsilons) * (deltas + alpha)


def _parabola_minimum(x, f):
    """The least value on [x₀, x₂] of the parabola through (x₀, f₀), (x₁, f₁), (x₂, f₂), x₀ < x₁ < x₂."""
    (x0, x1, x2), (f0, f1, f2) = x, f
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        slope_left, slope_right = (f1 - f0) / (x1 - x0), (f2 - f1) / (x2 - x1)
        curvature = (slope_right - slope_left) / (x2 - x0)  # f₀ + s (x − x₀) + c (x − x₀)(x − x₁)
        vertex = 0.5 * (x0 + x1) - slope_left / (2.0 * curvature)
        at_vertex = f0 + slope_left * (vertex - x0) + curvature * (vertex - x0) * (vertex - x1)
    inside = (curvature > 0.0) & (vertex > x0) & (vertex < x2)
    return np.where(inside, at_vertex, np.minimum(f0, f2))


def _golden_search(function, low, high, best):
    """Golden-section search of a unimodal ``function`` on [low, high], elementwise.

    ``function(epsilons, where)`` evaluates the problems ``where`` at ``epsilons``. Every
    candidate is a value of ``function``, so the least value met, which is returned (starting
    from ``best``), is never below the true infimum. A problem stops early once its bracket is
    narrower than _NARROW and the parabola through the three points around its minimum (an end
    and the two probes) has no value on them below the best by more than _FLAT relative: the
    function is quadratic to within about f‴ w³ on a bracket of width w, so the best is then
    within about 1e-11 relative of the infimum. All stop after _GOLDEN_STEPS.
    """
    a, b = np.array(low, dtype=float), np.array(high, dtype=float)
    every = np.arange(a.size)
    x1 = b - _GOLDEN * (b - a)
    x2 = a + _GOLDEN * (b - a)
    fa, f1, f2, fb = np.split(function(np.concatenate([a, x1, x2, b]), np.concatenate([every] * 4)), 4)
    best = np.minimum(best, np.minimum(np.minimum(fa, fb), np.minimum(f1, f2)))
    active = every
    for _ in range(_GOLDEN_STEPS):
        left = f1 <= f2  # the minimum lies in [a, x2]
        model = np.where(
            left, _parabola_minimum((a, x1, x2), (fa, f1, f2)), _parabola_minimum((x1, x2, b), (f1, f2, fb))
        )
        settled = (b - a <= _NARROW) & (model >= best * (1.0 - _FLAT))
        active = active[~settled[active]]
        if active.size == 0:
            break
        a_, b_, x1_, x2_, f1_, f2_, left_ = (v[active] for v in (a, b, x1, x2, f1, f2, left))
        new_a = np.where(left_, a_, x1_)
        new_b = np.where(left_, x2_, b_)
        fa[active] = np.where(left_, fa[active], f1_)
        fb[active] = np.where(left_, f2_, fb[active])
        new_x1 = np.where(left_, new_b - _GOLDEN * (new_b - new_a), x2_)
        new_x2 = np.where(left_, x1_, new_a + _GOLDEN * (new_b - new_a))
        values = function(np.where(left_, new_x1, new_x2), active)
        f1[active], f2[active] = np.where(left_, values, f2_), np.where(left_, f1_, values)
        a[active], b[active], x1[active], x2[active] = new_a, new_b, new_x1, new_x2
        best[active] = np.minimum(best[active], values)
    return best


def _branch_sums(epsilons, deltas, alpha, mirrored):
    """The first or (where ``mirrored``) the second sum, elementwise."""
    first = _first_sum(epsilons, deltas, np.log(alpha))
    return np.where(mirrored, _second_sum(epsilons, deltas, alpha), first)


def _infimum(alpha, mirrored, upper, profile):
    """inf over ε in [0, upper] of the first or second sum, elementwise (1-D arrays).

    One grid (shared by all problems, δ evaluated once), then one golden-section search for
    all problems together, one call of ``profile`` per step.
    """
    grid = np.linspace(0.0, float(np.max(upper)), _GRID_POINTS)
    deltas = _profile_values(profile, grid)
    values = _branch_sums(grid[None, :], deltas[None, :], alpha[:, None], mirrored[:, None])
    values = np.where(grid[None, :] <= upper[:, None], values, np.inf)
    index = np.argmin(values, axis=1)
    best = values[np.arange(alpha.size), index]
    low = grid[np.maximum(index - 1, 0)]
    high = np.maximum(np.minimum(grid[np.minimum(index + 1, _GRID_POINTS - 1)], upper), low)

    def along(epsilons, where):
        return _branch_sums(epsilons, _profile_values(profile, epsilons), alpha[where], mirrored[where])

    return _golden_search(along, low, high, best)


def attack_power_from_profile(alpha: ArrayLike, profile: Profile) -> FloatOrArray:
    """The best membership attacker's true-positive rate 1 − β(α) at false-positive rate α.

    Parameters
    ----------
    alpha : float or array_like
        False-positive rate α in (0, 1).
    profile : callable
        ``profile(epsilons)`` returns δ(ε) for a 1-D array of ε ≥ 0: a privacy profile of the
        mechanism (e.g. ``lambda e: mechanism.privacy_profile(e, scale, setting)``).

    Returns
    -------
    float or ndarray
        The largest true-positive rate any test can have at false-positive rate α, in [α, 1].

    Notes
    -----
    1 − β(α) = min(1, inf_ε [δ(ε) + e^ε α], inf_ε [1 − e^{−ε} + e^{−ε}(δ(ε) + α)]), the
    complement of Dong, Roth & Su (2022), Prop. 2.12 / Kairouz, Oh & Viswanath (2015), Thm. 2.1,
    written as sums of non-negative terms (see the module docstring for the search and why its
    result is never below the exact value). Kulynych et al. (2024) call this the attack's TPR at
    a given FPR.

    Examples
    --------
    >>> from gaussmech_core.gaussian import gaussian_delta
    >>> tpr = attack_power_from_profile(0.01, lambda e: gaussian_delta(e, 3.730632))
    >>> round(tpr, 6), round(gaussian_attack_power(0.01, 3.730632), 6)
    (0.019781, 0.019781)
    """
    alpha_array = _alpha_array(alpha)
    flat = np.atleast_1d(alpha_array).ravel()
    delta_zero = float(_profile_values(profile, np.zeros(1))[0])
    power = np.minimum(1.0, delta_zero + flat)  # ε = 0: both lines give δ(0) + α
    # First line: beyond ε = log(1/α) its sum exceeds 1. Mirrored line: its sum is at least
    # 1 − e^{−ε}(1 − α), which beats δ(0) + α only for ε < log((1 − α)/(1 − δ(0) − α)); in float64
    # it is 1 beyond ε = _MIRROR_CAP whatever δ(ε).
    with np.errstate(divide="ignore"):
        useful = np.where(power < 1.0, np.log1p(-flat) - np.log1p(-power), np.inf)
    n = flat.size
    both = _infimum(
        np.concatenate([flat, flat]),
        np.repeat([False, True], n),
        np.concatenate([-np.log(flat), np.clip(useful, 0.0, _MIRROR_CAP)]),
        profile,
    )
    power = np.minimum(power, np.minimum(both[:n], both[n:]))
    power = np.clip(power, flat, 1.0)  # a test can always say "in" at random: TPR ≥ FPR
    return scalar_or_array(power.reshape(np.shape(alpha_array)), alpha)


def tradeoff_from_profile(alpha: ArrayLike, profile: Profile) -> FloatOrArray:
    """The trade-off curve β(α): the least false-negative rate at false-positive rate α.

    ``1 − attack_power_from_profile(alpha, profile)``; see there. Use the attack power directly
    where β is close to 1 (very private mechanisms), to keep its digits.

    Examples
    --------
    >>> from gaussmech_core.gaussian import gaussian_delta, gaussian_tradeoff
    >>> beta = tradeoff_from_profile(0.05, lambda e: gaussian_delta(e, 1.0))
    >>> round(beta, 8) == round(gaussian_tradeoff(0.05, 1.0), 8)
    True
    """
    power = attack_power_from_profile(alpha, profile)
    return scalar_or_array(1.0 - np.asarray(power), alpha)


def attack_advantage_from_profile(profile: Profile) -> float:
    """The best membership attacker's advantage max_α (TPR − FPR) = δ(0).

    Parameters
    ----------
    profile : callable
        ``profile(epsilons)`` returns δ(ε) for a 1-D array of ε ≥ 0.

    Returns
    -------
    float
        δ(0), the total-variation distance between the outputs with and without Alice: the
        largest TPR − FPR of any test, and 2 × (best accuracy at a 50 % prior) − 1.

    Notes
    -----
    Every test satisfies TPR ≤ δ(0) + FPR (the ε = 0 line of the trade-off curve), and for an
    exact profile some test reaches it (Kairouz, Oh & Viswanath 2015; Kulynych et al. 2024,
    "advantage"); Yeom et al. (2018) define the membership advantage as TPR − FPR.

    Examples
    --------
    >>> from gaussmech_core.gaussian import gaussian_delta
    >>> round(attack_advantage_from_profile(lambda e: gaussian_delta(e, 2.0)), 6)
    0.197413
    """
    return float(_profile_values(profile, np.zeros(1))[0])


def posterior_belief(prior: ArrayLike, true_positive_rate: ArrayLike, false_positive_rate: ArrayLike) -> FloatOrArray:
    """The posterior belief that Alice is in the data after a test says "in".

    Parameters
    ----------
    prior : float or array_like
        The attacker's belief before the release that Alice is in the data, in (0, 1).
    true_positive_rate, false_positive_rate : float or array_like
        The test's TPR in [0, 1] and FPR in (0, 1].

    Returns
    -------
    float or ndarray
        π TPR / (π TPR + (1 − π) FPR) (Bayes' rule), computed in odds:
        posterior odds = prior odds × TPR / FPR.

    Notes
    -----
    With TPR = :func:`attack_power_from_profile` at FPR α this is the **largest** posterior any
    decision can give that fires at least a fraction α of the time when Alice is out: TPR(a)/a
    falls as a grows (the trade-off curve is convex), so the rarest allowed decision is the most
    telling. Under (ε, δ)-DP, TPR ≤ e^ε α + δ, so the odds grow by at most e^ε + δ/α: the odds
    framing of ε (Nanayakkara et al., USENIX Security 2023; Kairouz et al. 2015).

    Examples
    --------
    >>> round(posterior_belief(0.5, 0.2, 0.01), 6)     # odds × 20
    0.952381
    """
    prior_array = require_interval(as_float_array(prior, "prior"), "prior", 0.0, 1.0, lower_open=True, upper_open=True)
    tpr = require_interval(as_float_array(true_positive_rate, "true_positive_rate"), "true_positive_rate", 0.0, 1.0)
    fpr = require_interval(
        as_float_array(false_positive_rate, "false_positive_rate"), "false_positive_rate", 0.0, 1.0, lower_open=True
    )
    p, t, f = broadcast(prior_array, tpr, fpr)
    # posterior odds = prior odds × TPR/FPR, with 1 − π ≥ 1.1e-16 and FPR > 0 (no 0 denominators).
    # TPR/FPR overflows at a subnormal FPR: inf odds there mean a belief of 1 (rounded), as it is.
    with overflow_is_inf():
        odds = (p / (1.0 - p)) * (t / f)
        small = np.minimum(odds, 1.0)  # each branch of the where sees only its own range
        belief = np.where(odds > 1.0, 1.0 / (1.0 + 1.0 / np.maximum(odds, 1.0)), small / (1.0 + small))
    return scalar_or_array(belief, prior, true_positive_rate, false_positive_rate)


# --- Gaussian noise: closed forms (Dong, Roth & Su 2022, Def. 2.7) ----------------------------


def _gaussian_mu(sigma, sensitivity):
    sigma_array = require_interval(as_float_array(sigma, "sigma"), "sigma", 0.0, None, lower_open=True)
    sensitivity_array = require_interval(as_float_array(sensitivity, "sensitivity"), "sensitivity", 0.0, None)
    s, d = broadcast(sigma_array, sensitivity_array)
    with np.errstate(over="ignore"):  # Δ/σ = inf at a subnormal σ: the two outputs are told apart surely
        return d / s


def gaussian_attack_power(alpha: ArrayLike, sigma: ArrayLike, sensitivity: ArrayLike = 1.0) -> FloatOrArray:
    """TPR at FPR α of the best attacker against N(0, σ²) noise: Φ(Φ⁻¹(α) + Δ/σ).

    Parameters
    ----------
    alpha : float or array_like
        False-positive rate α in (0, 1).
    sigma : float or array_like
        Noise standard deviation σ > 0.
    sensitivity : float or array_like, default 1.0
        l2 sensitivity Δ ≥ 0.

    Returns
    -------
    float or ndarray
        1 − G_μ(α) with μ = Δ/σ, G_μ(α) = Φ(Φ⁻¹(1 − α) − μ) (Dong, Roth & Su 2022, Def. 2.7;
        docs/math.md section 9.3), evaluated as Φ(μ + Φ⁻¹(α)) so small rates keep their digits,
        and rounded upward (docs/math.md section 12.3): never below the exact rate.

    Examples
    --------
    >>> round(gaussian_attack_power(0.001, 1.0), 6)
    0.018298
    """
    a = _alpha_array(alpha)
    mu = _gaussian_mu(sigma, sensitivity)
    a, mu = broadcast(a, mu)
    z = special.ndtri(a)
    # Rounded upward (a risk errs high): the argument is raised by a bound on its error (μ = Δ/σ,
    # Φ⁻¹(α) and the sum, each a few ulp) and Φ's own rounding by _ROUNDING relative.
    with np.errstate(invalid="ignore"):  # μ = inf: Φ(inf) = 1
        argument = mu + z + _ROUNDING * (np.abs(mu) + np.abs(z))
        power = np.minimum(special.ndtr(argument) * (1.0 + _ROUNDING), 1.0)
    return scalar_or_array(np.where(np.isnan(power), 1.0, power), alpha, sigma, sensitivity)


def gaussian_attack_advantage(sigma: ArrayLike, sensitivity: ArrayLike = 1.0) -> FloatOrArray:
    """The best attacker's advantage against N(0, σ²) noise: 2Φ(Δ/(2σ)) − 1 = erf(μ/(2√2)).

    Examples
    --------
    >>> round(gaussian_attack_advantage(2.0), 6)
    0.197413
    """
    mu = _gaussian_mu(sigma, sensitivity)
    return scalar_or_array(special.erf(mu / (2.0 * math.sqrt(2.0))), sigma, sensitivity)


def gaussian_sigma_for_attack(
    sensitivity: ArrayLike = 1.0,
    *,
    advantage: ArrayLike | None = None,
    true_positive_rate: ArrayLike | None = None,
    false_positive_rate: ArrayLike | None = None,
) -> FloatOrArray:
    """The least σ of Gaussian noise that holds the best attack to a level: closed form.

    Give either ``advantage`` (TPR − FPR ≤ a) or ``true_positive_rate`` with
    ``false_positive_rate`` (TPR ≤ t at FPR α).

    Returns
    -------
    float or ndarray
        σ = Δ/μ with μ = 2Φ⁻¹((1 + a)/2) for an advantage a, or μ = Φ⁻¹(t) − Φ⁻¹(α) for a TPR t
        at FPR α (inverting :func:`gaussian_attack_advantage` / :func:`gaussian_attack_power`),
        rounded up (docs/math.md section 12.3: the exact risk at σ never exceeds the target);
        inf where σ exceeds 1.8e308 (a below about 1e-308, or Δ near the largest double).

    Examples
    --------
    >>> round(gaussian_sigma_for_attack(advantage=0.197413), 4)
    2.0
    """
    sensitivity_array = require_interval(
        as_float_array(sensitivity, "sensitivity"), "sensitivity", 0.0, None, lower_open=True
    )
    if advantage is not None:
        a = require_interval(
            as_float_array(advantage, "advantage"), "advantage", 0.0, 1.0, lower_open=True, upper_open=True
        )
        d, a = broadcast(sensitivity_array, a)
        # 2Φ⁻¹((1 + a)/2) = 2√2 erfinv(a): (1 + a)/2 rounds to ½ for a below 1e-16, erfinv(a) does not.
        # μ is lowered by a bound on its rounding (erfinv and the product) so that σ errs larger.
        mu = 2.0 * math.sqrt(2.0) * special.erfinv(a) * (1.0 - _ROUNDING)
        with overflow_is_inf():  # σ beyond 1.8e308 (a subnormal advantage, Δ near 1.8e308) is inf
            sigma = np.nextafter(d / mu, np.inf)
        return scalar_or_array(sigma, sensitivity, advantage)
    if true_positive_rate is None or false_positive_rate is None:
        raise TypeError(_EITHER_TARGET)
    t, alpha = _power_target(true_positive_rate, false_positive_rate)
    d, t, alpha = broadcast(sensitivity_array, t, alpha)
    z_t, z_alpha = special.ndtri(t), special.ndtri(alpha)
    # μ lowered by a bound on the rounding of both quantiles and their difference (which cancels
    # when t is close to α), so that σ errs larger; μ ≤ 0 after that means σ = inf.
    mu = (z_t - z_alpha) - _ROUNDING * (np.abs(z_t) + np.abs(z_alpha))
    with overflow_is_inf(), np.errstate(divide="ignore"):  # σ beyond 1.8e308 is inf, as documented
        sigma = np.where(mu > 0.0, np.nextafter(d / np.maximum(mu, 5e-324), np.inf), np.inf)
    return scalar_or_array(sigma, sensitivity, true_positive_rate, false_positive_rate)


_EITHER_TARGET = "give advantage=, or true_positive_rate= together with false_positive_rate="


def _power_target(true_positive_rate, false_positive_rate):
    if true_positive_rate is None or false_positive_rate is None:
        raise TypeError(_EITHER_TARGET)
    alpha = _alpha_array(false_positive_rate, "false_positive_rate")
    t = require_interval(
        as_float_array(true_positive_rate, "true_positive_rate"), "true_positive_rate", 0.0, 1.0, upper_open=True
    )
    if np.any(t <= alpha):
        raise ValueError(
            f"true_positive_rate must exceed false_positive_rate (guessing at random already reaches TPR = FPR), "
            f"got true_positive_rate={float(np.min(t))!r}, false_positive_rate={float(np.max(alpha))!r}"
        )
    return t, alpha


# --- Any registered mechanism -----------------------------------------------------------------


@dataclass(frozen=True)
class AttackRisk:
    """What the best membership attacker can do against one mechanism at one setting.

    ``advantage``, ``true_positive_rates`` and ``posteriors`` are ``None`` when the mechanism's
    guarantee does not hold at the setting (``reason`` says why). ``true_positive_rates[i]`` and
    ``posteriors[i]`` belong to ``false_positive_rates[i]``; the posteriors are for ``prior``.
    For a "claimed" mechanism the numbers come from its computed true δ(ε), not from the claim.
    """

    mechanism: Mechanism
    setting: Setting
    scale: float | None
    false_positive_rates: tuple[float, ...]
    prior: float
    advantage: float | None = None
    true_positive_rates: tuple[float, ...] | None = None
    posteriors: tuple[float, ...] | None = None
    reason: str = ""


def _mechanism(mechanism: Mechanism | str) -> Mechanism:
    if isinstance(mechanism, Mechanism):
        return mechanism
    if mechanism not in MECHANISMS:
        raise ValueError(f"mechanism must be one of {', '.join(sorted(MECHANISMS))}, got mechanism={mechanism!r}")
    return MECHANISMS[mechanism]


def _false_positive_rates(
    false_positive_rates: Sequence[float], name: str = "false_positive_rates"
) -> tuple[float, ...]:
    rates = np.atleast_1d(_alpha_array(false_positive_rates, name))
    if rates.size == 0:
        raise ValueError(f"{name} must hold at least one rate in (0, 1), got {name}={false_positive_rates!r}")
    return tuple(float(a) for a in rates.ravel())


def _profile_of(mechanism: Mechanism, scale: float, setting: Setting) -> Profile:
    return lambda epsilons: mechanism.privacy_profile(np.asarray(epsilons, dtype=float), scale, setting)


def mechanism_attack_risk(
    mechanism: Mechanism | str,
    setting: Setting,
    *,
    false_positive_rates: Sequence[float] = DEFAULT_FPRS,
    prior: float = 0.5,
    scale: float | None = None,
) -> AttackRisk:
    """The attack-risk numbers of one registered mechanism, from its privacy profile.

    Parameters
    ----------
    mechanism : Mechanism or str
        A registry entry or its id.
    setting : Setting
        The privacy setting; the mechanism is calibrated there unless ``scale`` is given.
    false_positive_rates : sequence of float, default (0.01, 0.001)
        FPRs α in (0, 1) at which to report the attacker's TPR and posterior.
    prior : float, default 0.5
        The attacker's prior belief that Alice is in the data, in (0, 1).
    scale : float, optional
        Use this scale (σ, b, σ*, ...) instead of the registry's calibration. The setting must
        still be one the registry accepts for this mechanism (``validity``); where it is not,
        the numbers are ``None`` and ``reason`` says why, as for a calibrated scale.

    Returns
    -------
    AttackRisk
        Its ``scale`` is inf where the calibrated scale exceeds 1.8e308 (Δ or d near the largest
        double, δ tiny): infinite noise, against which no attack does better than guessing.

    Examples
    --------
    >>> risk = mechanism_attack_risk("analytic_gaussian", Setting(epsilon=1.0, delta=1e-5))
    >>> round(risk.advantage, 4), [round(t, 4) for t in risk.true_positive_rates]
    (0.1066, [0.0198, 0.0024])
    """
    mechanism = _mechanism(mechanism)
    fprs = _false_positive_rates(false_positive_rates)
    prior_value = float(
        require_interval(as_float_array(prior, "prior"), "prior", 0.0, 1.0, lower_open=True, upper_open=True)
    )
    if scale is None:
        calibration = evaluate(mechanism, setting)
        if calibration.scale is None:
            return AttackRisk(mechanism, setting, None, fprs, prior_value, reason=calibration.validity.reason)
        scale = calibration.scale
    else:
        scale = float(require_interval(as_float_array(scale, "scale"), "scale", 0.0, None, lower_open=True))
        # A scale given is still this mechanism's noise at this setting: where the registry refuses
        # the setting, so do we (never one coordinate's numbers for a change of every coordinate).
        validity = mechanism.validity(setting)
        if not validity.valid:
            return AttackRisk(mechanism, setting, None, fprs, prior_value, reason=validity.reason)
    profile = _profile_of(mechanism, scale, setting)
    tprs = np.atleast_1d(attack_power_from_profile(np.array(fprs), profile))
    posteriors = np.atleast_1d(posterior_belief(prior_value, tprs, np.array(fprs)))
    return AttackRisk(
        mechanism=mechanism,
        setting=setting,
        scale=float(scale),
        false_positive_rates=fprs,
        prior=prior_value,
        advantage=attack_advantage_from_profile(profile),
        true_positive_rates=tuple(float(t) for t in tprs),
        posteriors=tuple(float(p) for p in posteriors),
    )


def attack_risk_all(
    setting: Setting,
    *,
    false_positive_rates: Sequence[float] = DEFAULT_FPRS,
    prior: float = 0.5,
    featured_only: bool = False,
) -> list[AttackRisk]:
    """:func:`mechanism_attack_risk` for every registered mechanism (or only the featured ones).

    A scale is inf where that mechanism's calibration exceeds 1.8e308 (see :func:`mechanism_attack_risk`).
    """
    _false_positive_rates(false_positive_rates)  # checked once, before any calibration
    return [
        mechanism_attack_risk(mechanism, setting, false_positive_rates=false_positive_rates, prior=prior)
        for mechanism in MECHANISMS.values()
        if mechanism.featured or not featured_only
    ]


def _risk_at(mechanism, setting, scale, advantage, target_fpr):
    profile = _profile_of(mechanism, scale, setting)
    if advantage is not None:
        return attack_advantage_from_profile(profile)
    return float(attack_power_from_profile(target_fpr, profile))


def scale_for_attack_limit(
    mechanism: Mechanism | str,
    setting: Setting,
    *,
    advantage: float | None = None,
    true_positive_rate: float | None = None,
    false_positive_rate: float | None = None,
) -> float:
    """The smallest scale of a mechanism's noise from which every larger scale holds the best
    attack to a chosen level.

    Parameters
    ----------
    mechanism : Mechanism or str
        A registry entry or its id; its noise family and ``privacy_profile`` are used, with the
        setting's Δ, d and other values (its ε and δ play no part).
    setting : Setting
        The setting whose sensitivity, dimension, order, ... the noise is for.
    advantage : float, optional
        Hold the advantage TPR − FPR at or below this value in (0, 1).
    true_positive_rate, false_positive_rate : float, optional
        Or hold the TPR at this FPR at or below ``true_positive_rate`` (which must exceed the FPR).

    Returns
    -------
    float
        The scale (σ, b, σ*, ... in the mechanism's own parameter). Every larger scale meets the
        limit too ("more noise is never less private", docs/math.md section 9.7): where the
        entry's δ(ε) falls as the scale grows, the risk does, and the scale is the smallest that
        meets the limit (Brent's method on its logarithm from a start that does not depend on ε,
        then checked; relative precision about 1e-11). Where it does not (``privacy_profile_over``:
        the discrete Gaussian), the scales from that one up to where the entry's monotone tail
        bound meets the limit are covered by intervals on each of which a bound of the risk over
        the whole interval meets it, and the scale returned is the top of the highest part that
        could not be certified.

    Raises
    ------
    ValueError
        Where the registry refuses the setting's noise whatever ε and δ
        (``Mechanism.noise_validity_at``: e.g. a discrete Gaussian with every coordinate changing,
        or a Δ that is not whole), or where no scale up to the largest double meets the limit.

    Notes
    -----
    Kulynych et al. (2024) calibrate noise to an attack risk this way. The TPR at FPR α is at most
    δ(ε) + e^ε α and 1 − e^{−ε}(1 − δ(ε) − α) for every ε (the module notes), so with δ(ε) bounded
    over an interval of scales, the least of these sums over a set of ε bounds the TPR over it.

    Examples
    --------
    >>> s = Setting(epsilon=1.0, delta=1e-5)
    >>> sigma = scale_for_attack_limit("analytic_gaussian", s, advantage=0.1)
    >>> round(sigma, 6), round(gaussian_sigma_for_attack(advantage=0.1), 6)
    (3.978948, 3.978948)
    """
    mechanism = _mechanism(mechanism)
    if advantage is not None:
        if true_positive_rate is not None or false_positive_rate is not None:
            raise TypeError("give advantage=, or true_positive_rate= with false_positive_rate=, not both")
        level = float(
            require_interval(
                as_float_array(advantage, "advantage"), "advantage", 0.0, 1.0, lower_open=True, upper_open=True
            )
        )
        target_fpr = None
        limit_text = f"advantage={level:g}"
    else:
        t, alpha = _power_target(true_positive_rate, false_positive_rate)
        level, target_fpr = float(t), float(alpha)
        limit_text = f"true_positive_rate={level:g} at false_positive_rate={target_fpr:g}"
    noise = mechanism.noise_validity_at(setting)
    if not noise.valid:
        raise ValueError(f"{mechanism.name} does not apply to this setting: {noise.reason}")
    candidate = _smallest_scale_meeting(mechanism, setting, advantage, target_fpr, level, limit_text)
    if mechanism.privacy_profile_over is None:
        return candidate
    return _safe_scale_for_limit(mechanism, setting, advantage, target_fpr, level, limit_text, candidate)


def _smallest_scale_meeting(
    mechanism: Mechanism,
    setting: Setting,
    advantage: float | None,
    target_fpr: float | None,
    level: float,
    limit_text: str,
) -> float:
    """A scale that meets the limit with one 1e-11 lower (relative) that does not, where the risk
    falls as the scale grows: galloping from scale 1 (not from the calibration at the setting's
    ε, which must play no part), then Brent's method, moved to the safe side."""

    def meets(scale):
        return _risk_at(mechanism, setting, scale, advantage, target_fpr) <= level

    high = low = _START_SCALE
    # Galloping: the factor squares at each step (2, 4, 16, 256, ...), so a limit that needs a
    # scale near 1e300 (a tiny advantage) is bracketed in about ten evaluations, not a thousand.
    factor = 2.0
    while not meets(high):
        if high >= _LARGEST_SCALE:
            raise ValueError(
                f"no {mechanism.name} noise up to scale {high:g} (the largest double) holds the attack to "
                f"{limit_text}; ask for a larger limit"
            )
        low, high = high, min(high * factor, _LARGEST_SCALE)
        factor = min(factor * factor, 1e100)
    if low == high:
        for _ in range(_BRACKET_STEPS):
            low = low / 2.0
            if not meets(low):
                break
            high = low
        else:
            return high
    # Invariant: ``high`` meets the limit, ``low`` does not. Brent's method on log(risk) − log(level)
    # against log(scale) finds the crossing in a dozen evaluations; the answer is then moved to
    # the safe side of it.
    if high / low - 1.0 > _SCALE_TOLERANCE:
        log_level = math.log(level)

        def gap(log_scale):
            return (
                # floored well below the level (not at a fixed 1e-300, which a tiny advantage reaches)
                math.log(
                    max(_risk_at(mechanism, setting, math.exp(log_scale), advantage, target_fpr), 1e-3 * level, 5e-324)
                )
                - log_level
            )

        try:
            root = optimize.brentq(
                gap, math.log(low), math.log(high), xtol=_SCALE_TOLERANCE / 4, rtol=4 * np.finfo(float).eps
            )
        except ValueError:  # no sign change (a flat stretch of the risk): keep the bracket's safe end
            return high
        candidate = math.exp(root)
        for _ in range(_SAFE_SIDE_STEPS):
            if candidate >= high:
                break
            if meets(candidate):
                return candidate
            candidate *= 1.0 + _SCALE_TOLERANCE
    return high


def _best_epsilon(alpha: float, profile: Profile) -> float:
    """The ε at which min(δ(ε) + e^ε α, 1 − e^{−ε} + e^{−ε}(δ(ε) + α)) is least: the grid of
    :func:`attack_power_from_profile`, then golden-section steps on the winning sum."""
    upper = min(-math.log(alpha), _MIRROR_CAP)
    grid = np.linspace(0.0, upper, _GRID_POINTS)

    def sums(epsilons):
        deltas = _profile_values(profile, epsilons)
        return np.minimum(_first_sum(epsilons, deltas, math.log(alpha)), _second_sum(epsilons, deltas, alpha))

    values = sums(grid)
    index = int(np.argmin(values))
    best, best_value = float(grid[index]), float(values[index])
    a, b = float(grid[max(index - 1, 0)]), float(grid[min(index + 1, _GRID_POINTS - 1)])
    for _ in range(_GOLDEN_STEPS):
        x1, x2 = b - _GOLDEN * (b - a), a + _GOLDEN * (b - a)
        f1, f2 = sums(np.array([x1, x2]))
        for x, f in ((x1, f1), (x2, f2)):
            if f < best_value:
                best, best_value = x, float(f)
        if f1 <= f2:
            b = x2
        else:
            a = x1
    return best


def _risk_bound_over(mechanism, setting, advantage, target_fpr, grid, references):
    """``bound(rows, low, high)`` for :mod:`._cover`: a bound of the risk at every scale in [low, high],
    from the entry's ``privacy_profile_over``. The TPR bound is the least of the two sums over the
    ε of ``grid`` and, for each (scale r, its best ε*) of ``references``, ε* (r/s)² at either end
    and the middle s of the interval (where a lattice kink of δ(ε) moves as σ grows): any ε gives
    a valid bound, these make it tight near the references."""
    over = mechanism.privacy_profile_over

    def bound(rows, low, high):
        if advantage is None:
            ends = np.stack([low, np.sqrt(low * high), high], axis=1)
            moved = [best * (reference / ends) ** 2 for reference, best in references]
            bests = np.array([[best for _, best in references]])
            epsilons = np.concatenate(
                [np.broadcast_to(grid, (low.size, grid.size)), *moved, np.repeat(bests, low.size, axis=0)], axis=1
            )
        else:
            epsilons = np.zeros((low.size, 1))
        count = epsilons.shape[1]
        deltas = np.asarray(
            over(epsilons.ravel(), np.repeat(low, count), np.repeat(high, count), setting), dtype=float
        ).reshape(epsilons.shape)
        if advantage is not None:
            return deltas[:, 0]
        sums = np.minimum(
            _first_sum(epsilons, deltas, math.log(target_fpr)),
            _second_sum(epsilons, deltas, target_fpr),
        )
        return np.minimum(1.0, sums.min(axis=1))

    return bound


def _safe_scale_for_limit(
    mechanism: Mechanism,
    setting: Setting,
    advantage: float | None,
    target_fpr: float | None,
    level: float,
    limit_text: str,
    candidate: float,
) -> float:
    """From ``candidate`` (which meets the limit), the smallest scale from which every larger one
    does, certified (docs/math.md section 9.7): the tail bound ``privacy_profile_over(ε, s, inf)``
    falls as s grows, so the scales from the first s where it meets the limit are safe; the scales
    from ``candidate`` up to there are covered by intervals (:func:`._cover.certified_from`)."""
    grid = np.zeros(0)
    references: list[tuple[float, float]] = []
    if target_fpr is not None:
        upper = min(-math.log(target_fpr), _MIRROR_CAP)
        grid = np.linspace(0.0, upper, _GRID_POINTS)[::4]
        references.append((candidate, _best_epsilon(target_fpr, _profile_of(mechanism, candidate, setting))))
    bound = _risk_bound_over(mechanism, setting, advantage, target_fpr, grid, references)

    def tail_meets(scale):
        return bool(bound(np.zeros(1, dtype=int), np.array([scale]), np.array([np.inf]))[0] <= level)

    low, top = candidate, candidate
    while not tail_meets(top):
        if top >= _LARGEST_SCALE:
            raise ValueError(
                f"no {mechanism.name} noise up to scale {top:g} (the largest double) provably holds the attack "
                f"to {limit_text} at every larger scale; ask for a larger limit"
            )
        low, top = top, min(2.0 * top, _LARGEST_SCALE)
    for _ in range(60):  # bisection in log scale: the tail bound falls as the scale grows
        if top / low - 1.0 <= 1e-6:
            break
        middle = math.sqrt(low * top)
        if tail_meets(middle):
            top = middle
        else:
            low = middle
    limit = np.array([level])
    answer = float(_cover.certified_from(bound, limit, np.array([candidate]), np.array([top]))[0])
    # The TPR bound is tight near its references: add the answer as one, and cover again (the
    # answer can only fall), until it stops moving.
    for _ in range(_REFERENCE_ROUNDS):
        if target_fpr is None or answer <= candidate * (1.0 + 1e-9):
            break
        references.append((answer, _best_epsilon(target_fpr, _profile_of(mechanism, answer, setting))))
        bound = _risk_bound_over(mechanism, setting, advantage, target_fpr, grid, references)
        better = float(_cover.certified_from(bound, limit, np.array([candidate]), np.array([top]))[0])
        if better >= answer * (1.0 - 1e-9):
            answer = min(answer, better)
            break
        answer = better
    return answer
