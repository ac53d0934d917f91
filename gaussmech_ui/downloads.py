"""CSV downloads of what the pages show, safe to open in a spreadsheet.

Every table and chart offers its data as CSV with exact values (USERS.md: "every number
reachable ... with the exact value in a tooltip or download"). Text cells that a spreadsheet
would run as a formula (starting with ``=``, ``+``, ``-``, ``@``, tab or carriage return) are
prefixed with an apostrophe, the OWASP defence against CSV injection: a label typed by a user or
read from an uploaded file must never become a formula on a stakeholder's laptop.
"""

from __future__ import annotations

from typing import Any, Callable

import pandas as pd

__all__ = ["FORMULA_PREFIXES", "neutralize_cell", "csv_bytes", "download_csv", "download_file"]

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def neutralize_cell(value: Any) -> Any:
    """Prefix a text cell that a spreadsheet would read as a formula with ``'``; leave others alone.

    Examples
    --------
    >>> neutralize_cell("=HYPERLINK(1)"), neutralize_cell("-1"), neutralize_cell("σ = 3.73"), neutralize_cell(-1.5)
    ("'=HYPERLINK(1)", "'-1", 'σ = 3.73', -1.5)
    """
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES):
        return "'" + value
    return value


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """The frame as UTF-8 CSV (with a byte-order mark, so spreadsheets read ε and δ right).

    Numbers are written exactly (shortest round-trip text); missing values are empty cells.
    """
    safe = frame.rename(columns=lambda name: neutralize_cell(str(name)))
    for column in safe.columns:
        if not pd.api.types.is_numeric_dtype(safe[column]):
            safe[column] = safe[column].map(neutralize_cell)
    return safe.to_csv(index=False, na_rep="").encode("utf-8-sig")


def download_csv(label: str, frame: pd.DataFrame | Callable[[], pd.DataFrame], file_name: str, key: str) -> None:
    """A download button for ``frame`` as CSV; the file is made only when the button is clicked."""
    import streamlit as st

    def make_file() -> bytes:
        return csv_bytes(frame() if callable(frame) else frame)

    st.download_button(
        label,
        data=make_file,
        file_name=file_name,
        mime="text/csv",
        key=key,
        on_click="ignore",
        icon=":material/download:",
    )


def download_file(label: str, data: Any, file_name: str, mime: str, *, container: Any = None, **options: Any) -> None:
    """A download button for a file that is not a table (an image, a report, a settings file, a script).

    Tables go through :func:`download_csv`, which escapes formula-like cells; this refuses CSV so
    that no table can bypass that. ``container`` is where to draw (a column; the page by default);
    ``options`` are passed to ``st.download_button`` (key, icon, on_click, ...).
    """
    import streamlit as st

    if mime == "text/csv" or file_name.lower().endswith(".csv"):
        raise ValueError(f"{file_name!r} is a table: offer it with download_csv, which escapes formula-like cells.")
    (container if container is not None else st).download_button(
        label, data=data, file_name=file_name, mime=mime, **options
    )
