"""`rule.*` postconditions of the Company's actions: plays, buys, Unlobby, and the what-ifs of their offers."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import cast

from doubtspec.invariants.derived import (
    MEMO_SIZE,
    ONE_STEP_EFFECTS,
    at_rest,
    budget_of,
    buy_costs,
    card_kind,
    from_card_data,
    legal,
    loopholes_added,
    memo,
    replace,
    trigger_pairs,
)
from doubtspec.invariants.groups.rule.frame import in_supply, minus, sorted_cards, unchanged_except
from doubtspec.invariants.shapes import Invariant, StateInvariant, TransitionInvariant
from doubtspec.model import engine
from doubtspec.model.actions import (
    Action,
    Buy,
    BuySource,
    LobbyWhere,
    Pass,
    PlaceDoubt,
    PlayReserve,
    PlayStandard,
    RemoveFromMarket,
    Skip,
    TrashCard,
    Unlobby,
)
from doubtspec.model.cards import (
    AddDoubt,
    AddVictims,
    Discount,
    DoubtGroup,
    DrawCards,
    NamedEffect,
    RemoveMarketCard,
    ScoreProfit,
    TokenKind,
    Zone,
)
from doubtspec.model.state import NO_CARD, TOKEN_INDEX, Actor, GameState, OutcomeReason, Phase, Side
from doubtspec.model.steps import Activate, CompanyDraw, Effect, FinishPlay, ResolveEffect
from doubtspec.rulebook import Section

S = Section


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
    hand = minus(before.c_hand, (action.card, *action.pay))
    if after.plays != before.plays + 1:
        return f"{action} took the plays this turn from {before.plays} to {after.plays}"
    if isinstance(action, PlayReserve):
        # Reserve Effects: face up at the right end of the Reserve; nothing resolves yet.
        if after.c_hand != hand or after.c_discard != sorted_cards(before.c_discard + action.pay):
            return (f"{action} left hand {list(after.c_hand)} and discard {list(after.c_discard)}, expected "
                    f"{list(hand)} and {list(sorted_cards(before.c_discard + action.pay))}")
        if after.c_reserve != (*before.c_reserve, action.card):
            return f"{action} left the Reserve {list(after.c_reserve)}; the card goes at its right end"
        return unchanged_except(before, after, ("c_hand", "c_discard", "c_reserve", "plays"), action)
    # Standard Effects: the play's own effects and the Reserve cards it triggers resolve now; those
    # that need a choice (Doubt, Lobbying, Market removal, trashing) and the draws come as later steps.
    if after.c_hand != hand:
        return f"{action} left the hand {list(after.c_hand)}; expected {list(hand)}"
    if action.card not in after.c_in_play and action.card not in after.c_discard:
        return f"{action}: card {action.card} is neither resolving nor in the discard pile"
    problem = unchanged_except(before, after, ("c_hand", "c_discard", "c_in_play", "c_deck", "victims", "profit",
                                               "discount", "plays", "pending", "supply"), action)
    if problem is not None:
        return problem
    if not after.pending and action.card in after.c_discard:
        return _standard_amounts(before, action, after, side.effects, side.trigger, side.icon)
    return None


def _triggers_first(state: GameState) -> bool:
    """Whether the Reserve cards a standard play triggers resolve before its own effects (ruling trigger-timing)."""
    return state.rulings.get("trigger-timing") == "before-effects"


def _standard_amounts(before: GameState, action: PlayStandard, after: GameState, effects: tuple[object, ...],
                      trigger: object, icon: object) -> str | None:
    """A play that resolved in one step: Victims, Profit and discounts are its effects' and its triggers'.

    The order matters only when a supply runs short: what resolves first takes what is left.
    """
    triggered: list[object] = []
    if trigger is not None:
        for card in before.c_reserve:
            data = before.game.company_card(card)
            reserve = data.reserve
            if reserve is not None and reserve.trigger is trigger and reserve.icon is icon \
                    and data.kind not in before.banned:
                triggered.extend(reserve.effects)
    everything = [*triggered, *effects] if _triggers_first(before) else [*effects, *triggered]
    victims = list(before.victims)
    victim_supply = in_supply(before, TokenKind.VICTIMS)
    profit_supply = in_supply(before, TokenKind.PROFIT)
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


def _trigger_timing(before: GameState, action: Action, after: GameState) -> str | None:
    """A standard play's trigger fires after all of the card's own effects, or before any of them.

    Under trigger-timing=after-effects the activation waits behind the card's effects: once it has fired, what
    is left of the play (before the card is discarded) can only be its Reserve cards' effects. Under
    before-effects it fires at once, so it is never left waiting when the play stops for a choice.
    """
    if not isinstance(action, PlayStandard) or before.pending:
        return None
    side = before.game.company_card(action.card).standard
    if side is None or side.trigger is None:
        return None
    waiting = Activate(side.trigger, side.icon) in after.pending
    if _triggers_first(before):
        if waiting:
            return (f"{action}: the Reserve cards its trigger activates wait behind the card's own effects; under "
                    f"trigger-timing=before-effects they resolve first")
        return None
    if waiting:
        return None
    # Every Reserve card that shares the trigger and the icon may have fired (bans are `ban.*`'s business).
    triggered = {effect for card in before.c_reserve
                 if (reserve := before.game.company_card(card).reserve) is not None
                 and reserve.trigger is side.trigger and reserve.icon is side.icon
                 for effect in reserve.effects}
    for step in after.pending:
        if step == FinishPlay(action.card):
            break
        own = (step.effect not in triggered if isinstance(step, Effect | ResolveEffect)
               else isinstance(step, CompanyDraw) and not any(isinstance(e, DrawCards) for e in triggered))
        if own:
            return (f"{action}: its trigger has fired while the card's own effect ({step}) is still to resolve; "
                    f"under trigger-timing=after-effects the Reserve cards activate after the card's effects")
    return _activation_order(before, action, after)


def _activation_order(before: GameState, action: PlayStandard, after: GameState) -> str | None:
    """Reserve Effects: the Reserve cards a play activates resolve from left to right, so what is left of them when
    the play stops for a choice is the tail of their effects in the Reserve's order (not checked where a draw is
    waiting, which stands in the queue as a draw rather than its effect)."""
    side = before.game.company_card(action.card).standard
    assert side is not None
    expected = [effect for card in before.c_reserve if card_kind(before, card) not in before.banned
                and (reserve := before.game.company_card(card).reserve) is not None
                and reserve.trigger is side.trigger and reserve.icon is side.icon for effect in reserve.effects]
    waiting: list[object] = []
    for step in after.pending:
        if step == FinishPlay(action.card):
            break
        if isinstance(step, CompanyDraw):
            return None
        if isinstance(step, Effect | ResolveEffect):
            waiting.append(step.effect)
    if waiting and waiting != expected[len(expected) - len(waiting):]:
        return (f"{action}: the Reserve cards' effects wait in the order {waiting}; from left to right they are "
                f"{expected}, of which the last {len(waiting)} are left")
    return None


def _trigger_pairs(state: GameState) -> tuple[tuple[int, int], ...]:
    """(standard card, Reserve card): for each Reserve side made only of `ONE_STEP_EFFECTS`, the first card whose
    standard play activates it (`derived.trigger_pairs`), in the Reserve cards' order."""
    chosen: dict[int, int] = {}
    for card, triggered in trigger_pairs(state):
        for reserve_card in triggered:
            reserve = state.game.company_card(reserve_card).reserve
            if reserve is not None and all(isinstance(e, ONE_STEP_EFFECTS) for e in reserve.effects):
                chosen.setdefault(reserve_card, card)
    return tuple((card, reserve_card) for reserve_card, card in sorted(chosen.items()))


