"""The greedy Company: a cheap one-step heuristic that plays to win on Profit and stars.

It scores each legal action with hand-tuned values and takes the best (ties broken by its seeded
generator). Two ideas carry it:

* the Play Phase trades a card's effect against the Budget it consumes, valuing the Budget left
  by the best card it could still buy; a play that leaves no affordable buy is never preferred
  (Company Rules > On Your Go: a Company that cannot Buy suffers Economic Defeat);
* the Buy Phase takes the strongest affordable card, then more only while they are strong.

Values are per Game, computed once from the card data; nothing here applies actions, so the
agent costs about as much as one `legal_actions` call per decision.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from doubtspec.agents.base import pick_best
from doubtspec.model.actions import (
    Action,
    Buy,
    BuySource,
    EndPlay,
    LobbyOn,
    LobbyWhere,
    PlaceDoubt,
    PlayReserve,
    PlayStandard,
    RemoveFromMarket,
    Skip,
    TrashCard,
)
from doubtspec.model.cards import (
    AddDoubt,
    AddVictims,
    CompanyEffect,
    Discount,
    DrawCards,
    Icon,
    Lobby,
    MarketAction,
    NamedEffect,
    RemoveMarketCard,
    ScoreProfit,
    TokenKind,
    Trigger,
    Zone,
)
from doubtspec.model.company import is_banned
from doubtspec.model.game import Game
from doubtspec.model.legal import buy_offers
from doubtspec.model.movement import available_goals, face_up_icons
from doubtspec.model.state import GameState, Phase

ZONE_VALUE = (2.0, 1.7, 1.4, 1.0)
"""A Victim's worth by zone (Children .. Elderly): younger ones score at more Reshuffles."""

DOUBT_VALUE = 0.9
PROFIT_VALUE = 1.0
DRAW_VALUE = 1.2
REMOVE_MARKET_VALUE = 0.7
LOBBY_THREAT_VALUE = 1.6
"""A Lobby token on a Goal the Movement could soon reach; it costs one Profit, so it must beat 1."""

NO_BUY = -1000.0
"""Score of ending with nothing affordable: Economic Defeat."""

EXTRA_BUY_THRESHOLD = 2.6
"""A second or later buy must be at least this strong: weak cards only dilute the deck."""

RESERVE_LOSS = 0.5
"""Share of a card's strength lost when it goes to the Reserve (it is trashed at the next Reshuffle)."""

SAFE_DECK = 9
"""Cards owned outside the Reserve below which Reserve plays risk Marginalization."""


@dataclass(frozen=True, slots=True)
class CardPlan:
    """What the greedy Company knows about one card, from the card data alone."""

    budget: int
    kind: str
    std_cost: int | None
    std_effects: tuple[CompanyEffect, ...]
    std_key: tuple[Trigger, Icon] | None
    """Trigger and action type a standard play activates in the Reserve."""
    res_cost: int | None
    res_effects: tuple[CompanyEffect, ...]
    res_key: tuple[Trigger, Icon] | None
    res_reshuffle: float
    stays: bool
    loopholes: bool
    strength: float


def effect_value(effect: CompanyEffect) -> float:
    """The static worth of one effect, in Profit-like units."""
    match effect:
        case AddVictims(zone=zone, count=count):
            return ZONE_VALUE[zone] * count
        case AddDoubt(count=count):
            return DOUBT_VALUE * count
        case ScoreProfit(count=count):
            return PROFIT_VALUE * count
        case DrawCards(count=count):
            return DRAW_VALUE * count
        case Lobby(count=count):
            return 0.3 * count
        case RemoveMarketCard(count=count):
            return REMOVE_MARKET_VALUE * count
        case Discount(amount=amount):
            return 0.6 * amount
        case NamedEffect():
            return 0.4
    return 0.0


def _plan(game: Game, number: int) -> CardPlan:
    card = game.company_card(number)
    std, res = card.standard, card.reserve
    std_value = sum(effect_value(e) for e in std.effects) if std else 0.0
    res_value = sum(effect_value(e) for e in res.effects) if res else 0.0
    reshuffle_value = sum(effect_value(e) for e in res.on_reshuffle) if res else 0.0
    options = [0.0]
    if std is not None:
        options.append(std_value - 0.4 * std.cost)
    if res is not None:
        # A Reserve card acts about once or twice before it is trashed; one that stays acts again.
        activations = 1.5 * (2 if res.stays else 1)
        options.append(res_value * activations + reshuffle_value * (2 if res.stays else 1)
                       + (1.0 if res.loopholes else 0.0) - 0.4 * res.cost)
    strength = 0.6 * card.budget + max(options)
    return CardPlan(
        budget=card.budget, kind=card.kind,
        std_cost=None if std is None else std.cost,
        std_effects=() if std is None else std.effects,
        std_key=None if std is None or std.trigger is None else (std.trigger, std.icon),
        res_cost=None if res is None else res.cost,
        res_effects=() if res is None else res.effects,
        res_key=None if res is None or res.trigger is None else (res.trigger, res.icon),
        res_reshuffle=reshuffle_value, stays=False if res is None else res.stays,
        loopholes=False if res is None else res.loopholes, strength=strength,
    )


