"""Count the literal mechanism ids in the interface: how often code names a mechanism by its id.

    .venv/bin/python benchmarks/count_mechanism_ids.py [--list]

The registry (``gaussmech_core/mechanisms.py``) is the seam (DESIGN.md section 2): code outside
it should ask a mechanism's entry instead of naming its id, except where a chart is about one
paper's own comparison. This script counts string literals equal to a registered id in
``gaussmech_ui/``, ``pages/`` and ``app.py``, leaving out docstrings (a string that is a whole
statement), and prints the total and the count per file (``--list`` prints every occurrence).

Not a test: a figure for issue 13's closing note.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gaussmech_core.mechanisms import MECHANISMS  # noqa: E402

SCANNED = ("gaussmech_ui", "pages", "app.py")


def _files(root: Path) -> list[Path]:
    files: list[Path] = []
    for name in SCANNED:
        path = root / name
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return files


def _docstring_nodes(tree: ast.AST) -> set[int]:
    """ids of the string constants that are whole expression statements (docstrings and the like)."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    }


def literal_ids(path: Path, ids) -> list[tuple[int, str]]:
    """``(line, id)`` for every string literal of ``path`` equal to a mechanism id, outside docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstring_nodes(tree)
    wanted = set(ids)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in wanted
        and id(node) not in docstrings
    ]


def count(root: Path = ROOT, ids=None) -> dict[str, list[tuple[int, str]]]:
    """Occurrences per file (relative path), files without any left out."""
    ids = tuple(MECHANISMS) if ids is None else tuple(ids)
    found = {}
    for path in _files(root):
        hits = literal_ids(path, ids)
        if hits:
            found[str(path.relative_to(root))] = sorted(hits)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="print every occurrence")
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout to scan (default: this one)")
    args = parser.parse_args()
    found = count(args.root)
    total = sum(len(hits) for hits in found.values())
    print(f"literal mechanism ids in {', '.join(SCANNED)} (outside docstrings): {total}")
    for file, hits in sorted(found.items(), key=lambda item: -len(item[1])):
        print(f"  {len(hits):4d}  {file}")
        if args.list:
            for line, mechanism_id in hits:
                print(f"          line {line}: {mechanism_id}")
    by_id = Counter(mechanism_id for hits in found.values() for _, mechanism_id in hits)
    print("per id: " + ", ".join(f"{key} {value}" for key, value in by_id.most_common()))


if __name__ == "__main__":
    main()
