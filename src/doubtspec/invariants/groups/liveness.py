"""The `liveness` invariants. Liveness: a game that is not over has a move, and every round ends."""

from __future__ import annotations

from doubtspec.invariants.derived import (
    legal,
)
from doubtspec.invariants.shapes import (
    Invariant,
    StateInvariant,
    Trace,
    TraceInvariant,
)
from doubtspec.model import engine
from doubtspec.model.state import Actor, GameState, Phase
from doubtspec.rulebook import Section

S = Section


def _has_action(state: GameState) -> str | None:
    actions = legal(state)
    actor = engine.current_actor(state)
    if state.outcome is None:
        if not actions:
            return f"no legal action in a game that is not over ({actor.value} to act)"
        if actor is Actor.TERMINAL:
            return "the actor is terminal but the game has no outcome"
        return None
    if actions:
        return f"the game is over but {len(actions)} actions are legal, e.g. {actions[0]}"
    if actor is not Actor.TERMINAL:
        return f"the game is over but {actor.value} is to act"
    return over(state)


def over(state: GameState) -> str | None:
    """A finished game is over: its phase is `OVER` and no step is left to resolve (whichever rule ended it)."""
    if state.phase is not Phase.OVER or state.pending:
        steps = ", ".join(type(step).__name__ for step in state.pending) or "none"
        return (f"the game ended in {state.outcome.reason.value if state.outcome else 'no outcome'} but is left in "
                f"phase {state.phase.value} with steps pending: {steps}")
    return None


TURN_STEP_BOUND = 400
"""Steps a single round may take before it counts as never ending (a round is the Movement's
turn, the Company's turn and Pacing; real rounds take a few dozen steps)."""


def _turn_bound(trace: Trace) -> str | None:
    rounds = trace.rounds
    if rounds is None:
        state = engine.new_game(trace.game)
        seen = []
        for action in trace.actions:
            state = engine.apply(state, action)
            seen.append(state.round)
        rounds = tuple(seen)
    run, last = 0, 0
    for i, current in enumerate(rounds, start=1):
        run = run + 1 if current == last else 0
        last = current
        if run > TURN_STEP_BOUND:
            return f"round {current} has not ended after {TURN_STEP_BOUND} steps (at step {i})"
    return None


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("liveness.actions", "A game that is not over has a legal action; a finished one has none, "
                   "and is over (no phase, no step left).",
                   (S.COMPANY_ON_YOUR_GO, S.MOVEMENT_ON_YOUR_GO), _has_action),
    TraceInvariant("liveness.turns", "Every round ends within a bounded number of steps.",
                   (S.COMPANY_ON_YOUR_GO, S.MOVEMENT_ON_YOUR_GO), _turn_bound),
)
"""The `liveness.*` invariants, in the order they are checked and listed."""