@lru_cache(maxsize=16)
def company_plans(game: Game) -> tuple[CardPlan | None, ...]:
    """Every card's plan, indexed by card number (None where the set has no card)."""
    return tuple(None if game.company[n] is None else _plan(game, n) for n in range(len(game.company)))


class GreedyCompany:
    """The greedy Company player (see the module docstring)."""

    __slots__ = ("game", "plans", "rng")

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        self.plans = company_plans(game)

    def choose(self, state: GameState, actions: tuple[Action, ...]) -> Action:
        if len(actions) == 1:
            return actions[0]
        if state.pending:
            scores = [self._choice_score(state, a) for a in actions]
        elif state.phase is Phase.COMPANY_PLAY:
            scores = self._play_scores(state, actions)
        else:
            scores = self._buy_scores(state, actions)
        return pick_best(actions, scores, self.rng)

    # --- Play Phase ----------------------------------------------------------------------------

    def _buy_value(self, offers: list[tuple[int, int]], budget: int) -> float:
        """The strength of the best card that `budget` can buy; NO_BUY when none."""
        best = NO_BUY
        plans = self.plans
        for card, cost in offers:
            if cost <= budget:
                plan = plans[card]
                if plan is not None and plan.strength > best:
                    best = plan.strength
        return best

    def _play_scores(self, state: GameState, actions: tuple[Action, ...]) -> list[float]:
        plans = self.plans
        budget = self.game.budget
        offers = [(card, cost) for _, _, card, cost in buy_offers(state)]
        hand_budget = sum(budget[c] for c in state.c_hand)
        activations = self._activation_values(state)
        threat = self._movement_threat(state)
        owned = len(state.c_deck) + len(state.c_hand) + len(state.c_discard)
        scores: list[float] = []
        for action in actions:
            match action:
                case PlayStandard(card=card, pay=pay):
                    plan = plans[card]
                    assert plan is not None
                    left = hand_budget - budget[card] - sum(budget[c] for c in pay)
                    gained = self._effects_now(state, plan.std_effects, threat, card, pay)
                    if plan.std_key is not None:
                        gained += activations.get(plan.std_key, 0.0)
                    discount = sum(e.amount for e in plan.std_effects if isinstance(e, Discount))
                    scores.append(gained + self._buy_value(offers, left + discount) - self._pay_loss(state, pay))
                case PlayReserve(card=card, pay=pay):
                    plan = plans[card]
                    assert plan is not None
                    left = hand_budget - budget[card] - sum(budget[c] for c in pay)
                    value = self._reserve_value(state, card, plan, pay)
                    loss = 0.0 if plan.stays else RESERVE_LOSS * plan.strength
                    if not plan.stays and owned - 1 < SAFE_DECK:
                        loss += 5.0  # Marginalization: the deck must refill the hand after a Reshuffle
                    scores.append(value - loss + self._buy_value(offers, left) - self._pay_loss(state, pay))
                case EndPlay():
                    scores.append(self._buy_value(offers, hand_budget))
                case _:
                    # Taking Lobbying back returns the Profit to the supply, not to the Company.
                    scores.append(NO_BUY * 2)
        return scores

    def _pay_loss(self, state: GameState, pay: tuple[int, ...]) -> float:
        """Small regret for paying with cards that could have been played themselves."""
        plans = self.plans
        loss = 0.0
        for card in pay:
            plan = plans[card]
            if plan is not None and plan.std_cost is not None and not is_banned(self.game, state.banned, card):
                loss += 0.1 * max(0.0, sum(effect_value(e) for e in plan.std_effects))
        return loss

    def _effects_now(self, state: GameState, effects: tuple[CompanyEffect, ...], threat: float,
                     card: int, pay: tuple[int, ...]) -> float:
        """What a play's effects are worth in this state (full columns, empty supplies, threats)."""
        value = 0.0
        for effect in effects:
            match effect:
                case AddVictims(zone=zone, count=count):
                    if state.supply_of(TokenKind.VICTIMS):
                        guarded = 1.0 if state.doubt[zone] else 0.8
                        value += ZONE_VALUE[zone] * count * guarded
                case AddDoubt(group=group, count=count):
                    values = state.cards.display.doubt_values
                    room = sum(len(values[c]) - state.doubt[c] for c in group.columns)
                    if state.supply_of(TokenKind.DOUBT):
                        crowd = sum(state.victims[c] for c in group.columns)
                        value += min(count, room) * (DOUBT_VALUE + 0.1 * min(crowd, 6))
                case ScoreProfit(count=count):
                    value += PROFIT_VALUE * count
                case DrawCards(count=count):
                    if state.c_deck or state.c_discard:
                        value += DRAW_VALUE * count
                case Lobby(count=count):
                    if state.profit > 0:
                        value += count * max(0.0, threat - PROFIT_VALUE)
                case RemoveMarketCard(count=count):
                    value += REMOVE_MARKET_VALUE * count
                case NamedEffect(name="trash_from_hand"):
                    rest = [c for c in state.c_hand if c != card and c not in pay]
                    if any(self.game.budget[c] == 0 for c in rest):
                        value += 1.5
                case Discount():
                    pass  # counted as Budget for the coming buy
        return value

    def _activation_values(self, state: GameState) -> dict[tuple[Trigger, Icon], float]:
        """Per (trigger, action type), what the Reserve adds when a standard play activates it."""
        result: dict[tuple[Trigger, Icon], float] = {}
        for card in state.c_reserve:
            plan = self.plans[card]
            if plan is None or plan.res_key is None or is_banned(self.game, state.banned, card):
                continue
            result[plan.res_key] = result.get(plan.res_key, 0.0) + sum(effect_value(e) for e in plan.res_effects)
        return result

    def _reserve_value(self, state: GameState, card: int, plan: CardPlan, pay: tuple[int, ...]) -> float:
        """A Reserve play: its activations until the next Reshuffle, its Reshuffle effects, Loopholes."""
        value = plan.res_reshuffle
        if plan.res_key is not None:
            per = sum(effect_value(e) for e in plan.res_effects)
            # Cards in hand may still be played this turn; most of the deck is drawn before the
            # next Reshuffle trashes the Reserve.
            matching = 0.0
            for other in state.c_hand:
                other_plan = self.plans[other]
                if other != card and other not in pay and other_plan is not None and other_plan.std_key == plan.res_key:
                    matching += 0.6
            for other in state.c_deck:
                other_plan = self.plans[other]
                if other_plan is not None and other_plan.std_key == plan.res_key:
                    matching += 0.5
            value += per * matching * (2 if plan.stays else 1)
        if plan.loopholes and state.banned:
            value += 1.5
        return value

    def _movement_threat(self, state: GameState) -> float:
        """How much a Lobby token hurts now: a lot when the Movement nearly reaches a Goal."""
        icons = face_up_icons(self.game, state.tableau)
        reach = icons.agitation + state.agitation
        best = 0.0
        for slot in available_goals(state.goals):
            goal = self.game.goal(state.goals[slot])
            need = goal.cost + state.goal_profit[slot] - state.goal_agitation[slot]
            if need - reach <= 2:
                best = max(best, LOBBY_THREAT_VALUE + 0.2 * goal.points)
        return best

    # --- Buy Phase -----------------------------------------------------------------------------

    def _buy_scores(self, state: GameState, actions: tuple[Action, ...]) -> list[float]:
        plans = self.plans
        budget = self.game.budget
        scores: list[float] = []
        for action in actions:
            if isinstance(action, Buy):
                card = self._card_of(state, action)
                plan = plans[card]
                strength = plan.strength if plan is not None else 0.0
                if state.buys and strength < EXTRA_BUY_THRESHOLD:
                    scores.append(-1.0)
                    continue
                # Keep Budget for a further buy: pay with as little as possible.
                scores.append(strength - 0.01 * sum(budget[c] for c in action.pay) - 0.001 * len(action.pay))
            else:
                scores.append(0.0)
        return scores

    @staticmethod
    def _card_of(state: GameState, action: Buy) -> int:
        """The card a Buy takes: the top of a pile or stack, or a card of the trash pile."""
        match action.source:
            case BuySource.PILE:
                return state.piles[action.index][-1]
            case BuySource.STACK:
                return state.stacks[action.index][-1]
        return state.trash[action.index]

    # --- choices inside an effect ------------------------------------------------------------

    def _choice_score(self, state: GameState, action: Action) -> float:
        game = self.game
        match action:
            case PlaceDoubt(column=column):
                # Stack Doubt where the Victims are: a deeper column costs more Messaging to clear.
                return (1.0 * state.victims[column] + 0.3 * state.doubt[column]
                        + 0.1 * (column in (Zone.ADULTS, Zone.MIDDLE_AGE)))
            case LobbyOn(where=where, index=index):
                if where is LobbyWhere.GOAL:
                    slot = index
                    goal = game.goal(state.goals[slot])
                    need = goal.cost + state.goal_profit[slot] - state.goal_agitation[slot]
                    open_now = slot in tuple(available_goals(state.goals))
                    return (2.0 if open_now else 0.5) + 0.3 * goal.points - 0.2 * need - PROFIT_VALUE
                space = game.cards.market[index]
                useful = space.action in (MarketAction.AGITATION, MarketAction.MESSAGING)
                return (1.2 if useful else 0.6) - 0.1 * space.cost - PROFIT_VALUE
            case RemoveFromMarket(space=space):
                card = game.movement_card(state.market[space])
                action_kind = game.cards.market[space].action
                return (card.icons.agitation * 1.5 + card.icons.messaging + 0.5 * card.icons.research
                        + (1.0 if action_kind is MarketAction.AGITATION else 0.0) - 0.1 * game.cards.market[space].cost)
            case TrashCard(card=card):
                plan = self.plans[card]
                # Only dead cards: trashing one with Budget loses Budget this very turn.
                if game.budget[card] == 0:
                    return 2.0
                return -1.0 if plan is None else -plan.strength
            case Skip():
                return 0.0
        return 0.0
