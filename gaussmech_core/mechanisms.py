"""The mechanism registry: every noise mechanism the dashboard compares, in one place.

Pages iterate :data:`MECHANISMS`; adding a mechanism is adding one entry here, with no page
edits. Each entry is a :class:`~gaussmech_core.registry_types.Mechanism` that knows its source,
the kind of guarantee it gives, where that guarantee holds (``validity``), and how to compute
its scale, noise, density, tails, expected loss and true privacy profile at a
:class:`~gaussmech_core.registry_types.Setting`.

R1SMG is registered with guarantee kind ``"claimed"``: its calibration is Ji & Li's, as
published, and :func:`evaluate` always pairs it with the computed true δ(ε) of its noise
(docs/math.md section 6.2). It is never the default.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass, replace

import numpy as np
from scipy import stats

from . import bounded, discrete_gaussian, gaussian, generalized, laplace, loss, multivariate, quantiles, tails
from ._types import ArrayLike
from ._validation import as_float_array, parameter_names, require_interval
from .registry_types import (
    GUARANTEE_LABELS,
    HistogramCalibration,
    HistogramRelease,
    Mechanism,
    NoiseLaw,
    Setting,
    Validity,
)

__all__ = [
    "MECHANISMS",
    "DEFAULT_MECHANISM_ID",
    "Calibration",
    "evaluate",
    "calibrate_all",
    "coordinate_std_over_epsilon",
    "Setting",
]

# Okabe–Ito and Paul Tol's colour-blind-safe palettes, darkened where needed so that every line has at
# least 3:1 contrast against the white background (WCAG 2.1 non-text contrast); each mechanism keeps its
# colour on every page, and its dash (by guarantee) and marker symbol tell it apart without colour.
_COLORS = {
    "analytic_gaussian": "#0072B2",  # 5.2:1
    "classical_gaussian": "#D55E00",  # 3.9:1
    "gaussian_tail_bound": "#3C8DBF",  # 3.7:1 (Okabe–Ito sky blue #56B4E9, darkened from 2.3:1)
    "gaussian_pdp": "#882255",  # 8.7:1
    "gaussian_zcdp_bs": "#7A7A1A",  # 4.5:1 (Tol olive #999933, darkened from 3.0:1)
    "gaussian_zcdp_cks": "#2A8878",  # 4.3:1 (Tol teal #44AA99, darkened from 2.8:1)
    "gaussian_vinterbo": "#332288",  # 12.2:1
    "laplace": "#B36B00",  # 4.2:1 (Okabe–Ito orange #E69F00, darkened from 2.3:1)
    "generalized_gaussian": "#009E73",  # 3.4:1
    "generalized_gaussian_pdp": "#117733",  # 5.7:1
    "mvg_iid": "#AA4499",  # 5.3:1
    "r1smg": "#CC6677",  # 3.7:1
    "truncated_gg": "#AD5A8C",  # 4.6:1 (Okabe–Ito reddish purple #CC79A7, darkened from 3.1:1)
    "bit_gg": "#557799",  # 4.7:1 (Tol's #6699CC, darkened from 3.0:1)
    "discrete_gaussian": "#994F00",  # 6.1:1
}

_ALWAYS = Validity(True)
_LOG_FLOAT_MAX = math.log(np.finfo(float).max)
_SMALLEST_NORMAL = float(np.finfo(float).tiny)


def _total_variance(count: float, variance_factor: float, scale: float) -> float:
    """count × variance_factor × scale², as +inf (no OverflowError) when it exceeds the float range.

    At ε = 0 and δ = 1e-300 the exact σ is about 4e299, so E‖noise‖² is honestly "beyond 1e308".
    """
    log_value = math.log(count) + math.log(variance_factor) + 2.0 * math.log(float(scale))
    if log_value >= _LOG_FLOAT_MAX:
        return math.inf
    if isinstance(count, int) and count.bit_length() > 1023:  # d >= 2**1023 has no float: use the log
        return math.exp(log_value)  # (relative error below 2e-13; a figure of accuracy, not privacy)
    return count * variance_factor * float(scale) ** 2


def _dim_times(dim: int, variance: float) -> float:
    """d × a per-coordinate variance, through :func:`_total_variance` (inf, never an OverflowError)."""
    return 0.0 if variance == 0.0 else _total_variance(dim, float(variance), 1.0)


def _log_probability(probability) -> np.ndarray:
    """log p with log 0 = -inf (a tail that underflowed is below every α the pages accept)."""
    probability = np.asarray(probability, dtype=np.float64)
    result = np.full(probability.shape, -np.inf)
    positive = probability > 0
    result[positive] = np.log(probability[positive])
    return result


def _first_coordinates(rng, size, scale, setting, sample) -> np.ndarray:
    """``size`` draws of one coordinate of i.i.d. noise: the vector sampler at d = 1."""
    one_dimensional = dataclasses.replace(setting, dim=1, mvg_shape=None)
    return np.asarray(sample(rng, size, scale, one_dimensional), dtype=np.float64).reshape(size)


# A sweep over d asks a per-coordinate quantity (a variance) at every d for one scale, since the
# calibration does not read d: each such quantity keeps its last call (functools.lru_cache with one
# slot, thread-safe), so a new setting replaces it and nothing from an earlier setting is kept.
_last_call_remembered = functools.lru_cache(maxsize=1)


@functools.lru_cache(maxsize=256)
def _unit_iid_loss_summary(family: str, order: float, dim: int, levels: tuple, n_samples: int) -> loss.LossSummary:
    """Loss summary of i.i.d. Laplace/GG noise at scale b = 1 (bounded and thread-safe memo)."""
    return loss.iid_coordinate_loss_summary(
        family,
        1.0,
        dim,
        order=None if family == "laplace" else order,
        quantile_levels=levels,
        n_samples=n_samples,
        seed=0,
    )


def _iid_loss_summary(family: str, order_of):
    """``loss_summary`` of i.i.d. GG(p) noise: b² times the (cached) summary at b = 1.

    Noise at scale b is b times the noise at b = 1, so the loss scales by b² and its shape
    (skewness, kurtosis) not at all: one simulation at b = 1 serves every ε (docs/math.md section 10).
    """

    def summary(scale, setting, quantile_levels=loss.DEFAULT_LEVELS, n_samples=100_000):
        levels = tuple(float(q) for q in quantile_levels)
        unit = _unit_iid_loss_summary(family, float(order_of(setting)), int(setting.dim), levels, int(n_samples))
        with np.errstate(over="ignore"):  # a loss beyond 1.8e308 is inf
            factor = float(np.float64(scale) ** 2)
            return dataclasses.replace(
                unit,
                mean=unit.mean * factor,
                median=unit.median * factor,
                quantiles={level: value * factor for level, value in unit.quantiles.items()},
                std=unit.std * factor,
            )

    return summary


def _gaussian_histogram(sigma_function) -> HistogramRelease:
    """Release of N(0, σ² I) noise with σ calibrated at Δ₂ of the neighbour model."""

    def calibrate(epsilon, delta, model, order):
        sensitivity = model.l2_sensitivity
        sigma = np.asarray(sigma_function(epsilon, delta, sensitivity), dtype=float)
        return HistogramCalibration(sigma, sigma, sensitivity, "Δ₂", 2.0, "σ calibrated at Δ₂")

    return HistogramRelease(
        calibrate=calibrate, sample=lambda rng, shape, sigma, order: sigma * rng.standard_normal(shape)
    )


def _laplace_histogram_calibration(epsilon, delta, model, order) -> HistogramCalibration:
    sensitivity = model.l1_sensitivity
    scale = np.asarray(laplace.laplace_scale(epsilon, sensitivity), dtype=float)
    return HistogramCalibration(scale, math.sqrt(2.0) * scale, sensitivity, "Δ₁", 1.0, "b = Δ₁/ε (pure ε-DP)")


def _gg_histogram_calibration(epsilon, delta, model, order) -> HistogramCalibration:
    """GG(p) noise for a histogram: exact with one changed coordinate or p = 2, composed otherwise.

    With one changed coordinate the 1-D calibration is exact. With k > 1 changed coordinates and
    p = 2 the noise is Gaussian and rotation invariant, so the 1-D calibration at Δ₂ is exact.
    For p ≠ 2 no exact multi-coordinate calibration is known (docs/math.md section 5.4); each changed
    coordinate is then a 1-D GG release of sensitivity c, calibrated at (ε/k, δ/k), and basic
    composition gives (ε, δ) overall: valid, possibly loose, and said so in the note.
    """
    k = model.changed_coordinates
    if k == 1 or order == 2.0:
        sensitivity, symbol = model.l2_sensitivity, "Δ₂"
        scale = generalized.generalized_gaussian_scale(epsilon, delta, sensitivity, order, guarantee="approximate")
        note = "exact: one changed coordinate" if k == 1 else "exact: p = 2 is rotation invariant, calibrated at Δ₂"
    else:
        sensitivity, symbol = model.coordinate_sensitivity, "Δ"
        scale = generalized.generalized_gaussian_scale(
            np.divide(epsilon, k), delta / k, sensitivity, order, guarantee="approximate"
        )
        note = f"{k} coordinates change: each calibrated at (ε/{k}, δ/{k}), basic composition (valid, may be loose)"
    scale = np.asarray(scale, dtype=float)
    std = np.sqrt(np.asarray(generalized.gg_variance(scale, order), dtype=float))
    return HistogramCalibration(scale, std, sensitivity, symbol, float(order), note)


_GG_HISTOGRAM = HistogramRelease(
    calibrate=_gg_histogram_calibration,
    sample=lambda rng, shape, b, order: np.asarray(generalized.gg_sample(rng, shape, b, order), dtype=float),
)
_LAPLACE_HISTOGRAM = HistogramRelease(
    calibrate=_laplace_histogram_calibration,
    sample=lambda rng, shape, b, order: np.asarray(laplace.laplace_sample(rng, shape, b), dtype=float),
)


def _r1smg_coordinate_sample(rng, size, sigma_star, setting) -> np.ndarray:
    """One coordinate of R1SMG noise, ``√σ* z v₁``, in O(size) work whatever d.

    ``v₁``, the first coordinate of a uniform unit vector, is drawn as ``g₁ / √(g₁² + χ²_{d−1})``:
    the law of :func:`~gaussmech_core.multivariate.r1smg_sample` 's first column (docs/math.md section 6.1).
    """
    first = rng.standard_normal(size)
    rest = rng.chisquare(setting.dim - 1, size) if setting.dim > 1 else np.zeros(size)
    radius = math.sqrt(float(sigma_star)) * rng.standard_normal(size)
    return radius * first / np.sqrt(first * first + rest)


def _needs_positive_epsilon(what: str):
    def check(setting: Setting) -> Validity:
        if setting.epsilon <= 0:
            return Validity(
                False, f"{what} needs ε > 0 (ε appears in a denominator); at ε = 0 use the analytic Gaussian."
            )
        return _ALWAYS

    return check


# --- Isotropic Gaussian noise: shared by every Gaussian calibration ---------------------------


def _gaussian_mechanism(
    mechanism_id: str,
    name: str,
    short_name: str,
    source: str,
    guarantee: str,
    sigma_function,
    validity,
    *,
    is_default: bool = False,
    featured: bool = False,
    notes: str = "",
    releases_histograms: bool = False,
    calibration: str | None = None,
) -> Mechanism:
    """A mechanism that adds N(0, σ² I_d) noise, σ calibrated by ``sigma_function(ε, δ, Δ₂)``.

    ``calibration``: the rule σ comes from when another entry can share it (:class:`NoiseLaw`); by default the id.

    ``releases_histograms``: offered in the denoising lab (σ at the neighbour model's Δ₂).
    """
    return Mechanism(
        id=mechanism_id,
        name=name,
        short_name=short_name,
        source=source,
        guarantee=guarantee,
        scale_symbol="σ",
        color=_COLORS[mechanism_id],
        family="gaussian",
        validity=validity,
        noise_validity=lambda s: _ALWAYS,  # N(0, σ²I) is exact for any change of l2 norm Δ
        scale=lambda s: sigma_function(s.epsilon, s.delta, s.sensitivity),
        scale_over_epsilon=lambda epsilons, s: sigma_function(epsilons, s.delta, s.sensitivity),
        coordinate_std=lambda sigma, s: float(sigma),
        expected_loss=lambda sigma, s: _total_variance(s.dim, 1.0, sigma),
        sample=lambda rng, size, sigma, s: rng.normal(0.0, sigma, size=(size, s.dim)),
        pdf=lambda x, sigma, s: stats.norm.pdf(x, scale=sigma),
        tail=lambda t, sigma, s: gaussian.gaussian_coordinate_tail(t, sigma),
        norm_tail=lambda t, sigma, s: gaussian.gaussian_norm_tail(t, sigma, s.dim),
        privacy_profile=lambda eps, sigma, s: gaussian.gaussian_delta(eps, sigma, s.sensitivity),
        log_tail=lambda t, sigma, s: gaussian.gaussian_log_coordinate_tail(t, sigma),
        coordinate_quantile=lambda alpha, sigma, s: quantiles.gaussian_coordinate_quantile(alpha, sigma),
        log_norm_tail=lambda t, sigma, s: _log_probability(gaussian.gaussian_norm_tail(t, sigma, s.dim)),
        norm_quantile=lambda alpha, sigma, s: quantiles.gaussian_norm_quantile(alpha, sigma, s.dim),
        coordinate_sample=lambda rng, size, sigma, s: rng.normal(0.0, sigma, size=size),
        loss_summary=lambda sigma, s, levels=loss.DEFAULT_LEVELS, n_samples=0: loss.gaussian_loss_summary(
            sigma, s.dim, levels
        ),
        histogram=_gaussian_histogram(sigma_function) if releases_histograms else None,
        is_default=is_default,
        featured=featured,
        notes=notes,
        noise_law=lambda s: NoiseLaw("Gaussian", calibration or mechanism_id),
    )


def _classical_validity(setting: Setting) -> Validity:
    if not 0 < setting.epsilon < 1:
        return Validity(
            False,
            "Not a theorem here: Dwork & Roth's bound is proved only for 0 < ε < 1. "
            "Use the analytic Gaussian, which is exact for every ε.",
        )
    return _ALWAYS


# --- Laplace and the generalized Gaussian ------------------------------------------------------


def _gg_validity(setting: Setting, what: str) -> Validity:
    """Liu's GG calibrations here use the exact 1-D privacy loss (docs/math.md sections 5.4-5.5).

    That is exact in d dimensions when a neighbour changes one coordinate, and for p = 2 (the
    Gaussian, rotation invariant) under any change of l2 norm Δ; for other p with every coordinate
    changing, no exact calibration is known, so we refuse rather than guess.
    """
    if setting.dim == 1 or setting.l1_model == "one_coordinate" or setting.order == 2.0:
        return _ALWAYS
    return Validity(
        False,
        f"{what} is calibrated on one coordinate; with every coordinate changing and p ≠ 2 there is "
        "no exact calibration. Choose 'one coordinate changes', p = 2, or the Laplace mechanism.",
    )


def _generalized_validity(setting: Setting) -> Validity:
    return _gg_validity(setting, "The generalized Gaussian")


def _generalized_pdp_validity(setting: Setting) -> Validity:
    if setting.epsilon <= 0:
        return Validity(False, "Probabilistic DP needs ε > 0.")
    return _gg_validity(setting, "The generalized Gaussian (pDP)")


def _laplace_validity(setting: Setting) -> Validity:
    if setting.epsilon <= 0:
        return Validity(False, "No finite Laplace noise gives ε = 0; pure ε-DP needs ε > 0.")
    return _ALWAYS


# The calibrations two entries can share (NoiseLaw.calibration): the same rule on the same Δ.
_EXACT_PROFILE = "the exact (ε, δ)-DP profile"
_LIU_PDP = "Liu's (ε, δ)-probabilistic DP condition"


def _pure_laplace(l1_sensitivity: float) -> str:
    return f"pure ε-DP, b = Δ₁/ε with Δ₁ = {l1_sensitivity!r}"


def _gg_law(scale_guarantee: str):
    """GG(p)'s noise at a setting: Laplace noise at p = 1, Gaussian noise at p = 2 (docs/math.md sections 5.4, 5.5)."""

    def law(setting: Setting) -> NoiseLaw:
        if setting.order == 1.0:
            name = "Laplace"
            calibration = _pure_laplace(setting.sensitivity) if scale_guarantee == "probabilistic" else _EXACT_PROFILE
        elif setting.order == 2.0:
            name, calibration = "Gaussian", (_LIU_PDP if scale_guarantee == "probabilistic" else _EXACT_PROFILE)
        else:
            name, calibration = (
                f"GG(p = {setting.order:g})",
                (_LIU_PDP if scale_guarantee == "probabilistic" else _EXACT_PROFILE),
            )
        return NoiseLaw(name, calibration)

    return law


def _gg_mechanism(
    mechanism_id,
    name,
    short_name,
    source,
    guarantee_kind,
    scale_guarantee,
    validity,
    featured,
    notes="",
    histogram=None,
):
    unit_variance = _last_call_remembered(lambda p: float(generalized.gg_variance(1.0, p)))  # Γ(3/p)/Γ(1/p)
    return Mechanism(
        id=mechanism_id,
        name=name,
        short_name=short_name,
        source=source,
        guarantee=guarantee_kind,
        scale_symbol="b",
        color=_COLORS[mechanism_id],
        family="generalized_gaussian",
        validity=validity,
        noise_validity=lambda s: _gg_validity(s, name),
        scale=lambda s: generalized.generalized_gaussian_scale(
            s.epsilon, s.delta, s.sensitivity, s.order, guarantee=scale_guarantee
        ),
        scale_over_epsilon=lambda epsilons, s: generalized.generalized_gaussian_scale(
            epsilons, s.delta, s.sensitivity, s.order, guarantee=scale_guarantee
        ),
        coordinate_std=lambda b, s: float(b) * math.sqrt(unit_variance(float(s.order))),
        expected_loss=lambda b, s: _total_variance(s.dim, unit_variance(float(s.order)), b),
        sample=lambda rng, size, b, s: generalized.gg_sample(rng, (size, s.dim), b, s.order),
        pdf=lambda x, b, s: generalized.gg_pdf(x, b, s.order),
        tail=lambda t, b, s: generalized.gg_tail(t, b, s.order),
        norm_tail=None,
        privacy_profile=lambda eps, b, s: generalized.generalized_gaussian_delta(eps, b, s.sensitivity, s.order),
        log_tail=lambda t, b, s: generalized.gg_log_tail(t, b, s.order),
        coordinate_quantile=lambda alpha, b, s: quantiles.gg_coordinate_quantile(alpha, b, s.order),
        log_norm_tail=None,
        coordinate_sample=lambda rng, size, b, s: np.asarray(generalized.gg_sample(rng, size, b, s.order), dtype=float),
        loss_summary=_iid_loss_summary("generalized_gaussian", lambda s: s.order),
        uses_order=True,
        histogram=histogram,
        featured=featured,
        notes=notes,
        noise_law=_gg_law(scale_guarantee),
    )


# --- Multivariate: MVG (i.i.d. form) and R1SMG -------------------------------------------------


def _mvg_validity(setting: Setting) -> Validity:
    if setting.epsilon <= 0:
        return Validity(False, "The MVG condition needs ε > 0.")
    return _mvg_noise_validity(setting)


def _mvg_noise_validity(setting: Setting) -> Validity:
    rows, cols = setting.matrix_shape
    if rows * cols != setting.dim:
        return Validity(False, f"The matrix shape {rows}×{cols} has {rows * cols} entries, not d = {setting.dim}.")
    if setting.matrix_gamma < setting.sensitivity / 2:
        return Validity(False, "γ bounds ‖f(X)‖_F, so it cannot be below Δ/2; raise γ.")
    return _ALWAYS


def _mvg_std(setting: Setting) -> float:
    rows, cols = setting.matrix_shape
    return multivariate.mvg_iid_std(
        setting.epsilon, setting.delta, setting.sensitivity, rows, cols, setting.matrix_gamma
    )


def _mvg_std_against_dim(settings) -> np.ndarray:
    """:func:`_mvg_std` at settings that differ only in the matrix shape, in one vectorized call."""
    first = settings[0]
    shapes = np.array([s.matrix_shape for s in settings], dtype=np.int64).reshape(-1, 2)
    return np.asarray(
        multivariate.mvg_iid_std(
            first.epsilon, first.delta, first.sensitivity, shapes[:, 0], shapes[:, 1], first.matrix_gamma
        ),
        dtype=np.float64,
    )


def _r1smg_sigma_star_against_dim(settings) -> np.ndarray:
    """R1SMG's σ* at settings that differ only in d, in one vectorized call."""
    first = settings[0]
    dims = np.array([s.dim for s in settings], dtype=np.int64)
    return np.asarray(
        multivariate.r1smg_sigma_star(first.epsilon, first.delta, first.sensitivity, dims), dtype=np.float64
    )


def _r1smg_noise_validity(setting: Setting) -> Validity:
    if setting.dim < 3:
        return Validity(False, "R1SMG is defined only for d ≥ 3 (ψ has exponent 2/(d − 2)).")
    return _ALWAYS


def _r1smg_validity(setting: Setting) -> Validity:
    if not _r1smg_noise_validity(setting).valid:
        return _r1smg_noise_validity(setting)
    if setting.epsilon <= 0:
        return Validity(False, "R1SMG's σ* = 2Δ²/(εψ) needs ε > 0.")
    return _ALWAYS


# --- Liu's GG mechanisms for bounded data (pure ε-DP) --------------------------------------------


BOUNDED_DATA_NOTE = (
    "Unbounded GG noise with p > 1 is never pure ε-DP (Liu, Claim 4): the privacy loss "
    "(|e + Δ|^p − |e|^p)/b^p grows without limit as the noise e grows. When the data are known to lie "
    "in [a, b], the release can be kept in [a, b] too, which bounds the loss by (W^p − (W − Δ)^p)/b^p "
    "(W = b − a), so pure ε-DP holds for every p ≥ 1 (docs/math.md section 5.6). Shown for a true value at the middle "
    "of [a, b]."
)


def _bounded_validity(setting: Setting, what: str) -> Validity:
    if setting.epsilon <= 0:
        return Validity(False, f"{what} gives pure ε-DP only for ε > 0.")
    return _bounded_noise_validity(setting, what)


def _bounded_noise_validity(setting: Setting, what: str) -> Validity:
    if setting.order > generalized.ORDER_RANGE[1]:
        return Validity(False, f"{what} is implemented for p in [1, {generalized.ORDER_RANGE[1]:g}].")
    if setting.sensitivity > setting.data_width:
        return Validity(
            False,
            f"Δ = {setting.sensitivity:g} exceeds the width W = {setting.data_width:g} of the data bounds "
            f"[{setting.data_lower:g}, {setting.data_upper:g}]: no query on data in [a, b] moves further. "
            "Widen the bounds or lower Δ.",
        )
    if setting.sensitivity < _SMALLEST_NORMAL * setting.data_width:
        return Validity(
            False,
            f"Δ = {setting.sensitivity:g} is below 2.2e-308 × the width W = {setting.data_width:g}: "
            f"the kernel 1 − (1 − Δ/W)^p of {what} underflows in double precision. Raise Δ or narrow the bounds.",
        )
    if setting.dim > 1 and setting.l1_model != "one_coordinate":
        return Validity(
            False,
            f"{what} is calibrated per coordinate; with every coordinate changing there is no exact calibration "
            "here. Choose 'one coordinate changes'.",
        )
    return _ALWAYS


def _bounded_mechanism(
    mechanism_id,
    name,
    short_name,
    source,
    family,
    scale_function,
    epsilon_of,
    pdf,
    tail,
    moment,
    sampler,
    notes,
    atoms=None,
    quantile=None,
):
    """A bounded-data GG mechanism; its noise is shown at the middle of the bounds, on [-h, h].

    ``atoms`` (the BIT noise's masses at ±h) also says which noise this is: without them, the
    truncated one (for the closed-form quantiles of |e|).
    """
    truncated = atoms is None

    def half(s):
        return bounded.half_width(s.data_lower, s.data_upper)

    def scale(s):
        return scale_function(s.epsilon, s.sensitivity, s.order, s.data_lower, s.data_upper)

    variance_at = _last_call_remembered(
        lambda b, p, lower, upper: float(moment(2.0, b, p, bounded.half_width(lower, upper)))
    )

    def variance(b, s):
        return variance_at(float(b), float(s.order), float(s.data_lower), float(s.data_upper))

    def exact_at_one(summary, b, s, second_moment):
        # d = 1: the loss is e², whose quantiles are squares of |e|'s, found exactly on its tail.
        h = half(s)
        levels = tuple(summary.quantiles)
        wanted = levels + (0.5,)
        # Closed forms (bounded._abs_noise_quantiles); a root search on the tail where they underflow.
        closed = bounded._abs_noise_quantiles(np.array(wanted), float(b), float(s.order), h, truncated)

        def root_searched(q):
            log_tail = lambda t: _log_probability(tail(t, b, s.order, h))  # noqa: E731
            return float(tails.tail_quantile(log_tail, 1.0 - q, math.sqrt(second_moment)))

        values = [
            min((t if math.isfinite(t) else root_searched(q)) ** 2, h**2) for q, t in zip(wanted, closed.tolist())
        ]
        return dataclasses.replace(
            summary,
            quantiles=dict(zip(levels, values[:-1])),
            median=values[-1],
            exact=True,
            method=f"{short_name}: exact (moments and quantiles of |e| in closed form)",
        )

    def loss_summary_against_dim(b, s, dims, levels=loss.DEFAULT_LEVELS, n_samples=0):
        # The four moments do not read d: found once for every d of the sweep.
        h = half(s)
        moments = [float(value) for value in np.asarray(moment(np.array([2.0, 4.0, 6.0, 8.0]), b, s.order, h))]
        summaries = loss._iid_loss_summaries_from_moments(moments, dims, levels, largest=h**2, name=short_name)
        return [
            exact_at_one(summary, b, s, moments[0]) if int(dim) == 1 else summary
            for dim, summary in zip(dims, summaries)
        ]

    def loss_summary(b, s, levels=loss.DEFAULT_LEVELS, n_samples=0):
        return loss_summary_against_dim(b, s, (int(s.dim),), levels, n_samples)[0]

    return Mechanism(
        id=mechanism_id,
        name=name,
        short_name=short_name,
        source=source,
        guarantee="pure",
        scale_symbol="b",
        color=_COLORS[mechanism_id],
        family=family,
        validity=lambda s: _bounded_validity(s, name),
        noise_validity=lambda s: _bounded_noise_validity(s, name),
        scale=scale,
        scale_over_epsilon=lambda epsilons, s: scale_function(
            epsilons, s.sensitivity, s.order, s.data_lower, s.data_upper
        ),
        coordinate_std=lambda b, s: math.sqrt(variance(b, s)),
        expected_loss=lambda b, s: _dim_times(s.dim, variance(b, s)),
        sample=lambda rng, size, b, s: sampler(rng, (size, s.dim), b, s.order, half(s)),
        coordinate_sample=lambda rng, size, b, s: sampler(rng, size, b, s.order, half(s)),
        pdf=lambda x, b, s: pdf(x, b, s.order, half(s)),
        tail=lambda t, b, s: tail(t, b, s.order, half(s)),
        log_tail=lambda t, b, s: _log_probability(tail(t, b, s.order, half(s))),
        coordinate_quantile=None if quantile is None else (lambda alpha, b, s: quantile(alpha, b, s.order, half(s))),
        norm_tail=None,
        log_norm_tail=None,
        loss_summary=loss_summary,
        loss_summary_against_dim=loss_summary_against_dim,
        # Every ε₀-DP mechanism has δ(ε) <= (e^ε₀ − e^ε)₊/(1 + e^ε₀); ε₀ is the mechanism's proven ε at b.
        privacy_profile=lambda eps, b, s: bounded.pure_dp_delta_bound(eps, epsilon_of(b, s)),
        uses_delta=False,
        uses_order=True,
        uses_bounds=True,
        profile_is_exact=False,
        featured=True,
        notes=notes,
        atoms=None if atoms is None else (lambda b, s: atoms(b, s.order, half(s))),
    )


def _truncated_sampler(rng, size, b, order, h):
    return bounded.truncated_noise_sample(rng, size, b, order, h)


def _clamped_sampler(rng, size, b, order, h):
    return bounded.clamped_noise_sample(rng, size, b, order, h)


# --- The discrete Gaussian (Canonne, Kamath & Steinke 2020), for integer queries --------------------


@functools.lru_cache(maxsize=512)
def _discrete_calibration(
    epsilon: float, delta: float, sensitivity: int, neighbours: str
) -> discrete_gaussian.LatticeCalibration:
    """The discrete Gaussian's two answers at one setting, remembered (docs/math.md section 9.7).

    The entry's validity check (at large ε), its scale and its smallest private scale all read
    them, and a page asks for the scale (its table) and the smallest private scale (its note on
    rounding up) on every new setting. The safe σ is a root search on the lattice sums and a
    certified scan up to the zCDP σ; :func:`~.discrete_gaussian.discrete_gaussian_smallest_sigma`
    computes it exactly as :func:`~.discrete_gaussian.discrete_gaussian_sigma` does (the same
    steps on the same values), so one call serves both, and the scan runs once per setting.
    Every caller passes all four arguments by position: the remembered calls are keyed as written,
    so a relation left to a default would be a second entry for the same answer.
    """
    return discrete_gaussian.discrete_gaussian_smallest_sigma(epsilon, delta, sensitivity, neighbours=neighbours)


def _plain_number(value) -> bool:
    """A Python (or numpy) float or int, not a bool: a value :func:`_discrete_calibration` can remember."""
    return isinstance(value, (float, int)) and not isinstance(value, bool)


def _discrete_sigma(epsilon: float, delta: float, sensitivity: int) -> float:
    """The discrete Gaussian's safe σ at one setting (:func:`_discrete_calibration`, remembered)."""
    return _discrete_calibration(epsilon, delta, sensitivity, "add_remove").safe_sigma


def _discrete_noise_is_visible(epsilon: float, delta: float, sensitivity: float) -> bool:
    """True when the exact σ at (ε, δ, Δ) provably has a variance far above 0 in float64, without
    the root search (docs/math.md section 9.6, "a lower bound on σ").

    Every σ ≤ σ₀ = Δ/√(2(ε + ln 2)) fails (ε, δ) whenever δ < ½(1 − q)/(1 + q), q = e^{−(ε + ln 2)/Δ²}:
    the profile's term at x = 0 alone is P(0)(1 − e^{ε − Δ²/2σ²}) ≥ P(0)/2 there, and
    P(0) = 1/Σ_k q_σ^{k²} ≥ (1 − q_σ)/(1 + q_σ) with q_σ ≤ q. So the exact σ exceeds σ₀, and as the
    variance grows with σ, a variance at σ₀ well inside the doubles (> 1e-300) holds at σ too.
    """
    rate = (epsilon + math.log(2.0)) / (sensitivity * sensitivity)
    q = math.exp(-rate)
    if not delta < 0.5 * (1.0 - q) / (1.0 + q):
        return False
    sigma_floor = 1.0 / math.sqrt(2.0 * rate)  # Δ/√(2(ε + ln 2))
    return float(discrete_gaussian.discrete_gaussian_variance(sigma_floor)) > 1e-300


def _discrete_validity(setting: Setting) -> Validity:
    noise = _discrete_noise_validity(setting)
    if not noise.valid:
        return noise
    # At large ε/Δ the exact σ is so small that the noise is the point mass at 0 in float64.
    if setting.epsilon >= 10.0 * setting.sensitivity and not _discrete_noise_is_visible(
        setting.epsilon, setting.delta, setting.sensitivity
    ):
        sigma = _discrete_sigma(setting.epsilon, setting.delta, int(setting.sensitivity))
        if float(discrete_gaussian.discrete_gaussian_variance(sigma)) > 0:
            return _ALWAYS
        return Validity(
            False,
            f"At ε = {setting.epsilon:g} the discrete Gaussian's noise is 0 to float precision (σ = {sigma:.3g}): "
            "it adds no noise that a page could show. Choose a smaller ε.",
        )
    return _ALWAYS


def _discrete_noise_validity(setting: Setting) -> Validity:
    """Where the exact profile of N_Z(0, σ²) holds, whatever ε and δ: a whole Δ, one changed count."""
    if setting.sensitivity > discrete_gaussian.MAX_INTEGER_SENSITIVITY:
        return Validity(
            False,
            f"The discrete Gaussian's exact forms need a whole-number Δ up to 2^52 (where doubles still hold "
            f"every integer); got Δ = {setting.sensitivity:g}.",
        )
    if setting.sensitivity != math.floor(setting.sensitivity):
        return Validity(
            False,
            f"The discrete Gaussian adds integer noise to an integer query, so Δ must be a whole number; "
            f"got Δ = {setting.sensitivity:g}.",
        )
    if setting.dim > 1 and setting.l1_model != "one_coordinate":
        return Validity(
            False,
            "The exact discrete Gaussian calibration here is for one changed coordinate (CKS Theorem 7); "
            "choose 'one coordinate changes' (for a general l2 sensitivity only the zCDP bound is known).",
        )
    return _ALWAYS


def _discrete_histogram_relation(model) -> tuple[int, str]:
    """(Δ, relation) of a histogram query for the discrete Gaussian: one bin changes by a whole Δ
    (add/remove) or one record of weight Δ moves between two bins (replace)."""
    c = model.coordinate_sensitivity
    if c != math.floor(c) or model.changed_coordinates > 2:
        raise ValueError(
            "the discrete Gaussian needs integer counts that change by whole numbers in one or two bins; "
            f"this query changes {model.changed_coordinates} coordinates by {c:g}"
        )
    return int(c), "add_remove" if model.changed_coordinates == 1 else "replace"


def _discrete_histogram_calibration(epsilon, delta, model, order) -> HistogramCalibration:
    """Exact σ for integer counts: one bin changes (add/remove) or one record moves between two (replace)."""
    sensitivity, relation = _discrete_histogram_relation(model)
    if _plain_number(epsilon) and _plain_number(delta):  # one setting: the remembered answer, as the note's
        sigma = np.asarray(_discrete_calibration(epsilon, delta, sensitivity, relation).safe_sigma, dtype=float)
    else:
        sigma = np.asarray(
            discrete_gaussian.discrete_gaussian_sigma(epsilon, delta, sensitivity, neighbours=relation), dtype=float
        )
    std = np.sqrt(np.asarray(discrete_gaussian.discrete_gaussian_variance(sigma), dtype=float))
    note = "exact (CKS Theorem 7)" if relation == "add_remove" else "exact: one record moves between two bins"
    return HistogramCalibration(sigma, std, model.l2_sensitivity, "Δ₂", 2.0, note)


def _discrete_histogram_smallest_sigma(epsilon, delta, model, order):
    """The smallest private σ and the safe σ of the histogram release, for the same relation as
    :func:`_discrete_histogram_calibration` (docs/math.md section 9.7)."""
    sensitivity, relation = _discrete_histogram_relation(model)
    return _discrete_calibration(epsilon, delta, sensitivity, relation)


def _discrete_gaussian_mechanism() -> Mechanism:
    """Integer noise N_Z(0, σ²) per coordinate, σ the exact calibration (gaussmech_core.discrete_gaussian)."""
    variance = _last_call_remembered(lambda sigma: float(discrete_gaussian.discrete_gaussian_variance(sigma)))

    def sigma_at(epsilons, s):
        return discrete_gaussian.discrete_gaussian_sigma(epsilons, s.delta, int(s.sensitivity))

    def scale(s):
        sigma = _discrete_sigma(s.epsilon, s.delta, int(s.sensitivity))
        if not float(discrete_gaussian.discrete_gaussian_variance(sigma)) > 0:  # the point mass at 0, in float64
            raise ValueError(
                f"at ε = {s.epsilon:g} the discrete Gaussian's noise is 0 to float precision (σ = {sigma:.3g}): it adds no noise "
                "(its privacy comes from the lattice alone); choose a smaller ε to see its noise"
            )
        return sigma

    return Mechanism(
        id="discrete_gaussian",
        name="Discrete Gaussian",
        short_name="DGM",
        source="Canonne, Kamath & Steinke 2020, Theorem 7 (exact calibration for integer queries)",
        guarantee="approximate",
        scale_symbol="σ",
        color=_COLORS["discrete_gaussian"],
        family="discrete_gaussian",
        validity=_discrete_validity,
        noise_validity=_discrete_noise_validity,
        smallest_private_scale=lambda s: _discrete_calibration(s.epsilon, s.delta, int(s.sensitivity), "add_remove"),
        scale=scale,
        scale_over_epsilon=sigma_at,
        coordinate_std=lambda sigma, s: math.sqrt(variance(float(sigma))),
        expected_loss=lambda sigma, s: _dim_times(s.dim, variance(float(sigma))),
        sample=lambda rng, size, sigma, s: np.asarray(
            discrete_gaussian.discrete_gaussian_sample(rng, (size, s.dim), sigma), dtype=float
        ),
        coordinate_sample=lambda rng, size, sigma, s: np.asarray(
            discrete_gaussian.discrete_gaussian_sample(rng, size, sigma), dtype=float
        ),
        pdf=lambda x, sigma, s: discrete_gaussian.discrete_gaussian_pmf(x, sigma),
        tail=lambda t, sigma, s: discrete_gaussian.discrete_gaussian_tail(t, sigma),
        log_tail=lambda t, sigma, s: discrete_gaussian.discrete_gaussian_log_tail(t, sigma),
        coordinate_quantile=lambda alpha, sigma, s: quantiles.discrete_gaussian_coordinate_quantile(alpha, sigma),
        norm_tail=None,
        log_norm_tail=None,
        loss_summary=lambda sigma, s, levels=loss.DEFAULT_LEVELS, n_samples=100_000: (
            discrete_gaussian.discrete_gaussian_loss_summary(sigma, s.dim, levels, n_samples)
        ),
        loss_summary_against_dim=lambda sigma, s, dims, levels=loss.DEFAULT_LEVELS, n_samples=100_000: (
            discrete_gaussian._discrete_gaussian_loss_summaries(sigma, dims, levels, n_samples)
        ),
        # Δ as given (never int(Δ)): discrete_gaussian refuses a Δ that is not whole.
        privacy_profile=lambda eps, sigma, s: discrete_gaussian.discrete_gaussian_delta(eps, sigma, s.sensitivity),
        privacy_profile_over=lambda eps, low, high, s: discrete_gaussian.discrete_gaussian_delta_over(
            eps, low, high, s.sensitivity
        ),
        sensitivity_norm="integer_l2",
        support="integer",
        histogram=HistogramRelease(
            calibrate=_discrete_histogram_calibration,
            sample=lambda rng, shape, sigma, order: np.asarray(
                discrete_gaussian.discrete_gaussian_sample(rng, shape, sigma), dtype=float
            ),
            scale_family=False,
            smallest_private_scale=_discrete_histogram_smallest_sigma,
        ),
        featured=True,
        notes="Integer noise for integer queries (counts): σ is exact, its variance slightly below σ².",
    )


def _build_registry() -> dict[str, Mechanism]:
    mechanisms = [
        _gaussian_mechanism(
            "analytic_gaussian",
            "Analytic Gaussian",
            "aGM",
            "Balle & Wang 2018, Theorem 8 (exact calibration)",
            "approximate",
            gaussian.analytic_gaussian_sigma,
            lambda s: _ALWAYS,
            is_default=True,
            featured=True,
            releases_histograms=True,
            calibration=_EXACT_PROFILE,
        ),
        _gaussian_mechanism(
            "classical_gaussian",
            "Classical Gaussian",
            "cGM",
            "Dwork & Roth 2014, Theorem A.1 (Balle & Wang, Theorem 1)",
            "approximate",
            gaussian.classical_gaussian_sigma,
            _classical_validity,
            featured=True,
            releases_histograms=True,
        ),
        _gaussian_mechanism(
            "gaussian_tail_bound",
            "Gaussian, tail bound P[L ≥ ε] ≤ δ",
            "tail",
            "Balle & Wang 2018, eq. (2) (sufficient condition)",
            "approximate",
            gaussian.tail_bound_gaussian_sigma,
            _needs_positive_epsilon("The tail bound"),
        ),
        _gaussian_mechanism(
            "gaussian_pdp",
            "Gaussian, probabilistic DP",
            "G-pDP",
            "Liu, Lemma 10 (docs/math.md section 5.3)",
            "probabilistic",
            gaussian.pdp_gaussian_sigma,
            _needs_positive_epsilon("Lemma 10"),
            calibration=_LIU_PDP,
        ),
        _gaussian_mechanism(
            "gaussian_zcdp_bs",
            "Gaussian via zCDP (Bun–Steinke)",
            "zCDP-BS",
            "Bun & Steinke 2016, ρ = Δ²/(2σ²) and Prop. 1.3",
            "approximate",
            gaussian.zcdp_bun_steinke_sigma,
            _needs_positive_epsilon("The zCDP conversion"),
        ),
        _gaussian_mechanism(
            "gaussian_zcdp_cks",
            "Gaussian via zCDP (Canonne–Kamath–Steinke)",
            "zCDP-CKS",
            "Canonne, Kamath & Steinke 2020, Cor. 13",
            "approximate",
            gaussian.zcdp_cks_sigma,
            _needs_positive_epsilon("The zCDP conversion"),
        ),
        _gaussian_mechanism(
            "gaussian_vinterbo",
            "Gaussian, Vinterbo's closed form",
            "Vinterbo",
            "Vinterbo 2022, arXiv:2012.10523",
            "approximate",
            gaussian.vinterbo_gaussian_sigma,
            _needs_positive_epsilon("Vinterbo's bound"),
        ),
        Mechanism(
            id="laplace",
            name="Laplace",
            short_name="Lap",
            source="Dwork, McSherry, Nissim & Smith 2006 (Liu, Claim 4 with p = 1)",
            guarantee="pure",
            scale_symbol="b",
            color=_COLORS["laplace"],
            family="laplace",
            validity=_laplace_validity,
            noise_validity=lambda s: _ALWAYS,
            scale=lambda s: laplace.laplace_scale(s.epsilon, s.l1_sensitivity),
            scale_over_epsilon=lambda epsilons, s: laplace.laplace_scale(epsilons, s.l1_sensitivity),
            coordinate_std=lambda b, s: math.sqrt(2.0) * float(b),
            expected_loss=lambda b, s: _total_variance(s.dim, 2.0, b),
            sample=lambda rng, size, b, s: laplace.laplace_sample(rng, (size, s.dim), b),
            pdf=lambda x, b, s: laplace.laplace_pdf(x, b),
            tail=lambda t, b, s: laplace.laplace_tail(t, b),
            norm_tail=None,
            privacy_profile=lambda eps, b, s: laplace.laplace_delta(eps, b, s.l1_sensitivity),
            log_tail=lambda t, b, s: laplace.laplace_log_tail(t, b),
            coordinate_quantile=lambda alpha, b, s: quantiles.laplace_coordinate_quantile(alpha, b),
            log_norm_tail=None,
            coordinate_sample=lambda rng, size, b, s: np.asarray(laplace.laplace_sample(rng, size, b), dtype=float),
            loss_summary=_iid_loss_summary("laplace", lambda s: 1.0),
            sensitivity_norm="l1",
            uses_delta=False,
            scale_depends_on_dim=True,  # through Δ₁ = √d Δ₂ when every coordinate may change
            histogram=_LAPLACE_HISTOGRAM,
            featured=True,
            notes="Calibrated to the l1 sensitivity Δ₁ implied by the neighbour model.",
            noise_law=lambda s: NoiseLaw("Laplace", _pure_laplace(s.l1_sensitivity)),
        ),
        _gg_mechanism(
            "generalized_gaussian",
            "Generalized Gaussian GG(p)",
            "GG",
            "Liu, GG mechanism; exact (ε, δ) profile of docs/math.md section 5.5",
            "approximate",
            "approximate",
            _generalized_validity,
            featured=True,
            histogram=_GG_HISTOGRAM,
        ),
        _gg_mechanism(
            "generalized_gaussian_pdp",
            "Generalized Gaussian GG(p), probabilistic DP",
            "GG-pDP",
            "Liu, Corollary 7 (reconstructed, docs/math.md section 5.4)",
            "probabilistic",
            "probabilistic",
            _generalized_pdp_validity,
            featured=False,
            notes="Corollary 7 (reconstructed): Liu's text was not readable; see docs/math.md section 5.4.",
        ),
        Mechanism(
            id="mvg_iid",
            name="Matrix-variate Gaussian (i.i.d. form)",
            short_name="MVG",
            source="Chanyaswad et al. 2018, Theorem 2 (docs/math.md section 7.2)",
            guarantee="approximate",
            scale_symbol="s",
            color=_COLORS["mvg_iid"],
            family="gaussian",
            validity=_mvg_validity,
            noise_validity=_mvg_noise_validity,
            scale=_mvg_std,
            scale_against_dim=_mvg_std_against_dim,
            scale_over_epsilon=lambda epsilons, s: multivariate.mvg_iid_std(
                epsilons, s.delta, s.sensitivity, *s.matrix_shape, s.matrix_gamma
            ),
            coordinate_std=lambda std, s: float(std),
            expected_loss=lambda std, s: _total_variance(s.matrix_shape[0] * s.matrix_shape[1], 1.0, std),
            sample=lambda rng, size, std, s: rng.normal(0.0, std, size=(size, s.dim)),
            pdf=lambda x, std, s: stats.norm.pdf(x, scale=std),
            tail=lambda t, std, s: gaussian.gaussian_coordinate_tail(t, std),
            norm_tail=lambda t, std, s: gaussian.gaussian_norm_tail(t, std, s.dim),
            privacy_profile=lambda eps, std, s: gaussian.gaussian_delta(eps, std, s.sensitivity),
            log_tail=lambda t, std, s: gaussian.gaussian_log_coordinate_tail(t, std),
            coordinate_quantile=lambda alpha, std, s: quantiles.gaussian_coordinate_quantile(alpha, std),
            log_norm_tail=lambda t, std, s: _log_probability(gaussian.gaussian_norm_tail(t, std, s.dim)),
            norm_quantile=lambda alpha, std, s: quantiles.gaussian_norm_quantile(alpha, std, s.dim),
            coordinate_sample=lambda rng, size, std, s: rng.normal(0.0, std, size=size),
            loss_summary=lambda std, s, levels=loss.DEFAULT_LEVELS, n_samples=0: loss.mvg_iid_loss_summary(
                std, s.matrix_shape[0], s.matrix_shape[1], levels
            ),
            scale_depends_on_dim=True,  # through the matrix shape
            matrix_valued=True,
            featured=True,
            notes="γ (a bound on ‖f(X)‖_F) and the matrix shape are settings of their own.",
        ),
        Mechanism(
            id="r1smg",
            name="Rank-1 singular multivariate Gaussian (claimed)",
            short_name="R1SMG",
            source="Ji & Li 2024 (USENIX Security), as published; see docs/math.md section 6.2",
            guarantee="claimed",
            scale_symbol="σ*",
            color=_COLORS["r1smg"],
            family="r1smg",
            validity=_r1smg_validity,
            noise_validity=_r1smg_noise_validity,
            scale=lambda s: multivariate.r1smg_sigma_star(s.epsilon, s.delta, s.sensitivity, s.dim),
            scale_against_dim=_r1smg_sigma_star_against_dim,
            scale_over_epsilon=lambda epsilons, s: multivariate.r1smg_sigma_star(
                epsilons, s.delta, s.sensitivity, s.dim
            ),
            coordinate_std=lambda sigma_star, s: math.sqrt(float(sigma_star) / s.dim),
            expected_loss=lambda sigma_star, s: float(sigma_star),
            sample=lambda rng, size, sigma_star, s: multivariate.r1smg_sample(rng, size, sigma_star, s.dim),
            pdf=lambda x, sigma_star, s: multivariate.r1smg_coordinate_pdf(x, sigma_star, s.dim),
            tail=lambda t, sigma_star, s: multivariate.r1smg_coordinate_tail(t, sigma_star, s.dim),
            norm_tail=lambda t, sigma_star, s: multivariate.r1smg_norm_tail(t, sigma_star),
            privacy_profile=lambda eps, sigma_star, s: multivariate.r1smg_true_delta(
                eps, sigma_star, s.sensitivity, s.dim
            ),
            log_tail=lambda t, sigma_star, s: _log_probability(
                multivariate.r1smg_coordinate_tail(t, sigma_star, s.dim)
            ),
            log_norm_tail=lambda t, sigma_star, s: _log_probability(multivariate.r1smg_norm_tail(t, sigma_star)),
            norm_quantile=lambda alpha, sigma_star, s: quantiles.gaussian_coordinate_quantile(
                alpha, math.sqrt(sigma_star)
            ),
            coordinate_sample=_r1smg_coordinate_sample,
            loss_summary=lambda sigma_star, s, levels=loss.DEFAULT_LEVELS, n_samples=0: loss.r1smg_loss_summary(
                sigma_star, levels
            ),
            scale_depends_on_dim=True,
            featured=True,
            notes=(
                "Claimed (ε, δ)-DP by Ji & Li; our analysis (docs/math.md section 6.2) computes the true δ(ε) of this "
                "noise, which exceeds the claimed δ from d = 4 on. Never a default."
            ),
        ),
        _bounded_mechanism(
            "truncated_gg",
            "Truncated GG(p), bounded data",
            "tGG",
            "Liu, Definition 5 and Appendix C (sufficient condition of docs/math.md section 5.6)",
            "truncated_generalized_gaussian",
            generalized.truncated_gg_scale,
            lambda b, s: bounded.truncated_gg_epsilon_bound(b, s.sensitivity, s.order, s.data_width),
            bounded.truncated_noise_pdf,
            bounded.truncated_noise_tail,
            bounded.truncated_noise_moment,
            _truncated_sampler,
            "Pure ε-DP for data in [a, b]: the release is drawn from GG(s(x), b, p) restricted to [a, b]. "
            "Calibrated by the sufficient condition 2A(b) ≤ ε (valid, loose). " + BOUNDED_DATA_NOTE,
            quantile=quantiles.truncated_gg_coordinate_quantile,
        ),
        _bounded_mechanism(
            "bit_gg",
            "Boundary-inflated truncated GG(p), bounded data",
            "BIT-GG",
            "Liu, boundary-inflated truncation (exact ε of docs/math.md section 5.6)",
            "clamped_generalized_gaussian",
            generalized.bit_gg_scale,
            lambda b, s: generalized.bit_gg_epsilon(b, s.sensitivity, s.order, s.data_lower, s.data_upper),
            bounded.clamped_noise_pdf,
            bounded.clamped_noise_tail,
            bounded.clamped_noise_moment,
            _clamped_sampler,
            "Pure ε-DP for data in [a, b]: clamp(s(x) + e, a, b), the mass beyond a bound piled onto it (atoms, "
            "not drawn in the density). Its ε is exact (docs/math.md section 5.6). " + BOUNDED_DATA_NOTE,
            atoms=bounded.clamped_noise_atoms,
            quantile=quantiles.clamped_gg_coordinate_quantile,
        ),
        _discrete_gaussian_mechanism(),
    ]
    return {mechanism.id: mechanism for mechanism in mechanisms}


MECHANISMS: dict[str, Mechanism] = _build_registry()
DEFAULT_MECHANISM_ID = "analytic_gaussian"


@dataclass(frozen=True)
class Calibration:
    """A mechanism evaluated at one setting.

    ``scale``, ``coordinate_std`` and ``expected_loss`` are ``None`` where the guarantee does not
    hold (``validity.valid`` is False): the interface shows the reason, never a number.
    For "claimed" mechanisms ``true_delta`` is the computed δ(ε) of the noise at the setting's ε,
    and ``claim_holds`` says whether it is within the claimed δ.
    """

    mechanism: Mechanism
    setting: Setting
    validity: Validity
    scale: float | None = None
    coordinate_std: float | None = None
    expected_loss: float | None = None
    true_delta: float | None = None

    @property
    def claim_holds(self) -> bool | None:
        if self.true_delta is None:
            return None
        return self.true_delta <= self.setting.delta

    @property
    def guarantee_label(self) -> str:
        return GUARANTEE_LABELS[self.mechanism.guarantee]


def evaluate(mechanism: Mechanism | str, setting: Setting) -> Calibration:
    """Calibrate one mechanism at ``setting``; invalid settings give a Calibration without numbers.

    The scale, coordinate std and expected loss are inf where they exceed 1.8e308 (δ or ε tiny,
    Δ or d near the largest double): the true values rounded to float64.

    Examples
    --------
    >>> c = evaluate("analytic_gaussian", Setting(epsilon=1.0, delta=1e-5))
    >>> round(c.scale, 4)
    3.7306
    >>> evaluate("classical_gaussian", Setting(epsilon=2.0, delta=1e-5)).scale is None
    True
    """
    if isinstance(mechanism, str):
        mechanism = MECHANISMS[mechanism]
    validity = mechanism.validity(setting)
    if not validity.valid:
        return Calibration(mechanism, setting, validity)
    scale = float(mechanism.scale(setting))
    true_delta = None
    if mechanism.guarantee == "claimed":
        true_delta = float(mechanism.privacy_profile(np.float64(setting.epsilon), scale, setting))
    return Calibration(
        mechanism=mechanism,
        setting=setting,
        validity=validity,
        scale=scale,
        coordinate_std=float(mechanism.coordinate_std(scale, setting)),
        expected_loss=float(mechanism.expected_loss(scale, setting)),
        true_delta=true_delta,
    )


def calibrate_all(setting: Setting, *, featured_only: bool = False) -> list[Calibration]:
    """Evaluate every registered mechanism (or only the featured ones) at ``setting``.

    As :func:`evaluate`, a number is inf where it exceeds 1.8e308.
    """
    return [
        evaluate(mechanism, setting) for mechanism in MECHANISMS.values() if mechanism.featured or not featured_only
    ]


def coordinate_std_over_epsilon(mechanism: Mechanism | str, epsilons: ArrayLike, setting: Setting) -> np.ndarray:
    """Per-coordinate noise std of ``mechanism`` at every ε of an array, NaN where it is not valid.

    The other parameters come from ``setting``. Validity is checked at each ε; the scales of the
    valid ones come from one vectorized call (``scale_over_epsilon``) where the mechanism has it,
    which for root-found calibrations is far faster than one call per ε. A std is inf where it
    exceeds 1.8e308 (Δ near the largest double). ``epsilons`` (each ε ≥ 0 and finite) is checked,
    and named, before any calibration.

    Examples
    --------
    >>> stds = coordinate_std_over_epsilon("classical_gaussian", [0.5, 2.0], Setting(epsilon=1.0, delta=1e-5))
    >>> round(float(stds[0]), 4), bool(np.isnan(stds[1]))
    (9.6896, True)
    """
    if isinstance(mechanism, str):
        mechanism = MECHANISMS[mechanism]
    given = require_interval(as_float_array(epsilons, "epsilons"), "epsilons", 0.0, None)
    epsilons = np.atleast_1d(given).ravel()
    with parameter_names(epsilon="epsilons"):
        stds = _stds_over_epsilon(mechanism, epsilons, setting)
    return stds.reshape(given.shape)


def _stds_over_epsilon(mechanism: Mechanism, epsilons: np.ndarray, setting: Setting) -> np.ndarray:
    settings = [replace(setting, epsilon=float(epsilon)) for epsilon in epsilons]
    valid = np.array([mechanism.validity(s).valid for s in settings], dtype=bool)
    stds = np.full(epsilons.shape, np.nan)
    if not valid.any():
        return stds
    if mechanism.scale_over_epsilon is not None:
        scales = np.asarray(mechanism.scale_over_epsilon(epsilons[valid], setting), dtype=float)
    else:
        scales = np.array([mechanism.scale(s) for s, ok in zip(settings, valid) if ok])
    stds[valid] = [
        mechanism.coordinate_std(scale, s) for scale, s in zip(scales, (s for s, ok in zip(settings, valid) if ok))
    ]
    return stds
