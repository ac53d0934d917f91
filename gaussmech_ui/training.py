"""The Training (DP-SGD) page's inputs and work plan: pure, no Streamlit (unit-tested alone).

The page asks for dataset size N, batch size B, epochs E and clipping norm C; the sidebar gives ε
and δ. From them: the Poisson sampling rate q = B/N and the number of steps T = ⌈E·N/B⌉
(:func:`gaussmech_core.dpsgd.steps_for_epochs`, docs/math.md section 13.1). What the page computes
grows with T, so every rerun a link can start has a work budget (DESIGN.md section 3, "Budgets"):
at most :data:`STEP_BUDGET` steps per calibration, and the planner map computes only its cells
within :data:`STEP_BUDGET` (the others are shown empty, with the reason).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from gaussmech_core import dpsgd

from .format import format_number, round_up
from .params import Parameter

__all__ = [
    "STEP_BUDGET",
    "DATASET_SIZE",
    "BATCH_SIZE",
    "EPOCHS",
    "CLIPPING_NORM",
    "PRIOR",
    "SAMPLING_SCHEMES",
    "POISSON",
    "SHUFFLED",
    "SHUFFLING_LABEL",
    "Schedule",
    "InputProblem",
    "schedule",
    "MAX_EPSILON",
    "MIN_DELTA",
    "MAX_DELTA",
    "check_target",
    "epoch_points",
    "planner_axes",
    "planner_cells",
    "flat_cells",
    "steps_of",
    "answer_table",
    "tighten_full_length",
    "shown_table",
    "VERDICT_WORDS",
    "ATTACK_METRICS",
    "percent_or_number",
    "attack_frame",
]

# Beyond these targets a calibration takes a minute (ε = 1000: 36 s alone at T = 2,344) or ends in
# "δ is too small for this accountant" after seconds: the page says so at once instead.
MAX_EPSILON = 50.0
MIN_DELTA = 1e-20
MAX_DELTA = 0.3  # δ = 0.5 took 12 s, δ = 0.999999 over 5 minutes (ε = 1, T = 2,344); δ = 0.3 takes 4-8 s

# A calibration at T = 2,344 steps takes 0.4-0.8 s, at T = 1e5 about 14 s on this machine under load:
# the page computes nothing beyond 25,000 steps (the CLI `python -m gaussmech_core dpsgd` does).
STEP_BUDGET = 25_000

DATASET_SIZE = Parameter(
    name="dpsgd_dataset_size",
    symbol="N",
    label="Dataset size N",
    url_key="dpsgd_dataset_size",
    default=60_000,
    kind="int",
    control="entry",
    lower=1,
    upper=10**9,
    help="The number of training examples.",
)
BATCH_SIZE = Parameter(
    name="dpsgd_batch_size",
    symbol="B",
    label="Batch size B",
    url_key="dpsgd_batch_size",
    default=256,
    kind="int",
    control="entry",
    lower=1,
    upper=10**9,
    help="The expected batch size: each example joins each step's batch with probability q = B/N.",
)
EPOCHS = Parameter(
    name="dpsgd_epochs",
    symbol="E",
    label="Epochs E",
    url_key="dpsgd_epochs",
    default=10.0,
    kind="float",
    control="entry",
    lower=0.0,
    upper=1e6,
    help="Passes over the data: T = ⌈E·N/B⌉ steps. Must be above 0.",
)
CLIPPING_NORM = Parameter(
    name="dpsgd_clipping_norm",
    symbol="C",
    label="Clipping norm C",
    url_key="dpsgd_clipping_norm",
    default=1.0,
    kind="float",
    control="entry",
    lower=1e-12,
    upper=1e12,
    help="Each example's gradient is clipped to L2 norm C; the noise on the summed gradient has std σ·C.",
)
PRIOR = Parameter(
    name="dpsgd_prior",
    symbol="π",
    label="Attacker's prior π",
    url_key="dpsgd_prior",
    default=0.5,
    kind="float",
    control="entry",
    lower=1e-6,
    upper=1.0,
    upper_open=True,
    help="The attacker's belief, before seeing the model, that a given person's example is in the training data.",
)

POISSON = "Poisson sampling"
SHUFFLED = "Shuffled batches"
SAMPLING_SCHEMES = (POISSON, SHUFFLED)
SHUFFLING_LABEL = "optimistic: no tight analysis exists for shuffling"


class InputProblem(ValueError):
    """An input the page cannot use; the message names it (shown instead of a traceback)."""


@dataclass(frozen=True)
class Schedule:
    """What the training does: N, B, E, and the sampling rate q = B/N and steps T = ⌈E·N/B⌉ they give."""

    dataset_size: int
    batch_size: int
    epochs: float
    sampling_rate: float
    steps: int

    def at_epochs(self, epochs: float) -> Schedule:
        """The same training stopped (or continued) at ``epochs`` passes."""
        return schedule(self.dataset_size, self.batch_size, epochs, budget=None)

    def with_batch(self, batch_size: int) -> Schedule:
        return schedule(self.dataset_size, batch_size, self.epochs, budget=None)


def schedule(dataset_size: int, batch_size: int, epochs: float, *, budget: int | None = STEP_BUDGET) -> Schedule:
    """The :class:`Schedule` of (N, B, E), or :class:`InputProblem` naming the input that cannot be used.

    >>> s = schedule(60_000, 256, 10)
    >>> round(s.sampling_rate, 6), s.steps
    (0.004267, 2344)
    >>> schedule(100, 256, 10)
    Traceback (most recent call last):
    ...
    gaussmech_ui.training.InputProblem: Batch size B = 256 is larger than the dataset size N = 100: a batch cannot hold more examples than the data (choose B ≤ N).
    """
    if batch_size > dataset_size:
        raise InputProblem(
            f"Batch size B = {batch_size:,} is larger than the dataset size N = {dataset_size:,}: a batch cannot "
            f"hold more examples than the data (choose B ≤ N)."
        )
    if not epochs > 0:
        raise InputProblem(f"Epochs E = {epochs:g}: training needs at least one step (choose E > 0).")
    try:
        q, steps = dpsgd.steps_for_epochs(dataset_size, batch_size, epochs)
    except ValueError as problem:
        raise InputProblem(f"Epochs E = {epochs:g} with N = {dataset_size:,}, B = {batch_size:,}: {problem}.") from None
    if budget is not None and steps > budget:
        raise InputProblem(
            f"Epochs E = {epochs:g} with N = {dataset_size:,} and B = {batch_size:,} make T = {steps:,} steps; this page "
            f"computes at most {budget:,} steps (a calibration's work grows with T). Use fewer epochs or a larger "
            "batch, or the command line: python -m gaussmech_core dpsgd --dataset-size N --batch-size B --epochs E "
            "--epsilon ε --delta δ."
        )
    return Schedule(dataset_size, batch_size, float(epochs), q, steps)


def check_target(epsilon: float, delta: float) -> None:
    """:class:`InputProblem` naming the sidebar's ε or δ where the page will not calibrate (its work budget).

    >>> check_target(1.0, 1e-5)
    >>> check_target(1000.0, 1e-5)
    Traceback (most recent call last):
    ...
    gaussmech_ui.training.InputProblem: The sidebar's ε = 1000 is above 50, the largest this page calibrates DP-SGD for (a calibration there takes about a minute). Choose a smaller ε, or use the command line: python -m gaussmech_core dpsgd --dataset-size N --batch-size B --epochs E --epsilon ε --delta δ.
    """
    command = "python -m gaussmech_core dpsgd --dataset-size N --batch-size B --epochs E --epsilon ε --delta δ"
    if epsilon > MAX_EPSILON:
        raise InputProblem(
            f"The sidebar's ε = {epsilon:g} is above {MAX_EPSILON:g}, the largest this page calibrates DP-SGD for "
            f"(a calibration there takes about a minute). Choose a smaller ε, or use the command line: {command}."
        )
    if delta < MIN_DELTA:
        raise InputProblem(
            f"The sidebar's δ = {delta:g} is below {MIN_DELTA:g}, the smallest this page calibrates DP-SGD for (the "
            f"accountant's bounds need δ above its own error terms). Choose a larger δ, or try the command line: {command}."
        )
    if delta > MAX_DELTA:
        raise InputProblem(
            f"The sidebar's δ = {delta:g} is above {MAX_DELTA:g}, the largest this page calibrates DP-SGD for (a δ that "
            f"large is no meaningful guarantee, and a calibration there takes minutes). Choose a smaller δ, or use the "
            f"command line: {command}."
        )


def epoch_points(epochs: float, count: int = 8) -> list[float]:
    """``count`` training lengths from E/count to E (equal steps), for the ε-against-epochs band.

    >>> epoch_points(10, 5)
    [2.0, 4.0, 6.0, 8.0, 10.0]
    """
    return [epochs * k / count for k in range(1, count + 1)]


def planner_axes(current: Schedule) -> tuple[list[int], list[float]]:
    """The planner map's batch sizes (B/4 … 4B, within [1, N]) and epochs (E/4 … 4E), each including the current.

    >>> planner_axes(schedule(60_000, 256, 10))
    ([64, 128, 256, 512, 1024], [2.5, 5.0, 10.0, 20.0, 40.0])
    """
    factors = (0.25, 0.5, 1.0, 2.0, 4.0)
    batches = sorted({min(current.dataset_size, max(1, math.floor(current.batch_size * f))) for f in factors})
    epochs = [current.epochs * f for f in factors]
    return batches, epochs


def steps_of(current: Schedule, batch_size: int, epochs: float) -> int:
    """T = ⌈E·N/B⌉ of a planner cell, computed or not."""
    return current.with_batch(batch_size).at_epochs(epochs).steps


def planner_cells(current: Schedule, batches: list[int], epochs: list[float]) -> list[list[Schedule | None]]:
    """One row per epochs value, one column per batch size: the cell's schedule, or None beyond the step budget."""
    rows = []
    for length in epochs:
        row: list[Schedule | None] = []
        for batch in batches:
            try:
                row.append(schedule(current.dataset_size, batch, length))
            except InputProblem:
                row.append(None)
        rows.append(row)
    return rows


