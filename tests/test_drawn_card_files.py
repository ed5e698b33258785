"""Every command's checks on card files a designer might write, drawn by Hypothesis (`tests/card_files.py`).

The catalog, the abstractions and the solver's answers are tuned and measured on a handful of fixed files; here
they meet files with other numbers. On every drawn file:

* the catalog finds nothing wrong with the engine (a check that fires on a legal card file is a false alarm that
  a designer's CI would show as a rule bug), and an invariant that cannot check the file says so;
* the Company's and the Movement's abstractions admit every round of simulated games;
* no solver answer contradicts a game the engine played: a turn proved impossible is never one a simulated game
  reached its target by.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import itertools
import json
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from admission import (
    Admission,
    assert_movement_rounds_admitted,
    check_company_game,
    cut_respected,
    facts_admit,
    movement_round_states,
    round_starts,
    simulated_states,
)
from card_files import SHIPPED_DATA, card_file_data, differences, rulings, to_toml
from cli_run import run_cli
from doubtspec.agents.base import Matchup
from doubtspec.agents.simulate import iter_game
from doubtspec.invariants.derived import at_rest
from doubtspec.invariants.fuzzing import FuzzOptions, run_fuzz
from doubtspec.invariants.groups.outcome import _profit_offers
from doubtspec.invariants.groups.rule.company import _doubt_count_offers, _remove_market, _reshuffling_draw
from doubtspec.invariants.groups.rule.reshuffle import _reserve_resolve_offers
from doubtspec.model.actions import PlayStandard, RemoveFromMarket
from doubtspec.model.cards import CardSet, TokenKind, load_cards, parse_cards
from doubtspec.model.engine import apply, legal_actions
from doubtspec.model.game import Game
from doubtspec.model.rulings import Rulings
from doubtspec.model.state import TOKEN_INDEX, GameState, OutcomeReason, Phase
from doubtspec.solver import exhaustive
from doubtspec.solver.abstraction.company import PROFIT, STAR, CompanyAbstraction
from doubtspec.solver.abstraction.company_schedules import ScheduleProver
from doubtspec.solver.queries import TARGETS, Opponent, Query, QueryKind, abstraction_for, solve
from doubtspec.solver.unrolling.bmc import Caps
from doubtspec.solver.verdict import Budget, TurnVerdict

AGENTS = ("random", "careful", "greedy")
DRAWN = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                   HealthCheck.nested_given])
"""Drawn files: slow examples by nature; the fuzz run inside a test is a whole run of its own."""


def _variant(change: dict[str, object], number: int, side: str = "standard") -> CardSet:
    """The shipped set with one side of Company card `number` updated by `change`."""
    return parse_cards(to_toml(_changed(change, number, side)), "variant.toml")


def _changed(change: dict[str, object], number: int, side: str) -> dict[str, Any]:
    """The shipped data with one side of Company card `number` updated by `change`."""
    return {**SHIPPED_DATA, "company": {**SHIPPED_DATA["company"], "cards": [
        {**card, side: {**card[side], **change}} if card["number"] == number else card
        for card in SHIPPED_DATA["company"]["cards"]]}}


def _first(game: Game, phase: Phase, seed: int = 0) -> GameState:
    """The first state at rest in `phase` with nothing done in it yet, in a game of random agents."""
    for move in iter_game(game, seed, Matchup("random", "random"), 6):
        state = move.after
        done = state.buys if phase is Phase.COMPANY_BUY else state.plays or state.buys
        if at_rest(state) and state.phase is phase and not done:
            return state
    raise AssertionError(f"no {phase.value} reached")


def _loaded(data: dict[str, Any]) -> CardSet:
    return parse_cards(to_toml(data), "drawn.toml")


def test_the_writer_gives_back_the_shipped_set() -> None:
    """`to_toml` loses nothing: the shipped data written and read again is the shipped set."""
    written, shipped = parse_cards(to_toml(SHIPPED_DATA), "written.toml"), load_cards()
    for name in ("rules", "display", "company", "movement", "goals", "supply", "piles", "starting_deck"):
        if hasattr(shipped, name):
            assert getattr(written, name) == getattr(shipped, name), name


@settings(DRAWN, max_examples=40)
@given(data=card_file_data())
def test_drawn_card_files_load(data: dict[str, object]) -> None:
    """Every drawn file is one the loader accepts (the strategy never wastes an example on a refused file)."""
    parse_cards(to_toml(data), "drawn.toml")


def _catalog_holds(data: dict[str, Any], chosen: Rulings, seed: int, examples: int) -> None:
    result = run_fuzz(FuzzOptions(Game(_loaded(data), chosen), examples=examples, database=None, seed=seed))
    assert not result.violations, ([f"{v.invariant.id}: {v.message}" for v in result.violations],
                                   str(chosen), differences(data))


@settings(DRAWN, max_examples=5)
@given(data=card_file_data(), chosen=rulings(), seed=st.integers(0, 2**16))
def test_the_catalog_holds_on_drawn_card_files(data: dict[str, Any], chosen: Rulings, seed: int) -> None:
    """The whole catalog on a drawn file, under a drawn choice of every selectable ruling."""
    _catalog_holds(data, chosen, seed, 25)


@pytest.mark.slow
@settings(DRAWN, max_examples=60)
@given(data=card_file_data(), chosen=rulings(), seed=st.integers(0, 2**16))
def test_the_catalog_holds_on_many_drawn_card_files(data: dict[str, Any], chosen: Rulings, seed: int) -> None:
    _catalog_holds(data, chosen, seed, 120)


def test_a_draw_before_the_cards_own_profit_is_no_reshuffle_sequence() -> None:
    """`rule.empty-draw-offers` on a card that draws and then scores Profit: the Profit after the draw is the
    card's own, not a Sequence's (the shipped cards that draw score none, which hid the false alarm)."""
    cards = _variant({"effects": [{"op": "draw", "count": 2}, {"op": "profit", "count": 1}]}, 4)
    state = _first(Game(cards), Phase.COMPANY_PLAY)
    assert _reshuffling_draw(state, 4) is None


def test_a_reshuffle_effect_scores_what_the_supply_has_left() -> None:
    """`rule.reserve-resolve-offers` with a Profit supply that the Sequence's own scoring (steps A-B) empties: the
    Reserve card's reshuffle effect then scores what is left, not its whole amount."""
    state = _first(Game(load_cards()), Phase.COMPANY_BUY)
    stacks = tuple(tuple(c for c in stack if c != 49) for stack in state.stacks)
    supply = list(state.supply)
    supply[TOKEN_INDEX[TokenKind.PROFIT]] = 2  # the card's effect scores 2; the display alone scores more
    probe = dataclasses.replace(state, c_hand=(*state.c_hand, 49), stacks=stacks, supply=tuple(supply))
    assert _reserve_resolve_offers(probe) is None


