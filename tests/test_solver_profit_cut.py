"""The Profit cut: its potential bounds hold in engine games, and its turns are never ones a game reaches.

`ProfitCut` (`ScheduleProver.cut_profit`) proves, round by round, a bound on the potential (the Profit held plus
what the display would score at a Reshuffle Sequence now) with the Profit Victory latch unset, and proves turns
from it. Every bound is checked here against the engine: the round-boundary states of simulated games (every agent
pairing, and Hypothesis-drawn seeds) and of the shipped set's recorded turn-7 Profit Victory, projected onto the
abstraction's states, meet every proved bound and are admitted by the unrolling with every fact asserted. A bound
below what a game reaches is refused by the same check, so the check can fail.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from admission import at_rest_starts, cut_respected, round_starts
from doubtspec.agents.base import Matchup
from doubtspec.model.cards import load_cards
from doubtspec.model.engine import apply, new_game
from doubtspec.model.game import Game
from doubtspec.model.state import GameState
from doubtspec.reports.trace import load_trace
from doubtspec.solver.abstraction import cpsat
from doubtspec.solver.abstraction.company import PROFIT, CompanyAbstraction
from doubtspec.solver.abstraction.company_schedules import RoundFact, ScheduleProver
from doubtspec.solver.abstraction.profit_cut import CASES_MIN_S, measures, potential
from doubtspec.solver.verdict import Budget, TurnVerdict
from doubtspec.spiel import spiel_available
from lazy_values import LazyTable
from searching_games import EVERY_GAME, searching_games

DATA = Path(__file__).parent / "data"
GAMES = {"shipped": Game(load_cards()), "tiny": Game(load_cards(DATA / "tiny.toml")),
         "tiny3": Game(load_cards(DATA / "tiny3.toml"))}
AGENTS = ("random", "careful", "greedy")
WITNESS = DATA / "witness_profit_turn7.trace"
EARLIEST = {"tiny": 2, "tiny3": 2}
"""A turn each tiny file's Profit hunt reaches a Profit Victory at (`test_solver_profit_hunt`: tiny seed 1 and tiny3
seed 0 find turn 2): no cut may prove it."""


def _cut(name: str, by_turn: int, cpsat_too: bool = True) -> ScheduleProver:
    game = GAMES[name]
    model = CompanyAbstraction.of(game)
    prover = ScheduleProver(model.system(PROFIT), PROFIT, model.lemmas(), layout=model.layout)
    prover.cut_profit(by_turn, game.cards.rules.profit_to_win, Budget.of(None), cpsat=cpsat_too)
    return prover


CUTS = LazyTable(("shipped", "tiny", "tiny3"), lambda name: _cut(name, 3))
"""The Profit cut to turn 3 (the shipped set's bounds after rounds 1 and 2: about 8 CPU-seconds, the box included)."""


def test_cpsat_maximize_proves_the_largest_value() -> None:
    x, y = z3.Int("x@1"), z3.Int("y@1")
    box = cpsat.Box()

    def domain(name: str) -> tuple[int, int]:
        return box.domain(name, frozenset({"x", "y"}))

    best = cpsat.maximize([x + 2 * y <= 7, x >= y], x + y, domain, Budget.of(10), 5.0)
    assert best.optimal and best.at_most == best.reached == 7
    assert cpsat.maximize([x + y <= 2, x >= 3, y >= 0], x, domain, Budget.of(10), 5.0).reached is None


def test_the_profit_cut_proves_turn_3_of_the_shipped_set_from_round_2() -> None:
    """The largest potential after rounds 1 and 2 (8 and 18, CP-SAT, optimal), and turn 3 from the second alone."""
    prover = CUTS["shipped"]
    cut = prover.profit_cut
    assert cut is not None and cut.turn == 3 and cut.at_most == {1: 8, 2: 18}
    assert cut.proof is not None and cut.proof.verdict is TurnVerdict.IMPOSSIBLE and cut.proof.turn == 3
    assert prover.proved_upto == 3
    assert not any(fact.text.startswith("target not reached") for fact in prover.facts)


def test_z3_alone_keeps_to_the_bounds_it_proves() -> None:
    """Without CP-SAT the round-1 bound comes from Z3's ladder: 5 is broken by a run of the abstraction (so it is
    never asserted), 10 is proved."""
    prover = _cut("shipped", 2, cpsat_too=False)
    cut = prover.profit_cut
    assert cut is not None and cut.at_most == {1: 10} and cut.turn == 2
    assert not any("at most 5 " in fact.text for fact in prover.facts)


@pytest.mark.parametrize("name", sorted(EARLIEST))
def test_the_profit_cut_never_proves_a_turn_a_game_reaches(name: str) -> None:
    cut = CUTS[name].profit_cut
    assert cut is not None and cut.turn < EARLIEST[name]
    assert all(bound < GAMES[name].cards.rules.profit_to_win for bound in cut.at_most.values())


@pytest.mark.parametrize(("company", "movement"), list(itertools.product(AGENTS, AGENTS)))
def test_the_bounds_hold_in_every_simulated_game(company: str, movement: str) -> None:
    checked = 0
    for name, prover in CUTS.items():
        for seed in range(2):
            states = round_starts(GAMES[name], seed, Matchup(company, movement), 2)
            if len(states) >= 2:
                assert cut_respected(prover, states), f"{name} seed {seed}: a bound of the Profit cut cuts off a game"
                checked += 1
    assert checked > 0


@pytest.mark.parametrize(("name", "seed", "matchup"), searching_games(GAMES))
def test_the_bounds_hold_in_a_searching_agents_game(name: str, seed: int, matchup: Matchup) -> None:
    """The searching agents' games (`searching_games`) meet every bound of the Profit cut, and the measures."""
    checked = 0
    for cuts, rounds in ((CUTS, 2), (MEASURED, 1)):
        if name in cuts:
            states = round_starts(GAMES[name], seed, matchup, rounds)
            if len(states) >= 2:
                assert cut_respected(cuts[name], states), f"{name} seed {seed} {matchup}: a bound cuts off the game"
                checked += 1
    assert checked > 0


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(CUTS)), seed=st.integers(0, 2**32), company=st.sampled_from(AGENTS),
       movement=st.sampled_from(AGENTS))
