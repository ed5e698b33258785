"""The Company's abstraction decided turn by turn: one-shot solvers, proved round facts, Reshuffle schedules.

`ScheduleProver` implements `doubtspec.solver.verdict.ProofMethod` for a Company target (Star or
Profit Victory) over the counter abstraction's `RoundSystem`. It asks the same question as
`AbstractionProver` ("is the target reachable by the end of round k?") but in three ways that Z3
settles far sooner on this system:

1. **One-shot solvers.** Each check builds a fresh `QF_LIA` solver over rounds 0..k (the round's
   formula is copied per round by substitution, as in `RoundBmc`). Z3 then preprocesses the whole
   problem (its QF_LIA tactic), which an incremental solver checked under assumptions does not:
   on the shipped set turn 4 of the stars question takes 1.4 s of CPU one-shot and more than 300 s
   incrementally with the seed that settles it in the prover's restarts.
2. **Round facts.** Before turn k is checked, small facts about round k are proved, each by an
   UNSAT check over the k rounds (so each holds in every run of the abstraction, hence of the game):
   whether a Reshuffle Sequence can or must run in round k, whether a mid-play reshuffle can, and
   the most stars the Company can hold after round k (for the Profit question: the most Profit,
   one of a few steps above the round before). Proved facts are asserted in every later
   check; they are cuts that Z3 does not find alone (after three rounds at most one star: 2 s).
   A fact whose check is not UNSAT is simply not used. Turn k-1 proved impossible is a fact too.
3. **Reshuffle schedules.** A target still open after a short direct check is split into cases:
   which rounds run a Reshuffle Sequence (the target latches only in a Sequence, so round k runs
   one) and, for the stars question, which earlier Sequences scored a star. The cases cover every
   run, so the turn is impossible when every case is UNSAT. Most cases are refuted in a fraction of
   a second by the deck count; the open ones are retried with doubling time slices and new seeds.

Every verdict is about the abstraction: "impossible" is the game's, "possible" only a possibility
(`concrete=False`), as for the other abstraction provers. Nothing here adds a formula that is not
proved first, so soundness rests on the abstraction alone (checked against the engine in
`tests/test_solver_abstraction_company.py`).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import z3

from doubtspec.solver.abstraction import cpsat, messaging_caps, proof_cache
from doubtspec.solver.abstraction.company import STAR, CompanyLayout
from doubtspec.solver.abstraction.cube_blocking import Blocking, CubeBlocker, CubeTerms
from doubtspec.solver.abstraction.loops import LoopBounds, prove_loop_bounds
from doubtspec.solver.abstraction.messaging import MessagingBounds
from doubtspec.solver.abstraction.system import Lemma, RoundSystem, State, StepTemplate, proved_lemmas, template_of
from doubtspec.solver.verdict import Budget, OutOfTime, TurnProof, TurnVerdict

if TYPE_CHECKING:
    from doubtspec.solver.abstraction.profit_cut import ProfitCut

NAME = "abstraction-schedules"
DIRECT_SLICE_S = 3.0
"""The first, whole-turn check's time slice (most turns that are easy are settled within it)."""
FACT_SLICE_S = 4.0
"""Each round fact's check: a fact not proved within this is left out (it only speeds checks up)."""
FACT_RLIMIT = 60_000_000
"""Each round fact's check of the stars question, in Z3's own resource count (`rlimit`) instead of `FACT_SLICE_S`
(the Profit question keeps the slice: its facts were not measured in these units): the same facts are proved
whatever the load of the machine (under a load of 5 a 4-second slice gave Z3 1.6 CPU-seconds and missed "no
mid-play reshuffle in round 3", which it proves in 8 million units). On the shipped set the facts proved take
0.1-38 million units, except "at most 0 stars after round 2" asked turn by turn: 50 million (30 in the star cut's
order, `cut_stars`). Z3 counts about 15-20 million a CPU-second there. `FACT_RLIMIT_WALL_S` stays as a cap."""
FACT_RLIMIT_WALL_S = 30.0
SEQUENCE_RLIMIT = 4_000_000
"""`FACT_RLIMIT` for the two Sequence facts of a round ("a Sequence must run", "none can"): those proved on the
shipped set and `tests/data/large.toml` take at most 2 million units (0.4-0.5 in round 1, 1.4-1.9 in round 2), and
from round 3 on both are undecided (two of them cost 7 CPU-seconds of the star cut with `FACT_RLIMIT`, 1.9-2.4
with 10 million)."""
NUMBERED_FOR_CPSAT = False
"""Whether CP-SAT's checks keep each round's numbered part (`RoundSystem.at_round`, the Movement's removals)."""
MID_RETRY_SLICE_S = 20.0
"""A "no mid-play reshuffle in round r" fact left open by its first slice is asked once more with this slice
before CP-SAT is asked about rounds up to r: without it CP-SAT must take the loops' box, where the round-3 star
bound on the shipped set stays open (its first slice is wall time, and under load it was missed)."""
CASE_SLICE_S = 1.0
"""The first time slice of each case of a split; each retry of the open cases doubles it."""
PROFIT_STEPS = (10, 20, 40)
"""Profit a round may add, tried in order as a round fact for the Profit question (Set-Up has none)."""
LEMMA_SHARE = 0.2
BLOCKING_SHARE = 0.6
"""Of the time left, what a star fact the direct check could not prove may spend on blocking cubes."""
BLOCKING_MIN_S = 240.0
"""Cube blocking is tried only with this much time left: on the shipped set its one open fact (no star in
round 3) was not settled in 220 s, so a shorter question keeps its time for the case splits."""
SEED_STEP = 7919
"""How Z3's seed moves between checks bounded by wall time (a retry of an open check then searches elsewhere)."""
FACT_SEED = 0
"""Z3's seed for every check bounded by its resource count (`FACT_RLIMIT`, `SEQUENCE_RLIMIT`, `_check_from_cut`):
one fixed seed, so that whether such a check proves its fact does not hang on how many checks bounded by wall time
ran before it (a slice cut short by load used to move every later seed). Z3's answer still depends on the order
its terms were made in: "at most 0 stars after round 2" on the shipped set took 13-66 million units over 11 seeds,
and 9-161 million over 6 seeds in a context of its own; a context of its own per check (`qf_lia_solver`) costs
0.6-1.1 s on a question of 6-8 s and was not taken (docs/solver-measurements.md, "Round facts and Z3's seed")."""
CPSAT_TRIES: tuple[tuple[int, float, int], ...] = ((0, 15.0, 2), (1, 30.0, 2))
"""A star or Profit bound that Z3 leaves open goes to CP-SAT (`cpsat`): each try is a seed and a limit on its
deterministic time (about half a CPU-second a unit; the load of the machine does not change where a try ends).
Its time varies with the seed far more than with the limit: on the round-3 star bound of the shipped set seeds
0 and 1 take 8-21 CPU-seconds (8.4 units for seed 0), seeds 7919 and 15838 take 31 and 102, where Z3 made no
progress in 45 minutes. Fixed seeds make the answer the same on every run. The third figure is CP-SAT's
linearization level."""
REFINED_TRIES: tuple[tuple[int, float, int], ...] = ((0, 40.0, 1),)
"""The star cut's CP-SAT ask for a round's bound, after the refinement (see `ScheduleProver._refine`). With the
round relation's draw and seeding rules the shipped set's round-3 bound is no longer proved by seed 0 at level 2
within 60 units (it was in 8.4 before them; 62 CPU-seconds with the refinement); seed 0 at linearization level 1
with the refinement proves it in 11 CPU-seconds (docs/solver-measurements.md)."""
CAPPED_TRIES: tuple[tuple[int, float, int], ...] = ((0, 120.0, 1), (1, 160.0, 1))
"""The ask after the Messaging caps (`ScheduleProver._cap_removals`) when `REFINED_TRIES` did not prove the bound:
the large file's round-3 bound is proved with seed 0 at level 1 in 42 CPU-seconds and with seed 1 in 121, where
seed 0 at level 2 was undecided after 200 units."""
CAPS_FIRST_MIN_S = 15.0
"""The time left from which the star cut proves the Messaging caps before its first CP-SAT ask, when a cap may
close a Zone (`ScheduleProver._caps_first`), instead of after a refined ask without them. On the large file that
ask only finds a run that removes a Middle Age Victim in round 3 (seed 0 at level 1: 8.7 units, 8-15 CPU-seconds
with the translation and Z3's look at the run) before the caps and the capped ask (27.7 units) prove the bound;
with the caps first its proof needs the caps (3-5 CPU-seconds in a Z3 context of their own), the box (2.5-3.6),
the translation (0.8-1) and the capped ask's search (22-40, by machine). On the shipped set the capped ask is the
shorter too (4.5 units against 7.1): caps first cost it about what they save (23.7-25.0 s against 24.2 for
`--by-turn 12 --timeout 60`). So the caps go first whenever the caps, the box and the translation (about 8 s) leave
a search some time; below this only caps kept from an earlier question are taken (docs/solver-measurements.md,
"The large file's `--by-turn 12` within 60 s")."""
REFINED_WALL_CAP_S = 600.0
"""The most wall time the refined ask may take (the budget bounds it too)."""
CPSAT_ASKS = 2
"""How many times CP-SAT is asked for one open bound (each ask runs `CPSAT_TRIES` as far as the budget allows)."""
CPSAT_WALL_CAP_S = 120.0
"""The most wall time one CP-SAT try may take (the budget bounds it too)."""
CPSAT_MIN_S = 40.0
"""CP-SAT is asked only with this much of the budget left (a shorter pass leaves the fact to a later one: on
the shipped set the question's first, short pass would otherwise spend its time on a fact it cannot finish)."""
BOX_LEMMA = "unknowns-bounded"
"""The name, among the lemmas an answer used, of `cpsat.prove_box`'s bound (what makes CP-SAT's "no" a proof)."""
LOOP_LEMMA = "looping-plays-shrink"
"""The name, among the lemmas an answer used, of the proved shrink of looping plays (`loops`): CP-SAT was given
rounds with a mid-play reshuffle, each with at most `loops.LOOP_BOUND` plays of every looping class."""
CUT_CPSAT_MIN_S = 12.0
"""In the star cut (`ScheduleProver.cut_stars`), CP-SAT is asked with this much of the cut's budget left (instead of
`CPSAT_MIN_S`): the cut asks it for the one bound the turns wait for, as soon as Z3 leaves it open, so a short
question can afford it (the shipped set's round-3 bound: the box about 3-5 CPU-seconds, CP-SAT 8-21)."""
LOOP_BOX_CAP_S = 120.0
"""Each check of the box with mid-play reshuffles allowed (and the looping plays bounded), split into four cases
(`cpsat.round_cases`), within this: 31 CPU-seconds in all on the shipped set (44 in one check), against about 3
for the box without mid-play reshuffles."""

