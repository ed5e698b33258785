"""The OpenSpiel action space and views, which need no OpenSpiel: a bijection, and hiding what the rules hide."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from doubtspec.agents.base import Matchup
from doubtspec.agents.simulate import derive_seed, iter_game
from doubtspec.model.actions import Chance, PlayStandard
from doubtspec.model.cards import load_cards
from doubtspec.model.engine import current_actor, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.model.rulings import Rulings
from doubtspec.model.state import Actor, GameState, Side
from doubtspec.model.steps import CompanyDraw, DrawToHandSize
from doubtspec.spiel.actions import ActionSpace, ActionSpaceError
from doubtspec.spiel.views import HIDDEN_FROM, determinize, observation_text, seen_action

DATA = Path(__file__).parent / "data"

# Matchups that reach every kind of decision: greedy and careful games run to the end (Reshuffles,
# stars, Goals, a full Tableau); random games end early but try odd corners.
_MATCHUPS = (Matchup("greedy", "greedy"), Matchup("careful", "careful"), Matchup("random", "random"),
             Matchup("careful", "greedy"))


def _states(game: Game, games: int) -> Iterator[GameState]:
    for i in range(games):
        matchup = _MATCHUPS[i % len(_MATCHUPS)]
        for move in iter_game(game, derive_seed(12, i), matchup, max_rounds=60):
            yield move.before


@pytest.mark.parametrize("variant", ["shipped", "any-cover", "tiny3"])
def test_every_action_met_has_one_id_and_back(variant: str) -> None:
    if variant == "tiny3":
        game = Game(load_cards(DATA / "tiny3.toml"))
    elif variant == "any-cover":
        game = Game(load_cards(), Rulings.parse(["budget-payment=any-cover", "trash-buy=any"]))
    else:
        game = Game(load_cards())
    space = ActionSpace(game)
    kinds: set[str] = set()
    decisions = 0
    for state in _states(game, 24 if variant == "shipped" else 8):
        actions = legal_actions(state)
        ids = [space.encode(state, a) for a in actions]
        assert len(set(ids)) == len(ids), f"two actions share an id in {state.summary()}"
        for action, action_id in zip(actions, ids, strict=True):
            if isinstance(action, Chance):
                assert 0 <= action_id < space.max_chance_outcomes
                assert space.decode_chance(action_id) == action
            else:
                assert 0 <= action_id < space.num_distinct_actions
                assert space.decode(state, action_id) == action, (str(action), action_id)
                kinds.add(space.block_of(action_id).name)
                decisions += 1
    assert decisions > 300
    if variant == "shipped":
        # the games met every kind of decision but the rarest choices of effects
        assert kinds >= {"c play", "c reserve", "c end-play", "c buy", "c end-buy", "c doubt", "c skip",
                         "m start", "m play", "m buy", "m pass", "m message", "m agitate", "m organize", "m skip"}


def test_an_action_beyond_the_bounds_is_refused_not_aliased(game: Game) -> None:
    space = ActionSpace(game)
    state = new_game(game)
    with pytest.raises(ActionSpaceError, match="outside"):
        space.decode(state, space.num_distinct_actions)
    with pytest.raises(ActionSpaceError, match="chance"):
        space.encode(state, Chance(space.max_chance_outcomes))
    wide = replace(state, c_hand=tuple(range(1, space.hand_bound + 2)))  # longer than any game has reached
    with pytest.raises(ActionSpaceError, match="bound"):
        space.encode(wide, PlayStandard(space.hand_bound + 1, ()))


def test_the_layout_is_fixed_by_the_card_file(game: Game) -> None:
    space = ActionSpace(game)
    assert space.blocks[0].start == 0
    for before, after in zip(space.blocks, space.blocks[1:], strict=False):
        assert after.start == before.start + before.size
    assert ActionSpace(Game(load_cards())).num_distinct_actions == space.num_distinct_actions


def test_a_view_hides_the_other_hand_and_nothing_else(game: Game) -> None:
    rng = random.Random(3)
    changed = 0
    for state in _states(game, 6):
        for viewer in Side:
            other_hand, _ = HIDDEN_FROM[viewer]
            sampled = determinize(state, viewer, rng)
            # the viewer cannot tell the sampled state from the real one ...
            assert observation_text(sampled, viewer) == observation_text(state, viewer)
            if getattr(sampled, other_hand) != getattr(state, other_hand):
                changed += 1
                # ... the other side can, and everything else is unchanged
                assert observation_text(sampled, viewer.other) != observation_text(state, viewer.other)
                assert sampled.c_discard == state.c_discard and sampled.market == state.market
    assert changed > 50


def test_what_a_side_may_do_does_not_depend_on_the_other_hand(game: Game) -> None:
    """The claim determinization rests on, checked without its fallback: swap the other side's hand."""
    rng = random.Random(5)
    swapped = 0
    for state in _states(game, 8):
        actor = current_actor(state)
        if actor not in (Actor.COMPANY, Actor.MOVEMENT):
            continue
        side = Side(actor.value)
        hand_field, deck_field = HIDDEN_FROM[side]
        hand, deck = getattr(state, hand_field), getattr(state, deck_field)
        if not hand or not deck:
            continue
        pool = hand + deck
        drawn = set(rng.sample(pool, len(hand)))
        other = replace(state, **{hand_field: tuple(sorted(drawn)),
                                  deck_field: tuple(sorted(c for c in pool if c not in drawn))})
        assert legal_actions(other) == legal_actions(state), state.summary()
        swapped += 1
    assert swapped > 200


def test_the_movement_does_not_see_the_company_draws(game: Game) -> None:
    draws = [m for m in iter_game(game, 1, Matchup(), max_rounds=3)
             if m.before.pending and isinstance(m.before.pending[0], CompanyDraw | DrawToHandSize)]
    assert len(draws) >= 10
    for move in draws:
        assert seen_action(move.before, move.action, Side.MOVEMENT) == "chance (a Company draw)"
        assert seen_action(move.before, move.action, Side.COMPANY) == str(move.action)
