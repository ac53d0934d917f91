"""Numbers formatted for people: three significant digits, scientific notation where needed.

The dashboard computes exactly and shows rounded: a table cell says ``3.73``, the hover and the
CSV download carry the exact value. One module does the rounding so that every page writes
``1e-5`` the same way (USERS.md, "Numbers that add up").
"""

from __future__ import annotations

import math
import re

__all__ = [
    "format_number",
    "round_up",
    "round_down",
    "format_exact",
    "format_percent",
    "format_ratio",
    "format_interval",
    "escape_markdown",
    "MATH_REFERENCE_PAGE",
    "math_reference_link",
    "math_reference_name",
    "cite_math",
]

_DASH = "—"


def format_number(value, digits: int = 3) -> str:
    """Round ``value`` to ``digits`` significant digits and write it for a person.

    Fixed notation from 0.001 to below 100,000 (with thousands separators), scientific notation
    outside (``4.84e6``, ``1e-5``); trailing zeros are dropped. ``None`` and NaN become a dash,
    infinities ``∞``.

    Examples
    --------
    >>> format_number(3.730631634816)
    '3.73'
    >>> format_number(1e-5), format_number(4844810.0), format_number(38021.98)
    ('1e-5', '4.84e6', '38,000')
    >>> format_number(0.05), format_number(9.9951), format_number(-0.000123456)
    ('0.05', '10', '-1.23e-4')
    >>> format_number(float("nan")), format_number(float("inf")), format_number(0.0)
    ('—', '∞', '0')
    """
    if value is None:
        return _DASH
    number = float(value)
    if math.isnan(number):
        return _DASH
    if math.isinf(number):
        return "∞" if number > 0 else "-∞"
    if number == 0:
        return "0"
    # Round first, then choose the notation from the rounded value, so 99,999.7 becomes 1e5.
    mantissa_text, exponent_text = f"{number:.{digits - 1}e}".split("e")
    exponent = int(exponent_text)
    if -3 <= exponent < 5:
        decimals = max(digits - 1 - exponent, 0)
        text = f"{float(mantissa_text + 'e' + exponent_text):,.{decimals}f}"
        return _strip_zeros(text)
    return f"{_strip_zeros(mantissa_text)}e{exponent}"


def round_up(value: float, digits: int = 3) -> float:
    """``value`` rounded up to ``digits`` significant digits (never below it): a scale shown rounded up
    stays safe where every larger scale is (docs/math.md section 9.7).

    >>> round_up(1.0506238), round_up(0.019370800)
    (1.06, 0.0194)
    """
    if not math.isfinite(value) or value <= 0:
        return value
    step = 10.0 ** (math.floor(math.log10(value)) - digits + 1)
    rounded = math.ceil(value / step) * step
    rounded = float(f"{rounded:.{digits + 2}g}")
    return rounded if rounded >= value else float(f"{rounded + step:.{digits + 2}g}")


def round_down(value: float, digits: int = 3) -> float:
    """``value`` rounded down to ``digits`` significant digits (never above it).

    >>> round_down(7.8764642)
    7.87
    """
    if not math.isfinite(value) or value <= 0:
        return value
    step = 10.0 ** (math.floor(math.log10(value)) - digits + 1)
    rounded = float(f"{math.floor(value / step) * step:.{digits + 2}g}")
    return rounded if rounded <= value else float(f"{rounded - step:.{digits + 2}g}")