LOOP_BOX_CHUNKS = 8
"""Each of those checks split into this many parts (`cpsat.prove_box`'s `chunks`): on the shipped set the two cases
with a mid-play reshuffle took 12.9 CPU-seconds instead of 38.5 (the two without one, 5.1 more, are asked only when
the box without mid-play reshuffles is not proved)."""


@dataclass(frozen=True, slots=True)
class RoundFact:
    """A formula over the unrolling proved to hold in every run of the abstraction (an UNSAT check)."""

    round: int
    formula: z3.BoolRef
    text: str


@dataclass(slots=True)
class Case:
    """One case of a split: its constraints and what it says, with its time slice so far."""

    constraints: list[z3.BoolRef]
    text: str
    slice_s: float = CASE_SLICE_S


def sequence_at(round_number: int) -> z3.BoolRef:
    """The round's "a Reshuffle Sequence runs" unknown (named by `CompanyAbstraction.step` via `Fresh`)."""
    return z3.Bool(f"sequence@{round_number}")


def mid_reshuffle_at(round_number: int) -> z3.BoolRef:
    return z3.Bool(f"midshuffle@{round_number}")


def qf_lia_solver(formulas: Sequence[z3.BoolRef], own_context: bool = False) -> z3.Solver:
    """A QF_LIA solver holding `formulas`. `own_context`: in a Z3 context of its own, so that its answer within a
    resource limit depends on the formulas alone, not on the terms the shared context already holds (the Profit
    cut's checks: see `profit_cut.ProfitCut._z3`)."""
    if not own_context:
        solver = z3.SolverFor("QF_LIA")
        solver.add(*formulas)
        return solver
    context = z3.Context()
    solver = z3.SolverFor("QF_LIA", ctx=context)
    solver.add(*[formula.translate(context) for formula in formulas])
    return solver


