"""The Hypothesis machines: they play whole games, group actions by rule, and run deterministically."""

from __future__ import annotations

import random

import pytest
from hypothesis import settings
from hypothesis.stateful import run_state_machine_as_test
from tests.conftest import count_engine_calls

from doubtspec.invariants.catalog import CATALOG, StateInvariant, select
from doubtspec.invariants.fuzzing import FuzzOptions, run_fuzz
from doubtspec.invariants.machines import ActionKind, GameMachine, Recorder, kind_of, machine_for, violation_type
from doubtspec.invariants.profiles import PROFILES
from doubtspec.model.engine import apply, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.model.rulings import Rulings


def test_every_action_of_a_game_has_a_rule(game: Game) -> None:
    rng = random.Random(1)
    kinds: set[ActionKind] = set()
    for _ in range(5):
        state = new_game(game)
        while state.outcome is None:
            actions = legal_actions(state)
            kinds.update(kind_of(a) for a in actions)
            state = apply(state, actions[rng.randrange(len(actions))])
    assert {ActionKind.CHANCE, ActionKind.COMPANY_PLAY, ActionKind.COMPANY_BUY, ActionKind.COMPANY_END,
            ActionKind.MOVEMENT_PASS, ActionKind.MOVEMENT_CHOICE} <= kinds


def test_machine_rules_cover_every_kind() -> None:
    names = {name for name in dir(GameMachine) if not name.startswith("_")}
    for kind in ActionKind:
        assert kind.value.replace("-", "_") in names
    assert {"probe_banned", "probe_full_hand", "probe_unaffordable", "probe_out_of_turn"} <= names


def test_machine_runs_as_a_hypothesis_test(game: Game) -> None:
    recorder = Recorder()
    machine = machine_for(game, CATALOG, recorder)
    # Derandomized: four random examples played from 36 to 679 steps, so a step floor on them was a coin toss.
    run_state_machine_as_test(machine, settings=settings(PROFILES["ci"].settings(database=None, max_examples=4),
                                                         stateful_step_count=60, derandomize=True))
    assert recorder.examples >= 4 and recorder.steps > 100 and recorder.checks > recorder.steps
    assert recorder.violations() == []


def test_machines_are_kept_apart_by_configuration(game: Game) -> None:
    other = Game(game.cards, Rulings.parse(["draw-order=reshuffle-first"]))
    names = {machine_for(game).__name__, machine_for(other).__name__,
             machine_for(game, select(["tokens"])).__name__}
    assert len(names) == 3 and all(game.cards.fingerprint in n for n in names)
    assert machine_for(game).__name__ == machine_for(game).__name__


def test_violation_types_are_distinct_per_invariant() -> None:
    assert violation_type("tokens.profit") is violation_type("tokens.profit")
    assert violation_type("tokens.profit") is not violation_type("tokens.victims")
    assert issubclass(violation_type("cards.company"), AssertionError)


def test_same_seed_same_run(game: Game) -> None:
    options = FuzzOptions(game, examples=4, database=None, max_steps=50)
    first, second = run_fuzz(options), run_fuzz(options)
    assert (first.seed, first.steps, first.games) == (second.seed, second.steps, second.games)
    assert first.violations == []


def test_budget_runs_in_chunks(game: Game) -> None:
    result = run_fuzz(FuzzOptions(game, budget=0.5, database=None, max_steps=30, seed=3))
    assert result.runs >= 1 and result.examples >= 1 and result.seed == 3


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_profiles(name: str) -> None:
    profile = PROFILES[name]
    hypothesis_settings = profile.settings(database=None)
    assert hypothesis_settings.deadline is None and hypothesis_settings.stateful_step_count == profile.steps
    assert (profile.examples is None) != (profile.budget is None)
    if name == "ci":
        assert profile.seed is not None and profile.examples is not None
    assert settings.get_profile(f"doubtspec-{name}").stateful_step_count == profile.steps


