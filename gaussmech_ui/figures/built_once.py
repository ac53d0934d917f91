"""Build each chart once per input: a bounded cache of Plotly figures, shared by every session.

Building a figure through Plotly's validated interface (``add_trace``, ``update_layout``,
``add_vline``) is most of a cached rerun's work: about 36 ms for the Overview's noise-against-ε
chart, against 1 ms to rebuild the same figure from its plain dict without validation and 4 ms
for ``st.plotly_chart`` to serialise it. :func:`built_once` wraps a figure builder so that its
result is kept, as the figure's dict, in an ``st.cache_data`` cache keyed by the builder's
arguments; every call returns a new ``go.Figure`` made from that dict (so a caller may change
its copy freely), equal to what the builder returns (the same JSON object, its keys in another
order; the same pixels).

Arguments are hashed the way ``st.cache_data`` hashes them (frames and arrays by content,
settings field by field); a registry entry is hashed by what a figure reads from it (its id,
names, colour, kind and flags), not by its functions.
"""

from __future__ import annotations

import base64
import functools
from collections.abc import Callable

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from gaussmech_core.registry_types import Mechanism

from ..cached.cache import UPLOAD_HASH_FUNCS

__all__ = ["built_once", "mechanism_identity", "with_arrays"]

MAX_FIGURES = 64  # per builder: a few settings of every open view, a few MB in all


def mechanism_identity(mechanism: Mechanism) -> tuple:
    """What a figure can read from a registry entry, as the figure caches' hash of it."""
    return (
        mechanism.id,
        mechanism.name,
        mechanism.short_name,
        mechanism.color,
        mechanism.family,
        mechanism.guarantee,
        mechanism.support,
        mechanism.sensitivity_norm,
        mechanism.featured,
        mechanism.is_default,
    )


def with_arrays(value):
    """``value`` with every Plotly typed-array spec (``{"dtype", "bdata"[, "shape"]}``) as a numpy array.

    ``Figure.to_dict`` encodes numeric arrays so (base64, integers narrowed to the smallest type
    that holds them); the figure a builder returned held numpy arrays, and so does the copy, with
    integers as int64 (so that sums over them cannot overflow a narrowed type).
    """
    if isinstance(value, dict):
        if "bdata" in value and "dtype" in value and set(value) <= {"bdata", "dtype", "shape"}:
            array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
            if array.dtype.kind in "iu":
                array = array.astype(np.int64)
            if "shape" in value:
                shape = value["shape"]
                array = array.reshape(tuple(int(n) for n in shape.split(",")) if isinstance(shape, str) else shape)
            return array
        return {key: with_arrays(item) for key, item in value.items()}
    if isinstance(value, list):
        return [with_arrays(item) for item in value]
    return value


def built_once(build: Callable[..., go.Figure]) -> Callable[..., go.Figure]:
    """Wrap a figure builder so each set of arguments is built once per process (bounded cache).

    The wrapper has the builder's signature and returns an equal ``go.Figure``; ``.clear()``
    empties its cache and ``.build`` is the builder itself.
    """

    def figure_dict(name: str, *args, **kwargs) -> dict:
        return build(*args, **kwargs).to_dict()

    # st.cache_data keys a cache by the function's module, name and source: give each builder its own.
    figure_dict.__module__ = build.__module__
    figure_dict.__qualname__ = figure_dict.__name__ = f"{build.__qualname__}__figure_dict"
    cached = st.cache_data(
        max_entries=MAX_FIGURES,
        show_spinner=False,
        hash_funcs={Mechanism: mechanism_identity, **UPLOAD_HASH_FUNCS},
    )(figure_dict)
    name = f"{build.__module__}.{build.__qualname__}"

    @functools.wraps(build)
    def figure(*args, **kwargs) -> go.Figure:
        # The dict came from a validated figure: rebuilding it needs no second validation.
        return go.Figure(with_arrays(cached(name, *args, **kwargs)), _validate=False)

    figure.clear = cached.clear  # type: ignore[attr-defined]
    figure.build = build  # type: ignore[attr-defined]
    return figure
