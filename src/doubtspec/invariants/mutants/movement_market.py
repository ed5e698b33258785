"""Breakages of the Movement's buys from the Market: the price, the spaces' Actions (Refresh, Organize and the
icons they count), the Market's refill, and the Pacing that refills it."""

from __future__ import annotations

from doubtspec.invariants.mutants.mutant import Patch
from doubtspec.model import engine, legal, movement
from doubtspec.model.actions import Action, End, MovementBuy, OrganizePlay, Skip
from doubtspec.model.cards import Counts, MarketAction, TokenKind
from doubtspec.model.game import Game
from doubtspec.model.state import NO_CARD, GameState, Side
from doubtspec.model.steps import (
    Agitation,
    FillMarket,
    Messaging,
    Organize,
    ReclaimFlight,
    StartCompanyTurn,
    TakeMarketCard,
)
from doubtspec.model.work import Work, replace_at


def lobbying_not_charged() -> tuple[Patch, ...]:
    def buy_cost(w: Work, space: int) -> int:
        # The Movement pays the space's cost only: the Profit lobbied onto the card adds nothing.
        return w.game.cards.market[space].cost

    return ((movement, "buy_cost", buy_cost),)


def flight_spares_lobbying() -> tuple[Patch, ...]:
    original = legal.movement_turn

    def movement_turn(state: GameState) -> list[Action]:
        # Flight pays only the space's own cost: a buy whose Lobbying needs Flight is not offered.
        game = state.game

        def paid(action: Action) -> bool:
            if not isinstance(action, MovementBuy):
                return True
            value = sum(game.movement_card(state.tableau[pos][0]).influence for pos in action.flip)
            cost = game.cards.market[action.space].cost
            return cost + state.market_profit[action.space] - value <= (
                state.influence + min(state.flight, max(0, cost - value)))

        return [action for action in original(state) if paid(action)]

    return ((legal, "movement_turn", movement_turn),)


def flight_sized_by_cost() -> tuple[Patch, ...]:
    original = movement.pay_influence

    def pay_influence(w: Work, flip: tuple[int, ...], cost: int) -> None:
        # Flight is spent up to the whole cost, not the shortfall the flipped cards leave; the surplus comes
        # back as Influence tokens.
        value = sum(w.game.movement_card(w.tableau[pos][0]).influence for pos in flip)
        shortfall = cost - value
        extra = min(w.flight, cost) - min(w.flight, shortfall) if shortfall > 0 else 0
        original(w, flip, cost)
        w.flight -= extra
        w.flight_spent += extra
        w.influence += w.take(TokenKind.INFLUENCE, extra)

    return ((movement, "pay_influence", pay_influence),)


def action_icons_face_down() -> tuple[Patch, ...]:
    original = movement.face_up_icons

    def face_up_icons(game: Game, tableau: tuple[tuple[int, bool], ...]) -> Counts:
        # The Actions of the Market spaces count the icons of face-down Tableau cards too.
        return original(game, tuple((card, True) for card, _ in tableau))

    return ((movement, "face_up_icons", face_up_icons),)


def refresh_spares_paid_cards() -> tuple[Patch, ...]:
    original = movement.buy_card

    def buy_card(w: Work, space: int, flip: tuple[int, ...]) -> None:
        if w.game.cards.market[space].action is not MarketAction.REFRESH:
            original(w, space, flip)
            return
        # The cards flipped to pay for a Refresh buy stay spent: it turns the leftmost other face-down card.
        movement.pay_influence(w, flip, movement.buy_cost(w, space))
        w.give_back(TokenKind.PROFIT, w.market_profit[space])
        w.market_profit = replace_at(w.market_profit, space, 0)
        tableau = list(w.tableau)
        for pos, (card, up) in enumerate(tableau):
            if not up and pos not in flip:
                tableau[pos] = (card, True)
                break
        w.tableau = tuple(tableau)
        w.push(TakeMarketCard(space), StartCompanyTurn())

    return ((movement, "buy_card", buy_card),)


def organize_wrong_end() -> tuple[Patch, ...]:
    original = movement.organize_play

    def organize_play(w: Work, card: int, right: bool, remove: int | None) -> None:
        # The free play of Organize goes to the other end of the Tableau.
        original(w, card, not right, remove)

    return ((movement, "organize_play", organize_play),)


