"""Three real browser sessions at once never see each other's parameters or uploads (crosstalk)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import pytest  # noqa: E402
from browser_sessions import start_browser_sessions  # noqa: E402

pytestmark = pytest.mark.slow


def test_three_sessions_stay_apart(app_url, chromium):
    # In a thread of its own: the session's Playwright (other tests' ``page``) owns this one.
    errors, crosstalk = start_browser_sessions(app_url, count=3, seconds=8).result(timeout=400)
    assert errors == [] and crosstalk == [], (errors, crosstalk)
