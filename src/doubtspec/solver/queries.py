"""The solver's questions ("can it happen by turn N?") and their answers, each with what was assumed.

The methods answer together, within one time budget (`doubtspec.solver.verdict.Budget`):
- the witness hunt (`doubtspec.solver.hunt`), a best-luck beam search over the engine, looks for
  a game that reaches the target by turn N; it is fast deep into the game but can only say "yes";
- the abstraction (`doubtspec.solver.abstraction`), a sound over-approximation checked by Z3 over
  integers one round per step, proves turns impossible with no caps (Company questions);
- the exact unrolling (`doubtspec.solver.unrolling`) checks the turns the abstraction left open;
  its first "sat" is a witness, its "unsat" holds within its per-turn caps unless a follow-up
  check shows that the caps cut off no run.

Every method's verdict per turn is kept (`Answer.proofs`); `_conclude` derives the answer from
them alone, so the headline, `proved_none_by` and the notes cannot disagree. An answer is "yes"
(a witness, replayed through the engine's checked `play`; "earliest at turn k (proved)" when every
turn before k is impossible with no assumption), "no" (every turn up to N impossible; `exact`
False/None when some turn rests on the caps) or "unknown". Every answer carries its `Assumptions`.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from doubtspec.errors import OptionError
from doubtspec.model.actions import Action
from doubtspec.model.game import Game
from doubtspec.model.state import GameState, OutcomeReason
from doubtspec.solver import progress
from doubtspec.solver.abstraction import company as company_abstraction
from doubtspec.solver.abstraction import proof_cache
from doubtspec.solver.abstraction.company_schedules import ScheduleProver
from doubtspec.solver.abstraction.movement_prover import MovementProver, movement_abstraction, z3_units
from doubtspec.solver.abstraction.profit_cut import CASES_MIN_S
from doubtspec.solver.abstraction.prover import AbstractionProver
from doubtspec.solver.hunt import HuntResult, HuntSettings, Progress, Target, turn_reached
from doubtspec.solver.methods import (
    GoalHuntMethod,
    HuntMethod,
    ProfitHuntMethod,
    StarHuntMethod,
    UnrollingMethod,
    caps_text,
)
from doubtspec.solver.unrolling import bmc
from doubtspec.solver.unrolling.bmc import BoundResult, Caps
from doubtspec.solver.unrolling.encoding import Out, Tables
from doubtspec.solver.unrolling.transition import UnsupportedCards
from doubtspec.solver.unrolling.witness import Witness, replay, replay_actions
from doubtspec.solver.verdict import Budget, TurnProof, TurnProofs, TurnVerdict


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
    QueryKind.MOVEMENT_WIN: ((Out.GOAL,), (OutcomeReason.GOAL_VICTORY,)),
}


class Opponent(Enum):
    """The other side's policy: free choices, or (for the Company's questions) a Movement that always passes."""

    ANY = "any"
    PASSIVE = "passive"


DEFAULT_TIMEOUT_S = 45.0
QUICK_SHARE = 0.15
"""The share of the budget for the abstraction's first pass, before the hunt (a proved "no" ends the question)."""
HUNT_SHARE = 0.3
"""The share of what is left that the hunt may use before the proofs go on (it stops early on a find)."""
ABSTRACTION_SHARE = 1.0
"""The share of what is left after the hunt that the abstraction may use; the unrolling gets what it leaves.

All of it: the abstraction's "impossible" needs no caps, and the unrolling takes over only the turns after
one the abstraction found possible (where the exact check is what is needed) or when the abstraction
stops early. Where the abstraction stalls, the unrolling decided no turn past it on the shipped set
(Goal Victory at turn 7, Profit at turn 4) and took most of the question's memory (2.1 GiB for
`profit --by-turn 12`); the Movement's refinement makes the witnesses at the turns it cannot rule out."""
STAR_HUNT_MIN_S = 10.0
"""The time (its share or `STAR_SLICE_S`) from which the stars question runs the star hunt
(`doubtspec.solver.star_hunt`) before the generic hunt: its turn-6 pass takes 6-8 CPU-seconds at its first round's
width on the shipped set and the large file, where it finds the Star Victory at turn 6 (the generic hunt's is at
turn 8 or 9). It was 15 when the pass took 11-15 s: a 30-second question then never ran it."""
PROFIT_HUNT_MIN_S = 15.0
"""The time (its share or `PROFIT_SLICE_S`) from which the Profit question runs the Profit hunt before the generic
hunt (its first pass takes 8-10 CPU-seconds; see `PROFIT_SLICE_S`)."""
STAR_SLICE_S = 25.0
"""The star hunt's fixed slice when its share of the hunt's share is smaller (budgets under about 150 s): on the
shipped set, once turns 1 and 2 are proved (the star bounds then leave turn 5 one schedule and put turn 6's rounds
4, 5, 6 first), the dead pass of turn 5 takes about 7 s and the turn-6 find 10-15 s. With its share alone (0.8 of
0.3 of what the first pass leaves: about 11 s of a 60-second budget) the star hunt never ran and the answer was the
generic hunt's turn 8. At most `STAR_SLICE_MAX_SHARE` of what is left; the generic hunt, after it, gets the hunt's
share of what the star hunt leaves."""
STAR_SLICE_MAX_SHARE = 0.7
STAR_FIRST_HUNT_SHARE = 0.5
"""On a budget of `COMPANY_LONG_BUDGET_S` or more, what the star hunt may use of what is left for one turn tried
before the prover (`_prove_hunting_stars`): the turns before it are proved, so a find is the answer. A pass for a
turn the game cannot meet dies at its first star round; with 0.24 (the hunt's share of the star hunt's) the shipped
set's turn-6 find (49 s of wall time under a load of 5) was cut off at 47 s."""
PROFIT_SLICE_S = 45.0
"""The Profit hunt's fixed slice on a short budget, as `STAR_SLICE_S` is the star hunt's: its first pass (starless,
width 150, 20 roll-outs) finds turn 7 on the shipped set and the large file in 8-10 CPU-seconds, which a load of 6-9
on the two cores stretches to 30-40 s of wall time (with 30 roll-outs and a 30 s slice it found nothing there). The
hunt stops at its find, so on an idle machine the rest of the slice goes to the Profit cut."""

