"""Targeted rule tests that the printed examples do not cover, each naming its rulebook section.

States are laid out with the helpers of `test_rulebook_examples` (cards moved, never conjured;
supplies recomputed) and driven through the engine's `legal_actions`, `play` and `apply`. Where a
rule depends on a ruling, the test runs under each selectable choice.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest

from doubtspec.errors import IllegalActionError
from doubtspec.model.actions import (
    Action,
    Agitate,
    Buy,
    BuySource,
    Chance,
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
)
from doubtspec.model.cards import (
    AddDoubt,
    CardSet,
    DoubtGroup,
    TokenKind,
    Zone,
    default_cards_path,
    load_cards,
    parse_cards,
)
from doubtspec.model.company import can_play_standard
from doubtspec.model.engine import apply, chance_outcomes, current_actor, legal_actions, new_game, play
from doubtspec.model.game import Game
from doubtspec.model.legal import LOWER_GOALS
from doubtspec.model.movement import COVERED_BY, GOAL_ROWS, available_goals
from doubtspec.model.rulings import Rulings
from doubtspec.model.state import NO_CARD, Actor, GameState, OutcomeReason, Phase, Side
from doubtspec.model.steps import (
    CompanyDraw,
    DealGoal,
    DrawToHandSize,
    FillMarket,
    GoalSplit,
    Messaging,
    Organize,
    ResolveEffect,
)
from doubtspec.rulebook import Section
from test_rulebook_examples import (
    arrange_company,
    arrange_movement,
    company_turn,
    movement_turn,
    resupply,
    setup_state,
)

PRINT_MEDIA, TELEVISION_PILE, RESTRICTIONS = 0, 1, 4
"""Pile indexes (Company Set-Up step 2)."""
SPACE = {"refresh": 0, "messaging": 1, "research": 2, "agitation": 3, "organize": 4}
"""Market spaces of the shipped set, by action (the first of each)."""


@pytest.fixture(scope="module")
def base(game: Game) -> GameState:
    return setup_state(game)


def test_set_up_gives_each_place_one_count(game: Game) -> None:
    """Set-Up: each of the nine Goal places has one Profit and one Agitation count, each Market space one Profit
    count, through Set-Up's chance events and on into the first turn."""
    state = new_game(game)
    while True:
        assert len(state.goals) == len(state.goal_profit) == len(state.goal_agitation) == 9
        assert len(state.market_profit) == len(state.market)
        if current_actor(state) is not Actor.CHANCE:
            break
        state = apply(state, legal_actions(state)[0])


def test_every_card_of_a_file_is_found_by_its_number() -> None:
    """Cards are data: the engine finds every card of a file by its number, whether the highest number is even (the
    shipped set's Movement cards end at 34) or odd (the tiny file's at 3)."""
    for path in (None, Path(__file__).parent / "data" / "tiny.toml"):
        cards = load_cards(path)
        game = Game(cards)
        assert all(game.company_card(n).number == n for n in cards.company)
        assert all(game.movement_card(n).number == n for n in cards.movement)


def ruled(state: GameState, *specs: str) -> GameState:
    """The same table under other rulings."""
    return replace(state, game=Game(state.cards, Rulings.parse(specs)))


def draws(state: GameState, count: int | None = None) -> GameState:
    """Resolve chance events with their first outcome (`count` of them, or until someone else acts)."""
    done = 0
    while current_actor(state) is Actor.CHANCE and (count is None or done < count):
        state = play(state, legal_actions(state)[0])
        done += 1
    return state


def draw_phase(state: GameState, *, deck: tuple[int, ...], discard: tuple[int, ...], hand: tuple[int, ...] = (),
               reserve: tuple[int, ...] = (), **fields: object) -> GameState:
    """The end of a Company Buy Phase (one card bought) with the given cards: `EndBuy` starts the Draw Phase."""
    laid = arrange_company(state, c_hand=hand, c_deck=deck, c_discard=discard, c_reserve=reserve)
    return resupply(replace(laid, phase=Phase.COMPANY_BUY, pending=(), plays=1, buys=1, **fields))  # type: ignore[arg-type]


def free_actions(state: GameState, kind: type) -> list[Action]:
    return [a for a in legal_actions(state) if isinstance(a, kind)]


# --- Company Rules > On Your Go (Draw Phase) and Reshuffle Sequence ---------------------------


def test_draw_phase_without_reshuffle(base: GameState) -> None:
    """On Your Go, Draw Phase: the hand is discarded, five are drawn; no Sequence, no Pacing."""
    state = draw_phase(base, deck=(6, 7, 8, 9, 10, 11), discard=(1, 2), hand=(3, 4, 5), victims=(1, 1, 1, 1))
    after = play(state, EndBuy())
    assert after.c_hand == () and {3, 4, 5} <= set(after.c_discard)
    assert after.pending[0] == CompanyDraw(5, silent=False)
    done = draws(after)
    assert len(done.c_hand) == 5 and done.c_deck == (11,)
    assert done.victims == (1, 1, 1, 1) and done.reshuffles == 0
    assert done.phase is Phase.MOVEMENT_TURN and done.round == base.round + 1


def test_draw_first_draws_the_deck_before_the_sequence(base: GameState) -> None:
    """Reshuffle Sequence, ruling draw-order=draw-first: the deck's cards are drawn, then the Sequence runs,
    then the discards are reshuffled and the draw finishes."""
    state = draw_phase(base, deck=(6, 7), discard=(1, 2, 8, 9, 10), hand=(11, 12), victims=(1, 0, 0, 0))
    after = play(state, EndBuy())
    assert {a.outcome for a in legal_actions(after) if isinstance(a, Chance)} == {6, 7}
    assert after.victims == (1, 0, 0, 0) and after.reshuffles == 0  # not scored yet
    mid = draws(after, 2)
    assert mid.c_hand == (6, 7)
    assert mid.reshuffles == 1 and mid.profit == 1  # the Sequence ran after the deck was drawn
    assert isinstance(mid.pending[0], DrawToHandSize)
    assert set(mid.c_deck) == {1, 2, 8, 9, 10, 11, 12} and mid.c_discard == ()
    done = draws(mid)
    assert len(done.c_hand) == 5 and done.phase is Phase.MOVEMENT_TURN


