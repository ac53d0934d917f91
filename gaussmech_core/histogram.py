"""Releasing a histogram with a calibrated mechanism, denoising it, and measuring the error.

The pieces of Balle & Wang's histogram experiments (2018, Sec. 5.2-5.3 and appendix B) and
Liu's count-fidelity measures, on plain numpy arrays:

* the neighbour relation fixes the sensitivities (docs/math.md section 0): one record changes one
  bin by 1 under add/remove (``Δ₁ = Δ₂ = 1``) and two bins by 1 under replace-one
  (``Δ₁ = 2``, ``Δ₂ = √2``); :class:`NeighbourModel` also covers other queries, such as
  Balle & Wang's mean estimation where every coordinate changes by ``1/n``;
* :func:`release_histogram` adds noise calibrated as the mechanism's registry entry says
  (``Mechanism.histogram``, :func:`release_mechanisms`): the entry calibrates with its family
  module (never re-derived here) at the sensitivity it needs, e.g. the Gaussians at ``Δ₂`` and
  Laplace at ``Δ₁``;
* :func:`error_metrics` (MSE, l1, KL, max error) and :func:`error_sweep` (error against ε,
  averaged over seeded repetitions with bands, for each mechanism × denoising pipeline).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
from scipy.special import rel_entr

from . import mechanisms as registry
from ._types import ArrayLike, FloatOrArray, Prior
from ._validation import as_float_array, require_choice, require_integer, require_interval
from .denoise import _apply_rows, _check_prior, check_pipeline
from .registry_types import HistogramRelease, Mechanism
from .streams import mechanism_rng

__all__ = [
    "RELATIONS",
    "NeighbourModel",
    "neighbour_model",
    "histogram_sensitivities",
    "release_mechanisms",
    "NoiseCalibration",
    "calibrate_histogram_noise",
    "Release",
    "release_histogram",
    "METRICS",
    "mse",
    "l1_distance",
    "kl_divergence",
    "max_error",
    "error_metrics",
    "improvement_factor",
    "PipelineResult",
    "evaluate_pipelines",
    "SweepResult",
    "error_sweep",
]

RELATIONS: dict[str, str] = {
    "add_remove": "Add or remove one record (one bin changes by 1)",
    "replace": "Replace one record (two bins change by 1)",
}


def release_mechanisms() -> tuple[str, ...]:
    """Ids of the registered mechanisms that can release a histogram, in registry order.

    Asked of the registry each time (``Mechanism.histogram`` is not ``None``), so a mechanism
    added to :data:`~gaussmech_core.mechanisms.MECHANISMS` is offered at once.

    Examples
    --------
    >>> release_mechanisms()[:3]
    ('analytic_gaussian', 'classical_gaussian', 'laplace')
    """
    return tuple(key for key, mechanism in registry.MECHANISMS.items() if mechanism.histogram is not None)


def _release_mechanism(mechanism_id: str) -> Mechanism:
    require_choice(mechanism_id, "mechanism", release_mechanisms())
    return registry.MECHANISMS[mechanism_id]


def _histogram_release(mechanism: Mechanism) -> HistogramRelease:
    """The entry's histogram release (:func:`_release_mechanism` checked that it has one)."""
    if mechanism.histogram is None:  # pragma: no cover  (release_mechanisms() lists only these)
        raise ValueError(f"{mechanism.name} cannot release a histogram")
    return mechanism.histogram


# Below this, a normalised estimate counts as this small in KL(p ‖ q): an estimate that puts no
# mass on an occupied bin would otherwise have infinite divergence, which ranks nothing.
KL_FLOOR = 1e-10
# A sweep processes at most this many noise values at once (rows × bins), to bound memory.
_SWEEP_CHUNK_VALUES = 2_000_000


# --- neighbour relations -------------------------------------------------------------------------


