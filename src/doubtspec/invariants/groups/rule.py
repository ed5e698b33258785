"""The `rule` invariants: what each kind of action must do, and that it does nothing else.

Conservation laws (the `tokens` and `cards` groups) catch a rule that loses or duplicates a piece,
but not one that moves the right pieces by the wrong amount or at the wrong moment. Each check here
is a postcondition of one kind of action, written from its rulebook section and the card data (never
from the engine's rule functions): what the action pays and gains, where each card goes, what a
phase clears, and a frame check that every other part of the table is as it was.

An engine step runs the automatic steps that follow an action until the next decision or chance
event (`doubtspec.model.steps`), so a postcondition states what holds after the whole step: the
Movement's actions end with the start of the Company's turn (which may end the game in Economic
Defeat), a Draw Phase with too few cards runs the Reshuffle Sequence up to the first card drawn.
Where an effect that needs a choice interrupts a step, the check states only what is already
decided.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable
from itertools import combinations

from doubtspec.invariants.derived import at_rest, budget_of, buy_costs, hand_limit, legal
from doubtspec.invariants.shapes import Invariant, StateInvariant, TransitionInvariant
from doubtspec.model import engine
from doubtspec.model.actions import (
    Action,
    Agitate,
    Buy,
    BuySource,
    Chance,
    End,
    EndBuy,
    LobbyWhere,
    Message,
    MovementBuy,
    MovementPlay,
    OrganizePlay,
    Pass,
    PlaceDoubt,
    PlayReserve,
    PlayStandard,
    Unlobby,
)
from doubtspec.model.cards import (
    AddDoubt,
    AddRestriction,
    AddVictims,
    Ban,
    BonusKind,
    Discount,
    DrawCards,
    GainFlight,
    GainInfluence,
    MarketAction,
    ScoreProfit,
    TokenKind,
)
from doubtspec.model.state import NO_CARD, STATE_FIELDS, TOKEN_INDEX, Actor, GameState, OutcomeReason, Phase
from doubtspec.model.steps import Agitation, CompanyDraw, DrawToHandSize, Messaging, ScoreAndSeed
from doubtspec.rulebook import Section

S = Section

_TURN_START = frozenset({"phase", "pending", "plays", "buys", "discount", "unlobbied", "outcome"})
"""What the start of the Company's turn (after every Movement action) may change."""

_COMPANY_TABLE = ("c_deck", "c_hand", "c_discard", "c_reserve", "c_in_play", "piles", "stacks", "trash",
                  "c_removed", "victims", "doubt", "profit", "stars", "banned", "reshuffles")
"""The Company's side of the table: no Movement action but Messaging and a Goal touches it."""


def _frame(before: GameState, after: GameState, may_change: Iterable[str], action: Action) -> str | None:
    """Every state field outside `may_change` is unchanged."""
    allowed = set(may_change)
    for name in STATE_FIELDS:
        if name == "game" or name in allowed:
            continue
        if getattr(before, name) != getattr(after, name):
            return f"{action} changed {name} from {getattr(before, name)!r} to {getattr(after, name)!r}"
    return None


def _sorted(cards: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(cards))


def _minus(cards: tuple[int, ...], gone: Iterable[int]) -> tuple[int, ...]:
    left = Counter(cards)
    left.subtract(gone)
    return _sorted(left.elements())


def _supply(state: GameState, kind: TokenKind) -> int:
    return state.supply[TOKEN_INDEX[kind]]


# --- the Company -------------------------------------------------------------------------------


def _company_play(before: GameState, action: Action, after: GameState) -> str | None:
    """Standard and Reserve plays: the card and the payment leave the hand; the card's side is paid for."""
    if not isinstance(action, PlayStandard | PlayReserve) or before.pending:
        return None
    data = before.game.company_card(action.card)
    side = data.standard if isinstance(action, PlayStandard) else data.reserve
    if side is None:
        return f"{action} plays a side card {action.card} does not have"
    if action.card in action.pay:
        return f"{action} pays with the card it plays"
    paid = budget_of(before, action.pay)
    if paid < side.cost:
        return f"{action} pays {paid} Budget for a cost of {side.cost}"
    hand = _minus(before.c_hand, (action.card, *action.pay))
    if after.plays != before.plays + 1:
        return f"{action} took the plays this turn from {before.plays} to {after.plays}"
    if isinstance(action, PlayReserve):
        # Reserve Effects: face up at the right end of the Reserve; nothing resolves yet.
        if after.c_hand != hand or after.c_discard != _sorted(before.c_discard + action.pay):
            return (f"{action} left hand {list(after.c_hand)} and discard {list(after.c_discard)}, expected "
                    f"{list(hand)} and {list(_sorted(before.c_discard + action.pay))}")
        if after.c_reserve != (*before.c_reserve, action.card):
            return f"{action} left the Reserve {list(after.c_reserve)}; the card goes at its right end"
        return _frame(before, after, ("c_hand", "c_discard", "c_reserve", "plays"), action)
    # Standard Effects: the play's own effects and the Reserve cards it triggers resolve now; those
    # that need a choice (Doubt, Lobbying, Market removal, trashing) and the draws come as later steps.
    if after.c_hand != hand:
        return f"{action} left the hand {list(after.c_hand)}; expected {list(hand)}"
    if action.card not in after.c_in_play and action.card not in after.c_discard:
        return f"{action}: card {action.card} is neither resolving nor in the discard pile"
    problem = _frame(before, after, ("c_hand", "c_discard", "c_in_play", "c_deck", "victims", "profit", "discount",
                                     "plays", "pending", "supply"), action)
    if problem is not None:
        return problem
    if not after.pending and action.card in after.c_discard:
        return _standard_amounts(before, action, after, side.effects, side.trigger, side.icon)
    return None


def _standard_amounts(before: GameState, action: PlayStandard, after: GameState, effects: tuple[object, ...],
                      trigger: object, icon: object) -> str | None:
    """A play that resolved in one step: Victims, Profit and discounts are its effects' and its triggers'."""
    everything = list(effects)
    if trigger is not None:
        for card in before.c_reserve:
            data = before.game.company_card(card)
            reserve = data.reserve
            if reserve is not None and reserve.trigger is trigger and reserve.icon is icon \
                    and data.kind not in before.banned:
                everything.extend(reserve.effects)
    victims = list(before.victims)
    victim_supply = _supply(before, TokenKind.VICTIMS)
    profit_supply = _supply(before, TokenKind.PROFIT)
    profit, discount = before.profit, before.discount
    for effect in everything:
        match effect:
            case AddVictims(zone=zone, count=count):
                got = min(count, victim_supply)
                victim_supply -= got
                victims[zone] += got
            case ScoreProfit(count=count):
                got = min(count, profit_supply)
                profit_supply -= got
                profit += got
            case Discount(amount=amount):
                discount += amount
    if after.victims != tuple(victims):
        return f"{action} left Victims {list(after.victims)}; its effects make {victims}"
    if after.profit != profit:
        return f"{action} left the Company {after.profit} Profit; its effects make {profit}"
    if after.discount != discount:
        return f"{action} left a discount of {after.discount}; its effects make {discount}"
    return None