def test_reshuffle_first_runs_the_sequence_before_drawing(base: GameState) -> None:
    """Reshuffle Sequence, ruling draw-order=reshuffle-first: the Sequence runs, the discards join the deck,
    then five are drawn from all of them."""
    state = ruled(draw_phase(base, deck=(6, 7), discard=(1, 2, 8, 9, 10), hand=(11, 12), victims=(1, 0, 0, 0)),
                  "draw-order=reshuffle-first")
    after = play(state, EndBuy())
    assert after.reshuffles == 1 and after.profit == 1
    assert isinstance(after.pending[0], DrawToHandSize)
    assert {a.outcome for a in legal_actions(after) if isinstance(a, Chance)} == {1, 2, 6, 7, 8, 9, 10, 11, 12}
    done = draws(after)
    assert len(done.c_hand) == 5


def test_scoring_runs_right_to_left(base: GameState) -> None:
    """A. Scoring Demographics: Elderly score and leave before Middle Age arrive, and so on leftwards."""
    after = play(draw_phase(base, deck=(), discard=tuple(range(1, 13)), victims=(1, 2, 3, 4)), EndBuy())
    # Elderly 4; Middle Age 3 -> 1; Adults 2 -> 1; Children 1: 7 scored; then the 5-8 row seeds 1/2/1.
    assert after.profit == 7
    assert after.victims == (0 + 1, 1 + 2, 1 + 1, 1)


def test_reserve_resolves_after_scoring_right_to_left_into_the_trash(base: GameState) -> None:
    """C. Resolve your Reserve: after A and B, right to left, reshuffle effects run and cards go to the trash
    pile, the first removed at the bottom; a card that says so stays."""
    overseas, magazine, direct_mail = 49, 13, 16  # 49: two Profit at a Reshuffle and stays
    state = draw_phase(base, deck=(), discard=tuple(range(1, 13)), reserve=(magazine, overseas, direct_mail),
                       victims=(11, 0, 0, 0))
    after = play(state, EndBuy())
    assert after.profit == 11 + 2
    assert after.stars == 0  # the Reserve's Profit is not scored Profit (B came before C)
    assert after.victims == (2, 11 + 3, 2, 0)
    assert after.c_reserve == (overseas,)
    assert after.trash == (direct_mail, magazine)  # the leftmost card was removed last: on top


def test_marginalization_after_a_triggered_reshuffle(base: GameState) -> None:
    """Company Rules, Marginalization: fewer than five cards after the Reshuffle lose the game."""
    state = draw_phase(base, deck=(4,), discard=(1, 2))
    done = draws(play(state, EndBuy()))
    assert done.outcome is not None and done.outcome.reason is OutcomeReason.MARGINALIZATION
    assert done.c_hand == (1, 2, 4) and current_actor(done) is Actor.TERMINAL
    assert legal_actions(done) == ()


def test_marginalization_comes_before_the_profit_victory(base: GameState) -> None:
    """Company Rules; ruling profit-victory: the 70 Profit are checked after step D's draw."""
    short = draws(play(draw_phase(base, deck=(), discard=(1, 2, 3), profit=75), EndBuy()))
    assert short.outcome is not None and short.outcome.reason is OutcomeReason.MARGINALIZATION
    full = draws(play(draw_phase(base, deck=(), discard=tuple(range(1, 13)), profit=69, victims=(1, 0, 0, 0)),
                      EndBuy()))
    assert full.outcome is not None and full.outcome.reason is OutcomeReason.PROFIT_VICTORY
    assert full.profit == 70


def test_mid_play_draw_reshuffles_without_the_sequence(base: GameState) -> None:
    """Reshuffle Sequence, note: a card that draws from an empty deck reshuffles the discards only."""
    sales_rep = 5  # standard: draw two, cost 1
    state = company_turn(base, c_hand=(sales_rep, 3), c_deck=(), c_discard=(1, 2, 6, 7, 8, 9, 10))
    after = play(state, PlayStandard(sales_rep, (3,)))
    assert after.pending[0] == CompanyDraw(2, silent=True)
    assert {c.outcome for c, _ in chance_outcomes(after)} == {1, 2, 3, 6, 7, 8, 9, 10}
    assert after.reshuffles == 0 and after.victims == state.victims and after.profit == state.profit
    done = draws(after)
    assert done.c_hand == (1, 2) and done.phase is Phase.COMPANY_PLAY and done.plays == 1
    assert done.c_discard == (sales_rep,)


def test_mid_play_draw_with_nothing_to_draw_draws_nothing(base: GameState) -> None:
    """Reshuffle Sequence, note: with an empty deck and discard pile a mid-play draw is no Marginalization."""
    sales_conference = 52  # standard: draw one, cost 0 (the card itself is resolving, not discarded)
    state = company_turn(base, c_hand=(sales_conference,), c_deck=(), c_discard=())
    after = play(state, PlayStandard(sales_conference, ()))
    assert after.outcome is None and after.c_hand == () and current_actor(after) is Actor.COMPANY


# --- Company Rules > Economic Defeat -----------------------------------------------------------


def test_economic_defeat_at_the_start_of_the_play_phase(base: GameState) -> None:
    """Company Rules, Economic Defeat: a hand that can play nothing loses when the Company's turn starts."""
    laid = arrange_company(base, c_hand=(29, 30, 31, 32, 14))  # Restrictions (Budget 0) and Journalism (cost 5)
    state = movement_turn(laid)
    after = play(state, Pass())
    assert after.outcome is not None and after.outcome.reason is OutcomeReason.ECONOMIC_DEFEAT
    assert after.outcome.round == state.round and after.phase is Phase.OVER


def test_economic_defeat_on_entering_the_buy_phase(base: GameState) -> None:
    """Company Rules, Economic Defeat: after playing, a hand that cannot pay for any card loses."""
    state = company_turn(base, c_hand=(3,))  # Free Samples, cost 0; then the hand is empty
    played = play(state, PlayStandard(3, ()))
    assert legal_actions(played) == (EndPlay(),)
    after = play(played, EndPlay())
    assert after.outcome is not None and after.outcome.reason is OutcomeReason.ECONOMIC_DEFEAT
    # With Budget left for the cheapest card, the Buy Phase starts instead.
    rich = play(play(company_turn(base, c_hand=(3, 5)), PlayStandard(3, ())), EndPlay())
    assert rich.outcome is None and rich.phase is Phase.COMPANY_BUY
    assert EndBuy() not in legal_actions(rich)  # at least one Buy


def test_a_phase_cannot_end_before_its_first_play(base: GameState) -> None:
    """Company On Your Go: at least one Play and one Buy each turn."""
    state = company_turn(base, c_hand=(3, 5, 6))
    assert EndPlay() not in legal_actions(state)
    with pytest.raises(IllegalActionError) as info:
        play(state, EndPlay())
    assert Section.COMPANY_ON_YOUR_GO.value in str(info.value)


