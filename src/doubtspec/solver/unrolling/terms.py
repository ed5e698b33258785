"""Typed helpers over the Z3 Python API, so that the encoding never handles untyped values.

Z3 ships no type information; these protocols describe the two kinds of term the encoding
builds (integer and Boolean), and every Z3 call goes through a helper here that returns one of
them. Python integers and Booleans are accepted wherever a constant is meant.

Integers are signed bit-vectors of `WIDTH` bits: every quantity of the game is small (card
numbers, counts, Profit below the supply's limit), and bit-vectors let Z3 use its SAT-based
finite-domain solver, which is far faster on this encoding than linear integer arithmetic.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Sequence
from typing import Protocol, cast

import z3


class IntTerm(Protocol):
    """An integer-valued Z3 term."""

    def __add__(self, other: IntTerm | int, /) -> IntTerm: ...
    def __radd__(self, other: int, /) -> IntTerm: ...
    def __sub__(self, other: IntTerm | int, /) -> IntTerm: ...
    def __rsub__(self, other: int, /) -> IntTerm: ...
    def __mul__(self, other: IntTerm | int, /) -> IntTerm: ...
    def __rmul__(self, other: int, /) -> IntTerm: ...
    def __lt__(self, other: IntTerm | int, /) -> BoolTerm: ...
    def __le__(self, other: IntTerm | int, /) -> BoolTerm: ...
    def __gt__(self, other: IntTerm | int, /) -> BoolTerm: ...
    def __ge__(self, other: IntTerm | int, /) -> BoolTerm: ...


class BoolTerm(Protocol):
    """A Boolean-valued Z3 term."""

    def sexpr(self) -> str: ...


Int = IntTerm | int
Bool = BoolTerm | bool

WIDTH = 11
"""Bits of every integer term: signed values from -1024 to 1023, far beyond any quantity of the game."""


def ivar(name: str) -> IntTerm:
    return cast(IntTerm, z3.BitVec(name, WIDTH))


def bvar(name: str) -> BoolTerm:
    return cast(BoolTerm, z3.Bool(name))


def ival(value: int) -> IntTerm:
    return cast(IntTerm, z3.BitVecVal(value, WIDTH))


def bval(value: bool) -> BoolTerm:
    return cast(BoolTerm, z3.BoolVal(value))


TRUE = bval(True)
FALSE = bval(False)


def is_true(term: Bool) -> bool:
    """Whether `term` is literally true (no solving), so that trivial guards can be skipped."""
    return term is True or (not isinstance(term, bool) and z3.is_true(term))


def is_false(term: Bool) -> bool:
    return term is False or (not isinstance(term, bool) and z3.is_false(term))


LOC_WIDTH = 3
"""Bits of a card-location term (eight places)."""


def lvar(name: str) -> IntTerm:
    """A card-location variable (narrow: locations are compared and chosen, never added)."""
    return cast(IntTerm, z3.BitVec(name, LOC_WIDTH))


def lval(value: int) -> IntTerm:
    return cast(IntTerm, z3.BitVecVal(value, LOC_WIDTH))


def _like(value: Int, other: Int) -> IntTerm:
    """`value` as a term of `other`'s width when `value` is a Python integer."""
    if isinstance(value, int):
        if isinstance(other, int):
            return ival(value)
        return cast(IntTerm, z3.BitVecVal(value, other.size()))  # type: ignore[attr-defined]
    return value


def ite(cond: Bool, then: Int, other: Int) -> IntTerm:
    """`then` if `cond` else `other`, folded when the branches or the condition are trivial."""
    if is_true(cond):
        return _like(then, other)
    if is_false(cond):
        return _like(other, then)
    if same(then, other):
        return _like(then, other)
    return cast(IntTerm, z3.If(cond, _like(then, other), _like(other, then)))


def bite(cond: Bool, then: Bool, other: Bool) -> BoolTerm:
    if is_true(cond):
        return as_bool(then)
    if is_false(cond):
        return as_bool(other)
    if same(then, other):
        return as_bool(then)
    return cast(BoolTerm, z3.If(cond, then, other))


def as_int(value: Int) -> IntTerm:
    return ival(value) if isinstance(value, int) else value


