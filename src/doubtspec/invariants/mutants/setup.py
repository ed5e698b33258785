"""Breakages of Set-Up and of the turn order: who moves first, how rounds are counted, how the Goals are dealt."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from doubtspec.invariants.mutants.mutant import Patch
from doubtspec.model import engine, legal, movement
from doubtspec.model.actions import Action
from doubtspec.model.cards import CardSet
from doubtspec.model.game import Game
from doubtspec.model.rulings import DEFAULT_RULINGS, Rulings
from doubtspec.model.state import Actor, GameState, Phase
from doubtspec.model.steps import (
    ChooseStartingCard,
    DealGoal,
    DealStack,
    FillMarket,
    GoalSplit,
    StartCompanyTurn,
    StartMovementTurn,
    Step,
)
from doubtspec.model.work import Work


def stacks_dealt_by_company() -> tuple[Patch, ...]:
    original = engine.current_actor

    def current_actor(state: GameState) -> Actor:
        # The Company chooses how its stacks are dealt, instead of chance.
        if state.outcome is None and state.pending and isinstance(state.pending[0], DealStack):
            return Actor.COMPANY
        return original(state)

    return ((engine, "current_actor", current_actor),)


def company_moves_first() -> tuple[Patch, ...]:
    original = engine._run_auto

    def _run_auto(w: Work, step: Step) -> None:
        # Set-Up ends with the Company's turn; the Movement's first turn follows it.
        if isinstance(step, StartMovementTurn) and w.phase is Phase.SETUP:
            step = StartCompanyTurn()
        original(w, step)

    return ((engine, "_run_auto", _run_auto),)


def rounds_from_two() -> tuple[Patch, ...]:
    original = engine._run_auto

    def _run_auto(w: Work, step: Step) -> None:
        original(w, step)
        # The first Movement turn is counted as round 2, so every round after it is one off too.
        if isinstance(step, StartMovementTurn) and w.round == 1:
            w.round = 2

    return ((engine, "_run_auto", _run_auto),)


def goals_set_aside_dealt_first() -> tuple[Patch, ...]:
    original = legal.chance_values

    def chance_values(state: GameState, step: Step) -> tuple[int, ...]:
        # G7-G9 are laid on top of their half instead of shuffled into it, so they fill the first places.
        values = original(state, step)
        if isinstance(step, DealGoal) and step.slot < movement.UPPER_STACK_PLACES:
            return tuple(g for g in values if g >= 7) or values
        return values

    return ((legal, "chance_values", chance_values), (engine, "chance_values", chance_values))


def movement_dealt_a_hand_card() -> tuple[Patch, ...]:
    original = engine._run_auto

    def _run_auto(w: Work, step: Step) -> None:
        # Set-Up ends with the Movement taking the top card of its Market deck into its hand, as if it drew a hand.
        ending_setup = isinstance(step, StartMovementTurn) and w.phase is Phase.SETUP
        original(w, step)
        if ending_setup and w.m_deck:
            w.m_hand, w.m_deck = w.m_hand + w.m_deck[:1], w.m_deck[1:]

    return ((engine, "_run_auto", _run_auto),)


def first_starting_card_only() -> tuple[Patch, ...]:
    original = legal.choice_actions

    def choice_actions(state: GameState, step: Step) -> list[Action]:
        # The Tableau read as starting with the first of the starting cards: the others are never offered.
        actions = original(state, step)
        return actions[:1] if isinstance(step, ChooseStartingCard) else actions

    return ((legal, "choice_actions", choice_actions), (engine, "choice_actions", choice_actions))


def undealt_pairs_to_trash() -> tuple[Patch, ...]:
    original = engine._apply_to_step

    def apply_to_step(w: Work, action: Action) -> None:
        removed = w.c_removed
        original(w, action)
        # The odd/even pairs not dealt go to the trash pile (where they can be bought) instead of out of the game.
        if w.phase is Phase.SETUP and not removed and w.c_removed:
            w.trash = tuple(sorted(w.trash + w.c_removed))
            w.c_removed = ()

    return ((engine, "_apply_to_step", apply_to_step),)


def _setup_reordered(order: Callable[[tuple[Step, ...]], tuple[Step, ...]]) -> tuple[Patch, ...]:
    """`engine.new_game` with Set-Up's pending steps put in another `order` (the pieces dealt are the same)."""
    original = engine.new_game

    def new_game(cards: CardSet | Game | None = None, rulings: Rulings = DEFAULT_RULINGS) -> GameState:
        state = original(cards, rulings)
        return replace(state, pending=order(state.pending))

    return ((engine, "new_game", new_game),)


def stacks_dealt_last() -> tuple[Patch, ...]:
    # The Company's stacks are dealt at the end of Set-Up, after the Movement has formed its Goals and Market.
    def order(steps: tuple[Step, ...]) -> tuple[Step, ...]:
        deal = tuple(s for s in steps if isinstance(s, DealStack))
        rest = tuple(s for s in steps if not isinstance(s, DealStack))
        return (*rest[:-1], *deal, rest[-1])

    return _setup_reordered(order)


def goals_dealt_after_market() -> tuple[Patch, ...]:
    # The Movement fills its Market before it forms its Goals (Movement Set-Up 2 and 3 swapped).
    def order(steps: tuple[Step, ...]) -> tuple[Step, ...]:
        return tuple(FillMarket() if isinstance(s, GoalSplit) else GoalSplit() if isinstance(s, FillMarket) else s
                     for s in steps)

    return _setup_reordered(order)
