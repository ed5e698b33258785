"""The `cards` invariants. Card conservation: every Company card, Movement card and Goal is in exactly one place;
the Reserve keeps its order; and the card data itself: the loaded set says what its card file says."""

from __future__ import annotations

from collections.abc import Iterable

from doubtspec.invariants import card_reading
from doubtspec.invariants.derived import from_card_data
from doubtspec.invariants.shapes import (
    Invariant,
    StateInvariant,
    TransitionInvariant,
)
from doubtspec.model.actions import Action
from doubtspec.model.cards import CardSet
from doubtspec.model.state import NO_CARD, GameState, Phase
from doubtspec.model.steps import (
    ChooseStartingCard,
    DealGoal,
    DealStack,
    GoalSplit,
)
from doubtspec.rulebook import Section

S = Section


def _multiset_report(label: str, expected: Iterable[int], places: dict[str, Iterable[int]]) -> str | None:
    """Each expected card exactly once across `places`; None when so."""
    seen: dict[int, list[str]] = {}
    for place, cards in places.items():
        for card in cards:
            seen.setdefault(card, []).append(place)
    wanted = set(expected)
    problems = []
    for card, where in sorted(seen.items()):
        if card not in wanted:
            problems.append(f"{card} is not a {label} card (in {', '.join(where)})")
        elif len(where) > 1:
            problems.append(f"{card} is in {len(where)} places ({', '.join(where)})")
    missing = sorted(wanted - seen.keys())
    if missing:
        problems.append(f"missing {missing}")
    return f"{label} cards: " + "; ".join(problems) if problems else None


