"""The second reading of a card file (`doubtspec.invariants.card_reading`) and the invariant `cards.file` built on it.

The reading must agree with the loader on every file the loader accepts (the shipped set, the files under
`tests/data`, drawn files), or `cards.file` would be a false alarm on every run; and the invariant must name the
first card and field where a loaded set departs from its file, or it could never catch a loader bug.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings

from card_files import DRAWN, card_file_texts
from doubtspec.errors import CardFileError
from doubtspec.invariants.card_reading import first_difference, read_card_file
from doubtspec.invariants.catalog import BY_ID, StateInvariant
from doubtspec.invariants.mutants import MUTANTS
from doubtspec.model import cards as cards_module
from doubtspec.model import engine
from doubtspec.model.cards import AddVictims, CardSet, GainFlight, GoalId, Zone, load_cards, parse_cards
from doubtspec.model.game import Game

DATA = Path(__file__).parent / "data"
CHECK = BY_ID["cards.file"]
assert isinstance(CHECK, StateInvariant)


def _agrees(loaded: CardSet) -> None:
    read = read_card_file(loaded.text, loaded.source)
    assert first_difference(loaded, read) is None
    assert read == loaded  # what the comparison does not look at (`source`, `text`) is not compared by `==` either


def test_the_shipped_set_reads_the_same(cards: CardSet) -> None:
    assert cards.text == cards_module.default_cards_path().read_text(encoding="utf-8")
    _agrees(cards)


@pytest.mark.parametrize("path", sorted(DATA.glob("*.toml")), ids=lambda p: p.name)
def test_every_test_card_file_reads_the_same(path: Path) -> None:
    try:
        loaded = load_cards(path)
    except CardFileError:
        pytest.skip(f"{path.name} is not a card file the loader accepts")
    _agrees(loaded)


@settings(DRAWN, max_examples=25)
@given(text=card_file_texts())
def test_drawn_card_files_read_the_same(text: str) -> None:
    _agrees(parse_cards(text, "drawn.toml"))


def test_the_reading_does_without_the_loader(cards: CardSet, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing of the loader is used: with it broken, the second reading is unchanged."""
    monkeypatch.setattr(cards_module, "_Loader", None)
    monkeypatch.setattr(cards_module, "ZONE_BY_KEY", {})
    _agrees(cards)


def test_a_card_changed_after_loading_is_named(cards: CardSet) -> None:
    card = cards.company[43]
    assert card.standard is not None
    effects = tuple(AddVictims(Zone.MIDDLE_AGE, e.count) if isinstance(e, AddVictims) and e.zone is Zone.ELDERLY
                    else e for e in card.standard.effects)
    changed = replace(cards, company={**cards.company, 43: replace(card, standard=replace(card.standard,
                                                                                         effects=effects))})
    assert CHECK.check(engine.new_game(Game(changed))) == (
        "card 43 (Low-Tar Lights) standard effect 2: the file says victims zone elderly count 1, the loaded set has "
        "AddVictims(MIDDLE_AGE, 1)")


def test_a_goal_changed_after_loading_is_named(cards: CardSet) -> None:
    goal = cards.goals[GoalId(4)]
    effects = tuple(GainFlight(1) if isinstance(e, GainFlight) else e for e in goal.effects)
    changed = replace(cards, goals={**cards.goals, goal.number: replace(goal, effects=effects)})
    message = CHECK.check(engine.new_game(Game(changed)))
    assert message is not None and message.startswith(f"Goal G4 ({goal.name}) effect ")
    assert message.endswith("the file says flight count 2, the loaded set has GainFlight(1)")


@pytest.mark.parametrize(("change", "expected"), [
    (lambda c: replace(c, rules=replace(c.rules, stacks_dealt=3)), "rules stacks_dealt: the file says 7, the loaded "
                                                                   "set has 3"),
    (lambda c: replace(c, stack_pairs=c.stack_pairs[:-1]), "company stack pairs: the file says 14 entries, the loaded "
                                                           "set has 13 (company stack pair 14: the file says [59, 60], "
                                                           "the loaded set has nothing)"),
    (lambda c: replace(c, display=replace(c.display, setup_doubt=(0, 0, 0, 0))),
     "display setup_doubt children: the file says 1, the loaded set has 0"),
    (lambda c: replace(c, goals={k: g for k, g in c.goals.items() if k != 5}),
     "Goal G5 (Rotating Warning Labels): in the file, not in the loaded set"),
], ids=["rule", "stacks", "display", "missing-goal"])
def test_tables_changed_after_loading_are_named(cards: CardSet, change: object, expected: str) -> None:
    assert callable(change)
    assert first_difference(change(cards), read_card_file(cards.text)) == expected


def test_a_set_built_by_hand_is_not_read(cards: CardSet) -> None:
    """With no text there is no file to read again: the check says nothing, whatever the set holds."""
    by_hand = replace(cards, text="", rules=replace(cards.rules, stacks_dealt=3))
    assert CHECK.check(engine.new_game(Game(by_hand))) is None


def test_the_twin_mutant_misloads_and_is_named(game: Game) -> None:
    """The mutant's loader reads the Elderly Victims as Middle Age, in a game loaded before it was active too."""
    assert CHECK.check(engine.new_game(game)) is None
    with MUTANTS["elderly-icon-loaded-as-middle-age"].active():
        message = CHECK.check(engine.new_game(game))
        assert message is not None and "the file says victims zone elderly" in message, message
        assert load_cards().company[43] != game.cards.company[43]
    assert CHECK.check(engine.new_game(game)) is None