def test_doubt_after_a_draw_is_placed_whole() -> None:
    """`rule.doubt-count-offers` on a card that draws before it places Doubt: the play is followed through its draw to
    the Doubt it places (the check stopped at the draw and counted none)."""
    cards = _variant({"effects": [{"op": "draw", "count": 1}, {"op": "doubt", "group": "II", "count": 2}]}, 36)
    state = _first(Game(cards), Phase.COMPANY_PLAY)
    state = dataclasses.replace(state, c_hand=(*state.c_hand, 36),
                                stacks=tuple(tuple(c for c in stack if c != 36) for stack in state.stacks))
    assert _doubt_count_offers(state) is None


def test_a_reshuffle_that_lobbies_keeps_the_winning_profit_it_holds() -> None:
    """`outcome.profit-offers` with a Reserve card that Lobbies at the Reshuffle (step C, before the Profit counts):
    its probe held exactly the target, the first choice spent one, and the missing Profit Victory was a false alarm
    (a drawn file with a small Profit supply met it first; the shipped set's card 55 does the same)."""
    state = _first(Game(load_cards()), Phase.COMPANY_BUY)
    # No Victims: the Sequence scores nothing, so the Profit held is all there is to count.
    probe = dataclasses.replace(state, buys=1, c_deck=(), c_discard=tuple(sorted((*state.c_deck, *state.c_discard))),
                                c_reserve=(*state.c_reserve, 55), victims=(0,) * len(state.victims),
                                stacks=tuple(tuple(c for c in stack if c != 55) for stack in state.stacks))
    assert _profit_offers(probe) is None


