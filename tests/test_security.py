"""The claims of SECURITY.md that code can check: no raw HTML from user text, no files written,
XSRF on the upload endpoint, websockets only from the app's own origin."""

from __future__ import annotations

import ast
import asyncio
import concurrent.futures
import pathlib
import sys
import urllib.error
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))


def _sources():
    for folder in ("pages", "gaussmech_ui"):
        yield from sorted((ROOT / folder).rglob("*.py"))
    yield ROOT / "app.py"


def _name(function) -> str:
    return function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")


def _module_string_constants(tree: ast.Module) -> set[str]:
    """Names assigned exactly once at module level, to a string literal (fixed markup, not user text)."""
    assigned: dict[str, int] = {}
    literal: set[str] = set()
    for node in ast.walk(tree):
        for target in getattr(node, "targets", []) + (
            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
        ):
            if isinstance(target, ast.Name):
                assigned[target.id] = assigned.get(target.id, 0) + 1
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                literal.add(node.targets[0].id)
    return {name for name in literal if assigned.get(name) == 1}


# Builders whose raw HTML is made safe inside them, each with the test below that shows it: a call to
# one of them is allowed where a literal is.
SAFE_HTML_BUILDERS = {
    "card_rows_html": "test_the_card_builder_escapes_every_cell_and_the_key",
    "window_height_style": "test_the_window_style_takes_only_a_css_name_and_numbers",
}


def raw_html_uses(source: str) -> list[tuple[int, str]]:
    """(line, why) for each call that could put non-literal text into the page as raw HTML.

    A literal, or a module-level name bound once to a literal, is fixed markup and allowed."""
    found = []
    tree = ast.parse(source)
    constants = _module_string_constants(tree)

    def escaped(value: ast.expr) -> bool:  # html.escape(...) around the interpolated text
        return (
            isinstance(value, ast.Call)
            and _name(value.func) == "escape"
            and (not isinstance(value.func, ast.Attribute) or getattr(value.func.value, "id", "") == "html")
        )

    def fixed(argument: ast.expr) -> bool:
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            return True
        if isinstance(argument, ast.JoinedStr):  # an f-string whose every value is HTML-escaped
            return all(
                isinstance(part, ast.Constant) or (isinstance(part, ast.FormattedValue) and escaped(part.value))
                for part in argument.values
            )
        if isinstance(argument, ast.Call) and _name(argument.func) in SAFE_HTML_BUILDERS:
            return True
        return isinstance(argument, ast.Name) and argument.id in constants

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        unsafe = [k for k in node.keywords if k.arg == "unsafe_allow_html"]
        raw = name == "html" or (
            unsafe and not (isinstance(unsafe[0].value, ast.Constant) and unsafe[0].value.value is False)
        )
        if raw:
            arguments = node.args + [k.value for k in node.keywords if k.arg in ("body", "html")]
            if not all(fixed(argument) for argument in arguments):
                found.append((node.lineno, f"{name}(...) with raw HTML from a non-literal"))
    return found


def test_no_user_text_reaches_raw_html():
    offenders = [
        f"{path.relative_to(ROOT)}:{line} {why}"
        for path in _sources()
        for line, why in raw_html_uses(path.read_text(encoding="utf-8"))
    ]
    assert not offenders, offenders


def test_the_raw_html_scan_can_fail():
    assert raw_html_uses("st.markdown(label, unsafe_allow_html=True)")
    assert raw_html_uses("st.html(f'<b>{name}</b>')")
    assert not raw_html_uses("st.markdown('<br>', unsafe_allow_html=True)")
    assert not raw_html_uses("st.markdown(label, unsafe_allow_html=False)")
    assert not raw_html_uses("STYLE = '<style>p {}</style>'\nst.html(STYLE)")
    assert raw_html_uses("STYLE = '<style>'\nSTYLE = user_text\nst.html(STYLE)")  # rebound: not fixed
    assert raw_html_uses("def f(STYLE):\n    st.html(STYLE)")
    assert not raw_html_uses("st.markdown(f'<b>{html.escape(name)}</b>', unsafe_allow_html=True)")
    assert raw_html_uses("st.markdown(f'<b>{name}</b>', unsafe_allow_html=True)")
    assert not raw_html_uses("st.html(card_rows_html(frame, key))")
    assert raw_html_uses("st.html(other_builder(frame))")


def test_the_card_builder_escapes_every_cell_and_the_key():
    import pandas as pd

    from gaussmech_ui.page_kit import card_rows_html

    hostile = "<script>alert(1)</script>"
    frame = pd.DataFrame({hostile: [hostile], f"x{hostile}": [hostile]})
    html = card_rows_html(frame, f'k"{hostile}')
    assert "<script>" not in html and "&lt;script&gt;" in html


@pytest.mark.parametrize("key", ["a b", "x}</style><script>", "ok;", ""])
def test_the_window_style_takes_only_a_css_name_and_numbers(key):
    from gaussmech_ui.page_kit import window_height_style

    assert "window_fit_chart" in window_height_style("window_fit_chart", 480, 250)
    with pytest.raises(ValueError, match="key"):
        window_height_style(key, 480, 250)
    with pytest.raises(TypeError):
        window_height_style("window_fit_chart", "480px; }", 250)


