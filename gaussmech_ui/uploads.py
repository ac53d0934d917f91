"""Reading an uploaded histogram (CSV) into counts, with messages that say what is wrong and where.

Three shapes are read (docs/math.md section 8.5's histograms; the denoising lab's data):

* **one column of counts** (with or without a header row);
* **label and count** columns (or any table with one or more numeric columns: the person picks
  which one holds the counts, ``column=``);
* **a 2-D grid of counts** (a heat map): three or more numeric columns and at most one text
  column (row labels), over two or more rows.

Rules, in the order they are applied (each can be overridden by the caller):

1. **Bytes to text.** UTF-8, with or without a byte-order mark; UTF-16 only with its BOM (what
   spreadsheet programs write as "Unicode text"). Nothing else is guessed: a latin-1 fallback
   would decode *any* bytes and silently garble labels, so undecodable bytes are reported with
   their position instead. NUL bytes mean a binary file.
2. **Separator.** Tab, comma or semicolon, whichever splits the first lines into the same
   number (at least 2) of fields most consistently; ties prefer tab, then comma, then
   semicolon, except that when every comma sits between two digits the commas are taken for
   decimal marks and the semicolon wins. Decimal commas and thousands separators are not
   read: ``1,5`` is reported as not a number.
3. **Rows.** Quotes follow RFC 4180 (``csv`` module, strict). Blank lines and lines of empty
   fields are skipped. Every row must have the number of fields most rows have; extra fields
   that are all empty (spreadsheet padding) are dropped, anything else is a ragged row.
4. **Header.** The first row is a header when one of its cells is text in a column whose other
   cells are numbers (``header=`` overrides this).
5. **Cells.** Read as text (``dtype=str``), stripped, then converted explicitly with
   ``pandas.to_numeric``: labels stay text and are never evaluated. ``""``, ``NA``, ``N/A``,
   ``NaN``, ``null``, ``None`` and ``-`` mean missing. A column is *numeric* (a candidate for
   the counts) when most of its non-missing cells are numbers.
6. **Shape** (``kind=`` overrides): a grid when there are 3+ numeric columns, at most one text
   column and 2+ rows; a single row of 2+ numbers is one histogram; otherwise one column of
   counts, by default the numeric column named like a count (count, n, frequency, ...) or
   else the last numeric column, and the labels are the first other column.
7. **Counts** must be finite, 0 or more, with a total of at most 1e15; fractional counts are
   kept with a warning.

Two readers apply these rules. The **fast reader** hands a file without quotation marks to
pyarrow's CSV parser (C++) and casts whole columns to numbers at once; the **line-precise
reader** (Python's ``csv`` module, every cell through pandas) runs when the fast one declines:
quotation marks, whitespace other than spaces and tabs, rows of different lengths, a blank first
line, or any file pyarrow refuses. Problems in what the fast reader read (a negative count, text
in a column of numbers) are reported with their line from the same data, since without quotation
marks record k is line k + 1. Both give the same result, or the same message, on every file
(checked by a differential test on generated files).

The fast reader makes no Python object per cell: the labels stay in one Arrow string array
(:class:`Labels`), and the checks on them (blank, repeated, a "Total" row) and on the counts are
vectorized. A 10 MiB file of 1e6 rows reads in 2.3-2.8 × the CPU time of ``pandas.read_csv``
with a peak of about 7 × its size (``benchmarks/bench_denoising.py``).

The file is parsed in memory; nothing uploaded is written to disk. :func:`to_safe_csv` writes
downloads with spreadsheet-formula cells escaped.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import io
import operator
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Mapping

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

from .downloads import neutralize_cell

__all__ = [
    "UploadError",
    "Summary",
    "HistogramData",
    "Labels",
    "make_histogram_data",
    "parse_histogram_csv",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_BINS",
    "MAX_TOTAL",
    "csv_escape_cell",
    "to_safe_csv",
    "histogram_frame",
]

DEFAULT_MAX_BYTES = 10 * 1024 * 1024
DEFAULT_MAX_BINS = 1_000_000
# Fields on one line: a 1000 × 1000 grid has 1001; pyarrow's reader makes an object per column,
# and a first line of 524,288 fields overflowed its block size (issue 23, item 4).
MAX_FIELDS_PER_LINE = 10_000
# The line-precise reader (quotation marks, odd whitespace, ragged rows) takes about 0.25 CPU-s per
# MB: above this size a file it would need is refused with the reason and its line, so that one
# upload costs at most about a second of the server's time (issue 23, item 4).
PRECISE_MAX_BYTES = 4 * 1024 * 1024
# Names of columns that hold labels, not counts (compared lower-case): never taken as the counts
# unless the person chooses them (issue 21, item 6: a year column read as the counts).
_LABEL_NAMES = frozenset(
    {"year", "years", "date", "month", "day", "week", "time", "id", "index", "key", "code", "label", "bin", "zip"}
)
_DECIMAL_COMMA_NUMBER = re.compile(r"[+-]?\d*,\d+")
_THOUSANDS_GROUP = re.compile(r"[+-]?\d{1,3},\d{3}")
# Counts above 2**53 ≈ 9e15 are no longer exact in floating point; 1e15 records is ample.
MAX_TOTAL = 1e15
_MISSING = frozenset({"", "na", "n/a", "nan", "null", "none", "-"})
_COUNT_NAMES = frozenset(
    {
        "count",
        "counts",
        "n",
        "freq",
        "frequency",
        "frequencies",
        "total",
        "number",
        "value",
        "values",
        "amount",
        "weight",
    }
)
_TOTAL_NAMES = frozenset({"total", "sum", "all", "grand total", "totals"})
_NON_DECIMAL_COMMA = re.compile(r"(?<!\d),|,(?!\d)")
_SEPARATOR_NAMES = {"\t": "tab", ";": "semicolon", ",": "comma"}
_SAMPLE_LINES = 50
_LOCAL_NUMBER = re.compile(r"[+-]?\d+([,' ]\d+)+")


class UploadError(ValueError):
    """A file that cannot be read as a histogram; the message says what is wrong and where."""


@dataclass(frozen=True)
class Summary:
    """What was read: data rows, bins (counts), their total and the shape of the counts."""

    rows: int
    bins: int
    total: float
    shape: tuple

    def describe(self) -> str:
        """One sentence for people, e.g. "Read 12 rows: 12 bins, total 1,234."."""
        shape = f" ({self.shape[0]} × {self.shape[1]} grid)" if len(self.shape) == 2 else ""
        total = f"{self.total:,.0f}" if float(self.total).is_integer() else f"{self.total:,.6g}"
        return f"Read {self.rows:,} rows: {self.bins:,} bins{shape}, total {total}."


class Labels(Sequence):
    """The labels of a histogram's bins: an immutable sequence of ``str`` kept in one Arrow string array.

    A million labels as a tuple of Python strings take about 64 MB (56 bytes per short string and
    8 per pointer) and 70-100 ms to build; here they take their bytes plus 4 bytes each, built
    without a Python object per label, and they pickle (``st.cache_data`` pickles every cached
    upload) as two buffers. Indexing gives a ``str``, slicing gives ``Labels`` (no copy),
    iterating makes the strings a block at a time, and a ``Labels`` equals a tuple of the same
    strings (or another ``Labels``), as a tuple would. A slice of a larger array keeps that array's buffers
    alive: give ``Labels`` an array of its own (``pyarrow.concat_arrays([array])`` copies one).

    Examples
    --------
    >>> labels = Labels(["apple", "pear", "plum"])
    >>> labels[0], labels[-1], len(labels), labels[1:] == ("pear", "plum"), list(labels)
    ('apple', 'plum', 3, True, ['apple', 'pear', 'plum'])
    """

    __slots__ = ("_array", "_fingerprint")
    _BLOCK = 1 << 16  # strings made per step when iterating

    def __init__(self, values=()):
        if isinstance(values, Labels):
            array = values._array
        elif isinstance(values, (pa.Array, pa.ChunkedArray)):
            array = values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values
            if not pa.types.is_string(array.type):
                array = array.cast(pa.string())
        else:
            array = pa.array(list(values), type=pa.string())
        if array.null_count:
            raise ValueError(f"labels must not be missing; got {array.null_count} missing label(s)")
        self._array = array
        self._fingerprint: bytes | None = None

    def fingerprint(self) -> bytes:
        """A digest of the labels' text (BLAKE2b of the lengths and bytes, read in place), computed once.

        ``st.cache_data`` keys cached figures and computations by it: its own hashing reduces an
        object to pickle's parts, and pyarrow's buffers refuse that protocol.
        """
        if self._fingerprint is None:
            array = self._array
            offsets = np.frombuffer(array.buffers()[1], dtype=np.int32, count=len(array) + 1, offset=4 * array.offset)
            start, end = int(offsets[0]), int(offsets[-1])
            digest = hashlib.blake2b(digest_size=16)
            digest.update(len(array).to_bytes(8, "little"))
            digest.update((offsets - offsets[0]).tobytes())
            data = array.buffers()[2]
            if data is not None:
                digest.update(memoryview(data)[start:end])
            self._fingerprint = digest.digest()
        return self._fingerprint

    def arrow(self) -> pa.Array:
        """The labels as a pyarrow string array (no copy)."""
        return self._array

    def __len__(self) -> int:
        return len(self._array)

    def __getitem__(self, position):
        if isinstance(position, slice):
            return Labels(self._array[position])
        size = len(self._array)
        index = operator.index(position)
        if not -size <= index < size:
            raise IndexError(f"label index {index} out of range for {size} labels")
        return self._array[index % size].as_py()

    def __iter__(self):
        for start in range(0, len(self._array), self._BLOCK):
            yield from self._array.slice(start, self._BLOCK).to_pylist()

    def __eq__(self, other) -> bool:
        if isinstance(other, Labels):
            return self._array.equals(other._array)
        if isinstance(other, tuple):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        if len(self) <= 6:
            return f"Labels({list(self)!r})"
        return f"Labels([{', '.join(map(repr, self[:5]))}, ...] ({len(self):,} labels))"

    def __reduce__(self):
        array = self._array
        if array.get_total_buffer_size() > array.nbytes:  # a slice: pickle only its own bytes
            array = pa.concat_arrays([array])
        return (Labels, (array,))


@dataclass(frozen=True)
class HistogramData:
    """A histogram ready for the denoising lab, from an upload or a built-in example.

    ``counts`` has shape (bins,) for ``kind == "1d"`` and (rows, cols) for ``"2d"``.
    ``labels`` names the bins of a 1-D histogram; ``row_labels``/``column_labels`` those of a
    grid (each ``None`` when the file has none): sequences of ``str``, a :class:`Labels` when
    read from a file's column, else a tuple. ``candidate_columns`` lists the numeric columns
    the person may pick for the counts and ``column`` the one used. ``neighbour_model``,
    ``nonnegative`` and ``prior`` are set by examples that are not plain histograms (Balle &
    Wang's mean estimation): the sensitivity then comes from the data, not from the relation.
    ``first_row_at_bottom`` and ``row_axis_title`` say how a grid is drawn.
    """

    kind: str
    counts: np.ndarray
    labels: Sequence[str] | None
    candidate_columns: tuple
    column: str | None
    summary: Summary
    warnings: tuple = ()
    row_labels: Sequence[str] | None = None
    column_labels: Sequence[str] | None = None
    name: str = ""
    description: str = ""
    has_header: bool = False
    separator: str = ","
    neighbour_model: object | None = None
    nonnegative: bool = True
    prior: tuple | None = None
    # How a grid is drawn: an upload as the file lays it out (its first row on top, its own labels);
    # a map (the car-sharing example) with its first row, the southernmost, at the bottom.
    first_row_at_bottom: bool = False
    row_axis_title: str = "row"

    @property
    def total(self) -> float:
        return self.summary.total


def make_histogram_data(counts, kind=None, *, rows=None, **fields) -> HistogramData:
    """Build a :class:`HistogramData` (with its summary) from an array, for examples and tests."""
    values = np.asarray(counts, dtype=float)
    kind = kind or ("2d" if values.ndim == 2 else "1d")
    summary = Summary(
        rows=int(rows if rows is not None else values.shape[0]),
        bins=int(values.size),
        total=float(values.sum()),
        shape=tuple(values.shape),
    )
    fields.setdefault("labels", None)
    fields.setdefault("candidate_columns", ())
    fields.setdefault("column", None)
    return HistogramData(kind=kind, counts=values, summary=summary, **fields)


# --- bytes to rows -----------------------------------------------------------------------------


def _line_of(data: bytes, position: int) -> int:
    return data.count(b"\n", 0, position) + 1


def _decode(data: bytes) -> str:
    if data.startswith(b"PK\x03\x04"):
        raise UploadError(
            "This is not a CSV file: it looks like an Excel workbook or a zip archive. "
            "Save the sheet as 'CSV UTF-8 (comma delimited)' and upload that."
        )
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as error:
            raise UploadError(
                f"The file starts like UTF-16 text but byte {error.start + 1} cannot be decoded. "
                "Save it as 'CSV UTF-8' and upload again."
            ) from None
    elif b"\x00" in data:
        line = _line_of(data, data.index(b"\x00"))
        raise UploadError(
            f"The file contains a NUL character on line {line}: it looks like a binary "
            "file (or UTF-16 text without its byte-order mark), not a CSV text file."
        )
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            byte = data[error.start]
            raise UploadError(
                f"The file is not UTF-8 text: byte 0x{byte:02x} on line {_line_of(data, error.start)} "
                f"(byte {error.start + 1} of the file) cannot be decoded. Save it as 'CSV UTF-8' and upload again."
            ) from None
    text = text.lstrip("\ufeff")
    nul = text.find("\x00")
    if nul >= 0:
        raise UploadError(
            f"The file contains a NUL character on line {text.count(chr(10), 0, nul) + 1}: "
            "it looks like a binary file, not a CSV text file."
        )
    return text


def _first_lines(text: str, count: int) -> list[str]:
    """The first ``count`` non-blank lines of ``text`` (as ``str.splitlines`` splits), without splitting all of it."""
    size = 1 << 12
    while True:
        head = text[:size]
        lines = head.splitlines()
        if size < len(text):
            lines = lines[:-1]  # the last line of the head may go on past it
        lines = [line for line in lines if line.strip()]
        if len(lines) >= count or size >= len(text):
            return lines[:count]
        size *= 4


def _detect_separator(text: str) -> str:
    """The separator that splits the first lines most consistently into 2+ fields (rule 2)."""
    lines = _first_lines(text, _SAMPLE_LINES)
    sample = "\n".join(lines)
    # Commas that all sit between digits are decimal marks: then a semicolon beats a comma.
    decimal_commas = "," in sample and not _NON_DECIMAL_COMMA.search(sample)
    preferences = ("\t", ";", ",") if decimal_commas else ("\t", ",", ";")
    best, best_score = ",", (0.0, 0)
    for rank, separator in enumerate(preferences):
        try:
            widths = [len(row) for row in csv.reader(lines, delimiter=separator)]
        except csv.Error:  # e.g. a field above csv's size limit; the full read reports it with its line
            continue
        if not widths:
            continue
        width, frequency = Counter(widths).most_common(1)[0]
        if width < 2:
            continue
        score = (frequency / len(widths), -rank)
        if score > best_score:
            best, best_score = separator, score
    return best


def _record_start_lines(text: str, separator: str) -> np.ndarray:
    """The line on which each CSV record starts (a quoted field may span lines); for messages only."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator, strict=True)
    starts, previous_end = [], 0
    try:
        for _ in reader:
            starts.append(previous_end + 1)
            previous_end = reader.line_num
    except csv.Error:
        pass
    starts.append(previous_end + 1)  # where a failing record starts
    return np.array(starts, dtype=np.int64)


class _LineMap:
    """Maps the position of a data row to the line of the file it starts on.

    Valid files never need line numbers, so they are computed (one more pass of the CSV
    reader) only when a message needs one. ``records`` holds the index of each row's CSV
    record; a ``range`` of them with ``one_line_records`` (a file without quotation marks,
    where record k is line k + 1) needs no pass at all.
    """

    def __init__(self, text: str, separator: str, records, starts=None, one_line_records: bool = False):
        self._text, self._separator, self._records = text, separator, records
        self._starts, self._one_line_records = starts, one_line_records

    def __len__(self) -> int:
        return len(self._records)

    def __getitem__(self, position: int) -> int:
        if self._one_line_records:
            return int(self._records[position]) + 1
        if self._starts is None:
            self._starts = _record_start_lines(self._text, self._separator)
        return int(self._starts[self._records[position]])

    def subset(self, selection) -> "_LineMap":
        records = self._records
        if not (isinstance(records, range) and isinstance(selection, slice)):
            records = np.asarray(records)
        return _LineMap(self._text, self._separator, records[selection], self._starts, self._one_line_records)


def _tokenise(text: str, separator: str, max_bins: int = DEFAULT_MAX_BINS) -> list[list[str]]:
    """The records of ``text``, the caps (rows, fields per line) checked as each record is read."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator, strict=True)
    records: list[list[str]] = []
    filled = 0
    try:
        for record in reader:
            if len(record) > MAX_FIELDS_PER_LINE:
                raise UploadError(_too_many_fields(reader.line_num, len(record)))
            records.append(record)
            filled += bool(record)
            if filled > max_bins + 1:
                raise UploadError(
                    f"Too many bins: line {reader.line_num} is row {filled:,} or more; the limit is {max_bins:,} rows."
                )
        return records
    except csv.Error as error:
        start = int(_record_start_lines(text, separator)[-1])
        if "unexpected end of data" in str(error):
            raise UploadError(
                f"A quotation mark opened on line {start} is never closed (the file ends inside a quoted field)."
            ) from None
        raise UploadError(f"Line {reader.line_num} cannot be read as CSV: {error}.") from None


def _too_many_fields(line: int, fields: int) -> str:
    return (
        f"Line {line} has {fields:,} fields; at most {MAX_FIELDS_PER_LINE:,} are read on one line. "
        "Write one count per line (a column of counts) instead of one long row."
    )


def _make_rectangular(rows, lines: _LineMap, separator):
    """Drop empty padding fields and rows; report rows whose number of fields differs from most rows.

    Returns the columns (tuples of cells) and the line map of the rows kept.
    """
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    values, frequencies = np.unique(lengths, return_counts=True)
    # The most common width; between equally common widths, the one met first.
    common = values[frequencies == frequencies.max()]
    width = int(lengths[np.flatnonzero(np.isin(lengths, common))[0]])
    name = _SEPARATOR_NAMES[separator]
    ragged, empty = [], []
    for index in np.flatnonzero(lengths != width):
        row = rows[index]
        if not "".join(row).strip():
            empty.append(index)
        elif len(row) > width and not "".join(row[width:]).strip():
            rows[index] = row[:width]
        else:
            ragged.append((index, len(row)))
    if ragged:
        index, count = ragged[0]
        more = f" ({len(ragged) - 1} more row{'s' if len(ragged) > 2 else ''} like it)" if len(ragged) > 1 else ""
        hint = "a missing value" if count < width else f"an unquoted {name} inside a label, or an extra value"
        raise UploadError(
            f"Ragged rows: line {lines[index]} has {count} field{'s' if count != 1 else ''} but most rows have "
            f"{width} (separator: {name}){more}. Look for {hint} on that line."
        )
    if empty:
        keep = np.ones(len(rows), dtype=bool)
        keep[empty] = False
        rows = [row for row, kept in zip(rows, keep) if kept]
        lines = lines.subset(keep)
    columns = list(zip(*rows))
    # Columns that are empty everywhere (trailing separators on every row) carry nothing.
    return [column for column in columns if "".join(column).strip()], lines


# --- cells --------------------------------------------------------------------------------------


class _Column:
    """One column: the stripped text of its cells, their numbers, and the class of each cell.

    ``text`` is a numpy array of ``str`` (the line-precise reader) or a pyarrow string array
    (the fast reader); it is turned into Python strings only when labels or a message need them.
    """

    def __init__(self, text, numbers: np.ndarray, missing: np.ndarray, is_text: np.ndarray, blank=None):
        self._text, self.numbers, self.missing, self.is_text = text, numbers, missing, is_text
        self._blank = blank

    def __len__(self) -> int:
        return int(self.numbers.size)

    def __getitem__(self, selection) -> "_Column":
        text = self._text
        if not isinstance(text, np.ndarray):
            text = text[selection] if isinstance(selection, slice) else text.filter(pa.array(selection))
        else:
            text = text[selection]
        blank = None if self._blank is None else self._blank[selection]
        return _Column(text, self.numbers[selection], self.missing[selection], self.is_text[selection], blank)

    @property
    def text(self) -> np.ndarray:
        if not isinstance(self._text, np.ndarray):
            self._text = np.asarray(self._text.to_numpy(zero_copy_only=False), dtype=object)
        return self._text

    def cell(self, position: int) -> str:
        if isinstance(self._text, np.ndarray):
            return str(self._text[position])
        return self._text[position].as_py()

    def head(self, count: int) -> list[str]:
        return [self.cell(i) for i in range(min(count, len(self)))]

    def as_labels(self) -> Labels:
        """The cells as :class:`Labels`, in buffers of their own (not a view of the whole table)."""
        if isinstance(self._text, np.ndarray):
            return Labels(pa.array(self._text, type=pa.string()))
        if isinstance(self._text, pa.ChunkedArray):
            return Labels(self._text.combine_chunks(memory_pool=_POOL))  # (a copy, even of one chunk)
        return Labels(pa.concat_arrays([self._text], memory_pool=_POOL))

    def blank(self) -> np.ndarray:
        """Where a cell is empty (after stripping)."""
        if self._blank is None:
            self._blank = self._text == "" if isinstance(self._text, np.ndarray) else _blank_and_longest(self._text)[0]
        return self._blank

    @property
    def numeric_cells(self) -> np.ndarray:
        return ~self.missing & ~self.is_text

    def is_numeric(self) -> bool:
        present = len(self) - _count_true(self.missing)
        numbers = len(self) - _count_true(self.missing | self.is_text) if present else 0
        return numbers > 0 and numbers * 2 > present


def _count_true(mask: np.ndarray) -> int:
    """The number of True values of a boolean array (at once for a broadcast constant)."""
    if mask.ndim == 1 and mask.strides == (0,) and mask.size:
        return mask.size if mask[0] else 0
    return int(np.count_nonzero(mask))


def _classify(values) -> _Column:
    text = pd.Series(values, dtype=str).str.strip()
    missing = text.str.lower().isin(_MISSING).to_numpy()
    numbers = pd.to_numeric(text.where(~missing, None), errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    is_text = ~missing & np.isnan(numbers)
    return _Column(text.to_numpy(dtype=object), numbers, missing, is_text)


def _column_names(header_cells, count):
    names, seen = [], set()
    for j in range(count):
        name = header_cells[j].strip() if header_cells is not None else ""
        if not name or name in seen:
            name = f"column {j + 1}" if not name else f"{name} (column {j + 1})"
        seen.add(name)
        names.append(name)
    return names


def _detect_header(columns: list[_Column]) -> bool:
    """The first row is a header when it has text over a column of numbers."""
    if len(columns[0]) < 2:
        return bool(all(column.is_text[0] for column in columns))
    for column in columns:
        rest = column[1:]
        if column.is_text[0] and rest.is_numeric():
            return True
    return False


def _cell_problem(column: _Column, name: str, position: int, lines, where: str) -> str | None:
    line = lines[position]
    place = f"Line {line}, {where}" + ("" if name == where else f" ('{name}')")
    value = column.cell(position)
    if column.missing[position]:
        return f"{place}: the count is missing."
    if column.is_text[position]:
        hint = (
            " Decimal commas and thousands separators are not read: write 1500 or 1.5."
            if _LOCAL_NUMBER.fullmatch(value)
            else ""
        )
        return f"{place}: {_quote(value)} is not a number.{hint}"
    number = column.numbers[position]
    if not np.isfinite(number):
        return f"{place}: {_quote(value)} is not a finite number."
    if number < 0:
        return f"{place}: {_quote(value)} is negative; counts must be 0 or more."
    return None


def _quote(value: str, limit: int = 40) -> str:
    shown = value if len(value) <= limit else value[: limit - 1] + "…"
    return repr(shown)


def _validate_counts(column: _Column, name: str, index: int, lines) -> np.ndarray:
    # Missing and text cells have NaN numbers: one test finds them, infinities and negatives.
    bad = column.missing | column.is_text
    bad |= ~(np.isfinite(column.numbers) & (column.numbers >= 0))
    if bad.any():
        positions = np.flatnonzero(bad)
        message = _cell_problem(column, name, int(positions[0]), lines, f"column {index + 1}")
        if positions.size > 1:
            message += f" ({positions.size - 1} more problem{'s' if positions.size > 2 else ''} in this column.)"
        raise UploadError(message)
    return np.asarray(column.numbers, dtype=float)


def _no_numeric_column_message(columns: list[_Column], names, lines, first_row=None) -> str:
    best = max(range(len(columns)), key=lambda j: int(columns[j].numeric_cells.sum()))
    shown = first_row if first_row is not None else names
    what = "first row" if first_row is not None else "columns"
    listed = ", ".join(_quote(name) for name in shown[:6]) + (", ..." if len(shown) > 6 else "")
    base = f"No column of numbers found: the file has {len(names)} column{'s' if len(names) != 1 else ''} ({what}: {listed})"
    if columns[best].numeric_cells.any():
        text_rows = np.flatnonzero(columns[best].is_text)
        # Without a detected header, the first row may still be one: point past it when possible.
        later = text_rows[text_rows > 0] if first_row is not None else text_rows
        first_text = int((later if later.size else text_rows)[0])
        return (
            f"{base}. Column {best + 1} has numbers but also text, first on line "
            f"{lines[first_text]}: {_quote(columns[best].cell(first_text))}."
        )
    if any(_LOCAL_NUMBER.fullmatch(value) for column in columns for value in column.head(_SAMPLE_LINES)):
        return (
            f"{base}, and none of them holds plain numbers. Decimal commas and thousands separators "
            "are not read: write 1500 or 1.5, not 1,500 or 1,5."
        )
    return f"{base}, and none of them contains numbers. Counts must be plain numbers such as 12 or 3.5."


def _default_count_column(candidates: list[int], names, has_header: bool) -> int:
    if has_header:
        for j in candidates:
            if names[j].strip().lower() in _COUNT_NAMES:
                return j
    return candidates[-1]


def _label_warnings(labels: Labels) -> list[str]:
    notes = []
    offsets, _ = _buffers(labels.arrow())
    blank = int(np.count_nonzero(offsets[1:] == offsets[:-1]))
    if blank:
        notes.append(f"{blank} label{'s are' if blank > 1 else ' is'} blank.")
    repeated = _first_repeated_label(labels)
    if repeated is not None:
        notes.append(f"Some labels repeat (e.g. {_quote(repeated)}); each row is kept as its own bin.")
    return notes


_HASH_BLOCK = 1 << 18  # bytes hashed per step (more than csv.field_size_limit()), so that temporaries stay small
_HASH_BASE = np.uint64(0x9E3779B97F4A7C15)  # odd, hence invertible modulo 2**64


def _hash_powers() -> tuple[np.ndarray, np.ndarray]:
    """r**i and r**-i modulo 2**64 for i < _HASH_BLOCK (computed once)."""
    if not _HASH_POWERS:
        inverse = np.uint64(pow(int(_HASH_BASE), -1, 2**64))
        powers = np.multiply.accumulate(np.full(_HASH_BLOCK + 1, _HASH_BASE, dtype=np.uint64))
        inverses = np.multiply.accumulate(np.full(_HASH_BLOCK + 1, inverse, dtype=np.uint64))
        powers[1:], inverses[1:] = powers[:-1].copy(), inverses[:-1].copy()
        powers[0] = inverses[0] = 1
        _HASH_POWERS.extend([powers, inverses])
    return _HASH_POWERS[0], _HASH_POWERS[1]


_HASH_POWERS: list = []


def _fingerprints(strings: pa.Array) -> np.ndarray:
    """A 64-bit polynomial hash of every string of a pyarrow string array, computed on its buffers.

    h(s) = sum_k (s_k + 1) r**k mod 2**64 (with its length mixed in), from prefix sums of the
    bytes: h = (P[end] - P[start]) r**-start. Equal strings have equal hashes and different
    strings rarely do; the caller compares the strings whose hashes repeat.
    """
    offsets, data = _buffers(strings)
    offsets = offsets.astype(np.int64)
    powers, inverses = _hash_powers()
    hashes = np.diff(offsets).astype(np.uint64) * np.uint64(0xC2B2AE3D27D4EB4F)
    first = 0
    while first < len(strings):
        low = offsets[first]
        # As many strings as fit in one block (a field is at most csv.field_size_limit() < _HASH_BLOCK).
        last = max(int(np.searchsorted(offsets, low + _HASH_BLOCK, side="right")) - 1, first + 1)
        last = min(last, len(strings))
        high = offsets[last]
        prefix = np.zeros(high - low + 1, dtype=np.uint64)
        np.cumsum((data[low:high].astype(np.uint64) + np.uint64(1)) * powers[: high - low], out=prefix[1:])
        starts, ends = offsets[first:last] - low, offsets[first + 1 : last + 1] - low
        hashes[first:last] ^= (prefix[ends] - prefix[starts]) * inverses[starts]
        first = last
    return hashes


# Masks keeping the first k bytes of a little-endian 8-byte word, k = 0..8.
_HASH_BLOCK_STRINGS = 1 << 16
_BYTE_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype="<u8")


def _prefix_keys(strings: pa.Array) -> np.ndarray:
    """A 64-bit key of every string from its length and first 8 bytes: different keys mean different strings.

    One pass over the strings rather than over their bytes, which proves most sets of labels
    distinct; equal keys only mark the strings to hash in full (:func:`_first_repeated_label`).
    """
    offsets, data = _buffers(strings)
    keys = np.empty(len(strings), dtype="<u8")
    for start in range(0, len(strings), _HASH_BLOCK_STRINGS):  # in blocks, so that temporaries stay small
        stop = min(start + _HASH_BLOCK_STRINGS, len(strings))
        low, high = int(offsets[start]), int(offsets[stop])
        padded = np.zeros(high - low + 8, dtype=np.uint8)
        padded[: high - low] = data[low:high]
        # The 8 bytes from every position of the block's text, as (unaligned) little-endian words.
        windows = np.ndarray(shape=(high - low + 1,), dtype="<u8", buffer=padded, strides=(1,))
        lengths = np.diff(offsets[start : stop + 1])
        words = windows[offsets[start:stop] - low]
        words &= _BYTE_MASKS[np.minimum(lengths, 8)]  # bytes past a short string's end are the next one's
        words ^= lengths.astype(np.uint64) * _HASH_BASE
        keys[start:stop] = words
    return keys


def _first_repeated_label(labels: Sequence[str], text: pa.Array | None = None) -> str | None:
    """The first non-blank label (in file order) equal to an earlier one, or None.

    Works on the labels' pyarrow array (``text``, or that of ``labels``), vectorized: labels
    whose :func:`_prefix_keys` (length and first 8 bytes) are unique cannot repeat; among the
    others, the first whose :func:`_fingerprints` hash was met before is compared with the
    earlier labels of that hash. Only when that is a hash collision are the labels compared
    one by one as strings.
    """
    if len(labels) < 2:
        return None
    array = text if text is not None else Labels(labels).arrow()
    offsets, _ = _buffers(array)
    candidates = np.flatnonzero(offsets[1:] != offsets[:-1])  # blank labels are not repeats
    subset = array if candidates.size == len(array) else array.take(pa.array(candidates))
    keys = _prefix_keys(subset)
    keys.sort()  # in place: proving every key distinct (the common case) needs no copy
    if not (keys[1:] == keys[:-1]).any():
        return None
    del keys
    candidates = candidates[pd.Series(_prefix_keys(subset)).duplicated(keep=False).to_numpy()]
    subset = array.take(pa.array(candidates))
    hashes = _fingerprints(subset)
    met_before = np.flatnonzero(pd.Series(hashes).duplicated(keep="first").to_numpy())
    if not met_before.size:
        return None
    first = int(met_before[0])
    label = subset[first].as_py()
    same_hash = subset.slice(0, first).filter(pa.array(hashes[:first] == hashes[first]))
    if pc.any(pc.equal(same_hash, label)).as_py():
        return label
    seen = set()  # a hash collision (rare by chance, possible by design): compare the labels themselves
    for label in subset.to_pylist():
        if label in seen:
            return label
        seen.add(label)
    return None


def _total_row_warnings(labels, counts: np.ndarray, lines) -> list[str]:
    """Spreadsheet exports often end with a "Total" row, which would count every record twice."""
    notes = []
    if counts.size < 2:
        return notes
    grand_total = float(counts.sum())
    for position in np.flatnonzero(counts == grand_total / 2):  # (halving is exact)
        label = labels[position]
        if label.strip().lower() in _TOTAL_NAMES:
            notes.append(
                f"The row {_quote(label)} on line {lines[position]} equals the sum of the other rows; "
                "remove it, or every record is counted twice."
            )
    return notes


def _blocks(values: np.ndarray, size: int = 1 << 16):
    """Consecutive views of at most ``size`` values, so that the temporaries of a test on each stay small."""
    return (values[start : start + size] for start in range(0, values.size, size))


def _count_warnings(counts: np.ndarray) -> list[str]:
    notes = []
    fractional = sum(int(np.count_nonzero(np.modf(block)[0])) for block in _blocks(counts.reshape(-1)))
    if fractional:
        notes.append(
            f"{fractional:,} count{'s are' if fractional > 1 else ' is'} not a whole number; they are used as "
            "given (the sensitivity still assumes one record adds 1 to one bin)."
        )
    if counts.size and not counts.any():
        notes.append("All counts are 0.")
    return notes


def _check_total(counts: np.ndarray, max_bins: int, lines=None) -> float:
    if counts.size > max_bins:
        raise UploadError(f"Too many bins: the file has {counts.size:,} counts; the limit is {max_bins:,}.")
    total = float(np.sum(counts))
    if not total <= MAX_TOTAL:
        where = ""
        if lines is not None and counts.size:
            position = int(np.unravel_index(int(np.argmax(counts)), counts.shape)[0])
            largest = float(np.max(counts))
            where = f" The largest count, {largest:.3g}, is on line {lines[position]}."
        raise UploadError(f"The counts add up to {total:.3g}, above the supported total of {MAX_TOTAL:.0e}.{where}")
    return total


# --- the two readers -------------------------------------------------------------------------------
#
# Both return the same thing: the columns (classified cells) and the map from data rows to lines.
# The fast reader hands the file to pyarrow's CSV parser and casts whole columns to numbers in C;
# it declines (returns None) whenever it cannot be sure to read exactly what the line-precise
# reader reads, which is then run and reports problems with their lines. Declined: quotation
# marks (their rules and errors are the csv module's), whitespace other than space and tab
# (``str.strip`` removes more than pyarrow trims), a blank first line, and anything pyarrow
# rejects (rows of different lengths, above all). tests/ui/test_uploads.py checks that both
# readers give the same result, or the same message, on generated files.

# The C library's allocator, which returns large blocks to the system when they are freed;
# pyarrow's default pool keeps them, which after a 10 MB upload held ~50 MB more per process.
_POOL = pa.system_memory_pool()

# Whitespace that str.strip() removes besides space, tab, CR and LF (every c with c.isspace()).
_OTHER_WHITESPACE = "\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
_OTHER_WHITESPACE_PATTERN = re.compile("[" + _OTHER_WHITESPACE + "]")


def _check_row_count(records: int, max_bins: int) -> None:
    if records == 0:
        raise UploadError("The file contains only blank lines.")
    if records > max_bins + 1:
        raise UploadError(f"Too many bins: the file has {records - 1:,} or more rows; the limit is {max_bins:,}.")


def _read_precise(text: str, separator: str, max_bins: int):
    """Every record through Python's csv module and every cell through :func:`_classify`."""
    records = _tokenise(text, separator, max_bins)
    record_index = np.flatnonzero(np.fromiter(map(len, records), dtype=np.int64, count=len(records)))
    _check_row_count(record_index.size, max_bins)
    rows = [records[i] for i in record_index]
    del records
    raw_columns, lines = _make_rectangular(rows, _LineMap(text, separator, record_index), separator)
    del rows
    return [_classify_strings(column) for column in raw_columns], lines


def _classify_strings(values) -> "_Column":
    """:func:`_classify` of Python strings, vectorised: stripped as ``str.strip`` does, then read as the fast reader reads.

    The per-cell pandas path took 4.45 CPU-s and +451 MB for a 9.8 MB quoted file (issue 23, item 4).
    """
    stripped = pa.array([value.strip() for value in values], type=pa.string(), memory_pool=_POOL)
    if len(stripped) < 2:
        return _classify(stripped.to_pylist())
    # The first cell apart (a header's text would send the whole column to the per-cell path).
    first = _classify([stripped[0].as_py()])
    rest = _classify_cells(stripped.slice(1))
    head = (first.numbers[0], first.missing[0], first.is_text[0])
    numbers, missing, is_text = (_prepend(value, cells) for value, cells in zip(head, rest))
    return _Column(stripped, numbers, missing, is_text)


def _refuse_large_for_the_precise_reader(text: str, separator: str, size: int) -> None:
    """Refuse a file above :data:`PRECISE_MAX_BYTES` that only the line-precise reader can read, naming why and where."""
    quote = text.find('"')
    other = _OTHER_WHITESPACE_PATTERN.search(text) or re.search("[\x0b\x0c\x1c-\x1f]", text)
    if quote >= 0:
        reason = f"line {text.count(chr(10), 0, quote) + 1} has a quotation mark"
    elif other is not None:
        reason = f"line {text.count(chr(10), 0, other.start()) + 1} has whitespace other than spaces and tabs"
    elif not re.match(r"[^\r\n]*", text).group().strip():
        reason = "line 1 is blank"
    else:
        width = None
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator)
        for record in reader:
            if not "".join(record).strip():
                continue
            if width is None:
                width = len(record)
            elif len(record) != width and "".join(record[width:]).strip():
                name = _SEPARATOR_NAMES[separator]
                raise UploadError(
                    f"Ragged rows: line {reader.line_num} has {len(record)} field{'s' if len(record) != 1 else ''} "
                    f"but the first row has {width} (separator: {name})."
                )
        reason = "its rows cannot be read by the fast reader"
    raise UploadError(
        f"The file is {size / 1e6:.1f} MB and {reason}: such files are read line by line, which is limited to "
        f"{PRECISE_MAX_BYTES / 1e6:.1f} MB. Save it without quotation marks (plain numbers and labels without "
        "separators in them), or upload fewer rows."
    )


