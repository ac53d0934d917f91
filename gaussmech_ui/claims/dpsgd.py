"""The Training (DP-SGD) page's sentences: the σ to use, the loose and the unsafe answers, the attack bounds.

Every number a sentence quotes on the safe side is rounded to it: the σ to use is rounded **up**
(ε falls as σ grows, docs/math.md section 13.5, so a larger σ keeps the guarantee), ε_high and
every attack bound are rounded up, ε_low down. The sampling scheme is always named: the numbers
are Poisson sampling's; for shuffled batches they are labelled optimistic (no tight analysis
exists for shuffling). Pure: numbers in, claims out (DESIGN.md section 3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..format import format_number, round_down, round_up
from .base import Claim, record

__all__ = [
    "round_up",
    "round_down",
    "AnswerClaim",
    "AlternativeClaim",
    "AttackClaim",
    "answer_claim",
    "rdp_claim",
    "clt_claim",
    "attack_claim",
    "sampling_note",
    "BandClaim",
    "band_claim",
    "PlannerClaim",
    "planner_claim",
]

DIGITS = 3


def _percent_up(fraction: float) -> str:
    return f"{format_number(round_up(100.0 * fraction), DIGITS)}%"


def sampling_note(shuffled: bool) -> str:
    """The sampling scheme, named: Poisson is what is computed."""
    if shuffled:
        return (
            "Sampling: you train with shuffled batches, but these are the numbers of Poisson sampling, "
            "**optimistic: no tight analysis exists for shuffling**."
        )
    return "Sampling: Poisson (each example joins each batch independently with probability q = B/N), as computed."


@dataclass(frozen=True, kw_only=True)
class AnswerClaim(Claim):
    """ "Use σ = s": s is the certified σ rounded up, its ε_high meets the target, the noise std is s·C."""

    sigma: float  # the certified σ
    shown_sigma: float
    epsilon: float
    delta: float
    epsilon_low: float
    epsilon_high: float
    clipping_norm: float
    noise_std: float

    kind = "answer"
    rule = "the σ shown is at least the certified σ, whose ε_high is at most the target; noise std = σ shown × C"

    def violations(self) -> list[str]:
        problems = []
        if self.shown_sigma < self.sigma:
            problems.append(f"σ shown {self.shown_sigma!r} is below the certified {self.sigma!r}")
        if self.epsilon_high > self.epsilon:
            problems.append(f"ε_high {self.epsilon_high!r} exceeds the target {self.epsilon!r}")
        if not self.epsilon_low <= self.epsilon_high:
            problems.append("the bracket is inverted")
        if not math.isclose(self.noise_std, self.shown_sigma * self.clipping_norm, rel_tol=1e-12):
            problems.append("the noise std is not σ × C")
        return problems


def answer_claim(
    answer: dict,
    *,
    epsilon: float,
    delta: float,
    clipping_norm: float,
    steps: int,
    sampling_rate: float,
    shuffled: bool,
) -> AnswerClaim:
    """The page's answer sentence, from the certified calibration."""
    shown = round_up(answer["sigma"], 4)
    noise_std = shown * clipping_norm
    scheme = "Poisson-sampled" if not shuffled else "Poisson-sampled (you shuffle: optimistic)"
    text = (
        f"**Use noise multiplier σ = {format_number(shown, 4)}** for the sidebar's ε = {format_number(epsilon)}, "
        f"δ = {format_number(delta)} over T = {steps:,} {scheme} steps (q = {format_number(sampling_rate)}); "
        f"noise std σ·C = {format_number(round_up(noise_std, 4), 4)}. "
        f"At σ ≈ {format_number(answer['sigma'], 6)} the true ε lies in "
        f"[{format_number(round_down(answer['epsilon_low']))}, {format_number(round_up(answer['epsilon_high']))}]; "
        "any larger σ is more private."
    )
    return record(
        AnswerClaim(
            text=text,
            sigma=answer["sigma"],
            shown_sigma=shown,
            epsilon=epsilon,
            delta=delta,
            epsilon_low=answer["epsilon_low"],
            epsilon_high=answer["epsilon_high"],
            clipping_norm=clipping_norm,
            noise_std=noise_std,
        )
    )


