"""Rankings of mechanisms in words: ties by a relative tolerance, the name a reader knows, the assumptions.

Every caption that says which mechanism "adds the least noise" or "is the most private" goes
through here (DESIGN.md section 3, "Sentences from numbers are claims"):

* :func:`rank` groups values equal to a relative :data:`TIE_TOLERANCE` (1e-9) into one place,
  so a floating-point difference (GG with p = 2 against the Gaussian: 1.7e-12) never picks a
  winner. Inside a tie the mechanism a reader knows is named first, from registry facts
  (``is_default``, then ``featured``, then registry order), never from its id.
* :func:`winner_phrase` names the first place: "the analytic Gaussian (GG(p) with p = 2 is the
  same noise)".
* :func:`assumption_sentence` says what the ranking assumes (δ and the neighbour model) and what
  the other neighbour model would change, computed from the values under that model.

* :func:`ranked` says which entries a ranking may name at all: not a "claimed" guarantee
  (R1SMG), which is not proven, and not a mechanism for bounded data (``uses_bounds``: Liu's
  truncated and BIT GG), which assumes more (every coordinate in the data bounds [a, b], so its
  noise never exceeds b − a), and not a mechanism for integer queries (``support == "integer"``:
  the discrete Gaussian), whose noise is exactly 0 with high probability once σ is small, which
  only an integer-valued query can use; :func:`bounded_note` is the sentence a caption then adds.

Pure functions: numbers and the registry in, text out; no ``st.*`` call.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Mapping

from .format import format_number, format_ratio

__all__ = [
    "TIE_TOLERANCE",
    "NEIGHBOUR_MODELS",
    "Ranking",
    "rank",
    "are_tied",
    "same_noise",
    "share_exact_values",
    "reader_name",
    "winner_phrase",
    "place_phrase",
    "on_curve_note",
    "other_neighbour_model",
    "neighbour_model_phrase",
    "assumption_sentence",
    "assumes_bounds",
    "integer_only",
    "ranked",
    "BOUNDED_LEFT_OUT",
    "INTEGER_LEFT_OUT",
    "bounded_note",
]

TIE_TOLERANCE = 1e-9

# The two ways the l1 sensitivity of Laplace follows from Δ; the sidebar offers these, with these words.
NEIGHBOUR_MODELS = {
    "one_coordinate": ("one coordinate changes", "Δ₁ = Δ"),
    "all_coordinates": ("every coordinate may change", "Δ₁ = √d·Δ"),
}

# Families whose noise is the Gaussian when the generalized-Gaussian order p is 2.
_GG_FAMILY = "generalized_gaussian"
_GAUSSIAN_FAMILY = "gaussian"


def are_tied(a: float, b: float, rel_tol: float = TIE_TOLERANCE) -> bool:
    """Whether two values are the same to a relative ``rel_tol`` (a tie in a ranking).

    Examples
    --------
    >>> are_tied(30.0, 30.0 * (1 + 1.7e-12)), are_tied(30.0, 30.01)
    (True, False)
    """
    return math.isclose(float(a), float(b), rel_tol=rel_tol, abs_tol=0.0)


def _familiarity(mechanisms: Mapping, mechanism_id: str) -> tuple:
    """Sort key inside a tie: the default mechanism first, then the featured ones, then registry order."""
    mechanism = mechanisms[mechanism_id]
    order = list(mechanisms).index(mechanism_id)
    return (not bool(getattr(mechanism, "is_default", False)), not bool(getattr(mechanism, "featured", True)), order)


@dataclass(frozen=True)
class Ranking:
    """Mechanism ids in places, best first; each place is a tuple of tied ids, the best-known first."""

    places: tuple[tuple[str, ...], ...]
    values: Mapping[str, float]

    @property
    def best(self) -> tuple[str, ...]:
        return self.places[0] if self.places else ()

    @property
    def worst(self) -> tuple[str, ...]:
        return self.places[-1] if self.places else ()

    def place_of(self, mechanism_id: str) -> int | None:
        """0 for the first place, ``None`` when the mechanism is not ranked."""
        for index, place in enumerate(self.places):
            if mechanism_id in place:
                return index
        return None


def rank(
    values: Mapping[str, float],
    mechanisms: Mapping,
    *,
    smaller_is_better: bool = True,
    rel_tol: float = TIE_TOLERANCE,
) -> Ranking:
    """Rank mechanisms by a value; values equal to a relative ``rel_tol`` share a place.

    Values that are ``None``, NaN or infinite are left out (no number, no place). A place
    collects every value within ``rel_tol`` of its first (best) value, so a chain of near-equal
    values cannot stretch a tie beyond the tolerance.

    Examples
    --------
    >>> from types import SimpleNamespace as M
    >>> registry = {"gg": M(is_default=False, featured=True), "agm": M(is_default=True, featured=True)}
    >>> rank({"gg": 10.0, "agm": 10.0 * (1 + 1e-12)}, registry).places
    (('agm', 'gg'),)
    """
    finite = {
        key: float(value)
        for key, value in values.items()
        if key in mechanisms and value is not None and math.isfinite(float(value))
    }
    ordered = sorted(finite, key=lambda key: finite[key], reverse=not smaller_is_better)
    places: list[list[str]] = []
    for key in ordered:
        if places and are_tied(finite[places[-1][0]], finite[key], rel_tol):
            places[-1].append(key)
        else:
            places.append([key])
    return Ranking(
        places=tuple(tuple(sorted(place, key=lambda key: _familiarity(mechanisms, key))) for place in places),
        values=finite,
    )


def reader_name(mechanism) -> str:
    """The mechanism's name inside a sentence: "the analytic Gaussian", "the Laplace mechanism".

    Eponyms (Gaussian, Laplace) keep their capital; a one-word name gets "mechanism".

    Examples
    --------
    >>> from types import SimpleNamespace as M
    >>> reader_name(M(name="Analytic Gaussian")), reader_name(M(name="Laplace"))
    ('the analytic Gaussian', 'the Laplace mechanism')
    >>> reader_name(M(name="Gaussian via zCDP (Bun–Steinke)"))
    'the Gaussian via zCDP (Bun–Steinke)'
    """
    if getattr(mechanism, "guarantee", "") == "claimed":  # one name everywhere: "R1SMG, claimed (Ji & Li 2024)"
        from .figures.common import trace_name

        return trace_name(mechanism)
    name = str(mechanism.name)
    first, _, rest = name.partition(" ")
    if not rest:
        return f"the {name} mechanism"
    if first in ("Gaussian", "Laplace") or first.isupper() or any(ch.isdigit() for ch in first):
        return f"the {name}"
    return f"the {first[0].lower()}{first[1:]} {rest}"


def on_curve_note(mechanism) -> str:
    """The legend's note on a curve drawn under another: " (on the analytic Gaussian's curve)".

    A name with a qualifier after a comma is named by its first part ("the truncated GG(p)'s curve",
    not "the truncated GG(p), bounded data's curve").

    Examples
    --------
    >>> from types import SimpleNamespace as M
    >>> on_curve_note(M(name="Analytic Gaussian")), on_curve_note(M(name="Truncated GG(p), bounded data"))
    (" (on the analytic Gaussian's curve)", " (on the truncated GG(p)'s curve)")
    """
    name = reader_name(mechanism)
    if getattr(mechanism, "guarantee", "") != "claimed":
        name = name.split(", ")[0]
    return f" (on {name}'s curve)"


def same_noise(representative, other, setting) -> bool:
    """Whether two mechanisms' noise is the same kind of distribution: GG at p = 2 is the Gaussian.

    With equal standard deviations such mechanisms add the same noise, so any statistic of it
    (a tail bound, a quantile) is the same too.
    """
    order = getattr(setting, "order", None)
    families = {getattr(representative, "family", ""), getattr(other, "family", "")}
    return order == 2.0 and families == {_GG_FAMILY, _GAUSSIAN_FAMILY}


def _tie_note(place: tuple[str, ...], mechanisms: Mapping, setting, values: Mapping[str, float] | None = None) -> str:
    """ "(GG(p) with p = 2 is the same noise)" or "(tied with …)" for the other members of a place.

    Members whose value is exactly the first one's (two δ that are both 0) are named with "and":
    "the Laplace mechanism and MVG", not "tied … equal to 9 significant digits" before a 0.
    """
    if len(place) < 2:
        return ""
    representative = mechanisms[place[0]]
    same, tied = [], []
    for key in place[1:]:
        other = mechanisms[key]
        (same if same_noise(representative, other, setting) else tied).append(other)
    exact = []
    if values is not None:
        exact = [
            mechanisms[key] for key in place[1:] if mechanisms[key] in tied and values.get(key) == values[place[0]]
        ]
        tied = [m for m in tied if m not in exact]
    lead = "".join(f" and {getattr(m, 'short_name', m.name)}" for m in exact)
    notes = []
    if same:
        names = " and ".join(f"{getattr(m, 'short_name', m.name)}" for m in same)
        notes.append(f"{names} with p = 2 {'is' if len(same) == 1 else 'are'} the same noise")
    if tied:
        names = ", ".join(getattr(m, "short_name", m.name) for m in tied)
        notes.append(f"tied with {names}, equal to 9 significant digits")
    return lead + (" (" + "; ".join(notes) + ")" if notes else "")


def share_exact_values(
    values: Mapping[str, float],
    stds: Mapping[str, float],
    exact: Mapping[str, bool],
    mechanisms: Mapping,
    setting,
) -> dict[str, float]:
    """``values`` where an estimate (Monte Carlo) of a noise that is the same as one with an exact value takes that value.

    GG with p = 2 is the Gaussian: when their standard deviations tie, the Gaussian's exact tail
    bound is also GG's, and a Monte Carlo estimate 1 % off must not rank them.
    """
    shared = dict(values)
    for key, value in values.items():
        if exact.get(key, True) or key not in stds:
            continue
        for other, other_value in values.items():
            if (
                other != key
                and exact.get(other, True)
                and other in stds
                and are_tied(stds[key], stds[other])
                and same_noise(mechanisms[other], mechanisms[key], setting)
            ):
                shared[key] = other_value
                break
    return shared


def place_phrase(
    place: tuple[str, ...], mechanisms: Mapping, setting, values: Mapping[str, float] | None = None
) -> str:
    """One place of a ranking in words, its best-known mechanism first: "the analytic Gaussian (GG with p = 2 is the same noise)".

    With the ranked ``values``, members with exactly the same value are joined by "and" (:func:`_tie_note`).
    """
    return reader_name(mechanisms[place[0]]) + _tie_note(place, mechanisms, setting, values)


def winner_phrase(ranking: Ranking, mechanisms: Mapping, setting) -> str:
    """The first place in words: "the analytic Gaussian (GG with p = 2 is the same noise)"; "" if none."""
    if not ranking.best:
        return ""
    return place_phrase(ranking.best, mechanisms, setting)


def other_neighbour_model(l1_model: str) -> str:
    """The neighbour model that is not ``l1_model``."""
    return "all_coordinates" if l1_model == "one_coordinate" else "one_coordinate"


def neighbour_model_phrase(l1_model: str) -> str:
    """“one coordinate changes” (Δ₁ = Δ), for sentences."""
    words, formula = NEIGHBOUR_MODELS[l1_model]
    return f"“{words}” ({formula})"


def _changes(
    values: Mapping[str, float], alternative: Mapping[str, float], mechanisms: Mapping, quantity: str
) -> list[str]:
    """The mechanisms whose value differs between the two neighbour models, in words."""
    changes = []
    for key in mechanisms:
        here, there = values.get(key), alternative.get(key)
        here_ok = here is not None and math.isfinite(float(here))
        there_ok = there is not None and math.isfinite(float(there))
        name = reader_name(mechanisms[key])
        if here_ok and there_ok and not are_tied(here, there):
            changes.append(f"{name}'s {quantity} would be {format_ratio(float(there) / float(here))} its value here")
        elif here_ok and not there_ok:
            changes.append(f"{name} would not be valid")
        elif there_ok and not here_ok:
            changes.append(f"{name} would be valid ({quantity} {format_number(float(there))})")
    return changes


def assumption_sentence(
    setting,
    ranking: Ranking,
    alternative: Ranking | None,
    mechanisms: Mapping,
    *,
    quantity: str = "value",
    verb: str = "come first",
) -> str:
    """What a ranking assumes (δ, the neighbour model) and what the other neighbour model changes.

    ``alternative`` is the same ranking computed under the other neighbour model (``None``
    when it could not be computed); ``quantity`` names what is ranked ("error") and ``verb``
    what the first place does ("add the least noise"). At d = 1 the two models are the same.

    Examples
    --------
    >>> from types import SimpleNamespace as M
    >>> registry = {"agm": M(name="Analytic Gaussian", is_default=True, featured=True, family="gaussian"),
    ...             "lap": M(name="Laplace", is_default=False, featured=True, family="laplace")}
    >>> here = rank({"agm": 139.0, "lap": 20.0}, registry)
    >>> there = rank({"agm": 139.0, "lap": 200.0}, registry)
    >>> setting = M(delta=1e-5, l1_model="one_coordinate", dim=10, order=2.0)
    >>> print(assumption_sentence(setting, here, there, registry, quantity="error", verb="add the least noise"))
    Assumes δ = 1e-5 and the neighbour model “one coordinate changes” (Δ₁ = Δ). Under “every coordinate may change” (Δ₁ = √d·Δ), the Laplace mechanism's error would be 10× its value here, and the analytic Gaussian would add the least noise.
    """
    model = neighbour_model_phrase(setting.l1_model)
    text = f"Assumes δ = {format_number(setting.delta)} and the neighbour model {model}."
    if getattr(setting, "dim", 1) == 1:
        return text + " At d = 1 the other neighbour model gives the same Δ₁, so nothing would change."
    other = neighbour_model_phrase(other_neighbour_model(setting.l1_model))
    if alternative is None:
        return text + f" Under {other} the Laplace and generalized-Gaussian values can change."
    changes = _changes(ranking.values, alternative.values, mechanisms, quantity)
    if not changes:
        return text + f" Under {other} nothing here would change."
    if not alternative.best:
        verdict = "no mechanism would be ranked"
    elif ranking.best and alternative.best[0] == ranking.best[0]:
        verdict = f"{winner_phrase(alternative, mechanisms, setting)} would still {verb}"
    else:
        verdict = f"{winner_phrase(alternative, mechanisms, setting)} would {verb}"
    return text + f" Under {other}, " + "; ".join(changes) + f", and {verdict}."


# --- Which entries a ranking may name ---------------------------------------------------------

BOUNDED_LEFT_OUT = (
    "Mechanisms for bounded data are left out of this ranking: they assume every coordinate lies in the data "
    "bounds [a, b], so their error never exceeds b − a."
)


INTEGER_LEFT_OUT = (
    "Mechanisms for integer queries (integer noise) are left out of this ranking too: their noise is exactly 0 "
    "with high probability once σ is small, which only an integer-valued query can use."
)


def integer_only(mechanism) -> bool:
    """Whether the mechanism is for integer queries only (integer noise; an object without the field is not)."""
    return getattr(mechanism, "support", "continuous") == "integer"


def assumes_bounds(mechanism) -> bool:
    """Whether the mechanism assumes data bounds (``uses_bounds``; an object without the field does not)."""
    return bool(getattr(mechanism, "uses_bounds", False))


def ranked(mechanism) -> bool:
    """Whether a ranking may name the mechanism: a proven guarantee under the page's assumptions alone."""
    return mechanism.guarantee != "claimed" and not assumes_bounds(mechanism) and not integer_only(mechanism)


def bounded_note(mechanisms: Iterable) -> str:
    """What a ranking of ``mechanisms`` (entries) left out for assuming more: bounded data, integer queries."""
    entries = list(mechanisms)
    notes = [BOUNDED_LEFT_OUT] if any(assumes_bounds(m) for m in entries) else []
    notes += [INTEGER_LEFT_OUT] if any(integer_only(m) for m in entries) else []
    return " ".join(notes)