@dataclass(frozen=True)
class NeighbourModel:
    """How much a query can change between neighbouring data sets.

    Up to ``changed_coordinates`` coordinates change, each by at most
    ``coordinate_sensitivity`` in absolute value. Then ``Δ₁ = k c`` and ``Δ₂ = √k c``, and
    both are attained (docs/math.md section 0).
    """

    changed_coordinates: int
    coordinate_sensitivity: float = 1.0
    description: str = ""

    def __post_init__(self):
        object.__setattr__(
            self, "changed_coordinates", require_integer(self.changed_coordinates, "changed_coordinates", 1)
        )
        value = require_interval(
            as_float_array(self.coordinate_sensitivity, "coordinate_sensitivity"),
            "coordinate_sensitivity",
            0.0,
            None,
            lower_open=True,
        )
        object.__setattr__(self, "coordinate_sensitivity", float(value))

    @property
    def l1_sensitivity(self) -> float:
        return self.changed_coordinates * self.coordinate_sensitivity

    @property
    def l2_sensitivity(self) -> float:
        return math.sqrt(self.changed_coordinates) * self.coordinate_sensitivity


def neighbour_model(relation: str | NeighbourModel) -> NeighbourModel:
    """The :class:`NeighbourModel` of a histogram under ``relation`` ("add_remove" or "replace").

    A :class:`NeighbourModel` passed in is returned unchanged.

    Examples
    --------
    >>> neighbour_model("replace").changed_coordinates
    2
    """
    if isinstance(relation, NeighbourModel):
        return relation
    require_choice(relation, "relation", tuple(RELATIONS))
    return NeighbourModel(1 if relation == "add_remove" else 2, 1.0, RELATIONS[relation])


def histogram_sensitivities(relation: str | NeighbourModel) -> tuple[float, float]:
    """``(Δ₁, Δ₂)`` of a histogram under the neighbour relation.

    Notes
    -----
    docs/math.md section 0: one record changes one bin. Add/remove changes one bin by 1:
    ``(1, 1)``. Replace-one moves a record between two bins: ``(2, √2)``.

    Examples
    --------
    >>> histogram_sensitivities("add_remove")
    (1.0, 1.0)
    >>> histogram_sensitivities("replace")
    (2.0, 1.4142135623730951)
    """
    model = neighbour_model(relation)
    return model.l1_sensitivity, model.l2_sensitivity


# --- calibration and release -----------------------------------------------------------------------


@dataclass(frozen=True)
class NoiseCalibration:
    """The calibrated noise of one release.

    ``scale`` is the mechanism's own parameter (σ for the Gaussians, b for Laplace and GG);
    ``noise_std`` the standard deviation of one noise coordinate (what denoisers call sigma);
    ``sensitivity`` the value the calibration used, ``sensitivity_symbol`` its name ("Δ₁", "Δ₂",
    or "Δ" for one coordinate's change) and ``note`` how it was used. ``delta`` is NaN when the
    mechanism does not use δ (pure ε-DP).
    """

    mechanism: str
    epsilon: float
    delta: float
    order: float
    scale: float
    noise_std: float
    sensitivity: float
    note: str
    sensitivity_symbol: str = "Δ"


def _epsilon_value(epsilon: ArrayLike) -> float:
    array = as_float_array(epsilon, "epsilon")
    if array.ndim:
        raise TypeError(f"epsilon must be a single number here, got an array of shape {array.shape}")
    return float(require_interval(array, "epsilon", 0.0, None))


