"""Uploads: every shape of valid file is read, every malformed one is named with its place."""

from __future__ import annotations

import ast
import builtins
import csv
import doctest
import io
import pathlib

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

import gaussmech_ui.uploads as uploads_module
from gaussmech_ui.uploads import (
    HistogramData,
    UploadError,
    csv_escape_cell,
    histogram_frame,
    parse_histogram_csv,
    to_safe_csv,
)

DANGEROUS_LABELS = [
    "=cmd|' /C calc'!A0",
    "__import__('os').system('echo hi')",
    "+1+1",
    "@SUM(A1:A2)",
    "-2+3",
    "${jndi:ldap://x}",
    "eval(1)",
    "<script>alert(1)</script>",
]


def test_doctests():
    result = doctest.testmod(uploads_module)
    assert result.attempted >= 6
    assert result.failed == 0


def test_module_never_imports_streamlit():
    for name in ("uploads.py", "examples.py"):
        source = pathlib.Path(uploads_module.__file__).with_name(name).read_text()
        imported = set()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module.split(".")[0])
        assert "streamlit" not in imported, name


# --- valid files ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, counts, labels, header",
    [
        (b"3\n5\n7\n", [3, 5, 7], None, False),
        (b"count\n3\n5\n7", [3, 5, 7], None, True),
        (b"fruit,count\napple,3\npear,5\n", [3, 5], ("apple", "pear"), True),
        (b"apple,3\npear,5\n", [3, 5], ("apple", "pear"), False),
        (b"\xef\xbb\xbffruit,count\r\napple,3\r\npear,5\r\n", [3, 5], ("apple", "pear"), True),
        (b"fruit;count\napple;3\npear;5\n", [3, 5], ("apple", "pear"), True),
        (b"fruit\tcount\napple\t3\npear\t5\n", [3, 5], ("apple", "pear"), True),
        (b'label,n\n"New York, NY",3\n"say ""hi""",5\n', [3, 5], ("New York, NY", 'say "hi"'), True),
        (b"a,1,,\nb,2,,\n\n,,\n", [1, 2], ("a", "b"), False),
        (b"  a , 1 \n b,2.5\n", [1, 2.5], ("a", "b"), False),
        (b"a,1e3\nb,0\n", [1000, 0], ("a", "b"), False),
        ("fruit,count\napple,3\npear,5\n".encode("utf-16"), [3, 5], ("apple", "pear"), True),
        ("étage,count\nthé,3\n日本,5\n".encode("utf-8"), [3, 5], ("thé", "日本"), True),
        (b"a,1\rb,2\r", [1, 2], ("a", "b"), False),
        (b"x;y,1\nz;w,2\n", [1, 2], ("x;y", "z;w"), False),  # a semicolon inside comma-separated labels
        (b"A;,0\n", [0], ("A;",), False),
    ],
)
def test_one_dimensional_files(data, counts, labels, header):
    result = parse_histogram_csv(data, "file.csv")
    assert isinstance(result, HistogramData)
    assert result.kind == "1d"
    assert result.counts.dtype == np.float64 and result.counts.tolist() == counts
    assert result.labels == labels
    assert result.has_header == header
    assert result.summary.bins == len(counts) and result.summary.rows == len(counts)
    assert result.summary.total == sum(counts)
    assert result.name == "file.csv"


def test_summary_sentence():
    result = parse_histogram_csv(b"fruit,count\napple,1000\npear,234\n")
    assert result.summary.describe() == "Read 2 rows: 2 bins, total 1,234."
    grid = parse_histogram_csv(b"1,2,3\n4,5,6\n")
    assert grid.summary.describe() == "Read 2 rows: 6 bins (2 × 3 grid), total 21."


