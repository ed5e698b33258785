"""Property tests of the engine's contract, over games drawn by Hypothesis and seeded playouts.

The contract (docs/architecture.md; STYLE "Pure transitions", "Legality in one place", "Chance is
explicit"): `is_legal` agrees with `legal_actions`, also on near-miss actions built by perturbing
legal ones; `apply` never changes its input; text forms round-trip; `play` refuses illegal actions
with `IllegalActionError` naming the action and a rulebook section, leaving the state as it was;
the same seed gives the same game; equal states hash equal; chance probabilities sum to one; every
state that is not over has a legal action; tokens and cards are conserved and supplies never go
below zero (the piece limits); games end.

The default runs take a few seconds; `-m slow` runs the long variants.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doubtspec.errors import IllegalActionError, TraceError
from doubtspec.model.actions import (
    Action,
    Agitate,
    Buy,
    BuySource,
    Chance,
    ChooseStart,
    End,
    EndBuy,
    EndPlay,
    LobbyOn,
    LobbyWhere,
    Message,
    MovementBuy,
    MovementPlay,
    OrganizePlay,
    Pass,
    PlaceDoubt,
    PlayReserve,
    PlayStandard,
    RemoveFromMarket,
    Skip,
    TrashCard,
    Unlobby,
    parse_action,
)
from doubtspec.model.cards import CardSet, TokenKind, Zone
from doubtspec.model.engine import apply, chance_outcomes, current_actor, is_legal, legal_actions, new_game, play
from doubtspec.model.game import Game
from doubtspec.model.legal import buy_offers
from doubtspec.model.playout import random_playout
from doubtspec.model.rulings import REGISTRY, Rulings
from doubtspec.model.state import STATE_FIELDS, TOKEN_INDEX, Actor, GameState, Phase, Side
from doubtspec.rulebook import Section

SECTIONS = frozenset(s.value for s in Section)
RULING_SPECS: tuple[tuple[str, ...], ...] = ((), *(
    (f"{r.id}={choice}",) for r in REGISTRY if r.selectable for choice in r.choice_names[1:]))
"""The default rulings, then each selectable alternative on its own."""

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _game(cards: CardSet, spec: tuple[str, ...]) -> Game:
    return Game(cards, Rulings.parse(spec))


# --- checks applied to every visited state ---------------------------------------------------


def snapshot(state: GameState) -> tuple[object, ...]:
    """Every field's value (the game definition included, by identity)."""
    return (id(state.game), *(getattr(state, name) for name in STATE_FIELDS if name != "game"))


def check_conservation(state: GameState) -> None:
    """Tokens live in one place each; supplies never go below zero; every card is somewhere, once."""
    limits = state.cards.supply
    held = {
        TokenKind.PROFIT: state.profit + sum(state.market_profit) + sum(state.goal_profit),
        TokenKind.VICTIMS: sum(state.victims),
        TokenKind.DOUBT: sum(state.doubt),
        TokenKind.STARS: state.stars,
        TokenKind.INFLUENCE: state.influence,
        TokenKind.MESSAGING: state.messaging,
        TokenKind.AGITATION: state.agitation + sum(state.goal_agitation),
        TokenKind.BANS: len(state.banned),
        TokenKind.FLIGHT: state.flight + state.flight_spent,
    }
    for kind, amount in held.items():
        left = state.supply[TOKEN_INDEX[kind]]
        assert left >= 0, (kind, left)
        assert amount + left == limits[kind], (kind, amount, left)
    assert min((*state.victims, *state.doubt, state.profit, state.influence, state.messaging, state.agitation)) >= 0
    values = state.cards.display.doubt_values
    assert all(state.doubt[z] <= len(values[z]) for z in Zone)
    assert all(p <= 3 for p in (*state.market_profit, *state.goal_profit))
    if state.tableau:  # Movement Set-Up done
        movement = [*state.m_deck, *state.m_hand, *state.m_discard, *(c for c in state.market if c),
                    *(c for c, _ in state.tableau)]
        assert sorted(movement) == sorted(state.cards.movement)
        assert len(state.tableau) <= state.cards.rules.tableau_limit
        assert len(state.m_hand) <= state.hand_limit()
    if len(state.stacks) == state.cards.rules.stacks_dealt:
        company = [*state.c_deck, *state.c_hand, *state.c_discard, *state.c_reserve, *state.c_in_play,
                   *state.trash, *state.c_removed, *(c for p in state.piles for c in p),
                   *(c for s in state.stacks for c in s)]
        assert sorted(company) == sorted(state.cards.company)
    goals = [g for g in state.goals if g]
    if len(goals) + len(state.achieved) == 9:
        assert sorted(goals + list(state.achieved)) == list(range(1, 10))
        assert not {7, 8, 9} & set(state.goals[7:]), "G7-G9 dealt into the last row"
    if not state.pending:
        assert state.c_in_play == (), "a standard play left unresolved at rest"