def calibrate_histogram_noise(
    mechanism: str, epsilon: float, delta: float, relation: str | NeighbourModel, order: float = 2.0
) -> NoiseCalibration:
    """Calibrate the noise of ``mechanism`` for a query whose neighbours differ as in ``relation``.

    Parameters
    ----------
    mechanism : str
        An id of :func:`release_mechanisms`.
    epsilon, delta : float
        The target guarantee; a mechanism that does not use δ (Laplace, pure ε-DP) ignores ``delta``.
    relation : {"add_remove", "replace"} or NeighbourModel
    order : float, optional
        The GG order p ``>= 1`` (for the mechanisms whose noise has one).

    Returns
    -------
    NoiseCalibration

    Raises
    ------
    ValueError
        From the family module, e.g. the classical Gaussian at ``epsilon >= 1``.

    Notes
    -----
    The mechanism's entry calibrates (``Mechanism.histogram.calibrate``):

    * Gaussians: ``σ`` from :func:`~gaussmech_core.gaussian.analytic_gaussian_sigma` or
      :func:`~gaussmech_core.gaussian.classical_gaussian_sigma` at ``Δ₂``.
    * Laplace: ``b = Δ₁/ε`` from :func:`~gaussmech_core.laplace.laplace_scale`; std ``√2 b``.
    * GG(p): :func:`~gaussmech_core.generalized.generalized_gaussian_scale` (exact 1-D
      approximate-DP profile, docs/math.md section 5.5). With one changed coordinate this is exact. With
      ``k > 1`` changed coordinates and ``p = 2`` the noise is Gaussian and rotation invariant, so
      the 1-D calibration at ``Δ₂`` is exact. For ``p ≠ 2`` no exact multi-coordinate calibration
      is known (docs/math.md section 5.4); each changed coordinate is then a 1-D GG release of sensitivity
      ``c``, calibrated at ``(ε/k, δ/k)``, and basic composition gives ``(ε, δ)`` overall: valid,
      possibly loose, and said so in ``note``.

    Examples
    --------
    >>> round(calibrate_histogram_noise("laplace", 0.5, 1e-5, "replace").scale, 12)
    4.0
    """
    entry = _release_mechanism(mechanism)
    eps = _epsilon_value(epsilon)
    model = neighbour_model(relation)
    order_value = _order_value(order)
    delta_value = _delta_value(delta) if entry.uses_delta else float("nan")
    found = _histogram_release(entry).calibrate(eps, delta_value, model, order_value)
    return NoiseCalibration(
        mechanism,
        eps,
        delta_value,
        float(found.order),
        float(found.scale),
        float(found.noise_std),
        float(found.sensitivity),
        found.note,
        found.sensitivity_symbol,
    )


def _order_value(order: ArrayLike) -> float:
    return float(require_interval(as_float_array(order, "order"), "order", 1.0, None))


def _delta_value(delta: ArrayLike) -> float:
    return float(require_interval(as_float_array(delta, "delta"), "delta", 0.0, 1.0, lower_open=True, upper_open=True))


def _as_generator(rng: np.random.Generator | int | None) -> np.random.Generator:
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None:
        return np.random.default_rng()
    return np.random.default_rng(require_integer(rng, "rng", minimum=0))


def _as_counts(counts: ArrayLike, name: str = "counts") -> np.ndarray:
    values = require_interval(as_float_array(counts, name), name)
    if values.size == 0:
        raise ValueError(f"{name} must contain at least one bin, got an empty array")
    return values


@dataclass(frozen=True)
class Release:
    """A noisy release: ``noisy = counts + noise`` and the calibration that produced it."""

    noisy: np.ndarray
    calibration: NoiseCalibration

    @property
    def scale(self) -> float:
        return self.calibration.scale

    @property
    def noise_std(self) -> float:
        return self.calibration.noise_std


def release_histogram(
    counts: ArrayLike,
    mechanism: str,
    epsilon: float,
    delta: float,
    relation: str | NeighbourModel,
    order: float = 2.0,
    rng: np.random.Generator | int | None = None,
) -> Release:
    """Release ``counts`` (a vector or a 2-D grid) with calibrated noise.

    Parameters
    ----------
    counts : array_like
        The true histogram.
    mechanism, epsilon, delta, relation, order
        As in :func:`calibrate_histogram_noise`.
    rng : numpy.random.Generator or int, optional
        The random source, or a seed.

    Returns
    -------
    Release

    Examples
    --------
    >>> release = release_histogram([10, 0, 5], "analytic_gaussian", 1.0, 1e-5, "add_remove", rng=0)
    >>> release.noisy.shape, round(release.noise_std, 4)
    ((3,), 3.7306)
    """
    truth = _as_counts(counts)
    calibration = calibrate_histogram_noise(mechanism, epsilon, delta, relation, order)
    release = _histogram_release(registry.MECHANISMS[mechanism])
    noise = release.sample(_as_generator(rng), truth.shape, calibration.scale, calibration.order)
    return Release(truth + np.asarray(noise, dtype=float), calibration)


# --- error metrics ---------------------------------------------------------------------------------


def _pair(true, estimate):
    truth = _as_counts(true, "true")
    guess = require_interval(as_float_array(estimate, "estimate"), "estimate")
    if guess.ndim < truth.ndim or guess.shape[guess.ndim - truth.ndim :] != truth.shape:
        raise ValueError(
            f"estimate must have the shape of true {truth.shape} (optionally with leading batch axes), got {guess.shape}"
        )
    return truth.reshape(-1), guess.reshape(guess.shape[: guess.ndim - truth.ndim] + (-1,))


