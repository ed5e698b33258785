"""Players for whole games: the agent protocol, the uniform random agent and the agent registry.

An agent picks one of the legal actions it is offered. Every agent is seeded: it draws any
randomness from the `random.Random` it was built with, so one seed gives one game on every
machine (the seed lives at this edge, never in the engine).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from doubtspec.errors import OptionError
from doubtspec.model.actions import Action, EndPlay, PlayReserve, PlayStandard, TrashCard
from doubtspec.model.game import Game
from doubtspec.model.legal import buy_offers
from doubtspec.model.state import GameState, Phase, Side


class Agent(Protocol):
    """A player of one side: given a state where that side acts, choose one legal action."""

    def choose(self, state: GameState, actions: tuple[Action, ...]) -> Action:
        """One of `actions` (never empty), which are `legal_actions(state)`."""
        ...


class RandomAgent:
    """Uniform random play over the legal actions; the baseline that finds odd corners of the rules."""

    __slots__ = ("rng",)

    def __init__(self, game: Game, side: Side, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: GameState, actions: tuple[Action, ...]) -> Action:
        return actions[self.rng.randrange(len(actions))]


class CarefulAgent:
    """Uniform random play over the actions that do not lose at once; all of them when every one does.

    A uniformly random Company almost always pays for its plays with its whole hand and then
    cannot Buy (Company Rules > On Your Go: Economic Defeat), so random games rarely pass the
    second round. Leaving out only those suicidal plays keeps the play random while letting
    games reach Reshuffles, stars and Goals, which the whole-game tests want to exercise.
    """

    __slots__ = ("rng", "side")

    def __init__(self, game: Game, side: Side, rng: random.Random) -> None:
        self.rng = rng
        self.side = side

    def choose(self, state: GameState, actions: tuple[Action, ...]) -> Action:
        if self.side is Side.COMPANY and state.phase is Phase.COMPANY_PLAY:
            safe = _keeping_a_buy(state, actions)
            if safe:
                actions = safe
        return actions[self.rng.randrange(len(actions))]


def _keeping_a_buy(state: GameState, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """The Play Phase actions (and choices inside its effects) after which the hand can still pay
    for the cheapest buy."""
    offers = buy_offers(state)
    if not offers:
        return ()
    cheapest = min(cost for _, _, _, cost in offers)
    budget = state.game.budget
    total = sum(budget[c] for c in state.c_hand)
    safe: list[Action] = []
    for action in actions:
        if isinstance(action, PlayStandard | PlayReserve):
            left = total - budget[action.card] - sum(budget[c] for c in action.pay)
        elif isinstance(action, TrashCard):
            # An effect that trashes from the hand can throw away the Budget of the coming buy.
            left = total - budget[action.card]
        elif isinstance(action, EndPlay):
            left = total
        else:
            left = cheapest
        if left >= cheapest:
            safe.append(action)
    return tuple(safe)


def pick_best(actions: tuple[Action, ...], scores: list[float], rng: random.Random) -> Action:
    """The best-scoring action; a tie is broken by the agent's generator, so play stays seeded."""
    top = max(scores)
    best = [a for a, s in zip(actions, scores, strict=True) if s >= top - 1e-9]
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


AgentFactory = Callable[[Game, Side, random.Random], Agent]
"""Builds an agent for one side of one game from its own seeded generator."""


def _greedy(game: Game, side: Side, rng: random.Random) -> Agent:
    # Imported here so that the registry stays importable from the greedy modules themselves.
    from doubtspec.agents.greedy_company import GreedyCompany
    from doubtspec.agents.greedy_movement import GreedyMovement

    if side is Side.COMPANY:
        return GreedyCompany(game, rng)
    return GreedyMovement(game, rng)


def _mcts(game: Game, side: Side, rng: random.Random) -> Agent:
    # Imported here: the search needs the optional OpenSpiel extra, checked by `check_available`.
    from doubtspec.agents.mcts import MctsAgent

    return MctsAgent(game, side, rng)


def _ismcts(game: Game, side: Side, rng: random.Random) -> Agent:
    from doubtspec.agents.mcts import IsmctsAgent

    return IsmctsAgent(game, side, rng)


AGENTS: Mapping[str, AgentFactory] = {
    "random": RandomAgent,
    "careful": CarefulAgent,
    "greedy": _greedy,
    "mcts": _mcts,
    "ismcts": _ismcts,
}
"""Agent names accepted by `--agents`, each with the factory that builds it for either side."""

NEEDS_SPIEL: frozenset[str] = frozenset({"mcts", "ismcts"})
"""Agents that search with OpenSpiel and so need the optional `spiel` extra."""


def check_available(name: str) -> None:
    """Raise `OptionError` (naming `--agents` and the install line) if agent `name` cannot be built here."""
    if name in NEEDS_SPIEL:
        from doubtspec.spiel import missing_spiel_error, spiel_available

        if not spiel_available():
            raise missing_spiel_error(f"the {name} agent")


def make_agent(name: str, game: Game, side: Side, rng: random.Random) -> Agent:
    """The agent called `name` for `side`; raises `OptionError` for an unknown name or a missing extra."""
    factory = AGENTS.get(name)
    if factory is None:
        raise OptionError(f"unknown agent {name!r}; known agents: {', '.join(AGENTS)}", field="--agents")
    check_available(name)
    return factory(game, side, rng)


@dataclass(frozen=True, slots=True)
class Matchup:
    """Which agent plays each side; its text form is the `--agents` option's."""

    company: str = "greedy"
    movement: str = "greedy"

    def __str__(self) -> str:
        return f"company={self.company},movement={self.movement}"

    def name_for(self, side: Side) -> str:
        return self.company if side is Side.COMPANY else self.movement

    @classmethod
    def parse(cls, text: str | None) -> Matchup:
        """Read `company=NAME,movement=NAME` (either part may be left out: it stays greedy).

        A bare `NAME` sets both sides. Raises `OptionError` naming `--agents` on anything else.
        """
        if text is None or not text.strip():
            return cls()
        chosen: dict[str, str] = {}
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if len(parts) == 1 and "=" not in parts[0]:
            parts = [f"company={parts[0]}", f"movement={parts[0]}"]
        for part in parts:
            key, sep, value = part.partition("=")
            key, value = key.strip().lower(), value.strip().lower()
            if not sep or key not in ("company", "movement"):
                raise OptionError(f"expected company=NAME,movement=NAME, got {text!r}", field="--agents")
            if key in chosen:
                raise OptionError(f"{key} is given twice in {text!r}", field="--agents")
            if value not in AGENTS:
                raise OptionError(f"unknown agent {value!r} for the {key}; known agents: {', '.join(AGENTS)}",
                                  field="--agents")
            check_available(value)
            chosen[key] = value
        return cls(chosen.get("company", "greedy"), chosen.get("movement", "greedy"))
