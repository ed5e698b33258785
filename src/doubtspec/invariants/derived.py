"""What the invariants recompute from the card data and the rulebook, shared by several groups.

Nothing here calls the engine's rule functions (a broken rule function must not hide its own breakage);
only `legal` asks the engine's public API, for the actions it offers.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import weakref
from collections.abc import Callable, Iterable
from typing import TypeVar, cast

from doubtspec.model import engine
from doubtspec.model.actions import (
    Action,
    Agitate,
    BuySource,
    Message,
)
from doubtspec.model.cards import (
    AddDoubt,
    AddVictims,
    Discount,
    HandSize,
    Lobby,
    NamedEffect,
    RemoveMarketCard,
    ScoreProfit,
)
from doubtspec.model.legal import choice_actions
from doubtspec.model.state import STATE_FIELDS, GameState
from doubtspec.model.steps import Agitation
from doubtspec.rulebook import Section

S = Section


_T = TypeVar("_T")

_STATE_VALUES = operator.attrgetter(*STATE_FIELDS)
_STATE_FIELD_SET = frozenset(STATE_FIELDS)
_new_object = object.__new__
_set_field = object.__setattr__


def replace(obj: _T, /, **changes: object) -> _T:
    """`dataclasses.replace`, for a `GameState` without its cost.

    The what-ifs build thousands of changed states a run, and `dataclasses.replace` walks the class's field
    objects and calls the generated `__init__` with keywords each time. A `GameState` has no `__post_init__`,
    no defaults and no field outside `__init__`, so setting its slots from the state and the changes gives the
    same value (the same fields, equal and hashing equal), as fast as a copy; any other object is handed to
    `dataclasses.replace`.
    """
    if type(obj) is not GameState:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    if not changes.keys() <= _STATE_FIELD_SET:
        raise TypeError(f"GameState has no field {sorted(changes.keys() - _STATE_FIELD_SET)}")
    new = _new_object(GameState)
    for name, value in zip(STATE_FIELDS, _STATE_VALUES(obj), strict=True):
        _set_field(new, name, value)
    for name, value in changes.items():
        _set_field(new, name, value)
    return cast(_T, new)


def from_card_data(compute: Callable[[GameState], _T]) -> Callable[[GameState], _T]:
    """`compute`, a function of the card data alone (read through a state), worked out once per card set.

    The what-ifs ask which cards have some effect at every state they look at; the answer depends on the card file
    only. It is kept by the card set's identity, with the card set itself beside it, so that a recycled id is never
    mistaken for another card set.
    """
    found: dict[int, tuple[object, _T]] = {}

    @functools.wraps(compute)
    def cached(state: GameState) -> _T:
        known = found.get(id(state.cards))
        if known is None or known[0] is not state.cards:
            known = found[id(state.cards)] = (state.cards, compute(state))
        return known[1]

    return cached


_memo_state: list[GameState | None] = [None]


_memo_actions: list[tuple[Action, ...]] = [()]


def legal(state: GameState) -> tuple[Action, ...]:
    """`engine.legal_actions`, remembered for the last state asked about.

    The machine and the liveness checks ask about the same state one after the other; the memo
    holds the state itself (not its id), so a recycled object id can never return stale actions.
    """
    if _memo_state[0] is state:
        return _memo_actions[0]
    actions = engine.legal_actions(state)
    _memo_state[0] = state
    _memo_actions[0] = actions
    return actions


class Memo(dict[object, object]):
    """A dict that `forget` can reach without keeping it alive."""


_MEMOS: weakref.WeakValueDictionary[int, Memo] = weakref.WeakValueDictionary()
"""Every memo made by `memo` and still in use, emptied by `forget`."""

MEMO_SIZE = 4096
"""A memo holds at most this many verdicts; a full one starts again empty."""


def memo() -> Memo:
    """A memo of a check's verdicts, emptied with the others by `forget` (a mutant changes the engine).

    A what-if asks the engine about a copy of the state changed in a few fields; when the engine's
    function it asks reads only some fields of that copy (and the card data), its answer, and so the
    check's verdict, is a function of those fields, and a check keeps its verdicts by them. The key
    must hold every field that function reads (not just the ones the rule says matter: a broken rule
    may read the others wrongly); it holds the `Game` itself, never its id.
    """
    found = Memo()
    _MEMOS[id(found)] = found
    return found


def remembered(found: dict[object, object], key: object, compute: Callable[[], str | None]) -> str | None:
    """The verdict `compute` gives, kept in `found` (a `memo`) under `key`."""
    if key in found:
        return cast("str | None", found[key])
    verdict = compute()
    if len(found) >= MEMO_SIZE:
        found.clear()
    found[key] = verdict
    return verdict


def forget() -> None:
    """Drop the remembered legal actions and every memo (after the engine has been changed, e.g. by a mutant)."""
    _memo_state[0] = None
    _memo_actions[0] = ()
    for found in list(_MEMOS.values()):
        found.clear()


def hand_limit(state: GameState) -> int:
    """The Movement's hand limit from the card data: the base plus each achieved hand-size Goal."""
    bonus = sum(e.amount for g in state.achieved for e in state.game.goal(g).effects
                if isinstance(e, HandSize))
    return state.cards.rules.movement_hand_limit + bonus


