"""The bounded unrolling and its incremental loop: one solver, one more round per bound.

Round N (ruling turn-numbering=round) is the Movement's Nth turn followed by the Company's Nth
turn. Its steps are: the Movement's pass (with the start of the Company's turn; with
`movement_free`, the Movement's free turn of `doubtspec.solver.unrolling.movement`), `plays` play
slots, the end of the Play Phase, `buys` buy slots, and the end of the Buy Phase with the Draw
Phase, the Reshuffle Sequence and Pacing. An outcome freezes the game: later steps change
nothing that a query reads.

The slots are caps: a turn with more plays or buys than slots is not in the unrolling. A "no" is
therefore checked for exactness: `cap_reached` asks whether any run within the bound fills a
turn's last slot and could still go on; if none can, the caps cut off no run and the "no" holds
for the game itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from doubtspec.model.game import Game
from doubtspec.solver.unrolling.encoding import Out, SymState, Tables, domain
from doubtspec.solver.unrolling.movement import encoder_for
from doubtspec.solver.unrolling.terms import (
    BoolTerm,
    Model,
    Solver,
    and_,
    any_of,
    bvar,
    eq,
    implies,
    is_atom,
    ivar,
    le,
    lvar,
    or_,
)
from doubtspec.solver.unrolling.transition import Step
from doubtspec.solver.verdict import OutOfTime

DEFAULT_PLAYS = 8
DEFAULT_BUYS = 4


@dataclass(frozen=True, slots=True)
class Caps:
    """Slots per Company turn in the unrolling."""

    plays: int = DEFAULT_PLAYS
    buys: int = DEFAULT_BUYS


Goal = Callable[[SymState], BoolTerm]
"""A query's target on the state at the end of a round."""


@dataclass(slots=True)
class BoundResult:
    """The answer at one bound: 'sat', 'unsat' or 'unknown', with the time it took."""

    bound: int
    status: str
    seconds: float


@dataclass(slots=True)
class Run:
    """The incremental loop's result: the first satisfiable bound (if any) and every check made."""

    checks: list[BoundResult] = field(default_factory=list)
    found: int | None = None
    model: Model | None = None
    steps: list[Step] = field(default_factory=list)
    exact: bool | None = None
    """For a "no": whether the caps provably cut off no run (None when not checked or unknown)."""
    cap_status: str | None = None


class Unrolling:
    """The transition system unrolled round by round into one incremental solver."""

    def __init__(self, game: Game, caps: Caps | None = None, timeout_s: float | None = None, seed: int = 0,
                 movement_free: bool = False, deadline: float | None = None) -> None:
        self.deadline = deadline
        """Building stops (`OutOfTime`) once `time.perf_counter()` passes this: formula building is charged too."""
        self.tables = Tables.of(game)
        self.movement_free = movement_free
        self.encoder = encoder_for(self.tables, movement_free)
        self.encoder.deadline = deadline
        self.caps = caps if caps is not None else Caps()
        self.solver = Solver(timeout_s, seed)
        self.steps: list[Step] = []
        self.round_end: list[SymState] = []
        self.cap_hits: list[BoolTerm] = []
        self._in_time("Set-Up")
        setup = self.encoder.setup()
        self._commit(setup)
        self.round_end.append(setup.after)

    @property
    def rounds(self) -> int:
        return len(self.round_end) - 1

    def _in_time(self, what: str) -> None:
        """Raise `OutOfTime` once the deadline has passed (checked before and after each step is built)."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTime(f"out of time while building {what}")

    def _commit(self, step: Step) -> None:
        """Add a step's clause groups and name its successor's non-trivial entries `name@label`."""
        self._in_time(step.label)
        for group in step.groups:
            self.solver.add(group.constraint)
        after = step.after.copy()
        fresh: list[BoolTerm] = []
        for name, term in step.after.i.items():
            if not is_atom(term):
                var = lvar(f"{name}@{step.label}") if name.startswith("loc.") else ivar(f"{name}@{step.label}")
                fresh.append(eq(var, term))
                after.i[name] = var
        for name, bterm in step.after.b.items():
            if not is_atom(bterm):
                bv = bvar(f"{name}@{step.label}")
                fresh.append(_beq(bv, bterm))
                after.b[name] = bv
        self.solver.add(*fresh)
        step.after = after
        self.steps.append(step)

    def add_round(self) -> SymState:
        """Unroll one more round; returns the state at its end."""
        enc = self.encoder
        r = self.rounds + 1
        s = self.round_end[-1]
        self._in_time(f"round {r}")
        step = enc.movement_turn(s, r) if self.movement_free else enc.movement_pass(s, r)
        self._commit(step)
        s = self._slots(step.after, r, self.caps.plays, enc.play_slot, enc.can_play_any)
        self._in_time(f"round {r}")
        step = enc.end_play(s, r)
        self._commit(step)
        s = self._slots(step.after, r, self.caps.buys, enc.buy_slot, enc.can_buy_any)
        self._in_time(f"round {r}")
        step = enc.end_buy(s, r)
        self._commit(step)
        self.round_end.append(step.after)
        self.solver.add(domain(self.tables, step.after))
        return step.after

    def _slots(self, s: SymState, r: int, count: int, slot: Callable[[SymState, int, int, BoolTerm], Step],
               can_go_on: Callable[[SymState], BoolTerm]) -> SymState:
        """Unroll one phase's `count` slots; record when its last slot is used and another could follow."""
        active: BoolTerm = eq(s.i["out"], int(Out.NONE))
        for k in range(count):
            self._in_time(f"round {r}")
            step = slot(s, r, k, active)
            self._commit(step)
            s = step.after
            active = step.active
        self.cap_hits.append(and_(active, eq(s.i["out"], int(Out.NONE)), can_go_on(s)))
        return s

    def check(self, goal: BoolTerm, label: str) -> str:
        """Check `goal` as an assumption (the solver keeps no trace of it)."""
        literal = bvar(f"goal:{label}")
        self.solver.add(implies(literal, goal))
        return self.solver.check(literal)

    def caps_can_bind(self) -> str:
        """Whether some run within the current bound fills a turn's last slot and could go on ('sat')."""
        return self.check(any_of(self.cap_hits), f"caps@{self.rounds}")


