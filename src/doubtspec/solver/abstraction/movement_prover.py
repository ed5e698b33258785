"""The Movement's questions (a Goal, Goal Victory) decided turn by turn on the Movement's abstraction.

`MovementAbstraction` is a `ProofMethod`: for k = 1, 2, ... it asks whether the abstraction can
reach the target by the end of round k. IMPOSSIBLE is a proof for the game (the abstraction admits
every round the engine can play; the lemmas it used are named in each proof); POSSIBLE is only a
possibility of the abstraction (`concrete=False`): the witness must come from the hunt or the
exact unrolling, and until one comes at that turn the earliest turn is a range.

The incremental loop is `RoundBmc`'s, on a solver that first turns the 0/1 flags into cardinality
constraints (Z3's `lia2card`): on the shipped set that settles G8 by turn 4 in about 7 CPU-seconds
where the plain QF_LIA solver takes 44.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import z3

from doubtspec.model.game import Game
from doubtspec.solver.abstraction.movement import MovementModel
from doubtspec.solver.abstraction.movement_pacing import PacingLemma, first_pacing_round
from doubtspec.solver.abstraction.system import RoundBmc, RoundSystem, State
from doubtspec.solver.verdict import Budget, TurnProof, TurnVerdict

METHOD = "abstraction-bmc"


def flag_solver() -> z3.Solver:
    """A solver for systems whose state is mostly 0/1 flags: cardinality constraints, then SMT."""
    return z3.Then("simplify", "propagate-values", "lia2card", "smt").solver()


def movement_bmc(system: RoundSystem) -> RoundBmc:
    """`RoundBmc` over `flag_solver` (the generic loop keeps its states; only the solver differs)."""
    bmc = RoundBmc(system)
    solver = flag_solver()
    first = bmc.states[0]
    solver.add(system.init(first), system.invariant(first))
    bmc.solver = solver
    return bmc


class MovementAbstraction:
    """The abstraction as one room of the solver, for one target: a Goal (`goal`) or Goal Victory (None)."""

    name = METHOD

    def __init__(self, game: Game, goal: int | None) -> None:
        self.lemma: PacingLemma = first_pacing_round(game)
        self.model = MovementModel(game, self.lemma.first_round)
        self.goal = goal
        target: Callable[[State], z3.BoolRef]
        if goal is None:
            target = self.model.movement_win
        else:
            number = goal
            target = lambda s: self.model.goal_achieved(s, number)  # noqa: E731
        name = "movement_win" if goal is None else f"movement_goal_{goal}"
        self.system = self.model.system(name, target)
        self.bmc = movement_bmc(self.system)

    def decide(self, by_turn: int, budget: Budget, first_turn: int = 1) -> list[TurnProof]:
        """Turn by turn from `first_turn`: proofs up to the first POSSIBLE, `by_turn`, or the budget's end."""
        proofs: list[TurnProof] = []
        for turn in range(first_turn, by_turn + 1):
            if budget.expired():
                break
            started = time.perf_counter()
            verdict = self.bmc.check(turn, budget)
            proofs.append(TurnProof(turn, verdict, METHOD, time.perf_counter() - started, self.lemma.names,
                                    concrete=False))
            if verdict is not TurnVerdict.IMPOSSIBLE:
                break
        return proofs



def prove_movement_question(game: Game, goal: int | None, upto: int, deadline: float) -> tuple[int, str | None]:
    """For the query layer: the last turn (up to `upto`) proved impossible by the abstraction, and a note.

    `goal` None asks about Goal Victory. The note names the method, its lemmas and where it stopped.
    """
    if upto < 1:
        return 0, None
    method = MovementAbstraction(game, goal)
    proofs = method.decide(upto, Budget(deadline))
    proved = max((p.turn for p in proofs if p.verdict is TurnVerdict.IMPOSSIBLE), default=0)
    lemmas = ", ".join(method.lemma.names) or "none"
    stop = proofs[-1] if proofs else None
    if stop is None or stop.verdict is TurnVerdict.IMPOSSIBLE:
        why = "" if proved == upto else f"; turn {proved + 1} not reached in time"
    elif stop.verdict is TurnVerdict.POSSIBLE:
        why = f"; it cannot rule out turn {stop.turn}"
    else:
        why = f"; turn {stop.turn} undecided in time"
    note = (f"turns 1-{proved} proved impossible by the Movement's abstraction (no caps; lemmas: {lemmas}){why}"
            if proved else f"the Movement's abstraction proved no turn impossible{why}")
    return proved, note
