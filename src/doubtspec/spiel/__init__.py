"""The engine seen from OpenSpiel: a registered pyspiel game, its action space and its views.

`actions` (the fixed integer action space) and `views` (what each side sees; determinization)
need nothing beyond the core package; `game` registers `doubt_is_our_product` with pyspiel and
needs the optional extra: `pip install -e '.[spiel]'`. `load_spiel_game` imports it on demand and
turns a missing extra into an `OptionError` naming the install line.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

from doubtspec.errors import OptionError
from doubtspec.model.game import Game

if TYPE_CHECKING:
    from doubtspec.spiel.game import DoubtGame

INSTALL_HINT = "pip install -e '.[spiel]' (OpenSpiel 2.0)"


def spiel_available() -> bool:
    """Whether OpenSpiel's Python package (pyspiel) can be imported."""
    return importlib.util.find_spec("pyspiel") is not None


def missing_spiel_error(what: str, field: str = "--agents") -> OptionError:
    """The error for using `what` without the extra."""
    return OptionError(f"{what} needs OpenSpiel, which is not installed; install it with {INSTALL_HINT}", field=field)


def load_spiel_game(game: Game, max_rounds: int | None = None) -> DoubtGame:
    """The pyspiel game for an engine game (its cards and rulings); raises `OptionError` without the extra."""
    if not spiel_available():
        raise missing_spiel_error("the OpenSpiel game")
    from doubtspec.spiel.game import DEFAULT_MAX_ROUNDS, DoubtGame, rulings_parameter

    params = {"cards": game.cards.source, "rulings": rulings_parameter(game.rulings),
              "max_rounds": DEFAULT_MAX_ROUNDS if max_rounds is None else max_rounds}
    return DoubtGame(params, engine=game)
