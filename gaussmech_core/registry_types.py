"""The types of the mechanism registry: a parameter setting, a validity verdict, a mechanism.

The registry itself (``MECHANISMS``) lives in :mod:`gaussmech_core.mechanisms`; these types are
kept apart so that every family module and the interface can name them without import cycles.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, Literal

import numpy as np

from ._validation import as_float_array, require_choice, require_integer, require_interval

GuaranteeKind = Literal["pure", "approximate", "probabilistic", "claimed"]
L1Model = Literal["one_coordinate", "all_coordinates"]
SensitivityNorm = Literal["l1", "l2", "integer_l2"]
Support = Literal["continuous", "integer"]

# The one vocabulary for "kind of noise" (a mechanism's ``family``): what the noise is, not how
# it is calibrated. Descriptive only: code asks a mechanism's functions, never branches on this.
NOISE_FAMILIES: dict[str, str] = {
    "gaussian": "i.i.d. Gaussian coordinates",
    "laplace": "i.i.d. Laplace coordinates",
    "generalized_gaussian": "i.i.d. generalized Gaussian GG(p) coordinates",
    "r1smg": "rank-1 singular Gaussian (one random direction)",
    "truncated_generalized_gaussian": "GG(p) restricted and renormalised to the data bounds",
    "clamped_generalized_gaussian": "GG(p) clamped to the data bounds (atoms at the bounds)",
    "discrete_gaussian": "i.i.d. discrete Gaussian coordinates on the integers",
}
SENSITIVITY_NORMS: dict[str, str] = {
    "l1": "Δ₁ (l1 sensitivity)",
    "l2": "Δ₂ (l2 sensitivity)",
    "integer_l2": "Δ₂ of an integer-valued query",
}

# The law of one noise coordinate, by family, in the words a reader knows (a NoiseLaw's ``law``).
LAW_NAMES: dict[str, str] = {
    "gaussian": "Gaussian",
    "laplace": "Laplace",
    "generalized_gaussian": "GG(p)",
    "r1smg": "rank-1 singular Gaussian",
    "truncated_generalized_gaussian": "truncated GG(p)",
    "clamped_generalized_gaussian": "clamped GG(p)",
    "discrete_gaussian": "discrete Gaussian",
}

GUARANTEE_LABELS: dict[str, str] = {
    "pure": "ε-DP (pure)",
    "approximate": "(ε, δ)-DP",
    "probabilistic": "(ε, δ)-probabilistic DP",
    "claimed": "claimed (ε, δ)-DP, not proven",
}


@dataclass(frozen=True)
class Setting:
    """One point of the parameter space the dashboard's sidebar controls.

    ``sensitivity`` is the l2 sensitivity Δ₂. The l1 sensitivity that Laplace needs follows from
    the neighbour model: when one record changes one coordinate, Δ₁ = Δ₂; when every coordinate
    may change, the tightest bound from Δ₂ alone is Δ₁ = √d Δ₂ (docs/math.md section 0).
    ``mvg_shape`` is the (rows, cols) of a matrix query for the MVG mechanism (default (dim, 1));
    ``mvg_gamma`` bounds ‖f(X)‖_F (default Δ₂/2, the smallest value docs/math.md section 7.1 allows).
    ``data_lower`` < ``data_upper`` are the known bounds [a, b] of every coordinate of the query
    (default [0, 1]), used only by the bounded-data mechanisms of Liu (docs/math.md section 5.6).
    """

    epsilon: float
    delta: float
    sensitivity: float = 1.0
    order: float = 2.0
    dim: int = 1
    l1_model: L1Model = "one_coordinate"
    mvg_shape: tuple[int, int] | None = None
    mvg_gamma: float | None = None
    data_lower: float = 0.0
    data_upper: float = 1.0

    def __post_init__(self):
        for name, lower, upper, lower_open, upper_open in (
            ("epsilon", 0.0, None, False, False),
            ("delta", 0.0, 1.0, True, True),
            ("sensitivity", 0.0, None, True, False),
            ("order", 1.0, None, False, False),
        ):
            value = as_float_array(getattr(self, name), name)
            require_interval(value, name, lower, upper, lower_open=lower_open, upper_open=upper_open)
            object.__setattr__(self, name, float(value))
        object.__setattr__(self, "dim", require_integer(self.dim, "dim", minimum=1))
        require_choice(self.l1_model, "l1_model", ("one_coordinate", "all_coordinates"))
        if self.mvg_shape is not None:
            rows, cols = self.mvg_shape
            object.__setattr__(
                self,
                "mvg_shape",
                (require_integer(rows, "mvg rows", 1), require_integer(cols, "mvg cols", 1)),
            )
        if self.mvg_gamma is not None:
            gamma = as_float_array(self.mvg_gamma, "mvg_gamma")
            require_interval(gamma, "mvg_gamma", 0.0, None, lower_open=True)
            object.__setattr__(self, "mvg_gamma", float(gamma))
        for name in ("data_lower", "data_upper"):
            value = require_interval(as_float_array(getattr(self, name), name), name)
            object.__setattr__(self, name, float(value))
        if not self.data_lower < self.data_upper:
            raise ValueError(
                f"data_lower must be below data_upper, got data_lower={self.data_lower!r}, data_upper={self.data_upper!r}"
            )
        if not math.isfinite(self.data_upper - self.data_lower):
            raise ValueError(
                f"the data bounds must have a finite width, got [{self.data_lower!r}, {self.data_upper!r}]"
            )

    @property
    def l1_sensitivity(self) -> float:
        """Δ₁ implied by Δ₂ and the neighbour model."""
        if self.l1_model == "one_coordinate":
            return self.sensitivity
        return math.sqrt(self.dim) * self.sensitivity

    @property
    def data_width(self) -> float:
        """W = b - a, the width of the data bounds."""
        return self.data_upper - self.data_lower

    @property
    def matrix_shape(self) -> tuple[int, int]:
        """The (rows, cols) of the MVG matrix query; (dim, 1) unless set."""
        return self.mvg_shape if self.mvg_shape is not None else (self.dim, 1)

    @property
    def matrix_gamma(self) -> float:
        """γ ≥ sup ‖f(X)‖_F for MVG; Δ₂/2 unless set."""
        return self.mvg_gamma if self.mvg_gamma is not None else self.sensitivity / 2.0


@dataclass(frozen=True)
class NoiseLaw:
    """The noise an entry draws at a setting: the law of a coordinate and the rule that sets its scale.

    Two entries whose laws are equal draw the same noise at that setting, by the mathematics (GG with
    p = 2 calibrated on its exact profile is the analytic Gaussian, Balle & Wang 2018, Theorem 8;
    GG-pDP with p = 1 is the Laplace mechanism, Liu, Claim 4): a ranking ties them without comparing
    numbers. Equal ``law`` with a different ``calibration`` is the same kind of noise at another
    scale (GG with p = 1 on its (ε, δ) profile against the pure-ε Laplace mechanism).
    """

    law: str
    calibration: str


@dataclass(frozen=True)
class Validity:
    """Whether a mechanism's guarantee holds at a setting, and if not, why (in plain words)."""

    valid: bool
    reason: str = ""


