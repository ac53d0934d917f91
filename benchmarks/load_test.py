"""Many students at once: drive the dashboard's server the way browsers do, without browsers.

Each simulated student speaks Streamlit's own protocol: it opens the websocket at
``/_stcore/stream`` (subprotocol header ``streamlit, <XSRF token>``, the token from the
``_streamlit_xsrf`` cookie that ``/_stcore/health`` sets), sends ``BackMsg.rerun_script`` with a
query string, the page's script hash and its widget states, and waits for
``ForwardMsg.script_finished``; the widget ids are read from the ``ForwardMsg.delta`` elements,
the page hashes from ``new_session.app_pages``. Like a browser, it keeps the large elements
(``metadata.cacheable``) it was sent and names them in ``cached_message_hashes``, so the server
sends a reference (``ref_hash``) for an element that did not change. For a bounded time it then, at random: moves ε,
δ or d (their select sliders), switches page, or uploads a CSV on the denoising lab
(``BackMsg.file_urls_request``, a PUT to ``/_stcore/upload_file/<session>/<file>``, then the
uploader's widget state). Every student has its own parameters and its own file; **crosstalk**
counts the times a session is shown someone else's: a URL whose ε, δ or d is not the one it
set, or an upload summary whose total is not its file's.

Two scenarios (``--scenario``):

* ``explore`` (the default, the stress case): every student works alone, as fast as a person
  reads: after each action a pause of 0.5–2 s, then a move of ε, δ or d to a random stop (60 %),
  another page (25 %) or an upload (15 %). Thirty such students ask the server for about 20
  reruns a second, each at a setting no one asked for before.
* ``lecture`` (a class following its teacher, USERS.md "The teacher"): everyone opens the
  teacher's link; every ``--step-seconds`` (15 s) the teacher moves one of ε, δ, d or goes to
  another page, and each student follows within 0–5 s (a move or a page switch, to the
  teacher's value), then tries one thing of their own half of the time (a random move).
  Halfway through, the teacher goes to the denoising lab and 80 % of the class upload a file
  of their own. Students share most settings, as a class
  does, so the caches serve many of them; each student's own moves, files and checks stay their own.

**Hostile classroom** (``--attackers K``): K of the ``--sessions`` students are attackers
(issue 23), working beside the class until the end: round after round, each opens the denoising
lab through the heaviest link a page allows (1e6 bins, a release history of 100, R = 500 releases
per ε) in a new session (a new seed and size, so that no cache helps), floods that session with
uploads of 10 MB under fresh file ids (never shown by the page: what a script can post), sends a
burst of reruns, and uploads once more through the page. The normal students' figures are reported apart (``normal_p95_ms``); what the server or nginx
refused the attackers is counted as ``attacker_refusals``, not as errors of the class.

Reported: p50 / p95 / max milliseconds from input (the BackMsg sent) to script finished, per kind
of action; errors (protocol failures, exceptions or ``st.error`` on a page, failed uploads); the
server's resident memory over time, after the first 10 sessions have loaded, at the end, after
one more visitor has come and gone (Streamlit releases the stored sessions of students who left
only when the next session disconnects), and per session; the CPU seconds the server used.
With ``--warm-up M``, a first class of M students of the same scenario works for the same time
and leaves; the server's memory ``--settle`` seconds after they left (every page opened, its
modules imported, its caches filled) is the level that the memory after the main wave is
compared with. The last line is

    sessions=N p50_ms=... p95_ms=... max_ms=... errors=... crosstalk=... rss_mb=...

(with ``--attackers``: ``... crosstalk=... normal_p95_ms=... attackers=K attacker_reruns=...
attacker_refusals=... rss_mb=...``, where p50/p95/max, errors and crosstalk are the normal
students').

(``rss_mb``: the server's peak resident memory). Without ``--url`` it starts its own server
(``streamlit run app.py``) on a free loopback port and stops it after; with ``--url``, give
``--server-pid`` (repeatable, e.g. one per replica) to measure memory and CPU.

Run: ``.venv/bin/python benchmarks/load_test.py --sessions 30 --seconds 60``.
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import math
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gaussmech_ui.params import PARAMETERS, widget_key  # noqa: E402

MOVED = ("epsilon", "delta", "dim")  # the parameters a student moves
UPLOAD_PAGE = "Denoising_lab"
UPLOAD_SOURCE_KEY, UPLOADER_KEY = "denoising_data", "denoising_upload"
MAX_CACHED_AGE = 2  # Streamlit's global.maxCachedMessageAge: script runs a cached message outlives its last use
TIMEOUT = 120.0  # seconds a rerun may take before it counts as an error


# --- one simulated student -------------------------------------------------------------------------


@dataclass
class Record:
    """What every session measured, merged by the driver."""

    latencies: dict = field(default_factory=dict)  # action -> [ms from the BackMsg to script finished]
    transfers: list = field(default_factory=list)  # ms of each upload (file URL request + PUT)
    errors: list = field(default_factory=list)
    crosstalk: list = field(default_factory=list)
    loads: int = 0
    references: int = 0  # elements the server did not send again, as the browser had them


class Student:
    """One browser tab: a websocket session, its widget states and what it expects to see."""

    def __init__(self, number: int, base_url: str, record: Record, rng: random.Random):
        self.number, self.base_url, self.record, self.rng = number, base_url.rstrip("/"), record, rng
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        self.widgets: dict[str, object] = {}  # key -> element proto of the last run
        self.states: dict[str, object] = {}  # key -> WidgetState we set (sent with every rerun)
        self.pages: dict[str, str] = {}  # url_pathname -> page_script_hash
        self.page_hash = ""
        self.page_name = ""
        self.query = ""
        self.expected: dict[str, float] = {}
        self.session_id = ""
        self.texts: list[str] = []
        self.file_urls = asyncio.Queue()
        self.websocket = None
        # The browser's message cache: a large element (≥ 10 kB, e.g. a chart) it holds is named by
        # its hash in the next rerun's request, and the server sends a reference instead of the
        # element. hash -> [message, script runs since it was last used] (kept while ≤ MAX_CACHED_AGE).
        self.message_cache: dict[str, list] = {}

    # HTTP (cookies kept per student, as a browser does: XSRF and, behind nginx, the affinity cookie)
    def _http(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None) -> int:
        request = urllib.request.Request(self.base_url + path, data=body, method=method, headers=headers or {})
        with self.opener.open(request, timeout=60) as response:
            response.read()
            return response.status

    def _cookie(self, name: str) -> str:
        return next((cookie.value for cookie in self.cookies if cookie.name == name), "")

    def _cookie_header(self) -> str:
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.cookies)

    async def connect(self) -> None:
        await asyncio.to_thread(self._http, "GET", "/_stcore/health")
        xsrf = self._cookie("_streamlit_xsrf")
        ws_url = re.sub(r"^http", "ws", self.base_url) + "/_stcore/stream"
        self.websocket = await websockets.connect(
            ws_url,
            subprotocols=["streamlit", xsrf] if xsrf else ["streamlit"],
            origin=self.base_url,
            additional_headers={"Cookie": self._cookie_header()},
            max_size=None,
            open_timeout=60,
            ping_interval=None,
        )

    async def close(self) -> None:
        if self.websocket is not None:
            await self.websocket.close()

    # The protocol
    async def rerun(self, action: str) -> bool:
        message = BackMsg()
        state = message.rerun_script
        state.query_string = self.query
        state.page_script_hash = self.page_hash
        if not self.page_hash and self.page_name:
            state.page_name = self.page_name
        state.widget_states.widgets.extend(self.states.values())
        state.cached_message_hashes.extend(self.message_cache)
        started = time.perf_counter()
        await self.websocket.send(message.SerializeToString())
        self.widgets, self.texts = {}, []
        try:
            status = await asyncio.wait_for(self._read_until_finished(), TIMEOUT)
        except (asyncio.TimeoutError, websockets.ConnectionClosed) as error:
            self.record.errors.append(f"session {self.number}: {action}: {type(error).__name__}")
            return False
        self.record.latencies.setdefault(action, []).append((time.perf_counter() - started) * 1000)
        if status != ForwardMsg.FINISHED_SUCCESSFULLY:
            self.record.errors.append(f"session {self.number}: {action}: script finished with status {status}")
            return False
        return True

    async def _read_until_finished(self) -> int:
        while True:
            message = self._resolved(await self.websocket.recv())
            kind = message.WhichOneof("type")
            if kind == "script_finished":
                self._age_message_cache()
                return message.script_finished
            if kind == "new_session":
                if message.new_session.initialize.session_id:
                    self.session_id = message.new_session.initialize.session_id
                for page in message.new_session.app_pages:
                    self.pages[page.url_pathname] = page.page_script_hash
                self.page_hash = message.new_session.page_script_hash or self.page_hash
            elif kind == "navigation":  # the pages, as the sidebar's menu links them
                for page in message.navigation.app_pages:
                    self.pages[page.url_pathname] = page.page_script_hash
                self.page_hash = message.navigation.page_script_hash or self.page_hash
            elif kind == "page_info_changed":
                self.query = message.page_info_changed.query_string
            elif kind == "file_urls_response":
                self.file_urls.put_nowait(message.file_urls_response)
            elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
                self._read_element(message.delta.new_element)

    def _resolved(self, data: bytes) -> ForwardMsg:
        """The message, with a reference to a cached message replaced by that message (as the browser does)."""
        message = ForwardMsg()
        message.ParseFromString(data)
        if message.WhichOneof("type") == "ref_hash":
            entry = self.message_cache.get(message.ref_hash)
            if entry is None:
                self.record.errors.append(f"session {self.number}: the server referred to a message it never sent")
                return message
            entry[1] = 0
            self.record.references += 1
            return entry[0]
        if message.metadata.cacheable and message.hash:
            self.message_cache[message.hash] = [message, 0]
        return message

    def _age_message_cache(self) -> None:
        for key in list(self.message_cache):
            self.message_cache[key][1] += 1
            if self.message_cache[key][1] > MAX_CACHED_AGE:
                del self.message_cache[key]

    def _read_element(self, element) -> None:
        kind = element.WhichOneof("type")
        proto = getattr(element, kind) if kind else None
        widget_id = getattr(proto, "id", "") if proto is not None else ""
        if widget_id:
            self.widgets[widget_id.rsplit("-", 1)[-1] if "-" in widget_id else widget_id] = (kind, proto)
        if kind == "exception":
            self.record.errors.append(f"session {self.number}: exception on the page: {proto.message[:200]}")
        elif kind == "alert":
            if proto.format == proto.ERROR:
                self.record.errors.append(f"session {self.number}: st.error on the page: {proto.body[:200]}")
            self.texts.append(proto.body)
        elif kind == "markdown":
            self.texts.append(proto.body)

    def _widget(self, key: str):
        for name, value in self.widgets.items():
            if name == key or name.endswith(key):
                return value
        return None, None

    def _set(self, key: str, proto, **value) -> None:
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        state = WidgetState(id=proto.id)
        for name, content in value.items():
            target = getattr(state, name)
            if hasattr(target, "data"):
                target.data.extend(content)
            elif hasattr(target, "CopyFrom"):
                target.CopyFrom(content)
            else:
                setattr(state, name, content)
        self.states[key] = state

    # What a student does
    async def open_first_page(self, values: dict | None = None, pathname: str | None = None) -> None:
        """Open the app with ``values`` of ε, δ, d in the URL (random stops when ``None``), on ``pathname``'s page."""
        self.expected = dict(values) if values else {name: self.rng.choice(PARAMETERS[name].stops) for name in MOVED}
        # A browser opening a page's link names the page by its path; the server answers with its hash.
        self.page_name = pathname or ""
        self.query = urllib.parse.urlencode(
            {PARAMETERS[name].url_key: repr(value) for name, value in self.expected.items()}
        )
        if await self.rerun("open"):
            self.record.loads += 1
            self.check_parameters("open")

    async def move(self, name: str, index: int | None = None) -> None:
        """Move the slider of ``name`` to its stop number ``index`` (a random stop when ``None``)."""
        kind, proto = self._widget(widget_key(name))
        if proto is None:
            self.record.errors.append(f"session {self.number}: no slider for {name} on the page")
            return
        if index is None:
            index = self.rng.randrange(len(proto.options))
        self._set(widget_key(name), proto, string_array_value=[proto.options[index]])
        self.expected[name] = PARAMETERS[name].stops[index]
        if await self.rerun(f"move {name}"):
            self.check_parameters(f"move {name}")

    async def switch_page(self, pathname: str | None = None) -> None:
        pathname = pathname or self.rng.choice(sorted(self.pages))
        self.page_hash = self.pages[pathname]
        # Page widgets differ; the sidebar's states go along (a browser keeps them too).
        self.states = {key: state for key, state in self.states.items() if key.startswith("_w_")}
        if await self.rerun("switch page"):
            self.record.loads += 1
            self.check_parameters("switch page")

    async def upload(self) -> None:
        if self.pages.get(UPLOAD_PAGE) != self.page_hash:
            await self.switch_page(UPLOAD_PAGE)
        kind, source = self._widget(UPLOAD_SOURCE_KEY)
        if source is None:
            self.record.errors.append(f"session {self.number}: no data source control on the denoising lab")
            return
        label = next(option.content for option in source.options if "upload" in option.content.lower())
        self._set(UPLOAD_SOURCE_KEY, source, string_array_value=[label])
        if not await self.rerun("choose upload"):
            return
        kind, uploader = self._widget(UPLOADER_KEY)
        if uploader is None:
            self.record.errors.append(f"session {self.number}: no file uploader after choosing an upload")
            return
        counts = [self.number + 1, self.rng.randrange(1, 10**6), 7]
        content = ("label,count\n" + "".join(f"bin {k},{count}\n" for k, count in enumerate(counts))).encode()
        name = f"student-{self.number}.csv"
        request = BackMsg()
        request.file_urls_request.request_id = uuid.uuid4().hex
        request.file_urls_request.file_names.append(name)
        request.file_urls_request.session_id = self.session_id
        started = time.perf_counter()
        await self.websocket.send(request.SerializeToString())
        try:
            urls = await asyncio.wait_for(self._await_file_urls(), TIMEOUT)
            await asyncio.to_thread(self._put_file, urls.file_urls[0].upload_url, name, content)
        except Exception as error:  # noqa: BLE001 - any failure of the upload is one error to report
            self.record.errors.append(f"session {self.number}: upload failed: {type(error).__name__}: {error}")
            return
        self.record.transfers.append((time.perf_counter() - started) * 1000)
        from streamlit.proto.Common_pb2 import FileUploaderState

        state = FileUploaderState()
        info = state.uploaded_file_info.add()
        info.file_id, info.name, info.size = urls.file_urls[0].file_id, name, len(content)
        info.file_urls.CopyFrom(urls.file_urls[0])
        self._set(UPLOADER_KEY, uploader, file_uploader_state_value=state)
        if await self.rerun("read upload"):
            total = f"total {sum(counts):,}"
            if not any(total in text for text in self.texts):
                shown = [text for text in self.texts if "total" in text][:1]
                self.record.crosstalk.append(f"session {self.number}: expected '{total}', page shows {shown}")

    async def _await_file_urls(self):
        while True:
            try:
                return self.file_urls.get_nowait()
            except asyncio.QueueEmpty:
                # The response arrives on the websocket; read until it does.
                message = self._resolved(await self.websocket.recv())
                if message.WhichOneof("type") == "file_urls_response":
                    return message.file_urls_response

    def _put_file(self, upload_url: str, name: str, content: bytes) -> None:
        boundary = uuid.uuid4().hex
        body = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
                "Content-Type: text/csv\r\n\r\n"
            ).encode()
            + content
            + f"\r\n--{boundary}--\r\n".encode()
        )
        path = upload_url if upload_url.startswith("/") else urllib.parse.urlparse(upload_url).path
        headers = {
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "X-Xsrftoken": self._cookie("_streamlit_xsrf"),
            "Origin": self.base_url,
        }
        self._http("PUT", path, body, headers)

    def check_parameters(self, action: str) -> None:
        """The URL the server last gave this session must carry this session's ε, δ and d."""
        shown = urllib.parse.parse_qs(self.query)
        for name, value in self.expected.items():
            raw = shown.get(PARAMETERS[name].url_key, [None])[0]
            try:
                same = raw is not None and math.isclose(float(raw), float(value), rel_tol=1e-9)
            except ValueError:
                same = False
            if not same:
                self.record.crosstalk.append(
                    f"session {self.number}: after {action} the URL shows {name}={raw}, not {value}"
                )