def _drawing_cards(state: GameState) -> list[tuple[int, tuple[int, ...]]]:
    """(card, Reserve cards): each standard side that draws, most cards drawn first, with the Reserve sides its
    play triggers (same trigger and icon), from the card data."""
    known = _DRAWING.get(id(state.cards))
    if known is not None and known[0] is state.cards:
        return known[1]
    found: list[tuple[int, int, tuple[int, ...]]] = []
    numbers = sorted(n for n, c in state.cards.company.items() if c is not None)
    for card in numbers:
        side = state.game.company_card(card).standard
        draws = 0 if side is None else sum(e.count for e in side.effects if isinstance(e, DrawCards))
        if side is None or not draws:
            continue
        triggered = tuple(other for other in numbers
                          if side.trigger is not None and other != card
                          and (reserve := state.game.company_card(other).reserve) is not None
                          and reserve.trigger is side.trigger and reserve.icon is side.icon)
        found.append((-draws, card, triggered))
    cards = [(card, triggered) for _, card, triggered in sorted(found)]
    _DRAWING[id(state.cards)] = (state.cards, cards)
    return cards


_DRAWING: dict[int, tuple[object, list[tuple[int, tuple[int, ...]]]]] = {}
"""`_drawing_cards` per card set (the card set itself kept, so that a recycled id is never mistaken)."""


def _moved_to_play(state: GameState, card: int, reserve_card: int | None) -> GameState | None:
    """`state` with `card` in the hand, `reserve_card` (if any) at the Reserve's right end and the deck and the
    discard pile emptied onto the trash pile; None when a card is out of the Company's reach."""
    moving = {card} if reserve_card is None else {card, reserve_card}
    places = [*state.c_deck, *state.c_discard, *state.c_hand, *state.c_reserve, *state.trash]
    places += [c for pile in state.piles for c in pile]
    if not moving <= set(places):
        return None
    rest = [c for c in (*state.c_deck, *state.c_discard) if c not in moving]
    reserve = tuple(c for c in state.c_reserve if c not in moving)
    return dataclasses.replace(
        state, c_deck=(), c_discard=(), c_hand=_sorted((*(c for c in state.c_hand if c not in moving), card)),
        c_reserve=reserve if reserve_card is None else (*reserve, reserve_card),
        trash=(*(c for c in state.trash if c not in moving), *rest),
        piles=tuple(tuple(c for c in pile if c not in moving) for pile in state.piles))


_PLAY_STEPS = 16
"""Choices and draws a what-if play makes (the first option each time) before it gives up on the play."""

_EMPTY_DRAW_PLAYS = 2
"""Plays one `rule.empty-draw-offers` check makes."""


def _empty_draw_offers(state: GameState) -> str | None:
    """At the start of each Play Phase, play cards that draw with nothing left to draw but their own payment.

    A draw in the Play Phase reshuffles the discards silently when the deck is empty and draws nothing
    when the discard pile is empty too (Reshuffle Sequence note); the play then goes on with what
    follows the draw (its other effects, the Reserve cards it triggers) and ends with the card in the
    discard pile. Generated games seldom empty both piles while such a card is in the hand; moving it
    into the hand (with a Reserve card it triggers into the Reserve) and the deck and the discards
    onto the trash pile, each play (paid with the fewest cards, its choices and draws made with the
    first option) must do what `rule.company-play` says, draw only what its payment put into the
    discard pile, end with the card in the discard pile and leave a legal move.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or state.plays:
        return None
    played = 0
    for card, triggered in _drawing_cards(state):
        probe = next((p for r in (*triggered, None) if (p := _moved_to_play(state, card, r)) is not None), None)
        if probe is None:
            continue
        plays = [a for a in engine.legal_actions(probe) if isinstance(a, PlayStandard) and a.card == card]
        if not plays:
            continue
        play = min(plays, key=lambda a: len(a.pay))
        try:
            message = _play_through(probe, play)
        except Exception as exc:  # a broken engine: the play cannot be followed through
            message = f"{play} made the engine raise {type(exc).__name__}: {exc}"
        if message is not None:
            reserve = f"card {probe.c_reserve[-1]} in the Reserve, " if probe.c_reserve else ""
            return f"with {reserve}an empty deck and discard pile: {message}"
        played += 1
        if played >= _EMPTY_DRAW_PLAYS:
            break
    return None


def _play_through(probe: GameState, play: PlayStandard) -> str | None:
    after = engine.apply(probe, play)
    message = _company_play(probe, play, after)
    for _ in range(_PLAY_STEPS):
        if message is not None or after.outcome is not None or not after.pending:
            break
        choices = engine.legal_actions(after)
        if not choices:
            return f"{play} left no legal move (next step: {after.pending[0]})"
        if engine.current_actor(after) is Actor.CHANCE and not after.c_deck:
            return f"{play} offers a draw ({after.pending[0]}) from an empty deck"
        after = engine.apply(after, choices[0])
    if message is not None or after.outcome is not None or after.pending:
        return message
    if card_total := Counter(after.c_hand + after.c_deck + after.c_discard) - Counter(probe.c_hand):
        return f"{play} brought cards {sorted(card_total.elements())} from outside the hand"
    hand = _minus(probe.c_hand, (play.card, *play.pay))
    if not set(hand) <= set(after.c_hand) or play.card not in after.c_discard:
        return (f"{play} ended with hand {list(after.c_hand)} and discard pile {list(after.c_discard)}; the rest of "
                f"the hand {list(hand)} stays, the card goes to the discard pile")
    if not engine.legal_actions(after):
        return f"{play} left no legal move"
    return None



def _doubt_count_offers(state: GameState) -> str | None:
    """At the start of each Play Phase, play a card whose Doubt effects place two or more tokens, all the way.

    An effect that needs a choice is resolved once per token it places (Standard Effects > Adding
    Doubt); a rule that stops after the first choice breaks no conservation law. With the cheapest
    such card moved into the hand (from wherever the Company has it), the Reserve moved to the discard
    pile (no trigger adds Doubt of its own), and the card played with the first option
    of each choice, the Doubt on the display must grow by the sum of its effects' counts, when every
    column has room for the largest count and the supply holds enough.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or state.plays:
        return None
    for card, counts in _doubt_cards(state):
        columns = state.cards.display.doubt_values
        if (state.supply_of(TokenKind.DOUBT) < sum(counts)
                or any(len(values) - present < max(counts) for values, present in zip(columns, state.doubt,
                                                                                         strict=True))):
            return None
        places = (state.c_deck, state.c_discard, state.c_hand, state.c_reserve, state.trash, *state.piles)
        if not any(card in place for place in places):
            continue

        def rest(cards: tuple[int, ...], moving: int = card) -> tuple[int, ...]:
            return tuple(c for c in cards if c != moving)

        # The Reserve goes to the discard pile, so that no Reserve card the play triggers adds Doubt of its own.
        probe = dataclasses.replace(state, c_deck=rest(state.c_deck),
                                    c_discard=_sorted(rest(state.c_discard) + rest(state.c_reserve)),
                                    c_hand=_sorted((*rest(state.c_hand), card)), c_reserve=(),
                                    trash=rest(state.trash), piles=tuple(rest(pile) for pile in state.piles))
        plays = [a for a in engine.legal_actions(probe) if isinstance(a, PlayStandard) and a.card == card]
        if not plays:
            continue
        play = min(plays, key=lambda a: len(a.pay))
        after = engine.apply(probe, play)
        for _ in range(_PLAY_STEPS):
            head = after.pending[0] if after.pending and after.outcome is None else None
            choices = engine.legal_actions(after) if head is not None else ()
            doubt = [a for a in choices if isinstance(a, PlaceDoubt)]
            if not doubt:
                break
            after = engine.apply(after, doubt[0])
        placed = sum(after.doubt) - sum(probe.doubt)
        if placed != sum(counts):
            return (f"{play} placed {placed} Doubt; its effects place {list(counts)} (the display had room and the "
                    f"supply {probe.supply_of(TokenKind.DOUBT)} tokens)")
        return None
    return None


