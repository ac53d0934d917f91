"""The setting as the plain keyword arguments every cached function takes, and back.

Cached functions take plain numbers and strings (so the cache key is exact and cheap to hash):
:func:`setting_arguments` turns the sidebar's :class:`~gaussmech_core.registry_types.Setting`
into them, and :func:`make_setting` turns them back. One copy for every page.
"""

from __future__ import annotations

from gaussmech_core.registry_types import Setting

from ..claims.ranking import other_neighbour_model as _other_model

__all__ = ["setting_arguments", "make_setting", "arguments_read_by", "STAND_IN"]


def setting_arguments(setting: Setting, *, epsilon: bool = True, other_neighbour_model: bool = False) -> dict:
    """The setting's fields as keyword arguments; ``epsilon=False`` leaves ε out (for sweeps over ε).

    With ``other_neighbour_model`` the l1 model is the other one, for captions that say what would
    change under it.

    Examples
    --------
    >>> sorted(setting_arguments(Setting(epsilon=1.0, delta=1e-5), epsilon=False))
    ['data_lower', 'data_upper', 'delta', 'dim', 'l1_model', 'order', 'sensitivity']
    """
    arguments = dict(
        epsilon=setting.epsilon,
        delta=setting.delta,
        sensitivity=setting.sensitivity,
        order=setting.order,
        dim=setting.dim,
        l1_model=setting.l1_model if not other_neighbour_model else _other_model(setting.l1_model),
        data_lower=setting.data_lower,
        data_upper=setting.data_upper,
    )
    if not epsilon:
        del arguments["epsilon"]
    return arguments


def make_setting(epsilon, delta, sensitivity, order, dim, l1_model, data_lower=0.0, data_upper=1.0) -> Setting:
    """The :class:`Setting` of :func:`setting_arguments`' keyword arguments."""
    return Setting(
        epsilon=epsilon,
        delta=delta,
        sensitivity=sensitivity,
        order=order,
        dim=dim,
        l1_model=l1_model,
        data_lower=data_lower,
        data_upper=data_upper,
    )


# The values a mechanism's cached numbers are computed at for the parameters it does not read.
STAND_IN = dict(delta=1e-5, order=2.0, dim=1, l1_model="one_coordinate", data_lower=0.0, data_upper=1.0)


def arguments_read_by(mechanism, arguments: dict) -> dict:
    """``arguments`` (of :func:`setting_arguments`) with the parameters the mechanism's scale does not
    read replaced by :data:`STAND_IN`, so a cache keyed on them is shared by every setting that gives
    the same numbers (a move of d recomputes nothing for a mechanism whose scale ignores d).

    The entry says what it reads: ``uses_delta``, ``uses_order``, ``uses_bounds``,
    ``scale_depends_on_dim``, and ``sensitivity_norm`` (the l1 model enters l1 calibrations only).
    tests/core/test_registry_seam.py checks each flag against the scale itself. Validity may still
    depend on every parameter: callers check it on the real setting.

    Examples
    --------
    >>> from gaussmech_core.mechanisms import MECHANISMS
    >>> args = setting_arguments(Setting(epsilon=1.0, delta=1e-8, dim=50, order=1.5), epsilon=False)
    >>> read = arguments_read_by(MECHANISMS["analytic_gaussian"], args)
    >>> read["delta"], read["dim"], read["order"]
    (1e-08, 1, 2.0)
    """
    read = dict(arguments)
    unread = {
        "delta": not mechanism.uses_delta,
        "order": not mechanism.uses_order,
        "dim": not mechanism.scale_depends_on_dim,
        "l1_model": mechanism.sensitivity_norm != "l1",
        "data_lower": not mechanism.uses_bounds,
        "data_upper": not mechanism.uses_bounds,
    }
    for name, stand_in in STAND_IN.items():
        if name in read and unread[name]:
            read[name] = stand_in
    return read
