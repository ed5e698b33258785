"""The `lobby` invariants. Lobbying: at most three Profit tokens per card, and Profit that stays with its card."""

from __future__ import annotations

from doubtspec.invariants.derived import at_rest, memo, remembered, replace
from doubtspec.invariants.shapes import (
    Invariant,
    StateInvariant,
    TransitionInvariant,
)
from doubtspec.model.actions import (
    Action,
    LobbyOn,
    LobbyWhere,
    MovementBuy,
    Skip,
    Unlobby,
)
from doubtspec.model.state import NO_CARD, GameState, Phase, Side
from doubtspec.model.work import replace_at
from doubtspec.rulebook import Section

S = Section


def _lobby_limit(state: GameState) -> str | None:
    if max(state.market_profit, default=0) == 0 and max(state.goal_profit, default=0) == 0:
        return None
    for where, cards, profits in (("market", state.market, state.market_profit),
                                  ("goal", state.goals, state.goal_profit)):
        for i, (card, profit) in enumerate(zip(cards, profits, strict=True)):
            if profit > 3:
                return f"{profit} Profit tokens on {where}:{i} (card {card}); at most three per card"
            if card == NO_CARD and profit:
                return f"{profit} Profit tokens left on the empty {where}:{i}"
    return None


def _lobby_moves(before: GameState, action: Action, after: GameState) -> str | None:
    if (not isinstance(action, LobbyOn | Unlobby | MovementBuy)
            and before.market_profit == after.market_profit and before.goal_profit == after.goal_profit
            and before.market == after.market and before.goals == after.goals):
        return None
    target_where, target_index = "", -1
    if isinstance(action, LobbyOn | Unlobby):
        target_where, target_index = action.where.value, action.index
    elif isinstance(action, MovementBuy):
        # Buying a Card: the Profit returns when the card is paid for, before its space's Action.
        target_where, target_index = "market", action.space
    for where, b_cards, b_profit, a_cards, a_profit in (
        ("market", before.market, before.market_profit, after.market, after.market_profit),
        ("goal", before.goals, before.goal_profit, after.goals, after.goal_profit),
    ):
        held = {card: p for card, p in zip(b_cards, b_profit, strict=True) if card != NO_CARD}
        for i, (card, profit) in enumerate(zip(a_cards, a_profit, strict=True)):
            if card == NO_CARD:
                continue
            was = held.get(card, 0)
            is_target = target_where == where and card in held and b_cards.index(card) == target_index
            if is_target and isinstance(action, LobbyOn):
                if profit != was + 1:
                    return f"lobbying {where}:{target_index} (card {card}) took its Profit from {was} to {profit}"
            elif is_target:
                if profit != 0:
                    return (f"paying for or taking back the Profit on {where}:{target_index} left {profit} "
                            f"tokens on card {card}")
            elif profit != was:
                return (f"card {card} ({where}:{i}) had {was} Profit tokens and now has {profit}; "
                        "Lobbying stays with its card")
    return None