def flat_cells(cells: list[list[Schedule | None]]):
    """(row, column, cell) of every cell, row by row."""
    return [(i, j, cell) for i, row in enumerate(cells) for j, cell in enumerate(row)]


VERDICT_WORDS = {
    "loose": "valid bound, loose (more noise than needed)",
    "unreachable": "cannot reach the target",
    "unsafe": "underestimates: unsafe",
    "not certified": "below the certified σ: not certified",
}


def answer_table(answer: dict, clipping_norm: float, clt_verdict: str) -> pd.DataFrame:
    """The three σ for the target, with the noise std σ·C and what each is (exact values: the page formats).

    ``clt_verdict`` is the CLT claim's verdict (:func:`gaussmech_ui.claims.dpsgd.clt_claim`).
    """
    rdp = answer["rdp_sigma"]
    clt_words = "approximation, not a bound" if clt_verdict == "loose" else VERDICT_WORDS[clt_verdict]
    rows = [
        ("certified (PLD, this page)", answer["sigma"], "ε_high meets the target: use this (or larger)"),
        ("RDP (Rényi DP)", rdp, VERDICT_WORDS["loose"] if rdp is not None else VERDICT_WORDS["unreachable"]),
        ("CLT (Gaussian-DP approximation)", answer["clt_sigma"], clt_words),
    ]
    return pd.DataFrame(
        [
            {
                "accountant": name,
                "σ (noise multiplier)": sigma,
                "noise std σ·C": None if sigma is None else sigma * clipping_norm,
                "what it is": meaning,
            }
            for name, sigma, meaning in rows
        ]
    )


