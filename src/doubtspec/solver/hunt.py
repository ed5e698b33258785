"""Witness hunting: a best-luck beam search over the engine's own moves, to find "yes" answers fast.

The bounded unrolling proves "no" and finds the earliest witnesses at small bounds, but its
formula grows with every turn; a witness deep in the game (a third star at turn 7) is out of its
reach within a minute. The hunt is the other half of the portfolio: it plays the engine forward,
treating chance as a choice like the unrolling does (the best luck), and keeps the most promising
states of each round.

Round by round, every state in the beam is expanded by several seeded roll-outs of one round: the
sides play their greedy agents with some random moves mixed in, chance is drawn uniformly, and
the luck comes from selection: of all the successors, the `width` best by the query's `Progress`
score survive (duplicates dropped by state hash). A successor that meets the target ends the hunt
with its actions from Set-Up, which the caller replays through the engine's checked `play`.

The hunt is one-sided: it can show that something happens (a witness) and never that it cannot;
a hunt that finds nothing leaves the answer to the unrolling.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from doubtspec.agents.base import Agent, make_agent
from doubtspec.model.actions import Action, Pass
from doubtspec.model.engine import apply, current_actor, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.model.state import Actor, GameState, Phase, Side

Target = Callable[[GameState], bool]
"""Whether a state meets the query's target."""

Progress = Callable[[GameState], float]
"""How promising a state is for the target (higher is better); only ranks states of one round."""


@dataclass(frozen=True, slots=True)
class HuntSettings:
    """The beam's shape: states kept per round (doubling up to `max_width` while nothing is found),
    roll-outs per kept state, how often a move is random, Set-Ups to start from, and the seed."""

    width: int = 24
    rollouts: int = 6
    explore: float = 0.15
    setups: int = 48
    max_width: int = 512
    improve: int = 6
    """Passes that may fail in a row while looking for an earlier witness after a find (only when the hunt
    has a deadline)."""
    seed: int = 0


@dataclass(frozen=True, slots=True)
class HuntResult:
    """The first round at which a hunted state met the target (with its actions), and what it cost."""

    found: int | None
    actions: tuple[Action, ...] | None
    states: int
    seconds: float
    rounds_searched: int


@dataclass(slots=True)
class _Node:
    state: GameState
    actions: tuple[Action, ...]


# A round's roll-out gives up after this many engine steps (no real round comes close).
_STEPS_PER_ROUND = 2_000


class _Players:
    """The roll-out policy: greedy agents with random moves mixed in; the passive Movement always passes."""

    def __init__(self, game: Game, rng: random.Random, passive: bool, explore: float, company: str) -> None:
        self.rng = rng
        self.passive = passive
        self.explore = explore
        self.agents: dict[Actor, Agent] = {
            Actor.COMPANY: make_agent(company, game, Side.COMPANY, rng),
            Actor.MOVEMENT: make_agent("greedy", game, Side.MOVEMENT, rng),
        }

    def choose(self, state: GameState, actor: Actor, actions: tuple[Action, ...]) -> Action:
        if actor is Actor.CHANCE:
            return actions[self.rng.randrange(len(actions))]
        if actor is Actor.MOVEMENT and self.passive and state.phase is Phase.MOVEMENT_TURN:
            passes = [a for a in actions if isinstance(a, Pass)]
            if passes:
                return passes[0]
        if self.rng.random() < self.explore:
            return actions[self.rng.randrange(len(actions))]
        return self.agents[actor].choose(state, actions)


Chooser = Callable[[GameState, Actor, tuple[Action, ...]], Action]
"""A roll-out policy: the action an actor takes among the legal ones."""


def play_until(state: GameState, trace: list[Action], choose: Chooser, stop_round: int, steps: int,
               target: Target | None = None) -> GameState:
    """Play on from `state` (appending each action to `trace`) until the round changes to `stop_round`, `target`
    holds, the game ends, or `steps` engine steps have been played."""
    for _ in range(steps):
        actor = current_actor(state)
        if actor is Actor.TERMINAL or (target is not None and target(state)):
            break
        if state.round >= stop_round and not state.pending and state.phase is Phase.MOVEMENT_TURN:
            break
        actions = legal_actions(state)
        if not actions:
            break
        action = choose(state, actor, actions)
        trace.append(action)
        state = apply(state, action)
    return state


