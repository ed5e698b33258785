"""The solver and the exhaustive search agree, under the same caps, on small bounds.

The exhaustive search explores the engine's own legal actions and chance outcomes (one pass finds
the earliest round of every outcome); the solver answers each query by its incremental unrolling.
On tests/data/tiny3.toml the Company's victories are impossible at turn 1 and possible at turn 2,
so the suite covers answers that flip between N and N+1 (the turn-2 half is slow: opt in with -m slow).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from doubtspec.model.cards import load_cards
from doubtspec.model.engine import apply, new_game
from doubtspec.model.game import Game
from doubtspec.solver import exhaustive
from doubtspec.solver.bmc import Caps
from doubtspec.solver.queries import TARGETS, QueryKind, solve

DATA = Path(__file__).parent / "data"
TINY = Game(load_cards(DATA / "tiny3.toml"))
CAPS = Caps(plays=3, buys=2)
KINDS = (QueryKind.STARS, QueryKind.PROFIT, QueryKind.DEFEAT)


def _agree(game: Game, bound: int) -> None:
    results, complete = exhaustive.earliest_outcomes(game, bound, CAPS)
    assert complete
    for kind in KINDS:
        _, reasons = TARGETS[kind]
        rounds = [results[r.value].found for r in reasons if r.value in results]
        expected = min((r for r in rounds if r is not None), default=None)
        answer = solve(game, kind, bound, caps=CAPS, check_caps=False)
        assert answer.earliest == expected, f"{kind.value} by turn {bound}: solver {answer.earliest}, " \
                                            f"exhaustive {expected}"
        for reason in reasons:
            found = results.get(reason.value)
            if found is not None and found.actions is not None:
                state = new_game(game)
                for action in found.actions:
                    state = apply(state, action)
                assert state.outcome is not None and state.outcome.reason is reason


def test_agreement_at_turn_one() -> None:
    _agree(TINY, 1)


@pytest.mark.slow
def test_agreement_at_turn_two() -> None:
    _agree(TINY, 2)


@pytest.mark.slow
def test_agreement_under_other_rulings_at_turn_two() -> None:
    from doubtspec.model.rulings import Rulings

    _agree(Game(TINY.cards, Rulings.parse(["draw-order=reshuffle-first", "trash-buy=any"])), 2)