def shown_table(table: pd.DataFrame) -> pd.DataFrame:
    """The σ table as the page shows it: 4 significant digits, the two bounds' σ rounded **up**.

    A σ shown below the certified one would be a σ the guarantee does not cover; RDP's is a valid
    bound too, so it is rounded up as well. The CLT's is an approximation and is rounded to nearest.
    The exact values are in the CSV (:func:`answer_table`).
    """
    shown = table.copy().astype(object)
    for row in range(len(shown)):
        safe_side = row < 2  # the certified and the RDP σ
        for column in ("σ (noise multiplier)", "noise std σ·C"):
            value = table[column].iloc[row]
            if value is None or pd.isna(value):
                shown.iloc[row, shown.columns.get_loc(column)] = "—"
            else:
                shown.iloc[row, shown.columns.get_loc(column)] = format_number(
                    round_up(float(value), 4) if safe_side else float(value), 4
                )
    return shown


ATTACK_METRICS = (
    ("TPR at 0.1% FPR, at most", "tpr_0001"),
    ("TPR at 1% FPR, at most", "tpr_001"),
    ("Advantage, at most", "advantage"),
    ("Posterior, at most", "posterior"),
)


def percent_or_number(name: str, value: float) -> str:
    """A metric's text: rates and beliefs as percentages, the advantage as a number (value already rounded up)."""
    if name == "advantage":
        return format_number(value)
    return f"{format_number(100.0 * value)}%"


