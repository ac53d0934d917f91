""" "Reproduce in Python": a short, runnable script per page that computes the page's key numbers.

Every page ends with an expander holding :func:`snippet` for its page at the current setting: a
script that imports only :mod:`gaussmech_core` (numpy and scipy), builds the same
:class:`~gaussmech_core.registry_types.Setting` and prints the numbers the page shows, one line
per mechanism, ``name | value | value ...`` with six significant digits. The test suite runs every
snippet for several settings and compares its output with what the page displays.

Which numbers, by page (:data:`PAGE_NUMBERS`):

* every page: each mechanism's calibrated scale, noise std per coordinate and E‖noise‖₂² (the
  Overview's table), or the reason its guarantee does not hold;
* every page: whether a claimed guarantee holds (R1SMG's claim FAILS where its true δ exceeds δ);
* Privacy profiles and the Class tour: also each mechanism's true δ at the setting's ε and what
  the best membership attacker can do (advantage, TPR at 1 % and 0.1 % FPR, posterior belief);
  Privacy profiles also the hypothesis-testing view's numbers (σ, μ = Δ/σ, the attacker's power
  at the view's α for the analytic Gaussian and for any (ε, δ)-DP mechanism);
* Noise distributions: the standard deviation of the page's seeded draws ("Draw samples": the
  mechanism, the number of draws n and the seed from the link) against the exact one;
* Tail probabilities: each mechanism's per-coordinate error bound at confidence 1 − α (α from the link);
* Accuracy vs dimension: E‖noise‖₂² at the current d with the page's MVG shape and γ, beside Ji &
  Li's stated constant × Δ² and their ratio (the page's table of the paper's constants);
* Training (DP-SGD): the certified σ with its bracket [ε_low, ε_high], the noise std σ·C, RDP's and
  the CLT's σ, and the attack bounds (N, B, E, C and the prior from the link; Poisson sampling);
* the Denoising lab: its metrics table (each error measure of the release and of the denoised
  estimate, ``metric | released | denoised``), for the page's current release.

A page's own values (α, the seed, the MVG rows) come from the URL, as :func:`snippet`'s ``values``.
What is not in the URL (the lab's counts, its release and its pipeline) the page hands over with
:func:`remember` after computing; the page tools :func:`recall` it and pass it as ``context``.
Counts beyond :data:`MAX_EMBEDDED_VALUES` are not written into the script: it reads them from the
CSV of :func:`context_frame`, offered next to it.
"""

from __future__ import annotations

from typing import Mapping

from gaussmech_core.registry_types import Setting

from .format import format_exact

__all__ = [
    "PAGE_NUMBERS",
    "MAX_EMBEDDED_VALUES",
    "COUNTS_FILE",
    "snippet",
    "setting_expression",
    "parse_output",
    "remember",
    "recall",
    "context_frame",
]

MAX_EMBEDDED_VALUES = 5_000  # more counts than this are read from a CSV instead of written into the script
COUNTS_FILE = "gaussmech-denoising-counts.csv"
_CONTEXT_KEY = "_reproduce_context"

_HEADER = """# gaussmech: {label} at {line}
#
# How to run it, from whatever folder you saved it in: in a checkout of gaussmech, `python3 dev.py run`
# (or `python3 dev.py test`) creates the environment .venv with gaussmech_core installed in it; then
#     <the checkout>/.venv/bin/python {file_name}
# (on Windows <the checkout>\\.venv\\Scripts\\python.exe {file_name}). It needs only gaussmech_core
# (numpy + scipy): in any Python 3.11+ environment, `pip install <the checkout>` works too.
from gaussmech_core.mechanisms import Setting, calibrate_all

setting = {setting}
"""

_CALIBRATION = """
print("mechanism | scale | std per coordinate | E|noise|^2 | claim")
for c in calibrate_all(setting):
    if c.scale is None:
        print(f"{c.mechanism.name} | not valid here: {c.validity.reason}")
        continue
    claim = "holds"
    if c.true_delta is not None and not c.claim_holds:  # a claimed guarantee, checked against its true delta
        claim = f"FAILS: true delta = {c.true_delta:.6g} > delta = {setting.delta:.6g}"
    print(f"{c.mechanism.name} | {c.scale:.6g} | {c.coordinate_std:.6g} | {c.expected_loss:.6g} | {claim}")
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

_TRADEOFF = """
from gaussmech_core import audit, gaussian
from gaussmech_core.mechanisms import DEFAULT_MECHANISM_ID, evaluate

