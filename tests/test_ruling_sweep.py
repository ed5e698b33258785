"""The ruling variants that `doubtspec fuzz` plays after the default rulings (`invariants.ruling_sweep`)."""

from __future__ import annotations

import time

import pytest

from doubtspec.invariants.catalog import BY_ID
from doubtspec.invariants.fuzzing import FuzzOptions
from doubtspec.invariants.profiles import PROFILES
from doubtspec.invariants.ruling_sweep import (
    RULING_VARIANTS,
    _variant_lengths,
    plays_variants,
    run_sweep,
    variant_games,
)
from doubtspec.model.game import Game
from doubtspec.model.rulings import REGISTRY, Rulings


def test_every_alternative_choice_is_played_by_exactly_one_variant() -> None:
    # A new selectable ruling, or a new choice of one, fails here until a variant plays it.
    wanted = {f"{r.id}={c}" for r in REGISTRY if r.selectable for c in r.choice_names if c != r.default}
    played = [choice for variant in RULING_VARIANTS for choice in variant]
    assert sorted(played) == sorted(wanted)


def test_each_variant_changes_one_ruling_once(game: Game) -> None:
    games = variant_games(game)
    assert len(games) == len(RULING_VARIANTS)
    for variant, other in zip(RULING_VARIANTS, games, strict=True):
        assert other.cards is game.cards
        assert len(other.rulings.choices) == len(variant)
        assert len({choice.split("=")[0] for choice in variant}) == len(variant)


def test_lengths_of_the_variants(game: Game) -> None:
    ci = PROFILES["ci"]
    for examples, each in ((None, 30), (600, 30), (100, 5), (19, 0), (5, 0)):
        options = FuzzOptions(game, profile=ci, examples=examples)
        assert _variant_lengths(options, ci.ruling_share) == (each, None)
    per_variant, main = _variant_lengths(FuzzOptions(game, profile=ci, budget=10.0), 0.2)
    assert per_variant is None and main == pytest.approx(8.0)


def test_a_short_budget_leaves_no_room_for_the_variants(game: Game) -> None:
    # The main run takes its share and more (it stops between chunks of examples): nothing is left. A chunk of the
    # faster harness fits in 1 s with room to spare (one suite run then played a variant), so the budget is 0.3 s.
    started = time.monotonic()
    sweep = run_sweep(FuzzOptions(game, profile=PROFILES["dev"], budget=0.3, database=None, seed=1,
                                  invariants=(BY_ID["tokens.profit"],)))
    assert sweep.variants == [] and sweep.total is sweep.main
    assert time.monotonic() - started < 0.3 + 10


def test_the_variants_run_after_a_clean_main_run(game: Game) -> None:
    sweep = run_sweep(FuzzOptions(game, profile=PROFILES["ci"], examples=20, database=None, max_steps=8,
                                  invariants=(BY_ID["tokens.profit"],)))
    assert [v.rulings for v in sweep.variants] == [str(g.rulings) for g in variant_games(game)]
    assert all(v.examples == 1 and v.steps > 0 and not v.found for v in sweep.variants)
    total = sweep.total
    assert total.examples == sweep.main.examples + len(RULING_VARIANTS)
    assert total.steps == sweep.main.steps + sum(v.steps for v in sweep.variants)
    assert total.elapsed >= sweep.main.elapsed


def test_no_variants_when_a_ruling_is_chosen(game: Game) -> None:
    chosen = Game(game.cards, Rulings.parse(["draw-order=reshuffle-first"]))
    sweep = run_sweep(FuzzOptions(chosen, profile=PROFILES["ci"], examples=20, database=None, max_steps=8,
                                  invariants=(BY_ID["tokens.profit"],)))
    assert sweep.variants == [] and sweep.total is sweep.main


def test_which_runs_play_the_variants(game: Game) -> None:
    ci = PROFILES["ci"]
    assert plays_variants(FuzzOptions(game, profile=ci))
    assert plays_variants(FuzzOptions(game, profile=ci, budget=60.0))
    assert not plays_variants(FuzzOptions(game, profile=ci, examples=5))  # too few for one example each
    chosen = Game(game.cards, Rulings.parse(["trash-buy=any"]))
    assert not plays_variants(FuzzOptions(chosen, profile=ci))
