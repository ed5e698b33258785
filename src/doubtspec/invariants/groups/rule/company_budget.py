"""`rule.*` postconditions of Spending Budget: the payments offered for a play, and buying cards."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from itertools import combinations
from typing import TypeVar, cast

from doubtspec.invariants.derived import (
    MEMO_SIZE,
    at_rest,
    budget_of,
    buy_costs,
    from_card_data,
    legal,
    loopholes,
    memo,
    replace,
    taken_out,
    within_reach,
)
from doubtspec.invariants.groups.rule.company_play import company_play_check, moved_to_play
from doubtspec.invariants.groups.rule.frame import minus, sorted_cards, unchanged_except
from doubtspec.invariants.shapes import Invariant, StateInvariant, TransitionInvariant
from doubtspec.model import engine
from doubtspec.model.actions import Action, Buy, BuySource, PlayReserve, PlayStandard
from doubtspec.model.state import GameState, Phase
from doubtspec.rulebook import Section

S = Section


_PAYMENTS = memo()


def _payments(state: GameState, others: tuple[int, ...], cost: int, minimal: bool) -> frozenset[frozenset[int]]:
    """The sets of `others` that pay `cost` (none superfluous when `minimal`), from the card data (kept by hand)."""
    key = (state.game, others, cost, minimal)
    found = _PAYMENTS.get(key)
    if found is not None:
        return cast("frozenset[frozenset[int]]", found)
    budget = state.game.budget
    expected = set()
    for size in range(len(others) + 1):
        for subset in combinations(others, size):
            total = sum(budget[c] for c in subset)
            if total < cost or (cost <= 0 and minimal and subset):
                continue
            if minimal and cost > 0 and any(total - budget[c] >= cost for c in subset):
                continue
            expected.add(frozenset(subset))
    result = frozenset(expected)
    if len(_PAYMENTS) >= MEMO_SIZE:
        _PAYMENTS.clear()
    _PAYMENTS[key] = result
    return result


def _play_phase_rest(state: GameState) -> bool:
    """Any rest of the Company's Play Phase, before its first play or after any (where `rule.payment-offers` asks)."""
    return at_rest(state) and state.phase is Phase.COMPANY_PLAY


def _payment_offers(state: GameState) -> str | None:
    """At every rest of a Play Phase, each card in hand is offered for each side it may be played with, and with
    every way to pay for it.

    Spending Budget (ruling budget-payment): a play is paid with a set of the other hand cards whose
    Budget covers the cost, from which (under the default `minimal`) no card can be dropped. For each
    card in hand and each of its sides, the payments the engine offers must be exactly those sets,
    enumerated here from the card data, or none where the side may not be played (a banned kind, its
    standard side only through Loopholes: Company Interference). Asked after every play as well as before
    the first: the Play Phase goes on for as long as the hand pays (On Your Go), so a rule that changes once
    a card has been played (a Reserve filled only first, fewer payers later) passes a check of the first
    play alone. Before the first play it is also asked, as what-ifs, of the same hand short of its last
    card (a full hand leaves an even number of other cards beside each play, and a rule that fails only
    for an odd number, a set of all the others left out, would go unseen) and of the hand with a card of no
    Budget added (`_with_budgetless_card`).
    """
    if not _play_phase_rest(state):
        return None
    message = _payments_offered(state)
    if message is None and not state.plays and len(state.c_hand) >= 2:
        message = _payments_offered(replace(state, c_hand=state.c_hand[:-1]))
        if message is not None:
            message = f"with the hand short of its last card: {message}"
    if message is None and not state.plays and state.round % 2:
        message = _with_budgetless_card(state)
    if message is not None and state.plays:
        message = f"after {state.plays} plays: {message}"
    return message


@from_card_data
def _budgetless(state: GameState) -> tuple[int, ...]:
    """The Company cards of no Budget, lowest number first."""
    return tuple(sorted(c for c in state.cards.company if not state.game.budget[c]))