def test_grids():
    plain = parse_histogram_csv(b"1,2,3\n4,5,6\n")
    assert plain.kind == "2d" and plain.counts.shape == (2, 3)
    assert plain.counts.tolist() == [[1, 2, 3], [4, 5, 6]]
    assert plain.row_labels is None and plain.column_labels is None
    labelled = parse_histogram_csv(b"street,a,b,c\nx,1,2,3\ny,4,5,6\n")
    assert labelled.kind == "2d" and labelled.has_header
    assert labelled.row_labels == ("x", "y") and labelled.column_labels == ("a", "b", "c")
    assert labelled.summary.shape == (2, 3) and labelled.summary.bins == 6
    years = parse_histogram_csv(b"region,2019,2020,2021\nnorth,5,3,1\nsouth,0,2,8\n", header=True)
    assert years.kind == "2d" and years.column_labels == ("2019", "2020", "2021")


def test_ambiguous_files_let_the_person_choose():
    table = b"year,count,other\n2019,5,1\n2020,7,2\n"
    grid = parse_histogram_csv(table)
    assert grid.kind == "2d"  # three numeric columns
    by_name = parse_histogram_csv(table, kind="1d")
    assert by_name.column == "count" and by_name.counts.tolist() == [5, 7]
    assert by_name.labels == ("2019", "2020")
    assert by_name.candidate_columns == ("year", "count", "other")
    assert any("Several columns hold numbers" in w for w in by_name.warnings)
    chosen = parse_histogram_csv(table, column="other")
    assert chosen.kind == "1d" and chosen.counts.tolist() == [1, 2] and chosen.column == "other"
    assert chosen.labels == ("2019", "2020")
    last = parse_histogram_csv(b"a,b\n1,2\n3,4\n")
    assert last.column == "b" and last.labels == ("1", "3")
    with pytest.raises(UploadError, match="no numeric column 'nope'; choose one of 'year', 'count', 'other'"):
        parse_histogram_csv(table, column="nope")


def test_overrides():
    forced_grid = parse_histogram_csv(b"1,2\n3,4\n", kind="2d")
    assert forced_grid.kind == "2d" and forced_grid.counts.shape == (2, 2)
    with pytest.raises(UploadError, match="at least two columns of numbers"):
        parse_histogram_csv(b"a,1\nb,2\n", kind="2d")
    as_data = parse_histogram_csv(b"10,20\n1,2\n3,4\n", header=False)
    assert as_data.counts.tolist() == [20, 2, 4] and not as_data.has_header
    as_header = parse_histogram_csv(b"10,20\n1,2\n3,4\n", header=True)
    assert as_header.counts.tolist() == [2, 4] and as_header.candidate_columns == ("10", "20")
    with pytest.raises(ValueError, match="kind"):
        parse_histogram_csv(b"1\n", kind="3d")


def test_single_row_of_numbers_is_one_histogram():
    result = parse_histogram_csv(b"a,b,c\n1,2,3\n")
    assert result.kind == "1d" and result.counts.tolist() == [1, 2, 3] and result.labels == ("a", "b", "c")
    assert parse_histogram_csv(b"4,5,6,7\n").counts.tolist() == [4, 5, 6, 7]


def test_warnings_for_fractional_counts_blank_and_repeated_labels():
    result = parse_histogram_csv(b"a,1.5\n,2\na,3\n")
    text = " ".join(result.warnings)
    assert "not a whole number" in text and "blank" in text and "repeat" in text
    assert "All counts are 0" in " ".join(parse_histogram_csv(b"a,0\nb,0\n").warnings)
    total_row = parse_histogram_csv(b"fruit,count\napple,3\npear,5\nTotal,8\n")
    assert any("'Total' on line 4 equals the sum" in w for w in total_row.warnings)
    assert not any("sum" in w for w in parse_histogram_csv(b"fruit,count\napple,3\ntotal,2\n").warnings)


@pytest.mark.parametrize("label", DANGEROUS_LABELS)
def test_labels_stay_text(label):
    quoted = '"' + label.replace('"', '""') + '"'
    result = parse_histogram_csv(f"label,count\n{quoted},3\nsafe,4\n".encode())
    assert result.labels == (label, "safe")
    assert all(type(item) is str for item in result.labels)


