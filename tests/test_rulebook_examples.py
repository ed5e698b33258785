"""Every worked example printed in the rulebook, replayed through the reference engine.

Source: the draft rulebook (`rulebook.txt` in the shared folder), one test per printed example, each
naming the section it comes from. States are laid out directly (`dataclasses.replace` on a state
after Set-Up, with every card moved rather than conjured, and the supplies recomputed so that no
token is created) and then driven with the engine's own `legal_actions`, `play` and `apply`. Card
numbers are those of the shipped provisional set, whose named cards carry the values the examples
print.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from doubtspec.model.actions import (
    Action,
    Agitate,
    Buy,
    BuySource,
    ChooseStart,
    End,
    EndBuy,
    Message,
    MovementBuy,
    MovementPlay,
    PlayReserve,
    PlayStandard,
)
from doubtspec.model.cards import MarketAction, TokenKind, Zone
from doubtspec.model.engine import current_actor, legal_actions, new_game, play
from doubtspec.model.game import Game
from doubtspec.model.state import NO_CARD, TOKEN_INDEX, Actor, GameState, OutcomeReason, Phase
from doubtspec.model.steps import Agitation, DrawToHandSize, Messaging

# Card numbers of the shipped set that the examples name.
ADVERTISING, FRANK_STATEMENT, JOURNALISM, TELEVISION = 1, 2, 14, 17
SPONSORED_SITCOM, MARLBORO_MAN, THE_CULTURE = 18, 19, 21
SMOKEOUT, WYNDER_GRAHAM, WAXMAN = 1, 2, 3
REPORT_1964 = 4
"""The Influence-3 card of the Playing a Card example (left edge: Refresh and Influence)."""
CANCER_BY_THE_CARTON = 5
"""A card whose right edge aligns with card 4's left edge (the Research example's follow-up)."""


# --- laying out states ------------------------------------------------------------------------


def setup_state(game: Game, start: int = SMOKEOUT) -> GameState:
    """Both Set-Ups played with the first outcome of every chance event and a fixed starting card."""
    state = new_game(game)
    while state.phase is Phase.SETUP or state.pending:
        action: Action = legal_actions(state)[0] if current_actor(state) is Actor.CHANCE else ChooseStart(start)
        state = play(state, action)
    return state


_C_UNORDERED = ("c_deck", "c_hand", "c_discard", "c_removed")
_C_PLACES = (*_C_UNORDERED, "c_reserve", "c_in_play", "trash")


def arrange_company(state: GameState, **places: tuple[int, ...]) -> GameState:
    """Give Company places (`c_hand`, `c_deck`, `c_discard`, `c_reserve`, `trash`) exact contents.

    Named cards are taken from wherever they lie (piles and stacks included); cards displaced from a
    named place leave the game (`c_removed`), so every card stays in exactly one place.
    """
    wanted = {card for cards in places.values() for card in cards}
    lists = {name: [c for c in getattr(state, name) if c not in wanted] for name in _C_PLACES}
    displaced = [c for name in places for c in lists[name]]
    for name, cards in places.items():
        lists[name] = list(cards)
    lists["c_removed"].extend(displaced)
    for name in _C_UNORDERED:
        lists[name].sort()
    return replace(
        state,
        piles=tuple(tuple(c for c in pile if c not in wanted) for pile in state.piles),
        stacks=tuple(tuple(c for c in stack if c not in wanted) for stack in state.stacks),
        **{name: tuple(cards) for name, cards in lists.items()},
    )


def arrange_movement(state: GameState, *, m_hand: tuple[int, ...] | None = None,
                     tableau: tuple[tuple[int, bool], ...] | None = None,
                     market: tuple[int, ...] | None = None) -> GameState:
    """Give Movement places exact contents; displaced cards go back to the Market deck."""
    wanted = set(m_hand or ()) | {c for c, _ in tableau or ()} | {c for c in market or () if c != NO_CARD}
    deck = [c for c in state.m_deck if c not in wanted]
    discard = tuple(c for c in state.m_discard if c not in wanted)
    hand = [c for c in state.m_hand if c not in wanted]
    rows = [(c, up) for c, up in state.tableau if c not in wanted]
    spaces = [c if c not in wanted else NO_CARD for c in state.market]
    if m_hand is not None:
        deck += hand
        hand = list(m_hand)
    if tableau is not None:
        deck += [c for c, _ in rows]
        rows = list(tableau)
    if market is not None:
        deck += [c for c in spaces if c != NO_CARD]
        spaces = list(market)
    return replace(state, m_deck=tuple(sorted(deck)), m_discard=discard, m_hand=tuple(sorted(hand)),
                   tableau=tuple(rows), market=tuple(spaces))


def resupply(state: GameState) -> GameState:
    """Recompute every supply from the piece limits and the tokens on the table (no token created)."""
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
    supply = [0] * len(TOKEN_INDEX)
    for kind, index in TOKEN_INDEX.items():
        supply[index] = state.cards.supply[kind] - held[kind]
        assert supply[index] >= 0, kind
    return replace(state, supply=tuple(supply))


def company_turn(state: GameState, **places: tuple[int, ...]) -> GameState:
    """The start of a Company Play Phase with the given cards laid out."""
    laid = arrange_company(state, **places)
    return resupply(replace(laid, phase=Phase.COMPANY_PLAY, pending=(), plays=0, buys=0, discount=0))


def movement_turn(state: GameState) -> GameState:
    """The same table at the start of a Movement turn."""
    return resupply(replace(state, phase=Phase.MOVEMENT_TURN, pending=()))


@pytest.fixture(scope="module")
def base(game: Game) -> GameState:
    return setup_state(game)


# --- Company Rules > Spending Budget ----------------------------------------------------------


def test_spending_budget_costs_of_named_cards(base: GameState) -> None:
    """Spending Budget: Advertising's standard play costs 2, A Frank Statement's costs 1."""
    state = company_turn(base, c_hand=(ADVERTISING, FRANK_STATEMENT, 3))  # card 3 has Budget 1
    plays = legal_actions(state)
    assert PlayStandard(FRANK_STATEMENT, (3,)) in plays
    assert PlayStandard(FRANK_STATEMENT, (ADVERTISING,)) in plays
    assert PlayStandard(ADVERTISING, (FRANK_STATEMENT, 3)) in plays
    assert PlayStandard(ADVERTISING, (3,)) not in plays  # 1 < 2
    assert PlayStandard(ADVERTISING, (FRANK_STATEMENT,)) not in plays


def test_spending_budget_television_pays_for_one_play_only(base: GameState) -> None:
    """Spending Budget: each play is paid separately, so Television's 4 cannot pay for two plays."""
    state = company_turn(base, c_hand=(ADVERTISING, FRANK_STATEMENT, TELEVISION))
    assert PlayStandard(ADVERTISING, (TELEVISION,)) in legal_actions(state)
    after = play(state, PlayStandard(ADVERTISING, (TELEVISION,)))
    assert TELEVISION in after.c_discard and TELEVISION not in after.c_hand
    # The Budget left over from Television does not carry over: A Frank Statement has nothing to pay with.
    assert not any(isinstance(a, PlayStandard | PlayReserve) for a in legal_actions(after))


