"""The counter of literal mechanism ids (benchmarks/count_mechanism_ids.py) counts what it says."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _counter():
    spec = importlib.util.spec_from_file_location("count_mechanism_ids", ROOT / "benchmarks" / "count_mechanism_ids.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ids_in_code_count_and_docstrings_do_not(tmp_path):
    counter = _counter()
    (tmp_path / "gaussmech_ui").mkdir()
    (tmp_path / "pages").mkdir()
    (tmp_path / "app.py").write_text('"""About "laplace" and r1smg."""\nx = "laplace"\n', encoding="utf-8")
    (tmp_path / "pages" / "a.py").write_text(
        'def f():\n    """laplace"""\n    return {"r1smg": 1, "laplace_extra": 2}\n', encoding="utf-8"
    )
    (tmp_path / "gaussmech_ui" / "b.py").write_text('y = ["laplace", "laplace"]  # "r1smg"\n', encoding="utf-8")
    found = counter.count(tmp_path, ids=("laplace", "r1smg"))
    assert found == {
        "app.py": [(2, "laplace")],
        "pages/a.py": [(3, "r1smg")],
        "gaussmech_ui/b.py": [(1, "laplace"), (1, "laplace")],
    }
