"""Input validation shared by every module of :mod:`gaussmech_core`.

Every public function converts its numeric arguments with :func:`as_float_array`, checks them
with :func:`require_interval` (or :func:`require_integer`), broadcasts them together with
:func:`broadcast`, and returns through :func:`scalar_or_array`, so that

* scalars in give a Python ``float`` out, arrays in give a numpy array out;
* a bad value raises ``ValueError`` (out of range, NaN, infinite) or ``TypeError`` (not a
  number) whose message names the parameter, its value, the allowed range and, for arrays,
  the index of the first bad element, e.g. ``delta must be in (0, 1), got delta=1.5``.
"""

from __future__ import annotations

import contextlib
import math
import numbers
import re
from collections.abc import Collection, Iterator
from typing import Any

import numpy as np

from ._types import ArrayLike, FloatOrArray

__all__ = [
    "as_float_array",
    "require_interval",
    "require_integer",
    "require_choice",
    "broadcast",
    "broadcast_1d",
    "scalar_or_array",
    "whole_numbers",
    "epsilon_array",
    "delta_array",
    "positive_array",
    "sample_shape",
    "MAX_SAMPLE_COUNT",
    "MAX_DIMENSION",
    "MAX_SEED",
    "parameter_names",
    "overflow_is_inf",
]


def _describe(value: object) -> str:
    """Format a bad value for an error message: short, exact, no numpy repr noise."""
    if isinstance(value, (np.floating, float)):
        return repr(float(value))
    if isinstance(value, (np.integer, int)):
        return repr(int(value))
    return repr(value)


def as_float_array(value: ArrayLike, name: str) -> np.ndarray:
    """Convert ``value`` to a float64 array, raising ``TypeError`` when it is not numeric.

    Strings, bytes, ``None``, booleans, complex numbers and objects that numpy cannot turn into
    real numbers are rejected: a privacy parameter given as ``"0.5"`` is a bug in the caller,
    not something to guess at.
    """
    if value is None or isinstance(value, (str, bytes, bool, np.bool_, complex, np.complexfloating)):
        raise TypeError(f"{name} must be a real number or an array of real numbers, got {name}={value!r}")
    try:
        array = np.asarray(value)
    except Exception as error:  # pragma: no cover - numpy raises many types for odd objects
        raise TypeError(f"{name} must be a real number or an array of real numbers, got {name}={value!r}") from error
    if array.dtype.kind not in "iuf":
        if array.dtype.kind == "O":
            for index, element in np.ndenumerate(array):
                if not isinstance(element, numbers.Real) or isinstance(element, bool):
                    where = f" at index {index if array.ndim > 1 else index[0]}" if array.ndim else ""
                    raise TypeError(f"{name} must contain only real numbers, got {name}={element!r}{where}")
            # Python ints beyond the double range (|n| >= 2**1024) round to ±inf, as IEEE rounding
            # to nearest does; the interval checks then reject them where infinity is not allowed.
            rounded = np.empty(array.shape, dtype=np.float64)
            for index, element in np.ndenumerate(array):
                rounded[index] = _to_double(element)
            return rounded
        raise TypeError(f"{name} must be a real number or an array of real numbers, got {name}={value!r}")
    return np.asarray(array, dtype=np.float64)


def _to_double(number: Any) -> float:
    """``float(number)``, with integers too large for a double rounded to ±inf instead of raising."""
    try:
        return float(number)
    except OverflowError:
        return math.inf if number > 0 else -math.inf


def _interval_text(lower: float | None, upper: float | None, lower_open: bool, upper_open: bool) -> str:
    low = "-inf" if lower is None else _format_bound(lower)
    high = "inf" if upper is None else _format_bound(upper)
    left = "(" if (lower_open or lower is None) else "["
    right = ")" if (upper_open or upper is None) else "]"
    return f"{left}{low}, {high}{right}"


def _format_bound(bound: float) -> str:
    if float(bound).is_integer() and abs(bound) < 1e15:
        return str(int(bound))
    return f"{bound:g}"


