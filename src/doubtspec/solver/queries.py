"""The solver's questions ("can it happen by turn N?") and their answers, each with what was assumed.

An answer is "yes" (with a witness that replayed in the engine), "no" (no run within the bound
reaches it; `exact` says whether the per-turn caps were shown to cut off no run), or "unknown"
(a check ran out of time). Every answer carries its `Assumptions`: the opponent's policy, chance
as the best luck, the rulings in force, the meaning of the bound and the caps.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from doubtspec.errors import OptionError
from doubtspec.model.game import Game
from doubtspec.model.state import OutcomeReason
from doubtspec.solver import bmc
from doubtspec.solver.bmc import BoundResult, Caps
from doubtspec.solver.encoding import Out, Tables
from doubtspec.solver.witness import Witness, replay


class QueryKind(Enum):
    """The query catalogue."""

    STARS = "stars"
    PROFIT = "profit"
    DEFEAT = "defeat"
    MOVEMENT_WIN = "movement-win"
    GOAL = "goal"
    GOALS = "goals"


QUESTIONS: dict[QueryKind, str] = {
    QueryKind.STARS: "Can the Company earn its winning star (Star Victory) by turn {n}?",
    QueryKind.PROFIT: "Can the Company win on Profit at the end of a Reshuffle by turn {n}?",
    QueryKind.DEFEAT: "Can the Company fall into Economic Defeat or Marginalization by turn {n}?",
    QueryKind.MOVEMENT_WIN: "Can the Movement score its winning Goal points by turn {n}?",
    QueryKind.GOAL: "Can the Movement achieve Goal G{goal} by turn {n}?",
    QueryKind.GOALS: "Which Goals can the Movement achieve by turn {n}, and when at the earliest?",
}

COMPANY_QUERIES = (QueryKind.STARS, QueryKind.PROFIT, QueryKind.DEFEAT)

TARGETS: dict[QueryKind, tuple[tuple[Out, ...], tuple[OutcomeReason, ...]]] = {
    QueryKind.STARS: ((Out.STAR,), (OutcomeReason.STAR_VICTORY,)),
    QueryKind.PROFIT: ((Out.PROFIT,), (OutcomeReason.PROFIT_VICTORY,)),
    QueryKind.DEFEAT: ((Out.ECONOMIC, Out.MARGINAL), (OutcomeReason.ECONOMIC_DEFEAT, OutcomeReason.MARGINALIZATION)),
}


class Opponent(Enum):
    ANY = "any"
    PASSIVE = "passive"


@dataclass(frozen=True, slots=True)
class Assumptions:
    """What an answer rests on."""

    opponent: str
    chance: str
    rulings: dict[str, str]
    bound: str
    caps: str
    scope: str

    def lines(self) -> list[str]:
        rulings = ", ".join(f"{k}={v}" for k, v in self.rulings.items()) or "all defaults"
        return [f"opponent: {self.opponent}", f"chance: {self.chance}", f"rulings: {rulings}",
                f"bound: {self.bound}", f"caps: {self.caps}", f"scope: {self.scope}"]


@dataclass(slots=True)
class Answer:
    """The answer to one query."""

    kind: QueryKind
    question: str
    by_turn: int
    status: str
    """'yes', 'no' or 'unknown'."""
    earliest: int | None
    exact: bool | None
    assumptions: Assumptions
    checks: list[BoundResult] = field(default_factory=list)
    witness: Witness | None = None
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.kind.value, "question": self.question, "by_turn": self.by_turn, "answer": self.status,
            "earliest_turn": self.earliest, "exact": self.exact,
            "assumptions": {
                "opponent": self.assumptions.opponent, "chance": self.assumptions.chance,
                "rulings": self.assumptions.rulings, "bound": self.assumptions.bound,
                "caps": self.assumptions.caps, "scope": self.assumptions.scope,
            },
            "checks": [{"turn": c.bound, "result": c.status, "seconds": round(c.seconds, 3)} for c in self.checks],
            "witness_actions": None if self.witness is None else len(self.witness.actions),
            "outcome": None if self.witness is None or self.witness.final.outcome is None else {
                "reason": self.witness.final.outcome.reason.value, "round": self.witness.final.outcome.round},
            "seconds": round(self.seconds, 3), "notes": self.notes,
        }


DEFAULT_CAPS = Caps()

CHANCE = "best luck: every shuffle, draw and Set-Up deal is a free choice"
BOUND = ("turn N = round N, the Movement's Nth turn followed by the Company's Nth turn "
         "(ruling turn-numbering=round); 'by turn N' includes turn N")


def assumptions(game: Game, opponent: Opponent, caps: Caps) -> Assumptions:
    return Assumptions(
        opponent=("passive: the Movement passes every turn (so no Goal is achieved, nothing is banned, no "
                  "Restriction card is added, no Market card is bought)" if opponent is Opponent.PASSIVE
                  else "any: both sides choose freely"),
        chance=CHANCE,
        rulings=dict(game.rulings.choices),
        bound=BOUND,
        caps=(f"at most {caps.plays} plays (an unlobby counts as one) and {caps.buys} buys per Company turn; "
              "a 'no' says whether these caps were shown to cut off no run"),
        scope="the Company's whole side and the Movement's Market and Lobbying, per the reference engine",
    )


def check_supported(kind: QueryKind, opponent: Opponent) -> None:
    """Refuse what the encoding does not model exactly (rather than answer approximately)."""
    if kind not in COMPANY_QUERIES:
        raise OptionError(f"`solve {kind.value}` needs the Movement's side in the encoding, which is not built yet; "
                          "only stars, profit and defeat (with --opponent passive) are answered", field="query")
    if opponent is not Opponent.PASSIVE:
        raise OptionError("the encoding models the Movement only as passing; use --opponent passive "
                          "(--opponent any is not built yet)", field="--opponent")


def solve(game: Game, kind: QueryKind, by_turn: int, opponent: Opponent = Opponent.PASSIVE,
          timeout_s: float | None = None, caps: Caps = DEFAULT_CAPS, check_caps: bool = True) -> Answer:
    """Answer one Company query with the incremental bounded solver; a "yes" comes with a replayed witness."""
    if by_turn < 1:
        raise OptionError("--by-turn must be at least 1", field="--by-turn")
    check_supported(kind, opponent)
    started = time.perf_counter()
    outs, _ = TARGETS[kind]
    run = bmc.search(game, bmc.out_is(*outs), by_turn, caps, timeout_s, check_caps=check_caps)
    answer = Answer(kind, QUESTIONS[kind].format(n=by_turn), by_turn, "unknown", None, None,
                    assumptions(game, opponent, caps), run.checks)
    if run.found is not None and run.model is not None:
        answer.witness = replay(Tables.of(game), run.steps, run.model)
        answer.status = "yes"
        answer.earliest = run.found
        answer.exact = True
    elif run.checks and run.checks[-1].status == "unknown":
        last = run.checks[-1]
        answer.notes.append(f"unknown within {timeout_s} s at turn {last.bound}")
    elif len(run.checks) == by_turn:
        answer.status = "no"
        answer.exact = run.exact
        if run.exact is False:
            answer.notes.append("a run within the bound can fill a turn's last play or buy slot and go on: "
                                "the 'no' holds for runs within the caps; raise --plays/--buys for a proof")
        elif run.exact is None and check_caps:
            answer.notes.append("the caps check did not finish: the 'no' holds for runs within the caps")
    answer.seconds = time.perf_counter() - started
    return answer
