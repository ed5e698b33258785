"""The Movement's abstraction (solver/abstraction/movement.py) admits every round the engine plays.

Its "impossible by turn k" is only a proof about the game if every concrete round is one of its
transitions. So every round of simulated games (every agent pairing, the searching agents' included)
and of runs whose Movement moves Hypothesis draws is projected onto the abstraction's variables and checked with Z3; the
abstraction's answers are compared with the exhaustive search on the tiny Movement file, and a
deliberately wrong abstraction must be caught by the same check.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from admission import (
    CARD_FILES,
    FIRST_SEED,
    assert_movement_rounds_admitted,
    movement_events,
    movement_round_states,
    simulated_states,
)
from doubtspec.agents.base import Matchup
from doubtspec.agents.simulate import iter_game
from doubtspec.model.actions import MovementBuy
from doubtspec.model.cards import MarketAction, load_cards
from doubtspec.model.engine import apply, current_actor, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.model.state import Actor, GameState, OutcomeReason, Phase
from doubtspec.reports.trace import check_cards, load_trace
from doubtspec.solver import exhaustive
from doubtspec.solver.abstraction.movement import MovementModel, RoundCheck
from doubtspec.solver.abstraction.movement_pacing import first_pacing_round
from doubtspec.solver.abstraction.movement_prover import movement_abstraction
from doubtspec.solver.abstraction.movement_witness import RoundPlan, RunPlan, concretize
from doubtspec.solver.hunt import turn_reached
from doubtspec.solver.unrolling.bmc import Caps
from doubtspec.solver.unrolling.witness import replay_actions
from doubtspec.solver.verdict import Budget, TurnVerdict
from searching_games import ROUNDS, searching_games

DATA = Path(__file__).parent / "data"
ADMITTED = {name: Game(load_cards(path)) for name, path in CARD_FILES.items()}
"""Every card file of the admission tests: each file's own Movement cards and Goals meet the abstraction (a Refresh
forbidden to flip a card flipped to pay that turn refused 18 rounds of games on tiny.toml and tiny3.toml, which the
Movement's tests once never played, and none of 110 on the shipped set at the same seeds)."""
SHIPPED, TINY, LARGE = ADMITTED["shipped"], ADMITTED["tiny_movement"], ADMITTED["large"]
FILES = {"shipped": SHIPPED, "tiny": TINY, "large": LARGE}
AGENTS = ("random", "careful", "greedy")


@pytest.mark.parametrize("company", AGENTS)
@pytest.mark.parametrize("movement", AGENTS)
def test_every_round_of_simulated_games_is_admitted(company: str, movement: str) -> None:
    """Every pairing on every card file: the games of the Company's admission test."""
    checked = 0
    for seed, game in enumerate(ADMITTED.values(), FIRST_SEED):
        dealt, starts = movement_round_states(simulated_states(game, seed, Matchup(company, movement), 8))
        checked += assert_movement_rounds_admitted(game, dealt, starts)
    assert checked >= len(ADMITTED)


@pytest.mark.parametrize(("card_file", "seed", "matchup"), searching_games(ADMITTED))
def test_every_round_of_a_searching_agents_game_is_admitted(card_file: str, seed: int, matchup: Matchup) -> None:
    """A searching Movement (`searching_games`) goes for its Goals, so its rounds reach the Goals' effects more
    often than the plain agents' do."""
    game = ADMITTED[card_file]
    dealt, starts = movement_round_states(simulated_states(game, seed, matchup, ROUNDS))
    assert assert_movement_rounds_admitted(game, dealt, starts) > 0


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), company=st.sampled_from(AGENTS), movement=st.sampled_from(AGENTS),
       card_file=st.sampled_from(sorted(ADMITTED)))
def test_every_round_of_any_simulated_game_is_admitted(seed: int, company: str, movement: str,
                                                       card_file: str) -> None:
    game = ADMITTED[card_file]
    dealt, starts = movement_round_states(simulated_states(game, seed, Matchup(company, movement), 6))
    assert_movement_rounds_admitted(game, dealt, starts)


