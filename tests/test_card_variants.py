"""The catalog on card files other than the shipped set: what the shipped numbers happen to hide.

The ci fuzz run plays the shipped set only, whose Doubt columns all have three spaces and whose supply has room
to spare after Set-Up; an engine that computed a Messaging cost right only for three spaces, or refused a supply
that Set-Up empties, would pass it. These variants are the shipped set with one part changed, fuzzed briefly
with the whole catalog (its independent Messaging and Doubt checks included) or set up directly.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from doubtspec.invariants.fuzzing import FuzzOptions, run_fuzz
from doubtspec.model.cards import TokenKind, default_cards_path, load_cards
from doubtspec.model.engine import new_game
from doubtspec.model.game import Game
from doubtspec.model.state import TOKEN_INDEX

SHIPPED = default_cards_path()


def _variant(tmp_path: Path, changes: dict[str, str]) -> Game:
    """The shipped set with each line `key` (its exact text) replaced by its value."""
    text = SHIPPED.read_text()
    for old, new in changes.items():
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "variant.toml"
    path.write_text(text)
    return Game(load_cards(path))


DISPLAY = {
    "children = [1, 2, 2]": "children = [1, 2]",
    "middle_age = [3, 3, 4]": "middle_age = [3, 3, 4, 5]",
    "elderly = [3, 4, 4]": "elderly = [2, 3, 4, 4, 5]",
    "doubt = 12        # exactly the twelve Doubt spaces of the display": "doubt = 14",
    "middle_age = 1\nelderly = 1\n": "middle_age = 1\nelderly = 5\n",
    'group = "I", count = 1 }, { op = "doubt", group = "II", count = 1 } ]\n\n[[company.cards]]\nnumber = 3\n':
        'group = "I", count = 3 }, { op = "doubt", group = "II", count = 1 } ]\n\n[[company.cards]]\nnumber = 3\n',
}
"""Columns of two, three, four and five spaces, the longest full from Set-Up, with values that differ between the
top and the bottom, so a cost taken from the wrong spaces is a different cost; and a starting card that places
three Doubt with one effect (the shipped cards place at most two, so an effect resolved one time too few when its
count is three or more passes the shipped set)."""


def test_the_catalog_holds_on_columns_of_other_lengths_and_larger_effects(tmp_path: Path) -> None:
    game = _variant(tmp_path, DISPLAY)
    assert [len(column) for column in game.cards.display.doubt_values] == [2, 3, 4, 5]
    assert new_game(game).doubt == (1, 1, 1, 5)
    result = run_fuzz(FuzzOptions(game, examples=150, database=None, seed=7))
    assert not result.violations, [f"{v.invariant.id}: {v.message}" for v in result.violations]
    assert result.steps > 1_000


@pytest.mark.parametrize("kind", [TokenKind.DOUBT, TokenKind.VICTIMS])
def test_set_up_may_take_the_whole_supply(tmp_path: Path, kind: TokenKind) -> None:
    """Set-Up places Victims and Doubt from the supply: a supply with exactly enough is a legal card file, and the
    game starts with none of that piece left."""
    line = {TokenKind.DOUBT: ("doubt = 12        # exactly the twelve Doubt spaces of the display", "doubt = 4"),
            TokenKind.VICTIMS: ("victims = 40", "victims = 6")}[kind]
    state = new_game(_variant(tmp_path, dict([line])))
    assert state.supply[TOKEN_INDEX[kind]] == 0
