"""Legality in one place: every legal action of a state, in a deterministic order.

`doubtspec.model.engine.is_legal` is membership in `legal_actions`, so the two agree by
construction; `explain_illegal` says which rule an illegal action breaks.
"""

from __future__ import annotations

from itertools import combinations

from doubtspec.model.actions import (
    Action,
    Agitate,
    Buy,
    BuySource,
    Chance,
    ChooseStart,
    End,
    EndBuy,
    EndPlay,
    LobbyOn,
    LobbyWhere,
    Message,
    MovementBuy,
    MovementPlay,
    OrganizePlay,
    Pass,
    PlaceDoubt,
    PlayReserve,
    PlayStandard,
    RemoveFromMarket,
    Skip,
    TrashCard,
    Unlobby,
)
from doubtspec.model.cards import AddDoubt, Lobby, NamedEffect, RemoveMarketCard, TokenKind, Zone
from doubtspec.model.company import GOAL_TARGET, MAX_LOBBY, buy_cost, can_play_standard
from doubtspec.model.movement import available_goals, doubt_cost
from doubtspec.model.state import NO_CARD, GameState, Phase, Side
from doubtspec.model.steps import (
    Agitation,
    ChooseStartingCard,
    CompanyDraw,
    DealGoal,
    DealStack,
    DrawToHandSize,
    FillMarket,
    GoalSplit,
    Messaging,
    Organize,
    ResolveEffect,
    Step,
)

_ENDS_BOTH = (End.LEFT, End.RIGHT)
_ENDS_ONE = (End.RIGHT,)


# --- the Company ---------------------------------------------------------------------------


def company_plays(state: GameState) -> list[Action]:
    """On Your Go, Play Phase: standard and reserve plays, each with each way to pay."""
    game = state.game
    hand = state.c_hand
    actions: list[Action] = []
    for i, card in enumerate(hand):
        others = hand[:i] + hand[i + 1:]
        data = game.company_card(card)
        if data.standard is not None and can_play_standard(game, state.c_reserve, state.banned, card):
            actions.extend(PlayStandard(card, pay) for pay in game.payments(others, data.standard.cost))
        if data.reserve is not None and data.kind not in state.banned:
            actions.extend(PlayReserve(card, pay) for pay in game.payments(others, data.reserve.cost))
    return actions


def can_play_any(state: GameState) -> bool:
    """Economic Defeat check, Play Phase: is there any card the Company can play?"""
    game = state.game
    hand = state.c_hand
    for i, card in enumerate(hand):
        others = hand[:i] + hand[i + 1:]
        data = game.company_card(card)
        if (data.standard is not None and can_play_standard(game, state.c_reserve, state.banned, card)
                and game.can_pay(others, data.standard.cost)):
            return True
        if data.reserve is not None and data.kind not in state.banned and game.can_pay(others, data.reserve.cost):
            return True
    return False


def buy_offers(state: GameState) -> list[tuple[BuySource, int, int, int]]:
    """Buying Cards: (source, index, card, cost) of every card the Company may buy."""
    game = state.game
    offers: list[tuple[BuySource, int, int, int]] = []
    for i, pile in enumerate(state.piles):
        if pile and (game.restriction_buyable or game.cards.piles[i].kind != "restriction"):
            offers.append((BuySource.PILE, i, pile[-1], buy_cost(game, pile[-1], False, state.discount)))
    for i, stack in enumerate(state.stacks):
        if stack:
            offers.append((BuySource.STACK, i, stack[-1], buy_cost(game, stack[-1], False, state.discount)))
    if state.trash:
        positions = range(len(state.trash)) if game.trash_any else (len(state.trash) - 1,)
        for pos in positions:
            card = state.trash[pos]
            offers.append((BuySource.TRASH, pos, card, buy_cost(game, card, True, state.discount)))
    return offers


def company_buys(state: GameState) -> list[Action]:
    game = state.game
    return [Buy(source, index, pay) for source, index, _, cost in buy_offers(state)
            for pay in game.payments(state.c_hand, cost)]


def can_buy_any(state: GameState) -> bool:
    """Economic Defeat check, Buy Phase: is there any card the Company can pay for?"""
    total = sum(state.game.budget[c] for c in state.c_hand)
    return any(cost <= total for _, _, _, cost in buy_offers(state))


