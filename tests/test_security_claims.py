"""Every claim of SECURITY.md names the test that backs it, and every test it names exists (issue 23, item 8)."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
REFERENCE = re.compile(r"tests/[\w/]+\.py(?:::(\w+))?")


def _claims_part() -> str:
    text = (ROOT / "SECURITY.md").read_text(encoding="utf-8")
    return text.split("## The honest limit", 1)[0]


def _claims() -> list[str]:
    """Each table row and each bullet (with its continuation lines) of the claims part."""
    claims, bullet = [], None
    for line in _claims_part().splitlines():
        if (
            line.startswith("|")
            and not re.fullmatch(r"\|[-| ]+\|", line)
            and not line.startswith(("| Input", "| What"))
        ):
            claims.append(line)
        if line.startswith("* "):
            if bullet:
                claims.append(bullet)
            bullet = line
        elif bullet is not None and line.startswith("  "):
            bullet += " " + line.strip()
        elif bullet is not None:
            claims.append(bullet)
            bullet = None
    if bullet:
        claims.append(bullet)
    return claims


def test_every_claim_names_a_test():
    claims = _claims()
    assert len(claims) >= 25
    unbacked = [claim[:90] for claim in claims if not REFERENCE.search(claim)]
    assert not unbacked, unbacked


def test_every_named_test_exists():
    missing = []
    for match in REFERENCE.finditer(_claims_part()):
        path = ROOT / match.group(0).split("::")[0]
        if not path.exists():
            missing.append(match.group(0))
        elif match.group(1) and not re.search(
            rf"^\s*(async )?def {match.group(1)}\(", path.read_text(encoding="utf-8"), re.M
        ):
            missing.append(match.group(0))
    assert not missing, missing


def test_the_three_claims_that_were_false_are_gone():
    text = " ".join(_claims_part().split())
    assert "requirements.txt` pins every runtime package" not in text
    assert "a cached result is returned only to a session that asks with the same inputs" in text
    assert "requirements.lock" in text and "Every refusal is an `UploadError`" in text