STAR_FIRST_PASS_S = 10.0
"""On a budget under `COMPANY_LONG_BUDGET_S`, the least the stars question's first pass gets (instead of
`QUICK_SHARE` when that is less): on the shipped set turns 1 and 2 take 3-5 s, and with turn 2 proved the star
bounds leave the star hunt one schedule for turn 5 and three for turn 6 (rounds 4, 5, 6 first); with turn 1 alone
it has four schedules for turns 4 and 5 and did not reach turn 6 in a 45-second budget. Only from `STAR_CUT_MIN_S`:
a smaller budget keeps the quick share, so the generic hunt still has time for its turn 8-9."""
STAR_CUT_MIN_S = 25.0
"""The least budget for the stars question's star cut and star hunt on a budget under `COMPANY_LONG_BUDGET_S` (below
it: the turn-by-turn first pass and the generic hunt). The cut's first part proves turn 4 in about 5 s, and the star
hunt's turn-6 pass takes 6-8 CPU-seconds at its first round's width (`star_hunt.FIRST_ROUND_WIDTH`), which its
slice (`STAR_SLICE_S`, at most `STAR_SLICE_MAX_SHARE` of what is left) holds from here: on the shipped set
`stars --by-turn 12 --timeout 30` answered the generic hunt's turn 8 ("earliest between 5 and 8") when this was 35
(`STAR_FIRST_PASS_S` + `STAR_SLICE_S`, from a turn-6 pass of 11-15 s; docs/solver-measurements.md, "The star hunt's
first round at width 150")."""
STAR_HUNT_SHARE = 0.8
"""Of the hunt's share, what the star hunt may use; the generic hunt gets the rest (and all of it without a find).
On the large file the star hunt's first witness (turn 6) takes about 30 s of wall time under load (the schedule of
turn 5 first): with two thirds of a 42-second share it was cut off and the answer was the generic hunt's turn 9."""
COMPANY_LONG_SHARE = 0.5
"""For the Company's schedule prover, on a budget of `COMPANY_LONG_BUDGET_S` or more: the share of its first
pass, before the hunt (instead of `QUICK_SHARE`). Its bounds that Z3 leaves open go to CP-SAT, which needs 40 s
of what is left (`company_schedules.CPSAT_MIN_S`): with 15% the first pass never has it, spends its share on
checks that wait for that bound, and the bound is proved only after the hunt (on the shipped set `stars
--by-turn 5 --timeout 300` then took about 160 s, of which the hunt, which cannot find a star by turn 5, 75)."""
COMPANY_LONG_BUDGET_S = 150.0
"""The budget from which the Company's first pass gets `COMPANY_LONG_SHARE`: below it, half the budget would
leave the hunt too little (it finds the shipped set's turn-8 third star in about 13 s)."""
STAR_FIRST_SCHEDULES = 3
"""For the stars question on a budget of `COMPANY_LONG_BUDGET_S` or more: before the schedule prover asks for a
turn, the star hunt tries it (one pass per schedule, seed 0) when the proved star bounds leave it this many star
schedules or fewer (and at least one). A find there is the earliest turn, proved, and no time goes to proving a
turn the witness makes moot (on the shipped set the prover spent 45-60 s on turn 6 before the hunt found it in
16-20 s); a pass for a turn the game cannot meet dies at its schedule's first star round (about 9 s for turn 5's
one schedule, rounds 3, 4 and 5)."""
STAR_CUT_SHARE = 0.6
"""For the stars question on a budget under `COMPANY_LONG_BUDGET_S` (and `STAR_CUT_MIN_S` or more): the most of the
budget for the star cut's first part (`ScheduleProver.cut_stars`, Z3 alone) and its turn's
proof, which replace the turn-by-turn first pass (on the shipped set rounds 1-2 and turn 4 in about 5 s). CP-SAT's
round-3 bound comes after the star hunt's slice: on the large file, where it is not proved, a cut that asked it
first left the star hunt too little for its turn-6 find (unknown at 60 s, where the slice gave turn 6)."""
PROFIT_CUT_SHARE = 0.4
"""For the Profit question: the most of the budget for the Profit cut's first part (`ScheduleProver.cut_profit`),
which replaces the turn-by-turn first pass: on the shipped set its bound after round 3 (CP-SAT's maximum of the
potential, 30 below the 70 to win) proves turn 4 in about 29 CPU-seconds, where the turn-by-turn pass proves turn 3
in about 18 and never decides turn 4 (263 s)."""
PROFIT_CUT_CPSAT_MIN_S = 20.0
"""The least time left for the Profit cut to ask CP-SAT's maximum of a round (Z3's ladder alone below it): the
round-3 maximum takes 10-20 CPU-seconds on the shipped set, and a maximum cut off is asked again later."""
REFINING_SHARE = 0.8
"""For an abstraction that refines its runs into games (the Movement's): the share of the budget its first
pass may use, before the hunt (instead of `QUICK_SHARE`). Its first "possible" turn, refined, is the
earliest witness; the hunt, which on the shipped set finds Goal Victory at turn 11 in 13-27 s, only
matters when the abstraction stalls."""
GOAL_HUNT_AFTER_UNITS = 50_000_000
"""For Goal Victory: once the Movement's abstraction spent this much of Z3's work (its `rlimit` count) to prove a
turn impossible, each later turn is hunted (`doubtspec.solver.goal_hunt`) before the prover is asked for it
(`_prove_hunting_goals`). Z3's count, not seconds, so that a loaded machine does not make a cheap turn look dear (a
hunt for a turn the game cannot meet spends its whole share). The prover's turns grow three to eight times a turn;
on the shipped set turns 1-5 take about 10 million units (3 CPU-seconds) together, turn 6 159 million (22) and the
possible turn 7 1,984 million (174, seed 0), where a pass of the Goal hunt takes about 10 CPU-seconds and finds
turn 7 in about a third of its passes."""
GOAL_FIRST_HUNT_SHARE = 0.85
"""Of what is left of the question's budget, what the Goal hunt may use for one turn before the prover is asked
for it (the turns before it are proved, so a find is the earliest turn, proved). Most of it: the prover's turn after
a dear one costs several times as much. With 0.6, at a load of 6 on the two cores (56.7 CPU-seconds in 104.7 s),
`movement-win --by-turn 12 --timeout 120` proved turns 1-6 in 63 s of wall time and the hunt's first pass, which
finds turn 7, was cut off at 29 s."""


