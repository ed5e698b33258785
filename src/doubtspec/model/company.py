"""The Company's rules: its plays, buys, effects and the Reshuffle Sequence.

Each function names the rulebook section it implements. They act on a `Work` (a successor under
construction) and never on a `GameState`; legality is decided in `doubtspec.model.legal`.
"""

from __future__ import annotations

from doubtspec.model.cards import (
    AddDoubt,
    AddVictims,
    CompanyEffect,
    Discount,
    DrawCards,
    Icon,
    Lobby,
    NamedEffect,
    RemoveMarketCard,
    ScoreProfit,
    TokenKind,
    Trigger,
    Zone,
)
from doubtspec.model.game import Game
from doubtspec.model.state import NO_CARD, Outcome, OutcomeReason, Phase
from doubtspec.model.steps import (
    Activate,
    CheckProfitVictory,
    CompanyDraw,
    DrawToHandSize,
    Effect,
    EndCompanyTurn,
    FinishPlay,
    ResolveEffect,
    ResolveReserveCard,
    ScoreAndSeed,
    ShuffleDiscards,
    Step,
)
from doubtspec.model.work import Work, replace_at, sorted_with, without, without_all

GOAL_TARGET = 100
"""Lobby targets are encoded as a Market space index, or GOAL_TARGET + a Goal place."""

MAX_LOBBY = 3
"""Company Rules > Interference: at most three Profit tokens on one card."""


def is_banned(game: Game, banned: tuple[str, ...], card: int) -> bool:
    """Company Rules > Interference; ruling ban-scope: a ban covers every card of its kind."""
    return bool(banned) and game.company_card(card).kind in banned


def loopholes_active(game: Game, reserve: tuple[int, ...], banned: tuple[str, ...]) -> bool:
    """Company Rules > Interference: a Loopholes card in the Reserve (itself not banned)."""
    for card in reserve:
        side = game.company_card(card).reserve
        if side is not None and side.loopholes and not is_banned(game, banned, card):
            return True
    return False


def can_play_standard(game: Game, reserve: tuple[int, ...], banned: tuple[str, ...], card: int) -> bool:
    """Standard Effects; Interference: banned cards need Loopholes."""
    if game.company_card(card).standard is None:
        return False
    return not is_banned(game, banned, card) or loopholes_active(game, reserve, banned)


def pay_budget(w: Work, pay: tuple[int, ...]) -> None:
    """Spending Budget: the paying cards are discarded."""
    if pay:
        w.c_hand = without_all(w.c_hand, pay)
        w.c_discard = tuple(sorted(w.c_discard + pay))


def play_standard(w: Work, card: int, pay: tuple[int, ...]) -> None:
    """On Your Go, Play Phase; Standard Effects: resolve the card, then discard it."""
    game = w.game
    side = game.company_card(card).standard
    assert side is not None
    w.c_hand = without(w.c_hand, card)
    pay_budget(w, pay)
    w.c_in_play = (*w.c_in_play, card)
    w.plays += 1
    effects: list[Step] = [Effect(e) for e in side.effects]
    if side.trigger is not None:
        activate = Activate(side.trigger, side.icon)
        if game.trigger_after:
            effects.append(activate)
        else:
            effects.insert(0, activate)
    effects.append(FinishPlay(card))
    w.push(*effects)


def play_reserve(w: Work, card: int, pay: tuple[int, ...]) -> None:
    """Reserve Effects: the card goes face up at the right end of the Reserve and does nothing yet."""
    w.c_hand = without(w.c_hand, card)
    pay_budget(w, pay)
    w.c_reserve = (*w.c_reserve, card)
    w.plays += 1


def activate_reserve(w: Work, trigger: Trigger, icon: Icon) -> None:
    """Reserve Effects: matching cards (trigger and action type, ruling trigger-match) left to right."""
    game = w.game
    steps: list[Step] = []
    for card in w.c_reserve:
        side = game.company_card(card).reserve
        if side is None or side.trigger is not trigger or side.icon is not icon:
            continue
        if is_banned(game, w.banned, card):
            continue  # Interference: banned cards in the Reserve never trigger
        steps.extend(Effect(e) for e in side.effects)
    w.push(*steps)


