#!/usr/bin/env python3
"""Point the code's citations of the old specification at the project's own ``docs/math.md``.

The docstrings, comments and captions cite the shared specification by section, in several
forms: "MATH.md section 6.2", "MATH.md sections 2.3 and 9.1", "MATH.md §6.2", "(MATH.md 6.1,
6.3, 6.4)", "MATH.md 7.1-7.3", "MATH 2.3-2.4", or the file alone ("the tables of MATH.md").
``docs/math.md`` keeps the specification's section numbers, so the rewrite is mechanical:

* a citation with section numbers becomes "docs/math.md section 6.2" (or "sections ..." for
  several numbers or a range), keeping the numbers and what follows them;
* the file named without a number becomes "docs/math.md" ("... of the project" becomes
  "the project's docs/math.md").

The rewrite is idempotent (a second run changes nothing). With ``--check`` it changes nothing
and exits with status 1 if some citation still needs rewriting, listing each one.

Usage (from the checkout's root)::

    python3 tools/rewrite_math_citations.py            # rewrite in the default places
    python3 tools/rewrite_math_citations.py --check    # only report
    python3 tools/rewrite_math_citations.py pages app.py

The default places are the Python files of ``gaussmech_core/``, ``gaussmech_ui/``, ``pages/``,
``tests/`` and ``benchmarks/``, and ``app.py`` and ``dev.py``. Standard library only.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PLACES = ("gaussmech_core", "gaussmech_ui", "pages", "tests", "benchmarks", "app.py", "dev.py")
NEW_NAME = "docs/math.md"

_OLD = "MATH"  # spelled in two parts so that this file never matches its own patterns
_NUMBER = r"\d+(?:\.\d+)?"
_SEPARATOR = r"\s*(?:,\s*and|,|and|-|–|/)\s*"
_NUMBERS = rf"{_NUMBER}(?:{_SEPARATOR}{_NUMBER})*"
# The old name: "MATH.md" (not inside a path such as shared/spec/...), or "MATH" right before a number.
_OLD_TOKEN = rf"(?<![\w/.]){_OLD}(?:\.md\b|(?=[ \t]+\d))"
_GAP = r"(?:[ \t]*\n[ \t]*(?:#[ \t]*)?|[ \t]+)"
_KEYWORD = r"(?:sections?[ \t]*\n?[ \t]*(?:#[ \t]*)?[ \t]|§[ \t]*)"

OLD_CITATION = re.compile(
    rf"(?P<token>{_OLD_TOKEN})(?:(?P<gap>{_GAP})(?P<keyword>{_KEYWORD})?(?P<numbers>{_NUMBERS})(?![\d.]*\d))?"
)
"""An old-style citation: the old name, optionally followed by a keyword and section numbers."""

CITATION = re.compile(
    rf"(?:(?<![\w/.])docs/math\.md|{_OLD_TOKEN})(?P<gap>{_GAP})(?P<keyword>{_KEYWORD})?(?P<numbers>{_NUMBERS})(?![\d.]*\d)"
)
"""A citation of a section, old or new: "docs/math.md section 6.2", "MATH.md 6.1, 6.3", ..."""


@dataclass(frozen=True)
class Citation:
    """One cited section number, where it was found (1-based line), and the citation's text."""

    line: int
    section: str
    text: str


def cited_sections(text: str) -> list[Citation]:
    """Every section number cited in ``text``; a range "7.1-7.3" gives both of its ends.

    Examples
    --------
    >>> old = "MATH" + ".md"
    >>> [c.section for c in cited_sections(f"see {old} sections 2.3 and 9.1, item 2; {old} §6.2")]
    ['2.3', '9.1', '6.2']
    >>> [c.section for c in cited_sections("(docs/math.md section 7.1-7.3)")]
    ['7.1', '7.3']
    """
    found = []
    for match in CITATION.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        for number in re.findall(_NUMBER, match["numbers"]):
            found.append(Citation(line, number, " ".join(match.group(0).split())))
    return found


def _plural(numbers: str) -> bool:
    return len(re.findall(_NUMBER, numbers)) > 1


def _rewritten(match: re.Match) -> str:
    if match["numbers"] is None:
        return NEW_NAME
    gap, keyword, numbers = match["gap"], match["keyword"] or "", match["numbers"]
    word = "sections" if _plural(numbers) else "section"
    if keyword.startswith("§") or not keyword:
        if "\n" in gap:  # keep the line break where it was: "docs/math.md section" ends the line
            return f"{NEW_NAME} {word}{gap}{numbers}"
        return f"{NEW_NAME}{gap}{word} {numbers}"
    return f"{NEW_NAME}{gap}{keyword}{numbers}"


def rewrite_text(text: str) -> tuple[str, int]:
    """``text`` with every old citation rewritten, and how many there were.

    Examples
    --------
    >>> old = "MATH" + ".md"
    >>> rewrite_text(f"({old} 6.1, 6.3, 6.4); {old} section 4; {old} §6.2; tables of {old}.")
    ('(docs/math.md sections 6.1, 6.3, 6.4); docs/math.md section 4; docs/math.md section 6.2; tables of docs/math.md.', 4)
    >>> rewrite_text(f"written out in {old} of the project")
    ("written out in the project's docs/math.md", 1)
    >>> rewrite_text(rewrite_text(f"{old} 8.5's raw MSE")[0])
    ("docs/math.md section 8.5's raw MSE", 0)
    """
    text, phrases = re.subn(rf"(?<![\w/.]){_OLD}\.md of the project", f"the project's {NEW_NAME}", text)
    text, citations = OLD_CITATION.subn(_rewritten, text)
    return text, phrases + citations


def python_files(places: list[str], root: Path = ROOT) -> list[Path]:
    """The ``.py`` files under each place (a folder or a file), relative to ``root``, sorted."""
    files: set[Path] = set()
    for place in places:
        path = (root / place).resolve()
        if path.is_dir():
            files.update(p for p in path.rglob("*.py") if ".venv" not in p.parts)
        elif path.is_file():
            files.add(path)
        else:
            raise FileNotFoundError(f"{place} is neither a file nor a folder under {root}")
    return sorted(files)


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("places", nargs="*", default=list(DEFAULT_PLACES), help="files or folders (default: the code)")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a citation needs rewriting")
    arguments = parser.parse_args(argv)
    pending = 0
    changed_files = 0
    for path in python_files(arguments.places, root):
        text = path.read_text(encoding="utf-8")
        new_text, count = rewrite_text(text)
        if not count:
            continue
        pending += count
        changed_files += 1
        shown = path.relative_to(root) if path.is_relative_to(root) else path
        if arguments.check:
            for match in OLD_CITATION.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                print(f"{shown}:{line}: {' '.join(match.group(0).split())}")
        else:
            path.write_text(new_text, encoding="utf-8")
    if arguments.check:
        print(
            f"{pending} citation(s) in {changed_files} file(s) still cite the old specification"
            if pending
            else f"every citation points to {NEW_NAME}"
        )
        return 1 if pending else 0
    print(f"rewrote {pending} citation(s) in {changed_files} file(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
