"""The types of the mechanism registry: a parameter setting, a validity verdict, a mechanism.

The registry itself (``MECHANISMS``) lives in :mod:`gaussmech_core.mechanisms`; these types are
kept apart so that every family module and the interface can name them without import cycles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Literal

import numpy as np

from ._validation import as_float_array, require_choice, require_integer, require_interval

GuaranteeKind = Literal["pure", "approximate", "probabilistic", "claimed"]
L1Model = Literal["one_coordinate", "all_coordinates"]

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
    may change, the tightest bound from Δ₂ alone is Δ₁ = √d Δ₂ (MATH.md section 0).
    ``mvg_shape`` is the (rows, cols) of a matrix query for the MVG mechanism (default (dim, 1));
    ``mvg_gamma`` bounds ‖f(X)‖_F (default Δ₂/2, the smallest value MATH.md 7.1 allows).
    """

    epsilon: float
    delta: float
    sensitivity: float = 1.0
    order: float = 2.0
    dim: int = 1
    l1_model: L1Model = "one_coordinate"
    mvg_shape: tuple[int, int] | None = None
    mvg_gamma: float | None = None

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

    @property
    def l1_sensitivity(self) -> float:
        """Δ₁ implied by Δ₂ and the neighbour model."""
        if self.l1_model == "one_coordinate":
            return self.sensitivity
        return math.sqrt(self.dim) * self.sensitivity

    @property
    def matrix_shape(self) -> tuple[int, int]:
        """The (rows, cols) of the MVG matrix query; (dim, 1) unless set."""
        return self.mvg_shape if self.mvg_shape is not None else (self.dim, 1)

    @property
    def matrix_gamma(self) -> float:
        """γ ≥ sup ‖f(X)‖_F for MVG; Δ₂/2 unless set."""
        return self.mvg_gamma if self.mvg_gamma is not None else self.sensitivity / 2.0


@dataclass(frozen=True)
class Validity:
    """Whether a mechanism's guarantee holds at a setting, and if not, why (in plain words)."""

    valid: bool
    reason: str = ""


@dataclass(frozen=True)
class Mechanism:
    """One noise mechanism: where it comes from, what it guarantees, and how to compute with it.

    Every function takes the ``Setting`` last so pages can treat mechanisms alike:

    * ``scale(setting)``: the calibrated scale parameter (σ, b, σ* or s), a float; raises
      ``ValueError`` when ``validity(setting)`` is not valid.
    * ``coordinate_std(scale, setting)``: standard deviation of one noise coordinate.
    * ``expected_loss(scale, setting)``: E‖noise‖₂² at ``setting.dim``.
    * ``sample(rng, size, scale, setting)``: ``size`` noise vectors, shape (size, dim).
    * ``pdf(x, scale, setting)``: density of one noise coordinate (its marginal).
    * ``tail(t, scale, setting)``: P(|noise coordinate| > t).
    * ``norm_tail(t, scale, setting)``: P(‖noise‖₂ > t) at ``setting.dim``, or ``None`` when only
      Monte Carlo can give it (``norm_tail`` attribute is then ``None``).
    * ``privacy_profile(epsilon, scale, setting)``: the true δ(ε) of the calibrated noise for an
      array of ε (for "claimed" mechanisms, the computed true δ, not the claim).
    * ``scale_over_epsilon(epsilons, setting)`` (optional): ``scale`` for a whole array of ε at the
      setting's other values, in one vectorized call; only called on ε where ``validity`` holds.
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
    is_default: bool = False
    featured: bool = True
    notes: str = field(default="")
    scale_over_epsilon: Callable[[np.ndarray, Setting], np.ndarray] | None = None

    @property
    def guarantee_label(self) -> str:
        return GUARANTEE_LABELS[self.guarantee]
