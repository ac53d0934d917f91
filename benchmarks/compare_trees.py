"""Every page's every view, timed in two checkouts in one run: did any page get slower?

    .venv/bin/python benchmarks/compare_trees.py --baseline ../baseline --candidate . \
        [--rounds 4] [--repeats 5] [--pages overview accuracy teaching denoising]

Each tree gets one worker process (this file with ``--worker DIR``), whose imports are that
tree's own ``gaussmech_ui`` and ``gaussmech_core`` and which runs that tree's ``app.py`` in
Streamlit's ``AppTest``. The driver asks the two workers in turn, case by case and round by
round (baseline, candidate, candidate, baseline, ...), so machine load falls on both trees
alike; only one worker measures at any time. The cases are those of the page benchmarks in
this folder, with the same cache rules:

* Overview (``bench_overview.py``): "new ε" drops the calibration table before each run; "revisited ε"
  alternates 0.5 and 0.7, all cached (both are visited once before the timing, here and in every
  "revisited" case, so that a few repeats per round still time cached reruns).
* Accuracy vs dimension (``bench_accuracy_page.py``): each view, "new ε" (a walk over the slider's
  stops in (0.1, 10]) and "revisited ε" (1 and 0.7); the default view also "cold" (every cache
  dropped before each run).
* Teaching pages (``bench_teaching_pages.py``): every tab of Noise distributions, Tail
  probabilities and Privacy profiles, every ``st.cache_data`` entry dropped before each run.
* Denoising lab (``bench_denoising_page.py``): new ε, revisited ε, draw again, new pipeline
  (caches dropped), first load with an empty cache.

Every case starts from a fresh session with every cache dropped, then warms up as its benchmark
does. For each run it records the wall time of ``AppTest.run()`` and the CPU time the worker
process used during it (``time.process_time``: all threads, so the script thread's work and
Streamlit's own). Printed per page and view: the median wall ms and CPU ms of each tree and
the ratios candidate / baseline. A ratio within about ±10 % of 1 is noise on a shared machine.

``--server-compile``: each worker compiles a script once and keeps its bytecode, as the server does
(its ``Runtime`` holds one ``ScriptCache``), where ``AppTest`` compiles the entry point and the page
again on every run; the figures are then the rerun's own work, without a compile whose cost
depends on the tree's Streamlit settings (``runner.magicEnabled``) more than on its pages.

Not a test: no assertion, only figures (DESIGN.md section 4).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

# (group, label, kind, page or None, view key or None, view or None)
ACCURACY_VIEWS = ("Mean error", "Spread of the error", "R1SMG audit", "Accuracy first")
TEACHING = {
    ("pages/1_Noise_distributions.py", "distributions_view"): (
        "Densities",
        "Generalized Gaussian family",
        "Draw samples",
        "Noise as vectors",
    ),
    ("pages/2_Tail_probabilities.py", "tails_view"): (
        "Per coordinate",
        "Whole vector",
        "Laplace vs Gaussian: tails",
        "Laplace vs Gaussian: privacy cost",
        "Laplace vs Gaussian: variance|Lemma 11: variance",  # renamed since 4122e78: either name
    ),
    ("pages/3_Privacy_profiles.py", "profiles_view"): (
        "Privacy profiles",
        "Privacy loss",
        "Where the classical formula holds",
        "Hypothesis testing",
        "Composition",
    ),
}
ACCURACY_PAGE = "pages/4_Accuracy_vs_dimension.py"
DENOISING_PAGE = "pages/5_Denoising_lab.py"
ESTIMATORS = ["empirical_bayes", "james_stein_plus", "soft_threshold", "none"]


def cases() -> list[dict]:
    """Every measured case, in the order printed."""
    found = [
        {"group": "overview", "label": "Overview, new ε (table recalibrated)", "kind": "overview_new"},
        {"group": "overview", "label": "Overview, revisited ε", "kind": "overview_revisited"},
    ]
    for view in ACCURACY_VIEWS:
        found.append({"group": "accuracy", "label": f"Accuracy · {view}, new ε", "kind": "accuracy_new", "view": view})
        found.append(
            {
                "group": "accuracy",
                "label": f"Accuracy · {view}, revisited ε",
                "kind": "accuracy_revisited",
                "view": view,
            }
        )
    found.append(
        {"group": "accuracy", "label": "Accuracy · Mean error, cold", "kind": "accuracy_cold", "view": "Mean error"}
    )
    for (page, key), views in TEACHING.items():
        for view in views:
            label = f"{Path(page).stem.split('_', 1)[1].replace('_', ' ')} · {view.split('|')[0]}"
            found.append(
                {"group": "teaching", "label": label, "kind": "teaching", "page": page, "key": key, "view": view}
            )
    for kind, label in (
        ("denoising_new", "Denoising · new ε"),
        ("denoising_revisited", "Denoising · revisited ε"),
        ("denoising_draw", "Denoising · draw again"),
        ("denoising_pipeline", "Denoising · new pipeline"),
        ("denoising_first", "Denoising · first load, empty cache"),
    ):
        found.append({"group": "denoising", "label": label, "kind": kind})
    return found


# --- the worker: one tree, one process ------------------------------------------------------------


def _forget_everything() -> None:
    import streamlit as st

    st.cache_data.clear()
    try:
        from gaussmech_ui.cached import accuracy
    except ImportError:  # pragma: no cover - a tree without the page
        return
    shared = getattr(accuracy, "_SHARED_SCALES", None)
    if shared is not None:
        shared.clear()


def _check(at) -> None:
    if at.exception:
        raise RuntimeError(at.exception[0].value)


def _timed(run, before=None) -> tuple[float, float]:
    if before is not None:
        before()
    wall, cpu = time.perf_counter(), time.process_time()
    at = run()
    result = (time.perf_counter() - wall, time.process_time() - cpu)
    _check(at)
    return result


def measure(case: dict, repeats: int) -> list[tuple[float, float]]:
    """Wall and CPU seconds of ``repeats`` reruns of one case, in the current tree."""
    from streamlit.testing.v1 import AppTest

    from gaussmech_ui.params import PARAMETERS, widget_key

    stops = PARAMETERS["epsilon"].stops
    slider_key = widget_key("epsilon")
    kind = case["kind"]
    _forget_everything()

    def session(page: str | None = None, query: dict | None = None):
        at = AppTest.from_file(str(Path.cwd() / "app.py"), default_timeout=180)
        for name, value in (query or {}).items():
            at.query_params[name] = value
        if page:
            at.switch_page(page)
        at.run()
        _check(at)
        return at

    def slide(at, epsilon):
        return at.select_slider(key=slider_key).set_value(epsilon).run

    walk_01 = [s for s in stops if 0.1 < s <= 10]
    walk = [walk_01[i % len(walk_01)] for i in range(repeats)]
    alternating = [[0.5, 0.7], [1.0, 0.7]]
    if kind.startswith("overview"):
        from gaussmech_ui.cached.overview import calibration_table

        at = session()
        slide(at, 0.1)()
        if kind == "overview_new":
            return [_timed(slide(at, e), calibration_table.clear) for e in walk]
        for epsilon in alternating[0]:  # "revisited": both values cached before the timing
            slide(at, epsilon)()
        return [_timed(slide(at, alternating[0][i % 2])) for i in range(repeats)]
    if kind.startswith("accuracy"):
        at = session(ACCURACY_PAGE, {"accuracy_view": case["view"]})
        slide(at, 0.1)()
        if kind == "accuracy_new":
            return [_timed(slide(at, e)) for e in walk]
        epsilons = [alternating[1][i % 2] for i in range(repeats)]
        if kind == "accuracy_cold":
            return [_timed(slide(at, e), _forget_everything) for e in epsilons]
        for epsilon in alternating[1]:
            slide(at, epsilon)()
        return [_timed(slide(at, e)) for e in epsilons]
    if kind == "teaching":
        import streamlit as st

        teaching_walk = [s for s in stops if 0.7 < s <= 3.0] + [0.7]
        at = session(case["page"])
        names = case["view"].split("|")  # the tab's names, in the candidate and in older trees
        for name in names:
            at.session_state[case["key"]] = name
            slide(at, 0.7)()
            if at.session_state[case["key"]] == name:
                break
        else:
            raise RuntimeError(f"no tab named {case['view']!r} (open: {at.session_state[case['key']]!r})")
        times = [_timed(slide(at, teaching_walk[i % len(teaching_walk)]), st.cache_data.clear) for i in range(repeats)]
        if at.session_state[case["key"]] != name:
            raise RuntimeError(f"expected view {name!r}, got {at.session_state[case['key']]!r}")
        return times
    if kind in ("denoising_new", "denoising_revisited"):
        at = session(DENOISING_PAGE)
        slide(at, 0.1)()
        epsilons = walk
        if kind == "denoising_revisited":
            epsilons = [alternating[0][i % 2] for i in range(repeats)]
            for epsilon in alternating[0]:
                slide(at, epsilon)()
        return [_timed(slide(at, e)) for e in epsilons]
    if kind == "denoising_draw":
        at = session(DENOISING_PAGE)
        return [_timed(at.button(key="denoising_draw_again").click().run) for _ in range(repeats)]
    if kind == "denoising_pipeline":
        import streamlit as st

        at = session(DENOISING_PAGE)
        box = "denoising_estimator_histogram"
        return [
            _timed(at.selectbox(key=box).set_value(ESTIMATORS[i % len(ESTIMATORS)]).run, st.cache_data.clear)
            for i in range(repeats)
        ]
    if kind == "denoising_first":
        return [_timed(lambda: session(DENOISING_PAGE), _forget_everything) for _ in range(repeats)]
    raise ValueError(f"unknown case kind {kind!r}")


def _compile_once() -> None:
    """Every AppTest run of this process shares one ScriptCache, as the server's runtime does."""
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import app_test, local_script_runner

    shared = ScriptCache()
    app_test.ScriptCache = local_script_runner.ScriptCache = lambda: shared  # type: ignore[assignment]


