"""The page list of the custom sidebar menu.

Adding a page is adding one :class:`MenuEntry` to :data:`MENU` (label, icon, path) next to its
script in ``pages/``. The sidebar shows only the entries whose script exists, so entries may be
listed before their page is written. Every page calls ``render_sidebar()``, which draws this menu
with ``st.page_link`` and sets the browser tab's title from the entry (DESIGN.md section 1: Streamlit's
programmatic navigation API is not used, and its own page list is hidden by
``client.showSidebarNavigation = false``).

Icons are Material Symbols names (``:material/name:``), which ``st.page_link`` draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["MenuEntry", "MENU", "APP_ROOT", "available_entries", "entry_for"]

APP_ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class MenuEntry:
    """One page: what the menu says (also the browser tab's title), its icon, and its script relative to ``app.py``."""

    label: str
    icon: str
    path: str


MENU: tuple[MenuEntry, ...] = (
    MenuEntry("Overview", ":material/table_chart:", "app.py"),
    MenuEntry("Noise distributions", ":material/bar_chart:", "pages/1_Noise_distributions.py"),
    MenuEntry("Tail probabilities", ":material/show_chart:", "pages/2_Tail_probabilities.py"),
    MenuEntry("Privacy profiles", ":material/shield:", "pages/3_Privacy_profiles.py"),
    MenuEntry("Accuracy vs dimension", ":material/stacked_line_chart:", "pages/4_Accuracy_vs_dimension.py"),
    MenuEntry("Denoising lab", ":material/auto_fix_high:", "pages/5_Denoising_lab.py"),
    MenuEntry("Math reference", ":material/functions:", "pages/9_Math_reference.py"),
)


def available_entries(app_root: Path = APP_ROOT) -> list[MenuEntry]:
    """The entries whose script exists under ``app_root``, in menu order."""
    return [entry for entry in MENU if (Path(app_root) / entry.path).is_file()]


def entry_for(script_path: str | Path, app_root: Path = APP_ROOT) -> MenuEntry | None:
    """The entry of the page whose script is ``script_path`` (absolute, or relative to ``app_root``)."""
    target = (Path(app_root) / script_path).resolve()
    for entry in MENU:
        if (Path(app_root) / entry.path).resolve() == target:
            return entry
    return None
