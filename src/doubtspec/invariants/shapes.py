"""The four shapes of invariant, by what a check looks at, and the game trace that trace checks read."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from doubtspec.model.actions import Action
from doubtspec.model.game import Game
from doubtspec.model.state import GameState
from doubtspec.rulebook import Section

StateCheck = Callable[[GameState], "str | None"]


TransitionCheck = Callable[[GameState, Action, GameState], "str | None"]


@dataclass(frozen=True, slots=True)
class Trace:
    """A game from Set-Up: its definition, the actions taken, and the state they led to."""

    game: Game
    actions: tuple[Action, ...]
    final: GameState
    rounds: tuple[int, ...] | None = None
    """The round after each action, when whoever played the game noted it (saves a replay)."""


TraceCheck = Callable[[Trace], "str | None"]


ProbeCandidates = Callable[[GameState], Sequence[Action]]


ProbeCheck = Callable[[GameState, Action], "str | None"]


Unsupported = Callable[[Game], "str | None"]
"""Why an invariant cannot check games of a card file and rulings (say, the solver cannot model the file), or None."""


@dataclass(frozen=True, slots=True)
class StateInvariant:
    """A property of every reachable state."""

    id: str
    statement: str
    sections: tuple[Section, ...]
    check: StateCheck
    applies: Callable[[GameState], bool] | None = None
    """The states the check has something to say about (None: any): elsewhere it passes at once. The fuzzing
    machine counts a costly check's chances on these states only (`machines.COSTLY`)."""
    unsupported: Unsupported | None = None
    """Why the check has nothing to say about a card file and rulings, or None when it has (`catalog.checkable`)."""


@dataclass(frozen=True, slots=True)
class TransitionInvariant:
    """A property of every step: (before, action, after)."""

    id: str
    statement: str
    sections: tuple[Section, ...]
    check: TransitionCheck
    unsupported: Unsupported | None = None
    """Why the check has nothing to say about a card file and rulings, or None when it has (`catalog.checkable`)."""


@dataclass(frozen=True, slots=True)
class TraceInvariant:
    """A property of a whole game, checked when it ends (or when a run stops in the middle of it)."""

    id: str
    statement: str
    sections: tuple[Section, ...]
    check: TraceCheck
    unsupported: Unsupported | None = None
    """Why the check has nothing to say about a card file and rulings, or None when it has (`catalog.checkable`)."""


@dataclass(frozen=True, slots=True)
class ProbeInvariant:
    """An illegal action the engine must reject without touching the state.

    `candidates` lists the illegal actions of this kind that can be built for a state (none when
    the situation does not arise); `check` tries one.
    """

    id: str
    statement: str
    sections: tuple[Section, ...]
    candidates: ProbeCandidates
    check: ProbeCheck
    unsupported: Unsupported | None = None
    """Why the check has nothing to say about a card file and rulings, or None when it has (`catalog.checkable`)."""


Invariant = StateInvariant | TransitionInvariant | TraceInvariant | ProbeInvariant
