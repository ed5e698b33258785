"""Breakages of the Company's buys and of the Economic Defeat a hand that cannot play or buy brings."""

from __future__ import annotations

import dataclasses

from doubtspec.invariants.mutants.mutant import Patch
from doubtspec.model import company, engine, legal
from doubtspec.model.actions import Action, Buy, BuySource, EndPlay
from doubtspec.model.game import Game
from doubtspec.model.state import GameState, OutcomeReason, Phase
from doubtspec.model.steps import StartCompanyTurn
from doubtspec.model.work import Work, sorted_with


def card_duplicated() -> tuple[Patch, ...]:
    def buy(w: Work, card: int, pay: tuple[int, ...]) -> None:
        # A bought card arrives twice in the discard pile.
        company.pay_budget(w, pay)
        w.c_discard = sorted_with(w.c_discard, card, card)
        w.buys += 1
        w.discount = 0

    return ((company, "buy", buy),)


def banned_cards_pay_nothing() -> tuple[Patch, ...]:
    def company_buys(state: GameState) -> list[Action]:
        # Banned cards in the hand are left out of every buy's payment.
        game = state.game
        payers = tuple(c for c in state.c_hand if game.company_card(c).kind not in state.banned)
        return [Buy(source, index, pay) for source, index, _, cost in legal.buy_offers(state)
                for pay in game.payments(payers, cost)]

    return ((legal, "company_buys", company_buys),)


def trash_at_face_value() -> tuple[Patch, ...]:
    def buy_cost(game: Game, card: int, from_trash: bool, discount: int) -> int:
        # The trash pile's extra cost forgotten.
        return max(0, game.budget[card] - discount)

    return ((company, "buy_cost", buy_cost), (legal, "buy_cost", buy_cost))


def trashed_budgetless_at_face_value() -> tuple[Patch, ...]:
    original = company.buy_cost

    def buy_cost(game: Game, card: int, from_trash: bool, discount: int) -> int:
        # A card of no Budget (a Restriction card) costs nothing from the trash pile either: the extra one forgotten.
        return original(game, card, from_trash and game.budget[card] > 0, discount)

    return ((company, "buy_cost", buy_cost), (legal, "buy_cost", buy_cost))


def discount_leftover_kept() -> tuple[Patch, ...]:
    def buy(w: Work, card: int, pay: tuple[int, ...]) -> None:
        # A discount larger than the card's Budget keeps the rest for the next buy.
        company.pay_budget(w, pay)
        w.c_discard = tuple(sorted((*w.c_discard, card)))
        w.buys += 1
        w.discount -= min(w.discount, w.game.budget[card])

    return ((company, "buy", buy),)


def pays_only_unequal() -> tuple[Patch, ...]:
    def can_pay(self: Game, others: tuple[int, ...], cost: int) -> bool:
        # The Economic Defeat check compares the rest of the hand with the cost by inequality, not "at least".
        return cost <= 0 or sum(self.budget[c] for c in others) != cost

    return ((Game, "can_pay", can_pay),)


def defeat_ignores_bans() -> tuple[Patch, ...]:
    original = legal.can_play_any

    def can_play_any(state: GameState) -> bool:
        # The start of the Company's turn counts banned cards as playable.
        return original(dataclasses.replace(state, banned=()))

    return ((engine, "can_play_any", can_play_any),)


def trash_not_counted_for_defeat() -> tuple[Patch, ...]:
    def can_buy_any(state: GameState) -> bool:
        # Only the piles and stacks count when the Play Phase ends: a trash card is no way out of Economic Defeat.
        total = sum(state.game.budget[c] for c in state.c_hand)
        return any(cost <= total for source, _, _, cost in legal.buy_offers(state) if source is not BuySource.TRASH)

    return ((engine, "can_buy_any", can_buy_any),)


def turn_opens_in_buy() -> tuple[Patch, ...]:
    original = engine._run_auto

    def run_auto(w: Work, step: object) -> None:
        original(w, step)
        # A Company that cannot play goes on to its Buy Phase, and loses only if it cannot buy either.
        if (isinstance(step, StartCompanyTurn) and w.outcome is not None
                and w.outcome.reason is OutcomeReason.ECONOMIC_DEFEAT and legal.can_buy_any(w.freeze())):
            w.outcome = None
            w.phase = Phase.COMPANY_BUY

    return ((engine, "_run_auto", run_auto),)


def one_buy_per_turn() -> tuple[Patch, ...]:
    original = legal.company_buys

    def company_buys(state: GameState) -> list[Action]:
        # "Buy at least one card" read as exactly one: after the first buy only the end of the phase is offered.
        return [] if state.buys else original(state)

    return ((legal, "company_buys", company_buys),)


def trash_defeat_top_only() -> tuple[Patch, ...]:
    def can_buy_any(state: GameState) -> bool:
        # The Buy Phase's defeat check looks at the trash pile's top card only, whatever ruling trash-buy says.
        total = sum(state.game.budget[c] for c in state.c_hand)
        top = len(state.trash) - 1
        return any(cost <= total for source, index, _, cost in legal.buy_offers(state)
                   if source is not BuySource.TRASH or index == top)

    return ((legal, "can_buy_any", can_buy_any), (engine, "can_buy_any", can_buy_any))


def defeat_named_marginalization() -> tuple[Patch, ...]:
    original = engine._run_auto

    def run_auto(w: Work, step: object) -> None:
        original(w, step)
        # A Company that cannot play at the start of its turn is declared Marginalized (the Movement wins either way).
        if (isinstance(step, StartCompanyTurn) and w.outcome is not None
                and w.outcome.reason is OutcomeReason.ECONOMIC_DEFEAT):
            w.outcome = dataclasses.replace(w.outcome, reason=OutcomeReason.MARGINALIZATION)

    return ((engine, "_run_auto", run_auto),)


def discount_cleared_at_end_play() -> tuple[Patch, ...]:
    original = engine._apply_free

    def apply_free(w: Work, action: Action) -> None:
        original(w, action)
        # Ending the Play Phase clears the turn's discount, so no discount ever reaches a buy.
        if isinstance(action, EndPlay):
            w.discount = 0

    return ((engine, "_apply_free", apply_free),)
