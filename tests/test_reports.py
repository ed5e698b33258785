"""Traces and reports: file forms, errors that name file and line, atomic writing, replay."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from cli_run import run_cli
from doubtspec.errors import TraceError
from doubtspec.invariants.catalog import BY_ID
from doubtspec.invariants.machines import Violation
from doubtspec.model.cards import default_cards_path
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


# --- hardening: what used to be accepted silently or crash ------------------------------------------




@pytest.mark.parametrize("content", ["", "# cards: (shipped provisional set)\n# seed: 3\n",
                                     '{"format": "doubtspec-trace", "actions": []}'])
def test_an_empty_trace_is_refused(tmp_path: Path, content: str) -> None:
    trace = tmp_path / "empty.trace"
    trace.write_text(content)
    code, _, err = run_cli("replay", str(trace))  # used to print "replayed 0 steps: no violation", exit 0
    assert code == 2 and str(trace) in err and "no actions" in err


@pytest.mark.parametrize("header", ["# seed: --5", "# seed: ²", "# seed: " + "9" * 5000, "# cards:"])
def test_malformed_text_headers_exit_2(tmp_path: Path, header: str) -> None:
    trace = tmp_path / "t.trace"
    trace.write_text(f"{header}\nchance 33\n", encoding="utf-8")
    code, _, err = run_cli("replay", str(trace))  # `--5` and `²` used to raise ValueError (exit 70)
    assert code == 2 and str(trace) in err and "Traceback" not in err


def test_a_report_naming_an_unknown_invariant_is_refused(tmp_path: Path, game: Game) -> None:
    folder = write_report(_violation(game), RunInfo("ci", 0, None), tmp_path)
    data = json.loads((folder / "report.json").read_text())
    data["invariant"]["id"] = "no.such-invariant"
    (folder / "report.json").write_text(json.dumps(data))
    code, _, err = run_cli("replay", str(folder), "-q")  # used to check the whole catalog without a word
    assert code == 2 and "invariant.id" in err and "no.such-invariant" in err
    code, out, _ = run_cli("replay", str(folder), "-q", "--all")
    assert code == 0 and "no violation" in out


def test_unreadable_reports_are_listed_with_the_reason(tmp_path: Path, game: Game) -> None:
    good = write_report(_violation(game), RunInfo("ci", 0, None), tmp_path)
    (tmp_path / "lacks-keys").mkdir()
    (tmp_path / "lacks-keys" / "report.json").write_text('{"format": "doubtspec-report"}')
    (tmp_path / "no-json").mkdir()
    (tmp_path / "garbage").mkdir()
    (tmp_path / "garbage" / "report.json").write_bytes(b"\xff\xfe{")
    # A report lacking keys used to break the listing of the whole folder (KeyError, exit 70); the
    # others were dropped without a word.
    code, out, err = run_cli("report", str(tmp_path))
    assert code == 2 and "Reports in" in out
    for name, why in (("lacks-keys", "name: missing"), ("no-json", "cannot read report"),
                      ("garbage", "not UTF-8")):
        assert any(name in line and why in line for line in err.splitlines()), (name, err)
    code, out, _ = run_cli("report", str(tmp_path), "--json")
    listed = {entry["name"]: entry for entry in json.loads(out)}
    assert code == 2 and "error" in listed["lacks-keys"] and listed[good.name]["invariant"] == "tokens.influence"


def test_replay_on_another_card_file_names_the_fingerprints(tmp_path: Path, game: Game) -> None:
    folder = write_report(_violation(game), RunInfo("ci", 0, None), tmp_path)
    text = default_cards_path().read_text(encoding="utf-8")
    other = tmp_path / "other.toml"
    other.write_text(text.replace("stacks_dealt = 7", "stacks_dealt = 6"), encoding="utf-8")
    code, _, err = run_cli("replay", str(folder), "--cards", str(other), "-q")
    # It used to say only that a chance step was not legal.
    assert code == 2 and "fingerprint" in err and "another card file" in err


def test_files_are_created_with_the_umask(tmp_path: Path, game: Game) -> None:
    old = os.umask(0o022)
    try:
        folder = write_report(_violation(game), RunInfo("ci", 0, None), tmp_path / "reports")
        atomic_write_text(tmp_path / "fuzz.xml", "<x/>")
    finally:
        os.umask(old)
    # They used to be 0600 in 0700 folders whatever the umask, which broke CI artifact uploads.
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755
    assert stat.S_IMODE((folder / "report.json").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "fuzz.xml").stat().st_mode) == 0o644


def test_a_report_written_by_another_run_meanwhile_is_replaced(tmp_path: Path, game: Game,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "tokens.influence-abc"
    atomic_write_dir(target, {"report.json": "first run", "report.md": "first run"})
    real_exists = Path.exists

    def not_yet(path: Path, *args: object, **kwargs: object) -> bool:
        # The other run's rename lands between this run's check and its own rename.
        return False if path == target else real_exists(path)

    monkeypatch.setattr(Path, "exists", not_yet)
    atomic_write_dir(target, {"report.json": "second run", "report.md": "second run"})  # used to raise ENOTEMPTY
    monkeypatch.undo()
    assert (target / "report.json").read_text() == "second run"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
