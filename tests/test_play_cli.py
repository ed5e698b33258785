"""`doubtspec play` and the Rich renderer: one game shown turn by turn, ending with its outcome."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from cli_run import run_cli
from doubtspec.agents.base import Matchup
from doubtspec.agents.simulate import iter_game
from doubtspec.cli.render import render_state
from doubtspec.describe import describe_action, describe_moves
from doubtspec.model.engine import legal_actions, new_game
from doubtspec.model.game import Game


def _last_lines(out: str, n: int = 3) -> str:
    return " ".join(line.strip() for line in out.strip().splitlines()[-n:])


def test_play_renders_the_game_and_ends_with_the_outcome() -> None:
    code, out, _ = run_cli("play", "--seed", "5")
    assert code == 0
    for text in ("Set-Up", "Round 1 · Movement", "Round 1 · Company", "Victims", "Doubt", "Profit", "stars",
                 "Hand", "Deck", "Discard", "Reserve", "Trash", "Company Market", "Tableau", "Movement Market",
                 "Goals", "available", "Influence", "Supply", "Company draws", "Movement"):
        assert text in out, text
    assert "Outcome:" in _last_lines(out)
    assert " wins by " in _last_lines(out)


def test_play_is_the_same_for_the_same_seed() -> None:
    first = run_cli("play", "--seed", "11", "--no-states")
    again = run_cli("play", "--seed", "11", "--no-states")
    assert first == again
    assert first[0] == 0


def test_play_with_random_agents_and_options() -> None:
    code, out, _ = run_cli("play", "--seed", "2", "--agents", "random", "--no-states",
                           "--ruling", "trash-buy=any")
    assert code == 0
    assert "company=random,movement=random" in out
    assert "Outcome:" in _last_lines(out)


def test_play_cut_off_at_the_cap_says_so() -> None:
    code, out, _ = run_cli("play", "--seed", "3", "--max-rounds", "2", "--no-states")
    assert code == 0
    assert "Unfinished: cut off after 2 rounds" in _last_lines(out, 1)


@pytest.mark.parametrize(("args", "option"), [(("--agents", "company=wizard"), "--agents"),
                                              (("--max-rounds", "0"), "--max-rounds"),
                                              (("--ruling", "draw-order"), "--ruling")])
def test_play_bad_options_exit_2(args: tuple[str, ...], option: str) -> None:
    code, _, err = run_cli("play", *args)
    assert code == 2
    assert option in err


def test_renderer_describes_every_legal_action_of_a_game(game: Game) -> None:
    console = Console(file=io.StringIO(), width=120)
    console.print(render_state(new_game(game)))
    moves = []
    for move in iter_game(game, 8, Matchup()):
        for action in legal_actions(move.before):
            text = describe_action(move.before, action)
            assert text and not text.startswith(("c ", "m ", "chance "))
        moves.append((move.before, move.action))
    console.print(render_state(moves[-1][0]))
    lines = describe_moves(moves)
    assert len(lines) < len(moves)  # draws and refills are merged
    assert any(line.startswith("Company draws ") and ", " in line for line in lines)


def test_card_names_with_markup_are_shown_as_written(tmp_path: Path) -> None:
    from doubtspec.model.cards import default_cards_path

    text = default_cards_path().read_text(encoding="utf-8")
    cards = tmp_path / "cards.toml"
    cards.write_text(re.sub(r'^(name\s*=\s*)"([^"]*)"', r'\1"[/]\2"', text, flags=re.MULTILINE), encoding="utf-8")
    # Used to crash with a MarkupError: '[/]' closes a tag that was never opened.
    code, out, err = run_cli("play", "--seed", "5", "--cards", str(cards), "--max-rounds", "3")
    assert code == 0, err
    assert "[/]" in out