def _doubt_cards(state: GameState) -> list[tuple[int, tuple[int, ...]]]:
    """(card, counts) of the standard sides whose Doubt effects place two or more tokens, cheapest first."""
    found = []
    for card, data in state.cards.company.items():
        side = None if data is None else data.standard
        if side is None:
            continue
        counts = tuple(e.count for e in side.effects if isinstance(e, AddDoubt))
        if counts and max(counts) >= 2:
            found.append((side.cost, card, counts))
    return [(card, counts) for _, card, counts in sorted(found)]


def _payment_offers(state: GameState) -> str | None:
    """At the start of each Play Phase, every way to pay for each play the engine offers is offered.

    Spending Budget (ruling budget-payment): a play is paid with a set of the other hand cards whose
    Budget covers the cost, from which (under the default `minimal`) no card can be dropped. For each
    card and side the engine offers at all, the payments it offers must be exactly those sets,
    enumerated here from the card data.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or state.plays:
        return None
    minimal = state.rulings.get("budget-payment") == "minimal"
    offered: dict[tuple[type, int], set[frozenset[int]]] = {}
    for action in legal(state):
        if isinstance(action, PlayStandard | PlayReserve):
            offered.setdefault((type(action), action.card), set()).add(frozenset(action.pay))
    for (kind, card), pays in offered.items():
        data = state.game.company_card(card)
        side = data.standard if kind is PlayStandard else data.reserve
        if side is None:
            return f"a {kind.__name__} of card {card}, which has no such side, is offered"
        others = [c for c in state.c_hand if c != card]
        expected = set()
        for size in range(len(others) + 1):
            for subset in combinations(others, size):
                total = budget_of(state, subset)
                if total < side.cost or (side.cost <= 0 and minimal and subset):
                    continue
                if minimal and side.cost > 0 and any(total - budget_of(state, (c,)) >= side.cost for c in subset):
                    continue
                expected.add(frozenset(subset))
        if pays != expected:
            missing = sorted(sorted(p) for p in expected - pays)
            extra = sorted(sorted(p) for p in pays - expected)
            return (f"{kind.__name__} of card {card} (cost {side.cost}) is offered with payments missing {missing} "
                    f"and extra {extra}")
    return None

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
    if after.c_hand != _minus(before.c_hand, action.pay):
        return f"{action} left the hand {list(after.c_hand)}"
    if after.c_discard != _sorted((*before.c_discard, *action.pay, card)):
        return f"{action}: the bought card {card} and the payment {list(action.pay)} go to the discard pile"
    if after.buys != before.buys + 1 or after.discount != 0:
        return f"{action} left buys {after.buys} and discount {after.discount} (expected {before.buys + 1} and 0)"
    return _frame(before, after, ("c_hand", "c_discard", "buys", "discount", *moved), action)


def _buy_offers(state: GameState) -> str | None:
    """At the start of each Buy Phase, price every card on offer just within and just beyond the hand's Budget.

    Trash-pile cards and exact prices are rare in generated games; a discount set so that each card costs
    the hand's Budget exactly, and one more, asks the engine's legality about both sides of every price.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_BUY or state.buys:
        return None
    total = budget_of(state, state.c_hand)
    budget = state.game.budget
    for source, index, _ in buy_costs(dataclasses.replace(state, discount=0)):
        card = (state.piles if source is BuySource.PILE else state.stacks)[index][-1] \
            if source is not BuySource.TRASH else state.trash[index]
        full = budget[card] + (1 if source is BuySource.TRASH else 0)
        for discount, offered in ((full - total, True), (full - total - 1, False)):
            if discount < 0 or (not offered and full - discount <= 0):
                continue
            probe = dataclasses.replace(state, discount=discount)
            buys = {(a.source, a.index) for a in engine.legal_actions(probe) if isinstance(a, Buy)}
            if ((source, index) in buys) is not offered:
                where = f"{source.value}:{index}"
                return (f"with a discount of {discount}, {where} (Budget {budget[card]}"
                        f"{' plus one from the trash' if source is BuySource.TRASH else ''}) costs "
                        f"{max(0, full - discount)} against a hand of {total} Budget, but was "
                        f"{'not ' if offered else ''}offered")
    return None


def _unlobby(before: GameState, action: Action, after: GameState) -> str | None:
    if not isinstance(action, Unlobby):
        return None
    field = "goal_profit" if action.where is LobbyWhere.GOAL else "market_profit"
    held: tuple[int, ...] = getattr(before, field)
    count = held[action.index]
    expected = (*held[:action.index], 0, *held[action.index + 1:])
    if getattr(after, field) != expected:
        return f"{action} left {field} {list(getattr(after, field))}; the card's {count} Profit all go"
    if _supply(after, TokenKind.PROFIT) != _supply(before, TokenKind.PROFIT) + count:
        return f"{action}: the {count} Profit tokens go back to the supply"
    if not after.unlobbied:
        return f"{action} did not use up the turn's removal"
    return _frame(before, after, (field, "supply", "unlobbied"), action)



