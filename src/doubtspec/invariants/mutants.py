"""Deliberate breakages of the reference engine, to prove that the invariant checks can fail.

Each mutant is a named context manager that swaps one rule function of the engine for a slightly
wrong one and puts the original back on exit:

    with MUTANTS["hand-limit-off-by-one"].active():
        result = run_fuzz(FuzzOptions(game))      # must report `hand.movement`

A mutant names the invariants expected to catch it. They are for tests and for designers who want
to see what a report looks like; nothing in the product activates them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from doubtspec.invariants import catalog
from doubtspec.model import company, legal, movement
from doubtspec.model.cards import TokenKind, Zone
from doubtspec.model.game import Game
from doubtspec.model.state import GameState
from doubtspec.model.steps import StartCompanyTurn
from doubtspec.model.work import Work, replace_at, sorted_with

Patch = tuple[object, str, Any]
"""(module or class, attribute name, replacement)."""


@dataclass(frozen=True, slots=True)
class Mutant:
    """One deliberate breakage: what it does, which invariants must catch it, and its patches."""

    name: str
    description: str
    caught_by: tuple[str, ...]
    patches: Callable[[], tuple[Patch, ...]]

    @contextmanager
    def active(self) -> Iterator[Mutant]:
        """Apply the patches for the duration of the block (not thread-safe: the engine is global)."""
        saved = []
        try:
            for owner, name, replacement in self.patches():
                saved.append((owner, name, getattr(owner, name)))
                setattr(owner, name, replacement)
            catalog.forget()
            yield self
        finally:
            for owner, name, original in reversed(saved):
                setattr(owner, name, original)
            catalog.forget()


# --- the breakages ----------------------------------------------------------------------------


def _scoring_slip() -> tuple[Patch, ...]:
    original = company.score_and_seed

    def score_and_seed(w: Work) -> None:
        # Adults keep half their Victims rounded down instead of up: with an odd count, one Victim
        # fewer moves on and one Profit fewer is scored (the tokens go back, so they are conserved).
        adults = w.victims[Zone.ADULTS]
        original(w)
        if adults % 2 and w.victims[Zone.MIDDLE_AGE] > 0 and w.profit > 0:
            w.victims = replace_at(w.victims, Zone.MIDDLE_AGE, w.victims[Zone.MIDDLE_AGE] - 1)
            w.give_back(TokenKind.VICTIMS, 1)
            w.profit -= 1
            w.give_back(TokenKind.PROFIT, 1)

    return ((company, "score_and_seed", score_and_seed),)


def _token_from_nothing() -> tuple[Patch, ...]:
    def pass_turn(w: Work) -> None:
        # Pass gives its Influence without taking it from the supply.
        w.influence += 1
        w.push(StartCompanyTurn())

    return ((movement, "pass_turn", pass_turn),)


def _ban_ignored() -> tuple[Patch, ...]:
    def is_banned(game: Game, banned: tuple[str, ...], card: int) -> bool:
        return False

    return ((company, "is_banned", is_banned),)


def _hand_limit_off_by_one() -> tuple[Patch, ...]:
    original = GameState.hand_limit

    def hand_limit(self: GameState) -> int:
        return original(self) + 1

    return ((GameState, "hand_limit", hand_limit),)


def _doubt_top_down() -> tuple[Patch, ...]:
    def doubt_cost(game: Game, column: Zone, present: int, count: int) -> int:
        # Removal priced from the top space down instead of the bottom one up.
        values = game.cards.display.doubt_values[column]
        return sum(values[i] for i in range(count))

    return ((movement, "doubt_cost", doubt_cost), (legal, "doubt_cost", doubt_cost))


def _card_duplicated() -> tuple[Patch, ...]:
    def buy(w: Work, card: int, pay: tuple[int, ...]) -> None:
        # A bought card arrives twice in the discard pile.
        company.pay_budget(w, pay)
        w.c_discard = sorted_with(w.c_discard, card, card)
        w.buys += 1
        w.discount = 0

    return ((company, "buy", buy),)


def _profit_victory_ignored() -> tuple[Patch, ...]:
    def check_profit_victory(w: Work) -> None:
        return None

    return ((company, "check_profit_victory", check_profit_victory),)


MUTANTS: dict[str, Mutant] = {m.name: m for m in (
    Mutant("scoring-slip", "Scoring keeps half the Adults rounded down instead of up.",
           ("scoring.demographics",), _scoring_slip),
    Mutant("token-from-nothing", "Pass gives the Movement an Influence token that does not come from the supply.",
           ("tokens.influence",), _token_from_nothing),
    Mutant("ban-ignored", "Bans are ignored: banned cards can be played and banned Reserve cards trigger.",
           ("ban.play", "reject.banned", "ban.reserve-trigger", "ban.offers"), _ban_ignored),
    Mutant("hand-limit-off-by-one", "The Movement may buy with one card more than its hand limit.",
           ("hand.movement", "reject.full-hand"), _hand_limit_off_by_one),
    Mutant("doubt-top-down", "Messaging removes Doubt at the top spaces' printed costs instead of the bottom's.",
           ("doubt.order", "doubt.messaging-offers"), _doubt_top_down),
    Mutant("card-duplicated", "A bought card is put into the discard pile twice.",
           ("cards.company",), _card_duplicated),
    Mutant("profit-victory-ignored", "Holding 70 Profit at the end of a Reshuffle does not win.",
           ("outcome.profit-victory", "outcome.profit-offers"), _profit_victory_ignored),
)}
"""Every mutant by name."""
