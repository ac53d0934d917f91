"""The reasons a ranking gives, and the warning a failed claim gets, as claims with their rules.

* :class:`RatioClaim`: "X has 2.5× Y's error": the ratio written is the two errors' ratio, and every
  number the clause quotes (e.g. Laplace's Δ₁) is the setting's.
* :class:`ExcessClaim`: "the other Gaussian calibrations ... add 3–25% more error": each excess is
  positive, and the range written is the smallest to the largest.
* :class:`FailedClaim`: "R1SMG's 0.8× is not ranked: its claim fails here", and the Overview's
  warning that a published guarantee does not hold: the computed true δ exceeds the claimed δ.

Pure: numbers in, claims out (DESIGN.md section 3, "Sentences from numbers are claims").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..format import format_number, format_percent, format_ratio
from .base import Claim, record

__all__ = ["ExcessClaim", "FailedClaim", "RatioClaim", "excess_range", "failed_claim", "ratio_clause"]


@dataclass(frozen=True, kw_only=True)
class RatioClaim(Claim):
    """A mechanism's error as a multiple of a reference's, with the setting's numbers it quotes."""

    value: float
    reference_value: float
    quoted: tuple[tuple[str, float], ...] = ()

    kind = "ratio"
    rule = "the ratio written is value / reference at 3 significant digits; each quoted number is the setting's"

    def violations(self) -> list[str]:
        problems = []
        if not (self.reference_value > 0 and math.isfinite(self.value)):
            problems.append(f"no ratio between {self.value} and {self.reference_value}")
        elif format_ratio(self.value / self.reference_value) not in self.text:
            problems.append(f"the ratio is {format_ratio(self.value / self.reference_value)}, not what the text says")
        problems += [
            f"{label} is {format_number(number)}, not in the text"
            for label, number in self.quoted
            if format_number(number) not in self.text
        ]
        return problems


def ratio_clause(
    text_before_ratio: str,
    text_after_ratio: str,
    *,
    value: float,
    reference_value: float,
    quoted: tuple[tuple[str, float], ...] = (),
) -> str:
    """``text_before_ratio`` + "r×" + ``text_after_ratio``, with r = value / reference_value, recorded."""
    text = f"{text_before_ratio}{format_ratio(value / reference_value)}{text_after_ratio}"
    return record(RatioClaim(text=text, value=value, reference_value=reference_value, quoted=quoted)).text


@dataclass(frozen=True, kw_only=True)
class ExcessClaim(Claim):
    """ "...add x–y% more error": the excesses over the reference, each positive, as a range."""

    excesses: tuple[float, ...]

    kind = "excess"
    rule = "every excess is positive, and the range written runs from the smallest to the largest"

    def violations(self) -> list[str]:
        if not self.excesses:
            return ["no excess to state"]
        problems = [f"an excess of {format_percent(e)} is not more error" for e in self.excesses if not e > 0]
        if _percent_range(self.excesses) not in self.text:
            problems.append(f"the range is {_percent_range(self.excesses)}, not what the text says")
        return problems


def _percent_range(excesses) -> str:
    """One percentage when the smallest and largest are within 5% of each other, else "low–high"."""
    low, high = min(excesses), max(excesses)
    if math.isclose(low, high, rel_tol=0.05):
        return format_percent(low)
    return f"{format_percent(low)}–{format_percent(high)}"


def excess_range(text_before_range: str, text_after_range: str, excesses) -> str:
    """``text_before_range`` + the excesses as a percentage range + ``text_after_range``, recorded."""
    excesses = tuple(float(e) for e in excesses)
    text = f"{text_before_range}{_percent_range(excesses)}{text_after_range}"
    return record(ExcessClaim(text=text, excesses=excesses)).text


@dataclass(frozen=True, kw_only=True)
class FailedClaim(Claim):
    """A published ("claimed") guarantee said not to hold: its computed true δ exceeds the claimed δ."""

    claimed_delta: float
    true_delta: float

    kind = "failed claim"
    rule = "the computed true δ is larger than the claimed δ"

    def violations(self) -> list[str]:
        if math.isfinite(self.true_delta) and self.true_delta > self.claimed_delta:
            return []
        return [f"true δ {format_number(self.true_delta)} is not above the claimed {format_number(self.claimed_delta)}"]


def failed_claim(text: str, *, claimed_delta: float, true_delta: float) -> str:
    """``text`` (that a claimed guarantee fails here), recorded with the two δ that make it true."""
    return record(FailedClaim(text=text, claimed_delta=claimed_delta, true_delta=true_delta)).text
