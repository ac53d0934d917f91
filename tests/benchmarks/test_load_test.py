"""The load generator runs, speaks the protocol and reports its summary line (no timing asserted)."""

from __future__ import annotations

import contextlib
import io
import random
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import load_test  # noqa: E402

SUMMARY = re.compile(
    r"^sessions=(?P<sessions>\d+) p50_ms=(?P<p50>\d+) p95_ms=(?P<p95>\d+) max_ms=(?P<max>\d+) "
    r"errors=(?P<errors>\d+) crosstalk=(?P<crosstalk>\d+) rss_mb=(?P<rss>\d+)$"
)


@pytest.mark.slow
def test_two_students_for_a_few_seconds():
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        load_test.main(["--sessions", "2", "--seconds", "6", "--ramp", "1", "--seed", "3", "--warm-up", "1"])
    lines = output.getvalue().strip().splitlines()
    match = SUMMARY.match(lines[-1])
    assert match, lines[-1]
    assert int(match["sessions"]) == 2
    assert int(match["errors"]) == 0 and int(match["crosstalk"]) == 0, output.getvalue()
    assert int(match["p50"]) <= int(match["p95"]) <= int(match["max"])
    assert int(match["rss"]) > 50  # the server was measured
    assert re.search(r"^open\s+2\s", output.getvalue(), re.MULTILINE), "both students opened the page"
    # The warm-up student came and went first, and the memory after the main wave is compared with its level.
    warm_up = re.search(r"^warm-up: 1 students came and went first .* ([0-9.]+) x the level", output.getvalue(), re.M)
    assert warm_up and float(warm_up[1]) > 0, output.getvalue()


def test_crosstalk_is_noticed():
    """A session shown another session's ε counts as crosstalk (the check can fail)."""
    record = load_test.Record()
    student = load_test.Student(0, "http://127.0.0.1:1", record, random.Random(0))
    student.expected = {"epsilon": 0.5, "delta": 1e-5, "dim": 10}
    student.query = "epsilon=0.5&delta=1e-05&dim=10"
    student.check_parameters("a rerun")
    assert record.crosstalk == []
    student.query = "epsilon=2&delta=1e-05&dim=10"
    student.check_parameters("a rerun")
    assert len(record.crosstalk) == 1 and "epsilon=2" in record.crosstalk[0]


def test_percentiles():
    values = list(range(1, 101))
    assert load_test.percentile(values, 50) == 50 and load_test.percentile(values, 95) == 95
    assert load_test.percentile([7], 95) == 7


def test_the_teachers_plan_starts_on_the_overview_and_changes_one_thing_per_step():
    pathnames = load_test.menu_pathnames()
    assert "" in pathnames and load_test.UPLOAD_PAGE in pathnames
    plan = load_test.lecture_plan(120, 15, 4, pathnames)
    assert plan == load_test.lecture_plan(120, 15, 4, pathnames)  # the same class for the same seed
    assert [step.start for step in plan] == [15.0 * k for k in range(8)]
    assert plan[0].pathname == "" and plan[0].stops == {
        name: load_test.PARAMETERS[name].stops.index(load_test.PARAMETERS[name].default) for name in load_test.MOVED
    }
    for before, after in zip(plan, plan[1:]):
        changed = [name for name in load_test.MOVED if before.stops[name] != after.stops[name]]
        assert len(changed) + (before.pathname != after.pathname) <= 1
        assert after.pathname in pathnames
    assert [step.pathname for step in plan if step.start == 60.0] == [load_test.UPLOAD_PAGE]  # halfway: uploads


@pytest.mark.slow
def test_a_small_lecture_follows_the_teacher_without_errors():
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        load_test.main(
            ["--sessions", "3", "--seconds", "14", "--ramp", "1", "--scenario", "lecture", "--step-seconds", "3"]
        )
    text = output.getvalue()
    match = SUMMARY.match(text.strip().splitlines()[-1])
    assert match and int(match["errors"]) == 0 and int(match["crosstalk"]) == 0, text
    assert "scenario lecture" in text
    assert re.search(r"^open\s+3\s", text, re.MULTILINE)
    assert re.search(r"^read upload\s+[1-9]", text, re.MULTILINE), "the class uploaded on the denoising lab"


HOSTILE_SUMMARY = re.compile(
    r"^sessions=(?P<sessions>\d+) p50_ms=\d+ p95_ms=(?P<p95>\d+) max_ms=\d+ errors=(?P<errors>\d+) "
    r"crosstalk=(?P<crosstalk>\d+) normal_p95_ms=(?P<normal_p95>\d+) attackers=(?P<attackers>\d+) "
    r"attacker_reruns=(?P<attacker_reruns>\d+) attacker_refusals=\d+ rss_mb=(?P<rss>\d+)$"
)


@pytest.mark.slow
def test_a_hostile_classroom_reports_the_normal_students_apart():
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        load_test.main(
            ["--sessions", "3", "--attackers", "1", "--seconds", "12", "--ramp", "1", "--scenario", "lecture"]
        )
    text = output.getvalue()
    match = HOSTILE_SUMMARY.match(text.strip().splitlines()[-1])
    assert match, text.strip().splitlines()[-1]
    assert int(match["attackers"]) == 1 and int(match["attacker_reruns"]) >= 1, text
    assert int(match["errors"]) == 0 and int(match["crosstalk"]) == 0, text
    assert match["normal_p95"] == match["p95"]
    assert "attackers: 1 of the 3 sessions" in text


def test_attackers_must_leave_someone_to_attack():
    with pytest.raises(SystemExit):
        load_test.main(["--sessions", "2", "--attackers", "2"])
