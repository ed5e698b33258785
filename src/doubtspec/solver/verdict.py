"""What every proof method says about one turn, and the budget it says it within.

The query layer (`doubtspec.solver.queries`) asks several methods (the exact unrolling, the
abstraction, the witness hunt, the exhaustive search) the same thing, turn by turn: "can the
target be reached by the end of turn k?". Each answer for one turn is a `TurnProof`:

    IMPOSSIBLE  proved: no run of the game reaches the target by turn k (under the stated card file
                and rulings; the method's `assumption`, if any, says what else it rests on)
    POSSIBLE    a run reaches it by turn k (for an over-approximation, "possible" is only a
                possibility of the abstraction: `concrete` says whether it is a game run)
    UNKNOWN     not settled (time, or a model the method cannot use)

A `Budget` is the one deadline a question has; every method asks it for the milliseconds left and
gives them to Z3 (`solver.set("timeout", ...)`), so `--timeout` holds for the whole question.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol


class OutOfTime(Exception):
    """The question's deadline passed while a formula was being built (building is charged to the budget)."""


class TurnVerdict(Enum):
    """One method's answer for one turn."""

    IMPOSSIBLE = "impossible"
    POSSIBLE = "possible"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class TurnProof:
    """What one method settled for "reached by the end of turn `turn`?"."""

    turn: int
    verdict: TurnVerdict
    method: str
    """The method's name, e.g. 'abstraction-bmc', 'abstraction-spacer', 'unrolling', 'hunt', 'exhaustive'."""
    seconds: float
    lemmas: tuple[str, ...] = ()
    """The names of the proved lemmas the method used (each re-proved for the card file before use)."""
    concrete: bool = True
    """For POSSIBLE: a game run (a witness) rather than a run of an over-approximation."""
    assumption: str | None = None
    """What the verdict rests on beyond the card file and rulings (e.g. the unrolling's caps); None: nothing."""

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "verdict": self.verdict.value, "method": self.method,
                "seconds": round(self.seconds, 3), "lemmas": list(self.lemmas), "concrete": self.concrete,
                "assumption": self.assumption}


MARGIN = 0.08
"""The share of a question's budget kept back for work that cannot be interrupted (building a formula
in Python, replaying a witness): new work and Z3 calls stop this far before the deadline, so the whole
question ends within the budget even on a loaded machine."""
MARGIN_CAP_S = 2.5
"""The most seconds the margin keeps back, whatever the budget: the longest step that does not watch the clock
(a round's formulas built, a CP-SAT translation, a Z3 call's preprocessing) takes about a second, so a long
question's 8% (4.4 s of a 60-second command) only left time unused (docs/solver.md, "Time budget")."""


def margin_of(seconds: float) -> float:
    """The seconds a budget of `seconds` keeps back from its working end (`MARGIN`, at most `MARGIN_CAP_S`)."""
    return min(seconds * MARGIN, MARGIN_CAP_S)


SMALLEST_START_S = 0.05
"""A method does not start (to build its formula) with less time than this left."""


@dataclass(slots=True)
class Budget:
    """One deadline shared by every method of a question (`time.perf_counter` seconds).

    `deadline` is when work must be over; `left()` counts to a slightly earlier moment (the
    margin), which is what Z3 calls and new work are given.
    """

    deadline: float = float("inf")
    margin: float = 0.0

    @classmethod
    def of(cls, seconds: float | None) -> Budget:
        if seconds is None:
            return cls()
        return cls(time.perf_counter() + seconds, margin_of(seconds))

    def left(self) -> float:
        """Seconds left for new work (never negative)."""
        return max(0.0, self.deadline - self.margin - time.perf_counter())

    def expired(self) -> bool:
        return self.left() <= 0.0

    def can_start(self) -> bool:
        """Enough time left to start a method (build its formula) at all."""
        return self.left() >= SMALLEST_START_S

    def z3_ms(self, cap_s: float | None = None) -> int:
        """Milliseconds for the next Z3 call (at least 1; 0 would mean 'no timeout' to Z3)."""
        seconds = self.left() if cap_s is None else min(cap_s, self.left())
        if seconds == float("inf"):
            return 2**31 - 1
        return max(1, int(seconds * 1000))

    def share(self, fraction: float) -> Budget:
        """A budget ending `fraction` of the way to this one's working end (no margin of its own)."""
        if self.deadline == float("inf"):
            return Budget()
        return Budget(time.perf_counter() + self.left() * fraction)

    @property
    def working_end(self) -> float:
        """The `time.perf_counter()` by which new work should be over (the deadline less the margin)."""
        return self.deadline - self.margin


@dataclass(slots=True)
class TurnProofs:
    """A method's (or a question's) turn-by-turn record."""

    proofs: list[TurnProof] = field(default_factory=list)

    def add(self, proof: TurnProof) -> None:
        self.proofs.append(proof)

    def proved_none_by(self, with_assumptions: bool = False) -> int:
        """The last turn k such that the target is proved unreachable by turn k (0: none).

        "Not by turn k" implies "not by any earlier turn", so the largest proved k covers all
        before it. `with_assumptions` False counts only verdicts that rest on nothing beyond the
        card file and rulings.
        """
        impossible = {p.turn for p in self.proofs if p.verdict is TurnVerdict.IMPOSSIBLE
                      and (with_assumptions or p.assumption is None)}
        return max(impossible, default=0)

    def first_possible(self) -> int | None:
        turns = [p.turn for p in self.proofs if p.verdict is TurnVerdict.POSSIBLE and p.concrete]
        return min(turns, default=None)

    def to_json(self) -> list[dict[str, Any]]:
        return [p.to_json() for p in sorted(self.proofs, key=lambda p: (p.turn, p.method))]


class ProofMethod(Protocol):
    """One room of the solver: decides "reached by turn k?" for k = 1, 2, ..., up to `by_turn`.

    `decide` returns one `TurnProof` per turn it looked at, in order, and stops at the first
    POSSIBLE (that turn is the earliest the method can show), at `by_turn`, or when the budget ends.
    """

    name: str

    def decide(self, by_turn: int, budget: Budget, first_turn: int = 1) -> list[TurnProof]: ...
