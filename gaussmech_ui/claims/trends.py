"""How a drawn curve moves, and how two drawn curves compare, as claims computed from the arrays drawn.

A chart's caption says what its curves do ("grows from 6.46 to 118", "below at every d drawn")
from the very arrays the chart plots, so the words cannot contradict the picture (issue 21, the
tour's dimension step).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..format import format_number, format_ratio
from .base import Claim, record

__all__ = ["TrendClaim", "ComparisonClaim", "trend", "comparison"]


def _finite(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = np.isfinite(y)
    return x[keep], y[keep]


@dataclass(frozen=True, kw_only=True)
class TrendClaim(Claim):
    """A curve's first and last drawn values, and whether it grows or falls; the rule: the words match the ends."""

    text: str
    first: float
    last: float
    x_first: float
    x_last: float

    kind = "trend"
    rule = "'grows' when the last drawn value is above the first, 'falls' when below, with both values stated"

    def violations(self) -> list[str]:
        word = "grows" if self.last > self.first else "falls" if self.last < self.first else "stays"
        problems = [] if word in self.text else [f"the curve {word}, the text does not say so"]
        for value in (self.first, self.last):
            if format_number(value) not in self.text:
                problems.append(f"{format_number(value)} is not in the text")
        return problems


def trend(name: str, x: np.ndarray, y: np.ndarray, *, x_name: str = "d") -> str:
    """ "the analytic Gaussian's grows from 6.46 at d = 3 to 118 at d = 1,000 (18×)", from the drawn points.

    Examples
    --------
    >>> print(trend("R1SMG's", np.array([3, 1000]), np.array([2.2e5, 1.44])))
    R1SMG's falls from 2.2e5 at d = 3 to 1.44 at d = 1,000 (down 1.53e5×)
    """
    xs, ys = _finite(x, y)
    if ys.size < 2:
        return ""
    first, last = float(ys[0]), float(ys[-1])
    ends = (
        f"from {format_number(first)} at {x_name} = {xs[0]:,.0f} to {format_number(last)} at {x_name} = {xs[-1]:,.0f}"
    )
    if last > first:
        text = f"{name} grows {ends} ({format_ratio(last / first)})"
    elif last < first:
        text = f"{name} falls {ends} (down {format_ratio(first / last)})"
    else:
        text = f"{name} stays at {format_number(first)} from {x_name} = {xs[0]:,.0f} to {xs[-1]:,.0f}"
    return record(TrendClaim(text=text, first=first, last=last, x_first=float(xs[0]), x_last=float(xs[-1]))).text


@dataclass(frozen=True, kw_only=True)
class ComparisonClaim(Claim):
    """Where one drawn curve lies against another; the rule: 'below at every' only when it is below at every point."""

    text: str
    below: tuple[bool, ...]

    kind = "comparison"
    rule = "'below at every' / 'above at every' / 'crosses' from the pointwise comparison of the drawn values"

    def violations(self) -> list[str]:
        if all(self.below) and "below" not in self.text:
            return ["below everywhere, the text does not say so"]
        if not any(self.below) and "above" not in self.text:
            return ["above everywhere, the text does not say so"]
        if any(self.below) and not all(self.below) and "cross" not in self.text:
            return ["the curves cross, the text does not say so"]
        return []


def comparison(name: str, other: str, x: np.ndarray, y: np.ndarray, y_other: np.ndarray, *, x_name: str = "d") -> str:
    """ "it stays below the analytic Gaussian's at every d drawn", or where the two cross, from the drawn points."""
    x = np.asarray(x, dtype=float)
    y, y_other = np.asarray(y, dtype=float), np.asarray(y_other, dtype=float)
    both = np.isfinite(y) & np.isfinite(y_other)
    if not both.any():
        return ""
    x, below = x[both], y[both] < y_other[both]
    if below.all():
        text = f"{name} stays below {other} at every {x_name} drawn"
    elif not below.any():
        text = f"{name} stays above {other} at every {x_name} drawn"
    else:
        change = int(np.flatnonzero(below[1:] != below[:-1])[0])
        side = "above" if below[change] else "below"
        text = (
            f"{name} crosses {other} between {x_name} = {x[change]:,.0f} and {x[change + 1]:,.0f} "
            f"and is {side} it beyond"
        )
    return record(ComparisonClaim(text=text, below=tuple(bool(b) for b in below))).text