def check_state(state: GameState, actions: tuple[Action, ...]) -> None:
    """The per-state properties: a legal action unless over; chance; text forms; conservation."""
    actor = current_actor(state)
    if actor is Actor.TERMINAL:
        assert actions == () and state.outcome is not None and state.phase is Phase.OVER
        return
    assert actions, f"no legal action in {state.summary()}"
    assert len(set(actions)) == len(actions), "legal_actions lists an action twice"
    outcomes = chance_outcomes(state)
    if actor is Actor.CHANCE:
        assert all(isinstance(a, Chance) for a in actions)
        assert sum(p for _, p in outcomes) == Fraction(1)
        assert tuple(a for a, _ in outcomes) == actions
    else:
        assert outcomes == ()
        assert not any(isinstance(a, Chance) for a in actions)
    for action in actions:
        assert parse_action(str(action)) == action, str(action)
    check_conservation(state)


def near_misses(state: GameState, action: Action) -> Iterator[Action]:
    """Actions one small step away from a legal one (other card, payment, index, end, count)."""
    hand = state.c_hand
    match action:
        case PlayStandard(card=card, pay=pay) | PlayReserve(card=card, pay=pay):
            cls = type(action)
            yield cls(card + 1, pay)
            yield PlayReserve(card, pay) if cls is PlayStandard else PlayStandard(card, pay)
            if pay:
                yield cls(card, pay[:-1])
                yield cls(card, (*pay, pay[-1]))
            yield from (cls(card, tuple(sorted((*pay, c)))) for c in hand if c != card and c not in pay)
            yield cls(card, (card, *pay))
        case Buy(source=source, index=index, pay=pay):
            yield Buy(source, index + 1, pay)
            yield from (Buy(s, index, pay) for s in BuySource if s is not source)
            if pay:
                yield Buy(source, index, pay[1:])
            yield from (Buy(source, index, tuple(sorted((*pay, c)))) for c in hand if c not in pay)
        case MovementPlay(card=card, flip=flip, end=end, remove=remove):
            other = End.LEFT if end is End.RIGHT else End.RIGHT
            yield MovementPlay(card, flip, other, remove)
            yield MovementPlay(card + 1, flip, end, remove)
            yield MovementPlay(card, flip[1:], end, remove)
            yield from (MovementPlay(card, tuple(sorted((*flip, p))), end, remove)
                        for p in range(len(state.tableau) + 1) if p not in flip)
            yield MovementPlay(card, flip, end, None if remove is not None else 0)
            if remove is not None:
                yield MovementPlay(card, flip, end, remove + 1)
        case MovementBuy(space=space, flip=flip):
            yield MovementBuy(space + 1, flip)
            yield MovementBuy(space, flip[1:])
            yield from (MovementBuy(space, tuple(sorted((*flip, p)))) for p in range(len(state.tableau))
                        if p not in flip)
        case Message(zone=zone, doubts=doubts, victims=victims):
            yield Message(zone, doubts + 1, victims)
            yield Message(zone, doubts, victims + 1)
            if doubts:
                yield Message(zone, doubts - 1, victims + 1)
            yield from (Message(z, doubts, victims) for z in Zone if z is not zone)
        case Agitate(slot=slot, tokens=tokens):
            yield Agitate(slot, tokens + 1)
            yield Agitate((slot + 1) % 9, tokens)
            yield Agitate(slot - 1, tokens)
        case OrganizePlay(card=card, end=end, remove=remove):
            yield OrganizePlay(card + 1, end, remove)
            yield OrganizePlay(card, end, None if remove is not None else 0)
        case LobbyOn(where=where, index=index) | Unlobby(where=where, index=index):
            cls2 = type(action)
            yield cls2(where, index + 1)
            yield cls2(LobbyWhere.GOAL if where is LobbyWhere.MARKET else LobbyWhere.MARKET, index)
        case PlaceDoubt(column=column):
            yield from (PlaceDoubt(z) for z in Zone if z is not column)
        case RemoveFromMarket(space=space):
            yield RemoveFromMarket(space + 1)
        case TrashCard(card=card):
            yield TrashCard(card + 1)
        case Chance(outcome=outcome):
            yield Chance(outcome + 1)
            yield Chance(outcome - 1)
        case ChooseStart(card=card):
            yield ChooseStart(card + 3)
    yield from (EndPlay(), EndBuy(), Pass(), Skip(Side.COMPANY), Skip(Side.MOVEMENT), Chance(0))


