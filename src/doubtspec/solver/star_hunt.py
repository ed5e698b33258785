"""The star hunt: a beam over the engine aimed at a Star Victory on a schedule of star rounds.

The generic hunt (`doubtspec.solver.hunt`) ranks states by how much they promise and plays its greedy agents; on
the shipped set it finds the Company's third star at turn 8, with a Reshuffle Sequence every other round. A
Sequence in every round needs what the greedy agent never aims at: a deck small enough that the turn's drawing
cards empty it before the Draw Phase (On Your Go; Reshuffle Sequence), and a display that scores the star
threshold at each of those Sequences (A. Scoring Demographics, B. Seed Demographics). This hunt asks for that
directly:

* **a schedule.** For a turn T it tries each set of rounds that may hold the stars (as many as the card file's
  Star Victory needs, the last one T; the latest rounds first), and drops every state that holds fewer stars
  than the schedule has put behind it: a pass for a schedule the game cannot meet dies at its first star round;
* **a cycling Company.** Its roll-outs play drawing cards first while the deck holds cards, then the cards that
  add the youngest Victims (they score at the most Sequences), put cards that do neither in the Reserve (which
  thins the deck: the Reserve goes to the trash pile at the next Sequence), buy drawing cards and young
  Victims, and pay with the cards it needs least; every choice is weighted, not fixed, so the roll-outs differ;
* **luck that helps it.** Chance leans towards dealing the stacks with drawing and Victim cards and towards
  drawing those cards (best luck: every deal and draw is a free choice);
* **a score for the next Sequence.** States are ranked by stars, then whether the cards at hand can draw the
  deck down far enough for a Sequence next round (when the schedule wants one), how many cards the drawing
  cards in circulation can cycle, and what the display would score.

The Movement passes (a legal choice whatever the opponent). Like the generic hunt, this only ever says "yes": a
find is replayed by the caller through the engine's checked `play`. On the shipped set it finds a Star Victory
at turn 6 (stars at rounds 4, 5 and 6) in 4 of 6 seeded passes of width 300, about 12 CPU-seconds each.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from doubtspec.model.actions import Action, Buy, Chance, EndBuy, EndPlay, Pass, PlayReserve, PlayStandard
from doubtspec.model.cards import AddVictims, DrawCards, Zone
from doubtspec.model.engine import new_game
from doubtspec.model.game import Game
from doubtspec.model.legal import buy_offers
from doubtspec.model.state import Actor, GameState, OutcomeReason, Phase
from doubtspec.model.steps import CompanyDraw, DealStack, DrawToHandSize
from doubtspec.solver.hunt import HuntResult, play_until, turn_reached

ZONE_WORTH = (6.0, 3.0, 2.0, 2.0)
"""A Victim added to Children .. Elderly: the younger, the more Sequences it scores at."""
DRAW_WORTH = 8.0
"""A card drawn, against Victims, when the hunt weighs a card to keep (a Sequence every round needs draws)."""
LUCKY_SHARE = 0.7
"""How often a Company draw leans towards the cards the cycling Company wants (else uniform)."""
LUCKY_DEAL_SHARE = 0.8
"""How often the deal of a Market stack leans towards drawing and Victim cards (else uniform)."""
_STEPS_PER_ROUND = 3_000


@dataclass(frozen=True, slots=True)
class StarHuntSettings:
    """States kept per round, roll-outs per kept state, Set-Ups to start from, and the passes per schedule (each
    with the next seed)."""

    width: int = 300
    rollouts: int = 30
    setups: int = 48
    passes: int = 3
    seed: int = 0


@dataclass(frozen=True, slots=True)
class _Cards:
    """What the hunt reads from the card file: per card number, its standard draws and its Victims' worth."""

    draws: tuple[int, ...]
    worth: tuple[float, ...]
    cost: tuple[int, ...]

    @classmethod
    def of(cls, game: Game) -> _Cards:
        draws, worth, cost = [], [], []
        for card in game.company:
            side = None if card is None else card.standard
            effects = () if side is None else side.effects
            draws.append(sum(e.count for e in effects if isinstance(e, DrawCards)))
            worth.append(sum(ZONE_WORTH[e.zone] * e.count for e in effects if isinstance(e, AddVictims)))
            cost.append(-1 if side is None else side.cost)
        return cls(tuple(draws), tuple(worth), tuple(cost))

    def keep(self, card: int) -> float:
        """How much the cycling Company wants to keep a card (not spend it as Budget)."""
        return DRAW_WORTH * self.draws[card] + self.worth[card]


def star_schedules(turn: int, stars: int, at_most: Mapping[int, int] | None = None) -> Iterator[tuple[int, ...]]:
    """Every set of `stars` rounds up to `turn` whose last is `turn`, the latest rounds first, except those that
    put more stars by a round r than `at_most[r]` (bounds proved elsewhere, e.g. by the Company's abstraction)."""
    bounds = at_most or {}
    for rounds in itertools.combinations(range(turn - 1, 0, -1), stars - 1):
        schedule = tuple(sorted((*rounds, turn)))
        if all(sum(1 for s in schedule if s <= r) <= bound for r, bound in bounds.items()):
            yield schedule


