"""A report of the current view: one self-contained HTML file, as a brief or in full.

One template, two versions (:func:`build_report`):

* **brief** (``"brief"``): for stakeholders, one printed page: the setting line with δ stated, the
  odds framing of ε, the calibration table of the featured mechanisms, every warning the app
  shows at this setting, the page's first chart with its caption, and one line of sources;
* **full** (``"full"``): everything above plus every chart of the page with its caption, the
  page's own summaries, the table of every registered mechanism, the formulas (the page's LaTeX
  and the formulas gaussmech computes, written out) and every mechanism's source.

A page that uses no mechanism of the registry (the Training page) has no calibration table, no
registry warnings, formulas or sources: its own tables and sources stand in their place, and its
setting line states what it uses (:mod:`gaussmech_ui.page_facts`).

The file works offline: Plotly's JavaScript is embedded (about 4.6 MB), charts stay interactive,
and nothing is fetched from the network. The print style sheet fits A4 and Letter: no page
chrome, charts and table rows never split across pages, table headers repeated.

Warnings come from two places, so none is lost: what the page showed (``st.warning`` /
``st.error``, recorded by :mod:`gaussmech_ui.chart_log`) and what the registry says at the
setting (a guarantee that does not hold, with its reason; a claimed guarantee whose computed true
δ exceeds the claimed δ).
"""

from __future__ import annotations

import datetime as _datetime
import html
import re
from dataclasses import dataclass, field
from functools import lru_cache

import plotly.graph_objects as go
import plotly.io as pio

from gaussmech_core.mechanisms import MECHANISMS, calibrate_all
from gaussmech_core.registry_types import Setting

from .claims.odds import odds_sentence
from .export import legend_below
from .format import format_number
from .page_facts import GENERIC, PageFacts

__all__ = ["VERSIONS", "ReportChart", "registry_warnings", "build_report", "report_file_name"]

VERSIONS = {"brief": "Brief (one page)", "full": "Full report with the math"}
# A4's text is 190 mm wide between 10 mm margins (Letter's 196 mm): 680 CSS pixels fit both.
BRIEF_CHART_WIDTH = 680
BRIEF_CHART_HEIGHT = 260

# The formulas gaussmech computes, as readable text (no MathJax offline); docs/math.md has the derivations.
CORE_FORMULAS = (
    (
        "Analytic Gaussian (Balle & Wang 2018, Thm. 8)",
        "the smallest σ with Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ) ≤ δ",
    ),
    ("Classical Gaussian (Dwork & Roth 2014, Thm. A.1), only for 0 < ε < 1", "σ = Δ √(2 ln(1.25/δ)) / ε"),
    ("Laplace (Dwork, McSherry, Nissim & Smith 2006)", "b = Δ₁ / ε, std = √2 b"),
    (
        "Trade-off curve from a privacy profile (Dong, Roth & Su 2022, Prop. 2.12)",
        "β(α) = sup_ε max(0, 1 − δ(ε) − e^ε α, e^{−ε}(1 − δ(ε) − α)); for Gaussian noise β(α) = Φ(Φ⁻¹(1 − α) − Δ/σ)",
    ),
    ("Best membership attacker", "advantage = max_α (1 − α − β(α)) = δ(0); TPR at FPR α = 1 − β(α)"),
    ("Posterior belief (Bayes' rule)", "posterior odds = prior odds × TPR/FPR ≤ prior odds × (e^ε + δ/FPR)"),
)


@dataclass(frozen=True)
class ReportChart:
    """A chart of the page, with the caption the page showed under it."""

    figure: go.Figure
    title: str = ""
    caption: str = ""
    answer: str = ""


@dataclass(frozen=True)
class ReportContent:
    """Everything a report shows besides the registry's numbers."""

    page_label: str
    setting: Setting
    charts: list[ReportChart] = field(default_factory=list)
    page_warnings: list[str] = field(default_factory=list)
    page_notes: list[str] = field(default_factory=list)
    latex: list[str] = field(default_factory=list)
    link: str = ""
    facts: PageFacts = GENERIC  # what the page uses (page_facts): its setting line, whether mechanisms apply
    inputs: dict = field(default_factory=dict)  # the page's own inputs in use, by URL key
    tables: list = field(default_factory=list)  # the page's own tables: (title, DataFrame as shown)


@lru_cache(maxsize=1)
def _plotly_js() -> str:
    from plotly.offline import get_plotlyjs

    return get_plotlyjs()