def messaging_price(state: GameState, action: Message) -> int:
    """Messaging: what `action` costs in `state`, from the display's printed Doubt values.

    The column's Doubt goes bottom-up, the lowest occupied space first, each at its own printed
    cost; each Victim removed after them costs one more.
    """
    values = state.cards.display.doubt_values[action.zone]
    present = state.doubt[action.zone]
    return sum(values[present - 1 - i] for i in range(action.doubts)) + action.victims


def goal_points(state: GameState) -> int:
    return sum(state.game.goal(g).points for g in state.achieved)


def icon_agitations(state: GameState) -> tuple[GameState, tuple[Agitate, ...]]:
    """`state` with an Agitation of icons enough for any Goal pending, and the Agitations it offers.

    The what-ifs on Goals start here: each offered place is an available Goal, and one that spends no
    token is achieved with icons alone.
    """
    step = Agitation(icons=99)
    probe = dataclasses.replace(state, pending=(step,))
    return probe, tuple(a for a in choice_actions(probe, step) if isinstance(a, Agitate))


ONE_STEP_EFFECTS = (AddVictims, ScoreProfit, Discount)
"""Effects that resolve with no choice and no draw: a play made of them resolves in its own step."""

CHOOSING_EFFECTS = (AddDoubt, Lobby, RemoveMarketCard, NamedEffect)
"""Effects that stop for a choice (Standard Effects > Adding Doubt; Company Rules > Interference; a named effect,
which may ask one)."""


@from_card_data
def trigger_pairs(state: GameState) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(card, Reserve cards) from the card data: each standard side with a trigger whose effects are all
    `ONE_STEP_EFFECTS` (the Reserve cards it activates then resolve in the same step), with every other card
    whose Reserve side it activates (same trigger and icon: Reserve Effects)."""
    company = state.game.company_card
    numbers = sorted(n for n, c in state.cards.company.items() if c is not None)
    pairs = []
    for card in numbers:
        side = company(card).standard
        if side is None or side.trigger is None or not all(isinstance(e, ONE_STEP_EFFECTS) for e in side.effects):
            continue
        triggered = tuple(other for other in numbers if other != card and (reserve := company(other).reserve)
                          is not None and reserve.trigger is side.trigger and reserve.icon is side.icon)
        if triggered:
            pairs.append((card, triggered))
    return tuple(pairs)


def card_kind(state: GameState, card: int) -> str:
    return state.game.company_card(card).kind


def loopholes(state: GameState) -> bool:
    """Company Interference: a Loopholes card, itself not banned, lies in the Reserve."""
    for card in state.c_reserve:
        data = state.game.company_card(card)
        if data.reserve is not None and data.reserve.loopholes and data.kind not in state.banned:
            return True
    return False


def loopholes_added(state: GameState, keep: tuple[int, ...]) -> GameState | None:
    """`state` with a Loopholes card whose kind is not banned at the Reserve's left end, taken from wherever it is
    (out of the game included); None if there is none apart from `keep`, or one is in the Reserve already."""
    if any(c in state.c_reserve for c in loopholes_cards(state)):
        return None
    found = next((c for c in loopholes_cards(state) if c not in keep and card_kind(state, c) not in state.banned),
                 None)
    if found is None:
        return None

    def rest(cards: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(c for c in cards if c != found)

    return replace(state, c_deck=rest(state.c_deck), c_discard=rest(state.c_discard), c_hand=rest(state.c_hand),
                   c_reserve=(found, *state.c_reserve), trash=rest(state.trash), c_removed=rest(state.c_removed),
                   piles=tuple(rest(pile) for pile in state.piles), stacks=tuple(rest(st) for st in state.stacks))


@from_card_data
def loopholes_cards(state: GameState) -> tuple[int, ...]:
    """The Company cards whose Reserve side is Loopholes, from the card data."""
    return tuple(sorted(n for n, c in state.cards.company.items()
                        if c is not None and c.reserve is not None and c.reserve.loopholes))


def budget_of(state: GameState, cards: Iterable[int]) -> int:
    budget = state.game.budget
    return sum(budget[c] for c in cards)


def can_play(state: GameState) -> bool:
    """Whether some card in the Company's hand can be played, for either effect, and paid for."""
    hand = state.c_hand
    total = budget_of(state, hand)
    has_loopholes = loopholes(state)
    for card in hand:
        data = state.game.company_card(card)
        others = total - data.budget
        banned = data.kind in state.banned
        if data.standard is not None and (not banned or has_loopholes) and data.standard.cost <= others:
            return True
        if data.reserve is not None and not banned and data.reserve.cost <= others:
            return True
    return False