async def run_session(
    number: int, base_url: str, record: Record, seed: int, loaded: asyncio.Event | None, open_page, work
) -> None:
    """One student's session: connect, ``open_page(student)``, say so on ``loaded``, ``work(student)``.

    A failure is one error of the run (never of the driver), and ``loaded`` is set whatever happens,
    so the driver never waits for a session that failed.
    """
    student = Student(number, base_url, record, random.Random(seed * 1000 + number))
    try:
        await student.connect()
        await open_page(student)
        if loaded is not None:
            loaded.set()
        await work(student)
    except Exception as error:  # noqa: BLE001 - a crashed session is an error of the run, not of the driver
        record.errors.append(f"session {number}: {type(error).__name__}: {error}")
    finally:
        if loaded is not None:
            loaded.set()
        await student.close()


async def run_student(
    number: int, base_url: str, deadline: float, record: Record, seed: int, loaded: asyncio.Event | None
) -> None:
    """The explore scenario: a random page and setting, then moves, page switches and uploads until ``deadline``."""

    async def explore(student: Student) -> None:
        while time.monotonic() < deadline:
            roll = student.rng.random()
            if roll < 0.6:
                await student.move(student.rng.choice(MOVED))
            elif roll < 0.85:
                await student.switch_page()
            else:
                await student.upload()
            await asyncio.sleep(student.rng.uniform(0.5, 2.0))  # a person reads before the next move

    await run_session(number, base_url, record, seed, loaded, Student.open_first_page, explore)