alpha = {testing_alpha}  # the hypothesis-testing view's false-accusation rate (type I error)
sigma = evaluate(DEFAULT_MECHANISM_ID, setting).scale
mu = gaussian.gdp_mu(sigma, setting.sensitivity)
print("metric | value")
print(f"analytic Gaussian sigma | {{sigma:.6g}}")
print(f"mu = sensitivity / sigma | {{mu:.6g}}")
print(f"attacker's power at alpha, analytic Gaussian | {{1 - gaussian.gaussian_tradeoff(alpha, mu):.6g}}")
print(f"attacker's power at alpha, any (epsilon, delta)-DP mechanism | {{audit.max_test_power(alpha, setting.epsilon, setting.delta):.6g}}")
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

_DENOISING = """
import numpy as np
from gaussmech_core.denoise import oracle_prior
from gaussmech_core.histogram import METRICS, NeighbourModel, evaluate_pipelines, release_histogram

{counts}
mechanism_id, neighbours, seed = {mechanism!r}, {neighbours}, {seed}  # the release: mechanism, neighbour model, seed
steps, total = {steps!r}, {total}  # the denoising pipeline, and the public total (None: not public)
prior = {prior}
release = release_histogram(counts, mechanism_id, setting.epsilon, setting.delta, neighbours, setting.order, rng=seed)
raw, denoised = evaluate_pipelines(counts, release.noisy, release.noise_std, [(), steps], total=total, prior=prior)
print("metric | released | denoised")
for metric_id, metric in METRICS.items():
    if metric_id in raw.metrics:  # KL only for a histogram
        print(f"{{metric.name}} | {{raw.metrics[metric_id]:.6g}} | {{denoised.metrics[metric_id]:.6g}}")
size_l2, size_l1 = float(np.mean(counts**2)), float(np.abs(counts).sum())  # the relative errors' yardsticks
if size_l2 > 0:
    print(f"relative l2 error | {{(raw.metrics['mse'] / size_l2) ** 0.5:.6g}} | {{(denoised.metrics['mse'] / size_l2) ** 0.5:.6g}}")
    print(f"relative l1 error | {{raw.metrics['l1'] / size_l1:.6g}} | {{denoised.metrics['l1'] / size_l1:.6g}}")
"""

_DPSGD = """
from gaussmech_core import dpsgd

dataset_size, batch_size, epochs, clipping_norm = {dataset_size}, {batch_size}, {epochs}, {clipping_norm}
prior = {dpsgd_prior}  # the attacker's belief, before seeing the model, that an example is in the training data
# Poisson sampling is what is computed (for shuffled batches these numbers are optimistic).
q, steps = dpsgd.steps_for_epochs(dataset_size, batch_size, epochs)
c = dpsgd.dpsgd_sigma(setting.epsilon, setting.delta, q, steps)
try:
    rdp_sigma = f"{{dpsgd.dpsgd_rdp_sigma(setting.epsilon, setting.delta, q, steps):.6g}}"
except ValueError:
    rdp_sigma = "cannot reach the target"
risk = dpsgd.dpsgd_attack_risk(c.sigma, q, steps, (0.001, 0.01), prior)
print("metric | value")
print(f"sampling rate q | {{q:.6g}}")
print(f"steps T | {{steps}}")
print(f"certified sigma | {{c.sigma:.6g}}")
print(f"epsilon_low | {{c.epsilon_low:.6g}}")
print(f"epsilon_high | {{c.epsilon_high:.6g}}")
print(f"noise std sigma*C | {{c.sigma * clipping_norm:.6g}}")
print(f"RDP sigma | {{rdp_sigma}}")
print(f"CLT sigma | {{dpsgd.dpsgd_clt_sigma(setting.epsilon, setting.delta, q, steps):.6g}}")
print(f"TPR at FPR 0.001 (at most) | {{risk.true_positive_rates[0.001]:.6g}}")
print(f"TPR at FPR 0.01 (at most) | {{risk.true_positive_rates[0.01]:.6g}}")
print(f"advantage (at most) | {{risk.advantage:.6g}}")
print(f"posterior at FPR 0.001 (at most) | {{risk.posterior:.6g}}")
"""

_NO_RELEASE = """
# No release at this setting (no data, or the mechanism is not valid here): the metrics table is not shown.
"""

