"""The `mcts` and `ismcts` agents: OpenSpiel's Monte-Carlo tree searches over the engine's hidden cards.

For each decision the agent draws `determinizations` states that it cannot tell from the real one
(`doubtspec.spiel.views.determinize`: the other side's hand redrawn from its unseen cards), runs
OpenSpiel's `MCTSBot` from each with an equal share of the `simulations` budget, and plays the
action visited most over all the searches (ties to the first in the engine's order). The search
treats chance as chance (draws and deals sampled with their probabilities) and so never peeks at
the real hand it hides from itself.

Leaves are valued by random roll-outs (OpenSpiel's `Evaluator` interface) played by the engine
directly, which is several times faster than through pyspiel: uniform random play over the moves
that do not lose at once (the `careful` agent's policy), because uniformly random Company play
pays away its hand and loses within two rounds, which would make every position look lost to the
Company. A roll-out longer than `rollout_rounds` rounds counts as a draw.

`ismcts` is OpenSpiel's information-set MCTS (`ISMCTSBot`): one tree over the searching side's
information states (`information_state_string`), a fresh determinization for every simulation (the
same resampling), and the same roll-outs and budget.

A decision with one legal action is taken without search. Everything random comes from the
agent's seeded generator, so a seed gives the same games. Needs the `spiel` extra.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from doubtspec.agents.base import CarefulAgent
from doubtspec.model.actions import Action
from doubtspec.model.engine import apply, current_actor, legal_actions
from doubtspec.model.game import Game
from doubtspec.model.state import Actor, GameState, Side
from doubtspec.spiel import load_spiel_game
from doubtspec.spiel.game import SIDE_OF_PLAYER, DoubtGame, DoubtState
from doubtspec.spiel.views import determinize


@dataclass(frozen=True, slots=True)
class MctsSettings:
    """The search's budget and shape."""

    simulations: int = 48
    """MCTS simulations per decision, shared among the determinizations."""
    determinizations: int = 2
    uct_c: float = 2.0
    """OpenSpiel's exploration constant (returns are in [-1, 1])."""
    rollouts: int = 1
    """Roll-outs per leaf."""
    rollout_rounds: int = 6
    """Rounds a roll-out may play past its leaf before it counts as a draw."""


DEFAULT_SETTINGS = MctsSettings()


class RolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Random roll-outs through the engine: the Company avoids moves that lose at once, the rest is uniform."""

    def __init__(self, game: Game, rng: random.Random, rollouts: int, rollout_rounds: int) -> None:
        self.rng = rng
        self.rollouts = rollouts
        self.rollout_rounds = rollout_rounds
        self.players = {Actor.COMPANY: CarefulAgent(game, Side.COMPANY, rng),
                        Actor.MOVEMENT: CarefulAgent(game, Side.MOVEMENT, rng)}

    def evaluate(self, state: DoubtState) -> Any:
        total = np.zeros(2)
        for _ in range(self.rollouts):
            total += self._rollout(state.engine)
        return total / self.rollouts

    def _rollout(self, state: GameState) -> Any:
        stop = state.round + self.rollout_rounds
        rng = self.rng
        while state.outcome is None and state.round <= stop:
            actions = legal_actions(state)
            if not actions:
                break
            actor = current_actor(state)
            if actor is Actor.CHANCE:
                action = actions[rng.randrange(len(actions))]
            else:
                action = self.players[actor].choose(state, actions)
            state = apply(state, action)
        if state.outcome is None:
            return np.zeros(2)
        return np.array([1.0, -1.0] if state.outcome.winner is Side.COMPANY else [-1.0, 1.0])

    def prior(self, state: DoubtState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


_SPIEL_GAMES: dict[int, tuple[Game, DoubtGame]] = {}


def _spiel_game(game: Game) -> DoubtGame:
    # One pyspiel game per engine game (keyed by identity; the engine game is kept alive with it).
    found = _SPIEL_GAMES.get(id(game))
    if found is None or found[0] is not game:
        found = (game, load_spiel_game(game))
        _SPIEL_GAMES[id(game)] = found
    return found[1]


class MctsAgent:
    """OpenSpiel's MCTSBot over determinized states, with the engine's roll-outs at the leaves."""

    def __init__(self, game: Game, side: Side, rng: random.Random, settings: MctsSettings = DEFAULT_SETTINGS) -> None:
        self.side = side
        self.rng = rng
        self.settings = settings
        self.spiel_game = _spiel_game(game)
        self.evaluator = RolloutEvaluator(game, rng, settings.rollouts, settings.rollout_rounds)
        per_search = max(1, settings.simulations // max(1, settings.determinizations))
        self.bot = mcts.MCTSBot(self.spiel_game, settings.uct_c, per_search, self.evaluator, solve=True,
                                random_state=np.random.RandomState(rng.getrandbits(32)))
        self.searches = 0

    def choose(self, state: GameState, actions: tuple[Action, ...]) -> Action:
        if len(actions) == 1:
            return actions[0]
        visits: Counter[Action] = Counter()
        for _ in range(max(1, self.settings.determinizations)):
            sampled = determinize(state, self.side, self.rng)
            root_state = self.spiel_game.state_at(sampled)
            root = self.bot.mcts_search(root_state)
            self.searches += 1
            for child in root.children:
                visits[root_state.decode(child.action)] += child.explore_count
        most = max(visits.values())
        return next(a for a in actions if visits.get(a, 0) == most)


class IsmctsAgent:
    """OpenSpiel's information-set MCTS, resampling the other side's hand for every simulation."""

    def __init__(self, game: Game, side: Side, rng: random.Random, settings: MctsSettings = DEFAULT_SETTINGS) -> None:
        self.rng = rng
        self.spiel_game = _spiel_game(game)
        self.evaluator = RolloutEvaluator(game, rng, settings.rollouts, settings.rollout_rounds)
        self.bot = ismcts.ISMCTSBot(self.spiel_game, self.evaluator, settings.uct_c, settings.simulations,
                                    random_state=np.random.RandomState(rng.getrandbits(32)))
        self.bot.set_resampler(self._resample)

    def _resample(self, state: DoubtState, player: int) -> DoubtState:
        return state.with_engine(determinize(state.engine, SIDE_OF_PLAYER[player], self.rng))

    def choose(self, state: GameState, actions: tuple[Action, ...]) -> Action:
        if len(actions) == 1:
            return actions[0]
        root = self.spiel_game.state_at(state)
        return root.decode(int(self.bot.step(root)))
