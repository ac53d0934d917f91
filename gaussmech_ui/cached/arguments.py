"""The setting as the plain keyword arguments every cached function takes, and back.

Cached functions take plain numbers and strings (so the cache key is exact and cheap to hash):
:func:`setting_arguments` turns the sidebar's :class:`~gaussmech_core.registry_types.Setting`
into them, and :func:`make_setting` turns them back. One copy for every page.
"""

from __future__ import annotations

from gaussmech_core.registry_types import Setting

from ..ranking import other_neighbour_model as _other_model

__all__ = ["setting_arguments", "make_setting"]


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