def test_spending_budget_television_and_advertising_pay_for_journalism(base: GameState) -> None:
    """Spending Budget: Television (4) and Advertising (1) together pay Journalism's cost of 5."""
    state = company_turn(base, c_hand=(ADVERTISING, JOURNALISM, TELEVISION))
    plays = legal_actions(state)
    assert PlayStandard(JOURNALISM, (ADVERTISING, TELEVISION)) in plays
    assert PlayStandard(JOURNALISM, (TELEVISION,)) not in plays
    after = play(state, PlayStandard(JOURNALISM, (ADVERTISING, TELEVISION)))
    assert after.c_hand == ()
    assert {ADVERTISING, TELEVISION} <= set(after.c_discard)


# --- Company Rules > Reserve Effects ----------------------------------------------------------


def _play_the_culture(base: GameState, reserve: tuple[int, ...]) -> tuple[GameState, GameState]:
    state = company_turn(base, c_hand=(THE_CULTURE, 13), c_reserve=reserve)  # card 13 has Budget 2
    after = play(state, PlayStandard(THE_CULTURE, (13,)))
    return state, after


def test_reserve_effects_culture_activates_only_the_card_matching_trigger_and_icon(base: GameState) -> None:
    """Reserve Effects: The Culture activates a Reserve card sharing its trigger and icon, not one sharing
    only the trigger."""
    culture = base.game.company_card(THE_CULTURE).standard
    television = base.game.company_card(TELEVISION).reserve
    sitcom = base.game.company_card(SPONSORED_SITCOM).reserve
    assert culture is not None and television is not None and sitcom is not None
    assert (television.trigger, television.icon) == (culture.trigger, culture.icon)
    assert sitcom.trigger == culture.trigger and sitcom.icon != culture.icon
    state, after = _play_the_culture(base, (TELEVISION, SPONSORED_SITCOM))
    own = (0, 1, 1, 0)  # The Culture's own standard effect: one Victim each to Adults and Middle Age
    from_television = (0, 1, 1, 0)
    assert after.victims == tuple(v + a + b for v, a, b in zip(state.victims, own, from_television, strict=True))
    assert after.profit == state.profit  # Sponsored Sitcom's reserve effect (one Profit) did not run