@dataclass(slots=True)
class ScheduleProver:
    """Decides "target reached by turn k?" on the Company's abstraction; only "impossible" is a game fact."""

    system: RoundSystem
    target: str
    """`company.STAR` or `company.PROFIT` (which latch the system's target reads)."""
    candidates: Sequence[Lemma] = ()
    cube_terms: CubeTerms | None = None
    """What blocked cubes may bound (`CompanyLayout.cube_terms`); None: star facts are proved by direct checks only."""
    name: str = NAME
    lemmas: list[Lemma] = field(default_factory=list)
    rejected: list[tuple[str, str]] = field(default_factory=list)
    lemma_seconds: float = 0.0
    facts: list[RoundFact] = field(default_factory=list)
    proved_upto: int = 0
    """The last turn this prover proved impossible."""
    checks: int = 0
    """Solver calls made (facts, direct checks and cases)."""
    model: z3.ModelRef | None = None
    """The abstraction's run behind the last "possible"."""
    _states: list[dict[str, z3.ArithRef]] = field(default_factory=list)
    _rounds: list[list[z3.BoolRef]] = field(default_factory=list)
    _template: StepTemplate | None = None
    _prepared: bool = False
    _seed: int = 0
    _facts_for: set[int] = field(default_factory=set)
    _stars_at_most: dict[int, int] = field(default_factory=dict)
    _profit_at_most: dict[int, int] = field(default_factory=lambda: {0: 0})
    """Round to the most stars proved possible after it (only for proved bounds)."""
    _blocker: CubeBlocker | None = None
    _bound_open: set[int] = field(default_factory=set)
    """Rounds whose star (or Profit) bound is not proved yet: a later pass with more time tries CP-SAT again."""
    _refuted: set[tuple[int, int]] = field(default_factory=set)
    """(round, bound) pairs of star or Profit bounds a run of the abstraction breaks: never asked again."""
    _mid_retried: set[int] = field(default_factory=set)
    """Rounds whose "no mid-play reshuffle" fact was asked a second time (`MID_RETRY_SLICE_S`)."""
    _cpsat_asked: dict[int, int] = field(default_factory=dict)
    """Round to how many times CP-SAT was asked for its open bound (at most `CPSAT_ASKS`: a first ask late in a
    short pass may be cut off by the pass's end, so a later pass asks once more)."""
    _box: bool | None = None
    """Whether `cpsat.prove_box` holds for this system (None: not asked yet)."""
    used_box: bool = False
    """Whether a fact rests on CP-SAT (and so on the box lemma)."""
    layout: CompanyLayout | None = None
    """The card file's classes, for the shrink of looping plays (None: CP-SAT only for rounds proved free of
    mid-play reshuffles)."""
    _loops: LoopBounds | None = None
    _loops_asked: bool = False
    _loop_box: bool | None = None
    used_loops: bool = False
    """Whether a fact rests on CP-SAT over rounds with a mid-play reshuffle (and so on the shrink of loops)."""
    _stars_proved: set[int] = field(default_factory=set)
    """Rounds whose entry in `_stars_at_most` is a proved bound (the others are the round before's plus one)."""
    profit_cut: ProfitCut | None = None
    """The Profit cut (`cut_profit`), once asked."""
    removals: MessagingBounds | None = None
    """The Movement's removal bounds the system's numbered rounds assert (None: the star cut adds no removal facts)."""
    _closed_facts: set[tuple[int, int]] = field(default_factory=set)
    """(round, Zone) pairs whose "no Victim removed" fact is added (`_removal_facts`)."""
    _caps_asked: bool = False
    _refined: bool = False
    used_caps: bool = False
    """Whether a fact rests on Messaging caps proved on the Movement's abstraction (`messaging_caps`)."""

    # --- the unrolling ---

    def _prepare(self, budget: Budget) -> bool:
        """Prove the candidate lemmas once and build the round template; False if out of time."""
        if not self._prepared:
            started = time.perf_counter()
            proved, rejected = proved_lemmas(self.system, self.candidates, budget.share(LEMMA_SHARE))
            self.lemmas = proved
            self.rejected = [(lemma.name, "counterexample" if verdict is TurnVerdict.POSSIBLE else "undecided")
                             for lemma, verdict in rejected]
            self.lemma_seconds = time.perf_counter() - started
            self.system = self.system.with_lemmas(proved)
            self._prepared = True
        if self._template is None:
            try:
                self._template = template_of(self.system, budget)
            except OutOfTime:
                return False
            first = self.system.state("@0")
            self._states = [first]
            self._rounds = [[self.system.init(first), self.system.invariant(first)]]
        return True

    def _unroll(self, rounds: int) -> None:
        assert self._template is not None
        while len(self._states) <= rounds:
            k = len(self._states)
            post = self.system.state(f"@{k}")
            self._rounds.append([self._template.instance(self._states[-1], post, f"@{k}", z3.IntVal(k)),
                                 self.system.numbered(self._states[-1], k, f"@{k}"), self.system.invariant(post)])
            self._states.append(post)

    def state(self, round_number: int) -> State:
        return self._states[round_number]

    def formulas(self, rounds: int, numbered: bool = True) -> list[z3.BoolRef]:
        """Rounds 0..`rounds` of the abstraction and every fact proved about them (what each check asserts).

        `numbered=False` leaves out each round's `RoundSystem.at_round` part (the Movement's removals bounded
        per round), which only admits more runs: CP-SAT is asked without it (see `_prove_by_cpsat`)."""
        self._unroll(rounds)
        listed = [formula for k in range(rounds + 1) for formula in self.round_formulas(k, numbered)]
        return listed + [fact.formula for fact in self.facts if fact.round <= rounds]

    def round_formulas(self, k: int, numbered: bool = True) -> list[z3.BoolRef]:
        """Round `k`'s own formulas (unrolled by the caller), without its numbered part (`RoundSystem.at_round`,
        the second of a round's three) when `numbered` is False."""
        formulas = self._rounds[k]
        return [formula for i, formula in enumerate(formulas) if numbered or i != 1 or len(formulas) != 3]

    def _check(self, rounds: int, extra: Sequence[z3.BoolRef], budget: Budget, cap_s: float,
               rlimit: int | None = None) -> z3.CheckSatResult:
        """One fresh QF_LIA solver over rounds 0..`rounds`, the facts proved for them, and `extra` (within `cap_s`,
        and `rlimit` of Z3's resource count, with `FACT_SEED`, when given)."""
        solver = qf_lia_solver([*self.formulas(rounds), *extra])
        solver.set("timeout", budget.z3_ms(cap_s))
        if rlimit is not None:
            solver.set("random_seed", FACT_SEED)
            solver.set("rlimit", rlimit)
        else:
            solver.set("random_seed", self._seed)
            self._seed = (self._seed + SEED_STEP) % 100_003
        self.checks += 1
        result = solver.check()
        self.model = solver.model() if result == z3.sat else None
        return result

    # --- round facts ---

    def _prove(self, rounds: int, formula: z3.BoolRef, text: str, budget: Budget, rlimit: int | None = None) -> bool:
        """Add `formula` as a fact if its negation is UNSAT over `rounds` rounds (within a short slice, or `rlimit`
        of Z3's resource count for the stars question)."""
        return bool(self._try_fact(rounds, formula, text, budget, rlimit=rlimit) == z3.unsat)

    def _try_fact(self, rounds: int, formula: z3.BoolRef, text: str, budget: Budget,
                  slice_s: float = FACT_SLICE_S, rlimit: int | None = None) -> z3.CheckSatResult:
        """`_prove`, with Z3's answer on the negation: unsat (proved, added), sat (refuted: a run breaks it) or
        unknown."""
        if not budget.can_start():
            return z3.unknown
        if self.target == STAR and slice_s == FACT_SLICE_S:
            result = self._check(rounds, [z3.Not(formula)], budget, FACT_RLIMIT_WALL_S, rlimit or FACT_RLIMIT)
        else:
            result = self._check(rounds, [z3.Not(formula)], budget, slice_s)
        if result == z3.unsat:
            self.facts.append(RoundFact(rounds, formula, text))
        return result

    def _learn_facts(self, k: int, budget: Budget, bound_needs_sequence: bool = False) -> None:
        """Prove what Z3 can prove cheaply about round `k` (once per round); CP-SAT is asked later, by `_settle`,
        only for a bound that a turn turns out to need.

        `bound_needs_sequence` (the star cut): Z3 is asked for the star bound only when one of the round's Sequence
        facts is proved; otherwise the bound is left open for CP-SAT at once. On the shipped set and
        `tests/data/large.toml` round 3's bound is then undecided at `FACT_RLIMIT` (about 3 CPU-seconds each) and
        proved by CP-SAT only, while rounds 1 and 2, whose Sequence facts Z3 proves, get their bounds from Z3.
        Skipping a check only leaves a bound open; it never adds a fact."""
        if k in self._facts_for:
            return
        self._facts_for.add(k)
        sequence = sequence_at(k)
        # "A Sequence must run" first: refuting it is cheap when it is false (round 1), while refuting "no Sequence"
        # in a round that must run one took 38 million units in round 2 (a third of that fact's time).
        limit = SEQUENCE_RLIMIT if self.target == STAR else None
        settled = (self._prove(k, sequence, f"a Reshuffle Sequence in round {k}", budget, limit)
                   or self._prove(k, z3.Not(sequence), f"no Reshuffle Sequence in round {k}", budget, limit))
        if self._mid_reshuffle() is not None and not self._has_fact(z3.Not(mid_reshuffle_at(k))):
            self._prove(k, z3.Not(mid_reshuffle_at(k)), f"no mid-play reshuffle in round {k}", budget)
        if k in self._stars_proved:  # the star cut may have proved it already
            return
        if (bound_needs_sequence and not settled and self.target == STAR
                and k - 1 in self._stars_proved):
            # an undecided bound, as if Z3 had been asked and left it open (nothing is concluded from it)
            self._stars_at_most[k] = self._stars_at_most[k - 1] + 1
            self._bound_open.add(k)
            return
        self._bound_fact(k, budget, retry=False)

    def _bound_fact(self, k: int, budget: Budget, retry: bool, cpsat_min_s: float = CPSAT_MIN_S,
                    blocking: bool = True, tries: tuple[tuple[int, float, int], ...] = CPSAT_TRIES,
                    refined: bool = False) -> None:
        """The most stars (or Profit) after round `k`: proved by Z3; a retry (`_cpsat_open_bounds`) asks CP-SAT,
        else (stars) cube blocking.

        A bound left undecided stays in `_bound_open`; a bound refuted (a run of the abstraction breaks it, found
        by Z3 or by CP-SAT and confirmed by Z3) is never asked again, so a later turn's CP-SAT time goes to the
        bounds that may still hold (on the shipped set "no star after round 4" is broken by a run: the game has a
        first star at turn 4).
        """
        def prove(formula: z3.BoolRef, text: str) -> z3.CheckSatResult:
            if retry and refined:
                # More stars after round k than after round k-1 need a Sequence in round k (the only place a star
                # is scored): implied by the negated bound, and a literal CP-SAT branches on far sooner.
                return self._prove_by_cpsat(k, formula, text, budget, cpsat_min_s, tries, [sequence_at(k)],
                                            REFINED_WALL_CAP_S)
            if retry:
                return self._prove_by_cpsat(k, formula, text, budget, cpsat_min_s, tries)
            return self._try_fact(k, formula, text, budget)

        if self.target == STAR:
            # A round adds at most one star, so after round k at most one more than after round k-1.
            stars = self._stars_at_most.get(k - 1, k - 1)
            bound = self.state(k)["stars"] <= stars
            text = f"at most {stars} stars after round {k}"
            result = prove(bound, text)
            # Cube blocking (minutes, where it works at all) only after CP-SAT has failed.
            if result == z3.unknown and retry and blocking and self._prove_by_blocking(k, bound, text, budget):
                result = z3.unsat
            if result == z3.unsat:
                self._stars_at_most[k] = stars
                self._stars_proved.add(k)
                self._bound_open.discard(k)
            else:
                self._stars_at_most[k] = stars + 1
                if result == z3.sat:
                    self._refuted.add((k, stars))
                    self._bound_open.discard(k)
                else:
                    self._bound_open.add(k)
            return
        # Profit grows by a bounded amount per round; the smallest of a few steps that can be proved.
        profit = self._profit_at_most.get(k - 1)
        if profit is None:
            return
        undecided = False
        for step in PROFIT_STEPS:
            if profit + step >= self._profit_at_most.get(k, profit + step + 1):
                break  # no tighter than what is proved already
            if (k, profit + step) in self._refuted:
                continue
            result = prove(self.state(k)["profit"] <= profit + step, f"at most {profit + step} Profit after round {k}")
            if result == z3.unsat:
                self._profit_at_most[k] = profit + step
                self._bound_open.discard(k)
                return
            if result == z3.sat:
                self._refuted.add((k, profit + step))
            else:
                undecided = True
        if undecided:
            self._bound_open.add(k)
        else:
            self._bound_open.discard(k)

    def _cpsat_open_bounds(self, k: int, budget: Budget) -> bool:
        """Ask CP-SAT, once each, for the bounds of rounds before `k` that Z3 left open; whether one was proved.

        Called when turn `k` is still open after its direct check and a first sweep of its cases, so CP-SAT (tens
        of seconds) runs as soon as a bound is what the turn waits for, and never for a turn Z3 settles alone (on
        `tests/data/large.toml` turn 3 takes Z3 about 12 s, while its round-3 star bound stays open for CP-SAT).
        """
        for r in sorted(self._bound_open):
            if r < k and budget.left() >= CPSAT_MIN_S and self._cpsat_asked.get(r, 0) < CPSAT_ASKS:
                self._cpsat_asked[r] = self._cpsat_asked.get(r, 0) + 1
                before = len(self.facts)
                self._bound_fact(r, budget, retry=True)
                if len(self.facts) > before:
                    # The turn's cases are tried again with it first: a later round's bound may cost far more
                    # (round 4's on the shipped set goes through the loops' box, about 50 CPU-seconds, before
                    # CP-SAT) and turn 5 needs only round 3's.
                    return True
        return False

    def _mid_reshuffle(self) -> z3.BoolRef | None:
        """The round template's "a mid-play reshuffle happens" unknown (None: the card file has no draw effect)."""
        assert self._template is not None
        return next((term for term in self._template.fresh if term.decl().name() == "midshuffle@step"), None)

    def _cpsat_allowed(self, k: int, budget: Budget) -> bool | LoopBounds:
        """Whether CP-SAT's answer over rounds 0..k is the formula's: the box is proved and covers rounds without
        a mid-play reshuffle, and each of rounds 1..k is proved to have none; or else the shrink of looping plays
        is proved and the box with it covers every round (returned: its bound must be asserted in every round)."""
        box = cpsat.Box()
        if k > box.max_rounds:
            return False
        if self._mid_reshuffle() is not None:
            for r in range(1, k + 1):
                free = z3.Not(mid_reshuffle_at(r))
                if not any(fact.formula.eq(free) for fact in self.facts) and r not in self._mid_retried:
                    self._mid_retried.add(r)
                    self._try_fact(r, free, f"no mid-play reshuffle in round {r}", budget, MID_RETRY_SLICE_S)
                if not any(fact.formula.eq(free) for fact in self.facts):
                    return self._loop_box_allowed(budget)
        if self._box is None:
            self._box = self._prove_box(box, budget)
        return self._box

    def _prove_box(self, box: cpsat.Box, budget: Budget, cap_s: float = FACT_SLICE_S * 5,
                   stored_only: bool = False) -> bool:
        """`cpsat.prove_box` for this system without mid-play reshuffles, or its answer kept from an earlier question
        on the same formulas (`proof_cache`: it depends only on the card file, the lemmas and the round template).
        `stored_only`: no check is made (False unless stored)."""
        assert self._template is not None
        template, mid = self._template, self._mid_reshuffle()
        problem = proof_cache.key_when_on("box", [template.formula, self.system.invariant(template.pre),
                                          self.system.init(self.system.state("@box0")),
                                          *([] if mid is None else [mid])], box)
        if proof_cache.known_unsat(problem):
            return True
        if stored_only:
            return False
        proved = cpsat.prove_box(self.system, template, box, budget, mid, cap_s=cap_s)
        if proved:
            proof_cache.record_unsat(problem, f"the box {box} over rounds without a mid-play reshuffle")
        return proved

    def _loop_box_allowed(self, budget: Budget, stored_only: bool = False) -> bool | LoopBounds:
        """The shrink of looping plays and the box over rounds with mid-play reshuffles, proved once (see `loops`).
        With the box without mid-play reshuffles proved, only the cases with one are checked again. The box's
        answer is kept from one question to the next (`proof_cache`: about 18 CPU-seconds on the shipped set, the
        shrink before it about 2); `stored_only`: its check is not made (False unless stored, and asked again by a
        later call that may make it)."""
        if self.layout is None or self._template is None:
            return False
        if not self._loops_asked:
            self._loops_asked = True
            self._loops = prove_loop_bounds(self.system, self._template, self.layout, budget)
        if self._loops is None:
            return False
        if self._loop_box is None:
            template, box, extra = self._template, cpsat.Box(), self._loops.at("@step")
            cases = cpsat.round_cases(template)
            mid = self._mid_reshuffle()
            if self._box is True and mid is not None:
                # The box proved without mid-play reshuffles covers the cases without one: each such case's check
                # is that box's step check with more formulas asserted (the looping plays' bound, the case).
                cases = [case for case in cases if any(term.eq(mid) for term in case)]
            problem = proof_cache.key_when_on("loop-box", [template.formula, self.system.invariant(template.pre),
                                                           self.system.init(self.system.state("@box0")), *extra,
                                                           *[z3.And(list(case)) for case in cases]],
                                              box, len(extra), len(cases))
            if proof_cache.known_unsat(problem):
                self._loop_box = True
            elif stored_only:
                return False
            else:
                self._loop_box = cpsat.prove_box(self.system, template, box, budget, None, cap_s=LOOP_BOX_CAP_S,
                                                 extra=extra, cases=cases, chunks=LOOP_BOX_CHUNKS)
                if self._loop_box:
                    proof_cache.record_unsat(problem, f"the box {box} over every round, the looping plays bounded")
        return self._loops if self._loop_box else False

    def _prove_by_cpsat(self, k: int, formula: z3.BoolRef, text: str, budget: Budget,
                        min_s: float = CPSAT_MIN_S,
                        tries: tuple[tuple[int, float, int], ...] = CPSAT_TRIES,
                        implied: Sequence[z3.BoolRef] = (), cap_s: float = CPSAT_WALL_CAP_S) -> z3.CheckSatResult:
        """Add `formula` (over rounds 0..`k`) as a fact if CP-SAT finds its negation infeasible (see `cpsat`): unsat;
        sat if CP-SAT finds a run that breaks it (confirmed by Z3); unknown otherwise. Asked only with `min_s` of the
        budget left. `implied`: formulas that the negation and the rounds imply (CP-SAT is told them outright), each
        try within `cap_s` of wall time."""
        if budget.left() < min_s:
            return z3.unknown
        allowed = self._cpsat_allowed(k, budget)
        if allowed is False:
            return z3.unknown
        bounded = [c for r in range(1, k + 1) for c in allowed.at(f"@{r}")] if isinstance(allowed, LoopBounds) else []
        box, variables = cpsat.Box(), frozenset(self.system.variables)
        asked = [*self.formulas(k, numbered=NUMBERED_FOR_CPSAT), *bounded, z3.Not(formula), *implied]
        problem = proof_cache.key_when_on("cpsat", asked, box, sorted(variables))
        if proof_cache.known_unsat(problem):
            # the same formulas were refuted by CP-SAT in an earlier question (with the same box and code)
            self.facts.append(RoundFact(k, formula, f"{text} (CP-SAT, kept from an earlier question)"))
            self.used_box = True
            self.used_loops = self.used_loops or bool(bounded)
            return z3.unsat
        spent = 0.0
        for attempt, (seed, work_limit, linearization) in enumerate(tries, start=1):
            if attempt > 1 and budget.left() < min_s:
                return z3.unknown  # a cut-short second seed rarely finishes: the time goes to the other checks
            try:
                # Without the per-round removal bounds: with them CP-SAT did not settle the shipped set's round-3
                # star bound in its two tries (12.5 s without them); leaving them out only admits more runs.
                result = cpsat.decide(asked, lambda name: box.domain(name, variables),
                                      budget, cap_s, seed=seed, work_limit=work_limit,
                                      linearization=linearization)
            except cpsat.Untranslatable:
                return z3.unknown
            self.checks += 1
            spent += result.seconds
            if result.answer == z3.unsat:
                proof_cache.record_unsat(problem, f"{text} (CP-SAT)")
                self.facts.append(RoundFact(k, formula, f"{text} (CP-SAT, {spent:.1f} s, seed try {attempt})"))
                self.used_box = True
                self.used_loops = self.used_loops or bool(bounded)
                return z3.unsat
            if result.answer == z3.sat:
                # A run of rounds 0..k with the looping plays bounded is a run of the abstraction (a fortiori).
                return z3.sat
        return z3.unknown

    def _prove_by_blocking(self, k: int, formula: z3.BoolRef, text: str, budget: Budget) -> bool:
        """Add `formula` (over the state after round `k`) as a fact if `CubeBlocker` proves it, one round at a
        time; every cube it blocks on the way is a proved fact of round k-1 and is kept as one either way."""
        if self.cube_terms is None or k < 2 or budget.left() < BLOCKING_MIN_S:
            return False
        if self._blocker is None:
            self._blocker = CubeBlocker(reach=self.formulas, step=lambda r: list(self._rounds[r]),
                                        known=self._known, state=self.state, terms=self.cube_terms)
        before = len(self._blocker.blocked)
        verdict = self._blocker.prove(k, formula, budget.share(BLOCKING_SHARE))
        for cube in self._blocker.blocked[before:]:
            self.facts.append(RoundFact(cube.round, cube.fact, f"no run reaches {cube} after round {cube.round}"))
        self.checks += self._blocker.checks
        self._blocker.checks = 0
        if verdict is Blocking.PROVED:
            self.facts.append(RoundFact(k, formula, f"{text} (by {len(self._blocker.blocked)} blocked cubes)"))
            return True
        return False

    def _known(self, round_number: int) -> list[z3.BoolRef]:
        """What is proved about the state after `round_number`: the lemmas and the facts of that round."""
        return [self.system.invariant(self.state(round_number))] + [
            fact.formula for fact in self.facts if fact.round == round_number]

    # --- the star cut ---

    def cut_stars(self, by_turn: int, stars_to_win: int, budget: Budget, cpsat: bool = True) -> int:
        """Prove the most stars after rounds 1, 2, ... as far as cheap proofs go, and return the last turn up to
        `by_turn` those bounds put the Star Victory out of reach of (0: none), without proving the turns themselves
        (`prove_from_cut` then proves that turn from the last bound).

        A turn-by-turn proof pays for round facts of every turn (on the shipped set the Sequence, mid-play
        reshuffle and star facts of rounds 3-5 are undecided after their 4-second slices, about 45 s of a 65-second
        proof of turns 1-5), while what turn 5 rests on is one bound: at most 0 stars after round 3 (CP-SAT). So
        round by round: first whether the round is free of mid-play reshuffles (a round that may have one ends the
        cut: CP-SAT would need the loops' box, tens of CPU-seconds, and Z3 left every bound of such rounds open on
        both card files), then the round's facts as a turn would learn them (the Sequence facts of round 2 are
        what lets Z3 prove its star bound, and CP-SAT the bound of round 3), then at once CP-SAT when Z3 left the
        star bound open (no cube blocking); a round whose bound is refuted or left open ends the cut too. A bound
        of b stars after round r puts turns up to r + stars_to_win - b - 1 out of reach (a round runs at most one
        Sequence, which scores at most one star); that is only how the turn to prove is chosen: its proof is
        Z3's, from the bound. `cpsat` False: Z3 alone (a short question's first pass, before the star hunt); a later
        call goes on from the first round left open."""
        if self.target != STAR or not budget.can_start() or not self._prepare(budget):
            return 0
        out_of_reach = 0
        for r in range(1, by_turn + 1):
            if out_of_reach >= by_turn or not budget.can_start():
                break
            self._unroll(r)
            if self._mid_reshuffle() is not None and r > 1:
                free = z3.Not(mid_reshuffle_at(r))
                if not self._has_fact(free) and not self._prove(r, free, f"no mid-play reshuffle in round {r}",
                                                                budget):
                    break
            self._learn_facts(r, budget, bound_needs_sequence=True)
            if r in self._bound_open and not cpsat:
                self._bound_from_store(r, budget)
            if r in self._bound_open and cpsat:
                self._refine(r, budget)
                if (self._caps_first(r, budget) and self._cap_removals(
                        r, budget, stored_only=self._caps_stored_only(budget))) or self.used_caps:
                    # the Messaging caps close a Zone the bound's runs could open: asked with them at once
                    self._bound_fact(r, budget, retry=True, cpsat_min_s=CUT_CPSAT_MIN_S, blocking=False,
                                     tries=CAPPED_TRIES, refined=True)
                else:
                    self._bound_fact(r, budget, retry=True, cpsat_min_s=CUT_CPSAT_MIN_S, blocking=False,
                                     tries=REFINED_TRIES, refined=True)
                if r not in self._stars_proved and self._cap_removals(r, budget):
                    # the run CP-SAT found may be one the caps refuse: the bound is asked again
                    self._refuted.discard((r, self._stars_at_most.get(r - 1, r - 1)))
                    self._bound_fact(r, budget, retry=True, cpsat_min_s=CUT_CPSAT_MIN_S, blocking=False,
                                     tries=CAPPED_TRIES, refined=True)
            if r not in self._stars_proved:
                break
            out_of_reach = max(out_of_reach, r + stars_to_win - self._stars_at_most[r] - 1)
        return min(out_of_reach, by_turn)

    def _bound_from_store(self, k: int, budget: Budget) -> bool:
        """Round `k`'s star bound taken from the proof store in the cut's pass without CP-SAT, when an earlier question
        proved it (`proof_cache`): the box stored, rounds 1..`k` proved free of mid-play reshuffles, and then the
        same refinement, stored caps and ask as the CP-SAT pass would make, with no check made (a miss leaves the
        bound open for that pass). Whether the bound was found. On a 60-second question this puts turn 5 before
        the star hunt's slice instead of after it."""
        if proof_cache.directory() is None or self.target != STAR or self._box is False:
            return False
        box = cpsat.Box()
        if self._box is None:
            if not self._prove_box(box, budget, stored_only=True):
                return False
            self._box = True
        if self._mid_reshuffle() is not None and not all(
                self._has_fact(z3.Not(mid_reshuffle_at(r))) for r in range(1, k + 1)):
            return False
        self._refine(k, budget)
        if self._caps_first(k, budget):
            self._cap_removals(k, budget, stored_only=True)
        self._bound_fact(k, budget, retry=True, cpsat_min_s=0.0, blocking=False, tries=(), refined=True)
        return k in self._stars_proved

    def _removal_facts(self, upto: int, proved_caps: bool = False) -> int:
        """Add "no Victim leaves Zone z before the Company's turn of round r" for each Zone `removals` closes in
        rounds 1..`upto` (`MessagingBounds.closed`); how many were new. Each follows from the round's numbered
        removal bound, which CP-SAT is not given (`NUMBERED_FOR_CPSAT`): as facts these equalities reach it too.
        `proved_caps`: the bounds include caps proved on the Movement's abstraction (a lemma of the answer)."""
        if self.removals is None:
            return 0
        added = 0
        self._unroll(upto)
        for r in range(1, upto + 1):
            for zone in self.removals.closed(r):
                if (r, zone) in self._closed_facts:
                    continue
                self._closed_facts.add((r, zone))
                kept = z3.Int(f"msg_{zone.key}@{r}") == self.state(r - 1)[f"victims_{zone.key}"]
                how = " (Messaging caps of the Movement's abstraction)" if proved_caps else ""
                self.facts.append(RoundFact(r, kept, f"no Victim removed from {zone.key} in round {r}{how}"))
                self.used_caps = self.used_caps or proved_caps
                added += 1
        return added

    def _refine(self, k: int, budget: Budget) -> bool:
        """Once, before the star cut asks CP-SAT for the bound of round `k`: add what every game meets and the
        round relation leaves out, as facts of rounds 0..`k` (checked against the engine in the tests):
        the Victims no Messaging can remove yet (`_removal_facts`; the caps of `_cap_removals` come next when
        `_caps_first` holds, else only if CP-SAT does not prove the bound without them) and the Market's stack
        order between rounds
        (`CompanyLayout.stack_order`). Whether anything was added. As facts
        they stay out of the round relation (inside it the stack order had slowed the shipped set's bound) and out
        of the questions that never ask CP-SAT."""
        if self._refined or self.layout is None or budget.left() < CUT_CPSAT_MIN_S:
            return False
        self._refined = True
        self._unroll(k)
        self._removal_facts(k)
        for r in range(k + 1):
            for formula in self.layout.stack_order(self.state(r)):
                self.facts.append(RoundFact(r, formula, f"the Market's stack order after round {r}"))
        return True

    def _caps_first(self, k: int, budget: Budget) -> bool:
        """Whether the star cut asks for the Messaging caps (`_cap_removals`) before its first CP-SAT ask of round
        `k`'s bound: when the caps were not asked yet and some Zone the derived bounds leave open in a round up to
        `k` is one a proved cap could close (`messaging_caps.candidates`). With less than `CAPS_FIRST_MIN_S` left
        only caps kept from an earlier question are taken (`proof_cache`: about 0.6 CPU-seconds, no check)."""
        if self.removals is None or self.layout is None or self._caps_asked:
            return False
        return bool(messaging_caps.candidates(self.removals, k))

    @staticmethod
    def _caps_stored_only(budget: Budget) -> bool:
        """Whether the star cut's CP-SAT pass takes only caps kept from an earlier question before its first ask (less
        than `CAPS_FIRST_MIN_S` left: proving them would leave the search no time) rather than proving them first."""
        return budget.left() < CAPS_FIRST_MIN_S

    def _cap_removals(self, k: int, budget: Budget, stored_only: bool = False) -> bool:
        """Before CP-SAT is asked about rounds up to `k` (once): lower the one-action Messaging figures of those
        rounds where the Movement's abstraction refutes them (`messaging_caps`), and add the removal facts that
        follow; whether any was added. `stored_only`: only caps kept from an earlier question, and if there are
        none the caps may still be asked later."""
        if self.removals is None or self._caps_asked or self.layout is None:
            return False
        caps = messaging_caps.prove_caps(self.layout.game, self.removals, k, budget, stored_only=stored_only)
        if not caps and stored_only:
            return False
        self._caps_asked = True
        if not caps:
            return False
        self.removals = self.removals.with_action_caps(caps)
        return self._removal_facts(k, proved_caps=True) > 0

    # --- the Profit cut ---

    def cut_profit(self, by_turn: int, profit_to_win: int, budget: Budget, cpsat: bool = True) -> int:
        """The Profit question's cut (`profit_cut.ProfitCut`): the potential (Profit plus what the display would
        score) bounded round by round, each bound followed by the turn after it proved from it. Returns the last
        turn up to `by_turn` proved impossible (0: none); `profit_cut_proof` is its proof. A later call goes on
        from the first round left open."""
        from doubtspec.solver.abstraction.profit_cut import ProfitCut  # it builds on this module

        if self.target == STAR:
            return 0
        if self.profit_cut is None:
            self.profit_cut = ProfitCut(self, profit_to_win)
        return self.profit_cut.run(by_turn, budget, cpsat)

    def profit_cut_proof(self) -> TurnProof | None:
        """The proof of the last turn the Profit cut proved impossible (its time: the whole cut's so far)."""
        return self.profit_cut.proof if self.profit_cut is not None else None

    def _has_fact(self, formula: z3.BoolRef) -> bool:
        return any(fact.formula.eq(formula) for fact in self.facts)

    def prove_from_cut(self, turn: int, budget: Budget) -> TurnProof:
        """Turn `turn` proved impossible from the last star bound `cut_stars` proved before it, or left unknown (one
        check, `_check_from_cut`; "possible" is never concluded from it: a free state after the cut need not be
        reachable). The turns before it need no proof of their own: the target latches."""
        started = time.perf_counter()
        verdict = TurnVerdict.UNKNOWN
        cut = max((r for r in self._stars_proved if r < turn), default=0)
        if cut > 0 and budget.can_start():
            self._unroll(turn)
            if self._check_from_cut(cut, turn, budget) == z3.unsat:
                verdict = TurnVerdict.IMPOSSIBLE
                self.proved_upto = max(self.proved_upto, turn)
        return TurnProof(turn, verdict, self.name, time.perf_counter() - started, tuple(self.lemma_names()),
                         concrete=False)

    def _check_from_cut(self, r: int, k: int, budget: Budget, own_context: bool = False) -> z3.CheckSatResult:
        """Turn `k`'s target over rounds `r`+1..`k` only, from any state after round `r` that meets the lemmas and
        the facts proved of that round (its star bound among them): a subset of the whole check's formulas, so its
        UNSAT is the whole check's. Two rounds from a free state are far smaller for Z3 than rounds 0..k (on the
        shipped set turn 5's whole check is undecided after 3 s; this one takes 0.3 CPU-seconds). `own_context`:
        in a Z3 context of its own (the Profit cut's: see `profit_cut.ProfitCut._z3`)."""
        formulas = [self.system.invariant(self.state(r)),
                    *[fact.formula for fact in self.facts if fact.round == r],
                    *[formula for formulas in self._rounds[r + 1: k + 1] for formula in formulas],
                    *[fact.formula for fact in self.facts if r < fact.round <= k],
                    self.system.target(self.state(k))]
        solver = qf_lia_solver(formulas, own_context)
        solver.set("random_seed", FACT_SEED)
        solver.set("timeout", budget.z3_ms(FACT_RLIMIT_WALL_S))
        solver.set("rlimit", FACT_RLIMIT)
        self.checks += 1
        return solver.check()

    # --- the cases ---

    def _cases(self, k: int) -> list[Case]:
        """Every Reshuffle schedule of rounds 1..k with a Sequence in round k, minus those the facts rule out."""
        fixed: dict[int, bool] = {}
        for fact in self.facts:
            for r in range(1, k + 1):
                if fact.formula.eq(sequence_at(r)):
                    fixed[r] = True
                elif fact.formula.eq(z3.Not(sequence_at(r))):
                    fixed[r] = False
        if any(f.text == f"target not reached by round {k - 1}" for f in self.facts):
            fixed[k] = True  # the target latches only in a Sequence, and it was not set before round k
        free = [r for r in range(1, k + 1) if r not in fixed]
        cases = []
        for values in itertools.product((False, True), repeat=len(free)):
            schedule = dict(fixed)
            schedule.update(zip(free, values, strict=True))
            constraints = [sequence_at(r) if schedule[r] else z3.Not(sequence_at(r)) for r in range(1, k + 1)]
            text = "".join("S" if schedule[r] else "." for r in range(1, k + 1))
            cases.append(Case(constraints, f"Sequences {text}"))
        return cases

    def _star_cases(self, k: int, case: Case) -> list[Case]:
        """`case` split on which of its Sequences before round k scored a star (one star per Sequence at most)."""
        rounds = [r for r in range(1, k) if case.text.split()[-1][r - 1] == "S"]
        split = []
        for scored in itertools.product((0, 1), repeat=len(rounds)):
            constraints = list(case.constraints)
            for r in range(1, k):
                if r in rounds:
                    step = scored[rounds.index(r)]
                    constraints.append(self.state(r)["stars"] == self.state(r - 1)["stars"] + step)
            text = ",".join(str(r) for r, s in zip(rounds, scored, strict=True) if s) or "none"
            split.append(Case(constraints, f"{case.text}, stars at {text}", case.slice_s))
        return split

    def _settle(self, k: int, budget: Budget) -> TurnVerdict:
        target = [self.system.target(self.state(k))]
        direct = self._check(k, target, budget, DIRECT_SLICE_S)
        if direct != z3.unknown:
            return TurnVerdict.IMPOSSIBLE if direct == z3.unsat else TurnVerdict.POSSIBLE
        open_cases = self._cases(k)
        split_stars = self.target == STAR
        sweeps = 0
        while open_cases and budget.can_start():
            sweeps += 1
            if sweeps == 2:
                self._cpsat_open_bounds(k, budget)
            still_open: list[Case] = []
            for case in open_cases:
                if not budget.can_start():
                    return TurnVerdict.UNKNOWN
                result = self._check(k, [*target, *case.constraints], budget, case.slice_s)
                if result == z3.sat:
                    return TurnVerdict.POSSIBLE
                if result == z3.unknown:
                    if split_stars and ", stars at" not in case.text:
                        still_open += self._star_cases(k, case)
                    else:
                        case.slice_s *= 2
                        still_open.append(case)
            open_cases = still_open
        return TurnVerdict.IMPOSSIBLE if not open_cases else TurnVerdict.UNKNOWN

    # --- the method ---

    def decide(self, by_turn: int, budget: Budget, first_turn: int = 1) -> list[TurnProof]:
        proofs: list[TurnProof] = []
        if not budget.can_start() or not self._prepare(budget):
            return proofs
        for turn in range(first_turn, by_turn + 1):
            if budget.expired():
                break
            started = time.perf_counter()
            self._unroll(turn)
            if self.proved_upto == turn - 1:
                self._add_fact(RoundFact(turn - 1, z3.Not(self.system.target(self.state(turn - 1))),
                                         f"target not reached by round {turn - 1}"))
            self._learn_facts(turn, budget)
            verdict = self._settle(turn, budget)
            if verdict is TurnVerdict.IMPOSSIBLE:
                self.proved_upto = max(self.proved_upto, turn)
            names = tuple(self.lemma_names())
            proofs.append(TurnProof(turn, verdict, self.name, time.perf_counter() - started, names, concrete=False))
            if verdict is not TurnVerdict.IMPOSSIBLE:
                break
        return proofs

    def stars_at_most(self) -> dict[int, int]:
        """Round to the most stars after it, as far as proved (a bound not proved is the round before's plus one:
        a round runs at most one Sequence, which earns at most one star). Empty for the Profit question."""
        return dict(self._stars_at_most) if self.target == STAR else {}

    def lemma_names(self) -> list[str]:
        """The lemmas the answers so far rest on: the proved candidates, and the box when CP-SAT proved a fact."""
        return ([lemma.name for lemma in self.lemmas] + ([BOX_LEMMA] if self.used_box else [])
                + ([LOOP_LEMMA] if self.used_loops else []) + ([messaging_caps.LEMMA] if self.used_caps else []))

    def _add_fact(self, fact: RoundFact) -> None:
        if not any(f.text == fact.text for f in self.facts):
            self.facts.append(fact)
