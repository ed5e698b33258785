"""The solver's questions ("can it happen by turn N?") and their answers, each with what was assumed.

Two methods answer together, within one time budget:
- the witness hunt (`doubtspec.solver.hunt`), a best-luck beam search over the engine, looks for
  a game that reaches the target by turn N; it is fast deep into the game but can only say "yes";
- the bounded unrolling (`doubtspec.solver.bmc`) checks turn after turn whether the target can be
  reached; each "unsat" is a proof that it cannot by that turn, and its first "sat" is the earliest
  turn, with a model that becomes a witness.

The hunt runs first; the unrolling then tries to prove that nothing earlier than the hunt's
witness (or nothing up to N) exists. An answer is "yes" (a witness, replayed through the engine's
checked `play`), "no" (every turn up to N proved impossible; `exact` says whether the per-turn
caps were shown to cut off no run) or "unknown" (neither a witness nor a proof within the budget).
A "yes" also says how far the earliest turn is proved: `proved_none_by` is the last turn shown to
be impossible, so the earliest turn is exact when the witness comes at `proved_none_by + 1`.
Every answer carries its `Assumptions`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from doubtspec.errors import OptionError
from doubtspec.model.game import Game
from doubtspec.model.state import GameState, OutcomeReason
from doubtspec.solver import bmc, progress
from doubtspec.solver.abstraction.movement_prover import prove_movement_question
from doubtspec.solver.bmc import BoundResult, Caps
from doubtspec.solver.encoding import Out, Tables
from doubtspec.solver.hunt import HuntResult, HuntSettings, Progress, Target, hunt, turn_reached
from doubtspec.solver.transition import UnsupportedCards
from doubtspec.solver.witness import Witness, replay, replay_actions


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
HUNT_SHARE = 0.4
"""The share of the budget the hunt may use before the unrolling takes over (it stops early on a find)."""


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
    """'unrolling' or 'hunt': which method found the witness."""
    proved_none_by: int = 0
    """The last turn proved impossible (0: none): no run reaches the target by this turn."""
    hunt: HuntResult | None = None
    goal: int | None = None
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

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
            "seconds": round(self.seconds, 3), "notes": self.notes,
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
        caps=(f"the unrolling has at most {caps.plays} plays (an unlobby counts as one) and {caps.buys} buys per "
              "Company turn; a 'no' says whether these caps were shown to cut off no run; witnesses from the "
              "hunt are not capped"),
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


# --- the two methods ----------------------------------------------------------------------------


@dataclass(slots=True)
class _Proof:
    """What the unrolling settled: its checks, the last turn proved impossible, a model if it found one."""

    run: bmc.Run = field(default_factory=bmc.Run)
    proved: int = 0
    unsupported: str | None = None
    """Why the unrolling could not model the card file or rulings (no proof is then possible)."""


def _prove(game: Game, query: Query, opponent: Opponent, upto: int, caps: Caps, deadline: float,
           check_caps: bool) -> _Proof:
    """Unroll turn by turn up to `upto`, checking the target at each, until the deadline."""
    proof = _Proof()
    if upto < 1:
        return proof
    try:
        proof.run = bmc.search(game, unrolling_goal(query), upto, caps, check_caps=check_caps,
                               movement_free=opponent is Opponent.ANY, deadline=deadline)
    except UnsupportedCards as exc:
        proof.unsupported = str(exc)
        return proof
    for check in proof.run.checks:
        if check.status != "unsat":
            break
        proof.proved = check.bound
    return proof


def solve_query(game: Game, query: Query, opponent: Opponent = Opponent.ANY,
                timeout_s: float | None = DEFAULT_TIMEOUT_S, caps: Caps = DEFAULT_CAPS, check_caps: bool = True,
                hunt_settings: HuntSettings | None = None, use_hunt: bool = True, earliest: bool = True) -> Answer:
    """Answer one query with the hunt and the unrolling; a "yes" comes with a witness replayed in the engine.

    `earliest` False: stop at the hunt's witness instead of proving the turns before it impossible.
    """
    check_supported(query, opponent, game)
    started = time.perf_counter()
    budget = timeout_s if timeout_s is not None else float("inf")
    deadline = started + budget
    answer = Answer(query.kind, query.question, query.by_turn, "unknown", None, None,
                    assumptions(game, query, opponent, caps), goal=query.goal)
    target = state_target(query)
    upto = query.by_turn
    if use_hunt:
        found = hunt(game, target, progress_of(query), query.by_turn,
                     passive=opponent is Opponent.PASSIVE or query.side_is_company, settings=hunt_settings,
                     deadline=started + budget * HUNT_SHARE)
        answer.hunt = found
        if found.actions is not None:
            final = replay_actions(game, found.actions)
            if not target(final):
                raise AssertionError("a hunted witness did not meet its target on replay")
            answer.witness = Witness(found.actions, final)
            answer.witness_from = "hunt"
            answer.earliest = turn_reached(final)
            answer.status = "yes"
            upto = answer.earliest - 1 if earliest else 0
    abstract_proved = 0
    if not query.side_is_company:
        abstract_proved, note = prove_movement_question(game, query.goal, upto, deadline)
        if note is not None:
            answer.notes.append(note)
    if abstract_proved < upto:
        proof = _prove(game, query, opponent, upto, caps, deadline, check_caps and answer.status != "yes")
    else:
        proof = _Proof(bmc.Run(exact=True))  # the abstraction has no caps
    proof.proved = max(proof.proved, abstract_proved)
    run = proof.run
    answer.checks = run.checks
    answer.proved_none_by = proof.proved
    if proof.unsupported is not None:
        answer.notes.append(f"no proof is possible: the unrolling cannot model this card file or ruling "
                            f"({proof.unsupported}); only the hunt's witnesses answer")
    if run.found is not None and run.model is not None:
        answer.witness = replay(Tables.of(game), run.steps, run.model)
        answer.witness_from = "unrolling"
        answer.earliest = run.found
        answer.status = "yes"
        answer.exact = None
    elif answer.status == "yes" and not answer.earliest_exact:
        if earliest:
            answer.notes.append(f"earliest turn between {proof.proved + 1} and {answer.earliest}: turns up to "
                                f"{proof.proved} are proved impossible (within the caps), later ones were not "
                                "decided in time")
        else:
            answer.notes.append("earlier turns were not looked at (--no-earliest)")
    elif proof.proved == query.by_turn:
        answer.status = "no"
        answer.exact = run.exact
        if run.exact is False:
            answer.notes.append("a run within the bound can fill a turn's last play or buy slot and go on: "
                                "the 'no' holds for runs within the caps; raise --plays/--buys for a proof")
        elif run.exact is None and check_caps:
            answer.notes.append("the caps check did not finish: the 'no' holds for runs within the caps")
    elif answer.status != "yes" and proof.unsupported is None:
        last = run.checks[-1].bound if run.checks else 1
        answer.notes.append(f"unknown within {budget:g} s: no witness found, and turn {last} was not decided")
    answer.seconds = time.perf_counter() - started
    return answer


def solve(game: Game, kind: QueryKind, by_turn: int, opponent: Opponent = Opponent.ANY,
          timeout_s: float | None = DEFAULT_TIMEOUT_S, caps: Caps = DEFAULT_CAPS, check_caps: bool = True,
          goal: int | None = None, use_hunt: bool = True, earliest: bool = True) -> Answer:
    """`solve_query` for one kind (a convenience for the tests and benchmarks)."""
    return solve_query(game, Query(kind, by_turn, goal), opponent, timeout_s, caps, check_caps, use_hunt=use_hunt,
                       earliest=earliest)


def solve_goals(game: Game, by_turn: int, opponent: Opponent = Opponent.ANY,
                timeout_s: float | None = DEFAULT_TIMEOUT_S, caps: Caps = DEFAULT_CAPS,
                check_caps: bool = True, earliest: bool = True,
                progress: Callable[[int], None] | None = None) -> list[Answer]:
    """Every Goal of the card file: reachable by turn N or not, and the earliest turn (the budget is shared)."""
    numbers = sorted(int(g) for g in game.cards.goals)
    answers = []
    share = None if timeout_s is None else timeout_s / len(numbers)
    for number in numbers:
        answers.append(solve_query(game, Query(QueryKind.GOAL, by_turn, number), opponent, share, caps, check_caps,
                                   earliest=earliest))
        if progress is not None:
            progress(number)
    return answers

