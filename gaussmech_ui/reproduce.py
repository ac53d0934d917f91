""" "Reproduce in Python": a short, runnable script per page that computes the page's key numbers.

Every page ends with an expander holding :func:`snippet` for its page at the current setting: a
script that imports only :mod:`gaussmech_core` (numpy and scipy), builds the same
:class:`~gaussmech_core.registry_types.Setting` and prints the numbers the page shows, one line
per mechanism, ``name | value | value ...`` with six significant digits. The test suite runs every
snippet for several settings and compares its output with what the page displays.

Which numbers, by page (:data:`PAGE_NUMBERS`):

* Overview, Noise distributions, Accuracy vs dimension, Tail probabilities, Denoising lab: each
  mechanism's calibrated scale, noise std per coordinate and E‖noise‖₂² (the Overview's table),
  or the reason its guarantee does not hold;
* Privacy profiles and the Class tour: also each mechanism's true δ at the setting's ε and what
  the best membership attacker can do (advantage, TPR at 1 % and 0.1 % FPR, posterior belief).
"""

from __future__ import annotations

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

PAGE_NUMBERS = {
    "app.py": ("the Overview", (_CALIBRATION,)),
    "pages/0_Class_tour.py": ("the Class tour", (_CALIBRATION, _RISK)),
    "pages/1_Noise_distributions.py": ("Noise distributions", (_CALIBRATION,)),
    "pages/2_Tail_probabilities.py": ("Tail probabilities", (_CALIBRATION,)),
    "pages/3_Privacy_profiles.py": ("Privacy profiles", (_CALIBRATION, _RISK)),
    "pages/4_Accuracy_vs_dimension.py": ("Accuracy vs dimension", (_CALIBRATION,)),
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


def snippet(page_path: str, setting: Setting, *, prior: float = 0.5) -> str:
    """The runnable script of a page (a menu path such as ``"app.py"``) at ``setting``."""
    from .export import setting_line

    label, parts = PAGE_NUMBERS.get(page_path, ("this page", (_CALIBRATION,)))
    header = _HEADER.format(label=label, line=setting_line(setting), setting=setting_expression(setting))
    body = "".join(part.format(prior=format_exact(prior)) if part is _RISK else part for part in parts)
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
