"""Every page, opened from a hostile link: no exception reaches the page, each bad value gets a
visible warning and the page uses a safe default, and no value is rendered as markup.

The keys tried are the shared parameters (``gaussmech_ui.params``) and every page-specific key the
page itself binds to the URL (each widget whose proto has a ``query_param_key``), discovered by
opening the page at its defaults. Values: negative, zero, NaN, infinite, huge, non-numeric,
markup, 10,000 characters, and the same key repeated.

A page that could not yet meet this would be listed in ``FAILING_TODAY`` and marked as an
expected failure, strictly (a page that starts to pass must leave the list); the list is empty:
every page passes.
"""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from streamlit.testing.v1 import AppTest

from gaussmech_ui.menu import MENU
from gaussmech_ui.params import DEFAULTS, PARAMETERS, parse_value
from tests.app.page_helpers import APP_ROOT

PAGES = ["app.py"] + [entry.path for entry in MENU if entry.path != "app.py"]
WIDGET_TYPES = (
    "slider",
    "select_slider",
    "selectbox",
    "radio",
    "number_input",
    "text_input",
    "checkbox",
    "toggle",
    "button_group",
    "multiselect",
)
# Values no key of any page accepts.
ALWAYS_BAD = [
    "nan",
    "NaN",
    "inf",
    "-inf",
    "1e309",
    "-1e309",
    "abc",
    "<script>alert(1)</script>",
    "[click](http://evil.example)",
    "**bold**",
    "1,5",
    "\uff19",
    "x" * 10_000,
    "0x10",
    "1e5000",
]
# Values bad for some keys only (e.g. 0 is a fine seed): tried on the shared parameters, judged by parse_value.
SOMETIMES_BAD = ["-1", "0", "-0.5", "1e300", "1e-400"]
# What fails today, page by page (found by this test; pages are being changed by others). The
# marks are strict: a page that starts to pass must lose its mark.
FAILING_TODAY: dict[str, str] = {}
# Keys whose every value is valid: a search box takes any text (it must still never render it as markup).
FREE_TEXT_KEYS = {"math_filter"}


def _run(page: str, query: dict, timeout: float = 120) -> AppTest:
    at = AppTest.from_file(str(APP_ROOT / "app.py"), default_timeout=timeout)
    for key, value in query.items():
        at.query_params[key] = value
    if page != "app.py":
        at.switch_page(page)
    at.run()
    return at


_PAGE_KEYS: dict[str, list[str]] = {}


def page_keys(page: str) -> list[str]:
    """The page's own URL keys: the widgets bound to the query string (not the sidebar's)."""
    if page not in _PAGE_KEYS:
        at = _run(page, {})
        keys = set()
        for kind in WIDGET_TYPES:
            for element in at.get(kind):
                key = getattr(element.proto, "query_param_key", "")
                if key and key not in {parameter.url_key for parameter in PARAMETERS.values()}:
                    keys.add(key)
        _PAGE_KEYS[page] = sorted(keys)
    return _PAGE_KEYS[page]


def _is_bad_shared(name: str, value: str) -> bool:
    try:
        parse_value(name, value)
    except ValueError:
        return True
    return False


def _markup_outside_code(text: str) -> bool:
    """Whether text still holds link markup once its code spans (`...`) are removed.

    (HTML such as ``<script>`` is shown as text by Streamlit's markdown without
    ``unsafe_allow_html``; a markdown link is not: it becomes a link in the app's own warning.)
    """
    plain = re.sub(r"`[^`]*`", "", text)
    return "](" in plain


def check_page(page: str, query: dict) -> list[str]:
    """The problems of ``page`` opened with ``query`` (empty when it behaves)."""
    at = _run(page, query)
    problems = [f"exception: {exception.value[:200]}" for exception in at.exception]
    warnings = [warning.value for warning in at.warning]
    link_markup = {
        str(v)
        for values in query.values()
        for v in (values if isinstance(values, list) else [values])
        if _markup_outside_code(str(v))
    }
    for text in warnings + [error.value for error in at.error] + [markdown.value for markdown in at.markdown]:
        plain = re.sub(r"`[^`]*`", "", text)
        # The app's own links (e.g. to the math reference) are fine; the link's markup outside code is not.
        if any(markup in plain for markup in link_markup):
            problems.append(f"markup from the link rendered: {text[:120]!r}")
    by_url_key = {parameter.url_key: name for name, parameter in PARAMETERS.items()}
    for key, value in query.items():
        shown = value[-1] if isinstance(value, list) else value
        name = by_url_key.get(key)
        if name is not None:
            if not _is_bad_shared(name, shown):
                continue
            warned = any(key in warning for warning in warnings)
            current = at.session_state[name] if name in at.session_state else None
            safe = current == DEFAULTS[name] or (isinstance(current, float) and math.isclose(current, DEFAULTS[name]))
            if not warned:
                problems.append(f"no warning for {key}={shown[:30]!r}")
            if not safe:
                problems.append(f"{key}={shown[:30]!r} gave {name}={current!r}, not the default {DEFAULTS[name]!r}")
        elif key not in FREE_TEXT_KEYS and not any(key in warning for warning in warnings):
            problems.append(f"no warning for the page's {key}={shown[:30]!r}")
    return problems


SHARED_KEYS = sorted(parameter.url_key for parameter in PARAMETERS.values())


def hostile_query(page_specific: list[str]):
    """A strategy for a link: some shared and page keys with hostile values, maybe repeated."""
    shared_value = st.sampled_from(ALWAYS_BAD + SOMETIMES_BAD)
    page_value = st.sampled_from(ALWAYS_BAD)
    value = lambda base: base | st.lists(base, min_size=2, max_size=3)  # noqa: E731 - a repeated key
    keys = {key: value(shared_value) for key in SHARED_KEYS} | {key: value(page_value) for key in page_specific}
    return st.fixed_dictionaries({}, optional=keys).filter(bool)


@pytest.mark.slow
@pytest.mark.parametrize(
    "page",
    [
        pytest.param(page, marks=pytest.mark.xfail(strict=True, reason=FAILING_TODAY[page]))
        if page in FAILING_TODAY
        else page
        for page in PAGES
    ],
)
def test_page_survives_hostile_links(page):
    found: list[str] = []

    @settings(max_examples=2, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(hostile_query(page_keys(page)))
    def run(query):
        problems = check_page(page, query)
        if problems:
            found.append(f"{sorted(query)}: {problems[:3]}")

    run()
    # And every key at once, with the nastiest value.
    everything = {key: "[click](http://evil.example)" for key in SHARED_KEYS + page_keys(page)}
    problems = check_page(page, everything)
    if problems:
        found.append(f"all keys: {problems[:5]}")
    assert not found, "\n".join(found)


def test_markup_check_can_fail():
    assert _markup_outside_code("The link sets x=[click](http://e), but ...")
    assert not _markup_outside_code("The link sets x=<script>, but ...")
    assert not _markup_outside_code("The link sets `x=[click](http://e)`, but ...")