def test_nothing_is_written_to_disk(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the parser tried to open a file")

    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(io, "open", refuse)
    assert parse_histogram_csv(b"a,1\nb,2\n").total == 3


# --- malformed files: what and where -------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, kwargs, fragments",
    [
        (b"", {}, ["empty"]),
        (b"\n \r\n\t\n", {}, ["only blank lines"]),
        (b"fruit,count\n", {}, ["header row but no data rows"]),
        (b"a,1\nb\xff,2\n", {}, ["not UTF-8", "0xff", "line 2", "byte 6"]),
        (b"PK\x03\x04\x14\x00rest", {}, ["Excel workbook", "CSV UTF-8"]),
        (b"a,1\nb,2\x00\n", {}, ["NUL", "line 2", "binary"]),
        (b"name,city\nann,rome\nbob,oslo\n", {}, ["No column of numbers", "'name'", "'city'"]),
        (b"name,count\nann,3\nbob,x\ncid,y\ndan,z\neve,5\n", {}, ["No column of numbers", "Column 2", "line 3", "'x'"]),
        (b"fruit,count\napple,3\npear,-2\n", {}, ["Line 3", "column 2", "'count'", "-2", "negative"]),
        (b"fruit,count\napple,3\npear,\nfig,4\n", {}, ["Line 3", "column 2", "missing"]),
        (b"fruit,count\napple,3\npear,NA\n", {}, ["Line 3", "missing"]),
        (b"a,1\nb,inf\n", {}, ["Line 2", "'inf'", "not a finite number"]),
        (b"a,1\nb,1e999\n", {}, ["Line 2", "'1e999'", "not a finite number"]),
        (b"a,1\nb,x\nc,3\nd,4\n", {}, ["Line 2", "column 2", "'x' is not a number"]),
        (b"a,1\nb,-1\nc,-2\nd,-3\n", {}, ["Line 2", "(2 more problems in this column.)"]),
        (b'a,1\nb,"1,5"\nc,2\n', {}, ["Line 2", "'1,5'", "Decimal commas"]),
        (b"a;1,500\nb;2,500\n", {}, ["Column 2", "'1,500'", "decimal mark or a thousands separator"]),
        (b"a,1\nb,2\nc,3,4\nd,5\n", {}, ["Ragged", "line 3", "3 fields", "most rows have 2", "comma"]),
        (b"a,1\nb\nc,3\n", {}, ["Ragged", "line 2", "1 field ", "missing value"]),
        (b'a,1\nb,2\n"c,3\nd,4\n', {}, ["quotation mark opened on line 3", "never closed"]),
        (b'a,"b"c,3\n', {}, ["Line 1", "cannot be read"]),
        (b"a,1\nb,2\nc,3\n", {"max_bins": 2}, ["Too many bins", "limit is 2"]),
        (b"1,2,3\n4,5,6\n", {"max_bins": 5}, ["Too many bins", "6 counts", "limit is 5"]),
        (b"a,1\nb,2\n", {"max_bytes": 5}, ["MB", "limit"]),
        (b"a,1e15\nb,1e15\n", {}, ["add up to 2e+15", "1e+15"]),
        (b"1,2,3\n4,-5,6\n", {}, ["Line 2", "column 2", "negative"]),
        (b"1,2,3\n4,,6\n", {}, ["Line 2", "column 2", "missing"]),
        (b"a," + b"x" * 200_000 + b"\nb,2\n", {}, ["Line 1", "field larger than field limit"]),
    ],
)
def test_malformed_files_say_what_and_where(data, kwargs, fragments):
    with pytest.raises(UploadError) as caught:
        parse_histogram_csv(data, "bad.csv", **kwargs)
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def test_upload_error_is_a_value_error():
    assert issubclass(UploadError, ValueError)
    with pytest.raises(TypeError, match="bytes"):
        parse_histogram_csv("a,1\n")


