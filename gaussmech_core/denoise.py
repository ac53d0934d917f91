"""Denoising a released vector: post-processing that removes public noise at no privacy cost.

Balle & Wang (2018, Sec. 4) observe that once ``y = theta + Z`` is released with noise of a
*public* law, any function of ``y`` alone is still differentially private (post-processing), so
classical estimators can cut the error. This module implements those estimators
(docs/math.md section 8) and the projections that use what else is public about a histogram
(non-negative counts, a known total n):

==========================  ==========================================================  ========
estimator                   formula                                                     source
==========================  ==========================================================  ========
posterior mean              ``m + w²/(w² + σ²) (y - m)``                                8.1
James–Stein                 ``(1 - (d-2) σ²/‖y‖²) y``; positive part ``(·)_+``          8.2
empirical Bayes             ``(1 - d σ²/‖y‖²)_+ y`` (plug-in MLE of w²)                 8.3
soft thresholding           ``sign(y) max(|y| - λ, 0)``, ``λ = σ √(2 ln d)``            8.4
wavelet soft thresholding   soft thresholding of orthonormal 2-D wavelet details        8.4
projections                 onto ``{x ≥ 0}`` and ``{x ≥ 0, Σx = n}``                    8.5
Liu's normalisation         clip to ``[0, n]``, rescale to sum n                        8.5
rounding                    nearest integers with the same total (largest remainder)    8.5
==========================  ==========================================================  ========

``sigma`` is always the standard deviation of one noise coordinate. The risk theorems quoted
in the docstrings are for Gaussian noise ``N(0, σ² I)``; for Laplace or generalized Gaussian
noise the estimators still run with ``sigma`` = that noise's standard deviation (Laplace:
``√2 b``), but their guarantees are then heuristics, not theorems. In a pipeline only the first
step sees i.i.d. noise; later steps receive an already-processed vector and pass ``sigma`` on
as a scale.

Every estimator treats its input as one vector of ``d = y.size`` coordinates, whatever its
shape (a 2-D heat map is a vector of its cells), and returns an array of the input's shape.
The pipeline runner :func:`apply_pipeline` and the registry :data:`DENOISERS` are what the
interface uses; ``gaussmech_core.histogram.error_sweep`` runs the same kernels on whole
batches of releases at once.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from ._types import ArrayLike, FloatOrArray, FloatT, Prior
from ._validation import (
    MAX_DIMENSION,
    as_float_array,
    broadcast,
    require_choice,
    require_integer,
    require_interval,
    scalar_or_array,
    whole_numbers,
)

__all__ = [
    "posterior_mean",
    "posterior_mean_bayes_risk",
    "james_stein",
    "james_stein_bayes_risk",
    "empirical_bayes",
    "oracle_prior",
    "universal_threshold",
    "soft_threshold",
    "wavelet_soft_threshold",
    "project_nonnegative",
    "project_to_simplex",
    "clip_and_rescale",
    "round_keeping_total",
    "Denoiser",
    "DENOISERS",
    "apply_pipeline",
    "check_pipeline",
]

# The ratio σ/‖y‖ is capped here before squaring: beyond it the James–Stein factor is below
# -1e300, the positive part is 0 either way, and squaring the raw ratio would overflow.
_MAX_NOISE_TO_NORM_RATIO = 1e150
# Michelot's simplex iteration is exact when it stops; after this many rounds the remaining rows
# (adversarial inputs only) fall back to the O(d log d) sort, so the worst case stays O(d log d).
_MICHELOT_MAX_ROUNDS = 60
# A public total is a whole number that float64 holds exactly.
_MAX_EXACT_INTEGER = 2**53


# --- input checks ----------------------------------------------------------------------------


def _as_vector(y: ArrayLike, name: str = "y") -> np.ndarray:
    array = require_interval(as_float_array(y, name), name)
    if array.size == 0:
        raise ValueError(f"{name} must contain at least one value, got an empty array")
    return array


def _as_scalar(value: ArrayLike, name: str, lower: float | None = 0.0, *, lower_open: bool = False) -> float:
    array = as_float_array(value, name)
    if array.ndim != 0:
        raise TypeError(f"{name} must be a single number, got an array of shape {array.shape}")
    require_interval(array, name, lower, None, lower_open=lower_open)
    return float(array)


def _as_total(total: ArrayLike) -> float:
    return _as_scalar(total, "total", 0.0)


def _center_array(center: ArrayLike | str, y: np.ndarray, name: str = "center") -> np.ndarray | str:
    if isinstance(center, str):
        return require_choice(center, name, ("mean",))
    array = require_interval(as_float_array(center, name), name)
    if array.ndim and array.shape != y.shape:
        raise ValueError(f"{name} must be a number or an array of the shape of y {y.shape}, got shape {array.shape}")
    return array.reshape(-1) if array.ndim else array


def _require_dimension(d: int, minimum: int, what: str) -> None:
    if d < minimum:
        raise ValueError(f"y must have at least {minimum} coordinates for {what} (d >= {minimum}), got d={d}")


def _scaled_norm(residual: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(m, ‖r/m‖)`` per row with ``m = max|r|`` (1 for a zero row): ``‖r‖ = m ‖r/m‖`` without
    overflow (the second factor is in [1, √d]), even where ‖r‖ itself exceeds the largest double."""
    largest = np.max(np.abs(residual), axis=-1, keepdims=True)
    safe_largest = np.where(largest > 0, largest, 1.0)
    return safe_largest, np.sqrt(np.sum((residual / safe_largest) ** 2, axis=-1, keepdims=True))


# --- batch kernels: rows of Y are independent releases, sigma has shape (rows, 1) -------------