def test_reserve_effects_culture_activates_both_matching_cards(base: GameState) -> None:
    """Reserve Effects: with two matching Reserve cards both activate, two Victims to each zone."""
    state, after = _play_the_culture(base, (TELEVISION, MARLBORO_MAN))
    own = 1
    for zone in (Zone.ADULTS, Zone.MIDDLE_AGE):
        assert after.victims[zone] - state.victims[zone] - own == 2
    assert after.victims[Zone.CHILDREN] == state.victims[Zone.CHILDREN]
    assert after.c_reserve == (TELEVISION, MARLBORO_MAN)  # activated cards stay in the Reserve


# --- Company Rules > Reshuffle Sequence -------------------------------------------------------


def _reshuffle(base: GameState, victims: tuple[int, int, int, int], profit: int = 0, stars: int = 0) -> GameState:
    """Trigger the Reshuffle Sequence from the Draw Phase: an empty deck and a discard pile of twelve."""
    laid = arrange_company(base, c_hand=(), c_deck=(), c_discard=tuple(range(1, 13)))
    state = resupply(replace(laid, phase=Phase.COMPANY_BUY, pending=(), plays=1, buys=1, victims=victims,
                             profit=profit, stars=stars))
    after = play(state, EndBuy())
    assert isinstance(after.pending[0], DrawToHandSize)  # A-C resolved; D waits on the first draw
    return after


def test_scoring_demographics_seven_middle_age_victims_leave_three(base: GameState) -> None:
    """A. Scoring Demographics: seven in Middle Age are two sets of three; three remain, score and age."""
    after = _reshuffle(base, (0, 0, 7, 0))
    assert after.profit == 3
    seeded = base.cards.display.seed_for(3)
    assert after.victims == (seeded[0], seeded[1], seeded[2], 3)
    assert after.reshuffles == 1