def _unlobby_offers(state: GameState) -> str | None:
    """At the start of each Company turn, put one to three Profit on every card and take each back.

    Removing Lobbying needs Lobby plays on the Movement's cards first, and the Company seldom takes it
    back, so generated games hardly play an Unlobby; lobbying every card with a different count than
    its neighbours (tokens from the supply), the engine must offer exactly one Unlobby per card
    carrying Profit, and each one taken (the first and last Market space, the first and last Goal)
    must do what `rule.unlobby` says.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or state.plays or state.unlobbied:
        return None
    goals = state.rulings.get("lobby-targets") == "market-and-goals"
    spare = _supply(state, TokenKind.PROFIT) + sum(state.market_profit) + sum(state.goal_profit)

    def lobbied(cards: tuple[int, ...], start: int) -> tuple[int, ...]:
        nonlocal spare
        counts = []
        for i, card in enumerate(cards):
            count = min(1 + (start + i) % 3, spare) if card != NO_CARD else 0
            spare -= count
            counts.append(count)
        return tuple(counts)

    market_profit = lobbied(state.market, 0)
    goal_profit = lobbied(state.goals, len(state.market)) if goals else (0,) * len(state.goals)
    supply = list(state.supply)
    supply[TOKEN_INDEX[TokenKind.PROFIT]] = spare
    probe = dataclasses.replace(state, market_profit=market_profit, goal_profit=goal_profit, supply=tuple(supply))
    expected = {Unlobby(LobbyWhere.MARKET, i) for i, p in enumerate(market_profit) if p}
    expected |= {Unlobby(LobbyWhere.GOAL, i) for i, p in enumerate(goal_profit) if p}
    offered = [a for a in engine.legal_actions(probe) if isinstance(a, Unlobby)]
    if set(offered) != expected:
        return (f"with Profit {list(market_profit)} on the Market and {list(goal_profit)} on the Goals, the engine "
                f"offers {sorted(map(str, offered))}; one removal per card with Profit expected")
    tried = []
    for where in (LobbyWhere.MARKET, LobbyWhere.GOAL):
        mine = [a for a in offered if a.where is where]
        tried += mine[:1] + mine[-1:] if len(mine) > 1 else mine
    for action in tried:
        message = _unlobby(probe, action, engine.apply(probe, action))
        if message is not None:
            return f"with every card lobbied: {message}"
    return None

# --- the Draw Phase and the Reshuffle Sequence -------------------------------------------------


def _draw_first(state: GameState) -> bool:
    return state.rulings.get("draw-order") == "draw-first"


def _draw_phase(before: GameState, action: Action, after: GameState) -> str | None:
    """On Your Go, Draw Phase: the hand is discarded; fewer than five cards in the deck trigger a Reshuffle."""
    if not isinstance(action, EndBuy):
        return None
    size = before.cards.rules.company_hand_size
    if len(before.c_deck) >= size:
        if after.reshuffles != before.reshuffles:
            return f"a Draw Phase with {len(before.c_deck)} cards in the deck triggered a Reshuffle"
        if after.c_hand or after.c_discard != _sorted(before.c_discard + before.c_hand):
            return f"{action} did not discard the hand {list(before.c_hand)}"
        return _frame(before, after, ("c_hand", "c_discard", "phase", "pending"), action)
    if _draw_first(before) and before.c_deck:
        # Ruling draw-order=draw-first: the deck's last cards are drawn before the Sequence runs.
        head = after.pending[0] if after.pending else None
        if (after.reshuffles != before.reshuffles or not isinstance(head, CompanyDraw)
                or head.count != len(before.c_deck)):
            return (f"a Draw Phase with {len(before.c_deck)} cards in the deck left {head} to come and "
                    f"{after.reshuffles - before.reshuffles} Reshuffles run; under ruling draw-order=draw-first "
                    "the deck's cards are drawn before the Reshuffle Sequence")
        return None
    if after.reshuffles != before.reshuffles + 1:
        return (f"a Draw Phase with {len(before.c_deck)} cards in the deck (fewer than {size}) ran "
                f"{after.reshuffles - before.reshuffles} Reshuffles")
    return reshuffled_check(before, action, after)


def reshuffled_check(before: GameState, action: Action, after: GameState) -> str | None:
    """Reshuffle Sequence C and D: the Reserve resolves right to left into the trash; the discards join the deck.

    Checked when the Sequence ran to its draw in one step: no Reserve card with reshuffle effects
    (they may need choices) and no Star Victory (which ends the game at once, ruling star-timing).
    """
    if after.outcome is not None and after.outcome.reason is OutcomeReason.STAR_VICTORY:
        return None
    banned_stays = before.rulings.get("banned-reserve") == "stays-honoured"
    kept: list[int] = []
    trashed: list[int] = []
    for card in reversed(before.c_reserve):
        data = before.game.company_card(card)
        side = data.reserve
        banned = data.kind in before.banned
        if side is not None and side.on_reshuffle and not banned:
            return None
        if side is not None and side.stays and (banned_stays or not banned):
            kept.insert(0, card)
        else:
            trashed.append(card)
    if after.c_reserve != tuple(kept):
        return f"after the Reshuffle the Reserve holds {list(after.c_reserve)}; expected {kept}"
    if after.trash != before.trash + tuple(trashed):
        return (f"after the Reshuffle the trash pile is {list(after.trash)}; the Reserve's cards go on top from "
                f"right to left: {list(before.trash + tuple(trashed))}")
    drawing = after.pending and isinstance(after.pending[0], DrawToHandSize)
    if drawing or (after.outcome is not None and after.outcome.reason is OutcomeReason.MARGINALIZATION):
        deck = _sorted(before.c_deck + before.c_discard + before.c_hand)
        if after.c_discard or _sorted(after.c_deck + after.c_hand) != deck:
            return (f"after the Reshuffle the deck is {list(after.c_deck)} and the discard pile "
                    f"{list(after.c_discard)}; the discards join the deck")
    return None


def _reshuffle_trigger(before: GameState, action: Action, after: GameState) -> str | None:
    """Only the Draw Phase triggers the Reshuffle Sequence; a draw in the Play Phase reshuffles silently."""
    if after.reshuffles == before.reshuffles:
        return None
    if after.reshuffles != before.reshuffles + 1:
        return f"{action} ran {after.reshuffles - before.reshuffles} Reshuffles"
    if isinstance(action, EndBuy):
        return None  # `rule.draw-phase` checks the trigger's condition
    if isinstance(action, Chance) and before.phase is Phase.COMPANY_DRAW and _draw_first(before):
        return None
    return f"{action} in the {before.phase.value} phase triggered a Reshuffle"


def _draw_offers(state: GameState) -> str | None:
    """In each Buy Phase, play the Draw Phase with exactly five and with four cards left in the deck, and once
    with none left and a Reserve of at least two cards.

    Which deck sizes trigger the Reshuffle Sequence is decided once per turn, at whatever size the
    deck has; moving cards between the deck and the discard pile so that it holds the hand size, and
    one card fewer, asks the engine about both sides of the trigger every turn. With the deck emptied
    into the discard pile the Sequence runs at once under either draw-order ruling; the scoring of the
    table's Victims (`scoring.demographics`) and the Reserve's resolution into the trash pile, right to
    left (`reshuffled_check`; cards with a Reserve side and no reshuffle effects moved from the discard
    pile to fill it up to two), are checked on it every turn instead of at the few real Reshuffles.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_BUY or not state.buys:
        return None
    size = state.cards.rules.company_hand_size
    cards = _sorted(state.c_deck + state.c_discard)
    if len(cards) < size:
        return None
    for deck_size in (size, size - 1):
        probe = dataclasses.replace(state, c_deck=cards[:deck_size], c_discard=cards[deck_size:])
        after = engine.apply(probe, EndBuy())
        coming = after.reshuffles > probe.reshuffles or any(isinstance(s, ScoreAndSeed) for s in after.pending)
        if coming is not (deck_size < size):
            return (f"a Draw Phase with {deck_size} cards in the deck {'ran' if coming else 'did not run'} the "
                    f"Reshuffle Sequence (it runs when fewer than {size} are left)")
        message = _draw_phase(probe, EndBuy(), after)
        if message is not None:
            return message
    company = state.game.company_card
    fillers = [c for c in cards if (side := company(c).reserve) is not None and not side.on_reshuffle
               and not side.stays][:max(0, 2 - len(state.c_reserve))]
    probe = dataclasses.replace(state, c_deck=(), c_discard=_minus(cards, fillers),
                                c_reserve=(*state.c_reserve, *fillers))
    from doubtspec.invariants.groups.scoring import scoring_check

    after = engine.apply(probe, EndBuy())
    message = scoring_check(probe, EndBuy(), after) or reshuffled_check(probe, EndBuy(), after)
    if message is not None:
        return f"with the deck emptied into the discard pile and the Reserve {list(probe.c_reserve)}: {message}"
    return None


