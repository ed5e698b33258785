"""The agents: their registry and `--agents` parsing, seeded determinism, and the greedy choices."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from doubtspec.agents.base import AGENTS, Matchup, RandomAgent, make_agent
from doubtspec.agents.greedy_company import GreedyCompany, company_plans
from doubtspec.agents.greedy_movement import GreedyMovement
from doubtspec.agents.simulate import iter_game
from doubtspec.errors import OptionError
from doubtspec.model.actions import Agitate, Buy, Message, Skip
from doubtspec.model.cards import Zone
from doubtspec.model.engine import apply, current_actor, legal_actions
from doubtspec.model.game import Game
from doubtspec.model.legal import buy_offers
from doubtspec.model.movement import available_goals
from doubtspec.model.state import Actor, GameState, Phase, Side
from doubtspec.model.steps import Agitation, Messaging, StartCompanyTurn


def _first_movement_turn(game: Game, seed: int = 1) -> GameState:
    for move in iter_game(game, seed, Matchup()):
        if move.after.phase is Phase.MOVEMENT_TURN and not move.after.pending:
            return move.after
    raise AssertionError("no Movement turn")


# --- the registry and --agents ----------------------------------------------------------------


def test_matchup_parse_defaults_and_forms() -> None:
    assert Matchup.parse(None) == Matchup("greedy", "greedy")
    assert Matchup.parse("") == Matchup("greedy", "greedy")
    assert Matchup.parse("random") == Matchup("random", "random")
    assert Matchup.parse("company=greedy,movement=random") == Matchup("greedy", "random")
    assert Matchup.parse(" movement = random ") == Matchup("greedy", "random")
    assert str(Matchup("random", "greedy")) == "company=random,movement=greedy"
    assert Matchup.parse(str(Matchup("random", "greedy"))) == Matchup("random", "greedy")


@pytest.mark.parametrize("text", ["company=clever", "company", "bank=greedy", "company=greedy,company=random",
                                  "movement=", "greedy,random"])
def test_matchup_parse_rejects_bad_text_naming_the_option(text: str) -> None:
    with pytest.raises(OptionError) as info:
        Matchup.parse(text)
    assert info.value.field == "--agents"


def test_make_agent_knows_every_registered_name(game: Game) -> None:
    for name in AGENTS:
        for side in Side:
            agent = make_agent(name, game, side, random.Random(0))
            assert hasattr(agent, "choose")
    with pytest.raises(OptionError, match="unknown agent 'oracle'"):
        make_agent("oracle", game, Side.COMPANY, random.Random(0))


# --- every agent plays legal, seeded, deterministic games --------------------------------------


@pytest.mark.parametrize("matchup", [Matchup("random", "random"), Matchup("greedy", "greedy"),
                                     Matchup("greedy", "random"), Matchup("random", "greedy")], ids=str)
def test_agents_choose_legal_actions_and_repeat_with_the_seed(game: Game, matchup: Matchup) -> None:
    for seed in range(3):
        first = []
        for move in iter_game(game, seed, matchup):
            assert move.action in legal_actions(move.before)
            first.append(str(move.action))
        again = [str(move.action) for move in iter_game(game, seed, matchup)]
        assert first == again


def test_random_agent_is_uniform_over_the_actions(game: Game) -> None:
    state = _first_movement_turn(game)
    actions = legal_actions(state)
    agent = RandomAgent(game, Side.MOVEMENT, random.Random(3))
    seen = {agent.choose(state, actions) for _ in range(40 * len(actions))}
    assert seen == set(actions)


def test_careful_agent_keeps_budget_for_a_buy_when_it_can(game: Game) -> None:
    checked = 0
    for seed in range(20):
        for move in iter_game(game, seed, Matchup("careful", "careful")):
            state = move.before
            if move.actor is not Actor.COMPANY or state.phase is not Phase.COMPANY_PLAY:
                continue
            after = move.after
            if after.phase is Phase.COMPANY_PLAY and not after.pending and after.outcome is None:
                offers = buy_offers(after)
                budget = sum(game.budget[c] for c in after.c_hand)
                could = any(budget >= cost for _, _, _, cost in offers)
                if not could:
                    # Only when no choice at all kept a buy within reach.
                    safe = [a for a in legal_actions(state) if _keeps_buy(apply(state, a))]
                    assert not safe, (seed, str(move.action))
                checked += 1
    assert checked > 100


def _keeps_buy(state: GameState) -> bool:
    if state.outcome is not None:
        return False
    budget = sum(state.game.budget[c] for c in state.c_hand)
    return any(budget >= cost for _, _, _, cost in buy_offers(state))


def test_careful_agent_is_random_for_the_movement(game: Game) -> None:
    careful = [str(m.action) for m in iter_game(game, 4, Matchup("greedy", "careful"))]
    plain = [str(m.action) for m in iter_game(game, 4, Matchup("greedy", "random"))]
    assert careful == plain


# --- the greedy Movement ------------------------------------------------------------------------


def test_greedy_movement_achieves_a_goal_when_it_can(game: Game) -> None:
    base = _first_movement_turn(game)
    slot = next(iter(available_goals(base.goals)))
    need = game.goal(base.goals[slot]).cost
    state = replace(base, pending=(Agitation(icons=0), StartCompanyTurn()), agitation=need)
    choice = GreedyMovement(game, random.Random(0)).choose(state, legal_actions(state))
    assert isinstance(choice, Agitate) and choice.tokens == need
    after = apply(state, choice)
    assert len(after.achieved) == 1


def test_greedy_movement_message_takes_victims_where_doubt_is_gone(game: Game) -> None:
    base = _first_movement_turn(game)
    state = replace(base, pending=(Messaging(icons=3), StartCompanyTurn()),
                    doubt=(0, base.doubt[1], base.doubt[2], base.doubt[3]), victims=(3, 0, 0, 0))
    choice = GreedyMovement(game, random.Random(0)).choose(state, legal_actions(state))
    assert choice == Message(Zone.CHILDREN, 0, 3)


def test_greedy_movement_never_skips_achievable_goals_in_games(game: Game) -> None:
    checked = 0
    for seed in range(15):
        for move in iter_game(game, seed, Matchup("greedy", "greedy")):
            head = move.before.pending[0] if move.before.pending else None
            if move.actor is not Actor.MOVEMENT or not isinstance(head, Agitation):
                continue
            achievable = [a for a in legal_actions(move.before) if isinstance(a, Agitate)
                          and len(apply(move.before, a).achieved) > len(move.before.achieved)]
            if achievable:
                checked += 1
                assert len(move.after.achieved) > len(move.before.achieved), (seed, str(move.action))
    assert checked > 0


# --- the greedy Company -------------------------------------------------------------------------


def test_greedy_company_buys_the_strongest_affordable_card_first(game: Game) -> None:
    plans = company_plans(game)
    checked = 0
    for seed in range(10):
        for move in iter_game(game, seed, Matchup("greedy", "greedy")):
            state = move.before
            if move.actor is not Actor.COMPANY or state.phase is not Phase.COMPANY_BUY or state.buys:
                continue
            assert isinstance(move.action, Buy)
            budget = sum(game.budget[c] for c in state.c_hand)
            best = max(plans[card].strength for _, _, card, cost in buy_offers(state)  # type: ignore[union-attr]
                       if cost <= budget)
            bought = GreedyCompany._card_of(state, move.action)
            assert plans[bought].strength == best  # type: ignore[union-attr]
            checked += 1
    assert checked > 50


def test_greedy_company_keeps_budget_to_buy(game: Game) -> None:
    """Over many games the greedy Company almost never plays itself into Economic Defeat."""
    defeats = 0
    for seed in range(40):
        last = None
        for move in iter_game(game, seed, Matchup("greedy", "random")):
            last = move.after
        assert last is not None and last.outcome is not None
        defeats += last.outcome.reason.value == "economic-defeat"
    assert defeats == 0


def test_greedy_company_skips_lobbying_back_and_trashes_only_dead_cards(game: Game) -> None:
    for seed in range(10):
        for move in iter_game(game, seed, Matchup("greedy", "greedy")):
            text = str(move.action)
            if move.actor is Actor.COMPANY:
                assert not text.startswith("c unlobby")
                if text.startswith("c trash"):
                    assert game.budget[int(text.split()[2])] == 0


def test_greedy_agents_answer_single_choices_without_scoring(game: Game) -> None:
    state = _first_movement_turn(game)
    only = (Skip(Side.MOVEMENT),)
    assert GreedyMovement(game, random.Random(0)).choose(state, only) is only[0]
    assert current_actor(state) is Actor.MOVEMENT


def test_buy_offers_name_the_card_each_buy_takes(game: Game) -> None:
    """Buying Cards: the card `buy_offers` names for a pile, a stack or the trash pile (the card the agents
    weigh) is the one the Buy puts into the discard pile: a stack's top card, not the one under it."""
    checked = 0
    for seed in range(3):
        for move in iter_game(game, seed, Matchup("greedy", "greedy")):
            state = move.before
            if move.actor is not Actor.COMPANY or state.phase is not Phase.COMPANY_BUY or state.pending:
                continue
            buys = {(a.source, a.index): a for a in legal_actions(state) if isinstance(a, Buy)}
            for source, index, card, _ in buy_offers(state):
                if (source, index) in buys:
                    after = apply(state, buys[source, index])
                    assert card in after.c_discard and card not in state.c_discard, (source, index, card)
                    checked += 1
    assert checked > 50