@dataclass(frozen=True)
class LectureStep:
    """What the teacher's screen shows from ``start`` seconds on: a page and the stop index of ε, δ and d."""

    start: float
    pathname: str
    stops: dict


def lecture_plan(seconds: float, step_seconds: float, seed: int, pathnames) -> list[LectureStep]:
    """The teacher's walk: the Overview first, then at every step one slider moved or another page.

    Halfway through, the teacher takes the class to the denoising lab ("upload your histogram").
    """
    rng = random.Random(seed)
    stops = {name: PARAMETERS[name].stops.index(PARAMETERS[name].default) for name in MOVED}
    pathname = ""
    steps = [LectureStep(0.0, pathname, dict(stops))]
    time_now = step_seconds
    halfway = seconds / 2
    while time_now < seconds:
        if time_now <= halfway < time_now + step_seconds and UPLOAD_PAGE in pathnames:
            pathname = UPLOAD_PAGE
        elif rng.random() < 0.6:
            name = rng.choice(MOVED)
            stops[name] = rng.randrange(len(PARAMETERS[name].stops))
        else:
            pathname = rng.choice([other for other in pathnames if other != pathname])
        steps.append(LectureStep(time_now, pathname, dict(stops)))
        time_now += step_seconds
    return steps


def menu_pathnames() -> list[str]:
    """The URL path of every page in the menu, as Streamlit names them ("" for the Overview)."""
    from gaussmech_ui.menu import MENU

    return [entry.url_path for entry in MENU]


