"""The second method: a bounded search over the engine's own legal actions and chance outcomes.

Chance is a free choice (the best luck), as in the solver. States are expanded round by round
(lowest `state.round` first), so the first round whose states reach the target is the earliest.
States are hashed up to interchangeable cards: two Company cards with identical data (Budget,
kind, both sides) behave identically, so states that differ only by swapping such cards in the
deck, hand, discard pile or out of the game are explored once. The same caps on plays and buys
per turn as the solver's can be applied, so that the two methods answer the same question.

With `--opponent passive` the Movement only passes; its Set-Up deals, its starting card and its
Market refills cannot reach the Company's side (no Goal is achieved, no Market card bought), so
only the engine's first option is explored there, as in the solver. With `passive=False` every
Movement action and chance outcome is explored, and Goals with identical data (and the same
side of the Set-Up split, G1-G6 or G7-G9) are interchangeable in the state keys too, except those
a target names (`distinct_goals`), so that the Goal deal does not multiply the search.

`search` stops at an outcome; `search_state` at any state a predicate accepts (say, "Goal G7 has
been achieved"): the earliest round of such a state is the earliest turn.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from doubtspec.model.actions import Action, Buy, Pass, PlayReserve, PlayStandard, Unlobby
from doubtspec.model.engine import apply, current_actor, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.model.legal import LOWER_GOALS
from doubtspec.model.state import NO_CARD, Actor, GameState, Outcome, Phase
from doubtspec.model.steps import ChooseStartingCard, DealGoal, FillMarket, GoalSplit
from doubtspec.solver.unrolling.bmc import Caps

Target = Callable[[Outcome], bool]
StateTarget = Callable[[GameState], bool]


@dataclass(frozen=True, slots=True)
class ExhaustiveResult:
    """The earliest round the target is reached in (or None), a witness, and what the search cost."""

    found: int | None
    actions: tuple[Action, ...] | None
    states: int
    complete: bool
    """False when the search stopped at its state limit or time limit (the answer is then unknown)."""
    seconds: float


class _Keys:
    """State keys up to interchangeable Company cards."""

    def __init__(self, game: Game, distinct_goals: Iterable[int] = ()) -> None:
        kinds: dict[object, int] = {}
        self.kind: dict[int, int] = {}
        for number, card in sorted(game.cards.company.items()):
            signature = (card.budget, card.kind, card.standard, card.reserve)
            self.kind[int(number)] = kinds.setdefault(signature, int(number))
        # Goals: same data and same side of the Set-Up split (G1-G6 against G7-G9) make two Goals interchangeable.
        keep = set(distinct_goals)
        goal_kinds: dict[object, int] = {}
        self.goal: dict[int, int] = {NO_CARD: NO_CARD}
        for g, goal in sorted((int(n), data) for n, data in game.cards.goals.items()):
            same: object = (g,) if g in keep else (goal.cost, goal.points, goal.effects, goal.passive, g in LOWER_GOALS)
            self.goal[g] = goal_kinds.setdefault(same, g)

    def key(self, s: GameState) -> tuple[object, ...]:
        k = self.kind

        def bag(cards: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(sorted(k[c] for c in cards))

        def row(cards: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(k[c] for c in cards)

        return (
            s.phase, s.round, self._pending_rest(s), s.outcome, bag(s.c_deck), bag(s.c_hand), bag(s.c_discard),
            row(s.c_reserve), row(s.c_in_play), tuple(row(p) for p in s.piles), tuple(row(t) for t in s.stacks),
            row(s.trash), bag(s.c_removed), s.victims, s.doubt, s.profit, s.stars, s.banned, s.plays, s.buys,
            s.unlobbied, s.discount, s.reshuffles, s.m_deck, s.market, s.market_profit, s.m_hand, s.tableau,
            s.m_discard, s.influence, s.messaging, s.agitation, s.flight, s.flight_spent,
            tuple(self.goal[g] for g in s.goals), s.goal_profit, s.goal_agitation,
            tuple(sorted(self.goal[g] for g in s.achieved)), s.supply, self._pending(s),
        )

    def _pending_rest(self, s: GameState) -> object:
        """The pending steps, with a Goal deal's stacks read through `_pending`."""
        if s.pending and isinstance(s.pending[0], DealGoal):
            return (s.pending[0].slot, s.pending[1:])
        return s.pending

    def _pending(self, s: GameState) -> object:
        """The Goal deal's pending stacks, up to interchangeable Goals."""
        if s.pending and isinstance(s.pending[0], DealGoal):
            head = s.pending[0]
            return (tuple(sorted(self.goal[g] for g in head.upper)), tuple(sorted(self.goal[g] for g in head.lower)))
        return None


def _choices(state: GameState, caps: Caps | None, passive: bool) -> tuple[Action, ...]:
    actions = legal_actions(state)
    actor = current_actor(state)
    if passive:
        head = state.pending[0] if state.pending else None
        if isinstance(head, GoalSplit | DealGoal | FillMarket | ChooseStartingCard):
            return actions[:1]
        if actor is Actor.MOVEMENT and head is None and state.phase is Phase.MOVEMENT_TURN:
            return tuple(a for a in actions if isinstance(a, Pass))
    if caps is not None and actor is Actor.COMPANY and not state.pending:
        used = state.plays + (1 if state.unlobbied else 0)
        if used >= caps.plays:
            actions = tuple(a for a in actions if not isinstance(a, PlayStandard | PlayReserve | Unlobby))
        if state.buys >= caps.buys:
            actions = tuple(a for a in actions if not isinstance(a, Buy))
    return actions