def _roll(node: _Node, players: _Players, target: Target, stop_round: int) -> _Node:
    """Play on from `node` until the round changes to `stop_round`, the target holds, or the game ends."""
    trace = list(node.actions)
    state = play_until(node.state, trace, players.choose, stop_round, _STEPS_PER_ROUND, target)
    return _Node(state, tuple(trace))


def _beam(game: Game, target: Target, progress: Progress, max_rounds: int, players: _Players, width: int,
          cfg: HuntSettings, deadline: float | None) -> tuple[_Node | None, int, int]:
    """One beam pass: (the first node meeting the target or None, states expanded, rounds searched)."""
    seen = 0
    root = _Node(new_game(game), ())
    beam = [_roll(root, players, target, 1) for _ in range(max(cfg.setups, width))]
    rounds = 0
    for rnd in range(1, max_rounds + 1):
        rounds = rnd
        successors: dict[GameState, _Node] = {}
        for node in beam:
            for _ in range(1 if node.state.outcome is not None else cfg.rollouts):
                child = _roll(node, players, target, rnd + 1)
                seen += 1
                if target(child.state) and child.state.round <= max_rounds:
                    return child, seen, rnd
                if child.state.outcome is None and child.state not in successors:
                    successors[child.state] = child
            if deadline is not None and time.perf_counter() > deadline:
                return None, seen, rnd
        ranked = sorted(successors.values(), key=lambda n: progress(n.state), reverse=True)
        beam = ranked[:width]
        if not beam:
            break
    return None, seen, rounds


def hunt_result(best: tuple[int, tuple[Action, ...]] | None, states: int, started: float,
                rounds_searched: int) -> HuntResult:
    """A hunt's result from its best find (the turn and the actions from Set-Up, or None), the states it expanded,
    when it started (a `time.perf_counter()`) and the rounds it searched."""
    seconds = time.perf_counter() - started
    if best is None:
        return HuntResult(None, None, states, seconds, rounds_searched)
    return HuntResult(best[0], best[1], states, seconds, rounds_searched)


def turn_reached(state: GameState) -> int:
    """The turn at which a state that meets a target met it (the outcome's round for an ended game)."""
    return state.outcome.round if state.outcome is not None else state.round


def hunt(game: Game, target: Target, progress: Progress, max_rounds: int, passive: bool,
         settings: HuntSettings | None = None, deadline: float | None = None, company: str = "greedy") -> HuntResult:
    """Search for a game that meets `target` by round `max_rounds`, until `deadline` (a `time.perf_counter()`).

    Passes run with a doubling beam width, each with fresh randomness; after a find, later passes
    look for an earlier one. With a deadline the width goes back to the first pass's after reaching a
    ceiling (four times it, then eight, ...): a witness that needs rare luck is found sooner by more
    tries than by one wide beam. On the shipped set a third star turns up at turn 8 in 4 of 20 seeded
    passes of width 24 (about 1.9 CPU s each) and in 4 of 6 of width 96 (about 9 s each); the others
    stop at turn 9. `passive`: the Movement always passes. `company`: the Company's
    roll-out agent ("careful" when it only has to keep the game going for the Movement's target).
    """
    cfg = settings if settings is not None else HuntSettings()
    started = time.perf_counter()
    rng = random.Random(cfg.seed)
    players = _Players(game, rng, passive, cfg.explore, company)
    best: _Node | None = None
    seen = 0
    searched = 0
    width = cfg.width
    ceiling = 4 * cfg.width
    bound = max_rounds
    retries = cfg.improve
    while bound >= 1 and width <= cfg.max_width:
        node, expanded, rounds = _beam(game, target, progress, bound, players, width, cfg, deadline)
        seen += expanded
        searched = max(searched, rounds)
        if node is not None:
            best = node
            bound = turn_reached(node.state) - 1
            retries = cfg.improve
        else:
            width *= 2
            if best is not None:
                retries -= 1
            if deadline is not None and width > ceiling:
                # Restart narrow with new randomness, and let the next cycle go one doubling wider.
                width, ceiling = cfg.width, 2 * ceiling
        if best is not None and (deadline is None or retries <= 0):
            break
        if deadline is not None and time.perf_counter() > deadline:
            break
    return hunt_result(None if best is None else (turn_reached(best.state), best.actions), seen, started, searched)
