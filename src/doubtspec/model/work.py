"""The mutable twin of `GameState`, used only while the engine builds a successor.

`apply` copies a state into a `Work`, changes it, and freezes it into a new `GameState`; the
input state is never touched. The field list must match `GameState` exactly (checked at import).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter
from typing import TypeVar

from doubtspec.model.cards import TokenKind
from doubtspec.model.game import Game
from doubtspec.model.state import STATE_FIELDS, TOKEN_INDEX, GameState, Outcome, Phase
from doubtspec.model.steps import Step

_T = TypeVar("_T")


@dataclass(slots=True)
class Work:
    """A `GameState` under construction (same fields, mutable)."""

    game: Game
    phase: Phase
    round: int
    pending: tuple[Step, ...]
    outcome: Outcome | None
    c_deck: tuple[int, ...]
    c_hand: tuple[int, ...]
    c_discard: tuple[int, ...]
    c_reserve: tuple[int, ...]
    c_in_play: tuple[int, ...]
    piles: tuple[tuple[int, ...], ...]
    stacks: tuple[tuple[int, ...], ...]
    trash: tuple[int, ...]
    c_removed: tuple[int, ...]
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
    m_deck: tuple[int, ...]
    market: tuple[int, ...]
    market_profit: tuple[int, ...]
    m_hand: tuple[int, ...]
    tableau: tuple[tuple[int, bool], ...]
    m_discard: tuple[int, ...]
    influence: int
    messaging: int
    agitation: int
    flight: int
    flight_spent: int
    goals: tuple[int, ...]
    goal_profit: tuple[int, ...]
    goal_agitation: tuple[int, ...]
    achieved: tuple[int, ...]
    supply: tuple[int, ...]

    @classmethod
    def of(cls, state: GameState) -> Work:
        return cls(*_all_fields(state))

    def freeze(self) -> GameState:
        return GameState(*_all_fields(self))

    # --- token movements between a supply and the table (piece-limited) ---

    def take(self, kind: TokenKind, wanted: int) -> int:
        """Take up to `wanted` tokens from the supply; returns how many there were (supply-exhausted)."""
        i = TOKEN_INDEX[kind]
        have = self.supply[i]
        got = wanted if wanted <= have else have
        if got:
            supply = list(self.supply)
            supply[i] = have - got
            self.supply = tuple(supply)
        return got

    def give_back(self, kind: TokenKind, count: int) -> None:
        """Return tokens to the supply."""
        if count:
            i = TOKEN_INDEX[kind]
            supply = list(self.supply)
            supply[i] += count
            self.supply = tuple(supply)

    def push(self, *steps: Step) -> None:
        """Put steps at the head of the queue, in the order given."""
        self.pending = steps + self.pending

    def pop(self) -> Step:
        head = self.pending[0]
        self.pending = self.pending[1:]
        return head


assert tuple(f.name for f in fields(Work)) == STATE_FIELDS, "Work must mirror GameState"

_all_fields = attrgetter(*STATE_FIELDS)
"""Every field's value in declaration order, as one tuple: copying states is the engine's hot path, and
one C-level getter is several times faster than a getattr per field."""


def without(values: tuple[int, ...], item: int) -> tuple[int, ...]:
    """`values` less one occurrence of `item`."""
    i = values.index(item)
    return values[:i] + values[i + 1:]


def without_all(values: tuple[int, ...], items: tuple[int, ...]) -> tuple[int, ...]:
    result = list(values)
    for item in items:
        result.remove(item)
    return tuple(result)


def sorted_with(values: tuple[int, ...], *items: int) -> tuple[int, ...]:
    return tuple(sorted(values + items))


def replace_at(values: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    return (*values[:index], value, *values[index + 1:])