Key = tuple[object, ...]


class _Frontier:
    """The search's bookkeeping: states queued in round order, and each key's parent, to rebuild paths."""

    def __init__(self, keys: _Keys, root: GameState) -> None:
        self.keys = keys
        self.parent: dict[Key, tuple[Key | None, Action | None]] = {keys.key(root): (None, None)}
        self.queue: list[tuple[int, int, GameState]] = [(root.round, 0, root)]
        self.counter = 1

    @property
    def seen(self) -> int:
        return len(self.parent)

    def pop(self) -> tuple[int, GameState, Key]:
        rnd, _, state = heapq.heappop(self.queue)
        return rnd, state, self.keys.key(state)

    def expand(self, state: GameState, key: Key, caps: Caps | None, passive: bool) -> None:
        """Queue every successor not seen before (up to interchangeable cards and Goals)."""
        for action in _choices(state, caps, passive):
            nxt = apply(state, action)
            nkey = self.keys.key(nxt)
            if nkey in self.parent:
                continue
            self.parent[nkey] = (key, action)
            self.counter += 1
            heapq.heappush(self.queue, (nxt.round, self.counter, nxt))

    def path(self, key: Key) -> tuple[Action, ...]:
        """The actions from Set-Up to the state with this key."""
        steps: list[Action] = []
        cursor: Key | None = key
        while cursor is not None:
            prev, step = self.parent[cursor]
            if step is not None:
                steps.append(step)
            cursor = prev
        return tuple(reversed(steps))


def _stop(frontier: _Frontier, started: float, max_states: int | None, timeout_s: float | None) -> bool:
    """Whether the search must stop incomplete (its state or time limit)."""
    return (max_states is not None and frontier.seen > max_states) or (
        timeout_s is not None and time.perf_counter() - started > timeout_s)


def search(game: Game, target: Target, max_rounds: int, caps: Caps | None = None, passive: bool = True,
           max_states: int | None = None, timeout_s: float | None = None) -> ExhaustiveResult:
    """The earliest round (up to `max_rounds`) in which a game can end with an outcome `target` accepts."""
    started = time.perf_counter()
    frontier = _Frontier(_Keys(game), new_game(game))
    best: tuple[int, Key] | None = None
    complete = True
    while frontier.queue:
        rnd, state, key = frontier.pop()
        if best is not None and rnd > best[0]:
            break
        if _stop(frontier, started, max_states, timeout_s):
            complete = False
            break
        outcome = state.outcome
        if outcome is not None:
            if target(outcome) and outcome.round <= max_rounds and (best is None or outcome.round < best[0]):
                best = (outcome.round, key)
            continue
        if state.round > max_rounds:
            continue
        frontier.expand(state, key, caps, passive)
    seconds = time.perf_counter() - started
    if best is None:
        return ExhaustiveResult(None, None, frontier.seen, complete, seconds)
    return ExhaustiveResult(best[0], frontier.path(best[1]), frontier.seen, complete, seconds)


def earliest_outcomes(game: Game, max_rounds: int, caps: Caps | None = None, passive: bool = True,
                      max_states: int | None = None,
                      timeout_s: float | None = None) -> tuple[dict[str, ExhaustiveResult], bool]:
    """One search for every outcome at once: per outcome reason, the earliest round it can happen in.

    Returns the results by reason value and whether the search was complete (a missing reason is
    then unreachable within the bound).
    """
    started = time.perf_counter()
    frontier = _Frontier(_Keys(game), new_game(game))
    best: dict[str, tuple[int, Key]] = {}
    complete = True
    while frontier.queue:
        _, state, key = frontier.pop()
        if _stop(frontier, started, max_states, timeout_s):
            complete = False
            break
        outcome = state.outcome
        if outcome is not None:
            reason = outcome.reason.value
            if outcome.round <= max_rounds and (reason not in best or outcome.round < best[reason][0]):
                best[reason] = (outcome.round, key)
            continue
        if state.round > max_rounds:
            continue
        frontier.expand(state, key, caps, passive)
    seconds = time.perf_counter() - started
    results = {reason: ExhaustiveResult(rnd, frontier.path(end), frontier.seen, complete, seconds)
               for reason, (rnd, end) in best.items()}
    return results, complete


def outcome_is(*reasons: object) -> Target:
    def target(outcome: Outcome) -> bool:
        return outcome.reason in reasons
    return target


def search_state(game: Game, target: StateTarget, max_rounds: int, caps: Caps | None = None, passive: bool = False,
                 max_states: int | None = None, timeout_s: float | None = None,
                 distinct_goals: Iterable[int] = ()) -> ExhaustiveResult:
    """The earliest round (up to `max_rounds`) with a state that `target` accepts (finished games included).

    `target` may name Goals only through `distinct_goals` (the others are interchangeable in the keys).
    """
    started = time.perf_counter()
    frontier = _Frontier(_Keys(game, distinct_goals), new_game(game))
    complete = True
    while frontier.queue:
        rnd, state, key = frontier.pop()
        if rnd > max_rounds:
            break
        if _stop(frontier, started, max_states, timeout_s):
            complete = False
            break
        if target(state):
            # States leave the queue in round order, so the first accepted one is in the earliest round.
            return ExhaustiveResult(rnd, frontier.path(key), frontier.seen, True, time.perf_counter() - started)
        if state.outcome is not None:
            continue
        frontier.expand(state, key, caps, passive)
    return ExhaustiveResult(None, None, frontier.seen, complete, time.perf_counter() - started)
