"""Each page's "Reproduce in Python" script prints the numbers that page shows, for several settings.

The page is opened from a link (its own values too: α, the draws' mechanism, n and seed, the MVG
shape), its Python tool is opened, the script it shows is run, and every number it prints is
compared, at the page's 3 significant digits, with the page's table or caption.
"""

from __future__ import annotations

import contextlib
import io

import pytest

from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_ui.figures.common import trace_name
from gaussmech_ui.format import format_number, format_percent
from gaussmech_ui.reproduce import parse_output
from tests.app.page_helpers import open_page

BY_NAME = {m.name: m for m in MECHANISMS.values()}
SETTINGS = [
    {},
    {"epsilon": "0.5", "delta": "1e-8", "dim": "20", "l1": "all_coordinates"},
    {"epsilon": "3", "sensitivity": "2", "order": "1.5", "dim": "4"},
]


def _printed(at) -> list[dict[str, list[str]]]:
    """The tables the page's own script prints (the Python tool opened)."""
    at.session_state["page_tools_tab"] = "Python"
    at.run()
    assert not at.exception, at.exception
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(at.code[0].value, "<snippet>", "exec"), {"__name__": "__main__"})
    return parse_output(output.getvalue())


def _table_with(at, column_start: str):
    return next(d.value for d in at.dataframe if any(c.startswith(column_start) for c in d.value.columns))


@pytest.mark.parametrize("query", SETTINGS + [{"tails_alpha": "0.01", "dim": "50"}], ids=str)
def test_the_tail_bounds_table_shows_what_its_snippet_prints(query):
    at = open_page("pages/2_Tail_probabilities.py", **query)
    table = _table_with(at, "Per-coordinate error bound").set_index("Mechanism")
    column = next(c for c in table.columns if c.startswith("Per-coordinate error bound"))
    calibration, bounds = _printed(at)
    shown = 0
    for name, (bound,) in bounds.items():
        label = trace_name(BY_NAME[name])
        if label in table.index:  # the page shows the featured mechanisms (every variant on request)
            assert table.loc[label, column] == format_number(float(bound)), name
            shown += 1
    assert shown == len(table) >= 3


@pytest.mark.parametrize(
    "query",
    SETTINGS + [{"accuracy_mvg_rows": "2", "accuracy_mvg_gamma": "3", "dim": "10", "epsilon": "0.5"}],
    ids=str,
)
def test_the_paper_constants_table_shows_what_its_snippet_prints(query):
    at = open_page("pages/4_Accuracy_vs_dimension.py", **query)
    table = _table_with(at, "Exact E‖n‖₂²").set_index("Mechanism")
    exact_column = next(c for c in table.columns if c.startswith("Exact E‖n‖₂²"))
    _, constants = _printed(at)
    names = {trace_name(BY_NAME[name]): cells for name, cells in constants.items()}
    assert len(names) == len(table)
    for label, row in table.iterrows():
        exact, paper, ratio = (float(c) for c in names[next(n for n in names if label.startswith(n))])
        assert row[exact_column] == format_number(exact), label
        assert row["Ji & Li's constant × Δ²"].endswith(f"= {format_number(paper)}"), label
        assert row["Exact ÷ paper"] == format_number(ratio), label


@pytest.mark.parametrize(
    "query",
    SETTINGS
    + [{"distributions_sample_mechanism": "Laplace", "distributions_draws": "1,000", "distributions_seed": "7"}],
    ids=str,
)
def test_the_draws_caption_shows_what_its_snippet_prints(query):
    at = open_page("pages/1_Noise_distributions.py", distributions_view="Draw samples", **query)
    _, draws = _printed(at)
    ((name, (size, seed, sample_std, exact_std)),) = draws.items()
    if "distributions_seed" in query:  # the link's own values reach the script
        assert (name, size, seed) == ("Laplace", "1000", "7")
    caption = next(i.value for i in at.info if " draws have standard deviation " in i.value)
    assert caption.startswith(
        f"The {int(size):,} draws have standard deviation {format_number(float(sample_std))}; "
        f"the exact value is {format_number(float(exact_std))}."
    ), (name, seed, caption)


@pytest.mark.parametrize(
    "query",
    [
        {},  # the sparse histogram, analytic Gaussian, the default pipeline (soft thresholding, simplex)
        {
            "epsilon": "0.5",
            "denoising_mechanism": "Laplace",
            "denoising_relation": "Replace one record",
            "denoising_draw": "7",
            "denoising_estimator_histogram": "Posterior mean (oracle prior)",
            "denoising_round": "true",
        },
        {  # the data's own prior and neighbour model; the generalized Gaussian at p = 1.5
            "order": "1.5",
            "denoising_data": "Mean estimation",
            "denoising_mechanism": "Generalized Gaussian GG(p)",
            "denoising_estimator_values": "Posterior mean (oracle prior)",
            "denoising_draw": "3",
        },
        {
            "denoising_data": "Car-sharing heat map",
            "denoising_grid_rows": "8",
            "denoising_mechanism": "Discrete Gaussian",
        },
    ],
    ids=str,
)
def test_the_denoising_metrics_table_shows_what_its_snippet_prints(query):
    at = open_page("pages/5_Denoising_lab.py", denoising_repetitions="5", **query)
    table = _table_with(at, "Released (raw)").set_index("Metric")
    _, metrics = _printed(at)
    code = at.code[0].value
    assert "counts = np.array([" in code  # at most 5,000 counts: written into the script
    if "Posterior mean" in str(query):
        assert ("prior = oracle_prior(counts)" in code) == ("Mean estimation" not in str(query))
    shown = table[table["Released (raw)"] != "—"]  # KL only for a histogram
    assert sorted(metrics) == sorted(shown.index) and len(metrics) >= 5
    for name, (released, denoised) in metrics.items():
        relative = name.startswith("relative")
        expected = [format_percent(float(v), 3) if relative else format_number(float(v)) for v in (released, denoised)]
        assert [table.loc[name, "Released (raw)"], table.loc[name, "Denoised"]] == expected, name


def test_a_large_histogram_s_script_reads_its_counts_from_the_csv_offered_beside_it():
    at = open_page("pages/5_Denoising_lab.py", denoising_repetitions="5", denoising_bins="6000")
    at.session_state["page_tools_tab"] = "Python"
    at.run()
    assert not at.exception, at.exception
    code = at.code[0].value
    assert "np.loadtxt('gaussmech-denoising-counts.csv'" in code and "counts = np.array" not in code
    assert "Download its data (CSV)" in [button.label for button in at.get("download_button")]