def test_line_numbers_account_for_blank_lines_and_multiline_fields():
    data = b'label,count\n"two\nlines",1\n\n\nb,2\nc,-3\n'
    with pytest.raises(UploadError, match="Line 7"):
        parse_histogram_csv(data)


# --- round trips and fuzzing ---------------------------------------------------------------------------


def _is_plain_label(text: str) -> bool:
    """Text that no reader would take for a number or a missing value (e.g. not "inf", "NaN", "null")."""
    try:
        float(text)
        return False
    except ValueError:
        pass
    # No ";", "," or tab: "x;1,5" is a decimal comma as much as a label "x;1" (rule 2 picks the
    # former), and a one-row file "µ,;0" splits into two fields on either separator (rule 2
    # picks the comma); labels holding separators are covered by the explicit cases above.
    return (
        text.strip() == text
        and text[:1].isalpha()
        and text.lower() not in uploads_module._MISSING
        and ";" not in text
        and "\t" not in text
        and "," not in text
    )


LABEL = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=12
).filter(_is_plain_label) | st.sampled_from(["inf", "nan", "null", "NA", "Infinity"]).map(lambda s: s + "_x")


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(LABEL, st.integers(0, 10**9)), min_size=1, max_size=40),
    st.sampled_from([",", ";", "\t"]),
    st.booleans(),
    st.sampled_from(["\n", "\r\n"]),
)
def test_written_histograms_read_back(rows, separator, header, newline):
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=separator, lineterminator=newline)
    if header:
        writer.writerow(["label", "count"])
    writer.writerows(rows)
    result = parse_histogram_csv(buffer.getvalue().encode("utf-8"))
    assert result.kind == "1d"
    assert result.counts.tolist() == [float(count) for _, count in rows]
    if len(rows) > 1 or header:
        assert result.labels == tuple(label for label, _ in rows)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_never_raise_anything_but_upload_error(data):
    try:
        result = parse_histogram_csv(data)
    except UploadError as error:
        assert str(error)
        return
    assert np.all(np.isfinite(result.counts)) and np.all(result.counts >= 0)


CSV_ALPHABET = st.sampled_from(list(",;\t\n\r\"' 0123456789.-+eEinfaNA=@x\ufeff"))


@settings(max_examples=300, deadline=None)
@given(st.lists(CSV_ALPHABET, max_size=120).map("".join))
def test_random_csv_like_text_never_raises_anything_but_upload_error(text):
    try:
        result = parse_histogram_csv(text.encode("utf-8"))
    except UploadError as error:
        assert str(error)
        return
    assert result.counts.size == result.summary.bins
    assert np.all(np.isfinite(result.counts)) and np.all(result.counts >= 0)
    assert result.summary.total == pytest.approx(float(result.counts.sum()))


# --- safe downloads ------------------------------------------------------------------------------------


@pytest.mark.parametrize("cell", ["=1+1", "+1+1", "-1+1", "@SUM(A1)", "\t=1", "\r=1", "=cmd|' /C calc'!A0"])
def test_formula_cells_are_escaped(cell):
    assert csv_escape_cell(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["apple", "-3.5", "+2", "1e5", "", "a=b", 7, -3.5, np.float64(-2.0), None])
def test_harmless_cells_are_unchanged(cell):
    assert csv_escape_cell(cell) is cell or csv_escape_cell(cell) == cell


def test_to_safe_csv_escapes_text_only():
    frame = pd.DataFrame({"label": ['=HYPERLINK("x")', "ok", "-5"], "released": [-2.5, 3.0, 1.0], "=bad": [1, 2, 3]})
    text = to_safe_csv(frame)
    back = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    assert back.columns.tolist() == ["label", "released", "'=bad"]
    assert back["label"].tolist() == ['\'=HYPERLINK("x")', "ok", "-5"]
    assert back["released"].tolist() == ["-2.5", "3.0", "1.0"]
    assert frame["label"].iloc[0].startswith("=")  # the input is not modified