def _values(stops: dict) -> dict:
    return {name: PARAMETERS[name].stops[index] for name, index in stops.items()}


async def run_lecture_student(
    number: int,
    base_url: str,
    started: float,
    deadline: float,
    record: Record,
    seed: int,
    loaded: asyncio.Event | None,
    plan: list[LectureStep],
) -> None:
    """The lecture scenario: open the teacher's view, then follow each step of ``plan`` until ``deadline``."""

    def step_now() -> LectureStep:
        elapsed = time.monotonic() - started
        return [step for step in plan if step.start <= elapsed][-1]

    async def open_teachers_view(student: Student) -> None:
        step = step_now()
        await student.open_first_page(_values(step.stops), step.pathname)

    async def follow(student: Student) -> None:
        while time.monotonic() < deadline:
            await asyncio.sleep(student.rng.uniform(0.0, 5.0))  # the time a student takes to follow
            if time.monotonic() >= deadline:
                break
            step = step_now()
            if student.pages.get(step.pathname) != student.page_hash:
                await student.switch_page(step.pathname)
            for name, value in _values(step.stops).items():
                if student.expected[name] != value:  # also back from a move of their own
                    await student.move(name, step.stops[name])
            if step.pathname == UPLOAD_PAGE and student.rng.random() < 0.8:  # most upload their own file
                await asyncio.sleep(student.rng.uniform(0.5, 2.0))
                await student.upload()
            elif student.rng.random() < 0.5:  # something of their own
                await asyncio.sleep(student.rng.uniform(0.5, 2.0))
                await student.move(student.rng.choice(MOVED))
            following = [later for later in plan if later.start > step.start]
            if not following:
                await asyncio.sleep(max(0.0, deadline - time.monotonic()))
                break
            await asyncio.sleep(max(0.0, following[0].start - (time.monotonic() - started)))

    await run_session(number, base_url, record, seed, loaded, open_teachers_view, follow)


