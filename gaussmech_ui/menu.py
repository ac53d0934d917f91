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

import functools
import os
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

    @property
    def url_path(self) -> str:
        """The page's path in the browser, as Streamlit names it: the script's name without its
        number prefix (``pages/3_Privacy_profiles.py`` → ``Privacy_profiles``); "" for ``app.py``."""
        if self.path == "app.py":
            return ""
        stem = Path(self.path).stem
        return stem.split("_", 1)[1] if "_" in stem else stem


MENU: tuple[MenuEntry, ...] = (
    MenuEntry("Class tour", ":material/school:", "pages/0_Class_tour.py"),
    MenuEntry("Overview", ":material/table_chart:", "app.py"),
    MenuEntry("Noise distributions", ":material/bar_chart:", "pages/1_Noise_distributions.py"),
    MenuEntry("Tail probabilities", ":material/show_chart:", "pages/2_Tail_probabilities.py"),
    MenuEntry("Privacy profiles", ":material/shield:", "pages/3_Privacy_profiles.py"),
    MenuEntry("Training (DP-SGD)", ":material/model_training:", "pages/6_Training_DP_SGD.py"),
    MenuEntry("Accuracy vs dimension", ":material/stacked_line_chart:", "pages/4_Accuracy_vs_dimension.py"),
    MenuEntry("Denoising lab", ":material/auto_fix_high:", "pages/5_Denoising_lab.py"),
    # docs/math.md rendered with an anchor per section; the interface cites it (format.math_reference_link).
    MenuEntry("Math reference", ":material/functions:", "pages/9_Math_reference.py"),
)


def available_entries(app_root: Path = APP_ROOT) -> list[MenuEntry]:
    """The entries whose script exists under ``app_root``, in menu order."""
    root = Path(app_root)
    return list(_existing_entries(root, _names_in(root), _names_in(root / "pages")))


def entry_for(script_path: str | Path, app_root: Path = APP_ROOT) -> MenuEntry | None:
    """The entry of the page whose script is ``script_path`` (absolute, or relative to ``app_root``)."""
    return _entry_for(str(script_path), str(app_root))


# Every rerun of every page asks both questions (the sidebar, the page tools): each answer is kept,
# as resolving and testing eight paths is a millisecond of a rerun (measured under load). The
# entries found are keyed by the names in the two folders, so a page added or removed is seen at
# once (a folder's modification time would not do: Linux stamps it with a clock of ~4 ms steps).
def _names_in(folder: Path) -> frozenset[str]:
    try:
        return frozenset(os.listdir(folder))
    except OSError:
        return frozenset()


@functools.lru_cache(maxsize=32)
def _existing_entries(root: Path, root_names: frozenset[str], page_names: frozenset[str]) -> tuple[MenuEntry, ...]:
    return tuple(entry for entry in MENU if (root / entry.path).is_file())


@functools.lru_cache(maxsize=64)
def _entry_for(script_path: str, app_root: str) -> MenuEntry | None:
    target = (Path(app_root) / script_path).resolve()
    for entry in MENU:
        if (Path(app_root) / entry.path).resolve() == target:
            return entry
    return None
