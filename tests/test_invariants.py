"""The invariant catalog: its shape, known-good games, and hand-made states that must be caught."""

from __future__ import annotations

import dataclasses
import random

import pytest
from tests.conftest import count_engine_calls

from doubtspec.errors import OptionError
from doubtspec.invariants import catalog
from doubtspec.invariants.catalog import (
    BY_ID,
    CATALOG,
    ProbeInvariant,
    StateInvariant,
    Trace,
    TraceInvariant,
    TransitionInvariant,
    select,
)
from doubtspec.invariants.groups.rule import movement_influence
from doubtspec.model.actions import (
    Action,
    End,
    EndBuy,
    EndPlay,
    Message,
    MovementPlay,
    Pass,
    PlaceDoubt,
    PlayStandard,
)
from doubtspec.model.cards import TokenKind, Zone
from doubtspec.model.engine import apply, current_actor, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.model.rulings import Rulings
from doubtspec.model.state import TOKEN_INDEX, Actor, GameState, Outcome, OutcomeReason, Phase
from doubtspec.model.steps import Messaging
from doubtspec.rulebook import Section


def _prudent_game(game: Game, seed: int, limit: int = 600) -> tuple[GameState, list[tuple[GameState, Action]]]:
    """A seeded game whose Company avoids spending the Budget its Buy Phase needs (so games run long)."""
    rng = random.Random(seed)
    state = new_game(game)
    steps: list[tuple[GameState, Action]] = []
    for _ in range(limit):
        if state.outcome is not None:
            break
        actions = legal_actions(state)
        if current_actor(state) is Actor.COMPANY and not state.pending and state.phase is Phase.COMPANY_PLAY:
            from doubtspec.invariants.machines import _prudent

            actions = tuple(_prudent(state, actions))
        action = actions[rng.randrange(len(actions))]
        steps.append((state, action))
        state = apply(state, action)
    return state, steps


CHECKED = tuple(inv for inv in CATALOG if inv.id != "oracle.solver")
"""Everything but the solver oracle (a Z3 call per step; `tests/test_postconditions.py` checks it)."""


def _violations(game: Game, seeds: range) -> dict[str, str]:
    found: dict[str, str] = {}
    for seed in seeds:
        final, steps = _prudent_game(game, seed)
        for before, action in steps:
            after = apply(before, action)
            for inv in CHECKED:
                message = None
                if isinstance(inv, StateInvariant):
                    message = inv.check(after)
                elif isinstance(inv, TransitionInvariant):
                    message = inv.check(before, action, after)
                elif isinstance(inv, ProbeInvariant):
                    candidates = inv.candidates(before)
                    message = inv.check(before, candidates[0]) if candidates else None
                if message is not None:
                    found.setdefault(inv.id, f"step {len(found)}: {message}")
        trace = Trace(game, tuple(a for _, a in steps), final)
        for inv in CHECKED:
            if isinstance(inv, TraceInvariant):
                message = inv.check(trace)
                if message is not None:
                    found.setdefault(inv.id, message)
    return found


def test_catalog_shape() -> None:
    assert len(BY_ID) == len(CATALOG)
    for inv in CATALOG:
        assert inv.id and inv.id == inv.id.lower() and " " not in inv.id
        assert inv.sections and all(isinstance(s, Section) for s in inv.sections), inv.id
        assert "\n" not in inv.statement and inv.statement.endswith("."), inv.id
    kinds = {type(inv) for inv in CATALOG}
    assert kinds == {StateInvariant, TransitionInvariant, TraceInvariant, ProbeInvariant}
    for kind in TokenKind:
        assert f"tokens.{kind.value}" in BY_ID


def test_select_by_id_and_group() -> None:
    assert select(None) == CATALOG
    assert [i.id for i in select(["hand.movement"])] == ["hand.movement"]
    what_ifs = {"tokens.exhausted-offers", "tokens.exhausted-step", "tokens.one-supply-empty-step"}
    assert {i.id for i in select(["tokens"])} == {f"tokens.{k.value}" for k in TokenKind} | what_ifs
    with pytest.raises(OptionError) as info:
        select(["no-such-invariant"])
    assert info.value.field == "--invariant"


@pytest.mark.parametrize("rulings", [(), ("draw-order=reshuffle-first", "trash-buy=any"),
                                     ("messaging-zones=any-zones", "budget-payment=any-cover")])
