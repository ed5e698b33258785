"""The greedy Movement: a cheap one-step heuristic that plays to win on Goals.

Each legal action is scored with hand-tuned values and the best is taken (ties broken by the
agent's seeded generator). The scores follow the Movement's road to victory: build a Tableau of
face-up Agitation and Messaging icons, buy from Agitation spaces when a Goal is within reach,
from Messaging spaces when Victims can be reached (clearing Doubt where Victims are), from
Research when Influence is short, and Pass for Influence when nothing better is affordable.

Nothing here applies actions; the effect of a Buy's space Action is estimated from the Tableau
as it will be once the payment's cards are flipped (Movement Rules > Buying a Card).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from doubtspec.agents.base import pick_best
from doubtspec.model.actions import (
    Action,
    Agitate,
    ChooseStart,
    End,
    Message,
    MovementBuy,
    MovementPlay,
    OrganizePlay,
    Pass,
    Skip,
)
from doubtspec.model.cards import (
    AddRestriction,
    Ban,
    BonusKind,
    GainFlight,
    GainInfluence,
    Goal,
    HandSize,
    MarketAction,
    Zone,
)
from doubtspec.model.game import Game
from doubtspec.model.movement import aligned, available_goals, doubt_cost
from doubtspec.model.state import GameState
from doubtspec.model.steps import Agitation, Messaging

AGITATION_ICON = 5.0
MESSAGING_ICON = 1.5
RESEARCH_ICON = 1.5
INFLUENCE = 1.0
"""The worth of one Influence token; every other weight is relative to it."""
BONUS = {BonusKind.INFLUENCE: 1.0, BonusKind.MESSAGING: 1.2, BonusKind.AGITATION: 1.5}
POINT = 4.0
ACHIEVED = 6.0
WIN = 1000.0
VICTIM = (2.0, 1.7, 1.4, 1.0)
"""Removing a Victim is worth what it would have scored for the Company (Children .. Elderly)."""
DOUBT_CLEARED = 0.4
PROGRESS = 0.8
"""Agitation left on a Goal is worth this share of what it would be as part of the achievement."""
HAND_FULL = 1.5
FLIP_LOSS = 0.8
"""Share of a card's worth lost while it lies face down (Refresh and Pacing turn it up again)."""
REFRESHED = 0.6
"""Share of a face-down card's worth that turning it up again brings back, sooner than Pacing would."""


@dataclass(frozen=True, slots=True)
class MovementPlan:
    """What the greedy Movement knows about one card, from the card data alone."""

    influence: int
    worth: float
    """The worth of the card face up in the Tableau."""
    agitation: int
    messaging: int
    research: int
    left: tuple[BonusKind, ...]
    right: tuple[BonusKind, ...]


def _plan(game: Game, number: int) -> MovementPlan:
    card = game.movement_card(number)
    icons, passive = card.icons, card.passive
    worth = (AGITATION_ICON * icons.agitation + MESSAGING_ICON * icons.messaging + RESEARCH_ICON * icons.research
             + 1.0 * passive.influence + 1.2 * passive.messaging + 1.5 * passive.agitation + 0.8 * passive.refresh
             + 0.3 * card.influence)
    return MovementPlan(card.influence, worth, icons.agitation, icons.messaging, icons.research, card.left,
                        card.right)


@lru_cache(maxsize=16)
def movement_plans(game: Game) -> tuple[MovementPlan | None, ...]:
    """Every Movement card's plan, indexed by card number (None where the set has no card)."""
    return tuple(None if game.movement[n] is None else _plan(game, n) for n in range(len(game.movement)))


def goal_effects_worth(goal: Goal) -> float:
    """What a Goal's effects and passives add to its points."""
    worth = 0.0
    for effect in goal.effects:
        match effect:
            case Ban():
                worth += 1.5
            case AddRestriction(count=count):
                worth += 1.0 * count
            case HandSize(amount=amount):
                worth += 0.8 * amount
            case GainFlight(count=count) | GainInfluence(count=count):
                worth += 1.0 * count
    passive = goal.passive
    return worth + 1.5 * (passive.influence + passive.messaging + passive.agitation)