def check_legality(state: GameState, actions: tuple[Action, ...], action: Action) -> None:
    """`is_legal` agrees with `legal_actions` on near misses; `play` refuses illegal ones untouched."""
    legal = set(actions)
    before, before_hash = snapshot(state), hash(state)
    for other in near_misses(state, action):
        assert is_legal(state, other) == (other in legal), other
        if other in legal:
            continue
        with pytest.raises(IllegalActionError) as info:
            play(state, other)
        error = info.value
        assert error.action == str(other)
        assert error.rule in SECTIONS
        assert str(other) in str(error)
    assert snapshot(state) == before and hash(state) == before_hash


def step(state: GameState, action: Action) -> GameState:
    """`apply`, checking that it leaves its input untouched and that `play` agrees with it."""
    before, before_hash = snapshot(state), hash(state)
    after = apply(state, action)
    assert snapshot(state) == before and hash(state) == before_hash
    checked = play(state, action)
    assert checked == after and hash(checked) == hash(after)
    assert snapshot(state) == before
    return after


def careful(state: GameState, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """The Company's actions that do not lose at once nor spend the Budget the Buy Phase needs.

    Uniform random Companies tend to lose in their first turns; this keeps games going long enough to
    reach Reshuffles, Pacing and Goals.
    """
    if current_actor(state) is not Actor.COMPANY or len(actions) < 2:
        return actions
    kept = []
    for action in actions:
        after = apply(state, action)
        if after.outcome is not None and after.outcome.winner is Side.MOVEMENT:
            continue
        if isinstance(action, PlayStandard | PlayReserve):
            offers = buy_offers(after)
            budget = sum(after.game.budget[c] for c in after.c_hand)
            if not offers or budget < min(cost for *_, cost in offers):
                continue
        kept.append(action)
    return tuple(kept) or actions


def careful_policy(state: GameState, actions: tuple[Action, ...], rng: random.Random) -> Action:
    options = careful(state, actions)
    return options[rng.randrange(len(options))]


# --- Hypothesis: walks chosen action by action -------------------------------------------------


def walk(data: st.DataObject, game: Game, max_steps: int, cautious: bool) -> GameState:
    """Play from Set-Up, each action drawn by Hypothesis, checking every property on the way."""
    state = new_game(game)
    for _ in range(max_steps):
        actions = legal_actions(state)
        check_state(state, actions)
        if not actions:
            break
        options = careful(state, actions) if cautious else actions
        action = options[data.draw(st.integers(0, len(options) - 1), label="action")]
        check_legality(state, actions, action)
        state = step(state, action)
    check_state(state, legal_actions(state))
    return state


@FAST
@given(data=st.data(), spec=st.sampled_from(RULING_SPECS), cautious=st.booleans())
def test_engine_contract_on_walks(cards: CardSet, data: st.DataObject, spec: tuple[str, ...],
                                  cautious: bool) -> None:
    walk(data, _game(cards, spec), max_steps=500, cautious=cautious)


@pytest.mark.slow
@SLOW
@given(data=st.data(), spec=st.sampled_from(RULING_SPECS))
def test_engine_contract_on_long_walks(cards: CardSet, data: st.DataObject, spec: tuple[str, ...]) -> None:
    walk(data, _game(cards, spec), max_steps=3000, cautious=True)


# --- seeded playouts ---------------------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), spec=st.sampled_from(RULING_SPECS))
def test_games_end_and_every_state_holds(cards: CardSet, seed: int, spec: tuple[str, ...]) -> None:
    """Uniform random games end well within the step bound; every state on the way is sound."""
    game = _game(cards, spec)
    playout = random_playout(game, seed, max_steps=20_000)
    assert playout.finished, f"seed {seed} did not finish in 20000 steps"
    state = new_game(game)
    for action in playout.actions:
        actions = legal_actions(state)
        check_state(state, actions)
        assert action in actions
        state = apply(state, action)
    assert state == playout.final
    check_state(state, ())


@pytest.mark.parametrize("seed", range(3))
def test_careful_games_end(cards: CardSet, seed: int) -> None:
    """Games between a careful Company and a random Movement end too (they reach Reshuffles)."""
    playout = random_playout(Game(cards), seed, max_steps=20_000, company=careful_policy)
    assert playout.finished
    assert playout.final.reshuffles > 0 or playout.final.round > 3


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_game(cards: CardSet, seed: int) -> None:
    """Seeds live at the edge: two runs with one seed, even on separate `Game` objects, agree."""
    first = random_playout(Game(cards), seed)
    second = random_playout(Game(cards), seed)
    assert first.actions == second.actions
    assert first.final == second.final and hash(first.final) == hash(second.final)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_equal_states_hash_equal(cards: CardSet, seed: int) -> None:
    """Replaying one trace on another `Game` gives equal states with equal hashes, step by step."""
    playout = random_playout(Game(cards), seed)
    a, b = new_game(Game(cards)), new_game(Game(cards))
    for action in playout.actions:
        assert a == b and hash(a) == hash(b)
        copy = replace(a)
        assert copy == a and hash(copy) == hash(a)
        a, b = apply(a, action), apply(b, action)
    assert a == b == playout.final


def test_states_differing_in_one_field_differ(cards: CardSet) -> None:
    """Equality covers every field but the game definition (so hashing is not vacuous)."""
    state = random_playout(Game(cards), 7, max_steps=40).final
    assert replace(state, profit=state.profit + 1) != state
    assert replace(state, round=state.round + 1) != state
    assert replace(state, pending=()) != state or state.pending == ()
    assert replace(state, game=Game(cards, Rulings.parse(["trash-buy=any"]))) == state


@pytest.mark.parametrize("text", ["", "chance", "chance 5 7", "chance five", "c play 1 pay - extra", "x play 1",
                                  "x start 1", "a play 1 pay -", "b start 1", "a 5",
                                  "c remove goal:1", "c play 1 pay +"])
def test_malformed_action_text_is_refused(text: str) -> None:
    # Trailing words are not ignored: "chance 5 7" is no more a chance outcome than "c play 1 pay - extra" a play.
    # Words are matched, not ordered: "a 5" is no chance outcome, and an actor other than c or m is refused, even
    # before a verb the Movement has, whether it sorts before or after them. A payment is "-" or card numbers: "+",
    # which sorts before "-", is neither.
    with pytest.raises(TraceError):
        parse_action(text)



def test_the_state_summary_names_the_first_pending_step(cards: CardSet) -> None:
    """Refusals of illegal actions carry `summary()`: it names the first pending step, also when it is the only one."""
    state = new_game(Game(cards))
    assert len(state.pending) > 1
    for pending in (state.pending, state.pending[:1]):
        assert f"pending {type(pending[0]).__name__}," in replace(state, pending=pending).summary()
    assert "pending -," in replace(state, pending=()).summary()
