"""Server settings that bound memory and keep sessions apart: caches, the upload cap, session TTL, XSRF."""

from __future__ import annotations

import ast
import pathlib
import tomllib

from gaussmech_ui.uploads import DEFAULT_MAX_BYTES

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONFIG_PATH = ROOT / ".streamlit" / "config.toml"
CONFIG = tomllib.loads(CONFIG_PATH.read_text(encoding="utf-8"))


def _sources():
    for folder in ("pages", "gaussmech_ui"):
        yield from sorted((ROOT / folder).rglob("*.py"))
    yield ROOT / "app.py"


def _cache_decorators(tree):
    """(line, call or None) for every decorator naming cache_data or cache_resource."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
                if name in ("cache_data", "cache_resource"):
                    yield node.lineno, name, decorator if isinstance(decorator, ast.Call) else None
        elif isinstance(node, ast.Call):  # st.cache_data(f) or st.cache_data(max_entries=...)(f)
            target = node.func
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            if name in ("cache_data", "cache_resource") and node.args:
                yield node.lineno, name, node


def test_every_cache_is_bounded():
    """Every st.cache_data holds at most max_entries results or expires them (ttl): shared by all sessions."""
    found, unbounded = 0, []
    for path in _sources():
        for line, name, call in _cache_decorators(ast.parse(path.read_text(encoding="utf-8"))):
            found += 1
            keywords = {keyword.arg for keyword in call.keywords} if call is not None else set()
            if name == "cache_data" and not keywords & {"max_entries", "ttl"}:
                unbounded.append(f"{path.relative_to(ROOT)}:{line}")
            if name == "cache_resource":
                unbounded.append(
                    f"{path.relative_to(ROOT)}:{line} (cache_resource: one object shared by every session)"
                )
    assert found >= 10, "the scan found no caches: has the code moved?"
    assert not unbounded, unbounded


def test_the_scan_sees_an_unbounded_cache():
    source = "import streamlit as st\n@st.cache_data\ndef f(x):\n    return x\n@st.cache_data(show_spinner=False)\ndef g(x):\n    return x\n"
    calls = list(_cache_decorators(ast.parse(source)))
    assert len(calls) == 2 and calls[0][2] is None and not calls[1][2].keywords[0].arg == "max_entries"


def test_upload_cap_matches_the_parser():
    # The server's cap counts the multipart envelope too: room for it above the reader's exact cap.
    server_cap = CONFIG["server"]["maxUploadSize"] * 1024 * 1024
    assert DEFAULT_MAX_BYTES + 64 * 1024 <= server_cap <= DEFAULT_MAX_BYTES + 2 * 1024 * 1024
    for path in _sources():  # no uploader raises the cap for itself
        assert "max_upload_size" not in path.read_text(encoding="utf-8"), path


def test_disconnected_sessions_are_freed_within_two_minutes():
    assert 10 <= CONFIG["server"]["disconnectedSessionTTL"] <= 120


def test_xsrf_and_cors_protection_are_on():
    assert CONFIG["server"]["enableXsrfProtection"] is True
    assert CONFIG["server"]["enableCORS"] is True


def test_streamlit_reads_these_settings():
    """The names are Streamlit's (a misspelt key would be ignored silently)."""
    from streamlit import config

    for section, values in CONFIG.items():
        for key in values:
            assert f"{section}.{key}" in config._config_options_template, f"{section}.{key}"


def test_every_setting_gives_its_reason():
    """Each setting, or the block of settings it belongs to, has a comment line above it."""
    lines = CONFIG_PATH.read_text(encoding="utf-8").splitlines()

    def is_setting(text):
        return "=" in text and not text.lstrip().startswith("#")

    for number, line in enumerate(lines):
        if is_setting(line):
            above = number - 1
            while above >= 0 and is_setting(lines[above]):
                above -= 1
            assert above >= 0 and lines[above].lstrip().startswith("#"), f"line {number + 1} has no reason: {line}"


def test_usage_statistics_are_off():
    assert CONFIG["browser"]["gatherUsageStats"] is False


def _magic_lines(tree: ast.Module) -> list[int]:
    """Lines Streamlit's magic would write to the page: bare expressions that are not calls, docstrings,
    awaits or yields (streamlit.runtime.scriptrunner.magic)."""
    lines = []
    for parent in ast.walk(tree):
        body = getattr(parent, "body", None)
        if not isinstance(body, list):
            continue
        for index, node in enumerate(body):
            if not isinstance(node, ast.Expr) or isinstance(
                node.value, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom)
            ):
                continue
            docstring = (
                index == 0
                and isinstance(parent, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
            )
            if not docstring:
                lines.append(node.lineno)
    return lines


def test_no_page_relies_on_magic():
    """Magic is off (a bare expression shows nothing): no page may have a line that would need it."""
    assert CONFIG["runner"]["magicEnabled"] is False
    for path in [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]:
        assert not _magic_lines(ast.parse(path.read_text(encoding="utf-8"))), path


def test_the_magic_scan_sees_a_bare_value():
    tree = ast.parse('"""Docstring."""\nimport streamlit as st\nst.write(1)\nx = 2\nx\nif x:\n    "shown by magic"\n')
    assert _magic_lines(tree) == [5, 7]
