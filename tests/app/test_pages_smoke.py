"""Every page (app.py and each file in pages/) renders at the defaults and at the extremes of every control.

Pages added later are covered automatically: the list is read from the folder. The extremes are
set through the URL, as a shared link would, so each also checks that the link is accepted
without a warning.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["app.py"] + [str(path.relative_to(ROOT)) for path in sorted((ROOT / "pages").glob("*.py"))]

SCENARIOS = {
    "defaults": {},
    "epsilon-min": {"epsilon": "1e-6"},
    "epsilon-max": {"epsilon": "1000"},
    "delta-min": {"delta": "1e-300"},
    "delta-max": {"delta": "0.999999"},
    "sensitivity-min": {"sensitivity": "1e-6"},
    "sensitivity-max": {"sensitivity": "1e6"},
    "order-min": {"order": "1"},
    "order-max": {"order": "10"},
    "dim-min": {"dim": "1"},
    "dim-max": {"dim": "1000000"},
    "l1-all-coordinates": {"l1": "all_coordinates", "dim": "1000"},
    "all-smallest": {"epsilon": "1e-6", "delta": "1e-300", "sensitivity": "1e-6", "order": "1", "dim": "1"},
    "all-largest": {
        "epsilon": "1000",
        "delta": "0.999999",
        "sensitivity": "1e6",
        "order": "10",
        "dim": "1000000",
        "l1": "all_coordinates",
    },
}


@pytest.mark.parametrize("scenario", list(SCENARIOS))
@pytest.mark.parametrize("page", PAGES)
def test_page_renders_without_exception(page, scenario):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for key, value in SCENARIOS[scenario].items():
        at.query_params[key] = value
    if page != "app.py":
        at.switch_page(page)  # a link straight to the page (pages/ folder: found by file name)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert not [w.value for w in at.warning if "The link sets" in w.value], "the extreme is a valid value"
    for key, value in SCENARIOS[scenario].items():
        if key == "l1":
            assert at.query_params[key] == value
        else:
            assert float(at.query_params[key]) == float(value), "the value is kept and mirrored"