RARE = (
    ("G1 achieved", "shipped", 3, "careful", "greedy"),
    ("G2 achieved", "shipped", 1, "careful", "greedy"),
    ("G3 achieved", "shipped", 0, "careful", "greedy"),
    ("G4 achieved", "shipped", 2, "careful", "greedy"),
    ("G5 achieved", "shipped", 2, "careful", "greedy"),
    ("G6 achieved", "shipped", 11, "careful", "greedy"),
    ("G7 achieved", "shipped", 9, "greedy", "greedy"),
    ("G8 achieved", "tiny_movement", 5, "careful", "greedy"),
    ("G9 achieved", "tiny_movement", 12, "careful", "greedy"),
    ("a Goal achieved over several rounds", "shipped", 1, "careful", "greedy"),
    ("a Goal Victory", "tiny_movement", 5, "careful", "greedy"),
)
"""A game of a card file that shows each rare situation of the Movement's rounds within 8 rounds
(`admission.movement_events`): every Goal's effects, a Goal paid over several rounds, the victory. Of 810 games of
the shipped, large and tiny-Movement files, G7 is achieved in 12, G8 in 6 and G9 in 3 (all on the tiny file)."""


@pytest.mark.parametrize(("event", "card_file", "seed", "company", "movement"), RARE)
def test_rounds_of_rare_situations_are_admitted(event: str, card_file: str, seed: int, company: str,
                                                movement: str) -> None:
    game, matchup = ADMITTED[card_file], Matchup(company, movement)
    states = list(simulated_states(game, seed, matchup, 8))
    dealt, starts = movement_round_states(iter(states))
    shown = movement_events(states)
    # the round it happens in is one the check below admits (not one the game ends in another way)
    assert shown.get(event) in {start.round for start in starts[:-1]}, (
        f"{card_file} seed {seed} {matchup} no longer shows {event!r} in a round it checks: choose another game")
    assert assert_movement_rounds_admitted(game, dealt, starts) >= 1


def _drawn_run(game: Game, choose: Callable[[Actor, int], int], rounds: int) -> Iterator[GameState]:
    """A game whose every choice (both sides and chance) is made by `choose` among the legal ones."""
    state = new_game(game)
    while (actor := current_actor(state)) is not Actor.TERMINAL and state.round <= rounds:
        actions = legal_actions(state)
        if not actions:
            return
        state = apply(state, actions[choose(actor, len(actions))])
        yield state


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), card_file=st.sampled_from(sorted(ADMITTED)))
def test_every_round_of_generated_runs_is_admitted(data: st.DataObject, card_file: str) -> None:
    """Generated states: Hypothesis draws every choice (shrinking finds the smallest failing run)."""
    game = ADMITTED[card_file]
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))

    def choose(actor: Actor, n: int) -> int:
        # The Movement's choices are drawn (and shrunk); the rest follow the seed, to keep runs long.
        if actor is Actor.MOVEMENT:
            return data.draw(st.integers(0, n - 1))
        return rng.randrange(n)

    dealt, starts = movement_round_states(_drawn_run(game, choose, 5))
    assert_movement_rounds_admitted(game, dealt, starts)


def test_a_wrong_abstraction_is_caught() -> None:
    """The check can fail: an abstraction that forgets the cards' Passive Abilities rejects some round."""
    model = MovementModel(SHIPPED)
    wrong = MovementModel(SHIPPED)
    # No Pacing gains at all: a round whose Pacing pays a Passive is then not a transition.
    wrong.cards = tuple(type(r)(r.number, r.influence, r.research, r.messaging, r.agitation, r.left, r.right,
                                (0, 0, 0, 0)) for r in model.cards)
    check = RoundCheck(wrong)
    rejected = 0
    for seed in range(2):
        dealt, starts = movement_round_states(simulated_states(SHIPPED, seed, Matchup("greedy", "greedy"), 10))
        assert dealt is not None
        values = [model.project(s, dict(enumerate(dealt))) for s in starts]
        rejected += sum(not check.admits_round(a, b, s.round)
                        for a, b, s in zip(values, values[1:], starts, strict=False))
    assert rejected > 0


# --- answers, against the exhaustive search on the tiny Movement file -------------------------------

