"""The invariant `rulings.defaults`: a default game plays each ruling's decided default reading.

It must hold on the registry as shipped and under every selectable ruling's other reading (or every run of
`doubtspec fuzz` would fail), and it must fail, naming the ruling, when the registry's default of a ruling changes,
when a ruling is added without a decided default, and when one is removed.
"""

from __future__ import annotations

import dataclasses

import pytest

from doubtspec.invariants.catalog import BY_ID, StateInvariant
from doubtspec.invariants.groups.rulings import DECIDED, defaults_report
from doubtspec.model import engine
from doubtspec.model import rulings as registry
from doubtspec.model.game import Game
from doubtspec.model.rulings import DEFAULT_RULINGS, REGISTRY, Rulings

CHECK = BY_ID["rulings.defaults"]
assert isinstance(CHECK, StateInvariant)


def test_the_registry_plays_the_decided_defaults(game: Game) -> None:
    assert defaults_report(registry.BY_ID, DEFAULT_RULINGS) is None
    assert CHECK.check(engine.new_game(game)) is None
    assert set(DECIDED) == {r.id for r in REGISTRY}


@pytest.mark.parametrize("ruling", [r for r in REGISTRY if r.selectable], ids=lambda r: r.id)
def test_a_reading_chosen_explicitly_is_not_a_default(ruling: registry.Ruling) -> None:
    for choice in ruling.choice_names[1:]:
        assert defaults_report(registry.BY_ID, Rulings().with_choice(ruling.id, choice)) is None


def test_a_changed_default_is_named(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    ruling = registry.BY_ID["draw-order"]
    swapped = dataclasses.replace(ruling, choices=tuple(reversed(ruling.choices)))
    monkeypatch.setattr(registry, "BY_ID", {**registry.BY_ID, ruling.id: swapped})
    report = CHECK.check(engine.new_game(Game(game.cards, DEFAULT_RULINGS)))
    assert report is not None
    assert "ruling draw-order" in report and "'reshuffle-first'" in report and "'draw-first'" in report
    assert ruling.section.value in report


def test_a_ruling_without_a_decided_default_is_named() -> None:
    extra = dataclasses.replace(REGISTRY[0], id="new-question")
    report = defaults_report({**registry.BY_ID, extra.id: extra}, DEFAULT_RULINGS)
    assert report is not None and "ruling new-question has no decided default" in report


def test_a_ruling_gone_from_the_registry_is_named() -> None:
    rest = {rid: r for rid, r in registry.BY_ID.items() if rid != "turn-numbering"}
    report = defaults_report(rest, DEFAULT_RULINGS)
    assert report is not None and "ruling turn-numbering is decided here but missing" in report
