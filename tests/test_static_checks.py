"""The type checker and the linter run inside the test suite, so CI holds them (issue 13).

Each tool runs as a subprocess of this interpreter (the one with the pinned requirements-dev.txt),
from the checkout's root, where pyproject.toml configures it; a failure shows the tool's report.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *arguments], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )


def _assert_clean(result: subprocess.CompletedProcess[str], command: str, fix: str) -> None:
    if result.returncode != 0:
        pytest.fail(f"`{command}` failed ({fix}):\n{result.stdout}{result.stderr}", pytrace=False)


def test_mypy_passes_on_the_core_library():
    result = _run("mypy", "gaussmech_core")
    _assert_clean(result, "python -m mypy gaussmech_core", "annotate, or fix the type error it names")


def test_ruff_lint_passes():
    result = _run("ruff", "check", "--output-format", "concise", ".")
    _assert_clean(result, "python -m ruff check .", "imports and unused names: `ruff check --fix .`")


def test_ruff_format_changes_nothing():
    result = _run("ruff", "format", "--check", "--output-format", "concise", ".")
    _assert_clean(result, "python -m ruff format --check .", "run `ruff format .`")
