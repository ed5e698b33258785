"""The `outcome` invariants. Outcomes: each way a game ends holds exactly when its rule says."""

from __future__ import annotations

import functools

from doubtspec.invariants.derived import (
    at_rest,
    budget_of,
    buy_price,
    can_buy,
    can_play,
    goal_points,
    icon_agitations,
    replace,
)
from doubtspec.invariants.shapes import (
    Invariant,
    StateInvariant,
    TransitionInvariant,
)
from doubtspec.model import engine
from doubtspec.model.actions import (
    Action,
    EndBuy,
    EndPlay,
    Pass,
)
from doubtspec.model.cards import Lobby
from doubtspec.model.game import Game
from doubtspec.model.state import NO_CARD, GameState, OutcomeReason, Phase, Side
from doubtspec.model.steps import (
    CheckProfitVictory,
)
from doubtspec.rulebook import Section

S = Section


_WINNER = {
    OutcomeReason.PROFIT_VICTORY: Side.COMPANY,
    OutcomeReason.STAR_VICTORY: Side.COMPANY,
    OutcomeReason.GOAL_VICTORY: Side.MOVEMENT,
    OutcomeReason.ECONOMIC_DEFEAT: Side.MOVEMENT,
    OutcomeReason.MARGINALIZATION: Side.MOVEMENT,
}


def _outcome_holds(state: GameState) -> str | None:
    outcome = state.outcome
    rules = state.cards.rules
    if outcome is None:
        if state.stars >= rules.stars_to_win:
            return f"the Company holds {state.stars} stars but the game goes on"
        points = goal_points(state)
        if points >= rules.goal_points_to_win:
            return f"the Movement has {points} Goal points but the game goes on"
        return None
    if outcome.winner is not _WINNER[outcome.reason]:
        return f"{outcome.reason.value} names {outcome.winner.value} as the winner"
    match outcome.reason:
        case OutcomeReason.PROFIT_VICTORY if state.profit < rules.profit_to_win:
            return f"Profit Victory with {state.profit} Profit (needs {rules.profit_to_win})"
        case OutcomeReason.STAR_VICTORY if state.stars < rules.stars_to_win:
            return f"Star Victory with {state.stars} stars (needs {rules.stars_to_win})"
        case OutcomeReason.GOAL_VICTORY if goal_points(state) < rules.goal_points_to_win:
            return f"Goal Victory with {goal_points(state)} points (needs {rules.goal_points_to_win})"
    return None


def _economic_defeat(state: GameState) -> str | None:
    outcome = state.outcome
    if outcome is not None:
        if outcome.reason is not OutcomeReason.ECONOMIC_DEFEAT:
            return None
        if state.plays == 0:
            return "Economic Defeat although the Company can play a card" if can_play(state) else None
        if state.buys == 0:
            return "Economic Defeat although the Company can buy a card" if can_buy(state) else None
        return f"Economic Defeat after {state.plays} plays and {state.buys} buys"
    if not state.pending and state.phase is Phase.COMPANY_PLAY and state.plays == 0 and not can_play(state):
        return "the Company cannot play any card, yet the game goes on"
    if not state.pending and state.phase is Phase.COMPANY_BUY and state.plays == 0:
        # Company Rules (Economic Defeat): a play and a buy each turn; a Company that cannot play loses at once,
        # whatever it could buy
        return "the Company reached its Buy Phase without playing a card"
    if not state.pending and state.phase is Phase.COMPANY_BUY and state.buys == 0 and not can_buy(state):
        return "the Company cannot buy any card, yet the game goes on"
    return None


def _probe_defeat(after: GameState) -> str | None:
    """`_economic_defeat` of a what-if's state whose step can end the game only in Economic Defeat (the start of the
    Company's turn, the end of its Play Phase): any other outcome there names the wrong way the game ended, and the
    outcome names the round it came in (as `rule.turn-numbering` asks of the games played)."""
    if after.outcome is not None and after.outcome.reason is not OutcomeReason.ECONOMIC_DEFEAT:
        return f"the game ended in {after.outcome.reason.value}, where only Economic Defeat can end it"
    if after.outcome is not None and after.outcome.round != after.round:
        return f"the game ended in round {after.round}, but its outcome names round {after.outcome.round}"
    return _economic_defeat(after)


