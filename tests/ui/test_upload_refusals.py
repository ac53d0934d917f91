"""Hostile and foreign uploads: every refusal an UploadError naming the line, caps while reading,
a bounded slow path, the exact 10 MiB cap, decimal commas, label columns and grids as laid out
(issue 23 item 4; issue 21 item 6)."""

from __future__ import annotations

import numpy as np
import pytest

from gaussmech_ui.figures import denoising as figures
from gaussmech_ui.uploads import (
    DEFAULT_MAX_BYTES,
    MAX_FIELDS_PER_LINE,
    PRECISE_MAX_BYTES,
    UploadError,
    parse_histogram_csv,
)


def test_a_first_line_of_half_a_million_fields_is_an_upload_error_naming_line_1():
    with pytest.raises(UploadError, match=r"Line 1 has 524,288 fields; at most 10,000"):
        parse_histogram_csv(b",".join([b"1"] * 524_288) + b"\n")


def test_a_long_line_further_down_is_named_by_its_line():
    wide = b'"a",' + b",".join([b"1"] * (MAX_FIELDS_PER_LINE + 5))  # quoted: the line-precise reader
    with pytest.raises(UploadError, match=r"Line 3 has 10,006 fields"):
        parse_histogram_csv(b'"x",1\n"y",2\n' + wide + b"\n")


def test_the_row_cap_is_checked_while_reading_and_names_the_line():
    data = b"count\n" + b"1\n" * 1_500_000
    with pytest.raises(UploadError, match=r"line 1,000,002 is row 1,000,002 or more; the limit is 1,000,000"):
        parse_histogram_csv(data, max_bytes=len(data))
    quoted = b'"count"\n' + b"1\n" * 20
    with pytest.raises(UploadError, match=r"line 12 is row 12 or more; the limit is 10"):
        parse_histogram_csv(quoted, max_bins=10)


def test_a_large_file_that_needs_the_line_precise_reader_is_refused_with_its_line():
    rows = "".join(f'"bin {i}",{i % 10}\n' for i in range(450_000))
    data = ("label,count\n" + rows).encode()
    assert len(data) > PRECISE_MAX_BYTES
    with pytest.raises(UploadError, match=r"line 2 has a quotation mark: such files are read line by line"):
        parse_histogram_csv(data)
    ragged = ("label,count\n" + "".join(f"b{i},{i % 10}\n" for i in range(500_000)) + "x,1,2\n").encode()
    assert len(ragged) > PRECISE_MAX_BYTES
    with pytest.raises(UploadError, match=r"Ragged rows: line 500,002|Ragged rows: line 500002"):
        parse_histogram_csv(ragged)


def test_a_small_quoted_file_is_still_read_line_by_line():
    data = ("label,count\n" + "".join(f'"bin {i}",{i % 10}\n' for i in range(1000))).encode()
    read = parse_histogram_csv(data)
    assert read.counts.size == 1000 and read.labels[3] == "bin 3" and read.column == "count"


def test_a_file_of_exactly_the_documented_10_mib_is_accepted():
    row = b"bin-with-a-long-label-%07d,%d\n"
    rows = b"".join(row % (i, i % 7) for i in range(DEFAULT_MAX_BYTES // len(row % (0, 0)) - 1))
    header = b"label,count\n"
    padding = DEFAULT_MAX_BYTES - len(header) - len(rows) - len(b"first,1\n")
    data = header + b"first" + b"x" * padding + b",1\n" + rows  # the first label takes up the rest
    assert len(data) == DEFAULT_MAX_BYTES
    read = parse_histogram_csv(data)
    assert read.counts.size == rows.count(b"\n") + 1
    with pytest.raises(UploadError, match=r"the limit is 10\.5 MB \(10,485,760 bytes\)"):
        parse_histogram_csv(data + b"\n")


FIFTY_YEARS = "year;count\n" + "".join(f"{2001 + i};{i % 9},{(i * 7) % 10}\n" for i in range(50))


def test_a_semicolon_file_with_decimal_commas_and_a_year_column_is_read_right():
    read = parse_histogram_csv(FIFTY_YEARS.encode(), "years.csv")
    expected = [float(f"{i % 9}.{(i * 7) % 10}") for i in range(50)]
    assert read.column == "count"
    np.testing.assert_array_equal(read.counts, expected)
    assert list(read.labels) == [str(2001 + i) for i in range(50)]
    assert any("decimal commas" in note for note in read.warnings)
    assert read.summary.total == pytest.approx(sum(expected))


def test_a_year_column_is_never_taken_as_the_counts_silently():
    with pytest.raises(UploadError, match=r"Column 1 \('year'\) holds numbers, but its name 'year' is that of a label"):
        parse_histogram_csv(b"year;count\n2001;3.5x\n2002;4y\n")
    with pytest.raises(UploadError, match=r"go up by one, like years"):
        parse_histogram_csv(b"2001\n2002\n2003\n2004\n")
    # Chosen on purpose, it is read.
    assert parse_histogram_csv(b"year,n2\n2001,a\n2002,b\n", column="year").counts.tolist() == [2001, 2002]


def test_thousands_or_decimal_is_refused_naming_the_column():
    with pytest.raises(UploadError, match=r"Column 2 \('count'\) has numbers such as '1,500'"):
        parse_histogram_csv(b"town;count\nA;1,500\nB;2,250\n")


def test_an_uploaded_grid_keeps_its_labels_and_its_first_row_on_top():
    data = parse_histogram_csv(b"region,Mon,Tue,Wed\nnorth,1,2,3\nmiddle,4,5,6\nsouth,7,8,9\n")
    assert data.kind == "2d" and list(data.row_labels) == ["north", "middle", "south"]
    assert tuple(data.column_labels) == ("Mon", "Tue", "Wed")
    assert not data.first_row_at_bottom
    kwargs = dict(
        title="t",
        released_name="Released",
        denoised_name="Denoised",
        released_color="#000000",
        row_labels=data.row_labels,
        column_labels=data.column_labels,
        first_row_at_bottom=data.first_row_at_bottom,
        row_axis_title=data.row_axis_title,
    )
    for build in (figures.comparison_figure, figures.error_figure):
        figure = build(data.counts, data.counts + 1, data.counts, **kwargs)
        layout = figure.layout
        assert layout.yaxis.autorange == "reversed"  # the file's first row is drawn on top
        assert list(layout.yaxis.ticktext) == ["north", "middle", "south"]
        assert list(layout.xaxis.ticktext) == ["Mon", "Tue", "Wed"]
        assert "south → north" not in (layout.yaxis.title.text or "")


def test_the_map_example_keeps_south_at_the_bottom():
    from gaussmech_ui.examples import carshare_heatmap

    data = carshare_heatmap()
    assert data.first_row_at_bottom and "south → north" in data.row_axis_title