def _batch_result(values):
    return float(values) if np.ndim(values) == 0 else np.asarray(values, dtype=float)


def _error_rows(truth, guess):
    """``guess - truth`` per row and a power-of-2 unit near each row's largest |error| (1 for a
    zero or infinite row), so that sums of the errors in that unit cannot overflow."""
    with np.errstate(over="ignore"):  # an error beyond the largest double is inf, its rounded value
        error = guess - truth
    top = np.max(np.abs(error), axis=-1, keepdims=True)
    finite = (top > 0) & np.isfinite(top)
    unit = np.where(finite, np.ldexp(1.0, np.frexp(np.where(finite, top, 1.0))[1] - 1), 1.0)
    return error, unit


def _mse_rows(truth, guess):
    error, unit = _error_rows(truth, guess)
    scaled = error / unit
    unit = unit[..., 0]
    with np.errstate(over="ignore"):  # inf only where the mean square exceeds the largest double
        return unit * (unit * (np.einsum("...i,...i->...", scaled, scaled) / truth.size))


def _l1_rows(truth, guess):
    error, unit = _error_rows(truth, guess)
    with np.errstate(over="ignore"):  # inf only where the sum exceeds the largest double
        return unit[..., 0] * np.sum(np.abs(error / unit), axis=-1)


def _max_rows(truth, guess):
    return np.max(np.abs(guess - truth), axis=-1)


def _kl_applicable(truth: np.ndarray) -> bool:
    return bool(np.all(truth >= 0) and truth.sum() > 0)


def _kl_rows(truth, guess, floor=KL_FLOOR):
    p = truth / truth.sum()
    support = p > 0
    mass = np.maximum(guess, 0.0)
    total = mass.sum(axis=-1, keepdims=True)
    q = np.where(total > 0, mass / np.where(total > 0, total, 1.0), 1.0 / truth.size)[..., support]
    # Raising q_i to the floor adds mass; renormalising by Z = 1 + added adds log Z to the divergence.
    added = np.sum(np.maximum(floor - q, 0.0), axis=-1)
    divergence = np.sum(rel_entr(p[support], np.maximum(q, floor)), axis=-1) + np.log1p(added)
    return np.maximum(divergence, 0.0)  # KL >= 0; rounding can leave -1e-16 for equal inputs


def mse(true: ArrayLike, estimate: ArrayLike) -> FloatOrArray:
    """Mean squared error per bin, ``‖estimate - true‖²/d`` (inf only where it exceeds the largest double).

    ``estimate`` may carry leading batch axes (one error per release). Note that docs/math.md section 8.5's
    "raw MSE d σ²" is the total squared error, ``d`` times this per-bin mean (``σ²`` raw).

    Examples
    --------
    >>> mse([1.0, 2.0], [2.0, 4.0])
    2.5
    """
    truth, guess = _pair(true, estimate)
    return _batch_result(_mse_rows(truth, guess))


def l1_distance(true: ArrayLike, estimate: ArrayLike) -> FloatOrArray:
    """Total absolute error over the bins, ``Σ |estimate_i - true_i|`` (Liu's l1 measure; inf only
    where it exceeds the largest double).

    Examples
    --------
    >>> l1_distance([1.0, 2.0], [2.0, 4.0])
    3.0
    """
    truth, guess = _pair(true, estimate)
    return _batch_result(_l1_rows(truth, guess))


def max_error(true: ArrayLike, estimate: ArrayLike) -> FloatOrArray:
    """Largest absolute error of a bin, ``max_i |estimate_i - true_i|`` (inf where it exceeds the largest double).

    Examples
    --------
    >>> max_error([1.0, 2.0], [2.0, 4.0])
    2.0
    """
    truth, guess = _pair(true, estimate)
    with np.errstate(over="ignore"):
        return _batch_result(_max_rows(truth, guess))