class GreedyMovement:
    """The greedy Movement player (see the module docstring)."""

    __slots__ = ("game", "plans", "rng")

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        self.plans = movement_plans(game)

    def _plan_of(self, card: int) -> MovementPlan:
        plan = self.plans[card]
        assert plan is not None, card
        return plan

    def choose(self, state: GameState, actions: tuple[Action, ...]) -> Action:
        if len(actions) == 1:
            return actions[0]
        head = state.pending[0] if state.pending else None
        if isinstance(head, Messaging):
            scores = [self._message_score(state, head.icons, a) for a in actions]
        elif isinstance(head, Agitation):
            scores = [self._agitate_score(state, head.icons, a) for a in actions]
        else:
            scores = [self._turn_score(state, a) for a in actions]
        return pick_best(actions, scores, self.rng)

    # --- the turn: Play, Buy or Pass ---------------------------------------------------------

    def _turn_score(self, state: GameState, action: Action) -> float:
        match action:
            case Pass():
                poor = state.influence == 0 and (not self.game.pass_counts_cards
                                                 or not any(up for _, up in state.tableau))
                gain = 2 if poor else 1
                return gain * INFLUENCE + (0.8 if state.influence + state.flight < 2 else 0.0)
            case MovementPlay(card=card, flip=flip, end=end, remove=remove):
                plan = self._plan_of(card)
                return (plan.worth + self._placement(state, plan, flip, end, remove)
                        - self._payment(state, flip, plan.influence))
            case OrganizePlay(card=card, end=end, remove=remove):
                plan = self._plan_of(card)
                return plan.worth + self._placement(state, plan, (), end, remove)
            case MovementBuy(space=space, flip=flip):
                cost = self.game.cards.market[space].cost + state.market_profit[space]
                taken = self._plan_of(state.market[space])
                # A full hand cannot Buy: the last free slot is worth keeping.
                crowded = HAND_FULL if len(state.m_hand) + 1 >= state.hand_limit() else 0.0
                return (self._space_value(state, space, flip) + 0.5 * taken.worth - 0.3 * taken.influence
                        - crowded - self._payment(state, flip, cost))
            case ChooseStart(card=card):
                return self._plan_of(card).worth
            case Skip():
                return 0.0
        return 0.0

    def _payment(self, state: GameState, flip: tuple[int, ...], cost: int) -> float:
        """The cost of paying: tokens spent, plus the icons lost while the flipped cards lie face down."""
        paid = 0
        loss = 0.0
        for pos in flip:
            plan = self._plan_of(state.tableau[pos][0])
            paid += plan.influence
            loss += FLIP_LOSS * plan.worth
        tokens = cost - paid if cost > paid else 0
        return loss + INFLUENCE * tokens

    def _placement(self, state: GameState, plan: MovementPlan, flip: tuple[int, ...], end: End,
                   remove: int | None) -> float:
        """Bonuses from the nearest face-up neighbour at that end, less a removed card's worth."""
        tableau = state.tableau
        value = 0.0
        if remove is not None:
            card, up = tableau[remove]
            value -= self._plan_of(card).worth * (1.0 if up else 0.4)
        positions = range(len(tableau) - 1, -1, -1) if end is End.RIGHT else range(len(tableau))
        neighbour: MovementPlan | None = None
        for pos in positions:
            card, up = tableau[pos]
            if up and pos not in flip and pos != remove:
                neighbour = self._plan_of(card)
                break
        if neighbour is None:
            return value
        bonuses = aligned(plan.left, neighbour.right) if end is End.RIGHT else aligned(plan.right, neighbour.left)
        for kind in bonuses:
            if kind is BonusKind.REFRESH:
                value += self._refresh_value(state, flip)
            else:
                value += BONUS[kind]
        return value

    def _refresh_value(self, state: GameState, flip: tuple[int, ...]) -> float:
        """Turning the leftmost face-down card up (after the payment's flips)."""
        for pos, (card, up) in enumerate(state.tableau):
            if not up or pos in flip:
                return REFRESHED * self._plan_of(card).worth
        return 0.0

    def _icons_after(self, state: GameState, flip: tuple[int, ...]) -> tuple[int, int, int]:
        agitation = messaging = research = 0
        for pos, (card, up) in enumerate(state.tableau):
            if up and pos not in flip:
                plan = self._plan_of(card)
                agitation += plan.agitation
                messaging += plan.messaging
                research += plan.research
        return agitation, messaging, research

    def _space_value(self, state: GameState, space: int, flip: tuple[int, ...]) -> float:
        """The worth of a Market space's Action with the Tableau as it is once paid for."""
        agitation, messaging, research = self._icons_after(state, flip)
        match self.game.cards.market[space].action:
            case MarketAction.REFRESH:
                return self._refresh_value(state, flip)
            case MarketAction.RESEARCH:
                return 2 * research * INFLUENCE
            case MarketAction.MESSAGING:
                return self._messaging_value(state, messaging, state.messaging)
            case MarketAction.AGITATION:
                return self._agitation_value(state, agitation, state.agitation)
            case MarketAction.ORGANIZE:
                return max((self._plan_of(c).worth for c in state.m_hand), default=0.0)
        return 0.0

    # --- Messaging ---------------------------------------------------------------------------

    def _messaging_value(self, state: GameState, icons: int, tokens: int) -> float:
        """The best single-zone Messaging that `icons` plus `tokens` allow."""
        total = icons + tokens
        if total <= 0:
            return 0.0
        best = 0.0
        for zone in Zone:
            present = state.doubt[zone]
            victims = state.victims[zone]
            clear = doubt_cost(self.game, zone, present, present)
            if total >= clear:
                removed = min(victims, total - clear)
                value = DOUBT_CLEARED * present + removed * (VICTIM[zone] + INFLUENCE)
            else:
                cleared = 0
                while cleared < present and doubt_cost(self.game, zone, present, cleared + 1) <= total:
                    cleared += 1
                value = DOUBT_CLEARED * cleared * (1.0 if victims else 0.5)
            best = max(best, value)
        return best

    def _message_score(self, state: GameState, icons: int, action: Action) -> float:
        if not isinstance(action, Message):
            return 0.0
        zone, doubts, victims = action.zone, action.doubts, action.victims
        cost = doubt_cost(self.game, zone, state.doubt[zone], doubts) + victims
        tokens = cost - icons if cost > icons else 0
        # Doubt is worth clearing where Victims stand behind it; tokens are kept if not spent.
        crowd = state.victims[zone]
        return (doubts * DOUBT_CLEARED * (1.0 + 0.3 * crowd) + victims * (VICTIM[zone] + INFLUENCE)
                - 0.2 * tokens)

    # --- Agitation ---------------------------------------------------------------------------

    def _goal_need(self, state: GameState, slot: int) -> int:
        goal = self.game.goal(state.goals[slot])
        return goal.cost + state.goal_profit[slot] - state.goal_agitation[slot]

    def _achieve_value(self, state: GameState, slot: int) -> float:
        goal = self.game.goal(state.goals[slot])
        # Achieving also uncovers Goals and banks the points against Lobbying: worth more than progress.
        value = ACHIEVED + POINT * goal.points + goal_effects_worth(goal)
        if state.points() + goal.points >= self.game.cards.rules.goal_points_to_win:
            value += WIN
        return value

    def _agitation_value(self, state: GameState, icons: int, tokens: int) -> float:
        """The best Agitation that `icons` plus `tokens` allow: a Goal achieved, or progress."""
        best = 0.0
        for slot in available_goals(state.goals):
            need = self._goal_need(state, slot)
            if icons + tokens >= need:
                spent = need - icons if need > icons else 0
                best = max(best, self._achieve_value(state, slot) - 0.3 * spent)
            elif icons:
                best = max(best, self._progress_value(state, slot, icons))
        return best

    def _progress_value(self, state: GameState, slot: int, amount: int) -> float:
        """Agitation left on a Goal as progress: its share of the Goal's worth, slightly discounted."""
        goal = self.game.goal(state.goals[slot])
        total = goal.cost + state.goal_profit[slot]
        return PROGRESS * amount * (POINT * goal.points + goal_effects_worth(goal)) / max(1, total)

    def _agitate_score(self, state: GameState, icons: int, action: Action) -> float:
        if not isinstance(action, Agitate):
            return 0.0
        need = self._goal_need(state, action.slot)
        if icons + action.tokens >= need:
            return self._achieve_value(state, action.slot) - 0.3 * action.tokens
        # Progress: the icons would be lost otherwise; tokens stay free for any Goal if kept.
        return (self._progress_value(state, action.slot, icons) - 0.3 * action.tokens
                - 0.05 * (need - icons - action.tokens))
