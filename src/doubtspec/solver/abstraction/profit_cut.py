"""The Profit cut: the most Profit a run can hold, with what its display will score, proved round by round.

The Profit question's turn-by-turn proof (`ScheduleProver.decide`) stops at turn 4 on the shipped set: its round
facts are bounds on Profit alone ("at most 30 Profit after round 3"), and from a state that meets them one more
round still reaches 70 (a display of 36 elderly Victims scores them all). What limits a round's gain is the
display the round starts from, so the cut bounds the **potential** instead: the Profit held plus what the display
would score at a Reshuffle Sequence run now (Reshuffle Sequence, A. Scoring Demographics), plus the threshold when
the Profit Victory latch is set (`ProfitCut.objective`), so that a bound under the threshold also says "no Profit
Victory yet". Each bound is a round fact of the prover (`RoundFact`), proved before it is used:

1. by CP-SAT's largest value of the potential over rounds 0..r (`cpsat.maximize`, within the box: asked only when
   rounds 1..r are proved free of mid-play reshuffles), a fact at once when CP-SAT proves it optimal (the same trust
   as its "infeasible", resting on the box lemma), else once CP-SAT refutes anything larger
   (`ScheduleProver._prove_by_cpsat`);
2. else (or with Z3 alone) a ladder of bounds, each by induction over one round (from any state that meets the
   lemmas and the facts proved of round r-1, round r cannot end above it) or over rounds 0..r with every fact
   proved so far, each check within `PROFIT_RLIMIT` of Z3's resource count;
3. for a round not proved free of mid-play reshuffles, and only on a long budget (`CASES_MIN_S`), by cases: a
   Sequence or not times a mid-play reshuffle or not, each CP-SAT's maximum over that round alone from the round
   before's facts (with `bound_measures`), the largest again over the whole history (`ProfitCut._by_cases`).

After each bound the next turn is proved as the star cut proves one (`ScheduleProver._check_from_cut`): the target
over the rounds after the bound only, from any state that meets the lemmas and that round's facts (a subset of the
whole check's formulas, so its UNSAT is the whole check's; never "possible"). A bound a run breaks is never added,
so nothing real play could exceed is asserted; the bounds are checked against engine games in
`tests/test_solver_profit_cut.py`. Shipped set: 8, 18 and 30 after rounds 1-3 (all optimal), and from 30 one round
cannot reach 70 (CP-SAT: at most 54 Profit after round 4 from any such state), so turn 4 is proved; the same on
`tests/data/large.toml` (6, 17, 30; 60 to win). With a long budget, round 4 by cases: at most 45 on the shipped
set, and turn 5 follows (about 360 CPU-seconds in all); 44 on the large file, where turn 5 does not.

**Kept from one question to the next** (`proof_cache`): every maximum a bound rests on (a round's potential, the
measures, each case's bound) is kept as the proof "at most B" of its formulas within the box, and the loops' box as
its UNSAT answer, so that a later question on the same card file, rulings and code takes them instead of asking
CP-SAT (a fact from the store says "kept from an earlier question" and rests on the same lemmas). On a budget
too short for the cases (`CASES_MIN_S`) the round's cases are taken from the store alone (`_by_cases`'s
`stored_only`): nothing long is asked, and a case with nothing stored leaves the round open as before. The target's
search and turn 5's check from the bound (Z3, about 10 and 2 CPU-seconds) are made again: the cases from the store
need no target, and the check is what proves the turn.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import z3

from doubtspec.solver.abstraction import cpsat, proof_cache
from doubtspec.solver.abstraction.company import PROFIT, ZONES, CompanyLayout, _score
from doubtspec.solver.abstraction.company_schedules import (
    SEQUENCE_RLIMIT,
    RoundFact,
    ScheduleProver,
    mid_reshuffle_at,
    qf_lia_solver,
    sequence_at,
)
from doubtspec.solver.abstraction.loops import LoopBounds
from doubtspec.solver.abstraction.system import State
from doubtspec.solver.verdict import Budget, TurnProof, TurnVerdict

NAME = "abstraction-profit-cut"
"""The method's name in a turn's proof."""
PROFIT_RLIMIT = 60_000_000
"""Each Z3 check of the cut, in Z3's own resource count (the same whatever the load; see
`company_schedules.FACT_RLIMIT`, whose figure is the same order: Z3 counts 15-20 million a CPU-second here)."""
RLIMIT_WALL_S = 30.0
"""A wall-time cap beside `PROFIT_RLIMIT` (only a heavily loaded machine reaches it)."""
POTENTIAL_STEPS = (5, 10, 15, 20, 25, 30, 40)
"""What the potential may grow by in a round, tried from the least (bounded by the threshold) when CP-SAT is not
asked or leaves the bound open (Z3 alone proves the shipped set's round-1 bound, 10, but none of round 2's)."""
LADDER_UNDECIDED = 2
"""The Z3 ladder of a round stops after this many bounds left undecided over rounds 0..r (on the shipped set each
takes about 2 CPU-seconds at `PROFIT_RLIMIT`, and round 2's were undecided from 15 to 50: 15 CPU-seconds)."""
LOOPS_FOR_CPSAT = False
"""Whether CP-SAT's maximum is asked for a round that may have a mid-play reshuffle (through the loops' box): on
the shipped set round 4's reached 11 with a bound of 1211 after 30 units (14.6 CPU-seconds), so it is not."""
CUT_CPSAT_MIN_S = 12.0
"""CP-SAT is asked for a round's bound with this much of the cut's budget left."""
BOX_CAP_S = 120.0
"""The wall-time cap of the box's proof when the cut asks for it first (3-5 CPU-seconds on the shipped set)."""
CPSAT_CAP_S = 300.0
"""The most wall time CP-SAT's maximum of one round may take: only a cap, `CPSAT_WORK` is the limit (under a load
of 10 on the two cores, 120 s of wall time gave CP-SAT 14 CPU-seconds and cut off the round-3 maximum of the shipped
set at a bound of 96, which it proves optimal, 30, in 15 CPU-seconds at a load of 7)."""
CPSAT_WORK = 60.0
"""CP-SAT's deterministic-time limit for one round's maximum (about half a CPU-second a unit here). Shipped set:
rounds 1 and 2 optimal in 0.8 and 1.7 CPU-seconds, round 3 in 14.9; round 4, which may have a mid-play reshuffle
(so the loops' box), reached 11 with a bound of 1211 when cut off at 30 units (14.6 CPU-seconds)."""


CASES_MIN_S = 200.0
"""The least budget left for a round's bound by cases (`ProfitCut._by_cases`): on the shipped set round 4 takes
about three CPU-minutes (the measures after round 3 about 24, the loops' box 10, the target 5, round 4 alone 10, the
three cases over rounds 0..4 145; about 360 in all on a slower machine), so a question of 120 s never asks it. At
200, a fresh `profit --by-turn 12 --timeout 300` starts them after the hunt, with about 255 s left, and proves
turn 5 ("earliest between 6 and 7" in 296.5 s wall); at 300 it could not start them. At 150, on the slower machine
under a load of 6-7, `profit --by-turn 5 --timeout 600` started the cases and did not finish them (turn 4 only,
525 s wall, 374 CPU-seconds): cases cut off by the budget leave the answer as it was without them. Under the gate
the cases are taken from the proof store alone, when an earlier question proved them (`_by_cases`'s
`stored_only`)."""
CASES_WORK = 120.0
"""CP-SAT's deterministic-time limit for each maximum of `ProfitCut._by_cases`."""
MAXIMUM_KIND = "cpsat-maximum"
"""The kind of CP-SAT's maxima in the proof store's keys (`proof_cache.record_at_most`)."""
STORED = "kept from an earlier question"
"""How a fact taken from the proof store says so (the star cut's words, `ScheduleProver._prove_by_cpsat`)."""
MEASURE_WORK = 30.0
"""CP-SAT's deterministic-time limit for each of `measures` (`ProfitCut.bound_measures`). Shipped set after round 3,
each optimal: cards owned 29 (7.8 CPU-seconds), in the Reserve 3 (5.0), Victims on the display 17 (26.2), children
4 (5.5)."""


def measures(layout: CompanyLayout, state: State) -> dict[str, z3.ArithRef]:
    """Counts of a state between rounds that limit what the next round can add to the potential: the cards the
    Company owns (deck, hand, discard pile and Reserve: The Company's Cards; a buy adds one, Buying Cards), those in
    its Reserve (each activated by matching plays), the Victims on its display and those among children (scored
    at every Reshuffle Sequence until they reach Elderly: Scoring Demographics)."""
    zones = ("deck", "hand", "discard", "reserve")
    owned = [state[f"{zone}_{k.name}"] for k in layout.classes for zone in zones if f"{zone}_{k.name}" in state]
    reserve = [state[f"reserve_{k.name}"] for k in layout.classes if f"reserve_{k.name}" in state]
    victims = [state[f"victims_{zone.key}"] for zone in ZONES]
    return {"cards owned": z3.Sum(owned), "cards in the Reserve": z3.Sum(reserve),
            "Victims on the display": z3.Sum(victims), "children Victims": victims[0]}


def potential(state: State) -> z3.ArithRef:
    """The Profit held plus what the display would score at a Reshuffle Sequence now (Scoring Demographics)."""
    scored, _ = _score([state[f"victims_{zone.key}"] for zone in ZONES])
    return state["profit"] + scored


@dataclass(frozen=True, slots=True)
class CutStep:
    """One check of the cut, for the report: what was asked, the answer and its cost."""

    text: str
    answer: str
    seconds: float
    cpu_seconds: float


def _potential_text(r: int, value: int) -> str:
    """How a bound on the potential after round `r` reads in facts and logs."""
    return f"potential at most {value} after round {r}, no Profit Victory yet"


@dataclass(slots=True)
class ProfitCut:
    """The Profit cut of one prover: the potential bounds proved so far and the turn they proved."""

    prover: ScheduleProver
    threshold: int
    at_most: dict[int, int] = field(default_factory=dict)
    """Round to the proved bound on the potential after it (with the Profit Victory latch unset)."""
    turn: int = 0
    """The last turn proved impossible from a bound (0: none)."""
    steps: list[CutStep] = field(default_factory=list)
    proof: TurnProof | None = None
    """The proof of `turn`, its seconds those of the whole cut so far."""
    _open: set[int] = field(default_factory=set)
    """Rounds whose bound no check proved (the cut ends there)."""
    _cpsat_asked: set[int] = field(default_factory=set)
    _cases_asked: set[int] = field(default_factory=set)
    _measured: set[int] = field(default_factory=set)
    """Rounds whose `measures` `_by_cases` has had proved (`bound_measures`), the Victims among them."""
    _case_maxima: dict[tuple[int, bool, bool, bool], int] = field(default_factory=dict)
    """(round, Sequence, mid-play reshuffle, over the whole history) to the bound CP-SAT proved on the case (its
    optimum, or a bound at or below the round's target): kept, so that a call cut off by its budget is not asked
    again from the start."""
    _targets: dict[int, int | None] = field(default_factory=dict)
    """Round to its target (`target`), once searched (None: no bound under the threshold proves the next turn)."""
    _learned: set[int] = field(default_factory=set)
    """Rounds whose Sequence and mid-play reshuffle facts were asked."""
    _looked_up: set[tuple[str, int]] = field(default_factory=set)
    """("cpsat" or "cases", round) whose bound was looked up in the proof store alone (`stored_only`): not again,
    as nothing this process proves in between is stored without the same call having it at hand."""
    _cases_begun: set[int] = field(default_factory=set)
    """Rounds whose cases a call with the budget for them went on to ask (finished or cut off)."""
    cases_not_asked: dict[int, float] = field(default_factory=dict)
    """Rounds whose bound by cases (`_by_cases`) was due but not asked because less than `CASES_MIN_S` of the
    budget was left (the seconds left then), and that no later call asked: the answer says so, so that a user knows
    what a longer budget would ask (`queries._note_cases_not_asked`)."""

    def objective(self, r: int) -> z3.ArithRef:
        """The potential after round `r`, plus the threshold when the Profit Victory latch is set: below the
        threshold it says both that the latch is unset and how much the potential is."""
        state = self.prover.state(r)
        return potential(state) + self.threshold * state[PROFIT]

    def bound(self, r: int, value: int) -> z3.BoolRef:
        return self.objective(r) <= value

    def _z3(self, formulas: list[z3.BoolRef], budget: Budget, rlimit: int = PROFIT_RLIMIT) -> z3.CheckSatResult:
        """One check within `rlimit` of Z3's resource count, in a Z3 context of its own. Z3's answer within a
        resource limit depends on the terms its context already holds, and what the proof store spares a later
        question (CP-SAT's solutions, checked by Z3; the box's checks) changes those: in the shared context, round
        2's "a Reshuffle Sequence" was undecided in a question that asked CP-SAT and proved in one that took its
        maxima from the store, so the facts, and with them the keys of every maximum after it, differed. In a
        context of its own the answer depends on the formulas alone (the same holds for the turns' checks from a
        bound: `ScheduleProver._check_from_cut`'s `own_context`)."""
        solver = qf_lia_solver(formulas, own_context=True)
        solver.set("rlimit", rlimit)
        solver.set("timeout", budget.z3_ms(RLIMIT_WALL_S))
        self.prover.checks += 1
        return solver.check()

    def _timed(self, text: str, ask: z3.CheckSatResult | None, started: tuple[float, float]) -> None:
        self.steps.append(CutStep(text, str(ask), time.perf_counter() - started[0],
                                  time.process_time() - started[1]))

    def _fact(self, r: int, formula: z3.BoolRef, text: str, budget: Budget,
              rlimit: int = PROFIT_RLIMIT) -> z3.CheckSatResult:
        """`formula` over the state after round `r` added as a fact if Z3 refutes its negation over rounds 0..r."""
        if any(fact.formula.eq(formula) for fact in self.prover.facts):
            return z3.unsat
        started = time.perf_counter(), time.process_time()
        result = self._z3([*self.prover.formulas(r), z3.Not(formula)], budget, rlimit)
        self._timed(text, result, started)
        if result == z3.unsat:
            self.prover.facts.append(RoundFact(r, formula, text))
        return result

    def _inductive(self, r: int, formula: z3.BoolRef, budget: Budget) -> z3.CheckSatResult:
        """Whether one round from any state meeting the lemmas and round `r`-1's facts ends meeting `formula`."""
        prover = self.prover
        prover._unroll(r)
        return self._z3([prover.system.invariant(prover.state(r - 1)),
                         *[fact.formula for fact in prover.facts if fact.round == r - 1],
                         *prover._rounds[r], z3.Not(formula)], budget)

    def _prove_bound(self, r: int, budget: Budget, cpsat: bool) -> bool:
        """The least potential bound after round `r` that one of the ways proves (see the module)."""
        if cpsat and budget.left() >= CUT_CPSAT_MIN_S:
            if self._by_cpsat(r, budget):
                return True
        elif self._by_cpsat(r, budget, stored_only=True):
            return True
        if cpsat and budget.left() >= CASES_MIN_S:
            self.cases_not_asked.pop(r, None)
            self._cases_begun.add(r)
            if self._by_cases(r, budget):
                return True
        elif self._by_cases(r, budget, stored_only=True):
            # too short a budget for the cases' maxima (several CPU-minutes): those an earlier question proved
            return True
        elif budget.left() < CASES_MIN_S and r not in self._cases_begun and self._cases_apply(r):
            self.cases_not_asked[r] = budget.left()  # (not when Z3 alone was chosen on a long budget)
        before = self.at_most.get(r - 1, 0)
        undecided = 0
        for value in sorted({min(before + step, self.threshold - 1) for step in POTENTIAL_STEPS}):
            if not budget.can_start() or undecided >= LADDER_UNDECIDED:
                return False
            formula = self.bound(r, value)
            text = _potential_text(r, value)
            result = z3.unknown
            if r - 1 in self.at_most:
                started = time.perf_counter(), time.process_time()
                result = self._inductive(r, formula, budget)
                self._timed(f"{text} (one round)", result, started)
            if result == z3.unsat:
                self.prover.facts.append(RoundFact(r, formula, f"{text} (one round from round {r - 1})"))
            else:
                result = self._fact(r, formula, text, budget)
            if result == z3.unsat:
                self.at_most[r] = value
                return True
            undecided += result == z3.unknown
        return False

    def _first_ask(self, what: str, r: int, asked: set[int], stored_only: bool) -> bool:
        """Whether round `r`'s `what` ("cpsat" or "cases") is asked now, marked as asked if so: once with its checks
        (`asked`; a call cut off by the budget removes it), and once from the proof store alone (`_looked_up`)."""
        if r in asked:
            return False
        if stored_only:
            if proof_cache.directory() is None or (what, r) in self._looked_up:
                return False
            self._looked_up.add((what, r))
        else:
            asked.add(r)
        return True

    def _by_cpsat(self, r: int, budget: Budget, stored_only: bool = False) -> bool:
        """CP-SAT's largest potential over rounds 0..`r` (`cpsat.maximize`), proved as the round's bound: at once
        when CP-SAT proved it optimal, else by CP-SAT's "no" to a larger one (`ScheduleProver._prove_by_cpsat`).
        An optimum is kept in the proof store (`proof_cache.record_at_most`) and taken from it by a later question
        on the same formulas. `stored_only`: only the store is asked (the box too), no check is made."""
        prover = self.prover
        if not self._first_ask("cpsat", r, self._cpsat_asked, stored_only):
            return False
        if prover._box is None and prover._template is not None:
            # The box once, with a cap of its own: within the prover's 20 s of wall time it failed under load.
            started = time.perf_counter(), time.process_time()
            holds = prover._prove_box(cpsat.Box(), budget, cap_s=BOX_CAP_S, stored_only=stored_only)
            self._timed("the box (CP-SAT's domains)", z3.unsat if holds else z3.unknown, started)
            if not holds and (stored_only or budget.expired()):
                self._cpsat_asked.discard(r)  # not asked, or cut off by the budget: a later call asks again
                return False
            prover._box = holds
        if stored_only and prover._box is not True:
            return False
        free = [z3.Not(mid_reshuffle_at(k)) for k in range(1, r + 1)] if prover._mid_reshuffle() is not None else []
        if not LOOPS_FOR_CPSAT and not all(any(f.formula.eq(g) for f in prover.facts) for g in free):
            self._timed(f"CP-SAT not asked: a mid-play reshuffle not ruled out in rounds 1..{r}", None,
                        (time.perf_counter(), time.process_time()))
            return False
        allowed = prover._cpsat_allowed(r, budget)
        if allowed is False:
            self._timed(f"CP-SAT not allowed for rounds 0..{r}", None, (time.perf_counter(), time.process_time()))
            return False
        bounded = ([c for k in range(1, r + 1) for c in allowed.at(f"@{k}")]
                   if isinstance(allowed, LoopBounds) else [])
        box, variables = cpsat.Box(), frozenset(prover.system.variables)
        started = time.perf_counter(), time.process_time()
        formulas = [*prover.formulas(r, numbered=False), *bounded]
        problem, stored = self._stored_maximum(formulas, self.objective(r))
        if stored is not None and stored < self.threshold:
            self._timed(f"largest potential after round {r}: at most {stored} ({STORED})", None, started)
            self._add_bound(r, stored, STORED, loops=bool(bounded))
            return True
        if stored_only:
            self._timed(f"largest potential after round {r}: not in the proof store", None, started)
            return False
        try:
            best = cpsat.maximize(formulas, self.objective(r), lambda name: box.domain(name, variables), budget,
                                  CPSAT_CAP_S, work_limit=CPSAT_WORK)
        except cpsat.Untranslatable:
            return False
        prover.checks += 1
        if not best.optimal and budget.expired():
            self._cpsat_asked.discard(r)  # cut off by the budget, not by its work limit: a later call asks again
        self._timed(f"largest potential after round {r}: at most {best.at_most}, reached {best.reached}"
                    f"{' (optimal)' if best.optimal else ''} (CP-SAT)", None, started)
        if best.at_most is None or best.at_most >= self.threshold:
            return False
        value = max(best.at_most, 0)
        if best.optimal:
            text = self._add_bound(r, value, "optimal", loops=bool(bounded))
            proof_cache.record_at_most(problem, value, text)
            return True
        text = _potential_text(r, value)
        started = time.perf_counter(), time.process_time()
        result = prover._prove_by_cpsat(r, self.bound(r, value), text, budget, 0.0)
        self._timed(f"{text} (CP-SAT)", result, started)
        if result != z3.unsat:
            return False
        self.at_most[r] = value
        return True

    def bound_measures(self, r: int, budget: Budget, stored_only: bool = False) -> dict[str, int]:
        """CP-SAT's largest value of each of `measures` after round `r`, over rounds 0..`r` with every fact proved
        so far; each one CP-SAT proves optimal is added as a fact of round `r` (the same trust as the potential's
        bound: the box lemma). Asked only within the box: once the box is proved and rounds 1..`r` are proved free
        of mid-play reshuffles (else nothing is asked). Returns the bounds proved.

        Asked by `_by_cases` for the round before: from a free state after round 3 that meets them, one round without
        a mid-play reshuffle reaches a potential of 60 on the shipped set, where it reaches 74 without them.

        Each optimum is kept in the proof store and taken from it by a later question on the same formulas (5-26
        CPU-seconds each on the shipped set); `stored_only`: only the store is asked."""
        prover = self.prover
        if prover.layout is None or prover._box is not True or not budget.can_start():
            return {}
        prover._unroll(r)
        if prover._mid_reshuffle() is not None and not all(
                prover._has_fact(z3.Not(mid_reshuffle_at(k))) for k in range(1, r + 1)):
            return {}
        box, variables = cpsat.Box(), frozenset(prover.system.variables)
        proved: dict[str, int] = {}
        for name, term in measures(prover.layout, prover.state(r)).items():
            if not budget.can_start():
                break
            started = time.perf_counter(), time.process_time()
            formulas = prover.formulas(r, numbered=False)
            problem, stored = self._stored_maximum(formulas, term)
            if stored is not None:
                self._timed(f"largest {name} after round {r}: at most {stored} ({STORED})", None, started)
                prover.facts.append(RoundFact(r, term <= stored,
                                              f"at most {stored} {name} after round {r} (CP-SAT, {STORED})"))
                prover.used_box = True
                proved[name] = stored
                continue
            if stored_only:
                continue  # the facts after it would differ from those stored: the other measures are missed too
            try:
                best = cpsat.maximize(formulas, term, lambda name: box.domain(name, variables), budget, CPSAT_CAP_S,
                                      work_limit=MEASURE_WORK)
            except cpsat.Untranslatable:
                return proved
            prover.checks += 1
            self._timed(f"largest {name} after round {r}: at most {best.at_most}, reached {best.reached}"
                        f"{' (optimal)' if best.optimal else ''} (CP-SAT)", None, started)
            if best.optimal and best.at_most is not None:
                value = max(best.at_most, 0)
                text = f"at most {value} {name} after round {r} (CP-SAT)"
                prover.facts.append(RoundFact(r, term <= value, text))
                prover.used_box = True
                proved[name] = value
                proof_cache.record_at_most(problem, value, text)
        return proved

    def _stored_maximum(self, formulas: list[z3.BoolRef], objective: z3.ArithRef) -> tuple[str, int | None]:
        """The proof store's key of CP-SAT's maximum of `objective` over `formulas` within the box (the box's limits
        and the state variables among its parameters, as for the star cut's asks), and the bound an earlier question
        proved of it (None: none kept, or the store is off; then the key is "")."""
        problem = proof_cache.key_when_on(MAXIMUM_KIND, [*formulas, objective], cpsat.Box(),
                                          sorted(self.prover.system.variables))
        return problem, proof_cache.known_at_most(problem)

    def _free_round(self, r: int, extra: list[z3.BoolRef]) -> list[z3.BoolRef]:
        """Round `r` alone from any state that meets the lemmas and the facts proved of round `r`-1, with the facts
        of round `r` (without the numbered part, as CP-SAT is always asked): a subset of rounds 0..`r`'s formulas."""
        prover = self.prover
        prover._unroll(r)
        step = prover.round_formulas(r, numbered=False)
        return [prover.system.invariant(prover.state(r - 1)),
                *[fact.formula for fact in prover.facts if fact.round in (r - 1, r)], *step, *extra]

    def _maximum(self, formulas: list[z3.BoolRef], r: int, text: str, budget: Budget,
                 target: int | None = None) -> cpsat.Maximum | None:
        """CP-SAT's largest potential after round `r` over `formulas`, its search stopped once its bound is at most
        `target` (`cpsat.maximize`; None: to the optimum). None if untranslatable."""
        box, variables = cpsat.Box(), frozenset(self.prover.system.variables)
        started = time.perf_counter(), time.process_time()
        try:
            best = cpsat.maximize(formulas, self.objective(r), lambda name: box.domain(name, variables), budget,
                                  CPSAT_CAP_S, work_limit=CASES_WORK, target=target)
        except cpsat.Untranslatable:
            return None
        self.prover.checks += 1
        self._timed(f"largest potential after round {r}, {text}: at most {best.at_most}, reached {best.reached}"
                    f"{' (optimal)' if best.optimal else ''}{'' if target is None else f', target {target}'}"
                    " (CP-SAT)", None, started)
        return best

    def target(self, r: int, budget: Budget) -> int | None:
        """The largest potential bound after round `r` from which turn `r`+1 is proved impossible (`prove_turn`'s
        check, asked with the bound as a fact it then drops), searched by halves between 0 and the threshold; None
        when none is. A check Z3 leaves undecided counts as not proved, so the target is one the check proves,
        though perhaps not the largest such. The search is kept: the round's cases are then asked only down to
        it (`_by_cases`). On the shipped set, round 4: 45, in about 11 CPU-seconds (Z3 proves turn 5 from 45 in about
        1 and finds a run from 46)."""
        if r in self._targets:
            return self._targets[r]
        prover = self.prover
        prover._unroll(r + 1)
        started = time.perf_counter(), time.process_time()
        low, high = -1, self.threshold - 1  # proved from `low` (-1: none yet), not from above `high`
        while low < high and budget.can_start():
            value = (low + high + 1) // 2
            trial = RoundFact(r, self.bound(r, value), f"potential at most {value} after round {r} (tried)")
            prover.facts.append(trial)
            try:
                proved = prover._check_from_cut(r, r + 1, budget, own_context=True) == z3.unsat
            finally:
                del prover.facts[next(i for i, fact in enumerate(prover.facts) if fact is trial)]
            if proved:
                low = value
            else:
                high = value - 1
        if low < high:
            return None  # cut off by the budget: a later call searches again
        found = low if low >= 0 else None
        self._targets[r] = found
        self._timed(f"the target after round {r}: turn {r + 1} proved from a potential of at most {found}",
                    None, started)
        return found

    def _by_cases(self, r: int, budget: Budget, stored_only: bool = False) -> bool:
        """The potential after round `r`, a round not proved free of mid-play reshuffles, bounded by cases: a
        Reshuffle Sequence in round `r` or not, times a mid-play reshuffle in it or not (Company's Turn: Draw
        Phase; a draw in the Play Phase with the deck empty reshuffles without a Sequence). The cases cover every
        run. Asked when rounds 1..`r`-1 are proved free of mid-play reshuffles, the box is proved, and the shrink
        of looping plays with the box over every round (`ScheduleProver._loop_box_allowed`; the cases with a
        mid-play reshuffle assert its bound on the plays).

        Each case is first bounded over round `r` alone, from any state that meets round `r`-1's facts (the
        measures of `bound_measures` among them, asked first); then the case with the largest value, as long as
        it comes from round `r` alone, over rounds 0..`r` (the free state loses the run's history: on the shipped
        set the case with a Sequence and no mid-play reshuffle reaches 60 from round 3's facts and 45 over rounds
        0..4). The bound is the largest case's.

        Each maximum is asked only down to the round's `target` (the largest bound the next turn is proved from):
        CP-SAT's search stops once its proved bound is at or below it (`cpsat.maximize`), and a case above it
        over the whole history ends the round's cases at once (no bound they could give proves the next turn).
        Without a target (no bound under the threshold proves the next turn) each maximum is asked to its
        optimum, as it was. A bound CP-SAT proves is used whether or not it proved it optimal (its objective
        bound holds at every point of its search, the same trust as its "infeasible").

        Every bound a case keeps is kept in the proof store too (`proof_cache.record_at_most`), with the measures
        and the loops' box, and a later question on the same formulas takes them from it. `stored_only` (a budget
        too short for the cases' maxima): the measures, the loops' box and the cases' bounds are taken from the
        store alone, and no maximum is asked; the target is not searched either (the bound is the largest case's,
        and `prove_turn` then proves the next turn from it or not). A case with nothing stored leaves the round
        open, for a later call that may ask."""
        prover = self.prover
        if not self._first_ask("cases", r, self._cases_asked, stored_only):
            return False
        if not self._cases_apply(r) or not budget.can_start():
            return False
        if r - 1 not in self._measured and "Victims on the display" in self.bound_measures(r - 1, budget,
                                                                                            stored_only):
            self._measured.add(r - 1)  # else (cut off by the budget, or not stored) a later call asks again
        started = time.perf_counter(), time.process_time()
        loops = prover._loop_box_allowed(budget, stored_only)
        self._timed("the shrink of looping plays and the box over every round", z3.unsat if loops else z3.unknown,
                    started)
        if not isinstance(loops, LoopBounds):
            return False
        every = [c for k in range(1, r + 1) for c in loops.at(f"@{k}")]
        cases = {(seq, mid): [sequence_at(r) if seq else z3.Not(sequence_at(r)),
                              mid_reshuffle_at(r) if mid else z3.Not(mid_reshuffle_at(r))]
                 for seq in (False, True) for mid in (False, True)}

        def named(seq: bool, mid: bool) -> str:
            return f"{'a' if seq else 'no'} Sequence, {'a' if mid else 'no'} mid-play reshuffle in round {r}"

        def round_alone(seq: bool, mid: bool) -> list[z3.BoolRef]:
            """The case over round `r` alone, from any state that meets round `r`-1's facts."""
            return self._free_round(r, [*cases[seq, mid], *(loops.at(f"@{r}") if mid else [])])

        def history(seq: bool, mid: bool) -> list[z3.BoolRef]:
            """The case over rounds 0..`r`."""
            return [*prover.formulas(r, numbered=False), *cases[seq, mid], *(every if mid else [])]

        if stored_only:
            return self._cases_from_store(r, {case: [round_alone(*case), history(*case)] for case in cases}, named)

        target = self.target(r, budget)
        if target is None and r not in self._targets:
            self._cases_asked.discard(r)  # the target's search was cut off by the budget: a later call asks again
            return False
        from_store: list[tuple[int, bool, bool, bool]] = []

        def bounded(key: tuple[int, bool, bool, bool], formulas: list[z3.BoolRef], text: str) -> int | None:
            """The case's bound: kept from an earlier call or question (the proof store), else CP-SAT's, down to the
            target (None: no bound proved; a bound above the target is kept only when CP-SAT proved it optimal, so
            that a kept bound above the target says no bound of the case will do)."""
            if key in self._case_maxima:
                return self._case_maxima[key]
            started = time.perf_counter(), time.process_time()
            problem, stored = self._stored_maximum(formulas, self.objective(r))
            if stored is not None:
                self._timed(f"largest potential after round {r}, {text}: at most {stored} ({STORED})", None, started)
                self._case_maxima[key] = stored
                from_store.append(key)
                return stored
            best = self._maximum(formulas, r, text, budget, target)
            if best is None or best.at_most is None:
                return None
            value = max(best.at_most, 0)
            if best.optimal or (target is not None and value <= target):
                self._case_maxima[key] = value
                proof_cache.record_at_most(problem, value, f"potential at most {value} after round {r}, {text}")
            return value

        values: dict[tuple[bool, bool], int] = {}
        for seq, mid in cases:
            value = bounded((r, seq, mid, False), round_alone(seq, mid),
                            f"{named(seq, mid)}, from round {r - 1}'s facts")
            if value is None:
                if budget.expired():
                    self._cases_asked.discard(r)  # cut off by the budget: a later call asks again
                if target is None:
                    return False
                value = self.threshold  # above any target: asked over the whole history below
            values[seq, mid] = value
        whole: set[tuple[bool, bool]] = set()
        while budget.can_start():
            # On a tie a case already bounded over the whole history comes first: refining the other cannot lower
            # the bound (on the large file it cost 96 CPU-seconds for nothing).
            largest = max(values, key=lambda key: (values[key], key in whole))
            if largest in whole or (target is not None and values[largest] <= target):
                break
            whole.add(largest)
            value = bounded((r, *largest, True), history(*largest), f"{named(*largest)}, over rounds 0..{r}")
            if value is not None:
                values[largest] = min(values[largest], value)
            elif budget.expired():
                self._cases_asked.discard(r)  # cut off by the budget: a later call asks again
                return False
            if target is not None and values[largest] > target:
                # Over the whole history and still above the target (or not bounded at all): no bound this round's
                # cases can prove gives turn r+1, and the other cases' maxima would cost minutes for nothing.
                return False
        value = max(values.values())
        if target is not None and value > target:
            self._cases_asked.discard(r)  # cut off by the budget before the cases reached the target
            return False
        # an answer that rests on stored bounds says so, as the store's other facts do
        return self._cases_bound(r, value, f"by cases, {len(from_store)} of their bounds {STORED}" if from_store
                                 else "by cases")

    def _cases_apply(self, r: int) -> bool:
        """Whether round `r`'s bound by cases can be asked at all, budget aside: the round before is bounded, the
        rounds before it are proved free of mid-play reshuffles, and CP-SAT's box holds and reaches round `r`."""
        prover = self.prover
        if (r - 1 not in self.at_most or prover._mid_reshuffle() is None or prover._box is not True
                or r > cpsat.Box().max_rounds):
            return False
        return all(prover._has_fact(z3.Not(mid_reshuffle_at(k))) for k in range(1, r))

    def _cases_bound(self, r: int, value: int, how: str) -> bool:
        """The largest of round `r`'s case bounds added as its potential bound (when under the threshold)."""
        if value >= self.threshold:
            return False
        self._add_bound(r, value, how, loops=True)
        return True

    def _add_bound(self, r: int, value: int, how: str, loops: bool) -> str:
        """Round `r`'s potential bound proved by CP-SAT (`how`), within the box and, with `loops`, the looping
        plays' bound: asserted as a fact of the round. Returns the fact's text."""
        text = f"{_potential_text(r, value)} (CP-SAT, {how})"
        prover = self.prover
        prover.facts.append(RoundFact(r, self.bound(r, value), text))
        prover.used_box = True
        prover.used_loops = prover.used_loops or loops
        self.at_most[r] = value
        return text

    def _cases_from_store(self, r: int, asked: dict[tuple[bool, bool], list[list[z3.BoolRef]]],
                          named: Callable[[bool, bool], str]) -> bool:
        """`_by_cases` from the proof store alone: each case's least bound kept from an earlier question (over
        round `r` alone or over rounds 0..`r`: `asked`, the case's formulas each way), none asked; False when a
        case has none (nothing is added then)."""
        values: dict[tuple[bool, bool], int] = {}
        for case, ways in asked.items():
            started = time.perf_counter(), time.process_time()
            found = [stored for stored in (self._stored_maximum(formulas, self.objective(r))[1] for formulas in ways)
                     if stored is not None]
            self._timed(f"largest potential after round {r}, {named(*case)}: "
                        + (f"at most {min(found)} ({STORED})" if found else "not in the proof store"), None, started)
            if not found:
                return False
            values[case] = min(found)
        return self._cases_bound(r, max(values.values()), f"by cases, {STORED}")

    def _round_facts(self, r: int, budget: Budget) -> None:
        """The round's Sequence and mid-play reshuffle facts, as a turn would learn them (each limited by
        `PROFIT_RLIMIT`): they help Z3 and CP-SAT with the bound, and CP-SAT needs the mid-play one."""
        if self._fact(r, sequence_at(r), f"a Reshuffle Sequence in round {r}", budget,
                      SEQUENCE_RLIMIT) != z3.unsat:
            self._fact(r, z3.Not(sequence_at(r)), f"no Reshuffle Sequence in round {r}", budget, SEQUENCE_RLIMIT)
        if self.prover._mid_reshuffle() is not None:
            self._fact(r, z3.Not(mid_reshuffle_at(r)), f"no mid-play reshuffle in round {r}", budget)

    def run(self, by_turn: int, budget: Budget, cpsat: bool = True) -> int:
        """Bounds round by round from the first not proved, each followed by the turn after it proved from it;
        stops at `by_turn`, at a round whose bound is not proved (after trying its turn from the bound before it),
        or at a turn not proved. Returns `turn`. `cpsat` False: Z3 alone; a later call goes on where this one
        stopped (a round left open by Z3 alone is asked again, of CP-SAT)."""
        prover = self.prover
        if not budget.can_start() or not prover._prepare(budget):
            return self.turn
        for r in range(1, by_turn):
            if self.turn >= by_turn or not budget.can_start():
                break
            if r not in self.at_most:
                prover._unroll(r)
                if r not in self._learned:
                    self._learned.add(r)
                    self._round_facts(r, budget)
                if not self._prove_bound(r, budget, cpsat):
                    self._open.add(r)
                    if self.turn < r + 1 and r - 1 in self.at_most:
                        self.prove_turn(r + 1, budget)  # two rounds from the bound before, at least asked
                    break
                self._open.discard(r)
            if self.turn < r + 1 and self.prove_turn(r + 1, budget).verdict is not TurnVerdict.IMPOSSIBLE:
                break
        return min(self.turn, by_turn)

    def prove_turn(self, turn: int, budget: Budget) -> TurnProof:
        """Turn `turn` proved impossible from the last potential bound before it (`ScheduleProver._check_from_cut`),
        or unknown. Never "possible": a free state after the bound need not be reachable."""
        started = time.perf_counter(), time.process_time()
        prover = self.prover
        verdict = TurnVerdict.UNKNOWN
        cut = max((r for r in self.at_most if r < turn), default=0)
        if cut > 0 and budget.can_start():
            prover._unroll(turn)
            result = prover._check_from_cut(cut, turn, budget, own_context=True)
            self._timed(f"turn {turn} from the bound after round {cut}", result, started)
            if result == z3.unsat:
                verdict = TurnVerdict.IMPOSSIBLE
                prover.proved_upto = max(prover.proved_upto, turn)
        proof = TurnProof(turn, verdict, NAME, time.perf_counter() - started[0], tuple(prover.lemma_names()),
                          concrete=False)
        if verdict is TurnVerdict.IMPOSSIBLE and turn > self.turn:
            self.turn = turn
            self.proof = replace(proof, seconds=sum(step.seconds for step in self.steps))
        return proof
