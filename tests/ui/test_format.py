"""Numbers for people: 3 significant digits, scientific notation where needed, exact text round-trips."""

from __future__ import annotations

import doctest
import math

import pytest
from hypothesis import given, settings, strategies as st

import gaussmech_ui.format as format_module
from gaussmech_ui.format import format_exact, format_interval, format_number, format_percent, format_ratio


def test_doctests_pass():
    result = doctest.testmod(format_module)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (3.730631634816, "3.73"),
        (4.84481, "4.84"),
        (38021.98146875, "38,000"),
        (4844810.0, "4.84e6"),
        (1e-5, "1e-5"),
        (1e-300, "1e-300"),
        (0.001, "0.001"),
        (0.000999, "9.99e-4"),
        (99999.7, "1e5"),
        (9.9951, "10"),
        (0.5, "0.5"),
        (-2.5e-7, "-2.5e-7"),
        (0, "0"),
        (None, "—"),
        (float("nan"), "—"),
        (float("-inf"), "-∞"),
    ],
)
def test_format_number_examples(value, text):
    assert format_number(value) == text


finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300).filter(
    lambda x: x == 0 or abs(x) > 1e-300
)


@settings(max_examples=200, deadline=None)
@given(finite)
def test_format_number_keeps_three_significant_digits(value):
    text = format_number(value)
    back = float(text.replace(",", ""))
    assert back == pytest.approx(value, rel=5e-3, abs=0)
    mantissa = text.replace(",", "").replace("-", "").split("e")[0]
    if "." not in mantissa:
        mantissa = mantissa.rstrip("0") or "0"  # 1,000 and 38,000 have 3 significant digits or fewer
    assert len(mantissa.replace(".", "").lstrip("0")) <= 3


@settings(max_examples=200, deadline=None)
@given(finite)
def test_format_exact_round_trips(value):
    assert float(format_exact(value)) == value


def test_format_exact_is_compact():
    assert format_exact(1e-5) == "1e-5"
    assert format_exact(1.5e-300) == "1.5e-300"
    assert format_exact(2.0) == "2"
    assert format_exact(12) == "12"


def test_percent_ratio_interval():
    assert format_percent(0.2300) == "23%"
    assert format_ratio(1.68656) == "1.69×"
    assert format_interval(1e-6, 1e3) == "[1e-6, 1000]"
    assert format_interval(0, 1, lower_open=True, upper_open=True) == "(0, 1)"
    assert not math.isnan(float(format_number(1.0)))
