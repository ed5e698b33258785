"""The Movement's questions (a Goal, Goal Victory) as an `AbstractionProver` over the Movement's abstraction.

The prover checks turn 1, 2, ... with the incremental BMC; "impossible" is a proof for the game, the
first "possible" is only the abstraction's (the query layer then needs the hunt's or the
unrolling's witness at that turn). Its BMC runs on a solver that first turns the 0/1 flags into
cardinality constraints (Z3's `lia2card`): on the shipped set that settles G8 by turn 4 in about 7
CPU-seconds where the plain QF_LIA solver took 44. Spacer is not asked: on this system it did not
settle even G3 by turn 2 in 300 s (64 CPU-seconds), which the BMC does in 0.3.

The Pacing lemma (`movement_pacing`) restricts the round's formula itself; it is listed among the
prover's lemmas so that every answer names it (its state formula is trivially true).
"""

from __future__ import annotations

from collections.abc import Callable

import z3

from doubtspec.model.game import Game
from doubtspec.solver.abstraction.movement import MovementModel
from doubtspec.solver.abstraction.movement_pacing import first_pacing_round
from doubtspec.solver.abstraction.prover import AbstractionProver
from doubtspec.solver.abstraction.system import Lemma, RoundBmc, RoundSystem, State

NAME = "movement-abstraction"


def flag_solver() -> z3.Solver:
    """A solver for systems whose state is mostly 0/1 flags: cardinality constraints, then SMT."""
    return z3.Then("simplify", "propagate-values", "lia2card", "smt").solver()


def movement_bmc(system: RoundSystem) -> RoundBmc:
    """`RoundBmc` over `flag_solver` (the generic loop keeps its states and rounds; only the solver differs)."""
    bmc = RoundBmc(system)
    solver = flag_solver()
    first = bmc.states[0]
    solver.add(system.init(first), system.invariant(first))
    bmc.solver = solver
    return bmc


def movement_system(game: Game, goal: int | None) -> tuple[RoundSystem, list[Lemma]]:
    """The abstraction for Goal `goal` (None: Goal Victory), with the proved Pacing lemma built in."""
    lemma = first_pacing_round(game)
    model = MovementModel(game, lemma.first_round)
    target: Callable[[State], z3.BoolRef]
    if goal is None:
        target = model.movement_win
    else:
        number = goal

        def target(s: State) -> z3.BoolRef:
            return model.goal_achieved(s, number)
    system = model.system("movement_win" if goal is None else f"movement_goal_{goal}", target)
    used = [Lemma(name, lambda _s: z3.BoolVal(True), lemma.why) for name in lemma.names]
    return system, used


def movement_abstraction(game: Game, goal: int | None) -> AbstractionProver:
    """The proof method for the Movement's questions."""
    system, lemmas = movement_system(game, goal)
    return AbstractionProver(NAME, system, lemmas=lemmas, use_spacer=False, _bmc=movement_bmc(system))