def resolve_effect(w: Work, effect: CompanyEffect) -> None:
    """Standard Effects: one primitive; those that need a choice become a `ResolveEffect` step."""
    match effect:
        case AddVictims(zone=zone, count=count):
            # Standard Effects > Adding Victims
            got = w.take(TokenKind.VICTIMS, count)
            w.victims = replace_at(w.victims, zone, w.victims[zone] + got)
        case ScoreProfit(count=count):
            w.profit += w.take(TokenKind.PROFIT, count)
        case Discount(amount=amount):
            w.discount += amount
        case DrawCards(count=count):
            w.push(CompanyDraw(count, silent=True))
        case AddDoubt(count=count) | Lobby(count=count) | RemoveMarketCard(count=count):
            w.push(ResolveEffect(effect, count))
        case NamedEffect():
            w.push(ResolveEffect(effect, 1))


def place_doubt(w: Work, column: Zone) -> None:
    """Standard Effects > Adding Doubt: the next space of the column, top to bottom."""
    w.take(TokenKind.DOUBT, 1)
    w.doubt = replace_at(w.doubt, column, w.doubt[column] + 1)


def lobby(w: Work, target: int) -> None:
    """Company Rules > Interference: one of the Company's Profit onto a Movement card."""
    w.profit -= 1
    if target >= GOAL_TARGET:
        slot = target - GOAL_TARGET
        w.goal_profit = replace_at(w.goal_profit, slot, w.goal_profit[slot] + 1)
    else:
        w.market_profit = replace_at(w.market_profit, target, w.market_profit[target] + 1)


def unlobby(w: Work, target: int) -> None:
    """Company Rules > Interference: the voluntary removal at the start of the turn (ruling unlobby)."""
    if target >= GOAL_TARGET:
        slot = target - GOAL_TARGET
        count = w.goal_profit[slot]
        w.goal_profit = replace_at(w.goal_profit, slot, 0)
    else:
        count = w.market_profit[target]
        w.market_profit = replace_at(w.market_profit, target, 0)
    w.give_back(TokenKind.PROFIT, count)
    w.unlobbied = True


def remove_market_card(w: Work, space: int) -> None:
    """Movement Rules > Interference: the Company removes a card from the Movement's Market.

    Ruling remove-market-destination: to the Movement's discard; its Lobbying goes back to the supply.
    """
    w.m_discard = sorted_with(w.m_discard, w.market[space])
    w.give_back(TokenKind.PROFIT, w.market_profit[space])
    w.market = replace_at(w.market, space, NO_CARD)
    w.market_profit = replace_at(w.market_profit, space, 0)


def trash_from_hand(w: Work, card: int) -> None:
    """Named effect `trash_from_hand`: a card from the hand to the top of the trash pile."""
    w.c_hand = without(w.c_hand, card)
    w.trash = (*w.trash, card)


def finish_play(w: Work, card: int) -> None:
    """Standard Effects: once its effects have resolved, the played card moves to the discard pile."""
    w.c_in_play = without(w.c_in_play, card)
    w.c_discard = sorted_with(w.c_discard, card)


def buy_cost(game: Game, card: int, from_trash: bool, discount: int) -> int:
    """Buying Cards: the card's Budget, plus one from the trash pile, less discounts, never below zero."""
    cost = game.budget[card] + (1 if from_trash else 0) - discount
    return cost if cost > 0 else 0


def buy(w: Work, card: int, pay: tuple[int, ...]) -> None:
    """Buying Cards: the card goes to the discard pile (the caller has taken it from its place)."""
    pay_budget(w, pay)
    w.c_discard = sorted_with(w.c_discard, card)
    w.buys += 1
    w.discount = 0  # ruling discount-scope: a reduction serves the next buy only


def start_draw_phase(w: Work) -> None:
    """On Your Go, Draw Phase: discard the hand, draw up to five; too few cards trigger a Reshuffle."""
    game = w.game
    w.phase = Phase.COMPANY_DRAW
    if w.c_hand:
        w.c_discard = tuple(sorted(w.c_discard + w.c_hand))
        w.c_hand = ()
    size = game.cards.rules.company_hand_size
    if len(w.c_deck) >= size:
        w.push(CompanyDraw(size, silent=False), EndCompanyTurn(pacing=False))
        return
    sequence: tuple[Step, ...] = (
        ScoreAndSeed(),
        ResolveReserveCard(len(w.c_reserve) - 1),
        ShuffleDiscards(),
        DrawToHandSize(),
        CheckProfitVictory(),
        EndCompanyTurn(pacing=True),
    )
    if game.draw_first and w.c_deck:
        w.push(CompanyDraw(len(w.c_deck), silent=False), *sequence)
    else:
        w.push(*sequence)