def _trigger_offers(state: GameState) -> str | None:
    """At the start of each Play Phase, play a card whose trigger activates a Reserve card, both moved into place.

    A Reserve card activates when a standard play shares its Reserve side's trigger and icon (Reserve Effects);
    generated games seldom hold the matching pair at once. Four pairs a turn (in turn with the round), with no
    ban, are played with the first payment offered and checked by `rule.company-play`, whose amounts include
    the Reserve card's effects; then again with the played card banned and Loopholes in the Reserve.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or state.plays:
        return None
    pairs = _trigger_pairs(state)
    for k in range(min(4, len(pairs))):
        card, reserve_card = pairs[(4 * state.round + k) % len(pairs)]
        probe = _moved_to_play(state, card, reserve_card)
        if probe is None:
            continue
        probe = replace(probe, banned=())
        play = next((a for a in engine.legal_actions(probe) if isinstance(a, PlayStandard) and a.card == card), None)
        if play is None:
            continue
        message = _company_play(probe, play, engine.apply(probe, play))
        if message is not None:
            return f"with card {reserve_card} at the Reserve's right end: {message}"
        message = _loopholes_trigger(probe, card, reserve_card)
        if message is not None:
            return message
    return _two_reserve_cards(state)


def _two_reserve_cards(state: GameState) -> str | None:
    """A play that activates two Reserve cards whose Victims go to different Zones, both moved to the Reserve's
    right end (one such triple a turn, in turn with the round), with the Victims supply one token above what the
    card's own effects take: under trigger-timing=after-effects the last token goes to the left one of the two
    (Reserve Effects: left to right), as `rule.company-play`'s amounts say."""
    if _triggers_first(state):
        return None
    found = [(card, first, second) for card, triggered in trigger_pairs(state) for first in triggered
             for second in triggered if first != second and _victim_zones(state, first)
             and _victim_zones(state, second) and _victim_zones(state, first) != _victim_zones(state, second)]
    if not found:
        return None
    card, first, second = found[state.round % len(found)]
    probe = _moved_to_play(state, card, first)
    probe = _moved_to_play(probe, card, second) if probe is not None else None
    side = state.game.company_card(card).standard
    if probe is None or side is None:
        return None
    own = sum(e.count for e in side.effects if isinstance(e, AddVictims))
    supply = list(probe.supply)
    supply[TOKEN_INDEX[TokenKind.VICTIMS]] = own + 1
    probe = replace(probe, banned=(), supply=tuple(supply))
    play = next((a for a in engine.legal_actions(probe) if isinstance(a, PlayStandard) and a.card == card), None)
    if play is None:
        return None
    message = _company_play(probe, play, engine.apply(probe, play))
    return None if message is None else (f"with cards {first} and {second} at the Reserve's right end and {own + 1} "
                                         f"Victims in the supply: {message}")


def _victim_zones(state: GameState, card: int) -> tuple[Zone, ...]:
    """The Zones the Victims effects of `card`'s Reserve side go to, in order (none without one)."""
    reserve = state.game.company_card(card).reserve
    return () if reserve is None else tuple(e.zone for e in reserve.effects if isinstance(e, AddVictims))