def require_interval(
    array: np.ndarray,
    name: str,
    lower: float | None = None,
    upper: float | None = None,
    *,
    lower_open: bool = False,
    upper_open: bool = False,
    allow_infinity: bool = False,
    hint: str = "",
) -> np.ndarray:
    """Check that every element of ``array`` lies in the interval and is not NaN.

    ``lower``/``upper`` of ``None`` mean unbounded. Infinite values are rejected unless
    ``allow_infinity`` is set (they still have to lie in the interval). ``hint`` is appended to
    the message, e.g. to name the function to use instead.
    """
    bad = np.isnan(array)
    if not allow_infinity:
        bad |= np.isinf(array)
    if lower is not None:
        bad |= (array <= lower) if lower_open else (array < lower)
    if upper is not None:
        bad |= (array >= upper) if upper_open else (array > upper)
    if np.any(bad):
        first = tuple(int(i) for i in np.argwhere(bad)[0]) if array.ndim else ()
        value = array[first] if array.ndim else array[()]
        where = ""
        if array.ndim == 1:
            where = f" (first bad element at index {first[0]})"
        elif array.ndim > 1:
            where = f" (first bad element at index {first})"
        interval = _interval_text(lower, upper, lower_open, upper_open)
        # A two-sided bounded interval already excludes infinities; say "finite" only where it adds.
        unbounded = lower is None or upper is None
        kind = "finite and " if (unbounded and not allow_infinity) else ""
        message = f"{name} must be {kind}in {interval}, got {name}={_describe(value)}{where}"
        if hint:
            message += f"; {hint}"
        raise ValueError(message)
    return array


def require_integer(value: object, name: str, minimum: int = 1, maximum: int | None = None) -> int:
    """Return ``value`` as a Python ``int`` after checking it is a whole number in range."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, numbers.Real)):
        raise TypeError(f"{name} must be an integer, got {name}={value!r}")
    if isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral):
        if not math.isfinite(value) or not float(value).is_integer():
            raise ValueError(f"{name} must be a whole number, got {name}={_describe(value)}")
    number = int(value)  # type: ignore[call-overload]  # typeshed's numbers.Real lacks __int__
    if number < minimum or (maximum is not None and number > maximum):
        upper = "inf" if maximum is None else str(maximum)
        raise ValueError(f"{name} must be an integer in [{minimum}, {upper}], got {name}={number}")
    return number


def require_choice(value: str, name: str, choices: Collection[str]) -> str:
    """Check that ``value`` is one of ``choices`` (strings)."""
    if value not in choices:
        options = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {options}, got {name}={value!r}")
    return value


def broadcast(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """Broadcast validated arrays together, with a readable error when shapes do not fit."""
    try:
        return tuple(np.array(a, dtype=np.float64) for a in np.broadcast_arrays(*arrays))
    except ValueError as error:
        shapes = ", ".join(str(np.shape(a)) for a in arrays)
        raise ValueError(f"parameter arrays have shapes {shapes}, which do not broadcast together") from error


def scalar_or_array(result: ArrayLike, *inputs: ArrayLike) -> FloatOrArray:
    """Return a Python float when every input was a scalar, else a numpy array."""
    if all(np.ndim(x) == 0 for x in inputs):
        return float(np.asarray(result, dtype=np.float64).reshape(()))
    return np.asarray(result, dtype=np.float64)


def broadcast_1d(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """Broadcast validated arrays, as at least 1-D arrays so that boolean masks index them."""
    return tuple(np.atleast_1d(array) for array in broadcast(*arrays))


def whole_numbers(value: ArrayLike, name: str, minimum: int) -> np.ndarray:
    """An integer or an array of whole numbers >= ``minimum``, as a float array."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, got {name}={value!r}")
    array = as_float_array(value, name)
    require_interval(array, name, float(minimum), None)
    fractional = array != np.floor(array)
    if np.any(fractional):
        if array.ndim == 0:
            raise ValueError(f"{name} must be a whole number, got {name}={float(array)!r}")
        index = tuple(int(i) for i in np.argwhere(fractional)[0])
        where = index[0] if array.ndim == 1 else index
        raise ValueError(
            f"{name} must be a whole number, got {name}={float(array[index])!r} (first bad element at index {where})"
        )
    return array


def epsilon_array(epsilon: ArrayLike, *, positive: bool = False, hint: str = "") -> np.ndarray:
    """ε as a float array: ε ≥ 0, or ε > 0 when ``positive``."""
    return require_interval(as_float_array(epsilon, "epsilon"), "epsilon", 0.0, None, lower_open=positive, hint=hint)


def delta_array(delta: ArrayLike) -> np.ndarray:
    """δ as a float array in (0, 1)."""
    return require_interval(as_float_array(delta, "delta"), "delta", 0.0, 1.0, lower_open=True, upper_open=True)