def test_profit_scored_after_a_market_removal_is_the_cards_own() -> None:
    """`rule.remove-market` on a card that removes a Market card and then scores Profit: the rest of the play resolves
    in the same step, so the Company's Profit grows by that effect, and the supply gets the card's Lobbying less it."""
    game = Game(_variant({"effects": [{"op": "remove_market", "count": 1}, {"op": "profit", "count": 2}]}, 38))
    state = _first(game, Phase.COMPANY_PLAY)
    state = dataclasses.replace(state, c_hand=(*state.c_hand, 38),
                                stacks=tuple(tuple(c for c in stack if c != 38) for stack in state.stacks))
    play = min((a for a in legal_actions(state) if isinstance(a, PlayStandard) and a.card == 38),
               key=lambda a: len(a.pay))
    before = apply(state, play)
    removal = next(a for a in legal_actions(before) if isinstance(a, RemoveFromMarket))
    after = apply(before, removal)
    assert after.profit == before.profit + 2
    assert _remove_market(before, removal, after) is None
    kept = dataclasses.replace(after, profit=after.profit + 1)  # a Profit from nowhere is still refused
    assert _remove_market(before, removal, kept) is not None


def test_an_invariant_the_file_leaves_nothing_to_check_for_is_named(tmp_path: Path) -> None:
    """A Reserve side that draws is a legal card but not one the solver models: the oracle is left out of the run
    and the summary says so, in the table and in --json (it was a violation of `oracle.solver` before)."""
    change = {"effects": [{"op": "victims", "zone": "adults", "count": 1}, {"op": "draw", "count": 1}]}
    result = run_fuzz(FuzzOptions(Game(_variant(change, 1, "reserve")), examples=10, database=None, seed=1))
    assert not result.violations
    assert "Reserve effects that draw" in result.not_checked["oracle.solver"]
    path = tmp_path / "reserve-draw.toml"
    path.write_text(to_toml(_changed(change, 1, "reserve")))
    code, out, err = run_cli("fuzz", "--cards", str(path), "--examples", "5", "--database", "none")
    assert code == 0, out + err
    assert "not checked: oracle.solver (the solver cannot model this card file" in " ".join(out.split())
    code, out, _ = run_cli("fuzz", "--cards", str(path), "--examples", "5", "--database", "none", "--json")
    assert code == 0 and "Reserve effects that draw" in json.loads(out)["not_checked"]["oracle.solver"]


def _admitted_everywhere(data: dict[str, Any], seed: int, rounds: int) -> int:
    """Every round of a game of each agent pairing is admitted by both abstractions; the rounds checked."""
    game = Game(_loaded(data))
    admission = Admission(game)
    checked = 0
    for company, movement in itertools.product(AGENTS, AGENTS):
        matchup = Matchup(company, movement)
        checked += check_company_game(admission, game, seed, matchup, rounds, "drawn file")
        dealt, starts = movement_round_states(simulated_states(game, seed, matchup, rounds))
        checked += assert_movement_rounds_admitted(game, dealt, starts)
    return checked


@settings(DRAWN, max_examples=3)
@given(data=card_file_data(modelled=True), seed=st.integers(0, 2**16))
def test_the_abstractions_admit_every_round_on_drawn_card_files(data: dict[str, Any], seed: int) -> None:
    assert _admitted_everywhere(data, seed, 8) > 0, differences(data)