def test_histogram_frame_shapes():
    one = histogram_frame({"true": np.array([1.0, 2.0]), "denoised": np.array([1.5, 2.0])}, labels=("a", "=b"))
    assert one.columns.tolist() == ["bin", "true", "denoised"] and one["bin"].tolist() == ["a", "=b"]
    assert "'=b" in to_safe_csv(one)
    grid = histogram_frame({"true": np.arange(6.0).reshape(2, 3)}, row_labels=("n", "s"))
    assert grid.columns.tolist() == ["row", "column", "true"]
    assert grid["row"].tolist() == ["n", "n", "n", "s", "s", "s"] and grid["column"].tolist() == [1, 2, 3, 1, 2, 3]
    assert grid["true"].tolist() == [0, 1, 2, 3, 4, 5]
    with pytest.raises(ValueError, match="same shape"):
        histogram_frame({"a": np.ones(2), "b": np.ones(3)})


# --- the fast reader reads exactly what the line-precise reader reads ------------------------------


def _outcome(data, reader_on, monkeypatch, **kwargs):
    """What parse_histogram_csv returns (as plain values) or the message it raises."""
    with monkeypatch.context() as patch:
        if not reader_on:
            patch.setattr(uploads_module, "_read_fast", lambda *args: None)
        try:
            result = parse_histogram_csv(data, **kwargs)
        except UploadError as error:
            return ("error", str(error))
    fields = {name: getattr(result, name) for name in result.__dataclass_fields__ if name != "counts"}
    return ("ok", result.counts.tolist(), result.counts.shape, fields)


def _assert_same(data, monkeypatch, **kwargs):
    fast = _outcome(data, True, monkeypatch, **kwargs)
    precise = _outcome(data, False, monkeypatch, **kwargs)
    assert fast == precise, data


def test_fast_reader_handles_plain_files(monkeypatch):
    calls = []
    original = uploads_module._read_fast
    monkeypatch.setattr(uploads_module, "_read_fast", lambda *args: calls.append(original(*args)) or calls[-1])
    parse_histogram_csv(b"fruit,count\napple,3\npear,5\n")
    parse_histogram_csv(b"1,2,3\n4,5,6\n")
    assert all(call is not None for call in calls) and len(calls) == 2
    parse_histogram_csv(b'label,n\n"New York, NY",3\n')  # quotation marks: the csv module reads them
    assert calls[-1] is None


@pytest.mark.parametrize(
    "data",
    [
        b"label,count\na,1\nb,0x10\n",
        b"a,1\nb,+5\nc,1e3\n",
        b"a, 1 \nb,\t2\n",
        b"3\n\n5\n \n7\n",
        b"a,1,\nb,2,\n",
        b"a,1\nb,nan\n",
        b"a,1\nb,inf\n",
        b"a,1\nb,-1\nc,-2\n",
        b"count\n3\nNA\n5\n",
        b"name,count\nann,3\nbob,x\ncid,y\ndan,z\neve,5\n",
        b"x,y\n1,2\n",
        b"a;1,5\nb;2,5\n",
        b"a,1\r\nb,2\r\n",
        b"a,1\rb,2\r",
        b"2019,5\n2020,7\n",
        b"a,99999999999999999999\n",
        b"fruit,count\napple,3\npear,5\nTotal,8\n",
        "é,1\nü\u00a0,2\n".encode(),
        b"a,1\nb,2\n\n",
        b"a\x0b,1\nb,2\n",
        b"a,1\nb,2,3\nc,4\n",
        b",\na,1\n,\nb,2\n",
        b"-,1\n-,2\n",
        b"1.5,2,3\n4,5,6\n",
        b"street,a,b,c\nx,1,2,3\ny,4,5,-6\n",
        b"a,1e15\nb,1e15\n",
        b"na,1\nnone,2\nnancy,3\n",
    ],
)
def test_fast_and_precise_readers_agree_on_edge_cases(data, monkeypatch):
    _assert_same(data, monkeypatch)
    _assert_same(data, monkeypatch, header=True)
    _assert_same(data, monkeypatch, kind="1d")