WRITERS = {
    "write_text",
    "write_bytes",
    "mkdir",
    "makedirs",
    "NamedTemporaryFile",
    "mkstemp",
    "mkdtemp",
    "TemporaryDirectory",
    "copyfile",
    "rmtree",
    "unlink",
    "to_parquet",
    "to_excel",
    "savefig",
    "write_image",
    "write_html",
}  # (json.dump and the like need a file opened for writing: caught below)


def file_writes(source: str) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = _name(node.func)
            if name in WRITERS:
                found.append((node.lineno, name))
            elif name == "open":
                mode = (
                    node.args[1]
                    if len(node.args) > 1
                    else next((k.value for k in node.keywords if k.arg == "mode"), None)
                )
                if mode is not None and not (isinstance(mode, ast.Constant) and set(str(mode.value)) <= set("rbt")):
                    found.append((node.lineno, "open for writing"))
            elif name == "to_csv" and (node.args or any(k.arg == "path_or_buf" for k in node.keywords)):
                found.append((node.lineno, "to_csv to a file"))
    return found


def test_the_app_writes_no_files():
    offenders = [
        f"{path.relative_to(ROOT)}:{line} {what}"
        for path in _sources()
        for line, what in file_writes(path.read_text(encoding="utf-8"))
    ]
    assert not offenders, offenders


def test_the_file_write_scan_can_fail():
    assert file_writes("open(p, 'w')") and file_writes("Path(p).write_text(t)") and file_writes("df.to_csv('x.csv')")
    assert not file_writes("open(p)") and not file_writes("open(p, 'rb')") and not file_writes("df.to_csv(index=False)")


@pytest.fixture(scope="module")
def server_url():
    import load_test

    port = load_test.free_port()
    server = load_test.start_server(port)
    yield f"http://127.0.0.1:{port}"
    server.terminate()
    server.wait(20)


@pytest.mark.slow
def test_upload_without_xsrf_token_is_refused(server_url):
    request = urllib.request.Request(
        server_url + "/_stcore/upload_file/some-session/some-file", data=b"x", method="PUT"
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 403
    # With the cookie's token the XSRF check passes, and the unknown session is what is refused.
    with urllib.request.urlopen(server_url + "/_stcore/health", timeout=30) as health:
        cookie = next(
            value for key, value in health.headers.items() if key.lower() == "set-cookie" and "_streamlit_xsrf" in value
        )
    token = cookie.split(";", 1)[0].split("=", 1)[1]
    request = urllib.request.Request(
        server_url + "/_stcore/upload_file/some-session/some-file",
        data=b"x",
        method="PUT",
        headers={"X-Xsrftoken": token, "Cookie": f"_streamlit_xsrf={token}"},
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 400


@pytest.mark.slow
def test_websocket_from_another_site_is_refused(server_url):
    import websockets

    async def connect(origin: str) -> str:
        try:
            async with websockets.connect(
                server_url.replace("http", "ws") + "/_stcore/stream",
                origin=origin,
                subprotocols=["streamlit"],
                open_timeout=30,
            ) as websocket:
                await asyncio.wait_for(websocket.recv(), 5)
                return "open"
        except asyncio.TimeoutError:
            return "open"  # connected, and the server waits for the client's first message
        except (websockets.InvalidStatus, websockets.ConnectionClosed) as error:
            return type(error).__name__

    def run_apart(coroutine):
        # A thread of its own: in a worker that already drives Playwright's sync API, the main
        # thread has a running event loop, and asyncio.run refuses to start a second one there.
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, coroutine).result()

    assert run_apart(connect("http://attacker.example")) in (
        "InvalidStatus",
        "ConnectionClosedError",
        "ConnectionClosed",
    )
    assert run_apart(connect(server_url)) == "open"


def _upgrade_status(server_url: str, host: str) -> int:
    """The HTTP status of a websocket handshake to /_stcore/stream sent with ``Host: host``."""
    import base64
    import os
    import socket
    from urllib.parse import urlparse

    address = urlparse(server_url)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        "GET /_stcore/stream HTTP/1.1\r\n"
        f"Host: {host}\r\n"
        f"Origin: http://{host}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: streamlit\r\n\r\n"
    )
    with socket.create_connection((address.hostname, address.port), timeout=30) as connection:
        connection.sendall(request.encode())
        status_line = connection.recv(4096).split(b"\r\n", 1)[0].decode()
    return int(status_line.split()[1])


@pytest.mark.slow
def test_a_websocket_under_another_host_name_is_refused(server_url):
    """DNS rebinding: a page on evil.example whose name resolves to the server opens no session (server.allowedHosts)."""
    port = server_url.rsplit(":", 1)[1]
    assert _upgrade_status(server_url, f"127.0.0.1:{port}") == 101
    assert _upgrade_status(server_url, f"evil.example:{port}") in (400, 403)


def test_a_client_cannot_clear_every_sessions_caches():
    import streamlit as st
    from streamlit.runtime.app_session import AppSession

    import gaussmech_ui  # noqa: F401  (installs the server guards)

    calls = []

    @st.cache_data(max_entries=2)
    def computed_once(value: int) -> int:
        calls.append(value)
        return value

    computed_once(1)
    AppSession._handle_clear_cache_request(None)  # what a client's clear_cache message runs
    computed_once(1)
    assert calls == [1], "the cache survived a client's request to clear it"