def registry_warnings(setting: Setting) -> list[str]:
    """Every mechanism whose guarantee does not hold here (and why), and every false claim."""
    messages = []
    for calibration in calibrate_all(setting):
        name = calibration.mechanism.name
        if not calibration.validity.valid:
            messages.append(f"{name}: {calibration.validity.reason}")
        elif calibration.true_delta is not None and not calibration.claim_holds:
            messages.append(
                f"{name}: claims (ε, δ) = ({format_number(setting.epsilon)}, {format_number(setting.delta)}), but the "
                f"computed true δ of its noise at this ε is {format_number(calibration.true_delta)}, "
                f"{format_number(calibration.true_delta / setting.delta)} times the claimed δ."
            )
    return messages


def _calibration_table(setting: Setting, featured_only: bool) -> str:
    """The calibration table; the brief (``featured_only``) says "not valid here" where the full report gives the reason
    (the brief's warnings give it once)."""
    rows = []
    analytic = None
    calibrations = calibrate_all(setting, featured_only=featured_only)
    for calibration in calibrations:
        if calibration.mechanism.is_default and calibration.expected_loss:
            analytic = calibration.expected_loss
    for calibration in calibrations:
        mechanism = calibration.mechanism
        if calibration.scale is None:
            reason = "not valid here (see the warnings)" if featured_only else calibration.validity.reason
            cells = ["–", "–", "–", html.escape(reason)]
        else:
            ratio = "–" if not analytic else format_number(calibration.expected_loss / analytic) + "×"
            note = ""
            if calibration.true_delta is not None:
                note = f"claimed; true δ = {format_number(calibration.true_delta)}"
            cells = [
                f"{html.escape(mechanism.scale_symbol)} = {format_number(calibration.scale)}",
                format_number(calibration.coordinate_std),
                f"{format_number(calibration.expected_loss)} ({ratio})",
                html.escape(note),
            ]
        row_class = "" if calibration.scale is not None else ' class="invalid"'
        rows.append(
            f"<tr{row_class}><th scope='row'>{html.escape(mechanism.name)}</th><td>{html.escape(mechanism.guarantee_label)}</td>"
            + "".join(
                f"<td class='scale'>{cell}</td>" if index == 0 else f"<td>{cell}</td>"
                for index, cell in enumerate(cells)
            )
            + "</tr>"
        )
    return (
        "<table><thead><tr><th>Mechanism</th><th>Guarantee</th><th>Scale</th><th>Noise std per coordinate</th>"
        "<th>E‖noise‖₂² (× analytic)</th><th>Note</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
    )


def _page_table(title: str, frame) -> str:
    """A table the page showed (its values already formatted as shown), escaped."""
    head = "".join(f"<th>{html.escape(str(column))}</th>" for column in frame.columns)
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(value))}</td>" for value in row) + "</tr>"
        for row in frame.itertuples(index=False)
    )
    return (
        f"<h2>{html.escape(title)}</h2><div class='table-wrap'><table><thead><tr>{head}</tr></thead>"
        f"<tbody>{rows}</tbody></table></div>"
    )


_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_INLINE_MATH = re.compile(r"(?<!\\)\$([^$]+)\$")
# The repository's math reference is named, not given as a path (a report is read away from the code).
_MATH_REFERENCE_PATH = re.compile(r"docs/math\.md")
MATH_REFERENCE_NAME = "gaussmech's math reference"


def _math(source: str, display: str = "inline") -> str:
    """LaTeX typeset offline as MathML (Chromium, Firefox and Safari draw it without any script)."""
    from latex2mathml.converter import convert

    try:
        return convert(source, display=display)
    except Exception:  # a formula the converter cannot read is shown as code, never lost
        return f"<code>{html.escape(source)}</code>"


def _link(match: re.Match) -> str:
    text, target = match.group(1), html.unescape(match.group(2))
    if target.startswith(("http://", "https://")):
        return f"<a href='{html.escape(target)}'>{text}</a>"
    return text  # a link relative to the app is dead in a downloaded file: its words stay


def _inline(text: str) -> str:
    """A page's message (Streamlit Markdown) as safe HTML: escaped, with **bold**, `code`, links
    (absolute ones kept, relative ones as their words) and $math$ (as MathML); no file paths."""
    pieces = []
    for index, piece in enumerate(_INLINE_MATH.split(text)):
        if index % 2:
            pieces.append(_math(piece))
            continue
        escaped = html.escape(piece, quote=False)
        escaped = _CODE.sub(r"<code>\1</code>", _BOLD.sub(r"<strong>\1</strong>", escaped))
        pieces.append(_MATH_REFERENCE_PATH.sub(MATH_REFERENCE_NAME, _LINK.sub(_link, escaped)))
    return "".join(pieces)