def lobby_targets(state: GameState, used: tuple[int, ...] = ()) -> list[int]:
    """Company Rules > Interference: unpurchased Movement cards with fewer than three Profit."""
    targets = [i for i, card in enumerate(state.market)
               if card != NO_CARD and state.market_profit[i] < MAX_LOBBY and i not in used]
    if state.game.lobby_goals:
        targets.extend(GOAL_TARGET + s for s, goal in enumerate(state.goals)
                       if goal != NO_CARD and state.goal_profit[s] < MAX_LOBBY and GOAL_TARGET + s not in used)
    return targets


def _target_action(target: int, cls: type[LobbyOn] | type[Unlobby]) -> LobbyOn | Unlobby:
    if target >= GOAL_TARGET:
        return cls(LobbyWhere.GOAL, target - GOAL_TARGET)
    return cls(LobbyWhere.MARKET, target)


def unlobby_actions(state: GameState) -> list[Action]:
    """Interference: before its first play, the Company may take back one card's Lobbying."""
    if state.plays or state.unlobbied:
        return []
    actions: list[Action] = [Unlobby(LobbyWhere.MARKET, i) for i, p in enumerate(state.market_profit) if p]
    actions.extend(Unlobby(LobbyWhere.GOAL, s) for s, p in enumerate(state.goal_profit) if p)
    return actions


def effect_choices(state: GameState, step: ResolveEffect) -> list[Action]:
    """The options of a Company effect that needs a choice; empty means it resolves to nothing."""
    effect = step.effect
    match effect:
        case AddDoubt(group=group):
            if state.supply_of(TokenKind.DOUBT) == 0:
                return []
            values = state.cards.display.doubt_values
            return [PlaceDoubt(col) for col in group.columns if state.doubt[col] < len(values[col])]
        case Lobby():
            if state.profit <= 0:
                return []
            targets = lobby_targets(state, step.used)
            if not targets:
                return []
            return [*(_target_action(t, LobbyOn) for t in targets), Skip(Side.COMPANY)]
        case RemoveMarketCard():
            return [RemoveFromMarket(i) for i, card in enumerate(state.market) if card != NO_CARD]
        case NamedEffect(name="trash_from_hand"):
            if not state.c_hand:
                return []
            return [*(TrashCard(c) for c in state.c_hand), Skip(Side.COMPANY)]
    return []


# --- the Movement --------------------------------------------------------------------------


def flip_sets(state: GameState, cost: int, exclude: int | None = None) -> list[tuple[int, ...]]:
    """Spending Influence: face-up cards to flip, none superfluous, tokens covering the rest."""
    game = state.game
    tokens = state.influence + state.flight
    up = [(pos, game.movement_card(card).influence) for pos, (card, face) in enumerate(state.tableau)
          if face and pos != exclude]
    result: list[tuple[int, ...]] = []
    if cost <= tokens:
        result.append(())
    for k in range(1, len(up) + 1):
        for chosen in combinations(up, k):
            value = sum(v for _, v in chosen)
            if value - min(v for _, v in chosen) >= cost:
                continue  # a superfluous flip (ruling influence-payment)
            if cost - value <= tokens:
                result.append(tuple(p for p, _ in chosen))
    return result


def movement_turn(state: GameState) -> list[Action]:
    """Movement On Your Go: exactly one of Play, Buy or Pass."""
    game = state.game
    actions: list[Action] = []
    full = len(state.tableau) >= game.cards.rules.tableau_limit
    ends = _ENDS_BOTH if state.tableau else _ENDS_ONE
    for card in state.m_hand:
        cost = game.movement_card(card).influence
        if full:
            for remove in range(len(state.tableau)):
                for flip in flip_sets(state, cost, exclude=remove):
                    actions.extend(MovementPlay(card, flip, end, remove) for end in ends)
        else:
            for flip in flip_sets(state, cost):
                actions.extend(MovementPlay(card, flip, end) for end in ends)
    if len(state.m_hand) < state.hand_limit():
        for space, card in enumerate(state.market):
            if card != NO_CARD:
                cost = game.cards.market[space].cost + state.market_profit[space]
                actions.extend(MovementBuy(space, flip) for flip in flip_sets(state, cost))
    actions.append(Pass())
    return actions


