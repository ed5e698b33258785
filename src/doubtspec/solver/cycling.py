"""The cycling Company and its beam: the machinery the star hunt and the Profit hunt share.

Both hunts look for a Company victory that needs a Reshuffle Sequence in (nearly) every round, which the greedy
agents never aim at: a deck small enough that the turn's drawing cards empty it before the Draw Phase (On Your Go;
Reshuffle Sequence), and a display that scores well at each of those Sequences (A. Scoring Demographics). So both
play the same roll-outs:

* **a cycling Company.** It plays drawing cards first while the deck holds cards, then the cards that add the
  youngest Victims (they score at the most Sequences), puts cards that do neither in the Reserve (which thins the
  deck: the Reserve goes to the trash pile at the next Sequence), buys drawing cards and young Victims, and pays
  with the cards it needs least; every choice is weighted, not fixed, so the roll-outs differ;
* **luck that helps it.** Chance leans towards dealing the stacks with drawing and Victim cards and towards drawing
  those cards (best luck: every deal and draw is a free choice);
* **a passing Movement** (a legal choice whatever the opponent).

`beam_pass` keeps, round by round, the best states by the hunt's own score among those its filter lets through,
each expanded by several roll-outs of one round, until a roll-out meets the hunt's target. Like the generic hunt,
this only ever says "yes": a find is replayed by the caller through the engine's checked `play`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from doubtspec.model.actions import Action, Buy, Chance, EndBuy, EndPlay, Pass, PlayReserve, PlayStandard
from doubtspec.model.cards import AddVictims, DrawCards, ScoreProfit, Zone
from doubtspec.model.engine import new_game
from doubtspec.model.game import Game
from doubtspec.model.legal import buy_offers
from doubtspec.model.state import Actor, GameState, Phase
from doubtspec.model.steps import CompanyDraw, DealStack, DrawToHandSize
from doubtspec.solver.hunt import Target, play_until

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
class BeamSettings:
    """States kept per round, roll-outs per kept state, Set-Ups to start from, and the passes (each with the next
    seed)."""

    width: int = 300
    rollouts: int = 30
    setups: int = 48
    passes: int = 3
    seed: int = 0


@dataclass(frozen=True, slots=True)
class CardWorth:
    """What the hunts read from the card file: per card number, its standard draws, its Victims' worth, its cost
    and the Profit it scores when played."""

    draws: tuple[int, ...]
    worth: tuple[float, ...]
    cost: tuple[int, ...]
    profit: tuple[int, ...]

    @classmethod
    def of(cls, game: Game) -> CardWorth:
        draws, worth, cost, profit = [], [], [], []
        for card in game.company:
            side = None if card is None else card.standard
            effects = () if side is None else side.effects
            draws.append(sum(e.count for e in effects if isinstance(e, DrawCards)))
            worth.append(sum(ZONE_WORTH[e.zone] * e.count for e in effects if isinstance(e, AddVictims)))
            cost.append(-1 if side is None else side.cost)
            profit.append(sum(e.count for e in effects if isinstance(e, ScoreProfit)))
        return cls(tuple(draws), tuple(worth), tuple(cost), tuple(profit))


def next_score(victims: tuple[int, ...]) -> int:
    """What Scoring Demographics would score on this display (the Elderly, two of three Middle Age Victims lost,
    one of two Adults lost, the Children)."""
    middle, adults = victims[Zone.MIDDLE_AGE], victims[Zone.ADULTS]
    return (victims[Zone.ELDERLY] + middle - 2 * (middle // 3) + adults - adults // 2 + victims[Zone.CHILDREN])


class CyclingRoller:
    """The roll-outs: the cycling Company, a passing Movement and leaning luck (see the module docstring).

    A hunt that wants more of the Company than cycling subclasses it: `keep` weighs a card to keep (not spend as
    Budget), `play_worth` what playing a card brings beyond its draws, and `other_weight` weighs the choices
    the cycling Company has no view on."""

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        self.cards = CardWorth.of(game)

    def keep(self, card: int) -> float:
        """How much the cycling Company wants to keep a card (not spend it as Budget)."""
        return DRAW_WORTH * self.cards.draws[card] + self.cards.worth[card]

    def play_worth(self, state: GameState, card: int) -> float:
        """What playing a card's standard side brings beyond its draws (its Victims' worth)."""
        return self.cards.worth[card]

    def other_weight(self, state: GameState, action: Action) -> float:
        """The weight of a choice that is not a play, a buy or an end of a phase."""
        return 1.0

    def company(self, state: GameState, actions: tuple[Action, ...]) -> Action:
        cards, budget, keep = self.cards, self.game.budget, self.keep
        offers = {(source, index): card for source, index, card, _ in buy_offers(state)} \
            if state.phase is Phase.COMPANY_BUY else {}
        weights = []
        for action in actions:
            match action:
                case PlayStandard(card=card, pay=pay):
                    weight = 0.5 + (20.0 * cards.draws[card] if state.c_deck else 0.0) + self.play_worth(state, card)
                    weight /= 1 + sum(keep(p) + 0.3 * budget[p] for p in pay)
                case PlayReserve(card=card, pay=pay):
                    # the Reserve thins the deck: good for a card that neither draws nor is worth keeping
                    weight = (0.3 if cards.draws[card] else 2.0) / (1 + sum(keep(p) + 0.3 * budget[p] for p in pay))
                case EndPlay():
                    weight = 0.5
                case Buy(source=source, index=index, pay=pay):
                    weight = (1.0 + keep(offers.get((source, index), 0))) / (
                        1 + sum(keep(p) for p in pay) + 0.2 * len(pay))
                case EndBuy():
                    weight = 3.0 if state.buys >= 1 else 0.0
                case _:
                    weight = self.other_weight(state, action)
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

    def cycling(self, state: GameState, wants_next: bool, wants_later: bool) -> float:
        """The score's part for the Sequences to come: whether the cards at hand can draw the deck down far enough
        for a Sequence next round (when one is wanted), how many cards the drawing cards in circulation can cycle
        (when any Sequence is still wanted), and a small deck."""
        hand_size = self.game.cards.rules.company_hand_size
        owned = state.c_deck + state.c_hand + state.c_discard
        short = len(state.c_deck) - (hand_size - 1) - self.draw_reach(state)
        cycle = sum(self.cards.draws[c] for c in owned) - (len(owned) - 2 * hand_size + 1)
        return ((150.0 if wants_next and short <= 0 else 0.0) - 10.0 * max(0, short)
                + (40.0 * min(cycle, 3) if wants_next or wants_later else 0.0) - 2.0 * len(owned)
                + sum(self.game.budget[c] for c in state.c_hand))


Keep = Callable[[GameState, int], bool]
"""Whether a state at the end of a round (the second argument) may stay in the beam."""
Score = Callable[[GameState, int], float]
"""How promising a state at the end of a round is (higher is better)."""


def beam_pass(game: Game, roller: CyclingRoller, rounds: int, won: Target, keep: Keep, score: Score,
              settings: BeamSettings, deadline: float | None) -> tuple[GameState | None, tuple[Action, ...], int]:
    """One beam pass up to round `rounds`: (the first state that `won` accepts or None, its actions, states expanded).

    Round by round every kept state is expanded by `settings.rollouts` roll-outs of one round; of the children
    `keep` lets through (and that have not ended otherwise), the `settings.width` best by `score` are kept."""
    seen = 0
    beam = [roller.roll(new_game(game), [], 1) for _ in range(settings.setups)]
    for round_number in range(1, rounds + 1):
        children: dict[GameState, tuple[GameState, list[Action]]] = {}
        for state, trace in beam:
            for _ in range(settings.rollouts):
                child, actions = roller.roll(state, list(trace), round_number + 1)
                seen += 1
                if won(child):
                    return child, tuple(actions), seen
                if child.outcome is None and child not in children and keep(child, round_number):
                    children[child] = (child, actions)
            if deadline is not None and time.perf_counter() > deadline:
                return None, (), seen
        ranked = sorted(children.values(), key=lambda n: score(n[0], round_number), reverse=True)
        beam = ranked[: settings.width]
        if not beam:
            break
    return None, (), seen
