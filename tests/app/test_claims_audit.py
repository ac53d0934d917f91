"""The claims audit: every page, over a grid of settings, and every sentence it generates checked against the numbers.

Each of the 32 settings below (p in {1, 1.5, 2, 4}, d in {1, 10, 100}, both neighbour models, ε from
0.05 to 20, δ from 1e-12 to 0.3, narrow and wide data bounds) renders every page view that makes
claims: the Overview, Noise distributions, Tail probabilities (whole vector), Privacy profiles
(the attack tab), Accuracy vs dimension, the tour's dimension and odds steps, the denoising
lab, and Training (DP-SGD) at its defaults (N = 60,000, B = 256, E = 10). Two kinds of checks (DESIGN.md section 4, "A claims audit"):

* **the claims the layer recorded** (:func:`gaussmech_ui.claims.recording`): each one's own rule
  (``violations()``), and for the rankings of noise widths and expected errors the values and
  their order recomputed from the registry;
* **the sentences as a reader sees them**, independently of the layer: the odds sentence states the
  (ε, δ)-DP promise; an "at most … sure" sentence quotes the largest posterior of a proven
  mechanism in the page's own table; the Overview's winner is the exact minimum and names every
  entry that draws its noise law; at d = 1 the whole-vector bounds are the exact coordinate bounds
  (never Monte Carlo); the tour's dimension caption follows the neighbour model its chart uses.

The pages of one setting are rendered once and shared by its checks.
"""

from __future__ import annotations

import math
import re

import pytest

from gaussmech_core import tails
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.registry_types import Setting
from gaussmech_ui.claims import recording
from gaussmech_ui.claims.odds import PROBABILISTIC_READING, PROMISE, PURE_PROMISE
from gaussmech_ui.claims.ranking import ranked, reader_name
from gaussmech_ui.figures.common import trace_name
from gaussmech_ui.format import format_number
from tests.app.page_helpers import APP_ROOT

ORDERS = (1.0, 1.5, 2.0, 4.0)
DIMS = (1, 10, 100)
MODELS = ("one_coordinate", "all_coordinates")
EPSILONS = (0.05, 0.3, 1.0, 2.5, 8.0, 20.0, 0.7)
DELTAS = (1e-12, 1e-8, 1e-5, 1e-3, 0.3)
BOUNDS = ((0.0, 1.0), (-1000.0, 1000.0))


