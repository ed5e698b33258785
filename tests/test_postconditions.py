"""The `rule.*` postconditions: quiet on the engine as it is, and each fails on the rule bug it is for.

Seeded, steered games (the fuzzer's own steering) are played through the engine and every `rule`
and `scoring` invariant (and each other one a mutant below names, probes included) is checked at
each step. Without a mutant nothing may fire; with each of the mutants written for the rule areas
that conservation laws cannot see, its invariant must fire within a few games. These are fast
stand-ins for `tests/test_mutants.py`, which fuzzes each mutant with the whole ci profile (slow for
these).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from doubtspec.invariants.catalog import BY_ID, CATALOG, ProbeInvariant, StateInvariant, TransitionInvariant
from doubtspec.invariants.machines import _organised, _prudent
from doubtspec.invariants.mutants import MUTANTS
from doubtspec.model.actions import Action, Buy, PlayReserve, PlayStandard
from doubtspec.model.engine import apply, current_actor, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.model.state import Actor, GameState, Phase

RULE_MUTANTS = ("trash-at-face-value", "reshuffle-at-five", "reserve-trashed-left-to-right", "bonus-from-flipped",
                "play-one-cheaper", "restriction-withheld", "restriction-from-empty-pile", "pays-only-unequal",
                "star-at-thirteen", "four-lobbies", "short-hand-kept",
                "defeat-ignores-bans", "banned-reserve-triggers", "banned-reshuffle-effects", "removed-card-to-hand",
                "pacing-without-refresh", "pacing-refresh-cascades", "progress-not-credited", "unlobby-next-space",
                "empty-draw-stalls",
                "organize-wrong-end", "buy-only-when-full", "reshuffle-before-drawing", "no-flips", "effect-once",
                "first-payments-only", "superfluous-flips", "agitation-needs-two", "agitation-forced",
                "messaging-goes-on", "victims-discounted", "lobbying-not-charged", "flight-spares-lobbying",
                "flight-sized-by-cost",
                "lobby-same-card-twice", "rounds-from-two", "ban-blamed-on-payment",
                "empty-space-blamed-on-payment", "icons-or-tokens", "part-of-column-clears-it", "progress-not-returned",
                "marginalized-game-not-over", "second-lobbying-toggles", "removed-card-pays", "organize-one-end",
                "action-icons-face-down", "hand-goals-do-not-stack", "company-moves-first", "draw-reshuffles-early",
                "pass-counts-face-down", "victims-all-or-nothing", "discount-leftover-kept", "lobby-forced",
                "loopholes-wakes-banned-reserve", "profit-victory-every-turn", "refresh-spares-paid-cards",
                "trash-not-counted-for-defeat", "goals-set-aside-dealt-first", "declined-agitation-banked",
                "pass-only-when-stuck", "refresh-bonus-cascades", "reshuffle-effects-keep-card",
                "chart-counts-reserve-profit", "loopholes-play-wakes-nothing", "turn-opens-in-buy",
                "short-deck-drawn-out", "doubt-left-column-first", "reshuffle-lobby-from-supply",
                "reserve-right-to-left", "organize-skips-full-tableau", "one-buy-per-turn",
                "reserve-before-first-play", "play-while-you-can",
                "lobbied-market-card-kept", "first-starting-card-only",
                "agitation-surplus-goes-on", "defeat-named-marginalization",
                "doubt-declinable", "removal-declinable", "profit-victory-named-marginalization",
                "staying-card-to-right-end", "doubt-guard-reads-victims", "ban-guard-reads-flight",
                "organize-buy-keeps-turn", "bans-lifted-at-reshuffle",
                "undealt-pairs-to-trash", "discount-cleared-at-end-play", "unlobby-bare-cards",
                "messaging-victim-beyond-zone", "effect-remainder-last", "skip-declines-one-token",
                "payment-held-in-play", "discard-before-trigger", "passives-in-sequence",
                "trash-card-in-play", "trash-repeats", "play-beside-lone-card-right-only",
                "organize-buy-reclaims-flight", "organize-twice", "doubt-column-by-opponent", "stacks-dealt-by-company",
                "reshuffle-effects-in-play", "ban-charges-reserve-cards",
                "movement-dealt-a-hand-card", "winning-goal-gains-withheld",
                "short-deck-keeps-a-hand-card", "messaging-card-taken-first",
                "buy-first-payments-only", "second-lobby-token-forced", "reserve-cleared-before-effects",
                "company-turn-before-organize-refill", "trashed-budgetless-at-face-value",
                "organize-removes-at-its-end", "organize-refill-needs-a-hand", "flight-kept-with-full-market",
                "profit-play-withheld-on-short-supply", "doubt-effect-lost-on-short-supply", "lobby-effect-one-token")
WHAT_IFS = ("lobby.offers", "hand.marginalization-offers", "outcome.defeat-offers", "ban.trigger-offers",
            "ban.reshuffle-offers", "ban.silent-reshuffle-offers", "tableau.full-offers")
CHECKED = tuple(inv for inv in CATALOG if inv.id.split(".")[0] in ("rule", "scoring") or inv.id in WHAT_IFS
                or any(inv.id in MUTANTS[name].caught_by for name in RULE_MUTANTS))


def _first_violation(game: Game, seeds: range, wanted: tuple[str, ...] | None = None) -> tuple[str, str] | None:
    """Play steered games; the first (invariant id, message) among `wanted` (all checked if None)."""
    checks = [inv for inv in CHECKED if wanted is None or inv.id in wanted]
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(game)
        organised = seed % 2 == 0
        for _ in range(1500):
            if state.outcome is not None:
                break
            actions = legal_actions(state)
            if current_actor(state) is Actor.COMPANY and not state.pending and state.phase is Phase.COMPANY_PLAY:
                actions = tuple(_prudent(state, actions))
            if organised and state.phase is Phase.MOVEMENT_TURN:
                actions = tuple(_organised(state, actions))
            action = actions[rng.randrange(len(actions))]
            before, state = state, apply(state, action)
            for inv in checks:
                if isinstance(inv, TransitionInvariant):
                    message = inv.check(before, action, state)
                elif isinstance(inv, StateInvariant):
                    message = inv.check(state)
                elif isinstance(inv, ProbeInvariant):
                    message = next((m for m in (inv.check(state, a) for a in inv.candidates(state)) if m), None)
                else:
                    continue
                if message is not None:
                    return inv.id, message
    return None


def test_postconditions_hold_on_the_engine(game: Game) -> None:
    assert _first_violation(game, range(12)) is None


@pytest.mark.parametrize("name", RULE_MUTANTS)
def test_postconditions_catch_rule_bugs(game: Game, name: str) -> None:
    mutant = MUTANTS[name]
    with mutant.active():
        found = _first_violation(game, range(12), mutant.caught_by)
    assert found is not None, f"{name} was not caught by {mutant.caught_by}"


def _company_steps(game: Game, count: int) -> list[tuple[GameState, Action]]:
    """The first `count` free Company plays and buys of a seeded steered game, with their states."""
    rng = random.Random(3)
    state = new_game(game)
    found: list[tuple[GameState, Action]] = []
    while state.outcome is None and len(found) < count:
        actions = legal_actions(state)
        if current_actor(state) is Actor.COMPANY and not state.pending and state.phase is Phase.COMPANY_PLAY:
            actions = tuple(_prudent(state, actions))
        action = actions[rng.randrange(len(actions))]
        if not state.pending and isinstance(action, PlayReserve | Buy | PlayStandard):
            found.append((state, action))
        state = apply(state, action)
    return found


def test_solver_oracle_agrees_with_the_engine_and_catches_a_wrong_successor(game: Game) -> None:
    oracle = BY_ID["oracle.solver"]
    assert isinstance(oracle, TransitionInvariant)
    steps = _company_steps(game, 3)
    assert steps
    for before, action in steps:
        assert oracle.check(before, action, apply(before, action)) is None
    before, action = next((b, a) for b, a in steps if isinstance(a, PlayReserve | Buy))
    wrong = dataclasses.replace(apply(before, action), plays=before.plays + 5)
    message = oracle.check(before, action, wrong)
    assert message is not None and "plays" in message


def test_setup_postcondition_checks_the_first_decision(game: Game) -> None:
    setup = BY_ID["rule.setup"]
    assert isinstance(setup, StateInvariant)
    rng = random.Random(5)
    state = new_game(game)
    while state.pending or state.phase is not Phase.MOVEMENT_TURN:
        actions = legal_actions(state)
        state = apply(state, actions[rng.randrange(len(actions))])
    assert setup.check(state) is None
    assert setup.check(dataclasses.replace(state, victims=(9, 0, 0, 0))) is not None
    assert setup.check(dataclasses.replace(state, goals=state.goals[6:] + state.goals[:6])) is not None
    # A Set-Up that leaves something where no Set-Up step puts it cannot hide the first decision from the check.
    assert setup.check(dataclasses.replace(state, m_hand=state.m_deck[:1], m_deck=state.m_deck[1:])) is not None
    assert setup.check(dataclasses.replace(state, c_discard=state.c_hand[:1], c_hand=state.c_hand[1:])) is not None
    assert setup.check(dataclasses.replace(state, tableau=state.tableau * 2)) is not None
    assert setup.check(dataclasses.replace(state, flight=1)) is not None
