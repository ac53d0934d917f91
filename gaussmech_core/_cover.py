"""Proving that every scale above a point meets a limit, by covering them with intervals.

Where a privacy quantity is not monotone in the noise scale (the discrete Gaussian's sawtooth,
docs/math.md section 9.7), "the smallest scale that meets the limit" is not safe to round up. The
rule is then to return the smallest scale from which **every** larger one meets it, and to prove
it: cover the scales from a candidate up to a point beyond which a monotone bound holds by
intervals [low, high], on each of which an upper bound of the quantity over the whole interval
meets the limit.

Both functions here take that bound as ``bound(rows, low, high)``: for the problems ``rows`` (an
index into the caller's arrays) an upper bound of the quantity at every scale in [low, high],
which at ``low == high`` is the quantity itself (or a bound of it); a scale meets the limit where
the bound is at most ``limit[rows]``.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

Bound = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]

# The cover from the anchor: points at anchor (1 + FIRST r^j), r = RATIO. Where the quantity falls
# as the scale grows, an interval may be about as long as its distance to the anchor
# (docs/math.md section 9.7), so about a hundred intervals cover [anchor, top].
FIRST = 1e-13
RATIO = 1.35
# Intervals the cover could not certify are cut into this many parts, at most this many times
# (16^12 > 1e14: a cover interval is cut down to a relative width below 1e-12).
SUBDIVISIONS = 16
LEVELS = 12
WIDTH = 1e-12  # a part this narrow (relative) that is not certified is "stuck"
# At most this many parts per problem are cut at each level, the highest ones; lower parts are
# counted as stuck (the answer only moves up: safe, and sharp where parts are few). Where the
# quantity is nearly flat (δ near 1) nothing certifies and the answer is then near ``top``.
PARTS_PER_PROBLEM = 64
# uncertified_intervals: beyond this many parts in all, the rest are reported uncertified.
PARTS_IN_ALL = 1 << 15


def _cover(
    bound: Bound, limit: np.ndarray, anchor: np.ndarray, top: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A geometric grid of intervals over [anchor, top], each tested: the (rows, low, high) of
    the intervals that could not be certified."""
    span = np.maximum(top / anchor - 1.0, FIRST)
    count = int(np.ceil(np.max(np.log(span / FIRST)) / math.log(RATIO))) + 2
    steps = FIRST * RATIO ** np.arange(count)
    points = np.minimum(anchor[:, None] * (1.0 + np.concatenate([[0.0], steps]))[None, :], top[:, None])
    points[:, -1] = top
    low, high = points[:, :-1], points[:, 1:]
    rows = np.broadcast_to(np.arange(anchor.size)[:, None], low.shape)
    live = high > low
    certified = np.ones(low.shape, dtype=bool)
    if live.any():
        pick = rows[live]
        certified[live] = bound(pick, low[live], high[live]) <= limit[pick]
    failed = ~certified
    return rows[failed], low[failed], high[failed]