def _has_other_whitespace(text: str) -> bool:
    if text.isascii():
        return any(character in text for character in _OTHER_WHITESPACE[:6])
    return _OTHER_WHITESPACE_PATTERN.search(text) is not None


def _buffers(strings: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """The offsets (one more than strings) and the bytes of a pyarrow string array, without copies."""
    index_type = np.int64 if pa.types.is_large_string(strings.type) else np.int32
    offsets = np.frombuffer(strings.buffers()[1], index_type)[strings.offset : strings.offset + len(strings) + 1]
    data = strings.buffers()[2]
    return offsets, (np.frombuffer(data, np.uint8) if data is not None else np.empty(0, np.uint8))


# First bytes of a cell that pandas.to_numeric may read as a number or _MISSING may hold
# ("inf", "nan", "na", "n/a", "null", "none" and signed forms): any other first byte is text.
_MAYBE_FIRST_BYTES = np.zeros(256, dtype=bool)
_MAYBE_FIRST_BYTES[list(b"+-.0123456789iInN")] = True


def _blank_and_longest(cells) -> tuple[np.ndarray, int]:
    """Where a cell of a pyarrow string array or chunked array is empty, and the longest cell's length in bytes.

    From the offsets, a chunk at a time (no array of every length).
    """
    blank, longest = [np.zeros(0, dtype=bool)], 0
    for chunk in cells.chunks if isinstance(cells, pa.ChunkedArray) else [cells]:
        lengths = np.diff(_buffers(chunk)[0])
        blank.append(lengths == 0)
        longest = max(longest, int(lengths.max()) if lengths.size else 0)
    return np.concatenate(blank), longest


def _may_be_number_or_missing(cells) -> np.ndarray:
    """Where a stripped cell may be a number or a missing value (a superset: empty or a first byte in _MAYBE_FIRST_BYTES)."""
    if isinstance(cells, pa.ChunkedArray):
        return np.concatenate([_may_be_number_or_missing(chunk) for chunk in cells.chunks] or [np.zeros(0, bool)])
    offsets, data = _buffers(cells)
    starts, empty = offsets[:-1], offsets[1:] == offsets[:-1]
    first = data[np.minimum(starts, max(data.size - 1, 0))] if data.size else np.zeros(starts.size, np.uint8)
    return empty | _MAYBE_FIRST_BYTES[first]


_CAST_BATCH = 1 << 17


def _numbers_of(cells) -> np.ndarray | None:
    """The numbers of stripped cells (a pyarrow array or chunked array) when every one is a finite number, else None.

    pyarrow's cast to float64 rounds correctly, as pandas.to_numeric does (an integer too: the
    nearest double to it either way), and reads no hexadecimal. "-0" is the one cell read
    differently (-0.0 here, 0 there), so a negative zero is left to :func:`_classify`.
    """
    if len(cells) > 64 and _numbers_of(cells.slice(0, 64)) is None:
        return None  # the first cells already are not numbers: no cast of the whole column
    numbers = np.empty(len(cells))
    # Cast a batch of about _CAST_BATCH cells at a time into the result, so that Arrow's copy of
    # the numbers never exists whole next to it.
    batch, start = [], 0
    for chunk in [*(cells.chunks if isinstance(cells, pa.ChunkedArray) else [cells]), None]:
        if chunk is not None:
            batch.append(chunk)
        if batch and (chunk is None or sum(map(len, batch)) >= _CAST_BATCH):
            try:
                part = pc.cast(pa.chunked_array(batch, type=pa.string()), pa.float64(), memory_pool=_POOL)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                return None
            numbers[start : start + len(part)] = part.to_numpy()
            start, batch = start + len(part), []
    # "nan" is a missing value and "inf" a bad count: their classification is _classify's.
    if not np.isfinite(numbers).all() or np.signbit(numbers[numbers == 0]).any():
        return None
    return numbers


def _classify_cells(cells) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """numbers, missing, is_text of stripped cells (a pyarrow array), exactly as :func:`_classify` gives them.

    Arrays that hold one value throughout are read-only broadcast constants (``np.broadcast_to``).
    """
    size = len(cells)
    numbers = _numbers_of(cells) if size else np.empty(0)
    if numbers is not None:
        return numbers, np.broadcast_to(False, size), np.broadcast_to(False, size)
    # Only the cells that may be a number or a missing value go through pandas; the rest is text.
    where = np.flatnonzero(_may_be_number_or_missing(cells))
    if not where.size:  # a column of text (labels): constants, which take no memory
        return np.broadcast_to(np.nan, size), np.broadcast_to(False, size), np.broadcast_to(True, size)
    numbers, missing, is_text = np.full(size, np.nan), np.zeros(size, dtype=bool), np.ones(size, dtype=bool)
    exact = _classify(cells.take(pa.array(where)).to_numpy(zero_copy_only=False))
    numbers[where], missing[where], is_text[where] = exact.numbers, exact.missing, exact.is_text
    return numbers, missing, is_text


def _read_fast(text: str, data: bytes, separator: str, max_bins: int):
    """The columns read by pyarrow's CSV parser, or None where only the line-precise reader is exact."""
    if '"' in text or _has_other_whitespace(text):
        return None
    first_line = re.match(r"[^\r\n]*", text).group()
    if not first_line.strip():
        return None
    fields = first_line.count(separator) + 1
    if fields > MAX_FIELDS_PER_LINE:
        raise UploadError(_too_many_fields(1, fields))
    names = [f"c{j}" for j in range(fields)]
    # The text's UTF-8 bytes: the file's own (less a byte-order mark), unless it was UTF-16.
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raw = text.encode("utf-8")
    else:
        start = 0
        while data.startswith(codecs.BOM_UTF8, start):  # _decode drops every leading byte-order mark
            start += len(codecs.BOM_UTF8)
        raw = memoryview(data)[start:] if start else data
    try:
        table = pa_csv.read_csv(
            pa.BufferReader(raw),
            # Blocks of 1 MB, or 4 KB per column: in 1 MB blocks a 1000-column file took twice the memory.
            read_options=pa_csv.ReadOptions(
                column_names=names, use_threads=False, block_size=max(1 << 20, 4096 * len(names))
            ),
            memory_pool=_POOL,
            parse_options=pa_csv.ParseOptions(
                delimiter=separator,
                quote_char=False,
                double_quote=False,
                escape_char=False,
                newlines_in_values=False,
                ignore_empty_lines=False,
            ),
            convert_options=pa_csv.ConvertOptions(
                column_types={name: pa.string() for name in names},
                null_values=[],
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
                check_utf8=False,
            ),
        )
    except pa.ArrowException:
        return None
    rows, width = table.num_rows, table.num_columns
    # Every column end to end (column j is cells[j * rows : (j + 1) * rows]), without a copy, so
    # that each step below is one call into pyarrow whatever the number of columns.
    cells = pa.chunked_array([chunk for column in table.columns for chunk in column.chunks], type=pa.string())
    del table
    blank, longest = _blank_and_longest(cells)
    if longest > csv.field_size_limit():
        return None  # the csv module refuses such a field, and says on which line
    # Without quotation marks every line is one record; an empty line is a record of no field,
    # which only a one-column file can hold (it is dropped later with the blank rows).
    empty_lines = int(np.count_nonzero(blank)) if width == 1 else 0
    _check_row_count(rows - empty_lines, max_bins)
    # Cells are stripped of spaces and tabs (the only whitespace left, see above), when there are any.
    padded = " " in text or ("\t" in text and separator != "\t")
    stripped = pc.utf8_trim(cells, characters=" \t", memory_pool=_POOL) if padded else cells
    blank = (_blank_and_longest(stripped)[0] if padded else blank).reshape(width, rows)
    # Columns blank everywhere (a separator ending every line) carry nothing.
    kept = [j for j in range(width) if rows and not blank[j].all()]
    lines = _LineMap(None, separator, range(rows), one_line_records=True)  # needs no text
    if not kept:
        return [], lines
    first = _classify([stripped[j * rows].as_py() for j in kept])
    # Below the first row: first one cast of every column at once (a table of numbers), else
    # each column on its own, classifying exactly only the cells that may be numbers.
    whole = None
    if rows > 1 and len(kept) == width and not (first.missing.any() or first.is_text.any()):
        whole = _numbers_of(stripped)  # a table of numbers from its first row: one cast
    if whole is not None:  # a table of numbers: the cast's own buffer, no cell missing or text
        numbers = whole.reshape(width, rows)
        none = np.broadcast_to(False, rows)
        return [_Column(stripped.slice(j * rows, rows), numbers[j], none, none, blank=blank[j]) for j in kept], lines
    below = pa.chunked_array(  # every kept column below row 0, end to end (no copy)
        [chunk for j in kept for chunk in stripped.slice(j * rows + 1, rows - 1).chunks], type=pa.string()
    )
    sample = pa.chunked_array(  # and the first 64 cells of each
        [chunk for j in kept for chunk in stripped.slice(j * rows + 1, min(rows - 1, 64)).chunks], type=pa.string()
    )
    joint = _numbers_of(below) if rows > 1 and _numbers_of(sample) is not None else None
    del below, sample
    columns = []
    for k, j in enumerate(kept):
        if joint is not None:  # numbers below a first row of text
            none = np.broadcast_to(False, rows - 1)
            rest = (joint[k * (rows - 1) : (k + 1) * (rows - 1)], none, none)
        else:
            rest = _classify_cells(stripped.slice(j * rows + 1, rows - 1))
        head = (first.numbers[k], first.missing[k], first.is_text[k])
        numbers, missing, is_text = (_prepend(value, cells) for value, cells in zip(head, rest))
        columns.append(_Column(stripped.slice(j * rows, rows), numbers, missing, is_text, blank=blank[j]))
    return columns, lines


def _prepend(value, rest: np.ndarray) -> np.ndarray:
    """``value`` followed by ``rest``: a read-only constant (no memory) when ``rest`` is one (``np.broadcast_to``) of that value."""
    if rest.size and rest.strides == (0,):
        same = rest[0] == value or (rest.dtype.kind == "f" and np.isnan(rest[0]) and np.isnan(value))
        if same:
            return np.broadcast_to(rest[0], rest.size + 1)
    joined = np.empty(rest.size + 1, dtype=rest.dtype)
    joined[0], joined[1:] = value, rest
    return joined


# --- the entry point ----------------------------------------------------------------------------

_FILLED_LINE = re.compile(r"^[ \t\r]*\S", re.MULTILINE)


def _check_rows_while_reading(text: str, max_bins: int) -> None:
    """Refuse a file of more than ``max_bins`` + 1 non-blank lines at the first line past the cap, before any parse."""
    if text.count("\n") <= max_bins + 1:
        return
    for filled, match in enumerate(_FILLED_LINE.finditer(text), start=1):
        if filled > max_bins + 1:
            line = text.count("\n", 0, match.start()) + 1
            raise UploadError(
                f"Too many bins: line {line:,} is row {filled:,} or more; the limit is {max_bins:,} rows "
                "(and a header)."
            )


def _looks_like_decimal_commas(column: "_Column") -> bool:
    """A column of text whose cells (below a possible header) are numbers written with a decimal comma."""
    if column.is_numeric():
        return False
    cells = [cell for cell in column.head(_SAMPLE_LINES + 1)[1:] if cell.lower() not in _MISSING]
    return (
        bool(cells)
        and all(_DECIMAL_COMMA_NUMBER.fullmatch(cell) or _PLAIN_NUMBER.fullmatch(cell) for cell in cells)
        and any("," in cell for cell in cells)
    )


def _read_decimal_commas(column: "_Column", name_of_column: str) -> "_Column":
    """The column with its decimal commas read as decimal points (issue 21, item 6), or an UploadError.

    A comma followed by exactly three digits in every cell (``1,500``) may be a thousands separator:
    that is refused, naming the column, rather than guessed.
    """
    text = column.text
    commas = [cell for cell in text if "," in cell and _DECIMAL_COMMA_NUMBER.fullmatch(cell)]
    if commas and all(_THOUSANDS_GROUP.fullmatch(cell) for cell in commas):
        raise UploadError(
            f"Column {name_of_column} has numbers such as {_quote(commas[0])}: is the comma a decimal mark "
            "or a thousands separator? Write the counts without thousands separators, with a decimal point "
            "(1500 or 1.5), and upload again."
        )
    read = _classify_strings([cell.replace(",", ".") for cell in text])
    first = _classify([str(text[0])])  # the header cell (or first number) as written
    numbers, missing, is_text = read.numbers.copy(), read.missing.copy(), read.is_text.copy()
    if first.is_text[0]:
        numbers[0], missing[0], is_text[0] = first.numbers[0], first.missing[0], first.is_text[0]
    return _Column(text, numbers, missing, is_text)


def _looks_like_labels(column: "_Column", name: str) -> str | None:
    """Why a numeric column holds labels rather than counts (its name, or years one after another), or None."""
    if name.strip().lower() in _LABEL_NAMES:
        return f"its name {_quote(name)} is that of a label"
    numbers = column.numbers
    if numbers.size >= 3 and np.all(np.isfinite(numbers)):
        steps = np.diff(numbers)
        if np.all(steps == 1) and 1000 <= numbers[0] <= 2999:
            return f"its values {numbers[0]:.0f}, {numbers[1]:.0f}, … go up by one, like years"
    return None


_UNEXPECTED = (OverflowError, MemoryError, RecursionError, csv.Error, pa.ArrowException, IndexError)


def parse_histogram_csv(
    data: bytes,
    filename: str = "upload.csv",
    column: str | None = None,
    *,
    kind: str | None = None,
    header: bool | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_bins: int = DEFAULT_MAX_BINS,
) -> HistogramData:
    """Read a histogram from the bytes of an uploaded CSV file.

    Parameters
    ----------
    data : bytes
        The file's content.
    filename : str
        Its name, used only in messages and as the data set's name.
    column : str, optional
        The numeric column holding the counts (one of ``candidate_columns`` of a first read).
    kind : {"1d", "2d"}, optional
        Force one histogram or a grid instead of the detected shape.
    header : bool, optional
        Force the first row to be (or not be) a header.
    max_bytes, max_bins : int
        Limits on the file size and on the number of counts.

    Returns
    -------
    HistogramData

    Raises
    ------
    UploadError
        With a message saying what is wrong and on which line / column.

    Examples
    --------
    >>> data = parse_histogram_csv(b"fruit,count\\napple,3\\npear,5\\n")
    >>> data.kind, data.counts.tolist(), data.labels, data.summary.describe()
    ('1d', [3.0, 5.0], Labels(['apple', 'pear']), 'Read 2 rows: 2 bins, total 8.')
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"data must be bytes, got {type(data).__name__}")
    data = bytes(data)
    if kind not in (None, "1d", "2d"):
        raise ValueError(f"kind must be None, '1d' or '2d', got kind={kind!r}")
    try:
        return _parse(data, filename, column, kind, header, max_bytes, max_bins)
    except _UNEXPECTED as error:  # every refusal is an UploadError: the page says what, never blames ε, δ or d
        raise UploadError(
            f"The file could not be read ({type(error).__name__}: {_quote(str(error), 80)}); "
            "it is not a CSV file of counts this reader understands."
        ) from None


def _parse(data: bytes, filename, column, kind, header, max_bytes: int, max_bins: int) -> HistogramData:
    """:func:`parse_histogram_csv` after its arguments were checked."""
    if len(data) > max_bytes:
        raise UploadError(
            f"The file is {len(data) / 1e6:.1f} MB ({len(data):,} bytes); the limit is {max_bytes / 1e6:.1f} MB "
            f"({max_bytes:,} bytes). Upload a smaller file (for example fewer rows, or the counts without labels)."
        )
    if not data or data.isspace():  # (not data.strip(), without copying the file)
        raise UploadError("The file is empty." if not data else "The file contains only blank lines.")
    text = _decode(data)
    if not text or text.isspace():
        raise UploadError("The file contains only blank lines.")
    _check_rows_while_reading(text, max_bins)
    separator = _detect_separator(text)
    read = _read_fast(text, data, separator, max_bins)
    if read is None and len(data) > PRECISE_MAX_BYTES:
        _refuse_large_for_the_precise_reader(text, separator, len(data))
    columns, lines = read or _read_precise(text, separator, max_bins)
    del text  # (the line map of the line-precise reader keeps it while it may need it)
    if not columns:
        raise UploadError("The file contains only blank lines.")
    width = len(columns)
    blank_rows = np.logical_and.reduce([column.blank() for column in columns])
    if blank_rows.any():
        # Rows whose fields are all empty (spreadsheet padding such as ",,").
        keep = ~blank_rows
        columns = [column[keep] for column in columns]
        lines = lines.subset(keep)
    reading_notes: list[str] = []
    if separator != ",":  # "2001;3,5": a decimal comma, not a separator (issue 21, item 6)
        for j, candidate in enumerate(columns):
            if _looks_like_decimal_commas(candidate):
                head = candidate.cell(0)
                named = (
                    ""
                    if _DECIMAL_COMMA_NUMBER.fullmatch(head) or _PLAIN_NUMBER.fullmatch(head)
                    else f" ({_quote(head)})"
                )
                columns[j] = _read_decimal_commas(candidate, f"{j + 1}{named}")
                reading_notes.append(f"Column {j + 1}{named} writes decimal commas: 3,5 is read as 3.5.")
    first_row = [column.cell(0) for column in columns]

    has_header = _detect_header(columns) if header is None else bool(header)
    names = _column_names(first_row if has_header else None, width)
    if has_header:
        lines = lines.subset(slice(1, None))
        columns = [column[1:] for column in columns]
    if not lines:
        raise UploadError("The file has a header row but no data rows.")
    data_rows = len(lines)

    candidates = [j for j, c in enumerate(columns) if c.is_numeric()]
    if not candidates:
        raise UploadError(_no_numeric_column_message(columns, names, lines, None if has_header else first_row))
    text_columns = [j for j in range(width) if j not in candidates]
    candidate_names = tuple(names[j] for j in candidates)
    notes: list[str] = list(reading_notes)

    if kind is None and column is not None:
        kind = "1d"
    if kind is None:
        if len(candidates) >= 3 and len(text_columns) <= 1 and data_rows >= 2:
            kind = "2d"
        else:
            kind = "1d"
    common = dict(name=filename, has_header=has_header, separator=separator, candidate_columns=candidate_names)

    if kind == "2d":
        if len(candidates) < 2:
            raise UploadError(f"A grid needs at least two columns of numbers; this file has {len(candidates)}.")
        validated = [_validate_counts(columns[j], names[j], j, lines) for j in candidates]
        row_labels = columns[text_columns[0]].as_labels() if text_columns else None
        del columns  # the parsed table, before the grid is copied out of its numbers
        grid = np.column_stack(validated)
        del validated
        total = _check_total(grid, max_bins, lines)
        if len(text_columns) > 1:
            notes.append(
                f"Only the numeric columns form the grid; text columns other than '{names[text_columns[0]]}' are ignored."
            )
        notes += _count_warnings(grid)
        return HistogramData(
            kind="2d",
            counts=grid,
            labels=None,
            column=None,
            summary=Summary(data_rows, int(grid.size), total, tuple(grid.shape)),
            warnings=tuple(notes),
            row_labels=row_labels,
            column_labels=candidate_names if has_header else None,
            **common,
        )

    if data_rows == 1 and len(candidates) >= 2 and column is None:
        counts = np.array([_validate_counts(columns[j], names[j], j, lines)[0] for j in candidates])
        total = _check_total(counts, max_bins, [lines[0]] * counts.size)
        notes.append("The file has one row of numbers; each number is read as one bin.")
        notes += _count_warnings(counts)
        return HistogramData(
            kind="1d",
            counts=counts,
            labels=Labels(candidate_names) if has_header else None,
            column=None,
            summary=Summary(1, int(counts.size), total, (int(counts.size),)),
            warnings=tuple(notes),
            **common,
        )

    if column is not None:
        if column not in candidate_names:
            options = ", ".join(_quote(name) for name in candidate_names)
            raise UploadError(f"There is no numeric column {_quote(str(column))}; choose one of {options}.")
        chosen = candidates[candidate_names.index(column)]
    else:
        label_like = {j: _looks_like_labels(columns[j], names[j] if has_header else "") for j in candidates}
        counts_like = [j for j in candidates if label_like[j] is None]
        if not counts_like:  # never the counts silently from a column of labels (issue 21, item 6)
            j = candidates[0]
            others = [names[k] for k in text_columns]
            other = (
                f"; the other column{'s' if len(others) > 1 else ''} ({', '.join(map(_quote, others[:4]))}) "
                f"{'hold' if len(others) > 1 else 'holds'} text, not plain numbers"
                if others
                else ""
            )
            raise UploadError(
                f"Column {j + 1} ({_quote(names[j])}) holds numbers, but {label_like[j]}, so it is not read as "
                f"the counts{other}. Put the counts in a column of plain numbers (such as 12 or 3.5), "
                "or name the counts column 'count'."
            )
        chosen = _default_count_column(counts_like, names, has_header)
    counts = _validate_counts(columns[chosen], names[chosen], chosen, lines).copy()  # not a view of the table
    total = _check_total(counts, max_bins, lines)
    others = text_columns + [j for j in candidates if j != chosen]
    label_index = min(others) if others else None
    labels = columns[label_index].as_labels() if label_index is not None else None
    del columns  # the parsed table: counts and labels are copies, and the checks below need neither
    if len(candidates) > 1 and column is None:
        label_note = f" and '{names[label_index]}' as labels" if label_index is not None else ""
        notes.append(
            f"Several columns hold numbers; '{names[chosen]}' is read as the counts{label_note}. "
            "Choose another column if that is wrong."
        )
    if labels is not None:
        notes += _label_warnings(labels)
        notes += _total_row_warnings(labels, counts, lines)
    notes += _count_warnings(counts)
    return HistogramData(
        kind="1d",
        counts=counts,
        labels=labels,
        column=names[chosen],
        summary=Summary(data_rows, int(counts.size), total, (int(counts.size),)),
        warnings=tuple(notes),
        **common,
    )


# --- safe downloads ------------------------------------------------------------------------------

_PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def csv_escape_cell(value):
    """Escape a text cell a spreadsheet would run as a formula (CSV injection).

    The rule of :func:`gaussmech_ui.downloads.neutralize_cell` (a leading apostrophe before
    ``=``, ``+``, ``-``, ``@``, a tab or a carriage return, OWASP's advice), except for text that
    is a plain number such as ``-3.5``, which no spreadsheet evaluates as a formula. Non-text
    values (numbers) are returned unchanged, so negative counts stay numbers.

    Examples
    --------
    >>> csv_escape_cell("=cmd|' /C calc'!A0")
    "'=cmd|' /C calc'!A0"
    >>> csv_escape_cell(-3.5), csv_escape_cell("-3.5"), csv_escape_cell("apple")
    (-3.5, '-3.5', 'apple')
    """
    if isinstance(value, str) and _PLAIN_NUMBER.fullmatch(value):
        return value
    return neutralize_cell(value)


def to_safe_csv(frame: pd.DataFrame) -> str:
    """``frame`` as CSV text (no index) with every text cell and column name passed through :func:`csv_escape_cell`.

    Examples
    --------
    >>> print(to_safe_csv(pd.DataFrame({"label": ["=1+1", "ok"], "count": [-2.0, 3.0]})), end="")
    label,count
    '=1+1,-2.0
    ok,3.0
    """
    safe = frame.copy()
    safe.columns = [csv_escape_cell(str(name)) for name in frame.columns]
    for name in safe.columns:
        if not (pd.api.types.is_numeric_dtype(safe[name]) or pd.api.types.is_bool_dtype(safe[name])):
            safe[name] = safe[name].map(csv_escape_cell)
    return safe.to_csv(index=False, lineterminator="\n")


def histogram_frame(
    columns: Mapping[str, np.ndarray],
    labels=None,
    row_labels=None,
    column_labels=None,
) -> pd.DataFrame:
    """A table of one or more histograms of the same shape, for downloads.

    1-D: a ``bin`` column (the labels, or 1, 2, ...) then one column per entry of ``columns``.
    2-D: long format, ``row`` and ``column`` (labels or 1-based indices) then the values.

    Examples
    --------
    >>> histogram_frame({"true": np.array([1.0, 2.0]), "released": np.array([1.5, 1.0])}).columns.tolist()
    ['bin', 'true', 'released']
    """
    arrays = {name: np.asarray(values, dtype=float) for name, values in columns.items()}
    if not arrays:
        raise ValueError("columns must hold at least one histogram")
    shapes = {array.shape for array in arrays.values()}
    if len(shapes) != 1:
        raise ValueError(f"all histograms must have the same shape, got {sorted(shapes)}")
    shape = shapes.pop()
    if len(shape) == 2:
        rows, cols = shape
        row_names = list(row_labels) if row_labels is not None else list(range(1, rows + 1))
        col_names = list(column_labels) if column_labels is not None else list(range(1, cols + 1))
        table = {
            "row": np.repeat(np.array(row_names, dtype=object), cols),
            "column": np.tile(np.array(col_names, dtype=object), rows),
        }
        table.update({name: array.reshape(-1) for name, array in arrays.items()})
        return pd.DataFrame(table)
    flat = {name: array.reshape(-1) for name, array in arrays.items()}
    size = next(iter(flat.values())).size
    bins = list(labels) if labels is not None else list(range(1, size + 1))
    return pd.DataFrame({"bin": bins, **flat})
