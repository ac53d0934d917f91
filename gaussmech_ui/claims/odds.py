"""ε as odds: the (ε, δ)-DP promise in words, and one observer's numbers, as claims.

In the largest user study of differential-privacy explanations (Nanayakkara et al., "What are
the chances? Explaining the epsilon parameter in differential privacy", USENIX Security 2023),
an odds framing was understood better than showing example outputs.

The sentence states (ε, δ)-DP itself: on any yes/no decision S made from the release,
P[S | Alice in] ≤ e^ε P[S | Alice out] + δ (Dwork & Roth 2014, Definition 2.4). It does not say
"the odds move by at most e^ε except with probability δ": that is probabilistic DP, a weaker
promise (the privacy loss of the same noise can exceed ε with probability well above δ). In odds,
by Bayes' rule: a decision that wrongly flags Alice a fraction F of the time when she is out
multiplies an observer's odds by at most (e^ε·F + δ)/F = e^ε + δ/F (Kairouz, Oh & Viswanath 2015).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..format import format_number, format_percent
from .base import Claim, record

__all__ = [
    "OddsClaim",
    "PosteriorClaim",
    "PROMISE",
    "odds_factor_text",
    "odds_sentence",
    "odds_example",
    "posterior_bound",
]

_LOG10_E = math.log10(math.e)

# The (ε, δ)-DP promise, written once (every odds sentence contains it when δ > 0).
PROMISE = "P[S | Alice in] ≤ e^ε·P[S | Alice out] + δ"
PURE_PROMISE = "P[S | Alice in] ≤ e^ε·P[S | Alice out]"
# The probabilistic-DP reading an odds sentence must never give for (ε, δ)-DP.
PROBABILISTIC_READING = "except with probability"


def odds_factor_text(epsilon: float) -> str:
    """e^ε for people: ``2.72``; ``10^434`` when it would overflow.

    Examples
    --------
    >>> odds_factor_text(1.0), odds_factor_text(0.1), odds_factor_text(1000.0)
    ('2.72', '1.11', '10^434')
    """
    if epsilon * _LOG10_E > 300:
        return f"10^{int(epsilon * _LOG10_E)}"
    return format_number(math.exp(epsilon))


@dataclass(frozen=True, kw_only=True)
class OddsClaim(Claim):
    """The (ε, δ)-DP promise in words; the rule: it states the decision form with both numbers, never the pDP reading."""

    text: str
    epsilon: float
    delta: float

    kind = "odds"
    rule = "states P[S | in] ≤ e^ε P[S | out] + δ with this ε and δ"

    def violations(self) -> list[str]:
        problems = []
        promise = PROMISE if self.delta > 0 else PURE_PROMISE
        if promise not in self.text:
            problems.append(f"does not state the promise {promise!r}")
        if PROBABILISTIC_READING in self.text:
            problems.append("gives the probabilistic-DP reading ('except with probability δ')")
        if f"e^ε = {odds_factor_text(self.epsilon)}" not in self.text:
            problems.append(f"e^ε is not {odds_factor_text(self.epsilon)}")
        if self.delta > 0 and f"δ = {format_number(self.delta)}" not in self.text:
            problems.append(f"δ = {format_number(self.delta)} is not stated")
        return problems


def odds_sentence(epsilon: float, delta: float | None) -> str:
    """The (ε, δ)-DP promise as a decision about Alice, then in odds, with δ always stated.

    Examples
    --------
    >>> print(odds_sentence(1.0, 1e-5))
    (ε, δ)-DP promises that on any yes/no decision S made from the release, P[S | Alice in] ≤ e^ε·P[S | Alice out] + δ, here with e^ε = 2.72 and δ = 1e-5. In odds: a decision that wrongly flags Alice a fraction F of the time when she is out multiplies an observer's odds that she is in the data by at most e^ε + δ/F.
    >>> print(odds_sentence(0.5, None))
    ε-DP promises that on any yes/no decision S made from the release, P[S | Alice in] ≤ e^ε·P[S | Alice out], here with e^ε = 1.65 (pure ε-DP: no δ). In odds: whatever an observer believed before, the release changes the odds that Alice is in the data by at most a factor e^ε.
    """
    factor = odds_factor_text(epsilon)
    if delta is None or delta == 0:
        text = (
            f"ε-DP promises that on any yes/no decision S made from the release, {PURE_PROMISE}, here with "
            f"e^ε = {factor} (pure ε-DP: no δ). In odds: whatever an observer believed before, the release changes "
            "the odds that Alice is in the data by at most a factor e^ε."
        )
    else:
        text = (
            f"(ε, δ)-DP promises that on any yes/no decision S made from the release, {PROMISE}, here with "
            f"e^ε = {factor} and δ = {format_number(delta)}. In odds: a decision that wrongly flags Alice a fraction "
            "F of the time when she is out multiplies an observer's odds that she is in the data by at most e^ε + δ/F."
        )
    return record(OddsClaim(text=text, epsilon=float(epsilon), delta=float(delta or 0.0))).text


def posterior_bound(prior: float, epsilon: float, delta: float = 0.0, false_positive_rate: float = 1.0) -> float:
    """The largest belief (ε, δ)-DP allows after a decision with this false-alarm rate: odds × (e^ε + δ/F).

    With δ = 0 the bound holds for every decision (F drops out).

    Examples
    --------
    >>> round(posterior_bound(0.1, 1.0), 4)
    0.232
    >>> round(posterior_bound(0.5, 1.0, 1e-5, 0.01), 6)
    0.731131
    """
    if not 0.0 < prior < 1.0:
        raise ValueError(f"prior must be in (0, 1), got prior={prior!r}")
    if not 0.0 < false_positive_rate <= 1.0:
        raise ValueError(f"false_positive_rate must be in (0, 1], got false_positive_rate={false_positive_rate!r}")
    log_factor = epsilon + math.log1p(delta / false_positive_rate * math.exp(-min(epsilon, 700.0)))
    log_odds = math.log(prior) - math.log1p(-prior) + log_factor
    return 1.0 / (1.0 + math.exp(-log_odds)) if log_odds > -700 else math.exp(log_odds)


@dataclass(frozen=True, kw_only=True)
class PosteriorClaim(Claim):
    """One observer's bound; the rule: the percentage is Bayes' rule on the (ε, δ) promise at this FPR."""

    text: str
    prior: float
    epsilon: float
    delta: float
    false_positive_rate: float
    posterior: float

    kind = "at most"
    rule = "posterior ≤ prior odds × (e^ε + δ/F), as a probability"

    def violations(self) -> list[str]:
        exact = posterior_bound(self.prior, self.epsilon, self.delta, self.false_positive_rate)
        problems = []
        if not math.isclose(exact, self.posterior, rel_tol=1e-12):
            problems.append(f"posterior {self.posterior!r} is not the bound {exact!r}")
        if f"at most {format_percent(exact, 3)}" not in self.text:
            problems.append(f"the text does not say 'at most {format_percent(exact, 3)}'")
        if PROBABILISTIC_READING in self.text:
            problems.append("gives the probabilistic-DP reading ('except with probability δ')")
        return problems


def odds_example(prior: float, epsilon: float, delta: float | None, false_positive_rate: float = 0.01) -> str:
    """One observer's numbers: "someone 10% sure … at most 23.2% sure", on a decision with a stated false-alarm rate.

    Examples
    --------
    >>> print(odds_example(0.1, 1.0, 1e-5))
    Someone 10% sure that Alice is in the data, acting on a decision that wrongly flags her 1% of the time when she is out, can be at most 23.2% sure after the release (odds × 2.72, from e^ε + δ/1%).
    >>> print(odds_example(0.1, 1.0, None))
    Someone 10% sure that Alice is in the data before the release can be at most 23.2% sure after it (odds × 2.72), on any decision.
    """
    delta = float(delta or 0.0)
    after = posterior_bound(prior, epsilon, delta, false_positive_rate)
    before = format_percent(prior, 3)
    if delta == 0.0:
        text = (
            f"Someone {before} sure that Alice is in the data before the release can be at most "
            f"{format_percent(after, 3)} sure after it (odds × {odds_factor_text(epsilon)}), on any decision."
        )
    else:
        factor = math.exp(min(epsilon, 700.0)) + delta / false_positive_rate
        fpr = format_percent(false_positive_rate, 3)
        text = (
            f"Someone {before} sure that Alice is in the data, acting on a decision that wrongly flags her {fpr} of "
            f"the time when she is out, can be at most {format_percent(after, 3)} sure after the release "
            f"(odds × {format_number(factor) if epsilon < 690 else odds_factor_text(epsilon)}, from e^ε + δ/{fpr})."
        )
    return record(
        PosteriorClaim(
            text=text,
            prior=float(prior),
            epsilon=float(epsilon),
            delta=delta,
            false_positive_rate=float(false_positive_rate),
            posterior=after,
        )
    ).text
