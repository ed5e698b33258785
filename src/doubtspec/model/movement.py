"""The Movement's rules: paying Influence, playing into the Tableau, buying, Messaging, Agitation,
Goals and Pacing.

Each function names the rulebook section it implements; they act on a `Work`. Legality is
decided in `doubtspec.model.legal`.
"""

from __future__ import annotations

from collections.abc import Iterator

from doubtspec.model.cards import (
    AddRestriction,
    Ban,
    BonusKind,
    Counts,
    GainFlight,
    GainInfluence,
    HandSize,
    MarketAction,
    MovementCard,
    TokenKind,
    Zone,
)
from doubtspec.model.game import Game
from doubtspec.model.state import NO_CARD, Outcome, OutcomeReason
from doubtspec.model.steps import Agitation, FillMarket, Messaging, Organize, StartCompanyTurn, TakeMarketCard
from doubtspec.model.work import Work, replace_at, sorted_with, without

GOAL_ROWS: tuple[tuple[int, ...], ...] = ((0, 1, 2, 3), (4, 5, 6), (7, 8))
"""Places of the Goal structure, dealt in this order: the row of four first (Movement Set-Up 2)."""

COVERED_BY: tuple[tuple[int, ...], ...] = (
    (4,), (4, 5), (5, 6), (6,),
    (7,), (7, 8), (8,),
    (), (),
)
"""Ruling goal-overlap: each card of a later row lies across the two cards it sits between."""

UPPER_STACK_PLACES = 6
"""Ruling goal-split: the upper stack (G7-G9 and three others) fills the first six places."""


def available_goals(goals: tuple[int, ...]) -> Iterator[int]:
    """Agitation and Goals: places whose Goal is present and not overlapped by any other Goal."""
    for slot, goal in enumerate(goals):
        if goal != NO_CARD and all(goals[c] == NO_CARD for c in COVERED_BY[slot]):
            yield slot


def face_up_icons(game: Game, tableau: tuple[tuple[int, bool], ...]) -> Counts:
    """Action icons of the face-up Tableau cards (Cards: only face-up cards act)."""
    research = messaging = agitation = 0
    for card, up in tableau:
        if up:
            icons = game.movement_card(card).icons
            research += icons.research
            messaging += icons.messaging
            agitation += icons.agitation
    return Counts(research=research, messaging=messaging, agitation=agitation)


def pay_influence(w: Work, flip: tuple[int, ...], cost: int) -> None:
    """Spending Influence: flip the chosen face-up cards, tokens pay the shortfall, Flight first."""
    game = w.game
    value = 0
    if flip:
        tableau = list(w.tableau)
        for pos in flip:
            card, _ = tableau[pos]
            value += game.movement_card(card).influence
            tableau[pos] = (card, False)
        w.tableau = tuple(tableau)
    shortfall = cost - value
    if shortfall > 0:
        flight = min(w.flight, shortfall)
        w.flight -= flight
        w.flight_spent += flight
        rest = shortfall - flight
        w.influence -= rest
        w.give_back(TokenKind.INFLUENCE, rest)


def refresh(w: Work, count: int = 1) -> None:
    """Refresh (Bonus, Action, Passive): flip the leftmost face-down cards face up."""
    if count <= 0:
        return
    tableau = list(w.tableau)
    for i, (card, up) in enumerate(tableau):
        if count == 0:
            break
        if not up:
            tableau[i] = (card, True)
            count -= 1
    w.tableau = tuple(tableau)


def gain(w: Work, influence: int = 0, messaging: int = 0, agitation: int = 0) -> None:
    if influence:
        w.influence += w.take(TokenKind.INFLUENCE, influence)
    if messaging:
        w.messaging += w.take(TokenKind.MESSAGING, messaging)
    if agitation:
        w.agitation += w.take(TokenKind.AGITATION, agitation)


def aligned(a: tuple[BonusKind, ...], b: tuple[BonusKind, ...]) -> list[BonusKind]:
    """Ruling bonus-alignment: each kind on both facing edges, once per matching pair."""
    rest = list(b)
    result = []
    for kind in a:
        if kind in rest:
            rest.remove(kind)
            result.append(kind)
    return result


