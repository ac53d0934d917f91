"""Fixtures shared by every test: Streamlit's cache cleared, Plotly charts read back from AppTest.

* ``chart_specs(at)``: the decoded Plotly figures an ``AppTest`` run drew, in page order, as
  plain dicts (``spec["data"][0]["y"]`` is a numpy array).
* ``decode_plotly(obj)``: the decoder itself. Plotly ≥ 6 writes numeric arrays as
  ``{"dtype": "f8", "bdata": "<base64>", "shape": "2, 3"}``; this turns them back into arrays.
* ``APP_ROOT`` / ``app_test``: an ``AppTest`` of ``app.py`` (30 s timeout), not yet run.
* An autouse fixture clears ``st.cache_data`` around every test that has imported Streamlit,
  so no test sees another's cached results.

Test modules are imported with ``--import-mode=importlib`` (pyproject.toml), so helpers are
shared as fixtures, not imported from this file.
"""

from __future__ import annotations

import base64
import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings

# Property tests explore new examples on every local run; CI replays a fixed derandomized set, so
# a landing is judged on the same examples every time (a failure found locally becomes a fixed test).
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

APP_ROOT = Path(__file__).resolve().parents[1]


def _decode(obj):
    if isinstance(obj, dict):
        if "bdata" in obj and "dtype" in obj:
            array = np.frombuffer(base64.b64decode(obj["bdata"]), dtype=np.dtype(obj["dtype"]))
            shape = obj.get("shape")
            if shape:
                array = array.reshape([int(n) for n in str(shape).split(",")])
            return array.copy()
        return {key: _decode(value) for key, value in obj.items()}
    if isinstance(obj, list):
        return [_decode(value) for value in obj]
    return obj


@pytest.fixture
def decode_plotly():
    """The decoder of Plotly's base64 arrays (``{"dtype", "bdata"}``), applied recursively."""
    return _decode


@pytest.fixture
def chart_specs():
    """A function: ``chart_specs(at)`` gives the decoded specs of every Plotly chart of a run."""

    def read(at) -> list[dict]:
        return [_decode(json.loads(element.proto.spec)) for element in at.get("plotly_chart")]

    return read


@pytest.fixture
def app_test():
    """A fresh ``AppTest`` of the Overview (``app.py``), not yet run."""
    from streamlit.testing.v1 import AppTest

    return AppTest.from_file(str(APP_ROOT / "app.py"), default_timeout=30)


@pytest.fixture(autouse=True)
def _clear_streamlit_cache():
    """Clear ``st.cache_data`` before and after each test, when Streamlit is loaded at all."""
    if "streamlit" in sys.modules:
        sys.modules["streamlit"].cache_data.clear()
    yield
    if "streamlit" in sys.modules:
        sys.modules["streamlit"].cache_data.clear()