def test_an_unpaid_play_is_explained_by_the_side_played(base: GameState) -> None:
    """Spending Budget: the refusal of a play names the cost of the side played; a side the card lacks is named."""
    advertising, sales_representative = 1, 5  # Standard 2 / Reserve 1; Standard 1, no Reserve effect
    state = company_turn(base, c_hand=(advertising, sales_representative))
    with pytest.raises(IllegalActionError) as info:
        play(state, PlayStandard(advertising, ()))
    assert Section.SPENDING_BUDGET.value in str(info.value) and "cost 2" in str(info.value)
    with pytest.raises(IllegalActionError) as info:
        play(state, PlayReserve(advertising, ()))
    assert Section.SPENDING_BUDGET.value in str(info.value) and "cost 1" in str(info.value)
    with pytest.raises(IllegalActionError) as info:
        play(state, PlayReserve(sales_representative, (advertising,)))
    assert Section.COMPANY_CARDS.value in str(info.value) and "has no such effect" in str(info.value)


# --- Company Rules > Interference: bans ---------------------------------------------------------


def banned(state: GameState, *kinds: str) -> GameState:
    return resupply(replace(state, banned=tuple(sorted(kinds))))


def test_banned_card_cannot_be_played_but_can_pay_and_be_bought(base: GameState) -> None:
    """Interference (Company): a banned card is not played; it still pays as Budget and can be bought."""
    advertising, filter_tips = 1, 9
    state = banned(company_turn(base, c_hand=(advertising, filter_tips, 5)), "print_media")
    actions = legal_actions(state)
    assert not any(isinstance(a, PlayStandard | PlayReserve) and a.card == advertising for a in actions)
    assert PlayStandard(filter_tips, (advertising,)) in actions
    with pytest.raises(IllegalActionError) as info:
        play(state, PlayStandard(advertising, (5,)))
    assert Section.COMPANY_INTERFERENCE.value in str(info.value) and "banned" in str(info.value)
    buying = replace(state, phase=Phase.COMPANY_BUY, plays=1)
    assert any(isinstance(a, Buy) and a.source is BuySource.PILE and a.index == PRINT_MEDIA
               for a in legal_actions(buying))


def test_loopholes_allows_only_the_standard_effect(base: GameState) -> None:
    """Interference (Company): with Loopholes in the Reserve a banned card's standard effect is playable,
    never its reserve side."""
    advertising, loopholes = 1, 37
    state = banned(company_turn(base, c_hand=(advertising, 5), c_reserve=(loopholes,)), "print_media")
    actions = legal_actions(state)
    assert PlayStandard(advertising, (5,)) in actions
    assert PlayReserve(advertising, (5,)) not in actions
    without = banned(company_turn(base, c_hand=(advertising, 5)), "print_media")
    assert PlayStandard(advertising, (5,)) not in legal_actions(without)


def test_banned_reserve_cards_never_trigger(base: GameState) -> None:
    """Interference (Company): a banned card in the Reserve is not activated by a matching trigger."""
    the_culture, television = 21, 17
    state = banned(company_turn(base, c_hand=(the_culture, 13), c_reserve=(television,)), "television")
    after = play(state, PlayStandard(the_culture, (13,)))
    assert after.victims[Zone.ADULTS] == state.victims[Zone.ADULTS] + 1  # The Culture's own effect only
    unbanned = company_turn(base, c_hand=(the_culture, 13), c_reserve=(television,))
    assert play(unbanned, PlayStandard(the_culture, (13,))).victims[Zone.ADULTS] == state.victims[Zone.ADULTS] + 2


@pytest.mark.parametrize(("choice", "stays"), [("no-effect", False), ("stays-honoured", True)])
def test_banned_reserve_cards_do_not_resolve_at_a_reshuffle(base: GameState, choice: str, stays: bool) -> None:
    """Interference (Company); C. Resolve your Reserve; ruling banned-reserve: no reshuffle effect, and the
    card's instruction to stay is honoured only under stays-honoured."""
    overseas = 49  # two Profit at a Reshuffle, stays
    state = ruled(banned(draw_phase(base, deck=(), discard=tuple(range(1, 13)), reserve=(overseas,),
                                    victims=(0, 0, 0, 0)), "export"),
                  f"banned-reserve={choice}")
    after = play(state, EndBuy())
    assert after.profit == 0
    assert after.c_reserve == ((overseas,) if stays else ())
    assert after.trash == (() if stays else (overseas,))


# --- Company Rules > Interference: Lobbying -----------------------------------------------------


CORRUPTION, LOBBYISTS = 33, 34  # lobby two / lobby one


def test_lobbying_one_token_per_card_per_action(base: GameState) -> None:
    """Interference (Company): Profit tokens go on unpurchased Movement cards, one per card per action."""
    state = resupply(replace(company_turn(base, c_hand=(CORRUPTION, 5)), profit=5))
    first = play(state, PlayStandard(CORRUPTION, (5,)))
    options = set(legal_actions(first))
    assert {LobbyOn(LobbyWhere.MARKET, i) for i in range(6)} <= options
    assert {LobbyOn(LobbyWhere.GOAL, s) for s in range(9)} <= options  # ruling lobby-targets
    assert Skip(Side.COMPANY) in options
    second = play(first, LobbyOn(LobbyWhere.MARKET, 0))
    assert second.profit == 4 and second.market_profit[0] == 1
    assert LobbyOn(LobbyWhere.MARKET, 0) not in legal_actions(second)
    done = play(second, LobbyOn(LobbyWhere.GOAL, 7))
    assert done.profit == 3 and done.goal_profit[7] == 1 and not done.pending


def test_lobbying_at_most_three_and_only_with_profit(base: GameState) -> None:
    """Interference (Company): at most three Profit on one card; Lobbying spends the Company's Profit."""
    state = resupply(replace(company_turn(base, c_hand=(LOBBYISTS, 5)), profit=1,
                             market_profit=(3, 0, 0, 0, 0, 0)))
    after = play(state, PlayStandard(LOBBYISTS, (5,)))
    assert LobbyOn(LobbyWhere.MARKET, 0) not in legal_actions(after)
    assert LobbyOn(LobbyWhere.MARKET, 1) in legal_actions(after)
    broke = play(resupply(replace(state, profit=0)), PlayStandard(LOBBYISTS, (5,)))
    assert not broke.pending and broke.phase is Phase.COMPANY_PLAY  # nothing to spend: the effect fizzles