def buy_price(state: GameState, card: int, from_trash: bool = False) -> int:
    """What buying `card` costs now: its Budget, one more from the trash pile, less the discount (Buying Cards)."""
    return max(0, state.game.company_card(card).budget + (1 if from_trash else 0) - state.discount)


def buy_costs(state: GameState) -> list[tuple[BuySource, int, int]]:
    """(source, index, cost) of every card the Company may buy, from the rulebook and the rulings."""
    rulings = state.rulings
    cards = state.cards
    offers: list[tuple[BuySource, int, int]] = []
    for i, pile in enumerate(state.piles):
        if pile and (cards.piles[i].kind != "restriction" or rulings.get("restriction-pile-buy") == "buyable"):
            offers.append((BuySource.PILE, i, buy_price(state, pile[-1])))
    for i, stack in enumerate(state.stacks):
        if stack:
            offers.append((BuySource.STACK, i, buy_price(state, stack[-1])))
    if state.trash:
        positions = range(len(state.trash)) if rulings.get("trash-buy") == "any" else (len(state.trash) - 1,)
        offers.extend((BuySource.TRASH, p, buy_price(state, state.trash[p], from_trash=True)) for p in positions)
    return offers


def can_buy(state: GameState) -> bool:
    """Whether the Company's hand can pay for some card it may buy."""
    total = budget_of(state, state.c_hand)
    return any(c <= total for _, _, c in buy_costs(state))


def at_rest(state: GameState) -> bool:
    return state.outcome is None and not state.pending


def within_reach(state: GameState, card: int) -> bool:
    """Whether the Company has `card` where a what-if may take it from: its deck, discard pile, hand, Reserve, the
    trash pile or a pile of its Market (not, e.g., a Restriction card a Goal holds)."""
    places = (state.c_deck, state.c_discard, state.c_hand, state.c_reserve, state.trash, *state.piles)
    return any(card in place for place in places)


def taken_out(state: GameState, card: int) -> GameState:
    """`state` with `card` taken from wherever the Company has it (a pile or stack, or out of the game, included) into
    its discard pile; a what-if that only moves the card."""
    def rest(cards: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(c for c in cards if c != card)

    if card in state.c_discard:
        return state
    return replace(
        state, c_deck=rest(state.c_deck), c_hand=rest(state.c_hand), c_reserve=rest(state.c_reserve),
        trash=rest(state.trash), c_removed=rest(state.c_removed), piles=tuple(rest(pile) for pile in state.piles),
        stacks=tuple(rest(stack) for stack in state.stacks), c_discard=tuple(sorted((*state.c_discard, card))))


def reshuffle_probes(state: GameState, card: int, banned: tuple[str, ...]) -> tuple[GameState, GameState] | None:
    """Two states before a Draw Phase whose Reshuffle Sequence runs at once, differing only in where `card` is.

    In the first `card` is at the Reserve's right end (resolved first in step C); in the second it is on
    the trash pile already. The card is taken from wherever the Company has it or from a pile (None if
    it is in neither, e.g. in the Restrictions pile's Goals), the deck is emptied into the discard pile
    (so the Sequence runs at once under either draw-order ruling), and `banned` replaces the bans.
    """
    if not within_reach(state, card):
        return None

    def rest(cards: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(c for c in cards if c != card)

    base = dataclasses.replace(state, banned=banned, c_deck=(), c_hand=rest(state.c_hand),
                               c_discard=tuple(sorted(rest(state.c_deck) + rest(state.c_discard))),
                               piles=tuple(rest(pile) for pile in state.piles))
    in_reserve = dataclasses.replace(base, c_reserve=(*rest(state.c_reserve), card), trash=rest(state.trash))
    trashed = dataclasses.replace(base, c_reserve=rest(state.c_reserve), trash=(*rest(state.trash), card))
    return in_reserve, trashed