def worker(tree: Path, server_compile: bool = False) -> None:
    """Answer one JSON request a line on stdin ({"case": ..., "repeats": n}) with one JSON line."""
    os.chdir(tree)
    sys.path.insert(0, str(tree))
    logging.getLogger("streamlit").setLevel(logging.ERROR)  # "No runtime found" on every cache clear
    if server_compile:
        _compile_once()
    out = sys.stdout
    sys.stdout = sys.stderr  # anything the app prints must not corrupt the answers
    for line in sys.stdin:
        request = json.loads(line)
        try:
            answer = {"times": measure(request["case"], request["repeats"])}
        except Exception as error:  # noqa: BLE001 - reported to the driver, which prints it
            answer = {"error": f"{type(error).__name__}: {error}"}
        out.write(json.dumps(answer) + "\n")
        out.flush()


# --- the driver ------------------------------------------------------------------------------------


class Worker:
    def __init__(self, tree: Path, python: str, server_compile: bool = False):
        self.tree = tree
        self.process = subprocess.Popen(
            [python, str(Path(__file__).resolve()), "--worker", str(tree)]
            + (["--server-compile"] if server_compile else []),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONPATH": str(tree)},
        )

    def ask(self, case: dict, repeats: int) -> list[tuple[float, float]]:
        self.process.stdin.write(json.dumps({"case": case, "repeats": repeats}) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        if "error" in answer:
            raise RuntimeError(f"{self.tree}: {case['label']}: {answer['error']}")
        return [tuple(t) for t in answer["times"]]

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=60)


