"""``st.cache_data`` whose key does not depend on how the arguments were spelled.

Streamlit keys a cached call by its (name, value) pairs in the order they were passed, so
``loss_curves(**page_arguments)`` from a page and ``loss_curves(epsilon, delta, ..., data_lower=a)``
from another cached function are two cache entries for one computation, and the second call
computes everything again (measured: the accuracy page computed its sweep over d twice per new
ε, once for its chart and once inside the Monte Carlo overlay). :func:`cache_data` binds every
call to the function's signature first (defaults filled in, parameters in their declared order),
so equal arguments always make the same key.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable

import streamlit as st

from ..uploads import Labels

__all__ = ["UPLOAD_HASH_FUNCS", "cache_data"]

# Uploaded labels are keyed by a digest of their text: st.cache_data hashes an object through the
# reduce protocol, which pyarrow's buffers refuse. Every cache that may receive an upload uses this.
UPLOAD_HASH_FUNCS = {Labels: Labels.fingerprint}


def cache_data(
    *, max_entries: int, show_spinner: bool | str = False, ttl: float | None = None
) -> Callable[[Callable], Callable]:
    """Decorator: ``st.cache_data(max_entries=..., ttl=..., show_spinner=...)`` with calls bound to the signature.

    The wrapped function keeps ``.clear()`` (empties its cache) and ``__wrapped__`` (the function).
    """

    def decorate(function: Callable) -> Callable:
        signature = inspect.signature(function)
        cached = st.cache_data(
            max_entries=max_entries,
            ttl=ttl,
            show_spinner=show_spinner,
            hash_funcs=UPLOAD_HASH_FUNCS,
        )(function)

        # Every argument is passed by name, in the declared order: the (name, value) pairs, so the
        # key, are those of a positional call, without Streamlit asking inspect.signature for the
        # name of each positional argument on every call (3 % of a Tail probabilities rerun).
        by_name = all(
            parameter.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
            for parameter in signature.parameters.values()
        )

        @functools.wraps(function)
        def call(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            if by_name:
                return cached(**bound.arguments)
            return cached(*bound.args, **bound.kwargs)

        call.clear = cached.clear  # type: ignore[attr-defined]
        return call

    return decorate
