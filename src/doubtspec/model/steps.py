"""Pending steps: the parts of a turn that are waiting to happen.

A state's `pending` tuple is a queue, head first. Automatic steps are resolved by the engine as
soon as they reach the head; a state at rest has either an empty queue (the phase's free choice),
a *choice* step at its head (a side must decide, e.g. which column a Doubt goes to) or a *chance*
step (a card is drawn from an unordered deck: each distinct card is an outcome).
"""

from __future__ import annotations

from dataclasses import dataclass

from doubtspec.model.cards import CompanyEffect, Icon, Trigger

# --- chance steps -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealStack:
    """Company Set-Up step 2: deal one odd card (its even partner on top) to the next stack."""

    pool: tuple[int, ...]
    """Odd cards not dealt yet."""


@dataclass(frozen=True, slots=True)
class CompanyDraw:
    """Draw `count` cards one at a time; `silent` reshuffles an empty deck without the Sequence."""

    count: int
    silent: bool


@dataclass(frozen=True, slots=True)
class DrawToHandSize:
    """Reshuffle Sequence D: draw until the hand is full; an empty deck is Marginalization."""


@dataclass(frozen=True, slots=True)
class GoalSplit:
    """Movement Set-Up step 2: which three of G1-G6 lie with G7-G9 in the upper stack."""


@dataclass(frozen=True, slots=True)
class DealGoal:
    """Movement Set-Up step 2: deal the next place of the Goal structure from its stack."""

    slot: int
    upper: tuple[int, ...]
    lower: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FillMarket:
    """Draw from the Market deck into the first empty space (Set-Up 3, Pacing 2, Organize)."""


# --- choice steps -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChooseStartingCard:
    """Movement Set-Up step 1."""


@dataclass(frozen=True, slots=True)
class ResolveEffect:
    """A Company effect that needs a choice (Doubt column, Lobby target, Market card, card to trash)."""

    effect: CompanyEffect
    remaining: int
    used: tuple[int, ...] = ()
    """Lobby targets already used by this effect (one token per card per action)."""


@dataclass(frozen=True, slots=True)
class Messaging:
    """Buying a Card, Messaging: spend `icons` then tokens against one zone."""

    icons: int


@dataclass(frozen=True, slots=True)
class Agitation:
    """Buying a Card, Agitation: put icon Agitation and tokens towards one available Goal."""

    icons: int


@dataclass(frozen=True, slots=True)
class Organize:
    """Buying a Card, Organize: play a card from hand for free, or not."""


# --- automatic steps ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Effect:
    """A Company effect about to resolve (it becomes a `ResolveEffect` when it needs a choice)."""

    effect: CompanyEffect


@dataclass(frozen=True, slots=True)
class Activate:
    """Standard Effects, triggers: activate matching Reserve cards from left to right."""

    trigger: Trigger
    icon: Icon


@dataclass(frozen=True, slots=True)
class FinishPlay:
    """A standard play has resolved: the card goes to the discard pile."""

    card: int


@dataclass(frozen=True, slots=True)
class ScoreAndSeed:
    """Reshuffle Sequence A and B."""


@dataclass(frozen=True, slots=True)
class ResolveReserveCard:
    """Reshuffle Sequence C, one card: the rightmost card not yet resolved, at `index`."""

    index: int


@dataclass(frozen=True, slots=True)
class ShuffleDiscards:
    """Reshuffle Sequence D: the discards join the deck (the deck is unordered)."""


@dataclass(frozen=True, slots=True)
class CheckProfitVictory:
    """Company Rules: 70 Profit at the end of a Reshuffle."""


@dataclass(frozen=True, slots=True)
class EndCompanyTurn:
    """The Company's turn is over; Pacing follows a Reshuffle Sequence."""

    pacing: bool


@dataclass(frozen=True, slots=True)
class PacingPassives:
    """Pacing step 1."""


@dataclass(frozen=True, slots=True)
class ShiftMarket:
    """Pacing step 2, the shift (refill follows as `FillMarket`)."""


@dataclass(frozen=True, slots=True)
class ReclaimFlight:
    """Pacing step 3."""


@dataclass(frozen=True, slots=True)
class StartMovementTurn:
    pass


@dataclass(frozen=True, slots=True)
class StartCompanyTurn:
    """The Company's turn begins; Economic Defeat if no card can be played."""


@dataclass(frozen=True, slots=True)
class TakeMarketCard:
    """Buying a Card: after the Action, the space's card goes to the hand."""

    space: int


ChanceStep = DealStack | CompanyDraw | DrawToHandSize | GoalSplit | DealGoal | FillMarket
ChoiceStep = ChooseStartingCard | ResolveEffect | Messaging | Agitation | Organize
AutoStep = (
    Effect | Activate | FinishPlay | ScoreAndSeed | ResolveReserveCard | ShuffleDiscards | CheckProfitVictory
    | EndCompanyTurn | PacingPassives | ShiftMarket | ReclaimFlight | StartMovementTurn | StartCompanyTurn
    | TakeMarketCard
)
Step = ChanceStep | ChoiceStep | AutoStep