@pytest.mark.slow
@settings(DRAWN, max_examples=40)
@given(data=card_file_data(modelled=True), seed=st.integers(0, 2**16))
def test_the_abstractions_admit_every_round_on_many_drawn_card_files(data: dict[str, Any], seed: int) -> None:
    assert _admitted_everywhere(data, seed, 12) > 0, differences(data)


def _cuts_hold(data: dict[str, Any], seed: int, budget: float) -> int:
    """The star cut's and the Profit cut's proved bounds and facts (to turn 4, within `budget` seconds each) hold
    in a game of every agent pairing; returns the games checked."""
    game = Game(_loaded(data))
    model = CompanyAbstraction.of(game)
    stars = ScheduleProver(model.system(STAR), STAR, model.lemmas(), layout=model.layout)
    stars.cut_stars(4, game.cards.rules.stars_to_win, Budget.of(budget))
    profit = ScheduleProver(model.system(PROFIT), PROFIT, model.lemmas(), layout=model.layout)
    profit.cut_profit(4, game.cards.rules.profit_to_win, Budget.of(budget))
    checked = 0
    for company, movement in itertools.product(AGENTS, AGENTS):
        states = round_starts(game, seed, Matchup(company, movement), 3)
        if len(states) >= 2:
            assert facts_admit(stars, model.layout, states), (f"a fact of the star cut cuts off a game: "
                                                             f"{[f.text for f in stars.facts]}", differences(data))
            assert cut_respected(profit, states), ("a bound of the Profit cut cuts off a game: "
                                                   f"{[f.text for f in profit.facts]}", differences(data))
            checked += 1
    return checked


@settings(DRAWN, max_examples=1)
@given(data=card_file_data(modelled=True), seed=st.integers(0, 2**16))
def test_the_cuts_bounds_hold_in_games_on_drawn_card_files(data: dict[str, Any], seed: int) -> None:
    _cuts_hold(data, seed, 10.0)


@pytest.mark.slow
@settings(DRAWN, max_examples=15)
@given(data=card_file_data(modelled=True), seed=st.integers(0, 2**16))
def test_the_cuts_bounds_hold_in_games_on_many_drawn_card_files(data: dict[str, Any], seed: int) -> None:
    _cuts_hold(data, seed, 30.0)


ENDINGS = {OutcomeReason.STAR_VICTORY: QueryKind.STARS, OutcomeReason.PROFIT_VICTORY: QueryKind.PROFIT,
           OutcomeReason.GOAL_VICTORY: QueryKind.MOVEMENT_WIN, OutcomeReason.ECONOMIC_DEFEAT: QueryKind.DEFEAT,
           OutcomeReason.MARGINALIZATION: QueryKind.DEFEAT}


def _reached(game: Game, seeds: range, rounds: int) -> tuple[dict[QueryKind, int], dict[int, int]]:
    """The earliest turn simulated games (every pairing) ended each way, and achieved each Goal by."""
    ended: dict[QueryKind, int] = {}
    goals: dict[int, int] = {}
    for seed, (company, movement) in itertools.product(seeds, itertools.product(AGENTS, AGENTS)):
        last = None
        for move in iter_game(game, seed, Matchup(company, movement), rounds):
            last = move.after
            for goal in last.achieved:
                goals[goal] = min(goals.get(goal, rounds + 1), last.round)
        if last is not None and last.outcome is not None:
            kind = ENDINGS[last.outcome.reason]
            ended[kind] = min(ended.get(kind, rounds + 1), last.outcome.round)
    return ended, goals