def test_sampled_checks_exist_and_run_first_in_each_example(game: Game) -> None:
    from doubtspec.invariants.catalog import BY_ID
    from doubtspec.invariants.machines import SAMPLED

    assert SAMPLED.issubset(BY_ID)
    machine = machine_for(game, CATALOG, Recorder(), check_every=3)
    assert machine.check_every == 3
    runner = machine()
    assert [runner._due("contract.legal") for _ in range(7)] == [True, False, False, True, False, False, True]
    assert machine_for(game).check_every == PROFILES["ci"].check_every
    assert machine_for(game, corpus_share=0.0).corpus_share == 0.0
    assert machine_for(game).corpus_share == PROFILES["ci"].corpus_share


def test_costly_checks_run_on_the_states_they_apply_to(game: Game) -> None:
    """A `COSTLY` check (an `ON_THEIR_STATES` one) has its chances on the states it applies to: it runs at the first
    of them in each example and every `costly_every`-th (`check_every`-th) after, and a state it does not apply to
    is no chance."""
    from doubtspec.invariants.catalog import BY_ID
    from doubtspec.invariants.machines import COSTLY, ON_THEIR_STATES, SAMPLED, _prudent
    from doubtspec.model.state import Phase

    assert COSTLY | ON_THEIR_STATES <= SAMPLED
    for check_id in COSTLY | ON_THEIR_STATES:
        check = BY_ID[check_id]
        assert isinstance(check, StateInvariant) and check.applies is not None
    machine = machine_for(game, CATALOG, Recorder(), check_every=2, costly_every=3)
    runner = machine()
    owners = [i for i in machine._state_checks if i.id in COSTLY | ON_THEIR_STATES]
    bits = {i.id: bit for i, (bit, _, _) in zip(owners, machine._own, strict=True)}
    full, messaging = bits["tableau.full-offers"], bits["doubt.messaging-tokens-offers"]
    assert runner._own_due(runner.state) == 0  # Set-Up: none of them applies
    rng = random.Random(0)
    state = new_game(game)
    while not (state.phase is Phase.MOVEMENT_TURN and not state.pending and state.m_hand):
        actions = legal_actions(state)
        if state.phase is Phase.COMPANY_PLAY and not state.pending:
            actions = tuple(_prudent(state, actions))
        state = apply(state, actions[rng.randrange(len(actions))])
    assert BY_ID["tableau.full-offers"].applies(state)  # type: ignore[union-attr]
    runner.seen = None  # a state with no node: asked afresh each time
    due = [runner._own_due(state) for _ in range(7)]
    assert [bool(d & full) for d in due] == [True, False, False, True, False, False, True]
    assert [bool(d & messaging) for d in due] == [True, False, False, True, False, False, True]
    if "rule.lobbied-goal-offers" in bits:
        assert [bool(d & bits["rule.lobbied-goal-offers"]) for d in due] == [True, False] * 3 + [True]
    again = machine()  # the next example: its first chance again
    again.seen = None
    assert again._own_due(state) & full


def test_a_step_that_passed_the_solver_oracle_is_not_asked_again(game: Game) -> None:
    """The oracle is due by the example's own steps, but a step that passed it before (Hypothesis replays an
    example's prefix, and with it the step its oracle check falls on) is not asked of Z3 again, until the engine
    changes (`derived.forget`)."""
    from doubtspec.invariants import derived
    from doubtspec.invariants.catalog import TransitionInvariant

    calls: list[object] = []

    def counting(before: object, action: object, after: object) -> None:
        calls.append(action)

    oracle = TransitionInvariant("oracle.solver", "the oracle, counted", (), counting)
    machine = machine_for(game, (oracle,), Recorder())
    first = machine()
    action = legal_actions(first.state)[0]
    first.oracle_kind = type(action)
    first._apply(action)
    assert calls == [action]
    again = machine()
    again.oracle_kind = type(action)
    again._apply(action)
    assert calls == [action] and again.oracle_done  # due, and passed before
    derived.forget()
    fresh = machine()
    fresh.oracle_kind = type(action)
    fresh._apply(action)
    assert calls == [action, action]


def test_violation_counts_decisions_beside_steps(game: Game) -> None:
    from doubtspec.invariants.machines import Violation
    from doubtspec.model.actions import Chance, EndPlay, Pass

    state = new_game(game)
    violation = Violation(CATALOG[0], "m", game, (Chance(1), Pass(), Chance(2), EndPlay()), 4, None, state)
    assert violation.decisions == 2 and violation.step == 4


