"""What one session may hold of uploaded files: a count and a number of bytes (issue 23, item 1).

Streamlit keeps every file posted to ``/_stcore/upload_file/<session>/<file id>`` until its
session ends, whatever the page's uploader still shows: 30 uploads of 10 MB with fresh file ids
took a server from 251 to 551 MB in 2.2 s. The app's only uploader takes one file, so a session
needs one file (and, for a moment, the one replacing it). :func:`install` wraps the runtime's file
manager so that a new file pushes a session's older files out once the session holds more than
:data:`MAX_FILES_PER_SESSION` files or :data:`MAX_BYTES_PER_SESSION` bytes: a new upload replaces
the old, and a flood of uploads costs the server at most that much per session.

How many sessions a client may open, and how many requests it may send a minute, is nginx's
(``limit_conn`` and ``limit_req`` in ``deploy/nginx.conf.template``).
"""

from __future__ import annotations

import threading

__all__ = ["MAX_BYTES_PER_SESSION", "MAX_FILES_PER_SESSION", "install", "limit_session_files"]

MAX_FILES_PER_SESSION = 2
# One upload at the cap (10 MiB) and a small one replacing it; a second large file evicts the first.
MAX_BYTES_PER_SESSION = 12 * 1024 * 1024

_INSTALLED = "_gaussmech_session_budget"
_lock = threading.Lock()


def limit_session_files(manager, session_id: str, *, max_files: int, max_bytes: int) -> list[str]:
    """Remove ``session_id``'s oldest files until it holds at most ``max_files`` files and ``max_bytes`` bytes.

    The newest file always stays (the one just uploaded). Returns the ids removed. Works on
    Streamlit's ``MemoryUploadedFileManager`` (its ``file_storage`` keeps each session's files in
    the order they were added).
    """
    storage = manager.file_storage.get(session_id)
    if not storage:
        return []
    removed = []
    ids = list(storage)  # oldest first (dicts keep insertion order)
    held = sum(len(record.data) for record in storage.values())
    for file_id in ids[:-1]:
        if len(ids) - len(removed) <= max_files and held <= max_bytes:
            break
        held -= len(storage[file_id].data)
        manager.remove_file(session_id, file_id)
        removed.append(file_id)
    return removed


def install(manager=None, *, max_files: int = MAX_FILES_PER_SESSION, max_bytes: int = MAX_BYTES_PER_SESSION) -> bool:
    """Wrap the running server's upload manager (or ``manager``) with the per-session budget; once per process.

    Returns True when the budget is in place (False outside a Streamlit server, e.g. in tests of the core).
    """
    if manager is None:
        from streamlit.runtime import Runtime

        if not Runtime.exists():
            return False
        manager = Runtime.instance().uploaded_file_mgr
    if not hasattr(manager, "file_storage") or not hasattr(manager, "remove_file"):
        return False  # a manager of another kind: nothing known to bound
    with _lock:
        if getattr(manager, _INSTALLED, False):
            return True
        add_file = manager.add_file

        def add_file_within_budget(session_id, file):
            # A re-posted file id replaces its old record: move it to the end (the newest).
            manager.remove_file(session_id, file.file_id)
            add_file(session_id, file)
            limit_session_files(manager, session_id, max_files=max_files, max_bytes=max_bytes)

        manager.add_file = add_file_within_budget
        setattr(manager, _INSTALLED, True)
    return True
