"""Refining the Movement's abstraction: play one of its runs through the engine, to get a real witness.

When the abstraction cannot rule out turn k, its model is a run of the abstraction: per round the
Movement's action (which card, which space, which card taken, which cards flipped, which Goal
agitated) and whether the Company's turn ends with Pacing. `concretize` tries to play that run in
the engine with the choices a run of the game needs:

* chance: the Goals dealt as in the model; every Market fill chosen so that each space holds the
  card the model takes from it (the Market is simulated ahead: fills, the Movement's purchases,
  Organize refills and Pacing's shift); the Company's draws and stacks by a plan below;
* the Movement: the model's action, with both Tableau ends tried where a card is placed (the
  abstraction forgets the order, the engine does not);
* the Company: a plan that makes its Draw Phase reshuffle in the rounds the model paces and not
  in the others: it deals the stacks with the most Draw, buys one card a turn (the best drawing
  one while Pacing is still wanted), draws its drawing cards when a reshuffle is wanted and plays
  them all, and otherwise plays one card that draws nothing.

A result is an engine game (replayed by the caller like any witness), so nothing here needs to be
trusted; a run the plan cannot follow gives None, and the earliest turn stays a range.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import z3

from doubtspec.model.actions import (
    Action,
    Agitate,
    Buy,
    BuySource,
    Chance,
    ChooseStart,
    EndBuy,
    EndPlay,
    Message,
    MovementBuy,
    MovementPlay,
    OrganizePlay,
    Pass,
    PlayStandard,
    Skip,
)
from doubtspec.model.cards import Ban, DrawCards, MarketAction, MarketSpace
from doubtspec.model.engine import apply, current_actor, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.model.state import NO_CARD, Actor, GameState, Phase
from doubtspec.model.steps import (
    Agitation,
    ChooseStartingCard,
    CompanyDraw,
    DealGoal,
    DealStack,
    DrawToHandSize,
    FillMarket,
    GoalSplit,
    Messaging,
    Organize,
)
from doubtspec.solver.abstraction.movement import PLACES, MovementModel

MAX_STEPS = 100_000
"""Engine steps for one attempt, over every branch tried (a game of a dozen rounds takes a few hundred)."""


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """The Movement's action in one round of the abstraction's run, and whether the round ends with Pacing."""

    played: int | None
    space: int | None
    taken: int | None
    flips: frozenset[int]
    organized: int | None
    target: int | None
    tokens: int
    removed: int | None
    pacing: bool


@dataclass(frozen=True, slots=True)
class RunPlan:
    """The abstraction's run: the starting card, the Goals dealt, and one plan per round."""

    start: int
    goals: tuple[int, ...]
    rounds: tuple[RoundPlan, ...]


def _int(model: z3.ModelRef, name: str) -> int:
    return int(model.eval(z3.Int(name), model_completion=True).as_long())


def _bool(model: z3.ModelRef, name: str) -> bool:
    return bool(z3.is_true(model.eval(z3.Bool(name), model_completion=True)))


def read_plan(model_: MovementModel, model: z3.ModelRef, states: list[dict[str, int]]) -> RunPlan:
    """The run in a "possible" model of `RoundBmc` over the Movement's abstraction (names as it makes them)."""
    numbers = [r.number for r in model_.cards]
    spaces = range(len(model_.spaces))

    def one(prefix: str, options: Iterable[int], k: int) -> int | None:
        chosen = [o for o in options if _int(model, f"{prefix}_{o}@{k}") == 1]
        return chosen[0] if chosen else None

    rounds = []
    for k in range(1, len(states)):
        rounds.append(RoundPlan(
            played=one("play", numbers, k), space=one("space", spaces, k), taken=one("bought", numbers, k),
            flips=frozenset(n for n in numbers if _int(model, f"flip_{n}@{k}") == 1),
            organized=one("organized", numbers, k), target=one("target", PLACES, k),
            tokens=_int(model, f"spent_agitation@{k}"), removed=one("removed", numbers, k),
            pacing=_bool(model, f"pacing@{k}")))
    first = states[0]
    start = next(n for n in numbers if first[f"tab_{n}"] == 1)
    return RunPlan(start, tuple(first[f"goal_at_{p}"] for p in PLACES), tuple(rounds))


def decisions(model_: MovementModel, model: z3.ModelRef, rounds: int) -> z3.BoolRef:
    """The run's choices in `model` as one formula (its negation asks the solver for another run)."""
    numbers = [r.number for r in model_.cards]
    names = ["play", "space", "bought", "organized", "target"]
    options = {"play": numbers, "space": range(len(model_.spaces)), "bought": numbers, "organized": numbers,
               "target": PLACES}
    terms: list[z3.BoolRef] = []
    for k in range(1, rounds + 1):
        for name in names:
            for o in options[name]:
                term = z3.Int(f"{name}_{o}@{k}")
                terms.append(term == model.eval(term, model_completion=True))
        pacing = z3.Bool(f"pacing@{k}")
        terms.append(pacing == model.eval(pacing, model_completion=True))
    return z3.And(terms)


