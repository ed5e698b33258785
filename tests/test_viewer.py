"""The viewer's page data: every step's board is the engine's state at that step, for any card file.

The boards are read back from the written page itself (its embedded JSON, decoded the way the
page's script decodes it), so what the browser draws is what is checked here.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from doubtspec.agents.base import Matchup
from doubtspec.agents.simulate import iter_game
from doubtspec.cli import solve_cmd
from doubtspec.cli.app import main
from doubtspec.invariants.catalog import BY_ID
from doubtspec.invariants.machines import Violation
from doubtspec.model import engine
from doubtspec.model.actions import Action
from doubtspec.model.cards import parse_cards
from doubtspec.model.game import Game
from doubtspec.model.movement import available_goals
from doubtspec.model.state import GameState
from doubtspec.reports.report import RunInfo, build_report, load_report, state_to_dict, write_report
from doubtspec.solver.queries import Answer, Assumptions, QueryKind
from doubtspec.solver.unrolling.witness import Witness
from doubtspec.viewer import page as page_module
from doubtspec.viewer.board import KEY_LABELS, board_of, fields_of
from doubtspec.viewer.document import document_for_game, document_for_report, document_for_violation
from doubtspec.viewer.page import render_page
from doubtspec.viewer.saved import write_report_page
from doubtspec.viewer.timeline import decode_frames, encode_frames

DATA = Path(__file__).parent / "data"
_EMBEDDED = re.compile(r'<script type="application/json" id="doubtspec-data">(.*?)</script>', re.S)


def embedded(page: str) -> dict[str, object]:
    """The document a page holds, as its script reads it."""
    match = _EMBEDDED.search(page)
    assert match is not None, "the page holds no document"
    data = json.loads(match.group(1))
    assert isinstance(data, dict)
    return data


def played(game: Game, seed: int, steps: int) -> tuple[list[Action], list[GameState]]:
    """The first `steps` actions of a greedy game and the states after each (state 0: Set-Up)."""
    actions: list[Action] = []
    states = [engine.new_game(game)]
    for move in iter_game(game, seed, Matchup("greedy", "greedy")):
        if len(actions) == steps:
            break
        actions.append(move.action)
        states.append(move.after)
    return actions, states


def _assert_boards_are_states(page: str, states: list[GameState]) -> list[dict[str, object]]:
    data = embedded(page)
    boards = decode_frames(data["frames"])  # type: ignore[arg-type]
    assert len(boards) == len(states) == len(data["steps"])  # type: ignore[arg-type]
    for step, (board, state) in enumerate(zip(boards, states, strict=True)):
        assert board is not None, step
        assert board == board_of(state), step
        assert fields_of(board) == state_to_dict(state), step
        assert board["m.points"] == state.points() and board["m.hand_limit"] == state.hand_limit()
        assert board["m.available"] == list(available_goals(state.goals))
        assert board["actor"] == engine.current_actor(state).value
    return boards  # type: ignore[return-value]


def test_every_step_of_a_played_game_is_the_engine_state(game: Game) -> None:
    actions, states = played(game, 3, 150)
    assert len(actions) == 150
    page = render_page(document_for_game(game, actions, "a game", [("Seed", "3")]))
    _assert_boards_are_states(page, states)
    data = embedded(page)
    steps = data["steps"]
    assert isinstance(steps, list)
    assert [s[0] for s in steps[1:]] == [str(a) for a in actions]
    # Action texts in words, with the card file's names.
    words = " ".join(s[1] for s in steps)
    assert "Company draws" in words and "Movement" in words and "Market space" in words
    movement_buys = [s[1] for s in steps if s[0].startswith("m buy ")]
    assert all(re.search(r"Movement buys .+ \(#\d+\) from space \d", w) for w in movement_buys)


def test_a_board_holds_every_field_and_nothing_else(game: Game) -> None:
    _, states = played(game, 11, 120)
    for state in states:
        fields = fields_of(board_of(state))
        assert fields == state_to_dict(state)
    # Every key the board uses has a label for people (patterns for indexed keys).
    patterns = [re.compile("^" + re.escape(k).replace(r"\{i\}", r"\d+").replace(r"\{kind\}", r"[a-z]+") + "$")
                for k in KEY_LABELS]
    for key in board_of(states[-1]):
        assert any(p.match(key) for p in patterns), key


def test_a_changed_field_changes_the_board(game: Game) -> None:
    """The board model is not blind to a field: changing any one changes the board (and its way back)."""
    _, states = played(game, 5, 80)
    state = states[-1]
    base = board_of(state)
    for name in state_to_dict(state):
        value = getattr(state, name)
        if isinstance(value, bool):
            other: object = not value
        elif isinstance(value, int):
            other = value + 1
        elif isinstance(value, tuple) and value and isinstance(value[0], int) and not isinstance(value[0], bool):
            other = (value[0] + 1, *value[1:])
        else:
            continue
        changed = dataclasses.replace(state, **{name: other})
        try:
            board = board_of(changed)
        except (IndexError, AssertionError):
            continue  # a card number that the card file does not have: cannot be drawn at all
        assert board != base, name


def test_frames_round_trip_with_gaps_and_lost_keys() -> None:
    boards: list[dict[str, object] | None] = [{"a": 1, "b": [1, 2]}, {"a": 1, "b": [2]}, None,
                                             {"a": 2}, {"a": 2, "c": 0}]
    encoded = encode_frames(boards)
    assert encoded[1] == {"s": {"b": [2]}}
    assert encoded[2] is None
    assert encoded[3] == {"s": {"a": 2}, "d": ["b"]}
    assert decode_frames(encoded) == boards


def test_the_page_is_self_contained(game: Game) -> None:
    actions, _ = played(game, 2, 40)
    page = render_page(document_for_game(game, actions, "a game", []))
    assert page.startswith("<!doctype html>")
    assert "default-src 'none'" in page  # the browser itself refuses any load from the network
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=|@import|url\(", page)
    assert re.findall(r"https?://[^\s\"')]+", page) == ["http://www.w3.org/2000/svg"]  # a namespace, not a load
    assert "/*__" not in page


def test_any_card_file_names_come_from_the_card_data() -> None:
    text = (DATA / "tiny.toml").read_text(encoding="utf-8")
    # A designer's name with markup in it must neither break the page nor end its script.
    renamed = text.replace('name = "Cheap Ad"', 'name = "Cheap </script><b>Ad"', 1)
    game = Game(parse_cards(renamed, DATA / "tiny.toml"))
    actions, states = played(game, 1, 60)
    page = render_page(document_for_game(game, actions, "tiny <game>", []))
    _assert_boards_are_states(page, states)
    data = embedded(page)
    cards = data["cards"]
    assert isinstance(cards, dict)
    assert {c["name"] for c in cards["company"].values()} == {c.name for c in game.cards.company.values()}
    assert "Cheap </script><b>Ad" in {c["name"] for c in cards["company"].values()}
    assert page.count("</script>") == 2  # the data's own script end and the code's
    assert "<title>tiny &lt;game&gt;</title>" in page


def _violation(game: Game, steps: int) -> tuple[Violation, list[GameState]]:
    """A hand-made violation at the last of `steps` greedy actions (the state invariant is named, not run)."""
    actions, states = played(game, 7, steps)
    assert len(actions) == steps
    invariant = BY_ID["cards.company"]
    return Violation(invariant, "Company cards: 13 is in 2 places (a test's claim)", game, tuple(actions), steps,
                     states[-2], states[-1]), states


def test_a_report_directory_holds_the_page_and_the_markdown_links_it(tmp_path: Path, game: Game) -> None:
    violation, states = _violation(game, 60)
    folder = write_report(violation, RunInfo("ci", 0, None), tmp_path)
    page = (folder / "report.html").read_text(encoding="utf-8")
    assert "(report.html)" in (folder / "report.md").read_text(encoding="utf-8")
    _assert_boards_are_states(page, states)
    data = embedded(page)
    assert data["focus"] == 60 and data["kind"] == "failure" and data["notes"] == []
    failure = data["failure"]
    assert isinstance(failure, dict)
    assert failure["id"] == "cards.company" and failure["step"] == 60
    assert failure["statement"] == violation.invariant.statement
    assert failure["sections"] == [s.value for s in violation.invariant.sections]
    assert failure["message"] == violation.message and failure["changes"]


def test_a_viewer_failure_never_costs_the_report_its_files(tmp_path: Path, game: Game,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    violation, _ = _violation(game, 30)

    def broken(*_: object) -> object:
        raise RuntimeError("a bug in the viewer")

    monkeypatch.setattr(page_module, "document_for_violation", broken)
    folder = write_report(violation, RunInfo("ci", 0, None), tmp_path)
    assert load_report(folder)["step"] == 30 and (folder / "report.md").is_file()
    text = (folder / "report.html").read_text(encoding="utf-8")
    assert "The board viewer failed" in text and "a bug in the viewer" in text


def test_an_existing_report_renders_the_same_page(tmp_path: Path, game: Game) -> None:
    violation, _ = _violation(game, 45)
    folder = write_report(violation, RunInfo("ci", 0, None), tmp_path)
    written = embedded((folder / "report.html").read_text(encoding="utf-8"))
    (folder / "report.html").unlink()
    assert write_report_page(folder) == folder / "report.html"
    again = embedded((folder / "report.html").read_text(encoding="utf-8"))
    assert again["frames"] == written["frames"] and again["steps"] == written["steps"]
    assert again["failure"] == written["failure"]


def test_a_report_this_engine_does_not_reproduce_shows_the_recorded_state(tmp_path: Path, game: Game) -> None:
    """A report written by another engine (older, or deliberately broken): the failing step shows what it recorded."""
    violation, states = _violation(game, 40)
    recorded_after = dataclasses.replace(violation.after, profit=violation.after.profit + 5)
    report = build_report(dataclasses.replace(violation, after=recorded_after), RunInfo("ci", 0, None), tmp_path)
    data = document_for_report(report, game, violation.actions)
    boards = decode_frames(data["frames"])
    assert boards[39] == board_of(states[39])
    last = boards[40]
    assert last is not None and last["c.profit"] == states[40].profit + 5
    assert any("recorded in the report" in note for note in data["notes"])


def test_a_trace_the_engine_refuses_stops_the_board_and_says_why(game: Game) -> None:
    actions, states = played(game, 4, 50)
    broken = [*actions[:30], actions[20], *actions[31:]]  # step 31 repeats an earlier chance outcome
    violation = Violation(BY_ID["cards.company"], "claimed", game, tuple(broken), 50, None, states[-1])
    data = document_for_violation(violation, build_report(violation, RunInfo("ci", 0, None), Path("reports")))
    boards = decode_frames(data["frames"])
    assert all(b is not None for b in boards[:31])
    assert boards[31] is None and boards[49] is None
    assert boards[50] == board_of(states[-1])  # the recorded state of the failing step
    assert any("does not replay" in note for note in data["notes"])


def test_a_150_step_report_is_small(tmp_path: Path, game: Game) -> None:
    """Under 2 MB by far (about 100 KB); how long it takes is the benchmark's to say, below."""
    violation, _ = _violation(game, 150)
    report = build_report(violation, RunInfo("ci", 0, None), tmp_path)
    page = render_page(document_for_violation(violation, report))
    assert len(page.encode()) < 2_000_000
    frames = json.dumps(embedded(page)["frames"], separators=(",", ":"))
    assert len(frames) < 150 * 400  # steps are stored as their changes, not as whole boards


