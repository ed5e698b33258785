"""Sound over-approximations of the game, checked by Z3 over integers with one transition per round.

An abstraction admits every run of the game (each concrete round is one of its transitions, which
the tests check against the engine), so its "impossible by turn k" is the game's. Its "possible"
is only a possibility: the query layer then asks the exact unrolling or the hunt.

    system.py     the generic part: `RoundSystem` (integer state, Set-Up, one round, target,
                  lemmas), `RoundBmc` (incremental, one more round per bound), `spacer_check`
                  (Spacer: "not by round k" / "never"), `prove_lemma` (k-induction)
    company.py    the Company's side as counts per card type and zone, the Movement as any
                  removal of Victims and any Restriction card it may add
    company_schedules.py  the Company's questions decided by one-shot checks, proved round
                  facts and case splits on the Reshuffle schedule (the query layer's prover)
    cube_blocking.py  a round fact proved one round at a time, by blocking the states after the
                  round before that could break it (each cube proved unreachable)
    movement.py   the Movement's side (Goals)

The verdict types every method shares live in `doubtspec.solver.verdict` and are re-exported here.
"""

from doubtspec.solver.abstraction.system import (
    Fresh,
    Lemma,
    RoundBmc,
    RoundSystem,
    SpacerResult,
    prove_lemma,
    proved_lemmas,
    spacer_check,
)
from doubtspec.solver.verdict import Budget, ProofMethod, TurnProof, TurnProofs, TurnVerdict

__all__ = [
    "Budget", "Fresh", "Lemma", "ProofMethod", "RoundBmc", "RoundSystem", "SpacerResult", "TurnProof",
    "TurnProofs", "TurnVerdict", "prove_lemma", "proved_lemmas", "spacer_check",
]