def _shrink_rows(
    Y: np.ndarray, sigma: FloatOrArray, center: FloatOrArray | str, dims_lost: int, positive_part: bool
) -> np.ndarray:
    """Shrink every row of ``Y`` towards ``center`` by the factor ``1 - (d - dims_lost) σ²/‖y - c‖²``.

    ``center="mean"`` shrinks towards each row's own mean (Lindley); the mean costs one more
    degree of freedom, which the caller accounts for in ``dims_lost``.
    """
    d = Y.shape[1]
    anchor = Y.mean(axis=1, keepdims=True) if isinstance(center, str) else center
    residual = Y - anchor
    # σ/‖r‖ = (σ/m)/‖r/m‖ (m = max|r|): neither huge counts nor a centre near the largest double
    # overflow the norm.
    largest, unit_norm = _scaled_norm(residual)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):  # inf and 0/0 (a zero row): masked below
        ratio = (sigma / largest) / unit_norm
    lost = d - dims_lost
    if positive_part:
        # Capped where the factor's positive part is 0 either way, so that its square stays finite.
        factor = np.maximum(1.0 - lost * np.minimum(ratio, _MAX_NOISE_TO_NORM_RATIO) ** 2, 0.0)
        shrunk = factor * residual
    else:
        # r - k (σ/‖r‖)(σ/‖r‖ r): the inner product is at most σ, so the outer one overflows only
        # where the shrunk value itself exceeds the largest double (then ±inf, its rounded value).
        with np.errstate(over="ignore", invalid="ignore"):
            shrunk = residual - lost * (ratio * (ratio * residual))
    # A coordinate already at the centre stays there (and a zero row is left as it is).
    shrunk = np.where(residual != 0.0, shrunk, 0.0)
    return anchor + shrunk


def _posterior_mean_rows(Y, sigma, prior_mean, prior_variance):
    """The weight τ²/(τ² + σ²), written as 1/(1 + (σ/τ)²) so that σ² never overflows (σ up to 1.8e308)."""
    sigma = np.asarray(sigma, dtype=np.float64)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):  # σ/τ = inf gives weight 0
        ratio = sigma / prior_variance**0.5 if np.ndim(prior_variance) == 0 else sigma / np.sqrt(prior_variance)
        weight = np.where(sigma == 0.0, 1.0, 1.0 / (1.0 + ratio * ratio))
    return prior_mean + weight * (Y - prior_mean)


def _soft_threshold_rows(Y, threshold):
    result = np.abs(Y)
    result -= threshold
    np.maximum(result, 0.0, out=result)
    np.copysign(result, Y, out=result)
    result += 0.0  # -0.0 (a negative y set to zero) becomes +0.0, which prints and exports as "0"
    return result


def _universal_threshold(sigma: FloatT, d: int) -> FloatT:
    """σ √(2 ln d); inf where that exceeds the largest double, which thresholds every finite
    value to 0, as the exact λ does."""
    with np.errstate(over="ignore"):
        return sigma * math.sqrt(2.0 * math.log(d))


def _simplex_shift_sorted(Y, total):
    """τ per row by sorting (Held, Wolfe & Crowder 1974; Duchi et al. 2008), docs/math.md section 8.5."""
    d = Y.shape[1]
    descending = -np.sort(-Y, axis=1)
    excess = np.cumsum(descending, axis=1) - total
    counts = np.arange(1, d + 1)
    positive = descending - excess / counts > 0
    # ρ = the largest j with u_j - (Σ_{i≤j} u_i - n)/j > 0. j = 1 always qualifies when n > 0
    # (the test reads u_1 - (u_1 - n) = n), even where rounding makes u_1 - n equal u_1.
    positive[:, 0] = True
    rho = d - 1 - np.argmax(positive[:, ::-1], axis=1)
    rows = np.arange(Y.shape[0])
    return (excess[rows, rho] / (rho + 1))[:, None]


def _simplex_shift_michelot(Y, total):
    """τ per row by Michelot's (1986) active-set iteration; rows not settled get the sort.

    Start with every coordinate active and τ = (Σ_active y - n)/|active|; drop the coordinates
    with y ≤ τ and repeat. τ only increases, no coordinate of the optimal support is ever
    dropped, and when the active set stops changing τ is the exact shift (Condat 2016, Sec. 3).
    Each round is O(d) and a handful of rounds suffice on noisy counts, which makes it faster
    than sorting whole batches of releases.
    """
    d = Y.shape[1]
    # The largest entry always stays active (τ < max y when n > 0); saying so explicitly keeps
    # the count positive where rounding makes τ equal max y (n below max y's last digit).
    is_row_max = Y == Y.max(axis=1, keepdims=True)
    active_count = np.full((Y.shape[0], 1), float(d))
    shift = (Y.sum(axis=1, keepdims=True) - total) / d
    settled = np.zeros(Y.shape[0], dtype=bool)
    for _ in range(_MICHELOT_MAX_ROUNDS):
        active = Y > shift
        active |= is_row_max
        new_count = active.sum(axis=1, keepdims=True).astype(float)
        settled = (new_count == active_count)[:, 0]
        if settled.all():
            return shift
        active_count = new_count
        shift = (np.sum(Y, axis=1, keepdims=True, where=active) - total) / new_count
    unsettled = ~settled
    shift[unsettled] = _simplex_shift_sorted(Y[unsettled], total)
    return shift


def _project_simplex_rows(Y: np.ndarray, total: float, *, by_sorting: bool = False) -> np.ndarray:
    if total == 0:
        return np.zeros_like(Y)
    shift = _simplex_shift_sorted(Y, total) if by_sorting else _simplex_shift_michelot(Y, total)
    return np.maximum(Y - shift, 0.0)


def _clip_and_rescale_rows(Y, total):
    clipped = np.clip(Y, 0.0, total)
    mass = clipped.sum(axis=1, keepdims=True)
    uniform = np.full_like(Y, total / Y.shape[1])
    # clipped/mass first, then times the total: total/mass overflows for a subnormal mass
    # (clip_and_rescale(5e-324, 3.0) is 3.0, issue 9 item 8), the fraction never exceeds 1.
    safe_mass = np.where(mass > 0, mass, 1.0)
    return np.where(mass > 0, (clipped / safe_mass) * total, uniform)


