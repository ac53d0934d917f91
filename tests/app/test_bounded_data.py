"""Liu's bounded-data mechanisms on the pages: the data bounds are a control in the URL, and the pages explain them."""

from __future__ import annotations

import json

import pytest

from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting
from gaussmech_ui.params import exact_key
from tests.app.page_helpers import open_page

TRUNCATED = MECHANISMS["truncated_gg"].name


def _overview_scale(at, name: str) -> str:
    frame = at.dataframe[0].value
    return str(frame.set_index(frame.columns[0]).loc[name].to_dict())


def test_the_bounds_from_a_link_reach_the_calibration():
    narrow = open_page("app.py")
    wide = open_page("app.py", lower="-2", upper="8")
    assert wide.query_params["lower"] == "-2" and wide.query_params["upper"] == "8"
    assert _overview_scale(narrow, TRUNCATED) != _overview_scale(wide, TRUNCATED)
    expected = MECHANISMS["truncated_gg"].scale(Setting(1.0, 1e-5, dim=10, data_lower=-2.0, data_upper=8.0))
    assert f"{expected:.3g}"[:3] in _overview_scale(wide, TRUNCATED)


def test_reversed_bounds_warn_and_fall_back_to_the_defaults():
    from streamlit.testing.v1 import AppTest

    from tests.app.page_helpers import APP_ROOT

    at = AppTest.from_file(str(APP_ROOT / "app.py"), default_timeout=60)
    at.query_params["lower"] = "5"
    at.query_params["upper"] = "1"
    at.run()
    assert not at.exception
    assert any("need a < b" in w.value for w in at.warning)
    assert at.session_state["data_lower"] == 0.0 and at.session_state["data_upper"] == 1.0


def test_an_entry_box_moves_the_bounds():
    at = open_page("pages/1_Noise_distributions.py")
    at.text_input(key=exact_key("data_upper")).set_value("4").run()
    assert at.session_state["data_upper"] == 4.0 and at.query_params["upper"] == "4"


@pytest.mark.parametrize("page", ["app.py", "pages/1_Noise_distributions.py"])
def test_where_they_appear_the_pages_say_why_bounds_buy_pure_dp(page):
    at = open_page(page)
    text = " ".join(e.value for e in at.markdown) + " ".join(str(x.proto) for x in at.expander)
    assert "Claim 4" in text and "exponential mechanism" in text


def test_the_densities_draw_the_truncation():
    at = open_page("pages/1_Noise_distributions.py")
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    names = [trace["name"] for trace in spec["data"]]
    assert TRUNCATED in names