def as_bool(value: Bool) -> BoolTerm:
    return bval(value) if isinstance(value, bool) else value


def same(a: Int | Bool, b: Int | Bool) -> bool:
    """Structural identity of two terms (no solving)."""
    if isinstance(a, bool | int) or isinstance(b, bool | int):
        if isinstance(a, bool | int) and isinstance(b, bool | int):
            return a == b and isinstance(a, bool) == isinstance(b, bool)
        return False
    return bool(z3.eq(a, b))


def and_(*terms: Bool) -> BoolTerm:
    kept = [t for t in terms if not is_true(t)]
    if any(is_false(t) for t in kept):
        return FALSE
    if not kept:
        return TRUE
    if len(kept) == 1:
        return as_bool(kept[0])
    return cast(BoolTerm, z3.And(*kept))


def or_(*terms: Bool) -> BoolTerm:
    kept = [t for t in terms if not is_false(t)]
    if any(is_true(t) for t in kept):
        return TRUE
    if not kept:
        return FALSE
    if len(kept) == 1:
        return as_bool(kept[0])
    return cast(BoolTerm, z3.Or(*kept))


def all_of(terms: Iterable[Bool]) -> BoolTerm:
    return and_(*terms)


def any_of(terms: Iterable[Bool]) -> BoolTerm:
    return or_(*terms)


def not_(term: Bool) -> BoolTerm:
    if is_true(term):
        return FALSE
    if is_false(term):
        return TRUE
    return cast(BoolTerm, z3.Not(term))


def implies(a: Bool, b: Bool) -> BoolTerm:
    if is_false(a) or is_true(b):
        return TRUE
    if is_true(a):
        return as_bool(b)
    return cast(BoolTerm, z3.Implies(a, b))


def eq(a: Int, b: Int) -> BoolTerm:
    if isinstance(a, int) and isinstance(b, int):
        return bval(a == b)
    return cast(BoolTerm, a == b)


def beq(a: Bool, b: Bool) -> BoolTerm:
    if isinstance(a, bool) and isinstance(b, bool):
        return bval(a == b)
    return cast(BoolTerm, a == b)


def ne(a: Int, b: Int) -> BoolTerm:
    return not_(eq(a, b))


def lt(a: Int, b: Int) -> BoolTerm:
    if isinstance(a, int) and isinstance(b, int):
        return bval(a < b)
    return as_int(a) < b


def le(a: Int, b: Int) -> BoolTerm:
    if isinstance(a, int) and isinstance(b, int):
        return bval(a <= b)
    return as_int(a) <= b


def count(terms: Iterable[Bool]) -> IntTerm:
    """How many of `terms` hold."""
    return wsum((t, 1) for t in terms)


def wsum(items: Iterable[tuple[Bool, int]]) -> IntTerm:
    """The sum of the weights whose condition holds (weights >= 0).

    Built as a balanced tree of adders, each only as wide as its largest possible value, so a
    count over sixty cards costs a few hundred clauses instead of sixty full-width adders.
    """
    leaves: list[tuple[object, int]] = []
    constant = 0
    for cond, weight in items:
        if weight <= 0 or is_false(cond):
            continue
        if is_true(cond):
            constant += weight
            continue
        width = weight.bit_length()
        leaves.append((z3.If(cond, z3.BitVecVal(weight, width), z3.BitVecVal(0, width)), weight))
    while len(leaves) > 1:
        paired: list[tuple[object, int]] = []
        for i in range(0, len(leaves) - 1, 2):
            (a, ma), (b, mb) = leaves[i], leaves[i + 1]
            top = ma + mb
            width = top.bit_length()
            paired.append((_widen(a, width) + _widen(b, width), top))  # type: ignore[operator]
        if len(leaves) % 2:
            paired.append(leaves[-1])
        leaves = paired
    if not leaves:
        return ival(constant)
    term, top = leaves[0]
    if top.bit_length() >= WIDTH:
        raise OverflowError(f"a sum up to {top} does not fit in {WIDTH} bits")
    total = cast(IntTerm, _widen(term, WIDTH))
    return total + constant if constant else total


def _widen(term: object, width: int) -> object:
    size = int(term.size())  # type: ignore[attr-defined]
    return term if size == width else z3.ZeroExt(width - size, term)


