"""A stuck engine step: the fuzzer reports it, and the report's page and `replay` stop at it instead of hanging."""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_run import run_cli
from doubtspec import watchdog
from doubtspec.invariants import fuzzing
from doubtspec.model import movement
from doubtspec.model.work import Work


def test_cpu_limit_stops_a_busy_loop_and_restores_the_outer_timer() -> None:
    def outer(_signum: int, _frame: object) -> None:  # an enclosing limit's handler, never due in this test
        raise AssertionError("the outer timer fired")

    previous = signal.signal(signal.SIGPROF, outer)
    signal.setitimer(signal.ITIMER_PROF, 100.0)
    try:
        started = time.process_time()
        with pytest.raises(watchdog.StepStalled, match=r"the loop used more than 0\.2 CPU seconds"), \
                watchdog.cpu_limit("the loop", seconds=0.2):
            while True:
                pass
        assert time.process_time() - started < 2.0
        with watchdog.cpu_limit("a quick step", seconds=0.2):
            total = sum(range(1000))
        assert total == 499500
        # The enclosing handler and timer are back, the timer less the time spent inside.
        assert signal.getsignal(signal.SIGPROF) is outer
        assert 90.0 < signal.getitimer(signal.ITIMER_PROF)[0] < 99.85
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0.0)
        signal.signal(signal.SIGPROF, previous)


@pytest.fixture
def stuck_pass(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The Movement's Pass loops for ever (a rule bug), with short limits so the test takes seconds."""

    def pass_turn(w: Work) -> None:
        while True:
            pass

    monkeypatch.setattr(movement, "pass_turn", pass_turn)
    monkeypatch.setattr(fuzzing, "STALL_SECONDS", 1)
    monkeypatch.setattr(watchdog, "STEP_SECONDS", 0.5)
    yield


def test_stuck_step_is_reported_and_replays_to_the_same_finding(stuck_pass: None, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    reports = tmp_path / "reports"
    started = time.monotonic()
    code, out, _ = run_cli("fuzz", "--invariant", "contract.no-crash", "--examples", "20",
                           "--report-dir", str(reports), "--json")
    assert code == 1, out
    assert time.monotonic() - started < 60
    summary = json.loads(out)
    found = {v["invariant"]: v for v in summary["violations"]}
    report_dir = Path(found["contract.no-crash"]["report"])
    data = json.loads((report_dir / "report.json").read_text())
    assert "EngineStalled" in data["message"] and data["trace"]["actions"][-1] == "m pass"
    assert "not replayed" in (report_dir / "report.html").read_text()
    code, out, _ = run_cli("replay", str(report_dir), "--json")
    assert code == 1, out
    replayed = json.loads(out)["violation"]
    assert replayed["step"] == data["step"] and "StepStalled" in replayed["message"]
