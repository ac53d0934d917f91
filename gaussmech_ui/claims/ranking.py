"""Rankings of mechanisms in words: ties from the noise law, the name a reader knows, the assumptions.

Every caption that says which mechanism "adds the least noise" or "is the most private" goes
through here (DESIGN.md section 3, "Sentences from numbers are claims"):

* :func:`rank` makes a :class:`Ranking` claim. Two entries share a place when the registry says
  they draw the same noise at the setting (:meth:`gaussmech_core.registry_types.Mechanism.law_at`:
  GG with p = 2 is the analytic Gaussian), when their values are exactly equal (two δ that are
  both 0), or when both are Monte Carlo estimates whose confidence intervals overlap (never
  ranked). No tolerance on floats decides a tie. Inside a place the mechanism a reader knows is
  named first, from registry facts (``is_default``, then ``featured``, then registry order).
* :func:`winner_phrase` names the first place: "the analytic Gaussian (GG(p) draws the same
  Gaussian noise)"; an entry with the same law at another calibration is named beside it ("GG(p)
  at p = 1 is Laplace noise calibrated to (ε, δ), 0.002% less than the Laplace mechanism").
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
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from ..format import format_number, format_percent, format_ratio
from .base import Claim, record

__all__ = [
    "NEIGHBOUR_MODELS",
    "Ranking",
    "rank",
    "familiar_order",
    "same_noise",
    "share_exact_values",
    "reader_name",
    "winner_phrase",
    "place_phrase",
    "on_curve_note",
    "other_neighbour_model",
    "under_other_model",
    "neighbour_model_phrase",
    "assumption_sentence",
    "assumes_bounds",
    "integer_only",
    "ranked",
    "BOUNDED_LEFT_OUT",
    "INTEGER_LEFT_OUT",
    "bounded_note",
]

# The two ways the l1 sensitivity of Laplace follows from Δ; the sidebar offers these, with these words.
NEIGHBOUR_MODELS = {
    "one_coordinate": ("one coordinate changes", "Δ₁ = Δ"),
    "all_coordinates": ("every coordinate may change", "Δ₁ = √d·Δ"),
}


def _familiarity(mechanisms: Mapping, mechanism_id: str) -> tuple:
    """Sort key inside a tie: the default mechanism first, then the featured ones, then registry order."""
    mechanism = mechanisms[mechanism_id]
    order = list(mechanisms).index(mechanism_id)
    return (not bool(getattr(mechanism, "is_default", False)), not bool(getattr(mechanism, "featured", True)), order)


def familiar_order(keys: Iterable[str], mechanisms: Mapping) -> list[str]:
    """``keys`` in the order a reader knows them (default, featured, registry order); not a claim."""
    return sorted(keys, key=lambda key: _familiarity(mechanisms, key))


def same_noise(first, second, setting) -> bool:
    """Whether the registry says ``first`` and ``second`` draw the same noise at ``setting`` (its NoiseLaw fact).

    An object without the fact (a test's stand-in) draws the same noise only as itself.
    """
    if first is second:
        return True
    law = getattr(first, "law_at", None)
    other_law = getattr(second, "law_at", None)
    if setting is None or law is None or other_law is None:
        return False
    return law(setting) == other_law(setting)


def _overlap(first: tuple[float, float] | None, second: tuple[float, float] | None) -> bool:
    return first is not None and second is not None and first[0] <= second[1] and second[0] <= first[1]


def _sharing(first: str, second: str, values, mechanisms, setting, intervals) -> str:
    """Why two ranked entries share a place ("" when they do not): the same noise, equal values, overlapping estimates."""
    if same_noise(mechanisms[first], mechanisms[second], setting):
        return "same noise"
    if values[first] == values[second]:
        return "equal"
    if _overlap(intervals.get(first), intervals.get(second)):
        return "estimates overlap"
    return ""


@dataclass(frozen=True, kw_only=True)
class Ranking(Claim):
    """Mechanism ids in places, best first; each place is a tuple of tied ids, the best-known first.

    The rule (:meth:`violations`): each place is strictly better than the next on its values; the
    members of a place draw the same noise (registry), have exactly equal values, or are Monte
    Carlo estimates whose ``intervals`` overlap; no two places hold estimates whose intervals
    overlap; no "claimed" guarantee is ranked.
    """

    text: str = ""
    places: tuple[tuple[str, ...], ...]
    values: Mapping[str, float]
    setting: object = None
    mechanisms: Mapping = field(default_factory=dict, repr=False, compare=False)
    smaller_is_better: bool = True
    quantity: str = "value"
    intervals: Mapping[str, tuple[float, float]] = field(default_factory=dict)

    kind = "ranking"
    rule = "places in order of their values; ties only from the noise law, equal values or overlapping estimates"

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

    def violations(self) -> list[str]:
        problems = []
        sign = 1.0 if self.smaller_is_better else -1.0
        for key in (key for place in self.places for key in place):
            if getattr(self.mechanisms.get(key), "guarantee", "") == "claimed":
                problems.append(f"{key} is ranked, but its guarantee is only claimed")
        for place in self.places:
            for other in place[1:]:
                if not _sharing(place[0], other, self.values, self.mechanisms, self.setting, self.intervals):
                    problems.append(
                        f"{place[0]} ({self.values[place[0]]!r}) and {other} ({self.values[other]!r}) share a place "
                        "without drawing the same noise, being equal, or being overlapping estimates"
                    )
        for better, worse in zip(self.places, self.places[1:]):
            if not all(sign * self.values[a] < sign * self.values[b] for a in better[:1] for b in worse):
                problems.append(f"place {better} is not better than {worse} on {self.quantity}")
            for a in better:
                for b in worse:
                    if _overlap(self.intervals.get(a), self.intervals.get(b)):
                        problems.append(f"{a} and {b} are ranked, but their Monte Carlo intervals overlap")
        return problems


def rank(
    values: Mapping[str, float],
    mechanisms: Mapping,
    setting=None,
    *,
    smaller_is_better: bool = True,
    quantity: str = "value",
    intervals: Mapping[str, tuple[float, float]] | None = None,
) -> Ranking:
    """Rank mechanisms by a value and record the :class:`Ranking` claim.

    Values that are ``None``, NaN or infinite are left out (no number, no place). An entry joins a
    place when it draws the same noise as a member at ``setting`` (the registry's NoiseLaw), has
    exactly the value of the place's last member, or (with ``intervals``: Monte Carlo confidence
    intervals by id) has an interval that overlaps a member's.

    Examples
    --------
    >>> from gaussmech_core.mechanisms import MECHANISMS
    >>> from gaussmech_core.registry_types import Setting
    >>> at_p_2 = Setting(epsilon=1.0, delta=1e-5, order=2.0)
    >>> rank({"generalized_gaussian": 10.0, "analytic_gaussian": 10.0 * (1 + 1e-12)}, MECHANISMS, at_p_2).places
    (('analytic_gaussian', 'generalized_gaussian'),)
    """
    intervals = dict(intervals or {})
    finite = {
        key: float(value)
        for key, value in values.items()
        if key in mechanisms and value is not None and math.isfinite(float(value))
    }
    ordered = sorted(finite, key=lambda key: finite[key], reverse=not smaller_is_better)
    places: list[list[str]] = []
    for key in ordered:
        home = next(
            (place for place in places if any(same_noise(mechanisms[m], mechanisms[key], setting) for m in place)),
            None,
        )
        if (
            home is None
            and places
            and any(_sharing(member, key, finite, mechanisms, setting, intervals) for member in places[-1])
        ):
            home = places[-1]
        if home is None:
            places.append([key])
        else:
            home.append(key)
    return record(
        Ranking(
            places=tuple(tuple(familiar_order(place, mechanisms)) for place in places),
            values=finite,
            setting=setting,
            mechanisms=mechanisms,
            smaller_is_better=smaller_is_better,
            quantity=quantity,
            intervals=intervals,
        )
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
        from ..figures.common import trace_name

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


def _law_name(mechanism, setting) -> str:
    law = getattr(mechanism, "law_at", None)
    return "" if law is None or setting is None else law(setting).law


def _tie_note(place: tuple[str, ...], mechanisms: Mapping, setting, values: Mapping[str, float] | None = None) -> str:
    """ "(GG(p) draws the same Gaussian noise)", " and MVG" (exactly equal values) or "(… estimates overlap)".

    Members whose value is exactly the first one's (two δ that are both 0) are named with "and":
    "the Laplace mechanism and MVG".
    """
    if len(place) < 2:
        return ""
    representative = mechanisms[place[0]]
    same, exact, overlapping = [], [], []
    for key in place[1:]:
        other = mechanisms[key]
        if same_noise(representative, other, setting):
            same.append(other)
        elif values is None or values.get(key) == values.get(place[0]):
            exact.append(other)
        else:
            overlapping.append(other)
    lead = "".join(f" and {getattr(m, 'short_name', m.name)}" for m in exact)
    notes = []
    if same:
        names = " and ".join(f"{getattr(m, 'short_name', m.name)}" for m in same)
        law = _law_name(representative, setting)
        notes.append(f"{names} {'draws' if len(same) == 1 else 'draw'} the same {law} noise".replace("  ", " "))
    if overlapping:
        names = ", ".join(getattr(m, "short_name", m.name) for m in overlapping)
        notes.append(f"not ranked against {names}: Monte Carlo estimates whose 95% intervals overlap")
    return lead + (" (" + "; ".join(notes) + ")" if notes else "")


def _same_law_note(ranking: Ranking, mechanisms: Mapping, setting) -> str:
    """The first place against a later entry of another family with the same law (another calibration), in words.

    e.g. "; GG(p) at p = 1 is Laplace noise calibrated to (ε, δ), 0.00283% less than the Laplace
    mechanism's value": both may show as 20, and the reader learns why one is ranked first.
    """
    if not ranking.best or setting is None:
        return ""
    first = ranking.best[0]
    law = _law_name(mechanisms[first], setting)
    for place in ranking.places[1:]:
        for key in place:
            # Another family drawing the same law (GG(p) at p = 1 against the Laplace mechanism): the two
            # can look equal, and the reader should learn why one comes first.
            other_family = getattr(mechanisms[key], "family", "") not in {
                getattr(mechanisms[member], "family", "") for member in ranking.best
            }
            if law and other_family and _law_name(mechanisms[key], setting) == law:
                here, there = ranking.values[first], ranking.values[key]
                change = abs(here - there) / abs(there) if there else math.inf
                word = "less" if here < there else "more"
                return (
                    f"; {getattr(mechanisms[first], 'short_name', first)} is {law} noise here, at another "
                    f"calibration than {reader_name(mechanisms[key])}: {format_percent(change, 3)} {word}"
                )
    return ""


def share_exact_values(
    values: Mapping[str, float],
    exact: Mapping[str, bool],
    mechanisms: Mapping,
    setting,
) -> dict[str, float]:
    """``values`` where an estimate (Monte Carlo) of an entry that draws the same noise as one with an exact value takes that value.

    The registry says when two entries draw the same noise (GG with p = 2 is the analytic Gaussian):
    the Gaussian's exact tail bound is then also GG's, and a Monte Carlo estimate 1 % off must not
    rank them.
    """
    shared = dict(values)
    for key in values:
        if exact.get(key, True):
            continue
        for other, other_value in values.items():
            if other != key and exact.get(other, True) and same_noise(mechanisms[other], mechanisms[key], setting):
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
    """The first place in words: "the analytic Gaussian (GG(p) draws the same Gaussian noise)"; "" if none.

    When a later entry draws the same law at another calibration (GG(p) at p = 1 against the Laplace
    mechanism), the phrase says so and by how much.
    """
    if not ranking.best:
        return ""
    lead = reader_name(mechanisms[ranking.best[0]])
    tie = _tie_note(ranking.best, mechanisms, setting, ranking.values)
    note = _same_law_note(ranking, mechanisms, setting)
    if not note:
        return lead + tie
    if tie.endswith(")"):  # one parenthesis: "(GG draws the same …; GG is Laplace noise here, …)"
        return lead + tie[:-1] + note + ")"
    return lead + tie + " (" + note[2:] + ")"


def other_neighbour_model(l1_model: str) -> str:
    """The neighbour model that is not ``l1_model``."""
    return "all_coordinates" if l1_model == "one_coordinate" else "one_coordinate"


def under_other_model(setting):
    """``setting`` under the other neighbour model (what an alternative ranking's values are computed at); as is without one."""
    import dataclasses

    if setting is None or not dataclasses.is_dataclass(setting) or not hasattr(setting, "l1_model"):
        return setting
    return dataclasses.replace(setting, l1_model=other_neighbour_model(setting.l1_model))


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
        if here_ok and there_ok and format_ratio(float(there) / float(here)) != "1×":
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
