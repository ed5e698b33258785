"""Round facts proved one round at a time, by blocking the states that could break them (a bounded IC3).

The schedule prover proves a round fact ("at most s stars after round k") with one check over rounds
0..k. For some facts Z3 finds no answer to that check in minutes: on the shipped set, whether a
first star can come in round 3 (the question that decides turn 5 of the stars question) stays open
after 300 s, because Z3 must bound the round-3 score over every way of playing rounds 1-3 at once.
A single round is small: from a given state, whether one round can score a star is answered in a
tenth of a second. `CubeBlocker` proves the fact from that end:

1. **One round.** Is there a state after round k-1 that satisfies every fact known about it, and
   one round from it that breaks the fact? UNSAT: the fact holds after round k, since every run's
   state after round k-1 satisfies the known facts.
2. **Back to Set-Up.** SAT gives such a state s. Is it reachable, over rounds 0..k-1 of the
   abstraction and the facts proved for them? The check assumes s's values one literal each
   (`x >= v`, `x <= v`), first coarsely (the tiers of `CubeTerms`: for the Company, cards counted
   per class over the hand, deck and discard pile, which after a Reshuffle are the best luck's to
   split), then exactly. UNSAT: the assumptions in Z3's unsat core, shrunk (dropping halves of it,
   then quarters, down to single literals) and loosened (each bound moved by binary search as far
   as the cube stays unreached), form a cube that no run reaches after round k-1. Its negation is a
   proved fact of round k-1, added to both checks, and step 1 is asked again.
3. SAT at the exact tier: s is reached and one round from it breaks the fact, in the abstraction.
   The fact is not proved (the abstraction may be too coarse, or the game allows it).

Every formula added is proved by an UNSAT check over the abstraction's rounds, as the schedule
prover's own facts are, so soundness rests on the abstraction alone. The blocked cubes are kept
between calls: a proof cut off by its budget goes on where it stopped when asked again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum

import z3

from doubtspec.solver.abstraction.system import State
from doubtspec.solver.verdict import Budget

CubeTerms = Callable[[State], Sequence[dict[str, z3.ArithRef]]]
"""The terms a cube over a state may bound, tier by tier from the coarsest (the last tier: every
variable that matters, so that a reachable state is recognised as one). Terms named `total_...` are
sums of others: their lower bounds join every core, so that shrinking may keep them instead."""

CHECK_SLICE_S = 60.0
"""The longest one check of either kind may take."""
SHRINK_SLICE_S = 0.5
"""Each check that tries a smaller or looser cube (a timeout keeps the cube as it was)."""
WEAKEN_REACH = 32
"""How far above its value an upper bound of a cube is loosened at most."""


class Blocking(Enum):
    """How a `CubeBlocker.prove` ended."""

    PROVED = "proved"
    REFUTED = "refuted"
    """A reachable state breaks the fact in one round (in the abstraction)."""
    UNKNOWN = "unknown"
    """Out of time, or a check Z3 could not decide."""


@dataclass(frozen=True, slots=True)
class Bound:
    """One literal of a cube: `term >= value` (`at_least`) or `term <= value`."""

    term: z3.ArithRef
    at_least: bool
    value: int

    @property
    def formula(self) -> z3.BoolRef:
        return self.term >= self.value if self.at_least else self.term <= self.value


@dataclass(frozen=True, slots=True)
class BlockedCube:
    """A conjunction of bounds on the state after `round` that no run of the abstraction reaches."""

    round: int
    literals: tuple[z3.BoolRef, ...]

    @property
    def fact(self) -> z3.BoolRef:
        return z3.Not(z3.And(*self.literals))

    def __str__(self) -> str:
        return " and ".join(str(lit) for lit in self.literals)


@dataclass(slots=True)
class CubeBlocker:
    """Proves "`goal` holds after round k" for one abstraction, blocking predecessor cubes as it goes.

    `reach(r)` is every formula of rounds 0..r (Set-Up, the rounds, the lemmas, the facts proved so
    far); `step(k)` the formulas of round k alone (from the state after round k-1 to the one after
    round k, with the lemmas on the latter); `known(r)` the facts proved about the state after round
    r (lemmas included); `state(r)` that state's variables.
    """

    reach: Callable[[int], list[z3.BoolRef]]
    step: Callable[[int], list[z3.BoolRef]]
    known: Callable[[int], list[z3.BoolRef]]
    state: Callable[[int], State]
    terms: CubeTerms
    seed: int = 0
    blocked: list[BlockedCube] = field(default_factory=list)
    checks: int = 0
    spent: dict[str, float] = field(default_factory=lambda: dict.fromkeys(("round", "reach", "shrink"), 0.0))
    """Seconds spent in each kind of check: the one round, the reachability of a state, shrinking cubes."""

    def facts(self, round_number: int) -> list[z3.BoolRef]:
        """The blocked cubes of the state after `round_number`, as facts."""
        return [cube.fact for cube in self.blocked if cube.round == round_number]

    def prove(self, k: int, goal: z3.BoolRef, budget: Budget) -> Blocking:
        """Whether `goal` (a formula over the state after round `k`) holds in every run."""
        one = z3.SolverFor("QF_LIA")
        one.add(*self.step(k), *self.known(k - 1), *self.facts(k - 1), z3.Not(goal))
        back = z3.SolverFor("QF_LIA")
        back.add(*self.reach(k - 1), *self.facts(k - 1))
        while budget.can_start():
            result = self._check(one, budget, kind="round")
            if result == z3.unsat:
                return Blocking.PROVED
            if result != z3.sat:
                return Blocking.UNKNOWN
            cube = self._unreached_cube(back, one.model(), k - 1, budget)
            if not isinstance(cube, BlockedCube):
                return cube
            self.blocked.append(cube)
            one.add(cube.fact)
            back.add(cube.fact)
        return Blocking.UNKNOWN

    def _check(self, solver: z3.Solver, budget: Budget, cap_s: float = CHECK_SLICE_S,
               assumptions: Sequence[z3.BoolRef] = (), kind: str = "reach") -> z3.CheckSatResult:
        solver.set("timeout", budget.z3_ms(cap_s))
        solver.set("random_seed", self.seed)
        self.checks += 1
        started = time.perf_counter()
        try:
            return solver.check(*assumptions)
        finally:
            self.spent[kind] += time.perf_counter() - started

    def _unreached_cube(self, back: z3.Solver, model: z3.ModelRef, r: int,
                        budget: Budget) -> BlockedCube | Blocking:
        """A cube around the model's state after round `r` that no run reaches; REFUTED if a run reaches the
        state itself, UNKNOWN if a check could not tell."""
        for tier in self.terms(self.state(r)):
            bounds: dict[str, Bound] = {}
            for name, term in tier.items():
                value = model.eval(term, model_completion=True).as_long()
                bounds[f"{name}>="] = Bound(term, True, value)
                bounds[f"{name}<="] = Bound(term, False, value)
            marks = {key: z3.Bool(f"__cube_{key}") for key in bounds}
            back.push()
            try:
                for key, mark in marks.items():
                    back.add(z3.Implies(mark, bounds[key].formula))
                result = self._check(back, budget, assumptions=list(marks.values()))
                if result == z3.unknown:
                    return Blocking.UNKNOWN
                if result == z3.sat:
                    continue  # reached at this tier: ask the next, finer one
                by_mark = {str(mark): key for key, mark in marks.items()}
                core = [by_mark[str(mark)] for mark in back.unsat_core()]
                # The sums' lower bounds join every core, so that shrinking may trade the literals they sum for them.
                core += [key for key in marks if key.startswith("total_") and key.endswith(">=") and key not in core]
                core = self._shrink(back, core, marks, budget)
            finally:
                back.pop()
            return BlockedCube(r, tuple(b.formula for b in self._weaken(back, [bounds[key] for key in core], budget)))
        return Blocking.REFUTED

    def _unreached(self, back: z3.Solver, cube: Sequence[Bound], budget: Budget) -> bool:
        back.push()
        try:
            back.add(*[b.formula for b in cube])
            return bool(self._check(back, budget, SHRINK_SLICE_S, kind="shrink") == z3.unsat)
        finally:
            back.pop()

    def _weaken(self, back: z3.Solver, cube: list[Bound], budget: Budget) -> list[Bound]:
        """Loosen each bound of an unreached cube as far as it stays unreached, by binary search (`x >= v` down to
        1 at most, `x <= v` up by at most `WEAKEN_REACH`): a looser cube blocks more states at once. A looser
        bound admits more states, so once a value fails every looser one does."""
        for index, bound in enumerate(cube):
            def unreached(value: int, index: int = index, bound: Bound = bound) -> bool:
                loosened = Bound(bound.term, bound.at_least, value)
                return self._unreached(back, [*cube[:index], loosened, *cube[index + 1:]], budget)

            if bound.at_least:
                low, high = 1, bound.value  # high is unreached; find the least value that is
                while low < high and budget.can_start():
                    middle = (low + high) // 2
                    low, high = (low, middle) if unreached(middle) else (middle + 1, high)
                cube[index] = Bound(bound.term, True, high)
            else:
                low, high = bound.value, bound.value + WEAKEN_REACH  # low is unreached; find the greatest
                while low < high and budget.can_start():
                    middle = (low + high + 1) // 2
                    low, high = (middle, high) if unreached(middle) else (low, middle - 1)
                cube[index] = Bound(bound.term, False, low)
        return cube

    def _shrink(self, back: z3.Solver, core: list[str], marks: dict[str, z3.BoolRef], budget: Budget) -> list[str]:
        """Drop literals of the core while the rest is still unreached (a smaller cube blocks more): halves, then
        quarters, and so on down to single literals, each success shrinking to that check's own core. Terms
        named `total_...` (sums over many variables) are tried last, so that they replace the literals they sum."""
        core = sorted(core, key=lambda key: key.startswith("total_"))
        size = max(1, len(core) // 2)
        while budget.can_start():
            index = 0
            while index < len(core) and len(core) > 1 and budget.can_start():
                trial = core[:index] + core[index + size:]
                if trial and self._check(back, budget, SHRINK_SLICE_S, [marks[key] for key in trial],
                                         "shrink") == z3.unsat:
                    kept = {str(mark) for mark in back.unsat_core()}
                    core = [key for key in trial if str(marks[key]) in kept]
                else:
                    index += size
            if size == 1:
                break
            size = max(1, size // 2)
        return core
