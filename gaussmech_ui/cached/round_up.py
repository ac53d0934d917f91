"""The smallest private scale beside the safe one, for mechanisms whose δ is not monotone in it."""

from __future__ import annotations

import dataclasses

from gaussmech_core.histogram import NeighbourModel
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting

from .arguments import STAND_IN
from .cache import cache_data

__all__ = ["smallest_private_scales", "release_smallest_private_scale"]


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


def release_smallest_private_scale(
    mechanism: str, epsilon: float, delta: float, model: NeighbourModel, order: float
) -> tuple[float, float] | None:
    """(smallest private scale, safe scale) of ``mechanism``'s histogram release under ``model``
    (its ``histogram.smallest_private_scale``), or None for a noise that has no such answer.

    Cached on plain values; the order p is a stand-in for a noise that does not read it."""
    release = MECHANISMS[mechanism].histogram
    if release is None or release.smallest_private_scale is None:
        return None
    return _release_smallest_private_scale(
        mechanism,
        float(epsilon),
        float(delta),
        model.changed_coordinates,
        model.coordinate_sensitivity,
        float(order) if MECHANISMS[mechanism].uses_order else STAND_IN["order"],
    )


@cache_data(max_entries=64, show_spinner=False)
def _release_smallest_private_scale(
    mechanism: str,
    epsilon: float,
    delta: float,
    changed_coordinates: int,
    coordinate_sensitivity: float,
    order: float,
) -> tuple[float, float]:
    model = NeighbourModel(changed_coordinates, coordinate_sensitivity)
    answer = MECHANISMS[mechanism].histogram.smallest_private_scale(epsilon, delta, model, order)
    return float(answer.smallest_sigma), float(answer.safe_sigma)
