"""docs/math.md is the math reference the code cites: every citation lands on a section that exists.

Also tests ``gaussmech_ui.math_reference`` (the sections and their links) and the one-off tool
``tools/rewrite_math_citations.py`` that moves the code's citations of the old specification to
docs/math.md, on a temporary copy of the code.

The old specification's file name is spelled here in two parts (``OLD``), so that the rewrite
tool, run on the repository, leaves this file alone.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import sys
from pathlib import Path

import pytest

from gaussmech_ui import math_reference
from gaussmech_ui.math_reference import MATH_DOCUMENT, find_section, math_reference_url, parse_sections, sections

ROOT = Path(__file__).resolve().parents[1]
BARE = "MA" + "TH"
OLD = BARE + ".md"
CODE_PLACES = ["gaussmech_core", "gaussmech_ui", "pages", "app.py"]
# The section numbering of the original specification, which docs/math.md keeps (plus 12, its own),
# and the subsections the code cites by number (8.1-8.5, 12.x).
SPECIFICATION_NUMBERS = (
    ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"]
    + [f"2.{i}" for i in range(1, 7)]
    + [f"5.{i}" for i in range(1, 9)]
    + [f"6.{i}" for i in range(1, 5)]
    + [f"7.{i}" for i in range(1, 4)]
    + [f"8.{i}" for i in range(1, 6)]
    + [f"9.{i}" for i in range(1, 7)]
)


def _load_tool():
    spec = importlib.util.spec_from_file_location(
        "rewrite_math_citations", ROOT / "tools" / "rewrite_math_citations.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look the module up by name
    spec.loader.exec_module(module)
    return module


tool = _load_tool()


def _numbers() -> list[str]:
    return [section.number for section in sections()[2]]


# --- the document -------------------------------------------------------------------------------


def test_document_keeps_the_specification_numbering_and_adds_section_12():
    numbers = _numbers()
    for number in SPECIFICATION_NUMBERS + ["12"]:
        assert number in numbers, f"docs/math.md lacks section {number}"
    # in order, chapters before their subsections
    keys = [tuple(int(part) for part in number.split(".")) for number in numbers]
    assert keys == sorted(keys)
    for section in sections()[2]:
        if "." in section.number:
            assert section.level == 3 and section.number.split(".")[0] in numbers
        else:
            assert section.level == 2


def test_every_section_has_text_and_the_math_is_balanced():
    for section in sections()[2]:
        assert section.body.strip(), f"section {section.number} is empty"
        without_display = section.body.replace("$$", "")
        assert section.body.count("$$") % 2 == 0, f"unclosed $$ in section {section.number}"
        assert without_display.count("$") % 2 == 0, f"unclosed $ in section {section.number}"
        # display math must be fenced ($$ alone on its line): Streamlit's Markdown renders $$...$$
        # within a line as inline math, and breaks on a formula whose first line follows $$
        for line in section.body.splitlines():
            assert "$$" not in line or line.strip() == "$$", (
                f"section {section.number}: put $$ on its own line: {line!r}"
            )
        # a line that continues an inline formula must not start a Markdown block (quote, list, heading)
        display, inline = False, False
        for line in section.body.splitlines():
            stripped = line.strip()
            if stripped == "$$":
                display = not display
            elif not display:
                if inline:
                    assert not re.match(r"([>+*#|-]|\d+[.)] )", stripped), f"section {section.number}: {line!r}"
                inline = inline != (line.replace("$$", "").count("$") % 2 == 1) if stripped else False
        # a bare | inside inline math would split a Markdown table cell
        for line in section.body.splitlines():
            if line.startswith("|"):
                for formula in re.findall(r"\$[^$]+\$", line):
                    assert "|" not in formula, (
                        f"use \\lvert/\\rvert in the table of section {section.number}: {formula}"
                    )


def test_the_sections_other_helpers_implement_are_complete():
    """9.5/9.6 (discrete Gaussian), 5.6/5.8 (bounded GG, exponential mechanism), 12.3 (trade-off)."""
    discrete = find_section("9.5").body
    for needle in (
        "Theorem 7",
        "Var",
        "Algorithms 1-3",
        "0.1414",
        "0.2040",
        "0.03847",
        "never a bisection midpoint",
        "smallest** private σ",
    ):
        assert needle in discrete, needle
    vectors = find_section("9.6").body
    for needle in ("e_i - e_j", "half-integers", "brute-force pair sum", "zCDP", "0.262500197"):
        assert needle in vectors, needle
    bounded = find_section("5.6").body
    for needle in ("Truncated GG", "BIT GG", "1.97501", "1.168", "3.06", "Claim 4"):
        assert needle in bounded, needle
    assert "exponential mechanism" in find_section("5.8").body
    tradeoff = find_section("12.3").body
    assert r"\sup_{\varepsilon \ge 0}" in tradeoff and r"\Phi^{-1}(1 - \alpha) - \Delta/\sigma" in tradeoff
    assert "Dong, Roth & Su 2022" in tradeoff


def test_the_specification_corrections_are_recorded():
    assert r"c_M\,\psi^{(M-2)/2} = \delta/\pi" in find_section("6.1").body  # the note was off by π
    assert "from M = 4" in find_section("6.2").heading + find_section("6.2").body


# --- the citations in the code --------------------------------------------------------------------


def _citations(places: list[str], root: Path = ROOT):
    for path in tool.python_files(places, root):
        for citation in tool.cited_sections(path.read_text(encoding="utf-8")):
            yield path.relative_to(root), citation


def test_every_citation_in_the_code_names_a_section_of_docs_math():
    numbers = set(_numbers())
    found = list(_citations(CODE_PLACES))
    assert found, "the citation pattern found nothing: it is broken"
    missing = [f"{path}:{c.line}: {c.text}" for path, c in found if c.section not in numbers]
    assert missing == [], "cited sections that docs/math.md does not have:\n" + "\n".join(missing)


def test_the_citation_pattern_misses_no_numbered_citation():
    """Wherever the old or new name is followed by a section number, the pattern sees a citation."""
    name = re.compile(rf"(?<![\w/.])(?:docs/math\.md|{re.escape(OLD)}|MATH(?=[ \t]+\d))")
    for path in tool.python_files(CODE_PLACES):
        text = path.read_text(encoding="utf-8")
        starts = {match.start() for match in tool.CITATION.finditer(text)}
        for match in name.finditer(text):
            after = re.sub(r"^[\s#]*(?:sections?\s+|§\s*)?", "", text[match.end() : match.end() + 40])
            if after[:1].isdigit():
                line = text.count("\n", 0, match.start()) + 1
                assert match.start() in starts, f"{path}:{line}: a numbered citation the pattern does not parse"


@pytest.mark.parametrize(
    "text, sections_",
    [
        (f"{OLD} section 6.2", ["6.2"]),
        (f"({OLD} §6.2)", ["6.2"]),
        (f"{OLD} 6.2, item 3", ["6.2"]),
        (f"{OLD} sections 2.3 and 9.1", ["2.3", "9.1"]),
        (f"({OLD} 1, 2.5, 3 and 9.2.", ["1", "2.5", "3", "9.2"]),
        (f"({OLD} 7.1-7.3)", ["7.1", "7.3"]),
        (f"{OLD} 6.4/7.3: C_M", ["6.4", "7.3"]),
        (f"{OLD} 8.5's raw MSE", ["8.5"]),
        (f"ratio; {OLD}\n    5.6 [D]: each", ["5.6"]),
        (f"Tail bound ({BARE} 2.3-2.4): δ", ["2.3", "2.4"]),
        ("(docs/math.md section 6.2)", ["6.2"]),
        ("(docs/math.md sections 4, 5.1 and 10)", ["4", "5.1", "10"]),
        (f"tables of {OLD} -----", []),
        ("shared/spec/" + OLD + " 6.2", []),
        ("TAIL_MATH 2", []),
    ],
)
def test_citation_forms(text, sections_):
    assert [c.section for c in tool.cited_sections(text)] == sections_


# --- links to the page --------------------------------------------------------------------------


def test_math_reference_url_for_every_section_and_refuses_others():
    for number in _numbers():
        assert math_reference_url(number) == f"Math_reference#section-{number.replace('.', '-')}"
    assert math_reference_url(" 6.2 ") == "Math_reference#section-6-2"
    for bad in ("99", "6.9", "2.10", "", "section 6.2"):
        with pytest.raises(ValueError, match="section must be one of"):
            math_reference_url(bad)
    with pytest.raises(TypeError, match="section must be a string"):
        math_reference_url(6.2)


def test_the_url_path_is_the_one_streamlit_gives_the_page():
    page = ROOT / "pages" / "9_Math_reference.py"
    assert page.is_file()
    assert re.sub(r"^\d+_", "", page.stem) == math_reference.PAGE_URL_PATH


def test_repeated_section_numbers_are_refused():
    with pytest.raises(ValueError, match="more than one section numbered 2"):
        parse_sections("## 2. A\n## 2. B\n")


def test_sections_are_reread_when_the_file_changes(tmp_path):
    document = tmp_path / "math.md"
    document.write_text("# T\n## 1. One\nx\n", encoding="utf-8")
    assert [s.number for s in sections(document)[2]] == ["1"]
    document.write_text("# T\n## 1. One\nx\n### 1.1 Sub\ny\n", encoding="utf-8")
    import os

    os.utime(document, ns=(1, 10**18))  # a different modification time, whatever the clock's resolution
    assert [s.number for s in sections(document)[2]] == ["1", "1.1"]
    assert MATH_DOCUMENT.name == "math.md" and MATH_DOCUMENT.parent.name == "docs"


# --- the rewrite tool, on a copy ----------------------------------------------------------------


@pytest.fixture
def code_copy(tmp_path: Path) -> Path:
    """A copy of the code the tool rewrites by default (Python files only)."""
    for place in tool.DEFAULT_PLACES:
        source = ROOT / place
        if source.is_dir():
            shutil.copytree(source, tmp_path / place, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif source.is_file():
            shutil.copy2(source, tmp_path / place)
    return tmp_path


def test_rewrite_moves_every_citation_keeps_the_numbers_and_is_idempotent(code_copy, capsys):
    before = {
        path: path.read_text(encoding="utf-8") for path in tool.python_files(list(tool.DEFAULT_PLACES), code_copy)
    }
    cited_before = sorted((str(p), c.section) for p, c in _citations(list(tool.DEFAULT_PLACES), code_copy))
    pending = sum(tool.rewrite_text(text)[1] for text in before.values())

    assert tool.main(["--check"], root=code_copy) == (1 if pending else 0)
    assert tool.main([], root=code_copy) == 0
    assert f"rewrote {pending} citation(s)" in capsys.readouterr().out

    after = {path: path.read_text(encoding="utf-8") for path in before}
    for path, text in after.items():
        assert OLD not in text.replace("shared/spec/" + OLD, ""), f"{path} still names the old specification"
        assert not re.search(r"(?<![\w/.])MATH[ \t]+\d", text), path
        # nothing but the citations changed: undo the new spellings and compare
        assert _normalised(text) == _normalised(before[path]), path
    cited_after = sorted((str(p), c.section) for p, c in _citations(list(tool.DEFAULT_PLACES), code_copy))
    assert cited_after == cited_before, "the rewrite must keep every cited section number"

    assert tool.main(["--check"], root=code_copy) == 0
    assert tool.main([], root=code_copy) == 0
    assert "rewrote 0 citation(s)" in capsys.readouterr().out
    assert {path: path.read_text(encoding="utf-8") for path in before} == after


def _normalised(text: str) -> str:
    """Text with old and new citation spellings mapped to one form and whitespace collapsed."""
    text = text.replace("the project's docs/math.md", "docs/math.md of the project")
    text = re.sub(rf"(?<![\w/.])(?:{re.escape(OLD)}|MATH(?=[ \t]+\d))", "docs/math.md", text)
    text = re.sub(r"docs/math\.md\s+(?:#\s*)?(?:sections?\s+|§\s*)", "docs/math.md ", text)
    return " ".join(text.split())


def test_rewrite_sentences_read_well():
    cases = {
        f"(see {OLD} 6.2).": "(see docs/math.md section 6.2).",
        f"({OLD} 6.1, 6.3, 6.4)": "(docs/math.md sections 6.1, 6.3, 6.4)",
        f"{OLD} section 4: with": "docs/math.md section 4: with",
        f"({OLD} §6.2)": "(docs/math.md section 6.2)",
        f"{OLD} sections 4 and 10": "docs/math.md sections 4 and 10",
        f"Tail bound ({BARE} 2.3-2.4): δ": "Tail bound (docs/math.md sections 2.3-2.4): δ",
        f"ratio; {OLD}\n    5.6 [D]": "ratio; docs/math.md section\n    5.6 [D]",
        f"# --- Reference tables of {OLD} ---": "# --- Reference tables of docs/math.md ---",
        f"in\n{OLD} of the project):": "in\nthe project's docs/math.md):",
    }
    for old, new in cases.items():
        assert tool.rewrite_text(old)[0] == new
        assert tool.rewrite_text(new) == (new, 0)


def test_check_names_each_pending_citation(tmp_path, capsys):
    (tmp_path / "module.py").write_text(f'"""Exact (ε, δ) profile ({OLD} 2.1)."""\n', encoding="utf-8")
    assert tool.main(["--check", "module.py"], root=tmp_path) == 1
    out = capsys.readouterr().out
    assert f"module.py:1: {OLD} 2.1" in out and "1 citation(s) in 1 file(s)" in out
    assert (tmp_path / "module.py").read_text(encoding="utf-8").count(OLD) == 1  # --check changes nothing
    with pytest.raises(FileNotFoundError, match="nowhere"):
        tool.main(["nowhere"], root=tmp_path)


def test_this_file_and_the_tool_are_left_alone_by_the_rewrite():
    assert tool.rewrite_text(Path(__file__).read_text(encoding="utf-8"))[1] == 0
    # the tool's own docstring quotes the old forms; it is outside the places it rewrites
    assert ROOT / "tools" / "rewrite_math_citations.py" not in tool.python_files(list(tool.DEFAULT_PLACES))


def test_the_code_cites_the_projects_own_math_document(capsys):
    """Every citation in the code points to docs/math.md (the rewrite has nothing left to do)."""
    assert tool.main(["--check"], root=ROOT) == 0, capsys.readouterr().out