def _loopholes_trigger(probe: GameState, card: int, reserve_card: int) -> str | None:
    """The same play with the played card's kind banned and a Loopholes card (not banned) at the Reserve's left
    end: Loopholes lets the card be played for its standard side (Interference), and the play still triggers the
    Reserve card, whose kind is not banned, as `rule.company-play` counts it."""
    kind = card_kind(probe, card)
    if card_kind(probe, reserve_card) == kind:
        return None
    banned = replace(probe, banned=(kind,))
    with_loopholes = loopholes_added(banned, (card, reserve_card))
    if with_loopholes is None:
        return None
    play = next((a for a in engine.legal_actions(with_loopholes) if isinstance(a, PlayStandard) and a.card == card),
                None)
    if play is None:
        return f"with {kind} banned and Loopholes in the Reserve, card {card} cannot be played for its standard side"
    message = _company_play(with_loopholes, play, engine.apply(with_loopholes, play))
    if message is None:
        return None
    return f"with card {reserve_card} in the Reserve, Loopholes beside it and {kind} banned: {message}"


@from_card_data
def _short_supply_cards(state: GameState) -> list[tuple[int, tuple[tuple[TokenKind, int], ...]]]:
    """(card, (kind, tokens taken)): each standard side made only of `ONE_STEP_EFFECTS` that takes two or more
    Victims or Profit from the supply, from the card data."""
    found: list[tuple[int, tuple[tuple[TokenKind, int], ...]]] = []
    for card in sorted(n for n, c in state.cards.company.items() if c is not None):
        side = state.game.company_card(card).standard
        if side is None or not all(isinstance(e, ONE_STEP_EFFECTS) for e in side.effects):
            continue
        victims = sum(e.count for e in side.effects if isinstance(e, AddVictims))
        profit = sum(e.count for e in side.effects if isinstance(e, ScoreProfit))
        taken = tuple((kind, n) for kind, n in ((TokenKind.VICTIMS, victims), (TokenKind.PROFIT, profit)) if n >= 2)
        if taken:
            found.append((card, taken))
    return found


_SHORT_SUPPLY_CARDS = 2
"""Cards one `rule.short-supply-offers` check plays (in turn with the round)."""


