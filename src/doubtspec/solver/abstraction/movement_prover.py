"""The Movement's questions (a Goal, Goal Victory) as an `AbstractionProver` over the Movement's abstraction.

The prover checks turn 1, 2, ... with the incremental BMC; "impossible" is a proof for the game, the
first "possible" is only the abstraction's (the query layer then needs the hunt's or the
unrolling's witness at that turn). Its BMC runs on a solver that first turns the 0/1 flags into
cardinality constraints (Z3's `lia2card`): on the shipped set that settles G8 by turn 4 in about 7
CPU-seconds where the plain QF_LIA solver took 44. Spacer is not asked: on this system it did not
settle even G3 by turn 2 in 300 s (64 CPU-seconds), which the BMC does in 0.3.

When the BMC cannot rule out a turn, its model (a run of the abstraction) is played in the engine
(`movement_witness`); a game found that way is a witness at that turn, so the abstraction's bound
and the witness together give the earliest turn.

The Pacing lemma (`movement_pacing`) restricts the round's formula itself; it is listed among the
prover's lemmas so that every answer names it (its state formula is trivially true).

Every check is bounded by Z3's own count of its work (`rlimit`: `TURN_RLIMITS`, `SEEDED_RLIMITS`, `RUN_RLIMIT`),
not by slices of wall time: a slice buys less work on a loaded machine, so the same question got other answers
there. The budget's end stays as the outer bound of each check.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import z3

from doubtspec.model.actions import Action
from doubtspec.model.game import Game
from doubtspec.solver.abstraction.movement import MovementModel
from doubtspec.solver.abstraction.movement_pacing import first_pacing_round
from doubtspec.solver.abstraction.movement_witness import concretize, decisions, read_plan
from doubtspec.solver.abstraction.prover import SEED_STEP, AbstractionProver
from doubtspec.solver.abstraction.system import Lemma, RoundBmc, RoundSystem, State
from doubtspec.solver.verdict import Budget, TurnProof, TurnVerdict

NAME = "movement-abstraction"
REFINE_TRIES = 4
"""Runs of the abstraction played in the engine before the earliest turn is left as a range."""
SEEDED_RLIMITS = (20_000_000, 40_000_000, 80_000_000)
"""Seeded restarts of a turn on the incremental solver, in Z3's resource count (`rlimit`), before the turn is
asked of a fresh solver (`_one_shot`): used only when a turn before it is not proved.

They replace slices of 2, 4 and 8 s of wall time (Z3 counts about 10 million units a CPU-second on these
checks), which under load gave Z3 a third of that work or less. A restart throws Z3's search away: on the
shipped set the first turn of Goal Victory the abstraction cannot rule out (7) takes minutes in one
incremental check, so the restarts stay short."""
TURN_RLIMITS = (2_000_000_000, 4_000_000_000)
"""Tries of a turn's check on a fresh solver (`_one_shot`), seed 0 then seed 1, each bounded by Z3's resource count.

