"""A view to take away: its link, and its settings file (JSON), read back as untrusted input.

The URL already carries a view's state (the shared parameters and each page's own values, such
as seeds). This module turns that state into

* a **link** (:func:`view_url`) that opens exactly this view, and a plain list of what it holds
  (:func:`describe_query`);
* a **settings file** (:func:`settings_document` / :func:`settings_bytes`): JSON with the page,
  the URL's values and the app's name and format version;

and reads a settings file back (:func:`read_settings_file`). A file is treated exactly like a
link: the shared parameters are parsed by :func:`gaussmech_ui.params.parse_query` (a bad value
becomes a warning and the default), the page must be one of the menu's, and the page's own
values go through the URL, where the page validates them as it validates any link. Files that
are not JSON, too large, or of the wrong shape are refused with a sentence saying why.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Mapping
from urllib.parse import urlencode

from . import menu
from .page_facts import GENERIC, PageFacts
from .params import DEFAULTS, URL_KEYS, display_value, parse_query, quote_untrusted, to_query

__all__ = [
    "FILE_FORMAT",
    "FORMAT_VERSION",
    "MAX_FILE_BYTES",
    "SettingsFile",
    "view_url",
    "describe_query",
    "settings_document",
    "settings_bytes",
    "read_settings_file",
]

FILE_FORMAT = "gaussmech-settings"
FORMAT_VERSION = 1
MAX_FILE_BYTES = 20_000
_MAX_KEYS = 60
_MAX_VALUE_LENGTH = 200
_KEY_PATTERN = re.compile(r"^[a-z][a-z0-9_]{0,59}$")


def view_url(base_url: str, query: Mapping[str, str]) -> str:
    """The link of a view: ``base_url`` (scheme, host and page path) with the query.

    Examples
    --------
    >>> view_url("http://localhost:8501/Privacy_profiles", {"epsilon": "0.5", "delta": "1e-08"})
    'http://localhost:8501/Privacy_profiles?epsilon=0.5&delta=1e-08'
    """
    base = base_url.split("?", 1)[0].split("#", 1)[0]
    return f"{base}?{urlencode(dict(query))}" if query else base


def describe_query(query: Mapping[str, str], facts: PageFacts = GENERIC) -> list[str]:
    """What a link holds, one line per value, shared parameters first by their symbols, then the
    page's own values by the labels its ``facts`` give them (else by their keys).

    Examples
    --------
    >>> describe_query({"epsilon": "0.5", "dim": "10", "distributions_seed": "3"})
    ['ε = 0.5', 'd = 10', 'distributions_seed = 3 (this page)']
    >>> from gaussmech_ui.page_facts import facts_for
    >>> describe_query({"dpsgd_dataset_size": "1000"}, facts_for("pages/6_Training_DP_SGD.py"))
    ['Dataset size N = 1,000']
    """
    by_url_key = {url_key: name for name, url_key in URL_KEYS.items()}
    values, _ = parse_query({k: v for k, v in query.items() if k in by_url_key})
    lines = [display_value(by_url_key[key], values[by_url_key[key]]) for key in query if key in by_url_key]
    lines += [
        facts.describe_own(key, value) or f"{key} = {value} (this page)"
        for key, value in query.items()
        if key not in by_url_key
    ]
    return lines


def settings_document(page_path: str, query: Mapping[str, str], *, page_label: str = "") -> dict[str, Any]:
    """The settings file of a view as a dict (written as JSON by :func:`settings_bytes`)."""
    shared = {key: str(value) for key, value in query.items() if key in URL_KEYS.values()}
    own = {key: str(value) for key, value in query.items() if key not in URL_KEYS.values()}
    return {
        "format": FILE_FORMAT,
        "version": FORMAT_VERSION,
        "page": page_path,
        "page_label": page_label,
        "parameters": shared,
        "page_values": own,
    }


def settings_bytes(page_path: str, query: Mapping[str, str], *, page_label: str = "") -> bytes:
    """The settings file as UTF-8 JSON, indented for people."""
    document = settings_document(page_path, query, page_label=page_label)
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


@dataclass(frozen=True)
class SettingsFile:
    """A settings file read back: where to go, with which URL values, and what was wrong with it."""

    page_path: str
    query: dict[str, str]
    warnings: list[str] = field(default_factory=list)


class SettingsFileError(ValueError):
    """A settings file that cannot be used at all (the message says why, for the page)."""


def _text_values(block: Any, what: str) -> dict[str, str]:
    if block is None:
        return {}
    if not isinstance(block, dict):
        raise SettingsFileError(f"its {what} must be an object of names and values, not {type(block).__name__}")
    values = {}
    for key, value in block.items():
        if not isinstance(key, str) or not _KEY_PATTERN.match(key):
            raise SettingsFileError(f"{quote_untrusted(key)} is not a setting name")
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise SettingsFileError(f"the value of {key} must be text or a number")
        text = str(value)
        if len(text) > _MAX_VALUE_LENGTH:
            raise SettingsFileError(f"the value of {key} is longer than {_MAX_VALUE_LENGTH} characters")
        values[key] = text
    return values


def read_settings_file(data: bytes, app_root=menu.APP_ROOT) -> SettingsFile:
    """Read and check an uploaded settings file.

    Returns
    -------
    SettingsFile
        The page to open and the URL values to open it with; the shared parameters already
        parsed (a bad value is replaced by its default, with a warning), the page's own values
        passed on as text for the page to check like any link.

    Raises
    ------
    SettingsFileError
        When the file is too large, not JSON, not a gaussmech settings file, or names a page
        that does not exist.
    """
    if len(data) > MAX_FILE_BYTES:
        raise SettingsFileError(f"it is {len(data):,} bytes; a settings file is at most {MAX_FILE_BYTES:,}")
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SettingsFileError(f"it is not JSON text ({error.__class__.__name__})") from None
    if not isinstance(document, dict) or document.get("format") != FILE_FORMAT:
        raise SettingsFileError(f'it is not a gaussmech settings file (no "format": "{FILE_FORMAT}")')
    version = document.get("version")
    if version != FORMAT_VERSION:
        raise SettingsFileError(f"its version is {quote_untrusted(version)}; this app reads version {FORMAT_VERSION}")
    page = document.get("page")
    pages = {entry.path for entry in menu.available_entries(app_root)}
    if page not in pages:
        raise SettingsFileError(f"its page {quote_untrusted(page)} is not a page of this app")
    shared = _text_values(document.get("parameters"), "parameters")
    own = _text_values(document.get("page_values"), "page values")
    if len(shared) + len(own) > _MAX_KEYS:
        raise SettingsFileError(f"it holds more than {_MAX_KEYS} values")
    unknown = [key for key in shared if key not in URL_KEYS.values()]
    warnings = [f"Ignored {quote_untrusted(key)} in the file's parameters: not a shared parameter." for key in unknown]
    shared = {key: value for key, value in shared.items() if key in URL_KEYS.values()}
    parsed, problems = parse_query(shared, fallback=DEFAULTS)
    warnings += [problem.replace("The link sets", "The settings file sets", 1) for problem in problems]
    query = to_query({**DEFAULTS, **parsed})  # a loaded view states every shared parameter
    own = {key: value for key, value in own.items() if key not in URL_KEYS.values()}
    return SettingsFile(page_path=page, query={**query, **own}, warnings=warnings)