def organize_one_end() -> tuple[Patch, ...]:
    original = legal.organize_choices

    def organize_choices(state: GameState) -> list[Action]:
        # Organize's free play is offered at the right end only, even into a Tableau that holds cards.
        return [a for a in original(state) if not (isinstance(a, OrganizePlay) and a.end is End.LEFT)]

    return ((legal, "organize_choices", organize_choices),)


def organize_removes_below_limit() -> tuple[Patch, ...]:
    def organize_choices(state: GameState) -> list[Action]:
        # Organize's free play always removes a Tableau card, as if the Tableau were full (so none is
        # offered into an empty one).
        if not state.m_hand:
            return []
        ends = (End.LEFT, End.RIGHT) if state.tableau else (End.RIGHT,)
        actions: list[Action] = [OrganizePlay(card, end, r) for card in state.m_hand
                                 for r in range(len(state.tableau)) for end in ends]
        actions.append(Skip(Side.MOVEMENT))
        return actions

    return ((legal, "organize_choices", organize_choices),)


def organize_removes_at_its_end() -> tuple[Patch, ...]:
    original = legal.organize_choices

    def organize_choices(state: GameState) -> list[Action]:
        # Organize's free play into a full Tableau may only remove the card at the end the new one joins.
        last = len(state.tableau) - 1
        return [a for a in original(state) if not isinstance(a, OrganizePlay) or a.remove is None
                or a.remove == (0 if a.end is End.LEFT else last)]

    return ((legal, "organize_choices", organize_choices),)


def organize_refill_needs_a_hand() -> tuple[Patch, ...]:
    original = movement.buy_card

    def buy_card(w: Work, space: int, flip: tuple[int, ...]) -> None:
        # With nothing in hand to organize, the Organize space's card is taken at once and the Market not refilled.
        original(w, space, flip)
        if not w.m_hand and w.pending and isinstance(w.pending[0], Organize):
            w.pending = tuple(step for step in w.pending if not isinstance(step, Organize | FillMarket))

    return ((movement, "buy_card", buy_card),)


def flight_kept_with_full_market() -> tuple[Patch, ...]:
    original = movement.shift_market

    def shift_market(w: Work) -> None:
        # A Market with no gap skips Pacing's upkeep, its step 3 (the Flight reclaimed) included.
        full = NO_CARD not in w.market
        original(w)
        if full:
            w.pending = tuple(step for step in w.pending if not isinstance(step, ReclaimFlight))

    return ((movement, "shift_market", shift_market),)


def organize_twice() -> tuple[Patch, ...]:
    original = movement.organize_play

    def organize_play(w: Work, card: int, right: bool, remove: int | None) -> None:
        # Organize offers another free play after each one.
        original(w, card, right, remove)
        w.push(Organize())

    return ((movement, "organize_play", organize_play),)


def organize_buy_reclaims_flight() -> tuple[Patch, ...]:
    original = movement.buy_card

    def buy_card(w: Work, space: int, flip: tuple[int, ...]) -> None:
        # The Flight spent on buying the Organize space comes back at once, as at Pacing.
        original(w, space, flip)
        if w.game.cards.market[space].action is MarketAction.ORGANIZE:
            movement.reclaim_flight(w)

    return ((movement, "buy_card", buy_card),)


def _buy_queue_reordered(shape: tuple[type, ...], order: tuple[int, ...]) -> tuple[Patch, ...]:
    """A `buy_card` that, when the steps a buy queues begin with `shape`, queues those steps in `order` instead."""
    original = movement.buy_card

    def buy_card(w: Work, space: int, flip: tuple[int, ...]) -> None:
        original(w, space, flip)
        head = w.pending[:len(shape)]
        if len(head) == len(shape) and all(isinstance(step, kind) for step, kind in zip(head, shape, strict=True)):
            w.pending = (*(head[i] for i in order), *w.pending[len(shape):])

    return ((movement, "buy_card", buy_card),)


def organize_takes_first() -> tuple[Patch, ...]:
    # Organize takes the space's card before the refill, so the refill fills that space too.
    return _buy_queue_reordered((Organize, FillMarket, TakeMarketCard), (0, 2, 1))


def company_turn_before_organize_refill() -> tuple[Patch, ...]:
    # The Company's turn starts once the free play is done, before the Market refill and the card's taking.
    return _buy_queue_reordered((Organize, FillMarket, TakeMarketCard, StartCompanyTurn), (0, 3, 1, 2))


def messaging_card_taken_first() -> tuple[Patch, ...]:
    # A Messaging space's card goes to the hand before its Messaging is worked.
    return _buy_queue_reordered((Messaging, TakeMarketCard), (1, 0))