def _reshuffle_offers(state: GameState) -> str | None:
    """Before a Draw Phase that triggers a Reshuffle, score Profit at each threshold and one below it.

    Which Social Acceptance row seeds and whether a star is earned depend on the Profit scored, and
    generated games seldom score 12 or more; putting that many Victims among the Elderly (who score
    all and leave) and playing the Draw Phase asks the engine about every boundary of the chart and of
    the star threshold, checked by `scoring.demographics`' arithmetic.
    """
    if (not at_rest(state) or state.phase is not Phase.COMPANY_BUY or not state.buys
            or len(state.c_deck) >= state.cards.rules.company_hand_size or (_draw_first(state) and state.c_deck)):
        return None
    for card in state.c_reserve:
        reserve = state.game.company_card(card).reserve
        if reserve is not None and reserve.on_reshuffle:
            return None
    from doubtspec.invariants.groups.scoring import scoring_check

    rules, display = state.cards.rules, state.cards.display
    victims_total = sum(state.victims) + _supply(state, TokenKind.VICTIMS)
    boundaries = {rules.star_threshold - 1, rules.star_threshold}
    for row in display.chart:
        boundaries |= {row.min_profit - 1, row.min_profit}
    supply = list(state.supply)
    for scored in sorted(b for b in boundaries if 0 <= b <= victims_total):
        supply[TOKEN_INDEX[TokenKind.VICTIMS]] = victims_total - scored
        probe = dataclasses.replace(state, victims=(0, 0, 0, scored), supply=tuple(supply))
        after = engine.apply(probe, EndBuy())
        message = scoring_check(probe, EndBuy(), after)
        if message is not None:
            return f"what if {scored} Elderly scored: {message}"
    return None


# --- the Movement -------------------------------------------------------------------------------


@dataclasses.dataclass
class _Table:
    """The Movement's side of the table while a postcondition works out what an action must leave."""

    tableau: list[tuple[int, bool]]
    influence: int
    messaging: int
    agitation: int
    flight: int
    flight_spent: int
    supply: list[int]
    discard: list[int]

    @classmethod
    def of(cls, state: GameState) -> _Table:
        return cls(list(state.tableau), state.influence, state.messaging, state.agitation, state.flight,
                   state.flight_spent, list(state.supply), list(state.m_discard))

    def gain(self, kind: TokenKind, count: int) -> None:
        got = min(count, self.supply[TOKEN_INDEX[kind]])
        self.supply[TOKEN_INDEX[kind]] -= got
        name = kind.value
        setattr(self, name, getattr(self, name) + got)

    def refresh(self, count: int) -> None:
        """Flip the leftmost face-down cards face up."""
        for i, (card, up) in enumerate(self.tableau):
            if count <= 0:
                break
            if not up:
                self.tableau[i] = (card, True)
                count -= 1

    def pay(self, state: GameState, flip: tuple[int, ...], cost: int) -> str | None:
        """Spending Influence: flipped face-up cards give their Influence; tokens (Flight first) the rest."""
        value = 0
        for position in flip:
            card, up = self.tableau[position]
            if not up:
                return f"card {card} at Tableau position {position} is flipped for Influence while face down"
            value += state.game.movement_card(card).influence
            self.tableau[position] = (card, False)
        short = max(0, cost - value)
        flight = min(self.flight, short)
        self.flight -= flight
        self.flight_spent += flight
        tokens = short - flight
        if tokens > self.influence:
            return f"a cost of {cost} is paid with {value} from the Tableau and only {self.influence} Influence"
        self.influence -= tokens
        self.supply[TOKEN_INDEX[TokenKind.INFLUENCE]] += tokens
        return None

    def face_up(self, state: GameState, icon: str) -> int:
        return sum(getattr(state.game.movement_card(c).icons, icon) for c, up in self.tableau if up)

    def place(self, state: GameState, card: int, right: bool, remove: int | None) -> None:
        """Playing a Card: make room, place at an end, receive the Bonuses aligned with the adjacent face-up card."""
        if remove is not None:
            removed, _ = self.tableau.pop(remove)
            self.discard.append(removed)
        order = reversed(self.tableau) if right else iter(self.tableau)
        neighbour = next((other for other, up in order if up), None)
        if right:
            self.tableau.append((card, True))
        else:
            self.tableau.insert(0, (card, True))
        if neighbour is None:
            return
        new, other = state.game.movement_card(card), state.game.movement_card(neighbour)
        facing = Counter(other.right if right else other.left)
        refreshes = 0
        for kind in (new.left if right else new.right):
            if facing[kind] <= 0:
                continue
            facing[kind] -= 1
            match kind:
                case BonusKind.INFLUENCE:
                    self.gain(TokenKind.INFLUENCE, 1)
                case BonusKind.MESSAGING:
                    self.gain(TokenKind.MESSAGING, 1)
                case BonusKind.AGITATION:
                    self.gain(TokenKind.AGITATION, 1)
                case _:
                    refreshes += 1
        self.refresh(refreshes)

    def compare(self, after: GameState, action: Action) -> str | None:
        for name, expected in (("tableau", tuple(self.tableau)), ("influence", self.influence),
                               ("messaging", self.messaging), ("agitation", self.agitation),
                               ("flight", self.flight), ("flight_spent", self.flight_spent)):
            if getattr(after, name) != expected:
                return f"{action} left {name} {getattr(after, name)!r}; the rules give {expected!r}"
        return None


_MOVEMENT_TABLE = ("tableau", "influence", "messaging", "agitation", "flight", "flight_spent", "supply")


def movement_play_check(before: GameState, action: Action, after: GameState) -> str | None:
    """Playing a Card: pay its Influence, place it at an end, receive the aligned Bonuses of the adjacent card."""
    if not isinstance(action, MovementPlay):
        return None
    table = _Table.of(before)
    problem = table.pay(before, action.flip, before.game.movement_card(action.card).influence)
    if problem is not None:
        return f"{action}: {problem}"
    table.place(before, action.card, action.end is End.RIGHT, action.remove)
    problem = table.compare(after, action)
    if problem is not None:
        return problem
    if after.m_hand != _minus(before.m_hand, (action.card,)) or after.m_discard != _sorted(table.discard):
        return f"{action} left hand {list(after.m_hand)} and discard {list(after.m_discard)}"
    return _frame(before, after, (*_MOVEMENT_TABLE, "m_hand", "m_discard", *_TURN_START), action)




def _flip_offers(state: GameState) -> str | None:
    """On each Movement turn, ask which buys the engine offers paid by flipping one face-up card.

    Spending Influence: a face-up Tableau card may be flipped for its Influence value, and tokens pay the
    rest. With the Movement's Influence tokens back in the supply (its Flight kept), every Market card
    that the tokens alone cannot pay but one face-up card's value and the tokens can must be offered for
    that one flip (a single flip is never superfluous), while the hand is below its limit.
    """
    if (not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN or len(state.m_hand) >= hand_limit(state)
            or not any(up for _, up in state.tableau)):
        return None
    supply = list(state.supply)
    supply[TOKEN_INDEX[TokenKind.INFLUENCE]] += state.influence
    probe = dataclasses.replace(state, influence=0, supply=tuple(supply))
    offered = {(a.space, a.flip) for a in engine.legal_actions(probe) if isinstance(a, MovementBuy)}
    tokens = probe.flight
    for position, (card, up) in enumerate(probe.tableau):
        value = probe.game.movement_card(card).influence
        if not up or value <= 0:
            continue
        for space, market_card in enumerate(probe.market):
            cost = probe.cards.market[space].cost + probe.market_profit[space]
            if market_card != NO_CARD and tokens < cost <= value + tokens and (space, (position,)) not in offered:
                return (f"with {tokens} Flight and no Influence tokens, buying space {space} (cost {cost}) by "
                        f"flipping Tableau card {position} (value {value}) is not offered")
    return None

