"""The rules fuzzers as test modules that pytest and HypoFuzz run unchanged.

Each class is a `RuleBasedStateMachine.TestCase`: the engine under one card set and one reading of
the open rules, checked against the whole invariant catalog after every step (the costly checks at
the profile's rates). The settings come from the Hypothesis profile named by `DOUBTSPEC_PROFILE`
(default `doubtspec-dev`); HypoFuzz ignores the example count and runs each for as long as it is
left running.

    pytest fuzz/                     # a bounded run of every machine
    hypothesis fuzz fuzz/            # HypoFuzz: fuzz them all until stopped (see fuzz/README.md)
"""

from __future__ import annotations

import os

from hypothesis import settings

from doubtspec.invariants.machines import GameMachine, machine_for
from doubtspec.invariants.profiles import PROFILES, register
from doubtspec.invariants.ruling_sweep import RULING_VARIANTS
from doubtspec.model.cards import load_cards
from doubtspec.model.game import Game
from doubtspec.model.rulings import Rulings

register()
_NAME = os.environ.get("DOUBTSPEC_PROFILE", "doubtspec-dev")
_PROFILE = settings.get_profile(_NAME)
_RATES = PROFILES.get(_NAME.removeprefix("doubtspec-"), PROFILES["dev"])


def _machine(*rulings: str) -> type[GameMachine]:
    machine = machine_for(Game(load_cards(), Rulings.parse(rulings)), check_every=_RATES.check_every,
                          oracle_every=_RATES.oracle_every, corpus_share=_RATES.corpus_share,
                          costly_every=_RATES.costly_every)
    machine.TestCase.settings = _PROFILE
    return machine


TestDefaultRulings = _machine().TestCase
# The ruling variants of `doubtspec fuzz` (`invariants.ruling_sweep`), one machine each.
TestReshuffleFirst = _machine(*RULING_VARIANTS[0]).TestCase
TestAnyTrashBuyable = _machine(*RULING_VARIANTS[1]).TestCase
TestTriggersBeforeEffects = _machine(*RULING_VARIANTS[2]).TestCase
TestMessagingAnyZones = _machine(*RULING_VARIANTS[3]).TestCase
