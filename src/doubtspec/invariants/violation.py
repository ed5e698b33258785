"""What the fuzzer reports when an invariant fails: the `Violation`, with the game from Set-Up that shows it.

Its own module, apart from the Hypothesis machines that find violations, so that the reports, the replay and the
viewer read and write violations without loading Hypothesis (a `doubtspec solve` or `cards check` starts without
it).
"""

from __future__ import annotations

from dataclasses import dataclass

from doubtspec.invariants.catalog import Invariant
from doubtspec.model.actions import Action, Chance
from doubtspec.model.game import Game
from doubtspec.model.state import GameState


@dataclass(frozen=True, slots=True)
class Violation:
    """An invariant that failed: where, why, and the game from Set-Up that shows it.

    `actions` ends with the failing step (`step` is its 1-based number; 0 for a failure in the
    state before any action). A probe's illegal action is not part of the trace: it is `probe`.
    """

    invariant: Invariant
    message: str
    game: Game
    actions: tuple[Action, ...]
    step: int
    before: GameState | None
    after: GameState
    probe: Action | None = None

    @property
    def decisions(self) -> int:
        """The trace's decisions: its steps that are not chance events (Set-Up's choice included)."""
        return sum(1 for action in self.actions if not isinstance(action, Chance))