def next_score(victims: tuple[int, ...]) -> int:
    """What Scoring Demographics would score on this display (the Elderly, two of three Middle Age Victims lost,
    one of two Adults lost, the Children)."""
    middle, adults = victims[Zone.MIDDLE_AGE], victims[Zone.ADULTS]
    return (victims[Zone.ELDERLY] + middle - 2 * (middle // 3) + adults - adults // 2 + victims[Zone.CHILDREN])


class _Roller:
    """The roll-outs: the cycling Company, a passing Movement and leaning luck (see the module docstring)."""

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        self.cards = _Cards.of(game)

    def company(self, state: GameState, actions: tuple[Action, ...]) -> Action:
        cards, budget = self.cards, self.game.budget
        offers = {(source, index): card for source, index, card, _ in buy_offers(state)} \
            if state.phase is Phase.COMPANY_BUY else {}
        weights = []
        for action in actions:
            match action:
                case PlayStandard(card=card, pay=pay):
                    weight = 0.5 + (20.0 * cards.draws[card] if state.c_deck else 0.0) + cards.worth[card]
                    weight /= 1 + sum(cards.keep(p) + 0.3 * budget[p] for p in pay)
                case PlayReserve(card=card, pay=pay):
                    # the Reserve thins the deck: good for a card that neither draws nor is worth keeping
                    weight = (0.3 if cards.draws[card] else 2.0) / (1 + sum(cards.keep(p) + 0.3 * budget[p]
                                                                            for p in pay))
                case EndPlay():
                    weight = 0.5
                case Buy(source=source, index=index, pay=pay):
                    weight = (1.0 + cards.keep(offers.get((source, index), 0))) / (
                        1 + sum(cards.keep(p) for p in pay) + 0.2 * len(pay))
                case EndBuy():
                    weight = 3.0 if state.buys >= 1 else 0.0
                case _:
                    weight = 1.0
            weights.append(max(weight, 1e-6))
        return self.rng.choices(actions, weights=weights)[0]

    def chance(self, state: GameState, actions: tuple[Action, ...]) -> Action:
        cards, budget = self.cards, self.game.budget
        step = state.pending[0] if state.pending else None
        outcomes = [a.outcome if isinstance(a, Chance) else 0 for a in actions]
        if isinstance(step, DealStack) and self.rng.random() < LUCKY_DEAL_SHARE:
            # the odd card is dealt; its even partner goes on top of it
            weights = [1.0 + 4.0 * (cards.draws[o] + cards.draws[o + 1]) + (cards.worth[o] + cards.worth[o + 1]) / 3
                       if o + 1 < len(cards.draws) else 1.0 for o in outcomes]
            return self.rng.choices(actions, weights=weights)[0]
        if isinstance(step, (CompanyDraw, DrawToHandSize)) and self.rng.random() < LUCKY_SHARE:
            weights = [1.0 + 10.0 * cards.draws[o] + cards.worth[o] + 0.5 * budget[o] for o in outcomes]
            return self.rng.choices(actions, weights=weights)[0]
        return actions[self.rng.randrange(len(actions))]

    def choose(self, state: GameState, actor: Actor, actions: tuple[Action, ...]) -> Action:
        """Luck leaning to the cycling Company, the Company's weighted choice, and a Movement that passes."""
        if actor is Actor.CHANCE:
            return self.chance(state, actions)
        if actor is Actor.MOVEMENT:
            passes = [a for a in actions if isinstance(a, Pass)]
            return passes[0] if passes else actions[self.rng.randrange(len(actions))]
        return self.company(state, actions)

    def roll(self, state: GameState, trace: list[Action], stop_round: int) -> tuple[GameState, list[Action]]:
        """Play on until the round changes to `stop_round` or the game ends."""
        return play_until(state, trace, self.choose, stop_round, _STEPS_PER_ROUND), trace

    def draw_reach(self, state: GameState) -> int:
        """The most cards the hand's drawing cards can draw next turn with the best luck (drawing cards drawn
        first, each paid by a card that draws nothing, or by another drawing card when none is left)."""
        cards, budget = self.cards, self.game.budget
        in_deck = sorted((c for c in state.c_deck if cards.draws[c]), key=lambda c: -cards.draws[c])
        plain = len(state.c_deck) - len(in_deck)
        pool = sorted((c for c in state.c_hand if cards.draws[c]), key=lambda c: cards.cost[c])
        payers = sum(1 for c in state.c_hand if not cards.draws[c] and budget[c] > 0)
        drawn = 0
        while pool:
            card = pool.pop(0)
            if cards.cost[card] > 0:
                if payers:
                    payers -= 1
                elif pool:
                    pool.pop()
                else:
                    break
            for _ in range(cards.draws[card]):
                if in_deck:
                    pool.append(in_deck.pop(0))
                elif plain:
                    plain -= 1
                    payers += 1
                else:
                    break
                drawn += 1
        return drawn

    def score(self, state: GameState, schedule: tuple[int, ...], round_number: int) -> float:
        """How promising a state at the end of `round_number` is for the rest of the schedule."""
        hand_size = self.game.cards.rules.company_hand_size
        owned = state.c_deck + state.c_hand + state.c_discard
        wants_next = round_number + 1 in schedule
        wants_later = any(r > round_number + 1 for r in schedule)
        short = len(state.c_deck) - (hand_size - 1) - self.draw_reach(state)
        cycle = sum(self.cards.draws[c] for c in owned) - (len(owned) - 2 * hand_size + 1)
        threshold = self.game.cards.rules.star_threshold
        return (1000.0 * state.stars + (150.0 if wants_next and short <= 0 else 0.0) - 10.0 * max(0, short)
                + (40.0 * min(cycle, 3) if wants_next or wants_later else 0.0)
                + 12.0 * min(next_score(state.victims), threshold + 1) - 2.0 * len(owned)
                + sum(self.game.budget[c] for c in state.c_hand))


def _won(state: GameState) -> bool:
    return state.outcome is not None and state.outcome.reason is OutcomeReason.STAR_VICTORY


def _pass(game: Game, schedule: tuple[int, ...], settings: StarHuntSettings, seed: int,
          deadline: float | None) -> tuple[GameState | None, tuple[Action, ...], int]:
    """One beam pass for one schedule: (the winning state or None, its actions, states expanded)."""
    roller = _Roller(game, random.Random(seed))
    seen = 0
    beam = [roller.roll(new_game(game), [], 1) for _ in range(settings.setups)]
    for round_number in range(1, schedule[-1] + 1):
        due = sum(1 for r in schedule if r <= round_number)
        children: dict[GameState, tuple[GameState, list[Action]]] = {}
        for state, trace in beam:
            for _ in range(settings.rollouts):
                child, actions = roller.roll(state, list(trace), round_number + 1)
                seen += 1
                if _won(child):
                    return child, tuple(actions), seen
                if child.outcome is None and child.stars >= due and child not in children:
                    children[child] = (child, actions)
            if deadline is not None and time.perf_counter() > deadline:
                return None, (), seen
        ranked = sorted(children.values(), key=lambda n: roller.score(n[0], schedule, round_number), reverse=True)
        beam = ranked[: settings.width]
        if not beam:
            break
    return None, (), seen


def star_hunt(game: Game, by_turn: int, first_turn: int = 1, settings: StarHuntSettings | None = None,
              deadline: float | None = None, at_most: Mapping[int, int] | None = None,
              tried: set[tuple[tuple[int, ...], int]] | None = None) -> HuntResult:
    """Look for a Star Victory at the earliest turn from `first_turn` to `by_turn`, until `deadline` (a
    `time.perf_counter()`), within the proved star bounds `at_most` (round to the most stars after it).

    `tried`: the (schedule, seed) passes already made without a find (by an earlier call); they are skipped, and
    every pass this call completes without a find is added (the passes are deterministic, so one would fail again).

    `settings.passes` rounds of passes, each with the next seed: a round tries the turns in order, every star
    schedule of a turn (`star_schedules`), until one is met; the next round tries only the turns before the best
    find. So a first witness comes after one pass per schedule up to its turn (on the large file the schedule of
    turn 5 dies at round 3 in about 6 CPU-seconds, then turn 6 is found in about 12), and the time left goes to
    earlier turns. A find is the earliest this hunt can offer, not a proof that no earlier one exists.
    """
    cfg = settings if settings is not None else StarHuntSettings()
    started = time.perf_counter()
    stars = game.cards.rules.stars_to_win
    seen = 0
    searched = 0
    best: tuple[int, tuple[Action, ...]] | None = None
    bound = by_turn
    for attempt in range(cfg.passes):
        for turn in range(max(first_turn, stars), bound + 1):
            for schedule in star_schedules(turn, stars, at_most):
                seed = cfg.seed + attempt
                if tried is not None and (schedule, seed) in tried:
                    continue
                state, actions, expanded = _pass(game, schedule, cfg, seed, deadline)
                seen += expanded
                searched = max(searched, turn)
                if state is not None:
                    best = (turn_reached(state), actions)
                    bound = best[0] - 1
                    break
                if deadline is not None and time.perf_counter() > deadline:
                    return _result(best, seen, started, searched)
                if tried is not None:
                    tried.add((schedule, seed))
            if best is not None and bound < turn:
                break  # found at this turn: the next round of passes looks for an earlier one
    return _result(best, seen, started, searched)


def _result(best: tuple[int, tuple[Action, ...]] | None, seen: int, started: float, searched: int) -> HuntResult:
    seconds = time.perf_counter() - started
    if best is None:
        return HuntResult(None, None, seen, seconds, searched)
    return HuntResult(best[0], best[1], seen, seconds, searched)