@dataclass(frozen=True, slots=True)
class Query:
    """One question: its kind, the Goal it names (for `goal`) and the bound."""

    kind: QueryKind
    by_turn: int
    goal: int | None = None

    @property
    def question(self) -> str:
        return QUESTIONS[self.kind].format(n=self.by_turn, goal=self.goal)

    @property
    def side_is_company(self) -> bool:
        return self.kind in COMPANY_QUERIES


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

    def to_json(self) -> dict[str, Any]:
        return {"opponent": self.opponent, "chance": self.chance, "rulings": self.rulings, "bound": self.bound,
                "caps": self.caps, "scope": self.scope}


@dataclass(frozen=True, slots=True)
class ProofStoreUse:
    """What one question took from the proof store and kept in it (`proof_cache`): a proof taken was made by an
    earlier question on the same problem with the same code, so an answer that rests on one says so."""

    directory: str | None
    """The store's folder; None when it is switched off."""
    taken: int = 0
    """Stored answers found and used instead of a check."""
    kept: int = 0
    """Answers this question proved and stored."""

    def to_json(self) -> dict[str, Any]:
        return {"directory": self.directory, "taken": self.taken, "kept": self.kept}

    def line(self) -> str | None:
        """One line for the answer's text, or None when the store played no part."""
        if self.directory is None or not (self.taken or self.kept):
            return None
        taken = (f"{self.taken} proofs taken from earlier questions with the same card file, rulings and code"
                 if self.taken else "nothing taken")
        return f"proof store ({self.directory}): {taken}; {self.kept} kept"


@dataclass(slots=True)
class Answer:
    """The answer to one query."""

    kind: QueryKind
    question: str
    by_turn: int
    status: str
    """'yes', 'no' or 'unknown'."""
    earliest: int | None
    """The turn of the witness (a "yes"); the earliest turn when `earliest_exact`."""
    exact: bool | None
    """Whether the unrolling's proofs hold for the game itself (the caps cut off no run); None if not shown."""
    assumptions: Assumptions
    checks: list[BoundResult] = field(default_factory=list)
    witness: Witness | None = None
    witness_from: str | None = None
    """'unrolling', 'hunt', 'star-hunt', 'profit-hunt' or 'abstraction': which method found the witness."""
    proved_none_by: int = 0
    """The last turn proved impossible (0: none): no run reaches the target by this turn."""
    hunt: HuntResult | None = None
    goal: int | None = None
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    proofs: TurnProofs = field(default_factory=TurnProofs)
    """Every method's verdict per turn (the hunt's and the unrolling's witnesses, the abstraction's proofs)."""
    proved_none_by_within_caps: int = 0
    """The last turn shown impossible when the unrolling's caps are assumed (>= `proved_none_by`)."""
    lemmas: list[str] = field(default_factory=list)
    """Lemmas proved for this card file and used by the abstraction."""
    lemmas_rejected: list[tuple[str, str]] = field(default_factory=list)
    lemma_seconds: float = 0.0
    cpu_seconds: float = 0.0
    peak_memory_mib: float = 0.0
    proof_store: ProofStoreUse = field(default_factory=lambda: ProofStoreUse(None))

    def turn_methods(self) -> dict[int, str]:
        """For each turn before the earliest (or up to the bound), the method that proved it impossible."""
        last = self.proved_none_by_within_caps
        methods: dict[int, str] = {}
        for turn in range(1, last + 1):
            covering = [p for p in self.proofs.proofs if p.verdict is TurnVerdict.IMPOSSIBLE and p.turn >= turn]
            exact = [p for p in covering if p.assumption is None]
            chosen = min(exact or covering, key=lambda p: p.turn)
            methods[turn] = chosen.method + ("" if chosen.assumption is None else " (within the caps)")
        return methods

    @property
    def earliest_exact(self) -> bool:
        return self.earliest is not None and self.proved_none_by == self.earliest - 1

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.kind.value, "question": self.question, "by_turn": self.by_turn, "goal": self.goal,
            "answer": self.status, "earliest_turn": self.earliest, "earliest_exact": self.earliest_exact,
            "proved_none_by_turn": self.proved_none_by, "exact": self.exact,
            "assumptions": self.assumptions.to_json(),
            "checks": [{"turn": c.bound, "result": c.status, "seconds": round(c.seconds, 3)} for c in self.checks],
            "witness_from": self.witness_from,
            "witness_actions": None if self.witness is None else len(self.witness.actions),
            "outcome": None if self.witness is None or self.witness.final.outcome is None else {
                "reason": self.witness.final.outcome.reason.value, "round": self.witness.final.outcome.round},
            "hunt": None if self.hunt is None else {
                "found_turn": self.hunt.found, "states": self.hunt.states, "seconds": round(self.hunt.seconds, 3),
                "turns_searched": self.hunt.rounds_searched},
            "seconds": round(self.seconds, 3), "cpu_seconds": round(self.cpu_seconds, 3),
            "peak_memory_mib": round(self.peak_memory_mib, 1), "notes": self.notes,
            "proved_none_by_turn_within_caps": self.proved_none_by_within_caps,
            "proofs": self.proofs.to_json(),
            "impossible_turns": {str(turn): method for turn, method in self.turn_methods().items()},
            "lemmas_used": self.lemmas,
            "lemmas_rejected": [{"lemma": name, "why": why} for name, why in self.lemmas_rejected],
            "lemma_seconds": round(self.lemma_seconds, 3),
            "proof_store": self.proof_store.to_json(),
        }