def positive_array(value: ArrayLike, name: str) -> np.ndarray:
    """A strictly positive, finite parameter as a float array."""
    return require_interval(as_float_array(value, name), name, 0.0, None, lower_open=True)


#: The most draws one sampler call makes (8 GB of float64): beyond it a ``size`` is refused with
#: a ValueError naming it, instead of numpy's unnamed "Maximum allowed dimension exceeded" or a
#: MemoryError.
MAX_SAMPLE_COUNT = 10**9


def sample_shape(size: object, name: str = "size") -> tuple[int, ...]:
    """A sampler's ``size`` (a whole number of draws or a shape) as a tuple of Python ints.

    Accepts an ``int``, a numpy integer, a 0-d or 1-d integer array, or a tuple/list of them.
    A float (even ``4.0``), a bool or anything else raises ``TypeError`` naming ``name``; a
    negative entry, or more than :data:`MAX_SAMPLE_COUNT` draws in all, raises ``ValueError``.

    Examples
    --------
    >>> sample_shape(3), sample_shape((2, 3)), sample_shape(np.array(4))
    ((3,), (2, 3), (4,))
    """
    given = size
    if isinstance(size, np.ndarray) and size.ndim == 1:
        size = tuple(size)
    entries = tuple(size) if isinstance(size, (tuple, list)) else (size,)
    shape = []
    for entry in entries:
        if isinstance(entry, (bool, np.bool_)) or not (
            isinstance(entry, (numbers.Integral, np.integer))
            or (isinstance(entry, np.ndarray) and entry.ndim == 0 and entry.dtype.kind in "iu")
        ):
            raise TypeError(f"{name} must be a non-negative integer or a tuple of them, got {name}={given!r}")
        shape.append(int(entry))
    shown = ", ".join(str(n) if abs(n) < 10**15 else f"{'-' if n < 0 else ''}~1e{len(str(abs(n))) - 1}" for n in shape)
    shown = f"({shown})" if len(shape) != 1 else shown
    if any(n < 0 for n in shape):
        raise ValueError(f"{name} must be non-negative, got {name}={shown}")
    if math.prod(shape) > MAX_SAMPLE_COUNT:
        raise ValueError(f"{name} must describe at most {MAX_SAMPLE_COUNT:.0e} draws, got {name}={shown}")
    return tuple(shape)


#: The largest dimension (number of noise coordinates) a function accepts: 2**53, the last
#: integer float64 holds exactly, so that d, d σ² and χ²_d are computed for the d given.
MAX_DIMENSION = 2**53

#: The largest seed accepted for ``numpy.random.default_rng`` (64 bits of entropy suffice, and a
#: seed is echoed in results, where a number beyond float64 would read as inf).
MAX_SEED = 2**64 - 1


@contextlib.contextmanager
def parameter_names(**caller_names: str) -> Iterator[None]:
    """Name the caller's parameters in the errors of the functions it delegates to.

    A wrapper such as ``per_release_sigma(total_epsilon, ...)`` validates through
    ``analytic_gaussian_sigma(epsilon, ...)``; inside ``with parameter_names(epsilon="total_epsilon")``
    a ``ValueError``/``TypeError`` that says ``epsilon must ...`` / ``got epsilon=...`` is re-raised
    saying ``total_epsilon`` (only the parameter's own mentions change, not a hint's formula).

    Examples
    --------
    >>> with parameter_names(epsilon="total_epsilon"):
    ...     epsilon_array(-1.0)
    Traceback (most recent call last):
    ...
    ValueError: total_epsilon must be finite and in [0, inf), got total_epsilon=-1.0
    """
    try:
        yield
    except (ValueError, TypeError) as error:
        message = str(error)
        renamed = message
        for inner, outer in caller_names.items():
            renamed = re.sub(rf"(?<![\w.]){re.escape(inner)}(?= must |=)", outer, renamed)
        if renamed == message:
            raise
        raise (ValueError if isinstance(error, ValueError) else TypeError)(renamed) from error


def overflow_is_inf() -> contextlib.AbstractContextManager[Any]:
    """``np.errstate`` that lets float64 overflow give ±inf (and x/0 give ±inf) without a warning.

    Use it only around a formula whose exact value, rounded to float64, *is* that inf (e.g.
    σ = Δ/ε at ε = 5e-324), and say so in the function's docstring; where the exact value is
    representable, rewrite the formula instead (a product of logs, a quotient of square roots).
    """
    return np.errstate(over="ignore", divide="ignore")
