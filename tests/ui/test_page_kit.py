"""The shared scaffolding lives once: one setting_arguments, one calibration cache, one escaper, one page kit."""

from __future__ import annotations

from pathlib import Path

from gaussmech_core.registry_types import Setting
from gaussmech_ui import format as formatting, page_kit
from gaussmech_ui.cached import arguments, distributions, overview

ROOT = Path(__file__).resolve().parents[2]
PAGE_FILES = [ROOT / "app.py"] + sorted((ROOT / "pages").glob("*.py"))


def test_one_setting_arguments_with_and_without_epsilon():
    setting = Setting(epsilon=0.3, delta=1e-7, sensitivity=2.0, order=3.0, dim=4, l1_model="all_coordinates")
    assert overview.setting_arguments is arguments.setting_arguments is distributions.setting_arguments
    full = arguments.setting_arguments(setting)
    assert arguments.make_setting(**full) == Setting(0.3, 1e-7, 2.0, 3.0, 4, "all_coordinates")
    assert arguments.setting_arguments(setting, epsilon=False) == {k: v for k, v in full.items() if k != "epsilon"}


def test_the_pages_share_one_calibration_cache_and_one_config():
    assert not hasattr(distributions, "calibrations"), "the Overview's calibration_table is the one cache"
    for page in PAGE_FILES:
        text = page.read_text(encoding="utf-8")
        assert "PLOTLY_CONFIG = " not in text, f"{page.name} defines its own Plotly config"
        assert "def _say(" not in text and "def _seed_controls(" not in text, page.name


def test_next_seed_moves_on_and_wraps(monkeypatch):
    state = {}
    monkeypatch.setattr(page_kit.st, "session_state", state)
    page_kit.next_seed("x_seed")
    assert state["x_seed"] == 2
    state["x_seed"] = page_kit.SEED_RANGE[1]
    page_kit.next_seed("x_seed")
    assert state["x_seed"] == 1


def test_one_markdown_escaper_covers_links_and_latex():
    assert formatting.escape_markdown("[a](b) $x$ *y* _z_ #h") == r"\[a\](b) \$x\$ \*y\* \_z\_ \#h"