def _organize_play(before: GameState, action: Action, after: GameState) -> str | None:
    """Buying a Card > Organize: a card from the hand played for free at the chosen end, with its Bonuses."""
    if not isinstance(action, OrganizePlay):
        return None
    table = _Table.of(before)
    table.place(before, action.card, action.end is End.RIGHT, action.remove)
    problem = table.compare(after, action)
    if problem is not None:
        return problem
    if action.card in after.m_hand or after.m_discard != _sorted(table.discard):
        return f"{action} left hand {list(after.m_hand)} and discard {list(after.m_discard)}"
    return None


def _organize_offers(state: GameState) -> str | None:
    """On each Movement turn with a hand, buy the Organize space's card and play a card from the hand at each end.

    The free play of Organize is offered only after buying that one space's card with a hand to play
    from, which generated games seldom do and the steering rarely follows with a play; giving the
    Movement the Influence the space costs (from the supply) and buying it, each end's first free
    play must do what `rule.organize-play` says.
    """
    if not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN or not state.m_hand:
        return None
    spaces = [i for i, space in enumerate(state.cards.market)
              if space.action is MarketAction.ORGANIZE and state.market[i] != NO_CARD]
    if not spaces:
        return None
    space = spaces[0]
    short = max(0, state.cards.market[space].cost + state.market_profit[space] - state.influence)
    if short > _supply(state, TokenKind.INFLUENCE):
        return None
    supply = list(state.supply)
    supply[TOKEN_INDEX[TokenKind.INFLUENCE]] -= short
    probe = dataclasses.replace(state, influence=state.influence + short, supply=tuple(supply))
    buy = MovementBuy(space, ())
    if buy not in engine.legal_actions(probe):
        return None
    bought = engine.apply(probe, buy)
    plays = [a for a in engine.legal_actions(bought) if isinstance(a, OrganizePlay)] if bought.pending else []
    for end in (End.LEFT, End.RIGHT):
        play = next((a for a in plays if a.end is end), None)
        if play is not None:
            message = _organize_play(bought, play, engine.apply(bought, play))
            if message is not None:
                return f"after buying the Organize space {space}: {message}"
    return None

def _movement_buy(before: GameState, action: Action, after: GameState) -> str | None:
    """Buying a Card: pay the space's cost plus one per Profit on the card; the Profit goes back; the
    space's Action; then the card to the hand."""
    if not isinstance(action, MovementBuy):
        return None
    space = before.cards.market[action.space]
    lobbied = before.market_profit[action.space]
    table = _Table.of(before)
    problem = table.pay(before, action.flip, space.cost + lobbied)
    if problem is not None:
        return f"{action}: {problem}"
    if _supply(after, TokenKind.PROFIT) != _supply(before, TokenKind.PROFIT) + lobbied or after.profit != before.profit:
        return f"{action}: the {lobbied} Profit on the card go back to the Company's supply"
    card = before.market[action.space]
    frame = [*_MOVEMENT_TABLE, "m_hand", "market", "market_profit", *_TURN_START]
    match space.action:
        case MarketAction.REFRESH:
            table.refresh(1)
        case MarketAction.RESEARCH:
            table.gain(TokenKind.INFLUENCE, 2 * table.face_up(before, "research"))
        case _:
            # Messaging, Agitation and Organize are choices that follow; here only the payment is done.
            return table.compare(after, action) or _frame(before, after, (*frame, "m_deck", "m_discard"), action)
    problem = table.compare(after, action)
    if problem is not None:
        return problem
    if after.m_hand != _sorted((*before.m_hand, card)) or after.market[action.space] != NO_CARD:
        return f"{action}: card {card} goes from space {action.space} to the hand after the Action"
    return _frame(before, after, frame, action)


def _pass(before: GameState, action: Action, after: GameState) -> str | None:
    """On Your Go, Pass: one Influence, two with none at all (ruling pass-bonus)."""
    if not isinstance(action, Pass):
        return None
    none = before.influence == 0
    if before.rulings.get("pass-bonus") == "no-influence":
        none = none and not any(up for _, up in before.tableau)
    table = _Table.of(before)
    table.gain(TokenKind.INFLUENCE, 2 if none else 1)
    if after.influence != table.influence:
        return f"passing with {before.influence} Influence left {after.influence}; the rule gives {table.influence}"
    return _frame(before, after, ("influence", "supply", *_TURN_START), action)


def _message(before: GameState, action: Action, after: GameState) -> str | None:
    """Messaging: each Victim removed goes back to the Company's supply and gains the Movement one Influence."""
    if not isinstance(action, Message) or not before.pending or not isinstance(before.pending[0], Messaging):
        return None
    zone, victims = action.zone, action.victims
    if after.victims[zone] != before.victims[zone] - victims or any(
            after.victims[z] != before.victims[z] for z in range(len(before.victims)) if z != zone):
        return f"{action} took the Victims from {list(before.victims)} to {list(after.victims)}"
    if _supply(after, TokenKind.VICTIMS) != _supply(before, TokenKind.VICTIMS) + victims:
        return f"{action}: the {victims} Victims go back to the Company's supply"
    table = _Table.of(before)
    table.gain(TokenKind.INFLUENCE, victims)
    if after.influence != table.influence:
        return f"{action} left {after.influence} Influence; removing {victims} Victims gives {table.influence}"
    return _frame(before, after, ("victims", "doubt", "messaging", "influence", "supply", "m_hand", "market",
                                  *_TURN_START), action)


def _goal(before: GameState, action: Action, after: GameState) -> str | None:
    """Agitation and Goals: achieve the Goal when icons and tokens cover its cost (plus its Profit, less the
    Agitation on it), with exactly its effects; otherwise the Agitation stays on it as progress."""
    if not isinstance(action, Agitate) or not before.pending or not isinstance(before.pending[0], Agitation):
        return None
    icons, slot = before.pending[0].icons, action.slot
    number = before.goals[slot]
    goal = before.game.goal(number)
    need = goal.cost + before.goal_profit[slot] - before.goal_agitation[slot]
    if after.agitation != before.agitation - action.tokens:
        return f"{action} left {after.agitation} Agitation tokens; {action.tokens} were spent"
    frame = ["goals", "goal_profit", "goal_agitation", "achieved", "agitation", "supply", "m_hand", "market",
             *_TURN_START]
    if icons + action.tokens < need:
        if number not in after.goals:
            return f"{action} achieved Goal {number} with {icons + action.tokens} Agitation of the {need} it needs"
        return _frame(before, after, frame, action)
    if after.goals[slot] != NO_CARD or after.achieved != (*before.achieved, number):
        return f"{action} with {icons + action.tokens} Agitation of {need} did not achieve Goal {number}"
    if after.goal_profit[slot] or after.goal_agitation[slot] or after.profit != before.profit:
        return f"{action}: achieving Goal {number} returns its Profit to the Company's supply and clears its Agitation"
    # Exactly the Goal's effects: its bans, its Restriction cards, its Flight and Influence.
    bans: list[str] = []
    for effect in goal.effects:
        if isinstance(effect, Ban) and effect.kind not in before.banned and effect.kind not in bans:
            bans.append(effect.kind)
    bans = bans[:_supply(before, TokenKind.BANS)]
    if after.banned != tuple(sorted((*before.banned, *bans))):
        return f"achieving Goal {number} ({goal.name}) banned {list(after.banned)}; it bans {sorted(bans)} more"
    restrictions = sum(e.count for e in goal.effects if isinstance(e, AddRestriction))
    piles, discard = list(before.piles), list(before.c_discard)
    pile = next((i for i, p in enumerate(before.cards.piles) if p.kind == "restriction"), None)
    if pile is not None:
        for _ in range(restrictions):
            if piles[pile]:
                discard.append(piles[pile][-1])
                piles[pile] = piles[pile][:-1]
    if after.piles != tuple(piles) or after.c_discard != _sorted(discard):
        return (f"achieving Goal {number} ({goal.name}) left the discard pile {list(after.c_discard)}; "
                f"it adds {restrictions} Restriction card(s) from the pile: {_sorted(discard)}")
    table = _Table.of(before)
    table.gain(TokenKind.FLIGHT, sum(e.count for e in goal.effects if isinstance(e, GainFlight)))
    table.gain(TokenKind.INFLUENCE, sum(e.count for e in goal.effects if isinstance(e, GainInfluence)))
    if after.flight != table.flight or after.influence != table.influence:
        return (f"achieving Goal {number} left Flight {after.flight} and Influence {after.influence}; "
                f"its effects give {table.flight} and {table.influence}")
    points = sum(before.game.goal(g).points for g in after.achieved)
    won = after.outcome is not None and after.outcome.reason is OutcomeReason.GOAL_VICTORY
    if won is not (points >= before.cards.rules.goal_points_to_win):
        return f"with {points} Goal points achieved the game {'ended' if won else 'went on'}"
    return _frame(before, after, (*frame, "banned", "piles", "c_discard", "flight", "influence"), action)


