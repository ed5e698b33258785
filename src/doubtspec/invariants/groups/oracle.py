"""The `oracle` invariants: a second, independent implementation of the rules judges the engine's steps.

The solver's transition encoding (`doubtspec.solver.unrolling.transition`) states the Company's turn and the
Movement's pass as Z3 constraints, written apart from the engine. For a step the fuzzer took, the
encoding must admit the engine's action (with its follow-ups, such as Doubt columns and draws, left
to Z3), and playing Z3's follow-ups through the engine must reach the encoding's successor, field
by field (`doubtspec.solver.unrolling.witness.run_step`). When the action needed no follow-up, that successor
is the engine's own.

A check costs a Z3 call (tens of milliseconds), so the machine runs it on sampled steps only: in
some examples, once, on the kind of action checked least so far (`machines.GameMachine`).
"""

from __future__ import annotations

from doubtspec.invariants.derived import at_rest
from doubtspec.invariants.shapes import Invariant, TransitionInvariant
from doubtspec.model.actions import (
    Action,
    Buy,
    BuySource,
    EndBuy,
    EndPlay,
    LobbyWhere,
    Pass,
    PlayReserve,
    PlayStandard,
    Unlobby,
)
from doubtspec.model.game import Game
from doubtspec.model.state import STATE_FIELDS, GameState, Phase
from doubtspec.rulebook import Section

S = Section

ORACLE_ACTIONS = (PlayStandard, PlayReserve, Unlobby, Buy, EndPlay, EndBuy, Pass)
"""The free actions the encoding states: the Company's whole turn and the Movement's pass."""


def _solver_agrees(before: GameState, action: Action, after: GameState) -> str | None:
    if not isinstance(action, ORACLE_ACTIONS) or not at_rest(before):
        return None
    if isinstance(action, Pass) is not (before.phase is Phase.MOVEMENT_TURN):
        return None
    # Imported here: the solver (and Z3) load only when an oracle check runs.
    from doubtspec.solver.unrolling.encoding import GOAL_TARGET_BASE, Tables, concrete
    from doubtspec.solver.unrolling.terms import TRUE, BoolTerm, Solver, and_, eq, not_
    from doubtspec.solver.unrolling.transition import Encoder, Kind, Step
    from doubtspec.solver.unrolling.witness import EncodingError, run_step

    tables = Tables.of(before.game)
    encoder = Encoder(tables)
    start = concrete(tables, before)
    step: Step
    match action:
        case Pass():
            step = encoder.movement_pass(start, before.round)
        case EndPlay():
            step = encoder.end_play(start, before.round)
        case EndBuy():
            step = encoder.end_buy(start, before.round)
        case Buy():
            step = encoder.buy_slot(start, before.round, 0, TRUE)
        case _:
            step = encoder.play_slot(start, before.round, 0, TRUE)
    fixed: list[BoolTerm] = []

    def pay_is(pay: tuple[int, ...]) -> None:
        for name, var in step.bools.items():
            if name.startswith("pay."):
                fixed.append(var if int(name[4:]) in pay else not_(var))

    match action:
        case PlayStandard(card=card, pay=pay):
            fixed += [eq(step.ints["kind"], Kind.STANDARD), eq(step.ints["card"], card)]
            pay_is(pay)
        case PlayReserve(card=card, pay=pay):
            fixed += [eq(step.ints["kind"], Kind.RESERVE), eq(step.ints["card"], card)]
            pay_is(pay)
        case Unlobby(where=where, index=index):
            target = index + (GOAL_TARGET_BASE if where is LobbyWhere.GOAL else 0)
            fixed += [eq(step.ints["kind"], Kind.UNLOBBY), eq(step.ints["unlobby"], target)]
        case Buy(source=source, index=index, pay=pay):
            pile = {BuySource.PILE: before.piles, BuySource.STACK: before.stacks}.get(source)
            card = pile[index][-1] if pile is not None else before.trash[index]
            fixed += [step.bools["buy"], eq(step.ints["card"], card)]
            pay_is(pay)
    solver = Solver(seed=0)
    for group in step.groups:
        solver.add(group.constraint)
    solver.add(and_(*fixed))
    if solver.check() != "sat":
        return f"the solver's encoding refuses {action}, which the engine took"
    trace: list[Action] = []
    try:
        reached = run_step(tables, step, solver.model(), before, trace)
    except EncodingError as exc:
        return f"the solver's encoding and the engine disagree on {action}: {exc}"
    if trace and trace[0] != action:
        return f"the encoding's step starts with {trace[0]}, not the engine's {action}"
    if len(trace) == 1 and reached != after:
        changed = [n for n in STATE_FIELDS if n != "game" and getattr(reached, n) != getattr(after, n)]
        return f"after {action} the encoding's successor differs from the engine's (fields {changed})"
    return None


def _encoding_refuses(game: Game) -> str | None:
    """Why the solver's encoding cannot model `game` (a card file or ruling outside it), or None when it can."""
    from doubtspec.solver.unrolling.encoding import Tables
    from doubtspec.solver.unrolling.transition import Encoder, UnsupportedCards

    try:
        Encoder(Tables.of(game))
    except UnsupportedCards as exc:
        return f"the solver cannot model this card file: {exc}"
    return None


INVARIANTS: tuple[Invariant, ...] = (
    TransitionInvariant("oracle.solver", "The solver's independent encoding of the rules admits each sampled step "
                        "of the Company's turn and the Movement's pass, and reaches the engine's successor.",
                        (S.COMPANY_ON_YOUR_GO, S.MOVEMENT_ON_YOUR_GO, S.RESHUFFLE_SEQUENCE), _solver_agrees,
                        unsupported=_encoding_refuses),
)
"""The `oracle.*` invariants, in the order they are checked and listed."""