PAGE_NUMBERS = {
    "app.py": ("the Overview", (_CALIBRATION,)),
    "pages/0_Class_tour.py": ("the Class tour", (_CALIBRATION, _RISK)),
    "pages/1_Noise_distributions.py": ("Noise distributions", (_CALIBRATION, _SAMPLES)),
    "pages/2_Tail_probabilities.py": ("Tail probabilities", (_CALIBRATION, _TAIL_BOUNDS)),
    "pages/3_Privacy_profiles.py": ("Privacy profiles", (_CALIBRATION, _RISK, _TRADEOFF)),
    "pages/4_Accuracy_vs_dimension.py": ("Accuracy vs dimension", (_CALIBRATION, _PAPER_CONSTANTS)),
    "pages/6_Training_DP_SGD.py": ("Training (DP-SGD)", (_DPSGD,)),
    "pages/5_Denoising_lab.py": ("the Denoising lab", (_CALIBRATION, _DENOISING)),
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
    "testing_alpha": ("profiles_alpha", 0.05, 0.0, 1.0),
    "size": ("distributions_draws", 10_000, 1, 1_000_000),
    "seed": ("distributions_seed", 1, 1, 1_000_000),
    "rows": ("accuracy_mvg_rows", 1, 1, 10**6),
    "gamma": ("accuracy_mvg_gamma", 0.5, 0.5, 1e6),
    "dataset_size": ("dpsgd_dataset_size", 60_000, 1, 10**9),
    "batch_size": ("dpsgd_batch_size", 256, 1, 10**9),
    "epochs": ("dpsgd_epochs", 10.0, 1e-300, 1e6),
    "clipping_norm": ("dpsgd_clipping_norm", 1.0, 1e-12, 1e12),
    "dpsgd_prior": ("dpsgd_prior", 0.5, 1e-6, 1.0 - 1e-16),
}


def _page_value(name: str, values: Mapping[str, str]):
    """A page value from the URL's ``values`` (the page's default when missing or not a number in range)."""
    key, default, low, high = _PAGE_VALUES[name]
    try:
        value = type(default)(float(str(values.get(key, default)).replace(",", "")))
    except (TypeError, ValueError, OverflowError):
        return default
    return value if low <= value <= high else default


