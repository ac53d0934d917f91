"""One session holds at most two uploaded files and 12 MiB: a new upload replaces the old (issue 23, item 1)."""

from __future__ import annotations

from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.uploaded_file_manager import UploadedFileRec

from gaussmech_ui import upload_budget
from gaussmech_ui.uploads import DEFAULT_MAX_BYTES


def _file(file_id: str, size: int) -> UploadedFileRec:
    return UploadedFileRec(file_id=file_id, name=f"{file_id}.csv", type="text/csv", data=b"1\n" * (size // 2))


def _held(manager, session: str) -> tuple[int, int]:
    files = manager.file_storage.get(session, {})
    return len(files), sum(len(f.data) for f in files.values())


def test_a_flood_of_uploads_with_fresh_ids_is_held_to_the_session_budget():
    manager = MemoryUploadedFileManager("/_stcore/upload_file")
    assert upload_budget.install(manager)
    for index in range(30):
        manager.add_file("attacker", _file(f"f{index}", DEFAULT_MAX_BYTES))
    count, size = _held(manager, "attacker")
    assert count == 1 and size <= upload_budget.MAX_BYTES_PER_SESSION  # two 10 MiB files exceed 12 MiB
    assert list(manager.file_storage["attacker"]) == ["f29"], "the newest upload replaces the old"
    assert manager.get_files("attacker", ["f29"])[0].file_id == "f29"


def test_small_uploads_keep_the_last_two_and_other_sessions_are_untouched():
    manager = MemoryUploadedFileManager("/_stcore/upload_file")
    upload_budget.install(manager)
    manager.add_file("student", _file("mine", 1000))
    for index in range(5):
        manager.add_file("attacker", _file(f"f{index}", 1000))
    assert list(manager.file_storage["attacker"]) == ["f3", "f4"]
    assert list(manager.file_storage["student"]) == ["mine"]
    # Re-posting a file id counts it once, as the newest.
    manager.add_file("attacker", _file("f3", 2000))
    assert list(manager.file_storage["attacker"]) == ["f4", "f3"]
    assert _held(manager, "attacker") == (2, 3000)


def test_install_is_once_per_manager_and_off_outside_a_server():
    manager = MemoryUploadedFileManager("/_stcore/upload_file")
    assert upload_budget.install(manager) and upload_budget.install(manager)
    wrapped = manager.add_file
    upload_budget.install(manager)
    assert manager.add_file is wrapped
    assert upload_budget.install() is False  # no Streamlit runtime in this test process