def answer_paragraph(content: "ReportContent") -> str:
    """The report's opening: the plain-language answer the page wrote for its first chart (its first
    paragraph), else that chart's caption; empty when the page drew no chart."""
    for chart in content.charts[:1]:
        return (chart.answer or chart.caption).strip().split("\n")[0]
    return ""


def _chart_html(chart: ReportChart, index: int, *, compact: bool) -> str:
    figure = go.Figure(chart.figure)
    # The brief's chart is as wide as a printed A4 or Letter page's text (so nothing is cut at the
    # right) and short enough for one page; the full report's charts follow the window.
    figure.update_layout(width=BRIEF_CHART_WIDTH if compact else None, autosize=not compact)
    # The legend below the plot in columns, as on a slide; the brief leaves hidden traces out and is shorter.
    legend_below(
        figure,
        top=figure.layout.margin.t or 80,
        height=BRIEF_CHART_HEIGHT if compact else (figure.layout.height or 540),
        drop_hidden=compact,
        row_height=22 if compact else 28,
    )
    if compact:
        figure.update_layout(font=dict(size=11), title_font=dict(size=14), legend_font=dict(size=10))
    body = pio.to_html(
        figure,
        include_plotlyjs=False,
        full_html=False,
        div_id=f"chart-{index}",
        config={"displaylogo": False, "responsive": True},
    )
    # The brief opens with the chart's answer, so it leaves the caption (how to read the live chart) out.
    caption = f"<figcaption>{_inline(chart.caption)}</figcaption>" if chart.caption and not compact else ""
    return f"<figure class='chart'>{body}{caption}</figure>"


_STYLE = """
:root { color-scheme: light; }
body { font-family: "Source Sans Pro", "Helvetica Neue", Arial, sans-serif; color: #111; margin: 0 auto;
       max-width: 1100px; padding: 24px 32px; line-height: 1.45; font-size: 16px; }
h1 { font-size: 1.7rem; margin: 0 0 4px; } h2 { font-size: 1.25rem; margin: 22px 0 8px; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05rem; margin: 14px 0 4px; }
.setting { font-size: 1.1rem; font-weight: 600; background: #f2f5f9; padding: 8px 12px; border-left: 4px solid #0072B2; }
.meta { color: #555; font-size: 0.9rem; }
.warnings li { color: #7a3b00; } .warnings { background: #fff6e5; padding: 8px 12px 8px 32px; border-left: 4px solid #E69F00; }
table { border-collapse: collapse; width: 100%; font-size: 0.92rem; margin: 8px 0; }
th, td { border: 1px solid #bbb; padding: 4px 6px; text-align: left; vertical-align: top; }
thead th { background: #eef1f5; } td.scale { white-space: nowrap; } tr.invalid td, tr.invalid th { color: #777; }
.table-wrap { overflow-x: auto; }
figure.chart { margin: 12px 0 20px; } figcaption { font-size: 0.92rem; color: #333; margin-top: 4px; }
code, pre { font-family: "Source Code Pro", Menlo, Consolas, monospace; font-size: 0.85rem; }
pre { white-space: pre-wrap; background: #f7f7f7; padding: 6px 8px; }
@page { size: auto; margin: 10mm; }
.answer { font-size: 1.1rem; }
@media print {
  body { max-width: none; padding: 0; font-size: 9.5pt; line-height: 1.25; }
  h1 { font-size: 14pt; } h2 { font-size: 11pt; margin: 8px 0 3px; }
  .answer { font-size: 9.5pt; }
  figure.chart { margin: 6px 0; }
  .no-print { display: none !important; }
  .table-wrap { overflow: visible; }
  table { font-size: 7.5pt; page-break-inside: auto; margin: 4px 0; }
  th, td { padding: 0 4px; }
  .warnings { padding: 3px 8px 3px 22px; margin: 3px 0; font-size: 8.5pt; }
  .setting { font-size: 10.5pt; padding: 4px 8px; margin: 4px 0; }
  .meta { font-size: 8pt; }
  p { margin: 4px 0; }
  tr, figure.chart, .warnings, .setting { break-inside: avoid; page-break-inside: avoid; }
  thead { display: table-header-group; }
  h2, h3 { break-after: avoid; }
  a { color: inherit; text-decoration: none; }
}
"""