def place_in_tableau(w: Work, card: int, right: bool, remove: int | None) -> None:
    """Playing a Card: the ninth card first removes one; place at an end; receive aligned Bonuses."""
    game = w.game
    if remove is not None:
        removed, _ = w.tableau[remove]
        w.tableau = w.tableau[:remove] + w.tableau[remove + 1:]
        w.m_discard = sorted_with(w.m_discard, removed)
    new: MovementCard = game.movement_card(card)
    neighbour: MovementCard | None = None
    order = reversed(w.tableau) if right else iter(w.tableau)
    for other, up in order:
        if up:  # flipped cards are skipped when finding the adjacent card
            neighbour = game.movement_card(other)
            break
    w.tableau = (*w.tableau, (card, True)) if right else ((card, True), *w.tableau)
    if neighbour is None:
        return
    bonuses = aligned(new.left, neighbour.right) if right else aligned(new.right, neighbour.left)
    refreshes = 0
    for kind in bonuses:
        if kind is BonusKind.INFLUENCE:
            gain(w, influence=1)
        elif kind is BonusKind.MESSAGING:
            gain(w, messaging=1)
        elif kind is BonusKind.AGITATION:
            gain(w, agitation=1)
        else:
            refreshes += 1
    # A Refresh bonus cannot trigger another Bonus: it only turns a card face up.
    refresh(w, refreshes)


def play_card(w: Work, card: int, flip: tuple[int, ...], right: bool, remove: int | None) -> None:
    """On Your Go, Play: pay, then place the card in the Tableau."""
    pay_influence(w, flip, w.game.movement_card(card).influence)
    w.m_hand = without(w.m_hand, card)
    place_in_tableau(w, card, right, remove)
    w.push(StartCompanyTurn())


def organize_play(w: Work, card: int, right: bool, remove: int | None) -> None:
    """Buying a Card > Organize: play a card from the hand for free."""
    w.m_hand = without(w.m_hand, card)
    place_in_tableau(w, card, right, remove)


def buy_cost(w: Work, space: int) -> int:
    """Buying a Card: the space's cost plus one per Profit token on the card."""
    return w.game.cards.market[space].cost + w.market_profit[space]


def buy_card(w: Work, space: int, flip: tuple[int, ...]) -> None:
    """Buying a Card: pay, return the Lobbying Profit, resolve the space's Action, take the card."""
    game = w.game
    pay_influence(w, flip, buy_cost(w, space))
    w.give_back(TokenKind.PROFIT, w.market_profit[space])
    w.market_profit = replace_at(w.market_profit, space, 0)
    icons = face_up_icons(game, w.tableau)
    match game.cards.market[space].action:
        case MarketAction.REFRESH:
            refresh(w)
            w.push(TakeMarketCard(space), StartCompanyTurn())
        case MarketAction.RESEARCH:
            gain(w, influence=2 * icons.research)
            w.push(TakeMarketCard(space), StartCompanyTurn())
        case MarketAction.MESSAGING:
            w.push(Messaging(icons.messaging), TakeMarketCard(space), StartCompanyTurn())
        case MarketAction.AGITATION:
            w.push(Agitation(icons.agitation), TakeMarketCard(space), StartCompanyTurn())
        case MarketAction.ORGANIZE:
            # The empty spaces refill before this space's card is taken.
            w.push(Organize(), FillMarket(), TakeMarketCard(space), StartCompanyTurn())


def take_market_card(w: Work, space: int) -> None:
    w.m_hand = sorted_with(w.m_hand, w.market[space])
    w.market = replace_at(w.market, space, NO_CARD)


def doubt_cost(game: Game, column: Zone, present: int, count: int) -> int:
    """Messaging: the printed costs of the bottom `count` of `present` Doubt tokens in a column."""
    values = game.cards.display.doubt_values[column]
    return sum(values[present - 1 - i] for i in range(count))


def message(w: Work, icons: int, zone: Zone, doubts: int, victims: int) -> int:
    """Messaging: Doubt bottom-up, then Victims (each gains one Influence); icons spent first.

    Returns the icon Messaging left over (for ruling messaging-zones=any-zones).
    """
    cost = doubt_cost(w.game, zone, w.doubt[zone], doubts) + victims
    from_icons = min(icons, cost)
    from_tokens = cost - from_icons
    w.messaging -= from_tokens
    w.give_back(TokenKind.MESSAGING, from_tokens)
    w.doubt = replace_at(w.doubt, zone, w.doubt[zone] - doubts)
    w.give_back(TokenKind.DOUBT, doubts)
    w.victims = replace_at(w.victims, zone, w.victims[zone] - victims)
    w.give_back(TokenKind.VICTIMS, victims)
    gain(w, influence=victims)
    return icons - from_icons


