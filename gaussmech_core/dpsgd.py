"""DP-SGD accounting: the Poisson-subsampled Gaussian composed T times, with certified brackets.

One step of DP-SGD with noise multiplier σ (noise standard deviation σ·C for clipping norm C)
and Poisson sampling rate q is, for add/remove neighbours, dominated by the pairs
(docs/math.md section 13.1; Zhu, Dong & Wang 2022)

    remove:  P = (1 − q) N(0, σ²) + q N(1, σ²),   Q = N(0, σ²)
    add:     P = N(0, σ²),                         Q = (1 − q) N(0, σ²) + q N(1, σ²).

The clipping norm cancels: only σ, q and T matter. For each direction the privacy-loss
distribution (PLD) is discretised on the grid h·ℤ twice (section 13.2):

* **pessimistic** (Connect-the-Dots, Doroshenko et al. 2022): each loss value is split between
  its two neighbouring grid points keeping both its P- and Q-mass, a pair that dominates the
  true one, so every δ it gives after composition is an upper bound;
* **optimistic**: a post-processing of the output (each x is sent to a grid point by a kernel
  chosen so that every output symbol's loss is at least its grid point), then rounded down, a
  pair dominated by the true one, so every δ it gives is a lower bound.

Both are composed T times by FFT convolution with repeated squaring (section 13.3); mass cut
from the ends of the grid is moved to the safe side (to +∞ or the window's edge for the upper
bound, to −∞ or the window's edge for the lower bound), and an allowance for the FFT's
round-off is added to the upper δ and subtracted from the lower. ε_high is the ε of the upper
δ-curve, ε_low that of the lower: ε_low ≤ ε ≤ ε_high for the true ε. q = 1 is the Gaussian
mechanism composed T times, computed exactly (μ = √T/σ).

Beside it: the Rényi-DP bound (Mironov, Talwar & Zhang 2019, with the conversion of Balle et al.
2020) and the CLT / Gaussian-DP approximation μ = q √(T (e^{1/σ²} − 1)) (Bu et al. 2020), which
can underestimate ε: :func:`dpsgd_accounting` flags it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy import fft as sp_fft, interpolate, optimize, signal, special

from . import gaussian
from ._validation import as_float_array, require_integer, require_interval

__all__ = [
    "EpsilonBracket",
    "DeltaBracket",
    "DpsgdCalibration",
    "DpsgdAccounting",
    "DpsgdAttackRisk",
    "dpsgd_epsilon",
    "dpsgd_delta",
    "dpsgd_sigma",
    "dpsgd_sigma_curve",
    "dpsgd_rdp_epsilon",
    "dpsgd_rdp_sigma",
    "dpsgd_clt_epsilon",
    "dpsgd_clt_sigma",
    "dpsgd_accounting",
    "dpsgd_attack_risk",
    "dpsgd_sigma_for_attack",
    "steps_for_epochs",
]

Progress = Callable[[float], None]

# Largest dataset size N accepted (exact as a double, so that q = B/N is exact to rounding).
_MAX_DATASET_SIZE = 2**53
# Largest coarsening of the grid a caller may ask for (2^30 times the default step).
_MAX_COARSEN = 30
# The PLD is computed for σ in this range. Below it the per-step loss spans more than 1/(2σ²) ≈
# 555 and ε is in the hundreds or more (and each composition takes seconds); above it ε is below √T/σ·10 ≤ 3e-4. Outside it the bracket is
# the exact limits: one step's ε below, the RDP and the q = 1 Gaussian composition above
# (docs/math.md section 13.7).
_PLD_SIGMA_MIN = 0.03
_PLD_SIGMA_MAX = 1e8
# ... and for q at least this (below, q T ≤ 1e-5: the record is almost never sampled, and the
# bracket is the same limits, the RDP bound being tight there).
_PLD_SAMPLING_RATE_MIN = 1e-12
# Largest number of compositions and of grid points handled; beyond, the grid is coarsened (the
# bracket stays certified, only wider).
MAX_STEPS = 10**7
_MAX_WINDOW = 1 << 21
# Standard-normal quantile beyond which the per-step distributions are cut (tail mass < 1e-40,
# moved to the safe side).
_TAIL_Z = 13.5
# Mass cut from each end of a composed distribution per convolution (moved to the safe side), at
# most; for a target δ it is also at most δ · _TRIM_SHARE (else the mass moved to +∞ alone would
# exceed δ and the upper bound would be infinite).
_TRIM_MASS = 1e-12
_TRIM_SHARE = 1e-4
# Convolutions with len(a)·len(b) up to this are done directly (relative error), beyond by FFT.
_DIRECT_WORK = 1e6
# Beyond the point where the P-mass left in one step is below this, bins are rounded down.
_NEGLIGIBLE_STEP_MASS = 1e-16
# At most this many bins are balanced (a Python loop); beyond, bins are rounded down.
_BALANCED_BINS = 20_000
# A balanced bin's merged loss is kept this far (relative) above its grid point: covers rounding.
_BALANCE_MARGIN = 1e-12
# FFT round-off: per convolution, ‖error‖₂ ≤ _FFT_CONSTANT · u · log2(n) · ‖a‖₂ ‖b‖₂ (the form of
# Higham, Accuracy and Stability of Numerical Algorithms, §24.1; the constant is 30-60 times the
# error measured against exact convolution), the error in δ is at most √n times that (δ is a sum
# of masses times factors in [0, 1]), and it does not grow through later convolutions (‖e * b‖₁ ≤
# ‖e‖₁ for a probability vector b).
_FFT_CONSTANT = 4.0
_UNIT_ROUNDOFF = 2.0**-53
# The grid step is at most ε/_EPSILON_RESOLUTION (ε rounded down to a power of 2), coarsened or not.
_EPSILON_RESOLUTION = 32.0
# Most grid points of one step's loss for the attack-risk profile.
_ATTACK_WINDOW = 2**14
# The σ(ε) curve: evaluations on a σ grid for its interpolated inverse, and the margin added to
# each point's Newton step before it is certified.
_CURVE_GRID = 10
_CURVE_MARGIN = 1e-4
_CURVE_GRID_SHARE = 0.25  # of the progress bar: the grid's share of the work, roughly
# Relative width at which the calibration's fallback bisection stops (where the secant did not
# settle: each evaluation there is slow, and 1e-4 in σ is far inside the bracket's width).
_FALLBACK_TOLERANCE = 1e-4
# Up to this many steps the grid step is also at most _FEW_STEPS_GRID / T^0.6 (measured at
# q = 0.001: the width at T = 10 and 100 falls from 0.06-0.3 to below 0.01).
_FEW_STEPS = 100
_FEW_STEPS_GRID = 0.006
# Relative step of the calibration's last, safe-side search.
_SIGMA_TOLERANCE = 1e-5
# Without an RDP σ, the calibration searches up to this multiple of the CLT σ.
_SIGMA_CEILING = 2.0**20


# --- validation ------------------------------------------------------------------------------


def _positive(value: float, name: str) -> float:
    array = as_float_array(value, name)
    if array.ndim:
        raise TypeError(f"{name} must be a single number, got {name}={value!r}")
    return float(require_interval(array, name, 0.0, None, lower_open=True))


def _sampling_rate(value: float) -> float:
    array = as_float_array(value, "sampling_rate")
    if array.ndim:
        raise TypeError(f"sampling_rate must be a single number, got sampling_rate={value!r}")
    return float(require_interval(array, "sampling_rate", 0.0, 1.0, lower_open=True))


def _probability(value: float, name: str) -> float:
    array = as_float_array(value, name)
    if array.ndim:
        raise TypeError(f"{name} must be a single number, got {name}={value!r}")
    return float(require_interval(array, name, 0.0, 1.0, lower_open=True, upper_open=True))


def _delta(value: float) -> float:
    """δ in [DELTA_MIN, 1): below the smallest normal double its logarithm loses digits (as in gaussian)."""
    array = as_float_array(value, "delta")
    if array.ndim:
        raise TypeError(f"delta must be a single number, got delta={value!r}")
    return float(require_interval(array, "delta", gaussian.DELTA_MIN, 1.0, upper_open=True))


def _steps(value: int) -> int:
    return require_integer(value, "steps", 1, MAX_STEPS)


def _epsilon_value(value: float) -> float:
    array = as_float_array(value, "epsilon")
    if array.ndim:
        raise TypeError(f"epsilon must be a single number, got epsilon={value!r}")
    return float(require_interval(array, "epsilon", 0.0, None))


def steps_for_epochs(dataset_size: int, batch_size: int, epochs: float) -> tuple[float, int]:
    """(q, T) of DP-SGD over ``epochs`` passes: q = B/N, T = ⌈E·N/B⌉ (docs/math.md section 13.1)."""
    n = require_integer(dataset_size, "dataset_size", 1, _MAX_DATASET_SIZE)
    b = require_integer(batch_size, "batch_size", 1, n)
    e = float(require_interval(as_float_array(epochs, "epochs"), "epochs", 0.0, None, lower_open=True))
    exact = e * (n / b)
    if not exact <= MAX_STEPS:
        raise ValueError(
            f"epochs × dataset_size / batch_size gives {exact:g} steps, more than {MAX_STEPS}; "
            f"got epochs={e:g}, dataset_size={n}, batch_size={b}"
        )
    steps = math.ceil(exact - 1e-9)
    return b / n, max(1, steps)


# --- one step: the two directions' loss functions ---------------------------------------------


def _normal_mass(a: np.ndarray, b: np.ndarray, mean: float, sigma: float) -> np.ndarray:
    """N(mean, σ²)([a, b]) with full relative accuracy in both tails."""
    za = (a - mean) / sigma
    zb = (b - mean) / sigma
    upper = za > 0
    return np.where(upper, special.ndtr(-za) - special.ndtr(-zb), special.ndtr(zb) - special.ndtr(za))


def _mixture_mass(a: np.ndarray, b: np.ndarray, sigma: float, q: float) -> np.ndarray:
    return (1.0 - q) * _normal_mass(a, b, 0.0, sigma) + q * _normal_mass(a, b, 1.0, sigma)


@dataclass(frozen=True)
class _Direction:
    """Per-interval P- and Q-masses of one direction's loss on the grid points l_k = k·h."""

    name: str
    first: int  # grid index of the lowest point
    p_mass: np.ndarray  # P([l_k, l_{k+1}]) for k = first .. last − 1
    q_mass: np.ndarray
    p_below: float  # P(L < l_first)
    p_above: float  # P(L > l_last)


