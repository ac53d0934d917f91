"""Cached DP-SGD accounting for the Training (DP-SGD) page (:mod:`gaussmech_core.dpsgd`, Poisson sampling).

Each function is one call of the core, kept per argument set: a calibration takes 0.4-2 s at the
page's default (T = 2,344 steps), so a rerun that changes nothing it depends on is instant, and
the planner map's cells are the same cache entries as the page's own calibration.
"""

from __future__ import annotations

import math

from gaussmech_core import dpsgd

from .. import training
from .cache import cache_data

__all__ = ["Answer", "answer", "cell_sigma", "epsilon_band", "attack_risk"]

Answer = dict  # the keys of :func:`answer`


@cache_data(max_entries=64)
def answer(epsilon: float, delta: float, sampling_rate: float, steps: int) -> Answer:
    """The σ to use and the two others beside it, each with what it means at the target.

    Keys: ``sigma``, ``epsilon_low``, ``epsilon_high`` (the certified calibration and its bracket),
    ``rdp_sigma`` (None where RDP cannot reach the target), ``clt_sigma``, and at the certified σ
    ``rdp_epsilon`` and ``clt_epsilon``; ``clt_epsilon_low``: the certified lower end of ε at the
    CLT's σ (the true ε there is at least this).
    Raises ValueError (from the core) where no σ meets the target.
    """
    calibration = dpsgd.dpsgd_sigma(epsilon, delta, sampling_rate, steps)
    try:
        rdp_sigma: float | None = dpsgd.dpsgd_rdp_sigma(epsilon, delta, sampling_rate, steps)
    except ValueError:
        rdp_sigma = None
    clt_sigma = dpsgd.dpsgd_clt_sigma(epsilon, delta, sampling_rate, steps)
    at_clt = dpsgd.dpsgd_epsilon(clt_sigma, sampling_rate, steps, delta)
    # The calibration's bracket and the accountant's at that σ (two grids) are both certified: the page
    # quotes their intersection, which is also what the ε-against-epochs band shows at the full length.
    at_sigma = dpsgd.dpsgd_epsilon(calibration.sigma, sampling_rate, steps, delta)
    return dict(
        sigma=calibration.sigma,
        epsilon_low=max(calibration.epsilon_low, at_sigma.low),
        epsilon_high=min(calibration.epsilon_high, at_sigma.high),
        rdp_sigma=rdp_sigma,
        clt_sigma=clt_sigma,
        rdp_epsilon=dpsgd.dpsgd_rdp_epsilon(calibration.sigma, sampling_rate, steps, delta),
        clt_epsilon=dpsgd.dpsgd_clt_epsilon(calibration.sigma, sampling_rate, steps, delta),
        clt_epsilon_low=at_clt.low,
        clt_epsilon_high=at_clt.high,
    )


@cache_data(max_entries=256)
def cell_sigma(epsilon: float, delta: float, sampling_rate: float, steps: int) -> float:
    """The certified σ alone (a planner-map cell); NaN where no σ meets the target."""
    try:
        return dpsgd.dpsgd_sigma(epsilon, delta, sampling_rate, steps).sigma
    except ValueError:
        return math.nan


@cache_data(max_entries=32)
def epsilon_band(sigma: float, delta: float, sampling_rate: float, steps: tuple[int, ...], epochs: tuple[float, ...]):
    """ε against training length at one σ (:func:`gaussmech_ui.training.epsilon_band`), cached."""
    return training.epsilon_band(sigma, delta, sampling_rate, steps, epochs)


@cache_data(max_entries=32)
def attack_risk(sigma: float, sampling_rate: float, steps: int, prior: float) -> dict:
    """Upper bounds on the best membership attack against the trained model (safe side).

    Keys: ``tpr_0001`` and ``tpr_001`` (TPR at FPR 0.1 % and 1 %), ``advantage``, ``posterior``
    (at FPR 0.1 %, for ``prior``), ``prior``.
    """
    risk = dpsgd.dpsgd_attack_risk(sigma, sampling_rate, steps, (0.001, 0.01), prior)
    return dict(
        tpr_0001=risk.true_positive_rates[0.001],
        tpr_001=risk.true_positive_rates[0.01],
        advantage=risk.advantage,
        posterior=risk.posterior,
        prior=prior,
    )