def _pacing(before: GameState, action: Action, after: GameState) -> str | None:
    """Pacing, after the Company's Reshuffle Sequence: passives (and Refresh passives), the Market's shift, Flight.

    Checked on the step that ends the Company's turn after a Reshuffle (its last draw): it runs step 1
    and the shift of step 2, and stops at the refill's first draw, or, with nothing to refill, runs on
    to step 3 and the Movement's turn.
    """
    if (before.phase is not Phase.COMPANY_DRAW or after.outcome is not None
            or after.phase not in (Phase.PACING, Phase.MOVEMENT_TURN) or not _reshuffled_this_turn(before)):
        return None
    table = _Table.of(before)
    influence = messaging = agitation = refreshes = 0
    for card, up in before.tableau:
        if up:
            passive = before.game.movement_card(card).passive
            influence, messaging = influence + passive.influence, messaging + passive.messaging
            agitation, refreshes = agitation + passive.agitation, refreshes + passive.refresh
    for goal in before.achieved:
        passive = before.game.goal(goal).passive
        influence, messaging = influence + passive.influence, messaging + passive.messaging
        agitation += passive.agitation
    table.gain(TokenKind.INFLUENCE, influence)
    table.gain(TokenKind.MESSAGING, messaging)
    table.gain(TokenKind.AGITATION, agitation)
    table.refresh(refreshes)
    if after.phase is Phase.MOVEMENT_TURN:
        table.flight, table.flight_spent = table.flight + table.flight_spent, 0
    problem = table.compare(after, action)
    if problem is not None:
        return f"Pacing: {problem}"
    # Step 2: the cards close up in reading order and keep their Lobbying; the refill draws come later.
    held = [(c, p) for c, p in zip(before.market, before.market_profit, strict=True) if c != NO_CARD]
    shifted = [(c, p) for c, p in zip(after.market, after.market_profit, strict=True)][:len(held)]
    if shifted != held:
        return f"Pacing shifted the Market {list(before.market)} to {list(after.market)}; the cards close up in order"
    return None


def _reshuffled_this_turn(state: GameState) -> bool:
    """Whether the Company's Draw Phase in progress ran the Reshuffle Sequence (Pacing follows it)."""
    from doubtspec.model.steps import EndCompanyTurn

    return any(isinstance(step, EndCompanyTurn) and step.pacing for step in state.pending)


def _agitation_offers(state: GameState) -> str | None:
    """At an Agitation choice, each Goal offered takes from no tokens up to what it still needs, and with one and
    two Agitation already on it (progress is rare in generated games, and so are tokens to spend: the
    what-if holds nine) one and two tokens fewer."""
    if state.outcome is not None or not state.pending or not isinstance(state.pending[0], Agitation):
        return None
    from doubtspec.model.legal import choice_actions

    step = state.pending[0]
    slots = sorted({a.slot for a in legal(state) if isinstance(a, Agitate)})
    for slot in slots:
        for progress, held in ((state.goal_agitation[slot], state.agitation), (1, 9), (2, 9)):
            # With nine tokens held the offer is bounded by the Goal's need, not by the tokens.
            agitation = (*state.goal_agitation[:slot], progress, *state.goal_agitation[slot + 1:])
            probe = dataclasses.replace(state, goal_agitation=agitation, agitation=max(held, state.agitation))
            need = probe.game.goal(probe.goals[slot]).cost + probe.goal_profit[slot] - progress
            top = min(probe.agitation, max(0, need - step.icons))
            expected = {t for t in range(top + 1) if step.icons + t > 0 or need <= 0}
            offered = {a.tokens for a in choice_actions(probe, step) if isinstance(a, Agitate) and a.slot == slot}
            if offered != expected:
                return (f"with {progress} Agitation on Goal place {slot} (needing {need}, {step.icons} from icons, "
                        f"{probe.agitation} tokens held) the engine offers {sorted(offered)} tokens, not "
                        f"{sorted(expected)}")
    return None


def _goal_offers(state: GameState) -> str | None:
    """On each Movement turn, achieve each available Goal with Agitation to spare and check what it does.

    What a Goal does to the Company (its bans, its Restriction card) happens only when a Goal is
    achieved, which generated games reach late; an Agitation with icons enough for any Goal, answered
    for each available Goal, checks `rule.goal` for every Goal the structure offers, every turn.
    """
    if not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN:
        return None
    from doubtspec.model.legal import choice_actions

    step = Agitation(icons=99)
    probe = dataclasses.replace(state, pending=(step,))
    for action in choice_actions(probe, step):
        if isinstance(action, Agitate) and action.tokens == 0:
            message = _goal(probe, action, engine.apply(probe, action))
            if message is not None:
                return f"achieving the Goal at place {action.slot}: {message}"
    return None


def _setup(state: GameState) -> str | None:
    """Company and Movement Set-Up, checked at the Movement's first decision (round 1, nothing played yet)."""
    if (not at_rest(state) or state.round != 1 or state.phase is not Phase.MOVEMENT_TURN or state.m_hand
            or len(state.tableau) != 1 or state.c_discard):
        return None
    cards, rules, display = state.cards, state.cards.rules, state.cards.display
    if _sorted(state.c_hand + state.c_deck) != _sorted(cards.starting_deck) or len(state.c_hand) != \
            rules.company_hand_size:
        return f"Set-Up dealt the hand {list(state.c_hand)} from the deck {list(state.c_deck)}"
    for i, pile in enumerate(state.piles):
        if pile != tuple(sorted(cards.piles[i].cards, reverse=True)):
            return f"pile {i} was laid out as {list(pile)}; the lowest number goes on top (ruling pile-order)"
    pairs = set(cards.stack_pairs)
    if len(state.stacks) != rules.stacks_dealt or any(len(s) != 2 or (s[0], s[1]) not in pairs or s[1] != s[0] + 1
                                                      for s in state.stacks):
        return f"Set-Up dealt the stacks {list(state.stacks)}: {rules.stacks_dealt} odd/even pairs, the even on top"
    if (state.victims != display.setup_victims or state.doubt != display.setup_doubt or state.profit
            or state.stars or state.influence != rules.movement_starting_influence):
        return (f"Set-Up left Victims {list(state.victims)}, Doubt {list(state.doubt)}, Profit {state.profit}, "
                f"stars {state.stars} and Influence {state.influence}")
    start, up = state.tableau[0]
    if not up or start not in cards.movement_starting:
        return f"the Tableau starts with {state.tableau[0]}, not a face-up starting card"
    if NO_CARD in state.market and state.m_deck:
        return f"Set-Up left Market spaces empty with {len(state.m_deck)} cards in the deck"
    upper = {g for g in state.goals[:6]}
    if NO_CARD in state.goals or not {7, 8, 9} <= upper or len(set(state.goals)) != 9:
        return f"the Goal structure was dealt as {list(state.goals)}: G7-G9 and three others in the first six places"
    return None


