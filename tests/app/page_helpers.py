"""Helpers the page tests share: open a page the way a shared link does, and read its charts.

Imported as ``from tests.app.page_helpers import ...`` (the checkout's root is on ``sys.path``,
see ``pythonpath`` in pyproject.toml); not a test module, so pytest does not collect it.
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP_ROOT = Path(__file__).resolve().parents[2]


def open_page(page: str, *, view_key: str | None = None, view: str | None = None, **query) -> AppTest:
    """Run ``page`` as a visitor arriving from a link with ``query`` (and ``view_key=view``) would.

    The page is reached from ``app.py`` by ``switch_page``, so the shared sidebar state is set up
    as in the real app. Fails the test at once if the page shows an exception or an ``st.error``.
    """
    at = AppTest.from_file(str(APP_ROOT / "app.py"), default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    if view:
        at.query_params[view_key] = view
    at.switch_page(page)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def trace_named(spec: dict, name: str) -> dict:
    """The trace called ``name`` in a decoded Plotly spec."""
    return next(trace for trace in spec["data"] if trace["name"] == name)


def legend_order(spec: dict) -> list[str]:
    """Trace names as the legend lists them (curves are drawn last-to-first, ranked for the legend)."""
    return [trace["name"] for trace in sorted(spec["data"], key=lambda trace: trace.get("legendrank", 1000))]
