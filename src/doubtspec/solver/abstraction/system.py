"""An abstract transition system over Z3 integers, one transition per round, and two ways to check it.

A `RoundSystem` is what an abstraction of the game gives the provers:

    variables   the names of its integer state variables (counts of cards per zone, points, flags 0/1)
    init        a formula over the state before round 1 (every Set-Up the abstraction admits)
    step        a formula over (pre, post, fresh, round): one whole round, the Movement's turn and then
                the Company's; `fresh` makes the round's own integer or Boolean unknowns (counts of
                plays, ...), and `round` is the round being played (1, 2, ...) as a Z3 integer term
    target      a formula over a state: the question's target has been reached (keep it latched in a
                state variable if it can happen mid-round)
    lemmas      invariants of the system (`Lemma`), each proved by `prove_lemma` before it is used;
                a proved lemma is asserted on every state, which prunes both provers

Two checks, both sound for "no" whenever the system over-approximates the game:

    RoundBmc(system).check(k, budget)      incremental bounded check: is the target reachable by the
                                           end of round k? One solver, one more round per call;
                                           the formula grows linearly in k. `trace()` gives the
                                           model's states after a "possible".
    spacer_check(system, k, budget)        Z3's Spacer (constrained Horn clauses, IC3/PDR) over the
                                           system with a round counter: "not by round k" (k=None:
                                           never); an unbounded proof, whose cost does not grow
                                           with the unrolled length.
    prove_lemma(system, lemma, budget, k)  k-induction: the lemma holds after Set-Up and in the k
                                           first rounds, and k rounds that keep it keep it after
                                           one more.

Each returns a `TurnVerdict`; UNKNOWN is a timeout (the budget's milliseconds go to Z3) or a
solver "unknown". POSSIBLE from these is a possibility of the abstraction, not a game run.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import z3

from doubtspec.solver.verdict import Budget, OutOfTime, TurnVerdict

State = Mapping[str, z3.ArithRef]
"""A state: each state variable's Z3 integer term."""