def test_states_known_clean_are_kept_per_machine_and_forgotten_with_the_engine(game: Game) -> None:
    """A state or step met again (Hypothesis replays an example's prefix) is not checked again; a changed engine
    (`derived.forget`, as a mutant does) empties the record, and each machine keeps its own."""
    from doubtspec.invariants import derived

    machine = machine_for(game, CATALOG, Recorder())
    assert machine.clean is not machine_for(game).clean
    runner = machine()
    assert runner.seen is not None and runner.seen.checked == machine._state_full  # all checks, SAMPLED included
    checks = machine.recorder.checks
    again = machine()  # the same Set-Up state: known clean, counted, not checked again
    assert again.seen is runner.seen and machine.recorder.checks > checks
    derived.forget()
    assert not runner.clean and not machine.met.nodes


def test_steps_met_again_follow_the_engine_answer_recorded_then(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """A step met again (Hypothesis replays an example's prefix) takes the successor the engine gave the first
    time, the same object, without asking the engine; `derived.forget` (a changed engine) empties the record."""
    from doubtspec.invariants import derived, machines
    from doubtspec.model import engine

    calls = count_engine_calls(monkeypatch, machines)
    machine = machine_for(game, (), Recorder())
    first = machine()
    action = engine.legal_actions(first.state)[0]
    first._apply(action)
    assert len(calls) == 1 and first.seen is not None and first.seen.state is first.state
    again = machine()
    assert again.seen is not None and again.seen.state is first.trail[0]  # Set-Up, met again
    again._apply(action)
    assert len(calls) == 1 and again.state is first.state  # the recorded answer, not a new one
    derived.forget()
    fresh = machine()
    fresh._apply(action)
    assert len(calls) == 2 and fresh.state == first.state and fresh.state is not first.state


def test_a_full_record_of_states_met_starts_afresh_and_drops_the_old_answers(game: Game,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """When `known.Met` is full it starts again empty, and the dropped nodes forget their successors (else they
    would keep the old record alive); a node met again after that is a new one, asked of the engine again."""
    from doubtspec.invariants import known

    monkeypatch.setattr(known, "KNOWN_SIZE", 2)
    met = known.Met()
    first = new_game(game)
    node = met.node(first)
    assert node is not None and met.node(first) is node
    action = legal_actions(first)[0]
    after = met.node(apply(first, action))
    assert after is not None
    node.successors[action] = known.Edge(after)
    node.legal = legal_actions(first)
    third = met.node(apply(after.state, legal_actions(after.state)[0]))  # the record was full: afresh
    assert third is not None and len(met.nodes) == 1
    assert node.successors == {} and node.legal is None
    again = met.node(first)
    assert again is not None and again is not node and again == node


def test_rule_calls_after_the_end_of_a_game_draw_nothing(game: Game) -> None:
    """Once the game is over the machine's next rule costs no choice: the first probes the finished game out of
    turn, the others are the `chance` rule (a no-op then); while the game goes on, rules are drawn as before."""
    from hypothesis.control import BuildContext
    from hypothesis.errors import StopTest
    from hypothesis.internal.conjecture.data import ConjectureData

    machine = machine_for(game, CATALOG, Recorder())()
    live = ConjectureData.for_choices([])
    machine._observability_predicates = live._observability_predicates  # as a Hypothesis run sets it
    with pytest.raises(StopTest):  # a game in progress: choosing its next rule takes choices
        live.draw(machine._rules_strategy)
    rng = random.Random(3)
    while machine.state.outcome is None:
        actions = legal_actions(machine.state)
        machine._apply(actions[rng.randrange(len(actions))])
    data = ConjectureData.for_choices([])
    with BuildContext(data, wrapped_test=lambda: None):  # `st.data()`, the rules' argument, needs one
        chosen = [data.draw(machine._rules_strategy)[0].function.__name__ for _ in range(4)]
        without = machine_for(game, select(["tokens"]), Recorder())()  # no out-of-turn probe selected: no probe
        without.state = machine.state
        chosen.append(data.draw(without._rules_strategy)[0].function.__name__)
    assert chosen == ["probe_out_of_turn", "chance", "chance", "chance", "chance"] and data.length == 0