def test_lobbying_market_only_ruling(base: GameState) -> None:
    """Interference (Company); ruling lobby-targets=market-only: Goals cannot carry Profit."""
    state = ruled(resupply(replace(company_turn(base, c_hand=(LOBBYISTS, 5)), profit=1)), "lobby-targets=market-only")
    after = play(state, PlayStandard(LOBBYISTS, (5,)))
    assert not any(isinstance(a, LobbyOn) and a.where is LobbyWhere.GOAL for a in legal_actions(after))


def test_lobbying_tokens_return_to_the_supply_when_bought(base: GameState) -> None:
    """Buying a Card: one more Influence per Profit token; the tokens go back to the Company's supply."""
    state = resupply(replace(movement_turn(base), market_profit=(2, 0, 0, 0, 0, 0), influence=2))
    buys = [a for a in free_actions(state, MovementBuy) if a.space == 0]
    assert MovementBuy(0, ()) in buys  # cost 0 + 2
    poorer = resupply(replace(state, influence=1))
    assert MovementBuy(0, ()) not in legal_actions(poorer)
    after = play(state, MovementBuy(0, ()))
    assert after.influence == 0 and after.market_profit[0] == 0
    assert after.supply_of(TokenKind.PROFIT) == state.supply_of(TokenKind.PROFIT) + 2


def test_unlobby_only_before_the_first_play(base: GameState) -> None:
    """Interference (Company): the voluntary removal from one card, to the supply, at the turn's start."""
    state = resupply(replace(company_turn(base, c_hand=(3, 4, 5)), market_profit=(2, 1, 0, 0, 0, 0),
                             goal_profit=(0,) * 7 + (1, 0)))
    options = set(free_actions(state, Unlobby))
    assert options == {Unlobby(LobbyWhere.MARKET, 0), Unlobby(LobbyWhere.MARKET, 1), Unlobby(LobbyWhere.GOAL, 7)}
    after = play(state, Unlobby(LobbyWhere.MARKET, 0))
    assert after.market_profit[0] == 0 and after.profit == state.profit
    assert after.supply_of(TokenKind.PROFIT) == state.supply_of(TokenKind.PROFIT) + 2
    assert free_actions(after, Unlobby) == []  # one card only
    played = play(state, PlayStandard(3, ()))
    assert free_actions(played, Unlobby) == []


# --- Company effects ----------------------------------------------------------------------------


def test_doubt_fills_the_chosen_column_and_skips_full_ones(base: GameState) -> None:
    """Standard Effects, Adding Doubt: either column of the group; a full column cannot be chosen."""
    frank = 2  # Doubt I then Doubt II
    state = resupply(replace(company_turn(base, c_hand=(frank, 3)), doubt=(3, 1, 1, 3)))
    after = play(state, PlayStandard(frank, (3,)))
    assert after.pending[0] == ResolveEffect(AddDoubt(DoubtGroup.I, 1), 1)
    assert legal_actions(after) == (PlaceDoubt(Zone.ADULTS),)
    nxt = play(after, PlaceDoubt(Zone.ADULTS))
    assert nxt.doubt == (3, 2, 1, 3)
    assert legal_actions(nxt) == (PlaceDoubt(Zone.MIDDLE_AGE),)


def test_an_effect_of_three_doubt_places_each_of_them(base: GameState) -> None:
    """Standard Effects, Adding Doubt: an effect of three Doubt (a count no shipped card prints) places three."""
    frank = 2
    card = base.cards.company[frank]
    assert card.standard is not None
    tripled = replace(card, standard=replace(card.standard, effects=(AddDoubt(DoubtGroup.I, 3),)))
    cards = replace(base.cards, company={**base.cards.company, frank: tripled})
    state = resupply(replace(company_turn(base, c_hand=(frank, 3)), game=Game(cards), doubt=(0, 0, 0, 0)))
    state = play(state, PlayStandard(frank, (3,)))
    placed = 0
    while free_actions(state, PlaceDoubt):
        state = play(state, PlaceDoubt(Zone.CHILDREN if state.doubt[Zone.CHILDREN] < 3 else Zone.ADULTS))
        placed += 1
    assert placed == 3 and state.doubt == (3, 0, 0, 0)


@pytest.mark.parametrize(("choice", "first"), [("after-effects", DoubtGroup.I), ("before-effects", DoubtGroup.II)])
def test_trigger_timing(base: GameState, choice: str, first: DoubtGroup) -> None:
    """Standard Effects; ruling trigger-timing: the card's own effects before or after its Reserve's."""
    council, network_news = 25, 20  # 25: television/doubt, Doubt I then II; 20 in the Reserve: Doubt II
    state = ruled(company_turn(base, c_hand=(council, 5), c_reserve=(network_news,)), f"trigger-timing={choice}")
    after = play(state, PlayStandard(council, (5,)))
    head = after.pending[0]
    assert isinstance(head, ResolveEffect) and isinstance(head.effect, AddDoubt) and head.effect.group is first


def test_discount_serves_the_next_buy_only(base: GameState) -> None:
    """Buying Cards: a reduction lowers the next Buy, never below zero."""
    wholesale = 6  # discount 1, cost 0
    state = play(company_turn(base, c_hand=(wholesale, 3, 4)), PlayStandard(wholesale, ()))
    buying = play(state, EndPlay())
    assert buying.discount == 1
    # Magazine Spread (Budget 2) now costs 1: one Budget-1 card pays.
    assert Buy(BuySource.PILE, PRINT_MEDIA, (3,)) in legal_actions(buying)
    after = play(buying, Buy(BuySource.PILE, PRINT_MEDIA, (3,)))
    assert after.discount == 0
    assert Buy(BuySource.PILE, PRINT_MEDIA, (4,)) not in legal_actions(after)  # Journalism, Budget 3


def test_trash_from_hand_and_top_of_trash_only(base: GameState) -> None:
    """Buying Cards; ruling trash-buy: a trashed card tops the trash pile; only the top can be bought."""
    shredding = 39
    state = company_turn(base, c_hand=(shredding, 11, 5, 13), trash=(28,))  # 28: Budget 1
    at_choice = play(state, PlayStandard(shredding, ()))
    assert set(legal_actions(at_choice)) == {TrashCard(11), TrashCard(5), TrashCard(13), Skip(Side.COMPANY)}
    after = play(at_choice, TrashCard(11))
    assert after.trash == (28, 11)
    buying = play(after, EndPlay())
    trash_buys = {a.index for a in legal_actions(buying) if isinstance(a, Buy) and a.source is BuySource.TRASH}
    assert trash_buys == {1}
    anywhere = ruled(buying, "trash-buy=any")
    assert {a.index for a in legal_actions(anywhere) if isinstance(a, Buy) and a.source is BuySource.TRASH} == {0, 1}


