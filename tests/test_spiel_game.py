"""The engine as an OpenSpiel game, checked by OpenSpiel's own random-simulation test and through its API.

Skipped when the optional extra is not installed (`pip install -e '.[dev,spiel]'`; CI installs it).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install -e '.[dev,spiel]'")

from doubtspec.agents.base import Matchup  # noqa: E402
from doubtspec.agents.simulate import iter_game  # noqa: E402
from doubtspec.model.engine import chance_outcomes, legal_actions  # noqa: E402
from doubtspec.model.game import Game  # noqa: E402
from doubtspec.model.rulings import Rulings  # noqa: E402
from doubtspec.model.state import Side  # noqa: E402
from doubtspec.spiel import load_spiel_game  # noqa: E402
from doubtspec.spiel.game import GAME_NAME, DoubtState, parse_rulings_parameter, rulings_parameter  # noqa: E402
from doubtspec.spiel.views import determinize  # noqa: E402

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("game_string", [
    GAME_NAME,
    f"{GAME_NAME}(rulings=budget-payment:any-cover;trash-buy:any)",
    f"{GAME_NAME}(cards={DATA / 'tiny3.toml'})",
])
def test_openspiel_random_simulation_with_cloning_and_serialization(game_string: str) -> None:
    """OpenSpiel's conformance check: random games, each state cloned, serialized and restored, every
    legal action and chance outcome checked against the declared bounds, strings asked of each player."""
    game = pyspiel.load_game(game_string)
    pyspiel.random_sim_test(game, num_sims=40, serialize=True, verbose=False)


def test_the_rulings_parameter_round_trips() -> None:
    rulings = Rulings.parse(["budget-payment=any-cover", "trash-buy=any"])
    assert parse_rulings_parameter(rulings_parameter(rulings)) == rulings
    game = pyspiel.load_game(GAME_NAME, {"rulings": rulings_parameter(rulings)})
    assert game.engine_game.rulings == rulings


def _long_game_states(game: Game, seed: int) -> list[DoubtState]:
    """The pyspiel states along a whole greedy game (random games end in two rounds)."""
    spiel_game = load_spiel_game(game)
    state = spiel_game.new_initial_state()
    states = [state.clone()]
    for move in iter_game(game, seed, Matchup()):
        if state.is_chance_node():
            action_id = move.action.outcome  # type: ignore[union-attr]
        else:
            action_id = next(a for a in state.legal_actions() if state.decode(a) == move.action)
        state.apply_action(action_id)
        states.append(state.clone())
    return states


def test_a_whole_game_through_the_api_agrees_with_the_engine(game: Game) -> None:
    states = _long_game_states(game, 4)
    final = states[-1]
    assert final.is_terminal() and final.engine.outcome is not None
    company_won = final.engine.outcome.winner is Side.COMPANY
    assert final.returns() == ([1.0, -1.0] if company_won else [-1.0, 1.0])
    assert len(states) > 200
    for state in states[::17]:
        engine = state.engine
        if state.is_terminal():
            continue
        if state.is_chance_node():
            expected = sorted((c.outcome, float(p)) for c, p in chance_outcomes(engine))
            assert state.chance_outcomes() == expected
            assert abs(sum(p for _, p in expected) - 1.0) < 1e-9
        else:
            assert [state.decode(a) for a in state.legal_actions()] == sorted(
                legal_actions(engine), key=lambda a: state.position.space.encode(engine, a))
        restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(state.get_game(), state))[1]
        assert restored.engine == engine and restored.history() == state.history()


def test_information_states_hide_the_other_hand_and_the_company_draws(game: Game) -> None:
    states = _long_game_states(game, 9)
    rng = random.Random(1)
    hidden = 0
    for state in states[40::23]:
        if state.is_terminal():
            continue
        for player, side in enumerate((Side.COMPANY, Side.MOVEMENT)):
            sampled = determinize(state.engine, side, rng)
            if sampled == state.engine:
                continue
            other = DoubtState(state.get_game(), state.position)
            other.position = type(state.position)(state.position.key, state.position.space, sampled,
                                                  state.position.trace, state.position.seen)
            assert other.observation_string(player) == state.observation_string(player)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.observation_string(1 - player) != state.observation_string(1 - player)
            hidden += 1
    assert hidden > 5
    final = states[-1]
    assert "chance (a Company draw)" in final.information_state_string(1)
    assert "chance (a Company draw)" not in final.information_state_string(0)