def market_fills(spaces: tuple[MarketSpace, ...], plan: RunPlan) -> dict[int, int]:
    """Which card each Market fill (numbered in the engine's order) must draw for the run's purchases.

    The Market is simulated with a token per fill: Set-Up fills every space, a purchase empties its
    space (Organize first refills every empty one), Pacing shifts the cards forward and refills.
    """
    count = len(spaces)
    market: list[int | None] = [None] * count
    fills = 0

    def refill() -> None:
        nonlocal fills
        for i in range(count):
            if market[i] is None:
                market[i] = fills
                fills += 1

    refill()
    wanted: dict[int, int] = {}
    for step in plan.rounds:
        if step.space is not None:
            if spaces[step.space].action is MarketAction.ORGANIZE:
                refill()
            token = market[step.space]
            if step.taken is not None and token is not None:
                wanted[token] = step.taken
            market[step.space] = None
        if step.pacing:
            kept = [t for t in market if t is not None]
            market = [*kept, *([None] * (count - len(kept)))]
            refill()
    return wanted


class Concretizer:
    """Plays a `RunPlan` through the engine (see the module's description)."""

    def __init__(self, game: Game, plan: RunPlan, target: int | None) -> None:
        self.game = game
        self.plan = plan
        self.target = target
        self.fills = 0
        self.steps_left = MAX_STEPS
        self.wanted = market_fills(game.cards.market, plan)
        self.needed = set(self.wanted.values())
        # Kinds the run's Goals ban: the Company keeps cards it can still play (Economic Defeat ends a game).
        achieved = [plan.goals[step.target] for step in plan.rounds if step.target is not None]
        self.banned = {e.kind for g in achieved for e in game.goal(g).effects if isinstance(e, Ban)}
        self.draw: dict[int, int] = {int(n): sum(e.count for e in (c.standard.effects if c.standard else ())
                                                 if isinstance(e, DrawCards))
                     for n, c in game.cards.company.items()}

    def _paces(self, round_: int) -> bool:
        return 1 <= round_ <= len(self.plan.rounds) and self.plan.rounds[round_ - 1].pacing

    def _reached(self, state: GameState) -> bool:
        if self.target is None:
            return state.points() >= self.game.cards.rules.goal_points_to_win
        return self.target in state.achieved

    # --- chance ----------------------------------------------------------------------------------

    def _chance(self, state: GameState, actions: tuple[Action, ...]) -> Action:
        step = state.pending[0]
        values = [a.outcome for a in actions if isinstance(a, Chance)]
        match step:
            case DealStack():
                return Chance(max(values, key=lambda odd: self.draw.get(odd, 0) + self.draw.get(odd + 1, 0)))
            case CompanyDraw() | DrawToHandSize():
                burn = self._paces(state.round + 1 if state.phase is Phase.COMPANY_DRAW else max(state.round, 1))
                budget = self.game.budget
                kind = self.game.company_card
                return Chance(max(values, key=lambda c: (kind(c).kind not in self.banned,
                                                         (self.draw.get(c, 0) if burn else -self.draw.get(c, 0)),
                                                         budget[c])))
            case GoalSplit():
                lower = set(self.plan.goals[6:])
                return next(a for a in actions if isinstance(a, Chance)
                            and {a.outcome // 100, a.outcome // 10 % 10, a.outcome % 10} == lower)
            case DealGoal(slot=slot):
                return Chance(self.plan.goals[slot])
            case FillMarket():
                card = self.wanted.get(self.fills)
                self.fills += 1
                if card is not None and card in values:
                    return Chance(card)
                spare = [v for v in values if v not in self.needed]
                return Chance(spare[0] if spare else values[0])
        return actions[0]

    # --- the Company -----------------------------------------------------------------------------

    def _company(self, state: GameState, actions: tuple[Action, ...]) -> Action:
        burn = self._paces(state.round)
        drawing = {c for c, d in self.draw.items() if d > 0}
        if state.phase is Phase.COMPANY_PLAY and not state.pending:
            plays = [a for a in actions if isinstance(a, PlayStandard) and not set(a.pay) & drawing]
            if burn:
                draws = [a for a in plays if a.card in drawing]
                if draws:
                    return max(draws, key=lambda a: (self.draw[a.card], -len(a.pay)))
            if state.plays == 0:
                quiet = [a for a in plays if a.card not in drawing] or plays
                if quiet:
                    return min(quiet, key=lambda a: len(a.pay))
                return next(a for a in actions if not isinstance(a, EndPlay))
            return next((a for a in actions if isinstance(a, EndPlay)), actions[0])
        if state.phase is Phase.COMPANY_BUY and not state.pending:
            if state.buys:
                return next(a for a in actions if isinstance(a, EndBuy))
            buys = [a for a in actions if isinstance(a, Buy) and not set(a.pay) & drawing] or \
                [a for a in actions if isinstance(a, Buy)]
            later = any(self._paces(r) for r in range(state.round + 1, len(self.plan.rounds) + 1))

            def card(a: Buy) -> int:
                if a.source is BuySource.PILE:
                    return state.piles[a.index][-1]
                if a.source is BuySource.STACK:
                    return state.stacks[a.index][-1]
                return state.trash[a.index]
            return max(buys, key=lambda a: ((self.draw.get(card(a), 0) if later else 0), -sum(
                self.game.budget[p] for p in a.pay)))
        skip = [a for a in actions if isinstance(a, Skip)]
        return skip[0] if skip else actions[0]

    def company_action(self, state: GameState, actions: tuple[Action, ...]) -> Action:
        """The plan's Company: its action in `state` (cards drawn and played to reshuffle in the Pacing rounds)."""
        return self._company(state, actions)

    def draw_luck(self, state: GameState, actions: tuple[Action, ...]) -> Action:
        """The plan's luck for the Company's cards (a `DealStack`, `CompanyDraw` or `DrawToHandSize` step)."""
        return self._chance(state, actions)

    # --- the Movement ----------------------------------------------------------------------------

    def _movement_options(self, state: GameState, actions: tuple[Action, ...]) -> list[Action]:
        """The Movement's actions that follow the plan, in the order to try them (empty: the plan fails)."""
        step = self.plan.rounds[state.round - 1]
        head = state.pending[0] if state.pending else None
        positions = {card: i for i, (card, _) in enumerate(state.tableau)}
        flips = tuple(sorted(positions[c] for c in step.flips if c in positions))
        match head:
            case None:
                if step.played is not None:
                    removed = positions.get(step.removed) if step.removed is not None else None
                    plays = [a for a in actions if isinstance(a, MovementPlay) and a.card == step.played]
                    exact: list[Action] = [a for a in plays if a.flip == flips and a.remove == removed]
                    return exact + [a for a in plays if a not in exact]
                if step.space is not None:
                    return self._buy_options(step.space, flips, actions, state)
                return [a for a in actions if isinstance(a, Pass)]
            case Agitation():
                if step.target is None:
                    return [a for a in actions if isinstance(a, Skip)]
                tries = [a for a in actions if isinstance(a, Agitate) and a.slot == step.target]
                return [max(tries, key=lambda a: a.tokens)] if tries else []
            case Messaging():
                messages = [a for a in actions if isinstance(a, Message)]
                return [max(messages, key=lambda a: a.victims)] if messages else list(actions[-1:])
            case Organize():
                if step.organized is None:
                    return [a for a in actions if isinstance(a, Skip)]
                return [a for a in actions if isinstance(a, OrganizePlay) and a.card == step.organized
                        and (a.remove is None or a.remove == positions.get(step.removed or NO_CARD))]
            case ChooseStartingCard():
                return [ChooseStart(self.plan.start)]
        return list(actions[:1])

    def _buy_options(self, space: int, flips: tuple[int, ...], actions: tuple[Action, ...],
                     state: GameState) -> list[Action]:
        """The planned purchase first, then the same space with other flips, then any space with its Action.

        The abstraction forgets which face-up card pays and which space of an Action is used (its
        Market cards are free): where the engine's Market or Tableau differs from the run's, a
        purchase with the same Action is the run's nearest neighbour.
        """
        kind = self.game.cards.market[space].action
        buys = [a for a in actions if isinstance(a, MovementBuy)]
        exact = [a for a in buys if a.space == space and a.flip == flips]
        same_space = [a for a in buys if a.space == space and a.flip != flips]
        same_action = [a for a in buys if a.space != space and self.game.cards.market[a.space].action is kind]
        # fewer flips keep more icons for the Action
        return [*exact, *sorted(same_space, key=lambda a: len(a.flip)), *sorted(same_action, key=lambda a: len(a.flip))]

    # --- the search ------------------------------------------------------------------------------

    def run(self) -> tuple[Action, ...] | None:
        """A game that follows the plan and reaches the target, or None."""
        self.steps_left = MAX_STEPS
        return self._search(new_game(self.game), [])

    def _search(self, state: GameState, trace: list[Action]) -> tuple[Action, ...] | None:
        while self.steps_left > 0:
            if self._reached(state):
                return tuple(trace)
            actor = current_actor(state)
            if actor is Actor.TERMINAL or state.round > len(self.plan.rounds):
                return None
            actions = legal_actions(state)
            if not actions:
                return None
            if actor is Actor.MOVEMENT and state.round >= 1:
                options = self._movement_options(state, actions)
                if len(options) > 1:
                    fills = self.fills
                    for option in options:  # the Tableau ends: the engine keeps an order the plan does not
                        self.fills = fills
                        found = self._search(apply(state, option), [*trace, option])
                        if found is not None:
                            return found
                    return None
                if not options:
                    return None
                action = options[0]
            elif actor is Actor.MOVEMENT:
                action = self._movement_options(state, actions)[0]
            elif actor is Actor.CHANCE:
                action = self._chance(state, actions)
            else:
                action = self._company(state, actions)
            trace.append(action)
            state = apply(state, action)
            self.steps_left -= 1
        return None


def concretize(game: Game, plan: RunPlan, target: int | None) -> tuple[Action, ...] | None:
    """An engine game reaching Goal `target` (None: Goal Victory) by following `plan`, or None."""
    return Concretizer(game, plan, target).run()

