"""Deliberate breakages of the reference engine, to prove that the invariant checks can fail.

Each mutant is a named context manager that swaps one rule function of the engine for a slightly
wrong one and puts the original back on exit:

    with MUTANTS["hand-limit-off-by-one"].active():
        result = run_fuzz(FuzzOptions(game))      # must report `hand.movement`

A mutant names the invariants expected to catch it. They are for tests and for designers who want
to see what a report looks like; nothing in the product activates them.

The package: `mutant` says what a mutant is (`Mutant`, `Patch`), `registry` lists them all (`MUTANTS`, in
the order they were added), and the patches live in one module per area of the rules they break
(`company_play`, `lobbying`, `company_buy`, `reshuffle`, `movement_play`, `movement_market`,
`movement_goals`, `setup`, `rejections`, `card_data`).
"""

from __future__ import annotations

from doubtspec.invariants.mutants.mutant import Mutant, Patch
from doubtspec.invariants.mutants.registry import MUTANTS

__all__ = ["MUTANTS", "Mutant", "Patch"]