# --- an attacker beside the class (--attackers) ------------------------------------------------------

# The heaviest denoising-lab link: the largest histogram, the longest release history and the
# most releases per ε the page offers (issue 23, item 2).
ATTACK_QUERY = {
    "denoising_bins": "1000000",
    "denoising_history": "100",
    "denoising_draw": "99",
    "denoising_repetitions": "500",
}
FLOOD_UPLOADS = 5  # uploads of ~10 MB with fresh file ids per round
BURST_RERUNS = 5  # reruns sent back to back per round


async def flood_upload(student: Student, content: bytes) -> None:
    """Post ``content`` under a fresh file id into the attacker's own session, never naming it in a widget."""
    request = BackMsg()
    request.file_urls_request.request_id = uuid.uuid4().hex
    request.file_urls_request.file_names.append("flood.csv")
    request.file_urls_request.session_id = student.session_id
    await student.websocket.send(request.SerializeToString())
    try:
        urls = await asyncio.wait_for(student._await_file_urls(), TIMEOUT)
        await asyncio.to_thread(student._put_file, urls.file_urls[0].upload_url, "flood.csv", content)
    except Exception as error:  # noqa: BLE001 - a refused upload (413, 429, ...) is what the budget is for
        student.record.errors.append(f"attacker {student.number}: upload refused: {type(error).__name__}: {error}")