def build_report(content: ReportContent, version: str = "brief", *, now: _datetime.datetime | None = None) -> str:
    """The report as one HTML document (a ``str``), ``version`` ``"brief"`` or ``"full"``."""
    if version not in VERSIONS:
        raise ValueError(f"version must be one of {', '.join(VERSIONS)}, got version={version!r}")
    setting = content.setting
    facts = content.facts
    full = version == "full"
    stamp = (now or _datetime.datetime.now(_datetime.timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
    page_text = " ".join(content.page_warnings)
    registry = registry_warnings(setting) if facts.uses_mechanisms else []
    own = [message for message in registry if message.split(":", 1)[0] not in page_text]
    warnings = list(dict.fromkeys([*content.page_warnings, *own]))  # the page's own words first, no repeats
    charts = content.charts if full else content.charts[:1]
    line = facts.line(setting, content.inputs)
    parts = [
        "<!doctype html>",
        "<html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>gaussmech · {html.escape(content.page_label)} · {html.escape(line)}</title>",
        f"<style>{_STYLE}</style>",
        f"<script type='text/javascript'>{_plotly_js()}</script>",
        "</head><body>",
        f"<h1>gaussmech: {html.escape(content.page_label)}</h1>",
        f"<p class='setting'>{html.escape(line)}</p>",
        f"<p class='meta'>{'Full report' if full else 'Brief'} · made {stamp}"
        + (f" · <a href='{html.escape(content.link)}'>open this view</a>" if content.link else "")
        + "</p>",
    ]
    answer = answer_paragraph(content)
    if answer:
        parts.append(f"<p class='answer'><strong>The answer.</strong> {_inline(answer)}</p>")
    parts.append(f"<p>{html.escape(odds_sentence(setting.epsilon, setting.delta))}</p>")
    if warnings:
        parts.append("<h2>Warnings at this setting</h2><ul class='warnings'>")
        parts += [f"<li>{_inline(message)}</li>" for message in warnings]
        parts.append("</ul>")
    if full and content.page_notes:
        parts.append("<h2>What the page says</h2>")
        parts += [f"<p>{_inline(note)}</p>" for note in content.page_notes]
    if facts.uses_mechanisms:
        parts.append("<h2>How much noise each mechanism needs</h2>")
        parts.append(f"<div class='table-wrap'>{_calibration_table(setting, featured_only=not full)}</div>")
    parts += [_page_table(title, frame) for title, frame in content.tables]
    if charts:
        parts.append("<h2>" + ("Charts" if full else "The chart") + "</h2>")
        parts += [_chart_html(chart, index, compact=not full) for index, chart in enumerate(charts)]
    if full:
        parts.append("<h2>Formulas</h2>")
        if facts.uses_mechanisms:
            parts.append("<dl>")
            for name, formula in CORE_FORMULAS:
                parts.append(
                    f"<dt><strong>{html.escape(name)}</strong></dt><dd><code>{html.escape(formula)}</code></dd>"
                )
            parts.append("</dl>")
        if content.latex:
            parts.append("<h3>The page's formulas</h3>")
            parts += [f"<div class='formula'>{_math(source, 'block')}</div>" for source in dict.fromkeys(content.latex)]
        parts.append("<h2>Sources</h2><ul>")
        if facts.uses_mechanisms:
            parts += [f"<li>{html.escape(m.name)}: {_inline(m.source)}</li>" for m in MECHANISMS.values()]
        parts += [f"<li>{html.escape(source)}</li>" for source in facts.sources]
        parts.append(
            "<li>Attack risk: Dong, Roth &amp; Su 2022 (f-DP); Kairouz, Oh &amp; Viswanath 2015; Kulynych et al. 2024 "
            "(riskcal). Odds framing: Nanayakkara et al., USENIX Security 2023.</li></ul>"
        )
    elif facts.sources:
        parts.append(
            "<p class='meta'>Sources: " + html.escape("; ".join(facts.sources)) + ". Numbers from gaussmech_core.</p>"
        )
    else:
        parts.append(
            "<p class='meta'>Sources: Balle &amp; Wang 2018 (analytic Gaussian); Dwork &amp; Roth 2014 (classical); "
            "Liu (generalized Gaussian); Ji &amp; Li 2024 (R1SMG, claimed); Chanyaswad et al. 2018 (MVG). "
            "Numbers from gaussmech_core, exact to the digits shown.</p>"
        )
    parts.append("</body></html>")
    return "\n".join(parts)


def report_file_name(page_slug: str, setting: Setting, version: str, facts: PageFacts = GENERIC) -> str:
    """``gaussmech-report-overview-eps1-delta1e-5-d10-brief.html`` (the setting fields the page uses)."""
    from .export import parameter_slug

    return f"gaussmech-report-{page_slug}-{parameter_slug(setting, facts.setting_fields)}-{version}.html"
