"""Random streams keyed by mechanism id: adding a mechanism changes no other mechanism's draws.

A chart that draws noise for several mechanisms gives each its own stream. Were the streams
numbered by a mechanism's place in a list, adding one would shift every stream after it; here
each stream is derived from the user's seed and a stable hash of the mechanism's id (BLAKE2b, the
same on every machine and Python run, unlike ``hash``), mixed by ``numpy.random.SeedSequence``.
"""

from __future__ import annotations

import hashlib

import numpy as np

from ._validation import require_integer

__all__ = ["id_entropy", "mechanism_seed_sequence", "mechanism_rng", "mechanism_seed"]


def id_entropy(mechanism_id: str) -> int:
    """A stable 64-bit integer for a mechanism id (the first 8 bytes of its BLAKE2b digest).

    Examples
    --------
    >>> id_entropy("laplace") == id_entropy("laplace") != id_entropy("analytic_gaussian")
    True
    """
    if not isinstance(mechanism_id, str):
        raise TypeError(f"mechanism_id must be a string, got mechanism_id={mechanism_id!r}")
    return int.from_bytes(hashlib.blake2b(mechanism_id.encode("utf-8"), digest_size=8).digest(), "little")


def mechanism_seed_sequence(seed: int, mechanism_id: str, *extra: int) -> np.random.SeedSequence:
    """The ``SeedSequence`` of ``mechanism_id``'s stream under ``seed`` (``extra``: e.g. a dimension).

    Examples
    --------
    >>> a = np.random.default_rng(mechanism_seed_sequence(0, "laplace")).random()
    >>> b = np.random.default_rng(mechanism_seed_sequence(0, "laplace")).random()
    >>> a == b
    True
    """
    seed_value = require_integer(seed, "seed", minimum=0)
    parts = [require_integer(value, "extra", minimum=0) for value in extra]
    return np.random.SeedSequence([seed_value, id_entropy(mechanism_id), *parts])


def mechanism_rng(seed: int, mechanism_id: str, *extra: int) -> np.random.Generator:
    """A ``numpy.random.Generator`` on the stream of :func:`mechanism_seed_sequence`."""
    return np.random.default_rng(mechanism_seed_sequence(seed, mechanism_id, *extra))


def mechanism_seed(seed: int, mechanism_id: str, *extra: int) -> int:
    """A plain ``int`` seed (below 2**63) of the same stream, for functions that take an int seed.

    Examples
    --------
    >>> mechanism_seed(1, "laplace") == mechanism_seed(1, "laplace") != mechanism_seed(1, "r1smg")
    True
    """
    low, high = mechanism_seed_sequence(seed, mechanism_id, *extra).generate_state(2, dtype=np.uint32)
    return (int(high) & 0x7FFFFFFF) << 32 | int(low)
