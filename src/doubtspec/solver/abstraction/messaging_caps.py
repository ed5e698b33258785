"""Lower one-action Messaging figures for `messaging.MessagingBounds`, proved on the Movement's own abstraction.

`MessagingBounds` derives the Messaging one action of turn t can spend from the card file alone, adding up the
most of every source (tokens from Bonuses, Passive Abilities and Goals, icons of the best cards) as if nothing
had to be paid for. On the shipped set and `tests/data/large.toml` that gives 7 for turn 3, enough to pay Middle
Age's Set-Up Doubt (3) and remove one Victim, which is what an abstract run of the Company needed for a star
after round 3 (Middle Age scores 2 of 2 Victims but only 1 of 3: Reshuffle Sequence, A. Scoring Demographics).

The Movement's abstraction (`movement.MovementModel`) follows Influence, the cards bought, placed, flipped and
refreshed, the Goals and the tokens round by round, and admits every round the engine plays (checked in the
Movement's abstraction tests). In it, the Victims a Messaging action removes are at most the face-up Messaging
icons left after paying for the space plus the Messaging tokens held (Doubt is left out there, so every
Messaging of the action may go to Victims). So if no run of it removes v Victims in round t, no game has an
action of turn t with v Messaging: the figure for turn t is at most v - 1. Pacing after round 1 is excluded
only where `movement_pacing` proves that the Company cannot reshuffle in its first Draw Phase.

Only the figures that decide whether a Zone is closed (`MessagingBounds.closed`) are asked: for round t and a
Zone whose dearest Set-Up Doubt token no earlier action can pay, "can turn t's action have that cost plus one?".
On both files that is one check (turn 3, Middle Age and Elderly: cost 3), refuted in about 3-4 CPU-seconds in a Z3
context of its own (5-6 in the context the star cut had filled).
"""

from __future__ import annotations

import z3

from doubtspec.model.game import Game
from doubtspec.solver.abstraction import proof_cache
from doubtspec.solver.abstraction.messaging import ZONES, MessagingBounds
from doubtspec.solver.abstraction.movement import MovementModel
from doubtspec.solver.abstraction.movement_pacing import first_pacing_round
from doubtspec.solver.abstraction.system import Fresh
from doubtspec.solver.verdict import Budget

CAP_RLIMIT = 200_000_000
"""Z3's resource count for each check (about 5 CPU-seconds' worth is what the refutation of turn 3 takes: see
`tests/test_solver_messaging.py`); a check cut off by it caps nothing."""
CAP_WALL_S = 30.0
LEMMA = "movement-messaging-caps"
"""The name, among the lemmas an answer used, of caps proved here."""


def candidates(bounds: MessagingBounds, rounds: int) -> list[tuple[int, int]]:
    """(round t, least Messaging an action of turn t needs to open a Zone) for the Zones a lower figure would close
    in rounds 1..`rounds`: those no earlier action can open and turn t's action may, dearest first per round."""
    asked: list[tuple[int, int]] = []
    for t in range(1, min(rounds, len(bounds.action)) + 1):
        before = max(bounds.action[: t - 1], default=0)
        needs = sorted({bounds.costliest[z] + 1 for z in ZONES
                        if bounds.costliest[z] > before and bounds.action[t - 1] >= bounds.costliest[z] + 1},
                       reverse=True)
        asked += [(t, v) for v in needs]
    return asked


def prove_caps(game: Game, bounds: MessagingBounds, rounds: int, budget: Budget,
               stored_only: bool = False) -> dict[int, int]:
    """Round t to a proved upper bound on the Messaging of one action of turn t, for the candidates of rounds
    1..`rounds` that the Movement's abstraction refutes (rounds unrolled from its Set-Up, one solver).
    `stored_only`: make no check, only take the refutations kept from earlier questions (`proof_cache`)."""
    asked = candidates(bounds, rounds)
    caps: dict[int, int] = {}
    if not asked or (stored_only and proof_cache.directory() is None):
        return caps  # nothing to ask, or only the store to ask and it is switched off (the formulas cost 0.5 s)
    lemma = first_pacing_round(game)
    model = MovementModel(game, first_pacing_round=lemma.first_round)
    last = max(t for t, _ in asked)
    system = model.system("movement_messaging", lambda s: z3.BoolVal(True))
    states = [system.state(f"@{i}") for i in range(last + 1)]
    formulas = [model.init(states[0])]
    formulas += [model.step(states[r - 1], states[r], Fresh(f"@{r}"), z3.IntVal(r)) for r in range(1, last + 1)]
    open_rounds: set[int] = set()
    for t, needed in asked:
        if t in open_rounds or not budget.can_start():
            continue  # a dearer need of this round was not refuted: a cheaper one is not either
        claim = z3.Int(f"victims@{t}") >= needed
        # the same check on the same formulas was refuted before: kept (`proof_cache`), not made again
        problem = proof_cache.key_when_on("messaging-cap", [*formulas, claim])
        if proof_cache.known_unsat(problem):
            caps[t] = needed - 1
            continue
        if stored_only:
            open_rounds.add(t)
            continue
        # In a context of its own: the same formulas, copied, without the terms of every check made before in the
        # process (after the star cut's Z3 part the check took 4.5-5.9 CPU-seconds in the shared context, 3.0-4.1
        # in a fresh one; docs/solver-measurements.md).
        context = z3.Context()
        solver = z3.SolverFor("QF_LIA", ctx=context)
        solver.add(*[formula.translate(context) for formula in formulas])
        solver.set("timeout", budget.z3_ms(CAP_WALL_S))
        solver.set("rlimit", CAP_RLIMIT)
        if solver.check(claim.translate(context)) == z3.unsat:
            caps[t] = needed - 1
            proof_cache.record_unsat(problem, f"no action of turn {t} has {needed} Messaging")
        else:
            open_rounds.add(t)
    return caps