DEFAULT_CAPS = Caps()

CHANCE = "best luck: every shuffle, draw and Set-Up deal is a free choice"
BOUND = ("turn N = round N, the Movement's Nth turn followed by the Company's Nth turn "
         "(ruling turn-numbering=round); 'by turn N' includes turn N")


def assumptions(game: Game, query: Query, opponent: Opponent, caps: Caps) -> Assumptions:
    if opponent is Opponent.PASSIVE:
        who = ("passive: the Movement passes every turn (so no Goal is achieved, nothing is banned, no "
               "Restriction card is added, no Market card is bought)")
        scope = "the Company's whole side and the Movement's Market and Lobbying, per the reference engine"
    else:
        who = "any: both sides choose freely (the other side may help)"
        scope = "both sides' whole rules, per the reference engine"
    return Assumptions(
        opponent=who, chance=CHANCE, rulings=dict(game.rulings.choices), bound=BOUND,
        caps=(f"none for turns the abstraction proves impossible; the unrolling has at most {caps.plays} plays "
              f"(an unlobby counts as one) and {caps.buys} buys per Company turn, and each turn it alone proves "
              "impossible is marked 'within the caps' unless the caps were shown to cut off no run; witnesses "
              "are replayed through the engine and are never capped"),
        scope=scope,
    )


def check_supported(query: Query, opponent: Opponent, game: Game | None = None) -> None:
    """Refuse what the solver cannot ask (rather than answer a different question)."""
    if query.by_turn < 1:
        raise OptionError("--by-turn must be at least 1", field="--by-turn")
    if not query.side_is_company and opponent is Opponent.PASSIVE:
        raise OptionError("--opponent passive makes the Movement pass, so it cannot ask about the Movement's "
                          "Goals; use --opponent any", field="--opponent")
    if query.kind is QueryKind.GOAL:
        if query.goal is None:
            raise OptionError("`solve goal` needs a Goal number", field="G")
        if game is not None and query.goal not in game.cards.goals:
            known = ", ".join(str(int(g)) for g in sorted(game.cards.goals))
            raise OptionError(f"the card file has no Goal G{query.goal} (it has {known})", field="G")


# --- targets ------------------------------------------------------------------------------------

def state_target(query: Query) -> Target:
    """The query's target on an engine state (the hunt's test and the witness's final check)."""
    if query.kind is QueryKind.GOAL:
        number = query.goal

        def achieved(state: GameState) -> bool:
            return number in state.achieved
        return achieved
    _, reasons = TARGETS[query.kind]

    def ended(state: GameState) -> bool:
        return state.outcome is not None and state.outcome.reason in reasons
    return ended


def unrolling_goal(query: Query) -> bmc.Goal:
    """The query's target on the unrolling's state vector."""
    if query.kind is QueryKind.GOAL:
        assert query.goal is not None
        return bmc.goal_achieved(query.goal)
    outs, _ = TARGETS[query.kind]
    return bmc.out_is(*outs)


PROGRESS: dict[QueryKind, Progress] = {
    QueryKind.STARS: progress.stars,
    QueryKind.PROFIT: progress.profit,
    QueryKind.DEFEAT: progress.defeat,
    QueryKind.MOVEMENT_WIN: progress.movement_win,
}


def progress_of(query: Query) -> Progress:
    """The score the hunt ranks states by for this query."""
    if query.kind is QueryKind.GOAL:
        assert query.goal is not None
        return progress.goal(query.goal)
    return PROGRESS[query.kind]


# --- the methods -------------------------------------------------------------------------------


def abstraction_for(game: Game, query: Query) -> AbstractionProver | ScheduleProver | None:
    """The sound abstraction that can prove this query's turns impossible, if there is one.

    The Company's targets are decided by one-shot checks split on Reshuffle schedules
    (`ScheduleProver`); the Movement's by its incremental BMC and refinement (`MovementProver`).
    """
    if query.kind is QueryKind.STARS:
        target = company_abstraction.STAR
    elif query.kind is QueryKind.PROFIT:
        target = company_abstraction.PROFIT
    elif query.kind in (QueryKind.GOAL, QueryKind.MOVEMENT_WIN):
        return movement_abstraction(game, query.goal)
    else:
        return None  # the Company's defeats have no abstraction here yet
    model = company_abstraction.CompanyAbstraction.of(game)
    return ScheduleProver(model.system(target), target, model.lemmas(), model.layout.cube_terms, layout=model.layout,
                          removals=model.messaging)


