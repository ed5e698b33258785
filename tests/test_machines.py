"""The Hypothesis machines: they play whole games, group actions by rule, and run deterministically."""

from __future__ import annotations

import random

import pytest
from hypothesis import settings
from hypothesis.stateful import run_state_machine_as_test

from doubtspec.invariants.catalog import CATALOG, select
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
    run_state_machine_as_test(machine, settings=settings(PROFILES["ci"].settings(database=None, max_examples=4),
                                                         stateful_step_count=60))
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

    calls: list[object] = []
    real_apply = engine.apply

    def counting_apply(state: object, action: object) -> object:
        calls.append(action)
        return real_apply(state, action)  # type: ignore[arg-type]

    monkeypatch.setattr(machines.engine, "apply", counting_apply)
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
