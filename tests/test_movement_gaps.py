"""The Movement's rule checks that close gaps in the catalog: each passes on the engine, and each names an engine
patched to break its rule (the Market after Organize, progress on a Goal, Lobbying on a Goal, the order of the
Pacing passives, Restriction cards from the trash pile, a spent Market deck)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator

import pytest

from doubtspec.invariants import derived
from doubtspec.invariants.catalog import BY_ID, StateInvariant, TransitionInvariant
from doubtspec.invariants.machines import _organised, _prudent
from doubtspec.invariants.mutants import MUTANTS
from doubtspec.invariants.ruling_sweep import RULING_VARIANTS
from doubtspec.model.actions import Action, Agitate
from doubtspec.model.cards import AddRestriction, CardSet, TokenKind
from doubtspec.model.engine import apply, current_actor, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.model.rulings import Rulings
from doubtspec.model.state import TOKEN_INDEX, Actor, GameState, Phase
from doubtspec.model.steps import Agitation
from doubtspec.model.work import replace_at, sorted_with

NEW_CHECKS = ("rule.organize-offers", "rule.goal-offers", "rule.lobbied-goal-offers", "rule.pacing-offers")
"""The what-ifs added or extended here; `rule.goal` (a postcondition) is checked on every step as well."""


def _game_states(game: Game, seed: int, limit: int = 500) -> Iterator[tuple[GameState, Action, GameState]]:
    """The steps of a seeded game: a prudent Company and, in even seeds, a Goal-minded Movement that organises."""
    rng = random.Random(seed)
    state = new_game(game)
    organised = seed % 2 == 0
    for _ in range(limit):
        if state.outcome is not None:
            return
        actions = legal_actions(state)
        if current_actor(state) is Actor.COMPANY and not state.pending and state.phase is Phase.COMPANY_PLAY:
            actions = tuple(_prudent(state, actions))
        if organised and not state.pending and state.phase is Phase.MOVEMENT_TURN:
            actions = tuple(_organised(state, actions))
        action = actions[rng.randrange(len(actions))]
        after = apply(state, action)
        yield state, action, after
        state = after


def _state_check(inv_id: str) -> Callable[[GameState], str | None]:
    inv = BY_ID[inv_id]
    assert isinstance(inv, StateInvariant)
    return inv.check


def _goal_check() -> Callable[[GameState, Action, GameState], str | None]:
    inv = BY_ID["rule.goal"]
    assert isinstance(inv, TransitionInvariant)
    return inv.check


@pytest.fixture(scope="module")
def states(cards: CardSet) -> list[GameState]:
    """States of a few seeded games under the default rulings, made with the engine unpatched."""
    game = Game(cards)
    return [after for seed in range(4) for _, _, after in _game_states(game, seed)]


def _findings(inv_id: str, states: list[GameState]) -> list[str]:
    derived.forget()
    check = _state_check(inv_id)
    return [message for state in states if (message := check(state)) is not None]


# --- the engine passes -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rulings", [(), *RULING_VARIANTS])
def test_the_engine_passes(cards: CardSet, rulings: tuple[str, ...]) -> None:
    game = Game(cards, Rulings.parse(rulings))
    derived.forget()
    checks = {inv_id: _state_check(inv_id) for inv_id in NEW_CHECKS}
    goal = _goal_check()
    for seed in range(3):
        for before, action, after in _game_states(game, seed, limit=300):
            assert goal(before, action, after) is None, (seed, action)
            for inv_id, check in checks.items():
                assert check(after) is None, (inv_id, seed, after.summary())


# --- 1. Organize: the Market after the buy -------------------------------------------------------------------------

def test_organize_refill_before_take_is_named(states: list[GameState]) -> None:
    assert _findings("rule.organize-offers", states) == []
    with MUTANTS["organize-takes-first"].active():
        found = _findings("rule.organize-offers", states)
    # Taken first, the card leaves its space before the refill draws (or the refill fills the space itself).
    assert found and all("stays empty" in m or "the refill comes before the card" in m for m in found), found[:3]
    assert any("buying the Organize space" in m and "spent" not in m.split(":")[0] for m in found)


def test_company_turn_before_organize_refill_is_named(states: list[GameState]) -> None:
    with MUTANTS["company-turn-before-organize-refill"].active():
        found = _findings("rule.organize-offers", states)
    assert found and all("at a draw of the refill the phase is company-play" in m for m in found), found[:3]


def test_spent_market_deck_not_renewed_is_named(states: list[GameState]) -> None:
    with MUTANTS["market-deck-not-renewed"].active():
        organize = _findings("rule.organize-offers", states)
        pacing = _findings("rule.pacing-offers", states)
    assert organize and all("spent into the discards" in m and "were refilled" in m for m in organize), organize[:3]
    assert pacing and all("empty while the Market deck or the discards hold cards" in m for m in pacing), pacing[:3]


# --- 2. Agitation left on a Goal as progress ---------------------------------------------------------------------

def _partial_agitation(state: GameState) -> tuple[GameState, Agitate] | None:
    """`state` with an Agitation of one icon pending, and an Agitate of one token on a Goal costing three or more."""
    from doubtspec.model.legal import choice_actions

    step = Agitation(icons=1)
    probe = dataclasses.replace(state, pending=(step,), agitation=max(1, state.agitation))
    for action in choice_actions(probe, step):
        if isinstance(action, Agitate) and action.tokens == 1:
            goal = probe.game.goal(probe.goals[action.slot])
            if goal.cost + probe.goal_profit[action.slot] - probe.goal_agitation[action.slot] >= 3:
                return probe, action
    return None


def test_progress_on_a_goal_is_checked(states: list[GameState]) -> None:
    check = _goal_check()
    found = next(p for s in states if s.phase is Phase.MOVEMENT_TURN and not s.pending and s.outcome is None
                 and (p := _partial_agitation(s)) is not None)
    probe, action = found
    after = apply(probe, action)
    assert check(probe, action, after) is None
    slot = action.slot
    assert after.goal_agitation[slot] == probe.goal_agitation[slot] + 2
    # Hand-made wrong successors: the icon not converted; converted but not taken from the supply.
    lost = dataclasses.replace(after, goal_agitation=replace_at(after.goal_agitation, slot, after.goal_agitation[slot]
                                                                 - 1))
    assert "converted from the 1 icons" in str(check(probe, action, lost))
    index = TOKEN_INDEX[TokenKind.AGITATION]
    free = dataclasses.replace(after, supply=replace_at(after.supply, index, after.supply[index] + 1))
    assert "converting 1 icon Agitation" in str(check(probe, action, free))
    # The engine patched: the transition check and the Lobbying what-if (whose first probe leaves progress) name it.
    with MUTANTS["icons-not-left-on-goal"].active():
        assert "converted from the 1 icons" in str(check(probe, action, apply(probe, action)))
        lobbied = _findings("rule.lobbied-goal-offers", states)
    assert lobbied and all("converted from the" in m for m in lobbied), lobbied[:3]


# --- 3. Lobbying on a Goal ---------------------------------------------------------------------------------------

def test_goal_lobbying_not_charged_is_named(states: list[GameState]) -> None:
    assert _findings("rule.lobbied-goal-offers", states) == []
    with MUTANTS["goal-lobbying-not-charged"].active():
        found = _findings("rule.lobbied-goal-offers", states)
    assert found and all("Profit on Goal" in m and "achieved it; it needs" in m for m in found), found[:3]


def test_lobbied_goal_offers_skip_market_only(cards: CardSet) -> None:
    """Under lobby-targets=market-only no Goal carries Profit: the what-if does not build one."""
    game = Game(cards, Rulings.parse(["lobby-targets=market-only"]))
    movement_turns = [after for _, _, after in _game_states(game, 0, limit=200)
                      if after.phase is Phase.MOVEMENT_TURN and not after.pending]
    with MUTANTS["goal-lobbying-not-charged"].active():
        assert movement_turns and all(_state_check("rule.lobbied-goal-offers")(s) is None for s in movement_turns)


# --- 4. Pacing: the token passives before the Refresh passives -------------------------------------------------

def test_pacing_order_is_named(states: list[GameState]) -> None:
    assert _findings("rule.pacing-offers", states) == []
    with MUTANTS["pacing-refreshes-first"].active():
        found = _findings("rule.pacing-offers", states)
    assert found and all("Pacing: " in m and "the rules give" in m for m in found), found[:3]


# --- 5. Restriction cards never from the trash pile -------------------------------------------------------------

def test_restriction_from_trash_is_named(states: list[GameState]) -> None:
    with MUTANTS["restriction-from-trash"].active():
        found = _findings("rule.goal-offers", states)
    assert found and all("a Restriction card on the trash pile" in m and "Restrictions pile only" in m
                         for m in found), found[:3]


def test_goal_names_a_card_taken_from_the_trash(states: list[GameState]) -> None:
    """A hand-made successor: the Goal's Restriction card comes from the trash pile, not the spent pile."""
    from doubtspec.invariants.derived import icon_agitations
    from doubtspec.invariants.groups.rule.movement_goal import _restriction_on_trash

    check = _goal_check()
    for state in states:
        if state.phase is not Phase.MOVEMENT_TURN or state.pending or state.outcome is not None:
            continue
        pile = state.cards.restriction_pile()
        assert pile is not None
        trashed = _restriction_on_trash(state, pile)
        if trashed is None:
            continue
        probe, agitations = icon_agitations(trashed)
        for action in agitations:
            if action.tokens or not any(isinstance(e, AddRestriction)
                                        for e in probe.game.goal(probe.goals[action.slot]).effects):
                continue
            after = apply(probe, action)
            assert check(probe, action, after) is None
            card = probe.trash[-1]
            wrong = dataclasses.replace(after, trash=probe.trash[:-1], c_discard=sorted_with(after.c_discard, card))
            assert "Restrictions pile only" in str(check(probe, action, wrong))
            return
    pytest.fail("no available Goal adds a Restriction card in these games")