@dataclass(frozen=True)
class HistogramCalibration:
    """How a mechanism's noise was calibrated for one histogram release (see :class:`HistogramRelease`).

    ``scale`` and ``noise_std`` are arrays over the ε grid the calibration was asked for (or 0-d);
    ``sensitivity`` is the value used, ``sensitivity_symbol`` its name ("Δ₁", "Δ₂", or "Δ" for
    the per-coordinate change of a composed calibration), ``order`` the GG order p of the noise
    (2 for Gaussian noise, 1 for Laplace) and ``note`` how the calibration used the sensitivity.
    """

    scale: np.ndarray
    noise_std: np.ndarray
    sensitivity: float
    sensitivity_symbol: str
    order: float
    note: str


@dataclass(frozen=True)
class HistogramRelease:
    """What a mechanism needs to release a histogram: its calibration and its noise.

    * ``calibrate(epsilon, delta, model, order)``: a :class:`HistogramCalibration` for a query whose
      neighbours differ as ``model`` says (a :class:`~gaussmech_core.histogram.NeighbourModel`:
      ``changed_coordinates`` k, ``coordinate_sensitivity`` c, ``l1_sensitivity``,
      ``l2_sensitivity``); ``epsilon`` may be an array (a sweep's grid). Raises ``ValueError``
      where the guarantee does not hold (the family module's message).
    * ``sample(rng, shape, scale, order)``: noise of ``shape`` at the calibrated ``scale``.
    * ``scale_family``: True when the noise at scale s is s times the noise at scale 1, so a sweep
      may draw unit noise once and rescale it to every ε (common random numbers); False (e.g.
      integer noise) draws afresh at each ε.
    * ``smallest_private_scale(epsilon, delta, model, order)`` (optional): as the entry's
      ``smallest_private_scale``, for the neighbour relation of ``model`` that ``calibrate``
      uses (scalar ε): ``smallest_sigma``, ``safe_sigma`` (the scale ``calibrate`` returns) and
      ``not_private``; ``None`` for a noise whose δ falls as the scale grows.
    """

    calibrate: Callable
    sample: Callable[[np.random.Generator, tuple, float, float], np.ndarray]
    scale_family: bool = True
    smallest_private_scale: Callable | None = None


