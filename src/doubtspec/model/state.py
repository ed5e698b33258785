"""The game state: one immutable, hashable record of everything on the table.

Unordered collections (decks, hands, discard piles) are sorted tuples, so two states that differ
only in the order nobody can observe are equal and hash equal; a shuffled deck is unordered and
every draw from it is a chance event (see `doubtspec.model.steps`). Ordered collections (the
Reserve, the trash pile, piles and stacks with their top last, the Tableau, the Market spaces and
the Goal structure) keep their order.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum
from typing import TYPE_CHECKING

from doubtspec.model.cards import CardSet, TokenKind, Zone
from doubtspec.model.rulings import Rulings

if TYPE_CHECKING:
    from doubtspec.model.game import Game
    from doubtspec.model.steps import Step


class Side(Enum):
    COMPANY = "company"
    MOVEMENT = "movement"

    @property
    def other(self) -> Side:
        return Side.MOVEMENT if self is Side.COMPANY else Side.COMPANY


class Actor(Enum):
    """Who acts next: a side, chance, or nobody (the game is over)."""

    COMPANY = "company"
    MOVEMENT = "movement"
    CHANCE = "chance"
    TERMINAL = "terminal"


class Phase(Enum):
    """Where the turn structure stands when no step is pending."""

    SETUP = "setup"
    MOVEMENT_TURN = "movement-turn"
    COMPANY_PLAY = "company-play"
    COMPANY_BUY = "company-buy"
    COMPANY_DRAW = "company-draw"
    PACING = "pacing"
    OVER = "over"


class OutcomeReason(Enum):
    """How a game ended (Company Rules; Movement Rules)."""

    PROFIT_VICTORY = "profit-victory"
    STAR_VICTORY = "star-victory"
    GOAL_VICTORY = "goal-victory"
    ECONOMIC_DEFEAT = "economic-defeat"
    MARGINALIZATION = "marginalization"

    @property
    def winner(self) -> Side:
        if self in (OutcomeReason.PROFIT_VICTORY, OutcomeReason.STAR_VICTORY):
            return Side.COMPANY
        return Side.MOVEMENT


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: who won, why, in which round, with a sentence for people."""

    reason: OutcomeReason
    round: int
    detail: str

    @property
    def winner(self) -> Side:
        return self.reason.winner


NO_CARD = 0
"""Marks an empty Market space or an achieved Goal's place in the structure."""


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything on the table, immutable and hashable; successors come from `apply`.

    Prefixes: `c_` the Company's cards, `m_` the Movement's. Tokens live in exactly one place:
    a supply (`supply`, per `TokenKind`) or one of the fields named in `doubtspec.invariants`.
    """

    game: Game = field(compare=False, hash=False, repr=False)
    phase: Phase
    round: int
    """The Movement's turn number; the Company's turn N follows the Movement's turn N."""
    pending: tuple[Step, ...]
    outcome: Outcome | None
    # --- the Company ---
    c_deck: tuple[int, ...]
    c_hand: tuple[int, ...]
    c_discard: tuple[int, ...]
    c_reserve: tuple[int, ...]
    c_in_play: tuple[int, ...]
    """Cards whose standard effect is resolving; they reach the discard pile when it is done."""
    piles: tuple[tuple[int, ...], ...]
    stacks: tuple[tuple[int, ...], ...]
    trash: tuple[int, ...]
    c_removed: tuple[int, ...]
    """Company cards out of the game (the odd/even pairs not dealt at Set-Up, trashed cards)."""
    victims: tuple[int, ...]
    doubt: tuple[int, ...]
    profit: int
    stars: int
    banned: tuple[str, ...]
    plays: int
    buys: int
    unlobbied: bool
    discount: int
    reshuffles: int
    # --- the Movement ---
    m_deck: tuple[int, ...]
    market: tuple[int, ...]
    market_profit: tuple[int, ...]
    m_hand: tuple[int, ...]
    tableau: tuple[tuple[int, bool], ...]
    """(card, face up) from left to right."""
    m_discard: tuple[int, ...]
    influence: int
    messaging: int
    agitation: int
    flight: int
    flight_spent: int
    goals: tuple[int, ...]
    """The structure's nine places: row of four, row of three, row of two; NO_CARD once achieved."""
    goal_profit: tuple[int, ...]
    goal_agitation: tuple[int, ...]
    achieved: tuple[int, ...]
    supply: tuple[int, ...]
    """Per `TokenKind`, in its declaration order."""

    @property
    def cards(self) -> CardSet:
        return self.game.cards

    @property
    def rulings(self) -> Rulings:
        return self.game.rulings

    def supply_of(self, kind: TokenKind) -> int:
        return self.supply[TOKEN_INDEX[kind]]

    def points(self) -> int:
        """Goal points the Movement has scored."""
        game = self.game
        return sum(game.goal(g).points for g in self.achieved)

    def hand_limit(self) -> int:
        """The Movement's hand limit: the base plus each achieved hand-size Goal (Movement Cards)."""
        return self.game.cards.rules.movement_hand_limit + self.game.goal_hand_bonus(self.achieved)

    def summary(self) -> str:
        """A one-line description for error messages and logs."""
        if self.outcome is not None:
            return f"round {self.round}, over: {self.outcome.reason.value}"
        head = type(self.pending[0]).__name__ if self.pending else "-"
        return (
            f"round {self.round}, phase {self.phase.value}, pending {head}, "
            f"Company hand {list(self.c_hand)} profit {self.profit} stars {self.stars}, "
            f"Movement hand {list(self.m_hand)} influence {self.influence} points {self.points()}"
        )


TOKEN_INDEX: dict[TokenKind, int] = {kind: i for i, kind in enumerate(TokenKind)}
STATE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(GameState))
ZONES: tuple[Zone, ...] = tuple(Zone)