def test_the_bounds_hold_in_generated_games(name: str, seed: int, company: str, movement: str) -> None:
    states = round_starts(GAMES[name], seed, Matchup(company, movement), 2)
    if len(states) >= 2:
        assert cut_respected(CUTS[name], states)


def _witness_states(rounds: int) -> list[GameState]:
    state = new_game(GAMES["shipped"])
    states = [state]
    for action in load_trace(WITNESS).parsed():
        state = apply(state, action)
        states.append(state)
    return at_rest_starts(states, rounds)


def test_the_recorded_profit_victory_meets_the_bounds_and_a_lower_one_is_refused() -> None:
    """The best game known (Profit Victory at turn 7) meets the bounds after rounds 1 and 2; a bound one below its
    potential after round 2 is refused by the same check, so the check can fail."""
    prover = CUTS["shipped"]
    cut = prover.profit_cut
    assert cut is not None
    states = _witness_states(2)
    assert len(states) == 3 and cut_respected(prover, states)
    layout = CompanyAbstraction.of(GAMES["shipped"]).layout
    values = layout.project(states[2])
    reached = z3.simplify(z3.substitute(potential(prover.state(2)),
                                        *[(prover.state(2)[n], z3.IntVal(v)) for n, v in values.items()]))
    false = RoundFact(2, cut.bound(2, reached.as_long() - 1), "a bound below the recorded game's")
    assert not cut_respected(prover, states, [false.formula])


@pytest.mark.slow
def test_the_profit_cut_proves_turn_4_of_the_shipped_set() -> None:
    """About 25 CPU-seconds: the round-3 potential is at most 30 (CP-SAT, optimal; the recorded game's Profit after
    round 3 is 17), and one round from any state within it stays under 70. The recorded game meets every bound."""
    prover = _cut("shipped", 4)
    cut = prover.profit_cut
    assert cut is not None and cut.turn == 4 and cut.at_most[3] == 30
    assert cut_respected(prover, _witness_states(3))