def _round_row(x: np.ndarray, total: int) -> np.ndarray:
    """Nearest integer vector (in l2) to ``x`` whose entries sum to ``total``.

    Start from ``floor(x)``; the k = total - Σ floor(x) missing units go, q = k // d to every
    coordinate and one more to the r = k mod d coordinates with the largest fractional parts.
    Adding a unit to coordinate i raises the squared error by ``2 (z_i - x_i) + 1``, so this
    greedy choice is optimal for the separable convex objective. Ties go to the lowest index.
    """
    floor = np.floor(x)
    fraction = x - floor
    d = x.size
    quotient, remainder = divmod(int(total - floor.sum()), d)
    result = floor + quotient
    if remainder:
        kth = d - remainder
        cutoff = np.partition(fraction, kth)[kth]
        bump = fraction > cutoff
        missing = remainder - int(bump.sum())
        bump[np.flatnonzero(fraction == cutoff)[:missing]] = True
        result[bump] += 1.0
    return result


def _round_rows(Y, total):
    totals = np.rint(Y.sum(axis=1)) if total is None else np.full(Y.shape[0], float(total))
    return np.stack([_round_row(row, row_total) for row, row_total in zip(Y, totals)])


def _pad_to_multiple(grids: np.ndarray, multiple: int) -> np.ndarray:
    """Zero-pad the last two axes up to a multiple of ``multiple``.

    The padded cells hold a known truth (0) observed without noise, so the padded problem is the
    same estimation problem with extra exact observations: the error on the original cells can
    only be what it is on the padded grid, and the transform stays exactly orthonormal.
    """
    height, width = grids.shape[-2:]
    pad_height = -height % multiple
    pad_width = -width % multiple
    if pad_height == 0 and pad_width == 0:
        return grids
    return np.pad(grids, [(0, 0)] * (grids.ndim - 2) + [(0, pad_height), (0, pad_width)])


def _import_pywt():
    try:
        import pywt
    except ImportError as error:  # pragma: no cover - exercised by monkeypatching sys.modules
        raise ImportError(
            "wavelet_soft_threshold needs PyWavelets, which gaussmech_core does not install by "
            "default (numpy + scipy only); install it with `pip install PyWavelets`"
        ) from error
    return pywt


def _wavelet_levels(shape, level):
    """Default ``floor(log2(min(h, w)))``; at most ``ceil(log2(max(h, w)))`` (beyond, only padding)."""
    largest = max(1, math.ceil(math.log2(max(shape)))) if max(shape) > 1 else 1
    if level is None:
        return max(1, int(math.floor(math.log2(min(shape))))) if min(shape) >= 2 else 1
    return require_integer(level, "level", minimum=1, maximum=largest)


def _wavelet_rows(
    grids: np.ndarray, sigma: np.ndarray, wavelet: str, level: int | None, threshold: ArrayLike | None = None
) -> np.ndarray:
    """Soft-threshold the detail coefficients of each grid in ``grids`` (shape (rows, h, w))."""
    pywt = _import_pywt()
    height, width = grids.shape[-2:]
    levels = _wavelet_levels((height, width), level)
    # The transform is linear and soft thresholding positively homogeneous (S_λ(cx) = c S_{λ/c}(x)):
    # grids with cells beyond 2**1000 are transformed in units of a power of 2 (exact), so that the
    # transform's sums cannot overflow where the result does not.
    top = np.max(np.abs(grids), axis=(-2, -1), keepdims=True)
    unit = np.where(top >= 2.0**1000, np.ldexp(1.0, np.frexp(top)[1] - 1), 1.0)
    padded = _pad_to_multiple(grids / unit, 2**levels)
    with warnings.catch_warnings():
        # PyWavelets warns that levels beyond dwt_max_level feel "boundary effects"; with
        # periodization the transform stays exactly orthonormal at every level (checked in the
        # tests), so the warning does not apply to this use.
        warnings.filterwarnings("ignore", message="Level value of", category=UserWarning)
        coefficients = pywt.wavedec2(padded, wavelet, mode="periodization", level=levels, axes=(-2, -1))
    if threshold is None:
        threshold = _universal_threshold(sigma, padded.shape[-2] * padded.shape[-1])
    threshold = np.asarray(threshold, dtype=float).reshape(-1, 1, 1) / unit
    thresholded = [coefficients[0]] + [
        tuple(_soft_threshold_rows(band, threshold) for band in details) for details in coefficients[1:]
    ]
    restored = pywt.waverec2(thresholded, wavelet, mode="periodization", axes=(-2, -1))
    with np.errstate(over="ignore"):  # inf only where a restored cell exceeds the largest double
        return restored[..., :height, :width] * unit


def _check_orthogonal_wavelet(wavelet: str) -> None:
    pywt = _import_pywt()
    if wavelet not in pywt.wavelist(kind="discrete"):
        raise ValueError(
            f"wavelet must be a discrete wavelet name known to PyWavelets such as 'haar' or 'db2', got wavelet={wavelet!r}"
        )
    if not pywt.Wavelet(wavelet).orthogonal:
        raise ValueError(
            f"wavelet must be orthogonal (haar, dbN, symN, coifN) so that the noise stays i.i.d. "
            f"N(0, σ²) in the wavelet domain, got wavelet={wavelet!r}"
        )


# --- public estimators -------------------------------------------------------------------------


