"""The two sides of the fuzzing throughput comparison: the bare engine, and the machine as the ci profile runs it.

The catalog's cost is measured as a ratio to the engine alone playing games like the machine's: seeded random
games through `legal_actions` and `apply` with the machine's own steering of the Company (`machines._prudent`), so
that both sides reach the same parts of the game. The machine's side is the ci profile's own run (its seed, its 600
examples, no database): what a step costs the machine depends on how long the run is, since Hypothesis's later
examples replay and extend earlier ones, whose states and steps were checked already (`invariants/known.py`).
Measured in interleaved rounds, the whole catalog ran at 4.4x the bare engine over 50 examples, 2.3-2.6x over
200 and 3.0-3.5x over 600 (docs/fuzzing.md): a short run measures a run nobody makes. `tests/test_bench_fuzz.py`
times both with pytest-benchmark and `fuzz/throughput.py` in interleaved rounds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from doubtspec.invariants.catalog import Invariant
from doubtspec.invariants.fuzzing import FuzzOptions, run_fuzz
from doubtspec.invariants.machines import _prudent
from doubtspec.model.actions import Action
from doubtspec.model.engine import apply, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.model.state import Phase


def bare_engine_steps(game: Game, games: int = 20) -> int:
    """Play `games` seeded games through the bare engine with the machine's steering; the count of steps."""
    rng = random.Random(0)
    steps = 0
    for _ in range(games):
        state = new_game(game)
        while state.outcome is None and steps < 1_000_000:
            actions: tuple[Action, ...] | list[Action] = legal_actions(state)
            if state.phase is Phase.COMPANY_PLAY and not state.pending:
                actions = list(_prudent(state, actions))
            state = apply(state, actions[rng.randrange(len(actions))])
            steps += 1
    return steps


def machine_steps(game: Game, invariants: Sequence[Invariant], examples: int | None = None) -> int:
    """The engine steps of a ci-profile fuzz run with `invariants` (no database), of `examples` examples (None: the
    profile's)."""
    return run_fuzz(FuzzOptions(game, tuple(invariants), database=None, examples=examples)).steps