# --- the catalog entries -----------------------------------------------------------------------------

INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("rule.setup", "Set-Up deals the Company's hand, piles and stacks, the display, the starting "
                   "card, the Market and the Goal structure as the rules say.",
                   (S.COMPANY_SETUP, S.MOVEMENT_SETUP), _setup),
    TransitionInvariant("rule.company-play",
                        "A play pays its side's cost from the hand; a Reserve play adds the card at the Reserve's "
                        "right end; a standard play resolves exactly its effects and triggers; nothing else changes.",
                        (S.SPENDING_BUDGET, S.STANDARD_EFFECTS, S.RESERVE_EFFECTS), _company_play),
    StateInvariant("rule.empty-draw-offers", "A play that draws with the deck and the discard pile empty draws "
                   "nothing and goes on to the Reserve cards it triggers.",
                   (S.STANDARD_EFFECTS, S.RESERVE_EFFECTS, S.RESHUFFLE_SEQUENCE), _empty_draw_offers),
    StateInvariant("rule.doubt-count-offers", "A play whose Doubt effects place two or more tokens places each of "
                   "them, one choice each.", (S.STANDARD_EFFECTS,), _doubt_count_offers),
    StateInvariant("rule.payment-offers", "Each play is offered with every set of other hand cards that pays its "
                   "cost (none superfluous, under ruling budget-payment=minimal), and no other.",
                   (S.SPENDING_BUDGET,), _payment_offers),
    TransitionInvariant("rule.buy", "A buy takes the offered card, pays its Budget (plus one from the trash, less "
                        "discounts) and puts card and payment in the discard pile; nothing else changes.",
                        (S.BUYING_CARDS, S.SPENDING_BUDGET), _buy),
    StateInvariant("rule.buy-offers", "Every card on offer can be bought exactly when the hand's Budget covers its "
                   "price (Budget, plus one from the trash, less discounts).",
                   (S.BUYING_CARDS,), _buy_offers),
    TransitionInvariant("rule.unlobby", "Removing Lobbying at the start of the turn returns all of one card's Profit "
                        "to the supply; nothing else changes.", (S.COMPANY_INTERFERENCE,), _unlobby),
    StateInvariant("rule.unlobby-offers", "With Profit on every card, each card's Lobbying can be taken back at the "
                   "start of the turn, and taking it back does what `rule.unlobby` says.",
                   (S.COMPANY_INTERFERENCE,), _unlobby_offers),
    TransitionInvariant("rule.draw-phase", "The Draw Phase discards the hand and triggers a Reshuffle exactly when "
                        "fewer than five cards are left in the deck.", (S.COMPANY_ON_YOUR_GO, S.RESHUFFLE_SEQUENCE),
                        _draw_phase),
    TransitionInvariant("rule.reshuffle-trigger", "Only the Draw Phase triggers the Reshuffle Sequence, once; a draw "
                        "during the Play Phase reshuffles without it.", (S.RESHUFFLE_SEQUENCE,), _reshuffle_trigger),
    StateInvariant("rule.draw-offers", "A Draw Phase with the hand size left in the deck draws; with one card "
                   "fewer it runs the Reshuffle Sequence, which scores the table's Victims and resolves the Reserve "
                   "as the rules say.", (S.COMPANY_ON_YOUR_GO, S.RESHUFFLE_SEQUENCE), _draw_offers),
    StateInvariant("rule.reshuffle-offers", "A Reshuffle scoring Profit at each boundary of the Social Acceptance "
                   "Chart and of the star threshold seeds and stars as the chart and the threshold say.",
                   (S.SCORING_DEMOGRAPHICS, S.SEED_DEMOGRAPHICS), _reshuffle_offers),
    TransitionInvariant("rule.movement-play", "A Movement play pays its Influence (flipped cards, then Flight, then "
                        "tokens), goes to the chosen end and earns the Bonuses aligned with the adjacent face-up card.",
                        (S.PLAYING_A_CARD, S.SPENDING_INFLUENCE), movement_play_check),
    TransitionInvariant("rule.movement-buy", "A Movement buy pays the space's cost plus its Lobbying, returns the "
                        "Profit, resolves the space's Action and takes the card into the hand.",
                        (S.BUYING_A_CARD, S.SPENDING_INFLUENCE), _movement_buy),
    StateInvariant("rule.flip-offers", "A Market card the Movement's tokens cannot pay is offered for one flipped "
                   "face-up card whose Influence covers the rest.", (S.SPENDING_INFLUENCE, S.BUYING_A_CARD),
                   _flip_offers),
    TransitionInvariant("rule.organize-play", "An Organize play puts a card from the hand at the chosen end for free, "
                        "with the Bonuses aligned with the adjacent face-up card.",
                        (S.BUYING_A_CARD, S.PLAYING_A_CARD), _organize_play),
    StateInvariant("rule.organize-offers", "Buying the Organize space's card offers a free play from the hand at "
                   "either end, which does what `rule.organize-play` says.",
                   (S.BUYING_A_CARD, S.PLAYING_A_CARD), _organize_offers),
    TransitionInvariant("rule.pass", "Passing gains one Influence, or two with none at all; nothing else changes.",
                        (S.MOVEMENT_ON_YOUR_GO,), _pass),
    TransitionInvariant("rule.messaging", "Messaging returns each Victim removed to the Company's supply and gains "
                        "one Influence for it.", (S.MESSAGING,), _message),
    TransitionInvariant("rule.pacing", "Pacing after a Reshuffle gains the face-up Tableau's and the Goals' "
                        "passives, refreshes, closes up the Market in order and reclaims Flight.",
                        (S.PACING,), _pacing),
    StateInvariant("rule.agitation-offers", "An Agitation offers each available Goal from no tokens up to what it "
                   "still needs (its cost, plus its Profit, less the Agitation on it, less the icons).",
                   (S.AGITATION_AND_GOALS,), _agitation_offers),
    StateInvariant("rule.goal-offers", "Each available Goal, achieved with Agitation to spare, does exactly what "
                   "`rule.goal` says (its bans, Restriction card, gains, points).",
                   (S.AGITATION_AND_GOALS, S.MOVEMENT_INTERFERENCE), _goal_offers),
    TransitionInvariant("rule.goal", "Agitation achieves a Goal exactly when it covers the Goal's cost, with exactly "
                        "the Goal's bans, Restriction cards and gains; otherwise it stays on the Goal.",
                        (S.AGITATION_AND_GOALS, S.MOVEMENT_INTERFERENCE), _goal),
)
"""The `rule.*` invariants, in the order they are checked and listed."""