def messaging_choices(state: GameState, step: Messaging) -> list[Action]:
    """Messaging: for one zone, Doubt bottom-up then Victims, within icons plus tokens."""
    budget = step.icons + state.messaging
    actions: list[Action] = []
    for zone in Zone:
        present = state.doubt[zone]
        for doubts in range(present + 1):
            cost = doubt_cost(state.game, zone, present, doubts)
            if cost > budget:
                break
            most = min(state.victims[zone], budget - cost) if doubts == present else 0
            actions.extend(Message(zone, doubts, v) for v in range(most + 1) if doubts + v > 0)
    if actions:
        actions.append(Skip(Side.MOVEMENT))
    return actions


def agitation_choices(state: GameState, step: Agitation) -> list[Action]:
    """Agitation and Goals: progress or achievement on one available Goal."""
    actions: list[Action] = []
    game = state.game
    for slot in available_goals(state.goals):
        need = game.goal(state.goals[slot]).cost + state.goal_profit[slot] - state.goal_agitation[slot]
        top = min(state.agitation, max(0, need - step.icons))
        for tokens in range(top + 1):
            # Agitation and Goals: the tokens already on a Goal reduce its cost, so a Goal whose Lobbying
            # was taken back may be paid already and is claimed with no new Agitation.
            if step.icons + tokens > 0 or need <= 0:
                actions.append(Agitate(slot, tokens))
    if actions:
        actions.append(Skip(Side.MOVEMENT))
    return actions


def organize_choices(state: GameState) -> list[Action]:
    """Buying a Card > Organize: a free play from the hand, or none."""
    if not state.m_hand:
        return []
    full = len(state.tableau) >= state.cards.rules.tableau_limit
    ends = _ENDS_BOTH if state.tableau else _ENDS_ONE
    actions: list[Action] = []
    for card in state.m_hand:
        if full:
            actions.extend(OrganizePlay(card, end, r) for r in range(len(state.tableau)) for end in ends)
        else:
            actions.extend(OrganizePlay(card, end) for end in ends)
    actions.append(Skip(Side.MOVEMENT))
    return actions


def choice_actions(state: GameState, step: Step) -> list[Action]:
    """The options of a pending choice step (empty: the step has nothing to decide)."""
    match step:
        case ResolveEffect():
            return effect_choices(state, step)
        case Messaging():
            return messaging_choices(state, step)
        case Agitation():
            return agitation_choices(state, step)
        case Organize():
            return organize_choices(state)
        case ChooseStartingCard():
            return [ChooseStart(c) for c in state.cards.movement_starting]
    raise AssertionError(f"not a choice step: {step!r}")


def phase_actions(state: GameState) -> list[Action]:
    """The free choices of a phase with nothing pending."""
    match state.phase:
        case Phase.COMPANY_PLAY:
            actions = unlobby_actions(state) + company_plays(state)
            if state.plays:
                actions.append(EndPlay())
            return actions
        case Phase.COMPANY_BUY:
            actions = company_buys(state)
            if state.buys:
                actions.append(EndBuy())
            return actions
        case Phase.MOVEMENT_TURN:
            return movement_turn(state)
    return []


def chance_values(state: GameState, step: Step) -> tuple[int, ...]:
    """The outcomes of a chance step, each as likely as the others (decks are unordered)."""
    match step:
        case DealStack(pool=pool):
            return pool
        case CompanyDraw() | DrawToHandSize():
            return state.c_deck
        case GoalSplit():
            return tuple(a * 100 + b * 10 + c for a, b, c in combinations(LOWER_GOALS, 3))
        case DealGoal(slot=slot, upper=upper, lower=lower):
            return upper if slot < 6 else lower
        case FillMarket():
            return state.m_deck
    raise AssertionError(f"not a chance step: {step!r}")


LOWER_GOALS = (1, 2, 3, 4, 5, 6)
"""Movement Set-Up 2: G1-G6 are split; G7-G9 join one half."""


_CHANCE: dict[int, Chance] = {}
"""Chance outcomes are small immutable values drawn again and again: built once each, then shared."""


def chance_actions(state: GameState, step: Step) -> list[Action]:
    """The outcomes of a chance step as actions (see `chance_values`)."""
    cache = _CHANCE
    actions: list[Action] = []
    for value in chance_values(state, step):
        action = cache.get(value)
        if action is None:
            action = cache[value] = Chance(value)
        actions.append(action)
    return actions