def kl_divergence(true: ArrayLike, estimate: ArrayLike, floor: float = KL_FLOOR) -> FloatOrArray:
    """``KL(p ‖ q)`` between the true histogram and the estimate, both normalised to distributions.

    ``p = true/Σ true``. The estimate may hold zeros or negative values (a raw release), so it
    is first clipped at 0 and normalised (uniform if nothing is left). An estimate that puts no
    mass on an occupied bin would have an infinite divergence, which ranks nothing, so on every
    bin with ``p_i > 0`` the estimate's probability is raised to at least ``floor`` and ``q``
    renormalised. Bins with ``p_i = 0`` contribute 0, and an estimate proportional to the truth
    has divergence exactly 0 (when every occupied bin has ``p_i >= floor``). The result is at
    most ``log(1/floor) + log(1 + d floor)``, about 23 by default.

    Parameters
    ----------
    true : array_like
        Non-negative counts with a positive total.
    estimate : array_like
        Same shape (optionally with leading batch axes).
    floor : float, optional
        The smallest probability an estimate can give a bin, in (0, 1/d).

    Notes
    -----
    Liu (2019) compares sanitised histograms to the originals by the l1 error and the KL
    divergence; the direction (truth first) and the floor are our choice, documented here.

    Examples
    --------
    >>> kl_divergence([1.0, 3.0], [2.0, 6.0])
    0.0
    >>> round(kl_divergence([1.0, 1.0], [1.0, 3.0]), 6)
    0.143841
    """
    truth, guess = _pair(true, estimate)
    if not _kl_applicable(truth):
        raise ValueError("true must be non-negative counts with a positive total to be normalised into a distribution")
    floor_value = float(
        require_interval(
            as_float_array(floor, "floor"), "floor", 0.0, 1.0 / truth.size, lower_open=True, upper_open=True
        )
    )
    return _batch_result(_kl_rows(truth, guess, floor_value))


@dataclass(frozen=True)
class Metric:
    """An error measure: display name, one-line meaning and its batch kernel."""

    id: str
    name: str
    description: str
    rows: Callable[[np.ndarray, np.ndarray], np.ndarray]


METRICS: dict[str, Metric] = {
    "mse": Metric("mse", "MSE", "mean squared error per bin", _mse_rows),
    "l1": Metric("l1", "l1 distance", "sum of absolute errors over the bins", _l1_rows),
    "kl": Metric("kl", "KL divergence", "KL(true ‖ estimate) of the normalised histograms", _kl_rows),
    "max": Metric("max", "max error", "largest absolute error of one bin", _max_rows),
}


def error_metrics(true: ArrayLike, estimate: ArrayLike) -> dict[str, float]:
    """Every applicable metric of :data:`METRICS` for one estimate, as ``{id: value}``.

    The KL divergence is left out when ``true`` is not a histogram (negative values or a zero
    total); a value is inf only where it exceeds the largest double.

    Examples
    --------
    >>> error_metrics([1.0, 2.0], [2.0, 4.0])["l1"]
    3.0
    """
    truth, guess = _pair(true, estimate)
    results = {}
    for metric_id, metric in METRICS.items():
        if metric_id != "kl" or _kl_applicable(truth):
            with np.errstate(over="ignore"):
                results[metric_id] = _batch_result(metric.rows(truth, guess))
    return results


def improvement_factor(raw_error: ArrayLike, denoised_error: ArrayLike) -> FloatOrArray:
    """``raw_error / denoised_error``: how many times smaller denoising made the error.

    ``inf`` when only the denoised error is 0 (or the ratio exceeds the largest double), ``1``
    when both are 0.

    Examples
    --------
    >>> improvement_factor(4.0, 0.5)
    8.0
    """
    raw = require_interval(as_float_array(raw_error, "raw_error"), "raw_error", 0.0, None)
    denoised = require_interval(as_float_array(denoised_error, "denoised_error"), "denoised_error", 0.0, None)
    raw, denoised = np.broadcast_arrays(raw, denoised)
    with np.errstate(over="ignore"):  # a ratio beyond the largest double is inf, its rounded value
        ratio = np.where(denoised > 0, raw / np.where(denoised > 0, denoised, 1.0), np.where(raw > 0, np.inf, 1.0))
    return float(ratio) if ratio.ndim == 0 else ratio


# --- one release, many pipelines ---------------------------------------------------------------------


@dataclass(frozen=True)
class PipelineResult:
    """One denoising pipeline applied to a release: its steps, the estimate and its metrics."""

    steps: tuple
    estimate: np.ndarray
    metrics: dict


