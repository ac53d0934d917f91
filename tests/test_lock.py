"""The whole dependency tree is pinned with hashes, and the README's commands install it (issue 23, item 6)."""

from __future__ import annotations

import pathlib
import re
from importlib import metadata

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = pathlib.Path(__file__).resolve().parents[1]
LOCKS = {"requirements.txt": "requirements.lock", "requirements-dev.txt": "requirements-dev.lock"}


def _lock_entries(name: str) -> dict[str, tuple[str, list[str]]]:
    """canonical name -> (version, hashes) of a pip-compile --generate-hashes file."""
    text = (ROOT / name).read_text(encoding="utf-8").replace("\\\n", " ")
    entries = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        assert not line.startswith(("-", "--")), f"{name}: an option line ({line!r}); use --no-emit-index-url"
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)==(\S+)((?:\s+--hash=sha256:[0-9a-f]{64})+)", line)
        assert match, f"{name}: not a pinned line with hashes: {line[:80]!r}"
        entries[canonicalize_name(match[1])] = (match[2], re.findall(r"sha256:([0-9a-f]{64})", match[3]))
    return entries


def _direct(name: str) -> dict[str, str]:
    pins = {}
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#") and not line.startswith("-r"):
            requirement = Requirement(line)
            pins[canonicalize_name(requirement.name)] = str(requirement.specifier).removeprefix("==")
    return pins


@pytest.mark.parametrize("source, lock", sorted(LOCKS.items()))
def test_every_direct_pin_is_locked_at_its_version(source, lock):
    entries = _lock_entries(lock)
    direct = _direct(source)
    if source == "requirements-dev.txt":
        direct |= _direct("requirements.txt")
    for package, version in direct.items():
        assert package in entries, f"{lock} lacks {package}"
        assert entries[package][0] == version, (package, entries[package][0], version)


@pytest.mark.parametrize("lock", sorted(LOCKS.values()))
def test_the_lock_holds_the_whole_tree(lock):
    """Every dependency of every locked package (as installed here, for this platform) is locked too."""
    entries = _lock_entries(lock)
    environment = default_environment()
    missing, checked = [], 0
    for package in entries:
        try:
            requires = metadata.requires(package) or []
        except metadata.PackageNotFoundError:
            continue  # locked for another platform or not installed in this environment
        checked += 1
        for text in requires:
            requirement = Requirement(text)
            if requirement.marker is not None and not requirement.marker.evaluate({**environment, "extra": ""}):
                continue
            if canonicalize_name(requirement.name) not in entries:
                missing.append(f"{package} -> {requirement.name}")
    assert not missing, missing
    assert checked >= 0.9 * len(entries), f"only {checked} of {len(entries)} locked packages could be checked"


def test_the_readme_commands_and_the_image_install_the_locks():
    dev = (ROOT / "dev.py").read_text(encoding="utf-8")
    assert '"run": "requirements.lock"' in dev and '"test": "requirements-dev.lock"' in dev
    assert "--require-hashes" in dev
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text(encoding="utf-8")
    assert "--require-hashes -r requirements.lock" in dockerfile