@pytest.mark.parametrize(("scored", "seed"), [
    (0, (0, 1, 0)), (1, (0, 1, 0)),
    (2, (0, 2, 1)), (4, (0, 2, 1)),
    (5, (1, 2, 1)), (8, (1, 2, 1)),
    (9, (2, 3, 2)), (15, (2, 3, 2)),
])
def test_social_acceptance_chart_rows(base: GameState, scored: int, seed: tuple[int, int, int]) -> None:
    """B. Seed Demographics: each row of the Social Acceptance Chart (no Elderly column).

    Children score one each and move to Adults, so `scored` Children score exactly `scored` Profit.
    """
    after = _reshuffle(base, (scored, 0, 0, 0))
    assert after.profit == scored
    assert after.victims == (seed[0], scored + seed[1], seed[2], 0)


@pytest.mark.parametrize(("scored", "star"), [(11, False), (12, True), (13, True)])
def test_seed_demographics_star_at_twelve(base: GameState, scored: int, star: bool) -> None:
    """B. Seed Demographics: a Reshuffle that scores at least 12 Profit earns a star marker."""
    after = _reshuffle(base, (scored, 0, 0, 0))
    assert after.stars == (1 if star else 0)
    assert after.supply[TOKEN_INDEX[TokenKind.STARS]] == base.cards.supply[TokenKind.STARS] - after.stars


def test_seed_demographics_third_star_wins(base: GameState) -> None:
    """B. Seed Demographics: the third star wins on the turn it is earned."""
    after = play(
        resupply(replace(arrange_company(base, c_hand=(), c_deck=(), c_discard=tuple(range(1, 13))),
                         phase=Phase.COMPANY_BUY, pending=(), plays=1, buys=1, victims=(12, 0, 0, 0), stars=2)),
        EndBuy())
    assert after.outcome is not None and after.outcome.reason is OutcomeReason.STAR_VICTORY
    assert current_actor(after) is Actor.TERMINAL


# --- Company Rules > Buying Cards -------------------------------------------------------------


def test_buying_cards_trash_pile_costs_one_more(base: GameState) -> None:
    """Buying Cards: a card from the trash pile costs its Budget plus one."""
    card = TELEVISION  # Budget 4: from the trash it costs 5
    hand = (3, 5, 6)  # Budgets 1, 2, 2
    state = replace(company_turn(base, c_hand=hand, trash=(card,)), phase=Phase.COMPANY_BUY, plays=1)
    buys = legal_actions(state)
    assert Buy(BuySource.TRASH, 0, (3, 5, 6)) in buys
    assert Buy(BuySource.TRASH, 0, (5, 6)) not in buys  # 4 is the Budget, not the price
    after = play(state, Buy(BuySource.TRASH, 0, (3, 5, 6)))
    assert after.trash == () and card in after.c_discard
    # The same card bought from its own pile costs its Budget only.
    pile_state = replace(company_turn(base, c_hand=(5, 6)), phase=Phase.COMPANY_BUY, plays=1)
    assert pile_state.piles[1][-1] == card  # Television tops its pile (ruling pile-order)
    assert Buy(BuySource.PILE, 1, (5, 6)) in legal_actions(pile_state)


# --- Movement Rules > Playing a Card ----------------------------------------------------------


def test_playing_a_card_example(base: GameState) -> None:
    """Playing a Card: three ways to pay 3 Influence; placed right, both Bonuses align with Great American
    Smokeout, refreshing Wynder & Graham and returning the Influence token: effectively free."""
    laid = arrange_movement(base, m_hand=(REPORT_1964,), tableau=((SMOKEOUT, True), (WYNDER_GRAHAM, True)))
    state = movement_turn(replace(laid, influence=2))
    assert base.game.movement_card(REPORT_1964).influence == 3
    plays = {a.flip for a in legal_actions(state) if isinstance(a, MovementPlay) and a.end is End.RIGHT}
    # (1) two tokens and Great American Smokeout, (2) one token and Wynder & Graham, (3) both cards.
    assert plays == {(0,), (1,), (0, 1)}
    after = play(state, MovementPlay(REPORT_1964, (1,), End.RIGHT))
    assert after.tableau == ((SMOKEOUT, True), (WYNDER_GRAHAM, True), (REPORT_1964, True))
    assert after.influence == state.influence  # one token spent, one gained
    assert after.m_hand == ()
    assert after.phase is Phase.COMPANY_PLAY