def peak_memory_mib() -> float:
    """The process's peak resident memory so far (ru_maxrss is in KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def solve_query(game: Game, query: Query, opponent: Opponent = Opponent.ANY,
                timeout_s: float | None = DEFAULT_TIMEOUT_S, caps: Caps = DEFAULT_CAPS, check_caps: bool = True,
                hunt_settings: HuntSettings | None = None, use_hunt: bool = True, earliest: bool = True,
                use_abstraction: bool = True, use_unrolling: bool = True) -> Answer:
    """Answer one query: the hunt for a witness, then proofs turn by turn (abstraction first, then the unrolling).

    `earliest` False: stop at the hunt's witness instead of proving the turns before it impossible.
    """
    check_supported(query, opponent, game)
    started = time.perf_counter()
    cpu_started = time.process_time()
    store_counts = proof_cache.COUNTS.hits, proof_cache.COUNTS.writes
    budget = Budget.of(timeout_s)
    answer = Answer(query.kind, query.question, query.by_turn, "unknown", None, None,
                    assumptions(game, query, opponent, caps), goal=query.goal)
    target = state_target(query)
    upto = query.by_turn
    # A first pass of the abstraction: a "no" it can prove needs no hunt at all. A prover that refines its
    # runs into games gets most of the budget here, since its first "possible" turn comes with a witness.
    proved = 0
    prover = abstraction_for(game, query) if use_abstraction and budget.can_start() else None
    abstract_open = prover is not None
    star_hunter: StarHuntMethod | None = None
    cut = False
    long_budget = budget.left() >= COMPANY_LONG_BUDGET_S
    if prover is not None:
        first_share = QUICK_SHARE
        if isinstance(prover, MovementProver):
            first_share = REFINING_SHARE
        elif isinstance(prover, ScheduleProver) and long_budget:
            first_share = COMPANY_LONG_SHARE
        elif (query.kind is QueryKind.STARS and use_hunt and hunt_settings is None
              and budget.left() >= STAR_CUT_MIN_S):
            first_share = min(1.0, max(QUICK_SHARE, STAR_FIRST_PASS_S / budget.left()))
        cut = (query.kind is QueryKind.STARS and isinstance(prover, ScheduleProver) and use_hunt
               and hunt_settings is None and budget.left() >= STAR_CUT_MIN_S)
        if cut:
            # The star bounds first, and the last turn they put out of reach proved from them (turns before it
            # follow: the target latches); the turn-by-turn proof of those turns is never made.
            assert isinstance(prover, ScheduleProver)
            # On a short budget with Z3 alone first: the star hunt's slice comes before CP-SAT (tens of seconds,
            # and on the large file to no avail), so that its find is made in time.
            proved = _cut_stars(answer, game, query.by_turn, prover,
                                budget.share(first_share if long_budget else STAR_CUT_SHARE), budget,
                                cpsat=long_budget)
        if (query.kind is QueryKind.STARS and isinstance(prover, ScheduleProver) and long_budget and use_hunt
                and hunt_settings is None):
            # The witness first: each turn is hunted before it is proved, once its star schedules are few.
            star_hunter = StarHuntMethod(game)
            proved, abstract_open = _prove_hunting_stars(answer, game, target, query, prover, star_hunter,
                                                         budget.share(first_share), budget, proved)
            if answer.earliest is not None:
                upto = answer.earliest - 1 if earliest else 0
        elif (query.kind is QueryKind.MOVEMENT_WIN and isinstance(prover, MovementProver) and use_hunt
              and hunt_settings is None):
            # The witness first once the prover's turns get dear: each such turn is hunted before it is proved.
            proved, abstract_open = _prove_hunting_goals(answer, game, target, query, prover,
                                                         budget.share(first_share), budget)
            if answer.earliest is not None:
                upto = answer.earliest - 1 if earliest else 0
        else:
            if query.kind is QueryKind.PROFIT and isinstance(prover, ScheduleProver):
                # The Profit cut first: the turn it proves needs no proof of the turns before it (the target
                # latches), so the turn-by-turn pass is made only when it proves none.
                proved = _cut_profit(answer, game, query.by_turn, prover, budget.share(PROFIT_CUT_SHARE))
            if proved == 0:  # after a cut that proved a turn, the hunt comes next
                for settled in prover.decide(query.by_turn, budget.share(first_share)):
                    answer.proofs.add(settled)
                    if settled.verdict is TurnVerdict.IMPOSSIBLE:
                        proved = settled.turn
                    elif settled.verdict is TurnVerdict.POSSIBLE:
                        abstract_open = False  # possible in the abstraction: it proves nothing from this turn on
    # On a short budget the star cut's CP-SAT part comes after the hunt, and on the shipped set it proves the turn
    # after the cut's first part (turn 5 from round 3): a hunt for that turn is deferred until the cut has tried it.
    # A first part that took a CP-SAT bound from the proof store has already proved what the CP-SAT part would (the
    # next turn needs a later round's bound): nothing is deferred then.
    deferred = proved + 1 if cut and not long_budget and not (isinstance(prover, ScheduleProver)
                                                              and prover.used_box) else 0
    if use_hunt and proved < query.by_turn and answer.status != "yes" and not _refined(prover):
        first_turn = deferred + 1 if deferred else proved + 1
        if first_turn <= query.by_turn:
            star_hunter = _hunt(answer, game, query, opponent, target, prover, star_hunter, hunt_settings, budget,
                                proved, first_turn, query.by_turn)
            if answer.earliest is not None:
                upto = answer.earliest - 1 if earliest else 0
    # The star cut again, with CP-SAT now, up to the turn before the witness (or the bound).
    if cut and isinstance(prover, ScheduleProver) and proved < upto and budget.can_start():
        proved = max(proved, _cut_stars(answer, game, upto, prover, budget, budget))
    # The deferred turn, hunted only if the cut left it open and no witness is as early.
    if (use_hunt and deferred and proved < deferred <= query.by_turn and budget.can_start()
            and (answer.earliest is None or answer.earliest > deferred)):
        star_hunter = _hunt(answer, game, query, opponent, target, prover, star_hunter, hunt_settings, budget,
                            proved, deferred, deferred)
        if answer.earliest is not None:
            upto = answer.earliest - 1 if earliest else 0
    # The Profit cut again, with the time the hunt left, from the first round it left open.
    if (query.kind is QueryKind.PROFIT and isinstance(prover, ScheduleProver) and proved < upto
            and budget.can_start()):
        proved = max(proved, _cut_profit(answer, game, upto, prover, budget, proved))
    # The abstraction again, with the time the hunt left: its "impossible" is the game's, with no caps.
    if prover is not None and abstract_open and proved < upto and budget.can_start():
        for settled in prover.decide(upto, budget.share(ABSTRACTION_SHARE), first_turn=proved + 1):
            answer.proofs.add(settled)
            if settled.verdict is TurnVerdict.IMPOSSIBLE:
                proved = settled.turn
    if prover is not None:
        answer.lemmas = (prover.lemma_names() if isinstance(prover, ScheduleProver)
                         else [lemma.name for lemma in prover.lemmas])
        answer.lemmas_rejected = prover.rejected
        answer.lemma_seconds = prover.lemma_seconds
        if isinstance(prover, MovementProver) and prover.witness is not None:
            # the abstraction's run, played in the engine: a witness at the first turn it could not rule out
            final = replay_actions(game, prover.witness)
            if not target(final) or turn_reached(final) <= proved:
                raise AssertionError("a refined witness misses its target or contradicts a proof")
            answer.witness, answer.witness_from = Witness(prover.witness, final), "abstraction"
            answer.earliest, answer.status, upto = turn_reached(final), "yes", turn_reached(final) - 1
    # The unrolling: the turns the abstraction left open (a witness if it finds one; its "no" rests on caps).
    run = bmc.Run()
    if use_unrolling and proved < upto and budget.can_start():
        unrolling = UnrollingMethod(game, unrolling_goal(query), caps, movement_free=opponent is Opponent.ANY,
                                    check_caps=check_caps and answer.status != "yes")
        try:
            for settled in unrolling.decide(upto, budget, first_turn=proved + 1):
                if settled.verdict is not TurnVerdict.POSSIBLE:
                    answer.proofs.add(settled)
        except UnsupportedCards as exc:
            answer.notes.append(f"the unrolling cannot model this card file or ruling ({exc})")
        run = unrolling.run
        answer.checks = run.checks
    if run.found is not None and run.model is not None:
        answer.witness = replay(Tables.of(game), run.steps, run.model)
        answer.witness_from = "unrolling"
        answer.earliest = run.found
        answer.status = "yes"
        answer.proofs.add(TurnProof(run.found, TurnVerdict.POSSIBLE, "unrolling",
                                    run.checks[-1].seconds if run.checks else 0.0))
    _conclude(answer, query, caps, earliest, run)
    if query.kind is QueryKind.PROFIT and isinstance(prover, ScheduleProver):
        _note_cases_not_asked(answer, prover)
    answer.seconds = time.perf_counter() - started
    answer.cpu_seconds = time.process_time() - cpu_started
    answer.peak_memory_mib = peak_memory_mib()
    folder = proof_cache.directory()
    answer.proof_store = ProofStoreUse(None if folder is None else str(folder),
                                       proof_cache.COUNTS.hits - store_counts[0],
                                       proof_cache.COUNTS.writes - store_counts[1])
    return answer


def _hunt(answer: Answer, game: Game, query: Query, opponent: Opponent, target: Target,
          prover: AbstractionProver | ScheduleProver | MovementProver | None, star_hunter: StarHuntMethod | None,
          hunt_settings: HuntSettings | None, budget: Budget, proved: int, first_turn: int,
          by_turn: int) -> StarHuntMethod | None:
    """The hunt for a witness from `first_turn` to `by_turn`: the hunt aimed at the question first (the Profit or
    the star hunt), then the generic hunt (which plays whole games and may find any turn up to `by_turn`). A find,
    replayed, becomes the answer's witness; `proved` is the last turn proved impossible (a find at or before it
    would mean an unsound proof). Returns the star hunter (its passes made are not made again)."""
    hunt_budget = budget.share(HUNT_SHARE)
    hunters: list[tuple[HuntMethod | StarHuntMethod | ProfitHuntMethod, Budget | None]] = []
    sliced = False
    if query.kind is QueryKind.PROFIT and hunt_settings is None:
        # First the hunt aimed at Profit (a Company that cycles its deck and stops one star short: turn 7 on the
        # shipped set, where the generic hunt finds none by turn 12), then the generic hunt, as for the stars.
        profit_budget, sliced = _aimed_hunt_budget(budget, hunt_budget, PROFIT_SLICE_S)
        if profit_budget.left() >= PROFIT_HUNT_MIN_S:
            hunters.append((ProfitHuntMethod(game), profit_budget))
    if query.kind is QueryKind.STARS and hunt_settings is None:
        # First the hunt aimed at star schedules, from the first turn not proved impossible (on the shipped set
        # the generic hunt's third star comes at turn 8, this one's at turn 6), then the generic hunt. A caller's
        # own hunt settings ask for the generic hunt alone. Passes made before the proofs are not made again.
        star_budget, sliced = _aimed_hunt_budget(budget, hunt_budget, STAR_SLICE_S)
        if star_budget.left() >= STAR_HUNT_MIN_S:
            star_hunter = star_hunter if star_hunter is not None else StarHuntMethod(game)
            star_hunter.at_most = prover.stars_at_most() if isinstance(prover, ScheduleProver) else {}
            hunters.append((star_hunter, star_budget))
    hunters.append((HuntMethod(game, target, progress_of(query),
                               opponent is Opponent.PASSIVE or query.side_is_company, hunt_settings),
                    None if hunters and sliced else hunt_budget))
    for hunter, share in hunters:
        hunt_share = share if share is not None else budget.share(HUNT_SHARE)
        if isinstance(hunter, StarHuntMethod) and sliced:
            # one pass per schedule: after a find, the slice's rest goes to the proofs, not to other seeds
            found = hunter.decide(by_turn, hunt_share, first_turn=first_turn, passes=1)
        else:
            found = hunter.decide(by_turn, hunt_share, first_turn=first_turn)
        answer.hunt = hunter.result
        if found and hunter.witness is not None:
            _take_witness(answer, game, target, hunter.witness, hunter.name, proved, found[0].seconds)
            break
    return star_hunter


def _aimed_hunt_budget(budget: Budget, hunt_budget: Budget, slice_s: float) -> tuple[Budget, bool]:
    """The budget of a hunt aimed at one question (the star or the Profit hunt), and whether it is a fixed slice.

    Its share of the hunt's share, or, when that is under `slice_s`, a slice of `slice_s` (at most
    `STAR_SLICE_MAX_SHARE` of what is left); then the generic hunt's share is taken after it.
    """
    aimed = hunt_budget.share(STAR_HUNT_SHARE)
    if aimed.left() >= slice_s:
        return aimed, False
    left = budget.left()
    return budget.share(min(STAR_SLICE_MAX_SHARE, slice_s / left) if left > 0 else 0.0), True


def _take_witness(answer: Answer, game: Game, target: Target, actions: tuple[Action, ...], method: str, proved: int,
                  seconds: float) -> None:
    """A hunted game as the answer's witness, once replayed through the engine's checked `play`."""
    final = replay_actions(game, actions)
    if not target(final):
        raise AssertionError("a hunted witness did not meet its target on replay")
    answer.witness = Witness(actions, final)
    answer.witness_from = method
    answer.earliest = turn_reached(final)
    if proved >= answer.earliest:
        raise AssertionError(f"the abstraction proved turn {proved} impossible, the {method} reached the target "
                             f"at turn {answer.earliest}: the abstraction is not sound for this card file")
    answer.status = "yes"
    answer.proofs.add(TurnProof(answer.earliest, TurnVerdict.POSSIBLE, method, seconds))


def _cut_stars(answer: Answer, game: Game, by_turn: int, prover: ScheduleProver, budget: Budget,
               whole: Budget, cpsat: bool = True) -> int:
    """The stars question's star cut: the prover's star bounds round by round (`ScheduleProver.cut_stars`), then
    the last turn they put out of reach proved from the last bound before it (`ScheduleProver.prove_from_cut`).
    Returns the turn proved (0: none)."""
    # A turn the check from the bound leaves open (it has one limit in Z3's resource count) is tried one lower. The
    # check takes under a second: it may use the question's budget when the cut has used up its share.
    started = time.perf_counter()
    for turn in range(prover.cut_stars(by_turn, game.cards.rules.stars_to_win, budget, cpsat), 0, -1):
        if not whole.can_start():
            break
        # its time is the cut's and the check's: what the turn's proof cost
        settled = replace(prover.prove_from_cut(turn, whole), seconds=time.perf_counter() - started)
        if settled.verdict is TurnVerdict.IMPOSSIBLE:
            # only a proof is kept: a turn left open here is asked again of the prover, which records it
            answer.proofs.add(settled)
            return turn
    return 0


def _cut_profit(answer: Answer, game: Game, by_turn: int, prover: ScheduleProver, budget: Budget,
                proved: int = 0) -> int:
    """The Profit question's cut (`ScheduleProver.cut_profit`): the last turn up to `by_turn` it proves impossible
    (0: none), its proof added to the answer when it is past `proved`. CP-SAT's maxima only with
    `PROFIT_CUT_CPSAT_MIN_S` left."""
    turn = prover.cut_profit(by_turn, game.cards.rules.profit_to_win, budget,
                             cpsat=budget.left() >= PROFIT_CUT_CPSAT_MIN_S)
    proof = prover.profit_cut_proof()
    if turn > proved and proof is not None:
        answer.proofs.add(proof)
        return turn
    return 0


def _note_cases_not_asked(answer: Answer, prover: ScheduleProver) -> None:
    """A note when the first turn left open is the one the Profit cut's bound by cases would have tried next and
    those cases were not asked for lack of budget (`ProfitCut.cases_not_asked`): what a longer --timeout asks.
    It promises nothing: the cases may still leave the turn open."""
    cut = prover.profit_cut
    open_turn = answer.proved_none_by + 1
    if cut is None or answer.status == "no" or (answer.earliest is not None and open_turn >= answer.earliest):
        return
    left = cut.cases_not_asked.get(open_turn - 1)
    if left is not None:
        answer.notes.append(f"turn {open_turn}: the Profit cut bounds round {open_turn - 1} by cases only with at "
                            f"least {CASES_MIN_S:.0f} s of the budget left, and {max(left, 0):.0f} s were; a longer "
                            "--timeout lets it try them")


def _prove_hunting_stars(answer: Answer, game: Game, target: Target, query: Query, prover: ScheduleProver,
                         hunter: StarHuntMethod, first: Budget, budget: Budget, proved: int = 0) -> tuple[int, bool]:
    """The stars question's first pass, witness first: turn by turn, the star hunt tries the turn (one pass per
    schedule the proved star bounds leave, when they leave at most `STAR_FIRST_SCHEDULES`), and the schedule
    prover is asked for it only without a find. A find at turn k comes after turns 1..k-1 are proved impossible, so
    it is the earliest turn, proved; the prover is never asked for it. Stops at a find or at the first turn the
    prover leaves open (within `first`). Starts after `proved`, the turn the star cut proved. Returns the last turn
    proved impossible and whether the abstraction may still prove later turns."""
    abstract_open = True
    for turn in range(proved + 1, query.by_turn + 1):
        if not first.can_start():
            break
        hunter.at_most = prover.stars_at_most()
        if (0 < hunter.schedules(turn) <= STAR_FIRST_SCHEDULES
                and _hunt_turn(answer, game, target, hunter, turn, budget.share(STAR_FIRST_HUNT_SHARE), proved,
                               passes=1)):
            break
        proved, abstract_open = _prove_turn(answer, prover, turn, first, proved, abstract_open)
        if proved < turn:
            break
    return proved, abstract_open


def _hunt_turn(answer: Answer, game: Game, target: Target, hunter: StarHuntMethod | GoalHuntMethod, turn: int,
               share: Budget, proved: int, **settings: int) -> bool:
    """One aimed hunt for turn `turn` alone, before the prover is asked for it: whether it found (and replayed)
    a witness, which is then the answer's."""
    found = hunter.decide(turn, share, first_turn=turn, **settings)
    answer.hunt = hunter.result
    if found and hunter.witness is not None:
        _take_witness(answer, game, target, hunter.witness, hunter.name, proved, found[0].seconds)
        return True
    return False


