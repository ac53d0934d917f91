"""A corpus of malformed uploads: each is refused (or read) with a message that says what and where.

The files are built here, in memory: the large ones (1e7 rows, exactly the size cap) would be
tens of MB in the repository. Every refusal must be an :class:`UploadError` whose message names
the line when the problem sits on one; every CSV the app writes escapes formula-like cells.
"""

from __future__ import annotations

import ast
import io
import pathlib
import zipfile

import numpy as np
import pandas as pd
import pytest

from gaussmech_ui.downloads import csv_bytes
from gaussmech_ui.uploads import DEFAULT_MAX_BYTES, UploadError, histogram_frame, parse_histogram_csv, to_safe_csv

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _xlsx_bytes() -> bytes:
    """A minimal Excel workbook (an OOXML zip archive), as a spreadsheet program saves one."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
        )
        archive.writestr("xl/workbook.xml", "<workbook/>")
        archive.writestr(
            "xl/worksheets/sheet1.xml", "<worksheet><sheetData><row><c><v>3</v></c></row></sheetData></worksheet>"
        )
    return buffer.getvalue()


def _file_of_size(size: int) -> bytes:
    """A valid label,count file of exactly ``size`` bytes (the first label takes up the remainder)."""
    header, row = b"label,count\n", b"x" * 17 + b",1\n"
    rows, remainder = divmod(size - len(header), len(row))
    first = b"y" * (17 + remainder) + b",1\n"
    data = header + first + row * (rows - 1)
    assert len(data) == size
    return data


# (name, bytes, fragments the message must hold). "line N" fragments check the place is named.
REFUSED = [
    ("empty", b"", ["The file is empty"]),
    ("only blank lines", b"\n\r\n  \n", ["only blank lines"]),
    ("header only", b"label,count\n", ["header row but no data rows"]),
    ("binary", bytes(range(256)) * 4, ["NUL character on line 1", "binary file"]),
    ("Excel workbook", _xlsx_bytes(), ["not a CSV file", "Excel workbook", "CSV UTF-8"]),
    ("UTF-16 without its byte-order mark", "label,count\napple,3\n".encode("utf-16-le"), ["NUL character on line 1"]),
    ("Latin-1", "label,count\napple,3\ncafé,4\n".encode("latin-1"), ["not UTF-8", "0xe9", "line 3"]),
    (
        "ragged rows",
        b"label,count\napple,3\npear,4,5\nfig,6\n",
        ["Ragged rows", "line 3", "3 fields", "most rows have 2"],
    ),
    (
        "quoted newline then a bad count",
        b'label,count\n"two\nlines",3\npear,x\nfig,5\nplum,6\n',
        ["Line 4", "'x' is not a number"],
    ),
    (
        "unclosed quotation mark",
        b'label,count\n"apple,3\npear,4\n',
        ["quotation mark opened on line 2", "never closed"],
    ),
    (
        "text in the count column",
        b"label,count\napple,3\npear,lots\nfig,4\nplum,5\n",
        ["Line 3", "'lots' is not a number"],
    ),
    ("negative count", b"label,count\napple,3\npear,-4\n", ["Line 3", "'-4' is negative"]),
    ("NaN count", b"label,count\napple,3\npear,NaN\n", ["Line 3", "the count is missing"]),
    ("infinite count", b"label,count\napple,3\npear,inf\n", ["Line 3", "'inf' is not a finite number"]),
    (
        "1e308 count",
        b"label,count\napple,3\npear,1e308\n",
        ["add up to 1e+308", "above the supported total", "on line 3"],
    ),
    ("1e999 count", b"label,count\napple,3\npear,1e999\n", ["Line 3", "not a finite number"]),
    ("decimal comma", b'label,count\napple,3\npear,"4,5"\nfig,5\n', ["Line 3", "Decimal commas"]),
    (
        "one byte over the size cap",
        _file_of_size(DEFAULT_MAX_BYTES + 1),
        [f"{DEFAULT_MAX_BYTES + 1:,} bytes", f"limit is 10.5 MB ({DEFAULT_MAX_BYTES:,} bytes)"],
    ),
]


@pytest.mark.parametrize("name, data, fragments", REFUSED, ids=[case[0] for case in REFUSED])
def test_malformed_upload_gets_a_clear_message(name, data, fragments):
    with pytest.raises(UploadError) as caught:
        parse_histogram_csv(data, f"{name}.csv")
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    assert "Traceback" not in message and len(message) < 400


def test_ten_million_rows_are_refused_by_size_and_by_count():
    data = b"count\n" + b"1\n" * 10**7
    with pytest.raises(UploadError, match=r"20\.0 MB .*the limit is 10\.5 MB"):
        parse_histogram_csv(data)
    with pytest.raises(
        UploadError, match=r"Too many bins: line 1,000,002 is row 1,000,002 or more; the limit is 1,000,000"
    ):
        parse_histogram_csv(data, max_bytes=len(data))


def test_exactly_the_size_cap_is_read():
    data = _file_of_size(DEFAULT_MAX_BYTES)
    result = parse_histogram_csv(data)
    assert result.summary.bins == data.count(b"\n") - 1 and result.total == result.summary.bins


def test_utf16_with_its_byte_order_mark_is_read():
    result = parse_histogram_csv("label,count\npomme,3\nthé,4\n".encode("utf-16"))
    assert result.labels == ("pomme", "thé") and result.counts.tolist() == [3, 4]


def test_quoted_newlines_stay_in_their_label():
    result = parse_histogram_csv(b'label,count\n"two\nlines",3\npear,4\n')
    assert result.labels == ("two\nlines", "pear")


FORMULAS = ["=cmd|' /C calc'!A0", "+SUM(1,2)", "-2+3", "@SUM(A1)", '=HYPERLINK("http://x","y")', "\t=1", "\r=1"]


def test_formula_labels_are_read_as_text_and_escaped_in_every_export():
    body = "".join(f'"{label.replace(chr(34), chr(34) * 2)}",{k}\n' for k, label in enumerate(FORMULAS, 1))
    result = parse_histogram_csv(("label,count\n" + body).encode())
    assert result.labels == tuple(label.strip() for label in FORMULAS)
    frame = histogram_frame({"true": result.counts}, labels=result.labels)
    for text in (csv_bytes(frame).decode("utf-8-sig"), to_safe_csv(frame)):
        cells = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)["bin"].tolist()
        assert all(cell.startswith("'") for cell in cells), cells


def _python_sources():
    for folder in ("pages", "gaussmech_ui"):
        yield from sorted((ROOT / folder).rglob("*.py"))
    yield ROOT / "app.py"


def _calls(path: pathlib.Path, attribute: str):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            function = node.func
            name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", None)
            if name == attribute:
                yield node.lineno


def test_every_csv_download_goes_through_the_escaping():
    """Only gaussmech_ui/downloads.py draws download buttons or writes CSV; pages call download_csv."""
    writers = {"downloads.py", "uploads.py"}  # csv_bytes and to_safe_csv, both escaping
    offenders = []
    for path in _python_sources():
        for line in _calls(path, "download_button"):
            if path.name != "downloads.py":
                offenders.append(f"{path.relative_to(ROOT)}:{line} st.download_button")
        for line in _calls(path, "to_csv"):
            if path.name not in writers:
                offenders.append(f"{path.relative_to(ROOT)}:{line} .to_csv")
    assert not offenders, offenders
    assert any(True for path in _python_sources() for _ in _calls(path, "download_csv")), "no page offers a CSV"


def test_escaping_leaves_numbers_as_numbers():
    frame = pd.DataFrame({"bin": ["=1", "ok"], "released": np.array([-1.5, 2.0])})
    lines = csv_bytes(frame).decode("utf-8-sig").splitlines()
    assert lines[1] == "'=1,-1.5" and lines[2] == "ok,2.0"