def _median_ms(samples: list[tuple[float, float]], index: int) -> float:
    return statistics.median(s[index] for s in samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("--candidate", type=Path)
    parser.add_argument("--rounds", type=int, default=4, help="alternations of the two trees per case")
    parser.add_argument("--repeats", type=int, default=5, help="reruns per case and round")
    parser.add_argument("--pages", nargs="*", default=["overview", "accuracy", "teaching", "denoising"])
    parser.add_argument("--only", default="", help="measure only cases whose label contains this text")
    parser.add_argument(
        "--server-compile", action="store_true", help="compile each script once per worker, as the server does"
    )
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker:
        worker(arguments.worker.resolve(), arguments.server_compile)
        return
    if not (arguments.baseline and arguments.candidate):
        parser.error("--baseline and --candidate are required")
    python = sys.executable
    trees = {"baseline": arguments.baseline.resolve(), "candidate": arguments.candidate.resolve()}
    workers = {name: Worker(tree, python, arguments.server_compile) for name, tree in trees.items()}
    selected = [c for c in cases() if c["group"] in arguments.pages and arguments.only in c["label"]]
    print(f"baseline  = {trees['baseline']}\ncandidate = {trees['candidate']}")
    print(f"{arguments.rounds} rounds × {arguments.repeats} reruns per case and tree, interleaved; medians.")
    if arguments.server_compile:
        print("Each script compiled once per worker, as the server does (--server-compile).")
    header = (
        f"{'page · view':<56} {'base ms':>8} {'cand ms':>8} {'ratio':>6}   {'base CPU':>8} {'cand CPU':>8} {'ratio':>6}"
    )
    print(header)
    print("-" * len(header))
    try:
        for case in selected:
            samples: dict[str, list] = {"baseline": [], "candidate": []}
            for round_number in range(arguments.rounds):
                order = ("baseline", "candidate") if round_number % 2 == 0 else ("candidate", "baseline")
                for name in order:
                    samples[name] += workers[name].ask(case, arguments.repeats)
            wall = [_median_ms(samples[n], 0) for n in ("baseline", "candidate")]
            cpu = [_median_ms(samples[n], 1) for n in ("baseline", "candidate")]
            print(
                f"{case['label']:<56} {wall[0]:8.1f} {wall[1]:8.1f} {wall[1] / wall[0]:6.2f}   "
                f"{cpu[0]:8.1f} {cpu[1]:8.1f} {cpu[1] / cpu[0]:6.2f}",
                flush=True,
            )
    finally:
        for each in workers.values():
            each.close()


if __name__ == "__main__":
    main()
