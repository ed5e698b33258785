"""Runs of chance outcomes drawn from one number: a hand or a deal dealt card by card costs one draw.

Half the engine steps of a fuzzed game are chance outcomes, and most of them follow another (a hand drawn
card by card, a Goal dealt after the odd cards). Hypothesis pays for every draw twice: once when the
machine makes it, and again whenever its data tree walks an example's choices before rerunning it. So the
machine draws one number, a seed (`SEED_BYTES` bytes), at the first chance outcome of a run with more than
one outcome to choose from, and takes the run's outcomes from a generator seeded with it; a decision ends
the run.

The seed 0 deals every outcome of the run in the engine's order (index 0 each time), which is what one
draw per outcome shrinks to: the shrinker's first try on a run's seed (all its bytes 0) is the plainest deal, as
before.
Any other seed is a pseudo-random deal, the same for the same seed (`random.Random` seeded with an
integer does not depend on `PYTHONHASHSEED`). The shrinker lowers a seed's bytes one at a time, each try another
pseudo-random deal; measured over the realistic bugs, the shrunk traces are as short as with one draw per outcome
(docs/fuzzing.md, "One draw per run of chance outcomes").

Traces record the outcomes dealt, not the seeds, so a report replays from Set-Up exactly as before.
"""

from __future__ import annotations

import random

SEED_BYTES = 4
"""A run's seed is drawn as this many bytes (32 bits). Not as an integer: Hypothesis draws one integer in twenty
from the integer literals of the code it has loaded (the test's, a mutant's), which in a range this wide would make
the games generated depend on the entry point and on a changed literal. Its byte strings of a fixed length
come only from literals of that length (the engine has none of four bytes), and it draws them uniformly, where it
draws wide integers mostly small."""
SEEDS = 1 << (8 * SEED_BYTES)
"""How many seeds a run of chance outcomes may draw from."""


def seed_of(drawn: bytes) -> int:
    """The seed that the bytes `drawn` stand for (all zeros: 0, the engine's first outcome each time)."""
    return int.from_bytes(drawn, "big")


class ChanceRun:
    """The outcomes of one run of chance events, from its seed (0: the engine's first outcome each time)."""

    __slots__ = ("_random",)

    def __init__(self, seed: int) -> None:
        if not 0 <= seed < SEEDS:
            raise ValueError(f"a run's seed is in 0..{SEEDS - 1}, not {seed}")
        self._random = random.Random(seed) if seed else None

    def pick(self, count: int) -> int:
        """The index of the next outcome among `count` (at least one)."""
        if count < 1:
            raise ValueError(f"a chance event has at least one outcome, not {count}")
        generator = self._random
        return generator.randrange(count) if generator is not None else 0
