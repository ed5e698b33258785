"""`rule.actor`: who takes each decision. The rules give every choice to one side and leave every deal and draw
to chance; an engine that hands a choice to the wrong side (the opponent picks the Company's Doubt column) or lets
a side choose what is dealt at random plays legal-looking games whose every state is right by the amounts."""

from __future__ import annotations

from doubtspec.invariants.derived import legal
from doubtspec.invariants.shapes import Invariant, StateInvariant
from doubtspec.model import engine
from doubtspec.model.actions import actor_of
from doubtspec.model.state import Actor, GameState, Phase, Side
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
)
from doubtspec.rulebook import Section

S = Section

_DEALT = (DealStack, GoalSplit, DealGoal, FillMarket, CompanyDraw, DrawToHandSize)
"""Steps whose outcome is chance: the stacks shuffled and dealt (Company Set-Up), the Goals split and dealt
(Movement Set-Up), the Market refilled from its deck (Movement Cards), a card drawn from the Company's shuffled
deck (Draw Phase, draw effects)."""
_MOVEMENT_CHOICES = (ChooseStartingCard, Messaging, Agitation, Organize)
"""The Movement's choices inside its turn: its starting card (Movement Set-Up), what its Messaging removes, where its
Agitation goes, Organize's free play. Every other choice pending is the Company's: its cards' effects (which
column a Doubt goes to, which card is lobbied, trashed or removed) and its Reserve."""


def _expected_actor(state: GameState) -> Actor:
    if state.outcome is not None:
        return Actor.TERMINAL
    if state.pending:
        head = state.pending[0]
        if isinstance(head, _DEALT):
            return Actor.CHANCE
        return Actor.MOVEMENT if isinstance(head, _MOVEMENT_CHOICES) else Actor.COMPANY
    return Actor.MOVEMENT if state.phase is Phase.MOVEMENT_TURN else Actor.COMPANY


_SIDE = {Actor.COMPANY: Side.COMPANY, Actor.MOVEMENT: Side.MOVEMENT}


def _actor(state: GameState) -> str | None:
    """The engine names the side the rules give the decision to, and offers only that side's actions (chance
    outcomes at a deal or a draw)."""
    expected, actual = _expected_actor(state), engine.current_actor(state)
    if actual is not expected:
        return f"{_decision(state)} is decided by {actual.name}; the rules give it to {expected.name}"
    side = _SIDE.get(expected)
    wrong = next((a for a in legal(state) if actor_of(a) is not side), None)
    if wrong is not None:
        taker = actor_of(wrong)
        name = "chance" if taker is None else taker.name
        return f"{_decision(state)} ({expected.name} to act) offers {wrong}, an action of {name}"
    return None


def _decision(state: GameState) -> str:
    """The decision's name in a report: the pending step's, else the phase's."""
    return type(state.pending[0]).__name__ if state.pending else state.phase.name


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("rule.actor", "Each decision is the side's the rules give it to, every deal and draw is chance's, "
                   "and only that side's actions (or chance outcomes) are offered.",
                   (S.COMPANY_ON_YOUR_GO, S.MOVEMENT_ON_YOUR_GO, S.COMPANY_SETUP, S.MOVEMENT_SETUP, S.ADDING_DOUBT),
                   _actor),
)
"""The `rule.*` invariants of this module."""
