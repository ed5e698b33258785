"""The `mcts` and `ismcts` agents: OpenSpiel's Monte-Carlo tree searches over the engine's hidden cards.

For each decision the agent draws `determinizations` states that it cannot tell from the real one
(`doubtspec.spiel.views.determinize`: the other side's hand redrawn from its unseen cards), runs
OpenSpiel's `MCTSBot` from each with an equal share of the `simulations` budget, and plays the
action visited most over all the searches (ties to the first in the engine's order). The search
treats chance as chance (draws and deals sampled with their probabilities) and so never peeks at
the real hand it hides from itself.

The search is guided by the `greedy` agents and tries to improve on them. Each tree node's prior
(OpenSpiel's PUCT selection) puts `greedy_prior` on the move the greedy agent of the side to move
would pick and spreads the rest evenly, so a small budget starts from the greedy move and leaves it
only for a move whose roll-outs do better. Leaves are valued by roll-outs (OpenSpiel's `Evaluator`
interface) played by the engine directly, several times faster than through pyspiel: the greedy
agents play on to the end of the next round (`rollout_rounds`), and a game that has not ended is
scored by progress, the Company's towards its nearer victory (stars, with the Victims on its
display counting towards the next one, or Profit) minus the Movement's (Goal points, with the
Agitation held or placed counting towards the next Goal), a number in [-1, 1].

Why not uniformly random roll-outs: a random Movement never reaches a Goal within any affordable
horizon, so a searching Movement saw no way to win. Measured on the shipped set, an `mcts` Movement
with random roll-outs (the `careful` policy, never losing at once; 48 simulations, 6-round horizon)
lost all 80 games to the greedy Company, where the greedy Movement wins 44% of them.

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

from doubtspec.agents.base import make_agent
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
    rollout_rounds: int = 1
    """Rounds a roll-out plays past the leaf's round before the position is scored by progress."""
    rollout_policy: str = "greedy"
    """The agents that play the roll-outs and give the prior: `greedy`, or `careful` (uniformly random over the
    moves that do not lose at once)."""
    greedy_prior: float = 0.5
    """Prior weight (PUCT) on the roll-out agent's own pick at each tree node; the rest is uniform."""


DEFAULT_SETTINGS = MctsSettings()

_ZONE_WORTH = (2.0, 1.5, 1.0, 1.0)
"""Profit a Victim on the display is worth by Zone (Children .. Elderly): a younger Victim scores at more
Reshuffles as it ages (Scoring Demographics)."""


class RolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Roll-outs through the engine with the roll-out agents, scored by the outcome or, when cut off, by progress."""

    def __init__(self, game: Game, rng: random.Random, settings: MctsSettings) -> None:
        self.rng = rng
        self.rollouts = settings.rollouts
        self.rollout_rounds = settings.rollout_rounds
        self.greedy_prior = settings.greedy_prior
        self.players = {Actor.COMPANY: make_agent(settings.rollout_policy, game, Side.COMPANY, rng),
                        Actor.MOVEMENT: make_agent(settings.rollout_policy, game, Side.MOVEMENT, rng)}
        rules = game.cards.rules
        self.stars_to_win = rules.stars_to_win
        self.profit_to_win = rules.profit_to_win
        self.points_to_win = rules.goal_points_to_win
        self.star_threshold = rules.star_threshold
        self.goal_cost = sum(g.cost for g in game.cards.goals.values()) / len(game.cards.goals)

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
            value = self.progress(state)
            return np.array([value, -value])
        return np.array([1.0, -1.0] if state.outcome.winner is Side.COMPANY else [-1.0, 1.0])

    def progress(self, state: GameState) -> float:
        """The Company's progress towards its nearer victory minus the Movement's towards its own, in [-1, 1].

        Progress counts what is won (stars, Profit, Goal points) and, at a lower rate, what is on the
        way: the Victims the display would score at the next Reshuffle (towards the next star), and the
        Agitation held or placed on Goals (towards the next Goal).
        """
        victims = sum(w * v for w, v in zip(_ZONE_WORTH, state.victims, strict=False))
        stars = state.stars + min(1.0, victims / self.star_threshold) / 2
        company = max(stars / self.stars_to_win, state.profit / self.profit_to_win)
        agitation = state.agitation + sum(state.goal_agitation)
        movement = (state.points() + min(2.0, agitation / self.goal_cost)) / self.points_to_win
        return max(-1.0, min(1.0, company - movement))

    def prior(self, state: DoubtState) -> list[tuple[int, float]]:
        """Chance by its probabilities; a side's actions evenly, plus `greedy_prior` on the roll-out agent's pick."""
        if state.is_chance_node():
            return list(state.chance_outcomes())
        actions = state.legal_actions()
        share = (1.0 - self.greedy_prior) / len(actions)
        if self.greedy_prior <= 0.0:
            return [(a, share) for a in actions]
        engine = state.engine
        engine_actions = legal_actions(engine)
        pick = self.players[current_actor(engine)].choose(engine, engine_actions)
        encode = state.position.space.encode
        picked = encode(engine, pick)
        return [(a, share + (self.greedy_prior if a == picked else 0.0)) for a in actions]


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
        self.evaluator = RolloutEvaluator(game, rng, settings)
        per_search = max(1, settings.simulations // max(1, settings.determinizations))
        self.bot = mcts.MCTSBot(self.spiel_game, settings.uct_c, per_search, self.evaluator, solve=True,
                                random_state=np.random.RandomState(rng.getrandbits(32)),
                                child_selection_fn=mcts.SearchNode.puct_value)
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
        self.evaluator = RolloutEvaluator(game, rng, settings)
        self.bot = ismcts.ISMCTSBot(self.spiel_game, self.evaluator, settings.uct_c, settings.simulations,
                                    random_state=np.random.RandomState(rng.getrandbits(32)),
                                    child_selection_policy=ismcts.ChildSelectionPolicy.PUCT)
        self.bot.set_resampler(self._resample)

    def _resample(self, state: DoubtState, player: int) -> DoubtState:
        return state.with_engine(determinize(state.engine, SIDE_OF_PLAYER[player], self.rng))

    def choose(self, state: GameState, actions: tuple[Action, ...]) -> Action:
        if len(actions) == 1:
            return actions[0]
        root = self.spiel_game.state_at(state)
        return root.decode(int(self.bot.step(root)))