def posterior_mean(y: ArrayLike, sigma: float, prior_variance: float, prior_mean: ArrayLike = 0.0) -> np.ndarray:
    """Posterior mean of θ given ``y = θ + N(0, σ² I)`` under the prior ``θ ~ N(m, w² I)``.

    Parameters
    ----------
    y : array_like
        The released vector (any shape; treated as one vector).
    sigma : float
        Noise standard deviation per coordinate, ``>= 0``.
    prior_variance : float
        Prior variance ``w² >= 0`` per coordinate.
    prior_mean : float or array_like, optional
        Prior mean ``m``: a number, or an array of the shape of ``y``.

    Returns
    -------
    numpy.ndarray
        ``m + w²/(w² + σ²) (y - m)``, the Bayes estimator for squared error.

    Notes
    -----
    Balle & Wang (2018), Theorem 10; docs/math.md section 8.1. Bayes risk ``d σ² w²/(w² + σ²)``
    (:func:`posterior_mean_bayes_risk`). With ``w² = σ² = 0`` the observation is exact and is
    returned unchanged.

    Examples
    --------
    >>> posterior_mean([2.0, -4.0], sigma=1.0, prior_variance=1.0)
    array([ 1., -2.])
    >>> posterior_mean([12.0, 8.0], sigma=2.0, prior_variance=4.0, prior_mean=10.0)
    array([11.,  9.])
    """
    values = _as_vector(y)
    noise = _as_scalar(sigma, "sigma")
    variance = _as_scalar(prior_variance, "prior_variance")
    mean = _center_array(prior_mean, values, "prior_mean")
    if isinstance(mean, str):
        raise TypeError(f"prior_mean must be a number or an array, got prior_mean={prior_mean!r}")
    result = _posterior_mean_rows(values.reshape(1, -1), noise, mean, variance)
    return result.reshape(values.shape)


def _risk_arrays(dim: ArrayLike, sigma: ArrayLike, prior_variance: ArrayLike, minimum: int) -> tuple[np.ndarray, ...]:
    """(d, σ, w²) of a Bayes risk, validated and broadcast (d whole in [minimum, 2**53])."""
    d = require_interval(whole_numbers(dim, "dim", minimum), "dim", float(minimum), float(MAX_DIMENSION))
    noise = require_interval(as_float_array(sigma, "sigma"), "sigma", 0.0, None)
    variance = require_interval(as_float_array(prior_variance, "prior_variance"), "prior_variance", 0.0, None)
    return broadcast(d, noise, variance)


def _harmonic_variance(noise: np.ndarray, variance: np.ndarray) -> np.ndarray:
    """``σ² w²/(w² + σ²) = 1/(1/σ² + 1/w²)`` (0 where σ or w² is 0): a sum of positives, finite
    for every finite σ and w² (it is at most min(σ², w²))."""
    with np.errstate(divide="ignore", over="ignore"):
        return 1.0 / ((1.0 / noise) ** 2 + 1.0 / variance)


def posterior_mean_bayes_risk(dim: ArrayLike, sigma: ArrayLike, prior_variance: ArrayLike) -> FloatOrArray:
    """Bayes risk ``E‖θ̂ - θ‖² = d σ² w²/(w² + σ²)`` of :func:`posterior_mean` (the oracle's error).

    Vectorized over its arguments; evaluated as ``d/(1/σ² + 1/w²)``, inf only where that exceeds
    the largest double (d up to 2**53).

    Notes
    -----
    Balle & Wang (2018), Theorem 10; docs/math.md section 8.1. ``0`` when ``w² + σ² = 0``.

    Examples
    --------
    >>> posterior_mean_bayes_risk(10, sigma=1.0, prior_variance=1.0)
    5.0
    """
    d, noise, variance = _risk_arrays(dim, sigma, prior_variance, 1)
    return scalar_or_array(d * _harmonic_variance(noise, variance), dim, sigma, prior_variance)


def oracle_prior(theta: ArrayLike, center: float | None = None) -> tuple[FloatOrArray, float]:
    """The Gaussian prior an oracle who knows θ would pick: ``(m, ‖θ - m‖²/d)``.

    With this prior, :func:`posterior_mean` is the best estimator of the form
    ``m + c (y - m)`` for the given θ (the squared error ``c²dσ² + (1-c)²‖θ-m‖²`` is minimised
    at ``c = w²/(w² + σ²)``). It is not a release: it looks at the truth, which is why the
    interface shows it as the oracle, a yardstick for the adaptive estimators.

    Parameters
    ----------
    theta : array_like
        The true vector.
    center : float, optional
        The prior mean m; defaults to the mean of θ (for a histogram, n/d, public when n is).

    Returns
    -------
    tuple of float
        ``(prior_mean, prior_variance)``; the variance is inf where ``‖θ - m‖²/d`` exceeds the
        largest double.

    Examples
    --------
    >>> oracle_prior([0.0, 2.0, 4.0])
    (2.0, 2.6666666666666665)
    """
    values = _as_vector(theta, "theta")
    top = float(np.max(np.abs(values)))
    scale = math.ldexp(1.0, math.frexp(top)[1] - 1) if top > 0 else 1.0  # a power of 2: exact
    # The mean as scale × mean(θ/scale), and the variance as m² mean((r/m)²): neither overflows
    # before the result does (the variance is inf only where ‖θ - m‖²/d exceeds the largest double).
    mean = scale * float(np.mean(values / scale)) if center is None else _as_scalar(center, "center", None)
    with np.errstate(over="ignore"):  # θ - m beyond the largest double: its square is inf too
        residual = values - mean
        top = float(np.max(np.abs(residual)))
        unit = math.ldexp(1.0, math.frexp(top)[1] - 1) if 0 < top < math.inf else 1.0  # a power of 2: exact
        variance = unit * (unit * float(np.mean((residual / unit) ** 2)))
    return mean, variance


