"""The mutation-testing run (fuzz/mutation/run.py over cosmic-ray) works end to end: slow, opt-in.

A copy of the sources is mutated (never the working tree), two mutants are drawn and each is fuzzed
with `doubtspec fuzz --profile ci` under a short CPU limit; the summary names each mutant with a
verdict. The real run, its sample and its results are in docs/fuzzing.md.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_a_small_sample_runs_and_is_summarized(tmp_path: Path) -> None:
    pytest.importorskip("cosmic_ray")
    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "src", copy / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "fuzz", copy / "fuzz", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    env = dict(os.environ, PYTHONPATH=str(copy / "src"))
    out = tmp_path / "run"
    subprocess.run([sys.executable, str(copy / "fuzz" / "mutation" / "run.py"), "--out", str(out), "--sample", "2",
                    "--limit", "20"], cwd=copy, env=env, check=True, capture_output=True, timeout=1200)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["sampled"] == 2 and summary["mutants"] > 1000
    assert {row["verdict"] for row in summary["rows"]} <= {"killed", "crashed", "survived", "timeout"}
    assert (out / "summary.md").read_text().startswith("Sample of 2 of ")


def test_a_sample_besides_an_earlier_one_shares_none_of_its_mutants() -> None:
    run = _tool("run")
    jobs = _synthetic_jobs()
    for stratify in (False, True):
        earlier = run.draw(jobs, 60, 1201, stratify)
        later = run.draw(jobs, 60, 1202, stratify, besides=(1201,))
        assert len(earlier) == len(later) == 60
        assert not earlier & later
        assert run.draw(jobs, 60, 1202, stratify) & earlier  # without `besides` the two overlap


def test_a_sample_besides_earlier_sessions_leaves_out_what_they_measured() -> None:
    run = _tool("run")
    jobs = _synthetic_jobs()
    first = run.draw(jobs, 60, 1201, True)
    second = run.draw(jobs, 60, 1202, True, besides=(1201,))
    measured = frozenset(key for key, job in jobs.items() if job in first | second)
    third = run.draw(jobs, 60, 1203, True, measured=measured)
    assert len(third) == 60 and not third & (first | second)
    # Seeds alone leave out each earlier seed's draw from the whole pool, not the second sample as it was drawn;
    # `chain` draws each as its run did.
    assert run.draw(jobs, 60, 1203, True, besides=(1201, 1202)) & second
    assert run.draw(jobs, 60, 1203, True, besides=(1201, 1202), chain=True) == third


def test_a_session_still_running_is_left_out_with_its_pending_mutants(tmp_path: Path) -> None:
    pytest.importorskip("cosmic_ray")
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import MutationSpec, WorkerOutcome, WorkItem, WorkResult

    run = _tool("run")
    session = tmp_path / "session.sqlite"
    with use_db(str(session), WorkDB.Mode.create) as db:
        for job, occurrence in (("measured", 0), ("pending", 1), ("skipped", 2)):
            db.add_work_item(WorkItem(job, [MutationSpec(Path("src/m.py"), "core/AddNot", occurrence, (1, 0),
                                                         (1, 1))]))
        db.set_result("measured", WorkResult(WorkerOutcome.NORMAL, output="x"))
        db.set_result("skipped", WorkResult(WorkerOutcome.SKIPPED, output="not sampled"))
    assert run._sampled(session) == {("src/m.py", "core/AddNot", 0), ("src/m.py", "core/AddNot", 1)}
    assert run._completed(session) == {("src/m.py", "core/AddNot", 0)}


def _tool(name: str) -> Any:
    """A module of fuzz/mutation (not a package: imported from its folder)."""
    sys.path.insert(0, str(ROOT / "fuzz" / "mutation"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.pop(0)


def _kill_module() -> Any:
    return _tool("kill")


def _synthetic_jobs() -> dict[tuple[str, str, int], str]:
    """Mutant identities of four modules of very different sizes, each named by a job id."""
    modules = {"engine.py": 300, "legal.py": 120, "cards.py": 40, "steps.py": 3}
    return {(module, "core/NumberReplacer", n): f"{module}-{n}" for module, count in modules.items()
            for n in range(count)}


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the fuzzer's CPU time from /proc")
def test_kill_stops_a_child_asleep_without_cpu_but_not_a_busy_or_stopped_one(tmp_path: Path) -> None:
    kill = _kill_module()
    env = dict(os.environ)
    # Asleep and gaining no CPU time: stuck, stopped after the stall (not after its 30 s or the 60 s limit).
    started = time.monotonic()
    code, _, _ = kill._run(_python("import time; time.sleep(30)"), str(tmp_path), env, 60.0, stall=1.0, poll=0.2)
    assert code is None and time.monotonic() - started < 10
    # Busy for three times the stall: its CPU time grows, so it runs to its end.
    busy = "import time\nend = time.process_time() + 1.5\nwhile time.process_time() < end: pass\nprint('done')"
    assert kill._run(_python(busy), str(tmp_path), env, 60.0, stall=0.5, poll=0.1)[:2] == (0, "done\n")
    # Stopped (as by hand, or starved) for longer than the stall, then continued: not stuck.
    stopped = ("import os, signal, time\npid = os.getpid()\nif os.fork() == 0:\n"
               "    time.sleep(2.5)\n    os.kill(pid, signal.SIGCONT)\n    os._exit(0)\n"
               "os.kill(pid, signal.SIGSTOP)\nprint('resumed')")
    assert kill._run(_python(stopped), str(tmp_path), env, 60.0, stall=1.0, poll=0.2)[:2] == (0, "resumed\n")


def test_kill_reads_cpu_time_and_state_or_says_it_cannot(tmp_path: Path) -> None:
    kill = _kill_module()
    if Path("/proc/self/stat").exists():
        seen = kill._cpu_and_state(os.getpid())
        assert seen is not None and seen[0] > 0 and seen[1] == "R"
    assert kill._cpu_and_state(2**22 + 1) is None  # above Linux's largest process id


def test_the_cpu_limit_stops_a_busy_child(tmp_path: Path) -> None:
    kill = _kill_module()
    code, _, _ = kill._run(_python("while True: pass"), str(tmp_path), dict(os.environ), 1.0, stall=0.5, poll=0.2)
    assert code == -signal.SIGXCPU


def test_cosmic_rays_wall_limit_leaves_a_starved_fuzzer_to_kill() -> None:
    run = _tool("run")
    config = tomllib.loads(run._config("src/doubtspec/model", 90.0, []))
    assert config["cosmic-ray"]["timeout"] >= run.SAFETY_NET


HAND_MADE = {"realistic": "src/doubtspec/model/", "soundness": "src/doubtspec/solver/"}
"""The folders of hand-made bugs under fuzz/mutation/ (`realistic.py`'s engine bugs, `soundness.py`'s solver bugs),
each with the part of the sources its bugs may edit."""
BUGS = [(diff, edits) for folder, edits in HAND_MADE.items()
        for diff in sorted((ROOT / "fuzz" / "mutation" / folder).glob("*.diff"))]


@pytest.mark.parametrize(("diff", "edits"), BUGS, ids=[f"{d.parent.name}/{d.stem}" for d, _ in BUGS])
def test_every_hand_made_bug_still_applies(diff: Path, edits: str) -> None:
    # A bug that no longer applies would drop out of `realistic.py`'s or `soundness.py`'s figures without a word.
    checked = subprocess.run(["git", "apply", "--check", str(diff)], cwd=ROOT, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert all(line.startswith(f"+++ b/{edits}") for line in diff.read_text().splitlines() if line.startswith("+++ "))


@pytest.mark.slow
def test_a_realistic_bug_is_fuzzed_and_summarized() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "fuzz" / "mutation" / "realistic.py"), "--limit", "60",
                             "13-"], capture_output=True, text=True, cwd=ROOT)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0]["bug"].startswith("13-") and lines[0]["verdict"] == "killed", lines
    assert lines[-1]["bugs"] == 1 and lines[-1]["detected"] == 1


@pytest.mark.slow
def test_a_soundness_bug_is_caught_and_summarized() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "fuzz" / "mutation" / "soundness.py"), "--tests",
                             "tests/test_solver_abstraction_company.py", "009-"], capture_output=True, text=True,
                            cwd=ROOT)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0]["bug"].startswith("009-") and lines[0]["verdict"] == "caught", lines
    assert lines[-1]["bugs"] == 1 and lines[-1]["caught"] == 1 and result.returncode == 0


def test_annotations_nothing_evaluates_are_told_from_those_something_may() -> None:
    reach = _tool("reach")
    source = '''from __future__ import annotations
import dataclasses
ALIAS: int | None = None
@dataclasses.dataclass
class Record:
    field: int | None
    def method(self, value: int | None) -> str | None:
        self.cache: dict[int, str | None] = {}
        if value:
            local: int | None = value
        class Inner:
            kept: int | None = None
        return None
'''
    tree = ast.parse(source)
    lines = source.splitlines()

    def at(line: int, text: str) -> bool:
        return reach.in_unevaluated_annotation(tree, line, lines[line - 1].index(text))

    assert at(7, "int | None) ->") and at(7, "str | None:")  # the signature, postponed
    assert at(8, "dict[") and at(10, "int | None")  # assignments in the body, nested blocks included
    assert not at(3, "int | None") and not at(6, "int | None") and not at(12, "int | None")  # may be read
    assert not at(8, "{}")  # the value is evaluated
    plain = ast.parse(source.replace("from __future__ import annotations\n", "\n"))
    assert not reach.in_unevaluated_annotation(plain, 7, lines[6].index("int | None) ->"))
    assert reach.in_unevaluated_annotation(plain, 8, lines[7].index("dict["))


def test_check_runs_tests_against_one_mutant_and_says_whether_they_catch_it() -> None:
    pytest.importorskip("cosmic_ray")
    engine = (ROOT / "src" / "doubtspec" / "model" / "engine.py").read_text()
    check = [sys.executable, str(ROOT / "fuzz" / "mutation" / "check.py"), "src/doubtspec/model/engine.py",
             "core/AddNot", "51", "--", "tests/test_engine_rules.py", "-x"]
    caught = subprocess.run([*check, "-k", "unpaid_play"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert caught.returncode == 1, caught.stdout[-2000:]
    assert "+            side_data = data.standard if not isinstance(action, PlayStandard)" in caught.stdout
    missed = subprocess.run([*check, "-k", "phase_cannot_end"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert missed.returncode == 0, missed.stdout[-2000:]
    none = subprocess.run([*check[:4], "99999"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert none.returncode == 2 and "no such mutant" in none.stdout
    assert (ROOT / "src" / "doubtspec" / "model" / "engine.py").read_text() == engine  # only a copy is mutated


def test_triage_reads_pytests_first_failure_and_picks_tests_by_module() -> None:
    triage = _tool("triage")
    assert triage.first_failure("..F\nFAILED tests/test_a.py::test_b[x] - assert 1 == 2\nFAILED tests/c.py::d\n") \
        == "tests/test_a.py::test_b[x]"
    assert triage.first_failure("3 passed in 0.1s\n") is None
    table = triage.tests_by_module()
    assert triage.tests_for("src/doubtspec/model/cards.py", table) == ["tests/test_cards.py"]
    assert triage.tests_for("src/doubtspec/model/engine.py", table) == table[triage.FALLBACK]
    assert all((ROOT / test).is_file() for tests in table.values() for test in tests)


def test_triage_runs_tests_against_each_undetected_mutant_and_resumes(tmp_path: Path) -> None:
    pytest.importorskip("cosmic_ray")
    engine = (ROOT / "src" / "doubtspec" / "model" / "engine.py").read_text()
    rows = [{"verdict": "unreached", "module": "src/doubtspec/model/engine.py", "operator": "core/AddNot",
             "occurrence": 51, "line": 487},
            {"verdict": "killed", "module": "src/doubtspec/model/engine.py", "operator": "core/AddNot",
             "occurrence": 50, "line": 480}]
    (tmp_path / "summary.json").write_text(json.dumps({"rows": rows}))
    triage = [sys.executable, str(ROOT / "fuzz" / "mutation" / "triage.py"), "--out", str(tmp_path), "--tests"]
    catching = "tests/test_engine_rules.py::test_an_unpaid_play_is_explained_by_the_side_played"
    first = subprocess.run([*triage, catching], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr[-2000:]
    [record] = json.loads((tmp_path / "triage.json").read_text())  # the killed mutant is not run again
    assert record["mutant"] == "engine.py:core/AddNot:51" and record["caught_by"] == catching
    assert any("not isinstance(action, PlayStandard)" in line for line in record["diff"])
    again = subprocess.run([*triage, catching], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and "[1/" not in again.stdout  # resumed: nothing left to run
    (tmp_path / "triage.json").unlink()
    missing = "tests/test_engine_rules.py::test_a_phase_cannot_end_before_its_first_play"
    subprocess.run([*triage, missing], cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    [record] = json.loads((tmp_path / "triage.json").read_text())
    assert record["caught_by"] is None and record["outcome"].startswith("not caught")
    assert "caught by none (read these)" in (tmp_path / "triage.md").read_text()
    (tmp_path / "triage.json").unlink()  # tests that never ran say so, and do not count as catching the mutant
    subprocess.run([*triage, "tests/test_no_such_file.py"], cwd=ROOT, capture_output=True, text=True, timeout=300,
                   check=True)
    [record] = json.loads((tmp_path / "triage.json").read_text())
    assert record["caught_by"] is None and record["outcome"].startswith("tests did not run (pytest exit 4)")
    assert (ROOT / "src" / "doubtspec" / "model" / "engine.py").read_text() == engine  # only a copy is mutated


def test_a_mutant_is_not_copied_from_an_engine_a_running_session_has_changed(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """`cosmic-ray exec` writes each mutant into the working tree while it runs it, so a triage copying `src/` from a
    checkout with a run in progress would test two mutants at once: the copy is refused while the engine's modules
    differ from the commit, and taken once they are back."""
    pytest.importorskip("cosmic_ray")  # applies the mutant once the copy is allowed
    check = _tool("check")
    model = tmp_path / "src" / "doubtspec" / "model"
    model.mkdir(parents=True)
    (model / "rule.py").write_text("LIMIT = 3\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run([*git, "add", "-A"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "engine"], cwd=tmp_path, check=True)
    monkeypatch.setattr(check, "ROOT", tmp_path)
    (model / "rule.py").write_text("LIMIT = 4\n")  # a running session's mutant
    with pytest.raises(check.DirtyEngine):
        check.mutated_copy("src/doubtspec/model/rule.py", "core/NumberReplacer", 0, tmp_path / "copy")
    (model / "rule.py").write_text("LIMIT = 3\n")
    diff = check.mutated_copy("src/doubtspec/model/rule.py", "core/NumberReplacer", 0, tmp_path / "copy")
    assert "+LIMIT = 4" in diff or "+LIMIT = 2" in diff
