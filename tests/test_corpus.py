"""The corpus of deep starting points: legal, deterministic prefixes that end at a side's decision."""

from __future__ import annotations

from doubtspec.invariants import corpus
from doubtspec.invariants.machines import _steer
from doubtspec.model.actions import Chance
from doubtspec.model.engine import new_game, play
from doubtspec.model.game import Game


def test_prefixes_are_legal_deep_and_shortest_first(game: Game) -> None:
    corpus.forget()
    prefixes = corpus.prefixes(game, _steer)
    assert len(prefixes) >= 5
    assert [len(p) for p in prefixes] == sorted(len(p) for p in prefixes)
    deepest = 0
    for prefix in prefixes:
        state = new_game(game)
        for action in prefix:
            state = play(state, action)  # the checked engine: every step is legal
        assert state.outcome is None and not state.pending
        deepest = max(deepest, state.reshuffles)
    assert deepest >= 2, "no prefix reaches a second Reshuffle"
    assert any(sum(1 for a in p if not isinstance(a, Chance)) > 50 for p in prefixes)


def test_prefixes_are_made_again_identically(game: Game) -> None:
    first = corpus.prefixes(game, _steer)
    corpus.forget()
    assert corpus.prefixes(game, _steer) == first
    assert corpus.prefixes(game, _steer) is corpus.prefixes(game, _steer)