def _short_supply_offers(state: GameState) -> str | None:
    """At the start of each Play Phase, play a card that takes two or more Victims or Profit with a supply that
    holds fewer.

    The supplies are piece-limited and a gain larger than what is left takes what remains (ruling
    supply-exhausted); a play's effects resolve in their printed order, so the first ones take the last tokens.
    Generated games never run the Victims or Profit supply this low. Each card of the kind (two a turn, in turn
    with the round) is moved into the hand with no Reserve and no ban, and played with each supply from one
    token up to one short of what it takes; `rule.company-play` checks where every token went.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or state.plays:
        return None
    cards = _short_supply_cards(state)
    for k in range(min(_SHORT_SUPPLY_CARDS, len(cards))):
        card, taken = cards[(_SHORT_SUPPLY_CARDS * state.round + k) % len(cards)]
        moved = _moved_to_play(state, card, None)
        if moved is None:
            continue
        moved = replace(moved, c_reserve=(), trash=(*moved.trash, *moved.c_reserve), banned=())
        play = next((a for a in engine.legal_actions(moved) if isinstance(a, PlayStandard) and a.card == card), None)
        if play is None:
            continue
        for kind, count in taken:
            for left in range(1, count):
                supply = list(moved.supply)
                supply[TOKEN_INDEX[kind]] = left
                probe = replace(moved, supply=tuple(supply))
                message = _company_play(probe, play, engine.apply(probe, play))
                if message is not None:
                    return f"with {left} {kind.value} left in the supply: {message}"
    return None


@from_card_data
def _drawing_cards(state: GameState) -> list[tuple[int, tuple[int, ...]]]:
    """(card, Reserve cards): each standard side that draws, most cards drawn first, with the Reserve sides its
    play triggers (same trigger and icon), from the card data."""
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
    return [(card, triggered) for _, card, triggered in sorted(found)]


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
    return replace(
        state, c_deck=(), c_discard=(), c_hand=sorted_cards((*(c for c in state.c_hand if c not in moving), card)),
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
        message = _reshuffling_draw(state, card) or _short_deck_draw(state, card)
        if message is not None:
            return message
        played += 1
        if played >= _EMPTY_DRAW_PLAYS:
            break
    return None


def _reshuffling_draw(state: GameState, card: int) -> str | None:
    """`card` played with the deck empty and every other card of the Company's in the discard pile: its draw
    reshuffles the discards without the Sequence (Reshuffle Sequence note) and draws all it says.

    The Reserve goes to the discard pile too, so that no trigger adds draws or effects of its own; a card
    with a named effect (which may move cards of the hand) is left out, and so is one whose draws the
    discard pile cannot cover. Played with the fewest cards and the first option of each choice and
    draw, the hand must end with the cards not played or paid plus exactly the cards drawn, no card
    from outside, and no Profit, star, round or phase beyond what the card's own effects do.
    """
    side = state.game.company_card(card).standard
    if side is None or any(isinstance(e, NamedEffect) for e in side.effects):
        return None
    draws = sum(e.count for e in side.effects if isinstance(e, DrawCards))
    owned = (*state.c_deck, *state.c_discard, *state.c_hand, *state.c_reserve)
    if card not in owned:
        return None
    others = [c for c in owned if c != card]
    hand = sorted_cards((*(c for c in state.c_hand if c != card), card))
    discard = sorted_cards(c for c in others if c not in hand)
    if len(discard) < draws:
        return None
    probe = replace(state, c_deck=(), c_discard=discard, c_reserve=(), c_hand=hand)
    play = _cheapest_play(probe, card)
    if play is None:
        return None
    scored, after, message = _follow_play(probe, play)
    if message is not None:
        return f"with the deck empty and the discards full: {message}"
    message = _no_victory_without_sequence(probe, play)
    if message is not None:
        return message
    if after.outcome is not None or after.pending:
        return None
    kept = len(hand) - 1 - len(play.pay)
    if len(after.c_hand) != kept + draws:
        return (f"with the deck empty and {len(discard)} cards in the discard pile, {play} (drawing {draws}) ended "
                f"with {len(after.c_hand)} cards in hand; the {kept} kept and the {draws} drawn make {kept + draws}")
    if Counter((*after.c_hand, *after.c_deck, *after.c_discard)) != Counter((*hand, *discard)):
        return f"with the deck empty and the discards full, {play} changed which cards the Company holds"
    # Lobbying may take Profit away later in the play, and the card's own Profit effects after its draw add theirs;
    # only a Sequence would add more.
    own = sum(e.count for e in side.effects if isinstance(e, ScoreProfit))
    moved = [f for f in ("stars", "round", "phase") if getattr(after, f) != getattr(scored, f)]
    moved += ["profit"] if after.profit > probe.profit + own else []
    if moved:
        return (f"with the deck empty and the discards full, {play}'s draw changed {', '.join(moved)}: a draw in the "
                "Play Phase reshuffles the discards without the Reshuffle Sequence")
    return None


def _no_victory_without_sequence(probe: GameState, play: PlayStandard) -> str | None:
    """The reshuffling draw of `_reshuffling_draw` with the Profit to win held: the Profit counts only at the end
    of a Reshuffle Sequence (Company Rules), and a draw in the Play Phase reshuffles without one."""
    target = probe.cards.rules.profit_to_win
    supply = list(probe.supply)
    supply[TOKEN_INDEX[TokenKind.PROFIT]] += probe.profit - target
    if supply[TOKEN_INDEX[TokenKind.PROFIT]] < 0:
        return None
    _, after, _ = _follow_play(replace(probe, profit=target, supply=tuple(supply)), play)
    if after.outcome is not None and after.outcome.reason is OutcomeReason.PROFIT_VICTORY:
        return (f"with {target} Profit held, the deck empty and the discards full, {play}'s draw won on Profit: a draw "
                "in the Play Phase reshuffles without the Reshuffle Sequence, at whose end alone the Profit counts")
    return None


def _short_deck_draw(state: GameState, card: int) -> str | None:
    """`card`, which draws two or more, played with one card fewer in the deck than it draws and the rest of the
    Company's cards in the discard pile: the deck's own cards are drawn before the discards are reshuffled.

    The discards join the deck without the Sequence only once nothing is left to draw (Reshuffle Sequence
    note), so every card the deck held must reach the hand, whichever cards the reshuffled discards then give.
    The deck holds the highest-numbered cards, so that drawing the first option from a deck the discards joined
    too early leaves one of them behind, and the hand must end with every card the effect draws. Set up as
    `_reshuffling_draw` (Reserve emptied into the discards; no named effect); played with the fewest cards and the
    first option of each choice and draw.
    """
    side = state.game.company_card(card).standard
    if side is None or any(isinstance(e, NamedEffect) for e in side.effects):
        return None
    draws = sum(e.count for e in side.effects if isinstance(e, DrawCards))
    owned = (*state.c_deck, *state.c_discard, *state.c_hand, *state.c_reserve)
    if draws < 2 or card not in owned:
        return None
    hand = sorted_cards((*(c for c in state.c_hand if c != card), card))
    spare = sorted_cards(c for c in owned if c != card and c not in hand)
    if len(spare) < draws:
        return None
    deck, discard = spare[len(spare) - draws + 1:], spare[:len(spare) - draws + 1]
    probe = replace(state, c_deck=deck, c_discard=discard, c_reserve=(), c_hand=hand)
    play = _cheapest_play(probe, card)
    if play is None:
        return None
    _, after, message = _follow_play(probe, play)
    if message is not None:
        return f"with {len(deck)} cards in the deck and the discards full: {message}"
    if after.outcome is not None or after.pending:
        return None
    if not set(deck) <= set(after.c_hand):
        return (f"with the deck holding {list(deck)}, {play} (drawing {draws}) ended with hand {list(after.c_hand)}: "
                "the deck's cards are drawn before the discards are reshuffled into it")
    kept = len(hand) - 1 - len(play.pay)
    if len(after.c_hand) != kept + draws:
        return (f"with {len(deck)} cards in the deck and {len(discard)} in the discard pile, {play} (drawing {draws}) "
                f"ended with {len(after.c_hand)} cards in hand; the {kept} kept and the {draws} drawn make "
                f"{kept + draws}: a short deck is drawn out, then the discards reshuffled for the rest")
    return None


def _cheapest_play(probe: GameState, card: int) -> PlayStandard | None:
    """`card`'s standard play offered in `probe` with the fewest cards paid, or None when none is offered."""
    plays = [a for a in engine.legal_actions(probe) if isinstance(a, PlayStandard) and a.card == card]
    return min(plays, key=lambda a: len(a.pay)) if plays else None