def test_stacks_sell_their_top_card_first(base: GameState) -> None:
    """Company Set-Up step 2; ruling stack-buy: the even card lies on the odd one."""
    state = replace(company_turn(base, c_hand=(17, 14)), phase=Phase.COMPANY_BUY, plays=1)
    odd, even = state.stacks[0]
    assert even == odd + 1
    assert state.game.budget[even] <= state.game.budget[14]
    after = play(state, Buy(BuySource.STACK, 0, (14,)))
    assert after.stacks[0] == (odd,) and even in after.c_discard and odd not in after.c_discard


def test_budget_payment_rulings(base: GameState) -> None:
    """Spending Budget; ruling budget-payment: minimal payments only, or any covering set."""
    state = company_turn(base, c_hand=(9, 5, 6))  # Filter Tips cost 1; Budgets 2 and 2
    minimal = {a.pay for a in legal_actions(state) if isinstance(a, PlayStandard) and a.card == 9}
    assert minimal == {(5,), (6,)}
    cover = ruled(state, "budget-payment=any-cover")
    assert {a.pay for a in legal_actions(cover) if isinstance(a, PlayStandard) and a.card == 9} == {(5,), (6,), (5, 6)}


def test_remove_from_market_returns_its_profit(base: GameState) -> None:
    """Interference (Movement): the Company removes a Market card; its Lobbying goes back to the supply."""
    preemption = 38
    state = resupply(replace(company_turn(base, c_hand=(preemption, 3)), market_profit=(0, 2, 0, 0, 0, 0)))
    at_choice = play(state, PlayStandard(preemption, (3,)))
    assert set(legal_actions(at_choice)) == {RemoveFromMarket(i) for i in range(6)}
    card = state.market[1]
    after = play(at_choice, RemoveFromMarket(1))
    assert after.market[1] == NO_CARD and card in after.m_discard and after.market_profit[1] == 0
    assert after.supply_of(TokenKind.PROFIT) == state.supply_of(TokenKind.PROFIT) + 2


def test_restrictions_pile_is_not_for_sale(base: GameState) -> None:
    """Company Set-Up; ruling restriction-pile-buy: Goals draw from the Restrictions pile; buying is a ruling."""
    state = replace(company_turn(base, c_hand=(5,)), phase=Phase.COMPANY_BUY, plays=1)
    assert not any(isinstance(a, Buy) and a.source is BuySource.PILE and a.index == RESTRICTIONS
                   for a in legal_actions(state))
    buyable = ruled(state, "restriction-pile-buy=buyable")
    assert Buy(BuySource.PILE, RESTRICTIONS, ()) in legal_actions(buyable)


# --- Movement Rules > Agitation and Goals ---------------------------------------------------------


def _achieve(state: GameState, slot: int) -> GameState:
    """Buy the Agitation space and spend exactly what the Goal at `slot` needs."""
    goal = state.game.goal(state.goals[slot])
    ready = movement_turn(resupply(replace(
        arrange_movement(state, m_hand=(), tableau=((1, True),)),
        influence=state.cards.market[SPACE["agitation"]].cost, agitation=goal.cost)))
    at_step = play(ready, MovementBuy(SPACE["agitation"], ()))
    return play(at_step, Agitate(slot, goal.cost))


def test_restriction_cards_come_from_the_pile_only(base: GameState) -> None:
    """Agitation and Goals; ruling restriction-source: a Restriction card from the pile, never the trash."""
    goals = (4, 5, 6, 7, 8, 9, 2, 1, 3)  # G1 (one Restriction card) in the open bottom row
    state = replace(base, goals=goals)
    after = _achieve(state, 7)
    assert 1 in after.achieved and 29 in after.c_discard and after.piles[RESTRICTIONS] == (32, 31, 30)
    emptied = arrange_company(state, trash=(29, 30, 31, 32))
    after_empty = _achieve(emptied, 7)
    assert 1 in after_empty.achieved
    assert after_empty.trash == (29, 30, 31, 32) and not set(after_empty.c_discard) & {29, 30, 31, 32}


def test_goals_ban_their_kind(base: GameState) -> None:
    """Movement Interference: an achieved banning Goal bans the kind, with a Ban token."""
    state = replace(base, goals=(4, 6, 7, 8, 9, 1, 2, 5, 3))  # G5 bans Print Media
    after = _achieve(state, 7)
    assert after.banned == ("print_media",)
    assert after.supply_of(TokenKind.BANS) == base.supply_of(TokenKind.BANS) - 1


def test_only_two_goals_are_available_at_first(base: GameState) -> None:
    """Agitation and Goals: the structure covers all but the two-card row at the start."""
    assert list(available_goals(base.goals)) == [7, 8]
    # Achieving one card of the last row uncovers only the card resting on it alone.
    assert list(available_goals(replace(base, goals=(*base.goals[:7], NO_CARD, base.goals[8])).goals)) == [4, 8]
    cleared = (*base.goals[:7], NO_CARD, NO_CARD)
    assert list(available_goals(cleared)) == [4, 5, 6]


def test_goal_rows_and_overlaps_follow_the_pyramid() -> None:
    """Movement Set-Up 2 and ruling goal-overlap: rows of four, three and two places, each place in one row;
    a place of a later row lies across the two places of the row before that it sits between."""
    assert [len(row) for row in GOAL_ROWS] == [4, 3, 2]
    assert sorted(place for row in GOAL_ROWS for place in row) == list(range(9))
    covering: dict[int, set[int]] = {place: set() for row in GOAL_ROWS for place in row}
    for upper, lower in pairwise(GOAL_ROWS):
        for i, place in enumerate(lower):
            covering[upper[i]].add(place)
            covering[upper[i + 1]].add(place)
    assert {place: set(COVERED_BY[place]) for place in covering} == covering


def test_g7_to_g9_are_never_dealt_into_the_last_row(game: Game) -> None:
    """Movement Set-Up step 2: G7-G9 join the upper half, which fills the first six places dealt."""
    state = new_game(game)
    while not (state.pending and isinstance(state.pending[0], GoalSplit)):
        action = legal_actions(state)[0]
        state = apply(state, action)
    splits = legal_actions(state)
    assert len(splits) == 20  # three of G1-G6 below, every way
    for split in splits:
        dealt = apply(state, split)
        while dealt.pending and isinstance(dealt.pending[0], DealGoal):
            step = dealt.pending[0]
            outcomes = {a.outcome for a in legal_actions(dealt) if isinstance(a, Chance)}
            if step.slot >= 6:
                assert outcomes <= set(LOWER_GOALS)
            dealt = apply(dealt, legal_actions(dealt)[-1])
        assert not {7, 8, 9} & set(dealt.goals[6:])