def _subdivide(
    bound: Bound, limit: np.ndarray, rows: np.ndarray, low: np.ndarray, high: np.ndarray
) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Cut each interval into SUBDIVISIONS parts; return the parts, whether each is certified,
    and the inner cut points with whether each fails the limit (one call of ``bound``)."""
    fractions = np.arange(SUBDIVISIONS + 1) / SUBDIVISIONS
    points = low[:, None] + (high - low)[:, None] * fractions[None, :]
    points[:, -1] = high
    part_rows = np.repeat(rows, SUBDIVISIONS)
    part_low, part_high = points[:, :-1].ravel(), points[:, 1:].ravel()
    inner_rows = np.repeat(rows, SUBDIVISIONS - 1)
    inner = points[:, 1:-1].ravel()
    values = bound(
        np.concatenate([part_rows, inner_rows]), np.concatenate([part_low, inner]), np.concatenate([part_high, inner])
    )
    certified = values[: part_rows.size] <= limit[part_rows]
    fails = values[part_rows.size :] > limit[inner_rows]
    return (part_rows, part_low, part_high), certified, (inner_rows, inner, fails)


def _highest_parts(rows, low, high, answer, below):
    """Keep the PARTS_PER_PROBLEM highest parts of each problem; the others count as stuck."""
    order = np.lexsort((-high, rows))
    rows, low, high = rows[order], low[order], high[order]
    rank = np.arange(rows.size) - np.searchsorted(rows, rows, side="left")
    dropped = rank >= PARTS_PER_PROBLEM
    if dropped.any():
        np.maximum.at(answer, rows[dropped], high[dropped])
        np.maximum.at(below, rows[dropped], high[dropped])
    return rows[~dropped], low[~dropped], high[~dropped]


def certified_from(bound: Bound, limit: np.ndarray, anchor: np.ndarray, top: np.ndarray) -> np.ndarray:
    """Per problem, a scale s ≥ ``anchor`` such that every scale in [s, top] is certified.

    The intervals the cover could not certify are cut, all problems at once, until each part is
    certified, lies below a scale that fails, or is narrower than 1e-12 (relative): such a stuck
    part may hold a scale that fails, so s is at least its upper end (``anchor`` where nothing is
    stuck).
    """
    rows, low, high = _cover(bound, limit, anchor, top)
    answer = anchor.copy()  # the highest upper end of a stuck part
    below = anchor.copy()  # no scale at or below this matters any more: one above it fails
    for _ in range(LEVELS):
        relevant = high > below[rows]
        rows, low, high = rows[relevant], low[relevant], high[relevant]
        narrow = high - low <= WIDTH * low
        if narrow.any():
            np.maximum.at(answer, rows[narrow], high[narrow])
            np.maximum.at(below, rows[narrow], high[narrow])
            rows, low, high = rows[~narrow], low[~narrow], high[~narrow]
        if rows.size == 0:
            return answer
        rows, low, high = _highest_parts(rows, low, high, answer, below)
        (rows, low, high), certified, (inner_rows, inner, fails) = _subdivide(bound, limit, rows, low, high)
        np.maximum.at(below, inner_rows[fails], inner[fails])
        rows, low, high = rows[~certified], low[~certified], high[~certified]
    np.maximum.at(answer, rows, high)  # parts left after the last level: kept out, on the safe side
    return answer


def uncertified_intervals(
    bound: Bound, limit: np.ndarray, anchor: np.ndarray, top: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every part of [anchor, top] that cannot be certified, as (rows, low, high): they hold every
    scale in there that fails. A part is left uncertified when both its ends fail, or when it is
    narrower than 1e-12 (relative)."""
    rows, low, high = _cover(bound, limit, anchor, top)
    kept: tuple[list, list, list] = ([], [], [])
    fails_low = np.zeros(rows.size, dtype=bool)
    fails_high = np.zeros(rows.size, dtype=bool)
    for _ in range(LEVELS + 1):
        resolved = (fails_low & fails_high) | (high - low <= WIDTH * low) | (rows.size > PARTS_IN_ALL)
        for store, values in zip(kept, (rows, low, high)):
            store.append(values[resolved])
        rows, low, high = rows[~resolved], low[~resolved], high[~resolved]
        fails_low, fails_high = fails_low[~resolved], fails_high[~resolved]
        if rows.size == 0:
            break
        count = rows.size
        (rows, low, high), certified, (_, _, fails) = _subdivide(bound, limit, rows, low, high)
        inner = fails.reshape(count, SUBDIVISIONS - 1)
        ends_low = np.concatenate([fails_low[:, None], inner], axis=1).ravel()
        ends_high = np.concatenate([inner, fails_high[:, None]], axis=1).ravel()
        rows, low, high = rows[~certified], low[~certified], high[~certified]
        fails_low, fails_high = ends_low[~certified], ends_high[~certified]
    for store, values in zip(kept, (rows, low, high)):
        store.append(values)
    return tuple(np.concatenate(store) for store in kept)  # type: ignore[return-value]