def james_stein(y: ArrayLike, sigma: float, positive_part: bool = False, center: ArrayLike | str = 0.0) -> np.ndarray:
    """James–Stein shrinkage ``c + (1 - (d - 2) σ²/‖y - c‖²)(y - c)``, optionally its positive part.

    Parameters
    ----------
    y : array_like
        The released vector, ``d >= 3`` coordinates (``d >= 4`` with ``center="mean"``).
    sigma : float
        Noise standard deviation per coordinate, ``>= 0``.
    positive_part : bool, optional
        Clip the shrinkage factor at 0 (``θ_JS+``), which dominates plain James–Stein.
    center : float, array_like or "mean", optional
        The point shrunk towards; ``"mean"`` shrinks towards the mean of ``y`` (Lindley), with
        ``d - 3`` in place of ``d - 2``.

    Returns
    -------
    numpy.ndarray
        The shrunk vector. Plain James–Stein at a σ far above ``‖y - c‖`` moves ``y`` past the
        centre by ``(d - 2) σ²/‖y - c‖``, which may exceed the largest double: ``±inf`` there, its
        rounded value (the positive part never leaves the segment from ``c`` to ``y``).

    Raises
    ------
    ValueError
        When ``d < 3`` (``d < 4`` for ``center="mean"``): no shrinkage dominates ``y`` there.

    Notes
    -----
    Balle & Wang (2018), Theorem 11; docs/math.md section 8.2. For Gaussian noise and every θ the risk is
    ``d σ² - (d-2)² σ⁴ E[1/‖y - c‖²] < d σ²`` (the raw risk); under the prior ``N(c, w² I)`` the
    Bayes risk is ``(d σ² w² + 2 σ⁴)/(w² + σ²)`` (:func:`james_stein_bayes_risk`).

    Examples
    --------
    >>> james_stein([3.0, 4.0, 0.0], sigma=1.0)
    array([2.88, 3.84, 0.  ])
    >>> james_stein([0.3, 0.4, 0.0], sigma=1.0, positive_part=True)
    array([0., 0., 0.])
    """
    values = _as_vector(y)
    noise = _as_scalar(sigma, "sigma")
    anchor = _center_array(center, values)
    lindley = isinstance(anchor, str)
    _require_dimension(
        values.size, 4 if lindley else 3, "James–Stein shrinkage" + (" towards the mean" if lindley else "")
    )
    result = _shrink_rows(values.reshape(1, -1), noise, anchor, 3 if lindley else 2, bool(positive_part))
    return result.reshape(values.shape)


def james_stein_bayes_risk(dim: ArrayLike, sigma: ArrayLike, prior_variance: ArrayLike) -> FloatOrArray:
    """Bayes risk of plain James–Stein under ``θ ~ N(c, w² I)``: ``(d σ² w² + 2 σ⁴)/(w² + σ²)``.

    Vectorized; evaluated as ``d/(1/σ² + 1/w²) + 2σ²/(1 + w²/σ²)``, inf only where the risk
    exceeds the largest double (e.g. σ beyond 1e154).

    Notes
    -----
    docs/math.md section 8.2 [D]: averaging ``d σ² - (d-2)² σ⁴ E[1/‖y‖²]`` with ``‖y‖² ~ (w² + σ²) χ²_d``
    and ``E[1/χ²_d] = 1/(d - 2)``. It exceeds the optimal Bayes risk by ``2σ⁴/(w² + σ²)``.
    The positive part has a Bayes risk at most this (no closed form).

    Examples
    --------
    >>> james_stein_bayes_risk(10, sigma=1.0, prior_variance=1.0)
    6.0
    """
    d, noise, variance = _risk_arrays(dim, sigma, prior_variance, 3)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        share = 1.0 / (1.0 + (np.sqrt(variance) / noise) ** 2)  # σ²/(w² + σ²), written without σ²
        excess = np.where(noise > 0, 2.0 * noise**2 * share, 0.0)  # 2σ⁴/(w² + σ²); inf only beyond float64
    return scalar_or_array(d * _harmonic_variance(noise, variance) + excess, dim, sigma, prior_variance)


def empirical_bayes(y: ArrayLike, sigma: float, center: ArrayLike | str = 0.0) -> np.ndarray:
    """Empirical Bayes: the posterior mean with ``w²`` replaced by its maximum-likelihood estimate.

    Marginally ``y - c ~ N(0, (w² + σ²) I)``, so ``ŵ² = max(0, ‖y - c‖²/d - σ²)`` and the plug-in
    estimator is ``c + (1 - d σ²/‖y - c‖²)_+ (y - c)``: positive-part James–Stein with ``d`` in
    place of ``d - 2``.

    Parameters
    ----------
    y : array_like
        The released vector.
    sigma : float
        Noise standard deviation per coordinate.
    center : float, array_like or "mean", optional
        Prior mean; ``"mean"`` uses the mean of ``y`` (still with the factor ``d``, the joint MLE).

    Returns
    -------
    numpy.ndarray

    Notes
    -----
    Balle & Wang (2018), Sec. 4 and appendix A.3 (the χ²_d likelihood); docs/math.md section 8.3.

    Examples
    --------
    >>> empirical_bayes([3.0, 4.0], sigma=1.0)
    array([2.76, 3.68])
    """
    values = _as_vector(y)
    noise = _as_scalar(sigma, "sigma")
    anchor = _center_array(center, values)
    result = _shrink_rows(values.reshape(1, -1), noise, anchor, 0, True)
    return result.reshape(values.shape)


def universal_threshold(sigma: float, dim: int) -> float:
    """Donoho's universal threshold ``λ = σ √(2 ln d)`` (inf where that exceeds the largest double).

    Examples
    --------
    >>> round(universal_threshold(1.0, 100), 6)
    3.034854
    """
    return _universal_threshold(_as_scalar(sigma, "sigma"), require_integer(dim, "dim", minimum=1))


