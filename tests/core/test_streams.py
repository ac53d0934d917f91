"""Random streams keyed by mechanism id (gaussmech_core.streams)."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

from gaussmech_core import streams
from gaussmech_core.mechanisms import MECHANISMS


def test_each_registered_id_has_its_own_stable_stream():
    firsts = {key: streams.mechanism_rng(5, key).random() for key in MECHANISMS}
    assert len(set(firsts.values())) == len(MECHANISMS)
    assert all(streams.mechanism_rng(5, key).random() == value for key, value in firsts.items())


def test_the_stream_depends_on_the_seed_and_the_extra_keys():
    assert streams.mechanism_seed(1, "laplace") != streams.mechanism_seed(2, "laplace")
    assert streams.mechanism_seed(1, "laplace", 10) != streams.mechanism_seed(1, "laplace", 100)
    assert 0 <= streams.mechanism_seed(2**40, "r1smg", 7) < 2**63


def test_the_id_hash_does_not_depend_on_python_hash_randomisation():
    # BLAKE2b of the UTF-8 id: the same number in every process (unlike hash()).
    assert streams.id_entropy("laplace") == int.from_bytes(
        __import__("hashlib").blake2b(b"laplace", digest_size=8).digest(), "little"
    )


@pytest.mark.parametrize("bad", [-1, 1.5, "3"])
def test_a_bad_seed_is_refused_with_its_name(bad):
    with pytest.raises((ValueError, TypeError), match="seed"):
        streams.mechanism_rng(bad, "laplace")


def test_a_non_string_id_is_refused():
    with pytest.raises(TypeError, match="mechanism_id"):
        streams.id_entropy(3)


def test_doctests():
    assert doctest.testmod(streams).failed == 0


def test_generators_are_numpy_generators():
    assert isinstance(streams.mechanism_rng(0, "laplace"), np.random.Generator)
