"""Breakages of the reasons the engine gives for an illegal action (`engine.explain_illegal`): the right
rejection citing the wrong rule, or a reason that leaves out what the player needs."""

from __future__ import annotations

from collections.abc import Callable

from doubtspec.invariants.mutants.mutant import Patch
from doubtspec.model import engine
from doubtspec.model.actions import Action, Buy, EndBuy, EndPlay, MovementBuy, PlayReserve, PlayStandard
from doubtspec.model.state import GameState
from doubtspec.rulebook import Section


def _blamed_on(rule: Section, kinds: type | tuple[type, ...], instead: Section, reason: str,
               ) -> Callable[[], tuple[Patch, ...]]:
    """A mutant's patches: an illegal action of `kinds` that breaks `rule` is rejected citing `instead`."""

    def patches() -> tuple[Patch, ...]:
        original = engine.explain_illegal

        def explain_illegal(state: GameState, action: Action) -> tuple[Section, str]:
            section, reason_given = original(state, action)
            if section is rule and isinstance(action, kinds):
                return instead, reason
            return section, reason_given

        return ((engine, "explain_illegal", explain_illegal),)

    return patches


# A banned card's standard play is rejected for its payment, as if the ban were not there.
ban_blamed_on_payment = _blamed_on(Section.COMPANY_INTERFERENCE, PlayStandard, Section.SPENDING_BUDGET,
                                    "the payment does not cover the cost")


# A Company action on the Movement's turn is rejected for its own rules, not for the turn.
out_of_turn_blamed_on_the_action = _blamed_on(Section.MOVEMENT_ON_YOUR_GO, (EndPlay, EndBuy),
                                               Section.COMPANY_ON_YOUR_GO, "cards are played only in the Play Phase")


# A Company buy in its Play Phase is rejected for what it buys, as if the phase allowed it.
buy_out_of_phase_blamed_on_buying = _blamed_on(Section.COMPANY_ON_YOUR_GO, Buy, Section.BUYING_CARDS,
                                                "that card cannot be bought from there")


# A play the payment does not cover is rejected for a ban, as if every refused play were banned.
unpaid_play_blamed_on_a_ban = _blamed_on(Section.SPENDING_BUDGET, (PlayStandard, PlayReserve),
                                          Section.COMPANY_INTERFERENCE, "the card is banned")


def turn_left_unsaid() -> tuple[Patch, ...]:
    """An action out of turn is rejected citing the right turn with a reason that does not say whose turn it is."""
    original = engine.explain_illegal

    def explain_illegal(state: GameState, action: Action) -> tuple[Section, str]:
        section, reason = original(state, action)
        if reason.endswith("'s turn to act"):
            return section, "not among the legal actions here"
        return section, reason

    return ((engine, "explain_illegal", explain_illegal),)


# A buy from an empty Market space is rejected for its payment, as if a card were there.
empty_space_blamed_on_payment = _blamed_on(Section.BUYING_A_CARD, MovementBuy, Section.SPENDING_INFLUENCE,
                                            "the flipped cards and tokens do not pay the cost")
