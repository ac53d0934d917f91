"""The command line: ``python -m gaussmech_core calibrate | delta | epsilon | risk | dpsgd``.

Every number the dashboard's tables show, without the dashboard::

    python -m gaussmech_core calibrate --epsilon 1 --delta 1e-5 --dim 10
    python -m gaussmech_core calibrate --epsilon 0.5 --delta 1e-8 --format json
    python -m gaussmech_core delta --sigma 3.73 --epsilon 1
    python -m gaussmech_core epsilon --sigma 3.73 --delta 1e-5
    python -m gaussmech_core risk --epsilon 1 --delta 1e-5 --prior 0.1

``calibrate`` iterates the registry (:func:`gaussmech_core.mechanisms.calibrate_all`): each
mechanism's scale, per-coordinate standard deviation, expected squared error E‖noise‖₂² and
whether its guarantee holds at the setting (with the reason where it does not, and for a
claimed guarantee the computed true δ). ``delta`` and ``epsilon`` are the Gaussian mechanism's
privacy profile and its inverse (:func:`~gaussmech_core.gaussian.gaussian_delta`,
:func:`~gaussmech_core.gaussian.gaussian_epsilon`). ``risk`` prints the best membership
attacker's numbers for every mechanism (:mod:`gaussmech_core.attack_risk`).

Bad arguments print argparse's usage and a one-line reason (the library's own message, which
names the parameter, its value and the allowed range) and exit with status 2.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import sys
from fractions import Fraction
from typing import Sequence

import numpy as np

from . import attack_risk, cli_dpsgd, gaussian
from ._validation import MAX_DIMENSION, as_float_array, parameter_names
from .mechanisms import calibrate_all
from .registry_types import Setting

__all__ = ["main", "build_parser", "calibration_rows", "risk_rows"]

FORMATS = ("table", "csv", "json")
NEIGHBOURS = ("one_coordinate", "all_coordinates")


def _float(text: str) -> float:
    """A finite real number (argparse type); the range is checked by the library."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def _whole_number(text: str) -> int:
    """A whole number (argparse type; ``1e6`` is accepted: it is whole)."""
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value.denominator != 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    return int(value)


def _dimension(text: str) -> int:
    """A whole number in [1, 2^53] (argparse type)."""
    value = _whole_number(text)
    if not 1 <= value <= MAX_DIMENSION:
        raise argparse.ArgumentTypeError(f"{text!r} is not in [1, {MAX_DIMENSION}] (2^53)")
    return value


def _add_format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help=(
            "output format (default: table); json is strict RFC 8259 JSON: a value that does not apply "
            'is null, and a number beyond the double range is the string "inf" (or "-inf")'
        ),
    )


