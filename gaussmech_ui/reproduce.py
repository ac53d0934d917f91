""" "Reproduce in Python": a short, runnable script per page that computes the page's key numbers.

Every page ends with an expander holding :func:`snippet` for its page at the current setting: a
script that imports only :mod:`gaussmech_core` (numpy and scipy), builds the same
:class:`~gaussmech_core.registry_types.Setting` and prints the numbers the page shows, one line
per mechanism, ``name | value | value ...`` with six significant digits. The test suite runs every
snippet for several settings and compares its output with what the page displays.

Which numbers, by page (:data:`PAGE_NUMBERS`):

* every page: each mechanism's calibrated scale, noise std per coordinate and E‖noise‖₂² (the
  Overview's table), or the reason its guarantee does not hold;
* Privacy profiles and the Class tour: also each mechanism's true δ at the setting's ε and what
  the best membership attacker can do (advantage, TPR at 1 % and 0.1 % FPR, posterior belief);
* Noise distributions: the standard deviation of the page's seeded draws ("Draw samples": the
  mechanism, the number of draws n and the seed from the link) against the exact one;
* Tail probabilities: each mechanism's per-coordinate error bound at confidence 1 − α (α from the link);
* Accuracy vs dimension: E‖noise‖₂² at the current d with the page's MVG shape and γ, beside Ji &
  Li's stated constant × Δ² and their ratio (the page's table of the paper's constants).

A page's own values (α, the seed, the MVG rows) come from the URL, as :func:`snippet`'s ``values``.
"""

from __future__ import annotations

from typing import Mapping

from gaussmech_core.registry_types import Setting

from .format import format_exact

__all__ = ["PAGE_NUMBERS", "snippet", "setting_expression", "parse_output"]

_HEADER = """# gaussmech: {label} at {line}
# Needs only gaussmech_core (numpy + scipy): run it from a checkout of gaussmech, or after `pip install .`
from gaussmech_core.mechanisms import Setting, calibrate_all

setting = {setting}
"""

_CALIBRATION = """
print("mechanism | scale | std per coordinate | E|noise|^2")
for c in calibrate_all(setting):
    if c.scale is None:
        print(f"{c.mechanism.name} | not valid here: {c.validity.reason}")
    else:
        print(f"{c.mechanism.name} | {c.scale:.6g} | {c.coordinate_std:.6g} | {c.expected_loss:.6g}")
"""

_RISK = """
import numpy as np
from gaussmech_core.attack_risk import attack_risk_all

prior = {prior}  # the attacker's belief, before the release, that Alice is in the data
print("mechanism | true delta at epsilon | advantage | TPR at 1% FPR | TPR at 0.1% FPR | posterior at 1% FPR")
for r in attack_risk_all(setting, false_positive_rates=(0.01, 0.001), prior=prior):
    if r.scale is None:
        print(f"{{r.mechanism.name}} | not valid here: {{r.reason}}")
        continue
    true_delta = float(r.mechanism.privacy_profile(np.array([setting.epsilon]), r.scale, setting)[0])
    tpr_1, tpr_01 = r.true_positive_rates
    print(f"{{r.mechanism.name}} | {{true_delta:.6g}} | {{r.advantage:.6g}} | {{tpr_1:.6g}} | {{tpr_01:.6g}} | {{r.posteriors[0]:.6g}}")
"""

_SAMPLES = """
from gaussmech_core import tails
from gaussmech_core.mechanisms import MECHANISMS
from gaussmech_core.streams import mechanism_rng

mechanism_id, size, seed = {mechanism!r}, {size}, {seed}  # the "Draw samples" view: its mechanism, n and seed
print("mechanism | draws | seed | std of the draws | exact std")
for c in calibrate_all(setting):
    if c.mechanism.id == mechanism_id and c.scale is not None:
        draws = tails.coordinate_sample(c.mechanism, mechanism_rng(seed, mechanism_id), size, c.scale, setting)
        print(f"{{c.mechanism.name}} | {{size}} | {{seed}} | {{draws.std():.6g}} | {{c.coordinate_std:.6g}}")
"""

_TAIL_BOUNDS = """
from gaussmech_core import tails

alpha = {alpha}  # the error bound holds with probability 1 - alpha
print("mechanism | per-coordinate error bound at confidence 1 - alpha")
for c in calibrate_all(setting):
    if c.scale is not None:
        print(f"{{c.mechanism.name}} | {{tails.coordinate_error_bound(c.mechanism, c.scale, setting, alpha):.6g}}")
"""

_PAPER_CONSTANTS = """
import dataclasses

from gaussmech_core import multivariate

rows, gamma_ratio = {rows}, {gamma}  # the page's MVG shape (rows x d/rows) and gamma / sensitivity
matrix = dataclasses.replace(setting, mvg_shape=(rows, setting.dim // rows), mvg_gamma=gamma_ratio * setting.sensitivity)
eps, delta, d, scale = setting.epsilon, setting.delta, setting.dim, setting.sensitivity**2
constants = {{  # Ji & Li's stated constants (C_C only where the classical Gaussian is a theorem, C_R from d = 3)
    "classical_gaussian": multivariate.ji_li_constant_classical(eps, delta, d) if eps < 1 else None,
    "analytic_gaussian": multivariate.ji_li_constant_analytic(eps, delta, d),
    "mvg_iid": multivariate.ji_li_constant_mvg(eps, rows, d // rows),
    "r1smg": multivariate.ji_li_constant_r1smg(eps, delta, d) if d >= 3 else None,
}}
print("mechanism | exact E|noise|^2 at d | Ji & Li's constant x sensitivity^2 | exact / paper")
for c in calibrate_all(matrix):
    if c.mechanism.id in constants and c.scale is not None and constants[c.mechanism.id] is not None and eps > 0:
        paper = float(constants[c.mechanism.id]) * scale
        print(f"{{c.mechanism.name}} | {{c.expected_loss:.6g}} | {{paper:.6g}} | {{c.expected_loss / paper:.6g}}")
"""