def _abstract_earliest(game: Game, goal: int | None, bound: int) -> int | None:
    """The first turn the abstraction cannot rule out (None: every turn up to `bound` proved impossible).

    Each check is bounded by Z3's work (`movement_prover.TURN_RLIMITS`); the wall-clock budget is only the outer
    bound, wide enough for a loaded machine (with 60 s, G8's turn 4, 12 CPU-seconds, was cut off at load 9)."""
    proofs = movement_abstraction(game, goal).decide(bound, Budget.of(900))
    assert all(p.verdict is not TurnVerdict.UNKNOWN for p in proofs)
    possible = [p.turn for p in proofs if p.verdict is TurnVerdict.POSSIBLE]
    return possible[0] if possible else None


def test_tiny_answers_flip_between_turns_one_and_two() -> None:
    """G1 at turn 1; G7 and Goal Victory impossible at turn 1 and possible at turn 2 (as the exhaustive search says)."""
    assert _abstract_earliest(TINY, 1, 2) == 1
    assert _abstract_earliest(TINY, 7, 2) == 2
    assert _abstract_earliest(TINY, None, 2) == 2


def test_tiny_agreement_with_the_exhaustive_search_at_turn_one() -> None:
    caps = Caps(plays=1, buys=1)
    for goal in (7,):
        found = exhaustive.search_state(TINY, lambda s, g=goal: g in s.achieved, 1, caps, passive=False,
                                        distinct_goals=(goal,))
        assert found.complete
        assert _abstract_earliest(TINY, goal, 1) == found.found


@pytest.mark.slow
def test_tiny_agreement_with_the_exhaustive_search_at_turn_two() -> None:
    caps = Caps(plays=1, buys=1)
    for goal in (1, 7):
        found = exhaustive.search_state(TINY, lambda s, g=goal: g in s.achieved, 2, caps, passive=False,
                                        distinct_goals=(goal,))
        assert found.complete
        assert _abstract_earliest(TINY, goal, 2) == found.found
    victory = exhaustive.search(TINY, exhaustive.outcome_is(OutcomeReason.GOAL_VICTORY), 2, caps, passive=False)
    assert victory.complete
    assert _abstract_earliest(TINY, None, 2) == victory.found


# --- the Pacing lemma ------------------------------------------------------------------------------


def test_the_pacing_lemma_is_claimed_for_the_shipped_tiny_and_large_files() -> None:
    for game in FILES.values():
        lemma = first_pacing_round(game)
        assert lemma.claimed and lemma.first_round == 2, lemma.why


def test_the_pacing_lemma_is_refused_when_the_starting_cards_draw_enough() -> None:
    """Four cards left in a five-card-hand Company's deck after Set-Up: round 1 may end with Pacing."""
    cards = SHIPPED.cards
    short = dataclasses.replace(cards, starting_deck=cards.starting_deck[:9])
    lemma = first_pacing_round(Game(short))
    assert not lemma.claimed and lemma.names == ()


@pytest.mark.parametrize("company", AGENTS)
def test_no_simulated_game_paces_in_round_one(company: str) -> None:
    for seed in range(3):
        for move in iter_game(SHIPPED, seed, Matchup(company, "random"), max_rounds=2):
            assert not (move.after.phase is Phase.PACING and move.after.round == 1)


# --- an earliest turn proved: the abstraction's bound met by a recorded game -----------------------


def _recorded_turn(goal: int, turn: int) -> int:
    """The turn at which the recorded game `witness_g{goal}_turn{turn}.trace` achieves Goal `goal`."""
    trace = load_trace(DATA / f"witness_g{goal}_turn{turn}.trace")
    assert check_cards(trace, SHIPPED) is None
    final = replay_actions(SHIPPED, trace.parsed())
    assert goal in final.achieved
    return turn_reached(final)


@pytest.mark.parametrize("goal", [6, 7])
def test_goals_six_and_seven_earliest_at_turn_four_on_the_shipped_set(goal: int) -> None:
    """The abstraction rules out G6 and G7 by turn 3; recorded games that follow its turn-4 runs (two Pacings
    in a row: the Company draws through its deck with Sales Conference, Sales Representative and Distribution
    Network in round 3) achieve them at turn 4, one turn before the hunt's witnesses."""
    assert _recorded_turn(goal, 4) == 4
    assert _abstract_earliest(SHIPPED, goal, 3) is None


def test_goal_eight_reached_at_turn_five_on_the_shipped_set() -> None:
    """Three Pacings in a row (rounds 2-4) and three Organize buys: G8 at turn 5, three turns before the hunt's."""
    assert _recorded_turn(8, 5) == 5