def _reshuffled(state: GameState) -> GameState:
    """End the Buy Phase of `state` and play its Draw Phase and Pacing out (first outcome, first choice each time)."""
    probe = engine.apply(state, EndBuy())
    while probe.outcome is None and probe.phase in (Phase.COMPANY_DRAW, Phase.PACING):
        probe = engine.apply(probe, engine.legal_actions(probe)[0])
    return probe


def _reshuffle_lobbying(state: GameState) -> int:
    """The most Profit the reshuffle effects of the Reserve's cards can spend on Lobbying (banned ones counted too:
    an upper bound under either reading of ruling banned-reserve)."""
    return sum(e.count for card in state.c_reserve if (side := state.game.company_card(card).reserve) is not None
               for e in side.on_reshuffle if isinstance(e, Lobby))


def _profit_offers(state: GameState) -> str | None:
    """Before a Draw Phase that will trigger a Reshuffle, give the Company the winning Profit and play it out.

    Generated games seldom last until 70 Profit; playing the same Reshuffle with the Profit set to the
    target (first chance outcome and first choice each time) checks the victory on every Reshuffle. Before
    a Draw Phase that does not reshuffle (once a turn, after the first buy), the same Profit must not win:
    the Profit to win counts only at the end of a Reshuffle (Company Rules), so the Movement's turn follows.
    """
    if state.outcome is not None or state.pending or state.phase is not Phase.COMPANY_BUY or not state.buys:
        return None
    target = state.cards.rules.profit_to_win
    if len(state.c_deck) >= state.cards.rules.company_hand_size:
        if state.buys != 1:
            return None
        probe = _reshuffled(replace(state, profit=max(state.profit, target)))
        if probe.outcome is not None or probe.phase is not Phase.MOVEMENT_TURN:
            where = probe.outcome.reason.value if probe.outcome is not None else probe.phase.value
            return (f"a Draw Phase without a Reshuffle, with {max(state.profit, target)} Profit held, ended in "
                    f"{where}; the Profit counts only at the end of a Reshuffle")
        return None
    # A Reserve card's reshuffle effect may Lobby (step C, before the Profit is counted): enough more is held that
    # the target is still held after the most it can spend.
    held = max(state.profit, target + _reshuffle_lobbying(state))
    probe = _reshuffled(replace(state, profit=held))
    ended = probe.outcome.reason if probe.outcome is not None else None
    if ended not in (OutcomeReason.PROFIT_VICTORY, OutcomeReason.STAR_VICTORY, OutcomeReason.MARGINALIZATION):
        return (f"a Reshuffle that ends with {target} Profit held or more ({held} before step C) ended in "
                f"{ended.value if ended is not None else 'no outcome'}")
    size = state.cards.rules.company_hand_size
    if _marginalized_with_full_hand(probe, size):
        return (f"a Reshuffle that ends with {target} Profit held or more and a hand of {len(probe.c_hand)} ended in "
                f"Marginalization")
    # The same Reshuffle with four cards left to draw (the rest out of the game): the draw at step D
    # comes before the Profit is counted (ruling profit-victory), so the Company is Marginalized first.
    cycle = (*state.c_deck, *state.c_discard, *state.c_hand)
    short = replace(state, profit=held, c_deck=cycle[:size - 1], c_discard=(),
                    c_hand=(), c_removed=tuple(sorted((*state.c_removed, *cycle[size - 1:]))))
    probe = _reshuffled(short)
    if probe.outcome is not None and probe.outcome.reason is OutcomeReason.PROFIT_VICTORY:
        return (f"a Reshuffle with {target} Profit held and {len(short.c_deck)} cards left to draw ended in a Profit "
                f"Victory; the draw at step D comes first and Marginalizes the Company")
    # One Profit short, with more lobbied on the Movement's cards and nothing to score: only the Profit the
    # Company holds counts (ruling profit-victory), so the game goes on.
    market_profit = tuple(p + (c != NO_CARD) for c, p in zip(state.market, state.market_profit, strict=True))
    goal_profit = tuple(p + (g != NO_CARD) for g, p in zip(state.goals, state.goal_profit, strict=True))
    lobbied = replace(state, profit=target - 1, victims=(0,) * len(state.victims), c_reserve=(),
                      c_discard=tuple(sorted((*state.c_discard, *state.c_reserve))),
                      market_profit=market_profit, goal_profit=goal_profit)
    probe = _reshuffled(lobbied)
    if probe.outcome is not None and probe.outcome.reason is OutcomeReason.PROFIT_VICTORY:
        return (f"a Reshuffle with {target - 1} Profit held, more lobbied on the Movement's cards and nothing scored "
                f"ended in a Profit Victory; only the Profit the Company holds counts")
    # Exactly the target and nothing scored: the threshold itself wins (a Reshuffle scoring on top of the target,
    # as in the first probe, cannot tell "at least" from "more than").
    exact = replace(lobbied, profit=target, market_profit=state.market_profit,
                    goal_profit=state.goal_profit)
    probe = _reshuffled(exact)
    ended = probe.outcome.reason if probe.outcome is not None else None
    if ended not in (OutcomeReason.PROFIT_VICTORY, OutcomeReason.MARGINALIZATION) or _marginalized_with_full_hand(
            probe, size):
        return (f"a Reshuffle with exactly {target} Profit held and nothing scored ended with {probe.profit} Profit "
                f"and a hand of {len(probe.c_hand)} in {ended.value if ended is not None else 'no outcome'}")
    return None