def _measured(name: str, by_turn: int, r: int) -> ScheduleProver:
    prover = _cut(name, by_turn)
    assert prover.profit_cut is not None
    proved = prover.profit_cut.bound_measures(r, Budget.of(None))
    assert set(proved) == {"cards owned", "cards in the Reserve", "Victims on the display", "children Victims"}
    return prover


MEASURED = LazyTable(("tiny", "tiny3"), lambda name: _measured(name, 3, 1))
"""The tiny files' measures after round 1 (CP-SAT, optimal; about half a CPU-second each file)."""


def _value(prover: ScheduleProver, r: int, term: z3.ArithRef, state: GameState) -> int:
    assert prover.layout is not None
    values = prover.layout.project(state)
    held = z3.simplify(z3.substitute(term, *[(prover.state(r)[n], z3.IntVal(v)) for n, v in values.items()]))
    assert z3.is_int_value(held)
    return int(held.as_long())


@pytest.mark.parametrize(("company", "movement"), list(itertools.product(AGENTS, AGENTS)))
def test_the_measures_hold_in_every_simulated_game(company: str, movement: str) -> None:
    """Every measure proved after round 1 holds in simulated games of every agent pairing; a bound one below what a
    game reaches is refused by the same check."""
    checked = 0
    for name, prover in MEASURED.items():
        for seed in range(2):
            states = round_starts(GAMES[name], seed, Matchup(company, movement), 1)
            if len(states) < 2:
                continue
            assert cut_respected(prover, states), f"{name} seed {seed}: a measure cuts off a game"
            assert prover.layout is not None
            for term in measures(prover.layout, prover.state(1)).values():
                below = term <= _value(prover, 1, term, states[1]) - 1
                assert not cut_respected(prover, states, [below])
            checked += 1
    assert checked > 0


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(MEASURED)), seed=st.integers(0, 2**32), company=st.sampled_from(AGENTS),
       movement=st.sampled_from(AGENTS))
def test_the_measures_hold_in_generated_games(name: str, seed: int, company: str, movement: str) -> None:
    states = round_starts(GAMES[name], seed, Matchup(company, movement), 1)
    if len(states) >= 2:
        assert cut_respected(MEASURED[name], states)


@pytest.mark.slow
def test_the_measures_after_round_3_of_the_shipped_set() -> None:
    """About 45 CPU-seconds beside the cut's 25: at most 29 cards owned, 3 in the Reserve, 17 Victims on the display
    and 4 children after round 3 (CP-SAT, optimal). The recorded turn-7 game meets them (14 cards, none in the
    Reserve, 14 Victims, 2 children), and in simulated games; a bound one below its Victims is refused."""
    prover = _measured("shipped", 4, 3)
    assert {fact.text for fact in prover.facts if "(CP-SAT)" in fact.text and fact.round == 3} == {
        "at most 29 cards owned after round 3 (CP-SAT)", "at most 3 cards in the Reserve after round 3 (CP-SAT)",
        "at most 17 Victims on the display after round 3 (CP-SAT)", "at most 4 children Victims after round 3 (CP-SAT)"}
    states = _witness_states(3)
    assert cut_respected(prover, states)
    assert prover.layout is not None
    victims = measures(prover.layout, prover.state(3))["Victims on the display"]
    assert _value(prover, 3, victims, states[3]) == 14
    assert not cut_respected(prover, states, [victims <= 13])
    for company, movement in itertools.product(AGENTS, AGENTS):
        simulated = round_starts(GAMES["shipped"], 0, Matchup(company, movement), 3)
        if len(simulated) == 4:
            assert cut_respected(prover, simulated)


def test_a_bound_by_cases_is_refused_where_a_game_reaches_the_threshold() -> None:
    """Round 2 of the tiny file by cases (a Sequence or not, a mid-play reshuffle or not): each case from round 1's
    facts, then the largest over rounds 0..2. Its Profit hunt reaches a Profit Victory at turn 2, and the cases
    reach the threshold too, so no bound is asserted (about 3 CPU-seconds)."""
    prover = _cut("tiny", 3)
    cut = prover.profit_cut
    assert cut is not None
    assert not cut._by_cases(2, Budget.of(None))
    assert 2 not in cut.at_most and not any("by cases" in fact.text for fact in prover.facts)
    asked = [step.text for step in cut.steps if "largest potential after round 2" in step.text]
    assert sum("from round 1's facts" in text for text in asked) == 4
    assert any("over rounds 0..2" in text for text in asked)
    # Asked again (as after a call cut off by its budget), the maxima already proved are not asked again.
    before = len(cut.steps)
    cut._cases_asked.discard(2)
    assert not cut._by_cases(2, Budget.of(None))
    assert not any("largest potential" in step.text for step in cut.steps[before:])