FAST_ALPHABET = st.sampled_from(list(",;\t\n\r  0123456789.-+eExinfaNA/=@bé\u00a0"))


@settings(max_examples=300, deadline=None)
@given(st.lists(FAST_ALPHABET, max_size=80).map("".join), st.sampled_from([None, True, False]))
def test_fast_and_precise_readers_agree_on_random_text(text, header):
    with pytest.MonkeyPatch.context() as monkeypatch:
        _assert_same(text.encode("utf-8"), monkeypatch, header=header)


CELL = st.one_of(
    st.integers(-5, 10**6).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["", " ", "NA", "nan", "x", "b1", "Total", "-", "1,5", " 7 ", "0x1f", "n/a", "None"]),
    st.text(alphabet="abcxyz019 -.", max_size=6),
)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 5).flatmap(
        lambda width: st.lists(st.lists(CELL, min_size=width, max_size=width), min_size=1, max_size=30)
    ),
    st.sampled_from([",", ";", "\t"]),
    st.sampled_from(["\n", "\r\n"]),
)
def test_fast_and_precise_readers_agree_on_tables(rows, separator, newline):
    text = newline.join(separator.join(row) for row in rows) + newline
    with pytest.MonkeyPatch.context() as monkeypatch:
        _assert_same(text.encode("utf-8"), monkeypatch)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet="ab\u00e9\u65e5 ", max_size=5), max_size=40))
def test_fingerprints_of_equal_labels_are_equal_and_repeats_are_found(labels):
    import pyarrow as pa

    array = pa.array(labels, type=pa.string())
    prints = uploads_module._fingerprints(array)
    for i, a in enumerate(labels):
        for j, b in enumerate(labels):
            if a == b:
                assert prints[i] == prints[j]
    first = next((b for k, b in enumerate(labels) if b and b in labels[:k]), None)
    assert uploads_module._first_repeated_label(tuple(labels), array) == first
    assert uploads_module._first_repeated_label(tuple(labels)) == first
    if len(labels) > 2:  # a slice of an array has an offset into its buffers
        assert uploads_module._first_repeated_label(tuple(labels[1:]), array[1:]) == next(
            (b for k, b in enumerate(labels[1:]) if b and b in labels[1 : k + 1]), None
        )


# --- labels kept in one Arrow array ------------------------------------------------------------------


def test_labels_behave_like_a_tuple_of_str(monkeypatch):
    from gaussmech_ui.uploads import Labels

    values = ("apple", "", "thé", "=1+1", "pear")
    labels = Labels(values)
    assert len(labels) == 5 and labels[0] == "apple" and labels[-1] == "pear" and labels[2] == "thé"
    assert labels == values and labels == Labels(list(values)) and labels != values[:4]
    assert labels != list(values)  # as a tuple: never equal to a list
    assert labels[1:4] == values[1:4] and isinstance(labels[1:4], Labels) and labels[::2] == values[::2]
    assert hash(labels) == hash(values)
    with pytest.raises(IndexError, match="out of range"):
        labels[5]
    with pytest.raises(IndexError):
        labels[-6]
    monkeypatch.setattr(Labels, "_BLOCK", 2)  # iteration across blocks
    assert tuple(labels) == values and all(type(item) is str for item in labels)
    assert "pear" in labels and labels.index("pear") == 4 and labels.count("") == 1
    assert repr(Labels(["a", "b"])) == "Labels(['a', 'b'])"
    assert repr(Labels([str(i) for i in range(10)])) == "Labels(['0', '1', '2', '3', '4', ...] (10 labels))"