@dataclass(frozen=True, kw_only=True)
class AlternativeClaim(Claim):
    """Another accountant's σ beside the certified one, with its verdict.

    ``verdict`` is "loose" (RDP: a valid bound, at least the certified σ), "unsafe" (its σ is below
    the certified one and the certified ε_low at it exceeds the target: the true ε does), or
    "not certified" (below the certified σ, but ε_low at it does not prove the target is broken).
    """

    accountant: str
    sigma: float | None
    certified_sigma: float
    epsilon: float
    epsilon_low_at_sigma: float | None = None
    verdict: str

    kind = "alternative"
    rule = "loose: σ ≥ certified σ; unsafe: σ < certified σ and ε_low at σ > target; not certified: σ < certified σ"

    def violations(self) -> list[str]:
        if self.sigma is None:
            return [] if self.verdict == "unreachable" else ["no σ, but a verdict"]
        if self.verdict == "loose":
            return [] if self.sigma >= self.certified_sigma else ["'loose' σ below the certified σ"]
        if self.sigma >= self.certified_sigma:
            return [f"'{self.verdict}' σ not below the certified σ"]
        if self.verdict == "unsafe" and not (self.epsilon_low_at_sigma or 0) > self.epsilon:
            return ["'unsafe' without ε_low above the target"]
        return []


def rdp_claim(answer: dict) -> AlternativeClaim:
    """RDP's σ (Mironov, Talwar & Zhang 2019): a valid upper bound, so its σ is at least the certified one."""
    rdp, sigma = answer["rdp_sigma"], answer["sigma"]
    if rdp is None:
        text = "RDP (Rényi DP): no σ within its orders reaches this target."
        verdict = "unreachable"
    else:
        extra = rdp / sigma - 1.0
        text = (
            f"RDP (Rényi DP, a valid but loose bound): σ = {format_number(round_up(rdp), DIGITS)}, "
            f"{_percent_up(extra) if extra > 0 else '0%'} more noise than needed."
        )
        verdict = "loose"
    return record(
        AlternativeClaim(text=text, accountant="RDP", sigma=rdp, certified_sigma=sigma, epsilon=0.0, verdict=verdict)
    )


def clt_claim(answer: dict, epsilon: float) -> AlternativeClaim:
    """The CLT (Gaussian-DP) approximation's σ, flagged where it is below the certified σ."""
    clt, sigma, low = answer["clt_sigma"], answer["sigma"], answer["clt_epsilon_low"]
    shown = format_number(clt, DIGITS)
    if clt >= sigma:
        text = f"CLT (Gaussian-DP approximation, not a bound): σ = {shown}, not below the certified σ here."
        verdict = "loose"
    elif low > epsilon:
        text = (
            f"CLT (Gaussian-DP approximation): σ = {shown}, **underestimates: unsafe**: at that σ the true ε is "
            f"at least {format_number(round_down(low))}, above the target {format_number(epsilon)}."
        )
        verdict = "unsafe"
    else:
        text = (
            f"CLT (Gaussian-DP approximation): σ = {shown}, **below the certified σ: not certified** (at that σ "
            f"ε is only known to lie in [{format_number(round_down(low))}, "
            f"{format_number(round_up(answer['clt_epsilon_high']))}])."
        )
        verdict = "not certified"
    return record(
        AlternativeClaim(
            text=text,
            accountant="CLT",
            sigma=clt,
            certified_sigma=sigma,
            epsilon=epsilon,
            epsilon_low_at_sigma=low,
            verdict=verdict,
        )
    )


@dataclass(frozen=True, kw_only=True)
class AttackClaim(Claim):
    """ "At most" sentences on the best membership attack: each number shown is at least the core's upper bound."""

    bounds: dict  # name → (upper bound from the core, value shown)

    kind = "at most"
    rule = "every number shown is the certified upper bound rounded up"

    def violations(self) -> list[str]:
        return [
            f"{name}: shown {shown!r} below the bound {bound!r}"
            for name, (bound, shown) in self.bounds.items()
            if shown < bound
        ]


def attack_claim(risk: dict, *, shuffled: bool) -> AttackClaim:
    """What the best membership attacker can do against the trained model, from the certified upper δ-curve."""
    shown = {
        "tpr_0001": round_up(risk["tpr_0001"]),
        "tpr_001": round_up(risk["tpr_001"]),
        "advantage": round_up(risk["advantage"]),
        "posterior": round_up(risk["posterior"]),
    }
    text = (
        f"Against the trained model, the best membership attack catches a training example at most "
        f"{format_number(100 * shown['tpr_0001'])}% of the time when allowed 0.1% false alarms, and at most "
        f"{format_number(100 * shown['tpr_001'])}% at 1%; its advantage (TPR − FPR) is at most "
        f"{format_number(shown['advantage'])}. An attacker {format_number(100 * risk['prior'])}% sure beforehand "
        f"ends at most {format_number(100 * shown['posterior'])}% sure on a 0.1%-FPR decision."
    )
    if shuffled:
        text += " (Poisson numbers: optimistic for shuffled batches.)"
    bounds = {name: (risk[name], value) for name, value in shown.items()}
    return record(AttackClaim(text=text, bounds=bounds))


