"""The Math reference page draws docs/math.md with one anchored header per numbered section."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from gaussmech_ui.math_reference import sections
from tests.app.page_helpers import open_page

PAGE = "pages/9_Math_reference.py"
ROOT = Path(__file__).resolve().parents[2]


def _headers(at: AppTest) -> list[tuple[str, str]]:
    """(text, anchor) of every header and subheader on the page, in order."""
    return [(h.value, h.proto.anchor) for h in at.main if h.type in ("header", "subheader")]


def test_every_section_has_its_header_and_anchor():
    at = open_page(PAGE)
    numbered = sections()[2]
    assert _headers(at) == [(section.heading, section.anchor) for section in numbered]
    anchors = [anchor for _, anchor in _headers(at)]
    for anchor in ("section-0", "section-2-3", "section-6-2", "section-9-5", "section-9-6", "section-12-3"):
        assert anchor in anchors
    assert at.title[0].value == sections()[0]


def test_formulas_reach_the_page_as_markdown_math():
    at = open_page(PAGE)
    text = "\n".join(block.value for block in at.markdown)
    assert r"\operatorname{erfcx}(-b/\sqrt2)" in text  # section 2.3's identity, as LaTeX for KaTeX
    assert "$$" in text and "| M | ψ | σ* |" in text
    assert "Contents" in [expander.label for expander in at.expander]


def test_search_keeps_only_matching_sections():
    at = open_page(PAGE)
    at.text_input(key="math_filter").input("discrete gaussian").run()
    headings = [text for text, _ in _headers(at)]
    assert "9.5 The discrete Gaussian (Canonne, Kamath & Steinke 2020)" in headings
    assert "2.3 Stable evaluation and calibration" not in headings
    assert all(
        "discrete" in (text + section.body).lower()
        for text in headings
        for section in sections()[2]
        if section.heading == text
    )


def test_a_link_with_a_search_opens_filtered():
    at = open_page(PAGE, math_filter="erfcx")
    headings = [text for text, _ in _headers(at)]
    assert "2.3 Stable evaluation and calibration" in headings
    assert "8.3 Empirical Bayes" not in headings
    assert at.text_input(key="math_filter").value == "erfcx"


def test_a_search_with_no_match_says_so():
    at = open_page(PAGE, math_filter="no-such-word-anywhere")
    assert not _headers(at)
    assert any("No section mentions" in warning.value for warning in at.warning)


def test_the_page_is_in_the_menu_last():
    at = open_page(PAGE)
    labels = [link.proto.label for link in at.sidebar.get("page_link")]
    assert labels[-1] == "Math reference"


def test_a_missing_document_is_a_plain_message(tmp_path, monkeypatch):
    from gaussmech_ui import math_reference

    monkeypatch.setattr(math_reference, "MATH_DOCUMENT", tmp_path / "absent.md")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page(PAGE)
    at.run()
    assert not at.exception
    assert any("docs/math.md" in error.value for error in at.error)