def set_width(bits: int) -> None:
    """Size every integer term for the quantities of one game (see `doubtspec.solver.unrolling.encoding.Tables`)."""
    global WIDTH
    WIDTH = bits


def isum(terms: Iterable[Int]) -> IntTerm:
    items = [t for t in terms if not (isinstance(t, int) and t == 0)]
    if not items:
        return ival(0)
    if len(items) == 1:
        return as_int(items[0])
    return cast(IntTerm, z3.Sum(*[as_int(t) for t in items]))


def imin(a: Int, b: Int) -> IntTerm:
    if isinstance(a, int) and isinstance(b, int):
        return ival(min(a, b))
    return ite(le(a, b), a, b)


def imax(a: Int, b: Int) -> IntTerm:
    if isinstance(a, int) and isinstance(b, int):
        return ival(max(a, b))
    return ite(le(a, b), b, a)


def idiv(a: Int, k: int, name: str) -> tuple[IntTerm, BoolTerm]:
    """`a // k` for a non-negative `a` and a constant `k`, with the constraint that defines it.

    A power of two is a shift; other divisors get a fresh quotient `name` bound by
    `k*q <= a < k*q + k`, which propagates far better than a bit-blasted divider.
    """
    if isinstance(a, int):
        return ival(a // k), TRUE
    if k & (k - 1) == 0:
        return cast(IntTerm, z3.LShR(a, k.bit_length() - 1)), TRUE
    q = ivar(name)
    # q <= a keeps k*q + k far from the bit-width's limit (no wrap-around can fake a quotient).
    return q, and_(le(0, q), le(q, a), le(k * q, a), lt(a, k * q + k))


def one_of(value: Int, choices: Sequence[int]) -> BoolTerm:
    return any_of(eq(value, c) for c in choices)


# --- solving --------------------------------------------------------------------------------


class Model:
    """A satisfying assignment, read through typed accessors."""

    def __init__(self, model: object) -> None:
        self._model = model

    def int(self, term: Int) -> builtins.int:
        if isinstance(term, int):
            return term
        value = self._model.eval(term, model_completion=True)  # type: ignore[attr-defined]
        return int(value.as_signed_long())

    def loc(self, term: Int) -> builtins.int:
        """A card-location term's value (unsigned)."""
        if isinstance(term, int):
            return term
        value = self._model.eval(term, model_completion=True)  # type: ignore[attr-defined]
        return int(value.as_long())

    def bool(self, term: Bool) -> builtins.bool:
        if isinstance(term, bool):
            return term
        value = self._model.eval(term, model_completion=True)  # type: ignore[attr-defined]
        return bool(z3.is_true(value))


class Solver:
    """One incremental Z3 solver with a per-check timeout."""

    def __init__(self, timeout_s: float | None = None, seed: int = 0) -> None:
        # QF_BV rather than QF_FD: on the shipped set it settles turn 3 in about 20 s every time, where the
        # finite-domain solver varied from 15 s to over 200 s between runs (measured; see docs/solver-measurements.md).
        self._solver = z3.SolverFor("QF_BV")
        self._solver.set("random_seed", seed)
        if timeout_s is not None:
            self._solver.set("timeout", max(1, int(timeout_s * 1000)))

    def add(self, *terms: Bool) -> None:
        for term in terms:
            if not is_true(term):
                self._solver.add(term)

    def check(self, *assumptions: Bool) -> str:
        """'sat', 'unsat' or 'unknown' (a timeout or an incomplete answer)."""
        result = self._solver.check(*[as_bool(a) for a in assumptions])
        return str(result)

    def model(self) -> Model:
        return Model(self._solver.model())

    def reason_unknown(self) -> str:
        return str(self._solver.reason_unknown())

    def push(self) -> None:
        self._solver.push()

    def pop(self) -> None:
        self._solver.pop()

    def set_timeout(self, timeout_s: float) -> None:
        self._solver.set("timeout", max(1, int(timeout_s * 1000)))


def is_atom(term: Int | Bool) -> bool:
    """A variable or a constant (nothing to name separately)."""
    if isinstance(term, bool | int):
        return True
    return bool(z3.is_const(term))
