"""The board model: one engine state as the flat table of named values the viewer draws.

`board_of(state)` reads every field of a `GameState` (and a few values derived from it by the
engine's own functions: Goal points, the hand limit, the open Goal places, who acts next) into a
flat dict from key to JSON value. Flat keys serve the page twice: a step is stored as the keys it
changed (`doubtspec.viewer.timeline`), and the same keys mark what the page highlights.

`fields_of(board)` turns a board back into the state's fields in the form of
`doubtspec.reports.report.state_to_dict`, so tests can show that the board holds the engine's
state exactly, field for field, and nothing else.
"""

from __future__ import annotations

from typing import Any

from doubtspec.model.cards import TokenKind, Zone
from doubtspec.model.engine import current_actor
from doubtspec.model.movement import available_goals
from doubtspec.model.state import GameState, Outcome

Board = dict[str, Any]
"""Key -> JSON value; the keys are listed in `KEY_LABELS` (with `{i}` standing for an index)."""

GOAL_PLACES = 9

KEY_LABELS: dict[str, str] = {
    "round": "round",
    "phase": "phase",
    "actor": "who acts next",
    "pending": "steps waiting to happen",
    "outcome": "outcome",
    "c.deck": "Company deck",
    "c.hand": "Company hand",
    "c.discard": "Company discard pile",
    "c.reserve": "Company Reserve",
    "c.in_play": "Company cards in play",
    "c.trash": "trash pile",
    "c.removed": "Company cards out of the game",
    "c.zone.{i}": "zone {i}: Victims and Doubt",
    "c.profit": "Company Profit",
    "c.stars": "Company stars",
    "c.banned": "banned kinds",
    "c.plays": "Company plays this turn",
    "c.buys": "Company buys this turn",
    "c.unlobbied": "Lobbying taken back this turn",
    "c.discount": "Company discount",
    "c.reshuffles": "Reshuffles",
    "c.pile.{i}": "Market pile {i}",
    "c.stack.{i}": "Market stack {i}",
    "m.deck": "Movement Market deck",
    "m.hand": "Movement hand",
    "m.discard": "Movement discard pile",
    "m.tableau": "Movement Tableau",
    "m.market.{i}": "Movement Market space {i}",
    "m.goal.{i}": "Goal place {i}",
    "m.available": "open Goal places",
    "m.achieved": "achieved Goals",
    "m.points": "Movement Goal points",
    "m.hand_limit": "Movement hand limit",
    "m.influence": "Movement Influence",
    "m.messaging": "Movement Messaging tokens",
    "m.agitation": "Movement Agitation tokens",
    "m.flight": "Movement Flight tokens",
    "m.flight_spent": "Flight spent this round",
    "supply.{kind}": "{kind} supply",
}
"""Every board key (patterns with `{i}` or `{kind}`) with a label for people."""

_LISTS: dict[str, str] = {
    "c.deck": "c_deck", "c.hand": "c_hand", "c.discard": "c_discard", "c.reserve": "c_reserve",
    "c.in_play": "c_in_play", "c.trash": "trash", "c.removed": "c_removed", "c.banned": "banned",
    "m.deck": "m_deck", "m.hand": "m_hand", "m.discard": "m_discard", "m.achieved": "achieved",
}
"""Board keys that hold one state field, a tuple, as a list."""

_NUMBERS: dict[str, str] = {
    "round": "round", "c.profit": "profit", "c.stars": "stars", "c.plays": "plays", "c.buys": "buys",
    "c.unlobbied": "unlobbied", "c.discount": "discount", "c.reshuffles": "reshuffles",
    "m.influence": "influence", "m.messaging": "messaging", "m.agitation": "agitation", "m.flight": "flight",
    "m.flight_spent": "flight_spent",
}
"""Board keys that hold one scalar state field as it is."""


def board_of(state: GameState) -> Board:
    """The board for one state: every field of it, keyed for drawing and for diffs."""
    board: Board = {
        "phase": state.phase.value,
        "actor": current_actor(state).value,
        "pending": [repr(step) for step in state.pending],
        "outcome": _outcome(state.outcome),
    }
    for key, name in _NUMBERS.items():
        board[key] = getattr(state, name)
    for key, name in _LISTS.items():
        board[key] = list(getattr(state, name))
    for zone in Zone:
        board[f"c.zone.{zone.value}"] = [state.victims[zone], state.doubt[zone]]
    for i, pile in enumerate(state.piles):
        board[f"c.pile.{i}"] = list(pile)
    for i, stack in enumerate(state.stacks):
        board[f"c.stack.{i}"] = list(stack)
    board["m.tableau"] = [[card, up] for card, up in state.tableau]
    for i, card in enumerate(state.market):
        board[f"m.market.{i}"] = [card, state.market_profit[i]]
    for slot in range(len(state.goals)):
        board[f"m.goal.{slot}"] = [state.goals[slot], state.goal_profit[slot], state.goal_agitation[slot]]
    board["m.available"] = list(available_goals(state.goals))
    board["m.points"] = state.points()
    board["m.hand_limit"] = state.hand_limit()
    for kind in TokenKind:
        board[f"supply.{kind.value}"] = state.supply_of(kind)
    return board


def _outcome(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {"reason": outcome.reason.value, "winner": outcome.winner.value, "round": outcome.round,
            "detail": outcome.detail}


def _indexed(board: Board, prefix: str) -> list[Any]:
    """The values of `prefix0`, `prefix1`, ... in order, up to the first missing index."""
    values: list[Any] = []
    while f"{prefix}{len(values)}" in board:
        values.append(board[f"{prefix}{len(values)}"])
    return values


def fields_of(board: Board) -> dict[str, Any]:
    """The state's fields held by a board, as `doubtspec.reports.report.state_to_dict` gives them."""
    fields: dict[str, Any] = {"phase": board["phase"], "pending": board["pending"], "outcome": board["outcome"]}
    for key, name in _NUMBERS.items():
        fields[name] = board[key]
    for key, name in _LISTS.items():
        fields[name] = board[key]
    zones = _indexed(board, "c.zone.")
    fields["victims"] = [victims for victims, _ in zones]
    fields["doubt"] = [doubt for _, doubt in zones]
    fields["piles"] = _indexed(board, "c.pile.")
    fields["stacks"] = _indexed(board, "c.stack.")
    fields["tableau"] = board["m.tableau"]
    market = _indexed(board, "m.market.")
    fields["market"] = [card for card, _ in market]
    fields["market_profit"] = [profit for _, profit in market]
    goals = _indexed(board, "m.goal.")
    fields["goals"] = [goal for goal, _, _ in goals]
    fields["goal_profit"] = [profit for _, profit, _ in goals]
    fields["goal_agitation"] = [agitation for _, _, agitation in goals]
    fields["supply"] = [board[f"supply.{kind.value}"] for kind in TokenKind]
    return fields