def test_hand_limit_and_hand_size_goals(base: GameState) -> None:
    """Movement Cards: three cards in hand stop Buys; each hand-size Goal raises the limit by one."""
    full = movement_turn(resupply(replace(arrange_movement(base, m_hand=(20, 21, 22)), influence=5)))
    assert free_actions(full, MovementBuy) == []
    assert MovementPlay(20, (), End.LEFT) in legal_actions(full)
    with pytest.raises(IllegalActionError) as info:
        play(full, MovementBuy(0, ()))
    assert Section.MOVEMENT_CARDS.value in str(info.value)
    one_goal = replace(full, achieved=(3,), goals=tuple(NO_CARD if g == 3 else g for g in full.goals))
    assert one_goal.hand_limit() == 4 and free_actions(one_goal, MovementBuy)
    two = replace(arrange_movement(one_goal, m_hand=(20, 21, 22, 23)), achieved=(3, 9),
                  goals=tuple(NO_CARD if g in (3, 9) else g for g in full.goals))
    assert two.hand_limit() == 5 and free_actions(two, MovementBuy)


def test_a_card_without_a_standard_side_is_never_played_as_standard() -> None:
    """Standard Effects: a card file may give a card a Reserve side only; it is played into the Reserve and never
    offered as a standard play (every card of the shipped set has both, so no generated game meets one)."""
    text = default_cards_path().read_text(encoding="utf-8")
    advertising = '  [company.cards.standard]\n  cost = 2\n  icon = "victims"\n  trigger = "print"\n'
    start = text.index(advertising)
    reserve_only = text[:start] + text[text.index("  [company.cards.reserve]", start):]
    game = Game(parse_cards(reserve_only))
    assert game.company_card(1).standard is None and game.company_card(1).reserve is not None
    assert not can_play_standard(game, (), (), 1)
    state = company_turn(setup_state(game), c_hand=(1, 5, 9))
    plays = legal_actions(state)
    assert not any(isinstance(a, PlayStandard) and a.card == 1 for a in plays)
    assert any(isinstance(a, PlayReserve) and a.card == 1 for a in plays)


def test_a_refused_movement_play_says_whether_the_card_is_in_hand(base: GameState) -> None:
    """Playing a Card (Movement): a card not in hand is refused as such; a card in hand whose payment, end or
    removal the rules do not allow is refused for that, not for the hand."""
    state = movement_turn(resupply(replace(arrange_movement(base, m_hand=(20,)), influence=0)))
    with pytest.raises(IllegalActionError) as info:
        play(state, MovementPlay(21, (), End.LEFT))
    assert Section.PLAYING_A_CARD.value in str(info.value) and "not in the Movement's hand" in str(info.value)
    with pytest.raises(IllegalActionError) as info:
        play(state, MovementPlay(20, (99,), End.LEFT))  # flips a Tableau place that does not exist
    assert Section.PLAYING_A_CARD.value in str(info.value) and "not in the Movement's hand" not in str(info.value)


def test_ninth_tableau_card_removes_one_not_used_to_pay(base: GameState) -> None:
    """Cards (Movement); Agitation and Goals: eight cards at most; the ninth first removes one, not a payer."""
    row = tuple((c, True) for c in (1, 5, 6, 7, 8, 9, 10, 11))
    state = movement_turn(resupply(replace(arrange_movement(base, m_hand=(12,), tableau=row), influence=0)))
    plays = free_actions(state, MovementPlay)
    assert plays and all(isinstance(a, MovementPlay) and a.remove is not None and a.remove not in a.flip
                         for a in plays)
    assert MovementPlay(12, (0, 1), End.RIGHT, 0) not in plays
    after = play(state, MovementPlay(12, (1, 2), End.RIGHT, 0))  # flip 5 and 6 (2 + 2), remove card 1
    assert len(after.tableau) == 8 and after.tableau[-1] == (12, True)
    assert 1 in after.m_discard and (1, True) not in after.tableau


def test_refresh_space_flips_the_leftmost_face_down_card(base: GameState) -> None:
    """Buying a Card, Refresh."""
    row = ((1, False), (5, True), (6, False))
    market = (20, *base.market[1:])
    state = movement_turn(replace(arrange_movement(base, m_hand=(), tableau=row, market=market), influence=0))
    after = play(state, MovementBuy(SPACE["refresh"], ()))
    assert after.tableau == ((1, True), (5, True), (6, False)) and after.m_hand == (20,)


def test_organize_refills_before_taking_its_card(base: GameState) -> None:
    """Buying a Card, Organize: a free play, then the empty spaces refill, then the card is taken."""
    market = (NO_CARD, *base.market[1:])
    state = movement_turn(resupply(replace(arrange_movement(base, m_hand=(12,), market=market), influence=3)))
    at_step = play(state, MovementBuy(SPACE["organize"], ()))
    assert at_step.pending[0] == Organize()
    assert set(legal_actions(at_step)) == {OrganizePlay(12, End.LEFT), OrganizePlay(12, End.RIGHT),
                                          Skip(Side.MOVEMENT)}
    placed = play(at_step, OrganizePlay(12, End.LEFT))  # no Bonus aligns on this side
    assert placed.tableau[0] == (12, True) and placed.influence == 0
    assert isinstance(placed.pending[0], FillMarket)
    assert placed.market[SPACE["organize"]] == state.market[SPACE["organize"]]  # not taken yet
    done = draws(placed)
    assert done.market[0] != NO_CARD and done.market[SPACE["organize"]] == NO_CARD
    assert done.m_hand == (state.market[SPACE["organize"]],)


def test_organize_with_no_market_deck_or_discards_leaves_the_space_empty(base: GameState) -> None:
    """Buying a Card, Organize, with the Market deck and the Movement's discards both spent: nothing can refill
    the empty space (Movement Cards, Discard: only the discards renew the deck), and the game goes on."""
    market = (NO_CARD, *base.market[1:])
    spent = replace(arrange_movement(base, m_hand=(12,), market=market), m_deck=(), m_discard=())
    state = movement_turn(resupply(replace(spent, influence=3)))
    at_step = play(state, MovementBuy(SPACE["organize"], ()))
    done = draws(play(at_step, Skip(Side.MOVEMENT)))
    assert done.market[0] == NO_CARD and done.market[SPACE["organize"]] == NO_CARD
    assert done.m_hand == tuple(sorted((12, state.market[SPACE["organize"]])))
    assert done.phase is Phase.COMPANY_PLAY and legal_actions(done)