def soft_threshold(y: ArrayLike, sigma: float, threshold: float | None = None) -> np.ndarray:
    """Soft thresholding ``sign(y) max(|y| - λ, 0)`` with ``λ = σ √(2 ln d)`` by default.

    Parameters
    ----------
    y : array_like
        The released vector (``d = y.size``).
    sigma : float
        Noise standard deviation per coordinate.
    threshold : float, optional
        λ; defaults to the universal threshold :func:`universal_threshold`.

    Returns
    -------
    numpy.ndarray

    Notes
    -----
    Donoho (1995); Balle & Wang (2018), Theorem 12; docs/math.md section 8.4. For Gaussian noise the oracle
    inequality (Donoho & Johnstone 1994, Thm 1) holds for every θ:
    ``E‖θ̂ - θ‖² <= (2 ln d + 1)(σ² + Σ_i min(θ_i², σ²))``, so a sparse θ costs about
    ``s σ² log d`` instead of ``d σ²``.

    Examples
    --------
    >>> soft_threshold([5.0, -0.5, -4.0, 1.0], sigma=1.0, threshold=2.0)
    array([ 3.,  0., -2.,  0.])
    >>> soft_threshold([5.0, 1.0], sigma=0.0)
    array([5., 1.])
    """
    values = _as_vector(y)
    noise = _as_scalar(sigma, "sigma")
    if threshold is None:
        level = _universal_threshold(noise, values.size)
    else:
        level = _as_scalar(threshold, "threshold")
    return _soft_threshold_rows(values, level)


def wavelet_soft_threshold(
    grid: ArrayLike, sigma: float, wavelet: str = "haar", level: int | None = None, threshold: float | None = None
) -> np.ndarray:
    """Soft-threshold the detail coefficients of an orthonormal 2-D wavelet transform.

    Heat maps are rarely sparse cell by cell but are often sparse in a wavelet basis (flat
    regions have zero detail coefficients). An orthonormal transform maps i.i.d. ``N(0, σ²)``
    noise to i.i.d. ``N(0, σ²)`` noise, so the same universal threshold applies there. The
    coarse approximation coefficients carry the local averages and are kept as they are.

    Parameters
    ----------
    grid : array_like, shape (h, w)
        The released heat map.
    sigma : float
        Noise standard deviation per cell.
    wavelet : str, optional
        An orthogonal PyWavelets wavelet ('haar', 'db2', 'sym4', ...).
    level : int, optional
        Number of decomposition levels; default ``floor(log2(min(h, w)))`` (at least 1).
    threshold : float, optional
        λ; default ``σ √(2 ln N)`` with N the number of cells of the padded grid.

    Returns
    -------
    numpy.ndarray, shape (h, w)
        The estimate; a cell is inf only where it exceeds the largest double, which the
        transform's rounding (a few ulps) can make of a cell at the largest double itself.

    Raises
    ------
    ImportError
        When PyWavelets is not installed (it is optional for ``gaussmech_core``).

    Notes
    -----
    Balle & Wang (2018), Sec. 5.3 (graph wavelets on taxi data) and docs/math.md section 8.4. Periodized
    transforms on grids whose sides are multiples of ``2**level`` are exactly orthonormal; other
    grids are zero-padded up to such a size (the padded cells are exact zeros, so this is the
    same problem with a few noiseless extra observations) and cropped back.

    Examples
    --------
    >>> flat = np.full((4, 4), 7.0)
    >>> bool(np.allclose(wavelet_soft_threshold(flat, sigma=1.0), flat))
    True
    """
    values = _as_vector(grid, "grid")
    if values.ndim != 2:
        raise ValueError(f"grid must be a 2-D array (a heat map), got an array of shape {values.shape}")
    noise = _as_scalar(sigma, "sigma")
    _check_orthogonal_wavelet(wavelet)
    level_value = None if level is None else _wavelet_levels(values.shape, level)
    explicit = None if threshold is None else _as_scalar(threshold, "threshold")
    restored = _wavelet_rows(values[None], np.array([noise]), wavelet, level_value, explicit)
    return restored[0]


def project_nonnegative(y: ArrayLike) -> np.ndarray:
    """Euclidean projection onto ``{x >= 0}``: ``max(y, 0)``.

    Notes
    -----
    docs/math.md section 8.5. The truth lies in this convex set, so the projection never moves the estimate
    away from it: ``|max(y_i, 0) - θ_i| <= |y_i - θ_i|`` coordinate by coordinate.

    Examples
    --------
    >>> project_nonnegative([3.0, -1.0, 0.5])
    array([3. , 0. , 0.5])
    """
    return np.maximum(_as_vector(y), 0.0)


def project_to_simplex(y: ArrayLike, total: float) -> np.ndarray:
    """Exact Euclidean projection onto ``{x >= 0, Σ x = total}`` (the histograms with total n).

    Parameters
    ----------
    y : array_like
        The released vector (any shape).
    total : float
        The public total ``n >= 0``.

    Returns
    -------
    numpy.ndarray
        ``max(y - τ, 0)`` where τ solves ``Σ max(y_i - τ, 0) = n``.

    Notes
    -----
    Held, Wolfe & Crowder (1974); Duchi et al. (2008); docs/math.md section 8.5. τ is found by Michelot's
    exact active-set iteration (linear time per round) with the sort-based O(d log d)
    algorithm as the fallback. Since the truth lies in the set and the set is convex, the
    projection never increases the l2 error, and it is non-expansive.

    Examples
    --------
    >>> project_to_simplex([3.0, 1.0, -2.0], total=2.0)
    array([2., 0., 0.])
    >>> project_to_simplex([1.0, 1.0], total=4.0)
    array([2., 2.])
    """
    values = _as_vector(y)
    return _project_simplex_rows(values.reshape(1, -1), _as_total(total)).reshape(values.shape)


def clip_and_rescale(y: ArrayLike, total: float) -> np.ndarray:
    """Liu-style normalisation: clip to ``[0, n]``, then rescale multiplicatively to sum ``n``.

    Notes
    -----
    Liu (2019), experiments (Sec. 4 of the summary): sanitised counts clipped to [0, n] and
    normalised to the public n. It is not a projection and has no error guarantee
    (docs/math.md section 8.5); offered for comparison with Liu's results. When every clipped value is 0
    the released vector carries no mass to rescale and the uniform ``n/d`` is returned.

    Examples
    --------
    >>> clip_and_rescale([3.0, 1.0, -2.0], total=8.0)
    array([6., 2., 0.])
    >>> clip_and_rescale([-1.0, -2.0], total=4.0)
    array([2., 2.])
    """
    values = _as_vector(y)
    return _clip_and_rescale_rows(values.reshape(1, -1), _as_total(total)).reshape(values.shape)