def test_seeded_games_break_nothing(cards: object, rulings: tuple[str, ...]) -> None:
    from doubtspec.model.cards import CardSet

    assert isinstance(cards, CardSet)
    assert _violations(Game(cards, Rulings.parse(rulings)), range(3)) == {}


def _midgame(game: Game) -> GameState:
    state, _ = _prudent_game(game, 7, limit=120)
    return state


def _state(inv_id: str, state: GameState) -> str | None:
    inv = BY_ID[inv_id]
    assert isinstance(inv, StateInvariant)
    return inv.check(state)


def test_token_created_from_nothing_is_caught(game: Game) -> None:
    state = _midgame(game)
    assert _state("tokens.profit", state) is None
    broken = dataclasses.replace(state, profit=state.profit + 1)
    message = _state("tokens.profit", broken)
    assert message is not None and "piece limit" in message
    supply = list(state.supply)
    supply[TOKEN_INDEX[TokenKind.INFLUENCE]] = -1
    assert "outside" in str(_state("tokens.influence", dataclasses.replace(state, supply=tuple(supply))))


def test_card_in_two_places_is_caught(game: Game) -> None:
    state = _midgame(game)
    card = state.c_deck[0] if state.c_deck else state.c_discard[0]
    broken = dataclasses.replace(state, c_hand=tuple(sorted((*state.c_hand, card))))
    message = _state("cards.company", broken)
    assert message is not None and f"{card} is in 2 places" in message
    lost = dataclasses.replace(state, m_deck=state.m_deck[1:]) if state.m_deck else None
    if lost is not None:
        assert "missing" in str(_state("cards.movement", lost))


def test_the_reserve_keeps_its_order(game: Game) -> None:
    """`cards.reserve-order`: cards leave the Reserve from anywhere and join it at its right end only; reordered, or
    joined at the left end, it fires."""
    inv = BY_ID["cards.reserve-order"]
    assert isinstance(inv, TransitionInvariant)
    state = dataclasses.replace(_midgame(game), c_reserve=(49, 37, 55))
    for reserve in ((49, 37, 55), (49, 55), (37,), (), (49, 37, 55, 22)):
        assert inv.check(state, EndBuy(), dataclasses.replace(state, c_reserve=reserve)) is None, reserve
    for reserve in ((55, 49), (37, 49, 55), (22, 49, 37, 55)):
        assert "keep their order" in str(inv.check(state, EndBuy(), dataclasses.replace(state, c_reserve=reserve)))


def test_limits_are_caught(game: Game) -> None:
    state = _midgame(game)
    assert _state("doubt.bounds", dataclasses.replace(state, doubt=(4, 0, 0, 0))) is not None
    lobbied = dataclasses.replace(state, market_profit=(4, *state.market_profit[1:]))
    assert "at most three" in str(_state("lobby.limit", lobbied))
    hand = tuple(range(1, 5))
    assert "over its hand limit of 3" in str(_state("hand.movement", dataclasses.replace(state, m_hand=hand)))
    tableau = tuple((c, True) for c in range(1, 10))
    assert "over the limit of 8" in str(_state("tableau.limit", dataclasses.replace(state, tableau=tableau)))


def test_company_turn_starts_with_five_cards(game: Game) -> None:
    state = _midgame(game)
    start = dataclasses.replace(state, phase=Phase.COMPANY_PLAY, pending=(), plays=0, outcome=None)
    short = dataclasses.replace(start, c_hand=start.c_hand[:4] if len(start.c_hand) >= 5 else (1, 2, 3, 4))
    assert "not 5" in str(_state("hand.company", short))


def test_outcomes_must_hold(game: Game) -> None:
    state = _midgame(game)
    fake = dataclasses.replace(state, outcome=Outcome(OutcomeReason.PROFIT_VICTORY, 3, "fake"), phase=Phase.OVER,
                               pending=(), profit=10)
    assert "Profit Victory with 10 Profit" in str(_state("outcome.reason", fake))
    ongoing = dataclasses.replace(state, stars=3)
    assert "game goes on" in str(_state("outcome.reason", ongoing))
    margin = dataclasses.replace(fake, outcome=Outcome(OutcomeReason.MARGINALIZATION, 3, "fake"))
    assert _state("hand.marginalization", margin) is not None