@pytest.mark.benchmark(group="viewer")
def test_bench_page_for_150_steps(benchmark: BenchmarkFixture, game: Game, tmp_path: Path) -> None:
    violation, _ = _violation(game, 150)
    report = build_report(violation, RunInfo("ci", 0, None), tmp_path)
    page = benchmark(lambda: render_page(document_for_violation(violation, report)))
    benchmark.extra_info["bytes"] = len(page.encode())


def _run(argv: list[str]) -> int:
    try:
        main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def test_play_html_writes_the_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.html"
    assert _run(["play", "--seed", "5", "--no-states", "--max-rounds", "3", "--html", str(out)]) == 0
    # The console may fold a long temporary path over two lines: compare without white space.
    assert "".join(str(out).split()) in "".join(capsys.readouterr().out.split())
    data = embedded(out.read_text(encoding="utf-8"))
    assert data["kind"] == "game" and len(data["steps"]) > 30  # type: ignore[arg-type]


def test_report_html_renders_an_existing_report(tmp_path: Path, game: Game,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    violation, _ = _violation(game, 35)
    folder = write_report(violation, RunInfo("ci", 0, None), tmp_path)
    (folder / "report.html").unlink()
    assert _run(["report", str(folder), "--html"]) == 0
    assert "report.html" in capsys.readouterr().out
    assert embedded((folder / "report.html").read_text(encoding="utf-8"))["focus"] == 35
    (folder / "report.html").unlink()
    assert _run(["report", str(tmp_path), "--html"]) == 0
    assert (folder / "report.html").is_file()
    assert load_report(folder)["step"] == 35


def test_solver_witness_page(tmp_path: Path, game: Game, capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    """`solve --witness-out PATH.html` writes the witness's page (the solving itself is tested elsewhere)."""
    actions, states = played(game, 9, 70)

    def answer(*_: object, **__: object) -> Answer:
        return Answer(QueryKind.PROFIT, "Can the Company win on Profit by turn 2?", 2, "yes", 2, True,
                      Assumptions("any", "best luck", {}, "turn 2", "none", "test"),
                      witness=Witness(tuple(actions), states[-1]), witness_from="hunt", proved_none_by=1)

    monkeypatch.setattr(solve_cmd, "solve_query", answer)
    out = tmp_path / "witness.html"
    assert _run(["solve", "profit", "--by-turn", "2", "--witness-out", str(out)]) == 0
    capsys.readouterr()
    page = out.read_text(encoding="utf-8")
    data = embedded(page)
    assert data["kind"] == "witness" and data["title"] == "Can the Company win on Profit by turn 2?"
    assert data["focus"] == 70
    _assert_boards_are_states(page, states)
    facts = json.dumps(data["facts"])
    assert "earliest at turn 2 (proved)" in facts and game.cards.name in facts
    json_out = tmp_path / "witness.json"
    assert _run(["solve", "profit", "--by-turn", "2", "--witness-out", str(json_out)]) == 0
    assert json.loads(json_out.read_text())["actions"] == [str(a) for a in actions]
