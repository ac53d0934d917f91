"""Type aliases shared by the annotations of :mod:`gaussmech_core` (no runtime behaviour).

The numerical functions accept a Python number, a numpy scalar, a sequence or an array for each
numeric parameter, and return a Python ``float`` for scalar inputs and a numpy array otherwise
(see :func:`~gaussmech_core._validation.scalar_or_array`); these names say so in a signature.
"""

from __future__ import annotations

from typing import TypeAlias, TypeVar

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["ArrayLike", "FloatOrArray", "FloatT", "Prior", "Shape"]

#: What a vectorized function returns: a Python ``float`` for scalar inputs, else an array.
FloatOrArray: TypeAlias = float | np.ndarray

#: A helper that maps a float to a float and an array to an array.
FloatT = TypeVar("FloatT", float, np.ndarray)

#: The ``size`` of a sampler: a number of draws or an array shape.
Shape: TypeAlias = int | tuple[int, ...]

#: A normal prior ``(mean, variance)`` for the Bayes denoisers: the mean a number or an array.
Prior: TypeAlias = tuple[ArrayLike, ArrayLike]