def _follow_play(probe: GameState, play: PlayStandard) -> tuple[GameState, GameState, str | None]:
    """`play` applied to `probe`, then its choices and draws with the first option (at most `_PLAY_STEPS`).

    Returns the state right after the play, the state where following it stopped (the play over, the
    game over, or the steps used up) and what `rule.company-play` or the way through found wrong.
    """
    first = after = engine.apply(probe, play)
    message = _company_play(probe, play, after)
    for _ in range(_PLAY_STEPS):
        if message is not None or after.outcome is not None or not after.pending:
            break
        choices = engine.legal_actions(after)
        if not choices:
            return first, after, f"{play} left no legal move (next step: {after.pending[0]})"
        if engine.current_actor(after) is Actor.CHANCE and not after.c_deck:
            return first, after, f"{play} offers a draw ({after.pending[0]}) from an empty deck"
        after = engine.apply(after, choices[0])
    return first, after, message


def _play_through(probe: GameState, play: PlayStandard) -> str | None:
    _, after, message = _follow_play(probe, play)
    if message is not None or after.outcome is not None or after.pending:
        return message
    if card_total := Counter(after.c_hand + after.c_deck + after.c_discard) - Counter(probe.c_hand):
        return f"{play} brought cards {sorted(card_total.elements())} from outside the hand"
    hand = minus(probe.c_hand, (play.card, *play.pay))
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
    of each choice, the Doubt on the display must grow by the sum of its effects' counts, when each Doubt
    group's columns have room for what the card's effects place there and the supply holds enough. (Room counted per
    group, not per column: a column too short for the largest count, as on a display of two-space columns, must not
    switch the check off.)
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or state.plays:
        return None
    columns = state.cards.display.doubt_values
    for card, effects in _doubt_cards(state):
        counts = tuple(count for _, count in effects)
        room = {group: sum(len(columns[zone]) - state.doubt[zone] for zone in group.columns) for group, _ in effects}
        if (state.supply_of(TokenKind.DOUBT) < sum(counts)
                or any(sum(count for g, count in effects if g is group) > free for group, free in room.items())):
            return None
        places = (state.c_deck, state.c_discard, state.c_hand, state.c_reserve, state.trash, *state.piles)
        if not any(card in place for place in places):
            continue

        def rest(cards: tuple[int, ...], moving: int = card) -> tuple[int, ...]:
            return tuple(c for c in cards if c != moving)

        # The Reserve goes to the discard pile, so that no Reserve card the play triggers adds Doubt of its own.
        probe = replace(state, c_deck=rest(state.c_deck),
                        c_discard=sorted_cards(rest(state.c_discard) + rest(state.c_reserve)),
                        c_hand=sorted_cards((*rest(state.c_hand), card)), c_reserve=(),
                        trash=rest(state.trash), piles=tuple(rest(pile) for pile in state.piles))
        plays = [a for a in engine.legal_actions(probe) if isinstance(a, PlayStandard) and a.card == card]
        if not plays:
            continue
        play = min(plays, key=lambda a: len(a.pay))
        after = engine.apply(probe, play)
        for _ in range(_PLAY_STEPS):
            head = after.pending[0] if after.pending and after.outcome is None else None
            choices = engine.legal_actions(after) if head is not None else ()
            if not choices:
                break
            # A draw or another effect before the Doubt ones is followed too (its first option), so that they come.
            after = engine.apply(after, next((a for a in choices if isinstance(a, PlaceDoubt)), choices[0]))
        placed = sum(after.doubt) - sum(probe.doubt)
        if placed != sum(counts):
            return (f"{play} placed {placed} Doubt; its effects place {list(counts)} (the display had room and the "
                    f"supply {probe.supply_of(TokenKind.DOUBT)} tokens)")
        return None
    return None


def _doubt_cards(state: GameState) -> list[tuple[int, tuple[tuple[DoubtGroup, int], ...]]]:
    """(card, (group, count) of each Doubt effect) of the standard sides whose Doubt effects place two or more
    tokens, cheapest first."""
    found = []
    for card, data in state.cards.company.items():
        side = None if data is None else data.standard
        if side is None:
            continue
        effects = tuple((e.group, e.count) for e in side.effects if isinstance(e, AddDoubt))
        if effects and max(count for _, count in effects) >= 2:
            found.append((side.cost, card, effects))
    return [(card, effects) for _, card, effects in sorted(found, key=lambda f: (f[0], f[1]))]


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


def _payment_applies(state: GameState) -> bool:
    """The start of the Company's Play Phase, nothing pending (where `rule.payment-offers` asks its question)."""
    return at_rest(state) and state.phase is Phase.COMPANY_PLAY and not state.plays


def _payment_offers(state: GameState) -> str | None:
    """At the start of each Play Phase, every way to pay for each play the engine offers is offered.

    Spending Budget (ruling budget-payment): a play is paid with a set of the other hand cards whose
    Budget covers the cost, from which (under the default `minimal`) no card can be dropped. For each
    card and side the engine offers at all, the payments it offers must be exactly those sets,
    enumerated here from the card data. Asked of the hand dealt and, as a what-if, of the same hand
    short of its last card: a full hand leaves an even number of other cards beside each play, and
    a rule that fails only for an odd number (a set of all the others left out) would go unseen.
    """
    if not _payment_applies(state):
        return None
    message = _payments_offered(state)
    if message is None and len(state.c_hand) >= 2:
        message = _payments_offered(replace(state, c_hand=state.c_hand[:-1]))
        if message is not None:
            message = f"with the hand short of its last card: {message}"
    return message


