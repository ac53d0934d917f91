"""The denoising lab's default pipeline from the data's shape, and the step that would help, as sentences.

Pure rules (numbers in, words out), used by :mod:`gaussmech_ui.figures.denoising`:

* :func:`sparse` says whether a histogram has mostly empty bins, the case soft thresholding is made
  for (Balle & Wang 2018, appendix B: shrinking towards 0 removes the noise of empty bins and
  biases every full one);
* :func:`default_estimator_for` picks step 1 from the data's shape: wavelets for a heat map,
  soft thresholding for a sparse histogram, **no step 1** for a dense one (its counts are far from
  0, so shrinking them adds error; the projection of step 2 does the work), positive-part
  James–Stein for a vector of values;
* :func:`helping_step` names, when a pipeline made a release worse, the step that would help:
  the projection onto the counts' constraint set (nonnegative, adding up to the public n) alone
  never increases the l2 error, because the truth lies in that convex set (docs/math.md section 8.5).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..format import format_percent

__all__ = ["SPARSE_SHARE", "PROJECTIONS", "zero_share", "sparse", "default_estimator_for", "helping_step"]

# A histogram is sparse when at least this share of its bins are 0.
SPARSE_SHARE = 0.5
# Step-2 projections that never increase the l2 error (clip-and-rescale has no such guarantee).
PROJECTIONS = ("simplex", "nonnegative")


def zero_share(counts: np.ndarray) -> float:
    """The share of bins that are exactly 0.

    Examples
    --------
    >>> zero_share(np.array([0.0, 0.0, 3.0, 5.0]))
    0.5
    """
    counts = np.asarray(counts)
    return float(np.count_nonzero(counts == 0) / counts.size) if counts.size else 0.0


def sparse(counts: np.ndarray) -> bool:
    """Whether a histogram has mostly empty bins (:data:`SPARSE_SHARE`)."""
    return zero_share(counts) >= SPARSE_SHARE


def default_estimator_for(kind: str, nonnegative: bool, counts: np.ndarray, available: Sequence[str]) -> str:
    """Step 1 for data of this shape: ``kind`` "2d" (a heat map) or not, counts or values.

    Examples
    --------
    >>> steps = ("none", "soft_threshold", "wavelet_soft_threshold", "james_stein_plus")
    >>> default_estimator_for("1d", True, np.array([0, 0, 0, 9]), steps)
    'soft_threshold'
    >>> default_estimator_for("1d", True, np.array([80, 95, 120, 101]), steps)
    'none'
    """
    if kind == "2d":
        preferences: tuple[str, ...] = ("wavelet_soft_threshold", "soft_threshold")
    elif nonnegative:
        preferences = ("soft_threshold",) if sparse(counts) else ("none",)
    else:
        preferences = ("james_stein_plus", "empirical_bayes")
    for step in preferences + ("none",):
        if step in available:
            return step
    return available[0]


def helping_step(steps: Sequence[str], truth: np.ndarray, nonnegative: bool, step_names: dict) -> str:
    """When ``steps`` made a release worse: which step to drop or choose instead, and why ("" when none is known).

    Examples
    --------
    >>> names = {"soft_threshold": "Soft thresholding", "simplex": "Projection onto the simplex"}
    >>> print(helping_step(("soft_threshold", "simplex"), np.array([80, 95, 120, 101]), True, names))
    Step 1 (Soft thresholding) shrinks every count towards 0, which suits histograms with many empty bins; here 0% of the bins are 0. Choose "none" in step 1 and keep step 2 (a projection onto nonnegative counts, adding up to n when n is public): on its own it never increases the l2 error.
    """
    estimators = [step for step in steps if step not in PROJECTIONS + ("clip_rescale", "round", "none")]
    if nonnegative and estimators and not sparse(truth):
        name = step_names.get(estimators[0], estimators[0])
        return (
            f"Step 1 ({name}) shrinks every count towards 0, which suits histograms with many empty bins; here "
            f'{format_percent(zero_share(truth), 3)} of the bins are 0. Choose "none" in step 1 and keep step 2 '
            "(a projection onto nonnegative counts, adding up to n when n is public): on its own it never increases "
            "the l2 error."
        )
    if nonnegative and "clip_rescale" in steps:
        return (
            "Liu's clip-and-rescale (step 2) has no guarantee; the projection onto the simplex (nonnegative counts "
            "adding up to n) never increases the l2 error: choose it in step 2."
        )
    if "round" in steps:
        return "Rounding to whole counts (step 3) can add error; turn it off to keep the projection's guarantee."
    return ""
