"""Benchmarks of the OpenSpiel game and the search agent, beside the engine's own random games.

Untimed by default (each runs once, as a smoke test); time them side by side with
`pytest tests/test_bench_spiel.py tests/test_bench_engine.py --benchmark-enable -m benchmark`. One call
of the first is GAMES seeded random games played through pyspiel's API (compare with the engine's
`test_bench_random_games`); one call of the second is one `mcts` decision at the default budget
from a fixed mid-game Company turn.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install -e '.[dev,spiel]'")

from tests.test_bench_engine import GAMES, company_turn_fixture

from doubtspec.agents.base import make_agent
from doubtspec.model.engine import legal_actions
from doubtspec.model.game import Game
from doubtspec.model.state import Side
from doubtspec.spiel import load_spiel_game


def spiel_random_games(game: Game) -> int:
    """GAMES seeded uniformly random games through the pyspiel API; the number of steps."""
    spiel_game = load_spiel_game(game)
    steps = 0
    for seed in range(GAMES):
        rng = random.Random(seed)
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
            steps += 1
    return steps


@pytest.mark.benchmark
def test_bench_spiel_random_games(benchmark: Any, game: Game) -> None:
    steps = benchmark(spiel_random_games, game)
    benchmark.extra_info["games_per_call"] = GAMES
    benchmark.extra_info["steps_per_call"] = steps
    assert steps > GAMES * 20


@pytest.mark.benchmark
def test_bench_mcts_decision(benchmark: Any, game: Game) -> None:
    start, _ = company_turn_fixture(game)
    actions = legal_actions(start)
    assert len(actions) > 1

    def decide() -> object:
        return make_agent("mcts", game, Side.COMPANY, random.Random(0)).choose(start, actions)

    assert benchmark(decide) in actions