def _strip_zeros(text: str) -> str:
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def format_exact(value) -> str:
    """The shortest text that reads back as exactly ``value`` (for entry boxes, links and CSV).

    Examples
    --------
    >>> format_exact(1e-5), format_exact(0.5), format_exact(1e100), format_exact(10)
    ('1e-5', '0.5', '1e100', '10')
    >>> float(format_exact(0.1 + 0.2)) == 0.1 + 0.2
    True
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    number = float(value)
    if number.is_integer() and abs(number) < 1e16:
        return str(int(number))
    text = repr(number)
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}e{int(exponent)}"
    return text


def format_percent(fraction, digits: int = 2) -> str:
    """A fraction as a percentage with ``digits`` significant digits.

    Examples
    --------
    >>> format_percent(0.22998), format_percent(0.05), format_percent(0.0012)
    ('23%', '5%', '0.12%')
    """
    return f"{format_number(100.0 * float(fraction), digits)}%"


def format_ratio(ratio, digits: int = 3) -> str:
    """A ratio of two quantities, written with a multiplication sign.

    Examples
    --------
    >>> format_ratio(1.6866)
    '1.69×'
    """
    return f"{format_number(ratio, digits)}×"


def format_interval(lower, upper, *, lower_open: bool = False, upper_open: bool = False) -> str:
    """An interval for messages, e.g. ``[1e-6, 1000]`` or ``[1e-300, 1)`` (no thousands separators,
    which would read as a third bound).

    Examples
    --------
    >>> format_interval(1e-300, 1.0, upper_open=True), format_interval(1e-6, 1e3)
    ('[1e-300, 1)', '[1e-6, 1000]')
    """
    left = "(" if lower_open else "["
    right = ")" if upper_open else "]"
    low, high = (format_number(bound, 6).replace(",", "") for bound in (lower, upper))
    return f"{left}{low}, {high}{right}"


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]#|<>$~])")


def escape_markdown(text: str) -> str:
    """Text shown through ``st.markdown`` as written: no italics from ``_``, no LaTeX from ``$``, no links.

    Markdown and LaTeX characters get a backslash, so a label such as ``$x$`` or ``[link](u)``
    (from a file, a name, a message) shows as typed and is never rendered or followed.

    Examples
    --------
    >>> print(escape_markdown("γ bounds ‖f(X)‖_F, costs $2 * 3"))
    γ bounds ‖f(X)‖\\_F, costs \\$2 \\* 3
    >>> print(escape_markdown("a_b [x](y) $z$"))
    a\\_b \\[x\\](y) \\$z\\$
    """
    return _MARKDOWN_SPECIAL.sub(r"\\\1", str(text))


# The page that renders docs/math.md (pages/9_Math_reference.py), one anchor per section. Every
# citation in the interface goes through math_reference_link(), so the target changes here only.
MATH_REFERENCE_PAGE = "Math_reference"


def _anchor(section: str) -> str:
    return "section-" + str(section).strip().replace(".", "-")


def math_reference_link(*sections: str) -> str:
    """Markdown links to sections of the project's math reference, reachable from the app.

    Examples
    --------
    >>> math_reference_link("6.2")
    '[math reference §6.2](Math_reference#section-6-2)'
    >>> math_reference_link("4", "5.1")
    '[math reference §4](Math_reference#section-4), [§5.1](Math_reference#section-5-1)'
    """
    links = [
        f"[{'math reference ' if index == 0 else ''}§{section}]({MATH_REFERENCE_PAGE}#{_anchor(section)})"
        for index, section in enumerate(sections)
    ]
    return ", ".join(links)


def math_reference_name(*sections: str) -> str:
    """The same citation as plain text, where a link cannot be drawn (a table cell, a chart).

    Examples
    --------
    >>> math_reference_name("6.3", "6.4")
    'math reference §6.3, §6.4'
    """
    return "math reference " + ", ".join(f"§{section}" for section in sections)


# "docs/math.md section 6.2" / "sections 6.3, 6.4" (the code's form), and the older "docs/math.md section 6.2".
_CITATION = re.compile(
    r"(?:docs/math\.md(?: sections?)?|MATH\.md(?: section)?) (\d+(?:\.\d+)?(?:(?:, | and )\d+(?:\.\d+)?)*)"
)


def cite_math(text: str, *, links: bool = True) -> str:
    """Text with every "docs/math.md section 6.2" citation (e.g. from a registry entry) turned into the math reference's.

    Examples
    --------
    >>> cite_math("Liu, Lemma 10 (docs/math.md section 5.3)")
    'Liu, Lemma 10 ([math reference §5.3](Math_reference#section-5-3))'
    >>> cite_math("see docs/math.md sections 6.2, 7.1 here", links=False)
    'see math reference §6.2, §7.1 here'
    """
    cite = math_reference_link if links else math_reference_name
    return _CITATION.sub(lambda match: cite(*re.split(r", | and ", match.group(1))), str(text))