def test_cases_left_unasked_for_lack_of_budget_are_recorded() -> None:
    """Round 2 of the tiny file is due for its cases (the test above asks them). Asked for its bound on a budget
    under `CASES_MIN_S`, the cut does not ask them and records the seconds that were left, for the answer's note
    (`queries._note_cases_not_asked`); asked again with the budget for them, it asks them and forgets the record
    (about 4 CPU-seconds)."""
    prover = _cut("tiny", 3)
    cut = prover.profit_cut
    assert cut is not None and 2 not in cut.at_most and not cut.cases_not_asked
    prover._unroll(2)
    cut._prove_bound(2, Budget.of(60.0), cpsat=True)
    assert 0 < cut.cases_not_asked[2] <= 60.0 < CASES_MIN_S
    assert not any("largest potential after round 2" in step.text for step in cut.steps)
    cut._prove_bound(2, Budget.of(None), cpsat=True)
    assert any("largest potential after round 2" in step.text for step in cut.steps)
    assert 2 not in cut.cases_not_asked


@pytest.mark.slow
def test_the_profit_cut_proves_turn_5_of_the_shipped_set_by_cases() -> None:
    """About 360-420 CPU-seconds, and about 160 more for the searching agents' games: round 4 may have a mid-play
    reshuffle, so its bound comes by cases (a Sequence or not, a mid-play reshuffle or not), each asked down to the
    target 45 (turn 5 is proved from it): at most 45 (the case with a Sequence and none, over rounds 0..4, its
    optimum; the others stopped at or under it), and one round from any state within it stays under 70. The
    recorded game (potential 40 after round 4) and simulated games (every pairing, the searching agents' too) meet
    every bound and fact (round 4's is the largest of the cases' bounds, some from searches stopped at the target);
    a bound one below the recorded game's potential after round 4 is refused."""
    prover = _cut("shipped", 5)
    cut = prover.profit_cut
    assert cut is not None and cut.turn == 5 and cut.at_most[4] == 45
    assert any(fact.round == 4 and "by cases" in fact.text for fact in prover.facts)
    assert "looping-plays-shrink" in prover.lemma_names()
    states = _witness_states(4)
    assert len(states) == 5 and cut_respected(prover, states)
    reached = _value(prover, 4, potential(prover.state(4)), states[4])
    assert reached == 40
    assert not cut_respected(prover, states, [cut.bound(4, reached - 1)])
    matchups = [Matchup(company, movement) for company, movement in itertools.product(AGENTS, AGENTS)]
    games = [(0, matchup) for matchup in matchups]
    if spiel_available():  # and every searching game of the shipped set (`searching_games`)
        games += [(seed, matchup) for name, seed, matchup in EVERY_GAME if name == "shipped"]
    for seed, matchup in games:
        simulated = round_starts(GAMES["shipped"], seed, matchup, 4)
        if len(simulated) == 5:
            assert cut_respected(prover, simulated), f"seed {seed} {matchup}: a bound cuts off the game"


def test_the_target_is_the_bound_the_next_turn_is_proved_from() -> None:
    """The shipped set's target after round 2 is at least the bound proved there (18, from which turn 3 is proved)
    and under the threshold; the bounds tried are not left behind as facts, and the search is kept."""
    prover = CUTS["shipped"]
    cut = prover.profit_cut
    assert cut is not None
    facts = list(prover.facts)
    target = cut.target(2, Budget.of(None))
    assert target is not None and cut.at_most[2] <= target < GAMES["shipped"].cards.rules.profit_to_win
    assert len(prover.facts) == len(facts) and all(a is b for a, b in zip(prover.facts, facts, strict=True))
    checks = prover.checks
    assert cut.target(2, Budget.of(None)) == target and prover.checks == checks