def _prove_turn(answer: Answer, prover: ScheduleProver | MovementProver, turn: int, first: Budget, proved: int,
                abstract_open: bool) -> tuple[int, bool]:
    """The prover asked for turn `turn` alone: the last turn proved impossible and whether the abstraction may
    still prove later turns (not after a "possible")."""
    for settled in prover.decide(turn, first, first_turn=turn):
        answer.proofs.add(settled)
        if settled.verdict is TurnVerdict.IMPOSSIBLE:
            proved = settled.turn
        elif settled.verdict is TurnVerdict.POSSIBLE:
            abstract_open = False
    return proved, abstract_open


def _prove_hunting_goals(answer: Answer, game: Game, target: Target, query: Query, prover: MovementProver,
                         first: Budget, budget: Budget) -> tuple[int, bool]:
    """The Goal Victory question's first pass, witness first once proofs get dear: turn by turn, the Movement's
    prover proves the turn impossible; once a turn's proof took `GOAL_HUNT_AFTER_UNITS` or more, the Goal hunt tries
    each next turn (with `GOAL_FIRST_HUNT_SHARE` of what is left) before the prover is asked for it. A find at turn
    k comes after turns 1..k-1 are proved impossible, so it is the earliest turn, proved. Stops at a find or at the
    first turn the prover does not prove (within `first`). Returns the last turn proved impossible and whether the
    abstraction may still prove later turns."""
    hunter = GoalHuntMethod(game)
    proved, abstract_open, dear = 0, True, False
    for turn in range(1, query.by_turn + 1):
        units = z3_units()
        if not first.can_start():
            break
        if dear and _hunt_turn(answer, game, target, hunter, turn, budget.share(GOAL_FIRST_HUNT_SHARE), proved):
            break
        proved, abstract_open = _prove_turn(answer, prover, turn, first, proved, abstract_open)
        if proved < turn:
            break
        dear = dear or z3_units() - units >= GOAL_HUNT_AFTER_UNITS
    return proved, abstract_open


