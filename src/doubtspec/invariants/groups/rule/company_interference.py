"""`rule.*` postconditions of the Company's Interference outside a play's amounts, and of its turn's start.

Taking Lobbying back (Unlobby: once a turn, before the first play) and removing a Market card; the start
of the Company's turn is checked here because it is what opens the next removal of Lobbying (and clears
the plays, buys and discount the last turn left).
"""

from __future__ import annotations

from doubtspec.invariants.derived import at_rest, replace
from doubtspec.invariants.groups.rule.frame import in_supply, sorted_cards, unchanged_except
from doubtspec.invariants.shapes import Invariant, StateInvariant, TransitionInvariant
from doubtspec.model import engine
from doubtspec.model.actions import Action, LobbyWhere, Pass, RemoveFromMarket, Unlobby
from doubtspec.model.cards import RemoveMarketCard, ScoreProfit, TokenKind
from doubtspec.model.state import NO_CARD, TOKEN_INDEX, GameState, Phase
from doubtspec.model.steps import Activate, Effect, ResolveEffect
from doubtspec.rulebook import Section

S = Section


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
    """At the start of each Company turn, put one to three Profit on most cards and take each back.

    Removing Lobbying needs Lobby plays on the Movement's cards first, and the Company seldom takes it
    back, so generated games hardly play an Unlobby; lobbying the cards in turn with 1, 2, 3 and 0 Profit
    (tokens from the supply), the engine must offer exactly one Unlobby per card carrying Profit (a card
    left bare has no Lobbying to take back: Company Interference), and each one taken (the first and
    last Market space, the first and last Goal) must do what `rule.unlobby` says. After the turn's first
    play, after one removal, and in the Buy Phase, the same Lobbying may not be taken back at all.
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
            count = min((1 + start + i) % 4, spare) if card != NO_CARD else 0
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


def _removals_offered(state: GameState) -> list[RemoveFromMarket] | str:
    """The removals the engine offers, or why they are not one for each card on the Market.

    Every Market card may be removed, lobbied or not (Interference: an unpurchased card is any card on the Market).
    """
    offers = engine.legal_actions(state)  # of a probe too: not the memo of the state played
    if others := [str(a) for a in offers if not isinstance(a, RemoveFromMarket)]:
        return f"a removal of a Market card offers {others} besides the removals; the effect cannot be declined"
    removals = [a for a in offers if isinstance(a, RemoveFromMarket)]
    spaces = sorted(a.space for a in removals)
    filled = [space for space, card in enumerate(state.market) if card != NO_CARD]
    if spaces != filled:
        return (f"a removal is offered for Market spaces {spaces}; the cards are on spaces {filled} (Profit "
                f"{list(state.market_profit)})")
    return removals


def _remove_market_offers(state: GameState) -> str | None:
    """When the Company may remove a Market card, every card on the Market is offered; then lobby one Profit onto
    every bare Market card and remove each.

    A removal of a lobbied card is rare in generated games (the removing card's play must meet Lobbying on the
    Market); with one Profit taken from the supply onto each bare card, each removal offered is checked by
    `rule.remove-market`, so a Lobbying that goes anywhere but the supply is seen at the first removal.
    """
    if not _remove_market_applies(state):
        return None
    removals = _removals_offered(state)
    if isinstance(removals, str):
        return removals
    market_profit = list(state.market_profit)
    spare = in_supply(state, TokenKind.PROFIT)
    for space, card in enumerate(state.market):
        if card != NO_CARD and not market_profit[space] and spare:
            market_profit[space], spare = 1, spare - 1
    supply = list(state.supply)
    supply[TOKEN_INDEX[TokenKind.PROFIT]] = spare
    probe = replace(state, market_profit=tuple(market_profit), supply=tuple(supply))
    lobbied = _removals_offered(probe)
    if isinstance(lobbied, str):
        return f"with one Profit lobbied on each bare Market card: {lobbied}"
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


INVARIANTS: tuple[Invariant, ...] = (
    TransitionInvariant("rule.unlobby", "Removing Lobbying at the start of the turn returns all of one card's Profit "
                        "to the supply; nothing else changes.", (S.COMPANY_INTERFERENCE,), _unlobby),
    TransitionInvariant("rule.remove-market", "A Market card the Company removes goes to the Movement's discard pile "
                        "and its Lobbying to the supply (none to the Company); the space stays empty and the "
                        "Market deck is untouched.",
                        (S.MOVEMENT_INTERFERENCE,), _remove_market),
    StateInvariant("rule.remove-market-offers", "A removal is offered for every card on the Market, lobbied or not, "
                   "and each, with Lobbying on every Market card, does what `rule.remove-market` says.",
                   (S.MOVEMENT_INTERFERENCE,), _remove_market_offers, _remove_market_applies),
    TransitionInvariant("rule.company-turn-start", "The Company's turn starts in its Play Phase with no plays, buys "
                        "or discount, and its Lobbying may be taken back again.",
                        (S.COMPANY_ON_YOUR_GO, S.COMPANY_INTERFERENCE), _company_turn_start),
    StateInvariant("rule.company-turn-start-offers", "A Company turn starts afresh even when the last one left "
                   "plays, buys, a discount and a removal of Lobbying set (checked by `rule.company-turn-start`).",
                   (S.COMPANY_ON_YOUR_GO, S.COMPANY_INTERFERENCE), _company_turn_start_offers),
    StateInvariant("rule.unlobby-offers", "With Profit on most cards, each lobbied card's Lobbying, and no bare "
                   "card's, can be taken back at the start of the turn, and taking it back does what `rule.unlobby` "
                   "says; after the first play, after one removal and in the Buy Phase, none can.",
                   (S.COMPANY_INTERFERENCE,), _unlobby_offers),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
