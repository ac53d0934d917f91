"""The smallest private scale beside the safe one, for mechanisms whose δ is not monotone in it."""

from __future__ import annotations

import dataclasses

from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting

from .cache import cache_data

__all__ = ["smallest_private_scales"]


def smallest_private_scales(setting: Setting) -> list[tuple[str, str, float, float]]:
    """(name, scale symbol, smallest private scale, safe scale) of every featured entry with a
    ``smallest_private_scale``, valid at ``setting`` (cached on the setting's plain values)."""
    return _smallest_private_scales(dataclasses.astuple(setting))


@cache_data(max_entries=64, show_spinner=False)
def _smallest_private_scales(values: tuple) -> list[tuple[str, str, float, float]]:
    setting = Setting(*values)
    rows = []
    for mechanism in MECHANISMS.values():
        if mechanism.smallest_private_scale is None or not mechanism.featured:
            continue
        if not mechanism.validity(setting).valid:
            continue
        answer = mechanism.smallest_private_scale(setting)
        rows.append((mechanism.name, mechanism.scale_symbol, float(answer.smallest_sigma), float(answer.safe_sigma)))
    return rows