def _marginalized_with_full_hand(probe: GameState, size: int) -> bool:
    """Whether `probe` ended in Marginalization with a hand of `size` or more: Marginalization is the hand left short
    (Company Rules), nothing else, so a full hand with the target held is a Profit Victory named wrongly."""
    return (probe.outcome is not None and probe.outcome.reason is OutcomeReason.MARGINALIZATION
            and len(probe.c_hand) >= size)


def _profit_victory(before: GameState, action: Action, after: GameState) -> str | None:
    if not any(isinstance(step, CheckProfitVictory) for step in before.pending):
        return None
    if after.outcome is None and any(isinstance(step, CheckProfitVictory) for step in after.pending):
        return None  # the Sequence has not reached its end yet
    target = before.cards.rules.profit_to_win
    if after.outcome is None:
        if after.profit >= target:
            return f"a Reshuffle ended with {after.profit} Profit held, but the Company did not win"
        return None
    if after.outcome.reason is OutcomeReason.PROFIT_VICTORY:
        size = before.cards.rules.company_hand_size
        if len(after.c_hand) < size:
            return (f"a Reshuffle won on Profit with a hand of {len(after.c_hand)}; the Profit is counted after the "
                    f"draw to {size}, and a hand left short is Marginalization")
        return None
    if after.profit < target:
        return None
    if after.outcome.reason in (OutcomeReason.MARGINALIZATION, OutcomeReason.STAR_VICTORY):
        return None  # decided earlier in the same Sequence
    return f"a Reshuffle ended with {after.profit} Profit held, yet the game ended in {after.outcome.reason.value}"


def _defeat_offers(state: GameState) -> str | None:
    """On each Movement turn, ban every kind in the Company's hand and let its turn start.

    A hand with nothing playable is rare in generated games; with every kind in the hand banned the
    Company can play only with Loopholes, so the start of its turn must end the game in Economic Defeat
    exactly when `can_play` (recomputed from the card data) says nothing can be played.
    """
    if not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN or not state.c_hand:
        return None
    kinds = {state.game.company_card(c).kind for c in state.c_hand}
    probe = replace(state, banned=tuple(sorted(kinds | set(state.banned))))
    message = _probe_defeat(engine.apply(probe, Pass()))
    return None if message is None else f"with every kind in the Company's hand banned: {message}"