def test_labels_reject_missing_and_non_text():
    import pyarrow as pa

    from gaussmech_ui.uploads import Labels

    with pytest.raises(ValueError, match="missing"):
        Labels(pa.array(["a", None]))
    with pytest.raises(TypeError):
        Labels([1, 2])


def test_labels_pickle_small_even_as_a_slice_of_a_large_array():
    import pickle

    import pyarrow as pa

    from gaussmech_ui.uploads import Labels

    large = Labels(pa.array(["x" * 100] * 10_000))
    part = large[5000:5010]
    copy = pickle.loads(pickle.dumps(part))
    assert copy == part and copy == ("x" * 100,) * 10
    assert len(pickle.dumps(part)) < 10_000  # the slice's 1,000 bytes, not the array's 1,000,000


def test_uploaded_labels_are_labels_and_survive_pickling():
    import pickle

    from gaussmech_ui.uploads import Labels

    data = "label,count\n" + "".join(f"bin {i},{i % 7}\n" for i in range(2000))
    result = parse_histogram_csv(data.encode())
    assert isinstance(result.labels, Labels) and result.labels[1999] == "bin 1999"
    again = pickle.loads(pickle.dumps(result))
    assert again.labels == result.labels and again.counts.tolist() == result.counts.tolist()


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["", "region-0000-", "日本語テキスト"]),
    st.lists(st.text(alphabet="ab\u00e9", max_size=3), min_size=2, max_size=40),
)
def test_repeated_labels_found_past_shared_prefixes(prefix, suffixes):
    labels = [prefix + suffix if suffix else "" for suffix in suffixes]
    first = next((b for k, b in enumerate(labels) if b and b in labels[:k]), None)
    assert uploads_module._first_repeated_label(tuple(labels)) == first


def test_repeated_labels_found_despite_hash_collisions(monkeypatch):
    import numpy as np

    monkeypatch.setattr(uploads_module, "_fingerprints", lambda strings: np.zeros(len(strings), dtype=np.uint64))
    monkeypatch.setattr(uploads_module, "_prefix_keys", lambda strings: np.zeros(len(strings), dtype=np.uint64))
    assert uploads_module._first_repeated_label(("a", "b", "c", "b", "a")) == "b"
    assert uploads_module._first_repeated_label(("a", "b", "c")) is None
    assert uploads_module._first_repeated_label(("", "x", "")) is None


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet="ab\u00e9\u65e5", max_size=12), min_size=1, max_size=30))
def test_prefix_keys_are_equal_exactly_for_equal_lengths_and_first_8_bytes(labels):
    import pyarrow as pa

    keys = uploads_module._prefix_keys(pa.array(labels, type=pa.string()))
    for i, a in enumerate(labels):
        for j, b in enumerate(labels):
            a_bytes, b_bytes = a.encode(), b.encode()
            if len(a_bytes) == len(b_bytes):
                assert (keys[i] == keys[j]) == (a_bytes[:8] == b_bytes[:8])


def test_labels_fingerprint_is_the_text_not_the_buffers():
    """st.cache_data keys figures by Labels.fingerprint (Arrow buffers cannot be hashed its way):
    a slice and a fresh copy of the same text agree, a changed label or an order does not."""
    import pickle

    from gaussmech_ui.uploads import Labels

    labels = Labels([f"bin {i}" for i in range(10)])
    assert labels[2:5].fingerprint() == Labels(["bin 2", "bin 3", "bin 4"]).fingerprint()
    assert labels.fingerprint() == pickle.loads(pickle.dumps(labels)).fingerprint()
    assert labels[2:5].fingerprint() != Labels(["bin 2", "bin 3", "bin 5"]).fingerprint()
    assert Labels(["ab", "c"]).fingerprint() != Labels(["a", "bc"]).fingerprint()
    assert Labels([]).fingerprint() != Labels([""]).fingerprint()
