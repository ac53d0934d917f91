"""What each page uses, as data: the setting fields it reads, its own inputs and their names.

The page tools state a view's setting on every figure export, slide, report and shared link. A
page that reads only some of the sidebar (the Training page uses ε and δ, not Δ₂, d or the
neighbour model) must not have the others printed on its slides, as if they mattered. So each
page has :class:`PageFacts` (:data:`PAGE_FACTS`, keyed by the page's script; every other page
has :data:`GENERIC`), and the tools ask them:

* :meth:`PageFacts.line` — the setting line: the sidebar fields the page uses, then its own
  inputs in use (``N = 60,000``) and what they give (``Poisson sampling (q = …, T = … steps)``);
* :meth:`PageFacts.describe_own` — a link's own value by its human label (``Dataset size N = 1,000``);
* :attr:`PageFacts.uses_mechanisms` — whether the registry's mechanisms (their calibration
  table, warnings, formulas and sources) belong in the page's report.

The values of a page's own inputs are those the page used in this run: it hands them over with
:func:`gaussmech_ui.chart_log.note_inputs`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from gaussmech_core.registry_types import Setting

from . import training
from .format import format_number
from .params import Parameter, parse_value

__all__ = ["SETTING_FIELDS", "PageFacts", "GENERIC", "PAGE_FACTS", "facts_for", "training_line_tail"]

# The sidebar's fields as a setting line states them, in order (the last one is the neighbour model with its Δ₁).
SETTING_FIELDS = ("epsilon", "delta", "sensitivity", "dim", "l1_model")


def _field_text(name: str, setting: Setting) -> str:
    if name == "epsilon":
        return f"ε = {format_number(setting.epsilon)}"
    if name == "delta":
        return f"δ = {format_number(setting.delta)}"
    if name == "sensitivity":
        return f"Δ₂ = {format_number(setting.sensitivity)}"
    if name == "dim":
        return f"d = {setting.dim}"
    if name == "l1_model":
        neighbours = "one coordinate changes" if setting.l1_model == "one_coordinate" else "every coordinate may change"
        return f"{neighbours} (Δ₁ = {format_number(setting.l1_sensitivity)})"
    raise ValueError(f"setting field must be one of {', '.join(SETTING_FIELDS)}, got {name!r}")


def _value_text(parameter: Parameter, value: Any) -> str:
    """``60,000``: whole numbers in full with separators, others to 6 significant digits."""
    return f"{int(value):,}" if parameter.kind == "int" else format_number(float(value), 6)


@dataclass(frozen=True)
class PageFacts:
    """What a page uses: the sidebar fields, its own inputs (stated in order), and their names.

    ``line_inputs`` are the own inputs the setting line states; ``other_inputs`` are further own
    inputs that a link may hold (named in the Share box only); ``choice_labels`` name the page's
    own choices (a selectbox's URL key → its label); ``line_tail`` writes what the inputs in use
    give (``""`` when they give nothing).
    """

    setting_fields: tuple[str, ...] = SETTING_FIELDS
    line_inputs: tuple[Parameter, ...] = ()
    other_inputs: tuple[Parameter, ...] = ()
    choice_labels: Mapping[str, str] = field(default_factory=dict)
    line_tail: Callable[[Mapping[str, Any]], str] | None = None
    uses_mechanisms: bool = True
    sources: tuple[str, ...] = ()  # the page's own sources, for its report (besides the mechanisms')

    def line(self, setting: Setting, values: Mapping[str, Any] | None = None) -> str:
        """The setting line: the sidebar fields used, then the own inputs in ``values`` (by URL key), then the tail."""
        values = values or {}
        parts = [_field_text(name, setting) for name in self.setting_fields]
        parts += [f"{p.symbol} = {_value_text(p, values[p.url_key])}" for p in self.line_inputs if p.url_key in values]
        tail = self.line_tail(values) if self.line_tail is not None else ""
        return ", ".join(parts + ([tail] if tail else []))

    def describe_own(self, key: str, text: str) -> str | None:
        """A link's own value by its label (``Dataset size N = 1,000``); ``None`` when the page does not name ``key``."""
        for parameter in (*self.line_inputs, *self.other_inputs):
            if parameter.url_key == key:
                try:
                    return f"{parameter.label} = {_value_text(parameter, parse_value(parameter, text))}"
                except ValueError:
                    return f"{parameter.label} = {text} (not usable: the page keeps its last good value)"
        if key in self.choice_labels:
            return f"{self.choice_labels[key]}: {text}"
        return None


GENERIC = PageFacts()


def training_line_tail(values: Mapping[str, Any]) -> str:
    """The sampling scheme and the q = B/N and T = ⌈E·N/B⌉ the Training page's inputs give (docs/math.md
    section 13.1); just the scheme when the inputs give no schedule."""
    scheme = "Poisson sampling"
    try:
        plan = training.schedule(
            int(values["dpsgd_dataset_size"]),
            int(values["dpsgd_batch_size"]),
            float(values["dpsgd_epochs"]),
            budget=None,
        )
    except (KeyError, TypeError, ValueError):
        pass
    else:
        scheme += f" (q = {format_number(plan.sampling_rate, 4)}, T = {plan.steps:,} steps)"
    if values.get("dpsgd_sampling") == training.SHUFFLED:  # as the page's charts say it
        scheme += "; you shuffle: optimistic"
    return scheme


PAGE_FACTS: dict[str, PageFacts] = {
    "pages/6_Training_DP_SGD.py": PageFacts(
        setting_fields=("epsilon", "delta"),
        line_inputs=(training.DATASET_SIZE, training.BATCH_SIZE, training.EPOCHS, training.CLIPPING_NORM),
        other_inputs=(training.PRIOR,),
        choice_labels={"dpsgd_sampling": "Batches"},
        line_tail=training_line_tail,
        uses_mechanisms=False,
        sources=(
            "DP-SGD: Abadi et al. 2016",
            "Poisson-subsampled Gaussian, dominating pairs: Zhu, Dong & Wang 2022; Mironov, Talwar & Zhang 2019",
            "Certified accounting: Doroshenko et al. 2022 (Connect the Dots)",
            "RDP: Mironov, Talwar & Zhang 2019",
            "CLT approximation: Bu et al. 2020",
        ),
    ),
}


def facts_for(page_path: str) -> PageFacts:
    """The facts of the page whose script is ``page_path`` (a menu path such as ``"app.py"``)."""
    return PAGE_FACTS.get(page_path, GENERIC)