PAGE_NUMBERS = {
    "app.py": ("the Overview", (_CALIBRATION,)),
    "pages/0_Class_tour.py": ("the Class tour", (_CALIBRATION, _RISK)),
    "pages/1_Noise_distributions.py": ("Noise distributions", (_CALIBRATION, _SAMPLES)),
    "pages/2_Tail_probabilities.py": ("Tail probabilities", (_CALIBRATION, _TAIL_BOUNDS)),
    "pages/3_Privacy_profiles.py": ("Privacy profiles", (_CALIBRATION, _RISK)),
    "pages/4_Accuracy_vs_dimension.py": ("Accuracy vs dimension", (_CALIBRATION, _PAPER_CONSTANTS)),
    "pages/5_Denoising_lab.py": ("the Denoising lab", (_CALIBRATION,)),
}


def setting_expression(setting: Setting) -> str:
    """Python source that rebuilds ``setting`` exactly (shortest round-trip numbers).

    Examples
    --------
    >>> setting_expression(Setting(epsilon=0.5, delta=1e-8, dim=10))
    "Setting(epsilon=0.5, delta=1e-8, sensitivity=1.0, order=2.0, dim=10, l1_model='one_coordinate')"
    """

    def number(value: float) -> str:
        text = format_exact(value)
        return text if any(c in text for c in ".einf") else text + ".0"

    return (
        f"Setting(epsilon={number(setting.epsilon)}, delta={number(setting.delta)}, "
        f"sensitivity={number(setting.sensitivity)}, order={number(setting.order)}, dim={setting.dim}, "
        f"l1_model={setting.l1_model!r})"
    )


# A page's own values in the URL, with the page's defaults and their allowed ranges.
_PAGE_VALUES = {
    "alpha": ("tails_alpha", 0.05, 1e-12, 0.5),
    "size": ("distributions_draws", 10_000, 1, 1_000_000),
    "seed": ("distributions_seed", 1, 1, 1_000_000),
    "rows": ("accuracy_mvg_rows", 1, 1, 10**6),
    "gamma": ("accuracy_mvg_gamma", 0.5, 0.5, 1e6),
}


def _page_value(name: str, values: Mapping[str, str]):
    """A page value from the URL's ``values`` (the page's default when missing or not a number in range)."""
    key, default, low, high = _PAGE_VALUES[name]
    try:
        value = type(default)(float(str(values.get(key, default)).replace(",", "")))
    except (TypeError, ValueError, OverflowError):
        return default
    return value if low <= value <= high else default


def snippet(page_path: str, setting: Setting, *, prior: float = 0.5, values: Mapping[str, str] | None = None) -> str:
    """The runnable script of a page (a menu path such as ``"app.py"``) at ``setting``.

    ``values`` are the page's own values from the URL (α, the seed, the MVG shape); missing ones
    take the page's defaults.
    """
    from gaussmech_core.mechanisms import DEFAULT_MECHANISM_ID, MECHANISMS

    from .export import setting_line

    values = values or {}
    label, parts = PAGE_NUMBERS.get(page_path, ("this page", (_CALIBRATION,)))
    header = _HEADER.format(label=label, line=setting_line(setting), setting=setting_expression(setting))
    mechanism = values.get("distributions_sample_mechanism", DEFAULT_MECHANISM_ID)
    from .figures.common import trace_name

    by_label = {label: key for key, entry in MECHANISMS.items() for label in (key, entry.name, trace_name(entry))}
    rows = _page_value("rows", values)
    fields = dict(
        prior=format_exact(prior),
        alpha=format_exact(_page_value("alpha", values)),
        mechanism=by_label.get(mechanism, DEFAULT_MECHANISM_ID),
        size=_page_value("size", values),
        seed=_page_value("seed", values),
        rows=rows if setting.dim % rows == 0 else 1,
        gamma=format_exact(_page_value("gamma", values)),
    )
    body = "".join(part if part is _CALIBRATION else part.format(**fields) for part in parts)
    return header + body


def parse_output(text: str) -> list[dict[str, list[str]]]:
    r"""A snippet's printed tables: one dict per table (``{mechanism name: [cell, ...]}``), in order.

    Examples
    --------
    >>> parse_output("mechanism | scale\nLaplace | 1\nmechanism | advantage\nLaplace | 0.39")
    [{'Laplace': ['1']}, {'Laplace': ['0.39']}]
    """
    tables: list[dict[str, list[str]]] = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.split(" | ")]
        if cells[0] == "mechanism":
            tables.append({})
        elif tables and len(cells) > 1:
            tables[-1][cells[0]] = cells[1:]
    return tables
