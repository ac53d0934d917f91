"""More noise is never less private: the one sentence a page adds where rounding σ down would not be.

For a lattice mechanism (the discrete Gaussian) δ(σ) is a sawtooth, so the smallest σ that meets
(ε, δ) is not safe to round up; the registry's ``scale`` is the smallest σ from which every larger
σ is private (docs/math.md section 9.7). Where the two differ at the setting, every page that
shows such a mechanism says so, from the numbers of the entry's ``smallest_private_scale``.
"""

from __future__ import annotations

import streamlit as st

from gaussmech_core.histogram import NeighbourModel
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting

from .cached.round_up import release_smallest_private_scale, smallest_private_scales
from .format import format_number, round_up

__all__ = ["round_up_sentence", "round_up_note", "release_round_up_sentence"]


def round_up_sentence(name: str, symbol: str, smallest: float, safe: float) -> str | None:
    """The sentence, or None where the smallest private scale is the safe one.

    The safe scale is rounded up (so "every σ from it up" stays true); the smallest is "about"
    its value, with as many digits (at least 4) as tell the two apart.

    Examples
    --------
    >>> round_up_sentence("Discrete Gaussian", "σ", 0.3161194961467842, 0.5438910952450454)
    'Discrete Gaussian: the smallest σ that meets (ε, δ) is about 0.3161, but some larger σ do not (up to just below 0.5439); every σ from 0.5439 up does, and that is the σ used here.'
    >>> round_up_sentence("Discrete Gaussian", "σ", 3.74, 3.74) is None
    True
    """
    if not safe > smallest:
        return None
    digits = 4
    while digits < 12 and format_number(smallest, digits) == format_number(round_up(safe, digits), digits):
        digits += 1
    safe_text = format_number(round_up(safe, digits), digits)
    return (
        f"{name}: the smallest {symbol} that meets (ε, δ) is about {format_number(smallest, digits)}, but some "
        f"larger {symbol} do not (up to just below {safe_text}); every {symbol} from {safe_text} up does, and that "
        f"is the {symbol} used here."
    )


def round_up_note(setting: Setting) -> None:
    """One caption per featured mechanism whose smallest private scale differs from its scale."""
    for name, symbol, smallest, safe in smallest_private_scales(setting):
        sentence = round_up_sentence(name, symbol, smallest, safe)
        if sentence:
            st.caption(sentence)


def release_round_up_sentence(
    mechanism: str, epsilon: float, delta: float, model: NeighbourModel, order: float
) -> str | None:
    """The sentence for one histogram release (the denoising lab), whose scale is calibrated for
    the neighbour relation of ``model``: from the entry's ``histogram.smallest_private_scale``."""
    answer = release_smallest_private_scale(mechanism, epsilon, delta, model, order)
    if answer is None:
        return None
    entry = MECHANISMS[mechanism]
    return round_up_sentence(entry.name, entry.scale_symbol, *answer)
