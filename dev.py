#!/usr/bin/env python3
"""The two commands of gaussmech, for a fresh machine with Python 3.11+ and nothing else.

    python3 dev.py run     start the dashboard (http://localhost:8501)
    python3 dev.py test    run every test: core, doctests, interface, browser

Each creates the virtual environment ``.venv`` when it is missing and installs the locked
requirements (every package pinned, with its hashes) into it (again only when a lock file
changed), and gaussmech_core itself in development mode (``pip install --no-deps -e .``); extra
arguments go to ``streamlit run`` or ``pytest``, e.g. ``python3 dev.py test tests/ui -x``.
Only the standard library is used here, because nothing else exists before the first run.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
# The whole dependency tree, pinned with hashes (pip-compile --generate-hashes of requirements*.txt).
REQUIREMENTS = {"run": "requirements.lock", "test": "requirements-dev.lock"}


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def requirements_digest(file_name: str) -> str:
    """A hash of the requirements file and of every file it includes with ``-r``."""
    digest = hashlib.sha256()
    pending = [ROOT / file_name]
    while pending:
        path = pending.pop()
        text = path.read_text(encoding="utf-8")
        digest.update(path.name.encode() + b"\0" + text.encode())
        for line in text.splitlines():
            if line.strip().startswith("-r "):
                pending.append(path.parent / line.strip()[3:].strip())
    return digest.hexdigest()


def ensure_environment(command: str) -> Path:
    """Create ``.venv`` if missing and install the requirements of ``command`` if they changed."""
    if sys.version_info < (3, 11):
        sys.exit(f"gaussmech needs Python 3.11 or newer; this is {sys.version.split()[0]}.")
    python = venv_python()
    if not python.exists():
        print(f"Creating the virtual environment {VENV} ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    file_name = REQUIREMENTS[command]
    stamp = VENV / f".installed-{file_name}.sha256"
    wanted = requirements_digest(file_name)
    if not stamp.exists() or stamp.read_text().strip() != wanted:
        print(f"Installing {file_name} into {VENV} ...", flush=True)
        subprocess.run(
            [
                *(str(python), "-m", "pip", "install", "--disable-pip-version-check", "--require-hashes"),
                *("-r", str(ROOT / file_name)),
            ],
            check=True,
        )
        stamp.write_text(wanted + "\n")
    install_package(python)
    return python


def install_package(python: Path) -> None:
    """Install gaussmech_core into ``.venv`` in development mode (once), so a downloaded
    "Reproduce in Python" script runs with ``.venv``'s Python from any folder."""
    stamp = VENV / ".installed-editable"
    if stamp.exists() and stamp.read_text().strip() == str(ROOT):
        return
    print(f"Installing gaussmech_core into {VENV} in development mode ...", flush=True)
    subprocess.run(
        [str(python), "-m", "pip", "install", "--disable-pip-version-check", "--no-deps", "-e", str(ROOT)],
        check=True,
    )
    stamp.write_text(str(ROOT) + "\n")


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in REQUIREMENTS:
        print(__doc__)
        return 2
    command, extra = argv[0], argv[1:]
    python = ensure_environment(command)
    if command == "run":
        arguments = [str(python), "-m", "streamlit", "run", str(ROOT / "app.py"), *extra]
    else:
        arguments = [str(python), "-m", "pytest", *extra]
    try:
        return subprocess.run(arguments, cwd=ROOT).returncode
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