async def run_attacker(
    number: int, base_url: str, deadline: float, record: Record, seed: int, loaded: asyncio.Event | None
) -> None:
    """One hostile student until ``deadline``, round after round: a new session opened on the heaviest
    link (a new seed and size, so no cache spares the server the work), an upload flood into it, a
    burst of reruns, the page's own uploader once more; then the session is dropped for the next."""
    flood = b"count\n" + b"1\n" * (5 * 1000 * 1000 - 3)  # 10 MB of counts
    rng = random.Random(seed * 1000 + number)

    async def open_heaviest(student: Student) -> None:
        student.expected = {}
        student.page_name = UPLOAD_PAGE
        student.query = urllib.parse.urlencode(
            {
                **ATTACK_QUERY,
                "denoising_bins": str(1_000_000 - rng.randrange(1000)),
                "denoising_draw": str(rng.randrange(99, 10**6)),
            }
        )
        if await student.rerun("attack: link"):
            student.record.loads += 1

    async def attack(student: Student) -> None:
        for _ in range(FLOOD_UPLOADS):
            await flood_upload(student, flood)
        for _ in range(BURST_RERUNS - 1):  # a burst: reruns sent without waiting for the previous one
            message = BackMsg()
            message.rerun_script.query_string = student.query
            message.rerun_script.page_script_hash = student.page_hash
            await student.websocket.send(message.SerializeToString())
        await student.rerun("attack: burst")
        await student.upload()  # and the page's own uploader once more

    while time.monotonic() < deadline:
        await run_session(number, base_url, record, rng.randrange(10**9), loaded, open_heaviest, attack)
        loaded = None


# --- the server and its measurements ----------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        "app.py",
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--server.headless",
        "true",
        "--server.fileWatcherType",
        "none",
        "--browser.gatherUsageStats",
        "false",
    ]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_healthy(f"http://127.0.0.1:{port}", server)
    return server


def wait_healthy(base_url: str, server: subprocess.Popen | None = None, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server is not None and server.poll() is not None:
            raise RuntimeError(f"the server exited: {server.stderr.read().decode(errors='replace')[-2000:]}")
        try:
            with urllib.request.urlopen(base_url + "/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"{base_url} did not become healthy within {seconds} s")


def resident_mb(pids) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as status:
                total += next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
        except (OSError, StopIteration):
            pass
    return total / 1024


def cpu_seconds(pids) -> float:
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError):
            pass
    return total


async def sample_memory(pids, samples: list, stop: asyncio.Event, every: float = 1.0) -> None:
    start = time.monotonic()
    while not stop.is_set():
        samples.append((time.monotonic() - start, resident_mb(pids)))
        try:
            await asyncio.wait_for(stop.wait(), every)
        except asyncio.TimeoutError:
            pass


def cache_megabytes(base_url: str) -> float | None:
    """What the server's ``st.cache_data`` caches hold now (Streamlit's own count, ``/_stcore/metrics``)."""
    try:
        with urllib.request.urlopen(base_url + "/_stcore/metrics", timeout=30) as response:
            text = response.read().decode()
    except OSError:
        return None
    total = sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("cache_memory_bytes{") and 'cache_type="st_cache_data"' in line
    )
    return total / 1e6