def _refined(prover: AbstractionProver | ScheduleProver | None) -> bool:
    """Whether the prover has made a game of one of its runs (a witness at its first "possible" turn)."""
    return isinstance(prover, MovementProver) and prover.witness is not None


def _conclude(answer: Answer, query: Query, caps: Caps, earliest: bool, run: bmc.Run) -> None:
    """Set the status, the proved turns and the notes from the per-turn proofs, so that they never disagree."""
    exact_upto = answer.proofs.proved_none_by(with_assumptions=False)
    capped_upto = answer.proofs.proved_none_by(with_assumptions=True)
    if answer.earliest is not None:
        exact_upto = min(exact_upto, answer.earliest - 1)
        capped_upto = min(capped_upto, answer.earliest - 1)
    answer.proved_none_by = exact_upto
    answer.proved_none_by_within_caps = capped_upto
    if answer.status == "yes":
        assert answer.earliest is not None
        answer.exact = True if answer.earliest_exact else None
        if answer.earliest_exact:
            return
        if not earliest:
            answer.notes.append("earlier turns were not looked at (--no-earliest)")
        elif capped_upto > exact_upto:
            answer.notes.append(f"turns {exact_upto + 1}-{capped_upto} are impossible only within the unrolling's "
                                f"caps ({caps_text(caps)}): the earliest is proved to lie between turn "
                                f"{exact_upto + 1} and {answer.earliest}")
        else:
            answer.notes.append(f"the earliest is between turn {exact_upto + 1} and {answer.earliest}: turns up to "
                                f"{exact_upto} are proved impossible, turn {exact_upto + 1} was not decided in time")
        return
    if exact_upto >= query.by_turn:
        answer.status = "no"
        answer.exact = True
    elif capped_upto >= query.by_turn:
        answer.status = "no"
        answer.exact = False if run.exact is False else None
        answer.notes.append(f"turns {exact_upto + 1}-{query.by_turn} are impossible only within the caps "
                            f"({caps_text(caps)}): the 'no' holds for runs within the caps; raise --plays/--buys "
                            "or give more time for a proof")
    else:
        answer.notes.append(f"unknown within the budget: no witness found, turns up to {exact_upto} proved impossible"
                            + (f" ({capped_upto} within the caps)" if capped_upto > exact_upto else "")
                            + f", turn {capped_upto + 1} not decided in time")