def round_keeping_total(x: ArrayLike, total: int | None = None) -> np.ndarray:
    """The integer vector nearest to ``x`` (in l2) whose entries sum to ``total``.

    Parameters
    ----------
    x : array_like
        An estimate (any shape).
    total : int, optional
        The whole-number total to keep; default ``round(Σ x)``.

    Returns
    -------
    numpy.ndarray
        Whole numbers (as floats) summing to ``total``. When ``Σ x = total`` this is the
        largest-remainder method: every entry is ``floor(x_i)`` or ``floor(x_i) + 1``, so it is
        within 1 of ``x_i``, and it is non-negative when ``x`` is.

    Notes
    -----
    docs/math.md section 8.5: for integer truth, ``|round(x_i) - θ_i| <= 2 |x_i - θ_i|``.

    Examples
    --------
    >>> round_keeping_total([0.4, 0.4, 0.2], total=1)
    array([1., 0., 0.])
    >>> round_keeping_total([1.5, 2.5, 3.0])
    array([2., 2., 3.])
    """
    values = _as_vector(x, "x")
    if total is None:
        target = float(np.rint(values.sum()))
    else:
        target = float(require_integer(total, "total", minimum=0, maximum=_MAX_EXACT_INTEGER))
    return _round_rows(values.reshape(1, -1), target).reshape(values.shape)


# --- the registry and the pipeline -------------------------------------------------------------


@dataclass(frozen=True)
class Denoiser:
    """One post-processing step the interface can offer.

    ``function`` is the public estimator; ``apply_rows(Y, sigma, total, prior, shape)`` runs the
    same estimator on every row of a batch ``Y`` (rows = releases, ``sigma`` of shape
    (rows, 1)). ``requires`` names what the step needs: "total" (a public n), "prior" (a known
    prior, i.e. the oracle), "2d" (a heat map). ``theory`` says what is guaranteed.
    """

    id: str
    name: str
    description: str
    function: Callable
    apply_rows: Callable = field(repr=False)
    requires: frozenset = frozenset()
    min_bins: int = 1
    theory: str = ""


def _rows_none(Y, sigma, total, prior, shape):
    return Y


def _rows_posterior(Y, sigma, total, prior, shape):
    prior_mean, prior_variance = prior
    mean = np.asarray(prior_mean, dtype=float).reshape(-1) if np.ndim(prior_mean) else float(prior_mean)
    return _posterior_mean_rows(Y, sigma, mean, float(prior_variance))


def _rows_soft(Y, sigma, total, prior, shape):
    return _soft_threshold_rows(Y, _universal_threshold(sigma, Y.shape[1]))


def _rows_wavelet(Y, sigma, total, prior, shape):
    grids = Y.reshape((Y.shape[0],) + tuple(shape))
    return _wavelet_rows(grids, sigma[:, 0], "haar", None).reshape(Y.shape)


def _registry() -> dict[str, Denoiser]:
    entries = [
        Denoiser(
            "none",
            "No denoising",
            "The release as it is.",
            lambda y, sigma=None: _as_vector(y).copy(),
            _rows_none,
            theory="Error d σ² in expectation (Gaussian noise).",
        ),
        Denoiser(
            "posterior_mean",
            "Posterior mean (oracle prior)",
            "Bayes estimator under a known Gaussian prior; with the oracle prior (mean and spread of the "
            "true counts) it is the best linear shrinkage and serves as a yardstick, not a release.",
            posterior_mean,
            _rows_posterior,
            frozenset({"prior"}),
            theory="Bayes risk d σ² w²/(w² + σ²) (Balle & Wang, Thm 10).",
        ),
        Denoiser(
            "james_stein",
            "James–Stein",
            "Shrinks the whole vector towards 0 by 1 - (d-2)σ²/‖y‖²; needs no prior.",
            james_stein,
            lambda Y, s, t, p, shape: _shrink_rows(Y, s, 0.0, 2, False),
            min_bins=3,
            theory="Risk below d σ² for every θ when d ≥ 3 (Balle & Wang, Thm 11).",
        ),
        Denoiser(
            "james_stein_plus",
            "James–Stein, positive part",
            "James–Stein with the shrinkage factor clipped at 0; never worse than plain James–Stein.",
            lambda y, sigma: james_stein(y, sigma, positive_part=True),
            lambda Y, s, t, p, shape: _shrink_rows(Y, s, 0.0, 2, True),
            min_bins=3,
            theory="Dominates James–Stein, so its risk is below d σ² (d ≥ 3).",
        ),
        Denoiser(
            "james_stein_plus_mean",
            "James–Stein+, towards the mean (Lindley)",
            "Positive-part shrinkage towards the mean of the release instead of 0; suits dense histograms.",
            lambda y, sigma: james_stein(y, sigma, positive_part=True, center="mean"),
            lambda Y, s, t, p, shape: _shrink_rows(Y, s, "mean", 3, True),
            min_bins=4,
            theory="Risk below d σ² for every θ when d ≥ 4 (Lindley 1962).",
        ),
        Denoiser(
            "empirical_bayes",
            "Empirical Bayes",
            "Posterior mean with the prior variance estimated from the release (maximum likelihood).",
            empirical_bayes,
            lambda Y, s, t, p, shape: _shrink_rows(Y, s, 0.0, 0, True),
            theory="Close to the oracle Bayes risk for large d (Balle & Wang, Sec. 4).",
        ),
        Denoiser(
            "soft_threshold",
            "Soft thresholding",
            "Sets small values to 0 and pulls the others towards 0 by λ = σ√(2 ln d); suits sparse histograms.",
            soft_threshold,
            _rows_soft,
            theory="Error ≤ (2 ln d + 1)(σ² + Σ min(θᵢ², σ²)) (Donoho & Johnstone 1994; Balle & Wang, Thm 12).",
        ),
        Denoiser(
            "wavelet_soft_threshold",
            "Haar wavelet soft thresholding",
            "Soft thresholding of the heat map's Haar wavelet details; keeps flat regions flat.",
            wavelet_soft_threshold,
            _rows_wavelet,
            frozenset({"2d"}),
            theory="The oracle inequality of soft thresholding, in the wavelet basis (orthonormal).",
        ),
        Denoiser(
            "nonnegative",
            "Clip negatives to 0",
            "Projection onto non-negative counts.",
            project_nonnegative,
            lambda Y, s, t, p, shape: np.maximum(Y, 0.0),
            theory="Never increases the error of any count (the truth is ≥ 0).",
        ),
        Denoiser(
            "simplex",
            "Project onto counts with total n",
            "Closest vector with non-negative entries summing to the public total n.",
            project_to_simplex,
            lambda Y, s, t, p, shape: _project_simplex_rows(Y, t),
            frozenset({"total"}),
            theory="Never increases the l2 error (projection onto a convex set holding the truth).",
        ),
        Denoiser(
            "clip_rescale",
            "Clip and rescale (Liu)",
            "Clips to [0, n] and rescales to sum n, as in Liu's experiments.",
            clip_and_rescale,
            lambda Y, s, t, p, shape: _clip_and_rescale_rows(Y, t),
            frozenset({"total"}),
            theory="No guarantee: not a projection.",
        ),
        Denoiser(
            "round",
            "Round to whole counts",
            "Nearest whole numbers with the same total (the public n if known, else the rounded sum).",
            round_keeping_total,
            lambda Y, s, t, p, shape: _round_rows(Y, t),
            theory="Each count moves by less than 1; for whole-number truth the error at most doubles per count.",
        ),
    ]
    return {entry.id: entry for entry in entries}