def score_and_seed(w: Work) -> None:
    """Reshuffle Sequence A (Scoring Demographics, right to left) and B (Seed Demographics)."""
    game = w.game
    v = list(w.victims)
    scored = 0
    removed = 0
    # Elderly: score each Victim, then all go back to the supply.
    scored += v[Zone.ELDERLY]
    removed += v[Zone.ELDERLY]
    # Middle Age: two of every three go back; the rest score and move to Elderly.
    lost = 2 * (v[Zone.MIDDLE_AGE] // 3)
    keep = v[Zone.MIDDLE_AGE] - lost
    removed += lost
    scored += keep
    # Adults: one of every two goes back; the rest score and move to Middle Age.
    lost_adults = v[Zone.ADULTS] // 2
    keep_adults = v[Zone.ADULTS] - lost_adults
    removed += lost_adults
    scored += keep_adults
    # Children: all score and move to Adults.
    scored += v[Zone.CHILDREN]
    w.victims = (0, v[Zone.CHILDREN], keep_adults, keep)
    w.give_back(TokenKind.VICTIMS, removed)
    w.profit += w.take(TokenKind.PROFIT, scored)
    w.reshuffles += 1
    # B: the Social Acceptance Chart row for the Profit scored.
    seed = game.cards.display.seed_for(scored)
    victims = list(w.victims)
    for zone, count in enumerate(seed):
        victims[zone] += w.take(TokenKind.VICTIMS, count)
    w.victims = tuple(victims)
    rules = game.cards.rules
    if scored >= rules.star_threshold and w.take(TokenKind.STARS, 1):
        w.stars += 1
        if w.stars >= rules.stars_to_win:
            # ruling star-timing: the win is immediate; the rest of the Sequence is not played.
            w.outcome = Outcome(OutcomeReason.STAR_VICTORY, w.round,
                                f"star {w.stars} of {rules.stars_to_win} earned with {scored} Profit scored"
                                " in one Reshuffle")


def resolve_reserve_card(w: Work, index: int) -> None:
    """Reshuffle Sequence C, one card from the right: its reshuffle effects, then to the trash pile.

    Interference (Company): a banned card has no effect, so its reshuffle effects are skipped and, under
    ruling banned-reserve=no-effect, its instruction to stay too.
    """
    if index < 0:
        return
    game = w.game
    card = w.c_reserve[index]
    side = game.company_card(card).reserve
    banned = is_banned(game, w.banned, card)
    steps: list[Step] = []
    if side is not None and not banned:
        steps.extend(Effect(e) for e in side.on_reshuffle)
    if side is None or not side.stays or (banned and not game.banned_stay):
        w.c_reserve = w.c_reserve[:index] + w.c_reserve[index + 1:]
        w.trash = (*w.trash, card)
    steps.append(ResolveReserveCard(index - 1))
    w.push(*steps)


def shuffle_discards(w: Work) -> None:
    """Reshuffle Sequence D: the discards join the deck (decks are unordered: draws are chance)."""
    if w.c_discard:
        w.c_deck = tuple(sorted(w.c_deck + w.c_discard))
        w.c_discard = ()


def check_profit_victory(w: Work) -> None:
    """Company Rules: 70 Profit at the end of a Reshuffle (ruling profit-victory)."""
    target = w.game.cards.rules.profit_to_win
    if w.profit >= target:
        w.outcome = Outcome(OutcomeReason.PROFIT_VICTORY, w.round, f"{w.profit} Profit at the end of a Reshuffle")


def marginalize(w: Work) -> None:
    """Company Rules: unable to reach the hand size after a triggered Reshuffle."""
    size = w.game.cards.rules.company_hand_size
    w.outcome = Outcome(OutcomeReason.MARGINALIZATION, w.round,
                        f"only {len(w.c_hand)} of {size} cards in hand after a Reshuffle")


def draw_card(w: Work, card: int) -> None:
    w.c_deck = without(w.c_deck, card)
    w.c_hand = sorted_with(w.c_hand, card)