def solve(game: Game, kind: QueryKind, by_turn: int, opponent: Opponent = Opponent.ANY,
          timeout_s: float | None = DEFAULT_TIMEOUT_S, caps: Caps = DEFAULT_CAPS, check_caps: bool = True,
          goal: int | None = None, use_hunt: bool = True, earliest: bool = True, use_abstraction: bool = True,
          use_unrolling: bool = True) -> Answer:
    """`solve_query` for one kind (a convenience for the tests and benchmarks)."""
    return solve_query(game, Query(kind, by_turn, goal), opponent, timeout_s, caps, check_caps, use_hunt=use_hunt,
                       earliest=earliest, use_abstraction=use_abstraction, use_unrolling=use_unrolling)


def solve_goals(game: Game, by_turn: int, opponent: Opponent = Opponent.ANY,
                timeout_s: float | None = DEFAULT_TIMEOUT_S, caps: Caps = DEFAULT_CAPS,
                check_caps: bool = True, earliest: bool = True,
                progress: Callable[[int], None] | None = None) -> list[Answer]:
    """Every Goal of the card file: reachable by turn N or not, and the earliest turn (the budget is shared).

    Each Goal gets an equal share of what is left when its turn comes, so the time the quick Goals
    do not use goes to the deeper ones rather than being lost.
    """
    numbers = sorted(int(g) for g in game.cards.goals)
    answers = []
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    for index, number in enumerate(numbers):
        share = None if deadline is None else max(0.0, deadline - time.monotonic()) / (len(numbers) - index)
        answers.append(solve_query(game, Query(QueryKind.GOAL, by_turn, number), opponent, share, caps, check_caps,
                                   earliest=earliest))
        if progress is not None:
            progress(number)
    return answers

