"""The bracketing root finder behind every GG and bounded-data calibration (generalized._bisect).

Interpolation only chooses where to probe; the predicate alone moves the bracket. So for a
monotone predicate the result must be exactly the adjacent pair plain bisection of the doubles
finds, whatever the bracket (signs, binades apart, infinite ends), in at most 130 probes.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from gaussmech_core.generalized import _bisect, _from_order_key, _order_key


def plain_bisection(predicate, lower, upper):
    """Bisection of the order keys, the reference: the first double where the predicate holds."""
    low, high = int(_order_key(np.array([lower]))[0]), int(_order_key(np.array([upper]))[0])
    while low + 1 < high:
        middle = (low + high) // 2
        if predicate(float(_from_order_key(np.array([middle], dtype=np.int64))[0])):
            high = middle
        else:
            low = middle
    return float(_from_order_key(np.array([low], dtype=np.int64))[0]), float(
        _from_order_key(np.array([high], dtype=np.int64))[0]
    )


FUNCTIONS = {
    "cubic": lambda x: x**3,
    "exp": np.exp,
    "log": lambda x: np.log(np.maximum(x, 1e-320)),
    "step-like tanh": lambda x: np.tanh(50.0 * x),
    "arcsinh": np.arcsinh,
}


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(sorted(FUNCTIONS)),
    root=st.floats(-1e6, 1e6, allow_nan=False),
    width_low=st.floats(1e-300, 1e300),
    width_high=st.floats(1e-300, 1e300),
    inclusive=st.booleans(),
)
def test_same_pair_as_plain_bisection(name, root, width_low, width_high, inclusive):
    function = FUNCTIONS[name]
    with np.errstate(all="ignore"):
        target = float(function(np.array([root]))[0])
    lower, upper = root - width_low, root + width_high
    if not (np.isfinite(lower) and np.isfinite(upper)):
        return

    def predicate(x):
        with np.errstate(all="ignore"):
            value = float(function(np.array([x]))[0])
        return value >= target if inclusive else value > target

    if predicate(lower) or not predicate(upper):
        return  # not a bracket of this predicate (flat function at these magnitudes)
    calls = []

    def counted(x):
        calls.append(1)
        with np.errstate(all="ignore"):
            return function(x)

    low, high = _bisect(counted, target, np.array([lower]), np.array([upper]), inclusive=inclusive)
    assert (float(low[0]), float(high[0])) == plain_bisection(predicate, lower, upper)
    assert len(calls) <= 132  # two ends, at most 64 interpolated probes, at most 64 key midpoints


def test_vectorized_and_infinite_ends():
    """Elementwise over brackets of every kind at once, an infinite upper end included."""
    lower = np.array([-3.0, 1e-300, -1e300, 0.0])
    upper = np.array([5.0, 1e300, 1e300, np.inf])
    target = np.array([1.0, 7.5, -2.0, 1e308])
    low, high = _bisect(lambda x: x, target, lower, upper, inclusive=True)
    assert np.all(np.nextafter(low, np.inf) == high)
    assert np.all(low < target) and np.all(high >= target)


def test_smooth_roots_take_few_probes():
    """The point of interpolation: a smooth root closes in far fewer than plain bisection's ~60 probes."""
    calls = []

    def counted(x):
        calls.append(1)
        return np.log(x)

    _bisect(counted, np.log(2.5), np.array([1e-3]), np.array([1e3]))
    assert len(calls) <= 25