def _defeat_boundary_offers(state: GameState) -> str | None:
    """On each Movement turn, give the Company a hand whose one playable card costs what the rest holds, or one more.

    Whether a card can be played turns on whether the rest of the hand pays its cost, and a generated
    hand nearly always holds a card that costs nothing; so for each card of the hand that costs 1 to
    `hand size - 1`, the hand becomes that card and Budget-1 cards of other kinds (banned, with the
    Reserve empty, so only that card can be played) worth exactly its cost, then one less. The start of
    the Company's turn must end the game in Economic Defeat exactly when `can_play` (recomputed from the
    card data) says nothing can be played.
    """
    if not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN or not state.c_hand:
        return None
    game = state.game
    size = state.cards.rules.company_hand_size
    ones = sorted((card.number, card.kind) for card in state.cards.company.values() if card.budget == 1)
    for card in state.c_hand:
        data = game.company_card(card)
        if data.standard is None or data.kind in state.banned or not 1 <= data.standard.cost < size:
            continue
        fillers = [number for number, kind in ones if kind != data.kind]
        for worth in (data.standard.cost, data.standard.cost - 1):
            hand = (card, *fillers[:worth])
            if len(hand) != worth + 1:
                continue
            kinds = {game.company_card(c).kind for c in hand[1:]}
            probe = replace(state, c_hand=tuple(sorted(hand)), c_reserve=(),
                            banned=tuple(sorted(kinds | set(state.banned))))
            message = _probe_defeat(engine.apply(probe, Pass()))
            if message is not None:
                return (f"with the hand {sorted(hand)}, card {card} costing {data.standard.cost} and the rest "
                        f"worth {worth}: {message}")
    return None


def _trash_defeat_offers(state: GameState) -> str | None:
    """After the turn's first play, leave the Company nothing to buy but a trash card its hand can pay for, and end
    the Play Phase.

    Buying Cards: the trash pile is part of the Market (cards are Removed to it), bought at their Budget plus one;
    Company Rules: Economic Defeat only when no card can be bought. A hand that can pay for a trash card and for
    nothing in the piles and stacks is rare in generated games. The piles and stacks go out of the game, one of
    their cards (in turn with the round) that the hand can pay for from the trash pile goes on its top (and, in a
    second probe, under one it cannot pay for), and the Buy Phase that follows must go on exactly when `can_buy`
    (recomputed from the card data and the rulings) says a card can be bought.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or state.plays != 1:
        return None
    total = budget_of(state, state.c_hand)
    market = [c for place in (*state.piles, *state.stacks) for c in place]
    affordable = [c for c in market if buy_price(state, c, from_trash=True) <= total]
    if not affordable:
        return None
    card = affordable[state.round % len(affordable)]
    # Then again under a card the hand cannot pay for: which trash cards may be bought is a ruling (trash-buy), and
    # the defeat check must read it as the buys do.
    dearer = [c for c in market if buy_price(state, c, from_trash=True) > total]
    tops = [(card,), *([(card, dearer[state.round % len(dearer)])] if dearer else [])]
    for top in tops:
        probe = replace(state, piles=tuple(() for _ in state.piles), stacks=tuple(() for _ in state.stacks),
                        trash=(*state.trash, *top),
                        c_removed=tuple(sorted((*state.c_removed, *(c for c in market if c not in top)))))
        message = _probe_defeat(engine.apply(probe, EndPlay()))
        if message is not None:
            where = f"card {card} on the trash pile" + (f" under card {top[1]}" if len(top) > 1 else "")
            return f"with only {where} to buy: {message}"
    return None


@functools.lru_cache(maxsize=64)
def _with_goal_target(game: Game, target: int) -> Game:
    """`game` with `target` Goal points to win (a card file may set any number).

    The set is no file's reading, so it keeps no text: `cards.file` has nothing to compare it with."""
    cards = game.cards
    return Game(replace(cards, rules=replace(cards.rules, goal_points_to_win=target), text=""), game.rulings)


