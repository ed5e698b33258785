"""The invariant catalog: every property the fuzzer, the replayer and the reports check, in one place.

Each invariant is a pure predicate with an id, a one-line statement and the rulebook sections it
protects. A check returns None when the property holds and a violation message otherwise. Four
shapes exist, by what a check looks at (`doubtspec.invariants.shapes`):

* `StateInvariant`: one state;
* `TransitionInvariant`: a state, the action applied to it and the successor;
* `TraceInvariant`: a whole game from Set-Up (its actions and the state they reached);
* `ProbeInvariant`: a state and an illegal action built for it, which the engine must reject.

An invariant's id is `<group>.<name>`, and each group lives in its own module,
`doubtspec.invariants.groups.<group>` (`doubtspec fuzz --list` shows the ids).

The checks recompute what they need from the card data and the rulebook instead of calling the
engine's rule functions, so that a broken rule function cannot hide its own breakage (see
`doubtspec.invariants.mutants`). The engine's public API (`doubtspec.model.engine`) is called only
by the engine contracts (legality, purity, replay, liveness) and by the what-if checks, which ask
the engine about a copy of the state changed to a rare situation.

`CATALOG` is the one tuple that every consumer reads.
"""

from __future__ import annotations

from collections.abc import Sequence

from doubtspec.invariants.derived import buy_costs, can_buy, can_play, forget, goal_points, hand_limit, legal, loopholes
from doubtspec.invariants.groups import (
    ban,
    cards,
    contract,
    doubt,
    hand,
    liveness,
    lobby,
    oracle,
    outcome,
    reject,
    rule,
    rulings,
    scoring,
    tableau,
    tokens,
)
from doubtspec.invariants.shapes import (
    Invariant,
    ProbeInvariant,
    StateInvariant,
    Trace,
    TraceInvariant,
    TransitionInvariant,
)
from doubtspec.model.game import Game

__all__ = [
    "BY_ID", "CATALOG", "Invariant", "ProbeInvariant", "StateInvariant", "Trace", "TraceInvariant",
    "TransitionInvariant", "buy_costs", "can_buy", "can_play", "checkable", "forget", "goal_points", "hand_limit",
    "legal", "loopholes", "select",
]

CATALOG: tuple[Invariant, ...] = (
    *tokens.INVARIANTS,
    *cards.INVARIANTS,
    *rulings.INVARIANTS,
    *hand.INVARIANTS,
    *tableau.INVARIANTS,
    *doubt.INVARIANTS,
    *lobby.INVARIANTS,
    *ban.INVARIANTS,
    *scoring.INVARIANTS,
    *outcome.INVARIANTS,
    *rule.INVARIANTS,
    *contract.INVARIANTS,
    *liveness.INVARIANTS,
    *reject.INVARIANTS,
    *oracle.INVARIANTS,
)
"""Every invariant, in the order they are checked and listed (cheap state checks first)."""

BY_ID: dict[str, Invariant] = {inv.id: inv for inv in CATALOG}
assert len(BY_ID) == len(CATALOG), "invariant ids must be unique"

NO_CRASH = BY_ID["contract.no-crash"]
"""The invariant an engine step that raises breaks: named by the machines and by a report's replay alike."""


def select(ids: Sequence[str] | None) -> tuple[Invariant, ...]:
    """The invariants named by `ids` (exact ids or a group such as `tokens`); all of them for none.

    Raises `OptionError` naming the unknown id and the known ones.
    """
    from doubtspec.errors import OptionError

    if not ids:
        return CATALOG
    chosen: list[Invariant] = []
    for wanted in ids:
        matches = [inv for inv in CATALOG if inv.id == wanted or inv.id.split(".")[0] == wanted]
        if not matches:
            groups = sorted({inv.id.split(".")[0] for inv in CATALOG})
            raise OptionError(f"unknown invariant {wanted!r}; known groups: {', '.join(groups)} "
                              "(see `doubtspec fuzz --list`)", field="--invariant")
        chosen.extend(inv for inv in matches if inv not in chosen)
    return tuple(inv for inv in CATALOG if inv in chosen)


def checkable(game: Game, invariants: tuple[Invariant, ...]) -> tuple[tuple[Invariant, ...], dict[str, str]]:
    """The invariants of `invariants` that can check games of `game`, and why each other one cannot.

    An invariant that cannot (`Invariant.unsupported`: the solver's oracle on a card file the solver does not
    model) is left out of a run and named in its summary, never failed and never skipped without a word.
    """
    reasons = {inv.id: reason for inv in invariants
               if inv.unsupported is not None and (reason := inv.unsupported(game)) is not None}
    return tuple(inv for inv in invariants if inv.id not in reasons), reasons