class Fresh:
    """Makes the unknowns of one round; names are made unique per round (BMC) or declared (Spacer).

    With a `deadline` (a `time.perf_counter()` value), making an unknown after it raises
    `OutOfTime`: building a round's formula is charged to the question's budget.
    """

    def __init__(self, suffix: str, deadline: float | None = None) -> None:
        self.suffix = suffix
        self.deadline = deadline
        self.made: list[z3.ExprRef] = []

    def _in_time(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTime("out of time while building a round of the abstraction")

    def int(self, name: str) -> z3.ArithRef:
        self._in_time()
        term = z3.Int(f"{name}{self.suffix}")
        self.made.append(term)
        return term

    def bool(self, name: str) -> z3.BoolRef:
        self._in_time()
        term = z3.Bool(f"{name}{self.suffix}")
        self.made.append(term)
        return term


StepFormula = Callable[[State, State, Fresh, z3.ArithRef], z3.BoolRef]
StateFormula = Callable[[State], z3.BoolRef]


@dataclass(frozen=True, slots=True)
class Lemma:
    """A claimed invariant of a system: `holds(state)` after Set-Up and after every round."""

    name: str
    holds: StateFormula
    why: str = ""
    """One line: what the lemma says in the game's words."""


@dataclass(frozen=True, slots=True)
class RoundSystem:
    """An abstract transition system whose one transition is one whole round."""

    name: str
    variables: tuple[str, ...]
    init: StateFormula
    step: StepFormula
    target: StateFormula
    lemmas: tuple[Lemma, ...] = ()
    """Lemmas to assert on every state: only proved ones (see `with_proved_lemmas`)."""
    at_round: Callable[[State, int, str], z3.BoolRef] | None = None
    """What round r adds to its step when the round's number is known (state before it, r, the round's suffix
    for its unknowns): bounds that depend on the round, asserted where rounds are unrolled from Set-Up with
    their numbers. Left out elsewhere (induction steps, Spacer), which only admits more."""

    def state(self, suffix: str) -> dict[str, z3.ArithRef]:
        return {name: z3.Int(f"{name}{suffix}") for name in self.variables}

    def with_lemmas(self, lemmas: Sequence[Lemma]) -> RoundSystem:
        return RoundSystem(self.name, self.variables, self.init, self.step, self.target, tuple(lemmas),
                           self.at_round)

    def numbered(self, pre: State, round_number: int, suffix: str) -> z3.BoolRef:
        """`at_round` for round `round_number` (True when the system has none)."""
        return self.at_round(pre, round_number, suffix) if self.at_round is not None else z3.BoolVal(True)

    def invariant(self, state: State) -> z3.BoolRef:
        return z3.And([lemma.holds(state) for lemma in self.lemmas]) if self.lemmas else z3.BoolVal(True)


@dataclass(frozen=True, slots=True)
class StepTemplate:
    """One round's formula built once through z3py, copied per use by substitution (in Z3's C code)."""

    pre: dict[str, z3.ArithRef]
    post: dict[str, z3.ArithRef]
    fresh: tuple[z3.ExprRef, ...]
    turn: z3.ArithRef
    formula: z3.BoolRef

    def instance(self, pre: State, post: State, suffix: str, turn: z3.ArithRef) -> z3.BoolRef:
        """The round from `pre` to `post` (its own unknowns renamed with `suffix`) as round `turn`."""
        pairs: list[tuple[z3.ExprRef, z3.ExprRef]] = [(self.turn, turn)]
        pairs += [(self.pre[name], pre[name]) for name in self.pre]
        pairs += [(self.post[name], post[name]) for name in self.post]
        for term in self.fresh:
            name = term.decl().name().removesuffix("@step") + suffix
            pairs.append((term, z3.Const(name, term.sort())))
        return z3.substitute(self.formula, *pairs)


_TEMPLATES: dict[tuple[int, tuple[str, ...]], tuple[StepFormula, StepTemplate]] = {}


def template_of(system: RoundSystem, budget: Budget | None = None) -> StepTemplate:
    """The system's round formula, built once per step function (lemmas do not change it).

    Raises `OutOfTime` if the budget ends while it is being built.
    """
    key = (id(system.step), system.variables)
    cached = _TEMPLATES.get(key)
    if cached is not None and cached[0] is system.step:
        return cached[1]
    pre = system.state("@pre")
    post = system.state("@post")
    fresh = Fresh("@step", None if budget is None else budget.working_end)
    turn = z3.Int("__round@step")
    formula = system.step(pre, post, fresh, turn)
    # A round's own unknown is renamed `<name>@k` per round, as state k's variables are: one named like
    # a state variable would be the same Z3 constant as that variable and silently constrain it.
    clashes = {term.decl().name().removesuffix("@step") for term in fresh.made} & set(system.variables)
    if clashes:
        raise ValueError(f"{system.name}: round unknowns named like state variables: {sorted(clashes)}")
    template = StepTemplate(pre, post, tuple(fresh.made), turn, formula)
    if len(_TEMPLATES) > 32:
        _TEMPLATES.clear()
    _TEMPLATES[key] = (system.step, template)
    return template


def _verdict(result: z3.CheckSatResult) -> TurnVerdict:
    if result == z3.unsat:
        return TurnVerdict.IMPOSSIBLE
    if result == z3.sat:
        return TurnVerdict.POSSIBLE
    return TurnVerdict.UNKNOWN


@dataclass(slots=True)
class RoundBmc:
    """Incremental bounded model checking of a `RoundSystem`: one solver, one more round per bound.

    The round's formula is built once through z3py and then copied per round by substitution (in
    Z3's C code), so adding a round costs milliseconds and the budget is checked between rounds.
    """

    system: RoundSystem
    solver: z3.Solver = field(init=False)
    states: list[dict[str, z3.ArithRef]] = field(init=False)
    rounds: list[z3.BoolRef] = field(init=False)
    """Set-Up's formula, then each round's: what the solver holds besides the queries' own assertions."""
    model: z3.ModelRef | None = field(init=False, default=None)
    _template: StepTemplate | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.solver = z3.Solver()
        first = self.system.state("@0")
        self.states = [first]
        self.rounds = [z3.And(self.system.init(first), self.system.invariant(first))]
        self.solver.add(self.rounds[0])

    def extend(self, rounds: int, budget: Budget | None = None) -> bool:
        """Unroll up to `rounds`; False if the budget ran out first."""
        if self._template is None:
            try:
                self._template = template_of(self.system, budget)
            except OutOfTime:
                return False
        while len(self.states) <= rounds:
            if budget is not None and budget.expired():
                return False
            k = len(self.states)
            post = self.system.state(f"@{k}")
            self.rounds.append(z3.And(self._template.instance(self.states[-1], post, f"@{k}", z3.IntVal(k)),
                                      self.system.numbered(self.states[-1], k, f"@{k}"),
                                      self.system.invariant(post)))
            self.solver.add(self.rounds[-1])
            self.states.append(post)
        return True

    def check(self, rounds: int, budget: Budget, seed: int | None = None, cap_s: float | None = None) -> TurnVerdict:
        """Is the target reachable at the end of some round 0..`rounds`? (0: at Set-Up.)

        `seed` sets Z3's random seed for this check and `cap_s` limits its time: Z3's time on these
        problems varies by an order of magnitude with the seed, so a caller may restart with another.
        """
        self.model = None
        if not self.extend(rounds, budget):
            return TurnVerdict.UNKNOWN
        goal = z3.Bool(f"__target_by@{rounds}")
        self.solver.add(z3.Implies(goal, z3.Or([self.system.target(s) for s in self.states[: rounds + 1]])))
        if seed is not None:
            self.solver.set("random_seed", seed)
        self.solver.set("timeout", budget.z3_ms(cap_s))
        result = self.solver.check(goal)
        self.model = self.solver.model() if result == z3.sat else None
        return _verdict(result)

    def trace(self) -> list[dict[str, int]]:
        """The last "possible" model's states, round by round (values of every state variable)."""
        if self.model is None:
            return []
        model = self.model
        return [{name: model.eval(term, model_completion=True).as_long() for name, term in s.items()}
                for s in self.states]


@dataclass(frozen=True, slots=True)
class SpacerResult:
    verdict: TurnVerdict
    seconds: float
    invariant: str | None = None
    """Spacer's inductive invariant for an IMPOSSIBLE (its text), for the record."""


def spacer_check(system: RoundSystem, rounds: int | None, budget: Budget) -> SpacerResult:
    """Is the target reachable by the end of round `rounds` (None: ever)? Unbounded IC3/PDR in Z3's Spacer."""
    started = time.perf_counter()
    if not budget.can_start():
        return SpacerResult(TurnVerdict.UNKNOWN, 0.0)
    fp = z3.Fixedpoint()
    fp.set(engine="spacer")
    fp.set("timeout", budget.z3_ms())
    try:
        template = template_of(system, budget)
    except OutOfTime:
        return SpacerResult(TurnVerdict.UNKNOWN, time.perf_counter() - started)
    pre = template.pre
    post = template.post
    turn = z3.Int("__round")
    sorts = [z3.IntSort()] * (len(system.variables) + 1) + [z3.BoolSort()]
    reach = z3.Function(f"reach_{system.name}", *sorts)
    fp.register_relation(reach)
    step = template.instance(pre, post, "@step", turn + 1)
    start = system.init(pre)
    target = system.target(pre)
    # Every constant of a rule is a variable of that rule (Set-Up's own unknowns included).
    fp.declare_var(*constants([start, step, target, system.invariant(pre), system.invariant(post)],
                              [turn, *pre.values(), *post.values(), *template.fresh]))

    def at(state: State, round_term: z3.ArithRef) -> z3.BoolRef:
        return reach(*[state[name] for name in system.variables], round_term)

    fp.rule(at(pre, z3.IntVal(0)), [start, system.invariant(pre)])
    fp.rule(at(post, turn + 1), [at(pre, turn), system.invariant(pre), step, system.invariant(post)])
    query = [at(pre, turn), target]
    if rounds is not None:
        query.append(turn <= rounds)
    goal = z3.Bool(f"__goal_{system.name}")
    fp.register_relation(goal.decl())
    fp.rule(goal, query)
    try:
        result = fp.query(goal)
    except z3.Z3Exception:
        return SpacerResult(TurnVerdict.UNKNOWN, time.perf_counter() - started)
    invariant = None
    if result == z3.unsat:
        try:
            invariant = str(fp.get_answer())
        except z3.Z3Exception:
            invariant = None
    return SpacerResult(_verdict(result), time.perf_counter() - started, invariant)


def constants(formulas: Sequence[z3.ExprRef], known: Sequence[z3.ExprRef] = ()) -> list[z3.ExprRef]:
    """`known` and every other uninterpreted constant of `formulas`, each once."""
    found: dict[int, z3.ExprRef] = {term.get_id(): term for term in known}
    seen: set[int] = set()
    todo = list(formulas)
    while todo:
        term = todo.pop()
        if term.get_id() in seen:
            continue
        seen.add(term.get_id())
        if z3.is_const(term) and term.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            found.setdefault(term.get_id(), term)
        todo.extend(term.children())
    return list(found.values())


def prove_lemma(system: RoundSystem, lemma: Lemma, budget: Budget, k: int = 1) -> TurnVerdict:
    """k-induction of `lemma` over `system` (whose own proved lemmas may be assumed).

    IMPOSSIBLE means "no counterexample": the lemma is proved. POSSIBLE means a counterexample to
    the base or to the step (the lemma may still hold, but it is not proved; do not use it).
    """
    if not budget.can_start():
        return TurnVerdict.UNKNOWN
    try:
        template = template_of(system, budget)
    except OutOfTime:
        return TurnVerdict.UNKNOWN
    solver = z3.SolverFor("QF_LIA")
    states = [system.state("@0")]
    for i in range(1, k + 1):
        states.append(system.state(f"@{i}"))
    # Base: from Set-Up, the lemma holds at rounds 0..k-1.
    solver.push()
    solver.add(system.init(states[0]), system.invariant(states[0]))
    for i in range(1, k):
        solver.add(template.instance(states[i - 1], states[i], f"@{i}", z3.IntVal(i)),
                   system.numbered(states[i - 1], i, f"@{i}"), system.invariant(states[i]))
    solver.add(z3.Or([z3.Not(lemma.holds(s)) for s in states[:k]]))
    solver.set("timeout", budget.z3_ms())
    base = solver.check()
    solver.pop()
    if base != z3.unsat:
        return _verdict(base) if base == z3.sat else TurnVerdict.UNKNOWN
    # Step: k consecutive rounds (from any round number >= 1) keeping the lemma keep it after one more.
    start = z3.Int("__start")
    solver.add(start >= 1)
    for i in range(1, k + 1):
        solver.add(template.instance(states[i - 1], states[i], f"@{i}", start + (i - 1)),
                   system.invariant(states[i - 1]), system.invariant(states[i]))
    solver.add(*[lemma.holds(s) for s in states[:k]], z3.Not(lemma.holds(states[k])))
    solver.set("timeout", budget.z3_ms())
    return _verdict(solver.check())


def proved_lemmas(system: RoundSystem, candidates: Sequence[Lemma], budget: Budget,
                  k: int = 1) -> tuple[list[Lemma], list[tuple[Lemma, TurnVerdict]]]:
    """Prove `candidates` in order, each assuming the ones proved before it; returns (proved, rejected)."""
    proved: list[Lemma] = list(system.lemmas)
    rejected: list[tuple[Lemma, TurnVerdict]] = []
    for lemma in candidates:
        verdict = prove_lemma(system.with_lemmas(proved), lemma, budget, k) if budget.can_start() \
            else TurnVerdict.UNKNOWN
        if verdict is TurnVerdict.IMPOSSIBLE:
            proved.append(lemma)
        else:
            rejected.append((lemma, verdict))
    return proved, rejected