_EXPECTED: dict[int, tuple[CardSet, tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = {}


def _expected(cards: CardSet) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The sorted numbers of every Company card, Movement card and Goal of a card set (cached)."""
    found = _EXPECTED.get(id(cards))
    if found is None or found[0] is not cards:
        found = (cards, tuple(sorted(cards.company)), tuple(sorted(cards.movement)), tuple(sorted(cards.goals)))
        _EXPECTED[id(cards)] = found
    return found[1], found[2], found[3]


def _company_places(state: GameState) -> dict[str, Iterable[int]]:
    places: dict[str, Iterable[int]] = {
        "c_deck": state.c_deck, "c_hand": state.c_hand, "c_discard": state.c_discard,
        "c_reserve": state.c_reserve, "c_in_play": state.c_in_play, "trash": state.trash,
        "c_removed": state.c_removed,
    }
    for i, pile in enumerate(state.piles):
        places[f"piles[{i}]"] = pile
    for i, stack in enumerate(state.stacks):
        places[f"stacks[{i}]"] = stack
    # Company Set-Up 2: while the stacks are being dealt, the pairs not dealt yet wait in the deal.
    for step in state.pending:
        if isinstance(step, DealStack):
            places["undealt pairs"] = [c for odd in step.pool for c in (odd, odd + 1)]
    return places


def _company_cards(state: GameState) -> str | None:
    every = (state.c_deck + state.c_hand + state.c_discard + state.c_reserve + state.c_in_play + state.trash
             + state.c_removed + sum(state.piles, ()) + sum(state.stacks, ()))
    if state.phase is not Phase.SETUP and tuple(sorted(every)) == _expected(state.cards)[0]:
        return None
    places = _company_places(state)
    every = tuple(sorted(c for cards in places.values() for c in cards))
    if every == _expected(state.cards)[0]:
        return None
    return _multiset_report("Company", state.cards.company, places)


def _movement_cards(state: GameState) -> str | None:
    places: dict[str, Iterable[int]] = {
        "m_deck": state.m_deck, "market": [c for c in state.market if c != NO_CARD], "m_hand": state.m_hand,
        "tableau": [c for c, _ in state.tableau], "m_discard": state.m_discard,
    }
    every = [c for cards in places.values() for c in cards]
    if state.phase is Phase.SETUP and any(isinstance(step, ChooseStartingCard) for step in state.pending):
        # Movement Set-Up 1: nothing is laid out before the starting card is chosen.
        return f"Movement cards laid out before Set-Up: {every}" if every else None
    every.sort()
    if tuple(every) == _expected(state.cards)[1]:
        return None
    return _multiset_report("Movement", state.cards.movement, places)


def _goal_cards(state: GameState) -> str | None:
    places: dict[str, Iterable[int]] = {
        "goals": [g for g in state.goals if g != NO_CARD], "achieved": state.achieved,
    }
    if state.phase is Phase.SETUP:
        for step in state.pending:
            if isinstance(step, GoalSplit):
                laid = [g for cards in places.values() for g in cards]
                return f"Goals laid out before they were split: {laid}" if laid else None
            if isinstance(step, DealGoal):
                places["upper stack"] = step.upper
                places["lower stack"] = step.lower
    every = sorted(g for cards in places.values() for g in cards)
    if tuple(every) == _expected(state.cards)[2]:
        return None
    return _multiset_report("Goal", state.cards.goals, places)


def reserve_order_check(before: GameState, action: Action, after: GameState) -> str | None:
    """The Reserve is a row: its cards leave it from anywhere (Reshuffle Sequence C: the ones that do not stay), a
    card joins it only at its right end (a Reserve play), and the cards that stay keep their order (which decides
    the order of the Reserve Effects, left to right, and of step C, right to left)."""
    kept = tuple(card for card in before.c_reserve if card in after.c_reserve)
    if after.c_reserve[:len(kept)] != kept:
        return (f"{action}: the Reserve went from {list(before.c_reserve)} to {list(after.c_reserve)}; the cards "
                f"that stay keep their order ({list(kept)}) and new ones join at the right end")
    return None


@from_card_data
def _file_read_again(state: GameState) -> str | None:
    """`_file_verdict` of the state's card set, worked out once per set (by identity: a fingerprint would not do, as a
    set loaded wrongly has the same text, and so the same fingerprint, as one loaded right)."""
    return _file_verdict(state.cards)


def _file_verdict(cards: CardSet) -> str | None:
    """Where `cards` departs from a second reading of its text; None when it agrees or has no text.

    A set built by hand (in a test, with no file behind it) has no text: there is nothing to read it against,
    and the checks that use it trust it as written. A set changed with `dataclasses.replace` after loading keeps
    its text, and so answers for the change.
    """
    if not cards.text:
        return None
    try:
        read = card_reading.read_card_file(cards.text, cards.source)
    except (KeyError, TypeError, ValueError) as exc:  # the loader took a file the format (docs/cards.md) does not
        return f"the card file cannot be read a second time by docs/cards.md: {type(exc).__name__}: {exc}"
    return card_reading.first_difference(cards, read)


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("cards.company", "Every Company card is in exactly one place.",
                   (S.COMPANY_SETUP, S.COMPANY_CARDS, S.BUYING_CARDS, S.RESOLVE_RESERVE), _company_cards),
    StateInvariant("cards.movement", "Every Movement card is in exactly one place.",
                   (S.MOVEMENT_SETUP, S.MOVEMENT_CARDS, S.BUYING_A_CARD, S.PLAYING_A_CARD), _movement_cards),
    StateInvariant("cards.goals", "Every Goal is in the structure or achieved, once.",
                   (S.MOVEMENT_SETUP, S.AGITATION_AND_GOALS), _goal_cards),
    TransitionInvariant("cards.reserve-order", "The Reserve keeps its order: a card leaves it from anywhere, joins "
                        "it only at its right end, and the cards that stay keep their places in turn.",
                        (S.RESERVE_EFFECTS, S.RESOLVE_RESERVE), reserve_order_check),
    StateInvariant("cards.file", "The loaded card set agrees with a second, independent reading of its card file.",
                   (S.COMPANY_CARDS, S.MOVEMENT_CARDS, S.COMPANY_SETUP, S.MOVEMENT_SETUP), _file_read_again),
)
"""The `cards.*` invariants, in the order they are checked and listed."""
