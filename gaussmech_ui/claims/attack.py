"""The attack numbers in words: "at most" and "best"/"weakest" sentences, from mechanisms whose guarantee holds.

A sentence that aggregates over mechanisms ("an observer ends at most 73.1% sure", "the weakest
lets it reach …") takes only the entries whose guarantee is proven and holds at the setting (a
"claimed" guarantee such as R1SMG's is not one), and names the mechanism whose number it quotes.
A claimed mechanism is spoken of on its own, as claimed (DESIGN.md section 3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping

import pandas as pd

from ..format import format_number, format_percent
from .base import Claim, record
from .odds import posterior_bound
from .ranking import place_phrase, rank, reader_name

__all__ = ["BoundClaim", "holds_here", "risk_caption"]

FALSE_POSITIVE_RATE = 0.01


def holds_here(mechanism, valid: bool) -> bool:
    """Whether an aggregate may use the mechanism: its guarantee holds here and is proven, not only claimed."""
    return bool(valid) and getattr(mechanism, "guarantee", "") != "claimed"


@dataclass(frozen=True, kw_only=True)
class BoundClaim(Claim):
    """ "At most" a number taken over mechanisms: the rule, the number is the largest of ``candidates`` and named.

    ``candidates`` are the mechanisms whose guarantee holds at the setting (by id, with their
    values); ``mechanism_id`` is the one quoted, and its name is in the text.
    """

    text: str
    quantity: str
    value: float
    mechanism_id: str
    candidates: Mapping[str, float]
    mechanisms: Mapping = field(default_factory=dict, repr=False, compare=False)

    kind = "at most"
    rule = "the largest value over mechanisms whose guarantee holds here, and the mechanism that has it is named"

    def violations(self) -> list[str]:
        problems = []
        if not self.candidates:
            return ["an 'at most' over no mechanism"]
        if self.value != max(self.candidates.values()):
            problems.append(f"{self.value!r} is not the largest {self.quantity} {max(self.candidates.values())!r}")
        if self.candidates.get(self.mechanism_id) != self.value:
            problems.append(f"the quoted value is not {self.mechanism_id}'s")
        for key in self.candidates:
            if getattr(self.mechanisms.get(key), "guarantee", "") == "claimed":
                problems.append(f"{key}'s guarantee is only claimed, but it is aggregated")
        mechanism = self.mechanisms.get(self.mechanism_id)
        if mechanism is not None and reader_name(mechanism) not in self.text and mechanism.name not in self.text:
            problems.append(f"{self.mechanism_id} is quoted but not named")
        return problems


def risk_caption(frame: pd.DataFrame, setting, prior: float, mechanisms: Mapping) -> str:
    """The sentence under the attack table, from the numbers: the promise, the proven range, one observer.

    ``frame`` has one row per mechanism (``id``, ``valid``, ``tpr_1``, ``posterior_1``), as
    :func:`gaussmech_ui.attack_panel.attack_risk_frame` computes it.
    """
    rows = frame.set_index("id")
    proven = {
        key: float(row["tpr_1"])
        for key, row in rows.iterrows()
        if holds_here(mechanisms[key], row["valid"]) and math.isfinite(row["tpr_1"])
    }
    claimed = [
        key
        for key, row in rows.iterrows()
        if row["valid"] and mechanisms[key].guarantee == "claimed" and math.isfinite(row["tpr_1"])
    ]
    promise = min(1.0, math.exp(min(setting.epsilon, 700.0)) * FALSE_POSITIVE_RATE + setting.delta)
    sentences = [
        f"At ε = {format_number(setting.epsilon)} and δ = {format_number(setting.delta)}, the (ε, δ) promise lets an "
        f"attacker allowed 1 false alarm in 100 catch Alice at most {format_percent(promise, 3)} of the time."
    ]
    if not proven:
        sentences.append("No mechanism with a proven guarantee is valid at this setting.")
    else:
        ranking = rank(proven, mechanisms, setting, quantity="TPR at 1% FPR")
        best, worst = ranking.best, ranking.worst
        if len(ranking.places) == 1:
            sentences.append(
                f"Every mechanism with a proven guarantee holds it to {format_percent(proven[best[0]], 3)} "
                f"({place_phrase(best, mechanisms, setting, proven)})."
            )
        else:
            sentences.append(
                f"Of the mechanisms with a proven guarantee, {place_phrase(best, mechanisms, setting, proven)} holds it "
                f"to {format_percent(proven[best[0]], 3)}; the weakest, {place_phrase(worst, mechanisms, setting, proven)}"
                f", lets it reach {format_percent(proven[worst[0]], 3)}."
            )
        sentences.append(_posterior_sentence(rows, proven, setting, prior, mechanisms))
    for key in claimed:
        reach = float(rows.loc[key, "tpr_1"])
        verdict = "above what its claimed guarantee allows" if reach > promise else "within the promise"
        sentences.append(
            f"{reader_name(mechanisms[key])} (its guarantee is only claimed) lets it reach "
            f"{format_percent(reach, 3)}, {verdict}."
        )
    return " ".join(sentences)


def _posterior_sentence(rows: pd.DataFrame, proven: Mapping[str, float], setting, prior: float, mechanisms) -> str:
    posteriors = {
        key: float(rows.loc[key, "posterior_1"]) for key in proven if math.isfinite(rows.loc[key, "posterior_1"])
    }
    if not posteriors:
        return ""
    top = max(posteriors.values())
    quoted = rank(posteriors, mechanisms, setting, smaller_is_better=False, quantity="posterior").best
    # Entries tied in one place draw the same noise (a registry fact): one risk, computed twice and
    # apart in the last bits, so each is given the larger of them (the safe side).
    posteriors.update(dict.fromkeys(quoted, max(posteriors[key] for key in quoted)))
    allowed = posterior_bound(prior, setting.epsilon, setting.delta, FALSE_POSITIVE_RATE)
    text = (
        f"An observer {format_percent(prior, 3)} sure beforehand ends at most {format_percent(top, 3)} sure on a "
        f"1%-FPR decision against {place_phrase(quoted, mechanisms, setting, posteriors)}, the weakest proven here "
        f"(the (ε, δ) promise alone allows at most {format_percent(allowed, 3)})."
    )
    return record(
        BoundClaim(
            text=text,
            quantity="posterior at 1% FPR",
            value=top,
            mechanism_id=quoted[0],
            candidates=posteriors,
            mechanisms=mechanisms,
        )
    ).text
