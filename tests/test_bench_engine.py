"""Benchmarks of the engine's hot path: Company turns and whole random games per second.

Untimed by default (`--benchmark-disable` is in addopts: each runs once, as a smoke test); time them
with `pytest tests/test_bench_engine.py --benchmark-enable -m benchmark`. One call of the first
benchmark is one Company turn (Play, Buy and Draw Phases with their chance draws, from a fixed
mid-game state and a fixed action list); one call of the second is GAMES seeded random games.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from doubtspec.model.actions import Action
from doubtspec.model.engine import apply, current_actor, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.model.legal import buy_offers
from doubtspec.model.playout import random_playout
from doubtspec.model.state import Actor, GameState, Phase, Side

GAMES = 20
"""Random games per benchmark call."""


def _prudent(state: GameState, actions: tuple[Action, ...], rng: random.Random) -> Action:
    """A Company that keeps Budget for its Buy, so the fixed game reaches mid-game."""
    if current_actor(state) is Actor.COMPANY and len(actions) > 1:
        kept = []
        for action in actions:
            after = apply(state, action)
            if after.outcome is not None and after.outcome.winner is Side.MOVEMENT:
                continue
            offers = buy_offers(after)
            if after.phase is Phase.COMPANY_PLAY and (
                    not offers or sum(after.game.budget[c] for c in after.c_hand) < min(o[3] for o in offers)):
                continue
            kept.append(action)
        actions = tuple(kept) or actions
    return actions[rng.randrange(len(actions))]


def company_turn_fixture(game: Game, round_wanted: int = 6, seed: int = 11) -> tuple[GameState, tuple[Action, ...]]:
    """A Company turn of a fixed seeded game: its starting state and every action until the Movement's turn."""
    rng = random.Random(seed)
    state = new_game(game)
    while not (state.round >= round_wanted and state.phase is Phase.COMPANY_PLAY and not state.pending):
        assert state.outcome is None, "the fixture game ended before the wanted round"
        state = apply(state, _prudent(state, legal_actions(state), rng))
    start = state
    turn: list[Action] = []
    while state.phase is not Phase.MOVEMENT_TURN or state.pending:
        assert state.outcome is None
        action = _prudent(state, legal_actions(state), rng)
        turn.append(action)
        state = apply(state, action)
    return start, tuple(turn)


def replay_turn(start: GameState, turn: tuple[Action, ...]) -> GameState:
    state = start
    for action in turn:
        state = apply(state, action)
    return state


def replay_turn_checked(start: GameState, turn: tuple[Action, ...]) -> GameState:
    """The turn with `legal_actions` listed at each step, as a search or an agent does."""
    state = start
    for action in turn:
        legal_actions(state)
        state = apply(state, action)
    return state


def random_games(game: Game, first_seed: int = 0) -> int:
    steps = 0
    for seed in range(first_seed, first_seed + GAMES):
        playout = random_playout(game, seed)
        assert playout.finished
        steps += len(playout.actions)
    return steps


@pytest.mark.benchmark
def test_bench_company_turn(benchmark: Any, game: Game) -> None:
    start, turn = company_turn_fixture(game)
    end = benchmark(replay_turn, start, turn)
    assert end.phase is Phase.MOVEMENT_TURN and end.round == start.round + 1
    benchmark.extra_info["actions_per_turn"] = len(turn)


@pytest.mark.benchmark
def test_bench_company_turn_with_legal_actions(benchmark: Any, game: Game) -> None:
    start, turn = company_turn_fixture(game)
    end = benchmark(replay_turn_checked, start, turn)
    assert end.phase is Phase.MOVEMENT_TURN


@pytest.mark.benchmark
def test_bench_random_games(benchmark: Any, game: Game) -> None:
    steps = benchmark(random_games, game)
    benchmark.extra_info["games_per_call"] = GAMES
    benchmark.extra_info["steps_per_call"] = steps
