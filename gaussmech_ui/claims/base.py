"""A claim: a sentence the app writes, with the numbers it rests on and the rule that makes it true.

Every claim is a frozen dataclass with ``text`` (what a reader sees) and ``violations()`` (the
rule, executed: the reasons the numbers do not back the text, empty when they do). Making a claim
records it when a recording is open (:func:`recording`): the claims audit
(``tests/app/test_claims_audit.py``) renders every page over a grid of settings and checks every
claim recorded; nothing is recorded otherwise.

Pure: numbers and the registry in, text out; no ``st.*`` call (DESIGN.md section 3, "Sentences
from numbers are claims").
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass
from typing import Iterator, TypeVar

__all__ = ["Claim", "recording", "record"]

_LOCK = threading.Lock()
_RECORDS: list | None = None


@dataclass(frozen=True)
class Claim:
    """A sentence and the rule behind it; subclasses carry the numbers."""

    text: str

    kind = "claim"
    rule = "the sentence is the numbers' plain reading"

    def violations(self) -> list[str]:
        """Why the numbers do not back the text; empty when they do."""
        return []


ClaimT = TypeVar("ClaimT")


def record(claim: ClaimT) -> ClaimT:
    """Keep ``claim`` for the open recording (if any) and return it."""
    with _LOCK:
        if _RECORDS is not None:
            _RECORDS.append(claim)
    return claim


@contextlib.contextmanager
def recording() -> Iterator[list]:
    """Collect every claim made inside the block (from any thread: AppTest runs pages in its own)."""
    global _RECORDS
    with _LOCK:
        previous, _RECORDS = _RECORDS, []
        collected = _RECORDS
    try:
        yield collected
    finally:
        with _LOCK:
            _RECORDS = previous