def _grid() -> list[dict]:
    """32 settings that cover every p, d, model and bound with ε and δ spread over their ranges."""
    grid = []
    for index in range(32):
        lower, upper = BOUNDS[(index // 3) % 2]
        grid.append(
            dict(
                order=ORDERS[index % 4],
                dim=DIMS[index % 3],
                l1_model=MODELS[(index // 4) % 2],
                epsilon=EPSILONS[index % 7],
                delta=DELTAS[index % 5],
                data_lower=lower,
                data_upper=upper,
            )
        )
    return grid


GRID = _grid()

VIEWS = {
    "overview": ("app.py", {}),
    "distributions": ("pages/1_Noise_distributions.py", {}),
    "tails": ("pages/2_Tail_probabilities.py", {"tails_view": "Whole vector"}),
    "attack": ("pages/3_Privacy_profiles.py", {"profiles_view": "What an attacker can do"}),
    "accuracy": ("pages/4_Accuracy_vs_dimension.py", {}),
    "tour_dimension": ("pages/0_Class_tour.py", {"tour_step": "4"}),
    "tour_odds": ("pages/0_Class_tour.py", {"tour_step": "5"}),
    "denoising": ("pages/5_Denoising_lab.py", {}),
    "training": ("pages/6_Training_DP_SGD.py", {}),
}


def _query(values: dict) -> dict[str, str]:
    return {
        "epsilon": repr(values["epsilon"]),
        "delta": repr(values["delta"]),
        "order": repr(values["order"]),
        "dim": str(values["dim"]),
        "l1": values["l1_model"],
        "lower": repr(values["data_lower"]),
        "upper": repr(values["data_upper"]),
    }


def _render(page: str, query: dict[str, str]):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(
        str(APP_ROOT / "app.py"), default_timeout=300
    )  # a hang guard under a loaded machine, not a timing
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page(page)
    with recording() as claims:
        at.run()
    assert not at.exception, (page, [e.value for e in at.exception])
    return at, list(claims)


def _texts(at) -> list[str]:
    texts = []
    for kind in ("markdown", "caption", "info", "warning", "success", "error"):
        texts += [str(element.value) for element in getattr(at, kind)]
    return texts


@pytest.fixture(scope="module")
def rendered():
    """``{(setting index, view): (texts, claims, app)}``, each page view rendered once per setting, on demand."""
    cache: dict = {}

    def get(index: int, view: str):
        if (index, view) not in cache:
            page, extra = VIEWS[view]
            at, claims = _render(page, {**_query(GRID[index]), **extra})
            cache[(index, view)] = (_texts(at), claims, at)
        return cache[(index, view)]

    return get


def _setting(index: int) -> Setting:
    return Setting(**GRID[index])


def _exact(mechanism, setting: Setting, quantity: str) -> float | None:
    if not mechanism.validity(setting).valid:
        return None
    scale = float(mechanism.scale(setting))
    if quantity == "noise std":
        return float(mechanism.coordinate_std(scale, setting))
    return float(mechanism.expected_loss(scale, setting))


def test_the_grid_covers_the_ranges_the_issue_names():
    assert len(GRID) >= 30
    assert {s["order"] for s in GRID} == set(ORDERS) and {s["dim"] for s in GRID} == set(DIMS)
    assert {s["l1_model"] for s in GRID} == set(MODELS) and {(s["data_lower"], s["data_upper"]) for s in GRID} == set(
        BOUNDS
    )
    assert min(s["epsilon"] for s in GRID) == 0.05 and max(s["epsilon"] for s in GRID) == 20.0
    assert min(s["delta"] for s in GRID) == 1e-12 and max(s["delta"] for s in GRID) == 0.3


@pytest.mark.parametrize("index", range(len(GRID)))
def test_every_claim_on_every_page_holds(index, rendered):
    setting = _setting(index)
    problems = []
    for view in VIEWS:
        texts, claims, _ = rendered(index, view)
        if view not in ("denoising",) and not claims:
            problems.append(f"{view}: no claim recorded, so its sentences are not made by the claims layer")
        for claim in claims:
            problems += [f"{view}: {claim.kind} {claim.text[:80]!r}: {problem}" for problem in claim.violations()]
            if claim.kind == "ranking" and claim.quantity in ("noise std", "E‖noise‖₂²"):
                problems += [f"{view}: {problem}" for problem in _ranking_against_registry(claim, claim.setting)]
        problems += [f"{view}: {problem}" for problem in _odds_sentences(texts, setting)]
    assert not problems, "\n".join(problems)


def _ranking_against_registry(claim, setting: Setting) -> list[str]:
    """The recorded values are the registry's, and no entry drawn elsewhere is better than the first place."""
    problems = []
    exact = {key: _exact(MECHANISMS[key], setting, claim.quantity) for key in claim.values}
    for key, value in claim.values.items():
        if exact[key] is None or not math.isclose(value, exact[key], rel_tol=1e-9):
            problems.append(f"{key}'s {claim.quantity} is {value!r}, the registry gives {exact[key]!r}")
    if claim.best:
        best = claim.values[claim.best[0]]
        for place in claim.places[1:]:
            for key in place:
                if (
                    exact[key] is not None
                    and exact[key] < best
                    and not MECHANISMS[key].draws_same_noise(MECHANISMS[claim.best[0]], setting)
                ):
                    problems.append(f"{key} ({exact[key]!r}) is below the first place ({best!r})")
    return problems


def _odds_sentences(texts: list[str], setting: Setting) -> list[str]:
    """Any sentence that gives e^ε states the (ε, δ)-DP promise, never the probabilistic-DP reading."""
    problems = []
    for text in texts:
        if "odds" not in text or "e^ε" not in text:
            continue
        if PROBABILISTIC_READING in text:
            problems.append(f"odds sentence gives the probabilistic-DP reading: {text[:120]!r}")
        if "e^ε =" in text and PROMISE not in text and PURE_PROMISE not in text:
            problems.append(f"odds sentence does not state P[S | in] ≤ e^ε P[S | out] + δ: {text[:120]!r}")
    return problems


_POSTERIOR = re.compile(r"ends at most ([0-9.,]+%) sure")


@pytest.mark.parametrize("index", range(len(GRID)))
def test_at_most_sentences_quote_a_proven_mechanism(index, rendered):
    """ "An observer … ends at most X% sure": X is the largest posterior of a proven mechanism in the page's table."""
    for view in ("attack", "tour_odds"):
        texts, _, at = rendered(index, view)
        tables = [frame.value for frame in at.dataframe if "Posterior at 1% FPR" in frame.value.columns]
        quoted = [match.group(1) for text in texts for match in _POSTERIOR.finditer(text)]
        if not tables:
            assert not quoted
            continue
        table = tables[0]
        proven = table[~table["Guarantee"].str.contains("claimed") & (table["Posterior at 1% FPR"] != "–")]
        if proven.empty:
            assert not quoted
            continue
        largest = max(proven["Posterior at 1% FPR"], key=lambda text: float(text.rstrip("%").replace(",", "")))
        assert quoted == [largest], (view, quoted, largest)
        sentence = next(text for text in texts if _POSTERIOR.search(text))
        names = set(proven.loc[proven["Posterior at 1% FPR"] == largest, "Mechanism"])
        assert any(reader_name(m) in sentence for m in MECHANISMS.values() if m.name in names), sentence


_WINNER = re.compile(
    r"Of the mechanisms with a proven guarantee, (.+?) adds the least noise at d = [0-9,]+: E‖noise‖₂² = ([^.]+(?:\.[0-9]+)?)\."
)


@pytest.mark.parametrize("index", range(len(GRID)))
def test_the_overview_winner_is_the_exact_minimum_and_names_its_ties(index, rendered):
    setting = _setting(index)
    texts, _, _ = rendered(index, "overview")
    values = {
        key: _exact(m, setting, "E‖noise‖₂²")
        for key, m in MECHANISMS.items()
        if ranked(m) and m.validity(setting).valid
    }
    values = {key: value for key, value in values.items() if value is not None and math.isfinite(value)}
    matches = [match for text in texts for match in _WINNER.finditer(text)]
    if not values:
        assert not matches
        return
    assert len(matches) == 1, texts
    phrase, shown = matches[0].groups()
    winner = min(values, key=values.get)
    assert shown == format_number(values[winner]), (shown, values)
    named = [m for m in MECHANISMS.values() if m.short_name in phrase or reader_name(m) in phrase]
    for key in values:
        other = MECHANISMS[key]
        same_law = other.law_at(setting).law == MECHANISMS[winner].law_at(setting).law
        looks_equal = format_number(values[key]) == format_number(values[winner])
        if key != winner and same_law and looks_equal:  # GG(1) and Laplace both "20": the reader must learn why
            assert any(m.draws_same_noise(other, setting) for m in named), (phrase, key)


_VECTOR = re.compile(r"the whole noise vector has l2 length at most: (.+?)\.(?: |$)")


@pytest.mark.parametrize("index", [i for i, s in enumerate(GRID) if s["dim"] == 1])
def test_at_dimension_one_the_vector_bounds_are_exact(index, rendered):
    """‖N‖₂ = |N₁| at d = 1: every bound is the exact coordinate bound, never a Monte Carlo estimate."""
    setting = _setting(index)
    texts, _, _ = rendered(index, "tails")
    listed = [match.group(1) for text in texts for match in _VECTOR.finditer(text)]
    by_name = {}
    for key, mechanism in MECHANISMS.items():
        if mechanism.validity(setting).valid and not mechanism.matrix_valued:
            bound = tails.coordinate_error_bound(mechanism, float(mechanism.scale(setting)), setting, 0.05)
            by_name[key] = format_number(float(bound))
    assert listed, texts
    for listing in listed:
        for key, shown in by_name.items():
            name = trace_name(MECHANISMS[key])
            found = re.search(re.escape(name) + r" ([^;]+)(?:;|$)", listing)
            if found:
                assert found.group(1) == shown, (name, found.group(1), shown)


@pytest.mark.parametrize("index", range(len(GRID)))
def test_the_tour_dimension_caption_follows_the_model_its_chart_uses(index, rendered):
    texts, _, at = rendered(index, "tour_dimension")
    model = at.session_state["l1_model"]  # the model the chart is drawn with (the sidebar's)
    caption = next((text for text in texts if "R1SMG" in text and "d = 1,000" in text), "")
    assert caption, "the dimension step says what its chart draws"
    wrong = "Δ₁ = √d·Δ" if model == "one_coordinate" else "“one coordinate changes”"
    assert wrong not in caption, caption
