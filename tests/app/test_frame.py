"""The frame every page lives in: menu, shared controls, persistence across pages, URL mirroring.

Run on a probe app (``probe_app``: a page at every menu path, each only drawing the frame) so the
frame is tested on every menu entry, and on the real app's pages that exist.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from gaussmech_ui.menu import MENU, available_entries
from gaussmech_ui.params import DEFAULTS, PARAMETERS, exact_key, widget_key

ROOT = Path(__file__).resolve().parents[2]
REAL_PAGES = [entry.path for entry in available_entries(ROOT) if entry.path != "app.py"]
CHANGED = {"epsilon": 2.0, "delta": 1e-8, "sensitivity": 3.0, "order": 3.5, "dim": 50, "l1_model": "all_coordinates"}


def _run(path: Path, **query) -> AppTest:
    at = AppTest.from_file(str(path), default_timeout=30)
    for key, value in query.items():
        at.query_params[key] = value
    return at.run()


def _change_every_control(at: AppTest) -> AppTest:
    at.select_slider(key=widget_key("epsilon")).set_value(CHANGED["epsilon"]).run()
    at.select_slider(key=widget_key("delta")).set_value(CHANGED["delta"]).run()
    at.text_input(key=exact_key("sensitivity")).input("3").run()
    at.slider(key=widget_key("order")).set_value(CHANGED["order"]).run()
    at.select_slider(key=widget_key("dim")).set_value(CHANGED["dim"]).run()
    at.radio(key=widget_key("l1_model")).set_value(CHANGED["l1_model"]).run()
    return at


def _assert_widgets_show(at: AppTest, values: dict) -> None:
    assert not at.exception
    assert at.select_slider(key=widget_key("epsilon")).value == values["epsilon"]
    assert float(at.text_input(key=exact_key("epsilon")).value) == values["epsilon"]
    assert at.select_slider(key=widget_key("delta")).value == values["delta"]
    assert float(at.text_input(key=exact_key("delta")).value) == values["delta"]
    assert float(at.text_input(key=exact_key("sensitivity")).value) == values["sensitivity"]
    assert at.slider(key=widget_key("order")).value == values["order"]
    assert at.select_slider(key=widget_key("dim")).value == values["dim"]
    assert int(at.text_input(key=exact_key("dim")).value) == values["dim"]
    assert at.radio(key=widget_key("l1_model")).value == values["l1_model"]
    for name, value in values.items():
        assert at.session_state[name] == value


def test_sidebar_has_every_control_with_help(probe_app):
    at = _run(probe_app)
    _assert_widgets_show(at, DEFAULTS)
    for name, parameter in PARAMETERS.items():
        key = exact_key(name) if parameter.control == "entry" else widget_key(name)
        widget = at.sidebar.get(
            {"log_slider": "select_slider", "slider": "slider", "entry": "text_input", "choice": "radio"}[
                parameter.control
            ]
        )
        (match,) = [w for w in widget if w.key == key]
        assert match.help and len(match.help) > 40, name


def test_menu_links_every_page_that_exists_and_no_other(probe_app, tmp_path):
    at = _run(probe_app)
    labels = [link.proto.label for link in at.sidebar.get("page_link")]
    assert labels == [entry.label for entry in MENU]
    (tmp_path / MENU[-1].path).unlink()
    at = _run(probe_app)
    assert [link.proto.label for link in at.sidebar.get("page_link")] == [entry.label for entry in MENU[:-1]]


def test_the_menu_finds_a_page_written_after_it_was_first_asked(tmp_path):
    """The menu keeps its answer between reruns, and asks again when a page is added or removed."""
    (tmp_path / "app.py").write_text("")
    (tmp_path / "pages").mkdir()
    assert [entry.path for entry in available_entries(tmp_path)] == ["app.py"]
    page = next(entry for entry in MENU if entry.path.startswith("pages/"))
    (tmp_path / page.path).write_text("")
    assert [entry.path for entry in available_entries(tmp_path)] == [
        entry.path for entry in MENU if entry.path in ("app.py", page.path)
    ]
    (tmp_path / page.path).unlink()
    assert [entry.path for entry in available_entries(tmp_path)] == ["app.py"]


def test_a_one_page_app_draws_no_menu_and_no_error(probe_app, tmp_path):
    for entry in [entry for entry in MENU if entry.path != "app.py"]:
        (tmp_path / entry.path).unlink()
    (tmp_path / "pages").rmdir()
    at = _run(probe_app)
    assert not at.exception
    assert not at.sidebar.get("page_link")
    _assert_widgets_show(at, DEFAULTS)


def test_menu_links_carry_the_current_values(probe_app):
    at = _run(probe_app, epsilon="0.3")
    link = at.sidebar.get("page_link")[1]
    assert "epsilon=0.3" in str(link.proto)


@pytest.mark.parametrize("page", [entry.path for entry in MENU if entry.path != "app.py"])
def test_values_survive_switching_to_every_menu_page_and_back(probe_app, page):
    at = _change_every_control(_run(probe_app))
    _assert_widgets_show(at, CHANGED)
    at.switch_page(page).run()
    assert any(f"probe {page!r}:" in text.value for text in at.text), "the page itself ran"
    _assert_widgets_show(at, CHANGED)
    at.switch_page("app.py").run()
    _assert_widgets_show(at, CHANGED)


@pytest.mark.parametrize(
    "page", REAL_PAGES or [pytest.param(None, marks=pytest.mark.skip(reason="no page in pages/ yet"))]
)
def test_values_survive_switching_to_every_real_page(page):
    # Set on the Overview by a link (one run, the widget path is tested on the probe app above),
    # changed on the page by a widget, then back to the Overview.
    at = _run(ROOT / "app.py", **{PARAMETERS[name].url_key: str(value) for name, value in CHANGED.items()})
    _assert_widgets_show(at, CHANGED)
    at.switch_page(page).run()
    _assert_widgets_show(at, CHANGED)
    at.select_slider(key=widget_key("epsilon")).set_value(0.5).run()
    assert not at.exception
    at.switch_page("app.py").run()
    _assert_widgets_show(at, {**CHANGED, "epsilon": 0.5})


def test_every_page_file_has_a_menu_entry():
    listed = {entry.path for entry in MENU}
    unlisted = [
        str(p.relative_to(ROOT))
        for p in sorted((ROOT / "pages").glob("*.py"))
        if str(p.relative_to(ROOT)) not in listed
    ]
    assert unlisted == [], "add a MenuEntry(label, icon, path) to gaussmech_ui/menu.py for each page"


def test_url_parameters_are_applied(probe_app):
    at = _run(probe_app, epsilon="0.37", delta="1e-12", sensitivity="2.5", order="4", dim="123", l1="all_coordinates")
    assert not at.warning
    assert at.session_state["epsilon"] == 0.37 and at.session_state["delta"] == 1e-12
    assert at.session_state["sensitivity"] == 2.5 and at.session_state["order"] == 4.0
    assert at.session_state["dim"] == 123 and at.session_state["l1_model"] == "all_coordinates"
    # The exact box and the slider both show the exact value.
    assert at.text_input(key=exact_key("epsilon")).value == "0.37"
    assert at.select_slider(key=widget_key("epsilon")).value == 0.37
    assert at.text_input(key=exact_key("dim")).value == "123"
    assert "Setting(epsilon=0.37, delta=1e-12, sensitivity=2.5, order=4.0, dim=123" in at.text[0].value


def test_values_are_mirrored_in_the_url_with_the_agreed_keys(probe_app):
    at = _run(probe_app)
    assert at.query_params == {
        "epsilon": "1",
        "delta": "1e-5",
        "sensitivity": "1",
        "order": "2",
        "dim": "10",
        "l1": "one_coordinate",
        "lower": "0",
        "upper": "1",
    }
    at = _change_every_control(at)
    assert at.query_params == {
        "epsilon": "2",
        "delta": "1e-8",
        "sensitivity": "3",
        "order": "3.5",
        "dim": "50",
        "l1": "all_coordinates",
        "lower": "0",
        "upper": "1",
    }


def test_a_url_changed_during_the_session_is_applied_and_our_own_writes_are_not_undone(probe_app):
    at = _run(probe_app)
    at.select_slider(key=widget_key("epsilon")).set_value(5.0).run()
    assert at.session_state["epsilon"] == 5.0, "the stale URL did not undo the slider"
    at.query_params["epsilon"] = "0.02"
    at.run()
    assert at.session_state["epsilon"] == 0.02
    assert at.select_slider(key=widget_key("epsilon")).value == 0.02


@pytest.mark.parametrize(
    ("key", "raw", "name"),
    [
        ("epsilon", "-1", "epsilon"),
        ("delta", "2", "delta"),
        ("dim", "abc", "dim"),
        ("order", "nan", "order"),
        ("epsilon", "1e999", "epsilon"),
        ("sensitivity", "0", "sensitivity"),
        ("l1", "sideways", "l1_model"),
        ("dim", "[click me](http://example.com)", "dim"),
    ],
)
def test_malformed_url_parameters_give_a_warning_and_the_default(probe_app, key, raw, name):
    at = _run(probe_app, **{key: raw})
    assert not at.exception
    assert len(at.warning) == 1
    message = at.warning[0].value
    assert f"`{key}={raw}`" in message and "instead" in message, "the bad text is shown as code, never as a link"
    assert at.session_state[name] == DEFAULTS[name]
    assert at.query_params[key] != raw, "the URL is corrected"
    at.run()
    assert not at.warning, "the warning is shown once"


def test_a_bad_exact_entry_keeps_the_value_and_says_why(probe_app):
    at = _run(probe_app)
    at.text_input(key=exact_key("epsilon")).input("0.25").run()
    assert at.session_state["epsilon"] == 0.25 and at.select_slider(key=widget_key("epsilon")).value == 0.25
    at.text_input(key=exact_key("epsilon")).input("lots").run()
    assert at.session_state["epsilon"] == 0.25
    assert at.text_input(key=exact_key("epsilon")).value == "0.25", "the box shows the value in use again"
    assert len(at.warning) == 1 and "`lots` for ε: that is not a number" in at.warning[0].value
    at.text_input(key=exact_key("delta")).input("1.5").run()
    assert at.session_state["delta"] == DEFAULTS["delta"] and "δ must be in [1e-300, 1)" in at.warning[0].value


def test_slider_and_exact_entry_stay_consistent_both_ways(probe_app):
    at = _run(probe_app)
    at.select_slider(key=widget_key("delta")).set_value(1e-12).run()
    assert at.text_input(key=exact_key("delta")).value == "1e-12"
    at.text_input(key=exact_key("delta")).input("3e-7").run()
    assert at.select_slider(key=widget_key("delta")).value == 3e-7 and at.session_state["delta"] == 3e-7
    at.text_input(key=exact_key("dim")).input("4321").run()
    assert at.select_slider(key=widget_key("dim")).value == 4321 and at.session_state["dim"] == 4321