def evaluate_pipelines(
    true: ArrayLike,
    noisy: ArrayLike,
    noise_std: float,
    pipelines: Sequence[Sequence[str]],
    total: float | None = None,
    prior: Prior | None = None,
) -> list[PipelineResult]:
    """Apply each pipeline of denoiser ids to ``noisy`` and measure it against ``true``.

    ``noise_std`` is one number (the noise's standard deviation per bin); the metrics are those
    of :func:`error_metrics` (inf only where a value exceeds the largest double).

    Examples
    --------
    >>> results = evaluate_pipelines([4.0, 0.0, 0.0], [4.5, -0.3, 0.2], 0.5, [(), ("simplex",)], total=4.0)
    >>> [round(r.metrics["l1"], 3) for r in results]
    [1.0, 0.0]
    """
    truth = _as_counts(true, "true")
    released = _as_counts(noisy, "noisy")
    if released.shape != truth.shape:
        raise ValueError(f"noisy must have the shape of true {truth.shape}, got {released.shape}")
    std_array = require_interval(as_float_array(noise_std, "noise_std"), "noise_std", 0.0, None)
    if std_array.ndim != 0:
        raise TypeError(f"noise_std must be a single number, got an array of shape {std_array.shape}")
    sigma = float(std_array)
    target = None if total is None else float(require_interval(as_float_array(total, "total"), "total", 0.0, None))
    checked_prior = _check_prior(prior, truth.shape)
    results = []
    for pipeline in pipelines:
        steps = check_pipeline(pipeline, truth.shape, target, checked_prior)
        estimate = _apply_rows(released.reshape(1, -1), steps, np.array([[sigma]]), target, checked_prior, truth.shape)
        estimate = estimate.reshape(truth.shape)
        results.append(PipelineResult(steps, estimate, error_metrics(truth, estimate)))
    return results


# --- error against epsilon ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SweepResult:
    """Error against ε for every mechanism × pipeline, over seeded repetitions.

    Arrays ``mean``, ``std``, ``lower``, ``upper`` have shape (metrics, mechanisms, pipelines,
    epsilons): the mean over repetitions, its standard deviation across repetitions, and the
    ``band`` quantiles. ``noise_std`` and ``valid`` have shape (mechanisms, epsilons); where a
    mechanism is not valid (e.g. classical Gaussian at ε ≥ 1) the errors are NaN and
    ``reasons[m]`` says why.
    """

    epsilons: np.ndarray
    mechanisms: tuple
    orders: tuple
    pipelines: tuple
    metrics: tuple
    mean: np.ndarray
    std: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    band: tuple
    noise_std: np.ndarray
    valid: np.ndarray
    reasons: tuple
    repetitions: int

    def improvement(self, metric: str = "mse", pipeline: int = 1, baseline: int = 0) -> np.ndarray:
        """Mean error of pipeline ``baseline`` divided by that of ``pipeline``: (mechanisms, epsilons)."""
        k = self.metrics.index(metric)
        raw = self.mean[k, :, baseline, :]
        denoised = self.mean[k, :, pipeline, :]
        ratio = np.full(raw.shape, np.nan)
        finite = np.isfinite(raw) & np.isfinite(denoised)
        ratio[finite] = improvement_factor(raw[finite], denoised[finite])
        return ratio


def _mechanism_spec(entry, default_order):
    if isinstance(entry, str):
        mechanism, order = entry, default_order
    else:
        try:
            mechanism, order = entry
        except (TypeError, ValueError) as error:
            raise TypeError(f"a mechanism must be an id or a pair (id, order), got {entry!r}") from error
    entry = _release_mechanism(mechanism)
    order = float(require_interval(as_float_array(order, "order"), "order", 1.0, None))
    return mechanism, order if entry.uses_order else 2.0


