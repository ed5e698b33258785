"""Traces and reports: file forms, errors that name file and line, atomic writing, replay."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from doubtspec.errors import TraceError
from doubtspec.invariants.catalog import BY_ID
from doubtspec.invariants.machines import Violation
from doubtspec.model.engine import apply, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.reports import atomic
from doubtspec.reports.atomic import atomic_write_dir, atomic_write_text
from doubtspec.reports.replay import replay
from doubtspec.reports.report import (
    RunInfo,
    build_report,
    diff_states,
    list_reports,
    load_report,
    render_markdown,
    write_report,
)
from doubtspec.reports.trace import TraceFile, load_trace


def _first_actions(game: Game, count: int) -> list[str]:
    state = new_game(game)
    texts = []
    for _ in range(count):
        if state.outcome is not None:
            break
        action = legal_actions(state)[0]
        texts.append(str(action))
        state = apply(state, action)
    return texts


def test_trace_json_and_text_round_trip(tmp_path: Path, game: Game) -> None:
    trace = TraceFile(tuple(_first_actions(game, 35)), None, game.cards.fingerprint,
                      (("draw-order", "reshuffle-first"),), 7)
    json_path = tmp_path / "trace.json"
    json_path.write_text(json.dumps(trace.to_json(), indent=2))
    text_path = tmp_path / "trace.txt"
    text_path.write_text(trace.to_text())
    for path in (json_path, text_path):
        loaded = load_trace(path)
        assert loaded == trace
        assert len(loaded.parsed()) == 35
        assert loaded.lines[0] is not None


def test_malformed_traces_name_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("# cards: (shipped provisional set)\nchance 33\nc fly away\n")
    with pytest.raises(TraceError) as info:
        load_trace(bad).parsed()
    assert info.value.line == 3 and "step 2" in info.value.message and str(bad) in str(info.value)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "doubtspec-trace",\n "actions": [1, 2')
    with pytest.raises(TraceError) as info:
        load_trace(broken)
    assert info.value.line == 2
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"format": "doubtspec-trace", "actions": "chance 1"}))
    with pytest.raises(TraceError) as info:
        load_trace(wrong)
    assert info.value.field == "actions"


def test_illegal_step_makes_the_trace_invalid(tmp_path: Path, game: Game) -> None:
    texts = _first_actions(game, 5)
    path = tmp_path / "t.txt"
    path.write_text("\n".join([*texts, "m pass"]) + "\n")
    with pytest.raises(TraceError) as info:
        replay(load_trace(path))
    assert info.value.line == 6 and "not legal" in info.value.message


def test_clean_trace_replays_without_violation(tmp_path: Path, game: Game) -> None:
    path = tmp_path / "t.txt"
    texts = _first_actions(game, 60)
    path.write_text("\n".join(texts) + "\n")
    seen: list[int] = []
    result = replay(load_trace(path), on_step=lambda step, action, state: seen.append(step))
    assert result.violation is None and result.applied == len(texts) > 30
    assert seen == list(range(1, len(texts) + 1))


def _violation(game: Game) -> Violation:
    state = new_game(game)
    actions = []
    for _ in range(31):
        action = legal_actions(state)[0]
        actions.append(action)
        before, state = state, apply(state, action)
    return Violation(BY_ID["tokens.influence"], "made up for the test", game, tuple(actions), len(actions),
                     before, state)


def test_report_content_and_markdown(tmp_path: Path, game: Game) -> None:
    violation = _violation(game)
    report = build_report(violation, RunInfo("ci", 0, None), tmp_path)
    assert report["invariant"]["id"] == "tokens.influence"
    assert report["invariant"]["sections"] and report["trace"]["actions"][0].startswith("chance")
    assert report["step"] == 31 and report["before"] is not None
    assert report["changes"] == diff_states(violation.before, violation.after)  # type: ignore[arg-type]
    assert report["replay"].startswith("doubtspec replay ")
    text = render_markdown(report)
    assert "`tokens.influence` violated" in text and "31. `" in text and "fails here" in text


def test_write_report_is_atomic_and_stable(tmp_path: Path, game: Game) -> None:
    violation = _violation(game)
    first = write_report(violation, RunInfo("ci", 0, None), tmp_path)
    again = write_report(violation, RunInfo("ci", 5, None), tmp_path)
    assert first == again  # same finding, same directory (the seed does not name it)
    assert (first / "report.json").is_file() and (first / "report.md").is_file()
    assert load_report(first)["invariant"]["id"] == "tokens.influence"
    assert [p for p, _ in list_reports(tmp_path)] == [first]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_interrupted_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "report.json"
    atomic_write_text(target, "old")

    def fail(src: object, dst: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(KeyboardInterrupt):
        atomic_write_text(target, "new")
    with pytest.raises(KeyboardInterrupt):
        atomic_write_dir(tmp_path / "fresh", {"report.json": "{}", "report.md": "x"})
    monkeypatch.undo()
    assert target.read_text() == "old"
    assert not (tmp_path / "fresh").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_stale_temporaries_are_cleared(tmp_path: Path) -> None:
    stale = tmp_path / ".x-1.tmp-abc"
    stale.mkdir()
    (stale / "report.json").write_text("half")
    os.utime(stale, (0, 0))
    atomic.remove_stale_temporaries(tmp_path)
    assert not stale.exists()
