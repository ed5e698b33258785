"""Options of every command checked before any work: times, counts, outputs (exit 2, the option named)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from cli_run import run_cli


@pytest.mark.parametrize("args, option", [
    (["solve", "stars", "--by-turn", "2", "--timeout", "inf"], "--timeout"),   # used to be accepted: no bound
    (["solve", "goals", "--by-turn", "2", "--timeout", "nan"], "--timeout"),
    (["simulate", "--games", "-1"], "--games"),
    (["simulate", "--games", "1", "--workers", "-2"], "--workers"),
    (["simulate", "--games", "1", "--max-rounds", "0"], "--max-rounds"),
    (["simulate", "--games", "1", "--ruling", "draw-order=reshuffle-first", "--ruling", "draw-order=draw-first"],
     "--ruling"),
])
def test_bad_options_are_refused_at_once(args: list[str], option: str) -> None:
    started = time.monotonic()
    code, _, err = run_cli(*args)
    assert code == 2 and option in err and time.monotonic() - started < 5


def test_a_witness_target_in_a_file_is_refused_before_solving(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _, err = run_cli("solve", "stars", "--by-turn", "1", "--witness-out", str(blocker / "w.json"))
    assert code == 2 and "--witness-out" in err


def test_a_fifo_as_junit_target_is_refused(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "fuzz.xml"
    os.mkfifo(fifo)
    code, _, err = run_cli("fuzz", "--examples", "1", "--junit-xml", str(fifo), "--report-dir", str(tmp_path / "r"))
    assert code == 2 and "--junit-xml" in err and "not a regular file" in err


def test_the_command_line_starts_without_the_fuzzer() -> None:
    """Loading the command line (every command's options) loads neither Hypothesis nor the fuzzing machines: a
    `solve` or a `cards check` does not pay for them at start-up (about half a CPU-second, charged to a question's
    `--timeout`); `fuzz` loads them when its run starts."""
    import subprocess
    import sys

    code = ("import sys, doubtspec.cli.app; "
            "loaded = [m for m in ('hypothesis', 'doubtspec.invariants.machines') if m in sys.modules]; "
            "print(loaded); sys.exit(1 if loaded else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