def test_doubt_is_placed_one_at_a_time(game: Game) -> None:
    state = _midgame(game)
    inv = BY_ID["doubt.order"]
    assert isinstance(inv, TransitionInvariant)
    after = dataclasses.replace(state, doubt=(state.doubt[0] + 2, *state.doubt[1:]))
    assert inv.check(state, PlaceDoubt(Zone.CHILDREN), after) is not None
    assert inv.check(state, EndPlay(), after) is not None


def test_messaging_pays_the_bottom_space_first(game: Game) -> None:
    # Children column, values 1, 2, 2 top to bottom; with two Doubt the bottom one costs 2.
    state = dataclasses.replace(_midgame(game), doubt=(2, 1, 1, 1), messaging=5, pending=(Messaging(0),))
    inv = BY_ID["doubt.order"]
    assert isinstance(inv, TransitionInvariant)
    action = Message(Zone.CHILDREN, 1, 0)
    right = dataclasses.replace(state, doubt=(1, 1, 1, 1), messaging=3, pending=())
    assert inv.check(state, action, right) is None
    top_down = dataclasses.replace(right, messaging=4)
    assert "bottom-up" in str(inv.check(state, action, top_down))


def test_scoring_follows_the_rulebook_example(game: Game) -> None:
    # Seven Victims in Middle Age: two sets of three lose two each, three score and move on.
    state = _midgame(game)
    inv = BY_ID["scoring.demographics"]
    assert isinstance(inv, TransitionInvariant)
    supply = list(state.supply)
    supply[TOKEN_INDEX[TokenKind.VICTIMS]] += sum(state.victims) - 7
    before = dataclasses.replace(state, victims=(0, 0, 7, 0), c_reserve=(), supply=tuple(supply))
    seed_row = game.cards.display.seed_for(3)
    expected = (seed_row[0], seed_row[1], seed_row[2], 3 + seed_row[3])
    after = dataclasses.replace(before, victims=expected, profit=before.profit + 3, reshuffles=before.reshuffles + 1)
    assert inv.check(before, EndPlay(), after) is None
    wrong = dataclasses.replace(after, victims=(expected[0], expected[1], expected[2], expected[3] + 1))
    assert inv.check(before, EndPlay(), wrong) is not None


def test_banned_play_without_loopholes_is_caught(game: Game) -> None:
    state = _midgame(game)
    inv = BY_ID["ban.play"]
    assert isinstance(inv, TransitionInvariant)
    card = state.c_hand[0] if state.c_hand else 1
    kind = game.company_card(card).kind
    banned = dataclasses.replace(state, banned=(kind,), c_reserve=())
    assert "without Loopholes" in str(inv.check(banned, PlayStandard(card, ()), banned))
    assert inv.check(state, Pass(), state) is None


def test_probes_reject_out_of_turn_actions(game: Game) -> None:
    state = new_game(game)
    probe = BY_ID["reject.out-of-turn"]
    assert isinstance(probe, ProbeInvariant)
    for action in probe.candidates(state):
        assert probe.check(state, action) is None


def test_replay_detects_a_wrong_final_state(game: Game) -> None:
    final, steps = _prudent_game(game, 3, limit=60)
    inv = BY_ID["contract.replay"]
    assert isinstance(inv, TraceInvariant)
    actions = tuple(a for _, a in steps)
    assert inv.check(Trace(game, actions, final)) is None
    assert inv.check(Trace(game, actions, dataclasses.replace(final, profit=final.profit + 1))) is not None


