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
import hashlib
import inspect
import pickle
from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st

from ..uploads import Labels

__all__ = ["UPLOAD_HASH_FUNCS", "array_digest", "cache_data", "frame_digest"]


def array_digest(array: np.ndarray) -> bytes:
    """BLAKE2b of an array's shape, dtype and EVERY value (object arrays: of their pickle).

    Streamlit's own hashing reads only a 100,000-value sample of an array of 500,000 values or
    more, so two different uploads of that size could share one cache entry, and one student be
    shown another's results (issue 23, item 3). This digest reads all the bytes (about 5 ms for a
    million doubles).
    """
    digest = hashlib.blake2b(digest_size=20)
    digest.update(repr((array.shape, array.dtype.str)).encode())
    if array.dtype.hasobject:
        digest.update(pickle.dumps(array, pickle.HIGHEST_PROTOCOL))
    else:
        digest.update(memoryview(np.ascontiguousarray(array)).cast("B"))
    return digest.digest()


def frame_digest(frame: pd.DataFrame | pd.Series) -> bytes:
    """BLAKE2b of a frame's (or series') labels, dtypes and every row.

    Streamlit hashes a frame of 50,000 rows or more by a 10,000-row sample: see :func:`array_digest`.
    """
    digest = hashlib.blake2b(digest_size=20)
    columns = frame.columns if isinstance(frame, pd.DataFrame) else [frame.name]
    dtypes = frame.dtypes if isinstance(frame, pd.DataFrame) else [frame.dtype]
    digest.update(repr((type(frame).__name__, frame.shape, list(columns), [str(t) for t in dtypes])).encode())
    try:
        digest.update(pd.util.hash_pandas_object(frame, index=True).to_numpy().tobytes())
    except TypeError:  # cells pandas cannot hash (lists, dicts): their pickle, as Streamlit would
        digest.update(pickle.dumps(frame, pickle.HIGHEST_PROTOCOL))
    return digest.digest()


# Every cache keys arrays, frames and uploaded labels by a digest of ALL their content: Streamlit's
# defaults sample large arrays and frames (a cross-session leak, issue 23 item 3), and reduce an
# object through pickle's protocol, which pyarrow's buffers refuse. Every st.cache_data in the app
# passes these (tests/ui/test_cache_keys.py reads the source to check it).
UPLOAD_HASH_FUNCS: dict = {
    Labels: Labels.fingerprint,
    np.ndarray: array_digest,
    pd.DataFrame: frame_digest,
    pd.Series: frame_digest,
}


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