def test_playing_a_card_flipped_cards_are_not_adjacent(base: GameState) -> None:
    """Playing a Card: with Great American Smokeout flipped there is no unflipped neighbour on the right
    but Wynder & Graham, whose right edge shares nothing with the new card's left edge."""
    laid = arrange_movement(base, m_hand=(REPORT_1964,), tableau=((WYNDER_GRAHAM, True), (SMOKEOUT, True)))
    state = movement_turn(replace(laid, influence=2))
    after = play(state, MovementPlay(REPORT_1964, (1,), End.RIGHT))  # flip Smokeout, pay 2 tokens
    assert after.influence == 0
    assert after.tableau == ((WYNDER_GRAHAM, True), (SMOKEOUT, False), (REPORT_1964, True))


# --- Movement Rules > Buying a Card (Research) ------------------------------------------------


def test_research_example(base: GameState) -> None:
    """Buying a Card, Research: pay with the single token and Waxman Hearings; three face-up Research icons
    give six Influence; played on the left next turn, the card earns an Influence and a refresh."""
    research = next(i for i, s in enumerate(base.cards.market) if s.action is MarketAction.RESEARCH)
    assert base.cards.market[research].cost == 2
    market = tuple(CANCER_BY_THE_CARTON if i == research else c for i, c in enumerate(base.market))
    laid = arrange_movement(base, m_hand=(), market=market,
                            tableau=((WAXMAN, True), (REPORT_1964, True), (WYNDER_GRAHAM, True)))
    state = movement_turn(replace(laid, influence=1))
    buy = MovementBuy(research, (0,))
    assert buy in legal_actions(state)
    after = play(state, buy)
    assert after.influence == 6  # the token was spent, then 2 x 3 icons gained
    assert after.tableau[0] == (WAXMAN, False)
    assert after.m_hand == (CANCER_BY_THE_CARTON,)
    assert after.market[research] == NO_CARD
    next_turn = movement_turn(after)
    later = play(next_turn, MovementPlay(CANCER_BY_THE_CARTON, (), End.LEFT))
    assert later.influence == 6 - 2 + 1
    assert later.tableau[:2] == ((CANCER_BY_THE_CARTON, True), (WAXMAN, True))


# --- Movement Rules > Messaging ---------------------------------------------------------------


def _messaging_turn(base: GameState, tokens: int, doubt: tuple[int, int, int, int]) -> GameState:
    """Buy the Messaging space with no Messaging icon face up and `tokens` Messaging tokens held."""
    space = next(i for i, s in enumerate(base.cards.market) if s.action is MarketAction.MESSAGING)
    market = tuple(8 if c == WAXMAN else c for c in base.market)
    laid = arrange_movement(base, m_hand=(), tableau=((WAXMAN, True),), market=market)  # no Messaging icon
    state = movement_turn(replace(laid, influence=base.cards.market[space].cost, messaging=tokens, doubt=doubt,
                                  victims=(2, 2, 3, 0)))
    after = play(state, MovementBuy(space, ()))
    assert after.pending and isinstance(after.pending[0], Messaging)
    return after


def test_messaging_three_removes_one_doubt_bottom_up(base: GameState) -> None:
    """Messaging: with 3 Messaging only the bottom Doubt of a full Children column can go (2, then 2 more)."""
    state = _messaging_turn(base, 3, (3, 3, 1, 1))
    children = {a for a in legal_actions(state) if isinstance(a, Message) and a.zone is Zone.CHILDREN}
    assert children == {Message(Zone.CHILDREN, 1, 0)}
    after = play(state, Message(Zone.CHILDREN, 1, 0))
    assert after.doubt[Zone.CHILDREN] == 2
    assert after.messaging == 1  # unspent tokens remain
    assert after.victims == state.victims


