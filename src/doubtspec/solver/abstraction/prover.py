"""The abstraction as a proof method: turn-by-turn checks with restarts, strengthened by proved lemmas.

`AbstractionProver` implements `doubtspec.solver.verdict.ProofMethod` for a `RoundSystem`:

1. the incremental BMC (`RoundBmc`) checks turn 1, 2, ...: "impossible" is a proof for the game
   (the system over-approximates it); the first "possible" stops the loop (a possibility of the
   abstraction only: `concrete=False`);
2. a turn that is not settled in a short time slice is tried again with another random seed and a
   slice twice as long (Z3's time on these problems varies by an order of magnitude with the seed:
   on the shipped set, turn 4 of the stars question took 1 s of CPU with one seed and more than 10
   with the default);
3. after the second failed slice, the candidate lemmas are proved by k-induction (`prove_lemma`,
   once) and asserted on every state of a fresh BMC; a lemma that is not proved is left out and
   listed in `rejected`;
4. Spacer (`spacer_check`) is asked last only when `use_spacer` is set: on the shipped set it does
   not settle even turn 1 within 60 s, so it is off by default.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from doubtspec.solver.abstraction.system import Lemma, RoundBmc, RoundSystem, proved_lemmas, spacer_check
from doubtspec.solver.verdict import Budget, TurnProof, TurnVerdict

FIRST_SLICE_S = 2.0
"""The first time slice for a turn; each restart doubles it."""
LEMMA_SHARE = 0.2
"""At most this share of what is left goes to proving lemmas (they only speed the checks up)."""
SPACER_SHARE = 0.5
"""When the BMC has not settled a turn, Spacer (if used) may have this share of what is left."""
SEED_STEP = 7919
"""Seeds of successive restarts (any distinct numbers)."""


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
    use_spacer: bool = False
    strengthened: bool = False
    restarts: int = 0
    """Restarts made so far (each with a new seed)."""
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

    def _settle(self, turn: int, budget: Budget) -> TurnVerdict:
        """One turn, with restarts on new seeds and doubling slices until the budget ends."""
        slice_s = FIRST_SLICE_S
        attempt = 0
        while True:
            assert self._bmc is not None
            verdict = self._bmc.check(turn, budget, seed=(self.restarts * SEED_STEP) % 100_003, cap_s=slice_s)
            if verdict is not TurnVerdict.UNKNOWN or budget.expired():
                return verdict
            self.restarts += 1
            attempt += 1
            slice_s *= 2
            if attempt == 2 and not self.strengthened and self.candidates:
                self.strengthen(budget.share(LEMMA_SHARE))

    def decide(self, by_turn: int, budget: Budget, first_turn: int = 1) -> list[TurnProof]:
        if self._bmc is None:
            self._bmc = RoundBmc(self.system)
        proofs: list[TurnProof] = []
        for turn in range(first_turn, by_turn + 1):
            if budget.expired():
                break
            started = time.perf_counter()
            method = f"{self.name}-bmc"
            verdict = self._settle(turn, budget.share(1 - SPACER_SHARE) if self.use_spacer else budget)
            if verdict is TurnVerdict.UNKNOWN and self.use_spacer and not budget.expired():
                verdict = spacer_check(self.system, turn, budget).verdict
                method = f"{self.name}-spacer"
            names = tuple(lemma.name for lemma in self.lemmas)
            proofs.append(TurnProof(turn, verdict, method, time.perf_counter() - started, names, concrete=False))
            if verdict is not TurnVerdict.IMPOSSIBLE:
                break
        return proofs