def _x_of_loss_remove(loss: np.ndarray, sigma: float, q: float) -> np.ndarray:
    """x with log((1 − q) + q e^{(2x − 1)/(2σ²)}) = loss; −inf where loss ≤ log(1 − q)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        inner = np.expm1(np.minimum(loss, 30.0)) + q
        # log(e^l − 1 + q) = l + log(1 − (1 − q) e^{−l}) for large l (no overflow)
        log_inner = np.where(
            loss > 30.0,
            loss + np.log1p(-(1.0 - q) * np.exp(-np.maximum(loss, 30.0))),
            np.log(np.where(inner > 0, inner, 1.0)),
        )
        x = sigma * sigma * (log_inner - math.log(q)) + 0.5
    return np.where(inner > 0, x, -np.inf)


def _direction(name: str, sigma: float, q: float, h: float) -> _Direction:
    """The loss L(x) = log(P(x)/Q(x)) of one direction, cut where the P-tails are negligible."""
    x_low, x_high = -_TAIL_Z * sigma, 1.0 + _TAIL_Z * sigma
    if name == "remove":
        loss_low = math.log1p(-q + q * math.exp((2 * x_low - 1) / (2 * sigma * sigma)))
        loss_high = _remove_loss_scalar(x_high, sigma, q)
        first, last = math.floor(loss_low / h), math.ceil(loss_high / h)
        grid = np.arange(first, last + 1) * h
        x = _x_of_loss_remove(grid, sigma, q)
        a, b = x[:-1], x[1:]
        p_mass = _mixture_mass(a, b, sigma, q)
        q_mass = _normal_mass(a, b, 0.0, sigma)
        p_below = float(_mixture_mass(np.array([-np.inf]), x[:1], sigma, q)[0])
        p_above = float(_mixture_mass(x[-1:], np.array([np.inf]), sigma, q)[0])
    else:
        # add: L(x) = −log((1 − q) + q e^{(2x − 1)/(2σ²)}) is decreasing in x; P = N(0, σ²).
        x_low, x_high = -_TAIL_Z * sigma, _TAIL_Z * sigma
        loss_high = -math.log1p(-q + q * math.exp((2 * x_low - 1) / (2 * sigma * sigma)))
        loss_low = -_remove_loss_scalar(x_high, sigma, q)
        first, last = math.floor(loss_low / h), math.ceil(loss_high / h)
        grid = np.arange(first, last + 1) * h
        x = _x_of_loss_remove(-grid, sigma, q)  # decreasing in the grid index
        a, b = x[1:], x[:-1]
        p_mass = _normal_mass(a, b, 0.0, sigma)
        q_mass = _mixture_mass(a, b, sigma, q)
        p_below = float(_normal_mass(x[:1], np.array([np.inf]), 0.0, sigma)[0])
        p_above = float(_normal_mass(np.array([-np.inf]), x[-1:], 0.0, sigma)[0])
    return _Direction(name, first, np.maximum(p_mass, 0.0), np.maximum(q_mass, 0.0), p_below, p_above)


def _remove_loss_scalar(x: float, sigma: float, q: float) -> float:
    exponent = (2 * x - 1) / (2 * sigma * sigma)
    if exponent > 30:
        return exponent + math.log(q) + math.log1p((1 - q) * math.exp(-exponent) / q)
    return math.log1p(q * math.expm1(exponent))


# --- the two discretisations -------------------------------------------------------------------


def _pessimistic(direction: _Direction, h: float) -> tuple[np.ndarray, float]:
    """Connect-the-Dots: split each interval's mass between its ends keeping P- and Q-mass.

    The part sent to the upper end is B/(1 − e^{−h}) with B = P(I) − e^{l_k} Q(I) ≥ 0
    (docs/math.md section 13.2); the tails go to the safe side (below: up to the lowest point;
    above: to +∞). Returns the masses on the grid and the mass at +∞.
    """
    grid_low = (direction.first + np.arange(direction.p_mass.size)) * h
    with np.errstate(divide="ignore"):
        excess = np.maximum(direction.p_mass - np.exp(grid_low + np.log(direction.q_mass)), 0.0)
    up = np.minimum(excess / (-math.expm1(-h)), direction.p_mass)
    mass = np.zeros(direction.p_mass.size + 1)
    mass[1:] += up
    mass[:-1] += direction.p_mass - up
    mass[0] += direction.p_below
    return mass, direction.p_above


def _mixtures(name: str, q: float) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    """(means, P-weights, Q-weights) of the direction in the variable y in which L(y) increases."""
    if name == "remove":
        return (0.0, 1.0), (1.0 - q, q), (1.0, 0.0)
    return (0.0, -1.0), (1.0, 0.0), (1.0 - q, q)  # add, with y = −x


_ROOT_TWO = math.sqrt(2.0)


def _normal_interval(a: float, b: float, mean: float, sigma: float) -> float:
    za, zb = (a - mean) / (sigma * _ROOT_TWO), (b - mean) / (sigma * _ROOT_TWO)
    if za > 0:
        return 0.5 * (math.erfc(za) - math.erfc(zb))
    return 0.5 * (math.erfc(-zb) - math.erfc(-za))


def _optimistic(direction: _Direction, h: float, sigma: float, q: float) -> tuple[np.ndarray, float]:
    """A post-processing of the output onto the grid, each symbol's loss exactly its grid point.

    Symbol k collects the outputs y in a bin [c_{k−1}, c_k) around y(l_k), the cut c_k chosen so
    that the bin's merged loss log(P(bin)/Q(bin)) equals l_k: P(bin) − e^{l_k} Q(bin) = 0, solved
    by safeguarded Newton from left to right. Merging is a post-processing, so the pair of symbol
    distributions is dominated by the true one; where no cut balances a bin (or the mass left is
    negligible) the bin's loss is rounded down instead, which only lowers δ. Mass above the grid is
    rounded down to its top point (docs/math.md section 13.2). Returns the masses and 0 (nothing
    is dropped).
    """
    means, p_weights, q_weights = _mixtures(direction.name, q)
    n_points = direction.p_mass.size + 1
    grid = (direction.first + np.arange(n_points)) * h
    mass = np.zeros(n_points)

    def excess(scale: float, a: float, b: float) -> float:
        """e^{−l} (P(bin) − e^{l} Q(bin)) of the bin [a, b) at grid point l (scale = e^{−l})."""
        return sum(
            (pw * scale - qw) * _normal_interval(a, b, m, sigma)
            for m, pw, qw in zip(means, p_weights, q_weights)
            if pw or qw
        )

    def slope(scale: float, c: float) -> float:
        return sum(
            (pw * scale - qw) * math.exp(-0.5 * ((c - m) / sigma) ** 2)
            for m, pw, qw in zip(means, p_weights, q_weights)
            if pw or qw
        ) / (sigma * math.sqrt(2 * math.pi))

    def p_interval(a: float, b: float) -> float:
        return sum(pw * _normal_interval(a, b, m, sigma) for m, pw in zip(means, p_weights) if pw)

    if direction.name == "remove":
        y_grid = _x_of_loss_remove(grid, sigma, q)
    else:
        y_grid = -_x_of_loss_remove(-grid, sigma, q)  # y = −x; +inf of x becomes −inf
    y_list = y_grid.tolist()
    total_p = 1.0
    used = 0.0
    cut = -math.inf
    for k in range(min(n_points - 1, _BALANCED_BINS)):
        if total_p - used < _NEGLIGIBLE_STEP_MASS:
            break
        level = math.exp(-grid[k])  # scale of the excess: e^{−l_k}, never overflows
        centre = y_list[k]
        upper = y_list[k + 1]
        if not math.isfinite(upper):
            continue  # l_{k+1} is below every loss: symbol k stays empty
        if cut >= centre or not math.isfinite(centre):
            # the bin lies above l_k: no balance possible, keep it empty
            continue
        if excess(level, cut, upper) < 0:
            # even the whole of [cut, y(l_{k+1})) stays below l_k: rounded down to l_{k−1}
            piece = p_interval(cut, upper)
            mass[max(k - 1, 0)] += piece
            used += piece
            cut = upper
            continue
        if excess(level, cut, centre) >= 0:
            continue  # nothing below l_k to balance (negligible mass): leave symbol k empty
        low, high = centre, upper  # excess(low) < 0 ≤ excess(high)
        c = 0.5 * (low + high)
        for _ in range(60):
            value = excess(level, cut, c) - _BALANCE_MARGIN * level * p_interval(cut, c)
            if value < 0:
                low = c
            else:
                high = c
            d = slope(level, c)
            step = c - value / d if d > 0 else 0.5 * (low + high)
            c = step if low < step < high else 0.5 * (low + high)
            if high - low <= 1e-13 * max(1.0, abs(high)):
                break
        piece = p_interval(cut, high)
        mass[k] += piece  # bin [cut, high): merged loss ≥ l_k (excess(high) ≥ 0)
        used += piece
        cut = high
    # the rest: each interval's part above the cut rounded down to its lower point
    lower_ends = np.maximum(y_grid[:-1], cut)
    upper_ends = y_grid[1:]
    rest = upper_ends > cut
    if np.any(rest):
        a_rest, b_rest = lower_ends[rest], upper_ends[rest]
        rest_mass = np.zeros(a_rest.size)
        for m, pw in zip(means, p_weights):
            rest_mass += pw * _normal_mass(a_rest, b_rest, m, sigma)
        mass[:-1][rest] += np.maximum(rest_mass, 0.0)
    mass[-1] += direction.p_above
    return mass, 0.0


def _optimistic_fractions(direction: _Direction, h: float) -> tuple[np.ndarray, float]:
    """A second post-processing onto the grid: each interval split by fractions, not by position.

    Interval I_k sends a fraction w_k of its mass to point k and the rest (less any part set aside)
    to point k + 1, with w_k B_k ≥ u_{k−1}(−A_{k−1}) so that point k's merged loss is at least l_k
    (B_k = P(I_k) − e^{l_k} Q(I_k) ≥ 0, A_{k−1} = P(I_{k−1}) − e^{l_k} Q(I_{k−1}) ≤ 0); a part that
    cannot be balanced stays at l_{k−1}, mass below the grid is dropped, above it rounded down
    (docs/math.md section 13.2). Neither this nor :func:`_optimistic` is tighter everywhere: the
    lower bound is the larger of the two.
    """
    p = direction.p_mass
    n = p.size
    grid = (direction.first + np.arange(n + 1)) * h
    with np.errstate(divide="ignore"):
        log_q = np.log(direction.q_mass)
    above = np.maximum(p - np.exp(grid[:-1] + log_q), 0.0).tolist()  # B_k
    below = np.maximum(np.exp(grid[1:] + log_q) - p, 0.0).tolist()  # −A_k, relative to l_{k+1}
    carry = [0.0] * n  # fraction of I_k sent to point k + 1
    pending = 0.0
    safety = 1.0 + 1e-7  # covers the rounding of B and A
    for k in range(n):
        need = pending * below[k - 1] * safety if k else 0.0
        if need <= above[k]:
            w = need / above[k] if above[k] > 0 else 0.0
        else:
            w = 1.0
            carry[k - 1] = above[k] / (below[k - 1] * safety)
        pending = 1.0 - w
        carry[k] = pending
    carry[n - 1] = 0.0  # nothing above the top point to balance it: stays at l_{n−1}
    carried = np.asarray(carry)
    mass = np.zeros(n + 1)
    mass[:-1] += p * (1.0 - carried)
    mass[1:] += p * carried
    mass[-1] += direction.p_above
    return mass, direction.p_below


# --- composition ------------------------------------------------------------------------------


@dataclass
class _Pmf:
    """Masses on the grid (first + i)·h, the mass at +∞ (upper) or dropped to −∞ (lower), and
    two bounds on the floating-point error: every mass is within a factor (1 ± relative) of its
    exact value up to an ℓ1 error ``absolute`` (docs/math.md section 13.3)."""

    first: int
    mass: np.ndarray
    infinite: float
    relative: float
    absolute: float
    steps: int = 1  # how many steps this distribution composes
    total_steps: int = 1  # of the whole composition: sets how much each cut may hold
    trim_mass: float = _TRIM_MASS  # what the cuts may hold per level of the repeated squaring


def _trim(pmf: _Pmf, upper: bool) -> _Pmf:
    """Cut the ends holding at most _TRIM_MASS · k/T each (k steps of T composed), moving the mass
    to the safe side: a distribution of k steps is used about T/k times, so each level of the
    repeated squaring adds at most _TRIM_MASS to δ.

    Upper bound: the bottom end is rounded up to the first kept point, the top end goes to +∞.
    Lower bound: the bottom end is dropped to −∞, the top end rounded down to the last kept point.
    """
    mass = pmf.mass
    allowed = pmf.trim_mass * pmf.steps / pmf.total_steps
    left = np.cumsum(mass)
    start = int(np.searchsorted(left, allowed, side="right"))
    right = np.cumsum(mass[::-1])
    cut_right = int(np.searchsorted(right, allowed, side="right"))
    stop = mass.size - cut_right
    if start >= stop or (start == 0 and cut_right == 0):
        return pmf
    kept = mass[start:stop].copy()
    low_mass = float(left[start - 1]) if start else 0.0
    high_mass = float(right[cut_right - 1]) if cut_right else 0.0
    infinite = pmf.infinite
    if upper:
        kept[0] += low_mass
        infinite += high_mass
    else:
        kept[-1] += high_mass
        infinite += low_mass
    return _Pmf(
        pmf.first + start, kept, infinite, pmf.relative, pmf.absolute, pmf.steps, pmf.total_steps, pmf.trim_mass
    )


def _gamma(terms: int) -> float:
    """γ_n = n u / (1 − n u): the relative error bound of a sum of n non-negative products."""
    value = terms * _UNIT_ROUNDOFF
    return value / (1.0 - value)


def _convolve(a: _Pmf, b: _Pmf, upper: bool) -> _Pmf:
    """a * b: directly while small (relative error γ_m per mass), else by FFT (absolute error)."""
    relative = a.relative + b.relative + a.relative * b.relative
    absolute = a.absolute + b.absolute
    if a.mass.size * b.mass.size <= _DIRECT_WORK:
        mass = np.convolve(a.mass, b.mass)
        relative = (1.0 + relative) * (1.0 + _gamma(min(a.mass.size, b.mass.size) + 1)) - 1.0
    else:
        size = a.mass.size + b.mass.size - 1
        n = sp_fft.next_fast_len(size, real=True)
        if a is b:
            spectrum = sp_fft.rfft(a.mass, n)
            product = spectrum * spectrum
        else:
            product = sp_fft.rfft(a.mass, n) * sp_fft.rfft(b.mass, n)
        mass = sp_fft.irfft(product, n)[:size]
        np.maximum(mass, 0.0, out=mass)  # the exact masses are ≥ 0: clipping never adds error
        absolute += (
            _FFT_CONSTANT
            * _UNIT_ROUNDOFF
            * math.log2(n)
            * math.sqrt(n)
            * math.sqrt(float(np.sum(np.square(a.mass))) * float(np.sum(np.square(b.mass))))
        )
    infinite = 1.0 - (1.0 - a.infinite) * (1.0 - b.infinite)  # +∞ (or −∞) absorbs
    composed = _Pmf(
        a.first + b.first, mass, infinite, relative, absolute, a.steps + b.steps, a.total_steps, a.trim_mass
    )
    return _trim(composed, upper)


def _compose(
    step: _Pmf, steps: int, upper: bool, progress: Progress | None = None, trim_mass: float = _TRIM_MASS
) -> _Pmf:
    """The T-fold composition by repeated squaring (docs/math.md section 13.3)."""
    result: _Pmf | None = None
    power = _trim(_Pmf(step.first, step.mass, step.infinite, step.relative, step.absolute, 1, steps, trim_mass), upper)
    bits = bin(steps)[2:][::-1]
    for position, bit in enumerate(bits):
        if bit == "1":
            result = power if result is None else _convolve(result, power, upper)
        if position + 1 < len(bits):
            if power.mass.size > _MAX_WINDOW:
                raise MemoryError("window")
            power = _convolve(power, power, upper)
        if progress is not None:
            progress((position + 1) / len(bits))
    assert result is not None
    return result


# --- δ(ε) and ε(δ) of a composed distribution ----------------------------------------------------


@dataclass
class _Curve:
    """δ(ε) = Σ_{l > ε} p_l (1 − e^{ε − l}) + p_∞ of a composed distribution, vectorised.

    For ε in [l_{j−1}, l_j): δ(ε) = T0_j − e^{ε − l_j} T1_j with T0_j = Σ_{i ≥ j} p_i and
    T1_j = Σ_{i ≥ j} p_i e^{−(l_i − l_j)} (every exponent ≤ 0). The floating-point bounds widen
    it: upper (δ + p_∞)(1 + r) + a, lower δ (1 − r) − a.
    """

    grid: np.ndarray
    first_sums: np.ndarray  # T0_j, j = 0..n (T0_n = 0)
    second_sums: np.ndarray
    infinite: float
    relative: float
    absolute: float
    upper: bool

    @classmethod
    def of(cls, pmf: _Pmf, h: float, upper: bool) -> _Curve:
        grid = (pmf.first + np.arange(pmf.mass.size)) * h
        reverse = pmf.mass[::-1]
        first = np.cumsum(reverse)[::-1]
        second = signal.lfilter([1.0], [1.0, -math.exp(-h)], reverse)[::-1]
        # the sums themselves: n non-negative terms each (γ_n relative)
        relative = (1.0 + pmf.relative) * (1.0 + _gamma(2 * pmf.mass.size + 4)) - 1.0
        relative = relative / (1.0 - relative)
        return cls(
            grid,
            np.append(first, 0.0),
            np.append(second, 0.0),
            pmf.infinite if upper else 0.0,
            relative,
            pmf.absolute,
            upper,
        )

    def _raw(self, epsilon: np.ndarray) -> np.ndarray:
        index = np.searchsorted(self.grid, epsilon, side="right")
        top = self.grid.size
        point = self.grid[np.minimum(index, top - 1)]
        inner = self.first_sums[index] - np.exp(np.minimum(epsilon - point, 0.0)) * self.second_sums[index]
        return np.where(index < top, np.maximum(inner, 0.0), 0.0)

    def delta(self, epsilon: np.ndarray) -> np.ndarray:
        eps = np.asarray(epsilon, dtype=float)
        value = self._raw(eps)
        if self.upper:
            return np.minimum((value + self.infinite) * (1.0 + self.relative) + self.absolute, 1.0)
        return np.clip(value * (1.0 - self.relative) - self.absolute, 0.0, 1.0)

    def _raw_target(self, delta: float) -> float:
        if self.upper:
            return (delta - self.absolute) / (1.0 + self.relative) - self.infinite
        return (delta + self.absolute) / (1.0 - self.relative)

    def epsilon(self, delta: float) -> float:
        """Smallest ε ≥ 0 with δ(ε) ≤ delta (inf if none), solved exactly between grid points."""
        target = self._raw_target(delta)
        if target <= 0:
            return math.inf
        at_grid = self._raw(self.grid)
        m = int(np.argmax(at_grid <= target))  # at the top point δ = 0: always found
        if m == 0 and self.grid[0] >= 0:
            # δ on (−∞, l_0] is T0_0 − e^{ε − l_0} T1_0; the answer is ≥ 0
            left = 0.0
        else:
            left = float(self.grid[m - 1]) if m else -math.inf
        point = float(self.grid[m])
        t0, t1 = float(self.first_sums[m]), float(self.second_sums[m])
        if t1 <= 0 or target >= t0:
            value = left
        else:
            value = min(max(point + math.log((t0 - target) / t1), left), point)
        return max(0.0, value)


# --- grid choice and the accountant -----------------------------------------------------------


def _grid_step(steps: int, sigma: float, q: float, coarsen: int, epsilon_hint: float = 8.0) -> float:
    """Grid step whose discretisation error in ε is well inside the allowed width.

    Both discretisations move each step's loss by O(h²) on average (h²/8 for the split), so T
    steps move ε by about T h²; the allowed width scales with ε (0.2 %) above ε = 5 and is 0.01
    below, hence h² ∝ ε/T, with ε the expected answer (``epsilon_hint``, clipped to [0.5, 8]: a
    clip at 2 made the bracket at ε = 1 six times wider, 0.045 against 0.007; rounded down to a power of 2,
    so that nearby answers share one grid: a σ calibrated for ε and the ε reported at that σ
    are computed on the same grid, or the report's is finer).
    """
    bucket = 2.0 ** math.floor(math.log2(min(max(epsilon_hint, 0.5), 8.0)))
    h = math.sqrt(0.0005 * bucket / steps)
    h = min(h, 0.02)
    if steps <= _FEW_STEPS:
        # few steps: the optimistic discretisations lose up to O(h) a step where they round down,
        # so the lower end needs a finer grid than T h² suggests (cheap here: short compositions)
        h = min(h, _FEW_STEPS_GRID / steps**0.6)
    # a pessimistic grid rounds each step's loss up by up to h: below ε ≈ 0.5 the step must also
    # be small against ε itself (ε = 0.01 at T = 1 on a grid of 0.02 could never be met)
    resolution = 2.0 ** math.floor(math.log2(min(max(epsilon_hint, 1e-6), 8.0))) / _EPSILON_RESOLUTION
    h = min(h, resolution / 2.0**coarsen)
    h = max(h, _loss_span(sigma, q) / (_MAX_WINDOW / 4))
    return h * (2.0**coarsen)


def _loss_span(sigma: float, q: float) -> float:
    """The range of one step's loss, at most: (1 + 2 z σ)/(2σ²) + |log q| + 1 (σ small)."""
    return (1.0 + 2 * _TAIL_Z * sigma) / (2 * sigma * sigma) + abs(math.log(q)) + 1.0


class _Accountant:
    """The four composed curves of one (σ, q, T), each computed when first asked for.

    The grid step is fixed by T (:func:`_grid_step`); if a window outgrows memory the grid is
    coarsened for every curve alike (still certified, only wider).
    """

    def __init__(
        self,
        sigma: float,
        q: float,
        steps: int,
        epsilon_hint: float,
        progress: Progress | None = None,
        coarsen: int = 0,
        delta_hint: float | None = None,
    ) -> None:
        self.sigma, self.q, self.steps = sigma, q, steps
        self.delta_hint = delta_hint
        self.epsilon_hint = epsilon_hint
        self.progress = progress
        self.coarsen = coarsen
        self.curves: dict[tuple[str, bool, bool], _Curve] = {}

    @property
    def h(self) -> float:
        return _grid_step(self.steps, self.sigma, self.q, self.coarsen, self.epsilon_hint)

    def curve(self, name: str, upper: bool, fractions: bool = False) -> _Curve:
        key = (name, upper, fractions)
        while key not in self.curves:
            h = self.h
            direction = _direction(name, self.sigma, self.q, h)
            if upper:
                mass, outside = _pessimistic(direction, h)
            elif fractions:
                mass, outside = _optimistic_fractions(direction, h)
            else:
                mass, outside = _optimistic(direction, h, self.sigma, self.q)
            try:
                step = _Pmf(direction.first, mass, outside, 0.0, 0.0)
                composed = _compose(step, self.steps, upper, self.progress)
                if upper and self._cuts_exceed_delta(composed):
                    # the mass cut to +∞ alone exceeds δ while the round-off does not: cut less
                    # (a share of δ), at the cost of wider windows (docs/math.md section 13.3)
                    trim_mass = _TRIM_SHARE * float(self.delta_hint or 0.0)
                    composed = _compose(step, self.steps, upper, self.progress, trim_mass)
            except MemoryError:
                self.coarsen += 1
                self.curves.clear()
                continue
            self.curves[key] = _Curve.of(composed, h, upper)
        return self.curves[key]

    def _cuts_exceed_delta(self, composed: _Pmf) -> bool:
        if self.delta_hint is None or _TRIM_SHARE * self.delta_hint >= _TRIM_MASS:
            return False
        return composed.infinite >= 0.5 * self.delta_hint and composed.absolute < 0.5 * self.delta_hint

    def epsilon_high(self, delta: float) -> float:
        return max(self.curve("remove", True).epsilon(delta), self.curve("add", True).epsilon(delta))

    def epsilon_bracket(self, delta: float) -> tuple[float, float]:
        remove_high = self.curve("remove", True).epsilon(delta)
        add_high = self.curve("add", True).epsilon(delta)
        low = self._lower_epsilon("remove", delta)
        if add_high > low:  # otherwise add's lower bound, below add_high, cannot raise the max
            low = max(low, self._lower_epsilon("add", delta))
        return low, max(remove_high, add_high)

    def _lower_epsilon(self, name: str, delta: float) -> float:
        """The larger of the two certified lower bounds (each wins in some regime)."""
        return max(self.curve(name, False).epsilon(delta), self.curve(name, False, True).epsilon(delta))

    def _lower_delta(self, name: str, epsilon: float) -> float:
        at = np.array([epsilon])
        return max(float(self.curve(name, False).delta(at)[0]), float(self.curve(name, False, True).delta(at)[0]))

    def delta_bracket(self, epsilon: float) -> tuple[float, float]:
        at = np.array([epsilon])
        remove_high = float(self.curve("remove", True).delta(at)[0])
        add_high = float(self.curve("add", True).delta(at)[0])
        low = self._lower_delta("remove", epsilon)
        if add_high > low:
            low = max(low, self._lower_delta("add", epsilon))
        return low, max(remove_high, add_high)

    def profile(self, epsilons: np.ndarray) -> np.ndarray:
        return np.maximum(self.curve("remove", True).delta(epsilons), self.curve("add", True).delta(epsilons))


@dataclass(frozen=True)
class EpsilonBracket:
    """ε of the Poisson-subsampled Gaussian composed T times at δ: ``low ≤ ε ≤ high``."""

    low: float
    high: float
    sigma: float
    sampling_rate: float
    steps: int
    delta: float
    method: str  # "exact Gaussian (q = 1)", "PLD", or "PLD + RDP" where RDP gave the upper bound

    @property
    def width(self) -> float:
        return self.high - self.low


@dataclass(frozen=True)
class DeltaBracket:
    """δ(ε) of the Poisson-subsampled Gaussian composed T times: ``low ≤ δ ≤ high``."""

    low: float
    high: float
    sigma: float
    sampling_rate: float
    steps: int
    epsilon: float


def _check(sigma: float, sampling_rate: float, steps: int) -> tuple[float, float, int]:
    return _positive(sigma, "sigma"), _sampling_rate(sampling_rate), _steps(steps)


# --- bounds valid at every σ: one step below, the full-batch Gaussian above ----------------------


def _pld_applies(sigma: float, q: float) -> bool:
    return _PLD_SIGMA_MIN <= sigma <= _PLD_SIGMA_MAX and q >= _PLD_SAMPLING_RATE_MIN


def _amplified(epsilon: float, q: float) -> float:
    """log(1 + q (e^ε − 1)), the ε of one sampled step whose Gaussian has ε (without overflow)."""
    if epsilon <= 700.0:
        return math.log1p(q * math.expm1(epsilon))
    return epsilon + float(np.logaddexp(math.log(q), math.log1p(-q) - epsilon))


def _unamplified(epsilon: float, q: float) -> float:
    """log(1 + (e^ε − 1)/q): the Gaussian's ε that one sampled step turns into ε."""
    if epsilon == 0.0:
        return 0.0
    if epsilon <= 700.0:
        log_numerator = math.log(math.expm1(epsilon))
    else:
        log_numerator = epsilon + math.log1p(-math.exp(-epsilon))
    return float(np.logaddexp(0.0, log_numerator - math.log(q)))


def _one_step_epsilon(sigma: float, q: float, delta: float) -> float:
    """ε of one step in the remove direction, exact: a lower bound on the composition's ε.

    One step's δ(ε) is q δ_G(ε') with ε' = log(1 + (e^ε − 1)/q) and δ_G the Gaussian profile of
    scale σ (docs/math.md section 13.7), so ε = log(1 + q (e^{ε'} − 1)) with ε' the Gaussian's ε
    at δ/q; 0 where δ ≥ q; inf where σ is so small that ε exceeds the largest double.
    """
    if delta >= q:
        return 0.0
    gaussian_value = float(gaussian.gaussian_epsilon(delta / q, sigma))
    if not math.isfinite(gaussian_value):
        return math.inf
    return _amplified(gaussian_value * (1.0 - 1e-9), q)  # 1e-9: the Gaussian ε's rounding


def _full_batch_epsilon(sigma: float, steps: int, delta: float, q: float = 1.0) -> float:
    """ε of the Gaussian composed T times (q = 1, μ = √T/σ): an upper bound at every q, since
    sampling only mixes a step with the null one (joint convexity, docs/math.md section 13.7);
    0 where δ ≥ 1 − (1 − q)^T, the chance that the example is sampled at all."""
    if q < 1.0 and delta >= -math.expm1(steps * math.log1p(-q)) * (1.0 + 1e-12):
        return 0.0
    return float(gaussian.gaussian_epsilon(delta, sigma / math.sqrt(steps))) * (1.0 + 1e-9) + 1e-300


def _one_step_delta(sigma: float, q: float, epsilon: float) -> float:
    """δ(ε) of one step in the remove direction: q δ_G(log(1 + (e^ε − 1)/q)), a lower bound."""
    value = q * float(gaussian.gaussian_delta(_unamplified(epsilon, q), sigma))
    return value * (1.0 - 1e-9)


def _full_batch_delta(sigma: float, q: float, steps: int, epsilon: float) -> float:
    """min(δ of the Gaussian composed T times, 1 − (1 − q)^T): upper bounds at every σ (the second:
    the probability that the record is sampled at all)."""
    gaussian_value = float(gaussian.gaussian_delta(epsilon, sigma / math.sqrt(steps))) * (1.0 + 1e-9)
    sampled = -math.expm1(steps * math.log1p(-q)) * (1.0 + 1e-12) if q < 1.0 else 1.0
    return min(gaussian_value, sampled, 1.0)


def dpsgd_epsilon(
    sigma: float, sampling_rate: float, steps: int, delta: float, progress: Progress | None = None
) -> EpsilonBracket:
    """Certified bracket [ε_low, ε_high] of DP-SGD's ε at δ (docs/math.md section 13).

    Parameters
    ----------
    sigma : float
        Noise multiplier σ > 0 (noise standard deviation over the clipping norm).
    sampling_rate : float
        Poisson sampling rate q in (0, 1].
    steps : int
        Number of steps T ≥ 1.
    delta : float
        δ in (0, 1).

    Returns
    -------
    EpsilonBracket
        ``low ≤ ε ≤ high``, the true ε of the add/remove Poisson-subsampled Gaussian composed
        T times. The width is within max(0.01, 0.2 % ε) at the usual DP-SGD settings (e.g. 0.015
        at q = 0.01, T = 1e4, ε = 8) but can be much larger at small q with small σ, and below
        δ ≈ 1e-9 at large T the upper end is the RDP bound (docs/math.md section 13.2).
        For σ outside [0.03, 1e8] the PLD is not computed and the bracket is the exact limits
        (docs/math.md section 13.7): one step's ε below, the RDP and the full-batch Gaussian
        composition above. Both ends are inf where σ is so small (below about 1e-154) that ε
        exceeds the largest double; at huge σ both ends tend to 0.

    Examples
    --------
    >>> b = dpsgd_epsilon(1.0, 1.0, 4, 1e-5)      # q = 1: Gaussian with μ = 2, exact
    >>> b.low == b.high
    True
    """
    sigma, q, steps = _check(sigma, sampling_rate, steps)
    delta = _delta(delta)
    if q == 1.0:
        value = float(gaussian.gaussian_epsilon(delta, sigma / math.sqrt(steps)))
        return EpsilonBracket(value, value, sigma, q, steps, delta, "exact Gaussian (q = 1)")
    rdp = dpsgd_rdp_epsilon(sigma, q, steps, delta)
    full_batch = _full_batch_epsilon(sigma, steps, delta, q)
    one_step = _one_step_epsilon(sigma, q, delta)
    if _pld_applies(sigma, q):
        # the CLT value is (nearly always) below ε: a grid at least as fine as a calibration's for ε
        hint = min(rdp, dpsgd_clt_epsilon(sigma, q, steps, delta))
        low, high = _Accountant(sigma, q, steps, hint, progress, delta_hint=delta).epsilon_bracket(delta)
        method = "PLD"
    else:
        low, high, method = 0.0, math.inf, "limits (σ outside the PLD's range)"
    if rdp < high:
        high, method = rdp, "PLD + RDP" if method == "PLD" else method
    high = min(high, full_batch)
    low = min(max(low, one_step), high)
    return EpsilonBracket(float(low), float(high), sigma, q, steps, delta, method)


def dpsgd_delta(sigma: float, sampling_rate: float, steps: int, epsilon: float) -> DeltaBracket:
    """Certified bracket [δ_low, δ_high] of DP-SGD's δ(ε) (docs/math.md section 13).

    Examples
    --------
    >>> b = dpsgd_delta(2.0, 1.0, 4, 1.0)         # q = 1: Gaussian with μ = 1
    >>> round(b.high, 12) == round(b.low, 12)
    True
    """
    sigma, q, steps = _check(sigma, sampling_rate, steps)
    epsilon = _epsilon_value(epsilon)
    if q == 1.0:
        value = float(gaussian.gaussian_delta(epsilon, sigma / math.sqrt(steps)))
        return DeltaBracket(value, value, sigma, q, steps, epsilon)
    if _pld_applies(sigma, q):
        low, high = _Accountant(sigma, q, steps, epsilon).delta_bracket(epsilon)
    else:
        low, high = 0.0, 1.0
    high = min(high, _full_batch_delta(sigma, q, steps, epsilon))
    low = min(max(low, _one_step_delta(sigma, q, epsilon)), high)
    return DeltaBracket(low, high, sigma, q, steps, epsilon)


# --- Rényi DP (Mironov, Talwar & Zhang 2019) ----------------------------------------------------

_INTEGER_ORDERS = np.concatenate([np.arange(2, 65), np.array([80, 96, 128, 160, 192, 256, 384, 512, 768, 1024])])
_INTEGER_ORDER_VALUES = _INTEGER_ORDERS.astype(float)
_FRACTIONAL_ORDERS = np.array([1.05, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.75, 2.25, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5])


def _log_binomials(orders: np.ndarray) -> np.ndarray:
    """log C(α, k) for each order α (rows) and k = 0..max α (columns), −inf where k > α."""
    k = np.arange(int(orders.max()) + 1, dtype=float)[None, :]
    alpha = orders[:, None]
    with np.errstate(invalid="ignore"):
        table = special.gammaln(alpha + 1) - special.gammaln(k + 1) - special.gammaln(alpha - k + 1)
    return np.where(k <= alpha, table, -np.inf)


def _log_a_integer(orders: np.ndarray, sigma: float, q: float) -> np.ndarray:
    """log E_Q[(P/Q)^α] for integer α ≥ 2: log Σ_k C(α,k)(1−q)^{α−k} q^k e^{(k²−k)/(2σ²)}."""
    table = _INTEGER_LOG_BINOMIALS if orders is _INTEGER_ORDER_VALUES else _log_binomials(orders)
    k = np.arange(table.shape[1], dtype=float)
    alpha = orders[:, None]
    log_q, log_p = math.log(q), math.log1p(-q)
    terms = table + (k * (log_q - log_p) + (k * k - k) / (2 * sigma * sigma))[None, :] + alpha * log_p
    largest = terms.max(axis=1)
    return largest + np.log(np.sum(np.exp(terms - largest[:, None]), axis=1))


_INTEGER_LOG_BINOMIALS = _log_binomials(_INTEGER_ORDER_VALUES)  # the same for every σ and q: once

_FRACTIONAL_TERMS = 500


def _log_a_fractional(orders: np.ndarray, sigma: float, q: float) -> np.ndarray:
    """log A_α for fractional α > 1 (Mironov, Talwar & Zhang 2019, Sec. 3.3), by its two series."""
    z0 = sigma * sigma * math.log(1.0 / q - 1.0) + 0.5
    i = np.arange(_FRACTIONAL_TERMS, dtype=float)[None, :]
    alpha = orders[:, None]
    j = alpha - i
    binom = special.binom(alpha, i)
    nonzero = binom != 0
    with np.errstate(divide="ignore"):
        log_coef = np.where(nonzero, np.log(np.abs(np.where(nonzero, binom, 1.0))), -np.inf)
    sign = np.sign(binom)
    log_t0 = log_coef + i * math.log(q) + j * math.log1p(-q)
    log_t1 = log_coef + j * math.log(q) + i * math.log1p(-q)
    log_e0 = special.log_ndtr((z0 - i) / sigma)  # ½ erfc((i − z0)/(√2 σ))
    log_e1 = special.log_ndtr((j - z0) / sigma)  # ½ erfc((z0 − j)/(√2 σ))
    log_s0 = log_t0 + (i * i - i) / (2 * sigma * sigma) + log_e0
    log_s1 = log_t1 + (j * j - j) / (2 * sigma * sigma) + log_e1
    terms = np.concatenate([log_s0, log_s1], axis=1)
    signs = np.concatenate([sign, sign], axis=1)
    value, result_sign = special.logsumexp(terms, b=signs, axis=1, return_sign=True)
    # the truncated series is used only where its last terms are negligible (else: order excluded)
    last = np.maximum(log_s0[:, -10:].max(axis=1), log_s1[:, -10:].max(axis=1))
    converged = last < value - 40.0
    return np.where((result_sign > 0) & np.isfinite(value) & converged, value, np.inf)


def _rdp_curve(sigma: float, q: float) -> tuple[np.ndarray, np.ndarray]:
    """(orders, RDP ε(α) of one step) for the fractional and integer orders."""
    orders = np.concatenate([_FRACTIONAL_ORDERS, _INTEGER_ORDER_VALUES])
    if q == 1.0:
        return orders, orders / (2 * sigma * sigma)
    log_a = np.concatenate(
        [_log_a_fractional(_FRACTIONAL_ORDERS, sigma, q), _log_a_integer(_INTEGER_ORDER_VALUES, sigma, q)]
    )
    return orders, log_a / (orders - 1.0)


def _rdp_to_epsilon(orders: np.ndarray, rdp: np.ndarray, delta: float) -> float:
    """Balle et al. 2020 (Thm. 21): ε = ε_α + log((α−1)/α) − (log δ + log α)/(α − 1), best α."""
    eps = rdp + np.log1p(-1.0 / orders) - (math.log(delta) + np.log(orders)) / (orders - 1.0)
    eps = np.where(np.isfinite(eps), eps, np.inf)
    return float(max(0.0, np.min(eps)))


def dpsgd_rdp_epsilon(sigma: float, sampling_rate: float, steps: int, delta: float) -> float:
    """ε of DP-SGD from Rényi DP: the sampled Gaussian's RDP (Mironov, Talwar & Zhang 2019) times T,
    converted at the best order (Balle et al. 2020). A valid upper bound, usually a few % above ε;
    inf where σ is so small (below about 1e-150) that every order's divergence overflows.

    Examples
    --------
    >>> round(dpsgd_rdp_epsilon(0.88253, 0.01, 10_000, 1e-5), 2)
    8.69
    """
    sigma, q, steps = _check(sigma, sampling_rate, steps)
    delta = _delta(delta)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        orders, rdp = _rdp_curve(sigma, q)
        total = steps * np.where(np.isnan(rdp), np.inf, rdp)  # NaN (inf − inf): the order is left out
    return _rdp_to_epsilon(orders, total, delta)


def dpsgd_clt_epsilon(sigma: float, sampling_rate: float, steps: int, delta: float) -> float:
    """The CLT (Gaussian-DP) approximation: μ = q √(T (e^{1/σ²} − 1)), ε of μ-GDP at δ (Bu et al. 2020).

    An approximation, not a bound: it can be below the true ε (unsafe). inf where μ > e^700
    (σ below about 0.04 at T = 1: ε ≈ μ²/2 exceeds the largest double).
    """
    sigma, q, steps = _check(sigma, sampling_rate, steps)
    delta = _delta(delta)
    log_mu = _clt_log_mu(sigma, q, steps)
    if log_mu > 700.0:
        return math.inf  # ε ≈ μ²/2 exceeds the largest double
    return float(gaussian.gaussian_epsilon(delta, math.exp(min(-log_mu, 700.0))))


def _clt_log_mu(sigma: float, q: float, steps: int) -> float:
    """log μ of the CLT, μ = q √(T (e^{1/σ²} − 1)), without overflow or underflow at any σ."""
    with np.errstate(over="ignore", under="ignore", divide="ignore"):
        inverse_variance = float(np.float64(1.0) / np.square(np.float64(sigma)))
    if inverse_variance == 0.0:
        return -math.inf
    if inverse_variance > 1.0:
        log_growth = inverse_variance + math.log1p(-math.exp(-inverse_variance))
    else:
        log_growth = math.log(math.expm1(inverse_variance))
    return math.log(q) + 0.5 * (math.log(steps) + log_growth)


def dpsgd_clt_sigma(epsilon: float, delta: float, sampling_rate: float, steps: int) -> float:
    """σ at which the CLT approximation gives (ε, δ): μ* = 1/σ_analytic(ε, δ), σ = 1/√log(1 + μ*²/(q²T)).

    inf where that σ exceeds the largest double (δ near the smallest normal double at tiny ε).
    """
    epsilon = _positive(epsilon, "epsilon")
    delta = _delta(delta)
    q = _sampling_rate(sampling_rate)
    steps = _steps(steps)
    log_mu = -math.log(float(gaussian.analytic_gaussian_sigma(epsilon, delta)))
    log_ratio = 2.0 * (log_mu - math.log(q)) - math.log(steps)  # log(μ*²/(q²T))
    if log_ratio < -30.0:  # log(1 + μ*²/(q²T)) = μ*²/(q²T) to double precision
        half = -0.5 * log_ratio
        return math.exp(half) if half < 709.0 else math.inf
    return 1.0 / math.sqrt(float(np.logaddexp(0.0, log_ratio)))


def _bisect_log(meets: Callable[[float], bool], low: float, high: float, tolerance: float) -> float:
    """Smallest σ in [low, high] with ``meets`` (``meets(high)`` holds), to a relative tolerance."""
    while high / low - 1.0 > tolerance:
        middle = math.sqrt(low * high)
        if meets(middle):
            high = middle
        else:
            low = middle
    return high


def _bracket_up(meets: Callable[[float], bool], start: float) -> tuple[float, float]:
    """(low, high) with meets(high) and not meets(low), galloping from ``start``.

    If even σ = start/2^40 meets the target, (that σ / 2, that σ) is returned: the target does
    not constrain σ in any useful way (δ above what one sampled step can leak).
    """
    high = start
    if meets(high):
        low = high / 1.05
        for _ in range(40):
            if not meets(low):
                return low, high
            high, low = low, low / 2.0
        return low, high
    low = high
    for _ in range(60):
        high = low * 2.0
        if meets(high):
            return low, high
        low = high
    raise ValueError(
        f"no noise multiplier up to {high:g} meets the target: epsilon or delta is too small for this accountant"
    )


def dpsgd_rdp_sigma(epsilon: float, delta: float, sampling_rate: float, steps: int) -> float:
    """Smallest σ (to 1e-4 relative, rounded up) whose RDP bound meets (ε, δ)."""
    epsilon = _positive(epsilon, "epsilon")
    delta = _delta(delta)
    q = _sampling_rate(sampling_rate)
    steps = _steps(steps)

    def meets(s: float) -> bool:
        return dpsgd_rdp_epsilon(s, q, steps, delta) <= epsilon

    low, high = _bracket_up(meets, dpsgd_clt_sigma(epsilon, delta, q, steps))
    if high / low - 1.0 > 1e-4:
        root = optimize.brentq(
            lambda x: dpsgd_rdp_epsilon(math.exp(x), q, steps, delta) - epsilon,
            math.log(low),
            math.log(high),
            xtol=1e-6,
        )
        candidate = math.exp(root) * (1.0 + 1e-5)
        while candidate < high and not meets(candidate):
            candidate *= 1.0 + 1e-5
        high = min(candidate, high)
    return high


@dataclass(frozen=True)
class DpsgdCalibration:
    """The noise multiplier σ meeting (ε, δ) by ε_high, with the bracket at that σ."""

    sigma: float
    epsilon_low: float
    epsilon_high: float
    epsilon: float
    delta: float
    sampling_rate: float
    steps: int


def dpsgd_sigma(
    epsilon: float,
    delta: float,
    sampling_rate: float,
    steps: int,
    progress: Progress | None = None,
    coarsen: int = 0,
) -> DpsgdCalibration:
    """The smallest noise multiplier σ (to 1e-5 relative, rounded up) whose ε_high ≤ ε at δ.

    Starts from the RDP σ (which meets the target) and the CLT σ, then bisects in log σ on
    the certified upper bound; the grid is fixed by T, so every candidate shares it
    (docs/math.md section 13.5). ``coarsen = k`` uses a grid 2^k times coarser: still certified,
    faster, and less tight (the failure-grid test uses it).

    Examples
    --------
    >>> c = dpsgd_sigma(1.0, 1e-5, 1.0, 4)        # q = 1: the analytic Gaussian σ × √T
    >>> round(c.sigma, 6)
    7.461263
    """
    epsilon = _positive(epsilon, "epsilon")
    delta = _delta(delta)
    q = _sampling_rate(sampling_rate)
    steps = _steps(steps)
    coarsen = require_integer(coarsen, "coarsen", 0, _MAX_COARSEN)
    _require_delta_below_sampling(delta, q, steps)
    if q == 1.0:
        sigma = float(gaussian.analytic_gaussian_sigma(epsilon, delta)) * math.sqrt(steps)
        bracket = dpsgd_epsilon(sigma, q, steps, delta)
        return DpsgdCalibration(sigma, bracket.low, bracket.high, epsilon, delta, q, steps)
    return _calibrate(epsilon, delta, q, steps, progress, coarsen, None, True)


def _require_delta_below_sampling(delta: float, q: float, steps: int) -> None:
    """δ ≥ 1 − (1 − q)^T, the chance that an example is sampled at all, is met without noise."""
    sampled = -math.expm1(steps * math.log1p(-q)) if q < 1.0 else 1.0
    if delta >= sampled:
        raise ValueError(
            f"delta={delta:g} is at least 1 - (1 - sampling_rate)^steps = {sampled:g}, the chance that an "
            "example is sampled at all: every noise multiplier, even 0, meets it (docs/math.md section 13.7)"
        )


def _calibrate(
    epsilon: float,
    delta: float,
    q: float,
    steps: int,
    progress: Progress | None,
    coarsen: int,
    guesses: tuple[float, float] | None,
    with_bracket: bool,
) -> DpsgdCalibration:
    """dpsgd_sigma's search (validated arguments, q < 1); ``guesses``: two starting σ (the curve)."""
    if guesses is None:
        try:
            rdp_sigma = dpsgd_rdp_sigma(epsilon, delta, q, steps)
        except ValueError:
            rdp_sigma = math.inf  # RDP cannot reach this (ε, δ) with its orders
    else:
        rdp_sigma = math.inf
    # the Gaussian composed T times meets the target at every q: a certified ceiling
    full_batch_sigma = float(gaussian.analytic_gaussian_sigma(epsilon, delta)) * math.sqrt(steps) * (1.0 + 1e-9)
    rdp_sigma = min(rdp_sigma, full_batch_sigma)
    clt_sigma = min(max(dpsgd_clt_sigma(epsilon, delta, q, steps), _PLD_SIGMA_MIN), _PLD_SIGMA_MAX)
    if rdp_sigma <= _PLD_SIGMA_MIN or clt_sigma >= _PLD_SIGMA_MAX or q < _PLD_SAMPLING_RATE_MIN:
        # outside the PLD's range: the certified ceiling is the answer (docs/math.md section 13.7)
        return _limit_calibration(rdp_sigma, epsilon, delta, q, steps, progress)
    accountants: dict[float, _Accountant] = {}
    calls = [0]

    def accountant(s: float) -> _Accountant:
        if s not in accountants:
            calls[0] += 1
            if progress is not None:
                progress(min(0.9, calls[0] / 10))
            accountants[s] = _Accountant(s, q, steps, epsilon, coarsen=coarsen, delta_hint=delta)
        return accountants[s]

    def remove_gap(x: float) -> float:
        """log ε_high(remove) − log ε at σ = e^x: the root-finder's function."""
        s = math.exp(x)
        if not _pld_applies(s, q):
            value = min(dpsgd_rdp_epsilon(s, q, steps, delta), _full_batch_epsilon(s, steps, delta, q))
        else:
            value = accountant(s).curve("remove", True).epsilon(delta)
        if not math.isfinite(value):
            return 50.0
        return math.log(max(value, 1e-300)) - math.log(epsilon)

    def high_epsilon(s: float) -> float:
        bound = min(dpsgd_rdp_epsilon(s, q, steps, delta), _full_batch_epsilon(s, steps, delta, q))
        return min(accountant(s).epsilon_high(delta), bound) if _pld_applies(s, q) else bound

    def meets(s: float) -> bool:
        return high_epsilon(s) <= epsilon

    # Secant iterations on the remove direction (the larger in practice), from the CLT and RDP σ.
    if guesses is not None:
        lowest, highest = math.log(_PLD_SIGMA_MIN), math.log(min(rdp_sigma, _PLD_SIGMA_MAX))
        x0, x1 = (min(max(math.log(g), lowest), highest) for g in guesses)
    else:
        x0 = math.log(min(clt_sigma, rdp_sigma * 0.999))
        x1 = math.log(rdp_sigma) if math.isfinite(rdp_sigma) else math.log(clt_sigma * 1.1)
    f0, f1 = remove_gap(x0), remove_gap(x1)
    for _ in range(12):
        if f1 == f0 or abs(x1 - x0) < 1e-7 or abs(f1) < 1e-7:
            break
        x2 = x1 - f1 * (x1 - x0) / (f1 - f0)
        x2 = min(max(x2, x1 - 1.0), x1 + 1.0)
        x0, f0 = x1, f1
        x1, f1 = x2, remove_gap(x2)
    if not abs(f1) < 1e-4:
        # The secant did not settle (ε jumps, or is flat in σ, or infinite where the PLD's
        # allowances exceed δ): bracket and bisect, never above a σ already certified. Without that
        # ceiling the search galloped to σ ~ 1e10-1e13, where the window shrinks to a few points
        # and the allowances vanish (the bug of δ = 1e-20).
        def pld_meets(s: float) -> bool:
            return remove_gap(math.log(s)) <= 0

        ceiling = rdp_sigma if math.isfinite(rdp_sigma) else clt_sigma * _SIGMA_CEILING
        if pld_meets(ceiling):
            low, high = _bracket_up(pld_meets, min(math.exp(x1), ceiling))
            x1 = math.log(_bisect_log(pld_meets, low, min(high, ceiling), _FALLBACK_TOLERANCE))
        elif math.isfinite(rdp_sigma):
            x1 = math.log(rdp_sigma)  # the PLD cannot certify δ below the RDP σ: RDP's σ is used
        else:
            raise ValueError(
                f"no noise multiplier found meeting epsilon={epsilon:g} at delta={delta:g}: "
                "delta is too small for this accountant"
            )
    # To the safe side: the smallest of σ·(1 + 1e-5)^k that meets the target in both directions.
    sigma = math.exp(x1) * (1.0 + _SIGMA_TOLERANCE)
    step = _SIGMA_TOLERANCE
    for _ in range(80):
        if meets(sigma):
            break
        if sigma >= rdp_sigma:
            sigma = rdp_sigma
            break
        sigma = min(sigma * (1.0 + step), rdp_sigma)
        step *= 2.0
    else:
        raise ValueError(f"no noise multiplier found meeting epsilon={epsilon:g} at delta={delta:g}")
    sigma = min(sigma, rdp_sigma)  # both are certified: the smaller is used
    if not _pld_applies(sigma, q):
        return _limit_calibration(sigma, epsilon, delta, q, steps, progress)
    high = high_epsilon(sigma)  # the certified upper bound the search met
    if with_bracket:
        # The lower end from dpsgd_epsilon at σ: the search's accountant, built for the target, gives
        # a looser one (setting 1: 7.918 against 7.985). Both are certified ends of the same true ε.
        reported = dpsgd_epsilon(sigma, q, steps, delta)
        low, high = reported.low, min(high, reported.high)
    else:
        low = _one_step_epsilon(sigma, q, delta)
    if progress is not None:
        progress(1.0)
    return DpsgdCalibration(sigma, min(low, high), high, epsilon, delta, q, steps)


def _limit_calibration(
    sigma: float, epsilon: float, delta: float, q: float, steps: int, progress: Progress | None
) -> DpsgdCalibration:
    """A certified σ outside the PLD's range (the smaller of the RDP and full-batch σ), with the
    limits' bracket at it: one step's ε below, the RDP and full-batch ε above."""
    high = min(dpsgd_rdp_epsilon(sigma, q, steps, delta), _full_batch_epsilon(sigma, steps, delta, q))
    if not high <= epsilon:
        raise ValueError(f"no noise multiplier found meeting epsilon={epsilon:g} at delta={delta:g}")
    low = min(_one_step_epsilon(sigma, q, delta), high)
    if progress is not None:
        progress(1.0)
    return DpsgdCalibration(sigma, low, high, epsilon, delta, q, steps)


def dpsgd_sigma_curve(
    epsilons: np.ndarray, delta: float, sampling_rate: float, steps: int, progress: Progress | None = None
) -> np.ndarray:
    """σ(ε) at each ε, each meeting (ε, δ) by ε_high as :func:`dpsgd_sigma` does.

    Work is reused along the curve (docs/math.md section 13.5): ε_high(remove) is evaluated on
    a grid of _CURVE_GRID σ spanning the curve and inverted by monotone (PCHIP) interpolation in
    log σ against log ε; each point then takes one Newton step on its own grid from the
    interpolated σ and certifies σ(1 + 1e-4) by ε_high (both directions): three compositions
    per point instead of six. A point whose certificate fails is solved by the full search,
    started from its neighbours' σ. The σ are made non-increasing in ε (a σ certified for a
    smaller ε is certified for a larger one); the bracket's lower end is not computed.
    ``progress`` receives the fraction done.
    """
    values = np.asarray(as_float_array(epsilons, "epsilons"), dtype=float).ravel()
    for value in values:
        _positive(float(value), "epsilons")
    delta = _delta(delta)
    q = _sampling_rate(sampling_rate)
    steps = _steps(steps)
    _require_delta_below_sampling(delta, q, steps)
    out = np.empty(values.size)
    order = np.argsort(-values)
    solved: list[tuple[float, float]] = []  # (log ε, log σ)
    inverse = None
    if q < 1.0 and values.size >= _CURVE_GRID:
        inverse = _remove_inverse(values, delta, q, steps, progress)
    start = _CURVE_GRID_SHARE if inverse is not None else 0.0
    for count, index in enumerate(order):
        eps = float(values[index])
        quick = _certified_from_inverse(inverse, eps, delta, q, steps) if inverse is not None else None
        if quick is not None:
            out[index] = quick
            solved.append((math.log(eps), math.log(quick)))
        elif q == 1.0:
            try:
                out[index] = float(gaussian.analytic_gaussian_sigma(eps, delta)) * math.sqrt(steps)
            except ValueError as error:
                raise ValueError(f"epsilons[{index}]={eps:g}: {error}") from error
        else:
            guesses = None
            if len(solved) >= 2:
                (e1, s1), (e2, s2) = solved[-2], solved[-1]
                slope = (s2 - s1) / (e2 - e1) if e2 != e1 else -1.0
                guess = math.exp(s2 + slope * (math.log(eps) - e2))
                guesses = (math.exp(s2), guess)
            elif len(solved) == 1:
                guesses = (math.exp(solved[0][1]), math.exp(solved[0][1]) * math.sqrt(math.exp(solved[0][0]) / eps))
            try:
                out[index] = _calibrate(eps, delta, q, steps, None, 0, guesses, False).sigma
            except ValueError as error:
                raise ValueError(f"epsilons[{index}]={eps:g}: {error}") from error
            solved.append((math.log(eps), math.log(out[index])))
        if progress is not None:
            progress(start + (1.0 - start) * (count + 1) / values.size)
    # σ certified for a smaller ε is certified for a larger one: the curve never rises with ε
    by_epsilon = np.argsort(values, kind="stable")
    out[by_epsilon] = np.minimum.accumulate(out[by_epsilon])
    return out


def _remove_inverse(
    epsilons: np.ndarray, delta: float, q: float, steps: int, progress: Progress | None = None
) -> interpolate.PchipInterpolator | None:
    """log σ as a monotone function of log ε_high(remove), from _CURVE_GRID evaluations on a σ grid
    spanning the curve (CLT σ at its ends, widened): a guess for each point, not a certificate."""
    try:
        lowest = dpsgd_clt_sigma(float(epsilons.max()), delta, q, steps) * 0.97
        highest = dpsgd_clt_sigma(float(epsilons.min()), delta, q, steps) * 1.1
    except ValueError:
        return None
    if not (_pld_applies(lowest, q) and _pld_applies(highest, q)):
        return None
    points: list[tuple[float, float]] = []
    for count, sigma in enumerate(np.geomspace(lowest, highest, _CURVE_GRID)):
        hint = dpsgd_clt_epsilon(float(sigma), q, steps, delta)
        value = _Accountant(float(sigma), q, steps, hint, delta_hint=delta).curve("remove", True).epsilon(delta)
        if progress is not None:
            progress(_CURVE_GRID_SHARE * (count + 1) / _CURVE_GRID)
        if math.isfinite(value) and value > 0 and (not points or value < points[-1][0]):
            points.append((value, float(sigma)))
    if len(points) < 4:
        return None
    points.reverse()  # increasing in ε
    return interpolate.PchipInterpolator(
        np.log([p[0] for p in points]), np.log([p[1] for p in points]), extrapolate=False
    )


def _certified_from_inverse(
    inverse: interpolate.PchipInterpolator, epsilon: float, delta: float, q: float, steps: int
) -> float | None:
    """σ for ε from the interpolated inverse: one Newton step on the remove direction on ε's own grid,
    then σ(1 + _CURVE_MARGIN) is certified by ε_high (both directions) or None is returned."""
    x = float(inverse(math.log(epsilon)))
    slope = float(inverse.derivative()(math.log(epsilon)))  # d log σ / d log ε
    if not (math.isfinite(x) and math.isfinite(slope) and slope < 0):
        return None
    guess = math.exp(x)
    if not _pld_applies(guess, q):
        return None
    value = _Accountant(guess, q, steps, epsilon, delta_hint=delta).curve("remove", True).epsilon(delta)
    if not (math.isfinite(value) and value > 0):
        return None
    sigma = math.exp(x + slope * (math.log(epsilon) - math.log(value))) * (1.0 + _CURVE_MARGIN)
    if not _pld_applies(sigma, q) or abs(math.log(sigma / guess)) > 0.05:
        return None
    if _Accountant(sigma, q, steps, epsilon, delta_hint=delta).epsilon_high(delta) <= epsilon:
        return sigma
    return None


@dataclass(frozen=True)
class DpsgdAccounting:
    """Certified bracket with the RDP and CLT numbers beside it, at one σ."""

    bracket: EpsilonBracket
    rdp_epsilon: float
    clt_epsilon: float
    clt_unsafe: bool  # the CLT value is below ε_low: it underestimates, unsafe


def dpsgd_accounting(sigma: float, sampling_rate: float, steps: int, delta: float) -> DpsgdAccounting:
    """ε_low, ε_high, the RDP ε and the CLT ε at one σ; CLT flagged where below ε_low.

    Every value is inf where σ is so small that it exceeds the largest double (as in
    :func:`dpsgd_epsilon`).
    """
    bracket = dpsgd_epsilon(sigma, sampling_rate, steps, delta)
    rdp = dpsgd_rdp_epsilon(sigma, sampling_rate, steps, delta)
    clt = dpsgd_clt_epsilon(sigma, sampling_rate, steps, delta)
    return DpsgdAccounting(bracket, rdp, clt, clt < bracket.low)


# --- attack risk from the composed distribution ----------------------------------------------------


@dataclass(frozen=True)
class DpsgdAttackRisk:
    """Upper bounds on what the best membership attacker can do against the trained model."""

    sigma: float
    true_positive_rates: dict[float, float]  # FPR → TPR (upper bound)
    advantage: float
    posterior: float  # largest posterior at the smallest FPR, for the prior
    prior: float


def _upper_profile(sigma: float, q: float, steps: int) -> Callable[[np.ndarray], np.ndarray]:
    if q == 1.0 or not _pld_applies(sigma, q):
        # the Gaussian composed T times bounds every q (docs/math.md section 13.7)
        sampled = -math.expm1(steps * math.log1p(-q)) * (1.0 + 1e-12) if q < 1.0 else 1.0
        return lambda eps: np.minimum(
            np.asarray(gaussian.gaussian_delta(eps, sigma / math.sqrt(steps)), dtype=float), min(sampled, 1.0)
        )
    # the attack numbers need a few digits, not the bracket's width: one step on at most
    # _ATTACK_WINDOW points (a coarser grid is still an upper bound, only looser)
    coarsen = max(0, math.ceil(math.log2(_loss_span(sigma, q) / _grid_step(steps, sigma, q, 0, 1.0) / _ATTACK_WINDOW)))
    return _Accountant(sigma, q, steps, 1.0, coarsen=coarsen).profile


def dpsgd_attack_risk(
    sigma: float,
    sampling_rate: float,
    steps: int,
    false_positive_rates: tuple[float, ...] = (0.001, 0.01),
    prior: float = 0.5,
) -> DpsgdAttackRisk:
    """TPR at each FPR, advantage and posterior, from the certified upper δ-curve (safe side).

    The upper δ(ε) curve bounds the hockey-stick divergence in both orders (max of add and
    remove), so the trade-off curve read off it (attack_risk, docs/math.md section 12.3) is
    below the true one: every TPR, advantage and posterior is an upper bound.
    """
    from . import attack_risk  # the registry-backed module imports mechanisms; keep it lazy

    sigma, q, steps = _check(sigma, sampling_rate, steps)
    prior = _probability(prior, "prior")
    fprs = as_float_array(false_positive_rates, "false_positive_rates")
    if fprs.ndim != 1 or fprs.size == 0:
        raise TypeError(f"false_positive_rates must be a non-empty sequence of numbers, got {false_positive_rates!r}")
    require_interval(fprs, "false_positive_rates", 0.0, 1.0, lower_open=True, upper_open=True)
    profile = _upper_profile(sigma, q, steps)
    rates = {}
    for fpr in fprs.tolist():
        rates[fpr] = float(attack_risk.attack_power_from_profile(fpr, profile))
    advantage = attack_risk.attack_advantage_from_profile(profile)
    smallest = min(rates)
    posterior = float(attack_risk.posterior_belief(prior, rates[smallest], smallest))
    return DpsgdAttackRisk(sigma, rates, advantage, posterior, prior)


def dpsgd_sigma_for_attack(
    true_positive_rate: float, sampling_rate: float, steps: int, false_positive_rate: float = 0.01
) -> float:
    """Smallest σ (to 1e-4 relative, rounded up) keeping the attack's TPR at the FPR below a limit.

    Bisection on log σ of the certified TPR; the returned σ meets the limit, and since the true
    TPR falls as σ grows, every larger σ meets it too.
    """
    fpr = _probability(false_positive_rate, "false_positive_rate")
    limit = float(
        require_interval(
            as_float_array(true_positive_rate, "true_positive_rate"),
            "true_positive_rate",
            fpr,
            1.0,
            lower_open=True,
            upper_open=True,
        )
    )
    q = _sampling_rate(sampling_rate)
    steps = _steps(steps)

    def meets(s: float) -> bool:
        return dpsgd_attack_risk(s, q, steps, (fpr,)).true_positive_rates[fpr] <= limit

    low, high = _bracket_up(meets, 1.0)
    return _bisect_log(meets, low, high, 1e-4)
