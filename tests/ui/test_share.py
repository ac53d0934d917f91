"""The view's link and settings file: written, read back, and refused when malformed."""

from __future__ import annotations

import json

import pytest

from gaussmech_ui import share
from gaussmech_ui.params import DEFAULTS, to_query

QUERY = {
    "epsilon": "0.5",
    "delta": "1e-8",
    "sensitivity": "1",
    "order": "2",
    "dim": "50",
    "l1": "all_coordinates",
    "lower": "0",
    "upper": "1",
    "accuracy_target": "3",
}


def test_link_and_what_it_holds():
    url = share.view_url("http://host:8501/Privacy_profiles?old=1#x", {"epsilon": "0.5", "dim": "50"})
    assert url == "http://host:8501/Privacy_profiles?epsilon=0.5&dim=50"
    lines = share.describe_query(QUERY)
    assert lines[0] == "ε = 0.5" and "d = 50" in lines
    assert lines[-1] == "accuracy_target = 3 (this page)"


def test_settings_file_round_trip():
    data = share.settings_bytes("pages/4_Accuracy_vs_dimension.py", QUERY, page_label="Accuracy vs dimension")
    document = json.loads(data)
    assert document["format"] == "gaussmech-settings" and document["version"] == 1
    assert document["parameters"]["epsilon"] == "0.5" and document["page_values"] == {"accuracy_target": "3"}
    loaded = share.read_settings_file(data)
    assert loaded.page_path == "pages/4_Accuracy_vs_dimension.py"
    assert loaded.warnings == []
    assert loaded.query == QUERY


def test_bad_values_become_defaults_with_a_warning():
    document = json.loads(share.settings_bytes("app.py", {"epsilon": "-3", "dim": "ten", "bogus": "1"}))
    document["parameters"]["unknown_param"] = "2"
    loaded = share.read_settings_file(json.dumps(document).encode())
    defaults = to_query(DEFAULTS)
    assert loaded.query["epsilon"] == defaults["epsilon"] and loaded.query["dim"] == defaults["dim"]
    assert loaded.query["bogus"] == "1"  # a page's own value: the page checks it like any link
    text = " ".join(loaded.warnings)
    assert "The settings file sets `epsilon=-3`" in text and "`dim=ten`" in text and "unknown_param" in text


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\xff\xfe not utf8", "not JSON text"),
        (b"{not json", "not JSON text"),
        (b"[1, 2]", "not a gaussmech settings file"),
        (json.dumps({"format": "gaussmech-settings", "version": 2, "page": "app.py"}).encode(), "its version is `2`"),
        (
            json.dumps({"format": "gaussmech-settings", "version": 1, "page": "../../etc/passwd"}).encode(),
            "is not a page of this app",
        ),
        (
            json.dumps({"format": "gaussmech-settings", "version": 1, "page": "app.py", "parameters": [1]}).encode(),
            "must be an object",
        ),
        (
            json.dumps(
                {"format": "gaussmech-settings", "version": 1, "page": "app.py", "parameters": {"Bad Key": "1"}}
            ).encode(),
            "is not a setting name",
        ),
        (
            json.dumps(
                {"format": "gaussmech-settings", "version": 1, "page": "app.py", "page_values": {"x": {"a": 1}}}
            ).encode(),
            "must be text or a number",
        ),
        (
            json.dumps(
                {"format": "gaussmech-settings", "version": 1, "page": "app.py", "page_values": {"x": "9" * 201}}
            ).encode(),
            "longer than 200",
        ),
        (b" " * (share.MAX_FILE_BYTES + 1), "a settings file is at most"),
    ],
)
def test_malformed_files_are_refused_with_a_reason(data, reason):
    with pytest.raises(share.SettingsFileError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        share.read_settings_file(data)