def _with_budgetless_card(state: GameState) -> str | None:
    """`_payments_offered` with a card of no Budget (a Restriction card) moved into the hand, in odd rounds, one in
    turn with the round. Such a card pays nothing towards a cost, yet under ruling budget-payment=any-cover it may
    still be among the cards discarded, and a hand rarely holds one (Goals deal them, and the ruling's variant plays
    few examples). Every turn cost 3% of a ci run; every other turn still finds bug 240 in that variant. A play
    paid with it is also made and checked by `rule.company-play`: the card is discarded with the rest."""
    spare = [c for c in _budgetless(state) if c not in state.c_hand]
    if not spare:
        return None
    card = spare[state.round // 2 % len(spare)]
    probe = moved_to_play(state, card, None)
    if probe is None:
        return None
    message = _payments_offered(probe)
    if message is None:
        # A payment that holds the card (only any-cover offers one) discards it with the rest: play the first.
        play = next((a for a in legal(probe) if isinstance(a, PlayStandard | PlayReserve) and card in a.pay), None)
        if play is not None:
            message = company_play_check(probe, play, engine.apply(probe, play))
    return None if message is None else f"with card {card} (no Budget) moved into the hand: {message}"


def _payments_offered(state: GameState) -> str | None:
    """`_payment_offers` for one hand: the payments offered for each play against those of the card data."""
    minimal = state.rulings.get("budget-payment") == "minimal"
    offered, twice = _payment_sets(((type(a), a.card), a, a.pay) for a in legal(state)
                                   if isinstance(a, PlayStandard | PlayReserve))
    if twice is not None:
        return twice
    for kind, card in offered:
        data = state.game.company_card(card)
        if (data.standard if kind is PlayStandard else data.reserve) is None:
            return f"a {kind.__name__} of card {card}, which has no such side, is offered"
    through_loopholes = loopholes(state)
    for card in dict.fromkeys(state.c_hand):
        data = state.game.company_card(card)
        banned = data.kind in state.banned
        for kind, side, playable in ((PlayStandard, data.standard, not banned or through_loopholes),
                                     (PlayReserve, data.reserve, not banned)):
            if side is None:
                continue
            expected = _payments(state, minus(state.c_hand, (card,)), side.cost, minimal) if playable \
                else frozenset()
            pays = offered.get((kind, card), set())
            if pays != expected:
                missing = sorted(sorted(p) for p in expected - pays)
                extra = sorted(sorted(p) for p in pays - expected)
                why = "" if playable else f" (its kind {data.kind} is banned)"
                return (f"{kind.__name__} of card {card} (cost {side.cost}){why} is offered with payments missing "
                        f"{missing} and extra {extra}")
    return None


_Offer = TypeVar("_Offer", bound=Hashable)


def _payment_sets(offers: Iterable[tuple[_Offer, Action, tuple[int, ...]]]
                  ) -> tuple[dict[_Offer, set[frozenset[int]]], str | None]:
    """The payments offered for each play or buy, as sets of hand cards, and a message if one is offered twice.

    Spending Budget: a payment is a set of hand cards; the same set in another order is the same payment, so each
    is offered once (a list that offers it twice weighs that payment double for a player choosing at random)."""
    sets: dict[_Offer, set[frozenset[int]]] = {}
    for offer, action, pay in offers:
        pays = sets.setdefault(offer, set())
        if frozenset(pay) in pays:
            return sets, f"{action}: the payment {sorted(pay)} is offered twice for the same card (in another order)"
        pays.add(frozenset(pay))
    return sets, None


def buy_price(state: GameState, source: BuySource, index: int) -> int | None:
    """Buying Cards: the Budget of the card on offer, plus one from the trash pile, less discounts (never
    below zero); None when nothing may be bought there."""
    for offer_source, offer_index, cost in buy_costs(state):
        if offer_source is source and offer_index == index:
            return cost
    return None


def _buy(before: GameState, action: Action, after: GameState) -> str | None:
    if not isinstance(action, Buy) or before.pending:
        return None
    price = buy_price(before, action.source, action.index)
    if price is None:
        return f"{action} bought from a place that offers nothing to buy"
    paid = budget_of(before, action.pay)
    if paid < price:
        return f"{action} paid {paid} Budget for a card costing {price}"
    match action.source:
        case BuySource.PILE:
            card = before.piles[action.index][-1]
            moved = ("piles",)
            if after.piles[action.index] != before.piles[action.index][:-1]:
                return f"{action} did not take the top card of pile {action.index}"
        case BuySource.STACK:
            card = before.stacks[action.index][-1]
            moved = ("stacks",)
            if after.stacks[action.index] != before.stacks[action.index][:-1]:
                return f"{action} did not take the top card of stack {action.index}"
        case BuySource.TRASH:
            card = before.trash[action.index]
            moved = ("trash",)
            if after.trash != before.trash[:action.index] + before.trash[action.index + 1:]:
                return f"{action} did not take card {card} from the trash pile"
    if after.c_hand != minus(before.c_hand, action.pay):
        return f"{action} left the hand {list(after.c_hand)}"
    if after.c_discard != sorted_cards((*before.c_discard, *action.pay, card)):
        return f"{action}: the bought card {card} and the payment {list(action.pay)} go to the discard pile"
    if after.buys != before.buys + 1 or after.discount != 0:
        return f"{action} left buys {after.buys} and discount {after.discount} (expected {before.buys + 1} and 0)"
    return unchanged_except(before, after, ("c_hand", "c_discard", "buys", "discount", *moved), action)


def _buy_payments_offered(state: GameState) -> str | None:
    """Spending Budget (ruling budget-payment): a buy is paid like a play, with every set of hand cards whose Budget
    covers the price (none superfluous under the default `minimal`), each offered and no other."""
    minimal = state.rulings.get("budget-payment") == "minimal"
    offered, twice = _payment_sets(((a.source, a.index), a, a.pay) for a in engine.legal_actions(state)
                                   if isinstance(a, Buy))
    if twice is not None:
        return twice
    for source, index, cost in buy_costs(state):
        expected = _payments(state, state.c_hand, cost, minimal)
        pays = offered.get((source, index), set())
        if pays != expected:
            missing = sorted(sorted(p) for p in expected - pays)
            extra = sorted(sorted(p) for p in pays - expected)
            return (f"a buy from {source.value}:{index} (price {cost}) is offered with payments missing {missing} and "
                    f"extra {extra}")
    return None


def _buy_offers(state: GameState) -> str | None:
    """At every rest of a Buy Phase, the payments offered for each card (`_buy_payments_offered`), then price every
    card on offer just within and just beyond the hand's Budget.

    Trash-pile cards and exact prices are rare in generated games; a discount set so that each card costs
    the hand's Budget exactly, and one more, asks the engine's legality about both sides of every price.
    A discount beyond the whole price leaves it at zero (the trash pile's extra one included), so the card
    is bought with no payment at all. In odd rounds every kind in the hand is banned first: banned cards
    still pay, so the prices come out the same. The Company buys cards one at a time for as long as its hand
    pays (On Your Go, Buy Phase), so the same holds after each buy: a reading that ends the phase after one buy
    passes every check made before the first.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_BUY:
        return None
    message = _buy_payments_offered(state) or _budgetless_on_trash(state)
    if message is not None:
        return message
    total = budget_of(state, state.c_hand)
    budget = state.game.budget
    # The hand's kinds banned as well (one probe of the two): a banned card is still spent as Budget
    # (Interference), and a hand with a banned card at a Buy Phase is rare in generated games.
    kinds = {state.game.company_card(c).kind for c in state.c_hand} - set(state.banned)
    banning = bool(kinds) and state.round % 2 == 1
    if banning:
        state = replace(state, banned=tuple(sorted({*state.banned, *kinds})))
    how = ", every kind in the hand banned" if banning else ""
    offers = buy_costs(replace(state, discount=0))
    # One offer a turn (in turn with the round) is also bought with a discount beyond its price.
    chosen = offers[state.round % len(offers)][:2] if offers else None
    for source, index, _ in offers:
        card = (state.piles if source is BuySource.PILE else state.stacks)[index][-1] \
            if source is not BuySource.TRASH else state.trash[index]
        full = budget[card] + (1 if source is BuySource.TRASH else 0)
        for discount, offered in ((full - total, True), (full - total - 1, False)):
            if discount < 0 or (not offered and full - discount <= 0):
                continue
            probe = replace(state, discount=discount)
            buys = {(a.source, a.index) for a in engine.legal_actions(probe) if isinstance(a, Buy)}
            if ((source, index) in buys) is not offered:
                where = f"{source.value}:{index}"
                return (f"with a discount of {discount}{how}, {where} (Budget {budget[card]}"
                        f"{' plus one from the trash' if source is BuySource.TRASH else ''}) costs "
                        f"{max(0, full - discount)} against a hand of {total} Budget, but was "
                        f"{'not ' if offered else ''}offered")
        free = replace(state, discount=full + 1)
        if Buy(source, index, ()) not in engine.legal_actions(free):
            return (f"with a discount of {full + 1}{how}, {source.value}:{index} (Budget {budget[card]}"
                    f"{' plus one from the trash' if source is BuySource.TRASH else ''}) costs nothing, but was "
                    f"not offered without a payment")
        if (source, index) == chosen:
            # A reduction serves one buy, never below zero: what it leaves unused is lost with it (ruling
            # discount-scope), so this buy (checked by `rule.buy`) leaves no discount for the next.
            message = _buy(free, Buy(source, index, ()), engine.apply(free, Buy(source, index, ())))
            if message is not None:
                return f"with a discount of {full + 1}, more than the price: {message}"
    return None


def _budgetless_on_trash(state: GameState) -> str | None:
    """In even rounds, a card of no Budget (a Restriction card, one in turn with the round) laid on the trash pile and
    the hand put on the discard pile: with no Budget to pay, exactly the cards that cost nothing are offered.

    Buying Cards: a card from the trash pile costs its Budget plus one, whatever its kind, under either reading of
    restriction-pile-buy; a Restriction card reaches the trash pile only through a card that trashes it, which
    generated games seldom play, and the price probes of `_buy_offers` cannot price a card of cost 1 against a hand
    that holds any Budget."""
    spare = _budgetless(state)
    if state.round % 2 or not spare:
        return None
    card = spare[state.round // 2 % len(spare)]
    if not within_reach(state, card):
        return None  # e.g. a Goal's Restriction card: out of the Company's reach
    base = taken_out(state, card)
    probe = replace(base, c_hand=(), c_discard=sorted_cards((*minus(base.c_discard, (card,)), *base.c_hand)),
                    trash=(*base.trash, card))
    buys = {(a.source, a.index) for a in engine.legal_actions(probe) if isinstance(a, Buy)}
    for source, index, cost in buy_costs(probe):
        if ((source, index) in buys) is not (cost == 0):
            return (f"with card {card} (no Budget) on the trash pile and no card in hand, {source.value}:{index} "
                    f"costs {cost} (a trash card's Budget plus one), but was {'not ' if cost == 0 else ''}offered")
    return None


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("rule.payment-offers", "At every rest of the Play Phase, each card in hand is offered for each "
                   "side it may be played with (banned kinds only through Loopholes, and never to the Reserve), with "
                   "every set of other hand cards that pays its cost (none superfluous, under ruling "
                   "budget-payment=minimal), and no other.",
                   (S.SPENDING_BUDGET, S.COMPANY_INTERFERENCE), _payment_offers, _play_phase_rest),
    TransitionInvariant("rule.buy", "A buy takes the offered card, pays its Budget (plus one from the trash, less "
                        "discounts) and puts card and payment in the discard pile; nothing else changes.",
                        (S.BUYING_CARDS, S.SPENDING_BUDGET), _buy),
    StateInvariant("rule.buy-offers", "Every card on offer can be bought exactly when the hand's Budget covers its "
                   "price (Budget, plus one from the trash, less discounts), with every set of hand cards that pays "
                   "it (none superfluous, under ruling budget-payment=minimal); banned cards pay too.",
                   (S.BUYING_CARDS, S.COMPANY_INTERFERENCE), _buy_offers),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
