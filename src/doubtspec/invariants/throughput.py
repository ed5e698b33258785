"""The bare engine's side of the fuzzing throughput comparison.

The catalog's cost is measured as a ratio to the engine alone playing games like the machine's: seeded random
games through `legal_actions` and `apply` with the machine's own steering of the Company (`machines._prudent`), so
that both sides reach the same parts of the game. `tests/test_bench_fuzz.py` times it with pytest-benchmark and
`fuzz/throughput.py` in interleaved rounds.
"""

from __future__ import annotations

import random

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