Measured on the shipped set (millions of units; Z3 counted about 10 a CPU-second under a load of 5-9, more on a
quiet machine, 15-20 for the Company's checks; the need varies with what the process built before, so the Goals were
measured in turn in one process as `goals` asks them, and some alone): turns 1-3 of every Goal at most 29; turn 4
impossible 102-125 (G9, G8), possible 94-253 (G5-G7); on `tests/data/large.toml` G8's turn 4 160, G7's 161. The
possible turn 5 of G8 and G9 costs the most: G8 682 (seed 0, in turn), 347 (seed 1, alone), more than 500 with seeds
0 and 2 (alone); G9 200 (in turn), 560 (alone). On the large file `goals --by-turn 12 --timeout 300` at load 1.5-3
left G8's and G9's turn 5 open with a first try of 1,000 (each stopped by its limit after about 65 s), where the
check without a limit found both runs in 58-61 s: hence 2,000, which holds every check measured, so on a quiet
machine the prover answers as it did when a check ran to the budget's end. Goal Victory's turn 7 (possible) took
55-104 CPU-seconds with seed 0 (one seed in five more than 120). The second try, another seed with twice the work,
is for the tail. Splitting G8's turn 5 on the place the Goal is dealt at does not help: places 1 and 2 are refuted
in 3-5, but 0, 3 and 4 each stay open after 300."""
RUN_RLIMIT = 2_000_000_000
"""Each further run the refinement asks for (`_another_run`), in Z3's resource count: the turn's check again with
the runs the engine could not follow excluded, so as much as the first try of `TURN_RLIMITS`."""


def z3_units() -> int:
    """Z3's resource count so far in this process: every solver's work, in the units of `rlimit`.

    The count is the context's, not a solver's (a solver's statistics report it too); an empty check reads it.
    The difference across a check is the work that check did, whatever the load of the machine."""
    probe = z3.Solver()
    probe.check()
    stats = probe.statistics()
    names: list[str] = stats.keys()  # a list: z3's Statistics itself iterates as (name, value) pairs
    return int(stats.get_key_value("rlimit count")) if "rlimit count" in names else 0


def limit(solver: z3.Solver, rlimit: int, budget: Budget) -> None:
    """Bound `solver`'s next check by `rlimit` units of Z3's own work, the same at any load of the machine.

    The budget's end stays as the outer bound only (a timeout of all the time left): a check stopped by its
    limit is "unknown" whatever the load, so the answers do not depend on it as long as the budget holds the
    work. In this Z3 each check gets `rlimit` more units than the count it starts at, also on a solver checked
    before (`tests/test_movement_rlimit.py` checks that).
    """
    solver.set("rlimit", rlimit)
    solver.set("timeout", budget.z3_ms())


def flag_solver() -> z3.Solver:
    """A solver for systems whose state is mostly 0/1 flags: cardinality constraints, then SMT."""
    return z3.Then("simplify", "propagate-values", "lia2card", "smt").solver()


def movement_bmc(system: RoundSystem) -> RoundBmc:
    """`RoundBmc` over `flag_solver` (the generic loop keeps its states and rounds; only the solver differs)."""
    bmc = RoundBmc(system)
    solver = flag_solver()
    solver.add(*bmc.rounds)
    bmc.solver = solver
    return bmc


def movement_system(game: Game, goal: int | None) -> tuple[MovementModel, RoundSystem, list[Lemma]]:
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
    return model, system, used


@dataclass(slots=True)
class MovementProver(AbstractionProver):
    """The prover, and the refinement of its first "possible": the abstraction's run played in the engine.

    `witness` is the engine game found that way (the caller replays it like any witness).
    """

    game: Game | None = None
    goal: int | None = None
    model: MovementModel | None = None
    witness: tuple[Action, ...] | None = None
    proved_upto: int = 0
    """The last turn proved impossible (every turn before it is too)."""
    _runs: z3.Solver | None = None
    """The one-shot solver whose model is `_bmc.model`, when the last "possible" came from one."""
    _tries: dict[int, int] = field(default_factory=dict)
    """Per turn, the tries of `TURN_RLIMITS` used up (stopped by their limit): the question's second pass, after
    the hunt, goes on from there instead of repeating a search that ends where it ended before."""

    def _settle(self, turn: int, budget: Budget) -> TurnVerdict:
        verdict = self._settle_turn(turn, budget)
        if verdict is TurnVerdict.IMPOSSIBLE and turn == self.proved_upto + 1:
            self.proved_upto = turn
        return verdict

    def _settle_turn(self, turn: int, budget: Budget) -> TurnVerdict:
        """One turn: a fresh solver when every turn before it is proved, else seeded tries first."""
        assert self._bmc is not None
        self._runs = None
        if self.proved_upto >= turn - 1:
            self._bmc.extend(turn, budget)
            return self._one_shot(turn, budget)
        for units in SEEDED_RLIMITS:
            self._bmc.solver.set("rlimit", units)
            # no cap: `RoundBmc.check` then sets the budget's end as the timeout, the outer bound only
            verdict = self._bmc.check(turn, budget, seed=(self.restarts * SEED_STEP) % 100_003)
            if verdict is not TurnVerdict.UNKNOWN or budget.expired():
                return verdict
            self.restarts += 1
        return self._one_shot(turn, budget)

    def _one_shot(self, turn: int, budget: Budget) -> TurnVerdict:
        """Turn `turn` alone, on a fresh solver given the proof of every earlier turn as a fact.

        The incremental solver carries what it learnt about the bounds before, and its query is "by
        turn k" under an assumption; a fresh solver asked "at turn k, not before" (the earlier turns
        being proved impossible, that is the same question) preprocesses the whole problem. On the
        shipped set, over seeds 0-2: turn 5 took 1.1-3.8 CPU-seconds, turn 6 6.4-11, turn 7 (possible)
        63-89 and more than 120 with one seed, where the incremental solver took 3.5-20, 10.5-13.5 and
        95-130 or more.

        The turn is tried with each seed of `TURN_RLIMITS` in turn, each try bounded by its work; a try its limit
        stopped is not made again (`_tries`).
        """
        bmc = self._bmc
        assert bmc is not None
        if len(bmc.states) <= turn:
            return TurnVerdict.UNKNOWN  # the budget ended while the rounds were being built
        target = self.system.target
        if self.proved_upto >= turn - 1:
            query = [*[z3.Not(target(state)) for state in bmc.states[:turn]], target(bmc.states[turn])]
        else:
            query = [z3.Or([target(state) for state in bmc.states[: turn + 1]])]
        while self._tries.get(turn, 0) < len(TURN_RLIMITS):
            attempt = self._tries.get(turn, 0)
            solver = flag_solver()
            solver.add(*bmc.rounds[: turn + 1], *query)
            solver.set("random_seed", attempt)
            limit(solver, TURN_RLIMITS[attempt], budget)
            result = solver.check()
            if result == z3.sat:
                bmc.model = solver.model()
                self._runs = solver
                return TurnVerdict.POSSIBLE
            bmc.model = None
            if result == z3.unsat:
                return TurnVerdict.IMPOSSIBLE
            if "resource" not in solver.reason_unknown():
                break  # stopped by the outer bound (the budget's end): this try is made again if asked again
            self._tries[turn] = attempt + 1  # spent: a later pass goes on with the next try, not this one again
        return TurnVerdict.UNKNOWN

    def decide(self, by_turn: int, budget: Budget, first_turn: int = 1) -> list[TurnProof]:
        proofs = AbstractionProver.decide(self, by_turn, budget, first_turn)
        bmc = self._bmc
        if (proofs and proofs[-1].verdict is TurnVerdict.POSSIBLE and bmc is not None and bmc.model is not None
                and self.game is not None and self.model is not None):
            started = time.perf_counter()
            turn = proofs[-1].turn
            self.witness = self._refine(bmc, turn, budget)
            if self.witness is not None:
                proofs.append(TurnProof(turn, TurnVerdict.POSSIBLE, f"{NAME}-witness", time.perf_counter() - started))
        return proofs

    def _refine(self, bmc: RoundBmc, turn: int, budget: Budget) -> tuple[Action, ...] | None:
        """Play the model's run in the engine; if that fails, ask for other runs (up to `REFINE_TRIES`)."""
        assert self.game is not None and self.model is not None and bmc.model is not None
        blocked: list[z3.BoolRef] = []
        model: z3.ModelRef | None = bmc.model
        for _ in range(REFINE_TRIES):
            if model is None or budget.expired():
                return None
            actions = concretize(self.game, read_plan(self.model, model, bmc.trace()), self.goal)
            if actions is not None:
                return actions
            blocked.append(z3.Not(decisions(self.model, model, turn)))
            model = self._another_run(bmc, turn, blocked, budget)
        return None

    def _another_run(self, bmc: RoundBmc, turn: int, blocked: list[z3.BoolRef], budget: Budget) -> z3.ModelRef | None:
        """A run of the abstraction reaching the target by `turn` other than the `blocked` ones, if any."""
        if self._runs is None:
            # in a scope: later turns of the incremental solver keep none of this
            bmc.solver.push()
            bmc.solver.add(*blocked)
            bmc.solver.set("rlimit", RUN_RLIMIT)
            model = bmc.model if bmc.check(turn, budget) is TurnVerdict.POSSIBLE else None
            bmc.solver.pop()
            return model
        self._runs.push()
        self._runs.add(*blocked)
        limit(self._runs, RUN_RLIMIT, budget)
        found = self._runs.check() == z3.sat
        bmc.model = self._runs.model() if found else None
        self._runs.pop()
        return bmc.model


def movement_abstraction(game: Game, goal: int | None) -> MovementProver:
    """The proof method for the Movement's questions."""
    model, system, lemmas = movement_system(game, goal)
    # No candidate lemmas to bring in when a turn stalls (strengthened=True), so each turn may use the whole budget.
    return MovementProver(NAME, system, lemmas=lemmas, use_spacer=False, strengthened=True,
                          _bmc=movement_bmc(system), game=game, goal=goal, model=model)