def test_replays_share_their_prefixes_and_still_replay_each_game_from_set_up(game: Game,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Two games with a common prefix: the second replays only past the last checkpoint on the shared path, from
    the replay's own states (not the game's); a wrong final state and an early end are still found, and so is an
    engine whose replay of a step (its second answer, the game's play being the first) differs."""
    from doubtspec.invariants.groups import contract
    from doubtspec.model import engine

    real_apply = engine.apply
    catalog.forget()
    final, steps = _prudent_game(game, 5, limit=40)
    actions = tuple(a for _, a in steps)
    states = [s for s, _ in steps] + [final]
    inv = BY_ID["contract.replay"]
    assert isinstance(inv, TraceInvariant)
    calls = count_engine_calls(monkeypatch, contract)
    assert inv.check(Trace(game, actions[:30], states[30])) is None
    assert len(calls) == 30
    calls.clear()
    assert inv.check(Trace(game, actions, final)) is None  # resumes at the checkpoint after 24 actions
    assert len(calls) == len(actions) - 24
    assert inv.check(Trace(game, actions, dataclasses.replace(final, profit=final.profit + 1))) is not None
    assert inv.check(Trace(game, actions[:30], states[31])) is not None

    def drifting(state: GameState, action: object) -> GameState:  # a step answered differently the second time
        after = real_apply(state, action)  # type: ignore[arg-type]
        return dataclasses.replace(after, profit=after.profit + 1) if action == actions[36] else after

    catalog.forget()  # a changed engine empties the replays' record with the others
    monkeypatch.setattr(contract.engine, "apply", drifting)
    assert inv.check(Trace(game, actions[:30], states[30])) is None
    assert inv.check(Trace(game, actions, final)) is not None


def test_legal_memo_follows_the_state(game: Game) -> None:
    state = new_game(game)
    assert catalog.legal(state) == legal_actions(state)
    catalog.forget()
    assert catalog.legal(state) == legal_actions(state)


def test_movement_offers_are_exactly_the_plays_and_buys_allowed(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    _, steps = _prudent_game(game, 3)
    turns = [s for s, _ in steps if s.phase is Phase.MOVEMENT_TURN and not s.pending and s.m_hand and s.tableau]
    assert turns
    state = turns[-1]
    inv = BY_ID["rule.influence-payment-offers"]
    assert isinstance(inv, StateInvariant)
    assert inv.check(state) is None
    stranger = next(n for n, card in enumerate(game.movement) if card is not None and n not in state.m_hand)
    cases: list[Action] = [MovementPlay(stranger, (), End.RIGHT)]
    if len(state.tableau) < game.cards.rules.tableau_limit:
        cases.append(MovementPlay(state.m_hand[0], (), End.LEFT, 0))  # a removal below the limit
    for stray in cases:
        catalog.forget()
        monkeypatch.setattr(movement_influence, "legal", lambda s, extra=stray: (*legal_actions(s), extra))
        message = inv.check(state)
        assert message is not None and "offered" in message, stray
    catalog.forget()
    left_only = [a for a in legal_actions(state) if not (isinstance(a, MovementPlay) and a.end is End.RIGHT)]
    monkeypatch.setattr(movement_influence, "legal", lambda s: left_only)
    assert inv.check(state) is not None  # a Tableau that holds cards takes a play at either end


def test_bare_effects_offer_nothing(game: Game) -> None:
    """`contract.real-choices` asks every choosing effect of the card data, at each Play Phase start, on a table
    with nothing to choose from: the engine offers nothing; an effect that asks anyway, with only its decline, is
    named."""
    from doubtspec.invariants.mutants import MUTANTS

    check = BY_ID["contract.real-choices"]
    assert isinstance(check, StateInvariant)
    state = new_game(game)
    rng = random.Random(5)
    while state.phase is not Phase.COMPANY_PLAY or state.pending:
        actions = legal_actions(state)
        state = apply(state, actions[rng.randrange(len(actions))])
    assert check.check(state) is None
    with MUTANTS["trash-from-empty-hand-asked"].active():
        message = check.check(state)
    assert message is not None and "trash_from_hand" in message and "nothing to choose" in message, message


@pytest.mark.parametrize(("name", "told"), [("stacks-dealt-last", "stacks dealt"),
                                            ("goals-dealt-after-market", "not yet dealt")])
def test_setup_order_is_checked_at_each_step(game: Game, name: str, told: str) -> None:
    """`rule.setup` asks Set-Up's order at each of its steps: the first decision alone cannot tell a Set-Up that
    deals the same pieces in another order. Through Set-Up nothing is named on the engine, and a Set-Up with two of
    its steps swapped is named before the first turn."""
    from doubtspec.invariants.mutants import MUTANTS
    from doubtspec.model import engine

    check = BY_ID["rule.setup"]
    assert isinstance(check, StateInvariant)

    def first_message(seed: int) -> str | None:
        rng = random.Random(seed)
        state = engine.new_game(game)
        while state.phase is Phase.SETUP:
            message = check.check(state)
            if message is not None:
                return message
            actions = legal_actions(state)
            state = apply(state, actions[rng.randrange(len(actions))])
        return check.check(state)

    assert first_message(3) is None
    with MUTANTS[name].active():
        message = first_message(3)
    assert message is not None and told in message, message
