"""The `mcts` agent: named wherever agents are (simulate, play, solve degenerate, the hunt), seeded, optional."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cli_run import run_cli
from doubtspec.agents.base import AGENTS, Matchup, make_agent
from doubtspec.agents.simulate import iter_game
from doubtspec.cli.exitcodes import ExitCode
from doubtspec.errors import OptionError
from doubtspec.model.cards import load_cards
from doubtspec.model.engine import legal_actions
from doubtspec.model.game import Game
from doubtspec.model.state import Actor, GameState, OutcomeReason, Side
from doubtspec.spiel import spiel_available

DATA = Path(__file__).parent / "data"
needs_spiel = pytest.mark.skipif(not spiel_available(),
                                 reason="OpenSpiel is not installed: pip install -e '.[dev,spiel]'")



def _without_spiel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("doubtspec.spiel.spiel_available", lambda: False)


def test_the_search_agents_are_registered() -> None:
    assert "mcts" in AGENTS and "ismcts" in AGENTS


def test_naming_mcts_without_the_extra_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, game: Game) -> None:
    _without_spiel(monkeypatch)
    with pytest.raises(OptionError, match=r"--agents.*OpenSpiel.*pip install -e '\.\[spiel\]'"):
        Matchup.parse("company=mcts")
    with pytest.raises(OptionError, match="OpenSpiel"):
        make_agent("mcts", game, Side.COMPANY, random.Random(0))
    with pytest.raises(OptionError, match="ismcts agent needs OpenSpiel"):
        Matchup.parse("ismcts")
    assert Matchup.parse("company=careful") == Matchup("careful", "greedy")


@pytest.mark.parametrize("argv", [
    ["simulate", "--agents", "company=mcts,movement=greedy", "--games", "1"],
    ["play", "--agents", "mcts"],
    ["solve", "degenerate", "--by-turn", "1", "--agents", "movement=mcts"],
])
def test_the_cli_exits_2_without_the_extra(monkeypatch: pytest.MonkeyPatch,
                                          argv: list[str]) -> None:
    _without_spiel(monkeypatch)
    code, out, err = run_cli(*argv)
    assert code == ExitCode.BAD_INPUT, (out, err)
    assert "--agents" in err and "OpenSpiel" in err and "'.[spiel]'" in err


def _moves(game: Game, seed: int, matchup: Matchup, rounds: int) -> list[tuple[GameState, str]]:
    return [(m.before, str(m.action)) for m in iter_game(game, seed, matchup, max_rounds=rounds)]


@needs_spiel
def test_mcts_plays_legal_moves_and_a_seed_gives_the_same_game(game: Game) -> None:
    matchup = Matchup("mcts", "mcts")
    first = _moves(game, 3, matchup, 1)
    assert first == _moves(game, 3, matchup, 1)
    assert any(before.phase.value == "company-buy" for before, _ in first)
    for before, action in first:
        assert action in {str(a) for a in legal_actions(before)}


@needs_spiel
def test_ismcts_plays_legal_moves_and_a_seed_gives_the_same_game(game: Game) -> None:
    """OpenSpiel's ISMCTSBot asserts that every resampled root has the searching side's information state."""
    matchup = Matchup("ismcts", "greedy")
    first = _moves(game, 5, matchup, 1)
    assert first == _moves(game, 5, matchup, 1)
    for before, action in first:
        assert action in {str(a) for a in legal_actions(before)}


@needs_spiel
def test_mcts_never_searches_the_real_hidden_hand(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each search starts from a determinized state; the real state is searched only when they coincide."""
    from doubtspec.agents import mcts

    roots: list[tuple[GameState, GameState]] = []
    real = mcts.determinize

    def spy(state: GameState, viewer: Side, rng: random.Random) -> GameState:
        sampled = real(state, viewer, rng)
        roots.append((state, sampled))
        return sampled

    monkeypatch.setattr(mcts, "determinize", spy)
    agent = make_agent("mcts", game, Side.MOVEMENT, random.Random(1))
    for move in iter_game(game, 7, Matchup("greedy", "greedy"), max_rounds=4):
        if move.actor is Actor.MOVEMENT and len(legal_actions(move.before)) > 1:
            agent.choose(move.before, legal_actions(move.before))
    assert roots
    assert any(sampled.c_hand != state.c_hand for state, sampled in roots)


@needs_spiel
def test_simulate_and_play_accept_mcts() -> None:
    code, out, err = run_cli("simulate", "--agents", "company=mcts,movement=greedy", "--games", "1",
                             "--max-rounds", "2", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["agents"] == {"company": "mcts", "movement": "greedy"} and not data["errors"]
    code, out, err = run_cli("play", "--agents", "movement=mcts", "--max-rounds", "1", "--no-states")
    assert code == 0, err
    assert "Round 1 · Movement" in out


@needs_spiel
def test_degenerate_simulates_a_further_mcts_matchup() -> None:
    tiny = str(DATA / "tiny3.toml")
    code, out, err = run_cli("solve", "degenerate", "--by-turn", "1", "--cards", tiny, "--plays", "2",
                             "--buys", "1", "--games", "1", "--agents", "company=mcts", "--json")
    assert code == ExitCode.OK, err
    data = json.loads(out)
    assert data["simulation"]["matchups"][-1] == "mcts vs greedy"
    assert all(row["simulation"]["company=mcts,movement=greedy"]["games"] == 1 for row in data["degenerate"])


@needs_spiel
def test_the_hunt_rolls_out_with_mcts() -> None:
    from doubtspec.solver.hunt import HuntSettings, hunt
    from doubtspec.solver.progress import stars
    from doubtspec.solver.unrolling.witness import replay_actions

    tiny = Game(load_cards(DATA / "tiny3.toml"))

    def star(state: GameState) -> bool:
        return state.outcome is not None and state.outcome.reason is OutcomeReason.STAR_VICTORY

    found = hunt(tiny, star, stars, 3, passive=True, settings=HuntSettings(width=2, rollouts=2, setups=2, max_width=4),
                 company="mcts")
    assert found.found is not None and found.actions is not None
    assert star(replay_actions(tiny, found.actions))
