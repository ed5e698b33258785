"""Replaying a trace step by step against the catalog, stopping at the first violation.

The trace is played through the checked `engine.play`, so a step that the engine does not accept
makes the trace itself invalid (`TraceError`, naming the file, line and step) rather than a finding.
After every step the state and transition invariants are checked, as the fuzzer does; the trace
invariants when the actions run out; and a report's probe action, if it has one, last of all. A step
that raises, or stays stuck past its CPU-time limit (`doubtspec.watchdog`), is the `contract.no-crash`
finding a fuzz run reports for it, never a hang or a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from doubtspec.errors import TraceError
from doubtspec.invariants.catalog import (
    CATALOG,
    NO_CRASH,
    Invariant,
    ProbeInvariant,
    StateInvariant,
    Trace,
    TraceInvariant,
    TransitionInvariant,
    checkable,
)
from doubtspec.invariants.violation import Violation
from doubtspec.model import engine
from doubtspec.model.actions import Action, parse_action
from doubtspec.model.game import Game
from doubtspec.model.state import GameState
from doubtspec.reports.trace import TraceFile, check_cards
from doubtspec.watchdog import cpu_limit


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """How far a replay got and what it found."""

    game: Game
    actions: tuple[Action, ...]
    applied: int
    final: GameState
    violation: Violation | None
    warning: str | None
    not_checked: dict[str, str] = field(default_factory=dict)
    """The invariants asked for that cannot check this card file and rulings, each with why (`catalog.checkable`)."""


StepHook = Callable[[int, Action, GameState], None]


def _check(invariant: Invariant, before: GameState | None, action: Action | None, after: GameState) -> str | None:
    try:
        if isinstance(invariant, StateInvariant):
            return invariant.check(after)
        if isinstance(invariant, TransitionInvariant) and before is not None and action is not None:
            return invariant.check(before, action, after)
    except Exception as exc:
        return f"the check raised {type(exc).__name__}: {exc}"
    return None


def replay(trace: TraceFile, invariants: tuple[Invariant, ...] = CATALOG, cards: Path | None = None,
           probe: str | None = None, on_step: StepHook | None = None) -> ReplayResult:
    """Replay `trace` from Set-Up, checking `invariants`; `probe` is a report's illegal action to try last."""
    game = trace.game(cards)
    warning = check_cards(trace, game)
    actions = trace.parsed()
    invariants, not_checked = checkable(game, invariants)
    transition: list[Invariant] = [i for i in invariants if isinstance(i, TransitionInvariant)]
    states: list[Invariant] = [i for i in invariants if isinstance(i, StateInvariant)]

    def found(invariant: Invariant, message: str, step: int, before: GameState | None, after: GameState,
              probe_action: Action | None = None) -> ReplayResult:
        violation = Violation(invariant, message, game, actions[:step], step, before, after, probe_action)
        return ReplayResult(game, actions, step, after, violation, warning, not_checked)

    state = engine.new_game(game)
    for first in states:
        message = _check(first, None, None, state)
        if message is not None:
            return found(first, message, 0, None, state)
    for step, action in enumerate(actions, start=1):
        if state.outcome is not None:
            line, what = trace.where(step)
            raise TraceError(f"{what}: {action} comes after the end of the game ({state.outcome.reason.value})",
                             path=trace.source, line=line, field="actions")
        if not engine.is_legal(state, action):
            section, reason = engine.explain_illegal(state, action)
            line, what = trace.where(step)
            cause = "" if warning is None else f"; probably because {warning}"
            raise TraceError(f"{what}: {action} is not legal here: {reason} [{section.value}]{cause}",
                             path=trace.source, line=line, field="actions")
        before = state
        try:
            with cpu_limit(f"step {step}, {action},"):
                state = engine.play(state, action)
        except Exception as exc:  # the engine crashing (or stuck) on a legal step is the no-crash finding
            return found(NO_CRASH, f"apply({action}) raised {type(exc).__name__}: {exc}", step, before, before)
        if on_step is not None:
            on_step(step, action, state)
        for each in (*transition, *states):
            message = _check(each, before, action, state)
            if message is not None:
                return found(each, message, step, before, state)
    whole = Trace(game, actions, state)
    for whole_check in invariants:
        if isinstance(whole_check, TraceInvariant):
            try:
                message = whole_check.check(whole)
            except Exception as exc:
                message = f"the check raised {type(exc).__name__}: {exc}"
            if message is not None:
                return found(whole_check, message, len(actions), None, state)
    if probe is not None:
        try:
            probe_action = parse_action(probe)
        except TraceError as exc:
            raise TraceError(exc.message, path=trace.source, field="probe") from exc
        for probe_check in invariants:
            if isinstance(probe_check, ProbeInvariant) and probe_action in probe_check.candidates(state):
                message = probe_check.check(state, probe_action)
                if message is not None:
                    return found(probe_check, message, len(actions), None, state, probe_action)
    return ReplayResult(game, actions, len(actions), state, None, warning, not_checked)