def _beq(a: BoolTerm, b: BoolTerm) -> BoolTerm:
    return and_(implies(a, b), implies(b, a))


Z3_LONGEST_S = 4_000_000.0
"""Z3 takes its timeout in milliseconds as a 32-bit number: an unlimited check is this long."""


def search(game: Game, goal: Goal, max_rounds: int, caps: Caps | None = None, timeout_s: float | None = None,
           first_round: int = 1, check_caps: bool = True, movement_free: bool = False,
           deadline: float | None = None) -> Run:
    """The incremental loop: add a round, check the goal at its end; the first "sat" is the earliest round.

    Goals are monotone in the bound (an outcome freezes the game), so "sat" at round N means the
    goal can hold by turn N and "unsat" at every round up to N means it cannot within N.
    `timeout_s` limits each check; `deadline` (a `time.perf_counter()` value) the whole loop: each
    check gets what is left, and a round reached after it is recorded as "unknown".
    """
    run = Run()
    try:
        unrolling = Unrolling(game, caps, timeout_s, movement_free=movement_free, deadline=deadline)
    except OutOfTime:
        run.checks.append(BoundResult(first_round, "unknown", 0.0))
        return run

    def time_left() -> bool:
        if deadline is None:
            return True
        left = deadline - time.perf_counter()
        if left > 0.001:
            unrolling.solver.set_timeout(min(left, timeout_s or Z3_LONGEST_S))
        return left > 0.001

    for r in range(1, max_rounds + 1):
        try:
            end = unrolling.add_round()
        except OutOfTime:
            run.checks.append(BoundResult(max(r, first_round), "unknown", 0.0))
            return run
        if r < first_round:
            continue
        if not time_left():
            run.checks.append(BoundResult(r, "unknown", 0.0))
            return run
        started = time.perf_counter()
        status = unrolling.check(goal(end), f"{r}")
        run.checks.append(BoundResult(r, status, time.perf_counter() - started))
        if status == "sat":
            run.found = r
            run.model = unrolling.solver.model()
            run.steps = list(unrolling.steps)
            return run
        if status == "unknown":
            return run
    if check_caps and time_left():
        run.cap_status = unrolling.caps_can_bind()
        run.exact = {"unsat": True, "sat": False}.get(run.cap_status)
    run.steps = list(unrolling.steps)
    return run


def out_is(*outs: Out) -> Goal:
    """A goal: the game ended with one of these outcomes."""
    def goal(state: SymState) -> BoolTerm:
        return or_(*(eq(state.i["out"], int(o)) for o in outs))
    return goal


def _movement_entry(state: SymState, name: str) -> None:
    """Refuse a Movement goal on a state vector without the Movement's side (or a Goal that does not exist)."""
    if "mpts" not in state.i:
        raise ValueError("Movement goals need the Movement's side of the state vector: unroll with movement_free=True")
    if name not in state.i and name not in state.b:
        raise ValueError(f"no entry {name!r} in the state vector (Goals are numbered 1 to 9)")


def goal_achieved(goal_number: int) -> Goal:
    """A goal: the Goal card numbered G`goal_number` has been achieved (needs movement_free)."""
    def goal(state: SymState) -> BoolTerm:
        _movement_entry(state, f"ach.{goal_number}")
        return state.b[f"ach.{goal_number}"]
    return goal


def points_at_least(points: int) -> Goal:
    """A goal: the Movement has scored at least `points` Goal points (needs movement_free)."""
    def goal(state: SymState) -> BoolTerm:
        _movement_entry(state, "mpts")
        return le(points, state.i["mpts"])
    return goal
