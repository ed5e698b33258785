"""Shared fixtures: the shipped card set and a game with default rulings."""

from __future__ import annotations

import pytest

from doubtspec.model.cards import CardSet, load_cards
from doubtspec.model.game import Game


@pytest.fixture(scope="session")
def cards() -> CardSet:
    return load_cards()


@pytest.fixture(scope="session")
def game(cards: CardSet) -> Game:
    return Game(cards)