def attack_frame(risk: dict) -> pd.DataFrame:
    """The attack numbers, exact (upper bounds), one row each."""
    return pd.DataFrame(
        [
            dict(quantity="TPR at FPR 0.001", upper_bound=risk["tpr_0001"]),
            dict(quantity="TPR at FPR 0.01", upper_bound=risk["tpr_001"]),
            dict(quantity="advantage (TPR - FPR)", upper_bound=risk["advantage"]),
            dict(quantity=f"posterior at FPR 0.001, prior {risk['prior']:g}", upper_bound=risk["posterior"]),
        ]
    )


def epsilon_band(
    sigma: float, delta: float, sampling_rate: float, steps: tuple[int, ...], epochs: tuple[float, ...]
) -> pd.DataFrame:
    """ε against training length at one σ: the certified [ε_low, ε_high], RDP and CLT, one row per length."""
    rows = []
    for count, length in zip(steps, epochs):
        bracket = dpsgd.dpsgd_epsilon(sigma, sampling_rate, count, delta)
        rows.append(
            dict(
                epochs=length,
                steps=count,
                epsilon_low=bracket.low,
                epsilon_high=bracket.high,
                rdp_epsilon=dpsgd.dpsgd_rdp_epsilon(sigma, sampling_rate, count, delta),
                clt_epsilon=dpsgd.dpsgd_clt_epsilon(sigma, sampling_rate, count, delta),
            )
        )
    return pd.DataFrame(rows)


def tighten_full_length(band: pd.DataFrame, answer: dict, steps: int) -> pd.DataFrame:
    """The band with its full-length row(s) narrowed to the answer's bracket (both certified: their intersection).

    The answer's bracket is the intersection of the calibration's and the accountant's at the same σ
    and T (:func:`gaussmech_ui.cached.dpsgd.answer`), so the chart, its caption and the answer quote one bracket.
    """
    band = band.copy()
    full = band["steps"] == steps
    band.loc[full, "epsilon_low"] = band.loc[full, "epsilon_low"].clip(lower=answer["epsilon_low"])
    band.loc[full, "epsilon_high"] = band.loc[full, "epsilon_high"].clip(upper=answer["epsilon_high"])
    return band
