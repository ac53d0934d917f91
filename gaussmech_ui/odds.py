"""ε as odds: the framing people understood best, as a caption written from the numbers.

In the largest user study of differential-privacy explanations (Nanayakkara et al., "What are
the chances? Explaining the epsilon parameter in differential privacy", USENIX Security 2023),
an odds framing was understood better than showing example outputs. Captions that explain a
guarantee use :func:`odds_sentence`; :func:`odds_example` turns it into one observer's numbers.

The precise statement behind it: under (ε, δ)-DP every decision S about Alice satisfies
P[S | Alice in] ≤ e^ε P[S | Alice out] + δ (Kairouz, Oh & Viswanath 2015), so the odds of "Alice is
in" move by at most e^ε, up to the additive δ. With δ = 0 (pure ε-DP) the bound is exact.
"""

from __future__ import annotations

import math

from .format import format_number, format_percent

__all__ = ["odds_factor_text", "odds_sentence", "odds_example", "posterior_bound"]

_LOG10_E = math.log10(math.e)


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


def odds_sentence(epsilon: float, delta: float | None) -> str:
    """The odds framing of (ε, δ), with δ always stated.

    Examples
    --------
    >>> print(odds_sentence(1.0, 1e-5))
    Whatever an observer believed before, seeing the release can change the odds that Alice is in the data by at most a factor e^ε = 2.72, except with probability δ = 1e-5.
    >>> print(odds_sentence(0.5, None))
    Whatever an observer believed before, seeing the release can change the odds that Alice is in the data by at most a factor e^ε = 1.65 (pure ε-DP: no exceptions).
    """
    factor = odds_factor_text(epsilon)
    base = (
        "Whatever an observer believed before, seeing the release can change the odds that Alice is in the "
        f"data by at most a factor e^ε = {factor}"
    )
    if delta is None or delta == 0:
        return base + " (pure ε-DP: no exceptions)."
    return base + f", except with probability δ = {format_number(delta)}."


def posterior_bound(prior: float, epsilon: float) -> float:
    """The largest belief the odds bound allows: prior odds × e^ε, as a probability.

    Examples
    --------
    >>> round(posterior_bound(0.1, 1.0), 4)
    0.232
    """
    if not 0.0 < prior < 1.0:
        raise ValueError(f"prior must be in (0, 1), got prior={prior!r}")
    log_odds = math.log(prior) - math.log1p(-prior) + epsilon
    return 1.0 / (1.0 + math.exp(-log_odds)) if log_odds > -700 else math.exp(log_odds)


def odds_example(prior: float, epsilon: float, delta: float | None) -> str:
    """One observer's numbers: "someone 10 % sure ... at most 23.2 % sure".

    Examples
    --------
    >>> print(odds_example(0.1, 1.0, 1e-5))
    Someone 10% sure that Alice is in the data before the release can be at most 23.2% sure after it (odds × 2.72), except with probability δ = 1e-5.
    """
    after = posterior_bound(prior, epsilon)
    tail = "." if not delta else f", except with probability δ = {format_number(delta)}."
    return (
        f"Someone {format_percent(prior, 3)} sure that Alice is in the data before the release can be at most "
        f"{format_percent(after, 3)} sure after it (odds × {odds_factor_text(epsilon)}){tail}"
    )
