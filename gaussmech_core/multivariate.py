"""Multivariate mechanisms: R1SMG (Ji & Li 2024, a *claimed* guarantee) and the i.i.d. MVG.

**R1SMG** (Ji & Li, "Less is More", USENIX Security 2024, arXiv:2306.02256) releases
``f(x) + n`` with rank-1 noise ``n = sqrt(σ*) z v``: ``z ~ N(0, 1)`` and ``v`` a fresh uniformly
random unit vector of R^M, never published. The paper claims (ε, δ)-DP with
``σ* = 2 Δ²/(ε ψ)``, ``ψ = (δ Γ((M-1)/2) / (√π Γ(M/2)))^{2/(M-2)}`` (docs/math.md section 6.1).

.. warning::
   The R1SMG guarantee is **claimed, not proven**. Since ``v`` is uniform and secret, ``n`` is
   spherically symmetric with a half-normal radius, and the exact privacy loss of that noise
   (docs/math.md section 6.2) gives a true δ(ε) far above the claimed δ: at ε = 1, δ = 1e-5, Δ = 1 the
   true δ(1) is 9.0e-4 for M = 4 (90× the claim), 0.181 for M = 10, 0.971 for M = 100 and ≈ 1
   for M ≥ 1000. It fails for every M ≥ 4 once δ <= 1e-3 (it scales like sqrt(δ) at M = 4); at
   M = 3 it holds (true δ ≈ 0.17 δ), only because σ* is then astronomically large (4.9e10 at
   δ = 1e-5). Every R1SMG function
   here implements the paper *as published*; :func:`r1smg_true_delta` computes what that noise
   actually guarantees. Show both, and never make R1SMG a default.

**MVG** (Chanyaswad, Dytso, Poor & Mittal, CCS 2018, arXiv:1801.00823 / 1802.10077) in its
i.i.d. form for an m×n query: entries with variance ``s² = sqrt(mn)/K(ε, δ)`` (docs/math.md sections 7.1-7.3).

Also here: Ji & Li's stated lower-bound constants C_C, C_A, C_M, C_R (docs/math.md sections 6.1, 6.3, 6.4)
and the harmonic numbers the MVG condition needs.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from ._types import ArrayLike, FloatOrArray
from ._validation import (
    MAX_DIMENSION,
    MAX_SEED,
    as_float_array,
    broadcast,
    delta_array,
    epsilon_array,
    positive_array,
    require_integer,
    require_interval,
    scalar_or_array,
    whole_numbers,
)

__all__ = [
    "log_r1smg_psi",
    "r1smg_psi",
    "log_r1smg_sigma_star",
    "r1smg_sigma_star",
    "r1smg_sample",
    "r1smg_norm_tail",
    "r1smg_coordinate_pdf",
    "r1smg_coordinate_tail",
    "r1smg_privacy_loss",
    "r1smg_true_delta",
    "r1smg_true_delta_monte_carlo",
    "ji_li_constant_classical",
    "ji_li_constant_analytic",
    "ji_li_constant_mvg",
    "ji_li_constant_r1smg",
    "harmonic_number",
    "harmonic_number_half",
    "mvg_K",
    "mvg_iid_std",
    "mvg_iid_expected_loss",
]

# The most (draw, ε) evaluations r1smg_true_delta_monte_carlo makes: about 10 s of work.
_MC_MAX_EVALUATIONS = 10**8

CLAIM_LABEL = "claimed (Ji & Li 2024), not proven; see docs/math.md section 6.2"

LOG_PI = math.log(math.pi)
ZETA_HALF = -1.4603545088095868128894991525152980125  # ζ(1/2), mpmath.zeta(0.5) to 37 digits

# ----------------------------------------------------------------------------------------------
# Validation helpers
# ----------------------------------------------------------------------------------------------


def _r1smg_dim_array(dim: ArrayLike) -> np.ndarray:
    try:
        array = whole_numbers(dim, "dim", 3)
        return require_interval(array, "dim", 3.0, float(MAX_DIMENSION))
    except ValueError as error:
        raise ValueError(f"{error}; R1SMG needs dim >= 3 (ψ has the exponent 2/(dim - 2))") from None


def _r1smg_dim(dim: object) -> int:
    try:
        return require_integer(dim, "dim", minimum=3, maximum=MAX_DIMENSION)
    except ValueError as error:
        raise ValueError(f"{error}; R1SMG needs dim >= 3 (ψ has the exponent 2/(dim - 2))") from None


_positive = positive_array
_delta = delta_array


def _dimension_array(value: ArrayLike, name: str) -> np.ndarray:
    """A dimension or matrix side: whole numbers in [1, 2**53] (float64 holds them exactly)."""
    return require_interval(whole_numbers(value, name, 1), name, 1.0, float(MAX_DIMENSION))


def _epsilon(value: ArrayLike, *, positive: bool) -> np.ndarray:
    return epsilon_array(value, positive=positive, hint="the formula divides by ε" if positive else "")


def _nonnegative(value: ArrayLike, name: str) -> np.ndarray:
    return require_interval(as_float_array(value, name), name, 0.0, None, allow_infinity=True)


def _require_rng(rng: object) -> None:
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got rng={rng!r}")


def _scalar(array: np.ndarray, name: str) -> float:
    if array.ndim != 0:
        raise ValueError(f"{name} must be a scalar here, got an array of shape {array.shape}")
    return float(array)


# ----------------------------------------------------------------------------------------------
# Shared numerics
# ----------------------------------------------------------------------------------------------


def _log_gamma_half_ratio(x):
    """log Γ(x + 1/2) - log Γ(x) for x >= 1, accurate to a few ulp for every x.

    ``gammaln(x + 0.5) - gammaln(x)`` loses ~log10(x log x) digits to cancellation (5e-11
    relative at x = 5e5), which would put a 1e-10 error into c_M and ψ for large M. For
    x >= 25 we use the Stirling series of the ratio,
    ``½ ln x + Σ (-1)^{n+1} (2^{-n} - 2) B_{n+1} / (n (n+1) x^n)`` (odd n), whose first omitted
    term is below 1e-16 relative there.
    """
    x = np.asarray(x, dtype=np.float64)
    small = np.minimum(x, 25.0)
    direct = special.gammaln(small + 0.5) - special.gammaln(small)
    large = np.maximum(x, 25.0)
    inverse = 1.0 / large
    inverse_sq = inverse * inverse
    # -1/(8x) + 1/(192x³) - 1/(640x⁵) + 17/(14336x⁷) - 31/(18432x⁹), in Horner form
    coefficients = (-1.0 / 8.0, 1.0 / 192.0, -1.0 / 640.0, 17.0 / 14336.0, -31.0 / 18432.0)
    correction = np.zeros_like(large)
    for coefficient in reversed(coefficients):
        correction = coefficient + inverse_sq * correction
    series = 0.5 * np.log(large) + inverse * correction
    return np.where(x < 25.0, direct, series)


def _log_sphere_density_constant(dim):
    """log c_M with c_M = Γ(M/2) / (√π Γ((M-1)/2)): t = <v, e₁> has density c_M (1 - t²)^((M-3)/2)."""
    return _log_gamma_half_ratio(0.5 * (np.asarray(dim, dtype=np.float64) - 1.0)) - 0.5 * LOG_PI


# Gauss–Kronrod 7/15 nodes and weights on [-1, 1] (QUADPACK's qk15).
_XGK = np.array(
    [
        0.991455371120812639206854697526329,
        0.949107912342758524526189684047851,
        0.864864423359769072789712788640926,
        0.741531185599394439863864773280788,
        0.586087235467691130294144845693013,
        0.405845151377397166906606412076961,
        0.207784955007898467600689403773245,
        0.000000000000000000000000000000000,
    ]
)
_WGK = np.array(
    [
        0.022935322010529224963732008058970,
        0.063092092629978553290700663189204,
        0.104790010322250183839876322541518,
        0.140653259715525918745189590510238,
        0.169004726639267902826583426598550,
        0.190350578064785409913256402421014,
        0.204432940075298892414161999234649,
        0.209482141084727828012999174891714,
    ]
)
_WG = np.array(
    [
        0.129484966168869693270611432679082,
        0.279705391489276667901467771423780,
        0.381830050505118944950369775488975,
        0.417959183673469387755102040816327,
    ]
)
_KRONROD_NODES = np.concatenate([-_XGK[:-1], _XGK[::-1]])
_KRONROD_WEIGHTS = np.concatenate([_WGK[:-1], _WGK[::-1]])
_GAUSS_WEIGHTS = np.zeros(15)
_GAUSS_WEIGHTS[[1, 3, 5, 7, 9, 11, 13]] = np.concatenate([_WG[:-1], _WG[::-1]])


def _adaptive_gauss_kronrod(
    integrand, lower, upper, owner, n_owners, *, rtol, atol=1e-300, max_rounds=40, max_intervals=400_000
):
    """Integrate many 1-D integrals at once by globally adaptive Gauss–Kronrod (7/15) bisection.

    ``integrand(nodes, owner)`` evaluates the integrand at ``nodes`` (shape (N, 15)) for the
    integrals ``owner`` (shape (N,)). The starting intervals ``[lower, upper]`` belong to
    integral ``owner``; several intervals may share an owner. Each round evaluates every
    pending interval; one whose error estimate |K15 - G7| is below its share of
    ``max(atol, rtol |estimate|)`` is accepted, the others are bisected. Returns the integrals and
    the sum of the error estimates of the accepted intervals, which for smooth integrands
    overstates the error of the Kronrod sums by orders of magnitude.

    Vectorized by hand because ``scipy.integrate.quad`` handles one integral per call and
    ``quad_vec`` one interval partition for all components; here every integral has its own
    breakpoints.
    """
    values = np.zeros(n_owners)
    errors = np.zeros(n_owners)
    lower, upper, owner = (np.asarray(a) for a in (lower, upper, owner))
    keep = upper > lower
    lower, upper, owner = lower[keep], upper[keep], owner[keep]
    for round_number in range(max_rounds):
        if lower.size == 0:
            break
        half = 0.5 * (upper - lower)
        middle = 0.5 * (upper + lower)
        nodes = middle[:, None] + half[:, None] * _KRONROD_NODES
        samples = integrand(nodes, owner)
        kronrod = half * (samples @ _KRONROD_WEIGHTS)
        gauss = half * (samples @ _GAUSS_WEIGHTS)
        error = np.abs(kronrod - gauss)
        estimate = values + np.bincount(owner, kronrod, minlength=n_owners)
        tolerance = np.maximum(atol, rtol * np.abs(estimate))
        pending = np.bincount(owner, minlength=n_owners)
        last = round_number == max_rounds - 1 or 2 * lower.size > max_intervals
        accept = (error <= tolerance[owner] / (4.0 * pending[owner])) | last
        values += np.bincount(owner[accept], kronrod[accept], minlength=n_owners)
        errors += np.bincount(owner[accept], error[accept], minlength=n_owners)
        split = ~accept
        lower = np.concatenate([lower[split], middle[split]])
        upper = np.concatenate([middle[split], upper[split]])
        owner = np.concatenate([owner[split], owner[split]])
    return values, errors


def _bisect(function, low, high, target, iterations=110):
    """Vectorized bisection for ``function(u) = target`` with a sign change on [low, high].

    110 halvings shrink any bracket used here (width < 2e3) below one ulp; a fixed count keeps
    the arrays in lockstep and cannot hang.
    """
    low = np.array(low, dtype=np.float64)
    high = np.array(high, dtype=np.float64)
    sign_low = np.sign(function(low) - target)
    for _ in range(iterations):
        middle = 0.5 * (low + high)
        same = np.sign(function(middle) - target) == sign_low
        low = np.where(same, middle, low)
        high = np.where(same, high, middle)
    return 0.5 * (low + high)


# ----------------------------------------------------------------------------------------------
# R1SMG as published (docs/math.md section 6.1): a claimed guarantee
# ----------------------------------------------------------------------------------------------


def log_r1smg_psi(delta: ArrayLike, dim: ArrayLike) -> FloatOrArray:
    """log ψ of Ji & Li's R1SMG, in log space so that it is exact for δ down to 1e-300.

    Parameters
    ----------
    delta : float or array_like
        The claimed δ, in (0, 1).
    dim : int or array_like of int
        Query dimension M >= 3.

    Returns
    -------
    float or numpy.ndarray
        ``log ψ = (2/(M-2)) (ln δ + ln Γ((M-1)/2) - ½ ln π - ln Γ(M/2))``.

    Raises
    ------
    ValueError
        If δ is outside (0, 1) or M < 3 or not whole.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    Ji & Li 2024, abstract (docs/math.md section 6.1, "stable computation"). The guarantee built on ψ is
    claimed, not proven (docs/math.md section 6.2); see :func:`r1smg_true_delta`. The Γ ratio is evaluated
    with a Stirling series for large M (see ``_log_gamma_half_ratio``).

    Examples
    --------
    >>> round(log_r1smg_psi(1e-300, 3), 3)   # ψ = (2δ/π)² underflows: e^-1382.5
    -1382.454
    """
    delta_array = _delta(delta)
    dim_array = _r1smg_dim_array(dim)
    d, m = broadcast(delta_array, dim_array)
    log_psi = (2.0 / (m - 2.0)) * (np.log(d) - 0.5 * LOG_PI - _log_gamma_half_ratio(0.5 * (m - 1.0)))
    return scalar_or_array(log_psi, delta, dim)


def r1smg_psi(delta: ArrayLike, dim: ArrayLike) -> FloatOrArray:
    """Ji & Li's ψ = (δ Γ((M-1)/2) / (√π Γ(M/2)))^{2/(M-2)} (claimed guarantee).

    Parameters
    ----------
    delta : float or array_like
        The claimed δ, in (0, 1).
    dim : int or array_like of int
        Query dimension M >= 3.

    Returns
    -------
    float or numpy.ndarray
        ψ; it underflows to 0.0 below 5e-324 (e.g. M = 3, δ = 1e-300), use :func:`log_r1smg_psi`.

    Raises
    ------
    ValueError
        If δ is outside (0, 1) or M < 3 or not whole.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    Ji & Li 2024 (docs/math.md section 6.1). The R1SMG guarantee is **claimed, not proven**: docs/math.md section 6.2
    computes a true δ far above the claim for M >= 4 (see :func:`r1smg_true_delta`).

    Examples
    --------
    >>> [f"{r1smg_psi(1e-5, m):.3g}" for m in (3, 10, 100, 1000)]   # docs/math.md section 6.1 table
    ['4.05e-11', '0.0407', '0.751', '0.97']
    """
    return scalar_or_array(np.exp(np.asarray(log_r1smg_psi(delta, dim))), delta, dim)


def log_r1smg_sigma_star(epsilon: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike, dim: ArrayLike) -> FloatOrArray:
    """log σ* of R1SMG, ``log(2 Δ² / (ε ψ))``: finite even where σ* overflows float64.

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    delta : float or array_like
        The claimed δ, in (0, 1).
    sensitivity : float or array_like
        l2 sensitivity Δ₂ > 0.
    dim : int or array_like of int
        M >= 3.

    Returns
    -------
    float or numpy.ndarray

    Raises
    ------
    ValueError
        If ε <= 0, δ outside (0, 1), Δ <= 0, or M < 3.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    Ji & Li 2024 (docs/math.md section 6.1), claimed guarantee; see :func:`r1smg_sigma_star`.

    Examples
    --------
    >>> round(log_r1smg_sigma_star(1.0, 1e-300, 1.0, 3), 2)   # σ* = e^1383.15 > 1.8e308
    1383.15
    """
    epsilon_array = _epsilon(epsilon, positive=True)
    delta_array = _delta(delta)
    sensitivity_array = _positive(sensitivity, "sensitivity")
    dim_array = _r1smg_dim_array(dim)
    e, d, s, m = broadcast(epsilon_array, delta_array, sensitivity_array, dim_array)
    log_psi = np.asarray(log_r1smg_psi(d, m))
    log_sigma = math.log(2.0) + 2.0 * np.log(s) - np.log(e) - log_psi
    return scalar_or_array(log_sigma, epsilon, delta, sensitivity, dim)


def r1smg_sigma_star(epsilon: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike, dim: ArrayLike) -> FloatOrArray:
    """R1SMG's noise variance σ* = C_R Δ² = 2 Δ² / (ε ψ), as published (a **claimed** guarantee).

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    delta : float or array_like
        The claimed δ, in (0, 1).
    sensitivity : float or array_like
        l2 sensitivity Δ₂ > 0.
    dim : int or array_like of int
        Query dimension M >= 3.

    Returns
    -------
    float or numpy.ndarray
        σ* = E‖n‖² (the variance along the random direction). Values beyond float64 are
        ``inf``; :func:`log_r1smg_sigma_star` gives their logarithm.

    Raises
    ------
    ValueError
        If ε <= 0, δ outside (0, 1), Δ <= 0, or M < 3.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    Ji & Li 2024 (docs/math.md section 6.1). **Claimed, not proven**: with this σ* the true δ(ε) of the noise
    is far above the claimed δ for M >= 4 (docs/math.md section 6.2, :func:`r1smg_true_delta`).

    Examples
    --------
    >>> [f"{r1smg_sigma_star(1.0, 1e-5, 1.0, m):.3g}" for m in (3, 10, 100, 1000)]   # docs/math.md section 6.1
    ['4.93e+10', '49.2', '2.66', '2.06']
    """
    log_sigma = np.asarray(log_r1smg_sigma_star(epsilon, delta, sensitivity, dim))
    with np.errstate(over="ignore"):  # beyond 1.8e308 the variance is inf, which is the answer
        sigma = np.exp(log_sigma)
    return scalar_or_array(sigma, epsilon, delta, sensitivity, dim)


def r1smg_sample(rng: np.random.Generator, size: int, sigma_star: float, dim: int) -> np.ndarray:
    """Draw R1SMG noise vectors: ``n = sqrt(σ*) z v`` with a fresh direction per vector.

    Parameters
    ----------
    rng : numpy.random.Generator
        Source of randomness.
    size : int
        Number of noise vectors (releases), >= 0.
    sigma_star : float
        σ* > 0, finite.
    dim : int
        M >= 3.

    Returns
    -------
    numpy.ndarray
        Shape (size, dim). Row i is ``sqrt(σ*) z_i g_i / ‖g_i‖`` with ``g_i ~ N(0, I_M)`` and
        ``z_i ~ N(0, 1)``: rank 1, parallel to a uniformly random unit vector.

    Raises
    ------
    ValueError
        If size < 0, σ* <= 0 or not finite, or M < 3.
    TypeError
        If ``rng`` is not a Generator or an argument is not numeric.

    Notes
    -----
    Ji & Li 2024 (docs/math.md section 6.1, "Sampling"); the guarantee is **claimed, not proven**
    (docs/math.md section 6.2). The output array is filled in blocks of about 4 million entries, so the memory
    beyond the result is small even for M = 1e6. A floating-point sampler for plots and
    simulations, not a side-channel-hardened one.

    Examples
    --------
    >>> noise = r1smg_sample(np.random.default_rng(0), 4, 2.0, 5)
    >>> noise.shape, int(np.linalg.matrix_rank(noise[:1]))
    ((4, 5), 1)
    """
    _require_rng(rng)
    size = require_integer(size, "size", minimum=0)
    sigma = _scalar(_positive(sigma_star, "sigma_star"), "sigma_star")
    dim = _r1smg_dim(dim)
    out = np.empty((size, dim))
    rows_per_block = max(1, (1 << 22) // dim)
    root_sigma = math.sqrt(sigma)
    for start in range(0, size, rows_per_block):
        block = out[start : start + rows_per_block]
        rng.standard_normal(out=block)
        norms = np.sqrt(np.einsum("ij,ij->i", block, block))
        radius = root_sigma * rng.standard_normal(block.shape[0])
        block *= (radius / norms)[:, None]
    return out


def r1smg_norm_tail(t: ArrayLike, sigma_star: ArrayLike) -> FloatOrArray:
    """P(‖n‖₂ > t) for R1SMG noise: ``erfc(t / sqrt(2 σ*))`` (‖n‖ = sqrt(σ*) |z|).

    Parameters
    ----------
    t : float or array_like
        Threshold t >= 0 (``inf`` allowed).
    sigma_star : float or array_like
        σ* > 0 (``inf`` allowed).

    Returns
    -------
    float or numpy.ndarray

    Raises
    ------
    ValueError
        If t < 0 or σ* <= 0, or a value is NaN.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    docs/math.md section 6.1 ("Tail") and 10. Independent of M: only the direction is random. The R1SMG
    guarantee is claimed, not proven (docs/math.md section 6.2).

    Examples
    --------
    >>> round(r1smg_norm_tail(1.96, 1.0), 4)
    0.05
    """
    t_array = _nonnegative(t, "t")
    sigma_array = require_interval(
        as_float_array(sigma_star, "sigma_star"), "sigma_star", 0.0, None, lower_open=True, allow_infinity=True
    )
    x, s = broadcast(t_array, sigma_array)
    with np.errstate(invalid="ignore"):  # inf/inf: resolved just below
        ratio = x / (math.sqrt(2.0) * np.sqrt(s))
    ratio = np.where(np.isinf(x) & np.isinf(s), np.inf, ratio)  # t = inf is beyond any σ*: tail 0
    return scalar_or_array(special.erfc(ratio), t, sigma_star)


def _coordinate_integral(x_over_s, dim, kind):
    """E over t = <v, e₁> of the tail or density of s z t at x, by adaptive quadrature.

    With t = sin ν (ν in (0, π/2), density 2 c_M cos^{M-2} ν dν for |t|) and
    ν = (π/2) expit(y), the integrand is smooth in y on the real line and log-graded at both
    ends of (0, π/2), where its features sit: the Gaussian cut-off near ν ≈ x/s, the cut-off of
    cos^{M-2} ν near 1/√M, and, for large x, a peak near ν = π/2 of width s/x (small M) or near
    ν* = sqrt(x/(s√M)) (large M).
    """
    # Beyond x/s = 48 both the density (<= φ(x/s)/s) and the tail (<= erfc(x/(s√2))) are below
    # 5e-324 for every s >= sqrt(5e-324): clamping there keeps 4x/s and 1/x finite at 1.8e308.
    values = np.minimum(np.asarray(x_over_s, dtype=np.float64).ravel(), 1e300)
    n = values.size
    log_c = float(_log_sphere_density_constant(dim))
    half_pi = 0.5 * math.pi

    def to_y(nu):
        nu = np.clip(nu, 1e-300, half_pi * (1.0 - 1e-16))
        return np.log(nu) - np.log(half_pi - nu)

    ratio = np.maximum(values, 1e-300)
    nu_gauss = ratio / 40.0  # below it erfc/φ of x/(s ν) is < 1e-340
    nu_sphere = math.sqrt(1500.0 / max(dim - 2.0, 1e-300))  # above it cos^{M-2} ν < e^-750
    y_low = to_y(nu_gauss)
    y_high = np.full(n, to_y(min(nu_sphere, half_pi)) if nu_sphere < half_pi else 40.0)
    features = [
        to_y(ratio),
        to_y(4.0 * ratio),
        np.full(n, to_y(min(1.0 / math.sqrt(max(dim - 2.0, 1.0)), 1.0))),
        to_y(np.sqrt(ratio / math.sqrt(max(dim - 2.0, 1.0)))),
        to_y(half_pi - 1.0 / np.maximum(ratio, 1e-300)),
        to_y(half_pi - 0.1 / np.maximum(ratio, 1e-300)),
    ]
    points = np.sort(np.clip(np.stack([y_low, y_high] + features), y_low, y_high), axis=0)
    lower = points[:-1].ravel()
    upper = points[1:].ravel()
    owner = np.tile(np.arange(n), points.shape[0] - 1)

    def integrand(y, who):
        x = ratio[who][:, None]
        nu = half_pi * special.expit(y)
        sin_nu = np.sin(nu)
        jacobian = nu * special.expit(-y)  # dν/dy
        # cos^{M-2} ν via log1p(-2 sin²(ν/2)): a plain power would multiply rounding by M.
        sin_half = np.sin(0.5 * nu)
        log_cos = np.log1p(-2.0 * sin_half * sin_half)
        near_end = nu > 1.0  # there cos ν = sin(π/2 - ν) is the accurate form
        log_cos = np.where(near_end, np.log(np.sin(half_pi * special.expit(-np.where(near_end, y, 0.0)))), log_cos)
        weight = 2.0 * np.exp(log_c + (dim - 2.0) * log_cos) * jacobian
        scaled = np.minimum(x / sin_nu, 1e150)
        if kind == "tail":
            return weight * special.erfc(scaled / math.sqrt(2.0))
        return weight * np.exp(-0.5 * scaled * scaled) / (math.sqrt(2.0 * math.pi) * sin_nu)

    result, _ = _adaptive_gauss_kronrod(integrand, lower, upper, owner, n, rtol=1e-11)
    return result


def r1smg_coordinate_pdf(x: ArrayLike, sigma_star: float, dim: int) -> FloatOrArray:
    """Density of one coordinate n_i = sqrt(σ*) z v_i of R1SMG noise.

    Parameters
    ----------
    x : float or array_like
        Points (any real; the density is symmetric).
    sigma_star : float
        σ* > 0, finite.
    dim : int
        M >= 3.

    Returns
    -------
    float or numpy.ndarray
        ``p(x) = 2 ∫₀¹ c_M (1-t²)^{(M-3)/2} φ(x/(s t)) / (s t) dt`` with s = sqrt(σ*);
        ``inf`` at x = 0 (a logarithmic singularity: v_i is often near 0).

    Raises
    ------
    ValueError
        If σ* <= 0 or not finite, M < 3, or x is NaN or infinite.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    docs/math.md section 6.1 (sampling) with t = v_i, whose density is ``c_M (1-t²)^{(M-3)/2}`` on [-1, 1]
    (docs/math.md section 6.1, "Valid range"). Evaluated by adaptive Gauss–Kronrod quadrature in
    ν = arcsin t on a logistic scale, relative tolerance 1e-11. The R1SMG guarantee is claimed,
    not proven (docs/math.md section 6.2).

    Examples
    --------
    >>> round(r1smg_coordinate_pdf(0.5, 1.0, 3), 6)   # M = 3: v_i ~ U(-1, 1), p = E₁(1/8)/(2√(2π))
    0.323827
    """
    x_array = require_interval(as_float_array(x, "x"), "x")
    sigma = _scalar(_positive(sigma_star, "sigma_star"), "sigma_star")
    dim = _r1smg_dim(dim)
    root_sigma = math.sqrt(sigma)
    magnitude = np.abs(x_array).ravel() / root_sigma
    density = np.full(magnitude.shape, np.inf)
    positive = magnitude > 0
    if np.any(positive):
        density[positive] = _coordinate_integral(magnitude[positive], dim, "pdf") / root_sigma
    return scalar_or_array(density.reshape(x_array.shape), x)


def r1smg_coordinate_tail(t: ArrayLike, sigma_star: float, dim: int) -> FloatOrArray:
    """P(|n_i| > t) for one coordinate of R1SMG noise.

    Parameters
    ----------
    t : float or array_like
        Threshold t >= 0 (``inf`` allowed).
    sigma_star : float
        σ* > 0, finite.
    dim : int
        M >= 3.

    Returns
    -------
    float or numpy.ndarray
        ``E_t[erfc(t/(sqrt(2 σ*) |v_i|))]``; it underflows to 0 below 1e-308.

    Raises
    ------
    ValueError
        If t < 0, σ* <= 0 or not finite, or M < 3.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    As :func:`r1smg_coordinate_pdf` (docs/math.md section 6.1; the coordinates are not independent, so the
    vector tail is :func:`r1smg_norm_tail`, docs/math.md section 10). Claimed guarantee (docs/math.md section 6.2).

    Examples
    --------
    >>> round(r1smg_coordinate_tail(0.0, 1.0, 10), 12)
    1.0
    >>> round(r1smg_coordinate_tail(1.0, 1.0, 3), 6)   # M = 3: E_U[erfc(1/(√2 U))], U ~ U(0, 1)
    0.093993
    """
    t_array = _nonnegative(t, "t")
    sigma = _scalar(_positive(sigma_star, "sigma_star"), "sigma_star")
    dim = _r1smg_dim(dim)
    magnitude = t_array.ravel() / math.sqrt(sigma)
    tail = np.where(np.isinf(magnitude), 0.0, 1.0)
    inside = (magnitude > 0) & np.isfinite(magnitude)
    if np.any(inside):
        tail[inside] = np.minimum(_coordinate_integral(magnitude[inside], dim, "tail"), 1.0)
    return scalar_or_array(tail.reshape(t_array.shape), t)


# ----------------------------------------------------------------------------------------------
# The true privacy profile of R1SMG noise (docs/math.md section 6.2)
# ----------------------------------------------------------------------------------------------


def r1smg_privacy_loss(
    z: ArrayLike, t: ArrayLike, sigma_star: ArrayLike, sensitivity: ArrayLike, dim: int
) -> FloatOrArray:
    """Exact privacy loss L of R1SMG noise at (z, t), for a difference of norm Δ.

    Parameters
    ----------
    z : float or array_like
        The standard normal factor of the noise, n = sqrt(σ*) z v (non-zero).
    t : float or array_like
        ``<v, d/Δ>`` in [-1, 1], where ``d = f(x) - f(x')``.
    sigma_star : float or array_like
        σ* > 0.
    sensitivity : float or array_like
        Δ = ‖d‖₂ > 0.
    dim : int
        M >= 3.

    Returns
    -------
    float or numpy.ndarray
        ``L = ((M-1)/2) ln(r₂²/r₁²) + (r₂² - r₁²)/(2σ*)`` with ``r₁² = σ* z²`` and
        ``r₂² = σ* z² + 2 sqrt(σ*) z Δ t + Δ²`` (``+inf`` where z = 0, ``-inf`` where r₂ = 0).

    Raises
    ------
    ValueError
        If |t| > 1, σ* <= 0, Δ <= 0, M < 3, or a value is NaN or infinite.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    docs/math.md section 6.2, item 2: v is uniform and secret, so n has the spherically symmetric density
    ``2 φ(r/sqrt(σ*)) / (sqrt(σ*) A_M r^{M-1})``; L is the log ratio of that density at n and at
    n + d. In units of σ* (a = Δ/sqrt(σ*)), ``L = g(q) - g(z²)`` with ``g(w) = ((M-1)/2) ln w + w/2``
    and ``q = (z + a t)² + a² (1 - t²)``, which is how it is evaluated (no cancellation in q).

    Examples
    --------
    >>> round(r1smg_privacy_loss(1.0, 0.0, 1.0, 1.0, 3), 6)   # ln 2 + 1/2
    1.193147
    """
    z_array = require_interval(as_float_array(z, "z"), "z")
    t_array = require_interval(as_float_array(t, "t"), "t", -1.0, 1.0)
    sigma_array = _positive(sigma_star, "sigma_star")
    sensitivity_array = _positive(sensitivity, "sensitivity")
    dim = _r1smg_dim(dim)
    zz, tt, s, d = broadcast(z_array, t_array, sigma_array, sensitivity_array)
    loss = _privacy_loss_units(zz, tt, d / np.sqrt(s), dim - 1.0)
    return scalar_or_array(loss, z, t, sigma_star, sensitivity)


def _privacy_loss_units(z, t, a, k):
    """L = (k/2) ln(q/z²) + (q - z²)/2 with q = (z + a t)² + a²(1 - t²), a = Δ/sqrt(σ*), k = M - 1.

    Evaluated without forming q or z², which overflow long before L does: with ρ = a/z where
    |z| >= a and ρ = z/a where |z| < a (so |ρ| <= 1), ``q/z² = (a/z)^{2[|z| < a]} (1 + ρ(2t + ρ))``,
    so ``ln(q/z²) = 2 ln₊(a/|z|) + log1p(ρ(2t + ρ))``, and ``(q - z²)/2 = a (z t + a/2)``.
    L is ±inf only where its value is beyond the largest double, or at z = 0 (+inf) and q = 0 (-inf).
    """
    magnitude = np.abs(z)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        rho = np.where(magnitude >= a, a / z, z / a)
        log_one_plus_x = np.log1p(rho * (2.0 * t + rho))
        log_ratio = 2.0 * np.maximum(np.log(a) - np.log(magnitude), 0.0) + log_one_plus_x
        loss = 0.5 * k * log_ratio + a * (z * t + 0.5 * a)
    loss = np.where(np.isneginf(log_one_plus_x), -np.inf, loss)  # q = 0: n + d at the origin
    return np.where(magnitude == 0.0, np.inf, loss)


def _loss_level_crossing(u, log_a, a, k, level):
    """Where L(z, t) = level along t, for z = e^u (docs/math.md section 6.2 geometry; derivation below).

    L is strictly increasing in t for z > 0. Normalise by c = a when z <= a (ρ = z/a) and by
    c = z when z > a (ρ = a/z), so that ρ <= 1 and ``q = c² (1 + x)`` with ``x = 2ρt + ρ²``.
    Then L = level becomes ``(k/2) log1p(x) + (c²/2) x = C`` with C = level - k(ln a - u) -
    (a² - z²)/2 (z <= a) or C = level (z > a), solved by the Wright omega function
    (``w + ln w = s`` for w = c²(1+x)/k) and polished by Newton steps on the log1p form when
    |x| < 1/2, where recovering x from 1 + x would cancel.

    Returns ``(x_star, log_one_plus_x, rho, log_c)``; the crossing is t* = (x* - ρ²)/(2ρ).
    """
    z = np.exp(u)
    below = u <= log_a
    log_c = np.where(below, log_a, u)
    c_sq = np.exp(2.0 * log_c)
    rho = np.exp(-np.abs(u - log_a))
    constant = np.where(below, level - k * (log_a - u) - 0.5 * (a * a - z * z), level)
    s = 2.0 * constant / k + c_sq / k + 2.0 * log_c - math.log(k)
    log_y = s - special.wrightomega(s) - 2.0 * log_c + math.log(k)
    log_y = np.minimum(log_y, 700.0)  # x > e^700 means t* > 1 by far: the exact value is moot
    x = np.expm1(log_y)
    near = np.abs(x) < 0.5
    if np.any(near):
        xn = np.where(near, x, 0.0)
        cn = np.where(near, constant, 0.0)
        c_near = np.where(near, c_sq, 1.0)
        for _ in range(6):  # quadratic convergence: from 1e-13 to below 1e-300 relative in 5 steps
            residual = 0.5 * k * np.log1p(xn) + 0.5 * c_near * xn - cn
            xn = xn - residual / (0.5 * k / (1.0 + xn) + 0.5 * c_near)
        x = np.where(near, xn, x)
        log_y = np.where(near, np.log1p(np.where(near, x, 0.0)), log_y)
    return x, log_y, rho, log_c


def _clipped_crossing(x, rho):
    """clip(t*, -1, 1) with t* = (x - ρ²)/(2ρ), computed without overflow."""
    numerator = x - rho * rho
    denominator = 2.0 * rho
    inside = np.abs(numerator) <= denominator
    out = np.sign(numerator)
    np.divide(numerator, denominator, out=out, where=inside)
    return out


_INNER_NODES, _INNER_WEIGHTS = np.polynomial.legendre.leggauss(12)
_LAYER_LEVELS = (0.25, 1.0, 4.0, 16.0)


def _inner_integral(u, epsilon, log_a, a, k, log_c_m):
    """I(z) = E_t[(1 - e^{ε - L(z,t)})_+] for z = e^u, by composite Gauss–Legendre in φ = -arcsin t.

    In φ (t = -sin φ, φ in [-π/2, π/2]) the density of t is c_M cos^{M-2} φ, smooth at both ends
    for every M, and evaluated as exp((M-2) log1p(-2 sin²(φ/2))) so that rounding is not
    amplified M-fold near φ = 0. The integral runs over φ in [-T, min(T, φ*)] with φ* = -arcsin t*,
    where ±T bound the window outside which cos^{M-2} φ < e^-36 (all of [-π/2, π/2] for
    M <= 74). Panels end at 0, ±T/2 (the bulk, of width 1/sqrt(M)) and where L - ε = 1/4, 1, 4, 16
    (the layer next to φ* in which 1 - e^{ε-L} rises from 0 to 1); 12 nodes per panel.
    Checked against nested adaptive quadrature and against 24 nodes per panel to about 1e-12
    relative (tests/core/test_multivariate.py).
    """
    m = k + 1.0
    half_width = min(0.5 * math.pi, math.sqrt(72.0 / max(m - 2.0, 1e-300)))
    x_star, log_y, rho, log_c = _loss_level_crossing(u, log_a, a, k, epsilon)
    phi_high = np.clip(-np.arcsin(_clipped_crossing(x_star, rho)), -half_width, half_width)
    edges = [np.full_like(u, -half_width), phi_high]
    edges += [np.full_like(u, offset) for offset in (-0.5 * half_width, 0.0, 0.5 * half_width)]
    for extra in _LAYER_LEVELS:
        x_level, _, rho_level, _ = _loss_level_crossing(u, log_a, a, k, epsilon + extra)
        edges.append(-np.arcsin(_clipped_crossing(x_level, rho_level)))
    edges = np.sort(np.clip(np.stack(edges), -half_width, phi_high), axis=0)
    c_sq_all = np.exp(2.0 * log_c)
    offset_all = rho * rho - x_star
    total = np.zeros_like(u)
    for j in range(edges.shape[0] - 1):
        rows = np.nonzero(edges[j + 1] > edges[j])[0]  # coinciding edges make empty panels: skip them
        if rows.size == 0:
            continue
        low, high = edges[j, rows], edges[j + 1, rows]
        half = 0.5 * (high - low)
        phi = (0.5 * (high + low))[:, None] + half[:, None] * _INNER_NODES
        log_y_rows = log_y[rows][:, None]
        tiny_y = log_y_rows < -700.0
        # q - q* = c² (2ρ t + ρ² - x*) >= 0 on the panel; rounding can make it -1e-17.
        excess = np.maximum(offset_all[rows][:, None] - 2.0 * rho[rows][:, None] * np.sin(phi), 0.0)
        # log(q/q*) = log1p(excess / (1 + x*)); when 1 + x* underflows use logs instead.
        log_ratio = np.empty_like(excess)
        np.log1p(excess / np.exp(np.where(tiny_y, 0.0, log_y_rows)), out=log_ratio, where=~tiny_y)
        np.subtract(np.log(np.where(tiny_y, excess, 1.0)), log_y_rows, out=log_ratio, where=tiny_y)
        exponent = -0.5 * k * log_ratio - 0.5 * c_sq_all[rows][:, None] * excess  # = ε - L <= 0
        sin_half = np.sin(0.5 * phi)
        density = np.exp(log_c_m + (m - 2.0) * np.log1p(-2.0 * sin_half * sin_half))
        total[rows] += half * ((density * -np.expm1(exponent)) @ _INNER_WEIGHTS)
    return total


def _true_delta_units(epsilon, a, dim, rtol):
    """δ(ε) for a = Δ/sqrt(σ*) (arrays of equal shape, flattened), with error estimates."""
    n = epsilon.size
    k = dim - 1.0
    log_c_m = float(_log_sphere_density_constant(dim))
    delta = np.ones(n)
    error = np.zeros(n)
    # a > 1e4: for z < a/4, L >= a²/4 > 2.5e7 so 1 - e^{ε-L} = 1 to the last bit; the rest of the
    # Gaussian mass (z > 2500) is 0 in float64. a < 1e-150: see the Notes of r1smg_true_delta.
    # δ(ε) <= P(L > ε) and L(z, t) <= k ln(1 + a/|z|) + a|z| + a²/2; for |z| <= 40 (the rest of
    # the Gaussian mass is < 1e-348) L > ε needs |z| < a e^{-R/k}/(1 - e^{-R/k}), R = ε - 40a - a²/2.
    # Beyond R > k (760 + ln₊ 2a), δ < 2a e^{-R/k} + 1e-348 < 1e-330, which rounds to 0.
    with np.errstate(over="ignore"):  # a near the largest double: the threshold is inf
        negligible = epsilon > 40.0 * a + 0.5 * a * a + k * (760.0 + np.log(np.maximum(2.0 * a, 1.0)))
    delta[negligible] = 0.0
    regular = (a <= 1e4) & ~negligible
    if not np.any(regular):
        return delta, error
    eps = epsilon[regular]
    a_r = np.maximum(a[regular], 1e-150)
    log_a = np.log(a_r)
    u_top = math.log(40.0)  # P(|Z| > 40) < 1e-348

    def loss_at_minus_one(u, who=slice(None)):
        # ln|1/ρ - 1| with x = ln(1/ρ) > 0 on the bracket: ln expm1(x) = x + ln(-expm1(-x)), which
        # neither overflows nor divides by zero where ρ underflows (ε near the largest double).
        x = np.maximum(log_a[who] - u, 1e-300)
        return k * (x + np.log(-np.expm1(-x))) - a_r[who] * np.exp(u) + 0.5 * a_r[who] ** 2

    def loss_at_plus_one(u, who=slice(None)):
        return k * np.logaddexp(0.0, log_a[who] - u) + a_r[who] * np.exp(u) + 0.5 * a_r[who] ** 2

    # z₋: L(z, -1) = ε has one root in (0, a/2] (L(·,-1) falls from +inf to 0 there, < 0 beyond);
    # below it every t has L > ε. Bracket: a/(1 + e^{ε/k}) <= z₋ <= a/2.
    u_minus = _bisect(loss_at_minus_one, log_a - np.logaddexp(0.0, eps / k) - 1.0, log_a + math.log(0.5), eps)
    # L(·, 1) is convex in z with minimum at z_m; if it dips below ε, L <= ε for all t on [z₁, z₂].
    z_min = 2.0 * k / (a_r + np.sqrt(a_r * a_r + 4.0 * k))
    u_min = np.log(z_min)
    gap = loss_at_plus_one(u_min) < eps
    excess = np.maximum((eps - 0.5 * a_r * a_r) / k, 1e-300)
    log_expm1 = np.where(excess > 30.0, excess, np.log(np.expm1(np.minimum(excess, 30.0))))
    u_one_low = np.minimum(log_a - log_expm1 - 1.0, u_min)
    u_one = _bisect(loss_at_plus_one, np.where(gap, u_one_low, u_min - 1.0), u_min, eps)
    # ln(2 max((ε - a²/2)/a, z_m) + 1) in log space, capped just above u_top (the root is
    # clipped to u_top below, and bisection on [u_min, u_top + 1] returns its top when L < ε there).
    u_two_high = np.logaddexp(math.log(2.0) + np.log(np.maximum(eps - 0.5 * a_r * a_r, z_min * a_r)) - log_a, 0.0)
    u_two_high = np.minimum(u_two_high, u_top + 1.0)
    u_two = _bisect(loss_at_plus_one, u_min, np.maximum(u_two_high, u_min), eps)
    u_one = np.where(gap, np.minimum(u_one, u_top), u_top)
    u_two = np.where(gap, np.minimum(u_two, u_top), u_top)
    u_minus = np.minimum(u_minus, u_one)
    # Below u_low every t gives L >= ε + 40: 1 - e^{ε-L} = 1 up to e^-40 (dL/dln z <= -k there).
    u_low = np.minimum(u_minus - 40.0 / k, u_minus)
    base = special.erf(np.exp(u_low) / math.sqrt(2.0))

    pieces = ((u_low, u_minus, 4), (u_minus, u_one, 8), (u_two, np.full_like(u_two, u_top), 4))
    lower, upper, owner = [], [], []
    index = np.arange(eps.size)
    for start, stop, count in pieces:
        for j in range(count):
            lower.append(start + (stop - start) * j / count)
            upper.append(start + (stop - start) * (j + 1) / count)
            owner.append(index)
    lower, upper, owner = np.concatenate(lower), np.concatenate(upper), np.concatenate(owner)

    def integrand(u, who):
        shape = u.shape
        u_flat = u.ravel()
        who_flat = np.repeat(who, shape[1])
        inner = _inner_integral(u_flat, eps[who_flat], log_a[who_flat], a_r[who_flat], k, log_c_m)
        z = np.exp(u_flat)
        return (2.0 * z * np.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi) * inner).reshape(shape)

    value, value_error = _adaptive_gauss_kronrod(integrand, lower, upper, owner, eps.size, rtol=rtol)
    delta[regular] = np.clip(base + value, 0.0, 1.0)
    error[regular] = value_error + 1e-11 * np.abs(value)  # + the inner rule's tested accuracy
    return delta, error


def r1smg_true_delta(
    epsilon: ArrayLike, sigma_star: ArrayLike, sensitivity: ArrayLike, dim: int, *, full_output: bool = False
) -> FloatOrArray | tuple[FloatOrArray, FloatOrArray]:
    """The TRUE δ(ε) of R1SMG noise: what the rank-1 noise actually guarantees (docs/math.md section 6.2).

    Parameters
    ----------
    epsilon : float or array_like
        ε >= 0, finite (vectorized: pass a grid to draw a δ(ε) curve).
    sigma_star : float or array_like
        σ* > 0 (e.g. from :func:`r1smg_sigma_star`; ``inf``, its overflow value, gives δ = 0).
    sensitivity : float or array_like
        Δ = ‖f(x) - f(x')‖₂ > 0.
    dim : int
        M >= 3.
    full_output : bool, default False
        Also return the quadrature's error estimate.

    Returns
    -------
    float or numpy.ndarray
        ``δ(ε) = E[(1 - e^{ε - L})_+]`` over z ~ N(0,1) and t = <v, d/Δ> (density
        ``c_M (1-t²)^{(M-3)/2}``), L from :func:`r1smg_privacy_loss`. With ``full_output`` a pair
        (δ, error estimate).

    Raises
    ------
    ValueError
        If ε < 0, σ* <= 0, Δ <= 0, M < 3, or a value is NaN or infinite.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    **Why this exists.** Ji & Li claim (ε, δ)-DP for σ* = 2Δ²/(εψ). Since v is uniform and
    secret, the noise is spherically symmetric and this is its exact hockey-stick divergence
    for a difference d with ‖d‖ = Δ (by symmetry only ‖d‖ matters; the result increases with Δ
    on every grid we checked, so it is the profile over ‖d‖ <= Δ). docs/math.md section 6.2 finds it far
    above the claimed δ: at ε = 1, δ = 1e-5, Δ = 1 it is 1.7e-6 (M = 3, below the claim),
    9.0e-4 (M = 4), 0.181 (M = 10), 0.971 (M = 100), 0.999994 (M = 1000).

    **Quadrature.** By the symmetry (z, t) -> (-z, -t), ``δ = 2 ∫₀^∞ φ(z) I(z) dz`` with
    ``I(z) = E_t[(1 - e^{ε-L})_+]``. L increases in t, so {L > ε} is t > t*(z), with t* in
    closed form (Wright omega, see ``_loss_level_crossing``); I(z) is a composite Gauss–Legendre
    sum in θ = arccos t adapted to the density's width 1/sqrt(M) and to the layer where
    1 - e^{ε-L} rises (``_inner_integral``). The z integral runs in u = ln z, from the point
    below which every t has L > ε + 40 (that part is erf(z/√2) in closed form) to z = 40, with
    breakpoints where t* crosses ±1 (found by bisection) and no work on the interval where
    L <= ε for all t; it is globally adaptive Gauss–Kronrod 7/15 with relative tolerance 1e-10.
    The error estimate is the sum of |K15 - G7| over the final intervals (pessimistic) plus
    1e-11 relative for the inner rule (measured: <= 2e-12 against 24 nodes per panel).
    Against nested ``scipy.integrate.quad`` the results agree to about 1e-10 relative for M in
    [3, 1e5], ε in [0, 30] (1e-4 relative at δ ~ 1e-60, where the reference itself is that
    inaccurate). (1 - e^{ε-L}) is evaluated as ``-expm1(ε - L)`` with ε - L <= 0 computed from
    log1p, never overflowing. A call takes about 5-15 ms for one ε and about 1-2 ms per further
    ε value, for any M from 3 to 1e6.

    Extreme scales: for Δ/sqrt(σ*) > 1e4 the result is 1.0 (exactly, in float64); below
    1e-150 it is evaluated at 1e-150, an upper bound of order 1e-148 or less.

    Examples
    --------
    >>> sigma = r1smg_sigma_star(1.0, 1e-5, 1.0, 10)
    >>> round(r1smg_true_delta(1.0, sigma, 1.0, 10), 5)   # claimed: 1e-5
    0.18141
    """
    epsilon_array = require_interval(as_float_array(epsilon, "epsilon"), "epsilon", 0.0, None)
    sigma_array = require_interval(
        as_float_array(sigma_star, "sigma_star"), "sigma_star", 0.0, None, lower_open=True, allow_infinity=True
    )
    sensitivity_array = _positive(sensitivity, "sensitivity")
    dim = _r1smg_dim(dim)
    e, s, d = broadcast(epsilon_array, sigma_array, sensitivity_array)
    with np.errstate(over="ignore", under="ignore"):  # a = Δ/sqrt(σ*) is clamped to [1e-150, 1e4+]
        a = np.exp(np.log(d) - 0.5 * np.log(s))
    delta, error = _true_delta_units(e.ravel(), a.ravel(), float(dim), rtol=1e-10)
    # σ* = inf (e.g. r1smg_sigma_star at M = 3, δ = 1e-300) is noise that reveals nothing: δ = 0.
    delta = np.where(np.isinf(s.ravel()), 0.0, delta)
    error = np.where(np.isinf(s.ravel()), 0.0, error)
    delta = scalar_or_array(delta.reshape(e.shape), epsilon, sigma_star, sensitivity)
    if full_output:
        return delta, scalar_or_array(error.reshape(e.shape), epsilon, sigma_star, sensitivity)
    return delta


def r1smg_true_delta_monte_carlo(
    epsilon: ArrayLike, sigma_star: float, sensitivity: float, dim: int, n_samples: int = 200_000, seed: int = 0
) -> tuple[FloatOrArray, FloatOrArray]:
    """Monte Carlo estimate of the true δ(ε) of R1SMG noise, with its standard error.

    Parameters
    ----------
    epsilon : float or array_like
        ε >= 0, finite (vectorized: the same draws serve every ε).
    sigma_star : float
        σ* > 0 (``inf`` gives δ = 0).
    sensitivity : float
        Δ > 0.
    dim : int
        M >= 3.
    n_samples : int, default 200_000
        Number of (z, t) draws, in [2, 1e8]; ``n_samples`` times the number of ε values is at
        most 1e8 too (about 10 s of work), so that no input makes the call hang.
    seed : int, default 0
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    (estimate, standard_error)
        Floats for a scalar ε, arrays otherwise. The estimate is the sample mean of
        ``(1 - e^{ε-L})_+``; the standard error is its sample standard deviation / sqrt(n).

    Raises
    ------
    ValueError
        If an argument is out of range.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    docs/math.md section 6.2 item 2: draws z ~ N(0, 1) and t = 2B - 1, B ~ Beta((M-1)/2, (M-1)/2) (the law of
    <v, e₁> for v uniform on the sphere), not whole noise vectors, so M = 1e6 costs the same as
    M = 3. An independent check of :func:`r1smg_true_delta`, for readers and tests.

    Examples
    --------
    >>> sigma = r1smg_sigma_star(1.0, 1e-5, 1.0, 10)
    >>> estimate, error = r1smg_true_delta_monte_carlo(1.0, sigma, 1.0, 10, n_samples=100_000)
    >>> abs(estimate - 0.18141) < 4 * error
    True
    """
    epsilon_array = require_interval(as_float_array(epsilon, "epsilon"), "epsilon", 0.0, None)
    sigma_array = require_interval(
        as_float_array(sigma_star, "sigma_star"), "sigma_star", 0.0, None, lower_open=True, allow_infinity=True
    )
    sigma = _scalar(sigma_array, "sigma_star")
    sensitivity_value = _scalar(_positive(sensitivity, "sensitivity"), "sensitivity")
    dim = _r1smg_dim(dim)
    n_samples = require_integer(n_samples, "n_samples", minimum=2, maximum=_MC_MAX_EVALUATIONS)
    seed = require_integer(seed, "seed", minimum=0, maximum=MAX_SEED)
    if n_samples * max(epsilon_array.size, 1) > _MC_MAX_EVALUATIONS:
        raise ValueError(
            f"n_samples times the number of ε values must be at most {_MC_MAX_EVALUATIONS:.0e} "
            f"(bounded work), got n_samples={n_samples} for {epsilon_array.size} ε values"
        )
    rng = np.random.default_rng(seed)
    with np.errstate(over="ignore"):  # a = inf (σ* subnormal, Δ huge): every draw has L = inf
        a = sensitivity_value / math.sqrt(sigma)
    k = dim - 1.0
    eps = epsilon_array.ravel()
    total = np.zeros(eps.size)
    total_sq = np.zeros(eps.size)
    block = max(1, min(n_samples, (1 << 22) // max(eps.size, 1)))
    for start in range(0, n_samples, block):
        count = min(block, n_samples - start)
        z = rng.standard_normal(count)
        t = 2.0 * rng.beta(0.5 * k, 0.5 * k, count) - 1.0
        loss = _privacy_loss_units(z, t, a, k)
        gap = np.minimum(eps[:, None] - loss[None, :], 0.0)  # ε - L where L > ε, else 0
        value = -np.expm1(gap)
        total += value.sum(axis=1)
        total_sq += (value * value).sum(axis=1)
    mean = total / n_samples
    variance = np.maximum(total_sq / n_samples - mean * mean, 0.0) * n_samples / (n_samples - 1)
    standard_error = np.sqrt(variance / n_samples)
    return (
        scalar_or_array(mean.reshape(epsilon_array.shape), epsilon),
        scalar_or_array(standard_error.reshape(epsilon_array.shape), epsilon),
    )


# ----------------------------------------------------------------------------------------------
# Ji & Li's stated constants (docs/math.md sections 6.1, 6.3, 6.4)
# ----------------------------------------------------------------------------------------------


def ji_li_constant_classical(epsilon: ArrayLike, delta: ArrayLike, dim: ArrayLike) -> FloatOrArray:
    """Ji & Li's C_C = 2 ln(1.25/δ) M / ε² (classical Gaussian mechanism).

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    delta : float or array_like
        δ in (0, 1).
    dim : int or array_like of int
        M >= 1.

    Returns
    -------
    float or numpy.ndarray
        C_C, so that E‖Z‖² = C_C Δ² for the classical Gaussian mechanism; inf where it
        exceeds the largest double (ε below about 1e-154).

    Raises
    ------
    ValueError
        If ε <= 0, δ outside (0, 1), or M < 1.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    Ji & Li 2024, abstract (docs/math.md section 6.1). Exact for the classical mechanism
    (M σ_cGM², docs/math.md section 6.3), whose own guarantee needs ε < 1 (docs/math.md section 1).

    Examples
    --------
    >>> round(ji_li_constant_classical(0.5, 1e-5, 10), 4)   # 80 ln(125000)
    938.8855
    """
    e, d, m = broadcast(_epsilon(epsilon, positive=True), _delta(delta), _dimension_array(dim, "dim"))
    with np.errstate(over="ignore"):  # beyond the largest double (ε below ~1e-154): inf, its rounded value
        value = 2.0 * (math.log(1.25) - np.log(d)) * m / e / e
    return scalar_or_array(value, epsilon, delta, dim)


def ji_li_constant_analytic(epsilon: ArrayLike, delta: ArrayLike, dim: ArrayLike) -> FloatOrArray:
    """Ji & Li's C_A = ((Φ⁻¹(δ))² + ε) M / ε², stated for the analytic Gaussian mechanism.

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    delta : float or array_like
        δ in (0, 1).
    dim : int or array_like of int
        M >= 1.

    Returns
    -------
    float or numpy.ndarray
        C_A; inf where it exceeds the largest double (ε below about 1e-154).

    Raises
    ------
    ValueError
        If ε <= 0, δ outside (0, 1), or M < 1.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    Ji & Li 2024, abstract (docs/math.md section 6.1). **Not a lower bound for the exact aGM** (docs/math.md section 6.3):
    C_A/M matches, within about 1%, the σ² of the sufficient tail condition P[L >= ε] <= δ and
    exceeds the exact aGM σ² by 1.17-1.93× (e.g. 19.19 against 13.92 at ε = 1, δ = 1e-5). Show it
    only as "Ji & Li's bound"; compute aGM exactly.

    Examples
    --------
    >>> round(ji_li_constant_analytic(1.0, 1e-5, 1), 2)
    19.19
    """
    e, d, m = broadcast(_epsilon(epsilon, positive=True), _delta(delta), _dimension_array(dim, "dim"))
    quantile = special.ndtri(d)
    with np.errstate(over="ignore"):  # beyond the largest double (ε below ~1e-154): inf, its rounded value
        value = (quantile * quantile / e + 1.0) * m / e
    return scalar_or_array(value, epsilon, delta, dim)


def ji_li_constant_mvg(epsilon: ArrayLike, rows: ArrayLike, cols: ArrayLike) -> FloatOrArray:
    """Ji & Li's C_M = ((5/4) H_r + (1/4) H_{r,1/2}) M N / (2ε), r = min(M, N), for MVG.

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    rows, cols : int or array_like of int
        The query's shape M × N, each >= 1.

    Returns
    -------
    float or numpy.ndarray
        C_M; inf where it exceeds the largest double (a subnormal ε).

    Raises
    ------
    ValueError
        If ε <= 0 or a shape is < 1 or not whole.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    Ji & Li 2024, abstract (docs/math.md section 6.1). A valid but weak lower bound: from the MVG condition
    the calibrated i.i.d. MVG loss is at least ``C_M sqrt(MN) Δ²`` and in practice far more
    (951 against C_M = 0.75 for 1×1 at ε = 1, δ = 1e-5; docs/math.md sections 6.4, 7.3). Show the computed
    :func:`mvg_iid_expected_loss` as "MVG", not C_M.

    Examples
    --------
    >>> ji_li_constant_mvg(1.0, 1, 1)
    0.75
    """
    e, m, n = broadcast(
        _epsilon(epsilon, positive=True), _dimension_array(rows, "rows"), _dimension_array(cols, "cols")
    )
    r = np.minimum(m, n)
    with np.errstate(over="ignore"):  # beyond the largest double (subnormal ε): inf, its rounded value
        value = (1.25 * _harmonic(r) + 0.25 * _harmonic_half(r)) * m * n / 2.0 / e
    return scalar_or_array(value, epsilon, rows, cols)


def ji_li_constant_r1smg(epsilon: ArrayLike, delta: ArrayLike, dim: ArrayLike) -> FloatOrArray:
    """Ji & Li's C_R = 2/(ε ψ), the claimed expected loss of R1SMG per Δ² (a **claimed** guarantee).

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    delta : float or array_like
        δ in (0, 1).
    dim : int or array_like of int
        M >= 3.

    Returns
    -------
    float or numpy.ndarray
        C_R = σ*/Δ² (``inf`` beyond float64).

    Raises
    ------
    ValueError
        If ε <= 0, δ outside (0, 1), or M < 3.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    Ji & Li 2024 (docs/math.md section 6.1). C_R -> 2/ε as M grows, which an (ε, δ)-DP mechanism cannot
    achieve (docs/math.md section 6.2 item 4); the true δ of this noise is :func:`r1smg_true_delta`.

    Examples
    --------
    >>> round(ji_li_constant_r1smg(1.0, 1e-5, 10), 2)
    49.18
    """
    return r1smg_sigma_star(epsilon, delta, 1.0, dim)


# ----------------------------------------------------------------------------------------------
# Harmonic numbers and the MVG mechanism (docs/math.md section 7)
# ----------------------------------------------------------------------------------------------

_TABLE_SIZE = 64
_HARMONIC_TABLE = np.array([math.fsum(1.0 / j for j in range(1, r + 1)) for r in range(_TABLE_SIZE + 1)])
_HARMONIC_HALF_TABLE = np.array(
    [math.fsum(1.0 / math.sqrt(j) for j in range(1, r + 1)) for r in range(_TABLE_SIZE + 1)]
)


def _harmonic(r):
    r = np.asarray(r, dtype=np.float64)
    table = _HARMONIC_TABLE[np.clip(r, 0, _TABLE_SIZE).astype(np.int64)]
    return np.where(r <= _TABLE_SIZE, table, special.digamma(np.maximum(r, 1.0) + 1.0) + np.euler_gamma)


def _harmonic_half(r):
    """H_{r,1/2}: fsum table for r <= 64, Euler–Maclaurin beyond.

    ``sum_{k<=r} k^{-1/2} = ζ(1/2) + 2√r + r^{-1/2}/2 - r^{-3/2}/24 + r^{-7/2}/384
    - r^{-11/2}/1024 + ...`` (the Hurwitz-zeta expansion with Bernoulli numbers B₂, B₄, B₆); the
    first omitted term is below 1e-17 relative for r > 64. ``scipy.special.zeta(0.5, q)`` is NaN
    (docs/math.md section 7.1), hence this.
    """
    r = np.asarray(r, dtype=np.float64)
    table = _HARMONIC_HALF_TABLE[np.clip(r, 0, _TABLE_SIZE).astype(np.int64)]
    large = np.maximum(r, float(_TABLE_SIZE))
    inverse_root = 1.0 / np.sqrt(large)
    inverse = inverse_root * inverse_root
    inverse_sq = inverse * inverse
    tail = inverse_root * (0.5 + inverse * (-1.0 / 24.0 + inverse_sq * (1.0 / 384.0 - inverse_sq / 1024.0)))
    series = (2.0 * np.sqrt(large) + ZETA_HALF) + tail
    return np.where(r <= _TABLE_SIZE, table, series)


def harmonic_number(r: ArrayLike) -> FloatOrArray:
    """H_r = Σ_{k=1}^r 1/k.

    Parameters
    ----------
    r : int or array_like of int
        r >= 0 (whole numbers).

    Returns
    -------
    float or numpy.ndarray
        Exact sums (``math.fsum``) for r <= 64, ``digamma(r + 1) + γ`` beyond.

    Raises
    ------
    ValueError
        If r < 0 or not whole.
    TypeError
        If r is not numeric.

    Notes
    -----
    docs/math.md section 7.1.

    Examples
    --------
    >>> harmonic_number(4)   # 1 + 1/2 + 1/3 + 1/4
    2.0833333333333335
    """
    r_array = whole_numbers(r, "r", 0)
    return scalar_or_array(_harmonic(r_array), r)


def harmonic_number_half(r: ArrayLike) -> FloatOrArray:
    """H_{r,1/2} = Σ_{k=1}^r k^{-1/2}, the harmonic number of order 1/2.

    Parameters
    ----------
    r : int or array_like of int
        r >= 0 (whole numbers).

    Returns
    -------
    float or numpy.ndarray
        Exact sums (``math.fsum``) for r <= 64; beyond, the Euler–Maclaurin expansion
        ``ζ(1/2) + 2√r + 1/(2√r) - r^{-3/2}/24 + r^{-7/2}/384 - r^{-11/2}/1024``, accurate to
        1e-16 relative (checked against mpmath up to r = 1e12).

    Raises
    ------
    ValueError
        If r < 0 or not whole.
    TypeError
        If r is not numeric.

    Notes
    -----
    docs/math.md section 7.1 (``scipy.special.zeta(0.5, q)`` returns NaN, so it is not used).

    Examples
    --------
    >>> round(harmonic_number_half(1_000_000), 9)
    1998.540145491
    """
    r_array = whole_numbers(r, "r", 0)
    return scalar_or_array(_harmonic_half(r_array), r)


def _mvg_arrays(epsilon, delta, sensitivity, rows, cols, gamma):
    e = _epsilon(epsilon, positive=True)
    d = _delta(delta)
    s = _positive(sensitivity, "sensitivity")
    m = _dimension_array(rows, "rows")
    n = _dimension_array(cols, "cols")
    g = _positive(gamma, "gamma")
    e, d, s, m, n, g = broadcast(e, d, s, m, n, g)
    too_small = g < 0.5 * s
    if np.any(too_small):
        index = tuple(int(i) for i in np.argwhere(too_small)[0]) if g.ndim else ()
        where = f" (first bad element at index {index[0] if g.ndim == 1 else index})" if g.ndim else ""
        raise ValueError(
            f"gamma must be >= sensitivity/2, got gamma={float(g[index])!r} with "
            f"sensitivity={float(s[index])!r}{where}; gamma bounds ‖f(X)‖_F for every dataset, and "
            "‖f(X) - f(X')‖_F <= ‖f(X)‖_F + ‖f(X')‖_F <= 2 gamma, so gamma < Δ/2 contradicts Δ"
        )
    return e, d, s, m, n, g


def _mvg_k(e, d, s, m, n, g):
    with np.errstate(over="ignore"):  # K beyond 1.8e308 (ε near the largest double) is inf
        return _mvg_root_k(e, d, s, m, n, g) ** 2


def _mvg_alpha_beta(d, s, m, n, g):
    """(f, β) of the MVG calibration (docs/math.md section 7.1), with √α = γ f,
    f = sqrt(H_r + H_{r,1/2} + 2 H_r Δ/γ), so that γ near the largest double overflows nothing."""
    r = np.minimum(m, n)
    h = _harmonic(r)
    h_half = _harmonic_half(r)
    mn = m * n
    log_delta = np.log(d)
    zeta = 2.0 * np.sqrt(-mn * log_delta) - 2.0 * log_delta + mn
    alpha_factor = np.sqrt(h + h_half + 2.0 * h * (s / g))
    with np.errstate(over="ignore"):  # β beyond the largest double (huge Δ or shape): see below
        beta = 2.0 * np.sqrt(np.sqrt(mn)) * h * s * zeta
    return alpha_factor, beta


def _mvg_root_k(e, d, s, m, n, g):
    """√K of the MVG calibration (docs/math.md section 7.1)."""
    alpha_factor, beta = _mvg_alpha_beta(d, s, m, n, g)
    # K = (-β + sqrt(β² + 8αε))² / (4α²) = 16 ε² / (β + sqrt(β² + 8αε))²: no cancellation.
    with np.errstate(over="ignore"):  # α = inf (γ near the largest double): K underflows to 0
        return _mvg_sqrt_k(e, (g * alpha_factor) ** 2, beta)


def _mvg_inverse_root_k(e, d, s, m, n, g):
    """1/√K = (β + sqrt(β² + 8αε))/(4ε), in units of c = max(β, γ) so that nothing overflows
    before the result does (inf only where 1/√K itself exceeds the largest double)."""
    alpha_factor, beta = _mvg_alpha_beta(d, s, m, n, g)
    unit = np.maximum(beta, g)
    with np.errstate(over="ignore", invalid="ignore"):
        b, a = beta / unit, alpha_factor * (g / unit)  # b, g/c in [0, 1]; NaN only where β = inf
        scaled = b + np.hypot(b, math.sqrt(8.0) * a * np.sqrt(e))
        inverse = (0.25 * scaled) * unit / e
    return np.where(np.isinf(beta), np.inf, inverse)


def _mvg_sqrt_k(e, alpha, beta):
    """√K = 4 ε / (β + sqrt(β² + 8αε)), formed without ε² (which underflows at ε ~ 1e-300, where
    the i.i.d. std (mn)^(1/4)/√K is still finite) or 8αε (which overflows near 1.8e308)."""
    root = np.hypot(beta, np.sqrt(8.0 * alpha) * np.sqrt(e))
    return 4.0 * (e / (beta + root))


def mvg_K(
    epsilon: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike, rows: ArrayLike, cols: ArrayLike, gamma: ArrayLike
) -> FloatOrArray:
    """The MVG bound K(ε, δ) on ‖σ(Σ⁻¹)‖₂ ‖σ(Ψ⁻¹)‖₂ (Chanyaswad et al. 2018, Theorem 2).

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    delta : float or array_like
        δ in (0, 1).
    sensitivity : float or array_like
        s₂ = Δ₂ = sup ‖f(X) - f(X')‖_F > 0.
    rows, cols : int or array_like of int
        The query's shape m × n.
    gamma : float or array_like
        γ = sup_X ‖f(X)‖_F, which must be >= Δ/2.

    Returns
    -------
    float or numpy.ndarray
        ``K = (-β + sqrt(β² + 8αε))² / (4α²)``, evaluated as ``16ε² / (β + sqrt(β² + 8αε))²``.

    Raises
    ------
    ValueError
        If γ < Δ/2 (impossible: ‖f(X) - f(X')‖ <= 2γ), ε <= 0, δ outside (0, 1), or a shape < 1.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    docs/math.md section 7.1: r = min(m, n), ``ζ(δ) = 2 sqrt(-mn ln δ) - 2 ln δ + mn``,
    ``α = (H_r + H_{r,1/2}) γ² + 2 H_r γ Δ``, ``β = 2 (mn)^{1/4} H_r Δ ζ(δ)``.
    **[U]** We could not confirm whether β uses ζ(δ) or sqrt(ζ(δ)); this follows the public
    third-party implementation (ζ(δ)). Label MVG results accordingly.

    Examples
    --------
    >>> round(1.0 / mvg_K(1.0, 1e-5, 1.0, 1, 1, 0.5), 1)   # 1×1: E loss = 1/K (docs/math.md section 7.3)
    950.9
    """
    arrays = _mvg_arrays(epsilon, delta, sensitivity, rows, cols, gamma)
    return scalar_or_array(_mvg_k(*arrays), epsilon, delta, sensitivity, rows, cols, gamma)


def mvg_iid_std(
    epsilon: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike, rows: ArrayLike, cols: ArrayLike, gamma: ArrayLike
) -> FloatOrArray:
    """Per-entry standard deviation s of i.i.d. MVG noise: s² = sqrt(mn)/K(ε, δ).

    Parameters
    ----------
    epsilon, delta, sensitivity, rows, cols, gamma
        As in :func:`mvg_K` (γ >= Δ/2).

    Returns
    -------
    float or numpy.ndarray
        s, the standard deviation of every entry of Z (Σ = a I_m, Ψ = c I_n, s² = ac); inf
        only where s exceeds the largest double (e.g. a subnormal ε).

    Raises
    ------
    ValueError
        As :func:`mvg_K`.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    docs/math.md section 7.2 (from the condition of 7.1 with isotropic Σ and Ψ, the choice that minimises the
    expected loss). **[U]**: ζ(δ) vs sqrt(ζ(δ)) in β, see :func:`mvg_K`.

    Examples
    --------
    >>> round(mvg_iid_std(1.0, 1e-5, 1.0, 1, 1, 0.5), 3)
    30.836
    """
    e, d, s, m, n, g = _mvg_arrays(epsilon, delta, sensitivity, rows, cols, gamma)
    # std = sqrt(√(mn)/K) = (mn)^(1/4)/√K: finite where K underflows (ε ~ 1e-300, issue 9 item 8)
    with np.errstate(over="ignore"):  # inf only where s exceeds the largest double
        std = np.sqrt(np.sqrt(m * n)) * _mvg_inverse_root_k(e, d, s, m, n, g)
    return scalar_or_array(std, epsilon, delta, sensitivity, rows, cols, gamma)


def mvg_iid_expected_loss(
    epsilon: ArrayLike, delta: ArrayLike, sensitivity: ArrayLike, rows: ArrayLike, cols: ArrayLike, gamma: ArrayLike
) -> FloatOrArray:
    """Expected accuracy loss E‖Z‖_F² = (mn)^{3/2}/K of i.i.d. MVG noise.

    Parameters
    ----------
    epsilon, delta, sensitivity, rows, cols, gamma
        As in :func:`mvg_K` (γ >= Δ/2).

    Returns
    -------
    float or numpy.ndarray
        ``tr(Σ) tr(Ψ) = mn s²``, the smallest expected loss any MVG covariance achieves under
        the condition (power-mean inequality, docs/math.md section 7.2); inf where it exceeds the
        largest double.

    Raises
    ------
    ValueError
        As :func:`mvg_K`.
    TypeError
        If an argument is not numeric.

    Notes
    -----
    docs/math.md sections 7.2-7.3: 951 (1×1) and 3.1e9 (10×10) at ε = 1, δ = 1e-5, Δ = 1, γ = 1/2, against
    Ji & Li's C_M Δ² = 0.75 and 246. **[U]** as :func:`mvg_K`.

    Examples
    --------
    >>> f"{mvg_iid_expected_loss(1.0, 1e-5, 1.0, 10, 10, 0.5):.2g}"
    '3.1e+09'
    """
    e, d, s, m, n, g = _mvg_arrays(epsilon, delta, sensitivity, rows, cols, gamma)
    mn = m * n
    inverse_root_k = _mvg_inverse_root_k(e, d, s, m, n, g)
    with np.errstate(over="ignore"):  # inf only where the loss exceeds the largest double
        loss = (np.sqrt(mn) * inverse_root_k) * (mn * inverse_root_k)
    return scalar_or_array(loss, epsilon, delta, sensitivity, rows, cols, gamma)
