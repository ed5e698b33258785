"""`doubtspec solve ...`: answers, exit codes and the witness file."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from doubtspec.cli.app import main
from doubtspec.cli.exitcodes import ExitCode
from doubtspec.model.cards import load_cards
from doubtspec.model.game import Game
from doubtspec.solver.degenerate import DEFAULT_THRESHOLDS, SIMULATION_SHARE, run_catalogue
from doubtspec.solver.queries import Opponent

TINY = str(Path(__file__).parent / "data" / "tiny3.toml")
SMALL = ["--cards", TINY, "--plays", "3", "--buys", "2"]


def run(argv: list[str]) -> int:
    try:
        main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def test_yes_with_witness(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "witness.json"
    assert run(["solve", "profit", "--by-turn", "2", *SMALL, "--json", "--witness-out", str(out)]) == ExitCode.OK
    answer = json.loads(capsys.readouterr().out)
    assert answer["answer"] == "yes" and answer["earliest_turn"] == 2
    assert answer["assumptions"]["chance"].startswith("best luck")
    trace = json.loads(out.read_text())
    assert trace["actions"] and trace["outcome"]["reason"] == "profit-victory"


def test_no_renders_assumptions(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["solve", "stars", "--by-turn", "1", *SMALL]) == ExitCode.OK
    text = capsys.readouterr().out
    assert "NO" in text and "assumed:" in text and "best luck" in text


def test_unknown_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["solve", "stars", "--by-turn", "2", *SMALL, "--timeout", "0.001", "--json"]) == ExitCode.UNKNOWN
    assert json.loads(capsys.readouterr().out)["answer"] == "unknown"


@pytest.mark.parametrize("argv", [
    ["solve", "stars", "--by-turn", "0"],
    ["solve", "goal", "3", "--by-turn", "2", "--opponent", "passive"],
    ["solve", "goal", "42", "--by-turn", "2"],
    ["solve", "goals", "--by-turn", "2", "--opponent", "passive"],
    ["solve", "movement-win", "--by-turn", "2", "--opponent", "passive"],
    ["solve", "stars", "--by-turn", "1", "--timeout", "0"],
    ["solve", "stars", "--by-turn", "1", "--witness-out", "/no/such/folder/w.json"],
    ["solve", "stars", "--by-turn", "1", "--ruling", "no-such-ruling=x"],
    ["solve", "stars", "--by-turn", "1", "--cards", "/no/such/file.toml"],
])
def test_bad_usage_exits_2(argv: list[str]) -> None:
    assert run(argv) == ExitCode.BAD_INPUT


def test_degenerate_runs_the_catalogue(capsys: pytest.CaptureFixture[str]) -> None:
    code = run(["solve", "degenerate", "--by-turn", "2", *SMALL, "--stars-before", "3", "--profit-before", "2",
                "--defeat-before", "1", "--movement-win-before", "1", "--games", "5", "--json"])
    assert code == ExitCode.OK
    data = json.loads(capsys.readouterr().out)
    rows = {row["query"]: row for row in data["degenerate"]}
    assert rows["stars"]["degenerate"] is True and rows["stars"]["earliest_possible"] == 2
    assert rows["stars"]["earliest_exact"] is True
    assert rows["profit"]["solver"] == "no"
    assert rows["stars"]["simulation"]["random"]["games"] == 5
    assert rows["stars"]["simulation"]["greedy"]["games"] == 5
    # a threshold of turn 1 leaves no earlier turn to ask about
    assert rows["defeat"]["solver"] is None and rows["movement-win"]["solver"] is None


def test_degenerate_keeps_to_one_budget_for_the_whole_catalogue() -> None:
    """`--timeout` is the catalogue's, not each question's: the simulations take at most a quarter of it (cut short
    between games, and counted as played), and the four questions share the rest."""
    game = Game(load_cards())
    started = time.monotonic()
    findings = run_catalogue(game, 6, DEFAULT_THRESHOLDS, Opponent.ANY, 6.0, games=100_000)
    spent = time.monotonic() - started
    assert spent <= 6.0 * 1.1, f"{spent:.2f} s for a budget of 6 s"
    assert len(findings) == 4 and all(f.answer is not None for f in findings)
    assert sum(f.answer.seconds for f in findings if f.answer is not None) <= 6.0 * (1 - SIMULATION_SHARE) * 1.1
    played = {name: seen.games for name, seen in findings[0].seen.items()}
    assert set(played) == {"random", "greedy"} and all(0 < n < 100_000 for n in played.values())
    assert all({name: seen.games for name, seen in f.seen.items()} == played for f in findings)


def test_degenerate_says_when_the_budget_cut_its_simulations_short(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["solve", "degenerate", "--by-turn", "1", *SMALL, "--games", "100000", "--timeout", "2"]) in (
        ExitCode.OK, ExitCode.UNKNOWN)
    assert "cut short by --timeout: random" in " ".join(capsys.readouterr().out.split())


def test_goals_table_flags_the_unreachable(capsys: pytest.CaptureFixture[str]) -> None:
    movement = str(Path(__file__).parent / "data" / "tiny_movement.toml")
    argv = ["solve", "goals", "--by-turn", "1", "--cards", movement, "--plays", "1", "--buys", "1"]
    assert run([*argv, "--json"]) == ExitCode.OK
    data = json.loads(capsys.readouterr().out)
    assert data["unreachable"] == [7, 8, 9]
    assert [a["answer"] for a in data["answers"]] == ["yes"] * 6 + ["no"] * 3
    assert run(argv) == ExitCode.OK
    text = " ".join(capsys.readouterr().out.split())
    # proved by the Movement's abstraction, which has no caps
    assert "Unreachable within 1 turns: G7, G8, G9" in text