def _literal(value) -> str:
    """Python source for a number, an array or a tuple of them (shortest round-trip numbers)."""
    import numpy as np

    if value is None:
        return "None"
    if isinstance(value, tuple):
        return "(" + ", ".join(_literal(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    array = np.asarray(value, dtype=float)
    if array.ndim == 0:
        text = format_exact(float(array))
        return text if any(c in text for c in ".einf") else text + ".0"
    flat = "np.array([" + ", ".join(format_exact(v) for v in array.reshape(-1).tolist()) + "])"
    return flat if array.ndim == 1 else f"{flat}.reshape{array.shape}"


def _neighbours_expression(model) -> str:
    """A relation's name when ``model`` is one, else ``NeighbourModel(k, c)``."""
    from gaussmech_core.histogram import RELATIONS, neighbour_model

    if isinstance(model, str):
        return repr(model)
    for name in RELATIONS:
        reference = neighbour_model(name)
        if (reference.changed_coordinates, reference.coordinate_sensitivity) == (
            model.changed_coordinates,
            model.coordinate_sensitivity,
        ):
            return repr(name)
    return f"NeighbourModel({model.changed_coordinates}, {_literal(model.coordinate_sensitivity)})"


def _counts_statement(counts) -> str:
    import numpy as np

    counts = np.asarray(counts, dtype=float)
    if counts.size <= MAX_EMBEDDED_VALUES:
        return f"counts = {_literal(counts)}.astype(float)  # the true counts (shown by the lab, never released)"
    shape = "" if counts.ndim == 1 else f".reshape{counts.shape}"
    return (
        f"# The {counts.size:,} true counts are too many to write here: download them with the script, as\n"
        f"# {COUNTS_FILE} (one column, exact values), into the folder you run it from.\n"
        f'counts = np.loadtxt({COUNTS_FILE!r}, delimiter=",", skiprows=1, encoding="utf-8-sig"){shape}'
    )


def _context_fields(context: Mapping) -> dict[str, str]:
    """The lab's release and pipeline as the source text of :data:`_DENOISING`'s fields."""
    if context.get("oracle_prior") and context.get("prior") is not None:
        prior = "oracle_prior(counts)  # the oracle prior: the mean and spread of the true counts (a yardstick)"
    else:
        prior = (
            _literal(context.get("prior"))
            + "  # the posterior mean's prior (mean, variance), known from how the data were made"
        )
    total = context.get("total")
    return dict(
        counts=_counts_statement(context["counts"]),
        mechanism=str(context["mechanism"]),
        neighbours=_neighbours_expression(context["neighbours"]),
        seed=int(context["seed"]),
        steps=tuple(str(step) for step in context["steps"]),
        total="None" if total is None else _literal(total),
        prior=prior,
    )


def remember(page_path: str, **context) -> None:
    """Hand the page tools what the page's script needs beyond the URL (this run only).

    Call it after computing the page's numbers; :func:`recall` (the page tools, every run) takes
    it back, so a context never outlives the run that made it.
    """
    import streamlit as st

    st.session_state[_CONTEXT_KEY] = (page_path, context)


def recall(page_path: str) -> dict | None:
    """The context :func:`remember` stored for ``page_path`` in this run (None if none), and forget it."""
    import streamlit as st

    stored = st.session_state.pop(_CONTEXT_KEY, None)
    return stored[1] if stored is not None and stored[0] == page_path else None


def context_frame(context: Mapping | None):
    """The counts as a one-column table for the script to read (None when they are written into it)."""
    if not context or "counts" not in context:
        return None
    import numpy as np
    import pandas as pd

    counts = np.asarray(context["counts"], dtype=float).reshape(-1)
    return pd.DataFrame({"count": counts}) if counts.size > MAX_EMBEDDED_VALUES else None


def snippet(
    page_path: str,
    setting: Setting,
    *,
    prior: float = 0.5,
    values: Mapping[str, str] | None = None,
    context: Mapping | None = None,
    file_name: str = "this_script.py",
    line: str | None = None,
) -> str:
    """The runnable script of a page (a menu path such as ``"app.py"``) at ``setting``.

    ``values`` are the page's own values from the URL (α, the seed, the MVG shape); missing ones
    take the page's defaults. ``context`` is what the page handed over with :func:`remember`
    (the lab's counts, mechanism, neighbour model, seed, steps, total and prior); a part that
    needs it is replaced by a comment when there is none. ``line`` is the page's setting line for
    the header (:meth:`gaussmech_ui.page_facts.PageFacts.line`); by default the whole sidebar's.
    """
    from gaussmech_core.mechanisms import DEFAULT_MECHANISM_ID, MECHANISMS

    from .export import setting_line

    values = values or {}
    label, parts = PAGE_NUMBERS.get(page_path, ("this page", (_CALIBRATION,)))
    header = _HEADER.format(
        label=label, line=line or setting_line(setting), setting=setting_expression(setting), file_name=file_name
    )
    mechanism = values.get("distributions_sample_mechanism", DEFAULT_MECHANISM_ID)
    from .figures.common import trace_name

    by_label = {label: key for key, entry in MECHANISMS.items() for label in (key, entry.name, trace_name(entry))}
    rows = _page_value("rows", values)
    fields = dict(
        prior=format_exact(prior),
        alpha=format_exact(_page_value("alpha", values)),
        testing_alpha=format_exact(_page_value("testing_alpha", values)),
        mechanism=by_label.get(mechanism, DEFAULT_MECHANISM_ID),
        size=_page_value("size", values),
        seed=_page_value("seed", values),
        rows=rows if setting.dim % rows == 0 else 1,
        gamma=format_exact(_page_value("gamma", values)),
        dataset_size=_page_value("dataset_size", values),
        batch_size=_page_value("batch_size", values),
        epochs=_literal(_page_value("epochs", values)),
        clipping_norm=_literal(_page_value("clipping_norm", values)),
        dpsgd_prior=_literal(_page_value("dpsgd_prior", values)),
    )
    if context and "counts" in context:
        fields.update(_context_fields(context))
    body = "".join(
        _NO_RELEASE
        if part is _DENOISING and "counts" not in fields
        else part
        if part is _CALIBRATION
        else part.format(**fields)
        for part in parts
    )
    return header + body


def parse_output(text: str) -> list[dict[str, list[str]]]:
    r"""A snippet's printed tables: one dict per table (``{mechanism name: [cell, ...]}``), in order.

    Examples
    --------
    >>> parse_output("mechanism | scale\nLaplace | 1\nmechanism | advantage\nLaplace | 0.39")
    [{'Laplace': ['1']}, {'Laplace': ['0.39']}]
    >>> parse_output("metric | released | denoised\nMSE | 4.1 | 0.5")
    [{'MSE': ['4.1', '0.5']}]
    """
    tables: list[dict[str, list[str]]] = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.split(" | ")]
        if cells[0] in ("mechanism", "metric"):
            tables.append({})
        elif tables and len(cells) > 1:
            tables[-1][cells[0]] = cells[1:]
    return tables