def _payments_offered(state: GameState) -> str | None:
    """`_payment_offers` for one hand: the payments offered for each play against those of the card data."""
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
        expected = _payments(state, tuple(c for c in state.c_hand if c != card), side.cost, minimal)
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
    if after.c_hand != minus(before.c_hand, action.pay):
        return f"{action} left the hand {list(after.c_hand)}"
    if after.c_discard != sorted_cards((*before.c_discard, *action.pay, card)):
        return f"{action}: the bought card {card} and the payment {list(action.pay)} go to the discard pile"
    if after.buys != before.buys + 1 or after.discount != 0:
        return f"{action} left buys {after.buys} and discount {after.discount} (expected {before.buys + 1} and 0)"
    return unchanged_except(before, after, ("c_hand", "c_discard", "buys", "discount", *moved), action)


def _buy_offers(state: GameState) -> str | None:
    """At the start of each Buy Phase, price every card on offer just within and just beyond the hand's Budget.

    Trash-pile cards and exact prices are rare in generated games; a discount set so that each card costs
    the hand's Budget exactly, and one more, asks the engine's legality about both sides of every price.
    A discount beyond the whole price leaves it at zero (the trash pile's extra one included), so the card
    is bought with no payment at all. In odd rounds every kind in the hand is banned first: banned cards
    still pay, so the prices come out the same.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_BUY or state.buys:
        return None
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


def _unlobby(before: GameState, action: Action, after: GameState) -> str | None:
    if not isinstance(action, Unlobby):
        return None
    field = "goal_profit" if action.where is LobbyWhere.GOAL else "market_profit"
    held: tuple[int, ...] = getattr(before, field)
    count = held[action.index]
    expected = (*held[:action.index], 0, *held[action.index + 1:])
    if getattr(after, field) != expected:
        return f"{action} left {field} {list(getattr(after, field))}; the card's {count} Profit all go"
    if in_supply(after, TokenKind.PROFIT) != in_supply(before, TokenKind.PROFIT) + count:
        return f"{action}: the {count} Profit tokens go back to the supply"
    if not after.unlobbied:
        return f"{action} did not use up the turn's removal"
    return unchanged_except(before, after, (field, "supply", "unlobbied"), action)


def _unlobby_offers(state: GameState) -> str | None:
    """At the start of each Company turn, put one to three Profit on every card and take each back.

    Removing Lobbying needs Lobby plays on the Movement's cards first, and the Company seldom takes it
    back, so generated games hardly play an Unlobby; lobbying every card with a different count than
    its neighbours (tokens from the supply), the engine must offer exactly one Unlobby per card
    carrying Profit, and each one taken (the first and last Market space, the first and last Goal)
    must do what `rule.unlobby` says. After the turn's first play, after one removal, and in the Buy
    Phase, the same Lobbying may not be taken back at all.
    """
    if not at_rest(state) or state.phase not in (Phase.COMPANY_PLAY, Phase.COMPANY_BUY):
        return None
    allowed = state.phase is Phase.COMPANY_PLAY and not state.plays and not state.unlobbied
    goals = state.rulings.get("lobby-targets") == "market-and-goals"
    spare = in_supply(state, TokenKind.PROFIT) + sum(state.market_profit) + sum(state.goal_profit)

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
    probe = replace(state, market_profit=market_profit, goal_profit=goal_profit, supply=tuple(supply))
    expected = {Unlobby(LobbyWhere.MARKET, i) for i, p in enumerate(market_profit) if p}
    expected |= {Unlobby(LobbyWhere.GOAL, i) for i, p in enumerate(goal_profit) if p}
    offered = [a for a in engine.legal_actions(probe) if isinstance(a, Unlobby)]
    if not allowed:
        if offered:
            return (f"with {state.plays} plays made, Lobbying taken back {int(state.unlobbied)} times, in phase "
                    f"{state.phase.value}, the engine offers {sorted(map(str, offered))}; Lobbying is taken back "
                    f"only at the start of the turn, before the first play, once")
        return None
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


def _remove_market(before: GameState, action: Action, after: GameState) -> str | None:
    """The Company's removal of a Market card: the card to the Movement's discard, its Lobbying to the supply.

    Ruling remove-market-destination. The space stays empty (the Market is refilled only at Pacing and by
    Organize), the Market deck is untouched, and the rest of the play may go on resolving.
    """
    if not isinstance(action, RemoveFromMarket):
        return None
    card, lobbied = before.market[action.space], before.market_profit[action.space]
    if after.market != tuple(NO_CARD if i == action.space else c for i, c in enumerate(before.market)) \
            or after.market_profit != tuple(0 if i == action.space else p for i, p in enumerate(before.market_profit)):
        return (f"{action} left the Market {list(after.market)} with Profit {list(after.market_profit)}; only space "
                f"{action.space} empties")
    if after.m_discard != sorted_cards((*before.m_discard, card)) or after.m_deck != before.m_deck:
        return (f"{action} left the Movement's discard {list(after.m_discard)} and Market deck of {len(after.m_deck)}; "
                f"card {card} goes to the discard pile, the deck is untouched")
    returned = in_supply(after, TokenKind.PROFIT) - in_supply(before, TokenKind.PROFIT)
    scored = after.profit - before.profit  # by the play's own Profit effects that resolve after the removal
    to_come = _profit_to_come(before)
    if returned != lobbied - scored or not 0 <= scored <= to_come:
        return (f"{action} returned {returned} Profit to the supply and left the Company {after.profit} Profit (was "
                f"{before.profit}); the card's {lobbied} go to the supply, none to the Company (the rest of the play "
                f"scores at most {to_come})")
    return None


def _profit_to_come(state: GameState) -> int:
    """The most Profit the steps pending after the first can score before the next choice: the play's own Profit
    effects, and every Reserve card's activated ones for each activation pending."""
    reserve = sum(e.count for c in state.c_reserve if (side := state.game.company_card(c).reserve) is not None
                  for e in side.effects if isinstance(e, ScoreProfit))
    return sum(step.effect.count if isinstance(step, Effect | ResolveEffect) and isinstance(step.effect, ScoreProfit)
               else reserve if isinstance(step, Activate) else 0 for step in state.pending[1:])