def test_messaging_four_clears_children_and_removes_a_victim(base: GameState) -> None:
    """Messaging: next time, 4 Messaging can start on the Adults column, or clear the Children column's two
    remaining Doubt (2 + 1) and remove one Victim, which earns 1 Influence."""
    state = _messaging_turn(base, 4, (2, 3, 1, 1))
    options = set(legal_actions(state))
    assert Message(Zone.ADULTS, 1, 0) in options
    assert Message(Zone.CHILDREN, 2, 1) in options
    assert Message(Zone.CHILDREN, 2, 2) not in options
    assert Message(Zone.CHILDREN, 1, 1) not in options  # Victims only once the column is clear
    after = play(state, Message(Zone.CHILDREN, 2, 1))
    assert after.doubt[Zone.CHILDREN] == 0
    assert after.victims[Zone.CHILDREN] == state.victims[Zone.CHILDREN] - 1
    assert after.influence == state.influence + 1
    assert after.messaging == 0


# --- Movement Rules > Agitation and Goals -----------------------------------------------------


def test_agitation_example_three_on_the_goal_two_profit_five_more(base: GameState) -> None:
    """Agitation and Goals: a Goal that would cost 3 more after the 3 tokens already on it, with 2 of the
    opponent's Profit on it, needs 5 more Agitation."""
    goal = 8  # printed cost 6: after 3 tokens it "would normally cost 3 more"
    assert base.game.goal(goal).cost == 6
    slot = 5
    # G1 and G2 achieved have cleared the bottom row, uncovering the row of three with G8 in its middle.
    goals = (4, 5, 6, 7, 9, goal, 3, NO_CARD, NO_CARD)
    space = next(i for i, s in enumerate(base.cards.market) if s.action is MarketAction.AGITATION)
    laid = arrange_movement(base, m_hand=(), tableau=((SMOKEOUT, True),))  # no Agitation icon face up
    state = movement_turn(replace(
        laid, goals=goals, achieved=(1, 2), influence=base.cards.market[space].cost, agitation=7,
        goal_agitation=tuple(3 if s == slot else 0 for s in range(9)),
        goal_profit=tuple(2 if s == slot else 0 for s in range(9))))
    at_step = play(state, MovementBuy(space, ()))
    assert at_step.pending and at_step.pending[0] == Agitation(0)
    offered = sorted(a.tokens for a in legal_actions(at_step) if isinstance(a, Agitate) and a.slot == slot)
    assert offered == [1, 2, 3, 4, 5]  # never more than the 5 needed
    short = play(at_step, Agitate(slot, 4))
    assert short.goals[slot] == goal and short.goal_agitation[slot] == 7
    done = play(at_step, Agitate(slot, 5))
    assert done.goals[slot] == NO_CARD and goal in done.achieved
    assert done.agitation == 2
    assert done.goal_profit[slot] == 0 and done.goal_agitation[slot] == 0
    assert done.supply_of(TokenKind.PROFIT) == state.supply_of(TokenKind.PROFIT) + 2


def test_helpers_keep_every_card_in_one_place(base: GameState) -> None:
    """The layout helpers move cards, never copy them (so the examples' states are real tables)."""
    state = company_turn(base, c_hand=(JOURNALISM, TELEVISION), c_reserve=(MARLBORO_MAN,), trash=(33,))
    places = [*state.c_deck, *state.c_hand, *state.c_discard, *state.c_reserve, *state.trash, *state.c_removed,
              *(c for pile in state.piles for c in pile), *(c for stack in state.stacks for c in stack)]
    assert sorted(places) == sorted(state.cards.company)
    moved = arrange_movement(base, m_hand=(REPORT_1964,), tableau=((WAXMAN, True),))
    cards = [*moved.m_deck, *moved.m_hand, *moved.m_discard, *(c for c in moved.market if c),
             *(c for c, _ in moved.tableau)]
    assert sorted(cards) == sorted(moved.cards.movement)