def test_goal_victory_reached_at_turn_seven_on_the_shipped_set() -> None:
    """Five Goals (10 points) by turn 7, four turns before the hunt's witness; the abstraction rules out turn 6."""
    trace = load_trace(DATA / "witness_win_turn7.trace")
    assert check_cards(trace, SHIPPED) is None
    final = replay_actions(SHIPPED, trace.parsed())
    assert final.outcome is not None and final.outcome.reason is OutcomeReason.GOAL_VICTORY
    assert turn_reached(final) == 7


# The abstraction's first turn-7 run for Goal Victory (Pacing in rounds 2-6). The engine's Company paces
# only four times, so in round 7 the run's Agitation space is empty: the refinement buys at the other one.
TURN_SEVEN_RUN = RunPlan(3, (1, 6, 8, 9, 7, 3, 5, 2, 4), (
    RoundPlan(None, 3, 34, frozenset(), None, 7, 0, None, False),
    RoundPlan(None, 4, 9, frozenset({3}), 34, None, 0, None, True),
    RoundPlan(9, None, None, frozenset({3}), None, None, 0, None, True),
    RoundPlan(None, 3, 2, frozenset({9, 3}), None, 8, 0, None, True),
    RoundPlan(None, 3, 6, frozenset(), None, 5, 0, None, True),
    RoundPlan(None, 3, 25, frozenset(), None, 4, 1, None, True),
    RoundPlan(None, 3, None, frozenset({3}), None, 1, 0, None, False)))


@pytest.mark.parametrize("card_file", ["shipped", "large"])
def test_refinement_uses_another_space_with_the_runs_action(card_file: str) -> None:
    """The large file shares the shipped set's Movement cards, Goals and Market; its Company differs (and
    makes every Pacing of the run, so there the run is followed exactly)."""
    game = FILES[card_file]
    actions = concretize(game, TURN_SEVEN_RUN, None)
    assert actions is not None
    final = replay_actions(game, actions)
    assert final.points() >= 10 and turn_reached(final) == 7
    last = [a for a in actions if isinstance(a, MovementBuy)][-1]
    assert game.cards.market[last.space].action is MarketAction.AGITATION
    assert (last.space != 3) is (card_file == "shipped")


@pytest.mark.slow
def test_goal_eight_earliest_at_turn_five_on_the_shipped_set() -> None:
    assert _abstract_earliest(SHIPPED, 8, 4) is None


# --- refinement: the abstraction's run played in the engine ------------------------------------------


def _refined(game: Game, goal: int | None, bound: int) -> int | None:
    """The turn at which the engine game built from the abstraction's first "possible" run reaches the target."""
    prover = movement_abstraction(game, goal)
    proofs = prover.decide(bound, Budget.of(120))
    if prover.witness is None:
        return None
    final = replay_actions(game, prover.witness)
    reached = turn_reached(final)
    assert (goal in final.achieved) if goal is not None else final.points() >= 10
    assert [p.turn for p in proofs if p.concrete and p.verdict is TurnVerdict.POSSIBLE] == [reached]
    return reached


def test_refinement_turns_the_tiny_abstract_runs_into_games() -> None:
    assert _refined(TINY, 7, 3) == 2
    assert _refined(TINY, None, 3) == 2


@pytest.mark.slow
@pytest.mark.parametrize(("goal", "turn"), [(6, 4), (7, 4), (8, 5)])
def test_refinement_reaches_the_abstraction_bound_on_the_shipped_set(goal: int, turn: int) -> None:
    assert _refined(SHIPPED, goal, turn) == turn


def test_a_run_the_engine_cannot_follow_is_excluded_and_another_tried(monkeypatch: pytest.MonkeyPatch) -> None:
    from doubtspec.solver.abstraction import movement_prover

    tried: list[int] = []
    real = movement_prover.concretize

    def fails_first(game: Game, plan: object, goal: int | None) -> object:
        tried.append(len(tried))
        return None if len(tried) == 1 else real(game, plan, goal)  # type: ignore[arg-type]

    monkeypatch.setattr(movement_prover, "concretize", fails_first)
    assert _refined(TINY, 7, 3) == 2 and len(tried) == 2