DENOISERS: dict[str, Denoiser] = _registry()


def check_pipeline(
    steps: Sequence[str], shape: Sequence[int], total: float | None = None, prior: Prior | None = None
) -> tuple[str, ...]:
    """Validate a pipeline for data of ``shape``; return its steps as a tuple (without "none").

    Raises ``ValueError`` naming the step and what it lacks (a total, a prior, a 2-D grid, enough
    coordinates).
    """
    if isinstance(steps, str):
        steps = (steps,)
    checked = []
    size = int(np.prod(shape))
    for step in steps:
        require_choice(step, "denoiser", tuple(DENOISERS))
        denoiser = DENOISERS[step]
        if "total" in denoiser.requires and total is None:
            raise ValueError(f"the step '{step}' ({denoiser.name}) needs the public total n; pass total=")
        if "prior" in denoiser.requires and prior is None:
            raise ValueError(f"the step '{step}' ({denoiser.name}) needs a prior (mean, variance); pass prior=")
        if "2d" in denoiser.requires and len(shape) != 2:
            raise ValueError(f"the step '{step}' ({denoiser.name}) needs a 2-D grid, got data of shape {tuple(shape)}")
        if size < denoiser.min_bins:
            raise ValueError(f"the step '{step}' ({denoiser.name}) needs at least {denoiser.min_bins} bins, got {size}")
        if step != "none":
            checked.append(step)
    return tuple(checked)


def _check_prior(prior, shape):
    if prior is None:
        return None
    try:
        prior_mean, prior_variance = prior
    except (TypeError, ValueError) as error:
        raise TypeError(f"prior must be a pair (mean, variance), got prior={prior!r}") from error
    mean = require_interval(as_float_array(prior_mean, "prior mean"), "prior mean")
    if mean.ndim and mean.shape != tuple(shape):
        raise ValueError(f"the prior mean must be a number or have the data's shape {tuple(shape)}, got {mean.shape}")
    return (mean if mean.ndim else float(mean)), _as_scalar(prior_variance, "prior variance")


def _apply_rows(Y, steps, sigma_rows, total, prior, shape):
    for step in steps:
        Y = DENOISERS[step].apply_rows(Y, sigma_rows, total, prior, shape)
    return Y


def apply_pipeline(
    y: ArrayLike, steps: Sequence[str], sigma: float, total: float | None = None, prior: Prior | None = None
) -> np.ndarray:
    """Apply the denoisers ``steps`` (ids of :data:`DENOISERS`) in order.

    Parameters
    ----------
    y : array_like
        The release: a vector, or a 2-D grid for the wavelet step.
    steps : sequence of str
        Denoiser ids, e.g. ``("soft_threshold", "simplex", "round")``; empty or ``("none",)``
        returns a copy of ``y``.
    sigma : float
        Noise standard deviation per coordinate of the release.
    total : float, optional
        The public total n, for "simplex" and "clip_rescale" (and kept by "round").
    prior : tuple, optional
        ``(mean, variance)`` of the known prior, for "posterior_mean".

    Returns
    -------
    numpy.ndarray
        The estimate, of the shape of ``y``.

    Notes
    -----
    Post-processing of a DP release is DP (Balle & Wang 2018, Sec. 1), as long as ``total`` and
    ``prior`` are public; the oracle prior is not, and marks the result as a yardstick.

    Examples
    --------
    >>> apply_pipeline([6.0, -0.5, -4.0, 1.0], ["soft_threshold", "simplex", "round"], sigma=1.0, total=4.0)
    array([4., 0., 0., 0.])
    """
    values = _as_vector(y)
    noise = _as_scalar(sigma, "sigma")
    target = None if total is None else _as_total(total)
    checked_prior = _check_prior(prior, values.shape)
    checked = check_pipeline(steps, values.shape, target, checked_prior)
    if "round" in checked and target is not None:
        require_integer(target, "total", minimum=0, maximum=_MAX_EXACT_INTEGER)
    result = _apply_rows(
        values.reshape(1, -1).copy(), checked, np.array([[noise]]), target, checked_prior, values.shape
    )
    return result.reshape(values.shape)