def error_sweep(
    counts: ArrayLike,
    mechanisms: Sequence,
    denoiser_pipelines: Sequence[Sequence[str]],
    epsilons: ArrayLike,
    delta: float,
    relation: str | NeighbourModel,
    repetitions: int,
    seed: int,
    *,
    order: float = 2.0,
    metrics: Sequence[str] = ("mse",),
    total: float | None = None,
    prior: Prior | None = None,
    band: tuple[float, float] = (0.1, 0.9),
) -> SweepResult:
    """Error of each mechanism × denoising pipeline against ε, averaged over repetitions.

    Parameters
    ----------
    counts : array_like
        The true histogram (vector or 2-D grid).
    mechanisms : sequence
        Mechanism ids of :func:`release_mechanisms`, or pairs ``(id, p)`` giving the GG order.
    denoiser_pipelines : sequence of sequences of str
        E.g. ``[(), ("soft_threshold",), ("soft_threshold", "simplex")]``; ``()`` is the raw release.
    epsilons : array_like
        The ε grid.
    delta, relation, order
        As in :func:`calibrate_histogram_noise`.
    repetitions : int
        Number R of releases per (mechanism, ε).
    seed : int
        Seeds everything: the same seed gives the same numbers.
    metrics : sequence of str, optional
        Ids of :data:`METRICS`.
    total, prior : optional
        The public total and the prior, for the pipelines that need them.
    band : tuple of float, optional
        The lower and upper quantiles across repetitions.

    Returns
    -------
    SweepResult

    Notes
    -----
    Balle & Wang (2018), figures 1 (right) and 4. For a mechanism whose noise is a scale family
    (``HistogramRelease.scale_family``), R noise draws of unit scale are made once and rescaled to
    every ε (common random numbers: the curves are smooth in ε and the comparison between
    pipelines is paired); other noise (e.g. on the integers) is drawn afresh at each ε. Each
    mechanism has its own random stream, keyed by its id and ``seed``
    (:func:`gaussmech_core.streams.mechanism_rng`), never by its place in the list, so adding
    a mechanism leaves the others' numbers unchanged. The scales come from one vectorized call
    of the entry's calibration over the ε grid; they agree with :func:`calibrate_histogram_noise`
    to floating-point rounding (both are verified private).

    Examples
    --------
    >>> result = error_sweep([5.0, 0.0, 0.0, 1.0], ["laplace"], [(), ("nonnegative",)], [0.5, 1.0],
    ...                      1e-5, "add_remove", repetitions=20, seed=1)
    >>> result.mean.shape
    (1, 1, 2, 2)
    >>> bool(np.all(result.mean[0, 0, 1] <= result.mean[0, 0, 0]))
    True
    """
    truth = _as_counts(counts)
    shape = truth.shape
    flat_truth = truth.reshape(-1)
    d = flat_truth.size
    specs = [_mechanism_spec(entry, order) for entry in mechanisms]
    if not specs:
        raise ValueError("mechanisms must name at least one mechanism")
    target = None if total is None else float(require_interval(as_float_array(total, "total"), "total", 0.0, None))
    checked_prior = _check_prior(prior, shape)
    pipelines = [
        check_pipeline(tuple(p) if not isinstance(p, str) else (p,), shape, target, checked_prior)
        for p in denoiser_pipelines
    ]
    if not pipelines:
        raise ValueError("denoiser_pipelines must hold at least one pipeline (use () for the raw release)")
    if target is not None and any("round" in p for p in pipelines):
        require_integer(target, "total", minimum=0)
    eps_grid = require_interval(as_float_array(epsilons, "epsilons"), "epsilons", 0.0, None).reshape(-1)
    if eps_grid.size == 0:
        raise ValueError("epsilons must hold at least one value")
    reps = require_integer(repetitions, "repetitions", minimum=1, maximum=100_000)
    seed_value = require_integer(seed, "seed", minimum=0)
    metric_ids = [require_choice(m, "metric", tuple(METRICS)) for m in metrics]
    if "kl" in metric_ids and not _kl_applicable(flat_truth):
        raise ValueError("the KL divergence needs non-negative counts with a positive total")
    low_q, high_q = (float(q) for q in band)
    if not 0.0 <= low_q <= high_q <= 1.0:
        raise ValueError(f"band must be two quantiles 0 <= low <= high <= 1, got band={band!r}")

    shape_out = (len(metric_ids), len(specs), len(pipelines), eps_grid.size)
    values = np.full(shape_out + (reps,), np.nan)
    noise_std = np.full((len(specs), eps_grid.size), np.nan)
    valid = np.zeros((len(specs), eps_grid.size), dtype=bool)
    reasons: list[str] = []
    chunk = max(1, _SWEEP_CHUNK_VALUES // d)

    def record(m, epsilon_columns, rows, noisy, sigma_rows):
        """Every pipeline's error on ``noisy``: one block of rows per ε column, in that order."""
        blocks = (epsilon_columns.size, rows.stop - rows.start)
        for p, steps in enumerate(pipelines):
            estimate = _apply_rows(noisy, steps, sigma_rows, target, checked_prior, shape)
            for k, metric_id in enumerate(metric_ids):
                values[k, m, p, epsilon_columns, rows] = METRICS[metric_id].rows(flat_truth, estimate).reshape(blocks)

    model = neighbour_model(relation)
    entries = [registry.MECHANISMS[mechanism] for mechanism, _ in specs]
    delta_value = _delta_value(delta) if any(entry.uses_delta for entry in entries) else float("nan")
    for m, (mechanism, p_order) in enumerate(specs):
        release = _histogram_release(entries[m])
        mechanism_delta = delta_value if entries[m].uses_delta else float("nan")

        def calibrate(epsilons):
            found = release.calibrate(epsilons, mechanism_delta, model, p_order)
            return np.asarray(found.scale, dtype=float), np.asarray(found.noise_std, dtype=float)

        try:
            # One vectorized calibration over the whole grid (for GG about 10x faster than per ε) ...
            scales, stds = calibrate(eps_grid)
            valid[m] = True
            reasons.append("")
        except ValueError:
            # ... and where some ε is outside the mechanism's domain, find which, one at a time.
            scales, stds = np.full(eps_grid.size, np.nan), np.full(eps_grid.size, np.nan)
            reason = ""
            for e, epsilon in enumerate(eps_grid):
                try:
                    scales[e], stds[e] = calibrate(float(epsilon))
                    valid[m, e] = True
                except ValueError as error:
                    reason = reason or f"ε = {epsilon:g}: {error}"
            reasons.append(reason)
        noise_std[m] = np.where(valid[m], stds, np.nan)
        columns = np.flatnonzero(valid[m])
        rng = mechanism_rng(seed_value, mechanism)
        for start in range(0, reps, chunk):
            rows = slice(start, min(reps, start + chunk))
            count = rows.stop - rows.start
            if release.scale_family:
                unit = np.asarray(release.sample(rng, (count, d), 1.0, p_order), dtype=float)
                # Several ε at once, one block of rows each (at most `chunk` rows in all): every
                # denoiser and metric works row by row, so the numbers are those of one ε at a
                # time, with a tenth of the numpy calls for a small histogram.
                per_block = max(1, chunk // count)
                for first in range(0, columns.size, per_block):
                    block = columns[first : first + per_block]
                    noise = (scales[block][:, None, None] * unit).reshape(-1, d)
                    sigma_rows = np.repeat(stds[block], count)[:, None]
                    record(m, block, rows, flat_truth + noise, sigma_rows)
            else:  # noise that is not a scale family (e.g. on the integers) is drawn afresh per ε
                for column in columns:
                    noise = np.asarray(release.sample(rng, (count, d), float(scales[column]), p_order), dtype=float)
                    sigma_rows = np.full((count, 1), float(stds[column]))
                    record(m, np.array([column]), rows, flat_truth + noise, sigma_rows)

    mean = np.full(shape_out, np.nan)
    spread = np.full(shape_out, np.nan)
    lower = np.full(shape_out, np.nan)
    upper = np.full(shape_out, np.nan)
    for m in range(len(specs)):
        columns = valid[m]
        if not columns.any():
            continue
        block = values[:, m][:, :, columns]
        mean[:, m][:, :, columns] = block.mean(axis=-1)
        spread[:, m][:, :, columns] = block.std(axis=-1, ddof=1) if reps > 1 else 0.0
        lower[:, m][:, :, columns] = np.quantile(block, low_q, axis=-1)
        upper[:, m][:, :, columns] = np.quantile(block, high_q, axis=-1)
    return SweepResult(
        epsilons=eps_grid,
        mechanisms=tuple(mechanism for mechanism, _ in specs),
        orders=tuple(p_order for _, p_order in specs),
        pipelines=tuple(pipelines),
        metrics=tuple(metric_ids),
        mean=mean,
        std=spread,
        lower=lower,
        upper=upper,
        band=(low_q, high_q),
        noise_std=noise_std,
        valid=valid,
        reasons=tuple(reasons),
        repetitions=reps,
    )