def _consistent(game: Game, kind: QueryKind, turn: int, timeout: float, goal: int | None = None) -> None:
    """The solver asked whether `kind` can happen by `turn`, which a simulated game reached: never "no", no turn
    from `turn` on proved impossible, and an earliest turn proved only at or before `turn`."""
    answer = solve(game, kind, turn, timeout_s=timeout, goal=goal)
    what = f"{kind.value}{'' if goal is None else f' G{goal}'} by turn {turn}"
    assert answer.status != "no", f"{what}: a simulated game reached it, the solver says no"
    assert answer.proved_none_by < turn, f"{what}: turn {answer.proved_none_by} proved impossible"
    if answer.earliest_exact:
        assert answer.earliest is not None and answer.earliest <= turn, f"{what}: earliest {answer.earliest}"


def _no_answer_contradicts_a_game(data: dict[str, Any], timeout: float, goals: int) -> int:
    """Asks about each ending and (up to `goals`) Goal a simulated game reached; returns how many were asked."""
    game = Game(_loaded(data))
    ended, achieved = _reached(game, range(2), 12)
    for kind, turn in sorted(ended.items(), key=lambda item: item[1]):
        _consistent(game, kind, turn, timeout)
    for goal, turn in sorted(achieved.items(), key=lambda item: -item[1])[:goals]:
        _consistent(game, QueryKind.GOAL, turn, timeout, goal)
    return len(ended) + min(goals, len(achieved))


@st.composite
def _quick_ending_files(draw: st.DrawFn) -> dict[str, Any]:
    """Drawn files the solver models whose victories come within a few turns: one or two stars to win, a low
    Profit to win and few Goal points, so that simulated games end and the provers' "impossible" turns meet them."""
    data: dict[str, Any] = draw(card_file_data(modelled=True))
    data["rules"].update(stars_to_win=draw(st.integers(1, 2)), star_threshold=draw(st.integers(4, 8)),
                         profit_to_win=draw(st.integers(15, 30)), goal_points_to_win=draw(st.integers(3, 6)))
    data["supply"]["stars"] = max(data["supply"]["stars"], data["rules"]["stars_to_win"])
    return data


@settings(DRAWN, max_examples=2)
@given(data=_quick_ending_files())
def test_no_answer_contradicts_a_game_on_drawn_card_files(data: dict[str, Any]) -> None:
    """The solver's "no" and "earliest" against the games the engine plays on a drawn file (stars to win, the
    threshold and Profit to win are often low there, so its victories come early and the provers' bounds are
    put to the test)."""
    assert _no_answer_contradicts_a_game(data, 6.0, 1) > 0, differences(data)


@pytest.mark.slow
@settings(DRAWN, max_examples=25)
@given(data=_quick_ending_files())
def test_no_answer_contradicts_a_game_on_many_drawn_card_files(data: dict[str, Any]) -> None:
    assert _no_answer_contradicts_a_game(data, 20.0, 3) > 0, differences(data)


def _commands(folder: Path, cards: str) -> Iterator[tuple[tuple[str, ...], tuple[int, ...]]]:
    """Each command a designer runs on a card file, with the exit codes that are answers (not failures)."""
    yield ("cards", "check", cards), (0,)
    yield ("cards", "show", cards), (0,)
    yield ("simulate", "--games", "4", "--seed", "1", "--cards", cards, "--json"), (0,)
    yield ("play", "--seed", "1", "--no-states", "--max-rounds", "6", "--cards", cards,
           "--html", str(folder / "game.html")), (0,)
    yield ("fuzz", "--examples", "3", "--database", "none", "--cards", cards, "--report-dir", str(folder)), (0,)
    witness = folder / "witness.trace"
    yield ("solve", "stars", "--by-turn", "3", "--timeout", "4", "--cards", cards, "--json",
           "--witness-out", str(witness)), (0, 3)
    if witness.exists():
        yield ("replay", str(witness), "--cards", cards, "--quiet"), (0,)
    yield ("solve", "goal", "1", "--by-turn", "2", "--timeout", "3", "--cards", cards, "--json"), (0, 3)