def _lobby_offers(state: GameState) -> str | None:
    """At the start of each Play Phase, ask which cards a Lobby effect may target with two and three Profit on them.

    A fourth Lobbying of one card needs three earlier Lobby plays on it, which generated games hardly
    reach; putting two, then three, Profit tokens on each Market card (and Goal, under ruling
    lobby-targets=market-and-goals) and asking the engine for a Lobby effect's choices checks the limit
    of three on every turn. A Lobby effect resolved with no Profit (rare: Lobby cards come after a
    Reshuffle has scored) must offer no card at all. A Lobby effect that may place a token must also let the
    Company decline it (Company Rules > Interference: the Company *may* spend Profit to Lobby; ruling
    lobby-optional), which generated games test only when they happen to skip. Each card is also asked in the
    Reshuffle Sequence's phase, where a reshuffle effect lobbies (Reshuffle Sequence C).
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or state.plays:
        return None
    # The probes differ from the state in their Profit (at least one) and Lobbying, and a Lobby effect's
    # choices (`legal.effect_choices`, `lobby_targets`) read only those, the Market, the Goals and the card
    # data: the verdict is kept by them.
    key = (state.game, max(state.profit, 1), state.market, state.market_profit, state.goals, state.goal_profit)
    return remembered(_LOBBY_VERDICTS, key, lambda: _lobby_offers_now(state))


_LOBBY_VERDICTS = memo()


def _lobby_offers_now(state: GameState) -> str | None:
    """`_lobby_offers`, asking the engine."""
    from doubtspec.model.cards import Lobby
    from doubtspec.model.legal import choice_actions
    from doubtspec.model.steps import ResolveEffect

    goals = state.rulings.get("lobby-targets") == "market-and-goals"
    places = [("market", i) for i, card in enumerate(state.market) if card != NO_CARD]
    if goals:
        places += [("goal", s) for s, goal in enumerate(state.goals) if goal != NO_CARD]
    step = ResolveEffect(Lobby(1), 1)
    # Lobbying moves Profit the Company has scored: with none, there is nothing to put on a card.
    broke = [a for a in choice_actions(replace(state, profit=0), step) if isinstance(a, LobbyOn)]
    if broke:
        return f"with no Profit, a Lobby effect was offered {broke[0]}"
    for where, index in places:
        field = "market_profit" if where == "market" else "goal_profit"
        held: tuple[int, ...] = getattr(state, field)
        for count, offered in ((2, True), (3, False)):
            changed = (*held[:index], count, *held[index + 1:])
            if where == "market":
                probe = replace(state, profit=max(state.profit, 1), market_profit=changed)
            else:
                probe = replace(state, profit=max(state.profit, 1), goal_profit=changed)
            choices = choice_actions(probe, step)
            if offered:
                # A Lobby effect resolves the same in the Reshuffle Sequence's step C (a reshuffle effect): the
                # Play Phase is where these probes stand, not a condition of Lobbying.
                sequence = choice_actions(replace(probe, phase=Phase.COMPANY_DRAW), step)
                if sequence != choices:
                    return (f"with {count} Profit on {where}:{index}, a Lobby effect in the Reshuffle Sequence was "
                            f"offered {sequence}; in the Play Phase {choices}")
            if offered and Skip(Side.COMPANY) not in choices:
                return (f"with {count} Profit on {where}:{index}, a Lobby effect could not be declined "
                        f"(ruling lobby-optional: each token may be placed or skipped)")
            target = LobbyOn(LobbyWhere.MARKET if where == "market" else LobbyWhere.GOAL, index)
            if (target in choices) is not offered:
                return (f"with {count} Profit on {where}:{index}, a Lobby effect was "
                        f"{'not ' if offered else ''}offered that card (at most three per card)")
    return None


def _lobby_distinct_offers(state: GameState) -> str | None:
    """At the start of each Play Phase, put the first token of a two-token Lobby effect on each card in turn and
    ask where the second may go.

    Company Rules > Interference: up to three Profit may lie on one card, each placed by a later action, so
    the tokens of one effect go on different cards. Effects of two tokens are few and their second choice
    rarely meets a card of the Goal structure; after the first token on a card, every other card (Market
    card, and Goal under ruling lobby-targets=market-and-goals) with fewer than three Profit must be
    offered, and that card not. Four cards a turn take the first token, in turn with the round, so that
    every card takes it within a few rounds at a quarter of the cost. A card that takes the first token
    holds one Profit already (unless it holds more), so that the token is a second Lobbying of the card,
    which generated games seldom play: it must add one (`lobby.moves`). The second token may be skipped as the
    first may (ruling lobby-optional).
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or state.plays:
        return None
    from doubtspec.model.cards import Lobby
    from doubtspec.model.engine import apply, legal_actions
    from doubtspec.model.steps import ResolveEffect

    places = [(LobbyWhere.MARKET, i) for i, card in enumerate(state.market)
              if card != NO_CARD and state.market_profit[i] < 3]
    if state.rulings.get("lobby-targets") == "market-and-goals":
        places += [(LobbyWhere.GOAL, s) for s, goal in enumerate(state.goals)
                   if goal != NO_CARD and state.goal_profit[s] < 3]
    probe = replace(state, profit=max(state.profit, 2), pending=(ResolveEffect(Lobby(2), 2),))
    start = 4 * state.round
    for where, index in [places[(start + k) % len(places)] for k in range(min(4, len(places)))]:
        first = LobbyOn(where, index)
        before = probe
        if where is LobbyWhere.MARKET and not probe.market_profit[index]:
            before = replace(probe, market_profit=replace_at(probe.market_profit, index, 1))
        elif where is LobbyWhere.GOAL and not probe.goal_profit[index]:
            before = replace(probe, goal_profit=replace_at(probe.goal_profit, index, 1))
        after = apply(before, first)
        moved = _lobby_moves(before, first, after)
        if moved is not None:
            return f"a Lobby effect's token on {where.value}:{index}, which held Profit already: {moved}"
        offered = legal_actions(after)
        second = {a for a in offered if isinstance(a, LobbyOn)}
        expected = {LobbyOn(w, i) for w, i in places if (w, i) != (where, index)}
        if expected and Skip(Side.COMPANY) not in offered:
            return (f"after a two-token Lobby effect's first token on {where.value}:{index}, its second could not be "
                    f"declined (ruling lobby-optional: each token may be placed or skipped)")
        if second != expected:
            extra, missing = sorted(map(str, second - expected)), sorted(map(str, expected - second))
            return (f"after a two-token Lobby effect's first token on {where.value}:{index}, the second was offered "
                    f"{extra} it may not take and not {missing} (each token of one effect on another card)")
    return None


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("lobby.limit", "At most three Profit tokens lie on one Movement card, none on an empty place.",
                   (S.COMPANY_INTERFERENCE,), _lobby_limit),
    TransitionInvariant("lobby.moves", "Lobbying Profit stays with its card, one token per action.",
                        (S.COMPANY_INTERFERENCE, S.BUYING_A_CARD, S.PACING), _lobby_moves),
    StateInvariant("lobby.offers", "A Lobby effect may target a card with two Profit on it, never one with three, "
                   "and none with no Profit to move; a token it may place it may also skip.",
                   (S.COMPANY_INTERFERENCE,), _lobby_offers),
    StateInvariant("lobby.distinct-offers", "The tokens of one Lobby effect go on different cards: after its first "
                   "token on a card, its second may go on any other card with fewer than three Profit, not that one.",
                   (S.COMPANY_INTERFERENCE,), _lobby_distinct_offers),
)
"""The `lobby.*` invariants, in the order they are checked and listed."""
