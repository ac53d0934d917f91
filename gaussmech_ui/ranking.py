"""Which mechanisms a sentence may rank, and what it says about the ones it leaves out.

A caption that names the "narrowest" noise or the "most private choice" compares mechanisms
under the page's assumptions (DESIGN.md section 3). Two kinds of entry are left out of such a
ranking and the caption says so: a "claimed" guarantee (R1SMG), which is not proven, and a
mechanism for bounded data (``uses_bounds``: Liu's truncated and BIT GG), which assumes more,
namely that every coordinate lies in the data bounds [a, b], so its noise never exceeds b − a; and
a mechanism for integer queries (``support == "integer"``: the discrete Gaussian), whose noise is
exactly 0 with high probability once σ is small, which only an integer-valued query can use.
"""

from __future__ import annotations

from typing import Iterable

__all__ = ["assumes_bounds", "integer_only", "ranked", "BOUNDED_LEFT_OUT", "INTEGER_LEFT_OUT", "bounded_note"]

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