@pytest.mark.parametrize("name", sorted(EARLIEST))
def test_no_target_lies_at_or_above_a_bound_games_meet_where_a_game_reaches_the_next_turn(name: str) -> None:
    """On the tiny files a Profit Victory is reached at turn 2, so no bound that every game meets after round 1
    can prove turn 2: the target after round 1 lies below the bound proved there (which the games meet), or there is
    none."""
    cut = CUTS[name].profit_cut
    assert cut is not None and EARLIEST[name] == 2
    target = cut.target(1, Budget.of(None))
    assert target is None or target < cut.at_most[1]


def _from_game_state(prover: ScheduleProver, r: int, last: int, state: GameState,
                     numbered: bool = True) -> list[z3.BoolRef]:
    """Rounds `r`+1..`last` of the abstraction from the game's state after round `r` (the lemmas, and nothing else,
    asserted of it); `numbered=False` leaves out each round's removal bounds (`ScheduleProver.round_formulas`)."""
    assert prover.layout is not None
    prover._unroll(last)
    return [prover.system.invariant(prover.state(r)),
            *[f for k in range(r + 1, last + 1) for f in prover.round_formulas(k, numbered)],
            *[prover.state(r)[name] == value for name, value in prover.layout.project(state).items()]]


def _one_round_reaches_the_target(prover: ScheduleProver, r: int, state: GameState) -> z3.CheckSatResult:
    """Whether round `r`+1 of the abstraction, from the game's state after round `r`, reaches the Profit Victory."""
    solver = z3.SolverFor("QF_LIA")
    solver.add(*_from_game_state(prover, r, r + 1, state), prover.system.target(prover.state(r + 1)))
    return solver.check()


def test_from_the_recorded_states_one_round_decides_the_win() -> None:
    """From a reachable state the abstraction's round is tight: from the recorded game's state after round 5 round 6
    cannot end in a Profit Victory (the game's does not), and from its state after round 6 round 7 can (the game's
    does), so the check can fail. About 1 CPU-second."""
    states = _witness_states(6)
    assert len(states) == 7
    prover = CUTS["shipped"]
    assert _one_round_reaches_the_target(prover, 5, states[5]) == z3.unsat
    assert _one_round_reaches_the_target(prover, 6, states[6]) == z3.sat


def test_a_game_holds_more_after_round_5_than_turn_6_needs() -> None:
    """Why the cut cannot prove the shipped set's turn 6 (docs/solver-measurements.md, "Profit's turn 6, and the
    large file's turn 5"): turn 6 would follow from a bound after round 5 at or below its target, and the recorded
    game's potential after round 5 lies above it, so no bound every game meets is one. About 6 CPU-seconds."""
    prover = CUTS["shipped"]
    cut = prover.profit_cut
    assert cut is not None
    target = cut.target(5, Budget.of(None))
    held = _value(prover, 5, potential(prover.state(5)), _witness_states(5)[5])
    assert target is not None and held > target


def test_two_rounds_from_the_recorded_state_after_round_4_hold_at_most_60_profit() -> None:
    """The abstraction is tight from a reachable state over two rounds too (docs/solver-measurements.md, "The
    abstraction from the best games' own states"): from the recorded game's state after round 4, CP-SAT's largest
    Profit after round 6 is 60, optimal, the latch counted 1,000 more so that a win would show. It is at least the
    game's own 57 (a maximum below it would mean the abstraction misses the game) and under the 70 a win needs. The
    box's domains and no per-round removal bound (more runs): a measurement of the abstraction, not one of the
    cut's proofs. About 10 CPU-seconds."""
    states = _witness_states(6)
    prover = CUTS["shipped"]
    formulas = _from_game_state(prover, 4, 6, states[4], numbered=False)
    box, variables = cpsat.Box(), frozenset(prover.system.variables)
    after = prover.state(6)
    best = cpsat.maximize(formulas, after["profit"] + 1000 * after[PROFIT], lambda n: box.domain(n, variables),
                          Budget.of(None), 300.0, work_limit=120.0)
    assert states[6].profit == 57
    assert best.optimal and best.at_most == best.reached == 60