@settings(DRAWN, max_examples=2)
@given(data=card_file_data())
def test_every_command_runs_on_a_drawn_card_file(data: dict[str, Any]) -> None:
    """Cards are data: a legal card file, however its numbers fall, goes through every command without a crash, a
    witness the solver writes for it replays, and OpenSpiel plays it (when the spiel extra is installed)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = folder / "drawn.toml"
        path.write_text(to_toml(data))
        for args, answers in _commands(folder, str(path)):
            code, out, err = run_cli(*args)
            assert code in answers, (args, code, (out + err)[-2000:], differences(data))
        assert (folder / "game.html").stat().st_size > 0
        if importlib.util.find_spec("pyspiel") is not None:  # the spiel extra: OpenSpiel's own conformance check
            import pyspiel

            from doubtspec.spiel.game import GAME_NAME

            pyspiel.random_sim_test(pyspiel.load_game(f"{GAME_NAME}(cards={path})"), num_sims=2, serialize=True,
                                    verbose=False)


TINY3 = tomllib.loads((Path(__file__).parent / "data" / "tiny3.toml").read_text())
SEARCH_CAPS = Caps(plays=3, buys=2)
"""The exhaustive search's caps (as in `test_solver_agreement`): what it finds within them is a game."""


@st.composite
def _drawn_tiny_files(draw: st.DrawFn) -> dict[str, Any]:
    """tiny3's data drawn anew (three-card hands kept, so the exhaustive search stays small)."""
    data: dict[str, Any] = draw(card_file_data(modelled=True, base=TINY3))
    data["rules"]["company_hand_size"] = 3
    return data


def _agrees_with_the_search(data: dict[str, Any], bound: int, timeout: float, search_s: float) -> int:
    """Every Company ending the exhaustive search reaches by `bound` (a passive Movement, `SEARCH_CAPS`) is never
    proved impossible by its turn, by the abstraction or by a whole answer; returns how many endings it reached
    (a search cut short by `search_s` has still found real games)."""
    game = Game(_loaded(data))
    results, _ = exhaustive.earliest_outcomes(game, bound, SEARCH_CAPS, timeout_s=search_s)
    reached = 0
    for kind in (QueryKind.STARS, QueryKind.PROFIT, QueryKind.DEFEAT):
        found = [results[r.value].found for r in TARGETS[kind][1] if r.value in results]
        turn = min((f for f in found if f is not None), default=None)
        if turn is None:
            continue
        reached += 1
        prover = abstraction_for(game, Query(kind, bound))
        if prover is not None:
            for proof in prover.decide(bound, Budget.of(timeout)):
                assert not (proof.turn >= turn and proof.verdict is TurnVerdict.IMPOSSIBLE), (
                    f"{kind.value}: the search reaches it at turn {turn}, the abstraction proves turn {proof.turn} "
                    "impossible", differences(data))
        answer = solve(game, kind, bound, Opponent.PASSIVE, timeout_s=timeout)
        assert answer.status != "no" and answer.proved_none_by < turn, (
            f"{kind.value}: the search reaches it at turn {turn}, the answer is {answer.status} with turns up to "
            f"{answer.proved_none_by} proved impossible", differences(data))
    return reached


@settings(DRAWN, max_examples=1)
@given(data=_drawn_tiny_files())
def test_no_proof_contradicts_the_exhaustive_search_on_drawn_tiny_files(data: dict[str, Any]) -> None:
    """The exhaustive search is the ground truth within its caps: on tiny files with drawn numbers (victories from
    two Profit or a threshold of two), what it reaches at turn 1 is never proved impossible."""
    _agrees_with_the_search(data, 1, 10.0, 10.0)


@pytest.mark.slow
@settings(DRAWN, max_examples=10)
@given(data=_drawn_tiny_files())
def test_no_proof_contradicts_the_exhaustive_search_to_turn_2_on_drawn_tiny_files(data: dict[str, Any]) -> None:
    """The same to turn 2 (a Reshuffle can come by then), the search given a minute and a half."""
    _agrees_with_the_search(data, 2, 30.0, 90.0)
