"""Fixtures for AppTest tests of the frame: a throw-away app with a probe page at every menu path.

The real app may have few pages yet; the probe app has one at each path the menu lists, so the
frame (menu, persistence across pages, URL mirroring) is tested on every entry whatever exists.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gaussmech_ui.menu import MENU

PROBE_PAGE = """
import streamlit as st
from gaussmech_ui.sidebar import render_sidebar

setting = render_sidebar()
st.text("probe " + repr({path!r}) + ": " + repr(setting))
"""


@pytest.fixture
def probe_app(tmp_path: Path) -> Path:
    """A folder with ``app.py`` and a probe page at every path of the menu; returns its ``app.py``."""
    for entry in MENU:
        page = tmp_path / entry.path
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(PROBE_PAGE.format(path=entry.path), encoding="utf-8")
    return tmp_path / "app.py"
