"""The core is a library in its own right: it never loads the interface's dependencies.

DESIGN.md section 1: ``pip install .`` installs ``gaussmech_core`` with numpy and scipy only, and
importing it (every module of it) must not import streamlit, plotly or pandas. Checked in a fresh
interpreter, because this test process has long imported all three.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = ("streamlit", "plotly", "pandas")

_PROBE = """
import importlib, json, pkgutil, sys
import gaussmech_core
modules = [info.name for info in pkgutil.walk_packages(gaussmech_core.__path__, "gaussmech_core.")]
failed = {}
for name in modules:
    try:
        importlib.import_module(name)
    except ImportError as error:  # reported below; the other modules are still checked
        failed[name] = str(error)
loaded = sorted({m.split(".")[0] for m in sys.modules} & set(%r))
print(json.dumps({"modules": modules, "loaded": loaded, "failed": failed}))
""" % (FORBIDDEN,)


def test_importing_every_core_module_loads_no_interface_library():
    completed = subprocess.run(
        [sys.executable, "-c", _PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    report = json.loads(completed.stdout.strip().splitlines()[-1])
    assert report["modules"], "found no module of gaussmech_core"
    assert report["failed"] == {}, "every core module must import"
    assert report["loaded"] == [], f"gaussmech_core imported {report['loaded']}"


def test_no_core_source_file_imports_an_interface_library():
    offending = []
    for path in (ROOT / "gaussmech_core").rglob("*.py"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            words = line.strip().replace(",", " ").split()
            if words[:1] in (["import"], ["from"]) and len(words) > 1 and words[1].split(".")[0] in FORBIDDEN:
                offending.append(f"{path.name}:{number}: {line.strip()}")
    assert offending == []


def test_package_metadata_installs_the_core_alone():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    dependencies = [
        d.split(">")[0].split("=")[0].split("<")[0].strip().lower() for d in project["project"]["dependencies"]
    ]
    assert sorted(dependencies) == ["numpy", "scipy"]
    assert project["tool"]["setuptools"]["packages"] == ["gaussmech_core"]
