"""What the `rule.*` postconditions share: the frame check (`unchanged_except`) and card-count arithmetic."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from doubtspec.model.actions import Action
from doubtspec.model.cards import TokenKind
from doubtspec.model.state import STATE_FIELDS, TOKEN_INDEX, GameState

TURN_START = frozenset({"phase", "pending", "plays", "buys", "discount", "unlobbied", "outcome"})
"""What the start of the Company's turn (after every Movement action) may change."""


def unchanged_except(before: GameState, after: GameState, may_change: Iterable[str], action: Action) -> str | None:
    """Every state field outside `may_change` is unchanged."""
    allowed = set(may_change)
    for name in STATE_FIELDS:
        if name == "game" or name in allowed:
            continue
        if getattr(before, name) != getattr(after, name):
            return f"{action} changed {name} from {getattr(before, name)!r} to {getattr(after, name)!r}"
    return None


def sorted_cards(cards: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(cards))


def minus(cards: tuple[int, ...], gone: Iterable[int]) -> tuple[int, ...]:
    left = Counter(cards)
    left.subtract(gone)
    return sorted_cards(left.elements())


def in_supply(state: GameState, kind: TokenKind) -> int:
    return state.supply[TOKEN_INDEX[kind]]
