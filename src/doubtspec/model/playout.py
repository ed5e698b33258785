"""Seeded random playouts: the edge where seeds live (tests, benchmarks, simulation).

Chance outcomes are drawn with their probabilities (uniform: decks are unordered) and decisions
uniformly from `legal_actions`; the same seed gives the same game on every machine, because
`random.Random` is seeded explicitly and `legal_actions` has a deterministic order.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from doubtspec.model.actions import Action
from doubtspec.model.engine import apply, current_actor, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.model.state import Actor, GameState

Policy = Callable[[GameState, tuple[Action, ...], random.Random], Action]


def uniform_policy(state: GameState, actions: tuple[Action, ...], rng: random.Random) -> Action:
    return actions[rng.randrange(len(actions))]


@dataclass(frozen=True, slots=True)
class Playout:
    """A finished (or cut-off) game: its actions from Set-Up and the last state."""

    seed: int
    actions: tuple[Action, ...]
    final: GameState

    @property
    def finished(self) -> bool:
        return self.final.outcome is not None


def random_playout(game: Game, seed: int, max_steps: int = 20_000,
                   company: Policy = uniform_policy, movement: Policy = uniform_policy) -> Playout:
    """Play one game from Set-Up with seeded chance and the given policies."""
    rng = random.Random(seed)
    state = new_game(game)
    trace: list[Action] = []
    for _ in range(max_steps):
        actor = current_actor(state)
        if actor is Actor.TERMINAL:
            break
        actions = legal_actions(state)
        if actor is Actor.CHANCE:
            action = actions[rng.randrange(len(actions))]
        elif actor is Actor.COMPANY:
            action = company(state, actions, rng)
        else:
            action = movement(state, actions, rng)
        trace.append(action)
        state = apply(state, action)
    return Playout(seed, tuple(trace), state)