def _goal_victory_offers(state: GameState) -> str | None:
    """On each Movement turn, achieve each available Goal with the Goal points to win set just above the points
    held, and again at exactly what the Goal brings, as a what-if.

    Generated games seldom reach the Goal points to win, and hardly ever pass them with one Goal (a Goal
    worth 2 from one point short). With the target one above the points held, every Goal reaches or passes
    it; with the target at the points held plus the Goal's own, it reaches it exactly. Either way the Goal
    Victory must follow.
    """
    if state.outcome is not None or not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN:
        return None
    probe, agitations = icon_agitations(state)
    points = goal_points(state)
    for action in agitations:
        if action.tokens != 0:
            continue
        worth = state.game.goal(state.goals[action.slot]).points
        for target in sorted({points + 1, points + worth}):
            after = engine.apply(replace(probe, game=_with_goal_target(state.game, target)), action)
            outcome = after.outcome
            if outcome is None or outcome.reason is not OutcomeReason.GOAL_VICTORY:
                ended = "the game goes on" if outcome is None else f"the game ends in {outcome.reason.value}"
                return (f"achieving the Goal at place {action.slot} ({worth} points) from {points} points, with "
                        f"{target} to win: {ended}, not a Goal Victory")
    return None


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("outcome.reason", "A finished game's reason holds and names the right winner; "
                   "a game goes on only while no victory has been reached.",
                   (S.COMPANY_RULES, S.MOVEMENT_RULES, S.SEED_DEMOGRAPHICS, S.AGITATION_AND_GOALS), _outcome_holds),
    StateInvariant("outcome.economic-defeat",
                   "Economic Defeat happens exactly when the Company cannot play, or cannot buy, on its turn.",
                   (S.COMPANY_RULES, S.COMPANY_ON_YOUR_GO), _economic_defeat),
    StateInvariant("outcome.profit-offers",
                   "Any Reshuffle played out with the winning Profit held ends in a Company victory, or first in"
                   " Marginalization, which it does when fewer cards are left than the hand size; Profit lobbied on "
                   "the Movement's cards does not count, nor a Draw Phase without a Reshuffle.",
                   (S.COMPANY_RULES, S.RESHUFFLE_SEQUENCE), _profit_offers),
    TransitionInvariant("outcome.profit-victory",
                        "A Reshuffle that ends with the Company holding 70 Profit wins the game for it, counted "
                        "after the draw at step D (ruling profit-victory).",
                        (S.COMPANY_RULES, S.RESHUFFLE_SEQUENCE), _profit_victory),
    StateInvariant("outcome.defeat-offers",
                   "With every kind in the Company's hand banned, its turn ends in Economic Defeat exactly when no "
                   "card can be played (Loopholes aside).", (S.COMPANY_RULES, S.COMPANY_INTERFERENCE), _defeat_offers),
    StateInvariant("outcome.goal-victory-offers",
                   "A Goal that takes the Movement to the Goal points to win, or past them, ends the game in a Goal "
                   "Victory.", (S.MOVEMENT_RULES, S.AGITATION_AND_GOALS), _goal_victory_offers),
    StateInvariant("outcome.trash-defeat-offers",
                   "With nothing to buy but a trash card the hand can pay for (its Budget plus one), ending the Play "
                   "Phase leads to the Buy Phase, not to Economic Defeat.",
                   (S.COMPANY_RULES, S.BUYING_CARDS), _trash_defeat_offers),
    StateInvariant("outcome.defeat-boundary-offers",
                   "With a hand whose one playable card costs what the rest of the hand holds, or one more, its "
                   "turn ends in Economic Defeat exactly when the card cannot be paid for.",
                   (S.COMPANY_RULES, S.COMPANY_ON_YOUR_GO), _defeat_boundary_offers),
)
"""The `outcome.*` invariants, in the order they are checked and listed."""