def _remove_market_applies(state: GameState) -> bool:
    """A removal of a Market card pending (where `rule.remove-market-offers` asks its question)."""
    return (state.outcome is None and bool(state.pending) and isinstance(state.pending[0], ResolveEffect)
            and isinstance(state.pending[0].effect, RemoveMarketCard))


def _remove_market_offers(state: GameState) -> str | None:
    """When the Company may remove a Market card, lobby one Profit onto every bare Market card and remove each.

    A removal of a lobbied card is rare in generated games (the removing card's play must meet Lobbying on the
    Market); with one Profit taken from the supply onto each bare card, each removal offered is checked by
    `rule.remove-market`, so a Lobbying that goes anywhere but the supply is seen at the first removal.
    """
    if not _remove_market_applies(state):
        return None
    removals = [a for a in engine.legal_actions(state) if isinstance(a, RemoveFromMarket)]
    market_profit = list(state.market_profit)
    spare = in_supply(state, TokenKind.PROFIT)
    for space, card in enumerate(state.market):
        if card != NO_CARD and not market_profit[space] and spare:
            market_profit[space], spare = 1, spare - 1
    supply = list(state.supply)
    supply[TOKEN_INDEX[TokenKind.PROFIT]] = spare
    probe = replace(state, market_profit=tuple(market_profit), supply=tuple(supply))
    for removal in removals:
        message = _remove_market(probe, removal, engine.apply(probe, removal))
        if message is not None:
            return f"with one Profit lobbied on each bare Market card: {message}"
    return None


_COMPANY_LATER_PHASES = (Phase.COMPANY_BUY, Phase.COMPANY_DRAW)
"""The Company's phases after its Play Phase, which no turn may start in."""


def _company_turn_start(before: GameState, action: Action, after: GameState) -> str | None:
    """The Company's turn starts afresh: no plays, buys or discount yet, and its Lobbying may be taken back again.

    Checked on every step that enters the Company's Play Phase from another phase (the step that ends the
    Movement's turn), whatever the engine's turn-start step did, so that a flag left over from an earlier turn
    (a removal of Lobbying, a discount) cannot silently carry over.
    """
    if after.outcome is None and before.phase is Phase.MOVEMENT_TURN and after.phase in _COMPANY_LATER_PHASES:
        # On Your Go: the turn opens with the Play Phase; a hand that cannot play ends the game there
        return f"{action} began the Company's turn in its {after.phase.value} phase, not its Play Phase"
    if before.phase is Phase.COMPANY_PLAY or after.phase is not Phase.COMPANY_PLAY or after.outcome is not None:
        return None
    if after.plays or after.buys or after.discount or after.unlobbied:
        return (f"{action} started the Company's turn with {after.plays} plays, {after.buys} buys, discount "
                f"{after.discount} and Lobbying taken back: {after.unlobbied}; a turn starts with none of them")
    return None


def _company_turn_start_offers(state: GameState) -> str | None:
    """On each Movement turn, leave a play, a buy, a discount and a removal of Lobbying over, and let the turn end.

    What a Company turn leaves set is seen by `rule.company-turn-start` only at the start of a later turn, and a
    removal of Lobbying is rare in generated games: set all four now, pass, and the turn that starts must clear them.
    """
    if not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN:
        return None
    probe = replace(state, plays=1, buys=1, discount=1, unlobbied=True)
    message = _company_turn_start(probe, Pass(), engine.apply(probe, Pass()))
    return None if message is None else f"with a play, a buy, a discount and a removal left over: {message}"


_TRASH_FROM_HAND = NamedEffect("trash_from_hand")