@dataclass(frozen=True)
class Mechanism:
    """One noise mechanism: where it comes from, what it guarantees, and how to compute with it.

    This is the seam (DESIGN.md section 2): a page, the release lab or a comparison asks the
    entry, and never tests its id. Every function takes the ``Setting`` last so pages can treat
    mechanisms alike:

    * ``scale(setting)``: the calibrated scale parameter (σ, b, σ* or s), a float; raises
      ``ValueError`` when ``validity(setting)`` is not valid.
    * ``coordinate_std(scale, setting)``: standard deviation of one noise coordinate.
    * ``expected_loss(scale, setting)``: E‖noise‖₂² at ``setting.dim``.
    * ``sample(rng, size, scale, setting)``: ``size`` noise vectors, shape (size, dim) (the release
      sampler).
    * ``coordinate_sample(rng, size, scale, setting)``: ``size`` draws of one noise coordinate,
      shape (size,), in work that does not grow with d.
    * ``pdf(x, scale, setting)``: density of one noise coordinate (its marginal); for integer
      noise (``support == "integer"``) the probability mass at the integers ``x``.
    * ``atoms(scale, setting)`` (optional): ``(positions, probabilities)`` of the point masses of
      one continuous noise coordinate beside its density (the BIT GG's piled-up bounds), or None.
    * ``tail(t, scale, setting)``: P(|noise coordinate| > t).
    * ``log_tail(t, scale, setting)``: log P(|noise coordinate| > t), finite far below 1e-300
      where the family has a log-space formula.
    * ``coordinate_quantile(alpha, scale, setting)`` (optional): the t with P(|noise coordinate| > t)
      = α for an array of α in closed form (:mod:`gaussmech_core.quantiles`), NaN where it has none;
      :func:`gaussmech_core.tails.coordinate_error_bound` checks it on ``log_tail`` and falls back
      to the root search, so it speeds the error bound up without deciding it.
    * ``norm_tail(t, scale, setting)`` and ``log_norm_tail``: P(‖noise‖₂ > t) at ``setting.dim``
      and its log, or ``None`` when only Monte Carlo can give it.
    * ``norm_quantile(alpha, scale, setting)`` (optional): the t with P(‖noise‖₂ > t) = α in closed
      form, checked and backed up by the root search as ``coordinate_quantile`` is.
    * ``loss_summary(scale, setting, quantile_levels, n_samples)``: the distribution of the loss
      ‖noise‖₂² at ``setting.dim`` (a :class:`~gaussmech_core.loss.LossSummary`: mean, quantiles,
      skewness, excess kurtosis, and whether each is exact).
    * ``loss_summary_against_dim(scale, setting, dims, quantile_levels, n_samples)`` (optional):
      ``loss_summary`` at ``setting`` with d replaced by each of ``dims``, the scale held fixed,
      as a list, equal to those calls; the work that does not depend on d is done once (a sweep
      over d of a calibration that does not read d). Not for matrix-valued noise.
    * ``scale_against_dim(settings)`` (optional, for a calibration that reads d): ``scale`` at
      each of several settings that differ only in d (and the matrix shape), in one vectorized
      call, equal to those calls; only called on settings where ``validity`` holds.
    * ``privacy_profile(epsilon, scale, setting)``: the true δ(ε) of the calibrated noise for an
      array of ε (for "claimed" mechanisms, the computed true δ, not the claim); where only an
      upper bound is known (``profile_is_exact`` False: the bounded-data mechanisms), that bound.
    * ``privacy_profile_over(epsilon, low, high, setting)`` (optional): an upper bound on δ(ε) that
      holds at **every** scale in [low, high] (``high`` may be inf), for a noise whose δ(ε) does
      not fall as the scale grows (the discrete Gaussian's sawtooth, docs/math.md section 9.7);
      ``None`` means δ(ε) falls as the scale grows, so the profile at ``low`` is that bound.
      Inverses that answer "the scale for a limit" use it to return a scale from which every
      larger scale meets the limit.
    * ``smallest_private_scale(setting)`` (optional): for a noise whose δ is not monotone in the
      scale, an object with ``smallest_sigma`` (the smallest private scale), ``safe_sigma`` (what
      ``scale`` returns: the smallest scale from which every larger one is private) and
      ``not_private`` (the intervals between them that are not private); only called where
      ``validity`` holds. Pages say in one sentence where the two differ.
    * ``noise_validity(setting)`` (optional): whether the noise's privacy profile holds at the
      setting's Δ, d, neighbour model and other values **whatever its ε and δ** (``validity``
      also asks whether the calibration at the setting's ε and δ is defined); ``None`` means
      "as ``validity``". Code that takes a scale instead of calibrating asks it
      (:meth:`noise_validity_at`).
    * ``scale_over_epsilon(epsilons, setting)`` (optional): ``scale`` for a whole array of ε at the
      setting's other values, in one vectorized call; only called on ε where ``validity`` holds.

    And as data: ``sensitivity_norm`` (the sensitivity the calibration uses: "l1", "l2" or
    "integer_l2"), ``uses_delta`` (False for pure ε-DP calibrations), ``uses_order`` (the
    setting's GG order p changes the noise), ``uses_bounds`` (the setting's data bounds [a, b]
    change the noise), ``scale_depends_on_dim`` (the calibration reads d), ``matrix_valued`` (the
    noise is laid out as the setting's m × n matrix), ``support`` ("continuous" or "integer"),
    ``family`` (the kind of noise, a key of :data:`NOISE_FAMILIES`) and ``histogram`` (a
    :class:`HistogramRelease`, or ``None`` when the mechanism cannot release a histogram).
    """

    id: str
    name: str
    short_name: str
    source: str
    guarantee: GuaranteeKind
    scale_symbol: str
    color: str
    family: str
    validity: Callable[[Setting], Validity]
    scale: Callable[[Setting], float]
    coordinate_std: Callable[[float, Setting], float]
    expected_loss: Callable[[float, Setting], float]
    sample: Callable[[np.random.Generator, int, float, Setting], np.ndarray]
    pdf: Callable[[np.ndarray, float, Setting], np.ndarray]
    tail: Callable[[np.ndarray, float, Setting], np.ndarray]
    norm_tail: Callable[[np.ndarray, float, Setting], np.ndarray] | None
    privacy_profile: Callable[[np.ndarray, float, Setting], np.ndarray]
    log_tail: Callable[[np.ndarray, float, Setting], np.ndarray]
    log_norm_tail: Callable[[np.ndarray, float, Setting], np.ndarray] | None
    coordinate_sample: Callable[[np.random.Generator, int, float, Setting], np.ndarray]
    loss_summary: Callable
    sensitivity_norm: SensitivityNorm = "l2"
    uses_delta: bool = True
    uses_order: bool = False
    uses_bounds: bool = False
    scale_depends_on_dim: bool = False
    matrix_valued: bool = False
    support: Support = "continuous"
    histogram: HistogramRelease | None = None
    profile_is_exact: bool = True
    is_default: bool = False
    featured: bool = True
    notes: str = field(default="")
    scale_over_epsilon: Callable[[np.ndarray, Setting], np.ndarray] | None = None
    atoms: Callable[[float, Setting], tuple[np.ndarray, np.ndarray]] | None = None
    loss_summary_against_dim: Callable | None = None
    scale_against_dim: Callable[[Sequence[Setting]], np.ndarray] | None = None
    coordinate_quantile: Callable[[np.ndarray, float, Setting], np.ndarray] | None = None
    norm_quantile: Callable[[np.ndarray, float, Setting], np.ndarray] | None = None
    privacy_profile_over: Callable[[np.ndarray, float, float, Setting], np.ndarray] | None = None
    noise_validity: Callable[[Setting], Validity] | None = None
    smallest_private_scale: Callable[[Setting], Any] | None = None
    noise_law: Callable[[Setting], NoiseLaw] | None = None

    def __post_init__(self):
        require_choice(self.family, "family", tuple(NOISE_FAMILIES))
        require_choice(self.sensitivity_norm, "sensitivity_norm", tuple(SENSITIVITY_NORMS))
        require_choice(self.support, "support", ("continuous", "integer"))
        if (self.norm_tail is None) != (self.log_norm_tail is None):
            raise ValueError(f"{self.id}: norm_tail and log_norm_tail must both be given or both be None")

    def noise_validity_at(self, setting: Setting) -> Validity:
        """Whether this noise's privacy profile holds at ``setting`` whatever its ε and δ
        (``noise_validity``, or ``validity`` where the entry has none)."""
        return (self.noise_validity or self.validity)(setting)

    def law_at(self, setting: Setting) -> NoiseLaw:
        """The noise this entry draws at ``setting`` (:class:`NoiseLaw`); by default its family's law and its own calibration."""
        if self.noise_law is not None:
            return self.noise_law(setting)
        return NoiseLaw(LAW_NAMES[self.family], self.id)

    def draws_same_noise(self, other: Mechanism, setting: Setting) -> bool:
        """Whether this entry and ``other`` draw the same noise at ``setting`` (equal laws: a registry fact)."""
        return self is other or self.law_at(setting) == other.law_at(setting)

    @property
    def guarantee_label(self) -> str:
        return GUARANTEE_LABELS[self.guarantee]

    @property
    def can_release_histogram(self) -> bool:
        """Whether the denoising lab can release a histogram with this mechanism."""
        return self.histogram is not None

    @property
    def sensitivity_label(self) -> str:
        """The sensitivity the calibration uses, in words (from :data:`SENSITIVITY_NORMS`)."""
        return SENSITIVITY_NORMS[self.sensitivity_norm]