@pytest.mark.parametrize("choice", ["one-zone", "any-zones"])
def test_messaging_zones_ruling(base: GameState, choice: str) -> None:
    """Messaging; ruling messaging-zones: what is left after one zone is lost, or goes on to another."""
    state = ruled(movement_turn(resupply(replace(arrange_movement(base, m_hand=()), influence=1, messaging=3,
                                                 doubt=(0, 0, 1, 1), victims=(2, 2, 3, 0)))),
                  f"messaging-zones={choice}")
    at_step = play(state, MovementBuy(SPACE["messaging"], ()))
    after = play(at_step, Message(Zone.CHILDREN, 0, 1))
    if choice == "one-zone":
        # Great American Smokeout's face-up icon paid (ruling messaging-spend-order); the tokens stay.
        assert after.phase is Phase.COMPANY_PLAY and after.messaging == 3
    else:
        assert Message(Zone.ADULTS, 0, 2) in legal_actions(after)


@pytest.mark.parametrize(("icons", "victims", "left"), [(3, 1, 2), (3, 2, 1), (4, 1, 3)])
def test_messaging_on_any_zones_goes_on_with_the_icons_left(base: GameState, icons: int, victims: int,
                                                              left: int) -> None:
    """Messaging under messaging-zones=any-zones: the icon Messaging a zone did not use goes on to the next zone
    (each Victim removed costs one, icons first), however many icons the Tableau showed."""
    state = ruled(movement_turn(resupply(replace(arrange_movement(base, m_hand=()), influence=1, messaging=0,
                                                 doubt=(0, 0, 1, 1), victims=(2, 3, 3, 0)))),
                  "messaging-zones=any-zones")
    at_step = play(state, MovementBuy(SPACE["messaging"], ()))
    assert isinstance(at_step.pending[0], Messaging)
    shown = replace(at_step, pending=(Messaging(icons), *at_step.pending[1:]))  # a Tableau showing `icons`
    after = play(shown, Message(Zone.CHILDREN, 0, victims))
    assert after.pending[0] == Messaging(left) and after.messaging == 0
    assert Message(Zone.ADULTS, 0, left) in legal_actions(after)
    assert Message(Zone.ADULTS, 0, left + 1) not in legal_actions(after)


# --- Movement Rules > Pacing ----------------------------------------------------------------------


def _pacing_table(state: GameState) -> GameState:
    row = ((11, True), (7, False), (16, True), (6, False))  # 11: Influence passive; 7: face down; 16: Refresh
    market = (NO_CARD, 20, NO_CARD, 21, NO_CARD, 22)
    laid = arrange_movement(state, m_hand=(), tableau=row, market=market)
    return replace(laid, market_profit=(0, 1, 0, 2, 0, 0), achieved=(2,),
                   goals=tuple(NO_CARD if g == 2 else g for g in state.goals))


def test_pacing_after_the_reshuffle_sequence(base: GameState) -> None:
    """Pacing: passives (face-up cards and achieved Goals), Refresh passives, the shift, the refill."""
    state = draw_phase(_pacing_table(base), deck=(), discard=tuple(range(1, 13)))
    after = draws(play(state, EndBuy()), 5)  # step D's five draws
    assert after.phase is Phase.PACING and isinstance(after.pending[0], FillMarket)
    assert after.influence == state.influence + 1  # card 11; card 7 is face down
    assert after.messaging == state.messaging + 1  # G2's passive
    assert after.tableau == ((11, True), (7, True), (16, True), (6, False))  # one Refresh passive
    assert after.market == (20, 21, 22, NO_CARD, NO_CARD, NO_CARD)
    assert after.market_profit == (1, 2, 0, 0, 0, 0)
    done = draws(after)
    assert NO_CARD not in done.market and done.phase is Phase.MOVEMENT_TURN


def test_no_pacing_without_the_sequence(base: GameState) -> None:
    """Pacing, note: nothing happens after a Draw Phase without a Reshuffle or after a mid-play reshuffle."""
    table = _pacing_table(base)
    state = company_turn(table, c_hand=(5, 3), c_deck=(), c_discard=(1, 2, 4, 6, 7, 8, 9, 10, 11, 12))
    drawn = draws(play(state, PlayStandard(5, (3,))))  # a mid-play reshuffle
    buying = play(drawn, EndPlay())
    bought = play(buying, next(a for a in legal_actions(buying) if isinstance(a, Buy)))
    done = draws(play(bought, EndBuy()))
    assert done.phase is Phase.MOVEMENT_TURN and done.reshuffles == 0
    assert done.influence == state.influence and done.messaging == state.messaging
    assert done.market == table.market and done.tableau == table.tableau


def test_flight_tokens_pay_and_come_back_at_pacing(base: GameState) -> None:
    """Pacing step 3; ruling flight: Flight tokens (Goal G4) pay as Influence and are reclaimed."""
    goals = (5, 6, 7, 8, 9, 1, 2, 4, 3)
    achieved = _achieve(replace(base, goals=goals), 7)
    assert achieved.flight == 2
    state = movement_turn(resupply(replace(arrange_movement(achieved, m_hand=()), influence=1)))
    buy = MovementBuy(SPACE["research"], ())
    assert buy in legal_actions(state)  # 2 = two Flight tokens; one Influence token alone would not do
    after = play(state, buy)
    assert after.flight == 0 and after.flight_spent == 2 and after.influence == state.influence
    sequence = play(draw_phase(after, deck=(), discard=tuple(range(1, 13))), EndBuy())
    back = draws(sequence)
    assert back.flight == 2 and back.flight_spent == 0


@pytest.mark.parametrize(("choice", "influence", "face_up", "gain"), [
    ("no-tokens", 0, True, 2), ("no-tokens", 1, True, 1), ("no-tokens", 0, False, 2),
    ("no-influence", 0, True, 1), ("no-influence", 0, False, 2), ("no-influence", 1, False, 1),
])
def test_pass_bonus(base: GameState, choice: str, influence: int, face_up: bool, gain: int) -> None:
    """Movement On Your Go, Pass; ruling pass-bonus: one Influence, two with none (tokens, or any at all)."""
    laid = arrange_movement(base, tableau=((1, face_up),))
    state = ruled(movement_turn(resupply(replace(laid, influence=influence))), f"pass-bonus={choice}")
    after = play(state, Pass())
    assert after.influence == influence + gain


