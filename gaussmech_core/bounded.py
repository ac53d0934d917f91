"""Liu's mechanisms for bounded data, seen as noise: truncated and boundary-inflated truncated GG.

When every coordinate of the query is known to lie in [a, b], Liu (arXiv:1602.06028, Definition 5
and Appendix C) releases it with pure ε-DP using generalized Gaussian noise of any order p >= 1:

* the **truncated GG** mechanism draws the release from the GG(s(x), b, p) density restricted
  and renormalised to [a, b];
* the **boundary-inflated truncated (BIT) GG** mechanism releases ``clamp(s(x) + e, a, b)`` with
  ``e ~ GG(0, b, p)``: the mass beyond a bound is piled onto it.

Their calibrations and samplers are in :mod:`gaussmech_core.generalized` (``truncated_gg_scale``,
``bit_gg_scale``, ``truncated_gg_sample``, ``bit_gg_sample``; docs/math.md section 5.6). The noise of a
release, ``release - s(x)``, depends on where s(x) lies in [a, b]; the pages show it at the
middle of the bounds, ``s(x) = (a + b)/2``, where it is symmetric on ``[-h, h]`` with
``h = (b - a)/2``. This module gives that noise's density, tail and moments in closed form
(regularized incomplete gamma functions), and the privacy profile every ε₀-DP mechanism meets.

Why bounds: unbounded GG noise with p > 1 is never pure ε-DP (Liu, Claim 4): the privacy loss
``(|e + Δ|^p - |e|^p)/b^p`` grows without limit with the noise e. On [a, b] the loss is bounded by
``A(b) = (W^p - (W - Δ)^p)/b^p``, ``W = b - a`` (docs/math.md section 5.6).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from ._types import ArrayLike, FloatOrArray
from ._validation import as_float_array, broadcast, require_interval, sample_shape, scalar_or_array
from .generalized import _kernel_log_ratio, _log_upper_gamma

__all__ = [
    "half_width",
    "kernel_log_ratio",
    "truncated_gg_epsilon_bound",
    "truncated_noise_pdf",
    "truncated_noise_tail",
    "truncated_noise_moment",
    "clamped_noise_pdf",
    "clamped_noise_tail",
    "clamped_noise_moment",
    "clamped_noise_atoms",
    "truncated_noise_sample",
    "clamped_noise_sample",
    "pure_dp_delta_bound",
]


def half_width(lower: ArrayLike, upper: ArrayLike) -> FloatOrArray:
    """``h = (upper - lower)/2``: the noise at the middle of the bounds lies in [-h, h].

    Parameters
    ----------
    lower, upper : float or array_like
        Finite data bounds a < b (broadcast together).

    Returns
    -------
    float or numpy.ndarray
        h > 0, evaluated as ``upper/2 - lower/2`` so that bounds near ±1.8e308 do not overflow.

    Raises
    ------
    ValueError
        If a bound is NaN or infinite, or ``upper <= lower``.

    Examples
    --------
    >>> half_width(-1.0, 3.0)
    2.0
    """
    lower_b, upper_b = broadcast(
        require_interval(as_float_array(lower, "lower"), "lower"),
        require_interval(as_float_array(upper, "upper"), "upper"),
    )
    width = 0.5 * upper_b - 0.5 * lower_b
    if np.any(width <= 0.0):
        index = np.argwhere(np.atleast_1d(width <= 0.0))[0][0]
        raise ValueError(
            f"upper must exceed lower, got lower={float(np.atleast_1d(lower_b)[index])!r}, "
            f"upper={float(np.atleast_1d(upper_b)[index])!r}"
        )
    return scalar_or_array(width, lower, upper)


def _positive(value: ArrayLike, name: str) -> np.ndarray:
    return require_interval(as_float_array(value, name), name, 0.0, None, lower_open=True)


def _order(order: ArrayLike) -> np.ndarray:
    return require_interval(as_float_array(order, "order"), "order", 1.0, 10.0)


def kernel_log_ratio(scale: ArrayLike, sensitivity: ArrayLike, order: ArrayLike, width: ArrayLike) -> FloatOrArray:
    """``A(b) = (W^p - (W - Δ)^p)/b^p``: the sup of the GG kernel's log-ratio over a box of width W.

    Evaluated as ``(W/b)^p (1 - (1 - Δ/W)^p)`` with ``expm1``/``log1p``, so Δ ≪ W loses nothing,
    and raised by ``(8 + 4p)`` ulps, a bound on its rounding, so it is never below the exact value.

    Returns
    -------
    float or ndarray
        ``A(b)``; inf where ``(W/b)^p`` exceeds the largest double (a scale far below the width),
        as the exact value does.

    Notes
    -----
    docs/math.md section 5.6 [D]; requires 0 < Δ <= W and p >= 1.

    Examples
    --------
    >>> round(kernel_log_ratio(0.7, 0.5, 2.0, 1.0), 6)   # (1 - 0.25)/0.49
    1.530612
    """
    scale_b, sensitivity_b, order_b, width_b = broadcast(
        _positive(scale, "scale"), _positive(sensitivity, "sensitivity"), _order(order), _positive(width, "width")
    )
    if np.any(sensitivity_b > width_b):
        raise ValueError(
            "sensitivity must be at most the width W of the data bounds (no query on [a, b] moves further)"
        )
    # The function the calibration generalized.truncated_gg_scale verifies with, so that the ε
    # reported at its b is the ε it verified; rounded upward by a bound on its rounding.
    result = _kernel_log_ratio(scale_b, sensitivity_b, width_b, order_b)
    return scalar_or_array(result, scale, sensitivity, order, width)


def truncated_gg_epsilon_bound(
    scale: ArrayLike, sensitivity: ArrayLike, order: ArrayLike, width: ArrayLike
) -> FloatOrArray:
    """The ε the truncated GG mechanism is proved to have at scale b: ``2 A(b)`` (sufficient, docs/math.md section 5.6).

    Returns
    -------
    float or ndarray
        ``2 A(b)`` (:func:`kernel_log_ratio`); inf where that exceeds the largest double.

    Examples
    --------
    >>> round(truncated_gg_epsilon_bound(0.7, 0.5, 2.0, 1.0), 2)   # docs/math.md section 5.6: "the bound's 3.06"
    3.06
    """
    return scalar_or_array(
        2.0 * np.asarray(kernel_log_ratio(scale, sensitivity, order, width)), scale, sensitivity, order, width
    )


def _standard(t: ArrayLike, scale: ArrayLike, order: ArrayLike) -> np.ndarray:
    """``z = (|t|/b)^p`` (inf where it overflows)."""
    with np.errstate(over="ignore"):
        return np.power(np.abs(t) / scale, order)


def _inside_moment(q: np.ndarray, scale: np.ndarray, order: np.ndarray, h: ArrayLike) -> np.ndarray:
    """``E[|X|^q ; |X| <= h]`` for X ~ GG(0, b, p): ``b^q Γ((q+1)/p)/Γ(1/p) P((q+1)/p, (h/b)^p)``."""
    a = (q + 1.0) / order
    with np.errstate(over="ignore"):
        factor = np.exp(q * np.log(scale) + special.gammaln(a) - special.gammaln(1.0 / order))
        return factor * special.gammainc(a, _standard(h, scale, order))


def _mass_inside(scale: np.ndarray, order: np.ndarray, h: np.ndarray) -> np.ndarray:
    """``P(|X| <= h)`` for X ~ GG(0, b, p)."""
    return special.gammainc(1.0 / order, _standard(h, scale, order))


def _scaled_lower_gamma(s: np.ndarray, z: np.ndarray) -> np.ndarray:
    """``S(s, z) = P(s, z) Γ(s + 1)/z^s = e^{-z} Σ_k z^k/((s+1)(s+2)…(s+k))`` for 0 <= z <= 1.

    For X ~ GG(0, b, p), s = 1/p, z_h = (h/b)^p: ``P(|X| <= h) = (h/b) S(s, z_h)/Γ(s + 1)``,
    so ratios of such masses need no b at all (the truncated law tends to the uniform one as
    h/b -> 0, where P itself underflows). With z <= 1 and s > 0 the k-th term is below 1/k!;
    28 terms reach 1e-29.
    """
    term = np.ones_like(z)
    total = np.ones_like(z)
    for k in range(1, 29):
        term = term * z / (s + k)
        total = total + term
    return np.exp(-z) * total


# Below this z_h = (h/b)^p the truncated noise's formulas use the series S (no b, no underflow).
_SERIES_LIMIT = 1.0


def _gg_density(x: np.ndarray, scale: np.ndarray, order: np.ndarray) -> np.ndarray:
    log_norm = np.log(order) - math.log(2.0) - np.log(scale) - special.gammaln(1.0 / order)
    return np.exp(log_norm - _standard(x, scale, order))


def _arrays(x: ArrayLike, scale: ArrayLike, order: ArrayLike, h: ArrayLike, name: str = "x") -> tuple[np.ndarray, ...]:
    x_array = require_interval(as_float_array(x, name), name, allow_infinity=True)
    return broadcast(x_array, _positive(scale, "scale"), _order(order), _positive(h, "half_width"))


def truncated_noise_pdf(x: ArrayLike, scale: ArrayLike, order: ArrayLike, h: ArrayLike) -> FloatOrArray:
    """Density of the truncated GG noise at the middle of the bounds: GG(0, b, p) on [-h, h], renormalised.

    Examples
    --------
    >>> from scipy import integrate
    >>> round(integrate.quad(lambda x: truncated_noise_pdf(x, 0.7, 2.0, 0.5), -0.5, 0.5)[0], 10)
    1.0

    Notes
    -----
    Where ``(h/b)^p <= 1`` it is evaluated as ``e^{-(|x|/b)^p}/(2h S(1/p, (h/b)^p))`` with the
    series S of the regularized incomplete gamma function (no underflow as b/h grows: the law
    tends to the uniform ``1/(2h)``); it is inf only where ``1/(2h)`` exceeds the largest double
    (a subnormal h).
    """
    x_b, scale_b, order_b, h_b = _arrays(x, scale, order, h)
    z_h = _standard(h_b, scale_b, order_b)
    small = z_h <= _SERIES_LIMIT
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # each branch where it is used
        # h <= b: f(x)/P(|X| <= h) = e^{-(|x|/b)^p}/(2h S(1/p, z_h)), formed without b.
        series = np.exp(-_standard(x_b, scale_b, order_b)) / (
            2.0 * h_b * _scaled_lower_gamma(1.0 / order_b, np.minimum(z_h, 1.0))
        )
        direct = _gg_density(x_b, scale_b, order_b) / _mass_inside(scale_b, order_b, h_b)
    density = np.where(np.abs(x_b) <= h_b, np.where(small, series, direct), 0.0)
    return scalar_or_array(density, x, scale, order, h)


def truncated_noise_tail(t: ArrayLike, scale: ArrayLike, order: ArrayLike, h: ArrayLike) -> FloatOrArray:
    """``P(|e| > t)`` of the truncated GG noise: ``(P(1/p, z_h) - P(1/p, z_t))/P(1/p, z_h)``, 0 for t >= h.

    Where z_h = (h/b)^p > 1 the difference is taken as ``Q(1/p, z_t) − Q(1/p, z_h)`` with the
    complementary incomplete gamma in log space, so tails far below 1e-16 keep their digits
    (docs/math.md section 5.6).

    Examples
    --------
    >>> truncated_noise_tail([0.0, 0.5, 1.0], 0.7, 2.0, 0.5).tolist()
    [1.0, 0.0, 0.0]
    """
    t_b, scale_b, order_b, h_b = _arrays(t, scale, order, h, "t")
    z_h = _standard(h_b, scale_b, order_b)
    small = z_h <= _SERIES_LIMIT
    below_h = np.minimum(t_b, h_b)
    with np.errstate(divide="ignore", invalid="ignore"):  # each branch where it is used
        # h <= b: P(|e| <= t) = (t/h) S(1/p, z_t)/S(1/p, z_h), formed without b.
        shape = 1.0 / order_b
        ratio = (below_h / h_b) * (
            _scaled_lower_gamma(shape, np.minimum(_standard(below_h, scale_b, order_b), 1.0))
            / _scaled_lower_gamma(shape, np.minimum(z_h, 1.0))
        )
        # h > b: P(z_h) − P(z_t) = Q(z_t) − Q(z_h) = Q(z_t)(1 − Q(z_h)/Q(z_t)), in log space
        # (1 − P with both P near 1 cancelled to 0 below tails of 1e-16).
        inside = _mass_inside(scale_b, order_b, h_b)
        log_outside_t = _log_upper_gamma(shape, _standard(below_h, scale_b, order_b))
        log_outside_h = _log_upper_gamma(shape, z_h)
        share = np.maximum(-np.expm1(log_outside_h - log_outside_t), 0.0)  # 1 − Q(z_h)/Q(z_t)
        direct = np.exp(log_outside_t + np.log(share)) / inside
    tail = np.where(t_b >= h_b, 0.0, np.clip(np.where(small, 1.0 - ratio, direct), 0.0, 1.0))
    return scalar_or_array(tail, t, scale, order, h)


def _abs_noise_quantiles(levels: np.ndarray, scale: float, order: float, h: float, truncated: bool) -> np.ndarray:
    """Quantiles ``t_q`` of ``|e|`` (``P(|e| <= t_q) >= q``, the smallest such t) in closed form.

    With X ~ GG(0, b, p), s = 1/p and ``P(|X| <= t) = P(s, (t/b)^p)`` (regularized lower gamma):

    * BIT noise, ``|e| = min(|X|, h)``: ``t_q = min(h, b P⁻¹(s, q)^{1/p})`` (past the mass inside,
      the atom at h);
    * truncated noise, ``P(|e| <= t) = P(s, z_t)/P(s, z_h)`` on [0, h]:
      ``t_q = min(h, b P⁻¹(s, q P(s, z_h))^{1/p})``.

    ``P⁻¹`` is ``scipy.special.gammaincinv`` (relative error below 1e-13 against mpmath on
    s in [0.1, 1]). NaN where a closed form cannot be formed in double precision (the mass
    inside below 1e-280, or ``P⁻¹`` underflowing to 0): the caller root-finds on the tail there.
    These are the d = 1 loss quantiles of the registry's bounded entries (docs/math.md section 5.6,
    "Quantiles of the noise"), which replaced a root search on the tail.
    """
    q = np.asarray(levels, dtype=np.float64)
    shape = 1.0 / order
    target = q
    if truncated:
        inside = float(
            _mass_inside(
                np.asarray(scale, dtype=np.float64),
                np.asarray(order, dtype=np.float64),
                np.asarray(h, dtype=np.float64),
            )
        )
        if not inside > 1e-280:
            return np.full(q.shape, np.nan)
        target = q * inside
    z = special.gammaincinv(shape, target)
    with np.errstate(over="ignore", under="ignore"):
        t = scale * np.power(z, shape)
    return np.where((z > 0.0) & (t > 0.0), np.minimum(t, h), np.nan)


def truncated_noise_moment(q: ArrayLike, scale: ArrayLike, order: ArrayLike, h: ArrayLike) -> FloatOrArray:
    """``E|e|^q`` of the truncated GG noise: ``b^q Γ((q+1)/p)/Γ(1/p) P((q+1)/p, z_h) / P(1/p, z_h)``.

    Examples
    --------
    >>> round(float(truncated_noise_moment(2.0, 1e6, 2.0, 0.5)), 9)   # b ≫ h: uniform on [-h, h], h²/3
    0.083333333
    """
    q_b, scale_b, order_b, h_b = broadcast(
        _positive(q, "q"), _positive(scale, "scale"), _order(order), _positive(h, "half_width")
    )
    inside = _mass_inside(scale_b, order_b, h_b)
    with np.errstate(invalid="ignore", under="ignore"):
        moment = _inside_moment(q_b, scale_b, order_b, h_b) / inside
        # Where b ≫ h both gamma functions underflow together; the law is then uniform on [-h, h].
        uniform = h_b**q_b / (q_b + 1.0)
    moment = np.where(np.isfinite(moment) & (inside > 1e-280), np.minimum(moment, h_b**q_b), uniform)
    return scalar_or_array(moment, q, scale, order, h)


def clamped_noise_pdf(x: ArrayLike, scale: ArrayLike, order: ArrayLike, h: ArrayLike) -> FloatOrArray:
    """Continuous part of the BIT noise's law at the middle of the bounds: the GG density on (-h, h).

    The rest, ``P(|X| > h)/2`` at each of ±h, is an atom at each bound (not a density).

    Examples
    --------
    >>> float(clamped_noise_pdf(0.6, 0.7, 2.0, 0.5))
    0.0
    """
    x_b, scale_b, order_b, h_b = _arrays(x, scale, order, h)
    density = np.where(np.abs(x_b) < h_b, _gg_density(x_b, scale_b, order_b), 0.0)
    return scalar_or_array(density, x, scale, order, h)


def clamped_noise_tail(t: ArrayLike, scale: ArrayLike, order: ArrayLike, h: ArrayLike) -> FloatOrArray:
    """``P(|e| > t)`` of the BIT noise: the GG tail ``Q(1/p, (t/b)^p)`` for t < h, 0 from h on.

    Examples
    --------
    >>> from gaussmech_core.generalized import gg_tail
    >>> bool(clamped_noise_tail(0.3, 0.7, 2.0, 0.5) == gg_tail(0.3, 0.7, 2.0)), float(clamped_noise_tail(0.5, 0.7, 2.0, 0.5))
    (True, 0.0)
    """
    t_b, scale_b, order_b, h_b = _arrays(t, scale, order, h, "t")
    tail = np.where(t_b >= h_b, 0.0, special.gammaincc(1.0 / order_b, _standard(t_b, scale_b, order_b)))
    return scalar_or_array(tail, t, scale, order, h)


def clamped_noise_moment(q: ArrayLike, scale: ArrayLike, order: ArrayLike, h: ArrayLike) -> FloatOrArray:
    """``E|e|^q`` of the BIT noise ``clamp(X, -h, h)``: ``E[|X|^q; |X| <= h] + h^q P(|X| > h)``.

    Evaluated as ``h^q T`` with ``T = E[(|X|/h)^q; |X| <= h] + Q(1/p, z)`` in [0, 1],
    ``z = (h/b)^p``, ``a = (q+1)/p``: the first term is ``(h/b) e^{-z} M(1, a+1, z)/(a Γ(1/p))``
    (Kummer's function, for z <= a + 1) or ``z^{-q/p} Γ(a) P(a, z)/Γ(1/p)`` (beyond), so that no
    Gamma factor overflows at large q. Returns inf only where ``h^q T`` exceeds the largest double.

    Examples
    --------
    >>> round(float(clamped_noise_moment(2.0, 1e-3, 2.0, 0.5)), 12)   # b ≪ h: the GG's own b²/2
    5e-07
    """
    q_b, scale_b, order_b, h_b = broadcast(
        _positive(q, "q"), _positive(scale, "scale"), _order(order), _positive(h, "half_width")
    )
    q_b, scale_b, order_b, h_b = (np.atleast_1d(array) for array in (q_b, scale_b, order_b, h_b))
    shape = 1.0 / order_b
    a = (q_b + 1.0) / order_b
    z = _standard(h_b, scale_b, order_b)
    near = z <= a + 1.0
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):  # each branch where used
        # E[(|X|/h)^q; |X| <= h] = (h/b) e^{-z} M(1, a+1, z)/(a Γ(1/p)) (Kummer), for z <= a + 1 ...
        kummer_series = np.ones_like(z)  # hyp1f1 only where it is used (it does not end at z = inf)
        kummer_series[near] = special.hyp1f1(1.0, a[near] + 1.0, z[near])
        kummer = (h_b / scale_b) * np.exp(-z) * kummer_series / (a * special.gamma(shape))
        # ... and z^{-q/p} Γ(a)/Γ(1/p) P(a, z) beyond, where P(a, z) > 1/2 (no underflow).
        log_power = special.gammaln(a) - (a - shape) * np.log(z)
        log_power = np.where(np.isnan(log_power), -np.inf, log_power)  # inf - inf: z >= a, so -inf
        direct = np.exp(log_power - special.gammaln(shape) + np.log(special.gammainc(a, z)))
        fraction = np.minimum(np.where(near, kummer, direct) + special.gammaincc(shape, z), 1.0)
        power = h_b**q_b
        moment = np.where(
            np.isfinite(power) & (power > 0.0), power * fraction, np.exp(q_b * np.log(h_b) + np.log(fraction))
        )
    return scalar_or_array(moment, q, scale, order, h)


def clamped_noise_atoms(scale: float, order: float, h: float) -> tuple[np.ndarray, np.ndarray]:
    """The two atoms of the BIT noise at the middle of the bounds: ``([-h, h], [P(|X| > h)/2] * 2)``.

    Examples
    --------
    >>> positions, masses = clamped_noise_atoms(0.7, 2.0, 0.5)
    >>> positions.tolist(), round(float(masses.sum()), 6)   # P(|N(0, 0.245)| > 0.5) = erfc(0.5/0.7)
    ([-0.5, 0.5], 0.312422)
    """
    h_value = float(_positive(h, "half_width"))
    outside = float(
        special.gammaincc(
            1.0 / float(_order(order)), _standard(h_value, float(_positive(scale, "scale")), float(order))
        )
    )
    return np.array([-h_value, h_value]), np.array([0.5 * outside, 0.5 * outside])


def _gg_draws(rng: np.random.Generator, count: int, b: float, p: float) -> np.ndarray:
    """``count`` draws of GG(0, b, p) as ``S b G^{1/p}``, ``G ~ Gamma(1/p, 1)``, S a random sign (docs/math.md section 5.1)."""
    magnitude = b * np.power(rng.gamma(1.0 / p, 1.0, count), 1.0 / p)
    return np.where(rng.random(count) < 0.5, -magnitude, magnitude)


def clamped_noise_sample(
    rng: np.random.Generator, size: int | tuple[int, ...], scale: float, order: float, h: float
) -> np.ndarray:
    """Draws of the BIT noise at the middle of the bounds: ``clamp(e, -h, h)``, ``e ~ GG(0, b, p)``.

    Examples
    --------
    >>> draws = clamped_noise_sample(np.random.default_rng(0), 20_000, 0.7, 2.0, 0.5)
    >>> abs(float(np.mean(np.abs(draws) == 0.5)) - 0.3124) < 4 * (0.3124 * 0.6876 / 20_000) ** 0.5   # the atoms
    True
    """
    b, p, half = float(_positive(scale, "scale")), float(_order(order)), float(_positive(h, "half_width"))
    shape = sample_shape(size)
    return np.clip(_gg_draws(rng, int(np.prod(shape)), b, p), -half, half).reshape(shape)


def truncated_noise_sample(
    rng: np.random.Generator, size: int | tuple[int, ...], scale: float, order: float, h: float
) -> np.ndarray:
    """Exact draws of the truncated GG noise on [-h, h] by rejection, at least 37% of proposals kept.

    For ``h <= b`` the proposal is uniform on [-h, h], kept with probability ``exp(-(|x|/b)^p)``
    (at least ``e^{-1}``); for ``h > b`` it is GG(0, b, p) itself, kept when ``|x| <= h``
    (probability ``P(1/p, (h/b)^p) >= P(1/p, 1) >= 1 - e^{-1}``). Both give exactly the GG density
    restricted to [-h, h] and renormalised, far faster than inverting its CDF.

    Examples
    --------
    >>> draws = truncated_noise_sample(np.random.default_rng(0), 20_000, 0.7, 2.0, 0.5)
    >>> bool(np.abs(draws).max() <= 0.5), round(float(draws.var()) / float(truncated_noise_moment(2.0, 0.7, 2.0, 0.5)), 1)
    (True, 1.0)
    """
    b, p, half = float(_positive(scale, "scale")), float(_order(order)), float(_positive(h, "half_width"))
    shape = sample_shape(size)
    count = int(np.prod(shape))
    result = np.empty(count)
    filled = 0
    while filled < count:
        wanted = count - filled
        batch = int(wanted * 2.8) + 16
        if half <= b:
            proposal = rng.uniform(-half, half, batch)
            kept = proposal[rng.random(batch) < np.exp(-np.power(np.abs(proposal) / b, p))]
        else:
            proposal = _gg_draws(rng, batch, b, p)
            kept = proposal[np.abs(proposal) <= half]
        take = min(kept.size, wanted)
        result[filled : filled + take] = kept[:take]
        filled += take
    return result.reshape(shape)


def pure_dp_delta_bound(epsilon: ArrayLike, epsilon_zero: ArrayLike) -> FloatOrArray:
    """``δ(ε) <= (e^{ε₀} - e^ε)₊/(1 + e^{ε₀})``: the privacy profile bound of every ε₀-DP mechanism.

    Notes
    -----
    An ε₀-DP mechanism is post-processing of randomized response with parameter ε₀ (Kairouz, Oh
    & Viswanath 2015, Theorem 2.1), whose hockey-stick divergence at ε is this value; it is 0
    for ε >= ε₀. Written ``-expm1(ε - ε₀)/(1 + e^{-ε₀})`` so large ε₀ does not overflow.

    Examples
    --------
    >>> float(pure_dp_delta_bound(1.0, 1.0)), round(float(pure_dp_delta_bound(0.0, math.log(3.0))), 12)
    (0.0, 0.5)
    """
    epsilon_b, zero_b = broadcast(
        require_interval(as_float_array(epsilon, "epsilon"), "epsilon", 0.0, None),
        require_interval(as_float_array(epsilon_zero, "epsilon_zero"), "epsilon_zero", 0.0, None, allow_infinity=True),
    )
    with np.errstate(over="ignore", invalid="ignore"):
        bound = np.where(epsilon_b >= zero_b, 0.0, -np.expm1(epsilon_b - zero_b) / (1.0 + np.exp(-zero_b)))
    return scalar_or_array(bound, epsilon, epsilon_zero)