def _add_setting(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--epsilon", type=_float, required=True, help="ε ≥ 0")
    parser.add_argument("--delta", type=_float, required=True, help="δ in (0, 1)")
    parser.add_argument("--sensitivity", type=_float, default=1.0, help="l2 sensitivity Δ > 0 (default 1)")
    parser.add_argument("--dim", type=_dimension, default=1, help="dimension d in [1, 2^53] (default 1)")
    parser.add_argument("--order", type=_float, default=2.0, help="generalized-Gaussian order p ≥ 1 (default 2)")
    parser.add_argument(
        "--neighbours",
        choices=NEIGHBOURS,
        default="one_coordinate",
        help="what a neighbouring data set changes: one coordinate (Δ₁ = Δ₂) or all (Δ₁ = √d Δ₂)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m gaussmech_core``."""
    parser = argparse.ArgumentParser(
        prog="python -m gaussmech_core",
        description="Exact calibration of differential-privacy noise mechanisms.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="{calibrate,delta,epsilon,risk,dpsgd}")

    calibrate = commands.add_parser(
        "calibrate", help="every mechanism's noise at (ε, δ)", description="Every registered mechanism at one setting."
    )
    _add_setting(calibrate)
    _add_format(calibrate)

    for command, given, given_help, summary in (
        ("delta", "epsilon", "one or more ε ≥ 0", "The exact δ(ε) of the Gaussian mechanism."),
        ("epsilon", "delta", "one or more δ in (0, 1)", "The smallest ε of the Gaussian mechanism at δ."),
    ):
        inverse = commands.add_parser(command, help=summary[4:].rstrip(".") + " (noise std σ)", description=summary)
        inverse.add_argument("--sigma", type=_float, required=True, help="noise standard deviation σ > 0")
        inverse.add_argument(f"--{given}", type=_float, nargs="+", required=True, help=given_help)
        inverse.add_argument("--sensitivity", type=_float, default=1.0, help="l2 sensitivity Δ (default 1)")
        _add_format(inverse)

    risk = commands.add_parser(
        "risk",
        help="what the best membership attacker can do against each mechanism",
        description="Attack advantage, TPR at low FPR and posterior belief, from each mechanism's privacy profile.",
    )
    _add_setting(risk)
    risk.add_argument(
        "--prior", type=_float, default=0.5, help="attacker's prior that Alice is in the data (default 0.5)"
    )
    risk.add_argument(
        "--fpr",
        type=_float,
        nargs="+",
        default=list(attack_risk.DEFAULT_FPRS),
        help="false-positive rates (default 0.01 0.001)",
    )
    _add_format(risk)
    cli_dpsgd.add_parser(commands, _float, _whole_number, _add_format)  # DP-SGD: gaussmech_core/cli_dpsgd.py
    for command, subparser in commands.choices.items():
        subparser.set_defaults(command_parser=subparser)
    return parser


def _setting(arguments: argparse.Namespace) -> Setting:
    return Setting(
        epsilon=arguments.epsilon,
        delta=arguments.delta,
        sensitivity=arguments.sensitivity,
        order=arguments.order,
        dim=arguments.dim,
        l1_model=arguments.neighbours,
    )


def calibration_rows(setting: Setting) -> list[dict]:
    """One dict per registered mechanism: what ``calibrate`` prints (None where not valid).

    A number is inf where it exceeds 1.8e308 (as in :func:`~gaussmech_core.mechanisms.evaluate`).
    """
    rows = []
    for calibration in calibrate_all(setting):
        mechanism = calibration.mechanism
        holds = calibration.validity.valid if calibration.claim_holds is None else calibration.claim_holds
        note = calibration.validity.reason
        if calibration.true_delta is not None:
            note = f"claimed; true δ(ε) = {calibration.true_delta:.3g}" + ("" if holds else f" > δ = {setting.delta:g}")
        rows.append(
            {
                "mechanism": mechanism.id,
                "name": mechanism.name,
                "guarantee": mechanism.guarantee_label,
                "scale_symbol": mechanism.scale_symbol,
                "scale": calibration.scale,
                "coordinate_std": calibration.coordinate_std,
                "expected_squared_error": calibration.expected_loss,
                "guarantee_holds": bool(holds),
                "note": note,
            }
        )
    return rows


def risk_rows(setting: Setting, prior: float, fprs: Sequence[float]) -> list[dict]:
    """One dict per registered mechanism: what ``risk`` prints (None where not valid).

    ``fprs`` is one false-positive rate or a sequence of distinct ones, each in (0, 1); the
    columns are named ``tpr_at_fpr_<repr(rate)>`` and ``posterior_at_fpr_<repr(rate)>``. A number
    is inf where it exceeds 1.8e308 (as in :func:`~gaussmech_core.attack_risk.attack_risk_all`).
    """
    rates = tuple(np.atleast_1d(as_float_array(fprs, "fprs")).ravel().tolist())
    if len(set(rates)) < len(rates):
        raise ValueError(f"fprs must be distinct (each names a column), got fprs={list(rates)!r}")
    rows = []
    with parameter_names(false_positive_rates="fprs"):
        risks = attack_risk.attack_risk_all(setting, false_positive_rates=rates, prior=prior)
    for risk in risks:
        row = {"mechanism": risk.mechanism.id, "name": risk.mechanism.name, "advantage": risk.advantage}
        for index, fpr in enumerate(risk.false_positive_rates):
            # repr: the shortest text that reads back as this double, so distinct rates are distinct columns
            row[f"tpr_at_fpr_{fpr!r}"] = None if risk.true_positive_rates is None else risk.true_positive_rates[index]
            row[f"posterior_at_fpr_{fpr!r}"] = None if risk.posteriors is None else risk.posteriors[index]
        row["note"] = risk.reason
        rows.append(row)
    return rows


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _json_value(value: object) -> object:
    """RFC 8259 has no Infinity or NaN: a non-finite float becomes the string "inf", "-inf" or "nan"."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    return value


def _table(rows: list[dict], columns: list[str]) -> str:
    cells = [[_cell(row[column]) for column in columns] for row in rows]
    widths = [max(len(column), *(len(line[i]) for line in cells)) for i, column in enumerate(columns)]
    lines = ["  ".join(column.ljust(width) for column, width in zip(columns, widths)).rstrip()]
    lines.append("  ".join("-" * width for width in widths))
    lines += ["  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip() for line in cells]
    return "\n".join(lines)


def _render(rows: list[dict], output_format: str, table_columns: list[str] | None = None, header: str = "") -> str:
    if output_format == "json":
        strict = [{key: _json_value(value) for key, value in row.items()} for row in rows]
        return json.dumps(strict, indent=2, ensure_ascii=False, allow_nan=False)
    if output_format == "csv":
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow(
                {
                    key: ("" if value is None else repr(value) if isinstance(value, float) else value)
                    for key, value in row.items()
                }
            )
        return buffer.getvalue().rstrip("\n")
    table = _table(rows, table_columns or list(rows[0]))
    return f"{header}\n{table}" if header else table


def _setting_line(setting: Setting) -> str:
    return (
        f"ε = {setting.epsilon:g}, δ = {setting.delta:g}, Δ₂ = {setting.sensitivity:g}, d = {setting.dim}, "
        f"p = {setting.order:g}, neighbours: {setting.l1_model.replace('_', ' ')} changes (Δ₁ = {setting.l1_sensitivity:g})"
    )


def _one_or_many(values: list[float]) -> float | list[float]:
    """A single value as a float (so an error message names no array index), else the list."""
    return values[0] if len(values) == 1 else values


def _run(arguments: argparse.Namespace) -> str:
    if arguments.command == "dpsgd":
        table = cli_dpsgd.rows(arguments)
        return cli_dpsgd.render_json(table) if arguments.format == "json" else _render(table, arguments.format)
    if arguments.command == "calibrate":
        setting = _setting(arguments)
        rows = calibration_rows(setting)
        columns = [
            "mechanism",
            "scale_symbol",
            "scale",
            "coordinate_std",
            "expected_squared_error",
            "guarantee_holds",
            "note",
        ]
        return _render(rows, arguments.format, columns, _setting_line(setting))
    if arguments.command == "risk":
        setting = _setting(arguments)
        with parameter_names(fprs="fpr"):  # the user typed --fpr
            rows = risk_rows(setting, arguments.prior, arguments.fpr)
        header = _setting_line(setting) + f"; attacker's prior = {arguments.prior:g}"
        return _render(rows, arguments.format, None, header)
    if arguments.command == "delta":
        deltas = np.atleast_1d(
            gaussian.gaussian_delta(_one_or_many(arguments.epsilon), arguments.sigma, arguments.sensitivity)
        )
        rows = [
            {"sigma": arguments.sigma, "sensitivity": arguments.sensitivity, "epsilon": e, "delta": float(d)}
            for e, d in zip(arguments.epsilon, deltas)
        ]
        return _render(rows, arguments.format)
    epsilons = np.atleast_1d(
        gaussian.gaussian_epsilon(_one_or_many(arguments.delta), arguments.sigma, arguments.sensitivity)
    )
    rows = [
        {"sigma": arguments.sigma, "sensitivity": arguments.sensitivity, "delta": d, "epsilon": float(e)}
        for d, e in zip(arguments.delta, epsilons)
    ]
    return _render(rows, arguments.format)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, or 2 after a usage error)."""
    parser = build_parser()
    arguments = parser.parse_args(argv)
    try:
        output = _run(arguments)
    except (ValueError, TypeError) as error:
        arguments.command_parser.error(str(error).splitlines()[0])
    sys.stdout.write(output + "\n")
    return 0
