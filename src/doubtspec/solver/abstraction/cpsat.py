"""A second decision procedure for the abstraction's checks: OR-tools' CP-SAT on the same Z3 formulas.

Z3 builds every formula of the abstraction; on some of its checks (a star in round 3 of the stars
question) Z3's arithmetic search makes no progress for an hour while CP-SAT, whose clause learning
works over small integer domains with a linear relaxation beside it, answers in seconds. So a check
can be handed over: `translate` turns the quantifier-free linear integer formulas the abstraction
makes (Boolean connectives, `If`, sums, products with a constant, `<=`/`<`/`=`, integer division by a
positive constant) into a CP-SAT model, term by term, with each shared subterm translated once.

CP-SAT needs a finite domain for every integer, so a "no" of CP-SAT is a "no" of the formula only
when every solution of the formula lies inside the domains it was given. `Box` states that bound
for the counter abstraction, and `prove_box` proves it once per card file with Z3, by induction over
rounds: Set-Up lies in the box, and one round from any state in the box (with the system's proved
lemmas, and no mid-play reshuffle, which is the only way a turn's plays are unbounded: a zero-cost
draw card may loop through it) keeps every unknown of the round and the state after it in the box,
Profit growing by at most `Box.profit_step` a round. A check may be handed to CP-SAT only when each of
its rounds is proved to have no mid-play reshuffle, or when the shrink of looping plays (`loops`) is
proved and the box with it (`prove_box`'s `extra`), its bound then asserted in every round; and it has at
most `Box.max_rounds` rounds. The
domains of the auxiliary integers the translation makes (for `If` and division) are their operands'
ranges, worked out interval by interval.
A model CP-SAT finds is checked by Z3 on the original formulas before it is believed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, TypeAlias

import z3

from doubtspec.solver.abstraction.system import RoundSystem, StepTemplate
from doubtspec.solver.verdict import Budget

Interval = tuple[int, int]

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    LinearExpr: TypeAlias = cp_model.LinearExpr | int
    Literal: TypeAlias = cp_model.BoolVarT


def _cp_model() -> ModuleType:
    """OR-tools' CP-SAT module, imported on first use: it brings numpy and pandas (about half a second), which every
    command that never hands a check to CP-SAT (`cards`, `fuzz`, `simulate`) would otherwise pay at start-up."""
    from ortools.sat.python import cp_model

    return cp_model


class Untranslatable(ValueError):
    """The formula uses something outside the linear integer fragment this translation covers."""


@dataclass(frozen=True, slots=True)
class Box:
    """The domain every integer of the abstraction stays in, over at most `max_rounds` rounds."""

    counts: int = 60
    """Every state variable but Profit (cards per class and zone, Victims, stars, latches) lies in 0..counts."""
    unknowns: int = 1_000
    """Every unknown of a round lies in -unknowns..unknowns."""
    profit_step: int = 1_000
    """Profit grows by at most this much a round."""
    max_rounds: int = 24

    def profit_cap(self, rounds: int) -> int:
        """The most Profit held after `rounds` rounds (Set-Up's within `counts`)."""
        return self.counts + rounds * self.profit_step

    def domain(self, name: str, variables: frozenset[str]) -> Interval:
        """The domain of the unrolling's constant `name`: a state variable `<variable>@<round>` or an unknown."""
        base, _, suffix = name.rpartition("@")
        if base in variables and suffix.isdigit():
            if base == "profit":
                return 0, self.profit_cap(int(suffix))
            return 0, self.counts
        return -self.unknowns, self.unknowns


def prove_box(system: RoundSystem, template: StepTemplate, box: Box, budget: Budget,
              mid_reshuffle: z3.BoolRef | None, cap_s: float | None = None,
              extra: Sequence[z3.BoolRef] = (), cases: Sequence[Sequence[z3.BoolRef]] = ((),),
              chunks: int = 1) -> bool:
    """Prove by induction over rounds that every solution of the unrolled system stays in `box` (Z3; see the
    module's docstring), each of its checks within `budget` and `cap_s`. `mid_reshuffle` is the round's
    "a mid-play reshuffle happens" unknown in the template, assumed false (None if the card file has no draw
    effect, or to allow one). `extra` is asserted of the round as well: a box proved with it holds for the
    solutions that satisfy it in every round (`loops.LoopBounds`: the plays of the looping draw cards).

    `cases` split the step's check: one check per case, each with the case's formulas asserted of the round. The
    caller must give cases that cover every round (their disjunction valid), as `round_cases` does; the default
    is one case, the whole round.

    `chunks` splits each case's check once more: the ways out of the box (an unknown or a state variable outside its
    range) are asked in that many parts, one check each; the parts' disjunction is the whole, so all UNSAT is the
    case's UNSAT. Z3 settles the smaller disjunctions far sooner: the shipped set's two cases with a mid-play
    reshuffle took 38.5 CPU-seconds in one check each and 12.9 in eight parts each (32 parts: 21.2; 100: 47.4)."""
    first = system.state("@box0")
    base = z3.SolverFor("QF_LIA")
    base.add(system.init(first), z3.Or([z3.Or(v < 0, v > box.counts) for v in first.values()]))
    base.set("timeout", budget.z3_ms(cap_s))
    if base.check() != z3.unsat:
        return False
    pre, post = template.pre, template.post
    cap = box.profit_cap(box.max_rounds)
    inside = [z3.And(v >= 0, v <= (cap if name == "profit" else box.counts)) for name, v in pre.items()]
    outside = [z3.Or(term < -box.unknowns, term > box.unknowns) for term in template.fresh if z3.is_int(term)]
    outside += [z3.Or(v < 0, v > box.counts) for name, v in post.items() if name != "profit"]
    outside += [post["profit"] < 0, post["profit"] - pre["profit"] > box.profit_step]
    size = -(-len(outside) // max(1, chunks))
    for case in cases:
        for start in range(0, len(outside), size):
            step = z3.SolverFor("QF_LIA")
            step.add(template.formula, system.invariant(pre), *inside, *extra, *case,
                     z3.Or(outside[start:start + size]))
            if mid_reshuffle is not None:
                step.add(z3.Not(mid_reshuffle))
            step.set("timeout", budget.z3_ms(cap_s))
            if step.check() != z3.unsat:
                return False
    return True


def round_cases(template: StepTemplate) -> list[list[z3.BoolRef]]:
    """The round split on whether a Reshuffle Sequence runs and whether a mid-play reshuffle happens (each of the
    template's Boolean unknowns `sequence@step` and `midshuffle@step` that exists): the cases cover every round.
    The box with the looping plays bounded takes Z3 44 CPU-seconds in one check on the shipped set, 31 in these
    four (11 and 14 for the two with a mid-play reshuffle)."""
    flags = [term for term in template.fresh if z3.is_bool(term)
             and term.decl().name() in ("sequence@step", "midshuffle@step")]
    cases: list[list[z3.BoolRef]] = [[]]
    for flag in flags:
        cases = [[*case, value] for case in cases for value in (flag, z3.Not(flag))]
    return cases


def _kind(e: z3.ExprRef) -> int:
    """`e.decl().kind()` without the Python objects for the declaration (the translation asks it of every term)."""
    ref = e.ctx_ref()
    return int(z3.Z3_get_decl_kind(ref, z3.Z3_get_app_decl(ref, e.as_ast())))


def _children(e: z3.ExprRef) -> list[z3.ExprRef]:
    """`e.children()` for an application, without the checks `ExprRef.arg` repeats for each argument: the same
    terms in the same order, in about half the time (the translation of the star cut's CP-SAT ask spends most of its
    1.5 CPU-seconds in Z3's Python wrappers)."""
    ctx, ref, ast = e.ctx, e.ctx_ref(), e.as_ast()
    return [z3.z3._to_expr_ref(z3.Z3_get_app_arg(ref, ast, i), ctx) for i in range(z3.Z3_get_app_num_args(ref, ast))]


class Translation:
    """A CP-SAT model of a set of Z3 formulas, each integer constant in the domain `domain` gives its name."""

    def __init__(self, domain: Callable[[str], Interval]) -> None:
        self.model: cp_model.CpModel = _cp_model().CpModel()
        self.domain = domain
        self.ints: dict[str, cp_model.IntVar] = {}
        self.bools: dict[str, cp_model.IntVar] = {}
        # Keyed by Z3's term id, which is unique only while the term is alive: each entry keeps its term.
        self._terms: dict[int, tuple[z3.ExprRef, LinearExpr, Interval]] = {}
        self._literals: dict[int, tuple[z3.ExprRef, Literal]] = {}
        self._true: cp_model.IntVar = self.model.new_bool_var("true")
        self.model.add(self._true == 1)

    # --- integer terms, each with the range of its values ---

    def term(self, e: z3.ExprRef) -> tuple[LinearExpr, Interval]:
        found = self._terms.get(e.get_id())
        if found is None:
            found = (e, *self._term(e))
            self._terms[e.get_id()] = found
        return found[1], found[2]

    def _fresh(self, bounds: Interval) -> cp_model.IntVar:
        return self.model.new_int_var(bounds[0], bounds[1], "")

    def _term(self, e: z3.ExprRef) -> tuple[LinearExpr, Interval]:
        if z3.is_int_value(e):
            value = e.as_long()
            return value, (value, value)
        if z3.is_const(e):
            name = e.decl().name()
            if name not in self.ints:
                low, high = self.domain(name)
                self.ints[name] = self.model.new_int_var(low, high, name)
            return self.ints[name], self.domain(name)
        kind, children = _kind(e), _children(e)
        if kind in (z3.Z3_OP_ADD, z3.Z3_OP_SUB):
            parts = [self.term(c) for c in children]
            expr, (low, high) = parts[0]
            for other, (lo, hi) in parts[1:]:
                if kind == z3.Z3_OP_ADD:
                    expr, low, high = expr + other, low + lo, high + hi
                else:
                    expr, low, high = expr - other, low - hi, high - lo
            return expr, (low, high)
        if kind == z3.Z3_OP_UMINUS:
            expr, (low, high) = self.term(children[0])
            return -expr, (-high, -low)
        if kind == z3.Z3_OP_MUL:
            factor = 1
            others = []
            for c in children:
                if z3.is_int_value(c):
                    factor *= c.as_long()
                else:
                    others.append(c)
            if not others:
                return factor, (factor, factor)
            if len(others) > 1:
                raise Untranslatable(f"a product of unknowns: {e}")
            expr, (low, high) = self.term(others[0])
            ends = sorted((factor * low, factor * high))
            return factor * expr, (ends[0], ends[1])
        if kind == z3.Z3_OP_IDIV:
            if not z3.is_int_value(children[1]) or children[1].as_long() <= 0:
                raise Untranslatable(f"division by something other than a positive constant: {e}")
            k = children[1].as_long()
            expr, (low, high) = self.term(children[0])
            # Z3's integer division by a positive constant rounds down: k*q <= x <= k*q + k - 1.
            quotient = self._fresh((low // k, high // k))
            self.model.add(k * quotient <= expr)
            self.model.add(expr <= k * quotient + k - 1)
            return quotient, (low // k, high // k)
        if kind == z3.Z3_OP_ITE:
            condition = self.literal(children[0])
            then, (a_low, a_high) = self.term(children[1])
            other, (b_low, b_high) = self.term(children[2])
            bounds = (min(a_low, b_low), max(a_high, b_high))
            chosen = self._fresh(bounds)
            self.model.add(chosen == then).only_enforce_if(condition)
            self.model.add(chosen == other).only_enforce_if(condition.negated())
            return chosen, bounds
        raise Untranslatable(f"integer operation {e.decl()} in {e}")

    # --- Boolean terms, each as a literal that is true exactly when the term is ---

    def literal(self, e: z3.ExprRef) -> Literal:
        found = self._literals.get(e.get_id())
        if found is None:
            found = (e, self._literal(e))
            self._literals[e.get_id()] = found
        return found[1]

    def _reified(self, lhs: LinearExpr, relation: str, rhs: LinearExpr) -> Literal:
        b = self.model.new_bool_var("")
        if relation == "<=":
            self.model.add(lhs <= rhs).only_enforce_if(b)
            self.model.add(lhs >= rhs + 1).only_enforce_if(b.negated())
        else:
            self.model.add(lhs == rhs).only_enforce_if(b)
            self.model.add(lhs != rhs).only_enforce_if(b.negated())
        return b

    def _literal(self, e: z3.ExprRef) -> Literal:
        if z3.is_true(e):
            return self._true
        if z3.is_false(e):
            return self._true.negated()
        if z3.is_const(e):
            name = e.decl().name()
            if name not in self.bools:
                self.bools[name] = self.model.new_bool_var(name)
            return self.bools[name]
        kind, children = _kind(e), _children(e)
        if kind == z3.Z3_OP_NOT:
            return self.literal(children[0]).negated()
        if kind in (z3.Z3_OP_AND, z3.Z3_OP_OR):
            parts = [self.literal(c) for c in children]
            b = self.model.new_bool_var("")
            if kind == z3.Z3_OP_AND:
                self.model.add_bool_and(parts).only_enforce_if(b)
                self.model.add_bool_or([p.negated() for p in parts]).only_enforce_if(b.negated())
            else:
                self.model.add_bool_or(parts).only_enforce_if(b)
                self.model.add_bool_and([p.negated() for p in parts]).only_enforce_if(b.negated())
            return b
        if kind == z3.Z3_OP_IMPLIES:
            return self.literal(z3.Or(z3.Not(children[0]), children[1]))
        if kind == z3.Z3_OP_ITE:
            condition, then, other = children
            return self.literal(z3.Or(z3.And(condition, then), z3.And(z3.Not(condition), other)))
        if kind in (z3.Z3_OP_EQ, z3.Z3_OP_IFF) and z3.is_bool(children[0]):
            left, right = self.literal(children[0]), self.literal(children[1])
            same = self.model.new_bool_var("")
            self.model.add_bool_or([left.negated(), right]).only_enforce_if(same)
            self.model.add_bool_or([left, right.negated()]).only_enforce_if(same)
            self.model.add_bool_or([left, right]).only_enforce_if(same.negated())
            self.model.add_bool_or([left.negated(), right.negated()]).only_enforce_if(same.negated())
            return same
        if kind == z3.Z3_OP_DISTINCT and len(children) == 2:
            return self.literal(children[0] == children[1]).negated()
        comparison = self._comparison(e)
        if comparison is None:
            raise Untranslatable(f"Boolean operation {e.decl()} in {e}")
        lhs, relation, rhs = comparison
        return self._reified(lhs, relation, rhs)

    def _comparison(self, e: z3.ExprRef) -> tuple[LinearExpr, str, LinearExpr] | None:
        """An integer comparison as `lhs <= rhs` or `lhs == rhs`."""
        kind = _kind(e)
        if kind not in (z3.Z3_OP_EQ, z3.Z3_OP_LE, z3.Z3_OP_GE, z3.Z3_OP_LT, z3.Z3_OP_GT):
            return None
        left, right = (self.term(c)[0] for c in _children(e))
        match kind:
            case z3.Z3_OP_EQ:
                return left, "==", right
            case z3.Z3_OP_LE:
                return left, "<=", right
            case z3.Z3_OP_GE:
                return right, "<=", left
            case z3.Z3_OP_LT:
                return left + 1, "<=", right
            case _:
                return right + 1, "<=", left

    # --- assertions ---

    def add(self, e: z3.ExprRef) -> None:
        """Assert `e`: conjunctions split, comparisons and implications posted directly (no literal for them)."""
        kind, children = _kind(e), _children(e)
        if kind == z3.Z3_OP_AND:
            for c in children:
                self.add(c)
            return
        if kind == z3.Z3_OP_IMPLIES:
            self.model.add_bool_or([self.literal(children[1])]).only_enforce_if(self.literal(children[0]))
            return
        if kind == z3.Z3_OP_ITE and z3.is_bool(e):
            condition = self.literal(children[0])
            self.model.add_bool_or([self.literal(children[1])]).only_enforce_if(condition)
            self.model.add_bool_or([self.literal(children[2])]).only_enforce_if(condition.negated())
            return
        comparison = self._comparison(e) if not (kind == z3.Z3_OP_EQ and z3.is_bool(children[0])) else None
        if comparison is not None:
            lhs, relation, rhs = comparison
            self.model.add(lhs <= rhs if relation == "<=" else lhs == rhs)
            return
        self.model.add_bool_or([self.literal(e)])


@dataclass(frozen=True, slots=True)
class Result:
    answer: z3.CheckSatResult
    """`z3.sat`, `z3.unsat` or `z3.unknown`, as a Z3 check would answer."""
    seconds: float
    values: dict[str, int]


def decide(formulas: Sequence[z3.BoolRef], domain: Callable[[str], Interval], budget: Budget, cap_s: float,
           seed: int = 0, work_limit: float | None = None, linearization: int = 2) -> Result:
    """Decide the conjunction of `formulas` with each integer constant in `domain(its name)` (one CP-SAT worker).

    `cap_s` and the budget bound the wall time; `work_limit`, if given, bounds CP-SAT's deterministic time (its
    own count of work done, about half a CPU-second a unit here), which does not depend on the machine's load, so
    that a slice ends at the same point of the search on a busy machine as on a quiet one. `linearization`: CP-SAT's
    linearization level (2, the full linear relaxation, unless a caller measured better).

    SAT comes with the values of the formulas' constants, confirmed by Z3 on the formulas themselves (a
    model that Z3 rejects is reported as UNKNOWN: the translation, not the formula, would be at fault).
    """
    started = time.perf_counter()
    translation = _translated(formulas, domain)
    solver = _solver(budget, cap_s, seed, work_limit, linearization)
    status = solver.solve(translation.model)
    cp = _cp_model()
    if status == cp.INFEASIBLE:
        return Result(z3.unsat, time.perf_counter() - started, {})
    if status not in (cp.OPTIMAL, cp.FEASIBLE):
        return Result(z3.unknown, time.perf_counter() - started, {})
    values, confirmed = _confirmed(formulas, translation, solver)
    return Result(z3.sat if confirmed else z3.unknown, time.perf_counter() - started, values)


def _translated(formulas: Sequence[z3.BoolRef], domain: Callable[[str], Interval]) -> Translation:
    translation = Translation(domain)
    for formula in formulas:
        translation.add(formula)
    return translation


def _solver(budget: Budget, cap_s: float, seed: int, work_limit: float | None,
            linearization: int = 2) -> cp_model.CpSolver:
    """A CP-SAT solver with `decide`'s settings: one worker, the seed, the wall-time cap and the work limit."""
    solver: cp_model.CpSolver = _cp_model().CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed
    # The full linear relaxation: on the round-3 star fact 10-37 s over five seeds, against 13-30 s by default.
    solver.parameters.linearization_level = linearization
    solver.parameters.max_time_in_seconds = max(0.01, min(cap_s, budget.left()))
    if work_limit is not None:
        solver.parameters.max_deterministic_time = work_limit
    return solver


def _confirmed(formulas: Sequence[z3.BoolRef], translation: Translation,
               solver: cp_model.CpSolver) -> tuple[dict[str, int], bool]:
    """The solution's integer values, and whether Z3 confirms the whole solution on the formulas themselves."""
    values = {name: int(solver.value(v)) for name, v in translation.ints.items()}
    truths = {name: bool(solver.value(v)) for name, v in translation.bools.items()}
    check = z3.Solver()
    check.add(*formulas)
    check.add(*[z3.Int(n) == v for n, v in values.items()], *[z3.Bool(n) == t for n, t in truths.items()])
    return values, check.check() == z3.sat


@dataclass(frozen=True, slots=True)
class Maximum:
    """What CP-SAT proved about the largest value of a term: `at_most` (None: no bound proved) and the best value
    a confirmed solution reached (None: none found)."""

    at_most: int | None
    reached: int | None
    seconds: float
    optimal: bool


def maximize(formulas: Sequence[z3.BoolRef], objective: z3.ArithRef, domain: Callable[[str], Interval],
             budget: Budget, cap_s: float, seed: int = 0, work_limit: float | None = None,
             target: int | None = None) -> Maximum:
    """The largest value of `objective` over the solutions of `formulas` (each integer constant in `domain`), as
    far as CP-SAT gets within its limits (those of `decide`), or only down to `target`: a caller that needs no
    bound below it (the Profit cut's target, the bound the next turn is proved from) has the search stopped once
    CP-SAT's proved bound is at or below it, and `optimal` is then only what CP-SAT proved.

    CP-SAT's objective bound is an upper bound on every solution's value whatever the search's status (its
    "infeasible" with the objective below the bound asserted, the same trust as `decide`'s "no"); an infeasible
    model gives the bound minus one of every value, reported as `at_most` below `reached` = None. A value reached
    is believed only once Z3 confirms the solution on the formulas themselves."""
    started = time.perf_counter()
    translation = _translated(formulas, domain)
    term, _ = translation.term(objective)
    translation.model.maximize(term)
    solver = _solver(budget, cap_s, seed, work_limit)
    bounds: list[float] = []
    if target is not None:
        def stop_at_target(bound: float) -> None:
            bounds.append(bound)
            if bound <= target + 1e-6:
                solver.stop_search()

        solver.best_bound_callback = stop_at_target
    status = solver.solve(translation.model)
    seconds = time.perf_counter() - started
    cp = _cp_model()
    if status == cp.INFEASIBLE:
        return Maximum(-1, None, seconds, True)
    if status not in (cp.OPTIMAL, cp.FEASIBLE):
        # No solution found: a bound CP-SAT reported on the way (stopped at the target) still holds.
        return Maximum(int(min(bounds) + 1e-6) if bounds else None, None, seconds, False)
    bound = int(solver.best_objective_bound + 1e-6)
    _, confirmed = _confirmed(formulas, translation, solver)
    reached = int(solver.objective_value + 1e-6) if confirmed else None
    return Maximum(bound, reached, seconds, status == cp.OPTIMAL)