def goal_need(w: Work, slot: int) -> int:
    """Agitation and Goals: the cost, plus one per Profit on the Goal, less the Agitation on it."""
    goal = w.game.goal(w.goals[slot])
    return goal.cost + w.goal_profit[slot] - w.goal_agitation[slot]


def agitate(w: Work, icons: int, slot: int, tokens: int) -> None:
    """Agitation and Goals: achieve the Goal, or leave the Agitation on it as progress."""
    need = goal_need(w, slot)
    w.agitation -= tokens
    if icons + tokens >= need:
        w.give_back(TokenKind.AGITATION, tokens + w.goal_agitation[slot])
        w.goal_agitation = replace_at(w.goal_agitation, slot, 0)
        achieve(w, slot)
    else:
        converted = w.take(TokenKind.AGITATION, icons)
        w.goal_agitation = replace_at(w.goal_agitation, slot, w.goal_agitation[slot] + converted + tokens)


def achieve(w: Work, slot: int) -> None:
    """Agitation and Goals: remove the Goal, return its Profit, apply its effects, check victory."""
    game = w.game
    number = w.goals[slot]
    goal = game.goal(number)
    w.give_back(TokenKind.PROFIT, w.goal_profit[slot])
    w.goal_profit = replace_at(w.goal_profit, slot, 0)
    w.goals = replace_at(w.goals, slot, NO_CARD)
    w.achieved = (*w.achieved, number)
    for effect in goal.effects:
        match effect:
            case Ban(kind=kind):
                # Movement Rules > Interference: a Banned token on the pile (ruling ban-scope).
                if kind not in w.banned and w.take(TokenKind.BANS, 1):
                    w.banned = tuple(sorted((*w.banned, kind)))
            case AddRestriction(count=count):
                pile_index = game.cards.restriction_pile()
                for _ in range(count):
                    if pile_index is None or not w.piles[pile_index]:
                        break  # ruling restriction-source: never from the trash pile
                    pile = w.piles[pile_index]
                    w.piles = replace_at(w.piles, pile_index, pile[:-1])
                    w.c_discard = sorted_with(w.c_discard, pile[-1])
            case GainFlight(count=count):
                w.flight += w.take(TokenKind.FLIGHT, count)
            case GainInfluence(count=count):
                gain(w, influence=count)
            case HandSize():
                pass  # derived from the achieved Goals (GameState.hand_limit)
    points = sum(game.goal(g).points for g in w.achieved)
    target = game.cards.rules.goal_points_to_win
    if points >= target:
        w.outcome = Outcome(OutcomeReason.GOAL_VICTORY, w.round, f"{points} points of Goals achieved")


def pass_turn(w: Work) -> None:
    """On Your Go, Pass: one Influence, two with none at all (ruling pass-bonus)."""
    none = w.influence == 0
    if none and w.game.pass_counts_cards:
        none = not any(up for _, up in w.tableau)
    gain(w, influence=2 if none else 1)
    w.push(StartCompanyTurn())


def pacing_passives(w: Work) -> None:
    """Pacing step 1: passives of face-up Tableau cards and achieved Goals; Refresh passives flip.

    Ruling refresh-passives: only face-up Tableau cards' Refresh passives count (not the Goals').
    """
    game = w.game
    influence = messaging = agitation = refreshes = 0
    for card, up in w.tableau:
        if up:
            p = game.movement_card(card).passive
            influence += p.influence
            messaging += p.messaging
            agitation += p.agitation
            refreshes += p.refresh
    for number in w.achieved:
        p = game.goal(number).passive
        influence += p.influence
        messaging += p.messaging
        agitation += p.agitation
    gain(w, influence, messaging, agitation)
    refresh(w, refreshes)


def shift_market(w: Work) -> None:
    """Pacing step 2: cards move to the first empty space in reading order; Lobbying moves along."""
    cards = [(c, p) for c, p in zip(w.market, w.market_profit, strict=True) if c != NO_CARD]
    empty = len(w.market) - len(cards)
    w.market = tuple(c for c, _ in cards) + (NO_CARD,) * empty
    w.market_profit = tuple(p for _, p in cards) + (0,) * empty


def reclaim_flight(w: Work) -> None:
    """Pacing step 3 (ruling flight)."""
    w.flight += w.flight_spent
    w.flight_spent = 0
