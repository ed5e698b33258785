"""The `rule` invariants: what each kind of action must do, and that it does nothing else.

Conservation laws (the `tokens` and `cards` groups) catch a rule that loses or duplicates a piece,
but not one that moves the right pieces by the wrong amount or at the wrong moment. Each check here
is a postcondition of one kind of action, written from its rulebook section and the card data (never
from the engine's rule functions): what the action pays and gains, where each card goes, what a
phase clears, and a frame check that every other part of the table is as it was.

An engine step runs the automatic steps that follow an action until the next decision or chance
event (`doubtspec.model.steps`), so a postcondition states what holds after the whole step: the
Movement's actions end with the start of the Company's turn (which may end the game in Economic
Defeat), a Draw Phase with too few cards runs the Reshuffle Sequence up to the first card drawn.
Where an effect that needs a choice interrupts a step, the check states only what is already
decided.

The checks live in one module per part of the rules: `setup` (and the choice of the starting card), `chance` (what
every deal and draw may turn up), `actors` (which side takes each decision); the Company's `company_play` (plays and
the Reserve cards they trigger), `company_draw` (a play's draw with the deck empty or short), `company_effects` (a
short supply, Doubt token by token, trashing), `company_budget` (payments and buys) and `company_interference`
(Unlobby, Market removal, the turn's start); `reshuffle` (the Draw Phase and the Reshuffle Sequence); the Movement's
`movement_play` (which also holds the `Table` the Movement's checks work on), `movement_buy`, `movement_influence`
(Spending Influence), `movement_organize`, `movement_pass`, `movement_messaging`, `movement_pacing` and
`movement_goal` (Agitation and Goals); `bonus` (a Refresh Bonus between two cards), `declining` (what declining a
Movement choice leaves alone, and when the Company may end its Play and Buy Phases) and `choice_steps` (a choice
answers the head of the queue of steps and leaves the rest as it was). `frame` holds what they all share.
"""

from __future__ import annotations

from doubtspec.invariants.groups.rule import (
    actors,
    bonus,
    chance,
    choice_steps,
    company_budget,
    company_draw,
    company_effects,
    company_interference,
    company_play,
    declining,
    movement_buy,
    movement_goal,
    movement_influence,
    movement_messaging,
    movement_organize,
    movement_pacing,
    movement_pass,
    movement_play,
    reshuffle,
    setup,
)
from doubtspec.invariants.groups.rule.choice_steps import choice_step_check
from doubtspec.invariants.groups.rule.company_budget import buy_price
from doubtspec.invariants.groups.rule.movement_influence import influence_payment_check
from doubtspec.invariants.groups.rule.movement_messaging import messaging_check
from doubtspec.invariants.groups.rule.movement_play import movement_play_check
from doubtspec.invariants.groups.rule.reshuffle import reshuffled_check
from doubtspec.invariants.shapes import Invariant

__all__ = ["INVARIANTS", "buy_price", "choice_step_check", "influence_payment_check", "messaging_check",
           "movement_play_check", "reshuffled_check"]

INVARIANTS: tuple[Invariant, ...] = (
    *setup.INVARIANTS, *chance.INVARIANTS, *actors.INVARIANTS,
    *company_play.INVARIANTS, *company_draw.INVARIANTS, *company_effects.INVARIANTS, *company_budget.INVARIANTS,
    *company_interference.INVARIANTS,
    *reshuffle.INVARIANTS,
    *movement_play.INVARIANTS, *movement_buy.INVARIANTS, *movement_influence.INVARIANTS,
    *movement_organize.INVARIANTS, *movement_pass.INVARIANTS, *movement_messaging.INVARIANTS,
    *movement_pacing.INVARIANTS, *movement_goal.INVARIANTS,
    *bonus.INVARIANTS, *declining.INVARIANTS, *choice_steps.INVARIANTS,
)
"""The `rule.*` invariants, in the order they are checked and listed."""
