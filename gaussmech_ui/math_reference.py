"""The project's math reference, ``docs/math.md``, split into numbered sections with stable anchors.

``docs/math.md`` holds every formula the core computes, by section ("## 6. R1SMG ...",
"### 6.2 The R1SMG privacy claim ..."); the docstrings cite it by number. This module reads its
headings so that

* the Math reference page (``pages/9_Math_reference.py``) can draw one header per section with
  the anchor ``section-6-2``, and
* any caption can link to a section with :func:`math_reference_url`, which refuses a section
  that does not exist, so a link cannot silently point nowhere.

No Streamlit here: the tests and the citation checker use it too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = [
    "MATH_DOCUMENT",
    "PAGE_URL_PATH",
    "Section",
    "parse_sections",
    "sections",
    "section_anchor",
    "find_section",
    "math_reference_url",
]

MATH_DOCUMENT = Path(__file__).resolve().parents[1] / "docs" / "math.md"
"""The math reference, in the checkout next to ``app.py``."""

PAGE_URL_PATH = "Math_reference"
"""The URL path Streamlit gives ``pages/9_Math_reference.py`` (the file name without its number)."""

_HEADING = re.compile(r"^(?P<hashes>#{2,3}) (?P<number>\d+(?:\.\d+)?)\.? (?P<title>.+?)\s*$")
_TITLE = re.compile(r"^# (?P<title>.+?)\s*$")


@dataclass(frozen=True)
class Section:
    """One numbered section: ``number`` ("6.2"), its ``title``, heading ``level`` (2 or 3) and ``body``."""

    number: str
    title: str
    level: int
    body: str

    @property
    def anchor(self) -> str:
        """The HTML id of the section's header on the page, e.g. ``section-6-2``."""
        return section_anchor(self.number)

    @property
    def heading(self) -> str:
        """The header as the page shows it, e.g. ``6.2 The R1SMG privacy claim is false from M = 4``."""
        return f"{self.number} {self.title}"


def section_anchor(number: str) -> str:
    """The anchor of section ``number``: ``"6.2"`` becomes ``"section-6-2"``.

    Examples
    --------
    >>> section_anchor("6.2"), section_anchor("10")
    ('section-6-2', 'section-10')
    """
    return "section-" + str(number).replace(".", "-")


def parse_sections(text: str) -> tuple[str, str, list[Section]]:
    """Split the document into (title, introduction, numbered sections in order).

    A section starts at a level-2 or level-3 heading whose text begins with its number
    (``## 5. Generalized ...`` or ``### 5.6 Truncated ...``) and runs to the next such heading.
    Raises ``ValueError`` when a number appears twice.

    Examples
    --------
    >>> title, intro, found = parse_sections("# T\\nhello\\n## 1. One\\na\\n### 1.1 Sub\\nb\\n")
    >>> title, intro, [(s.number, s.title, s.level, s.body) for s in found]
    ('T', 'hello', [('1', 'One', 2, 'a'), ('1.1', 'Sub', 3, 'b')])
    """
    title = ""
    intro: list[str] = []
    found: list[tuple[str, str, int, list[str]]] = []
    for line in text.splitlines():
        heading = _HEADING.match(line)
        if heading:
            found.append((heading["number"], heading["title"], len(heading["hashes"]), []))
            continue
        if not found and not title and _TITLE.match(line):
            title = _TITLE.match(line)["title"]
            continue
        (found[-1][3] if found else intro).append(line)
    numbers = [number for number, *_ in found]
    repeated = sorted({number for number in numbers if numbers.count(number) > 1})
    if repeated:
        raise ValueError(f"docs/math.md has more than one section numbered {', '.join(repeated)}")
    result = [Section(number, heading, level, "\n".join(body).strip("\n")) for number, heading, level, body in found]
    return title, "\n".join(intro).strip("\n"), result


@lru_cache(maxsize=4)
def _parsed(path: str, modified_ns: int) -> tuple[str, str, tuple[Section, ...]]:
    title, intro, found = parse_sections(Path(path).read_text(encoding="utf-8"))
    return title, intro, tuple(found)


def sections(path: Path | None = None) -> tuple[str, str, tuple[Section, ...]]:
    """(title, introduction, sections) of the math reference (``MATH_DOCUMENT`` unless ``path``), re-read when it changes."""
    path = Path(MATH_DOCUMENT if path is None else path)
    return _parsed(str(path), path.stat().st_mtime_ns)


def find_section(section: str, path: Path | None = None) -> Section:
    """The :class:`Section` numbered ``section`` ("6.2", or "6" for a whole chapter).

    Raises ``TypeError`` for a non-string and ``ValueError`` naming the sections that exist
    when there is no such section.
    """
    if not isinstance(section, str):
        raise TypeError(f"section must be a string such as '6.2', got {section!r} of type {type(section).__name__}")
    number = section.strip()
    for candidate in sections(path)[2]:
        if candidate.number == number:
            return candidate
    known = ", ".join(candidate.number for candidate in sections(path)[2])
    raise ValueError(f"section must be one of the numbered sections of docs/math.md ({known}), got {section!r}")


def math_reference_url(section: str) -> str:
    """A link to ``section`` of the Math reference page, e.g. ``"Math_reference#section-6-2"``.

    The URL is relative to the app's root, so it works from every page (they all live one level
    below it) and behind a ``server.baseUrlPath``. Raises ``ValueError`` when docs/math.md has no
    such section, so captions cannot link to a section that does not exist.

    Examples
    --------
    >>> math_reference_url("6.2")
    'Math_reference#section-6-2'
    >>> math_reference_url("99.9")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: section must be one of the numbered sections of docs/math.md (0, 1, 2, 2.1, ...
    """
    return f"{PAGE_URL_PATH}#{find_section(section).anchor}"