# --- Piece limits ---------------------------------------------------------------------------------


def _limited(cards: CardSet, **limits: int) -> Game:
    supply = dict(cards.supply)
    supply.update({TokenKind(k): v for k, v in limits.items()})
    return Game(replace(cards, supply=supply))


def test_piece_limits_are_never_exceeded(cards: CardSet) -> None:
    """Set-Up (both sides): supplies are piece-limited; a gain is cut to what the supply holds."""
    # Exactly the set-up pieces: nothing is left for the Company's first Doubt and Victims.
    game = _limited(cards, doubt=4, victims=6, influence=3)
    base = setup_state(game)
    assert base.supply_of(TokenKind.DOUBT) == 0 and base.supply_of(TokenKind.VICTIMS) == 0
    doubt = play(company_turn(base, c_hand=(2, 3)), PlayStandard(2, (3,)))
    assert doubt.doubt == base.doubt and not doubt.pending  # both Doubt effects fizzle
    victims = play(company_turn(base, c_hand=(3,)), PlayStandard(3, ()))
    assert victims.victims == base.victims
    gained = play(movement_turn(base), Pass())
    assert gained.influence == 3 and gained.supply_of(TokenKind.INFLUENCE) == 0  # two held, one left


def test_a_goal_paid_by_its_tokens_is_claimed_with_no_new_agitation(base: GameState) -> None:
    """Agitation and Goals: tokens on a Goal reduce its cost; once the Company takes back its Lobbying the
    tokens may cover it all, and the next Agitation action claims it without icons or tokens."""
    goals = (4, 5, 6, 7, 8, 9, 2, 3, 1)
    lobbied = resupply(replace(base, goals=goals, goal_agitation=(0,) * 7 + (3, 0),
                               goal_profit=(0,) * 7 + (1, 0)))  # G3: cost 3 + 1 Profit, 3 on it
    unlobbied = play(company_turn(lobbied, c_hand=(3, 4, 5)), Unlobby(LobbyWhere.GOAL, 7))
    ready = movement_turn(resupply(replace(arrange_movement(unlobbied, m_hand=(), tableau=((1, True),)),
                                           influence=2, agitation=0)))
    at_step = play(ready, MovementBuy(SPACE["agitation"], ()))
    assert Agitate(7, 0) in legal_actions(at_step)
    done = play(at_step, Agitate(7, 0))
    assert 3 in done.achieved and done.goal_agitation[7] == 0
    assert done.supply_of(TokenKind.AGITATION) == ready.supply_of(TokenKind.AGITATION) + 3


@pytest.mark.parametrize(("reserve", "groups"), [((16, 26), "I II I II"), ((26, 16), "I II II I")])
def test_reserve_cards_activate_left_to_right(base: GameState, reserve: tuple[int, ...], groups: str) -> None:
    """Reserve Effects: matching Reserve cards activate from left to right, after the card's own effects
    (ruling trigger-timing=after-effects)."""
    frank = 2  # print trigger, Doubt icon: Doubt I then Doubt II; 16 adds Doubt I, 26 Doubt II
    state = resupply(replace(company_turn(base, c_hand=(frank, 3), c_reserve=reserve), doubt=(0, 0, 0, 0)))
    after = play(state, PlayStandard(frank, (3,)))
    seen = []
    while after.pending and isinstance(after.pending[0], ResolveEffect):
        effect = after.pending[0].effect
        assert isinstance(effect, AddDoubt)
        seen.append(effect.group.value)
        after = play(after, legal_actions(after)[0])
    assert " ".join(seen) == groups
    assert sum(after.doubt) == 4


def _with_stacks_dealt(tmp_path: Path, count: int) -> GameState:
    """Set-Up of the shipped card set with `stacks_dealt = count`."""
    from doubtspec.model.cards import default_cards_path, load_cards
    from doubtspec.model.engine import new_game

    text = default_cards_path().read_text().replace("stacks_dealt = 7", f"stacks_dealt = {count}")
    path = tmp_path / f"stacks-{count}.toml"
    path.write_text(text)
    return new_game(load_cards(path))


def test_setup_with_no_stacks_to_deal_starts_with_the_first_draw(tmp_path: Path) -> None:
    """Company Set-Up 2 with `stacks_dealt = 0`: no stack is dealt and every pair is out of the game."""
    from doubtspec.model.engine import chance_outcomes
    from doubtspec.model.steps import CompanyDraw

    state = _with_stacks_dealt(tmp_path, 0)
    assert isinstance(state.pending[0], CompanyDraw)
    assert state.stacks == ()
    assert sorted(state.c_removed) == sorted(n for n in state.cards.company if n > 32)  # each odd/even pair
    assert chance_outcomes(state)


@pytest.mark.parametrize("kind", [TokenKind.VICTIMS, TokenKind.DOUBT, TokenKind.INFLUENCE])
def test_set_up_refuses_a_supply_one_piece_short(game: Game, kind: TokenKind) -> None:
    """Set-Up places Victims, Doubt and the Movement's Influence from piece-limited supplies: a card set built in
    code (the loader refuses such a file first) whose supply is one piece short of Set-Up is refused, not
    started with a negative supply."""
    cards = game.cards
    placed = {TokenKind.VICTIMS: sum(cards.display.setup_victims), TokenKind.DOUBT: sum(cards.display.setup_doubt),
              TokenKind.INFLUENCE: cards.rules.movement_starting_influence}
    short = replace(cards, supply={**cards.supply, kind: placed[kind] - 1})
    with pytest.raises(ValueError, match="cannot cover Set-Up"):
        new_game(short)
    assert new_game(replace(cards, supply={**cards.supply, kind: placed[kind]})).supply_of(kind) == 0


def test_setup_with_one_stack_deals_it_and_removes_the_other_pairs(tmp_path: Path) -> None:
    """Company Set-Up 2 with `stacks_dealt = 1`: one pair is dealt, the thirteen others are out of the game."""
    from doubtspec.model.engine import apply, chance_outcomes
    from doubtspec.model.steps import DealStack

    state = _with_stacks_dealt(tmp_path, 1)
    assert isinstance(state.pending[0], DealStack)
    outcome, _ = chance_outcomes(state)[0]
    state = apply(state, outcome)
    assert len(state.stacks) == 1
    assert len(state.c_removed) == 26
    assert not any(isinstance(step, DealStack) for step in state.pending)