def company_turn_before_agitation() -> tuple[Patch, ...]:
    # The Company's turn starts before the Agitation of the space bought is worked.
    return _buy_queue_reordered((Agitation, TakeMarketCard, StartCompanyTurn), (2, 0, 1))


def organize_skips_full_tableau() -> tuple[Patch, ...]:
    original = legal.organize_choices

    def organize_choices(state: GameState) -> list[Action]:
        # Organize's play is free, so it cannot pay for the ninth card's removal: a full Tableau takes no card.
        if len(state.tableau) >= state.cards.rules.tableau_limit:
            return [a for a in original(state) if not isinstance(a, OrganizePlay)]
        return original(state)

    return ((legal, "organize_choices", organize_choices),)


def spent_market_deck_waits() -> tuple[Patch, ...]:
    original = engine._chance_ready

    def chance_ready(w: Work, step: object) -> bool:
        # With the Market deck and the discards spent, an empty Market space still waits for a card.
        if isinstance(step, FillMarket) and not w.m_deck and not w.m_discard and NO_CARD in w.market:
            return True
        return original(w, step)

    return ((engine, "_chance_ready", chance_ready),)


def market_deck_not_renewed() -> tuple[Patch, ...]:
    original = engine._chance_ready

    def chance_ready(w: Work, step: object) -> bool:
        # A spent Market deck is not renewed from the discards: the refill stops with the spaces empty.
        if isinstance(step, FillMarket) and NO_CARD in w.market and not w.m_deck:
            w.pop()
            return False
        return original(w, step)

    return ((engine, "_chance_ready", chance_ready),)


def pacing_without_refresh() -> tuple[Patch, ...]:
    def pacing_passives(w: Work) -> None:
        # Pacing gains the token passives but forgets the Refresh passives.
        influence = messaging = agitation = 0
        for card, up in w.tableau:
            if up:
                passive = w.game.movement_card(card).passive
                influence, messaging, agitation = (influence + passive.influence, messaging + passive.messaging,
                                                   agitation + passive.agitation)
        for number in w.achieved:
            passive = w.game.goal(number).passive
            influence, messaging, agitation = (influence + passive.influence, messaging + passive.messaging,
                                               agitation + passive.agitation)
        movement.gain(w, influence, messaging, agitation)

    return ((movement, "pacing_passives", pacing_passives),)


def pacing_refreshes_first() -> tuple[Patch, ...]:
    def pacing_passives(w: Work) -> None:
        # Pacing flips the Refresh passives' cards face up first, so the flipped cards' passives count too.
        game = w.game
        movement.refresh(w, sum(game.movement_card(c).passive.refresh for c, up in w.tableau if up))
        passives = [game.movement_card(c).passive for c, up in w.tableau if up]
        passives += [game.goal(number).passive for number in w.achieved]
        movement.gain(w, sum(p.influence for p in passives), sum(p.messaging for p in passives),
                      sum(p.agitation for p in passives))

    return ((movement, "pacing_passives", pacing_passives),)


def pacing_refresh_cascades() -> tuple[Patch, ...]:
    def pacing_passives(w: Work) -> None:
        game = w.game
        passives = [game.movement_card(c).passive for c, up in w.tableau if up]
        passives += [game.goal(number).passive for number in w.achieved]
        movement.gain(w, sum(p.influence for p in passives), sum(p.messaging for p in passives),
                      sum(p.agitation for p in passives))
        # A card the Refresh passives flip face up counts its own Refresh passive in the same Pacing.
        count = sum(game.movement_card(c).passive.refresh for c, up in w.tableau if up)
        while count:
            before = {position for position, (_, up) in enumerate(w.tableau) if up}
            movement.refresh(w, count)
            count = sum(game.movement_card(card).passive.refresh
                        for position, (card, up) in enumerate(w.tableau) if up and position not in before)

    return ((movement, "pacing_passives", pacing_passives),)


def organize_buy_keeps_turn() -> tuple[Patch, ...]:
    original = movement.buy_card

    def buy_card(w: Work, space: int, flip: tuple[int, ...]) -> None:
        original(w, space, flip)
        # An Organize buy forgets to hand the turn to the Company: the Movement chooses again.
        if w.game.cards.market[space].action is MarketAction.ORGANIZE:
            w.pending = tuple(step for step in w.pending if not isinstance(step, StartCompanyTurn))

    return ((movement, "buy_card", buy_card),)
