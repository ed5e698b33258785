"""The abstraction as a proof method: turn-by-turn checks, strengthened by proved lemmas when they stall.

`AbstractionProver` implements `doubtspec.solver.verdict.ProofMethod` for a `RoundSystem`:

1. the incremental BMC (`RoundBmc`) checks turn 1, 2, ...: "impossible" is a proof for the game
   (the system over-approximates it); the first "possible" stops the loop (a possibility of the
   abstraction only: `concrete=False`);
2. when a turn is not settled in its share of the time, the candidate lemmas are proved by
   k-induction (`prove_lemma`, once); the proved ones are asserted on every state of a fresh BMC,
   which tries the turn again; a lemma that is not proved is left out and listed in `rejected`;
3. if that does not settle the turn either, Spacer is asked for the same turn ("not by round k").
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from doubtspec.solver.abstraction.system import Lemma, RoundBmc, RoundSystem, proved_lemmas, spacer_check
from doubtspec.solver.verdict import Budget, TurnProof, TurnVerdict

FIRST_TRY_SHARE = 0.25
"""The plain BMC's share of the time left for a turn before lemmas are brought in."""
LEMMA_SHARE = 0.2
"""At most this share of what is left goes to proving lemmas (they only speed the checks up)."""
SPACER_SHARE = 0.5
"""When the strengthened BMC times out on a turn, Spacer may use this share of what is left."""


@dataclass(slots=True)
class AbstractionProver:
    """Decides "reached by turn k?" on a sound abstraction; only its "impossible" answers are game facts."""

    name: str
    system: RoundSystem
    candidates: Sequence[Lemma] = ()
    lemmas: list[Lemma] = field(default_factory=list)
    rejected: list[tuple[str, str]] = field(default_factory=list)
    """(lemma, why it is not used): 'counterexample' or 'undecided'."""
    lemma_seconds: float = 0.0
    use_spacer: bool = True
    strengthened: bool = False
    _bmc: RoundBmc | None = None

    def strengthen(self, budget: Budget) -> None:
        """Prove the candidate lemmas (once) and restart the BMC with the proved ones asserted."""
        if self.strengthened:
            return
        self.strengthened = True
        started = time.perf_counter()
        proved, rejected = proved_lemmas(self.system, self.candidates, budget)
        self.lemmas = proved
        self.rejected = [(lemma.name, "counterexample" if verdict is TurnVerdict.POSSIBLE else "undecided")
                         for lemma, verdict in rejected]
        self.lemma_seconds = time.perf_counter() - started
        self.system = self.system.with_lemmas(proved)
        self._bmc = RoundBmc(self.system)

    def decide(self, by_turn: int, budget: Budget, first_turn: int = 1) -> list[TurnProof]:
        if self._bmc is None:
            self._bmc = RoundBmc(self.system)
        proofs: list[TurnProof] = []
        for turn in range(first_turn, by_turn + 1):
            if budget.expired():
                break
            started = time.perf_counter()
            method = f"{self.name}-bmc"
            verdict = self._bmc.check(turn, budget if self.strengthened else budget.share(FIRST_TRY_SHARE))
            if verdict is TurnVerdict.UNKNOWN and not self.strengthened and self.candidates and not budget.expired():
                self.strengthen(budget.share(LEMMA_SHARE))
                assert self._bmc is not None
                verdict = self._bmc.check(turn, budget.share(1 - SPACER_SHARE) if self.use_spacer else budget)
            if verdict is TurnVerdict.UNKNOWN and self.use_spacer and not budget.expired():
                verdict = spacer_check(self.system, turn, budget).verdict
                method = f"{self.name}-spacer"
            names = tuple(lemma.name for lemma in self.lemmas)
            proofs.append(TurnProof(turn, verdict, method, time.perf_counter() - started, names, concrete=False))
            if verdict is not TurnVerdict.IMPOSSIBLE:
                break
        return proofs