def percentile(values, q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


async def run_wave(
    arguments, base_url: str, sessions: int, record: Record, seed: int, pids, attackers: int = 0, hostile=None
) -> float:
    """``sessions`` students of the chosen scenario, arriving over the ramp and working until its
    end, the last ``attackers`` of them hostile (their measurements in ``hostile``); returns the
    server's resident MB once the first 10 of them had their page."""
    started = time.monotonic()
    deadline = started + arguments.ramp + arguments.seconds
    plan = None
    if arguments.scenario == "lecture":
        plan = lecture_plan(arguments.ramp + arguments.seconds, arguments.step_seconds, seed, menu_pathnames())
    first_ten = [asyncio.Event() for _ in range(min(10, sessions))]
    rss_after_ten = resident_mb(pids)
    tasks = []
    for number in range(sessions):
        event = first_ten[number] if number < len(first_ten) else None
        if number >= sessions - attackers:
            student = run_attacker(number, base_url, deadline, hostile, seed, event)
        elif plan is None:
            student = run_student(number, base_url, deadline, record, seed, event)
        else:
            student = run_lecture_student(number, base_url, started, deadline, record, seed, event, plan)
        tasks.append(asyncio.create_task(student))
        if number == len(first_ten) - 1:
            # The first 10 students have their page before the others arrive.
            await asyncio.gather(*(event.wait() for event in first_ten))
            rss_after_ten = resident_mb(pids)
        await asyncio.sleep(arguments.ramp / max(sessions, 1))
    await asyncio.gather(*tasks)
    return rss_after_ten


async def drive(arguments, base_url: str, pids) -> str:
    record = Record()
    samples: list = []
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample_memory(pids, samples, stop))
    rss_cold = resident_mb(pids)
    rss_warm = None
    if arguments.warm_up:
        # A first class that comes and goes: afterwards every page has been opened, its modules
        # imported and its caches filled, so the main wave is compared with a warm server.
        warm_record = Record()
        await run_wave(arguments, base_url, arguments.warm_up, warm_record, arguments.seed + 1, pids)
        await asyncio.sleep(arguments.settle)
        rss_warm = resident_mb(pids)
        record.errors.extend(f"(warm-up) {line}" for line in warm_record.errors)
        record.crosstalk.extend(f"(warm-up) {line}" for line in warm_record.crosstalk)
    rss_before, cpu_before, started = resident_mb(pids), cpu_seconds(pids), time.monotonic()
    hostile = Record()
    rss_after_ten = await run_wave(
        arguments, base_url, arguments.sessions, record, arguments.seed, pids, arguments.attackers, hostile
    )
    first_ten = min(10, arguments.sessions)
    wall, cpu = time.monotonic() - started, cpu_seconds(pids) - cpu_before
    await asyncio.sleep(arguments.settle)  # disconnected sessions expire after server.disconnectedSessionTTL
    rss_end = resident_mb(pids)
    caches = await asyncio.to_thread(cache_megabytes, base_url)
    # Streamlit keeps a disconnected session for server.disconnectedSessionTTL seconds, in a TTL
    # cache that drops expired entries only when a session is stored: the sessions of a class
    # that left are freed when the next visitor leaves. One more visitor, then the memory again.
    visitor = Record()
    await run_student(arguments.sessions, base_url, time.monotonic(), visitor, arguments.seed + 2, None)
    record.errors.extend(f"(visitor) {line}" for line in visitor.errors)
    record.crosstalk.extend(f"(visitor) {line}" for line in visitor.crosstalk)
    await asyncio.sleep(5.0)
    rss_after_visitor = resident_mb(pids)
    stop.set()
    await sampler

    every = [value for values in record.latencies.values() for value in values]
    peak = max((rss for _, rss in samples), default=rss_end)
    print(f"\n{'action':<16} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for action, values in sorted(record.latencies.items()):
        print(
            f"{action:<16} {len(values):>6} {percentile(values, 50):8.0f} {percentile(values, 95):8.0f} {max(values):8.0f}"
        )
    print(
        f"{'all reruns':<16} {len(every):>6} {percentile(every, 50):8.0f} {percentile(every, 95):8.0f} {max(every, default=float('nan')):8.0f}"
    )
    if record.transfers:
        print(
            f"{'(upload HTTP)':<16} {len(record.transfers):>6} {percentile(record.transfers, 50):8.0f} "
            f"{percentile(record.transfers, 95):8.0f} {max(record.transfers):8.0f}   (not a rerun: file URL + PUT)"
        )
    load = os.getloadavg()[0]
    print(
        f"\nscenario {arguments.scenario}"
        + (
            f" (the teacher changes the view every {arguments.step_seconds:g} s)"
            if arguments.scenario == "lecture"
            else ""
        )
        + f"; page loads {record.loads}; elements not resent (the session's cache had them) {record.references}; run {wall:.1f} s; server CPU {cpu:.1f} s ({100 * cpu / wall:.0f} % of one core), "
        f"{1000 * cpu / max(len(every), 1):.0f} ms of server CPU per rerun; machine load average {load:.1f} on {os.cpu_count()} cores"
    )
    if pids:
        print(
            f"server resident MB: before {rss_before:.0f}, after the first {first_ten} sessions loaded "
            f"{rss_after_ten:.0f}, peak {peak:.0f}, at the end (+{arguments.settle:g} s) {rss_end:.0f}; "
            f"per session {(peak - rss_before) / max(arguments.sessions, 1):.1f} MB; "
            f"end / after first {first_ten}: {rss_end / rss_after_ten:.2f}"
        )
        print(
            f"after one more visitor came and went (+5 s; Streamlit then drops the stored sessions whose "
            f"disconnectedSessionTTL has passed): {rss_after_visitor:.0f} MB, "
            f"{rss_after_visitor / rss_after_ten:.2f} x the level after the first {first_ten} sessions loaded"
        )
        if rss_warm is not None:
            print(
                f"warm-up: {arguments.warm_up} students came and went first (server from {rss_cold:.0f} MB to "
                f"{rss_warm:.0f} MB, +{arguments.settle:g} s after they left); after the {arguments.sessions} "
                f"came and went: {rss_end:.0f} MB, {rss_end / rss_warm:.2f} x the level after the first "
                f"{arguments.warm_up}; after one more visitor: {rss_after_visitor:.0f} MB, "
                f"{rss_after_visitor / rss_warm:.2f} x"
            )
        if caches is not None:
            print(
                f"of which st.cache_data holds {caches:.1f} MB at the end (every cache bounded by max_entries); "
                "what else the resident size gained is not live data of these caches (deploy/README.md, 'Memory, what it is')"
            )
        print(
            "resident MB over time: "
            + ", ".join(f"{t:.0f}s {rss:.0f}" for t, rss in samples[:: max(1, len(samples) // 20)])
        )
    for line in record.errors[:10] + record.crosstalk[:10]:
        print("  " + line)
    hostile_fields = ""
    record.crosstalk.extend(f"(attacker) {line}" for line in hostile.crosstalk)  # no one sees another's data
    if arguments.attackers:
        attacks = [value for values in hostile.latencies.values() for value in values]
        print(
            f"\nattackers: {arguments.attackers} of the {arguments.sessions} sessions; their reruns {len(attacks)} "
            f"(p50 {percentile(attacks, 50):.0f} ms, max {max(attacks, default=float('nan')):.0f} ms); refused or "
            f"failed for them: {len(hostile.errors)}; the {arguments.sessions - arguments.attackers} normal students' "
            f"reruns: p95 {percentile(every, 95):.0f} ms"
        )
        for line in sorted(set(re.sub(r"\d+", "#", line) for line in hostile.errors))[:6]:
            print("  " + line)
        hostile_fields = (
            f" normal_p95_ms={percentile(every, 95):.0f} attackers={arguments.attackers} "
            f"attacker_reruns={len(attacks)} attacker_refusals={len(hostile.errors)}"
        )
    return (
        f"sessions={arguments.sessions} p50_ms={percentile(every, 50):.0f} p95_ms={percentile(every, 95):.0f} "
        f"max_ms={max(every, default=float('nan')):.0f} errors={len(record.errors)} crosstalk={len(record.crosstalk)}"
        f"{hostile_fields} rss_mb={peak:.0f}"
    )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10, help="simulated students, all at once")
    parser.add_argument("--seconds", type=float, default=30, help="how long each student keeps working, after the ramp")
    parser.add_argument("--url", help="a running server (or a balancer); default: start one on a free port")
    parser.add_argument("--server-pid", type=int, action="append", default=[], help="process to measure (with --url)")
    parser.add_argument(
        "--ramp",
        type=float,
        default=None,
        help="seconds over which the students arrive (default: min(10, seconds / 3))",
    )
    parser.add_argument(
        "--settle", type=float, default=0.0, help="seconds to wait after the run before the last memory reading"
    )
    parser.add_argument(
        "--browsers", type=int, default=0, help="real Chromium sessions (Playwright) checking for crosstalk meanwhile"
    )
    parser.add_argument(
        "--scenario",
        choices=("explore", "lecture"),
        default="explore",
        help="explore: every student alone, as fast as a person reads (the stress case); "
        "lecture: a class following its teacher's screen (see the module notes)",
    )
    parser.add_argument(
        "--step-seconds", type=float, default=15.0, help="lecture: seconds between two of the teacher's changes"
    )
    parser.add_argument(
        "--warm-up",
        type=int,
        default=0,
        help="first run this many students of the same scenario for the same time, let them go (--settle) "
        "and compare the memory after the main wave with the level they left",
    )
    parser.add_argument(
        "--attackers",
        type=int,
        default=0,
        help="of the --sessions, this many are hostile (upload floods, the heaviest link, bursts of reruns); "
        "the normal students' figures are reported apart",
    )
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args(argv)
    if not 0 <= arguments.attackers < arguments.sessions:
        parser.error("--attackers must be at least 0 and fewer than --sessions")
    if arguments.ramp is None:
        arguments.ramp = min(10.0, arguments.seconds / 3)
    server = None
    if arguments.url:
        base_url, pids = arguments.url.rstrip("/"), arguments.server_pid
    else:
        port = free_port()
        server = start_server(port)
        base_url, pids = f"http://127.0.0.1:{port}", [server.pid]
    browsers = None
    try:
        if arguments.browsers:
            sys.path.insert(0, str(Path(__file__).resolve().parent))
            from browser_sessions import start_browser_sessions  # noqa: PLC0415 - only with --browsers

            browsers = start_browser_sessions(base_url, arguments.browsers, arguments.ramp + arguments.seconds)
        summary = asyncio.run(drive(arguments, base_url, pids))
        if browsers is not None:
            browser_errors, browser_crosstalk = browsers.result()
            print(
                f"browsers: {arguments.browsers} Chromium sessions, {len(browser_errors)} errors, "
                f"{len(browser_crosstalk)} crosstalk"
            )
            for line in (browser_errors + browser_crosstalk)[:10]:
                print("  " + line)
            summary = summary.replace("crosstalk=", f"browser_crosstalk={len(browser_crosstalk)} crosstalk=")
        print(summary)
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()


if __name__ == "__main__":
    main()