@dataclass(frozen=True, kw_only=True)
class BandClaim(Claim):
    """The ε-against-epochs reading: the bracket at the full length, and where the CLT falls below ε_low."""

    epsilon_low: float
    epsilon_high: float
    clt_below: int  # points where the CLT value is below ε_low
    clt_values: tuple[float, ...]
    low_values: tuple[float, ...]

    kind = "band"
    rule = "the bracket quoted is the last point's, rounded outward; the CLT count is the points with CLT < ε_low"

    def violations(self) -> list[str]:
        count = sum(clt < low for clt, low in zip(self.clt_values, self.low_values))
        return [] if count == self.clt_below else [f"CLT below ε_low at {count} points, not {self.clt_below}"]


def band_claim(frame, *, epochs: float) -> BandClaim:
    """The sentence under the ε-against-epochs chart."""
    last = frame.iloc[-1]
    clt, low = tuple(float(v) for v in frame["clt_epsilon"]), tuple(float(v) for v in frame["epsilon_low"])
    below = sum(c < lo for c, lo in zip(clt, low))
    text = (
        f"After E = {format_number(epochs)} epochs (T = {int(last['steps']):,} steps) the true ε lies in "
        f"[{format_number(round_down(float(last['epsilon_low'])))}, {format_number(round_up(float(last['epsilon_high'])))}]"
        "; stopping earlier spends less. "
    )
    if below:
        text += (
            f"The CLT approximation is below the certified lower bound ε_low at {below} of the {len(clt)} lengths "
            "shown: there it **underestimates: unsafe**."
        )
    else:
        text += "The CLT approximation is not below ε_low at any length shown."
    return record(
        BandClaim(
            text=text,
            epsilon_low=float(last["epsilon_low"]),
            epsilon_high=float(last["epsilon_high"]),
            clt_below=below,
            clt_values=clt,
            low_values=low,
        )
    )


@dataclass(frozen=True, kw_only=True)
class PlannerClaim(Claim):
    """The planner map's reading: the smallest and largest σ among the computed cells, with their cells."""

    smallest: float
    largest: float
    values: tuple[float, ...]
    shape: tuple[int, int] = (0, 0)
    monotone: bool = False  # the text says σ grows with epochs and batch size

    kind = "range"
    rule = "smallest and largest are the extremes of the computed cells; 'grows' only where no line decreases"

    def violations(self) -> list[str]:
        finite = [v for v in self.values if math.isfinite(v)]
        if not finite:
            return ["a range over no cell"]
        problems = [] if (self.smallest, self.largest) == (min(finite), max(finite)) else ["not the extremes"]
        if self.monotone:
            grid = np.asarray(self.values).reshape(self.shape)
            if not (_grows_along(grid, 0) and _grows_along(grid, 1)):
                problems.append("'more epochs or a larger batch needs more noise' but a line decreases")
        return problems


def _grows_along(sigmas, axis: int) -> bool:
    """Whether the computed cells never decrease along ``axis`` (0: down the epochs, 1: across the batches)."""
    lines = sigmas.T if axis == 0 else sigmas
    for line in lines:
        finite = [v for v in line if math.isfinite(v)]
        if any(b < a for a, b in zip(finite, finite[1:])):
            return False
    return True


def planner_claim(batches, epochs, sigmas, *, steps=None, budget: int | None = None) -> PlannerClaim | Claim:
    """The sentence under the planner map (σ rounded up: each is a σ to use).

    ``steps`` (the grid of T) and ``budget`` say why a cell is empty: beyond the step budget, or no σ.
    """
    values = tuple(float(v) for v in sigmas.ravel())
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return record(Claim(text="No cell of the map could be computed within the page's step budget."))
    width = len(batches)
    low_index, high_index = values.index(min(finite)), values.index(max(finite))

    def cell(index: int) -> str:
        return f"B = {batches[index % width]:,}, E = {format_number(epochs[index // width])}"

    text = (
        f"Over this map the certified σ runs from {format_number(round_up(min(finite)))} ({cell(low_index)}) to "
        f"{format_number(round_up(max(finite)))} ({cell(high_index)}), each rounded up."
    )
    monotone = _grows_along(sigmas, axis=0) and _grows_along(sigmas, axis=1)
    if monotone:
        text += " In every computed row and column, more epochs or a larger batch needs more noise per step."
    empty = [index for index, value in enumerate(values) if not math.isfinite(value)]
    if empty:
        beyond = [i for i in empty if steps is not None and budget is not None and steps.ravel()[i] > budget]
        unmet = len(empty) - len(beyond)
        if beyond:
            text += (
                f" {len(beyond)} cell{'s' if len(beyond) != 1 else ''} left empty: more than {budget:,} steps, "
                "beyond this page's budget."
            )
        if unmet:
            text += f" {unmet} cell{'s' if unmet != 1 else ''} empty: no σ meets the target there."
    return record(
        PlannerClaim(
            text=text,
            smallest=min(finite),
            largest=max(finite),
            values=values,
            shape=tuple(sigmas.shape),
            monotone=monotone,
        )
    )