def _trash_offers(state: GameState) -> str | None:
    """On each Play Phase with a hand, resolve the named effect `trash_from_hand` now, as a what-if.

    The card file's one card with this (invented) effect is played seldom in generated games, and with
    nothing offered the engine resolves an effect to nothing, silently. Resolving it must offer each
    card of the hand once and declining (the card text is invented: a trash that may be declined, as
    a Lobby effect may), and trashing the first card moves it from the hand to the top of the trash
    pile and changes nothing else.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or not state.c_hand:
        return None
    if not any(_TRASH_FROM_HAND in side.effects for card in state.cards.company.values()
               for side in (card.standard, card.reserve) if side is not None):
        return None
    probe = replace(state, pending=(ResolveEffect(_TRASH_FROM_HAND, 1),))
    offered = engine.legal_actions(probe)
    expected = {*(TrashCard(c) for c in state.c_hand), Skip(Side.COMPANY)}
    if set(offered) != expected or len(offered) != len(expected):
        return (f"resolving trash_from_hand with hand {list(state.c_hand)} offered {[str(a) for a in offered]}; "
                f"each hand card once, and declining, are the choices")
    card = state.c_hand[0]
    action = TrashCard(card)
    after = engine.apply(probe, action)
    hand = list(state.c_hand)
    hand.remove(card)
    if sorted(after.c_hand) != sorted(hand) or after.trash != (*state.trash, card):
        return (f"{action} left hand {list(after.c_hand)} and trash {list(after.trash)}; the card goes from the "
                f"hand to the top of the trash pile")
    return unchanged_except(probe, after, ("c_hand", "trash", "pending"), action)


INVARIANTS: tuple[Invariant, ...] = (
    TransitionInvariant("rule.company-play",
                        "A play pays its side's cost from the hand; a Reserve play adds the card at the Reserve's "
                        "right end; a standard play resolves exactly its effects and triggers; nothing else changes.",
                        (S.SPENDING_BUDGET, S.STANDARD_EFFECTS, S.RESERVE_EFFECTS), _company_play),
    TransitionInvariant("rule.trigger-timing",
                        "A standard play's trigger activates the Reserve cards after all of the card's own effects "
                        "(ruling trigger-timing=after-effects) or before any of them (before-effects), from left to "
                        "right.",
                        (S.STANDARD_EFFECTS, S.RESERVE_EFFECTS), _trigger_timing),
    StateInvariant("rule.trigger-offers", "A standard play whose trigger and icon match a Reserve card's activates "
                   "it, a banned card played through Loopholes too, and two such cards from left to right: their "
                   "effects resolve with the play's (checked by `rule.company-play`).",
                   (S.STANDARD_EFFECTS, S.RESERVE_EFFECTS, S.COMPANY_INTERFERENCE), _trigger_offers),
    StateInvariant("rule.empty-draw-offers", "A play that draws with the deck and the discard pile empty draws "
                   "nothing and goes on to the Reserve cards it triggers; with the deck empty and the discards "
                   "full it reshuffles them without the Sequence (so the Profit to win, held, does not win) and "
                   "draws all it says; with fewer cards in the deck than it draws it draws them all before the "
                   "discards join the deck.",
                   (S.STANDARD_EFFECTS, S.RESERVE_EFFECTS, S.RESHUFFLE_SEQUENCE), _empty_draw_offers),
    StateInvariant("rule.short-supply-offers", "A play that takes more Victims or Profit than the supply holds "
                   "takes what is left, its effects in order: the first ones get the last tokens (checked by "
                   "`rule.company-play`).", (S.ADDING_VICTIMS, S.STANDARD_EFFECTS, S.COMPANY_SETUP),
                   _short_supply_offers, _payment_applies),
    StateInvariant("rule.doubt-count-offers", "A play whose Doubt effects place two or more tokens places each of "
                   "them, one choice each.", (S.STANDARD_EFFECTS,), _doubt_count_offers),
    StateInvariant("rule.trash-offers", "Resolving a trash-from-hand effect offers each hand card once, and "
                   "declining; the card trashed goes from the hand to the top of the trash pile.",
                   (S.STANDARD_EFFECTS,), _trash_offers),
    StateInvariant("rule.payment-offers", "Each play is offered with every set of other hand cards that pays its "
                   "cost (none superfluous, under ruling budget-payment=minimal), and no other.",
                   (S.SPENDING_BUDGET,), _payment_offers, _payment_applies),
    TransitionInvariant("rule.buy", "A buy takes the offered card, pays its Budget (plus one from the trash, less "
                        "discounts) and puts card and payment in the discard pile; nothing else changes.",
                        (S.BUYING_CARDS, S.SPENDING_BUDGET), _buy),
    StateInvariant("rule.buy-offers", "Every card on offer can be bought exactly when the hand's Budget covers its "
                   "price (Budget, plus one from the trash, less discounts); banned cards pay too.",
                   (S.BUYING_CARDS, S.COMPANY_INTERFERENCE), _buy_offers),
    TransitionInvariant("rule.unlobby", "Removing Lobbying at the start of the turn returns all of one card's Profit "
                        "to the supply; nothing else changes.", (S.COMPANY_INTERFERENCE,), _unlobby),
    TransitionInvariant("rule.remove-market", "A Market card the Company removes goes to the Movement's discard pile "
                        "and its Lobbying to the supply (none to the Company); the space stays empty and the "
                        "Market deck is untouched.",
                        (S.MOVEMENT_INTERFERENCE,), _remove_market),
    StateInvariant("rule.remove-market-offers", "Each removal of a Market card offered, with Lobbying on every "
                   "Market card, does what `rule.remove-market` says.", (S.MOVEMENT_INTERFERENCE,),
                   _remove_market_offers, _remove_market_applies),
    TransitionInvariant("rule.company-turn-start", "The Company's turn starts in its Play Phase with no plays, buys "
                        "or discount, and its Lobbying may be taken back again.",
                        (S.COMPANY_ON_YOUR_GO, S.COMPANY_INTERFERENCE), _company_turn_start),
    StateInvariant("rule.company-turn-start-offers", "A Company turn starts afresh even when the last one left "
                   "plays, buys, a discount and a removal of Lobbying set (checked by `rule.company-turn-start`).",
                   (S.COMPANY_ON_YOUR_GO, S.COMPANY_INTERFERENCE), _company_turn_start_offers),
    StateInvariant("rule.unlobby-offers", "With Profit on every card, each card's Lobbying can be taken back at the "
                   "start of the turn, and taking it back does what `rule.unlobby` says; after the first play, "
                   "after one removal and in the Buy Phase, none can.",
                   (S.COMPANY_INTERFERENCE,), _unlobby_offers),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
